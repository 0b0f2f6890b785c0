//! Narrowphase: contact manifolds between pairs of shapes.
//!
//! [`collide`] dispatches on the shape pair and returns a [`Manifold`] whose
//! normal points **from shape A to shape B**, with up to two points, each with
//! its own separation and feature id.

use crate::math::{Transform, Vec2};
use crate::shapes::Shape;

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
}
