//! Fuzzing through the public API: degenerate point sets into the shape
//! constructors, and random, deep and far-off placements into `collide`.
//! Every call must return `Ok` or a typed error, never panic, and whatever
//! it accepts must be well formed.
//!
//! 5 000 cases per property by default; `PROPTEST_CASES` sets the count
//! (proptest's own variable), e.g. for the long run:
//!
//! ```text
//! PROPTEST_CASES=100000 cargo test --release -p tumble --test fuzz
//! ```

use proptest::prelude::*;
use tumble::collision::{collide, Manifold};
use tumble::{chain_segments, convex_hull, decompose_concave};
use tumble::{Capsule, ChainSegment, Circle, Polygon, Segment, Shape, Transform, Vec2};

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5_000);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

/// A float in `[low, high)` on a fine integer grid (proptest's own float
/// ranges can trip an internal assertion while sampling).
fn float(low: f32, high: f32) -> impl Strategy<Value = f32> {
    const STEPS: u32 = 1 << 20;
    (0..STEPS).prop_map(move |k| low + (high - low) * (k as f32 / STEPS as f32))
}

/// A length scale from the tiny to the huge.
fn scale() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(1e-4f32),
        Just(1e-2),
        Just(1.0),
        Just(1e3),
        Just(1e6),
        float(1e-3, 1e2)
    ]
}

/// Point sets that break naive hull code: random clouds, duplicates,
/// points on a line, slivers whose edges are almost parallel, all at one
/// scale and offset, with the odd non-finite or extreme value mixed in.
fn point_set() -> impl Strategy<Value = Vec<Vec2>> {
    let unit = || (float(-1.0, 1.0), float(-1.0, 1.0)).prop_map(|(x, y)| Vec2::new(x, y));
    let cloud = prop::collection::vec(unit(), 0..12);
    let with_duplicates = prop::collection::vec(unit(), 1..6).prop_flat_map(|pts| {
        let n = pts.len();
        prop::collection::vec(0..n, 0..12).prop_map(move |picks| {
            let mut out = pts.clone();
            out.extend(picks.iter().map(|&i| pts[i]));
            out
        })
    });
    let collinear = (unit(), unit(), prop::collection::vec(float(-2.0, 2.0), 0..10))
        .prop_map(|(a, d, ts)| ts.iter().map(|&t| a + t * d).collect::<Vec<_>>());
    // Points on a very flat parabola: every edge nearly parallel to the
    // next.
    let sliver = (
        float(1e-7, 1e-2),
        prop::collection::vec(float(-1.0, 1.0), 3..10),
        float(0.0, 6.3),
    )
        .prop_map(|(bend, ts, angle)| {
            let q = Transform::new(Vec2::ZERO, angle).q;
            ts.iter()
                .map(|&t| q.rotate(Vec2::new(t, bend * t * t)))
                .collect::<Vec<_>>()
        });
    let special = prop_oneof![
        Just(Vec2::NAN),
        Just(Vec2::new(f32::INFINITY, 0.0)),
        Just(Vec2::splat(f32::MAX)),
        Just(Vec2::new(f32::MIN, f32::MAX)),
        Just(Vec2::splat(f32::MIN_POSITIVE)),
    ];
    (
        prop_oneof![3 => cloud, 2 => with_duplicates, 2 => collinear, 2 => sliver],
        scale(),
        (float(-1.0, 1.0), float(-1.0, 1.0)),
        prop::option::weighted(0.05, special),
    )
        .prop_map(|(pts, s, (ox, oy), special)| {
            let offset = Vec2::new(ox, oy) * s * 10.0;
            let mut pts: Vec<Vec2> = pts.iter().map(|&p| offset + s * p).collect();
            if let Some(v) = special {
                pts.push(v);
            }
            pts
        })
}

/// Everything accepted must pass the world's own check and be finite.
fn accepted(p: &Polygon) -> Result<(), TestCaseError> {
    prop_assert!((3..=8).contains(&p.count), "{p:?}");
    prop_assert_eq!(Shape::Polygon(*p).validate(), Ok(()), "{:?}", p);
    let m = p.mass(1.0);
    prop_assert!(m.mass.is_finite() && m.mass > 0.0, "{p:?} {m:?}");
    Ok(())
}

fn well_formed(m: &Manifold) -> Result<(), TestCaseError> {
    prop_assert!(m.count <= 2, "{m:?}");
    if m.count > 0 {
        prop_assert!(m.normal.is_finite(), "{m:?}");
        prop_assert!((m.normal.length() - 1.0).abs() < 1e-3, "{m:?}");
    }
    for p in m.points() {
        prop_assert!(p.point.is_finite() && p.separation.is_finite(), "{m:?}");
    }
    Ok(())
}

/// Valid shapes of many sizes (from a centimetre to a hundred metres).
fn shape() -> impl Strategy<Value = Shape> {
    let s = prop_oneof![
        Just(0.01f32),
        Just(0.1),
        Just(1.0),
        Just(10.0),
        Just(100.0),
        float(0.05, 3.0)
    ];
    let p = || (float(-1.0, 1.0), float(-1.0, 1.0)).prop_map(|(x, y)| Vec2::new(x, y));
    let polygon = (
        prop::collection::vec(p(), 3..=8),
        prop_oneof![Just(0.0f32), float(0.0, 0.3)],
    );
    let kind = prop_oneof![
        polygon.prop_map(|(pts, r)| Polygon::new_rounded(&pts, r).map(Shape::from).ok()),
        (p(), p(), float(0.02, 0.6)).prop_map(|(a, b, r)| Capsule::new(a, b, r).map(Shape::from).ok()),
        (p(), float(0.02, 1.0)).prop_map(|(c, r)| Circle::new(c * 0.5, r).map(Shape::from).ok()),
        (float(0.01, 1.0), float(0.01, 1.0), p(), float(-4.0, 4.0))
            .prop_map(|(hx, hy, c, a)| Polygon::new_offset_box(hx, hy, c, a).map(Shape::from).ok()),
        (p(), p()).prop_map(|(a, b)| Segment::new(a, b).map(Shape::from).ok()),
        // One segment of a chain through four points, any turns at its ends.
        (p(), p(), p(), p(), any::<bool>()).prop_map(|(a, b, c, d, closed)| {
            chain_segments(&[a, b, c, d], closed)
                .ok()
                .map(|segments| Shape::ChainSegment(segments[1]))
        }),
    ];
    (kind, s).prop_filter_map("invalid shape", |(shape, s)| shape.and_then(|sh| scaled(sh, s)))
}

/// The shape scaled about the body origin, rebuilt through the
/// constructors so it is still valid.
fn scaled(shape: Shape, k: f32) -> Option<Shape> {
    match shape {
        Shape::Circle(c) => Circle::new(c.center * k, c.radius * k).ok().map(Shape::from),
        Shape::Capsule(c) => Capsule::new(c.center1 * k, c.center2 * k, c.radius * k)
            .ok()
            .map(Shape::from),
        Shape::Polygon(p) => {
            let pts: Vec<Vec2> = p.points().iter().map(|&v| v * k).collect();
            Polygon::new_rounded(&pts, p.radius * k).ok().map(Shape::from)
        }
        Shape::Segment(s) => Segment::new(s.point1 * k, s.point2 * k).ok().map(Shape::from),
        Shape::ChainSegment(c) => {
            let chain = ChainSegment {
                ghost1: c.ghost1 * k,
                segment: Segment::new(c.segment.point1 * k, c.segment.point2 * k).ok()?,
                ghost2: c.ghost2 * k,
            };
            chain.validate().ok().map(|_| Shape::ChainSegment(chain))
        }
    }
}

/// Placements: anywhere near, exactly on top of each other, slightly
/// apart, or both far from the origin.
fn placements() -> impl Strategy<Value = (Transform, Transform)> {
    let angle = || float(-std::f32::consts::PI, std::f32::consts::PI);
    let near = || (float(-3.0, 3.0), float(-3.0, 3.0)).prop_map(|(x, y)| Vec2::new(x, y));
    let offset = prop_oneof![
        Just(Vec2::ZERO),
        Just(Vec2::splat(1e4)),
        Just(Vec2::new(-3e5, 2e5))
    ];
    let tiny = prop_oneof![
        Just(Vec2::ZERO),
        (float(-1e-3, 1e-3), float(-1e-3, 1e-3)).prop_map(|(x, y)| Vec2::new(x, y))
    ];
    (
        offset,
        near(),
        angle(),
        prop_oneof![near(), tiny],
        angle(),
        any::<bool>(),
    )
        .prop_map(|(offset, pa, aa, d, ab, same_angle)| {
            let xa = Transform::new(offset + pa, aa);
            let xb = Transform::new(offset + pa + d, if same_angle { aa } else { ab });
            (xa, xb)
        })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn degenerate_point_sets_give_a_polygon_or_a_named_error(pts in point_set(), r in prop_oneof![Just(0.0f32), float(0.0, 0.5), Just(-1.0), Just(f32::NAN)]) {
        // Panics fail the test; errors are fine whatever their name.
        if let Ok(p) = Polygon::new(&pts) {
            accepted(&p)?;
        }
        if let Ok(p) = Polygon::new_rounded(&pts, r) {
            accepted(&p)?;
        }
        if let Ok(hull) = convex_hull(&pts) {
            prop_assert!((3..=8).contains(&hull.len()), "{hull:?}");
            prop_assert!(hull.iter().all(|v| v.is_finite()));
        }
        if let Ok(parts) = decompose_concave(&pts) {
            prop_assert!(!parts.is_empty());
            for p in &parts {
                accepted(p)?;
            }
        }
    }

    #[test]
    fn box_capsule_and_circle_constructors_never_panic(
        hx in prop_oneof![float(-1.0, 1.0), scale(), Just(f32::MAX), Just(f32::NAN)],
        hy in prop_oneof![float(-1.0, 1.0), scale(), Just(f32::INFINITY)],
        c in (scale(), float(-1.0, 1.0), float(-1.0, 1.0)).prop_map(|(s, x, y)| Vec2::new(x, y) * s * 100.0),
        angle in prop_oneof![float(-10.0, 10.0), Just(1e30f32), Just(f32::NAN)],
        r in prop_oneof![float(-0.1, 1.0), scale(), Just(f32::MAX)],
    ) {
        if let Ok(p) = Polygon::new_offset_box(hx, hy, c, angle) {
            accepted(&p)?;
        }
        if let Ok(cap) = Capsule::new(c, c + Vec2::new(hx, hy), r) {
            prop_assert_eq!(Shape::Capsule(cap).validate(), Ok(()));
        }
        if let Ok(circle) = Circle::new(c, r) {
            prop_assert_eq!(Shape::Circle(circle).validate(), Ok(()));
        }
    }

    #[test]
    fn collide_gives_finite_manifolds_with_unit_normals(
        a in shape(), b in shape(), (xa, xb) in placements(), spec in prop_oneof![Just(0.0f32), Just(0.02), float(0.0, 1.0)],
    ) {
        let m = collide(&a, xa, &b, xb, spec);
        well_formed(&m)?;
        well_formed(&collide(&b, xb, &a, xa, spec))?;
        // Coincident or nearly coincident shapes overlap: they must be
        // reported, with a finite depth.
        if (xa.p - xb.p).length() < 1e-6 && xa.q == xb.q && a == b {
            prop_assert!(m.count > 0, "identical shapes at one place: {m:?}");
        }
    }
}
