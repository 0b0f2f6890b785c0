//! The body states the solve's workers share.
//!
//! The solve's workers take a graph colour's batches and joints between
//! them, and every batch or joint reads and writes the states of its own
//! bodies. The colouring ([`crate::solver::graph`]) is what makes that
//! safe: within a colour no dynamic body appears twice, and static and
//! kinematic bodies (which many batches and joints read) are never
//! written. So during a colour's pass each state is written by at most
//! one worker and then read by no other, and between passes the workers
//! wait for each other (the [`Team`](super::Team)'s stage barrier, which
//! orders their memory). `Graph::footprints_are_disjoint` tests exactly
//! that condition (the solve asserts it in debug builds, the colouring's
//! tests on random graphs), and the scalar kernels, which write both
//! bodies of a constraint, run only between the parallel passes.
//!
//! A relaxed atomic per float would be safe Rust without any of this, but
//! it moves every value through an integer register: measured, 16% more
//! instructions on the large pyramid's step. The cells below compile to
//! the plain loads and stores of a `&mut [BodyState]`.

use crate::math::{Rot, Vec2};
use crate::solver::types::BodyState;
use std::cell::UnsafeCell;

/// One body's [`BodyState`] in a cell that the solve's workers share.
#[derive(Debug, Default)]
#[repr(transparent)]
pub(crate) struct StateCell(UnsafeCell<BodyState>);

// SAFETY: a `&StateCell` reaches several threads only inside a solve
// pass over one graph colour, in which (see the module comment, and
// `Graph::footprints_are_disjoint`) each cell is written by at most one thread and a
// cell that is written is touched by no other thread: there is no data
// race. Passes are separated by the team's stage barrier, which
// synchronises.
unsafe impl Sync for StateCell {}

impl StateCell {
    /// A cell holding `s`.
    pub(crate) fn new(s: BodyState) -> StateCell {
        StateCell(UnsafeCell::new(s))
    }

    /// The whole state.
    #[inline(always)]
    pub(crate) fn load(&self) -> BodyState {
        // SAFETY: no other thread writes this cell while this one may read
        // it (the module comment); the value is `Copy`.
        unsafe { *self.0.get() }
    }

    /// Replaces the whole state.
    #[inline(always)]
    pub(crate) fn store(&self, s: BodyState) {
        // SAFETY: this thread is the only one touching this cell in the
        // current pass (the module comment).
        unsafe { *self.0.get() = s }
    }

    /// Velocity and angular velocity.
    #[inline(always)]
    pub(crate) fn velocity(&self) -> (Vec2, f32) {
        // SAFETY: as for `load`.
        unsafe {
            let s = &*self.0.get();
            (s.v, s.w)
        }
    }

    /// Sets the velocity and angular velocity.
    #[inline(always)]
    pub(crate) fn set_velocity(&self, v: Vec2, w: f32) {
        // SAFETY: as for `store`.
        unsafe {
            let s = &mut *self.0.get();
            s.v = v;
            s.w = w;
        }
    }

    /// Pseudo-velocity and pseudo angular velocity.
    #[inline(always)]
    pub(crate) fn pseudo(&self) -> (Vec2, f32) {
        // SAFETY: as for `load`.
        unsafe {
            let s = &*self.0.get();
            (s.pv, s.pw)
        }
    }

    /// Sets the pseudo-velocities.
    #[inline(always)]
    pub(crate) fn set_pseudo(&self, v: Vec2, w: f32) {
        // SAFETY: as for `store`.
        unsafe {
            let s = &mut *self.0.get();
            s.pv = v;
            s.pw = w;
        }
    }

    /// Translation and rotation since the step began.
    #[inline(always)]
    pub(crate) fn motion(&self) -> (Vec2, Rot) {
        // SAFETY: as for `load`.
        unsafe {
            let s = &*self.0.get();
            (s.dp, s.dq)
        }
    }
}

impl Clone for StateCell {
    fn clone(&self) -> StateCell {
        StateCell::new(self.load())
    }
}
