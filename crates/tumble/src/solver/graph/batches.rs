//! Lane batches: each color's two-point blocks and single points listed
//! [`lanes::W`] to a batch (each color's run padded to whole batches),
//! the batches filled from the constraints or built straight into them
//! ([`Refill`]), each color's hinges packed into hinge batches, and the
//! impulses read back from where the solve keeps them (a lane, or the
//! constraint of one solved on its own).

use super::Graph;
use crate::body::SolverBody;
use crate::contact::Contact;
use crate::joint::JointConstraint;
use crate::solver::joints::hinges::HingeBatch;
use crate::solver::lanes;
use crate::solver::scalar::store_impulses;
use crate::solver::types::{ColorKey, ContactConstraint, LaneKind};
use crate::solver::wide;
use crate::store::Store;
use crate::threads::{for_each_indexed_mut, for_each_slot_mut, prefetch};
use std::sync::atomic::{AtomicBool, Ordering};

/// The fewest lane batches a worker fills at a time (while packing).
const CHUNK: usize = 32;

impl Graph {
    /// Lists each color's two-point blocks and single points by lane
    /// batch (each color's run padded to whole batches), leaving in
    /// `scalar` what cannot go into one, and notes in [`Graph::lanes`]
    /// where each constraint's impulses are kept. Every batch is then
    /// filled from its own [`lanes::W`] entries, independently.
    pub(super) fn pack(&mut self, keys: &[ColorKey]) {
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
            color.pairs = pad_to_batches(&mut self.blocks, blocks_start);
            color.singles = pad_to_batches(&mut self.points, points_start);
        }
        self.pair_count = self.blocks.len() / lanes::W;
        self.single_count = self.points.len() / lanes::W;
    }

    /// Fills the batches [`Graph::build`] listed from `constraints`.
    pub(in crate::solver) fn fill(
        &mut self,
        constraints: &[ContactConstraint],
        bodies: &[SolverBody],
        parallel: bool,
    ) {
        fill_from(
            &mut self.pairs,
            self.pair_count,
            &self.blocks,
            constraints,
            bodies,
            parallel,
        );
        fill_from(
            &mut self.singles,
            self.single_count,
            &self.points,
            constraints,
            bodies,
            parallel,
        );
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
        refill_from(
            &mut self.pairs,
            (self.pair_count, &self.blocks),
            keys,
            refill,
            parallel,
        ) && refill_from(
            &mut self.singles,
            (self.single_count, &self.points),
            keys,
            refill,
            parallel,
        )
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
        let places = &mut self.hinge_places;
        places.clear();
        for color in &mut self.colors[..self.count] {
            let start = color.joints.start;
            let hinges = start..start + color.hinge_joints;
            let first = places.len();
            places.extend(
                hinges
                    .clone()
                    .step_by(lanes::W)
                    .map(|chunk| chunk as u32..(chunk + lanes::W).min(hinges.end) as u32),
            );
            color.hinges = first..places.len();
        }
        let count = places.len();
        if self.hinges.len() < count {
            self.hinges.resize_with(count, HingeBatch::empty);
        }
        let places = &self.hinge_places;
        for_each_indexed_mut(parallel, &mut self.hinges[..count], CHUNK, |k, batch| {
            let run = &places[k];
            batch.fill(run.start as usize..run.end as usize, joints, dummy);
        });
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
        for batch in &self.hinges[..self.hinge_count] {
            batch.store(joints);
        }
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
        let (pairs, singles, lanes) = (&self.pairs, &self.singles, &self.lanes);
        let store = |k: usize, contact: &mut Contact, c: &mut ContactConstraint| {
            let lane = lanes[k];
            let at = (lane & LANE) as usize;
            let slot = slots[k];
            match lane & !LANE {
                IN_PAIRS => pairs[at / lanes::W].store((at % lanes::W, slot), contact, c, scale),
                IN_SINGLES => singles[at / lanes::W].store((at % lanes::W, slot), contact, c, scale),
                _ => store_impulses(c, contact, scale),
            }
        };
        for_each_slot_mut(parallel, contacts.slots_mut(), slots, constraints, 256, &store);
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
        for (&k, total) in picked.iter().zip(totals) {
            let lane = self.lanes[k as usize];
            let at = (lane & LANE) as usize;
            let impulses = match lane & !LANE {
                IN_PAIRS => self.pairs[at / lanes::W].normal_impulses(at % lanes::W),
                IN_SINGLES => {
                    let [x] = self.singles[at / lanes::W].normal_impulses(at % lanes::W);
                    [x, 0.0]
                }
                _ => constraints[k as usize].points.map(|p| p.normal_impulse),
            };
            total[0] += impulses[0];
            total[1] += impulses[1];
        }
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

/// Pads the run of `list` from `start` to whole batches with
/// [`NO_CONSTRAINT`] and returns its batches' range.
#[inline]
fn pad_to_batches(list: &mut Vec<u32>, start: usize) -> std::ops::Range<usize> {
    while list.len() % lanes::W != 0 {
        list.push(NO_CONSTRAINT);
    }
    start / lanes::W..list.len() / lanes::W
}

/// Fills the first `count` of `batches` (made up to that many) from
/// `list`, [`lanes::W`] entries each, split between the workers when
/// `parallel`: `fill` packs one batch from its entries in use, told those
/// of the batch after next too (in color order the constraints lie
/// scattered: it asks for those while this one is filled). Once `fill`
/// refuses a batch (returns false), the batches not yet begun are left as
/// they were, and this returns false.
fn fill_batches<const N: usize, const M: usize>(
    batches: &mut Vec<wide::Batch<N, M>>,
    count: usize,
    list: &[u32],
    parallel: bool,
    fill: impl Fn(&mut wide::Batch<N, M>, &[u32], &[u32]) -> bool + Sync + Send,
) -> bool
where
    wide::Batch<N, M>: wide::Normal<N>,
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
        let after_next = list.get((k + 2) * lanes::W..(k + 3) * lanes::W).unwrap_or(&[]);
        let lanes = &list[k * lanes::W..(k + 1) * lanes::W];
        if !fill(batch, &lanes[..in_use(lanes)], &after_next[..in_use(after_next)]) {
            refused.store(true, Ordering::Relaxed);
        }
    });
    !refused.into_inner()
}

/// Fills the first `count` of `batches` from `list` and `constraints`
/// (see [`fill_batches`]).
fn fill_from<const N: usize, const M: usize>(
    batches: &mut Vec<wide::Batch<N, M>>,
    count: usize,
    list: &[u32],
    constraints: &[ContactConstraint],
    bodies: &[SolverBody],
    parallel: bool,
) where
    wide::Batch<N, M>: wide::Normal<N>,
{
    let pad = wide::Batch::<N, M>::pad(bodies.len() as u32);
    fill_batches(batches, count, list, parallel, |batch, used, after_next| {
        for &i in after_next {
            prefetch(&constraints[i as usize]);
        }
        batch.fill(used, constraints, bodies, &pad);
        true
    });
}

/// Fills the first `count` of `batches` from `list` with the constraints
/// `refill` builds (see [`Graph::refill_with`]), asking it for those of
/// the batch after next ahead. Returns false once it refuses a batch.
fn refill_from<const N: usize, const M: usize>(
    batches: &mut Vec<wide::Batch<N, M>>,
    (count, list): (usize, &[u32]),
    keys: &[ColorKey],
    refill: &impl Refill,
    parallel: bool,
) -> bool
where
    wide::Batch<N, M>: wide::Normal<N>,
{
    fill_batches(batches, count, list, parallel, |batch, used, after_next| {
        for &i in after_next {
            refill.ahead(i);
        }
        refill.batch(batch, used, keys)
    })
}

/// What [`Graph::refill_with`] builds the batches with: each batch's
/// constraints straight into its lanes, given their indices and their
/// keys as the coloring holds them.
pub(in crate::solver) trait Refill: Sync {
    /// Builds the constraints `used` (at most [`lanes::W`] indices, each
    /// with its key as held in `keys`) into `batch`, its other lanes
    /// padding; returns false, with nothing built usable, if it finds
    /// any one's key (or anything else the coloring depends on) not as
    /// held.
    fn batch<const N: usize, const M: usize>(
        &self,
        batch: &mut wide::Batch<N, M>,
        used: &[u32],
        keys: &[ColorKey],
    ) -> bool
    where
        wide::Batch<N, M>: wide::Normal<N>;

    /// Asks for what building constraint `i` reads: it is built soon.
    fn ahead(&self, i: u32);
}

#[cfg(test)]
mod tests {
    use crate::settings::Coloring;
    use crate::solver::graph::tests::{is_hinge, random_colored};
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
                    for batch in &graph.hinges[color.hinges.clone()] {
                        for &place in batch.places() {
                            placed[place as usize] += 1;
                            in_batch[place as usize] = true;
                            assert!(is_hinge(&joints[place as usize]));
                        }
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
