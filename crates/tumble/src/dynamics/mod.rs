//! Bodies, persistent contacts and the contact solver.

pub mod body;
pub(crate) mod contact;
pub(crate) mod solver;
mod wide;
