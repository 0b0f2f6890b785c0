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

/// Why a shape could not be attached to a body.
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
