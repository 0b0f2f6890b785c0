//! Lane batches: each color's two-point blocks and single points listed
//! a batch's lanes to a batch (each color's run padded to whole batches),
//! the batches filled from the constraints or built straight into them
//! ([`Refill`]), each color's hinges packed into hinge batches, and the
//! impulses read back from where the solve keeps them (a lane, or the
//! constraint of one solved on its own).

use super::{with_batches, Batches, Graph};
use crate::body::SolverBody;
use crate::contact::Contact;
use crate::joint::JointConstraint;
use crate::solver::joints::hinges::HingeBatch;
use crate::solver::lanes::Lanes;
use crate::solver::scalar::store_impulses;
use crate::solver::types::{ColorKey, ContactConstraint, LaneKind};
use crate::solver::wide;
use crate::store::Store;
use crate::threads::{for_each_indexed_mut, for_each_slot_mut, prefetch};
use std::sync::atomic::{AtomicBool, Ordering};

/// The fewest lane batches a worker fills at a time (while packing).
const CHUNK: usize = 32;

/// How many constraints ahead of a batch the packing asks for the
/// constraints of a batch (two batches of four, one of eight): enough to
/// hide the wait for memory, few enough that the requests of one batch do
/// not fill the processor's queue of loads in flight.
const AHEAD: usize = 8;

impl Graph {
    /// Lists each color's two-point blocks and single points by lane
    /// batch (each color's run padded to whole batches), leaving in
    /// `scalar` what cannot go into one, and notes in [`Graph::lanes`]
    /// where each constraint's impulses are kept. Every batch is then
    /// filled from its own entries (as many as its lanes),
    /// independently.
    pub(super) fn pack(&mut self, keys: &[ColorKey]) {
        let w = self.width.lanes();
        self.blocks.clear();
        self.points.clear();
        self.lanes.clear();
        self.lanes.resize(keys.len(), ON_ITS_OWN);
        for color in &mut self.colors[..self.count] {
            let mut k = 0;
            let (blocks_start, points_start) = (self.blocks.len(), self.points.len());
            for j in 0..color.scalar.len() {
                let i = color.scalar[j];
                match keys[i as usize].kind {
                    LaneKind::Pair => {
                        self.lanes[i as usize] = IN_PAIRS | self.blocks.len() as u32;
                        self.blocks.push(i);
                    }
                    LaneKind::Single => {
                        self.lanes[i as usize] = IN_SINGLES | self.points.len() as u32;
                        self.points.push(i);
                    }
                    LaneKind::Alone => {
                        color.scalar[k] = i;
                        k += 1;
                    }
                }
            }
            color.scalar.truncate(k);
            color.pairs = pad_to_batches(&mut self.blocks, blocks_start, w);
            color.singles = pad_to_batches(&mut self.points, points_start, w);
        }
        self.pair_count = self.blocks.len() / w;
        self.single_count = self.points.len() / w;
        self.filled.clear();
        let colors = &self.colors[..self.count];
        self.filled.extend(
            (0..colors.len())
                .filter(|&k| !colors[k].is_empty())
                .map(|k| k as u32),
        );
    }

    /// Fills the batches [`Graph::build`] listed from `constraints`.
    pub(in crate::solver) fn fill(
        &mut self,
        constraints: &[ContactConstraint],
        bodies: &[SolverBody],
        parallel: bool,
    ) {
        with_batches!(self, b => {
            fill_from(
                &mut b.pairs,
                self.pair_count,
                &self.blocks,
                constraints,
                bodies,
                parallel,
            );
            fill_from(
                &mut b.singles,
                self.single_count,
                &self.points,
                constraints,
                bodies,
                parallel,
            );
        })
    }

    /// Refills every batch in use with the constraints `refill` builds
    /// into it (given their indices and their keys as kept: see
    /// [`Refill`]), in color order, instead of reading constraints built
    /// beforehand in slot order (which [`Graph::fill`] then reads back
    /// scattered). Returns false once `refill` refuses one: the step is
    /// then not as colored, and must be built and colored the usual way
    /// (which fills every batch again). Call only when
    /// [`Graph::may_keep`]; the constraints solved one at a time
    /// ([`Graph::lone_constraints`]) are the caller's to build.
    pub(in crate::solver) fn refill_with(&mut self, refill: &impl Refill, parallel: bool) -> bool {
        let keys = self.kept.contact_keys();
        with_batches!(self, b => {
            refill_from(
                &mut b.pairs,
                (self.pair_count, &self.blocks),
                keys,
                refill,
                parallel,
            ) && refill_from(
                &mut b.singles,
                (self.single_count, &self.points),
                keys,
                refill,
                parallel,
            )
        })
    }

    /// The constraints solved one at a time (outside the batches: each
    /// color's, then the overflow), each with its key as kept.
    pub(in crate::solver) fn lone_constraints(&self) -> impl Iterator<Item = (u32, &ColorKey)> + '_ {
        let keys = self.kept.contact_keys();
        self.colors[..self.count]
            .iter()
            .flat_map(|color| color.scalar.iter())
            .chain(&self.overflow)
            .map(move |&i| (i, &keys[i as usize]))
    }

    /// Packs each color's hinges, built in the joint array `joints`,
    /// into [`HingeBatch`]es (the last of a color perhaps not full, its
    /// spare lanes on the dummy body state `dummy`), and leaves the
    /// color's other joints to be solved one at a time. Until it is
    /// called, every joint is. The batches are filled independently,
    /// split between the workers when `parallel`.
    pub(in crate::solver) fn pack_hinges(&mut self, joints: &[JointConstraint], dummy: u32, parallel: bool) {
        // Serially, each batch's run of the joint array; then the fills.
        let w = self.width.lanes();
        let places = &mut self.hinge_places;
        places.clear();
        for color in &mut self.colors[..self.count] {
            let start = color.joints.start;
            let hinges = start..start + color.hinge_joints;
            let first = places.len();
            places.extend(
                hinges
                    .clone()
                    .step_by(w)
                    .map(|chunk| chunk as u32..(chunk + w).min(hinges.end) as u32),
            );
            color.hinges = first..places.len();
        }
        let count = places.len();
        let places = &self.hinge_places;
        with_batches!(self, b => fill_hinges(&mut b.hinges, places, joints, dummy, parallel));
        self.hinge_count = count;
    }

    /// No hinge packed: every joint is solved one at a time (until
    /// [`Graph::pack_hinges`]).
    pub(super) fn unpack_hinges(&mut self) {
        for color in &mut self.colors[..self.count] {
            color.hinges = 0..0;
        }
        self.hinge_count = 0;
    }

    /// Hands the hinge batches' impulses back to their joints' constraints
    /// (after the substeps).
    pub(in crate::solver) fn store_hinges(&self, joints: &mut [JointConstraint]) {
        with_batches!(ref self, b => {
            for batch in &b.hinges[..self.hinge_count] {
                batch.store(joints);
            }
        })
    }

    /// Writes the impulses, times `scale` (per substep to per step), into
    /// the contacts' manifolds: the batches' straight from their lanes,
    /// the other constraints' from the constraints. `slots` are the
    /// constraints' contacts, ascending (as the constraints were built):
    /// each constraint writes its own contact, split between the workers
    /// when `parallel`.
    pub(in crate::solver) fn store(
        &self,
        constraints: &mut [ContactConstraint],
        contacts: &mut Store<Contact>,
        slots: &[u32],
        scale: f32,
        parallel: bool,
    ) {
        with_batches!(ref self, b => store_from(
            b,
            &self.lanes,
            (constraints, contacts, slots),
            scale,
            parallel,
        ))
    }

    /// Adds the accumulated normal impulses of the constraints `picked`
    /// (indices), as they stand, to their `totals` (one entry each, in
    /// order; the second zero for one point): read from their lanes, or
    /// from the constraints solved on their own. Called after each
    /// substep, this sums what the substeps pushed.
    pub(in crate::solver) fn add_normal_impulses(
        &self,
        constraints: &[ContactConstraint],
        picked: &[u32],
        totals: &mut [[f32; 2]],
    ) {
        with_batches!(ref self, b => add_normal_impulses_from(b, &self.lanes, constraints, picked, totals))
    }
}

/// A constraint's entry in [`Graph::lanes`]: in a two-point batch, at
/// the entry of [`Graph::blocks`] in the low bits.
const IN_PAIRS: u32 = 1 << 31;

/// A constraint's entry in [`Graph::lanes`]: in a one-point batch, at
/// the entry of [`Graph::points`] in the low bits.
const IN_SINGLES: u32 = 1 << 30;

/// A constraint's entry in [`Graph::lanes`]: solved on its own, its
/// impulses in the constraint.
const ON_ITS_OWN: u32 = 0;

/// The bits of an entry of [`Graph::lanes`] that say where.
const LANE: u32 = (1 << 30) - 1;

/// An unused lane's entry in [`Graph::blocks`] and [`Graph::points`].
const NO_CONSTRAINT: u32 = u32::MAX;

/// Pads the run of `list` from `start` to whole batches of `w` lanes
/// with [`NO_CONSTRAINT`] and returns its batches' range.
#[inline]
fn pad_to_batches(list: &mut Vec<u32>, start: usize, w: usize) -> std::ops::Range<usize> {
    while list.len() % w != 0 {
        list.push(NO_CONSTRAINT);
    }
    start / w..list.len() / w
}

/// Fills the hinge batches, one for each run of the joint array in
/// `places` (see [`Graph::pack_hinges`]).
fn fill_hinges<L: Lanes>(
    hinges: &mut Vec<HingeBatch<L>>,
    places: &[std::ops::Range<u32>],
    joints: &[JointConstraint],
    dummy: u32,
    parallel: bool,
) {
    let count = places.len();
    if hinges.len() < count {
        hinges.resize_with(count, HingeBatch::empty);
    }
    for_each_indexed_mut(parallel, &mut hinges[..count], CHUNK, |k, batch| {
        let run = &places[k];
        L::enter(
            #[inline(always)]
            || batch.fill(run.start as usize..run.end as usize, joints, dummy),
        );
    });
}

/// [`Graph::store`] from batches `b`, whose lanes `lanes` lists.
fn store_from<L: Lanes>(
    b: &Batches<L>,
    lanes: &[u32],
    (constraints, contacts, slots): (&mut [ContactConstraint], &mut Store<Contact>, &[u32]),
    scale: f32,
    parallel: bool,
) {
    let store = |k: usize, contact: &mut Contact, c: &mut ContactConstraint| {
        let lane = lanes[k];
        let at = (lane & LANE) as usize;
        let slot = slots[k];
        match lane & !LANE {
            IN_PAIRS => b.pairs[at / L::W].store((at % L::W, slot), contact, c, scale),
            IN_SINGLES => b.singles[at / L::W].store((at % L::W, slot), contact, c, scale),
            _ => store_impulses(c, contact, scale),
        }
    };
    for_each_slot_mut(parallel, contacts.slots_mut(), slots, constraints, 256, &store);
}

/// [`Graph::add_normal_impulses`] from batches `b`, whose lanes `lanes`
/// lists.
fn add_normal_impulses_from<L: Lanes>(
    b: &Batches<L>,
    lanes: &[u32],
    constraints: &[ContactConstraint],
    picked: &[u32],
    totals: &mut [[f32; 2]],
) {
    for (&k, total) in picked.iter().zip(totals) {
        let lane = lanes[k as usize];
        let at = (lane & LANE) as usize;
        let impulses = match lane & !LANE {
            IN_PAIRS => b.pairs[at / L::W].normal_impulses(at % L::W),
            IN_SINGLES => {
                let [x] = b.singles[at / L::W].normal_impulses(at % L::W);
                [x, 0.0]
            }
            _ => constraints[k as usize].points.map(|p| p.normal_impulse),
        };
        total[0] += impulses[0];
        total[1] += impulses[1];
    }
}

/// Fills the first `count` of `batches` (made up to that many) from
/// `list`, a batch's lanes of entries each, split between the workers when
/// `parallel`: `fill` packs one batch from its entries in use, told those
/// of the batch [`AHEAD`] entries on too (in color order the constraints
/// lie scattered: it asks for those while this one is filled). Once `fill`
/// refuses a batch (returns false), the batches not yet begun are left as
/// they were, and this returns false.
fn fill_batches<L: Lanes, const N: usize, const M: usize>(
    batches: &mut Vec<wide::Batch<L, N, M>>,
    count: usize,
    list: &[u32],
    parallel: bool,
    fill: impl Fn(&mut wide::Batch<L, N, M>, &[u32], &[u32]) -> bool + Sync + Send,
) -> bool
where
    wide::Batch<L, N, M>: wide::Normal<L, N>,
{
    if batches.len() < count {
        batches.resize_with(count, wide::Batch::empty);
    }
    let in_use = |entries: &[u32]| entries.iter().take_while(|&&i| i != NO_CONSTRAINT).count();
    let refused = AtomicBool::new(false);
    for_each_indexed_mut(parallel, &mut batches[..count], CHUNK, |k, batch| {
        if refused.load(Ordering::Relaxed) {
            return;
        }
        let next = k + AHEAD / L::W;
        let ahead = list.get(next * L::W..(next + 1) * L::W).unwrap_or(&[]);
        let lanes = &list[k * L::W..(k + 1) * L::W];
        if !L::enter(
            #[inline(always)]
            || fill(batch, &lanes[..in_use(lanes)], &ahead[..in_use(ahead)]),
        ) {
            refused.store(true, Ordering::Relaxed);
        }
    });
    !refused.into_inner()
}

/// Fills the first `count` of `batches` from `list` and `constraints`
/// (see [`fill_batches`]).
fn fill_from<L: Lanes, const N: usize, const M: usize>(
    batches: &mut Vec<wide::Batch<L, N, M>>,
    count: usize,
    list: &[u32],
    constraints: &[ContactConstraint],
    bodies: &[SolverBody],
    parallel: bool,
) where
    wide::Batch<L, N, M>: wide::Normal<L, N>,
{
    let pad = wide::Batch::<L, N, M>::pad(bodies.len() as u32);
    fill_batches(
        batches,
        count,
        list,
        parallel,
        #[inline(always)]
        |batch, used, ahead| {
            for &i in ahead {
                prefetch(&constraints[i as usize]);
            }
            batch.fill(used, constraints, bodies, &pad);
            true
        },
    );
}

/// Fills the first `count` of `batches` from `list` with the constraints
/// `refill` builds (see [`Graph::refill_with`]), asking it for those of
/// the batch [`AHEAD`] entries on. Returns false once it refuses a batch.
fn refill_from<L: Lanes, const N: usize, const M: usize>(
    batches: &mut Vec<wide::Batch<L, N, M>>,
    (count, list): (usize, &[u32]),
    keys: &[ColorKey],
    refill: &impl Refill,
    parallel: bool,
) -> bool
where
    wide::Batch<L, N, M>: wide::Normal<L, N>,
{
    fill_batches(
        batches,
        count,
        list,
        parallel,
        #[inline(always)]
        |batch, used, ahead| {
            for &i in ahead {
                refill.ahead(i);
            }
            refill.batch(batch, used, keys)
        },
    )
}

/// What [`Graph::refill_with`] builds the batches with: each batch's
/// constraints straight into its lanes, given their indices and their
/// keys as the coloring holds them.
pub(in crate::solver) trait Refill: Sync {
    /// Builds the constraints `used` (at most a batch's lanes of indices, each
    /// with its key as held in `keys`) into `batch`, its other lanes
    /// padding; returns false, with nothing built usable, if it finds
    /// any one's key (or anything else the coloring depends on) not as
    /// held.
    fn batch<L: Lanes, const N: usize, const M: usize>(
        &self,
        batch: &mut wide::Batch<L, N, M>,
        used: &[u32],
        keys: &[ColorKey],
    ) -> bool
    where
        wide::Batch<L, N, M>: wide::Normal<L, N>;

    /// Asks for what building constraint `i` reads: it is built soon.
    fn ahead(&self, i: u32);
}

#[cfg(test)]
mod tests {
    use crate::settings::Coloring;
    use crate::solver::graph::tests::{is_hinge, random_colored};
    use crate::solver::graph::with_batches;
    use crate::test_rng::Rng;

    #[test]
    fn each_colors_hinges_are_packed_once_and_its_other_joints_left_alone() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for coloring in [Coloring::Bounded, Coloring::Ordered, Coloring::Off] {
            for _ in 0..30 {
                let (mut graph, bodies, _, (_, mut joints, _)) =
                    random_colored(&mut rng, (40, 60, 60), coloring);
                let before = joints.clone();
                graph.pack_hinges(&joints, bodies.len() as u32, false);
                assert!(graph.footprints_are_disjoint(&bodies, &joints));
                // Each hinge of a color in one lane of that color's
                // batches; its other joints, and no hinge, left alone.
                let mut placed = vec![0; joints.len()];
                let mut in_batch = vec![false; joints.len()];
                for color in &graph.colors[..graph.count] {
                    let places: Vec<u32> = with_batches!(ref graph, b => b.hinges[color.hinges.clone()]
                        .iter()
                        .flat_map(|batch| batch.places().to_vec())
                        .collect());
                    for place in places {
                        placed[place as usize] += 1;
                        in_batch[place as usize] = true;
                        assert!(is_hinge(&joints[place as usize]));
                    }
                    for place in color.lone_joints() {
                        placed[place] += 1;
                        assert!(!is_hinge(&joints[place]), "a hinge left unpacked");
                    }
                }
                // The overflow in key order (slot order here), hinges too.
                let overflow = &joints[graph.joint_overflow.clone()];
                assert!(overflow.windows(2).all(|w| w[0].joint < w[1].joint));
                for place in graph.joint_overflow.clone() {
                    placed[place] += 1;
                }
                assert!(placed.iter().all(|&n| n == 1), "{placed:?}");
                if coloring == Coloring::Off {
                    assert_eq!(graph.hinge_count, 0);
                }
                // The batches' impulses go back where they came from, and
                // nowhere else.
                for j in &mut joints {
                    j.impulses = crate::joint::JointImpulses::ZERO;
                }
                graph.store_hinges(&mut joints);
                for ((j, was), &batched) in joints.iter().zip(&before).zip(&in_batch) {
                    let expected = if batched {
                        was.impulses
                    } else {
                        crate::joint::JointImpulses::ZERO
                    };
                    assert_eq!(j.impulses, expected);
                }
            }
        }
    }
}
