//! The Tumble testbed: the interactive window, the stability report and the
//! screenshot renderer, all in library code so tests can drive them.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod measure;
