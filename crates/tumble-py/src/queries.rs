//! The world's queries (rays, shape casts, overlaps) and explosions.

use crate::errors::Check;
use crate::events::repr;
use crate::geometry;
use crate::objects::Body;
use crate::objects::Shape;
use crate::objects::{body_obj, read, shape_obj, write, World};
use crate::shape::{query_filter, QueryFilter};
use crate::vec::{Vec2, V2};
use pyo3::prelude::*;
use tumble::{Aabb, BodyId, Explosion, ShapeId, Transform};

/// What a ray hit: the ``shape`` (and its ``body``), the ``point`` and the
/// surface ``normal`` there, and the ``fraction`` of the ray's
/// translation at which it hit.
#[pyclass(module = "tumble", frozen, get_all)]
pub struct RayHit {
    /// The shape hit.
    pub shape: Py<Shape>,
    /// Its body.
    pub body: Py<Body>,
    /// Where the ray hit it.
    pub point: Py<Vec2>,
    /// The surface normal there.
    pub normal: Py<Vec2>,
    /// How far along the translation, 0 to 1.
    pub fraction: f32,
}

#[pymethods]
impl RayHit {
    fn __repr__(&self, py: Python<'_>) -> String {
        let (p, n) = (self.point.get(), self.normal.get());
        format!(
            "RayHit(shape={}, point=({:?}, {:?}), normal=({:?}, {:?}), fraction={:?})",
            repr(self.shape.bind(py)),
            p.x,
            p.y,
            n.x,
            n.y,
            self.fraction
        )
    }
}

/// What a shape cast met first: the ``shape`` (and its ``body``), the
/// ``fraction`` of the translation at which they touch, the ``point`` of
/// touch and the ``normal`` of the surface met.
#[pyclass(module = "tumble", frozen, get_all)]
pub struct ShapeCastHit {
    /// The shape met.
    pub shape: Py<Shape>,
    /// Its body.
    pub body: Py<Body>,
    /// How far along the translation they touch, 0 to 1.
    pub fraction: f32,
    /// Where they touch.
    pub point: Py<Vec2>,
    /// The normal of the surface met.
    pub normal: Py<Vec2>,
}

#[pymethods]
impl ShapeCastHit {
    fn __repr__(&self, py: Python<'_>) -> String {
        let p = self.point.get();
        format!(
            "ShapeCastHit(shape={}, fraction={:?}, point=({:?}, {:?}))",
            repr(self.shape.bind(py)),
            self.fraction,
            p.x,
            p.y
        )
    }
}

/// The Python objects of what a ray or a shape cast met: the shape, its
/// body, the point and the normal.
type Met = (Py<Shape>, Py<Body>, Py<Vec2>, Py<Vec2>);

fn met(
    world: &Bound<'_, World>,
    w: &World,
    (shape, body, point, normal): (ShapeId, BodyId, tumble::Vec2, tumble::Vec2),
) -> PyResult<Met> {
    let py = world.py();
    Ok((
        Py::new(py, shape_obj(world, w, shape))?,
        Py::new(py, body_obj(world, w, body))?,
        Py::new(py, Vec2::from(point))?,
        Py::new(py, Vec2::from(normal))?,
    ))
}

fn ray_hit(world: &Bound<'_, World>, w: &World, h: &tumble::RayHit) -> PyResult<RayHit> {
    let (shape, body, point, normal) = met(world, w, (h.shape, h.body, h.point, h.normal))?;
    Ok(RayHit {
        shape,
        body,
        point,
        normal,
        fraction: h.fraction,
    })
}

fn cast_hit(world: &Bound<'_, World>, w: &World, h: &tumble::ShapeCastHit) -> PyResult<ShapeCastHit> {
    let (shape, body, point, normal) = met(world, w, (h.shape, h.body, h.point, h.normal))?;
    Ok(ShapeCastHit {
        shape,
        body,
        fraction: h.fraction,
        point,
        normal,
    })
}

/// The shapes an overlap query of the engine lists (`query` fills the
/// list it is given).
fn overlaps(
    slf: &Bound<'_, World>,
    query: impl FnOnce(&tumble::World, &mut Vec<ShapeId>) -> Result<(), tumble::Error>,
) -> PyResult<Vec<Shape>> {
    let w = read(slf)?;
    let mut out = Vec::new();
    query(&w.inner, &mut out).check()?;
    Ok(out.into_iter().map(|id| shape_obj(slf, &w, id)).collect())
}

#[pymethods]
impl World {
    /// The first shape hit by the ray from ``origin`` along
    /// ``translation`` (its end is ``origin + translation``), or ``None``.
    /// ``filter`` is a :class:`QueryFilter`.
    #[pyo3(signature = (origin, translation, filter = None))]
    fn ray_cast(
        slf: &Bound<'_, Self>,
        origin: V2,
        translation: V2,
        filter: Option<PyRef<'_, QueryFilter>>,
    ) -> PyResult<Option<RayHit>> {
        let w = read(slf)?;
        let hit = w
            .inner
            .ray_cast_closest(origin.0, translation.0, query_filter(filter))
            .check()?;
        hit.map(|h| ray_hit(slf, &w, &h)).transpose()
    }

    /// Every shape hit by the ray, nearest first.
    #[pyo3(signature = (origin, translation, filter = None))]
    fn ray_cast_all(
        slf: &Bound<'_, Self>,
        origin: V2,
        translation: V2,
        filter: Option<PyRef<'_, QueryFilter>>,
    ) -> PyResult<Vec<RayHit>> {
        let w = read(slf)?;
        let mut out = Vec::new();
        w.inner
            .ray_cast_all(origin.0, translation.0, query_filter(filter), &mut out)
            .check()?;
        out.iter().map(|h| ray_hit(slf, &w, h)).collect()
    }

    /// Moves ``geometry`` (a :class:`Circle`, :class:`Capsule`,
    /// :class:`Polygon` or :class:`Segment`) placed at ``position`` turned
    /// by ``angle`` along ``translation`` without turning, and returns the
    /// first shape it would touch (a :class:`ShapeCastHit`) or ``None``.
    #[pyo3(signature = (geometry, position, translation, angle = 0.0, filter = None))]
    fn shape_cast(
        slf: &Bound<'_, Self>,
        geometry: &Bound<'_, PyAny>,
        position: V2,
        translation: V2,
        angle: f32,
        filter: Option<PyRef<'_, QueryFilter>>,
    ) -> PyResult<Option<ShapeCastHit>> {
        let shape = geometry::from_py(geometry)?;
        let w = read(slf)?;
        let hit = w
            .inner
            .shape_cast(
                &shape,
                Transform::new(position.0, angle),
                translation.0,
                query_filter(filter),
            )
            .check()?;
        hit.map(|h| cast_hit(slf, &w, &h)).transpose()
    }

    /// The shapes containing the world point ``point``.
    #[pyo3(signature = (point, filter = None))]
    fn overlap_point(
        slf: &Bound<'_, Self>,
        point: V2,
        filter: Option<PyRef<'_, QueryFilter>>,
    ) -> PyResult<Vec<Shape>> {
        let filter = query_filter(filter);
        overlaps(slf, |w, out| w.overlap_point(point.0, filter, out))
    }

    /// The shapes whose bounding boxes overlap the box from ``lower`` to
    /// ``upper``.
    #[pyo3(signature = (lower, upper, filter = None))]
    fn overlap_aabb(
        slf: &Bound<'_, Self>,
        lower: V2,
        upper: V2,
        filter: Option<PyRef<'_, QueryFilter>>,
    ) -> PyResult<Vec<Shape>> {
        let (aabb, filter) = (Aabb::new(lower.0, upper.0), query_filter(filter));
        overlaps(slf, |w, out| w.overlap_aabb(aabb, filter, out))
    }

    /// The shapes that overlap ``geometry`` placed at ``position`` turned
    /// by ``angle``.
    #[pyo3(signature = (geometry, position, angle = 0.0, filter = None))]
    fn overlap_shape(
        slf: &Bound<'_, Self>,
        geometry: &Bound<'_, PyAny>,
        position: V2,
        angle: f32,
        filter: Option<PyRef<'_, QueryFilter>>,
    ) -> PyResult<Vec<Shape>> {
        let shape = geometry::from_py(geometry)?;
        let (xf, filter) = (Transform::new(position.0, angle), query_filter(filter));
        overlaps(slf, |w, out| w.overlap_shape(&shape, xf, filter, out))
    }

    /// Pushes every dynamic body with a shape within ``radius +
    /// falloff`` of ``center`` away from it: each shape gets an impulse of
    /// ``impulse_per_length`` times its width facing the blast, full
    /// within ``radius`` and fading to nothing at ``radius + falloff``.
    #[pyo3(signature = (center, radius, impulse_per_length, falloff = 0.0, filter = None))]
    fn explode(
        slf: &Bound<'_, Self>,
        center: V2,
        radius: f32,
        impulse_per_length: f32,
        falloff: f32,
        filter: Option<PyRef<'_, QueryFilter>>,
    ) -> PyResult<()> {
        write(slf)?
            .inner
            .explode(&Explosion {
                center: center.0,
                radius,
                falloff,
                impulse_per_length,
                filter: query_filter(filter),
            })
            .check()
    }
}
