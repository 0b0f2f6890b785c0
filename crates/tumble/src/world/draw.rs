//! Debug drawing of the world through a [`DebugDraw`].

use super::World;
use crate::body::BodyType;
use crate::debug_draw::{Color, DebugDraw, DrawOptions};
use crate::math::{Transform, Vec2};
use crate::shapes::{ChainSegment, Shape};

impl World {
    /// Describes the world to a [`DebugDraw`] implementation.
    pub fn debug_draw(&self, draw: &mut dyn DebugDraw, options: &DrawOptions) {
        if options.shapes {
            for (_, slot) in self.shapes.iter() {
                let b = &self.bodies[slot.body];
                let color = if slot.def.sensor {
                    Color::SENSOR
                } else if b.frozen {
                    Color::FROZEN
                } else if b.body_type != BodyType::Static && !self.simulates(slot.body) {
                    Color::SLEEPING
                } else {
                    match b.body_type {
                        BodyType::Static => Color::STATIC,
                        BodyType::Kinematic => Color::KINEMATIC,
                        BodyType::Dynamic => Color::DYNAMIC,
                    }
                };
                let color = if options.density_shading && b.body_type == BodyType::Dynamic {
                    color.with_alpha(crate::debug_draw::density_alpha(slot.def.density))
                } else {
                    color
                };
                draw_shape(draw, &slot.shape, b.xf, color);
            }
        }
        if options.aabbs {
            for (_, slot) in self.shapes.iter() {
                let a = self.broadphase.fat_aabb(slot.proxy);
                let c = [
                    a.min,
                    Vec2::new(a.max.x, a.min.y),
                    a.max,
                    Vec2::new(a.min.x, a.max.y),
                ];
                for k in 0..4 {
                    draw.draw_segment(c[k], c[(k + 1) % 4], Color::AABB);
                }
            }
        }
        if options.contacts || options.normals {
            for (_, c) in self.contacts.iter() {
                let m = &c.manifold;
                for p in m.points() {
                    if options.contacts {
                        let color = if p.persisted {
                            Color::CONTACT_PERSISTED
                        } else {
                            Color::CONTACT_NEW
                        };
                        draw.draw_point(p.point, 5.0, color);
                    }
                    if options.normals {
                        draw.draw_segment(p.point, p.point + options.normal_length * m.normal, Color::NORMAL);
                    }
                }
            }
        }
    }
}

/// Draws one shape placed at `xf`.
pub fn draw_shape(draw: &mut dyn DebugDraw, shape: &Shape, xf: Transform, color: Color) {
    match shape {
        Shape::Circle(c) => draw.draw_circle(xf.apply(c.center), c.radius, xf.q.x_axis(), color),
        Shape::Capsule(c) => draw.draw_capsule(xf.apply(c.center1), xf.apply(c.center2), c.radius, color),
        Shape::Polygon(p) => {
            let mut v = [Vec2::ZERO; crate::settings::MAX_POLYGON_VERTICES];
            for (dst, src) in v.iter_mut().zip(p.points()) {
                *dst = xf.apply(*src);
            }
            draw.draw_polygon(&v[..p.count], p.radius, color);
        }
        Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
            draw.draw_segment(xf.apply(s.point1), xf.apply(s.point2), color)
        }
    }
}
