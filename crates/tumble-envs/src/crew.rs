//! [`Crew`]: threads that run a job on every share of some work's state
//! whenever the calling thread asks, the calling thread working too: each
//! thread takes the shares of its own home first, the same every time,
//! then helps with the others' shares still untaken.
//!
//! A batch of environments steps many small worlds thousands of times a
//! second, tens of microseconds a step each. A thread pool that hands out
//! the environments afresh each step costs it twice: its idle threads go
//! to sleep between two steps and take longer to wake (on a virtual
//! machine especially) than a small batch's step lasts, and an environment
//! stepped on another core than last time finds its world in neither
//! core's cache. A crew's threads spin for a while between jobs before
//! they sleep, and each steps its home's environments every time; but a
//! fixed split alone would leave the step as slow as its slowest thread
//! (the episodes' lengths differ, and on a shared machine a thread may be
//! held off its core for a while), so a thread done with its home takes
//! the shares its neighbours have not begun.

use std::ops::Range;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a crew thread spins for the next job before it sleeps: longer
/// than the caller's own work between two steps of a batch (gymnasium's
/// wrappers and numpy, some tens of microseconds), far shorter than a
/// pause.
const SPIN: Duration = Duration::from_micros(200);

/// What the crew's threads share with the calling thread.
struct Signal<S, J> {
    /// The shares, each locked while a thread runs the job on it.
    shares: Vec<Mutex<S>>,
    /// Each thread's home: the shares it takes first.
    homes: Vec<Range<usize>>,
    /// Per home, the next share of it to take, tagged with the number of
    /// the job it belongs to (`number << 32 | share`): a thread that
    /// looks late, with the number of a job already done, takes nothing.
    next: Vec<AtomicU64>,
    /// Counts the jobs posted; a thread takes shares when it sees it
    /// change.
    posted: AtomicU64,
    /// Shares done in the current job.
    done: AtomicUsize,
    /// The threads stop at the next look.
    stop: AtomicBool,
    /// The current job (each thread takes its own handle on it, so none
    /// holds the lock while it works).
    job: Mutex<Option<Arc<J>>>,
    /// A sleeping thread waits here for the next job.
    sleep: Mutex<()>,
    wake: Condvar,
    /// A panic caught in the current job, handed to the caller.
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
}

/// A crew's job, run on one share.
type Work<S, J> = Arc<dyn Fn(&mut S, &J) + Send + Sync>;

/// Threads that run a job (`J`) on every share of the state (`S`) when
/// [`Crew::run`] posts one, the calling thread among them: each takes its
/// home's shares, then any share of the others' not yet taken.
pub(crate) struct Crew<S, J> {
    signal: Arc<Signal<S, J>>,
    work: Work<S, J>,
    threads: Vec<JoinHandle<()>>,
}

/// Locks `m`, whether or not a panic poisoned it (a panic in a job is
/// handed to the caller; the share stays usable).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<S: Send + 'static, J: Send + Sync + 'static> Crew<S, J> {
    /// A crew of `threads` (the caller and `threads - 1` of its own, at
    /// least one, at most one a share) for `shares`, split into as many
    /// homes of consecutive shares. `work` runs a job on a share. Errors
    /// if the system refuses a thread.
    pub(crate) fn new(
        shares: Vec<S>,
        threads: usize,
        work: impl Fn(&mut S, &J) + Send + Sync + 'static,
    ) -> std::io::Result<Crew<S, J>> {
        let count = shares.len();
        let threads = threads.clamp(1, count.max(1));
        let homes: Vec<Range<usize>> = (0..threads)
            .map(|t| t * count / threads..(t + 1) * count / threads)
            .collect();
        let signal = Arc::new(Signal {
            shares: shares.into_iter().map(Mutex::new).collect(),
            next: homes.iter().map(|h| AtomicU64::new(h.end as u64)).collect(),
            homes,
            posted: AtomicU64::new(0),
            done: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            job: Mutex::new(None),
            sleep: Mutex::new(()),
            wake: Condvar::new(),
            panic: Mutex::new(None),
        });
        let work: Work<S, J> = Arc::new(work);
        let mut crew = Crew {
            signal,
            work,
            threads: Vec::new(),
        };
        for t in 1..threads {
            let (signal, work) = (crew.signal.clone(), crew.work.clone());
            let thread = std::thread::Builder::new()
                .name(format!("tumble-env-{t}"))
                .spawn(move || serve(t, &signal, &*work))?;
            crew.threads.push(thread);
        }
        Ok(crew)
    }

    /// Runs `job` on every share, this thread taking part, and returns
    /// when all are done. A panic in any share's job is resumed here.
    pub(crate) fn run(&self, job: J) {
        let signal = &*self.signal;
        let job = Arc::new(job);
        *lock(&signal.job) = Some(job.clone());
        signal.done.store(0, Ordering::Relaxed);
        let number = signal.posted.load(Ordering::Relaxed) + 1;
        for (next, home) in signal.next.iter().zip(&signal.homes) {
            next.store(tagged(number, home.start), Ordering::Relaxed);
        }
        // (Release: a thread that sees the new number sees the job and
        // the homes set for it.)
        signal.posted.store(number, Ordering::Release);
        // (Taken so that a thread between its last look and its sleep
        // cannot miss the wake.)
        drop(lock(&signal.sleep));
        signal.wake.notify_all();
        take_shares(0, number, signal, &job, &*self.work);
        let mut spins = 0u32;
        while signal.done.load(Ordering::Acquire) < signal.shares.len() {
            spins += 1;
            if spins < 1 << 12 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        if let Some(payload) = lock(&signal.panic).take() {
            resume_unwind(payload);
        }
    }

    /// Share `index`, locked (none runs a job between two calls of
    /// [`Crew::run`]).
    pub(crate) fn share(&self, index: usize) -> MutexGuard<'_, S> {
        lock(&self.signal.shares[index])
    }

    /// How many shares.
    pub(crate) fn len(&self) -> usize {
        self.signal.shares.len()
    }
}

/// Share `share` of job `number`, as a home's next share is kept.
fn tagged(number: u64, share: usize) -> u64 {
    (number << 32) | share as u64
}

/// Takes the next share of `home` for job `number`, if it has one left
/// and that job is still the current one.
fn take<S, J>(signal: &Signal<S, J>, home: usize, number: u64) -> Option<usize> {
    let next = &signal.next[home];
    let end = signal.homes[home].end as u64;
    let mut seen = next.load(Ordering::Acquire);
    loop {
        if seen >> 32 != number & 0xffff_ffff || seen & 0xffff_ffff >= end {
            return None;
        }
        match next.compare_exchange_weak(seen, seen + 1, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => return Some((seen & 0xffff_ffff) as usize),
            Err(now) => seen = now,
        }
    }
}

/// Thread `thread`'s part of job `number`: its home's shares, then the
/// others' untaken ones, the homes after its own first. Counts each share
/// done, and keeps the first panic for the caller.
fn take_shares<S, J>(
    thread: usize,
    number: u64,
    signal: &Signal<S, J>,
    job: &J,
    work: &(dyn Fn(&mut S, &J) + Send + Sync),
) {
    let homes = signal.homes.len();
    for home in (0..homes).map(|k| (thread + k) % homes) {
        while let Some(share) = take(signal, home, number) {
            let outcome = catch_unwind(AssertUnwindSafe(|| work(&mut lock(&signal.shares[share]), job)));
            if let Err(payload) = outcome {
                lock(&signal.panic).get_or_insert(payload);
            }
            signal.done.fetch_add(1, Ordering::Release);
        }
    }
}

/// A crew thread: waits for each posted job (spinning for [`SPIN`], then
/// asleep), then takes its part of it.
fn serve<S, J>(thread: usize, signal: &Signal<S, J>, work: &(dyn Fn(&mut S, &J) + Send + Sync)) {
    let mut seen = 0u64;
    loop {
        let start = Instant::now();
        let mut spins = 0u32;
        let posted = loop {
            if signal.stop.load(Ordering::Acquire) {
                return;
            }
            let posted = signal.posted.load(Ordering::Acquire);
            if posted != seen {
                break posted;
            }
            // Spin a little, then yield the core (a crew larger than the
            // machine must not keep the working threads off it), then
            // sleep.
            spins += 1;
            if spins < 1 << 10 {
                std::hint::spin_loop();
                continue;
            }
            if start.elapsed() < SPIN {
                std::thread::yield_now();
                continue;
            }
            let mut guard = lock(&signal.sleep);
            while signal.posted.load(Ordering::Acquire) == seen && !signal.stop.load(Ordering::Acquire) {
                guard = signal.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
            }
        };
        seen = posted;
        // (The job posted as `posted`, or a later one: then its shares are
        // tagged with a later number, and none is taken here.)
        let job = lock(&signal.job).clone();
        if let Some(job) = job {
            take_shares(thread, posted, signal, &job, work);
        }
    }
}

impl<S, J> Drop for Crew<S, J> {
    fn drop(&mut self) {
        self.signal.stop.store(true, Ordering::Release);
        drop(lock(&self.signal.sleep));
        self.signal.wake.notify_all();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A share: the values it summed and the threads that ran it.
    #[derive(Default)]
    struct Tally {
        sum: u64,
        threads: Vec<std::thread::ThreadId>,
    }

    fn add(tally: &mut Tally, job: &u64) {
        tally.sum += job;
        tally.threads.push(std::thread::current().id());
    }

    #[test]
    fn every_share_runs_each_job_once() {
        let crew = Crew::new((0..6).map(|_| Tally::default()).collect(), 3, add).unwrap();
        assert_eq!(crew.len(), 6);
        assert_eq!(crew.threads.len(), 2);
        for job in 1..=200u64 {
            crew.run(job);
            // Right after each run, every share has it, once.
            for k in 0..6 {
                assert_eq!(
                    crew.share(k).sum,
                    job * (job + 1) / 2,
                    "share {k} after job {job}"
                );
            }
        }
    }

    #[test]
    fn a_thread_done_with_its_home_takes_a_busy_threads_shares() {
        // Two threads, two shares each. In job 2 the first share of the
        // second home waits until the home's other share has run, which
        // only another thread can then do: a crew that kept each thread
        // to its home would wait out the timeout.
        let ran = Arc::new(AtomicBool::new(false));
        let seen = ran.clone();
        let crew = Crew::new(
            (0..4).collect::<Vec<usize>>(),
            2,
            move |share: &mut usize, job: &u32| {
                if *job != 2 {
                    return;
                }
                if *share == 3 {
                    seen.store(true, Ordering::Release);
                }
                if *share == 2 {
                    let start = Instant::now();
                    while !seen.load(Ordering::Acquire) {
                        assert!(start.elapsed() < Duration::from_secs(20), "share 3 never ran");
                        std::thread::yield_now();
                    }
                }
            },
        )
        .unwrap();
        crew.run(1);
        crew.run(2);
        assert!(ran.load(Ordering::Acquire));
    }

    #[test]
    fn a_crew_has_at_most_one_thread_a_share() {
        let crew = Crew::new(vec![Tally::default(), Tally::default()], 8, add).unwrap();
        assert_eq!(crew.threads.len(), 1);
        crew.run(5);
        assert_eq!((crew.share(0).sum, crew.share(1).sum), (5, 5));
    }

    #[test]
    fn a_sleeping_crew_wakes_for_the_next_job() {
        let crew = Crew::new(vec![Tally::default(), Tally::default()], 2, add).unwrap();
        crew.run(1);
        // Past the spin: the thread is asleep.
        std::thread::sleep(SPIN * 20);
        crew.run(2);
        assert_eq!(crew.share(1).sum, 3);
    }

    #[test]
    fn a_panic_in_a_job_reaches_the_caller_and_the_crew_goes_on() {
        // Shares (which, jobs done); the second share panics on job 7.
        let crew = Crew::new(
            vec![(0u32, 0u32), (1, 0)],
            2,
            |share: &mut (u32, u32), job: &u32| {
                if share.0 == 1 && *job == 7 {
                    panic!("job 7");
                }
                share.1 += 1;
            },
        )
        .unwrap();
        crew.run(1);
        let caught = catch_unwind(AssertUnwindSafe(|| crew.run(7)));
        assert!(caught.is_err());
        crew.run(2);
        assert_eq!((crew.share(0).1, crew.share(1).1), (3, 2));
    }
}
