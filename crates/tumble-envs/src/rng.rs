//! numpy's PCG64 generator, draw for draw.
//!
//! gymnasium's environments draw everything random (terrain, initial
//! pushes, engine dispersion) from `env.np_random`, a numpy `Generator`
//! over PCG64. Drawing from the same stream in the same order gives the
//! same terrain and pushes for the same seed, so an episode here starts
//! where gymnasium's starts. The Python side seeds numpy's generator and
//! hands its state over ([`Pcg64::from_numpy_state`]); this module then
//! produces numpy's `uniform` and `integers` results exactly.

use crate::EnvError;

/// The 128-bit multiplier of numpy's PCG64 (its `PCG_DEFAULT_MULTIPLIER_128`).
const MULTIPLIER: u128 = (0x2360_ED05_1FC6_5DA4_u128 << 64) | 0x4385_DF64_9FCC_F645;

/// numpy's PCG64 bit generator with its 32-bit buffer: a 128-bit linear
/// congruential state, an odd increment, and XSL-RR output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pcg64 {
    state: u128,
    increment: u128,
    /// numpy hands out the high half of a 64-bit draw as the next 32-bit
    /// draw; this is that half, when one is waiting.
    buffered: Option<u32>,
}

impl Pcg64 {
    /// The generator whose `bit_generator.state` is `{"state": {"state":
    /// state, "inc": increment}, "has_uint32": .., "uinteger": ..}`
    /// (`buffered` is `Some(uinteger)` when `has_uint32` is 1).
    ///
    /// The increment must be odd, as numpy's seeding always makes it: an
    /// odd increment gives the generator its full period of 2^128, while
    /// an even one can leave it on a fixed point (state 0, increment 0
    /// draws zeros for ever, and a rejection loop drawing from it never
    /// ends), so an even increment is refused.
    pub fn from_numpy_state(state: u128, increment: u128, buffered: Option<u32>) -> Result<Pcg64, EnvError> {
        if increment & 1 == 0 {
            return Err(EnvError::Setting(
                "a PCG64 state's increment (\"inc\")",
                "must be odd",
            ));
        }
        Ok(Pcg64 {
            state,
            increment,
            buffered,
        })
    }

    /// The state in numpy's terms: `(state, inc, uinteger if has_uint32)`.
    pub fn numpy_state(&self) -> (u128, u128, Option<u32>) {
        (self.state, self.increment, self.buffered)
    }

    /// The generator `numpy.random.default_rng(seed)` makes (and so
    /// gymnasium's `reset(seed=seed)`): the seed's 32-bit words mixed by
    /// numpy's `SeedSequence` into four 64-bit words, which seed PCG64's
    /// state and increment.
    pub fn from_seed(seed: u64) -> Pcg64 {
        let words = seed_sequence_words(seed);
        let state = (u128::from(words[0]) << 64) | u128::from(words[1]);
        let sequence = (u128::from(words[2]) << 64) | u128::from(words[3]);
        let mut g = Pcg64 {
            state: 0,
            increment: (sequence << 1) | 1,
            buffered: None,
        };
        g.next_u64();
        g.state = g.state.wrapping_add(state);
        g.next_u64();
        g
    }

    /// The next 64 random bits (numpy's `next_uint64`: step, then output).
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_mul(MULTIPLIER).wrapping_add(self.increment);
        let folded = ((self.state >> 64) as u64) ^ (self.state as u64);
        folded.rotate_right((self.state >> 122) as u32)
    }

    /// The next 32 random bits (numpy's `next_uint32`: the low half of a
    /// fresh 64-bit draw, keeping the high half for the call after).
    pub fn next_u32(&mut self) -> u32 {
        if let Some(high) = self.buffered.take() {
            return high;
        }
        let bits = self.next_u64();
        self.buffered = Some((bits >> 32) as u32);
        bits as u32
    }

    /// A double uniform in [0, 1) (numpy's `next_double`: 53 bits).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }

    /// numpy's `Generator.uniform(low, high)`.
    pub fn uniform(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.next_f64()
    }

    /// numpy's `Generator.integers(low, high)` (int64, `high` excluded)
    /// for a span up to 2^32: Lemire's multiply-and-reject on 32-bit
    /// draws. A span of one value draws nothing, as in numpy
    /// (gymnasium's hardcore walker asks `integers(4, 5)` for its stairs).
    pub fn integers(&mut self, low: i64, high: i64) -> i64 {
        debug_assert!(high > low && high - low <= 1 << 32);
        let span = (high - low) as u64;
        if span == 1 {
            return low;
        }
        let mut product = u64::from(self.next_u32()) * span;
        if (product as u32 as u64) < span {
            let threshold = (u64::from(u32::MAX) - (span - 1)) % span;
            while (product as u32 as u64) < threshold {
                product = u64::from(self.next_u32()) * span;
            }
        }
        low + (product >> 32) as i64
    }
}

/// numpy's `SeedSequence(seed).generate_state(4, uint64)` for a seed
/// below 2^64: the entropy words hashed into a pool of four, every pool
/// word mixed into every other, then the pool hashed out again.
fn seed_sequence_words(seed: u64) -> [u64; 4] {
    const INIT_A: u32 = 0x43b0_d7e5;
    const MULT_A: u32 = 0x931e_8875;
    const INIT_B: u32 = 0x8b51_f9dd;
    const MULT_B: u32 = 0x58f3_8ded;
    const MIX_MULT_L: u32 = 0xca01_f9dd;
    const MIX_MULT_R: u32 = 0x4973_f715;
    let entropy: Vec<u32> = if seed >> 32 == 0 {
        vec![seed as u32]
    } else {
        vec![seed as u32, (seed >> 32) as u32]
    };
    let mut hash_const = INIT_A;
    let mut hashmix = |value: u32| {
        let mut v = value ^ hash_const;
        hash_const = hash_const.wrapping_mul(MULT_A);
        v = v.wrapping_mul(hash_const);
        v ^ (v >> 16)
    };
    let mix = |x: u32, y: u32| {
        let r = MIX_MULT_L
            .wrapping_mul(x)
            .wrapping_sub(MIX_MULT_R.wrapping_mul(y));
        r ^ (r >> 16)
    };
    let mut pool = [0u32; 4];
    for (i, p) in pool.iter_mut().enumerate() {
        *p = hashmix(entropy.get(i).copied().unwrap_or(0));
    }
    for src in 0..4 {
        for dst in 0..4 {
            if src != dst {
                let h = hashmix(pool[src]);
                pool[dst] = mix(pool[dst], h);
            }
        }
    }
    let mut hash_const = INIT_B;
    let mut out = [0u32; 8];
    for (i, o) in out.iter_mut().enumerate() {
        let mut v = pool[i % 4] ^ hash_const;
        hash_const = hash_const.wrapping_mul(MULT_B);
        v = v.wrapping_mul(hash_const);
        *o = v ^ (v >> 16);
    }
    std::array::from_fn(|i| u64::from(out[2 * i]) | (u64::from(out[2 * i + 1]) << 32))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// numpy: `g = np.random.default_rng(7)`; its state, then
    /// `g.random(3)` and, from a fresh copy, `g.integers(-9999, 9999)` twice.
    #[test]
    fn draws_match_numpy() {
        let state = 208_745_520_555_909_116_978_795_849_195_383_758_904_u128;
        let inc = 261_136_684_632_268_670_825_940_853_076_396_136_793_u128;
        let mut g = Pcg64::from_numpy_state(state, inc, None).unwrap();
        let got: Vec<f64> = (0..3).map(|_| g.next_f64()).collect();
        assert_eq!(got, [0.625095466604667, 0.8972138009695755, 0.7756856902451935]);
        let mut g = Pcg64::from_numpy_state(state, inc, None).unwrap();
        assert_eq!((g.integers(-9999, 9999), g.integers(-9999, 9999)), (8897, 2501));
        assert_eq!(g.numpy_state().2, None, "both halves of the draw used");
        assert_eq!(Pcg64::from_seed(7).numpy_state(), (state, inc, None));
    }

    /// An even increment is refused: state 0 with increment 0 would draw
    /// zeros for ever, and `integers` reject them for ever.
    #[test]
    fn an_even_increment_is_refused() {
        let err = Pcg64::from_numpy_state(0, 0, None).unwrap_err();
        assert!(err.to_string().contains("must be odd"), "{err}");
        assert!(Pcg64::from_numpy_state(5, 2 << 70, Some(3)).is_err());
        let mut g = Pcg64::from_numpy_state(0, 1, None).unwrap();
        assert!((0..4).map(|_| g.integers(0, 3)).all(|v| (0..3).contains(&v)));
    }

    /// `np.random.default_rng(s).bit_generator.state` for seeds of one
    /// and of two 32-bit words.
    #[test]
    fn seeding_matches_numpy() {
        let cases = [
            (
                0u64,
                0x1aa1b5345996452d09585eb7a69561e3_u128,
                0x418ddadb3af71a82588133bc447873a9_u128,
            ),
            (
                1,
                0x9c5b484bfedb756c2a6e7d6f320fbc7e,
                0x922af2da2645f895a19857b95740937b,
            ),
            (
                123456,
                0x80737f6712c91883c74ec5ca19bcd355,
                0x412b8d0c5b3dfa411ad51eced685d475,
            ),
            (
                (1 << 40) + 5,
                0xd972711564fcbcf2a1511cb73ed6e086,
                0x4a4b8b68972231a08584f27e67257da7,
            ),
        ];
        for (seed, state, inc) in cases {
            assert_eq!(
                Pcg64::from_seed(seed).numpy_state(),
                (state, inc, None),
                "seed {seed}"
            );
        }
    }

    /// numpy: `g = np.random.default_rng(1); g.integers(4, 5)` leaves
    /// `g.random()` what it is on a fresh generator.
    #[test]
    fn a_single_value_draws_nothing() {
        let mut g = Pcg64::from_seed(1);
        assert_eq!(g.integers(4, 5), 4);
        assert_eq!(g.next_f64(), Pcg64::from_seed(1).next_f64());
    }

    #[test]
    fn uniform_stays_in_its_interval() {
        let mut g = Pcg64::from_seed(3);
        for _ in 0..10_000 {
            let x = g.uniform(-2.0, 5.0);
            assert!((-2.0..5.0).contains(&x));
            let k = g.integers(-3, 4);
            assert!((-3..4).contains(&k));
        }
    }
}
