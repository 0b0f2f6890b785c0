//! A joint in the step: each awake joint prepared into its constraint
//! ([`prepare_joint`]), then, every substep, warm started and solved (the
//! soft step's biased pass and its relax pass) in the graph colors beside
//! the contacts, and what it did read back ([`reaction`]) for the next
//! step's warm start and the user. What a kind does is its own (its
//! kernels, its reaction); this file prepares each joint (its springs,
//! and whether its kernels read the angle) and hands it to its kind.
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
//! Each kernel writes only the bodies that can move
//! ([`footprint`](super::footprint)).

use super::constraint::{JointConstraint, LimitRows, Motion};
use super::{distance, motor, prismatic, revolute, weld, wheel, Joint, JointImpulses, JointKind};
use crate::body::{Body, BodyState, SolverBody, StateCell};
use crate::math::{Rot, Vec2};
use crate::step_context::{Softness, StepContext};
use crate::store::Store;

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
        held_exactly: false,
        point_held: false,
        limit_rows: LimitRows::NONE,
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
        JointKind::Motor(_) => weld::warm_start(j, m),
        JointKind::Filter => return false,
    }
    true
}

/// One iteration of the joint: the biased pass (`bias`) or the relax.
pub(crate) fn solve(j: &mut JointConstraint, states: &[StateCell], ctx: &StepContext, bias: bool) {
    if j.held_exactly {
        return;
    }
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

/// One pass over the joint's limits alone, after a biased iteration
/// (see [`LIMIT_PASSES`](crate::solver::LIMIT_PASSES)): a hinge's whose
/// limit pushes; nothing for other kinds. Returns whether the pass has
/// yet to settle it (see [`LIMIT_SETTLED`](crate::joint::LIMIT_SETTLED)).
pub(crate) fn solve_limits(j: &mut JointConstraint, states: &[StateCell], ctx: &StepContext) -> bool {
    let JointKind::Revolute(r) = j.kind else {
        return false;
    };
    if j.held_exactly {
        return false;
    }
    let mut m = Motion::load(j, states);
    let Some(unsettled) = revolute::solve_limits(j, &r, &mut m, ctx) else {
        return false;
    };
    m.store(j, states);
    unsettled
}

/// What the joint did over the step: the force on body B (world axes)
/// and the torque, from its impulses per substep of length `h`, and its
/// motor's impulse over the whole step of `substeps`.
pub(crate) fn reaction(j: &JointConstraint, h: f32, substeps: u32) -> (Vec2, f32, f32) {
    let (impulse, angular) = match j.kind {
        JointKind::Revolute(_) => revolute::reaction(j),
        JointKind::Prismatic(_) => prismatic::reaction(j),
        JointKind::Distance(_) => distance::reaction(j),
        JointKind::Weld(_) => weld::reaction(j),
        JointKind::Wheel(_) => wheel::reaction(j),
        JointKind::Motor(_) => weld::reaction(j),
        JointKind::Filter => (Vec2::ZERO, 0.0),
    };
    (impulse / h, angular / h, j.impulses.motor * substeps as f32)
}
