//! Where each engine's step spends its time, in the engine's own words:
//! one scene stepped in each engine alone, its profile's stages averaged
//! over the steps (`tumble-bench --stages`). The stages of two engines do
//! not split the step at the same places, so compare the totals and read
//! the rows for where each engine's time goes. Not interleaved: for
//! ratios, use the main table. [`scaling`] does interleave: Tumble on one
//! thread beside Tumble on several, stage by stage.

use crate::engines::EngineKind;
use crate::spec::Spec;

/// One engine's mean stage times over a run.
#[derive(Clone, Debug, PartialEq)]
pub struct StageRun {
    /// The engine.
    pub engine: EngineKind,
    /// Each stage's mean milliseconds per step, in the profile's order.
    pub stages: Vec<(&'static str, f64)>,
}

/// Steps `spec` `steps` times in each of `engines` on `threads` threads
/// and averages the stages each engine reports (an engine with no
/// profile has none).
pub fn run(spec: &Spec, engines: &[EngineKind], steps: u32, threads: usize) -> Vec<StageRun> {
    engines
        .iter()
        .map(|&engine| {
            let mut scene = engine.build_on(spec, threads);
            let mut sums: Vec<(&'static str, f64)> = Vec::new();
            for _ in 0..steps {
                scene.step();
                let stages = scene.stages();
                if sums.is_empty() {
                    sums = stages.iter().map(|&(name, _)| (name, 0.0)).collect();
                }
                for (sum, (_, ms)) in sums.iter_mut().zip(stages) {
                    sum.1 += ms;
                }
            }
            let n = f64::from(steps.max(1));
            StageRun {
                engine,
                stages: sums.into_iter().map(|(name, ms)| (name, ms / n)).collect(),
            }
        })
        .collect()
}

/// A markdown table per engine: stage and mean milliseconds per step.
pub fn markdown(scene: &str, runs: &[StageRun]) -> String {
    let mut out = String::new();
    for run in runs.iter().filter(|r| !r.stages.is_empty()) {
        out += &format!("\n### {scene}: {} stages (mean ms/step)\n\n", run.engine.name());
        out += "| stage | ms/step |\n|---|---:|\n";
        for (name, ms) in &run.stages {
            out += &format!("| {name} | {ms:.2} |\n");
        }
    }
    out
}

/// Tumble's own speed-up from one thread to several, stage by stage: the
/// median milliseconds per step of each stage on one worker and on
/// `threads`, the two worlds stepped in turn `chunk` steps at a time
/// (`tumble-bench --scaling`).
#[derive(Clone, Debug, PartialEq)]
pub struct Scaling {
    /// The worker count compared with one.
    pub threads: usize,
    /// Per stage, in the profile's order: its median on one worker and
    /// on `threads`.
    pub stages: Vec<(&'static str, f64, f64)>,
}

/// The steps each world of [`scaling`] takes per turn unless told: 50.
/// While the one-worker world takes its turn the machine's other cores
/// sit idle, and on a virtual machine an idle core comes back slowly: the
/// first few steps on two workers after a turn on one run up to twice as
/// long as the rest. At 10 steps a turn that wake-up sets the 2-worker
/// median and understates the speed-up by a third; at 50 it is a few
/// steps of every turn.
pub const SCALING_CHUNK: u32 = 50;

/// Steps `spec` in two Tumble worlds, one on one worker and one on
/// `threads`, `steps` steps each, taking turns `chunk` steps at a time
/// so the machine's load falls on both alike, and takes each stage's
/// median over the steps.
pub fn scaling(spec: &Spec, steps: u32, chunk: u32, threads: usize) -> Scaling {
    let mut worlds = [
        EngineKind::Tumble.build_on(spec, 1),
        EngineKind::Tumble.build_on(spec, threads),
    ];
    let mut samples: [Vec<Vec<f64>>; 2] = [Vec::new(), Vec::new()];
    let mut names = Vec::new();
    crate::timing::in_turns(&mut worlds, steps, chunk, |k, world| {
        world.step();
        let stages = world.stages();
        let samples = &mut samples[k];
        if samples.is_empty() {
            names = stages.iter().map(|&(name, _)| name).collect();
            samples.resize(stages.len(), Vec::new());
        }
        for (sample, (_, ms)) in samples.iter_mut().zip(stages) {
            sample.push(ms);
        }
    });
    let [mut one, mut many] = samples;
    let stages = names
        .into_iter()
        .zip(one.iter_mut().zip(many.iter_mut()))
        .map(|(name, (a, b))| (name, crate::timing::median(a), crate::timing::median(b)))
        .collect();
    Scaling { threads, stages }
}

/// A markdown table of a [`Scaling`]: each stage's medians and the
/// speed-up (one worker's time over the others').
pub fn scaling_markdown(scene: &str, run: &Scaling) -> String {
    let n = run.threads;
    let mut out = format!(
        "\n### {scene}: Tumble on 1 and {n} threads (median ms/step)\n\n\
         | stage | 1 thread | {n} threads | speed-up |\n|---|---:|---:|---:|\n"
    );
    for (name, one, many) in &run.stages {
        let speedup = if *many > 0.0 && *one > 0.0 {
            format!("{:.2}", one / many)
        } else {
            "-".to_string()
        };
        out += &format!("| {name} | {one:.3} | {many:.3} | {speedup} |\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tumble_and_box2d_report_stages_that_add_up_to_their_step() {
        let spec = crate::spec::build("pile").unwrap();
        let runs = run(&spec, &[EngineKind::Tumble, EngineKind::Box2d], 5, 1);
        for r in &runs {
            let total = r.stages.iter().find(|(n, _)| *n == "step").unwrap().1;
            assert!(total > 0.0, "{r:?}");
            // The top-level stages (not the solve's parts) sum to at most
            // the step.
            let top: f64 = r
                .stages
                .iter()
                .filter(|(n, _)| *n != "step" && !n.starts_with("solve:"))
                .map(|(_, ms)| ms)
                .sum();
            assert!(top <= total * 1.01 + 1e-3, "{r:?}");
            assert!(top > 0.5 * total, "{r:?}");
        }
        let text = markdown("pile", &runs);
        assert!(
            text.contains("Tumble stages") && text.contains("Box2D stages"),
            "{text}"
        );
        // Rapier keeps no profile here: no table.
        let rapier = run(&spec, &[EngineKind::Rapier], 2, 1);
        assert!(markdown("pile", &rapier).is_empty());
    }

    #[test]
    fn scaling_compares_every_stage_on_one_and_two_threads() {
        let spec = crate::spec::build("pile").unwrap();
        let run = scaling(&spec, 7, 3, 2);
        assert_eq!(run.threads, 2);
        let step = run.stages.iter().find(|(n, _, _)| *n == "step").unwrap();
        assert!(step.1 > 0.0 && step.2 > 0.0, "{run:?}");
        assert!(run.stages.iter().any(|(n, _, _)| *n == "solve: substeps"));
        let text = scaling_markdown("pile", &run);
        assert!(text.contains("| step |") && text.contains("2 threads"), "{text}");
    }
}
