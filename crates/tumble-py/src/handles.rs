//! What the three handle classes (`Body`, `Shape`, `Joint`) share: each
//! holds its world, the world's dict of user data for its kind, and its
//! engine handle. Their user data, equality, hash, pickling and garbage
//! collection work the same way for all three, here.

use crate::objects::{read, write, Reduced, World};
use pyo3::prelude::*;
use pyo3::pyclass::boolean_struct::True;
use pyo3::types::PyDict;
use pyo3::{PyClass, PyTraverseError, PyVisit};

/// A handle class: its parts, and the check that it is still live.
pub trait Handle: PyClass<Frozen = True> + Sync {
    /// The kind `_handle` rebuilds it as: `"body"`, `"shape"` or `"joint"`.
    const KIND: &'static str;

    /// The world it belongs to.
    fn world_obj(&self) -> &Py<World>;

    /// The world's user data of this kind, by key.
    fn user_dict(&self) -> &Py<PyDict>;

    /// Its key (see `keys.rs`).
    fn handle_key(&self) -> u64;

    /// `Ok` while what it names is live in `w`, else the engine's
    /// stale-handle error.
    fn check_live(&self, w: &tumble::World) -> PyResult<()>;

    /// Its world, read (`TumbleError` while the world steps).
    fn world<'py>(&self, py: Python<'py>) -> PyResult<PyRef<'py, World>> {
        read(self.world_obj().bind(py))
    }

    /// Its world, written.
    fn world_mut<'py>(&self, py: Python<'py>) -> PyResult<PyRefMut<'py, World>> {
        write(self.world_obj().bind(py))
    }
}

/// The handle's user data: read from the shared dict, so that a contact
/// hook can read it while the world steps; `None` if it has none, and
/// `StaleHandleError` once the handle is stale (when the world can be
/// read to tell).
pub fn user_data<H: Handle>(h: &H, py: Python<'_>) -> PyResult<Py<PyAny>> {
    if let Some(v) = h.user_dict().bind(py).get_item(h.handle_key())? {
        return Ok(v.unbind());
    }
    if let Ok(w) = h.world(py) {
        h.check_live(&w.inner)?;
    }
    Ok(py.None())
}

/// Sets the handle's user data (`None` removes it).
pub fn set_user_data<H: Handle>(h: &H, py: Python<'_>, data: Option<Bound<'_, PyAny>>) -> PyResult<()> {
    h.check_live(&h.world(py)?.inner)?;
    let d = h.user_dict().bind(py);
    match data {
        Some(v) if !v.is_none() => d.set_item(h.handle_key(), v),
        _ => d.del_item(h.handle_key()).or(Ok(())),
    }
}

/// `__eq__`: the same kind, naming the same thing in the same world.
pub fn eq<H: Handle>(h: &H, other: &Bound<'_, PyAny>) -> bool {
    other
        .cast::<H>()
        .is_ok_and(|o| o.get().handle_key() == h.handle_key() && o.get().world_obj().is(h.world_obj()))
}

/// `__hash__`: the key, mixed with the world's identity.
pub fn hash<H: Handle>(h: &H) -> u64 {
    h.handle_key() ^ (h.world_obj().as_ptr() as u64).rotate_left(17)
}

/// `__reduce__`: rebuilt by `_handle` from the world, the kind and the key.
pub fn reduce<'py, H: Handle>(h: &H, py: Python<'py>) -> PyResult<Reduced<'py>> {
    let restore = py.import("tumble._tumble")?.getattr("_handle")?;
    Ok((restore, (h.world_obj().clone_ref(py), H::KIND, h.handle_key())))
}

/// `__traverse__`: the world and the user-data dict.
pub fn traverse<H: Handle>(h: &H, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
    visit.call(h.world_obj())?;
    visit.call(h.user_dict())
}

/// Implements [`Handle`] for a handle class with fields `world`, `data`
/// and `id`, whose liveness `$live` checks (a call on the engine world
/// that fails for a stale `id`), and gives the class the Python methods
/// every handle has: `user_data`, `__eq__`, `__hash__`, `__reduce__` and
/// `__traverse__`.
macro_rules! handle {
    ($class:ty, $kind:literal, |$w:ident, $id:ident| $live:expr) => {
        impl crate::handles::Handle for $class {
            const KIND: &'static str = $kind;

            fn world_obj(&self) -> &Py<crate::objects::World> {
                &self.world
            }

            fn user_dict(&self) -> &Py<pyo3::types::PyDict> {
                &self.data
            }

            fn handle_key(&self) -> u64 {
                crate::keys::key(self.id)
            }

            fn check_live(&self, $w: &tumble::World) -> PyResult<()> {
                let $id = self.id;
                crate::errors::Check::check($live.map(|_| ()))
            }
        }

        #[pymethods]
        impl $class {
            /// Any Python object of the game's (``None`` until set). It is kept
            #[doc = concat!("with the world, pickled with it, and dropped when the ", $kind, " is removed.")]
            #[getter]
            fn user_data(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
                crate::handles::user_data(self, py)
            }

            #[setter]
            fn set_user_data(&self, py: Python<'_>, data: Option<Bound<'_, PyAny>>) -> PyResult<()> {
                crate::handles::set_user_data(self, py, data)
            }

            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                crate::handles::eq(self, other)
            }

            fn __hash__(&self) -> u64 {
                crate::handles::hash(self)
            }

            fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::objects::Reduced<'py>> {
                crate::handles::reduce(self, py)
            }

            fn __traverse__(&self, visit: pyo3::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
                crate::handles::traverse(self, visit)
            }
        }
    };
}
pub(crate) use handle;
