//! A joint as the solve takes it: the constraint each solved joint is
//! prepared into for the step ([`JointConstraint`]: its bodies, masses,
//! anchors, kind and accumulated impulses), and the two bodies' states a
//! kernel loads, changes and stores ([`Motion`]), with the quantities
//! every kind's kernels read of them: the anchors turned with their
//! bodies, the separation and angle of the frames, the relative velocity.

use super::{JointImpulses, JointKind};
use crate::body::{BodyState, StateCell};
use crate::math::{cross, cross_sv, Rot, Vec2};
use crate::step_context::Softness;

/// One joint prepared for the step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointConstraint {
    /// The joint's slot.
    pub joint: u32,
    /// Solver body of end A.
    pub a: u32,
    /// Solver body of end B.
    pub b: u32,
    /// Inverse masses and inertias `[ma, ia, mb, ib]`.
    pub masses: [f32; 4],
    /// Frame A's origin relative to body A's center of mass, world axes,
    /// at the start of the step.
    pub anchor_a: Vec2,
    /// Frame B's origin relative to body B's center of mass.
    pub anchor_b: Vec2,
    /// Body B's center of mass less body A's, at the start of the step.
    pub delta_center: Vec2,
    /// Frame B's angle less frame A's, at the start of the step (left at
    /// 0 for the kinds that never read it, see `uses_angle`).
    pub delta_angle: f32,
    /// Frame A's x axis in world axes, at the start of the step.
    pub axis: Vec2,
    /// The kind with its parameters.
    pub kind: JointKind,
    /// The accumulated impulses, per substep.
    pub impulses: JointImpulses,
    /// The kind's spring, for this substep length (a weld's or motor's
    /// linear one).
    pub spring: Softness,
    /// A weld's or motor's angular spring.
    pub angular_spring: Softness,
    /// Whether the exact solve of its tree holds every row of the joint
    /// this step (see `solver::joints::tree`): Gauss-Seidel's pass would
    /// be undone by the exact solve that follows it, so it skips the
    /// joint.
    pub held_exactly: bool,
    /// Whether the exact solve of its tree holds the joint's point while
    /// Gauss-Seidel solves its other rows (a hinge's motor, limits or
    /// spring): those rows then turn its bodies about the point, as the
    /// exact solve will keep them (see `revolute::solve`).
    pub point_held: bool,
    /// A hinge's limit rows as its last biased pass found them, which
    /// the passes over the limits alone that follow it take as they are:
    /// the bodies do not turn in between.
    pub limit_rows: LimitRows,
}

/// A hinge's two limit rows at the bodies' rotations of one substep: the
/// anchors, the point impulse that holds the hinge's point through a unit
/// angular impulse and the angular rows' mass with the point held (see
/// `revolute::point_hold`), and how far the angle is from each limit.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LimitRows {
    /// The anchors, `(ra, rb)`.
    pub anchors: (Vec2, Vec2),
    /// The point impulse per unit angular impulse.
    pub hold: Vec2,
    /// The angular rows' mass with the point held.
    pub axial_mass: f32,
    /// The angle less the lower limit.
    pub lower_c: f32,
    /// The upper limit less the angle.
    pub upper_c: f32,
}

impl LimitRows {
    /// No rows: nothing pushes.
    pub(crate) const NONE: LimitRows = LimitRows {
        anchors: (Vec2::ZERO, Vec2::ZERO),
        hold: Vec2::ZERO,
        axial_mass: 0.0,
        lower_c: 0.0,
        upper_c: 0.0,
    };
}

impl JointConstraint {
    /// A filler of unused rows, never solved.
    pub(crate) const EMPTY: JointConstraint = JointConstraint {
        joint: 0,
        a: 0,
        b: 0,
        masses: [0.0; 4],
        anchor_a: Vec2::ZERO,
        anchor_b: Vec2::ZERO,
        delta_center: Vec2::ZERO,
        delta_angle: 0.0,
        axis: Vec2::ZERO,
        kind: JointKind::Filter,
        impulses: JointImpulses::ZERO,
        spring: Softness::RIGID,
        angular_spring: Softness::RIGID,
        held_exactly: false,
        point_held: false,
        limit_rows: LimitRows::NONE,
    };
}

/// The bodies the joint's kernels touch, and whether they write each (a
/// body that cannot move is never written): `(a, writes a, b, writes b)`.
pub(crate) fn footprint(j: &JointConstraint) -> (u32, bool, u32, bool) {
    let [ma, ia, mb, ib] = j.masses;
    (j.a, ma != 0.0 || ia != 0.0, j.b, mb != 0.0 || ib != 0.0)
}

/// The two bodies' states during one kernel: loaded, changed, stored.
pub(crate) struct Motion {
    pub a: BodyState,
    pub b: BodyState,
}

impl Motion {
    #[inline]
    pub(crate) fn load(j: &JointConstraint, states: &[StateCell]) -> Motion {
        Motion {
            a: states[j.a as usize].load(),
            b: states[j.b as usize].load(),
        }
    }

    /// Writes back the states of the bodies that can move: a static or
    /// kinematic body's (perhaps shared) row is never written.
    #[inline]
    pub(super) fn store(&self, j: &JointConstraint, states: &[StateCell]) {
        let [ma, ia, mb, ib] = j.masses;
        if ma != 0.0 || ia != 0.0 {
            states[j.a as usize].set_velocity(self.a.v, self.a.w);
        }
        if mb != 0.0 || ib != 0.0 {
            states[j.b as usize].set_velocity(self.b.v, self.b.w);
        }
    }

    /// The anchors now, turned with their bodies since the step began.
    #[inline]
    pub fn anchors(&self, j: &JointConstraint) -> (Vec2, Vec2) {
        (self.a.dq.rotate(j.anchor_a), self.b.dq.rotate(j.anchor_b))
    }

    /// Frame B's origin less frame A's now, for anchors `ra`, `rb`.
    #[inline]
    pub fn separation(&self, j: &JointConstraint, ra: Vec2, rb: Vec2) -> Vec2 {
        (self.b.dp - self.a.dp) + j.delta_center + (rb - ra)
    }

    /// Frame B's angle less frame A's now, in `-pi..=pi`.
    #[inline]
    pub fn angle(&self, j: &JointConstraint) -> f32 {
        unwind(j.delta_angle + relative_angle(self.a.dq, self.b.dq))
    }

    /// The velocity of anchor B relative to anchor A.
    #[inline]
    pub fn relative_velocity(&self, ra: Vec2, rb: Vec2) -> Vec2 {
        (self.b.v + cross_sv(self.b.w, rb)) - (self.a.v + cross_sv(self.a.w, ra))
    }

    /// Applies `p` at the anchors (minus on A, plus on B).
    #[inline]
    pub fn apply_linear(&mut self, j: &JointConstraint, ra: Vec2, rb: Vec2, p: Vec2) {
        let [ma, ia, mb, ib] = j.masses;
        self.a.v -= ma * p;
        self.a.w -= ia * cross(ra, p);
        self.b.v += mb * p;
        self.b.w += ib * cross(rb, p);
    }

    /// Applies an angular impulse (minus on A, plus on B).
    #[inline]
    pub fn apply_angular(&mut self, j: &JointConstraint, impulse: f32) {
        let [_, ia, _, ib] = j.masses;
        self.a.w -= ia * impulse;
        self.b.w += ib * impulse;
    }

    /// Applies impulse `impulse` along `axis` whose angular parts are
    /// `lever_a` and `lever_b` (the impulse's moment arms on A and B).
    #[inline]
    pub fn apply_axial(
        &mut self,
        j: &JointConstraint,
        axis: Vec2,
        (lever_a, lever_b): (f32, f32),
        impulse: f32,
    ) {
        let [ma, ia, mb, ib] = j.masses;
        let p = impulse * axis;
        self.a.v -= ma * p;
        self.a.w -= ia * impulse * lever_a;
        self.b.v += mb * p;
        self.b.w += ib * impulse * lever_b;
    }
}

/// The angle of `b` less the angle of `a`, in `-pi..=pi`.
#[inline]
fn relative_angle(a: Rot, b: Rot) -> f32 {
    a.inv_mul(b).angle()
}

/// `angle` brought into `-pi..=pi`.
#[inline]
pub(super) fn unwind(angle: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    if angle < -PI {
        angle + TAU
    } else if angle > PI {
        angle - TAU
    } else {
        angle
    }
}
