//! Sensor tests: begin and end with motion, adding, removing and
//! teleporting; a fast body through a thin sensor; what a sensor sees.

use super::tests::DT;
use super::*;
use crate::body::BodyDef;
use crate::error::BodyError;
use crate::filter::Filter;
use crate::shapes::ShapeDef;
use crate::shapes::{Circle, Polygon, Shape};

fn sensor_def() -> ShapeDef {
    ShapeDef {
        sensor: true,
        ..ShapeDef::default()
    }
}

/// A static sensor box of half-size `half` centered at `at`.
fn zone(world: &mut World, at: Vec2, half: Vec2) -> ShapeId {
    let b = world.create_body(&BodyDef::static_body().at(at)).unwrap();
    world
        .create_shape(b, Polygon::new_box(half.x, half.y).unwrap(), &sensor_def())
        .unwrap()
}

fn ball(world: &mut World, def: &BodyDef, radius: f32) -> (BodyId, ShapeId) {
    let b = world.create_body(def).unwrap();
    let s = world
        .create_shape(b, Circle::new(Vec2::ZERO, radius).unwrap(), &ShapeDef::default())
        .unwrap();
    (b, s)
}

/// Steps once and returns the sensor events' (begin, end) visitors.
fn step(world: &mut World) -> (Vec<ShapeId>, Vec<ShapeId>) {
    world.step(DT);
    let e = world.sensor_events();
    (
        e.begin.iter().map(|o| o.visitor).collect(),
        e.end.iter().map(|o| o.visitor).collect(),
    )
}

#[test]
fn a_falling_ball_is_reported_entering_and_leaving_a_sensor_that_does_not_push_it() {
    let mut world = World::default();
    // A 2 m tall zone from y = -1 to 1; the ball (radius 0.25) starts
    // above it at rest, 3 m up.
    let sensor = zone(&mut world, Vec2::ZERO, Vec2::new(2.0, 1.0));
    let (b, s) = ball(&mut world, &BodyDef::dynamic().at(Vec2::new(0.0, 3.0)), 0.25);
    let (mut began, mut ended) = (None, None);
    for k in 1..=120 {
        let (begin, end) = step(&mut world);
        if !begin.is_empty() {
            assert_eq!(begin, vec![s]);
            began = Some(k);
        }
        if !end.is_empty() {
            assert_eq!(end, vec![s]);
            ended = Some(k);
        }
        let inside = began.is_some() && ended.is_none();
        let listed = world.sensor_overlaps(sensor).unwrap().to_vec();
        assert_eq!(listed, if inside { vec![s] } else { vec![] }, "step {k}");
    }
    // The bottom of the ball reaches y = 1 after falling 1.75 m, the top
    // leaves y = -1 after 4.25 m: t = sqrt(2 d / g).
    let step_of = |d: f32| (2.0 * d / 10.0f32).sqrt() / DT;
    let (began, ended) = (began.expect("a begin") as f32, ended.expect("an end") as f32);
    assert!(
        (began - step_of(1.75)).abs() <= 1.5,
        "began at step {began}, expected {}",
        step_of(1.75)
    );
    assert!(
        (ended - step_of(4.25)).abs() <= 1.5,
        "ended at step {ended}, expected {}",
        step_of(4.25)
    );
    // It fell freely the whole time: v = -g t.
    let v = world.linear_velocity(b).unwrap().y;
    assert!((v + 10.0 * 120.0 * DT).abs() < 0.01, "free fall: v = {v}");
    assert_eq!(world.contact_count(), 0, "a sensor makes no contacts");
}

#[test]
fn adding_removing_and_teleporting_a_shape_report_begin_and_end() {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    let sensor = zone(&mut world, Vec2::ZERO, Vec2::new(1.0, 1.0));
    // Added inside: a begin with the next step.
    let (a, sa) = ball(&mut world, &BodyDef::dynamic(), 0.25);
    assert_eq!(step(&mut world), (vec![sa], vec![]));
    assert_eq!(step(&mut world), (vec![], vec![]), "no repeat while it stays");
    // Teleported out and back in.
    world.set_transform(a, Vec2::new(5.0, 0.0), 0.0).unwrap();
    assert_eq!(step(&mut world), (vec![], vec![sa]));
    world.set_transform(a, Vec2::new(0.5, 0.0), 0.0).unwrap();
    assert_eq!(step(&mut world), (vec![sa], vec![]));
    // Removed inside: its end comes with the next step, under its stale
    // handle, even though a new shape takes its slot inside the sensor.
    world.remove_body(a).unwrap();
    let (_, sb) = ball(&mut world, &BodyDef::dynamic().at(Vec2::new(-0.5, 0.0)), 0.25);
    assert_eq!(sb.index(), sa.index(), "the slot is reused");
    assert_eq!(step(&mut world), (vec![sb], vec![sa]));
    // The sensor removed: its visitor's end comes with the next step.
    world.remove_shape(sensor).unwrap();
    world.step(DT);
    let ends = &world.sensor_events().end;
    assert_eq!(ends.len(), 1);
    assert_eq!((ends[0].sensor, ends[0].visitor), (sensor, sb));
    assert_eq!(world.sensor_overlaps(sensor), Err(BodyError::StaleHandle));
    assert_eq!(world.sensor_overlaps(sb), Err(BodyError::NotASensor));
}

#[test]
fn a_fast_body_crossing_a_thin_sensor_within_one_step_is_reported_both_ways() {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    // A 5 cm thick wall of sensor; a 5 cm bullet at 300 m/s crosses 5 m
    // per step.
    zone(&mut world, Vec2::new(3.0, 0.0), Vec2::new(0.025, 2.0));
    let bullet = BodyDef::dynamic()
        .at(Vec2::new(0.0, 0.3))
        .with_velocity(Vec2::new(300.0, 0.0));
    let (b, s) = ball(&mut world, &bullet, 0.05);
    let (begin, end) = step(&mut world);
    assert!(
        world.position(b).unwrap().x > 4.0,
        "it passed the sensor in one step"
    );
    assert_eq!((begin, end), (vec![s], vec![s]), "begin and end in the same step");
    assert_eq!(step(&mut world), (vec![], vec![]), "and nothing after");
}

#[test]
fn a_sensor_sees_moving_shapes_of_other_bodies_that_ask_and_pass_its_filter() {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    // A sensor on a dynamic body, with a solid shape of its own.
    let carrier = world.create_body(&BodyDef::dynamic()).unwrap();
    let sensor_shape = Polygon::new_box(2.0, 2.0).unwrap();
    let sensor = world.create_shape(carrier, sensor_shape, &sensor_def()).unwrap();
    world
        .create_shape(
            carrier,
            Circle::new(Vec2::ZERO, 0.2).unwrap(),
            &ShapeDef::default(),
        )
        .unwrap();
    let add = |world: &mut World, def: BodyDef, shape_def: ShapeDef| {
        let b = world.create_body(&def).unwrap();
        let shape: Shape = Circle::new(Vec2::ZERO, 0.2).unwrap().into();
        world.create_shape(b, shape, &shape_def).unwrap()
    };
    let at = |x: f32| BodyDef::dynamic().at(Vec2::new(x, 1.0));
    let seen = add(&mut world, at(-1.0), ShapeDef::default());
    let hidden = add(
        &mut world,
        at(-0.5),
        ShapeDef {
            sensor_events: false,
            ..ShapeDef::default()
        },
    );
    let other_sensor = add(&mut world, at(0.0), sensor_def());
    let filtered = add(
        &mut world,
        at(0.5),
        ShapeDef {
            filter: Filter {
                category: 1,
                mask: 2,
                group: 0,
            },
            ..ShapeDef::default()
        },
    );
    let wall = add(
        &mut world,
        BodyDef::static_body().at(Vec2::new(1.0, 1.0)),
        ShapeDef::default(),
    );
    let seen_too = add(&mut world, at(1.5), ShapeDef::default());
    world.step(DT);
    assert_eq!(
        world.sensor_overlaps(sensor).unwrap(),
        &[seen, seen_too],
        "hidden {hidden:?}, sensor {other_sensor:?}, filtered {filtered:?}, static {wall:?} are not"
    );
    // Events come in handle order.
    let begins: Vec<ShapeId> = world.sensor_events().begin.iter().map(|o| o.visitor).collect();
    assert_eq!(begins, vec![seen, seen_too]);
    // Asked for static shapes too, the sensor sees the wall.
    let mut world2 = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    let carrier = world2.create_body(&BodyDef::dynamic()).unwrap();
    let def = ShapeDef {
        sensor_detects_static: true,
        ..sensor_def()
    };
    let sensor = world2.create_shape(carrier, sensor_shape, &def).unwrap();
    let wall = add(
        &mut world2,
        BodyDef::static_body().at(Vec2::new(1.0, 1.0)),
        ShapeDef::default(),
    );
    world2.step(DT);
    assert_eq!(world2.sensor_overlaps(sensor).unwrap(), &[wall]);
}

/// A box sliding through a sensor (no gravity, steps and speeds exact in
/// binary, so faces land exactly on faces): its begins and ends over the
/// run, and the steps they came in.
fn pass_through(speed: f32, start_x: f32, steps: u32) -> (Vec<u32>, Vec<u32>) {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    zone(&mut world, Vec2::ZERO, Vec2::new(1.0, 1.0));
    let b = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(start_x, 0.0)))
        .unwrap();
    let s = world
        .create_shape(b, Polygon::new_box(0.5, 0.5).unwrap(), &ShapeDef::default())
        .unwrap();
    world.set_linear_velocity(b, Vec2::new(speed, 0.0)).unwrap();
    let (mut begins, mut ends) = (Vec::new(), Vec::new());
    for k in 1..=steps {
        world.step(1.0 / 64.0);
        let e = world.sensor_events();
        assert!(e.begin.iter().chain(&e.end).all(|o| o.visitor == s));
        begins.extend(e.begin.iter().map(|_| k));
        ends.extend(e.end.iter().map(|_| k));
    }
    assert_eq!(world.linear_velocity(b).unwrap(), Vec2::new(speed, 0.0));
    (begins, ends)
}

/// 1 m a step from x = -2.5: the box touches the near face after step 1,
/// overlaps during steps 2 and 3, and ends step 4 with its trailing face
/// exactly on the far face (x = 1). Step 5 starts touching and moves away:
/// that sweep is not a crossing, so the box is reported once.
#[test]
fn a_box_leaving_from_exactly_touching_is_reported_once() {
    let (begins, ends) = pass_through(64.0, -2.5, 8);
    assert_eq!(begins, vec![2], "one begin");
    assert_eq!(ends, vec![4], "one end, when it stopped overlapping");
}

/// 4 m a step from x = -1.5: the box starts touching the near face and
/// is past the far face one step later. Starting from touching, it moved
/// in: a crossing, reported as a begin and an end in the same step.
#[test]
fn a_box_crossing_from_exactly_touching_is_reported() {
    let (begins, ends) = pass_through(256.0, -1.5, 3);
    assert_eq!((begins, ends), (vec![1], vec![1]));
}
