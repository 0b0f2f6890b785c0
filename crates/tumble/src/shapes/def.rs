//! [`ShapeDef`]: what a shape is made of and how it takes part, apart
//! from its geometry.

use super::ShapeError;
use crate::filter::Filter;

/// Material, filtering, event flags and user data of a shape. Start from
/// `ShapeDef::default()` (density 1, friction 0.6, restitution 0, the
/// default [`Filter`], a solid shape reporting begin and end touch events
/// and seen by sensors) and set what differs.
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
    /// The speed (m/s) the shape's surface moves at, clockwise around the
    /// shape, with the shape itself still: a conveyor belt. A positive
    /// speed carries what lies on a belt's top face towards +x (and what
    /// presses on its bottom face towards -x, as a real belt's return run
    /// does). Two shapes' speeds add; friction drives what touches towards
    /// the surface's speed, as far as it grips. Zero by default; changed
    /// at run time with [`World::set_tangent_speed`](crate::World::set_tangent_speed).
    pub tangent_speed: f32,
    /// Rolling resistance, >= 0 (0 by default): the torque resisting a
    /// round shape's rolling is this times the normal force times the
    /// shape's radius, as a tyre's or a ball's on soft ground (Box2D
    /// v3.1's rolling resistance). A ball rolling on level ground at `v`
    /// then stops after `v^2 / (2 a)`, `a = c g / (1 + I / (m r^2))`.
    /// Mixed as `max(a, b)`, over the larger of the two shapes' radii (a
    /// circle's or a capsule's radius, a polygon's rounding): shapes with
    /// no radius do not roll.
    pub rolling_resistance: f32,
    /// A value of the user's.
    pub user_data: u64,
    /// Which shapes this one collides with (category, mask, group); see
    /// [`Filter`]. Changed at run time with [`World::set_filter`](crate::World::set_filter).
    pub filter: Filter,
    /// A sensor detects the shapes that overlap it and pushes nothing: no
    /// contact is made with it, and its overlaps are reported as sensor
    /// events ([`World::sensor_events`](crate::World::sensor_events)) at the end of each step. A sensor
    /// still adds its density's mass to its body.
    pub sensor: bool,
    /// For a shape that is not a sensor: whether sensors see it. For a
    /// sensor: whether it reports anything. On by default.
    pub sensor_events: bool,
    /// For a sensor: whether shapes on static bodies count as visitors too
    /// (off by default: a trigger zone usually cares only about what moves).
    pub sensor_detects_static: bool,
    /// Whether this shape's contacts report begin and end touch events
    /// ([`World::contact_events`](crate::World::contact_events)); a contact reports them if either of its
    /// shapes asks. On by default.
    pub contact_events: bool,
    /// Whether this shape's contacts report hit events (a contact that
    /// begins touching faster than
    /// [`WorldSettings::hit_event_threshold`](crate::WorldSettings::hit_event_threshold));
    /// a contact reports them if either shape asks. Off by default.
    pub hit_events: bool,
    /// Whether [`ContactHooks::pre_solve`](crate::ContactHooks::pre_solve)
    /// is called for this shape's touching contacts (in
    /// [`World::step_with_hooks`](crate::World::step_with_hooks)). Off by default.
    pub pre_solve: bool,
    /// Whether [`ContactHooks::should_collide`](crate::ContactHooks::should_collide)
    /// is asked before a contact of this shape is made (in
    /// [`World::step_with_hooks`](crate::World::step_with_hooks)). Off by default.
    pub custom_filter: bool,
}

impl Default for ShapeDef {
    fn default() -> Self {
        ShapeDef {
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            tangent_speed: 0.0,
            rolling_resistance: 0.0,
            user_data: 0,
            filter: Filter::default(),
            sensor: false,
            sensor_events: true,
            sensor_detects_static: false,
            contact_events: true,
            hit_events: false,
            pre_solve: false,
            custom_filter: false,
        }
    }
}

impl ShapeDef {
    /// Checks the material: finite numbers, a positive density, and a
    /// friction and restitution that are not negative.
    pub(crate) fn validate(&self) -> Result<(), ShapeError> {
        if !(self.density.is_finite()
            && self.friction.is_finite()
            && self.restitution.is_finite()
            && self.tangent_speed.is_finite()
            && self.rolling_resistance.is_finite())
        {
            return Err(ShapeError::NonFinite);
        }
        if self.density <= 0.0 {
            return Err(ShapeError::NonPositiveDensity);
        }
        if self.friction < 0.0 || self.restitution < 0.0 || self.rolling_resistance < 0.0 {
            return Err(ShapeError::InvalidMaterial);
        }
        Ok(())
    }
}
