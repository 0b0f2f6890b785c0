//! GJK: the distance and the closest points between two convex point sets.
//!
//! Every shape is a convex *core* (a point, a segment or a polygon) swept by
//! a disc of the shape's radius. GJK works on the cores only: it walks a
//! simplex (one, two or three points) of the Minkowski difference `B - A`
//! towards the origin. When the origin ends up inside the simplex the cores
//! overlap and [`epa`](super::epa) takes over to measure how deep. The radii
//! are folded back in by [`distance`](super::distance).

use crate::math::{cross, Transform, Vec2};
use crate::settings::MAX_POLYGON_VERTICES;
use crate::shapes::{ChainSegment, Shape};

/// GJK stops after this many iterations. Polygons of at most eight vertices
/// converge in a handful; the cap only guards against float cycling.
const GJK_MAX_ITERATIONS: usize = 32;

/// A simplex point closer to the origin than this (squared) counts as the
/// origin itself: the cores touch, and the caller treats that as overlap.
const TOUCHING_DISTANCE_SQUARED: f32 = 1.0e-12;

/// A new support point must bring the simplex closer to the origin by more
/// than this fraction of the squared distance, or GJK has converged.
const GJK_RELATIVE_PROGRESS: f32 = 1.0e-6;

/// The convex core of a shape as a point set plus the rounding radius: a
/// circle is one point, a capsule two, a polygon its vertices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeProxy {
    /// The core's points; only the first `count` are used.
    pub points: [Vec2; MAX_POLYGON_VERTICES],
    /// Number of points, 1..=8.
    pub count: usize,
    /// Radius of the disc that sweeps the core.
    pub radius: f32,
}

impl ShapeProxy {
    /// A proxy from up to eight points (extra points are ignored) and a
    /// rounding radius. With no points at all the proxy is the origin.
    pub fn new(points: &[Vec2], radius: f32) -> ShapeProxy {
        let count = points.len().clamp(1, MAX_POLYGON_VERTICES);
        let mut stored = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        let used = points.len().min(MAX_POLYGON_VERTICES);
        stored[..used].copy_from_slice(&points[..used]);
        ShapeProxy {
            points: stored,
            count,
            radius,
        }
    }

    /// The core of a shape, in the shape's body frame.
    pub fn from_shape(shape: &Shape) -> ShapeProxy {
        match shape {
            Shape::Circle(c) => ShapeProxy::new(&[c.center], c.radius),
            Shape::Capsule(c) => ShapeProxy::new(&[c.center1, c.center2], c.radius),
            Shape::Polygon(p) => ShapeProxy::new(p.points(), p.radius),
            Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
                ShapeProxy::new(&[s.point1, s.point2], 0.0)
            }
        }
    }

    /// The same proxy with every point moved by `xf`.
    pub fn transformed(&self, xf: Transform) -> ShapeProxy {
        let mut out = *self;
        for p in &mut out.points[..self.count] {
            *p = xf.apply(*p);
        }
        out
    }

    /// The used points.
    #[inline]
    pub fn points(&self) -> &[Vec2] {
        &self.points[..self.count]
    }

    /// Index of the point farthest along `direction` (the first one on a tie).
    #[inline]
    pub fn support(&self, direction: Vec2) -> usize {
        let mut best = 0;
        let mut best_dot = self.points[0].dot(direction);
        for (i, p) in self.points().iter().enumerate().skip(1) {
            let d = p.dot(direction);
            if d > best_dot {
                best = i;
                best_dot = d;
            }
        }
        best
    }
}

/// One point of the simplex: a point of the Minkowski difference `B - A`
/// together with the two shape points it came from.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct SimplexVertex {
    /// The point of A.
    pub wa: Vec2,
    /// The point of B.
    pub wb: Vec2,
    /// `wb - wa`.
    pub w: Vec2,
    /// Barycentric weight of this vertex in the closest point.
    pub weight: f32,
    /// Index of `wa` in A's proxy.
    pub index_a: usize,
    /// Index of `wb` in B's proxy.
    pub index_b: usize,
}

impl SimplexVertex {
    /// The difference point of A's point `index_a` and B's point `index_b`.
    pub(crate) fn new(a: &ShapeProxy, index_a: usize, b: &ShapeProxy, index_b: usize) -> Self {
        let wa = a.points[index_a];
        let wb = b.points[index_b];
        SimplexVertex {
            wa,
            wb,
            w: wb - wa,
            weight: 1.0,
            index_a,
            index_b,
        }
    }
}

/// The simplex GJK finished with: one to three points of the Minkowski
/// difference `B - A`. When the cores overlap it is the seed polytope of
/// [`epa`](super::epa::epa).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Simplex {
    pub(crate) vertices: [SimplexVertex; 3],
    pub(crate) count: usize,
}

impl Simplex {
    fn used(&self) -> &[SimplexVertex] {
        &self.vertices[..self.count]
    }

    /// The closest point of the simplex to the origin, from the weights.
    fn closest_point(&self) -> Vec2 {
        self.used().iter().map(|v| v.weight * v.w).sum()
    }

    /// The closest points on A and on B.
    fn witness_points(&self) -> (Vec2, Vec2) {
        let a = self.used().iter().map(|v| v.weight * v.wa).sum();
        let b = self.used().iter().map(|v| v.weight * v.wb).sum();
        (a, b)
    }

    /// The vertex with the largest weight: the feature nearest the other
    /// shape.
    fn dominant_vertex(&self) -> SimplexVertex {
        let mut best = self.vertices[0];
        for v in &self.used()[1..] {
            if v.weight > best.weight {
                best = *v;
            }
        }
        best
    }

    /// The direction GJK searches along (negated: from the origin towards
    /// the simplex) when the simplex's closest point to the origin is
    /// `v`. For a segment, its normal on the origin's side, as Box2D's
    /// GJK takes: `v` is the difference of two nearly equal products when
    /// the segment is long (160 m against millimetres) and may point off
    /// the normal by more than the gap, so that the support points tie
    /// the wrong way and GJK stops at a point it already has, the origin
    /// still outside its simplex (a box 5 cm into a tall wall read as
    /// 2 mm in front of it).
    fn search_direction(&self, v: Vec2) -> Vec2 {
        if self.count != 2 {
            return v;
        }
        let (w0, w1) = (self.vertices[0].w, self.vertices[1].w);
        let e = w1 - w0;
        let n = Vec2::new(-e.y, e.x);
        match n.dot(w0) {
            side if side > 0.0 => n,
            side if side < 0.0 => -n,
            _ => v,
        }
    }

    fn contains_pair(&self, index_a: usize, index_b: usize) -> bool {
        self.used()
            .iter()
            .any(|v| v.index_a == index_a && v.index_b == index_b)
    }

    /// Keeps only the listed vertices with the given weights.
    fn keep(&mut self, picks: &[(usize, f32)]) {
        let old = self.vertices;
        for (slot, &(i, weight)) in picks.iter().enumerate() {
            self.vertices[slot] = old[i];
            self.vertices[slot].weight = weight;
        }
        self.count = picks.len();
    }

    /// Reduces the simplex to the smallest subset whose convex hull holds the
    /// point closest to the origin, and sets the barycentric weights.
    fn solve(&mut self) {
        match self.count {
            1 => self.vertices[0].weight = 1.0,
            2 => self.solve_segment(0, 1),
            3 => self.solve_triangle(),
            _ => {}
        }
    }

    /// Closest point of segment `i`-`j` to the origin, as a pick list.
    fn closest_on_segment(&self, i: usize, j: usize) -> ([(usize, f32); 2], usize, f32) {
        let a = self.vertices[i].w;
        let b = self.vertices[j].w;
        let e = b - a;
        let along = -a.dot(e);
        let length_squared = e.length_squared();
        if along <= 0.0 {
            ([(i, 1.0), (i, 0.0)], 1, a.length_squared())
        } else if along >= length_squared {
            ([(j, 1.0), (j, 0.0)], 1, b.length_squared())
        } else {
            let t = along / length_squared;
            let p = a + t * e;
            ([(i, 1.0 - t), (j, t)], 2, p.length_squared())
        }
    }

    fn solve_segment(&mut self, i: usize, j: usize) {
        let (picks, n, _) = self.closest_on_segment(i, j);
        self.keep(&picks[..n]);
    }

    /// Voronoi regions of a triangle, tested with dot products of its edges
    /// against the vectors to the origin. Which side of an edge the origin
    /// lies on is the sign of the triangle's signed area times that of the
    /// origin and the edge: `n * cross(a, b)` for the edge AB, as Ericson's
    /// `d1 * d4 - d3 * d2` is by Lagrange's identity. Not as that
    /// difference: of two products of lengths squared (a 160 m wall makes
    /// them 1e9) it loses a millimetre's sign, and a box 5 mm from the wall
    /// read as inside it.
    fn solve_triangle(&mut self) {
        let a = self.vertices[0].w;
        let b = self.vertices[1].w;
        let c = self.vertices[2].w;
        let ab = b - a;
        let ac = c - a;
        let n = cross(ab, ac);

        let d1 = ab.dot(-a);
        let d2 = ac.dot(-a);
        if d1 <= 0.0 && d2 <= 0.0 {
            return self.keep(&[(0, 1.0)]);
        }
        let d3 = ab.dot(-b);
        let d4 = ac.dot(-b);
        if d3 >= 0.0 && d4 <= d3 {
            return self.keep(&[(1, 1.0)]);
        }
        let region_c = n * cross(a, b);
        if region_c <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
            let t = d1 / (d1 - d3);
            return self.keep(&[(0, 1.0 - t), (1, t)]);
        }
        let d5 = ab.dot(-c);
        let d6 = ac.dot(-c);
        if d6 >= 0.0 && d5 <= d6 {
            return self.keep(&[(2, 1.0)]);
        }
        let region_b = n * cross(c, a);
        if region_b <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
            let t = d2 / (d2 - d6);
            return self.keep(&[(0, 1.0 - t), (2, t)]);
        }
        let region_a = n * cross(b, c);
        if region_a <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
            let t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            return self.keep(&[(1, 1.0 - t), (2, t)]);
        }
        let total = region_a + region_b + region_c;
        if total > 0.0 && total.is_finite() {
            // The origin is inside the triangle.
            let wb = region_b / total;
            let wc = region_c / total;
            return self.keep(&[(0, 1.0 - wb - wc), (1, wb), (2, wc)]);
        }
        // A flat triangle that none of the tests above claimed: take the
        // closest of its three edges.
        let mut best = self.closest_on_segment(0, 1);
        for (i, j) in [(0, 2), (1, 2)] {
            let candidate = self.closest_on_segment(i, j);
            if candidate.2 < best.2 {
                best = candidate;
            }
        }
        self.keep(&best.0[..best.1]);
    }
}

/// What GJK found between two cores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkOutput {
    /// Closest point on A's core (meaningless when overlapping).
    pub point_a: Vec2,
    /// Closest point on B's core.
    pub point_b: Vec2,
    /// Distance between the cores; zero when they overlap or touch.
    pub distance: f32,
    /// True when the cores overlap (or touch within float noise).
    pub overlapping: bool,
    /// Index of A's point nearest B (the heaviest simplex vertex).
    pub feature_a: usize,
    /// Index of B's point nearest A.
    pub feature_b: usize,
    /// The final simplex, for [`epa`](super::epa::epa).
    pub simplex: Simplex,
    /// Iterations used.
    pub iterations: usize,
}

/// Distance and closest points between the cores of `a` and `b` (radii are
/// ignored). Both proxies must be in the same frame.
pub fn gjk_distance(a: &ShapeProxy, b: &ShapeProxy) -> GjkOutput {
    // Start from a support point of the difference (an extreme point, never
    // one deep inside it): EPA, seeded with this simplex, relies on every
    // point lying on the difference's boundary.
    let guess = a.points[0] - b.points[0];
    let direction = if guess.length_squared() > 0.0 {
        guess
    } else {
        Vec2::X
    };
    let first = SimplexVertex::new(a, a.support(-direction), b, b.support(direction));
    let mut simplex = Simplex {
        vertices: [first; 3],
        count: 1,
    };
    let mut overlapping = false;
    let mut iterations = 0;
    while iterations < GJK_MAX_ITERATIONS {
        iterations += 1;
        // Remember the points before reducing: a dropped point that comes
        // back as the next support point means GJK is cycling.
        let before = simplex;
        simplex.solve();
        if simplex.count == 3 {
            overlapping = true;
            break;
        }
        let v = simplex.closest_point();
        let v_squared = v.length_squared();
        if v_squared <= TOUCHING_DISTANCE_SQUARED {
            overlapping = true;
            break;
        }
        // Search from v towards the origin: B's farthest point along -v,
        // A's farthest along +v.
        let toward = simplex.search_direction(v);
        let index_a = a.support(toward);
        let index_b = b.support(-toward);
        if before.contains_pair(index_a, index_b) {
            break;
        }
        let vertex = SimplexVertex::new(a, index_a, b, index_b);
        if v_squared - v.dot(vertex.w) <= GJK_RELATIVE_PROGRESS * v_squared {
            break;
        }
        simplex.vertices[simplex.count] = vertex;
        simplex.count += 1;
    }

    let (point_a, point_b) = simplex.witness_points();
    let nearest = simplex.dominant_vertex();
    let distance = if overlapping {
        0.0
    } else {
        point_a.distance(point_b)
    };
    GjkOutput {
        point_a,
        point_b,
        distance,
        overlapping,
        feature_a: nearest.index_a,
        feature_b: nearest.index_b,
        simplex,
        iterations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(center: Vec2, half: f32) -> ShapeProxy {
        let h = half;
        ShapeProxy::new(
            &[
                center + Vec2::new(-h, -h),
                center + Vec2::new(h, -h),
                center + Vec2::new(h, h),
                center + Vec2::new(-h, h),
            ],
            0.0,
        )
    }

    #[test]
    fn point_to_point() {
        let a = ShapeProxy::new(&[Vec2::ZERO], 0.0);
        let b = ShapeProxy::new(&[Vec2::new(3.0, 4.0)], 0.0);
        let out = gjk_distance(&a, &b);
        assert!(!out.overlapping);
        assert!((out.distance - 5.0).abs() < 1e-6);
    }

    #[test]
    fn square_to_square_face() {
        let a = square(Vec2::ZERO, 1.0);
        let b = square(Vec2::new(3.5, 0.25), 1.0);
        let out = gjk_distance(&a, &b);
        assert!(!out.overlapping);
        assert!((out.distance - 1.5).abs() < 1e-5, "{out:?}");
        assert!((out.point_a.x - 1.0).abs() < 1e-5);
        assert!((out.point_b.x - 2.5).abs() < 1e-5);
    }

    #[test]
    fn square_to_square_corner() {
        let a = square(Vec2::ZERO, 1.0);
        let b = square(Vec2::new(3.0, 3.0), 1.0);
        let out = gjk_distance(&a, &b);
        assert!((out.distance - 2.0_f32.sqrt()).abs() < 1e-5, "{out:?}");
        assert!((out.point_a - Vec2::ONE).length() < 1e-5);
        assert_eq!(out.feature_a, 2);
        assert_eq!(out.feature_b, 0);
    }

    #[test]
    fn segment_to_point_interior() {
        let a = ShapeProxy::new(&[Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)], 0.0);
        let b = ShapeProxy::new(&[Vec2::new(0.25, 2.0)], 0.0);
        let out = gjk_distance(&a, &b);
        assert!((out.distance - 2.0).abs() < 1e-6);
        assert!((out.point_a - Vec2::new(0.25, 0.0)).length() < 1e-6);
    }

    #[test]
    fn overlapping_squares() {
        let a = square(Vec2::ZERO, 1.0);
        let b = square(Vec2::new(1.5, 0.3), 1.0);
        let out = gjk_distance(&a, &b);
        assert!(out.overlapping);
        assert_eq!(out.distance, 0.0);
    }

    #[test]
    fn identical_shapes_overlap() {
        let a = square(Vec2::ZERO, 1.0);
        let out = gjk_distance(&a, &a);
        assert!(out.overlapping);
    }

    #[test]
    fn support_picks_the_farthest_point() {
        let a = square(Vec2::ZERO, 1.0);
        assert_eq!(a.support(Vec2::new(1.0, 0.9)), 2);
        assert_eq!(a.support(Vec2::new(-1.0, -0.9)), 0);
    }
}
