//! The contact solver: warm-started sequential impulses with Coulomb
//! friction, restitution, and position correction by split impulses, run
//! over a few substeps per step.
//!
//! Each contact point is a pair of constraints: the normal impulse keeps the
//! surfaces from approaching (`vn >= target`, accumulated impulse `>= 0`),
//! the friction impulse opposes sliding (accumulated impulse within
//! `+/- mu * normal impulse`). Points are solved one at a time, many times
//! over (Gauss-Seidel); starting from last step's impulses (warm starting)
//! is what makes that converge for a stack. A two-point manifold's normal
//! impulses are solved together as one 2x2 problem, so a box on two corners
//! gets a symmetric answer.
//!
//! The step is split into substeps that share one narrowphase: each
//! substep integrates gravity, warm starts, iterates, corrects positions
//! and moves the bodies, tracking each contact's separation from the bodies'
//! motion since the step began. Smaller substeps carry load through a tall
//! stack far better than the same number of iterations in one big step.

use super::contact::Contact;
use super::wide;
use crate::math::{cross, cross_sv, right_perp, Rot, Vec2};
use crate::settings::{PositionCorrection, SolverSettings, Sweep};

/// The state of one body as the solver sees it, kept apart from the body's
/// bookkeeping so the inner loops touch only this.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverBody {
    pub v: Vec2,
    pub w: f32,
    pub inv_mass: f32,
    pub inv_inertia: f32,
    /// Velocity change per second from gravity and forces.
    pub accel: Vec2,
    /// Angular velocity change per second from torques.
    pub angular_accel: f32,
    /// Per-substep damping factors, `1 / (1 + h * damping)`.
    pub linear_decay: f32,
    /// Per-substep angular damping factor.
    pub angular_decay: f32,
    /// Whether velocities integrate (dynamic) or stay as set (kinematic,
    /// static).
    pub dynamic: bool,
    /// Translation of the centre of mass since the step began.
    pub dp: Vec2,
    /// Rotation since the step began.
    pub dq: Rot,
}

impl Default for SolverBody {
    fn default() -> Self {
        SolverBody {
            v: Vec2::ZERO,
            w: 0.0,
            inv_mass: 0.0,
            inv_inertia: 0.0,
            accel: Vec2::ZERO,
            angular_accel: 0.0,
            linear_decay: 1.0,
            angular_decay: 1.0,
            dynamic: false,
            dp: Vec2::ZERO,
            dq: Rot::IDENTITY,
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ConstraintPoint {
    /// Anchor relative to body A's centre of mass at the start of the step.
    pub(super) ra: Vec2,
    /// Anchor relative to body B's centre of mass.
    pub(super) rb: Vec2,
    /// Separation at the start of the step less `(rb - ra) . n`: adding the
    /// current anchor gap along the normal gives the current separation.
    pub(super) base_separation: f32,
    /// The current separation, recomputed once per substep (bodies move
    /// only between substeps) for the one-at-a-time path.
    pub(super) separation: f32,
    pub(super) normal_mass: f32,
    pub(super) tangent_mass: f32,
    /// Accumulated impulses, per substep.
    pub(super) normal_impulse: f32,
    pub(super) tangent_impulse: f32,
    pub(super) pseudo_impulse: f32,
    /// Largest normal impulse applied this step: restitution applies only
    /// where the contact actually pushed.
    pub(super) max_normal_impulse: f32,
    /// Normal velocity before the step, for restitution (left at zero, and
    /// never read, when the contact has no restitution).
    pub(super) relative_velocity: f32,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ContactConstraint {
    pub(super) a: u32,
    pub(super) b: u32,
    pub(super) contact: u32,
    pub(super) normal: Vec2,
    pub(super) friction: f32,
    pub(super) restitution: f32,
    pub(super) count: usize,
    /// Inverse masses and inertias `[ma, ia, mb, ib]`, copied here so the
    /// inner loops read only the constraint and the bodies' velocities.
    pub(super) masses: [f32; 4],
    pub(super) points: [ConstraintPoint; 2],
    /// Two-point manifolds: the 2x2 normal mass matrix `K` (symmetric:
    /// `k11, k12, k22`) and its inverse, when it is well conditioned. The
    /// two normal impulses are then solved together, exactly, instead of
    /// one after the other: a box resting on two points gets the same
    /// impulse on both corners, with no torque left over to rock it.
    pub(super) k: [f32; 3],
    pub(super) inv_k: [f32; 3],
    pub(super) block: bool,
}

/// Per-step constants of the solve.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepContext {
    /// Substep length, seconds.
    pub h: f32,
    /// Substeps this step.
    pub substeps: u32,
    /// Collision tolerance, in the world's length unit.
    pub linear_slop: f32,
    /// Fastest push-out, in the world's length unit per second.
    pub max_push_out_speed: f32,
    /// Largest speed and spin a body may reach (guards, see the world).
    pub max_speed: f32,
    /// Largest angular speed.
    pub max_spin: f32,
    /// Solver options.
    pub settings: SolverSettings,
}

impl StepContext {
    #[inline]
    pub(super) fn inv_h(&self) -> f32 {
        1.0 / self.h
    }

    /// Normal velocity the velocity solve must reach at separation `s`: a
    /// point not touching yet may close its gap this substep, no more; a
    /// touching one must not approach, and Baumgarte adds a push-out.
    #[inline]
    fn velocity_target(&self, s: f32) -> f32 {
        if s > 0.0 {
            -s * self.inv_h()
        } else if self.settings.position_correction == PositionCorrection::Baumgarte {
            self.push_out(s)
        } else {
            0.0
        }
    }

    /// The separating velocity that removes a fraction of the overlap
    /// beyond the slop in one substep, capped.
    #[inline]
    pub(super) fn push_out(&self, s: f32) -> f32 {
        (self.settings.baumgarte * self.inv_h() * -(s + self.linear_slop)).clamp(0.0, self.max_push_out_speed)
    }
}

/// Builds one constraint per manifold with points (both bodies' masses,
/// the anchors, the effective masses). Impulses in the manifolds are per
/// step; the solver works per substep.
pub(crate) fn prepare_contacts(
    constraints: &mut Vec<ContactConstraint>,
    contacts: &[Contact],
    bodies: &[SolverBody],
    body_slots: &[super::body::Body],
    ctx: &StepContext,
) {
    constraints.clear();
    let per_substep = 1.0 / ctx.substeps as f32;
    let dt = ctx.h * ctx.substeps as f32;
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
            masses: [ma, iia, mb, iib],
            ..ContactConstraint::default()
        };
        // Per point: the angular levers of a normal impulse and the
        // effective normal mass, kept for the block's K below.
        let mut levers = [(0.0, 0.0); 2];
        let mut kns = [0.0; 2];
        for (k, (mp, cp)) in c.manifold.points().iter().zip(cc.points.iter_mut()).enumerate() {
            let ra = mp.point - body_slots[ia].center;
            let rb = mp.point - body_slots[ib].center;
            let rna = cross(ra, n);
            let rnb = cross(rb, n);
            let kn = ma + mb + iia * rna * rna + iib * rnb * rnb;
            (levers[k], kns[k]) = ((rna, rnb), kn);
            let rta = cross(ra, t);
            let rtb = cross(rb, t);
            let kt = ma + mb + iia * rta * rta + iib * rtb * rtb;
            // Approach velocity for restitution (read only when the
            // contact has any): the velocity at the start of the step plus
            // what gravity and forces add over it, so a body caught by a
            // speculative point bounces with the speed it hits at, not the
            // speed it had a step earlier.
            let relative_velocity = if c.restitution != 0.0 {
                let dv = bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra) + dt * (bb.accel - ba.accel);
                dv.dot(n)
            } else {
                0.0
            };
            let (normal_impulse, tangent_impulse) = if ctx.settings.warm_starting {
                (mp.normal_impulse * per_substep, mp.tangent_impulse * per_substep)
            } else {
                (0.0, 0.0)
            };
            *cp = ConstraintPoint {
                ra,
                rb,
                base_separation: mp.separation - (rb - ra).dot(n),
                separation: mp.separation,
                normal_mass: if kn > 0.0 { 1.0 / kn } else { 0.0 },
                tangent_mass: if kt > 0.0 { 1.0 / kt } else { 0.0 },
                normal_impulse,
                tangent_impulse,
                // Both zero: `wide::Batch::fill` relies on it.
                pseudo_impulse: 0.0,
                max_normal_impulse: 0.0,
                relative_velocity,
            };
        }
        if cc.count == 2 {
            let [(rn1a, rn1b), (rn2a, rn2b)] = levers;
            let [k11, k22] = kns;
            let k12 = ma + mb + iia * rn1a * rn2a + iib * rn1b * rn2b;
            let det = k11 * k22 - k12 * k12;
            // Nearly parallel rows (two points almost on top of each other)
            // make K singular: then solve the points one at a time.
            const MAX_CONDITION: f32 = 1000.0;
            if det > 0.0 && k11 * k11 < MAX_CONDITION * det {
                let inv = 1.0 / det;
                cc.k = [k11, k12, k22];
                cc.inv_k = [k22 * inv, -k12 * inv, k11 * inv];
                cc.block = true;
            }
        }
        constraints.push(cc);
    }
}

/// The hot state of one body during the solve, 40 bytes: what the inner
/// loops read and write, apart from the per-step constants in
/// [`SolverBody`]. Four of these share a 64-byte cache line less often than
/// not, but one gather touches one line instead of two.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BodyState {
    /// Velocity.
    pub(super) v: Vec2,
    /// Angular velocity.
    pub(super) w: f32,
    /// Pseudo-velocity of split-impulse position correction: reaches the
    /// position integrator only, never the real velocity.
    pub(super) pv: Vec2,
    /// Pseudo angular velocity.
    pub(super) pw: f32,
    /// Translation of the centre of mass since the step began.
    pub(super) dp: Vec2,
    /// Rotation since the step began.
    pub(super) dq: Rot,
}

/// Current separation of a point from the bodies' motion since the step
/// began (first order in the rotation, exact in the translation).
#[inline]
fn current_separation(cp: &ConstraintPoint, n: Vec2, ba: &BodyState, bb: &BodyState) -> f32 {
    let d = (bb.dp + bb.dq.rotate(cp.rb)) - (ba.dp + ba.dq.rotate(cp.ra));
    d.dot(n) + cp.base_separation
}

#[inline]
fn relative_normal_velocity(
    cp: &ConstraintPoint,
    n: Vec2,
    ba: &BodyState,
    bb: &BodyState,
    pseudo: bool,
) -> f32 {
    let dv = if pseudo {
        bb.pv + cross_sv(bb.pw, cp.rb) - ba.pv - cross_sv(ba.pw, cp.ra)
    } else {
        bb.v + cross_sv(bb.w, cp.rb) - ba.v - cross_sv(ba.w, cp.ra)
    };
    dv.dot(n)
}

/// Applies impulse `p` at anchors `ra`, `rb` (minus to body `a`, plus to
/// body `b`), with the constraint's copy of the masses.
#[allow(clippy::too_many_arguments)]
#[inline]
fn apply_impulse(
    states: &mut [BodyState],
    masses: [f32; 4],
    a: usize,
    b: usize,
    ra: Vec2,
    rb: Vec2,
    p: Vec2,
    pseudo: bool,
) {
    let [ma, ia, mb, ib] = masses;
    let ba = &mut states[a];
    let (dva, dwa) = (ma * p, ia * cross(ra, p));
    if pseudo {
        ba.pv -= dva;
        ba.pw -= dwa;
    } else {
        ba.v -= dva;
        ba.w -= dwa;
    }
    let bb = &mut states[b];
    let (dvb, dwb) = (mb * p, ib * cross(rb, p));
    if pseudo {
        bb.pv += dvb;
        bb.pw += dwb;
    } else {
        bb.v += dvb;
        bb.w += dwb;
    }
}

/// Solves the two normal impulses of a two-point manifold together: the
/// linear complementarity problem `vn = K x + b >= target`, `x >= 0`,
/// `x . (vn - target) = 0`, by trying its four cases in turn (both points
/// pushing, only the first, only the second, neither). The scalar twin of
/// the lane-wide kernel in [`super::wide`], for constraints the colouring
/// left over.
fn solve_normal_block(c: &mut ContactConstraint, states: &mut [BodyState], ctx: &StepContext, pseudo: bool) {
    let (a, b) = (c.a as usize, c.b as usize);
    let n = c.normal;
    let [k11, k12, k22] = c.k;
    let [i11, i12, i22] = c.inv_k;
    let (ba, bb) = (&states[a], &states[b]);
    let [p1, p2] = &c.points;
    let vn1 = relative_normal_velocity(p1, n, ba, bb, pseudo);
    let vn2 = relative_normal_velocity(p2, n, ba, bb, pseudo);
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
    let (ra1, rb1, ra2, rb2) = (p1.ra, p1.rb, p2.ra, p2.rb);
    apply_impulse(states, c.masses, a, b, ra1, rb1, (x1 - old1) * n, pseudo);
    apply_impulse(states, c.masses, a, b, ra2, rb2, (x2 - old2) * n, pseudo);
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

/// Point order: backward on odd iterations when the sweep alternates.
#[inline]
fn backward(sweep: Sweep, iteration: u32) -> bool {
    sweep == Sweep::Alternating && iteration % 2 == 1
}

/// One velocity iteration of one constraint, scalar: friction, then the
/// normal impulses (as a block when the manifold has one).
fn solve_constraint(c: &mut ContactConstraint, states: &mut [BodyState], ctx: &StepContext, reverse: bool) {
    let (a, b) = (c.a as usize, c.b as usize);
    let n = c.normal;
    let t = right_perp(n);
    let order: [usize; 2] = if reverse && c.count == 2 { [1, 0] } else { [0, 1] };
    // Friction first: non-penetration matters more, so it is solved last
    // and wins where the two disagree.
    for &k in &order[..c.count] {
        let cp = &mut c.points[k];
        let (ba, bb) = (&states[a], &states[b]);
        let vt = (bb.v + cross_sv(bb.w, cp.rb) - ba.v - cross_sv(ba.w, cp.ra)).dot(t);
        let max_friction = c.friction * cp.normal_impulse;
        let new_impulse = (cp.tangent_impulse - cp.tangent_mass * vt).clamp(-max_friction, max_friction);
        let lambda = new_impulse - cp.tangent_impulse;
        cp.tangent_impulse = new_impulse;
        apply_impulse(states, c.masses, a, b, cp.ra, cp.rb, lambda * t, false);
    }
    if c.block {
        solve_normal_block(c, states, ctx, false);
        return;
    }
    for &k in &order[..c.count] {
        let cp = &mut c.points[k];
        let (ba, bb) = (&states[a], &states[b]);
        let vn = relative_normal_velocity(cp, n, ba, bb, false);
        let target = ctx.velocity_target(cp.separation);
        let new_impulse = (cp.normal_impulse + cp.normal_mass * (target - vn)).max(0.0);
        let lambda = new_impulse - cp.normal_impulse;
        cp.normal_impulse = new_impulse;
        cp.max_normal_impulse = cp.max_normal_impulse.max(new_impulse);
        apply_impulse(states, c.masses, a, b, cp.ra, cp.rb, lambda * n, false);
    }
}

/// One pseudo-velocity iteration of one constraint, scalar.
fn solve_pseudo_constraint(
    c: &mut ContactConstraint,
    states: &mut [BodyState],
    ctx: &StepContext,
    reverse: bool,
) {
    if c.block {
        solve_normal_block(c, states, ctx, true);
        return;
    }
    let (a, b) = (c.a as usize, c.b as usize);
    let n = c.normal;
    let order: [usize; 2] = if reverse && c.count == 2 { [1, 0] } else { [0, 1] };
    for &k in &order[..c.count] {
        let cp = &mut c.points[k];
        let (ba, bb) = (&states[a], &states[b]);
        let target = ctx.push_out(cp.separation);
        if target == 0.0 && cp.pseudo_impulse == 0.0 {
            continue;
        }
        let vn = relative_normal_velocity(cp, n, ba, bb, true);
        let new_impulse = (cp.pseudo_impulse + cp.normal_mass * (target - vn)).max(0.0);
        let lambda = new_impulse - cp.pseudo_impulse;
        cp.pseudo_impulse = new_impulse;
        apply_impulse(states, c.masses, a, b, cp.ra, cp.rb, lambda * n, true);
    }
}

/// Applies one constraint's accumulated impulses, scalar.
fn warm_start_constraint(c: &ContactConstraint, states: &mut [BodyState]) {
    let t = right_perp(c.normal);
    for cp in &c.points[..c.count] {
        let p = cp.normal_impulse * c.normal + cp.tangent_impulse * t;
        apply_impulse(
            states,
            c.masses,
            c.a as usize,
            c.b as usize,
            cp.ra,
            cp.rb,
            p,
            false,
        );
    }
}

/// One colour of the constraint graph: no dynamic body appears twice in it,
/// so its constraints can be solved in any order, or several at once.
#[derive(Clone, Debug, Default)]
struct Colour {
    /// Its two-point block constraints, [`wide::W`] to a batch: a range
    /// of [`Graph::pairs`].
    pairs: std::ops::Range<usize>,
    /// Its one-point constraints, [`wide::W`] to a batch: a range of
    /// [`Graph::singles`].
    singles: std::ops::Range<usize>,
    /// Its other constraints (ill-conditioned pairs), solved one at a
    /// time: indices into the constraint array.
    scalar: Vec<u32>,
}

/// The constraints of a step sorted into colours, each colour's two-point
/// blocks and single points packed into lane-wide batches. Kept from step
/// to step so its buffers are reused (no allocation in steady state).
#[derive(Clone, Debug, Default)]
pub(crate) struct Graph {
    /// The colours in use this step, in order; `colours[count..]` are
    /// spare (empty, with their capacity kept).
    colours: Vec<Colour>,
    /// How many colours are in use.
    count: usize,
    /// The two-point batches of all colours, colour by colour (one buffer,
    /// so a colour with a few blocks holds no spare capacity of its own).
    /// Only the first `pair_count` are in use: the rest are last steps'
    /// batches, kept so that packing refills them in place.
    pairs: Vec<wide::PairBatch>,
    /// How many of `pairs` are in use this step.
    pair_count: usize,
    /// The one-point batches of all colours, colour by colour; the first
    /// `single_count` are in use.
    singles: Vec<wide::PointBatch>,
    /// How many of `singles` are in use this step.
    single_count: usize,
    /// Constraints solved one at a time after the colours, in constraint
    /// order: all of them when colouring is off.
    overflow: Vec<u32>,
    /// Per body: one past the last colour it took while colouring.
    last: Vec<u32>,
    /// Two-point block constraints of the colour being packed.
    blocks: Vec<u32>,
    /// One-point constraints of the colour being packed.
    points: Vec<u32>,
    /// Body states, one per body slot plus a resting one for unused lanes.
    states: Vec<BodyState>,
}

impl Graph {
    /// Greedy colouring in constraint order (so the result depends on that
    /// order only): each constraint takes the first colour in which neither
    /// of its dynamic bodies is used yet. Static and kinematic bodies are
    /// never written by the solve and so never conflict.
    fn build(&mut self, constraints: &[ContactConstraint], bodies: &[SolverBody], colouring: bool) {
        for colour in &mut self.colours[..self.count] {
            colour.scalar.clear();
        }
        self.pair_count = 0;
        self.single_count = 0;
        self.count = 0;
        self.overflow.clear();
        if !colouring {
            self.overflow.extend(0..constraints.len() as u32);
            return;
        }
        // Order-preserving colouring: a constraint's colour is one more than
        // the last colour either of its dynamic bodies took. Two
        // constraints that share a body keep their order, and those that
        // share none commute, so sweeping the colours in order is the
        // sequential sweep in constraint order (load carried up a stack in
        // one pass), only several constraints at a time.
        self.last.clear();
        self.last.resize(bodies.len(), 0);
        for (i, c) in constraints.iter().enumerate() {
            let (a, b) = (c.a as usize, c.b as usize);
            let (da, db) = (bodies[a].dynamic, bodies[b].dynamic);
            let mut colour = 0u32;
            if da {
                colour = colour.max(self.last[a]);
            }
            if db {
                colour = colour.max(self.last[b]);
            }
            if da {
                self.last[a] = colour + 1;
            }
            if db {
                self.last[b] = colour + 1;
            }
            let colour = colour as usize;
            if self.colours.len() <= colour {
                self.colours.resize_with(colour + 1, Colour::default);
            }
            self.count = self.count.max(colour + 1);
            // Blocks and single points are parked in `scalar` for now and
            // packed into batches below.
            self.colours[colour].scalar.push(i as u32);
        }
        let dummy = bodies.len() as u32;
        let (pair_pad, single_pad) = (wide::PairBatch::pad(dummy), wide::PointBatch::pad(dummy));
        for colour in &mut self.colours[..self.count] {
            self.blocks.clear();
            self.points.clear();
            let mut k = 0;
            for j in 0..colour.scalar.len() {
                let i = colour.scalar[j];
                let c = &constraints[i as usize];
                if c.block {
                    self.blocks.push(i);
                } else if c.count == 1 {
                    self.points.push(i);
                } else {
                    colour.scalar[k] = i;
                    k += 1;
                }
            }
            colour.scalar.truncate(k);
            let start = self.pair_count;
            for chunk in self.blocks.chunks(wide::W) {
                next_batch(&mut self.pairs, &mut self.pair_count).fill(chunk, constraints, bodies, &pair_pad);
            }
            colour.pairs = start..self.pair_count;
            let start = self.single_count;
            for chunk in self.points.chunks(wide::W) {
                next_batch(&mut self.singles, &mut self.single_count).fill(
                    chunk,
                    constraints,
                    bodies,
                    &single_pad,
                );
            }
            colour.singles = start..self.single_count;
        }
    }

    /// Heap bytes held by the colouring's reused buffers (capacities).
    pub(crate) fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        let colours: usize = self
            .colours
            .iter()
            .map(|c| c.scalar.capacity() * size_of::<u32>())
            .sum();
        colours
            + self.colours.capacity() * size_of::<Colour>()
            + self.pairs.capacity() * size_of::<wide::PairBatch>()
            + self.singles.capacity() * size_of::<wide::PointBatch>()
            + (self.overflow.capacity()
                + self.last.capacity()
                + self.blocks.capacity()
                + self.points.capacity())
                * size_of::<u32>()
            + self.states.capacity() * size_of::<BodyState>()
    }

    /// Recomputes every point's cached separation (once per substep: the
    /// bodies only move between substeps) and returns the smallest.
    fn update_separations(&mut self, constraints: &mut [ContactConstraint], states: &[BodyState]) -> f32 {
        let mut smallest = f32::INFINITY;
        let mut update = |c: &mut ContactConstraint| {
            let (ba, bb) = (&states[c.a as usize], &states[c.b as usize]);
            let n = c.normal;
            for cp in c.points[..c.count].iter_mut() {
                cp.separation = current_separation(cp, n, ba, bb);
                smallest = smallest.min(cp.separation);
            }
        };
        for colour in &mut self.colours[..self.count] {
            for &i in &colour.scalar {
                update(&mut constraints[i as usize]);
            }
        }
        for &i in &self.overflow {
            update(&mut constraints[i as usize]);
        }
        for batch in &mut self.pairs[..self.pair_count] {
            smallest = smallest.min(batch.update_separations(states));
        }
        for batch in &mut self.singles[..self.single_count] {
            smallest = smallest.min(batch.update_separations(states));
        }
        smallest
    }

    /// Applies the accumulated impulses at the start of a substep.
    fn warm_start(&self, constraints: &[ContactConstraint], states: &mut [BodyState]) {
        for colour in &self.colours[..self.count] {
            for batch in &self.pairs[colour.pairs.clone()] {
                batch.warm_start(states);
            }
            for batch in &self.singles[colour.singles.clone()] {
                batch.warm_start(states);
            }
            for &i in &colour.scalar {
                warm_start_constraint(&constraints[i as usize], states);
            }
        }
        for &i in &self.overflow {
            warm_start_constraint(&constraints[i as usize], states);
        }
    }

    /// One iteration over every constraint: the colours in order (reversed
    /// when `reverse`, and the overflow then first), each colour's batches
    /// lane-wide and its other constraints one at a time. With `pseudo`,
    /// each constraint also takes its split-impulse iteration right after
    /// its velocity one: the two never read each other's state, so this is
    /// exactly a velocity sweep followed by a split-impulse sweep, with one
    /// walk over the constraints and bodies instead of two.
    fn iterate(
        &mut self,
        constraints: &mut [ContactConstraint],
        states: &mut [BodyState],
        ctx: &StepContext,
        reverse: bool,
        pseudo: bool,
    ) {
        let colours = &self.colours[..self.count];
        let (pairs, singles) = (&mut self.pairs, &mut self.singles);
        if reverse {
            for &i in self.overflow.iter().rev() {
                solve_one(&mut constraints[i as usize], states, ctx, reverse, pseudo);
            }
            for c in colours.iter().rev() {
                solve_colour(c, pairs, singles, constraints, states, ctx, reverse, pseudo);
            }
        } else {
            for c in colours {
                solve_colour(c, pairs, singles, constraints, states, ctx, reverse, pseudo);
            }
            for &i in &self.overflow {
                solve_one(&mut constraints[i as usize], states, ctx, reverse, pseudo);
            }
        }
    }

    /// Pseudo-velocities start from rest every substep: so do their
    /// impulses. (The batches hold their own: only the constraints solved
    /// one at a time need theirs zeroed.)
    fn reset_pseudo(&mut self, constraints: &mut [ContactConstraint]) {
        self.for_each_scalar(constraints, |c| {
            c.points[0].pseudo_impulse = 0.0;
            c.points[1].pseudo_impulse = 0.0;
        });
        for batch in &mut self.pairs[..self.pair_count] {
            batch.reset_pseudo();
        }
        for batch in &mut self.singles[..self.single_count] {
            batch.reset_pseudo();
        }
    }

    /// Writes the impulses, times `scale` (per substep to per step), into
    /// the contacts' manifolds: the batches' straight from their lanes,
    /// the other constraints' from the constraints.
    fn store(&self, constraints: &mut [ContactConstraint], contacts: &mut [Contact], scale: f32) {
        for batch in &self.pairs[..self.pair_count] {
            batch.store(constraints, contacts, scale);
        }
        for batch in &self.singles[..self.single_count] {
            batch.store(constraints, contacts, scale);
        }
        self.for_each_scalar(constraints, |c| store_impulses(c, contacts, scale));
    }

    /// Calls `f` on each constraint solved one at a time (not in a batch).
    #[inline]
    fn for_each_scalar(
        &self,
        constraints: &mut [ContactConstraint],
        mut f: impl FnMut(&mut ContactConstraint),
    ) {
        for colour in &self.colours[..self.count] {
            for &i in &colour.scalar {
                f(&mut constraints[i as usize]);
            }
        }
        for &i in &self.overflow {
            f(&mut constraints[i as usize]);
        }
    }
}

/// The next batch of `batches` to pack, counting it in `count`: a kept one
/// to refill in place, or a new empty one when all are in use.
#[inline]
fn next_batch<'a, const N: usize, const M: usize>(
    batches: &'a mut Vec<wide::Batch<N, M>>,
    count: &mut usize,
) -> &'a mut wide::Batch<N, M>
where
    wide::Batch<N, M>: wide::Normal,
{
    if *count == batches.len() {
        batches.push(wide::Batch::empty());
    }
    *count += 1;
    &mut batches[*count - 1]
}

/// One iteration of one constraint, scalar: the velocity one, then the
/// split-impulse one when `pseudo`.
#[inline(always)]
fn solve_one(
    c: &mut ContactConstraint,
    states: &mut [BodyState],
    ctx: &StepContext,
    reverse: bool,
    pseudo: bool,
) {
    solve_constraint(c, states, ctx, reverse);
    if pseudo {
        solve_pseudo_constraint(c, states, ctx, reverse);
    }
}

/// One iteration of one colour: its two-point batches, its one-point
/// batches (the batches' ranges index `pairs` and `singles`), then its
/// scalar constraints.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn solve_colour(
    colour: &Colour,
    pairs: &mut [wide::PairBatch],
    singles: &mut [wide::PointBatch],
    constraints: &mut [ContactConstraint],
    states: &mut [BodyState],
    ctx: &StepContext,
    reverse: bool,
    pseudo: bool,
) {
    solve_batches(&mut pairs[colour.pairs.clone()], states, ctx, reverse, pseudo);
    solve_batches(&mut singles[colour.singles.clone()], states, ctx, reverse, pseudo);
    for &i in &colour.scalar {
        solve_one(&mut constraints[i as usize], states, ctx, reverse, pseudo);
    }
}

/// One velocity iteration of each of `batches`, with its split-impulse
/// iteration when `pseudo` (the choice made once for the run of batches).
#[inline(always)]
fn solve_batches<const N: usize, const M: usize>(
    batches: &mut [wide::Batch<N, M>],
    states: &mut [BodyState],
    ctx: &StepContext,
    reverse: bool,
    pseudo: bool,
) where
    wide::Batch<N, M>: wide::Normal,
{
    if pseudo {
        for batch in batches {
            batch.solve_velocity_and_pseudo(states, ctx, reverse);
        }
    } else {
        for batch in batches {
            batch.solve_velocity(states, ctx, reverse);
        }
    }
}

fn integrate_velocities(bodies: &[SolverBody], states: &mut [BodyState], h: f32) {
    for (b, s) in bodies.iter().zip(states.iter_mut()) {
        if b.dynamic {
            s.v = (s.v + h * b.accel) * b.linear_decay;
            s.w = (s.w + h * b.angular_accel) * b.angular_decay;
        }
    }
}

fn integrate_positions(bodies: &[SolverBody], states: &mut [BodyState], ctx: &StepContext) {
    let h = ctx.h;
    for (b, s) in bodies.iter().zip(states.iter_mut()) {
        if b.dynamic {
            // Guard against absurd speeds (see the world's constants).
            let speed = s.v.length();
            if speed > ctx.max_speed {
                s.v *= ctx.max_speed / speed;
            }
            s.w = s.w.clamp(-ctx.max_spin, ctx.max_spin);
        }
        s.dp += h * (s.v + s.pv);
        s.dq = s.dq.integrate(h * (s.w + s.pw));
        s.pv = Vec2::ZERO;
        s.pw = 0.0;
    }
}

/// Restitution, after all substeps: each point that approached faster than
/// the threshold and was actually pushed gets a normal velocity of `-e`
/// times its approach velocity. Writes the impulses of every contact with
/// restitution into its manifold again (times `scale`), since they may
/// have changed.
fn apply_restitution(
    constraints: &mut [ContactConstraint],
    contacts: &mut [Contact],
    states: &mut [BodyState],
    threshold: f32,
    scale: f32,
) {
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
            let vn = relative_normal_velocity(cp, n, &states[a], &states[b], false);
            let target = -c.restitution * cp.relative_velocity;
            let new_impulse = (cp.normal_impulse + cp.normal_mass * (target - vn)).max(0.0);
            let lambda = new_impulse - cp.normal_impulse;
            cp.normal_impulse = new_impulse;
            apply_impulse(states, c.masses, a, b, cp.ra, cp.rb, lambda * n, false);
        }
        store_impulses(c, contacts, scale);
    }
}

/// The whole solve of one step: for each substep, gravity and forces,
/// warm start, velocity iterations, split-impulse position correction and
/// position integration; then restitution. Bodies' `dp`/`dq` hold their
/// motion over the step afterwards.
///
/// The constraints are coloured first (see [`Graph::build`]) and every
/// pass goes colour by colour, solving each colour's two-point blocks and
/// single points [`wide::W`] at a time; an alternating sweep reverses the colour order
/// on odd iterations.
pub(crate) fn solve(
    graph: &mut Graph,
    constraints: &mut [ContactConstraint],
    contacts: &mut [Contact],
    bodies: &mut [SolverBody],
    ctx: &StepContext,
) {
    let total = ctx.settings.iterations.max(1);
    let substeps = ctx.substeps;
    let mut states = std::mem::take(&mut graph.states);
    states.clear();
    states.extend(bodies.iter().map(|b| BodyState {
        v: b.v,
        w: b.w,
        ..BodyState::default()
    }));
    // One more state at rest, for the unused lanes of the batches.
    states.push(BodyState::default());
    graph.build(constraints, bodies, ctx.settings.graph_coloring);
    for substep in 0..substeps {
        // Share the iterations out: earlier substeps get the remainder.
        let iterations = total / substeps + u32::from(substep < total % substeps);
        integrate_velocities(bodies, &mut states, ctx.h);
        let smallest_separation = graph.update_separations(constraints, &states);
        // The split-impulse pass starts every substep from zero
        // pseudo-velocities and impulses, so when no point overlaps beyond
        // the slop its exact answer is zero everywhere: skip it (the usual
        // case for a scene at rest). Otherwise each of its iterations rides
        // along with the velocity iteration of the same number.
        let pseudo = ctx.settings.position_correction == PositionCorrection::SplitImpulse
            && ctx.push_out(smallest_separation) > 0.0;
        if pseudo {
            graph.reset_pseudo(constraints);
        }
        graph.warm_start(constraints, &mut states);
        for it in 0..iterations {
            graph.iterate(
                constraints,
                &mut states,
                ctx,
                backward(ctx.settings.sweep, it),
                pseudo,
            );
        }
        integrate_positions(bodies, &mut states, ctx);
    }
    // Impulses in the manifolds are per step.
    let scale = substeps as f32;
    graph.store(constraints, contacts, scale);
    apply_restitution(
        constraints,
        contacts,
        &mut states,
        ctx.settings.restitution_threshold,
        scale,
    );
    for (b, s) in bodies.iter_mut().zip(&states) {
        b.v = s.v;
        b.w = s.w;
        b.dp = s.dp;
        b.dq = s.dq;
    }
    graph.states = states;
}

/// Writes one constraint's accumulated impulses, times `scale` (per
/// substep to per step), into its contact's manifold, where the next step
/// finds them by feature id.
#[inline]
fn store_impulses(c: &ContactConstraint, contacts: &mut [Contact], scale: f32) {
    let m = &mut contacts[c.contact as usize].manifold;
    for (mp, cp) in m.points[..c.count].iter_mut().zip(&c.points) {
        mp.normal_impulse = cp.normal_impulse * scale;
        mp.tangent_impulse = cp.tangent_impulse * scale;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift), uniform in `[lo, hi)`.
    struct Rng(u64);

    impl Rng {
        fn range(&mut self, lo: f32, hi: f32) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
        }

        fn vec(&mut self, r: f32) -> Vec2 {
            Vec2::new(self.range(-r, r), self.range(-r, r))
        }
    }

    fn context() -> StepContext {
        StepContext {
            h: 1.0 / 240.0,
            substeps: 4,
            linear_slop: crate::settings::LINEAR_SLOP,
            max_push_out_speed: crate::settings::MAX_PUSH_OUT_SPEED,
            max_speed: 100.0,
            max_spin: 100.0,
            settings: SolverSettings::default(),
        }
    }

    /// A random one-point constraint between body 0 (dynamic, or static
    /// one time in four) and body 1, with random warm-start and split
    /// impulses (zero now and then, as at the start of a substep).
    fn one_point(rng: &mut Rng, bodies: &mut [SolverBody; 2]) -> ContactConstraint {
        for (i, b) in bodies.iter_mut().enumerate() {
            let dynamic = i == 1 || rng.range(0.0, 1.0) > 0.25;
            *b = SolverBody {
                inv_mass: if dynamic { rng.range(0.1, 2.0) } else { 0.0 },
                inv_inertia: if dynamic { rng.range(0.1, 5.0) } else { 0.0 },
                dynamic,
                ..SolverBody::default()
            };
        }
        let angle = rng.range(-3.2, 3.2);
        let n = Vec2::new(angle.cos(), angle.sin());
        let (ra, rb) = (rng.vec(0.5), rng.vec(0.5));
        let [ma, mb, ia, ib] = [
            bodies[0].inv_mass,
            bodies[1].inv_mass,
            bodies[0].inv_inertia,
            bodies[1].inv_inertia,
        ];
        let (rna, rnb) = (cross(ra, n), cross(rb, n));
        let t = right_perp(n);
        let (rta, rtb) = (cross(ra, t), cross(rb, t));
        let kn = ma + mb + ia * rna * rna + ib * rnb * rnb;
        let kt = ma + mb + ia * rta * rta + ib * rtb * rtb;
        let normal_impulse = if rng.range(0.0, 1.0) < 0.2 {
            0.0
        } else {
            rng.range(0.0, 2.0)
        };
        let friction = rng.range(0.0, 1.0);
        let pseudo_impulse = if rng.range(0.0, 1.0) < 0.5 {
            0.0
        } else {
            rng.range(0.0, 0.5)
        };
        let mut c = ContactConstraint {
            a: 0,
            b: 1,
            normal: n,
            friction,
            count: 1,
            masses: [ma, ia, mb, ib],
            ..ContactConstraint::default()
        };
        c.points[0] = ConstraintPoint {
            ra,
            rb,
            // Gaps and overlaps around the slop.
            base_separation: rng.range(-0.03, 0.02) - (rb - ra).dot(n),
            normal_mass: 1.0 / kn,
            tangent_mass: 1.0 / kt,
            normal_impulse,
            tangent_impulse: friction * normal_impulse * rng.range(-1.0, 1.0),
            pseudo_impulse,
            ..ConstraintPoint::default()
        };
        c
    }

    /// A one-point constraint in a lane gives the scalar solve's answer up
    /// to rounding (the lanes associate the velocity sums differently), in
    /// the velocity and the split-impulse iterations, forward and reverse:
    /// the same friction, the same clamp, and the same rule that a point
    /// with no push-out target and no split impulse sits the split-impulse
    /// pass out.
    #[test]
    fn one_point_lane_matches_the_scalar_clamp() {
        let ctx = context();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut worst = 0.0f32;
        for _ in 0..2000 {
            let mut bodies = [SolverBody::default(); 2];
            let c = one_point(&mut rng, &mut bodies);
            let mut states = vec![BodyState::default(); 3];
            for (s, b) in states.iter_mut().zip(&bodies) {
                if b.dynamic {
                    s.v = rng.vec(2.0);
                    s.w = rng.range(-3.0, 3.0);
                    s.pv = rng.vec(0.5);
                    s.pw = rng.range(-1.0, 1.0);
                    s.dp = rng.vec(0.01);
                    s.dq = Rot::from_angle(rng.range(-0.01, 0.01));
                }
            }
            let mut scalar = ([c], states.clone());
            let mut lanes = ([c], states);
            let mut batch = wide::PointBatch::new(&[0], &lanes.0, &bodies, 2);
            let (cs, ss) = (&mut scalar.0[0], &mut scalar.1);
            // The lane's separation is the scalar one up to rounding (the
            // lanes associate the sums differently); the solves then
            // start from the same one, so what is compared is the block
            // LCP against the clamp (a rounding of 1e-7 m in a separation
            // would be 2.4e-5 m/s in a target at this substep length).
            let smallest = batch.update_separations(&lanes.1);
            let separation = current_separation(&cs.points[0], cs.normal, &ss[0], &ss[1]);
            assert!((smallest - separation).abs() < 1e-6);
            cs.points[0].separation = smallest;
            for it in 0..4 {
                let reverse = it % 2 == 1;
                solve_constraint(cs, ss, &ctx, reverse);
                solve_pseudo_constraint(cs, ss, &ctx, reverse);
                batch.solve_velocity_and_pseudo(&mut lanes.1, &ctx, reverse);
                batch.store_constraints(&mut lanes.0);
                let (cl, sl) = (&lanes.0[0], &lanes.1);
                let (p, q) = (&cs.points[0], &cl.points[0]);
                let pairs = [
                    (p.normal_impulse, q.normal_impulse),
                    (p.tangent_impulse, q.tangent_impulse),
                    (p.pseudo_impulse, q.pseudo_impulse),
                    (p.max_normal_impulse, q.max_normal_impulse),
                    (ss[1].v.x, sl[1].v.x),
                    (ss[1].v.y, sl[1].v.y),
                    (ss[1].w, sl[1].w),
                    (ss[1].pv.x, sl[1].pv.x),
                    (ss[1].pv.y, sl[1].pv.y),
                    (ss[1].pw, sl[1].pw),
                    (ss[0].v.x, sl[0].v.x),
                    (ss[0].w, sl[0].w),
                    (ss[0].pv.y, sl[0].pv.y),
                    (ss[0].pw, sl[0].pw),
                ];
                for (k, (x, y)) in pairs.into_iter().enumerate() {
                    let err = (x - y).abs() / x.abs().max(1.0);
                    worst = worst.max(err);
                    assert!(err < 1e-5, "iteration {it}, value {k}: scalar {x}, lanes {y}");
                }
            }
        }
        assert!(worst > 0.0, "the two paths should round differently somewhere");
    }
}
