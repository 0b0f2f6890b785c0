//! The README and the guide (`docs/guide/*.md`) as doctests: every
//! ```` ```rust ```` block in them is compiled and run by `cargo test`, so
//! an example a reader copies works. Compiled only for doctests; the pages
//! are read on GitHub, not in rustdoc.

#[doc = include_str!("../../../README.md")]
pub mod readme {}
#[doc = include_str!("../../../docs/guide/index.md")]
pub mod index {}
#[doc = include_str!("../../../docs/guide/bodies.md")]
pub mod bodies {}
#[doc = include_str!("../../../docs/guide/step.md")]
pub mod step {}
#[doc = include_str!("../../../docs/guide/contacts.md")]
pub mod contacts {}
#[doc = include_str!("../../../docs/guide/filtering.md")]
pub mod filtering {}
#[doc = include_str!("../../../docs/guide/events.md")]
pub mod events {}
#[doc = include_str!("../../../docs/guide/queries.md")]
pub mod queries {}
#[doc = include_str!("../../../docs/guide/joints.md")]
pub mod joints {}
#[doc = include_str!("../../../docs/guide/character.md")]
pub mod character {}
// Needs the `serde` feature, as the tests run (`./test.sh`).
#[cfg(feature = "serde")]
#[doc = include_str!("../../../docs/guide/snapshots.md")]
pub mod snapshots {}
#[doc = include_str!("../../../docs/guide/performance.md")]
pub mod performance {}
#[doc = include_str!("../../../docs/guide/robustness.md")]
pub mod robustness {}
#[doc = include_str!("../../../docs/guide/python.md")]
pub mod python {}
