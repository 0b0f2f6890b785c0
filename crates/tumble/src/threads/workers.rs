//! Worker threads for the step ([`WorldSettings::workers`]).
//!
//! A world with more than one worker owns a rayon thread pool of that
//! many threads, and runs each step inside it as one team's region (see
//! [`crate::threads::with_team`]): the step's loops over independent
//! items (the bodies to integrate, the contacts to collide, a graph
//! color's lane batches) are then split between the workers, and every
//! other line of the step runs on one of them as before. A loop called
//! with `parallel` outside such a region, or inside another loop's item,
//! runs in order on its thread. Each item is computed the same way
//! whichever worker takes it, and what the workers hand back (a smallest
//! separation) is combined exactly, so the results are the same bits for
//! every worker count. Without the `parallel` feature every loop runs on
//! the calling thread.
//!
//! [`WorldSettings::workers`]: crate::WorldSettings::workers

use super::runs::{for_each_run, for_each_run3, for_each_slot_run, SlotRun};
use super::team::driving;

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
/// workers of the step's team in runs of at least `min` items when
/// `parallel`, else in order on this thread.
#[inline]
pub(crate) fn for_each_indexed_mut<T: Send>(
    parallel: bool,
    items: &mut [T],
    min: usize,
    f: impl Fn(usize, &mut T) + Sync + Send,
) {
    let min = min.max(1);
    let run = |first: usize, run: &mut [T]| {
        for (i, x) in run.iter_mut().enumerate() {
            f(first + i, x);
        }
    };
    if parallel && items.len() >= 2 * min {
        if let Some(()) = driving(|team| team.map(|team| for_each_run(team, items, min, &run))) {
            return;
        }
    }
    run(0, items);
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
    let min = min.max(1);
    let run = |first: usize, ra: &mut [A], rb: &mut [B], rc: &mut [C]| {
        for (i, ((x, y), z)) in ra.iter_mut().zip(rb.iter_mut()).zip(rc.iter_mut()).enumerate() {
            f(first + i, x, y, z);
        }
    };
    if parallel && a.len() >= 2 * min {
        let on_team =
            driving(|team| team.map(|team| for_each_run3(team, (&mut *a, &mut *b, &mut *c), min, &run)));
        if let Some(()) = on_team {
            return;
        }
    }
    run(0, a, b, c);
}

/// Runs `main` on this thread and `beside` on another worker at the same
/// time (a helper of the step's team, see
/// [`crate::threads::Team::beside`]), and returns what each returned;
/// outside the step's region, one after the other.
#[inline]
pub(crate) fn join<A: Send, B: Send>(
    main: impl FnOnce() -> A + Send,
    beside: impl FnOnce() -> B + Send,
) -> (A, B) {
    driving(|team| match team {
        Some(team) => team.beside(main, beside),
        None => {
            let a = main();
            (a, beside())
        }
    })
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
    if parallel && slots.len() >= 2 * min {
        let run = |((part, from), (run_slots, first), outs): SlotRun<'_, '_, T, O>| {
            each_slot(
                false,
                (part, base + from),
                (run_slots, k0 + first),
                outs,
                min,
                (ahead, f),
            );
        };
        if let Some(()) =
            driving(|team| team.map(|team| for_each_slot_run(team, (items, base), slots, out, min, &run)))
        {
            return;
        }
    }
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
    use crate::threads::with_team;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Runs `f` on `threads` workers: in a team's region, as the step
    /// does, or (`region` false) on the pool outside one, where the loops
    /// run in order.
    fn on_workers(threads: usize, region: bool, f: impl FnOnce(bool) + Send) {
        let workers = Workers::new(threads);
        workers.install(|parallel| {
            if region {
                with_team(parallel, |_| f(parallel));
            } else {
                f(parallel);
            }
        });
    }

    #[test]
    fn each_listed_slot_is_visited_once_with_its_index() {
        for (threads, region) in [(1, false), (2, false), (3, false), (2, true), (3, true)] {
            let slots: Vec<u32> = (0..5000u32).filter(|i| i % 3 != 1).collect();
            let mut items = vec![0u32; 5003];
            let mut out = vec![usize::MAX; slots.len()];
            on_workers(threads, region, |parallel| {
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
        for (threads, region) in [(1, false), (2, false), (3, false), (2, true), (3, true)] {
            let slots: Vec<u32> = (0..3000u32).filter(|i| i % 4 != 3).collect();
            let mut items: Vec<(u32, bool)> = (0..3000u32).map(|i| (i, false)).collect();
            let mut out = vec![false; slots.len()];
            let seen = AtomicUsize::new(0);
            on_workers(threads, region, |parallel| {
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
        for threads in [2, 3] {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                on_workers(threads, true, |parallel| {
                    let mut items = vec![0u8; 10];
                    let mut out = vec![(); 4];
                    for_each_slot_mut(parallel, &mut items, &[4, 2, 7, 1], &mut out, 1, &|_, x, _| {
                        *x += 1
                    });
                })
            }));
            assert!(result.is_err(), "on {threads} threads");
        }
    }

    /// Every index of the plain and the triple loops is visited once,
    /// with its own items, on the pool and in a region, and a loop
    /// inside a loop's item (which runs on its thread alone) as well.
    #[test]
    fn each_index_is_visited_once_with_its_items() {
        for (threads, region) in [(1, false), (2, false), (2, true), (3, true)] {
            let n = 3001;
            let mut a: Vec<usize> = vec![0; n];
            let mut b: Vec<usize> = (0..n).collect();
            let mut c: Vec<usize> = vec![0; n];
            let mut inner = vec![0u32; 40];
            on_workers(threads, region, |parallel| {
                for_each_indexed_mut(parallel, &mut a, 16, |i, x| *x += i + 1);
                let nested = AtomicUsize::new(0);
                for_each_triple_mut(parallel, (&mut a, &mut b, &mut c), 16, |i, x, y, z| {
                    assert_eq!((*x, *y), (i + 1, i));
                    *z = *x + *y;
                    if i == 7 {
                        let mut mine = vec![0u32; 64];
                        for_each_indexed_mut(parallel, &mut mine, 1, |k, m| *m = k as u32);
                        assert!(mine.iter().enumerate().all(|(k, &m)| m == k as u32));
                        nested.fetch_add(1, Ordering::Relaxed);
                    }
                });
                assert_eq!(nested.load(Ordering::Relaxed), 1);
                for_each_indexed_mut(parallel, &mut inner, 1, |k, x| *x += k as u32);
            });
            assert!(
                c.iter().enumerate().all(|(i, &z)| z == 2 * i + 1),
                "{threads} threads"
            );
            assert!(inner.iter().enumerate().all(|(k, &x)| x == k as u32));
        }
    }

    /// `join` runs both halves once and hands back what each returned; in
    /// a region, the half beside runs while the main half publishes
    /// loops, which the driver then finishes alone or with the others,
    /// and a `join` inside the main half runs both of its own.
    #[test]
    fn join_runs_both_and_returns_their_results() {
        for (threads, region) in [(1, false), (2, false), (2, true), (3, true)] {
            on_workers(threads, region, |parallel| {
                let ran = AtomicUsize::new(0);
                let mut items = vec![1u64; 10_000];
                let (sum, beside) = join(
                    || {
                        for round in 0..20u64 {
                            for_each_indexed_mut(parallel, &mut items, 64, |i, x| *x += i as u64 + round);
                        }
                        let (inner, also) = join(|| 2, || 3);
                        assert_eq!((inner, also), (2, 3));
                        items.iter().sum::<u64>()
                    },
                    || {
                        ran.fetch_add(1, Ordering::Relaxed);
                        (0..1000u64).sum::<u64>()
                    },
                );
                let n = 10_000u64;
                assert_eq!(sum, n + 20 * (n * (n - 1) / 2) + n * (0..20).sum::<u64>());
                assert_eq!(beside, 499_500);
                assert_eq!(ran.load(Ordering::Relaxed), 1);
            });
        }
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn a_panic_beside_reaches_the_caller_after_both_halves() {
        for region in [false, true] {
            let main_done = AtomicUsize::new(0);
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                on_workers(2, region, |_| {
                    join(
                        || main_done.fetch_add(1, Ordering::Relaxed),
                        || -> () { panic!("the job beside failed") },
                    );
                })
            }));
            assert!(result.is_err(), "in a region: {region}");
            assert_eq!(main_done.load(Ordering::Relaxed), 1);
        }
    }
}
