//! What the step's worker threads share: the one module of the crate
//! with `unsafe` code. The team that runs the step's parallel loops
//! ([`Team`], with [`Blocks`] to hand a slice out run by run), the cells
//! of the body states the solve's workers all read and write
//! ([`SharedCell`]); and, as it needs an intrinsic too, the cache hint
//! [`prefetch`].

#![allow(unsafe_code)]

mod prefetch;
mod runs;
mod state;
mod team;

pub(crate) use prefetch::{prefetch, prefetch_head, PREFETCH_AHEAD};
pub(crate) use runs::{
    block_size, for_each4, for_each_range, for_each_run, for_each_run3, for_each_slot_run, SlotRun,
};
pub(crate) use state::SharedCell;
pub(crate) use team::{driving, with_team, AtomicMin, Blocks, Team};
