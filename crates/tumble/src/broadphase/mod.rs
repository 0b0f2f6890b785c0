//! Broadphase: which shapes might touch, found cheaply before the
//! narrowphase works out whether (and where) they really do.
//!
//! Each shape has a proxy in a [`DynamicTree`] whose box is the shape's
//! tight box grown by a margin (the *fat* box). A shape that moves less than
//! the margin keeps its proxy where it is: most steps change no tree node.
//! One that leaves its fat box gets a new one, stored in its leaf where it
//! is ([`DynamicTree::enlarge_proxy`]: the ancestors grow to cover it), and
//! the loosened part of the tree is re-arranged once per step
//! ([`BroadPhase::rebuild`]), instead of the proxy being taken out and
//! re-inserted on its own.
//! Proxies that were created, given new fat boxes or touched wait in a *move
//! buffer*; `update_pairs` queries the tree for each of them and reports the
//! pairs whose fat boxes overlap. Pairs of proxies that both stayed put were
//! reported before, and the world keeps their contacts.

mod tree;

pub use tree::DynamicTree;

use crate::math::{Aabb, Vec2};
use crate::settings::AABB_MARGIN;

/// A key for an unordered pair of ids: the smaller in the high 32 bits, the
/// larger in the low 32, so `pair_key(a, b) == pair_key(b, a)`.
#[inline]
pub fn pair_key(a: u32, b: u32) -> u64 {
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    ((low as u64) << 32) | high as u64
}

/// The broadphase: a [`DynamicTree`] of fat boxes and a buffer of the
/// proxies that moved since the last [`update_pairs`](Self::update_pairs).
///
/// User values are the caller's ids for the shapes (they are what
/// `update_pairs` reports) and should be unique.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BroadPhase {
    tree: DynamicTree,
    margin: f32,
    /// Proxies to query in the next `update_pairs`, each at most once.
    move_buffer: Vec<u32>,
    /// Indexed by proxy id: true while the proxy is in `move_buffer`.
    in_move_buffer: Vec<bool>,
    /// The pairs each run of moved proxies found, when the workers search
    /// them (kept so a steady search allocates nothing; not in
    /// snapshots).
    #[cfg_attr(feature = "serde", serde(skip))]
    pair_runs: Vec<Vec<(u32, u32)>>,
}

/// Runs of moved proxies the workers' pair search is cut into: a few per
/// worker, so that a run of crowded proxies does not hold up the rest.
const PAIR_RUNS: usize = 16;

impl Default for BroadPhase {
    /// A broadphase with the default margin, [`AABB_MARGIN`].
    fn default() -> Self {
        BroadPhase::new(AABB_MARGIN)
    }
}

/// The pairs of moved proxy `query_proxy` with the proxies its fat box
/// overlaps, as user values `(smaller, larger)` that `keep` accepts,
/// pushed onto `out`. A pair of two moved proxies is reported by the
/// query from the smaller proxy id only. Only the branches of the tree
/// holding a category in `mask_of(query user)` are searched: that mask
/// must take in every category `keep` could accept a pair with.
///
/// The pairs are found a batch at a time, and `hint` is told of each as
/// it is found, before `keep` is asked about any of the batch: a caller
/// whose `keep` looks the pair up in a big table can ask for its place
/// to be brought in meanwhile (see `World::update_pairs`).
fn query_pairs(
    tree: &DynamicTree,
    in_move_buffer: &[bool],
    (query_proxy, mask_of): (u32, &impl Fn(u32) -> u64),
    (hint, keep): (&impl Fn(u32, u32), &mut impl FnMut(u32, u32) -> bool),
    out: &mut Vec<(u32, u32)>,
) {
    let query_user = tree.user_data(query_proxy);
    let mask = mask_of(query_user);
    let mut batch = [(0, 0); PAIR_BATCH];
    let mut found = 0;
    let mut flush = |batch: &[(u32, u32)], out: &mut Vec<(u32, u32)>| {
        out.extend(batch.iter().filter(|&&(a, b)| keep(a, b)));
    };
    tree.query_categories(tree.fat_aabb(query_proxy), mask, |other_proxy| {
        if other_proxy == query_proxy {
            return true;
        }
        if in_move_buffer[other_proxy as usize] && other_proxy < query_proxy {
            return true;
        }
        let other_user = tree.user_data(other_proxy);
        let (a, b) = (query_user.min(other_user), query_user.max(other_user));
        if a != b {
            hint(a, b);
            batch[found] = (a, b);
            found += 1;
            if found == PAIR_BATCH {
                flush(&batch, out);
                found = 0;
            }
        }
        true
    });
    flush(&batch[..found], out);
}

/// How many pairs [`query_pairs`] finds before it asks about them.
const PAIR_BATCH: usize = 16;

impl BroadPhase {
    /// Heap bytes held by the tree and the move buffer (capacities).
    pub fn memory_bytes(&self) -> usize {
        self.tree.memory_bytes()
            + self.move_buffer.capacity() * std::mem::size_of::<u32>()
            + self.in_move_buffer.capacity() * std::mem::size_of::<bool>()
            + self
                .pair_runs
                .iter()
                .map(|r| r.capacity() * std::mem::size_of::<(u32, u32)>())
                .sum::<usize>()
    }

    /// An empty broadphase whose fat boxes are the tight ones grown by
    /// `margin` on every side. A negative or NaN margin counts as zero.
    pub fn new(margin: f32) -> BroadPhase {
        BroadPhase {
            tree: DynamicTree::new(),
            margin: margin.max(0.0),
            move_buffer: Vec::new(),
            in_move_buffer: Vec::new(),
            pair_runs: Vec::new(),
        }
    }

    /// How far fat boxes reach beyond tight ones.
    #[inline]
    pub fn margin(&self) -> f32 {
        self.margin
    }

    /// The tree of fat boxes (for a snapshot's checks and the tests).
    #[inline]
    #[cfg(any(test, feature = "serde"))]
    pub fn tree(&self) -> &DynamicTree {
        &self.tree
    }

    /// Checks a broadphase read from a snapshot: its tree
    /// ([`DynamicTree::check`]), a finite margin, and the moved proxies'
    /// list and flags agreeing, with a flag for every live proxy.
    #[cfg(feature = "serde")]
    pub(crate) fn check(&self) -> Result<(), &'static str> {
        self.tree.check()?;
        if !(self.margin.is_finite() && self.margin >= 0.0) {
            return Err("the broadphase margin is not a finite number of at least 0");
        }
        let flags = &self.in_move_buffer;
        let flagged = flags.iter().filter(|&&f| f).count();
        let listed = |p: u32| self.tree.is_proxy(p) && flags.get(p as usize) == Some(&true);
        if flagged != self.move_buffer.len() || !self.move_buffer.iter().all(|&p| listed(p)) {
            return Err("the broadphase's moved proxies do not match their flags");
        }
        let nodes = self.tree.node_count() as u32;
        if (0..nodes).any(|p| self.tree.is_proxy(p) && p as usize >= flags.len()) {
            return Err("a broadphase proxy has no moved flag");
        }
        Ok(())
    }

    /// Number of live proxies.
    #[inline]
    #[cfg(test)]
    pub fn proxy_count(&self) -> usize {
        self.tree.proxy_count()
    }

    /// Adds a proxy for a shape whose tight box is `aabb`; returns its id.
    /// The proxy is buffered, so the next `update_pairs` reports its pairs.
    #[cfg(test)]
    pub fn create_proxy(&mut self, aabb: Aabb, user: u32) -> u32 {
        self.create_proxy_with_margin(aabb, user, (self.margin, u64::MAX))
    }

    /// [`BroadPhase::create_proxy`] with this proxy's own margin (a small
    /// shape needs less room to move than a large one; a static one none)
    /// and the categories its shape belongs to (see
    /// [`BroadPhase::set_proxy_categories`]).
    pub fn create_proxy_with_margin(
        &mut self,
        aabb: Aabb,
        user: u32,
        (margin, categories): (f32, u64),
    ) -> u32 {
        let proxy_id = self
            .tree
            .create_proxy_in(aabb.expanded(margin.max(0.0)), user, categories);
        self.buffer_move(proxy_id);
        proxy_id
    }

    /// Removes a proxy; it takes no part in any later pair.
    ///
    /// # Panics
    ///
    /// If `proxy_id` is not a live proxy.
    pub fn destroy_proxy(&mut self, proxy_id: u32) {
        self.unbuffer_move(proxy_id);
        self.tree.destroy_proxy(proxy_id);
    }

    /// Tells the broadphase a shape's new tight box. When it still lies
    /// inside the proxy's fat box nothing happens and this returns `false`.
    /// Otherwise the proxy gets a new fat box around `tight_aabb` (its place
    /// in the tree is re-arranged by the next `update_pairs`), is buffered
    /// for the next `update_pairs`, and this returns `true`.
    ///
    /// # Panics
    ///
    /// If `proxy_id` is not a live proxy.
    #[cfg(test)]
    pub fn move_proxy(&mut self, proxy_id: u32, tight_aabb: Aabb) -> bool {
        self.move_proxy_with_margin(proxy_id, tight_aabb, self.margin)
    }

    /// [`BroadPhase::move_proxy`] with this proxy's own margin.
    ///
    /// # Panics
    ///
    /// If `proxy_id` is not a live proxy.
    #[cfg(test)]
    pub fn move_proxy_with_margin(&mut self, proxy_id: u32, tight_aabb: Aabb, margin: f32) -> bool {
        self.move_proxy_predictive(proxy_id, tight_aabb, margin, Vec2::ZERO)
    }

    /// [`BroadPhase::move_proxy_with_margin`] for a proxy expected to keep
    /// moving by `displacement`: a re-built fat box also reaches that far
    /// ahead, so a steadily moving shape is re-inserted in the tree every
    /// few steps instead of every step.
    ///
    /// # Panics
    ///
    /// If `proxy_id` is not a live proxy.
    pub fn move_proxy_predictive(
        &mut self,
        proxy_id: u32,
        tight_aabb: Aabb,
        margin: f32,
        displacement: Vec2,
    ) -> bool {
        assert!(
            self.tree.is_proxy(proxy_id),
            "proxy id {proxy_id} is not a live proxy"
        );
        if self.tree.fat_aabb(proxy_id).contains(tight_aabb) {
            return false;
        }
        self.enlarge_proxy(proxy_id, predictive_fat_aabb(tight_aabb, margin, displacement));
        true
    }

    /// Gives live proxy `proxy_id` the fat box `fat_aabb`, grown from
    /// [`predictive_fat_aabb`] around its shape's new box, and buffers
    /// it for the next [`BroadPhase::update_pairs`].
    pub(crate) fn enlarge_proxy(&mut self, proxy_id: u32, fat_aabb: Aabb) {
        // In place: many proxies move in a step, and one rebuild at the
        // next `update_pairs` costs less than re-inserting each of them.
        self.tree.enlarge_proxy(proxy_id, fat_aabb);
        self.buffer_move(proxy_id);
    }

    /// Buffers a proxy without moving it, so the next `update_pairs` reports
    /// all its pairs again (after a filter change, say, or a wake-up).
    ///
    /// # Panics
    ///
    /// If `proxy_id` is not a live proxy.
    pub fn touch_proxy(&mut self, proxy_id: u32) {
        assert!(
            self.tree.is_proxy(proxy_id),
            "proxy id {proxy_id} is not a live proxy"
        );
        self.buffer_move(proxy_id);
    }

    /// Sets the categories a proxy belongs to (see
    /// [`DynamicTree::set_categories`]): the world's pair search skips the
    /// branches of the tree that hold no category a moved shape collides
    /// with.
    ///
    /// # Panics
    ///
    /// If `proxy_id` is not a live proxy.
    pub fn set_proxy_categories(&mut self, proxy_id: u32, categories: u64) {
        self.tree.set_categories(proxy_id, categories);
    }

    /// Marks a proxy static or not (see [`DynamicTree::set_static`]): the
    /// world's continuous collision looks only among the static shapes.
    ///
    /// # Panics
    ///
    /// If `proxy_id` is not a live proxy.
    pub fn set_proxy_static(&mut self, proxy_id: u32, holds_static: bool) {
        self.tree.set_static(proxy_id, holds_static);
    }

    /// The proxy's fat box.
    #[inline]
    pub fn fat_aabb(&self, proxy_id: u32) -> Aabb {
        self.tree.fat_aabb(proxy_id)
    }

    /// The user value the proxy was created with.
    #[inline]
    pub fn user_data(&self, proxy_id: u32) -> u32 {
        self.tree.user_data(proxy_id)
    }

    /// True when the two proxies' fat boxes overlap.
    #[inline]
    #[cfg(test)]
    pub fn test_overlap(&self, proxy_a: u32, proxy_b: u32) -> bool {
        self.tree.fat_aabb(proxy_a).overlaps(self.tree.fat_aabb(proxy_b))
    }

    /// Lends the tree out, for [`DynamicTree::rebuild`] beside work that
    /// never reads the tree (the step's solve and moving the bodies, see
    /// `World::beside_tree_rebuild`); [`BroadPhase::return_tree`] gives it
    /// back. Until then the broadphase holds an empty tree: it must not be
    /// queried or changed.
    pub(crate) fn lend_tree(&mut self) -> DynamicTree {
        std::mem::take(&mut self.tree)
    }

    /// Re-arranges the part of the tree that enlarged proxies loosened
    /// ([`DynamicTree::rebuild`]); nothing when none did. A world on one
    /// thread calls it right after a step's enlargements; one with
    /// workers rebuilds a lent tree beside the substeps (see
    /// `World::beside_tree_rebuild`).
    pub(crate) fn rebuild(&mut self) {
        self.tree.rebuild();
    }

    /// Takes back the tree [`BroadPhase::lend_tree`] lent.
    pub(crate) fn return_tree(&mut self, tree: DynamicTree) {
        debug_assert_eq!(
            self.tree.proxy_count(),
            0,
            "a tree came back to a broadphase that kept its own"
        );
        self.tree = tree;
    }

    /// Number of proxies waiting for the next `update_pairs`.
    #[inline]
    #[cfg(test)]
    pub fn move_count(&self) -> usize {
        self.move_buffer.len()
    }

    /// Calls `callback(proxy_id)` for every proxy whose fat box overlaps
    /// `aabb`; see [`DynamicTree::query`].
    #[inline]
    pub fn query(&self, aabb: Aabb, callback: impl FnMut(u32) -> bool) {
        self.tree.query(aabb, callback);
    }

    /// [`BroadPhase::query`] over the proxies with a category in `mask`
    /// only; see [`DynamicTree::query_categories`].
    #[inline]
    pub fn query_categories(&self, aabb: Aabb, mask: u64, callback: impl FnMut(u32) -> bool) {
        self.tree.query_categories(aabb, mask, callback);
    }

    /// [`BroadPhase::query_categories`] over the proxies marked static
    /// only; see [`DynamicTree::query_static`].
    #[inline]
    pub fn query_static(&self, aabb: Aabb, mask: u64, callback: impl FnMut(u32) -> bool) {
        self.tree.query_static(aabb, mask, callback);
    }

    /// Casts a segment against the fat boxes of the proxies with a
    /// category in `mask`; see [`DynamicTree::ray_cast_categories`].
    #[inline]
    pub fn ray_cast(
        &self,
        origin: Vec2,
        translation: Vec2,
        mask: u64,
        callback: impl FnMut(u32, f32) -> f32,
    ) {
        self.tree.ray_cast_categories(origin, translation, mask, callback);
    }

    /// Appends to `out` every pair of user values `(a, b)`, `a < b`, whose
    /// proxies' fat boxes overlap and at least one of which was buffered
    /// (created, given a new fat box by `move_proxy`, or touched) since the
    /// last call; then empties the buffer.
    ///
    /// First it rebuilds whatever part of the tree moves since the last
    /// [`BroadPhase::rebuild`] loosened, so the queries run on a tight
    /// tree. The pairs depend only on the fat boxes, not on the tree's shape.
    ///
    /// Each pair appears at most once per call, even when both proxies were
    /// buffered, and the appended pairs are sorted, so the output depends
    /// only on the proxies and not on the order they moved in. Pairs that
    /// already have a contact are reported again; the caller filters them.
    /// Nothing is allocated once `out` and the internal buffers have grown
    /// to their working size.
    #[cfg(test)]
    pub fn update_pairs(&mut self, out: &mut Vec<(u32, u32)>) {
        self.update_pairs_where(out, |_, _| true);
    }

    /// [`BroadPhase::update_pairs`], keeping only the pairs `(a, b)`
    /// (`a < b`) for which `keep(a, b)` is true. Most pairs a moved proxy
    /// finds are ones the caller already knows (its contacts), and dropping
    /// them here, before they are sorted, is what keeps this cheap when many
    /// proxies move.
    #[cfg(test)]
    pub fn update_pairs_where(&mut self, out: &mut Vec<(u32, u32)>, keep: impl FnMut(u32, u32) -> bool) {
        self.tree.rebuild();
        self.search_pairs(out, (&|_| u64::MAX, &|_, _| {}), keep);
    }

    /// [`BroadPhase::update_pairs_where`], searching from each moved proxy
    /// only the categories `mask_of` its user value gives, and telling
    /// `hint` of each pair before `keep` is asked (see [`query_pairs`]).
    fn search_pairs(
        &mut self,
        out: &mut Vec<(u32, u32)>,
        (mask_of, hint): (&impl Fn(u32) -> u64, &impl Fn(u32, u32)),
        mut keep: impl FnMut(u32, u32) -> bool,
    ) {
        let first_new = out.len();
        for &query_proxy in &self.move_buffer {
            query_pairs(
                &self.tree,
                &self.in_move_buffer,
                (query_proxy, mask_of),
                (hint, &mut keep),
                out,
            );
        }
        self.finish_pairs(out, first_new);
    }

    /// [`BroadPhase::update_pairs_where`], searching from each moved proxy
    /// only the branches of the tree with a category in the mask
    /// `mask_of` gives for its user value (every category `keep` could
    /// accept a pair with: see [`DynamicTree::query_categories`]), telling
    /// `hint` of each pair
    /// found before `keep` is asked about it (a batch at a time: see
    /// [`query_pairs`]), the moved proxies' queries split between the
    /// world's workers when `parallel` (each run of proxies into its own
    /// buffer; the sort at the end makes the order the same either way).
    /// Unlike [`BroadPhase::update_pairs`] it searches the tree as it is:
    /// when to rebuild it is the world's to decide (see
    /// `World::run_stages`).
    pub(crate) fn find_pairs(
        &mut self,
        out: &mut Vec<(u32, u32)>,
        (mask_of, hint, keep): (
            impl Fn(u32) -> u64 + Sync,
            impl Fn(u32, u32) + Sync,
            impl Fn(u32, u32) -> bool + Sync,
        ),
        parallel: bool,
    ) {
        if !(parallel && self.move_buffer.len() >= 4 * PAIR_RUNS) {
            return self.search_pairs(out, (&mask_of, &hint), keep);
        }
        let first_new = out.len();
        self.pair_runs.resize_with(PAIR_RUNS, Vec::new);
        let run = self.move_buffer.len().div_ceil(PAIR_RUNS);
        let (tree, in_move_buffer, moved) = (&self.tree, &self.in_move_buffer, &self.move_buffer);
        crate::threads::for_each_indexed_mut(true, &mut self.pair_runs, 1, |k, found| {
            found.clear();
            let end = ((k + 1) * run).min(moved.len());
            let mut keep = &keep;
            for &query_proxy in moved.get(k * run..end).unwrap_or(&[]) {
                query_pairs(
                    tree,
                    in_move_buffer,
                    (query_proxy, &mask_of),
                    (&hint, &mut keep),
                    found,
                );
            }
        });
        for found in &self.pair_runs {
            out.extend_from_slice(found);
        }
        self.finish_pairs(out, first_new);
    }

    /// Empties the move buffer and sorts the pairs found from `first_new`
    /// on (a deterministic order), dropping repeats.
    fn finish_pairs(&mut self, out: &mut Vec<(u32, u32)>, first_new: usize) {
        for &proxy_id in &self.move_buffer {
            self.in_move_buffer[proxy_id as usize] = false;
        }
        self.move_buffer.clear();

        // Sort for a deterministic order; drop repeats (possible only when
        // two proxies share a user value).
        let new_pairs = &mut out[first_new..];
        new_pairs.sort_unstable();
        let mut kept = first_new;
        for read in first_new..out.len() {
            if kept == first_new || out[read] != out[kept - 1] {
                out[kept] = out[read];
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    fn buffer_move(&mut self, proxy_id: u32) {
        let slot = proxy_id as usize;
        if slot >= self.in_move_buffer.len() {
            self.in_move_buffer.resize(slot + 1, false);
        }
        if !self.in_move_buffer[slot] {
            self.in_move_buffer[slot] = true;
            self.move_buffer.push(proxy_id);
        }
    }

    fn unbuffer_move(&mut self, proxy_id: u32) {
        let slot = proxy_id as usize;
        if self.in_move_buffer.get(slot) == Some(&true) {
            self.in_move_buffer[slot] = false;
            if let Some(position) = self.move_buffer.iter().position(|&id| id == proxy_id) {
                self.move_buffer.swap_remove(position);
            }
        }
    }
}

/// The fat box [`BroadPhase::move_proxy_predictive`] gives a proxy that
/// left its box: the shape's box `tight_aabb` grown by `margin`, and
/// stretched by `displacement` (where it is heading) when that is finite.
pub(crate) fn predictive_fat_aabb(tight_aabb: Aabb, margin: f32, displacement: Vec2) -> Aabb {
    let mut fat = tight_aabb.expanded(margin.max(0.0));
    if displacement.is_finite() {
        fat.min += displacement.min(Vec2::ZERO);
        fat.max += displacement.max(Vec2::ZERO);
    }
    fat
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tight_box(x: f32, y: f32, w: f32, h: f32) -> Aabb {
        Aabb::new(Vec2::new(x, y), Vec2::new(x + w, y + h))
    }

    fn arb_tight_box() -> impl Strategy<Value = Aabb> {
        (-20.0f32..20.0, -20.0f32..20.0, 0.0f32..3.0, 0.0f32..3.0)
            .prop_map(|(x, y, w, h)| tight_box(x, y, w, h))
    }

    /// Every overlapping pair of fat boxes with at least one proxy in
    /// `moved`, as sorted user pairs.
    fn brute_pairs(broadphase: &BroadPhase, proxies: &[u32], moved: &[bool]) -> Vec<(u32, u32)> {
        let mut pairs = Vec::new();
        for (i, &a) in proxies.iter().enumerate() {
            for (j, &b) in proxies.iter().enumerate().skip(i + 1) {
                if (moved[i] || moved[j]) && broadphase.test_overlap(a, b) {
                    let (ua, ub) = (broadphase.user_data(a), broadphase.user_data(b));
                    pairs.push((ua.min(ub), ua.max(ub)));
                }
            }
        }
        pairs.sort_unstable();
        pairs
    }

    #[test]
    fn two_overlapping_proxies_pair_once_until_one_moves() {
        let mut broadphase = BroadPhase::new(0.1);
        broadphase.create_proxy(Aabb::new(Vec2::ZERO, Vec2::ONE), 20);
        broadphase.create_proxy(Aabb::new(Vec2::new(1.1, 0.0), Vec2::new(2.0, 1.0)), 10);
        let mut pairs = Vec::new();
        broadphase.update_pairs(&mut pairs);
        assert_eq!(pairs, [(10, 20)]); // the fat boxes overlap
        pairs.clear();
        broadphase.update_pairs(&mut pairs);
        assert!(pairs.is_empty()); // nothing moved since
    }

    #[test]
    fn update_pairs_where_keeps_only_what_it_is_told() {
        let mut broadphase = BroadPhase::new(0.1);
        for (user, x) in [(1, 0.0), (2, 0.5), (3, 1.0)] {
            broadphase.create_proxy(Aabb::new(Vec2::new(x, 0.0), Vec2::new(x + 0.6, 1.0)), user);
        }
        let mut pairs = Vec::new();
        broadphase.update_pairs_where(&mut pairs, |a, b| (a, b) != (1, 2));
        assert_eq!(pairs, [(2, 3)]); // (1, 2) overlaps too, but was not kept
    }

    #[test]
    fn pair_key_is_symmetric_and_ordered() {
        assert_eq!(pair_key(1, 2), pair_key(2, 1));
        assert_eq!(pair_key(0, u32::MAX), u32::MAX as u64);
        assert_eq!(pair_key(5, 5), (5u64 << 32) | 5);
        assert!(pair_key(1, 9) < pair_key(2, 3));
    }

    #[test]
    fn fat_box_is_the_tight_box_grown_by_the_margin() {
        let mut broadphase = BroadPhase::default();
        assert_eq!(broadphase.margin(), AABB_MARGIN);
        let tight = tight_box(0.0, 0.0, 1.0, 2.0);
        let id = broadphase.create_proxy(tight, 3);
        assert_eq!(broadphase.fat_aabb(id), tight.expanded(AABB_MARGIN));
        assert_eq!(BroadPhase::new(-1.0).margin(), 0.0);
        assert_eq!(BroadPhase::new(f32::NAN).margin(), 0.0);
    }

    #[test]
    fn small_moves_keep_the_fat_box_and_report_nothing() {
        let mut broadphase = BroadPhase::new(0.1);
        let a = broadphase.create_proxy(tight_box(0.0, 0.0, 1.0, 1.0), 0);
        let b = broadphase.create_proxy(tight_box(1.05, 0.0, 1.0, 1.0), 1);
        let mut pairs = Vec::new();
        broadphase.update_pairs(&mut pairs);
        assert_eq!(pairs, [(0, 1)]);

        let fat_a = broadphase.fat_aabb(a);
        for step in 1..=9 {
            let dx = 0.01 * step as f32;
            assert!(!broadphase.move_proxy(a, tight_box(dx, -dx, 1.0, 1.0)));
            assert_eq!(broadphase.fat_aabb(a), fat_a);
        }
        assert_eq!(broadphase.move_count(), 0);
        pairs.clear();
        broadphase.update_pairs(&mut pairs);
        assert!(pairs.is_empty());

        // Leaving the fat box re-fattens around the new box; the tree is
        // loose until the next `update_pairs` rebuilds it.
        let far = tight_box(0.5, 0.0, 1.0, 1.0);
        assert!(broadphase.move_proxy(a, far));
        assert_eq!(broadphase.fat_aabb(a), far.expanded(0.1));
        broadphase.tree().validate();
        assert!(broadphase.tree().needs_rebuild());
        broadphase.update_pairs(&mut pairs);
        assert!(!broadphase.tree().needs_rebuild());
        assert_eq!(pairs, [(0, 1)]);
        assert!(broadphase.test_overlap(a, b));
        broadphase.tree().validate();
    }

    #[test]
    fn a_pair_that_both_moved_is_reported_once() {
        let mut broadphase = BroadPhase::new(0.0);
        let a = broadphase.create_proxy(tight_box(0.0, 0.0, 1.0, 1.0), 4);
        let b = broadphase.create_proxy(tight_box(10.0, 0.0, 1.0, 1.0), 2);
        let mut pairs = Vec::new();
        broadphase.update_pairs(&mut pairs);
        assert!(pairs.is_empty());
        broadphase.move_proxy(a, tight_box(5.0, 0.0, 1.0, 1.0));
        broadphase.move_proxy(b, tight_box(5.5, 0.0, 1.0, 1.0));
        broadphase.touch_proxy(a); // already buffered: no second entry
        assert_eq!(broadphase.move_count(), 2);
        broadphase.update_pairs(&mut pairs);
        assert_eq!(pairs, [(2, 4)]);
    }

    #[test]
    fn touching_reports_existing_overlaps_again() {
        let mut broadphase = BroadPhase::new(0.1);
        let a = broadphase.create_proxy(tight_box(0.0, 0.0, 1.0, 1.0), 0);
        broadphase.create_proxy(tight_box(0.5, 0.5, 1.0, 1.0), 1);
        broadphase.create_proxy(tight_box(-0.5, 0.5, 1.0, 1.0), 2);
        broadphase.create_proxy(tight_box(9.0, 9.0, 1.0, 1.0), 3);
        let mut pairs = Vec::new();
        broadphase.update_pairs(&mut pairs);
        assert_eq!(pairs, [(0, 1), (0, 2), (1, 2)]);
        pairs.clear();
        broadphase.touch_proxy(a);
        broadphase.update_pairs(&mut pairs);
        assert_eq!(pairs, [(0, 1), (0, 2)]);
    }

    #[test]
    fn update_pairs_appends_after_existing_entries() {
        let mut broadphase = BroadPhase::new(0.1);
        broadphase.create_proxy(tight_box(0.0, 0.0, 1.0, 1.0), 8);
        broadphase.create_proxy(tight_box(0.5, 0.0, 1.0, 1.0), 7);
        let mut pairs = vec![(100, 200)];
        broadphase.update_pairs(&mut pairs);
        assert_eq!(pairs, [(100, 200), (7, 8)]);
    }

    #[test]
    fn destroyed_proxies_are_gone() {
        let mut broadphase = BroadPhase::new(0.1);
        let a = broadphase.create_proxy(tight_box(0.0, 0.0, 1.0, 1.0), 0);
        let b = broadphase.create_proxy(tight_box(0.5, 0.0, 1.0, 1.0), 1);
        let c = broadphase.create_proxy(tight_box(0.0, 0.5, 1.0, 1.0), 2);
        // `b` is still buffered when it is destroyed.
        broadphase.destroy_proxy(b);
        let mut pairs = Vec::new();
        broadphase.update_pairs(&mut pairs);
        assert_eq!(pairs, [(0, 2)]);

        let mut found = Vec::new();
        broadphase.query(tight_box(-10.0, -10.0, 20.0, 20.0), |id| {
            found.push(id);
            true
        });
        found.sort_unstable();
        assert_eq!(found, [a, c]);

        // A new proxy may reuse the id; it must not inherit anything.
        let d = broadphase.create_proxy(tight_box(50.0, 50.0, 1.0, 1.0), 3);
        pairs.clear();
        broadphase.update_pairs(&mut pairs);
        assert!(pairs.is_empty(), "{pairs:?}");
        broadphase.destroy_proxy(d);
        broadphase.tree().validate();
        assert_eq!(broadphase.proxy_count(), 2);
    }

    #[test]
    fn steady_state_does_not_grow_buffers() {
        let mut broadphase = BroadPhase::new(0.1);
        let ids: Vec<u32> = (0..64)
            .map(|i| broadphase.create_proxy(tight_box((i % 8) as f32, (i / 8) as f32, 0.9, 0.9), i))
            .collect();
        let mut pairs = Vec::new();
        broadphase.update_pairs(&mut pairs);
        let (mut cap_pairs, mut cap_moves, mut cap_flags, mut cap_nodes, mut tree_bytes) = (0, 0, 0, 0, 0);
        for step in 0..50 {
            if step == 2 {
                // Warmed up: the rebuild's buffers have their working size.
                (cap_pairs, cap_moves, cap_flags, cap_nodes, tree_bytes) = (
                    pairs.capacity(),
                    broadphase.move_buffer.capacity(),
                    broadphase.in_move_buffer.capacity(),
                    broadphase.tree.node_count(),
                    broadphase.tree.memory_bytes(),
                );
            }
            pairs.clear();
            let wobble = if step % 2 == 0 { 0.5 } else { -0.5 };
            for (k, &id) in ids.iter().enumerate() {
                let i = k as f32;
                broadphase.move_proxy(id, tight_box(i % 8.0 + wobble, (i / 8.0).floor(), 0.9, 0.9));
            }
            broadphase.update_pairs(&mut pairs);
        }
        assert_eq!(pairs.capacity(), cap_pairs);
        assert_eq!(broadphase.move_buffer.capacity(), cap_moves);
        assert_eq!(broadphase.in_move_buffer.capacity(), cap_flags);
        assert_eq!(broadphase.tree.node_count(), cap_nodes);
        assert_eq!(broadphase.tree.memory_bytes(), tree_bytes);
        broadphase.tree().validate();
    }

    proptest! {
        #[test]
        fn first_update_finds_every_overlapping_pair(
            boxes in prop::collection::vec(arb_tight_box(), 0..120),
        ) {
            let mut broadphase = BroadPhase::new(0.1);
            // Users in reverse order, so user order differs from id order.
            let n = boxes.len() as u32;
            let proxies: Vec<u32> = boxes
                .iter()
                .enumerate()
                .map(|(i, b)| broadphase.create_proxy(*b, n - i as u32))
                .collect();
            let mut pairs = Vec::new();
            broadphase.update_pairs(&mut pairs);
            let all_moved = vec![true; proxies.len()];
            prop_assert_eq!(&pairs, &brute_pairs(&broadphase, &proxies, &all_moved));
            prop_assert!(pairs.windows(2).all(|w| w[0] < w[1]));
            prop_assert!(pairs.iter().all(|(a, b)| a < b));
        }

        #[test]
        fn later_updates_find_the_pairs_of_what_moved(
            boxes in prop::collection::vec(arb_tight_box(), 1..80),
            moves in prop::collection::vec((any::<usize>(), -3.0f32..3.0, -3.0f32..3.0), 0..40),
            touches in prop::collection::vec(any::<usize>(), 0..4),
        ) {
            let mut broadphase = BroadPhase::new(0.1);
            let mut tight: Vec<Aabb> = boxes.clone();
            let proxies: Vec<u32> = boxes
                .iter()
                .enumerate()
                .map(|(i, b)| broadphase.create_proxy(*b, i as u32))
                .collect();
            let mut pairs = Vec::new();
            broadphase.update_pairs(&mut pairs);
            pairs.clear();

            let mut moved = vec![false; proxies.len()];
            for (pick, dx, dy) in moves {
                let k = pick % proxies.len();
                // Mostly small moves, which should stay inside the margin.
                let scale = if pick % 3 == 0 { 1.0 } else { 0.01 };
                let offset = Vec2::new(dx, dy) * scale;
                tight[k] = Aabb::new(tight[k].min + offset, tight[k].max + offset);
                let fat_before = broadphase.fat_aabb(proxies[k]);
                let reinserted = broadphase.move_proxy(proxies[k], tight[k]);
                prop_assert_eq!(reinserted, !fat_before.contains(tight[k]));
                if !reinserted {
                    prop_assert_eq!(broadphase.fat_aabb(proxies[k]), fat_before);
                }
                prop_assert!(broadphase.fat_aabb(proxies[k]).contains(tight[k]));
                moved[k] |= reinserted;
            }
            for pick in touches {
                let k = pick % proxies.len();
                broadphase.touch_proxy(proxies[k]);
                moved[k] = true;
            }
            broadphase.update_pairs(&mut pairs);
            prop_assert_eq!(&pairs, &brute_pairs(&broadphase, &proxies, &moved));
            prop_assert_eq!(broadphase.move_count(), 0);
            broadphase.tree().validate();
        }
    }
}
