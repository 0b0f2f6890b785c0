//! Every check of the user's input, in one place: what a call refuses
//! (numbers that are not finite, positions and shapes past the world's
//! extent, masses and settings out of range) is decided here, before the
//! call changes anything, so a refused call leaves the world as it was
//! and the step never meets a number it cannot compute with.

use super::World;
use crate::error::{BodyError, Error, JointError};
use crate::math::{is_finite_vec, Transform, Vec2};
use crate::settings::{MAX_STEP_SPLITS_LIMIT, MIN_STEP, WORLD_EXTENT};
use crate::shapes::ShapeDef;
use crate::shapes::{combine_mass, MassData, Shape, ShapeError};

impl World {
    /// The world extent in the world's length unit
    /// ([`WORLD_EXTENT`](crate::settings::WORLD_EXTENT)).
    pub(super) fn world_extent(&self) -> f32 {
        WORLD_EXTENT * self.settings.length_units_per_meter
    }

    /// Whether point `p` lies within the world extent on both axes (a NaN
    /// does not).
    pub(super) fn within_extent(&self, p: Vec2) -> bool {
        crate::math::within_extent(p, self.world_extent())
    }

    /// Checks a body position given by the user: finite and within the
    /// [`WORLD_EXTENT`](crate::settings::WORLD_EXTENT).
    pub(super) fn check_position(&self, p: Vec2) -> Result<(), BodyError> {
        if !is_finite_vec(p) {
            return Err(BodyError::NonFinite("position"));
        }
        if !self.within_extent(p) {
            return Err(BodyError::OutOfRange("position"));
        }
        Ok(())
    }

    /// Refuses a shape reaching farther from its body's origin than the
    /// world extent: added to a body placed within the extent, its far
    /// side stays where `f32` still resolves a contact, and no bounding
    /// box, mass or distance computed from it overflows.
    pub(super) fn check_reach(&self, shape: &Shape) -> Result<(), ShapeError> {
        let local = shape.aabb(crate::math::Transform::IDENTITY);
        let reach = local.min.abs().max(local.max.abs()).max_element();
        if reach <= self.world_extent() {
            Ok(())
        } else {
            Err(ShapeError::TooFar)
        }
    }

    /// Refuses parts whose masses, each finite, would overflow the body's
    /// total (its mass, center or inertia) together with its shapes'.
    pub(super) fn check_body_mass(&self, bi: u32, new: &[MassData]) -> Result<(), ShapeError> {
        let mut parts: Vec<MassData> = self.bodies[bi]
            .shapes
            .iter()
            .map(|&si| self.shapes[si].shape.mass(self.shapes[si].def.density))
            .collect();
        parts.extend_from_slice(new);
        let md = combine_mass(&parts);
        if !(md.mass.is_finite() && md.inertia.is_finite() && is_finite_vec(md.center)) {
            return Err(ShapeError::MassOverflow);
        }
        Ok(())
    }

    /// Checks mass data given by hand: finite; a positive mass and a
    /// non-negative inertia whose inverses are finite (zero inertia: the
    /// body does not turn); a center within the world extent.
    pub(super) fn check_mass_data(&self, md: &MassData) -> Result<(), BodyError> {
        if !(md.mass.is_finite() && md.inertia.is_finite() && is_finite_vec(md.center)) {
            return Err(BodyError::NonFinite("mass data"));
        }
        if !(md.mass > 0.0 && (1.0 / md.mass).is_finite()) {
            return Err(BodyError::OutOfRange("mass"));
        }
        if md.inertia < 0.0 || (md.inertia > 0.0 && !(1.0 / md.inertia).is_finite()) {
            return Err(BodyError::OutOfRange("inertia"));
        }
        if !self.within_extent(md.center) {
            return Err(BodyError::OutOfRange("center of mass"));
        }
        Ok(())
    }

    /// Checks a point a query starts from or looks at: finite and within
    /// the world extent. `what` names it in the error.
    pub(super) fn check_query_point(&self, p: Vec2, what: &'static str) -> Result<(), BodyError> {
        if !is_finite_vec(p) {
            return Err(BodyError::NonFinite(what));
        }
        if !self.within_extent(p) {
            return Err(BodyError::OutOfRange(what));
        }
        Ok(())
    }

    /// Checks a query's translation: finite, and no longer on an axis than
    /// the world is wide (twice the extent), so its end stays where `f32`
    /// still resolves a hit.
    pub(super) fn check_query_translation(&self, t: Vec2, what: &'static str) -> Result<(), BodyError> {
        if !is_finite_vec(t) {
            return Err(BodyError::NonFinite(what));
        }
        if t.abs().max_element() > 2.0 * self.world_extent() {
            return Err(BodyError::OutOfRange(what));
        }
        Ok(())
    }

    /// Checks a shape the user placed for a query: its geometry and reach
    /// as [`World::create_shape`] checks them, and its transform finite and
    /// within the world extent.
    pub(super) fn check_placed(&self, shape: &Shape, xf: Transform) -> Result<(), Error> {
        shape.validate()?;
        self.check_reach(shape)?;
        let (c, s) = (xf.q.c, xf.q.s);
        if !(c.is_finite() && s.is_finite()) {
            return Err(BodyError::NonFinite("transform").into());
        }
        // A hand-built rotation must be one: a longer one would scale the
        // shape, a shorter one shrink it.
        if (c * c + s * s - 1.0).abs() > 1e-3 {
            return Err(BodyError::OutOfRange("transform rotation").into());
        }
        self.check_query_point(xf.p, "transform")?;
        Ok(())
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
    // So light (a subnormal density, a speck) that the solver's inverse
    // mass or inertia would be infinite. Parts only add to a body's mass
    // and (about its center) inertia, so a body of such parts is safe too.
    let inverse_overflows = |x: f32| x > 0.0 && !(1.0 / x).is_finite();
    if inverse_overflows(md.mass) || inverse_overflows(md.inertia) {
        return Err(ShapeError::MassOverflow);
    }
    Ok(())
}

/// Both frames are finite, or the error names the first that is not.
pub(super) fn check_frames(frame_a: Transform, frame_b: Transform) -> Result<(), JointError> {
    if !finite_frame(&frame_a) {
        return Err(JointError::NonFinite("frame a"));
    }
    if !finite_frame(&frame_b) {
        return Err(JointError::NonFinite("frame b"));
    }
    Ok(())
}

/// Whether every number of `frame` is finite.
pub(super) fn finite_frame(frame: &Transform) -> bool {
    is_finite_vec(frame.p) && frame.q.c.is_finite() && frame.q.s.is_finite()
}

/// Whether `units` can be [`WorldSettings::length_units_per_meter`]
/// (within [`LENGTH_UNITS_RANGE`](crate::settings::LENGTH_UNITS_RANGE)).
pub(super) fn length_units_ok(units: f32) -> bool {
    crate::settings::LENGTH_UNITS_RANGE.contains(&units)
}

/// Whether `threshold` can be [`WorldSettings::hit_event_threshold`]:
/// finite and not negative.
pub(super) fn hit_threshold_ok(threshold: f32) -> bool {
    threshold.is_finite() && threshold >= 0.0
}

/// Whether `speed` can be [`WorldSettings::max_linear_speed`].
pub(super) fn check_max_linear_speed(speed: f32) -> Result<(), BodyError> {
    if !speed.is_finite() {
        return Err(BodyError::NonFinite("max linear speed"));
    }
    if speed <= 0.0 {
        return Err(BodyError::OutOfRange("max linear speed"));
    }
    Ok(())
}

/// Whether `max_step` and `max_splits` can be [`WorldSettings::max_step`]
/// and [`WorldSettings::max_step_splits`].
pub(super) fn check_max_step(max_step: f32, max_splits: u32) -> Result<(), BodyError> {
    if !max_step.is_finite() {
        return Err(BodyError::NonFinite("max step"));
    }
    if max_step < MIN_STEP {
        return Err(BodyError::OutOfRange("max step"));
    }
    if !(1..=MAX_STEP_SPLITS_LIMIT).contains(&max_splits) {
        return Err(BodyError::OutOfRange("max step splits"));
    }
    Ok(())
}
