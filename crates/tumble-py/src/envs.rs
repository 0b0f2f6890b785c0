//! The reinforcement-learning environments (`tumble.envs`): one
//! environment (`EnvCore`) or a batch stepped over threads (`VecCore`),
//! each step wholly in Rust. A batch steps with the GIL released; one
//! environment's step holds it, as gymnasium's own environments do: the
//! step lasts a few microseconds, and releasing and retaking the GIL
//! around it would add about a twentieth. The gymnasium classes in
//! `python/tumble/envs` wrap them.

use crate::errors::invalid;
use crate::real::{complex_refused, float32_array, is_complex};
use numpy::ndarray::{Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Mutex, MutexGuard, TryLockError};
use tumble_envs::{Autoreset, Batch, Canvas, Env, EnvError, Options, Pcg64};

/// An environment error as the module's `InvalidValueError`.
fn refused(e: EnvError) -> PyErr {
    invalid(e.to_string())
}

/// numpy's PCG64 state as Python hands it over: `(state, inc,
/// has_uint32, uinteger)` from `bit_generator.state`.
type NumpyState = (u128, u128, bool, u32);

fn rng_from(state: NumpyState) -> PyResult<Pcg64> {
    let (s, inc, has, word) = state;
    Pcg64::from_numpy_state(s, inc, has.then_some(word)).map_err(refused)
}

fn rng_to(rng: Pcg64) -> NumpyState {
    let (s, inc, word) = rng.numpy_state();
    (s, inc, word.is_some(), word.unwrap_or(0))
}

/// The options from the keyword arguments.
fn options(
    continuous: bool,
    gravity: f64,
    enable_wind: bool,
    wind_power: f64,
    turbulence_power: f64,
    hardcore: bool,
    render: bool,
) -> Options {
    Options {
        continuous,
        gravity,
        enable_wind,
        wind_power,
        turbulence_power,
        hardcore,
        render,
    }
}

/// One action from Python: an int (a discrete action's index) or a
/// sequence or array of real numbers. Complex values are refused, not
/// cut to their real part as numpy's casts would.
fn action(value: &Bound<'_, PyAny>, out: &mut Vec<f32>) -> PyResult<()> {
    out.clear();
    if let Ok(a) = value.extract::<PyReadonlyArray1<'_, f32>>() {
        out.extend(a.as_array().iter());
    } else if let Ok(a) = value.extract::<PyReadonlyArray1<'_, f64>>() {
        out.extend(a.as_array().iter().map(|&v| v as f32));
    } else if let Ok(i) = value.extract::<i64>() {
        // Past 2^24 an int has no exact float: name it as given.
        if i.unsigned_abs() > 1 << 24 {
            return Err(invalid(format!("no action {i}")));
        }
        out.push(i as f32);
    } else if is_complex(value) {
        return Err(complex_refused("an action"));
    } else if let Ok(x) = value.extract::<f64>() {
        out.push(x as f32);
    } else {
        let values = float32_array(value, "an action")?
            .extract::<PyReadonlyArray1<'_, f32>>()
            .map_err(|_| invalid("an action is an int or a sequence of numbers"))?;
        out.extend(values.as_array().iter());
    }
    Ok(())
}

/// A rendered frame as an `(height, width, 3)` `uint8` array.
fn frame<'py>(py: Python<'py>, env: &dyn Env) -> Bound<'py, PyArray3<u8>> {
    let (w, h) = env.render_size();
    let mut canvas = Canvas::new(w, h);
    py.detach(|| env.render(&mut canvas));
    let pixels =
        Array3::from_shape_vec((h, w, 3), canvas.pixels().to_vec()).expect("the canvas is w x h x 3");
    pixels.into_pyarray(py)
}

/// One environment, stepped in Rust (the core of
/// `tumble.envs.LunarLander` and `tumble.envs.BipedalWalker`).
#[pyclass(module = "tumble._tumble")]
pub struct EnvCore {
    inner: Mutex<Core>,
}

/// An environment with the buffers its steps reuse, behind one lock.
struct Core {
    env: Box<dyn Env>,
    action: Vec<f32>,
    observation: Vec<f32>,
}

/// Locks `mutex`, waiting for it with the GIL released. A batch's step
/// or a reset holds its lock while it runs with the GIL released, and
/// needs the GIL back to finish: a second Python thread waiting for the
/// lock with the GIL held would deadlock the two. So Python threads
/// sharing an environment take turns.
fn lock<'a, T: Send>(py: Python<'_>, mutex: &'a Mutex<T>) -> MutexGuard<'a, T> {
    loop {
        match mutex.try_lock() {
            Ok(guard) => return guard,
            Err(TryLockError::WouldBlock) => py.detach(|| drop(mutex.lock())),
            Err(TryLockError::Poisoned(_)) => {
                panic!("an earlier step panicked with the environment half stepped")
            }
        }
    }
}

impl EnvCore {
    /// The environment and its buffers (a step holds the lock
    /// throughout).
    fn lock(&self, py: Python<'_>) -> MutexGuard<'_, Core> {
        lock(py, &self.inner)
    }
}

#[pymethods]
impl EnvCore {
    /// The environment gymnasium registers as ``env_id``
    /// (``"LunarLander-v3"``, ``"BipedalWalker-v3"``) with its keyword
    /// arguments; ``render`` keeps what only drawing needs.
    #[new]
    #[pyo3(signature = (env_id, *, continuous = false, gravity = -10.0, enable_wind = false,
        wind_power = 15.0, turbulence_power = 1.5, hardcore = false, render = false))]
    fn new(
        env_id: &str,
        continuous: bool,
        gravity: f64,
        enable_wind: bool,
        wind_power: f64,
        turbulence_power: f64,
        hardcore: bool,
        render: bool,
    ) -> PyResult<EnvCore> {
        let o = options(
            continuous,
            gravity,
            enable_wind,
            wind_power,
            turbulence_power,
            hardcore,
            render,
        );
        let env = tumble_envs::make(env_id, &o).map_err(refused)?;
        Ok(EnvCore {
            inner: Mutex::new(Core {
                action: Vec::with_capacity(env.action_len()),
                observation: vec![0.0; env.observation_len()],
                env,
            }),
        })
    }

    /// Observation values.
    #[getter]
    fn observation_len(&self, py: Python<'_>) -> usize {
        self.lock(py).observation.len()
    }

    /// Action values (1 for a discrete action).
    #[getter]
    fn action_len(&self, py: Python<'_>) -> usize {
        self.lock(py).env.action_len()
    }

    /// gymnasium's ``max_episode_steps`` for the environment.
    #[getter]
    fn max_episode_steps(&self, py: Python<'_>) -> u32 {
        self.lock(py).env.max_episode_steps()
    }

    /// Starts an episode drawing from numpy's PCG64 state ``rng`` (``(state,
    /// inc, has_uint32, uinteger)``), or from where the last episode's
    /// draws left off when ``None``; returns the first observation.
    #[pyo3(signature = (rng = None))]
    fn reset<'py>(&self, py: Python<'py>, rng: Option<NumpyState>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let mut guard = self.lock(py);
        let Core { env, observation, .. } = &mut *guard;
        let rng = rng.map_or_else(|| Ok(env.rng()), rng_from)?;
        py.detach(|| env.reset(rng, observation));
        Ok(PyArray1::from_slice(py, observation))
    }

    /// Steps with ``action``: returns gymnasium's ``(observation, reward,
    /// terminated, truncated, info)``, ``truncated`` always ``False`` (the
    /// time limit is gymnasium's ``TimeLimit`` wrapper's) and ``info``
    /// ``{}``.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyArray1<f32>>, f64, bool, bool, Bound<'py, PyDict>)> {
        let mut guard = self.lock(py);
        let Core {
            env,
            action: values,
            observation,
        } = &mut *guard;
        self::action(action, values)?;
        let step = env.step(values, observation).map_err(refused)?;
        Ok((
            PyArray1::from_slice(py, observation),
            step.reward,
            step.terminated,
            false,
            PyDict::new(py),
        ))
    }

    /// The random stream's state now, numpy's way: ``(state, inc,
    /// has_uint32, uinteger)``.
    fn rng_state(&self, py: Python<'_>) -> NumpyState {
        rng_to(self.lock(py).env.rng())
    }

    /// The scene drawn as gymnasium draws it: an ``(height, width, 3)``
    /// ``uint8`` array.
    fn render<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray3<u8>> {
        frame(py, self.lock(py).env.as_ref())
    }
}

/// ``num_envs`` environments of one kind stepped together by ``workers``
/// threads, with gymnasium's next-step autoreset (the core of
/// ``tumble.envs.VectorEnv``).
#[pyclass(module = "tumble._tumble")]
pub struct VecCore {
    batch: Mutex<Batch<Box<dyn Env>>>,
    num_envs: usize,
    observation_len: usize,
    action_len: usize,
}

#[pymethods]
impl VecCore {
    /// A batch of ``num_envs`` environments ``env_id`` with the keyword
    /// arguments of :class:`EnvCore`, stepped by ``workers`` threads, each
    /// episode truncated after ``max_episode_steps`` (the environment's
    /// own limit when ``None``), an ended episode reset on the next step
    /// (``autoreset_mode="next_step"``) or at once (``"same_step"``).
    #[new]
    #[pyo3(signature = (env_id, num_envs, workers = 1, *, max_episode_steps = None, autoreset_mode = "next_step", continuous = false,
        gravity = -10.0, enable_wind = false, wind_power = 15.0, turbulence_power = 1.5,
        hardcore = false, render = false))]
    fn new(
        env_id: &str,
        num_envs: usize,
        workers: usize,
        max_episode_steps: Option<u32>,
        autoreset_mode: &str,
        continuous: bool,
        gravity: f64,
        enable_wind: bool,
        wind_power: f64,
        turbulence_power: f64,
        hardcore: bool,
        render: bool,
    ) -> PyResult<VecCore> {
        if num_envs == 0 || num_envs > 1 << 20 {
            return Err(invalid("num_envs must lie between 1 and 1048576"));
        }
        let o = options(
            continuous,
            gravity,
            enable_wind,
            wind_power,
            turbulence_power,
            hardcore,
            render,
        );
        let envs = (0..num_envs)
            .map(|_| tumble_envs::make(env_id, &o))
            .collect::<Result<Vec<_>, _>>()
            .map_err(refused)?;
        let mut batch = Batch::new(envs, workers).map_err(refused)?;
        batch.set_time_limit(max_episode_steps).map_err(refused)?;
        batch.set_autoreset(match autoreset_mode {
            "next_step" => Autoreset::NextStep,
            "same_step" => Autoreset::SameStep,
            other => {
                return Err(invalid(format!(
                    "autoreset_mode is \"next_step\" or \"same_step\", not {other:?}"
                )))
            }
        });
        Ok(VecCore {
            num_envs,
            observation_len: batch.observation_len(),
            action_len: batch.action_len(),
            batch: Mutex::new(batch),
        })
    }

    /// The number of environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// Starts a new episode in every environment, environment ``i`` drawing
    /// from numpy's PCG64 state ``rngs[i]`` (or, for ``None``, from where
    /// its last episode's draws left off); returns the observations, an
    /// ``(num_envs, observation_len)`` ``float32`` array.
    fn reset<'py>(
        &self,
        py: Python<'py>,
        rngs: Vec<Option<NumpyState>>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let mut guard = lock(py, &self.batch);
        let batch: &mut Batch<Box<dyn Env>> = &mut guard;
        if rngs.len() != self.num_envs {
            return Err(invalid(format!(
                "reset needs {} random states, one per environment, not {}",
                self.num_envs,
                rngs.len()
            )));
        }
        let streams: Vec<Pcg64> = rngs
            .into_iter()
            .enumerate()
            .map(|(i, r)| match r {
                Some(state) => rng_from(state),
                // Never reset: start from seed 0's stream as numpy would
                // from a fixed seed; the Python side always passes states
                // on the first reset.
                None => Ok(batch.env(i).map_or_else(|| Pcg64::from_seed(0), |e| e.rng())),
            })
            .collect::<PyResult<_>>()?;
        let mut obs = vec![0.0f32; self.num_envs * self.observation_len];
        py.detach(|| batch.reset(&streams, &mut obs)).map_err(refused)?;
        let obs = Array2::from_shape_vec((self.num_envs, self.observation_len), obs).expect("n x len");
        Ok(obs.into_pyarray(py))
    }

    /// Steps every environment with its row of ``actions`` (``(num_envs,
    /// action_len)`` floats, or ``(num_envs,)`` ints for a discrete
    /// action): returns ``(observations, rewards, terminated, truncated)``
    /// as numpy arrays. Nothing is stepped if any action is refused.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<f64>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let values = self.actions(actions)?;
        let mut guard = lock(py, &self.batch);
        let batch: &mut Batch<Box<dyn Env>> = &mut guard;
        let mut obs = vec![0.0f32; self.num_envs * self.observation_len];
        py.detach(|| batch.step(&values, &mut obs)).map_err(refused)?;
        let results = batch.results();
        let rewards: Vec<f64> = results.iter().map(|r| r.reward).collect();
        let terminated: Vec<bool> = results.iter().map(|r| r.terminated).collect();
        let truncated: Vec<bool> = results.iter().map(|r| r.truncated).collect();
        let obs = Array2::from_shape_vec((self.num_envs, self.observation_len), obs).expect("n x len");
        Ok((
            obs.into_pyarray(py),
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, terminated),
            PyArray1::from_vec(py, truncated),
        ))
    }

    /// With ``autoreset_mode="same_step"``: which environments' episodes
    /// ended in the last step (a ``bool`` array) and their last
    /// observations (an ``(num_envs, observation_len)`` ``float32`` array,
    /// zero in the rows of the others).
    fn final_observations<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray1<bool>>, Bound<'py, PyArray2<f32>>) {
        let batch = lock(py, &self.batch);
        let n = self.observation_len;
        let mut mask = vec![false; self.num_envs];
        let mut rows = vec![0.0f32; self.num_envs * n];
        for (i, (m, row)) in mask.iter_mut().zip(rows.chunks_mut(n)).enumerate() {
            if let Some(last) = batch.final_observation(i) {
                *m = true;
                row.copy_from_slice(last);
            }
        }
        let rows = Array2::from_shape_vec((self.num_envs, n), rows).expect("n x len");
        (PyArray1::from_vec(py, mask), rows.into_pyarray(py))
    }

    /// Environment ``index`` drawn: an ``(height, width, 3)`` ``uint8`` array.
    fn render<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let batch = lock(py, &self.batch);
        let env = batch
            .env(index)
            .ok_or_else(|| invalid(format!("no environment {index} of {}", self.num_envs)))?;
        Ok(frame(py, env.as_ref()))
    }
}

impl VecCore {
    /// The actions argument as a flat float vector of the batch's shape.
    fn actions(&self, actions: &Bound<'_, PyAny>) -> PyResult<Vec<f32>> {
        let (n, len) = (self.num_envs, self.action_len);
        // A row per environment; a discrete action may come as one
        // number per environment. Any other shape with as many values
        // (the transpose, one flat row) is refused, not spread across
        // the wrong environments.
        let shaped = |shape: &[usize]| {
            if shape == [n, len] || (len == 1 && shape == [n]) {
                return Ok(());
            }
            let tuple = |s: &[usize]| {
                format!(
                    "({})",
                    s.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
                )
            };
            let one = if len == 1 {
                format!(" or ({n},)")
            } else {
                String::new()
            };
            Err(invalid(format!(
                "actions have the shape {}; expected ({n}, {len}){one}: {n} environments x {len} action values",
                tuple(shape)
            )))
        };
        if let Ok(a) = actions.extract::<PyReadonlyArray2<'_, f32>>() {
            shaped(a.as_array().shape())?;
            return Ok(a.as_array().iter().copied().collect());
        }
        if let Ok(a) = actions.extract::<PyReadonlyArray1<'_, i64>>() {
            shaped(a.as_array().shape())?;
            return Ok(a.as_array().iter().map(|&v| v as f32).collect());
        }
        let array = float32_array(actions, "actions")?;
        shaped(&array.getattr("shape")?.extract::<Vec<usize>>()?)?;
        let flat = array
            .call_method0("ravel")?
            .cast_into::<PyArray1<f32>>()
            .map_err(|_| invalid("actions must be numbers"))?;
        Ok(flat.to_vec()?)
    }
}

/// gymnasium's heuristic pilot for the lander: the action for observation
/// ``s`` (an int, or two throttles when ``continuous``).
#[pyfunction]
pub fn lander_heuristic<'py>(py: Python<'py>, s: Vec<f32>, continuous: bool) -> PyResult<Bound<'py, PyAny>> {
    if s.len() != 8 {
        return Err(invalid(format!(
            "a lander observation has 8 values, not {}",
            s.len()
        )));
    }
    let a = tumble_envs::lander_heuristic(&s, continuous);
    if continuous {
        Ok(PyArray1::from_slice(py, &a).into_any())
    } else {
        Ok((a[0] as i64).into_pyobject(py)?.into_any())
    }
}

/// gymnasium's heuristic walker (its ``BipedalWalkerHeuristics``): a
/// three-phase gait (stand on one leg, put the other down, push off) with
/// PD targets on hips and knees. It keeps its phase between calls: use one
/// per episode.
#[pyclass(module = "tumble._tumble")]
pub struct WalkerHeuristic {
    inner: Mutex<tumble_envs::WalkerHeuristic>,
}

#[pymethods]
impl WalkerHeuristic {
    /// A walker about to stand on its second leg and swing the first.
    #[new]
    fn new() -> WalkerHeuristic {
        WalkerHeuristic {
            inner: Mutex::new(tumble_envs::WalkerHeuristic::new()),
        }
    }

    /// The four motor actions for observation ``s`` (24 values),
    /// advancing the gait.
    fn step_heuristic<'py>(&self, py: Python<'py>, s: Vec<f32>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        if s.len() != 24 {
            return Err(invalid(format!(
                "a walker observation has 24 values, not {}",
                s.len()
            )));
        }
        let a = lock(py, &self.inner).act(&s);
        Ok(PyArray1::from_slice(py, &a))
    }
}
