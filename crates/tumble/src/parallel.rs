//! Worker threads for the step ([`WorldSettings::workers`]).
//!
//! A world with more than one worker owns a rayon thread pool of that
//! many threads, and runs each step inside it: the step's loops over
//! independent items (the bodies to integrate, the contacts to collide, a
//! graph colour's lane batches) are then split between the workers, and
//! every other line of the step runs on one of them as before. Each item
//! is computed the same way whichever worker takes it, and what the
//! workers hand back (a smallest separation) is combined exactly, so the
//! results are the same bits for every worker count. Without the
//! `parallel` feature every loop runs on the calling thread.
//!
//! [`WorldSettings::workers`]: crate::WorldSettings::workers

/// The most worker threads a world may have.
pub const MAX_WORKERS: usize = 64;

/// A world's worker threads: none of its own for one worker.
#[derive(Clone, Default)]
pub(crate) struct Workers {
    #[cfg(feature = "parallel")]
    pool: Option<std::sync::Arc<rayon::ThreadPool>>,
}

impl std::fmt::Debug for Workers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Workers({})", self.threads())
    }
}

impl Workers {
    /// `count` workers (at least 1). Should the system refuse the
    /// threads, the world steps on the calling thread alone, with the
    /// same results.
    pub(crate) fn new(count: usize) -> Workers {
        #[cfg(feature = "parallel")]
        if count > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(count)
                .thread_name(|i| format!("tumble-worker-{i}"))
                .build();
            if let Ok(pool) = pool {
                return Workers {
                    pool: Some(std::sync::Arc::new(pool)),
                };
            }
        }
        let _ = count;
        Workers::default()
    }

    /// How many threads the step runs on.
    pub(crate) fn threads(&self) -> usize {
        #[cfg(feature = "parallel")]
        if let Some(pool) = &self.pool {
            return pool.current_num_threads();
        }
        1
    }

    /// Runs `f` on the workers: the loops below split their items between
    /// them when called from inside `f` with `parallel` true.
    pub(crate) fn install<R: Send>(&self, f: impl FnOnce(bool) -> R + Send) -> R {
        #[cfg(feature = "parallel")]
        if let Some(pool) = &self.pool {
            return pool.install(|| f(true));
        }
        f(false)
    }
}

/// Calls `f` on each of `items` with its index: split between the
/// workers in runs of at least `min` items when `parallel`, else in order
/// on this thread.
#[inline]
pub(crate) fn for_each_indexed_mut<T: Send>(
    parallel: bool,
    items: &mut [T],
    min: usize,
    f: impl Fn(usize, &mut T) + Sync + Send,
) {
    #[cfg(feature = "parallel")]
    if parallel && items.len() >= 2 * min {
        use rayon::prelude::*;
        items
            .par_iter_mut()
            .with_min_len(min)
            .enumerate()
            .for_each(|(i, x)| f(i, x));
        return;
    }
    let _ = (parallel, min);
    items.iter_mut().enumerate().for_each(|(i, x)| f(i, x));
}

/// Calls `f` on each index and the items of `a`, `b` and `c` at it, the
/// three slices of one length (see [`for_each_indexed_mut`]).
#[inline]
pub(crate) fn for_each_triple_mut<A: Send, B: Send, C: Send>(
    parallel: bool,
    (a, b, c): (&mut [A], &mut [B], &mut [C]),
    min: usize,
    f: impl Fn(usize, &mut A, &mut B, &mut C) + Sync + Send,
) {
    debug_assert!(a.len() == b.len() && b.len() == c.len());
    #[cfg(feature = "parallel")]
    if parallel && a.len() >= 2 * min {
        use rayon::prelude::*;
        a.par_iter_mut()
            .zip(b.par_iter_mut())
            .zip(c.par_iter_mut())
            .with_min_len(min)
            .enumerate()
            .for_each(|(i, ((x, y), z))| f(i, x, y, z));
        return;
    }
    let _ = (parallel, min);
    a.iter_mut()
        .zip(b.iter_mut())
        .zip(c.iter_mut())
        .enumerate()
        .for_each(|(i, ((x, y), z))| f(i, x, y, z));
}

/// Runs `main` on this thread and `beside` on another worker of the
/// current pool as soon as one is free (on this thread after `main` if
/// none came), and returns what each returned. Without the `parallel`
/// feature, one after the other.
#[inline]
pub(crate) fn join<A: Send, B: Send>(
    main: impl FnOnce() -> A + Send,
    beside: impl FnOnce() -> B + Send,
) -> (A, B) {
    #[cfg(feature = "parallel")]
    return rayon::join(main, beside);
    #[cfg(not(feature = "parallel"))]
    {
        let a = main();
        (a, beside())
    }
}

/// How many threads the current pool has: the step's workers inside
/// [`Workers::install`], else rayon's global pool's (1 without the
/// `parallel` feature).
pub(crate) fn current_threads() -> usize {
    #[cfg(feature = "parallel")]
    return rayon::current_num_threads();
    #[cfg(not(feature = "parallel"))]
    1
}

/// Runs `main` on this thread and `helper` on `helpers` other threads of
/// the current pool at the same time, and returns when all have. `main`
/// must end what keeps the helpers going, and must not itself wait on the
/// pool (a helper not yet started may be queued behind it). Without the
/// `parallel` feature there are no helpers.
pub(crate) fn with_helpers<R: Send>(
    helpers: usize,
    helper: &(dyn Fn() + Sync),
    main: impl FnOnce() -> R + Send,
) -> R {
    // Joins, not a scope's spawns: a join's jobs live on the stack, so
    // starting the helpers allocates nothing.
    #[cfg(feature = "parallel")]
    {
        fn spread(helpers: usize, helper: &(dyn Fn() + Sync)) {
            match helpers {
                0 => {}
                1 => helper(),
                _ => {
                    rayon::join(helper, || spread(helpers - 1, helper));
                }
            }
        }
        rayon::join(main, || spread(helpers, helper)).0
    }
    #[cfg(not(feature = "parallel"))]
    {
        let _ = (helpers, helper);
        main()
    }
}

/// Calls `f` with each index `k` of `slots`, the item of `items` at slot
/// `slots[k]` and `out[k]`: split between the workers in runs of at
/// least `min` when `parallel`, else in order on this thread. `slots`
/// must be strictly ascending: the runs get their items by splitting
/// `items` at their first slots, and a slot that falls outside its run's
/// part (out of order, or past the end) panics.
pub(crate) fn for_each_slot_mut<T: Send + Sync, O: Send>(
    parallel: bool,
    items: &mut [T],
    slots: &[u32],
    out: &mut [O],
    min: usize,
    f: &(impl Fn(usize, &mut T, &mut O) + Sync),
) {
    for_each_slot_mut_ahead(parallel, items, slots, out, min, &|_: Ahead<'_, T>| {}, f);
}

/// What [`for_each_slot_mut_ahead`] shows its `ahead` callback before
/// each item: the items it may read (those of the current run, by slot)
/// and the slots still to come in the run, the current one first. A
/// caller that will wait on memory for the items to come can ask for it
/// here.
pub(crate) struct Ahead<'a, T> {
    items: &'a [T],
    base: usize,
    /// The slots still to come in this run, the current one first.
    pub rest: &'a [u32],
}

impl<T> Ahead<'_, T> {
    /// The item at `slot`, one of [`Ahead::rest`] (a reference: the item
    /// is not read until the caller reads it).
    #[inline]
    pub fn item(&self, slot: u32) -> &T {
        &self.items[slot as usize - self.base]
    }
}

/// [`for_each_slot_mut`], calling `ahead` before each item with a view
/// of the items to come in its run ([`Ahead`]).
pub(crate) fn for_each_slot_mut_ahead<T: Send + Sync, O: Send>(
    parallel: bool,
    items: &mut [T],
    slots: &[u32],
    out: &mut [O],
    min: usize,
    ahead: &(impl Fn(Ahead<'_, T>) + Sync),
    f: &(impl Fn(usize, &mut T, &mut O) + Sync),
) {
    assert_eq!(slots.len(), out.len());
    each_slot(parallel, (items, 0), (slots, 0), out, min.max(1), (ahead, f));
}

/// [`for_each_slot_mut_ahead`] on `items`, whose first is slot `base`,
/// and `slots`, whose first is index `k0`.
fn each_slot<T: Send + Sync, O: Send>(
    parallel: bool,
    (items, base): (&mut [T], usize),
    (slots, k0): (&[u32], usize),
    out: &mut [O],
    min: usize,
    (ahead, f): (
        &(impl Fn(Ahead<'_, T>) + Sync),
        &(impl Fn(usize, &mut T, &mut O) + Sync),
    ),
) {
    #[cfg(feature = "parallel")]
    if parallel && slots.len() >= 2 * min {
        let mid = slots.len() / 2;
        let cut = slots[mid] as usize - base;
        let (left, right) = items.split_at_mut(cut);
        let (left_slots, right_slots) = slots.split_at(mid);
        let (left_out, right_out) = out.split_at_mut(mid);
        rayon::join(
            || each_slot(true, (left, base), (left_slots, k0), left_out, min, (ahead, f)),
            || {
                each_slot(
                    true,
                    (right, base + cut),
                    (right_slots, k0 + mid),
                    right_out,
                    min,
                    (ahead, f),
                )
            },
        );
        return;
    }
    let _ = (parallel, min);
    for (j, (&slot, o)) in slots.iter().zip(out.iter_mut()).enumerate() {
        ahead(Ahead {
            items,
            base,
            rest: &slots[j..],
        });
        f(k0 + j, &mut items[slot as usize - base], o);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_listed_slot_is_visited_once_with_its_index() {
        for threads in [1, 2, 3] {
            let workers = Workers::new(threads);
            let slots: Vec<u32> = (0..5000u32).filter(|i| i % 3 != 1).collect();
            let mut items = vec![0u32; 5003];
            let mut out = vec![usize::MAX; slots.len()];
            workers.install(|parallel| {
                for_each_slot_mut(parallel, &mut items, &slots, &mut out, 16, &|k, item, o| {
                    *item += 1;
                    *o = k;
                })
            });
            for (i, &x) in items.iter().enumerate() {
                let listed = i < 5000 && i % 3 != 1;
                assert_eq!(x, u32::from(listed), "slot {i} on {threads} threads");
            }
            assert!(out.iter().enumerate().all(|(k, &o)| o == k));
        }
    }

    /// Before each item the look-ahead sees the slots to come in its run,
    /// the item's own first, and can read the items it names: each item
    /// holds its slot, and what the look-ahead read of the next one is
    /// checked against it. Every item is looked at before it is visited.
    #[test]
    fn the_look_ahead_sees_the_rest_of_its_run() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        for threads in [1, 2, 3] {
            let workers = Workers::new(threads);
            let slots: Vec<u32> = (0..3000u32).filter(|i| i % 4 != 3).collect();
            let mut items: Vec<(u32, bool)> = (0..3000u32).map(|i| (i, false)).collect();
            let mut out = vec![false; slots.len()];
            let seen = AtomicUsize::new(0);
            workers.install(|parallel| {
                let ahead = |view: Ahead<'_, (u32, bool)>| {
                    let first = view.rest[0];
                    assert!(view.rest.windows(2).all(|w| w[0] < w[1]));
                    assert_eq!(view.item(first).0, first);
                    assert!(
                        !view.item(first).1,
                        "slot {first} visited before it was looked ahead at"
                    );
                    if let Some(&next) = view.rest.get(1) {
                        assert_eq!(view.item(next).0, next);
                    }
                    seen.fetch_add(1, Ordering::Relaxed);
                };
                for_each_slot_mut_ahead(
                    parallel,
                    &mut items,
                    &slots,
                    &mut out,
                    16,
                    &ahead,
                    &|_, item, o| {
                        item.1 = true;
                        *o = true;
                    },
                );
            });
            assert_eq!(seen.load(Ordering::Relaxed), slots.len());
            assert!(out.iter().all(|&o| o));
        }
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn a_slot_out_of_order_panics_when_split() {
        let workers = Workers::new(2);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            workers.install(|parallel| {
                let mut items = vec![0u8; 10];
                let mut out = vec![(); 4];
                for_each_slot_mut(parallel, &mut items, &[4, 2, 7, 1], &mut out, 1, &|_, x, _| {
                    *x += 1
                });
            })
        }));
        assert!(result.is_err());
    }
}
