//! The scalar kernels: one constraint at a time. They solve what the
//! coloring could not put in a lane batch, and are the reference the
//! lane-wide kernels in [`super::wide`] are tested against.

use super::types::{ConstraintPoint, ContactConstraint};
use crate::body::{BodyState, StateCell};
use crate::contact::Contact;
use crate::math::{clamp_symmetric, cross, cross_sv, right_perp, Vec2};
use crate::step_context::{Softness, StepContext};

/// Current separation of a point from the bodies' motion since the step
/// began (first order in the rotation, exact in the translation): the
/// separation then, plus how far each anchor moved along the normal. The
/// anchors' moves are summed as they are, `dp + (dq - 1) r`, not as the
/// difference of where they are now and where they were: that difference
/// of two numbers the size of a body rounds to a ten-millionth of it, and
/// the soft step turns such noise into speeds that never settle (a box
/// resting on another kept moving at a few 1e-7 m/s), where a body at
/// rest (`dq` exactly 1) moves its anchors by exactly nothing.
///
/// A circle's side (`round`, its radius, see `Contact::round`) is
/// followed from its center: turning a circle about its center leaves its
/// nearest point where it was, where the material point that touched
/// rolls away and lifts by `r (1 - cos)` (so the anchors' moves along the
/// normal, less `r (1 - cos)` for each circle). Followed as a material
/// point, a ball rolling at 5 m/s on a floor seemed to lift 7 mm a step,
/// sank 2.6 mm into it and bounced on it at 0.08 m/s.
#[inline]
pub(super) fn current_separation(
    cp: &ConstraintPoint,
    n: Vec2,
    round: [f32; 2],
    ba: &BodyState,
    bb: &BodyState,
) -> f32 {
    let turned = |q: crate::math::Rot, r: Vec2| {
        Vec2::new((q.c - 1.0) * r.x - q.s * r.y, q.s * r.x + (q.c - 1.0) * r.y)
    };
    let d = (bb.dp - ba.dp) + (turned(bb.dq, cp.rb) - turned(ba.dq, cp.ra));
    let rolled = round[0] * (ba.dq.c - 1.0) + round[1] * (bb.dq.c - 1.0);
    d.dot(n) + rolled + cp.start_separation
}

/// The velocity of point `cp` of body B relative to body A's along `n`
/// (of the pseudo-velocities, when the states are the split impulses').
#[inline]
pub(super) fn relative_normal_velocity(cp: &ConstraintPoint, n: Vec2, ba: &BodyState, bb: &BodyState) -> f32 {
    let dv = bb.v + cross_sv(bb.w, cp.rb) - ba.v - cross_sv(ba.w, cp.ra);
    dv.dot(n)
}

/// Applies impulse `p` at anchors `ra`, `rb` (minus to body `a`, plus to
/// body `b`), with the constraint's copy of the masses, to the velocities
/// in `states` (the pseudo-velocities, for a split impulse).
#[inline]
pub(super) fn apply_impulse(
    states: &[StateCell],
    masses: [f32; 4],
    (a, b): (usize, usize),
    (ra, rb): (Vec2, Vec2),
    p: Vec2,
) {
    let [ma, ia, mb, ib] = masses;
    let (dva, dwa) = (ma * p, ia * cross(ra, p));
    let (dvb, dwb) = (mb * p, ib * cross(rb, p));
    // A body with neither mass nor inertia to move (static, kinematic)
    // is left alone: the same bits, and its shared row is never written.
    let (sa, sb) = (&states[a], &states[b]);
    if ma != 0.0 || ia != 0.0 {
        let (v, w) = sa.velocity();
        sa.set_velocity(v - dva, w - dwa);
    }
    if mb != 0.0 || ib != 0.0 {
        let (v, w) = sb.velocity();
        sb.set_velocity(v + dvb, w + dwb);
    }
}

/// Solves the two normal impulses of a two-point manifold together: the
/// linear complementarity problem `vn = K x + b >= target`, `x >= 0`,
/// `x . (vn - target) = 0`, by trying its four cases in turn (both points
/// pushing, only the first, only the second, neither). The scalar twin of
/// the lane-wide kernel in [`super::wide`], for constraints the coloring
/// left over. With `pseudo`, the split impulses on the pseudo-velocities
/// `states`.
pub(super) fn solve_normal_block(
    c: &mut ContactConstraint,
    states: &[StateCell],
    ctx: &StepContext,
    pseudo: bool,
) {
    let (a, b) = (c.a as usize, c.b as usize);
    let n = c.normal;
    let [k11, k12, k22] = c.k;
    let (ba, bb) = (&states[a].load(), &states[b].load());
    let [p1, p2] = &c.points;
    let vn1 = relative_normal_velocity(p1, n, ba, bb);
    let vn2 = relative_normal_velocity(p2, n, ba, bb);
    let (s1, s2) = (p1.separation, p2.separation);
    let (old1, old2, t1, t2) = if pseudo {
        let (t1, t2) = (ctx.push_out(s1), ctx.push_out(s2));
        if p1.pseudo_impulse == 0.0 && p2.pseudo_impulse == 0.0 && vn1 >= t1 && vn2 >= t2 {
            // Nothing pushed yet and nothing to push (both points already
            // separate at least as fast as their targets): zero is the
            // exact answer. The usual case for a resting contact.
            return;
        }
        (p1.pseudo_impulse, p2.pseudo_impulse, t1, t2)
    } else {
        (
            p1.normal_impulse,
            p2.normal_impulse,
            ctx.velocity_target(s1),
            ctx.velocity_target(s2),
        )
    };
    // b = what vn - target would be with the old impulses removed.
    let b1 = vn1 - t1 - (k11 * old1 + k12 * old2);
    let b2 = vn2 - t2 - (k12 * old1 + k22 * old2);
    let x = block_lcp(c.k, c.inv_k, [b1, b2]);
    set_block_impulses(c, states, x, pseudo);
}

/// The two-point linear complementarity problem `K x + b >= 0`, `x >= 0`,
/// `x . (K x + b) = 0` (`k` and `inv_k` as the constraint keeps them), by
/// trying its four cases in turn: both points push, only the first, only
/// the second, neither.
#[inline]
fn block_lcp([k11, k12, k22]: [f32; 3], [i11, i12, i22]: [f32; 3], [b1, b2]: [f32; 2]) -> [f32; 2] {
    // Case 1: both points push: x = -K^-1 b.
    let mut x1 = -(i11 * b1 + i12 * b2);
    let mut x2 = -(i12 * b1 + i22 * b2);
    if !(x1 >= 0.0 && x2 >= 0.0) {
        // Case 2: only the first pushes; the second must then separate.
        x1 = -b1 / k11;
        x2 = 0.0;
        if !(x1 >= 0.0 && k12 * x1 + b2 >= 0.0) {
            // Case 3: only the second pushes.
            x1 = 0.0;
            x2 = -b2 / k22;
            if !(x2 >= 0.0 && k12 * x2 + b1 >= 0.0) {
                // Case 4: neither pushes (both separating), or no case fits
                // (numerically): release both.
                x1 = 0.0;
                x2 = 0.0;
            }
        }
    }
    [x1, x2]
}

/// Restitution for one constraint, once the substeps are done: one
/// complementarity problem over the whole step's impulse at each point the
/// step pushed (a point it never pushed is left alone). The point leaves
/// at its [`bounce_target`], or the step's total impulse there is zero: it
/// may not pull. Solved as the 2x2 block when both points of a block take
/// part (a box landing flat bounces without spin), else point by point.
///
/// Why over the whole step: the approach velocity `vn0` is the one the
/// step began with (plus gravity and forces), and the substeps have
/// already pushed at the point (caught it speculatively, slowed it,
/// pushed it out). With `vn` the normal velocity at the end and `P` the
/// step's total normal impulse at each point (the levers fixed, as the
/// solve has them), the kinetic energy changes by exactly
/// `sum P (vn0 + vn) / 2` over the points: nothing where `vn = -vn0`
/// (e = 1) or `P = 0`, a loss where `vn = -e vn0` with e < 1 or `vn = 0`
/// after an approach. Clamping the last substep's impulse alone at zero
/// let a point keep what the substeps had pushed at it while a bounce
/// elsewhere flung it off faster than it came (a spinning box's other
/// corner; a box squeezed against a wall by a third): elastic boxes in a
/// closed box gained up to 3% of their energy in a single step. So a
/// point may give back what the substeps pushed: its accumulated (last
/// substep's) impulse goes down to its entry in `floors`, the value that
/// leaves the step's total at zero, not to zero.
pub(super) fn bounce_constraint(
    c: &mut ContactConstraint,
    states: &[StateCell],
    bounce: (f32, f32),
    floors: [f32; 2],
) {
    let (a, b) = (c.a as usize, c.b as usize);
    let n = c.normal;
    let pushed = |cp: &ConstraintPoint| cp.max_normal_impulse > 0.0;
    if c.block && pushed(&c.points[0]) && pushed(&c.points[1]) {
        bounce_block(c, states, floors, bounce);
        return;
    }
    let e = c.restitution;
    for (cp, floor) in c.points[..c.count].iter_mut().zip(floors) {
        if !pushed(cp) {
            continue;
        }
        let vn = relative_normal_velocity(cp, n, &states[a].load(), &states[b].load());
        let target = bounce_target(cp, e, bounce);
        let candidate = cp.normal_impulse + cp.normal_mass * (target - vn);
        set_normal_impulse(cp, states, c.masses, (a, b), n, candidate.max(floor));
    }
}

/// Restitution for a two-point block whose points both take part: the
/// block's complementarity problem with each point's [`bounce_target`],
/// over the impulses above `floors` (see [`bounce_constraint`]).
fn bounce_block(c: &mut ContactConstraint, states: &[StateCell], floors: [f32; 2], bounce: (f32, f32)) {
    let (ba, bb) = (&states[c.a as usize].load(), &states[c.b as usize].load());
    let [k11, k12, k22] = c.k;
    let [p1, p2] = &c.points;
    // How much of each point's impulse is above its floor.
    let (y1, y2) = (p1.normal_impulse - floors[0], p2.normal_impulse - floors[1]);
    // b = what vn - target would be with the impulses at their floors.
    let error = |cp: &ConstraintPoint| {
        relative_normal_velocity(cp, c.normal, ba, bb) - bounce_target(cp, c.restitution, bounce)
    };
    let b1 = error(p1) - (k11 * y1 + k12 * y2);
    let b2 = error(p2) - (k12 * y1 + k22 * y2);
    let [x1, x2] = block_lcp(c.k, c.inv_k, [b1, b2]);
    set_block_impulses(c, states, [floors[0] + x1, floors[1] + x2], false);
}

/// The normal velocity restitution aims point `cp` at, from the one it
/// had when the step began (`vn0`, its relative velocity): `-e vn0` if it
/// approached faster than `threshold`, but no faster than `most` (two
/// bodies at the speed limit part no faster, and a restitution of any
/// finite size must not overflow); rest if slower (no bounce, as the
/// threshold asks). If it was separating, it was pushed only because
/// another contact drove it back within the step: then no faster back
/// towards the other body than it was leaving (`-vn0`), the most it may
/// keep without gaining energy (held at rest it would gain `P vn0 / 2`);
/// the next step meets that approach as a collision of its own.
#[inline]
fn bounce_target(cp: &ConstraintPoint, e: f32, (threshold, most): (f32, f32)) -> f32 {
    if cp.relative_velocity <= -threshold {
        (-e * cp.relative_velocity).min(most)
    } else {
        (-cp.relative_velocity).min(0.0)
    }
}

/// Sets point `cp`'s accumulated normal impulse to `candidate`, clamped
/// so it never pulls, and applies the change along `n` to bodies `ab`.
#[inline]
fn push_point(
    cp: &mut ConstraintPoint,
    states: &[StateCell],
    masses: [f32; 4],
    ab: (usize, usize),
    n: Vec2,
    candidate: f32,
) {
    set_normal_impulse(cp, states, masses, ab, n, candidate.max(0.0));
}

/// Sets point `cp`'s accumulated normal impulse to `new_impulse` (and its
/// largest so far), applying the change along `n` to bodies `ab`.
#[inline]
fn set_normal_impulse(
    cp: &mut ConstraintPoint,
    states: &[StateCell],
    masses: [f32; 4],
    (a, b): (usize, usize),
    n: Vec2,
    new_impulse: f32,
) {
    let lambda = new_impulse - cp.normal_impulse;
    cp.normal_impulse = new_impulse;
    cp.max_normal_impulse = cp.max_normal_impulse.max(new_impulse);
    apply_impulse(states, masses, (a, b), (cp.ra, cp.rb), lambda * n);
}

/// Sets a two-point constraint's accumulated normal impulses (split
/// impulses with `pseudo`, `states` then holding the pseudo-velocities)
/// to `x`, applying the change to both bodies.
pub(super) fn set_block_impulses(c: &mut ContactConstraint, states: &[StateCell], x: [f32; 2], pseudo: bool) {
    let (a, b, n, masses) = (c.a as usize, c.b as usize, c.normal, c.masses);
    for (cp, x) in c.points.iter_mut().zip(x) {
        let old = if pseudo {
            cp.pseudo_impulse
        } else {
            cp.normal_impulse
        };
        apply_impulse(states, masses, (a, b), (cp.ra, cp.rb), (x - old) * n);
        if pseudo {
            cp.pseudo_impulse = x;
        } else {
            cp.normal_impulse = x;
            cp.max_normal_impulse = cp.max_normal_impulse.max(x);
        }
    }
}

/// The order of a constraint's points this iteration.
#[inline]
fn point_order(c: &ContactConstraint, reverse: bool) -> [usize; 2] {
    if reverse && c.count == 2 {
        [1, 0]
    } else {
        [0, 1]
    }
}

/// The friction impulses of one constraint, point by point. In the
/// velocity solves (split impulses, Baumgarte, none) friction goes first:
/// non-penetration matters more, so it is solved last and wins where the
/// two disagree. The soft step solves it after the normal impulses (see
/// [`solve_soft_constraint`]).
#[inline]
fn solve_friction(c: &mut ContactConstraint, states: &[StateCell], order: [usize; 2]) {
    let (a, b) = (c.a as usize, c.b as usize);
    let t = right_perp(c.normal);
    for &k in &order[..c.count] {
        let cp = &mut c.points[k];
        let (ba, bb) = (&states[a].load(), &states[b].load());
        let vt = (bb.v + cross_sv(bb.w, cp.rb) - ba.v - cross_sv(ba.w, cp.ra)).dot(t);
        let max_friction = c.friction * cp.normal_impulse;
        let new_impulse = clamp_symmetric(
            cp.tangent_impulse - cp.tangent_mass * (vt - c.tangent_speed),
            max_friction,
        );
        let lambda = new_impulse - cp.tangent_impulse;
        cp.tangent_impulse = new_impulse;
        apply_impulse(states, c.masses, (a, b), (cp.ra, cp.rb), lambda * t);
    }
}

/// The rolling resistance of one constraint (only one that has some):
/// an angular impulse against the bodies' relative spin, bounded by the
/// contact's rolling resistance times its normal impulse this iteration,
/// as friction is by its coefficient: a torque no larger than the
/// resistance's, which stops a rolling ball without pulling it back.
#[inline]
fn solve_rolling(c: &mut ContactConstraint, states: &[StateCell]) {
    if c.rolling_resistance <= 0.0 {
        return;
    }
    let (a, b) = (c.a as usize, c.b as usize);
    let [_, ia, _, ib] = c.masses;
    let (sa, sb) = (&states[a], &states[b]);
    let spin = sb.velocity().1 - sa.velocity().1;
    let normal: f32 = c.points[..c.count].iter().map(|p| p.normal_impulse).sum();
    let most = c.rolling_resistance * normal;
    let new_impulse = clamp_symmetric(c.rolling_impulse - c.rolling_mass * spin, most);
    let lambda = new_impulse - c.rolling_impulse;
    c.rolling_impulse = new_impulse;
    apply_angular_impulse(states, (ia, ib), (a, b), lambda);
}

/// Applies the angular impulse `lambda` to body B and its opposite to A
/// (scaled by their inverse inertias `ia`, `ib`), leaving a body that
/// cannot turn alone.
#[inline]
fn apply_angular_impulse(states: &[StateCell], (ia, ib): (f32, f32), (a, b): (usize, usize), lambda: f32) {
    if ia != 0.0 {
        let (v, w) = states[a].velocity();
        states[a].set_velocity(v, w - ia * lambda);
    }
    if ib != 0.0 {
        let (v, w) = states[b].velocity();
        states[b].set_velocity(v, w + ib * lambda);
    }
}

/// The soft step's coefficients for a point at separation `s`: its bias
/// velocity, mass scale, impulse scale and the mass scale's inverse. A point not touching yet may
/// close its gap this substep, no more (rigid, speculative); a touching
/// one, in the biased pass, is pushed out by the soft constraint (a bias
/// velocity capped at the push-out speed, with the softened mass and part
/// of the accumulated impulse taken back); in the relax pass it is rigid
/// and pushes nothing.
#[inline]
fn soft_terms(s: f32, bias: bool, softness: Softness, ctx: &StepContext) -> (f32, f32, f32, f32) {
    if s > 0.0 {
        (s * ctx.inv_h(), 1.0, 0.0, 1.0)
    } else if bias {
        (
            (softness.mass_scale * softness.bias_rate * s).max(-ctx.max_push_out_speed),
            softness.mass_scale,
            softness.impulse_scale,
            softness.inv_mass_scale,
        )
    } else {
        (0.0, 1.0, 0.0, 1.0)
    }
}

/// The soft block update of a two-point manifold: both points' new
/// normal impulses at once, before the clamp (the caller checks both are
/// non-negative). `k` is the block's `[k11, k12, k22]`, `vn` the points'
/// normal velocities, `terms` their [`soft_terms`] and `old` their
/// accumulated impulses.
///
/// Each point is its own soft constraint, as Box2D solves it point by
/// point: the spring behind point `i` is as stiff as its own effective
/// mass `1 / k_ii` allows (`omega^2 / k_ii`). In compliance form, with
/// `m_i` and `i_i` its mass and impulse scales (`m_i + i_i = 1`), one
/// point's soft update `dx_i = -(m_i vn_i + bias_i) / k_ii - i_i x_i` is
/// `(k_ii + g_i) dx_i = -(vn_i + bias_i / m_i) - g_i x_i` with the
/// compliance `g_i = k_ii i_i / m_i`. The block solves both rows at once
/// with the full coupling `k12` and the same per-point compliances:
/// `(K + diag(g)) dx = -(vn + bias / m) - diag(g) x`. At rest that leaves
/// each point's overlap where Box2D's leaves it, `k_ii x_i / (h omega^2)`
/// for its share `x_i` of the load: a box on the ground sinks
/// `(1 + m w^2 / I) g / (2 omega^2)` (1.25 g / omega^2 for a square).
///
/// Each point's compliance is its own, as in Box2D, rather than the
/// whole matrix scaled (`dx = -K^-1 (m vn + bias) - i x`, a coupled
/// compliance `K i / m`): resting on two offset boxes, as every box of a
/// pyramid does, a box's two points both lie to one side of its center,
/// `k12` is nearly `k11`, and each point's overlap would come out as
/// `(K x)_i`, the other point's load added in, so a tall pyramid would
/// sink far deeper than the per-point rule lets it.
#[inline]
fn soft_block(k: [f32; 3], vn: [f32; 2], terms: [(f32, f32, f32, f32); 2], old: [f32; 2]) -> [f32; 2] {
    let [k11, k12, k22] = k;
    let [(b1, _, i1, inv_m1), (b2, _, i2, inv_m2)] = terms;
    // K + diag(g) has k_ii + k_ii i_i / m_i = k_ii / m_i on its diagonal.
    let (d11, d22) = (k11 * inv_m1, k22 * inv_m2);
    let r1 = vn[0] + (b1 + i1 * k11 * old[0]) * inv_m1;
    let r2 = vn[1] + (b2 + i2 * k22 * old[1]) * inv_m2;
    let inv = 1.0 / (d11 * d22 - k12 * k12);
    [
        old[0] - (d22 * r1 - k12 * r2) * inv,
        old[1] - (d11 * r2 - k12 * r1) * inv,
    ]
}

/// One soft-step iteration of one constraint, scalar: the normal
/// impulses, with the push-out of [`soft_terms`] when `bias`, then
/// friction. A two-point manifold whose points both push takes one block
/// update ([`soft_block`]: the same soft step for both at once): solved
/// point by point, the first point of every box took more load each pass,
/// and the torque that left tipped stacks of 20 over. Otherwise the
/// points go one at a time.
///
/// Friction comes after the normal impulses, as in Box2D's soft step, so
/// its bound is this iteration's normal impulse. Before them (as the
/// velocity solves have it), its bound was the impulse left from the
/// last pass and the warm start: the 100-row pyramid spread 0.71 m that
/// way, against 0.19 with friction after.
pub(super) fn solve_soft_constraint(
    c: &mut ContactConstraint,
    states: &[StateCell],
    ctx: &StepContext,
    reverse: bool,
    bias: bool,
) {
    let order = point_order(c, reverse);
    solve_soft_normal(c, states, ctx, order, bias);
    solve_friction(c, states, order);
    solve_rolling(c, states);
}

/// The normal impulses of one soft-step iteration (see
/// [`solve_soft_constraint`]).
#[inline]
fn solve_soft_normal(
    c: &mut ContactConstraint,
    states: &[StateCell],
    ctx: &StepContext,
    order: [usize; 2],
    bias: bool,
) {
    let (a, b) = (c.a as usize, c.b as usize);
    let n = c.normal;
    let softness = ctx.contact_softness(c.masses);
    if c.block {
        let [p1, p2] = &c.points;
        let terms = [
            soft_terms(p1.separation, bias, softness, ctx),
            soft_terms(p2.separation, bias, softness, ctx),
        ];
        let (ba, bb) = (&states[a].load(), &states[b].load());
        let vn = [
            relative_normal_velocity(p1, n, ba, bb),
            relative_normal_velocity(p2, n, ba, bb),
        ];
        let [x1, x2] = soft_block(c.k, vn, terms, [p1.normal_impulse, p2.normal_impulse]);
        if x1 >= 0.0 && x2 >= 0.0 {
            set_block_impulses(c, states, [x1, x2], false);
            return;
        }
    }
    for &k in &order[..c.count] {
        let cp = &mut c.points[k];
        let (velocity_bias, mass_scale, impulse_scale, _) = soft_terms(cp.separation, bias, softness, ctx);
        let vn = relative_normal_velocity(cp, n, &states[a].load(), &states[b].load());
        let impulse = -cp.normal_mass * (mass_scale * vn + velocity_bias) - impulse_scale * cp.normal_impulse;
        push_point(cp, states, c.masses, (a, b), n, cp.normal_impulse + impulse);
    }
}

/// One velocity iteration of one constraint, scalar: friction, then the
/// normal impulses (as a block when the manifold has one).
pub(super) fn solve_constraint(
    c: &mut ContactConstraint,
    states: &[StateCell],
    ctx: &StepContext,
    reverse: bool,
) {
    let (a, b) = (c.a as usize, c.b as usize);
    let n = c.normal;
    let order = point_order(c, reverse);
    solve_friction(c, states, order);
    solve_rolling(c, states);
    if c.block {
        solve_normal_block(c, states, ctx, false);
        return;
    }
    for &k in &order[..c.count] {
        let cp = &mut c.points[k];
        let (ba, bb) = (&states[a].load(), &states[b].load());
        let vn = relative_normal_velocity(cp, n, ba, bb);
        let target = ctx.velocity_target(cp.separation);
        push_point(
            cp,
            states,
            c.masses,
            (a, b),
            n,
            cp.normal_impulse + cp.normal_mass * (target - vn),
        );
    }
}

/// One split-impulse iteration of one constraint, scalar, on the
/// pseudo-velocities `states` (the separations are the constraint's).
pub(super) fn solve_pseudo_constraint(
    c: &mut ContactConstraint,
    states: &[StateCell],
    ctx: &StepContext,
    reverse: bool,
) {
    if c.block {
        solve_normal_block(c, states, ctx, true);
        return;
    }
    let (a, b) = (c.a as usize, c.b as usize);
    let n = c.normal;
    let order = point_order(c, reverse);
    for &k in &order[..c.count] {
        let cp = &mut c.points[k];
        let (ba, bb) = (&states[a].load(), &states[b].load());
        let target = ctx.push_out(cp.separation);
        if target == 0.0 && cp.pseudo_impulse == 0.0 {
            continue;
        }
        let vn = relative_normal_velocity(cp, n, ba, bb);
        let new_impulse = (cp.pseudo_impulse + cp.normal_mass * (target - vn)).max(0.0);
        let lambda = new_impulse - cp.pseudo_impulse;
        cp.pseudo_impulse = new_impulse;
        apply_impulse(states, c.masses, (a, b), (cp.ra, cp.rb), lambda * n);
    }
}

/// Applies one constraint's accumulated impulses, scalar.
pub(super) fn warm_start_constraint(c: &ContactConstraint, states: &[StateCell]) {
    let t = right_perp(c.normal);
    for cp in &c.points[..c.count] {
        let p = cp.normal_impulse * c.normal + cp.tangent_impulse * t;
        apply_impulse(states, c.masses, (c.a as usize, c.b as usize), (cp.ra, cp.rb), p);
    }
    if c.rolling_impulse != 0.0 {
        let [_, ia, _, ib] = c.masses;
        apply_angular_impulse(states, (ia, ib), (c.a as usize, c.b as usize), c.rolling_impulse);
    }
}

/// Writes one constraint's accumulated impulses, times `scale` (per
/// substep to per step), into its contact's manifold, where the next step
/// finds them by feature id.
#[inline]
pub(super) fn store_impulses(c: &ContactConstraint, contact: &mut Contact, scale: f32) {
    let m = &mut contact.manifold;
    for (mp, cp) in m.points[..c.count].iter_mut().zip(&c.points) {
        mp.normal_impulse = cp.normal_impulse * scale;
        mp.tangent_impulse = cp.tangent_impulse * scale;
    }
    contact.rolling_impulse = c.rolling_impulse * scale;
}
