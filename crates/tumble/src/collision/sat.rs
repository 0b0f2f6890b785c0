//! Polygons (and capsules) against each other: the separating axis test,
//! then clipping the incident edge to the reference face.
//!
//! A box resting on the ground touches it along a whole edge. One contact
//! point in the middle would balance it on a pin and let it rock; two points,
//! one at each end of the touching stretch, let it sit. So after SAT finds
//! the face of least penetration (the *reference face*), the edge of the other
//! polygon facing it (the *incident edge*) is clipped against the reference
//! face's two side planes, and whatever survives in front of the reference
//! face within the speculative distance becomes the manifold.
//!
//! A capsule joins in as a two-vertex rounded polygon (its segment, with one
//! normal per side), so a capsule lying flat on a box also gets two points.
//! Rounding radii are subtracted from the separations and the points are
//! placed midway between the rounded surfaces.

use super::distance::{one_point_manifold, rounded_contact, RoundedContact};
use super::gjk::ShapeProxy;
use super::{feature_id, Manifold, ManifoldPoint};
use crate::math::{left_perp, right_perp, Transform, Vec2};
use crate::settings::{LINEAR_SLOP, MAX_POLYGON_VERTICES};
use crate::shapes::{Capsule, Polygon};

/// When the cores are apart, the reference face's separation is only a
/// lower bound of their distance. If the true distance exceeds it by more
/// than this (plus [`FACE_CONTACT_RELATIVE_GAP`] of the distance), the
/// nearest features are two corners, not a face, and the contact normal
/// comes from the closest points instead.
const FACE_CONTACT_GAP: f32 = 0.01 * LINEAR_SLOP;

/// Relative part of the face-versus-corner test above: about two degrees
/// of tilt between the face normal and the true direction.
const FACE_CONTACT_RELATIVE_GAP: f32 = 0.0005;

/// A convex polygon core for clipping: a polygon's vertices and normals, or
/// a capsule's segment as a two-vertex polygon whose two "edges" run both
/// ways along the segment with opposite normals.
#[derive(Clone, Copy, Debug)]
struct ClipPolygon {
    vertices: [Vec2; MAX_POLYGON_VERTICES],
    normals: [Vec2; MAX_POLYGON_VERTICES],
    count: usize,
    radius: f32,
    centroid: Vec2,
}

impl ClipPolygon {
    fn from_polygon(p: &Polygon) -> ClipPolygon {
        ClipPolygon {
            vertices: p.vertices,
            normals: p.normals,
            count: p.count,
            radius: p.radius,
            centroid: p.centroid,
        }
    }

    fn from_capsule(c: &Capsule) -> ClipPolygon {
        let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        vertices[0] = c.center1;
        vertices[1] = c.center2;
        let side = right_perp(c.center2 - c.center1).normalize_or(Vec2::Y);
        normals[0] = side;
        normals[1] = -side;
        ClipPolygon {
            vertices,
            normals,
            count: 2,
            radius: c.radius,
            centroid: 0.5 * (c.center1 + c.center2),
        }
    }

    fn transformed(&self, xf: Transform) -> ClipPolygon {
        let mut out = *self;
        for i in 0..self.count {
            out.vertices[i] = xf.apply(self.vertices[i]);
            out.normals[i] = xf.q.rotate(self.normals[i]);
        }
        out.centroid = xf.apply(self.centroid);
        out
    }

    #[inline]
    fn next(&self, i: usize) -> usize {
        if i + 1 < self.count {
            i + 1
        } else {
            0
        }
    }

    fn proxy(&self) -> ShapeProxy {
        ShapeProxy::new(&self.vertices[..self.count], self.radius)
    }
}

/// The face of `poly` that `other` is farthest in front of: for each face,
/// the separation of `other`'s deepest vertex; returns the face with the
/// largest one. Positive means a separating axis.
fn max_separation(poly: &ClipPolygon, other: &ClipPolygon) -> (usize, f32) {
    let mut best_face = 0;
    let mut best_separation = f32::NEG_INFINITY;
    for i in 0..poly.count {
        let n = poly.normals[i];
        let v = poly.vertices[i];
        let deepest = other.vertices[..other.count]
            .iter()
            .map(|w| n.dot(*w - v))
            .fold(f32::INFINITY, f32::min);
        if deepest > best_separation {
            best_face = i;
            best_separation = deepest;
        }
    }
    (best_face, best_separation)
}

/// The edge of `poly` whose normal is most anti-parallel to `normal`.
fn incident_edge(poly: &ClipPolygon, normal: Vec2) -> usize {
    let mut best = 0;
    let mut best_dot = f32::INFINITY;
    for i in 0..poly.count {
        let d = poly.normals[i].dot(normal);
        if d < best_dot {
            best = i;
            best_dot = d;
        }
    }
    best
}

/// A point of the incident edge during clipping, tagged with the incident
/// vertex it started as.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ClipVertex {
    point: Vec2,
    vertex: usize,
}

/// Sutherland-Hodgman on a segment: keeps the part with
/// `normal . p <= offset`. An end beyond the line is replaced by the crossing
/// point and keeps its vertex tag, so the two ends keep distinct ids. `None`
/// when the whole segment is beyond the line.
fn clip_segment_to_line(
    segment: [ClipVertex; 2],
    normal: Vec2,
    offset: f32,
) -> Option<[ClipVertex; 2]> {
    let d0 = normal.dot(segment[0].point) - offset;
    let d1 = normal.dot(segment[1].point) - offset;
    match (d0 <= 0.0, d1 <= 0.0) {
        (true, true) => Some(segment),
        (false, false) => None,
        (inside0, _) => {
            // Opposite signs, so d0 - d1 is not zero.
            let t = d0 / (d0 - d1);
            let crossing = segment[0].point.lerp(segment[1].point, t);
            let mut out = segment;
            let outside = if inside0 { 1 } else { 0 };
            out[outside].point = crossing;
            Some(out)
        }
    }
}

/// Which polygon supplies the reference face.
struct ReferenceFace<'a> {
    reference: &'a ClipPolygon,
    incident: &'a ClipPolygon,
    edge: usize,
    separation: f32,
    flip: bool,
}

/// A's best face unless B's is clearly better. The tolerance keeps the roles
/// from swapping frame to frame on a near tie (two boxes resting square on
/// each other), which would change every feature id and lose the warm start.
fn reference_face<'a>(a: &'a ClipPolygon, b: &'a ClipPolygon) -> ReferenceFace<'a> {
    let (edge_a, separation_a) = max_separation(a, b);
    let (edge_b, separation_b) = max_separation(b, a);
    if separation_b > 0.98 * separation_a + 0.1 * LINEAR_SLOP {
        ReferenceFace {
            reference: b,
            incident: a,
            edge: edge_b,
            separation: separation_b,
            flip: true,
        }
    } else {
        ReferenceFace {
            reference: a,
            incident: b,
            edge: edge_a,
            separation: separation_a,
            flip: false,
        }
    }
}

/// Clips the incident edge to the reference face and keeps the points no
/// farther than `speculative` in front of it. The manifold is in the frame
/// the polygons are in, with the normal from A to B.
fn clip_to_reference_face(face: &ReferenceFace, speculative: f32) -> Manifold {
    let reference = face.reference;
    let incident = face.incident;
    let v1 = reference.vertices[face.edge];
    let v2 = reference.vertices[reference.next(face.edge)];
    let normal = reference.normals[face.edge];
    // Along the face, from v1 to v2 (the outward normal is its right side).
    let tangent = left_perp(normal);

    let i1 = incident_edge(incident, normal);
    let i2 = incident.next(i1);
    let segment = [
        ClipVertex {
            point: incident.vertices[i1],
            vertex: i1,
        },
        ClipVertex {
            point: incident.vertices[i2],
            vertex: i2,
        },
    ];
    let mut manifold = Manifold {
        normal: if face.flip { -normal } else { normal },
        ..Manifold::default()
    };
    let Some(segment) = clip_segment_to_line(segment, -tangent, -tangent.dot(v1)) else {
        return manifold;
    };
    let Some(segment) = clip_segment_to_line(segment, tangent, tangent.dot(v2)) else {
        return manifold;
    };

    let front = normal.dot(v1);
    let radius_sum = reference.radius + incident.radius;
    for clipped in segment {
        let core_separation = normal.dot(clipped.point) - front;
        let separation = core_separation - radius_sum;
        if separation > speculative || !separation.is_finite() {
            continue;
        }
        // Midway between the incident surface (the core point pulled back by
        // its radius) and the reference surface (the point dropped onto the
        // face, pushed out by the reference radius).
        let shift = 0.5 * (reference.radius - incident.radius - core_separation);
        manifold.points[manifold.count] = ManifoldPoint {
            point: clipped.point + shift * normal,
            separation,
            id: feature_id(face.edge, clipped.vertex, face.flip),
            ..ManifoldPoint::default()
        };
        manifold.count += 1;
    }
    manifold
}

/// The one-point fallback: nearest (or deepest) points of the rounded cores,
/// with the id built from the reference face and the incident core point.
fn closest_points_contact(
    face: &ReferenceFace,
    contact: &RoundedContact,
    speculative: f32,
) -> Manifold {
    let incident_vertex = if face.flip {
        contact.feature_a
    } else {
        contact.feature_b
    };
    let id = feature_id(face.edge, incident_vertex, face.flip);
    one_point_manifold(contact, speculative, id)
}

/// The whole narrowphase for two clip polygons given in A's frame.
fn collide_local(a: &ClipPolygon, b: &ClipPolygon, speculative: f32) -> Manifold {
    let face = reference_face(a, b);
    let radius_sum = a.radius + b.radius;
    if face.separation - radius_sum > speculative {
        // A separating axis with room to spare: no contact.
        return Manifold::default();
    }

    let centre_offset = b.centroid - a.centroid;
    if face.separation > 0.0 {
        // The cores are apart, so the face separation only bounds their
        // distance from below. Two corners facing each other are nearer along
        // the line between them than along any face normal: measure it.
        let contact = rounded_contact(&a.proxy(), &b.proxy(), centre_offset);
        let core_distance = contact.separation + radius_sum;
        if contact.separation > speculative {
            return Manifold::default();
        }
        let face_gap = FACE_CONTACT_GAP + FACE_CONTACT_RELATIVE_GAP * core_distance;
        if core_distance - face.separation > face_gap {
            return closest_points_contact(&face, &contact, speculative);
        }
    }

    let manifold = clip_to_reference_face(&face, speculative);
    if manifold.count > 0 {
        return manifold;
    }
    // Clipping kept nothing although the shapes are within reach (an
    // incident edge beside the reference face, or its deepest end clipped
    // away): fall back on the single nearest point.
    let contact = rounded_contact(&a.proxy(), &b.proxy(), centre_offset);
    closest_points_contact(&face, &contact, speculative)
}

/// Runs the narrowphase in A's frame and maps the result to the world.
fn collide_clip_polygons(
    a: &ClipPolygon,
    xf_a: Transform,
    b: &ClipPolygon,
    xf_b: Transform,
    speculative: f32,
) -> Manifold {
    let b_local = b.transformed(xf_a.inv_mul(xf_b));
    collide_local(a, &b_local, speculative).transformed(xf_a)
}

/// Contact manifold between two (possibly rounded) polygons: up to two
/// points, normal from A to B.
pub fn collide_polygons(
    a: &Polygon,
    xf_a: Transform,
    b: &Polygon,
    xf_b: Transform,
    speculative: f32,
) -> Manifold {
    collide_clip_polygons(
        &ClipPolygon::from_polygon(a),
        xf_a,
        &ClipPolygon::from_polygon(b),
        xf_b,
        speculative,
    )
}

/// Contact manifold between a polygon (A) and a capsule (B): a capsule lying
/// flat on a face gets two points.
pub fn collide_polygon_capsule(
    a: &Polygon,
    xf_a: Transform,
    b: &Capsule,
    xf_b: Transform,
    speculative: f32,
) -> Manifold {
    collide_clip_polygons(
        &ClipPolygon::from_polygon(a),
        xf_a,
        &ClipPolygon::from_capsule(b),
        xf_b,
        speculative,
    )
}

/// Contact manifold between two capsules: two points when they lie
/// side by side.
pub fn collide_capsules(
    a: &Capsule,
    xf_a: Transform,
    b: &Capsule,
    xf_b: Transform,
    speculative: f32,
) -> Manifold {
    collide_clip_polygons(
        &ClipPolygon::from_capsule(a),
        xf_a,
        &ClipPolygon::from_capsule(b),
        xf_b,
        speculative,
    )
}
