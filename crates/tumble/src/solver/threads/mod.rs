//! What the solve's worker threads share: the one module of the crate
//! with `unsafe` code. The body states they all read and write
//! ([`StateCell`]) and the team that runs the solve's parallel stages
//! ([`Team`], with [`Blocks`] to hand a slice out run by run); and, as it
//! needs an intrinsic too, the cache hint [`prefetch`].

#![allow(unsafe_code)]

mod prefetch;
mod state;
mod team;

pub(crate) use prefetch::{prefetch, PREFETCH_AHEAD};
pub(crate) use state::StateCell;
pub(crate) use team::{block_size, for_each4, for_each_range, with_team, AtomicMin, Blocks, Team};
