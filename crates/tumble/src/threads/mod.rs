//! The step's worker threads, and what they share: the one module of the
//! crate with `unsafe` code. The world's workers ([`Workers`], a thread
//! pool) and the loops that split a stage's items between them
//! ([`for_each_indexed_mut`] and the like); the team that runs the
//! step's parallel loops ([`Team`], with [`Blocks`] to hand a slice out
//! run by run), the cells of the body states the solve's workers all read
//! and write ([`SharedCell`]); and, as they need intrinsics too, the
//! cache hint [`prefetch()`] and the eight-wide lanes of the solver's
//! kernels on processors with AVX2 ([`F8`], run through [`with_avx2`]).

#![allow(unsafe_code)]

#[cfg(target_arch = "x86_64")]
mod avx;
mod prefetch;
mod runs;
mod state;
mod team;
#[forbid(unsafe_code)]
mod workers;

#[cfg(target_arch = "x86_64")]
pub(crate) use avx::{has_avx2, with_avx2, F8, M8};
pub(crate) use prefetch::{prefetch, prefetch_head, PREFETCH_AHEAD};
pub(crate) use runs::{block_size, for_each4, for_each_range};
pub(crate) use state::SharedCell;
pub(crate) use team::{with_team, AtomicMin, Blocks, Team};
pub use workers::MAX_WORKERS;
pub(crate) use workers::{
    for_each_indexed_mut, for_each_slot_mut, for_each_slot_mut_ahead, for_each_triple_mut, join, Ahead,
    Workers,
};
