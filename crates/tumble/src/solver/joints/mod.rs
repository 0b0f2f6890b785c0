//! The solver's work on joints beyond each joint's own kernels (those are
//! the kind's, in [`crate::joint`]): the hinges of a color packed four to
//! a lane batch ([`hinges`]), and the exact solve of the hinge trees that
//! Gauss-Seidel cannot converge ([`tree`]).

pub(crate) mod hinges;
pub(crate) mod tree;
