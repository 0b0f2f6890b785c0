//! Building the step's contact constraints from the manifolds.

use super::contact_trees::EXACT_CONTACT_MASS_RATIO;
use super::graph::{Graph, Refill};
use super::lanes::{LaneMask, Lanes, MAX_W};
use super::types::{block_determinant, held, ColorKey, ConstraintPoint, ContactConstraint, LaneKind};
use super::wide::{self, LaneSource, Normal, PointSource};
use crate::body::{Body, SolverBody};
use crate::contact::{Contact, ContactOptions, SOLVER_BYTES};
use crate::math::{cross, cross_sv, right_perp};
use crate::step_context::StepContext;
use crate::store::Store;
use crate::threads::{prefetch_head, PREFETCH_AHEAD};

/// Which contacts [`prepare_contacts`] picked, and their constraints' buffers.
#[derive(Clone, Debug, Default)]
pub(crate) struct Picked {
    /// The contact of each constraint.
    pub contacts: Vec<u32>,
    /// The constraints with restitution, ascending.
    pub bouncy: Vec<u32>,
    /// The constraints whose per-point results are read after the solve
    /// ([`ContactConstraint::track`]: restitution or a hit event),
    /// ascending; `bouncy` is among them.
    pub tracked: Vec<u32>,
    /// The constraints between dynamic bodies whose masses differ by
    /// [`EXACT_CONTACT_MASS_RATIO`] or more, ascending: their stacks may
    /// be solved exactly ([`super::contact_trees`]).
    pub heavy: Vec<u32>,
    /// The constraints of contacts marked for the exact solve
    /// (`ContactOptions::EXACT`), ascending.
    pub exact: Vec<u32>,
    /// Per candidate, while picking: [`PICK`], [`BOUNCY`], [`TRACK`],
    /// [`HEAVY`] and [`EXACT`].
    flags: Vec<u8>,
    /// Per constraint, its contact's flags.
    chosen_flags: Vec<u8>,
    /// The candidates left out, ascending (with `contacts`, the
    /// candidates picked from).
    left_out: Vec<u32>,
}

impl Picked {
    /// Whether these were picked from `candidates` (ascending): whether
    /// those are the picked contacts and the left-out ones, merged.
    fn picked_from(&self, candidates: &[u32]) -> bool {
        if self.left_out.is_empty() {
            return self.contacts == candidates;
        }
        if candidates.len() != self.contacts.len() + self.left_out.len() {
            return false;
        }
        let (mut picked, mut left) = (self.contacts.iter().peekable(), self.left_out.iter().peekable());
        candidates.iter().all(|&ci| {
            if picked.peek() == Some(&&ci) {
                picked.next();
                true
            } else if left.peek() == Some(&&ci) {
                left.next();
                true
            } else {
                false
            }
        })
    }

    /// Whether constraint `i`'s contact is marked for the exact solve.
    pub fn is_marked(&self, i: usize) -> bool {
        self.chosen_flags[i] & EXACT != 0
    }

    /// Bytes allocated.
    pub fn memory_bytes(&self) -> usize {
        (self.contacts.capacity()
            + self.bouncy.capacity()
            + self.tracked.capacity()
            + self.heavy.capacity()
            + self.exact.capacity()
            + self.left_out.capacity())
            * std::mem::size_of::<u32>()
            + self.flags.capacity()
            + self.chosen_flags.capacity()
    }
}

/// What building a contact's constraint reads: the contacts, the step's
/// solver bodies (`index_of` maps a body slot to its solver body, or to
/// the last, the shared static one, when the body is not simulated), the
/// world's bodies (for a static body's center) and the step's constants.
pub(crate) struct Sources<'a, F> {
    /// The world's contacts.
    pub contacts: &'a Store<Contact>,
    /// The step's solver bodies, the shared static one last.
    pub solver_bodies: &'a [SolverBody],
    /// A body slot's solver body.
    pub index_of: F,
    /// The world's bodies.
    pub body_slots: &'a Store<Body>,
    /// The step's constants.
    pub ctx: &'a StepContext,
    /// Whether two of the step's bodies' masses differ by
    /// [`EXACT_CONTACT_MASS_RATIO`] or more: else no contact is heavy,
    /// and none is taken as marked for the exact solve (a contact keeps
    /// its mark while that is so, unread: the mark is the world's, and
    /// whether it is read follows from the world alone).
    pub heavy: bool,
}

/// A candidate's flag: it is solved.
const PICK: u8 = 1;
/// A candidate's flag: it has restitution.
const BOUNCY: u8 = 2;
/// A candidate's flag: its per-point results are read after the solve.
const TRACK: u8 = 4;
/// A candidate's flag: its bodies' masses differ by
/// [`EXACT_CONTACT_MASS_RATIO`] or more.
const HEAVY: u8 = 8;
/// A candidate's flag: it is marked for the exact solve.
const EXACT: u8 = 16;

/// Builds one constraint per manifold with points among `candidates`
/// (contact slots, ascending), and its [`ColorKey`]: both bodies'
/// masses, the anchors, the effective masses. Impulses in the manifolds
/// are per step; the solver works per substep. Which candidates to solve (those with points and a body
/// with mass) is found for each independently, and its constraint built
/// in the same visit, at the candidate's own place, split between the
/// workers when the step is parallel (each contact is read once: the
/// prepare waits on memory, and a pass to pick and another to build
/// would read every contact twice). Then they are picked serially, in
/// order, into `picked`,
/// the constraints of any candidates left out closed up behind them.
///
/// With `lanes_later` (the soft step's bounded coloring, whose batches
/// are then built straight from the contacts: [`build_as_colored`]),
/// only the tracked ones' constraints are built here, the others' keys
/// found without them (see [`contact_key`]).
pub(crate) fn prepare_contacts(
    (constraints, keys): (&mut Vec<ContactConstraint>, &mut Vec<ColorKey>),
    picked: &mut Picked,
    candidates: &[u32],
    sources: &Sources<impl Fn(u32) -> u32 + Sync>,
    lanes_later: bool,
) {
    let Picked {
        contacts: chosen,
        bouncy,
        tracked,
        heavy,
        exact,
        flags,
        chosen_flags,
        left_out,
    } = picked;
    chosen.clear();
    bouncy.clear();
    tracked.clear();
    heavy.clear();
    exact.clear();
    chosen_flags.clear();
    left_out.clear();
    // A picked candidate's entries are overwritten below, the others are
    // closed over: only new entries need a value first.
    let count = candidates.len();
    constraints.truncate(count);
    constraints.resize(count, ContactConstraint::default());
    keys.truncate(count);
    keys.resize(count, ColorKey::default());
    flags.clear();
    flags.resize(count, 0);
    crate::threads::for_each_triple_mut(
        sources.ctx.parallel,
        (&mut constraints[..], &mut keys[..], &mut flags[..]),
        64,
        |k, cc, key, flag_k| {
            ask_ahead(sources.contacts, candidates, k);
            let ci = candidates[k];
            let c = &sources.contacts[ci];
            *flag_k = flag(c, sources);
            if *flag_k & PICK == 0 {
                return;
            }
            if lanes_later && *flag_k & TRACK == 0 {
                let [ba, bb] = bodies_of(c, sources);
                *key = contact_key(c, ci, (ba.dynamic, bb.dynamic), false, (true, sources.heavy));
            } else {
                prepare_one(c, ci, sources, (cc, key));
            }
        },
    );
    for (k, (&ci, &flag)) in candidates.iter().zip(flags.iter()).enumerate() {
        if flag & PICK == 0 {
            left_out.push(ci);
            continue;
        }
        let at = chosen.len();
        if at != k {
            if !lanes_later || flag & TRACK != 0 {
                constraints[at] = constraints[k];
            }
            keys[at] = keys[k];
        }
        chosen_flags.push(flag);
        pick((chosen, [bouncy, tracked, heavy, exact]), ci, flag);
    }
    constraints.truncate(chosen.len());
    keys.truncate(chosen.len());
}

/// Builds this step's constraints as [`prepare_contacts`] would, straight
/// into the batches of the coloring kept from last step
/// ([`Graph::refill_with`]), when the step is as last step was colored:
/// the same candidates, each picked or left out as it was, with the same
/// flags, and every constraint's [`ColorKey`] as kept. The constraints
/// solved one at a time and the tracked ones (whose results are read
/// from their constraints after the solve) are built into `constraints`
/// too; the others' entries are left as they were, unread. `picked` is
/// last step's, and so this step's. Returns false as soon as anything is
/// not as it was: then nothing built is usable, and the step is prepared
/// and colored the usual way.
///
/// This saves the step's largest memory traffic outside the substeps in
/// a scene at rest: each constraint written in slot order and read back
/// scattered, in color order, to fill the batches. Built in color order,
/// the contacts are read scattered instead (each asked for two batches
/// ahead), and each batch is built lane-wide from what was read of its
/// contacts ([`wide::Batch::prepare`]), with no constraint built in
/// between.
pub(crate) fn prepare_as_colored(
    (constraints, picked): (&mut [ContactConstraint], &Picked),
    graph: &mut Graph,
    candidates: &[u32],
    sources: &Sources<impl Fn(u32) -> u32 + Sync>,
) -> bool {
    let contacts = sources.contacts;
    if !picked.picked_from(candidates)
        || constraints.len() != picked.contacts.len()
        || picked
            .left_out
            .iter()
            .any(|&ci| flag(&contacts[ci], sources) != 0)
    {
        return false;
    }
    build_as_colored((constraints, picked), graph, sources, true)
}

/// Builds the picked constraints as `graph`'s bounded coloring holds
/// them (its lists and its keys): each batch's straight into its lanes,
/// from the contacts, and the ones solved one at a time and the tracked
/// ones into `constraints`. With `check`, for a step taken to be as the
/// last was colored ([`prepare_as_colored`]), each one's flags and key
/// are checked to be as the coloring holds them, and the first that is
/// not stops the build: returns false. Without, for a step just colored
/// from the keys [`prepare_contacts`] found (with `lanes_later`), it
/// builds them all and returns true. Only the colors' lists and the
/// picks are read: the contacts are read afresh.
pub(crate) fn build_as_colored(
    (constraints, picked): (&mut [ContactConstraint], &Picked),
    graph: &mut Graph,
    sources: &Sources<impl Fn(u32) -> u32 + Sync>,
    check: bool,
) -> bool {
    let again = AsColored {
        picked,
        sources,
        check,
    };
    if !graph.refill_with(&again, sources.ctx.parallel) {
        return false;
    }
    // (Unchecked, the tracked ones were built by `prepare_contacts`.)
    graph
        .lone_constraints()
        .all(|(i, kept)| again.constraint(i, kept, &mut constraints[i as usize]))
        && (!check
            || picked
                .tracked
                .iter()
                .all(|&i| again.constraint(i, graph.kept_key(i), &mut constraints[i as usize])))
}

/// Builds the picked constraints as colored ([`build_as_colored`]):
/// with `check`, each one checked to be as it was (its flags and its key
/// as kept), else refused.
struct AsColored<'a, F> {
    /// The step's picks.
    picked: &'a Picked,
    /// What the constraints are built from.
    sources: &'a Sources<'a, F>,
    /// Whether each one is checked against its flags and its key.
    check: bool,
}

impl<F: Fn(u32) -> u32> AsColored<'_, F> {
    /// Constraint `i`'s contact (its slot, and the contact).
    #[inline(always)]
    fn contact(&self, i: u32) -> (u32, &Contact) {
        let ci = self.picked.contacts[i as usize];
        (ci, &self.sources.contacts[ci])
    }

    /// Builds constraint `i` into `constraint` if it is as it was
    /// (`kept` its key as kept); else returns false.
    fn constraint(&self, i: u32, kept: &ColorKey, constraint: &mut ContactConstraint) -> bool {
        let (ci, c) = self.contact(i);
        if self.check && flag(c, self.sources) != self.picked.chosen_flags[i as usize] {
            return false;
        }
        let mut key = ColorKey::default();
        prepare_one(c, ci, self.sources, (constraint, &mut key));
        !self.check || key == *kept
    }
}

impl<F: Fn(u32) -> u32 + Sync> Refill for AsColored<'_, F> {
    #[inline(always)]
    fn batch<L: Lanes, const N: usize, const M: usize>(
        &self,
        batch: &mut wide::Batch<L, N, M>,
        used: &[u32],
        keys: &[ColorKey],
    ) -> bool
    where
        wide::Batch<L, N, M>: wide::Normal<L, N>,
    {
        let sources = self.sources;
        let soft = sources.ctx.soft_step();
        let mut as_picked = true;
        // Every lane padding, then the lanes in use read over it, in a
        // loop (an array built by a function of the lane would build each
        // lane apart and copy it in).
        let mut lanes = [LaneSource::pad(sources.solver_bodies.len() as u32); MAX_W];
        let lanes = &mut lanes[..L::W];
        for (lane, &i) in lanes.iter_mut().zip(used) {
            let (ci, c) = self.contact(i);
            let read = read_contact::<N>(c, ci, sources);
            as_picked &= read.flag == self.picked.chosen_flags[i as usize] && c.manifold.count == N;
            *lane = read.lane;
        }
        if self.check && !as_picked {
            return false;
        }
        let lanes = &*lanes;
        batch.prepare(used, lanes);
        if !self.check {
            return true;
        }
        // (Whether a block is well conditioned decides its kind only with
        // split impulses.)
        let blocks = if soft { L::Mask::default() } else { batch.blocks() };
        used.iter().zip(lanes).enumerate().all(|(l, (&i, lane))| {
            let (ci, c) = self.contact(i);
            contact_key(
                c,
                ci,
                (lane.write_a, lane.write_b),
                blocks.test(l),
                (soft, sources.heavy),
            ) == keys[i as usize]
        })
    }

    #[inline(always)]
    fn ahead(&self, i: u32) {
        prefetch_head(self.contact(i).1, SOLVER_BYTES);
    }
}

/// Asks for the contact a few places after the `k`th of `list` (contact
/// slots, ascending): the walks over the candidates read each one's
/// contact (its first [`SOLVER_BYTES`]), and those lie scattered through
/// the store.
#[inline(always)]
fn ask_ahead(contacts: &Store<Contact>, list: &[u32], k: usize) {
    if let Some(&ahead) = list.get(k + PREFETCH_AHEAD) {
        prefetch_head(&contacts[ahead], SOLVER_BYTES);
    }
}

/// Contact `c`'s flags: [`PICK`] if it has points and a body with mass,
/// with [`BOUNCY`] if it has restitution too, and [`TRACK`] if it has
/// restitution or a hit event pending.
#[inline(always)]
fn flag(c: &Contact, sources: &Sources<impl Fn(u32) -> u32>) -> u8 {
    if c.manifold.count == 0 {
        return 0;
    }
    let [ba, bb] = bodies_of(c, sources);
    flag_of(c, ba, bb, sources.heavy)
}

/// [`flag`] of contact `c` between solver bodies `ba` and `bb`, in a
/// step where contacts may be `heavy` ([`Sources::heavy`]).
#[inline(always)]
fn flag_of(c: &Contact, ba: &SolverBody, bb: &SolverBody, heavy: bool) -> u8 {
    if c.manifold.count == 0 || ba.inv_mass + bb.inv_mass + ba.inv_inertia + bb.inv_inertia == 0.0 {
        return 0;
    }
    let bouncy = if c.restitution != 0.0 { BOUNCY } else { 0 };
    let track = if is_tracked(c) { TRACK } else { 0 };
    if !heavy {
        return PICK | bouncy | track;
    }
    // (A body that cannot move has no inverse mass: never heavy.)
    let (light, heavy) = (ba.inv_mass.max(bb.inv_mass), ba.inv_mass.min(bb.inv_mass));
    let heavy = if heavy > 0.0 && light >= EXACT_CONTACT_MASS_RATIO * heavy {
        HEAVY
    } else {
        0
    };
    let exact = if c.options.contains(ContactOptions::EXACT) {
        EXACT
    } else {
        0
    };
    PICK | bouncy | track | heavy | exact
}

/// Whether contact `c`'s per-point results are read after the solve: for
/// restitution, or for its hit event.
#[inline(always)]
fn is_tracked(c: &Contact) -> bool {
    c.restitution != 0.0 || c.hit_pending
}

/// Adds picked candidate `ci` to `chosen`, and to the lists of
/// [`Picked`] its `flag` names (`bouncy`, `tracked`, `heavy`, `exact`).
#[inline(always)]
fn pick((chosen, lists): (&mut Vec<u32>, [&mut Vec<u32>; 4]), ci: u32, flag: u8) {
    let i = chosen.len() as u32;
    for (list, bit) in lists.into_iter().zip([BOUNCY, TRACK, HEAVY, EXACT]) {
        if flag & bit != 0 {
            list.push(i);
        }
    }
    chosen.push(ci);
}

/// What building contact `ci`'s (`c`'s) constraint reads of it and of
/// its two solver bodies, `N` points of it (those past the manifold's
/// count zero), for [`prepare_one`] and for a lane of
/// [`wide::Batch::prepare`] alike.
struct Read<'a, const N: usize> {
    /// The points' levers, separations and warm-start impulses, the
    /// bodies, masses, normal and friction.
    lane: LaneSource<N>,
    /// The contact's [`flag`].
    flag: u8,
    /// Its solver bodies, A's and B's.
    bodies: [&'a SolverBody; 2],
}

/// Reads contact `ci` (`c`) and its bodies (see [`Read`]).
#[inline(always)]
fn read_contact<'a, const N: usize>(
    c: &Contact,
    ci: u32,
    sources: &'a Sources<impl Fn(u32) -> u32>,
) -> Read<'a, N> {
    let Sources {
        solver_bodies,
        index_of,
        body_slots,
        ctx,
        ..
    } = sources;
    let per_substep = 1.0 / ctx.substeps as f32;
    let (ia, ib) = (index_of(c.body_a), index_of(c.body_b));
    let (ba, bb) = (&solver_bodies[ia as usize], &solver_bodies[ib as usize]);
    // The shared static body (last) has no center: a static body's own.
    let fixed = solver_bodies.len() as u32 - 1;
    let center = |i: u32, body: &SolverBody, slot: u32| {
        if i == fixed {
            body_slots[slot].center
        } else {
            body.center
        }
    };
    let (center_a, center_b) = (center(ia, ba, c.body_a), center(ib, bb, c.body_b));
    // A loop, not `array::from_fn`: that builds the points in a function
    // of its own and copies them out, and the copy, in wider moves than
    // the stores that wrote them, waits for each store to land.
    let mut points = [PointSource::default(); N];
    for (k, point) in points.iter_mut().enumerate().take(c.manifold.count) {
        let mp = &c.manifold.points[k];
        // A kept manifold's levers are those it was computed with (see
        // `Contact::kept_levers`).
        let (ra, rb) = c
            .kept_levers(k)
            .unwrap_or((mp.point - center_a, mp.point - center_b));
        // A speculative point's levers reach each body's own surface, half
        // the gap either side of the midpoint: where the two surfaces meet
        // when the gap closes, which is when the point pushes. From the
        // midpoint, the bodies' ends of the point would be the gap apart
        // by then, and each friction impulse would turn the pair by the gap
        // times the impulse (off-center impacts lost angular momentum in
        // proportion to how far apart the step began them). The normal
        // rows see no change: a lever moved along the normal keeps its
        // moment about it.
        let (ra, rb) = if mp.separation > 0.0 {
            let half = 0.5 * mp.separation * c.manifold.normal;
            (ra - half, rb + half)
        } else {
            (ra, rb)
        };
        let (normal_impulse, tangent_impulse) = if ctx.settings.warm_starting {
            (mp.normal_impulse * per_substep, mp.tangent_impulse * per_substep)
        } else {
            (0.0, 0.0)
        };
        *point = PointSource {
            ra,
            rb,
            separation: mp.separation,
            normal_impulse,
            tangent_impulse,
        };
    }
    Read {
        lane: LaneSource {
            contact: ci,
            track: is_tracked(c),
            a: ia,
            b: ib,
            write_a: ba.dynamic,
            write_b: bb.dynamic,
            normal: c.manifold.normal,
            friction: c.friction,
            masses: [ba.inv_mass, ba.inv_inertia, bb.inv_mass, bb.inv_inertia],
            round: c.round,
            points,
        },
        flag: flag_of(c, ba, bb, sources.heavy),
        bodies: [ba, bb],
    }
}

/// Builds into `cc` the constraint of contact `ci` (`c`), which has
/// points and a body with mass, in place (returned, its 176 bytes were
/// built on the stack and copied); its coloring key goes to `key`.
#[inline(always)]
fn prepare_one(
    c: &Contact,
    ci: u32,
    sources: &Sources<impl Fn(u32) -> u32>,
    (cc, key): (&mut ContactConstraint, &mut ColorKey),
) {
    let ctx = sources.ctx;
    let dt = ctx.h * ctx.substeps as f32;
    let Read {
        lane: read,
        bodies: [ba, bb],
        ..
    } = read_contact::<2>(c, ci, sources);
    let [ma, iia, mb, iib] = read.masses;
    let n = read.normal;
    let t = right_perp(n);
    *cc = ContactConstraint {
        a: read.a,
        b: read.b,
        contact: ci,
        normal: n,
        friction: read.friction,
        restitution: c.restitution,
        tangent_speed: c.tangent_speed,
        track: read.track,
        count: c.manifold.count,
        masses: read.masses,
        round: read.round,
        ..ContactConstraint::default()
    };
    // Per point: the angular levers of a normal impulse and the
    // effective normal mass, kept for the block's K below.
    let mut levers = [(0.0, 0.0); 2];
    let mut kns = [0.0; 2];
    let count = c.manifold.count;
    for (k, (p, cp)) in read
        .points
        .iter()
        .zip(cc.points.iter_mut())
        .take(count)
        .enumerate()
    {
        let (ra, rb) = (p.ra, p.rb);
        let rna = cross(ra, n);
        let rnb = cross(rb, n);
        let kn = ma + mb + iia * rna * rna + iib * rnb * rnb;
        (levers[k], kns[k]) = ((rna, rnb), kn);
        let rta = cross(ra, t);
        let rtb = cross(rb, t);
        let kt = ma + mb + iia * rta * rta + iib * rtb * rtb;
        // Approach velocity for restitution and hit events (read only
        // when the constraint is tracked): the velocity at the start of the step plus
        // what gravity and forces add over it, so a body caught by a
        // speculative point bounces with the speed it hits at, not the
        // speed it had a step earlier.
        let relative_velocity = if cc.track {
            let dv = bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra) + dt * (bb.accel - ba.accel);
            dv.dot(n)
        } else {
            0.0
        };
        *cp = ConstraintPoint {
            ra,
            rb,
            start_separation: p.separation,
            separation: p.separation,
            normal_mass: if kn > 0.0 { 1.0 / kn } else { 0.0 },
            tangent_mass: if kt > 0.0 { 1.0 / kt } else { 0.0 },
            normal_impulse: p.normal_impulse,
            tangent_impulse: p.tangent_impulse,
            // Both zero: `wide::Batch::fill` relies on it.
            pseudo_impulse: 0.0,
            max_normal_impulse: 0.0,
            relative_velocity,
        };
    }
    if count == 2 {
        let [(rn1a, rn1b), (rn2a, rn2b)] = levers;
        let [k11, k22] = kns;
        let k12 = ma + mb + iia * rn1a * rn2a + iib * rn1b * rn2b;
        // Nearly parallel rows (two points almost on top of each other)
        // make K singular: then solve the points one at a time.
        cc.k = [k11, k12, k22];
        if let Some(det) = block_determinant(cc.k) {
            let inv = 1.0 / det;
            cc.inv_k = [k22 * inv, -k12 * inv, k11 * inv];
            cc.block = true;
        }
    }
    if c.options.contains(ContactOptions::ROLLING) {
        // (Rare: read from the contact's cold end only here.)
        cc.rolling_resistance = c.rolling_resistance;
        cc.rolling_mass = if iia + iib > 0.0 { 1.0 / (iia + iib) } else { 0.0 };
        cc.rolling_impulse = if ctx.settings.warm_starting {
            c.rolling_impulse / ctx.substeps as f32
        } else {
            0.0
        };
    }
    *key = contact_key(
        c,
        ci,
        (read.write_a, read.write_b),
        cc.block,
        (ctx.soft_step(), sources.heavy),
    );
}

/// Contact `c`'s solver bodies, A's and B's.
#[inline(always)]
fn bodies_of<'a>(c: &Contact, sources: &'a Sources<impl Fn(u32) -> u32>) -> [&'a SolverBody; 2] {
    let (solver_bodies, index_of) = (sources.solver_bodies, &sources.index_of);
    [c.body_a, c.body_b].map(|slot| &solver_bodies[index_of(slot) as usize])
}

/// The coloring key of contact `ci` (`c`), whose bodies the solve
/// writes or not (`writes`), a well-conditioned block or not (`block`:
/// which decides nothing in the soft step, `soft`, where a two-point
/// manifold goes in a two-point batch either way), in a step where
/// contacts may be `heavy` (and their marks are read).
#[inline(always)]
fn contact_key(
    c: &Contact,
    ci: u32,
    (write_a, write_b): (bool, bool),
    block: bool,
    (soft, heavy): (bool, bool),
) -> ColorKey {
    ColorKey {
        item: ci,
        a: held(c.body_a, write_a),
        b: held(c.body_b, write_b),
        color: c.color,
        kind: LaneKind::of(
            (
                c.tangent_speed != 0.0
                    || c.options.contains(ContactOptions::ROLLING)
                    || (heavy && c.options.contains(ContactOptions::EXACT)),
                c.manifold.count,
                block,
            ),
            soft,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::Picked;
    use crate::test_rng::Rng;

    /// Candidates split at random between picked and left out are
    /// recognised, in full and only in full: one dropped, one added or
    /// one changed is not.
    #[test]
    fn the_candidates_picked_from_are_the_picked_and_the_left_out_merged() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..500 {
            let count = (rng.range(0.0, 40.0)) as u32;
            let candidates: Vec<u32> = (0..count).map(|k| 3 * k + (round % 3)).collect();
            let mut picked = Picked::default();
            let left_share = if round % 2 == 0 { 0.0 } else { 0.3 };
            for &ci in &candidates {
                if rng.range(0.0, 1.0) < left_share {
                    picked.left_out.push(ci);
                } else {
                    picked.contacts.push(ci);
                }
            }
            assert!(picked.picked_from(&candidates), "round {round}");
            if let Some((&last, rest)) = candidates.split_last() {
                assert!(!picked.picked_from(rest), "round {round}: one dropped");
                let mut more = candidates.clone();
                more.push(last + 1);
                assert!(!picked.picked_from(&more), "round {round}: one added");
                let mut changed = candidates.clone();
                changed[0] += 1;
                assert!(!picked.picked_from(&changed), "round {round}: one changed");
            }
        }
    }
}
