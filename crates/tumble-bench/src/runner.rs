//! Runs the engines side by side: each advances its own copy of the scene
//! by a chunk of steps in turn (A B C A B C ...), every step timed on its
//! own, so a burst of machine noise lands on all engines alike; the median
//! step time is the figure quoted.

use crate::engines::{Engine, EngineKind, Memory};
use crate::spec::{Motion, Quality, Spec, V2};
use crate::timing::{in_turns, median};
use std::time::Instant;
use tumble_scenes::peers::Slide;

/// Steps each engine takes before handing over to the next.
pub const CHUNK: u32 = 10;

/// One engine's run of one scene.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineRun {
    /// Which engine.
    pub engine: EngineKind,
    /// Steps taken.
    pub steps: u32,
    /// Bodies in the engine's world.
    pub bodies: usize,
    /// Joints in the engine's world.
    pub joints: usize,
    /// Median wall-clock time of one step, milliseconds.
    pub median_ms: f64,
    /// Fastest step, milliseconds.
    pub min_ms: f64,
    /// The scene's quality figure at the end (see [`Quality`]): metres for
    /// worst moved and for the largest joint gap, a body count for the
    /// escape checks, metres per second for a slide's fastest vertical
    /// speed, metres for a settling body's range over the last steps.
    pub quality: Option<f64>,
    /// The joints' gaps at the end, for a scene whose quality is
    /// [`Quality::JointGap`].
    pub joint_gaps: Option<JointGaps>,
    /// How the sliding body slid, for a scene whose quality is
    /// [`Quality::Slide`]: the fastest it moved up or down at the end of
    /// a step (read between the timed steps), and how far it went.
    pub slide: Option<Slide>,
    /// Memory figures at the end of the run, where the engine has them.
    pub memory: Option<Memory>,
}

/// The mean and the largest distance between the two anchors of a
/// scene's joints, metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointGaps {
    /// The mean gap.
    pub mean: f64,
    /// The largest gap.
    pub max: f64,
}

impl JointGaps {
    /// The mean and the largest of `gaps`; `None` if there are none.
    pub fn of(gaps: &[f32]) -> Option<JointGaps> {
        if gaps.is_empty() {
            return None;
        }
        let sum: f64 = gaps.iter().map(|&g| g as f64).sum();
        Some(JointGaps {
            mean: sum / gaps.len() as f64,
            max: gaps.iter().map(|&g| g as f64).fold(0.0, f64::max),
        })
    }
}

/// All engines' runs of one scene.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneRun {
    /// The scene's name.
    pub scene: &'static str,
    /// What [`EngineRun::quality`] measures.
    pub quality: Quality,
    /// One run per engine, in the order they were asked for.
    pub runs: Vec<EngineRun>,
}

impl SceneRun {
    /// The run of one engine, if it took part.
    pub fn run(&self, engine: EngineKind) -> Option<&EngineRun> {
        self.runs.iter().find(|r| r.engine == engine)
    }
}

/// The scene's quality figure from where the bodies started and ended;
/// `None` for [`Quality::JointGap`], which is measured on the engine's
/// joints ([`Engine::joint_gaps`], [`JointGaps`]) instead, and for
/// [`Quality::Slide`], whose figure is its body's speed over the run
/// ([`Slide`]), and for [`Quality::Settle`], whose figure is its body's
/// range over the run's last steps.
pub fn quality(spec: &Spec, start: &[V2], end: &[V2]) -> Option<f64> {
    let dynamic = || {
        spec.bodies
            .iter()
            .zip(start.iter().zip(end))
            .filter(|(b, _)| b.motion == Motion::Dynamic)
            .map(|(_, (&s, &e))| (s, e))
    };
    match spec.quality {
        Quality::WorstMoved => Some(dynamic().map(|(s, e)| s.distance(e) as f64).fold(0.0, f64::max)),
        Quality::EscapedBox { min, max } => Some(
            dynamic()
                .filter(|(_, e)| !(e.x >= min.x && e.x <= max.x && e.y >= min.y && e.y <= max.y))
                .count() as f64,
        ),
        Quality::EscapedCircle { center, radius } => {
            Some(dynamic().filter(|(_, e)| e.distance(center) > radius).count() as f64)
        }
        Quality::JointGap
        | Quality::Slide { .. }
        | Quality::Settle { .. }
        | Quality::LimitViolation { .. }
        | Quality::None => None,
    }
}

/// Builds the scene in each engine and runs them in turn, `chunk` steps at
/// a time, for `steps` steps each, every engine on `threads` threads.
pub fn run_scene(spec: &Spec, engines: &[EngineKind], steps: u32, chunk: u32, threads: usize) -> SceneRun {
    let mut sims: Vec<Box<dyn Engine>> = engines.iter().map(|e| e.build_on(spec, threads)).collect();
    let starts: Vec<Vec<V2>> = sims.iter_mut().map(|s| s.centers()).collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(steps as usize); sims.len()];
    let slider = match spec.quality {
        Quality::Slide { body } => Some(body),
        _ => None,
    };
    let mut vertical = vec![0.0f32; sims.len()];
    // (The settling body's lowest and highest center height over the
    // window, per engine.)
    let mut heights = vec![(f32::INFINITY, f32::NEG_INFINITY); sims.len()];
    // (The largest limit violation over the watched steps, per engine.)
    let mut violations = vec![0.0f32; sims.len()];
    in_turns(&mut sims, steps, chunk, |k, sim| {
        let t = Instant::now();
        sim.step();
        times[k].push(t.elapsed().as_secs_f64() * 1e3);
        if let Some(body) = slider {
            vertical[k] = vertical[k].max(sim.velocity(body).y.abs());
        }
        if let Quality::LimitViolation { after } = spec.quality {
            if times[k].len() as u32 > after {
                let v = crate::spec::limit_violation(spec, &sim.angles());
                violations[k] = violations[k].max(v);
            }
        }
        if let Quality::Settle { body, window } = spec.quality {
            // (Steps taken: one time each.)
            if times[k].len() as u32 + window > steps {
                let y = sim.centers()[body].y;
                heights[k] = (heights[k].0.min(y), heights[k].1.max(y));
            }
        }
    });
    let mut runs = Vec::new();
    let mut each = engines
        .iter()
        .zip(&mut sims)
        .zip(&starts)
        .zip(times)
        .zip(vertical.into_iter().zip(heights).zip(violations));
    for ((((&engine, sim), start), mut times), ((vertical, (low, high)), violation)) in &mut each {
        let end = sim.centers();
        let joint_gaps = match spec.quality {
            Quality::JointGap => JointGaps::of(&sim.joint_gaps()),
            _ => None,
        };
        let slide = slider.map(|body| Slide {
            max_vertical_speed: vertical,
            distance: end[body].x - start[body].x,
        });
        let median_ms = median(&mut times);
        let min_ms = times.first().copied().unwrap_or(0.0);
        runs.push(EngineRun {
            engine,
            steps,
            bodies: sim.body_count(),
            joints: sim.joint_count(),
            median_ms,
            min_ms,
            quality: joint_gaps
                .map(|g| g.max)
                .or(slide.map(|s| s.max_vertical_speed as f64))
                .or(matches!(spec.quality, Quality::Settle { .. }).then(|| f64::from(high - low)))
                .or(matches!(spec.quality, Quality::LimitViolation { .. })
                    .then(|| f64::from(violation.to_degrees())))
                .or_else(|| quality(spec, start, &end)),
            joint_gaps,
            slide,
            memory: sim.memory(),
        });
    }
    SceneRun {
        scene: spec.name,
        quality: spec.quality,
        runs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joint_gaps_are_the_mean_and_the_largest() {
        let gaps = JointGaps::of(&[0.01, 0.03, 0.02, 0.5]).unwrap();
        assert!((gaps.mean - 0.14).abs() < 1e-7, "{gaps:?}");
        assert!((gaps.max - 0.5).abs() < 1e-7, "{gaps:?}");
        assert_eq!(JointGaps::of(&[]), None);
    }

    #[test]
    fn a_settling_body_is_judged_by_its_range_over_the_last_steps() {
        // The rope bridge's crate, falling freely over its first 20 steps,
        // watched over the last 10: the run's figure is the range of the
        // heights the same world passes through over those steps.
        let mut spec = crate::spec::rope_bridge();
        let body = spec.bodies.len() - 1;
        spec.quality = Quality::Settle { body, window: 10 };
        let run = run_scene(&spec, &[EngineKind::Tumble], 20, 3, 1);
        let mut sim = EngineKind::Tumble.build(&spec);
        let heights: Vec<f32> = (0..20)
            .map(|_| {
                sim.step();
                sim.centers()[body].y
            })
            .collect();
        let last = &heights[10..];
        let range =
            last.iter().fold(f32::MIN, |a, &b| a.max(b)) - last.iter().fold(f32::MAX, |a, &b| a.min(b));
        assert!(range > 0.1, "the crate fell {range} m");
        assert_eq!(run.runs[0].quality, Some(f64::from(range)));
    }

    #[test]
    fn a_limit_violation_is_the_largest_over_the_watched_steps() {
        // The ragdoll box's first 20 steps, watched after the first 5 (the
        // ragdolls start with knees and elbows outside their ranges): the
        // run's figure is the largest violation, in degrees, the same
        // world reaches over those steps.
        let mut spec = crate::spec::ragdoll_box();
        spec.quality = Quality::LimitViolation { after: 5 };
        let run = run_scene(&spec, &[EngineKind::Tumble], 20, 3, 1);
        let mut sim = EngineKind::Tumble.build(&spec);
        let worst = (0..20)
            .map(|k| {
                sim.step();
                let v = crate::spec::limit_violation(&spec, &sim.angles());
                if k >= 5 {
                    v
                } else {
                    0.0
                }
            })
            .fold(0.0f32, f32::max);
        assert!(worst > 0.0, "no hinge past its limits");
        assert_eq!(run.runs[0].quality, Some(f64::from(worst.to_degrees())));
    }
}
