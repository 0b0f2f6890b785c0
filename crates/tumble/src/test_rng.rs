//! A small deterministic random generator for the crate's tests.

use crate::math::Vec2;

/// Xorshift: uniform floats in a range, and points in a square.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// A float uniform in `[lo, hi)`.
    pub(crate) fn range(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
    }

    /// A point uniform in the square of half-side `r` about the origin.
    pub(crate) fn vec(&mut self, r: f32) -> Vec2 {
        Vec2::new(self.range(-r, r), self.range(-r, r))
    }
}
