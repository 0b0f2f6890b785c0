//! The distance joint's kernels, along the line between the anchors:
//! the length (rigid, or a spring), a motor, then the minimum and maximum
//! lengths.

use super::{inverse, limit_impulse, motor_impulse, rigid, soft_impulse, JointConstraint, Motion};
use crate::joint::DistanceJoint;
use crate::math::{cross, Vec2};
use crate::step_context::StepContext;

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

pub(super) fn warm_start(j: &JointConstraint, m: &mut Motion) {
    let ((ra, rb), axis, _, _) = line(j, m);
    let i = &j.impulses;
    let axial = i.linear.x + i.motor + i.lower - i.upper;
    m.apply_linear(j, ra, rb, axial * axis);
}

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
            ctx,
            bias,
            most,
        );
        m.apply_linear(j, ra, rb, lower * axis);
        let i = &mut j.impulses;
        let upper = limit_impulse(
            d.max_length - length,
            -speed(m),
            mass,
            &mut i.upper,
            ctx,
            bias,
            most,
        );
        m.apply_linear(j, ra, rb, -upper * axis);
    }
}
