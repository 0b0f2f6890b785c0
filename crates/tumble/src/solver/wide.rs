//! The lane-wide contact kernel: a batch's lanes of constraints of one
//! graph color (four or eight: see [`Lanes`]) solved at once, in structure-of-arrays form, either two-point blocks
//! ([`PairBatch`]) or single points ([`PointBatch`]).
//!
//! Within a color no dynamic body appears twice, so the constraints of a
//! batch are independent: each lane gathers its two bodies' states, every
//! lane runs the same friction and normal arithmetic (for a block, the 2x2
//! LCP, whose four cases become selects instead of branches; for a single
//! point, the clamp of the scalar solve), and the lanes scatter their
//! bodies back. The arithmetic is on the lane type `L` (one vector
//! register): no `unsafe` and no intrinsics here, and IEEE arithmetic
//! lane by lane, so the same results on every target and at every width
//! up to `max`/`min` on a NaN or on a tie of `+0` and `-0` (see
//! [`Lanes::max`]).
//!
//! Everything the kernels call is `#[inline(always)]`, down to the lane
//! operations, and no closure a kernel passes on does lane arithmetic:
//! the eight-wide kernels are compiled inside [`Lanes::enter`], and only
//! code inlined into it takes the processor features they need.
//!
//! The lanes are held in vector registers from the start rather than
//! written as plain `[f32; W]` arrays in short loops: left to LLVM's
//! vectoriser, such loops vectorise the wrong way round (across each
//! lane's x and y, splatting every lane's masses), and the kernel then
//! goes largely to register spills and shuffles.

// Lane loops index several arrays by the same lane number on purpose.
#![allow(clippy::needless_range_loop)]

use super::lanes::{LaneBodies, LaneMask, Lanes, Velocities, MAX_W};
use super::types::{ContactConstraint, MAX_BLOCK_CONDITION};
use crate::body::{SolverBody, StateCell};
use crate::contact::Contact;
use crate::math::Vec2;
use crate::settings::PositionCorrection;
use crate::step_context::StepContext;
use crate::threads::SharedCell;

/// One value per lane, `f` of each lane's constraint (or source).
#[inline(always)]
fn lanes<L: Lanes, S>(cs: &[&S], f: impl Fn(&S) -> f32) -> L {
    L::from_fn(|l| f(cs[l]))
}

/// One contact point of a batch, per lane.
#[derive(Clone, Copy, Debug, Default)]
struct PointLanes<L> {
    /// Anchor on body A relative to its center of mass at the step start.
    rax: L,
    /// Anchor on A, y.
    ray: L,
    /// Anchor on body B.
    rbx: L,
    /// Anchor on B, y.
    rby: L,
    /// Separation at the step start.
    start_separation: L,
    /// Effective mass along the tangent.
    tangent_mass: L,
    /// Accumulated normal impulse (per substep).
    normal_impulse: L,
    /// Accumulated friction impulse.
    tangent_impulse: L,
    /// Largest normal impulse so far this step.
    max_normal_impulse: L,
}

impl<L: Lanes> PointLanes<L> {
    /// `(ra x n, rb x n)`: the angular levers of a normal impulse along
    /// `(nx, ny)` on A and on B. Computed where used, not kept: the solve
    /// of a large scene waits on memory, not on arithmetic, and four
    /// levers a point would be a sixth of a two-point batch, read on every
    /// pass. The same products and differences as `cross` (`a.x * b.y -
    /// a.y * b.x`), so the same bits as the scalar solve.
    #[inline(always)]
    fn normal_levers(&self, (nx, ny): (L, L)) -> (L, L) {
        (self.rax * ny - self.ray * nx, self.rbx * ny - self.rby * nx)
    }

    /// `(ra x t, rb x t)`: the angular levers of a friction impulse along
    /// the tangent `t = (ny, -nx)` (see [`PointLanes::normal_levers`]).
    #[inline(always)]
    fn tangent_levers(&self, (nx, ny): (L, L)) -> (L, L) {
        let (tx, ty) = (ny, -nx);
        (self.rax * ty - self.ray * tx, self.rbx * ty - self.rby * tx)
    }
}

/// What building one lane of a batch reads of its contact and its two
/// solver bodies ([`Batch::prepare`]): gathered lane by lane, so the
/// arithmetic runs on all lanes at once.
#[derive(Clone, Copy, Debug)]
pub(super) struct LaneSource<const N: usize> {
    /// The contact (slot).
    pub(super) contact: u32,
    /// Whether the constraint is tracked (see [`ContactConstraint::track`]).
    pub(super) track: bool,
    /// Solver body A.
    pub(super) a: u32,
    /// Solver body B.
    pub(super) b: u32,
    /// Whether the lane writes body A (it is dynamic).
    pub(super) write_a: bool,
    /// Whether the lane writes body B.
    pub(super) write_b: bool,
    /// The contact normal.
    pub(super) normal: Vec2,
    /// The friction coefficient.
    pub(super) friction: f32,
    /// `[ma, ia, mb, ib]`, as [`ContactConstraint::masses`].
    pub(super) masses: [f32; 4],
    /// As [`ContactConstraint::round`].
    pub(super) round: [f32; 2],
    /// The points.
    pub(super) points: [PointSource; N],
}

/// What building one point of a lane reads (see [`LaneSource`]).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PointSource {
    /// The point's lever on A (from A's center of mass).
    pub(super) ra: Vec2,
    /// Its lever on B.
    pub(super) rb: Vec2,
    /// The manifold's separation at the point.
    pub(super) separation: f32,
    /// The warm start's normal impulse (per substep).
    pub(super) normal_impulse: f32,
    /// The warm start's friction impulse (per substep).
    pub(super) tangent_impulse: f32,
}

impl<const N: usize> LaneSource<N> {
    /// An unused lane's: at rest on the dummy body `dummy`, which it never
    /// writes, with zero masses, anchors and impulses (see [`Batch::pad`]).
    pub(super) fn pad(dummy: u32) -> LaneSource<N> {
        LaneSource {
            contact: 0,
            track: false,
            a: dummy,
            b: dummy,
            write_a: false,
            write_b: false,
            normal: Vec2::ZERO,
            friction: 0.0,
            masses: [0.0; 4],
            round: [0.0; 2],
            points: [PointSource::default(); N],
        }
    }
}

/// Up to [`W`] constraints of one color with `N` points each, lane by
/// lane, and `M` lanes of normal mass data. Unused lanes have zero masses
/// and impulses, so they compute zeros and are never scattered.
#[derive(Clone, Debug)]
pub(super) struct Batch<L: Lanes, const N: usize, const M: usize> {
    /// Lanes in use. (With the integer and flag fields below, outside
    /// the tests, one 64-byte line.)
    len: u32,
    /// Index of each lane's constraint: the tests' (the solve finds
    /// where each constraint's impulses are from the graph's lists).
    #[cfg(test)]
    index: L::Ints,
    /// Index of each lane's contact, whose manifold takes the impulses
    /// after the solve.
    contact: L::Ints,
    /// Whether each lane's constraint is tracked (restitution, a hit
    /// event): it then takes the impulses too, for what runs after the
    /// solve.
    track: L::Flags,
    /// Each lane's bodies (a body the lane cannot move, static or
    /// kinematic, is never written).
    bodies: LaneBodies<L>,
    /// Contact normal, from A to B.
    nx: L,
    /// Normal, y.
    ny: L,
    /// Friction coefficient.
    friction: L,
    /// Inverse mass of A.
    ma: L,
    /// Inverse inertia of A.
    ia: L,
    /// Inverse mass of B.
    mb: L,
    /// Inverse inertia of B.
    ib: L,
    /// A's radius if it is a circle (see [`ContactConstraint::round`]).
    round_a: L,
    /// B's, likewise.
    round_b: L,
    /// The normal masses. A block: its 2x2 matrix `K`, `[k11, k12,
    /// k22]` (its inverse is found where the solve needs it, as the
    /// separations are: see [`Batch::separations`]). A single point:
    /// `[normal mass]`.
    mass: [L; M],
    /// The points.
    p: [PointLanes<L>; N],
}

/// A batch of two-point blocks: the normal impulses by the 2x2 LCP.
pub(super) type PairBatch<L> = Batch<L, 2, 3>;

/// A batch of one-point constraints: the normal impulse by the scalar
/// clamp.
pub(super) type PointBatch<L> = Batch<L, 1, 1>;

/// A batch's accumulated split impulses (per point, lane by lane), which
/// split impulses keep apart from it (see `Graph::pair_split`).
pub(super) type Split<L, const N: usize> = SharedCell<[L; N]>;

/// The normal half of an iteration, which differs between blocks and
/// single points.
pub(super) trait Normal<L: Lanes, const N: usize> {
    /// The normal impulses of a velocity iteration, on gathered velocities
    /// `g` (after friction), the points' separations `sep`.
    fn velocity_normal(&mut self, g: &mut Velocities<L>, ctx: &StepContext, sep: [L; N]);

    /// One split-impulse iteration on gathered pseudo-velocities `g`, the
    /// points' accumulated split impulses `split`. Returns false, having
    /// changed nothing, when every lane has nothing pushed and nothing to
    /// push (the usual resting case): then the bodies need no write.
    fn pseudo_pass(
        &mut self,
        g: &mut Velocities<L>,
        split: &mut [L; N],
        ctx: &StepContext,
        sep: [L; N],
    ) -> bool;

    /// The normal impulses of a soft-step iteration on gathered velocities
    /// `g` (before friction): pushed out softly when `bias`, rigid in the
    /// relax pass; points taken one at a time go in reverse order when
    /// `reverse`. See `scalar::solve_soft_constraint`.
    fn soft_normal(
        &mut self,
        g: &mut Velocities<L>,
        ctx: &StepContext,
        bias: bool,
        reverse: bool,
        sep: [L; N],
    );

    /// The lanes whose points form a block well conditioned enough to
    /// solve as one (see
    /// [`block_determinant`](super::types::block_determinant)): with
    /// split impulses only those go in a two-point batch. None for single
    /// points.
    fn blocks(&self) -> L::Mask;
}

impl<L: Lanes, const N: usize, const M: usize> Batch<L, N, M>
where
    Batch<L, N, M>: Normal<L, N>,
{
    /// The constraints in the batch's lanes (indices into the step's
    /// constraint array).
    #[cfg(test)]
    pub(super) fn constraints(&self) -> &[u32] {
        &self.index.as_ref()[..self.len as usize]
    }

    /// Each lane's bodies and whether the lane writes them: `(a, writes
    /// a, b, writes b)`, padding lanes included.
    pub(super) fn footprint(&self) -> impl Iterator<Item = (u32, bool, u32, bool)> + '_ {
        self.bodies.footprint()
    }

    /// Lane `l`'s accumulated normal impulses (per substep), point by
    /// point.
    pub(super) fn normal_impulses(&self, l: usize) -> [f32; N] {
        self.p.map(|p| p.normal_impulse.lane(l))
    }

    /// Lane `l`'s current separations (the second zero for one point).
    #[cfg(test)]
    pub(super) fn separations_of(&self, states: &[StateCell], l: usize) -> [f32; 2] {
        let mut out = [0.0; 2];
        for (o, s) in out.iter_mut().zip(&self.separations(states)) {
            *o = s.lane(l);
        }
        out
    }

    /// A batch with no lanes in use, for [`Batch::fill`] to overwrite.
    pub(super) fn empty() -> Batch<L, N, M> {
        Batch {
            len: 0,
            #[cfg(test)]
            index: L::Ints::default(),
            contact: L::Ints::default(),
            track: L::Flags::default(),
            bodies: LaneBodies::default(),
            nx: L::default(),
            ny: L::default(),
            friction: L::default(),
            ma: L::default(),
            ia: L::default(),
            mb: L::default(),
            ib: L::default(),
            round_a: L::default(),
            round_b: L::default(),
            mass: [L::default(); M],
            p: [PointLanes::default(); N],
        }
    }

    /// Packs the constraints `chunk` (at most [`W`], each with `N` points,
    /// and for `N = 2` a block) into lanes: a new batch (see
    /// [`Batch::fill`]).
    #[cfg(test)]
    pub(super) fn new(
        chunk: &[u32],
        constraints: &[ContactConstraint],
        bodies: &[SolverBody],
        dummy: u32,
    ) -> Batch<L, N, M> {
        let mut batch = Batch::empty();
        batch.fill(chunk, constraints, bodies, &Batch::<L, N, M>::pad(dummy));
        // The tests start lanes from any largest normal impulse, which
        // `fill` takes to be zero (and their split impulses from any: see
        // `Batch::split_impulses`).
        let pad = Batch::<L, N, M>::pad(dummy);
        let mut cs = [&pad; MAX_W];
        for (c, &i) in cs.iter_mut().zip(chunk) {
            *c = &constraints[i as usize];
        }
        for (k, p) in batch.p.iter_mut().enumerate() {
            p.max_normal_impulse = lanes(&cs, |c| c.points[k].max_normal_impulse);
        }
        batch
    }

    /// The split impulses of the constraints `chunk` of `constraints`,
    /// lane by lane, as the graph keeps them beside a batch (for the
    /// tests, which start from any).
    #[cfg(test)]
    pub(super) fn split_impulses(chunk: &[u32], constraints: &[ContactConstraint]) -> [L; N] {
        std::array::from_fn(|k| {
            L::from_fn(|l| {
                chunk
                    .get(l)
                    .map_or(0.0, |&i| constraints[i as usize].points[k].pseudo_impulse)
            })
        })
    }

    /// The constraint of an unused lane: at rest on the dummy body `dummy`
    /// (a body state at rest that no lane writes), with zero masses,
    /// anchors and impulses, and an identity K (or a unit normal mass) to
    /// keep its arithmetic finite.
    pub(super) fn pad(dummy: u32) -> ContactConstraint {
        let mut pad = ContactConstraint {
            a: dummy,
            b: dummy,
            count: N,
            k: [1.0, 0.0, 1.0],
            inv_k: [1.0, 0.0, 1.0],
            ..ContactConstraint::default()
        };
        pad.points[0].normal_mass = 1.0;
        pad
    }

    /// Packs the constraints `chunk` (at most [`W`], each with `N` points,
    /// and for `N = 2` a block) into this batch's lanes, in place: the
    /// graph keeps its batches from step to step and refills them, which
    /// saves building each one on the stack and copying it into the list.
    /// Unused lanes take `pad` (see [`Batch::pad`]), so every loop runs
    /// over all `W` lanes. The constraints are fresh from
    /// `prepare_contacts`: their split impulses and largest normal impulses
    /// are zero, and the lanes start at zero without reading them.
    #[inline(always)]
    pub(super) fn fill(
        &mut self,
        chunk: &[u32],
        constraints: &[ContactConstraint],
        bodies: &[SolverBody],
        pad: &ContactConstraint,
    ) {
        debug_assert!(chunk.len() <= L::W);
        let mut cs = [pad; MAX_W];
        for (c, &i) in cs.iter_mut().zip(chunk) {
            *c = &constraints[i as usize];
        }
        let cs = &cs;
        #[cfg(test)]
        {
            self.index = L::Ints::default();
            self.index.as_mut()[..chunk.len()].copy_from_slice(chunk);
        }
        for (l, c) in cs.iter().enumerate().take(chunk.len()) {
            self.contact[l] = c.contact;
            self.track[l] = c.track;
        }
        debug_assert!(cs.iter().all(|c| c.count == N));
        let dynamic = |i: u32| bodies.get(i as usize).is_some_and(|b| b.dynamic);
        for l in 0..L::W {
            let lb = &mut self.bodies;
            (lb.a[l], lb.b[l]) = (cs[l].a, cs[l].b);
            (lb.write_a[l], lb.write_b[l]) = (dynamic(lb.a[l]), dynamic(lb.b[l]));
        }
        for (j, m) in self.mass.iter_mut().enumerate() {
            *m = lanes(cs, |c| if N == 2 { c.k[j] } else { c.points[0].normal_mass });
        }
        let (nx, ny) = (lanes(cs, |c| c.normal.x), lanes(cs, |c| c.normal.y));
        for (k, pl) in self.p.iter_mut().enumerate() {
            *pl = PointLanes {
                rax: lanes(cs, |c| c.points[k].ra.x),
                ray: lanes(cs, |c| c.points[k].ra.y),
                rbx: lanes(cs, |c| c.points[k].rb.x),
                rby: lanes(cs, |c| c.points[k].rb.y),
                start_separation: lanes(cs, |c| c.points[k].start_separation),
                tangent_mass: lanes(cs, |c| c.points[k].tangent_mass),
                normal_impulse: lanes(cs, |c| c.points[k].normal_impulse),
                tangent_impulse: lanes(cs, |c| c.points[k].tangent_impulse),
                // Zero in every constraint `prepare_contacts` builds: not
                // gathered.
                max_normal_impulse: L::default(),
            };
        }
        self.len = chunk.len() as u32;
        self.nx = nx;
        self.ny = ny;
        self.friction = lanes(cs, |c| c.friction);
        self.ma = lanes(cs, |c| c.masses[0]);
        self.ia = lanes(cs, |c| c.masses[1]);
        self.mb = lanes(cs, |c| c.masses[2]);
        self.ib = lanes(cs, |c| c.masses[3]);
        self.round_a = lanes(cs, |c| c.round[0]);
        self.round_b = lanes(cs, |c| c.round[1]);
    }

    /// Builds the constraints `chunk` from `sources` (the first
    /// `chunk.len()` of them; the rest are padding, see
    /// [`LaneSource::pad`]) into this batch's lanes,
    /// in place: what `prepare::prepare_one` computes of a constraint and
    /// [`Batch::fill`] then packs, computed lane-wide from what the
    /// prepare read of each contact, to the same bits (the same
    /// operations in the same order, lane by lane), with no constraint
    /// built in between. Unused lanes come out as [`Batch::pad`]'s.
    #[inline(always)]
    pub(super) fn prepare(&mut self, chunk: &[u32], sources: &[LaneSource<N>]) {
        debug_assert_eq!(sources.len(), L::W);
        let sources: [&LaneSource<N>; MAX_W] = std::array::from_fn(|l| &sources[l.min(L::W - 1)]);
        debug_assert!(chunk.len() <= L::W);
        #[cfg(test)]
        {
            self.index = L::Ints::default();
            self.index.as_mut()[..chunk.len()].copy_from_slice(chunk);
        }
        for (l, s) in sources.iter().enumerate().take(L::W) {
            self.contact[l] = s.contact;
            self.track[l] = s.track;
            let lb = &mut self.bodies;
            (lb.a[l], lb.b[l], lb.write_a[l], lb.write_b[l]) = (s.a, s.b, s.write_a, s.write_b);
        }
        let (nx, ny) = (lanes(&sources, |s| s.normal.x), lanes(&sources, |s| s.normal.y));
        let (ma, ia, mb, ib) = (
            lanes(&sources, |s| s.masses[0]),
            lanes(&sources, |s| s.masses[1]),
            lanes(&sources, |s| s.masses[2]),
            lanes(&sources, |s| s.masses[3]),
        );
        let zero = L::default();
        // `if k > 0 { 1 / k } else { 0 }`, lane-wise.
        let inverse = |k: L| k.gt(zero).select(L::splat(1.0) / k, zero);
        // Per point: the normal levers and the effective normal mass, for
        // the block's K below.
        let mut levers = [(zero, zero); N];
        let mut kn = [zero; N];
        for (k, pl) in self.p.iter_mut().enumerate() {
            *pl = PointLanes {
                rax: lanes(&sources, |s| s.points[k].ra.x),
                ray: lanes(&sources, |s| s.points[k].ra.y),
                rbx: lanes(&sources, |s| s.points[k].rb.x),
                rby: lanes(&sources, |s| s.points[k].rb.y),
                start_separation: zero,
                tangent_mass: zero,
                normal_impulse: lanes(&sources, |s| s.points[k].normal_impulse),
                tangent_impulse: lanes(&sources, |s| s.points[k].tangent_impulse),
                max_normal_impulse: zero,
            };
            let (rna, rnb) = pl.normal_levers((nx, ny));
            let (rta, rtb) = pl.tangent_levers((nx, ny));
            (levers[k], kn[k]) = ((rna, rnb), ma + mb + ia * rna * rna + ib * rnb * rnb);
            pl.tangent_mass = inverse(ma + mb + ia * rta * rta + ib * rtb * rtb);
            pl.start_separation = lanes(&sources, |s| s.points[k].separation);
        }
        let used = L::from_fn(|l| l as f32).lt(L::splat(chunk.len() as f32));
        let (first, last) = (0, N - 1);
        if N == 2 {
            // K: `[k11, k12, k22]`, the points' normal masses and their
            // coupling (`last` is the second point).
            let ((rn1a, rn1b), (rn2a, rn2b)) = (levers[first], levers[last]);
            let k12 = ma + mb + ia * rn1a * rn2a + ib * rn1b * rn2b;
            for (m, (k, pad)) in self
                .mass
                .iter_mut()
                .zip([(kn[first], 1.0), (k12, 0.0), (kn[last], 1.0)])
            {
                *m = used.select(k, L::splat(pad));
            }
        } else {
            self.mass[0] = used.select(inverse(kn[first]), L::splat(1.0));
        }
        self.len = chunk.len() as u32;
        self.nx = nx;
        self.ny = ny;
        self.friction = lanes(&sources, |s| s.friction);
        self.ma = ma;
        self.ia = ia;
        self.mb = mb;
        self.ib = ib;
        self.round_a = lanes(&sources, |s| s.round[0]);
        self.round_b = lanes(&sources, |s| s.round[1]);
    }

    /// The lanes' normals, `(nx, ny)`.
    #[inline(always)]
    fn n(&self) -> (L, L) {
        (self.nx, self.ny)
    }

    /// The current separations of the points, from the bodies' motion
    /// since the step began. Computed by every pass that reads them, not
    /// cached in the batch: the solve of a large scene waits on memory,
    /// and bodies move only between substeps, so within a substep they
    /// come out the same bits every time.
    #[inline(always)]
    fn separations(&self, states: &[StateCell]) -> [L; N] {
        // (The cosines less one, as `scalar::current_separation` sums the
        // anchors' moves.)
        let [dpx, dpy, qac, qas, qbc, qbs] = L::gather(|l| {
            let ((dpa, qa), (dpb, qb)) = (
                states[self.bodies.a[l] as usize].motion(),
                states[self.bodies.b[l] as usize].motion(),
            );
            [dpb.x - dpa.x, dpb.y - dpa.y, qa.c - 1.0, qa.s, qb.c - 1.0, qb.s]
        });
        let (nx, ny) = (self.nx, self.ny);
        let dn = dpx * nx + dpy * ny;
        // (Circles followed from their centers: see
        // `scalar::current_separation`.)
        let rolled = self.round_a * qac + self.round_b * qbc;
        // ((dqB - 1) rb - (dqA - 1) ra) . n, per point.
        let mut sep = [L::default(); N];
        for (s, p) in sep.iter_mut().zip(&self.p) {
            let gx = (qbc * p.rbx - qbs * p.rby) - (qac * p.rax - qas * p.ray);
            let gy = (qbs * p.rbx + qbc * p.rby) - (qas * p.rax + qac * p.ray);
            *s = dn + gx * nx + gy * ny + rolled + p.start_separation;
        }
        sep
    }

    /// The smallest current separation over the used lanes.
    #[inline(always)]
    pub(super) fn smallest_separation(&self, states: &[StateCell]) -> f32 {
        let sep = self.separations(states);
        let mut smallest = f32::INFINITY;
        for l in 0..self.len as usize {
            for s in &sep {
                smallest = smallest.min(s.lane(l));
            }
        }
        smallest
    }

    /// Applies the accumulated impulses at the start of a substep.
    #[inline(always)]
    pub(super) fn warm_start(&self, states: &[StateCell]) {
        let mut g = self.bodies.gather(states);
        let (tx, ty) = (self.ny, -self.nx);
        for p in &self.p {
            let px = p.normal_impulse * self.nx + p.tangent_impulse * tx;
            let py = p.normal_impulse * self.ny + p.tangent_impulse * ty;
            let ((rna, rnb), (rta, rtb)) = (p.normal_levers(self.n()), p.tangent_levers(self.n()));
            g.vax = g.vax - self.ma * px;
            g.vay = g.vay - self.ma * py;
            g.wa = g.wa - self.ia * (rna * p.normal_impulse + rta * p.tangent_impulse);
            g.vbx = g.vbx + self.mb * px;
            g.vby = g.vby + self.mb * py;
            g.wb = g.wb + self.ib * (rnb * p.normal_impulse + rtb * p.tangent_impulse);
        }
        self.bodies.scatter(states, &g);
    }

    /// One velocity iteration: friction at every point (in reverse point
    /// order when `reverse`), then the normal impulses.
    #[inline(always)]
    pub(super) fn solve_velocity(&mut self, states: &[StateCell], ctx: &StepContext, reverse: bool) {
        let sep = self.separations(states);
        let mut g = self.bodies.gather(states);
        self.velocity_pass(&mut g, ctx, reverse, sep);
        self.bodies.scatter(states, &g);
    }

    /// One velocity iteration and one split-impulse iteration together:
    /// the bodies are gathered and scattered once for both. The two passes
    /// share no state (the velocity pass reads and writes only velocities
    /// and the velocity impulses, the split-impulse pass only
    /// pseudo-velocities and the split impulses, and both read only the
    /// separations, which do not change within a substep), so this gives
    /// exactly the numbers of a sweep of velocity iterations followed by a
    /// sweep of split-impulse iterations in the same order, and the order
    /// of the two within one batch is free. The pseudo-velocities are the
    /// velocities of the states `pseudo`; the batch's split impulses are
    /// kept apart from it, in `split` (the soft step, the default, never
    /// streams them).
    #[inline(always)]
    pub(super) fn solve_velocity_and_pseudo(
        &mut self,
        (states, pseudo): (&[StateCell], &[StateCell]),
        split: &Split<L, N>,
        ctx: &StepContext,
        reverse: bool,
    ) {
        let sep = self.separations(states);
        let (mut g, mut pg) = (self.bodies.gather(states), self.bodies.gather(pseudo));
        // The split-impulse pass first: the lighter one, done while the
        // velocity pass's registers are still free (fewer spills).
        let mut impulses = split.load();
        let pushed = self.pseudo_pass(&mut pg, &mut impulses, ctx, sep);
        self.velocity_pass(&mut g, ctx, reverse, sep);
        self.bodies.scatter(states, &g);
        if pushed {
            self.bodies.scatter(pseudo, &pg);
            split.store(impulses);
        }
    }

    /// The velocity iteration on gathered velocities `g`: friction at
    /// every point (in reverse point order when `reverse`), then the
    /// normal impulses.
    #[inline(always)]
    fn velocity_pass(&mut self, g: &mut Velocities<L>, ctx: &StepContext, reverse: bool, sep: [L; N]) {
        self.friction(g, reverse);
        self.velocity_normal(g, ctx, sep);
    }

    /// One soft-step iteration (the biased solve when `bias`, else the
    /// relax): the soft normal impulses, then friction at every point,
    /// bounded by the normal impulses just found (the order of
    /// `scalar::solve_soft_constraint`, and Box2D's).
    #[inline(always)]
    pub(super) fn solve_soft(&mut self, states: &[StateCell], ctx: &StepContext, reverse: bool, bias: bool) {
        let sep = self.separations(states);
        let mut g = self.bodies.gather(states);
        self.soft_normal(&mut g, ctx, bias, reverse, sep);
        self.friction(&mut g, reverse);
        self.bodies.scatter(states, &g);
    }

    /// The normal relative velocity of point `k`.
    #[inline(always)]
    fn point_velocity(&self, g: &Velocities<L>, k: usize) -> L {
        let (rna, rnb) = self.p[k].normal_levers(self.n());
        (g.vbx - g.vax) * self.nx + (g.vby - g.vay) * self.ny + g.wb * rnb - g.wa * rna
    }

    /// Applies the normal impulse `lambda` at point `k` alone.
    #[inline(always)]
    fn apply_point(&self, g: &mut Velocities<L>, k: usize, lambda: L) {
        let levers = self.p[k].normal_levers(self.n());
        self.apply(g, lambda, self.n(), levers);
    }

    /// Applies an impulse `lambda` along the direction `(dx, dy)`, whose
    /// angular levers about A's and B's centers are `(ra, rb)`: minus to
    /// A, plus to B.
    #[inline(always)]
    fn apply(&self, g: &mut Velocities<L>, lambda: L, (dx, dy): (L, L), (ra, rb): (L, L)) {
        let (px, py) = (lambda * dx, lambda * dy);
        g.vax = g.vax - self.ma * px;
        g.vay = g.vay - self.ma * py;
        g.wa = g.wa - self.ia * ra * lambda;
        g.vbx = g.vbx + self.mb * px;
        g.vby = g.vby + self.mb * py;
        g.wb = g.wb + self.ib * rb * lambda;
    }

    /// The friction impulses at every point (in reverse point order when
    /// `reverse`), on gathered velocities `g`.
    #[inline(always)]
    fn friction(&mut self, g: &mut Velocities<L>, reverse: bool) {
        let (nx, ny) = (self.nx, self.ny);
        let (tx, ty) = (ny, -nx);
        for j in 0..N {
            let k = if reverse { N - 1 - j } else { j };
            let p = &mut self.p[k];
            let (rta, rtb) = p.tangent_levers((nx, ny));
            let dvx = g.vbx - g.vax;
            let dvy = g.vby - g.vay;
            let vt = dvx * tx + dvy * ty + g.wb * rtb - g.wa * rta;
            let max_friction = self.friction * p.normal_impulse;
            let new = (p.tangent_impulse - p.tangent_mass * vt)
                .max(-max_friction)
                .min(max_friction);
            let lambda = new - p.tangent_impulse;
            p.tangent_impulse = new;
            self.apply(g, lambda, (tx, ty), (rta, rtb));
        }
    }

    /// The soft step's coefficients at separation `s`, lane-wise: bias
    /// velocity, mass scale, impulse scale and its inverse (see `scalar::soft_terms`),
    /// with the stiffer softness where a lane's body is static or
    /// kinematic.
    #[inline(always)]
    fn soft_terms(&self, s: L, bias: bool, ctx: &StepContext) -> (L, L, L, L) {
        let zero = L::default();
        let one = L::splat(1.0);
        let speculative = s.gt(zero);
        let closing = s * L::splat(ctx.inv_h());
        if !bias {
            return (speculative.select(closing, zero), one, zero, one);
        }
        let fixed = (self.ma + self.ia).eq(zero) | (self.mb + self.ib).eq(zero);
        let pick = |f: fn(&crate::solver::Softness) -> f32| {
            fixed.select(L::splat(f(&ctx.static_soft)), L::splat(f(&ctx.soft)))
        };
        let rate = pick(|k| k.mass_scale * k.bias_rate);
        let mass_scale = pick(|k| k.mass_scale);
        let impulse_scale = pick(|k| k.impulse_scale);
        let inv_mass_scale = pick(|k| k.inv_mass_scale);
        let push = (rate * s).max(L::splat(-ctx.max_push_out_speed));
        (
            speculative.select(closing, push),
            speculative.select(one, mass_scale),
            speculative.select(zero, impulse_scale),
            speculative.select(one, inv_mass_scale),
        )
    }

    /// The normal-velocity target of the velocity solve at separation `s`,
    /// lane-wise: close a gap at most, hold a touching point (and push it
    /// out with Baumgarte). See `StepContext::velocity_target`.
    #[inline(always)]
    fn velocity_target(&self, s: L, ctx: &StepContext) -> L {
        let inv_h = L::splat(ctx.inv_h());
        let zero = L::default();
        let baumgarte = ctx.settings.position_correction == PositionCorrection::Baumgarte;
        let touching = if baumgarte { self.push_out(s, ctx) } else { zero };
        s.gt(zero).select(-s * inv_h, touching)
    }

    /// The push-out velocity of split impulses (and Baumgarte) at
    /// separation `s`, lane-wise: see `StepContext::push_out`.
    #[inline(always)]
    fn push_out(&self, s: L, ctx: &StepContext) -> L {
        let k = L::splat(ctx.settings.baumgarte * ctx.inv_h());
        (k * -(s + L::splat(ctx.linear_slop)))
            .max(L::default())
            .min(L::splat(ctx.max_push_out_speed))
    }

    /// Writes lane `l`'s impulses, times `scale` (per substep to per
    /// step), straight into its contact's manifold (`contact`, of slot
    /// `slot`), where the next step finds them. Only a tracked lane also copies them back into its
    /// constraint `c`, for the restitution pass and hit events
    /// (restitution then writes its manifold again).
    pub(super) fn store(
        &self,
        (l, slot): (usize, u32),
        contact: &mut Contact,
        c: &mut ContactConstraint,
        scale: f32,
    ) {
        debug_assert!(l < self.len as usize && self.contact[l] == slot);
        for (mp, p) in contact.manifold.points.iter_mut().zip(&self.p) {
            mp.normal_impulse = p.normal_impulse.lane(l) * scale;
            mp.tangent_impulse = p.tangent_impulse.lane(l) * scale;
        }
        if self.track[l] {
            for (cp, p) in c.points.iter_mut().zip(&self.p) {
                cp.normal_impulse = p.normal_impulse.lane(l);
                cp.tangent_impulse = p.tangent_impulse.lane(l);
                cp.max_normal_impulse = p.max_normal_impulse.lane(l);
            }
        }
    }

    /// Copies all of the lanes' impulses back into their constraints (for
    /// comparing the lanes with the scalar solve).
    #[cfg(test)]
    pub(super) fn store_constraints(&self, constraints: &mut [ContactConstraint]) {
        for l in 0..self.len as usize {
            let c = &mut constraints[self.index[l] as usize];
            for (cp, p) in c.points.iter_mut().zip(&self.p) {
                cp.normal_impulse = p.normal_impulse.lane(l);
                cp.tangent_impulse = p.tangent_impulse.lane(l);
                cp.max_normal_impulse = p.max_normal_impulse.lane(l);
            }
        }
    }
}

impl<L: Lanes> PairBatch<L> {
    /// Sets both points' normal impulses (and their largest so far).
    #[inline(always)]
    fn set_normal(&mut self, x: [L; 2]) {
        for (p, x) in self.p.iter_mut().zip(x) {
            p.normal_impulse = x;
            p.max_normal_impulse = p.max_normal_impulse.max(x);
        }
    }

    /// Solves the 2x2 block LCP for the lanes' two normal impulses given
    /// the normal velocities `vn`, the targets `t` and the old impulses
    /// `old`: both push, else only the first, else only the second, else
    /// neither, as selects.
    #[inline(always)]
    fn block_lcp(&self, vn: [L; 2], t: [L; 2], old: [L; 2]) -> [L; 2] {
        let zero = L::default();
        let [k11, k12, k22] = self.mass;
        let (_, [i11, i12, i22]) = self.inverse();
        let b1 = vn[0] - t[0] - (k11 * old[0] + k12 * old[1]);
        let b2 = vn[1] - t[1] - (k12 * old[0] + k22 * old[1]);
        let both1 = -(i11 * b1 + i12 * b2);
        let both2 = -(i12 * b1 + i22 * b2);
        let both = both1.ge(zero) & both2.ge(zero);
        let first = -b1 / k11;
        let first_ok = first.ge(zero) & (k12 * first + b2).ge(zero);
        let second = -b2 / k22;
        let second_ok = second.ge(zero) & (k12 * second + b1).ge(zero);
        let x1 = both.select(both1, first_ok.select(first, zero));
        let x2 = both.select(both2, (!first_ok & second_ok).select(second, zero));
        [x1, x2]
    }

    /// Which lanes' `K` is well conditioned enough to invert, and its
    /// inverse `[i11, i12, i22]` there (elsewhere not to be used): the
    /// prepare's test and inverse
    /// ([`block_determinant`](super::types::block_determinant)),
    /// lane-wise, so the same bits.
    #[inline(always)]
    fn inverse(&self) -> (L::Mask, [L; 3]) {
        let [k11, k12, k22] = self.mass;
        let det = k11 * k22 - k12 * k12;
        let invertible = det.gt(L::default()) & (k11 * k11).lt(L::splat(MAX_BLOCK_CONDITION) * det);
        let inv = L::splat(1.0) / det;
        (invertible, [k22 * inv, -k12 * inv, k11 * inv])
    }

    /// Both points' normal levers (see [`PointLanes::normal_levers`]).
    #[inline(always)]
    fn normal_levers(&self) -> [(L, L); 2] {
        // (Not `map`: its closure would be compiled apart from the kernel,
        // without the lanes' processor features; see `Lanes::enter`.)
        let n = self.n();
        [self.p[0].normal_levers(n), self.p[1].normal_levers(n)]
    }

    /// Normal relative velocities of the two points.
    #[inline(always)]
    fn normal_velocities(&self, g: &Velocities<L>) -> [L; 2] {
        let dn = (g.vbx - g.vax) * self.nx + (g.vby - g.vay) * self.ny;
        let [(rn1a, rn1b), (rn2a, rn2b)] = self.normal_levers();
        [dn + g.wb * rn1b - g.wa * rn1a, dn + g.wb * rn2b - g.wa * rn2a]
    }

    /// Applies the change from `old` to `x` of the two normal impulses.
    #[inline(always)]
    fn apply_normal(&self, g: &mut Velocities<L>, x: [L; 2], old: [L; 2]) {
        let d1 = x[0] - old[0];
        let d2 = x[1] - old[1];
        let d = d1 + d2;
        let (px, py) = (d * self.nx, d * self.ny);
        g.vax = g.vax - self.ma * px;
        g.vay = g.vay - self.ma * py;
        let [(rn1a, rn1b), (rn2a, rn2b)] = self.normal_levers();
        g.wa = g.wa - self.ia * (rn1a * d1 + rn2a * d2);
        g.vbx = g.vbx + self.mb * px;
        g.vby = g.vby + self.mb * py;
        g.wb = g.wb + self.ib * (rn1b * d1 + rn2b * d2);
    }
}

impl<L: Lanes> Normal<L, 2> for PairBatch<L> {
    #[inline(always)]
    fn blocks(&self) -> L::Mask {
        self.inverse().0
    }

    /// The normal block: the 2x2 LCP of the two points.
    #[inline(always)]
    fn velocity_normal(&mut self, g: &mut Velocities<L>, ctx: &StepContext, s: [L; 2]) {
        let targets = [self.velocity_target(s[0], ctx), self.velocity_target(s[1], ctx)];
        let vn = self.normal_velocities(g);
        let old = [self.p[0].normal_impulse, self.p[1].normal_impulse];
        let x = self.block_lcp(vn, targets, old);
        self.apply_normal(g, x, old);
        self.set_normal(x);
    }

    /// The normal block with the push-out targets. A lane is idle when
    /// neither point has pushed yet and both already separate at least as
    /// fast as their targets: zero is then its exact answer.
    #[inline(always)]
    fn pseudo_pass(
        &mut self,
        g: &mut Velocities<L>,
        split: &mut [L; 2],
        ctx: &StepContext,
        s: [L; 2],
    ) -> bool {
        let targets = [self.push_out(s[0], ctx), self.push_out(s[1], ctx)];
        let vn = self.normal_velocities(g);
        let zero = L::default();
        let old = *split;
        let idle = old[0].eq(zero) & old[1].eq(zero) & vn[0].ge(targets[0]) & vn[1].ge(targets[1]);
        if idle.all() {
            return false;
        }
        let x = self.block_lcp(vn, targets, old);
        let x = [idle.select(old[0], x[0]), idle.select(old[1], x[1])];
        self.apply_normal(g, x, old);
        *split = x;
        true
    }

    /// Both points at once by the block's soft update where that leaves
    /// both pushing; in the other lanes the points one after the other
    /// (the first point's impulse reaching the second's velocity), as the
    /// scalar solve does. Both answers are computed and each lane keeps
    /// its own. The block update is `scalar::soft_block`'s: each point
    /// softened by its own effective mass (the compliance
    /// `k_ii i_i / m_i` on the diagonal only), coupled through `k12`.
    #[inline(always)]
    fn soft_normal(
        &mut self,
        g: &mut Velocities<L>,
        ctx: &StepContext,
        bias: bool,
        reverse: bool,
        sep: [L; 2],
    ) {
        let zero = L::default();
        let (b1, m1, i1, inv_m1) = self.soft_terms(sep[0], bias, ctx);
        let (b2, m2, i2, inv_m2) = self.soft_terms(sep[1], bias, ctx);
        let old = [self.p[0].normal_impulse, self.p[1].normal_impulse];
        let vn = self.normal_velocities(g);
        let [k11, k12, k22] = self.mass;
        // K + diag(k_ii i_i / m_i): k_ii / m_i on the diagonal.
        let (d11, d22) = (k11 * inv_m1, k22 * inv_m2);
        let r1 = vn[0] + (b1 + i1 * k11 * old[0]) * inv_m1;
        let r2 = vn[1] + (b2 + i2 * k22 * old[1]) * inv_m2;
        let inv = L::splat(1.0) / (d11 * d22 - k12 * k12);
        let x1 = old[0] - (d22 * r1 - k12 * r2) * inv;
        let x2 = old[1] - (d11 * r2 - k12 * r1) * inv;
        // A lane whose `K` is too ill-conditioned for the block goes point
        // by point.
        let (invertible, _) = self.inverse();
        let block = x1.ge(zero) & x2.ge(zero) & invertible;
        if block.all() {
            self.apply_normal(g, [x1, x2], old);
            self.set_normal([x1, x2]);
            return;
        }
        // Point by point on a copy, for the lanes the block does not suit.
        let mut seq = Velocities { ..*g };
        let mut x = old;
        let terms = [((b1, m1, i1), k11), ((b2, m2, i2), k22)];
        for j in 0..2 {
            let k = if reverse { 1 - j } else { j };
            let ((velocity_bias, mass_scale, impulse_scale), k_kk) = terms[k];
            let vn = self.point_velocity(&seq, k);
            let impulse =
                -(L::splat(1.0) / k_kk) * (mass_scale * vn + velocity_bias) - impulse_scale * old[k];
            x[k] = (old[k] + impulse).max(zero);
            self.apply_point(&mut seq, k, x[k] - old[k]);
        }
        let x = [block.select(x1, x[0]), block.select(x2, x[1])];
        // The block lanes take the block's velocities, the others the
        // sequence's.
        let mut blocked = Velocities { ..*g };
        self.apply_normal(&mut blocked, x, old);
        g.select_from(block, &blocked, &seq);
        self.set_normal(x);
    }
}

impl<L: Lanes> Normal<L, 1> for PointBatch<L> {
    #[inline(always)]
    fn blocks(&self) -> L::Mask {
        L::Mask::default()
    }

    /// The scalar solve's clamp: the accumulated impulse moves by the
    /// normal mass times the velocity error and stays non-negative.
    #[inline(always)]
    fn velocity_normal(&mut self, g: &mut Velocities<L>, ctx: &StepContext, [s]: [L; 1]) {
        let target = self.velocity_target(s, ctx);
        let vn = self.point_velocity(g, 0);
        let old = self.p[0].normal_impulse;
        let [normal_mass] = self.mass;
        let new = (old + normal_mass * (target - vn)).max(L::default());
        self.apply_point(g, 0, new - old);
        let p = &mut self.p[0];
        p.normal_impulse = new;
        p.max_normal_impulse = p.max_normal_impulse.max(new);
    }

    /// The clamp with the push-out target. As in the scalar solve, a lane
    /// with no push-out target and no split impulse yet takes no part.
    #[inline(always)]
    fn pseudo_pass(
        &mut self,
        g: &mut Velocities<L>,
        split: &mut [L; 1],
        ctx: &StepContext,
        [s]: [L; 1],
    ) -> bool {
        let zero = L::default();
        let target = self.push_out(s, ctx);
        let [old] = *split;
        let idle = target.eq(zero) & old.eq(zero);
        if idle.all() {
            return false;
        }
        let vn = self.point_velocity(g, 0);
        let [normal_mass] = self.mass;
        let new = idle.select(old, (old + normal_mass * (target - vn)).max(zero));
        self.apply_point(g, 0, new - old);
        *split = [new];
        true
    }

    /// The scalar soft update of the one point.
    #[inline(always)]
    fn soft_normal(
        &mut self,
        g: &mut Velocities<L>,
        ctx: &StepContext,
        bias: bool,
        _reverse: bool,
        [s]: [L; 1],
    ) {
        let (velocity_bias, mass_scale, impulse_scale, _) = self.soft_terms(s, bias, ctx);
        let vn = self.point_velocity(g, 0);
        let old = self.p[0].normal_impulse;
        let [normal_mass] = self.mass;
        let impulse = -normal_mass * (mass_scale * vn + velocity_bias) - impulse_scale * old;
        let new = (old + impulse).max(L::default());
        self.apply_point(g, 0, new - old);
        let p = &mut self.p[0];
        p.normal_impulse = new;
        p.max_normal_impulse = p.max_normal_impulse.max(new);
    }
}
