//! The constraint graph: the step's constraints sorted into colors, each
//! color's constraints sharing no dynamic body, packed into lane-wide
//! batches, and solved color by color. This file holds the graph's state
//! ([`Graph`], [`Color`]); each part of the work on it has a file:
//!
//! - `coloring`: the constraints and joints sorted into colors (in order,
//!   or bounded and kept from step to step), the joints into color order;
//! - `batches`: each color's contacts and hinges packed into lane batches,
//!   the batches filled, their impulses read back;
//! - `sharing`: how a color's work is split between the workers, and
//!   whether the substeps are shared at all;
//! - `solve`: the passes over the colors (warm start, iterations, the
//!   separations between them).

mod batches;
mod coloring;
mod sharing;
mod solve;

pub(super) use batches::Refill;
pub(super) use solve::Pass;

use super::joints::hinges::HingeBatch;
use super::kept_colors::KeptColors;
#[cfg(target_arch = "x86_64")]
use super::lanes::F8;
use super::lanes::{Lanes, Width, F4};
use super::wide;
use crate::body::StateCell;

/// Runs `$body` with `$b` bound to the graph's batches of the lane width
/// in use (`&mut`, or `&` with `ref`): the body is compiled once for each
/// lane type, so the generic kernels it calls are too.
macro_rules! with_batches {
    ($graph:expr, $b:ident => $body:expr) => {
        match $graph.width {
            $crate::solver::lanes::Width::Four => {
                let $b = &mut $graph.four;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            $crate::solver::lanes::Width::Eight => {
                let $b = &mut $graph.eight;
                $body
            }
        }
    };
    (ref $graph:expr, $b:ident => $body:expr) => {
        match $graph.width {
            $crate::solver::lanes::Width::Four => {
                let $b = &$graph.four;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            $crate::solver::lanes::Width::Eight => {
                let $b = &$graph.eight;
                $body
            }
        }
    };
}
use with_batches;

/// One color of the constraint graph: no dynamic body appears twice in it,
/// so its constraints can be solved in any order, or several at once.
#[derive(Clone, Debug, Default)]
struct Color {
    /// Its two-point block constraints, a batch's lanes to a batch: a
    /// range of [`Batches::pairs`].
    pairs: std::ops::Range<usize>,
    /// Its one-point constraints, likewise: a range of
    /// [`Batches::singles`].
    singles: std::ops::Range<usize>,
    /// Its other constraints (ill-conditioned pairs), solved one at a
    /// time: indices into the constraint array.
    scalar: Vec<u32>,
    /// Its hinges packed a batch's lanes to a batch ([`HingeBatch`]): a
    /// range of [`Batches::hinges`], empty until [`Graph::pack_hinges`].
    hinges: std::ops::Range<usize>,
    /// Its hinges (revolute joints), the first of its joints in the joint
    /// array: how many.
    hinge_joints: usize,
    /// Its joints: a range of the joint array, which the solver builds in
    /// color order ([`Graph::joint_order`]), the hinges first.
    joints: std::ops::Range<usize>,
}

impl Color {
    /// Whether it holds nothing to solve. A pass skips such a color: the
    /// bounded coloring gives a contact with one dynamic body the last
    /// color free on it, so a small world (a few bodies on the ground)
    /// uses the first colors and the last ones, and the colors between
    /// them are empty.
    #[inline]
    fn is_empty(&self) -> bool {
        // (A color's hinges are among its joints.)
        self.pairs.is_empty() && self.singles.is_empty() && self.scalar.is_empty() && self.joints.is_empty()
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
    /// The colors in use that hold something to solve, in order (see
    /// [`Color::is_empty`]): the passes walk these alone. Set when the
    /// colors are packed.
    filled: Vec<u32>,
    /// Which lane type the batches are of: the batches in use are
    /// `four`'s or `eight`'s.
    width: Width,
    /// The batches, four lanes wide.
    four: Batches<F4>,
    /// The batches, eight lanes wide.
    #[cfg(target_arch = "x86_64")]
    eight: Batches<F8>,
    /// How many of the pair batches are in use this step.
    pair_count: usize,
    /// How many of the one-point batches are in use this step.
    single_count: usize,
    /// Per hinge batch in use, its run of the joint array (while
    /// packing).
    hinge_places: Vec<std::ops::Range<u32>>,
    /// How many of the hinge batches are in use this step.
    hinge_count: usize,
    /// Constraints solved one at a time after the colors, in constraint
    /// order: all of them when coloring is off.
    overflow: Vec<u32>,
    /// The joints that fit no color (all of them when coloring is off):
    /// the end of the joint array, solved on one thread after the colors.
    joint_overflow: std::ops::Range<usize>,
    /// Per joint key, this step: its color (`coloring::JOINT_OVERFLOW` for the
    /// overflow).
    joint_colors: Vec<u32>,
    /// Per color, while ordering the joints: where its run starts.
    joint_starts: Vec<u32>,
    /// Per place of the joint array in color order, the joint that goes
    /// there (see [`Graph::joint_order`]).
    joint_order: Vec<u32>,
    /// Per body slot: one past the last color it took while coloring
    /// ([`Coloring::Ordered`](crate::Coloring::Ordered)).
    last: Vec<u32>,
    /// The bounded coloring, kept from step to step
    /// ([`Coloring::Bounded`](crate::Coloring::Bounded)).
    kept: KeptColors,
    /// Per body, for [`Graph::footprints_are_disjoint`].
    marks: Vec<u32>,
    /// The last color pass of [`Graph::footprints_are_disjoint`].
    pass: u32,
    /// The two-point block constraints of every color, color by
    /// color, each color's run padded with `batches::NO_CONSTRAINT` to whole
    /// batches: pair batch `k` holds entries `W k..W (k+1)`, `W` its lanes.
    blocks: Vec<u32>,
    /// The one-point constraints, likewise for the one-point batches.
    points: Vec<u32>,
    /// Per constraint, where the solve keeps its impulses: a lane of
    /// [`Graph::blocks`] or [`Graph::points`] (tagged `batches::IN_PAIRS` or
    /// `batches::IN_SINGLES`), or `batches::ON_ITS_OWN`.
    lanes: Vec<u32>,
    /// Body states, one per body slot plus a resting one for unused lanes.
    pub(super) states: Vec<StateCell>,
    /// With split impulses, the pseudo-velocities, as the velocities of a
    /// second array of states (their motion unused), one per state; empty
    /// otherwise. Apart from the states, which they would make 40 bytes
    /// (see [`BodyState`](crate::body::BodyState)).
    pub(super) pseudo: Vec<StateCell>,
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

/// The lane batches of the constraint graph, of one lane type `L`: kept
/// from step to step and refilled in place.
#[derive(Clone, Debug)]
struct Batches<L: Lanes> {
    /// The two-point batches of all colors, color by color (one buffer,
    /// so a color with a few blocks holds no spare capacity of its own).
    /// Only the first [`Graph::pair_count`] are in use: the rest are last
    /// steps' batches, kept so that packing refills them in place.
    pairs: Vec<wide::PairBatch<L>>,
    /// The one-point batches of all colors, color by color; the first
    /// [`Graph::single_count`] are in use.
    singles: Vec<wide::PointBatch<L>>,
    /// The hinge batches of all colors, color by color; the first
    /// [`Graph::hinge_count`] are in use.
    hinges: Vec<HingeBatch<L>>,
    /// With split impulses, each two-point batch's split impulses (per
    /// point, lane by lane): kept apart from the batches, which the soft
    /// step (the default, which has none) streams every pass. Set up by
    /// [`Graph::reset_pseudo`] for the substeps that push.
    pair_split: Vec<wide::Split<L, 2>>,
    /// Likewise for the one-point batches.
    single_split: Vec<wide::Split<L, 1>>,
}

impl<L: Lanes> Default for Batches<L> {
    fn default() -> Batches<L> {
        Batches {
            pairs: Vec::new(),
            singles: Vec::new(),
            hinges: Vec::new(),
            pair_split: Vec::new(),
            single_split: Vec::new(),
        }
    }
}

impl<L: Lanes> Batches<L> {
    /// Heap bytes held (capacities).
    fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        self.pairs.capacity() * size_of::<wide::PairBatch<L>>()
            + self.singles.capacity() * size_of::<wide::PointBatch<L>>()
            + self.hinges.capacity() * size_of::<HingeBatch<L>>()
            + self.pair_split.capacity() * size_of::<wide::Split<L, 2>>()
            + self.single_split.capacity() * size_of::<wide::Split<L, 1>>()
    }
}

impl Graph {
    /// The lane width of the batches.
    pub(in crate::solver) fn width(&self) -> Width {
        self.width
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
            + with_batches!(ref self, b => b.memory_bytes())
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
    }
}

#[cfg(test)]
mod tests {
    //! What the tests of the graph's files build their graphs with.

    use super::*;
    use crate::body::SolverBody;
    use crate::contact::NO_COLOR;
    use crate::joint::JointConstraint;
    use crate::joint::{JointKind, RevoluteJoint};
    use crate::settings::Coloring;
    use crate::solver::types::{ColorKey, ContactConstraint, LaneKind, NOT_HELD};
    use crate::test_rng::Rng;

    /// `count` bodies, one in four static, the last one the shared static
    /// body; and `pairs` random constraints between them, each with a
    /// dynamic body, one or two points (two-point ones as blocks).
    pub(super) fn random_graph(
        rng: &mut Rng,
        count: usize,
        pairs: usize,
    ) -> (Vec<SolverBody>, Vec<ContactConstraint>) {
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
    pub(super) fn random_joints(rng: &mut Rng, bodies: &[SolverBody], count: usize) -> Vec<JointConstraint> {
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
    pub(super) fn is_hinge(j: &JointConstraint) -> bool {
        matches!(j.kind, JointKind::Revolute(_))
    }

    /// Each color's constraints (batched or not), and the overflow.
    pub(super) fn members(graph: &Graph) -> (Vec<Vec<u32>>, Vec<u32>) {
        let colors = graph.colors[..graph.count]
            .iter()
            .map(|c| {
                let mut m: Vec<u32> = c.scalar.clone();
                with_batches!(ref graph, b => {
                    for batch in &b.pairs[c.pairs.clone()] {
                        m.extend_from_slice(batch.constraints());
                    }
                    for batch in &b.singles[c.singles.clone()] {
                        m.extend_from_slice(batch.constraints());
                    }
                });
                m.sort_unstable();
                m
            })
            .collect();
        (colors, graph.overflow.clone())
    }

    /// A body's entry in a coloring key (the tests' solver bodies are
    /// their own slots).
    pub(super) fn held(bodies: &[SolverBody], i: u32) -> u32 {
        if bodies[i as usize].dynamic {
            i
        } else {
            NOT_HELD
        }
    }

    /// The coloring keys of `constraints` (constraint `i` of contact
    /// slot `i`) of contacts not yet colored, as the prepare makes them.
    pub(super) fn keys(constraints: &[ContactConstraint], bodies: &[SolverBody]) -> Vec<ColorKey> {
        (0..)
            .zip(constraints)
            .map(|(i, c)| ColorKey::of(c, i, NO_COLOR, (held(bodies, c.a), held(bodies, c.b)), true))
            .collect()
    }

    /// The coloring keys of `joints` (in slot order), not yet colored,
    /// a hinge's marked as `pick_joints` marks it.
    pub(super) fn joint_keys(joints: &[JointConstraint], bodies: &[SolverBody]) -> Vec<ColorKey> {
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
    pub(super) fn build(
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
        let width = Width::of(crate::settings::LaneWidth::Widest);
        graph.build(keys, joint_keys, bodies.len(), (coloring, width));
        graph.fill(constraints, bodies, false);
        *joints = graph.joint_order().iter().map(|&k| joints[k as usize]).collect();
    }

    /// The keys of a random graph's constraints, its joints and their keys.
    pub(super) type Colored = (Vec<ColorKey>, Vec<JointConstraint>, Vec<ColorKey>);

    /// A random graph of `bodies` bodies, `pairs` constraints and `joints`
    /// joints (see [`random_graph`], [`random_joints`]), colored once by
    /// `coloring`.
    pub(super) fn random_colored(
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
}
