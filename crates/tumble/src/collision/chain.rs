//! Chain segments against convex shapes: one-sided, and smooth across the
//! joints between segments (no ghost collisions).
//!
//! The pair is first collided as a two-sided segment. A shape behind the
//! segment (its centroid on the back side) gets nothing. The normal found
//! is then judged against the neighbouring segments (the ghost vertices):
//! - along the segment's own normal: kept;
//! - tilted towards an end where the chain turns away (a convex corner)
//!   and still between the two segments' normals: kept, the corner's
//!   rounded normal (a ball rolling over a hill top);
//! - tilted past the neighbour's normal at a convex corner: dropped, the
//!   neighbour has the contact;
//! - tilted towards an end where the chain runs straight on or turns up
//!   (a flat joint or a valley): that corner is not a corner of the
//!   surface, so the contact is rebuilt against the segment's face, with
//!   its normal. This is the case that makes a box sliding over the seam
//!   between two tiles hop: the next segment's end, met edge first, would
//!   push it sideways and up.

use super::circles::circle_on_face;
use super::sat::collide_segment_face;
use super::{collide_recyclable, Keep, Manifold};
use crate::math::{cross, right_perp, Transform, Vec2};
use crate::settings::SIN_TOLERANCE;
use crate::shapes::{ChainSegment, Shape};

/// What to do with a normal found against a chain segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// The normal is one the surface has there.
    Admit,
    /// A neighbour owns it (or it points behind the segment).
    Skip,
    /// It is the normal of a corner the surface does not have: use the
    /// segment's face instead.
    Snap,
}

/// The chain segment's normals and corners, in its own frame.
struct Corners {
    normal0: Vec2,
    normal1: Vec2,
    normal2: Vec2,
    /// Whether the chain turns away from the solid side at point 1
    /// (convex, as seen from the front).
    convex1: bool,
    /// The same at point 2.
    convex2: bool,
}

impl Corners {
    fn of(c: &ChainSegment) -> Corners {
        let (p1, p2) = (c.segment.point1, c.segment.point2);
        let (e0, e1, e2) = (p1 - c.ghost1, p2 - p1, c.ghost2 - p2);
        let unit = |e: Vec2| right_perp(e).normalize_or_zero();
        let (normal0, normal1, normal2) = (unit(e0), unit(e1), unit(e2));
        Corners {
            normal0,
            normal1,
            normal2,
            convex1: cross(normal0, normal1) > SIN_TOLERANCE,
            convex2: cross(normal1, normal2) > SIN_TOLERANCE,
        }
    }

    /// The normals the chain's surface has at the segment's first vertex
    /// (its second, `at_p2`), counter-clockwise: at a convex vertex, those
    /// between the two faces that meet there (the neighbour's first at the
    /// first vertex, this one's first at the second); this face's alone
    /// at any other.
    fn normals_at(&self, at_p2: bool) -> [Vec2; 2] {
        match at_p2 {
            false if self.convex1 => [self.normal0, self.normal1],
            true if self.convex2 => [self.normal1, self.normal2],
            _ => [self.normal1; 2],
        }
    }

    /// The verdict on normal `n` (unit, segment frame, from the segment
    /// towards the other shape).
    fn judge(&self, n: Vec2) -> Verdict {
        if n.dot(self.normal1) < 0.0 {
            return Verdict::Skip;
        }
        let tilt = cross(n, self.normal1);
        if tilt.abs() <= SIN_TOLERANCE {
            return Verdict::Admit;
        }
        // Normals turn counter-clockwise from `normal0` through `normal1`
        // to `normal2` round convex corners; tilted clockwise of `normal1`
        // (`tilt > 0`) is towards point 1.
        let (convex, from, to) = if tilt > 0.0 {
            (self.convex1, self.normal0, self.normal1)
        } else {
            (self.convex2, self.normal1, self.normal2)
        };
        if !convex {
            Verdict::Snap
        } else if cross(from, n) >= -SIN_TOLERANCE && cross(n, to) >= -SIN_TOLERANCE {
            Verdict::Admit
        } else {
            Verdict::Skip
        }
    }
}

/// The manifold of chain segment `a` placed at `xf_a` with shape `b` at
/// `xf_b` (a polygon, capsule or circle; against another segment, none),
/// normal from A to B, and how long it may be kept: a manifold the
/// neighbours changed is collided afresh every step.
pub(crate) fn collide_chain_segment(
    a: &ChainSegment,
    xf_a: Transform,
    b: &Shape,
    xf_b: Transform,
    speculative: f32,
) -> (Manifold, Keep) {
    let nothing = (Manifold::default(), Keep::Never);
    if matches!(b, Shape::Segment(_) | Shape::ChainSegment(_)) {
        return (Manifold::default(), Keep::Complete);
    }
    let (p1, p2) = (a.segment.point1, a.segment.point2);
    let corners = Corners::of(a);
    // One-sided: only what is in front of the segment collides.
    let centroid_b = xf_a.inv_apply(xf_b.apply(b.centroid()));
    if corners.normal1.dot(centroid_b - p1) < 0.0 {
        return nothing;
    }
    let two_sided = Shape::Capsule(a.segment.as_capsule());
    let (manifold, keep) = collide_recyclable(&two_sided, xf_a, b, xf_b, speculative);
    if manifold.count == 0 {
        return (manifold, keep);
    }
    let normal = xf_a.q.inv_rotate(manifold.normal);
    match corners.judge(normal) {
        // Two corners (a vertex of the chain one of them) may be held apart
        // only along the normals the chain's surface has at its vertex.
        Verdict::Admit => match keep {
            Keep::Corners { cone, recyclable } => {
                let at_p2 = (xf_a.inv_apply(manifold.points[0].point) - p1).dot(p2 - p1)
                    > 0.5 * (p2 - p1).length_squared();
                let ends = corners.normals_at(at_p2).map(|n| xf_a.q.rotate(n));
                let cone = cone.on_surface(manifold.normal, ends);
                (manifold, Keep::Corners { cone, recyclable })
            }
            keep => (manifold, keep),
        },
        Verdict::Skip => nothing,
        Verdict::Snap => {
            let m = match b {
                Shape::Circle(c) => {
                    let normal = right_perp(p2 - p1).normalize_or_zero();
                    circle_on_face((p1, p2, normal, 0.0), xf_a, (c, xf_b), speculative)
                }
                _ => collide_segment_face(p1, p2, xf_a, b, xf_b, speculative),
            };
            (m, Keep::Never)
        }
    }
}
