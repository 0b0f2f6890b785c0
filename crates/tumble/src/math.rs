//! Small 2D math on top of [`glam::Vec2`]: rotations, rigid transforms, 2D
//! cross products and axis-aligned bounding boxes.
//!
//! Everything here is `Copy`, tiny and `#[inline]`: these are the hot-path
//! types of the narrowphase and the solver.

pub use glam::Vec2;

/// A rotation stored as its cosine and sine, so applying it costs four
/// multiplies and no trigonometry.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rot {
    /// Cosine of the angle.
    pub c: f32,
    /// Sine of the angle.
    pub s: f32,
}

impl Default for Rot {
    fn default() -> Self {
        Rot::IDENTITY
    }
}

/// [`atan2`]'s `atan(t) / t` as a polynomial in `t^2`, lowest power
/// first, fitted to a largest error of 1.5e-7 over `[0, 1]` (least
/// squares reweighted towards minimax). The solver's lane-wide arc
/// tangent evaluates the same one.
pub(crate) const ATAN_POLYNOMIAL: [f32; 8] = [
    0.999_999_34,
    -0.333_298_6,
    0.199_465_66,
    -0.139_086_29,
    0.096_421_98,
    -0.055_912_33,
    0.021_862_956,
    -0.004_054_566,
];

/// The angle of the point `(x, y)` from the x axis, in `[-pi, pi]`, as
/// `f32::atan2` within 5e-7 rad (two float steps at pi): the arc tangent of the smaller of `|x|`
/// and `|y|` over the larger by a polynomial fitted on `[0, 1]`, then put
/// in its octant. Ours, not the platform's: the same bits on every
/// machine (a step's results must not depend on the C library), and a
/// third of the cost of `atanf` in the joints' hot loop, which takes the
/// angle of every hinge with a limit or a spring each iteration.
#[inline]
pub fn atan2(y: f32, x: f32) -> f32 {
    use std::f32::consts::{FRAC_PI_2, PI};
    let (ax, ay) = (x.abs(), y.abs());
    let steep = ay > ax;
    let (num, den) = if steep { (ax, ay) } else { (ay, ax) };
    let t = if den > 0.0 { num / den } else { 0.0 };
    let t2 = t * t;
    let poly = ATAN_POLYNOMIAL.iter().rev().fold(0.0, |acc, &c| acc * t2 + c);
    let mut angle = t * poly;
    if steep {
        angle = FRAC_PI_2 - angle;
    }
    if x < 0.0 {
        angle = PI - angle;
    }
    if y < 0.0 {
        -angle
    } else {
        angle
    }
}

impl Rot {
    /// No rotation.
    pub const IDENTITY: Rot = Rot { c: 1.0, s: 0.0 };

    /// The rotation by `angle` radians, counter-clockwise positive.
    #[inline]
    pub fn from_angle(angle: f32) -> Rot {
        let (s, c) = angle.sin_cos();
        Rot { c, s }
    }

    /// The angle in radians, in `[-pi, pi]` (see [`atan2`]).
    #[inline]
    pub fn angle(self) -> f32 {
        atan2(self.s, self.c)
    }

    /// Rotates a vector.
    #[inline]
    pub fn rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x - self.s * v.y, self.s * v.x + self.c * v.y)
    }

    /// Rotates a vector by the inverse rotation.
    #[inline]
    pub fn inv_rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x + self.s * v.y, -self.s * v.x + self.c * v.y)
    }

    /// `self^-1 * other`: the rotation of `other` relative to `self`.
    #[inline]
    pub fn inv_mul(self, other: Rot) -> Rot {
        Rot {
            c: self.c * other.c + self.s * other.s,
            s: self.c * other.s - self.s * other.c,
        }
    }

    /// Advances the rotation by a small angle `da` (radians) and renormalises.
    /// This is the integrator's rotation update: cheaper than `sin`/`cos` and
    /// exact to first order, with the normalisation keeping it a rotation.
    #[inline]
    pub fn integrate(self, da: f32) -> Rot {
        let c = self.c - da * self.s;
        let s = self.s + da * self.c;
        let mag = (c * c + s * s).sqrt();
        let inv = if mag > 0.0 { 1.0 / mag } else { 0.0 };
        Rot {
            c: c * inv,
            s: s * inv,
        }
    }

    /// The rotated x axis.
    #[inline]
    pub fn x_axis(self) -> Vec2 {
        Vec2::new(self.c, self.s)
    }
}

/// A rigid transform: rotate, then translate.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Transform {
    /// Translation.
    pub p: Vec2,
    /// Rotation.
    pub q: Rot,
}

impl Transform {
    /// The identity transform.
    pub const IDENTITY: Transform = Transform {
        p: Vec2::ZERO,
        q: Rot::IDENTITY,
    };

    /// A transform from a position and an angle in radians.
    #[inline]
    pub fn new(p: Vec2, angle: f32) -> Transform {
        Transform {
            p,
            q: Rot::from_angle(angle),
        }
    }

    /// Maps a local point to world space.
    #[inline]
    pub fn apply(self, v: Vec2) -> Vec2 {
        self.q.rotate(v) + self.p
    }

    /// Maps a world point to local space.
    #[inline]
    pub fn inv_apply(self, v: Vec2) -> Vec2 {
        self.q.inv_rotate(v - self.p)
    }

    /// `self^-1 * other`: `other` expressed in the frame of `self`.
    #[inline]
    pub fn inv_mul(self, other: Transform) -> Transform {
        Transform {
            p: self.q.inv_rotate(other.p - self.p),
            q: self.q.inv_mul(other.q),
        }
    }
}

impl std::ops::Mul for Rot {
    type Output = Rot;

    /// `self * other`: first `other`, then `self`.
    #[inline]
    fn mul(self, other: Rot) -> Rot {
        Rot {
            c: self.c * other.c - self.s * other.s,
            s: self.s * other.c + self.c * other.s,
        }
    }
}

impl std::ops::Mul for Transform {
    type Output = Transform;

    /// `self * other`: first `other`, then `self`.
    #[inline]
    fn mul(self, other: Transform) -> Transform {
        Transform {
            p: self.q.rotate(other.p) + self.p,
            q: self.q * other.q,
        }
    }
}

/// 2D cross product of two vectors (the z of their 3D cross product).
#[inline]
pub fn cross(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// Cross product of a scalar (a z-axis vector) and a vector: `s × v`.
/// This is `ω × r`, the velocity of a point at `r` on a body spinning at `ω`.
#[inline]
pub fn cross_sv(s: f32, v: Vec2) -> Vec2 {
    Vec2::new(-s * v.y, s * v.x)
}

/// Cross product of a vector and a scalar: `v × s`.
#[inline]
pub fn cross_vs(v: Vec2, s: f32) -> Vec2 {
    Vec2::new(s * v.y, -s * v.x)
}

/// The left perpendicular `(-y, x)` (counter-clockwise by 90 degrees).
#[inline]
pub fn left_perp(v: Vec2) -> Vec2 {
    Vec2::new(-v.y, v.x)
}

/// The right perpendicular `(y, -x)` (clockwise by 90 degrees). For a
/// counter-clockwise polygon, the right perpendicular of an edge is its
/// outward normal.
#[inline]
pub fn right_perp(v: Vec2) -> Vec2 {
    Vec2::new(v.y, -v.x)
}

/// True when every component is finite.
#[inline]
pub fn is_finite_vec(v: Vec2) -> bool {
    v.x.is_finite() && v.y.is_finite()
}

/// `v` scaled down to length `max` if it is longer, its direction kept.
/// A finite `v` whose squared length overflows is measured scaled, so a
/// huge velocity is slowed to the limit, not lost to `inf / inf`.
#[inline]
pub(crate) fn limit_length(v: Vec2, max: f32) -> Vec2 {
    // The square first: no root for a vector within the limit (every body
    // of a sane scene, every step). A square within the rounded square of
    // the limit has a root within the limit.
    if v.length_squared() <= max * max {
        return v;
    }
    let length = v.length();
    if length <= max {
        v
    } else if length.is_finite() {
        v * (max / length)
    } else {
        let unit = v / v.abs().max_element();
        unit * (max / unit.length())
    }
}

/// `x` held within `-bound..=bound`: `f32::clamp`'s rule without its
/// panic when the bound is NaN (then `x` passes unchanged), for bounds
/// computed in the solve.
#[inline]
pub(crate) fn clamp_symmetric(x: f32, bound: f32) -> f32 {
    if x < -bound {
        -bound
    } else if x > bound {
        bound
    } else {
        x
    }
}

/// Whether `p` lies within `extent` of the origin on both axes (false for
/// a non-finite `p`).
#[inline]
pub(crate) fn within_extent(p: Vec2, extent: f32) -> bool {
    p.x.abs() <= extent && p.y.abs() <= extent
}

/// An axis-aligned bounding box.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Aabb {
    /// Lower corner.
    pub min: Vec2,
    /// Upper corner.
    pub max: Vec2,
}

impl Aabb {
    /// A box from its two corners.
    #[inline]
    pub fn new(min: Vec2, max: Vec2) -> Aabb {
        Aabb { min, max }
    }

    /// The smallest box holding both.
    #[inline]
    pub fn union(self, other: Aabb) -> Aabb {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// True when the boxes overlap (touching counts).
    #[inline]
    pub fn overlaps(self, other: Aabb) -> bool {
        !(other.min.x > self.max.x
            || other.min.y > self.max.y
            || self.min.x > other.max.x
            || self.min.y > other.max.y)
    }

    /// True when `other` lies entirely inside `self`.
    #[inline]
    pub fn contains(self, other: Aabb) -> bool {
        self.min.x <= other.min.x
            && self.min.y <= other.min.y
            && other.max.x <= self.max.x
            && other.max.y <= self.max.y
    }

    /// True when the point lies inside or on the boundary.
    #[inline]
    pub fn contains_point(self, p: Vec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }

    /// The box grown by `margin` on every side.
    #[inline]
    pub fn expanded(self, margin: f32) -> Aabb {
        let m = Vec2::splat(margin);
        Aabb {
            min: self.min - m,
            max: self.max + m,
        }
    }

    /// Perimeter: the surface-area heuristic's cost of a box in 2D.
    #[inline]
    pub fn perimeter(self) -> f32 {
        2.0 * ((self.max.x - self.min.x) + (self.max.y - self.min.y))
    }

    /// Center point.
    #[inline]
    pub fn center(self) -> Vec2 {
        0.5 * (self.min + self.max)
    }

    /// Half the size along each axis.
    #[inline]
    pub fn extents(self) -> Vec2 {
        0.5 * (self.max - self.min)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_arc_tangent_is_the_platforms_within_5e7_rad_in_every_octant() {
        use std::f32::consts::{FRAC_PI_2, PI};
        let mut worst = 0.0f32;
        for k in 0..=100_000 {
            let a = -PI + 2.0 * PI * k as f32 / 100_000.0;
            for r in [1e-3f32, 1.0, 7.5e4] {
                let (y, x) = (r * a.sin(), r * a.cos());
                let ours = atan2(y, x);
                // The same angle, whichever way round pi it is named.
                let diff = (ours - y.atan2(x)).abs();
                worst = worst.max(diff.min((diff - 2.0 * PI).abs()));
                assert_eq!(atan2(-y, x), -ours, "odd in y at {a}");
            }
        }
        // (The fit's 1.5e-7, and the rounding of pi less it: 2.4e-7 a step there.)
        assert!(worst < 5e-7, "largest error {worst} rad");
        // The axes exactly, and no point at all gives 0.
        assert_eq!(atan2(0.0, 1.0), 0.0);
        assert_eq!(atan2(1.0, 0.0), FRAC_PI_2);
        assert_eq!(atan2(-1.0, 0.0), -FRAC_PI_2);
        assert_eq!(atan2(0.0, -1.0), PI);
        assert_eq!(atan2(0.0, 0.0), 0.0);
        assert_eq!(Rot::from_angle(0.75).angle(), atan2(0.75f32.sin(), 0.75f32.cos()));
    }

    #[test]
    fn rotation_round_trips() {
        let q = Rot::from_angle(0.7);
        let v = Vec2::new(1.5, -2.0);
        let back = q.inv_rotate(q.rotate(v));
        assert!((back - v).length() < 1e-6);
        assert!((q.angle() - 0.7).abs() < 1e-6);
    }

    #[test]
    fn transform_inverse_multiply() {
        let a = Transform::new(Vec2::new(1.0, 2.0), 0.3);
        let b = Transform::new(Vec2::new(-3.0, 0.5), -1.1);
        let rel = a.inv_mul(b);
        let p = Vec2::new(0.25, 0.75);
        let direct = b.apply(p);
        let via = a.apply(rel.apply(p));
        assert!((direct - via).length() < 1e-5);
    }

    #[test]
    fn cross_of_spin_is_tangential_velocity() {
        // A body spinning counter-clockwise at 2 rad/s: the point at +x moves +y.
        assert_eq!(cross_sv(2.0, Vec2::X), Vec2::new(0.0, 2.0));
        assert_eq!(cross(Vec2::X, Vec2::Y), 1.0);
        assert_eq!(right_perp(Vec2::X), Vec2::new(0.0, -1.0));
    }

    #[test]
    fn aabb_overlap_and_containment() {
        let a = Aabb::new(Vec2::ZERO, Vec2::ONE);
        let b = Aabb::new(Vec2::splat(0.5), Vec2::splat(2.0));
        let c = Aabb::new(Vec2::splat(1.5), Vec2::splat(2.0));
        assert!(a.overlaps(b));
        assert!(!a.overlaps(c));
        assert!(a.union(c).contains(b));
        assert_eq!(a.perimeter(), 4.0);
    }
}
