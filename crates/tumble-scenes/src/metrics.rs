//! The stability metrics of SCENES.md.

use crate::{Scene, SceneName, DT};
use tumble::Vec2;

/// The SCENES.md metrics of one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Metrics {
    /// Frames run.
    pub frames: u32,
    /// Mean linear speed of the dynamic bodies, averaged over the last 60
    /// frames (m/s).
    pub residual_slide: f32,
    /// Mean penetration depth over all contact points of all manifolds in
    /// the final frame, 0 where a point is not penetrating (m).
    pub mean_overlap: f32,
    /// Largest distance any tracked body's center moved from its start (m).
    pub worst_moved: f32,
    /// Largest horizontal distance any tracked body's center moved (m).
    pub spread: f32,
    /// Largest downward distance any tracked body's center moved (m).
    pub sink: f32,
    /// Tower and stack only: horizontal distance the top box moved (m).
    pub creep: Option<f32>,
    /// True when spread < 0.25 m.
    pub standing: bool,
}

/// Follows a scene frame by frame and computes its metrics.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    speeds: Vec<f32>,
}

/// How many final frames the residual slide averages over.
pub const SLIDE_WINDOW: usize = 60;

/// Spread below which a scene is standing: a quarter of a box.
pub const STANDING_SPREAD: f32 = 0.25;

impl Recorder {
    /// Records one frame (call after each step).
    pub fn record(&mut self, scene: &Scene) {
        let n = scene.tracked.len().max(1) as f32;
        let total: f32 = scene
            .tracked
            .iter()
            .filter_map(|&b| scene.world.linear_velocity(b).ok())
            .map(|v| v.length())
            .sum();
        self.speeds.push(total / n);
    }

    /// The metrics of the scene's current state, with the slide over the
    /// recorded frames.
    pub fn metrics(&self, scene: &Scene) -> Metrics {
        let window = &self.speeds[self.speeds.len().saturating_sub(SLIDE_WINDOW)..];
        let residual_slide = if window.is_empty() {
            0.0
        } else {
            window.iter().sum::<f32>() / window.len() as f32
        };
        let (mut depth_sum, mut points) = (0.0f64, 0usize);
        for c in scene.world.contacts() {
            for p in c.manifold.points() {
                depth_sum += p.depth() as f64;
                points += 1;
            }
        }
        let mean_overlap = if points == 0 {
            0.0
        } else {
            (depth_sum / points as f64) as f32
        };
        let (mut worst_moved, mut spread, mut sink) = (0.0f32, 0.0f32, 0.0f32);
        for (&b, &start) in scene.tracked.iter().zip(&scene.start) {
            let Ok(p) = scene.world.center_of_mass(b) else {
                continue;
            };
            let d: Vec2 = p - start;
            worst_moved = worst_moved.max(d.length());
            spread = spread.max(d.x.abs());
            sink = sink.max(-d.y);
        }
        let creep = scene.top.and_then(|top| {
            let i = scene.tracked.iter().position(|&b| b == top)?;
            let p = scene.world.center_of_mass(top).ok()?;
            Some((p.x - scene.start[i].x).abs())
        });
        Metrics {
            frames: self.speeds.len() as u32,
            residual_slide,
            mean_overlap,
            worst_moved,
            spread,
            sink,
            creep,
            standing: spread < STANDING_SPREAD,
        }
    }
}

/// Steps the scene `frames` times at [`DT`] and returns its metrics.
pub fn run(scene: &mut Scene, frames: u32) -> Metrics {
    run_with(scene, frames, |_| {})
}

/// [`run`], calling `each` on the scene after every step (to follow a
/// figure of its own as it runs).
pub fn run_with(scene: &mut Scene, frames: u32, mut each: impl FnMut(&Scene)) -> Metrics {
    let mut rec = Recorder::default();
    for _ in 0..frames {
        scene.world.step(DT);
        rec.record(scene);
        each(scene);
    }
    let mut m = rec.metrics(scene);
    if !matches!(scene.name, SceneName::Tower | SceneName::Stack(_)) {
        m.creep = None;
    }
    m
}
