//! The Tumble testbed: the interactive window, the stability report and the
//! screenshot renderer, all in library code so tests can drive them.
//!
//! - [`testbed::Testbed`]: the state and every user action (keys, drags,
//!   scene changes, fixed-rate stepping, live metrics), with no window.
//! - [`draw`]: the one drawing path. The world draws into a
//!   [`draw::DrawList`]; that becomes screen-space [`draw::PaintOp`]s.
//! - [`ui`]: the egui window that paints those ops ([`ui::paint`]).
//! - [`raster`] and [`screenshot`]: the software back end that paints the
//!   same ops into a PNG.
//! - [`measure`]: the SCENES.md stability report.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod camera;
pub mod draw;
pub mod figures;
pub mod font;
pub mod measure;
pub mod raster;
pub mod screenshot;
pub mod testbed;
pub mod ui;

pub use testbed::Testbed;
