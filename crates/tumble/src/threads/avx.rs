//! Eight lanes of `f32` in one AVX register ([`F8`], with its masks
//! [`M8`]), for the solver's kernels on processors that have AVX2, and
//! the door they run through ([`with_avx2`]).
//!
//! One build runs on every x86-64 processor: the kernels are compiled a
//! second time inside [`with_avx2`], a function compiled with AVX2 on,
//! into which they are inlined whole, and the solver takes that path only
//! where [`has_avx2`] says the processor has it. Every operation here is
//! one AVX instruction with IEEE semantics lane by lane and no fused
//! multiply-add, so a lane's bits are those of the four-wide lanes and of
//! the scalar kernels.

use core::arch::x86_64::*;

/// Whether this processor has AVX2 (detected once; later calls read a
/// cached flag).
#[inline]
pub(crate) fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// Runs `f` compiled with AVX2 on: `f` and everything it inlines use the
/// eight-wide registers and instructions.
///
/// # Panics
///
/// Where the processor has no AVX2 (the solver never asks then: it picks
/// eight lanes only where [`has_avx2`] holds).
#[inline(always)]
pub(crate) fn with_avx2<R>(f: impl FnOnce() -> R) -> R {
    /// The body compiled with AVX2 on, `f` inlined into it.
    #[target_feature(enable = "avx2")]
    fn run<R>(f: impl FnOnce() -> R) -> R {
        f()
    }
    assert!(has_avx2(), "the eight-wide lanes need AVX2");
    // SAFETY: the processor has AVX2 (checked just above), which is all
    // that calling a function compiled for it requires.
    unsafe { run(f) }
}

/// Eight `f32` lanes in one AVX register.
///
/// Its operations execute AVX instructions: they are only ever run
/// inside [`with_avx2`] (the solver's eight-wide kernels), so only on a
/// processor that has them.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct F8(__m256);

/// A mask of [`F8`] lanes: all ones where a comparison held, zero
/// elsewhere.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct M8(__m256);

// SAFETY (for every `unsafe` block below not marked otherwise): an AVX
// intrinsic on values held in registers, touching no memory; run only
// on a processor with AVX2 (see `F8`).

impl F8 {
    /// The lanes `a`, built in registers (`vinsertps` and the like: the
    /// lanes come from scalar registers or loads, and setting them one at
    /// a time in memory would make the load of the whole vector wait).
    #[inline(always)]
    pub(crate) fn new(a: [f32; 8]) -> F8 {
        F8(unsafe { _mm256_setr_ps(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]) })
    }

    /// The lanes, read in place.
    #[inline(always)]
    pub(crate) fn lanes(&self) -> &[f32; 8] {
        // SAFETY: `F8` is `repr(transparent)` over `__m256`, eight `f32`
        // in order, aligned for them; the borrow lives as long as `self`'s.
        unsafe { &*(self as *const F8).cast::<[f32; 8]>() }
    }

    /// The lanes `a`.
    #[inline(always)]
    pub(crate) fn from_array(a: [f32; 8]) -> F8 {
        // SAFETY: eight floats either way; a move, no AVX instruction.
        F8(unsafe { std::mem::transmute::<[f32; 8], __m256>(a) })
    }

    /// The lanes as an array.
    #[inline(always)]
    pub(crate) fn to_array(self) -> [f32; 8] {
        // SAFETY: likewise.
        unsafe { std::mem::transmute::<__m256, [f32; 8]>(self.0) }
    }

    /// Every lane `x`.
    #[inline(always)]
    pub(crate) fn splat(x: f32) -> F8 {
        F8(unsafe { _mm256_set1_ps(x) })
    }

    /// Lane-wise square root (IEEE, correctly rounded).
    #[inline(always)]
    pub(crate) fn sqrt(self) -> F8 {
        F8(unsafe { _mm256_sqrt_ps(self.0) })
    }

    /// Lane-wise absolute value: the sign bit cleared.
    #[inline(always)]
    pub(crate) fn abs(self) -> F8 {
        F8(unsafe { _mm256_andnot_ps(_mm256_set1_ps(-0.0), self.0) })
    }

    /// Lane-wise: `o` where `o > self`, else `self` (`vmaxps` with the
    /// operands in this order, as the four-wide lanes' `maxps`).
    #[inline(always)]
    pub(crate) fn max(self, o: F8) -> F8 {
        F8(unsafe { _mm256_max_ps(o.0, self.0) })
    }

    /// Lane-wise: `o` where `o < self`, else `self`.
    #[inline(always)]
    pub(crate) fn min(self, o: F8) -> F8 {
        F8(unsafe { _mm256_min_ps(o.0, self.0) })
    }

    /// Lanes `>= o` (false on a NaN).
    #[inline(always)]
    pub(crate) fn ge(self, o: F8) -> M8 {
        M8(unsafe { _mm256_cmp_ps::<_CMP_GE_OQ>(self.0, o.0) })
    }

    /// Lanes `> o`.
    #[inline(always)]
    pub(crate) fn gt(self, o: F8) -> M8 {
        M8(unsafe { _mm256_cmp_ps::<_CMP_GT_OQ>(self.0, o.0) })
    }

    /// Lanes `< o`.
    #[inline(always)]
    pub(crate) fn lt(self, o: F8) -> M8 {
        M8(unsafe { _mm256_cmp_ps::<_CMP_LT_OQ>(self.0, o.0) })
    }

    /// Lanes `== o`.
    #[inline(always)]
    pub(crate) fn eq(self, o: F8) -> M8 {
        M8(unsafe { _mm256_cmp_ps::<_CMP_EQ_OQ>(self.0, o.0) })
    }
}

impl Default for F8 {
    /// Every lane zero.
    #[inline(always)]
    fn default() -> F8 {
        F8::from_array([0.0; 8])
    }
}

impl PartialEq for F8 {
    /// Every lane equal (as `f32`s).
    fn eq(&self, o: &F8) -> bool {
        self.to_array() == o.to_array()
    }
}

impl std::fmt::Debug for F8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("F8").field(&self.to_array()).finish()
    }
}

macro_rules! lane_op {
    ($trait:ident, $method:ident, $intrinsic:ident) => {
        impl std::ops::$trait for F8 {
            type Output = F8;
            #[inline(always)]
            fn $method(self, o: F8) -> F8 {
                F8(unsafe { $intrinsic(self.0, o.0) })
            }
        }
    };
}
lane_op!(Add, add, _mm256_add_ps);
lane_op!(Sub, sub, _mm256_sub_ps);
lane_op!(Mul, mul, _mm256_mul_ps);
lane_op!(Div, div, _mm256_div_ps);

impl std::ops::Neg for F8 {
    type Output = F8;
    /// The sign bit flipped (as the four-wide lanes' negation).
    #[inline(always)]
    fn neg(self) -> F8 {
        F8(unsafe { _mm256_xor_ps(_mm256_set1_ps(-0.0), self.0) })
    }
}

impl M8 {
    /// Lane `l` set where `f(l)`.
    #[inline(always)]
    pub(crate) fn from_fn(f: impl Fn(usize) -> bool) -> M8 {
        let bits: [u32; 8] = std::array::from_fn(|l| if f(l) { u32::MAX } else { 0 });
        // SAFETY: eight 32-bit lanes either way; a move.
        M8(unsafe { std::mem::transmute::<[u32; 8], __m256>(bits) })
    }

    /// Every lane set.
    #[inline(always)]
    pub(crate) fn all_set() -> M8 {
        M8(unsafe { _mm256_castsi256_ps(_mm256_set1_epi32(-1)) })
    }

    /// Lane `l`'s bit set where lane `l` is.
    #[inline(always)]
    pub(crate) fn bits(self) -> u32 {
        (unsafe { _mm256_movemask_ps(self.0) }) as u32
    }

    /// `a` where set, `b` elsewhere.
    #[inline(always)]
    pub(crate) fn select(self, a: F8, b: F8) -> F8 {
        F8(unsafe { _mm256_blendv_ps(b.0, a.0, self.0) })
    }
}

impl Default for M8 {
    /// No lane set.
    #[inline(always)]
    fn default() -> M8 {
        M8::from_fn(|_| false)
    }
}

impl std::fmt::Debug for M8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // SAFETY: eight 32-bit lanes either way; a move.
        let lanes = unsafe { std::mem::transmute::<__m256, [u32; 8]>(self.0) };
        f.debug_tuple("M8").field(&lanes.map(|x| x != 0)).finish()
    }
}

impl std::ops::BitAnd for M8 {
    type Output = M8;
    #[inline(always)]
    fn bitand(self, o: M8) -> M8 {
        M8(unsafe { _mm256_and_ps(self.0, o.0) })
    }
}

impl std::ops::BitOr for M8 {
    type Output = M8;
    #[inline(always)]
    fn bitor(self, o: M8) -> M8 {
        M8(unsafe { _mm256_or_ps(self.0, o.0) })
    }
}

impl std::ops::Not for M8 {
    type Output = M8;
    #[inline(always)]
    fn not(self) -> M8 {
        M8(unsafe { _mm256_xor_ps(self.0, _mm256_castsi256_ps(_mm256_set1_epi32(-1))) })
    }
}
