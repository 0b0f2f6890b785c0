//! The motor joint: drives body B's frame towards body A's frame (the
//! target pose) and at a target velocity, with a force and a torque no
//! larger than set. Moving frame A moves the target: a body dragged by
//! the mouse is a motor joint from the ground whose frame A follows the
//! pointer.
//!
//! Its kernels: the relative angular velocity, then the relative velocity
//! of the frames' origins, each driven towards its target plus (with a
//! frequency set) a spring towards the target pose, the accumulated
//! impulse capped by the largest torque and force. Its warm start and its
//! reaction are the weld's: the same point and angle impulses.

use super::checks::{check_finite, check_non_negative, check_spring};
use super::constraint::{JointConstraint, Motion};
use super::kernels::{inverse, point_impulse, point_mass_matrix};
use crate::error::JointError;
use crate::math::{clamp_symmetric, Vec2};
use crate::step_context::{Softness, StepContext};

/// Drives frame B onto frame A: a spring of `linear_hertz` and
/// `angular_hertz` towards the pose (0 Hz: no pull), plus the target
/// velocities, the force at most `max_force` and the torque at most
/// `max_torque`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MotorJoint {
    /// The velocity of frame B relative to frame A to drive towards,
    /// m/s in world axes.
    pub linear_velocity: Vec2,
    /// The angular velocity of B relative to A to drive towards, rad/s.
    pub angular_velocity: f32,
    /// The largest force, N (at least 0).
    pub max_force: f32,
    /// The largest torque, N m (at least 0).
    pub max_torque: f32,
    /// The pull towards the target position, Hz (0: none).
    pub linear_hertz: f32,
    /// Its damping ratio.
    pub linear_damping_ratio: f32,
    /// The pull towards the target angle, Hz (0: none).
    pub angular_hertz: f32,
    /// Its damping ratio.
    pub angular_damping_ratio: f32,
}

impl Default for MotorJoint {
    /// A motor that holds still (no pull, zero target velocity) with no
    /// force: set the forces to give it strength.
    fn default() -> Self {
        MotorJoint {
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            max_force: 0.0,
            max_torque: 0.0,
            linear_hertz: 0.0,
            linear_damping_ratio: 0.0,
            angular_hertz: 0.0,
            angular_damping_ratio: 0.0,
        }
    }
}

impl MotorJoint {
    /// A spring that drags frame B's origin to frame A's at `hertz` and
    /// `damping_ratio` with at most `max_force`, leaving the rotation
    /// free: the mouse joint of a testbed.
    pub fn drag(hertz: f32, damping_ratio: f32, max_force: f32) -> MotorJoint {
        MotorJoint {
            max_force,
            linear_hertz: hertz,
            linear_damping_ratio: damping_ratio,
            ..MotorJoint::default()
        }
    }

    pub(super) fn validate(&self) -> Result<(), JointError> {
        check_finite(&[
            (self.linear_velocity.x, "linear velocity"),
            (self.linear_velocity.y, "linear velocity"),
            (self.angular_velocity, "angular velocity"),
            (self.max_force, "max force"),
            (self.max_torque, "max torque"),
            (self.linear_hertz, "linear hertz"),
            (self.linear_damping_ratio, "linear damping ratio"),
            (self.angular_hertz, "angular hertz"),
            (self.angular_damping_ratio, "angular damping ratio"),
        ])?;
        check_non_negative(self.max_force, "max force")?;
        check_non_negative(self.max_torque, "max torque")?;
        check_spring(self.linear_hertz, self.linear_damping_ratio)?;
        check_spring(self.angular_hertz, self.angular_damping_ratio)
    }
}

/// One iteration of the joint's kernels (the same in every pass: the
/// motor has no rigid part to correct).
pub(super) fn solve(j: &mut JointConstraint, mj: &MotorJoint, m: &mut Motion, ctx: &StepContext) {
    let [_, ia, _, ib] = j.masses;
    // Without a pull towards the pose, only the velocity is driven.
    let pick = |hertz: f32, spring: Softness| if hertz > 0.0 { spring } else { Softness::RIGID };
    let soft = pick(mj.angular_hertz, j.angular_spring);
    let c = m.angle(j);
    let cdot = m.b.w - m.a.w - mj.angular_velocity;
    let acc = j.impulses.angular;
    let impulse =
        -soft.mass_scale * inverse(ia + ib) * (cdot + soft.bias_rate * c) - soft.impulse_scale * acc;
    let max = ctx.h * mj.max_torque;
    j.impulses.angular = clamp_symmetric(acc + impulse, max);
    m.apply_angular(j, j.impulses.angular - acc);

    let soft = pick(mj.linear_hertz, j.spring);
    let (ra, rb) = m.anchors(j);
    let c = m.separation(j, ra, rb);
    let cdot = m.relative_velocity(ra, rb) - mj.linear_velocity;
    let acc = j.impulses.linear;
    let k = point_mass_matrix(j.masses, ra, rb);
    let mut total = acc + point_impulse(k, soft, c, cdot, acc, f32::INFINITY);
    let max = ctx.h * mj.max_force;
    if total.length_squared() > max * max {
        total *= max / total.length();
    }
    j.impulses.linear = total;
    m.apply_linear(j, ra, rb, total - acc);
}
