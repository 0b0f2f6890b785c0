//! Where each engine's step spends its time, in the engine's own words:
//! one scene stepped in each engine alone, its profile's stages averaged
//! over the steps (`tumble-bench --stages`). The stages of two engines do
//! not split the step at the same places, so compare the totals and read
//! the rows for where each engine's time goes. Not interleaved: for
//! ratios, use the main table.

use crate::engines::EngineKind;
use crate::spec::Spec;

/// An engine's profile, `(stage, ms)` as the engine keeps it, in the
/// form [`crate::engines::Engine::stages`] returns.
pub fn in_ms(stages: &[(&'static str, f32)]) -> Vec<(&'static str, f64)> {
    stages.iter().map(|&(name, ms)| (name, f64::from(ms))).collect()
}

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
}
