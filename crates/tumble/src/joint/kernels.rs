//! The impulse formulas the kinds' kernels share: a point held in both
//! directions at once (a 2x2 block), a soft constraint along one axis, a
//! motor's clamped impulse, one side of a limit (speculative while not
//! reached), and the drift correction of a rigid part in each pass. The
//! solver's lane kernels for hinges and its exact tree solve take the same
//! steps.

use crate::math::{clamp_symmetric, Vec2};
use crate::step_context::{Softness, StepContext};

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
pub(crate) fn point_mass_matrix(masses: [f32; 4], ra: Vec2, rb: Vec2) -> [f32; 3] {
    let [ma, ia, mb, ib] = masses;
    let k11 = ma + mb + ra.y * ra.y * ia + rb.y * rb.y * ib;
    let k12 = -ra.y * ra.x * ia - rb.y * rb.x * ib;
    let k22 = ma + mb + ra.x * ra.x * ia + rb.x * rb.x * ib;
    [k11, k12, k22]
}

/// The point constraint's 2x2 mass matrix `k` ([`point_mass_matrix`])
/// solved against `rhs`: `K^-1 rhs`.
#[inline]
pub(super) fn solve_point([k11, k12, k22]: [f32; 3], rhs: Vec2) -> Vec2 {
    solve_2x2(k11, k12, k22, rhs)
}

/// The soft point constraint's impulse, `k` its mass matrix
/// ([`point_mass_matrix`] at its anchors now): drift `c`, relative
/// velocity `cdot`, softness `soft`, accumulated impulse `acc` (not yet
/// updated), the drift corrected no faster than `max_push`.
#[inline]
pub(super) fn point_impulse(
    k: [f32; 3],
    soft: Softness,
    c: Vec2,
    cdot: Vec2,
    acc: Vec2,
    max_push: f32,
) -> Vec2 {
    let x = solve_point(k, cdot + drift_bias(soft.bias_rate, c, max_push));
    -soft.mass_scale * x - soft.impulse_scale * acc
}

/// The velocity at which a drift `c` is corrected at `rate`: `rate * c`,
/// no faster than `max_push` (see
/// [`crate::settings::MAX_JOINT_PUSH_SPEED`]; infinite for a spring).
/// The hinges' lanes and the tree take the same steps.
#[inline]
pub(crate) fn drift_bias(rate: f32, c: Vec2, max_push: f32) -> Vec2 {
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
pub(crate) fn rigid(ctx: &StepContext, bias: bool) -> Softness {
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
/// A limit is a hard bound on where the substep ends: one not reached yet
/// lets the gap close within the substep and no further (speculative),
/// and one passed is pushed back to it within the substep in the biased
/// pass (no faster than `max_push`: a slider's or a rod's limit, see
/// [`crate::settings::MAX_JOINT_PUSH_SPEED`]; infinite for a hinge's
/// angle), the relax taking that push out of the velocities again. A
/// soft limit (the joints' stiffness, as Box2D v3's) gives way under a
/// load that outweighs its spring: ragdolls falling on each other bent
/// their hinges up to 48 degrees past their limits, where hard ones,
/// converged by [`LIMIT_PASSES`](crate::solver::LIMIT_PASSES), hold them
/// within 5.
#[inline]
pub(super) fn limit_impulse(
    c: f32,
    cdot: f32,
    mass: f32,
    acc: &mut f32,
    (inv_h, bias): (f32, bool),
    max_push: f32,
) -> f32 {
    let rate = if c > 0.0 {
        c * inv_h
    } else {
        drift_rate(if bias { inv_h } else { 0.0 }, c, max_push)
    };
    let impulse = -mass * (cdot + rate);
    let new = (*acc + impulse).max(0.0);
    let applied = new - *acc;
    *acc = new;
    applied
}

/// A pass over the limits has settled a limit when what it applied is at
/// most this fraction of the impulse the limit stores: another pass would
/// change what the limit pushes by less again. A few limbs held apart
/// from any contact (a lander's legs pressed into their limits by their
/// motors in flight) settle in one pass, and the passes left would only
/// cost time.
pub(crate) const LIMIT_SETTLED: f32 = 1e-3;

/// Whether a pass over a limit that applied `applied` (the two rows'
/// impulses, in magnitude) to a limit now storing `stored` has yet to
/// settle it (see [`LIMIT_SETTLED`]).
#[inline]
pub(crate) fn limit_unsettled(applied: f32, stored: f32) -> bool {
    applied > LIMIT_SETTLED * stored
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
