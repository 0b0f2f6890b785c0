//! Many environments stepped as one: gymnasium's vector-environment rule
//! (each episode truncated at the environment's time limit, and reset on
//! the step after it ends), run over worker threads, each of which steps
//! its own runs of the environments first every time, then helps with
//! the others' ([`Crew`]).

use crate::crew::Crew;
use crate::{Env, EnvError, Pcg64};
use std::ops::Deref;
use std::sync::MutexGuard;

/// When a batch resets an environment whose episode ended: gymnasium
/// 1.x's two autoreset modes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Autoreset {
    /// gymnasium's default: the step on which an episode ends reports its
    /// last observation; the next step ignores the environment's action,
    /// resets it and reports the new first observation (reward 0, neither
    /// flag).
    #[default]
    NextStep,
    /// The step on which an episode ends resets the environment at once
    /// and reports the new first observation with the ended episode's
    /// reward and flags; the episode's last observation is kept
    /// ([`Batch::final_observation`]).
    SameStep,
}

/// One environment's result from [`Batch::step`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BatchStep {
    /// The step's reward (0 on a step that reset the environment).
    pub reward: f64,
    /// The episode ended in a terminal state.
    pub terminated: bool,
    /// The episode reached the time limit.
    pub truncated: bool,
}

/// How many runs a batch splits its environments into for each worker
/// (each at least one environment): a worker steps its own runs first,
/// then helps with the others' (see [`Crew`]), a run at a time, so the
/// finer the runs, the closer together the workers finish. A run per
/// environment, as at 64 environments on 2 workers, costs a lock and a
/// compare-and-swap an environment, nothing beside its step.
const RUNS_PER_WORKER: usize = 32;

/// One environment of a batch and its episode's bookkeeping.
struct Slot<E> {
    env: E,
    /// Steps taken in this episode.
    steps: u32,
    /// The episode ended on the last step: the next step resets it.
    ended: bool,
    /// The last observation of the episode that ended in the last step
    /// ([`Autoreset::SameStep`]).
    last: Vec<f32>,
}

/// `N` environments of one kind stepped together, each with its own
/// random stream, over worker threads: the environments are split into
/// small contiguous runs, up to 32 a worker, the calling thread one of
/// the workers; each worker steps its own runs first, then helps with
/// the others'.
///
/// Autoreset is gymnasium 1.x's default (`NEXT_STEP`) unless set
/// otherwise ([`Autoreset`]): the step on which an episode ends reports
/// its last observation with `terminated` or `truncated`; the next step
/// ignores that environment's action, resets it, and reports the new
/// episode's first observation with reward 0 and neither flag. Each environment's results are the same bits whatever the
/// number of workers, and the same as that environment stepped alone.
pub struct Batch<E: Env + 'static> {
    /// The environments in contiguous runs, up to [`RUNS_PER_WORKER`] a
    /// worker.
    crew: Crew<Run<E>, Job>,
    /// Environments in each run but perhaps the last.
    per_run: usize,
    len: usize,
    /// The last step's results, gathered from the runs.
    results: Vec<BatchStep>,
    /// The last observations of the episodes that ended in the last step
    /// ([`Autoreset::SameStep`]), environment by environment.
    finals: Vec<f32>,
    observation_len: usize,
    action_len: usize,
    reset_done: bool,
    /// Steps after which an episode is truncated (None: each
    /// environment's own [`Env::max_episode_steps`]).
    time_limit: Option<u32>,
    autoreset: Autoreset,
}

/// A run of a batch's environments, and what it wrote.
struct Run<E> {
    /// The batch's index of its first environment.
    first: usize,
    slots: Vec<Slot<E>>,
    results: Vec<BatchStep>,
    /// Its environments' observations, one after the other.
    observations: Vec<f32>,
}

/// What the runs are asked to do.
enum Job {
    /// Start an episode in every environment, environment `i` drawing
    /// from stream `i`.
    Reset(Vec<Pcg64>),
    /// Step every environment with its action (`action_len` values each).
    Step {
        actions: Vec<f32>,
        action_len: usize,
        time_limit: Option<u32>,
        same_step: bool,
    },
}

/// Environment `index` of a batch, borrowed from its run ([`Batch::env`]).
pub struct EnvRef<'a, E> {
    run: MutexGuard<'a, Run<E>>,
    index: usize,
}

impl<E> Deref for EnvRef<'_, E> {
    type Target = E;

    fn deref(&self) -> &E {
        &self.run.slots[self.index].env
    }
}

impl<E: Env + 'static> Batch<E> {
    /// A batch of `envs` (at least one, all of one kind) stepped by
    /// `workers` threads (1 steps them on the caller's).
    pub fn new(envs: Vec<E>, workers: usize) -> Result<Batch<E>, EnvError> {
        let Some(first) = envs.first() else {
            return Err(EnvError::Setting("num_envs", "must be at least 1"));
        };
        if workers == 0 || workers > 256 {
            return Err(EnvError::Setting("workers", "must lie between 1 and 256"));
        }
        let (observation_len, action_len) = (first.observation_len(), first.action_len());
        if envs
            .iter()
            .any(|e| e.observation_len() != observation_len || e.action_len() != action_len)
        {
            return Err(EnvError::Setting("environments", "must all be of one kind"));
        }
        let len = envs.len();
        let workers = workers.min(len);
        let per_run = len.div_ceil(workers * RUNS_PER_WORKER);
        let mut envs = envs.into_iter();
        let mut runs = Vec::new();
        while runs.len() * per_run < len {
            let first = runs.len() * per_run;
            let slots: Vec<Slot<E>> = envs
                .by_ref()
                .take(per_run)
                .map(|env| Slot {
                    env,
                    steps: 0,
                    ended: false,
                    last: vec![0.0; observation_len],
                })
                .collect();
            runs.push(Run {
                first,
                results: vec![BatchStep::default(); slots.len()],
                observations: vec![0.0; slots.len() * observation_len],
                slots,
            });
        }
        let crew = Crew::new(runs, workers, work::<E>)
            .map_err(|_| EnvError::Setting("workers", "could not be started"))?;
        Ok(Batch {
            crew,
            per_run,
            len,
            results: vec![BatchStep::default(); len],
            finals: vec![0.0; len * observation_len],
            observation_len,
            action_len,
            reset_done: false,
            time_limit: None,
            autoreset: Autoreset::NextStep,
        })
    }

    /// Sets when an ended episode is reset (see [`Autoreset`]); the next
    /// step uses it.
    pub fn set_autoreset(&mut self, autoreset: Autoreset) {
        self.autoreset = autoreset;
    }

    /// In [`Autoreset::SameStep`], the last observation of environment
    /// `index`'s episode if it ended in the last step (its current
    /// observation is already the next episode's first); None otherwise.
    pub fn final_observation(&self, index: usize) -> Option<&[f32]> {
        let ended = self
            .results
            .get(index)
            .is_some_and(|r| r.terminated || r.truncated);
        let n = self.observation_len;
        (self.autoreset == Autoreset::SameStep && ended).then(|| &self.finals[index * n..(index + 1) * n])
    }

    /// Truncates episodes after `steps` steps instead of the environment's
    /// own limit (gymnasium's `max_episode_steps`); `None` restores it.
    pub fn set_time_limit(&mut self, steps: Option<u32>) -> Result<(), EnvError> {
        if steps == Some(0) {
            return Err(EnvError::Setting("max_episode_steps", "must be at least 1"));
        }
        self.time_limit = steps;
        Ok(())
    }

    /// The number of environments.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the batch has no environment (never: [`Batch::new`]
    /// refuses an empty one).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Observation values per environment.
    pub fn observation_len(&self) -> usize {
        self.observation_len
    }

    /// Action values per environment.
    pub fn action_len(&self) -> usize {
        self.action_len
    }

    /// Environment `index` (None past the end).
    pub fn env(&self, index: usize) -> Option<EnvRef<'_, E>> {
        (index < self.len).then(|| EnvRef {
            run: self.crew.share(index / self.per_run),
            index: index % self.per_run,
        })
    }

    /// The results of the last step, one per environment.
    pub fn results(&self) -> &[BatchStep] {
        &self.results
    }

    /// Runs `job` on every run, then gathers the runs' observations into
    /// `observations` and their results (and, with `finals`, the ended
    /// episodes' last observations).
    fn run(&mut self, job: Job, observations: &mut [f32], finals: bool) {
        self.crew.run(job);
        let n = self.observation_len;
        for k in 0..self.crew.len() {
            let run = self.crew.share(k);
            let (from, to) = (run.first, run.first + run.slots.len());
            observations[from * n..to * n].copy_from_slice(&run.observations);
            self.results[from..to].copy_from_slice(&run.results);
            if finals {
                let finals = self.finals[from * n..to * n].chunks_mut(n);
                for ((slot, result), last) in run.slots.iter().zip(&run.results).zip(finals) {
                    if result.terminated || result.truncated {
                        last.copy_from_slice(&slot.last);
                    }
                }
            }
        }
    }

    /// Starts a new episode in every environment, environment `i` drawing
    /// from `rngs[i]`, writing the first observations (environment by
    /// environment) into `observations`.
    pub fn reset(&mut self, rngs: &[Pcg64], observations: &mut [f32]) -> Result<(), EnvError> {
        self.check_size("observations", observations.len(), self.observation_len)?;
        self.check_size("random streams", rngs.len(), 1)?;
        self.run(Job::Reset(rngs.to_vec()), observations, false);
        self.reset_done = true;
        Ok(())
    }

    /// Steps every environment with its action (`actions` holds
    /// [`Batch::action_len`] values per environment, environment by
    /// environment), writing the observations; the rewards and flags are
    /// then in [`Batch::results`]. Every action is checked first: on an
    /// error nothing is stepped.
    pub fn step(&mut self, actions: &[f32], observations: &mut [f32]) -> Result<(), EnvError> {
        if !self.reset_done {
            return Err(EnvError::NotReset);
        }
        self.check_size("observations", observations.len(), self.observation_len)?;
        self.check_size("actions", actions.len(), self.action_len)?;
        for k in 0..self.crew.len() {
            let run = self.crew.share(k);
            let actions = actions[run.first * self.action_len..].chunks(self.action_len);
            for (slot, action) in run.slots.iter().zip(actions) {
                slot.env.check_action(action)?;
            }
        }
        let same_step = self.autoreset == Autoreset::SameStep;
        let job = Job::Step {
            actions: actions.to_vec(),
            action_len: self.action_len,
            time_limit: self.time_limit,
            same_step,
        };
        self.run(job, observations, same_step);
        Ok(())
    }

    /// Checks that an array has `per` values for every environment.
    fn check_size(&self, name: &'static str, len: usize, per: usize) -> Result<(), EnvError> {
        let want = self.len * per;
        if len == want {
            Ok(())
        } else {
            Err(EnvError::Size(name, want, len))
        }
    }
}

/// Runs `job` on `run`'s environments, writing their observations and
/// results into the run.
fn work<E: Env>(run: &mut Run<E>, job: &Job) {
    let Run {
        first,
        slots,
        results,
        observations,
    } = run;
    let n = observations.len() / slots.len().max(1);
    let each = slots
        .iter_mut()
        .zip(results.iter_mut())
        .zip(observations.chunks_mut(n));
    match job {
        Job::Reset(rngs) => {
            for (k, ((slot, result), obs)) in each.enumerate() {
                slot.env.reset(rngs[*first + k], obs);
                slot.steps = 0;
                slot.ended = false;
                *result = BatchStep::default();
            }
        }
        Job::Step {
            actions,
            action_len,
            time_limit,
            same_step,
        } => {
            let actions = actions[*first * action_len..].chunks(*action_len);
            for (((slot, result), obs), action) in each.zip(actions) {
                if slot.ended {
                    let rng = slot.env.rng();
                    slot.env.reset(rng, obs);
                    slot.steps = 0;
                    slot.ended = false;
                    *result = BatchStep::default();
                    continue;
                }
                let step = slot
                    .env
                    .step(action, obs)
                    .expect("actions checked before the job");
                slot.steps += 1;
                let truncated = slot.steps >= time_limit.unwrap_or_else(|| slot.env.max_episode_steps());
                slot.ended = step.terminated || truncated;
                *result = BatchStep {
                    reward: step.reward,
                    terminated: step.terminated,
                    truncated,
                };
                if *same_step && slot.ended {
                    slot.last.copy_from_slice(obs);
                    let rng = slot.env.rng();
                    slot.env.reset(rng, obs);
                    slot.steps = 0;
                    slot.ended = false;
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "batch_tests.rs"]
mod tests;
