//! Collision shapes and their mass properties.
//!
//! Shapes are expressed in their body's local frame. A body may carry several
//! shapes (a compound body); its mass, center of mass and inertia are the
//! combination of its shapes' [`MassData`].

mod decompose;
mod def;
mod hull;
pub(crate) mod seams;
mod segment;

pub use decompose::decompose_concave;
pub use def::ShapeDef;
pub use hull::convex_hull;
pub use segment::{chain_segments, ChainSegment, Segment};

pub use crate::error::ShapeError;

use crate::math::{cross, is_finite_vec, right_perp, Aabb, Transform, Vec2};
use crate::settings::MAX_POLYGON_VERTICES;

/// Mass properties of a shape or a body.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MassData {
    /// Mass in kilograms.
    pub mass: f32,
    /// Center of mass in the body's local frame.
    pub center: Vec2,
    /// Rotational inertia about the center of mass, kg m^2.
    pub inertia: f32,
}

/// A solid disc.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Circle {
    /// Center in the body frame.
    pub center: Vec2,
    /// Radius, positive.
    pub radius: f32,
}

impl Circle {
    /// A circle of `radius` centered at `center` in the body frame.
    pub fn new(center: Vec2, radius: f32) -> Result<Circle, ShapeError> {
        if !is_finite_vec(center) || !radius.is_finite() {
            return Err(ShapeError::NonFinite);
        }
        if radius <= 0.0 {
            return Err(ShapeError::NonPositiveRadius);
        }
        Ok(Circle { center, radius })
    }

    /// Mass properties at `density` (kg per square metre).
    pub fn mass(&self, density: f32) -> MassData {
        let rr = self.radius * self.radius;
        let mass = density * std::f32::consts::PI * rr;
        MassData {
            mass,
            center: self.center,
            // A disc about its own center: m r^2 / 2.
            inertia: 0.5 * mass * rr,
        }
    }
}

/// A segment swept by a disc: a stadium.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Capsule {
    /// First end-cap center, body frame.
    pub center1: Vec2,
    /// Second end-cap center, body frame.
    pub center2: Vec2,
    /// Radius, positive.
    pub radius: f32,
}

impl Capsule {
    /// A capsule between two cap centers.
    pub fn new(center1: Vec2, center2: Vec2, radius: f32) -> Result<Capsule, ShapeError> {
        if !is_finite_vec(center1) || !is_finite_vec(center2) || !radius.is_finite() {
            return Err(ShapeError::NonFinite);
        }
        if radius <= 0.0 {
            return Err(ShapeError::NonPositiveRadius);
        }
        if center1.distance_squared(center2) <= crate::settings::WELD_DISTANCE.powi(2) {
            return Err(ShapeError::DegenerateCapsule);
        }
        Ok(Capsule {
            center1,
            center2,
            radius,
        })
    }

    /// Mass properties at `density`: a rectangle plus two half discs.
    pub fn mass(&self, density: f32) -> MassData {
        let r = self.radius;
        let rr = r * r;
        let length = (self.center2 - self.center1).length();
        let box_mass = density * (2.0 * r) * length;
        let circle_mass = density * std::f32::consts::PI * rr;
        let mass = box_mass + circle_mass;
        // Rectangle of length l and width 2r about its center.
        let box_inertia = box_mass * (4.0 * rr + length * length) / 12.0;
        // Two half discs make one disc; each half's centroid sits 4r/(3 pi)
        // beyond the segment end, so move its inertia there by parallel axis.
        let lc = 4.0 * r / (3.0 * std::f32::consts::PI);
        let h = 0.5 * length;
        let circle_inertia = circle_mass * (0.5 * rr + h * h + 2.0 * h * lc);
        MassData {
            mass,
            center: 0.5 * (self.center1 + self.center2),
            inertia: box_inertia + circle_inertia,
        }
    }
}

/// A convex polygon of 3 to 8 vertices in counter-clockwise order, with an
/// optional rounding radius (a rounded polygon is the polygon swept by a
/// disc). Vertices are in the body frame; the centroid is stored so mass
/// properties and the solver work about the center of mass.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Polygon {
    /// Vertices, counter-clockwise; only the first `count` are used.
    pub vertices: [Vec2; MAX_POLYGON_VERTICES],
    /// Outward unit normal of edge `i` (from vertex `i` to `i + 1`).
    pub normals: [Vec2; MAX_POLYGON_VERTICES],
    /// Number of vertices, 3..=8.
    pub count: usize,
    /// Rounding radius, zero for a sharp polygon.
    pub radius: f32,
    /// Area centroid in the body frame.
    pub centroid: Vec2,
}

impl Polygon {
    /// The convex hull of `points` as a polygon. Near-duplicate points are
    /// welded and collinear points dropped.
    ///
    /// ```
    /// # use tumble::{Polygon, Vec2};
    /// let tri = Polygon::new(&[Vec2::ZERO, Vec2::X, Vec2::Y]).unwrap();
    /// assert_eq!(tri.count, 3);
    /// assert!(Polygon::new(&[Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)]).is_err());
    /// ```
    pub fn new(points: &[Vec2]) -> Result<Polygon, ShapeError> {
        Polygon::new_rounded(points, 0.0)
    }

    /// The convex hull of `points`, rounded by `radius` (>= 0).
    pub fn new_rounded(points: &[Vec2], radius: f32) -> Result<Polygon, ShapeError> {
        if !radius.is_finite() {
            return Err(ShapeError::NonFinite);
        }
        if radius < 0.0 {
            return Err(ShapeError::NonPositiveRadius);
        }
        let hull = convex_hull(points)?;
        Polygon::from_hull(&hull, radius).size_checked()
    }

    /// Builds the polygon from an already convex, counter-clockwise,
    /// validated vertex list.
    pub(crate) fn from_hull(hull: &[Vec2], radius: f32) -> Polygon {
        debug_assert!((3..=MAX_POLYGON_VERTICES).contains(&hull.len()));
        let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        let n = hull.len();
        vertices[..n].copy_from_slice(hull);
        for i in 0..n {
            let edge = vertices[(i + 1) % n] - vertices[i];
            normals[i] = right_perp(edge).normalize();
        }
        let centroid = polygon_centroid(&vertices[..n]);
        Polygon {
            vertices,
            normals,
            count: n,
            radius,
            centroid,
        }
    }

    /// An axis-aligned box of half-widths `hx`, `hy` centered on the body
    /// origin.
    pub fn new_box(hx: f32, hy: f32) -> Result<Polygon, ShapeError> {
        Polygon::new_offset_box(hx, hy, Vec2::ZERO, 0.0)
    }

    /// A box of half-widths `hx`, `hy` centered at `center` in the body frame
    /// and turned by `angle` radians: one part of a compound body.
    pub fn new_offset_box(hx: f32, hy: f32, center: Vec2, angle: f32) -> Result<Polygon, ShapeError> {
        if !hx.is_finite() || !hy.is_finite() || !is_finite_vec(center) || !angle.is_finite() {
            return Err(ShapeError::NonFinite);
        }
        if hx <= 0.0 || hy <= 0.0 {
            return Err(ShapeError::Collinear);
        }
        let xf = Transform::new(center, angle);
        let corners = [
            Vec2::new(-hx, -hy),
            Vec2::new(hx, -hy),
            Vec2::new(hx, hy),
            Vec2::new(-hx, hy),
        ];
        let hull = corners.map(|c| xf.apply(c));
        // One rule for a box and for the same four corners given to
        // `Polygon::new`: the hull decides (corners closer than the weld
        // distance merge, and what is left must span an area). The box
        // keeps its own corner order.
        let polygon = Polygon::from_hull(&hull, 0.0).size_checked()?;
        match convex_hull(&hull) {
            Ok(welded) if welded.len() == 4 => Ok(polygon),
            _ => Err(ShapeError::Collinear),
        }
    }

    /// The used vertices.
    #[inline]
    pub fn points(&self) -> &[Vec2] {
        &self.vertices[..self.count]
    }

    /// The used normals.
    #[inline]
    pub fn edge_normals(&self) -> &[Vec2] {
        &self.normals[..self.count]
    }

    /// Mass properties at `density`, from the polygon itself: signed area,
    /// area-weighted centroid and the second moment of area, summed over the
    /// triangles fanned from an interior point. A rounding radius adds the
    /// swept area along each edge and around each corner.
    pub fn mass(&self, density: f32) -> MassData {
        let n = self.count;
        let r = self.radius;
        let verts: [Vec2; MAX_POLYGON_VERTICES];
        let pts: &[Vec2] = if r > 0.0 {
            // Approximate the rounded polygon by pushing each vertex out along
            // its averaged normal (exact area for a box-like shape to first
            // order); good to a fraction of a percent for small radii.
            let mut v = [Vec2::ZERO; MAX_POLYGON_VERTICES];
            let sqrt2 = std::f32::consts::SQRT_2;
            for (i, vi) in v.iter_mut().enumerate().take(n) {
                let prev = self.normals[(i + n - 1) % n];
                let next = self.normals[i];
                let mid = (prev + next).normalize_or_zero();
                *vi = self.vertices[i] + sqrt2 * r * mid;
            }
            verts = v;
            &verts[..n]
        } else {
            &self.vertices[..n]
        };

        // Fan from the first vertex; measure from it so large offsets do not
        // lose precision.
        let origin = pts[0];
        let mut area = 0.0;
        let mut center = Vec2::ZERO;
        let mut second_moment = 0.0;
        for i in 1..n - 1 {
            let e1 = pts[i] - origin;
            let e2 = pts[i + 1] - origin;
            let d = cross(e1, e2);
            let tri_area = 0.5 * d;
            area += tri_area;
            center += tri_area * (e1 + e2) / 3.0;
            // Second moment of the triangle (origin, e1, e2) about the origin.
            let intx2 = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x;
            let inty2 = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y;
            second_moment += (0.25 / 3.0 * d) * (intx2 + inty2);
        }
        let mass = density * area;
        let local_center = center / area;
        let center = origin + local_center;
        // Inertia about the origin, then shifted to the centroid.
        let inertia = density * second_moment - mass * local_center.length_squared();
        MassData {
            mass,
            center,
            inertia,
        }
    }
}

/// Area centroid of a counter-clockwise polygon.
pub(crate) fn polygon_centroid(pts: &[Vec2]) -> Vec2 {
    let origin = pts[0];
    let mut area = 0.0;
    let mut c = Vec2::ZERO;
    for i in 1..pts.len() - 1 {
        let e1 = pts[i] - origin;
        let e2 = pts[i + 1] - origin;
        let a = 0.5 * cross(e1, e2);
        area += a;
        c += a * (e1 + e2) / 3.0;
    }
    origin + c / area
}

/// Any collision shape.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Shape {
    /// A disc.
    Circle(Circle),
    /// A stadium.
    Capsule(Capsule),
    /// A convex polygon, optionally rounded.
    Polygon(Polygon),
    /// A line segment, solid from both sides. No area, no mass.
    Segment(Segment),
    /// One segment of a chain: solid from one side, smooth across the
    /// joints with its neighbours. Made by
    /// [`World::create_chain`](crate::World::create_chain). No area, no mass.
    ChainSegment(ChainSegment),
}

impl From<Segment> for Shape {
    fn from(s: Segment) -> Shape {
        Shape::Segment(s)
    }
}

impl From<Circle> for Shape {
    fn from(c: Circle) -> Shape {
        Shape::Circle(c)
    }
}

impl From<Capsule> for Shape {
    fn from(c: Capsule) -> Shape {
        Shape::Capsule(c)
    }
}

impl From<Polygon> for Shape {
    fn from(p: Polygon) -> Shape {
        Shape::Polygon(p)
    }
}

impl Shape {
    /// Mass properties at `density`.
    pub fn mass(&self, density: f32) -> MassData {
        match self {
            Shape::Circle(c) => c.mass(density),
            Shape::Capsule(c) => c.mass(density),
            Shape::Polygon(p) => p.mass(density),
            Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => MassData {
                mass: 0.0,
                center: 0.5 * (s.point1 + s.point2),
                inertia: 0.0,
            },
        }
    }

    /// The tight bounding box of the shape placed at `xf`.
    pub fn aabb(&self, xf: Transform) -> Aabb {
        match self {
            Shape::Circle(c) => {
                let p = xf.apply(c.center);
                let r = Vec2::splat(c.radius);
                Aabb::new(p - r, p + r)
            }
            Shape::Capsule(c) => {
                let a = xf.apply(c.center1);
                let b = xf.apply(c.center2);
                let r = Vec2::splat(c.radius);
                Aabb::new(a.min(b) - r, a.max(b) + r)
            }
            Shape::Polygon(p) => {
                let mut lo = xf.apply(p.vertices[0]);
                let mut hi = lo;
                for &v in &p.vertices[1..p.count] {
                    let w = xf.apply(v);
                    lo = lo.min(w);
                    hi = hi.max(w);
                }
                let r = Vec2::splat(p.radius);
                Aabb::new(lo - r, hi + r)
            }
            Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
                let (a, b) = (xf.apply(s.point1), xf.apply(s.point2));
                Aabb::new(a.min(b), a.max(b))
            }
        }
    }

    /// The rounding radius: the circle's radius, the capsule's, or the
    /// polygon's rounding.
    pub fn radius(&self) -> f32 {
        match self {
            Shape::Circle(c) => c.radius,
            Shape::Capsule(c) => c.radius,
            Shape::Polygon(p) => p.radius,
            Shape::Segment(_) | Shape::ChainSegment(_) => 0.0,
        }
    }

    /// The radius about which the shape is round all over: a circle's;
    /// zero for the rest. A capsule's or a rounded polygon's rounding also
    /// covers flat sides, which a contact follows as material points (see
    /// `solver::scalar::current_separation`).
    pub(crate) fn round_radius(&self) -> f32 {
        match self {
            Shape::Circle(c) => c.radius,
            Shape::Capsule(_) | Shape::Polygon(_) | Shape::Segment(_) | Shape::ChainSegment(_) => 0.0,
        }
    }

    /// The farthest distance from the centroid to any point of the shape.
    pub fn extent(&self) -> f32 {
        match self {
            Shape::Circle(c) => c.radius,
            Shape::Capsule(c) => 0.5 * c.center1.distance(c.center2) + c.radius,
            Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
                0.5 * s.point1.distance(s.point2)
            }
            Shape::Polygon(p) => {
                let far = p
                    .points()
                    .iter()
                    .map(|v| v.distance(p.centroid))
                    .fold(0.0, f32::max);
                far + p.radius
            }
        }
    }

    /// The shortest distance from the centroid to the shape's outline:
    /// the radius of the largest circle about the centroid inside the
    /// shape (none for a segment). A shape is as thick as twice this in
    /// every direction, so a step that moves it a good deal less cannot
    /// carry it through a surface it began the step in front of.
    pub(crate) fn min_extent(&self) -> f32 {
        match self {
            Shape::Circle(c) => c.radius,
            Shape::Capsule(c) => c.radius,
            Shape::Segment(_) | Shape::ChainSegment(_) => 0.0,
            Shape::Polygon(p) => {
                let near = p
                    .points()
                    .iter()
                    .zip(&p.normals[..p.count])
                    .map(|(&v, &n)| n.dot(v - p.centroid))
                    .fold(f32::INFINITY, f32::min);
                near.max(0.0) + p.radius
            }
        }
    }

    /// The centroid in the body frame.
    pub fn centroid(&self) -> Vec2 {
        match self {
            Shape::Circle(c) => c.center,
            Shape::Capsule(c) => 0.5 * (c.center1 + c.center2),
            Shape::Polygon(p) => p.centroid,
            Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
                0.5 * (s.point1 + s.point2)
            }
        }
    }

    /// True when the world point `p` lies inside the shape placed at `xf`
    /// (never for a segment: it has no inside).
    pub fn contains_point(&self, xf: Transform, p: Vec2) -> bool {
        let local = xf.inv_apply(p);
        match self {
            Shape::Segment(_) | Shape::ChainSegment(_) => false,
            Shape::Circle(c) => local.distance_squared(c.center) <= c.radius * c.radius,
            Shape::Capsule(c) => {
                let d = c.center2 - c.center1;
                let t = ((local - c.center1).dot(d) / d.length_squared()).clamp(0.0, 1.0);
                local.distance_squared(c.center1 + t * d) <= c.radius * c.radius
            }
            Shape::Polygon(poly) => {
                // Largest separation of the point from any face: inside when
                // it is within the rounding radius.
                let mut max_sep = f32::NEG_INFINITY;
                let mut best = 0;
                for i in 0..poly.count {
                    let s = poly.normals[i].dot(local - poly.vertices[i]);
                    if s > max_sep {
                        max_sep = s;
                        best = i;
                    }
                }
                if max_sep <= 0.0 {
                    return true;
                }
                if poly.radius == 0.0 {
                    return false;
                }
                // Outside a face: check the distance to that edge.
                let a = poly.vertices[best];
                let b = poly.vertices[(best + 1) % poly.count];
                let d = b - a;
                let t = ((local - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
                local.distance_squared(a + t * d) <= poly.radius * poly.radius
            }
        }
    }
}

/// Combines the mass properties of several parts of one body: masses add,
/// centers average by mass, inertias move to the common center by the
/// parallel-axis theorem.
pub fn combine_mass(parts: &[MassData]) -> MassData {
    let mass: f32 = parts.iter().map(|m| m.mass).sum();
    if mass <= 0.0 {
        return MassData::default();
    }
    let center = parts.iter().map(|m| m.mass * m.center).sum::<Vec2>() / mass;
    let inertia = parts
        .iter()
        .map(|m| m.inertia + m.mass * m.center.distance_squared(center))
        .sum();
    MassData {
        mass,
        center,
        inertia,
    }
}

impl Shape {
    /// Checks a shape that may have been built by hand (every field is
    /// public): the same rules the constructors enforce, plus a polygon's
    /// vertex count, convexity and normals. [`World::create_shape`] calls it.
    ///
    /// [`World::create_shape`]: crate::World::create_shape
    pub fn validate(&self) -> Result<(), ShapeError> {
        match self {
            Shape::Circle(c) => Circle::new(c.center, c.radius).map(|_| ()),
            Shape::Capsule(c) => Capsule::new(c.center1, c.center2, c.radius).map(|_| ()),
            Shape::Polygon(p) => p.validate(),
            Shape::Segment(s) => Segment::new(s.point1, s.point2).map(|_| ()),
            Shape::ChainSegment(c) => c.validate(),
        }
    }
}

impl Polygon {
    /// The polygon, unless its coordinates are so large that its edge
    /// normals or centroid overflowed while it was built, or so far from
    /// the origin for their size that an edge collapsed to a point.
    fn size_checked(self) -> Result<Polygon, ShapeError> {
        let n = self.count;
        if (0..n).any(|i| self.vertices[(i + 1) % n] == self.vertices[i]) {
            return Err(ShapeError::Collinear);
        }
        let finite = self.edge_normals().iter().all(|n| is_finite_vec(*n)) && is_finite_vec(self.centroid);
        if !finite {
            return Err(ShapeError::MassOverflow);
        }
        let unit = |n: &Vec2| (n.length() - 1.0).abs() <= 1e-3;
        if !self.edge_normals().iter().all(unit) {
            return Err(ShapeError::Collinear);
        }
        // Far from the origin, f32 rounding can leave a sliver hull whose
        // edges double back on themselves (each corner passed the hull's
        // collinearity test, the whole does not): it spans no area that
        // f32 can describe at that size.
        match self.validate() {
            Err(ShapeError::NotConvex) => return Err(ShapeError::Collinear),
            Err(e) => return Err(e),
            Ok(()) => {}
        }
        Ok(self)
    }

    /// Checks that the polygon's area, as its mass properties compute it
    /// (rounding included), is positive and finite: far from the origin,
    /// f32 rounding can flatten a thin triangle that passed the hull's
    /// collinearity test.
    fn area_checked(&self) -> Result<(), ShapeError> {
        let m = self.mass(1.0);
        if m.mass.is_infinite() || m.inertia.is_infinite() {
            return Err(ShapeError::MassOverflow);
        }
        if !(m.mass > 0.0 && is_finite_vec(m.center) && m.inertia.is_finite()) {
            return Err(ShapeError::Collinear);
        }
        Ok(())
    }

    /// Checks a polygon that may have been built by hand: 3..=8 finite
    /// vertices, convex and counter-clockwise (a corner may be straight to
    /// within rounding), unit normals that
    /// face out of their edges, a finite centroid and a finite rounding
    /// radius >= 0.
    pub fn validate(&self) -> Result<(), ShapeError> {
        if self.count < 3 {
            return Err(ShapeError::TooFewPoints);
        }
        if self.count > MAX_POLYGON_VERTICES {
            return Err(ShapeError::TooManyVertices);
        }
        let finite = self.points().iter().all(|v| is_finite_vec(*v))
            && self.edge_normals().iter().all(|n| is_finite_vec(*n))
            && is_finite_vec(self.centroid)
            && self.radius.is_finite();
        if !finite {
            return Err(ShapeError::NonFinite);
        }
        if self.radius < 0.0 {
            return Err(ShapeError::NonPositiveRadius);
        }
        let n = self.count;
        for i in 0..n {
            let a = self.vertices[i];
            let b = self.vertices[(i + 1) % n];
            let c = self.vertices[(i + 2) % n];
            let edge = b - a;
            // A corner may be straight to within rounding (the hull of a
            // sliver far from the origin has such corners), but must not
            // turn clockwise.
            let tolerance = 1e-5 * edge.length() * (c - b).length();
            if cross(edge, c - b) < -tolerance {
                return Err(ShapeError::NotConvex);
            }
            let normal = self.normals[i];
            let expected = right_perp(edge).normalize_or_zero();
            if (normal.length() - 1.0).abs() > 1e-3 || normal.dot(expected) < 0.999 {
                return Err(ShapeError::NotConvex);
            }
        }
        self.area_checked()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32, tol: f32) -> bool {
        (a - b).abs() <= tol * b.abs().max(1.0)
    }

    #[test]
    fn box_30_by_20_of_mass_2() {
        // I = m (w^2 + h^2) / 12 = 2 * (900 + 400) / 12 = 216.67
        let b = Polygon::new_box(15.0, 10.0).unwrap();
        let density = 2.0 / 600.0;
        let m = b.mass(density);
        assert!(close(m.mass, 2.0, 1e-5), "{m:?}");
        assert!(close(m.inertia, 216.666_67, 1e-4), "{m:?}");
        assert!(m.center.length() < 1e-5);
    }

    #[test]
    fn unit_half_extent_box() {
        let m = Polygon::new_box(1.0, 1.0).unwrap().mass(1.0);
        assert!(close(m.mass, 4.0, 1e-6));
        assert!(close(m.inertia, 8.0 / 3.0, 1e-5));
    }

    #[test]
    fn unit_disc() {
        let m = Circle::new(Vec2::ZERO, 1.0).unwrap().mass(1.0);
        assert!(close(m.mass, std::f32::consts::PI, 1e-6));
        assert!(close(m.inertia, std::f32::consts::FRAC_PI_2, 1e-6));
    }

    #[test]
    fn triangle_centroid_and_inertia_about_centroid() {
        // Right triangle legs 3 and 3 placed far from the origin: the
        // centroid is at a third of the legs and the inertia about it is
        // independent of the placement.
        let off = Vec2::new(100.0, -50.0);
        let pts = [off, off + Vec2::new(3.0, 0.0), off + Vec2::new(0.0, 3.0)];
        let m = Polygon::new(&pts).unwrap().mass(1.0);
        assert!(close(m.mass, 4.5, 1e-5));
        assert!((m.center - (off + Vec2::splat(1.0))).length() < 1e-3);
        // Polar moment of a right isoceles triangle with legs a about its
        // centroid: a^4 / 18 = 4.5 for a = 3 (density 1).
        assert!(close(m.inertia, 81.0 / 18.0, 1e-3), "{m:?}");
    }

    #[test]
    fn capsule_mass_matches_rectangle_plus_disc() {
        let c = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.5).unwrap();
        let m = c.mass(1.0);
        let expected = 2.0 * 1.0 + std::f32::consts::PI * 0.25;
        assert!(close(m.mass, expected, 1e-6));
        // Bounds: more than the bare rectangle's inertia, less than a
        // 3 x 1 rectangle's.
        let rect = 2.0 * (4.0 + 1.0) / 12.0;
        let outer = 3.0 * (9.0 + 1.0) / 12.0;
        assert!(m.inertia > rect && m.inertia < outer, "{m:?}");
    }

    #[test]
    fn compound_of_two_boxes_is_one_long_box() {
        let a = Polygon::new_offset_box(0.5, 0.5, Vec2::new(-0.5, 0.0), 0.0).unwrap();
        let b = Polygon::new_offset_box(0.5, 0.5, Vec2::new(0.5, 0.0), 0.0).unwrap();
        let m = combine_mass(&[a.mass(1.0), b.mass(1.0)]);
        let whole = Polygon::new_box(1.0, 0.5).unwrap().mass(1.0);
        assert!(close(m.mass, whole.mass, 1e-6));
        assert!(close(m.inertia, whole.inertia, 1e-5));
        assert!(m.center.length() < 1e-6);
    }

    #[test]
    fn point_containment() {
        let xf = Transform::new(Vec2::new(2.0, 0.0), std::f32::consts::FRAC_PI_4);
        let b: Shape = Polygon::new_box(1.0, 1.0).unwrap().into();
        assert!(b.contains_point(xf, Vec2::new(2.0, 1.3)));
        assert!(!b.contains_point(xf, Vec2::new(3.0, 1.0)));
        let c: Shape = Capsule::new(Vec2::ZERO, Vec2::X, 0.25).unwrap().into();
        assert!(c.contains_point(Transform::IDENTITY, Vec2::new(1.2, 0.0)));
        assert!(!c.contains_point(Transform::IDENTITY, Vec2::new(0.5, 0.3)));
    }

    #[test]
    fn invalid_shapes_are_rejected_by_name() {
        assert_eq!(Circle::new(Vec2::ZERO, 0.0), Err(ShapeError::NonPositiveRadius));
        assert_eq!(Circle::new(Vec2::NAN, 1.0), Err(ShapeError::NonFinite));
        assert_eq!(
            Capsule::new(Vec2::ZERO, Vec2::ZERO, 1.0),
            Err(ShapeError::DegenerateCapsule)
        );
        assert_eq!(
            Polygon::new(&[Vec2::ZERO, Vec2::X]),
            Err(ShapeError::TooFewPoints)
        );
        assert_eq!(
            Polygon::new(&[Vec2::ZERO, Vec2::X, Vec2::ZERO, Vec2::X]),
            Err(ShapeError::TooFewPoints)
        );
        assert_eq!(
            Polygon::new(&[Vec2::ZERO, Vec2::X, Vec2::new(3.0, 0.0)]),
            Err(ShapeError::Collinear)
        );
        assert_eq!(
            Polygon::new_rounded(&[Vec2::ZERO, Vec2::X, Vec2::Y], -1.0),
            Err(ShapeError::NonPositiveRadius)
        );
    }

    #[test]
    fn a_box_and_its_four_corners_follow_one_rule() {
        // A 3.2 mm plank is a valid box, as its corners are a valid polygon.
        let plank = Polygon::new_box(1.0, 0.0016).expect("a 3.2 mm plank");
        assert!((plank.mass(1.0).mass - 2.0 * 0.0032).abs() < 1e-6);
        // Around the weld distance, thin and tiny boxes, both ways agree.
        for k in 0..200 {
            let h = 0.0002 + 0.00002 * k as f32;
            for (hx, hy) in [(1.0, h), (h, 1.0), (h, h)] {
                let corners = [
                    Vec2::new(-hx, -hy),
                    Vec2::new(hx, -hy),
                    Vec2::new(hx, hy),
                    Vec2::new(-hx, hy),
                ];
                let as_box = Polygon::new_box(hx, hy);
                let as_points = Polygon::new(&corners);
                assert_eq!(
                    as_box.is_ok(),
                    as_points.is_ok(),
                    "{hx} x {hy}: {as_box:?} / {as_points:?}"
                );
                if let (Ok(a), Ok(b)) = (as_box, as_points) {
                    assert!((a.mass(1.0).mass - b.mass(1.0).mass).abs() <= 1e-6 * b.mass(1.0).mass);
                }
            }
        }
        assert_eq!(
            Polygon::new_box(1.0, 0.001),
            Err(ShapeError::Collinear),
            "2 mm welds"
        );
    }
}
