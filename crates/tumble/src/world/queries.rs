//! Queries: which shapes are at a point, in a box, overlapping a shape,
//! along a ray or in the way of a moving shape; and explosions.
//!
//! Every query takes a [`QueryFilter`] and reports shapes in a
//! deterministic order: the `overlap_*` queries and [`World::ray_cast_all`]
//! in a documented order into a buffer the caller owns (cleared first, and
//! grown only when too small, so a reused buffer allocates nothing), the
//! closest-hit queries break ties by shape slot.
//!
//! Every query checks its numbers first and refuses bad ones with an
//! error, never an empty answer that looks like "nothing there": a NaN or
//! infinite point, translation or transform
//! ([`BodyError::NonFinite`], naming it); a point (a ray's origin, a
//! placed shape's position) beyond the world extent
//! ([`WORLD_EXTENT`](crate::settings::WORLD_EXTENT) times the length
//! unit), or a translation longer on an axis than the world is wide (twice
//! the extent) ([`BodyError::OutOfRange`]); a query shape that breaks its
//! constructors' rules or reaches beyond the extent from its origin
//! ([`Error::Shape`]).

use super::shapes::ShapeSlot;
use super::{BodyId, ShapeId, World};
use crate::body::BodyType;
use crate::collision::{ray_cast, shape_distance, time_of_impact};
use crate::error::{BodyError, Error};
use crate::filter::QueryFilter;
use crate::math::{is_finite_vec, left_perp, Aabb, Transform, Vec2};
use crate::shapes::{ChainSegment, Circle, Shape};

/// A shape hit by a ray.
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

/// The first shape in the way of a shape moved along a translation
/// ([`World::shape_cast`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCastHit {
    /// The shape hit.
    pub shape: ShapeId,
    /// Its body.
    pub body: BodyId,
    /// Fraction of the translation travelled before touching, 0..=1 (0
    /// when the cast shape starts overlapping it).
    pub fraction: f32,
    /// The point of the hit shape's surface where they touch.
    pub point: Vec2,
    /// The hit shape's surface normal there, pointing towards the cast
    /// shape.
    pub normal: Vec2,
}

/// An explosion for [`World::explode`]: every dynamic body with a shape
/// within `radius + falloff` of `center` is pushed away from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Explosion {
    /// Where it goes off.
    pub center: Vec2,
    /// Within this distance of the center, the full impulse.
    pub radius: f32,
    /// Beyond `radius`, the impulse falls off linearly to zero over this
    /// distance.
    pub falloff: f32,
    /// Impulse (N s) per metre of the shape's width facing the blast: a
    /// long plank side-on takes more than a pebble.
    pub impulse_per_length: f32,
    /// Which shapes it reaches.
    pub filter: QueryFilter,
}

impl World {
    /// Whether shape slot `si` passes `filter`.
    #[inline]
    fn accepts(&self, filter: &QueryFilter, si: u32) -> bool {
        filter.accepts(&self.shapes[si].def.filter)
    }

    /// The shapes, in slot order, into `out` (cleared first) whose fat
    /// boxes overlap `aabb` and for which `keep` holds. `keep` is asked
    /// only of shapes with a category in `mask` (the tree skips the
    /// branches without one), so it must refuse every other shape.
    fn overlapping(
        &self,
        (aabb, mask): (Aabb, u64),
        out: &mut Vec<ShapeId>,
        mut keep: impl FnMut(u32, &ShapeSlot) -> bool,
    ) {
        out.clear();
        self.broadphase.query_categories(aabb, mask, |proxy| {
            let si = self.broadphase.user_data(proxy);
            if keep(si, &self.shapes[si]) {
                out.push(self.shape_id(si));
            }
            true
        });
        out.sort_unstable();
    }

    /// The shapes containing world point `p` that pass `filter`, in slot
    /// order, into `out`. Errors: `p` is not finite, or beyond the world
    /// extent (`out` is then left empty).
    pub fn overlap_point(&self, p: Vec2, filter: QueryFilter, out: &mut Vec<ShapeId>) -> Result<(), Error> {
        out.clear();
        self.check_query_point(p, "point")?;
        self.overlapping((Aabb::new(p, p), filter.mask), out, |si, slot| {
            self.accepts(&filter, si) && slot.shape.contains_point(self.bodies[slot.body].xf, p)
        });
        Ok(())
    }

    /// The shapes whose bounding boxes (tight, not the broadphase's fat
    /// ones) overlap `aabb` and that pass `filter`, in slot order, into
    /// `out`. A box larger than the world finds every shape. Errors: a
    /// corner is not finite (`out` is then left empty).
    pub fn overlap_aabb(&self, aabb: Aabb, filter: QueryFilter, out: &mut Vec<ShapeId>) -> Result<(), Error> {
        out.clear();
        if !(is_finite_vec(aabb.min) && is_finite_vec(aabb.max)) {
            return Err(BodyError::NonFinite("aabb").into());
        }
        self.overlapping((aabb, filter.mask), out, |si, slot| {
            self.accepts(&filter, si) && slot.shape.aabb(self.bodies[slot.body].xf).overlaps(aabb)
        });
        Ok(())
    }

    /// The shapes that overlap `shape` placed at `xf` (their surfaces
    /// intersect) and pass `filter`, in slot order, into `out`. Errors: the
    /// shape breaks its constructors' rules or reaches beyond the world
    /// extent from its origin, or `xf` is not finite or is placed beyond
    /// the extent (see the module's docs).
    pub fn overlap_shape(
        &self,
        shape: &Shape,
        xf: Transform,
        filter: QueryFilter,
        out: &mut Vec<ShapeId>,
    ) -> Result<(), Error> {
        out.clear();
        self.check_placed(shape, xf)?;
        self.overlapping((shape.aabb(xf), filter.mask), out, |si, slot| {
            self.accepts(&filter, si)
                && shape_distance(shape, &xf, &slot.shape, &self.bodies[slot.body].xf).distance < 0.0
        });
        Ok(())
    }

    /// Casts the ray from `origin` along `translation` and calls `callback`
    /// for each shape that passes `filter` and is hit, in the broadphase
    /// tree's order (deterministic, not sorted). The callback's answer steers
    /// the rest of the cast (Box2D's protocol): a negative number ignores
    /// this hit and goes on; 0 stops; a fraction clips the ray there (later
    /// hits are only those nearer than it); 1 goes on unclipped. So
    /// returning `hit.fraction` each time finds the closest hit.
    ///
    /// Errors (the callback is then never called): `origin` or
    /// `translation` is not finite, the origin is beyond the world extent,
    /// or the translation is longer on an axis than twice the extent.
    pub fn ray_cast(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: QueryFilter,
        mut callback: impl FnMut(&RayHit) -> f32,
    ) -> Result<(), Error> {
        self.check_query_point(origin, "ray origin")?;
        self.check_query_translation(translation, "ray translation")?;
        self.broadphase
            .ray_cast(origin, translation, filter.mask, |proxy, max_fraction| {
                let si = self.broadphase.user_data(proxy);
                if !self.accepts(&filter, si) {
                    return -1.0;
                }
                let slot = &self.shapes[si];
                match ray_cast(&slot.shape, self.bodies[slot.body].xf, origin, translation) {
                    Some(hit) if hit.fraction <= max_fraction => callback(&RayHit {
                        shape: self.shape_id(si),
                        body: self.body_id(slot.body),
                        point: hit.point,
                        normal: hit.normal,
                        fraction: hit.fraction,
                    }),
                    _ => -1.0,
                }
            });
        Ok(())
    }

    /// The first shape that passes `filter` hit by the ray from `origin`
    /// along `translation` (the lower shape slot on a tie). Errors as
    /// [`World::ray_cast`].
    pub fn ray_cast_closest(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: QueryFilter,
    ) -> Result<Option<RayHit>, Error> {
        let mut best: Option<RayHit> = None;
        self.ray_cast(origin, translation, filter, |hit| {
            let better = best.is_none_or(|b| {
                hit.fraction < b.fraction || (hit.fraction == b.fraction && hit.shape < b.shape)
            });
            if better {
                best = Some(*hit);
            }
            // Clip to the hit, but keep finding ties at exactly it.
            hit.fraction.max(f32::MIN_POSITIVE)
        })?;
        Ok(best)
    }

    /// Every shape that passes `filter` hit by the ray from `origin` along
    /// `translation`, nearest first (ties by shape slot), into `out`.
    /// Errors as [`World::ray_cast`] (`out` is then left empty).
    pub fn ray_cast_all(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: QueryFilter,
        out: &mut Vec<RayHit>,
    ) -> Result<(), Error> {
        out.clear();
        self.ray_cast(origin, translation, filter, |hit| {
            out.push(*hit);
            1.0
        })?;
        out.sort_unstable_by(|a, b| a.fraction.total_cmp(&b.fraction).then(a.shape.cmp(&b.shape)));
        Ok(())
    }

    /// Moves `shape` from `xf` along `translation` (without turning) and
    /// returns the first shape passing `filter` that it would touch: how
    /// far it got, where, and the surface normal there (the lower shape
    /// slot on a tie). A character's ground check, a thrown object's path.
    /// Errors: those of [`World::overlap_shape`], or a translation that is
    /// not finite or is longer on an axis than twice the world extent.
    pub fn shape_cast(
        &self,
        shape: &Shape,
        xf: Transform,
        translation: Vec2,
        filter: QueryFilter,
    ) -> Result<Option<ShapeCastHit>, Error> {
        self.check_placed(shape, xf)?;
        self.check_query_translation(translation, "translation")?;
        Ok(
            self.cast_shape_where(shape, (xf, translation), filter.mask, |si, _| {
                self.accepts(&filter, si)
            }),
        )
    }

    /// [`World::shape_cast`] over the shapes `keep` selects, unchecked.
    /// `keep` is asked only of shapes with a category in `mask`, so it
    /// must refuse every other shape.
    pub(super) fn cast_shape_where(
        &self,
        shape: &Shape,
        (xf, translation): (Transform, Vec2),
        mask: u64,
        keep: impl Fn(u32, &ShapeSlot) -> bool,
    ) -> Option<ShapeCastHit> {
        let end = Transform {
            p: xf.p + translation,
            q: xf.q,
        };
        let swept = shape.aabb(xf).union(shape.aabb(end));
        let mut best: Option<(f32, u32)> = None;
        self.broadphase.query_categories(swept, mask, |proxy| {
            let si = self.broadphase.user_data(proxy);
            let slot = &self.shapes[si];
            if !keep(si, slot) {
                return true;
            }
            let at = self.bodies[slot.body].xf;
            if let Some(t) = time_of_impact(&slot.shape, (at, at), shape, (xf, end), 0.0) {
                if best.is_none_or(|(bt, bs)| t < bt || (t == bt && si < bs)) {
                    best = Some((t, si));
                }
            }
            true
        });
        best.map(|(t, si)| {
            let slot = &self.shapes[si];
            let at = self.bodies[slot.body].xf;
            let there = Transform {
                p: xf.p + t * translation,
                q: xf.q,
            };
            let d = shape_distance(&slot.shape, &at, shape, &there);
            // The distance of two shapes within the world extent is
            // finite; should it not be, the hit still reports finite
            // numbers: the cast shape's origin, facing back along the cast.
            let normal = if is_finite_vec(d.normal) && d.normal != Vec2::ZERO {
                d.normal
            } else {
                -translation.normalize_or(Vec2::Y)
            };
            ShapeCastHit {
                shape: self.shape_id(si),
                body: self.body_id(slot.body),
                fraction: t,
                point: if is_finite_vec(d.point_a) {
                    d.point_a
                } else {
                    there.p
                },
                normal,
            }
        })
    }

    /// Pushes every awake or sleeping dynamic body with a shape (passing
    /// the explosion's filter) within `radius + falloff` of the center away
    /// from it, waking it: each such shape gets an impulse at its point
    /// nearest the center, of `impulse_per_length` times its width facing
    /// the blast, scaled from 1 at `radius` down to 0 at `radius +
    /// falloff`. Shapes are pushed in slot order.
    ///
    /// Errors, decided before any body is pushed (so the world is then
    /// unchanged): a non-finite number ([`BodyError::NonFinite`]); a
    /// negative radius, falloff or impulse (an explosion pushes out, never
    /// in), or a center beyond the world extent
    /// ([`BodyError::OutOfRange`]); an impulse or a body's new velocity
    /// that overflows `f32` ([`BodyError::NonFinite`]`("impulse")`).
    pub fn explode(&mut self, explosion: &Explosion) -> Result<(), BodyError> {
        let Explosion {
            center,
            radius,
            falloff,
            impulse_per_length,
            filter: _,
        } = *explosion;
        if !is_finite_vec(center)
            || !radius.is_finite()
            || !falloff.is_finite()
            || !impulse_per_length.is_finite()
        {
            return Err(BodyError::NonFinite("explosion"));
        }
        if radius < 0.0 || falloff < 0.0 {
            return Err(BodyError::OutOfRange("explosion radius or falloff"));
        }
        if impulse_per_length < 0.0 {
            return Err(BodyError::OutOfRange("explosion impulse"));
        }
        if !self.within_extent(center) {
            return Err(BodyError::OutOfRange("explosion center"));
        }
        let pushes = self.explosion_pushes(explosion);
        // Every push and every body's velocity after all of its pushes must
        // be finite before the first is applied: an error must leave the
        // world as it was.
        let mut by_body: Vec<&(u32, Vec2, Vec2)> = pushes.iter().collect();
        by_body.sort_by_key(|&&(bi, _, _)| bi);
        let mut k = 0;
        while k < by_body.len() {
            let bi = by_body[k].0;
            let b = &self.bodies[bi];
            let (mut v, mut w) = (b.v, b.w);
            while k < by_body.len() && by_body[k].0 == bi {
                let (_, impulse, point) = *by_body[k];
                if !(is_finite_vec(impulse) && is_finite_vec(point)) {
                    return Err(BodyError::NonFinite("impulse"));
                }
                v += b.inv_mass * impulse;
                w += b.inv_inertia * crate::math::cross(point - b.center, impulse);
                k += 1;
            }
            if !(is_finite_vec(v) && w.is_finite()) {
                return Err(BodyError::NonFinite("impulse"));
            }
        }
        for (bi, impulse, point) in pushes {
            let body = self.body_id(bi);
            self.apply_linear_impulse(body, impulse, point)?;
        }
        Ok(())
    }

    /// The pushes of an explosion whose numbers were checked: per shape
    /// reached, in slot order, its body, the impulse and where it acts.
    fn explosion_pushes(&self, explosion: &Explosion) -> Vec<(u32, Vec2, Vec2)> {
        let Explosion {
            center,
            radius,
            falloff,
            impulse_per_length,
            filter,
        } = *explosion;
        let reach = radius + falloff;
        let mut hit = Vec::new();
        let probe: Shape = Circle { center, radius: 0.0 }.into();
        let around = Aabb::new(center, center).expanded(reach);
        self.overlapping((around, filter.mask), &mut hit, |_, slot| {
            filter.accepts(&slot.def.filter) && self.bodies[slot.body].body_type == BodyType::Dynamic
        });
        let mut pushes = Vec::with_capacity(hit.len());
        for id in hit {
            let si = id.index;
            let slot = &self.shapes[si];
            let b = &self.bodies[slot.body];
            let d = shape_distance(&probe, &Transform::IDENTITY, &slot.shape, &b.xf);
            let distance = d.distance.max(0.0);
            if distance > reach {
                continue;
            }
            let scale = if distance <= radius || falloff == 0.0 {
                1.0
            } else {
                1.0 - (distance - radius) / falloff
            };
            // Away from the center; from inside the shape, towards its body.
            let direction = if d.distance > 0.0 {
                d.normal
            } else {
                (b.center - center).normalize_or(Vec2::X)
            };
            let width = projected_width(&slot.shape, b.xf, direction);
            let impulse = (impulse_per_length * width * scale) * direction;
            let point = if d.distance > 0.0 { d.point_b } else { center };
            pushes.push((slot.body, impulse, point));
        }
        pushes
    }
}

impl World {}

/// The width of `shape` placed at `xf` seen along `direction` (a unit
/// vector): its extent across it.
fn projected_width(shape: &Shape, xf: Transform, direction: Vec2) -> f32 {
    let across = left_perp(direction);
    let span = |points: &mut dyn Iterator<Item = Vec2>, radius: f32| {
        let (lo, hi) = points
            .map(|p| xf.apply(p).dot(across))
            .fold((f32::MAX, f32::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
        hi - lo + 2.0 * radius
    };
    match shape {
        Shape::Circle(c) => 2.0 * c.radius,
        Shape::Capsule(c) => span(&mut [c.center1, c.center2].into_iter(), c.radius),
        Shape::Polygon(p) => span(&mut p.vertices[..p.count].iter().copied(), p.radius),
        Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
            span(&mut [s.point1, s.point2].into_iter(), 0.0)
        }
    }
}
