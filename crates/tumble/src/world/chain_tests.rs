//! Segments and chains in the world: a box sliding over the joints of a
//! chain feels one smooth surface; chains are one-sided; segments are
//! two-sided; a ball rolls over a chain hill.

use super::tests::DT;
use super::*;
use crate::body::BodyDef;
use crate::shapes::ShapeDef;
use crate::shapes::{Circle, Polygon, Segment};

/// Slides a 1 m box at 8 m/s along a floor at y = 0 made by `floor`, for
/// 1.5 s, and returns the largest |vy| and |w| seen and the final x
/// velocity.
fn slide(friction: f32, floor: impl FnOnce(&mut World, BodyId, &ShapeDef)) -> (f32, f32, f32) {
    let mut world = World::default();
    let ground = world.create_body(&BodyDef::static_body()).unwrap();
    let def = ShapeDef {
        friction,
        ..ShapeDef::default()
    };
    floor(&mut world, ground, &def);
    let b = world
        .create_body(
            &BodyDef::dynamic()
                .at(Vec2::new(-4.2, 0.5))
                .with_velocity(Vec2::new(8.0, 0.0)),
        )
        .unwrap();
    world
        .create_shape(b, Polygon::new_box(0.5, 0.5).unwrap(), &def)
        .unwrap();
    // Settle onto the floor first: one step.
    world.step(DT);
    let (mut vy, mut w): (f32, f32) = (0.0, 0.0);
    for _ in 0..90 {
        world.step(DT);
        vy = vy.max(world.linear_velocity(b).unwrap().y.abs());
        w = w.max(world.angular_velocity(b).unwrap().abs());
    }
    (vy, w, world.linear_velocity(b).unwrap().x)
}

/// A chain of 1 m segments from x = 20 down to x = -6 (right to left:
/// solid from above).
fn chain_floor(world: &mut World, ground: BodyId, def: &ShapeDef) {
    let points: Vec<Vec2> = (0..=26).map(|k| Vec2::new(20.0 - k as f32, 0.0)).collect();
    let ids = world.create_chain(ground, &points, false, def).unwrap();
    assert_eq!(ids.len(), 26);
}

fn long_segment_floor(world: &mut World, ground: BodyId, def: &ShapeDef) {
    world
        .create_shape(
            ground,
            Segment::new(Vec2::new(-6.0, 0.0), Vec2::new(20.0, 0.0)).unwrap(),
            def,
        )
        .unwrap();
}

#[test]
fn a_box_sliding_over_a_chain_of_short_segments_feels_one_smooth_surface() {
    for friction in [0.0, 0.1, 0.6] {
        let (vy, w, vx) = slide(friction, chain_floor);
        let (_, _, vx_long) = slide(friction, long_segment_floor);
        assert!(vy < 0.05, "friction {friction}: |vy| reached {vy}");
        assert!(w < 0.05, "friction {friction}: |w| reached {w}");
        assert!(
            (vx - vx_long).abs() < 0.01,
            "friction {friction}: {vx} m/s left over the chain, {vx_long} over one segment"
        );
        // Coulomb: 8 - mu g t over the 1.5 s, or stopped.
        let coulomb = (8.0 - friction * 10.0 * 1.5f32).max(0.0);
        assert!(
            (vx_long - coulomb).abs() < 0.05,
            "friction {friction}: {vx_long} against {coulomb}"
        );
    }
}

#[test]
fn a_chain_is_solid_from_its_front_only() {
    let mut world = World::default();
    let ground = world.create_body(&BodyDef::static_body()).unwrap();
    // Right to left: the front is up.
    world
        .create_chain(
            ground,
            &[Vec2::new(5.0, 0.0), Vec2::new(-5.0, 0.0)],
            false,
            &ShapeDef::default(),
        )
        .unwrap();
    let from_above = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(-2.0, 2.0)))
        .unwrap();
    world
        .create_shape(
            from_above,
            Polygon::new_box(0.5, 0.5).unwrap(),
            &ShapeDef::default(),
        )
        .unwrap();
    let from_below = world
        .create_body(
            &BodyDef::dynamic()
                .at(Vec2::new(2.0, -2.0))
                .with_velocity(Vec2::new(0.0, 12.0)),
        )
        .unwrap();
    world
        .create_shape(
            from_below,
            Polygon::new_box(0.5, 0.5).unwrap(),
            &ShapeDef::default(),
        )
        .unwrap();
    let mut highest: f32 = -2.0;
    for _ in 0..150 {
        world.step(DT);
        highest = highest.max(world.position(from_below).unwrap().y);
    }
    let y = world.position(from_above).unwrap().y;
    assert!((y - 0.5).abs() < 0.01, "lands on the front: y = {y}");
    assert!(highest > 4.0, "passes up through the back: apex {highest}");
    let y = world.position(from_below).unwrap().y;
    assert!((y - 0.5).abs() < 0.01, "then lands on the front too: y = {y}");
}

#[test]
fn a_segment_is_solid_from_both_sides() {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    let wall = world.create_body(&BodyDef::static_body()).unwrap();
    world
        .create_shape(
            wall,
            Segment::new(Vec2::new(0.0, -3.0), Vec2::new(0.0, 3.0)).unwrap(),
            &ShapeDef::default(),
        )
        .unwrap();
    for side in [-1.0f32, 1.0] {
        let ball = world
            .create_body(
                &BodyDef::dynamic()
                    .at(Vec2::new(3.0 * side, 0.0))
                    .with_velocity(Vec2::new(-6.0 * side, 0.0)),
            )
            .unwrap();
        world
            .create_shape(ball, Circle::new(Vec2::ZERO, 0.5).unwrap(), &ShapeDef::default())
            .unwrap();
        for _ in 0..60 {
            world.step(DT);
        }
        let x = world.position(ball).unwrap().x;
        assert!(
            (x - 0.5 * side).abs() < 0.02,
            "stopped against the side it came from: x = {x}"
        );
    }
}

/// A ball of radius `r` rolling over the arc of radius 10 m centered at
/// (0, -9) made of `segments` chain segments between -30 and 30 degrees,
/// started at -20 degrees rolling uphill at 4 m/s. Returns the largest
/// distance it got from the arc and its speed at the top.
fn roll_over_arc(r: f32, segments: u32) -> (f32, f32) {
    let (radius, center) = (10.0f32, Vec2::new(0.0, -9.0));
    let on_arc = |degrees: f32| {
        let a = degrees.to_radians();
        center + radius * Vec2::new(a.sin(), a.cos())
    };
    let mut world = World::default();
    let ground = world.create_body(&BodyDef::static_body()).unwrap();
    // Right to left: solid from above.
    let points: Vec<Vec2> = (0..=segments)
        .map(|k| on_arc(30.0 - 60.0 * k as f32 / segments as f32))
        .collect();
    world
        .create_chain(ground, &points, false, &ShapeDef::default())
        .unwrap();
    let start = -20f32.to_radians();
    let up = Vec2::new(start.sin(), start.cos());
    let along = Vec2::new(up.y, -up.x);
    let v0 = 4.0;
    let def = BodyDef {
        angular_velocity: -v0 / r,
        ..BodyDef::dynamic()
            .at(center + (radius + r) * up)
            .with_velocity(v0 * along)
    };
    let ball = world.create_body(&def).unwrap();
    world
        .create_shape(ball, Circle::new(Vec2::ZERO, r).unwrap(), &ShapeDef::default())
        .unwrap();
    let (mut worst_gap, mut speed_at_top): (f32, f32) = (0.0, 0.0);
    for _ in 0..120 {
        world.step(DT);
        let p = world.position(ball).unwrap();
        worst_gap = worst_gap.max((p.distance(center) - radius - r).abs());
        if p.x.abs() < 0.1 {
            speed_at_top = world.linear_velocity(ball).unwrap().length();
        }
        if p.x > on_arc(25.0).x {
            break;
        }
    }
    (worst_gap, speed_at_top)
}

#[test]
fn a_ball_rolls_over_the_joints_of_a_curved_chain_without_bumps() {
    // Rolling without slipping, 7/10 m v^2 + m g h is conserved: over the
    // rise of 10 (1 - cos 20 deg) m to the top, v^2 drops by g h / 0.7.
    let rise = 10.0 * (1.0 - 20f32.to_radians().cos());
    let expected = (16.0 - 10.0 * rise / 0.7f32).sqrt();
    for segments in [20, 40] {
        let (gap, speed) = roll_over_arc(0.3, segments);
        // A chord of the arc sags below it by R (1 - cos(half the angle)).
        let sag = 10.0 * (1.0 - (30f32 / segments as f32).to_radians().cos());
        assert!(
            gap < sag + 0.01,
            "{segments} segments: {gap} m off the arc (sag {sag})"
        );
        assert!(
            (speed - expected).abs() < 0.03 * expected,
            "{segments} segments: {speed} m/s at the top, {expected} expected"
        );
    }
}
