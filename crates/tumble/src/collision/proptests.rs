//! Property tests of the narrowphase over random convex polygons, capsules,
//! circles and placements: the manifold is always well formed, the pair
//! order only flips the normal, and the clipping path agrees with GJK/EPA.

use super::{collide, ray_cast, shape_distance, time_of_impact, Manifold};
use crate::math::{cross, is_finite_vec, Transform, Vec2};
use crate::settings::SPECULATIVE_DISTANCE;
use crate::shapes::{Capsule, Circle, Polygon, Shape};
use proptest::prelude::*;

/// A float in `[low, high)` drawn on a fine integer grid: proptest's own
/// float ranges occasionally trip an internal assertion while sampling.
fn float(low: f32, high: f32) -> impl Strategy<Value = f32> {
    const STEPS: u32 = 1 << 20;
    (0..STEPS).prop_map(move |k| low + (high - low) * (k as f32 / STEPS as f32))
}

fn point(extent: f32) -> impl Strategy<Value = Vec2> {
    (float(-extent, extent), float(-extent, extent)).prop_map(|(x, y)| Vec2::new(x, y))
}

fn polygon() -> impl Strategy<Value = Shape> {
    (
        prop::collection::vec(point(2.0), 3..=8),
        prop_oneof![Just(0.0f32), float(0.01, 0.4)],
    )
        .prop_filter_map("not a valid polygon", |(points, radius)| {
            Polygon::new_rounded(&points, radius).ok().map(Shape::Polygon)
        })
}

fn capsule() -> impl Strategy<Value = Shape> {
    (point(1.5), point(1.5), float(0.05, 0.6)).prop_filter_map("degenerate capsule", |(a, b, r)| {
        Capsule::new(a, b, r).ok().map(Shape::Capsule)
    })
}

fn circle() -> impl Strategy<Value = Shape> {
    (point(0.5), float(0.05, 1.5)).prop_map(|(c, r)| Shape::Circle(Circle { center: c, radius: r }))
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![3 => polygon(), 2 => capsule(), 1 => circle()]
}

fn transform() -> impl Strategy<Value = Transform> {
    (point(3.0), float(-std::f32::consts::PI, std::f32::consts::PI))
        .prop_map(|(p, angle)| Transform::new(p, angle))
}

/// Every shape scaled about the body origin.
fn scaled(shape: &Shape, k: f32) -> Shape {
    match shape {
        Shape::Circle(c) => Shape::Circle(Circle {
            center: c.center * k,
            radius: c.radius * k,
        }),
        Shape::Capsule(c) => Shape::Capsule(Capsule {
            center1: c.center1 * k,
            center2: c.center2 * k,
            radius: c.radius * k,
        }),
        Shape::Polygon(p) => {
            let mut q = *p;
            for v in &mut q.vertices[..q.count] {
                *v *= k;
            }
            q.centroid *= k;
            q.radius *= k;
            Shape::Polygon(q)
        }
        Shape::Segment(s) => Shape::Segment(crate::shapes::Segment {
            point1: s.point1 * k,
            point2: s.point2 * k,
        }),
        Shape::ChainSegment(c) => Shape::ChainSegment(crate::shapes::ChainSegment {
            ghost1: c.ghost1 * k,
            segment: crate::shapes::Segment {
                point1: c.segment.point1 * k,
                point2: c.segment.point2 * k,
            },
            ghost2: c.ghost2 * k,
        }),
    }
}

fn well_formed(m: &Manifold) -> Result<(), TestCaseError> {
    prop_assert!(m.count <= 2);
    if m.count > 0 {
        prop_assert!(is_finite_vec(m.normal), "{m:?}");
        prop_assert!((m.normal.length() - 1.0).abs() < 1e-4, "{m:?}");
    }
    for p in m.points() {
        prop_assert!(p.separation.is_finite(), "{m:?}");
        prop_assert!(is_finite_vec(p.point), "{m:?}");
        prop_assert!(p.id != 0, "{m:?}");
        prop_assert_eq!(p.normal_impulse, 0.0);
        prop_assert_eq!(p.tangent_impulse, 0.0);
        prop_assert!(!p.persisted);
    }
    if m.count == 2 {
        prop_assert!(m.points[0].id != m.points[1].id, "{m:?}");
    }
    Ok(())
}

proptest! {
    #[test]
    fn manifolds_are_well_formed(a in shape(), xa in transform(), b in shape(), xb in transform()) {
        let m = collide(&a, xa, &b, xb, SPECULATIVE_DISTANCE);
        well_formed(&m)?;
    }

    #[test]
    fn swapping_the_pair_flips_the_normal(
        a in shape(), xa in transform(), b in shape(), xb in transform(),
    ) {
        let spec = SPECULATIVE_DISTANCE;
        let d = shape_distance(&a, &xa, &b, &xb).distance;
        if (d - spec).abs() <= 1e-3 {
            return Ok(()); // on the speculative boundary either answer is right
        }
        let ab = collide(&a, xa, &b, xb, spec);
        let ba = collide(&b, xb, &a, xa, spec);
        prop_assert_eq!(ab.count > 0, ba.count > 0, "{:?}\n{:?}", ab, ba);
        if ab.count == 0 {
            return Ok(());
        }
        let (sab, sba) = (ab.min_separation().unwrap(), ba.min_separation().unwrap());
        // The reference face prefers shape A within a 2 % band, so on a near
        // tie the two orders may measure along different faces.
        let tolerance = 0.03 * sab.abs().max(sba.abs()) + 2e-3;
        prop_assert!((sab - sba).abs() <= tolerance, "{} vs {}\n{:?}\n{:?}", sab, sba, ab, ba);
        // The normal must flip exactly unless the reference face is a near
        // tie, where each order may pick its own first shape's face.
        let near_tie = super::sat::face_separations(&a, xa, &b, xb).is_some_and(|(sa, sb)| {
            (sa - sb).abs() <= 0.03 * sa.abs().max(sb.abs()) + 2e-3
        });
        if !near_tie {
            prop_assert!(ab.normal.dot(ba.normal) < -0.999, "{:?}\n{:?}", ab, ba);
        }
    }

    #[test]
    fn clipping_and_gjk_agree_on_overlap(
        a in shape(), xa in transform(), b in shape(), xb in transform(),
    ) {
        let d = shape_distance(&a, &xa, &b, &xb);
        if d.distance.abs() <= 1e-3 {
            return Ok(()); // touching: either answer is right
        }
        let m = collide(&a, xa, &b, xb, 0.0);
        prop_assert_eq!(m.count > 0, d.overlapping, "{:?}\n{:?}", d, m);
        if m.count > 0 {
            // Both measure the shallowest way out, up to the reference face
            // hysteresis.
            let s = m.min_separation().unwrap();
            let tolerance = 0.03 * d.distance.abs() + 2e-3;
            prop_assert!((s - d.distance).abs() <= tolerance, "{} vs {:?}\n{:?}", s, d, m);
        }
    }

    #[test]
    fn speculative_manifold_matches_the_distance(
        a in shape(), xa in transform(), b in shape(), direction in float(-3.2, 3.2), gap in float(0.0, 0.5),
    ) {
        // Place B just beyond A along a random direction, so most cases are
        // apart by less than a shape size.
        let spec = 0.25;
        let away = Vec2::new(direction.cos(), direction.sin());
        let mut xb = Transform::new(xa.p + (gap + 2.5) * away, direction);
        let d0 = shape_distance(&a, &xa, &b, &xb).distance;
        xb.p -= (d0 - gap) * away;
        let d = shape_distance(&a, &xa, &b, &xb);
        if d.distance <= 1e-3 || (d.distance - spec).abs() <= 1e-3 {
            return Ok(());
        }
        let m = collide(&a, xa, &b, xb, spec);
        prop_assert_eq!(m.count > 0, d.distance < spec, "{:?}\n{:?}", d, m);
        if let Some(s) = m.min_separation() {
            // Apart, a face separation only bounds the distance from below.
            prop_assert!(s <= d.distance + 1e-3, "{} vs {:?}\n{:?}", s, d, m);
            prop_assert!(s > -1e-3, "{} vs {:?}\n{:?}", s, d, m);
            if (s - d.distance).abs() <= 1e-4 {
                // At the true distance the normal is the true direction.
                prop_assert!(m.normal.dot(d.normal) > 0.99, "{:?}\n{:?}", d, m);
            }
        }
    }

    #[test]
    fn a_circle_outside_a_polygon_gets_the_exact_distance(
        a in polygon(), xa in transform(), b in circle(), xb in transform(),
    ) {
        // The polygon-circle routine looks for the nearest point on the
        // face of largest separation only: check it against the nearest
        // point over every edge, found by GJK.
        let d = shape_distance(&a, &xa, &b, &xb);
        if d.distance <= 1e-3 {
            return Ok(());
        }
        let m = collide(&a, xa, &b, xb, 100.0);
        prop_assert_eq!(m.count, 1, "{:?}\n{:?}", d, m);
        let s = m.points[0].separation;
        prop_assert!((s - d.distance).abs() <= 1e-4 * (1.0 + d.distance), "{} vs {:?}\n{:?}", s, d, m);
        prop_assert!(m.normal.dot(d.normal) > 0.999, "{:?}\n{:?}", d, m);
    }

    #[test]
    fn identical_shapes_at_one_place_overlap(a in shape(), xa in transform()) {
        let m = collide(&a, xa, &a, xa, 0.0);
        well_formed(&m)?;
        prop_assert!(m.count > 0);
        prop_assert!(m.max_depth() > 0.0, "{m:?}");
        let d = shape_distance(&a, &xa, &a, &xa);
        prop_assert!(d.overlapping && d.distance.is_finite() && is_finite_vec(d.normal));
    }

    #[test]
    fn huge_and_tiny_scales_stay_finite(
        a in shape(), xa in transform(), b in shape(), xb in transform(),
        k in prop_oneof![Just(1.0e-2f32), Just(1.0e3f32), Just(1.0e4f32)],
    ) {
        let (sa, sb) = (scaled(&a, k), scaled(&b, k));
        let (xa, xb) = (
            Transform { p: xa.p * k, q: xa.q },
            Transform { p: xb.p * k, q: xb.q },
        );
        let m = collide(&sa, xa, &sb, xb, SPECULATIVE_DISTANCE * k);
        well_formed(&m)?;
        // The same pair far from the origin.
        let far = Vec2::new(1.0e4, -1.0e4);
        let shift = |xf: Transform| Transform { p: xf.p + far, q: xf.q };
        let m = collide(&a, shift(xa), &b, shift(xb), SPECULATIVE_DISTANCE);
        well_formed(&m)?;
        let d = shape_distance(&sa, &xa, &sb, &xb);
        prop_assert!(d.distance.is_finite() && is_finite_vec(d.normal));
    }

    #[test]
    fn rays_towards_the_center_hit_the_surface(
        s in shape(), xf in transform(), dir_angle in float(-3.2, 3.2), reach in float(0.5, 6.0),
    ) {
        let center = xf.apply(s.centroid());
        let origin = center + reach * Vec2::new(dir_angle.cos(), dir_angle.sin())
            + 4.0 * Vec2::new(dir_angle.cos(), dir_angle.sin());
        if s.contains_point(xf, origin) {
            return Ok(());
        }
        let hit = ray_cast(&s, xf, origin, 2.0 * (center - origin));
        prop_assert!(hit.is_some());
        let hit = hit.unwrap();
        prop_assert!((0.0..=0.5 + 1e-4).contains(&hit.fraction), "{hit:?}");
        prop_assert!((hit.normal.length() - 1.0).abs() < 1e-4);
        // The hit point lies on the surface: a tiny disc there just touches.
        let probe = Shape::Circle(Circle { center: Vec2::ZERO, radius: 1e-3 });
        let at_hit = Transform::new(hit.point, 0.0);
        let d = shape_distance(&s, &xf, &probe, &at_hit).distance;
        prop_assert!((d + 1e-3).abs() < 2e-3, "{d} {hit:?}");
        // The normal faces back towards the start.
        prop_assert!(hit.normal.dot(origin - hit.point) > 0.0, "{hit:?}");
    }

    #[test]
    fn time_of_impact_is_conservative(
        a in shape(), b in shape(), xb0 in transform(), xb1 in transform(),
        target in prop_oneof![Just(0.0f32), float(0.0, 0.1)],
    ) {
        let still = (Transform::IDENTITY, Transform::IDENTITY);
        let sweep = (xb0, xb1);
        let distance_at = |t: f32| {
            let xf = Transform {
                p: xb0.p.lerp(xb1.p, t),
                q: crate::math::Rot::from_angle(xb0.q.angle() + t * xb0.q.inv_mul(xb1.q).angle()),
            };
            shape_distance(&a, &Transform::IDENTITY, &b, &xf).distance
        };
        match time_of_impact(&a, still, &b, sweep, target) {
            Some(t) => {
                prop_assert!((0.0..=1.0).contains(&t));
                let d = distance_at(t);
                // Never late. (Tightness is checked on hand-made sweeps: a
                // grazing, turning pair can exhaust the iterations and stop
                // early, which is the safe side.)
                if t > 0.0 {
                    prop_assert!(d >= target - 1e-3, "t {t}: {d}");
                }
                // Nothing earlier came within the target.
                for k in 0..20 {
                    let s = t * k as f32 / 20.0;
                    if s < t {
                        prop_assert!(distance_at(s) >= target - 1e-3, "at {s}: {}", distance_at(s));
                    }
                }
            }
            None => {
                for k in 0..=40 {
                    let s = k as f32 / 40.0;
                    prop_assert!(distance_at(s) >= target - 1e-3, "at {s}: {}", distance_at(s));
                }
            }
        }
    }
}

/// A 2 m chain segment somewhere near the origin of its frame, with its
/// ghosts anywhere not too near its ends (convex, concave or straight
/// joints, sharp or gentle).
fn chain_segment() -> impl Strategy<Value = Shape> {
    (point(3.0), point(3.0), point(2.0)).prop_filter_map("degenerate", |(g1, g2, p)| {
        let (p1, p2) = (p, p + Vec2::new(-2.0, 0.3));
        let far = |a: Vec2, b: Vec2| a.distance(b) > 0.1;
        (far(g1, p1) && far(g2, p2)).then_some(Shape::ChainSegment(crate::shapes::ChainSegment {
            ghost1: g1,
            segment: crate::shapes::Segment {
                point1: p1,
                point2: p2,
            },
            ghost2: g2,
        }))
    })
}

proptest! {
    /// Against a chain segment, the normal never points behind it, and a
    /// shape whose centroid is behind it gets no contact; in either order.
    #[test]
    fn chain_contacts_are_one_sided(a in chain_segment(), xa in transform(), b in shape(), xb in transform()) {
        let Shape::ChainSegment(c) = a else { unreachable!() };
        let front = xa.q.rotate(c.segment.normal());
        let centroid = xb.apply(b.centroid());
        let behind = front.dot(centroid - xa.apply(c.segment.point1)) < 0.0;
        for (m, sign) in [(collide(&a, xa, &b, xb, SPECULATIVE_DISTANCE), 1.0), (collide(&b, xb, &a, xa, SPECULATIVE_DISTANCE), -1.0)] {
            well_formed(&m)?;
            if m.count > 0 {
                prop_assert!(!behind, "a contact with a shape behind the chain: {m:?}");
                prop_assert!(sign * m.normal.dot(front) >= -1e-4, "a normal behind the chain: {m:?}");
            }
        }
    }

    /// Along a straight chain (both neighbours in line), every contact
    /// takes the chain's own normal: no corner of the joint is ever felt.
    #[test]
    fn a_straight_chain_has_one_normal(x in float(-3.0, 3.0), b in shape(), xb in transform()) {
        let (p1, p2) = (Vec2::new(x + 0.5, 0.0), Vec2::new(x - 0.5, 0.0));
        let a = Shape::ChainSegment(crate::shapes::ChainSegment {
            ghost1: p1 + Vec2::X,
            segment: crate::shapes::Segment { point1: p1, point2: p2 },
            ghost2: p2 - Vec2::X,
        });
        let m = collide(&a, Transform::IDENTITY, &b, xb, SPECULATIVE_DISTANCE);
        well_formed(&m)?;
        if m.count > 0 {
            prop_assert!((m.normal - Vec2::Y).length() < 0.011, "{m:?}");
        }
    }
}

/// How far apart shapes `a` (at `xa`) and `b` (at `xb`) are along unit
/// direction `d`, from A towards B: B's nearest extent along it less A's
/// farthest, rounding included (a separating axis's measure).
fn separation_along(a: &Shape, xa: Transform, b: &Shape, xb: Transform, d: Vec2) -> f32 {
    let extent = |s: &Shape, xf: Transform, sign: f32| -> f32 {
        let (points, radius): (Vec<Vec2>, f32) = match s {
            Shape::Circle(c) => (vec![c.center], c.radius),
            Shape::Capsule(c) => (vec![c.center1, c.center2], c.radius),
            Shape::Polygon(p) => (p.vertices[..p.count].to_vec(), p.radius),
            Shape::Segment(s) => (vec![s.point1, s.point2], 0.0),
            Shape::ChainSegment(c) => (vec![c.segment.point1, c.segment.point2], 0.0),
        };
        let far = points
            .iter()
            .map(|&v| sign * d.dot(xf.apply(v)))
            .fold(f32::MIN, f32::max);
        far + radius
    };
    -extent(b, xb, -1.0) - extent(a, xa, 1.0)
}

proptest! {
    /// Two corners facing each other (or a circle and a corner) come with
    /// the cone of directions that hold them apart: the contact's normal
    /// lies in it, along each of its directions the two corners are the
    /// shapes' extreme points (so the separation the solver measures
    /// along it is a separating axis's, below the true distance), and the
    /// normal aimed in it along a motion keeps the pair apart at both ends
    /// of that motion, at least as far as the line between the corners
    /// does at the nearer end.
    #[test]
    fn corner_cones_hold_the_corners_apart(
        a in prop_oneof![4 => shape(), 1 => chain_segment()],
        xa in transform(),
        b in shape(),
        xb in transform(),
        motion in point(0.5),
        flip in any::<bool>(),
    ) {
        let (a, xa, b, xb) = if flip { (b, xb, a, xa) } else { (a, xa, b, xb) };
        let (m, keep) = super::collide_recyclable(&a, xa, &b, xb, 1.0);
        let super::Keep::Corners { cone, .. } = keep else {
            return Ok(());
        };
        prop_assert_eq!(m.count, 1);
        let (n, s) = (m.normal, m.points[0].separation);
        let tol = 1e-3;
        prop_assert!(cross(cone.from, cone.to) >= -tol, "more than a half turn: {cone:?}");
        prop_assert!(cross(cone.from, n) >= -tol && cross(n, cone.to) >= -tol, "{n:?} outside {cone:?}");
        let mid = (cone.from + cone.to).normalize_or(n);
        let distance = shape_distance(&a, &xa, &b, &xb).distance;
        for d in [cone.from, cone.to, mid, n] {
            let along = separation_along(&a, xa, &b, xb, d);
            let linear = (s + cone.radius) * d.dot(n) - cone.radius;
            prop_assert!((along - linear).abs() <= tol * (1.0 + along.abs()), "along {d:?}: {along} vs {linear}; {m:?} {cone:?}");
            prop_assert!(along <= distance + tol, "along {d:?}: {along} beyond the distance {distance}");
        }
        if let Some((aimed, separation)) = cone.aim(n, s, motion, 0.0) {
            prop_assert!(cross(cone.from, aimed) >= -tol && cross(aimed, cone.to) >= -tol, "{aimed:?} outside {cone:?}");
            prop_assert!((separation - separation_along(&a, xa, &b, xb, aimed)).abs() <= tol * (1.0 + separation.abs()));
            let start = (s + cone.radius) * n;
            let least = |d: Vec2| d.dot(start).min(d.dot(start + motion));
            prop_assert!(least(aimed) >= least(n) - tol, "aimed {aimed:?} nearer than {n:?}");
            prop_assert!(least(aimed) > cone.radius && separation > 0.0);
            // B moved by the motion is still apart from A along it.
            let moved = Transform { p: xb.p + motion, q: xb.q };
            prop_assert!(separation_along(&a, xa, &b, moved, aimed) > -tol, "the end overlaps along {aimed:?}");
        }
    }
}
