//! Rigid bodies: what the user creates ([`BodyDef`]) and what the world
//! keeps, with the lists of the contacts and joints on each (`edges`),
//! and what the solve keeps of one during a step (`state`).

pub(crate) mod edges;
mod state;

pub(crate) use edges::EdgeList;
pub(crate) use state::{BodyState, SolverBody, StateCell};

use crate::math::{Transform, Vec2};

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BodyType {
    /// Never moves: ground, walls. Infinite mass.
    Static,
    /// Moves with the velocity the user sets, unaffected by forces and
    /// contacts: platforms, a rotating container. Infinite mass.
    Kinematic,
    /// Moved by gravity, forces and contacts. Mass from its shapes.
    #[default]
    Dynamic,
}

/// Which degrees of freedom of a dynamic body are held still: a
/// character that stays upright locks its rotation; a piston locks x or y.
/// A locked velocity component is zero after every substep, whatever
/// pushes the body (Box2D v3's motion locks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MotionLocks {
    /// Hold the x translation.
    pub x: bool,
    /// Hold the y translation.
    pub y: bool,
    /// Hold the rotation (the body's inertia counts as infinite).
    pub rotation: bool,
}

impl MotionLocks {
    /// Only the rotation locked: a character that stays upright.
    pub const ROTATION: MotionLocks = MotionLocks {
        x: false,
        y: false,
        rotation: true,
    };

    /// The factors a locked body's velocity is multiplied by: 0 on a
    /// locked axis, 1 on a free one.
    pub(crate) fn masks(self) -> (Vec2, f32) {
        let free = |locked: bool| if locked { 0.0 } else { 1.0 };
        (Vec2::new(free(self.x), free(self.y)), free(self.rotation))
    }
}

/// Everything needed to create a body. Start from `BodyDef::default()` (a
/// dynamic body at the origin at rest) and set what differs.
///
/// ```
/// # use tumble::{BodyDef, BodyType, Vec2};
/// let def = BodyDef { position: Vec2::new(0.0, 4.0), ..BodyDef::dynamic() };
/// assert_eq!(def.body_type, BodyType::Dynamic);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyDef {
    /// Static, kinematic or dynamic.
    pub body_type: BodyType,
    /// World position of the body origin.
    pub position: Vec2,
    /// Angle in radians, counter-clockwise.
    pub angle: f32,
    /// Initial velocity of the body origin, m/s.
    pub linear_velocity: Vec2,
    /// Initial angular velocity, rad/s.
    pub angular_velocity: f32,
    /// Linear damping, 1/s: each substep of length `h` divides the velocity
    /// by `1 + h * damping` (an implicit decay, stable at any step), so one
    /// step of `n` substeps multiplies it by `(1 + dt * damping / n)^-n`,
    /// close to `exp(-dt * damping)`.
    pub linear_damping: f32,
    /// Angular damping, 1/s, applied to the angular velocity the same way.
    pub angular_damping: f32,
    /// Multiplies the world's gravity for this body (0 floats, -1 rises).
    pub gravity_scale: f32,
    /// A value of the user's, returned by [`World::user_data`](crate::World::user_data).
    pub user_data: u64,
    /// Whether the body starts awake. A body created asleep costs nothing
    /// until something wakes it (a contact beginning, a user call); the
    /// shapes added to it before then do not.
    pub awake: bool,
    /// Whether the body may fall asleep at all. Off keeps its whole island
    /// awake: for a body the game moves by forces every frame, say.
    pub can_sleep: bool,
    /// The speed (m/s, at the body's farthest point from its center of mass)
    /// below which the body counts as resting: once every body of its
    /// island has rested for [`TIME_TO_SLEEP`](crate::settings::TIME_TO_SLEEP),
    /// the island falls asleep. Default
    /// [`SLEEP_THRESHOLD`](crate::settings::SLEEP_THRESHOLD), 0.05 m/s;
    /// scaled by the world's length unit.
    pub sleep_threshold: f32,
    /// Degrees of freedom held still (none by default); see
    /// [`MotionLocks`]. Changed at run time with
    /// [`World::set_motion_locks`](crate::World::set_motion_locks).
    pub motion_locks: MotionLocks,
}

impl Default for BodyDef {
    fn default() -> Self {
        BodyDef {
            body_type: BodyType::Dynamic,
            position: Vec2::ZERO,
            angle: 0.0,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            user_data: 0,
            awake: true,
            can_sleep: true,
            sleep_threshold: crate::settings::SLEEP_THRESHOLD,
            motion_locks: MotionLocks::default(),
        }
    }
}

impl BodyDef {
    /// A dynamic body at the origin.
    pub fn dynamic() -> BodyDef {
        BodyDef::default()
    }

    /// A static body at the origin: it never moves and has infinite mass.
    pub fn static_body() -> BodyDef {
        BodyDef {
            body_type: BodyType::Static,
            ..BodyDef::default()
        }
    }

    /// Renamed [`BodyDef::static_body`], to match [`BodyType::Static`].
    #[deprecated(since = "0.2.0", note = "renamed to `static_body`")]
    pub fn fixed() -> BodyDef {
        BodyDef::static_body()
    }

    /// A kinematic body at the origin.
    pub fn kinematic() -> BodyDef {
        BodyDef {
            body_type: BodyType::Kinematic,
            ..BodyDef::default()
        }
    }

    /// The same definition placed at `position`.
    pub fn at(self, position: Vec2) -> BodyDef {
        BodyDef { position, ..self }
    }

    /// The same definition turned by `angle` radians.
    pub fn with_angle(self, angle: f32) -> BodyDef {
        BodyDef { angle, ..self }
    }

    /// The same definition moving at `velocity`.
    pub fn with_velocity(self, velocity: Vec2) -> BodyDef {
        BodyDef {
            linear_velocity: velocity,
            ..self
        }
    }
}

/// A body as the world keeps it: bookkeeping plus the state the solver reads.
/// Its slot, generation and liveness are the store's.
///
/// Laid out in declaration order (`repr(C)`), what the collide stage
/// reads of a body first: its transform, center, velocities and extent,
/// 40 bytes, in one cache line or two, where the compiler's own order
/// spread them over 112 bytes (three lines) of the 176; the rest of the
/// first 64 bytes is what the gathering and the finalize read beside
/// them.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub(crate) struct Body {
    /// Transform of the body origin.
    pub xf: Transform,
    /// Center of mass in the world.
    pub center: Vec2,
    /// Linear velocity of the center of mass.
    pub v: Vec2,
    /// Angular velocity.
    pub w: f32,
    /// Farthest distance from the center of mass to any point of the
    /// body's shapes (a bound from their local bounding boxes): how far a
    /// point of the body can move per radian of rotation, and (with the
    /// center of mass) the bounding circle the collide stage skips far
    /// pairs by.
    pub extent: f32,
    /// Center of mass in the body frame.
    pub local_center: Vec2,
    pub force: Vec2,
    pub torque: f32,
    pub inv_mass: f32,
    pub inv_inertia: f32,
    pub gravity_scale: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    /// What the last steps moved the center of mass by that its floats
    /// could not hold (under half their spacing where it is): added to
    /// the next step's motion, so that a slow body moves as its velocity
    /// says instead of rounding back in place every step. At rest on a
    /// soft contact, a body that rounds back in place keeps the velocity
    /// the solve's unfinished iterations leave it, since its contacts never
    /// see it move; one that moves settles.
    pub carry: Vec2,
    pub mass: f32,
    /// Inertia about the center of mass.
    pub inertia: f32,
    /// The smallest [`Shape::min_extent`](crate::shapes::Shape) of the
    /// body's shapes (infinite with none): how far the body may move in
    /// a step before it risks passing through a static shape, and is
    /// swept against them (see `World::solve_continuous`).
    pub min_extent: f32,
    pub body_type: BodyType,
    /// Set when the body's state stopped being finite; it is then frozen.
    pub frozen: bool,
    /// Set by `World::set_enabled(.., false)`: the body is out of the
    /// simulation (no island, no broadphase proxies, no contacts, its
    /// joints idle) until enabled again.
    pub disabled: bool,
    /// See [`BodyDef::can_sleep`].
    pub can_sleep: bool,
    /// Created asleep and not woken since: shapes added to it then do not
    /// wake it, so a body can be built asleep, shapes and all.
    pub never_awake: bool,
    /// See [`BodyDef::motion_locks`].
    pub locks: MotionLocks,
    /// How long (seconds) the body has moved slower than its sleep
    /// threshold.
    pub sleep_time: f32,
    /// See [`BodyDef::sleep_threshold`], in the world's length unit.
    pub sleep_threshold: f32,
    /// The island (of bodies linked by touching contacts) the body is in,
    /// or [`NULL`] for a static body.
    pub island: u32,
    /// Previous body of the island's body list, or [`NULL`].
    pub island_prev: u32,
    /// Next body of the island's body list, or [`NULL`].
    pub island_next: u32,
    pub user_data: u64,
    /// Shape slots attached to this body, in creation order.
    pub shapes: Vec<u32>,
    /// The body's contacts ([`edges`]): what touches the body is found
    /// without looking at any other contact.
    pub contacts: EdgeList,
    /// The body's joints, likewise.
    pub joints: EdgeList,
}

/// No slot: the end of an edge or island list, no island.
pub(crate) const NULL: u32 = u32::MAX;

impl Default for Body {
    /// A dynamic body at the origin, on nothing: the filler of a free
    /// slot.
    fn default() -> Body {
        Body::new(&BodyDef::default(), 1.0)
    }
}

impl Body {
    /// A body as `def` describes it, with no shapes, edges or island yet;
    /// `length_units` scales its sleep threshold.
    pub(crate) fn new(def: &BodyDef, length_units: f32) -> Body {
        let xf = Transform::new(def.position, def.angle);
        Body {
            body_type: def.body_type,
            xf,
            local_center: Vec2::ZERO,
            center: xf.p,
            v: def.linear_velocity,
            w: def.angular_velocity,
            force: Vec2::ZERO,
            torque: 0.0,
            mass: 0.0,
            inv_mass: 0.0,
            inertia: 0.0,
            inv_inertia: 0.0,
            linear_damping: def.linear_damping,
            angular_damping: def.angular_damping,
            gravity_scale: def.gravity_scale,
            user_data: def.user_data,
            shapes: Vec::new(),
            frozen: false,
            disabled: false,
            extent: 0.0,
            min_extent: f32::INFINITY,
            contacts: EdgeList::default(),
            joints: EdgeList::default(),
            island: NULL,
            island_prev: NULL,
            island_next: NULL,
            sleep_time: 0.0,
            carry: Vec2::ZERO,
            sleep_threshold: def.sleep_threshold * length_units,
            can_sleep: def.can_sleep,
            never_awake: !def.awake,
            locks: def.motion_locks,
        }
    }

    /// Whether the body belongs to an island (is linked to what touches it
    /// and sleeps with it): neither static nor disabled.
    #[inline]
    pub(crate) fn in_islands(&self) -> bool {
        self.body_type != BodyType::Static && !self.disabled
    }

    /// The fastest any point of the body moves: the center's speed plus
    /// the spin times the farthest point's distance from it.
    #[inline]
    pub(crate) fn max_point_speed(&self) -> f32 {
        self.v.length() + self.w.abs() * self.extent
    }
}

#[cfg(test)]
mod tests {
    use super::Body;
    use crate::math::{Transform, Vec2};
    use std::mem::{offset_of, size_of};

    #[test]
    fn what_the_collide_stage_reads_of_a_body_lies_in_its_first_40_bytes() {
        let ends = [
            offset_of!(Body, xf) + size_of::<Transform>(),
            offset_of!(Body, center) + size_of::<Vec2>(),
            offset_of!(Body, v) + size_of::<Vec2>(),
            offset_of!(Body, w) + size_of::<f32>(),
            offset_of!(Body, extent) + size_of::<f32>(),
        ];
        assert!(ends.iter().all(|&end| end <= 40), "{ends:?}");
    }
}
