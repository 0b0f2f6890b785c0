//! `Shape`: a handle to a shape attached to a body, with its material,
//! filter and event flags; `Filter` and `QueryFilter`; and the `Body`
//! methods that attach shapes.

use crate::errors::Check;
use crate::geometry;
use crate::handles::{handle, Handle};
use crate::keys::key;
use crate::objects::Body;
use crate::objects::{body_obj, read, shape_obj, write, Shape};
use crate::vec::{Vec2, V2};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tumble::{ShapeDef, ShapeId};

/// Every bit set: a mask that lets everything through.
pub const ALL_BITS: u64 = u64::MAX;

/// A 64-bit mask from a Python int: a negative one (``~BULLET``) is taken
/// as its two's complement, so Python's bitwise not works.
pub fn mask_of(x: &Bound<'_, PyAny>) -> PyResult<u64> {
    let v: i128 = x.extract()?;
    if v < i64::MIN as i128 || v > u64::MAX as i128 {
        return Err(PyOverflowError::new_err("a category or mask has 64 bits"));
    }
    Ok(v as u64)
}

/// Which shapes a shape collides with. Two shapes in the same non-zero
/// ``group`` always collide if it is positive and never if negative;
/// otherwise each one's ``category`` bits must meet the other's ``mask``.
/// The default (category 1, every mask bit, group 0) collides with
/// everything that does not exclude it. A mask may be given as Python's
/// ``~bits``.
#[pyclass(module = "tumble", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Filter(pub tumble::Filter);

#[pymethods]
impl Filter {
    #[new]
    #[pyo3(signature = (category = None, mask = None, group = 0))]
    fn new(
        category: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'_, PyAny>>,
        group: i32,
    ) -> PyResult<Filter> {
        let d = tumble::Filter::default();
        Ok(Filter(tumble::Filter {
            category: category.map_or(Ok(d.category), mask_of)?,
            mask: mask.map_or(Ok(d.mask), mask_of)?,
            group,
        }))
    }

    /// The categories the shape belongs to (bits).
    #[getter]
    fn category(&self) -> u64 {
        self.0.category
    }

    /// The categories it collides with (bits).
    #[getter]
    fn mask(&self) -> u64 {
        self.0.mask
    }

    /// Its group (0: none).
    #[getter]
    fn group(&self) -> i32 {
        self.0.group
    }

    /// Whether shapes with this filter and ``other`` may collide.
    fn should_collide(&self, other: PyRef<'_, Filter>) -> bool {
        self.0.should_collide(&other.0)
    }

    fn __repr__(&self) -> String {
        format!(
            "Filter(category={:#x}, mask={:#x}, group={})",
            self.0.category, self.0.mask, self.0.group
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (u64, u64, i32))> {
        let f = slf.get().0;
        Ok((slf.get_type().into_any(), (f.category, f.mask, f.group)))
    }
}

/// Which shapes a query sees: those whose category is in the query's
/// ``mask`` and whose mask holds the query's ``category``.
/// ``QueryFilter.ALL`` sees every shape.
#[pyclass(module = "tumble", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct QueryFilter(pub tumble::QueryFilter);

#[pymethods]
impl QueryFilter {
    #[new]
    #[pyo3(signature = (category = None, mask = None))]
    fn new(category: Option<&Bound<'_, PyAny>>, mask: Option<&Bound<'_, PyAny>>) -> PyResult<QueryFilter> {
        let d = tumble::QueryFilter::default();
        Ok(QueryFilter(tumble::QueryFilter {
            category: category.map_or(Ok(d.category), mask_of)?,
            mask: mask.map_or(Ok(d.mask), mask_of)?,
        }))
    }

    /// A query that sees every shape, whatever its filter.
    #[classattr]
    #[allow(non_snake_case)]
    fn ALL() -> QueryFilter {
        QueryFilter(tumble::QueryFilter::ALL)
    }

    /// The categories the query acts as.
    #[getter]
    fn category(&self) -> u64 {
        self.0.category
    }

    /// The categories of shapes it reports.
    #[getter]
    fn mask(&self) -> u64 {
        self.0.mask
    }

    fn __repr__(&self) -> String {
        format!(
            "QueryFilter(category={:#x}, mask={:#x})",
            self.0.category, self.0.mask
        )
    }
}

/// A query's filter argument: `None` for the default.
pub fn query_filter(f: Option<PyRef<'_, QueryFilter>>) -> tumble::QueryFilter {
    f.map_or_else(tumble::QueryFilter::default, |f| f.0)
}

/// The shape options every `add_*` method takes as keywords.
const OPTIONS: &str =
    "density=1.0, friction=0.6, restitution=0.0, tangent_speed=0.0, rolling_resistance=0.0, filter=None, sensor=False, \
    sensor_events=True, sensor_detects_static=False, contact_events=True, hit_events=False, \
    pre_solve=False, custom_filter=False, user_data=None";

/// A [`ShapeDef`] from the keyword options, and the user data if given.
fn options(kw: Option<&Bound<'_, PyDict>>) -> PyResult<(ShapeDef, Option<Py<PyAny>>)> {
    let mut def = ShapeDef::default();
    let mut data = None;
    for (k, v) in kw.into_iter().flat_map(|d| d.iter()) {
        let name: String = k.extract()?;
        match name.as_str() {
            "density" => def.density = v.extract()?,
            "friction" => def.friction = v.extract()?,
            "restitution" => def.restitution = v.extract()?,
            "tangent_speed" => def.tangent_speed = v.extract()?,
            "rolling_resistance" => def.rolling_resistance = v.extract()?,
            "filter" => {
                if !v.is_none() {
                    def.filter = v.cast::<Filter>()?.get().0;
                }
            }
            "sensor" => def.sensor = v.extract()?,
            "sensor_events" => def.sensor_events = v.extract()?,
            "sensor_detects_static" => def.sensor_detects_static = v.extract()?,
            "contact_events" => def.contact_events = v.extract()?,
            "hit_events" => def.hit_events = v.extract()?,
            "pre_solve" => def.pre_solve = v.extract()?,
            "custom_filter" => def.custom_filter = v.extract()?,
            "user_data" => {
                if !v.is_none() {
                    data = Some(v.unbind());
                }
            }
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "unexpected shape option {name:?} (the options are {OPTIONS})"
                )))
            }
        }
    }
    Ok((def, data))
}

impl Body {
    /// Attaches shapes made by `add` (one call on the engine) with the
    /// options, and records their user data.
    fn attach(
        &self,
        py: Python<'_>,
        kw: Option<&Bound<'_, PyDict>>,
        add: impl FnOnce(&mut tumble::World, &ShapeDef) -> PyResult<Vec<ShapeId>>,
    ) -> PyResult<Vec<Shape>> {
        let (def, data) = options(kw)?;
        let world = self.world.bind(py);
        let mut w = write(world)?;
        let ids = add(&mut w.inner, &def)?;
        let shapes: Vec<Shape> = ids.iter().map(|&id| shape_obj(world, &w, id)).collect();
        if let Some(data) = data {
            for id in ids {
                w.data.shapes.bind(py).set_item(key(id), data.clone_ref(py))?;
            }
        }
        Ok(shapes)
    }

    fn attach_one(
        &self,
        py: Python<'_>,
        kw: Option<&Bound<'_, PyDict>>,
        shape: tumble::Shape,
    ) -> PyResult<Shape> {
        let id = self.id;
        let mut shapes = self.attach(py, kw, |w, def| {
            Ok(vec![w.create_shape(id, shape, def).check()?])
        })?;
        Ok(shapes.remove(0))
    }
}

#[pymethods]
impl Body {
    /// Attaches a shape of ``geometry`` (a :class:`Circle`,
    /// :class:`Capsule`, :class:`Polygon` or :class:`Segment`, in the
    /// body's coordinates) and returns it; the body's mass is recomputed.
    ///
    /// Options: ``density`` (kg/m^2, positive), ``friction`` and
    /// ``restitution`` (zero or more), ``tangent_speed`` (m/s, the surface
    /// moving clockwise round the shape: a conveyor belt),
    /// ``rolling_resistance`` (zero or more: the rolling torque is it
    /// times the normal force times the radius), ``filter`` (a
    /// :class:`Filter`),
    /// ``sensor`` (detects overlaps, pushes nothing), ``sensor_events``,
    /// ``sensor_detects_static``, ``contact_events``, ``hit_events``,
    /// ``pre_solve`` and ``custom_filter`` (ask the step's hooks), and
    /// ``user_data`` (any Python object).
    #[pyo3(signature = (geometry, **options), text_signature = "(self, geometry, *, density=1.0, friction=0.6, restitution=0.0, tangent_speed=0.0, rolling_resistance=0.0, filter=None, sensor=False, sensor_events=True, sensor_detects_static=False, contact_events=True, hit_events=False, pre_solve=False, custom_filter=False, user_data=None)")]
    fn add_shape(
        &self,
        py: Python<'_>,
        geometry: &Bound<'_, PyAny>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Shape> {
        let shape = geometry::from_py(geometry)?;
        self.attach_one(py, options, shape)
    }

    /// Attaches a circle of ``radius`` about ``center`` (body
    /// coordinates). Options as :meth:`add_shape`.
    #[pyo3(signature = (radius, center = V2(tumble::Vec2::ZERO), **options), text_signature = "(self, radius, center=(0, 0), **options)")]
    fn add_circle(
        &self,
        py: Python<'_>,
        radius: f32,
        center: V2,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Shape> {
        let c = tumble::Circle::new(center.0, radius).check()?;
        self.attach_one(py, options, c.into())
    }

    /// Attaches a capsule round the segment from ``center1`` to
    /// ``center2``. Options as :meth:`add_shape`.
    #[pyo3(signature = (center1, center2, radius, **options), text_signature = "(self, center1, center2, radius, **options)")]
    fn add_capsule(
        &self,
        py: Python<'_>,
        center1: V2,
        center2: V2,
        radius: f32,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Shape> {
        let c = tumble::Capsule::new(center1.0, center2.0, radius).check()?;
        self.attach_one(py, options, c.into())
    }

    /// Attaches a ``width`` by ``height`` box (full sizes) centered on
    /// ``center`` and turned by ``angle`` in the body. Options as
    /// :meth:`add_shape`.
    #[pyo3(signature = (width, height, center = V2(tumble::Vec2::ZERO), angle = 0.0, **options), text_signature = "(self, width, height, center=(0, 0), angle=0.0, **options)")]
    fn add_box(
        &self,
        py: Python<'_>,
        width: f32,
        height: f32,
        center: V2,
        angle: f32,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Shape> {
        let p = tumble::Polygon::new_offset_box(0.5 * width, 0.5 * height, center.0, angle).check()?;
        self.attach_one(py, options, p.into())
    }

    /// Attaches the convex hull of ``points`` (at most 8 vertices),
    /// rounded by ``radius``. Options as :meth:`add_shape`.
    #[pyo3(signature = (points, radius = 0.0, **options), text_signature = "(self, points, radius=0.0, **options)")]
    fn add_polygon(
        &self,
        py: Python<'_>,
        points: Vec<V2>,
        radius: f32,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Shape> {
        let pts: Vec<tumble::Vec2> = points.iter().map(|p| p.0).collect();
        let p = tumble::Polygon::new_rounded(&pts, radius).check()?;
        self.attach_one(py, options, p.into())
    }

    /// Attaches the segment from ``point1`` to ``point2``. Options as
    /// :meth:`add_shape`.
    #[pyo3(signature = (point1, point2, **options), text_signature = "(self, point1, point2, **options)")]
    fn add_segment(
        &self,
        py: Python<'_>,
        point1: V2,
        point2: V2,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Shape> {
        let s = tumble::Segment::new(point1.0, point2.0).check()?;
        self.attach_one(py, options, s.into())
    }

    /// Attaches a smooth chain of one-sided segments through ``points``
    /// (a loop with ``closed``), solid on the right walking from one point
    /// to the next: terrain listed right to left is solid from above. They
    /// add no mass. Returns the segments. Options as :meth:`add_shape`.
    #[pyo3(signature = (points, closed = false, **options), text_signature = "(self, points, closed=False, **options)")]
    fn add_chain(
        &self,
        py: Python<'_>,
        points: Vec<V2>,
        closed: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Vec<Shape>> {
        let pts: Vec<tumble::Vec2> = points.iter().map(|p| p.0).collect();
        let id = self.id;
        self.attach(py, options, |w, def| {
            w.create_chain(id, &pts, closed, def).check()
        })
    }

    /// Splits a concave ``outline`` (a simple polygon, either winding)
    /// into convex parts and attaches them all. Returns the parts.
    /// Options as :meth:`add_shape`.
    #[pyo3(signature = (outline, **options), text_signature = "(self, outline, **options)")]
    fn add_concave(
        &self,
        py: Python<'_>,
        outline: Vec<V2>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Vec<Shape>> {
        let pts: Vec<tumble::Vec2> = outline.iter().map(|p| p.0).collect();
        let id = self.id;
        self.attach(py, options, |w, def| w.create_concave(id, &pts, def).check())
    }
}

handle!(Shape, "shape", |w, id| w.shape_body(id));

impl Shape {
    fn def(&self, py: Python<'_>) -> PyResult<ShapeDef> {
        Ok(*self.world(py)?.inner.shape_def(self.id).check()?)
    }
}

/// The flags a shape can change once added: each a getter reading its
/// `ShapeDef` and a setter through the engine's call of the same name.
macro_rules! flags {
    ($($(#[doc = $doc:literal])+ $name:ident, $set:ident;)+) => {
        #[pymethods]
        impl Shape {
            $(
                $(#[doc = $doc])+
                #[getter]
                fn $name(&self, py: Python<'_>) -> PyResult<bool> {
                    Ok(self.def(py)?.$name)
                }

                #[setter]
                fn $set(&self, py: Python<'_>, on: bool) -> PyResult<()> {
                    self.world_mut(py)?.inner.$set(self.id, on).check()
                }
            )+
        }
    };
}

flags! {
    /// Whether its contacts report begin and end events.
    contact_events, set_contact_events;
    /// Whether its contacts report hits.
    hit_events, set_hit_events;
    /// Whether the step's ``pre_solve`` hook is asked about its contacts.
    pre_solve, set_pre_solve;
}

#[pymethods]
impl Shape {
    /// The shape's key (see :attr:`Body.key`).
    #[getter]
    fn key(&self) -> u64 {
        key(self.id)
    }

    /// The body it is attached to.
    #[getter]
    fn body(&self, py: Python<'_>) -> PyResult<Body> {
        let world = self.world.bind(py);
        let w = read(world)?;
        let b = w.inner.shape_body(self.id).check()?;
        Ok(body_obj(world, &w, b))
    }

    /// The shape's contacts with manifold points now, each a
    /// :class:`Contact`: the shape is ``shape_a`` or ``shape_b`` of each.
    fn contacts(&self, py: Python<'_>) -> PyResult<Vec<crate::events::Contact>> {
        let world = self.world.bind(py);
        let w = read(world)?;
        let list = w.inner.shape_contacts(self.id).check()?;
        list.map(|c| crate::events::contact(world, &w, &c)).collect()
    }

    /// Whether the shape still exists.
    #[getter]
    fn alive(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.world(py)?.inner.shape_body(self.id).is_ok())
    }

    /// ``"circle"``, ``"capsule"``, ``"polygon"``, ``"segment"`` or
    /// ``"chain_segment"``.
    #[getter]
    #[pyo3(name = "type")]
    fn shape_type(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(geometry::kind(self.world(py)?.inner.shape(self.id).check()?))
    }

    /// The geometry, in the body's coordinates (a :class:`Circle`,
    /// :class:`Capsule`, :class:`Polygon`, :class:`Segment` or
    /// :class:`ChainSegment`).
    #[getter]
    fn geometry<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let shape = *self.world(py)?.inner.shape(self.id).check()?;
        geometry::to_py(py, &shape)
    }

    /// Density, kg/m^2 (fixed when the shape is added).
    #[getter]
    fn density(&self, py: Python<'_>) -> PyResult<f32> {
        Ok(self.def(py)?.density)
    }

    /// Friction coefficient (zero or more; mixed as the geometric mean).
    #[getter]
    fn friction(&self, py: Python<'_>) -> PyResult<f32> {
        Ok(self.def(py)?.friction)
    }

    #[setter]
    fn set_friction(&self, py: Python<'_>, friction: f32) -> PyResult<()> {
        self.world_mut(py)?.inner.set_friction(self.id, friction).check()
    }

    /// Restitution, bounciness (zero or more; mixed as the larger).
    #[getter]
    fn restitution(&self, py: Python<'_>) -> PyResult<f32> {
        Ok(self.def(py)?.restitution)
    }

    #[setter]
    fn set_restitution(&self, py: Python<'_>, restitution: f32) -> PyResult<()> {
        self.world_mut(py)?
            .inner
            .set_restitution(self.id, restitution)
            .check()
    }

    /// The rolling resistance (see the ``rolling_resistance`` option of
    /// :meth:`Body.add_shape`), fixed when the shape is made.
    #[getter]
    fn rolling_resistance(&self, py: Python<'_>) -> PyResult<f32> {
        Ok(self.def(py)?.rolling_resistance)
    }

    /// The speed (m/s) the surface moves at, clockwise round the shape: a
    /// conveyor belt (a positive speed carries what lies on its top face
    /// towards +x). Setting it applies to the shape's contacts at once.
    #[getter]
    fn tangent_speed(&self, py: Python<'_>) -> PyResult<f32> {
        Ok(self.def(py)?.tangent_speed)
    }

    #[setter]
    fn set_tangent_speed(&self, py: Python<'_>, speed: f32) -> PyResult<()> {
        self.world_mut(py)?
            .inner
            .set_tangent_speed(self.id, speed)
            .check()
    }

    /// The collision :class:`Filter`.
    #[getter]
    fn filter(&self, py: Python<'_>) -> PyResult<Filter> {
        Ok(Filter(self.world(py)?.inner.filter(self.id).check()?))
    }

    #[setter]
    fn set_filter(&self, py: Python<'_>, filter: PyRef<'_, Filter>) -> PyResult<()> {
        let f = filter.0;
        self.world_mut(py)?.inner.set_filter(self.id, f).check()
    }

    /// The indices of the polygon's edges (edge ``i`` runs from vertex
    /// ``i`` to vertex ``i + 1``) that are seams: covered along their
    /// whole length by polygons welded to it (see
    /// :attr:`World.smooth_seams`). Empty for any other shape.
    #[getter]
    fn seam_edges(&self, py: Python<'_>) -> PyResult<Vec<usize>> {
        self.world(py)?.inner.seam_edges(self.id).check()
    }

    /// Whether it is a sensor (fixed when added).
    #[getter]
    fn sensor(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.def(py)?.sensor)
    }

    /// Whether sensors see it (or, for a sensor, whether it reports).
    #[getter]
    fn sensor_events(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.def(py)?.sensor_events)
    }

    /// Whether the step's ``should_collide`` hook is asked about its new
    /// pairs (fixed when added).
    #[getter]
    fn custom_filter(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.def(py)?.custom_filter)
    }

    /// The shape's bounding box in the world now, ``(lower, upper)``.
    fn aabb(&self, py: Python<'_>) -> PyResult<(Vec2, Vec2)> {
        let w = self.world(py)?;
        let body = w.inner.shape_body(self.id).check()?;
        let xf = w.inner.transform(body).check()?;
        let b = w.inner.shape(self.id).check()?.aabb(xf);
        Ok((b.min.into(), b.max.into()))
    }

    /// Whether the world point ``point`` is inside the shape (never for a
    /// segment).
    fn contains_point(&self, py: Python<'_>, point: V2) -> PyResult<bool> {
        let w = self.world(py)?;
        let body = w.inner.shape_body(self.id).check()?;
        let xf = w.inner.transform(body).check()?;
        Ok(w.inner.shape(self.id).check()?.contains_point(xf, point.0))
    }

    /// For a sensor: the shapes overlapping it at the end of the last step.
    fn overlaps(&self, py: Python<'_>) -> PyResult<Vec<Shape>> {
        let world = self.world.bind(py);
        let w = read(world)?;
        let ids = w.inner.sensor_overlaps(self.id).check()?.to_vec();
        Ok(ids.into_iter().map(|id| shape_obj(world, &w, id)).collect())
    }

    /// Removes the shape (its body's mass is recomputed; what it touched
    /// wakes).
    fn remove(&self, py: Python<'_>) -> PyResult<()> {
        let mut w = self.world_mut(py)?;
        w.inner.remove_shape(self.id).check()?;
        let _ = w.data.shapes.bind(py).del_item(key(self.id));
        Ok(())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let k = key(self.id);
        match self.world(py).map(|w| w.inner.shape(self.id).map(geometry::kind)) {
            Ok(Ok(kind)) => format!("<tumble.Shape {k} {kind}>"),
            Ok(Err(_)) => format!("<tumble.Shape {k} (removed)>"),
            Err(_) => format!("<tumble.Shape {k}>"),
        }
    }
}
