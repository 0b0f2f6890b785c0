//! The snapshot's envelope (version, checksum) and the checks of the links
//! between the stores, which a snapshot whose checksum matches (one built
//! by hand, or by a build with a bug) must still pass.

use super::*;
use crate::world::tests::{ground, unit_box, DT};
use crate::{BodyType, Vec2};

/// A few boxes settling on a ground, still awake, touching.
fn pile() -> World {
    let mut world = World::default();
    ground(&mut world);
    for k in 0..4 {
        unit_box(&mut world, Vec2::new(0.3 * k as f32, 0.5 + 1.1 * k as f32));
    }
    for _ in 0..30 {
        world.step(DT);
    }
    assert!(world.awake_body_count() > 0 && world.contact_count() > 0);
    world
}

/// `world` saved, its state edited as JSON, and loaded from an envelope
/// whose checksum matches the edited state: what the link checks say.
fn load_edited(world: &World, edit: impl FnOnce(&mut serde_json::Value)) -> Result<World, String> {
    let state = postcard::to_allocvec(&world.snapshot_ref()).unwrap();
    let decoded: Snapshot = postcard::from_bytes(&state).unwrap();
    let mut value = serde_json::to_value(&decoded).unwrap();
    edit(&mut value);
    let edited: Snapshot = serde_json::from_value(value).map_err(|e| e.to_string())?;
    let bytes = postcard::to_allocvec(&edited).unwrap();
    let envelope = serde_json::json!({
        "version": SNAPSHOT_VERSION,
        "checksum": checksum(&bytes),
        "state": bytes,
    });
    serde_json::from_value::<World>(envelope).map_err(|e| e.to_string())
}

#[test]
fn the_checksum_is_crc64_xz() {
    // The catalogue's check value of CRC-64/XZ.
    assert_eq!(checksum(b"123456789"), 0x995D_C9BB_DF19_39FA);
    assert_eq!(checksum(b""), 0);
}

#[test]
fn an_unedited_state_loads_through_the_test_path() {
    let world = pile();
    let loaded = load_edited(&world, |_| {}).unwrap();
    assert_eq!(
        postcard::to_allocvec(&loaded).unwrap(),
        postcard::to_allocvec(&world).unwrap()
    );
}

#[test]
fn broken_links_are_refused_by_name() {
    let world = pile();
    let good = serde_json::to_value(
        postcard::from_bytes::<Snapshot>(&postcard::to_allocvec(&world.snapshot_ref()).unwrap()).unwrap(),
    )
    .unwrap();
    let refused = |edit: &dyn Fn(&mut serde_json::Value), says: &str| {
        let err = load_edited(&world, edit).map(|_| ()).unwrap_err();
        assert!(err.contains(says), "expected {says:?}: {err}");
    };
    refused(&|v| v["bodies"]["values"][0]["shapes"][0] = 9999.into(), "shape");
    refused(&|v| v["shapes"]["values"][0]["body"] = 9999.into(), "attached");
    let proxy = good["shapes"]["values"][0]["proxy"].as_u64().unwrap() as usize;
    refused(
        &|v| {
            let aabb = &mut v["broadphase"]["tree"]["nodes"][proxy]["aabb"];
            aabb["min"][0] = 9999.0.into();
            aabb["max"][0] = 10000.0.into();
        },
        // (The tree's own check sees the leaf outside its parent's box.)
        "box",
    );
    refused(&|v| v["last_dt"] = (-1.0).into(), "last step");
    let live = good["contacts"]["meta"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| m["alive"] == true)
        .expect("a live contact");
    refused(
        &|v| v["contacts"]["values"][live]["cache"]["limit"] = (-1.0).into(),
        "recycling cache",
    );
    refused(
        &|v| v["contacts"]["values"][live]["edges"][0]["next"] = 9999.into(),
        "contact list",
    );
    let dynamic = good["bodies"]["values"]
        .as_array()
        .unwrap()
        .iter()
        .position(|b| b["island"].as_u64() != Some(u32::MAX as u64))
        .expect("a body in an island");
    refused(
        &|v| v["bodies"]["values"][dynamic]["island_next"] = 9999.into(),
        "island",
    );
    refused(&|v| v["awake"]["contacts"]["count"] = 0.into(), "awake set");
    assert!(load_edited(&world, |v| v["bodies"]["free"] = serde_json::json!([0])).is_err());
    refused(
        &|v| v["settings"]["solver"]["iterations"] = 0.into(),
        "solver settings",
    );
}

#[test]
fn world_settings_out_of_range_are_refused() {
    // Each would panic or poison the first step (a clamp between NaN
    // bounds, a speculative margin of -inf).
    let world = pile();
    let refused = |edit: &dyn Fn(&mut serde_json::Value)| {
        let err = load_edited(&world, edit).map(|_| ()).unwrap_err();
        assert!(err.contains("out of range"), "{err}");
    };
    refused(&|v| v["settings"]["length_units_per_meter"] = (-1.0).into());
    refused(&|v| v["settings"]["length_units_per_meter"] = 0.0.into());
    refused(&|v| v["settings"]["hit_event_threshold"] = (-2.0).into());
    refused(&|v| v["settings"]["max_step_splits"] = 0.into());
    refused(&|v| v["settings"]["gravity"][1] = 1e39.into());
}

/// Every link of every tree node, and each moved-proxy record, pointed
/// somewhere else: refused when loaded, or loaded into a world that
/// steps and answers queries (an edit can leave a valid tree).
#[test]
fn a_damaged_broadphase_is_refused_not_a_later_panic() {
    let mut world = pile();
    // Something in the moved list.
    let b = world.bodies().nth(1).unwrap();
    world.set_transform(b, Vec2::new(0.0, 5.0), 0.0).unwrap();
    let good = serde_json::to_value(
        postcard::from_bytes::<Snapshot>(&postcard::to_allocvec(&world.snapshot_ref()).unwrap()).unwrap(),
    )
    .unwrap();
    let nodes = good["broadphase"]["tree"]["nodes"].as_array().unwrap().len();
    let mut refusals = 0;
    let mut tried = 0;
    let mut try_edit = |edit: &dyn Fn(&mut serde_json::Value)| {
        tried += 1;
        match load_edited(&world, edit) {
            Err(_) => refusals += 1,
            Ok(mut loaded) => {
                loaded.step(DT);
                let _ =
                    loaded.ray_cast_closest(Vec2::new(-5.0, 0.3), Vec2::new(10.0, 0.0), Default::default());
            }
        }
    };
    for k in 0..nodes {
        for field in ["parent_or_next", "child1", "child2"] {
            for value in [0u64, 1, k as u64, nodes as u64, u32::MAX as u64 - 1] {
                try_edit(&|v| v["broadphase"]["tree"]["nodes"][k][field] = value.into());
            }
        }
        try_edit(&|v| v["broadphase"]["tree"]["nodes"][k]["height"] = 3.into());
    }
    for value in [0u64, nodes as u64, u32::MAX as u64 - 1] {
        try_edit(&|v| v["broadphase"]["tree"]["root"] = value.into());
        try_edit(&|v| v["broadphase"]["tree"]["free_list"] = value.into());
        try_edit(&|v| v["broadphase"]["move_buffer"][0] = value.into());
    }
    try_edit(&|v| v["broadphase"]["in_move_buffer"] = serde_json::json!([]));
    try_edit(&|v| v["broadphase"]["margin"] = (-1.0).into());
    assert!(refusals > tried / 2, "{refusals} of {tried} refused");
}

/// A state holding infinities and NaN (a frozen body's, which nothing
/// holds finite) is what the engine may write, so it loads in any format,
/// JSON included, bit for bit.
#[test]
fn non_finite_numbers_survive_a_json_snapshot() {
    let mut world = pile();
    let bi = world
        .bodies
        .iter()
        .find(|(_, b)| b.body_type == BodyType::Dynamic)
        .unwrap()
        .0;
    let id = world.body_id(bi);
    world.bodies[bi].frozen = true;
    world.bodies[bi].v = Vec2::new(f32::INFINITY, f32::NAN);
    world.bodies[bi].w = f32::NEG_INFINITY;
    world.frozen.push(id);
    let json = serde_json::to_string(&world).unwrap();
    let loaded: World = serde_json::from_str(&json).unwrap();
    assert_eq!(serde_json::to_string(&loaded).unwrap(), json);
    let v = loaded.bodies[bi].v;
    assert!(v.x == f32::INFINITY && v.y.is_nan() && loaded.bodies[bi].w == f32::NEG_INFINITY);
}
