//! The contact solver: warm-started sequential impulses with Coulomb
//! friction, restitution, and position correction by split impulses.
//!
//! Each contact point is a pair of constraints: the normal impulse keeps the
//! surfaces from approaching (`vn >= target`, accumulated impulse `>= 0`),
//! the friction impulse opposes sliding (accumulated impulse within
//! `+/- mu * normal impulse`). Points are solved one at a time, many times
//! over (Gauss-Seidel); starting each step from last step's impulses (warm
//! starting) is what makes that converge for a stack.

use super::contact::Contact;
use crate::math::{cross, cross_sv, right_perp, Vec2};
use crate::settings::{PositionCorrection, SolverSettings, Sweep};

/// The velocity state of one body as the solver sees it. Kept apart from
/// the body's bookkeeping so the inner loops touch only this.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SolverBody {
    pub v: Vec2,
    pub w: f32,
    pub inv_mass: f32,
    pub inv_inertia: f32,
    /// Pseudo-velocity of split-impulse position correction: reaches the
    /// position integrator only, never the real velocity.
    pub pv: Vec2,
    /// Pseudo angular velocity.
    pub pw: f32,
}

#[derive(Clone, Copy, Debug, Default)]
struct ConstraintPoint {
    /// Anchor relative to body A's centre of mass (world orientation).
    ra: Vec2,
    /// Anchor relative to body B's centre of mass.
    rb: Vec2,
    normal_mass: f32,
    tangent_mass: f32,
    normal_impulse: f32,
    tangent_impulse: f32,
    pseudo_impulse: f32,
    /// Largest normal impulse applied this step: restitution applies only
    /// where the contact actually pushed.
    max_normal_impulse: f32,
    /// Normal velocity the velocity solve must reach (`vn >= target`):
    /// closes a speculative gap exactly, or Baumgarte's push-out.
    velocity_target: f32,
    /// Pseudo-velocity target of split-impulse position correction.
    pseudo_target: f32,
    /// Normal velocity before the solve, for restitution.
    relative_velocity: f32,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ContactConstraint {
    a: u32,
    b: u32,
    contact: u32,
    normal: Vec2,
    friction: f32,
    restitution: f32,
    count: usize,
    points: [ConstraintPoint; 2],
    /// Two-point manifolds: the 2x2 normal mass matrix `K` (symmetric:
    /// `k11, k12, k22`) and its inverse, when it is well conditioned. The
    /// two normal impulses are then solved together, exactly, instead of
    /// one after the other: a box resting on two points gets the same
    /// impulse on both corners, with no torque left over to rock it.
    k: [f32; 3],
    inv_k: [f32; 3],
    block: bool,
}

/// Tolerances the solver needs, already scaled to the world's length unit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverTolerances {
    pub linear_slop: f32,
    pub max_linear_correction: f32,
}

/// Builds one constraint per touching manifold (both bodies' masses, the
/// anchors, the effective masses and the velocity targets).
pub(crate) fn prepare_contacts(
    constraints: &mut Vec<ContactConstraint>,
    contacts: &[Contact],
    bodies: &[SolverBody],
    centers: &[Vec2],
    settings: &SolverSettings,
    tol: SolverTolerances,
    dt: f32,
) {
    constraints.clear();
    let inv_dt = if dt > 0.0 { 1.0 / dt } else { 0.0 };
    for (ci, c) in contacts.iter().enumerate() {
        if !c.alive || c.manifold.count == 0 {
            continue;
        }
        let (ia, ib) = (c.body_a as usize, c.body_b as usize);
        let (ba, bb) = (&bodies[ia], &bodies[ib]);
        let (ma, mb, iia, iib) = (ba.inv_mass, bb.inv_mass, ba.inv_inertia, bb.inv_inertia);
        if ma + mb + iia + iib == 0.0 {
            continue;
        }
        let n = c.manifold.normal;
        let t = right_perp(n);
        let mut cc = ContactConstraint {
            a: c.body_a,
            b: c.body_b,
            contact: ci as u32,
            normal: n,
            friction: c.friction,
            restitution: c.restitution,
            count: c.manifold.count,
            points: [ConstraintPoint::default(); 2],
            k: [0.0; 3],
            inv_k: [0.0; 3],
            block: false,
        };
        for (mp, cp) in c.manifold.points().iter().zip(cc.points.iter_mut()) {
            let ra = mp.point - centers[ia];
            let rb = mp.point - centers[ib];
            let rna = cross(ra, n);
            let rnb = cross(rb, n);
            let kn = ma + mb + iia * rna * rna + iib * rnb * rnb;
            let rta = cross(ra, t);
            let rtb = cross(rb, t);
            let kt = ma + mb + iia * rta * rta + iib * rtb * rtb;
            let dv = bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra);
            let sep = mp.separation;
            // A point that is not touching yet may close its gap this step,
            // no more. A touching one must not approach; Baumgarte adds a
            // push-out velocity, split impulses route it to pseudo-velocity.
            let push_out = (settings.baumgarte * inv_dt * (-(sep + tol.linear_slop)))
                .clamp(0.0, tol.max_linear_correction * inv_dt);
            let velocity_target = if sep > 0.0 {
                -sep * inv_dt
            } else if settings.position_correction == PositionCorrection::Baumgarte {
                push_out
            } else {
                0.0
            };
            let pseudo_target = if settings.position_correction == PositionCorrection::SplitImpulse {
                push_out
            } else {
                0.0
            };
            let (normal_impulse, tangent_impulse) = if settings.warm_starting {
                (mp.normal_impulse, mp.tangent_impulse)
            } else {
                (0.0, 0.0)
            };
            *cp = ConstraintPoint {
                ra,
                rb,
                normal_mass: if kn > 0.0 { 1.0 / kn } else { 0.0 },
                tangent_mass: if kt > 0.0 { 1.0 / kt } else { 0.0 },
                normal_impulse,
                tangent_impulse,
                pseudo_impulse: 0.0,
                max_normal_impulse: 0.0,
                velocity_target,
                pseudo_target,
                relative_velocity: dv.dot(n),
            };
        }
        if cc.count == 2 {
            let [p1, p2] = &cc.points;
            let (rn1a, rn1b) = (cross(p1.ra, n), cross(p1.rb, n));
            let (rn2a, rn2b) = (cross(p2.ra, n), cross(p2.rb, n));
            let k11 = ma + mb + iia * rn1a * rn1a + iib * rn1b * rn1b;
            let k22 = ma + mb + iia * rn2a * rn2a + iib * rn2b * rn2b;
            let k12 = ma + mb + iia * rn1a * rn2a + iib * rn1b * rn2b;
            let det = k11 * k22 - k12 * k12;
            // Nearly parallel rows (two points almost on top of each other)
            // make K singular: then solve the points one at a time.
            const MAX_CONDITION: f32 = 1000.0;
            if k11 * k11 < MAX_CONDITION * det && det > 0.0 {
                let inv = 1.0 / det;
                cc.k = [k11, k12, k22];
                cc.inv_k = [k22 * inv, -k12 * inv, k11 * inv];
                cc.block = true;
            }
        }
        constraints.push(cc);
    }
}

/// Solves the two normal impulses of a two-point manifold together: the
/// mixed linear complementarity problem `vn = K x + b >= target`, `x >= 0`,
/// `x . (vn - target) = 0`, by trying its four cases in turn (both points
/// pushing, only the first, only the second, neither).
fn solve_normal_block(c: &mut ContactConstraint, bodies: &mut [SolverBody], pseudo: bool) {
    let (a, b) = (c.a as usize, c.b as usize);
    let n = c.normal;
    let [k11, k12, k22] = c.k;
    let [i11, i12, i22] = c.inv_k;
    let (ba, bb) = (&bodies[a], &bodies[b]);
    let (va, wa, vb, wb) = if pseudo {
        (ba.pv, ba.pw, bb.pv, bb.pw)
    } else {
        (ba.v, ba.w, bb.v, bb.w)
    };
    let [p1, p2] = &c.points;
    let vn1 = (vb + cross_sv(wb, p1.rb) - va - cross_sv(wa, p1.ra)).dot(n);
    let vn2 = (vb + cross_sv(wb, p2.rb) - va - cross_sv(wa, p2.ra)).dot(n);
    let (old1, old2, t1, t2) = if pseudo {
        (p1.pseudo_impulse, p2.pseudo_impulse, p1.pseudo_target, p2.pseudo_target)
    } else {
        (p1.normal_impulse, p2.normal_impulse, p1.velocity_target, p2.velocity_target)
    };
    // b = what vn - target would be with the old impulses removed.
    let b1 = vn1 - t1 - (k11 * old1 + k12 * old2);
    let b2 = vn2 - t2 - (k12 * old1 + k22 * old2);
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
    let (d1, d2) = (x1 - old1, x2 - old2);
    let (ra1, rb1, ra2, rb2) = (p1.ra, p1.rb, p2.ra, p2.rb);
    let (p1v, p2v) = (d1 * n, d2 * n);
    let ba = &mut bodies[a];
    let dva = -ba.inv_mass * (p1v + p2v);
    let dwa = -ba.inv_inertia * (cross(ra1, p1v) + cross(ra2, p2v));
    if pseudo {
        ba.pv += dva;
        ba.pw += dwa;
    } else {
        ba.v += dva;
        ba.w += dwa;
    }
    let bb = &mut bodies[b];
    let dvb = bb.inv_mass * (p1v + p2v);
    let dwb = bb.inv_inertia * (cross(rb1, p1v) + cross(rb2, p2v));
    if pseudo {
        bb.pv += dvb;
        bb.pw += dwb;
    } else {
        bb.v += dvb;
        bb.w += dwb;
    }
    if pseudo {
        c.points[0].pseudo_impulse = x1;
        c.points[1].pseudo_impulse = x2;
    } else {
        c.points[0].normal_impulse = x1;
        c.points[1].normal_impulse = x2;
        c.points[0].max_normal_impulse = c.points[0].max_normal_impulse.max(x1);
        c.points[1].max_normal_impulse = c.points[1].max_normal_impulse.max(x2);
    }
}

#[inline]
fn apply_impulse(bodies: &mut [SolverBody], a: usize, b: usize, ra: Vec2, rb: Vec2, p: Vec2) {
    let ba = &mut bodies[a];
    ba.v -= ba.inv_mass * p;
    ba.w -= ba.inv_inertia * cross(ra, p);
    let bb = &mut bodies[b];
    bb.v += bb.inv_mass * p;
    bb.w += bb.inv_inertia * cross(rb, p);
}

/// Applies last step's impulses (zero when warm starting is off, as
/// prepared).
pub(crate) fn warm_start(constraints: &[ContactConstraint], bodies: &mut [SolverBody]) {
    for c in constraints {
        let t = right_perp(c.normal);
        for cp in &c.points[..c.count] {
            let p = cp.normal_impulse * c.normal + cp.tangent_impulse * t;
            apply_impulse(bodies, c.a as usize, c.b as usize, cp.ra, cp.rb, p);
        }
    }
}

/// Point order for iteration `i`: forward always, or backward on odd
/// iterations when the sweep alternates.
#[inline]
fn backward(sweep: Sweep, iteration: u32) -> bool {
    sweep == Sweep::Alternating && iteration % 2 == 1
}

fn solve_constraint(c: &mut ContactConstraint, bodies: &mut [SolverBody], reverse: bool) {
    let (a, b) = (c.a as usize, c.b as usize);
    let n = c.normal;
    let t = right_perp(n);
    let order: [usize; 2] = if reverse && c.count == 2 { [1, 0] } else { [0, 1] };
    // Friction first: non-penetration matters more, so it is solved last
    // and wins where the two disagree.
    for &k in &order[..c.count] {
        let cp = &mut c.points[k];
        let (ba, bb) = (&bodies[a], &bodies[b]);
        let dv = bb.v + cross_sv(bb.w, cp.rb) - ba.v - cross_sv(ba.w, cp.ra);
        let vt = dv.dot(t);
        let max_friction = c.friction * cp.normal_impulse;
        let new_impulse = (cp.tangent_impulse - cp.tangent_mass * vt).clamp(-max_friction, max_friction);
        let lambda = new_impulse - cp.tangent_impulse;
        cp.tangent_impulse = new_impulse;
        apply_impulse(bodies, a, b, cp.ra, cp.rb, lambda * t);
    }
    if c.block {
        solve_normal_block(c, bodies, false);
        return;
    }
    for &k in &order[..c.count] {
        let cp = &mut c.points[k];
        let (ba, bb) = (&bodies[a], &bodies[b]);
        let dv = bb.v + cross_sv(bb.w, cp.rb) - ba.v - cross_sv(ba.w, cp.ra);
        let vn = dv.dot(n);
        let new_impulse = (cp.normal_impulse + cp.normal_mass * (cp.velocity_target - vn)).max(0.0);
        let lambda = new_impulse - cp.normal_impulse;
        cp.normal_impulse = new_impulse;
        cp.max_normal_impulse = cp.max_normal_impulse.max(new_impulse);
        apply_impulse(bodies, a, b, cp.ra, cp.rb, lambda * n);
    }
}

/// The velocity iterations.
pub(crate) fn solve_velocities(
    constraints: &mut [ContactConstraint],
    bodies: &mut [SolverBody],
    settings: &SolverSettings,
) {
    for it in 0..settings.iterations {
        if backward(settings.sweep, it) {
            for c in constraints.iter_mut().rev() {
                solve_constraint(c, bodies, true);
            }
        } else {
            for c in constraints.iter_mut() {
                solve_constraint(c, bodies, false);
            }
        }
    }
}

/// Restitution, after the velocity iterations: each point that approached
/// faster than the threshold and was actually pushed gets a normal velocity
/// of `-e` times its approach velocity.
pub(crate) fn apply_restitution(constraints: &mut [ContactConstraint], bodies: &mut [SolverBody], threshold: f32) {
    for c in constraints.iter_mut() {
        if c.restitution == 0.0 {
            continue;
        }
        let (a, b) = (c.a as usize, c.b as usize);
        let n = c.normal;
        for cp in c.points[..c.count].iter_mut() {
            if cp.relative_velocity > -threshold || cp.max_normal_impulse == 0.0 {
                continue;
            }
            let (ba, bb) = (&bodies[a], &bodies[b]);
            let dv = bb.v + cross_sv(bb.w, cp.rb) - ba.v - cross_sv(ba.w, cp.ra);
            let vn = dv.dot(n);
            let target = -c.restitution * cp.relative_velocity;
            let new_impulse = (cp.normal_impulse + cp.normal_mass * (target - vn)).max(0.0);
            let lambda = new_impulse - cp.normal_impulse;
            cp.normal_impulse = new_impulse;
            cp.max_normal_impulse = cp.max_normal_impulse.max(new_impulse);
            apply_impulse(bodies, a, b, cp.ra, cp.rb, lambda * n);
        }
    }
}

fn solve_pseudo_constraint(c: &mut ContactConstraint, bodies: &mut [SolverBody], reverse: bool) {
    if c.block {
        solve_normal_block(c, bodies, true);
        return;
    }
    let (a, b) = (c.a as usize, c.b as usize);
    let n = c.normal;
    let order: [usize; 2] = if reverse && c.count == 2 { [1, 0] } else { [0, 1] };
    for &k in &order[..c.count] {
        let cp = &mut c.points[k];
        if cp.pseudo_target == 0.0 && cp.pseudo_impulse == 0.0 {
            continue;
        }
        let (ba, bb) = (&bodies[a], &bodies[b]);
        let dv = bb.pv + cross_sv(bb.pw, cp.rb) - ba.pv - cross_sv(ba.pw, cp.ra);
        let vn = dv.dot(n);
        let new_impulse = (cp.pseudo_impulse + cp.normal_mass * (cp.pseudo_target - vn)).max(0.0);
        let lambda = new_impulse - cp.pseudo_impulse;
        cp.pseudo_impulse = new_impulse;
        let p = lambda * n;
        let ba = &mut bodies[a];
        ba.pv -= ba.inv_mass * p;
        ba.pw -= ba.inv_inertia * cross(cp.ra, p);
        let bb = &mut bodies[b];
        bb.pv += bb.inv_mass * p;
        bb.pw += bb.inv_inertia * cross(cp.rb, p);
    }
}

/// Split-impulse position correction: the same Gauss-Seidel sweep on the
/// pseudo-velocities, which push overlapping bodies apart through the
/// position integrator without adding energy.
pub(crate) fn solve_pseudo_velocities(
    constraints: &mut [ContactConstraint],
    bodies: &mut [SolverBody],
    settings: &SolverSettings,
) {
    if settings.position_correction != PositionCorrection::SplitImpulse {
        return;
    }
    for it in 0..settings.iterations {
        if backward(settings.sweep, it) {
            for c in constraints.iter_mut().rev() {
                solve_pseudo_constraint(c, bodies, true);
            }
        } else {
            for c in constraints.iter_mut() {
                solve_pseudo_constraint(c, bodies, false);
            }
        }
    }
}

/// Writes the accumulated impulses back into the contacts' manifolds, where
/// the next step finds them by feature id.
pub(crate) fn store_impulses(constraints: &[ContactConstraint], contacts: &mut [Contact]) {
    for c in constraints {
        let m = &mut contacts[c.contact as usize].manifold;
        for (mp, cp) in m.points[..c.count].iter_mut().zip(&c.points) {
            mp.normal_impulse = cp.normal_impulse;
            mp.tangent_impulse = cp.tangent_impulse;
        }
    }
}
