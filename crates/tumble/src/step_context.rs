//! The step's context: the constants every constraint's solve reads
//! ([`StepContext`]: the substep length, the speed limits, the solver
//! settings, the softness of contacts and joints), and the coefficients
//! of a soft constraint ([`Softness`]), which the context carries for the
//! contacts and the joints' rigid parts and a joint's spring computes for
//! itself.

use crate::settings::{PositionCorrection, SolverSettings};

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
    /// Time the solve's parts ([`crate::WorldSettings::profiling`]).
    pub profiling: bool,
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
            profiling: false,
        }
    }

    /// The softness of a contact between bodies of inverse masses and
    /// inertias `[ma, ia, mb, ib]`: the stiffer static one where a body
    /// cannot move (its inverses zero), else the dynamic one.
    #[inline]
    pub(crate) fn contact_softness(&self, [ma, ia, mb, ib]: [f32; 4]) -> Softness {
        if ma + ia == 0.0 || mb + ib == 0.0 {
            self.static_soft
        } else {
            self.soft
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
