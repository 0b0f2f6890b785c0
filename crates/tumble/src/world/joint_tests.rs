//! Joints against closed forms (a pendulum's period, a spring's, a motor's
//! spin-up), limits under load, chains at rest, the error cases, and the
//! joint's place in islands, sleeping and collision.

use super::tests::{body_made_of, body_with, ground, unit_box, zero_gravity, DT};
use super::*;
use crate::body::BodyDef;
use crate::error::JointError;
use crate::joint::{
    DistanceJoint, JointKind, MotorJoint, PrismaticJoint, RevoluteJoint, WeldJoint, WheelJoint,
};
use crate::math::{Rot, Transform};
use crate::shapes::ShapeDef;
use crate::shapes::{Capsule, Circle, Polygon};
use std::f32::consts::PI;

/// A static body with no shape at the origin: what joints hang from.
fn anchor(world: &mut World) -> BodyId {
    world.create_body(&BodyDef::static_body()).unwrap()
}

/// A small ball (radius `r`, density 1) at `at`.
fn ball(world: &mut World, at: Vec2, r: f32) -> BodyId {
    body_with(
        world,
        &BodyDef::dynamic().at(at),
        Circle::new(Vec2::ZERO, r).unwrap(),
    )
}

/// The times at which `x(t)` crosses zero going down, interpolated, over
/// `steps` steps of `world`.
fn downward_crossings(world: &mut World, steps: u32, mut x: impl FnMut(&World) -> f32) -> Vec<f32> {
    let mut last = x(world);
    let mut out = Vec::new();
    for k in 1..=steps {
        world.step(DT);
        let now = x(world);
        if last > 0.0 && now <= 0.0 {
            out.push((k as f32 - 1.0 + last / (last - now)) * DT);
        }
        last = now;
    }
    out
}

/// The mean spacing of a list of crossing times.
fn mean_period(crossings: &[f32]) -> f32 {
    (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f32
}

#[test]
fn a_pendulum_swings_with_the_period_of_the_closed_form_and_keeps_its_amplitude() {
    // A ball of radius r on a hinge at distance L: a physical pendulum of
    // period 2 pi sqrt((L^2 + r^2 / 2) / (g L)), lengthened at amplitude
    // a0 by the factor 1 + a0^2 / 16 + 11 a0^4 / 3072.
    for (length, degrees) in [(1.0f32, 5.0f32), (3.0, 5.0), (1.0, 30.0)] {
        let mut world = World::default();
        let ground = anchor(&mut world);
        let (r, a0) = (0.05, degrees.to_radians());
        let bob = ball(&mut world, Vec2::new(length * a0.sin(), -length * a0.cos()), r);
        let def = JointDef::new(ground, bob, RevoluteJoint::default())
            .at(&world, Vec2::ZERO)
            .unwrap();
        world.create_joint(&def).unwrap();
        let crossings = downward_crossings(&mut world, 900, |w| w.position(bob).unwrap().x);
        let small = 2.0 * PI * ((length * length + 0.5 * r * r) / (10.0 * length)).sqrt();
        let expected = small * (1.0 + a0 * a0 / 16.0 + 11.0 * a0.powi(4) / 3072.0);
        let period = mean_period(&crossings);
        assert!(
            (period / expected - 1.0).abs() < 0.01,
            "L = {length}, {degrees} degrees: period {period} s, closed form {expected} s"
        );
        // The amplitude after the last whole swing, from the height.
        let periods = (crossings.len() - 1) as f32;
        let mut top = f32::MIN;
        for _ in 0..(expected / DT) as u32 {
            world.step(DT);
            top = top.max(world.position(bob).unwrap().y);
        }
        let amplitude = (-top / length).clamp(-1.0, 1.0).acos();
        let loss_per_period = (1.0 - amplitude / a0) / (periods + 1.0);
        assert!(
            loss_per_period < 0.01,
            "L = {length}, {degrees} degrees: amplitude {a0} -> {amplitude}, {loss_per_period} per period"
        );
    }
}

#[test]
fn a_mass_on_a_spring_oscillates_with_period_two_pi_root_m_over_k() {
    // A distance joint's spring of f Hz on a body of mass m against a
    // static anchor is k = m (2 pi f)^2: its period is 1 / f.
    for hertz in [0.5f32, 1.0, 2.0] {
        let mut world = zero_gravity();
        let fixed = anchor(&mut world);
        let body = ball(&mut world, Vec2::new(2.2, 0.0), 0.1);
        let def = JointDef::new(fixed, body, DistanceJoint::spring(2.0, hertz, 0.0));
        world.create_joint(&def).unwrap();
        let crossings = downward_crossings(&mut world, 600, |w| w.position(body).unwrap().x - 2.0);
        let period = mean_period(&crossings);
        assert!(
            (period * hertz - 1.0).abs() < 0.01,
            "{hertz} Hz: period {period} s, closed form {} s",
            1.0 / hertz
        );
    }
}

#[test]
fn a_prismatic_spring_has_the_same_period_and_the_slider_stays_on_its_axis() {
    let mut world = zero_gravity();
    let fixed = anchor(&mut world);
    let body = body_with(
        &mut world,
        &BodyDef::dynamic().at(Vec2::new(0.3, 0.0)),
        Polygon::new_box(0.2, 0.1).unwrap(),
    );
    // The axis along world x; the spring pulls frame B back to x = 0.
    let slider = PrismaticJoint::default().with_spring(1.0, 0.0, 0.0);
    let def = JointDef::new(fixed, body, slider)
        .at(&world, Vec2::new(0.3, 0.0))
        .unwrap();
    let def = JointDef {
        frame_a: Transform::new(Vec2::ZERO, 0.0),
        ..def
    };
    let j = world.create_joint(&def).unwrap();
    // Knock it sideways and spinning: the joint holds both.
    world.set_linear_velocity(body, Vec2::new(0.0, 1.0)).unwrap();
    world.set_angular_velocity(body, 2.0).unwrap();
    let crossings = downward_crossings(&mut world, 600, |w| w.joint_translation(j).unwrap());
    assert!((mean_period(&crossings) - 1.0).abs() < 0.01, "{crossings:?}");
    let p = world.position(body).unwrap();
    assert!(p.y.abs() < 1e-3, "off the axis by {}", p.y);
    assert!(world.angle(body).unwrap().abs() < 1e-3);
}

#[test]
fn a_revolute_motor_spins_up_at_its_torque_then_holds_its_speed() {
    let mut world = zero_gravity();
    let fixed = anchor(&mut world);
    let wheel = ball(&mut world, Vec2::ZERO, 0.5);
    let inertia = world.mass_data(wheel).unwrap().inertia;
    let torque = 0.2;
    let hinge = RevoluteJoint::default().with_motor(3.0, torque);
    let j = world
        .create_joint(&JointDef::new(fixed, wheel, hinge).at(&world, Vec2::ZERO).unwrap())
        .unwrap();
    // Torque-limited: w = torque t / I until the target.
    let steps = 30;
    for _ in 0..steps {
        world.step(DT);
    }
    let w = world.angular_velocity(wheel).unwrap();
    let expected = torque * steps as f32 * DT / inertia;
    assert!(expected < 3.0);
    assert!((w / expected - 1.0).abs() < 0.01, "w {w}, closed form {expected}");
    let impulse = world.joint_motor_impulse(j).unwrap();
    assert!(
        (impulse / (torque * DT) - 1.0).abs() < 1e-3,
        "motor impulse {impulse}"
    );
    for _ in 0..600 {
        world.step(DT);
    }
    let w = world.angular_velocity(wheel).unwrap();
    assert!((w - 3.0).abs() < 1e-3, "w {w} after spin-up");
    assert!(world.joint_length(j).unwrap() < 1e-4);
}

#[test]
fn joint_friction_holds_a_small_load_and_slips_under_a_large_one() {
    // An arm of 1 m with a 1 kg-ish ball, horizontal: the hinge's motor at
    // zero speed holds it if its torque exceeds m g L.
    let run = |friction: f32| {
        let mut world = World::default();
        let fixed = anchor(&mut world);
        let bob = ball(&mut world, Vec2::new(1.0, 0.0), 0.5);
        let load = world.mass_data(bob).unwrap().mass * 10.0;
        let hinge = RevoluteJoint::default().with_motor(0.0, friction * load);
        world
            .create_joint(&JointDef::new(fixed, bob, hinge).at(&world, Vec2::ZERO).unwrap())
            .unwrap();
        for _ in 0..120 {
            world.step(DT);
        }
        world.position(bob).unwrap().y
    };
    // Held, it creeps by no more than a few millimetres in two seconds.
    assert!(run(1.2).abs() < 5e-3, "held: y {}", run(1.2));
    assert!(run(0.8) < -0.5, "slipped: y {}", run(0.8));
}

#[test]
fn revolute_limits_hold_a_heavy_arm_at_the_lower_limit() {
    let mut world = World::default();
    let fixed = anchor(&mut world);
    let arm = body_with(
        &mut world,
        &BodyDef::dynamic().at(Vec2::new(1.0, 0.0)),
        Polygon::new_box(1.0, 0.1).unwrap(),
    );
    let weight = body_with(
        &mut world,
        &BodyDef::dynamic().at(Vec2::new(2.0, 0.0)),
        Circle::new(Vec2::ZERO, 0.3).unwrap(),
    );
    let hinge = RevoluteJoint::default().with_limits(-0.25, 0.25);
    let j = world
        .create_joint(&JointDef::new(fixed, arm, hinge).at(&world, Vec2::ZERO).unwrap())
        .unwrap();
    world
        .create_joint(
            &JointDef::new(arm, weight, WeldJoint::rigid())
                .at(&world, Vec2::new(2.0, 0.0))
                .unwrap(),
        )
        .unwrap();
    for _ in 0..180 {
        world.step(DT);
    }
    let angle = world.joint_angle(j).unwrap();
    assert!((angle + 0.25).abs() < 0.01, "rests at the lower limit: {angle}");
    assert!(world.angular_velocity(arm).unwrap().abs() < 1e-2);
    // The reaction holds up the arm and the weight.
    let weight_total = 10.0 * (world.mass_data(arm).unwrap().mass + world.mass_data(weight).unwrap().mass);
    let (force, torque) = world.joint_reaction(j).unwrap();
    assert!((force.y / weight_total - 1.0).abs() < 0.02, "reaction {force}");
    assert!(torque > 0.0, "the lower limit pushes the arm up: {torque}");
}

/// A light plank on a pivot, its turn limited to 0.2 rad either way,
/// struck at one end by a box 50 times its mass dropped from 1 m: the
/// limit stops the plank and carries the box, its angle passing the limit
/// by no more than a thousandth of a radian at any step. (A limit as soft
/// as the joints' stiffness gave way under the blow by a tenth.)
#[test]
fn a_hinge_limit_holds_under_a_heavy_impact() {
    let mut world = World::default();
    let pivot = anchor(&mut world);
    let plank = body_with(
        &mut world,
        &BodyDef::dynamic(),
        Polygon::new_box(1.0, 0.05).unwrap(),
    );
    let hinge = RevoluteJoint::default().with_limits(-0.2, 0.2);
    let j = world
        .create_joint(&JointDef::new(pivot, plank, hinge).at(&world, Vec2::ZERO).unwrap())
        .unwrap();
    let plank_mass = world.mass_data(plank).unwrap().mass;
    // (A 0.4 m box has an area of 0.16 m^2.)
    let material = ShapeDef {
        density: 50.0 * plank_mass / 0.16,
        ..ShapeDef::default()
    };
    let weight = body_made_of(
        &mut world,
        &BodyDef::dynamic().at(Vec2::new(0.8, 1.25)),
        Polygon::new_box(0.2, 0.2).unwrap(),
        &material,
    );
    let ratio = world.mass_data(weight).unwrap().mass / plank_mass;
    assert!((ratio - 50.0).abs() < 0.01, "mass ratio {ratio}");
    let mut worst = 0.0f32;
    for _ in 0..180 {
        world.step(DT);
        let angle = world.joint_angle(j).unwrap();
        worst = worst.max(-0.2 - angle).max(angle - 0.2);
    }
    let angle = world.joint_angle(j).unwrap();
    assert!(
        (angle + 0.2).abs() < 1e-3,
        "the plank rests on its limit: {angle}"
    );
    assert!(
        world.position(weight).unwrap().x > 0.5,
        "the box stays on the plank"
    );
    assert!(worst < 1e-3, "the limit gave way by {worst} rad");
}

#[test]
fn a_prismatic_slider_rests_on_its_lower_limit_and_a_motor_lifts_it() {
    let mut world = World::default();
    let fixed = anchor(&mut world);
    let body = unit_box(&mut world, Vec2::ZERO);
    let vertical = Transform::new(Vec2::ZERO, 0.5 * PI);
    let slider = PrismaticJoint::default().with_limits(-1.0, 1.0);
    let def = JointDef::new(fixed, body, slider)
        .at_frame(&world, vertical)
        .unwrap();
    let j = world.create_joint(&def).unwrap();
    for _ in 0..120 {
        world.step(DT);
    }
    let t = world.joint_translation(j).unwrap();
    assert!((t + 1.0).abs() < 0.01, "on the lower limit: {t}");
    assert!(world.position(body).unwrap().x.abs() < 1e-4);
    // A motor stronger than the weight lifts it at its speed, to the top.
    let weight = 10.0 * world.mass_data(body).unwrap().mass;
    world
        .set_joint_kind(j, slider.with_motor(0.5, 2.0 * weight))
        .unwrap();
    for _ in 0..60 {
        world.step(DT);
    }
    let v = world.linear_velocity(body).unwrap();
    assert!((v.y - 0.5).abs() < 1e-3, "lifted at {v}");
    for _ in 0..300 {
        world.step(DT);
    }
    assert!((world.joint_translation(j).unwrap() - 1.0).abs() < 0.01);
}

#[test]
fn a_hanging_chain_stretches_less_than_a_percent() {
    let mut world = World::default();
    let fixed = anchor(&mut world);
    let links = 20;
    let mut prev = fixed;
    for k in 0..links {
        let y = -0.5 - k as f32;
        let link = body_with(
            &mut world,
            &BodyDef::dynamic().at(Vec2::new(0.0, y)),
            Capsule::new(Vec2::new(0.0, -0.5), Vec2::new(0.0, 0.5), 0.125).unwrap(),
        );
        let def = JointDef::new(prev, link, RevoluteJoint::default())
            .at(&world, Vec2::new(0.0, y + 0.5))
            .unwrap();
        world.create_joint(&def).unwrap();
        prev = link;
    }
    for _ in 0..180 {
        world.step(DT);
    }
    let bottom = world.position(prev).unwrap().y - 0.5;
    let stretch = -bottom / links as f32 - 1.0;
    assert!(stretch.abs() < 0.01, "stretched {:.3}%", 100.0 * stretch);
}

#[test]
fn a_ball_170_times_a_links_mass_swings_on_a_chain_that_holds_within_a_millimetre() {
    // Box2D's ball and chain, on its own layout: Gauss-Seidel alone opens
    // the joints by 0.137 m as it swings (so does Box2D); the chain is a
    // tree with a large mass ratio, solved exactly and projected shut
    // after each step's substeps.
    let mut world = World::default();
    let fixed = anchor(&mut world);
    let dense = ShapeDef {
        density: 20.0,
        ..ShapeDef::default()
    };
    let link = Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.125).unwrap();
    let friction = RevoluteJoint::default().with_motor(0.0, 100.0);
    let mut prev = fixed;
    for i in 0..30 {
        let x = 0.5 + i as f32;
        let b = world
            .create_body(&BodyDef::dynamic().at(Vec2::new(x, 15.0)))
            .unwrap();
        world.create_shape(b, link, &dense).unwrap();
        let def = JointDef::new(prev, b, friction)
            .at(&world, Vec2::new(x - 0.5, 15.0))
            .unwrap();
        world.create_joint(&def).unwrap();
        prev = b;
    }
    let ball = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(34.0, 15.0)))
        .unwrap();
    world
        .create_shape(ball, Circle::new(Vec2::ZERO, 4.0).unwrap(), &dense)
        .unwrap();
    let def = JointDef::new(prev, ball, friction)
        .at(&world, Vec2::new(30.0, 15.0))
        .unwrap();
    world.create_joint(&def).unwrap();
    let ratio = world.mass_data(ball).unwrap().mass / world.mass_data(prev).unwrap().mass;
    assert!(ratio > 150.0, "ratio {ratio}");
    let mut widest = 0.0f32;
    for _ in 0..600 {
        world.step(DT);
        for j in world.joints() {
            widest = widest.max(world.joint_length(j).unwrap());
        }
    }
    assert!(widest < 0.001, "the chain opened {widest} m");
    // And it swung: the ball is far below where it started.
    assert!(world.position(ball).unwrap().y < 0.0);
}

#[test]
fn a_long_chain_released_level_stays_shut_through_its_whip() {
    // 100 links of 1 m boxes hinged end to end from the ground, released
    // level: no mass ratio across any hinge, but the top link carries the
    // whole chain (its soft rows sagged 4 cm under it), and at the whip
    // the free end passes 110 m/s, its links turning half a radian a
    // substep off their velocity rows (they opened 0.12 m).
    let mut world = World::default();
    let fixed = anchor(&mut world);
    let mut prev = fixed;
    let y = 106.0;
    let link = Polygon::new_box(0.5, 0.125).unwrap();
    let apart = ShapeDef {
        filter: crate::filter::Filter {
            group: -1,
            ..Default::default()
        },
        ..ShapeDef::default()
    };
    for i in 0..100 {
        let x = 0.5 + i as f32;
        let b = world
            .create_body(&BodyDef::dynamic().at(Vec2::new(x, y)))
            .unwrap();
        world.create_shape(b, link, &apart).unwrap();
        let def = JointDef::new(prev, b, RevoluteJoint::default())
            .at(&world, Vec2::new(x - 0.5, y))
            .unwrap();
        world.create_joint(&def).unwrap();
        prev = b;
    }
    let (mut widest, mut fastest) = (0.0f32, 0.0f32);
    for _ in 0..330 {
        world.step(DT);
        for j in world.joints() {
            widest = widest.max(world.joint_length(j).unwrap());
        }
        fastest = fastest.max(world.linear_velocity(prev).unwrap().length());
    }
    assert!(fastest > 100.0, "no whip: the end reached {fastest} m/s");
    assert!(widest < 0.01, "the chain opened {widest} m");
}

#[test]
fn a_rope_is_slack_when_short_and_holds_at_its_length() {
    let mut world = World::default();
    let fixed = anchor(&mut world);
    // Starts 1 m below the anchor on a 2 m rope: falls freely, then hangs.
    let body = ball(&mut world, Vec2::new(0.0, -1.0), 0.1);
    let j = world
        .create_joint(&JointDef::new(fixed, body, DistanceJoint::rope(2.0)))
        .unwrap();
    for _ in 0..15 {
        world.step(DT);
    }
    let t = 15.0 * DT;
    let y = world.position(body).unwrap().y;
    assert!(
        (y - (-1.0 - 5.0 * t * t)).abs() < 0.01,
        "free fall while slack: {y}"
    );
    for _ in 0..240 {
        world.step(DT);
    }
    let length = world.joint_length(j).unwrap();
    assert!(length < 2.0 + 0.01, "the rope holds: {length}");
    assert!(length > 1.9, "and is taut: {length}");
}

#[test]
fn a_rigid_weld_holds_a_cantilever_and_a_soft_one_bends() {
    let sag = |weld: WeldJoint| {
        let mut world = World::default();
        let fixed = anchor(&mut world);
        let mut prev = fixed;
        for k in 0..5 {
            let x = 0.5 + k as f32;
            let plank = body_with(
                &mut world,
                &BodyDef::dynamic().at(Vec2::new(x, 0.0)),
                Polygon::new_box(0.5, 0.1).unwrap(),
            );
            let def = JointDef::new(prev, plank, weld)
                .at(&world, Vec2::new(x - 0.5, 0.0))
                .unwrap();
            world.create_joint(&def).unwrap();
            prev = plank;
        }
        for _ in 0..240 {
            world.step(DT);
        }
        -world.position(prev).unwrap().y
    };
    // Rigid welds with no loop among them are solved as one rigid body:
    // the beam's tip drops under 1 cm.
    let rigid = sag(WeldJoint::rigid());
    assert!(rigid < 0.01, "a rigid beam of 5 m sags {rigid} m");
    let soft = sag(WeldJoint::soft(2.0, 1.0));
    assert!(
        soft > 4.0 * rigid + 0.05,
        "the soft one bends: {soft} against {rigid}"
    );
}

#[test]
fn a_wheel_joint_car_drives_off_on_its_motor_and_its_suspension_carries_it() {
    let mut world = World::default();
    ground(&mut world);
    let chassis = body_with(
        &mut world,
        &BodyDef::dynamic().at(Vec2::new(0.0, 1.0)),
        Polygon::new_box(1.0, 0.2).unwrap(),
    );
    let up = 0.5 * PI;
    let mut wheels = Vec::new();
    for x in [-0.7f32, 0.7] {
        let wheel = ball(&mut world, Vec2::new(x, 0.4), 0.4);
        let axle = WheelJoint {
            hertz: 4.0,
            ..WheelJoint::default().with_motor(-5.0, 50.0)
        };
        let def = JointDef::new(chassis, wheel, axle)
            .at_frame(&world, Transform::new(Vec2::new(x, 0.4), up))
            .unwrap();
        wheels.push(world.create_joint(&def).unwrap());
    }
    for _ in 0..180 {
        world.step(DT);
    }
    let p = world.position(chassis).unwrap();
    assert!(p.x > 2.0, "it drove to the right: {p}");
    assert!(p.y > 0.6 && p.y < 1.2, "on its wheels: {p}");
    assert!(world.angle(chassis).unwrap().abs() < 0.1);
    for &j in &wheels {
        let axle = world.joint_world_frames(j).unwrap();
        let off_axis = (axle.1.p - axle.0.p).dot(axle.0.q.x_axis().perp());
        assert!(off_axis.abs() < 1e-3, "the wheel stays on its strut: {off_axis}");
    }
}

#[test]
fn a_motor_joint_drags_a_body_to_its_target_and_follows_it() {
    let mut world = World::default();
    let fixed = anchor(&mut world);
    let body = unit_box(&mut world, Vec2::ZERO);
    let mass = world.mass_data(body).unwrap().mass;
    let drag = MotorJoint::drag(5.0, 0.7, 1000.0 * mass * 10.0);
    let j = world.create_joint(&JointDef::new(fixed, body, drag)).unwrap();
    let target = Vec2::new(2.0, 3.0);
    world
        .set_joint_frames(j, Transform::new(target, 0.0), Transform::IDENTITY)
        .unwrap();
    for _ in 0..180 {
        world.step(DT);
    }
    // A spring of angular frequency omega holding a weight hangs g /
    // omega^2 below its target.
    let omega = 2.0 * PI * 5.0;
    let rest = target - Vec2::new(0.0, 10.0 / (omega * omega));
    let p = world.position(body).unwrap();
    assert!((p - rest).length() < 1e-3, "dragged to {p}, rests at {rest}");
    assert!(world.linear_velocity(body).unwrap().length() < 1e-3);
}

#[test]
fn bad_joint_input_is_named_and_leaves_the_world_unchanged() {
    let mut world = World::default();
    let a = unit_box(&mut world, Vec2::ZERO);
    let b = unit_box(&mut world, Vec2::new(2.0, 0.0));
    let gone = unit_box(&mut world, Vec2::new(4.0, 0.0));
    world.remove_body(gone).unwrap();
    let hinge = RevoluteJoint::default();
    let cases: Vec<(JointDef, JointError)> = vec![
        (JointDef::new(a, a, hinge), JointError::SameBody),
        (JointDef::new(a, gone, hinge), JointError::StaleBody),
        (
            JointDef::new(a, b, hinge).with_local_anchors(Vec2::new(f32::NAN, 0.0), Vec2::ZERO),
            JointError::NonFinite("frame a"),
        ),
        (
            JointDef::new(a, b, hinge.with_limits(0.5, -0.5)),
            JointError::InvertedLimits("angle limits"),
        ),
        (
            JointDef::new(a, b, hinge.with_motor(1.0, -1.0)),
            JointError::Negative("max motor torque"),
        ),
        (
            JointDef::new(a, b, hinge.with_spring(-1.0, 0.5, 0.0)),
            JointError::Negative("spring hertz"),
        ),
        (
            JointDef::new(a, b, DistanceJoint::spring(1.0, 2.0, -0.1)),
            JointError::Negative("spring damping ratio"),
        ),
        (
            JointDef::new(a, b, DistanceJoint::rod(f32::INFINITY)),
            JointError::NonFinite("length"),
        ),
        (
            JointDef::new(a, b, DistanceJoint::rod(0.0)),
            JointError::OutOfRange("length (must be positive)"),
        ),
        (
            JointDef::new(a, b, PrismaticJoint::default().with_limits(1.0, 0.0)),
            JointError::InvertedLimits("translation limits"),
        ),
        (
            JointDef::new(
                a,
                b,
                MotorJoint {
                    max_force: -1.0,
                    ..MotorJoint::default()
                },
            ),
            JointError::Negative("max force"),
        ),
        (
            JointDef::new(
                a,
                b,
                WeldJoint {
                    angular_hertz: f32::NAN,
                    ..WeldJoint::default()
                },
            ),
            JointError::NonFinite("angular hertz"),
        ),
    ];
    let before = (
        world.joint_count(),
        world.contact_count(),
        world.transform(a).unwrap(),
    );
    for (def, expected) in cases {
        assert_eq!(world.create_joint(&def), Err(expected), "{def:?}");
        assert_eq!(
            (
                world.joint_count(),
                world.contact_count(),
                world.transform(a).unwrap()
            ),
            before
        );
        assert!(!expected.to_string().is_empty());
    }
    // Changes are checked the same way, and a kind cannot change.
    let j = world.create_joint(&JointDef::new(a, b, hinge)).unwrap();
    assert_eq!(
        world.set_joint_kind(j, hinge.with_limits(1.0, 0.0)),
        Err(JointError::InvertedLimits("angle limits"))
    );
    assert!(matches!(
        world.set_joint_kind(j, WeldJoint::rigid()),
        Err(JointError::WrongKind(_))
    ));
    assert_eq!(world.joint_kind(j).unwrap(), JointKind::Revolute(hinge));
    world.remove_joint(j).unwrap();
    assert_eq!(world.remove_joint(j), Err(JointError::StaleHandle));
    assert_eq!(world.joint_angle(j), Err(JointError::StaleHandle));
    assert_eq!(world.joint_count(), 0);
}

#[test]
fn jointed_bodies_do_not_collide_unless_asked_and_do_again_once_the_joint_goes() {
    let overlapping = |collide: bool| {
        let mut world = zero_gravity();
        let a = unit_box(&mut world, Vec2::ZERO);
        let b = unit_box(&mut world, Vec2::new(0.5, 0.0));
        world.step(DT);
        assert_eq!(world.contact_count(), 1);
        let mut def = JointDef::new(a, b, JointKind::Filter);
        def.collide_connected = collide;
        let j = world.create_joint(&def).unwrap();
        world.step(DT);
        (world, j)
    };
    let (mut world, j) = overlapping(false);
    assert_eq!(world.contact_count(), 0, "the joint stops them colliding");
    for _ in 0..10 {
        world.step(DT);
    }
    assert_eq!(world.contact_count(), 0);
    world.remove_joint(j).unwrap();
    world.step(DT);
    assert_eq!(world.contact_count(), 1, "found again once the joint is gone");
    let (world, _) = overlapping(true);
    assert_eq!(world.contact_count(), 1, "collide_connected keeps the contact");
}

#[test]
fn a_jointed_pair_sleeps_and_wakes_together_and_removing_the_joint_wakes_both() {
    let mut world = World::default();
    ground(&mut world);
    let a = unit_box(&mut world, Vec2::new(-3.0, 0.5));
    let b = unit_box(&mut world, Vec2::new(3.0, 0.5));
    // A long rod between two boxes resting apart: one island.
    let rod = JointDef::new(a, b, DistanceJoint::rod(6.0));
    let j = world.create_joint(&rod).unwrap();
    for _ in 0..120 {
        world.step(DT);
    }
    assert!(!world.is_awake(a).unwrap() && !world.is_awake(b).unwrap());
    world.wake(a).unwrap();
    assert!(world.is_awake(b).unwrap(), "waking one wakes the other");
    for _ in 0..120 {
        world.step(DT);
    }
    assert!(!world.is_awake(b).unwrap());
    world.remove_joint(j).unwrap();
    assert!(world.is_awake(a).unwrap() && world.is_awake(b).unwrap());
    // Apart now: each sleeps on its own, and waking one leaves the other.
    for _ in 0..120 {
        world.step(DT);
    }
    world.wake(a).unwrap();
    assert!(
        !world.is_awake(b).unwrap(),
        "the islands split once the joint went"
    );
}

#[test]
fn removing_a_body_removes_its_joints_and_wakes_what_they_held() {
    let mut world = World::default();
    let fixed = anchor(&mut world);
    let a = ball(&mut world, Vec2::new(0.0, -1.0), 0.1);
    let b = ball(&mut world, Vec2::new(0.0, -2.0), 0.1);
    let top = world
        .create_joint(&JointDef::new(fixed, a, DistanceJoint::rod(1.0)))
        .unwrap();
    let bottom = world
        .create_joint(&JointDef::new(a, b, DistanceJoint::rod(1.0)))
        .unwrap();
    assert_eq!(world.body_joints(a).unwrap().len(), 2);
    world.remove_body(a).unwrap();
    assert_eq!(world.joint_count(), 0);
    assert!(!world.contains_joint(top) && !world.contains_joint(bottom));
    assert!(world.body_joints(fixed).unwrap().is_empty());
    // What hung from it falls.
    world.step(DT);
    assert!(world.linear_velocity(b).unwrap().y < 0.0);
}

#[test]
fn a_joint_keeps_holding_across_a_body_type_change() {
    let mut world = World::default();
    let post = ball(&mut world, Vec2::ZERO, 0.1);
    let bob = ball(&mut world, Vec2::new(1.0, 0.0), 0.1);
    let j = world
        .create_joint(&JointDef::new(post, bob, DistanceJoint::rod(1.0)))
        .unwrap();
    world.set_body_type(post, crate::BodyType::Static).unwrap();
    for _ in 0..120 {
        world.step(DT);
    }
    assert!((world.joint_length(j).unwrap() - 1.0).abs() < 0.01);
    assert!(world.position(post).unwrap().length() < 1e-6);
    assert!(world.position(bob).unwrap().y < -0.5, "it swung down");
    // Dynamic again: the pair falls together, in one island.
    world.set_body_type(post, crate::BodyType::Dynamic).unwrap();
    for _ in 0..30 {
        world.step(DT);
    }
    assert!((world.joint_length(j).unwrap() - 1.0).abs() < 0.01);
    let island = |b: BodyId| world.bodies[b.index()].island;
    assert_eq!(island(post), island(bob));
}

#[test]
fn a_pendulum_from_a_kinematic_body_follows_it() {
    let mut world = World::default();
    let carrier = world
        .create_body(&BodyDef::kinematic().with_velocity(Vec2::new(1.0, 0.0)))
        .unwrap();
    let bob = ball(&mut world, Vec2::new(0.0, -1.0), 0.1);
    world
        .create_joint(&JointDef::new(carrier, bob, DistanceJoint::rod(1.0)))
        .unwrap();
    for _ in 0..600 {
        world.step(DT);
    }
    let (c, b) = (world.position(carrier).unwrap(), world.position(bob).unwrap());
    assert!((c.x - 10.0).abs() < 1e-3);
    assert!(
        ((b - c).length() - 1.0).abs() < 0.01,
        "still 1 m from it: {}",
        (b - c).length()
    );
}

/// Steps `world` until joint `j`'s frames meet, checking every step that
/// no body moves faster than `most`; returns the steps it took (or
/// `limit`, if they never met).
fn close_gap(world: &mut World, j: JointId, most: f32, limit: u32) -> u32 {
    for k in 1..=limit {
        world.step(DT);
        for b in world.bodies() {
            let v = world.linear_velocity(b).unwrap().length();
            assert!(v <= most, "step {k}: {b:?} at {v} m/s, faster than {most}");
        }
        let (fa, fb) = world.joint_world_frames(j).unwrap();
        if (fa.p - fb.p).length() < 0.01 {
            return k;
        }
    }
    limit
}

#[test]
fn a_jointed_body_teleported_away_is_pulled_back_at_a_bounded_speed() {
    // A ball on a hinge, on a rigid weld, and on a hinge below a light
    // link (a mass ratio of 100: the tree's exact solve), each teleported
    // 100 m from its joint. The drift correction pulls each back no faster
    // than MAX_JOINT_PUSH_SPEED (the ball turns about the frame, half a
    // metre off its center, so its center may move a little faster); at
    // the soft step's rate alone it would be 60 to 70 times the gap, the
    // engine's speed limit. The gap closes all the same, within a few
    // times 100 m / MAX_JOINT_PUSH_SPEED.
    let push = crate::settings::MAX_JOINT_PUSH_SPEED;
    let closing = (100.0 / push / DT) as u32;
    for case in 0..3 {
        let mut world = zero_gravity();
        let base = anchor(&mut world);
        let holder = if case == 2 {
            let link = ball(&mut world, Vec2::new(0.5, 0.0), 0.1);
            let def = JointDef::new(base, link, RevoluteJoint::default())
                .at(&world, Vec2::ZERO)
                .unwrap();
            world.create_joint(&def).unwrap();
            link
        } else {
            base
        };
        let start = if case == 2 { 1.5 } else { 1.0 };
        let bob = ball(&mut world, Vec2::new(start, 0.0), 0.5);
        let kind: JointKind = match case {
            1 => WeldJoint::rigid().into(),
            _ => RevoluteJoint::default().into(),
        };
        let def = JointDef::new(holder, bob, kind)
            .at(&world, Vec2::new(start - 0.5, 0.0))
            .unwrap();
        let j = world.create_joint(&def).unwrap();
        world.set_transform(bob, Vec2::new(start, 100.0), 0.0).unwrap();
        // The ball below the light link swings about it as it is pulled
        // in (the link turns, the ball orbits): it takes longer, within
        // twenty seconds.
        let limit = if case == 2 {
            (20.0 / DT) as u32
        } else {
            4 * closing
        };
        let took = close_gap(&mut world, j, 2.0 * push, limit);
        assert!(took < limit, "case {case}: the gap is still open");
        assert!(
            took > closing / 2,
            "case {case}: closed in {took} steps, too fast"
        );
    }
}

/// How far joint `j` of `world` is from holding: a slider's frame B off
/// frame A's axis line and past its limits, a rod's length off its own.
fn violation(world: &World, j: JointId) -> f32 {
    let (fa, fb) = world.joint_world_frames(j).unwrap();
    let d = fb.p - fa.p;
    let axis = fa.q.x_axis();
    let offset = crate::math::left_perp(axis).dot(d).abs();
    match world.joint_kind(j).unwrap() {
        JointKind::Prismatic(p) => {
            let along = axis.dot(d);
            let past = (p.lower_translation - along)
                .max(along - p.upper_translation)
                .max(0.0);
            offset.max(past)
        }
        JointKind::Wheel(_) => offset,
        JointKind::Distance(r) => (world.joint_length(j).unwrap() - r.length).abs(),
        other => panic!("no violation measured for {other:?}"),
    }
}

#[test]
fn a_slider_or_rod_teleported_away_is_pulled_back_at_a_bounded_speed() {
    // A ball on a slider with limits, on a wheel (no spring: only its
    // line holds), and on a rod, from a fixed anchor, each teleported
    // 40 m off its joint, along the slider's axis and across it. Their
    // drift corrections (the slider's line and limits, the wheel's line,
    // the rod's length) pull it back no faster than
    // MAX_JOINT_PUSH_SPEED, as the hinge's point does; at the soft
    // step's rate alone the ball would leave at the engine's speed limit
    // and, with the anchor's arm 40 m long, the relax pass would keep
    // part of that speed. The gap closes all the same, within a few times
    // 40 m / MAX_JOINT_PUSH_SPEED.
    let push = crate::settings::MAX_JOINT_PUSH_SPEED;
    let closing = (40.0 / push / DT) as u32;
    let kinds: [JointKind; 3] = [
        PrismaticJoint::default().with_limits(-1.0, 1.0).into(),
        WheelJoint {
            enable_spring: false,
            ..WheelJoint::default()
        }
        .into(),
        DistanceJoint::rod(1.0).into(),
    ];
    for kind in kinds {
        for away in [Vec2::new(40.0, 0.0), Vec2::new(1.0, 40.0)] {
            let mut world = zero_gravity();
            let base = anchor(&mut world);
            let bob = ball(&mut world, Vec2::new(1.0, 0.0), 0.5);
            let def = JointDef::new(base, bob, kind);
            let def = match kind {
                JointKind::Distance(_) => def.with_world_anchors(&world, Vec2::ZERO, Vec2::new(1.0, 0.0)),
                _ => def.at(&world, Vec2::new(0.5, 0.0)),
            };
            let j = world.create_joint(&def.unwrap()).unwrap();
            world.set_transform(bob, away, 0.0).unwrap();
            if violation(&world, j) < 1.0 {
                // (Along the wheel's axis, the wheel holds already.)
                continue;
            }
            let mut took = None;
            for k in 1..=4 * closing {
                world.step(DT);
                let v = world.linear_velocity(bob).unwrap().length();
                assert!(
                    v <= 2.0 * push,
                    "{kind:?} from {away}: step {k} at {v} m/s, faster than {}",
                    2.0 * push
                );
                if took.is_none() && violation(&world, j) < 0.01 {
                    took = Some(k);
                }
            }
            let took = took.unwrap_or_else(|| panic!("{kind:?} from {away}: the gap is still open"));
            assert!(
                took > closing / 2,
                "{kind:?} from {away}: closed in {took} steps, too fast"
            );
        }
    }
}

/// Every body's state and every contact's impulses are finite.
fn all_finite(world: &World) -> bool {
    world.bodies().all(|b| {
        world.transform(b).unwrap().p.is_finite()
            && world.linear_velocity(b).unwrap().is_finite()
            && world.angular_velocity(b).unwrap().is_finite()
    }) && world.contacts().all(|c| {
        c.manifold
            .points()
            .iter()
            .all(|p| p.normal_impulse.is_finite() && p.tangent_impulse.is_finite())
    })
}

#[test]
fn springs_stiff_or_damped_to_the_top_of_the_f32_range_act_rigid_not_nan() {
    // A motor joint of 3.4e38 Hz on a box resting on the ground made its
    // soft coefficients infinity times zero: NaN impulses on the next step.
    let extremes = [(3.4e38, 0.2), (1e30, 1.0), (5.0, 3.4e38), (f32::MAX, f32::MAX)];
    for (hertz, zeta) in extremes {
        let kinds: [JointKind; 3] = [
            MotorJoint {
                max_force: 10.0,
                max_torque: 10.0,
                linear_hertz: hertz,
                linear_damping_ratio: zeta,
                angular_hertz: hertz,
                angular_damping_ratio: zeta,
                ..MotorJoint::default()
            }
            .into(),
            WeldJoint {
                linear_hertz: hertz,
                linear_damping_ratio: zeta,
                angular_hertz: hertz,
                angular_damping_ratio: zeta,
            }
            .into(),
            RevoluteJoint {
                enable_spring: true,
                hertz,
                damping_ratio: zeta,
                target_angle: 0.5,
                ..RevoluteJoint::default()
            }
            .into(),
        ];
        for kind in kinds {
            let mut world = World::default();
            let g = ground(&mut world);
            let b = unit_box(&mut world, Vec2::new(0.0, 0.5));
            let def = JointDef::new(g, b, kind).at(&world, Vec2::new(0.3, 0.5)).unwrap();
            world.create_joint(&def).unwrap();
            for _ in 0..30 {
                world.step(DT);
            }
            assert!(all_finite(&world), "{kind:?}");
            assert!(world.frozen_bodies().is_empty(), "{kind:?}");
        }
    }
    // The contacts' own softness, set to the top of its range.
    let mut world = World::default();
    ground(&mut world);
    unit_box(&mut world, Vec2::new(0.0, 0.45));
    let stiff = crate::settings::SolverSettings {
        contact_hertz: f32::MAX,
        contact_damping_ratio: f32::MAX,
        ..*world.solver_settings()
    };
    world.set_solver_settings(stiff).unwrap();
    for _ in 0..30 {
        world.step(DT);
    }
    assert!(all_finite(&world));
}

/// A joint between two bodies neither of which is dynamic could move
/// nothing: it is refused, and the world is left as it was. One dynamic
/// body is enough.
#[test]
fn a_joint_needs_a_dynamic_body() {
    use crate::world::reliability_tests::state_bytes;
    let mut world = World::default();
    let (s1, s2) = (anchor(&mut world), anchor(&mut world));
    let k = world.create_body(&BodyDef::kinematic()).unwrap();
    let k2 = world.create_body(&BodyDef::kinematic()).unwrap();
    let d = ball(&mut world, Vec2::new(1.0, 0.0), 0.2);
    world.step(DT);
    let before = state_bytes(&world);
    for (a, b) in [(s1, s2), (s1, k), (k, k2), (k2, s2)] {
        for kind in [
            JointKind::from(RevoluteJoint::default()),
            JointKind::from(WeldJoint::default()),
            JointKind::Filter,
        ] {
            let def = JointDef::new(a, b, kind);
            assert_eq!(world.create_joint(&def), Err(JointError::NoDynamicBody));
        }
    }
    assert_eq!(world.joint_count(), 0);
    assert_eq!(state_bytes(&world), before);
    assert!(JointError::NoDynamicBody.to_string().contains("dynamic"));
    for other in [s1, k] {
        let def = JointDef::new(other, d, RevoluteJoint::default());
        assert!(world.create_joint(&def).is_ok());
    }
}

/// A motor speed given to a joint whose motor is off would do nothing:
/// refused, the joint unchanged; set with the motor on, or through
/// `set_joint_kind` with it, it takes.
#[test]
fn a_motor_speed_needs_the_motor_on() {
    let mut world = World::default();
    let ground = anchor(&mut world);
    let wheel = ball(&mut world, Vec2::new(0.0, 0.0), 0.5);
    let off = world
        .create_joint(&JointDef::new(ground, wheel, RevoluteJoint::default()))
        .unwrap();
    let kind = world.joint_kind(off).unwrap();
    assert_eq!(world.set_motor_speed(off, 3.0), Err(JointError::MotorOff));
    assert_eq!(world.joint_kind(off).unwrap(), kind);
    assert!(JointError::MotorOff.to_string().contains("motor is off"));
    world
        .set_joint_kind(off, RevoluteJoint::default().with_motor(3.0, 10.0))
        .unwrap();
    assert_eq!(world.set_motor_speed(off, -2.0), Ok(()));
    let JointKind::Revolute(r) = world.joint_kind(off).unwrap() else {
        panic!("a revolute joint")
    };
    assert_eq!((r.enable_motor, r.motor_speed), (true, -2.0));
    let bob = ball(&mut world, Vec2::X, 0.2);
    let weld = world
        .create_joint(&JointDef::new(ground, bob, WeldJoint::default()))
        .unwrap();
    assert_eq!(
        world.set_motor_speed(weld, 1.0),
        Err(JointError::WrongKind("motor speed"))
    );
}

/// The kinetic energy of the world's bodies.
fn kinetic_energy(world: &World) -> f32 {
    world
        .bodies()
        .map(|b| {
            let (v, w) = (
                world.linear_velocity(b).unwrap(),
                world.angular_velocity(b).unwrap(),
            );
            let md = world.mass_data(b).unwrap();
            0.5 * md.mass * v.length_squared() + 0.5 * md.inertia * w * w
        })
        .sum()
}

/// A chain of ten light capsule links (0.5 m long) hanging from a static
/// anchor in zero gravity, link `link` joined by `kind` to a box `far`
/// metres away in direction `angle`, the joint placed at their midpoint
/// (so each anchor is `far / 2` from its body): a joint made between two
/// bodies anywhere in a world. Returns the world and the box.
fn chain_with_a_far_joint(kind: JointKind, link: usize, far: f32, angle: f32) -> (World, BodyId) {
    let mut world = zero_gravity();
    let mut above = anchor(&mut world);
    let mut links = Vec::new();
    for k in 0..10 {
        let top = -0.5 * k as f32;
        let capsule = Capsule::new(Vec2::new(0.0, -0.25), Vec2::new(0.0, 0.25), 0.1).unwrap();
        let l = body_with(
            &mut world,
            &BodyDef::dynamic().at(Vec2::new(0.0, top - 0.25)),
            capsule,
        );
        let hinge = JointDef::new(above, l, RevoluteJoint::default())
            .at(&world, Vec2::new(0.0, top))
            .unwrap();
        world.create_joint(&hinge).unwrap();
        links.push(l);
        above = l;
    }
    let pa = world.position(links[link]).unwrap();
    let along = Vec2::new(angle.cos(), angle.sin());
    let pb = pa + far * along;
    let far_box = body_with(
        &mut world,
        &BodyDef::dynamic().at(pb),
        Polygon::new_box(0.2, 0.3).unwrap(),
    );
    let frame = Transform::new(0.5 * (pa + pb), angle);
    let def = JointDef::new(links[link], far_box, kind)
        .at_frame(&world, frame)
        .unwrap();
    world.create_joint(&def).unwrap();
    (world, far_box)
}

#[test]
fn a_joint_with_arms_of_56_m_on_a_light_chain_link_adds_no_energy() {
    // With no gravity and no forces, joints and contacts can only take
    // kinetic energy away (the drift correction adds a little at most):
    // the box is thrown, and the world may never hold more than it was
    // given. Long arms on light bodies are where the solve converges
    // least: a stored impulse applied again once the arms have turned, or
    // a spin that moves an anchor 56 m out faster than any body may move,
    // fed energy in, and the world blew up.
    let kinds: [(&str, JointKind); 4] = [
        ("rigid weld", WeldJoint::rigid().into()),
        ("hinge", RevoluteJoint::default().into()),
        ("slider", PrismaticJoint::default().with_limits(-1.0, 1.0).into()),
        (
            "motor",
            MotorJoint {
                max_force: 50.0,
                max_torque: 10.0,
                ..MotorJoint::default()
            }
            .into(),
        ),
    ];
    for (name, kind) in kinds {
        for case in 0..8 {
            let angle = 0.3 + case as f32;
            let (mut world, far_box) = chain_with_a_far_joint(kind, case % 10, 112.0, angle);
            let throw = 0.9 * case as f32;
            world
                .set_linear_velocity(far_box, 30.0 * Vec2::new(throw.cos(), throw.sin()))
                .unwrap();
            let given = kinetic_energy(&world);
            for step in 0..600 {
                world.step(DT);
                let held = kinetic_energy(&world);
                assert!(
                    held <= 1.01 * given && world.frozen_bodies().is_empty(),
                    "{name}, case {case}, step {step}: {held} J held of {given} J given, {} frozen",
                    world.frozen_bodies().len()
                );
            }
        }
    }
}

/// A leg of 0.07 kg (0.13 m by 0.53 m) hinged at its top end to a square
/// hull of half-width `hull_half` centered on the origin, by `hinge` at
/// the origin, in zero gravity: the world, the hull, the leg, the hinge.
fn leg_on_a_hull(hull_half: f32, hinge: RevoluteJoint) -> (World, BodyId, BodyId, JointId) {
    let mut world = zero_gravity();
    let hull = body_with(
        &mut world,
        &BodyDef::dynamic().at(Vec2::ZERO),
        Polygon::new_box(hull_half, hull_half).unwrap(),
    );
    let leg = body_with(
        &mut world,
        &BodyDef::dynamic().at(Vec2::new(0.67, -0.6)),
        Polygon::new_box(0.066, 0.266).unwrap(),
    );
    let j = world
        .create_joint(&JointDef::new(hull, leg, hinge).at(&world, Vec2::ZERO).unwrap())
        .unwrap();
    (world, hull, leg, j)
}

#[test]
fn a_limited_motor_turns_a_light_limb_of_a_heavy_body_at_its_speed() {
    // A 0.07 kg leg hinged at its end to a 5 kg hull (an exactly solved
    // tree: the mass ratio is 70), with limits wide of it and a motor at
    // 0.3 rad/s of 40 N m, in zero gravity: the motor turns the leg about
    // the hinge at its speed from the first step, the hinge shut. (Turned
    // about its own center, the leg's inertia is a thirtieth of what it
    // has about the hinge: the motor row pushed a fraction of what it
    // needed, the point's solve took most of that back, and the leg
    // turned at 0.14 rad/s in the first step.)
    let hinge = RevoluteJoint::default()
        .with_motor(0.3, 40.0)
        .with_limits(-0.5, 0.5);
    let (mut world, hull, leg, j) = leg_on_a_hull(1.12, hinge);
    let leg_mass = world.mass_data(leg).unwrap().mass;
    let hull_mass = world.mass_data(hull).unwrap().mass;
    assert!(hull_mass / leg_mass > 10.0, "{hull_mass} on {leg_mass}");
    for step in 0..20 {
        world.step(DT);
        let spin = world.angular_velocity(leg).unwrap() - world.angular_velocity(hull).unwrap();
        assert!(
            (spin - 0.3).abs() < 1e-3,
            "step {step}: the leg turns at {spin} rad/s"
        );
        assert!(
            world.joint_length(j).unwrap() < 1e-4,
            "step {step}: the hinge opened"
        );
    }
    // Momentum: nothing but the joint acts, so the pair's angular momentum
    // about any point stays zero.
    let momentum = |b: BodyId| {
        let m = world.mass_data(b).unwrap();
        let c = world.center_of_mass(b).unwrap();
        m.mass * c.perp_dot(world.linear_velocity(b).unwrap())
            + m.inertia * world.angular_velocity(b).unwrap()
    };
    assert!((momentum(hull) + momentum(leg)).abs() < 1e-4);
}

#[test]
fn a_hinge_spring_on_a_light_limb_of_a_heavy_body_swings_at_its_frequency() {
    // A 0.07 kg leg hinged at its end to a 500 kg hull (an exactly solved
    // tree), a 1 Hz spring with no damping pulling it to angle zero, in
    // zero gravity, let go 0.3 rad off: the hull barely moves, so the leg
    // swings about the hinge at the spring's frequency, its inertia about
    // the hinge being what the spring's stiffness is reckoned from. (From
    // the leg's inertia about its own center, thirty times less, the
    // spring was thirty times too soft and swung in 5.8 s.)
    let hinge = RevoluteJoint::default().with_spring(1.0, 0.0, 0.0);
    let (mut world, _, leg, j) = leg_on_a_hull(11.2, hinge);
    // Turn the leg 0.3 rad about the hinge.
    let turn = Rot::from_angle(0.3);
    let at = turn.rotate(Vec2::new(0.67, -0.6));
    world.set_transform(leg, at, 0.3).unwrap();
    assert!((world.joint_angle(j).unwrap() - 0.3).abs() < 1e-5);
    // The time between the angle's first two upward zero crossings.
    let mut last = world.joint_angle(j).unwrap();
    let mut crossings = Vec::new();
    for step in 1..=600 {
        world.step(DT);
        let angle = world.joint_angle(j).unwrap();
        if last < 0.0 && angle >= 0.0 {
            crossings.push(step as f32 * DT);
        }
        last = angle;
    }
    assert!(crossings.len() >= 2, "it swung {} times", crossings.len());
    let period = crossings[1] - crossings[0];
    assert!((period - 1.0).abs() < 0.05, "period {period} s");
}

/// Eight triangles of three balls welded rigidly to each other (each a
/// loop of welds, closed in the exact solve), spun in zero gravity at
/// 3 rad/s about their centers as rigid bodies: after two seconds each is
/// still the same triangle (its sides within 1 mm), its welds shut, and
/// its angular momentum about its center of mass as it was (1%).
#[test]
fn welded_triangles_spun_in_zero_gravity_turn_as_rigid_bodies() {
    let mut world = zero_gravity();
    let spin = 3.0;
    let corners = [Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(1.0, 1.5)];
    let mut triangles = Vec::new();
    for t in 0..8 {
        let origin = Vec2::new(6.0 * t as f32, 0.0);
        let center = origin + (corners[0] + corners[1] + corners[2]) / 3.0;
        let balls: Vec<BodyId> = corners
            .iter()
            .map(|&c| ball(&mut world, origin + c, 0.2))
            .collect();
        for (k, &b) in balls.iter().enumerate() {
            let r = world.position(b).unwrap() - center;
            world.set_linear_velocity(b, spin * r.perp()).unwrap();
            world.set_angular_velocity(b, spin).unwrap();
            let (a, c) = (b, balls[(k + 1) % 3]);
            let at = (world.position(a).unwrap() + world.position(c).unwrap()) * 0.5;
            let joint = JointDef::new(a, c, WeldJoint::rigid()).at(&world, at).unwrap();
            world.create_joint(&joint).unwrap();
        }
        triangles.push(balls);
    }
    // (Each ball's momentum about the triangle's center of mass, and its
    // own spin's.)
    let momentum = |world: &World, balls: &[BodyId]| {
        let mass: f32 = balls.iter().map(|&b| world.mass_data(b).unwrap().mass).sum();
        let center = balls
            .iter()
            .map(|&b| world.position(b).unwrap() * world.mass_data(b).unwrap().mass)
            .fold(Vec2::ZERO, |s, p| s + p)
            / mass;
        balls
            .iter()
            .map(|&b| {
                let (m, r) = (
                    world.mass_data(b).unwrap().mass,
                    world.position(b).unwrap() - center,
                );
                m * r.perp_dot(world.linear_velocity(b).unwrap())
                    + world.mass_data(b).unwrap().inertia * world.angular_velocity(b).unwrap()
            })
            .sum::<f32>()
    };
    let sides = |world: &World, balls: &[BodyId]| {
        [0, 1, 2].map(|k| {
            (world.position(balls[k]).unwrap() - world.position(balls[(k + 1) % 3]).unwrap()).length()
        })
    };
    let before: Vec<(f32, [f32; 3])> = triangles
        .iter()
        .map(|b| (momentum(&world, b), sides(&world, b)))
        .collect();
    for _ in 0..120 {
        world.step(DT);
    }
    for (balls, (l0, s0)) in triangles.iter().zip(before) {
        let (l1, s1) = (momentum(&world, balls), sides(&world, balls));
        assert!((l1 / l0 - 1.0).abs() < 0.01, "angular momentum {l0} -> {l1}");
        for (a, b) in s0.iter().zip(s1) {
            assert!((a - b).abs() < 1e-3, "a side {a} -> {b}");
        }
    }
    for j in world.joints().collect::<Vec<_>>() {
        assert!(world.joint_length(j).unwrap() < 1e-3, "a weld opened");
    }
}
