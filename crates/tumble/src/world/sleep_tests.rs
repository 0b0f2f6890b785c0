//! Islands and sleeping: when islands form, split, sleep and wake, what a
//! sleeping body costs, and the wake rules, one test each.

use super::tests::{body_with, ground, unit_box, zero_gravity, DT};
use super::*;
use crate::body::{BodyDef, BodyType};
use crate::debug_draw::{Color, DebugDraw, DrawOptions};
use crate::error::BodyError;
use crate::math::Vec2;
use crate::settings::{WorldSettings, TIME_TO_SLEEP};
use crate::shapes::ShapeDef;
use crate::shapes::{Circle, Polygon};

/// Steps until `body` is asleep; returns the steps taken, or panics after
/// `limit`.
fn steps_until_asleep(world: &mut World, body: BodyId, limit: u32) -> u32 {
    for k in 1..=limit {
        world.step(DT);
        if !world.is_awake(body).unwrap() {
            return k;
        }
    }
    panic!("{body:?} still awake after {limit} steps");
}

/// The world, one box resting on the ground, asleep.
fn sleeping_box() -> (World, BodyId) {
    let mut world = World::default();
    ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 0.5));
    steps_until_asleep(&mut world, b, 120);
    (world, b)
}

#[test]
fn a_resting_box_falls_asleep_after_the_sleep_time_and_then_costs_nothing() {
    let (mut world, b) = sleeping_box();
    assert_eq!(world.awake_body_count(), 0);
    assert_eq!(world.contact_count(), 1, "its contact is kept while it sleeps");
    assert_eq!(world.linear_velocity(b).unwrap(), Vec2::ZERO);
    // Resting from the start: asleep once the timer passes the sleep time.
    let xf = world.transform(b).unwrap();
    let edges = world.scratch.edge_visits;
    for _ in 0..100 {
        world.step(DT);
    }
    assert_eq!(world.transform(b).unwrap(), xf, "a sleeping body does not move");
    assert_eq!(
        world.recycled_contact_count(),
        0,
        "its contact is not even looked at"
    );
    assert_eq!(world.scratch.edge_visits, edges);
    assert_eq!(
        world.solver.moved().len(),
        0,
        "nothing was gathered for the solver"
    );
}

#[test]
fn a_resting_box_sleeps_once_its_timer_passes_half_a_second() {
    let mut world = World::default();
    ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 0.5));
    let steps = steps_until_asleep(&mut world, b, 120);
    let expected = (TIME_TO_SLEEP / DT).ceil() as u32;
    assert!(
        (expected..=expected + 2).contains(&steps),
        "asleep after {steps} steps, expected about {expected}"
    );
}

#[test]
fn a_ball_thrown_up_is_awake_at_its_apex_and_sleeps_only_after_landing() {
    let mut world = World::default();
    ground(&mut world);
    let ball = body_with(
        &mut world,
        &BodyDef::dynamic()
            .at(Vec2::new(0.0, 0.5))
            .with_velocity(Vec2::new(0.0, 10.0)),
        Circle::new(Vec2::ZERO, 0.5).unwrap(),
    );
    let mut apex = 0.0f32;
    let mut asleep_at = None;
    for k in 0..600 {
        world.step(DT);
        let y = world.position(ball).unwrap().y;
        let vy = world.linear_velocity(ball).unwrap().y;
        apex = apex.max(y);
        if vy.abs() < 0.2 && y > 4.0 {
            assert!(world.is_awake(ball).unwrap(), "asleep in the air at y = {y}");
        }
        if !world.is_awake(ball).unwrap() {
            asleep_at = Some((k, y));
            break;
        }
    }
    // v^2 / 2g = 5 m above the start.
    assert!((apex - 5.5).abs() < 0.1, "apex {apex}");
    let (k, y) = asleep_at.expect("the ball sleeps on the ground");
    assert!((y - 0.5).abs() < 0.01, "it sleeps on the ground, not at y = {y}");
    // Up and down takes 2 s (less the speculative catch), then half a
    // second at rest.
    let steps = (k + 1) as f32;
    assert!(
        steps * DT > 2.0 + TIME_TO_SLEEP - 2.0 * DT,
        "asleep after {steps} steps"
    );
}

#[test]
fn a_sleeping_body_is_drawn_grey() {
    struct Colors(Vec<Color>);
    impl DebugDraw for Colors {
        fn draw_polygon(&mut self, _: &[Vec2], _: f32, color: Color) {
            self.0.push(color);
        }
        fn draw_circle(&mut self, _: Vec2, _: f32, _: Vec2, _: Color) {}
        fn draw_capsule(&mut self, _: Vec2, _: Vec2, _: f32, _: Color) {}
        fn draw_segment(&mut self, _: Vec2, _: Vec2, _: Color) {}
        fn draw_point(&mut self, _: Vec2, _: f32, _: Color) {}
    }
    let (world, _) = sleeping_box();
    let mut colors = Colors(Vec::new());
    world.debug_draw(&mut colors, &DrawOptions::default());
    assert_eq!(colors.0, [Color::STATIC, Color::SLEEPING]);
}

#[test]
fn a_box_landing_on_a_sleeping_one_wakes_it() {
    let (mut world, b) = sleeping_box();
    let rest = world.position(b).unwrap();
    let falling = unit_box(&mut world, Vec2::new(0.2, 3.0));
    assert!(!world.is_awake(b).unwrap(), "nothing woke it yet");
    let mut woke = None;
    for k in 0..60 {
        world.step(DT);
        if world.is_awake(b).unwrap() {
            woke = Some(k);
            break;
        }
    }
    let k = woke.expect("the landing box woke the sleeping one");
    // It wakes when their contact begins: within the speculative distance
    // of the landing, about 1.5 m of fall.
    let y = world.position(falling).unwrap().y;
    assert!(y < 1.7, "woken at step {k} with the falling box still at y = {y}");
    // Woken in the step's middle, its contact with the ground (not
    // collided, asleep at the collide stage) was still solved in that
    // step: it sank under a millimetre (unsolved for that step, it sinks
    // more than a centimetre).
    let drop = rest.y - world.position(b).unwrap().y;
    assert!(drop.abs() < 1e-3, "the woken box dropped {drop} m");
    // Both then sleep again, together.
    let steps = steps_until_asleep(&mut world, falling, 300);
    assert!(
        !world.is_awake(b).unwrap(),
        "the stack sleeps as one island ({steps} steps)"
    );
}

/// Each user call that changes how a body moves wakes it.
#[test]
fn every_call_that_moves_a_body_wakes_it() {
    type Call = fn(&mut World, BodyId);
    let calls: [(&str, Call); 13] = [
        ("set_transform", |w, b| {
            w.set_transform(b, Vec2::new(0.0, 0.6), 0.0).unwrap()
        }),
        ("set_linear_velocity", |w, b| {
            w.set_linear_velocity(b, Vec2::X).unwrap()
        }),
        ("set_angular_velocity", |w, b| {
            w.set_angular_velocity(b, 1.0).unwrap()
        }),
        ("apply_force", |w, b| w.apply_force_to_center(b, Vec2::X).unwrap()),
        ("apply_torque", |w, b| w.apply_torque(b, 1.0).unwrap()),
        ("apply_linear_impulse", |w, b| {
            w.apply_linear_impulse_to_center(b, Vec2::X).unwrap()
        }),
        ("apply_angular_impulse", |w, b| {
            w.apply_angular_impulse(b, 1.0).unwrap()
        }),
        ("set_body_type", |w, b| {
            w.set_body_type(b, BodyType::Kinematic).unwrap()
        }),
        ("set_gravity_scale", |w, b| w.set_gravity_scale(b, 2.0).unwrap()),
        ("create_shape", |w, b| {
            let c = Circle::new(Vec2::new(0.3, 0.0), 0.2).unwrap();
            w.create_shape(b, c, &ShapeDef::default()).unwrap();
        }),
        ("remove_shape", |w, b| {
            let c = Circle::new(Vec2::new(0.3, 0.0), 0.2).unwrap();
            let extra = w.create_shape(b, c, &ShapeDef::default()).unwrap();
            w.set_awake(b, false).unwrap();
            w.remove_shape(extra).unwrap();
        }),
        ("wake", |w, b| w.wake(b).unwrap()),
        ("set_awake", |w, b| w.set_awake(b, true).unwrap()),
    ];
    for (name, call) in calls {
        let (mut world, b) = sleeping_box();
        call(&mut world, b);
        assert!(world.is_awake(b).unwrap(), "{name} left the body asleep");
        assert_eq!(world.awake_body_count(), 1, "{name}");
    }
}

#[test]
fn removing_a_body_or_shape_wakes_what_it_touched() {
    // A box resting on a plank resting on the ground, all asleep.
    let make = || {
        let mut world = World::default();
        ground(&mut world);
        let plank = body_with(
            &mut world,
            &BodyDef::dynamic().at(Vec2::new(0.0, 0.1)),
            Polygon::new_box(2.0, 0.1).unwrap(),
        );
        let top = unit_box(&mut world, Vec2::new(0.0, 0.7));
        steps_until_asleep(&mut world, top, 200);
        assert!(!world.is_awake(plank).unwrap());
        (world, plank, top)
    };
    let (mut world, plank, top) = make();
    world.remove_body(plank).unwrap();
    assert!(
        world.is_awake(top).unwrap(),
        "removing the plank woke the box on it"
    );
    for _ in 0..30 {
        world.step(DT);
    }
    assert!(
        world.position(top).unwrap().y < 0.6,
        "and it fell onto the ground"
    );

    let (mut world, plank, top) = make();
    let shape = world.body_shapes(plank).unwrap()[0];
    world.remove_shape(shape).unwrap();
    assert!(
        world.is_awake(top).unwrap(),
        "removing the plank's shape woke the box"
    );
}

#[test]
fn a_body_created_asleep_stays_put_until_woken() {
    let mut world = World::default();
    ground(&mut world);
    let def = BodyDef {
        awake: false,
        ..BodyDef::dynamic().at(Vec2::new(0.0, 5.0))
    };
    let b = body_with(&mut world, &def, Polygon::new_box(0.5, 0.5).unwrap());
    assert!(!world.is_awake(b).unwrap());
    for _ in 0..30 {
        world.step(DT);
    }
    assert_eq!(world.position(b).unwrap().y, 5.0, "asleep in the air, as asked");
    world.wake(b).unwrap();
    for _ in 0..30 {
        world.step(DT);
    }
    assert!(world.position(b).unwrap().y < 5.0, "falls once woken");
}

#[test]
fn can_sleep_off_and_sleeping_off_keep_bodies_awake() {
    let mut world = World::default();
    ground(&mut world);
    let def = BodyDef {
        can_sleep: false,
        ..BodyDef::dynamic().at(Vec2::new(0.0, 0.5))
    };
    let restless = body_with(&mut world, &def, Polygon::new_box(0.5, 0.5).unwrap());
    let normal = unit_box(&mut world, Vec2::new(3.0, 0.5));
    for _ in 0..120 {
        world.step(DT);
    }
    assert!(world.is_awake(restless).unwrap());
    assert!(!world.is_awake(normal).unwrap());

    // A box resting on the one that cannot sleep shares its island.
    let on_top = unit_box(&mut world, Vec2::new(0.0, 1.5));
    for _ in 0..120 {
        world.step(DT);
    }
    assert!(world.is_awake(on_top).unwrap(), "its island is kept awake");

    world.set_sleeping(false);
    assert!(
        world.is_awake(normal).unwrap(),
        "turning sleeping off wakes everything"
    );
    for _ in 0..120 {
        world.step(DT);
    }
    assert_eq!(world.awake_body_count(), 3);
}

#[test]
fn separate_piles_sleep_apart_and_a_moving_body_elsewhere_keeps_none_awake() {
    let mut world = World::default();
    ground(&mut world);
    let left: Vec<_> = (0..3)
        .map(|i| unit_box(&mut world, Vec2::new(-5.0, 0.5 + i as f32)))
        .collect();
    let right: Vec<_> = (0..3)
        .map(|i| unit_box(&mut world, Vec2::new(5.0, 0.5 + i as f32)))
        .collect();
    // A body that never rests, far from both.
    let spinner = body_with(
        &mut world,
        &BodyDef {
            gravity_scale: 0.0,
            angular_velocity: 5.0,
            ..BodyDef::dynamic().at(Vec2::new(0.0, 10.0))
        },
        Polygon::new_box(0.5, 0.5).unwrap(),
    );
    for _ in 0..120 {
        world.step(DT);
    }
    assert!(world.is_awake(spinner).unwrap());
    for &b in left.iter().chain(&right) {
        assert!(!world.is_awake(b).unwrap(), "{b:?} awake");
    }
    let stacks: Vec<u32> = [left[0], right[0]]
        .iter()
        .map(|&b| world.bodies[b.index()].island)
        .collect();
    assert_ne!(stacks[0], stacks[1], "two stacks, two islands");
    for (stack, isl) in [(&left, stacks[0]), (&right, stacks[1])] {
        assert!(stack.iter().all(|&b| world.bodies[b.index()].island == isl));
    }
    // Kicking one stack wakes that stack only.
    world
        .apply_linear_impulse_to_center(left[2], Vec2::new(0.5, 0.0))
        .unwrap();
    assert!(left.iter().all(|&b| world.is_awake(b).unwrap()));
    assert!(right.iter().all(|&b| !world.is_awake(b).unwrap()));
    assert_eq!(world.awake_body_count(), 4);
}

#[test]
fn an_island_that_comes_apart_is_split_and_its_parts_sleep_apart() {
    let mut world = zero_gravity();
    // Two boxes pressed together, then one is sent away.
    let a = unit_box(&mut world, Vec2::new(0.0, 0.0));
    let b = unit_box(&mut world, Vec2::new(1.0, 0.0));
    world.step(DT);
    let (ia, ib) = (world.bodies[a.index()].island, world.bodies[b.index()].island);
    assert_eq!(ia, ib, "touching: one island");
    world.set_linear_velocity(b, Vec2::new(3.0, 0.0)).unwrap();
    // A stops at once; B keeps flying.
    steps_until_asleep(&mut world, a, 120);
    assert!(world.is_awake(b).unwrap(), "B still flies");
    assert_ne!(world.bodies[a.index()].island, world.bodies[b.index()].island);
    assert!(world.position(b).unwrap().x > 2.0);
}

#[test]
fn set_awake_false_puts_an_island_to_sleep_at_once() {
    let mut world = World::default();
    ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 3.0));
    world.step(DT);
    world.set_awake(b, false).unwrap();
    assert!(!world.is_awake(b).unwrap());
    let y = world.position(b).unwrap().y;
    world.step(DT);
    assert_eq!(world.position(b).unwrap().y, y);
}

#[test]
fn counts_are_kept_not_counted() {
    let mut world = World::default();
    ground(&mut world);
    let boxes: Vec<_> = (0..10)
        .map(|i| unit_box(&mut world, Vec2::new(i as f32 * 1.01, 0.5)))
        .collect();
    world.step(DT);
    let live = |w: &World| {
        (
            w.bodies.iter().count(),
            w.shapes.iter().count(),
            w.contacts.iter().count(),
        )
    };
    assert_eq!(
        live(&world),
        (world.body_count(), world.shape_count(), world.contact_count())
    );
    assert_eq!(world.body_count(), 11);
    for &b in boxes.iter().step_by(3) {
        world.remove_body(b).unwrap();
    }
    world.step(DT);
    assert_eq!(
        live(&world),
        (world.body_count(), world.shape_count(), world.contact_count())
    );
    assert_eq!(world.body_count(), 7);
}

#[test]
fn removing_one_body_visits_only_its_own_contacts() {
    // A grid of small boxes close enough that each pairs with its eight
    // neighbours: over 20 000 contacts.
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        sleeping: false,
        ..WorldSettings::default()
    });
    let n = 75;
    let mut grid = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let at = Vec2::new(i as f32 * 0.52, j as f32 * 0.52);
            grid.push(body_with(
                &mut world,
                &BodyDef::dynamic().at(at),
                Polygon::new_box(0.25, 0.25).unwrap(),
            ));
        }
    }
    world.step(DT);
    assert!(
        world.contact_count() > 20_000,
        "{} contacts",
        world.contact_count()
    );
    let middle = grid[(n / 2) * n + n / 2];
    let own = world.bodies[middle.index()].contacts.count as u64;
    assert!((4..=8).contains(&own), "{own} contacts of its own");
    let before = world.scratch.edge_visits;
    let contacts = world.contact_count();
    world.remove_body(middle).unwrap();
    assert_eq!(
        world.scratch.edge_visits - before,
        own,
        "visited only its own contacts"
    );
    assert_eq!(world.contact_count(), contacts - own as usize);
}

#[test]
fn a_kinematic_platform_keeps_what_it_carries_awake_until_it_stops() {
    let mut world = World::default();
    let platform = body_with(
        &mut world,
        &BodyDef::kinematic().with_velocity(Vec2::new(0.01, 0.0)),
        Polygon::new_box(3.0, 0.2).unwrap(),
    );
    let rider = unit_box(&mut world, Vec2::new(0.0, 0.7));
    for _ in 0..120 {
        world.step(DT);
    }
    assert!(
        world.is_awake(rider).unwrap(),
        "a creeping platform keeps its rider awake"
    );
    assert!(world.is_awake(platform).unwrap());
    world.set_linear_velocity(platform, Vec2::ZERO).unwrap();
    steps_until_asleep(&mut world, rider, 120);
    assert!(
        !world.is_awake(platform).unwrap(),
        "the stopped platform sleeps with it"
    );
}

#[test]
fn turning_gravity_wakes_the_sleepers() {
    let (mut world, b) = sleeping_box();
    world.set_gravity(Vec2::new(-10.0, -10.0)).unwrap();
    assert!(world.is_awake(b).unwrap());
}

#[test]
fn damping_divides_the_velocity_by_one_plus_h_damping_each_substep() {
    let mut world = zero_gravity();
    let def = BodyDef {
        linear_damping: 2.0,
        angular_damping: 3.0,
        ..BodyDef::dynamic().with_velocity(Vec2::new(4.0, 0.0))
    };
    let b = body_with(&mut world, &def, Circle::new(Vec2::ZERO, 0.5).unwrap());
    world.set_angular_velocity(b, 5.0).unwrap();
    let n = world.solver_settings().substeps as i32;
    let h = DT / n as f32;
    for _ in 0..10 {
        world.step(DT);
    }
    let v = world.linear_velocity(b).unwrap().x;
    let w = world.angular_velocity(b).unwrap();
    let expect_v = 4.0 * (1.0 + h * 2.0f32).powi(-10 * n);
    let expect_w = 5.0 * (1.0 + h * 3.0f32).powi(-10 * n);
    assert!(
        (v - expect_v).abs() < 1e-5 * expect_v,
        "v = {v}, expected {expect_v}"
    );
    assert!(
        (w - expect_w).abs() < 1e-5 * expect_w,
        "w = {w}, expected {expect_w}"
    );
    // Close to the continuous decay exp(-c t).
    assert!((v - 4.0 * (-2.0f32 * 10.0 * DT).exp()).abs() < 0.01);
}

#[test]
fn bad_sleep_thresholds_are_named_errors() {
    let mut world = World::default();
    for (threshold, err) in [
        (f32::NAN, BodyError::NonFinite("sleep threshold")),
        (-1.0, BodyError::OutOfRange("sleep threshold")),
    ] {
        let def = BodyDef {
            sleep_threshold: threshold,
            ..BodyDef::dynamic()
        };
        assert_eq!(world.create_body(&def), Err(err));
    }
    assert_eq!(world.body_count(), 0);
}
