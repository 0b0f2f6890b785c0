//! Continuous collision: a body flung far within one step, by a joint
//! rather than by the velocity it began the step with, stops at the
//! static shapes in its way; and what may pass a static shape (a body
//! sliding along it, rising through a one-way platform or a chain from
//! its open side) still does.

use super::tests::{body_with, ground, zero_gravity, DT};
use super::*;
use crate::body::{BodyDef, BodyType};
use crate::hooks::{NoHooks, OneWayPlatforms};
use crate::joint::PrismaticJoint;
use crate::math::Transform;
use crate::settings::{CONTINUOUS_CORE_FRACTION, CONTINUOUS_SAFETY_FACTOR};
use crate::shapes::{Circle, Polygon, ShapeDef};
use crate::world::joints::JointDef;

/// Half the thickness of the walls the flung bodies meet.
const WALL_HALF: f32 = 0.05;

/// A static wall 0.1 m thick and 10 m tall, its near face at `x`.
fn wall_at(world: &mut World, x: f32) -> BodyId {
    body_with(
        world,
        &BodyDef::static_body().at(Vec2::new(x + WALL_HALF, 0.0)),
        Polygon::new_box(WALL_HALF, 5.0).unwrap(),
    )
}

/// The radius of the flung balls.
const BALL_RADIUS: f32 = 0.1;

/// A world without gravity and a static wall (see [`wall_at`]) two
/// [`BALL_RADIUS`] ball diameters from the origin: the world, the wall
/// and its near face's x.
fn walled_world() -> (World, BodyId, f32) {
    let mut world = zero_gravity();
    let face = 4.0 * BALL_RADIUS;
    let wall = wall_at(&mut world, face);
    (world, wall, face)
}

/// A light ball at rest at the origin on a rail along +x (a prismatic
/// joint to a static body without shapes) whose motor drives it at the
/// speed limit with a force that reaches it within the first substep: a
/// body at rest when the step begins (so its contacts look ahead nowhere)
/// crosses several metres in it. The ball and the rail.
fn flung_ball(world: &mut World, radius: f32) -> (BodyId, JointId) {
    let speed = world.settings().max_linear_speed;
    flung_ball_at(world, radius, speed)
}

/// [`flung_ball`], its motor driving it at `speed`.
fn flung_ball_at(world: &mut World, radius: f32, speed: f32) -> (BodyId, JointId) {
    let base = world.create_body(&BodyDef::static_body()).unwrap();
    let ball = body_with(
        world,
        &BodyDef::dynamic(),
        Circle::new(Vec2::ZERO, radius).unwrap(),
    );
    let mass = world.mass_data(ball).unwrap().mass;
    let substep = DT / world.solver_settings().substeps as f32;
    let rail = PrismaticJoint {
        enable_motor: true,
        motor_speed: speed,
        max_motor_force: mass * speed / substep,
        ..PrismaticJoint::default()
    };
    let def = JointDef::new(base, ball, rail)
        .at_frame(world, Transform::IDENTITY)
        .unwrap();
    (ball, world.create_joint(&def).unwrap())
}

#[test]
fn a_body_a_joint_flings_within_a_step_stops_at_a_thin_static_wall() {
    // The wall is twice the ball's diameter away and a fiftieth of a
    // step's travel thick: no contact saw it coming. The motor fires for
    // one step, a piston's kick, and the ball then rests against the
    // wall, not in it.
    let radius = BALL_RADIUS;
    let (mut world, _, face) = walled_world();
    let (ball, rail) = flung_ball(&mut world, radius);
    let travel = DT * world.settings().max_linear_speed;
    assert!(
        travel > 10.0 * face,
        "the step must carry the ball far past the wall"
    );
    for step in 0..60 {
        world.step(DT);
        if step == 0 {
            world.set_joint_kind(rail, PrismaticJoint::default()).unwrap();
        }
        let x = world.position(ball).unwrap().x;
        assert!(
            x + radius <= face + LINEAR_SLOP,
            "step {step}: the ball's far side is at {}, past the wall's face at {face}",
            x + radius
        );
    }
    // It went all the way to the wall, not stopped short.
    let x = world.position(ball).unwrap().x;
    assert!(x + radius > face - 2.0 * LINEAR_SLOP, "stopped at {x}");
}

#[test]
fn a_body_a_joint_keeps_driving_into_a_thin_static_wall_never_passes_it() {
    // The motor stays on: a force that brings the ball to the speed
    // limit within a substep is far more than the soft contact's spring
    // holds, and the ball sinks into the wall; but its center never
    // reaches the wall, step after step.
    let radius = BALL_RADIUS;
    let (mut world, _, face) = walled_world();
    let (ball, _) = flung_ball(&mut world, radius);
    for step in 0..300 {
        world.step(DT);
        let x = world.position(ball).unwrap().x;
        assert!(x < face, "step {step}: the ball's center is at {x}, in the wall");
    }
}

#[test]
fn a_body_a_platform_drags_against_a_wall_stays_out_and_still() {
    // A light ball hinged to a kinematic platform that the game moves
    // through a wall (platforms pass static shapes): the hinge drags the
    // ball at the platform's speed, which no contact can resist. The
    // ball stays in front of the wall; held there, it reports no speed
    // into the wall, which it never moves by and which the hinge would
    // otherwise hand back to the platform's side every step.
    let radius = BALL_RADIUS;
    let (mut world, _, face) = walled_world();
    let speed = 0.5 * world.settings().max_linear_speed;
    let platform = world
        .create_body(&BodyDef::kinematic().with_velocity(Vec2::new(speed, 0.0)))
        .unwrap();
    let ball = body_with(
        &mut world,
        &BodyDef::dynamic(),
        Circle::new(Vec2::ZERO, radius).unwrap(),
    );
    let hinge = JointDef::new(platform, ball, crate::joint::RevoluteJoint::default())
        .at(&world, Vec2::ZERO)
        .unwrap();
    world.create_joint(&hinge).unwrap();
    let mut held = 0;
    for step in 0..30 {
        world.step(DT);
        let x = world.position(ball).unwrap().x;
        assert!(x < face, "step {step}: the ball's center is at {x}, in the wall");
        let v = world.linear_velocity(ball).unwrap();
        if x + radius > face {
            held += 1;
            assert!(
                v.x <= 0.0,
                "step {step}: held at the wall, moving into it at {v:?}"
            );
        }
    }
    assert!(held > 0, "never pressed into the wall");
}

#[test]
fn a_wall_made_static_later_stops_a_flung_body_too() {
    // The wall is made dynamic, then static: continuous collision finds
    // the shapes of whatever is static when the step runs.
    let radius = BALL_RADIUS;
    let (mut world, wall, face) = walled_world();
    world.set_body_type(wall, BodyType::Dynamic).unwrap();
    world.set_body_type(wall, BodyType::Static).unwrap();
    let (ball, _) = flung_ball(&mut world, radius);
    world.step(DT);
    let x = world.position(ball).unwrap().x;
    assert!(x + radius <= face + LINEAR_SLOP, "through the wall, at {x}");
}

#[test]
fn a_sensor_just_behind_a_flung_body_sees_nothing_cross_it() {
    // The ball is put back to where it met the wall: the sensors sweep
    // the motion it really made, from its start away from the sensor,
    // not one as long as the motion the solver gave it and ending at the
    // wall, which would have begun behind the sensor.
    let radius = BALL_RADIUS;
    let (mut world, _, face) = walled_world();
    let (ball, _) = flung_ball(&mut world, radius);
    let behind = world.create_body(&BodyDef::static_body()).unwrap();
    let def = ShapeDef {
        sensor: true,
        ..ShapeDef::default()
    };
    let gap = LINEAR_SLOP;
    let half = 0.5 * LINEAR_SLOP;
    let sensor = Polygon::new_offset_box(half, 1.0, Vec2::new(-radius - gap - half, 0.0), 0.0).unwrap();
    world.create_shape(behind, sensor, &def).unwrap();
    world.step(DT);
    assert!(world.position(ball).unwrap().x < face);
    let events = world.sensor_events();
    assert!(events.begin.is_empty() && events.end.is_empty(), "{events:?}");
}

#[test]
fn a_body_sliding_fast_along_a_static_shape_is_not_held_back() {
    // A box resting on the ground, sent along it at a hundred times its
    // size a second, starts every step touching the ground: only its core
    // is swept, and that never meets the ground, so it slides on as
    // friction lets it.
    let mut world = World::default();
    ground(&mut world);
    let half = 0.25;
    let b = body_with(
        &mut world,
        &BodyDef::dynamic().at(Vec2::new(0.0, half)),
        Polygon::new_box(half, half).unwrap(),
    );
    for _ in 0..30 {
        world.step(DT);
    }
    let speed = 200.0 * half;
    world.set_linear_velocity(b, Vec2::new(speed, 0.0)).unwrap();
    let x0 = world.position(b).unwrap().x;
    world.step(DT);
    // Friction takes at most mu g dt of the speed in a step.
    let friction = ShapeDef::default().friction;
    let least = (speed - friction * world.gravity().length() * DT) * DT;
    let moved = world.position(b).unwrap().x - x0;
    assert!(moved >= least * (1.0 - 1e-3), "moved {moved}, at least {least}");
}

#[test]
fn a_fast_body_rises_through_a_one_way_platform_and_lands_on_it() {
    // Upwards at ten times its size a second through a platform that the
    // pre-solve hook lets bodies through from below: the sweep asks the
    // hook about the contact it would make under the platform, which the
    // hook refuses. Without the hook the platform is solid.
    for (hooks, passes) in [(true, true), (false, false)] {
        let mut world = World::default();
        ground(&mut world);
        let def = ShapeDef {
            pre_solve: true,
            ..ShapeDef::default()
        };
        let platform = world
            .create_body(&BodyDef::static_body().at(Vec2::new(0.0, 3.0)))
            .unwrap();
        let shape = world
            .create_shape(platform, Polygon::new_box(3.0, 0.05).unwrap(), &def)
            .unwrap();
        let one_way = OneWayPlatforms {
            platforms: vec![shape],
            ..OneWayPlatforms::default()
        };
        let half = 0.2;
        let (start, speed) = (1.0, 50.0 * half);
        let b = body_with(
            &mut world,
            &BodyDef::dynamic()
                .at(Vec2::new(0.0, start))
                .with_velocity(Vec2::new(0.0, speed)),
            Polygon::new_box(half, half).unwrap(),
        );
        let mut highest: f32 = 0.0;
        for _ in 0..180 {
            if hooks {
                world.step_with_hooks(DT, &one_way);
            } else {
                world.step_with_hooks(DT, &NoHooks);
            }
            highest = highest.max(world.position(b).unwrap().y);
        }
        let top = 3.05;
        if passes {
            // As high as in free flight, give or take a step's travel.
            let apex = start + speed * speed / (2.0 * world.gravity().length());
            assert!(
                apex - highest < speed * DT,
                "held under the platform: apex {highest}"
            );
            let y = world.position(b).unwrap().y;
            assert!((y - (top + half)).abs() < 0.02, "landed at {y}");
        } else {
            assert!(highest < 3.0 - half, "through a solid platform: {highest}");
        }
    }
}

#[test]
fn a_fast_body_passes_a_chain_from_its_open_side() {
    // Terrain drawn right to left is solid from above: a body flung up
    // at it from below goes through, one flung down at it lands.
    for (from, speed) in [(-1.0, 60.0), (1.0, -60.0)] {
        let mut world = zero_gravity();
        let terrain = world.create_body(&BodyDef::static_body()).unwrap();
        let points = [Vec2::new(5.0, 0.0), Vec2::new(-5.0, 0.0)];
        world
            .create_chain(terrain, &points, false, &ShapeDef::default())
            .unwrap();
        let radius = 0.1;
        let b = body_with(
            &mut world,
            &BodyDef::dynamic()
                .at(Vec2::new(0.0, from))
                .with_velocity(Vec2::new(0.0, speed)),
            Circle::new(Vec2::ZERO, radius).unwrap(),
        );
        for _ in 0..10 {
            world.step(DT);
        }
        let y = world.position(b).unwrap().y;
        if from < 0.0 {
            assert!(y > 1.0, "held under the chain's open side: {y}");
        } else {
            assert!(
                (y - radius).abs() <= 2.0 * LINEAR_SLOP,
                "not landed on the chain: {y}"
            );
        }
    }
}

#[test]
fn a_fast_body_the_step_leaves_shallow_in_a_static_shape_is_left_there() {
    // A ball a motor flings from rest (no contact looks ahead of it)
    // ends the step a centimetre into a wall: less than its core's
    // radius. Continuous collision leaves it where the solver put it, for
    // the next step's contact to push out, as it would a slow body: put
    // back to where it first touched, a limb would be pulled off the arc
    // its joint holds it to (a sweep moves its center in a straight line)
    // and the joint would open.
    let radius = BALL_RADIUS;
    let speed = 6.0;
    let fling = |world: &mut World| {
        let (ball, rail) = flung_ball_at(world, radius, speed);
        world.step(DT);
        (ball, rail)
    };
    let mut free = zero_gravity();
    let (ball, _) = fling(&mut free);
    let travel = free.position(ball).unwrap().x;
    assert!(
        travel > CONTINUOUS_SAFETY_FACTOR * radius,
        "the ball must move fast: {travel}"
    );
    let depth = 0.01;
    assert!(depth < CONTINUOUS_CORE_FRACTION * radius);
    let face = travel + radius - depth;
    let mut world = zero_gravity();
    wall_at(&mut world, face);
    let (ball, rail) = fling(&mut world);
    assert_eq!(world.position(ball).unwrap().x, travel, "the sweep moved it");
    world.set_joint_kind(rail, PrismaticJoint::default()).unwrap();
    world.set_linear_velocity(ball, Vec2::ZERO).unwrap();
    for _ in 0..60 {
        world.step(DT);
    }
    let x = world.position(ball).unwrap().x;
    assert!(
        x + radius <= face + LINEAR_SLOP,
        "the contact pushed it out to {}, not in front of {face}",
        x + radius
    );
}

#[test]
fn a_bullet_never_passes_a_thin_moving_plank() {
    // Continuous collision sweeps against static shapes only: a fast body
    // against a dynamic one is met by their speculative contact, which
    // looks ahead as far as both velocities reach. A 1 cm steel bullet at
    // 300 m/s (5 m a step) into a free-standing 5 cm plank, at 30 heights
    // from near its foot to over its top edge: the bullet's center gets
    // past the plank's near face only over the plank's top, clear of it
    // (a shot aimed 1.5 cm over the top passes), and none is flung up.
    let (half_w, half_h, radius) = (0.025, 0.5, 0.005);
    for shot in 0..30 {
        let mut world = World::new(WorldSettings::default());
        ground(&mut world);
        let plank = body_with(
            &mut world,
            &BodyDef::dynamic().at(Vec2::new(0.0, half_h)),
            Polygon::new_box(half_w, half_h).unwrap(),
        );
        let y = 0.1 + 0.92 * shot as f32 / 29.0;
        let bullet = world
            .create_body(
                &BodyDef::dynamic()
                    .at(Vec2::new(-3.0 - 0.37 * (shot % 3) as f32, y))
                    .with_velocity(Vec2::new(300.0, 0.0)),
            )
            .unwrap();
        let steel = ShapeDef {
            density: 7.8,
            ..ShapeDef::default()
        };
        world
            .create_shape(bullet, Circle::new(Vec2::ZERO, radius).unwrap(), &steel)
            .unwrap();
        let in_plank = |world: &World| {
            world
                .transform(plank)
                .unwrap()
                .inv_apply(world.position(bullet).unwrap())
        };
        let mut last = in_plank(&world);
        for step in 0..20 {
            world.step(DT);
            let local = in_plank(&world);
            let near_face = -half_w + LINEAR_SLOP;
            if last.x < near_face && local.x >= near_face {
                // Past the near face this step: where its path crossed it.
                let t = (near_face - last.x) / (local.x - last.x);
                let crossed = last.y + t * (local.y - last.y);
                assert!(
                    crossed - radius >= half_h - LINEAR_SLOP,
                    "shot {shot} (y {y}), step {step}: the bullet went through the plank at {crossed}"
                );
            }
            last = local;
            let vy = world.linear_velocity(bullet).unwrap().y;
            assert!(vy < 5.0, "shot {shot}, step {step}: flung up at {vy} m/s");
        }
    }
}
