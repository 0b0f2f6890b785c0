//! The wheel joint: a wheel on a suspension. Frame B's origin slides
//! along frame A's x axis (the suspension axis) on a spring, within
//! limits if set, and body B turns freely, driven by a motor if set: a
//! car is a chassis (body A) with one of these per wheel (body B).

use super::{check_finite, check_limits, check_non_negative, check_spring, JointError};

/// A wheel on a sprung axis: frame A's x axis is the suspension (point
/// it up, or along the strut: [`JointDef::along`](crate::JointDef::along)
/// sets it), the rotation is free, the motor turns the wheel.
///
/// The motor's speed is body B's spin relative to body A, positive
/// counter-clockwise as every angle is: a wheel turning counter-clockwise
/// rolls towards -x, so a car facing +x drives forward with a negative
/// speed.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WheelJoint {
    /// Spring the suspension (on by default; off, it is free to slide).
    pub enable_spring: bool,
    /// The suspension's stiffness, Hz (at least 0).
    pub hertz: f32,
    /// The suspension's damping ratio (at least 0).
    pub damping_ratio: f32,
    /// Hold the suspension's travel within `lower_translation..=upper_translation`.
    pub enable_limit: bool,
    /// The lowest travel, m.
    pub lower_translation: f32,
    /// The highest travel, m.
    pub upper_translation: f32,
    /// Drive the wheel's spin relative to body A towards `motor_speed`.
    pub enable_motor: bool,
    /// The motor's target speed, rad/s.
    pub motor_speed: f32,
    /// The largest torque the motor applies, N m (at least 0).
    pub max_motor_torque: f32,
}

impl Default for WheelJoint {
    /// A suspension of 1 Hz and damping ratio 0.7, no limit, no motor.
    fn default() -> Self {
        WheelJoint {
            enable_spring: true,
            hertz: 1.0,
            damping_ratio: 0.7,
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
        }
    }
}

impl WheelJoint {
    /// The same wheel with a motor of `speed` rad/s and at most
    /// `max_torque` N m.
    pub fn with_motor(self, speed: f32, max_torque: f32) -> WheelJoint {
        WheelJoint {
            enable_motor: true,
            motor_speed: speed,
            max_motor_torque: max_torque,
            ..self
        }
    }

    pub(super) fn validate(&self) -> Result<(), JointError> {
        check_finite(&[
            (self.hertz, "spring hertz"),
            (self.damping_ratio, "spring damping ratio"),
            (self.lower_translation, "lower translation"),
            (self.upper_translation, "upper translation"),
            (self.motor_speed, "motor speed"),
            (self.max_motor_torque, "max motor torque"),
        ])?;
        check_limits(
            self.lower_translation,
            self.upper_translation,
            "translation limits",
        )?;
        check_non_negative(self.max_motor_torque, "max motor torque")?;
        check_spring(self.hertz, self.damping_ratio)
    }
}
