//! Reinforcement-learning environments on Tumble.
//!
//! Faithful ports of gymnasium's Box2D environments, `LunarLander-v3`
//! ([`LunarLander`]) and `BipedalWalker-v3` ([`BipedalWalker`]), whose whole step (physics,
//! engines, lidar, observation, reward, termination) runs in Rust, and a
//! [`Batch`] that steps many of them at once over worker threads with
//! gymnasium's autoreset rule. The Python module binds them as
//! `tumble.envs`, registered with gymnasium.
//!
//! An environment draws its randomness from numpy's PCG64 stream
//! ([`Pcg64`]) in gymnasium's order, so a seed gives gymnasium's terrain
//! and initial push; each reset builds a fresh world, so a seed and a
//! sequence of actions give the same episode, bit for bit, every time.
//!
//! ```
//! use tumble_envs::{Env, LanderConfig, LunarLander, Pcg64};
//! let mut env = LunarLander::new(LanderConfig::default()).unwrap();
//! let mut obs = [0.0f32; 8];
//! env.reset(Pcg64::from_seed(1), &mut obs);
//! let step = env.step(&[0.0], &mut obs).unwrap();
//! assert!(!step.terminated);
//! ```

mod batch;
// The guide's page on these environments, its examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/guide/rl.md")]
pub mod guide_rl {}
mod canvas;
mod crew;
mod error;
mod lander;
mod physics;
mod rng;
mod start;
mod walker;

pub use batch::{Autoreset, Batch, BatchStep, EnvRef};
pub use canvas::Canvas;
pub use error::EnvError;
pub use lander::{heuristic as lander_heuristic, LanderConfig, LunarLander};
pub use rng::Pcg64;
pub use walker::{BipedalWalker, WalkerConfig, WalkerHeuristic};

/// The keyword arguments of the environments, by gymnasium's names; each
/// environment reads those it has.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// LunarLander: continuous throttles instead of four actions.
    pub continuous: bool,
    /// LunarLander: gravity along y, in (-12, 0).
    pub gravity: f64,
    /// LunarLander: gusts and turbulence while neither leg touches.
    pub enable_wind: bool,
    /// LunarLander: the gusts' largest force.
    pub wind_power: f64,
    /// LunarLander: the turbulence's largest torque.
    pub turbulence_power: f64,
    /// BipedalWalker: stumps, stairs and pits.
    pub hardcore: bool,
    /// Keep what only drawing needs (the lander's exhaust).
    pub render: bool,
}

impl Default for Options {
    fn default() -> Self {
        let lander = LanderConfig::default();
        Options {
            continuous: lander.continuous,
            gravity: lander.gravity,
            enable_wind: lander.enable_wind,
            wind_power: lander.wind_power,
            turbulence_power: lander.turbulence_power,
            hardcore: false,
            render: false,
        }
    }
}

/// The environment gymnasium registers as `id` (`"LunarLander-v3"`,
/// `"BipedalWalker-v3"`, `"BipedalWalkerHardcore-v3"`), made with
/// `options`, with the time limit of that registration.
pub fn make(id: &str, options: &Options) -> Result<Box<dyn Env>, EnvError> {
    match id {
        "LunarLander-v3" => Ok(Box::new(LunarLander::new(LanderConfig {
            continuous: options.continuous,
            gravity: options.gravity,
            enable_wind: options.enable_wind,
            wind_power: options.wind_power,
            turbulence_power: options.turbulence_power,
            particles: options.render,
        })?)),
        "BipedalWalker-v3" => Ok(Box::new(
            BipedalWalker::new(WalkerConfig {
                hardcore: options.hardcore,
            })
            .with_max_episode_steps(1600),
        )),
        "BipedalWalkerHardcore-v3" => Ok(Box::new(BipedalWalker::new(WalkerConfig { hardcore: true }))),
        _ => Err(EnvError::UnknownEnv(id.to_string())),
    }
}

/// What one step of an environment returns besides its observation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The step's reward.
    pub reward: f64,
    /// Whether the episode ended in a terminal state (crash, landing,
    /// leaving the field, reaching the end).
    pub terminated: bool,
}

/// An environment: reset from a random stream, stepped with an action,
/// drawn onto a [`Canvas`].
pub trait Env: Send + Sync {
    /// The number of observation values.
    fn observation_len(&self) -> usize;

    /// The number of action values: 1 for a discrete action (its index,
    /// as a float), the vector's length for a continuous one.
    fn action_len(&self) -> usize;

    /// The most steps an episode runs before it is truncated (gymnasium's
    /// `max_episode_steps` for the environment).
    fn max_episode_steps(&self) -> u32;

    /// Checks an action without stepping: its length, that it is finite,
    /// and, for a discrete action, that it names one.
    fn check_action(&self, action: &[f32]) -> Result<(), EnvError>;

    /// Starts a new episode drawing from `rng`, writing the first
    /// observation (after one step with no action, as gymnasium's do).
    fn reset(&mut self, rng: Pcg64, observation: &mut [f32]);

    /// Steps the episode with `action`, writing the observation. An
    /// action [`Env::check_action`] refuses is refused here too, with
    /// nothing stepped.
    fn step(&mut self, action: &[f32], observation: &mut [f32]) -> Result<Step, EnvError>;

    /// The random stream as it stands (for the next seedless reset).
    fn rng(&self) -> Pcg64;

    /// Draws the environment as gymnasium's renders it.
    fn render(&self, canvas: &mut Canvas);

    /// The size of the image [`Env::render`] draws: (width, height).
    fn render_size(&self) -> (usize, usize);
}

impl<E: Env + ?Sized> Env for Box<E> {
    fn observation_len(&self) -> usize {
        (**self).observation_len()
    }
    fn action_len(&self) -> usize {
        (**self).action_len()
    }
    fn max_episode_steps(&self) -> u32 {
        (**self).max_episode_steps()
    }
    fn check_action(&self, action: &[f32]) -> Result<(), EnvError> {
        (**self).check_action(action)
    }
    fn reset(&mut self, rng: Pcg64, observation: &mut [f32]) {
        (**self).reset(rng, observation)
    }
    fn step(&mut self, action: &[f32], observation: &mut [f32]) -> Result<Step, EnvError> {
        (**self).step(action, observation)
    }
    fn rng(&self) -> Pcg64 {
        (**self).rng()
    }
    fn render(&self, canvas: &mut Canvas) {
        (**self).render(canvas)
    }
    fn render_size(&self) -> (usize, usize) {
        (**self).render_size()
    }
}
