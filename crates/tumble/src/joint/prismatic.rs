//! The prismatic joint: a slider. Frame B's origin moves along frame A's
//! x axis and the two frames keep their relative angle; the translation
//! can be limited, driven by a motor or sprung.

use super::{check_finite, check_limits, check_non_negative, check_spring, JointError};

/// A slider along frame A's x axis. The joint translation is how far
/// frame B's origin is along that axis from frame A's.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PrismaticJoint {
    /// Hold the translation within `lower_translation..=upper_translation`.
    pub enable_limit: bool,
    /// The lowest translation, m.
    pub lower_translation: f32,
    /// The highest translation, m (at least `lower_translation`).
    pub upper_translation: f32,
    /// Drive the sliding speed towards `motor_speed`.
    pub enable_motor: bool,
    /// The motor's target speed, m/s.
    pub motor_speed: f32,
    /// The largest force the motor applies, N (at least 0).
    pub max_motor_force: f32,
    /// Pull the translation towards `target_translation` with a spring.
    pub enable_spring: bool,
    /// The spring's stiffness as a frequency, Hz (at least 0).
    pub hertz: f32,
    /// The spring's damping ratio (at least 0).
    pub damping_ratio: f32,
    /// The translation the spring pulls towards, m.
    pub target_translation: f32,
}

impl PrismaticJoint {
    /// The same slider held between `lower` and `upper` metres.
    pub fn with_limits(self, lower: f32, upper: f32) -> PrismaticJoint {
        PrismaticJoint {
            enable_limit: true,
            lower_translation: lower,
            upper_translation: upper,
            ..self
        }
    }

    /// The same slider with a motor of `speed` m/s and at most
    /// `max_force` N.
    pub fn with_motor(self, speed: f32, max_force: f32) -> PrismaticJoint {
        PrismaticJoint {
            enable_motor: true,
            motor_speed: speed,
            max_motor_force: max_force,
            ..self
        }
    }

    /// The same slider with a spring of `hertz` and `damping_ratio`
    /// towards `target` metres.
    pub fn with_spring(self, hertz: f32, damping_ratio: f32, target: f32) -> PrismaticJoint {
        PrismaticJoint {
            enable_spring: true,
            hertz,
            damping_ratio,
            target_translation: target,
            ..self
        }
    }

    pub(super) fn validate(&self) -> Result<(), JointError> {
        check_finite(&[
            (self.lower_translation, "lower translation"),
            (self.upper_translation, "upper translation"),
            (self.motor_speed, "motor speed"),
            (self.max_motor_force, "max motor force"),
            (self.hertz, "spring hertz"),
            (self.damping_ratio, "spring damping ratio"),
            (self.target_translation, "target translation"),
        ])?;
        check_limits(
            self.lower_translation,
            self.upper_translation,
            "translation limits",
        )?;
        check_non_negative(self.max_motor_force, "max motor force")?;
        check_spring(self.hertz, self.damping_ratio)
    }
}
