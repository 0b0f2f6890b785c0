//! `Body`: a handle to a body of a world, with its state as properties and
//! the forces and impulses as methods. Its shapes are added by the methods
//! in `shape.rs`.

use crate::errors::{invalid, Check};
use crate::handles::{handle, Handle};
use crate::keys::key;
use crate::objects::{body_obj, joint_obj, read, shape_obj, write, Body, World};
use crate::settings::py_bool;
use crate::vec::{Vec2, V2};
use pyo3::prelude::*;
use tumble::{BodyDef, BodyType, MotionLocks as RustLocks};

/// The body type's name, as Python spells it.
pub fn type_name(t: BodyType) -> &'static str {
    match t {
        BodyType::Static => "static",
        BodyType::Kinematic => "kinematic",
        BodyType::Dynamic => "dynamic",
    }
}

/// The body type of a name.
pub fn parse_type(name: &str) -> PyResult<BodyType> {
    match name {
        "static" => Ok(BodyType::Static),
        "kinematic" => Ok(BodyType::Kinematic),
        "dynamic" => Ok(BodyType::Dynamic),
        _ => Err(invalid(format!(
            "body type must be \"static\", \"kinematic\" or \"dynamic\", not {name:?}"
        ))),
    }
}

/// Which of a body's degrees of freedom are held still: ``x`` and ``y``
/// (its translation along each) and ``rotation``. An upright character
/// locks its rotation.
#[pyclass(module = "tumble", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MotionLocks {
    /// Hold the x translation.
    #[pyo3(get)]
    pub x: bool,
    /// Hold the y translation.
    #[pyo3(get)]
    pub y: bool,
    /// Hold the rotation.
    #[pyo3(get)]
    pub rotation: bool,
}

#[pymethods]
impl MotionLocks {
    #[new]
    #[pyo3(signature = (*, x = false, y = false, rotation = false))]
    fn new(x: bool, y: bool, rotation: bool) -> MotionLocks {
        MotionLocks { x, y, rotation }
    }

    fn __repr__(&self) -> String {
        format!(
            "MotionLocks(x={}, y={}, rotation={})",
            py_bool(self.x),
            py_bool(self.y),
            py_bool(self.rotation)
        )
    }
}

impl From<MotionLocks> for RustLocks {
    fn from(m: MotionLocks) -> RustLocks {
        RustLocks {
            x: m.x,
            y: m.y,
            rotation: m.rotation,
        }
    }
}

impl From<RustLocks> for MotionLocks {
    fn from(m: RustLocks) -> MotionLocks {
        MotionLocks {
            x: m.x,
            y: m.y,
            rotation: m.rotation,
        }
    }
}

#[pymethods]
impl World {
    /// Creates a body and returns it; give it shapes next.
    ///
    /// ``type`` is ``"dynamic"`` (moved by gravity, forces and contacts),
    /// ``"static"`` (never moves: ground, walls) or ``"kinematic"`` (moves
    /// at the velocity it is given, pushed by nothing). Damping is 1/s;
    /// ``gravity_scale`` multiplies gravity for this body; a body created
    /// with ``awake=False`` starts asleep; ``can_sleep=False`` keeps it
    /// (and what it touches) awake; ``sleep_threshold`` (m/s) is the speed
    /// below which it counts as resting (the engine's default when
    /// ``None``). ``user_data`` is any Python object.
    #[pyo3(signature = (
        r#type = "dynamic".to_string(),
        position = V2(tumble::Vec2::ZERO),
        angle = 0.0,
        *,
        linear_velocity = V2(tumble::Vec2::ZERO),
        angular_velocity = 0.0,
        linear_damping = 0.0,
        angular_damping = 0.0,
        gravity_scale = 1.0,
        awake = true,
        can_sleep = true,
        sleep_threshold = None,
        motion_locks = None,
        user_data = None,
    ), text_signature = "(self, type=\"dynamic\", position=(0, 0), angle=0.0, *, linear_velocity=(0, 0), angular_velocity=0.0, linear_damping=0.0, angular_damping=0.0, gravity_scale=1.0, awake=True, can_sleep=True, sleep_threshold=None, motion_locks=None, user_data=None)")]
    fn create_body(
        slf: &Bound<'_, Self>,
        r#type: String,
        position: V2,
        angle: f32,
        linear_velocity: V2,
        angular_velocity: f32,
        linear_damping: f32,
        angular_damping: f32,
        gravity_scale: f32,
        awake: bool,
        can_sleep: bool,
        sleep_threshold: Option<f32>,
        motion_locks: Option<PyRef<'_, MotionLocks>>,
        user_data: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Body> {
        let defaults = BodyDef::default();
        let def = BodyDef {
            body_type: parse_type(&r#type)?,
            position: position.0,
            angle,
            linear_velocity: linear_velocity.0,
            angular_velocity,
            linear_damping,
            angular_damping,
            gravity_scale,
            user_data: 0,
            awake,
            can_sleep,
            sleep_threshold: sleep_threshold.unwrap_or(defaults.sleep_threshold),
            motion_locks: motion_locks.map_or(defaults.motion_locks, |m| (*m).into()),
        };
        let mut w = write(slf)?;
        let id = w.inner.create_body(&def).check()?;
        let body = body_obj(slf, &w, id);
        drop(w);
        if let Some(data) = user_data {
            body.data.bind(slf.py()).set_item(key(id), data)?;
        }
        Ok(body)
    }
}

handle!(Body, "body", |w, id| w.body_type(id));

#[pymethods]
impl Body {
    /// The body's key: an integer that names it in its world
    /// (:meth:`World.body`) and in numpy arrays of bodies. A removed
    /// body's key is never reused.
    #[getter]
    fn key(&self) -> u64 {
        key(self.id)
    }

    /// The world the body belongs to.
    #[getter(world)]
    fn world_of(&self, py: Python<'_>) -> Py<World> {
        self.world.clone_ref(py)
    }

    /// Whether the body still exists (was not removed).
    #[getter]
    fn alive(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.world(py)?.inner.contains_body(self.id))
    }

    /// ``"dynamic"``, ``"static"`` or ``"kinematic"``. Setting it
    /// recomputes the mass and drops the body's contacts.
    #[getter]
    #[pyo3(name = "type")]
    fn body_type(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(type_name(self.world(py)?.inner.body_type(self.id).check()?))
    }

    #[setter]
    #[pyo3(name = "type")]
    fn set_body_type(&self, py: Python<'_>, name: String) -> PyResult<()> {
        let t = parse_type(&name)?;
        self.world_mut(py)?.inner.set_body_type(self.id, t).check()
    }

    /// The position of the body's origin. Setting it teleports the body
    /// (and wakes it).
    #[getter]
    fn position(&self, py: Python<'_>) -> PyResult<Vec2> {
        Ok(self.world(py)?.inner.position(self.id).check()?.into())
    }

    #[setter]
    fn set_position(&self, py: Python<'_>, position: V2) -> PyResult<()> {
        let mut w = self.world_mut(py)?;
        let angle = w.inner.angle(self.id).check()?;
        w.inner.set_transform(self.id, position.0, angle).check()
    }

    /// The angle, radians counter-clockwise. Setting it turns the body
    /// about its origin.
    #[getter]
    fn angle(&self, py: Python<'_>) -> PyResult<f32> {
        self.world(py)?.inner.angle(self.id).check()
    }

    #[setter]
    fn set_angle(&self, py: Python<'_>, angle: f32) -> PyResult<()> {
        let mut w = self.world_mut(py)?;
        let position = w.inner.position(self.id).check()?;
        w.inner.set_transform(self.id, position, angle).check()
    }

    /// Places the body's origin at ``position`` turned by ``angle``, at
    /// once (a teleport: contacts are found again, the body wakes).
    fn set_transform(&self, py: Python<'_>, position: V2, angle: f32) -> PyResult<()> {
        self.world_mut(py)?
            .inner
            .set_transform(self.id, position.0, angle)
            .check()
    }

    /// The center of mass in world coordinates.
    #[getter]
    fn world_center(&self, py: Python<'_>) -> PyResult<Vec2> {
        Ok(self.world(py)?.inner.center_of_mass(self.id).check()?.into())
    }

    /// The center of mass in the body's own coordinates.
    #[getter]
    fn local_center(&self, py: Python<'_>) -> PyResult<Vec2> {
        Ok(self.world(py)?.inner.mass_data(self.id).check()?.center.into())
    }

    /// The velocity of the center of mass, length units per second.
    #[getter]
    fn linear_velocity(&self, py: Python<'_>) -> PyResult<Vec2> {
        Ok(self.world(py)?.inner.linear_velocity(self.id).check()?.into())
    }

    #[setter]
    fn set_linear_velocity(&self, py: Python<'_>, v: V2) -> PyResult<()> {
        self.world_mut(py)?
            .inner
            .set_linear_velocity(self.id, v.0)
            .check()
    }

    /// The angular velocity, radians per second counter-clockwise.
    #[getter]
    fn angular_velocity(&self, py: Python<'_>) -> PyResult<f32> {
        self.world(py)?.inner.angular_velocity(self.id).check()
    }

    #[setter]
    fn set_angular_velocity(&self, py: Python<'_>, w: f32) -> PyResult<()> {
        self.world_mut(py)?.inner.set_angular_velocity(self.id, w).check()
    }

    /// The mass, kg (from the shapes' densities; 0 for a static or
    /// kinematic body).
    #[getter]
    fn mass(&self, py: Python<'_>) -> PyResult<f32> {
        Ok(self.world(py)?.inner.mass_data(self.id).check()?.mass)
    }

    /// The moment of inertia about the center of mass, kg m^2.
    #[getter]
    fn inertia(&self, py: Python<'_>) -> PyResult<f32> {
        Ok(self.world(py)?.inner.mass_data(self.id).check()?.inertia)
    }

    /// Whether the body takes part in the simulation. Setting ``False``
    /// takes it out whole (not stepped, its shapes out of collisions,
    /// queries and sensors, its contacts ended, its joints idle), keeping
    /// its pose, velocity, shapes and joints; ``True`` brings it back
    /// where it was.
    #[getter]
    fn enabled(&self, py: Python<'_>) -> PyResult<bool> {
        self.world(py)?.inner.is_enabled(self.id).check()
    }

    #[setter]
    fn set_enabled(&self, py: Python<'_>, enabled: bool) -> PyResult<()> {
        self.world_mut(py)?.inner.set_enabled(self.id, enabled).check()
    }

    /// Whether the body is simulated now. Setting ``False`` puts its
    /// island to sleep, ``True`` wakes it.
    #[getter]
    fn awake(&self, py: Python<'_>) -> PyResult<bool> {
        self.world(py)?.inner.is_awake(self.id).check()
    }

    #[setter]
    fn set_awake(&self, py: Python<'_>, awake: bool) -> PyResult<()> {
        self.world_mut(py)?.inner.set_awake(self.id, awake).check()
    }

    /// Wakes the body's island.
    fn wake(&self, py: Python<'_>) -> PyResult<()> {
        self.world_mut(py)?.inner.wake(self.id).check()
    }

    /// The degrees of freedom held still (a :class:`MotionLocks`).
    #[getter]
    fn motion_locks(&self, py: Python<'_>) -> PyResult<MotionLocks> {
        Ok(self.world(py)?.inner.motion_locks(self.id).check()?.into())
    }

    #[setter]
    fn set_motion_locks(&self, py: Python<'_>, locks: PyRef<'_, MotionLocks>) -> PyResult<()> {
        let locks = (*locks).into();
        self.world_mut(py)?.inner.set_motion_locks(self.id, locks).check()
    }

    /// Sets the linear and angular damping, 1/s (zero or more).
    fn set_damping(&self, py: Python<'_>, linear: f32, angular: f32) -> PyResult<()> {
        self.world_mut(py)?
            .inner
            .set_damping(self.id, linear, angular)
            .check()
    }

    /// Sets the factor gravity is multiplied by for this body (0 floats).
    fn set_gravity_scale(&self, py: Python<'_>, scale: f32) -> PyResult<()> {
        self.world_mut(py)?
            .inner
            .set_gravity_scale(self.id, scale)
            .check()
    }

    /// Sets the mass (kg), the moment of inertia about the center of mass
    /// (kg m^2; 0 keeps the body from turning) and the center of mass (in
    /// the body's coordinates; the current one if ``None``) by hand, in
    /// place of what the shapes give. Holds until a shape is added or
    /// removed, the body type or locks change, or
    /// :meth:`reset_mass_data`. Dynamic bodies only; bad values raise
    /// ``ValueError`` and change nothing.
    #[pyo3(signature = (mass, inertia, center = None))]
    fn set_mass_data(&self, py: Python<'_>, mass: f32, inertia: f32, center: Option<V2>) -> PyResult<()> {
        let mut w = self.world_mut(py)?;
        let center = match center {
            Some(c) => c.0,
            None => w.inner.mass_data(self.id).check()?.center,
        };
        let md = tumble::MassData {
            mass,
            center,
            inertia,
        };
        w.inner.set_mass_data(self.id, md).check()
    }

    /// Recomputes the mass, inertia and center of mass from the shapes'
    /// densities, undoing :meth:`set_mass_data`.
    fn reset_mass_data(&self, py: Python<'_>) -> PyResult<()> {
        self.world_mut(py)?.inner.reset_mass_data(self.id).check()
    }

    /// Applies a force (N) until the end of the next step, at ``point``
    /// (world coordinates) or at the center of mass; wakes the body.
    #[pyo3(signature = (force, point = None))]
    fn apply_force(&self, py: Python<'_>, force: V2, point: Option<V2>) -> PyResult<()> {
        let mut w = self.world_mut(py)?;
        match point {
            Some(p) => w.inner.apply_force(self.id, force.0, p.0).check(),
            None => w.inner.apply_force_to_center(self.id, force.0).check(),
        }
    }

    /// Applies a torque (N m) until the end of the next step; wakes the
    /// body.
    fn apply_torque(&self, py: Python<'_>, torque: f32) -> PyResult<()> {
        self.world_mut(py)?.inner.apply_torque(self.id, torque).check()
    }

    /// Applies an impulse (N s) at ``point`` (world coordinates) or at the
    /// center of mass: the velocity changes at once.
    #[pyo3(signature = (impulse, point = None))]
    fn apply_impulse(&self, py: Python<'_>, impulse: V2, point: Option<V2>) -> PyResult<()> {
        let mut w = self.world_mut(py)?;
        match point {
            Some(p) => w.inner.apply_linear_impulse(self.id, impulse.0, p.0).check(),
            None => w.inner.apply_linear_impulse_to_center(self.id, impulse.0).check(),
        }
    }

    /// Applies an angular impulse (N m s): the spin changes at once.
    fn apply_angular_impulse(&self, py: Python<'_>, impulse: f32) -> PyResult<()> {
        self.world_mut(py)?
            .inner
            .apply_angular_impulse(self.id, impulse)
            .check()
    }

    /// The velocity of the body's point now at ``point`` (world
    /// coordinates).
    fn velocity_at_point(&self, py: Python<'_>, point: V2) -> PyResult<Vec2> {
        Ok(self
            .world(py)?
            .inner
            .velocity_at_point(self.id, point.0)
            .check()?
            .into())
    }

    /// A point given in the body's coordinates, in the world's.
    fn world_point(&self, py: Python<'_>, local: V2) -> PyResult<Vec2> {
        let xf = self.world(py)?.inner.transform(self.id).check()?;
        Ok(xf.apply(local.0).into())
    }

    /// A world point in the body's coordinates.
    fn local_point(&self, py: Python<'_>, point: V2) -> PyResult<Vec2> {
        let xf = self.world(py)?.inner.transform(self.id).check()?;
        Ok(xf.inv_apply(point.0).into())
    }

    /// A direction given in the body's coordinates, in the world's.
    fn world_vector(&self, py: Python<'_>, local: V2) -> PyResult<Vec2> {
        let xf = self.world(py)?.inner.transform(self.id).check()?;
        Ok(xf.q.rotate(local.0).into())
    }

    /// The body's shapes, in the order they were added.
    #[getter]
    fn shapes(&self, py: Python<'_>) -> PyResult<Vec<crate::objects::Shape>> {
        let world = self.world.bind(py);
        let w = read(world)?;
        let ids = w.inner.body_shapes(self.id).check()?;
        Ok(ids.into_iter().map(|id| shape_obj(world, &w, id)).collect())
    }

    /// The body's contacts with manifold points now (touching, or within
    /// the speculative distance), each a :class:`Contact`: the body is
    /// ``body_a`` or ``body_b`` of each. Reads only this body's contacts.
    fn contacts(&self, py: Python<'_>) -> PyResult<Vec<crate::events::Contact>> {
        let world = self.world.bind(py);
        let w = read(world)?;
        let list = w.inner.body_contacts(self.id).check()?;
        list.map(|c| crate::events::contact(world, &w, &c)).collect()
    }

    /// The joints on the body, most recent first.
    #[getter]
    fn joints(&self, py: Python<'_>) -> PyResult<Vec<crate::objects::Joint>> {
        let world = self.world.bind(py);
        let w = read(world)?;
        let ids = w.inner.body_joints(self.id).check()?;
        Ok(ids.into_iter().map(|id| joint_obj(world, &w, id)).collect())
    }

    /// Removes the body with its shapes and joints (their handles become
    /// stale, their user data is dropped); what it touched wakes up.
    fn remove(&self, py: Python<'_>) -> PyResult<()> {
        let world = self.world.bind(py);
        let mut w = write(world)?;
        let shapes = w.inner.body_shapes(self.id).check()?;
        let joints = w.inner.body_joints(self.id).check()?;
        w.inner.remove_body(self.id).check()?;
        for s in shapes {
            let _ = w.data.shapes.bind(py).del_item(key(s));
        }
        for j in joints {
            let _ = w.data.joints.bind(py).del_item(key(j));
        }
        let _ = w.data.bodies.bind(py).del_item(key(self.id));
        Ok(())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let k = key(self.id);
        let Ok(w) = self.world(py) else {
            return format!("<tumble.Body {k}>");
        };
        match (w.inner.body_type(self.id), w.inner.position(self.id)) {
            (Ok(t), Ok(p)) => format!("<tumble.Body {k} {} at ({:?}, {:?})>", type_name(t), p.x, p.y),
            _ => format!("<tumble.Body {k} (removed)>"),
        }
    }
}
