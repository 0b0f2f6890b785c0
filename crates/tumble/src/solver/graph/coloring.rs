//! Coloring: the step's constraints and joints sorted into colors, each
//! dynamic body at most once per color, by the settings' [`Coloring`]:
//! in order ([`Coloring::Ordered`], each constraint one past the last
//! color of its bodies), or bounded ([`Coloring::Bounded`], at most
//! [`GRAPH_COLORS`] and an overflow, kept from step to step by
//! [`KeptColors`](crate::solver::kept_colors::KeptColors)); then the
//! joints ordered by color. What the rest of the step asks of the kept
//! coloring is here too.

use super::{Color, Graph};
use crate::settings::{Coloring, GRAPH_COLORS};
use crate::solver::lanes::Width;
use crate::solver::types::{ColorKey, LaneKind, NOT_HELD};

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
    pub(in crate::solver) fn build(
        &mut self,
        keys: &mut [ColorKey],
        joint_keys: &mut [ColorKey],
        body_slots: usize,
        (coloring, width): (Coloring, Width),
    ) {
        // (The lists are padded to whole batches of the width they were
        // built for.)
        let same_width = width == self.width;
        self.width = width;
        self.kept_last = coloring == Coloring::Bounded
            && same_width
            && self.reusable
            && self.kept.keeps_all(joint_keys, keys);
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

    /// Per place of the joint array in color order, the joint (an index
    /// of this step's joint keys) that goes there. The joints are built
    /// straight into their places: sorting built ones would move every
    /// joint's constraint once more a step.
    pub(in crate::solver) fn joint_order(&self) -> &[u32] {
        &self.joint_order
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
    /// (see [`KeptColors::color`](crate::solver::kept_colors::KeptColors::color)): at most [`GRAPH_COLORS`] colors,
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
    pub(super) fn park(&mut self, color: usize, i: u32) {
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

    /// Whether this step should try to keep last step's coloring whole:
    /// last step kept the one before, the lists are a bounded coloring
    /// of the keys the coloring holds, and this step's joints
    /// (`joint_keys`) are all as they were colored. Then, if every
    /// contact is too, the step's constraints can be built straight into
    /// the batches ([`Graph::refill_with`]).
    pub(in crate::solver) fn may_keep(
        &self,
        (coloring, width): (Coloring, Width),
        joint_keys: &[ColorKey],
    ) -> bool {
        self.kept_last
            && coloring == Coloring::Bounded
            && width == self.width
            && self.reusable
            && self.kept.holds_joints(joint_keys)
    }

    /// Takes this step as colored last step, every color, list and
    /// order kept, after [`Graph::refill_with`] refilled the batches.
    pub(in crate::solver) fn keep_coloring(&mut self) {
        self.kept.keep();
        self.kept_last = true;
        self.unpack_hinges();
    }

    /// Constraint `i`'s key as kept from last step's coloring.
    pub(in crate::solver) fn kept_key(&self, i: u32) -> &ColorKey {
        &self.kept.contact_keys()[i as usize]
    }

    /// Makes the next step color its constraints the usual way, as if
    /// this one had changed the coloring (for the tests).
    #[cfg(test)]
    pub(in crate::solver) fn forget_kept_coloring(&mut self) {
        self.kept_last = false;
    }

    /// Whether the last step kept its coloring whole (for the tests).
    #[cfg(test)]
    pub(in crate::solver) fn kept_last(&self) -> bool {
        self.kept_last
    }

    /// The constraints whose color this step's coloring changed (the
    /// others kept their contact's): the contacts to tell.
    pub(in crate::solver) fn recolored(&self) -> &[u32] {
        self.kept.recolored()
    }

    /// Whether the bounded coloring's state stands for the colors the
    /// contacts and joints remember (see [`KeptColors::prime`](crate::solver::kept_colors::KeptColors::prime)).
    pub(in crate::solver) fn colors_primed(&self) -> bool {
        self.kept.is_primed()
    }

    /// Rebuilds the bounded coloring's state from the colors the
    /// contacts and joints remember (see [`KeptColors::prime`](crate::solver::kept_colors::KeptColors::prime)).
    pub(in crate::solver) fn prime_colors(
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
    pub(in crate::solver) fn recolored_joints(&self) -> &[u32] {
        self.kept.recolored_joints()
    }

    /// The contacts that left the bounded coloring this step (slots):
    /// they forget their colors.
    pub(in crate::solver) fn left_contacts(&self) -> &[u32] {
        self.kept.left_contacts()
    }

    /// The joints that left the bounded coloring this step (slots).
    pub(in crate::solver) fn left_joints(&self) -> &[u32] {
        self.kept.left_joints()
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

/// A joint's entry in [`Graph::joint_colors`] when it fits no color.
const JOINT_OVERFLOW: u32 = u32::MAX;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::SolverBody;
    use crate::settings::DYNAMIC_GRAPH_COLORS;
    use crate::solver::graph::tests::{build, keys, members, random_colored};
    use crate::solver::graph::with_batches;
    use crate::solver::types::ContactConstraint;
    use crate::test_rng::Rng;

    /// What a coloring built: the colors, their lists and batches, the
    /// joints' order, and the bounded coloring's held state.
    fn built(graph: &Graph) -> String {
        format!(
            "{:?} {} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
            &graph.colors[..graph.count],
            with_batches!(ref graph, b => format!(
                "{:?} {:?} {:?}",
                &b.pairs[..graph.pair_count],
                &b.singles[..graph.single_count],
                &b.hinges[..graph.hinge_count]
            )),
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

    /// `n` dynamic bodies and the shared static one, last.
    fn moving_bodies(n: usize) -> Vec<SolverBody> {
        let mut bodies = vec![
            SolverBody {
                dynamic: true,
                ..SolverBody::default()
            };
            n
        ];
        bodies.push(SolverBody::default());
        bodies
    }

    /// A one-point contact between each pair of bodies `(a, b)`.
    fn one_point_contacts(pairs: impl Iterator<Item = (u32, u32)>) -> Vec<ContactConstraint> {
        pairs
            .map(|(a, b)| ContactConstraint {
                a,
                b,
                count: 1,
                ..ContactConstraint::default()
            })
            .collect()
    }

    #[test]
    fn the_filled_colors_of_a_long_ordered_coloring_reach_every_constraint() {
        // 300 one-point contacts in a chain, each sharing a body with the
        // next: the ordered coloring gives each a color of its own, far
        // more colors than the bounded coloring's.
        let n = 300;
        let bodies = moving_bodies(n + 1);
        let constraints = one_point_contacts((0..n as u32).map(|k| (k, k + 1)));
        let mut keys = keys(&constraints, &bodies);
        let mut graph = Graph::default();
        let no_joints = (&mut Vec::new(), &mut [][..]);
        build(
            &mut graph,
            (&constraints, &mut keys),
            no_joints,
            &bodies,
            Coloring::Ordered,
        );
        assert_eq!(graph.count, n);
        // What the passes walk: the filled colors' members, in order.
        let (colors, overflow) = members(&graph);
        assert!(overflow.is_empty());
        let walked: Vec<u32> = graph
            .filled
            .iter()
            .flat_map(|&k| colors[k as usize].iter().copied())
            .collect();
        assert_eq!(walked, (0..n as u32).collect::<Vec<u32>>());
    }

    #[test]
    fn a_body_touching_more_than_the_colors_overflows() {
        // Body 0 touches 30 others: at most one of its contacts per color.
        let bodies = moving_bodies(31);
        let constraints = one_point_contacts((1..31).map(|b| (0, b)));
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
}
