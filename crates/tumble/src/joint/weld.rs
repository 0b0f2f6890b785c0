//! The weld joint: the two frames held together, position and angle,
//! rigidly or as a spring (a soft weld bends and springs back).

use super::{check_finite, check_spring, JointError};

/// Holds frame B on frame A. A frequency of 0 is rigid; above 0 that
/// part of the weld is a damped spring.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WeldJoint {
    /// Stiffness of the position hold, Hz (0: rigid).
    pub linear_hertz: f32,
    /// Damping ratio of the position hold.
    pub linear_damping_ratio: f32,
    /// Stiffness of the angle hold, Hz (0: rigid).
    pub angular_hertz: f32,
    /// Damping ratio of the angle hold.
    pub angular_damping_ratio: f32,
}

impl WeldJoint {
    /// A rigid weld.
    pub fn rigid() -> WeldJoint {
        WeldJoint::default()
    }

    /// A weld that holds the position rigidly and the angle as a spring
    /// of `hertz` and `damping_ratio`: what a soft body's ring is made of.
    pub fn soft(hertz: f32, damping_ratio: f32) -> WeldJoint {
        WeldJoint {
            angular_hertz: hertz,
            angular_damping_ratio: damping_ratio,
            ..WeldJoint::default()
        }
    }

    pub(super) fn validate(&self) -> Result<(), JointError> {
        check_finite(&[
            (self.linear_hertz, "linear hertz"),
            (self.linear_damping_ratio, "linear damping ratio"),
            (self.angular_hertz, "angular hertz"),
            (self.angular_damping_ratio, "angular damping ratio"),
        ])?;
        check_spring(self.linear_hertz, self.linear_damping_ratio)?;
        check_spring(self.angular_hertz, self.angular_damping_ratio)
    }
}
