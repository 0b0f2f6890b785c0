//! Tumble: a 2D rigid-body physics engine.
//!
//! One [`World`] owns every body, shape and contact; you hold small `Copy`
//! handles ([`BodyId`], [`ShapeId`]). Drop a 1 m box onto the ground:
//!
//! ```
//! use tumble::{BodyDef, Polygon, ShapeDef, Vec2, World};
//!
//! let mut world = World::default(); // gravity (0, -10)
//!
//! // The ground: a static box whose top face is y = 0.
//! let ground = world.create_body(&BodyDef::fixed().at(Vec2::new(0.0, -1.0))).unwrap();
//! world.add_shape(ground, Polygon::new_box(50.0, 1.0).unwrap(), &ShapeDef::default()).unwrap();
//!
//! // A 1 m box dropped from 4 m.
//! let body = world.create_body(&BodyDef::dynamic().at(Vec2::new(0.0, 4.0))).unwrap();
//! world.add_shape(body, Polygon::new_box(0.5, 0.5).unwrap(), &ShapeDef::default()).unwrap();
//!
//! for step in 0..120 {
//!     world.step(1.0 / 60.0);
//!     if step % 10 == 0 {
//!         println!("y = {:.3}", world.position(body).unwrap().y);
//!     }
//! }
//! let y = world.position(body).unwrap().y;
//! assert!((y - 0.5).abs() < 0.01, "the box rests on the ground: y = {y}");
//! ```
//!
//! The crate's pieces, from the step down: [`World::step`] runs the
//! [`broadphase`] (a dynamic AABB tree), the narrowphase in [`collision`]
//! (SAT with face clipping for polygons, GJK/EPA for rounded shapes), and
//! the warm-started sequential-impulse solver in [`dynamics`]. Every tuning
//! constant lives in [`settings`] with the reason it exists.
//!
//! # Snapshots
//!
//! With the `serde` feature, [`World`] implements `Serialize` and
//! `Deserialize`: bodies, shapes, contacts with their warm-start impulses,
//! the broadphase tree, the settings, the free lists, the step count and
//! the frozen list are saved, so a restored world steps bit for bit like
//! the one that was saved (rollback netcode, replays, save games). Only
//! scratch buffers and a lookup index are rebuilt on loading. Loading
//! checks that the indices tying bodies, shapes, contacts and proxies
//! together are consistent and refuses a damaged snapshot with an error.
//!
//! A settled pile of 200 mixed bodies (about three contacts per body)
//! takes about 460 bytes per body in a compact binary format (`postcard`)
//! and about 2.3 KB per body in JSON (`serde_json`, which round-trips every
//! `f32` exactly). Measured by the `snapshot_size_per_body` test.
//!
//! # Determinism
//!
//! The same calls in the same order give bit-identical results: nothing
//! iterates a hash map, and every loop runs in slot order. The
//! `determinism` test pins the bits of a scene with bodies removed and
//! added mid-run.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod broadphase;
pub mod collision;
pub mod debug_draw;
pub mod dynamics;
pub mod error;
pub mod math;
pub mod settings;
pub mod shapes;
mod world;

pub use debug_draw::{Color, DebugDraw, DrawOptions};
pub use dynamics::body::{BodyDef, BodyType};
pub use error::{BodyError, Error};
pub use math::{Aabb, Rot, Transform, Vec2};
pub use settings::{PositionCorrection, SolverSettings, Sweep, WorldSettings};
pub use shapes::{Capsule, Circle, MassData, Polygon, Shape, ShapeError};
pub use world::{draw_shape, BodyId, ContactView, FixedStepper, RayHit, ShapeDef, ShapeId, World};
