//! Joints: the kinds a user picks from ([`JointKind`]) and the joint as
//! the world keeps it (`Joint`): its two bodies, a frame on each, the
//! impulses that warm start the next step, and its places on both bodies'
//! joint lists.
//!
//! Every joint is defined by a frame (a point and an axis) on each body,
//! given in that body's own coordinates. What a kind holds is stated
//! between the frames: a hinge keeps their origins together, a slider
//! keeps frame B's origin on frame A's x axis, a weld keeps the frames
//! together.
//!
//! Each kind is one file (`revolute.rs`, `prismatic.rs`, `distance.rs`,
//! `weld.rs`, `wheel.rs`, `motor.rs`) holding its parameters and their
//! checks, what it reads out and draws, and its kernels (warm start,
//! solve, reaction). What the kinds share: the checks (`checks`), the
//! joint as the solve takes it (`constraint`), the impulse formulas
//! (`kernels`), a slider's geometry and axis (`slide`), and the step's
//! walk over the joints (`solve`), which prepares each (its springs,
//! whether its kernels read the angle) and hands it to its kind. The
//! solver adds the hinges solved four at a time and the exact solve of
//! heavy hinge trees (`solver/joints/`).

mod checks;
mod constraint;
mod distance;
mod kernels;
mod motor;
mod prismatic;
mod revolute;
mod slide;
mod solve;
mod weld;
mod wheel;

pub use distance::DistanceJoint;
pub use motor::MotorJoint;
pub use prismatic::PrismaticJoint;
pub use revolute::RevoluteJoint;
pub use weld::WeldJoint;
pub use wheel::WheelJoint;

pub(crate) use constraint::{footprint, JointConstraint, Motion};
pub(crate) use kernels::{drift_bias, point_mass_matrix, rigid, LIMIT_SETTLED};
pub(crate) use solve::{prepare_joint, reaction, solve, solve_limits, warm_start};

use crate::body::edges::{self, Edge};
use crate::body::Body;
use crate::contact::NO_COLOR;
use crate::debug_draw::DebugDraw;
use crate::error::JointError;
use crate::math::{Transform, Vec2};
use crate::store::Store;
use slide::draw_axis;

/// What a joint holds, with the kind's parameters.
///
/// Every joint is defined by a frame (a point and an axis) on each body,
/// given in that body's own coordinates. What a kind holds is stated
/// between the frames: a hinge keeps their origins together, a slider
/// keeps frame B's origin on frame A's x axis, a weld keeps the frames
/// together.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum JointKind {
    /// A hinge: see [`RevoluteJoint`].
    Revolute(RevoluteJoint),
    /// A slider: see [`PrismaticJoint`].
    Prismatic(PrismaticJoint),
    /// A rod, spring or rope: see [`DistanceJoint`].
    Distance(DistanceJoint),
    /// The frames held together: see [`WeldJoint`].
    Weld(WeldJoint),
    /// A wheel on a sprung axis: see [`WheelJoint`].
    Wheel(WheelJoint),
    /// A drive towards a pose: see [`MotorJoint`].
    Motor(MotorJoint),
    /// Nothing held: the two bodies only stop colliding (set
    /// `collide_connected` off, the default). It links no islands.
    Filter,
}

impl JointKind {
    /// The kind's name, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            JointKind::Revolute(_) => "revolute",
            JointKind::Prismatic(_) => "prismatic",
            JointKind::Distance(_) => "distance",
            JointKind::Weld(_) => "weld",
            JointKind::Wheel(_) => "wheel",
            JointKind::Motor(_) => "motor",
            JointKind::Filter => "filter",
        }
    }

    /// Checks the kind's parameters: every number finite, limits in
    /// order, stiffness, damping and largest forces not negative.
    pub fn validate(&self) -> Result<(), JointError> {
        match self {
            JointKind::Revolute(j) => j.validate(),
            JointKind::Prismatic(j) => j.validate(),
            JointKind::Distance(j) => j.validate(),
            JointKind::Weld(j) => j.validate(),
            JointKind::Wheel(j) => j.validate(),
            JointKind::Motor(j) => j.validate(),
            JointKind::Filter => Ok(()),
        }
    }

    /// Sets the target speed of the kind's motor: an error for a kind
    /// with no motor ([`JointError::WrongKind`]) or a motor that is off
    /// ([`JointError::MotorOff`]), leaving the kind as it was.
    pub(crate) fn set_motor_speed(&mut self, speed: f32) -> Result<(), JointError> {
        let (enabled, motor_speed) = match self {
            JointKind::Revolute(j) => (j.enable_motor, &mut j.motor_speed),
            JointKind::Prismatic(j) => (j.enable_motor, &mut j.motor_speed),
            JointKind::Distance(j) => (j.enable_motor, &mut j.motor_speed),
            JointKind::Wheel(j) => (j.enable_motor, &mut j.motor_speed),
            _ => return Err(JointError::WrongKind("motor speed")),
        };
        if !enabled {
            return Err(JointError::MotorOff);
        }
        *motor_speed = speed;
        Ok(())
    }

    /// Draws what the kind shows between its world frames `frame_a` and
    /// `frame_b` (a hinge's limits, a slider's axis, a rod's line), sized
    /// in `length_unit`s a metre.
    pub(crate) fn draw(
        &self,
        (frame_a, frame_b): (Transform, Transform),
        length_unit: f32,
        draw: &mut dyn DebugDraw,
    ) {
        match self {
            JointKind::Revolute(r) => r.draw(frame_a, length_unit, draw),
            JointKind::Prismatic(p) => {
                let limits = (p.lower_translation, p.upper_translation);
                draw_axis(frame_a, p.enable_limit.then_some(limits), length_unit, draw)
            }
            JointKind::Distance(d) => d.draw(frame_a, frame_b, draw),
            JointKind::Wheel(w) => {
                let limits = (w.lower_translation, w.upper_translation);
                draw_axis(frame_a, w.enable_limit.then_some(limits), length_unit, draw)
            }
            JointKind::Weld(_) | JointKind::Motor(_) | JointKind::Filter => {}
        }
    }
}

/// `RevoluteJoint` into `JointKind::Revolute`, and so on.
macro_rules! kind_from {
    ($($variant:ident($t:ident)),*) => {$(
        impl From<$t> for JointKind {
            fn from(j: $t) -> JointKind {
                JointKind::$variant(j)
            }
        }
    )*};
}

kind_from!(
    Revolute(RevoluteJoint),
    Prismatic(PrismaticJoint),
    Distance(DistanceJoint),
    Weld(WeldJoint),
    Wheel(WheelJoint),
    Motor(MotorJoint)
);

/// The impulses a joint's solve accumulated, per substep, kept from step
/// to step to warm start the next one. Which of them a kind uses, and
/// along what, is the kind's (see its `reaction`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct JointImpulses {
    /// The point (or perpendicular) constraint's impulse.
    pub linear: Vec2,
    /// The angle constraint's impulse.
    pub angular: f32,
    /// The spring's impulse.
    pub spring: f32,
    /// The motor's impulse.
    pub motor: f32,
    /// The lower limit's impulse (at least 0).
    pub lower: f32,
    /// The upper limit's impulse (at least 0).
    pub upper: f32,
}

impl JointImpulses {
    /// No impulse.
    pub(crate) const ZERO: JointImpulses = JointImpulses {
        linear: Vec2::ZERO,
        angular: 0.0,
        spring: 0.0,
        motor: 0.0,
        lower: 0.0,
        upper: 0.0,
    };

    /// The spring's and limits' impulse along the kind's axis (or about
    /// its angle): the spring's, plus the lower limit's, less the upper's.
    #[inline]
    pub(crate) fn axial(&self) -> f32 {
        self.spring + self.lower - self.upper
    }
}

/// A joint as the world keeps it. Its slot, generation and liveness are
/// the store's.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Joint {
    pub body_a: u32,
    pub body_b: u32,
    /// The joint frame on body A, in A's coordinates (about its origin).
    pub frame_a: Transform,
    /// The joint frame on body B, in B's coordinates.
    pub frame_b: Transform,
    pub kind: JointKind,
    /// Whether the two bodies still collide with each other.
    pub collide_connected: bool,
    pub user_data: u64,
    /// Warm-start impulses, per substep.
    pub impulses: JointImpulses,
    /// The force (world axes, on body B) and torque the joint applied
    /// over the last step it was solved in.
    pub reaction_force: Vec2,
    /// See `reaction_force`.
    pub reaction_torque: f32,
    /// The motor's impulse over the last step it was solved in (N s, or
    /// N m s for a turning motor).
    pub motor_impulse: f32,
    /// The joint's places on body A's (`edges[0]`) and body B's
    /// (`edges[1]`) joint lists.
    pub edges: [Edge; 2],
    /// The color the solver's bounded coloring gave the joint while it
    /// was solved ([`crate::Coloring::Bounded`]), [`NO_COLOR`] when it is
    /// not (see the contacts' `color`).
    pub color: u8,
}

impl Default for Joint {
    /// A filter joint of slot 0 with itself: the filler of a free slot.
    fn default() -> Joint {
        Joint {
            body_a: 0,
            body_b: 0,
            frame_a: Transform::IDENTITY,
            frame_b: Transform::IDENTITY,
            kind: JointKind::Filter,
            collide_connected: false,
            user_data: 0,
            impulses: JointImpulses::default(),
            reaction_force: Vec2::ZERO,
            reaction_torque: 0.0,
            motor_impulse: 0.0,
            edges: [Edge::default(); 2],
            color: NO_COLOR,
        }
    }
}

impl Joint {
    /// The body at end `side` (0: A, 1: B).
    #[inline]
    pub(crate) fn body(&self, side: u32) -> u32 {
        if side == 0 {
            self.body_a
        } else {
            self.body_b
        }
    }

    /// Whether the joint is solved at all (a filter joint is not).
    #[inline]
    pub(crate) fn is_solved(&self) -> bool {
        !matches!(self.kind, JointKind::Filter)
    }
}

edges::impl_linked!(Joint, joints);

/// The joints on a body's list, head first, as `(joint, side)`.
#[inline]
pub(crate) fn body_joints<'a>(
    joints: &'a Store<Joint>,
    body: &Body,
) -> impl Iterator<Item = (u32, u32)> + 'a {
    edges::on_body(joints, body)
}

/// Whether a joint between bodies `a` and `b` stops them colliding:
/// walks the shorter of the two bodies' joint lists.
pub(crate) fn joint_forbids_collision(joints: &Store<Joint>, bodies: &Store<Body>, a: u32, b: u32) -> bool {
    let (walk, other) = if bodies[a].joints.count <= bodies[b].joints.count {
        (a, b)
    } else {
        (b, a)
    };
    body_joints(joints, &bodies[walk])
        .any(|(ji, side)| joints[ji].body(1 - side) == other && !joints[ji].collide_connected)
}
