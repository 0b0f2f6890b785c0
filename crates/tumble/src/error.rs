//! Errors. Every fallible call names what was wrong and leaves the world as
//! it was.

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

/// Why a shape could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// Fewer than three distinct points were given for a polygon.
    TooFewPoints,
    /// The points are all on one line (or the outline has no area).
    Collinear,
    /// A coordinate, radius or density is NaN or infinite.
    NonFinite,
    /// The convex hull has more than [`MAX_POLYGON_VERTICES`](crate::settings::MAX_POLYGON_VERTICES) vertices.
    TooManyVertices,
    /// A circle or capsule radius is zero or negative, or a polygon's rounding
    /// radius is negative.
    NonPositiveRadius,
    /// A capsule's two centers coincide: use a circle.
    DegenerateCapsule,
    /// A concave outline crosses itself, so it has no well-defined inside.
    SelfIntersecting,
    /// A shape's density is zero or negative (a dynamic body needs mass).
    NonPositiveDensity,
    /// Friction is negative, or restitution is negative.
    InvalidMaterial,
    /// A polygon built by hand (its fields are public) is not strictly
    /// convex and counter-clockwise, or its stored normals do not match its
    /// edges. Build polygons with [`Polygon::new`](crate::Polygon::new) to avoid this.
    NotConvex,
    /// The shape is so large (or its density so high) that its area, edge
    /// normals, centroid, mass or rotational inertia overflow `f32`; or, added
    /// to a body, so light that the inverse of its mass or inertia does.
    MassOverflow,
    /// The shape reaches farther from its body's origin than the world
    /// extent ([`WORLD_EXTENT`](crate::settings::WORLD_EXTENT) times the
    /// length unit), or a query's shape is placed beyond it.
    TooFar,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let msg = match self {
            ShapeError::TooFewPoints => "too few distinct points: a polygon or a loop needs 3, a chain 2",
            ShapeError::Collinear => {
                "the points coincide or are collinear: the polygon has no area, or a segment no length"
            }
            ShapeError::NonFinite => {
                "a coordinate or size is NaN or infinite, or so large that areas overflow"
            }
            ShapeError::TooManyVertices => "the convex hull has more than 8 vertices",
            ShapeError::NonPositiveRadius => "a radius must be positive (a rounding radius >= 0)",
            ShapeError::DegenerateCapsule => "the capsule's two centers coincide: use a circle",
            ShapeError::SelfIntersecting => "the outline crosses itself",
            ShapeError::NonPositiveDensity => "density must be positive",
            ShapeError::InvalidMaterial => "friction and restitution must be finite and >= 0",
            ShapeError::NotConvex => "the polygon is not convex and counter-clockwise",
            ShapeError::MassOverflow => "the shape's mass or inertia overflows f32",
            ShapeError::TooFar => "the shape reaches beyond the world extent (1e5 m times the length unit)",
        };
        f.write_str(msg)
    }
}

impl std::error::Error for ShapeError {}

/// Any of the engine's errors: what a call that can fail for more than
/// one family of reasons returns (attaching a shape: its geometry, or its
/// body's handle; a query: its shape, or its numbers), and what every
/// error converts into, so `?` carries any of them up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// The geometry or material is invalid.
    Shape(ShapeError),
    /// A body or shape handle, or a number given for one, is invalid.
    Body(BodyError),
    /// A joint handle, or a joint's definition, is invalid.
    Joint(JointError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Shape(e) => e.fmt(f),
            Error::Body(e) => e.fmt(f),
            Error::Joint(e) => e.fmt(f),
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

impl From<JointError> for Error {
    fn from(e: JointError) -> Error {
        Error::Joint(e)
    }
}
