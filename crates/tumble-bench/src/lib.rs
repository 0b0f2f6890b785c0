//! The side-by-side benchmark: Tumble, Box2D v3 (through `boxdd`) and
//! Rapier (through `rapier2d`) build the same nine scenes (seven of boxes
//! and shapes, two of joints), and two of quality (a box slid over a floor
//! of tiles), from one engine-neutral description
//! ([`spec`], kept in `tumble-scenes` so the testbed shows the same
//! scenes), step them in turn ([`runner`]) and report the median time per
//! step with a quality figure, so a fast engine whose pyramid collapses or
//! whose joints come apart is seen doing so ([`report`], [`plot`]).
//! [`memory`] estimates Tumble's bytes per body, per contact and per
//! joint. [`sleep`] runs the sleep scenes, the pyramids with sleeping on,
//! until they are asleep and after they are woken. [`stages`] shows where
//! each engine's step spends its time, by its own profile. [`timing`]
//! holds how they all time and take turns.
//!
//! ```no_run
//! use tumble_bench::{engines::EngineKind, runner, spec};
//! let scene = spec::build("large-pyramid").unwrap();
//! let run = runner::run_scene(&scene, &EngineKind::ALL, 20, runner::CHUNK, 1);
//! println!("{}", tumble_bench::report::markdown_table(&run));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod engines;
pub mod memory;
pub mod plot;
pub mod report;
pub mod runner;
pub mod sleep;
pub mod stages;
pub mod timing;
pub use tumble_scenes::bench as spec;
