//! Errors. Every fallible call names what was wrong and leaves the world as
//! it was.

use crate::shapes::ShapeError;
use std::fmt;

/// Why a call on a body (or a shape's body) failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyError {
    /// The handle refers to a body or shape that was removed (or never
    /// existed in this world).
    StaleHandle,
    /// A position, angle, velocity, force, impulse or other number is NaN or
    /// infinite. The string names the argument.
    NonFinite(&'static str),
    /// Damping must be zero or positive.
    NegativeDamping,
    /// A number is finite but outside the range it must lie in (a
    /// non-positive step rate, a solver setting out of its range). The
    /// string names it.
    OutOfRange(&'static str),
    /// The shape is not a sensor (asked for its overlaps).
    NotASensor,
}

impl fmt::Display for BodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BodyError::StaleHandle => f.write_str("stale handle: the body or shape was removed"),
            BodyError::NonFinite(what) => write!(f, "{what} is NaN or infinite"),
            BodyError::NegativeDamping => f.write_str("damping must be zero or positive"),
            BodyError::OutOfRange(what) => write!(f, "{what} is out of range"),
            BodyError::NotASensor => f.write_str("the shape is not a sensor"),
        }
    }
}

impl std::error::Error for BodyError {}

/// Why a shape could not be attached to a body, or a query (a ray or
/// shape cast, an overlap test, a character move) was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// The geometry or material is invalid.
    Shape(ShapeError),
    /// The body handle or a number is invalid.
    Body(BodyError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Shape(e) => e.fmt(f),
            Error::Body(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl From<ShapeError> for Error {
    fn from(e: ShapeError) -> Error {
        Error::Shape(e)
    }
}

impl From<BodyError> for Error {
    fn from(e: BodyError) -> Error {
        Error::Body(e)
    }
}

/// Why a joint could not be made or changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointError {
    /// The joint handle refers to a joint that was removed (or never
    /// existed in this world).
    StaleHandle,
    /// A body of the joint was removed (or never existed in this world).
    StaleBody,
    /// Both ends of the joint are the same body.
    SameBody,
    /// A number is NaN or infinite. The string names it.
    NonFinite(&'static str),
    /// A lower limit is above its upper limit. The string names the limits.
    InvertedLimits(&'static str),
    /// A stiffness, damping ratio, largest force or torque, or length is
    /// negative. The string names it.
    Negative(&'static str),
    /// A number is finite but outside the range it must lie in. The string
    /// names it.
    OutOfRange(&'static str),
    /// The call is for another kind of joint (an angle asked of a distance
    /// joint, a kind replaced by another). The string names what was asked.
    WrongKind(&'static str),
    /// Neither body of the joint is dynamic: between two static or
    /// kinematic bodies a joint could move nothing.
    NoDynamicBody,
    /// The joint's motor is off: its speed would do nothing. Turn it on
    /// with [`World::set_joint_kind`](crate::World::set_joint_kind) (its
    /// `enable_motor` and `motor_speed` at once).
    MotorOff,
}

impl fmt::Display for JointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JointError::StaleHandle => f.write_str("stale handle: the joint was removed"),
            JointError::StaleBody => f.write_str("a body of the joint was removed"),
            JointError::SameBody => f.write_str("a joint needs two different bodies"),
            JointError::NonFinite(what) => write!(f, "{what} is NaN or infinite"),
            JointError::InvertedLimits(what) => write!(f, "{what}: the lower limit is above the upper"),
            JointError::Negative(what) => write!(f, "{what} must not be negative"),
            JointError::OutOfRange(what) => write!(f, "{what} is out of range"),
            JointError::WrongKind(what) => write!(f, "{what}: not this kind of joint"),
            JointError::NoDynamicBody => f.write_str("a joint needs at least one dynamic body"),
            JointError::MotorOff => f.write_str("the joint's motor is off: enable it to set its speed"),
        }
    }
}

impl std::error::Error for JointError {}
