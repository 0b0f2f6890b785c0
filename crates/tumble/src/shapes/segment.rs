//! Line segments: a two-sided [`Segment`], and the one-sided
//! [`ChainSegment`] that [`World::create_chain`](crate::World::create_chain)
//! makes of a polyline or a loop, with its neighbours' far points (ghost
//! vertices) so a body sliding across the joint between two segments meets
//! one smooth surface.
//!
//! Segments have no area: they add no mass, and belong on static or
//! kinematic bodies (terrain, walls, platforms).

use super::ShapeError;
use crate::math::{is_finite_vec, right_perp, Vec2};
use crate::settings::WELD_DISTANCE;

/// A line segment between two points (body frame), solid from both sides.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Segment {
    /// One end.
    pub point1: Vec2,
    /// The other end.
    pub point2: Vec2,
}

impl Segment {
    /// The segment from `point1` to `point2`. Errors: a non-finite point,
    /// or ends closer than the weld distance.
    pub fn new(point1: Vec2, point2: Vec2) -> Result<Segment, ShapeError> {
        if !(is_finite_vec(point1) && is_finite_vec(point2)) {
            return Err(ShapeError::NonFinite);
        }
        if !is_finite_vec(point2 - point1) {
            return Err(ShapeError::MassOverflow);
        }
        if point1.distance(point2) <= WELD_DISTANCE {
            return Err(ShapeError::Collinear);
        }
        Ok(Segment { point1, point2 })
    }

    /// The segment as a capsule of no radius: how it collides.
    pub(crate) fn as_capsule(&self) -> super::Capsule {
        super::Capsule {
            center1: self.point1,
            center2: self.point2,
            radius: 0.0,
        }
    }

    /// The unit normal on its right (walking from `point1` to `point2`):
    /// the solid side's outward normal of a [`ChainSegment`].
    pub fn normal(&self) -> Vec2 {
        right_perp(self.point2 - self.point1).normalize_or(Vec2::Y)
    }
}

/// One segment of a chain: collides on its right side only (walking from
/// `point1` to `point2`, the side its [`Segment::normal`] points to) and
/// knows its neighbours' far ends (`ghost1` before `point1`, `ghost2`
/// after `point2`), so that contacts at a joint take the normal the
/// joined surface has there rather than the normal of a corner.
///
/// A chain wound counter-clockwise round a region is solid from outside
/// (an obstacle); clockwise, from inside (a container). Terrain drawn from
/// right to left is solid from above.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChainSegment {
    /// The far end of the previous segment.
    pub ghost1: Vec2,
    /// The segment itself.
    pub segment: Segment,
    /// The far end of the next segment.
    pub ghost2: Vec2,
}

impl ChainSegment {
    /// Checks a chain segment built by hand: a valid segment and finite
    /// ghosts.
    pub fn validate(&self) -> Result<(), ShapeError> {
        Segment::new(self.segment.point1, self.segment.point2)?;
        if !(is_finite_vec(self.ghost1) && is_finite_vec(self.ghost2)) {
            return Err(ShapeError::NonFinite);
        }
        Ok(())
    }
}

/// The chain segments of the polyline `points` (open: its two ends are
/// convex right-angled corners, so a body rolls off them), or of the loop
/// through them (`closed`). Errors: too few points (2 open, 3 closed),
/// a non-finite point, or two consecutive points closer than the weld
/// distance.
pub fn chain_segments(points: &[Vec2], closed: bool) -> Result<Vec<ChainSegment>, ShapeError> {
    let n = points.len();
    if n < if closed { 3 } else { 2 } {
        return Err(ShapeError::TooFewPoints);
    }
    let segments = if closed { n } else { n - 1 };
    let mut out = Vec::with_capacity(segments);
    for i in 0..segments {
        let (p1, p2) = (points[i], points[(i + 1) % n]);
        let segment = Segment::new(p1, p2)?;
        let normal = segment.normal();
        let ghost1 = match (closed, i) {
            (true, _) => points[(i + n - 1) % n],
            // The open start: the surface turns away behind it.
            (false, 0) => p1 - normal,
            (false, _) => points[i - 1],
        };
        let ghost2 = if closed {
            points[(i + 2) % n]
        } else if i + 1 == segments {
            p2 - normal
        } else {
            points[i + 2]
        };
        out.push(ChainSegment {
            ghost1,
            segment,
            ghost2,
        });
    }
    Ok(out)
}
