//! The prismatic joint: a slider. Frame B's origin moves along frame A's
//! x axis and the two frames keep their relative angle; the translation
//! can be limited, driven by a motor or sprung.
//!
//! Its kernels: along the axis, the spring, motor and limits; then across
//! it and in angle together (a 2x2 block), so the slider neither drifts
//! off its line nor twists.

use super::checks::{check_finite, check_limits, check_non_negative, check_spring};
use super::constraint::{JointConstraint, Motion};
use super::kernels::{drift_rate, motor_impulse, rigid, soft_impulse, solve_2x2};
use super::slide::Slide;
use crate::error::JointError;
use crate::math::{left_perp, Transform, Vec2};
use crate::step_context::StepContext;

/// A slider along frame A's x axis. The joint translation is how far
/// frame B's origin is along that axis from frame A's.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PrismaticJoint {
    /// Hold the translation within `lower_translation..=upper_translation`.
    pub enable_limit: bool,
    /// The lowest translation, m.
    pub lower_translation: f32,
    /// The highest translation, m (at least `lower_translation`).
    pub upper_translation: f32,
    /// Drive the sliding speed towards `motor_speed`.
    pub enable_motor: bool,
    /// The motor's target speed, m/s.
    pub motor_speed: f32,
    /// The largest force the motor applies, N (at least 0).
    pub max_motor_force: f32,
    /// Pull the translation towards `target_translation` with a spring.
    pub enable_spring: bool,
    /// The spring's stiffness as a frequency, Hz (at least 0).
    pub hertz: f32,
    /// The spring's damping ratio (at least 0).
    pub damping_ratio: f32,
    /// The translation the spring pulls towards, m.
    pub target_translation: f32,
}

impl PrismaticJoint {
    /// The same slider held between `lower` and `upper` metres.
    pub fn with_limits(self, lower: f32, upper: f32) -> PrismaticJoint {
        PrismaticJoint {
            enable_limit: true,
            lower_translation: lower,
            upper_translation: upper,
            ..self
        }
    }

    /// The same slider with a motor of `speed` m/s and at most
    /// `max_force` N.
    pub fn with_motor(self, speed: f32, max_force: f32) -> PrismaticJoint {
        PrismaticJoint {
            enable_motor: true,
            motor_speed: speed,
            max_motor_force: max_force,
            ..self
        }
    }

    /// The same slider with a spring of `hertz` and `damping_ratio`
    /// towards `target` metres.
    pub fn with_spring(self, hertz: f32, damping_ratio: f32, target: f32) -> PrismaticJoint {
        PrismaticJoint {
            enable_spring: true,
            hertz,
            damping_ratio,
            target_translation: target,
            ..self
        }
    }

    pub(super) fn validate(&self) -> Result<(), JointError> {
        check_finite(&[
            (self.lower_translation, "lower translation"),
            (self.upper_translation, "upper translation"),
            (self.motor_speed, "motor speed"),
            (self.max_motor_force, "max motor force"),
            (self.hertz, "spring hertz"),
            (self.damping_ratio, "spring damping ratio"),
            (self.target_translation, "target translation"),
        ])?;
        check_limits(
            self.lower_translation,
            self.upper_translation,
            "translation limits",
        )?;
        check_non_negative(self.max_motor_force, "max motor force")?;
        check_spring(self.hertz, self.damping_ratio)
    }
}

impl PrismaticJoint {
    /// How far frame B's origin is along frame A's x axis from frame A's
    /// origin (world frames `frame_a`, `frame_b`): the joint translation
    /// (a wheel joint's travel along its suspension too).
    pub(crate) fn translation(frame_a: Transform, frame_b: Transform) -> f32 {
        frame_a.q.x_axis().dot(frame_b.p - frame_a.p)
    }
}

/// Applies the accumulated impulses at the start of a substep.
pub(super) fn warm_start(j: &JointConstraint, m: &mut Motion) {
    let s = Slide::now(j, m);
    let i = &j.impulses;
    let axial = i.spring + i.motor + i.lower - i.upper;
    m.apply_axial(j, s.axis, s.axial_arms, axial);
    m.apply_axial(j, s.perp, s.perp_arms, i.linear.x);
    m.apply_angular(j, i.linear.y);
}

/// One iteration of the joint's kernels: the biased pass (`bias`) or
/// the relax.
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
    let bias = Vec2::new(
        drift_rate(soft.bias_rate, s.offset, ctx.max_joint_push_speed),
        soft.bias_rate * m.angle(j),
    );
    let cdot = Vec2::new(Slide::speed(m, s.perp, s.perp_arms), m.b.w - m.a.w);
    let x = solve_2x2(k11, k12, k22, cdot + bias);
    let impulse = -soft.mass_scale * x - soft.impulse_scale * j.impulses.linear;
    j.impulses.linear += impulse;
    m.apply_axial(j, s.perp, s.perp_arms, impulse.x);
    m.apply_angular(j, impulse.y);
}

/// What the joint applied, per substep: the impulse on body B across
/// the axis and along it (spring, motor, limits), and the angular one.
pub(super) fn reaction(j: &JointConstraint) -> (Vec2, f32) {
    let i = &j.impulses;
    let perp = left_perp(j.axis);
    (perp * i.linear.x + j.axis * (i.axial() + i.motor), i.linear.y)
}
