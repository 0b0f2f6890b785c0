//! The passes over the colors: each substep's warm start, each
//! iteration (velocity, split-impulse or soft-step) color by color, each
//! color's batches and joints split between the workers and its other
//! constraints solved on one thread, and the separations brought up to
//! date between them.

use super::sharing::{batch_blocks, ColorBatches};
use super::{with_batches, Batches, Color, Graph};
use crate::body::StateCell;
use crate::joint::{self, JointConstraint};
use crate::solver::joints::hinges::HingeBatch;
use crate::solver::lanes::Lanes;
use crate::solver::scalar::{
    current_separation, solve_constraint, solve_pseudo_constraint, solve_soft_constraint,
    warm_start_constraint,
};
use crate::solver::types::ContactConstraint;
use crate::solver::wide;
use crate::step_context::StepContext;
use crate::threads::{for_each4, AtomicMin, Blocks, SharedCell, Team};
use std::sync::atomic::{AtomicBool, Ordering};

/// Which iteration a pass over the constraints is.
#[derive(Clone, Copy, Debug)]
pub(in crate::solver) enum Pass<'a> {
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
    /// A pass over the joints' limits alone, after a biased iteration
    /// (see [`LIMIT_PASSES`](crate::solver::LIMIT_PASSES)): the contacts
    /// and every other row are left as they are.
    Limits {
        /// Set when the pass has yet to settle a limit (see
        /// [`LIMIT_SETTLED`](crate::joint::LIMIT_SETTLED)).
        unsettled: &'a AtomicBool,
    },
}

impl Pass<'_> {
    /// Whether the joints correct their drift in this pass: in every
    /// velocity pass, and in the soft step's biased one.
    #[inline]
    fn bias(self) -> bool {
        match self {
            Pass::Velocity { .. } | Pass::Limits { .. } => true,
            Pass::Soft { bias } => bias,
        }
    }
}

impl Graph {
    /// Recomputes the cached separations of the constraints solved one at
    /// a time (once per substep: the bodies only move between substeps;
    /// the batches compute theirs in each pass) and returns the smallest
    /// separation of all.
    pub(in crate::solver) fn update_separations(
        &mut self,
        constraints: &mut [ContactConstraint],
        states: &[StateCell],
        team: Option<&Team>,
    ) -> f32 {
        let smallest = AtomicMin::new();
        smallest.fold(self.update_scalar_separations(constraints, states));
        let counts = (self.pair_count, self.single_count);
        with_batches!(self, b => b.fold_separations(counts, (states, team), &smallest));
        smallest.get()
    }

    /// Recomputes the cached separations of the constraints solved one at
    /// a time (the soft step's lane kernels compute theirs as they go) and
    /// returns the smallest.
    pub(in crate::solver) fn update_scalar_separations(
        &mut self,
        constraints: &mut [ContactConstraint],
        states: &[StateCell],
    ) -> f32 {
        let mut smallest = f32::INFINITY;
        let mut update = |c: &mut ContactConstraint| {
            let (ba, bb) = (&states[c.a as usize].load(), &states[c.b as usize].load());
            let n = c.normal;
            for cp in c.points[..c.count].iter_mut() {
                cp.separation = current_separation(cp, n, c.round, ba, bb);
                smallest = smallest.min(cp.separation);
            }
        };
        for &k in &self.filled {
            for &i in &self.colors[k as usize].scalar {
                update(&mut constraints[i as usize]);
            }
        }
        for &i in &self.overflow {
            update(&mut constraints[i as usize]);
        }
        smallest
    }

    /// Applies the accumulated impulses at the start of a substep.
    pub(in crate::solver) fn warm_start(
        &mut self,
        (constraints, joints): (&[ContactConstraint], &mut [JointConstraint]),
        (states, team): (&[StateCell], Option<&Team>),
        ctx: &StepContext,
    ) {
        let colors = (&self.colors[..self.count], &self.filled[..]);
        with_batches!(self, b => b.warm_start(colors, (constraints, joints), (states, team), ctx));
        for &i in &self.overflow {
            warm_start_constraint(&constraints[i as usize], states);
        }
        for j in &joints[self.joint_overflow.clone()] {
            joint::warm_start(j, states);
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
    pub(in crate::solver) fn iterate(
        &mut self,
        (constraints, joints): (&mut [ContactConstraint], &mut [JointConstraint]),
        (states, team): (&[StateCell], Option<&Team>),
        ctx: &StepContext,
        reverse: bool,
        pass: Pass<'_>,
    ) {
        if let Pass::Limits { unsettled } = pass {
            if self.hinge_count == 0 && team.is_none() {
                self.solve_lone_limits(joints, states, ctx, (reverse, unsettled));
                return;
            }
        }
        let colors = (&self.colors[..self.count], &self.filled[..]);
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
        with_batches!(self, b => b.iterate(colors, (constraints, joints), (states, team), ctx, (reverse, pass)));
        if !reverse {
            solve_overflow((constraints, joints), overflow, states, ctx, reverse, pass);
        }
    }

    /// A pass over the limits on one thread with no hinge batch: each
    /// color's joints and then the overflow's, one at a time (as
    /// [`Graph::iterate`] visits them, without the machinery that hands
    /// a color's batches and joints to the workers, which in a small
    /// scene costs more than the limits themselves). A color's joints
    /// share no body, so their order within it changes no bit.
    fn solve_lone_limits(
        &self,
        joints: &mut [JointConstraint],
        states: &[StateCell],
        ctx: &StepContext,
        (reverse, unsettled): (bool, &AtomicBool),
    ) {
        // (The overflow's joints may share bodies: forward either way, as
        // `solve_overflow` takes them.)
        let overflow = self.joint_overflow.clone();
        if reverse {
            solve_joint_limits(&mut joints[overflow.clone()], states, ctx, unsettled);
        }
        let colors = &self.colors[..self.count];
        let mut color = |&k: &u32| {
            let c = &colors[k as usize];
            solve_joint_limits(&mut joints[c.lone_joints()], states, ctx, unsettled)
        };
        if reverse {
            self.filled.iter().rev().for_each(&mut color);
        } else {
            self.filled.iter().for_each(&mut color);
        }
        if !reverse {
            solve_joint_limits(&mut joints[overflow], states, ctx, unsettled);
        }
    }

    /// Pseudo-velocities start from rest every substep: so do their
    /// impulses. (The batches hold their own: only the constraints solved
    /// one at a time need theirs zeroed.)
    pub(in crate::solver) fn reset_pseudo(&mut self, constraints: &mut [ContactConstraint]) {
        self.for_each_scalar(constraints, |c| {
            c.points[0].pseudo_impulse = 0.0;
            c.points[1].pseudo_impulse = 0.0;
        });
        let counts = (self.pair_count, self.single_count);
        with_batches!(self, b => b.reset_split(counts));
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

impl<L: Lanes> Batches<L> {
    /// Folds the smallest separation of the batches in use (the first
    /// `counts` pair and one-point batches) into `smallest`.
    fn fold_separations(
        &mut self,
        (pairs, singles): (usize, usize),
        (states, team): (&[StateCell], Option<&Team>),
        smallest: &AtomicMin,
    ) {
        let (pairs, singles) = (&mut self.pairs[..pairs], &mut self.singles[..singles]);
        let update_pairs = |_, run: &mut [wide::PairBatch<L>]| smallest.fold(least_separation(run, states));
        let update_singles =
            |_, run: &mut [wide::PointBatch<L>]| smallest.fold(least_separation(run, states));
        for_each4(
            team,
            (batch_blocks(team, pairs), &update_pairs),
            (batch_blocks(team, singles), &update_singles),
            (Blocks::<()>::new(&mut [], 1), &|_, _| {}),
            (Blocks::<()>::new(&mut [], 1), &|_, _| {}),
        );
    }

    /// The warm start of the colors `colors` (see [`Graph::warm_start`]).
    fn warm_start(
        &mut self,
        (colors, filled): (&[Color], &[u32]),
        (constraints, joints): (&[ContactConstraint], &mut [JointConstraint]),
        (states, team): (&[StateCell], Option<&Team>),
        ctx: &StepContext,
    ) {
        for color in filled.iter().map(|&k| &colors[k as usize]) {
            let team = color.team(team, ctx, L::W);
            let (pairs, singles, hinges, joints) = color.runs(
                team,
                (
                    (
                        &mut self.pairs[color.pairs.clone()],
                        &mut self.singles[color.singles.clone()],
                        &mut self.hinges[color.hinges.clone()],
                    ),
                    &mut joints[color.lone_joints()],
                ),
            );
            for_each4(
                team,
                (pairs, &|_, run| {
                    in_lanes::<L, _>(
                        run,
                        #[inline(always)]
                        |b| b.warm_start(states),
                    )
                }),
                (singles, &|_, run| {
                    in_lanes::<L, _>(
                        run,
                        #[inline(always)]
                        |b| b.warm_start(states),
                    )
                }),
                (hinges, &|_, run| {
                    in_lanes::<L, _>(
                        run,
                        #[inline(always)]
                        |b| b.warm_start(states),
                    )
                }),
                (joints, &|_, run| {
                    run.iter().for_each(|j| joint::warm_start(j, states))
                }),
            );
            for &i in &color.scalar {
                warm_start_constraint(&constraints[i as usize], states);
            }
        }
    }

    /// One iteration over the colors `colors`, in order or reversed (see
    /// [`Graph::iterate`]; the overflow is the caller's).
    fn iterate(
        &mut self,
        (colors, filled): (&[Color], &[u32]),
        (constraints, joints): (&mut [ContactConstraint], &mut [JointConstraint]),
        (states, team): (&[StateCell], Option<&Team>),
        ctx: &StepContext,
        (reverse, pass): (bool, Pass<'_>),
    ) {
        let color = |&k: &u32| &colors[k as usize];
        let order: &mut dyn Iterator<Item = &Color> = if reverse {
            &mut filled.iter().rev().map(color)
        } else {
            &mut filled.iter().map(color)
        };
        let Batches {
            pairs,
            singles,
            hinges,
            pair_split,
            single_split,
        } = self;
        for c in order {
            let joints = &mut joints[c.lone_joints()];
            solve_color(
                c,
                (pairs, singles, hinges),
                (pair_split, single_split),
                (constraints, joints),
                (states, team),
                ctx,
                reverse,
                pass,
            );
        }
    }

    /// Zeroes the split impulses of the first `counts` pair and one-point
    /// batches (see [`Graph::reset_pseudo`]).
    fn reset_split(&mut self, (pairs, singles): (usize, usize)) {
        let zero = L::default();
        self.pair_split.clear();
        self.pair_split.resize_with(pairs, || SharedCell::new([zero; 2]));
        self.single_split.clear();
        self.single_split
            .resize_with(singles, || SharedCell::new([zero; 1]));
    }
}

/// The smallest current separation of the batches `run`.
#[inline(always)]
fn least_separation<L: Lanes, const N: usize, const M: usize>(
    run: &[wide::Batch<L, N, M>],
    states: &[StateCell],
) -> f32
where
    wide::Batch<L, N, M>: wide::Normal<L, N>,
{
    L::enter(
        #[inline(always)]
        || {
            let mut least = f32::INFINITY;
            for b in run {
                least = least.min(b.smallest_separation(states));
            }
            least
        },
    )
}

/// Runs `f` on each batch of `run` inside [`Lanes::enter`], so that the
/// kernels it calls take the lanes' processor features. (Pass `f` with
/// `#[inline(always)]`: a closure is compiled apart unless inlined.)
#[inline(always)]
fn in_lanes<L: Lanes, B>(run: &mut [B], f: impl Fn(&mut B)) {
    L::enter(
        #[inline(always)]
        || {
            for b in run.iter_mut() {
                f(b)
            }
        },
    )
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
        Pass::Limits { .. } => {}
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
    if let Pass::Limits { unsettled } = pass {
        solve_joint_limits(joints, states, ctx, unsettled);
        return;
    }
    if reverse {
        for j in joints.iter_mut().rev() {
            joint::solve(j, states, ctx, pass.bias());
        }
        for &i in contacts.iter().rev() {
            solve_one(&mut constraints[i as usize], states, ctx, reverse, pass);
        }
    } else {
        for &i in contacts {
            solve_one(&mut constraints[i as usize], states, ctx, reverse, pass);
        }
        for j in joints {
            joint::solve(j, states, ctx, pass.bias());
        }
    }
}

/// One iteration of one color: its two-point batches, its one-point
/// batches, its hinge batches (the batches' ranges index `pairs`,
/// `singles` and `hinges`) and its other joints, split between the team's
/// threads, then its scalar constraints.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn solve_color<L: Lanes>(
    color: &Color,
    (pairs, singles, hinges): ColorBatches<'_, L>,
    (pair_split, single_split): (&[wide::Split<L, 2>], &[wide::Split<L, 1>]),
    (constraints, joints): (&mut [ContactConstraint], &mut [JointConstraint]),
    (states, team): (&[StateCell], Option<&Team>),
    ctx: &StepContext,
    reverse: bool,
    pass: Pass<'_>,
) {
    // A pass over the limits reads only the color's hinges and joints:
    // a color with none is skipped, and its contacts are left out of the
    // runs the team shares.
    let unsettled = match pass {
        Pass::Limits { unsettled } => Some(unsettled),
        _ => None,
    };
    let limits = unsettled.is_some();
    if limits && color.hinges.is_empty() && joints.is_empty() {
        return;
    }
    let contacts = |range: &std::ops::Range<usize>| if limits { 0..0 } else { range.clone() };
    let team = color.team(team, ctx, L::W);
    let (pairs, singles, hinges, joints) = color.runs(
        team,
        (
            (
                &mut pairs[contacts(&color.pairs)],
                &mut singles[contacts(&color.singles)],
                &mut hinges[color.hinges.clone()],
            ),
            joints,
        ),
    );
    let bias = pass.bias();
    let solve_hinges = |_, run: &mut [HingeBatch<L>]| {
        if let Some(unsettled) = unsettled {
            in_lanes::<L, _>(
                run,
                #[inline(always)]
                |b| {
                    if b.solve_limits(states, ctx) {
                        unsettled.store(true, Ordering::Relaxed);
                    }
                },
            )
        } else {
            in_lanes::<L, _>(
                run,
                #[inline(always)]
                |b| b.solve(states, ctx, bias),
            )
        }
    };
    let hinges = (
        hinges,
        &solve_hinges as &(dyn Fn(usize, &mut [HingeBatch<L>]) + Sync),
    );
    let solve_joints = |_, run: &mut [JointConstraint]| {
        for j in run {
            if let Some(unsettled) = unsettled {
                if joint::solve_limits(j, states, ctx) {
                    unsettled.store(true, Ordering::Relaxed);
                }
            } else {
                joint::solve(j, states, ctx, bias);
            }
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
                    L::enter(
                        #[inline(always)]
                        || {
                            for (b, split) in run.iter_mut().zip(&pair_split[start..]) {
                                b.solve_velocity_and_pseudo((states, pseudo), split, ctx, reverse);
                            }
                        },
                    )
                }),
                (singles, &|start, run| {
                    L::enter(
                        #[inline(always)]
                        || {
                            for (b, split) in run.iter_mut().zip(&single_split[start..]) {
                                b.solve_velocity_and_pseudo((states, pseudo), split, ctx, reverse);
                            }
                        },
                    )
                }),
                hinges,
                joints,
            )
        }
        Pass::Velocity { pseudo: None } => for_each4(
            team,
            (pairs, &|_, run| {
                in_lanes::<L, _>(
                    run,
                    #[inline(always)]
                    |b| b.solve_velocity(states, ctx, reverse),
                )
            }),
            (singles, &|_, run| {
                in_lanes::<L, _>(
                    run,
                    #[inline(always)]
                    |b| b.solve_velocity(states, ctx, reverse),
                )
            }),
            hinges,
            joints,
        ),
        Pass::Soft { bias } => for_each4(
            team,
            (pairs, &|_, run| {
                in_lanes::<L, _>(
                    run,
                    #[inline(always)]
                    |b| b.solve_soft(states, ctx, reverse, bias),
                )
            }),
            (singles, &|_, run| {
                in_lanes::<L, _>(
                    run,
                    #[inline(always)]
                    |b| b.solve_soft(states, ctx, reverse, bias),
                )
            }),
            hinges,
            joints,
        ),
        Pass::Limits { .. } => {
            for_each4(team, (pairs, &|_, _| {}), (singles, &|_, _| {}), hinges, joints);
            return;
        }
    }
    // After the stage, on this thread alone: the scalar kernels write both
    // bodies, static ones included, so they must never run beside the
    // batches.
    for &i in &color.scalar {
        solve_one(&mut constraints[i as usize], states, ctx, reverse, pass);
    }
}

/// A pass over the limits of the joints `run`, one at a time in order;
/// sets `unsettled` when it has yet to settle one of them.
#[inline]
fn solve_joint_limits(
    run: &mut [JointConstraint],
    states: &[StateCell],
    ctx: &StepContext,
    unsettled: &AtomicBool,
) {
    for j in run {
        if joint::solve_limits(j, states, ctx) {
            unsettled.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::BodyState;
    use crate::joint::JointKind;
    use crate::settings::Coloring;
    use crate::solver::graph::tests::random_colored;
    use crate::solver::joints::hinges::tests::bits;
    use crate::test_rng::Rng;

    /// The order a pass over the limits takes joints in, one at a time:
    /// the colors' (backward when `reverse`), then the overflow's, forward
    /// either way and first when `reverse`.
    fn limit_order(graph: &Graph, reverse: bool) -> Vec<usize> {
        let mut colors: Vec<_> = graph.colors[..graph.count]
            .iter()
            .map(Color::lone_joints)
            .collect();
        if reverse {
            colors.reverse();
        }
        let colors = colors.into_iter().flatten();
        let overflow = graph.joint_overflow.clone();
        if reverse {
            overflow.chain(colors).collect()
        } else {
            colors.chain(overflow).collect()
        }
    }

    #[test]
    fn a_limit_pass_without_hinge_batches_gives_the_colors_bits() {
        // A pass over the limits with no hinge batch, on one thread, walks
        // the joints itself: it must give what solving them one at a time
        // in the colors' order gives (as the colors' runs do), both ways
        // round, and say the same of settling.
        let ctx = StepContext::for_tests();
        let mut rng = Rng(0x51ed_2701_3c7a_9b11);
        let mut unsettled_seen = [false; 2];
        for coloring in [Coloring::Bounded, Coloring::Ordered, Coloring::Off] {
            for reverse in [false, true] {
                for _ in 0..20 {
                    let (mut graph, bodies, mut constraints, (_, mut joints, _)) =
                        random_colored(&mut rng, (30, 40, 20), coloring);
                    for j in &mut joints {
                        if let JointKind::Revolute(r) = &mut j.kind {
                            (r.enable_limit, r.lower_angle, r.upper_angle) = (true, -0.5, 0.5);
                            let rows = &mut j.limit_rows;
                            rows.anchors = (rng.vec(1.0), rng.vec(1.0));
                            rows.hold = rng.vec(0.5);
                            rows.axial_mass = rng.range(0.1, 2.0);
                            rows.lower_c = rng.range(-0.3, 0.3);
                            rows.upper_c = rng.range(-0.3, 0.3);
                            j.impulses.upper = rng.range(0.0, 1.0);
                        }
                    }
                    let states: Vec<StateCell> = (0..=bodies.len())
                        .map(|_| {
                            StateCell::new(BodyState {
                                v: rng.vec(2.0),
                                w: rng.range(-2.0, 2.0),
                                ..BodyState::default()
                            })
                        })
                        .collect();
                    let (mut walked, walked_states) = (joints.clone(), states.clone());
                    let (mut runs, runs_states) = (joints, states);
                    // Passes until one settles every limit.
                    for _ in 0..50 {
                        let walked_unsettled = AtomicBool::new(false);
                        let pass = Pass::Limits {
                            unsettled: &walked_unsettled,
                        };
                        let both = (&mut constraints[..], &mut walked[..]);
                        graph.iterate(both, (&walked_states, None), &ctx, reverse, pass);
                        // The joints one at a time in the colors' order.
                        let runs_unsettled = AtomicBool::new(false);
                        for k in limit_order(&graph, reverse) {
                            let one = std::slice::from_mut(&mut runs[k]);
                            solve_joint_limits(one, &runs_states, &ctx, &runs_unsettled);
                        }
                        assert_eq!(bits(&walked, &walked_states), bits(&runs, &runs_states));
                        let unsettled = walked_unsettled.load(Ordering::Relaxed);
                        assert_eq!(unsettled, runs_unsettled.load(Ordering::Relaxed));
                        unsettled_seen[usize::from(unsettled)] = true;
                        if !unsettled {
                            break;
                        }
                    }
                }
            }
        }
        assert_eq!(unsettled_seen, [true, true], "both answers must occur");
    }
}
