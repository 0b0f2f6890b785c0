//! The lane types of the solver's wide kernels: [`Lanes`], `W` floats
//! held in one SIMD register, with lane masks ([`LaneMask`]) for the
//! selects that stand in for branches, and the lanes' bodies
//! ([`LaneBodies`]: which two each lane reads and writes, their
//! velocities gathered and scattered). The contact batches
//! ([`super::wide`]), the hinges ([`super::joints`]) and the body
//! integration are written once, generic over the lane type, and run
//! four wide ([`F4`], SSE or NEON) or, where the processor has AVX2,
//! eight wide ([`F8`]): see [`Width`]. IEEE arithmetic lane by lane, so a
//! lane computes the bits the scalar kernel would, at either width.

use crate::body::StateCell;
use crate::math::Vec2;
use glam::{BVec4A, Vec4};
use std::fmt::Debug;
use std::ops::{Add, BitAnd, BitOr, Div, Index, IndexMut, Mul, Neg, Not, Sub};

#[cfg(target_arch = "x86_64")]
pub(super) use crate::threads::{F8, M8};

/// The most lanes any lane type has: the size of the per-lane arrays a
/// kernel builds on the stack before it knows its width.
pub(super) const MAX_W: usize = 8;

/// A per-lane array of plain values (`[T; W]`).
pub(super) trait LaneArray<T>:
    Copy + Default + Debug + Send + Sync + Index<usize, Output = T> + IndexMut<usize> + AsRef<[T]> + AsMut<[T]>
{
}
impl<T: Copy + Default + Debug + Send + Sync, const N: usize> LaneArray<T> for [T; N] where [T; N]: Default {}

/// `W` floats, one per lane, each operation lane-wise in one instruction
/// on the processor's vector registers. The kernels are generic over it
/// and `#[inline(always)]` down to these operations, so that compiled
/// inside [`Lanes::enter`] they take the processor features the type
/// needs.
pub(super) trait Lanes:
    Copy
    + Default
    + Debug
    + PartialEq
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// Lanes per value.
    const W: usize;
    /// The masks of comparisons of these lanes.
    type Mask: LaneMask<Self>;
    /// One `u32` per lane.
    type Ints: LaneArray<u32>;
    /// One `bool` per lane.
    type Flags: LaneArray<bool>;

    /// Runs `f` where this lane type's operations may execute: compiled
    /// with its processor features (AVX2 for [`F8`]). Kernels over these
    /// lanes run inside it.
    fn enter<R>(f: impl FnOnce() -> R) -> R;
    /// Lane `l` is `f(l)`.
    fn from_fn(f: impl Fn(usize) -> f32) -> Self;
    /// Lane `l`'s value.
    fn lane(&self, l: usize) -> f32;
    /// Every lane `x`.
    fn splat(x: f32) -> Self;
    /// Lane-wise square root (IEEE: `f32::sqrt`'s bits).
    fn sqrt(self) -> Self;
    /// Lane-wise absolute value.
    fn abs(self) -> Self;
    /// Lane-wise maximum: `o` where `o > self`, else `self` (x86's
    /// `maxps` with the operands in this order), which is what `f32::max`
    /// compiled to here before, bit for bit, as long as neither operand
    /// is NaN and they are not zeros of opposite signs (`f32::max(-0.0,
    /// 0.0)` gives `+0`, this `-0`; `f32::max` leaves that tie open, and
    /// other targets' vector maximum may differ on it and on a NaN too).
    /// The solver's operands are finite, and a NaN velocity is lost
    /// anyway; a kernel that must give a scalar one's bits in every case
    /// selects instead (see the hinges' limits).
    fn max(self, o: Self) -> Self;
    /// Lane-wise minimum: `o` where `o < self`, else `self` (see
    /// [`Lanes::max`]).
    fn min(self, o: Self) -> Self;
    /// Lanes `>= o`.
    fn ge(self, o: Self) -> Self::Mask;
    /// Lanes `> o`.
    fn gt(self, o: Self) -> Self::Mask;
    /// Lanes `< o`.
    fn lt(self, o: Self) -> Self::Mask;
    /// Lanes `== o`.
    fn eq(self, o: Self) -> Self::Mask;

    /// `K` values of lanes, lane `l` of value `k` being `f(l)[k]`: what
    /// each lane reads of its bodies, read lane by lane, then each value
    /// built from its lanes in registers. (Not written to a lane of a
    /// vector in memory one at a time: the load of the whole vector
    /// would then wait on each store.)
    #[inline(always)]
    fn gather<const K: usize>(mut f: impl FnMut(usize) -> [f32; K]) -> [Self; K] {
        let mut rows = [[0.0; K]; MAX_W];
        for (l, row) in rows.iter_mut().enumerate().take(Self::W) {
            *row = f(l);
        }
        let mut out = [Self::default(); K];
        for (k, value) in out.iter_mut().enumerate() {
            *value = Self::from_fn(|l| rows[l][k]);
        }
        out
    }

    /// Lane-wise `f32::clamp`: `lo` where below it, then `hi` where
    /// above it (the same selects as the scalar one's branches).
    #[inline(always)]
    fn clamp(self, lo: Self, hi: Self) -> Self {
        let x = self.lt(lo).select(lo, self);
        x.gt(hi).select(hi, x)
    }

    /// Lane-wise [`crate::math::atan2`] of `(self, x)`: the same
    /// operations in the same order, so the same bits, its branches
    /// become selects.
    #[inline(always)]
    fn atan2(self, x: Self) -> Self {
        use std::f32::consts::{FRAC_PI_2, PI};
        let y = self;
        let zero = Self::splat(0.0);
        let (ax, ay) = (x.abs(), y.abs());
        let steep = ay.gt(ax);
        let (num, den) = (steep.select(ax, ay), steep.select(ay, ax));
        let t = den.gt(zero).select(num / den, zero);
        let t2 = t * t;
        // (A loop, not an iterator's fold: a fold is a function of its
        // own, which the compiler may leave out of line, compiled without
        // the lanes' processor features, each lane operation a call.)
        let coefficients = &crate::math::ATAN_POLYNOMIAL;
        let mut poly = zero;
        for k in (0..coefficients.len()).rev() {
            poly = poly * t2 + Self::splat(coefficients[k]);
        }
        let angle = t * poly;
        let angle = steep.select(Self::splat(FRAC_PI_2) - angle, angle);
        let angle = x.lt(zero).select(Self::splat(PI) - angle, angle);
        y.lt(zero).select(-angle, angle)
    }
}

/// A lane mask of [`Lanes`] `F`: all ones where a comparison held, zero
/// elsewhere, so a select is a bitwise blend.
pub(super) trait LaneMask<F>:
    Copy + Default + Debug + Send + Sync + BitAnd<Output = Self> + BitOr<Output = Self> + Not<Output = Self>
{
    /// Lane `l` set where `f(l)`.
    fn from_fn(f: impl Fn(usize) -> bool) -> Self;
    /// Every lane set.
    fn all_set() -> Self;
    /// Whether any lane is set.
    fn any(self) -> bool;
    /// Whether lane `l` is set.
    fn test(self, l: usize) -> bool;
    /// Whether every lane is set.
    fn all(self) -> bool;
    /// `a` where set, `b` elsewhere.
    fn select(self, a: F, b: F) -> F;
}

/// The fewest awake bodies a step runs wider than four lanes for (see
/// [`Width::for_step`]).
const FEW_BODIES: usize = 64;

/// Which lane type the solver's kernels run on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Width {
    /// [`F4`]: four lanes, on every processor.
    #[default]
    Four,
    /// [`F8`]: eight lanes, on an x86-64 processor with AVX2 (only ever
    /// chosen where [`crate::threads::has_avx2`] says it has).
    #[cfg(target_arch = "x86_64")]
    Eight,
}

impl Width {
    /// The widest the setting allows and this processor runs (see
    /// [`LaneWidth::lanes`](crate::LaneWidth::lanes)).
    pub(crate) fn of(setting: crate::settings::LaneWidth) -> Width {
        match setting.lanes() {
            #[cfg(target_arch = "x86_64")]
            8 => Width::Eight,
            _ => Width::Four,
        }
    }

    /// The width of a step of `bodies` awake bodies, the last step's
    /// having been `last`: the widest the setting allows, but four lanes
    /// for a world of fewer than [`FEW_BODIES`] (half that once it runs
    /// wider, so that a world about that size does not switch every
    /// step): in a few bodies' graph colors, eight-lane batches would be
    /// mostly padding.
    pub(crate) fn for_step(setting: crate::settings::LaneWidth, bodies: usize, last: Width) -> Width {
        let widest = Width::of(setting);
        let least = if last == widest {
            FEW_BODIES / 2
        } else {
            FEW_BODIES
        };
        if bodies >= least {
            widest
        } else {
            Width::Four
        }
    }

    /// Lanes a batch.
    pub(crate) fn lanes(self) -> usize {
        match self {
            Width::Four => F4::W,
            #[cfg(target_arch = "x86_64")]
            Width::Eight => F8::W,
        }
    }
}

/// Four floats, one per lane: a [`glam::Vec4`], which is one SSE register
/// on x86 (and NEON or WASM SIMD elsewhere), so each lane-wise operation
/// is one instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct F4(Vec4);

/// The mask of [`F4`] lanes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct M4(BVec4A);

impl Lanes for F4 {
    const W: usize = 4;
    type Mask = M4;
    type Ints = [u32; 4];
    type Flags = [bool; 4];
    #[inline(always)]
    fn enter<R>(f: impl FnOnce() -> R) -> R {
        f()
    }
    #[inline(always)]
    fn from_fn(f: impl Fn(usize) -> f32) -> F4 {
        F4(Vec4::new(f(0), f(1), f(2), f(3)))
    }
    #[inline(always)]
    fn lane(&self, l: usize) -> f32 {
        self.0[l]
    }
    #[inline(always)]
    fn splat(x: f32) -> F4 {
        F4(Vec4::splat(x))
    }
    /// glam's vectors have no square root: `f32::sqrt` of each.
    #[inline(always)]
    fn sqrt(self) -> F4 {
        F4::from_fn(|l| self.lane(l).sqrt())
    }
    #[inline(always)]
    fn abs(self) -> F4 {
        F4(self.0.abs())
    }
    #[inline(always)]
    fn max(self, o: F4) -> F4 {
        F4(o.0.max(self.0))
    }
    #[inline(always)]
    fn min(self, o: F4) -> F4 {
        F4(o.0.min(self.0))
    }
    #[inline(always)]
    fn ge(self, o: F4) -> M4 {
        M4(self.0.cmpge(o.0))
    }
    #[inline(always)]
    fn gt(self, o: F4) -> M4 {
        M4(self.0.cmpgt(o.0))
    }
    #[inline(always)]
    fn lt(self, o: F4) -> M4 {
        M4(self.0.cmplt(o.0))
    }
    #[inline(always)]
    fn eq(self, o: F4) -> M4 {
        M4(self.0.cmpeq(o.0))
    }
}

impl LaneMask<F4> for M4 {
    #[inline(always)]
    fn from_fn(f: impl Fn(usize) -> bool) -> M4 {
        M4(BVec4A::new(f(0), f(1), f(2), f(3)))
    }
    #[inline(always)]
    fn all_set() -> M4 {
        M4(BVec4A::splat(true))
    }
    #[inline(always)]
    fn any(self) -> bool {
        self.0.any()
    }
    #[inline(always)]
    fn test(self, l: usize) -> bool {
        self.0.test(l)
    }
    #[inline(always)]
    fn all(self) -> bool {
        self.0.all()
    }
    #[inline(always)]
    fn select(self, a: F4, b: F4) -> F4 {
        F4(Vec4::select(self.0, a.0, b.0))
    }
}

impl BitAnd for M4 {
    type Output = M4;
    #[inline(always)]
    fn bitand(self, o: M4) -> M4 {
        M4(self.0 & o.0)
    }
}

impl BitOr for M4 {
    type Output = M4;
    #[inline(always)]
    fn bitor(self, o: M4) -> M4 {
        M4(self.0 | o.0)
    }
}

impl Not for M4 {
    type Output = M4;
    #[inline(always)]
    fn not(self) -> M4 {
        M4(!self.0)
    }
}

macro_rules! lane_op {
    ($trait:ident, $method:ident) => {
        impl $trait for F4 {
            type Output = F4;
            #[inline(always)]
            fn $method(self, o: F4) -> F4 {
                F4($trait::$method(self.0, o.0))
            }
        }
    };
}
lane_op!(Add, add);
lane_op!(Sub, sub);
lane_op!(Mul, mul);
lane_op!(Div, div);

impl Neg for F4 {
    type Output = F4;
    #[inline(always)]
    fn neg(self) -> F4 {
        F4(-self.0)
    }
}

/// The bodies of a batch's lanes: each lane's two body states, and
/// whether the lane writes each (a body it cannot move, static or
/// kinematic, never is). Spare lanes sit on a dummy state at rest that
/// no lane writes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LaneBodies<L: Lanes> {
    /// Body A of each lane.
    pub(super) a: L::Ints,
    /// Body B of each lane.
    pub(super) b: L::Ints,
    /// Whether each lane writes body A.
    pub(super) write_a: L::Flags,
    /// Whether each lane writes body B.
    pub(super) write_b: L::Flags,
}

impl<L: Lanes> LaneBodies<L> {
    /// Each lane's bodies and whether the lane writes them: `(a, writes
    /// a, b, writes b)`, spare lanes included.
    pub(super) fn footprint(&self) -> impl Iterator<Item = (u32, bool, u32, bool)> + '_ {
        (0..L::W).map(|l| (self.a[l], self.write_a[l], self.b[l], self.write_b[l]))
    }

    /// Gathers the lanes' body velocities.
    #[inline(always)]
    pub(super) fn gather(&self, states: &[StateCell]) -> Velocities<L> {
        let [vax, vay, wa, vbx, vby, wb] = L::gather(|l| {
            let ((va, wa), (vb, wb)) = (
                states[self.a[l] as usize].velocity(),
                states[self.b[l] as usize].velocity(),
            );
            [va.x, va.y, wa, vb.x, vb.y, wb]
        });
        Velocities {
            vax,
            vay,
            wa,
            vbx,
            vby,
            wb,
        }
    }

    /// Writes the lanes' velocities back to the bodies they write.
    #[inline(always)]
    pub(super) fn scatter(&self, states: &[StateCell], g: &Velocities<L>) {
        for l in 0..L::W {
            if self.write_a[l] {
                states[self.a[l] as usize]
                    .set_velocity(Vec2::new(g.vax.lane(l), g.vay.lane(l)), g.wa.lane(l));
            }
            if self.write_b[l] {
                states[self.b[l] as usize]
                    .set_velocity(Vec2::new(g.vbx.lane(l), g.vby.lane(l)), g.wb.lane(l));
            }
        }
    }
}

/// The gathered velocities (or pseudo-velocities) of a batch's bodies.
#[derive(Clone, Copy, Default)]
pub(super) struct Velocities<L> {
    /// Body A's linear velocity, x.
    pub(super) vax: L,
    /// y.
    pub(super) vay: L,
    /// Body A's angular velocity.
    pub(super) wa: L,
    /// Body B's linear velocity, x.
    pub(super) vbx: L,
    /// y.
    pub(super) vby: L,
    /// Body B's angular velocity.
    pub(super) wb: L,
}

impl<L: Lanes> Velocities<L> {
    /// Each lane from `a` where `mask` is set, else from `b`.
    #[inline(always)]
    pub(super) fn select_from(&mut self, mask: L::Mask, a: &Velocities<L>, b: &Velocities<L>) {
        self.vax = mask.select(a.vax, b.vax);
        self.vay = mask.select(a.vay, b.vay);
        self.wa = mask.select(a.wa, b.wa);
        self.vbx = mask.select(a.vbx, b.vbx);
        self.vby = mask.select(a.vby, b.vby);
        self.wb = mask.select(a.wb, b.wb);
    }
}

/// The eight-wide lanes: [`F8`]'s operations, which execute AVX2
/// instructions; only ever run inside [`Lanes::enter`], which
/// [`Width::Eight`] is chosen for only where the processor has AVX2.
#[cfg(target_arch = "x86_64")]
impl Lanes for F8 {
    const W: usize = 8;
    type Mask = M8;
    type Ints = [u32; 8];
    type Flags = [bool; 8];
    #[inline(always)]
    fn enter<R>(f: impl FnOnce() -> R) -> R {
        crate::threads::with_avx2(f)
    }
    #[inline(always)]
    fn from_fn(f: impl Fn(usize) -> f32) -> F8 {
        F8::new([f(0), f(1), f(2), f(3), f(4), f(5), f(6), f(7)])
    }
    #[inline(always)]
    fn lane(&self, l: usize) -> f32 {
        self.lanes()[l]
    }
    #[inline(always)]
    fn splat(x: f32) -> F8 {
        F8::splat(x)
    }
    #[inline(always)]
    fn sqrt(self) -> F8 {
        F8::sqrt(self)
    }
    #[inline(always)]
    fn abs(self) -> F8 {
        F8::abs(self)
    }
    #[inline(always)]
    fn max(self, o: F8) -> F8 {
        F8::max(self, o)
    }
    #[inline(always)]
    fn min(self, o: F8) -> F8 {
        F8::min(self, o)
    }
    #[inline(always)]
    fn ge(self, o: F8) -> M8 {
        F8::ge(self, o)
    }
    #[inline(always)]
    fn gt(self, o: F8) -> M8 {
        F8::gt(self, o)
    }
    #[inline(always)]
    fn lt(self, o: F8) -> M8 {
        F8::lt(self, o)
    }
    #[inline(always)]
    fn eq(self, o: F8) -> M8 {
        F8::eq(self, o)
    }
}

#[cfg(target_arch = "x86_64")]
impl LaneMask<F8> for M8 {
    #[inline(always)]
    fn from_fn(f: impl Fn(usize) -> bool) -> M8 {
        M8::from_fn(f)
    }
    #[inline(always)]
    fn all_set() -> M8 {
        M8::all_set()
    }
    #[inline(always)]
    fn any(self) -> bool {
        M8::bits(self) != 0
    }
    #[inline(always)]
    fn test(self, l: usize) -> bool {
        M8::bits(self) >> l & 1 != 0
    }
    #[inline(always)]
    fn all(self) -> bool {
        M8::bits(self) == 0xff
    }
    #[inline(always)]
    fn select(self, a: F8, b: F8) -> F8 {
        M8::select(self, a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn the_lane_wide_arc_tangent_gives_the_scalar_ones_bits() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        // The axes, both zeros, the diagonals and the octant edges, then
        // random points near and far.
        let mut points = vec![
            (0.0, 0.0),
            (-0.0, 0.0),
            (0.0, -0.0),
            (-0.0, -0.0),
            (1.0, 0.0),
            (-1.0, 0.0),
            (0.0, 1.0),
            (0.0, -1.0),
            (1.0, 1.0),
            (-1.0, 1.0),
            (-1.0, -1.0),
            (1.0, -1.0),
            (1e-30, -1e30),
            (3.0, -1e-20),
        ];
        points.extend((0..4000).map(|k| {
            let scale = [1e-6, 1.0, 1e6][k % 3];
            (rng.range(-scale, scale), rng.range(-scale, scale))
        }));
        check_atan2::<F4>(&points);
        #[cfg(target_arch = "x86_64")]
        if crate::threads::has_avx2() {
            F8::enter(
                #[inline(always)]
                || check_atan2::<F8>(&points),
            );
        }
    }

    /// A world of a few bodies runs four wide; one of many the widest
    /// the setting allows, and keeps it until it has half as many.
    #[test]
    fn small_worlds_run_four_wide_and_the_width_changes_with_hysteresis() {
        use crate::settings::LaneWidth;
        let widest = Width::of(LaneWidth::Widest);
        assert_eq!(widest.lanes(), LaneWidth::Widest.lanes());
        for last in [Width::Four, widest] {
            assert_eq!(Width::for_step(LaneWidth::Four, 10_000, last), Width::Four);
            assert_eq!(Width::for_step(LaneWidth::Widest, 3, last), Width::Four);
            assert_eq!(Width::for_step(LaneWidth::Widest, FEW_BODIES, last), widest);
        }
        let between = FEW_BODIES * 3 / 4;
        assert_eq!(Width::for_step(LaneWidth::Widest, between, widest), widest);
        if widest != Width::Four {
            assert_eq!(
                Width::for_step(LaneWidth::Widest, between, Width::Four),
                Width::Four
            );
        }
    }

    /// Each lane of `L`'s arc tangent against the scalar one, bit for bit.
    #[inline(always)]
    fn check_atan2<L: Lanes>(points: &[(f32, f32)]) {
        for chunk in points.chunks(L::W) {
            let y = L::from_fn(|l| chunk[l % chunk.len()].0);
            let x = L::from_fn(|l| chunk[l % chunk.len()].1);
            let wide = y.atan2(x);
            for l in 0..L::W {
                let scalar = crate::math::atan2(y.lane(l), x.lane(l));
                assert_eq!(
                    wide.lane(l).to_bits(),
                    scalar.to_bits(),
                    "atan2({}, {}), {} lanes",
                    y.lane(l),
                    x.lane(l),
                    L::W
                );
            }
        }
    }
}
