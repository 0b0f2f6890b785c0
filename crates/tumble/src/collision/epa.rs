//! EPA, the expanding polytope algorithm: how deep two overlapping cores are.
//!
//! GJK stops with a simplex of the Minkowski difference `B - A` that holds
//! the origin. EPA grows it into a polygon towards the difference's
//! boundary, always pushing out the edge nearest the origin, until that edge
//! stops moving. Its distance is the penetration depth and its normal the
//! shortest way out.
//!
//! Three guards matter more than the loop: a flat (zero-area) start returns
//! the longest edge's normal with zero depth instead of expanding nothing; an
//! edge whose winding rounding has inverted has its normal flipped instead of
//! winning the "nearest edge" contest with a negative distance; and when the
//! polytope fills its fixed array the best edge so far is returned, because a
//! slightly wrong direction resolves next step while no direction at all
//! leaves two shapes sunk into each other.

use super::gjk::{ShapeProxy, Simplex, SimplexVertex};
use crate::math::{cross, left_perp, right_perp, Vec2};

/// The polytope lives in a fixed array of this many points. Each iteration
/// adds one point, so this also caps the iterations.
const EPA_MAX_VERTICES: usize = 64;

/// EPA has converged when a new support point lies less than this fraction of
/// the polytope's size beyond the nearest edge.
const EPA_RELATIVE_TOLERANCE: f32 = 1.0e-5;

/// How EPA ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpaOutcome {
    /// The nearest edge stopped moving: the depth is exact to tolerance.
    Converged,
    /// The start simplex had no area (the cores touch along a line or at a
    /// point): zero depth along the longest edge's normal.
    Flat,
    /// The polytope filled its array: the best edge found so far.
    Capped,
}

/// The penetration EPA measured between two cores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaOutput {
    /// Unit direction from A to B along which B must move (by `depth`) to
    /// separate. Zero only when the Minkowski difference is a single point
    /// (two coincident points): the caller picks a fallback.
    pub normal: Vec2,
    /// Penetration depth of the cores, `>= 0`.
    pub depth: f32,
    /// The deepest point of A's core inside B.
    pub point_a: Vec2,
    /// The deepest point of B's core inside A; `point_b = point_a - normal * depth`.
    pub point_b: Vec2,
    /// How the expansion ended.
    pub outcome: EpaOutcome,
}

/// The support point of `B - A` farthest along `direction`.
fn support_vertex(a: &ShapeProxy, b: &ShapeProxy, direction: Vec2) -> SimplexVertex {
    SimplexVertex::new(a, a.support(-direction), b, b.support(direction))
}

/// The nearest edge of a counter-clockwise polytope to the origin.
struct NearestEdge {
    /// Index of the edge's first point.
    index: usize,
    /// Outward unit normal.
    normal: Vec2,
    /// Distance from the origin, `>= 0`.
    distance: f32,
}

/// `tolerance` is the float noise of a distance: an edge the origin lies
/// on, within it, is at distance zero rather than "inverted".
fn nearest_edge(polytope: &[SimplexVertex], tolerance: f32) -> Option<NearestEdge> {
    let n = polytope.len();
    let mut best: Option<NearestEdge> = None;
    for i in 0..n {
        let p = polytope[i].w;
        let q = polytope[(i + 1) % n].w;
        let length = (q - p).length();
        if length <= f32::MIN_POSITIVE.sqrt() {
            continue; // a repeated point has no edge normal
        }
        let mut normal = right_perp(q - p) / length;
        let mut distance = normal.dot(p);
        if distance < -tolerance {
            // Rounding has wound this edge the wrong way round the origin.
            normal = -normal;
            distance = -distance;
        } else if distance < 0.0 {
            // The origin is on this edge: the cores touch here.
            distance = 0.0;
        }
        if best.as_ref().is_none_or(|b| distance < b.distance) {
            best = Some(NearestEdge {
                index: i,
                normal,
                distance,
            });
        }
    }
    best
}

/// The point of edge `p`-`q` nearest the origin, as witness points on A and B.
fn edge_witnesses(p: &SimplexVertex, q: &SimplexVertex) -> (Vec2, Vec2) {
    let e = q.w - p.w;
    let length_squared = e.length_squared();
    let t = if length_squared > 0.0 {
        (-p.w.dot(e) / length_squared).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p.wa.lerp(q.wa, t), p.wb.lerp(q.wb, t))
}

/// Zero depth along the longest edge's normal, turned to face away from the
/// side the Minkowski difference extends to.
fn flat_result(a: &ShapeProxy, b: &ShapeProxy, polytope: &[SimplexVertex]) -> EpaOutput {
    let n = polytope.len();
    let mut longest = (0, 0, -1.0);
    for i in 0..n {
        let j = (i + 1) % n;
        let length_squared = polytope[i].w.distance_squared(polytope[j].w);
        if length_squared > longest.2 {
            longest = (i, j, length_squared);
        }
    }
    let (i, j, _) = longest;
    let (point_a, point_b) = edge_witnesses(&polytope[i], &polytope[j]);
    let edge_normal = right_perp(polytope[j].w - polytope[i].w).normalize_or_zero();
    // The difference's boundary passes through the origin; its outward normal
    // there points to the side it does not extend to, and B leaves A the
    // opposite way.
    let reach_plus = support_vertex(a, b, edge_normal).w.dot(edge_normal);
    let reach_minus = -support_vertex(a, b, -edge_normal).w.dot(edge_normal);
    let normal = if reach_plus <= reach_minus {
        -edge_normal
    } else {
        edge_normal
    };
    EpaOutput {
        normal,
        depth: 0.0,
        point_a,
        point_b,
        outcome: EpaOutcome::Flat,
    }
}

fn edge_result(polytope: &[SimplexVertex], edge: &NearestEdge, outcome: EpaOutcome) -> EpaOutput {
    let p = &polytope[edge.index];
    let q = &polytope[(edge.index + 1) % polytope.len()];
    let (point_a, point_b) = edge_witnesses(p, q);
    EpaOutput {
        normal: -edge.normal,
        depth: edge.distance,
        point_a,
        point_b,
        outcome,
    }
}

/// Penetration depth and direction of two overlapping cores, expanding the
/// simplex GJK ended with. Radii are ignored. Never panics; see the module
/// notes for the three fallbacks.
///
/// Every simplex point must lie on the boundary of the Minkowski difference
/// (support points, as [`gjk_distance`](super::gjk::gjk_distance) produces):
/// a point deep inside would stay a corner of the polytope for good.
pub fn epa(a: &ShapeProxy, b: &ShapeProxy, simplex: &Simplex) -> EpaOutput {
    let mut polytope = [SimplexVertex::default(); EPA_MAX_VERTICES];
    let mut count = simplex.count.min(3);
    polytope[..count].copy_from_slice(&simplex.vertices[..count]);
    if count == 0 {
        polytope[0] = support_vertex(a, b, Vec2::X);
        count = 1;
    }

    // GJK stops early when the origin sits on a point or an edge of the
    // simplex (touching cores): grow it into a triangle if the shapes allow.
    let scale = polytope[..count]
        .iter()
        .map(|v| v.w.length())
        .fold(0.0, f32::max)
        .max(
            a.points()
                .iter()
                .chain(b.points())
                .map(|p| p.length())
                .fold(0.0, f32::max),
        );
    let tiny_length_squared = (f32::EPSILON * scale).powi(2);
    if count == 1 {
        for direction in [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y] {
            let v = support_vertex(a, b, direction);
            if v.w.distance_squared(polytope[0].w) > tiny_length_squared {
                polytope[1] = v;
                count = 2;
                break;
            }
        }
    }
    let flat_area = f32::EPSILON * scale * scale;
    if count == 2 {
        let e = polytope[1].w - polytope[0].w;
        for direction in [left_perp(e), -left_perp(e)] {
            let v = support_vertex(a, b, direction);
            if cross(e, v.w - polytope[0].w).abs() > flat_area {
                polytope[2] = v;
                count = 3;
                break;
            }
        }
    }
    if count < 3 {
        return flat_result(a, b, &polytope[..count]);
    }
    let area = cross(polytope[1].w - polytope[0].w, polytope[2].w - polytope[0].w);
    if area.abs() <= flat_area || !area.is_finite() {
        return flat_result(a, b, &polytope[..count]);
    }
    if area < 0.0 {
        polytope.swap(1, 2);
    }

    let tolerance = EPA_RELATIVE_TOLERANCE * scale;
    loop {
        let Some(edge) = nearest_edge(&polytope[..count], tolerance) else {
            return flat_result(a, b, &polytope[..count]);
        };
        let next = (edge.index + 1) % count;
        let v = support_vertex(a, b, edge.normal);
        let gain = v.w.dot(edge.normal) - edge.distance;
        let repeated = [polytope[edge.index], polytope[next]]
            .iter()
            .any(|p| p.index_a == v.index_a && p.index_b == v.index_b);
        if gain <= tolerance || repeated {
            return edge_result(&polytope[..count], &edge, EpaOutcome::Converged);
        }
        if count == EPA_MAX_VERTICES {
            return edge_result(&polytope[..count], &edge, EpaOutcome::Capped);
        }
        // Insert the new point between the edge's two ends.
        polytope.copy_within(edge.index + 1..count, edge.index + 2);
        polytope[edge.index + 1] = v;
        count += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::gjk::gjk_distance;
    use super::*;

    fn square(center: Vec2, half: f32) -> ShapeProxy {
        let corners = [
            Vec2::new(-1.0, -1.0),
            Vec2::new(1.0, -1.0),
            Vec2::ONE,
            Vec2::new(-1.0, 1.0),
        ];
        ShapeProxy::new(&corners.map(|c| center + half * c), 0.0)
    }

    #[test]
    fn overlapping_squares_depth_along_x() {
        let a = square(Vec2::ZERO, 1.0);
        let b = square(Vec2::new(1.5, 0.2), 1.0);
        let g = gjk_distance(&a, &b);
        assert!(g.overlapping);
        let e = epa(&a, &b, &g.simplex);
        assert_eq!(e.outcome, EpaOutcome::Converged);
        assert!((e.depth - 0.5).abs() < 1e-5, "{e:?}");
        assert!((e.normal - Vec2::X).length() < 1e-5, "{e:?}");
        assert!((e.point_b - (e.point_a - e.normal * e.depth)).length() < 1e-5);
    }

    #[test]
    fn deep_overlap_prefers_the_shallow_axis() {
        let a = square(Vec2::ZERO, 2.0);
        let b = square(Vec2::new(0.1, -1.5), 1.0);
        let g = gjk_distance(&a, &b);
        let e = epa(&a, &b, &g.simplex);
        // B's top is at y = -0.5, A's bottom at -2: B leaves downwards by 1.5;
        // sideways it would need 3 - 0.1 = 2.9.
        assert!((e.depth - 1.5).abs() < 1e-4, "{e:?}");
        assert!((e.normal + Vec2::Y).length() < 1e-4, "{e:?}");
    }

    #[test]
    fn touching_faces_are_flat_with_zero_depth() {
        let a = square(Vec2::ZERO, 1.0);
        let b = square(Vec2::new(2.0, 0.0), 1.0);
        let g = gjk_distance(&a, &b);
        let e = epa(&a, &b, &g.simplex);
        assert!(e.depth.abs() < 1e-5, "{e:?}");
        assert!((e.normal - Vec2::X).length() < 1e-4, "{e:?}");
    }

    #[test]
    fn coincident_points_give_a_zero_normal() {
        let a = ShapeProxy::new(&[Vec2::ONE], 0.0);
        let g = gjk_distance(&a, &a);
        let e = epa(&a, &a, &g.simplex);
        assert_eq!(e.outcome, EpaOutcome::Flat);
        assert_eq!(e.depth, 0.0);
        assert_eq!(e.normal, Vec2::ZERO);
    }

    #[test]
    fn identical_squares_have_full_depth() {
        let a = square(Vec2::new(3.0, -2.0), 1.0);
        let g = gjk_distance(&a, &a);
        let e = epa(&a, &a, &g.simplex);
        assert!((e.depth - 2.0).abs() < 1e-4, "{e:?}");
        assert!((e.normal.length() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn origin_on_an_edge_of_the_difference_is_touching() {
        // Found by the property test: a point on a triangle's edge. The edge
        // through the origin must read as distance zero, not as an inverted
        // edge to flip.
        let tri = [
            Vec2::new(-1.6495882, 1.674876),
            Vec2::new(0.0, -1.0852695),
            Vec2::ZERO,
        ];
        let a = ShapeProxy::new(&tri, 0.0);
        let on_edge = tri[0].lerp(tri[1], 0.52558);
        let b = ShapeProxy::new(&[on_edge], 0.0);
        let g = gjk_distance(&a, &b);
        let e = epa(&a, &b, &g.simplex);
        assert!(e.depth.abs() < 1e-4, "{e:?}");
        let outward = crate::math::right_perp(tri[1] - tri[0]).normalize();
        assert!((e.normal - outward).length() < 1e-3, "{e:?}");
    }
}
