//! [`Crew`]: threads that each own a fixed share of some work's state
//! and run a job on it whenever the calling thread asks, the calling
//! thread running the first share itself.
//!
//! A batch of environments steps many small worlds thousands of times a
//! second, tens of microseconds a step each. A thread pool that hands out
//! the environments afresh each step costs it twice: its idle threads go
//! to sleep between two steps and take longer to wake (on a virtual
//! machine especially) than a small batch's step lasts, and an environment
//! stepped on another core than last time finds its world in neither
//! core's cache. A crew's threads spin for a while between jobs before
//! they sleep, and each steps the same environments every time.

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
struct Signal<J> {
    /// Counts the jobs posted; a thread runs a job when it sees it change.
    posted: AtomicU64,
    /// Threads that finished the current job.
    finished: AtomicUsize,
    /// The threads stop at the next look.
    stop: AtomicBool,
    /// The current job (each thread takes its own handle on it, so none
    /// holds the lock while it works).
    job: Mutex<Option<Arc<J>>>,
    /// A sleeping thread waits here for the next job.
    sleep: Mutex<()>,
    wake: Condvar,
    /// A panic a thread caught in the current job, handed to the caller.
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
}

/// A crew's job, run on one share.
type Work<S, J> = Arc<dyn Fn(&mut S, &J) + Send + Sync>;

/// Threads that each own one share of the state (`S`), run a job (`J`)
/// on their share when [`Crew::run`] posts one, the calling thread running
/// share 0 itself.
pub(crate) struct Crew<S, J> {
    shares: Vec<Arc<Mutex<S>>>,
    signal: Arc<Signal<J>>,
    work: Work<S, J>,
    threads: Vec<JoinHandle<()>>,
}

/// Locks `m`, whether or not a panic poisoned it (a panic in a job is
/// handed to the caller; the share stays usable).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<S: Send + 'static, J: Send + Sync + 'static> Crew<S, J> {
    /// A crew for `shares`: one thread for each share but the first.
    /// `work` runs a job on a share. Errors if the system refuses a
    /// thread.
    pub(crate) fn new(
        shares: Vec<S>,
        work: impl Fn(&mut S, &J) + Send + Sync + 'static,
    ) -> std::io::Result<Crew<S, J>> {
        let shares: Vec<_> = shares.into_iter().map(|s| Arc::new(Mutex::new(s))).collect();
        let signal = Arc::new(Signal {
            posted: AtomicU64::new(0),
            finished: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            job: Mutex::new(None),
            sleep: Mutex::new(()),
            wake: Condvar::new(),
            panic: Mutex::new(None),
        });
        let work: Work<S, J> = Arc::new(work);
        let mut crew = Crew {
            shares,
            signal,
            work,
            threads: Vec::new(),
        };
        for (k, share) in crew.shares.iter().enumerate().skip(1) {
            let (share, signal, work) = (share.clone(), crew.signal.clone(), crew.work.clone());
            let thread = std::thread::Builder::new()
                .name(format!("tumble-env-{k}"))
                .spawn(move || serve(&share, &signal, &*work))?;
            crew.threads.push(thread);
        }
        Ok(crew)
    }

    /// Runs `job` on every share, share 0 on this thread, and returns when
    /// all are done. A panic in any share's job is resumed here.
    pub(crate) fn run(&self, job: J) {
        let signal = &*self.signal;
        let job = Arc::new(job);
        *lock(&signal.job) = Some(job.clone());
        signal.finished.store(0, Ordering::Relaxed);
        signal.posted.fetch_add(1, Ordering::Release);
        // (Taken so that a thread between its last look and its sleep
        // cannot miss the wake.)
        drop(lock(&signal.sleep));
        signal.wake.notify_all();
        let outcome = catch_unwind(AssertUnwindSafe(|| (self.work)(&mut lock(&self.shares[0]), &job)));
        if let Err(payload) = outcome {
            lock(&signal.panic).get_or_insert(payload);
        }
        let others = self.shares.len() - 1;
        let mut spins = 0u32;
        while signal.finished.load(Ordering::Acquire) < others {
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
        lock(&self.shares[index])
    }

    /// How many shares.
    pub(crate) fn len(&self) -> usize {
        self.shares.len()
    }
}

/// A crew thread: waits for each posted job (spinning for [`SPIN`], then
/// asleep), runs it on its share, and counts itself finished.
fn serve<S, J>(share: &Mutex<S>, signal: &Signal<J>, work: &(dyn Fn(&mut S, &J) + Send + Sync)) {
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
        let job = lock(&signal.job).clone();
        if let Some(job) = job {
            let outcome = catch_unwind(AssertUnwindSafe(|| work(&mut lock(share), &job)));
            if let Err(payload) = outcome {
                lock(&signal.panic).get_or_insert(payload);
            }
        }
        signal.finished.fetch_add(1, Ordering::Release);
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
    fn every_share_runs_each_job_once_on_the_same_thread_every_time() {
        let crew = Crew::new((0..3).map(|_| Tally::default()).collect(), add).unwrap();
        assert_eq!(crew.len(), 3);
        for job in 1..=200u64 {
            crew.run(job);
            // Right after each run, every share has it.
            for k in 0..3 {
                assert_eq!(
                    crew.share(k).sum,
                    job * (job + 1) / 2,
                    "share {k} after job {job}"
                );
            }
        }
        let caller = std::thread::current().id();
        let mut owners = Vec::new();
        for k in 0..3 {
            let tally = crew.share(k);
            assert_eq!(tally.threads.len(), 200);
            assert!(
                tally.threads.iter().all(|&t| t == tally.threads[0]),
                "share {k} moved"
            );
            owners.push(tally.threads[0]);
        }
        // Share 0 on the caller, each other on a thread of its own.
        assert_eq!(owners[0], caller);
        assert!(owners[1] != caller && owners[2] != caller && owners[1] != owners[2]);
    }

    #[test]
    fn a_sleeping_crew_wakes_for_the_next_job() {
        let crew = Crew::new(vec![Tally::default(), Tally::default()], add).unwrap();
        crew.run(1);
        // Past the spin: the thread is asleep.
        std::thread::sleep(SPIN * 20);
        crew.run(2);
        assert_eq!(crew.share(1).sum, 3);
    }

    #[test]
    fn a_panic_in_a_job_reaches_the_caller_and_the_crew_goes_on() {
        // Shares (which, jobs done); the second share's thread panics on
        // job 7.
        let crew = Crew::new(vec![(0u32, 0u32), (1, 0)], |share: &mut (u32, u32), job: &u32| {
            if share.0 == 1 && *job == 7 {
                panic!("job 7");
            }
            share.1 += 1;
        })
        .unwrap();
        crew.run(1);
        let caught = catch_unwind(AssertUnwindSafe(|| crew.run(7)));
        assert!(caught.is_err());
        crew.run(2);
        assert_eq!((crew.share(0).1, crew.share(1).1), (3, 2));
    }
}
