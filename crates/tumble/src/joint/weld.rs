//! The weld joint: the two frames held together, position and angle,
//! rigidly or as a spring (a soft weld bends and springs back).
//!
//! Its kernels: the relative angle, then the shared point; each rigid (a
//! drift correction in the biased pass) or, with a frequency set, a spring
//! in every pass.

use super::checks::{check_finite, check_spring};
use super::constraint::{JointConstraint, Motion};
use super::kernels::{inverse, point_impulse, point_mass_matrix, rigid, soft_impulse};
use super::JointKind;
use crate::error::JointError;
use crate::math::Vec2;
use crate::step_context::StepContext;

/// Holds frame B on frame A. A frequency of 0 is rigid; above 0 that
/// part of the weld is a damped spring.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WeldJoint {
    /// Stiffness of the position hold, Hz (0: rigid).
    pub linear_hertz: f32,
    /// Damping ratio of the position hold.
    pub linear_damping_ratio: f32,
    /// Stiffness of the angle hold, Hz (0: rigid).
    pub angular_hertz: f32,
    /// Damping ratio of the angle hold.
    pub angular_damping_ratio: f32,
}

impl WeldJoint {
    /// A rigid weld.
    pub fn rigid() -> WeldJoint {
        WeldJoint::default()
    }

    /// A weld that holds the position rigidly and the angle as a spring
    /// of `hertz` and `damping_ratio`: what a soft body's ring is made of.
    pub fn soft(hertz: f32, damping_ratio: f32) -> WeldJoint {
        WeldJoint {
            angular_hertz: hertz,
            angular_damping_ratio: damping_ratio,
            ..WeldJoint::default()
        }
    }

    pub(super) fn validate(&self) -> Result<(), JointError> {
        check_finite(&[
            (self.linear_hertz, "linear hertz"),
            (self.linear_damping_ratio, "linear damping ratio"),
            (self.angular_hertz, "angular hertz"),
            (self.angular_damping_ratio, "angular damping ratio"),
        ])?;
        check_spring(self.linear_hertz, self.linear_damping_ratio)?;
        check_spring(self.angular_hertz, self.angular_damping_ratio)
    }
}

/// Applies the accumulated impulses at the start of a substep (a
/// motor joint's too).
pub(super) fn warm_start(j: &JointConstraint, m: &mut Motion) {
    let (ra, rb) = m.anchors(j);
    m.apply_linear(j, ra, rb, j.impulses.linear);
    m.apply_angular(j, j.impulses.angular);
}

/// One iteration of the joint's kernels: the biased pass (`bias`) or
/// the relax.
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
    let k = point_mass_matrix(j.masses, ra, rb);
    let impulse = point_impulse(k, linear, c, cdot, j.impulses.linear, max_push);
    j.impulses.linear += impulse;
    m.apply_linear(j, ra, rb, impulse);
}

/// What the joint applied, per substep: the point's impulse on body B
/// and the angle's (a motor joint's too).
pub(super) fn reaction(j: &JointConstraint) -> (Vec2, f32) {
    let i = &j.impulses;
    (i.linear, i.angular)
}
