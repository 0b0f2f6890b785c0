//! One drawing path for both back ends.
//!
//! The world describes itself through [`tumble::DebugDraw`] into a
//! [`DrawList`] of world-space [`Primitive`]s. [`paint_ops`] then turns those
//! into screen-space [`PaintOp`]s (convex fills, strokes, dots) with the
//! testbed's [`Style`]. The window paints the ops with egui's painter
//! ([`crate::ui::paint`]); `tumble screenshot` rasterises the very same ops
//! into an image ([`crate::raster::Canvas`]). Nothing about the look is
//! decided twice.

use crate::camera::Camera;
use egui::{Color32, Pos2, Rect};
use std::f32::consts::{PI, TAU};
use tumble::{Color, DebugDraw, Vec2};

/// One thing the world asked to draw, in world coordinates.
#[derive(Clone, Debug, PartialEq)]
pub enum Primitive {
    /// A solid convex polygon, counter-clockwise, rounded by `radius`.
    Polygon {
        /// Corners, counter-clockwise.
        points: Vec<Vec2>,
        /// Rounding radius (0 for sharp corners).
        radius: f32,
        /// The engine's color for it.
        color: Color,
    },
    /// A solid circle; `axis` shows its rotation.
    Circle {
        /// Center.
        center: Vec2,
        /// Radius.
        radius: f32,
        /// Unit vector along the body's x axis.
        axis: Vec2,
        /// The engine's color.
        color: Color,
    },
    /// A solid capsule: the segment `p1`-`p2` grown by `radius`.
    Capsule {
        /// First end.
        p1: Vec2,
        /// Second end.
        p2: Vec2,
        /// Radius.
        radius: f32,
        /// The engine's color.
        color: Color,
    },
    /// A line segment.
    Segment {
        /// Start.
        p1: Vec2,
        /// End.
        p2: Vec2,
        /// Color.
        color: Color,
    },
    /// A dot `size` pixels across.
    Point {
        /// Where.
        p: Vec2,
        /// Diameter in pixels.
        size: f32,
        /// Color.
        color: Color,
    },
}

/// Collects what the world draws, in the order it draws it.
#[derive(Clone, Debug, Default)]
pub struct DrawList {
    /// The primitives, back to front.
    pub items: Vec<Primitive>,
}

impl DrawList {
    /// An empty list.
    pub fn new() -> DrawList {
        DrawList::default()
    }
}

impl DebugDraw for DrawList {
    fn draw_polygon(&mut self, vertices: &[Vec2], radius: f32, color: Color) {
        self.items.push(Primitive::Polygon {
            points: vertices.to_vec(),
            radius,
            color,
        });
    }
    fn draw_circle(&mut self, center: Vec2, radius: f32, axis: Vec2, color: Color) {
        self.items.push(Primitive::Circle {
            center,
            radius,
            axis,
            color,
        });
    }
    fn draw_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color) {
        self.items.push(Primitive::Capsule {
            p1,
            p2,
            radius,
            color,
        });
    }
    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        self.items.push(Primitive::Segment { p1, p2, color });
    }
    fn draw_point(&mut self, p: Vec2, size: f32, color: Color) {
        self.items.push(Primitive::Point { p, size, color });
    }
}

/// One screen-space drawing operation; coordinates in pixels, y down.
#[derive(Clone, Debug, PartialEq)]
pub enum PaintOp {
    /// A filled convex polygon (either winding).
    Fill {
        /// Corners.
        points: Vec<Pos2>,
        /// Fill color.
        color: Color32,
    },
    /// A polyline of `width` pixels.
    Stroke {
        /// Corners.
        points: Vec<Pos2>,
        /// Whether the last corner joins back to the first.
        closed: bool,
        /// Line width in pixels.
        width: f32,
        /// Color.
        color: Color32,
    },
    /// A filled disc.
    Dot {
        /// Center.
        center: Pos2,
        /// Radius in pixels.
        radius: f32,
        /// Color.
        color: Color32,
    },
    /// A line of text.
    Text {
        /// Where the text is anchored.
        pos: Pos2,
        /// Which point of the text's box `pos` is.
        anchor: egui::Align2,
        /// The text.
        text: String,
        /// Height of the font in pixels.
        size: f32,
        /// Color.
        color: Color32,
    },
}

/// The testbed's palette.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// The view's background.
    pub background: Color32,
    /// Faint metre grid.
    pub grid: Color32,
    /// Stronger grid lines every ten metres and the axes.
    pub grid_major: Color32,
    /// Dynamic bodies: outline; the fill is a darker shade of it.
    pub dynamic: Color32,
    /// Static bodies (ground, walls, ramps).
    pub fixed: Color32,
    /// Kinematic bodies.
    pub kinematic: Color32,
    /// Bodies the engine froze after a non-finite state.
    pub frozen: Color32,
    /// Sleeping bodies: the dynamic teal, greyed.
    pub sleeping: Color32,
    /// How much of the outline color goes into a moving body's fill (0..=1,
    /// the rest is background).
    pub fill_strength: f32,
    /// The same for static bodies: darker, so the ground and walls recede
    /// and what moves stands out.
    pub static_fill_strength: f32,
    /// Outline width in pixels.
    pub outline_width: f32,
    /// Unlit iteration ticks and the warm-starting bar when it is off.
    pub indicator_off: Color32,
    /// The amber of the warm-starting bar.
    pub amber: Color32,
    /// The sling's throw line and ghost shape.
    pub sling: Color32,
    /// The mouse spring of a grabbed body.
    pub spring: Color32,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            background: Color32::from_rgb(0x13, 0x16, 0x1c),
            grid: Color32::from_rgb(0x1a, 0x1e, 0x26),
            grid_major: Color32::from_rgb(0x23, 0x28, 0x33),
            dynamic: Color32::from_rgb(0x7f, 0xc8, 0xc0),
            fixed: Color32::from_rgb(0x7d, 0x8a, 0x9c),
            kinematic: Color32::from_rgb(0xb3, 0x9d, 0xdb),
            frozen: Color32::from_rgb(0xe0, 0x5a, 0x5a),
            sleeping: Color32::from_rgb(0x6c, 0x80, 0x7e),
            fill_strength: 0.42,
            static_fill_strength: 0.2,
            outline_width: 1.5,
            indicator_off: Color32::from_rgb(0x4a, 0x52, 0x61),
            amber: Color32::from_rgb(0xff, 0xb3, 0x00),
            sling: Color32::from_rgb(0xf2, 0xe2, 0xba),
            spring: Color32::from_rgb(0xf4, 0x8f, 0xb1),
        }
    }
}

/// An engine color as an egui color.
pub fn color32(c: Color) -> Color32 {
    let byte = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    Color32::from_rgba_unmultiplied(byte(c.r), byte(c.g), byte(c.b), byte(c.a))
}

/// `a` moved towards `b` by `t` (0..=1), channel by channel, opaque.
pub fn mix(a: Color32, b: Color32, t: f32) -> Color32 {
    let t = t.clamp(0.0, 1.0);
    let ch = |x: u8, y: u8| (x as f32 + (y as f32 - x as f32) * t).round() as u8;
    Color32::from_rgb(ch(a.r(), b.r()), ch(a.g(), b.g()), ch(a.b(), b.b()))
}

impl Style {
    /// The outline color for an engine body color: the engine names the
    /// body type by its color constant, the testbed picks its own softer
    /// palette for each.
    pub fn outline(&self, c: Color) -> Color32 {
        // (By color alone: a dynamic body's alpha is its density, see
        // `density_weight`.)
        let is = |named: Color| named.with_alpha(c.a) == c;
        if is(Color::DYNAMIC) {
            self.dynamic
        } else if is(Color::STATIC) {
            self.fixed
        } else if is(Color::KINEMATIC) {
            self.kinematic
        } else if is(Color::FROZEN) {
            self.frozen
        } else if is(Color::SLEEPING) {
            self.sleeping
        } else {
            color32(c)
        }
    }

    /// How strongly a body drawn in `c` is filled, relative to one of
    /// density 1: the world shades dynamic bodies by density
    /// ([`tumble::DrawOptions::density_shading`]) in their color's alpha,
    /// and a body ten times as dense is filled twice as strongly, a tenth
    /// as dense half as strongly. Other colors: 1.
    pub fn density_weight(&self, c: Color) -> f32 {
        let shaded = Color::DYNAMIC.with_alpha(c.a) == c || Color::SLEEPING.with_alpha(c.a) == c;
        if shaded {
            c.a / tumble::density_alpha(1.0)
        } else {
            1.0
        }
    }

    /// The fill color of a body whose outline is `outline`, filled
    /// `weight` times as strongly as usual (see [`Style::density_weight`]).
    pub fn fill(&self, outline: Color32, weight: f32) -> Color32 {
        let strength = if outline == self.fixed {
            self.static_fill_strength
        } else {
            self.fill_strength
        };
        mix(self.background, outline, (strength * weight).clamp(0.05, 0.95))
    }
}

/// Corners of a circle of `radius` pixels: enough that no facet is visible,
/// few enough for thousands of small circles.
fn circle_segments(radius_px: f32) -> usize {
    ((radius_px * 0.9).sqrt() * 4.0).clamp(8.0, 64.0) as usize
}

/// Points on the arc around `c` from angle `a0` to `a1` (counter-clockwise
/// in world space), world coordinates, both ends included.
fn arc(out: &mut Vec<Vec2>, c: Vec2, r: f32, a0: f32, a1: f32, segments_full: usize) {
    let sweep = a1 - a0;
    let n = ((sweep / TAU * segments_full as f32).ceil() as usize).max(1);
    for k in 0..=n {
        let a = a0 + sweep * k as f32 / n as f32;
        out.push(c + r * Vec2::new(a.cos(), a.sin()));
    }
}

/// The outline of a convex polygon grown by `radius`, as a world-space
/// polygon (the corners become arcs).
pub fn rounded_outline(points: &[Vec2], radius: f32, segments_full: usize) -> Vec<Vec2> {
    if radius <= 0.0 || points.len() < 2 {
        return points.to_vec();
    }
    let n = points.len();
    let mut out = Vec::with_capacity(n * 4);
    for i in 0..n {
        let prev = points[(i + n - 1) % n];
        let cur = points[i];
        let next = points[(i + 1) % n];
        // Outward normals of the edges into and out of this corner
        // (counter-clockwise winding: the outside is on the right).
        let e0 = (cur - prev).normalize_or_zero();
        let e1 = (next - cur).normalize_or_zero();
        let n0 = Vec2::new(e0.y, -e0.x);
        let n1 = Vec2::new(e1.y, -e1.x);
        let a0 = n0.y.atan2(n0.x);
        let mut a1 = n1.y.atan2(n1.x);
        while a1 < a0 {
            a1 += TAU;
        }
        arc(&mut out, cur, radius, a0, a1, segments_full);
    }
    out
}

/// The outline of a capsule as a world-space polygon.
pub fn capsule_outline(p1: Vec2, p2: Vec2, radius: f32, segments_full: usize) -> Vec<Vec2> {
    let d = p2 - p1;
    let base = if d.length_squared() > 0.0 {
        d.y.atan2(d.x)
    } else {
        0.0
    };
    let mut out = Vec::with_capacity(segments_full + 2);
    // Around p2 from -90 to +90 degrees of the axis, then around p1.
    arc(
        &mut out,
        p2,
        radius,
        base - 0.5 * PI,
        base + 0.5 * PI,
        segments_full,
    );
    arc(
        &mut out,
        p1,
        radius,
        base + 0.5 * PI,
        base + 1.5 * PI,
        segments_full,
    );
    out
}

/// A circle's outline as a world-space polygon.
pub fn circle_outline(center: Vec2, radius: f32, segments: usize) -> Vec<Vec2> {
    (0..segments)
        .map(|k| {
            let a = TAU * k as f32 / segments as f32;
            center + radius * Vec2::new(a.cos(), a.sin())
        })
        .collect()
}

/// Turns world-space primitives into screen-space paint operations.
pub fn paint_ops(
    items: &[Primitive],
    camera: &Camera,
    viewport: Rect,
    style: &Style,
    out: &mut Vec<PaintOp>,
) {
    let to_screen = |p: Vec2| camera.to_screen(p, viewport);
    let visible = camera.visible_world(viewport);
    for item in items {
        match item {
            Primitive::Polygon {
                points,
                radius,
                color,
            } => {
                if !visible_any(points, *radius, visible) {
                    continue;
                }
                let segs = circle_segments(radius * camera.zoom);
                let outline = rounded_outline(points, *radius, segs);
                body_ops(out, outline.into_iter().map(to_screen).collect(), *color, style);
            }
            Primitive::Circle {
                center,
                radius,
                axis,
                color,
            } => {
                if !visible_any(&[*center], *radius, visible) {
                    continue;
                }
                let segs = circle_segments(radius * camera.zoom);
                let outline = circle_outline(*center, *radius, segs);
                let line = style.outline(*color);
                body_ops(out, outline.into_iter().map(to_screen).collect(), *color, style);
                // A spoke shows the rotation (a rolling ball is seen to roll).
                out.push(PaintOp::Stroke {
                    points: vec![to_screen(*center), to_screen(*center + *radius * *axis)],
                    closed: false,
                    width: style.outline_width,
                    color: line,
                });
            }
            Primitive::Capsule {
                p1,
                p2,
                radius,
                color,
            } => {
                if !visible_any(&[*p1, *p2], *radius, visible) {
                    continue;
                }
                let segs = circle_segments(radius * camera.zoom);
                let outline = capsule_outline(*p1, *p2, *radius, segs);
                body_ops(out, outline.into_iter().map(to_screen).collect(), *color, style);
            }
            Primitive::Segment { p1, p2, color } => out.push(PaintOp::Stroke {
                points: vec![to_screen(*p1), to_screen(*p2)],
                closed: false,
                width: 1.5,
                color: color32(*color),
            }),
            Primitive::Point { p, size, color } => out.push(PaintOp::Dot {
                center: to_screen(*p),
                radius: 0.5 * size,
                color: color32(*color),
            }),
        }
    }
}

/// Whether any of `points` (grown by `radius`) may be on screen.
fn visible_any(points: &[Vec2], radius: f32, visible: tumble::Aabb) -> bool {
    let Some(first) = points.first() else { return false };
    let mut bb = tumble::Aabb::new(*first, *first);
    for p in points {
        bb = bb.union(tumble::Aabb::new(*p, *p));
    }
    bb.expanded(radius + 0.05).overlaps(visible)
}

/// Below this size on screen (pixels, the larger side of its box) a body
/// is drawn as one fill in its outline color, shrunk by a pixel so its
/// neighbours stay apart, instead of a fill and an outline: the outline's
/// thin triangles are what a software renderer spends its time on (the
/// 100-row pyramid, paused, drew at 14 frames per second with outlines and
/// 38 without).
pub const OUTLINE_MIN_PIXELS: f32 = 24.0;

/// A body: its fill, then its outline (or, small on screen, one fill).
fn body_ops(out: &mut Vec<PaintOp>, screen: Vec<Pos2>, color: Color, style: &Style) {
    let (outline, weight) = (style.outline(color), style.density_weight(color));
    let bounds = Rect::from_points(&screen);
    let size = bounds.width().max(bounds.height());
    if size < OUTLINE_MIN_PIXELS {
        let center = bounds.center();
        let shrink = (1.0 - 1.0 / bounds.width().min(bounds.height()).max(2.0)).max(0.0);
        out.push(PaintOp::Fill {
            points: screen.iter().map(|&p| center + (p - center) * shrink).collect(),
            color: mix(style.background, outline, (0.8 * weight.sqrt()).clamp(0.35, 1.0)),
        });
        return;
    }
    out.push(PaintOp::Fill {
        points: screen.clone(),
        color: style.fill(outline, weight),
    });
    out.push(PaintOp::Stroke {
        points: screen,
        closed: true,
        width: style.outline_width,
        color: outline,
    });
}

/// The metre grid behind the world: a faint line every metre (every ten
/// when metres get too close together) and a stronger one every ten.
pub fn grid_ops(camera: &Camera, viewport: Rect, style: &Style, out: &mut Vec<PaintOp>) {
    let seen = camera.visible_world(viewport);
    let step = if camera.zoom >= 12.0 { 1.0 } else { 10.0 };
    let line = |out: &mut Vec<PaintOp>, a: Pos2, b: Pos2, major: bool| {
        out.push(PaintOp::Stroke {
            points: vec![a, b],
            closed: false,
            width: 1.0,
            color: if major { style.grid_major } else { style.grid },
        })
    };
    let mut x = (seen.min.x / step).floor() * step;
    while x <= seen.max.x {
        let s = camera.to_screen(Vec2::new(x, 0.0), viewport).x;
        let major = (x / 10.0).round() * 10.0 == x;
        line(
            out,
            Pos2::new(s, viewport.top()),
            Pos2::new(s, viewport.bottom()),
            major,
        );
        x += step;
    }
    let mut y = (seen.min.y / step).floor() * step;
    while y <= seen.max.y {
        let s = camera.to_screen(Vec2::new(0.0, y), viewport).y;
        let major = (y / 10.0).round() * 10.0 == y;
        line(
            out,
            Pos2::new(viewport.left(), s),
            Pos2::new(viewport.right(), s),
            major,
        );
        y += step;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tumble::{BodyDef, Circle, Polygon, ShapeDef, World};

    #[test]
    fn the_world_draws_one_primitive_per_shape() {
        let mut world = World::default();
        let ground = world.create_body(&BodyDef::static_body()).unwrap();
        world
            .create_shape(ground, Polygon::new_box(5.0, 0.5).unwrap(), &ShapeDef::default())
            .unwrap();
        let ball = world
            .create_body(&BodyDef::dynamic().at(Vec2::new(0.0, 3.0)))
            .unwrap();
        world
            .create_shape(ball, Circle::new(Vec2::ZERO, 0.5).unwrap(), &ShapeDef::default())
            .unwrap();
        let mut list = DrawList::new();
        world.debug_draw(&mut list, &tumble::DrawOptions::default());
        assert_eq!(list.items.len(), 2);
        assert!(matches!(list.items[0], Primitive::Polygon { color, .. } if color == Color::STATIC));
        assert!(matches!(list.items[1], Primitive::Circle { color, .. } if color == Color::DYNAMIC));
    }

    #[test]
    fn denser_bodies_are_filled_more_strongly() {
        let style = Style::default();
        let alpha = tumble::density_alpha;
        let weight = |d: f32| style.density_weight(Color::DYNAMIC.with_alpha(alpha(d)));
        assert_eq!(weight(1.0), 1.0);
        assert!(
            weight(10.0) > 1.8 && weight(0.1) < 0.6,
            "{} {}",
            weight(10.0),
            weight(0.1)
        );
        assert_eq!(
            style.density_weight(Color::STATIC),
            1.0,
            "static bodies are not shaded"
        );
        let (light, heavy) = (
            style.fill(style.dynamic, weight(0.5)),
            style.fill(style.dynamic, weight(100.0)),
        );
        let distance = |c: Color32| {
            (c.r() as i32 - style.background.r() as i32).abs()
                + (c.g() as i32 - style.background.g() as i32).abs()
        };
        assert!(
            distance(heavy) > distance(light) + 40,
            "{heavy:?} against {light:?}"
        );
    }

    #[test]
    fn bodies_become_a_fill_and_an_outline_in_the_palette() {
        let style = Style::default();
        let cam = Camera {
            center: Vec2::ZERO,
            zoom: 20.0,
        };
        let vp = Rect::from_min_size(Pos2::ZERO, egui::vec2(200.0, 100.0));
        let items = [Primitive::Polygon {
            points: vec![
                Vec2::new(-1.0, -1.0),
                Vec2::new(1.0, -1.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(-1.0, 1.0),
            ],
            radius: 0.0,
            color: Color::DYNAMIC.with_alpha(tumble::density_alpha(1.0)),
        }];
        let mut ops = Vec::new();
        paint_ops(&items, &cam, vp, &style, &mut ops);
        assert_eq!(ops.len(), 2);
        match &ops[0] {
            PaintOp::Fill { points, color } => {
                assert_eq!(points[0], Pos2::new(80.0, 70.0));
                assert_eq!(*color, style.fill(style.dynamic, 1.0));
            }
            other => panic!("expected a fill, got {other:?}"),
        }
        assert!(matches!(&ops[1], PaintOp::Stroke { closed: true, color, .. } if *color == style.dynamic));
        // Small on screen (10 px): one fill in the outline color, a little
        // inside the box so neighbours stay apart.
        let small = Camera { zoom: 5.0, ..cam };
        ops.clear();
        paint_ops(&items, &small, vp, &style, &mut ops);
        assert_eq!(ops.len(), 1);
        match &ops[0] {
            PaintOp::Fill { points, color } => {
                assert_ne!(*color, style.background);
                let (x, y) = (points[0].x, points[0].y);
                assert!(x > 95.0 && x < 95.6 && y < 55.0 && y > 54.4, "{:?}", points[0]);
            }
            other => panic!("expected one fill, got {other:?}"),
        }
        // Off screen: nothing.
        let far = [Primitive::Circle {
            center: Vec2::new(100.0, 0.0),
            radius: 1.0,
            axis: Vec2::X,
            color: Color::DYNAMIC,
        }];
        ops.clear();
        paint_ops(&far, &cam, vp, &style, &mut ops);
        assert!(ops.is_empty());
    }

    #[test]
    fn rounded_and_capsule_outlines_keep_their_distance() {
        let square = [
            Vec2::new(-1.0, -1.0),
            Vec2::new(1.0, -1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(-1.0, 1.0),
        ];
        let out = rounded_outline(&square, 0.25, 32);
        for p in &out {
            // Every outline point is 0.25 from the square.
            let q = p.clamp(Vec2::splat(-1.0), Vec2::splat(1.0));
            assert!(((*p - q).length() - 0.25).abs() < 1e-4, "{p:?}");
        }
        let cap = capsule_outline(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.5, 24);
        for p in &cap {
            let q = Vec2::new(p.x.clamp(-1.0, 1.0), 0.0);
            assert!(((*p - q).length() - 0.5).abs() < 1e-4, "{p:?}");
        }
    }
}
