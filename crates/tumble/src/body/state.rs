//! A body as the solve sees it during a step: its constants for the step
//! ([`SolverBody`]), and the hot state the iterations read and write
//! ([`BodyState`]), which the solve's workers share in [`StateCell`]s.
//! Contacts and joints alike work on these.

use crate::math::{Rot, Vec2};
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
    /// The body's [carry](crate::body::Body::carry): its motion over the
    /// step starts from it.
    pub carry: Vec2,
    /// The fastest this body may spin: the speed limit over its reach
    /// (the farthest point of its shapes, the farthest anchor of its
    /// solved joints), so that no point that moves with it, and no point
    /// a joint holds to it, moves faster than the speed limit. Infinite
    /// when nothing reaches from its center; the step's spin limit holds
    /// besides.
    pub max_spin: f32,
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
            carry: Vec2::ZERO,
            max_spin: f32::INFINITY,
        }
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
