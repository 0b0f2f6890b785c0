//! `Vec2`, the vector the module returns, and [`V2`], what it accepts: any
//! pair of numbers (a tuple, a list, a numpy array, a `pygame.Vector2`, a
//! `Vec2`).

use pyo3::exceptions::{PyIndexError, PyTypeError, PyZeroDivisionError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PySequence, PyTuple};

/// An immutable 2D vector. It unpacks like a tuple (`x, y = v`), indexes
/// (`v[0]`), compares equal to a tuple or list of the same numbers, and
/// supports `+`, `-`, `*` and `/` by a number. Every function that takes a
/// vector accepts any pair of numbers instead.
#[pyclass(module = "tumble", frozen, sequence)]
#[derive(Clone, Copy)]
pub struct Vec2 {
    /// The x component.
    #[pyo3(get)]
    pub x: f64,
    /// The y component.
    #[pyo3(get)]
    pub y: f64,
}

impl Vec2 {
    fn of(x: f64, y: f64) -> Vec2 {
        Vec2 { x, y }
    }
}

impl From<tumble::Vec2> for Vec2 {
    fn from(v: tumble::Vec2) -> Vec2 {
        Vec2::of(v.x as f64, v.y as f64)
    }
}

#[pymethods]
impl Vec2 {
    #[new]
    #[pyo3(signature = (x = 0.0, y = 0.0))]
    fn new(x: f64, y: f64) -> Vec2 {
        Vec2::of(x, y)
    }

    fn __repr__(&self) -> String {
        format!("Vec2({:?}, {:?})", self.x, self.y)
    }

    fn __len__(&self) -> usize {
        2
    }

    fn __getitem__(&self, index: isize) -> PyResult<f64> {
        match index {
            0 | -2 => Ok(self.x),
            1 | -1 => Ok(self.y),
            _ => Err(PyIndexError::new_err("Vec2 index out of range")),
        }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        PyTuple::new(py, [self.x, self.y])?.try_iter()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        let py = other.py();
        match pair(other) {
            Some((x, y)) => PyBool::new(py, x == self.x && y == self.y)
                .to_owned()
                .into_any()
                .unbind(),
            // Not a pair of numbers: the other operand decides (as
            // pytest.approx does).
            None => py.NotImplemented(),
        }
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        // The tuple's hash: a Vec2 equals the tuple of its numbers.
        PyTuple::new(py, [self.x, self.y])?.hash()
    }

    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        result(
            other.py(),
            pair(other).map(|(x, y)| Vec2::of(self.x + x, self.y + y)),
        )
    }

    fn __radd__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.__add__(other)
    }

    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        result(
            other.py(),
            pair(other).map(|(x, y)| Vec2::of(self.x - x, self.y - y)),
        )
    }

    fn __rsub__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        result(
            other.py(),
            pair(other).map(|(x, y)| Vec2::of(x - self.x, y - self.y)),
        )
    }

    fn __mul__(&self, k: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let product = number(k).map(|k| Vec2::of(self.x * k, self.y * k));
        result(k.py(), product)
    }

    fn __rmul__(&self, k: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.__mul__(k)
    }

    fn __truediv__(&self, k: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        match number(k) {
            Some(0.0) => Err(PyZeroDivisionError::new_err("Vec2 division by zero")),
            Some(d) => result(k.py(), Some(Vec2::of(self.x / d, self.y / d))),
            None => result(k.py(), None),
        }
    }

    fn __neg__(&self) -> Vec2 {
        Vec2::of(-self.x, -self.y)
    }

    fn __abs__(&self) -> f64 {
        self.x.hypot(self.y)
    }

    fn __bool__(&self) -> bool {
        self.x != 0.0 || self.y != 0.0
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (f64, f64))> {
        let v = slf.get();
        Ok((slf.get_type().into_any(), (v.x, v.y)))
    }

    /// The length.
    #[getter]
    fn length(&self) -> f64 {
        self.x.hypot(self.y)
    }

    /// The dot product with another vector.
    fn dot(&self, other: V2) -> f64 {
        self.x * other.0.x as f64 + self.y * other.0.y as f64
    }

    /// The 2D cross product with another vector (the z of the 3D one).
    fn cross(&self, other: V2) -> f64 {
        self.x * other.0.y as f64 - self.y * other.0.x as f64
    }

    /// The vector of length 1 along this one (zero stays zero).
    fn normalized(&self) -> Vec2 {
        let l = self.length();
        if l > 0.0 {
            Vec2::of(self.x / l, self.y / l)
        } else {
            *self
        }
    }

    /// This vector turned counter-clockwise by `angle` radians.
    fn rotated(&self, angle: f64) -> Vec2 {
        let (s, c) = angle.sin_cos();
        Vec2::of(c * self.x - s * self.y, s * self.x + c * self.y)
    }

    /// This vector turned a quarter counter-clockwise: `(-y, x)`.
    fn perpendicular(&self) -> Vec2 {
        Vec2::of(-self.y, self.x)
    }
}

/// A binary operator's answer: the vector, or `NotImplemented` so that
/// Python tries the other operand.
fn result(py: Python<'_>, v: Option<Vec2>) -> PyResult<Py<PyAny>> {
    match v {
        Some(v) => Ok(Py::new(py, v)?.into_any()),
        None => Ok(py.NotImplemented()),
    }
}

/// A plain number (not a vector or a numpy array, which scale elementwise
/// themselves).
fn number(k: &Bound<'_, PyAny>) -> Option<f64> {
    if k.cast::<Vec2>().is_ok() || k.hasattr("__len__").unwrap_or(true) {
        return None;
    }
    k.extract().ok()
}

/// Two numbers from a 2-sequence, or `None` if `obj` is not one.
fn pair(obj: &Bound<'_, PyAny>) -> Option<(f64, f64)> {
    if let Ok(v) = obj.cast::<Vec2>() {
        let v = v.get();
        return Some((v.x, v.y));
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        if t.len() != 2 {
            return None;
        }
        return Some((
            t.get_item(0).ok()?.extract().ok()?,
            t.get_item(1).ok()?.extract().ok()?,
        ));
    }
    if obj.is_instance_of::<pyo3::types::PyString>() || obj.is_instance_of::<pyo3::types::PyBytes>() {
        return None;
    }
    // Any sequence of two numbers: a list, a numpy array, a pygame.Vector2.
    if obj.len().ok()? != 2 {
        return None;
    }
    let seq = obj.cast::<PySequence>().ok();
    let item = |i: usize| -> Option<f64> {
        match &seq {
            Some(s) => s.get_item(i).ok()?.extract().ok(),
            None => obj.get_item(i).ok()?.extract().ok(),
        }
    };
    Some((item(0)?, item(1)?))
}

/// A vector argument: any pair of numbers, as the engine's `f32` vector
/// (a number too large for `f32` becomes infinite, which the engine
/// refuses).
#[derive(Clone, Copy, PartialEq)]
pub struct V2(pub tumble::Vec2);

impl<'py> FromPyObject<'_, 'py> for V2 {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<V2> {
        match pair(&obj) {
            Some((x, y)) => Ok(V2(tumble::Vec2::new(x as f32, y as f32))),
            None => Err(PyTypeError::new_err(format!(
                "expected a 2D vector (a pair of numbers: tuple, list, numpy array, \
                 pygame.Vector2 or tumble.Vec2), got {}",
                obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))),
        }
    }
}

impl<'py> IntoPyObject<'py> for V2 {
    type Target = Vec2;
    type Output = Bound<'py, Vec2>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, Vec2>> {
        Bound::new(py, Vec2::from(self.0))
    }
}
