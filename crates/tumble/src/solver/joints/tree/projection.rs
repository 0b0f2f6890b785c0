//! The projection of the exactly solved trees' hinges after a step's
//! substeps: each tree of the exact solve that closes no loop is put back
//! together by moving its bodies along, without turning them, the least
//! (in mass-weighted measure) that brings every joint's two anchors
//! together.
//!
//! The substeps hold joints by velocity rows, each a straight line through
//! the state the substep starts from. A link turning fast moves its anchor
//! along an arc, off that line: a chain whipping at 100 m/s opens its
//! hinges by centimetres within a step, though the exact solve holds every
//! row. The projection solves `J M^-1 J^T dl = -C` for the anchors' gaps
//! `C` by the forest's linear-time elimination (the velocity solve's, with
//! no compliance) and moves the bodies by `M^-1 J^T dl`. Velocities are
//! left as the substeps made them, so the projection adds no energy (as
//! Box2D 2.x's position iterations and PhysX's joint projection).
//!
//! The bodies are moved, never turned: a turn would change the joints'
//! angles, and a hinge loaded through its soft rows (a landed lander's
//! legs under its hull, an arm held by joint friction) opens a little in
//! every step's substeps, so closing it by turns at every step's end would
//! creep its angle past its friction and its limits. Moves alone leave
//! every angle as the substeps made it, and the gaps, linear in them, are
//! closed in one solve.
//!
//! A tree with a row in Gauss-Seidel that holds an angle (a limit, a
//! spring, a motor turning its hinge) is left as it is: such a row pushes
//! the bodies through its soft give every substep (a lander's legs,
//! pressed by their motors into their limits and loaded by the hull), and
//! moving them back at each step's end fights it (joint friction, a motor
//! at speed zero, holds no angle and is projected with its tree). Trees
//! whose components close a loop are left as they are too: a spanning
//! tree's projection would pull the loop's other joints open.

use super::{quarter_turned, JointTrees, BODY, IMMOVABLE};
use crate::body::{SolverBody, StateCell};
use crate::joint::{JointConstraint, Motion};
use crate::math::Vec2;
use crate::solver::types::Lock;

/// Anchors closer than this (metres) count as together: a forest is
/// projected only when a joint is farther apart.
const LINEAR_TOLERANCE: f32 = 1.0e-4;

impl JointTrees {
    /// Projects the forest's joints together: moves its bodies' states
    /// (their motion over the step) so that every joint's anchors meet. A
    /// locked axis is never moved.
    ///
    /// A forest with a joint farther apart than `reach` is left as it is:
    /// a body teleported or dragged far from its joint comes back at the
    /// bounded speed of the drift correction, as it would without the
    /// projection, rather than jumping back in one step.
    pub(crate) fn project(
        &mut self,
        joints: &[JointConstraint],
        bodies: &[SolverBody],
        states: &[StateCell],
        (locks, reach): (&[Lock], f32),
    ) {
        let widest = self.assemble_gaps(joints, bodies, states, locks);
        if widest <= LINEAR_TOLERANCE || widest > reach {
            return;
        }
        self.space.factor(&self.gap_minv, None);
        for t in 0..self.spans.len() {
            self.space.finish(t, None, &self.gap_minv, &mut self.x);
        }
        for (k, &(kind, id, _)) in self.order.iter().enumerate() {
            if kind == BODY {
                let free = free_axes(locks, id);
                let x = self.x[k];
                let s = &states[id as usize];
                let (dp, dq) = s.motion();
                s.set_motion(dp + free * Vec2::new(x[0] as f32, x[1] as f32), dq);
            }
        }
    }

    /// Sets the system `J M^-1 J^T dl = -C` of the joints' gaps now in
    /// joint space, each body's turn held (an [`IMMOVABLE`] inertia, each
    /// joint's third row left out), and returns the widest gap.
    fn assemble_gaps(
        &mut self,
        joints: &[JointConstraint],
        bodies: &[SolverBody],
        states: &[StateCell],
        locks: &[Lock],
    ) -> f32 {
        let immovable = 1.0 / f64::from(IMMOVABLE);
        self.gap_minv.resize(self.order.len(), [0.0; 3]);
        for (k, &(kind, id, _)) in self.order.iter().enumerate() {
            if kind == BODY {
                let sb = &bodies[id as usize];
                let free = free_axes(locks, id);
                let inv = |axis: f32| {
                    if sb.inv_mass > 0.0 && axis != 0.0 {
                        f64::from(sb.inv_mass)
                    } else {
                        immovable
                    }
                };
                self.gap_minv[k] = [inv(free.x), inv(free.y), immovable];
            }
        }
        let mut widest = 0.0f32;
        let space = &mut self.space;
        for q in 0..space.len() {
            let k = space.place(q);
            let id = self.order[k].1;
            let j = &joints[id as usize];
            let motion = Motion::load(j, states);
            let (ra, rb) = motion.anchors(j);
            // (A tree left as it is: no gap, so no move.)
            let c = if self.unprojected[id as usize] {
                Vec2::ZERO
            } else {
                motion.separation(j, ra, rb)
            };
            widest = widest.max(c.length());
            space.c[q] = [c.x, c.y, 0.0].map(f64::from);
            space.d[q] = [[0.0; 3], [0.0; 3], [0.0, 0.0, 1.0]];
            space.arms[q] = [quarter_turned(ra), quarter_turned(rb)];
            space.rows[q] = 2;
        }
        widest
    }
}

/// Body `body`'s free axes: 1 on each axis it may move along, 0 on each
/// its motion locks hold.
fn free_axes(locks: &[Lock], body: u32) -> Vec2 {
    match locks.binary_search_by_key(&body, |l| l.body) {
        Ok(i) => locks[i].linear,
        Err(_) => Vec2::ONE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::BodyState;
    use crate::joint::{JointKind, RevoluteJoint};
    use crate::math::Rot;

    /// Links of 1 m along +x, hinged end to end from the static body (last)
    /// at the origin: the joints and the solver bodies (unit masses, a
    /// rod's inertia).
    fn chain(n: u32) -> (Vec<JointConstraint>, Vec<SolverBody>) {
        let mut bodies: Vec<SolverBody> = (0..n)
            .map(|k| SolverBody {
                inv_mass: 1.0,
                inv_inertia: 12.0,
                dynamic: true,
                center: Vec2::new(k as f32 + 0.5, 0.0),
                ..SolverBody::default()
            })
            .collect();
        bodies.push(SolverBody::default());
        let joints = (0..n)
            .map(|k| {
                let a = if k == 0 { n } else { k - 1 };
                let (ma, ia) = if k == 0 { (0.0, 0.0) } else { (1.0, 12.0) };
                JointConstraint {
                    a,
                    b: k,
                    masses: [ma, ia, 1.0, 12.0],
                    anchor_a: if k == 0 { Vec2::ZERO } else { Vec2::new(0.5, 0.0) },
                    anchor_b: Vec2::new(-0.5, 0.0),
                    delta_center: Vec2::new(if k == 0 { 0.5 } else { 1.0 }, 0.0),
                    kind: JointKind::Revolute(RevoluteJoint::default()),
                    ..JointConstraint::EMPTY
                }
            })
            .collect();
        (joints, bodies)
    }

    fn worst_gap(joints: &[JointConstraint], states: &[StateCell]) -> f32 {
        joints
            .iter()
            .map(|j| {
                let m = Motion::load(j, states);
                let (ra, rb) = m.anchors(j);
                m.separation(j, ra, rb).length()
            })
            .fold(0.0, f32::max)
    }

    /// A 40-link chain's states, each link moved and turned a little off
    /// its place, the static body's at rest.
    fn pulled_apart(n: u32) -> Vec<StateCell> {
        let states: Vec<StateCell> = (0..=n)
            .map(|k| {
                let k = k as f32;
                StateCell::new(BodyState {
                    dp: Vec2::new(0.003 * k.cos(), -0.002 * k.sin()),
                    dq: Rot::from_angle(0.02 * k.sin()),
                    ..BodyState::default()
                })
            })
            .collect();
        states[n as usize].set_motion(Vec2::ZERO, Rot::IDENTITY);
        states
    }

    #[test]
    fn a_chain_pulled_apart_is_put_back_together_unturned() {
        // 40 alike links hung from the ground: the tree's load calls for
        // the exact solve, so it is in the forest.
        let n = 40;
        let (joints, bodies) = chain(n);
        let states = pulled_apart(n);
        let before = worst_gap(&joints, &states);
        assert!(before > 0.005, "{before}");
        let turns: Vec<Rot> = states.iter().map(|s| s.motion().1).collect();
        let mut trees = JointTrees::default();
        trees.build(&joints, &bodies, 1.0 / 240.0);
        trees.project(&joints, &bodies, &states, (&[], 1.0));
        let after = worst_gap(&joints, &states);
        assert!(after < 1e-5, "{before} -> {after}");
        for (s, q) in states.iter().zip(&turns) {
            assert_eq!(s.motion().1, *q, "a body turned");
        }
    }

    #[test]
    fn gaps_past_the_reach_and_locked_axes_are_left_alone() {
        let n = 40;
        let (joints, bodies) = chain(n);
        let states = pulled_apart(n);
        let before: Vec<Vec2> = states.iter().map(|s| s.motion().0).collect();
        let mut trees = JointTrees::default();
        trees.build(&joints, &bodies, 1.0 / 240.0);
        // A gap wider than a step's drift correction closes: untouched.
        trees.project(&joints, &bodies, &states, (&[], 0.001));
        let after: Vec<Vec2> = states.iter().map(|s| s.motion().0).collect();
        assert_eq!(before, after);
        // Link 3 may not move along y: it does not (the chain hangs from
        // the ground, so its gaps above link 3 cannot all close then), and
        // along x it does.
        let locks = [Lock {
            body: 3,
            linear: Vec2::new(1.0, 0.0),
            angular: 1.0,
        }];
        trees.project(&joints, &bodies, &states, (&locks, 1.0));
        assert_eq!(states[3].motion().0.y, before[3].y);
        assert_ne!(states[3].motion().0.x, before[3].x);
    }
}
