//! Debug drawing of the world through a [`DebugDraw`].

use super::World;
use crate::body::{BodyType, NULL};
use crate::debug_draw::{Color, DebugDraw, DrawOptions};
use crate::joint::Joint;
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
            for (_, slot) in self.shapes.iter().filter(|(_, slot)| slot.proxy != NULL) {
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
        if options.joints {
            for (_, j) in self.joints.iter() {
                self.draw_joint(draw, j);
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

impl World {
    /// Draws joint `j`: lines from each moving body's center of mass to
    /// its frame, the two anchors (apart when the joint has come apart), and
    /// by kind a slider's axis between its limits, a hinge's limits as two
    /// spokes, a distance joint's line.
    fn draw_joint(&self, draw: &mut dyn DebugDraw, j: &Joint) {
        let (ba, bb) = (&self.bodies[j.body_a], &self.bodies[j.body_b]);
        let (fa, fb) = (ba.xf * j.frame_a, bb.xf * j.frame_b);
        let solved = j.is_solved();
        if solved {
            // (A static body's center says nothing: often the ground's.)
            for (b, f) in [(ba, fa), (bb, fb)] {
                if b.body_type != BodyType::Static {
                    draw.draw_segment(b.center, f.p, Color::JOINT);
                }
                draw.draw_point(f.p, 4.0, Color::JOINT);
            }
        }
        j.kind.draw((fa, fb), self.settings.length_units_per_meter, draw);
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
