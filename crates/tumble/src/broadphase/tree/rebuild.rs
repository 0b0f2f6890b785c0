//! The dynamic tree's bulk rebuilder: [`DynamicTree::rebuild`]
//! re-arranges, once per step, the part of the tree that
//! [`DynamicTree::enlarge_proxy`] loosened. It frees the enlarged internal
//! nodes, keeps what hangs below them (single leaves and untouched
//! subtrees) as building blocks, and builds a new top over those blocks,
//! splitting them in two again and again at the middle of their centers'
//! spread along its longer axis (where that leaves one side with under a
//! fifth of the blocks, at their median instead). A surface-area split,
//! binned, made trees no better to query in the bench scenes and cost
//! twice as much to build. Where the two halves still come out more than
//! two levels apart the shorter one is grafted into the taller one where
//! it fits, rebalancing on the way up as an insertion does. So a rebuilt
//! tree keeps the same height bound as one built by insertions.

use super::{DynamicTree, Node, NodeStack, MAX_HEIGHT_DIFFERENCE, NULL_NODE};
use crate::math::Vec2;

/// A rebuild splits a set of blocks at the middle of their centers only
/// when the smaller side gets at least one in this many of them;
/// otherwise at their median. One fifth leaves the two halves a factor
/// four apart at most: about two levels, what the balance allows.
const MIN_SIDE_PART: usize = 5;

/// A building block of a rebuild: a leaf, or an internal node that was not
/// enlarged (with its subtree, which stays as it is). Twelve bytes, so the
/// splits, which move blocks about, move little.
#[derive(Clone, Copy, Debug)]
struct Block {
    /// Twice the center of the node's box (`min + max`): only the order
    /// and spread of the centers matter.
    center: Vec2,
    node: u32,
}

/// A pending step of the (iterative) rebuild.
#[derive(Clone, Copy, Debug)]
enum BuildTask {
    /// Build a subtree over `blocks[start..end]` and push its root.
    Build { start: u32, end: u32 },
    /// Pop the two roots last pushed and join them under one node.
    Join,
}

/// Buffers a rebuild works in, kept between rebuilds so that a tree in a
/// steady state rebuilds without allocating.
#[derive(Clone, Debug, Default)]
pub(super) struct RebuildScratch {
    blocks: Vec<Block>,
    tasks: Vec<BuildTask>,
    roots: Vec<u32>,
}

impl RebuildScratch {
    /// Heap bytes its buffers hold (their capacities).
    pub(super) fn memory_bytes(&self) -> usize {
        self.blocks.capacity() * std::mem::size_of::<Block>()
            + self.tasks.capacity() * std::mem::size_of::<BuildTask>()
            + self.roots.capacity() * std::mem::size_of::<u32>()
    }
}

impl DynamicTree {
    /// True when [`enlarge_proxy`](Self::enlarge_proxy) has loosened the
    /// tree since the last [`rebuild`](Self::rebuild).
    #[inline]
    pub fn needs_rebuild(&self) -> bool {
        self.root != NULL_NODE && self.nodes[self.root as usize].enlarged
    }

    /// Re-arranges the part of the tree that
    /// [`enlarge_proxy`](Self::enlarge_proxy) loosened, so queries are fast
    /// again. The internal nodes marked as enlarged are taken apart; the
    /// leaves and untouched subtrees below them are re-assembled top-down,
    /// each set split in two at the middle of its centers' spread along
    /// its longer axis (at their median when that leaves one side a fifth
    /// or less). Afterwards every box is again the union
    /// of its children and the height bound of an insertion-built tree holds.
    ///
    /// Returns the number of building blocks (leaves and untouched
    /// subtrees) it re-assembled: 0 when nothing was enlarged. Proxy ids and
    /// boxes do not change. Allocates nothing once its buffers have grown to
    /// the working size.
    pub fn rebuild(&mut self) -> usize {
        if !self.needs_rebuild() {
            return 0;
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let RebuildScratch { blocks, tasks, roots } = &mut scratch;
        blocks.clear();
        tasks.clear();
        roots.clear();
        // Every block holds a leaf: room for them all, once, rather than a
        // reallocation whenever a step moves more than any before it.
        blocks.reserve(self.proxy_count);

        // Take the enlarged nodes apart. Only internal nodes are marked, and
        // a marked node's parent is marked, so this walks down from the root
        // through marked nodes and stops at the first unmarked ones.
        let mut stack = NodeStack::new();
        stack.push(self.root);
        while let Some(index) = stack.pop() {
            let node = self.nodes[index as usize];
            if node.enlarged {
                stack.push(node.child2);
                stack.push(node.child1);
                self.free_node(index);
            } else {
                self.nodes[index as usize].parent_or_next = NULL_NODE;
                blocks.push(Block {
                    center: node.aabb.min + node.aabb.max,
                    node: index,
                });
            }
        }

        // Build top-down, join bottom-up: each range is split in two, both
        // halves are built, then joined under one node. Exactly as many
        // nodes are joined as were freed above, so the node array does not
        // grow.
        tasks.push(BuildTask::Build {
            start: 0,
            end: blocks.len() as u32,
        });
        while let Some(task) = tasks.pop() {
            match task {
                BuildTask::Build { start, end } if end - start == 1 => {
                    roots.push(blocks[start as usize].node);
                }
                BuildTask::Build { start, end } => {
                    let split = start + split_blocks(&mut blocks[start as usize..end as usize]) as u32;
                    tasks.push(BuildTask::Join);
                    tasks.push(BuildTask::Build { start: split, end });
                    tasks.push(BuildTask::Build { start, end: split });
                }
                BuildTask::Join => {
                    let second = roots.pop().expect("a built subtree");
                    let first = roots.pop().expect("a built subtree");
                    let joined = self.join(first, second);
                    roots.push(joined);
                }
            }
        }
        let root = roots.pop().expect("at least one block");
        debug_assert!(roots.is_empty());
        self.root = root;
        self.nodes[root as usize].parent_or_next = NULL_NODE;
        let block_count = blocks.len();
        blocks.clear();
        self.scratch = scratch;
        block_count
    }

    /// Joins two detached subtrees (each balanced, parent links null) under
    /// a new internal node and returns the root of the result, for
    /// [`rebuild`](Self::rebuild). When their heights differ by more than
    /// the balance allows, the new node goes down into the taller one
    /// instead, taking the place of the first node on the way down that is
    /// no more than [`MAX_HEIGHT_DIFFERENCE`] taller than the shorter
    /// subtree (at each level down, the child whose box grows least), and
    /// the nodes above it are rebalanced as after an insertion.
    fn join(&mut self, first: u32, second: u32) -> u32 {
        let (h1, h2) = (self.height_of(first), self.height_of(second));
        let (tall, short) = if h1 >= h2 {
            (first, second)
        } else {
            (second, first)
        };
        let short_height = h1.min(h2);
        let short_box = self.aabb_of(short);

        let mut sibling = tall;
        while self.height_of(sibling) > short_height + MAX_HEIGHT_DIFFERENCE {
            // Both children are at least as tall as `short` (the node is
            // balanced and more than the limit taller), so either will do.
            let node = &self.nodes[sibling as usize];
            let growth = |child: u32| {
                let aabb = self.aabb_of(child);
                aabb.union(short_box).perimeter() - aabb.perimeter()
            };
            sibling = if growth(node.child2) < growth(node.child1) {
                node.child2
            } else {
                node.child1
            };
        }

        let parent = self.nodes[sibling as usize].parent_or_next;
        let joined = self.allocate_node();
        let (child1, child2) = if sibling == tall {
            (first, second)
        } else {
            (sibling, short)
        };
        let (categories, holds_static) =
            Node::tags_over(&self.nodes[child1 as usize], &self.nodes[child2 as usize]);
        self.nodes[joined as usize] = Node {
            aabb: self.aabb_of(child1).union(self.aabb_of(child2)),
            parent_or_next: parent,
            child1,
            child2,
            height: 1 + self.nodes[child1 as usize]
                .height
                .max(self.nodes[child2 as usize].height),
            enlarged: false,
            categories,
            holds_static,
        };
        self.nodes[child1 as usize].parent_or_next = joined;
        self.nodes[child2 as usize].parent_or_next = joined;
        if parent == NULL_NODE {
            return joined;
        }
        // `joined` is at most one level taller than the node it replaced, so
        // every node above is at most one past the limit, which is what
        // `repair_upwards` mends. (Its rotations may point `self.root` at
        // the top of this detached subtree; `rebuild` sets the root last.)
        self.replace_child(parent, sibling, joined);
        self.repair_upwards(parent);
        let mut top = joined;
        loop {
            let up = self.nodes[top as usize].parent_or_next;
            if up == NULL_NODE {
                return top;
            }
            top = up;
        }
    }
}

/// Reorders `blocks` (at least two) into two groups to build a subtree over
/// each, and returns the size of the first, in `1..blocks.len()`.
///
/// The cut is across the axis on which the blocks' centers spread most, at
/// the middle of that spread: each center goes to the side it lies on, in
/// one pass that swaps the misplaced ones (Hoare's partition). When that
/// leaves the smaller side with under one in [`MIN_SIDE_PART`] of the
/// blocks (a crowd on one side, a few far off on the other), they are cut
/// at their median along the axis instead. Blocks whose centers all
/// coincide (or are not finite) are cut in half as they lie.
fn split_blocks(blocks: &mut [Block]) -> usize {
    let count = blocks.len();
    debug_assert!(count >= 2);
    let half = count / 2;
    if count == 2 {
        return half;
    }
    // Plain comparisons rather than `Vec2::min`, which is cheaper. (Boxes
    // with NaNs still get a valid, if arbitrary, split.)
    let mut low = blocks[0].center;
    let mut high = low;
    for block in blocks.iter() {
        let c = block.center;
        low.x = if c.x < low.x { c.x } else { low.x };
        low.y = if c.y < low.y { c.y } else { low.y };
        high.x = if c.x > high.x { c.x } else { high.x };
        high.y = if c.y > high.y { c.y } else { high.y };
    }
    let spread = high - low;
    let along_x = spread.x >= spread.y;
    let (start, extent) = if along_x {
        (low.x, spread.x)
    } else {
        (low.y, spread.y)
    };
    if !(extent > 0.0 && extent.is_finite()) {
        return half;
    }
    let key = |block: &Block| {
        if along_x {
            block.center.x
        } else {
            block.center.y
        }
    };
    // Everything before `below_end` is below the middle, everything from
    // `above_start` on is not; between them is still to be sorted.
    let middle = start + 0.5 * extent;
    let (mut below_end, mut above_start) = (0, count);
    while below_end < above_start {
        if key(&blocks[below_end]) < middle {
            below_end += 1;
        } else if key(&blocks[above_start - 1]) >= middle {
            above_start -= 1;
        } else {
            // Each is on the wrong side: both step past the swapped pair.
            blocks.swap(below_end, above_start - 1);
            below_end += 1;
            above_start -= 1;
        }
    }
    if below_end.min(count - below_end) * MIN_SIDE_PART >= count {
        return below_end;
    }
    blocks.select_nth_unstable_by(half, |a, b| key(a).total_cmp(&key(b)));
    half
}

#[cfg(test)]
mod tests {
    use super::super::tests::{
        arb_box, arb_motion, balanced_height_bound, brute_query, square, tree_query, Op,
    };
    use super::*;
    use crate::math::Aabb;
    use proptest::prelude::*;

    #[test]
    fn enlarging_grows_the_ancestors_and_a_rebuild_tightens_them() {
        let mut tree = DynamicTree::new();
        let ids: Vec<u32> = (0..64)
            .map(|i| tree.create_proxy(square((i % 8) as f32 * 2.0, (i / 8) as f32 * 2.0, 0.5), i))
            .collect();
        assert!(!tree.needs_rebuild());
        assert_eq!(tree.rebuild(), 0, "nothing to do");
        let nodes = tree.node_count();

        // Move a corner box to the opposite corner, in place.
        let far = square(30.0, 30.0, 0.5);
        tree.enlarge_proxy(ids[0], far);
        assert!(tree.needs_rebuild());
        assert_eq!(tree.fat_aabb(ids[0]), far);
        tree.validate();
        assert!(tree.bounds().unwrap().contains(far));
        assert_eq!(tree_query(&tree, square(30.0, 30.0, 0.1)), [ids[0]]);

        let blocks = tree.rebuild();
        assert!(blocks >= 2, "{blocks}");
        assert!(!tree.needs_rebuild());
        tree.validate();
        assert_eq!(tree.node_count(), nodes, "the rebuild reuses the freed nodes");
        assert_eq!(tree.proxy_count(), 64);
        assert_eq!(tree.fat_aabb(ids[0]), far);
        assert_eq!(tree.user_data(ids[0]), 0);
        assert_eq!(tree_query(&tree, square(30.0, 30.0, 0.1)), [ids[0]]);
        assert_eq!(tree_query(&tree, square(0.0, 0.0, 0.1)), Vec::<u32>::new());
        assert!(tree.height() <= balanced_height_bound(64));
    }

    #[test]
    fn enlarging_then_removing_or_inserting_keeps_the_marks_consistent() {
        let mut tree = DynamicTree::new();
        let ids: Vec<u32> = (0..40)
            .map(|i| tree.create_proxy(square(i as f32, 0.0, 0.4), i))
            .collect();
        for &id in ids.iter().step_by(3) {
            tree.enlarge_proxy(id, square(id as f32, 5.0, 0.4));
        }
        tree.validate();
        // Insertions and removals rotate marked nodes about.
        for &id in ids.iter().step_by(2) {
            tree.destroy_proxy(id);
            tree.validate();
        }
        for i in 0..20 {
            tree.create_proxy(square(i as f32, -3.0, 0.4), 100 + i);
            tree.validate();
        }
        tree.move_proxy(ids[1], square(50.0, 50.0, 1.0));
        tree.validate();
        tree.rebuild();
        tree.validate();
        assert!(!tree.needs_rebuild());
        assert!(tree.height() <= balanced_height_bound(tree.proxy_count()));
    }

    #[test]
    fn joining_a_leaf_to_a_tall_subtree_grafts_it_where_it_fits() {
        for leaf_first in [false, true] {
            let mut tree = DynamicTree::new();
            let ids: Vec<u32> = (0..40)
                .map(|i| tree.create_proxy(square(i as f32, 0.0, 0.4), i))
                .collect();
            // Detach one leaf: the rest stays a balanced tree at the root.
            let leaf = ids[7];
            tree.remove_leaf(leaf);
            let rest = tree.root;
            assert!(tree.height_of(rest) > MAX_HEIGHT_DIFFERENCE + 1);
            tree.nodes[leaf as usize].aabb = square(100.0, 0.0, 0.4);
            let joined = if leaf_first {
                tree.join(leaf, rest)
            } else {
                tree.join(rest, leaf)
            };
            tree.root = joined;
            tree.validate();
            assert!(tree.height() <= balanced_height_bound(40));
            // It went down the side nearest to it.
            let other = tree.sibling(leaf);
            assert!(tree.aabb_of(other).max.x >= 35.0, "{:?}", tree.aabb_of(other));
            assert_eq!(tree_query(&tree, square(100.0, 0.0, 0.1)), [leaf]);
        }
    }

    fn blocks_at(centers: &[(f32, f32)]) -> Vec<Block> {
        centers
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| Block {
                center: Vec2::new(x, y),
                node: i as u32,
            })
            .collect()
    }

    #[test]
    fn blocks_split_at_the_middle_of_their_longer_spread() {
        // Spread 10 along x, 1 along y: cut at x = 5, whatever the order.
        let mut blocks = blocks_at(&[
            (9.0, 0.0),
            (1.0, 1.0),
            (6.0, 0.5),
            (0.0, 0.2),
            (10.0, 0.0),
            (4.0, 0.9),
        ]);
        let split = split_blocks(&mut blocks);
        assert_eq!(split, 3);
        assert!(blocks[..split].iter().all(|b| b.center.x < 5.0));
        assert!(blocks[split..].iter().all(|b| b.center.x >= 5.0));
        let mut nodes: Vec<u32> = blocks.iter().map(|b| b.node).collect();
        nodes.sort_unstable();
        assert_eq!(nodes, [0, 1, 2, 3, 4, 5], "every block kept once");
        // Along y when y spreads more.
        let mut blocks = blocks_at(&[(0.0, 8.0), (0.5, 1.0), (1.0, 0.0), (0.2, 7.0)]);
        let split = split_blocks(&mut blocks);
        assert_eq!(split, 2);
        assert!(blocks[..split].iter().all(|b| b.center.y < 4.0));
    }

    #[test]
    fn a_crowd_and_a_straggler_split_at_the_median() {
        // Nine blocks near 0 and one at 100: the middle cut would leave the
        // straggler alone, so the blocks are cut at their median instead.
        let mut centers: Vec<(f32, f32)> = (0..9).map(|i| (i as f32 * 0.1, 0.0)).collect();
        centers.push((100.0, 0.0));
        let mut blocks = blocks_at(&centers);
        let split = split_blocks(&mut blocks);
        assert_eq!(split, 5);
        let below_max = blocks[..split]
            .iter()
            .map(|b| b.center.x)
            .fold(f32::MIN, f32::max);
        let above_min = blocks[split..]
            .iter()
            .map(|b| b.center.x)
            .fold(f32::MAX, f32::min);
        assert!(below_max <= above_min);
    }

    #[test]
    fn coinciding_or_nan_centers_still_split_into_two_non_empty_groups() {
        for centers in [
            vec![(1.0, 1.0); 7],
            vec![
                (f32::NAN, 0.0),
                (1.0, 0.0),
                (f32::NAN, 2.0),
                (3.0, 1.0),
                (0.0, f32::NAN),
            ],
            vec![(f32::INFINITY, 0.0), (0.0, 0.0), (1.0, 0.0)],
        ] {
            let mut blocks = blocks_at(&centers);
            let split = split_blocks(&mut blocks);
            assert!(split > 0 && split < centers.len(), "{centers:?} split at {split}");
        }
    }

    #[test]
    fn a_single_proxy_needs_no_rebuild() {
        let mut tree = DynamicTree::new();
        let a = tree.create_proxy(square(0.0, 0.0, 1.0), 0);
        tree.enlarge_proxy(a, square(9.0, 0.0, 1.0));
        assert!(!tree.needs_rebuild());
        assert_eq!(tree.rebuild(), 0);
        assert_eq!(tree.bounds(), Some(square(9.0, 0.0, 1.0)));
        tree.validate();
    }

    #[test]
    fn rebuilds_in_a_steady_state_allocate_nothing_new() {
        let mut tree = DynamicTree::new();
        let n = 500u32;
        let ids: Vec<u32> = (0..n)
            .map(|i| tree.create_proxy(square((i % 25) as f32, (i / 25) as f32, 0.45), i))
            .collect();
        let mut memory = 0;
        for step in 0..40u32 {
            // A third of the boxes jump about each step.
            for (k, &id) in ids.iter().enumerate() {
                if (k as u32 + step) % 3 == 0 {
                    let jiggle = ((k as u32 * 7 + step * 13) % 11) as f32 - 5.0;
                    let (x, y) = ((k % 25) as f32 + jiggle, (k / 25) as f32 - 0.3 * jiggle);
                    tree.enlarge_proxy(id, square(x, y, 0.45));
                }
            }
            tree.rebuild();
            if step == 20 {
                memory = tree.memory_bytes();
            }
        }
        tree.validate();
        assert_eq!(tree.memory_bytes(), memory);
        assert!(tree.height() <= balanced_height_bound(n as usize));
    }

    #[test]
    fn a_rebuilt_tree_is_about_as_tight_as_an_inserted_one() {
        // Boxes scattered by a simple hash, of mixed sizes, and a few large
        // ones (walls).
        let scatter = |i: u32, salt: u32| {
            let h = (i ^ salt)
                .wrapping_mul(0x9e37_79b9)
                .rotate_left(13)
                .wrapping_mul(0x85eb_ca6b);
            (h >> 8) as f32 / (1u32 << 24) as f32
        };
        let boxes: Vec<Aabb> = (0..2000u32)
            .map(|i| {
                if i % 500 == 0 {
                    return Aabb::new(
                        Vec2::new(-50.0, i as f32 / 50.0),
                        Vec2::new(50.0, i as f32 / 50.0 + 1.0),
                    );
                }
                let half = 0.2 + 0.8 * scatter(i, 3);
                square(100.0 * scatter(i, 1) - 50.0, 100.0 * scatter(i, 2), half)
            })
            .collect();
        let mut inserted = DynamicTree::new();
        for (i, b) in boxes.iter().enumerate() {
            inserted.create_proxy(*b, i as u32);
        }
        // The same boxes, reached by moving every proxy of a tree built in
        // some other arrangement, then one rebuild.
        let mut rebuilt = DynamicTree::new();
        let ids: Vec<u32> = (0..2000u32)
            .map(|i| rebuilt.create_proxy(square((i % 40) as f32, (i / 40) as f32, 0.5), i))
            .collect();
        for (id, b) in ids.iter().zip(&boxes) {
            rebuilt.enlarge_proxy(*id, *b);
        }
        rebuilt.rebuild();
        rebuilt.validate();
        let (a, b) = (inserted.internal_perimeter(), rebuilt.internal_perimeter());
        assert!(b < 1.25 * a, "rebuilt {b} vs inserted {a}");
        assert!(rebuilt.height() <= balanced_height_bound(2000));
    }

    proptest! {
        #[test]
        fn enlarge_and_rebuild_match_brute_force_and_stay_balanced(
            boxes in prop::collection::vec(arb_box(), 1..200),
            motions in prop::collection::vec(arb_motion(), 0..400),
            probes in prop::collection::vec(arb_box(), 1..20),
        ) {
            let mut tree = DynamicTree::new();
            let mut live: Vec<(u32, Aabb)> = boxes
                .iter()
                .enumerate()
                .map(|(i, b)| (tree.create_proxy(*b, i as u32), *b))
                .collect();
            let nodes = tree.node_count();
            for motion in motions {
                match motion {
                    // A small step is relative to where the box was.
                    Op::Enlarge(pick, step) if step.min == step.max => {
                        let k = pick % live.len();
                        let moved = Aabb::new(live[k].1.min + step.min, live[k].1.max + step.min);
                        tree.enlarge_proxy(live[k].0, moved);
                        live[k].1 = moved;
                    }
                    Op::Enlarge(pick, aabb) => {
                        let k = pick % live.len();
                        tree.enlarge_proxy(live[k].0, aabb);
                        live[k].1 = aabb;
                    }
                    _ => {
                        tree.rebuild();
                        tree.validate();
                        prop_assert!(!tree.needs_rebuild());
                        prop_assert!(tree.height() <= balanced_height_bound(live.len()));
                    }
                }
            }
            // Before the final rebuild (loose) and after it (tight).
            for rebuild in [false, true] {
                if rebuild {
                    tree.rebuild();
                }
                tree.validate();
                prop_assert_eq!(tree.node_count(), nodes);
                prop_assert_eq!(tree.proxy_count(), live.len());
                prop_assert!(tree.height() <= balanced_height_bound(live.len()));
                for (id, aabb) in &live {
                    prop_assert_eq!(tree.fat_aabb(*id), *aabb);
                }
                for probe in &probes {
                    prop_assert_eq!(tree_query(&tree, *probe), brute_query(&live, *probe));
                }
            }
        }
    }
}
