//! Contact hooks: the user's code the step asks about contacts, given to
//! [`World::step_with_hooks`](crate::World::step_with_hooks). Only shapes
//! that opt in are asked ([`ShapeDef::custom_filter`](crate::ShapeDef::custom_filter),
//! [`ShapeDef::pre_solve`](crate::ShapeDef::pre_solve)), so a world with
//! hooks pays for them only where they are used.

use crate::collision::Manifold;
use crate::id::{BodyId, ShapeId};
use crate::math::Vec2;

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
///
/// A conveyor belt: what lies on the belt is carried at 2 m/s (the belt's
/// shape sets [`ShapeDef::pre_solve`](crate::ShapeDef::pre_solve)).
/// [`OneWayPlatforms`] is a ready-made hook for platforms a body jumps up
/// through and lands on.
///
/// ```
/// use tumble::collision::Manifold;
/// use tumble::{ContactHooks, ContactMaterial, ShapeId, ShapePair};
///
/// struct Conveyor {
///     belt: ShapeId,
/// }
///
/// impl ContactHooks for Conveyor {
///     fn pre_solve(&self, pair: &ShapePair, _: &Manifold, material: &mut ContactMaterial) -> bool {
///         if pair.shape_a == self.belt || pair.shape_b == self.belt {
///             material.tangent_speed = 2.0;
///         }
///         true
///     }
/// }
/// ```
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
    ///
    /// Also called when the step's continuous collision would stop a body
    /// that moved far at a static shape, with the manifold the two would
    /// have where it first meets it: returning false lets the body on (a
    /// one-way platform passes a body rising fast through it); `material`
    /// is then not used.
    fn pre_solve(&self, pair: &ShapePair, manifold: &Manifold, material: &mut ContactMaterial) -> bool {
        let _ = (pair, manifold, material);
        true
    }
}

/// A pair of hooks asked in turn: a pair collides only if both say so, a
/// contact stays enabled only if both keep it (the second is not asked
/// about a contact the first disabled), and the second sees the material
/// as the first left it. Nest pairs, or use a slice, for more: a game's
/// one-way platforms beside its conveyors.
///
/// ```
/// use tumble::{ContactHooks, OneWayPlatforms, NoHooks};
/// let platforms = OneWayPlatforms::default();
/// let both = (&platforms, NoHooks);
/// # fn step(_: &dyn ContactHooks) {}
/// step(&both);
/// ```
impl<A: ContactHooks, B: ContactHooks> ContactHooks for (A, B) {
    fn should_collide(&self, pair: &ShapePair) -> bool {
        self.0.should_collide(pair) && self.1.should_collide(pair)
    }

    fn pre_solve(&self, pair: &ShapePair, manifold: &Manifold, material: &mut ContactMaterial) -> bool {
        self.0.pre_solve(pair, manifold, material) && self.1.pre_solve(pair, manifold, material)
    }
}

/// Hooks asked in order, as a pair of hooks is (see the impl for pairs):
/// all must agree, each sees the material as the ones before it left it.
impl<H: ContactHooks> ContactHooks for [H] {
    fn should_collide(&self, pair: &ShapePair) -> bool {
        self.iter().all(|h| h.should_collide(pair))
    }

    fn pre_solve(&self, pair: &ShapePair, manifold: &Manifold, material: &mut ContactMaterial) -> bool {
        self.iter().all(|h| h.pre_solve(pair, manifold, material))
    }
}

/// An array of hooks, asked in order as a slice is: `&[a, b]`.
impl<H: ContactHooks, const N: usize> ContactHooks for [H; N] {
    fn should_collide(&self, pair: &ShapePair) -> bool {
        self.as_slice().should_collide(pair)
    }

    fn pre_solve(&self, pair: &ShapePair, manifold: &Manifold, material: &mut ContactMaterial) -> bool {
        self.as_slice().pre_solve(pair, manifold, material)
    }
}

/// A reference to hooks is hooks: `(&platforms, &conveyors)` composes
/// hooks a game keeps elsewhere, and `&[&dyn ContactHooks]` mixes kinds.
impl<H: ContactHooks + ?Sized> ContactHooks for &H {
    fn should_collide(&self, pair: &ShapePair) -> bool {
        (**self).should_collide(pair)
    }

    fn pre_solve(&self, pair: &ShapePair, manifold: &Manifold, material: &mut ContactMaterial) -> bool {
        (**self).pre_solve(pair, manifold, material)
    }
}

/// Hooks that change nothing: what [`World::step`](crate::World::step)
/// uses.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHooks;

impl ContactHooks for NoHooks {}

/// One-way platforms: a contact with one of `platforms` is kept only while
/// the other shape is on the platform's `up` side and not sunk into it
/// deeper than `sink_tolerance`, so a body jumps up through the platform
/// and lands on it. The platforms' shapes set
/// [`ShapeDef::pre_solve`](crate::ShapeDef::pre_solve).
///
/// (A body rising through a platform is deep inside it by the time its
/// contact normal turns upwards, so the depth test keeps it passing.)
#[derive(Clone, Debug, PartialEq)]
pub struct OneWayPlatforms {
    /// The platforms' shapes.
    pub platforms: Vec<ShapeId>,
    /// The side bodies land on (a unit vector). Default up, (0, 1).
    pub up: Vec2,
    /// How deep (in length units) a body may be in a platform and still
    /// be held by it. Default 0.05.
    pub sink_tolerance: f32,
}

impl Default for OneWayPlatforms {
    fn default() -> Self {
        OneWayPlatforms {
            platforms: Vec::new(),
            up: Vec2::Y,
            sink_tolerance: 0.05,
        }
    }
}

impl ContactHooks for OneWayPlatforms {
    fn pre_solve(&self, pair: &ShapePair, manifold: &Manifold, _: &mut ContactMaterial) -> bool {
        // The normal points from A to B: turn it to point away from the
        // platform.
        let away = if self.platforms.contains(&pair.shape_a) {
            manifold.normal
        } else if self.platforms.contains(&pair.shape_b) {
            -manifold.normal
        } else {
            return true;
        };
        let deepest = manifold
            .points()
            .iter()
            .map(|p| p.separation)
            .fold(f32::MAX, f32::min);
        away.dot(self.up) > 0.7 && deepest > -self.sink_tolerance
    }
}
