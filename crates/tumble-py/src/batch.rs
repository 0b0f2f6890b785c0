//! Batch access with numpy: the state of all bodies (or of a given array of
//! them) in one call, velocities and impulses from arrays, and the events
//! as arrays. Bodies are named by their keys (`Body.key`, `uint64`).
//! Arrays of the engine's numbers are `float32`, its own precision, so they
//! equal what the per-body getters return.

use crate::errors::{invalid, Check};
use crate::keys::{handle, key};
use crate::objects::Body;
use crate::objects::{own_body, read, write, World};
use crate::real::float32_array;
use numpy::ndarray::{Array1, Array2};
use numpy::{Element, IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tumble::{BodyError, BodyId, BodyType};

/// The bodies an argument names: `None` for all of the world's (in slot
/// order), else those of an array of keys or a sequence of `Body` objects
/// or keys. Every one must be live (else `StaleHandleError`) and a
/// `Body` one of this world (else `InvalidValueError`), before anything
/// is done.
fn named(
    world: &Bound<'_, World>,
    w: &World,
    arg: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Vec<BodyId>>> {
    let Some(arg) = arg.filter(|a| !a.is_none()) else {
        return Ok(None);
    };
    let keys: Vec<u64> = if let Ok(a) = arg.extract::<PyReadonlyArray1<'_, u64>>() {
        a.as_array().iter().copied().collect()
    } else {
        let mut keys = Vec::new();
        for item in arg.try_iter()? {
            let item = item?;
            keys.push(match item.cast::<Body>() {
                Ok(b) => key(own_body(world, w, b.get())?),
                Err(_) => item.extract::<u64>()?,
            });
        }
        keys
    };
    keys.into_iter()
        .map(
            |k| match handle::<BodyId>(k).filter(|&id| w.inner.contains_body(id)) {
                Some(id) => Ok(id),
                None => Err::<BodyId, _>(BodyError::StaleHandle).check(),
            },
        )
        .collect::<PyResult<_>>()
        .map(Some)
}

/// The bodies an argument names, as [`named`], all of them listed.
fn bodies(world: &Bound<'_, World>, w: &World, arg: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<BodyId>> {
    Ok(named(world, w, arg)?.unwrap_or_else(|| w.inner.bodies().collect()))
}

/// `N` numbers of each body `arg` names (as [`named`]), read by `get`, one
/// after another. The engine is read with the GIL released, as `step`
/// runs: other Python threads go on meanwhile, and the world stays
/// borrowed, so none of them can change it.
fn gather<const N: usize>(
    slf: &Bound<'_, World>,
    arg: Option<&Bound<'_, PyAny>>,
    get: impl Fn(&tumble::World, BodyId) -> Result<[f32; N], BodyError> + Send,
) -> PyResult<Vec<f32>> {
    let w = read(slf)?;
    let named = named(slf, &w, arg)?;
    let inner = &w.inner;
    slf.py()
        .detach(move || {
            let count = named.as_ref().map_or(inner.body_count(), Vec::len);
            let mut out = Vec::with_capacity(N * count);
            let mut push = |id| get(inner, id).map(|v| out.extend(v));
            match named {
                Some(ids) => ids.into_iter().try_for_each(&mut push),
                None => inner.bodies().try_for_each(&mut push),
            }?;
            Ok::<_, BodyError>(out)
        })
        .check()
}

/// A flat vector as an array of `width` columns: `(n, width)`.
fn table<T: Element>(py: Python<'_>, flat: Vec<T>, width: usize) -> PyResult<Bound<'_, PyArray2<T>>> {
    let n = flat.len() / width;
    let a = Array2::from_shape_vec((n, width), flat).map_err(|e| invalid(e.to_string()))?;
    Ok(a.into_pyarray(py))
}

/// A vector as a `(n,)` array.
fn column<T: Element>(py: Python<'_>, values: Vec<T>) -> Bound<'_, PyArray1<T>> {
    Array1::from(values).into_pyarray(py)
}

/// A `(n, 2)` float array argument as pairs, `n` checked against `count`.
fn vectors(arr: &PyReadonlyArray2<'_, f32>, count: usize, what: &str) -> PyResult<Vec<tumble::Vec2>> {
    let a = arr.as_array();
    if a.shape() != [count, 2] {
        return Err(invalid(format!(
            "{what} must have the shape ({count}, 2), one row per body, not {:?}",
            a.shape()
        )));
    }
    Ok(a.rows()
        .into_iter()
        .map(|r| tumble::Vec2::new(r[0], r[1]))
        .collect())
}

#[pymethods]
impl World {
    /// The keys of all live bodies, in slot order (``uint64``): the order
    /// of every batch getter called without ``bodies``.
    fn body_ids<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let w = read(slf)?;
        let inner = &w.inner;
        Ok(column(py, py.detach(|| inner.bodies().map(key).collect())))
    }

    /// The positions of ``bodies`` (all when ``None``; else an array of
    /// keys or a sequence of bodies), a ``(n, 2)`` ``float32`` array.
    #[pyo3(signature = (bodies = None))]
    fn get_positions<'py>(
        slf: &Bound<'py, Self>,
        bodies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let flat = gather(slf, bodies, |w, id| w.position(id).map(|p| [p.x, p.y]))?;
        table(slf.py(), flat, 2)
    }

    /// The angles of ``bodies``, a ``(n,)`` ``float32`` array.
    #[pyo3(signature = (bodies = None))]
    fn get_angles<'py>(
        slf: &Bound<'py, Self>,
        bodies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let flat = gather(slf, bodies, |w, id| w.angle(id).map(|a| [a]))?;
        Ok(column(slf.py(), flat))
    }

    /// The linear velocities of ``bodies``, a ``(n, 2)`` ``float32`` array.
    #[pyo3(signature = (bodies = None))]
    fn get_linear_velocities<'py>(
        slf: &Bound<'py, Self>,
        bodies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let flat = gather(slf, bodies, |w, id| w.linear_velocity(id).map(|v| [v.x, v.y]))?;
        table(slf.py(), flat, 2)
    }

    /// The angular velocities of ``bodies``, a ``(n,)`` ``float32`` array.
    #[pyo3(signature = (bodies = None))]
    fn get_angular_velocities<'py>(
        slf: &Bound<'py, Self>,
        bodies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let flat = gather(slf, bodies, |w, id| w.angular_velocity(id).map(|a| [a]))?;
        Ok(column(slf.py(), flat))
    }

    /// Sets the linear velocities of ``bodies`` from a ``(n, 2)`` array
    /// (any float dtype is cast to ``float32``). Every body and number is
    /// checked before any is set, so on an error nothing changed.
    fn set_linear_velocities(
        slf: &Bound<'_, Self>,
        bodies: &Bound<'_, PyAny>,
        velocities: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let arr = as_f32_2d(velocities)?;
        let mut w = write(slf)?;
        let ids = self::bodies(slf, &w, Some(bodies))?;
        let vs = vectors(&arr, ids.len(), "velocities")?;
        if vs.iter().any(|v| !v.is_finite()) {
            return Err::<(), _>(BodyError::NonFinite("linear velocity")).check();
        }
        for (id, v) in ids.into_iter().zip(vs) {
            w.inner.set_linear_velocity(id, v).check()?;
        }
        Ok(())
    }

    /// Sets the angular velocities of ``bodies`` from a ``(n,)`` array.
    /// Checked first, as :meth:`set_linear_velocities`.
    fn set_angular_velocities(
        slf: &Bound<'_, Self>,
        bodies: &Bound<'_, PyAny>,
        velocities: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let arr = as_f32_1d(velocities)?;
        let mut w = write(slf)?;
        let ids = self::bodies(slf, &w, Some(bodies))?;
        let ws = arr.as_array();
        if ws.len() != ids.len() {
            return Err(invalid(format!(
                "velocities must have the shape ({},), one per body, not ({},)",
                ids.len(),
                ws.len()
            )));
        }
        if ws.iter().any(|w| !w.is_finite()) {
            return Err::<(), _>(BodyError::NonFinite("angular velocity")).check();
        }
        for (id, &v) in ids.into_iter().zip(ws.iter()) {
            w.inner.set_angular_velocity(id, v).check()?;
        }
        Ok(())
    }

    /// Applies an impulse at the center of mass of each of ``bodies``, a
    /// row each of a ``(n, 2)`` array. Checked first: a body, a number or a
    /// resulting velocity the engine would refuse raises before any
    /// impulse is applied.
    fn apply_impulses(
        slf: &Bound<'_, Self>,
        bodies: &Bound<'_, PyAny>,
        impulses: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let arr = as_f32_2d(impulses)?;
        let mut w = write(slf)?;
        let ids = self::bodies(slf, &w, Some(bodies))?;
        let js = vectors(&arr, ids.len(), "impulses")?;
        // The engine's checks, made for all before any is applied (a
        // body named twice is checked with both impulses summed).
        let mut after: std::collections::BTreeMap<BodyId, tumble::Vec2> = Default::default();
        for (&id, &j) in ids.iter().zip(&js) {
            if !j.is_finite() {
                return Err::<(), _>(BodyError::NonFinite("impulse")).check();
            }
            if w.inner.body_type(id).check()? == BodyType::Dynamic {
                let mass = w.inner.mass_data(id).check()?.mass;
                let v = match after.get(&id) {
                    Some(&v) => v,
                    None => w.inner.linear_velocity(id).check()?,
                };
                let v = v + (1.0 / mass) * j;
                if !v.is_finite() {
                    return Err::<(), _>(BodyError::OutOfRange("impulse")).check();
                }
                after.insert(id, v);
            }
        }
        for (id, j) in ids.into_iter().zip(js) {
            w.inner.apply_linear_impulse_to_center(id, j).check()?;
        }
        Ok(())
    }

    /// The contact events of the last step as arrays, in a dict:
    /// ``begin_shapes``, ``begin_bodies``, ``end_shapes``, ``end_bodies``,
    /// ``hit_shapes``, ``hit_bodies`` (``(n, 2)`` ``uint64`` keys, A then
    /// B), ``hit_points``, ``hit_normals`` (``(n, 2)`` ``float32``) and
    /// ``hit_speeds`` (``(n,)`` ``float32``).
    fn contact_event_arrays<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let w = read(slf)?;
        let e = w.inner.contact_events();
        let (keys, points, normals, speeds) = py.detach(|| {
            let mut keys: Vec<(String, Vec<u64>)> = Vec::new();
            for (name, list) in [("begin", &e.begin), ("end", &e.end)] {
                let shapes = list.iter().flat_map(|t| [key(t.shape_a), key(t.shape_b)]);
                keys.push((format!("{name}_shapes"), shapes.collect()));
                let bodies = list.iter().flat_map(|t| [key(t.body_a), key(t.body_b)]);
                keys.push((format!("{name}_bodies"), bodies.collect()));
            }
            let hit = &e.hit;
            let shapes = hit.iter().flat_map(|h| [key(h.shape_a), key(h.shape_b)]);
            keys.push(("hit_shapes".into(), shapes.collect()));
            let bodies = hit.iter().flat_map(|h| [key(h.body_a), key(h.body_b)]);
            keys.push(("hit_bodies".into(), bodies.collect()));
            let points: Vec<f32> = hit.iter().flat_map(|h| [h.point.x, h.point.y]).collect();
            let normals: Vec<f32> = hit.iter().flat_map(|h| [h.normal.x, h.normal.y]).collect();
            let speeds: Vec<f32> = hit.iter().map(|h| h.approach_speed).collect();
            (keys, points, normals, speeds)
        });
        let d = PyDict::new(py);
        for (name, flat) in keys {
            d.set_item(name, table(py, flat, 2)?)?;
        }
        d.set_item("hit_points", table(py, points, 2)?)?;
        d.set_item("hit_normals", table(py, normals, 2)?)?;
        d.set_item("hit_speeds", column(py, speeds))?;
        Ok(d)
    }

    /// The sensor events of the last step as arrays, in a dict:
    /// ``begin`` and ``end``, each ``(n, 3)`` ``uint64``: the sensor shape's
    /// key, its body's and the visitor shape's.
    fn sensor_event_arrays<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let w = read(slf)?;
        let e = w.inner.sensor_events();
        let lists = py.detach(|| {
            [("begin", &e.begin), ("end", &e.end)].map(|(name, list)| {
                let flat: Vec<u64> = list
                    .iter()
                    .flat_map(|o| [key(o.sensor), key(o.sensor_body), key(o.visitor)])
                    .collect();
                (name, flat)
            })
        });
        let d = PyDict::new(py);
        for (name, flat) in lists {
            d.set_item(name, table(py, flat, 3)?)?;
        }
        Ok(d)
    }

    /// The points of every contact now (touching, or about to), as
    /// arrays: ``(points, normals, separations)``, ``(m, 2)``, ``(m, 2)``
    /// and ``(m,)`` ``float32``, each point with its contact's normal
    /// (from shape A to shape B). What the pygame drawing uses to show
    /// contacts.
    #[allow(clippy::type_complexity)]
    fn contact_points<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<f32>>,
    )> {
        let py = slf.py();
        let w = read(slf)?;
        let inner = &w.inner;
        let (points, normals, seps) = py.detach(|| {
            let (mut points, mut normals, mut seps) = (Vec::new(), Vec::new(), Vec::new());
            for c in inner.contacts() {
                let n = c.manifold.normal;
                for p in c.manifold.points() {
                    points.extend([p.point.x, p.point.y]);
                    normals.extend([n.x, n.y]);
                    seps.push(p.separation);
                }
            }
            (points, normals, seps)
        });
        Ok((table(py, points, 2)?, table(py, normals, 2)?, column(py, seps)))
    }
}

/// Any 2D array-like as `float32` (a list of pairs, a `float64` array).
fn as_f32_2d<'py>(obj: &Bound<'py, PyAny>) -> PyResult<PyReadonlyArray2<'py, f32>> {
    let arr = float32_array(obj, "the values")?;
    arr.extract::<PyReadonlyArray2<'py, f32>>().map_err(|_| {
        invalid(format!(
            "expected a 2D array, one row per body, not {}-dimensional",
            arr.getattr("ndim")
                .and_then(|n| n.extract::<usize>())
                .unwrap_or(0)
        ))
    })
}

/// Any 1D array-like as `float32`.
fn as_f32_1d<'py>(obj: &Bound<'py, PyAny>) -> PyResult<PyReadonlyArray1<'py, f32>> {
    let arr = float32_array(obj, "the values")?;
    arr.extract::<PyReadonlyArray1<'py, f32>>()
        .map_err(|_| invalid("expected a 1D array, one number per body"))
}
