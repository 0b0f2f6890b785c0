//! Contact recycling: a kept manifold matches a fresh one, resting piles
//! keep theirs, and anything that moves gets a new one.

use super::tests::{body_made_of, body_with, ground, unit_box, zero_gravity, DT};
use super::*;
use crate::body::BodyDef;
use crate::collision::collide;
use crate::math::Transform;
use crate::settings::{CONTACT_RECYCLE_DISTANCE, SPECULATIVE_DISTANCE};
use crate::shapes::ShapeDef;
use crate::shapes::{Capsule, Circle, Polygon};

/// A world with recycling on or off (and sleeping off: these bodies are
/// watched at rest).
fn world_with(recycling: bool) -> World {
    let mut world = World::new(WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    });
    let settings = SolverSettings {
        contact_recycling: recycling,
        ..*world.solver_settings()
    };
    world.set_solver_settings(settings).unwrap();
    world
}

/// Where every body is, to compare a step's manifolds with: they are
/// computed from the placements the step starts from.
fn placements(world: &World) -> Vec<(BodyId, Transform)> {
    world.bodies().map(|b| (b, world.transform(b).unwrap())).collect()
}

/// Where body `id` was in `placements`.
fn placement(placements: &[(BodyId, Transform)], id: BodyId) -> Transform {
    placements.iter().find(|(b, _)| *b == id).unwrap().1
}

/// Every contact's manifold against the narrowphase run afresh at the
/// placements the last step started from (`before`): the same points by
/// feature id, separations within `tolerance`, normals within `angle`.
fn assert_manifolds_match(world: &World, before: &[(BodyId, Transform)], tolerance: f32, angle: f32) {
    let at = |b: BodyId| placement(before, b);
    for c in world.contacts() {
        let (sa, sb) = (world.shape(c.shape_a).unwrap(), world.shape(c.shape_b).unwrap());
        let fresh = collide(sa, at(c.body_a), sb, at(c.body_b), SPECULATIVE_DISTANCE);
        let kept = c.manifold;
        assert!(
            kept.normal.perp_dot(fresh.normal).abs() <= angle && kept.normal.dot(fresh.normal) > 0.0,
            "{kept:?}\n{fresh:?}"
        );
        for p in kept.points() {
            // Compound part bits aside, the ids are the narrowphase's.
            let id = p.id & 0xffff_ffff;
            if let Some(q) = fresh.points().iter().find(|q| q.id == id) {
                assert!(
                    (p.separation - q.separation).abs() <= tolerance,
                    "{kept:?}\n{fresh:?}"
                );
            }
        }
    }
}

/// One step, then [`assert_manifolds_match`] against where it started.
fn step_and_compare(world: &mut World, tolerance: f32, angle: f32) {
    let before = placements(world);
    world.step(DT);
    assert_manifolds_match(world, &before, tolerance, angle);
}

#[test]
fn a_resting_stack_keeps_its_manifolds_and_they_stay_exact() {
    let mut world = world_with(true);
    ground(&mut world);
    for k in 0..5 {
        unit_box(&mut world, Vec2::new(0.1 * k as f32, 0.5 + k as f32));
    }
    for _ in 0..120 {
        world.step(DT);
    }
    // At rest every contact (box on box, box on ground) is kept, step
    // after step for as long as it rests...
    let touching = world.contacts().count();
    assert_eq!(touching, 5);
    for _ in 0..600 {
        // ... and what it holds is what colliding again gives, to far
        // below the slop.
        step_and_compare(&mut world, 1e-5, 1e-4);
        assert_eq!(world.recycled_contact_count(), 5);
    }
}

#[test]
fn recycling_off_collides_every_contact_every_step() {
    let mut world = world_with(false);
    ground(&mut world);
    unit_box(&mut world, Vec2::new(0.0, 0.5));
    for _ in 0..60 {
        world.step(DT);
        assert_eq!(world.recycled_contact_count(), 0);
    }
}

#[test]
fn a_sliding_box_gets_a_fresh_manifold_whenever_it_has_moved() {
    // 2 m/s on frictionless ground: 3.3 cm a step, more than the recycle
    // distance, so the manifold is computed afresh every step and its
    // points follow the box exactly.
    let mut world = world_with(true);
    let g = ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 0.5));
    for s in [world.body_shapes(g).unwrap(), world.body_shapes(b).unwrap()].concat() {
        world.set_friction(s, 0.0).unwrap();
    }
    world.set_linear_velocity(b, Vec2::new(2.0, 0.0)).unwrap();
    for _ in 0..60 {
        let x = world.position(b).unwrap().x;
        world.step(DT);
        assert_eq!(world.recycled_contact_count(), 0);
        let c = world.contacts().next().expect("the box rests on the ground");
        let mid = 0.5 * (c.manifold.points[0].point.x + c.manifold.points[1].point.x);
        assert!((mid - x).abs() < 0.01, "contact center {mid} under a box at {x}");
    }
}

#[test]
fn a_teleported_body_is_collided_again() {
    let mut world = world_with(true);
    ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 0.5));
    for _ in 0..60 {
        world.step(DT);
    }
    assert_eq!(world.recycled_contact_count(), 1);
    // Turned by 30 degrees in place: sunk in on one corner.
    world
        .set_transform(b, Vec2::new(0.0, 0.5), std::f32::consts::FRAC_PI_6)
        .unwrap();
    world.step(DT);
    assert_eq!(world.recycled_contact_count(), 0);
    let c = world.contacts().next().unwrap();
    assert!(c.manifold.min_separation().unwrap() < -0.1, "{:?}", c.manifold);
}

#[test]
fn a_slowly_creeping_pair_stays_within_the_recycle_distance() {
    // A capsule lying on frictionless ground, sliding at 1 mm a step: the
    // pair keeps its manifold for a while, then gets a fresh one; whichever
    // it holds, the separations are within the recycle distance of the
    // truth.
    let mut world = world_with(true);
    let g = ground(&mut world);
    let rod = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(-2.0, 0.2)))
        .unwrap();
    let capsule = Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.2).unwrap();
    world.create_shape(rod, capsule, &ShapeDef::default()).unwrap();
    for s in [world.body_shapes(g).unwrap(), world.body_shapes(rod).unwrap()].concat() {
        world.set_friction(s, 0.0).unwrap();
    }
    world.set_linear_velocity(rod, Vec2::new(0.06, 0.0)).unwrap();
    let (mut kept, mut fresh) = (0, 0);
    for _ in 0..240 {
        step_and_compare(&mut world, CONTACT_RECYCLE_DISTANCE, 0.05);
        if world.recycled_contact_count() == 1 {
            kept += 1;
        } else {
            fresh += 1;
        }
    }
    assert!(kept > 120 && fresh > 5, "kept {kept}, fresh {fresh}");
}

#[test]
fn a_rolling_ball_keeps_its_manifold_and_its_contact_stays_under_it() {
    // A ball rolling at 3 cm/s (half a millimetre a step) on the ground:
    // the pair is kept for several steps at a time, and whether kept or fresh, the
    // contact is right under the ball's center with the exact separation
    // (a kept circle contact follows the center, not a point of the
    // rolling surface).
    let mut world = world_with(true);
    ground(&mut world);
    let ball = body_with(
        &mut world,
        &BodyDef::dynamic().at(Vec2::new(0.0, 0.3)),
        Circle::new(Vec2::ZERO, 0.3).unwrap(),
    );
    for _ in 0..30 {
        world.step(DT);
    }
    world.set_linear_velocity(ball, Vec2::new(0.03, 0.0)).unwrap();
    world.set_angular_velocity(ball, -0.1).unwrap();
    let mut kept = 0;
    for _ in 0..120 {
        let x = world.position(ball).unwrap().x;
        // (A fresh collide takes the normal from the center's offset, which
        // rounds to a few 1e-5 rad; a kept one holds the face's.)
        step_and_compare(&mut world, 1e-5, 1e-4);
        kept += world.recycled_contact_count();
        let c = world.contacts().next().expect("the ball is on the ground");
        assert!(
            (c.manifold.points[0].point.x - x).abs() < 1e-4,
            "{:?} under x = {x}",
            c.manifold
        );
    }
    assert!(kept > 60, "kept {kept} of 120 steps");
    assert!(world.position(ball).unwrap().x > 0.05, "it rolled");
}

#[test]
fn a_ball_against_a_corner_is_collided_every_step() {
    // A ball on the top corner of a step touches a vertex, and that
    // contact's normal follows the center, not a side: it is collided
    // every step.
    let mut world = world_with(true);
    ground(&mut world);
    let step = body_with(
        &mut world,
        &BodyDef::static_body().at(Vec2::new(0.0, 0.25)),
        Polygon::new_box(1.0, 0.25).unwrap(),
    );
    // On the step's top right corner, offset outwards: the corner is the
    // nearest feature.
    let ball = body_with(
        &mut world,
        &BodyDef::dynamic().at(Vec2::new(1.15, 0.62)),
        Circle::new(Vec2::ZERO, 0.2).unwrap(),
    );
    world.step(DT);
    world.set_linear_velocity(ball, Vec2::ZERO).unwrap();
    let corner_contact = |world: &World| {
        world
            .contacts()
            .find(|c| c.body_a == step || c.body_b == step)
            .map(|c| c.manifold.points[0].point)
    };
    let p = corner_contact(&world).expect("the ball touches the step's corner");
    assert!((p - Vec2::new(1.0, 0.5)).length() < 0.05, "{p:?}");
    world.step(DT);
    // Two contacts (ground and step) at most; the corner one is fresh.
    assert!(world.recycled_contact_count() < world.contact_count());
}

#[test]
fn a_tiny_turn_of_a_long_body_still_counts() {
    // A 300 m plank 25 mm above a box under its far end (beyond the
    // speculative distance: an empty manifold, kept while the pair moves
    // less than that). Turned by 2e-4 rad about its middle, the far end
    // drops 28 mm onto the box: the pair must be collided again, though
    // the cosine of so small a turn rounds to 1.
    let mut world = zero_gravity();
    body_with(
        &mut world,
        &BodyDef::static_body().at(Vec2::new(140.0, 0.0)),
        Polygon::new_box(0.5, 0.5).unwrap(),
    );
    let y = 0.5 + 0.05 + 0.025;
    let plank = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(0.0, y)))
        .unwrap();
    world
        .create_shape(
            plank,
            Polygon::new_box(150.0, 0.05).unwrap(),
            &ShapeDef::default(),
        )
        .unwrap();
    for _ in 0..3 {
        world.step(DT);
    }
    assert_eq!(world.contacts().count(), 0, "25 mm apart: no points yet");
    world.set_transform(plank, Vec2::new(0.0, y), -2e-4).unwrap();
    world.set_linear_velocity(plank, Vec2::ZERO).unwrap();
    world.step(DT);
    assert_eq!(world.recycled_contact_count(), 0);
    let c = world.contacts().next().expect("the plank's end reached the box");
    assert!(c.manifold.min_separation().unwrap() < 0.0, "{:?}", c.manifold);
}

#[test]
fn a_circle_kept_on_a_side_is_dropped_when_its_center_may_have_left_it() {
    // A static ball of radius 1 resting on a 0.2 m box, its center 15 mm
    // inside the end of the box's top face. Turning the box by 0.02 rad
    // about its center moves the face's end some 20 mm under the ball:
    // judged from the box, the ball's center may have left the face, so
    // the pair is collided again (judged from the ball, the box barely
    // moved, which is the wrong frame for this question).
    let mut world = zero_gravity();
    let b = body_with(
        &mut world,
        &BodyDef::dynamic(),
        Polygon::new_box(0.1, 0.1).unwrap(),
    );
    body_with(
        &mut world,
        &BodyDef::static_body().at(Vec2::new(0.085, 1.1)),
        Circle::new(Vec2::ZERO, 1.0).unwrap(),
    );
    world.step(DT);
    world.set_transform(b, Vec2::ZERO, 0.0).unwrap();
    world.set_linear_velocity(b, Vec2::ZERO).unwrap();
    world.step(DT);
    assert_eq!(world.recycled_contact_count(), 1, "at rest the pair is kept");
    world.set_transform(b, Vec2::ZERO, 0.02).unwrap();
    world.set_linear_velocity(b, Vec2::ZERO).unwrap();
    world.set_angular_velocity(b, 0.0).unwrap();
    world.step(DT);
    assert_eq!(world.recycled_contact_count(), 0);
}

/// Places each of `bodies`, which was put unturned at its position, as
/// if the whole set had been turned by `degrees` about the origin.
fn turn_together(world: &mut World, bodies: [(BodyId, Vec2); 2], degrees: f32) {
    let angle = degrees.to_radians();
    for (body, at) in bodies {
        let at = crate::math::Rot::from_angle(angle).rotate(at);
        world.set_transform(body, at, angle).unwrap();
    }
}

#[test]
fn a_pair_turning_together_is_collided_again_once_it_has_turned_six_degrees() {
    // Two boxes face to face, turned together about the first's center,
    // so the pair does not move relative to itself. A kept manifold's
    // levers do not turn with its bodies (see `Contact::kept_levers`), so
    // once either has turned about 6 degrees (a chord of 0.1) since the
    // manifold was computed, it is collided again.
    let mut world = zero_gravity();
    let a = unit_box(&mut world, Vec2::ZERO);
    let b = unit_box(&mut world, Vec2::new(0.0, 1.0));
    world.step(DT);
    world.step(DT);
    assert_eq!(world.recycled_contact_count(), 1, "at rest: kept");
    let turn = |world: &mut World, degrees: f32| {
        turn_together(world, [(a, Vec2::ZERO), (b, Vec2::new(0.0, 1.0))], degrees);
        world.step(DT);
        world.recycled_contact_count()
    };
    assert_eq!(turn(&mut world, 3.0), 1, "turned 3 degrees together: kept");
    assert_eq!(
        turn(&mut world, 7.0),
        0,
        "7 degrees since it was computed: collided again"
    );
    assert_eq!(turn(&mut world, 9.0), 1, "2 degrees since: kept again");
}

#[test]
fn an_empty_manifold_of_a_pair_turning_together_is_kept_however_far_it_turns() {
    // The same pair 5 cm apart (their fat boxes overlap, no points): an
    // empty manifold has no levers to go stale, so only the pair's motion
    // relative to itself counts, and turned together it is kept.
    let mut world = zero_gravity();
    let a = unit_box(&mut world, Vec2::ZERO);
    let b = unit_box(&mut world, Vec2::new(0.0, 1.05));
    world.step(DT);
    assert_eq!(world.contact_count(), 1);
    for degrees in [7.0f32, 14.0, 21.0, 28.0] {
        turn_together(&mut world, [(a, Vec2::ZERO), (b, Vec2::new(0.0, 1.05))], degrees);
        world.step(DT);
        assert_eq!(world.contacts().count(), 0);
        assert_eq!(
            world.recycled_contact_count(),
            1,
            "turned {degrees} degrees together"
        );
    }
}

#[test]
fn an_approaching_pair_keeps_its_empty_manifold_exactly_while_out_of_reach() {
    // A box drifting down onto the ground at 1 mm a step, from 10 cm
    // above it (their fat boxes overlap), in zero gravity. Their empty
    // manifold is kept while the separating axis's gap, less what the
    // pair has moved since, keeps them out of the speculative distance;
    // it gets points at the very step a fresh collision would give them.
    let mut world = zero_gravity();
    world.set_sleeping(false);
    let g = ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 0.6));
    let speed = 0.06;
    world.set_linear_velocity(b, Vec2::new(0.0, -speed)).unwrap();
    let reach = SPECULATIVE_DISTANCE + DT * speed;
    let mut kept = 0;
    for step in 0..200 {
        let before = placements(&world);
        let at = |id: BodyId| placement(&before, id);
        let gap = at(b).p.y - 0.5;
        world.step(DT);
        let shape = |id: BodyId| world.shape(world.body_shapes(id).unwrap()[0]).unwrap();
        let fresh = collide(shape(g), at(g), shape(b), at(b), reach);
        assert_eq!(
            world.contacts().count() > 0,
            fresh.count > 0,
            "step {step}, gap {gap}"
        );
        if fresh.count > 0 {
            assert!(gap < reach + 1e-4, "points at a gap of {gap}");
            break;
        }
        // Far out of reach, every step but the first keeps it (2 cm of
        // motion, the limit for a manifold with points, would have had it
        // collided again every 10 steps).
        assert_eq!(world.contact_count(), 1);
        if step > 0 && gap > 2.0 * SPECULATIVE_DISTANCE {
            assert_eq!(world.recycled_contact_count(), 1, "step {step}, gap {gap}");
            kept += 1;
        }
    }
    assert!(kept > 40, "kept {kept} steps");
}

#[test]
fn a_corner_slid_past_the_end_of_a_face_is_collided_again() {
    // A box standing on a corner near the end of a plank's top face, the
    // plank sliding away under it (kinematic, no friction), 3 mm a step:
    // within a few steps the corner passes the end of the face, well
    // inside the recycle distance. The kept manifold must not go on
    // pressing the corner against the face's line past its end.
    let mut world = world_with(true);
    world.set_gravity(Vec2::ZERO).expect("a finite gravity");
    let slick = ShapeDef {
        friction: 0.0,
        ..ShapeDef::default()
    };
    let plank = body_made_of(
        &mut world,
        &BodyDef::kinematic().at(Vec2::new(0.0, -0.1)),
        Polygon::new_box(1.0, 0.1).unwrap(),
        &slick,
    );
    world.set_linear_velocity(plank, Vec2::new(-0.18, 0.0)).unwrap();
    // The corner 4 mm inside the face's right end (x = 1), 1 mm deep.
    let half = 0.25;
    let corner_to_center = half * std::f32::consts::SQRT_2;
    body_made_of(
        &mut world,
        &BodyDef::dynamic()
            .at(Vec2::new(0.996, corner_to_center - 0.001))
            .with_angle(std::f32::consts::FRAC_PI_4),
        Polygon::new_box(half, half).unwrap(),
        &slick,
    );
    for step in 0..8 {
        let before = placements(&world);
        world.step(DT);
        let c = world.contacts().next().expect("the pair's contact");
        let (sa, sb) = (world.shape(c.shape_a).unwrap(), world.shape(c.shape_b).unwrap());
        let fresh = collide(
            sa,
            placement(&before, c.body_a),
            sb,
            placement(&before, c.body_b),
            SPECULATIVE_DISTANCE,
        );
        let deepest = |m: &crate::collision::Manifold| {
            m.points()
                .iter()
                .map(|p| p.separation)
                .fold(f32::INFINITY, f32::min)
        };
        assert!(
            (deepest(c.manifold) - deepest(&fresh)).abs() <= 1e-3
                || c.manifold.count == fresh.count && fresh.count == 0,
            "step {step}: kept {:?}\nfresh {fresh:?}",
            c.manifold
        );
    }
}
