//! Joint constraints: each awake joint prepared for the step
//! ([`prepare_joint`]), then, every substep, warm started and solved
//! (the soft step's biased pass and its relax pass) in the graph colors
//! beside the contacts, and its impulses stored for the next step. One
//! file per kind holds its kernels; each writes only the bodies that can
//! move ([`footprint`]).
//!
//! Each kind is a set of velocity constraints between the two frames,
//! written in the quantities the step tracks: the anchors relative to
//! each body's center of mass (turned with the body since the step
//! began) and each body's motion since the step began. The rigid parts
//! (a hinge's point, a weld's angle) are soft-step constraints: rigid in
//! velocity, with a soft correction of their drift in the biased pass
//! ([`StepContext::joint_soft`]) and none in the relax. Springs are soft
//! constraints of their own stiffness in every pass; motors and limits
//! clamp their accumulated impulse (a limit not reached yet lets the
//! bodies close the gap in one substep, no more: a speculative limit).

mod distance;
pub(crate) mod hinges;
mod motor;
mod prismatic;
mod revolute;
pub(crate) mod tree;
mod weld;
mod wheel;

use crate::body::Body;
use crate::body::StateCell;
use crate::body::{BodyState, SolverBody};
use crate::joint::{Joint, JointImpulses, JointKind};
use crate::math::{clamp_symmetric, cross, cross_sv, Rot, Vec2};
use crate::step_context::{Softness, StepContext};
use crate::store::Store;

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
    };
}

/// The bodies the joint's kernels touch, and whether they write each (a
/// body that cannot move is never written): `(a, writes a, b, writes b)`.
pub(crate) fn footprint(j: &JointConstraint) -> (u32, bool, u32, bool) {
    let [ma, ia, mb, ib] = j.masses;
    (j.a, ma != 0.0 || ia != 0.0, j.b, mb != 0.0 || ib != 0.0)
}

/// The constraint of joint `ji`, whose bodies are solver bodies `a` and
/// `b` (the shared static one for a body not simulated).
#[inline]
pub(crate) fn prepare_joint(
    joint: &Joint,
    ji: u32,
    (a, b): (u32, u32),
    solver_bodies: &[SolverBody],
    bodies: &Store<Body>,
    ctx: &StepContext,
) -> JointConstraint {
    let (ba, bb) = (&bodies[joint.body_a], &bodies[joint.body_b]);
    let (sa, sb) = (&solver_bodies[a as usize], &solver_bodies[b as usize]);
    let qa = ba.xf.q * joint.frame_a.q;
    let qb = bb.xf.q * joint.frame_b.q;
    let h = ctx.h;
    let soft = |hertz: f32, zeta: f32| Softness::new(hertz, zeta, h);
    let (spring, angular_spring) = match joint.kind {
        JointKind::Revolute(r) if r.enable_spring => (soft(r.hertz, r.damping_ratio), Softness::RIGID),
        JointKind::Prismatic(p) if p.enable_spring => (soft(p.hertz, p.damping_ratio), Softness::RIGID),
        JointKind::Distance(d) if d.enable_spring => (soft(d.hertz, d.damping_ratio), Softness::RIGID),
        JointKind::Wheel(w) if w.enable_spring => (soft(w.hertz, w.damping_ratio), Softness::RIGID),
        JointKind::Weld(w) => (
            soft(w.linear_hertz, w.linear_damping_ratio),
            soft(w.angular_hertz, w.angular_damping_ratio),
        ),
        JointKind::Motor(m) => (
            soft(m.linear_hertz, m.linear_damping_ratio),
            soft(m.angular_hertz, m.angular_damping_ratio),
        ),
        _ => (Softness::RIGID, Softness::RIGID),
    };
    let mut constraint = JointConstraint {
        joint: ji,
        a,
        b,
        masses: [sa.inv_mass, sa.inv_inertia, sb.inv_mass, sb.inv_inertia],
        anchor_a: ba.xf.q.rotate(joint.frame_a.p - ba.local_center),
        anchor_b: bb.xf.q.rotate(joint.frame_b.p - bb.local_center),
        delta_center: bb.center - ba.center,
        delta_angle: if uses_angle(&joint.kind) {
            qa.inv_mul(qb).angle()
        } else {
            0.0
        },
        axis: qa.x_axis(),
        kind: joint.kind,
        impulses: if ctx.settings.warm_starting {
            joint.impulses
        } else {
            JointImpulses::default()
        },
        spring,
        angular_spring,
    };
    let most = |s: &SolverBody| (ctx.max_speed, ctx.max_spin.min(s.max_spin));
    bound_warm_start(&mut constraint, (most(sa), most(sb)));
    constraint
}

/// Scales the joint's stored impulses down, all by one factor (so limits
/// stay one-sided and motors within their force), until applying them
/// changes neither body's velocity by more than its speed limit nor its
/// spin by more than its spin limit (`most`: each end's `(speed, spin)`).
/// The stored impulses are last step's answer, applied again at the
/// anchors as they are now: a joint whose rows fight over long arms
/// stores large impulses that nearly cancel, and once its bodies have
/// turned they cancel no more. An impulse that alone would take a body
/// past what the step lets it move is no guess of this step's answer.
fn bound_warm_start(j: &mut JointConstraint, ((va, wa), (vb, wb)): ((f32, f32), (f32, f32))) {
    let at_rest = BodyState {
        v: Vec2::ZERO,
        w: 0.0,
        dp: Vec2::ZERO,
        dq: Rot::IDENTITY,
    };
    let mut m = Motion {
        a: at_rest,
        b: at_rest,
    };
    warm_start_motion(j, &mut m);
    let ratio = |change: f32, most: f32| if change > most { most / change } else { 1.0 };
    let scale = ratio(m.a.v.length(), va)
        .min(ratio(m.a.w.abs(), wa))
        .min(ratio(m.b.v.length(), vb))
        .min(ratio(m.b.w.abs(), wb));
    if scale < 1.0 {
        let i = &mut j.impulses;
        i.linear *= scale;
        i.angular *= scale;
        i.spring *= scale;
        i.motor *= scale;
        i.lower *= scale;
        i.upper *= scale;
    }
}

/// Whether the kind reads the relative angle of its frames (an arc
/// tangent a step, saved for the rest: a free hinge, a wheel, a rod).
fn uses_angle(kind: &JointKind) -> bool {
    match kind {
        JointKind::Revolute(r) => r.enable_limit || r.enable_spring,
        JointKind::Prismatic(_) | JointKind::Weld(_) | JointKind::Motor(_) => true,
        JointKind::Distance(_) | JointKind::Wheel(_) | JointKind::Filter => false,
    }
}

/// Applies the accumulated impulses at the start of a substep.
pub(crate) fn warm_start(j: &JointConstraint, states: &[StateCell]) {
    let mut m = Motion::load(j, states);
    if warm_start_motion(j, &mut m) {
        m.store(j, states);
    }
}

/// Applies the joint's accumulated impulses to `m`; false for a kind
/// with none.
fn warm_start_motion(j: &JointConstraint, m: &mut Motion) -> bool {
    match j.kind {
        JointKind::Revolute(_) => revolute::warm_start(j, m),
        JointKind::Prismatic(_) => prismatic::warm_start(j, m),
        JointKind::Distance(_) => distance::warm_start(j, m),
        JointKind::Weld(_) => weld::warm_start(j, m),
        JointKind::Wheel(_) => wheel::warm_start(j, m),
        JointKind::Motor(_) => motor::warm_start(j, m),
        JointKind::Filter => return false,
    }
    true
}

/// One iteration of the joint: the biased pass (`bias`) or the relax.
pub(crate) fn solve(j: &mut JointConstraint, states: &[StateCell], ctx: &StepContext, bias: bool) {
    let mut m = Motion::load(j, states);
    match j.kind {
        JointKind::Revolute(r) => revolute::solve(j, &r, &mut m, ctx, bias),
        JointKind::Prismatic(p) => prismatic::solve(j, &p, &mut m, ctx, bias),
        JointKind::Distance(d) => distance::solve(j, &d, &mut m, ctx, bias),
        JointKind::Weld(_) => weld::solve(j, &mut m, ctx, bias),
        JointKind::Wheel(w) => wheel::solve(j, &w, &mut m, ctx, bias),
        JointKind::Motor(mj) => motor::solve(j, &mj, &mut m, ctx),
        JointKind::Filter => return,
    }
    m.store(j, states);
}

/// What the joint did over the step: the force on body B (world axes)
/// and the torque, from its impulses per substep of length `h`, and its
/// motor's impulse over the whole step of `substeps`.
pub(crate) fn reaction(j: &JointConstraint, h: f32, substeps: u32) -> (Vec2, f32, f32) {
    let i = &j.impulses;
    let axial = i.spring + i.lower - i.upper;
    let perp = crate::math::left_perp(j.axis);
    let (impulse, angular) = match j.kind {
        JointKind::Revolute(_) => (i.linear, axial + i.motor),
        JointKind::Prismatic(_) => (perp * i.linear.x + j.axis * (axial + i.motor), i.linear.y),
        JointKind::Distance(_) => (j.axis * (i.linear.x + axial + i.motor), 0.0),
        JointKind::Wheel(_) => (perp * i.linear.x + j.axis * axial, i.motor),
        JointKind::Weld(_) | JointKind::Motor(_) => (i.linear, i.angular),
        JointKind::Filter => (Vec2::ZERO, 0.0),
    };
    (impulse / h, angular / h, i.motor * substeps as f32)
}

/// The two bodies' states during one kernel: loaded, changed, stored.
pub(super) struct Motion {
    pub a: BodyState,
    pub b: BodyState,
}

impl Motion {
    #[inline]
    fn load(j: &JointConstraint, states: &[StateCell]) -> Motion {
        Motion {
            a: states[j.a as usize].load(),
            b: states[j.b as usize].load(),
        }
    }

    /// Writes back the states of the bodies that can move: a static or
    /// kinematic body's (perhaps shared) row is never written.
    #[inline]
    fn store(&self, j: &JointConstraint, states: &[StateCell]) {
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

/// The inverse of a positive number, or 0 for 0 (an axis no body can
/// move along).
#[inline]
pub(super) fn inverse(k: f32) -> f32 {
    if k > 0.0 {
        1.0 / k
    } else {
        0.0
    }
}

/// `K^-1 rhs` for the symmetric 2x2 matrix `K = [k11 k12; k12 k22]`, or
/// zero when `K` is singular (neither body can move).
#[inline]
pub(super) fn solve_2x2(k11: f32, k12: f32, k22: f32, rhs: Vec2) -> Vec2 {
    let det = k11 * k22 - k12 * k12;
    if det == 0.0 {
        return Vec2::ZERO;
    }
    let inv = 1.0 / det;
    Vec2::new(
        inv * (k22 * rhs.x - k12 * rhs.y),
        inv * (k11 * rhs.y - k12 * rhs.x),
    )
}

/// The point constraint's 2x2 effective inverse mass `K` for anchors
/// `ra`, `rb` (symmetric): `[k11, k12, k22]`.
#[inline]
pub(super) fn point_mass_matrix(masses: [f32; 4], ra: Vec2, rb: Vec2) -> [f32; 3] {
    let [ma, ia, mb, ib] = masses;
    let k11 = ma + mb + ra.y * ra.y * ia + rb.y * rb.y * ib;
    let k12 = -ra.y * ra.x * ia - rb.y * rb.x * ib;
    let k22 = ma + mb + ra.x * ra.x * ia + rb.x * rb.x * ib;
    [k11, k12, k22]
}

/// The point constraint's 2x2 mass matrix for anchors `ra`, `rb`, solved
/// against `rhs`: `K^-1 rhs`.
#[inline]
pub(super) fn solve_point(masses: [f32; 4], ra: Vec2, rb: Vec2, rhs: Vec2) -> Vec2 {
    let [k11, k12, k22] = point_mass_matrix(masses, ra, rb);
    solve_2x2(k11, k12, k22, rhs)
}

/// The soft point constraint's impulse: drift `c`, relative velocity
/// `cdot`, softness `soft`, accumulated impulse `acc` (not yet updated),
/// the drift corrected no faster than `max_push`.
#[inline]
pub(super) fn point_impulse(
    j: &JointConstraint,
    (ra, rb): (Vec2, Vec2),
    soft: Softness,
    c: Vec2,
    cdot: Vec2,
    acc: Vec2,
    max_push: f32,
) -> Vec2 {
    let x = solve_point(j.masses, ra, rb, cdot + drift_bias(soft.bias_rate, c, max_push));
    -soft.mass_scale * x - soft.impulse_scale * acc
}

/// The velocity at which a drift `c` is corrected at `rate`: `rate * c`,
/// no faster than `max_push` (see
/// [`crate::settings::MAX_JOINT_PUSH_SPEED`]; infinite for a spring).
/// The hinges' lanes and the tree take the same steps.
#[inline]
pub(super) fn drift_bias(rate: f32, c: Vec2, max_push: f32) -> Vec2 {
    let bias = rate * c;
    let speed = bias.length();
    if speed > max_push {
        bias * (max_push / speed)
    } else {
        bias
    }
}

/// The soft coefficients of a rigid part in this pass: its drift
/// correction in the biased pass, nothing in the relax.
#[inline]
pub(super) fn rigid(ctx: &StepContext, bias: bool) -> Softness {
    if bias {
        ctx.joint_soft
    } else {
        Softness::RIGID
    }
}

/// The velocity at which a drift `c` along one axis is corrected at
/// `rate`: `rate * c`, no faster than `max_push` either way (see
/// [`drift_bias`]; infinite for a spring or an angle).
#[inline]
pub(super) fn drift_rate(rate: f32, c: f32, max_push: f32) -> f32 {
    clamp_symmetric(rate * c, max_push)
}

/// One side of a limit on position `c` (positive while the limit is not
/// reached) with relative velocity `cdot` along it and effective mass
/// `mass`: the change of the accumulated impulse `acc` (kept at least 0).
/// A limit not reached yet lets the gap close within the substep; one
/// passed is pushed back softly in the biased pass, no faster than
/// `max_push` (a slider's or a rod's limit: see
/// [`crate::settings::MAX_JOINT_PUSH_SPEED`]; infinite for a hinge's
/// angle, which turns each body about its own center).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(super) fn limit_impulse(
    c: f32,
    cdot: f32,
    mass: f32,
    acc: &mut f32,
    ctx: &StepContext,
    bias: bool,
    max_push: f32,
) -> f32 {
    let (rate, soft) = if c > 0.0 {
        (c * ctx.inv_h(), Softness::RIGID)
    } else {
        let soft = rigid(ctx, bias);
        (drift_rate(soft.bias_rate, c, max_push), soft)
    };
    let impulse = -soft.mass_scale * mass * (cdot + rate) - soft.impulse_scale * *acc;
    let new = (*acc + impulse).max(0.0);
    let applied = new - *acc;
    *acc = new;
    applied
}

/// A motor's change of accumulated impulse `acc`: towards `cdot == 0` with
/// mass `mass`, the total within `+/- max`.
#[inline]
pub(super) fn motor_impulse(cdot: f32, mass: f32, max: f32, acc: &mut f32) -> f32 {
    let old = *acc;
    *acc = clamp_symmetric(old - mass * cdot, max);
    *acc - old
}

/// A soft constraint's impulse along one axis: position error `c`
/// corrected no faster than `max_push` (see [`drift_rate`]), velocity
/// `cdot`, effective mass `mass`, accumulated impulse `acc` (updated).
#[inline]
pub(super) fn soft_impulse(
    soft: Softness,
    (c, max_push): (f32, f32),
    cdot: f32,
    mass: f32,
    acc: &mut f32,
) -> f32 {
    let bias = drift_rate(soft.bias_rate, c, max_push);
    let impulse = -soft.mass_scale * mass * (cdot + bias) - soft.impulse_scale * *acc;
    *acc += impulse;
    impulse
}

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
        let perp = crate::math::left_perp(axis);
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
            ctx,
            bias,
            most,
        );
        m.apply_axial(j, self.axis, self.axial_arms, push);
        let i = &mut j.impulses;
        let pull = limit_impulse(
            upper - self.translation,
            -speed(m),
            mass,
            &mut i.upper,
            ctx,
            bias,
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
