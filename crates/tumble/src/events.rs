//! Contact events: which pairs of shapes began and stopped touching in the
//! last step, returned as slices ([`World::contact_events`](crate::World::contact_events))
//! that stay valid until the next step. No callbacks.

use crate::world::{BodyId, ShapeId};

/// Two shapes whose contact began touching (gained its first manifold
/// point: touching, or within the speculative distance) or stopped (lost
/// its last point, their fat boxes parted, or one of them, or its body,
/// was removed or changed type; for a removed shape the handles are
/// stale).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// The contact events of the last step, in a deterministic order (the
/// contacts' slot order, with the ends of contacts removed by the user
/// between steps first, in the order they were removed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContactEvents {
    /// Contacts that began touching.
    pub begin: Vec<ContactTouch>,
    /// Contacts that stopped touching.
    pub end: Vec<ContactTouch>,
}
