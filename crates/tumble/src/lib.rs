//! Tumble: a 2D rigid-body physics engine.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod broadphase;
pub mod collision;
pub mod math;
pub mod settings;
pub mod shapes;

pub use math::{Aabb, Rot, Transform, Vec2};
pub use shapes::{Capsule, Circle, MassData, Polygon, Shape, ShapeError};
