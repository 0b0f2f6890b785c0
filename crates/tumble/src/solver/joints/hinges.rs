//! Revolute joints four at a time: [`W`] hinges of one graph colour
//! (no dynamic body twice, so they are independent) warm started and
//! solved lane-wide, the same arithmetic as `revolute.rs` in the same
//! order on each lane, so each lane's bits are what the scalar kernel
//! gives (the tests hold them to it). A part only some lanes have (a
//! spring, a motor, limits) is computed on all four and kept where the
//! lane has it; a part no lane has is skipped.
//!
//! The joints stay where they are, one struct each: the kernels read
//! them into lanes and write their impulses back. A scene of hinges
//! (Box2D's joint grid, the ragdolls) spends most of its solve here, and
//! a hinge's point row is some sixty multiplies and adds that the scalar
//! kernel does one at a time.

// Lane loops index several arrays by the same lane number on purpose.
#![allow(clippy::needless_range_loop)]

use super::{rigid, JointConstraint};
use crate::joint::{JointKind, RevoluteJoint};
use crate::math::{Rot, Vec2};
use crate::solver::lanes::{Fw, Mask, W};
use crate::solver::threads::StateCell;
use crate::solver::types::{Softness, StepContext};

/// The hinges of a chunk of [`W`] joints, or `None` when one of them is
/// another kind (the chunk is then solved joint by joint).
#[inline(always)]
pub(super) fn revolute_lanes(chunk: &[JointConstraint]) -> Option<[&RevoluteJoint; W]> {
    let hinge = |l: usize| match chunk.get(l).map(|j| &j.kind) {
        Some(JointKind::Revolute(r)) => Some(r),
        _ => None,
    };
    Some([hinge(0)?, hinge(1)?, hinge(2)?, hinge(3)?])
}

/// Four hinges' bodies during one kernel: loaded, changed, stored.
struct Lanes {
    /// Inverse masses and inertias.
    ma: Fw,
    ia: Fw,
    mb: Fw,
    ib: Fw,
    /// Velocities of A and B (changed by the kernel).
    vax: Fw,
    vay: Fw,
    wa: Fw,
    vbx: Fw,
    vby: Fw,
    wb: Fw,
    /// Translations of A and B since the step began.
    dpa: (Fw, Fw),
    dpb: (Fw, Fw),
    /// Rotations of A and B since the step began, `(cos, sin)`.
    dqa: (Fw, Fw),
    dqb: (Fw, Fw),
}

impl Lanes {
    #[inline(always)]
    fn load(chunk: &[JointConstraint], states: &[StateCell]) -> Lanes {
        let cell = |l: usize, b: bool| &states[if b { chunk[l].b } else { chunk[l].a } as usize];
        let velocity = |b: bool, f: fn(Vec2, f32) -> f32| {
            Fw::from_fn(|l| {
                let (v, w) = cell(l, b).velocity();
                f(v, w)
            })
        };
        let motion = |b: bool, f: fn(Vec2, Rot) -> f32| {
            Fw::from_fn(|l| {
                let (dp, dq) = cell(l, b).motion();
                f(dp, dq)
            })
        };
        let mass = |k: usize| Fw::from_fn(|l| chunk[l].masses[k]);
        Lanes {
            ma: mass(0),
            ia: mass(1),
            mb: mass(2),
            ib: mass(3),
            vax: velocity(false, |v, _| v.x),
            vay: velocity(false, |v, _| v.y),
            wa: velocity(false, |_, w| w),
            vbx: velocity(true, |v, _| v.x),
            vby: velocity(true, |v, _| v.y),
            wb: velocity(true, |_, w| w),
            dpa: (motion(false, |p, _| p.x), motion(false, |p, _| p.y)),
            dpb: (motion(true, |p, _| p.x), motion(true, |p, _| p.y)),
            dqa: (motion(false, |_, q| q.c), motion(false, |_, q| q.s)),
            dqb: (motion(true, |_, q| q.c), motion(true, |_, q| q.s)),
        }
    }

    /// Writes back the velocities of the bodies that can move (see
    /// `Motion::store`).
    #[inline(always)]
    fn store(&self, chunk: &[JointConstraint], states: &[StateCell]) {
        for l in 0..W {
            let [ma, ia, mb, ib] = chunk[l].masses;
            if ma != 0.0 || ia != 0.0 {
                states[chunk[l].a as usize]
                    .set_velocity(Vec2::new(self.vax.lane(l), self.vay.lane(l)), self.wa.lane(l));
            }
            if mb != 0.0 || ib != 0.0 {
                states[chunk[l].b as usize]
                    .set_velocity(Vec2::new(self.vbx.lane(l), self.vby.lane(l)), self.wb.lane(l));
            }
        }
    }

    /// The anchors now, turned with their bodies since the step began:
    /// `(rax, ray, rbx, rby)`.
    #[inline(always)]
    fn anchors(&self, chunk: &[JointConstraint]) -> (Fw, Fw, Fw, Fw) {
        let ((ca, sa), (cb, sb)) = (self.dqa, self.dqb);
        let (ax, ay) = (
            Fw::from_fn(|l| chunk[l].anchor_a.x),
            Fw::from_fn(|l| chunk[l].anchor_a.y),
        );
        let (bx, by) = (
            Fw::from_fn(|l| chunk[l].anchor_b.x),
            Fw::from_fn(|l| chunk[l].anchor_b.y),
        );
        (
            ca * ax - sa * ay,
            sa * ax + ca * ay,
            cb * bx - sb * by,
            sb * bx + cb * by,
        )
    }

    /// Applies the linear impulse `(px, py)` at the anchors (minus on A,
    /// plus on B).
    #[inline(always)]
    fn apply_linear(&mut self, (rax, ray, rbx, rby): (Fw, Fw, Fw, Fw), (px, py): (Fw, Fw)) {
        self.vax = self.vax - self.ma * px;
        self.vay = self.vay - self.ma * py;
        self.wa = self.wa - self.ia * (rax * py - ray * px);
        self.vbx = self.vbx + self.mb * px;
        self.vby = self.vby + self.mb * py;
        self.wb = self.wb + self.ib * (rbx * py - rby * px);
    }

    /// Applies the angular impulse `impulse` (minus on A, plus on B) in
    /// the lanes of `mask`.
    #[inline(always)]
    fn apply_angular(&mut self, mask: Mask, impulse: Fw) {
        self.wa = mask.select(self.wa - self.ia * impulse, self.wa);
        self.wb = mask.select(self.wb + self.ib * impulse, self.wb);
    }
}

/// `unwind` lane-wide: each angle brought into `-pi..=pi`.
#[inline(always)]
fn unwind_lanes(angle: Fw) -> Fw {
    use std::f32::consts::{PI, TAU};
    let (below, above) = (angle.lt(Fw::splat(-PI)), angle.gt(Fw::splat(PI)));
    below.select(
        angle + Fw::splat(TAU),
        above.select(angle - Fw::splat(TAU), angle),
    )
}

/// One accumulated impulse of the four joints, as lanes.
#[inline(always)]
fn impulses(chunk: &[JointConstraint], f: impl Fn(&JointConstraint) -> f32) -> Fw {
    Fw::from_fn(|l| f(&chunk[l]))
}

/// `joints::warm_start` for four hinges.
pub(super) fn warm_start(chunk: &[JointConstraint], states: &[StateCell]) {
    let mut m = Lanes::load(chunk, states);
    let r = m.anchors(chunk);
    let linear = (
        impulses(chunk, |j| j.impulses.linear.x),
        impulses(chunk, |j| j.impulses.linear.y),
    );
    m.apply_linear(r, linear);
    let angular = impulses(chunk, |j| {
        let i = &j.impulses;
        i.spring + i.motor + i.lower - i.upper
    });
    m.apply_angular(Mask::all_set(), angular);
    m.store(chunk, states);
}

/// `joints::solve` for four hinges (a chunk [`revolute_lanes`] takes):
/// the biased pass (`bias`) or the relax.
pub(super) fn solve(chunk: &mut [JointConstraint], states: &[StateCell], ctx: &StepContext, bias: bool) {
    let mut m = Lanes::load(chunk, states);
    let angular = |r: &RevoluteJoint| r.enable_spring || r.enable_motor || r.enable_limit;
    if let Some(r) = revolute_lanes(chunk).filter(|r| r.iter().any(|r| angular(r))) {
        let r = r.map(|r| *r);
        solve_angular(chunk, &r, &mut m, ctx, bias);
    }
    solve_point(chunk, &mut m, rigid(ctx, bias));
    m.store(chunk, states);
}

/// The spring, motor and limits of the lanes that have them (see
/// `revolute::solve`).
#[inline(always)]
fn solve_angular(
    chunk: &mut [JointConstraint],
    r: &[RevoluteJoint; W],
    m: &mut Lanes,
    ctx: &StepContext,
    bias: bool,
) {
    let mask = |f: &dyn Fn(&RevoluteJoint) -> bool| Mask::from_fn(|l| f(&r[l]));
    let axial = m.ia + m.ib;
    let axial_mass = axial
        .gt(Fw::splat(0.0))
        .select(Fw::splat(1.0) / axial, Fw::splat(0.0));
    // The angle of the lanes that read it (`Motion::angle` lane-wide: the
    // same bits); the others' is never used.
    let ((ca, sa), (cb, sb)) = (m.dqa, m.dqb);
    let relative = (ca * sb - sa * cb).atan2(ca * cb + sa * sb);
    let angle = unwind_lanes(Fw::from_fn(|l| chunk[l].delta_angle) + relative);
    let spring = mask(&|r| r.enable_spring && r.hertz > 0.0);
    if spring.any() {
        let soft = |f: &dyn Fn(&Softness) -> f32| Fw::from_fn(|l| f(&chunk[l].spring));
        let c = unwind_lanes(angle - Fw::from_fn(|l| r[l].target_angle));
        let acc = impulses(chunk, |j| j.impulses.spring);
        let cdot = m.wb - m.wa;
        let impulse = -soft(&|s| s.mass_scale) * axial_mass * (cdot + soft(&|s| s.bias_rate) * c)
            - soft(&|s| s.impulse_scale) * acc;
        let acc = spring.select(acc + impulse, acc);
        for l in 0..W {
            chunk[l].impulses.spring = acc.lane(l);
        }
        m.apply_angular(spring, impulse);
    }
    let motor = mask(&|r| r.enable_motor);
    if motor.any() {
        let cdot = m.wb - m.wa - Fw::from_fn(|l| r[l].motor_speed);
        let max = Fw::splat(ctx.h) * Fw::from_fn(|l| r[l].max_motor_torque);
        let old = impulses(chunk, |j| j.impulses.motor);
        let new = (old - axial_mass * cdot).clamp(-max, max);
        let acc = motor.select(new, old);
        for l in 0..W {
            chunk[l].impulses.motor = acc.lane(l);
        }
        m.apply_angular(motor, new - old);
    }
    let limit = mask(&|r| r.enable_limit);
    if limit.any() {
        let (inv_h, soft) = (Fw::splat(ctx.inv_h()), rigid(ctx, bias));
        // `limit_impulse` lane-wide: the change of `acc`, and `acc`.
        let limit_impulse = |c: Fw, cdot: Fw, acc: Fw| {
            let open = c.gt(Fw::splat(0.0));
            let rate = open.select(c * inv_h, Fw::splat(soft.bias_rate) * c);
            let mass_scale = open.select(Fw::splat(1.0), Fw::splat(soft.mass_scale));
            let impulse_scale = open.select(Fw::splat(0.0), Fw::splat(soft.impulse_scale));
            let impulse = -mass_scale * axial_mass * (cdot + rate) - impulse_scale * acc;
            let new = (acc + impulse).max(Fw::splat(0.0));
            (new - acc, limit.select(new, acc))
        };
        let lower_c = angle - Fw::from_fn(|l| r[l].lower_angle);
        let (lower, acc) = limit_impulse(lower_c, m.wb - m.wa, impulses(chunk, |j| j.impulses.lower));
        for l in 0..W {
            chunk[l].impulses.lower = acc.lane(l);
        }
        m.apply_angular(limit, lower);
        let upper_c = Fw::from_fn(|l| r[l].upper_angle) - angle;
        let (upper, acc) = limit_impulse(upper_c, m.wa - m.wb, impulses(chunk, |j| j.impulses.upper));
        for l in 0..W {
            chunk[l].impulses.upper = acc.lane(l);
        }
        m.apply_angular(limit, -upper);
    }
}

/// The point the two frames share, a 2x2 block (see `revolute::solve`
/// and `point_impulse`), with softness `soft`.
#[inline(always)]
fn solve_point(chunk: &mut [JointConstraint], m: &mut Lanes, soft: Softness) {
    let r @ (rax, ray, rbx, rby) = m.anchors(chunk);
    let field = |f: &dyn Fn(&JointConstraint) -> f32| Fw::from_fn(|l| f(&chunk[l]));
    let ((adx, ady), (bdx, bdy)) = (m.dpa, m.dpb);
    let cx = (bdx - adx) + field(&|j| j.delta_center.x) + (rbx - rax);
    let cy = (bdy - ady) + field(&|j| j.delta_center.y) + (rby - ray);
    // cross_sv(w, r) = (-w r.y, w r.x)
    let cdot_x = (m.vbx + -m.wb * rby) - (m.vax + -m.wa * ray);
    let cdot_y = (m.vby + m.wb * rbx) - (m.vay + m.wa * rax);
    let bias_rate = Fw::splat(soft.bias_rate);
    let (rhs_x, rhs_y) = (cdot_x + bias_rate * cx, cdot_y + bias_rate * cy);
    let (ma, ia, mb, ib) = (m.ma, m.ia, m.mb, m.ib);
    let k11 = ma + mb + ray * ray * ia + rby * rby * ib;
    let k12 = -ray * rax * ia - rby * rbx * ib;
    let k22 = ma + mb + rax * rax * ia + rbx * rbx * ib;
    let det = k11 * k22 - k12 * k12;
    let inv = Fw::splat(1.0) / det;
    let singular = det.eq(Fw::splat(0.0));
    let x = singular.select(Fw::splat(0.0), inv * (k22 * rhs_x - k12 * rhs_y));
    let y = singular.select(Fw::splat(0.0), inv * (k11 * rhs_y - k12 * rhs_x));
    let (acc_x, acc_y) = (
        impulses(chunk, |j| j.impulses.linear.x),
        impulses(chunk, |j| j.impulses.linear.y),
    );
    let (mass_scale, impulse_scale) = (Fw::splat(-soft.mass_scale), Fw::splat(soft.impulse_scale));
    let px = mass_scale * x - impulse_scale * acc_x;
    let py = mass_scale * y - impulse_scale * acc_y;
    let (acc_x, acc_y) = (acc_x + px, acc_y + py);
    for l in 0..W {
        chunk[l].impulses.linear = Vec2::new(acc_x.lane(l), acc_y.lane(l));
    }
    m.apply_linear(r, (px, py));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joint::JointImpulses;
    use crate::solver::types::BodyState;
    use crate::test_rng::Rng;

    /// Four random hinges on bodies 1 to 8 (body A static, row 0, one
    /// time in four), with every mix of limits, motor and spring, and
    /// random impulses to warm start from.
    fn hinges(rng: &mut Rng, h: f32) -> Vec<JointConstraint> {
        (0..W as u32)
            .map(|l| {
                let fixed = rng.range(0.0, 1.0) < 0.25;
                let mass = |rng: &mut Rng, moves: bool| if moves { rng.range(0.05, 3.0) } else { 0.0 };
                let masses = [
                    mass(rng, !fixed),
                    mass(rng, !fixed),
                    mass(rng, true),
                    mass(rng, true),
                ];
                let lower = rng.range(-1.5, 0.3);
                let r = RevoluteJoint {
                    enable_limit: rng.range(0.0, 1.0) < 0.5,
                    lower_angle: lower,
                    upper_angle: lower + rng.range(0.0, 1.5),
                    enable_motor: rng.range(0.0, 1.0) < 0.5,
                    motor_speed: rng.range(-2.0, 2.0),
                    max_motor_torque: rng.range(0.0, 5.0),
                    enable_spring: rng.range(0.0, 1.0) < 0.5,
                    // Zero now and then: an enabled spring of no stiffness.
                    hertz: rng.range(-2.0, 8.0).max(0.0),
                    damping_ratio: rng.range(0.0, 2.0),
                    target_angle: rng.range(-1.0, 1.0),
                };
                JointConstraint {
                    joint: l,
                    a: if fixed { 0 } else { 2 * l + 1 },
                    b: 2 * l + 2,
                    masses,
                    anchor_a: rng.vec(1.0),
                    anchor_b: rng.vec(1.0),
                    delta_center: rng.vec(2.0),
                    delta_angle: rng.range(-3.0, 3.0),
                    axis: Vec2::X,
                    kind: JointKind::Revolute(r),
                    impulses: JointImpulses {
                        linear: rng.vec(0.5),
                        spring: rng.range(-0.2, 0.2),
                        motor: rng.range(-0.2, 0.2),
                        lower: rng.range(-0.2, 0.2).max(0.0),
                        upper: rng.range(-0.2, 0.2).max(0.0),
                        ..JointImpulses::ZERO
                    },
                    spring: Softness::new(r.hertz, r.damping_ratio, h),
                    angular_spring: Softness::RIGID,
                }
            })
            .collect()
    }

    /// Nine bodies' states (row 0 the static one, at rest) moved and
    /// turned at random.
    fn states(rng: &mut Rng) -> Vec<StateCell> {
        (0..=2 * W)
            .map(|i| {
                StateCell::new(if i == 0 {
                    BodyState::default()
                } else {
                    BodyState {
                        v: rng.vec(3.0),
                        w: rng.range(-4.0, 4.0),
                        dp: rng.vec(0.05),
                        dq: Rot::from_angle(rng.range(-0.3, 0.3)),
                        ..BodyState::default()
                    }
                })
            })
            .collect()
    }

    /// Every float the kernels write: the bodies' velocities and the
    /// joints' impulses, as bits.
    fn bits(joints: &[JointConstraint], states: &[StateCell]) -> Vec<u32> {
        let mut out = Vec::new();
        for s in states {
            let (v, w) = s.velocity();
            out.extend([v.x, v.y, w].map(f32::to_bits));
        }
        for j in joints {
            let i = &j.impulses;
            out.extend([i.linear.x, i.linear.y, i.spring, i.motor, i.lower, i.upper].map(f32::to_bits));
        }
        out
    }

    #[test]
    fn four_hinges_lane_wide_give_the_scalar_kernels_bits() {
        let ctx = StepContext::for_tests();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for case in 0..500 {
            let joints = hinges(&mut rng, ctx.h);
            let states = states(&mut rng);
            let (mut wide, wide_states) = (joints.clone(), states.clone());
            let (mut scalar, scalar_states) = (joints, states);
            // A substep's warm start, biased pass and relax, twice.
            for pass in 0..6 {
                let bias = pass % 3 == 1;
                if pass % 3 == 0 {
                    warm_start(&wide, &wide_states);
                    scalar
                        .iter()
                        .for_each(|j| super::super::warm_start(j, &scalar_states));
                } else {
                    assert!(revolute_lanes(&wide).is_some());
                    solve(&mut wide, &wide_states, &ctx, bias);
                    for j in &mut scalar {
                        super::super::solve(j, &scalar_states, &ctx, bias);
                    }
                }
                assert_eq!(
                    bits(&wide, &wide_states),
                    bits(&scalar, &scalar_states),
                    "case {case}, pass {pass}"
                );
            }
        }
    }

    #[test]
    fn a_chunk_with_another_kind_or_fewer_than_four_is_not_lane_wide() {
        let mut rng = Rng(7);
        let mut joints = hinges(&mut rng, 1.0 / 240.0);
        assert!(revolute_lanes(&joints).is_some());
        assert!(revolute_lanes(&joints[..W - 1]).is_none());
        joints[2].kind = JointKind::Filter;
        assert!(revolute_lanes(&joints).is_none());
    }
}
