//! Closed-form contacts for pairs with a circle: circle-circle,
//! capsule-circle and polygon-circle. A circle touches anything along one
//! point, so each manifold has at most one.
//!
//! Each function works in A's frame and maps the result to the world; the
//! reverse orders (circle-capsule, circle-polygon) are these with the normal
//! flipped, in [`collide`](super::collide).

use super::distance::normal_or_fallback;
use super::sat::point_max_separation;
use super::{feature_id, CornerCone, Manifold, ManifoldPoint};
use crate::math::{right_perp, Transform, Vec2};
use crate::shapes::{Capsule, Circle, Polygon};

/// Below this distance two centers (or a center and a core) coincide and
/// their difference has no usable direction.
const COINCIDENT_DISTANCE: f32 = 1.0e-6;

/// The one-point manifold between a core point `core_a` of radius `radius_a`
/// and a circle center `center_b` of radius `radius_b`, along `normal`
/// (unit, from A to B), with the core distance `distance` along it.
fn disc_contact(
    core_a: Vec2,
    radius_a: f32,
    center_b: Vec2,
    radius_b: f32,
    normal: Vec2,
    distance: f32,
    speculative: f32,
) -> Manifold {
    let separation = distance - radius_a - radius_b;
    let mut manifold = Manifold {
        normal,
        ..Manifold::default()
    };
    if separation <= speculative && separation.is_finite() {
        let surface_a = core_a + radius_a * normal;
        let surface_b = center_b - radius_b * normal;
        manifold.points[0] = ManifoldPoint {
            point: 0.5 * (surface_a + surface_b),
            separation,
            id: feature_id(0, 0, false),
            ..ManifoldPoint::default()
        };
        manifold.count = 1;
    }
    manifold
}

/// Contact between two circles.
pub fn collide_circles(
    a: &Circle,
    xf_a: Transform,
    b: &Circle,
    xf_b: Transform,
    speculative: f32,
) -> Manifold {
    let center_b = xf_a.inv_mul(xf_b).apply(b.center);
    let offset = center_b - a.center;
    let distance = offset.length();
    // Concentric circles have no preferred direction: push B up.
    let normal = if distance > COINCIDENT_DISTANCE {
        offset / distance
    } else {
        Vec2::Y
    };
    disc_contact(
        a.center,
        a.radius,
        center_b,
        b.radius,
        normal,
        distance,
        speculative,
    )
    .transformed(xf_a)
}

/// A circle (at `xf_circle`) against one face of a shape at `xf`: the
/// face from `v1` to `v2` in that shape's frame, with its outward
/// `normal` and the shape's rounding `radius`. One point along the face
/// normal if the circle's center is beside the face and within
/// `speculative` of it, with the id a face and a circle always have; for
/// a one-sided chain segment and for a polygon's face a seam allows.
pub(super) fn circle_on_face(
    (v1, v2, normal, radius): (Vec2, Vec2, Vec2, f32),
    xf: Transform,
    (circle, xf_circle): (&Circle, Transform),
    speculative: f32,
) -> Manifold {
    let center = xf.inv_apply(xf_circle.apply(circle.center));
    let edge = v2 - v1;
    let t = (center - v1).dot(edge) / edge.length_squared();
    let separation = normal.dot(center - v1) - radius - circle.radius;
    if !(0.0..=1.0).contains(&t) || separation > speculative || !separation.is_finite() {
        return Manifold::default();
    }
    let mut m = Manifold {
        normal,
        count: 1,
        ..Manifold::default()
    };
    m.points[0] = ManifoldPoint {
        point: center - (circle.radius + 0.5 * separation) * normal,
        separation,
        id: feature_id(0, 0, false),
        ..ManifoldPoint::default()
    };
    m.transformed(xf)
}

/// The point of segment `p`-`q` nearest `c`.
fn closest_point_on_segment(p: Vec2, q: Vec2, c: Vec2) -> Vec2 {
    let e = q - p;
    let length_squared = e.length_squared();
    if length_squared <= 0.0 {
        return p;
    }
    let t = ((c - p).dot(e) / length_squared).clamp(0.0, 1.0);
    p + t * e
}

/// Contact between a capsule (A) and a circle (B).
pub fn collide_capsule_circle(
    a: &Capsule,
    xf_a: Transform,
    b: &Circle,
    xf_b: Transform,
    speculative: f32,
) -> Manifold {
    collide_capsule_circle_beside(a, xf_a, b, xf_b, speculative).0
}

/// How far along a segment `p`-`q` the projection of `point` is from the
/// nearer end (negative beyond the segment).
fn margin_along(p: Vec2, q: Vec2, point: Vec2) -> f32 {
    let e = q - p;
    let length = e.length();
    if length <= 0.0 {
        return f32::NEG_INFINITY;
    }
    let along = (point - p).dot(e) / length;
    along.min(length - along)
}

/// The nearest point of a straight edge to a circle center beside it (its
/// projection strictly between the edge's ends), the edge's own unit
/// `normal` facing the center, and the center's `distance` from the
/// edge's line. Beside an edge the normal is the edge's, not the
/// direction to the nearest point: that direction carries the point's
/// rounding, which grows with the edge's length, and would tilt a long
/// floor under a ball at rest enough to roll it away.
#[inline]
fn beside_edge(center: Vec2, normal: Vec2, distance: f32) -> (Vec2, Vec2, f32) {
    (center - distance * normal, normal, distance)
}

/// Where a circle meets the other shape, which says how long its manifold
/// may be kept and which way it may be held off.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Around {
    /// Beside a straight side, its center `margin` from the side's nearer
    /// end.
    Side(f32),
    /// At a corner (a polygon's vertex, a capsule's end): the directions
    /// that hold the circle off it, from the other shape towards the
    /// circle, in world axes.
    Corner(CornerCone),
    /// Neither: the center inside the other's core, or on it.
    Neither,
}

/// [`collide_capsule_circle`], and where the circle meets the capsule: its
/// side or one of its ends.
pub(crate) fn collide_capsule_circle_beside(
    a: &Capsule,
    xf_a: Transform,
    b: &Circle,
    xf_b: Transform,
    speculative: f32,
) -> (Manifold, Around) {
    let center_b = xf_a.inv_mul(xf_b).apply(b.center);
    let nearest = closest_point_on_segment(a.center1, a.center2, center_b);
    let offset = center_b - nearest;
    let distance = offset.length();
    let margin = margin_along(a.center1, a.center2, center_b);
    let beside = distance > COINCIDENT_DISTANCE && margin > 0.0;
    let across = right_perp(a.center2 - a.center1).normalize_or_zero();
    let (nearest, normal, distance, around) = if beside && across != Vec2::ZERO {
        // The side's normal, turned to face the center.
        let normal = if across.dot(offset) < 0.0 { -across } else { across };
        let (nearest, normal, distance) = beside_edge(center_b, normal, (center_b - a.center1).dot(normal));
        (nearest, normal, distance, Around::Side(margin))
    } else if distance > COINCIDENT_DISTANCE {
        // Off an end: every direction out of that end's half of the plane
        // has the end as the segment's extreme point.
        let faces = if nearest == a.center1 {
            [-across, across]
        } else {
            [across, -across]
        };
        let cone = CornerCone::of_corner(faces, a.radius + b.radius).rotated(xf_a.q);
        (nearest, offset / distance, distance, Around::Corner(cone))
    } else {
        // A center on the segment leaves soonest sideways, across it.
        let center_offset = center_b - 0.5 * (a.center1 + a.center2);
        (
            nearest,
            normal_or_fallback(across, center_offset),
            distance,
            Around::Neither,
        )
    };
    let manifold = disc_contact(
        nearest,
        a.radius,
        center_b,
        b.radius,
        normal,
        distance,
        speculative,
    )
    .transformed(xf_a);
    (manifold, around)
}

/// Contact between a (possibly rounded) polygon (A) and a circle (B). When
/// the center is inside the polygon the face of least penetration wins;
/// outside, the nearest point of the polygon's boundary.
pub fn collide_polygon_circle(
    a: &Polygon,
    xf_a: Transform,
    b: &Circle,
    xf_b: Transform,
    speculative: f32,
) -> Manifold {
    collide_polygon_circle_beside(a, xf_a, b, xf_b, speculative).0
}

/// [`collide_polygon_circle`], and where the circle meets the polygon: a
/// face or a corner.
pub(crate) fn collide_polygon_circle_beside(
    a: &Polygon,
    xf_a: Transform,
    b: &Circle,
    xf_b: Transform,
    speculative: f32,
) -> (Manifold, Around) {
    let center_b = xf_a.inv_mul(xf_b).apply(b.center);
    let n = a.count;

    // The face the center is farthest in front of.
    let (best_face, best_separation) = point_max_separation(a, center_b);
    let radius = a.radius + b.radius;
    if best_separation - radius > speculative {
        return (Manifold::default(), Around::Neither);
    }
    let next = if best_face + 1 < n { best_face + 1 } else { 0 };
    let (v1, v2) = (a.vertices[best_face], a.vertices[next]);
    let margin = margin_along(v1, v2, center_b);

    if best_separation <= 0.0 {
        // Center inside the core: leave through the face of least
        // penetration.
        let normal = a.normals[best_face];
        let on_face = center_b - best_separation * normal;
        let manifold = disc_contact(
            on_face,
            a.radius,
            center_b,
            b.radius,
            normal,
            best_separation,
            speculative,
        );
        let around = if margin > 0.0 {
            Around::Side(margin)
        } else {
            Around::Neither
        };
        return (manifold.transformed(xf_a), around);
    }

    // Center outside: the nearest point of the core is on the face it is
    // farthest in front of. (Beside that face the distance to it is the
    // separation, which bounds every other face's; in a corner's region
    // the corner's two faces have the normals nearest the offset, and the
    // corner is on both.)
    let (nearest, normal, distance, around) = if margin > 0.0 {
        let (nearest, normal, distance) = beside_edge(center_b, a.normals[best_face], best_separation);
        (nearest, normal, distance, Around::Side(margin))
    } else {
        let nearest = closest_point_on_segment(v1, v2, center_b);
        let offset = center_b - nearest;
        let distance = offset.length();
        if distance > COINCIDENT_DISTANCE {
            // At a corner: the directions between its two faces' normals.
            let corner = if nearest == v1 { best_face } else { next };
            let before = if corner > 0 { corner - 1 } else { n - 1 };
            let faces = [a.normals[before], a.normals[corner]];
            let cone = CornerCone::of_corner(faces, radius).rotated(xf_a.q);
            (nearest, offset / distance, distance, Around::Corner(cone))
        } else {
            (nearest, a.normals[best_face], distance, Around::Neither)
        }
    };
    let manifold = disc_contact(
        nearest,
        a.radius,
        center_b,
        b.radius,
        normal,
        distance,
        speculative,
    )
    .transformed(xf_a);
    (manifold, around)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circle(r: f32) -> Circle {
        Circle::new(Vec2::ZERO, r).unwrap()
    }

    fn at(x: f32, y: f32) -> Transform {
        Transform::new(Vec2::new(x, y), 0.0)
    }

    #[test]
    fn circle_circle_depth() {
        // Radii 1 and 0.5, centers 1.2 apart: depth 0.3 along +x.
        let m = collide_circles(&circle(1.0), at(2.0, 3.0), &circle(0.5), at(3.2, 3.0), 0.0);
        assert_eq!(m.count, 1);
        assert!((m.points[0].separation + 0.3).abs() < 1e-6);
        assert!((m.normal - Vec2::X).length() < 1e-6);
        // Midway between the surfaces at x = 3.0 and x = 2.7.
        assert!((m.points[0].point - Vec2::new(2.85, 3.0)).length() < 1e-5);
        assert_eq!(m.points[0].id, 1);
    }

    #[test]
    fn circle_circle_speculative_limit() {
        let a = circle(1.0);
        let b = circle(1.0);
        assert_eq!(collide_circles(&a, at(0.0, 0.0), &b, at(2.05, 0.0), 0.1).count, 1);
        assert_eq!(collide_circles(&a, at(0.0, 0.0), &b, at(2.15, 0.0), 0.1).count, 0);
        assert_eq!(collide_circles(&a, at(0.0, 0.0), &b, at(2.05, 0.0), 0.0).count, 0);
    }

    #[test]
    fn concentric_circles_push_up() {
        let m = collide_circles(&circle(1.0), at(1.0, 1.0), &circle(2.0), at(1.0, 1.0), 0.0);
        assert_eq!(m.normal, Vec2::Y);
        assert!((m.points[0].separation + 3.0).abs() < 1e-6);
    }

    #[test]
    fn circle_resting_on_box() {
        let ground = Polygon::new_box(5.0, 0.5).unwrap();
        let ball = circle(0.5);
        // Ball center at y = 0.999: 0.001 into the ground's top at y = 0.5.
        let m = collide_polygon_circle(&ground, at(0.0, 0.0), &ball, at(1.0, 0.999), 0.0);
        assert_eq!(m.count, 1);
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        assert!((m.points[0].separation + 0.001).abs() < 1e-5);
        assert!((m.points[0].point - Vec2::new(1.0, 0.4995)).length() < 1e-5);
    }

    #[test]
    fn a_ball_beside_a_long_edge_meets_the_edges_own_normal() {
        // Along a 2 km floor the direction to the nearest point of the
        // edge carries that point's rounding; the edge's normal does not.
        // A box's face, and a segment's (a capsule's) side level and
        // tilted: along a tilted side the normal is the same everywhere.
        let ground = Polygon::new_box(1000.0, 0.5).unwrap();
        let level = crate::shapes::Segment::new(Vec2::new(-1000.0, 0.0), Vec2::new(1000.0, 0.0))
            .unwrap()
            .as_capsule();
        let slope = Vec2::new(1.0, 0.3).normalize();
        let tilted = Capsule::new(-1000.0 * slope, 1000.0 * slope, 0.25).unwrap();
        let ball = circle(0.5);
        let mut tilted_normal = None;
        for k in 0..200 {
            let x = -990.0 + 9.9 * k as f32 + 0.37;
            for gap in [-0.002, 0.0, 0.004] {
                let m = collide_polygon_circle(&ground, at(0.0, 0.0), &ball, at(x, 1.0 + gap), 0.02);
                assert_eq!(m.normal, Vec2::Y, "box, x {x}, gap {gap}");
                assert!((m.points[0].separation - gap).abs() < 1e-4, "x {x}: {m:?}");
                let m = collide_capsule_circle(&level, at(0.0, 0.0), &ball, at(x, 0.5 + gap), 0.02);
                assert_eq!(m.normal, Vec2::Y, "segment, x {x}, gap {gap}");
                assert!((m.points[0].separation - gap).abs() < 1e-4, "x {x}: {m:?}");
                let center = x * slope + (0.75 + gap) * right_perp(slope) * -1.0;
                let m = collide_capsule_circle(&tilted, at(0.0, 0.0), &ball, at(center.x, center.y), 0.02);
                assert_eq!(*tilted_normal.get_or_insert(m.normal), m.normal, "tilted, x {x}");
                assert!((m.points[0].separation - gap).abs() < 1e-3, "x {x}: {m:?}");
            }
        }
    }

    #[test]
    fn circle_near_box_corner_uses_the_corner() {
        let b = Polygon::new_box(1.0, 1.0).unwrap();
        let m = collide_polygon_circle(&b, at(0.0, 0.0), &circle(1.0), at(1.6, 1.8), 0.0);
        let expected = Vec2::new(0.6, 0.8);
        assert!((m.normal - expected).length() < 1e-5, "{m:?}");
        assert!(m.points[0].separation.abs() < 1e-5);
    }

    #[test]
    fn circle_center_inside_box_leaves_by_nearest_face() {
        let b = Polygon::new_box(2.0, 1.0).unwrap();
        let m = collide_polygon_circle(&b, at(0.0, 0.0), &circle(0.25), at(1.5, 0.2), 0.0);
        // Right face is 0.5 away, top 0.8: leave through the right.
        assert!((m.normal - Vec2::X).length() < 1e-6);
        assert!((m.points[0].separation + 0.75).abs() < 1e-6);
    }

    #[test]
    fn rounded_polygon_and_rotated_frame() {
        let b = Polygon::new_rounded(
            &[
                Vec2::new(-1.0, -1.0),
                Vec2::new(1.0, -1.0),
                Vec2::ONE,
                Vec2::new(-1.0, 1.0),
            ],
            0.2,
        )
        .unwrap();
        let xf_a = Transform::new(Vec2::new(10.0, 0.0), std::f32::consts::FRAC_PI_2);
        // Box turned 90 deg: its local +x face now faces world +y.
        let m = collide_polygon_circle(&b, xf_a, &circle(0.5), at(10.0, 1.6), 0.0);
        assert_eq!(m.count, 1);
        assert!((m.normal - Vec2::Y).length() < 1e-5, "{m:?}");
        assert!((m.points[0].separation + 0.1).abs() < 1e-5, "{m:?}");
    }

    #[test]
    fn capsule_circle_side_and_cap() {
        let cap = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.5).unwrap();
        let m = collide_capsule_circle(&cap, at(0.0, 0.0), &circle(0.5), at(0.3, 0.9), 0.0);
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        assert!((m.points[0].separation + 0.1).abs() < 1e-6);
        let m = collide_capsule_circle(&cap, at(0.0, 0.0), &circle(0.5), at(1.9, 0.0), 0.0);
        assert!((m.normal - Vec2::X).length() < 1e-6);
        assert!((m.points[0].separation + 0.1).abs() < 1e-6);
        // Center on the segment: pushed across it.
        let m = collide_capsule_circle(&cap, at(0.0, 0.0), &circle(0.5), at(0.2, 0.0), 0.0);
        assert!((m.normal.dot(Vec2::Y)).abs() > 0.999, "{m:?}");
        assert!((m.points[0].separation + 1.0).abs() < 1e-6);
    }
}
