//! Shape geometry as values: `Circle`, `Capsule`, `Polygon`, `Segment`
//! (and the read-only `ChainSegment`). They are what `Body.add_shape`
//! attaches, what `Shape.geometry` returns (in the body's coordinates),
//! and what the shape queries and the character mover move about. Their
//! constructors check them as the engine does.

use crate::errors::Check;
use crate::vec::{Vec2, V2};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use tumble::Shape as RustShape;

/// A circle of ``radius`` about ``center`` (the body's coordinates when
/// attached).
#[pyclass(module = "tumble", frozen)]
#[derive(Clone, Copy)]
pub struct Circle(pub tumble::Circle);

#[pymethods]
impl Circle {
    #[new]
    #[pyo3(signature = (radius, center = V2(tumble::Vec2::ZERO)))]
    fn new(radius: f32, center: V2) -> PyResult<Circle> {
        Ok(Circle(tumble::Circle::new(center.0, radius).check()?))
    }

    /// The radius.
    #[getter]
    fn radius(&self) -> f32 {
        self.0.radius
    }

    /// The center.
    #[getter]
    fn center(&self) -> Vec2 {
        self.0.center.into()
    }

    fn __repr__(&self) -> String {
        format!("Circle(radius={:?}, center={})", self.0.radius, pt(self.0.center))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Circle>().is_ok_and(|o| o.get().0 == self.0)
    }
}

/// A capsule: the points within ``radius`` of the segment from
/// ``center1`` to ``center2``.
#[pyclass(module = "tumble", frozen)]
#[derive(Clone, Copy)]
pub struct Capsule(pub tumble::Capsule);

#[pymethods]
impl Capsule {
    #[new]
    fn new(center1: V2, center2: V2, radius: f32) -> PyResult<Capsule> {
        Ok(Capsule(
            tumble::Capsule::new(center1.0, center2.0, radius).check()?,
        ))
    }

    /// The first end-cap's center.
    #[getter]
    fn center1(&self) -> Vec2 {
        self.0.center1.into()
    }

    /// The second end-cap's center.
    #[getter]
    fn center2(&self) -> Vec2 {
        self.0.center2.into()
    }

    /// The radius.
    #[getter]
    fn radius(&self) -> f32 {
        self.0.radius
    }

    fn __repr__(&self) -> String {
        format!(
            "Capsule({}, {}, radius={:?})",
            pt(self.0.center1),
            pt(self.0.center2),
            self.0.radius
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Capsule>().is_ok_and(|o| o.get().0 == self.0)
    }
}

/// A convex polygon of at most 8 vertices: the convex hull of ``points``
/// (near-duplicates welded), rounded by ``radius``. :meth:`box` makes a
/// rectangle.
#[pyclass(module = "tumble", frozen)]
#[derive(Clone, Copy)]
pub struct Polygon(pub tumble::Polygon);

#[pymethods]
impl Polygon {
    #[new]
    #[pyo3(signature = (points, radius = 0.0))]
    fn new(points: Vec<V2>, radius: f32) -> PyResult<Polygon> {
        let pts: Vec<tumble::Vec2> = points.iter().map(|p| p.0).collect();
        Ok(Polygon(tumble::Polygon::new_rounded(&pts, radius).check()?))
    }

    /// A ``width`` by ``height`` rectangle centered on ``center`` and
    /// turned by ``angle`` (full sizes, not half).
    #[staticmethod]
    #[pyo3(signature = (width, height, center = V2(tumble::Vec2::ZERO), angle = 0.0))]
    fn r#box(width: f32, height: f32, center: V2, angle: f32) -> PyResult<Polygon> {
        Ok(Polygon(
            tumble::Polygon::new_offset_box(0.5 * width, 0.5 * height, center.0, angle).check()?,
        ))
    }

    /// The vertices, counter-clockwise.
    #[getter]
    fn vertices(&self) -> Vec<Vec2> {
        self.0.points().iter().map(|&p| p.into()).collect()
    }

    /// The rounding radius (0 for sharp corners).
    #[getter]
    fn radius(&self) -> f32 {
        self.0.radius
    }

    /// The centroid.
    #[getter]
    fn centroid(&self) -> Vec2 {
        self.0.centroid.into()
    }

    fn __repr__(&self) -> String {
        let pts: Vec<String> = self.0.points().iter().map(|&p| pt(p)).collect();
        format!("Polygon([{}], radius={:?})", pts.join(", "), self.0.radius)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Polygon>().is_ok_and(|o| {
            let (a, b) = (&o.get().0, &self.0);
            a.points() == b.points() && a.radius == b.radius
        })
    }
}

/// A line segment from ``point1`` to ``point2``: it has no area (and no
/// mass), so it suits static ground and walls.
#[pyclass(module = "tumble", frozen)]
#[derive(Clone, Copy)]
pub struct Segment(pub tumble::Segment);

#[pymethods]
impl Segment {
    #[new]
    fn new(point1: V2, point2: V2) -> PyResult<Segment> {
        Ok(Segment(tumble::Segment::new(point1.0, point2.0).check()?))
    }

    /// One end.
    #[getter]
    fn point1(&self) -> Vec2 {
        self.0.point1.into()
    }

    /// The other end.
    #[getter]
    fn point2(&self) -> Vec2 {
        self.0.point2.into()
    }

    fn __repr__(&self) -> String {
        format!("Segment({}, {})", pt(self.0.point1), pt(self.0.point2))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Segment>().is_ok_and(|o| o.get().0 == self.0)
    }
}

/// One segment of a chain (:meth:`Body.add_chain`): solid on its right
/// going from ``point1`` to ``point2``, with the far ends of its
/// neighbours (``ghost1``, ``ghost2``) that make the chain smooth.
#[pyclass(module = "tumble", frozen)]
#[derive(Clone, Copy)]
pub struct ChainSegment(pub tumble::ChainSegment);

#[pymethods]
impl ChainSegment {
    /// One end.
    #[getter]
    fn point1(&self) -> Vec2 {
        self.0.segment.point1.into()
    }

    /// The other end.
    #[getter]
    fn point2(&self) -> Vec2 {
        self.0.segment.point2.into()
    }

    /// The far end of the previous segment.
    #[getter]
    fn ghost1(&self) -> Vec2 {
        self.0.ghost1.into()
    }

    /// The far end of the next segment.
    #[getter]
    fn ghost2(&self) -> Vec2 {
        self.0.ghost2.into()
    }

    fn __repr__(&self) -> String {
        format!(
            "ChainSegment({}, {}, ghost1={}, ghost2={})",
            pt(self.0.segment.point1),
            pt(self.0.segment.point2),
            pt(self.0.ghost1),
            pt(self.0.ghost2)
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<ChainSegment>().is_ok_and(|o| o.get().0 == self.0)
    }
}

fn pt(p: tumble::Vec2) -> String {
    format!("({:?}, {:?})", p.x, p.y)
}

/// The engine shape of a geometry object.
pub fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<RustShape> {
    if let Ok(c) = obj.cast::<Circle>() {
        return Ok(c.get().0.into());
    }
    if let Ok(c) = obj.cast::<Capsule>() {
        return Ok(c.get().0.into());
    }
    if let Ok(p) = obj.cast::<Polygon>() {
        return Ok(p.get().0.into());
    }
    if let Ok(s) = obj.cast::<Segment>() {
        return Ok(s.get().0.into());
    }
    if let Ok(s) = obj.cast::<ChainSegment>() {
        return Ok(RustShape::ChainSegment(s.get().0));
    }
    Err(PyTypeError::new_err(
        "expected a shape geometry: tumble.Circle, Capsule, Polygon, Segment or ChainSegment",
    ))
}

/// The geometry object of an engine shape.
pub fn to_py<'py>(py: Python<'py>, shape: &RustShape) -> PyResult<Bound<'py, PyAny>> {
    Ok(match *shape {
        RustShape::Circle(c) => Bound::new(py, Circle(c))?.into_any(),
        RustShape::Capsule(c) => Bound::new(py, Capsule(c))?.into_any(),
        RustShape::Polygon(p) => Bound::new(py, Polygon(p))?.into_any(),
        RustShape::Segment(s) => Bound::new(py, Segment(s))?.into_any(),
        RustShape::ChainSegment(c) => Bound::new(py, ChainSegment(c))?.into_any(),
    })
}

/// The kind's name, as `Shape.type` gives it.
pub fn kind(shape: &RustShape) -> &'static str {
    match shape {
        RustShape::Circle(_) => "circle",
        RustShape::Capsule(_) => "capsule",
        RustShape::Polygon(_) => "polygon",
        RustShape::Segment(_) => "segment",
        RustShape::ChainSegment(_) => "chain_segment",
    }
}
