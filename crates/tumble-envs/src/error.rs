//! The errors an environment returns.

use std::fmt;

/// Why an environment refused a call; it is left as it was.
#[derive(Clone, Debug, PartialEq)]
pub enum EnvError {
    /// An action of the wrong length: (expected, given).
    ActionLength(usize, usize),
    /// A discrete action that names none of the environment's actions.
    UnknownAction(f32),
    /// An action value that is NaN or infinite.
    NonFiniteAction,
    /// A setting outside its range: (which, why).
    Setting(&'static str, &'static str),
    /// A batch stepped or read before it was reset.
    NotReset,
    /// An array of the wrong size: (which, expected, given).
    Size(&'static str, usize, usize),
    /// No environment has this id.
    UnknownEnv(String),
}

impl fmt::Display for EnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnvError::ActionLength(want, got) => {
                write!(f, "an action has {want} values, not {got}")
            }
            EnvError::UnknownAction(a) => write!(f, "no action {a}"),
            EnvError::NonFiniteAction => write!(f, "an action value is NaN or infinite"),
            EnvError::Setting(name, why) => write!(f, "{name} {why}"),
            EnvError::NotReset => write!(f, "reset the environments before stepping them"),
            EnvError::Size(name, want, got) => {
                write!(f, "{name} has {got} values; expected {want}")
            }
            EnvError::UnknownEnv(id) => write!(
                f,
                "no environment {id:?} (LunarLander-v3, BipedalWalker-v3, BipedalWalkerHardcore-v3)"
            ),
        }
    }
}

impl std::error::Error for EnvError {}
