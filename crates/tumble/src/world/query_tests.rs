//! Query tests: every query against brute force over random scenes
//! (proptest), the ray callback's protocol, shape casts and explosions
//! against closed forms.

use super::tests::{ground, DT};
use super::*;
use crate::body::BodyDef;
use crate::collision::{ray_cast, shape_distance, time_of_impact};
use crate::filter::{Filter, QueryFilter};
use crate::math::Aabb;
use crate::shapes::ShapeDef;
use crate::shapes::{Capsule, Circle, Polygon, Shape};
use crate::Transform;
use proptest::prelude::*;

use crate::test_rng::Rng;

/// Random shapes for the scenes below.
trait RandomShape {
    /// A random circle, capsule or box.
    fn shape(&mut self) -> Shape;
}

impl RandomShape for Rng {
    fn shape(&mut self) -> Shape {
        match (self.range(0.0, 3.0)) as u32 {
            0 => Circle::new(self.vec(0.3), self.range(0.1, 0.8)).unwrap().into(),
            1 => {
                let a = self.vec(0.6);
                let b = a + Vec2::new(self.range(0.2, 0.8), self.range(-0.4, 0.4));
                Capsule::new(a, b, self.range(0.1, 0.5)).unwrap().into()
            }
            _ => Polygon::new_box(self.range(0.1, 1.0), self.range(0.1, 1.0))
                .unwrap()
                .into(),
        }
    }
}

/// A scene of 30 bodies with random shapes, placements, types and
/// categories (some also in a second category), never stepped.
fn random_scene(seed: u64) -> World {
    let mut rng = Rng(seed | 1);
    let mut world = World::default();
    for _ in 0..30 {
        let def = match rng.range(0.0, 3.0) as u32 {
            0 => BodyDef::static_body(),
            1 => BodyDef::kinematic(),
            _ => BodyDef::dynamic(),
        };
        let b = world
            .create_body(&def.at(rng.vec(8.0)).with_angle(rng.range(-3.0, 3.0)))
            .unwrap();
        let category = 1u64 << (rng.range(0.0, 3.0) as u32);
        let shape_def = ShapeDef {
            filter: Filter {
                category: category | if rng.range(0.0, 1.0) < 0.2 { 8 } else { 0 },
                ..Filter::default()
            },
            ..ShapeDef::default()
        };
        world.create_shape(b, rng.shape(), &shape_def).unwrap();
    }
    world
}

/// Every live shape with its slot, shape, placement and filter.
fn all_shapes(world: &World) -> Vec<(ShapeId, Shape, Transform, Filter)> {
    let mut out: Vec<_> = world
        .shapes
        .iter()
        .map(|(si, slot)| {
            (
                world.shape_id(si),
                slot.shape,
                world.bodies[slot.body].xf,
                slot.def.filter,
            )
        })
        .collect();
    out.sort_by_key(|s| s.0);
    out
}

fn filter_of(k: u32) -> QueryFilter {
    match k % 3 {
        0 => QueryFilter::default(),
        1 => QueryFilter {
            category: 1,
            mask: 2 | 8,
        },
        _ => QueryFilter::ALL,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn ray_casts_match_brute_force(seed in any::<u64>(), k in 0u32..3, ox in -10f32..10.0, oy in -10f32..10.0, tx in -25f32..25.0, ty in -25f32..25.0) {
        let world = random_scene(seed);
        let filter = filter_of(k);
        let (origin, translation) = (Vec2::new(ox, oy), Vec2::new(tx, ty));
        let mut expected: Vec<(f32, ShapeId)> = all_shapes(&world)
            .iter()
            .filter(|(_, _, _, f)| filter.accepts(f))
            .filter_map(|(id, shape, xf, _)| ray_cast(shape, *xf, origin, translation).map(|h| (h.fraction, *id)))
            .collect();
        expected.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut all = Vec::new();
        world.ray_cast_all(origin, translation, filter, &mut all).unwrap();
        let got: Vec<(f32, ShapeId)> = all.iter().map(|h| (h.fraction, h.shape)).collect();
        prop_assert_eq!(&got, &expected);
        let closest = world.ray_cast_closest(origin, translation, filter).unwrap().map(|h| (h.fraction, h.shape));
        prop_assert_eq!(closest, expected.first().copied());
    }

    #[test]
    fn overlap_queries_match_brute_force(seed in any::<u64>(), k in 0u32..3, px in -10f32..10.0, py in -10f32..10.0, w in 0.1f32..6.0, h in 0.1f32..6.0) {
        let world = random_scene(seed);
        let filter = filter_of(k);
        let shapes = all_shapes(&world);
        let passing = || shapes.iter().filter(|(_, _, _, f)| filter.accepts(f));
        let p = Vec2::new(px, py);
        let mut out = Vec::new();
        world.overlap_point(p, filter, &mut out).unwrap();
        let expected: Vec<ShapeId> = passing().filter(|(_, s, xf, _)| s.contains_point(*xf, p)).map(|s| s.0).collect();
        prop_assert_eq!(&out, &expected);
        let aabb = Aabb::new(p, p + Vec2::new(w, h));
        world.overlap_aabb(aabb, filter, &mut out).unwrap();
        let expected: Vec<ShapeId> = passing().filter(|(_, s, xf, _)| s.aabb(*xf).overlaps(aabb)).map(|s| s.0).collect();
        prop_assert_eq!(&out, &expected);
        let probe: Shape = Capsule::new(p, p + Vec2::new(w, h), 0.3).unwrap().into();
        world.overlap_shape(&probe, Transform::IDENTITY, filter, &mut out).unwrap();
        let expected: Vec<ShapeId> = passing()
            .filter(|(_, s, xf, _)| shape_distance(&probe, &Transform::IDENTITY, s, xf).distance < 0.0)
            .map(|s| s.0)
            .collect();
        prop_assert_eq!(&out, &expected);
    }

    #[test]
    fn shape_casts_match_brute_force(seed in any::<u64>(), k in 0u32..3, px in -10f32..10.0, py in -10f32..10.0, tx in -15f32..15.0, ty in -15f32..15.0) {
        let world = random_scene(seed);
        let filter = filter_of(k);
        let cast: Shape = Polygon::new_box(0.4, 0.7).unwrap().into();
        let xf = Transform::new(Vec2::new(px, py), 0.3);
        let translation = Vec2::new(tx, ty);
        let end = Transform { p: xf.p + translation, q: xf.q };
        let expected = all_shapes(&world)
            .iter()
            .filter(|(_, _, _, f)| filter.accepts(f))
            .filter_map(|(id, s, at, _)| time_of_impact(s, (*at, *at), &cast, (xf, end), 0.0).map(|t| (t, *id)))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let got = world.shape_cast(&cast, xf, translation, filter).unwrap();
        prop_assert_eq!(got.map(|h| (h.fraction, h.shape)), expected);
        if let Some(hit) = got {
            // Where it stops, it touches the shape it hit and overlaps nothing deeply.
            let there = Transform { p: xf.p + hit.fraction * translation, q: xf.q };
            let (_, s, at, _) = all_shapes(&world).into_iter().find(|s| s.0 == hit.shape).unwrap();
            let d = shape_distance(&s, &at, &cast, &there).distance;
            prop_assert!(d.abs() < 0.01 || hit.fraction == 0.0, "stopped {d} from the hit shape");
            prop_assert!((hit.normal.length() - 1.0).abs() < 1e-3);
        }
    }
}

#[test]
fn the_ray_callback_can_ignore_clip_and_stop() {
    let mut world = World::default();
    // Three boxes in a row along x, at x = 2, 4, 6.
    let mut boxes = Vec::new();
    for x in [2.0, 4.0, 6.0] {
        let b = world
            .create_body(&BodyDef::static_body().at(Vec2::new(x, 0.0)))
            .unwrap();
        boxes.push(
            world
                .create_shape(b, Polygon::new_box(0.5, 0.5).unwrap(), &ShapeDef::default())
                .unwrap(),
        );
    }
    let (origin, translation) = (Vec2::ZERO, Vec2::new(10.0, 0.0));
    let cast = |answer: &dyn Fn(&RayHit) -> f32| {
        let mut seen = Vec::new();
        world
            .ray_cast(origin, translation, QueryFilter::default(), |hit| {
                seen.push(hit.shape);
                answer(hit)
            })
            .unwrap();
        seen.sort();
        seen
    };
    assert_eq!(cast(&|_| 1.0), boxes, "going on unclipped sees all three");
    assert_eq!(cast(&|_| -1.0), boxes, "ignoring each sees all three");
    assert_eq!(cast(&|_| 0.0).len(), 1, "stopping sees one");
    // Clipping at each hit: whatever the tree's order, the nearest box is
    // seen and nothing beyond a box already seen.
    let mut nearest = None;
    world
        .ray_cast(origin, translation, QueryFilter::default(), |hit| {
            nearest = Some(hit.shape);
            hit.fraction
        })
        .unwrap();
    assert_eq!(nearest, Some(boxes[0]));
    let hit = world
        .ray_cast_closest(origin, translation, QueryFilter::default())
        .unwrap()
        .unwrap();
    assert_eq!(
        (hit.shape, hit.point, hit.normal),
        (boxes[0], Vec2::new(1.5, 0.0), Vec2::new(-1.0, 0.0))
    );
    assert!((hit.fraction - 0.15).abs() < 1e-6);
    // A filter that excludes category 1 sees nothing.
    let none = QueryFilter { category: 1, mask: 2 };
    assert_eq!(world.ray_cast_closest(origin, translation, none), Ok(None));
}

#[test]
fn a_box_cast_down_stops_on_the_ground() {
    let mut world = World::default();
    let g = ground(&mut world);
    let cast: Shape = Polygon::new_box(0.5, 0.5).unwrap().into();
    // From y = 3 down 5 m: the bottom touches y = 0 after 2.5 m.
    let hit = world
        .shape_cast(
            &cast,
            Transform::new(Vec2::new(1.0, 3.0), 0.0),
            Vec2::new(0.0, -5.0),
            QueryFilter::default(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(hit.body, g);
    assert!((hit.fraction - 0.5).abs() < 1e-3, "fraction {}", hit.fraction);
    assert!((hit.normal - Vec2::Y).length() < 1e-4);
    assert!(
        hit.point.y.abs() < 2e-3 && (hit.point.x - 1.0).abs() <= 0.5 + 1e-4,
        "{:?}",
        hit.point
    );
    // Cast sideways above the ground, it meets nothing; started inside, it
    // stops at once.
    let xf = Transform::new(Vec2::new(0.0, 3.0), 0.0);
    assert!(world
        .shape_cast(&cast, xf, Vec2::new(5.0, 0.0), QueryFilter::default())
        .unwrap()
        .is_none());
    let inside = Transform::new(Vec2::new(0.0, -0.2), 0.0);
    let hit = world
        .shape_cast(&cast, inside, Vec2::new(5.0, 0.0), QueryFilter::default())
        .unwrap()
        .unwrap();
    assert_eq!(hit.fraction, 0.0);
    // A bad shape or placement is an error.
    let broken: Shape = Circle {
        center: Vec2::ZERO,
        radius: -1.0,
    }
    .into();
    assert!(world
        .shape_cast(&broken, xf, Vec2::X, QueryFilter::default())
        .is_err());
    assert!(world
        .shape_cast(&cast, xf, Vec2::new(f32::NAN, 0.0), QueryFilter::default())
        .is_err());
}

#[test]
fn an_explosion_pushes_bodies_away_with_falloff() {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    // Unit circles (mass pi, width 2) whose nearest points are 1, 3 and 5 m
    // from the center.
    let mut ball = |x: f32| {
        let b = world
            .create_body(&BodyDef::dynamic().at(Vec2::new(x, 0.0)))
            .unwrap();
        world
            .create_shape(b, Circle::new(Vec2::ZERO, 1.0).unwrap(), &ShapeDef::default())
            .unwrap();
        b
    };
    let (near, mid, far) = (ball(2.0), ball(-4.0), ball(6.0));
    let left = ball(0.0);
    world.set_transform(left, Vec2::new(0.0, 4.0), 0.0).unwrap();
    world
        .explode(&Explosion {
            center: Vec2::ZERO,
            radius: 2.0,
            falloff: 2.0,
            impulse_per_length: 3.0,
            filter: QueryFilter::default(),
        })
        .unwrap();
    let mass = std::f32::consts::PI;
    let full = 3.0 * 2.0 / mass;
    let v = |b| world.linear_velocity(b).unwrap();
    assert!(
        (v(near) - Vec2::new(full, 0.0)).length() < 1e-4,
        "inside the radius: full, {:?}",
        v(near)
    );
    assert!(
        (v(mid) - Vec2::new(-0.5 * full, 0.0)).length() < 1e-4,
        "half way through the falloff: half, {:?}",
        v(mid)
    );
    assert_eq!(v(far), Vec2::ZERO, "beyond the reach: nothing");
    assert!(
        (v(left) - Vec2::new(0.0, 0.5 * full)).length() < 1e-4,
        "upwards: {:?}",
        v(left)
    );
    assert_eq!(
        world.angular_velocity(near).unwrap(),
        0.0,
        "pushed through its center"
    );
    let bad = Explosion {
        center: Vec2::ZERO,
        radius: -1.0,
        falloff: 0.0,
        impulse_per_length: 1.0,
        filter: QueryFilter::default(),
    };
    assert!(world.explode(&bad).is_err());
    world.step(DT);
}

/// Every query refuses a NaN or infinite number, a start beyond the world
/// extent and a translation longer than the world is wide, naming what was
/// wrong, instead of answering "nothing there"; the callback is never
/// called and the output buffers are left empty.
#[test]
fn queries_refuse_bad_numbers_by_name() {
    use crate::error::{BodyError, Error};
    use crate::settings::WORLD_EXTENT;
    use crate::shapes::ShapeError;
    let mut world = World::default();
    ground(&mut world);
    let nan = f32::NAN;
    let far = Vec2::new(0.0, 2.0 * WORLD_EXTENT);
    let long = Vec2::new(3.0 * WORLD_EXTENT, 0.0);
    let all = QueryFilter::ALL;
    let non_finite = |what| Err(Error::Body(BodyError::NonFinite(what)));
    let out_of_range = |what| Err(Error::Body(BodyError::OutOfRange(what)));

    let mut called = false;
    for (origin, translation, err) in [
        (Vec2::NAN, -Vec2::Y, non_finite("ray origin")),
        (Vec2::new(0.0, f32::INFINITY), -Vec2::Y, non_finite("ray origin")),
        (Vec2::Y, Vec2::new(nan, -1.0), non_finite("ray translation")),
        (far, -far, out_of_range("ray origin")),
        (Vec2::Y, long, out_of_range("ray translation")),
    ] {
        let r = world.ray_cast(origin, translation, all, |_| {
            called = true;
            1.0
        });
        assert_eq!(r, err, "{origin} {translation}");
        assert_eq!(
            world.ray_cast_closest(origin, translation, all),
            err.map(|()| None)
        );
        let mut hits = vec![];
        let r = world.ray_cast_all(origin, translation, all, &mut hits);
        assert_eq!((r, hits.len()), (err, 0));
    }
    assert!(!called);
    // In range, a ray from as far as the extent along a translation as long
    // as the world is wide finds the ground.
    let edge = Vec2::new(0.0, WORLD_EXTENT);
    let hit = world.ray_cast_closest(edge, -2.0 * edge, all).unwrap();
    assert!(hit.is_some_and(|h| h.point.is_finite() && h.normal.is_finite()));

    let mut out = vec![world.shape_id(0)];
    assert_eq!(world.overlap_point(Vec2::NAN, all, &mut out), non_finite("point"));
    assert!(out.is_empty());
    assert_eq!(world.overlap_point(far, all, &mut out), out_of_range("point"));
    let bad_box = Aabb::new(Vec2::new(nan, 0.0), Vec2::ONE);
    assert_eq!(world.overlap_aabb(bad_box, all, &mut out), non_finite("aabb"));
    let huge = Aabb::new(Vec2::splat(-1e30), Vec2::splat(1e30));
    assert_eq!(world.overlap_aabb(huge, all, &mut out), Ok(()));
    assert_eq!(out.len(), 1, "a box larger than the world finds the ground");

    let probe: Shape = Circle::new(Vec2::ZERO, 0.5).unwrap().into();
    let at = |p: Vec2| Transform::new(p, 0.0);
    let turned = Transform {
        p: Vec2::Y,
        q: crate::math::Rot { c: 1e20, s: 0.0 },
    };
    let nan_turn = Transform {
        p: Vec2::Y,
        q: crate::math::Rot { c: nan, s: 0.0 },
    };
    let too_far_shape: Shape = Circle::new(Vec2::new(3.4e38, 0.0), 1.0).unwrap().into();
    for (shape, xf, err) in [
        (probe, at(Vec2::NAN), non_finite("transform")),
        (probe, nan_turn, non_finite("transform")),
        (probe, at(far), out_of_range("transform")),
        (probe, turned, out_of_range("transform rotation")),
        (too_far_shape, at(Vec2::Y), Err(Error::Shape(ShapeError::TooFar))),
    ] {
        assert_eq!(world.overlap_shape(&shape, xf, all, &mut out), err);
        assert_eq!(world.shape_cast(&shape, xf, -Vec2::Y, all), err.map(|()| None));
    }
    let xf = at(Vec2::new(0.0, 3.0));
    assert_eq!(
        world.shape_cast(&probe, xf, Vec2::new(0.0, f32::NEG_INFINITY), all),
        non_finite("translation").map(|()| None)
    );
    assert_eq!(
        world.shape_cast(&probe, xf, long, all),
        out_of_range("translation").map(|()| None)
    );
}

/// Shape casts over random scenes, from random starts out to the world's
/// edge and across it, report only finite points and unit normals.
#[test]
fn shape_cast_hits_are_always_finite() {
    use crate::settings::WORLD_EXTENT;
    let mut rng = Rng(0x5eed_cafe);
    let mut hits = 0;
    for seed in 0..8u64 {
        let mut world = random_scene(seed + 1);
        // A ground reaching to the extent on either side.
        let g = world.create_body(&BodyDef::static_body()).unwrap();
        let wide = Polygon::new_offset_box(WORLD_EXTENT - 1.0, 1.0, Vec2::new(0.0, -20.0), 0.0).unwrap();
        world.create_shape(g, wide, &ShapeDef::default()).unwrap();
        for _ in 0..200 {
            let cast = rng.shape();
            let scale = [10.0, 1e3, WORLD_EXTENT][rng.range(0.0, 3.0) as usize];
            let xf = Transform::new(rng.vec(scale), rng.range(-3.0, 3.0));
            let translation = rng.vec(2.0 * scale);
            if let Some(h) = world
                .shape_cast(&cast, xf, translation, QueryFilter::ALL)
                .unwrap()
            {
                hits += 1;
                assert!(
                    h.point.is_finite() && h.normal.is_finite() && (h.normal.length() - 1.0).abs() < 1e-3,
                    "{h:?} casting {cast:?} from {xf:?} by {translation}"
                );
                assert!((0.0..=1.0).contains(&h.fraction));
            }
        }
    }
    assert!(hits > 100, "{hits} hits");
}

/// An explosion's errors are decided before any body is pushed: one
/// refused leaves every body as it was (the issue's: an impulse of
/// -3.4e38 per metre left a body spinning at infinity).
#[test]
fn a_refused_explosion_pushes_nothing() {
    use crate::error::BodyError;
    use crate::world::reliability_tests::state_bytes;
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    for k in 0..4 {
        let b = world
            .create_body(&BodyDef::dynamic().at(Vec2::new(2.0 * k as f32 - 3.0, 0.5)))
            .unwrap();
        world
            .create_shape(b, Polygon::new_box(0.4, 0.4).unwrap(), &ShapeDef::default())
            .unwrap();
    }
    // A feather: each push on it is finite, its speed after them is not.
    let feather = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(0.0, 3.0)))
        .unwrap();
    let light = ShapeDef {
        density: 1e-30,
        ..ShapeDef::default()
    };
    world
        .create_shape(feather, Circle::new(Vec2::ZERO, 1.0).unwrap(), &light)
        .unwrap();
    world.step(DT);
    let before = state_bytes(&world);
    let blast = |impulse_per_length: f32| Explosion {
        center: Vec2::ZERO,
        radius: 10.0,
        falloff: 1.0,
        impulse_per_length,
        filter: QueryFilter::default(),
    };
    assert_eq!(
        world.explode(&blast(-3.4e38)),
        Err(BodyError::OutOfRange("explosion impulse"))
    );
    assert_eq!(
        world.explode(&blast(-1.0)),
        Err(BodyError::OutOfRange("explosion impulse"))
    );
    assert_eq!(
        world.explode(&blast(3.4e38)),
        Err(BodyError::NonFinite("impulse"))
    );
    assert_eq!(world.explode(&blast(1e10)), Err(BodyError::NonFinite("impulse")));
    let far = Explosion {
        center: Vec2::new(2.0 * crate::settings::WORLD_EXTENT, 0.0),
        ..blast(1.0)
    };
    assert_eq!(
        world.explode(&far),
        Err(BodyError::OutOfRange("explosion center"))
    );
    assert_eq!(state_bytes(&world), before);
    assert!(world
        .bodies()
        .all(|b| world.angular_velocity(b).unwrap().is_finite()));
    // A zero impulse is allowed, and a sane one pushes.
    assert_eq!(world.explode(&blast(0.0)), Ok(()));
    assert_eq!(world.explode(&blast(1.0)), Ok(()));
    assert!(world.linear_velocity(feather).unwrap().y > 0.0);
}
