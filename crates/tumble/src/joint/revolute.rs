//! The revolute joint: a hinge. Both bodies' frames keep one point in
//! common and turn freely about it, within angle limits if set, driven by
//! a motor or pulled to a target angle by a spring.

use super::{check_finite, check_limits, check_non_negative, check_spring, JointError};

/// A hinge at the joint frames' origins. The joint angle is frame B's
/// angle less frame A's (counter-clockwise positive), zero where the
/// frames were made to coincide.
///
/// A motor with a target speed of zero and a small maximum torque is joint
/// friction: it resists turning up to that torque.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RevoluteJoint {
    /// Hold the angle within `lower_angle..=upper_angle`.
    pub enable_limit: bool,
    /// The lowest angle, radians, in `-pi..=pi`.
    pub lower_angle: f32,
    /// The highest angle, radians, in `lower_angle..=pi`.
    pub upper_angle: f32,
    /// Drive the relative angular velocity towards `motor_speed`.
    pub enable_motor: bool,
    /// The motor's target speed, rad/s.
    pub motor_speed: f32,
    /// The largest torque the motor applies, N m (at least 0).
    pub max_motor_torque: f32,
    /// Pull the angle towards `target_angle` with a damped spring.
    pub enable_spring: bool,
    /// The spring's stiffness as a frequency, Hz (at least 0; 0 is no
    /// spring).
    pub hertz: f32,
    /// The spring's damping ratio (at least 0; 1 is critical).
    pub damping_ratio: f32,
    /// The angle the spring pulls towards, radians.
    pub target_angle: f32,
}

impl Default for RevoluteJoint {
    /// A free hinge: no limit, motor or spring.
    fn default() -> Self {
        RevoluteJoint {
            enable_limit: false,
            lower_angle: 0.0,
            upper_angle: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            target_angle: 0.0,
        }
    }
}

impl RevoluteJoint {
    /// The same hinge held between `lower` and `upper` radians.
    pub fn with_limits(self, lower: f32, upper: f32) -> RevoluteJoint {
        RevoluteJoint {
            enable_limit: true,
            lower_angle: lower,
            upper_angle: upper,
            ..self
        }
    }

    /// The same hinge with a motor of `speed` rad/s and at most
    /// `max_torque` N m.
    pub fn with_motor(self, speed: f32, max_torque: f32) -> RevoluteJoint {
        RevoluteJoint {
            enable_motor: true,
            motor_speed: speed,
            max_motor_torque: max_torque,
            ..self
        }
    }

    /// The same hinge with a spring of `hertz` and `damping_ratio`
    /// towards `target_angle`.
    pub fn with_spring(self, hertz: f32, damping_ratio: f32, target_angle: f32) -> RevoluteJoint {
        RevoluteJoint {
            enable_spring: true,
            hertz,
            damping_ratio,
            target_angle,
            ..self
        }
    }

    pub(super) fn validate(&self) -> Result<(), JointError> {
        check_finite(&[
            (self.lower_angle, "lower angle"),
            (self.upper_angle, "upper angle"),
            (self.motor_speed, "motor speed"),
            (self.max_motor_torque, "max motor torque"),
            (self.hertz, "spring hertz"),
            (self.damping_ratio, "spring damping ratio"),
            (self.target_angle, "target angle"),
        ])?;
        let pi = std::f32::consts::PI;
        if self.lower_angle < -pi || self.upper_angle > pi {
            return Err(JointError::OutOfRange("angle limits (within -pi..=pi)"));
        }
        check_limits(self.lower_angle, self.upper_angle, "angle limits")?;
        check_non_negative(self.max_motor_torque, "max motor torque")?;
        check_spring(self.hertz, self.damping_ratio)
    }
}
