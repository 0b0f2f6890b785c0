//! `tumble measure --json` parses and carries all seven studies
//! (SCENES.md's four, contact recycling, the other solvers and the
//! joints), every row with every SCENES.md field.

use tumble_testbed::measure::{all_studies, to_json, to_markdown, MeasureOptions};

#[test]
fn json_report_has_all_seven_studies_and_every_field() {
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
