//! The revolute joint: a hinge. Both bodies' frames keep one point in
//! common and turn freely about it, within angle limits if set, driven by
//! a motor or pulled to a target angle by a spring.
//!
//! Its kernels: spring, motor and limits on the relative angle, then the
//! point the two frames share (a 2x2 block, so the hinge holds in both
//! directions at once). The solver also takes the hinges of a color four
//! at a time, lane-wide, with the same arithmetic
//! (`solver/joints/hinges.rs`).

use super::checks::{check_finite, check_limits, check_non_negative, check_spring};
use super::constraint::{unwind, JointConstraint, LimitRows, Motion};
use super::kernels::{
    inverse, limit_impulse, limit_unsettled, motor_impulse, point_impulse, point_mass_matrix, rigid,
    soft_impulse, solve_point,
};
use crate::debug_draw::{Color, DebugDraw};
use crate::error::JointError;
use crate::math::{Rot, Transform, Vec2};
use crate::step_context::StepContext;

/// A hinge at the joint frames' origins. The joint angle is frame B's
/// angle less frame A's (counter-clockwise positive), zero where the
/// frames were made to coincide.
///
/// A motor with a target speed of zero and a small maximum torque is joint
/// friction: it resists turning up to that torque.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RevoluteJoint {
    /// Hold the angle within `lower_angle..=upper_angle`.
    pub enable_limit: bool,
    /// The lowest angle, radians, in `-pi..=pi`.
    pub lower_angle: f32,
    /// The highest angle, radians, in `lower_angle..=pi`.
    pub upper_angle: f32,
    /// Drive the relative angular velocity towards `motor_speed`.
    pub enable_motor: bool,
    /// The motor's target speed, rad/s.
    pub motor_speed: f32,
    /// The largest torque the motor applies, N m (at least 0).
    pub max_motor_torque: f32,
    /// Pull the angle towards `target_angle` with a damped spring.
    pub enable_spring: bool,
    /// The spring's stiffness as a frequency, Hz (at least 0; 0 is no
    /// spring).
    pub hertz: f32,
    /// The spring's damping ratio (at least 0; 1 is critical).
    pub damping_ratio: f32,
    /// The angle the spring pulls towards, radians.
    pub target_angle: f32,
}

impl Default for RevoluteJoint {
    /// A free hinge: no limit, motor or spring.
    fn default() -> Self {
        RevoluteJoint {
            enable_limit: false,
            lower_angle: 0.0,
            upper_angle: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            target_angle: 0.0,
        }
    }
}

impl RevoluteJoint {
    /// The same hinge held between `lower` and `upper` radians.
    pub fn with_limits(self, lower: f32, upper: f32) -> RevoluteJoint {
        RevoluteJoint {
            enable_limit: true,
            lower_angle: lower,
            upper_angle: upper,
            ..self
        }
    }

    /// The same hinge with a motor of `speed` rad/s and at most
    /// `max_torque` N m.
    pub fn with_motor(self, speed: f32, max_torque: f32) -> RevoluteJoint {
        RevoluteJoint {
            enable_motor: true,
            motor_speed: speed,
            max_motor_torque: max_torque,
            ..self
        }
    }

    /// The same hinge with a spring of `hertz` and `damping_ratio`
    /// towards `target_angle`.
    pub fn with_spring(self, hertz: f32, damping_ratio: f32, target_angle: f32) -> RevoluteJoint {
        RevoluteJoint {
            enable_spring: true,
            hertz,
            damping_ratio,
            target_angle,
            ..self
        }
    }

    pub(super) fn validate(&self) -> Result<(), JointError> {
        check_finite(&[
            (self.lower_angle, "lower angle"),
            (self.upper_angle, "upper angle"),
            (self.motor_speed, "motor speed"),
            (self.max_motor_torque, "max motor torque"),
            (self.hertz, "spring hertz"),
            (self.damping_ratio, "spring damping ratio"),
            (self.target_angle, "target angle"),
        ])?;
        let pi = std::f32::consts::PI;
        if self.lower_angle < -pi || self.upper_angle > pi {
            return Err(JointError::OutOfRange("angle limits (within -pi..=pi)"));
        }
        check_limits(self.lower_angle, self.upper_angle, "angle limits")?;
        check_non_negative(self.max_motor_torque, "max motor torque")?;
        check_spring(self.hertz, self.damping_ratio)
    }
}

impl RevoluteJoint {
    /// Frame B's angle less frame A's (world frames `frame_a`, `frame_b`),
    /// radians in `-pi..=pi`: the joint angle.
    pub(crate) fn angle(frame_a: Transform, frame_b: Transform) -> f32 {
        frame_a.q.inv_mul(frame_b.q).angle()
    }

    /// Draws the limits, if on, as two spokes from frame A (world) of
    /// 0.15 m (in `length_unit`s a metre).
    pub(super) fn draw(&self, frame_a: Transform, length_unit: f32, draw: &mut dyn DebugDraw) {
        if !self.enable_limit {
            return;
        }
        let spoke = 0.15 * length_unit;
        for angle in [self.lower_angle, self.upper_angle] {
            let dir = (frame_a.q * Rot::from_angle(angle)).x_axis();
            draw.draw_segment(frame_a.p, frame_a.p + spoke * dir, Color::JOINT_AXIS);
        }
    }
}

/// Applies the accumulated impulses at the start of a substep (the
/// angular ones about the point, when the point is held: see [`solve`]).
pub(super) fn warm_start(j: &JointConstraint, m: &mut Motion) {
    let (ra, rb) = m.anchors(j);
    let i = &j.impulses;
    m.apply_linear(j, ra, rb, i.linear);
    let angular = i.spring + i.motor + i.lower - i.upper;
    m.apply_angular(j, angular);
    if j.point_held {
        let k = point_mass_matrix(j.masses, ra, rb);
        m.apply_linear(j, ra, rb, -point_hold(j, k, (ra, rb)).0 * angular);
    }
}

/// For a hinge whose point is held (solved exactly with its tree): the
/// point impulse that keeps the anchors' relative velocity through a unit
/// angular impulse, so that the angular rows turn the bodies about the
/// hinge, and those rows' mass, the relative turn's with the point held (a
/// limb's inertia about the hinge, not about its own center): a motor or
/// limit on a light limb pushes as hard as the limb needs, where turning
/// it about its center undoes what the point's solve then takes back, and
/// a motor under load lags.
/// (`k` is the point's mass matrix at anchors `ra`, `rb`:
/// [`point_mass_matrix`].)
fn point_hold(j: &JointConstraint, k: [f32; 3], (ra, rb): (Vec2, Vec2)) -> (Vec2, f32) {
    let [_, ia, _, ib] = j.masses;
    // (The point's velocity change through a unit angular impulse.)
    let couple = ia * ra.perp() + ib * rb.perp();
    let hold = solve_point(k, couple);
    (hold, inverse(ia + ib - couple.dot(hold)))
}

/// One iteration of the joint's kernels: the biased pass (`bias`) or
/// the relax.
pub(super) fn solve(
    j: &mut JointConstraint,
    r: &RevoluteJoint,
    m: &mut Motion,
    ctx: &StepContext,
    bias: bool,
) {
    let (ra, rb) = m.anchors(j);
    // (The point's mass matrix, for its hold, the limits' and its own
    // row: the bodies turn only between iterations.)
    let k = point_mass_matrix(j.masses, ra, rb);
    let (hold, axial_mass) = if j.point_held {
        point_hold(j, k, (ra, rb))
    } else {
        let [_, ia, _, ib] = j.masses;
        (Vec2::ZERO, inverse(ia + ib))
    };
    // An angular impulse, with the point impulse that holds the point.
    let turn = |m: &mut Motion, j: &JointConstraint, impulse: f32| {
        m.apply_angular(j, impulse);
        if j.point_held {
            m.apply_linear(j, ra, rb, -hold * impulse);
        }
    };
    // The angle follows the bodies' rotations, which no impulse of this
    // iteration changes: one arc tangent for the spring and the limits.
    let angle = if r.enable_spring || r.enable_limit {
        m.angle(j)
    } else {
        0.0
    };
    if r.enable_spring && r.hertz > 0.0 {
        let c = unwind(angle - r.target_angle);
        let (spring, push) = (j.spring, f32::INFINITY);
        let impulse = soft_impulse(
            spring,
            (c, push),
            m.b.w - m.a.w,
            axial_mass,
            &mut j.impulses.spring,
        );
        turn(m, j, impulse);
    }
    if r.enable_motor {
        let cdot = m.b.w - m.a.w - r.motor_speed;
        let max = ctx.h * r.max_motor_torque;
        let impulse = motor_impulse(cdot, axial_mass, max, &mut j.impulses.motor);
        turn(m, j, impulse);
    }
    if r.enable_limit {
        let held = if j.point_held {
            (hold, axial_mass)
        } else {
            point_hold(j, k, (ra, rb))
        };
        let rows = limit_rows(r, (ra, rb), held, angle);
        if bias {
            j.limit_rows = rows;
        }
        let _ = solve_limit_rows(j, &rows, m, (ctx.inv_h(), bias));
    }
    let c = m.separation(j, ra, rb);
    let cdot = m.relative_velocity(ra, rb);
    let impulse = point_impulse(
        k,
        rigid(ctx, bias),
        c,
        cdot,
        j.impulses.linear,
        ctx.max_joint_push_speed,
    );
    j.impulses.linear += impulse;
    m.apply_linear(j, ra, rb, impulse);
}

/// One of the passes over the limits alone that follow each biased
/// iteration ([`LIMIT_PASSES`](crate::solver::LIMIT_PASSES)): the limit
/// rows of a hinge whose limit pushes (some impulse stored). Returns
/// `None` when it has none (the bodies are unchanged), else whether the
/// pass has yet to settle it (see
/// [`LIMIT_SETTLED`](crate::joint::LIMIT_SETTLED)). (The lane kernel
/// in `solver/joints/hinges.rs` takes the same steps.)
pub(super) fn solve_limits(
    j: &mut JointConstraint,
    r: &RevoluteJoint,
    m: &mut Motion,
    ctx: &StepContext,
) -> Option<bool> {
    if !(r.enable_limit && (j.impulses.lower > 0.0 || j.impulses.upper > 0.0)) {
        return None;
    }
    let rows = j.limit_rows;
    let (lower, upper) = solve_limit_rows(j, &rows, m, (ctx.inv_h(), true));
    let stored = j.impulses.lower + j.impulses.upper;
    Some(limit_unsettled(lower.abs() + upper.abs(), stored))
}

/// Hinge `r`'s limit rows (see [`LimitRows`]) at anchors `ra`, `rb`, the
/// point held by `hold` ([`point_hold`]: its impulse a unit turn takes,
/// and the turn's mass), and joint angle `angle`.
fn limit_rows(
    r: &RevoluteJoint,
    (ra, rb): (Vec2, Vec2),
    (hold, axial_mass): (Vec2, f32),
    angle: f32,
) -> LimitRows {
    LimitRows {
        anchors: (ra, rb),
        hold,
        axial_mass,
        lower_c: angle - r.lower_angle,
        upper_c: r.upper_angle - angle,
    }
}

/// The two limit rows `rows`, a limit passed pushed back at `inv_h` in
/// the biased pass (`bias`). Each
/// impulse turns the bodies about the hinge, the point held (see
/// [`point_hold`]), and its point impulse is the point's: a limit's push
/// neither opens the hinge nor fights the point's own correction, which
/// a limb turned about its center would (a lander's leg pressed into its
/// limit by its motor then never came to rest). Returns the impulses the
/// two rows applied.
fn solve_limit_rows(
    j: &mut JointConstraint,
    rows: &LimitRows,
    m: &mut Motion,
    (inv_h, bias): (f32, bool),
) -> (f32, f32) {
    let LimitRows {
        anchors: (ra, rb),
        hold,
        axial_mass,
        lower_c,
        upper_c,
    } = *rows;
    let turn = |m: &mut Motion, j: &mut JointConstraint, impulse: f32| {
        m.apply_angular(j, impulse);
        let push = -hold * impulse;
        m.apply_linear(j, ra, rb, push);
        // A held point's share of the angular rows is implied by them
        // (see `warm_start`); another hinge's is its point's impulse.
        if !j.point_held {
            j.impulses.linear += push;
        }
    };
    let i = &mut j.impulses;
    let lower = limit_impulse(
        lower_c,
        m.b.w - m.a.w,
        axial_mass,
        &mut i.lower,
        (inv_h, bias),
        f32::INFINITY,
    );
    turn(m, j, lower);
    let i = &mut j.impulses;
    let upper = limit_impulse(
        upper_c,
        m.a.w - m.b.w,
        axial_mass,
        &mut i.upper,
        (inv_h, bias),
        f32::INFINITY,
    );
    turn(m, j, -upper);
    (lower, upper)
}

/// What the joint applied, per substep: the point's impulse on body B,
/// and the spring's, motor's and limits' angular impulse.
pub(super) fn reaction(j: &JointConstraint) -> (Vec2, f32) {
    let i = &j.impulses;
    let angular = i.axial() + i.motor;
    if j.point_held {
        // (The point's part of the angular rows' impulses: see `solve`.)
        let k = point_mass_matrix(j.masses, j.anchor_a, j.anchor_b);
        let (hold, _) = point_hold(j, k, (j.anchor_a, j.anchor_b));
        return (i.linear - hold * angular, angular);
    }
    (i.linear, angular)
}
