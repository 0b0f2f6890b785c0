//! A dynamic bounding-volume tree over axis-aligned boxes.
//!
//! Every leaf holds one proxy: a (usually fattened) box and a `u32` user
//! value. Every internal node holds the union of its two children's boxes, so
//! a query or a ray walks down only the branches whose box it touches.
//!
//! Nodes live in one flat `Vec`, addressed by `u32` index; freed nodes are
//! chained into a free list and reused, so a proxy id stays valid (and
//! stable) for as long as its proxy lives.
//!
//! # How a leaf is placed
//!
//! A new leaf walks down from the root. At each internal node it goes to the
//! child that would add the least perimeter to the tree (the surface-area
//! heuristic in 2D: a query's chance of entering a box grows with the box's
//! perimeter). At the bottom it pairs with the leaf it reached under a new
//! internal node.
//!
//! On the way back up, each ancestor is refitted and rebalanced:
//!
//! * **Height balance (AVL-style).** When one child of a node is more than
//!   two levels taller than the other, the taller child is rotated up. This
//!   keeps every node's two subtrees within two levels of each other, so the
//!   height stays below about `1.81 log2(n)` whatever the insertion order (a
//!   row of boxes inserted left to right would otherwise grow a list).
//! * **Perimeter choices.** Wherever the balance leaves a choice, the box
//!   perimeter decides it: a rotation gives the demoted node the grandchild
//!   that makes its box smaller, and a child may trade places with a
//!   grandchild when that shrinks the box of the node in between (provided
//!   both stay balanced and the subtree does not grow taller).
//!
//! # Moving in place, rebuilding once
//!
//! [`DynamicTree::move_proxy`] re-inserts a proxy: a removal and an
//! insertion, each with its walk and repairs. A world where a third of the
//! shapes leave their fat boxes every step would pay that for every one of
//! them, so there is a cheaper path: [`DynamicTree::enlarge_proxy`] stores
//! the new box in the leaf where it is and grows each ancestor until one
//! already holds it, marking those and every node above them *enlarged*.
//! The tree stays correct (every box still holds everything below it) but
//! grows loose where things moved. [`DynamicTree::rebuild`], once per step,
//! then re-arranges just the enlarged part (the bulk rebuilder, in
//! `rebuild.rs`).

mod rebuild;

use crate::math::{Aabb, Vec2};
use rebuild::RebuildScratch;

/// The index that means "no node": the parent of the root, the children of
/// a leaf, the end of the free list.
pub const NULL_NODE: u32 = u32::MAX;

/// Marks a node that sits on the free list.
const FREE_HEIGHT: i16 = -1;

/// The most the heights of a node's two subtrees may differ. One would be
/// a classic AVL tree (height at most about `1.44 log2 n`), but it leaves
/// almost no freedom to arrange boxes by perimeter: in a scene of 10 000
/// scattered moving boxes a query then visits four times as many nodes. Two
/// costs a slightly taller bound (about `1.81 log2 n`) and gives a tree as
/// tight as an unbalanced one.
const MAX_HEIGHT_DIFFERENCE: i32 = 2;

/// One node of the tree: a leaf (a proxy) or an internal node.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Node {
    /// The proxy's box for a leaf; the union of the children for an
    /// internal node.
    aabb: Aabb,
    /// A leaf's categories (all of them unless
    /// [`DynamicTree::set_categories`] says otherwise); an internal node's,
    /// the union of its children's: a query whose mask meets none of them
    /// skips the node and everything below it.
    categories: u64,
    /// The parent, or (for a node on the free list) the next free node.
    parent_or_next: u32,
    /// First child, or [`NULL_NODE`] for a leaf.
    child1: u32,
    /// Second child of an internal node; on a leaf, its user value (a
    /// leaf has no children and an internal node no user value: sharing
    /// the field keeps a node at 40 bytes, as Box2D's).
    child2: u32,
    /// 0 for a leaf, one more than the taller child for an internal node,
    /// [`FREE_HEIGHT`] on the free list. (Sixteen bits are plenty: the
    /// balance keeps even a billion proxies under 55 levels, and the flag
    /// below fits beside them.)
    height: i16,
    /// Set on an internal node whose box was grown in place by
    /// [`DynamicTree::enlarge_proxy`] (or that holds such a node below it):
    /// its box may be larger than the union of its children, and the next
    /// [`DynamicTree::rebuild`] re-arranges it. Never set on a leaf. An
    /// enlarged node's parent is always enlarged too, so the enlarged nodes
    /// form a subtree hanging from the root.
    #[cfg_attr(feature = "serde", serde(default))]
    enlarged: bool,
    /// Set on a leaf marked static ([`DynamicTree::set_static`]: a shape
    /// on a static body), and on an internal node with such a leaf below
    /// it: a query for static proxies only
    /// ([`DynamicTree::query_static`]) skips every other branch. (It
    /// fits beside the flag above.)
    #[cfg_attr(feature = "serde", serde(default))]
    holds_static: bool,
}

/// Every category: what a proxy made by [`DynamicTree::create_proxy`]
/// belongs to.
#[cfg(test)]
const EVERY_CATEGORY: u64 = u64::MAX;

impl Node {
    const EMPTY: Node = Node {
        aabb: Aabb {
            min: Vec2::ZERO,
            max: Vec2::ZERO,
        },
        parent_or_next: NULL_NODE,
        child1: NULL_NODE,
        child2: NULL_NODE,
        height: FREE_HEIGHT,
        enlarged: false,
        categories: 0,
        holds_static: false,
    };

    #[inline]
    fn is_leaf(&self) -> bool {
        self.child1 == NULL_NODE
    }

    /// What an internal node over `a` and `b` holds below it: the union
    /// of their categories, and whether either holds a static proxy.
    #[inline]
    fn tags_over(a: &Node, b: &Node) -> (u64, bool) {
        (a.categories | b.categories, a.holds_static || b.holds_static)
    }
}

/// Pending nodes of a depth-first walk. The first [`NodeStack::INLINE`]
/// entries live inside the struct (on the caller's stack), so a walk never
/// allocates: the balance keeps a tree of even a billion proxies under 55
/// levels, and a depth-first walk holds at most one pending node per level
/// (plus one). Deeper walks would spill into a `Vec`, allocated only then.
struct NodeStack<T: Copy = u32> {
    inline: [T; NodeStack::INLINE],
    inline_len: usize,
    spill: Vec<T>,
}

impl NodeStack {
    const INLINE: usize = 64;

    #[inline]
    fn new() -> NodeStack {
        NodeStack::filled(NULL_NODE)
    }
}

impl<T: Copy> NodeStack<T> {
    /// An empty stack whose inline slots hold `fill` until pushed over.
    #[inline]
    fn filled(fill: T) -> NodeStack<T> {
        NodeStack {
            inline: [fill; NodeStack::INLINE],
            inline_len: 0,
            spill: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, entry: T) {
        if self.inline_len < NodeStack::INLINE {
            self.inline[self.inline_len] = entry;
            self.inline_len += 1;
        } else {
            self.spill.push(entry);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        // The spill only fills once the inline part is full, so its entries
        // are the most recent ones.
        if let Some(entry) = self.spill.pop() {
            return Some(entry);
        }
        if self.inline_len == 0 {
            return None;
        }
        self.inline_len -= 1;
        Some(self.inline[self.inline_len])
    }
}

/// A dynamic AABB tree: proxies (a box and a `u32` user value each) that can
/// be created, moved and destroyed at any time, with fast box-overlap
/// queries and ray casts.
///
/// Proxy ids are node indices. An id stays the same for the life of its
/// proxy, and is reused after the proxy is destroyed.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DynamicTree {
    nodes: Vec<Node>,
    root: u32,
    free_list: u32,
    proxy_count: usize,
    /// Working buffers of [`DynamicTree::rebuild`]; empty between calls.
    #[cfg_attr(feature = "serde", serde(skip))]
    scratch: RebuildScratch,
}

impl Default for DynamicTree {
    fn default() -> Self {
        DynamicTree::new()
    }
}

impl DynamicTree {
    /// Heap bytes held by the node array and the rebuild's working buffers
    /// (their capacities, not their lengths).
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>() + self.scratch.memory_bytes()
    }

    /// An empty tree.
    pub fn new() -> DynamicTree {
        DynamicTree {
            nodes: Vec::new(),
            root: NULL_NODE,
            free_list: NULL_NODE,
            proxy_count: 0,
            scratch: RebuildScratch::default(),
        }
    }

    /// Adds a proxy with box `aabb` and user value `user`, in every
    /// category; returns its id.
    #[cfg(test)]
    pub fn create_proxy(&mut self, aabb: Aabb, user: u32) -> u32 {
        self.create_proxy_in(aabb, user, EVERY_CATEGORY)
    }

    /// [`create_proxy`](Self::create_proxy) for a proxy in `categories`
    /// (see [`set_categories`](Self::set_categories)).
    pub fn create_proxy_in(&mut self, aabb: Aabb, user: u32, categories: u64) -> u32 {
        let leaf = self.allocate_node();
        let node = &mut self.nodes[leaf as usize];
        node.aabb = aabb;
        node.child2 = user;
        node.height = 0;
        node.categories = categories;
        node.holds_static = false;
        self.insert_leaf(leaf);
        self.proxy_count += 1;
        leaf
    }

    /// Removes a proxy. Its id may be handed out again by a later
    /// [`create_proxy`](Self::create_proxy).
    ///
    /// # Panics
    ///
    /// If `proxy_id` is not a live proxy of this tree.
    pub fn destroy_proxy(&mut self, proxy_id: u32) {
        self.assert_proxy(proxy_id);
        self.remove_leaf(proxy_id);
        self.free_node(proxy_id);
        self.proxy_count -= 1;
    }

    /// Gives a proxy a new box, re-inserting it where the new box belongs.
    /// The id and user value stay the same.
    ///
    /// # Panics
    ///
    /// If `proxy_id` is not a live proxy of this tree.
    #[cfg(test)]
    pub fn move_proxy(&mut self, proxy_id: u32, aabb: Aabb) {
        self.assert_proxy(proxy_id);
        self.remove_leaf(proxy_id);
        self.nodes[proxy_id as usize].aabb = aabb;
        self.insert_leaf(proxy_id);
    }

    /// Gives a proxy a new box without moving it in the tree: the leaf keeps
    /// its place, and each ancestor grows until one already holds the new
    /// box. The grown ancestors (and every node above them) are marked, and
    /// the next [`rebuild`](Self::rebuild) re-arranges them. Until then
    /// queries and ray casts still find everything, only with more work.
    ///
    /// Cheaper than [`move_proxy`](Self::move_proxy), which re-inserts the
    /// leaf; meant for many proxies moving in one step, followed by one
    /// `rebuild`. The new box need not contain the old one.
    ///
    /// # Panics
    ///
    /// If `proxy_id` is not a live proxy of this tree.
    pub fn enlarge_proxy(&mut self, proxy_id: u32, aabb: Aabb) {
        self.assert_proxy(proxy_id);
        let leaf = &mut self.nodes[proxy_id as usize];
        leaf.aabb = aabb;
        let mut index = leaf.parent_or_next;
        let mut growing = true;
        while index != NULL_NODE {
            let node = &mut self.nodes[index as usize];
            if growing {
                if node.aabb.contains(aabb) {
                    // This one and so every one above already hold the box.
                    growing = false;
                } else {
                    node.aabb = node.aabb.union(aabb);
                }
            } else if node.enlarged {
                // Marked before, and so is everything above it.
                break;
            }
            node.enlarged = true;
            index = node.parent_or_next;
        }
    }

    /// The box stored for a proxy.
    ///
    /// # Panics
    ///
    /// If `proxy_id` is out of range. A destroyed id returns stale data.
    #[inline]
    pub fn fat_aabb(&self, proxy_id: u32) -> Aabb {
        self.nodes[proxy_id as usize].aabb
    }

    /// The user value stored for a proxy.
    ///
    /// # Panics
    ///
    /// If `proxy_id` is out of range. A destroyed id returns stale data.
    #[inline]
    pub fn user_data(&self, proxy_id: u32) -> u32 {
        self.nodes[proxy_id as usize].child2
    }

    /// Sets the categories a proxy belongs to (those it was created in
    /// until then), for [`query_categories`](Self::query_categories) to prune
    /// by. Its ancestors' unions follow.
    ///
    /// # Panics
    ///
    /// If `proxy_id` is not a live proxy of this tree.
    pub fn set_categories(&mut self, proxy_id: u32, categories: u64) {
        self.assert_proxy(proxy_id);
        self.nodes[proxy_id as usize].categories = categories;
        self.retag_ancestors(proxy_id);
    }

    /// Marks a proxy static or not (not, when it is made), for
    /// [`query_static`](Self::query_static) to prune by. Its ancestors
    /// follow.
    ///
    /// # Panics
    ///
    /// If `proxy_id` is not a live proxy of this tree.
    pub fn set_static(&mut self, proxy_id: u32, holds_static: bool) {
        self.assert_proxy(proxy_id);
        self.nodes[proxy_id as usize].holds_static = holds_static;
        self.retag_ancestors(proxy_id);
    }

    /// Brings the categories and static marks of the ancestors of leaf
    /// `leaf`, whose own changed, up to date: each the union of its
    /// children's.
    fn retag_ancestors(&mut self, leaf: u32) {
        let mut index = self.nodes[leaf as usize].parent_or_next;
        while index != NULL_NODE {
            let node = self.nodes[index as usize];
            let (categories, holds_static) = Node::tags_over(
                &self.nodes[node.child1 as usize],
                &self.nodes[node.child2 as usize],
            );
            if (categories, holds_static) == (node.categories, node.holds_static) {
                // Every node above is already the union of its children.
                break;
            }
            let node = &mut self.nodes[index as usize];
            node.categories = categories;
            node.holds_static = holds_static;
            index = node.parent_or_next;
        }
    }

    /// True when `proxy_id` names a live proxy of this tree.
    pub fn is_proxy(&self, proxy_id: u32) -> bool {
        self.nodes
            .get(proxy_id as usize)
            .is_some_and(|node| node.height == 0)
    }

    /// Number of live proxies.
    #[inline]
    pub fn proxy_count(&self) -> usize {
        self.proxy_count
    }

    /// Height of the tree: 0 when empty or holding a single proxy, otherwise
    /// the number of internal nodes on the longest root-to-leaf path.
    #[cfg(test)]
    pub fn height(&self) -> u32 {
        if self.root == NULL_NODE {
            0
        } else {
            self.nodes[self.root as usize].height as u32
        }
    }

    /// The box around every proxy, or `None` when the tree is empty.
    #[cfg(test)]
    pub fn bounds(&self) -> Option<Aabb> {
        (self.root != NULL_NODE).then(|| self.nodes[self.root as usize].aabb)
    }

    /// Sum of the perimeters of all internal nodes: the surface-area
    /// heuristic's measure of how much work queries do. Lower is better.
    #[cfg(test)]
    pub fn internal_perimeter(&self) -> f32 {
        self.nodes
            .iter()
            .filter(|node| node.height > 0)
            .map(|node| node.aabb.perimeter())
            .sum()
    }

    /// Calls `callback(proxy_id)` for every proxy whose box overlaps `aabb`
    /// (touching counts). The callback returns `true` to keep going and
    /// `false` to stop the query.
    ///
    /// The walk is iterative with a fixed-size stack, so it neither recurses
    /// nor allocates.
    #[inline]
    pub fn query(&self, aabb: Aabb, callback: impl FnMut(u32) -> bool) {
        self.query_categories(aabb, u64::MAX, callback);
    }

    /// [`query`](Self::query), skipping every subtree none of whose
    /// proxies belongs to a category in `mask` (see
    /// [`set_categories`](Self::set_categories)): a pair search that can
    /// only keep pairs with those categories walks only the branches that
    /// hold them.
    pub fn query_categories(&self, aabb: Aabb, mask: u64, callback: impl FnMut(u32) -> bool) {
        // A mask of every category (the default filter's) skips no
        // branch: walk without testing the categories at all.
        // (The box first: most nodes a query tests miss it.)
        if mask == u64::MAX {
            self.walk(|node| node.aabb.overlaps(aabb), callback);
        } else {
            self.walk(
                |node| node.aabb.overlaps(aabb) && node.categories & mask != 0,
                callback,
            );
        }
    }

    /// [`query_categories`](Self::query_categories) over the proxies
    /// marked static only ([`set_static`](Self::set_static)), skipping
    /// every subtree without one: a sweep that can stop only at static
    /// shapes walks no further than the few branches holding them.
    pub fn query_static(&self, aabb: Aabb, mask: u64, callback: impl FnMut(u32) -> bool) {
        self.walk(
            |node| node.holds_static && node.aabb.overlaps(aabb) && node.categories & mask != 0,
            callback,
        );
    }

    /// The walk of the queries: every leaf reached through nodes that are
    /// all `wanted`, given to `callback` until it returns `false`.
    #[inline(always)]
    fn walk(&self, wanted: impl Fn(&Node) -> bool, mut callback: impl FnMut(u32) -> bool) {
        if self.root == NULL_NODE {
            return;
        }
        let root = &self.nodes[self.root as usize];
        if !wanted(root) {
            return;
        }
        if root.is_leaf() {
            callback(self.root);
            return;
        }
        // Children are tested before they are pushed, so the stack only
        // ever holds internal nodes that overlap: most nodes a query tests
        // are leaves or misses, and they never go through the stack.
        let mut stack = NodeStack::new();
        stack.push(self.root);
        while let Some(index) = stack.pop() {
            let node = &self.nodes[index as usize];
            for child in [node.child1, node.child2] {
                let child_node = &self.nodes[child as usize];
                if !wanted(child_node) {
                    continue;
                }
                if !child_node.is_leaf() {
                    stack.push(child);
                } else if !callback(child) {
                    return;
                }
            }
        }
    }

    /// Casts the segment from `origin` to `origin + translation` through the
    /// tree and calls `callback(proxy_id, max_fraction)` for every proxy
    /// with a category in `mask` ([`set_categories`](Self::set_categories))
    /// whose box the segment (clipped to `max_fraction`) touches, skipping
    /// every subtree without such a category. Fractions are in units of
    /// `translation`: 0 at `origin`, 1 at its end.
    ///
    /// The callback's return value steers the cast:
    ///
    /// * `0` stops it at once;
    /// * a value in `(0, max_fraction)` clips the ray there, so boxes beyond
    ///   are skipped (return the hit fraction of a closest-hit search);
    /// * `max_fraction` (or anything larger) goes on unchanged;
    /// * a negative value ignores this proxy and goes on unchanged.
    ///
    /// Boxes are tested with the slab method. Of an internal node's two
    /// children, the one the segment enters first is walked first, so that
    /// a closest-hit search clips the segment at its nearest hit early and
    /// skips the boxes beyond it. Like [`query`](Self::query), the walk
    /// neither recurses nor allocates.
    pub fn ray_cast_categories(
        &self,
        origin: Vec2,
        translation: Vec2,
        mask: u64,
        mut callback: impl FnMut(u32, f32) -> f32,
    ) {
        if self.root == NULL_NODE {
            return;
        }
        let segment = Segment::new(origin, translation);
        let mut max_fraction = 1.0f32;
        let mut segment_box = segment_bounds(origin, translation, max_fraction);
        // Where the segment, clipped to `max_fraction`, enters the node's
        // box: the cheap box-box test first, then the exact slab test.
        let entry = |node: &Node, segment_box: Aabb, max_fraction: f32| {
            if node.categories & mask == 0 || !node.aabb.overlaps(segment_box) {
                return None;
            }
            segment.entry(node.aabb, max_fraction)
        };
        let Some(at) = entry(&self.nodes[self.root as usize], segment_box, max_fraction) else {
            return;
        };
        let mut stack = NodeStack::filled((NULL_NODE, 0.0f32));
        stack.push((self.root, at));
        while let Some((index, at)) = stack.pop() {
            // A node the segment entered once may lie beyond a hit since.
            if at > max_fraction {
                continue;
            }
            let node = &self.nodes[index as usize];
            if !node.is_leaf() {
                let (c1, c2) = (node.child1, node.child2);
                let e1 = entry(&self.nodes[c1 as usize], segment_box, max_fraction);
                let e2 = entry(&self.nodes[c2 as usize], segment_box, max_fraction);
                match (e1, e2) {
                    (Some(a), Some(b)) if b < a => {
                        stack.push((c1, a));
                        stack.push((c2, b));
                    }
                    (Some(a), Some(b)) => {
                        stack.push((c2, b));
                        stack.push((c1, a));
                    }
                    (Some(a), None) => stack.push((c1, a)),
                    (None, Some(b)) => stack.push((c2, b)),
                    (None, None) => {}
                }
                continue;
            }
            let answer = callback(index, max_fraction);
            if answer == 0.0 {
                return;
            }
            if answer > 0.0 && answer < max_fraction {
                max_fraction = answer;
                segment_box = segment_bounds(origin, translation, max_fraction);
            }
        }
    }

    /// Checks the tree's invariants: every link in range and pointing
    /// back, no node reached twice, heights right and every node's
    /// subtrees differing in height by at most two, categories and
    /// static marks the union of the children's, boxes holding their
    /// children (equal to their union unless enlarged, and enlarged
    /// nodes under enlarged parents), the leaf count the proxy count, and
    /// every node either reachable from the root or on the free list. A
    /// tree read from a snapshot is checked so that a damaged one is an
    /// error when loaded, not an index panic in a later step.
    #[cfg(any(test, feature = "serde"))]
    pub fn check(&self) -> Result<(), &'static str> {
        let len = self.nodes.len();
        let node = |index: u32| {
            self.nodes
                .get(index as usize)
                .ok_or("a tree link is out of range")
        };
        let mut reachable = 0usize;
        let mut leaves = 0usize;
        if self.root != NULL_NODE {
            if node(self.root)?.parent_or_next != NULL_NODE {
                return Err("the tree's root has a parent");
            }
            let mut stack = NodeStack::new();
            stack.push(self.root);
            while let Some(index) = stack.pop() {
                reachable += 1;
                // Each node is reached through its one parent; more
                // visits than nodes means a node is linked twice.
                if reachable > len {
                    return Err("a tree node is linked twice");
                }
                let n = node(index)?;
                if n.height == FREE_HEIGHT {
                    return Err("a free tree node is linked");
                }
                if n.enlarged && n.parent_or_next != NULL_NODE && !node(n.parent_or_next)?.enlarged {
                    return Err("an enlarged tree node's parent is not enlarged");
                }
                if n.is_leaf() {
                    if n.height != 0 || n.enlarged {
                        return Err("a tree leaf has a height or is marked enlarged");
                    }
                    leaves += 1;
                    continue;
                }
                let (c1, c2) = (n.child1, n.child2);
                if c1 == c2 {
                    return Err("a tree node has one child twice");
                }
                let (n1, n2) = (node(c1)?, node(c2)?);
                // (A free child is found when it is visited.)
                if n1.parent_or_next != index || n2.parent_or_next != index {
                    return Err("a tree node's child does not point back to it");
                }
                if n.height != 1 + n1.height.max(n2.height)
                    || (i32::from(n1.height) - i32::from(n2.height)).abs() > MAX_HEIGHT_DIFFERENCE
                {
                    return Err("a tree node's height is wrong or unbalanced");
                }
                if (n.categories, n.holds_static) != Node::tags_over(n1, n2) {
                    return Err("a tree node's categories are not its children's");
                }
                let union = n1.aabb.union(n2.aabb);
                let holds = if n.enlarged {
                    n.aabb.contains(union)
                } else {
                    n.aabb == union
                };
                if !holds {
                    return Err("a tree node's box does not hold its children's");
                }
                stack.push(c1);
                stack.push(c2);
            }
        }
        if leaves != self.proxy_count {
            return Err("the tree's leaf count is not its proxy count");
        }
        let mut free = 0usize;
        let mut index = self.free_list;
        while index != NULL_NODE {
            let n = node(index)?;
            if n.height != FREE_HEIGHT {
                return Err("a tree node on the free list is in use");
            }
            free += 1;
            if free > len {
                return Err("the tree's free list loops");
            }
            index = n.parent_or_next;
        }
        if reachable + free != len {
            return Err("a tree node is neither in the tree nor free");
        }
        Ok(())
    }

    /// [`DynamicTree::check`] for tests.
    ///
    /// # Panics
    ///
    /// With the first broken invariant.
    #[cfg(test)]
    pub fn validate(&self) {
        if let Err(broken) = self.check() {
            panic!("{broken}");
        }
    }

    // ---- node storage ----

    /// Nodes allocated, in use or free: the tree's memory footprint.
    #[cfg(any(test, feature = "serde"))]
    pub(crate) fn node_count(&self) -> usize {
        self.nodes.len()
    }

    fn allocate_node(&mut self) -> u32 {
        if self.free_list == NULL_NODE {
            let index = self.nodes.len() as u32;
            self.nodes.push(Node::EMPTY);
            return index;
        }
        let index = self.free_list;
        self.free_list = self.nodes[index as usize].parent_or_next;
        self.nodes[index as usize] = Node::EMPTY;
        index
    }

    fn free_node(&mut self, index: u32) {
        let node = &mut self.nodes[index as usize];
        *node = Node::EMPTY;
        node.parent_or_next = self.free_list;
        self.free_list = index;
    }

    fn assert_proxy(&self, proxy_id: u32) {
        assert!(
            self.is_proxy(proxy_id),
            "proxy id {proxy_id} is not a live proxy of this tree"
        );
    }

    #[inline]
    fn height_of(&self, index: u32) -> i32 {
        self.nodes[index as usize].height as i32
    }

    #[inline]
    fn aabb_of(&self, index: u32) -> Aabb {
        self.nodes[index as usize].aabb
    }

    /// Makes `new_child` the child of `parent` in the slot `old_child` held,
    /// or the root when `parent` is null. Does not touch `new_child`'s own
    /// parent link.
    fn replace_child(&mut self, parent: u32, old_child: u32, new_child: u32) {
        if parent == NULL_NODE {
            self.root = new_child;
            return;
        }
        let node = &mut self.nodes[parent as usize];
        if node.child1 == old_child {
            node.child1 = new_child;
        } else {
            debug_assert_eq!(node.child2, old_child);
            node.child2 = new_child;
        }
    }

    /// Recomputes an internal node's box, height, categories and static
    /// mark from its children, and marks it enlarged when a child is.
    #[inline]
    fn refit(&mut self, index: u32) {
        let node = self.nodes[index as usize];
        let (n1, n2) = (
            &self.nodes[node.child1 as usize],
            &self.nodes[node.child2 as usize],
        );
        let aabb = n1.aabb.union(n2.aabb);
        let height = 1 + n1.height.max(n2.height);
        let enlarged_below = n1.enlarged || n2.enlarged;
        let (categories, holds_static) = Node::tags_over(n1, n2);
        let node = &mut self.nodes[index as usize];
        node.aabb = aabb;
        node.height = height;
        node.categories = categories;
        node.holds_static = holds_static;
        // Keep the mark (the rebuild has not yet re-arranged what moved
        // below), and take it on from a child: a marked node's parent is
        // marked.
        node.enlarged |= enlarged_below;
    }

    // ---- insertion and removal ----

    fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL_NODE {
            self.root = leaf;
            self.nodes[leaf as usize].parent_or_next = NULL_NODE;
            return;
        }
        let leaf_box = self.aabb_of(leaf);
        let sibling = self.choose_sibling(leaf_box);

        // A new internal node takes the sibling's place and adopts the
        // sibling and the leaf.
        let old_parent = self.nodes[sibling as usize].parent_or_next;
        let new_parent = self.allocate_node();
        let (categories, holds_static) =
            Node::tags_over(&self.nodes[leaf as usize], &self.nodes[sibling as usize]);
        self.nodes[new_parent as usize] = Node {
            aabb: leaf_box.union(self.aabb_of(sibling)),
            parent_or_next: old_parent,
            child1: sibling,
            child2: leaf,
            height: 1,
            // Above an enlarged sibling, so enlarged as well.
            enlarged: self.nodes[sibling as usize].enlarged,
            categories,
            holds_static,
        };
        self.replace_child(old_parent, sibling, new_parent);
        self.nodes[sibling as usize].parent_or_next = new_parent;
        self.nodes[leaf as usize].parent_or_next = new_parent;

        self.repair_upwards(old_parent);
    }

    /// Walks from the root to the leaf that a new box should pair with. At
    /// each internal node it takes the child under which the box would add
    /// the least perimeter to the tree. Under an internal child that is at
    /// least the child's growth plus a new node of the box's own perimeter;
    /// next to a leaf child it is exactly the new node around both.
    fn choose_sibling(&self, leaf_box: Aabb) -> u32 {
        let leaf_perimeter = leaf_box.perimeter();
        let added_perimeter = |index: u32| -> f32 {
            let node = &self.nodes[index as usize];
            let merged = node.aabb.union(leaf_box).perimeter();
            if node.is_leaf() {
                merged
            } else {
                merged - node.aabb.perimeter() + leaf_perimeter
            }
        };
        let mut index = self.root;
        loop {
            let node = &self.nodes[index as usize];
            if node.is_leaf() {
                return index;
            }
            let cost1 = added_perimeter(node.child1);
            let cost2 = added_perimeter(node.child2);
            index = if cost1 < cost2 {
                node.child1
            } else if cost2 < cost1 {
                node.child2
            } else {
                // A tie (or a NaN box): prefer the shorter subtree.
                if self.height_of(node.child1) <= self.height_of(node.child2) {
                    node.child1
                } else {
                    node.child2
                }
            };
        }
    }

    /// The other child of a non-root node's parent.
    fn sibling(&self, node: u32) -> u32 {
        let parent = &self.nodes[self.nodes[node as usize].parent_or_next as usize];
        if parent.child1 == node {
            parent.child2
        } else {
            parent.child1
        }
    }

    /// Unlinks a leaf: its sibling takes the place of their parent, which is
    /// freed. The leaf itself keeps its data.
    fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL_NODE;
            return;
        }
        let parent = self.nodes[leaf as usize].parent_or_next;
        let sibling = self.sibling(leaf);
        let grandparent = self.nodes[parent as usize].parent_or_next;
        self.replace_child(grandparent, parent, sibling);
        self.nodes[sibling as usize].parent_or_next = grandparent;
        self.free_node(parent);
        self.nodes[leaf as usize].parent_or_next = NULL_NODE;
        self.repair_upwards(grandparent);
    }

    /// Rebalances, improves and refits every node from `index` up to the
    /// root, after a subtree below `index` changed.
    fn repair_upwards(&mut self, mut index: u32) {
        while index != NULL_NODE {
            index = self.rebalance(index);
            self.swap_for_smaller_box(index);
            self.refit(index);
            index = self.nodes[index as usize].parent_or_next;
        }
    }

    /// Restores the height balance at internal node `top` (whose children
    /// are balanced) by rotating its taller child up when the two children
    /// differ by more than [`MAX_HEIGHT_DIFFERENCE`]. Returns the node now
    /// in `top`'s place.
    fn rebalance(&mut self, top: u32) -> u32 {
        let node = self.nodes[top as usize];
        let (h1, h2) = (self.height_of(node.child1), self.height_of(node.child2));
        if h2 > h1 + MAX_HEIGHT_DIFFERENCE {
            self.rotate_up(top, node.child1, node.child2)
        } else if h1 > h2 + MAX_HEIGHT_DIFFERENCE {
            self.rotate_up(top, node.child2, node.child1)
        } else {
            top
        }
    }

    /// `tall`, the taller child of `top`, takes `top`'s place. `top` moves
    /// down to become `tall`'s child beside one of `tall`'s children, and
    /// adopts the other. Of the two ways to split the grandchildren, the
    /// balanced one is taken; when both are balanced, the one that gives
    /// `top` the smaller box. Returns `tall`.
    fn rotate_up(&mut self, top: u32, short: u32, tall: u32) -> u32 {
        let tall_node = self.nodes[tall as usize];
        let (f, g) = (tall_node.child1, tall_node.child2);
        let short_height = self.height_of(short);
        let short_box = self.aabb_of(short);
        // (keep, adopt, perimeter of `top` after) for each balanced split.
        let mut best: Option<(u32, u32, f32)> = None;
        for (keep, adopt) in [(f, g), (g, f)] {
            let adopt_height = self.height_of(adopt);
            let top_height = 1 + short_height.max(adopt_height);
            let balanced = (short_height - adopt_height).abs() <= MAX_HEIGHT_DIFFERENCE
                && (self.height_of(keep) - top_height).abs() <= MAX_HEIGHT_DIFFERENCE;
            if !balanced {
                continue;
            }
            let perimeter = short_box.union(self.aabb_of(adopt)).perimeter();
            if best.is_none_or(|(_, _, best_perimeter)| perimeter < best_perimeter) {
                best = Some((keep, adopt, perimeter));
            }
        }
        // Keeping the taller grandchild up is always balanced when the
        // imbalance is one past the limit, which is all that insertion and
        // removal can cause; the fallback only guards against the unexpected.
        let (keep, adopt) = match best {
            Some((keep, adopt, _)) => (keep, adopt),
            None if self.height_of(f) >= self.height_of(g) => (f, g),
            None => (g, f),
        };

        let grandparent = self.nodes[top as usize].parent_or_next;
        self.replace_child(grandparent, top, tall);
        self.nodes[tall as usize].parent_or_next = grandparent;

        let tall_node = &mut self.nodes[tall as usize];
        tall_node.child1 = top;
        tall_node.child2 = keep;
        let top_node = &mut self.nodes[top as usize];
        top_node.parent_or_next = tall;
        top_node.child1 = short;
        top_node.child2 = adopt;
        self.nodes[adopt as usize].parent_or_next = top;

        self.refit(top);
        self.refit(tall);
        tall
    }

    /// At internal node `top` with children `b` and `c`: if `b` can trade
    /// places with a child of `c` so that `c`'s box shrinks (or the same with
    /// the roles of `b` and `c` exchanged), makes the trade that shrinks it
    /// most. Only trades that keep both nodes balanced and do not make `top`
    /// taller are considered.
    fn swap_for_smaller_box(&mut self, top: u32) {
        let node = self.nodes[top as usize];
        let top_height = 1 + self.height_of(node.child1).max(self.height_of(node.child2));
        let mut best_gain = 0.0f32;
        // (child of `top`, the grandchild it trades with, that grandchild's parent)
        let mut best_swap = None;
        for (outer, inner) in [(node.child1, node.child2), (node.child2, node.child1)] {
            // `outer` would move down into `inner`, in place of one of
            // `inner`'s children, which moves up.
            let inner_node = self.nodes[inner as usize];
            if inner_node.is_leaf() {
                continue;
            }
            let outer_height = self.height_of(outer);
            let outer_box = self.aabb_of(outer);
            let old_perimeter = inner_node.aabb.perimeter();
            let children = [inner_node.child1, inner_node.child2];
            for (lifted, remaining) in [(children[0], children[1]), (children[1], children[0])] {
                // After the trade `inner` holds `outer` and `remaining`, and
                // `top` holds `lifted` and `inner`.
                let remaining_height = self.height_of(remaining);
                let lifted_height = self.height_of(lifted);
                let inner_height = 1 + outer_height.max(remaining_height);
                let balanced = (outer_height - remaining_height).abs() <= MAX_HEIGHT_DIFFERENCE
                    && (lifted_height - inner_height).abs() <= MAX_HEIGHT_DIFFERENCE;
                if !balanced || 1 + lifted_height.max(inner_height) > top_height {
                    continue;
                }
                let new_perimeter = outer_box.union(self.aabb_of(remaining)).perimeter();
                let gain = old_perimeter - new_perimeter;
                if gain > best_gain {
                    best_gain = gain;
                    best_swap = Some((outer, lifted, inner));
                }
            }
        }
        let Some((outer, lifted, inner)) = best_swap else {
            return;
        };
        self.replace_child(top, outer, lifted);
        self.nodes[lifted as usize].parent_or_next = top;
        self.replace_child(inner, lifted, outer);
        self.nodes[outer as usize].parent_or_next = inner;
        self.refit(inner);
    }
}

/// The bounding box of the segment from `origin` to
/// `origin + fraction * translation`.
#[inline]
fn segment_bounds(origin: Vec2, translation: Vec2, fraction: f32) -> Aabb {
    let end = origin + fraction * translation;
    Aabb::new(origin.min(end), origin.max(end))
}

/// A segment from `origin` along `translation`, with the inverse of each
/// component of the translation taken once for the slab tests of a walk.
#[derive(Clone, Copy)]
struct Segment {
    origin: Vec2,
    translation: Vec2,
    inverse: Vec2,
    /// Whether the segment crosses both slabs' directions with a finite
    /// inverse (every ray but one along an axis): then each slab's near
    /// side is known from the inverse's sign, for every box.
    oblique: bool,
}

impl Segment {
    fn new(origin: Vec2, translation: Vec2) -> Segment {
        let inverse = Vec2::new(1.0 / translation.x, 1.0 / translation.y);
        Segment {
            origin,
            translation,
            inverse,
            oblique: translation.x != 0.0 && translation.y != 0.0 && inverse.is_finite(),
        }
    }

    /// Slab test: the fraction (of `translation`) at which the segment,
    /// clipped to `max_fraction`, enters `aabb`, or `None` when it misses.
    /// A segment starting inside enters at 0.
    ///
    /// Each arithmetic step is monotonic in the box's bounds, so a box that
    /// contains another is hit whenever the inner one is: the tree never
    /// prunes a branch holding a hit leaf.
    #[inline(always)]
    fn entry(&self, aabb: Aabb, max_fraction: f32) -> Option<f32> {
        if max_fraction.is_nan() || max_fraction < 0.0 {
            return None;
        }
        if !self.oblique {
            return self.entry_along_an_axis(aabb, max_fraction);
        }
        // The general test's steps with its branches taken ahead: each
        // slab's near side from the inverse's sign (a box's sides are in
        // order), and one check for a miss at the end, which the clipped
        // interval only narrows towards.
        let (o, inv) = (self.origin, self.inverse);
        let sides = |low: f32, high: f32, inverse: f32| {
            if inverse > 0.0 {
                (low, high)
            } else {
                (high, low)
            }
        };
        let (near_x, far_x) = sides(aabb.min.x, aabb.max.x, inv.x);
        let (near_y, far_y) = sides(aabb.min.y, aabb.max.y, inv.y);
        let (near_x, far_x) = ((near_x - o.x) * inv.x, (far_x - o.x) * inv.x);
        let (near_y, far_y) = ((near_y - o.y) * inv.y, (far_y - o.y) * inv.y);
        if near_x.is_nan() | far_x.is_nan() | near_y.is_nan() | far_y.is_nan() {
            return None;
        }
        let enter = 0.0f32.max(near_x).max(near_y);
        let exit = max_fraction.min(far_x).min(far_y);
        (enter <= exit).then_some(enter)
    }

    /// [`Segment::entry`] for a segment along an axis (or with an
    /// inverse past the float range), `max_fraction` a number from 0 up.
    #[inline(never)]
    fn entry_along_an_axis(&self, aabb: Aabb, max_fraction: f32) -> Option<f32> {
        let mut enter = 0.0f32;
        let mut exit = max_fraction;
        let (o, t, inv) = (self.origin, self.translation, self.inverse);
        let axes = [
            (o.x, t.x, inv.x, aabb.min.x, aabb.max.x),
            (o.y, t.y, inv.y, aabb.min.y, aabb.max.y),
        ];
        for (start, delta, inverse, low, high) in axes {
            if delta == 0.0 {
                // Parallel to this slab: inside it all along, or never. (Every
                // comparison with a NaN is false, so a NaN is a miss.)
                let inside = start >= low && start <= high;
                if !inside {
                    return None;
                }
                continue;
            }
            let mut near = (low - start) * inverse;
            let mut far = (high - start) * inverse;
            if near.is_nan() || far.is_nan() {
                return None;
            }
            if near > far {
                std::mem::swap(&mut near, &mut far);
            }
            enter = enter.max(near);
            exit = exit.min(far);
            if enter > exit {
                return None;
            }
        }
        Some(enter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// [`Segment::entry`] of the segment from `origin` along `translation`.
    fn segment_entry_fraction(aabb: Aabb, origin: Vec2, translation: Vec2, max_fraction: f32) -> Option<f32> {
        Segment::new(origin, translation).entry(aabb, max_fraction)
    }

    #[test]
    fn a_proxy_is_found_by_a_query_until_destroyed() {
        let mut tree = DynamicTree::new();
        let a = tree.create_proxy(Aabb::new(Vec2::ZERO, Vec2::ONE), 7);
        let mut found = Vec::new();
        tree.query(Aabb::new(Vec2::splat(0.5), Vec2::splat(2.0)), |id| {
            found.push(tree.user_data(id));
            true // keep going
        });
        assert_eq!(found, [7]);
        tree.destroy_proxy(a);
        assert_eq!(tree.proxy_count(), 0);
    }

    pub(super) fn square(x: f32, y: f32, half: f32) -> Aabb {
        Aabb::new(Vec2::new(x - half, y - half), Vec2::new(x + half, y + half))
    }

    pub(super) fn brute_query(live: &[(u32, Aabb)], aabb: Aabb) -> Vec<u32> {
        let mut ids: Vec<u32> = live
            .iter()
            .filter(|(_, b)| b.overlaps(aabb))
            .map(|(id, _)| *id)
            .collect();
        ids.sort_unstable();
        ids
    }

    pub(super) fn tree_query(tree: &DynamicTree, aabb: Aabb) -> Vec<u32> {
        let mut ids = Vec::new();
        tree.query(aabb, |id| {
            ids.push(id);
            true
        });
        ids.sort_unstable();
        ids
    }

    /// The tallest a tree of `leaves` leaves can be while every node's
    /// subtrees differ by at most `MAX_HEIGHT_DIFFERENCE`: the sparsest tree
    /// of height h has a sparsest subtree of height h - 1 beside one of
    /// height h - 1 - MAX_HEIGHT_DIFFERENCE.
    pub(super) fn balanced_height_bound(leaves: usize) -> u32 {
        let mut fewest_leaves: Vec<usize> = vec![1];
        loop {
            let h = fewest_leaves.len();
            let short = h.saturating_sub(1 + MAX_HEIGHT_DIFFERENCE as usize);
            let next = fewest_leaves[h - 1] + fewest_leaves[short];
            if next > leaves {
                return (h - 1) as u32;
            }
            fewest_leaves.push(next);
        }
    }

    #[test]
    fn a_node_is_40_bytes() {
        // Queries stream through nodes: the enlarged flag fits beside a
        // 16-bit height, and a leaf's user value takes the place of its
        // second child, so a node with 64 category bits is no larger than
        // Box2D's.
        assert_eq!(std::mem::size_of::<Node>(), 40);
    }

    #[test]
    fn the_height_bound_is_logarithmic() {
        assert_eq!(balanced_height_bound(1), 0);
        assert_eq!(balanced_height_bound(2), 1);
        for n in [10usize, 1_000, 1_000_000] {
            let log2 = (n as f32).log2();
            assert!(balanced_height_bound(n) as f32 <= 2.0 * log2 + 2.0);
        }
    }

    #[test]
    fn empty_tree() {
        let tree = DynamicTree::new();
        tree.validate();
        assert_eq!(tree.height(), 0);
        assert_eq!(tree.bounds(), None);
        tree.query(square(0.0, 0.0, 1.0), |_| panic!("nothing to find"));
        tree.ray_cast_categories(Vec2::ZERO, Vec2::X, u64::MAX, |_, _| panic!("nothing to hit"));
    }

    #[test]
    fn a_row_inserted_in_order_stays_shallow() {
        let mut tree = DynamicTree::new();
        let n = 10_000;
        for i in 0..n {
            tree.create_proxy(square(i as f32, 0.0, 0.45), i);
        }
        tree.validate();
        let log2 = (n as f32).log2();
        assert!(
            tree.height() as f32 <= 2.0 * log2 + 2.0,
            "height {} for {n} leaves",
            tree.height()
        );
        assert!(tree.height() <= balanced_height_bound(n as usize));
        // A query in the middle of the row finds exactly its neighbours.
        let mut found: Vec<u32> = tree_query(&tree, square(5000.0, 0.0, 0.6))
            .into_iter()
            .map(|id| tree.user_data(id))
            .collect();
        found.sort_unstable();
        assert_eq!(found, [4999, 5000, 5001]);
    }

    #[test]
    fn a_diagonal_inserted_in_reverse_then_half_removed_stays_shallow() {
        let mut tree = DynamicTree::new();
        let n = 4096u32;
        let ids: Vec<u32> = (0..n)
            .rev()
            .map(|i| tree.create_proxy(square(i as f32, i as f32, 0.5), i))
            .collect();
        tree.validate();
        for id in ids.iter().step_by(2) {
            tree.destroy_proxy(*id);
        }
        tree.validate();
        assert_eq!(tree.proxy_count(), n as usize / 2);
        assert!(tree.height() <= balanced_height_bound(n as usize / 2));
    }

    #[test]
    fn ids_are_reused_and_user_data_kept() {
        let mut tree = DynamicTree::new();
        let a = tree.create_proxy(square(0.0, 0.0, 1.0), 10);
        let b = tree.create_proxy(square(5.0, 0.0, 1.0), 11);
        assert_eq!(tree.user_data(a), 10);
        assert_eq!(tree.user_data(b), 11);
        tree.move_proxy(b, square(6.0, 0.0, 1.0));
        assert_eq!(tree.user_data(b), 11);
        assert_eq!(tree.fat_aabb(b), square(6.0, 0.0, 1.0));
        tree.destroy_proxy(a);
        assert!(!tree.is_proxy(a));
        let c = tree.create_proxy(square(1.0, 1.0, 1.0), 12);
        tree.validate();
        assert!(tree.is_proxy(c));
        assert_eq!(tree.proxy_count(), 2);
        assert_eq!(
            tree.bounds(),
            Some(square(1.0, 1.0, 1.0).union(square(6.0, 0.0, 1.0)))
        );
    }

    #[test]
    #[should_panic(expected = "not a live proxy")]
    fn destroying_twice_panics_instead_of_corrupting() {
        let mut tree = DynamicTree::new();
        let a = tree.create_proxy(square(0.0, 0.0, 1.0), 0);
        tree.create_proxy(square(3.0, 0.0, 1.0), 1);
        tree.destroy_proxy(a);
        tree.destroy_proxy(a);
    }

    #[test]
    fn query_stops_when_told() {
        let mut tree = DynamicTree::new();
        for i in 0..20 {
            tree.create_proxy(square(0.0, 0.0, 1.0 + i as f32), i);
        }
        let mut calls = 0;
        tree.query(square(0.0, 0.0, 0.1), |_| {
            calls += 1;
            calls < 3
        });
        assert_eq!(calls, 3);
    }

    #[test]
    fn slab_test_cases() {
        let unit = Aabb::new(Vec2::ZERO, Vec2::ONE);
        let hit = |o: Vec2, d: Vec2| segment_entry_fraction(unit, o, d, 1.0);
        assert_eq!(hit(Vec2::new(-1.0, 0.5), Vec2::new(4.0, 0.0)), Some(0.25));
        assert_eq!(hit(Vec2::new(0.5, 0.5), Vec2::new(4.0, 0.0)), Some(0.0));
        assert_eq!(
            hit(Vec2::new(-1.0, 0.5), Vec2::new(0.5, 0.0)),
            None,
            "stops short"
        );
        assert_eq!(
            hit(Vec2::new(-1.0, 1.5), Vec2::new(4.0, 0.0)),
            None,
            "passes above"
        );
        assert_eq!(hit(Vec2::new(-1.0, -1.0), Vec2::new(4.0, 4.0)), Some(0.25));
        assert_eq!(hit(Vec2::new(2.0, 2.0), Vec2::new(-4.0, -4.0)), Some(0.25));
        assert_eq!(
            hit(Vec2::new(-1.0, 0.0), Vec2::new(2.0, -2.0)),
            None,
            "misses the corner"
        );
        assert_eq!(hit(Vec2::new(0.5, 0.5), Vec2::ZERO), Some(0.0), "a point inside");
        assert_eq!(hit(Vec2::new(1.5, 0.5), Vec2::ZERO), None, "a point outside");
        assert_eq!(hit(Vec2::new(f32::NAN, 0.5), Vec2::X), None);
    }

    #[test]
    fn ray_cast_clipping_finds_the_closest_box() {
        let mut tree = DynamicTree::new();
        for i in 0..10 {
            tree.create_proxy(square(10.0 - i as f32, 0.0, 0.25), i);
        }
        let origin = Vec2::new(-1.0, 0.0);
        let translation = Vec2::new(20.0, 0.0);
        let mut closest = None;
        let mut calls = 0;
        tree.ray_cast_categories(origin, translation, u64::MAX, |id, max_fraction| {
            calls += 1;
            let fraction = segment_entry_fraction(tree.fat_aabb(id), origin, translation, max_fraction)
                .expect("the tree only reports boxes the ray reaches");
            closest = Some(tree.user_data(id));
            fraction
        });
        // The box centered at x = 1 is the first along the ray.
        assert_eq!(closest, Some(9));
        assert!(calls <= 10);
    }

    #[test]
    fn a_static_query_finds_the_static_proxies_only() {
        // A row of boxes, every third marked static, one of them marked
        // and unmarked again; the static query over the row finds exactly
        // the marked ones, and the tree stays valid throughout.
        let mut tree = DynamicTree::new();
        let ids: Vec<u32> = (0..30)
            .map(|i| tree.create_proxy(square(i as f32, 0.0, 0.4), i))
            .collect();
        for (i, &id) in ids.iter().enumerate() {
            if i % 3 == 0 {
                tree.set_static(id, true);
            }
        }
        tree.set_static(ids[4], true);
        tree.set_static(ids[4], false);
        tree.rebuild();
        tree.validate();
        let everything = Aabb::new(Vec2::splat(-100.0), Vec2::splat(100.0));
        let mut found = Vec::new();
        tree.query_static(everything, u64::MAX, |id| {
            found.push(tree.user_data(id));
            true
        });
        found.sort_unstable();
        let marked: Vec<u32> = (0..30).filter(|i| i % 3 == 0).collect();
        assert_eq!(found, marked);
        // Moved and re-inserted, a marked proxy keeps its mark.
        tree.move_proxy(ids[3], square(50.0, 5.0, 0.4));
        tree.validate();
        let mut far = Vec::new();
        tree.query_static(square(50.0, 5.0, 1.0), u64::MAX, |id| {
            far.push(tree.user_data(id));
            true
        });
        assert_eq!(far, vec![3]);
    }

    #[test]
    fn a_query_skips_the_branches_without_its_categories() {
        // Two rows of boxes, one in category 1 and one in category 1 << 40;
        // a query over both rows sees only the rows its mask takes in.
        let mut tree = DynamicTree::new();
        let mut rows = [Vec::new(), Vec::new()];
        for i in 0..50 {
            // One row given its category after it is made, one made in it.
            let id = tree.create_proxy(square(i as f32, 0.0, 0.4), i);
            tree.set_categories(id, 1);
            rows[0].push(id);
            rows[1].push(tree.create_proxy_in(square(i as f32, 1.0, 0.4), i, 1 << 40));
        }
        tree.validate();
        let everything = Aabb::new(Vec2::splat(-1.0), Vec2::new(50.0, 2.0));
        let found = |tree: &DynamicTree, mask: u64| {
            let mut ids = Vec::new();
            tree.query_categories(everything, mask, |id| {
                ids.push(id);
                true
            });
            ids.sort_unstable();
            ids
        };
        let sorted = |ids: &[u32]| {
            let mut ids = ids.to_vec();
            ids.sort_unstable();
            ids
        };
        assert_eq!(found(&tree, 1), sorted(&rows[0]));
        assert_eq!(found(&tree, 1 << 40), sorted(&rows[1]));
        assert_eq!(found(&tree, u64::MAX).len(), 100);
        assert!(found(&tree, 1 << 5).is_empty());
        // Moving the first row into category 1 << 5 moves it out of mask 1.
        for &id in &rows[0] {
            tree.set_categories(id, 1 << 5);
        }
        tree.validate();
        assert!(found(&tree, 1).is_empty());
        assert_eq!(found(&tree, 1 << 5), sorted(&rows[0]));
    }

    /// A random operation on a tree.
    #[derive(Clone, Debug)]
    pub(super) enum Op {
        Create(Aabb),
        Destroy(usize),
        Move(usize, Aabb),
        /// `enlarge_proxy`: a new box, the tree re-arranged later.
        Enlarge(usize, Aabb),
        Rebuild,
    }

    pub(super) fn arb_box() -> impl Strategy<Value = Aabb> {
        (-50.0f32..50.0, -50.0f32..50.0, 0.0f32..6.0, 0.0f32..6.0)
            .prop_map(|(x, y, w, h)| Aabb::new(Vec2::new(x, y), Vec2::new(x + w, y + h)))
    }

    fn arb_op() -> impl Strategy<Value = Op> {
        prop_oneof![
            3 => arb_box().prop_map(Op::Create),
            1 => any::<usize>().prop_map(Op::Destroy),
            2 => (any::<usize>(), arb_box()).prop_map(|(i, b)| Op::Move(i, b)),
            2 => (any::<usize>(), arb_box()).prop_map(|(i, b)| Op::Enlarge(i, b)),
            1 => Just(Op::Rebuild),
        ]
    }

    /// Mostly enlargements (some small steps from where a box was, some
    /// jumps), and now and then a rebuild, as a world's steps make them.
    pub(super) fn arb_motion() -> impl Strategy<Value = Op> {
        prop_oneof![
            6 => (any::<usize>(), -2.0f32..2.0, -2.0f32..2.0).prop_map(|(i, dx, dy)| {
                Op::Enlarge(i, Aabb::new(Vec2::new(dx, dy), Vec2::new(dx, dy)))
            }),
            2 => (any::<usize>(), arb_box()).prop_map(|(i, b)| Op::Enlarge(i, b)),
            1 => Just(Op::Rebuild),
        ]
    }

    /// Applies the operations to a tree and to a plain list of live
    /// proxies, validating the tree as it goes.
    fn build(ops: &[Op]) -> (DynamicTree, Vec<(u32, Aabb)>) {
        let mut tree = DynamicTree::new();
        let mut live: Vec<(u32, Aabb)> = Vec::new();
        for (step, op) in ops.iter().enumerate() {
            match *op {
                Op::Create(aabb) => {
                    let id = tree.create_proxy(aabb, step as u32);
                    assert!(live.iter().all(|(other, _)| *other != id));
                    live.push((id, aabb));
                }
                Op::Destroy(pick) if !live.is_empty() => {
                    let (id, _) = live.swap_remove(pick % live.len());
                    tree.destroy_proxy(id);
                }
                Op::Move(pick, aabb) if !live.is_empty() => {
                    let k = pick % live.len();
                    tree.move_proxy(live[k].0, aabb);
                    live[k].1 = aabb;
                }
                Op::Enlarge(pick, aabb) if !live.is_empty() => {
                    let k = pick % live.len();
                    tree.enlarge_proxy(live[k].0, aabb);
                    live[k].1 = aabb;
                }
                Op::Rebuild => {
                    tree.rebuild();
                    assert!(!tree.needs_rebuild());
                }
                _ => {}
            }
            if step % 16 == 0 {
                tree.validate();
            }
        }
        tree.validate();
        (tree, live)
    }

    proptest! {
        /// The slab test of an oblique segment (branches taken ahead) gives
        /// the general test's answer, bit for bit, for boxes every way
        /// round the segment: on its line, touching at a corner, flat,
        /// reached only past the clip.
        #[test]
        fn the_oblique_slab_test_answers_as_the_general_one(
            origin in (-4.0f32..4.0, -4.0f32..4.0),
            translation in (-6.0f32..6.0, -6.0f32..6.0),
            corner in (-6.0f32..6.0, -6.0f32..6.0),
            size in (0.0f32..4.0, 0.0f32..4.0),
            snap in 0u32..4,
            max_fraction in 0.0f32..1.5,
        ) {
            let segment = Segment::new(Vec2::from(origin), Vec2::from(translation));
            prop_assume!(segment.oblique);
            let mut min = Vec2::from(corner);
            // (Now and then a side through the origin or the segment's end.)
            match snap {
                1 => min.x = origin.0,
                2 => min.y = origin.1 + translation.1,
                _ => {}
            }
            let aabb = Aabb::new(min, min + Vec2::from(size));
            let fast = segment.entry(aabb, max_fraction).map(f32::to_bits);
            let general = segment.entry_along_an_axis(aabb, max_fraction).map(f32::to_bits);
            prop_assert_eq!(fast, general);
        }

        #[test]
        fn query_matches_brute_force(
            ops in prop::collection::vec(arb_op(), 0..300),
            probes in prop::collection::vec(arb_box(), 1..20),
        ) {
            let (tree, live) = build(&ops);
            prop_assert_eq!(tree.proxy_count(), live.len());
            prop_assert!(tree.height() <= balanced_height_bound(live.len()));
            for (id, aabb) in &live {
                prop_assert_eq!(tree.fat_aabb(*id), *aabb);
            }
            for probe in probes {
                prop_assert_eq!(tree_query(&tree, probe), brute_query(&live, probe));
            }
        }

        #[test]
        fn a_query_by_categories_finds_every_proxy_of_the_mask(
            ops in prop::collection::vec(arb_op(), 0..200),
            bits in prop::collection::vec(0u32..64, 200),
            moves in prop::collection::vec(arb_motion(), 0..50),
            probes in prop::collection::vec((arb_box(), 0u32..64, 0u32..64), 1..20),
        ) {
            let (mut tree, mut live) = build(&ops);
            // One category a proxy (low and high bits alike), set after the
            // proxies are placed; then more moves and a rebuild, which must
            // keep every node the union of its children (`validate`).
            let categories: Vec<u64> = (0..live.len()).map(|k| 1u64 << bits[k % bits.len()]).collect();
            for ((id, _), &category) in live.iter().zip(&categories) {
                tree.set_categories(*id, category);
            }
            tree.validate();
            for op in &moves {
                if let (Op::Enlarge(pick, aabb), false) = (op, live.is_empty()) {
                    let k = pick % live.len();
                    tree.enlarge_proxy(live[k].0, *aabb);
                    live[k].1 = *aabb;
                }
            }
            tree.rebuild();
            tree.validate();
            for (probe, bit1, bit2) in probes {
                let mask = (1u64 << bit1) | (1u64 << bit2);
                let mut found = Vec::new();
                tree.query_categories(probe, mask, |id| {
                    found.push(id);
                    true
                });
                found.sort_unstable();
                let mut expected: Vec<u32> = live
                    .iter()
                    .zip(&categories)
                    .filter(|((_, aabb), &category)| aabb.overlaps(probe) && category & mask != 0)
                    .map(|((id, _), _)| *id)
                    .collect();
                expected.sort_unstable();
                prop_assert_eq!(found, expected);
            }
        }

        #[test]
        fn a_ray_cast_by_categories_reaches_every_proxy_of_the_mask(
            ops in prop::collection::vec(arb_op(), 0..200),
            bits in prop::collection::vec(0u32..8, 200),
            rays in prop::collection::vec(
                (-60.0f32..60.0, -60.0f32..60.0, -120.0f32..120.0, -120.0f32..120.0, 0u32..8, 0u32..8),
                1..10,
            ),
        ) {
            let (mut tree, live) = build(&ops);
            let categories: Vec<u64> = (0..live.len()).map(|k| 1u64 << bits[k % bits.len()]).collect();
            for ((id, _), &category) in live.iter().zip(&categories) {
                tree.set_categories(*id, category);
            }
            for (ox, oy, dx, dy, bit1, bit2) in rays {
                let (origin, translation) = (Vec2::new(ox, oy), Vec2::new(dx, dy));
                let mask = (1u64 << bit1) | (1u64 << bit2);
                let of_mask = |id: u32| live.iter().zip(&categories).any(|((i, _), &c)| *i == id && c & mask != 0);
                // Every box of the mask the full segment touches, and none other.
                let mut hits = Vec::new();
                tree.ray_cast_categories(origin, translation, mask, |id, max_fraction| {
                    hits.push(id);
                    max_fraction
                });
                hits.sort_unstable();
                let mut expected: Vec<u32> = live
                    .iter()
                    .zip(&categories)
                    .filter(|((_, b), &c)| c & mask != 0 && segment_entry_fraction(*b, origin, translation, 1.0).is_some())
                    .map(|((id, _), _)| *id)
                    .collect();
                expected.sort_unstable();
                prop_assert_eq!(&hits, &expected);
                // Clipping to each hit finds the nearest entry of the mask.
                let (mut entries, mut all_of_mask) = (Vec::new(), true);
                tree.ray_cast_categories(origin, translation, mask, |id, max_fraction| {
                    all_of_mask &= of_mask(id);
                    let entry = segment_entry_fraction(tree.fat_aabb(id), origin, translation, max_fraction);
                    entries.push(entry);
                    // (Zero would stop the cast: clip just past it instead.)
                    entry.map_or(-1.0, |f| f.max(f32::MIN_POSITIVE))
                });
                prop_assert!(all_of_mask);
                let nearest = expected
                    .iter()
                    .filter_map(|&id| segment_entry_fraction(tree.fat_aabb(id), origin, translation, 1.0))
                    .fold(f32::INFINITY, f32::min);
                let found = entries.iter().flatten().fold(f32::INFINITY, |a, &b| a.min(b));
                prop_assert_eq!(found, nearest);
            }
        }

        #[test]
        fn ray_cast_matches_brute_force(
            ops in prop::collection::vec(arb_op(), 0..300),
            rays in prop::collection::vec(
                (-60.0f32..60.0, -60.0f32..60.0, -120.0f32..120.0, -120.0f32..120.0),
                1..10,
            ),
        ) {
            let (tree, live) = build(&ops);
            for (ox, oy, dx, dy) in rays {
                let origin = Vec2::new(ox, oy);
                let translation = Vec2::new(dx, dy);

                // Every box the full segment touches.
                let mut hits = Vec::new();
                tree.ray_cast_categories(origin, translation, u64::MAX, |id, max_fraction| {
                    hits.push(id);
                    max_fraction
                });
                hits.sort_unstable();
                let mut expected: Vec<u32> = live
                    .iter()
                    .filter(|(_, b)| segment_entry_fraction(*b, origin, translation, 1.0).is_some())
                    .map(|(id, _)| *id)
                    .collect();
                expected.sort_unstable();
                prop_assert_eq!(&hits, &expected);

                // Clipping to each hit finds the nearest entry.
                let mut nearest = f32::INFINITY;
                tree.ray_cast_categories(origin, translation, u64::MAX, |id, max_fraction| {
                    let entry = segment_entry_fraction(tree.fat_aabb(id), origin, translation, max_fraction);
                    match entry {
                        Some(fraction) => {
                            nearest = nearest.min(fraction);
                            // Zero would stop the cast, which is right: nothing is nearer.
                            fraction
                        }
                        None => -1.0,
                    }
                });
                let brute_nearest = live
                    .iter()
                    .filter_map(|(_, b)| segment_entry_fraction(*b, origin, translation, 1.0))
                    .fold(f32::INFINITY, f32::min);
                prop_assert_eq!(nearest, brute_nearest);
            }
        }
    }
}
