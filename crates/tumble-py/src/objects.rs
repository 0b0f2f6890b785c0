//! The Python objects of the engine's world and handles: `World`'s
//! object and the `Body`, `Shape` and `Joint` handle classes, made here
//! for every file that hands them out. Their methods live with what they
//! do: the world's in `world.rs` and beside each kind of thing it holds,
//! a body's in `body.rs`, and so on.

use crate::errors::{busy, Check};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tumble::{BodyId, JointId, ShapeId};

/// A physics world: it owns every body, shape, joint and contact, and
/// moves them forward in time with :meth:`step`. Units are metres,
/// kilograms and seconds (or ``length_units_per_meter`` units a metre), y
/// points up, angles are radians counter-clockwise.
///
/// Everything that fails raises: :class:`InvalidValueError` (a
/// ``ValueError``) for a value the engine refuses, :class:`StaleHandleError`
/// (a ``KeyError``) for a removed body, shape or joint; the world is then
/// exactly as it was.
#[pyclass(module = "tumble", name = "World")]
pub struct World {
    pub(crate) inner: tumble::World,
    pub(crate) data: UserData,
}

/// The user data of bodies, shapes and joints: Python dicts keyed by the
/// handle's key, shared with every handle object so that a contact hook
/// can read them while the world is stepping.
pub struct UserData {
    pub bodies: Py<PyDict>,
    pub shapes: Py<PyDict>,
    pub joints: Py<PyDict>,
}

impl UserData {
    pub fn new(py: Python<'_>) -> UserData {
        UserData {
            bodies: PyDict::new(py).unbind(),
            shapes: PyDict::new(py).unbind(),
            joints: PyDict::new(py).unbind(),
        }
    }
}

impl World {
    /// A world object around an engine world, with no user data.
    pub fn wrap(py: Python<'_>, inner: tumble::World) -> World {
        World {
            inner,
            data: UserData::new(py),
        }
    }
}

/// The world of a handle, read or written: a handle's calls fail with
/// `TumbleError` rather than wait while the world steps.
pub fn read<'py>(world: &Bound<'py, World>) -> PyResult<PyRef<'py, World>> {
    world.try_borrow().map_err(|_| busy())
}

/// See [`read`].
pub fn write<'py>(world: &Bound<'py, World>) -> PyResult<PyRefMut<'py, World>> {
    world.try_borrow_mut().map_err(|_| busy())
}

/// The id of `body` as a body of `world` (`w`, borrowed): refused with
/// `InvalidValueError` when it is a body of another world (whose id could
/// name some other body here), `StaleHandleError` when it was removed.
pub fn own_body(world: &Bound<'_, World>, w: &World, body: &Body) -> PyResult<BodyId> {
    if !body.world.is(world) {
        return Err(crate::errors::invalid(
            "a body of another world was given to this one",
        ));
    }
    if !w.inner.contains_body(body.id) {
        return Err::<BodyId, _>(tumble::BodyError::StaleHandle).check();
    }
    Ok(body.id)
}

/// What a handle's `__reduce__` returns: `_handle` (`world.rs`) and its arguments.
pub type Reduced<'py> = (Bound<'py, PyAny>, (Py<World>, &'static str, u64));

/// Makes the Python object for a body of `world`.
pub fn body_obj(world: &Bound<'_, World>, w: &World, id: BodyId) -> Body {
    let py = world.py();
    Body {
        world: world.clone().unbind(),
        data: w.data.bodies.clone_ref(py),
        id,
    }
}

/// Makes the Python object for a shape of `world`.
pub fn shape_obj(world: &Bound<'_, World>, w: &World, id: ShapeId) -> Shape {
    let py = world.py();
    Shape {
        world: world.clone().unbind(),
        data: w.data.shapes.clone_ref(py),
        id,
    }
}

/// Makes the Python object for a joint of `world`.
pub fn joint_obj(world: &Bound<'_, World>, w: &World, id: JointId) -> Joint {
    let py = world.py();
    Joint {
        world: world.clone().unbind(),
        data: w.data.joints.clone_ref(py),
        id,
    }
}

/// A rigid body of a :class:`World`, made by :meth:`World.create_body`.
///
/// The object is a handle: two objects for the same body compare equal,
/// and once the body is removed every call raises
/// :class:`StaleHandleError`. Its shapes (added with :meth:`add_circle`,
/// :meth:`add_box` and the like) give it its mass.
#[pyclass(module = "tumble", frozen)]
pub struct Body {
    pub(crate) world: Py<World>,
    pub(crate) data: Py<PyDict>,
    pub(crate) id: BodyId,
}

/// A shape attached to a body (made by :meth:`Body.add_shape` and the
/// like). A handle, as :class:`Body` is: once it (or its body) is removed,
/// every call raises :class:`StaleHandleError`.
#[pyclass(module = "tumble", frozen)]
pub struct Shape {
    pub(crate) world: Py<World>,
    pub(crate) data: Py<PyDict>,
    pub(crate) id: ShapeId,
}

/// A joint between two bodies, made by :meth:`World.add_joint`. A handle,
/// as :class:`Body` is.
#[pyclass(module = "tumble", frozen)]
pub struct Joint {
    pub(crate) world: Py<World>,
    pub(crate) data: Py<PyDict>,
    pub(crate) id: JointId,
}
