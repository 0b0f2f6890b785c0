//! The solver's data: per-body constants ([`SolverBody`]), the hot
//! per-body state the iterations read and write ([`BodyState`]), one
//! constraint per touching manifold ([`ContactConstraint`]) and the step's
//! constants ([`StepContext`]). The scalar and lane-wide kernels both work
//! on these, and import nothing of each other.

use crate::body::MotionLocks;
use crate::math::{Rot, Vec2};
use crate::settings::{PositionCorrection, SolverSettings};
use crate::threads::SharedCell;

/// The state of one body as the solver sees it, kept apart from the body's
/// bookkeeping so the inner loops touch only this.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverBody {
    pub v: Vec2,
    pub w: f32,
    pub inv_mass: f32,
    pub inv_inertia: f32,
    /// Velocity change per second from gravity and forces.
    pub accel: Vec2,
    /// Angular velocity change per second from torques.
    pub angular_accel: f32,
    /// Per-substep damping factors, `1 / (1 + h * damping)`.
    pub linear_decay: f32,
    /// Per-substep angular damping factor.
    pub angular_decay: f32,
    /// Whether velocities integrate (dynamic) or stay as set (kinematic,
    /// static).
    pub dynamic: bool,
    /// The center of mass at the start of the step (the contacts' anchors
    /// are measured from it), so building a constraint reads this and not
    /// the body's bookkeeping. Zero on the shared static body, which
    /// stands for every static body: theirs are read from the bodies.
    pub center: Vec2,
    /// The fastest this body may spin: the speed limit over its reach
    /// (the farthest point of its shapes, the farthest anchor of its
    /// solved joints), so that no point that moves with it, and no point
    /// a joint holds to it, moves faster than the speed limit. Infinite
    /// when nothing reaches from its center; the step's spin limit holds
    /// besides.
    pub max_spin: f32,
}

/// What the solve takes of an awake body, as the world gathers it (see
/// `Solver::gather_bodies`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Gathered {
    /// Its state, as built.
    Solve,
    /// Its state, held at zero velocity along the axes its motion locks
    /// hold (see [`Lock`]).
    Locked(MotionLocks),
    /// Nothing: the solve leaves it alone (frozen, static).
    Skip,
    /// Nothing: this step's gravity and forces would take its velocity
    /// past the float range, and the world freezes it.
    NonFinite,
}

/// A solver body whose motion locks hold some of its velocity at zero:
/// its index and the factors (0 on a held axis, else 1) its velocity is
/// multiplied by after each integration.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lock {
    pub body: u32,
    pub linear: Vec2,
    pub angular: f32,
}

impl Default for SolverBody {
    fn default() -> Self {
        SolverBody {
            v: Vec2::ZERO,
            w: 0.0,
            inv_mass: 0.0,
            inv_inertia: 0.0,
            accel: Vec2::ZERO,
            angular_accel: 0.0,
            linear_decay: 1.0,
            angular_decay: 1.0,
            dynamic: false,
            center: Vec2::ZERO,
            max_spin: f32::INFINITY,
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ConstraintPoint {
    /// Anchor relative to body A's center of mass at the start of the step.
    pub(crate) ra: Vec2,
    /// Anchor relative to body B's center of mass.
    pub(crate) rb: Vec2,
    /// Separation at the start of the step less `(rb - ra) . n`: adding the
    /// current anchor gap along the normal gives the current separation.
    pub(crate) base_separation: f32,
    /// The current separation, recomputed once per substep (bodies move
    /// only between substeps) for the one-at-a-time path.
    pub(crate) separation: f32,
    pub(crate) normal_mass: f32,
    pub(crate) tangent_mass: f32,
    /// Accumulated impulses, per substep.
    pub(crate) normal_impulse: f32,
    pub(crate) tangent_impulse: f32,
    pub(crate) pseudo_impulse: f32,
    /// Largest normal impulse applied this step: restitution applies only
    /// where the contact actually pushed.
    pub(crate) max_normal_impulse: f32,
    /// Normal velocity before the step, for restitution and hit events
    /// (left at zero, and never read, when the constraint is not tracked).
    pub(crate) relative_velocity: f32,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ContactConstraint {
    pub(crate) a: u32,
    pub(crate) b: u32,
    pub(crate) contact: u32,
    pub(crate) normal: Vec2,
    pub(crate) friction: f32,
    pub(crate) restitution: f32,
    /// The sliding speed friction drives towards (a conveyor belt).
    pub(crate) tangent_speed: f32,
    /// The largest rolling impulse per unit of normal impulse (see
    /// `Contact::rolling_resistance`); zero for none.
    pub(crate) rolling_resistance: f32,
    /// `1 / (ia + ib)`: the effective mass of the relative spin.
    pub(crate) rolling_mass: f32,
    /// Accumulated rolling impulse (per substep).
    pub(crate) rolling_impulse: f32,
    /// Whether the step's per-point results (approach velocity, largest
    /// impulse) are wanted after the solve: for restitution, or for a
    /// contact's hit event.
    pub(crate) track: bool,
    pub(crate) count: usize,
    /// Inverse masses and inertias `[ma, ia, mb, ib]`, copied here so the
    /// inner loops read only the constraint and the bodies' velocities.
    pub(crate) masses: [f32; 4],
    pub(crate) points: [ConstraintPoint; 2],
    /// Two-point manifolds: the 2x2 normal mass matrix `K` (symmetric:
    /// `k11, k12, k22`), and its inverse when it is well conditioned
    /// (`block`; else zeros). The two normal impulses are then solved
    /// together, exactly, instead of one after the other: a box resting
    /// on two points gets the same impulse on both corners, with no torque
    /// left over to rock it.
    pub(crate) k: [f32; 3],
    pub(crate) inv_k: [f32; 3],
    pub(crate) block: bool,
}

/// A two-point manifold's normal mass matrix `K` is solved as a block
/// only where `det K > 0` and `k11^2 < MAX_BLOCK_CONDITION det K`: two
/// points nearly on top of each other make `K` nearly singular, and are
/// then solved one at a time.
pub(crate) const MAX_BLOCK_CONDITION: f32 = 1000.0;

/// `det K` of a two-point manifold's normal mass matrix `K = [k11, k12,
/// k22]` when it is well conditioned enough to solve as a block (see
/// [`MAX_BLOCK_CONDITION`]), else `None`.
#[inline(always)]
pub(crate) fn block_determinant([k11, k12, k22]: [f32; 3]) -> Option<f32> {
    let det = k11 * k22 - k12 * k12;
    (det > 0.0 && k11 * k11 < MAX_BLOCK_CONDITION * det).then_some(det)
}

/// How the solve takes a contact constraint (and a joint: `Single` for
/// a hinge, which takes a lane of a hinge batch, `Alone` for the others).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum LaneKind {
    /// In a two-point lane batch (a well-conditioned block).
    Pair,
    /// In a one-point lane batch.
    Single,
    /// Alone, after its color's batches: a conveyor belt's contact (the
    /// lanes carry no tangent speed), or, with split impulses, an
    /// ill-conditioned pair (their lanes solve the block only).
    #[default]
    Alone,
}

impl LaneKind {
    /// How the solve takes a contact constraint with `count` points, a
    /// well-conditioned block or not (`block`), in the soft step or not
    /// (`soft`: there a two-point manifold goes in a two-point batch even
    /// when ill-conditioned, its lane then taking the points one after the
    /// other); one with a tangent speed or rolling resistance
    /// (`scalar_only`) is solved alone, as the lanes have neither.
    #[inline(always)]
    pub fn of((scalar_only, count, block): (bool, usize, bool), soft: bool) -> LaneKind {
        if scalar_only {
            LaneKind::Alone
        } else if block || (soft && count == 2) {
            LaneKind::Pair
        } else if count == 1 {
            LaneKind::Single
        } else {
            LaneKind::Alone
        }
    }
}

/// What the coloring reads of a contact constraint (or a joint), in an
/// array of its own beside the constraints: the serial coloring and
/// packing then stream 16 bytes a constraint instead of reading two cache
/// lines of each one, the second time in color order.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ColorKey {
    /// The contact's (or joint's) slot.
    pub item: u32,
    /// Body A's slot if it is dynamic, else
    /// [`NOT_HELD`](super::kept_colors::NOT_HELD): only a body the solve
    /// writes takes a color.
    pub a: u32,
    /// Body B's slot if it is dynamic, else `NOT_HELD`.
    pub b: u32,
    /// The color the contact (or joint) remembers
    /// ([`crate::contact::NO_COLOR`] if none), then this step's
    /// ([`crate::settings::GRAPH_COLORS`] for the overflow).
    pub color: u8,
    /// How the solve takes the constraint.
    pub kind: LaneKind,
}

impl ColorKey {
    /// The key of constraint `c` of contact slot `contact`, which
    /// remembers color `color`; `(a, b)` are its bodies' entries (see
    /// [`ColorKey::a`]), `soft` the soft step's (see [`LaneKind::of`]).
    /// For the tests, which color constraints with no contacts (the
    /// solver keys a contact by `prepare::contact_key`).
    #[cfg(test)]
    pub fn of(c: &ContactConstraint, contact: u32, color: u8, (a, b): (u32, u32), soft: bool) -> ColorKey {
        ColorKey {
            item: contact,
            a,
            b,
            color,
            kind: LaneKind::of(
                (
                    c.tangent_speed != 0.0 || c.rolling_resistance > 0.0,
                    c.count,
                    c.block,
                ),
                soft,
            ),
        }
    }
}

/// Per-step constants of the solve.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepContext {
    /// Substep length, seconds.
    pub h: f32,
    /// Substeps this step.
    pub substeps: u32,
    /// Collision tolerance, in the world's length unit.
    pub linear_slop: f32,
    /// Fastest push-out, in the world's length unit per second.
    pub max_push_out_speed: f32,
    /// The fastest a joint's drift correction closes a gap (see
    /// [`crate::settings::MAX_JOINT_PUSH_SPEED`]), length units per second.
    pub max_joint_push_speed: f32,
    /// Largest speed and spin a body may reach (guards, see the world).
    pub max_speed: f32,
    /// Largest angular speed.
    pub max_spin: f32,
    /// Solver options.
    pub settings: SolverSettings,
    /// The soft step's contact softness between two moving bodies.
    pub soft: Softness,
    /// The soft step's softness against a static or kinematic body
    /// (twice as stiff).
    pub static_soft: Softness,
    /// The drift correction of the joints' rigid parts.
    pub joint_soft: Softness,
    /// Split the solve's loops between the world's worker threads (the
    /// step runs inside their pool).
    pub parallel: bool,
}

/// A soft constraint's coefficients for a substep (Box2D v3's and Erin
/// Catto's "Solver2D" soft step): a spring of angular frequency
/// `omega = 2 pi hertz` and damping ratio `zeta`, solved implicitly over the
/// substep `h`, becomes a bias velocity `bias_rate * C`, a scaled effective
/// mass and a fraction of the accumulated impulse taken back each
/// iteration.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Softness {
    /// Bias velocity per metre of overlap, 1/s: `omega / (2 zeta + h omega)`.
    pub bias_rate: f32,
    /// Multiplies the effective mass: `h omega (2 zeta + h omega) /
    /// (1 + h omega (2 zeta + h omega))`.
    pub mass_scale: f32,
    /// Multiplies the accumulated impulse taken back: `1 / (1 + h omega
    /// (2 zeta + h omega))`.
    pub impulse_scale: f32,
    /// `1 / mass_scale`, kept so the contacts' block solve divides by
    /// nothing in its inner loop.
    pub inv_mass_scale: f32,
}

impl Softness {
    /// A rigid constraint with no bias: the full effective mass and
    /// nothing taken back.
    pub(crate) const RIGID: Softness = Softness {
        bias_rate: 0.0,
        mass_scale: 1.0,
        impulse_scale: 0.0,
        inv_mass_scale: 1.0,
    };

    /// The coefficients of a spring of `hertz` and damping ratio `zeta` over
    /// a substep `h`. A zero frequency is a rigid constraint with no bias.
    pub(crate) fn new(hertz: f32, zeta: f32, h: f32) -> Softness {
        if hertz <= 0.0 {
            return Softness::RIGID;
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        if !a2.is_finite() {
            // So stiff or so damped (a finite hertz or damping ratio near
            // the top of the f32 range) that `a2` overflows: the limit of
            // the formulas below, the full effective mass with nothing
            // taken back, and the bias rate `omega / a1` written so that
            // it never divides infinity by infinity.
            return Softness {
                bias_rate: 1.0 / (2.0 * (zeta / omega) + h),
                mass_scale: 1.0,
                impulse_scale: 0.0,
                inv_mass_scale: 1.0,
            };
        }
        let a3 = 1.0 / (1.0 + a2);
        let mass_scale = a2 * a3;
        Softness {
            bias_rate: omega / a1,
            mass_scale,
            impulse_scale: a3,
            inv_mass_scale: 1.0 / mass_scale,
        }
    }
}

impl StepContext {
    /// The context of a 240 Hz substep (60 Hz in 4), default settings,
    /// one thread: for the kernels' tests.
    #[cfg(test)]
    pub(crate) fn for_tests() -> StepContext {
        let h = 1.0 / 240.0;
        StepContext {
            h,
            substeps: 4,
            linear_slop: crate::settings::LINEAR_SLOP,
            max_push_out_speed: crate::settings::MAX_PUSH_OUT_SPEED,
            max_joint_push_speed: crate::settings::MAX_JOINT_PUSH_SPEED,
            max_speed: 100.0,
            max_spin: 100.0,
            settings: crate::settings::SolverSettings::default(),
            soft: Softness::new(30.0, 10.0, h),
            static_soft: Softness::new(60.0, 10.0, h),
            joint_soft: Softness::new(60.0, 2.0, h),
            parallel: false,
        }
    }

    /// Whether the step is the soft step (else velocity iterations with
    /// split impulses or Baumgarte).
    #[inline]
    pub(crate) fn soft_step(&self) -> bool {
        self.settings.position_correction == PositionCorrection::SoftStep
    }

    #[inline]
    pub(crate) fn inv_h(&self) -> f32 {
        1.0 / self.h
    }

    /// Normal velocity the velocity solve must reach at separation `s`: a
    /// point not touching yet may close its gap this substep, no more; a
    /// touching one must not approach, and Baumgarte adds a push-out.
    #[inline]
    pub(crate) fn velocity_target(&self, s: f32) -> f32 {
        if s > 0.0 {
            -s * self.inv_h()
        } else if self.settings.position_correction == PositionCorrection::Baumgarte {
            self.push_out(s)
        } else {
            0.0
        }
    }

    /// The separating velocity that removes a fraction of the overlap
    /// beyond the slop in one substep, capped.
    #[inline]
    pub(crate) fn push_out(&self, s: f32) -> f32 {
        (self.settings.baumgarte * self.inv_h() * -(s + self.linear_slop)).clamp(0.0, self.max_push_out_speed)
    }
}

/// The hot state of one body during the solve: what the inner loops read
/// and write, apart from the per-step constants in [`SolverBody`]. 32
/// bytes aligned to 32, two to a 64-byte cache line, so that gathering a
/// body touches one line (as Box2D v3's `b2BodyState`; at 40 bytes, with
/// the pseudo-velocities inside, three bodies in eight straddled two,
/// and the solve of a large scene waits on those lines). The split
/// impulses' pseudo-velocities, which no other position correction uses,
/// are kept as the velocities of a second array of these (see
/// `Graph::pseudo`): the split-impulse pass is a velocity pass on them.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
pub(crate) struct BodyState {
    /// Velocity.
    pub(crate) v: Vec2,
    /// Angular velocity.
    pub(crate) w: f32,
    /// Translation of the center of mass since the step began.
    pub(crate) dp: Vec2,
    /// Rotation since the step began.
    pub(crate) dq: Rot,
}

/// A body's [`BodyState`] in a cell that the solve's workers share (see
/// [`crate::threads`]).
pub(crate) type StateCell = SharedCell<BodyState>;

impl StateCell {
    /// Velocity and angular velocity.
    #[inline(always)]
    pub(crate) fn velocity(&self) -> (Vec2, f32) {
        self.read(|s| (s.v, s.w))
    }

    /// Sets the velocity and angular velocity.
    #[inline(always)]
    pub(crate) fn set_velocity(&self, v: Vec2, w: f32) {
        self.write(|s| {
            s.v = v;
            s.w = w;
        });
    }

    /// Translation and rotation since the step began.
    #[inline(always)]
    pub(crate) fn motion(&self) -> (Vec2, Rot) {
        self.read(|s| (s.dp, s.dq))
    }

    /// Sets the translation and rotation since the step began.
    #[inline(always)]
    pub(crate) fn set_motion(&self, dp: Vec2, dq: Rot) {
        self.write(|s| {
            s.dp = dp;
            s.dq = dq;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_state_is_half_a_cache_line_and_never_straddles_one() {
        assert_eq!(std::mem::size_of::<BodyState>(), 32);
        assert_eq!(std::mem::align_of::<BodyState>(), 32);
        // (The cells the solve shares hold it as it is.)
        assert_eq!(std::mem::size_of::<StateCell>(), 32);
        assert_eq!(std::mem::align_of::<StateCell>(), 32);
    }
}
