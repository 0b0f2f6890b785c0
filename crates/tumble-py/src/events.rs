//! Contact and sensor events of the last step, and the contacts' manifolds,
//! as Python objects. (`batch.rs` gives the same events as numpy arrays.)

use crate::objects::Body;
use crate::objects::Shape;
use crate::objects::{body_obj, read, shape_obj, World};
use crate::vec::Vec2;
use pyo3::prelude::*;

/// Two shapes whose contact began or stopped touching: ``shape_a`` and
/// ``shape_b`` with their bodies (the normal points from A to B). For a
/// shape removed since, the handles are stale.
#[pyclass(module = "tumble", frozen, get_all)]
pub struct ContactTouch {
    /// The first shape.
    pub shape_a: Py<Shape>,
    /// The second shape.
    pub shape_b: Py<Shape>,
    /// The first shape's body.
    pub body_a: Py<Body>,
    /// The second shape's body.
    pub body_b: Py<Body>,
}

#[pymethods]
impl ContactTouch {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "ContactTouch({}, {})",
            repr(self.shape_a.bind(py)),
            repr(self.shape_b.bind(py))
        )
    }
}

/// A contact that began touching faster than the world's
/// ``hit_event_threshold``: the shapes and bodies, the ``point`` and
/// ``normal`` (A to B), and the ``approach_speed``.
#[pyclass(module = "tumble", frozen, get_all)]
pub struct ContactHit {
    /// The first shape.
    pub shape_a: Py<Shape>,
    /// The second shape.
    pub shape_b: Py<Shape>,
    /// The first shape's body.
    pub body_a: Py<Body>,
    /// The second shape's body.
    pub body_b: Py<Body>,
    /// Where they met.
    pub point: Py<Vec2>,
    /// The contact normal, from A to B.
    pub normal: Py<Vec2>,
    /// How fast they approached, length units per second.
    pub approach_speed: f32,
}

#[pymethods]
impl ContactHit {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "ContactHit({}, {}, approach_speed={:?})",
            repr(self.shape_a.bind(py)),
            repr(self.shape_b.bind(py)),
            self.approach_speed
        )
    }
}

/// The contact events of the last step: ``begin`` and ``end`` (lists of
/// :class:`ContactTouch`) and ``hit`` (a list of :class:`ContactHit`).
#[pyclass(module = "tumble", frozen, get_all)]
pub struct ContactEvents {
    /// Contacts that began touching.
    pub begin: Vec<Py<ContactTouch>>,
    /// Contacts that stopped touching.
    pub end: Vec<Py<ContactTouch>>,
    /// Contacts that began with a hit.
    pub hit: Vec<Py<ContactHit>>,
}

#[pymethods]
impl ContactEvents {
    fn __repr__(&self) -> String {
        format!(
            "ContactEvents(begin: {}, end: {}, hit: {})",
            self.begin.len(),
            self.end.len(),
            self.hit.len()
        )
    }
}

/// A shape that began or stopped overlapping a sensor.
#[pyclass(module = "tumble", frozen, get_all)]
pub struct SensorOverlap {
    /// The sensor shape.
    pub sensor: Py<Shape>,
    /// The sensor's body.
    pub sensor_body: Py<Body>,
    /// The shape that entered or left.
    pub visitor: Py<Shape>,
}

#[pymethods]
impl SensorOverlap {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "SensorOverlap(sensor={}, visitor={})",
            repr(self.sensor.bind(py)),
            repr(self.visitor.bind(py))
        )
    }
}

/// The sensor events of the last step: ``begin`` and ``end``, lists of
/// :class:`SensorOverlap`.
#[pyclass(module = "tumble", frozen, get_all)]
pub struct SensorEvents {
    /// Shapes that began overlapping a sensor.
    pub begin: Vec<Py<SensorOverlap>>,
    /// Shapes that stopped overlapping a sensor.
    pub end: Vec<Py<SensorOverlap>>,
}

#[pymethods]
impl SensorEvents {
    fn __repr__(&self) -> String {
        format!(
            "SensorEvents(begin: {}, end: {})",
            self.begin.len(),
            self.end.len()
        )
    }
}

/// One point of a contact's manifold.
#[pyclass(module = "tumble", frozen, get_all)]
pub struct ContactPoint {
    /// Where, in the world (midway between the surfaces).
    pub point: Py<Vec2>,
    /// The surfaces' distance along the normal: negative when they
    /// overlap.
    pub separation: f32,
    /// The normal impulse the solver applied here last step, N s.
    pub normal_impulse: f32,
    /// The friction impulse, N s.
    pub tangent_impulse: f32,
    /// The feature id that matches the point from step to step.
    pub id: u64,
    /// Whether the point persisted from the step before (warm started).
    pub persisted: bool,
}

#[pymethods]
impl ContactPoint {
    fn __repr__(&self) -> String {
        let p = self.point.get();
        format!(
            "ContactPoint(point=({:?}, {:?}), separation={:?}, normal_impulse={:?})",
            p.x, p.y, self.separation, self.normal_impulse
        )
    }
}

/// A contact with manifold points (touching, or about to): its shapes
/// and bodies, the ``normal`` (from A to B) and the ``points``.
#[pyclass(module = "tumble", frozen, get_all)]
pub struct Contact {
    /// The first shape.
    pub shape_a: Py<Shape>,
    /// The second shape.
    pub shape_b: Py<Shape>,
    /// The first shape's body.
    pub body_a: Py<Body>,
    /// The second shape's body.
    pub body_b: Py<Body>,
    /// The normal, from A to B.
    pub normal: Py<Vec2>,
    /// One or two :class:`ContactPoint`.
    pub points: Vec<Py<ContactPoint>>,
}

#[pymethods]
impl Contact {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Contact({}, {}, {} points)",
            repr(self.shape_a.bind(py)),
            repr(self.shape_b.bind(py)),
            self.points.len()
        )
    }
}

/// An object's `repr()`, or nothing if it raised.
pub fn repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr().map(|r| r.to_string()).unwrap_or_default()
}

/// The handle objects of a shape pair.
struct Pair {
    shape_a: Py<Shape>,
    shape_b: Py<Shape>,
    body_a: Py<Body>,
    body_b: Py<Body>,
}

/// A contact as the Python :class:`Contact` (its shapes, bodies, normal and
/// points).
pub(crate) fn contact(world: &Bound<'_, World>, w: &World, c: &tumble::ContactView<'_>) -> PyResult<Contact> {
    let py = world.py();
    let p = pair(world, w, (c.shape_a, c.shape_b, c.body_a, c.body_b))?;
    let points = c
        .manifold
        .points()
        .iter()
        .map(|m| {
            Py::new(
                py,
                ContactPoint {
                    point: Py::new(py, Vec2::from(m.point))?,
                    separation: m.separation,
                    normal_impulse: m.normal_impulse,
                    tangent_impulse: m.tangent_impulse,
                    id: m.id,
                    persisted: m.persisted,
                },
            )
        })
        .collect::<PyResult<_>>()?;
    Ok(Contact {
        shape_a: p.shape_a,
        shape_b: p.shape_b,
        body_a: p.body_a,
        body_b: p.body_b,
        normal: Py::new(py, Vec2::from(c.manifold.normal))?,
        points,
    })
}

fn pair(
    world: &Bound<'_, World>,
    w: &World,
    (sa, sb, ba, bb): (tumble::ShapeId, tumble::ShapeId, tumble::BodyId, tumble::BodyId),
) -> PyResult<Pair> {
    let py = world.py();
    Ok(Pair {
        shape_a: Py::new(py, shape_obj(world, w, sa))?,
        shape_b: Py::new(py, shape_obj(world, w, sb))?,
        body_a: Py::new(py, body_obj(world, w, ba))?,
        body_b: Py::new(py, body_obj(world, w, bb))?,
    })
}

fn touch(world: &Bound<'_, World>, w: &World, t: &tumble::ContactTouch) -> PyResult<Py<ContactTouch>> {
    let p = pair(world, w, (t.shape_a, t.shape_b, t.body_a, t.body_b))?;
    Py::new(
        world.py(),
        ContactTouch {
            shape_a: p.shape_a,
            shape_b: p.shape_b,
            body_a: p.body_a,
            body_b: p.body_b,
        },
    )
}

fn overlap(world: &Bound<'_, World>, w: &World, o: &tumble::SensorOverlap) -> PyResult<Py<SensorOverlap>> {
    let py = world.py();
    Py::new(
        py,
        SensorOverlap {
            sensor: Py::new(py, shape_obj(world, w, o.sensor))?,
            sensor_body: Py::new(py, body_obj(world, w, o.sensor_body))?,
            visitor: Py::new(py, shape_obj(world, w, o.visitor))?,
        },
    )
}

#[pymethods]
impl World {
    /// The contact events of the last step (a :class:`ContactEvents`).
    #[getter]
    fn contact_events(slf: &Bound<'_, Self>) -> PyResult<ContactEvents> {
        let w = read(slf)?;
        let py = slf.py();
        let e = w.inner.contact_events();
        Ok(ContactEvents {
            begin: e
                .begin
                .iter()
                .map(|t| touch(slf, &w, t))
                .collect::<PyResult<_>>()?,
            end: e.end.iter().map(|t| touch(slf, &w, t)).collect::<PyResult<_>>()?,
            hit: e
                .hit
                .iter()
                .map(|h| {
                    let p = pair(slf, &w, (h.shape_a, h.shape_b, h.body_a, h.body_b))?;
                    Py::new(
                        py,
                        ContactHit {
                            shape_a: p.shape_a,
                            shape_b: p.shape_b,
                            body_a: p.body_a,
                            body_b: p.body_b,
                            point: Py::new(py, Vec2::from(h.point))?,
                            normal: Py::new(py, Vec2::from(h.normal))?,
                            approach_speed: h.approach_speed,
                        },
                    )
                })
                .collect::<PyResult<_>>()?,
        })
    }

    /// The sensor events of the last step (a :class:`SensorEvents`).
    #[getter]
    fn sensor_events(slf: &Bound<'_, Self>) -> PyResult<SensorEvents> {
        let w = read(slf)?;
        let e = w.inner.sensor_events();
        Ok(SensorEvents {
            begin: e
                .begin
                .iter()
                .map(|o| overlap(slf, &w, o))
                .collect::<PyResult<_>>()?,
            end: e
                .end
                .iter()
                .map(|o| overlap(slf, &w, o))
                .collect::<PyResult<_>>()?,
        })
    }

    /// The contacts with manifold points now (touching, or within the
    /// speculative distance), each a :class:`Contact`.
    fn contacts(slf: &Bound<'_, Self>) -> PyResult<Vec<Contact>> {
        let w = read(slf)?;
        w.inner.contacts().map(|c| contact(slf, &w, &c)).collect()
    }
}
