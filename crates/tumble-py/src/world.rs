//! `World`: its settings, the step, the counts and lists, and the lookup
//! of handles by key. Bodies, shapes, joints, queries, events, snapshots
//! and the numpy calls add their methods to it from their own files.

use crate::errors::{invalid, Check};
use crate::hooks;
use crate::keys::handle;
use crate::objects::{body_obj, joint_obj, read, shape_obj, write, Body, Joint, Shape, World};
use crate::settings::SolverSettings;
use crate::vec::{Vec2, V2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::{PyTraverseError, PyVisit};
use tumble::{BodyId, JointId, ShapeId, WorldSettings};

#[pymethods]
impl World {
    /// A new, empty world.
    ///
    /// ``gravity`` is in length units per second squared. ``sleeping``
    /// lets islands of resting bodies fall asleep (they cost nothing until
    /// touched). ``workers`` is how many threads a step runs on (the
    /// results are the same bits for any count). ``length_units_per_meter``
    /// scales every tolerance for a world in pixels, say.
    /// ``hit_event_threshold`` is the approach speed above which a contact
    /// that begins is reported as a hit. ``max_linear_speed``,
    /// ``max_step`` and ``max_step_splits`` bound a body's speed and the
    /// longest step taken at once (the engine's defaults when ``None``).
    /// ``smooth_seams`` makes polygons that never move relative to each
    /// other (the tiles of a tile map) collide as one surface where they
    /// lie edge to edge (see :attr:`smooth_seams`). ``profiling`` times
    /// each stage of the step into :attr:`profile` (see :attr:`profiling`).
    /// ``solver`` is a :class:`SolverSettings`.
    #[new]
    #[pyo3(signature = (
        gravity = V2(tumble::Vec2::new(0.0, -10.0)),
        *,
        sleeping = true,
        workers = 1,
        length_units_per_meter = 1.0,
        hit_event_threshold = None,
        max_linear_speed = None,
        max_step = None,
        max_step_splits = None,
        smooth_seams = true,
        profiling = true,
        solver = None,
    ), text_signature = "(gravity=(0, -10), *, sleeping=True, workers=1, length_units_per_meter=1.0, hit_event_threshold=None, max_linear_speed=None, max_step=None, max_step_splits=None, smooth_seams=True, profiling=True, solver=None)")]
    fn new(
        py: Python<'_>,
        gravity: V2,
        sleeping: bool,
        workers: usize,
        length_units_per_meter: f32,
        hit_event_threshold: Option<f32>,
        max_linear_speed: Option<f32>,
        max_step: Option<f32>,
        max_step_splits: Option<u32>,
        smooth_seams: bool,
        profiling: bool,
        solver: Option<PyRef<'_, SolverSettings>>,
    ) -> PyResult<World> {
        let defaults = WorldSettings::default();
        let asked = WorldSettings {
            length_units_per_meter,
            hit_event_threshold: hit_event_threshold.unwrap_or(defaults.hit_event_threshold),
            sleeping,
            smooth_seams,
            profiling,
            ..defaults
        };
        // `tumble::World::new` repairs what it cannot use; a caller here
        // is told instead.
        let mut inner = tumble::World::new(asked);
        if inner.settings().length_units_per_meter != asked.length_units_per_meter {
            return Err(invalid(format!(
                "length units per meter must lie in {:?}",
                tumble::settings::LENGTH_UNITS_RANGE
            )));
        }
        if inner.settings().hit_event_threshold != asked.hit_event_threshold {
            return Err(invalid("hit event threshold must be zero or positive and finite"));
        }
        inner.set_gravity(gravity.0).check()?;
        inner.set_workers(workers).check()?;
        if let Some(speed) = max_linear_speed {
            inner.set_max_linear_speed(speed).check()?;
        }
        let splits = max_step_splits.unwrap_or(inner.settings().max_step_splits);
        inner
            .set_max_step(max_step.unwrap_or(inner.settings().max_step), splits)
            .check()?;
        if let Some(s) = solver {
            inner.set_solver_settings(s.to_rust()).check()?;
        }
        Ok(World::wrap(py, inner))
    }

    fn __repr__(slf: &Bound<'_, Self>) -> String {
        // (A repr never raises: a world being stepped says so.)
        let Ok(w) = read(slf) else {
            return "<tumble.World: being stepped>".to_string();
        };
        format!(
            "<tumble.World: {} bodies, {} shapes, {} joints, {} contacts, step {}>",
            w.inner.body_count(),
            w.inner.shape_count(),
            w.inner.joint_count(),
            w.inner.contact_count(),
            w.inner.step_count()
        )
    }

    /// Advances the world by ``dt`` seconds (``1/60`` for a 60 Hz game).
    ///
    /// A ``dt`` that is not positive and finite does nothing; one longer
    /// than :attr:`max_step` is run as several shorter steps. The GIL is
    /// released while the world steps, so Python threads can step separate
    /// worlds at once.
    ///
    /// ``hooks`` asks the game about contacts: a :class:`OneWayPlatforms`,
    /// or any object with a ``should_collide(pair)`` and/or a
    /// ``pre_solve(contact)`` method (see :class:`ContactHooks`). Only
    /// shapes created with ``custom_filter=True`` or ``pre_solve=True`` are
    /// asked about. An exception a hook raises is raised again when the
    /// step ends (the step completes, the hook's answer taken as ``True``).
    #[pyo3(signature = (dt, hooks = None))]
    fn step(slf: &Bound<'_, Self>, dt: f32, hooks: Option<Bound<'_, PyAny>>) -> PyResult<()> {
        let py = slf.py();
        match hooks {
            None => {
                let mut w = write(slf)?;
                let inner = &mut w.inner;
                py.detach(|| inner.step(dt));
                Ok(())
            }
            Some(h) => hooks::step_with(slf, dt, &h),
        }
    }

    /// Gravity, length units per second squared (default ``(0, -10)``).
    /// Changing it wakes every sleeping body.
    #[getter]
    fn gravity(slf: &Bound<'_, Self>) -> PyResult<Vec2> {
        let w = read(slf)?;
        Ok(w.inner.gravity().into())
    }

    #[setter]
    fn set_gravity(slf: &Bound<'_, Self>, gravity: V2) -> PyResult<()> {
        let mut w = write(slf)?;
        w.inner.set_gravity(gravity.0).check()
    }

    /// Whether islands of resting bodies fall asleep. Turning it off wakes
    /// every body.
    #[getter]
    fn sleeping(slf: &Bound<'_, Self>) -> PyResult<bool> {
        let w = read(slf)?;
        Ok(w.inner.settings().sleeping)
    }

    #[setter]
    fn set_sleeping(slf: &Bound<'_, Self>, on: bool) -> PyResult<()> {
        let mut w = write(slf)?;
        w.inner.set_sleeping(on);
        Ok(())
    }

    /// Whether polygons that never move relative to each other (shapes of
    /// one body, or of static bodies) and lie edge to edge, as the tiles
    /// of a tile map do, collide as one surface: a body sliding or
    /// rolling over the seam between two tiles meets the flat floor they
    /// make, not the tiles' inner sides (no ghost collisions). On by
    /// default; :attr:`Shape.seam_edges` tells which edges are seams.
    #[getter]
    fn smooth_seams(slf: &Bound<'_, Self>) -> PyResult<bool> {
        let w = read(slf)?;
        Ok(w.inner.settings().smooth_seams)
    }

    #[setter]
    fn set_smooth_seams(slf: &Bound<'_, Self>, on: bool) -> PyResult<()> {
        let mut w = write(slf)?;
        w.inner.set_smooth_seams(on);
        Ok(())
    }

    /// Whether the step times its stages into :attr:`profile` (on by
    /// default). Off, the step reads no clock and :attr:`profile` reads
    /// zero: the timing costs a few percent of the step of a world of a
    /// few bodies, nothing measurable in a large one.
    #[getter]
    fn profiling(slf: &Bound<'_, Self>) -> PyResult<bool> {
        let w = read(slf)?;
        Ok(w.inner.settings().profiling)
    }

    #[setter]
    fn set_profiling(slf: &Bound<'_, Self>, on: bool) -> PyResult<()> {
        let mut w = write(slf)?;
        w.inner.set_profiling(on);
        Ok(())
    }

    /// How many threads the step runs on (1 to the engine's limit). The
    /// results do not depend on it.
    #[getter]
    fn workers(slf: &Bound<'_, Self>) -> PyResult<usize> {
        let w = read(slf)?;
        Ok(w.inner.settings().workers)
    }

    #[setter]
    fn set_workers(slf: &Bound<'_, Self>, workers: usize) -> PyResult<()> {
        let mut w = write(slf)?;
        w.inner.set_workers(workers).check()
    }

    /// How many threads the step actually runs on (:attr:`workers`, or 1
    /// if the system refused the threads).
    #[getter]
    fn worker_threads(slf: &Bound<'_, Self>) -> PyResult<usize> {
        let w = read(slf)?;
        Ok(w.inner.worker_threads())
    }

    /// The fastest a body moves, metres per second (scaled by the length
    /// unit); a faster body is slowed to it.
    #[getter]
    fn max_linear_speed(slf: &Bound<'_, Self>) -> PyResult<f32> {
        let w = read(slf)?;
        Ok(w.inner.settings().max_linear_speed)
    }

    #[setter]
    fn set_max_linear_speed(slf: &Bound<'_, Self>, speed: f32) -> PyResult<()> {
        let mut w = write(slf)?;
        w.inner.set_max_linear_speed(speed).check()
    }

    /// The longest step taken at once, seconds: a longer ``dt`` is split
    /// into equal steps no longer than this, at most
    /// :attr:`max_step_splits` of them.
    #[getter]
    fn max_step(slf: &Bound<'_, Self>) -> PyResult<f32> {
        let w = read(slf)?;
        Ok(w.inner.settings().max_step)
    }

    #[setter]
    fn set_max_step(slf: &Bound<'_, Self>, max_step: f32) -> PyResult<()> {
        let mut w = write(slf)?;
        let splits = w.inner.settings().max_step_splits;
        w.inner.set_max_step(max_step, splits).check()
    }

    /// The most steps one call to :meth:`step` runs.
    #[getter]
    fn max_step_splits(slf: &Bound<'_, Self>) -> PyResult<u32> {
        let w = read(slf)?;
        Ok(w.inner.settings().max_step_splits)
    }

    #[setter]
    fn set_max_step_splits(slf: &Bound<'_, Self>, splits: u32) -> PyResult<()> {
        let mut w = write(slf)?;
        let max_step = w.inner.settings().max_step;
        w.inner.set_max_step(max_step, splits).check()
    }

    /// Length units per metre (fixed when the world is made).
    #[getter]
    fn length_units_per_meter(slf: &Bound<'_, Self>) -> PyResult<f32> {
        let w = read(slf)?;
        Ok(w.inner.settings().length_units_per_meter)
    }

    /// The approach speed above which a contact beginning is a hit
    /// (fixed when the world is made).
    #[getter]
    fn hit_event_threshold(slf: &Bound<'_, Self>) -> PyResult<f32> {
        let w = read(slf)?;
        Ok(w.inner.settings().hit_event_threshold)
    }

    /// The solver's settings, a copy: change it and assign it back.
    #[getter]
    fn solver(slf: &Bound<'_, Self>) -> PyResult<SolverSettings> {
        let w = read(slf)?;
        Ok(SolverSettings::from_rust(w.inner.solver_settings()))
    }

    #[setter]
    fn set_solver(slf: &Bound<'_, Self>, settings: PyRef<'_, SolverSettings>) -> PyResult<()> {
        let mut w = write(slf)?;
        w.inner.set_solver_settings(settings.to_rust()).check()
    }

    /// Steps taken so far.
    #[getter]
    fn step_count(slf: &Bound<'_, Self>) -> PyResult<u64> {
        let w = read(slf)?;
        Ok(w.inner.step_count())
    }

    /// Number of live bodies.
    #[getter]
    fn body_count(slf: &Bound<'_, Self>) -> PyResult<usize> {
        let w = read(slf)?;
        Ok(w.inner.body_count())
    }

    /// Number of live shapes.
    #[getter]
    fn shape_count(slf: &Bound<'_, Self>) -> PyResult<usize> {
        let w = read(slf)?;
        Ok(w.inner.shape_count())
    }

    /// Number of live joints.
    #[getter]
    fn joint_count(slf: &Bound<'_, Self>) -> PyResult<usize> {
        let w = read(slf)?;
        Ok(w.inner.joint_count())
    }

    /// Number of contacts (pairs of shapes whose boxes overlap).
    #[getter]
    fn contact_count(slf: &Bound<'_, Self>) -> PyResult<usize> {
        let w = read(slf)?;
        Ok(w.inner.contact_count())
    }

    /// Number of bodies awake (simulated) now.
    #[getter]
    fn awake_body_count(slf: &Bound<'_, Self>) -> PyResult<usize> {
        let w = read(slf)?;
        Ok(w.inner.awake_body_count())
    }

    /// Every live body, in slot order (the order of :meth:`body_ids`).
    #[getter]
    fn bodies(slf: &Bound<'_, Self>) -> PyResult<Vec<Body>> {
        let w = read(slf)?;
        Ok(w.inner.bodies().map(|id| body_obj(slf, &w, id)).collect())
    }

    /// Every live joint, in slot order.
    #[getter]
    fn joints(slf: &Bound<'_, Self>) -> PyResult<Vec<Joint>> {
        let w = read(slf)?;
        Ok(w.inner.joints().map(|id| joint_obj(slf, &w, id)).collect())
    }

    /// Bodies the step froze because their state stopped being finite or
    /// left the world's extent; a new transform frees one.
    #[getter]
    fn frozen_bodies(slf: &Bound<'_, Self>) -> PyResult<Vec<Body>> {
        let w = read(slf)?;
        Ok(w.inner
            .frozen_bodies()
            .iter()
            .map(|&id| body_obj(slf, &w, id))
            .collect())
    }

    /// The body whose key (:attr:`Body.key`) is ``key``.
    /// Raises :class:`StaleHandleError` if it was removed.
    fn body(slf: &Bound<'_, Self>, key: u64) -> PyResult<Body> {
        let w = read(slf)?;
        match handle::<BodyId>(key).filter(|&id| w.inner.contains_body(id)) {
            Some(id) => Ok(body_obj(slf, &w, id)),
            None => Err::<Body, _>(tumble::BodyError::StaleHandle).check(),
        }
    }

    /// The shape whose key (:attr:`Shape.key`) is ``key``.
    fn shape(slf: &Bound<'_, Self>, key: u64) -> PyResult<Shape> {
        let w = read(slf)?;
        match handle::<ShapeId>(key).filter(|&id| w.inner.shape_body(id).is_ok()) {
            Some(id) => Ok(shape_obj(slf, &w, id)),
            None => Err::<Shape, _>(tumble::BodyError::StaleHandle).check(),
        }
    }

    /// The joint whose key (:attr:`Joint.key`) is ``key``.
    fn joint(slf: &Bound<'_, Self>, key: u64) -> PyResult<Joint> {
        let w = read(slf)?;
        match handle::<JointId>(key).filter(|&id| w.inner.contains_joint(id)) {
            Some(id) => Ok(joint_obj(slf, &w, id)),
            None => Err::<Joint, _>(tumble::JointError::StaleHandle).check(),
        }
    }

    /// How long each stage of the last step took, milliseconds, by name.
    #[getter]
    fn profile<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let w = read(slf)?;
        let p = w.inner.profile();
        let d = PyDict::new(py);
        for (name, ms) in [
            ("update_pairs", p.update_pairs),
            ("collide", p.collide),
            ("contact_changes", p.contact_changes),
            ("solve", p.solve),
            ("finalize", p.finalize),
            ("continuous", p.continuous),
            ("sensors", p.sensors),
            ("update_broadphase", p.update_broadphase),
            ("sleep", p.sleep),
            ("total", p.total),
        ] {
            d.set_item(name, ms)?;
        }
        Ok(d)
    }

    /// Heap memory the world holds, bytes, by part (and ``total``).
    #[getter]
    fn memory_usage<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let w = read(slf)?;
        let m = w.inner.memory_usage();
        let d = PyDict::new(py);
        for (name, bytes) in [
            ("bodies", m.bodies),
            ("shapes", m.shapes),
            ("contacts", m.contacts),
            ("broadphase", m.broadphase),
            ("joints", m.joints),
            ("solver_bodies", m.solver_bodies),
            ("solver_contacts", m.solver_contacts),
            ("total", m.total()),
        ] {
            d.set_item(name, bytes)?;
        }
        Ok(d)
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.data.bodies)?;
        visit.call(&self.data.shapes)?;
        visit.call(&self.data.joints)
    }

    fn __clear__(&mut self) {
        Python::attach(|py| {
            for d in [&self.data.bodies, &self.data.shapes, &self.data.joints] {
                d.bind(py).clear();
            }
        });
    }
}

/// The handle of `kind` (``"body"``, ``"shape"`` or ``"joint"``) with
/// `key` in `world`: how pickle and `copy` rebuild a handle (a stale one
/// too, which stays stale).
#[pyfunction]
pub fn _handle(world: &Bound<'_, World>, kind: String, key: u64) -> PyResult<Py<PyAny>> {
    let py = world.py();
    let w = read(world)?;
    let bad = || invalid(format!("no {kind} handle has the key {key}"));
    Ok(match kind.as_str() {
        "body" => {
            let id = handle::<BodyId>(key).ok_or_else(bad)?;
            body_obj(world, &w, id).into_pyobject(py)?.into_any().unbind()
        }
        "shape" => {
            let id = handle::<ShapeId>(key).ok_or_else(bad)?;
            shape_obj(world, &w, id).into_pyobject(py)?.into_any().unbind()
        }
        "joint" => {
            let id = handle::<JointId>(key).ok_or_else(bad)?;
            joint_obj(world, &w, id).into_pyobject(py)?.into_any().unbind()
        }
        _ => return Err(invalid(format!("no handle kind {kind:?}"))),
    })
}
