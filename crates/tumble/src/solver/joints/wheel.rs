//! The wheel joint's kernels: the motor on the wheel's spin, the
//! suspension spring and limits along the axis, then frame B's origin
//! held on the axis line.

use super::{inverse, motor_impulse, rigid, soft_impulse, JointConstraint, Motion, Slide};
use crate::joint::WheelJoint;
use crate::step_context::StepContext;

pub(super) fn warm_start(j: &JointConstraint, m: &mut Motion) {
    let s = Slide::now(j, m);
    let i = &j.impulses;
    m.apply_axial(j, s.axis, s.axial_arms, i.spring + i.lower - i.upper);
    m.apply_axial(j, s.perp, s.perp_arms, i.linear.x);
    m.apply_angular(j, i.motor);
}

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
