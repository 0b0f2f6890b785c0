//! The module's exceptions and the mapping of every engine error onto them.
//!
//! `TumbleError` is the base; a bad value raises `InvalidValueError` (also
//! a `ValueError`), a handle to something removed `StaleHandleError` (also
//! a `KeyError`). The message is always the engine's own `Display` text, and
//! the engine guarantees that a call that fails changed nothing.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyType};
use tumble::{BodyError, Error, JointError};

/// The classes are defined in Python because a class with two bases
/// (`TumbleError` and `ValueError`) cannot be declared from Rust; a
/// `KeyError` prints its argument quoted, so the stale handle error prints
/// its message as it is.
const EXCEPTIONS: &std::ffi::CStr = cr#"
class TumbleError(Exception):
    """The base of every error the engine raises."""

class InvalidValueError(TumbleError, ValueError):
    """A value the engine refused (NaN, out of range, bad geometry); the
    world is unchanged."""

class StaleHandleError(TumbleError, KeyError):
    """A body, shape or joint that was removed (or belongs to no live
    world slot); the world is unchanged."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""

for _cls in (TumbleError, InvalidValueError, StaleHandleError):
    _cls.__module__ = "tumble"
"#;

struct Classes {
    base: Py<PyType>,
    value: Py<PyType>,
    stale: Py<PyType>,
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

fn classes(py: Python<'_>) -> &Classes {
    CLASSES.get_or_init(py, || {
        let globals = PyDict::new(py);
        py.run(EXCEPTIONS, Some(&globals), None)
            .expect("the exception classes are valid Python");
        let get = |name: &str| -> Py<PyType> {
            globals
                .get_item(name)
                .ok()
                .flatten()
                .and_then(|c| c.cast_into::<PyType>().ok())
                .expect("the class was defined")
                .unbind()
        };
        Classes {
            base: get("TumbleError"),
            value: get("InvalidValueError"),
            stale: get("StaleHandleError"),
        }
    })
}

/// Adds the three classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let c = classes(py);
    m.add("TumbleError", c.base.clone_ref(py))?;
    m.add("InvalidValueError", c.value.clone_ref(py))?;
    m.add("StaleHandleError", c.stale.clone_ref(py))?;
    Ok(())
}

fn raise(class: fn(&Classes) -> &Py<PyType>, message: String) -> PyErr {
    Python::attach(|py| PyErr::from_type(class(classes(py)).bind(py).clone(), message))
}

/// An `InvalidValueError` with `message`.
pub fn invalid(message: impl Into<String>) -> PyErr {
    raise(|c| &c.value, message.into())
}

/// A `StaleHandleError` with `message`.
pub fn stale(message: impl Into<String>) -> PyErr {
    raise(|c| &c.stale, message.into())
}

/// A `TumbleError` with `message`: the world is in use (a contact hook
/// asked for it during its own step, or another thread is stepping it).
pub fn busy() -> PyErr {
    raise(
        |c| &c.base,
        "the world is busy: it is being stepped (a contact hook cannot call its world)".into(),
    )
}

/// Every engine error as a Python exception.
pub trait Check<T> {
    /// The value, or the error raised as its exception.
    fn check(self) -> PyResult<T>;
}

impl<T> Check<T> for Result<T, BodyError> {
    fn check(self) -> PyResult<T> {
        self.map_err(|e| match e {
            BodyError::StaleHandle => stale(e.to_string()),
            _ => invalid(e.to_string()),
        })
    }
}

impl<T> Check<T> for Result<T, Error> {
    fn check(self) -> PyResult<T> {
        self.map_err(|e| match e {
            Error::Body(b) => Err::<(), _>(b).check().unwrap_err(),
            Error::Shape(s) => invalid(s.to_string()),
            Error::Joint(j) => Err::<(), _>(j).check().unwrap_err(),
        })
    }
}

impl<T> Check<T> for Result<T, JointError> {
    fn check(self) -> PyResult<T> {
        self.map_err(|e| match e {
            JointError::StaleHandle | JointError::StaleBody => stale(e.to_string()),
            _ => invalid(e.to_string()),
        })
    }
}

impl<T> Check<T> for Result<T, tumble::ShapeError> {
    fn check(self) -> PyResult<T> {
        self.map_err(|e| invalid(e.to_string()))
    }
}
