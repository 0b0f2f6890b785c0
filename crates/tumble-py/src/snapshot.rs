//! Snapshots: `World.to_bytes` / `World.from_bytes`, pickle and `copy`.
//!
//! The bytes are the engine's snapshot (its `serde` form) written by
//! `postcard`: a version, a checksum and the state, every float bit for
//! bit, so a restored world steps exactly as the saved one would. Pickling
//! adds the Python user data (pickled as Python pickles it).

use crate::errors::invalid;
use crate::objects::{read, write, UserData, World};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use serde::de::value::{BytesDeserializer, Error as ValueError, SeqAccessDeserializer};
use serde::de::{DeserializeSeed, IntoDeserializer, SeqAccess};
use serde::Deserialize;

/// The world's snapshot as bytes.
fn encode(world: &tumble::World) -> PyResult<Vec<u8>> {
    postcard::to_allocvec(world).map_err(|e| invalid(format!("the world could not be saved: {e}")))
}

/// The snapshot's three fields, handed to the engine's reader one by one.
/// `postcard`'s own errors drop the engine's messages (why a snapshot is
/// refused); serde's value deserializers keep them.
struct Envelope<'a> {
    version: u32,
    checksum: u64,
    state: &'a [u8],
    next: usize,
}

impl<'de> SeqAccess<'de> for Envelope<'de> {
    type Error = ValueError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, ValueError> {
        self.next += 1;
        match self.next {
            1 => seed.deserialize(self.version.into_deserializer()).map(Some),
            2 => seed.deserialize(self.checksum.into_deserializer()).map(Some),
            3 => seed
                .deserialize(BytesDeserializer::<ValueError>::new(self.state))
                .map(Some),
            _ => Ok(None),
        }
    }
}

/// The world of a snapshot, or the engine's reason for refusing it.
fn decode(bytes: &[u8]) -> PyResult<tumble::World> {
    let (version, checksum, state): (u32, u64, &[u8]) = match postcard::take_from_bytes(bytes) {
        Ok((fields, [])) => fields,
        _ => {
            return Err(invalid(
                "the snapshot is damaged (or not a snapshot): its bytes do not hold a version, a checksum and a state",
            ))
        }
    };
    let envelope = Envelope {
        version,
        checksum,
        state,
        next: 0,
    };
    tumble::World::deserialize(SeqAccessDeserializer::new(envelope)).map_err(|e| invalid(e.to_string()))
}

#[pymethods]
impl World {
    /// The world as bytes (a snapshot): bodies, shapes, joints, contacts
    /// with their warm-start impulses, who is asleep, the settings. A world
    /// made from them by :meth:`from_bytes` steps bit for bit as this one
    /// would. User data is not included (pickle the world to keep it).
    fn to_bytes<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let w = read(slf)?;
        Ok(PyBytes::new(py, &encode(&w.inner)?))
    }

    /// The world saved by :meth:`to_bytes`. Raises
    /// :class:`InvalidValueError` for bytes of another version or damaged
    /// ones, saying which.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<World> {
        Ok(World::wrap(py, decode(data)?))
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let w = read(slf)?;
        let state = (
            PyBytes::new(py, &encode(&w.inner)?),
            w.data.bodies.bind(py),
            w.data.shapes.bind(py),
            w.data.joints.bind(py),
        )
            .into_pyobject(py)?;
        Ok((slf.get_type().into_any(), PyTuple::empty(py), state))
    }

    /// Restores a pickled world: its snapshot and its user data.
    fn __setstate__(
        slf: &Bound<'_, Self>,
        state: (Vec<u8>, Bound<'_, PyDict>, Bound<'_, PyDict>, Bound<'_, PyDict>),
    ) -> PyResult<()> {
        let (bytes, bodies, shapes, joints) = state;
        let inner = decode(&bytes)?;
        let data = UserData {
            bodies: bodies.copy()?.unbind(),
            shapes: shapes.copy()?.unbind(),
            joints: joints.copy()?.unbind(),
        };
        let mut w = write(slf)?;
        w.inner = inner;
        w.data = data;
        Ok(())
    }

    /// A copy of the world (a snapshot restored) sharing the user data
    /// objects.
    fn __copy__(slf: &Bound<'_, Self>) -> PyResult<World> {
        let py = slf.py();
        let w = read(slf)?;
        Ok(World {
            inner: decode(&encode(&w.inner)?)?,
            data: UserData {
                bodies: w.data.bodies.bind(py).copy()?.unbind(),
                shapes: w.data.shapes.bind(py).copy()?.unbind(),
                joints: w.data.joints.bind(py).copy()?.unbind(),
            },
        })
    }

    /// A copy of the world with copies of the user data.
    fn __deepcopy__(slf: &Bound<'_, Self>, memo: &Bound<'_, PyDict>) -> PyResult<Py<World>> {
        let py = slf.py();
        let w = read(slf)?;
        let copy = Py::new(py, World::wrap(py, decode(&encode(&w.inner)?)?))?;
        // Registered before the user data is copied, so that handles in it
        // refer to the copy.
        memo.set_item(slf.as_ptr() as usize, copy.clone_ref(py))?;
        let deepcopy = py.import("copy")?.getattr("deepcopy")?;
        let dup = |d: &Py<PyDict>| -> PyResult<Py<PyDict>> {
            Ok(deepcopy
                .call1((d.bind(py), memo))?
                .cast_into::<PyDict>()?
                .unbind())
        };
        let data = UserData {
            bodies: dup(&w.data.bodies)?,
            shapes: dup(&w.data.shapes)?,
            joints: dup(&w.data.joints)?,
        };
        copy.borrow_mut(py).data = data;
        Ok(copy)
    }
}
