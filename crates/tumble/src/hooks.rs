//! Contact hooks: the user's code the step asks about contacts, given to
//! [`World::step_with_hooks`](crate::World::step_with_hooks). Only shapes
//! that opt in are asked ([`ShapeDef::custom_filter`](crate::ShapeDef::custom_filter),
//! [`ShapeDef::pre_solve`](crate::ShapeDef::pre_solve)), so a world with
//! hooks pays for them only where they are used.
//!
//! A one-way platform: a contact with the platform is kept only while the
//! other shape is above it, so a body jumps up through it and lands on it.
//!
//! ```
//! use tumble::collision::Manifold;
//! use tumble::{ContactHooks, ContactMaterial, ShapeId, ShapePair};
//!
//! struct OneWay {
//!     platform: ShapeId,
//! }
//!
//! impl ContactHooks for OneWay {
//!     fn pre_solve(&self, pair: &ShapePair, manifold: &Manifold, _: &mut ContactMaterial) -> bool {
//!         // The normal points from shape A to shape B: turn it to point
//!         // from the platform to the other shape.
//!         let up = if pair.shape_a == self.platform {
//!             manifold.normal
//!         } else if pair.shape_b == self.platform {
//!             -manifold.normal
//!         } else {
//!             return true;
//!         };
//!         // Above the platform and not sunk into it: a body rising
//!         // through it is deep inside when its normal flips upwards.
//!         let deepest = manifold.points().iter().map(|p| p.separation).fold(f32::MAX, f32::min);
//!         up.y > 0.7 && deepest > -0.05
//!     }
//! }
//! ```

use crate::collision::Manifold;
use crate::world::{BodyId, ShapeId};

/// The two shapes of a contact (or a pair about to get one), their bodies
/// and the shapes' user data. The contact normal points from A to B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapePair {
    /// The first shape.
    pub shape_a: ShapeId,
    /// The second shape.
    pub shape_b: ShapeId,
    /// The first shape's body.
    pub body_a: BodyId,
    /// The second shape's body.
    pub body_b: BodyId,
    /// The first shape's [`ShapeDef::user_data`](crate::ShapeDef::user_data).
    pub user_data_a: u64,
    /// The second shape's user data.
    pub user_data_b: u64,
}

/// What the solver uses of a contact this step, which
/// [`ContactHooks::pre_solve`] may change. It starts from the mix of the
/// two shapes' current materials every step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactMaterial {
    /// Friction coefficient (>= 0).
    pub friction: f32,
    /// Restitution (>= 0).
    pub restitution: f32,
    /// The sliding speed friction drives the contact towards instead of
    /// zero: B's surface moves this fast relative to A's along the tangent
    /// `(n.y, -n.x)` (the normal turned clockwise). Whichever shape is A,
    /// a positive speed on a belt's top face carries what lies on it
    /// towards +x: a conveyor belt. Zero by default.
    pub tangent_speed: f32,
}

/// The user's say in the step's contacts. Both methods have defaults that
/// change nothing, so a hook implements only what it needs. They must be
/// `Sync`: the step may call them from several threads at once, in any
/// order, so they read the game's state and do not change it.
pub trait ContactHooks: Sync {
    /// Whether two shapes whose bounding boxes just began to overlap, and
    /// that pass their [`Filter`](crate::Filter)s, may collide. Asked once,
    /// when the pair is found, if either shape has
    /// [`ShapeDef::custom_filter`](crate::ShapeDef::custom_filter) set; a
    /// pair refused is asked again whenever one of them moves to a new
    /// place in the broadphase.
    fn should_collide(&self, pair: &ShapePair) -> bool {
        let _ = pair;
        true
    }

    /// Called for each touching contact (one with manifold points) of the
    /// step whose shapes ask for it
    /// ([`ShapeDef::pre_solve`](crate::ShapeDef::pre_solve)), after its
    /// manifold is computed and before the solver sees it. Returning false
    /// disables the contact for this step: its manifold is emptied, so it
    /// pushes nothing, counts as not touching (its events and islands
    /// follow) and starts again next step. `material` may be changed for
    /// this step.
    fn pre_solve(&self, pair: &ShapePair, manifold: &Manifold, material: &mut ContactMaterial) -> bool {
        let _ = (pair, manifold, material);
        true
    }
}

/// Hooks that change nothing: what [`World::step`](crate::World::step)
/// uses.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHooks;

impl ContactHooks for NoHooks {}
