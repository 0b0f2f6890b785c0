//! The distance joint: the two anchors (the frames' origins) kept at a
//! length, rigidly (a rod) or by a spring, within a minimum and a maximum
//! (a rope is a maximum alone), optionally driven by a motor.
//!
//! Its kernels, along the line between the anchors: the length (rigid, or
//! a spring), a motor, then the minimum and maximum lengths.

use super::checks::{check_finite, check_limits, check_non_negative, check_spring};
use super::constraint::{JointConstraint, Motion};
use super::kernels::{inverse, limit_impulse, motor_impulse, rigid, soft_impulse};
use crate::debug_draw::{Color, DebugDraw};
use crate::error::JointError;
use crate::math::{cross, Transform, Vec2};
use crate::step_context::StepContext;

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

impl DistanceJoint {
    /// The distance between the origins of world frames `frame_a` and
    /// `frame_b`: the joint length (and a hinge's gap).
    pub(crate) fn length(frame_a: Transform, frame_b: Transform) -> f32 {
        (frame_b.p - frame_a.p).length()
    }

    /// Draws the line between the anchors (world frames `frame_a`,
    /// `frame_b`).
    pub(super) fn draw(&self, frame_a: Transform, frame_b: Transform, draw: &mut dyn DebugDraw) {
        draw.draw_segment(frame_a.p, frame_b.p, Color::JOINT_AXIS);
    }
}

/// The anchors now, the line from anchor A to anchor B as a unit axis,
/// its length, and the effective mass along it.
fn line(j: &JointConstraint, m: &Motion) -> ((Vec2, Vec2), Vec2, f32, f32) {
    let (ra, rb) = m.anchors(j);
    let d = m.separation(j, ra, rb);
    let length = d.length();
    let axis = if length > 0.0 { d / length } else { Vec2::ZERO };
    let [ma, ia, mb, ib] = j.masses;
    let (cra, crb) = (cross(ra, axis), cross(rb, axis));
    let mass = inverse(ma + mb + ia * cra * cra + ib * crb * crb);
    ((ra, rb), axis, length, mass)
}

/// Applies the accumulated impulses at the start of a substep.
pub(super) fn warm_start(j: &JointConstraint, m: &mut Motion) {
    let ((ra, rb), axis, _, _) = line(j, m);
    let i = &j.impulses;
    let axial = i.linear.x + i.motor + i.lower - i.upper;
    m.apply_linear(j, ra, rb, axial * axis);
}

/// One iteration of the joint's kernels: the biased pass (`bias`) or
/// the relax.
pub(super) fn solve(
    j: &mut JointConstraint,
    d: &DistanceJoint,
    m: &mut Motion,
    ctx: &StepContext,
    bias: bool,
) {
    let ((ra, rb), axis, length, mass) = line(j, m);
    let speed = |m: &Motion| axis.dot(m.relative_velocity(ra, rb));
    let c = length - d.length;
    // A spring of 0 Hz pulls with no force: only the limits hold it.
    if !d.enable_spring || d.hertz > 0.0 {
        // A rod's length is corrected no faster than the hinge's point
        // (see `drift_bias`); a spring pulls as hard as it was made to.
        let (soft, push) = if d.enable_spring {
            (j.spring, f32::INFINITY)
        } else {
            (rigid(ctx, bias), ctx.max_joint_push_speed)
        };
        let impulse = soft_impulse(soft, (c, push), speed(m), mass, &mut j.impulses.linear.x);
        m.apply_linear(j, ra, rb, impulse * axis);
    }
    if d.enable_motor {
        let max = ctx.h * d.max_motor_force;
        let impulse = motor_impulse(speed(m) - d.motor_speed, mass, max, &mut j.impulses.motor);
        m.apply_linear(j, ra, rb, impulse * axis);
    }
    if d.enable_limit {
        let i = &mut j.impulses;
        let most = ctx.max_joint_push_speed;
        let lower = limit_impulse(
            length - d.min_length,
            speed(m),
            mass,
            &mut i.lower,
            (ctx.inv_h(), bias),
            most,
        );
        m.apply_linear(j, ra, rb, lower * axis);
        let i = &mut j.impulses;
        let upper = limit_impulse(
            d.max_length - length,
            -speed(m),
            mass,
            &mut i.upper,
            (ctx.inv_h(), bias),
            most,
        );
        m.apply_linear(j, ra, rb, -upper * axis);
    }
}

/// What the joint applied, per substep: the impulse on body B along the
/// line (length, spring, limits, motor), and no angular one.
pub(super) fn reaction(j: &JointConstraint) -> (Vec2, f32) {
    let i = &j.impulses;
    (j.axis * (i.linear.x + i.axial() + i.motor), 0.0)
}
