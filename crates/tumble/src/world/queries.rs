//! Queries: which shapes are at a point, in a box, along a ray.

use super::{BodyId, ShapeId, World};
use crate::collision::ray_cast;
use crate::math::{is_finite_vec, Aabb, Vec2};

/// The closest hit of a ray cast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The shape hit.
    pub shape: ShapeId,
    /// Its body.
    pub body: BodyId,
    /// World point of the hit.
    pub point: Vec2,
    /// Surface normal at the hit.
    pub normal: Vec2,
    /// Fraction of the ray's translation at the hit, 0..=1.
    pub fraction: f32,
}

impl World {
    /// Shapes containing the world point `p`, in slot order.
    pub fn shapes_at_point(&self, p: Vec2) -> Vec<ShapeId> {
        if !is_finite_vec(p) {
            return Vec::new();
        }
        let mut hits: Vec<u32> = Vec::new();
        self.broadphase.query(Aabb::new(p, p), |proxy| {
            let si = self.broadphase.user_data(proxy);
            let slot = &self.shapes[si];
            if slot.shape.contains_point(self.bodies[slot.body].xf, p) {
                hits.push(si);
            }
            true
        });
        hits.sort_unstable();
        hits.into_iter().map(|s| self.shape_id(s)).collect()
    }

    /// Shapes whose fat bounding boxes overlap `aabb`, in slot order.
    pub fn shapes_in_aabb(&self, aabb: Aabb) -> Vec<ShapeId> {
        let mut hits: Vec<u32> = Vec::new();
        self.broadphase.query(aabb, |proxy| {
            hits.push(self.broadphase.user_data(proxy));
            true
        });
        hits.sort_unstable();
        hits.into_iter().map(|s| self.shape_id(s)).collect()
    }

    /// The first shape hit by the ray from `origin` along `translation`.
    pub fn ray_cast_closest(&self, origin: Vec2, translation: Vec2) -> Option<RayHit> {
        if !is_finite_vec(origin) || !is_finite_vec(translation) {
            return None;
        }
        let mut best: Option<RayHit> = None;
        self.broadphase
            .ray_cast(origin, translation, |proxy, max_fraction| {
                let si = self.broadphase.user_data(proxy);
                let slot = &self.shapes[si];
                let xf = self.bodies[slot.body].xf;
                match ray_cast(&slot.shape, xf, origin, translation) {
                    Some(hit) if hit.fraction <= max_fraction => {
                        best = Some(RayHit {
                            shape: self.shape_id(si),
                            body: self.body_id(slot.body),
                            point: hit.point,
                            normal: hit.normal,
                            fraction: hit.fraction,
                        });
                        hit.fraction
                    }
                    _ => max_fraction,
                }
            });
        best
    }
}
