//! The revolute joint's kernels: spring, motor and limits on the relative
//! angle, then the point the two frames share (a 2x2 block, so the hinge
//! holds in both directions at once).

use super::{
    inverse, limit_impulse, motor_impulse, point_impulse, rigid, soft_impulse, unwind, JointConstraint,
    Motion,
};
use crate::joint::RevoluteJoint;
use crate::step_context::StepContext;

pub(super) fn warm_start(j: &JointConstraint, m: &mut Motion) {
    let (ra, rb) = m.anchors(j);
    let i = &j.impulses;
    m.apply_linear(j, ra, rb, i.linear);
    m.apply_angular(j, i.spring + i.motor + i.lower - i.upper);
}

pub(super) fn solve(
    j: &mut JointConstraint,
    r: &RevoluteJoint,
    m: &mut Motion,
    ctx: &StepContext,
    bias: bool,
) {
    let [_, ia, _, ib] = j.masses;
    let axial_mass = inverse(ia + ib);
    // The angle follows the bodies' rotations, which no impulse of this
    // iteration changes: one arc tangent for the spring and the limits.
    let angle = if r.enable_spring || r.enable_limit {
        m.angle(j)
    } else {
        0.0
    };
    if r.enable_spring && r.hertz > 0.0 {
        let c = unwind(angle - r.target_angle);
        let (spring, push) = (j.spring, f32::INFINITY);
        let impulse = soft_impulse(
            spring,
            (c, push),
            m.b.w - m.a.w,
            axial_mass,
            &mut j.impulses.spring,
        );
        m.apply_angular(j, impulse);
    }
    if r.enable_motor {
        let cdot = m.b.w - m.a.w - r.motor_speed;
        let max = ctx.h * r.max_motor_torque;
        let impulse = motor_impulse(cdot, axial_mass, max, &mut j.impulses.motor);
        m.apply_angular(j, impulse);
    }
    if r.enable_limit {
        let i = &mut j.impulses;
        let lower = limit_impulse(
            angle - r.lower_angle,
            m.b.w - m.a.w,
            axial_mass,
            &mut i.lower,
            ctx,
            bias,
            f32::INFINITY,
        );
        m.apply_angular(j, lower);
        let i = &mut j.impulses;
        let upper = limit_impulse(
            r.upper_angle - angle,
            m.a.w - m.b.w,
            axial_mass,
            &mut i.upper,
            ctx,
            bias,
            f32::INFINITY,
        );
        m.apply_angular(j, -upper);
    }
    let (ra, rb) = m.anchors(j);
    let c = m.separation(j, ra, rb);
    let cdot = m.relative_velocity(ra, rb);
    let impulse = point_impulse(
        j,
        (ra, rb),
        rigid(ctx, bias),
        c,
        cdot,
        j.impulses.linear,
        ctx.max_joint_push_speed,
    );
    j.impulses.linear += impulse;
    m.apply_linear(j, ra, rb, impulse);
}
