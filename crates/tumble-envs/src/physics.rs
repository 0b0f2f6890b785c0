//! The physics settings the environments share.
//!
//! gymnasium's environments step Box2D 2.3 at 50 Hz with 180 velocity
//! iterations and no substeps: in effect rigid joints and contacts. Tumble
//! gets there with its soft step at [`SUBSTEPS`] substeps, where
//! gymnasium's heuristic pilots fly and walk them as at 8, the most it
//! offers: the legs' hinges hold their limits, and the lander and walker
//! rest and sleep as gymnasium's do. Its sleeping is left at its defaults
//! (half a second below 0.05 m/s at every point of each body), which
//! gives the lander's landing bonus where gymnasium gives it. The step's
//! stages are not timed (no one reads an environment's profile, and its
//! clock reads would cost a few percent of a step this small).

use tumble::{BodyId, SolverSettings, Vec2, World, WorldSettings};

/// The environments' substeps (350 Hz): the fewest at which gymnasium's
/// heuristic pilots fly them as at 8, the soft step's most (the
/// lander lands as often as on gymnasium's own; at 6 it crashes more).
/// The RL guide's physics settings give the figures.
pub(crate) const SUBSTEPS: u32 = 7;

/// The world settings of an environment with gravity `gravity` (m/s²
/// along y): [`SUBSTEPS`] substeps of one iteration each.
pub(crate) fn world_settings(gravity: f32) -> WorldSettings {
    WorldSettings {
        gravity: Vec2::new(0.0, gravity),
        solver: SolverSettings {
            substeps: SUBSTEPS,
            iterations: SUBSTEPS,
            ..SolverSettings::default()
        },
        profiling: false,
        ..WorldSettings::default()
    }
}

/// Steps `world` by `dt` and adds the turn `body` made in it to `angle`:
/// Box2D's body angle counts on through whole turns, where the engine's
/// is kept in (-pi, pi]. A step never turns a body half a turn, so the
/// change brought into (-pi, pi] is the turn.
pub(crate) fn step_counting_turns(world: &mut World, dt: f32, body: BodyId, angle: &mut f64) {
    use std::f32::consts::{PI, TAU};
    let before = world.angle(body).expect("a body of the environment");
    world.step(dt);
    let turn = world.angle(body).expect("a body of the environment") - before;
    let turn = if turn > PI {
        turn - TAU
    } else if turn <= -PI {
        turn + TAU
    } else {
        turn
    };
    *angle += f64::from(turn);
}
