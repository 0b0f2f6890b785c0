//! Revolute joints a batch at a time: four or eight hinges of one graph
//! color (see [`Lanes`]; no dynamic body twice, so they are
//! independent) packed into a
//! [`HingeBatch`] once a step, in structure-of-arrays form as the
//! contacts' batches are, then warm started and solved lane-wide every
//! pass: the same arithmetic as `joint/revolute.rs` in the same order on each
//! lane, so each lane's bits are what the scalar kernel gives (the tests
//! hold them to it). A part only some lanes have (a spring, a motor,
//! limits) is computed on every lane and kept where the lane has it; a
//! part no lane has is skipped. After the substeps the batches hand
//! their impulses back to the joints' constraints.
//!
//! A scene of hinges (Box2D's joint grid, the ragdolls) spends most of
//! its solve here: a hinge's point row is some sixty multiplies and adds
//! that the scalar kernel does one at a time. A batch's hinges do them
//! at once here, and they are packed into these batches once a step rather than
//! read from their constraints into lanes on every pass, so each pass
//! reads its batch contiguously.

// Lane loops index several arrays by the same lane number on purpose.
#![allow(clippy::needless_range_loop)]

use crate::body::StateCell;
use crate::joint::{rigid, JointConstraint, JointKind, RevoluteJoint, LIMIT_SETTLED};
use crate::math::Vec2;
use crate::solver::lanes::{LaneBodies, LaneMask, Lanes, Velocities, MAX_W};
use crate::step_context::{Softness, StepContext};

/// A pair of lanes: the x and y of a batch's vectors.
type Lanes2<L> = (L, L);

/// Up to [`W`] hinges of one color, lane by lane. Unused lanes sit on
/// the dummy body state (at rest, never written) with zero masses, so
/// their arithmetic yields zeros that are never scattered.
#[derive(Clone, Debug)]
pub(crate) struct HingeBatch<L: Lanes> {
    /// Lanes in use.
    len: u32,
    /// Each lane's place in the step's joint array, whose constraint
    /// takes the impulses back after the substeps.
    place: L::Ints,
    /// Each lane's bodies (one the joint cannot move is never written).
    bodies: LaneBodies<L>,
    /// Whether some lane has a spring, a motor or limits.
    angular: bool,
    /// Inverse masses and inertias.
    ma: L,
    ia: L,
    mb: L,
    ib: L,
    /// Frame A's origin relative to body A's center of mass at the step
    /// start, world axes.
    anchor_a: Lanes2<L>,
    /// Frame B's origin relative to body B's.
    anchor_b: Lanes2<L>,
    /// Body B's center of mass less body A's at the step start.
    delta_center: Lanes2<L>,
    /// The point's accumulated impulse.
    linear: Lanes2<L>,
    /// The spring's, motor's and limits' accumulated impulses (kept and
    /// warm started whether or not the parts are on, as the scalar
    /// kernel does).
    spring_impulse: L,
    motor_impulse: L,
    lower_impulse: L,
    upper_impulse: L,
    /// The spring, motor and limits: read only when `angular`.
    parts: AngularLanes<L>,
    /// The limit rows as the last pass found the bodies (see
    /// [`HingeBatch::solve_limits`]).
    limit_rows: LimitRows<L>,
}

/// The limit rows of a batch's hinges as the bodies stand in a pass.
#[derive(Clone, Debug, Default)]
struct LimitRows<L: Lanes> {
    /// The anchors, `(rax, ray, rbx, rby)`.
    anchors: (L, L, L, L),
    /// The point impulse that holds the point per unit angular impulse,
    /// and the angular rows' mass with the point held.
    hold: Lanes2<L>,
    axial_mass: L,
    /// The angle's distances from the lower limit and to the upper.
    lower_c: L,
    upper_c: L,
}

/// The angular parts of a batch's hinges (see `revolute::solve`).
#[derive(Clone, Debug, Default)]
struct AngularLanes<L: Lanes> {
    /// Frame B's angle less frame A's at the step start.
    delta_angle: L,
    /// The lanes with a spring of some stiffness, a motor, limits.
    spring: L::Mask,
    motor: L::Mask,
    limit: L::Mask,
    /// The spring's target angle and softness.
    target_angle: L,
    bias_rate: L,
    mass_scale: L,
    impulse_scale: L,
    /// The motor's speed and torque.
    motor_speed: L,
    max_motor_torque: L,
    /// The limits.
    lower_angle: L,
    upper_angle: L,
}

impl<L: Lanes> HingeBatch<L> {
    /// A batch with no lanes in use, for [`HingeBatch::fill`] to overwrite.
    pub(crate) fn empty() -> HingeBatch<L> {
        HingeBatch {
            len: 0,
            place: L::Ints::default(),
            bodies: LaneBodies::default(),
            angular: false,
            ma: L::default(),
            ia: L::default(),
            mb: L::default(),
            ib: L::default(),
            anchor_a: <Lanes2<L>>::default(),
            anchor_b: <Lanes2<L>>::default(),
            delta_center: <Lanes2<L>>::default(),
            linear: <Lanes2<L>>::default(),
            spring_impulse: L::default(),
            motor_impulse: L::default(),
            lower_impulse: L::default(),
            upper_impulse: L::default(),
            parts: AngularLanes::default(),
            limit_rows: LimitRows::default(),
        }
    }

    /// Packs the hinges at `places` of `joints` (at most [`W`], all
    /// hinges, no dynamic body twice) into this batch's lanes, in place;
    /// unused lanes sit on body state `dummy` (see [`HingeBatch`]).
    #[inline(always)]
    pub(crate) fn fill(&mut self, places: std::ops::Range<usize>, joints: &[JointConstraint], dummy: u32) {
        debug_assert!(places.len() <= L::W);
        const PAD: JointConstraint = JointConstraint::EMPTY;
        let mut js = [&PAD; MAX_W];
        let mut r = [RevoluteJoint::default(); MAX_W];
        for (l, place) in places.clone().enumerate() {
            let j = &joints[place];
            js[l] = j;
            self.place[l] = place as u32;
            if let JointKind::Revolute(kind) = j.kind {
                r[l] = kind;
            }
        }
        self.len = places.len() as u32;
        let lb = &mut self.bodies;
        for l in 0..L::W {
            let in_use = l < places.len();
            (lb.a[l], lb.b[l]) = if in_use {
                (js[l].a, js[l].b)
            } else {
                (dummy, dummy)
            };
            let [ma, ia, mb, ib] = js[l].masses;
            // (As `Motion::store`: a body the joint cannot move is
            // never written.)
            lb.write_a[l] = in_use && (ma != 0.0 || ia != 0.0);
            lb.write_b[l] = in_use && (mb != 0.0 || ib != 0.0);
        }
        // Each lane's values read at once, then each value built from its
        // lanes (see `Lanes::gather`).
        let [ma, ia, mb, ib, aax, aay, abx, aby, dcx, dcy, px, py, spring, motor, lower, upper] =
            L::gather(|l| {
                let j = js[l];
                let i = &j.impulses;
                [
                    j.masses[0],
                    j.masses[1],
                    j.masses[2],
                    j.masses[3],
                    j.anchor_a.x,
                    j.anchor_a.y,
                    j.anchor_b.x,
                    j.anchor_b.y,
                    j.delta_center.x,
                    j.delta_center.y,
                    i.linear.x,
                    i.linear.y,
                    i.spring,
                    i.motor,
                    i.lower,
                    i.upper,
                ]
            });
        (self.ma, self.ia, self.mb, self.ib) = (ma, ia, mb, ib);
        self.anchor_a = (aax, aay);
        self.anchor_b = (abx, aby);
        self.delta_center = (dcx, dcy);
        self.linear = (px, py);
        self.spring_impulse = spring;
        self.motor_impulse = motor;
        self.lower_impulse = lower;
        self.upper_impulse = upper;
        let used = |l: usize| l < places.len();
        let spring = |l: usize| used(l) && r[l].enable_spring && r[l].hertz > 0.0;
        let motor = |l: usize| used(l) && r[l].enable_motor;
        let limit = |l: usize| used(l) && r[l].enable_limit;
        self.angular = (0..L::W).any(|l| spring(l) || motor(l) || limit(l));
        if !self.angular {
            return;
        }
        let [delta_angle, target_angle, bias_rate, mass_scale, impulse_scale, motor_speed, max_motor_torque, lower_angle, upper_angle] =
            L::gather(|l| {
                let (j, r) = (js[l], &r[l]);
                [
                    j.delta_angle,
                    r.target_angle,
                    j.spring.bias_rate,
                    j.spring.mass_scale,
                    j.spring.impulse_scale,
                    r.motor_speed,
                    r.max_motor_torque,
                    r.lower_angle,
                    r.upper_angle,
                ]
            });
        self.parts = AngularLanes {
            delta_angle,
            spring: L::Mask::from_fn(spring),
            motor: L::Mask::from_fn(motor),
            limit: L::Mask::from_fn(limit),
            target_angle,
            bias_rate,
            mass_scale,
            impulse_scale,
            motor_speed,
            max_motor_torque,
            lower_angle,
            upper_angle,
        };
    }

    /// The places in the joint array of the lanes in use.
    #[cfg(test)]
    pub(crate) fn places(&self) -> &[u32] {
        &self.place.as_ref()[..self.len as usize]
    }

    /// Hands the accumulated impulses back to the lanes' constraints.
    pub(crate) fn store(&self, joints: &mut [JointConstraint]) {
        for l in 0..self.len as usize {
            let i = &mut joints[self.place[l] as usize].impulses;
            i.linear = Vec2::new(self.linear.0.lane(l), self.linear.1.lane(l));
            i.spring = self.spring_impulse.lane(l);
            i.motor = self.motor_impulse.lane(l);
            i.lower = self.lower_impulse.lane(l);
            i.upper = self.upper_impulse.lane(l);
        }
    }

    /// Each lane's bodies and whether the lane writes them: `(a, writes
    /// a, b, writes b)`, padding lanes included.
    pub(crate) fn footprint(&self) -> impl Iterator<Item = (u32, bool, u32, bool)> + '_ {
        self.bodies.footprint()
    }

    /// `joint::warm_start` for the batch's hinges.
    #[inline(always)]
    pub(crate) fn warm_start(&self, states: &[StateCell]) {
        let mut m = LaneMotion::load(self, states);
        let r = m.anchors(self);
        m.apply_linear(self, r, self.linear);
        let angular = self.spring_impulse + self.motor_impulse + self.lower_impulse - self.upper_impulse;
        m.apply_angular(self, L::Mask::all_set(), angular);
        m.store(self, states);
    }

    /// `joint::solve` for the batch's hinges: the biased pass (`bias`)
    /// or the relax.
    #[inline(always)]
    pub(crate) fn solve(&mut self, states: &[StateCell], ctx: &StepContext, bias: bool) {
        let mut m = LaneMotion::load(self, states);
        if self.angular {
            self.solve_angular(&mut m, ctx, bias);
        }
        self.solve_point(&mut m, rigid(ctx, bias), ctx.max_joint_push_speed);
        m.store(self, states);
    }

    /// One pass over the limits alone (`revolute::solve_limits`
    /// lane-wide): the limit rows of the lanes whose limits push, as the
    /// biased pass before it left them. Returns whether the pass has yet
    /// to settle one of them (see
    /// [`LIMIT_SETTLED`](crate::joint::LIMIT_SETTLED)).
    #[inline(always)]
    pub(crate) fn solve_limits(&mut self, states: &[StateCell], ctx: &StepContext) -> bool {
        let zero = L::splat(0.0);
        let pushing = self.parts.limit & (self.lower_impulse.gt(zero) | self.upper_impulse.gt(zero));
        if !pushing.any() {
            return false;
        }
        // (Only the velocities: the rows' geometry is the biased pass's.)
        let mut m = LaneMotion {
            v: self.bodies.gather(states),
            dpa: Default::default(),
            dpb: Default::default(),
            dqa: Default::default(),
            dqb: Default::default(),
        };
        let inv_h = L::splat(ctx.inv_h());
        let (lower, upper) = self.solve_limit_rows(&mut m, pushing, (inv_h, inv_h));
        m.store(self, states);
        // (`joint::kernels::limit_unsettled` lane-wide: the same bits.)
        let stored = self.lower_impulse + self.upper_impulse;
        let unsettled = (lower.abs() + upper.abs()).gt(L::splat(LIMIT_SETTLED) * stored);
        (pushing & unsettled).any()
    }

    /// `revolute::solve_limit_rows` lane-wide on the lanes `mask`, from
    /// the rows kept in `limit_rows`: a limit passed pushed back at
    /// `push`. Returns the impulses the two rows applied.
    #[inline(always)]
    fn solve_limit_rows(&mut self, m: &mut LaneMotion<L>, mask: L::Mask, (inv_h, push): (L, L)) -> (L, L) {
        let rows = self.limit_rows.clone();
        let (lower, acc) = limit_impulse(
            (rows.lower_c, m.v.wb - m.v.wa, self.lower_impulse),
            (inv_h, push),
            rows.axial_mass,
            mask,
        );
        self.lower_impulse = acc;
        self.turn_held(m, (rows.anchors, rows.hold), mask, lower);
        let (upper, acc) = limit_impulse(
            (rows.upper_c, m.v.wa - m.v.wb, self.upper_impulse),
            (inv_h, push),
            rows.axial_mass,
            mask,
        );
        self.upper_impulse = acc;
        self.turn_held(m, (rows.anchors, rows.hold), mask, -upper);
        (lower, upper)
    }

    /// Frame B's angle less frame A's (`Motion::angle` lane-wide: the
    /// same bits).
    #[inline(always)]
    fn angle(&self, m: &LaneMotion<L>) -> L {
        let ((ca, sa), (cb, sb)) = (m.dqa, m.dqb);
        let relative = (ca * sb - sa * cb).atan2(ca * cb + sa * sb);
        unwind_lanes(self.parts.delta_angle + relative)
    }

    /// `revolute::point_hold` lane-wide: for anchors `r`, the point
    /// impulse that keeps the anchors' relative velocity through a unit
    /// angular impulse, and the angular row's mass with the point held.
    #[inline(always)]
    fn point_hold(&self, (rax, ray, rbx, rby): (L, L, L, L)) -> (Lanes2<L>, L) {
        let (ma, ia, mb, ib) = (self.ma, self.ia, self.mb, self.ib);
        // couple = ia * perp(ra) + ib * perp(rb), perp(x, y) = (-y, x)
        let (ux, uy) = (ia * -ray + ib * -rby, ia * rax + ib * rbx);
        let k11 = ma + mb + ray * ray * ia + rby * rby * ib;
        let k12 = -ray * rax * ia - rby * rbx * ib;
        let k22 = ma + mb + rax * rax * ia + rbx * rbx * ib;
        let det = k11 * k22 - k12 * k12;
        let inv = L::splat(1.0) / det;
        let singular = det.eq(L::splat(0.0));
        let zero = L::splat(0.0);
        let hx = singular.select(zero, inv * (k22 * ux - k12 * uy));
        let hy = singular.select(zero, inv * (k11 * uy - k12 * ux));
        let k = ia + ib - (ux * hx + uy * hy);
        ((hx, hy), k.gt(zero).select(L::splat(1.0) / k, zero))
    }

    /// Applies the angular impulse `impulse` on the lanes `mask` with the
    /// point impulse that holds the hinge's point (`hold` per unit, at
    /// anchors `r`), and adds that point impulse to the point's own.
    #[inline(always)]
    fn turn_held(
        &mut self,
        m: &mut LaneMotion<L>,
        (r, (hx, hy)): ((L, L, L, L), Lanes2<L>),
        mask: L::Mask,
        impulse: L,
    ) {
        m.apply_angular(self, mask, impulse);
        let push = (-hx * impulse, -hy * impulse);
        let before = m.v;
        m.apply_linear(self, r, push);
        let after = m.v;
        m.v.select_from(mask, &after, &before);
        let (acc_x, acc_y) = self.linear;
        self.linear = (
            mask.select(acc_x + push.0, acc_x),
            mask.select(acc_y + push.1, acc_y),
        );
    }
}

/// A batch's hinges' bodies during one kernel: loaded, changed, stored.
struct LaneMotion<L> {
    /// Velocities of A and B (changed by the kernel).
    v: Velocities<L>,
    /// Translations of A and B since the step began.
    dpa: Lanes2<L>,
    dpb: Lanes2<L>,
    /// Rotations of A and B since the step began, `(cos, sin)`.
    dqa: Lanes2<L>,
    dqb: Lanes2<L>,
}

impl<L: Lanes> LaneMotion<L> {
    #[inline(always)]
    fn load(batch: &HingeBatch<L>, states: &[StateCell]) -> LaneMotion<L> {
        let lb = &batch.bodies;
        let [pax, pay, pbx, pby, qac, qas, qbc, qbs] = L::gather(|l| {
            let ((pa, qa), (pb, qb)) = (
                states[lb.a[l] as usize].motion(),
                states[lb.b[l] as usize].motion(),
            );
            [pa.x, pa.y, pb.x, pb.y, qa.c, qa.s, qb.c, qb.s]
        });
        LaneMotion {
            v: lb.gather(states),
            dpa: (pax, pay),
            dpb: (pbx, pby),
            dqa: (qac, qas),
            dqb: (qbc, qbs),
        }
    }

    /// Writes back the velocities of the bodies the lanes write.
    #[inline(always)]
    fn store(&self, batch: &HingeBatch<L>, states: &[StateCell]) {
        batch.bodies.scatter(states, &self.v);
    }

    /// The anchors now, turned with their bodies since the step began:
    /// `(rax, ray, rbx, rby)`.
    #[inline(always)]
    fn anchors(&self, batch: &HingeBatch<L>) -> (L, L, L, L) {
        let ((ca, sa), (cb, sb)) = (self.dqa, self.dqb);
        let ((ax, ay), (bx, by)) = (batch.anchor_a, batch.anchor_b);
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
    fn apply_linear(
        &mut self,
        batch: &HingeBatch<L>,
        (rax, ray, rbx, rby): (L, L, L, L),
        (px, py): Lanes2<L>,
    ) {
        let (ma, ia, mb, ib) = (batch.ma, batch.ia, batch.mb, batch.ib);
        self.v.vax = self.v.vax - ma * px;
        self.v.vay = self.v.vay - ma * py;
        self.v.wa = self.v.wa - ia * (rax * py - ray * px);
        self.v.vbx = self.v.vbx + mb * px;
        self.v.vby = self.v.vby + mb * py;
        self.v.wb = self.v.wb + ib * (rbx * py - rby * px);
    }

    /// Applies the angular impulse `impulse` (minus on A, plus on B) in
    /// the lanes of `mask`.
    #[inline(always)]
    fn apply_angular(&mut self, batch: &HingeBatch<L>, mask: L::Mask, impulse: L) {
        self.v.wa = mask.select(self.v.wa - batch.ia * impulse, self.v.wa);
        self.v.wb = mask.select(self.v.wb + batch.ib * impulse, self.v.wb);
    }
}

/// `unwind` lane-wide: each angle brought into `-pi..=pi`.
#[inline(always)]
fn unwind_lanes<L: Lanes>(angle: L) -> L {
    use std::f32::consts::{PI, TAU};
    let (below, above) = (angle.lt(L::splat(-PI)), angle.gt(L::splat(PI)));
    below.select(angle + L::splat(TAU), above.select(angle - L::splat(TAU), angle))
}

/// `limit_impulse` lane-wide, for the lanes `limit`: given a limit's
/// gap `c`, the speed `cdot` closing it and its accumulated impulse
/// `acc`, the change of `acc`, and `acc`; a limit passed is pushed back
/// at `push` (the inverse substep in the biased pass, zero in the
/// relax). (A function, not a closure: a closure is compiled apart from
/// the kernel, without the lanes' processor features; see
/// `Lanes::enter`.)
#[inline(always)]
fn limit_impulse<L: Lanes>(
    (c, cdot, acc): (L, L, L),
    (inv_h, push): (L, L),
    axial_mass: L,
    limit: L::Mask,
) -> (L, L) {
    let open = c.gt(L::splat(0.0));
    let rate = open.select(c * inv_h, push * c);
    let impulse = -axial_mass * (cdot + rate);
    // `f32::max(x, 0.0)` as a select: 0 for a NaN too, and +0 for -0 (the
    // lane maximum would keep either).
    let sum = acc + impulse;
    let new = sum.gt(L::splat(0.0)).select(sum, L::splat(0.0));
    (new - acc, limit.select(new, acc))
}

impl<L: Lanes> HingeBatch<L> {
    /// The spring, motor and limits of the lanes that have them (see
    /// `revolute::solve`).
    #[inline(always)]
    fn solve_angular(&mut self, m: &mut LaneMotion<L>, ctx: &StepContext, bias: bool) {
        let axial = self.ia + self.ib;
        let axial_mass = axial
            .gt(L::splat(0.0))
            .select(L::splat(1.0) / axial, L::splat(0.0));
        let p = &self.parts;
        // (The lanes without a spring or limits never use the angle.)
        let angle = self.angle(m);
        let spring = p.spring;
        if spring.any() {
            let c = unwind_lanes(angle - p.target_angle);
            let acc = self.spring_impulse;
            let cdot = m.v.wb - m.v.wa;
            let impulse = -p.mass_scale * axial_mass * (cdot + p.bias_rate * c) - p.impulse_scale * acc;
            self.spring_impulse = spring.select(acc + impulse, acc);
            m.apply_angular(self, spring, impulse);
        }
        let motor = p.motor;
        if motor.any() {
            let cdot = m.v.wb - m.v.wa - p.motor_speed;
            let max = L::splat(ctx.h) * p.max_motor_torque;
            let old = self.motor_impulse;
            let new = (old - axial_mass * cdot).clamp(-max, max);
            self.motor_impulse = motor.select(new, old);
            m.apply_angular(self, motor, new - old);
        }
        let limit = p.limit;
        if limit.any() {
            // (Kept for the passes over the limits that follow a biased
            // pass: the bodies do not move before them.)
            let anchors = m.anchors(self);
            let (hold, axial_mass) = self.point_hold(anchors);
            self.limit_rows = LimitRows {
                anchors,
                hold,
                axial_mass,
                lower_c: angle - p.lower_angle,
                upper_c: p.upper_angle - angle,
            };
            let inv_h = L::splat(ctx.inv_h());
            let push = if bias { inv_h } else { L::splat(0.0) };
            let _ = self.solve_limit_rows(m, limit, (inv_h, push));
        }
    }

    /// The point the two frames share, a 2x2 block (see `revolute::solve`
    /// and `point_impulse`), with softness `soft`, the drift corrected no
    /// faster than `max_push`.
    #[inline(always)]
    fn solve_point(&mut self, m: &mut LaneMotion<L>, soft: Softness, max_push: f32) {
        let r @ (rax, ray, rbx, rby) = m.anchors(self);
        let ((adx, ady), (bdx, bdy)) = (m.dpa, m.dpb);
        let (dcx, dcy) = self.delta_center;
        let cx = (bdx - adx) + dcx + (rbx - rax);
        let cy = (bdy - ady) + dcy + (rby - ray);
        // cross_sv(w, r) = (-w r.y, w r.x)
        let cdot_x = (m.v.vbx + -m.v.wb * rby) - (m.v.vax + -m.v.wa * ray);
        let cdot_y = (m.v.vby + m.v.wb * rbx) - (m.v.vay + m.v.wa * rax);
        // `drift_bias` lane-wide.
        let bias_rate = L::splat(soft.bias_rate);
        let (bias_x, bias_y) = (bias_rate * cx, bias_rate * cy);
        let speed = (bias_x * bias_x + bias_y * bias_y).sqrt();
        let max_push = L::splat(max_push);
        let scale = speed.gt(max_push).select(max_push / speed, L::splat(1.0));
        let (rhs_x, rhs_y) = (cdot_x + bias_x * scale, cdot_y + bias_y * scale);
        let (ma, ia, mb, ib) = (self.ma, self.ia, self.mb, self.ib);
        let k11 = ma + mb + ray * ray * ia + rby * rby * ib;
        let k12 = -ray * rax * ia - rby * rbx * ib;
        let k22 = ma + mb + rax * rax * ia + rbx * rbx * ib;
        let det = k11 * k22 - k12 * k12;
        let inv = L::splat(1.0) / det;
        let singular = det.eq(L::splat(0.0));
        let x = singular.select(L::splat(0.0), inv * (k22 * rhs_x - k12 * rhs_y));
        let y = singular.select(L::splat(0.0), inv * (k11 * rhs_y - k12 * rhs_x));
        let (acc_x, acc_y) = self.linear;
        let (mass_scale, impulse_scale) = (L::splat(-soft.mass_scale), L::splat(soft.impulse_scale));
        let px = mass_scale * x - impulse_scale * acc_x;
        let py = mass_scale * y - impulse_scale * acc_y;
        self.linear = (acc_x + px, acc_y + py);
        m.apply_linear(self, r, (px, py));
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::body::BodyState;
    use crate::joint::JointImpulses;
    use crate::math::Rot;
    use crate::solver::lanes::F4;
    use crate::test_rng::Rng;

    /// `w` random hinges on bodies 1 to `2 w` (body A static, row 0, one
    /// time in four), with every mix of limits, motor and spring, and
    /// random impulses to warm start from.
    fn hinges(rng: &mut Rng, h: f32, w: usize) -> Vec<JointConstraint> {
        (0..w as u32)
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
                    held_exactly: false,
                    point_held: false,
                    limit_rows: Default::default(),
                }
            })
            .collect()
    }

    /// `2 w + 1` bodies' states (row 0 the static one, at rest) moved and
    /// turned at random.
    fn states(rng: &mut Rng, w: usize) -> Vec<StateCell> {
        (0..=2 * w)
            .map(|i| {
                StateCell::new(if i == 0 {
                    BodyState::default()
                } else {
                    BodyState {
                        v: rng.vec(3.0),
                        w: rng.range(-4.0, 4.0),
                        dp: rng.vec(0.05),
                        dq: Rot::from_angle(rng.range(-0.3, 0.3)),
                    }
                })
            })
            .collect()
    }

    /// Every float the kernels write: the bodies' velocities and the
    /// joints' impulses, as bits.
    pub(crate) fn bits(joints: &[JointConstraint], states: &[StateCell]) -> Vec<u32> {
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

    /// Runs a substep's warm start, biased pass, passes over the limits
    /// and relax twice on the first `n` of a batch's worth of random
    /// hinges, in a batch of lanes `L` and one at a time, and checks that
    /// both leave the same bits, the dummy row untouched.
    #[inline(always)]
    fn batch_matches_scalar<L: Lanes>(rng: &mut Rng, n: usize, ctx: &StepContext) {
        let joints = hinges(rng, ctx.h, L::W);
        let states = states(rng, L::W);
        // Row 0 is the static body, at rest: the dummy of spare lanes.
        let dummy = 0;
        let (mut wide, wide_states) = (joints.clone(), states.clone());
        let (mut scalar, scalar_states) = (joints, states);
        let mut batch = HingeBatch::<L>::empty();
        batch.fill(0..n, &wide, dummy);
        // A lane writes exactly the bodies its joint can move, and a
        // spare lane none (the coloring's guarantee rests on it).
        for (l, (a, writes_a, b, writes_b)) in batch.footprint().enumerate() {
            let moves = |m: [f32; 2]| m[0] != 0.0 || m[1] != 0.0;
            if l < n {
                let [ma, ia, mb, ib] = wide[l].masses;
                assert_eq!((a, b), (wide[l].a, wide[l].b));
                assert_eq!((writes_a, writes_b), (moves([ma, ia]), moves([mb, ib])));
            } else {
                assert_eq!((a, writes_a, b, writes_b), (dummy, false, dummy, false));
            }
        }
        // Each substep: the warm start, the biased pass, three passes over
        // the limits, the relax.
        for pass in 0..12 {
            match pass % 6 {
                0 => {
                    batch.warm_start(&wide_states);
                    scalar[..n]
                        .iter()
                        .for_each(|j| crate::joint::warm_start(j, &scalar_states));
                }
                step @ (1 | 5) => {
                    let bias = step == 1;
                    batch.solve(&wide_states, ctx, bias);
                    for j in &mut scalar[..n] {
                        crate::joint::solve(j, &scalar_states, ctx, bias);
                    }
                }
                _ => {
                    // Whether the pass has yet to settle a limit decides
                    // whether another runs: the batch must say what its
                    // joints one at a time say.
                    let wide_unsettled = batch.solve_limits(&wide_states, ctx);
                    let mut unsettled = false;
                    for j in &mut scalar[..n] {
                        unsettled |= crate::joint::solve_limits(j, &scalar_states, ctx);
                    }
                    assert_eq!(wide_unsettled, unsettled, "{n} hinges, pass {pass}");
                }
            }
            batch.store(&mut wide);
            assert_eq!(
                bits(&wide, &wide_states),
                bits(&scalar, &scalar_states),
                "{n} hinges, pass {pass}"
            );
        }
        assert_eq!(wide_states[0].velocity(), (Vec2::ZERO, 0.0));
    }

    /// [`batch_matches_scalar`] `rounds` times for each count of hinges
    /// in `counts` (a function of the lanes), four and, where the
    /// processor has them, eight lanes wide.
    fn on_every_width(seed: u64, rounds: usize, counts: fn(usize) -> std::ops::Range<usize>) {
        let ctx = StepContext::for_tests();
        let mut rng = Rng(seed);
        for n in counts(F4::W) {
            for _ in 0..rounds {
                batch_matches_scalar::<F4>(&mut rng, n, &ctx);
            }
        }
        #[cfg(target_arch = "x86_64")]
        if crate::threads::has_avx2() {
            use crate::solver::lanes::F8;
            F8::enter(
                #[inline(always)]
                || {
                    for n in counts(F8::W) {
                        for _ in 0..rounds {
                            batch_matches_scalar::<F8>(&mut rng, n, &ctx);
                        }
                    }
                },
            );
        }
    }

    #[test]
    fn a_hinge_batch_gives_the_scalar_kernels_bits() {
        on_every_width(0x9e37_79b9_7f4a_7c15, 500, |w| w..w + 1);
    }

    #[test]
    fn a_batch_of_fewer_hinges_than_lanes_solves_those_alone() {
        on_every_width(7, 50, |w| 1..w);
    }
}
