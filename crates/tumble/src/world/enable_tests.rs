//! Disabled bodies: out of the simulation whole (not stepped, not
//! collided with, not found, their contacts ended and their joints idle),
//! and back where they were when enabled.

use super::tests::{body_with, ground, run, unit_box, DT};
use super::*;
use crate::body::{BodyDef, BodyType};
use crate::error::BodyError;
use crate::joint::RevoluteJoint;
use crate::shapes::{Circle, Polygon, ShapeDef};
use crate::world::joints::JointDef;
use crate::QueryFilter;

#[test]
fn a_disabled_body_is_not_stepped_and_takes_up_where_it_was() {
    let mut world = World::default();
    ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 5.0));
    world.set_linear_velocity(b, Vec2::new(1.0, 2.0)).unwrap();
    world.set_enabled(b, false).unwrap();
    assert!(!world.is_enabled(b).unwrap());
    assert!(!world.is_awake(b).unwrap());
    // Forces are dropped and waking does nothing.
    world.apply_force_to_center(b, Vec2::new(0.0, 1e3)).unwrap();
    world
        .apply_linear_impulse_to_center(b, Vec2::new(5.0, 0.0))
        .unwrap();
    world.wake(b).unwrap();
    world.set_awake(b, true).unwrap();
    run(&mut world, 60);
    assert_eq!(world.position(b).unwrap(), Vec2::new(0.0, 5.0));
    assert_eq!(world.linear_velocity(b).unwrap(), Vec2::new(1.0, 2.0));
    world.set_enabled(b, true).unwrap();
    assert!(world.is_awake(b).unwrap());
    world.step(DT);
    // Its velocity, then gravity: it moves on as a free body would.
    let p = world.position(b).unwrap();
    assert!((p.x - DT).abs() < 1e-4, "{p:?}");
    run(&mut world, 240);
    // And lands on the ground as before.
    let y = world.position(b).unwrap().y;
    assert!((y - 0.5).abs() < 0.02, "{y}");
}

#[test]
fn nothing_collides_with_or_finds_a_disabled_body() {
    // A shelf disabled under a falling box lets it through to the
    // ground; rays and overlaps miss the shelf; enabled again, the shelf
    // is found and is hit.
    let mut world = World::default();
    ground(&mut world);
    let shelf = body_with(
        &mut world,
        &BodyDef::static_body().at(Vec2::new(0.0, 3.0)),
        Polygon::new_box(2.0, 0.1).unwrap(),
    );
    world.set_enabled(shelf, false).unwrap();
    let b = unit_box(&mut world, Vec2::new(0.0, 5.0));
    run(&mut world, 180);
    let y = world.position(b).unwrap().y;
    assert!(
        (y - 0.5).abs() < 0.02,
        "the box stopped at {y}, not on the ground"
    );
    let down = Vec2::new(0.0, -10.0);
    let hit = world
        .ray_cast_closest(Vec2::new(1.5, 4.0), down, QueryFilter::default())
        .unwrap()
        .unwrap();
    assert_ne!(world.shape_body(hit.shape).unwrap(), shelf);
    let mut found = Vec::new();
    let around = crate::Aabb::new(Vec2::new(-2.0, 2.5), Vec2::new(2.0, 3.5));
    world
        .overlap_aabb(around, QueryFilter::default(), &mut found)
        .unwrap();
    assert!(found.is_empty(), "{found:?}");
    world.set_enabled(shelf, true).unwrap();
    let hit = world
        .ray_cast_closest(Vec2::new(1.5, 4.0), down, QueryFilter::default())
        .unwrap()
        .unwrap();
    assert_eq!(world.shape_body(hit.shape).unwrap(), shelf);
    let ball = body_with(
        &mut world,
        &BodyDef::dynamic().at(Vec2::new(1.5, 5.0)),
        Circle::new(Vec2::ZERO, 0.25).unwrap(),
    );
    run(&mut world, 180);
    let y = world.position(ball).unwrap().y;
    assert!((y - 3.35).abs() < 0.02, "the ball rests at {y}, not on the shelf");
}

#[test]
fn disabling_ends_a_bodys_contacts_and_wakes_what_they_held() {
    let mut world = World::default();
    let floor = ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 0.5));
    run(&mut world, 120);
    assert!(!world.is_awake(b).unwrap(), "the box settles asleep first");
    world.take_contact_events();
    world.set_enabled(floor, false).unwrap();
    assert!(world.is_awake(b).unwrap());
    assert_eq!(world.body_contacts(b).unwrap().count(), 0);
    world.step(DT);
    let ends = world.take_contact_events().end;
    assert!(
        ends.iter()
            .any(|e| [e.body_a, e.body_b] == [floor, b] || [e.body_a, e.body_b] == [b, floor]),
        "{ends:?}"
    );
    run(&mut world, 30);
    assert!(world.position(b).unwrap().y < 0.0, "the box falls through");
}

#[test]
fn a_joint_to_a_disabled_body_is_idle_until_it_is_enabled() {
    // A bob hinged 1 m below a static anchor: with the anchor disabled it
    // falls freely (1.25 m in half a second); enabled, the hinge pulls it
    // back to 1 m from the anchor.
    let mut world = World::default();
    let anchor = world
        .create_body(&BodyDef::static_body().at(Vec2::new(0.0, 10.0)))
        .unwrap();
    let bob = body_with(
        &mut world,
        &BodyDef::dynamic().at(Vec2::new(0.0, 9.0)),
        Circle::new(Vec2::ZERO, 0.1).unwrap(),
    );
    let hinge = JointDef::new(anchor, bob, RevoluteJoint::default())
        .at(&world, Vec2::new(0.0, 10.0))
        .unwrap();
    world.create_joint(&hinge).unwrap();
    run(&mut world, 10);
    assert!((world.position(bob).unwrap().y - 9.0).abs() < 1e-3);
    world.set_enabled(anchor, false).unwrap();
    run(&mut world, 30);
    let y = world.position(bob).unwrap().y;
    assert!((9.0 - y - 1.25).abs() < 0.05, "fell {} m", 9.0 - y);
    world.set_enabled(anchor, true).unwrap();
    world.set_linear_velocity(bob, Vec2::ZERO).unwrap();
    run(&mut world, 300);
    let gap = (world.position(bob).unwrap() - Vec2::new(0.0, 10.0)).length();
    assert!((gap - 1.0).abs() < 0.01, "the bob hangs {gap} m from the anchor");
}

#[test]
fn a_disabled_sensor_sees_nothing_and_a_disabled_visitor_leaves() {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    let zone_body = world.create_body(&BodyDef::static_body()).unwrap();
    let sensor_def = ShapeDef {
        sensor: true,
        ..ShapeDef::default()
    };
    let zone = world
        .create_shape(zone_body, Polygon::new_box(1.0, 1.0).unwrap(), &sensor_def)
        .unwrap();
    let visitor = body_with(
        &mut world,
        &BodyDef::dynamic(),
        Circle::new(Vec2::ZERO, 0.2).unwrap(),
    );
    world.step(DT);
    assert_eq!(world.take_sensor_events().begin.len(), 1);
    world.set_enabled(visitor, false).unwrap();
    world.step(DT);
    let ends = world.take_sensor_events().end;
    assert_eq!(ends.len(), 1, "{ends:?}");
    assert_eq!(ends[0].sensor, zone);
    world.set_enabled(visitor, true).unwrap();
    world.step(DT);
    assert_eq!(world.take_sensor_events().begin.len(), 1);
    world.set_enabled(zone_body, false).unwrap();
    world.step(DT);
    assert_eq!(world.take_sensor_events().end.len(), 1);
    world.step(DT);
    let events = world.take_sensor_events();
    assert!(events.begin.is_empty() && events.end.is_empty());
}

#[test]
fn a_disabled_body_can_be_changed_and_removed() {
    let mut world = World::default();
    ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 3.0));
    world.set_enabled(b, false).unwrap();
    world.set_transform(b, Vec2::new(4.0, 2.0), 0.5).unwrap();
    world.set_body_type(b, BodyType::Kinematic).unwrap();
    world.set_body_type(b, BodyType::Dynamic).unwrap();
    let extra = world
        .create_shape(
            b,
            Circle::new(Vec2::new(0.5, 0.0), 0.3).unwrap(),
            &ShapeDef::default(),
        )
        .unwrap();
    let other = unit_box(&mut world, Vec2::new(6.0, 0.5));
    let def = JointDef::new(b, other, RevoluteJoint::default())
        .at(&world, Vec2::new(5.0, 1.0))
        .unwrap();
    let joint = world.create_joint(&def).unwrap();
    run(&mut world, 10);
    assert_eq!(world.position(b).unwrap(), Vec2::new(4.0, 2.0));
    world.set_enabled(b, true).unwrap();
    run(&mut world, 10);
    assert!(world.position(b).unwrap().y < 2.0, "enabled, it falls");
    world.set_enabled(b, false).unwrap();
    world.remove_shape(extra).unwrap();
    world.remove_joint(joint).unwrap();
    world.remove_body(b).unwrap();
    assert_eq!(world.set_enabled(b, true), Err(BodyError::StaleHandle));
    assert_eq!(world.is_enabled(b), Err(BodyError::StaleHandle));
    run(&mut world, 10);
}

#[cfg(feature = "serde")]
#[test]
fn a_snapshot_with_a_disabled_body_continues_bit_for_bit() {
    let mut world = World::default();
    ground(&mut world);
    let boxes: Vec<BodyId> = (0..4)
        .map(|i| unit_box(&mut world, Vec2::new(0.0, 0.5 + 1.05 * i as f32)))
        .collect();
    run(&mut world, 20);
    world.set_enabled(boxes[1], false).unwrap();
    run(&mut world, 5);
    let saved = postcard::to_allocvec(&world).unwrap();
    let mut copy: World = postcard::from_bytes(&saved).unwrap();
    world.set_enabled(boxes[1], true).unwrap();
    copy.set_enabled(boxes[1], true).unwrap();
    run(&mut world, 60);
    run(&mut copy, 60);
    assert_eq!(
        postcard::to_allocvec(&world).unwrap(),
        postcard::to_allocvec(&copy).unwrap()
    );
}

#[test]
fn disabling_a_body_of_a_sleeping_island_leaves_its_joints_idle() {
    // Two boxes hinged together rest asleep on the ground. Disabling one
    // wakes the other, whose island must not wake the hinge with it: the
    // box then slides away freely, far past the hinge's reach.
    let mut world = World::default();
    ground(&mut world);
    let a = unit_box(&mut world, Vec2::new(0.0, 0.5));
    let b = unit_box(&mut world, Vec2::new(1.5, 0.5));
    let hinge = JointDef::new(a, b, RevoluteJoint::default())
        .at(&world, Vec2::new(0.75, 0.5))
        .unwrap();
    world.create_joint(&hinge).unwrap();
    world.step(DT);
    world.set_awake(b, false).unwrap();
    assert!(!world.is_awake(a).unwrap() && !world.is_awake(b).unwrap());
    world.set_enabled(a, false).unwrap();
    assert!(world.is_awake(b).unwrap());
    world.set_linear_velocity(b, Vec2::new(4.0, 0.0)).unwrap();
    run(&mut world, 30);
    let x = world.position(b).unwrap().x;
    assert!(x > 2.5, "the box is held at {x}");
    #[cfg(feature = "serde")]
    {
        let bytes = postcard::to_allocvec(&world).unwrap();
        assert!(postcard::from_bytes::<World>(&bytes).is_ok());
    }
}
