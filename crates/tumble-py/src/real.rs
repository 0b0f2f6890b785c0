//! Numbers from Python that must be real: numpy arrays of any real dtype
//! become `float32`, and complex values are refused rather than cut to
//! their real part (numpy's casts drop the imaginary part with only a
//! warning).

use crate::errors::invalid;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyComplex;

/// Whether `value` is a complex number or an array of them (Python's
/// `complex`, numpy's complex scalars and arrays).
pub fn is_complex(value: &Bound<'_, PyAny>) -> bool {
    value.is_instance_of::<PyComplex>() || dtype_kind(value).is_some_and(|k| k == "c")
}

/// numpy's kind letter of `value`'s dtype, if it has one.
fn dtype_kind(value: &Bound<'_, PyAny>) -> Option<String> {
    let py = value.py();
    value
        .getattr(intern!(py, "dtype"))
        .and_then(|d| d.getattr(intern!(py, "kind")))
        .and_then(|k| k.extract::<String>())
        .ok()
}

/// `what`'s error for a complex value.
pub fn complex_refused(what: &str) -> PyErr {
    invalid(format!("{what} must be real: complex values are refused"))
}

/// `obj` (any array-like of numbers) as a contiguous `float32` numpy
/// array, refusing complex values and non-numbers (strings, dates,
/// objects) with `what`'s name in the message.
pub fn float32_array<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, PyAny>> {
    let np = obj.py().import("numpy")?;
    let array = np.call_method1("asarray", (obj,))?;
    match dtype_kind(&array).as_deref() {
        Some("b" | "i" | "u" | "f") => {}
        Some("c") => return Err(complex_refused(what)),
        _ => return Err(invalid(format!("{what} must be numbers"))),
    }
    np.call_method1("ascontiguousarray", (array, "float32"))
}
