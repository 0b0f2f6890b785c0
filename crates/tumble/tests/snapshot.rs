//! Snapshots (the `serde` feature): a world saved mid-run and restored
//! carries on bit for bit like one that never stopped.
//!
//! Run with `cargo test -p tumble --features serde`.
#![cfg(feature = "serde")]

mod common;

use common::{advance, build_pile, run, world_hash, DT};
use tumble::World;

/// The reference: the scene run straight through to step 600.
fn straight_through() -> u64 {
    world_hash(&run(600))
}

#[test]
fn json_snapshot_at_step_300_continues_bit_identically() {
    let saved = run(300);
    let json = serde_json::to_string(&saved).unwrap();
    drop(saved);
    let mut restored: World = serde_json::from_str(&json).unwrap();
    assert_eq!(restored.step_count(), 300);
    // Saving the restored world again gives the same text: nothing was
    // lost or rounded on the way.
    assert_eq!(serde_json::to_string(&restored).unwrap(), json);
    for _ in 300..600 {
        advance(&mut restored);
    }
    assert_eq!(world_hash(&restored), straight_through());
}

#[test]
fn postcard_snapshot_at_step_300_continues_bit_identically() {
    let saved = run(300);
    let bytes = postcard::to_allocvec(&saved).unwrap();
    let mut restored: World = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(postcard::to_allocvec(&restored).unwrap(), bytes);
    assert_eq!(restored.body_count(), saved.body_count());
    assert_eq!(restored.shape_count(), saved.shape_count());
    assert_eq!(restored.contact_count(), saved.contact_count());
    for _ in 300..600 {
        advance(&mut restored);
    }
    assert_eq!(world_hash(&restored), straight_through());
}

#[test]
fn restored_world_hands_out_the_same_handles() {
    // The free lists are part of the snapshot: the next body created in
    // the restored world takes the same slot and generation.
    let mut saved = run(300);
    let mut restored: World = serde_json::from_str(&serde_json::to_string(&saved).unwrap()).unwrap();
    let def = tumble::BodyDef::dynamic().at(tumble::Vec2::new(0.0, 12.0));
    assert_eq!(
        saved.create_body(&def).unwrap(),
        restored.create_body(&def).unwrap()
    );
    saved.step(DT);
    restored.step(DT);
    assert_eq!(world_hash(&saved), world_hash(&restored));
}

#[test]
fn json_round_trips_f32_bits_exactly() {
    // serde_json writes the shortest text that reads back as the same f32;
    // check that over a spread of bit patterns (every exponent, random
    // mantissas, subnormals, signed zeros).
    let mut x: u64 = 0x853c_49e6_748f_ea9b;
    let mut values = vec![
        0.0f32,
        -0.0,
        f32::MIN_POSITIVE,
        f32::MAX,
        f32::MIN,
        1e-45,
        0.1,
        1.0 / 3.0,
    ];
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let v = f32::from_bits(x as u32);
        if v.is_finite() {
            values.push(v);
        }
    }
    let text = serde_json::to_string(&values).unwrap();
    let back: Vec<f32> = serde_json::from_str(&text).unwrap();
    for (a, b) in values.iter().zip(&back) {
        assert_eq!(a.to_bits(), b.to_bits(), "{a:e} came back as {b:e}");
    }
}

#[test]
fn snapshot_size_per_body() {
    // The figure quoted in the crate docs: a settled pile of 200 bodies
    // with their contacts, in postcard's compact binary format.
    let mut world = build_pile(200);
    for _ in 0..240 {
        world.step(DT);
    }
    let bytes = postcard::to_allocvec(&world).unwrap().len();
    let json = serde_json::to_string(&world).unwrap().len();
    let n = world.body_count();
    let per_body = bytes as f64 / n as f64;
    println!(
        "{n} bodies, {} contacts: postcard {bytes} B ({per_body:.0} B/body), json {json} B ({:.0} B/body)",
        world.contact_count(),
        json as f64 / n as f64
    );
    assert!(
        per_body < 1000.0,
        "snapshots grew to {per_body:.0} bytes per body"
    );
}

#[test]
fn damaged_snapshots_are_errors_not_panics() {
    // (The checks of the links between the stores, which a snapshot whose
    // checksum matches must still pass, are unit tests in the crate.)
    let world = run(120);
    let good: serde_json::Value = serde_json::to_value(&world).unwrap();

    let mut wrong_version = good.clone();
    wrong_version["version"] = 99.into();
    let err = serde_json::from_value::<World>(wrong_version).unwrap_err();
    assert!(err.to_string().contains("version 99"), "{err}");

    let mut flipped = good.clone();
    let byte = flipped["state"][100].as_u64().unwrap();
    flipped["state"][100] = (byte ^ 0x10).into();
    let err = serde_json::from_value::<World>(flipped).unwrap_err();
    assert!(err.to_string().contains("damaged"), "{err}");

    let mut wrong_sum = good.clone();
    wrong_sum["checksum"] = (good["checksum"].as_u64().unwrap() ^ 1).into();
    let err = serde_json::from_value::<World>(wrong_sum).unwrap_err();
    assert!(err.to_string().contains("checksum"), "{err}");

    let mut missing = good.clone();
    missing.as_object_mut().unwrap().remove("checksum");
    assert!(serde_json::from_value::<World>(missing).is_err());

    let bytes = postcard::to_allocvec(&world).unwrap();
    for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
        assert!(postcard::from_bytes::<World>(&bytes[..cut]).is_err());
    }
}

/// A small world with a bit of everything a snapshot holds: a ground,
/// a few bodies touching it and each other, a joint, a sensor.
fn small_world() -> World {
    use tumble::{BodyDef, Circle, JointDef, Polygon, RevoluteJoint, ShapeDef, Vec2};
    let mut world = World::default();
    let ground = world.create_body(&BodyDef::static_body()).unwrap();
    world
        .create_shape(ground, Polygon::new_box(5.0, 0.5).unwrap(), &ShapeDef::default())
        .unwrap();
    let sensor = ShapeDef {
        sensor: true,
        ..ShapeDef::default()
    };
    world
        .create_shape(ground, Circle::new(Vec2::new(3.0, 1.0), 0.5).unwrap(), &sensor)
        .unwrap();
    let a = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(0.0, 1.0)))
        .unwrap();
    world
        .create_shape(a, Polygon::new_box(0.5, 0.5).unwrap(), &ShapeDef::default())
        .unwrap();
    let b = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(1.2, 1.0)))
        .unwrap();
    world
        .create_shape(b, Circle::new(Vec2::ZERO, 0.4).unwrap(), &ShapeDef::default())
        .unwrap();
    let hinge = JointDef::new(a, b, RevoluteJoint::default())
        .at(&world, Vec2::new(0.6, 1.0))
        .unwrap();
    world.create_joint(&hinge).unwrap();
    for _ in 0..10 {
        world.step(DT);
    }
    world
}

/// Every byte of a snapshot flipped in turn (with three patterns: the
/// low bit, the high bit, all bits): each damaged copy is refused, or
/// reads back as the very world that was saved. None loads a different
/// world silently. (postcard drops the reason a load gives, reporting
/// `SerdeDeCustom`; JSON keeps it: see the test above.)
#[test]
fn a_snapshot_with_any_byte_flipped_is_refused() {
    let world = small_world();
    assert!(world.contact_count() > 0 && world.joint_count() == 1);
    let bytes = postcard::to_allocvec(&world).unwrap();
    let mut refused = 0;
    for at in 0..bytes.len() {
        for pattern in [0x01u8, 0x80, 0xff] {
            let mut damaged = bytes.clone();
            damaged[at] ^= pattern;
            match postcard::from_bytes::<World>(&damaged) {
                Err(_) => refused += 1,
                Ok(loaded) => assert_eq!(
                    postcard::to_allocvec(&loaded).unwrap(),
                    bytes,
                    "byte {at} ^ {pattern:#x} loaded a different world"
                ),
            }
        }
    }
    assert!(refused > 0);
    println!(
        "{} bytes, {refused} of {} flips refused",
        bytes.len(),
        3 * bytes.len()
    );
}

#[test]
fn a_partly_sleeping_world_restored_continues_bit_identically() {
    use common::{advance_sleeping, run_sleeping, KICK_STEP, SLEEPING_STEPS};
    // Just after the kick: the pile awake, the lone box outside the pit
    // asleep.
    let saved = run_sleeping(KICK_STEP as u32 + 20);
    let awake = saved.awake_body_count();
    assert!(
        awake > 0 && awake < saved.body_count() - 3,
        "partly asleep: {awake} awake"
    );
    let mut restored: World = postcard::from_bytes(&postcard::to_allocvec(&saved).unwrap()).unwrap();
    assert_eq!(restored.awake_body_count(), awake);
    for body in saved.bodies() {
        assert_eq!(saved.is_awake(body), restored.is_awake(body));
    }
    for _ in KICK_STEP as u32 + 20..SLEEPING_STEPS {
        advance_sleeping(&mut restored);
    }
    assert_eq!(world_hash(&restored), world_hash(&run_sleeping(SLEEPING_STEPS)));
    assert_eq!(restored.awake_body_count(), 0);
}

/// A pile falling through a sensor zone, with filtered and hit-event
/// shapes: restored mid-fall, it reports the same sensor and hit events.
#[test]
fn sensors_and_their_overlaps_survive_a_snapshot() {
    use tumble::{BodyDef, Circle, Filter, Polygon, ShapeDef, Vec2};
    let mut world = build_pile(60);
    let zone = world
        .create_body(&BodyDef::static_body().at(Vec2::new(0.0, 2.0)))
        .unwrap();
    let sensor = ShapeDef {
        sensor: true,
        ..ShapeDef::default()
    };
    world
        .create_shape(zone, Polygon::new_box(3.0, 1.0).unwrap(), &sensor)
        .unwrap();
    let odd = ShapeDef {
        hit_events: true,
        filter: Filter {
            group: -1,
            ..Filter::default()
        },
        ..ShapeDef::default()
    };
    for k in 0..6 {
        let b = world
            .create_body(&BodyDef::dynamic().at(Vec2::new(k as f32 - 2.5, 6.0 + k as f32)))
            .unwrap();
        world
            .create_shape(b, Circle::new(Vec2::ZERO, 0.3).unwrap(), &odd)
            .unwrap();
    }
    let events = |w: &World| (w.sensor_events().clone(), w.contact_events().hit.clone());
    for _ in 0..40 {
        advance(&mut world);
    }
    let bytes = postcard::to_allocvec(&world).unwrap();
    let mut restored: World = postcard::from_bytes(&bytes).unwrap();
    let mut sensor_events = 0;
    for _ in 0..200 {
        advance(&mut world);
        advance(&mut restored);
        assert_eq!(events(&world), events(&restored));
        sensor_events += world.sensor_events().begin.len() + world.sensor_events().end.len();
    }
    assert!(
        sensor_events > 10,
        "the scene exercised the sensor: {sensor_events} events"
    );
    assert_eq!(world_hash(&world), world_hash(&restored));
}

#[test]
fn a_snapshot_of_a_world_with_joints_continues_bit_identically() {
    use common::{advance_joints, joint_scene};
    let mut straight = joint_scene(1);
    for _ in 0..240 {
        advance_joints(&mut straight);
    }
    let mut saved = joint_scene(1);
    for _ in 0..120 {
        advance_joints(&mut saved);
    }
    let bytes = postcard::to_allocvec(&saved).unwrap();
    let mut restored: World = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(restored.joint_count(), saved.joint_count());
    let joints: Vec<_> = saved.joints().collect();
    assert_eq!(restored.joints().collect::<Vec<_>>(), joints, "the same handles");
    for &j in &joints {
        assert_eq!(restored.joint_kind(j), saved.joint_kind(j));
        assert_eq!(restored.joint_reaction(j), saved.joint_reaction(j));
    }
    for _ in 120..240 {
        advance_joints(&mut restored);
    }
    assert_eq!(world_hash(&restored), world_hash(&straight));
}

/// Between steps, edits that depend on the world alone (so a restored
/// copy makes the same ones): body types switched both ways, a teleport,
/// a rotation lock set and cleared, a joint made and removed, a shape
/// added to a body in contact, a force that freezes a body and a teleport
/// that frees it, and (with `switch`) the coloring switched to the
/// ordered one and back.
fn edit(world: &mut World, switch: bool) {
    use tumble::{BodyType, Coloring, JointDef, MotionLocks, Polygon, RevoluteJoint, ShapeDef, Vec2};
    let s = world.step_count() as u32;
    let dynamic: Vec<_> = world
        .bodies()
        .filter(|&b| world.body_type(b) == Ok(BodyType::Dynamic))
        .collect();
    if dynamic.len() < 8 {
        return;
    }
    let first_of = |world: &World, kind: BodyType, skip: usize| {
        world
            .bodies()
            .skip(skip)
            .find(|&b| world.body_type(b) == Ok(kind))
    };
    let coloring = |world: &mut World, coloring: Coloring| {
        let settings = tumble::SolverSettings {
            coloring,
            ..*world.solver_settings()
        };
        world.set_solver_settings(settings).unwrap();
    };
    match s % 50 {
        10 => world.set_body_type(dynamic[3], BodyType::Kinematic).unwrap(),
        30 => {
            if let Some(k) = first_of(world, BodyType::Kinematic, 0) {
                world.set_body_type(k, BodyType::Dynamic).unwrap();
            }
        }
        _ => {}
    }
    if s % 37 == 5 {
        world.set_transform(dynamic[5], Vec2::new(0.3, 2.0), 0.4).unwrap();
    }
    match s % 45 {
        20 => world.set_motion_locks(dynamic[2], MotionLocks::ROTATION).unwrap(),
        40 => world
            .set_motion_locks(dynamic[2], MotionLocks::default())
            .unwrap(),
        _ => {}
    }
    match s % 60 {
        15 => {
            let at = world.transform(dynamic[1]).unwrap().p;
            let joint = JointDef::new(dynamic[1], dynamic[7], RevoluteJoint::default())
                .at(world, at)
                .unwrap();
            world.create_joint(&joint).unwrap();
        }
        45 => {
            let oldest = world.joints().next();
            if let Some(j) = oldest {
                world.remove_joint(j).unwrap();
            }
        }
        _ => {}
    }
    if s % 70 == 25 {
        let shape = Polygon::new_box(0.1, 0.1).unwrap();
        world
            .create_shape(dynamic[6], shape, &ShapeDef::default())
            .unwrap();
    }
    if switch {
        match s % 80 {
            50 => coloring(world, Coloring::Ordered),
            60 => coloring(world, Coloring::Bounded),
            _ => {}
        }
    }
    match s % 100 {
        33 => world.apply_torque(dynamic[5], f32::MAX).unwrap(),
        66 => {
            if let Some(&f) = world.frozen_bodies().first() {
                world.set_transform(f, Vec2::new(-2.0, 3.0), 0.1).unwrap();
            }
        }
        _ => {}
    }
    match s % 90 {
        70 => world.set_body_type(dynamic[4], BodyType::Static).unwrap(),
        85 => {
            if let Some(b) = first_of(world, BodyType::Static, 3) {
                world.set_body_type(b, BodyType::Dynamic).unwrap();
            }
        }
        _ => {}
    }
}

/// The pile script with [`edit`]s before every step, saved every ninth
/// step (after its edits): every saved world, loaded and run on with the
/// same edits, ends on the straight run's bits.
fn restored_anywhere_continues(sleeping: bool, switch: bool, workers: usize) {
    const END: u32 = 620;
    let settings = tumble::WorldSettings {
        sleeping,
        workers,
        ..tumble::WorldSettings::default()
    };
    let mut world = common::build_pile_in(40, settings);
    let mut saves = Vec::new();
    for s in 0..END {
        edit(&mut world, switch);
        if s % 9 == 4 {
            saves.push((s, postcard::to_allocvec(&world).unwrap()));
        }
        advance(&mut world);
        if s % 100 == 34 {
            assert!(!world.frozen_bodies().is_empty(), "the force froze a body");
        }
    }
    let want = world_hash(&world);
    for (s, bytes) in saves {
        let mut restored: World = postcard::from_bytes(&bytes)
            .unwrap_or_else(|e| panic!("the world saved at step {s} did not load: {e}"));
        // (Saved after the step's edits: it steps first.)
        advance(&mut restored);
        for _ in s + 1..END {
            edit(&mut restored, switch);
            advance(&mut restored);
        }
        assert_eq!(
            world_hash(&restored),
            want,
            "the world saved at step {s} went its own way"
        );
    }
}

#[test]
fn a_world_edited_between_steps_restores_anywhere_bit_identically() {
    restored_anywhere_continues(false, false, 1);
}

#[test]
fn a_sleeping_world_edited_between_steps_restores_anywhere_bit_identically() {
    restored_anywhere_continues(true, false, 1);
}

#[test]
fn a_world_switching_colorings_restores_anywhere_on_two_workers() {
    restored_anywhere_continues(true, true, 2);
}

#[test]
fn ends_caused_between_steps_are_reported_after_a_restore() {
    use tumble::{BodyDef, Circle, Polygon, ShapeDef, Vec2};
    // A box resting on the ground and a ball in a sensor; the ground and
    // the ball removed between steps: the next step reports both ends,
    // whether or not the world went through a snapshot in between.
    let mut world = World::default();
    let ground = world.create_body(&BodyDef::static_body()).unwrap();
    let floor = world
        .create_shape(ground, Polygon::new_box(10.0, 0.5).unwrap(), &ShapeDef::default())
        .unwrap();
    let sensor_def = ShapeDef {
        sensor: true,
        ..ShapeDef::default()
    };
    world
        .create_shape(
            ground,
            Circle::new(Vec2::new(5.0, 3.0), 1.0).unwrap(),
            &sensor_def,
        )
        .unwrap();
    let crate_ = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(0.0, 1.0)))
        .unwrap();
    world
        .create_shape(crate_, Polygon::new_box(0.5, 0.5).unwrap(), &ShapeDef::default())
        .unwrap();
    let floater = BodyDef {
        gravity_scale: 0.0,
        ..BodyDef::dynamic().at(Vec2::new(5.0, 3.0))
    };
    let ball = world.create_body(&floater).unwrap();
    world
        .create_shape(ball, Circle::new(Vec2::ZERO, 0.2).unwrap(), &ShapeDef::default())
        .unwrap();
    for _ in 0..30 {
        world.step(DT);
    }
    world.remove_shape(floor).unwrap();
    world.remove_body(ball).unwrap();
    let bytes = postcard::to_allocvec(&world).unwrap();
    let mut restored: World = postcard::from_bytes(&bytes).unwrap();
    world.step(DT);
    restored.step(DT);
    assert_eq!(world.contact_events().end.len(), 1);
    assert_eq!(world.sensor_events().end.len(), 1);
    assert_eq!(restored.contact_events(), world.contact_events());
    assert_eq!(restored.sensor_events(), world.sensor_events());
}

/// A tile map (one static body of boxes side by side) with boxes sliding
/// and tumbling over its seams, a tile removed between steps: restored
/// mid-run, it keeps every polygon's seams and carries on bit for bit.
#[test]
fn a_tile_map_and_its_seams_survive_a_snapshot() {
    use tumble::{BodyDef, Circle, Polygon, ShapeDef, Vec2};
    let mut world = World::default();
    let map = world.create_body(&BodyDef::static_body()).unwrap();
    let tiles: Vec<_> = (0..30)
        .map(|i| {
            let tile = Polygon::new_offset_box(0.5, 0.5, Vec2::new(i as f32 + 0.5, -0.5), 0.0).unwrap();
            world.create_shape(map, tile, &ShapeDef::default()).unwrap()
        })
        .collect();
    for k in 0..6 {
        let def = BodyDef::dynamic()
            .at(Vec2::new(1.0 + 2.0 * k as f32, 0.6 + 0.3 * k as f32))
            .with_angle(0.2 * k as f32)
            .with_velocity(Vec2::new(6.0, 0.0));
        let b = world.create_body(&def).unwrap();
        if k % 2 == 0 {
            world
                .create_shape(b, Polygon::new_box(0.4, 0.3).unwrap(), &ShapeDef::default())
                .unwrap();
        } else {
            world
                .create_shape(b, Circle::new(Vec2::ZERO, 0.3).unwrap(), &ShapeDef::default())
                .unwrap();
        }
    }
    for _ in 0..30 {
        world.step(DT);
    }
    world.remove_shape(tiles[20]).unwrap();
    let bytes = postcard::to_allocvec(&world).unwrap();
    let mut restored: World = postcard::from_bytes(&bytes).unwrap();
    for &t in &tiles[..20] {
        assert_eq!(restored.seam_edges(t).unwrap(), world.seam_edges(t).unwrap());
    }
    assert_eq!(restored.seam_edges(tiles[19]).unwrap(), [3]);
    for _ in 0..120 {
        world.step(DT);
        restored.step(DT);
    }
    assert_eq!(world_hash(&world), world_hash(&restored));
}
