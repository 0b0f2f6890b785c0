//! Narrowphase: contact manifolds between pairs of shapes.
//!
//! [`collide`] dispatches on the shape pair and returns a [`Manifold`] whose
//! normal points **from shape A to shape B**, with up to two points, each with
//! its own separation and feature id.
//!
//! | pair | algorithm |
//! |---|---|
//! | polygon / capsule with polygon / capsule | separating axes, then the incident edge clipped to the reference face (two points for a flat rest): [`collide_polygons`], [`collide_polygon_capsule`], [`collide_capsules`] |
//! | circle with anything | closed form, one point: [`collide_circles`], [`collide_polygon_circle`], [`collide_capsule_circle`] |
//! | fallback, queries | GJK on the cores, EPA when they overlap, radii folded back in: [`shape_distance`] |
//!
//! Ray casts ([`ray_cast`]) and the time of impact for continuous
//! collision ([`time_of_impact`]) live here too.

mod chain;
pub(crate) mod circles;
mod corners;
pub(crate) mod distance;
pub(crate) mod epa;
pub(crate) mod gjk;
pub(crate) mod ray;
pub(crate) mod sat;
mod seams;
pub(crate) mod toi;

#[cfg(test)]
mod proptests;

pub use circles::{collide_capsule_circle, collide_circles, collide_polygon_circle};
pub(crate) use corners::CornerCone;
pub use distance::{shape_distance, DistanceOutput};
pub use ray::{ray_cast, RayHit};
pub use sat::{collide_capsules, collide_polygon_capsule, collide_polygons};
pub(crate) use seams::{collide_across_seams, surface_normal};
pub use toi::time_of_impact;
pub(crate) use toi::{sweep_time_of_impact, Sweep};

use crate::math::{Transform, Vec2};
use crate::shapes::Shape;
use circles::Around;

/// The feature id of a contact point: reference edge, incident vertex and
/// flip flag packed as `(edge << 16) | (vertex << 8) | flip`, plus one so that
/// zero means "no id". Bits 32..48 are left free for compound part indices.
#[inline]
pub fn feature_id(reference_edge: usize, incident_vertex: usize, flip: bool) -> u64 {
    (((reference_edge as u64) << 16) | ((incident_vertex as u64) << 8) | flip as u64) + 1
}

/// The contact manifold between shape `a` placed at `xf_a` and shape `b` at
/// `xf_b`: a world-space normal from A to B and up to two world-space points
/// midway between the surfaces, each with its separation (negative when
/// overlapping) and feature id. Points up to `speculative` apart are
/// included; farther apart the manifold is empty (`count == 0`). Impulses
/// are left at zero.
///
/// Any pair order works: swapping A and B flips the normal and keeps the
/// points. (Two polygons whose best faces are a near tie are the one
/// exception: each order prefers its own first shape's face, within the
/// reference-face hysteresis.) One-point contacts with a circle carry the id
/// `feature_id(0, 0, flip)`, flip set when the circle is shape A.
///
/// ```
/// # use tumble::{Polygon, Shape, Transform, Vec2};
/// # use tumble::collision::collide;
/// let ground: Shape = Polygon::new_box(5.0, 0.5).unwrap().into();
/// let crate_: Shape = Polygon::new_box(0.5, 0.5).unwrap().into();
/// let m = collide(&ground, Transform::IDENTITY, &crate_, Transform::new(Vec2::new(0.0, 0.99), 0.0), 0.0);
/// assert_eq!(m.count, 2);
/// assert_eq!(m.normal, Vec2::Y);
/// assert!((m.points[0].separation + 0.01).abs() < 1e-5);
/// ```
pub fn collide(a: &Shape, xf_a: Transform, b: &Shape, xf_b: Transform, speculative: f32) -> Manifold {
    collide_recyclable(a, xf_a, b, xf_b, speculative).0
}

/// How long a manifold may be kept while its pair hardly moves (contact
/// recycling), as [`collide_recyclable`] tells it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Keep {
    /// Not at all: collide the pair again next step.
    Never,
    /// Every point of the pair within the speculative distance is in it,
    /// and it has none (two polygons' or capsules' clipped faces are
    /// [`Keep::Face`]): keep it while the pair moves less than the recycle
    /// distance.
    Complete,
    /// Two polygons' (or capsules') faces, clipped: every point of the
    /// pair within the speculative distance is in it, and each point that
    /// is a corner of the incident shape lies `margin` or more inside the
    /// ends of the reference face. Keep it while the pair moves less than
    /// the recycle distance and `margin`: a corner slid past the end of
    /// the face meets another feature (the next face turns away), where
    /// the kept point would go on pushing against the face's line.
    Face {
        /// How far the nearest corner point is from an end of the face.
        margin: f32,
    },
    /// No point: a separating axis (or, see `Contact::update`, the two
    /// bodies' bounding circles) holds the two surfaces at least `gap`
    /// apart. Any other pose within `gap` less the speculative distance of
    /// this one (counting the coming step's motion) has no point either.
    Apart {
        /// A lower bound on the distance between the two surfaces.
        gap: f32,
    },
    /// The one nearest point of two apart cores: other features may be
    /// nearly as near, so keep it only while the pair moves less than the
    /// gap.
    Nearest,
    /// The one nearest point of two apart cores meeting corner to corner,
    /// or of a circle and a corner, and the directions that hold them
    /// apart: the contact aims its normal within `cone` along the pair's
    /// motion ([`CornerCone`]). Kept as [`Keep::Nearest`] when
    /// `recyclable`; otherwise (a circle, whose normal follows its center)
    /// collided again next step.
    Corners {
        /// The directions that hold the corners apart.
        cone: CornerCone,
        /// Whether the manifold may be kept as [`Keep::Nearest`].
        recyclable: bool,
    },
    /// A circle (shape B when `circle_is_b`) resting on a flat side: keep
    /// it while the center stays beside that side, `margin` from its nearer
    /// end, with the circle's end found from its center (a rolling circle
    /// has no fixed contact point).
    Circle {
        /// Whether the circle is shape B.
        circle_is_b: bool,
        /// How far the center is from the end of the side.
        margin: f32,
        /// The circle's radius.
        radius: f32,
    },
}

impl Keep {
    /// The same answer with shapes A and B swapped.
    fn flipped(self) -> Keep {
        match self {
            Keep::Corners { cone, recyclable } => Keep::Corners {
                cone: cone.flipped(),
                recyclable,
            },
            Keep::Circle {
                circle_is_b,
                margin,
                radius,
            } => Keep::Circle {
                circle_is_b: !circle_is_b,
                margin,
                radius,
            },
            other => other,
        }
    }
}

/// [`collide`], and how long its manifold may be kept ([`Keep`]): the one
/// dispatch on the shape pair. Two circles, or a circle at a corner or a
/// capsule's cap, are collided every step: exact and cheap, and their
/// normal follows the centers, not a side.
pub(crate) fn collide_recyclable(
    a: &Shape,
    xf_a: Transform,
    b: &Shape,
    xf_b: Transform,
    speculative: f32,
) -> (Manifold, Keep) {
    // A circle pair computed with the circle as B; `flip` when the circle
    // is really shape A.
    let round = |(m, around): (Manifold, Around), radius: f32, flip: bool| {
        let keep = match around {
            _ if m.count == 0 => Keep::Complete,
            Around::Side(margin) => Keep::Circle {
                circle_is_b: !flip,
                margin,
                radius,
            },
            Around::Corner(cone) => Keep::Corners {
                cone: if flip { cone.flipped() } else { cone },
                recyclable: false,
            },
            Around::Neither => Keep::Never,
        };
        (if flip { m.flipped() } else { m }, keep)
    };
    match (a, b) {
        // A segment is a capsule of no radius; a chain segment, one that
        // is one-sided and knows its neighbours.
        (Shape::Segment(s), _) => {
            collide_recyclable(&Shape::Capsule(s.as_capsule()), xf_a, b, xf_b, speculative)
        }
        (_, Shape::Segment(s)) => {
            collide_recyclable(a, xf_a, &Shape::Capsule(s.as_capsule()), xf_b, speculative)
        }
        (Shape::ChainSegment(c), _) => chain::collide_chain_segment(c, xf_a, b, xf_b, speculative),
        (_, Shape::ChainSegment(c)) => {
            let (m, keep) = chain::collide_chain_segment(c, xf_b, a, xf_a, speculative);
            (m.flipped(), keep.flipped())
        }
        (Shape::Polygon(a), Shape::Polygon(b)) => {
            sat::collide_polygons_complete(a, xf_a, b, xf_b, speculative)
        }
        (Shape::Polygon(a), Shape::Capsule(b)) => {
            sat::collide_polygon_capsule_complete(a, xf_a, b, xf_b, speculative)
        }
        (Shape::Capsule(a), Shape::Polygon(b)) => {
            let (m, keep) = sat::collide_polygon_capsule_complete(b, xf_b, a, xf_a, speculative);
            (m.flipped(), keep.flipped())
        }
        (Shape::Capsule(a), Shape::Capsule(b)) => {
            sat::collide_capsules_complete(a, xf_a, b, xf_b, speculative)
        }
        (Shape::Polygon(a), Shape::Circle(b)) => round(
            circles::collide_polygon_circle_beside(a, xf_a, b, xf_b, speculative),
            b.radius,
            false,
        ),
        (Shape::Circle(a), Shape::Polygon(b)) => round(
            circles::collide_polygon_circle_beside(b, xf_b, a, xf_a, speculative),
            a.radius,
            true,
        ),
        (Shape::Capsule(a), Shape::Circle(b)) => round(
            circles::collide_capsule_circle_beside(a, xf_a, b, xf_b, speculative),
            b.radius,
            false,
        ),
        (Shape::Circle(a), Shape::Capsule(b)) => round(
            circles::collide_capsule_circle_beside(b, xf_b, a, xf_a, speculative),
            a.radius,
            true,
        ),
        (Shape::Circle(a), Shape::Circle(b)) => {
            let m = circles::collide_circles(a, xf_a, b, xf_b, speculative);
            let keep = if m.count == 0 {
                Keep::Complete
            } else {
                Keep::Corners {
                    cone: CornerCone::round(a.radius + b.radius),
                    recyclable: false,
                }
            };
            (m, keep)
        }
    }
}

/// One contact point of a manifold.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ManifoldPoint {
    /// World position of the contact, midway between the two surfaces.
    pub point: Vec2,
    /// Signed distance between the surfaces along the normal: negative when
    /// they overlap (the depth is `-separation`), positive for a speculative
    /// point that is not touching yet.
    pub separation: f32,
    /// Feature id: `(reference edge << 16) | (incident vertex << 8) | flip`,
    /// plus one so zero means "no id", with compound part indices in bits
    /// 32..48. The same pair of features keeps the same id frame to frame,
    /// which is how warm starting finds last step's impulse.
    pub id: u64,
    /// Accumulated normal impulse (N s) the solver applied at this point.
    pub normal_impulse: f32,
    /// Accumulated friction impulse (N s) along the tangent.
    pub tangent_impulse: f32,
    /// True when this point matched a point of the previous step.
    pub persisted: bool,
}

impl ManifoldPoint {
    /// Penetration depth: `-separation` when overlapping, else zero.
    #[inline]
    pub fn depth(&self) -> f32 {
        (-self.separation).max(0.0)
    }
}

/// Up to two contact points sharing one normal.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Manifold {
    /// Unit normal in world space, from shape A towards shape B.
    pub normal: Vec2,
    /// The points; only the first `count` are used.
    pub points: [ManifoldPoint; 2],
    /// Number of points, 0..=2. Zero means the shapes are farther apart than
    /// the speculative distance.
    pub count: usize,
}

impl Manifold {
    /// The used points.
    #[inline]
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points[..self.count]
    }

    /// The used points, mutably.
    #[inline]
    pub fn points_mut(&mut self) -> &mut [ManifoldPoint] {
        &mut self.points[..self.count]
    }

    /// Deepest penetration over the points (zero if none overlap).
    pub fn max_depth(&self) -> f32 {
        self.points().iter().map(|p| p.depth()).fold(0.0, f32::max)
    }

    /// The smallest separation over the points (`None` when empty).
    pub fn min_separation(&self) -> Option<f32> {
        self.points().iter().map(|p| p.separation).reduce(f32::min)
    }

    /// The manifold mapped from a body's local frame to the world by `xf`:
    /// the normal rotated, the points moved.
    pub fn transformed(mut self, xf: Transform) -> Manifold {
        self.normal = xf.q.rotate(self.normal);
        for p in self.points_mut() {
            p.point = xf.apply(p.point);
        }
        self
    }

    /// The same contact seen from the other shape: the normal negated, the
    /// points unchanged, and each id's flip flag toggled, so it still says
    /// which shape holds the reference feature ([`Manifold::reference_is_b`]).
    pub fn flipped(mut self) -> Manifold {
        self.normal = -self.normal;
        for p in self.points_mut() {
            if p.id != 0 {
                p.id = ((p.id - 1) ^ 1) + 1;
            }
        }
        self
    }

    /// True when the normal is a feature of shape B (its face, or the
    /// shape B is measured from), false when it is A's: the flip flag of
    /// the first point's id. The normal turns with that shape.
    pub fn reference_is_b(&self) -> bool {
        self.count > 0 && self.points[0].id != 0 && (self.points[0].id - 1) & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::SPECULATIVE_DISTANCE;
    use crate::shapes::{Capsule, Circle, Polygon};

    fn shapes() -> [Shape; 4] {
        let corners = [
            Vec2::new(-0.5, -0.3),
            Vec2::new(0.6, -0.4),
            Vec2::new(0.4, 0.5),
            Vec2::new(-0.4, 0.4),
        ];
        [
            Circle::new(Vec2::new(0.1, 0.0), 0.5).unwrap().into(),
            Capsule::new(Vec2::new(-0.5, 0.1), Vec2::new(0.5, -0.1), 0.3)
                .unwrap()
                .into(),
            Polygon::new(&corners).unwrap().into(),
            Polygon::new_rounded(&corners, 0.1).unwrap().into(),
        ]
    }

    #[test]
    fn every_pair_in_both_orders() {
        let xf_a = Transform::new(Vec2::new(1.0, -2.0), 0.4);
        let xf_b = Transform::new(Vec2::new(1.3, -1.3), -0.9);
        for a in shapes() {
            for b in shapes() {
                let ab = collide(&a, xf_a, &b, xf_b, SPECULATIVE_DISTANCE);
                let ba = collide(&b, xf_b, &a, xf_a, SPECULATIVE_DISTANCE);
                assert!(ab.count > 0 && ba.count > 0, "{a:?} {b:?}");
                let d = shape_distance(&a, &xf_a, &b, &xf_b);
                assert!(d.overlapping);
                assert!(
                    (ab.min_separation().unwrap() - d.distance).abs() < 0.02,
                    "{ab:?} {d:?}"
                );
                assert!(
                    (ba.min_separation().unwrap() - d.distance).abs() < 0.02,
                    "{ba:?} {d:?}"
                );
                // B is above and right of A: the normal points that way.
                assert!(ab.normal.dot(xf_b.p - xf_a.p) > 0.0, "{a:?} {b:?} {ab:?}");
                assert!(ba.normal.dot(xf_a.p - xf_b.p) > 0.0, "{a:?} {b:?} {ba:?}");
            }
        }
    }

    #[test]
    fn reversed_circle_pairs_flip_exactly() {
        let [circle, capsule, polygon, rounded] = shapes();
        let xf_a = Transform::new(Vec2::new(0.0, 0.0), 0.3);
        let xf_b = Transform::new(Vec2::new(0.5, 0.6), 1.1);
        for other in [capsule, polygon, rounded] {
            let ab = collide(&other, xf_a, &circle, xf_b, 0.0);
            let ba = collide(&circle, xf_b, &other, xf_a, 0.0);
            assert_eq!(ab.count, 1);
            assert_eq!(ab.normal, -ba.normal);
            // The same point; the id's flip flag says which shape is the
            // circle.
            assert_eq!(ab.points[0].point, ba.points[0].point);
            assert_eq!(ab.points[0].separation, ba.points[0].separation);
            assert_eq!(ab.points[0].id, feature_id(0, 0, false));
            assert_eq!(ba.points[0].id, feature_id(0, 0, true));
            assert!(!ab.reference_is_b() && ba.reference_is_b());
        }
    }

    #[test]
    fn shapes_far_apart_have_no_points() {
        let xf_b = Transform::new(Vec2::new(5.0, 0.0), 0.0);
        for a in shapes() {
            for b in shapes() {
                assert_eq!(collide(&a, Transform::IDENTITY, &b, xf_b, 1.0).count, 0);
            }
        }
    }

    #[test]
    fn feature_id_packing() {
        assert_eq!(feature_id(0, 0, false), 1);
        assert_eq!(feature_id(2, 3, true), (2 << 16 | 3 << 8 | 1) + 1);
    }

    #[test]
    fn manifold_helpers() {
        let mut m = Manifold {
            normal: Vec2::X,
            count: 1,
            ..Manifold::default()
        };
        m.points[0].point = Vec2::new(1.0, 0.0);
        m.points[0].separation = -0.25;
        let w = m.transformed(Transform::new(Vec2::new(0.0, 2.0), std::f32::consts::FRAC_PI_2));
        assert!((w.normal - Vec2::Y).length() < 1e-6);
        assert!((w.points[0].point - Vec2::new(0.0, 3.0)).length() < 1e-6);
        assert_eq!(w.flipped().normal, -w.normal);
        assert_eq!(m.min_separation(), Some(-0.25));
        assert_eq!(Manifold::default().min_separation(), None);
        assert_eq!(m.max_depth(), 0.25);
    }
}
