//! Quality beyond the peers: scenes where Box2D v3 and Rapier, each at its
//! defaults, do visibly worse than a game needs, and the figures that show
//! it. The stability report's `peers` study runs them; the benchmark
//! (`tumble-bench`) runs the same scenes in all three engines.
//!
//! The first is the tile floor ([`crate::bench::tile_floor`]): a box slid
//! without friction across 40 static 1 m boxes side by side. On one long
//! box it would slide on at its starting speed and never rise. On the
//! tiles, a narrowphase that takes each tile for a box of its own meets
//! the tiles' inner sides at every seam (a ghost collision): the box is
//! thrown up and stopped within a few metres.
//!
//! ```
//! use tumble_scenes::{build, peers, SceneName};
//! let mut scene = build(SceneName::TileFloor, tumble::SolverSettings::default());
//! let (slide, _) = peers::slide(&mut scene, 60);
//! assert!(slide.max_vertical_speed < 0.1 && slide.distance > 7.9);
//! ```

use crate::{run_with, Metrics, Scene};

/// How a body slid across a surface that ought to be flat (see
/// [`crate::bench::Quality::Slide`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Slide {
    /// The fastest the body moved up or down at the end of any step, m/s.
    pub max_vertical_speed: f32,
    /// How far its center of mass moved along x, metres.
    pub distance: f32,
}

/// Steps `scene` `frames` times at [`crate::DT`] and measures how its
/// first tracked body slid, with the run's SCENES.md metrics.
pub fn slide(scene: &mut Scene, frames: u32) -> (Slide, Metrics) {
    let body = scene.tracked[0];
    let start = scene.world.center_of_mass(body).expect("a live sliding body");
    let mut max_vertical_speed = 0.0f32;
    let metrics = run_with(scene, frames, |s| {
        let v = s.world.linear_velocity(body).expect("a live sliding body");
        max_vertical_speed = max_vertical_speed.max(v.y.abs());
    });
    let end = scene.world.center_of_mass(body).expect("a live sliding body");
    let slide = Slide {
        max_vertical_speed,
        distance: end.x - start.x,
    };
    (slide, metrics)
}
