//! The physics settings the environments share.
//!
//! gymnasium's environments step Box2D 2.3 at 50 Hz with 180 velocity
//! iterations and no substeps: in effect rigid joints and contacts. Tumble
//! gets there with its soft step at 8 substeps (400 Hz) of one iteration
//! each (the most substeps it offers): the legs' hinges then hold their
//! limits, and the lander and walker rest and sleep as gymnasium's do. Its
//! sleeping is left at its defaults (half a second below 0.05 m/s at every
//! point of each body), which gives the lander's landing bonus where
//! gymnasium gives it.

use tumble::{SolverSettings, Vec2, WorldSettings};

/// The world settings of an environment with gravity `gravity` (m/s²
/// along y).
pub(crate) fn world_settings(gravity: f32) -> WorldSettings {
    WorldSettings {
        gravity: Vec2::new(0.0, gravity),
        solver: SolverSettings {
            substeps: 8,
            iterations: 8,
            ..SolverSettings::default()
        },
        ..WorldSettings::default()
    }
}
