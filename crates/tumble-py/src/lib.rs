//! The Python module `tumble._tumble`: the Tumble engine for Python.
//!
//! The glue is thin: each Python class or method calls the engine's public
//! API and maps its errors (`errors.rs`). Bodies, shapes and joints are small
//! handle objects holding their world (the classes in `objects.rs`, their
//! methods in `body.rs`, `shape.rs` and `joint.rs`, and what the handles
//! share in `handles.rs`);
//! vectors come in as any pair of numbers and go out as `Vec2` (`vec.rs`);
//! arrays go out as numpy (`batch.rs`). The Python package around it
//! (`python/tumble`) adds the pygame drawing and the type stubs.

// A Python function takes its options as keywords, often more than seven;
// the Rust functions behind them mirror those signatures.
#![allow(clippy::too_many_arguments)]

mod batch;
mod body;
mod draw;
mod envs;
mod errors;
mod events;
mod geometry;
mod handles;
mod hooks;
mod joint;
mod keys;
mod mover;
mod objects;
mod queries;
mod real;
mod settings;
mod shape;
mod snapshot;
mod vec;
mod world;

use pyo3::prelude::*;

#[pymodule]
fn _tumble(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<vec::Vec2>()?;
    m.add_class::<objects::World>()?;
    m.add_class::<settings::SolverSettings>()?;
    m.add_class::<objects::Body>()?;
    m.add_class::<body::MotionLocks>()?;
    m.add_class::<objects::Shape>()?;
    m.add_class::<shape::Filter>()?;
    m.add_class::<shape::QueryFilter>()?;
    m.add_class::<geometry::Circle>()?;
    m.add_class::<geometry::Capsule>()?;
    m.add_class::<geometry::Polygon>()?;
    m.add_class::<geometry::Segment>()?;
    m.add_class::<geometry::ChainSegment>()?;
    m.add_class::<objects::Joint>()?;
    m.add_class::<joint::RevoluteJoint>()?;
    m.add_class::<joint::PrismaticJoint>()?;
    m.add_class::<joint::DistanceJoint>()?;
    m.add_class::<joint::WeldJoint>()?;
    m.add_class::<joint::WheelJoint>()?;
    m.add_class::<joint::MotorJoint>()?;
    m.add_class::<joint::FilterJoint>()?;
    m.add_class::<queries::RayHit>()?;
    m.add_class::<queries::ShapeCastHit>()?;
    m.add_class::<events::ContactEvents>()?;
    m.add_class::<events::ContactTouch>()?;
    m.add_class::<events::ContactHit>()?;
    m.add_class::<events::SensorEvents>()?;
    m.add_class::<events::SensorOverlap>()?;
    m.add_class::<events::Contact>()?;
    m.add_class::<events::ContactPoint>()?;
    m.add_class::<mover::CharacterController>()?;
    m.add_class::<mover::CharacterMove>()?;
    m.add_class::<hooks::OneWayPlatforms>()?;
    m.add_class::<hooks::ShapePair>()?;
    m.add_class::<hooks::PreSolveContact>()?;
    m.add_class::<envs::EnvCore>()?;
    m.add_class::<envs::VecCore>()?;
    m.add_class::<envs::WalkerHeuristic>()?;
    m.add_function(wrap_pyfunction!(envs::lander_heuristic, m)?)?;
    m.add("ALL_BITS", shape::ALL_BITS)?;
    m.add_function(wrap_pyfunction!(world::_handle, m)?)?;
    Ok(())
}
