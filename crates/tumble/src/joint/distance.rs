//! The distance joint: the two anchors (the frames' origins) kept at a
//! length, rigidly (a rod) or by a spring, within a minimum and a maximum
//! (a rope is a maximum alone), optionally driven by a motor.

use super::{check_finite, check_limits, check_non_negative, check_spring, JointError};

/// Keeps the distance between the anchors at `length`: rigidly, or with
/// `enable_spring` by a spring of `hertz` (a spring of 0 Hz exerts no
/// force at all, so only the limits hold: a rope is that with
/// `max_length` set and the limit on, see [`DistanceJoint::rope`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DistanceJoint {
    /// The rest length, m (positive).
    pub length: f32,
    /// Make the length soft: a spring of `hertz` and `damping_ratio`.
    pub enable_spring: bool,
    /// The spring's stiffness as a frequency, Hz (at least 0).
    pub hertz: f32,
    /// The spring's damping ratio (at least 0).
    pub damping_ratio: f32,
    /// Hold the length within `min_length..=max_length` (what a spring
    /// or rope needs; a rigid rod has no use for it).
    pub enable_limit: bool,
    /// The shortest length, m (at least 0).
    pub min_length: f32,
    /// The longest length, m (at least `min_length`).
    pub max_length: f32,
    /// Drive the rate of change of the length towards `motor_speed`.
    pub enable_motor: bool,
    /// The motor's target speed, m/s (positive lengthens).
    pub motor_speed: f32,
    /// The largest force the motor applies, N (at least 0).
    pub max_motor_force: f32,
}

impl Default for DistanceJoint {
    /// A rigid rod of 1 m.
    fn default() -> Self {
        DistanceJoint {
            length: 1.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            enable_limit: false,
            min_length: 0.0,
            max_length: f32::MAX,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
        }
    }
}

impl DistanceJoint {
    /// A rigid rod of `length`.
    pub fn rod(length: f32) -> DistanceJoint {
        DistanceJoint {
            length,
            ..DistanceJoint::default()
        }
    }

    /// A spring of rest length `length`, `hertz` and `damping_ratio`.
    pub fn spring(length: f32, hertz: f32, damping_ratio: f32) -> DistanceJoint {
        DistanceJoint {
            length,
            enable_spring: true,
            hertz,
            damping_ratio,
            ..DistanceJoint::default()
        }
    }

    /// A rope of `max_length`: slack when shorter, taut at its length.
    pub fn rope(max_length: f32) -> DistanceJoint {
        DistanceJoint {
            length: max_length,
            enable_spring: true,
            enable_limit: true,
            min_length: 0.0,
            max_length,
            ..DistanceJoint::default()
        }
    }

    pub(super) fn validate(&self) -> Result<(), JointError> {
        check_finite(&[
            (self.length, "length"),
            (self.hertz, "spring hertz"),
            (self.damping_ratio, "spring damping ratio"),
            (self.min_length, "min length"),
            (self.max_length, "max length"),
            (self.motor_speed, "motor speed"),
            (self.max_motor_force, "max motor force"),
        ])?;
        if self.length <= 0.0 {
            return Err(JointError::OutOfRange("length (must be positive)"));
        }
        check_non_negative(self.min_length, "min length")?;
        check_limits(self.min_length, self.max_length, "length limits")?;
        check_non_negative(self.max_motor_force, "max motor force")?;
        check_spring(self.hertz, self.damping_ratio)
    }
}
