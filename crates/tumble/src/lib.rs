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
//! let ground = world.create_body(&BodyDef::static_body().at(Vec2::new(0.0, -1.0))).unwrap();
//! world.create_shape(ground, Polygon::new_box(50.0, 1.0).unwrap(), &ShapeDef::default()).unwrap();
//!
//! // A 1 m box dropped from 4 m.
//! let body = world.create_body(&BodyDef::dynamic().at(Vec2::new(0.0, 4.0))).unwrap();
//! world.create_shape(body, Polygon::new_box(0.5, 0.5).unwrap(), &ShapeDef::default()).unwrap();
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
//! The crate's pieces, from the step down: [`World::step`] runs named
//! stages in order (see its docs): the broadphase (a dynamic AABB tree)
//! finds new pairs; the narrowphase in [`collision`] (SAT with face
//! clipping for polygons and capsules, closed forms for circles, GJK/EPA
//! for queries and deep overlaps) updates every awake contact, or keeps its
//! manifold when the pair hardly moved (see
//! [`SolverSettings::contact_recycling`]); the warm-started
//! sequential-impulse solver (the soft step, [`PositionCorrection`], over
//! the graph colors of [`Coloring`]) moves the awake bodies; and islands
//! of resting bodies fall asleep. Every tuning constant lives in
//! [`settings`] with the reason it exists.
//!
//! # Threads
//!
//! With the `parallel` feature (on by default), a world built with
//! [`WorldSettings::workers`] above 1, or given [`World::set_workers`],
//! splits its step's independent work between that many threads: the
//! pair search, the collision of each contact, and each graph color's
//! constraints. The results are the same bits whatever the count:
//!
//! ```
//! use tumble::{World, WorldSettings};
//!
//! let mut world = World::new(WorldSettings { workers: 2, ..WorldSettings::default() });
//! world.set_workers(4).unwrap(); // or change it between steps
//! assert!(world.set_workers(0).is_err());
//! ```
//!
//! # Sleeping
//!
//! Bodies linked by touching contacts form an island. When every body of
//! an island has moved slower than its sleep threshold
//! ([`BodyDef::sleep_threshold`], 0.05 m/s at its farthest point) for half
//! a second, the island falls asleep: its bodies are no longer integrated,
//! collided or solved, and a world at rest costs almost nothing to step. A
//! contact beginning with an awake body wakes the island, and so does any
//! call that moves one of its bodies (a new transform, velocity, force,
//! impulse, type or shape), removing something it touches, or
//! [`World::wake`]. [`World::is_awake`] and [`World::awake_body_count`]
//! tell what is simulated; [`BodyDef::can_sleep`] and
//! [`WorldSettings::sleeping`] turn sleeping off for one body or the world.
//!
//! After each step, [`World::contact_events`] lists the pairs of shapes
//! that began and stopped touching (and the hits), and [`World::profile`]
//! how long each stage took.
//!
//! # Game features
//!
//! - Collision filtering: [`Filter`] per shape ([`ShapeDef::filter`],
//!   [`World::set_filter`]) and [`ContactHooks::should_collide`].
//! - Sensors: [`ShapeDef::sensor`], [`World::sensor_events`],
//!   [`World::sensor_overlaps`].
//! - Events: [`ContactEvents`] (begin, end, [`ContactHit`]), enabled per
//!   shape.
//! - Contact hooks: [`World::step_with_hooks`] with a [`ContactHooks`] (or the ready-made [`OneWayPlatforms`])
//!   (one-way platforms, conveyor belts).
//! - Motion locks: [`MotionLocks`].
//! - Segments and smooth one-sided chains: [`Segment`],
//!   [`World::create_chain`].
//! - Smooth seams: polygons of one body (a tile map) or of static bodies
//!   that lie edge to edge collide as one surface, no ghost collisions
//!   where they meet ([`WorldSettings::smooth_seams`],
//!   [`World::seam_edges`]).
//! - Queries with a [`QueryFilter`]: [`World::ray_cast`] (and `_closest`,
//!   `_all`), [`World::shape_cast`], [`World::overlap_point`],
//!   [`World::overlap_aabb`], [`World::overlap_shape`], and
//!   [`World::explode`].
//! - A character mover: [`World::move_character`] with a
//!   [`CharacterController`].
//!
//! # Joints
//!
//! A joint holds two bodies together by a frame on each ([`JointDef`]):
//! a hinge ([`RevoluteJoint`], with limits, a motor and a spring), a
//! slider ([`PrismaticJoint`]), a rod, spring or rope
//! ([`DistanceJoint`]), a weld ([`WeldJoint`], rigid or soft), a wheel on
//! a sprung axis ([`WheelJoint`]), a drive towards a pose
//! ([`MotorJoint`]) and a filter that only stops two bodies colliding
//! ([`JointKind::Filter`]). Joints are solved in the graph colors with
//! the contacts (so they thread), warm started, saved in snapshots, and
//! link their bodies' islands. A pendulum:
//!
//! ```
//! use tumble::{BodyDef, Circle, JointDef, RevoluteJoint, ShapeDef, Vec2, World};
//!
//! let mut world = World::default();
//! let pivot = world.create_body(&BodyDef::static_body().at(Vec2::new(0.0, 10.0))).unwrap();
//! let bob = world.create_body(&BodyDef::dynamic().at(Vec2::new(2.0, 10.0))).unwrap();
//! world.create_shape(bob, Circle::new(Vec2::ZERO, 0.1).unwrap(), &ShapeDef::default()).unwrap();
//! // A hinge where the pivot is now: the bob swings on a 2 m arm.
//! let def = JointDef::new(pivot, bob, RevoluteJoint::default())
//!     .at(&world, Vec2::new(0.0, 10.0))
//!     .unwrap();
//! let hinge = world.create_joint(&def).unwrap();
//! for _ in 0..30 {
//!     world.step(1.0 / 60.0);
//! }
//! assert!(world.position(bob).unwrap().y < 9.0, "it swung down");
//! assert!((world.joint_length(hinge).unwrap()).abs() < 1e-3, "and the hinge held");
//! ```
//!
//! A breakable joint is the game's rule: compare [`World::joint_reaction`]
//! with its strength after each step and [`World::remove_joint`] it.
//!
//! # Errors
//!
//! Every constructor and setter checks its input and returns a typed error
//! naming the problem; a call that fails leaves the world exactly as it
//! was. Nothing in the public API panics on bad numbers.
//!
//! | error | when |
//! |---|---|
//! | [`ShapeError::TooFewPoints`] | a polygon or outline has fewer than 3 distinct points (after welding near-duplicates), a hand-built polygon's `count` is below 3, or a chain has fewer than 2 points (3 for a loop) |
//! | [`ShapeError::Collinear`] | the points span no area; a segment's ends (or two consecutive chain points) are within the weld distance; a box is no wider than the weld distance (its corners would weld, as they would given to `Polygon::new`); an edge collapsed because the coordinates are too large for the shape's size |
//! | [`ShapeError::NonFinite`] | a coordinate, radius, angle, density, friction or restitution is NaN or infinite |
//! | [`ShapeError::TooManyVertices`] | a convex hull (or a hand-built polygon) has more than 8 vertices |
//! | [`ShapeError::NonPositiveRadius`] | a circle or capsule radius is <= 0, or a polygon's rounding radius is < 0 |
//! | [`ShapeError::DegenerateCapsule`] | a capsule's two centers coincide (within the weld distance) |
//! | [`ShapeError::SelfIntersecting`] | a concave outline crosses or touches itself |
//! | [`ShapeError::NonPositiveDensity`] | a [`ShapeDef`] density is <= 0 |
//! | [`ShapeError::InvalidMaterial`] | friction or restitution is negative |
//! | [`ShapeError::NotConvex`] | a hand-built [`Polygon`] given to [`World::create_shape`] is not strictly convex and counter-clockwise, or its normals do not match its edges |
//! | [`ShapeError::MassOverflow`] | a shape is so large (or dense) that its area, centroid, mass or inertia overflows `f32`, or so light (a subnormal density, a speck) that the inverse of its mass or inertia does |
//! | [`ShapeError::TooFar`] | a shape (or a chain point, or a concave part, or a query's shape) reaches farther from its body's (or its own) origin than the world extent ([`settings::WORLD_EXTENT`], 100 km times the length unit) |
//! | [`BodyError::StaleHandle`] | a [`BodyId`] or [`ShapeId`] refers to a removed body or shape (also a shape of a removed body), even after its slot was reused |
//! | [`BodyError::NonFinite`] | a position, angle, velocity, force, torque, impulse, point, damping, gravity (scale), sleep threshold, solver float or step rate is NaN or infinite; a query's point, box, translation or transform, or a [`CharacterController`] field is; an [`Explosion`]'s impulse, or a body's velocity after it, overflows; the string names it |
//! | [`BodyError::NegativeDamping`] | linear or angular damping is negative |
//! | [`BodyError::NotASensor`] | [`World::sensor_overlaps`] was given a shape that is not a sensor |
//! | [`BodyError::OutOfRange`] | a finite number outside its range: [`World::set_solver_settings`] (iterations 1..=16, substeps 1..=8, baumgarte 0..=1, restitution threshold >= 0), a negative [`BodyDef::sleep_threshold`], [`FixedStepper::try_new`] (rate > 0, at least one step), a negative [`Explosion`] radius, falloff or impulse or its center beyond the world extent, a query's start (ray origin, point, placed shape) beyond the world extent or its translation longer on an axis than twice the extent, a query transform's rotation not of unit length, a [`CharacterController`] with a zero `up` or a negative length; the string names it |
//! | [`JointError::StaleHandle`] | a [`JointId`] refers to a removed joint (also a joint of a removed body) |
//! | [`JointError::StaleBody`] | a [`JointDef`] names a removed body |
//! | [`JointError::SameBody`] | both ends of a joint are one body |
//! | [`JointError::NonFinite`] | a joint frame, anchor or parameter is NaN or infinite; the string names it |
//! | [`JointError::InvertedLimits`] | a lower limit (angle, translation, length) is above the upper |
//! | [`JointError::Negative`] | a joint's stiffness, damping ratio, largest force or torque, or minimum length is negative |
//! | [`JointError::OutOfRange`] | a revolute limit outside `-pi..=pi`, or a distance joint's length not positive |
//! | [`JointError::WrongKind`] | [`World::set_joint_kind`] given another kind, or [`World::set_motor_speed`] a joint with no motor |
//! | [`JointError::NoDynamicBody`] | [`World::create_joint`] between two bodies neither of which is dynamic (static or kinematic) |
//! | [`JointError::MotorOff`] | [`World::set_motor_speed`] on a joint whose motor is off (turn it on with [`World::set_joint_kind`]) |
//! | [`Error::Shape`] | [`World::create_shape`], [`World::create_concave`], [`World::create_chain`], [`World::set_friction`] and [`World::set_restitution`] refused the geometry or material, or a query ([`World::overlap_shape`], [`World::shape_cast`], [`World::move_character`]) its shape |
//! | [`Error::Body`] | the same calls were given a stale handle; a query (every `ray_cast*`, `overlap_*`, [`World::shape_cast`], [`World::move_character`]) refused a number |
//! | [`Error::Joint`] | a [`JointError`] carried up by `?` into an [`Error`] (every error converts into one) |
//!
//! A few inputs are repaired rather than refused, and say so in their docs:
//! [`World::new`] (a bad length scale or gravity falls back to the default,
//! iterations are clamped), [`FixedStepper::new`] (a bad rate becomes
//! 60 Hz), [`World::step`] (a non-positive or non-finite `dt` does nothing).
//! A body whose state becomes non-finite anyway (a huge but finite user
//! force) is frozen in place and listed by [`World::frozen_bodies`].
//!
//! # Snapshots
//!
//! With the `serde` feature, [`World`] implements `Serialize` and
//! `Deserialize`: bodies, shapes, contacts and joints with their
//! warm-start impulses, islands and who is asleep, the broadphase tree, the settings, the free
//! lists, the step count and the frozen list are saved, so a restored
//! world steps bit for bit like the one that was saved (rollback netcode,
//! replays, save games), asleep or awake. Only scratch buffers and a
//! lookup index are rebuilt on loading.
//!
//! A snapshot carries a version and a checksum: the world's state is
//! written as one block of bytes (every `f32` bit for bit, in any serde
//! format) beside its CRC-64. Loading refuses a snapshot of another
//! version by its number, a damaged one (a byte changed, cut short)
//! with an error that says it is damaged, and then checks that the
//! indices tying bodies, shapes, contacts, islands and proxies together
//! are consistent. (A format may drop the message: `postcard` reports
//! every refusal as `SerdeDeCustom`; `serde_json` keeps it.) A snapshot
//! the engine wrote always loads.
//!
//! A settled pile of 200 mixed bodies (about three contacts per body)
//! takes about 830 bytes per body in a compact binary format (`postcard`)
//! and about 2.3 KB per body in JSON (`serde_json`, where the state's
//! bytes are a list of numbers); a free slot costs a byte. Measured by
//! the `snapshot_size_per_body` test.
//!
//! # Determinism
//!
//! The same calls in the same order give bit-identical results, on any
//! number of worker threads: nothing iterates a hash map, structural
//! changes run in slot order, and what the workers compute in parallel
//! does not depend on which worker takes it. The `determinism` tests pin
//! the bits of a scene with bodies removed and added mid-run, of one
//! that falls asleep, is kicked awake and falls asleep again, and of one
//! with every kind of joint, and compare 1 to 4 workers.
// `unsafe` is forbidden in every module but one: what the step's worker
// threads share (`threads`): the team that hands them the step's
// parallel loops, the cells of the body states the solve writes at once,
// and what needs the processor's intrinsics: the cache hint that the
// walks over scattered contacts ask ahead with, and the eight-wide (AVX2)
// lanes of the solver's kernels.
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[forbid(unsafe_code)]
mod body;
#[forbid(unsafe_code)]
mod broadphase;
#[forbid(unsafe_code)]
mod clock;
#[forbid(unsafe_code)]
pub mod collision;
#[forbid(unsafe_code)]
mod contact;
#[forbid(unsafe_code)]
mod debug_draw;
#[forbid(unsafe_code)]
mod error;
#[forbid(unsafe_code)]
mod events;
#[forbid(unsafe_code)]
mod filter;
// The README and the guide's examples, compiled and run as doctests.
#[cfg(doctest)]
#[forbid(unsafe_code)]
pub mod guide;
#[forbid(unsafe_code)]
mod hooks;
#[forbid(unsafe_code)]
mod id;
#[forbid(unsafe_code)]
mod island;
#[forbid(unsafe_code)]
mod joint;
#[forbid(unsafe_code)]
pub mod math;
#[forbid(unsafe_code)]
pub mod settings;
#[forbid(unsafe_code)]
mod shapes;
#[forbid(unsafe_code)]
mod solver;
#[forbid(unsafe_code)]
mod step_context;
#[forbid(unsafe_code)]
mod store;
#[cfg(test)]
#[forbid(unsafe_code)]
mod test_rng;
mod threads;
#[forbid(unsafe_code)]
mod world;

pub use body::{BodyDef, BodyType, MotionLocks};
pub use debug_draw::{density_alpha, Color, DebugDraw, DrawOptions};
pub use error::{BodyError, Error, JointError, ShapeError};
pub use events::{ContactEvents, ContactHit, ContactTouch, SensorEvents, SensorOverlap};
pub use filter::{Filter, QueryFilter, DEFAULT_CATEGORY};
pub use hooks::{ContactHooks, ContactMaterial, NoHooks, OneWayPlatforms, ShapePair};
pub use joint::{DistanceJoint, JointKind, MotorJoint, PrismaticJoint, RevoluteJoint, WeldJoint, WheelJoint};
pub use math::{Aabb, Rot, Transform, Vec2};
pub use settings::{Coloring, LaneWidth, PositionCorrection, SolverSettings, Sweep, WorldSettings};
pub use shapes::{
    chain_segments, convex_hull, decompose_concave, Capsule, ChainSegment, Circle, MassData, Polygon,
    Segment, Shape, ShapeDef,
};
pub use world::{
    draw_shape, BodyId, CharacterController, CharacterMove, ContactView, Explosion, FixedStepper, JointDef,
    JointId, MemoryUsage, RayHit, ShapeCastHit, ShapeId, StepProfile, World,
};
