//! Ray casts against single shapes, for queries and picking.
//!
//! A ray is a start point and a translation: it covers `origin + t *
//! translation` for `t` in `[0, 1]`. A ray that starts inside a shape does
//! not hit it (use [`Shape::contains_point`] for that).

use crate::math::{right_perp, Transform, Vec2};
use crate::shapes::{Polygon, Shape};

/// Where a ray first enters a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// Fraction of the translation travelled, in `[0, 1]`.
    pub fraction: f32,
    /// World point of entry.
    pub point: Vec2,
    /// World unit normal of the surface there, pointing out of the shape.
    pub normal: Vec2,
}

/// Casts the ray from `origin` along `translation` (both world space) at the
/// shape placed by `xf`. `None` when the ray misses, starts inside, or has no
/// length.
///
/// ```
/// # use tumble::{Circle, Shape, Transform, Vec2};
/// # use tumble::collision::ray_cast;
/// let ball: Shape = Circle::new(Vec2::ZERO, 1.0).unwrap().into();
/// let hit = ray_cast(&ball, Transform::IDENTITY, Vec2::new(-4.0, 0.0), Vec2::new(8.0, 0.0)).unwrap();
/// assert_eq!(hit.fraction, 0.375);
/// assert_eq!(hit.normal, -Vec2::X);
/// ```
pub fn ray_cast(shape: &Shape, xf: Transform, origin: Vec2, translation: Vec2) -> Option<RayHit> {
    if translation.length_squared() <= 0.0 {
        return None;
    }
    let o = xf.inv_apply(origin);
    let d = xf.q.inv_rotate(translation);
    let (fraction, normal) = match shape {
        Shape::Circle(c) => ray_circle(c.center, c.radius, o, d),
        Shape::Capsule(c) => ray_capsule(c.center1, c.center2, c.radius, o, d),
        Shape::Polygon(p) if p.radius > 0.0 => ray_rounded_polygon(p, o, d),
        Shape::Polygon(p) => ray_polygon(p, o, d),
        Shape::Segment(s) => ray_segment(s.point1, s.point2, o, d, false),
        Shape::ChainSegment(c) => ray_segment(c.segment.point1, c.segment.point2, o, d, true),
    }?;
    Some(RayHit {
        fraction,
        point: origin + fraction * translation,
        normal: xf.q.rotate(normal),
    })
}

/// Where the ray `o + t d` crosses the segment from `p1` to `p2`, with the
/// normal of the side it comes from; `one_sided`, only from the right side
/// (a chain segment's solid side).
fn ray_segment(p1: Vec2, p2: Vec2, o: Vec2, d: Vec2, one_sided: bool) -> Option<(f32, Vec2)> {
    let edge = p2 - p1;
    let normal = right_perp(edge).normalize_or_zero();
    let denominator = normal.dot(d);
    if denominator == 0.0 {
        return None; // parallel
    }
    let from_front = denominator < 0.0;
    if one_sided && !from_front {
        return None;
    }
    let t = normal.dot(p1 - o) / denominator;
    if !(0.0..=1.0).contains(&t) {
        return None;
    }
    let s = (o + t * d - p1).dot(edge) / edge.length_squared();
    if !(0.0..=1.0).contains(&s) {
        return None;
    }
    Some((t, if from_front { normal } else { -normal }))
}

/// Entry of the ray `o + t d` into a disc.
fn ray_circle(center: Vec2, radius: f32, o: Vec2, d: Vec2) -> Option<(f32, Vec2)> {
    let p = o - center;
    let c = p.length_squared() - radius * radius;
    let b = p.dot(d);
    if c <= 0.0 || b >= 0.0 {
        return None; // starts inside, or heads away
    }
    let a = d.length_squared();
    let discriminant = b * b - a * c;
    if discriminant < 0.0 {
        return None;
    }
    // The smaller root of a t^2 + 2 b t + c, written as c / (-b + sqrt) so a
    // far-away start does not cancel digits.
    let t = c / (-b + discriminant.sqrt());
    if !(0.0..=1.0).contains(&t) {
        return None;
    }
    let normal = (p + t * d).normalize_or(-d.normalize_or(Vec2::Y));
    Some((t, normal))
}

/// Distance squared from `p` to segment `a`-`b`.
fn distance_squared_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let e = b - a;
    let length_squared = e.length_squared();
    let t = if length_squared > 0.0 {
        ((p - a).dot(e) / length_squared).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance_squared(a + t * e)
}

/// Entry of the ray into a capsule: the nearer of its two end discs and two
/// flat sides.
fn ray_capsule(c1: Vec2, c2: Vec2, radius: f32, o: Vec2, d: Vec2) -> Option<(f32, Vec2)> {
    if distance_squared_to_segment(o, c1, c2) <= radius * radius {
        return None;
    }
    let mut best: Option<(f32, Vec2)> = None;
    let mut consider = |hit: Option<(f32, Vec2)>| {
        if let Some(h) = hit {
            if best.is_none_or(|b| h.0 < b.0) {
                best = Some(h);
            }
        }
    };
    consider(ray_circle(c1, radius, o, d));
    consider(ray_circle(c2, radius, o, d));
    let axis = c2 - c1;
    let length = axis.length();
    if length > 0.0 {
        let along = axis / length;
        for side in [right_perp(along), -right_perp(along)] {
            let denominator = side.dot(d);
            if denominator >= 0.0 {
                continue; // parallel to or leaving this side
            }
            let t = side.dot(c1 + radius * side - o) / denominator;
            if !(0.0..=1.0).contains(&t) {
                continue;
            }
            let s = along.dot(o + t * d - c1);
            if (0.0..=length).contains(&s) {
                consider(Some((t, side)));
            }
        }
    }
    best
}

/// Entry of the ray into a sharp convex polygon: the classic clip of the
/// parameter interval by every face's half-plane.
fn ray_polygon(poly: &Polygon, o: Vec2, d: Vec2) -> Option<(f32, Vec2)> {
    let mut lower = 0.0;
    let mut upper = 1.0;
    let mut entry_face = None;
    for i in 0..poly.count {
        let n = poly.normals[i];
        // Inside face i: n . (o + t d - v) <= 0, i.e. t * den <= num.
        let numerator = n.dot(poly.vertices[i] - o);
        let denominator = n.dot(d);
        if denominator == 0.0 {
            if numerator < 0.0 {
                return None; // parallel and outside this face
            }
        } else if denominator < 0.0 {
            if numerator < lower * denominator {
                lower = numerator / denominator;
                entry_face = Some(i);
            }
        } else if numerator < upper * denominator {
            upper = numerator / denominator;
        }
        if upper < lower {
            return None;
        }
    }
    // No entry face means the ray starts inside.
    entry_face.map(|i| (lower, poly.normals[i]))
}

/// Entry of the ray into a rounded polygon: the union of the core and one
/// capsule per edge, so from outside the first capsule entered is the entry.
fn ray_rounded_polygon(poly: &Polygon, o: Vec2, d: Vec2) -> Option<(f32, Vec2)> {
    let n = poly.count;
    let edge = |i: usize| (poly.vertices[i], poly.vertices[(i + 1) % n]);
    let inside_core = (0..n).all(|i| poly.normals[i].dot(o - poly.vertices[i]) <= 0.0);
    let inside_rounding = (0..n).any(|i| {
        let (a, b) = edge(i);
        distance_squared_to_segment(o, a, b) <= poly.radius * poly.radius
    });
    if inside_core || inside_rounding {
        return None;
    }
    (0..n)
        .filter_map(|i| {
            let (a, b) = edge(i);
            ray_capsule(a, b, poly.radius, o, d)
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::{Capsule, Circle};

    fn close(a: Vec2, b: Vec2) -> bool {
        (a - b).length() < 1e-5
    }

    #[test]
    fn circle_hit_and_misses() {
        let s: Shape = Circle::new(Vec2::new(1.0, 0.0), 0.5).unwrap().into();
        let xf = Transform::new(Vec2::new(0.0, 2.0), 0.0);
        let hit = ray_cast(&s, xf, Vec2::new(1.0, 5.0), Vec2::new(0.0, -4.0)).unwrap();
        assert!((hit.fraction - 0.625).abs() < 1e-6);
        assert!(close(hit.point, Vec2::new(1.0, 2.5)));
        assert!(close(hit.normal, Vec2::Y));
        // Too short, pointing away, starting inside.
        assert!(ray_cast(&s, xf, Vec2::new(1.0, 5.0), Vec2::new(0.0, -2.0)).is_none());
        assert!(ray_cast(&s, xf, Vec2::new(1.0, 5.0), Vec2::new(0.0, 4.0)).is_none());
        assert!(ray_cast(&s, xf, Vec2::new(1.0, 2.0), Vec2::new(0.0, 4.0)).is_none());
        assert!(ray_cast(&s, xf, Vec2::new(1.0, 5.0), Vec2::ZERO).is_none());
    }

    #[test]
    fn box_hit_on_rotated_box() {
        let s: Shape = Polygon::new_box(1.0, 1.0).unwrap().into();
        let xf = Transform::new(Vec2::new(5.0, 0.0), std::f32::consts::FRAC_PI_4);
        // The diamond's left corner is at x = 5 - sqrt(2).
        let hit = ray_cast(&s, xf, Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0)).unwrap();
        assert!((hit.point.x - (5.0 - 2.0_f32.sqrt())).abs() < 1e-5, "{hit:?}");
        assert!(hit.normal.x < 0.0);
        // A ray passing above the diamond misses.
        assert!(ray_cast(&s, xf, Vec2::new(0.0, 1.5), Vec2::new(10.0, 0.0)).is_none());
        // Starting inside misses.
        assert!(ray_cast(&s, xf, Vec2::new(5.0, 0.0), Vec2::new(10.0, 0.0)).is_none());
    }

    #[test]
    fn box_face_normal() {
        let s: Shape = Polygon::new_box(1.0, 2.0).unwrap().into();
        let hit = ray_cast(
            &s,
            Transform::IDENTITY,
            Vec2::new(0.5, 10.0),
            Vec2::new(0.0, -10.0),
        )
        .unwrap();
        assert!((hit.fraction - 0.8).abs() < 1e-6);
        assert!(close(hit.normal, Vec2::Y));
    }

    #[test]
    fn capsule_side_and_cap() {
        let s: Shape = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.5)
            .unwrap()
            .into();
        let side = ray_cast(&s, Transform::IDENTITY, Vec2::new(0.5, -3.0), Vec2::new(0.0, 6.0)).unwrap();
        assert!(close(side.point, Vec2::new(0.5, -0.5)));
        assert!(close(side.normal, -Vec2::Y));
        let cap = ray_cast(&s, Transform::IDENTITY, Vec2::new(4.0, 0.0), Vec2::new(-4.0, 0.0)).unwrap();
        assert!(close(cap.point, Vec2::new(1.5, 0.0)));
        assert!(close(cap.normal, Vec2::X));
        assert!(ray_cast(&s, Transform::IDENTITY, Vec2::new(0.0, 0.2), Vec2::new(0.0, 6.0)).is_none());
    }

    #[test]
    fn rounded_box_corner_is_round() {
        let p = Polygon::new_rounded(
            &[
                Vec2::new(-1.0, -1.0),
                Vec2::new(1.0, -1.0),
                Vec2::ONE,
                Vec2::new(-1.0, 1.0),
            ],
            0.5,
        )
        .unwrap();
        let s: Shape = p.into();
        // Along the diagonal towards the corner (1,1): enters at distance 0.5
        // from it.
        let dir = Vec2::new(-1.0, -1.0).normalize();
        let start = Vec2::new(4.0, 4.0);
        let hit = ray_cast(&s, Transform::IDENTITY, start, 10.0 * dir).unwrap();
        let expected = Vec2::ONE - 0.5 * dir;
        assert!(close(hit.point, expected), "{hit:?}");
        assert!(close(hit.normal, -dir));
        // Face hit: the top face pushed out to y = 1.5.
        let hit = ray_cast(&s, Transform::IDENTITY, Vec2::new(0.0, 3.0), Vec2::new(0.0, -3.0)).unwrap();
        assert!((hit.fraction - 0.5).abs() < 1e-6);
        assert!(close(hit.normal, Vec2::Y));
        assert!(ray_cast(&s, Transform::IDENTITY, Vec2::new(1.2, 1.2), Vec2::new(3.0, 0.0)).is_none());
    }
}
