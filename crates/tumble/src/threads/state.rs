//! The body states the solve's workers share ([`SharedCell`]).
//!
//! The solve's workers take a graph color's batches and joints between
//! them, and every batch or joint reads and writes the states of its own
//! bodies. The coloring (`solver::graph`) is what makes that
//! safe: within a color no dynamic body appears twice, and static and
//! kinematic bodies (which many batches and joints read) are never
//! written. So during a color's pass each state is written by at most
//! one worker and then read by no other, and between passes the workers
//! wait for each other (the [`Team`](super::Team)'s stage barrier, which
//! orders their memory). `Graph::footprints_are_disjoint` tests exactly
//! that condition (the solve asserts it in debug builds, the coloring's
//! tests on random graphs), and the scalar kernels, which write both
//! bodies of a constraint, run only between the parallel passes.
//!
//! With split impulses, each lane batch's split impulses sit in a cell
//! of their own beside the batch (`Graph::pair_split`): only the worker
//! solving that batch touches it, as it holds the batch itself.
//!
//! A relaxed atomic per float would be safe Rust without any of this, but
//! it moves every value through an integer register, on the hottest
//! loads and stores of the solve. The cells below compile to the plain
//! loads and stores of a `&mut [BodyState]`.

use std::cell::UnsafeCell;

/// A value (a body's state) in a cell that the workers share; the solver
/// reads and writes its fields through [`SharedCell::read`] and
/// [`SharedCell::write`], which compile to plain loads and stores.
#[derive(Debug, Default)]
#[repr(transparent)]
pub(crate) struct SharedCell<T>(UnsafeCell<T>);

// SAFETY: a `&SharedCell` reaches several threads only inside a solve
// pass over one graph color, in which (see the module comment, and
// `Graph::footprints_are_disjoint`) each cell is written by at most one
// thread and a cell that is written is touched by no other thread (a
// batch's split impulses: by the thread that holds the batch): there
// is no data race. Passes are separated by the team's stage barrier,
// which synchronises.
unsafe impl<T: Send> Sync for SharedCell<T> {}

impl<T: Copy> SharedCell<T> {
    /// A cell holding `value`.
    pub(crate) fn new(value: T) -> SharedCell<T> {
        SharedCell(UnsafeCell::new(value))
    }

    /// The whole value.
    #[inline(always)]
    pub(crate) fn load(&self) -> T {
        // SAFETY: no other thread writes this cell while this one may read
        // it (the module comment); the value is `Copy`.
        unsafe { *self.0.get() }
    }

    /// Replaces the whole value.
    #[inline(always)]
    pub(crate) fn store(&self, value: T) {
        // SAFETY: this thread is the only one touching this cell in the
        // current pass (the module comment).
        unsafe { *self.0.get() = value }
    }

    /// What `f` reads of the value (some of its fields: only those are
    /// loaded). `f`'s result cannot borrow from the value.
    #[inline(always)]
    pub(crate) fn read<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        // SAFETY: as for `load`; the reference does not outlive `f`.
        f(unsafe { &*self.0.get() })
    }

    /// Changes the value by `f` (some of its fields: only those are
    /// stored).
    #[inline(always)]
    pub(crate) fn write(&self, f: impl FnOnce(&mut T)) {
        // SAFETY: as for `store`; the reference does not outlive `f`, and
        // no other reference to the value is live on this thread (`read`'s
        // and `write`'s end with their calls).
        f(unsafe { &mut *self.0.get() })
    }
}

impl<T: Copy> Clone for SharedCell<T> {
    fn clone(&self) -> SharedCell<T> {
        SharedCell::new(self.load())
    }
}
