//! Two corners facing each other: which way to hold them apart.
//!
//! The nearest points of two apart convex shapes that meet corner to
//! corner (or a circle and a corner, or two circles) give the contact
//! normal along the line between them. The solver holds the pair apart along that normal,
//! fixed for the step: it measures the separation as the distance along
//! the normal, which is exact for a face but not for a corner. A box
//! sliding over another's corner with a hand's breadth to spare closes
//! that distance along the diagonal as it passes, and the solver brakes
//! it and kicks it up and spinning: a ghost collision off a corner it
//! never touches.
//!
//! Any direction in the cone between the two corners' faces holds them
//! apart as well: along each, the corners are the two shapes' extreme
//! points, and the distance along it is a separating axis's, a lower
//! bound of the true distance that a translation changes exactly. So the
//! normal is aimed within the cone along the pair's motion until the
//! step's solve is done with it (the step and one substep on: the
//! velocity the step leaves is held to what the gap allows over one more
//! substep): the direction that keeps the pair
//! farthest apart all along that motion, the face a corner is passing
//! over as it goes by. When no direction in the cone keeps the pair apart
//! all along, the corners meet (or pass too near to tell), and the line
//! between them stays the normal. Touching corners keep it too: for an
//! overlap it is the shortest way out.

use crate::math::{cross, left_perp, Rot, Vec2};

/// The directions along which two corners facing each other can be held
/// apart: every unit normal turning counter-clockwise from `from` to `to`
/// (at most a half turn), in the orientation of the manifold's normal
/// (from shape A towards shape B); or every direction, for two circles
/// ([`CornerCone::round`], both ends zero).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CornerCone {
    /// The clockwise end.
    pub from: Vec2,
    /// The counter-clockwise end.
    pub to: Vec2,
    /// The two cores' rounding radii together: the surfaces are this much
    /// nearer than the cores along any direction of the cone.
    pub radius: f32,
}

impl CornerCone {
    /// The cone of a corner of one core, between the normals of the face
    /// before it and the face after it (counter-clockwise), facing a
    /// corner of another core, likewise `theirs` (in that core's own
    /// outward sense), the two nearest along `normal`: the directions
    /// along which both corners are their cores' extreme points, from the
    /// first core towards the second.
    pub(crate) fn between(normal: Vec2, ours: [Vec2; 2], theirs: [Vec2; 2], radius: f32) -> CornerCone {
        // Seen from the first core, the second's faces turn the other way:
        // its outward normals negated (a half turn, which keeps the order).
        CornerCone::of_corner(ours, radius).within(normal, [-theirs[0], -theirs[1]])
    }

    /// The cone of a corner alone, between the normals of the faces before
    /// and after it (counter-clockwise): what a circle faces (every
    /// direction holds the circle's center at its extreme point).
    pub(crate) fn of_corner(faces: [Vec2; 2], radius: f32) -> CornerCone {
        CornerCone {
            from: faces[0],
            to: faces[1],
            radius,
        }
    }

    /// The directions of this cone that also turn counter-clockwise from
    /// `ends[0]` to `ends[1]`, both cones holding `normal`. On each side
    /// of the normal the tighter end bounds the two: the one nearer the
    /// normal (each end within a half turn of it, so the larger cosine).
    pub(crate) fn within(self, normal: Vec2, ends: [Vec2; 2]) -> CornerCone {
        let tighter = |a: Vec2, b: Vec2| if normal.dot(b) > normal.dot(a) { b } else { a };
        CornerCone {
            from: tighter(self.from, ends[0]),
            to: tighter(self.to, ends[1]),
            ..self
        }
    }

    /// Every direction: two circles are each other's extreme points along
    /// any.
    pub(crate) fn round(radius: f32) -> CornerCone {
        CornerCone {
            from: Vec2::ZERO,
            to: Vec2::ZERO,
            radius,
        }
    }

    /// The directions of this cone that a surface has at the corner,
    /// those turning counter-clockwise from `ends[0]` to `ends[1]`, where
    /// the surface admitted `normal` (within a tolerance of those ends:
    /// the surface has that one too).
    pub(crate) fn on_surface(self, normal: Vec2, ends: [Vec2; 2]) -> CornerCone {
        let [from, to] = ends;
        let from = if cross(from, normal) < 0.0 { normal } else { from };
        let to = if cross(normal, to) < 0.0 { normal } else { to };
        self.within(normal, [from, to])
    }

    /// The same cone seen from the other shape.
    pub(crate) fn flipped(self) -> CornerCone {
        CornerCone {
            from: -self.from,
            to: -self.to,
            ..self
        }
    }

    /// The same cone turned by `q`.
    pub(crate) fn rotated(self, q: Rot) -> CornerCone {
        CornerCone {
            from: q.rotate(self.from),
            to: q.rotate(self.to),
            ..self
        }
    }

    /// Whether direction `d` lies in the cone, counting its ends, or
    /// within `tolerance` (a sine) outside them (any does in a round one:
    /// its zero ends cross nothing).
    fn holds(&self, d: Vec2, tolerance: f32) -> bool {
        cross(self.from, d) >= -tolerance && cross(d, self.to) >= -tolerance
    }

    /// The cone's normal for a one-point manifold `normal` with
    /// `separation`, when the point on B moves by `motion` relative to A
    /// in the time aimed at: `(normal, separation)` along another
    /// direction of the cone that keeps the two cores apart all along
    /// that motion, by more than `slack`, or `None` to keep the line
    /// between the corners: when they touch, when the line is the best
    /// direction, when no direction of the cone keeps them apart all
    /// along (they meet, or pass so near that only the line between them
    /// can tell), or when the normal is not in the cone (a corner
    /// contact's always is, but for rounding).
    ///
    /// Along a fixed direction the separation of a translating pair
    /// changes linearly, so it is least at one end of the motion: the
    /// direction kept is the one whose lesser end is greatest, and it
    /// must leave the cores farther apart than their rounding and the
    /// slack at both ends (then no point of the way between overlaps,
    /// along it or at all). The slack covers what the motion of the
    /// manifold's point does not tell: how far spin moves the corners
    /// and the solver's ends of the point, which lie off it.
    pub(crate) fn aim(&self, normal: Vec2, separation: f32, motion: Vec2, slack: f32) -> Option<(Vec2, f32)> {
        if separation <= 0.0 {
            return None;
        }
        // Tolerance for the line between the corners against the cone's
        // ends: it is found to rounding, and lies on an end exactly when
        // one corner is a face's end in line with the other.
        const TOLERANCE: f32 = 1e-4;
        let half_turn_at_most = cross(self.from, self.to) >= -TOLERANCE;
        if !self.holds(normal, TOLERANCE) || !half_turn_at_most {
            return None;
        }
        // The cores' offset, B's corner from A's, now and at the end of
        // the motion, and the least of the two along a direction.
        let start = (separation + self.radius) * normal;
        let end = start + motion;
        let least = |n: Vec2| n.dot(start).min(n.dot(end));
        // The greatest least lies where one end's separation peaks (the
        // offset's own direction), where the two are equal (across the
        // motion), or at an end of the cone.
        let across = left_perp(motion).normalize_or_zero();
        let candidates = [
            normal,
            end.normalize_or_zero(),
            across,
            -across,
            self.from,
            self.to,
        ];
        let best = candidates
            .into_iter()
            .filter(|&n| n != Vec2::ZERO && self.holds(n, 0.0))
            .max_by(|&a, &b| least(a).total_cmp(&least(b)))?;
        (best != normal && least(best) > self.radius + slack).then(|| (best, best.dot(start) - self.radius))
    }
}
