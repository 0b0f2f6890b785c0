//! `tumble measure --json` parses and carries all eight studies
//! (SCENES.md's four, contact recycling, the other solvers, the joints
//! and the qualities beyond the peers), every row with every SCENES.md
//! field.

use tumble_testbed::measure::{
    all_studies, peers, to_json, to_markdown, MeasureOptions, FLAT_VERTICAL_SPEED, FOOT_LIMIT_TARGET_DEG,
    LIMIT_TARGET_DEG,
};

#[test]
fn json_report_has_all_eight_studies_and_every_field() {
    let opts = MeasureOptions {
        scene: None,
        frames: Some(20),
    };
    let rows = all_studies(&opts);
    let json: serde_json::Value = serde_json::from_str(&to_json(&rows)).expect("valid JSON");
    let rows = json["rows"].as_array().expect("a rows array");
    for study in [
        "warm-starting",
        "position-correction",
        "sweep",
        "quality",
        "recycling",
        "solvers",
        "joints",
        "peers",
    ] {
        assert!(rows.iter().any(|r| r["study"] == study), "missing study {study}");
    }
    for r in rows {
        for field in [
            "study",
            "scene",
            "warm_starting",
            "iterations",
            "position_correction",
            "sweep",
            "coloring",
            "contact_recycling",
            "frames",
            "residual_slide",
            "mean_overlap",
            "worst_moved",
            "spread",
            "sink",
            "creep",
            "standing",
        ] {
            assert!(r.get(field).is_some(), "row {r} lacks {field}");
        }
    }
    // The tower rows carry creep; the pyramid rows do not.
    assert!(rows
        .iter()
        .any(|r| r["scene"] == "tower" && r["creep"].is_number()));
    assert!(rows
        .iter()
        .any(|r| r["scene"] == "pyramid" && r["creep"].is_null()));
}

#[test]
fn scene_filter_restricts_the_report() {
    let opts = MeasureOptions {
        scene: Some("tower".into()),
        frames: Some(10),
    };
    let rows = all_studies(&opts);
    assert!(!rows.is_empty());
    assert!(rows
        .iter()
        .all(|r| r.scene.name() == "tower" || r.scene.name() == "stack"));
    let md = to_markdown(&rows);
    assert!(md.contains("Position correction") && md.contains("Sweep order"));
    assert!(!md.contains("Warm starting x iterations"));
}

#[test]
fn the_peers_study_finds_every_row_beyond_the_peers() {
    // The box slides its whole way over the tiles, one body or a body
    // each, never moving up or down faster than a flat floor allows; the
    // impact changes the pair's angular momentum no more than Box2D's
    // does; the welded beam holds straight and still; the motor turns its
    // arm at its speed with the hinge shut; the rope bridge's crate comes
    // to rest. The ragdoll box's and the stairs' hinges are watched as the
    // ragdolls land: both hold their limits to the targets.
    let rows = peers(&MeasureOptions::default());
    assert_eq!(rows.len(), 13);
    let of = |scene: &str| -> Vec<_> { rows.iter().filter(|r| r.scene.name() == scene).collect() };
    let bridge = of("rope-bridge");
    assert_eq!(bridge.len(), 1);
    let range = bridge[0].measured.expect("a figure");
    assert!(range < tumble_scenes::peers::SETTLED_RANGE, "{range}");
    assert_eq!(bridge[0].pass, Some(true));
    let ragdolls = of("ragdoll-box");
    assert_eq!(ragdolls.len(), 1);
    let degrees = ragdolls[0].measured.expect("a figure");
    assert!(degrees < LIMIT_TARGET_DEG, "{degrees}");
    assert_eq!(ragdolls[0].pass, Some(true));
    // The ragdoll on the stairs holds its light feet within 0.05 rad of
    // their limits.
    let stairs = of("ragdoll-stairs");
    assert_eq!(stairs.len(), 1);
    let degrees = stairs[0].measured.expect("a figure");
    assert!(degrees < FOOT_LIMIT_TARGET_DEG, "{degrees}");
    assert_eq!(stairs[0].pass, Some(true));
    for scene in ["tile-floor", "tile-bodies", "impact", "welded-beam", "motor-arm"] {
        let of_scene: Vec<_> = rows.iter().filter(|r| r.scene.name() == scene).collect();
        assert_eq!(of_scene.len(), 2, "{scene}");
        for r in of_scene {
            assert_eq!(r.pass, Some(true), "{scene}: {:?}", r.case);
        }
    }
    let vertical = rows[0].measured.expect("a figure");
    assert!(vertical < FLAT_VERTICAL_SPEED, "{vertical}");
    let (slid, flat) = (
        rows[1].measured.expect("a figure"),
        rows[1].expected.expect("a figure"),
    );
    assert!((slid - flat).abs() <= 0.01 * flat, "{slid} of {flat}");
    let md = to_markdown(&rows);
    assert!(md.contains("Beyond the peers") && md.contains("tiles of one body: distance slid (m)"));
}
