//! The lane type of the solver's wide kernels: [`W`] floats held in
//! one SIMD register ([`Fw`]), with lane masks ([`Mask`]) for the selects
//! that stand in for branches, and the lanes' bodies ([`LaneBodies`]:
//! which two each lane reads and writes, their velocities gathered and
//! scattered). The contact batches ([`super::wide`]) and the hinges
//! solved four at a time ([`super::joints`]) are written on it: no
//! `unsafe` and no intrinsics, and IEEE arithmetic lane by lane, so a
//! lane computes the bits the scalar kernel would.

use crate::body::StateCell;
use crate::math::Vec2;
use glam::{BVec4A, Vec4};

/// Lanes per batch: four `f32`, one SSE/NEON register.
pub(super) const W: usize = 4;

/// `W` floats, one per lane: a [`glam::Vec4`], which is one SSE register
/// on x86 (and NEON or WASM SIMD elsewhere), so each lane-wise operation
/// below is one instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Fw(pub(super) Vec4);

/// A lane mask: all ones where a comparison held, zero elsewhere, so a
/// select is a bitwise blend.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Mask(pub(super) BVec4A);

impl Fw {
    /// Lane `l` is `f(l)`.
    #[inline(always)]
    pub(super) fn from_fn(f: impl Fn(usize) -> f32) -> Fw {
        Fw(Vec4::new(f(0), f(1), f(2), f(3)))
    }

    /// Lane `l`'s value.
    #[inline(always)]
    pub(super) fn lane(self, l: usize) -> f32 {
        self.0[l]
    }

    /// Lane-wise `f32::clamp`: `lo` where below it, then `hi` where
    /// above it (the same selects as the scalar one's branches).
    #[inline(always)]
    pub(super) fn clamp(self, lo: Fw, hi: Fw) -> Fw {
        let x = self.lt(lo).select(lo, self);
        x.gt(hi).select(hi, x)
    }

    /// Lane-wise square root: `f32::sqrt` of each (glam's vectors have
    /// none).
    #[inline(always)]
    pub(super) fn sqrt(self) -> Fw {
        Fw::from_fn(|l| self.lane(l).sqrt())
    }

    /// Lane-wise absolute value.
    #[inline(always)]
    pub(super) fn abs(self) -> Fw {
        Fw(self.0.abs())
    }

    /// Lane-wise [`crate::math::atan2`] of `(self, x)`: the same
    /// operations in the same order, so the same bits, its branches
    /// become selects.
    #[inline(always)]
    pub(super) fn atan2(self, x: Fw) -> Fw {
        use std::f32::consts::{FRAC_PI_2, PI};
        let y = self;
        let zero = Fw::splat(0.0);
        let (ax, ay) = (x.abs(), y.abs());
        let steep = ay.gt(ax);
        let (num, den) = (steep.select(ax, ay), steep.select(ay, ax));
        let t = den.gt(zero).select(num / den, zero);
        let t2 = t * t;
        let poly = crate::math::ATAN_POLYNOMIAL
            .iter()
            .rev()
            .fold(zero, |acc, &c| acc * t2 + Fw::splat(c));
        let angle = t * poly;
        let angle = steep.select(Fw::splat(FRAC_PI_2) - angle, angle);
        let angle = x.lt(zero).select(Fw::splat(PI) - angle, angle);
        y.lt(zero).select(-angle, angle)
    }

    /// Every lane `x`.
    #[inline(always)]
    pub(super) fn splat(x: f32) -> Fw {
        Fw(Vec4::splat(x))
    }

    /// Lane-wise maximum: on x86, `o` where `o > self`, else `self` (SSE's
    /// `maxps` with the operands in this order), which is what `f32::max`
    /// compiled to here before, bit for bit, as long as neither operand is
    /// NaN and they are not zeros of opposite signs (`f32::max(-0.0, 0.0)`
    /// gives `+0`, this `-0`; `f32::max` leaves that tie open, and other
    /// targets' vector maximum may differ on it and on a NaN too). The
    /// solver's operands are finite, and a NaN velocity is lost anyway;
    /// a kernel that must give a scalar one's bits in every case selects
    /// instead (see the hinges' limits).
    #[inline(always)]
    pub(super) fn max(self, o: Fw) -> Fw {
        Fw(o.0.max(self.0))
    }

    /// Lane-wise minimum: `o` where `o < self`, else `self` (see
    /// [`Fw::max`]).
    #[inline(always)]
    pub(super) fn min(self, o: Fw) -> Fw {
        Fw(o.0.min(self.0))
    }

    /// Lanes `>= o`.
    #[inline(always)]
    pub(super) fn ge(self, o: Fw) -> Mask {
        Mask(self.0.cmpge(o.0))
    }

    /// Lanes `> o`.
    #[inline(always)]
    pub(super) fn gt(self, o: Fw) -> Mask {
        Mask(self.0.cmpgt(o.0))
    }

    /// Lanes `< o`.
    #[inline(always)]
    pub(super) fn lt(self, o: Fw) -> Mask {
        Mask(self.0.cmplt(o.0))
    }

    /// Lanes `== o`.
    #[inline(always)]
    pub(super) fn eq(self, o: Fw) -> Mask {
        Mask(self.0.cmpeq(o.0))
    }
}

impl Mask {
    /// Lane `l` set where `f(l)`.
    #[inline(always)]
    pub(super) fn from_fn(f: impl Fn(usize) -> bool) -> Mask {
        Mask(BVec4A::new(f(0), f(1), f(2), f(3)))
    }

    /// Every lane set.
    #[inline(always)]
    pub(super) fn all_set() -> Mask {
        Mask(BVec4A::splat(true))
    }

    /// Whether any lane is set.
    #[inline(always)]
    pub(super) fn any(self) -> bool {
        self.0.any()
    }

    /// Whether lane `l` is set.
    #[inline(always)]
    pub(super) fn test(self, l: usize) -> bool {
        self.0.test(l)
    }

    /// Whether every lane is set.
    #[inline(always)]
    pub(super) fn all(self) -> bool {
        self.0.all()
    }

    /// `a` where set, `b` elsewhere.
    #[inline(always)]
    pub(super) fn select(self, a: Fw, b: Fw) -> Fw {
        Fw(Vec4::select(self.0, a.0, b.0))
    }
}

impl std::ops::BitAnd for Mask {
    type Output = Mask;
    #[inline(always)]
    fn bitand(self, o: Mask) -> Mask {
        Mask(self.0 & o.0)
    }
}

impl std::ops::BitOr for Mask {
    type Output = Mask;
    #[inline(always)]
    fn bitor(self, o: Mask) -> Mask {
        Mask(self.0 | o.0)
    }
}

impl std::ops::Not for Mask {
    type Output = Mask;
    #[inline(always)]
    fn not(self) -> Mask {
        Mask(!self.0)
    }
}

macro_rules! lane_op {
    ($trait:ident, $method:ident) => {
        impl std::ops::$trait for Fw {
            type Output = Fw;
            #[inline(always)]
            fn $method(self, o: Fw) -> Fw {
                Fw(std::ops::$trait::$method(self.0, o.0))
            }
        }
    };
}
lane_op!(Add, add);
lane_op!(Sub, sub);
lane_op!(Mul, mul);
lane_op!(Div, div);

impl std::ops::Neg for Fw {
    type Output = Fw;
    #[inline(always)]
    fn neg(self) -> Fw {
        Fw(-self.0)
    }
}

/// The bodies of a batch's lanes: each lane's two body states, and
/// whether the lane writes each (a body it cannot move, static or
/// kinematic, never is). Spare lanes sit on a dummy state at rest that
/// no lane writes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LaneBodies {
    /// Body A of each lane.
    pub(super) a: [u32; W],
    /// Body B of each lane.
    pub(super) b: [u32; W],
    /// Whether each lane writes body A.
    pub(super) write_a: [bool; W],
    /// Whether each lane writes body B.
    pub(super) write_b: [bool; W],
}

impl LaneBodies {
    /// Each lane's bodies and whether the lane writes them: `(a, writes
    /// a, b, writes b)`, spare lanes included.
    pub(super) fn footprint(&self) -> impl Iterator<Item = (u32, bool, u32, bool)> + '_ {
        (0..W).map(|l| (self.a[l], self.write_a[l], self.b[l], self.write_b[l]))
    }

    /// Gathers the lanes' body velocities.
    #[inline(always)]
    pub(super) fn gather(&self, states: &[StateCell]) -> Velocities {
        let mut g = Velocities::default();
        for l in 0..W {
            let ((va, wa), (vb, wb)) = (
                states[self.a[l] as usize].velocity(),
                states[self.b[l] as usize].velocity(),
            );
            g.vax.0[l] = va.x;
            g.vay.0[l] = va.y;
            g.wa.0[l] = wa;
            g.vbx.0[l] = vb.x;
            g.vby.0[l] = vb.y;
            g.wb.0[l] = wb;
        }
        g
    }

    /// Writes the lanes' velocities back to the bodies they write.
    #[inline(always)]
    pub(super) fn scatter(&self, states: &[StateCell], g: &Velocities) {
        for l in 0..W {
            if self.write_a[l] {
                states[self.a[l] as usize].set_velocity(Vec2::new(g.vax.0[l], g.vay.0[l]), g.wa.0[l]);
            }
            if self.write_b[l] {
                states[self.b[l] as usize].set_velocity(Vec2::new(g.vbx.0[l], g.vby.0[l]), g.wb.0[l]);
            }
        }
    }
}

/// The gathered velocities (or pseudo-velocities) of a batch's bodies.
#[derive(Clone, Copy, Default)]
pub(super) struct Velocities {
    /// Body A's linear velocity, x.
    pub(super) vax: Fw,
    /// y.
    pub(super) vay: Fw,
    /// Body A's angular velocity.
    pub(super) wa: Fw,
    /// Body B's linear velocity, x.
    pub(super) vbx: Fw,
    /// y.
    pub(super) vby: Fw,
    /// Body B's angular velocity.
    pub(super) wb: Fw,
}

impl Velocities {
    /// Each lane from `a` where `mask` is set, else from `b`.
    #[inline(always)]
    pub(super) fn select_from(&mut self, mask: Mask, a: &Velocities, b: &Velocities) {
        self.vax = mask.select(a.vax, b.vax);
        self.vay = mask.select(a.vay, b.vay);
        self.wa = mask.select(a.wa, b.wa);
        self.vbx = mask.select(a.vbx, b.vbx);
        self.vby = mask.select(a.vby, b.vby);
        self.wb = mask.select(a.wb, b.wb);
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
        for four in points.chunks(W) {
            let y = Fw::from_fn(|l| four[l % four.len()].0);
            let x = Fw::from_fn(|l| four[l % four.len()].1);
            let wide = y.atan2(x);
            for l in 0..W {
                let scalar = crate::math::atan2(y.lane(l), x.lane(l));
                assert_eq!(
                    wide.lane(l).to_bits(),
                    scalar.to_bits(),
                    "atan2({}, {})",
                    y.lane(l),
                    x.lane(l)
                );
            }
        }
    }
}
