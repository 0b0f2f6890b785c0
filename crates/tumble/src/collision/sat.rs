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
use super::{feature_id, CornerCone, Keep, Manifold, ManifoldPoint};
use crate::math::{left_perp, right_perp, Transform, Vec2};
use crate::settings::{LINEAR_SLOP, MAX_POLYGON_VERTICES};
use crate::shapes::{Capsule, Polygon};
use glam::{BVec4A, Vec4, Vec4Swizzles};

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
///
/// Stored as lanes (x and y apart) in blocks of four, the first block
/// filled (both for more than four vertices): the searches of
/// [`max_separation`] and [`nearest_vertex_to_edges`] run over them a block
/// at a time and mask out the lanes past `count`.
/// Lane blocks of a polygon: four lanes each, enough for the most vertices.
const BLOCKS: usize = MAX_POLYGON_VERTICES / 4;

/// One value per vertex or edge, in blocks of four lanes.
type Lanes = [Vec4; BLOCKS];

/// Lane `i` of `lanes`.
#[inline(always)]
fn lane(lanes: &Lanes, i: usize) -> f32 {
    lanes[i / 4].as_ref()[i % 4]
}

/// The lanes as one plain array.
#[inline(always)]
fn lane_array(lanes: &Lanes) -> [f32; MAX_POLYGON_VERTICES] {
    std::array::from_fn(|i| lane(lanes, i))
}

/// The index of each lane of a block, as a float.
const LANE_INDEX: Vec4 = Vec4::new(0.0, 1.0, 2.0, 3.0);

#[derive(Clone, Copy, Debug)]
struct ClipPolygon {
    /// Vertex x.
    xs: Lanes,
    /// Vertex y.
    ys: Lanes,
    /// Outward normal x of edge `i` (vertex `i` to `i + 1`).
    nxs: Lanes,
    /// Normal y.
    nys: Lanes,
    count: usize,
    radius: f32,
    centroid: Vec2,
}

impl ClipPolygon {
    /// The polygon's core, placed by `xf` (`None`: where it is): each
    /// vertex and normal is transformed once, straight into the lanes.
    #[inline]
    fn from_polygon(p: &Polygon, xf: Option<Transform>) -> ClipPolygon {
        ClipPolygon::from_parts(&p.vertices, &p.normals, p.count, p.radius, p.centroid, xf)
    }

    /// The capsule's segment as a two-vertex core, placed by `xf`.
    #[inline]
    fn from_capsule(c: &Capsule, xf: Option<Transform>) -> ClipPolygon {
        let side = right_perp(c.center2 - c.center1).normalize_or(Vec2::Y);
        let centroid = 0.5 * (c.center1 + c.center2);
        let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        vertices[..2].copy_from_slice(&[c.center1, c.center2]);
        normals[..2].copy_from_slice(&[side, -side]);
        ClipPolygon::from_parts(&vertices, &normals, 2, c.radius, centroid, xf)
    }

    #[inline(always)]
    fn from_parts(
        vertices: &[Vec2; MAX_POLYGON_VERTICES],
        normals: &[Vec2; MAX_POLYGON_VERTICES],
        count: usize,
        radius: f32,
        centroid: Vec2,
        xf: Option<Transform>,
    ) -> ClipPolygon {
        let mut out = ClipPolygon {
            xs: [Vec4::ZERO; BLOCKS],
            ys: [Vec4::ZERO; BLOCKS],
            nxs: [Vec4::ZERO; BLOCKS],
            nys: [Vec4::ZERO; BLOCKS],
            count,
            radius,
            centroid: xf.map_or(centroid, |xf| xf.apply(centroid)),
        };
        if count <= 4 {
            out.fill_lanes::<1>(vertices, normals, xf);
        } else {
            out.fill_lanes::<BLOCKS>(vertices, normals, xf);
        }
        out
    }

    /// Fills the first `B` blocks, the unused lanes too (they hold
    /// whatever the arrays hold past `count`; every lane search masks them
    /// out). The arithmetic is `Transform::apply`'s and `Rot::rotate`'s.
    #[inline(always)]
    fn fill_lanes<const B: usize>(
        &mut self,
        vertices: &[Vec2; MAX_POLYGON_VERTICES],
        normals: &[Vec2; MAX_POLYGON_VERTICES],
        xf: Option<Transform>,
    ) {
        let xs = |p: &[Vec2], b: usize| Vec4::new(p[4 * b].x, p[4 * b + 1].x, p[4 * b + 2].x, p[4 * b + 3].x);
        let ys = |p: &[Vec2], b: usize| Vec4::new(p[4 * b].y, p[4 * b + 1].y, p[4 * b + 2].y, p[4 * b + 3].y);
        for b in 0..B {
            let (x, y, nx, ny) = (xs(vertices, b), ys(vertices, b), xs(normals, b), ys(normals, b));
            let Some(xf) = xf else {
                (self.xs[b], self.ys[b], self.nxs[b], self.nys[b]) = (x, y, nx, ny);
                continue;
            };
            let (c, s) = (Vec4::splat(xf.q.c), Vec4::splat(xf.q.s));
            self.xs[b] = (c * x - s * y) + Vec4::splat(xf.p.x);
            self.ys[b] = (s * x + c * y) + Vec4::splat(xf.p.y);
            self.nxs[b] = c * nx - s * ny;
            self.nys[b] = s * nx + c * ny;
        }
    }

    #[inline]
    fn vertex(&self, i: usize) -> Vec2 {
        Vec2::new(lane(&self.xs, i), lane(&self.ys, i))
    }

    #[inline]
    fn normal(&self, i: usize) -> Vec2 {
        Vec2::new(lane(&self.nxs, i), lane(&self.nys, i))
    }

    #[inline]
    fn next(&self, i: usize) -> usize {
        if i + 1 < self.count {
            i + 1
        } else {
            0
        }
    }

    /// The normals of the faces before and after vertex `i`
    /// (counter-clockwise): the ends of the directions in which it is the
    /// core's extreme point.
    fn corner_faces(&self, i: usize) -> [Vec2; 2] {
        let before = if i > 0 { i - 1 } else { self.count - 1 };
        [self.normal(before), self.normal(i)]
    }

    fn proxy(&self) -> ShapeProxy {
        let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        for (i, v) in vertices[..self.count].iter_mut().enumerate() {
            *v = self.vertex(i);
        }
        ShapeProxy::new(&vertices[..self.count], self.radius)
    }
}

/// The face of `poly` that `other` is farthest in front of: for each face,
/// the separation of `other`'s deepest vertex; returns the face with the
/// largest one (the first of equals). Positive means a separating axis.
///
/// The narrowphase's hottest loop, so it runs over `poly`'s faces a block
/// of four lanes at a time, one of `other`'s vertices after another.
fn max_separation(poly: &ClipPolygon, other: &ClipPolygon) -> (usize, f32) {
    if poly.count <= 4 {
        max_separation_lanes::<1>(poly, other)
    } else {
        max_separation_lanes::<BLOCKS>(poly, other)
    }
}

/// [`max_separation`] over the first `B` blocks (`4 B >= poly.count`).
#[inline(always)]
fn max_separation_lanes<const B: usize>(poly: &ClipPolygon, other: &ClipPolygon) -> (usize, f32) {
    let mut deepest = [Vec4::INFINITY; B];
    for j in 0..other.count {
        let (wx, wy) = (Vec4::splat(lane(&other.xs, j)), Vec4::splat(lane(&other.ys, j)));
        for (b, d) in deepest.iter_mut().enumerate() {
            // n . (w - v), as the scalar form would compute it.
            let s = poly.nxs[b] * (wx - poly.xs[b]) + poly.nys[b] * (wy - poly.ys[b]);
            *d = Vec4::select(s.cmplt(*d), s, *d);
        }
    }
    // Lanes past the count are no faces.
    let count = Vec4::splat(poly.count as f32);
    for (b, d) in deepest.iter_mut().enumerate() {
        let index = LANE_INDEX + Vec4::splat((4 * b) as f32);
        *d = Vec4::select(index.cmplt(count), *d, Vec4::NEG_INFINITY);
    }
    // Only NaN input finds no largest lane: then no face separates.
    lane_best(deepest, Vec4::cmpgt).unwrap_or((0, f32::NEG_INFINITY))
}

/// The face of `poly` that `point` is farthest in front of, and that
/// separation (`n . (point - v)`, largest first of equals): the core's
/// signed distance when the point is inside it, and when it is outside, the
/// face whose segment holds the nearest point of the core. Lanes, as
/// [`max_separation`], for the polygon-circle narrowphase.
pub(crate) fn point_max_separation(poly: &Polygon, point: Vec2) -> (usize, f32) {
    let lanes = ClipPolygon::from_polygon(poly, None);
    if poly.count <= 4 {
        point_max_separation_lanes::<1>(&lanes, point)
    } else {
        point_max_separation_lanes::<BLOCKS>(&lanes, point)
    }
}

/// [`point_max_separation`] over the first `B` blocks.
#[inline(always)]
fn point_max_separation_lanes<const B: usize>(poly: &ClipPolygon, point: Vec2) -> (usize, f32) {
    let (wx, wy) = (Vec4::splat(point.x), Vec4::splat(point.y));
    let count = Vec4::splat(poly.count as f32);
    let separations: [Vec4; B] = std::array::from_fn(|b| {
        let s = poly.nxs[b] * (wx - poly.xs[b]) + poly.nys[b] * (wy - poly.ys[b]);
        let index = LANE_INDEX + Vec4::splat((4 * b) as f32);
        Vec4::select(index.cmplt(count), s, Vec4::NEG_INFINITY)
    });
    lane_best(separations, Vec4::cmpgt).unwrap_or((0, f32::NEG_INFINITY))
}

/// The best of the lanes of `B` blocks by `better` (a lane-wise strict
/// comparison), and the first lane holding it (`None` only when NaN hid
/// it). Found by halving: each halving is one SIMD comparison and blend.
#[inline(always)]
fn lane_best<const B: usize>(d: [Vec4; B], better: impl Fn(Vec4, Vec4) -> BVec4A) -> Option<(usize, f32)> {
    let pick = |a: Vec4, b: Vec4| Vec4::select(better(b, a), b, a);
    let mut r = d[0];
    for &block in &d[1..] {
        r = pick(r, block);
    }
    r = pick(r, r.zwxy());
    r = pick(r, r.yxwz());
    let best = r.x;
    // The first lane equal to it, from a lane mask rather than a search:
    // a search's exit branch depends on the data and mispredicts about
    // once a call, which costs more than the whole reduction.
    let mut equal = 0u32;
    for (b, block) in d.iter().enumerate() {
        equal |= block.cmpeq(Vec4::splat(best)).bitmask() << (4 * b);
    }
    (equal != 0).then(|| (equal.trailing_zeros() as usize, best))
}

/// The edge of `poly` whose normal is most anti-parallel to `normal`.
fn incident_edge(poly: &ClipPolygon, normal: Vec2) -> usize {
    let mut best = 0;
    let mut best_dot = f32::INFINITY;
    for i in 0..poly.count {
        let d = poly.normal(i).dot(normal);
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
fn clip_segment_to_line(segment: [ClipVertex; 2], normal: Vec2, offset: f32) -> Option<[ClipVertex; 2]> {
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
/// the polygons are in, with the normal from A to B; with it, how far its
/// points that are corners of the incident polygon lie inside the face's
/// ends ([`Keep::Face`]; infinite when none is).
fn clip_to_reference_face(face: &ReferenceFace, speculative: f32) -> (Manifold, f32) {
    let reference = face.reference;
    let incident = face.incident;
    let v1 = reference.vertex(face.edge);
    let v2 = reference.vertex(reference.next(face.edge));
    let normal = reference.normal(face.edge);
    // Along the face, from v1 to v2 (the outward normal is its right side).
    let tangent = left_perp(normal);

    let i1 = incident_edge(incident, normal);
    let i2 = incident.next(i1);
    let segment = [
        ClipVertex {
            point: incident.vertex(i1),
            vertex: i1,
        },
        ClipVertex {
            point: incident.vertex(i2),
            vertex: i2,
        },
    ];
    let mut manifold = Manifold {
        normal: if face.flip { -normal } else { normal },
        ..Manifold::default()
    };
    let Some(segment) = clip_segment_to_line(segment, -tangent, -tangent.dot(v1)) else {
        return (manifold, 0.0);
    };
    let Some(segment) = clip_segment_to_line(segment, tangent, tangent.dot(v2)) else {
        return (manifold, 0.0);
    };

    let front = normal.dot(v1);
    let radius_sum = reference.radius + incident.radius;
    // Clipped to (almost) a point: a corner meeting the end of the face
    // square on. Two points there would be one contact counted twice, a
    // singular pair the block solver cannot take; keep the deeper end.
    // "Almost" is measured against the shorter of the two edges: a small
    // box lying flat on a long ground is a segment of its own size, not a
    // point of the ground's.
    let span = segment[1].point - segment[0].point;
    let edge_length_squared = (v2 - v1)
        .length_squared()
        .min((incident.vertex(i2) - incident.vertex(i1)).length_squared());
    let kept: &[ClipVertex] =
        if span.length_squared() <= COINCIDENT_FRACTION * COINCIDENT_FRACTION * edge_length_squared {
            let deeper = usize::from(normal.dot(segment[1].point) < normal.dot(segment[0].point));
            std::slice::from_ref(&segment[deeper])
        } else {
            &segment
        };
    // How far the kept corners lie inside the face's ends (a point the
    // clipping moved is on an end, over the incident edge's length: the
    // edge still spans the end).
    let (t1, t2) = (tangent.dot(v1), tangent.dot(v2));
    let mut margin = f32::INFINITY;
    for clipped in kept {
        let core_separation = normal.dot(clipped.point) - front;
        let separation = core_separation - radius_sum;
        if separation > speculative || !separation.is_finite() {
            continue;
        }
        if clipped.point == incident.vertex(clipped.vertex) {
            let t = tangent.dot(clipped.point);
            margin = margin.min((t - t1).min(t2 - t).max(0.0));
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
    (manifold, margin)
}

/// The one-point fallback: nearest (or deepest) points of the rounded cores,
/// with the id built from the reference face and the incident core point.
fn closest_points_contact(face: &ReferenceFace, contact: &RoundedContact, speculative: f32) -> Manifold {
    let incident_vertex = if face.flip {
        contact.feature_a
    } else {
        contact.feature_b
    };
    let id = feature_id(face.edge, incident_vertex, face.flip);
    one_point_manifold(contact, speculative, id)
}

/// Clipped points closer together than this fraction of the shorter of
/// the reference face and the incident edge are one point: the 2x2 block of a pair that close is
/// singular (the solver would fall back to one point at a time), and it
/// is one contact.
const COINCIDENT_FRACTION: f32 = 1e-3;

/// Separations up to this count as touching: the face normal is used as it
/// is. Above it the cores are apart by enough for the line between their
/// nearest points to have a reliable direction.
const DISJOINT_SEPARATION: f32 = 0.1 * LINEAR_SLOP;

/// The one-point contact of two apart cores whose nearest features are
/// corners: their nearest points, with the normal along the line between
/// them; and when both are corners (not a corner facing the inside of an
/// edge), the cone of directions that hold them apart.
fn corner_contact(face: &ReferenceFace, speculative: f32) -> (Manifold, Option<CornerCone>) {
    let (reference, incident) = (face.reference, face.incident);
    // Apart convex cores are nearest at a vertex of one of them: the
    // nearest of every vertex against every edge of the other, both ways.
    let incident_vertex = nearest_vertex_to_edges(reference, incident);
    let reference_vertex = nearest_vertex_to_edges(incident, reference);
    // (point on the reference core, point on the incident core, the
    // incident vertex for the feature id, the normal of the edge when the
    // nearest point is inside one, else the reference corner)
    let inside = |t: f32| t > 0.0 && t < 1.0;
    let nearer_end = |core: &ClipPolygon, v: &VertexEdge| {
        if v.fraction < 0.5 {
            v.edge
        } else {
            core.next(v.edge)
        }
    };
    let (p, q, vertex, edge) = if incident_vertex.distance_squared <= reference_vertex.distance_squared {
        let v = &incident_vertex;
        let edge = if inside(v.fraction) {
            Ok(reference.normal(v.edge))
        } else {
            Err(nearer_end(reference, v))
        };
        (v.edge_point, v.vertex_point, v.vertex, edge)
    } else {
        let v = &reference_vertex;
        // (This normal is the incident body's edge, while the ids' flip
        // flag names the reference body: contact recycling turns it with
        // the wrong one. Harmless: a one-corner manifold is kept only
        // while the pair moves less than its gap, so the turn and its
        // error stay within that gap.)
        let edge = if inside(v.fraction) {
            Ok(-incident.normal(v.edge))
        } else {
            Err(v.vertex)
        };
        (v.vertex_point, v.edge_point, nearer_end(incident, v), edge)
    };
    let offset = q - p;
    let distance = offset.length();
    let separation = distance - (reference.radius + incident.radius);
    if separation > speculative || !separation.is_finite() {
        return (Manifold::default(), None);
    }
    // From the reference core towards the incident one. A vertex facing
    // the inside of an edge is off along that edge's normal; the offset
    // says the same, but two points a fraction of a millimetre apart give
    // its direction only to a few 1e-5 rad, enough to lose a resting box's
    // balance. Vertex against vertex, the offset is all there is (the
    // cores are at least the disjoint separation apart, so it has one).
    let (n, cone) = match edge {
        // Turned to the offset's side: a capsule's two "edges" are one
        // segment, and the first of equals may face away.
        Ok(normal) if normal.dot(offset) < 0.0 => (-normal, None),
        Ok(normal) => (normal, None),
        Err(corner) if distance > 0.0 => {
            let n = offset / distance;
            let cone = CornerCone::between(
                n,
                reference.corner_faces(corner),
                incident.corner_faces(vertex),
                reference.radius + incident.radius,
            );
            (n, Some(cone))
        }
        Err(_) => (reference.normal(face.edge), None),
    };
    let surface_reference = p + reference.radius * n;
    let surface_incident = q - incident.radius * n;
    let mut manifold = Manifold {
        normal: if face.flip { -n } else { n },
        count: 1,
        ..Manifold::default()
    };
    manifold.points[0] = ManifoldPoint {
        point: 0.5 * (surface_reference + surface_incident),
        separation,
        id: feature_id(face.edge, vertex, face.flip),
        ..ManifoldPoint::default()
    };
    let cone = cone.map(|c| if face.flip { c.flipped() } else { c });
    (manifold, cone)
}

/// The nearest pair of a vertex of `vertices` and a point on an edge of
/// `edges`.
#[derive(Clone, Copy, Debug)]
struct VertexEdge {
    distance_squared: f32,
    /// Index of the vertex in its core.
    vertex: usize,
    vertex_point: Vec2,
    /// Index of the edge (from vertex `edge` to the next) in its core.
    edge: usize,
    /// Where along the edge the nearest point is, 0 to 1.
    fraction: f32,
    edge_point: Vec2,
}

/// The nearest pair of one of `vertices`' vertices and a point on one of
/// `edges`' edges: each vertex against all the edges at once, four or eight
/// lanes wide (the first of equals wins).
fn nearest_vertex_to_edges(edges: &ClipPolygon, vertices: &ClipPolygon) -> VertexEdge {
    if edges.count <= 4 {
        nearest_vertex_to_edges_lanes::<4, 1>(edges, vertices)
    } else {
        nearest_vertex_to_edges_lanes::<8, BLOCKS>(edges, vertices)
    }
}

/// [`nearest_vertex_to_edges`] with `N` edge lanes (`N >= edges.count`),
/// `B` blocks of four.
#[inline(always)]
fn nearest_vertex_to_edges_lanes<const N: usize, const B: usize>(
    edges: &ClipPolygon,
    vertices: &ClipPolygon,
) -> VertexEdge {
    let (xs, ys) = (lane_array(&edges.xs), lane_array(&edges.ys));
    // Edge k runs from vertex k to vertex k + 1 (wrapping); lanes past the
    // count are no edges and are masked out below.
    let mut ex = [0.0f32; N];
    let mut ey = [0.0f32; N];
    let mut inv_length_squared = [0.0f32; N];
    for k in 0..N {
        let next = edges.next(k);
        ex[k] = xs[next] - xs[k];
        ey[k] = ys[next] - ys[k];
        let length_squared = ex[k] * ex[k] + ey[k] * ey[k];
        // A point-like edge (a capsule of zero length) has fraction 0.
        inv_length_squared[k] = if length_squared > 0.0 {
            1.0 / length_squared
        } else {
            0.0
        };
    }
    let mut best = VertexEdge {
        distance_squared: f32::INFINITY,
        vertex: 0,
        vertex_point: vertices.vertex(0),
        edge: 0,
        fraction: 0.0,
        edge_point: edges.vertex(0),
    };
    for j in 0..vertices.count {
        let w = vertices.vertex(j);
        let mut fraction = [0.0f32; N];
        let mut distance_squared = [0.0f32; N];
        for k in 0..N {
            let (dx, dy) = (w.x - xs[k], w.y - ys[k]);
            let t = ((dx * ex[k] + dy * ey[k]) * inv_length_squared[k]).clamp(0.0, 1.0);
            let (rx, ry) = (dx - t * ex[k], dy - t * ey[k]);
            fraction[k] = t;
            distance_squared[k] = if k < edges.count {
                rx * rx + ry * ry
            } else {
                f32::INFINITY
            };
        }
        let blocks: [Vec4; B] = std::array::from_fn(|b| Vec4::from_slice(&distance_squared[4 * b..]));
        let Some((k, nearest)) = lane_best(blocks, Vec4::cmplt) else {
            continue;
        };
        if nearest < best.distance_squared {
            let t = fraction[k];
            best = VertexEdge {
                distance_squared: nearest,
                vertex: j,
                vertex_point: w,
                edge: k,
                fraction: t,
                edge_point: edges.vertex(k) + t * Vec2::new(ex[k], ey[k]),
            };
        }
    }
    best
}

/// The whole narrowphase for two clip polygons given in A's frame, and
/// how long it may be kept: complete when every point of the pair within
/// `speculative` of touching is in it (the clipping paths), which a
/// one-point corner or deepest-point answer does not promise.
fn collide_local(a: &ClipPolygon, b: &ClipPolygon, speculative: f32) -> (Manifold, Keep) {
    let face = reference_face(a, b);
    let radius_sum = a.radius + b.radius;
    let gap = face.separation - radius_sum;
    if gap > speculative {
        // A separating axis with room to spare: no contact.
        return (Manifold::default(), Keep::Apart { gap });
    }

    if face.separation > DISJOINT_SEPARATION {
        // The cores are apart, so the face separation only bounds their
        // distance from below: two corners facing each other are nearer
        // along the line between them than along any face normal. The face
        // is the true direction exactly when the incident core's deepest
        // point lies beside the reference face, that is when clipping keeps
        // it; otherwise the nearest features are corners, found between the
        // reference and incident edges.
        let (manifold, margin) = clip_to_reference_face(&face, speculative);
        let face_gap = FACE_CONTACT_GAP + FACE_CONTACT_RELATIVE_GAP * face.separation;
        let nearest_kept = manifold
            .min_separation()
            .is_some_and(|s| s <= face.separation - radius_sum + face_gap);
        if nearest_kept {
            return (manifold, Keep::Face { margin });
        }
        let (manifold, cone) = corner_contact(&face, speculative);
        let keep = match cone {
            Some(cone) => Keep::Corners {
                cone,
                recyclable: true,
            },
            None => Keep::Nearest,
        };
        return (manifold, keep);
    }

    let (manifold, margin) = clip_to_reference_face(&face, speculative);
    if manifold.count > 0 {
        return (manifold, Keep::Face { margin });
    }
    // Clipping kept nothing although the cores overlap (an incident edge
    // beside the reference face, or its deepest end clipped away): fall back
    // on the single deepest point.
    let contact = rounded_contact(&a.proxy(), &b.proxy(), b.centroid - a.centroid);
    (
        closest_points_contact(&face, &contact, speculative),
        Keep::Nearest,
    )
}

/// Runs the narrowphase in A's frame and maps the result to the world:
/// `make_a` and `make_b` build the two cores, given where to place them.
/// The keep is [`collide_local`]'s.
#[inline(always)]
fn collide_clip_polygons(
    make_a: impl FnOnce(Option<Transform>) -> ClipPolygon,
    xf_a: Transform,
    make_b: impl FnOnce(Option<Transform>) -> ClipPolygon,
    xf_b: Transform,
    speculative: f32,
) -> (Manifold, Keep) {
    let a = make_a(None);
    let b_local = make_b(Some(xf_a.inv_mul(xf_b)));
    let (manifold, keep) = collide_local(&a, &b_local, speculative);
    let keep = match keep {
        Keep::Corners { cone, recyclable } => Keep::Corners {
            cone: cone.rotated(xf_a.q),
            recyclable,
        },
        other => other,
    };
    (manifold.transformed(xf_a), keep)
}

/// The best face separations `(of B from A's faces, of A from B's faces)`
/// of two polygon or capsule cores, for tests that need to know whether
/// the reference face is a near tie. `None` for pairs with a circle.
#[cfg(test)]
pub(crate) fn face_separations(
    a: &crate::shapes::Shape,
    xf_a: Transform,
    b: &crate::shapes::Shape,
    xf_b: Transform,
) -> Option<(f32, f32)> {
    use crate::shapes::Shape;
    let clip = |s: &Shape, xf| match s {
        Shape::Polygon(p) => Some(ClipPolygon::from_polygon(p, xf)),
        Shape::Capsule(c) => Some(ClipPolygon::from_capsule(c, xf)),
        Shape::Segment(seg) => Some(ClipPolygon::from_capsule(&seg.as_capsule(), xf)),
        Shape::Circle(_) | Shape::ChainSegment(_) => None,
    };
    let a = clip(a, None)?;
    let b = clip(b, Some(xf_a.inv_mul(xf_b)))?;
    Some((max_separation(&a, &b).1, max_separation(&b, &a).1))
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
    collide_polygons_complete(a, xf_a, b, xf_b, speculative).0
}

/// [`collide_polygons`], and how long it may be kept (see
/// [`collide_local`]).
pub(crate) fn collide_polygons_complete(
    a: &Polygon,
    xf_a: Transform,
    b: &Polygon,
    xf_b: Transform,
    speculative: f32,
) -> (Manifold, Keep) {
    collide_clip_polygons(
        |xf| ClipPolygon::from_polygon(a, xf),
        xf_a,
        |xf| ClipPolygon::from_polygon(b, xf),
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
    collide_polygon_capsule_complete(a, xf_a, b, xf_b, speculative).0
}

/// [`collide_polygon_capsule`], and how long it may be kept (see
/// [`collide_local`]).
pub(crate) fn collide_polygon_capsule_complete(
    a: &Polygon,
    xf_a: Transform,
    b: &Capsule,
    xf_b: Transform,
    speculative: f32,
) -> (Manifold, Keep) {
    collide_clip_polygons(
        |xf| ClipPolygon::from_polygon(a, xf),
        xf_a,
        |xf| ClipPolygon::from_capsule(b, xf),
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
    collide_capsules_complete(a, xf_a, b, xf_b, speculative).0
}

/// [`collide_capsules`], and how long it may be kept (see
/// [`collide_local`]).
pub(crate) fn collide_capsules_complete(
    a: &Capsule,
    xf_a: Transform,
    b: &Capsule,
    xf_b: Transform,
    speculative: f32,
) -> (Manifold, Keep) {
    // The faces of two segments miss their caps' directions, so two
    // capsules end to end pass every face test and would be clipped and
    // searched corner by corner: the segments' own distance settles most
    // such pairs (a ragdoll's limbs) first.
    let reach = a.radius + b.radius + speculative;
    let (a1, a2) = (xf_a.apply(a.center1), xf_a.apply(a.center2));
    let (b1, b2) = (xf_b.apply(b.center1), xf_b.apply(b.center2));
    let core_distance_squared = segments_distance_squared((a1, a2), (b1, b2));
    if core_distance_squared > reach * reach {
        let gap = core_distance_squared.sqrt() - (a.radius + b.radius);
        return (Manifold::default(), Keep::Apart { gap });
    }
    collide_clip_polygons(
        |xf| ClipPolygon::from_capsule(a, xf),
        xf_a,
        |xf| ClipPolygon::from_capsule(b, xf),
        xf_b,
        speculative,
    )
}

/// The squared distance between the segments `p1..q1` and `p2..q2`: the
/// nearest parameters on each by the closed form, clamped to the
/// segments (a point-like segment is its point).
fn segments_distance_squared((p1, q1): (Vec2, Vec2), (p2, q2): (Vec2, Vec2)) -> f32 {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let unit = |x: f32| x.clamp(0.0, 1.0);
    let (s, t) = if a == 0.0 && e == 0.0 {
        (0.0, 0.0)
    } else if a == 0.0 {
        (0.0, unit(f / e))
    } else {
        let c = d1.dot(r);
        if e == 0.0 {
            (unit(-c / a), 0.0)
        } else {
            // Nearest on the first segment to the second's line (any
            // point of it for parallel segments), then the nearest on the
            // second to that, the first's redone when the second clamps.
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let s = if denom > 0.0 {
                unit((b * f - c * e) / denom)
            } else {
                0.0
            };
            let t = (b * s + f) / e;
            if t < 0.0 {
                (unit(-c / a), 0.0)
            } else if t > 1.0 {
                (unit((b - c) / a), 1.0)
            } else {
                (s, t)
            }
        }
    };
    (p1 + s * d1 - (p2 + t * d2)).length_squared()
}

/// The manifold of polygon or capsule `b` against the right-hand face of
/// the segment from `p1` to `p2` (in the frame of `xf_a`), whatever the
/// best separating axis: B's edge most anti-parallel to the face normal
/// clipped to the segment, its points no farther than `speculative` in
/// front. A chain segment's contact at a joint, where the corner's own
/// normal would be a ghost of the joined surface.
pub(crate) fn collide_segment_face(
    p1: Vec2,
    p2: Vec2,
    xf_a: Transform,
    b: &crate::shapes::Shape,
    xf_b: Transform,
    speculative: f32,
) -> Manifold {
    let face = Capsule {
        center1: p1,
        center2: p2,
        radius: 0.0,
    };
    clip_to_face(
        &ClipPolygon::from_capsule(&face, None),
        0,
        xf_a,
        b,
        xf_b,
        speculative,
    )
}

/// The manifold of polygon or capsule `b` against face `face` of polygon
/// `a` (placed at `xf_a`), whatever the best separating axis, as
/// [`collide_segment_face`] for a segment, its ids those of the same
/// face found by the separating axes (so a contact's warm start carries
/// over between the two). A polygon's contact across a seam, where the
/// best axis is an inner side or a corner the welded surface does not
/// have.
pub(crate) fn collide_polygon_face(
    a: &Polygon,
    face: usize,
    xf_a: Transform,
    b: &crate::shapes::Shape,
    xf_b: Transform,
    speculative: f32,
) -> Manifold {
    clip_to_face(
        &ClipPolygon::from_polygon(a, None),
        face,
        xf_a,
        b,
        xf_b,
        speculative,
    )
}

/// `b`'s incident edge clipped to face `edge` of the core `reference`
/// (in the frame of `xf_a`), in the world; nothing for a shape that is
/// not a polygon, capsule or segment.
fn clip_to_face(
    reference: &ClipPolygon,
    edge: usize,
    xf_a: Transform,
    b: &crate::shapes::Shape,
    xf_b: Transform,
    speculative: f32,
) -> Manifold {
    use crate::shapes::Shape;
    let placed = Some(xf_a.inv_mul(xf_b));
    let incident = match b {
        Shape::Polygon(p) => ClipPolygon::from_polygon(p, placed),
        Shape::Capsule(c) => ClipPolygon::from_capsule(c, placed),
        Shape::Segment(s) => ClipPolygon::from_capsule(&s.as_capsule(), placed),
        _ => return Manifold::default(),
    };
    let face = ReferenceFace {
        reference,
        incident: &incident,
        edge,
        separation: 0.0,
        flip: false,
    };
    clip_to_reference_face(&face, speculative).0.transformed(xf_a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::{FRAC_PI_4, FRAC_PI_6};

    fn at(x: f32, y: f32, angle: f32) -> Transform {
        Transform::new(Vec2::new(x, y), angle)
    }

    fn square(half: f32) -> Polygon {
        Polygon::new_box(half, half).unwrap()
    }

    fn ground() -> Polygon {
        Polygon::new_box(50.0, 0.5).unwrap()
    }

    fn rounded_square(half: f32, radius: f32) -> Polygon {
        let h = half;
        let corners = [
            Vec2::new(-h, -h),
            Vec2::new(h, -h),
            Vec2::new(h, h),
            Vec2::new(-h, h),
        ];
        Polygon::new_rounded(&corners, radius).unwrap()
    }

    #[test]
    fn a_small_box_flat_on_a_long_ground_gets_two_points() {
        // A 0.3 m box on an 800 m ground, tilted a little and sunk a
        // little: its bottom edge is a segment of its own size, however
        // long the ground's face.
        let long_ground = Polygon::new_box(400.0, 1.0).unwrap();
        for angle in [0.0f32, 0.02, -0.03] {
            let half = 0.15;
            let depth = 0.004;
            let y = 1.0 + half * angle.cos() + half * angle.abs().sin() - depth;
            let m = collide_polygons(
                &long_ground,
                at(0.0, 0.0, 0.0),
                &square(half),
                at(3.0, y, angle),
                0.02,
            );
            assert_eq!(m.count, 2, "angle {angle}: {m:?}");
            assert!((m.points[0].point.x - m.points[1].point.x).abs() > 0.25, "{m:?}");
        }
    }

    #[test]
    fn boxes_side_by_side_overlapping_by_ten() {
        let m = collide_polygons(
            &square(20.0),
            at(0.0, 0.0, 0.0),
            &square(20.0),
            at(30.0, 0.0, 0.0),
            0.0,
        );
        assert_eq!(m.count, 2);
        assert!((m.normal - Vec2::X).length() < 1e-6, "{m:?}");
        for p in m.points() {
            assert!((p.separation + 10.0).abs() < 1e-4, "{m:?}");
            // Midway between A's face at x = 20 and B's at x = 10.
            assert!((p.point.x - 15.0).abs() < 1e-4, "{m:?}");
        }
        assert_ne!(m.points[0].id, m.points[1].id);
        let mut ys = [m.points[0].point.y, m.points[1].point.y];
        ys.sort_by(f32::total_cmp);
        assert!(
            (ys[0] + 20.0).abs() < 1e-4 && (ys[1] - 20.0).abs() < 1e-4,
            "{m:?}"
        );
    }

    #[test]
    fn diamond_apart_although_bounding_boxes_overlap() {
        let diamond_xf = at(45.0, 45.0, FRAC_PI_4);
        let a = square(20.0);
        let sa = crate::shapes::Shape::Polygon(a);
        assert!(sa.aabb(at(0.0, 0.0, 0.0)).overlaps(sa.aabb(diamond_xf)));
        let m = collide_polygons(&a, at(0.0, 0.0, 0.0), &a, diamond_xf, 0.0);
        assert_eq!(m.count, 0, "{m:?}");
    }

    #[test]
    fn diamond_closer_overlaps_at_the_corner() {
        let a = square(20.0);
        let m = collide_polygons(&a, at(0.0, 0.0, 0.0), &a, at(30.0, 30.0, FRAC_PI_4), 0.0);
        assert_eq!(m.count, 1, "{m:?}");
        // The square's corner (20, 20) is inside the diamond's lower-left face
        // x + y = 60 - 20 sqrt 2 by (40 - that) / sqrt 2.
        let depth = (40.0 - (60.0 - 20.0 * 2.0_f32.sqrt())) / 2.0_f32.sqrt();
        assert!((m.points[0].separation + depth).abs() < 1e-3, "{m:?} vs {depth}");
        let diagonal = Vec2::ONE.normalize();
        assert!((m.normal - diagonal).length() < 1e-5, "{m:?}");
    }

    #[test]
    fn box_resting_flat_on_the_ground_gets_two_points() {
        let m = collide_polygons(
            &ground(),
            at(0.0, 0.0, 0.0),
            &square(0.5),
            at(3.0, 0.999, 0.0),
            0.0,
        );
        assert_eq!(m.count, 2, "{m:?}");
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        for p in m.points() {
            assert!((p.separation + 0.001).abs() < 1e-5, "{m:?}");
            assert!((p.point.y - 0.4995).abs() < 1e-5, "{m:?}");
        }
        let mut xs = [m.points[0].point.x, m.points[1].point.x];
        xs.sort_by(f32::total_cmp);
        assert!((xs[0] - 2.5).abs() < 1e-5 && (xs[1] - 3.5).abs() < 1e-5, "{m:?}");
        assert_ne!(m.points[0].id, m.points[1].id);
        assert!(m.points().iter().all(|p| p.id != 0));
    }

    #[test]
    fn box_tilted_on_a_corner_gets_one_point() {
        // The lowest corner of a unit box turned 30 degrees is
        // 0.5 (cos 30 + sin 30) below its center.
        let drop = 0.5 * (FRAC_PI_6.cos() + FRAC_PI_6.sin());
        let y = 0.5 + drop - 0.001;
        let m = collide_polygons(
            &ground(),
            at(0.0, 0.0, 0.0),
            &square(0.5),
            at(0.0, y, FRAC_PI_6),
            0.0,
        );
        assert_eq!(m.count, 1, "{m:?}");
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        assert!((m.points[0].separation + 0.001).abs() < 1e-4, "{m:?}");
    }

    #[test]
    fn capsule_lying_flat_on_a_box_gets_two_points() {
        let capsule = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.25).unwrap();
        let y = 0.5 + 0.25 - 0.002;
        let m = collide_polygon_capsule(&ground(), at(0.0, 0.0, 0.0), &capsule, at(0.0, y, 0.0), 0.0);
        assert_eq!(m.count, 2, "{m:?}");
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        let mut xs = [m.points[0].point.x, m.points[1].point.x];
        xs.sort_by(f32::total_cmp);
        assert!((xs[0] + 1.0).abs() < 1e-5 && (xs[1] - 1.0).abs() < 1e-5, "{m:?}");
        for p in m.points() {
            assert!((p.separation + 0.002).abs() < 1e-5, "{m:?}");
            assert!((p.point.y - 0.499).abs() < 1e-5, "{m:?}");
        }
    }

    #[test]
    fn capsules_side_by_side_and_crossed() {
        let c = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.25).unwrap();
        let m = collide_capsules(&c, at(0.0, 0.0, 0.0), &c, at(0.5, 0.49, 0.0), 0.0);
        assert_eq!(m.count, 2, "{m:?}");
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        assert!(m.points().iter().all(|p| (p.separation + 0.01).abs() < 1e-5));
        // Crossed at right angles, B above A: one point at the crossing.
        let m = collide_capsules(&c, at(0.0, 0.0, 0.0), &c, at(0.2, 0.45, 1.2), 0.0);
        assert_eq!(m.count, 1, "{m:?}");
        assert!(m.normal.y > 0.99, "{m:?}");
    }

    #[test]
    fn capsule_end_against_box_corner_uses_the_line_between_them() {
        // Cores apart diagonally: the capsule's end cap faces the box's
        // corner, so the normal runs corner to cap center, not along a face.
        let capsule = Capsule::new(Vec2::new(0.0, 0.0), Vec2::new(2.0, 2.0), 0.5).unwrap();
        let corner = Vec2::new(0.5, 0.5);
        let offset = Vec2::new(0.3, 0.4);
        let m = collide_polygon_capsule(&square(0.5), at(0.0, 0.0, 0.0), &capsule, at(0.8, 0.9, 0.0), 0.0);
        assert_eq!(m.count, 1, "{m:?}");
        assert!((m.normal - offset.normalize()).length() < 1e-4, "{m:?}");
        assert!(
            (m.points[0].separation - (offset.length() - 0.5)).abs() < 1e-4,
            "{m:?}"
        );
        let expected_point = corner + offset.normalize() * 0.5 * (offset.length() - 0.5);
        assert!((m.points[0].point - expected_point).length() < 1e-4, "{m:?}");
    }

    #[test]
    fn rounded_box_resting_flat_and_slightly_tilted_gets_two_points() {
        let b = rounded_square(0.4, 0.1);
        // Flat: the rounded bottom at y = 0.5 - 0.001.
        let m = collide_polygons(&ground(), at(0.0, 0.0, 0.0), &b, at(1.0, 0.999, 0.0), 0.0);
        assert_eq!(m.count, 2, "{m:?}");
        for p in m.points() {
            assert!((p.separation + 0.001).abs() < 1e-5, "{m:?}");
            assert!((p.point.y - 0.4995).abs() < 1e-5, "{m:?}");
        }
        // Tilted by 0.01 rad: one corner 0.004 lower than the other; both
        // within the speculative distance.
        let m = collide_polygons(&ground(), at(0.0, 0.0, 0.0), &b, at(1.0, 1.0035, 0.01), 0.02);
        assert_eq!(m.count, 2, "{m:?}");
        assert!((m.normal - Vec2::Y).length() < 1e-6);
    }

    #[test]
    fn corners_meeting_square_on_give_one_point_not_two_on_top_of_each_other() {
        // A grid's diagonal neighbours: corner on corner. Clipping B's side
        // to A's face leaves a single point, which must be one contact (two
        // identical points make a singular block).
        let b = square(0.2);
        for (x, y) in [(0.4, 0.4), (0.4, -0.4), (-0.4, 0.4), (0.4, 0.399_99)] {
            let m = collide_polygons(&b, at(0.0, 0.0, 0.0), &b, at(x, y, 0.0), 0.02);
            assert_eq!(m.count, 1, "{x} {y}: {m:?}");
            let corner = Vec2::new(0.2 * x.signum(), 0.2 * y.signum());
            assert!((m.points[0].point - corner).length() < 1e-4, "{x} {y}: {m:?}");
        }
        // A real overlap of a tenth of the face still gets both ends.
        let m = collide_polygons(&b, at(0.0, 0.0, 0.0), &b, at(0.399, 0.36, 0.0), 0.02);
        assert_eq!(m.count, 2, "{m:?}");
    }

    #[test]
    fn rounded_corners_facing_each_other() {
        let b = rounded_square(0.5, 0.25);
        // Cores apart along the diagonal by 0.4 sqrt 2 = 0.566, radii 0.5.
        let m = collide_polygons(&b, at(0.0, 0.0, 0.0), &b, at(1.4, 1.4, 0.0), 0.1);
        assert_eq!(m.count, 1, "{m:?}");
        let diagonal = Vec2::ONE.normalize();
        assert!((m.normal - diagonal).length() < 1e-4, "{m:?}");
        let expected = 0.4 * 2.0_f32.sqrt() - 0.5;
        assert!((m.points[0].separation - expected).abs() < 1e-4, "{m:?}");
        assert!((m.points[0].point - Vec2::splat(0.7)).length() < 1e-4, "{m:?}");
    }

    #[test]
    fn feature_ids_do_not_churn_under_tiny_moves() {
        let b = square(0.5);
        let reference = collide_polygons(&b, at(0.0, 0.0, 0.0), &b, at(0.1, 0.999, 0.0), 0.0);
        assert_eq!(reference.count, 2);
        let ids = |m: &Manifold| {
            let mut v = [m.points[0].id, m.points[1].id];
            v.sort();
            v
        };
        for k in 0..50 {
            let wiggle = (k as f32 * 0.37).sin() * 1e-4;
            let tilt = (k as f32 * 0.91).cos() * 1e-4;
            let m = collide_polygons(
                &b,
                at(0.0, 0.0, tilt),
                &b,
                at(0.1 + wiggle, 0.999 - wiggle.abs() * 0.5, -tilt),
                0.0,
            );
            assert_eq!(m.count, 2, "{m:?}");
            assert_eq!(ids(&m), ids(&reference), "step {k}: {m:?}");
        }
    }

    #[test]
    fn speculative_points_appear_within_reach_only() {
        let b = square(0.5);
        let g = ground();
        let gap =
            |g_: f32, spec: f32| collide_polygons(&g, at(0.0, 0.0, 0.0), &b, at(0.0, 1.0 + g_, 0.0), spec);
        let m = gap(0.01, 0.02);
        assert_eq!(m.count, 2, "{m:?}");
        assert!(m.points().iter().all(|p| (p.separation - 0.01).abs() < 1e-5));
        assert_eq!(gap(0.03, 0.02).count, 0);
        assert_eq!(gap(0.01, 0.0).count, 0);
        // A tilted box: only the low corner is within reach.
        let m = collide_polygons(&g, at(0.0, 0.0, 0.0), &b, at(0.0, 1.01, 0.02), 0.02);
        assert_eq!(m.count, 1, "{m:?}");
    }

    #[test]
    fn nearest_corner_beside_the_reference_face_is_kept() {
        // Found by the property test: the capsule's face wins SAT by a hair,
        // but the triangle's nearest corner lies just beyond the capsule's
        // end, so clipping would cut it off and overstate the gap by 0.04.
        let tri = [
            Vec2::new(-1.998927, 1.1796091),
            Vec2::ZERO,
            Vec2::new(0.0, 0.21682678),
        ];
        let a = Polygon::new(&tri).unwrap();
        let xa = Transform {
            p: Vec2::new(2.6731496, -2.1966293),
            q: crate::math::Rot {
                c: 0.94438523,
                s: -0.32884124,
            },
        };
        let b = Capsule::new(
            Vec2::new(0.19612221, 1.04442),
            Vec2::new(1.1216956, -1.3317043),
            0.29568562,
        )
        .unwrap();
        let xb = Transform {
            p: Vec2::new(-0.16629073, -0.72137547),
            q: crate::math::Rot {
                c: 0.63234836,
                s: -0.77468413,
            },
        };
        let m = collide_polygon_capsule(&a, xa, &b, xb, 0.25);
        let d = super::super::shape_distance(&a.into(), &xa, &b.into(), &xb);
        assert_eq!(m.count, 1, "{m:?}");
        assert!((m.points[0].separation - d.distance).abs() < 1e-4, "{m:?} {d:?}");
        assert!((m.normal - d.normal).length() < 1e-3, "{m:?} {d:?}");
    }

    #[test]
    fn clipping_keeps_distinct_tags() {
        let seg = [
            ClipVertex {
                point: Vec2::new(-2.0, 0.0),
                vertex: 3,
            },
            ClipVertex {
                point: Vec2::new(2.0, 0.0),
                vertex: 4,
            },
        ];
        let out = clip_segment_to_line(seg, Vec2::X, 1.0).unwrap();
        assert_eq!(out[0], seg[0]);
        assert_eq!(out[1].vertex, 4);
        assert!((out[1].point - Vec2::new(1.0, 0.0)).length() < 1e-6);
        assert!(clip_segment_to_line(seg, Vec2::X, -3.0).is_none());
    }

    /// The nearest of many points along the two segments, by brute force.
    fn sampled_distance_squared((p1, q1): (Vec2, Vec2), (p2, q2): (Vec2, Vec2)) -> f32 {
        const N: usize = 400;
        let mut best = f32::INFINITY;
        for i in 0..=N {
            let u = p1 + (i as f32 / N as f32) * (q1 - p1);
            // For a fixed point the nearest on the other segment is exact.
            let d = q2 - p2;
            let t = if d.length_squared() > 0.0 {
                ((u - p2).dot(d) / d.length_squared()).clamp(0.0, 1.0)
            } else {
                0.0
            };
            best = best.min((u - (p2 + t * d)).length_squared());
        }
        best
    }

    #[test]
    fn segment_distance_matches_a_brute_force_search() {
        let mut rng = crate::test_rng::Rng(0x5eed_1234_abcd);
        for case in 0..2000 {
            let (p1, mut q1, p2, mut q2) = (rng.vec(2.0), rng.vec(2.0), rng.vec(2.0), rng.vec(2.0));
            match case % 5 {
                // A point against a segment, and a segment against a point.
                0 => q1 = p1,
                1 => q2 = p2,
                // Parallel segments, overlapping along their line or not.
                2 => q2 = p2 + (q1 - p1) * rng.range(-1.5, 1.5),
                _ => {}
            }
            let exact = segments_distance_squared((p1, q1), (p2, q2));
            let sampled = sampled_distance_squared((p1, q1), (p2, q2));
            // Sampling only overestimates, by at most the sample spacing.
            let spacing = (q1 - p1).length() / 400.0;
            assert!(exact <= sampled + 1e-5, "case {case}: {exact} > {sampled}");
            assert!(
                exact.sqrt() >= sampled.sqrt() - spacing - 1e-4,
                "case {case}: {exact} < {sampled}"
            );
        }
    }

    #[test]
    fn capsules_out_of_reach_end_to_end_have_no_points_and_in_reach_have_one() {
        let limb = Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.1).unwrap();
        let spec = 0.05;
        // End to end along one line: no face separates them.
        for (gap, expect) in [(0.04, 1), (0.06, 0)] {
            let xf_b = at(1.0 + 0.2 + gap, 0.0, 0.0);
            let m = collide_capsules(&limb, Transform::IDENTITY, &limb, xf_b, spec);
            assert_eq!(m.count, expect, "gap {gap}: {m:?}");
            if expect == 1 {
                assert!((m.points[0].separation - gap).abs() < 1e-5, "{m:?}");
                assert!((m.normal - Vec2::X).length() < 1e-5, "{m:?}");
            }
        }
    }
}

#[cfg(test)]
mod wide_ground_regression {
    use super::*;
    use crate::collision::collide;
    use crate::shapes::{Capsule, Polygon, Shape};

    /// A capsule resting on an 800 m ground box, seen in a soak run: the
    /// manifold point came out at x = -201.6 (midway to the ground's far
    /// corner) and the 200 m lever arm threw the capsule through the floor.
    #[test]
    fn capsule_on_a_very_wide_ground_gets_points_under_the_capsule() {
        let ground: Shape = Polygon::new_box(400.0, 1.0).unwrap().into();
        let capsule: Shape = Capsule::new(
            Vec2::new(-0.20644537, 0.0),
            Vec2::new(0.20644537, 0.0),
            0.13430052,
        )
        .unwrap()
        .into();
        let xf_g = Transform::new(Vec2::new(0.0, -1.0), 0.0);
        let xf_c = Transform {
            p: Vec2::new(f32::from_bits(3225254885), f32::from_bits(1040458725)),
            q: crate::math::Rot {
                c: f32::from_bits(1065353183),
                s: f32::from_bits(990069880),
            },
        };
        let m = collide(&ground, xf_g, &capsule, xf_c, 0.02);
        assert!(m.count >= 1);
        for p in m.points() {
            assert!((p.point.x - xf_c.p.x).abs() < 0.5, "{m:?}");
            assert!(p.separation > -0.02, "{m:?}");
        }
    }
}
