//! The geometry of a slider, shared by the prismatic and wheel joints:
//! frame A's x axis as it turns with body A, where frame B's origin is
//! along it and across it, the moment arms of an impulse either way, the
//! limits along it ([`Slide`]); and how the axis is drawn.

use super::constraint::{JointConstraint, Motion};
use super::kernels::{inverse, limit_impulse};
use crate::debug_draw::{Color, DebugDraw};
use crate::math::{cross, left_perp, Transform, Vec2};
use crate::step_context::StepContext;

/// The geometry of a slider (prismatic and wheel joints) now: frame A's
/// x axis turned with body A, and the moment arms of an impulse along it
/// and across it.
pub(super) struct Slide {
    /// Frame A's x axis now.
    pub axis: Vec2,
    /// The axis turned a quarter counter-clockwise.
    pub perp: Vec2,
    /// How far frame B's origin is along the axis from frame A's.
    pub translation: f32,
    /// How far it is across the axis.
    pub offset: f32,
    /// Moment arms of an impulse along the axis on A and B.
    pub axial_arms: (f32, f32),
    /// Moment arms of an impulse across it.
    pub perp_arms: (f32, f32),
}

impl Slide {
    #[inline]
    pub fn now(j: &JointConstraint, m: &Motion) -> Slide {
        let (ra, rb) = m.anchors(j);
        let d = m.separation(j, ra, rb);
        let axis = m.a.dq.rotate(j.axis);
        let perp = left_perp(axis);
        Slide {
            axis,
            perp,
            translation: axis.dot(d),
            offset: perp.dot(d),
            axial_arms: (cross(d + ra, axis), cross(rb, axis)),
            perp_arms: (cross(d + ra, perp), cross(rb, perp)),
        }
    }

    /// Holds the translation within `lower..=upper` (speculatively, see
    /// [`limit_impulse`]) with the effective mass `mass` along the axis.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn limit(
        &self,
        j: &mut JointConstraint,
        m: &mut Motion,
        mass: f32,
        (lower, upper): (f32, f32),
        ctx: &StepContext,
        bias: bool,
    ) {
        let speed = |m: &Motion| Slide::speed(m, self.axis, self.axial_arms);
        let i = &mut j.impulses;
        let most = ctx.max_joint_push_speed;
        let push = limit_impulse(
            self.translation - lower,
            speed(m),
            mass,
            &mut i.lower,
            (ctx.inv_h(), bias),
            most,
        );
        m.apply_axial(j, self.axis, self.axial_arms, push);
        let i = &mut j.impulses;
        let pull = limit_impulse(
            upper - self.translation,
            -speed(m),
            mass,
            &mut i.upper,
            (ctx.inv_h(), bias),
            most,
        );
        m.apply_axial(j, self.axis, self.axial_arms, -pull);
    }

    /// The effective mass along `axis` with moment arms `(arm_a, arm_b)`.
    #[inline]
    pub fn mass(j: &JointConstraint, (arm_a, arm_b): (f32, f32)) -> f32 {
        let [ma, ia, mb, ib] = j.masses;
        inverse(ma + mb + ia * arm_a * arm_a + ib * arm_b * arm_b)
    }

    /// The speed of B's frame relative to A's along `axis` with arms
    /// `(arm_a, arm_b)`.
    #[inline]
    pub fn speed(m: &Motion, axis: Vec2, (arm_a, arm_b): (f32, f32)) -> f32 {
        axis.dot(m.b.v - m.a.v) + arm_b * m.b.w - arm_a * m.a.w
    }
}

/// Draws a slider's axis through `frame_a` (world): from the lower to
/// the upper limit of `limits`, or 1 m long (in `length_unit`s a metre)
/// about the frame without them.
pub(super) fn draw_axis(
    frame_a: Transform,
    limits: Option<(f32, f32)>,
    length_unit: f32,
    draw: &mut dyn DebugDraw,
) {
    let axis = frame_a.q.x_axis();
    let along = |t: f32| frame_a.p + t * axis;
    let (from, to) = limits.unwrap_or_else(|| {
        let half = 0.5 * length_unit;
        (-half, half)
    });
    draw.draw_segment(along(from), along(to), Color::JOINT_AXIS);
}
