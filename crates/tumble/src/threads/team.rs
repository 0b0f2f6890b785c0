//! The step's workers as one team: a parallel region that lasts the
//! whole step, in which the calling thread runs the step top-down and
//! hands each parallel loop (a stage) to the others by publishing it in
//! one atomic word, with no thread pool hand-over per loop, and one job
//! at a time to run beside the stages ([`Team::beside`]: the broadphase
//! tree's rebuild). Between stages the helpers spin: a worker that goes
//! to sleep between two short loops (tens of microseconds) takes longer
//! to wake, on a virtual machine especially, than such a loop takes, so
//! two threads would run it slower than one; a spinning helper halves it.
//!
//! A stage is a count of blocks and a function of the block index. The
//! thread that drives the step publishes it ([`Team::run`]) and then
//! takes blocks itself; the helpers, spinning between stages, take blocks
//! too, so each block runs exactly once. The blocks are dealt out in
//! contiguous runs, one per thread (its *home*): each thread takes its
//! own run's blocks first, in order, then takes what is left of the
//! others'. Each claim is a compare-exchange on the home's word, which
//! only a thread that has run out of its own work ever shares. So a
//! thread mostly works alone on its own cache line, and it gets the same
//! part of every color every substep: the bodies it wrote in the last
//! pass are still in its cache. This is how Box2D v3 runs its solver
//! stages (`b2ExecuteMainStage` in its `solver.c`: each worker starts at
//! its own share of the blocks).
//!
//! The driver returns when every block is done, so between two stages
//! all of the first stage's writes are visible to every thread (each
//! helper adds the blocks it finished to a count with release, the
//! driver reads the count with acquire, and publishes the next stage
//! with release). What a block computes never depends on which thread
//! takes it, so the step's results are the same bits for any number of
//! workers.

use std::any::Any;
use std::cell::{Cell, UnsafeCell};
use std::marker::PhantomData;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;

/// A stage's function: called once per block index.
type Task<'a> = &'a (dyn Fn(usize) + Sync);

/// Bits of a home's word: the stage's generation, one past the home's
/// last block, and the next block to claim. [`Team::word`] holds the
/// generation alone, in the same bits.
const GENERATION_SHIFT: u32 = 40;
const COUNT_SHIFT: u32 = 20;
const FIELD: u64 = (1 << COUNT_SHIFT) - 1;
/// The most blocks a stage may have.
const MAX_BLOCKS: usize = FIELD as usize;
/// Generations wrap within one bit less than their field, so no stage's
/// word is ever [`DONE`].
const GENERATIONS: u64 = (1 << (63 - GENERATION_SHIFT)) - 1;
/// [`Team::word`] once the region is over: the helpers leave.
const DONE: u64 = u64::MAX;
/// The most homes (runs of a stage's blocks); threads beyond as many
/// share them.
const MAX_HOMES: usize = 16;

/// Spins of a waiting thread before it starts yielding its core (to the
/// driver, should the system have put both on one).
const SPINS_BEFORE_YIELD: u32 = 1 << 12;

/// An atomic word on a cache line of its own: the threads' claims on one
/// home, and their spinning on the stage word, do not slow the others.
#[repr(align(64))]
struct Line<T>(T);

/// The step's threads: the driver (the thread that called
/// [`with_team`]) and the helpers that run the stages it publishes.
pub(crate) struct Team {
    /// The stage on offer: its generation (see the shifts above), or
    /// [`DONE`].
    word: Line<AtomicU64>,
    /// Per home, the current stage's run of blocks still to claim:
    /// generation, end and next (see the shifts above).
    homes: [Line<AtomicU64>; MAX_HOMES],
    /// Blocks of the current stage the helpers finished.
    done: Line<AtomicU32>,
    /// Helpers that have joined the region: each takes the next home.
    joined: AtomicU32,
    /// The current stage's function, written by the driver before it
    /// publishes the stage and read by a helper only once it has claimed
    /// one of the stage's blocks.
    task: UnsafeCell<Option<Task<'static>>>,
    /// What the stage's first block to panic (on any thread) panicked
    /// with, for the driver to go on with once the stage is over.
    failed: Mutex<Option<Box<dyn Any + Send>>>,
    /// Threads in the team, the driver included.
    threads: usize,
    /// The job offered beside the stages ([`Team::beside`]): written by
    /// the driver before it offers the job, read by the helper that
    /// takes it.
    job: UnsafeCell<Option<Job<'static>>>,
    /// Where the job is: [`NO_JOB`], [`OFFERED`], [`TAKEN`] or [`JOB_DONE`].
    job_state: Line<AtomicU32>,
}

/// A job run once beside the stages.
type Job<'a> = &'a (dyn Fn() + Sync);

/// [`Team::job_state`]: no job.
const NO_JOB: u32 = 0;
/// [`Team::job_state`]: the job waits for a thread.
const OFFERED: u32 = 1;
/// [`Team::job_state`]: a helper runs it.
const TAKEN: u32 = 2;
/// [`Team::job_state`]: the helper finished it.
const JOB_DONE: u32 = 3;

// SAFETY: the team's non-`Sync` fields are `task` and `job`. `job` is
// written by the driver only while no job is offered (`job_state` is
// `NO_JOB`: no helper reads it), and it is offered with release; a helper
// reads it only after taking it from `OFFERED` (acquire), and the driver
// clears it only once the job is done (`JOB_DONE`, acquire) or taken back.
// The driver writes `task` only between stages: after every block of the last stage is done
// (so no helper is still calling the old function: a helper calls it only
// inside a block it claimed) and before the next stage is published in
// `word` with release. A helper claims a block only of the stage whose
// publication it read from `word` with acquire (the home's generation
// must match it), and reads the task only after that claim; the driver
// cannot write it again until that block is done. So a read and a write
// never overlap, and every read sees the write of the stage whose block
// it claimed.
unsafe impl Sync for Team {}

impl Team {
    fn new(threads: usize) -> Team {
        Team {
            word: Line(AtomicU64::new(0)),
            homes: std::array::from_fn(|_| Line(AtomicU64::new(0))),
            done: Line(AtomicU32::new(0)),
            joined: AtomicU32::new(0),
            task: UnsafeCell::new(None),
            failed: Mutex::new(None),
            threads,
            job: UnsafeCell::new(None),
            job_state: Line(AtomicU32::new(NO_JOB)),
        }
    }

    /// How many threads run the stages, the driver included.
    pub(crate) fn threads(&self) -> usize {
        self.threads
    }

    /// How many homes a stage's blocks are dealt into.
    #[inline]
    fn home_count(&self) -> usize {
        self.threads.min(MAX_HOMES)
    }

    /// Runs `task` on every block index in `0..blocks`, each exactly once,
    /// split between the team's threads, and returns when all are done.
    /// Called by the driver only (the step's code between stages).
    pub(crate) fn run(&self, blocks: usize, task: &(dyn Fn(usize) + Sync)) {
        assert!(blocks <= MAX_BLOCKS, "a stage of {blocks} blocks");
        if blocks <= 1 {
            // Nothing to share: no one is woken.
            (0..blocks).for_each(task);
            return;
        }
        // SAFETY: the lifetime is widened only for the time of this call:
        // the task is cleared before it returns, and every call of it (a
        // claimed block) is finished before the helpers' count and the
        // driver's own reach `blocks`, which this call waits for. No other
        // thread writes `task` (the driver is the only thread calling
        // `run`), and no helper reads it now: the last stage's blocks are
        // all done (see the `Sync` comment).
        unsafe {
            *self.task.get() = Some(std::mem::transmute::<Task<'_>, Task<'static>>(task));
        }
        // A parallel loop inside a block runs on its thread alone.
        let _nested = Aside::new();
        let generation = ((self.word.0.load(Ordering::Relaxed) >> GENERATION_SHIFT) + 1) & GENERATIONS;
        self.done.0.store(0, Ordering::Relaxed);
        // Each home gets its share of the blocks. (Relaxed: a helper
        // reads a home only for the generation it saw published in
        // `word`, whose release below orders these stores before it.)
        let homes = self.home_count();
        for (h, home) in self.homes[..homes].iter().enumerate() {
            let (start, end) = (h * blocks / homes, (h + 1) * blocks / homes);
            home.0.store(
                (generation << GENERATION_SHIFT) | ((end as u64) << COUNT_SHIFT) | start as u64,
                Ordering::Relaxed,
            );
        }
        self.word
            .0
            .store(generation << GENERATION_SHIFT, Ordering::Release);
        // A block that panics here is counted done like any other, and
        // the panic goes on once the stage is over: the task must outlive
        // the blocks the helpers are running.
        let ran = self.work(0, generation, &mut |k| self.run_block(task, k));
        let mut spins = 0;
        while self.done.0.load(Ordering::Acquire) as usize + ran != blocks {
            wait(&mut spins);
        }
        // SAFETY: every block is done: no helper calls or reads the task.
        unsafe {
            *self.task.get() = None;
        }
        if let Some(payload) = self.failed.lock().map(|mut f| f.take()).unwrap_or(None) {
            resume_unwind(payload);
        }
    }

    /// Runs block `k` of `task`, keeping the first panic of the stage (on
    /// any thread) for the driver to go on with once the stage is over.
    #[inline]
    fn run_block(&self, task: Task<'_>, k: usize) {
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| task(k))) {
            if let Ok(mut failed) = self.failed.lock() {
                failed.get_or_insert(payload);
            }
        }
    }

    /// Claims and runs (by `run`) blocks of stage `generation`: those of
    /// home `me` first, then what is left of the others', in turn.
    /// Returns how many it ran.
    #[inline]
    fn work(&self, me: usize, generation: u64, run: &mut dyn FnMut(usize)) -> usize {
        let homes = self.home_count();
        let mut ran = 0;
        for h in (me..homes).chain(0..me) {
            while let Some(k) = self.claim(h, generation) {
                run(k);
                ran += 1;
            }
        }
        ran
    }

    /// Claims the next block of home `h` in stage `generation`, if any is
    /// left.
    #[inline]
    fn claim(&self, h: usize, generation: u64) -> Option<usize> {
        let home = &self.homes[h].0;
        let mut word = home.load(Ordering::Acquire);
        loop {
            let (end, next) = ((word >> COUNT_SHIFT) & FIELD, word & FIELD);
            if word >> GENERATION_SHIFT != generation || next >= end {
                return None;
            }
            match home.compare_exchange_weak(word, word + 1, Ordering::Acquire, Ordering::Acquire) {
                Ok(_) => return Some(next as usize),
                Err(now) => word = now,
            }
        }
    }

    /// A helper's life: takes the blocks of each stage the driver
    /// publishes, its own home's first, until the region is over.
    fn help(&self) {
        let me = (self.joined.fetch_add(1, Ordering::Relaxed) as usize + 1) % self.home_count();
        let mut seen = 0;
        let mut spins = 0;
        loop {
            self.take_job();
            let word = self.word.0.load(Ordering::Acquire);
            if word == DONE {
                return;
            }
            let generation = word >> GENERATION_SHIFT;
            if generation == seen {
                wait(&mut spins);
                continue;
            }
            seen = generation;
            spins = 0;
            let ran = self.work(me, generation, &mut |k| {
                // SAFETY: the claim was of the stage published in `word`
                // (acquire), and the driver keeps its task until this
                // block is done (the `Sync` comment).
                let task = unsafe { *self.task.get() };
                if let Some(task) = task {
                    self.run_block(task, k);
                }
            });
            if ran > 0 {
                self.done.0.fetch_add(ran as u32, Ordering::Release);
            }
        }
    }
}

impl Team {
    /// Runs `main` on this thread (the driver's) and `job` on a helper,
    /// at the same time, and returns what each returned: the helper that
    /// takes the job leaves the stages `main` publishes meanwhile to the
    /// others (a stage never waits for it: the driver takes every block
    /// no helper takes), and joins them again once the job is done. If no
    /// helper has taken the job when `main` returns, the driver runs it;
    /// and a `beside` inside `main`'s runs its own two one after the other.
    pub(crate) fn beside<A, B: Send>(
        &self,
        main: impl FnOnce() -> A,
        job: impl FnOnce() -> B + Send,
    ) -> (A, B) {
        // Only the driver offers a job, and only its `TakeBack` puts the
        // state back to `NO_JOB`: any other state is an outer call's job.
        if self.job_state.0.load(Ordering::Relaxed) != NO_JOB {
            let a = main();
            return (a, job());
        }
        let job = Mutex::new(Some(job));
        let out = Mutex::new(None);
        let run = || {
            let job = job.lock().ok().and_then(|mut j| j.take());
            if let Some(job) = job {
                let b = job();
                if let Ok(mut out) = out.lock() {
                    *out = Some(b);
                }
            }
        };
        let run: Job<'_> = &run;
        // SAFETY: the lifetime is widened only until `back` is dropped
        // (below, or while unwinding from `main`), which waits for a
        // helper running the job to finish it, and clears the job; no
        // helper reads `job` once the state has left `OFFERED` (the `Sync`
        // comment). The state is `NO_JOB` here (checked above): no job of
        // an outer call is overwritten.
        unsafe {
            *self.job.get() = Some(std::mem::transmute::<Job<'_>, Job<'static>>(run));
        }
        self.job_state.0.store(OFFERED, Ordering::Release);
        let back = TakeBack(self);
        let a = main();
        drop(back);
        let b = out
            .into_inner()
            .ok()
            .flatten()
            .expect("the job beside ran to its end (a panic in it goes on in the driver)");
        (a, b)
    }

    /// A helper takes the offered job, if any, and runs it.
    fn take_job(&self) {
        if self.job_state.0.load(Ordering::Relaxed) != OFFERED {
            return;
        }
        if self
            .job_state
            .0
            .compare_exchange(OFFERED, TAKEN, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
        {
            // SAFETY: taken from `OFFERED` with acquire: the driver wrote
            // the job before offering it and keeps it until `JOB_DONE`.
            let job = unsafe { *self.job.get() };
            if let Some(job) = job {
                if let Err(payload) = catch_unwind(AssertUnwindSafe(job)) {
                    if let Ok(mut failed) = self.failed.lock() {
                        failed.get_or_insert(payload);
                    }
                }
            }
            self.job_state.0.store(JOB_DONE, Ordering::Release);
        }
    }
}

/// Ends [`Team::beside`]'s job when dropped: takes it back and runs it
/// on the driver if no helper took it, else waits for the helper to
/// finish it; then clears it, and goes on with a panic of the job.
struct TakeBack<'a>(&'a Team);

impl Drop for TakeBack<'_> {
    fn drop(&mut self) {
        let team = self.0;
        let state = &team.job_state.0;
        if state
            .compare_exchange(OFFERED, TAKEN, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
        {
            // SAFETY: the driver wrote the job, and now holds it alone.
            if let Some(job) = unsafe { *team.job.get() } {
                if !std::thread::panicking() {
                    job();
                }
            }
        } else {
            let mut spins = 0;
            while state.load(Ordering::Acquire) != JOB_DONE {
                wait(&mut spins);
            }
        }
        // SAFETY: the job is done (or was never run) and no helper can
        // take it: the state is not `OFFERED`.
        unsafe {
            *team.job.get() = None;
        }
        state.store(NO_JOB, Ordering::Relaxed);
        if !std::thread::panicking() {
            if let Some(payload) = team.failed.lock().map(|mut f| f.take()).unwrap_or(None) {
                resume_unwind(payload);
            }
        }
    }
}

/// One turn of a wait loop: spin, then yield once spun long enough.
#[inline]
fn wait(spins: &mut u32) {
    if *spins < SPINS_BEFORE_YIELD {
        *spins += 1;
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}

thread_local! {
    /// The team whose region this thread drives, while it is in no stage
    /// of it (null otherwise).
    static DRIVING: Cell<*const Team> = const { Cell::new(std::ptr::null()) };
}

/// Runs `f` with the team whose region this thread drives (see
/// [`with_team`]), or with none: on any other thread, outside a region,
/// and inside a block of a stage (a parallel loop there runs on its
/// thread alone).
pub(crate) fn driving<R>(f: impl FnOnce(Option<&Team>) -> R) -> R {
    let team = DRIVING.with(Cell::get);
    // SAFETY: `DRIVING` holds a team only while `with_team` runs its body
    // on this thread, with the team alive on its stack, and `f` returns
    // before that body does.
    f(unsafe { team.as_ref() })
}

/// Clears [`DRIVING`] for as long as it lives, then puts it back: the
/// time of a stage, or of a region's end.
struct Aside(*const Team);

impl Aside {
    fn new() -> Aside {
        Aside(DRIVING.with(|d| d.replace(std::ptr::null())))
    }
}

impl Drop for Aside {
    fn drop(&mut self) {
        DRIVING.with(|d| d.set(self.0));
    }
}

/// Runs `body` with a team of every worker of the current pool when
/// `parallel` (the step's thread pool, inside its `install`), or with
/// none: then each stage runs on this thread in order. Inside the region
/// of a team this thread already drives, `body` gets that team (the
/// step's region holds the solve's). The helpers spin between stages for
/// as long as the region lasts: a worker that went to sleep between two
/// parallel loops would take longer to wake (tens of microseconds on a
/// virtual machine) than a small loop takes.
pub(crate) fn with_team<R: Send>(parallel: bool, body: impl FnOnce(Option<&Team>) -> R + Send) -> R {
    let threads = current_threads();
    if !parallel || threads < 2 {
        return body(None);
    }
    if driving(|team| team.is_some()) {
        return driving(body);
    }
    let team = Team::new(threads);
    /// Ends the region even if the body panics, so the helpers leave, and
    /// this thread drives no team any more.
    struct Leave<'a>(&'a Team);
    impl Drop for Leave<'_> {
        fn drop(&mut self) {
            DRIVING.with(|d| d.set(std::ptr::null()));
            self.0.word.0.store(DONE, Ordering::Release);
        }
    }
    with_helpers(threads - 1, &|| team.help(), || {
        DRIVING.with(|d| d.set(&team));
        let _leave = Leave(&team);
        body(Some(&team))
    })
}

/// How many threads the current pool has: the step's workers inside
/// [`crate::threads::Workers::install`], else rayon's global pool's (1
/// without the `parallel` feature).
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
fn with_helpers<R: Send>(helpers: usize, helper: &(dyn Fn() + Sync), main: impl FnOnce() -> R + Send) -> R {
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

/// A slice handed out to a team block by block: each block index gives
/// its own run of `block` items, which is why it may go to any thread.
pub(crate) struct Blocks<'a, T> {
    ptr: *mut T,
    len: usize,
    block: usize,
    _items: PhantomData<&'a mut [T]>,
}

// SAFETY: a `Blocks` hands each thread `&mut` runs of its items (so the
// items must be `Send`), and two threads never get the same run: the
// team calls each block index once (`Team::run`), and the loops of
// `super::runs`, the only callers of `Blocks::run`, map each index to one
// run.
unsafe impl<T: Send> Sync for Blocks<'_, T> {}

impl<'a, T: Send> Blocks<'a, T> {
    /// `items` in runs of `block` (the last one shorter).
    pub(crate) fn new(items: &'a mut [T], block: usize) -> Blocks<'a, T> {
        let block = block.max(1);
        Blocks {
            ptr: items.as_mut_ptr(),
            len: items.len(),
            block,
            _items: PhantomData,
        }
    }

    /// How many runs there are.
    pub(crate) fn count(&self) -> usize {
        self.len.div_ceil(self.block)
    }

    /// Where run `k` starts: the index of its first item.
    pub(super) fn start(&self, k: usize) -> usize {
        k * self.block
    }

    /// All the items, as one run.
    ///
    /// # Safety
    /// No run of the items may be in use while the result is, nor the
    /// result be handed out twice.
    pub(super) unsafe fn whole(&self) -> &'a mut [T] {
        // SAFETY: the borrowed slice itself; the caller hands it out once.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }

    /// Run `k` of the items.
    ///
    /// # Safety
    /// No two calls with the same `k` may overlap in time or in their
    /// results' lifetimes: the caller hands each `k` out once.
    pub(super) unsafe fn run(&self, k: usize) -> &'a mut [T] {
        let start = k * self.block;
        let len = self.block.min(self.len - start);
        // SAFETY: `start + len <= self.len`, within the borrowed slice;
        // the caller gives each run to one thread only.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(start), len) }
    }
}

/// The smallest of the values folded in, whatever the order: each float
/// is kept as an integer key that orders as the floats do (negative zero
/// below positive zero), so the result is exact and the same bits for
/// any split.
pub(crate) struct AtomicMin(AtomicI32);

impl AtomicMin {
    /// Nothing folded in yet: infinity.
    pub(crate) fn new() -> AtomicMin {
        AtomicMin(AtomicI32::new(key(f32::INFINITY)))
    }

    /// Folds `x` (not a NaN) in.
    pub(crate) fn fold(&self, x: f32) {
        self.0.fetch_min(key(x), Ordering::Relaxed);
    }

    /// The smallest value folded in (once the stage that folds is over).
    pub(crate) fn get(&self) -> f32 {
        let k = self.0.load(Ordering::Relaxed);
        f32::from_bits((k ^ (((k >> 31) as u32) >> 1) as i32) as u32)
    }
}

/// The integer key of `x` that orders as the floats do.
#[inline]
fn key(x: f32) -> i32 {
    let b = x.to_bits() as i32;
    b ^ (((b >> 31) as u32) >> 1) as i32
}

#[cfg(test)]
mod tests {
    use super::super::runs::for_each4;
    use super::*;

    /// Calls `f` on the runs of `items`, on the team.
    #[cfg(feature = "parallel")]
    fn for_each<T: Send>(team: Option<&Team>, items: Blocks<'_, T>, f: &(dyn Fn(&mut [T]) + Sync)) {
        let none = |_, _: &mut [()]| {};
        let empty = || {
            (
                Blocks::<()>::new(&mut [], 1),
                &none as &(dyn Fn(usize, &mut [()]) + Sync),
            )
        };
        let g = |_, run: &mut [T]| f(run);
        for_each4(team, (items, &g), empty(), empty(), empty());
    }

    /// A team of `threads` on a pool of its own.
    #[cfg(feature = "parallel")]
    fn on_team<R: Send>(threads: usize, body: impl FnOnce(Option<&Team>) -> R + Send) -> R {
        let workers = crate::threads::Workers::new(threads);
        workers.install(|parallel| with_team(parallel, body))
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn every_block_of_every_stage_runs_once() {
        // (18 threads share the 16 homes.)
        for threads in [2, 3, 4, MAX_HOMES + 2] {
            let counts: Vec<AtomicU32> = (0..1000).map(|_| AtomicU32::new(0)).collect();
            on_team(threads, |team| {
                let team = team.expect("a team of several threads");
                assert_eq!(team.threads(), threads);
                for stage in 0..300 {
                    let blocks = stage % 17;
                    team.run(blocks, &|k| {
                        counts[k].fetch_add(1, Ordering::Relaxed);
                    });
                    // The stage is over when `run` returns: every count
                    // below `blocks` went up by one, the others not.
                    for (k, c) in counts.iter().enumerate() {
                        let want = (0..=stage).filter(|s| k < s % 17).count() as u32;
                        assert_eq!(c.load(Ordering::Relaxed), want, "block {k} after stage {stage}");
                    }
                }
            });
        }
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn a_stage_sees_the_last_stages_writes() {
        // Each item of a stage is its neighbour's value from the stage
        // before plus one, written plainly (not atomically): any write of
        // one stage not seen by the next shows as a wrong value.
        let n = 4096;
        let mut items: Vec<(usize, u64)> = (0..n).map(|i| (i, 0)).collect();
        let mut next = items.clone();
        on_team(3, |team| {
            for _ in 0..200 {
                let src = &items;
                let f = |run: &mut [(usize, u64)]| {
                    for x in run {
                        x.1 = src[(x.0 + 1) % n].1 + 1;
                    }
                };
                for_each(team, Blocks::new(&mut next, 64), &f);
                std::mem::swap(&mut items, &mut next);
            }
        });
        assert!(items.iter().all(|&(_, x)| x == 200), "{:?}", &items[..8]);
    }

    #[test]
    fn without_a_team_the_items_go_in_order() {
        let (mut a, mut b, mut c, mut d) = (vec![0u32; 5], vec![0u32; 3], vec![0u32; 7], vec![0u32; 2]);
        let order = std::sync::Mutex::new(Vec::new());
        let (fa, fb, fc, fd) = (
            |_, run: &mut [u32]| {
                for x in run {
                    *x += 1;
                    order.lock().unwrap().push('a');
                }
            },
            |_, run: &mut [u32]| {
                for x in run {
                    *x += 2;
                    order.lock().unwrap().push('b');
                }
            },
            |_, run: &mut [u32]| {
                for x in run {
                    *x += 3;
                    order.lock().unwrap().push('c');
                }
            },
            |_, run: &mut [u32]| {
                for x in run {
                    *x += 4;
                    order.lock().unwrap().push('d');
                }
            },
        );
        for_each4(
            None,
            (Blocks::new(&mut a, 2), &fa),
            (Blocks::new(&mut b, 2), &fb),
            (Blocks::new(&mut c, 2), &fc),
            (Blocks::new(&mut d, 2), &fd),
        );
        assert_eq!(a, [1; 5]);
        assert_eq!(b, [2; 3]);
        assert_eq!(c, [3; 7]);
        assert_eq!(d, [4; 2]);
        let order: String = order.into_inner().unwrap().into_iter().collect();
        assert_eq!(order, "aaaaabbbcccccccdd");
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn four_slices_each_item_once_on_a_team() {
        let (mut a, mut b, mut c, mut d) =
            (vec![0u32; 1001], vec![0u8; 77], vec![0u64; 3000], vec![0u16; 333]);
        on_team(2, |team| {
            for _ in 0..50 {
                for_each4(
                    team,
                    (Blocks::new(&mut a, 16), &|_, r: &mut [u32]| {
                        r.iter_mut().for_each(|x| *x += 1)
                    }),
                    (Blocks::new(&mut b, 4), &|_, r: &mut [u8]| {
                        r.iter_mut().for_each(|x| *x += 1)
                    }),
                    (Blocks::new(&mut c, 100), &|_, r: &mut [u64]| {
                        r.iter_mut().for_each(|x| *x += 1)
                    }),
                    (Blocks::new(&mut d, 10), &|_, r: &mut [u16]| {
                        r.iter_mut().for_each(|x| *x += 1)
                    }),
                );
            }
        });
        assert!(a.iter().all(|&x| x == 50));
        assert!(b.iter().all(|&x| x == 50));
        assert!(c.iter().all(|&x| x == 50));
        assert!(d.iter().all(|&x| x == 50));
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn each_run_is_told_where_it_starts() {
        let (mut a, mut d) = (vec![0usize; 1001], vec![0usize; 333]);
        on_team(2, |team| {
            let at = |start: usize, r: &mut [usize]| {
                for (i, x) in r.iter_mut().enumerate() {
                    *x = start + i;
                }
            };
            let none = |_, _: &mut [()]| {};
            for_each4(
                team,
                (Blocks::new(&mut a, 16), &at),
                (Blocks::<()>::new(&mut [], 1), &none),
                (Blocks::<()>::new(&mut [], 1), &none),
                (Blocks::new(&mut d, 10), &at),
            );
        });
        assert!(a.iter().enumerate().all(|(i, &x)| x == i));
        assert!(d.iter().enumerate().all(|(i, &x)| x == i));
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn a_panicking_block_ends_the_region_with_a_panic() {
        // Every block panics, on both threads; the stage still ends (no
        // hang) and the panic reaches the caller.
        let ran = AtomicU32::new(0);
        let result = catch_unwind(AssertUnwindSafe(|| {
            on_team(2, |team| {
                let team = team.expect("a team");
                team.run(64, &|_| {
                    ran.fetch_add(1, Ordering::Relaxed);
                    std::thread::sleep(std::time::Duration::from_micros(200));
                    panic!("block");
                });
            })
        }));
        assert!(result.is_err());
        assert_eq!(ran.load(Ordering::Relaxed), 64);
    }

    #[test]
    fn the_atomic_minimum_is_exact_in_any_order() {
        let values = [3.5f32, -0.0, 0.0, -7.25, f32::MIN_POSITIVE, -1e30, 1e30, 2.0];
        let forward = AtomicMin::new();
        let backward = AtomicMin::new();
        for &x in &values {
            forward.fold(x);
        }
        for &x in values.iter().rev() {
            backward.fold(x);
        }
        assert_eq!(forward.get(), -1e30);
        assert_eq!(forward.get().to_bits(), backward.get().to_bits());
        assert_eq!(AtomicMin::new().get(), f32::INFINITY);
        // The keys order as the floats do, zeros' signs included.
        let mut sorted = values;
        sorted.sort_by(f32::total_cmp);
        for w in sorted.windows(2) {
            assert!(key(w[0]) < key(w[1]), "{} {}", w[0], w[1]);
        }
        let zero = AtomicMin::new();
        zero.fold(0.0);
        zero.fold(-0.0);
        assert!(zero.get().is_sign_negative());
    }
}
