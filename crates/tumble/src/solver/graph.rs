//! The constraint graph: the step's constraints sorted into colors, each
//! color's constraints sharing no dynamic body, packed into lane-wide
//! batches.

use super::joints::hinges::HingeBatch;
use super::joints::{self, JointConstraint};
use super::kept_colors::{KeptColors, NOT_HELD};
use super::lanes::{self, Fw};
use super::scalar::{
    current_separation, solve_constraint, solve_pseudo_constraint, solve_soft_constraint, store_impulses,
    warm_start_constraint,
};
use super::types::StateCell;
use super::types::{ColorKey, ContactConstraint, LaneKind, SolverBody, StepContext};
use super::wide;
use crate::contact::Contact;
use crate::settings::{Coloring, GRAPH_COLORS};
use crate::store::Store;
use crate::threads::{
    block_size, for_each4, for_each_indexed_mut, for_each_slot_mut, prefetch, AtomicMin, Blocks, SharedCell,
    Team,
};
use std::sync::atomic::{AtomicBool, Ordering};

/// The fewest lane batches a worker fills at a time (while packing).
const CHUNK: usize = 32;

/// One color of the constraint graph: no dynamic body appears twice in it,
/// so its constraints can be solved in any order, or several at once.
#[derive(Clone, Debug, Default)]
struct Color {
    /// Its two-point block constraints, [`lanes::W`] to a batch: a range
    /// of [`Graph::pairs`].
    pairs: std::ops::Range<usize>,
    /// Its one-point constraints, [`lanes::W`] to a batch: a range of
    /// [`Graph::singles`].
    singles: std::ops::Range<usize>,
    /// Its other constraints (ill-conditioned pairs), solved one at a
    /// time: indices into the constraint array.
    scalar: Vec<u32>,
    /// Its hinges packed four to a batch ([`HingeBatch`]): a range of
    /// [`Graph::hinges`], empty until [`Graph::pack_hinges`].
    hinges: std::ops::Range<usize>,
    /// Its hinges (revolute joints), the first of its joints in the joint
    /// array: how many.
    hinge_joints: usize,
    /// Its joints: a range of the joint array, which the solver builds in
    /// color order ([`Graph::joint_order`]), the hinges first.
    joints: std::ops::Range<usize>,
}

impl Color {
    /// The color's work, in one-point batches (see [`PAIR_WORK`]).
    #[inline]
    fn work(&self) -> usize {
        PAIR_WORK * self.pairs.len()
            + self.singles.len()
            + HINGE_WORK * self.hinges.len()
            + JOINT_WORK * self.lone_joints().len()
    }

    /// Its joints solved one at a time: all of them but the hinges packed
    /// into its hinge batches.
    #[inline]
    fn lone_joints(&self) -> std::ops::Range<usize> {
        let packed = if self.hinges.is_empty() {
            0
        } else {
            self.hinge_joints
        };
        self.joints.start + packed..self.joints.end
    }

    /// The team to share the color's batches and joints with: none (its
    /// driver alone) when the color's work is under the settings'
    /// [`min_shared_color`](crate::SolverSettings::min_shared_color).
    #[inline]
    fn team<'t>(&self, team: Option<&'t Team>, ctx: &StepContext) -> Option<&'t Team> {
        team.filter(|_| self.shared(ctx))
    }

    /// Whether a team shares the color: its work is at least the
    /// settings' `min_shared_color`.
    #[inline]
    fn shared(&self, ctx: &StepContext) -> bool {
        self.work() >= ctx.settings.min_shared_color as usize
    }

    /// The color's two-point batches, one-point batches, hinge batches
    /// and other joints, in
    /// runs for `team`: runs of about equal work, four per thread, so that
    /// the share of the runs each thread starts with (see
    /// [`crate::threads`]) is its share of the work, whatever the mix. (A
    /// color of a few batches and thousands of joints, as the ragdolls'
    /// first, would otherwise give one thread all the batches and the
    /// other all the joints.)
    #[inline]
    fn runs<'a>(
        &self,
        team: Option<&Team>,
        (pairs, singles, hinges, joints): (
            &'a mut [wide::PairBatch],
            &'a mut [wide::PointBatch],
            &'a mut [HingeBatch],
            &'a mut [JointConstraint],
        ),
    ) -> (
        Blocks<'a, wide::PairBatch>,
        Blocks<'a, wide::PointBatch>,
        Blocks<'a, HingeBatch>,
        Blocks<'a, JointConstraint>,
    ) {
        let work = block_size(team, self.work(), 1);
        (
            Blocks::new(pairs, (work / PAIR_WORK).max(MIN_BATCHES)),
            Blocks::new(singles, work.max(MIN_BATCHES)),
            Blocks::new(hinges, (work / HINGE_WORK).max(MIN_BATCHES)),
            Blocks::new(joints, (work / JOINT_WORK).max(MIN_JOINTS)),
        )
    }
}

/// The constraints of a step sorted into colors, each color's two-point
/// blocks and single points packed into lane-wide batches. Kept from step
/// to step so its buffers are reused (no allocation in steady state).
#[derive(Clone, Debug, Default)]
pub(crate) struct Graph {
    /// The colors in use this step, in order; `colors[count..]` are
    /// spare (empty, with their capacity kept).
    colors: Vec<Color>,
    /// How many colors are in use.
    count: usize,
    /// The two-point batches of all colors, color by color (one buffer,
    /// so a color with a few blocks holds no spare capacity of its own).
    /// Only the first `pair_count` are in use: the rest are last steps'
    /// batches, kept so that packing refills them in place.
    pairs: Vec<wide::PairBatch>,
    /// How many of `pairs` are in use this step.
    pair_count: usize,
    /// The one-point batches of all colors, color by color; the first
    /// `single_count` are in use.
    singles: Vec<wide::PointBatch>,
    /// How many of `singles` are in use this step.
    single_count: usize,
    /// The hinge batches of all colors, color by color; the first
    /// `hinge_count` are in use.
    hinges: Vec<HingeBatch>,
    /// Per hinge batch in use, its run of the joint array (while
    /// packing).
    hinge_places: Vec<std::ops::Range<u32>>,
    /// How many of `hinges` are in use this step.
    hinge_count: usize,
    /// Constraints solved one at a time after the colors, in constraint
    /// order: all of them when coloring is off.
    overflow: Vec<u32>,
    /// The joints that fit no color (all of them when coloring is off):
    /// the end of the joint array, solved on one thread after the colors.
    joint_overflow: std::ops::Range<usize>,
    /// Per joint key, this step: its color ([`JOINT_OVERFLOW`] for the
    /// overflow).
    joint_colors: Vec<u32>,
    /// Per color, while ordering the joints: where its run starts.
    joint_starts: Vec<u32>,
    /// Per place of the joint array in color order, the joint that goes
    /// there (see [`Graph::joint_order`]).
    joint_order: Vec<u32>,
    /// Per body slot: one past the last color it took while coloring
    /// ([`Coloring::Ordered`]).
    last: Vec<u32>,
    /// The bounded coloring, kept from step to step
    /// ([`Coloring::Bounded`]).
    kept: KeptColors,
    /// Per body, for [`Graph::footprints_are_disjoint`].
    marks: Vec<u32>,
    /// The last color pass of [`Graph::footprints_are_disjoint`].
    pass: u32,
    /// The two-point block constraints of every color, color by
    /// color, each color's run padded with [`NO_CONSTRAINT`] to whole
    /// batches: batch `k` of [`Graph::pairs`] holds entries `W k..W (k+1)`.
    blocks: Vec<u32>,
    /// The one-point constraints, likewise for [`Graph::singles`].
    points: Vec<u32>,
    /// Per constraint, where the solve keeps its impulses: a lane of
    /// [`Graph::blocks`] or [`Graph::points`] (tagged [`IN_PAIRS`] or
    /// [`IN_SINGLES`]), or [`ON_ITS_OWN`].
    lanes: Vec<u32>,
    /// Body states, one per body slot plus a resting one for unused lanes.
    pub(super) states: Vec<StateCell>,
    /// With split impulses, the pseudo-velocities, as the velocities of a
    /// second array of states (their motion unused), one per state; empty
    /// otherwise. Apart from the states, which they would make 40 bytes
    /// (see [`BodyState`](super::types::BodyState)).
    pub(super) pseudo: Vec<StateCell>,
    /// With split impulses, each two-point batch's split impulses (per
    /// point, lane by lane): kept apart from the batches, which the soft
    /// step (the default, which has none) streams every pass. Set up by
    /// [`Graph::reset_pseudo`] for the substeps that push.
    pair_split: Vec<wide::Split<2>>,
    /// Likewise for the one-point batches.
    single_split: Vec<wide::Split<1>>,
    /// Whether the colors' lists (and the joints' order) are a bounded
    /// coloring of the keys the bounded coloring holds: then a step
    /// whose keys are all as they were reuses them.
    reusable: bool,
    /// Whether the last step kept the coloring whole (every key as the
    /// step before colored it): then the next step tries to as well,
    /// building its constraints straight into the batches (see
    /// [`Graph::may_keep`]); after a step that changed it, it does not.
    kept_last: bool,
}

/// Which iteration a pass over the constraints is.
#[derive(Clone, Copy, Debug)]
pub(super) enum Pass<'a> {
    /// A velocity iteration (split impulses, Baumgarte or none), with the
    /// split-impulse iteration riding along when there are `pseudo`.
    Velocity {
        /// The split-impulse iteration's pseudo-velocities (the
        /// velocities of these states), when it runs too.
        pseudo: Option<&'a [StateCell]>,
    },
    /// A soft-step iteration: the biased solve, or the relax pass.
    Soft {
        /// Push overlaps out (the solve) or not (the relax).
        bias: bool,
    },
}

impl Pass<'_> {
    /// Whether the joints correct their drift in this pass: in every
    /// velocity pass, and in the soft step's biased one.
    #[inline]
    fn bias(self) -> bool {
        match self {
            Pass::Velocity { .. } => true,
            Pass::Soft { bias } => bias,
        }
    }
}

impl Graph {
    /// Sorts the constraints into colors by `coloring` (each dynamic body
    /// at most once per color; static and kinematic bodies are never
    /// written by the solve and so never conflict), lists each color's
    /// two-point blocks and single points by lane batch, and orders the
    /// joints by color ([`Graph::joint_order`]: the caller builds the
    /// joint array in that order). `keys` and `joint_keys` are what the
    /// coloring reads of the constraints and joints, in slot order; with
    /// [`Coloring::Bounded`] each one's color is written to its key's
    /// `color`, for the contact or joint to keep. `body_slots` is the
    /// world's body slot count. The caller then fills the batches: from
    /// the constraints ([`Graph::fill`]) or straight from their sources
    /// ([`Graph::refill_with`], bounded coloring only).
    pub(super) fn build(
        &mut self,
        keys: &mut [ColorKey],
        joint_keys: &mut [ColorKey],
        body_slots: usize,
        coloring: Coloring,
    ) {
        self.kept_last =
            coloring == Coloring::Bounded && self.reusable && self.kept.keeps_all(joint_keys, keys);
        if self.kept_last {
            // Every constraint and joint is as it was colored last step
            // (the resting pyramids, the joint grid: nearly every step):
            // the colors' lists and the joints' order stand, and only the
            // batches are filled again.
            self.unpack_hinges();
            return;
        }
        for color in &mut self.colors[..self.count] {
            color.scalar.clear();
        }
        self.pair_count = 0;
        self.single_count = 0;
        self.count = 0;
        self.overflow.clear();
        self.joint_colors.clear();
        if coloring != Coloring::Bounded {
            self.kept.forget();
        }
        match coloring {
            Coloring::Off => {
                self.overflow.extend(0..keys.len() as u32);
                self.joint_colors.resize(joint_keys.len(), JOINT_OVERFLOW);
            }
            Coloring::Ordered => self.color_ordered(joint_keys, keys, body_slots),
            Coloring::Bounded => self.color_bounded(joint_keys, keys, body_slots),
        }
        self.order_joints(joint_keys);
        // (Uncolored, there is nothing to pack, but each constraint
        // still learns that it is solved on its own.)
        self.pack(keys);
        self.reusable = coloring == Coloring::Bounded;
    }

    /// Orders the joints by their color, each color's hinges first (a
    /// counting sort, stable: within those they keep their order), so
    /// each color's joints are one run of the joint array starting with
    /// its hinges (for [`Graph::pack_hinges`]), and the overflow the last:
    /// finds each color's run, and [`Graph::joint_order`].
    fn order_joints(&mut self, joint_keys: &[ColorKey]) {
        let count = self.count;
        // Two runs a color, its hinges (keys of `LaneKind::Single`) and
        // then its other joints; the overflow last, in key order (its
        // joints share bodies, so their order is the solve's).
        let slot = |k: usize, c: u32| {
            if c == JOINT_OVERFLOW {
                2 * count
            } else {
                2 * c as usize + usize::from(joint_keys[k].kind != LaneKind::Single)
            }
        };
        self.joint_starts.clear();
        self.joint_starts.resize(2 * count + 2, 0);
        for (k, &c) in self.joint_colors.iter().enumerate() {
            self.joint_starts[slot(k, c) + 1] += 1;
        }
        for k in 1..self.joint_starts.len() {
            self.joint_starts[k] += self.joint_starts[k - 1];
        }
        let starts = &self.joint_starts;
        for (k, color) in self.colors[..count].iter_mut().enumerate() {
            color.joints = starts[2 * k] as usize..starts[2 * k + 2] as usize;
            color.hinge_joints = (starts[2 * k + 1] - starts[2 * k]) as usize;
        }
        self.unpack_hinges();
        self.joint_overflow = self.joint_starts[2 * count] as usize..self.joint_colors.len();
        self.joint_order.clear();
        self.joint_order.resize(self.joint_colors.len(), 0);
        for (k, &c) in self.joint_colors.iter().enumerate() {
            let at = &mut self.joint_starts[slot(k, c)];
            self.joint_order[*at as usize] = k as u32;
            *at += 1;
        }
    }

    /// Packs each color's hinges, built in the joint array `joints`,
    /// into [`HingeBatch`]es (the last of a color perhaps not full, its
    /// spare lanes on the dummy body state `dummy`), and leaves the
    /// color's other joints to be solved one at a time. Until it is
    /// called, every joint is. The batches are filled independently,
    /// split between the workers when `parallel`.
    pub(super) fn pack_hinges(&mut self, joints: &[JointConstraint], dummy: u32, parallel: bool) {
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
    fn unpack_hinges(&mut self) {
        for color in &mut self.colors[..self.count] {
            color.hinges = 0..0;
        }
        self.hinge_count = 0;
    }

    /// Hands the hinge batches' impulses back to their joints' constraints
    /// (after the substeps).
    pub(super) fn store_hinges(&self, joints: &mut [JointConstraint]) {
        for batch in &self.hinges[..self.hinge_count] {
            batch.store(joints);
        }
    }

    /// Per place of the joint array in color order, the joint (an index
    /// of this step's joint keys) that goes there. The joints are built
    /// straight into their places: sorting built ones moved 4 MB a step
    /// on the joint grid.
    pub(super) fn joint_order(&self) -> &[u32] {
        &self.joint_order
    }

    /// The condition the workers' sharing of the body states rests on (see
    /// [`crate::threads`]): within each color, a body some batch writes is
    /// dynamic, and no other lane of the color's batches touches it. (The
    /// color's scalar constraints run after its batches, on one thread.)
    pub(super) fn footprints_are_disjoint(
        &mut self,
        bodies: &[SolverBody],
        joints: &[JointConstraint],
    ) -> bool {
        // Per body: the color pass that last touched it, times two, plus
        // one if that touch wrote it.
        self.marks.resize(bodies.len() + 1, 0);
        for color in &self.colors[..self.count] {
            self.pass = self.pass.wrapping_add(1);
            let pass = self.pass;
            let lanes = self.pairs[color.pairs.clone()]
                .iter()
                .flat_map(|b| b.footprint())
                .chain(
                    self.singles[color.singles.clone()]
                        .iter()
                        .flat_map(|b| b.footprint()),
                )
                .chain(
                    self.hinges[color.hinges.clone()]
                        .iter()
                        .flat_map(|b| b.footprint()),
                )
                .chain(joints[color.lone_joints()].iter().map(joints::footprint));
            for (a, writes_a, b, writes_b) in lanes {
                for (body, writes) in [(a, writes_a), (b, writes_b)] {
                    let i = body as usize;
                    if writes && !bodies.get(i).is_some_and(|b| b.dynamic) {
                        return false;
                    }
                    let mark = self.marks[i];
                    if mark >> 1 == pass && (writes || mark & 1 == 1) {
                        return false;
                    }
                    self.marks[i] = pass << 1 | u32::from(writes);
                }
            }
        }
        true
    }

    /// Order-preserving coloring ([`Coloring::Ordered`]): a constraint's
    /// color is one more than the last color either of its dynamic
    /// bodies took. Two constraints that share a body keep their order,
    /// and those that share none commute, so sweeping the colors in order
    /// is the sequential sweep in constraint order (load carried up a
    /// stack in one pass), only several constraints at a time.
    fn color_ordered(&mut self, joint_keys: &[ColorKey], keys: &[ColorKey], body_slots: usize) {
        let mut last = std::mem::take(&mut self.last);
        last.clear();
        last.resize(body_slots, 0);
        // The joints first: they go before the contacts in the sweep.
        for j in joint_keys {
            let color = ordered_color(&mut last, j);
            self.open(color);
            self.joint_colors.push(color as u32);
        }
        for (i, c) in keys.iter().enumerate() {
            let color = ordered_color(&mut last, c);
            self.park(color, i as u32);
        }
        self.last = last;
    }

    /// Bounded coloring ([`Coloring::Bounded`]), kept from step to step
    /// (see [`KeptColors::color`]): at most [`GRAPH_COLORS`] colors,
    /// and an overflow solved on one thread after them.
    fn color_bounded(&mut self, joint_keys: &mut [ColorKey], keys: &mut [ColorKey], body_slots: usize) {
        self.kept.color(joint_keys, keys, body_slots);
        for j in joint_keys.iter() {
            let color = j.color as usize;
            if color < GRAPH_COLORS {
                self.open(color);
                self.joint_colors.push(color as u32);
            } else {
                self.joint_colors.push(JOINT_OVERFLOW);
            }
        }
        for (i, c) in keys.iter().enumerate() {
            let color = c.color as usize;
            if color < GRAPH_COLORS {
                self.park(color, i as u32);
            } else {
                self.overflow.push(i as u32);
            }
        }
    }

    /// Puts constraint `i` in color `color` (its blocks and single points
    /// are parked in `scalar` until [`Graph::pack`] moves them to batches).
    #[inline]
    fn park(&mut self, color: usize, i: u32) {
        self.open(color);
        self.colors[color].scalar.push(i);
    }

    /// Makes color `color` one of those in use.
    #[inline]
    fn open(&mut self, color: usize) {
        if self.colors.len() <= color {
            self.colors.resize_with(color + 1, Color::default);
        }
        self.count = self.count.max(color + 1);
    }

    /// Lists each color's two-point blocks and single points by lane
    /// batch (each color's run padded to whole batches), leaving in
    /// `scalar` what cannot go into one, and notes in [`Graph::lanes`]
    /// where each constraint's impulses are kept. Every batch is then
    /// filled from its own [`lanes::W`] entries, independently.
    fn pack(&mut self, keys: &[ColorKey]) {
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
    pub(super) fn fill(&mut self, constraints: &[ContactConstraint], bodies: &[SolverBody], parallel: bool) {
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

    /// Whether this step should try to keep last step's coloring whole:
    /// last step kept the one before, the lists are a bounded coloring
    /// of the keys the coloring holds, and this step's joints
    /// (`joint_keys`) are all as they were colored. Then, if every
    /// contact is too, the step's constraints can be built straight into
    /// the batches ([`Graph::refill_with`]).
    pub(super) fn may_keep(&self, coloring: Coloring, joint_keys: &[ColorKey]) -> bool {
        self.kept_last && coloring == Coloring::Bounded && self.reusable && self.kept.holds_joints(joint_keys)
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
    pub(super) fn refill_with(&mut self, refill: &impl Refill, parallel: bool) -> bool {
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
    pub(super) fn lone_constraints(&self) -> impl Iterator<Item = (u32, &ColorKey)> + '_ {
        let keys = self.kept.contact_keys();
        self.colors[..self.count]
            .iter()
            .flat_map(|color| color.scalar.iter())
            .chain(&self.overflow)
            .map(move |&i| (i, &keys[i as usize]))
    }

    /// Constraint `i`'s key as kept from last step's coloring.
    pub(super) fn kept_key(&self, i: u32) -> &ColorKey {
        &self.kept.contact_keys()[i as usize]
    }

    /// Takes this step as colored last step, every color, list and
    /// order kept, after [`Graph::refill_with`] refilled the batches.
    pub(super) fn keep_coloring(&mut self) {
        self.kept.keep();
        self.kept_last = true;
        self.unpack_hinges();
    }

    /// Makes the next step color its constraints the usual way, as if
    /// this one had changed the coloring (for the tests).
    #[cfg(test)]
    pub(super) fn forget_kept_coloring(&mut self) {
        self.kept_last = false;
    }

    /// Whether the last step kept its coloring whole (for the tests).
    #[cfg(test)]
    pub(super) fn kept_last(&self) -> bool {
        self.kept_last
    }

    /// Whether a team should share the substeps: whether the colors it
    /// would share (see [`Color::team`]) hold at least
    /// [`MIN_SHARED_PART`] of the work, the overflow's constraints and
    /// joints counting one each. If not, every color is solved, and
    /// every body integrated, by one thread.
    pub(super) fn shares_the_colors(&self, ctx: &StepContext) -> bool {
        let overflow = self.overflow.len() + self.joint_overflow.len();
        let (shared, alone) = self.colors[..self.count]
            .iter()
            .fold((0, overflow), |(shared, alone), c| {
                if c.shared(ctx) {
                    (shared + c.work(), alone)
                } else {
                    (shared, alone + c.work())
                }
            });
        let (part, whole) = MIN_SHARED_PART;
        shared > 0 && shared * whole >= (shared + alone) * part
    }

    /// The constraints whose color this step's coloring changed (the
    /// others kept their contact's): the contacts to tell.
    pub(super) fn recolored(&self) -> &[u32] {
        self.kept.recolored()
    }

    /// Whether the bounded coloring's state stands for the colors the
    /// contacts and joints remember (see [`KeptColors::prime`]).
    pub(super) fn colors_primed(&self) -> bool {
        self.kept.is_primed()
    }

    /// Rebuilds the bounded coloring's state from the colors the
    /// contacts and joints remember (see [`KeptColors::prime`]).
    pub(super) fn prime_colors(
        &mut self,
        joints: impl Iterator<Item = ColorKey>,
        contacts: impl Iterator<Item = ColorKey>,
        body_slots: usize,
    ) {
        self.kept.prime(joints, contacts, body_slots);
        // (The lists stand for no coloring of these keys yet.)
        self.reusable = false;
        self.kept_last = false;
    }

    /// The joint keys whose color this step's coloring changed.
    pub(super) fn recolored_joints(&self) -> &[u32] {
        self.kept.recolored_joints()
    }

    /// The contacts that left the bounded coloring this step (slots):
    /// they forget their colors.
    pub(super) fn left_contacts(&self) -> &[u32] {
        self.kept.left_contacts()
    }

    /// The joints that left the bounded coloring this step (slots).
    pub(super) fn left_joints(&self) -> &[u32] {
        self.kept.left_joints()
    }

    /// Heap bytes held by the coloring's reused buffers (capacities).
    pub(crate) fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        let colors: usize = self
            .colors
            .iter()
            .map(|c| c.scalar.capacity() * size_of::<u32>())
            .sum();
        colors
            + self.colors.capacity() * size_of::<Color>()
            + self.pairs.capacity() * size_of::<wide::PairBatch>()
            + self.singles.capacity() * size_of::<wide::PointBatch>()
            + self.hinges.capacity() * size_of::<HingeBatch>()
            + self.hinge_places.capacity() * size_of::<std::ops::Range<u32>>()
            + (self.overflow.capacity()
                + self.last.capacity()
                + self.blocks.capacity()
                + self.points.capacity()
                + self.lanes.capacity())
                * size_of::<u32>()
            + (self.joint_colors.capacity() + self.joint_starts.capacity() + self.joint_order.capacity())
                * size_of::<u32>()
            + self.kept.memory_bytes()
            + (self.states.capacity() + self.pseudo.capacity()) * size_of::<StateCell>()
            + self.pair_split.capacity() * size_of::<wide::Split<2>>()
            + self.single_split.capacity() * size_of::<wide::Split<1>>()
    }

    /// Recomputes the cached separations of the constraints solved one at
    /// a time (once per substep: the bodies only move between substeps;
    /// the batches compute theirs in each pass) and returns the smallest
    /// separation of all.
    pub(super) fn update_separations(
        &mut self,
        constraints: &mut [ContactConstraint],
        states: &[StateCell],
        team: Option<&Team>,
    ) -> f32 {
        let smallest = AtomicMin::new();
        smallest.fold(self.update_scalar_separations(constraints, states));
        let (pairs, singles) = (
            &mut self.pairs[..self.pair_count],
            &mut self.singles[..self.single_count],
        );
        let update_pairs = |_, run: &mut [wide::PairBatch]| {
            smallest.fold(
                run.iter()
                    .map(|b| b.smallest_separation(states))
                    .fold(f32::INFINITY, f32::min),
            );
        };
        let update_singles = |_, run: &mut [wide::PointBatch]| {
            smallest.fold(
                run.iter()
                    .map(|b| b.smallest_separation(states))
                    .fold(f32::INFINITY, f32::min),
            );
        };
        for_each4(
            team,
            (batch_blocks(team, pairs), &update_pairs),
            (batch_blocks(team, singles), &update_singles),
            (Blocks::<()>::new(&mut [], 1), &|_, _| {}),
            (Blocks::<()>::new(&mut [], 1), &|_, _| {}),
        );
        smallest.get()
    }

    /// Recomputes the cached separations of the constraints solved one at
    /// a time (the soft step's lane kernels compute theirs as they go) and
    /// returns the smallest.
    pub(super) fn update_scalar_separations(
        &mut self,
        constraints: &mut [ContactConstraint],
        states: &[StateCell],
    ) -> f32 {
        let mut smallest = f32::INFINITY;
        let mut update = |c: &mut ContactConstraint| {
            let (ba, bb) = (&states[c.a as usize].load(), &states[c.b as usize].load());
            let n = c.normal;
            for cp in c.points[..c.count].iter_mut() {
                cp.separation = current_separation(cp, n, ba, bb);
                smallest = smallest.min(cp.separation);
            }
        };
        for color in &mut self.colors[..self.count] {
            for &i in &color.scalar {
                update(&mut constraints[i as usize]);
            }
        }
        for &i in &self.overflow {
            update(&mut constraints[i as usize]);
        }
        smallest
    }

    /// Applies the accumulated impulses at the start of a substep.
    pub(super) fn warm_start(
        &mut self,
        (constraints, joints): (&[ContactConstraint], &mut [JointConstraint]),
        (states, team): (&[StateCell], Option<&Team>),
        ctx: &StepContext,
    ) {
        for color in &self.colors[..self.count] {
            let team = color.team(team, ctx);
            let (pairs, singles, hinges, joints) = color.runs(
                team,
                (
                    &mut self.pairs[color.pairs.clone()],
                    &mut self.singles[color.singles.clone()],
                    &mut self.hinges[color.hinges.clone()],
                    &mut joints[color.lone_joints()],
                ),
            );
            for_each4(
                team,
                (pairs, &|_, run| run.iter().for_each(|b| b.warm_start(states))),
                (singles, &|_, run| run.iter().for_each(|b| b.warm_start(states))),
                (hinges, &|_, run| run.iter().for_each(|b| b.warm_start(states))),
                (joints, &|_, run| {
                    run.iter().for_each(|j| joints::warm_start(j, states))
                }),
            );
            for &i in &color.scalar {
                warm_start_constraint(&constraints[i as usize], states);
            }
        }
        for &i in &self.overflow {
            warm_start_constraint(&constraints[i as usize], states);
        }
        for j in &joints[self.joint_overflow.clone()] {
            joints::warm_start(j, states);
        }
    }

    /// One iteration over every constraint: the colors in order (reversed
    /// when `reverse`, and the overflow then first), each color's batches
    /// lane-wide beside its joints, and its other constraints one at a
    /// time. In a velocity pass with `pseudo`, each contact also takes its
    /// split-impulse iteration right after its velocity one: the two never
    /// read each other's state, so this is exactly a velocity sweep
    /// followed by a split-impulse sweep, with one walk over the
    /// constraints and bodies instead of two. A soft-step pass runs the
    /// soft kernels. Joints have no split-impulse pass: in a velocity pass
    /// their drift is corrected softly, as in the soft step's biased pass.
    pub(super) fn iterate(
        &mut self,
        (constraints, joints): (&mut [ContactConstraint], &mut [JointConstraint]),
        (states, team): (&[StateCell], Option<&Team>),
        ctx: &StepContext,
        reverse: bool,
        pass: Pass<'_>,
    ) {
        let colors = &self.colors[..self.count];
        let (pairs, singles) = (&mut self.pairs, &mut self.singles);
        let overflow = (&self.overflow[..], self.joint_overflow.clone());
        if reverse {
            solve_overflow(
                (constraints, joints),
                overflow.clone(),
                states,
                ctx,
                reverse,
                pass,
            );
        }
        let order: &mut dyn Iterator<Item = &Color> = if reverse {
            &mut colors.iter().rev()
        } else {
            &mut colors.iter()
        };
        let hinges = &mut self.hinges;
        let split = (&self.pair_split[..], &self.single_split[..]);
        for c in order {
            let joints = &mut joints[c.lone_joints()];
            solve_color(
                c,
                (pairs, singles, hinges),
                split,
                (constraints, joints),
                (states, team),
                ctx,
                reverse,
                pass,
            );
        }
        if !reverse {
            solve_overflow((constraints, joints), overflow, states, ctx, reverse, pass);
        }
    }

    /// Pseudo-velocities start from rest every substep: so do their
    /// impulses. (The batches hold their own: only the constraints solved
    /// one at a time need theirs zeroed.)
    pub(super) fn reset_pseudo(&mut self, constraints: &mut [ContactConstraint]) {
        self.for_each_scalar(constraints, |c| {
            c.points[0].pseudo_impulse = 0.0;
            c.points[1].pseudo_impulse = 0.0;
        });
        let zero = Fw::default();
        self.pair_split.clear();
        self.pair_split
            .resize_with(self.pair_count, || SharedCell::new([zero; 2]));
        self.single_split.clear();
        self.single_split
            .resize_with(self.single_count, || SharedCell::new([zero; 1]));
    }

    /// Writes the impulses, times `scale` (per substep to per step), into
    /// the contacts' manifolds: the batches' straight from their lanes,
    /// the other constraints' from the constraints. `slots` are the
    /// constraints' contacts, ascending (as the constraints were built):
    /// each constraint writes its own contact, split between the workers
    /// when `parallel`.
    pub(super) fn store(
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
    pub(super) fn add_normal_impulses(
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

    /// Calls `f` on each constraint solved one at a time (not in a batch).
    #[inline]
    fn for_each_scalar(
        &self,
        constraints: &mut [ContactConstraint],
        mut f: impl FnMut(&mut ContactConstraint),
    ) {
        for color in &self.colors[..self.count] {
            for &i in &color.scalar {
                f(&mut constraints[i as usize]);
            }
        }
        for &i in &self.overflow {
            f(&mut constraints[i as usize]);
        }
    }
}

/// The order-preserving color of the constraint between `key`'s
/// bodies: one more than the last color either dynamic one took
/// (`last`, per body slot), which both then take.
#[inline]
fn ordered_color(last: &mut [u32], key: &ColorKey) -> usize {
    let held = [key.a, key.b].map(|body| (body != NOT_HELD).then_some(body as usize));
    let color = held.iter().flatten().map(|&i| last[i]).max().unwrap_or(0);
    for i in held.into_iter().flatten() {
        last[i] = color + 1;
    }
    color as usize
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

/// A joint's entry in [`Graph::joint_colors`] when it fits no color.
const JOINT_OVERFLOW: u32 = u32::MAX;

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
pub(super) trait Refill: Sync {
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

/// One iteration of one constraint, scalar: the velocity one, then the
/// split-impulse one when the pass asks; or the soft step's.
#[inline(always)]
fn solve_one(
    c: &mut ContactConstraint,
    states: &[StateCell],
    ctx: &StepContext,
    reverse: bool,
    pass: Pass<'_>,
) {
    match pass {
        Pass::Velocity { pseudo } => {
            solve_constraint(c, states, ctx, reverse);
            if let Some(pseudo) = pseudo {
                solve_pseudo_constraint(c, pseudo, ctx, reverse);
            }
        }
        Pass::Soft { bias } => solve_soft_constraint(c, states, ctx, reverse, bias),
    }
}

/// One iteration of the overflow, on this thread: its contacts, then its
/// joints (the other way round when `reverse`).
#[inline(always)]
fn solve_overflow(
    (constraints, joints): (&mut [ContactConstraint], &mut [JointConstraint]),
    (contacts, joint_range): (&[u32], std::ops::Range<usize>),
    states: &[StateCell],
    ctx: &StepContext,
    reverse: bool,
    pass: Pass<'_>,
) {
    let joints = &mut joints[joint_range];
    if reverse {
        for j in joints.iter_mut().rev() {
            joints::solve(j, states, ctx, pass.bias());
        }
        for &i in contacts.iter().rev() {
            solve_one(&mut constraints[i as usize], states, ctx, reverse, pass);
        }
    } else {
        for &i in contacts {
            solve_one(&mut constraints[i as usize], states, ctx, reverse, pass);
        }
        for j in joints {
            joints::solve(j, states, ctx, pass.bias());
        }
    }
}

/// One iteration of one color: its two-point batches, its one-point
/// batches, its hinge batches (the batches' ranges index `pairs`,
/// `singles` and `hinges`) and its other joints, split between the team's
/// threads, then its scalar constraints.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn solve_color(
    color: &Color,
    (pairs, singles, hinges): (&mut [wide::PairBatch], &mut [wide::PointBatch], &mut [HingeBatch]),
    (pair_split, single_split): (&[wide::Split<2>], &[wide::Split<1>]),
    (constraints, joints): (&mut [ContactConstraint], &mut [JointConstraint]),
    (states, team): (&[StateCell], Option<&Team>),
    ctx: &StepContext,
    reverse: bool,
    pass: Pass<'_>,
) {
    let team = color.team(team, ctx);
    let (pairs, singles, hinges, joints) = color.runs(
        team,
        (
            &mut pairs[color.pairs.clone()],
            &mut singles[color.singles.clone()],
            &mut hinges[color.hinges.clone()],
            joints,
        ),
    );
    let bias = pass.bias();
    let solve_hinges = |_, run: &mut [HingeBatch]| run.iter_mut().for_each(|b| b.solve(states, ctx, bias));
    let hinges = (
        hinges,
        &solve_hinges as &(dyn Fn(usize, &mut [HingeBatch]) + Sync),
    );
    let solve_joints = |_, run: &mut [JointConstraint]| {
        for j in run {
            joints::solve(j, states, ctx, bias);
        }
    };
    let joints = (
        joints,
        &solve_joints as &(dyn Fn(usize, &mut [JointConstraint]) + Sync),
    );
    // The choice of kernel is made once for the color.
    match pass {
        Pass::Velocity { pseudo: Some(pseudo) } => {
            // Each batch's split impulses, where its run starts.
            let (pair_split, single_split) = (
                &pair_split[color.pairs.clone()],
                &single_split[color.singles.clone()],
            );
            for_each4(
                team,
                (pairs, &|start, run| {
                    for (b, split) in run.iter_mut().zip(&pair_split[start..]) {
                        b.solve_velocity_and_pseudo((states, pseudo), split, ctx, reverse);
                    }
                }),
                (singles, &|start, run| {
                    for (b, split) in run.iter_mut().zip(&single_split[start..]) {
                        b.solve_velocity_and_pseudo((states, pseudo), split, ctx, reverse);
                    }
                }),
                hinges,
                joints,
            )
        }
        Pass::Velocity { pseudo: None } => for_each4(
            team,
            (pairs, &|_, run| {
                run.iter_mut()
                    .for_each(|b| b.solve_velocity(states, ctx, reverse))
            }),
            (singles, &|_, run| {
                run.iter_mut()
                    .for_each(|b| b.solve_velocity(states, ctx, reverse))
            }),
            hinges,
            joints,
        ),
        Pass::Soft { bias } => for_each4(
            team,
            (pairs, &|_, run| {
                run.iter_mut()
                    .for_each(|b| b.solve_soft(states, ctx, reverse, bias))
            }),
            (singles, &|_, run| {
                run.iter_mut()
                    .for_each(|b| b.solve_soft(states, ctx, reverse, bias))
            }),
            hinges,
            joints,
        ),
    }
    // After the stage, on this thread alone: the scalar kernels write both
    // bodies, static ones included, so they must never run beside the
    // batches.
    for &i in &color.scalar {
        solve_one(&mut constraints[i as usize], states, ctx, reverse, pass);
    }
}

/// The least part of a step's solver work, as (numerator,
/// denominator), that the colors big enough to share must hold for a
/// team to share the substeps. Each color solved by one thread reads
/// the bodies the shared color before it left in the other threads'
/// caches, and the team's integration of the bodies scatters them every
/// substep: when those colors weigh much, the substeps run slower on two
/// threads than on one (the smash, whose colors shrink below
/// `min_shared_color` one by one as its grid flies apart, shows it with
/// `tumble-bench --scaling`). Scenes whose colors are all big or all
/// small (the pyramids, the joint scenes, the pile) are not affected.
const MIN_SHARED_PART: (usize, usize) = (3, 4);

/// What a two-point batch costs to solve, in one-point batches (about
/// twice: it solves two points and their 2x2 block).
const PAIR_WORK: usize = 2;

/// What a hinge batch costs to solve, in one-point batches (about twice,
/// as a two-point batch: the 2x2 block of its point).
const HINGE_WORK: usize = 2;

/// What a joint costs to solve, in one-point batches (about the same: 13
/// ns a pass on the joint grid's hinges).
const JOINT_WORK: usize = 1;

/// The fewest lane batches a thread takes at a time: fewer cost more to
/// hand over than to solve.
const MIN_BATCHES: usize = 4;

/// The fewest joints a thread takes at a time.
const MIN_JOINTS: usize = 16;

/// `batches` in runs for the team's threads.
#[inline]
fn batch_blocks<'a, T: Send>(team: Option<&Team>, batches: &'a mut [T]) -> Blocks<'a, T> {
    let block = block_size(team, batches.len(), MIN_BATCHES);
    Blocks::new(batches, block)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::NO_COLOR;
    use crate::joint::{JointKind, RevoluteJoint};
    use crate::settings::DYNAMIC_GRAPH_COLORS;
    use crate::test_rng::Rng;

    /// `count` bodies, one in four static, the last one the shared static
    /// body; and `pairs` random constraints between them, each with a
    /// dynamic body, one or two points (two-point ones as blocks).
    fn random_graph(rng: &mut Rng, count: usize, pairs: usize) -> (Vec<SolverBody>, Vec<ContactConstraint>) {
        let mut bodies: Vec<SolverBody> = (0..count)
            .map(|_| SolverBody {
                dynamic: rng.range(0.0, 1.0) > 0.25,
                ..SolverBody::default()
            })
            .collect();
        bodies.push(SolverBody::default());
        let mut constraints = Vec::new();
        while constraints.len() < pairs {
            let a = rng.range(0.0, count as f32 + 1.0) as u32;
            let b = rng.range(0.0, count as f32) as u32;
            if a == b || !(bodies[a as usize].dynamic || bodies[b as usize].dynamic) {
                continue;
            }
            let count = if rng.range(0.0, 1.0) < 0.7 { 2 } else { 1 };
            constraints.push(ContactConstraint {
                a,
                b,
                count,
                block: count == 2,
                k: [1.0, 0.0, 1.0],
                inv_k: [1.0, 0.0, 1.0],
                ..ContactConstraint::default()
            });
        }
        (bodies, constraints)
    }

    /// `count` random joints between the bodies of `bodies` (two apart),
    /// with the masses the bodies' kinds give: about half of them hinges,
    /// each with some impulses to warm start from.
    fn random_joints(rng: &mut Rng, bodies: &[SolverBody], count: usize) -> Vec<JointConstraint> {
        let n = bodies.len() as u32;
        let mass = |i: u32| if bodies[i as usize].dynamic { 1.0 } else { 0.0 };
        (0..count as u32)
            .map(|k| {
                let a = (rng.range(0.0, n as f32) as u32).min(n - 1);
                let b = (a + 1 + (rng.range(0.0, (n - 1) as f32) as u32).min(n - 2)) % n;
                let mut joint = JointConstraint {
                    joint: k,
                    a,
                    b,
                    masses: [mass(a), mass(a), mass(b), mass(b)],
                    ..JointConstraint::EMPTY
                };
                if rng.range(0.0, 1.0) < 0.5 {
                    joint.kind = JointKind::Revolute(RevoluteJoint::default());
                }
                joint.impulses.linear = rng.vec(1.0);
                joint.impulses.lower = rng.range(0.0, 1.0);
                joint
            })
            .collect()
    }

    /// Whether a joint is a hinge (a revolute joint).
    fn is_hinge(j: &JointConstraint) -> bool {
        matches!(j.kind, JointKind::Revolute(_))
    }

    /// Each color's constraints (batched or not), and the overflow.
    fn members(graph: &Graph) -> (Vec<Vec<u32>>, Vec<u32>) {
        let colors = graph.colors[..graph.count]
            .iter()
            .map(|c| {
                let mut m: Vec<u32> = c.scalar.clone();
                for batch in &graph.pairs[c.pairs.clone()] {
                    m.extend_from_slice(batch.constraints());
                }
                for batch in &graph.singles[c.singles.clone()] {
                    m.extend_from_slice(batch.constraints());
                }
                m.sort_unstable();
                m
            })
            .collect();
        (colors, graph.overflow.clone())
    }

    /// A body's entry in a coloring key (the tests' solver bodies are
    /// their own slots).
    fn held(bodies: &[SolverBody], i: u32) -> u32 {
        if bodies[i as usize].dynamic {
            i
        } else {
            NOT_HELD
        }
    }

    /// The coloring keys of `constraints` (constraint `i` of contact
    /// slot `i`) of contacts not yet colored, as the prepare makes them.
    fn keys(constraints: &[ContactConstraint], bodies: &[SolverBody]) -> Vec<ColorKey> {
        (0..)
            .zip(constraints)
            .map(|(i, c)| ColorKey::of(c, i, NO_COLOR, (held(bodies, c.a), held(bodies, c.b)), true))
            .collect()
    }

    /// The coloring keys of `joints` (in slot order), not yet colored,
    /// a hinge's marked as `pick_joints` marks it.
    fn joint_keys(joints: &[JointConstraint], bodies: &[SolverBody]) -> Vec<ColorKey> {
        joints
            .iter()
            .map(|j| ColorKey {
                item: j.joint,
                a: held(bodies, j.a),
                b: held(bodies, j.b),
                color: NO_COLOR,
                kind: if is_hinge(j) {
                    LaneKind::Single
                } else {
                    LaneKind::Alone
                },
            })
            .collect()
    }

    /// [`Graph::build`] on one thread, then the joints put in color
    /// order (from slot order, as the solver builds them); `keys` and
    /// `joint_keys` keep their colors for the next call, as the contacts
    /// and joints do from step to step.
    fn build(
        graph: &mut Graph,
        (constraints, keys): (&[ContactConstraint], &mut [ColorKey]),
        (joints, joint_keys): (&mut Vec<JointConstraint>, &mut [ColorKey]),
        bodies: &[SolverBody],
        coloring: Coloring,
    ) {
        joints.sort_by_key(|j| j.joint);
        if !graph.colors_primed() {
            graph.prime_colors(std::iter::empty(), std::iter::empty(), bodies.len());
        }
        graph.build(keys, joint_keys, bodies.len(), coloring);
        graph.fill(constraints, bodies, false);
        *joints = graph.joint_order().iter().map(|&k| joints[k as usize]).collect();
    }

    /// The keys of a random graph's constraints, its joints and their keys.
    type Colored = (Vec<ColorKey>, Vec<JointConstraint>, Vec<ColorKey>);

    /// A random graph of `bodies` bodies, `pairs` constraints and `joints`
    /// joints (see [`random_graph`], [`random_joints`]), colored once by
    /// `coloring`.
    fn random_colored(
        rng: &mut Rng,
        (bodies, pairs, joints): (usize, usize, usize),
        coloring: Coloring,
    ) -> (Graph, Vec<SolverBody>, Vec<ContactConstraint>, Colored) {
        let (bodies, constraints) = random_graph(rng, bodies, pairs);
        let mut keys = keys(&constraints, &bodies);
        let mut joints = random_joints(rng, &bodies, joints);
        let mut joint_keys = joint_keys(&joints, &bodies);
        let mut graph = Graph::default();
        build(
            &mut graph,
            (&constraints, &mut keys),
            (&mut joints, &mut joint_keys),
            &bodies,
            coloring,
        );
        (graph, bodies, constraints, (keys, joints, joint_keys))
    }

    /// The substeps are shared exactly when the colors at or above the
    /// threshold hold three quarters of the work (the overflow's
    /// constraints and joints one each): every color shared at 0, none
    /// above the largest, and both answers met between.
    #[test]
    fn the_substeps_are_shared_only_when_the_shared_colors_hold_most_of_the_work() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut ctx = StepContext::for_tests();
        let (mut shared_seen, mut alone_seen) = (false, false);
        for _ in 0..20 {
            let (graph, ..) = random_colored(&mut rng, (120, 400, 40), Coloring::Bounded);
            let works: Vec<usize> = graph.colors[..graph.count].iter().map(Color::work).collect();
            let extra = graph.overflow.len() + graph.joint_overflow.len();
            let largest = *works.iter().max().expect("a colored graph");
            for threshold in works.iter().copied().chain([0, largest + 1]) {
                ctx.settings.min_shared_color = threshold as u32;
                let shared: usize = works.iter().filter(|&&w| w >= threshold).sum();
                let all = works.iter().sum::<usize>() + extra;
                let expected = shared > 0 && 4 * shared >= 3 * all;
                assert_eq!(
                    graph.shares_the_colors(&ctx),
                    expected,
                    "threshold {threshold}, works {works:?}"
                );
                if threshold == 0 {
                    assert!(expected, "at 0 every color is shared");
                }
                if threshold > largest {
                    assert!(!expected, "no color is that big");
                }
                shared_seen |= expected;
                alone_seen |= !expected && shared > 0;
            }
        }
        assert!(shared_seen && alone_seen, "both answers with some color shared");
    }

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

    /// What a coloring built: the colors, their lists and batches, the
    /// joints' order, and the bounded coloring's held state.
    fn built(graph: &Graph) -> String {
        format!(
            "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
            &graph.colors[..graph.count],
            &graph.pairs[..graph.pair_count],
            &graph.singles[..graph.single_count],
            &graph.hinges[..graph.hinge_count],
            graph.overflow,
            graph.joint_overflow,
            graph.joint_colors,
            graph.joint_order,
            graph.blocks,
            graph.points,
            graph.lanes,
            graph.kept.left_contacts(),
            graph.kept.left_joints(),
        )
    }

    #[test]
    fn a_step_with_every_key_as_it_was_colored_reuses_the_lists_and_refills_the_batches() {
        let mut rng = Rng(0x3c6e_f372_fe94_f82b);
        let (mut reused, mut overflowed) = (0, 0);
        for round in 0..40 {
            let bounded = Coloring::Bounded;
            // Crowded graphs now and then, so some colorings overflow.
            let size = if round % 4 == 0 {
                (12, 150, 20)
            } else {
                (40, 120, 30)
            };
            let (mut graph, bodies, mut constraints, (mut keys, mut joints, mut joint_keys)) =
                random_colored(&mut rng, size, bounded);
            // The next step: the same contacts and joints with new numbers
            // (the batches must carry this step's).
            for c in &mut constraints {
                c.friction = rng.range(0.0, 1.0);
                c.points[0].normal_impulse = rng.range(0.0, 2.0);
            }
            for j in &mut joints {
                j.impulses.linear = rng.vec(1.0);
            }
            // The step as the full coloring does it, and as reused.
            let mut full = graph.clone();
            full.reusable = false;
            let (mut full_keys, mut full_joints, mut full_joint_keys) =
                (keys.clone(), joints.clone(), joint_keys.clone());
            build(
                &mut full,
                (&constraints, &mut full_keys),
                (&mut full_joints, &mut full_joint_keys),
                &bodies,
                bounded,
            );
            assert!(graph.reusable);
            reused += usize::from(graph.kept.keeps_all(&joint_keys, &keys));
            // (`keeps_all` changed nothing the build reads.)
            build(
                &mut graph,
                (&constraints, &mut keys),
                (&mut joints, &mut joint_keys),
                &bodies,
                bounded,
            );
            let dummy = bodies.len() as u32;
            graph.pack_hinges(&joints, dummy, false);
            full.pack_hinges(&full_joints, dummy, false);
            assert_eq!((&keys, &joint_keys), (&full_keys, &full_joint_keys));
            assert_eq!(built(&graph), built(&full));
            // Nothing took a new color: the full coloring only tried the
            // overflow's members again, in vain.
            assert!(graph.recolored().is_empty() && graph.recolored_joints().is_empty());
            assert!(full
                .recolored()
                .iter()
                .all(|&k| keys[k as usize].color as usize >= GRAPH_COLORS));
            assert!(full
                .recolored_joints()
                .iter()
                .all(|&k| joint_keys[k as usize].color as usize >= GRAPH_COLORS));
            for (j, f) in joints.iter().zip(&full_joints) {
                assert_eq!(format!("{j:?}"), format!("{f:?}"));
            }
            overflowed += usize::from(!graph.overflow.is_empty());
        }
        assert_eq!(reused, 40);
        assert!(overflowed > 0, "no coloring overflowed");
    }

    #[test]
    fn bounded_colors_hold_each_dynamic_body_once_and_keep_their_colors() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..50 {
            let bounded = Coloring::Bounded;
            let (mut graph, bodies, constraints, (mut keys, mut joints, mut joint_keys)) =
                random_colored(&mut rng, (40, 120, 30), bounded);
            assert!(graph.footprints_are_disjoint(&bodies, &joints));
            // The joints were sorted by color, none lost.
            let mut ids: Vec<u32> = joints.iter().map(|j| j.joint).collect();
            ids.sort_unstable();
            assert_eq!(ids, (0..30).collect::<Vec<u32>>());
            let colored: usize = graph.colors[..graph.count].iter().map(|c| c.joints.len()).sum();
            assert_eq!(colored + graph.joint_overflow.len(), joints.len());
            let (colors, overflow) = members(&graph);
            assert!(colors.len() <= GRAPH_COLORS);
            let mut seen = vec![false; constraints.len()];
            for (k, color) in colors.iter().enumerate() {
                let mut used = vec![false; bodies.len()];
                for &i in color {
                    let c = &constraints[i as usize];
                    assert!(!seen[i as usize], "constraint {i} twice");
                    seen[i as usize] = true;
                    assert_eq!(keys[i as usize].color as usize, k);
                    let both = bodies[c.a as usize].dynamic && bodies[c.b as usize].dynamic;
                    if both {
                        assert!(k < DYNAMIC_GRAPH_COLORS, "a moving pair in color {k}");
                    } else {
                        assert!(k >= 1, "a contact with a static body in color 0");
                    }
                    for body in [c.a, c.b] {
                        if bodies[body as usize].dynamic {
                            assert!(!used[body as usize], "body {body} twice in color {k}");
                            used[body as usize] = true;
                        }
                    }
                }
            }
            for &i in &overflow {
                assert!(!seen[i as usize]);
                seen[i as usize] = true;
                assert_eq!(keys[i as usize].color as usize, GRAPH_COLORS);
            }
            assert!(
                seen.iter().all(|&s| s),
                "every constraint is colored or overflows"
            );
            // The next step, from the kept colors: the same colors,
            // and nothing recolored.
            let before = (colors, overflow);
            build(
                &mut graph,
                (&constraints, &mut keys),
                (&mut joints, &mut joint_keys),
                &bodies,
                bounded,
            );
            assert_eq!(members(&graph), before);
            let overflowed = keys.iter().filter(|k| k.color as usize == GRAPH_COLORS).count();
            assert_eq!(graph.recolored().len(), overflowed);
        }
    }

    #[test]
    fn a_body_touching_more_than_the_colors_overflows() {
        // Body 0 touches 30 others: at most one of its contacts per color.
        let mut bodies = vec![
            SolverBody {
                dynamic: true,
                ..SolverBody::default()
            };
            31
        ];
        bodies.push(SolverBody::default());
        let constraints: Vec<ContactConstraint> = (1..31)
            .map(|b| ContactConstraint {
                a: 0,
                b,
                count: 1,
                ..ContactConstraint::default()
            })
            .collect();
        let mut keys = keys(&constraints, &bodies);
        let mut graph = Graph::default();
        let no_joints = (&mut Vec::new(), &mut [][..]);
        let bounded = Coloring::Bounded;
        build(&mut graph, (&constraints, &mut keys), no_joints, &bodies, bounded);
        let (colors, overflow) = members(&graph);
        assert_eq!(
            colors.iter().filter(|c| !c.is_empty()).count(),
            DYNAMIC_GRAPH_COLORS
        );
        assert_eq!(overflow.len(), 30 - DYNAMIC_GRAPH_COLORS);
        // The colors ten contacts leave are taken by the overflow: with
        // the first ten gone, all fit, and the others kept theirs.
        let before = keys.clone();
        let no_joints = (&mut Vec::new(), &mut [][..]);
        build(
            &mut graph,
            (&constraints[10..], &mut keys[10..]),
            no_joints,
            &bodies,
            bounded,
        );
        assert!(members(&graph).1.is_empty());
        for (k, was) in keys.iter().zip(&before).skip(10) {
            if (was.color as usize) < GRAPH_COLORS {
                assert_eq!(k.color, was.color, "a kept contact was recolored");
            }
        }
    }

    #[test]
    fn the_footprint_check_passes_both_colorings_and_catches_a_shared_body() {
        let mut rng = Rng(0x5851_f42d_4c95_7f2d);
        for coloring in [Coloring::Bounded, Coloring::Ordered] {
            for _ in 0..20 {
                let (mut graph, bodies, _, (_, joints, _)) =
                    random_colored(&mut rng, (60, 200, 50), coloring);
                assert!(graph.footprints_are_disjoint(&bodies, &joints), "{coloring:?}");
            }
        }
        // Two constraints on dynamic body 0 forced into one color.
        let dynamic = SolverBody {
            dynamic: true,
            ..SolverBody::default()
        };
        let bodies = vec![dynamic, dynamic, dynamic, SolverBody::default()];
        let constraints: Vec<ContactConstraint> = [(0, 1), (0, 2)]
            .into_iter()
            .map(|(a, b)| ContactConstraint {
                a,
                b,
                count: 1,
                ..ContactConstraint::default()
            })
            .collect();
        let mut graph = Graph::default();
        graph.park(0, 0);
        graph.park(0, 1);
        graph.pack(&keys(&constraints, &bodies));
        graph.fill(&constraints, &bodies, false);
        assert!(!graph.footprints_are_disjoint(&bodies, &[]));
        // A joint on body 0 beside a contact on it, forced into one color.
        let mut graph = Graph::default();
        graph.park(0, 0);
        graph.pack(&keys(&constraints[..1], &bodies));
        graph.fill(&constraints[..1], &bodies, false);
        graph.colors[0].joints = 0..1;
        let joint = JointConstraint {
            a: 0,
            b: 2,
            masses: [1.0; 4],
            ..JointConstraint::EMPTY
        };
        assert!(!graph.footprints_are_disjoint(&bodies, &[joint]));
        // Bodies 2 and 3 (static): clear of the contact's 0 and 1.
        let elsewhere = JointConstraint {
            a: 2,
            b: 3,
            masses: [1.0, 1.0, 0.0, 0.0],
            ..joint
        };
        assert!(graph.footprints_are_disjoint(&bodies, &[elsewhere]));
    }
}
