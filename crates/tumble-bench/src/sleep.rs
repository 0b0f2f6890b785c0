//! The sleep scenes: the 100-row pyramid (`sleep`) and the many pyramids
//! (`sleep-many`) with sleeping on in every engine. It measures when the pyramid is entirely asleep, what a step
//! costs while it settles and once it sleeps, and what the step right after
//! waking every body costs (the worst frame a game sees when an explosion
//! wakes a settled level).
//!
//! The engines take turns as in [`crate::runner`], a chunk of steps each,
//! every step timed; an engine stops once it has been asleep for
//! [`ASLEEP_STEPS`] steps, or after [`MAX_STEPS`]. Then, [`WAKE_REPEATS`]
//! times each, every body is woken (untimed), one step is timed, and the
//! engine steps on untimed until it is asleep again.

use crate::engines::EngineKind;
use crate::spec::Spec;
use crate::timing::median;
use std::time::Instant;

/// The scene's name on the command line and in the output.
pub const SCENE: &str = "sleep";

/// The second sleep scene: `many-pyramids` (22 020 bodies in 400 small
/// pyramids) with sleeping on, where every engine's pyramids settle.
pub const SCENE_MANY: &str = "sleep-many";

/// Both sleep scenes.
pub const SCENES: [&str; 2] = [SCENE, SCENE_MANY];

/// The longest an engine is given to fall asleep: 30 s of simulated time.
pub const MAX_STEPS: u32 = 1800;

/// Steps timed once an engine is asleep.
pub const ASLEEP_STEPS: u32 = 120;

/// How many times each engine is woken and the next step timed.
pub const WAKE_REPEATS: u32 = 5;

/// The spec of sleep scene `name` ([`SCENES`]): the benchmark's large
/// pyramid, or its many pyramids, sleeping on.
pub fn spec(name: &str) -> Option<Spec> {
    let (name, base) = match name {
        SCENE => (SCENE, crate::spec::large_pyramid()),
        SCENE_MANY => (SCENE_MANY, crate::spec::many_pyramids()),
        _ => return None,
    };
    Some(Spec {
        name,
        steps: MAX_STEPS,
        sleeping: true,
        ..base
    })
}

/// One engine's run of a sleep scene.
#[derive(Clone, Debug, PartialEq)]
pub struct SleepRun {
    /// Which scene.
    pub scene: &'static str,
    /// Which engine.
    pub engine: EngineKind,
    /// Bodies in the engine's world.
    pub bodies: usize,
    /// The first step after which no body was awake, if any was within
    /// [`MAX_STEPS`].
    pub asleep_at_step: Option<u32>,
    /// Median ms of the steps before that.
    pub ms_awake: f64,
    /// Median ms of the steps after it.
    pub ms_asleep: Option<f64>,
    /// Median ms of the step right after waking every body.
    pub ms_after_wake: Option<f64>,
}

/// One engine's progress through the sleep protocol.
#[derive(Default)]
struct Progress {
    steps: u32,
    asleep_at: Option<u32>,
    awake_ms: Vec<f64>,
    asleep_ms: Vec<f64>,
}

impl Progress {
    /// Asleep long enough, or out of steps.
    fn done(&self) -> bool {
        self.steps >= MAX_STEPS || self.asleep_ms.len() as u32 >= ASLEEP_STEPS
    }
}

/// One step of `sim`, timed, in milliseconds.
fn timed_step(sim: &mut dyn crate::engines::Engine) -> f64 {
    let t = Instant::now();
    sim.step();
    t.elapsed().as_secs_f64() * 1e3
}

/// Runs the sleep scene in each engine, `chunk` steps a turn, on
/// `threads` threads.
pub fn run(spec: &Spec, engines: &[EngineKind], chunk: u32, threads: usize) -> Vec<SleepRun> {
    let mut sims: Vec<_> = engines.iter().map(|e| e.build_on(spec, threads)).collect();
    let mut progress: Vec<Progress> = engines.iter().map(|_| Progress::default()).collect();
    let chunk = chunk.max(1);
    while progress.iter().any(|p| !p.done()) {
        for (sim, p) in sims.iter_mut().zip(&mut progress) {
            for _ in 0..chunk {
                if p.done() {
                    break;
                }
                let ms = timed_step(sim.as_mut());
                p.steps += 1;
                if p.asleep_at.is_some() {
                    p.asleep_ms.push(ms);
                } else {
                    p.awake_ms.push(ms);
                    if sim.awake_count() == 0 {
                        p.asleep_at = Some(p.steps);
                    }
                }
            }
        }
    }
    let mut runs = Vec::new();
    for ((&engine, sim), mut p) in engines.iter().zip(&mut sims).zip(progress) {
        let mut wake_ms = Vec::new();
        if p.asleep_at.is_some() {
            for _ in 0..WAKE_REPEATS {
                sim.wake_all();
                wake_ms.push(timed_step(sim.as_mut()));
                for _ in 0..MAX_STEPS {
                    if sim.awake_count() == 0 {
                        break;
                    }
                    sim.step();
                }
            }
        }
        runs.push(SleepRun {
            scene: spec.name,
            engine,
            bodies: sim.body_count(),
            asleep_at_step: p.asleep_at,
            ms_awake: median(&mut p.awake_ms),
            ms_asleep: p.asleep_at.map(|_| median(&mut p.asleep_ms)),
            ms_after_wake: (!wake_ms.is_empty()).then(|| median(&mut wake_ms)),
        });
    }
    runs
}

/// The markdown table of a run.
pub fn markdown(runs: &[SleepRun]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let bodies = runs.first().map_or(0, |r| r.bodies);
    let scene = runs.first().map_or(SCENE, |r| r.scene);
    let _ = writeln!(out, "### {scene} ({bodies} bodies, sleeping on)\n");
    let _ = writeln!(
        out,
        "| engine | asleep at step | ms/step awake | ms/step asleep | asleep / awake | ms after waking | after waking / awake |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|");
    let cell = |x: Option<f64>, digits: usize| x.map_or("-".to_string(), |v| format!("{v:.digits$}"));
    for r in runs {
        let ratio = |x: Option<f64>| x.filter(|_| r.ms_awake > 0.0).map(|v| v / r.ms_awake);
        let _ = writeln!(
            out,
            "| {} | {} | {:.3} | {} | {} | {} | {} |",
            r.engine.name(),
            r.asleep_at_step.map_or("never".to_string(), |s| s.to_string()),
            r.ms_awake,
            cell(r.ms_asleep, 4),
            cell(ratio(r.ms_asleep), 4),
            cell(r.ms_after_wake, 3),
            cell(ratio(r.ms_after_wake), 2),
        );
    }
    out
}

/// The JSON rows of a run.
pub fn json_rows(runs: &[SleepRun]) -> Vec<serde_json::Value> {
    runs.iter()
        .map(|r| {
            serde_json::json!({
                "scene": r.scene,
                "engine": r.engine.name(),
                "bodies": r.bodies,
                "asleep_at_step": r.asleep_at_step,
                "ms_awake": r.ms_awake,
                "ms_asleep": r.ms_asleep,
                "ms_after_wake": r.ms_after_wake,
            })
        })
        .collect()
}
