//! Handles as Python integers: a handle's slot index in the low 32 bits and
//! its generation in the high 32, so a key of a removed body never equals
//! the key of the body that reuses its slot. Numpy arrays of bodies are
//! arrays of these keys (`uint64`).
//!
//! The engine's handles do not show their generation; their serde form
//! (the `serde` feature) is the two numbers in order, index then
//! generation, and that is read here with `postcard` on the stack.

use serde::de::DeserializeOwned;
use serde::Serialize;

/// A handle's key.
pub fn key<T: Serialize>(id: T) -> u64 {
    let mut buf = [0u8; 16];
    let (index, generation): (u32, u32) = postcard::to_slice(&id, &mut buf)
        .ok()
        .and_then(|bytes| postcard::from_bytes(bytes).ok())
        .unwrap_or((u32::MAX, u32::MAX));
    (u64::from(generation) << 32) | u64::from(index)
}

/// The handle of a key. Every key is some handle; one the world never
/// issued is stale there.
pub fn handle<T: DeserializeOwned>(key: u64) -> Option<T> {
    let mut buf = [0u8; 16];
    let pair = (key as u32, (key >> 32) as u32);
    let bytes = postcard::to_slice(&pair, &mut buf).ok()?;
    postcard::from_bytes(bytes).ok()
}
