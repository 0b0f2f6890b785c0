//! `World.debug_draw`: the engine's debug drawing as a list of plain
//! primitives, which `tumble.pygame_util` (pure Python) puts on a pygame
//! surface.

use crate::objects::{read, World};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use tumble::{Color, DebugDraw, DrawOptions, Vec2};

/// A primitive as the engine gives it, kept until the list is built.
enum Primitive {
    Polygon(Vec<Vec2>, f32, Color),
    Circle(Vec2, f32, Vec2, Color),
    Capsule(Vec2, Vec2, f32, Color),
    Segment(Vec2, Vec2, Color),
    Point(Vec2, f32, Color),
}

#[derive(Default)]
struct Collect(Vec<Primitive>);

impl DebugDraw for Collect {
    fn draw_polygon(&mut self, vertices: &[Vec2], radius: f32, color: Color) {
        self.0.push(Primitive::Polygon(vertices.to_vec(), radius, color));
    }
    fn draw_circle(&mut self, center: Vec2, radius: f32, axis: Vec2, color: Color) {
        self.0.push(Primitive::Circle(center, radius, axis, color));
    }
    fn draw_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color) {
        self.0.push(Primitive::Capsule(p1, p2, radius, color));
    }
    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        self.0.push(Primitive::Segment(p1, p2, color));
    }
    fn draw_point(&mut self, p: Vec2, size: f32, color: Color) {
        self.0.push(Primitive::Point(p, size, color));
    }
}

fn xy(v: Vec2) -> (f32, f32) {
    (v.x, v.y)
}

fn rgba(c: Color) -> (u8, u8, u8, u8) {
    let byte = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    (byte(c.r), byte(c.g), byte(c.b), byte(c.a))
}

#[pymethods]
impl World {
    /// The world drawn as a list of primitives, in world coordinates, each
    /// a tuple whose first item names it:
    ///
    /// - ``("polygon", vertices, radius, color)`` (counter-clockwise,
    ///   rounded by ``radius``)
    /// - ``("circle", center, radius, axis, color)`` (``axis`` shows its
    ///   turn)
    /// - ``("capsule", p1, p2, radius, color)``
    /// - ``("segment", p1, p2, color)``
    /// - ``("point", p, size, color)`` (``size`` in pixels)
    ///
    /// Points are ``(x, y)`` tuples, colors ``(r, g, b, a)`` in 0..255.
    /// The flags choose what is drawn: shapes, joints, contact points,
    /// contact normals (``normal_length`` long) and broadphase boxes.
    #[pyo3(signature = (*, shapes = true, joints = true, contacts = false, normals = false, aabbs = false, normal_length = 0.3))]
    fn debug_draw<'py>(
        slf: &Bound<'py, Self>,
        shapes: bool,
        joints: bool,
        contacts: bool,
        normals: bool,
        aabbs: bool,
        normal_length: f32,
    ) -> PyResult<Bound<'py, PyList>> {
        let options = DrawOptions {
            shapes,
            joints,
            contacts,
            normals,
            aabbs,
            normal_length,
            ..DrawOptions::default()
        };
        let py = slf.py();
        let mut collect = Collect::default();
        read(slf)?.inner.debug_draw(&mut collect, &options);
        let out = PyList::empty(py);
        for p in collect.0 {
            let item = match p {
                Primitive::Polygon(vs, r, c) => {
                    let pts: Vec<(f32, f32)> = vs.into_iter().map(xy).collect();
                    ("polygon", pts, r, rgba(c)).into_pyobject(py)?
                }
                Primitive::Circle(center, r, axis, c) => {
                    ("circle", xy(center), r, xy(axis), rgba(c)).into_pyobject(py)?
                }
                Primitive::Capsule(a, b, r, c) => ("capsule", xy(a), xy(b), r, rgba(c)).into_pyobject(py)?,
                Primitive::Segment(a, b, c) => ("segment", xy(a), xy(b), rgba(c)).into_pyobject(py)?,
                Primitive::Point(p, size, c) => ("point", xy(p), size, rgba(c)).into_pyobject(py)?,
            };
            out.append::<Bound<'_, PyTuple>>(item)?;
        }
        Ok(out)
    }
}
