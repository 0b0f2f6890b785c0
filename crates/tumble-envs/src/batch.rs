//! Many environments stepped as one: gymnasium's vector-environment rule
//! (each episode truncated at the environment's time limit, and reset on
//! the step after it ends), run over worker threads.

use crate::{Env, EnvError, Pcg64};

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
/// random stream, over a pool of worker threads.
///
/// Autoreset is gymnasium 1.x's default (`NEXT_STEP`) unless set
/// otherwise ([`Autoreset`]): the step on which an episode ends reports
/// its last observation with `terminated` or `truncated`; the next step
/// ignores that environment's action, resets it, and reports the new
/// episode's first observation with reward 0 and neither flag. Each environment's results are the same bits whatever the
/// number of workers, and the same as that environment stepped alone.
pub struct Batch<E: Env> {
    slots: Vec<Slot<E>>,
    results: Vec<BatchStep>,
    /// None: step on the calling thread.
    pool: Option<rayon::ThreadPool>,
    observation_len: usize,
    action_len: usize,
    reset_done: bool,
    /// Steps after which an episode is truncated (None: each
    /// environment's own [`Env::max_episode_steps`]).
    time_limit: Option<u32>,
    autoreset: Autoreset,
}

impl<E: Env> Batch<E> {
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
        let pool = if workers > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(workers)
                .thread_name(|i| format!("tumble-env-{i}"))
                .build()
                .map_err(|_| EnvError::Setting("workers", "could not be started"))?;
            Some(pool)
        } else {
            None
        };
        let results = vec![BatchStep::default(); envs.len()];
        let slots = envs
            .into_iter()
            .map(|env| Slot {
                env,
                steps: 0,
                ended: false,
                last: vec![0.0; observation_len],
            })
            .collect();
        Ok(Batch {
            slots,
            results,
            pool,
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
        (self.autoreset == Autoreset::SameStep && ended).then(|| &self.slots[index].last[..])
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
        self.slots.len()
    }

    /// Whether the batch has no environment (never: [`Batch::new`]
    /// refuses an empty one).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
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
    pub fn env(&self, index: usize) -> Option<&E> {
        self.slots.get(index).map(|s| &s.env)
    }

    /// The results of the last step, one per environment.
    pub fn results(&self) -> &[BatchStep] {
        &self.results
    }

    /// Runs `work` on every slot with its result, its observation and its
    /// `per` values of `inputs`, on the pool when there is one.
    fn for_each<T, F>(&mut self, observations: &mut [f32], inputs: &[T], per: usize, work: F)
    where
        T: Sync,
        F: Fn(&mut Slot<E>, &mut BatchStep, &mut [f32], &[T]) + Sync + Send,
    {
        let n = self.observation_len;
        let slots = &mut self.slots;
        let results = &mut self.results;
        match &self.pool {
            Some(pool) => {
                use rayon::prelude::*;
                pool.install(|| {
                    slots
                        .par_iter_mut()
                        .zip(results.par_iter_mut())
                        .zip(observations.par_chunks_mut(n))
                        .zip(inputs.par_chunks(per))
                        .for_each(|(((slot, result), obs), input)| work(slot, result, obs, input));
                });
            }
            None => {
                for (((slot, result), obs), input) in slots
                    .iter_mut()
                    .zip(results.iter_mut())
                    .zip(observations.chunks_mut(n))
                    .zip(inputs.chunks(per))
                {
                    work(slot, result, obs, input);
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
        self.for_each(observations, rngs, 1, |slot, result, obs, rng| {
            slot.env.reset(rng[0], obs);
            slot.steps = 0;
            slot.ended = false;
            *result = BatchStep::default();
        });
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
        for (slot, action) in self.slots.iter().zip(actions.chunks(self.action_len)) {
            slot.env.check_action(action)?;
        }
        let time_limit = self.time_limit;
        let same_step = self.autoreset == Autoreset::SameStep;
        self.for_each(
            observations,
            actions,
            self.action_len,
            |slot, result, obs, action| {
                if slot.ended {
                    let rng = slot.env.rng();
                    slot.env.reset(rng, obs);
                    slot.steps = 0;
                    slot.ended = false;
                    *result = BatchStep::default();
                    return;
                }
                let step = slot.env.step(action, obs).expect("actions checked above");
                slot.steps += 1;
                let truncated = slot.steps >= time_limit.unwrap_or_else(|| slot.env.max_episode_steps());
                slot.ended = step.terminated || truncated;
                *result = BatchStep {
                    reward: step.reward,
                    terminated: step.terminated,
                    truncated,
                };
                if same_step && slot.ended {
                    slot.last.copy_from_slice(obs);
                    let rng = slot.env.rng();
                    slot.env.reset(rng, obs);
                    slot.steps = 0;
                    slot.ended = false;
                }
            },
        );
        Ok(())
    }

    /// Checks that an array has `per` values for every environment.
    fn check_size(&self, name: &'static str, len: usize, per: usize) -> Result<(), EnvError> {
        let want = self.slots.len() * per;
        if len == want {
            Ok(())
        } else {
            Err(EnvError::Size(name, want, len))
        }
    }
}

#[cfg(test)]
#[path = "batch_tests.rs"]
mod tests;
