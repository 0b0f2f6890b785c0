//! The benchmark's output: a markdown table per scene with the memory
//! figures beside it, or the same rows as JSON.

use crate::engines::{EngineKind, Memory};
use crate::runner::{EngineRun, SceneRun};
use crate::spec::Quality;
use serde_json::{json, Value};
use std::fmt::Write;

/// The quality column's heading for a scene.
pub fn quality_heading(quality: Quality) -> &'static str {
    match quality {
        Quality::WorstMoved => "worst moved (m)",
        Quality::EscapedBox { .. } => "escaped container (bodies)",
        Quality::EscapedCircle { .. } => "escaped tumbler (bodies)",
        Quality::JointGap => "joint gap: mean (cm) / largest (m)",
        Quality::Slide { .. } => "fastest vertical speed (m/s) / slid (m)",
        Quality::Settle { .. } => "range up and down at the end (m)",
        Quality::LimitViolation { .. } => "largest limit violation (deg)",
        Quality::None => "quality",
    }
}

/// A run's quality cell: metres to the millimetre, a body count, a
/// joint gap's mean in centimetres and largest in metres, a slide's
/// fastest vertical speed and distance, or degrees to a tenth.
fn quality_cell(quality: Quality, run: &EngineRun) -> String {
    if let (Quality::Slide { .. }, Some(s)) = (quality, run.slide) {
        return format!("{:.3} / {:.2}", s.max_vertical_speed, s.distance);
    }
    match (quality, run.quality, run.joint_gaps) {
        (Quality::JointGap, _, Some(g)) => format!("{:.2} / {:.3}", 100.0 * g.mean, g.max),
        (Quality::WorstMoved | Quality::Settle { .. }, Some(v), _) => format!("{v:.3}"),
        (Quality::LimitViolation { .. }, Some(v), _) => format!("{v:.1}"),
        (Quality::JointGap, ..) | (_, None, _) => "-".to_string(),
        (_, Some(v), _) => format!("{v:.0}"),
    }
}

/// Tumble's median time over `engine`'s: above 1 Tumble is slower.
pub fn tumble_ratio(scene: &SceneRun, engine: EngineKind) -> Option<f64> {
    let tumble = scene.run(EngineKind::Tumble)?.median_ms;
    let other = scene.run(engine)?.median_ms;
    (other > 0.0).then(|| tumble / other)
}

/// One scene's markdown table.
pub fn markdown_table(scene: &SceneRun) -> String {
    let mut out = String::new();
    let first = scene.runs.first();
    let joints = match first.map_or(0, |r| r.joints) {
        0 => String::new(),
        n => format!(", {n} joints"),
    };
    let _ = writeln!(
        out,
        "### {} ({} bodies{joints}, {} steps)\n",
        scene.scene,
        first.map_or(0, |r| r.bodies),
        first.map_or(0, |r| r.steps)
    );
    let _ = writeln!(
        out,
        "| engine | median ms/step | fastest ms/step | Tumble / engine | {} |",
        quality_heading(scene.quality)
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|");
    for run in &scene.runs {
        let ratio = tumble_ratio(scene, run.engine).map_or("-".to_string(), |r| format!("{r:.2}"));
        let _ = writeln!(
            out,
            "| {} | {:.2} | {:.2} | {} | {} |",
            run.engine.name(),
            run.median_ms,
            run.min_ms,
            ratio,
            quality_cell(scene.quality, run)
        );
    }
    out
}

/// The memory figures of every scene, as markdown lines.
pub fn memory_lines(scenes: &[SceneRun]) -> String {
    let mut out = String::new();
    for scene in scenes {
        for run in &scene.runs {
            match run.memory {
                Some(Memory::Estimated(f)) => {
                    // A scene without contacts (the joint grid's) has no
                    // per-contact figure, and one without joints no
                    // per-joint one.
                    let per_contact = match f.contacts {
                        0 => String::new(),
                        _ => format!(", {} B per contact", f.bytes_per_contact),
                    };
                    let joints = match f.joints {
                        0 => String::new(),
                        n => format!(", {n} joints ({} B each)", f.bytes_per_joint),
                    };
                    let _ = writeln!(
                        out,
                        "- {} / {}: {} B per body{per_contact}; {} bodies, {} contacts{joints}, \
                         about {:.1} MiB",
                        scene.scene,
                        run.engine.name(),
                        f.bytes_per_body,
                        f.bodies,
                        f.contacts,
                        f.total_bytes() as f64 / (1024.0 * 1024.0)
                    );
                }
                Some(Memory::Allocated {
                    bytes,
                    bodies,
                    contacts,
                }) => {
                    let _ = writeln!(
                        out,
                        "- {} / {} (measured, for comparison): {:.1} MiB allocated for {} bodies and {} \
                         contacts, {:.0} B per body all included",
                        scene.scene,
                        run.engine.name(),
                        bytes as f64 / (1024.0 * 1024.0),
                        bodies,
                        contacts,
                        bytes as f64 / bodies.max(1) as f64
                    );
                }
                None => {}
            }
        }
    }
    out
}

/// The whole markdown report: settings, one table per scene, memory.
/// `threads` is what every engine ran on.
pub fn markdown(scenes: &[SceneRun], engines: &[EngineKind], threads: usize) -> String {
    let mut out = String::from("## Tumble vs Box2D vs Rapier\n\n");
    out.push_str(
        "Each engine steps its own copy of each scene at dt = 1/60 s, the engines taking turns \
         10 steps at a time; every step is timed and the median is quoted. \
         \"Tumble / engine\" is Tumble's median over that engine's: above 1, Tumble is slower.\n\n",
    );
    for &engine in engines {
        let _ = writeln!(out, "- {}", engine.settings(threads));
    }
    out.push('\n');
    for scene in scenes {
        out.push_str(&markdown_table(scene));
        out.push('\n');
    }
    let memory = memory_lines(scenes);
    if !memory.is_empty() {
        out.push_str("### Memory\n\n");
        out.push_str(&memory);
        let _ = writeln!(
            out,
            "\nTumble's figures come from {}.",
            crate::memory::breakdown()
        );
    }
    out
}

/// The rows as JSON: `{"rows": [{"scene", "engine", "ms_per_step",
/// "steps", "worst_moved", "escaped", "joint_gap_mean_cm",
/// "joint_gap_max_m", "max_vertical_speed", "distance_slid",
/// "settle_range_m", ...}],
/// "settings": {...}}`, each quality field `null` in the scenes that
/// measure another.
pub fn json(scenes: &[SceneRun], engines: &[EngineKind], threads: usize) -> Value {
    let mut rows = Vec::new();
    for scene in scenes {
        for run in &scene.runs {
            let worst_moved = match scene.quality {
                Quality::WorstMoved => run.quality,
                _ => None,
            };
            let escaped = match scene.quality {
                Quality::EscapedBox { .. } | Quality::EscapedCircle { .. } => run.quality.map(|n| n as u64),
                _ => None,
            };
            let mut row = json!({
                "scene": scene.scene,
                "engine": run.engine.name(),
                "ms_per_step": run.median_ms,
                "min_ms_per_step": run.min_ms,
                "steps": run.steps,
                "bodies": run.bodies,
                "joints": run.joints,
                "worst_moved": worst_moved,
                "escaped": escaped,
                "joint_gap_mean_cm": run.joint_gaps.map(|g| 100.0 * g.mean),
                "joint_gap_max_m": run.joint_gaps.map(|g| g.max),
                "max_vertical_speed": run.slide.map(|s| s.max_vertical_speed),
                "distance_slid": run.slide.map(|s| s.distance),
                "settle_range_m": match scene.quality {
                    Quality::Settle { .. } => run.quality,
                    _ => None,
                },
                "limit_violation_deg": match scene.quality {
                    Quality::LimitViolation { .. } => run.quality,
                    _ => None,
                },
                "tumble_ratio": tumble_ratio(scene, run.engine),
            });
            match run.memory {
                Some(Memory::Estimated(f)) => {
                    row["bytes_per_body"] = json!(f.bytes_per_body);
                    row["bytes_per_contact"] = json!(f.bytes_per_contact);
                    row["bytes_per_joint"] = json!(f.bytes_per_joint);
                    row["contacts"] = json!(f.contacts);
                }
                Some(Memory::Allocated { bytes, contacts, .. }) => {
                    row["allocated_bytes"] = json!(bytes);
                    row["contacts"] = json!(contacts);
                }
                None => {}
            }
            rows.push(row);
        }
    }
    let settings: serde_json::Map<String, Value> = engines
        .iter()
        .map(|e| (e.name().to_string(), json!(e.settings(threads))))
        .collect();
    json!({ "rows": rows, "settings": settings, "threads": threads })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{EngineRun, JointGaps};

    fn joint_scene() -> SceneRun {
        let gaps = JointGaps {
            mean: 0.0123,
            max: 0.456,
        };
        SceneRun {
            scene: "joint-grid",
            quality: Quality::JointGap,
            runs: vec![EngineRun {
                engine: EngineKind::Box2d,
                steps: 500,
                bodies: 10_000,
                joints: 19_800,
                median_ms: 2.0,
                min_ms: 1.5,
                quality: Some(gaps.max),
                joint_gaps: Some(gaps),
                slide: None,
                memory: None,
            }],
        }
    }

    #[test]
    fn a_joint_scene_reports_its_joints_and_their_gap_in_cm_and_m() {
        let table = markdown_table(&joint_scene());
        assert!(
            table.starts_with("### joint-grid (10000 bodies, 19800 joints, 500 steps)"),
            "{table}"
        );
        assert!(
            table.contains("| joint gap: mean (cm) / largest (m) |"),
            "{table}"
        );
        assert!(
            table.contains("| Box2D | 2.00 | 1.50 | - | 1.23 / 0.456 |"),
            "{table}"
        );
        let row = &json(&[joint_scene()], &[EngineKind::Box2d], 1)["rows"][0];
        assert_eq!(row["joints"], 19_800);
        assert!(
            (row["joint_gap_mean_cm"].as_f64().unwrap() - 1.23).abs() < 1e-9,
            "{row}"
        );
        assert_eq!(row["joint_gap_max_m"], 0.456);
        assert!(row["worst_moved"].is_null() && row["escaped"].is_null(), "{row}");
    }
}
