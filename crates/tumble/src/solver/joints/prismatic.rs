//! The prismatic joint's kernels: along the axis, the spring, motor and
//! limits; then across it and in angle together (a 2x2 block), so the
//! slider neither drifts off its line nor twists.

use super::{drift_rate, motor_impulse, rigid, soft_impulse, solve_2x2, JointConstraint, Motion, Slide};
use crate::joint::PrismaticJoint;
use crate::step_context::StepContext;

pub(super) fn warm_start(j: &JointConstraint, m: &mut Motion) {
    let s = Slide::now(j, m);
    let i = &j.impulses;
    let axial = i.spring + i.motor + i.lower - i.upper;
    m.apply_axial(j, s.axis, s.axial_arms, axial);
    m.apply_axial(j, s.perp, s.perp_arms, i.linear.x);
    m.apply_angular(j, i.linear.y);
}

pub(super) fn solve(
    j: &mut JointConstraint,
    p: &PrismaticJoint,
    m: &mut Motion,
    ctx: &StepContext,
    bias: bool,
) {
    let s = Slide::now(j, m);
    let mass = Slide::mass(j, s.axial_arms);
    let speed = |m: &Motion| Slide::speed(m, s.axis, s.axial_arms);
    if p.enable_spring && p.hertz > 0.0 {
        let c = s.translation - p.target_translation;
        let impulse = soft_impulse(
            j.spring,
            (c, f32::INFINITY),
            speed(m),
            mass,
            &mut j.impulses.spring,
        );
        m.apply_axial(j, s.axis, s.axial_arms, impulse);
    }
    if p.enable_motor {
        let max = ctx.h * p.max_motor_force;
        let impulse = motor_impulse(speed(m) - p.motor_speed, mass, max, &mut j.impulses.motor);
        m.apply_axial(j, s.axis, s.axial_arms, impulse);
    }
    if p.enable_limit {
        s.limit(j, m, mass, (p.lower_translation, p.upper_translation), ctx, bias);
    }
    // Across the axis and in angle, together.
    let [ma, ia, mb, ib] = j.masses;
    let (s1, s2) = s.perp_arms;
    let k11 = ma + mb + ia * s1 * s1 + ib * s2 * s2;
    let k12 = ia * s1 + ib * s2;
    // Neither body can turn: the angle row is held by nothing but must
    // not make the block singular.
    let k22 = if ia + ib > 0.0 { ia + ib } else { 1.0 };
    let soft = rigid(ctx, bias);
    // The offset's correction is capped as the hinge's point is (see
    // `drift_bias`); the angle's turns each body about its own center.
    let bias = crate::math::Vec2::new(
        drift_rate(soft.bias_rate, s.offset, ctx.max_joint_push_speed),
        soft.bias_rate * m.angle(j),
    );
    let cdot = crate::math::Vec2::new(Slide::speed(m, s.perp, s.perp_arms), m.b.w - m.a.w);
    let x = solve_2x2(k11, k12, k22, cdot + bias);
    let impulse = -soft.mass_scale * x - soft.impulse_scale * j.impulses.linear;
    j.impulses.linear += impulse;
    m.apply_axial(j, s.perp, s.perp_arms, impulse.x);
    m.apply_angular(j, impulse.y);
}
