//! Contact events: which pairs of shapes began and stopped touching in the
//! last step, returned as slices ([`World::contact_events`](crate::World::contact_events))
//! that stay valid until the next step. No callbacks.

use crate::id::{BodyId, ShapeId};
use crate::math::Vec2;

/// Two shapes whose contact began touching (gained its first manifold
/// point: touching, or within the speculative distance) or stopped (lost
/// its last point, their fat boxes parted, or one of them, or its body,
/// was removed or changed type; for a removed shape the handles are
/// stale).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactTouch {
    /// The first shape (the normal points away from it).
    pub shape_a: ShapeId,
    /// The second shape.
    pub shape_b: ShapeId,
    /// The first shape's body.
    pub body_a: BodyId,
    /// The second shape's body.
    pub body_b: BodyId,
}

/// A contact that hit hard: its first push since it began touching came
/// at an approach speed above the world's
/// [`hit_event_threshold`](crate::WorldSettings::hit_event_threshold).
/// Reported for contacts of shapes with
/// [`ShapeDef::hit_events`](crate::ShapeDef::hit_events): the sound of a
/// crate landing, damage from a fall.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactHit {
    /// The first shape (the normal points away from it).
    pub shape_a: ShapeId,
    /// The second shape.
    pub shape_b: ShapeId,
    /// The first shape's body.
    pub body_a: BodyId,
    /// The second shape's body.
    pub body_b: BodyId,
    /// Where they met: the manifold point that approached fastest (midway
    /// across the gap when the contact was computed: for a fast body, up to
    /// half a step's travel short of where the surfaces touched).
    pub point: Vec2,
    /// The contact normal, from A to B.
    pub normal: Vec2,
    /// How fast the two surfaces approached along the normal at that
    /// point, in length units per second (positive).
    pub approach_speed: f32,
}

/// A shape that began or stopped overlapping a sensor. For a removed shape
/// (or sensor) the handles are stale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SensorOverlap {
    /// The sensor shape.
    pub sensor: ShapeId,
    /// The sensor's body.
    pub sensor_body: BodyId,
    /// The shape that entered or left it.
    pub visitor: ShapeId,
}

/// The sensor events of the last step
/// ([`World::sensor_events`](crate::World::sensor_events)), sensor by
/// sensor in slot order and, for each, visitor by visitor in handle order
/// (the ends that removing a sensor or visitor caused since the step
/// before come first). A shape that crossed a sensor within the step is in
/// both lists.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SensorEvents {
    /// Shapes that began overlapping a sensor.
    pub begin: Vec<SensorOverlap>,
    /// Shapes that stopped overlapping a sensor.
    pub end: Vec<SensorOverlap>,
}

/// The contact events of the last step, in a deterministic order (the
/// contacts' slot order, with the ends of contacts removed by the user
/// between steps first, in the order they were removed).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContactEvents {
    /// Contacts that began touching.
    pub begin: Vec<ContactTouch>,
    /// Contacts that stopped touching.
    pub end: Vec<ContactTouch>,
    /// Contacts that hit faster than the threshold, in constraint (slot)
    /// order.
    pub hit: Vec<ContactHit>,
}
