//! The weld joint's kernels: the relative angle, then the shared point;
//! each rigid (a drift correction in the biased pass) or, with a
//! frequency set, a spring in every pass.

use super::{inverse, point_impulse, rigid, soft_impulse, JointConstraint, Motion};
use crate::joint::JointKind;
use crate::step_context::StepContext;

pub(super) fn warm_start(j: &JointConstraint, m: &mut Motion) {
    let (ra, rb) = m.anchors(j);
    m.apply_linear(j, ra, rb, j.impulses.linear);
    m.apply_angular(j, j.impulses.angular);
}

pub(super) fn solve(j: &mut JointConstraint, m: &mut Motion, ctx: &StepContext, bias: bool) {
    let JointKind::Weld(w) = j.kind else { return };
    let [_, ia, _, ib] = j.masses;
    let angular = if w.angular_hertz > 0.0 {
        j.angular_spring
    } else {
        rigid(ctx, bias)
    };
    let c = m.angle(j);
    let impulse = soft_impulse(
        angular,
        (c, f32::INFINITY),
        m.b.w - m.a.w,
        inverse(ia + ib),
        &mut j.impulses.angular,
    );
    m.apply_angular(j, impulse);
    let (linear, max_push) = if w.linear_hertz > 0.0 {
        (j.spring, f32::INFINITY)
    } else {
        (rigid(ctx, bias), ctx.max_joint_push_speed)
    };
    let (ra, rb) = m.anchors(j);
    let c = m.separation(j, ra, rb);
    let cdot = m.relative_velocity(ra, rb);
    let impulse = point_impulse(j, (ra, rb), linear, c, cdot, j.impulses.linear, max_push);
    j.impulses.linear += impulse;
    m.apply_linear(j, ra, rb, impulse);
}
