//! The motor joint's kernels: the relative angular velocity, then the
//! relative velocity of the frames' origins, each driven towards its
//! target plus (with a frequency set) a spring towards the target pose,
//! the accumulated impulse capped by the largest torque and force.

use super::{inverse, point_impulse, JointConstraint, Motion};
use crate::joint::MotorJoint;
use crate::math::clamp_symmetric;
use crate::step_context::{Softness, StepContext};

pub(super) fn warm_start(j: &JointConstraint, m: &mut Motion) {
    let (ra, rb) = m.anchors(j);
    m.apply_linear(j, ra, rb, j.impulses.linear);
    m.apply_angular(j, j.impulses.angular);
}

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
    let mut total = acc + point_impulse(j, (ra, rb), soft, c, cdot, acc, f32::INFINITY);
    let max = ctx.h * mj.max_force;
    if total.length_squared() > max * max {
        total *= max / total.length();
    }
    j.impulses.linear = total;
    m.apply_linear(j, ra, rb, total - acc);
}
