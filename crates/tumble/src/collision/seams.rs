//! Contacts against polygons with seams: no ghost collisions where welded
//! shapes meet (see [`crate::shapes::seams`]).
//!
//! The pair is collided as it always is. Then, for each of its shapes
//! that has seams, the manifold's normal is judged against the feature of
//! that polygon it came from, Terdiman's test for the edges of a mesh:
//! - a normal along one of its outer faces (not a seam): kept;
//! - otherwise the feature is the vertex whose own corner holds the
//!   normal (the polygon's point deepest in the other shape), or, for a
//!   normal along a seam, the seam's end nearer the deepest point; a
//!   normal within that vertex's cone of the outer surface is kept;
//! - one outside it is replaced by the cone's nearer end: the contact is
//!   rebuilt against that face of the polygon (the other shape's edge
//!   clipped to it, each point's separation measured along its normal),
//!   or dropped when the nearer end is a welded neighbour's face, whose
//!   own contact it is; a buried vertex gives nothing.
//!
//! So a box sliding over the seam between two tiles sees the tiles' top
//! faces only, while the corner where a floor meets a wall, or the end of
//! a floor, pushes as it always did. A pair without seams never comes
//! here: its contacts are the same bits as before. Continuous collision
//! asks the same question ([`surface_normal`]) of the side a fast body
//! met a static polygon on.

use super::circles::circle_on_face;
use super::sat::collide_polygon_face;
use super::{collide_recyclable, Keep, Manifold};
use crate::math::{cross, Transform, Vec2};
use crate::settings::SIN_TOLERANCE;
use crate::shapes::seams::{Bound, Cone, Seams};
use crate::shapes::{Polygon, Shape};

/// What the outer surface makes of a normal found against a polygon with
/// seams.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Verdict {
    /// The surface has it there.
    Admit,
    /// The surface has this normal there instead: the nearer end of the
    /// feature's cone.
    Replace(Bound),
    /// The feature is buried: the surface has no normal there.
    Buried,
}

/// [`collide_recyclable`] for shape `a` at `xf_a` and `b` at `xf_b`, one
/// or both of them polygons with seams (`seams_a`, `seams_b`): the
/// manifold with each normal the welded surface does not have replaced
/// (see the module docs). A replaced or dropped manifold is collided
/// afresh next step; a kept one keeps its answer. Kept out of line: few
/// pairs have seams, and their update need not carry all of it inlined.
#[inline(never)]
pub(crate) fn collide_across_seams(
    (a, seams_a, xf_a): (&Shape, Option<&Seams>, Transform),
    (b, seams_b, xf_b): (&Shape, Option<&Seams>, Transform),
    speculative: f32,
) -> (Manifold, Keep) {
    let (mut manifold, mut keep) = collide_recyclable(a, xf_a, b, xf_b, speculative);
    if let (Some(seams), Shape::Polygon(p)) = (seams_a, a) {
        (manifold, keep) = smooth((p, seams, xf_a), (b, xf_b), (manifold, keep), speculative);
    }
    if let (Some(seams), Shape::Polygon(p)) = (seams_b, b) {
        let seen_from_b = (manifold.flipped(), keep.flipped());
        let (m, k) = smooth((p, seams, xf_b), (a, xf_a), seen_from_b, speculative);
        (manifold, keep) = (m.flipped(), k.flipped());
    }
    (manifold, keep)
}

/// The manifold `found` of polygon `p` (with `seams`, at `xf`) against
/// `other` (at `xf_other`), normal from `p` to `other`, judged against
/// `p`'s seams.
fn smooth(
    (p, seams, xf): (&Polygon, &Seams, Transform),
    (other, xf_other): (&Shape, Transform),
    found: (Manifold, Keep),
    speculative: f32,
) -> (Manifold, Keep) {
    let (manifold, _) = found;
    // A chain segment judges its own joints; no points, nothing to judge.
    if manifold.count == 0 || matches!(other, Shape::ChainSegment(_)) {
        return found;
    }
    let n = xf.q.inv_rotate(manifold.normal);
    let deepest = manifold
        .points()
        .iter()
        .min_by(|x, y| x.separation.total_cmp(&y.separation))
        .map_or(p.centroid, |q| xf.inv_apply(q.point));
    match judge(p, seams, n, deepest) {
        // Two corners may be held apart only along the normals the outer
        // surface has at the polygon's corner.
        Verdict::Admit => match found {
            (m, Keep::Corners { cone, recyclable }) => {
                let keep = match seams.cones[support_vertex(p, n)] {
                    Cone::Span { from, to } => {
                        let ends = [from.normal, to.normal].map(|e| xf.q.rotate(e));
                        Keep::Corners {
                            cone: cone.on_surface(manifold.normal, ends),
                            recyclable,
                        }
                    }
                    // A buried corner has no normals of its own to aim
                    // among: the normal stays as found.
                    Cone::Buried if recyclable => Keep::Nearest,
                    Cone::Buried => Keep::Never,
                };
                (m, keep)
            }
            kept => kept,
        },
        Verdict::Replace(Bound { face: Some(face), .. }) => {
            let face = face as usize;
            let rebuilt = match other {
                Shape::Circle(c) => {
                    let (v1, v2) = (p.vertices[face], p.vertices[(face + 1) % p.count]);
                    circle_on_face(
                        (v1, v2, p.normals[face], p.radius),
                        xf,
                        (c, xf_other),
                        speculative,
                    )
                }
                _ => collide_polygon_face(p, face, xf, other, xf_other, speculative),
            };
            (rebuilt, Keep::Never)
        }
        // A welded neighbour's face, whose own contact this is, or none.
        Verdict::Replace(_) | Verdict::Buried => (Manifold::default(), Keep::Never),
    }
}

/// The normal the outer surface of polygon `p` (with `seams`, placed at
/// `xf`) has where a contact of world normal `normal` (out of `p`) and
/// deepest point `near` (world) lies: `normal` itself where the surface
/// has it, else the nearest normal the surface has there (see the module
/// docs); `normal` again at a buried feature, which has none. For
/// continuous collision, which asks which side of a static shape a fast
/// one met.
pub(crate) fn surface_normal(p: &Polygon, seams: &Seams, xf: Transform, normal: Vec2, near: Vec2) -> Vec2 {
    match judge(p, seams, xf.q.inv_rotate(normal), xf.inv_apply(near)) {
        Verdict::Replace(bound) => xf.q.rotate(bound.normal),
        Verdict::Admit | Verdict::Buried => normal,
    }
}

/// The verdict on normal `n` (unit, `p`'s frame, from `p` outwards) of a
/// contact whose deepest point is `deepest` (`p`'s frame).
fn judge(p: &Polygon, seams: &Seams, n: Vec2, deepest: Vec2) -> Verdict {
    let count = p.count;
    let along = |e: usize| p.normals[e].dot(n) > 0.0 && cross(p.normals[e], n).abs() <= SIN_TOLERANCE;
    if let Some(e) = (0..count).find(|&e| along(e)) {
        if !seams.is_seam(e) {
            return Verdict::Admit;
        }
        // Along a seam: judged at the seam's end nearer the deepest point
        // (at the other end if that one is buried).
        let (v1, v2) = (p.vertices[e], p.vertices[(e + 1) % count]);
        let beyond_middle = (deepest - v1).dot(v2 - v1) > 0.5 * (v2 - v1).length_squared();
        let ends = if beyond_middle {
            [(e + 1) % count, e]
        } else {
            [e, (e + 1) % count]
        };
        return ends
            .into_iter()
            .map(|v| seams.cones[v])
            .find(|cone| *cone != Cone::Buried)
            .map_or(Verdict::Buried, |cone| verdict(cone, n));
    }
    // Between two faces: the vertex whose own corner holds `n`.
    verdict(seams.cones[support_vertex(p, n)], n)
}

/// The vertex of polygon `p` farthest along `n` (its frame): the one
/// whose own corner holds `n`, the polygon's support point towards a
/// shape off that way.
fn support_vertex(p: &Polygon, n: Vec2) -> usize {
    (0..p.count)
        .max_by(|&i, &j| n.dot(p.vertices[i]).total_cmp(&n.dot(p.vertices[j])))
        .unwrap_or(0)
}

/// The verdict of one vertex's cone on normal `n`.
fn verdict(cone: Cone, n: Vec2) -> Verdict {
    if cone.holds(n) {
        return Verdict::Admit;
    }
    cone.nearest(n).map_or(Verdict::Buried, Verdict::Replace)
}
