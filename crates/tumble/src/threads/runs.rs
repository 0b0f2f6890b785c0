//! The step's parallel loops on a [`Team`]: a slice (or three of one
//! length, or the items at a list of ascending slots) cut into runs, each
//! run a block of one stage.

use super::team::{Blocks, Team};
use std::marker::PhantomData;

/// Calls `f` with the index of each run's first item and the run, for
/// the runs of at least `min` items of `items` (about four per thread),
/// split between the team's threads.
pub(crate) fn for_each_run<T: Send>(
    team: &Team,
    items: &mut [T],
    min: usize,
    f: &(dyn Fn(usize, &mut [T]) + Sync),
) {
    let block = block_size(Some(team), items.len(), min);
    let runs = Blocks::new(items, block);
    team.run(runs.count(), &|k| {
        // SAFETY: the team calls each block index once.
        f(k * block, unsafe { runs.run(k) })
    });
}

/// [`for_each_run`] on three slices of one length, cut alike.
#[allow(clippy::type_complexity)]
pub(crate) fn for_each_run3<A: Send, B: Send, C: Send>(
    team: &Team,
    (a, b, c): (&mut [A], &mut [B], &mut [C]),
    min: usize,
    f: &(dyn Fn(usize, &mut [A], &mut [B], &mut [C]) + Sync),
) {
    assert!(
        a.len() == b.len() && b.len() == c.len(),
        "three slices of one length"
    );
    let block = block_size(Some(team), a.len(), min);
    let (ra, rb, rc) = (
        Blocks::new(a, block),
        Blocks::new(b, block),
        Blocks::new(c, block),
    );
    team.run(ra.count(), &|k| {
        // SAFETY: the team calls each block index once, and the three
        // slices are cut into the same runs.
        unsafe { f(k * block, ra.run(k), rb.run(k), rc.run(k)) }
    });
}

/// A run of [`for_each_slot_run`]: its part of the items and where the
/// part begins in them, its slots and the index of its first, and its
/// part of the outputs.
pub(crate) type SlotRun<'a, 'b, T, O> = ((&'a mut [T], usize), (&'b [u32], usize), &'a mut [O]);

/// For the items of `items` (the first of which is slot `base`) at
/// `slots` (strictly ascending) and `out` (one per slot): calls `f` on
/// each run of at least `min` slots (see
/// [`SlotRun`]), split between the team's threads. A run's part of
/// `items` runs from its first slot to the next run's first slot, so a
/// slot out of order or past the end panics (here, or in `f` when it
/// indexes its part).
pub(crate) fn for_each_slot_run<T: Send, O: Send>(
    team: &Team,
    (items, base): (&mut [T], usize),
    slots: &[u32],
    out: &mut [O],
    min: usize,
    f: &(dyn Fn(SlotRun<'_, '_, T, O>) + Sync),
) {
    assert_eq!(slots.len(), out.len(), "one output per slot");
    let block = block_size(Some(team), slots.len(), min);
    let runs = slots.len().div_ceil(block);
    let len = items.len();
    // Where run `k`'s part of the items begins (the last run's ends at
    // the end of the items).
    let start = |k: usize| {
        if k < runs {
            (slots[k * block] as usize).wrapping_sub(base)
        } else {
            len
        }
    };
    assert!(
        (0..runs).all(|k| start(k) <= start(k + 1)),
        "slots in ascending order, within the items"
    );
    let parts = Parts {
        ptr: items.as_mut_ptr(),
        _items: PhantomData,
    };
    let outs = Blocks::new(out, block);
    team.run(runs, &|k| {
        let (from, to) = (start(k), start(k + 1));
        let run_slots = &slots[k * block..((k + 1) * block).min(slots.len())];
        // SAFETY: the team calls each block index once. The runs' parts
        // `start(k)..start(k + 1)` ascend and end at `len` (checked
        // above), so they lie within the items and no two overlap; and
        // `out` is cut into runs as `slots` is.
        let (part, outs) = unsafe { (parts.part(from, to), outs.run(k)) };
        f(((part, from), (run_slots, k * block), outs));
    });
}

/// A slice handed out in parts given by their bounds.
struct Parts<'a, T> {
    ptr: *mut T,
    _items: PhantomData<&'a mut [T]>,
}

// SAFETY: as for `Blocks`: each thread gets `&mut` parts of the items (so
// they must be `Send`), and `for_each_slot_run` hands out disjoint parts,
// each once.
unsafe impl<T: Send> Sync for Parts<'_, T> {}

impl<'a, T> Parts<'a, T> {
    /// The items `from..to`.
    ///
    /// # Safety
    /// `from <= to` and `to` is within the slice; no two parts handed out
    /// overlap while in use.
    unsafe fn part(&self, from: usize, to: usize) -> &'a mut [T] {
        // SAFETY: the caller's promise.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(from), to - from) }
    }
}

/// A slice in runs and what to do with each run (given the index of its
/// first item in the slice, and the run).
pub(crate) type Part<'a, 'f, T> = (Blocks<'a, T>, &'f (dyn Fn(usize, &mut [T]) + Sync));

/// Calls `fa` on the runs of `a`, `fb` on those of `b`, and so on for
/// `c` and `d`: split between the team's threads, run by run, in one
/// stage; without a team, on this thread, each slice whole and in that
/// order (the same as its runs one after another, with no cutting: a
/// small world's colors hold a constraint or two). (One stage, not four:
/// the slices are a color's two-point batches, one-point batches, hinge
/// batches and other joints, which share no dynamic body.)
pub(crate) fn for_each4<A: Send, B: Send, C: Send, D: Send>(
    team: Option<&Team>,
    (a, fa): Part<'_, '_, A>,
    (b, fb): Part<'_, '_, B>,
    (c, fc): Part<'_, '_, C>,
    (d, fd): Part<'_, '_, D>,
) {
    let Some(team) = team else {
        // SAFETY: on this thread alone, each slice is handed out once.
        unsafe {
            fa(0, a.whole());
            fb(0, b.whole());
            fc(0, c.whole());
            fd(0, d.whole());
        }
        return;
    };
    let (na, nb, nc, nd) = (a.count(), b.count(), c.count(), d.count());
    let task = |k: usize| {
        // SAFETY: the team (or the loop below) calls each `k` once, and
        // each maps to one run of one slice.
        unsafe {
            if k < na {
                fa(a.start(k), a.run(k));
            } else if k < na + nb {
                let k = k - na;
                fb(b.start(k), b.run(k));
            } else if k < na + nb + nc {
                let k = k - na - nb;
                fc(c.start(k), c.run(k));
            } else {
                let k = k - na - nb - nc;
                fd(d.start(k), d.run(k));
            }
        }
    };
    let blocks = na + nb + nc + nd;
    if blocks > 1 {
        team.run(blocks, &task);
    } else {
        (0..blocks).for_each(task);
    }
}

/// Calls `f` on each run of `block` indices in `0..count` (the last one
/// shorter), split between the team's threads (see [`for_each4`]).
#[inline]
pub(crate) fn for_each_range(
    team: Option<&Team>,
    count: usize,
    block: usize,
    f: impl Fn(std::ops::Range<usize>) + Sync,
) {
    let block = block.max(1);
    let blocks = count.div_ceil(block);
    let task = |k: usize| f(k * block..count.min((k + 1) * block));
    match team {
        Some(team) if blocks > 1 => team.run(blocks, &task),
        _ => (0..blocks).for_each(task),
    }
}

/// The size of run that splits `len` items into about four runs per
/// thread of the team, but no runs shorter than `min` (all of them in
/// one run without a team).
pub(crate) fn block_size(team: Option<&Team>, len: usize, min: usize) -> usize {
    match team {
        Some(team) => len.div_ceil(4 * team.threads()).max(min).max(1),
        None => len.max(1),
    }
}
