//! The wheel joint: a wheel on a suspension. Frame B's origin slides
//! along frame A's x axis (the suspension axis) on a spring, within
//! limits if set, and body B turns freely, driven by a motor if set: a
//! car is a chassis (body A) with one of these per wheel (body B).
//!
//! Its kernels: the motor on the wheel's spin, the suspension spring and
//! limits along the axis, then frame B's origin held on the axis line.

use super::checks::{check_finite, check_limits, check_non_negative, check_spring};
use super::constraint::{JointConstraint, Motion};
use super::kernels::{inverse, motor_impulse, rigid, soft_impulse};
use super::slide::Slide;
use crate::error::JointError;
use crate::math::{left_perp, Vec2};
use crate::step_context::StepContext;

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

/// Applies the accumulated impulses at the start of a substep.
pub(super) fn warm_start(j: &JointConstraint, m: &mut Motion) {
    let s = Slide::now(j, m);
    let i = &j.impulses;
    m.apply_axial(j, s.axis, s.axial_arms, i.spring + i.lower - i.upper);
    m.apply_axial(j, s.perp, s.perp_arms, i.linear.x);
    m.apply_angular(j, i.motor);
}

/// One iteration of the joint's kernels: the biased pass (`bias`) or
/// the relax.
pub(super) fn solve(j: &mut JointConstraint, w: &WheelJoint, m: &mut Motion, ctx: &StepContext, bias: bool) {
    let [_, ia, _, ib] = j.masses;
    if w.enable_motor {
        let cdot = m.b.w - m.a.w - w.motor_speed;
        let max = ctx.h * w.max_motor_torque;
        let impulse = motor_impulse(cdot, inverse(ia + ib), max, &mut j.impulses.motor);
        m.apply_angular(j, impulse);
    }
    let s = Slide::now(j, m);
    let mass = Slide::mass(j, s.axial_arms);
    let speed = |m: &Motion| Slide::speed(m, s.axis, s.axial_arms);
    if w.enable_spring && w.hertz > 0.0 {
        let c = (s.translation, f32::INFINITY);
        let impulse = soft_impulse(j.spring, c, speed(m), mass, &mut j.impulses.spring);
        m.apply_axial(j, s.axis, s.axial_arms, impulse);
    }
    if w.enable_limit {
        s.limit(j, m, mass, (w.lower_translation, w.upper_translation), ctx, bias);
    }
    let mass = Slide::mass(j, s.perp_arms);
    let cdot = Slide::speed(m, s.perp, s.perp_arms);
    let c = (s.offset, ctx.max_joint_push_speed);
    let impulse = soft_impulse(rigid(ctx, bias), c, cdot, mass, &mut j.impulses.linear.x);
    m.apply_axial(j, s.perp, s.perp_arms, impulse);
}

/// What the joint applied, per substep: the impulse on body B across
/// the axis and along it (suspension, limits), and the motor's angular
/// one.
pub(super) fn reaction(j: &JointConstraint) -> (Vec2, f32) {
    let i = &j.impulses;
    let perp = left_perp(j.axis);
    (perp * i.linear.x + j.axis * i.axial(), i.motor)
}
