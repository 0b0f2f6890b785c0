//! Contact hooks from Python: the step asks a Python object about new
//! pairs (`should_collide`) and touching contacts (`pre_solve`), or runs
//! the engine's `OneWayPlatforms` without calling Python at all.
//!
//! The step runs with the GIL released; each question takes the GIL, makes
//! the argument objects and calls Python, so a hook costs a few
//! microseconds per contact it is asked about (the Python guide gives
//! the figure). The engine may ask from several worker threads; the
//! GIL serialises the calls. A hook cannot call its world (it is being
//! stepped: such a call raises), but it can read the shapes' and bodies'
//! user data.

use crate::errors::{invalid, Check};
use crate::objects::Body;
use crate::objects::Shape;
use crate::objects::{write, World};
use crate::vec::{Vec2, V2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Mutex;
use tumble::collision::Manifold;
use tumble::{ContactHooks, ContactMaterial};

/// Platforms a body jumps up through and lands on, run inside the engine
/// (no Python call per contact): pass it as ``World.step(dt, hooks=...)``.
/// The platforms' shapes must be created with ``pre_solve=True``. A
/// contact with a platform holds only while the other shape is on its
/// ``up`` side (any nonzero direction) and sunk less than
/// ``sink_tolerance`` (zero or more) into it. Bad values, or platforms of
/// another world or removed, raise when made or when stepped with.
#[pyclass(module = "tumble")]
pub struct OneWayPlatforms {
    /// The platforms' shapes.
    #[pyo3(get, set)]
    pub platforms: Vec<Py<Shape>>,
    /// The side bodies land on.
    #[pyo3(get, set)]
    pub up: V2,
    /// How deep a body may sink into a platform and still be held.
    #[pyo3(get, set)]
    pub sink_tolerance: f32,
}

#[pymethods]
impl OneWayPlatforms {
    #[new]
    #[pyo3(signature = (platforms = Vec::new(), up = None, sink_tolerance = None))]
    fn new(
        platforms: Vec<Py<Shape>>,
        up: Option<V2>,
        sink_tolerance: Option<f32>,
    ) -> PyResult<OneWayPlatforms> {
        let d = tumble::OneWayPlatforms::default();
        let p = OneWayPlatforms {
            platforms,
            up: up.unwrap_or(V2(d.up)),
            sink_tolerance: sink_tolerance.unwrap_or(d.sink_tolerance),
        };
        p.direction()?;
        usable(p.sink_tolerance, "sink_tolerance", true)?;
        Ok(p)
    }
}

impl OneWayPlatforms {
    /// `up` as a unit vector: refused when zero or not finite.
    fn direction(&self) -> PyResult<tumble::Vec2> {
        let up = self.up.0;
        let unit = up.normalize_or_zero();
        if !up.is_finite() || unit == tumble::Vec2::ZERO {
            return Err(invalid("up must be a finite, nonzero direction"));
        }
        Ok(unit)
    }

    /// The engine's platforms for `world` (`w`, borrowed): every shape one
    /// of its live shapes.
    fn native(&self, world: &Bound<'_, World>, w: &World) -> PyResult<tumble::OneWayPlatforms> {
        let py = world.py();
        let mut platforms = Vec::with_capacity(self.platforms.len());
        for s in &self.platforms {
            let s = s.bind(py).get();
            if !s.world.is(world) {
                return Err(invalid("a platform is a shape of another world"));
            }
            // A removed shape raises StaleHandleError.
            w.inner.shape(s.id).check()?;
            platforms.push(s.id);
        }
        Ok(tumble::OneWayPlatforms {
            platforms,
            up: self.direction()?,
            sink_tolerance: usable(self.sink_tolerance, "sink_tolerance", true)?,
        })
    }
}

/// The two shapes of a pair the step asks ``should_collide`` about, with
/// their bodies.
#[pyclass(module = "tumble", frozen, get_all)]
pub struct ShapePair {
    /// The first shape.
    pub shape_a: Py<Shape>,
    /// The second shape.
    pub shape_b: Py<Shape>,
    /// The first shape's body.
    pub body_a: Py<Body>,
    /// The second shape's body.
    pub body_b: Py<Body>,
}

/// A touching contact the step asks ``pre_solve`` about: its shapes and
/// bodies, the ``normal`` (from A to B) and ``points`` (``(point,
/// separation)`` pairs; negative separation is overlap), and the material
/// the solver will use this step, which the hook may change:
/// ``friction``, ``restitution`` and ``tangent_speed`` (a conveyor belt's
/// surface speed).
#[pyclass(module = "tumble", get_all)]
pub struct PreSolveContact {
    /// The first shape.
    pub shape_a: Py<Shape>,
    /// The second shape.
    pub shape_b: Py<Shape>,
    /// The first shape's body.
    pub body_a: Py<Body>,
    /// The second shape's body.
    pub body_b: Py<Body>,
    /// The contact normal, from A to B.
    pub normal: Py<Vec2>,
    /// The manifold's points, ``(point, separation)``.
    pub points: Vec<(Py<Vec2>, f32)>,
    /// The friction this step (zero or more).
    pub friction: f32,
    /// The restitution this step (zero or more).
    pub restitution: f32,
    /// The speed B's surface moves at relative to A's along the tangent
    /// (the normal turned clockwise).
    pub tangent_speed: f32,
}

fn usable(x: f32, what: &str, nonnegative: bool) -> PyResult<f32> {
    if !x.is_finite() {
        return Err(invalid(format!("{what} is NaN or infinite")));
    }
    if nonnegative && x < 0.0 {
        return Err(invalid(format!("{what} must not be negative")));
    }
    Ok(x)
}

#[pymethods]
impl PreSolveContact {
    #[setter]
    fn set_friction(&mut self, x: f32) -> PyResult<()> {
        self.friction = usable(x, "friction", true)?;
        Ok(())
    }

    #[setter]
    fn set_restitution(&mut self, x: f32) -> PyResult<()> {
        self.restitution = usable(x, "restitution", true)?;
        Ok(())
    }

    #[setter]
    fn set_tangent_speed(&mut self, x: f32) -> PyResult<()> {
        self.tangent_speed = usable(x, "tangent speed", false)?;
        Ok(())
    }
}

/// A pair's shapes and bodies as handle objects: A's shape, B's, A's
/// body, B's.
type PairHandles = (Py<Shape>, Py<Shape>, Py<Body>, Py<Body>);

/// The handles the hooks' arguments are made from.
struct Handles {
    world: Py<World>,
    bodies: Py<PyDict>,
    shapes: Py<PyDict>,
}

impl Handles {
    fn pair(&self, py: Python<'_>, p: &tumble::ShapePair) -> PyResult<PairHandles> {
        let shape = |id| {
            Py::new(
                py,
                Shape {
                    world: self.world.clone_ref(py),
                    data: self.shapes.clone_ref(py),
                    id,
                },
            )
        };
        let body = |id| {
            Py::new(
                py,
                Body {
                    world: self.world.clone_ref(py),
                    data: self.bodies.clone_ref(py),
                    id,
                },
            )
        };
        Ok((
            shape(p.shape_a)?,
            shape(p.shape_b)?,
            body(p.body_a)?,
            body(p.body_b)?,
        ))
    }
}

/// A Python object as the engine's hooks.
struct PyHooks {
    handles: Handles,
    hooks: Py<PyAny>,
    should_collide: bool,
    pre_solve: bool,
    /// The first exception a hook raised; raised again after the step.
    error: Mutex<Option<PyErr>>,
}

impl PyHooks {
    /// Runs `call` unless a hook already failed; an exception is kept and
    /// the answer is `true`.
    ///
    /// The lock on the kept exception is never held across the call: a
    /// Python call may give up the GIL (a sleep, I/O, the interpreter's
    /// switch interval), and a worker holding the lock while it waits to
    /// take the GIL back would wait for ever on another that took the GIL
    /// and waits for the lock.
    fn ask(&self, call: impl FnOnce(Python<'_>) -> PyResult<bool>) -> bool {
        Python::attach(|py| {
            if self.failed() {
                return true;
            }
            match call(py) {
                Ok(keep) => keep,
                Err(e) => {
                    let mut error = self.error.lock().unwrap_or_else(|e| e.into_inner());
                    // (Another worker's hook may have failed meanwhile:
                    // the first kept is the one raised.)
                    error.get_or_insert(e);
                    true
                }
            }
        })
    }

    /// Whether a hook has raised.
    fn failed(&self) -> bool {
        self.error.lock().unwrap_or_else(|e| e.into_inner()).is_some()
    }
}

/// A hook's answer: only `False` (or a falsy value other than `None`)
/// refuses.
fn answer(r: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(r.is_none() || r.is_truthy()?)
}

impl ContactHooks for PyHooks {
    fn should_collide(&self, pair: &tumble::ShapePair) -> bool {
        if !self.should_collide {
            return true;
        }
        self.ask(|py| {
            let (shape_a, shape_b, body_a, body_b) = self.handles.pair(py, pair)?;
            let arg = ShapePair {
                shape_a,
                shape_b,
                body_a,
                body_b,
            };
            answer(&self.hooks.bind(py).call_method1("should_collide", (arg,))?)
        })
    }

    fn pre_solve(
        &self,
        pair: &tumble::ShapePair,
        manifold: &Manifold,
        material: &mut ContactMaterial,
    ) -> bool {
        if !self.pre_solve {
            return true;
        }
        let mut out = *material;
        let keep = self.ask(|py| {
            let (shape_a, shape_b, body_a, body_b) = self.handles.pair(py, pair)?;
            let points = manifold
                .points()
                .iter()
                .map(|p| Ok((Py::new(py, Vec2::from(p.point))?, p.separation)))
                .collect::<PyResult<_>>()?;
            let contact = Bound::new(
                py,
                PreSolveContact {
                    shape_a,
                    shape_b,
                    body_a,
                    body_b,
                    normal: Py::new(py, Vec2::from(manifold.normal))?,
                    points,
                    friction: material.friction,
                    restitution: material.restitution,
                    tangent_speed: material.tangent_speed,
                },
            )?;
            let keep = answer(&self.hooks.bind(py).call_method1("pre_solve", (&contact,))?)?;
            let c = contact.borrow();
            out = ContactMaterial {
                friction: c.friction,
                restitution: c.restitution,
                tangent_speed: c.tangent_speed,
            };
            Ok(keep)
        });
        *material = out;
        keep
    }
}

/// Steps `world` by `dt` asking `hooks` (see `World.step`).
pub fn step_with(world: &Bound<'_, World>, dt: f32, hooks: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = world.py();
    if let Ok(p) = hooks.cast::<OneWayPlatforms>() {
        let mut w = write(world)?;
        let native = p.borrow().native(world, &w)?;
        let inner = &mut w.inner;
        py.detach(|| inner.step_with_hooks(dt, &native));
        return Ok(());
    }
    let has =
        |name: &str| -> PyResult<bool> { Ok(hooks.hasattr(name)? && hooks.getattr(name)?.is_callable()) };
    let mut w = write(world)?;
    let adapter = PyHooks {
        handles: Handles {
            world: world.clone().unbind(),
            bodies: w.data.bodies.clone_ref(py),
            shapes: w.data.shapes.clone_ref(py),
        },
        hooks: hooks.clone().unbind(),
        should_collide: has("should_collide")?,
        pre_solve: has("pre_solve")?,
        error: Mutex::new(None),
    };
    let inner = &mut w.inner;
    py.detach(|| inner.step_with_hooks(dt, &adapter));
    drop(w);
    match adapter.error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
