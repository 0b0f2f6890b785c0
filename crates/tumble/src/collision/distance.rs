//! Signed distance between two rounded shapes: GJK on the cores, EPA when
//! the cores overlap, then the radii folded back in.
//!
//! This is also the one-point contact every rounded pair falls back on: a
//! rounded shape touches another along a point, so one contact is all there
//! is to report.

use super::epa::epa;
use super::gjk::{gjk_distance, ShapeProxy};
use super::{Manifold, ManifoldPoint};
use crate::math::{is_finite_vec, Transform, Vec2};
use crate::shapes::Shape;

/// Cores closer than this are treated as touching: the direction between
/// their closest points is noise, so EPA (or a fallback) supplies the normal.
const CORE_TOUCHING_DISTANCE: f32 = 1.0e-6;

/// The distance between two shapes placed in the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceOutput {
    /// Signed distance between the rounded surfaces: positive when apart,
    /// negative (minus the penetration depth) when overlapping.
    pub distance: f32,
    /// The point of A's surface nearest B (deepest inside B when overlapping).
    pub point_a: Vec2,
    /// The point of B's surface nearest A.
    pub point_b: Vec2,
    /// Unit normal from A to B: B moves along it to get away from A.
    pub normal: Vec2,
    /// True when the shapes overlap (`distance < 0`).
    pub overlapping: bool,
}

/// Signed distance, closest points and normal between two shapes placed by
/// their transforms. Works for every pair, rounded or not.
///
/// ```
/// # use tumble::{Circle, Shape, Transform, Vec2};
/// # use tumble::collision::shape_distance;
/// let a: Shape = Circle::new(Vec2::ZERO, 1.0).unwrap().into();
/// let b: Shape = Circle::new(Vec2::ZERO, 0.5).unwrap().into();
/// let out = shape_distance(&a, &Transform::IDENTITY, &b, &Transform::new(Vec2::new(4.0, 0.0), 0.0));
/// assert!((out.distance - 2.5).abs() < 1e-6);
/// assert_eq!(out.normal, Vec2::X);
/// ```
pub fn shape_distance(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> DistanceOutput {
    let relative = xf_a.inv_mul(*xf_b);
    let proxy_a = ShapeProxy::from_shape(a);
    let proxy_b = ShapeProxy::from_shape(b).transformed(relative);
    let center_offset = relative.apply(b.centroid()) - a.centroid();
    let contact = rounded_contact(&proxy_a, &proxy_b, center_offset);
    DistanceOutput {
        distance: contact.separation,
        point_a: xf_a.apply(contact.surface_a),
        point_b: xf_a.apply(contact.surface_b),
        normal: xf_a.q.rotate(contact.normal),
        overlapping: contact.separation < 0.0,
    }
}

/// The nearest (or deepest) points of two rounded cores given in one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RoundedContact {
    /// Unit normal from A to B.
    pub normal: Vec2,
    /// Signed distance of the rounded surfaces.
    pub separation: f32,
    /// Point on A's rounded surface.
    pub surface_a: Vec2,
    /// Point on B's rounded surface.
    pub surface_b: Vec2,
    /// Index of A's core point nearest B.
    pub feature_a: usize,
    /// Index of B's core point nearest A.
    pub feature_b: usize,
}

/// A usable unit normal: `n` if it has a direction, else the offset between
/// the shape centers, else straight up.
pub(crate) fn normal_or_fallback(n: Vec2, center_offset: Vec2) -> Vec2 {
    let tiny = f32::MIN_POSITIVE.sqrt();
    [n, center_offset]
        .into_iter()
        .filter(|v| is_finite_vec(*v) && v.length() > tiny)
        .map(|v| v.normalize())
        .next()
        .unwrap_or(Vec2::Y)
}

/// GJK, then EPA if the cores overlap, then the radii: the signed distance
/// and surface points of two rounded cores. `center_offset` (B's center minus
/// A's) orients the normal when the geometry gives none.
pub(crate) fn rounded_contact(a: &ShapeProxy, b: &ShapeProxy, center_offset: Vec2) -> RoundedContact {
    let gjk = gjk_distance(a, b);
    let (normal, core_separation, core_a, core_b) =
        if !gjk.overlapping && gjk.distance > CORE_TOUCHING_DISTANCE {
            let n = (gjk.point_b - gjk.point_a) / gjk.distance;
            (n, gjk.distance, gjk.point_a, gjk.point_b)
        } else {
            let pen = epa(a, b, &gjk.simplex);
            (pen.normal, -pen.depth, pen.point_a, pen.point_b)
        };
    let normal = normal_or_fallback(normal, center_offset);
    RoundedContact {
        normal,
        separation: core_separation - a.radius - b.radius,
        surface_a: core_a + a.radius * normal,
        surface_b: core_b - b.radius * normal,
        feature_a: gjk.feature_a,
        feature_b: gjk.feature_b,
    }
}

/// A one-point manifold (in the frame the contact was computed in), or an
/// empty one when the surfaces are farther apart than `speculative`.
pub(crate) fn one_point_manifold(contact: &RoundedContact, speculative: f32, id: u64) -> Manifold {
    let mut manifold = Manifold {
        normal: contact.normal,
        ..Manifold::default()
    };
    if contact.separation <= speculative && contact.separation.is_finite() {
        manifold.points[0] = ManifoldPoint {
            point: 0.5 * (contact.surface_a + contact.surface_b),
            separation: contact.separation,
            id,
            ..ManifoldPoint::default()
        };
        manifold.count = 1;
    }
    manifold
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::{Capsule, Circle, Polygon};

    #[test]
    fn capsule_above_box_is_apart_by_the_gap() {
        let ground: Shape = Polygon::new_box(5.0, 1.0).unwrap().into();
        let capsule: Shape = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.25)
            .unwrap()
            .into();
        let xf = Transform::new(Vec2::new(0.3, 1.75), 0.0);
        let out = shape_distance(&ground, &Transform::IDENTITY, &capsule, &xf);
        assert!((out.distance - 0.5).abs() < 1e-5, "{out:?}");
        assert!((out.normal - Vec2::Y).length() < 1e-5);
        assert!((out.point_a.y - 1.0).abs() < 1e-5);
        assert!((out.point_b.y - 1.5).abs() < 1e-5);
        assert!(!out.overlapping);
    }

    #[test]
    fn rounded_overlap_counts_the_radii() {
        let a: Shape = Circle::new(Vec2::ZERO, 0.5).unwrap().into();
        let b: Shape = Polygon::new_rounded(
            &[
                Vec2::new(-1.0, -1.0),
                Vec2::new(1.0, -1.0),
                Vec2::ONE,
                Vec2::new(-1.0, 1.0),
            ],
            0.1,
        )
        .unwrap()
        .into();
        let xf_b = Transform::new(Vec2::new(1.4, 0.0), 0.0);
        let out = shape_distance(&a, &Transform::IDENTITY, &b, &xf_b);
        // Cores: the point (0,0) and the box face at x = 0.4: 0.4 - 0.5 - 0.1.
        assert!((out.distance + 0.2).abs() < 1e-5, "{out:?}");
        assert!(out.overlapping);
        assert!((out.normal - Vec2::X).length() < 1e-5);
    }

    #[test]
    fn a_box_beside_a_tall_wall_is_apart_by_the_gap_on_its_side() {
        // A 160 m wall and a small box turned a quarter, a few millimetres
        // from its face: the Minkowski difference has 160 m edges, and the
        // box must read as apart, on the wall's side it is on, at every gap.
        let wall: Shape = Polygon::new_offset_box(0.5, 80.0, Vec2::new(-80.5, 80.0), 0.0)
            .unwrap()
            .into();
        let (hx, hy) = (0.39844647, 0.38000864);
        let b: Shape = Polygon::new_box(hx, hy).unwrap().into();
        let q = crate::math::Rot {
            c: 0.0011893071,
            s: 0.9999993,
        };
        let reach = hy * q.s + hx * q.c;
        for gap in [0.002f32, 0.005, 0.01, 0.05] {
            let xf = Transform {
                p: Vec2::new(-80.0 + reach + gap, 1.3959327),
                q,
            };
            let out = shape_distance(&wall, &Transform::IDENTITY, &b, &xf);
            assert!(!out.overlapping, "gap {gap}: {out:?}");
            assert!((out.distance - gap).abs() < 1e-4, "gap {gap}: {out:?}");
            assert!(out.normal.x > 0.999, "gap {gap}: {out:?}");
        }
    }

    #[test]
    fn a_box_through_the_back_of_a_tall_wall_overlaps_it_by_its_depth() {
        // The box pokes 6.5 cm out of the wall's back face, its other side
        // 33.5 cm inside: the shortest way out is back through that face.
        // (GJK once stopped at a segment of the difference 2 mm from the
        // origin, the origin inside, and read the box as in front.)
        let wall: Shape = Polygon::new_offset_box(0.5, 80.0, Vec2::new(-80.5, 80.0), 0.0)
            .unwrap()
            .into();
        let b: Shape = Polygon::new_box(0.16378796, 0.23070173).unwrap().into();
        let q = crate::math::Rot {
            c: -0.9859394,
            s: 0.16710332,
        };
        let reach = 0.16378796 * q.c.abs() + 0.23070173 * q.s.abs();
        let xf = Transform {
            p: Vec2::new(-80.86533, 1.1887925),
            q,
        };
        let out = shape_distance(&wall, &Transform::IDENTITY, &b, &xf);
        let depth = xf.p.x + reach - -81.0;
        assert!(out.overlapping, "{out:?}");
        assert!((out.distance + depth).abs() < 1e-4, "{out:?}, depth {depth}");
        assert!(out.normal.x < -0.999, "{out:?}");
    }

    #[test]
    fn deep_overlap_uses_epa() {
        let a: Shape = Polygon::new_box(1.0, 1.0).unwrap().into();
        let xf_b = Transform::new(Vec2::new(0.0, 1.5), 0.3);
        let out = shape_distance(&a, &Transform::IDENTITY, &a, &xf_b);
        assert!(out.overlapping);
        assert!(out.distance < -0.5, "{out:?}");
        assert!(out.normal.y > 0.9, "{out:?}");
    }

    #[test]
    fn fallback_normals() {
        assert_eq!(normal_or_fallback(Vec2::ZERO, Vec2::new(0.0, -2.0)), -Vec2::Y);
        assert_eq!(normal_or_fallback(Vec2::NAN, Vec2::ZERO), Vec2::Y);
        assert_eq!(normal_or_fallback(Vec2::new(3.0, 0.0), Vec2::Y), Vec2::X);
    }

    #[test]
    fn concentric_circles_fall_back_to_up() {
        let a: Shape = Circle::new(Vec2::ZERO, 1.0).unwrap().into();
        let out = shape_distance(&a, &Transform::IDENTITY, &a, &Transform::IDENTITY);
        assert_eq!(out.normal, Vec2::Y);
        assert!((out.distance + 2.0).abs() < 1e-6);
    }
}
