//! The shape API: attach, remove, read and change shapes, and keep their
//! broadphase proxies where their bodies are.

use super::{BodyId, ShapeId, World};
use crate::body::BodyType;
use crate::error::{BodyError, Error};
use crate::math::{is_finite_vec, Vec2};
use crate::settings::{AABB_MARGIN, AABB_MARGIN_FRACTION, SPECULATIVE_DISTANCE};
use crate::shapes::{decompose_concave, Shape, ShapeError};

/// How many steps of motion ahead a moving shape's re-built fat box
/// reaches, so it is re-inserted in the broadphase tree every few steps, not
/// every step.
const PREDICTION_STEPS: f32 = 2.0;

/// Material and user data of a shape. Start from `ShapeDef::default()`
/// (density 1, friction 0.6, restitution 0).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShapeDef {
    /// Mass per unit area, kg/m^2. Must be positive.
    pub density: f32,
    /// Coulomb friction coefficient, >= 0. Mixed as `sqrt(a * b)`.
    pub friction: f32,
    /// Restitution (bounciness), >= 0; 1 bounces back to the same height.
    /// Mixed as `max(a, b)`.
    pub restitution: f32,
    /// A value of the user's.
    pub user_data: u64,
}

impl Default for ShapeDef {
    fn default() -> Self {
        ShapeDef {
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            user_data: 0,
        }
    }
}

impl ShapeDef {
    fn validate(&self) -> Result<(), ShapeError> {
        if !self.density.is_finite() || !self.friction.is_finite() || !self.restitution.is_finite() {
            return Err(ShapeError::NonFinite);
        }
        if self.density <= 0.0 {
            return Err(ShapeError::NonPositiveDensity);
        }
        if self.friction < 0.0 || self.restitution < 0.0 {
            return Err(ShapeError::InvalidMaterial);
        }
        Ok(())
    }
}

/// A shape as the world keeps it (its slot and generation are the store's).
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(super) struct ShapeSlot {
    pub body: u32,
    pub shape: Shape,
    pub def: ShapeDef,
    pub proxy: u32,
    /// Index of this shape among its body's shapes when it was added: the
    /// compound part index that goes into feature ids.
    pub part: u32,
    /// How far its fat box reaches beyond its tight one (see
    /// [`AABB_MARGIN_FRACTION`]).
    pub margin: f32,
}

impl Default for ShapeSlot {
    /// A unit circle on body 0: the filler of a free slot.
    fn default() -> ShapeSlot {
        ShapeSlot {
            body: 0,
            shape: Shape::Circle(crate::shapes::Circle {
                center: Vec2::ZERO,
                radius: 1.0,
            }),
            def: ShapeDef::default(),
            proxy: 0,
            part: 0,
            margin: 0.0,
        }
    }
}

impl World {
    fn shape_index(&self, id: ShapeId) -> Result<u32, BodyError> {
        if self.shapes.is_current(id.index, id.generation) {
            Ok(id.index)
        } else {
            Err(BodyError::StaleHandle)
        }
    }

    pub(super) fn shape_id(&self, index: u32) -> ShapeId {
        self.shapes.key(index).into()
    }

    /// Attaches a shape to a body; the body's mass is recomputed from all its
    /// shapes. Several shapes on one body make a compound body.
    ///
    /// Errors: a stale body handle, a non-positive or non-finite density, a
    /// negative friction or restitution, a hand-built shape that breaks the
    /// constructors' rules ([`Shape::validate`]), or a shape whose mass
    /// overflows ([`ShapeError::MassOverflow`]).
    pub fn add_shape(
        &mut self,
        body: BodyId,
        shape: impl Into<Shape>,
        def: &ShapeDef,
    ) -> Result<ShapeId, Error> {
        let bi = self.body_index(body)?;
        def.validate()?;
        let shape = shape.into();
        check_shape(&shape, def)?;
        Ok(self.add_shape_unchecked(bi, shape, def))
    }

    fn add_shape_unchecked(&mut self, bi: u32, shape: Shape, def: &ShapeDef) -> ShapeId {
        let aabb = shape.aabb(self.bodies[bi].xf);
        let part = self.bodies[bi].shapes.len() as u32;
        let margin = self.proxy_margin(&shape, self.bodies[bi].body_type);
        let si = self
            .shapes
            .insert(ShapeSlot {
                body: bi,
                shape,
                def: *def,
                proxy: 0,
                part,
                margin,
            })
            .index;
        self.shapes[si].proxy = self.broadphase.create_proxy_with_margin(aabb, si, margin);
        self.bodies[bi].shapes.push(si);
        if !self.bodies[bi].never_awake {
            self.wake_body(bi);
        }
        self.update_mass(bi);
        // A body created moving must meet what it is about to hit on its
        // first step too.
        self.predict_proxies(bi);
        self.shape_id(si)
    }

    /// Splits a concave outline (a simple polygon, either winding) into
    /// convex parts and attaches them all to the body.
    pub fn add_concave(
        &mut self,
        body: BodyId,
        outline: &[Vec2],
        def: &ShapeDef,
    ) -> Result<Vec<ShapeId>, Error> {
        let bi = self.body_index(body)?;
        def.validate()?;
        let parts = decompose_concave(outline)?;
        for p in &parts {
            check_shape(&Shape::Polygon(*p), def)?;
        }
        Ok(parts
            .into_iter()
            .map(|p| self.add_shape_unchecked(bi, Shape::Polygon(p), def))
            .collect())
    }

    /// Removes a shape; its body's mass is recomputed, and the body and
    /// what the shape touched wake up.
    pub fn remove_shape(&mut self, id: ShapeId) -> Result<(), BodyError> {
        let si = self.shape_index(id)?;
        let bi = self.shapes[si].body;
        self.wake_body(bi);
        self.destroy_contacts_of_shape(si);
        self.bodies[bi].shapes.retain(|&s| s != si);
        self.destroy_shape_slot(si);
        self.update_mass(bi);
        Ok(())
    }

    /// Frees a shape slot and its proxy (its contacts must be gone).
    pub(super) fn destroy_shape_slot(&mut self, si: u32) {
        self.broadphase.destroy_proxy(self.shapes[si].proxy);
        self.shapes.remove(si);
    }

    /// The shape's geometry (in its body's frame).
    pub fn shape(&self, id: ShapeId) -> Result<&Shape, BodyError> {
        Ok(&self.shapes[self.shape_index(id)?].shape)
    }

    /// The shape's material.
    pub fn shape_def(&self, id: ShapeId) -> Result<&ShapeDef, BodyError> {
        Ok(&self.shapes[self.shape_index(id)?].def)
    }

    /// The body a shape is attached to.
    pub fn shape_body(&self, id: ShapeId) -> Result<BodyId, BodyError> {
        let si = self.shape_index(id)?;
        Ok(self.body_id(self.shapes[si].body))
    }

    /// Number of live shapes: O(1).
    pub fn shape_count(&self) -> usize {
        self.shapes.count()
    }

    /// Sets a shape's friction (>= 0). Existing contacts keep their mixed
    /// value until they are recreated.
    pub fn set_friction(&mut self, id: ShapeId, friction: f32) -> Result<(), Error> {
        let si = self.shape_index(id)?;
        let def = ShapeDef {
            friction,
            ..self.shapes[si].def
        };
        def.validate()?;
        self.shapes[si].def = def;
        Ok(())
    }

    /// Sets a shape's restitution (>= 0).
    pub fn set_restitution(&mut self, id: ShapeId, restitution: f32) -> Result<(), Error> {
        let si = self.shape_index(id)?;
        let def = ShapeDef {
            restitution,
            ..self.shapes[si].def
        };
        def.validate()?;
        self.shapes[si].def = def;
        Ok(())
    }

    /// The fat-box margin of a shape on a body of this type.
    pub(super) fn proxy_margin(&self, shape: &Shape, body_type: BodyType) -> f32 {
        let lu = self.settings.length_units_per_meter;
        match body_type {
            BodyType::Static => SPECULATIVE_DISTANCE * lu,
            _ => (AABB_MARGIN_FRACTION * shape.extent()).min(AABB_MARGIN * lu),
        }
    }

    /// Moves the body's proxies to cover where it is and where its velocity
    /// takes it in the next step, so a fast body meets what it is about to
    /// hit in time for a speculative contact to stop it. Called after each
    /// step, when a body is placed or gets a shape, and when the user gives
    /// a body a new velocity between steps
    /// (a body kicked towards a wall must find the wall in the very next
    /// step, not one step late on the other side of it). Only the linear
    /// travel is looked ahead for: padding for spin too was measured to
    /// cost 5 to 10% on the benchmark's smash and pile (more boxes grow,
    /// more pairs are found), and the fat margin and the speculative
    /// distance cover the turn of one step for all but long, fast-spinning
    /// bodies.
    pub(super) fn predict_proxies(&mut self, bi: u32) {
        let b = &self.bodies[bi];
        let travel = self.last_dt * b.v;
        let xf = b.xf;
        for &s in &b.shapes {
            let slot = &self.shapes[s];
            let mut aabb = slot.shape.aabb(xf);
            aabb.min += travel.min(Vec2::ZERO);
            aabb.max += travel.max(Vec2::ZERO);
            self.broadphase
                .move_proxy_predictive(slot.proxy, aabb, slot.margin, PREDICTION_STEPS * travel);
        }
    }
}

/// Checks a shape before it joins a body: its geometry (its fields are
/// public, so it may not have come from a constructor) and that its mass
/// and inertia at the shape's density fit in `f32`.
pub(super) fn check_shape(shape: &Shape, def: &ShapeDef) -> Result<(), ShapeError> {
    shape.validate()?;
    let md = shape.mass(def.density);
    if !(md.mass.is_finite() && md.inertia.is_finite() && is_finite_vec(md.center)) {
        return Err(ShapeError::MassOverflow);
    }
    Ok(())
}
