//! Rigid bodies: what the user creates ([`BodyDef`]) and what the world keeps.

use crate::math::{Rot, Transform, Vec2};

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
    /// Linear damping, 1/s: velocity decays as `v / (1 + dt * damping)`.
    pub linear_damping: f32,
    /// Angular damping, 1/s.
    pub angular_damping: f32,
    /// Multiplies the world's gravity for this body (0 floats, -1 rises).
    pub gravity_scale: f32,
    /// A value of the user's, returned by [`World::user_data`](crate::World::user_data).
    pub user_data: u64,
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
        }
    }
}

impl BodyDef {
    /// A dynamic body at the origin.
    pub fn dynamic() -> BodyDef {
        BodyDef::default()
    }

    /// A static body at the origin.
    pub fn fixed() -> BodyDef {
        BodyDef {
            body_type: BodyType::Static,
            ..BodyDef::default()
        }
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
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Body {
    pub generation: u32,
    pub alive: bool,
    pub body_type: BodyType,
    /// Transform of the body origin.
    pub xf: Transform,
    /// Centre of mass in the body frame.
    pub local_center: Vec2,
    /// Centre of mass in the world.
    pub center: Vec2,
    /// Linear velocity of the centre of mass.
    pub v: Vec2,
    /// Angular velocity.
    pub w: f32,
    pub force: Vec2,
    pub torque: f32,
    pub mass: f32,
    pub inv_mass: f32,
    /// Inertia about the centre of mass.
    pub inertia: f32,
    pub inv_inertia: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub gravity_scale: f32,
    pub user_data: u64,
    /// Shape slots attached to this body, in creation order.
    pub shapes: Vec<u32>,
    /// Set when the body's state stopped being finite; it is then frozen.
    pub frozen: bool,
    /// Farthest distance from the centre of mass to any point of the
    /// body's shapes (a bound from their local bounding boxes): how far a
    /// point of the body can move per radian of rotation.
    pub extent: f32,
}

impl Body {
    pub(crate) fn new(def: &BodyDef, generation: u32) -> Body {
        let xf = Transform::new(def.position, def.angle);
        Body {
            generation,
            alive: true,
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
            extent: 0.0,
        }
    }

    /// Recomputes the origin transform from the centre of mass and rotation.
    #[inline]
    pub(crate) fn sync_origin(&mut self, q: Rot) {
        self.xf.q = q;
        self.xf.p = self.center - q.rotate(self.local_center);
    }
}
