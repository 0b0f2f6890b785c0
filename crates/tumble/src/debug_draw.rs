//! Debug drawing: the world describes itself through this trait, and the
//! testbed window and the PNG renderer implement it.

use crate::math::Vec2;

/// An RGBA color, 0..=1 per channel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Color {
    /// Red.
    pub r: f32,
    /// Green.
    pub g: f32,
    /// Blue.
    pub b: f32,
    /// Alpha (opacity).
    pub a: f32,
}

impl Color {
    /// A color from 0xRRGGBB, opaque.
    pub const fn hex(rgb: u32) -> Color {
        Color {
            r: ((rgb >> 16) & 0xff) as f32 / 255.0,
            g: ((rgb >> 8) & 0xff) as f32 / 255.0,
            b: (rgb & 0xff) as f32 / 255.0,
            a: 1.0,
        }
    }

    /// The same color with alpha `a`.
    pub const fn with_alpha(self, a: f32) -> Color {
        Color { a, ..self }
    }

    /// Static bodies.
    pub const STATIC: Color = Color::hex(0x6f7d8c);
    /// Kinematic bodies.
    pub const KINEMATIC: Color = Color::hex(0x7fb3d5);
    /// Dynamic bodies.
    pub const DYNAMIC: Color = Color::hex(0xe8b04b);
    /// A dynamic or kinematic body that is asleep: the dynamic color
    /// greyed.
    pub const SLEEPING: Color = Color::hex(0x8c8577);
    /// A body frozen after its state became non-finite.
    pub const FROZEN: Color = Color::hex(0xd04040);
    /// Sensor shapes (they push nothing).
    pub const SENSOR: Color = Color::hex(0x66bb6a).with_alpha(0.45);
    /// Contact points that persisted from the previous step (warm started).
    pub const CONTACT_PERSISTED: Color = Color::hex(0x4fc3f7);
    /// Contact points new this step.
    pub const CONTACT_NEW: Color = Color::hex(0xff5252);
    /// Contact normals.
    pub const NORMAL: Color = Color::hex(0x9ccc65);
    /// Bounding boxes.
    pub const AABB: Color = Color::hex(0xb388ff);
    /// Joints: the lines from each body's center to its frame, and the
    /// anchors.
    pub const JOINT: Color = Color::hex(0x80deea);
    /// A joint's axis and the limits along it or about it.
    pub const JOINT_AXIS: Color = Color::hex(0xf48fb1);
}

/// What [`World::debug_draw`](crate::World::debug_draw) draws.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawOptions {
    /// Shapes.
    pub shapes: bool,
    /// Contact points (persisted ones in one color, new ones in another).
    pub contacts: bool,
    /// Contact normals, scaled by `normal_length`.
    pub normals: bool,
    /// Shapes' fat bounding boxes in the broadphase.
    pub aabbs: bool,
    /// Joints: each body's center joined to its frame, the anchors, a
    /// slider's or wheel's axis with its limits, a hinge's limits.
    pub joints: bool,
    /// Length of a drawn normal, in world units.
    pub normal_length: f32,
    /// Shade dynamic bodies by their shapes' density: the color's alpha
    /// becomes [`density_alpha`] of it, so heavier bodies draw more
    /// solid. Off by default (alpha 1).
    pub density_shading: bool,
}

/// The alpha [`DrawOptions::density_shading`] gives a shape of `density`
/// (kg/m^2): 0.45 at 1, growing with its logarithm to 1 at about 8 and
/// falling to 0.2 at about a third, so a box a hundred times as dense as
/// its neighbours looks it.
pub fn density_alpha(density: f32) -> f32 {
    (0.45 + 0.18 * density.max(1e-6).log2()).clamp(0.2, 1.0)
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            shapes: true,
            contacts: false,
            normals: false,
            aabbs: false,
            joints: true,
            normal_length: 0.3,
            density_shading: false,
        }
    }
}

/// Receives the world's drawing calls. Every coordinate is in world units.
pub trait DebugDraw {
    /// A solid convex polygon, counter-clockwise, rounded by `radius`.
    fn draw_polygon(&mut self, vertices: &[Vec2], radius: f32, color: Color);
    /// A solid circle; `axis` is a unit vector showing its rotation.
    fn draw_circle(&mut self, center: Vec2, radius: f32, axis: Vec2, color: Color);
    /// A solid capsule.
    fn draw_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color);
    /// A line segment.
    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, color: Color);
    /// A point of `size` pixels.
    fn draw_point(&mut self, p: Vec2, size: f32, color: Color);
}
