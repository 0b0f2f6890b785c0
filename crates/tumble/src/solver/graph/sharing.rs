//! Work sharing: how much work each color is (in one-point batches),
//! whether the workers share a color and in what runs, whether they share
//! the substeps at all, and the check that the sharing is safe (no body
//! one lane writes is touched by another lane of its color).

use super::{with_batches, Batches, Color, Graph};
use crate::body::SolverBody;
use crate::joint::{self, JointConstraint};
use crate::solver::joints::hinges::HingeBatch;
use crate::solver::lanes::Lanes;
use crate::solver::wide;
use crate::step_context::StepContext;
use crate::threads::{block_size, Blocks, Team};

impl Color {
    /// The color's work, in one-point batches of four lanes (see
    /// [`PAIR_WORK`]), its batches being `lanes` wide.
    #[inline]
    fn work(&self, lanes: usize) -> usize {
        batch_work(lanes)
            * (PAIR_WORK * self.pairs.len() + self.singles.len() + HINGE_WORK * self.hinges.len())
            + JOINT_WORK * self.lone_joints().len()
    }

    /// Whether a team shares the color (of batches `lanes` wide): its
    /// work is at least the settings' `min_shared_color`.
    #[inline]
    fn shared(&self, ctx: &StepContext, lanes: usize) -> bool {
        self.work(lanes) >= ctx.settings.min_shared_color as usize
    }

    /// The team to share the color's batches and joints with: none (its
    /// driver alone) when the color's work is under the settings'
    /// [`min_shared_color`](crate::SolverSettings::min_shared_color).
    #[inline]
    pub(super) fn team<'t>(
        &self,
        team: Option<&'t Team>,
        ctx: &StepContext,
        lanes: usize,
    ) -> Option<&'t Team> {
        team.filter(|_| self.shared(ctx, lanes))
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
    pub(super) fn runs<'a, L: Lanes>(
        &self,
        team: Option<&Team>,
        ((pairs, singles, hinges), joints): (ColorBatches<'a, L>, &'a mut [JointConstraint]),
    ) -> ColorRuns<'a, L> {
        let work = block_size(team, self.work(L::W), 1);
        let batch = batch_work(L::W);
        (
            Blocks::new(pairs, (work / (PAIR_WORK * batch)).max(MIN_BATCHES)),
            Blocks::new(singles, (work / batch).max(MIN_BATCHES)),
            Blocks::new(hinges, (work / (HINGE_WORK * batch)).max(MIN_BATCHES)),
            Blocks::new(joints, (work / JOINT_WORK).max(MIN_JOINTS)),
        )
    }
}

impl Graph {
    /// Whether a team should share the substeps: whether the colors it
    /// would share (see [`Color::team`]) hold at least
    /// [`MIN_SHARED_PART`] of the work, the overflow's constraints and
    /// joints counting one each. If not, every color is solved, and
    /// every body integrated, by one thread.
    pub(in crate::solver) fn shares_the_colors(&self, ctx: &StepContext) -> bool {
        let overflow = self.overflow.len() + self.joint_overflow.len();
        let lanes = self.width.lanes();
        let (shared, alone) = self.colors[..self.count]
            .iter()
            .fold((0, overflow), |(shared, alone), c| {
                if c.shared(ctx, lanes) {
                    (shared + c.work(lanes), alone)
                } else {
                    (shared, alone + c.work(lanes))
                }
            });
        let (part, whole) = MIN_SHARED_PART;
        shared > 0 && shared * whole >= (shared + alone) * part
    }

    /// The condition the workers' sharing of the body states rests on (see
    /// [`crate::threads`]): within each color, a body some batch writes is
    /// dynamic, and no other lane of the color's batches touches it. (The
    /// color's scalar constraints run after its batches, on one thread.)
    pub(in crate::solver) fn footprints_are_disjoint(
        &mut self,
        bodies: &[SolverBody],
        joints: &[JointConstraint],
    ) -> bool {
        // Per body: the color pass that last touched it, times two, plus
        // one if that touch wrote it.
        self.marks.resize(bodies.len() + 1, 0);
        let colors = &self.colors[..self.count];
        let marks = (&mut self.marks[..], &mut self.pass);
        with_batches!(ref self, b => footprints_are_disjoint(b, colors, (bodies, joints), marks))
    }
}

/// [`Graph::footprints_are_disjoint`] for the batches `b` of `colors`
/// (an iterator over a color's lanes has a type for each lane type: the
/// walk is written once, generic over it).
fn footprints_are_disjoint<L: Lanes>(
    b: &Batches<L>,
    colors: &[Color],
    (bodies, joints): (&[SolverBody], &[JointConstraint]),
    (marks, pass): (&mut [u32], &mut u32),
) -> bool {
    for color in colors {
        *pass = pass.wrapping_add(1);
        let pass = *pass;
        let lanes = b.pairs[color.pairs.clone()]
            .iter()
            .flat_map(|b| b.footprint())
            .chain(
                b.singles[color.singles.clone()]
                    .iter()
                    .flat_map(|b| b.footprint()),
            )
            .chain(b.hinges[color.hinges.clone()].iter().flat_map(|b| b.footprint()))
            .chain(joints[color.lone_joints()].iter().map(joint::footprint));
        for (a, writes_a, b, writes_b) in lanes {
            for (body, writes) in [(a, writes_a), (b, writes_b)] {
                let i = body as usize;
                if writes && !bodies.get(i).is_some_and(|b| b.dynamic) {
                    return false;
                }
                let mark = marks[i];
                if mark >> 1 == pass && (writes || mark & 1 == 1) {
                    return false;
                }
                marks[i] = pass << 1 | u32::from(writes);
            }
        }
    }
    true
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

/// A color's two-point, one-point and hinge batches.
pub(super) type ColorBatches<'a, L> = (
    &'a mut [wide::PairBatch<L>],
    &'a mut [wide::PointBatch<L>],
    &'a mut [HingeBatch<L>],
);

/// A color's batches and other joints, in runs for a team (see
/// [`Color::runs`]).
pub(super) type ColorRuns<'a, L> = (
    Blocks<'a, wide::PairBatch<L>>,
    Blocks<'a, wide::PointBatch<L>>,
    Blocks<'a, HingeBatch<L>>,
    Blocks<'a, JointConstraint>,
);

/// What a batch of `lanes` lanes costs, in batches of four.
#[inline]
fn batch_work(lanes: usize) -> usize {
    lanes / 4
}

/// The fewest lane batches a thread takes at a time: fewer cost more to
/// hand over than to solve.
const MIN_BATCHES: usize = 4;

/// The fewest joints a thread takes at a time.
const MIN_JOINTS: usize = 16;

/// `batches` in runs for the team's threads.
#[inline]
pub(super) fn batch_blocks<'a, T: Send>(team: Option<&Team>, batches: &'a mut [T]) -> Blocks<'a, T> {
    let block = block_size(team, batches.len(), MIN_BATCHES);
    Blocks::new(batches, block)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Coloring;
    use crate::solver::graph::tests::{keys, random_colored};
    use crate::solver::types::ContactConstraint;
    use crate::test_rng::Rng;

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
            let lanes = graph.width.lanes();
            let works: Vec<usize> = graph.colors[..graph.count]
                .iter()
                .map(|c| c.work(lanes))
                .collect();
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
