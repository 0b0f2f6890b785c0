//! The player's input to the scenes that take it (the platformer's
//! character, the car, the lift), read by the testbed each step.

/// What the player holds down this step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Input {
    /// Walk left.
    pub left: bool,
    /// Walk right.
    pub right: bool,
    /// Jump (acted on when the character stands on something).
    pub jump: bool,
}
