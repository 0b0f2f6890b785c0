//! Persistent contacts: one per pair of shapes whose fat bounding boxes
//! overlap. A contact keeps its manifold from step to step, which is the
//! warm-start cache: new points inherit the impulses of old points with the
//! same feature id.

use crate::collision::{collide, Manifold};
use crate::math::Transform;
use crate::shapes::Shape;

/// A contact between two shapes, kept while their fat AABBs overlap.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Contact {
    pub alive: bool,
    pub shape_a: u32,
    pub shape_b: u32,
    pub body_a: u32,
    pub body_b: u32,
    /// Mixed friction: `sqrt(mu_a * mu_b)`.
    pub friction: f32,
    /// Mixed restitution: `max(e_a, e_b)`.
    pub restitution: f32,
    /// Compound part bits OR-ed into every feature id.
    pub part_bits: u64,
    pub manifold: Manifold,
}

/// Mixes two friction coefficients: the geometric mean, so a frictionless
/// surface makes any contact frictionless.
#[inline]
pub fn mix_friction(a: f32, b: f32) -> f32 {
    (a * b).sqrt()
}

/// Mixes two restitutions: the bouncier wins, so a rubber ball bounces on
/// concrete.
#[inline]
pub fn mix_restitution(a: f32, b: f32) -> f32 {
    a.max(b)
}

impl Contact {
    /// Recomputes the manifold and carries the accumulated impulses of
    /// points whose feature ids persist.
    pub(crate) fn update(
        &mut self,
        shape_a: &Shape,
        xf_a: Transform,
        shape_b: &Shape,
        xf_b: Transform,
        speculative: f32,
    ) {
        let old = self.manifold;
        let mut m = collide(shape_a, xf_a, shape_b, xf_b, speculative);
        for p in m.points_mut() {
            p.id |= self.part_bits;
            p.normal_impulse = 0.0;
            p.tangent_impulse = 0.0;
            p.persisted = false;
            if let Some(o) = old.points().iter().find(|o| o.id == p.id) {
                p.normal_impulse = o.normal_impulse;
                p.tangent_impulse = o.tangent_impulse;
                p.persisted = true;
            }
        }
        self.manifold = m;
    }
}
