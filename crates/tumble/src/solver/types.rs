//! The solver's data about contacts and the coloring: what the solve
//! takes of each awake body ([`Gathered`], [`Lock`]), one constraint per
//! touching manifold ([`ContactConstraint`]), and what the coloring reads
//! of a constraint or joint ([`ColorKey`], [`LaneKind`]). The scalar and
//! lane-wide kernels both work on these, and import nothing of each
//! other. The bodies' state in the solve is the body module's
//! ([`crate::body::SolverBody`], [`crate::body::BodyState`]), the step's
//! constants the step context's ([`StepContext`](crate::step_context::StepContext)).

use crate::body::MotionLocks;
use crate::math::Vec2;

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

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ConstraintPoint {
    /// Anchor relative to body A's center of mass at the start of the step.
    pub(crate) ra: Vec2,
    /// Anchor relative to body B's center of mass.
    pub(crate) rb: Vec2,
    /// Separation at the start of the step: the current one adds the
    /// bodies' motion since then along the normal (see
    /// `scalar::current_separation`).
    pub(crate) start_separation: f32,
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
    /// [`Contact::round`](crate::contact::Contact::round): each side's
    /// radius if it is a circle.
    pub(crate) round: [f32; 2],
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
    /// [`NOT_HELD`]: only a body the solve
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

/// A key's body that holds no color: one the solve never writes (static,
/// kinematic, frozen).
pub(crate) const NOT_HELD: u32 = u32::MAX;

/// A body's entry in a coloring key: its slot if the solve writes it
/// (see [`ColorKey::a`]), else [`NOT_HELD`] (only a body the solve
/// writes takes a color).
#[inline(always)]
pub(crate) fn held(slot: u32, writes: bool) -> u32 {
    if writes {
        slot
    } else {
        NOT_HELD
    }
}
