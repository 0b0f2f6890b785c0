//! The contact solver: warm-started sequential impulses with Coulomb
//! friction and restitution, run over a few substeps per step, with
//! position correction by the soft step (the default: a soft push-out,
//! then a relax pass without it) or by split impulses.
//!
//! Each contact point is a pair of constraints: the normal impulse keeps the
//! surfaces from approaching (`vn >= target`, accumulated impulse `>= 0`),
//! the friction impulse opposes sliding (accumulated impulse within
//! `+/- mu * normal impulse`). Points are solved one at a time, many times
//! over (Gauss-Seidel); starting from last step's impulses (warm starting)
//! is what makes that converge for a stack. A two-point manifold's normal
//! impulses are solved together as one 2x2 problem, so a box on two corners
//! gets a symmetric answer.
//!
//! The step is split into substeps that share one narrowphase: each
//! substep integrates gravity, warm starts, iterates, corrects positions
//! and moves the bodies, tracking each contact's separation from the bodies'
//! motion since the step began. The contacts and joints ([`joints`]) are
//! graph-colored ([`graph`]) and each color's lane batches and joints
//! are split between the world's worker threads; the body states they
//! share are [`StateCell`]s (see [`crate::threads`]). Smaller
//! substeps carry load through a tall stack far better than the same
//! number of iterations in one big step.
//!
//! The solve runs in two calls: [`Solver::set_up`], which reads the
//! world (the awake bodies gathered into dense rows, the joints picked,
//! the contacts prepared, the constraints colored into lane batches),
//! then [`Solver::solve_step`] (the substeps, the impulses stored,
//! restitution), between which the world may lend a worker to the
//! broadphase. The world then reads each moved body's motion back with
//! [`Solver::motion`].

#[forbid(unsafe_code)]
mod contact_trees;
#[forbid(unsafe_code)]
mod elimination;
#[forbid(unsafe_code)]
mod graph;
#[forbid(unsafe_code)]
mod joints;
#[forbid(unsafe_code)]
mod kept_colors;
#[forbid(unsafe_code)]
mod lanes;
#[forbid(unsafe_code)]
mod prepare;
#[forbid(unsafe_code)]
mod scalar;
#[forbid(unsafe_code)]
mod types;
#[forbid(unsafe_code)]
mod wide;

pub(crate) use crate::body::SolverBody;
pub(crate) use crate::step_context::{Softness, StepContext};
pub(crate) use crate::threads::{prefetch, PREFETCH_AHEAD};
pub(crate) use types::Gathered;

use crate::body::{Body, BodyType, NULL};
use crate::body::{BodyState, StateCell};
use crate::clock::Stopwatch;
use crate::contact::{Contact, ContactOptions, NO_COLOR};
use crate::joint::{self, Joint, JointConstraint, JointKind};
use crate::math::{Rot, Vec2};
use crate::settings::{Coloring, PositionCorrection, Sweep};
use crate::store::Store;
use crate::threads::{block_size, for_each_range, with_team, Team};
use graph::{Graph, Pass};
use lanes::{LaneMask, Lanes, Width, F4};
use scalar::{bounce_constraint, store_impulses};
use std::sync::atomic::{AtomicBool, Ordering};
use types::{held, ColorKey, ContactConstraint, LaneKind, Lock};

/// The solver's buffers, kept from step to step so that a steady scene
/// allocates nothing.
#[derive(Clone, Debug, Default)]
pub(crate) struct Solver {
    /// Per awake body: its constants for the step, then one static body at
    /// rest that every static, frozen or otherwise unsimulated body shares.
    bodies: Vec<SolverBody>,
    /// The body slot of each solver body (not of the shared static one).
    slots: Vec<u32>,
    /// Per body slot: its solver body, or [`NULL`]. Set for the bodies of
    /// this step only, and cleared again by [`Solver::begin`].
    index_of: Vec<u32>,
    /// One constraint per touching manifold.
    constraints: Vec<ContactConstraint>,
    /// What the coloring reads of each constraint.
    keys: Vec<ColorKey>,
    /// The contact of each constraint, and those with restitution, picked
    /// for this step.
    picked: prepare::Picked,
    /// Per constraint with restitution (as [`prepare::Picked::bouncy`]):
    /// each point's normal impulse summed over the step's substeps (per
    /// substep, as the solve keeps them), what the whole step pushed
    /// there, which [`Solver::apply_restitution`] turns into the lowest
    /// impulse each point may be taken down to.
    pushed: Vec<[f32; 2]>,
    /// The bodies with motion locks, this step (usually none).
    locks: Vec<Lock>,
    /// Per awake body, while gathering: what the solve takes of it.
    gathered: Vec<Gathered>,
    /// The awake bodies whose state this step's forces would take past
    /// the float range (slots, ascending): the world freezes them.
    non_finite: Vec<u32>,
    /// One constraint per awake joint, in joint slot order (then sorted
    /// by color).
    joints: Vec<JointConstraint>,
    /// The joints to solve this step, picked in slot order: their two
    /// solver bodies.
    picked_joints: Vec<(u32, u32)>,
    /// What the coloring reads of each picked joint, in the same order.
    joint_keys: Vec<ColorKey>,
    /// Each picked joint's slot, in the same order (ascending).
    joint_slots: Vec<u32>,
    /// Each picked joint's place in [`Solver::joints`] (while storing).
    joint_places: Vec<u32>,
    /// The coloring, its lane batches and the body states.
    graph: Graph,
    /// The joint trees solved exactly, this step.
    trees: joints::tree::JointTrees,
    /// The contact stacks solved exactly, this step, and those to mark
    /// for the next.
    contact_trees: contact_trees::ContactTrees,
    /// Whether two of this step's bodies' masses differ by
    /// `EXACT_CONTACT_MASS_RATIO` or more (see `prepare::Sources::heavy`).
    heavy_possible: bool,
    /// Whether this step's constraints were built straight into the
    /// batches of last step's coloring ([`prepare::prepare_as_colored`]).
    as_colored: bool,
}

/// What a step's solve reads of the world to set itself up (see
/// [`Solver::set_up`]).
pub(crate) struct SolveInput<'a, B, J, G> {
    /// The world's bodies (read: the solve's results come out through
    /// [`Solver::moved`] and [`Solver::motion`]).
    pub bodies: &'a Store<Body>,
    /// The world's contacts.
    pub contacts: &'a Store<Contact>,
    /// The world's joints.
    pub joints: &'a Store<Joint>,
    /// The awake bodies (slots, ascending).
    pub awake_bodies: B,
    /// The awake joints (slots, ascending).
    pub awake_joints: J,
    /// The awake contacts whose manifolds have points (slots, ascending).
    pub with_points: &'a [u32],
    /// Builds a body's state for the solve and says what the solve takes
    /// of it (see [`Solver::gather_bodies`]).
    pub gather: &'a G,
    /// Whether the workers share gathering the bodies.
    pub share_bodies: bool,
}

/// How long each stage of a solve took, in milliseconds (see
/// [`crate::StepProfile`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SolveTimes {
    /// Gathering the bodies, picking the joints, preparing the contacts.
    pub setup: f32,
    /// Coloring, lane batches, the joints' constraints.
    pub color: f32,
    /// The substeps.
    pub substeps: f32,
    /// Storing the impulses, restitution.
    pub store: f32,
}

impl Solver {
    /// The first half of a step's solve, which reads the world and
    /// writes nothing of it: the awake bodies gathered into dense rows (a
    /// sleeping or static body has none; static bodies share one state at
    /// rest), the joints picked, the touching contacts prepared (straight
    /// into last step's coloring when the step is as that was colored),
    /// the constraints colored and packed into lane batches. Its loops are
    /// shared evenly between the workers: the world runs it before it
    /// lends a worker to the broadphase. [`Solver::solve_step`] is the
    /// rest. Adds its parts' times to `times`.
    pub fn set_up<B, J, G>(
        &mut self,
        input: SolveInput<'_, B, J, G>,
        ctx: &StepContext,
        times: &mut SolveTimes,
    ) where
        B: Iterator<Item = u32>,
        J: Iterator<Item = u32>,
        G: Fn(u32, &mut SolverBody) -> Gathered + Sync,
    {
        let SolveInput {
            bodies,
            contacts,
            joints,
            awake_bodies,
            awake_joints,
            with_points,
            gather,
            share_bodies,
        } = input;
        let mut clock = Stopwatch::start(ctx.profiling);
        clock.time(&mut times.setup, || {
            self.begin(bodies.slot_count());
            self.gather_bodies(awake_bodies, gather, share_bodies);
            self.end_bodies();
            self.pick_joints((joints, bodies), awake_joints, ctx.max_speed);
            self.prepare_contacts(contacts, with_points, bodies, ctx);
        });
        clock.time(&mut times.color, || self.color((contacts, joints, bodies), ctx));
    }

    /// The rest of the step's solve, after [`Solver::set_up`]: the
    /// substeps, the impulses stored into `contacts` and `joints` for
    /// the next step's warm start, and restitution. Afterwards
    /// [`Solver::moved`] lists the bodies it solved, [`Solver::motion`]
    /// gives each one's motion, [`Solver::non_finite`] the bodies left
    /// out because their forces overflowed (the world freezes them) and
    /// [`Solver::pushed_hits`] the contacts that asked for hit events.
    /// Adds its parts' times to `times`.
    pub fn solve_step(
        &mut self,
        (contacts, joints): (&mut Store<Contact>, &mut Store<Joint>),
        ctx: &StepContext,
        times: &mut SolveTimes,
    ) {
        let mut clock = Stopwatch::start(ctx.profiling);
        clock.time(&mut times.substeps, || self.solve(ctx));
        clock.time(&mut times.store, || {
            self.store_impulses(contacts, ctx);
            self.store_joints(joints, ctx);
            self.apply_restitution(contacts, ctx);
        });
    }

    /// Starts a step's gathering for a world of `body_slots` body slots.
    fn begin(&mut self, body_slots: usize) {
        for &slot in &self.slots {
            self.index_of[slot as usize] = NULL;
        }
        self.slots.clear();
        // (The bodies' rows are all written by the gathering.)
        self.locks.clear();
        if self.index_of.len() < body_slots {
            self.index_of.resize(body_slots, NULL);
        }
    }

    /// Gathers the awake bodies `slots` (ascending, after
    /// [`Solver::begin`]): `gather` builds each one's state for the solve
    /// and says what the solve takes of it (see [`Gathered`]), split
    /// between the workers when `parallel`, in the runs the world moves
    /// them in afterwards (so each worker reads the bodies it wrote). Those
    /// to skip or freeze are then dropped, in order; the latter are listed
    /// in [`Solver::non_finite`].
    fn gather_bodies(
        &mut self,
        slots: impl Iterator<Item = u32>,
        gather: &(impl Fn(u32, &mut SolverBody) -> Gathered + Sync),
        parallel: bool,
    ) {
        debug_assert!(self.slots.is_empty());
        self.non_finite.clear();
        self.slots.extend(slots);
        let n = self.slots.len();
        // Every row is written below: last step's stay until then (`begin`
        // keeps them, and `resize` writes only rows past the old length:
        // no pass of defaults over a few megabytes).
        self.bodies.resize(n, SolverBody::default());
        self.gathered.resize(n, Gathered::Solve);
        let irregular = AtomicBool::new(false);
        crate::threads::for_each_triple_mut(
            parallel,
            (&mut self.bodies, &mut self.gathered, &mut self.slots),
            BODY_RUN,
            |_, body, what, slot| {
                *what = gather(*slot, body);
                if !matches!(what, Gathered::Solve) {
                    irregular.store(true, Ordering::Relaxed);
                }
            },
        );
        if irregular.into_inner() {
            // (Rare: a frozen body, a motion lock.) Drop what the solve
            // does not take, keeping the order.
            let mut kept = 0;
            for k in 0..n {
                match self.gathered[k] {
                    Gathered::Solve => {}
                    Gathered::Locked(locks) => {
                        let (linear, angular) = locks.masks();
                        self.locks.push(Lock {
                            body: kept as u32,
                            linear,
                            angular,
                        });
                    }
                    Gathered::Skip => continue,
                    Gathered::NonFinite => {
                        self.non_finite.push(self.slots[k]);
                        continue;
                    }
                }
                self.bodies[kept] = self.bodies[k];
                self.slots[kept] = self.slots[k];
                kept += 1;
            }
            self.bodies.truncate(kept);
            self.slots.truncate(kept);
        }
        // (Which also finds whether two bodies' masses are far enough apart
        // for a contact between them to be heavy: see `contact_trees`. In
        // inverse masses: the lightest body's is the largest.)
        let (mut lightest, mut heaviest) = (0.0f32, f32::INFINITY);
        for (k, &slot) in self.slots.iter().enumerate() {
            self.index_of[slot as usize] = k as u32;
            let inv = self.bodies[k].inv_mass;
            if inv > 0.0 {
                (lightest, heaviest) = (lightest.max(inv), heaviest.min(inv));
            }
        }
        self.heavy_possible = lightest >= contact_trees::EXACT_CONTACT_MASS_RATIO * heaviest;
    }

    /// The lane width of this step's kernels, once its bodies are
    /// gathered: [`Width::for_step`] of their count, from the width the
    /// graph's batches were last built at.
    fn width(&self, ctx: &StepContext) -> Width {
        Width::for_step(ctx.settings.lane_width, self.bodies.len() - 1, self.graph.width())
    }

    /// The bodies [`Solver::gather_bodies`] left out because this step's
    /// forces would take them past the float range (slots, ascending).
    pub fn non_finite(&self) -> &[u32] {
        &self.non_finite
    }

    /// The bodies (slots) the last step solved and moved, in solver order:
    /// [`Solver::motion`]'s `k` is a place in this list.
    #[inline]
    pub fn moved(&self) -> &[u32] {
        &self.slots
    }

    /// Ends the gathering of the step's bodies: adds the shared static
    /// body, last. Call after [`Solver::gather_bodies`].
    fn end_bodies(&mut self) {
        self.bodies.push(SolverBody::default());
    }

    /// Builds the constraints of the touching contacts among `candidates`
    /// (contact slots, ascending): straight into the batches of last
    /// step's coloring when the step is as that was colored (see
    /// [`prepare::prepare_as_colored`]; a scene at rest, nearly every
    /// step), else their coloring keys for [`Solver::color`] to color,
    /// with their constraints (in the soft step with the bounded
    /// coloring, only the tracked ones': the batches are then built
    /// straight from the contacts, see [`prepare::build_as_colored`]).
    /// Call after [`Solver::pick_joints`].
    fn prepare_contacts(
        &mut self,
        contacts: &Store<Contact>,
        candidates: &[u32],
        bodies: &Store<Body>,
        ctx: &StepContext,
    ) {
        let sources = sources(
            (&self.bodies, &self.index_of, self.heavy_possible),
            contacts,
            bodies,
            ctx,
        );
        self.as_colored = self
            .graph
            .may_keep((ctx.settings.coloring, self.width(ctx)), &self.joint_keys)
            && prepare::prepare_as_colored(
                (&mut self.constraints, &self.picked),
                &mut self.graph,
                candidates,
                &sources,
            );
        if !self.as_colored {
            prepare::prepare_contacts(
                (&mut self.constraints, &mut self.keys),
                &mut self.picked,
                candidates,
                &sources,
                lanes_later(ctx),
            );
        }
    }

    /// Picks the solved joints among `awake` (joint slots, in order): every
    /// joint but a filter, unless neither body can move, each with its two
    /// solver bodies and its coloring key. Call after
    /// [`Solver::end_bodies`]; [`Solver::color`] builds their
    /// constraints. Each joint's anchors bound its bodies' spin so that
    /// no anchor moves faster than `max_speed` (see
    /// [`SolverBody::max_spin`](SolverBody)).
    fn pick_joints(
        &mut self,
        (joints, body_store): (&Store<Joint>, &Store<Body>),
        awake: impl Iterator<Item = u32>,
        max_speed: f32,
    ) {
        self.picked_joints.clear();
        self.joint_keys.clear();
        self.joint_slots.clear();
        let fixed = self.bodies.len() as u32 - 1;
        for ji in awake {
            let joint = &joints[ji];
            if !joint.is_solved() {
                continue;
            }
            let index = |slot: u32| match self.index_of[slot as usize] {
                NULL => fixed,
                i => i,
            };
            let (a, b) = (index(joint.body_a), index(joint.body_b));
            let (ba, bb) = (&self.bodies[a as usize], &self.bodies[b as usize]);
            if ba.inv_mass + bb.inv_mass + ba.inv_inertia + bb.inv_inertia == 0.0 {
                continue;
            }
            let (dynamic_a, dynamic_b) = (ba.dynamic, bb.dynamic);
            // Each end's anchor turns with its body: its spin is held so
            // that the anchor moves no faster than the speed limit (see
            // `SolverBody::max_spin`).
            for (k, slot, frame) in [(a, joint.body_a, joint.frame_a), (b, joint.body_b, joint.frame_b)] {
                let body = &mut self.bodies[k as usize];
                if body.dynamic {
                    let reach = (frame.p - body_store[slot].local_center).length();
                    let most = max_speed / reach;
                    if most < body.max_spin {
                        body.max_spin = most;
                        body.w = body.w.clamp(-most, most);
                    }
                }
            }
            self.picked_joints.push((a, b));
            self.joint_slots.push(ji);
            self.joint_keys.push(ColorKey {
                item: ji,
                a: held(joint.body_a, dynamic_a),
                b: held(joint.body_b, dynamic_b),
                color: joint.color,
                // A hinge may take a lane of a hinge batch.
                kind: if matches!(joint.kind, JointKind::Revolute(_)) {
                    LaneKind::Single
                } else {
                    LaneKind::Alone
                },
            });
        }
    }

    /// Sorts the prepared contacts and the picked joints into colors and
    /// packs the contacts into lane batches (see [`Graph::build`]: from
    /// their constraints, or straight from the contacts in the soft step
    /// with the bounded coloring; or keeps last step's coloring whole
    /// when [`Solver::prepare_contacts`] built the contacts straight into
    /// its batches), builds the joints' constraints straight into
    /// color order (independently, split between the workers), and finds
    /// the joint trees that need an exact solve. Call before
    /// [`Solver::solve`].
    fn color(
        &mut self,
        (contacts, joints, bodies): (&Store<Contact>, &Store<Joint>, &Store<Body>),
        ctx: &StepContext,
    ) {
        let width = self.width(ctx);
        let graph = &mut self.graph;
        if self.as_colored {
            // The batches are filled: the rest of the coloring stands.
            graph.keep_coloring();
        } else if ctx.settings.coloring == Coloring::Bounded && !graph.colors_primed() {
            // A world just loaded (or one that ran another coloring):
            // the coloring's state, from what was colored last step.
            // (The bodies the solve writes: dynamic, not frozen, and
            // not about to be, their forces having overflowed.)
            let non_finite = &self.non_finite;
            let writes = |slot: u32| {
                bodies[slot].body_type == BodyType::Dynamic
                    && !bodies[slot].frozen
                    && non_finite.binary_search(&slot).is_err()
            };
            let key = |item: u32, (a, b): (u32, u32), color: u8| ColorKey {
                item,
                a: held(a, writes(a)),
                b: held(b, writes(b)),
                color,
                kind: LaneKind::Alone,
            };
            graph.prime_colors(
                joints
                    .iter()
                    .filter(|(_, j)| j.color != NO_COLOR)
                    .map(|(ji, j)| key(ji, (j.body_a, j.body_b), j.color)),
                contacts
                    .iter()
                    .filter(|(_, c)| c.color != NO_COLOR)
                    .map(|(ci, c)| key(ci, (c.body_a, c.body_b), c.color)),
                self.index_of.len(),
            );
        }
        if !self.as_colored {
            graph.build(
                &mut self.keys,
                &mut self.joint_keys,
                self.index_of.len(),
                (ctx.settings.coloring, width),
            );
            if lanes_later(ctx) {
                let sources = sources(
                    (&self.bodies, &self.index_of, self.heavy_possible),
                    contacts,
                    bodies,
                    ctx,
                );
                let built =
                    prepare::build_as_colored((&mut self.constraints, &self.picked), graph, &sources, false);
                debug_assert!(built, "an unchecked build refuses nothing");
            } else {
                graph.fill(&self.constraints, &self.bodies, ctx.parallel);
            }
        }
        // Every entry is overwritten below: only new ones need a value first.
        self.joints.truncate(self.picked_joints.len());
        self.joints
            .resize(self.picked_joints.len(), JointConstraint::EMPTY);
        let (picked, slots) = (&self.picked_joints, &self.joint_slots);
        let (order, solver_bodies) = (graph.joint_order(), &self.bodies);
        // The joint trees Gauss-Seidel cannot converge get an exact solve
        // after each pass (soft step only: see `joints::tree`), which reads
        // and writes their constraints' impulses: then every hinge stays
        // in its constraint, solved one at a time. Whether any joint may
        // call for it (one that calls for it, or one that may hold up a
        // tree heavy enough to) is found while the joints are built, by
        // the workers.
        let soft = ctx.soft_step();
        let trees = AtomicBool::new(false);
        crate::threads::for_each_indexed_mut(ctx.parallel, &mut self.joints, 64, |place, constraint| {
            let k = order[place] as usize;
            let (ji, (a, b)) = (slots[k], picked[k]);
            *constraint = joint::prepare_joint(&joints[ji], ji, (a, b), solver_bodies, bodies, ctx);
            if soft
                && (joints::tree::calls_for_exact_solve(constraint, solver_bodies)
                    || joints::tree::holds_a_tree_up(constraint, solver_bodies))
            {
                trees.store(true, Ordering::Relaxed);
            }
        });
        if trees.into_inner() {
            self.trees.build(&self.joints, &self.bodies, ctx.h);
        } else {
            self.trees.clear();
        }
        self.trees.mark_held(&mut self.joints);
        // The contact stacks Gauss-Seidel cannot carry (soft step only:
        // see `contact_trees`), found when a contact joins bodies of far
        // different masses.
        if soft && !self.picked.heavy.is_empty() {
            let fixed = self.bodies.len() as u32 - 1;
            let solver_body = |slot: u32| match self.index_of[slot as usize] {
                NULL => fixed,
                i => i,
            };
            let (picked, slots) = (&self.picked, &self.slots);
            // A body's touching contacts solved this step: those of its
            // contact list among the picks (ascending).
            let contacts_of = |body: u32, out: &mut Vec<u32>| {
                let mine = crate::contact::body_contacts(contacts, &bodies[slots[body as usize]]);
                out.extend(
                    mine.filter_map(|(ci, _)| picked.contacts.binary_search(&ci).ok().map(|i| i as u32)),
                );
            };
            let candidate = |i: u32| {
                let c = &contacts[picked.contacts[i as usize]];
                contact_trees::Candidate {
                    bodies: (solver_body(c.body_a), solver_body(c.body_b)),
                    marked: picked.is_marked(i as usize),
                    resting: c
                        .manifold
                        .points()
                        .iter()
                        .all(|p| p.separation <= ctx.linear_slop),
                }
            };
            self.contact_trees.select(
                (&picked.heavy, picked.contacts.len()),
                contacts_of,
                candidate,
                (&self.bodies, &self.locks),
            );
        } else {
            self.contact_trees.clear();
        }
        if self.trees.is_empty() {
            // (The dummy state row, at rest, is the last.)
            graph.pack_hinges(&self.joints, self.bodies.len() as u32, ctx.parallel);
        }
        debug_assert!(graph.footprints_are_disjoint(&self.bodies, &self.joints));
    }

    /// The substeps of one step: for each, gravity and forces, warm start,
    /// then the soft step's biased solve, position integration and relax
    /// (or velocity iterations with split-impulse position correction and
    /// position integration). The body states hold each body's velocity
    /// and its motion over the step afterwards.
    ///
    /// Every pass goes color by color (the colors of
    /// [`Solver::color`]), solving each color's two-point blocks and
    /// single points [`lanes::W`] at a time, split between the workers when
    /// the step is parallel; an alternating sweep reverses the color
    /// order on odd iterations.
    fn solve(&mut self, ctx: &StepContext) {
        let (graph, constraints, bodies, locks) =
            (&mut self.graph, &mut self.constraints, &self.bodies, &self.locks);
        let joints = &mut self.joints;
        let (bouncy, pushed) = (&self.picked.bouncy, &mut self.pushed);
        pushed.clear();
        pushed.resize(bouncy.len(), [0.0; 2]);
        let total = ctx.settings.iterations;
        let substeps = ctx.substeps;
        let mut states = std::mem::take(&mut graph.states);
        states.clear();
        // Each body's motion starts from its carry: the solve sees where
        // it is to within what its center could not hold.
        states.extend(bodies.iter().map(|b| {
            StateCell::new(BodyState {
                v: b.v,
                w: b.w,
                dp: b.carry,
                ..BodyState::default()
            })
        }));
        // One more state at rest, for the unused lanes of the batches.
        states.push(StateCell::default());
        let soft = ctx.soft_step();
        let split = ctx.settings.position_correction == PositionCorrection::SplitImpulse;
        let mut pseudo = std::mem::take(&mut graph.pseudo);
        pseudo.clear();
        if split {
            pseudo.resize_with(states.len(), StateCell::default);
        }
        let mut trees = (!self.trees.is_empty()).then_some(&mut self.trees);
        let mut stacks = (!self.contact_trees.is_empty()).then_some(&mut self.contact_trees);
        // The passes over the limits alone (soft step only), when a hinge
        // has limits.
        let limit_passes = if soft && joints.iter().any(has_limits) {
            LIMIT_PASSES
        } else {
            0
        };
        // The substeps run as one parallel region: the stages below hand
        // their loops to the team's waiting threads. When the colors
        // big enough to share hold too little of the work, the substeps
        // run on this thread alone: had the team integrated the bodies,
        // every substep would move half of their states to the other
        // threads' caches and back for the colors, costing more than the
        // shared integration saves (see `graph::MIN_SHARED_PART`).
        with_team(ctx.parallel, |team| {
            let team = team.filter(|_| graph.shares_the_colors(ctx));
            for substep in 0..substeps {
                let iterations = total / substeps + u32::from(substep < total % substeps);
                if soft {
                    soft_substep(
                        graph,
                        (constraints, joints),
                        (bodies, locks),
                        (&states, team),
                        ctx,
                        (iterations, limit_passes),
                        (trees.as_deref_mut(), stacks.as_deref_mut()),
                    );
                    // What each substep ends with is what it pushed:
                    // summed for restitution (none in most scenes).
                    if !bouncy.is_empty() {
                        graph.add_normal_impulses(constraints, bouncy, pushed);
                    }
                    continue;
                }
                integrate_velocities(bodies, locks, (&states, team), ctx);
                let smallest_separation = graph.update_separations(constraints, &states, team);
                // The split-impulse pass starts every substep from zero
                // pseudo-velocities and impulses, so when no point overlaps
                // beyond the slop its exact answer is zero everywhere: skip
                // it (the usual case for a scene at rest). Otherwise each
                // of its iterations rides along with the velocity iteration
                // of the same number.
                let pushing = split && ctx.push_out(smallest_separation) > 0.0;
                if pushing {
                    graph.reset_pseudo(constraints);
                }
                graph.warm_start((constraints, joints), (&states, team), ctx);
                for it in 0..iterations {
                    graph.iterate(
                        (constraints, &mut joints[..]),
                        (&states, team),
                        ctx,
                        backward(ctx.settings.sweep, it),
                        Pass::Velocity {
                            pseudo: pushing.then_some(&pseudo[..]),
                        },
                    );
                }
                integrate_positions(
                    (bodies, locks),
                    (&states, split.then_some(&pseudo[..]), team),
                    graph.width(),
                    ctx,
                );
                if !bouncy.is_empty() {
                    graph.add_normal_impulses(constraints, bouncy, pushed);
                }
            }
        });
        graph.states = states;
        graph.pseudo = pseudo;
        // (The joints' readouts and next step's warm start read the
        // constraints.)
        graph.store_hinges(joints);
        // The trees solved exactly are put back together where the
        // substeps' velocity rows left them apart: by as much as the drift
        // correction could close in one step.
        if let Some(trees) = trees {
            let reach = ctx.h * ctx.substeps as f32 * ctx.max_joint_push_speed;
            trees.project(joints, bodies, &graph.states, (locks, reach));
        }
    }

    /// Writes the accumulated impulses into the contacts' manifolds, per
    /// step (the solve works per substep), where the next step's warm start
    /// finds them by feature id. Also hands the batches' impulses back to
    /// the constraints of contacts with restitution, for
    /// [`Solver::apply_restitution`].
    fn store_impulses(&mut self, contacts: &mut Store<Contact>, ctx: &StepContext) {
        self.graph.store(
            &mut self.constraints,
            contacts,
            &self.picked.contacts,
            ctx.substeps as f32,
            ctx.parallel,
        );
        // Each contact keeps its color for the next step's coloring:
        // only those the coloring changed need telling, and those it let
        // go forget theirs.
        // (By the picks: a batch's constraint may not have been built
        // outside its lanes.)
        for &i in self.graph.recolored() {
            contacts[self.picked.contacts[i as usize]].color = self.keys[i as usize].color;
        }
        for &ci in self.graph.left_contacts() {
            if contacts.is_alive(ci) {
                contacts[ci].color = NO_COLOR;
            }
        }
        // The contacts the exact solve takes next step are marked, and
        // those it let go unmarked.
        let chosen = self.contact_trees.chosen();
        for &i in &self.picked.exact {
            if chosen.binary_search(&i).is_err() {
                let c = &mut contacts[self.picked.contacts[i as usize]];
                c.options = c.options.switched(ContactOptions::EXACT, false);
            }
        }
        for &i in chosen {
            let c = &mut contacts[self.picked.contacts[i as usize]];
            c.options = c.options.switched(ContactOptions::EXACT, true);
        }
    }

    /// Writes each solved joint's impulses (per substep) back for the next
    /// step's warm start, with what it did over the step: its reaction
    /// force and torque and its motor's impulse.
    fn store_joints(&mut self, joints: &mut Store<Joint>, ctx: &StepContext) {
        // Joint by joint in slot order, split between the workers: each
        // finds its constraint by its place in color order.
        let places = &mut self.joint_places;
        places.resize(self.joint_slots.len(), 0);
        for (place, &k) in self.graph.joint_order().iter().enumerate() {
            places[k as usize] = place as u32;
        }
        let (constraints, places, slots) = (&self.joints, &self.joint_places, &self.joint_slots);
        // (Nothing comes out: a list of `()` allocates nothing.)
        let mut none = vec![(); places.len()];
        let store = |k: usize, joint: &mut Joint, _: &mut ()| {
            let j = &constraints[places[k] as usize];
            debug_assert_eq!(j.joint, slots[k], "a joint's constraint found at another's place");
            let (force, torque, motor) = joint::reaction(j, ctx.h, ctx.substeps);
            joint.impulses = j.impulses;
            joint.reaction_force = force;
            joint.reaction_torque = torque;
            joint.motor_impulse = motor;
        };
        crate::threads::for_each_slot_mut(ctx.parallel, joints.slots_mut(), slots, &mut none, 256, &store);
        // As the contacts do, each joint keeps its color (only those the
        // coloring changed need telling), and those it let go forget
        // theirs.
        for &k in self.graph.recolored_joints() {
            let key = &self.joint_keys[k as usize];
            joints[key.item].color = key.color;
        }
        for &ji in self.graph.left_joints() {
            if joints.is_alive(ji) {
                joints[ji].color = NO_COLOR;
            }
        }
    }

    /// Restitution, once the substeps are done, over the step as a whole:
    /// each point the step pushed leaves with a normal velocity of `-e`
    /// times the one it approached with when the step began, if that was
    /// faster than the threshold (else at rest, or no faster towards the
    /// other body than it was leaving it), as far as the step's total
    /// impulse there can do it without pulling. So a point may give back
    /// what the substeps pushed at it, and with `e = 1` and no friction
    /// the step keeps the kinetic energy (see [`bounce_constraint`] for
    /// why). A two-point manifold whose points both take part is solved as
    /// the coupled pair it is (the 2x2 block), so a box landing flat
    /// bounces without spin and equal elastic boxes meeting face on
    /// exchange their velocities; otherwise point by point. The impulses
    /// of every contact with restitution are stored again, as they may
    /// have changed.
    fn apply_restitution(&mut self, contacts: &mut Store<Contact>, ctx: &StepContext) {
        let bounce = (ctx.settings.restitution_threshold, 2.0 * ctx.max_speed);
        // What each point may take back: down to the accumulated impulse
        // that leaves the step's total at zero.
        for (&i, pushed) in self.picked.bouncy.iter().zip(&mut self.pushed) {
            let c = &self.constraints[i as usize];
            for (floor, cp) in pushed.iter_mut().zip(&c.points) {
                *floor = (cp.normal_impulse - *floor).min(0.0);
            }
        }
        let floors = &self.pushed;
        for _ in 0..RESTITUTION_PASSES {
            for (&i, &floor) in self.picked.bouncy.iter().zip(floors) {
                bounce_constraint(
                    &mut self.constraints[i as usize],
                    &self.graph.states,
                    bounce,
                    floor,
                );
            }
        }
        // A point that gave back more than its last substep pushed warm
        // starts the next step from zero.
        let scale = ctx.substeps as f32;
        for &i in &self.picked.bouncy {
            let c = &mut self.constraints[i as usize];
            for cp in &mut c.points {
                cp.normal_impulse = cp.normal_impulse.max(0.0);
            }
            store_impulses(c, &mut contacts[c.contact], scale);
        }
        // Restitution ran after the last integration: hold the locks
        // against it too.
        hold_locks(&self.locks, &self.graph.states);
    }

    /// The contacts whose hit events were asked for this step
    /// (`Contact::hit_pending`), each with its strongest approach among the
    /// points the solve pushed: `(contact, point index, approach speed)`.
    /// A contact none of whose points pushed is not listed.
    pub fn pushed_hits(&self) -> impl Iterator<Item = (u32, usize, f32)> + '_ {
        // (The tracked constraints' list, not a walk over all of them: a
        // scene of tens of thousands of contacts and no events read a
        // cache line of each for nothing.)
        self.picked.tracked.iter().filter_map(|&i| {
            let c = &self.constraints[i as usize];
            let pushed = (0..c.count).filter(|&k| c.points[k].max_normal_impulse > 0.0);
            pushed
                .map(|k| (k, -c.points[k].relative_velocity))
                .reduce(|best, next| if next.1 > best.1 { next } else { best })
                .map(|(k, approach)| (c.contact, k, approach))
        })
    }

    /// Solver body `k`'s velocity, angular velocity, translation and
    /// rotation over the step, after the solve. The velocities are held
    /// within the step's `limits`, which held them whenever the body moved
    /// (see [`Limits::hold`]): the relax and restitution, which come after
    /// the last move, may leave them past those (a light body struck by
    /// a heavy elastic one leaves at twice the striker's speed), and what
    /// the step never moved a body at is no velocity of the body's.
    #[inline(always)]
    pub fn motion(&self, k: usize, limits: &Limits) -> (Vec2, f32, Vec2, Rot) {
        let s = self.graph.states[k].load();
        let (v, w) = limits.hold(&self.bodies[k], (s.v, s.w));
        (v, w, s.dp, s.dq)
    }

    /// The translation of the center of mass and the rotation over the
    /// last step of the body in `slot`, if it was solved in it (valid from
    /// the solve until the next step begins).
    pub fn motion_of_slot(&self, slot: u32) -> Option<(Vec2, Rot)> {
        match self.index_of.get(slot as usize) {
            Some(&k) if k != NULL => Some(self.graph.states[k as usize].motion()),
            _ => None,
        }
    }

    /// Sets the motion [`Solver::motion_of_slot`] reports for the body in
    /// `slot`, if it was solved: the translation of its center of mass
    /// `dp` and its rotation `dq` over the step.
    pub fn set_motion_of_slot(&mut self, slot: u32, dp: Vec2, dq: Rot) {
        if let Some(&k) = self.index_of.get(slot as usize) {
            if k != NULL {
                self.graph.states[k as usize].set_motion(dp, dq);
            }
        }
    }

    /// Heap bytes of the per-body rows (capacities).
    pub fn body_memory_bytes(&self) -> usize {
        use std::mem::size_of;
        self.bodies.capacity() * size_of::<SolverBody>()
            + self.gathered.capacity() * size_of::<Gathered>()
            + (self.slots.capacity() + self.index_of.capacity() + self.non_finite.capacity())
                * size_of::<u32>()
    }

    /// Heap bytes of the constraints and the coloring (capacities).
    pub fn contact_memory_bytes(&self) -> usize {
        self.constraints.capacity() * std::mem::size_of::<ContactConstraint>()
            + self.keys.capacity() * std::mem::size_of::<ColorKey>()
            + self.joints.capacity() * std::mem::size_of::<JointConstraint>()
            + self.picked_joints.capacity() * std::mem::size_of::<(u32, u32)>()
            + (self.joint_slots.capacity() + self.joint_places.capacity()) * std::mem::size_of::<u32>()
            + self.picked.memory_bytes()
            + self.pushed.capacity() * std::mem::size_of::<[f32; 2]>()
            + self.graph.memory_bytes()
    }
}

/// What the tests of the kept coloring look at.
#[cfg(test)]
impl Solver {
    /// Whether this step kept its coloring, so that the next one tries
    /// to as well.
    pub(crate) fn tries_kept_coloring(&self) -> bool {
        self.graph.kept_last()
    }

    /// Makes the next step prepare and color its constraints the usual
    /// way, as if the coloring had changed.
    pub(crate) fn forget_kept_coloring(&mut self) {
        self.graph.forget_kept_coloring();
    }

    /// If the last step built its constraints straight into the kept
    /// coloring's batches: how many were tracked, and how many solved
    /// one at a time.
    pub(crate) fn built_as_colored(&self) -> Option<(usize, usize)> {
        self.as_colored
            .then(|| (self.picked.tracked.len(), self.graph.lone_constraints().count()))
    }

    /// The last step's picked contacts, and among them (as constraint
    /// indices) those with restitution and the tracked ones.
    pub(crate) fn picked(&self) -> [&[u32]; 3] {
        [&self.picked.contacts, &self.picked.bouncy, &self.picked.tracked]
    }
}

/// Whether a step that colors its contacts afresh builds its batches
/// straight from the contacts once colored, having found only their keys
/// (and the tracked ones' constraints) before: in the soft step with the
/// bounded coloring (see [`prepare::build_as_colored`]). Else the
/// batches are filled from the constraints.
fn lanes_later(ctx: &StepContext) -> bool {
    ctx.soft_step() && ctx.settings.coloring == Coloring::Bounded
}

/// What building the contacts' constraints reads (see
/// [`prepare::Sources`]): the step's solver bodies and each body slot's
/// (`index_of`; a body not simulated maps to the shared static one, the
/// last), the contacts, the world's bodies and the step's constants.
fn sources<'a>(
    (solver_bodies, index_of, heavy): (&'a [SolverBody], &'a [u32], bool),
    contacts: &'a Store<Contact>,
    body_slots: &'a Store<Body>,
    ctx: &'a StepContext,
) -> prepare::Sources<'a, impl Fn(u32) -> u32 + Sync + 'a> {
    let fixed = solver_bodies.len() as u32 - 1;
    prepare::Sources {
        contacts,
        solver_bodies,
        index_of: move |slot: u32| match index_of[slot as usize] {
            NULL => fixed,
            i => i,
        },
        body_slots,
        ctx,
        heavy,
    }
}

/// The passes over the hinges' limits alone that follow each biased
/// iteration of the soft step (after the exact solves of the joint trees
/// and contact stacks): the rows of every limit that pushes, solved again
/// after the contacts, so that what the bodies move by at the end of the
/// pass keeps each hinge within its limits. In a pile, a limb is struck
/// and pressed by the contacts the iteration solves after its joints, and
/// the limits' rows in the iteration leave much of their push undone: 20
/// ragdolls dropped in a box (`tumble-bench`'s `ragdoll-box`, and 15
/// variations of the drop) bend a hinge past its limit by at most 7 to 25
/// degrees (a median of 15) with no pass, 4 to 11 (9) with one, 3 to 6
/// (5) with two and 2 to 5 (3.5) with three; with the soft limits of
/// Box2D v3 (a limit as stiff as the joints), 12 to 48 (30). A pass reads
/// and writes only the hinges whose limits push (some impulse stored):
/// their velocities and the rows the biased pass kept. These are the most
/// passes: the passes stop once one leaves every limit settled (see
/// [`LIMIT_SETTLED`](crate::joint::LIMIT_SETTLED)).
pub(crate) const LIMIT_PASSES: u32 = 3;

/// Whether joint `j` is a hinge with limits that Gauss-Seidel solves.
fn has_limits(j: &JointConstraint) -> bool {
    matches!(j.kind, JointKind::Revolute(r) if r.enable_limit) && !j.held_exactly
}

/// One substep of the soft step: gravity and forces, warm start, the
/// biased solve (the first half of the substep's iterations, at least
/// one, each followed by `limit_passes` over the limits), the bodies
/// moved, then the relax (the rest) from separations brought up to date.
fn soft_substep(
    graph: &mut Graph,
    (constraints, joints): (&mut [ContactConstraint], &mut [JointConstraint]),
    (bodies, locks): (&[SolverBody], &[Lock]),
    (states, team): (&[StateCell], Option<&Team>),
    ctx: &StepContext,
    (iterations, limit_passes): (u32, u32),
    (mut trees, mut stacks): (
        Option<&mut joints::tree::JointTrees>,
        Option<&mut contact_trees::ContactTrees>,
    ),
) {
    let relax = iterations / 2;
    integrate_velocities(bodies, locks, (states, team), ctx);
    graph.update_scalar_separations(constraints, states);
    graph.warm_start((constraints, joints), (states, team), ctx);
    for it in 0..iterations - relax {
        let reverse = backward(ctx.settings.sweep, it);
        graph.iterate(
            (constraints, joints),
            (states, team),
            ctx,
            reverse,
            Pass::Soft { bias: true },
        );
        if let Some(t) = trees.as_deref_mut() {
            t.solve(joints, states, ctx, true);
        }
        if let Some(s) = stacks.as_deref_mut() {
            s.solve(constraints, states, ctx, true);
        }
        // (Set by any worker whose limits a pass has yet to settle; the
        // order they set it in does not matter, so neither do the workers.)
        let unsettled = AtomicBool::new(false);
        for _ in 0..limit_passes {
            unsettled.store(false, Ordering::Relaxed);
            let pass = Pass::Limits {
                unsettled: &unsettled,
            };
            graph.iterate((constraints, joints), (states, team), ctx, reverse, pass);
            if !unsettled.load(Ordering::Relaxed) {
                break;
            }
        }
    }
    integrate_positions((bodies, locks), (states, None, team), graph.width(), ctx);
    graph.update_scalar_separations(constraints, states);
    for it in 0..relax {
        let reverse = backward(ctx.settings.sweep, it);
        graph.iterate(
            (constraints, joints),
            (states, team),
            ctx,
            reverse,
            Pass::Soft { bias: false },
        );
        if let Some(t) = trees.as_deref_mut() {
            t.solve(joints, states, ctx, false);
        }
        if let Some(s) = stacks.as_deref_mut() {
            s.solve(constraints, states, ctx, false);
        }
    }
}

/// Passes of the restitution solve: a body bounced off two others at once
/// needs more than one to find impulses that suit both.
const RESTITUTION_PASSES: u32 = 4;

/// Point order: backward on odd iterations when the sweep alternates.
#[inline]
fn backward(sweep: Sweep, iteration: u32) -> bool {
    sweep == Sweep::Alternating && iteration % 2 == 1
}

/// The fewest bodies a thread integrates at a time.
const MIN_BODIES: usize = 64;

/// The fewest bodies a worker takes at a time in the step's loops over
/// its bodies outside the substeps (gathering them, moving them after the
/// solve, moving their proxies): the same runs in each, so that each
/// worker reads the bodies it wrote.
pub(crate) const BODY_RUN: usize = 256;

fn integrate_velocities(
    bodies: &[SolverBody],
    locks: &[Lock],
    (states, team): (&[StateCell], Option<&Team>),
    ctx: &StepContext,
) {
    let h = ctx.h;
    let block = block_size(team, bodies.len(), MIN_BODIES);
    for_each_range(team, bodies.len(), block, |run| {
        for (b, s) in bodies[run.clone()].iter().zip(&states[run]) {
            if b.dynamic {
                let (v, w) = s.velocity();
                s.set_velocity(
                    (v + h * b.accel) * b.linear_decay,
                    (w + h * b.angular_accel) * b.angular_decay,
                );
            }
        }
    });
    hold_locks(locks, states);
}

/// Zeroes the locked velocity components of the bodies with motion locks
/// (in `states`: the velocities, or the pseudo-velocities).
fn hold_locks(locks: &[Lock], states: &[StateCell]) {
    for lock in locks {
        let s = &states[lock.body as usize];
        let (v, w) = s.velocity();
        s.set_velocity(v * lock.linear, w * lock.angular);
    }
}

/// Moves the bodies over one substep (see [`integrate_position`]); with
/// split impulses, by their pseudo-velocities `pseudo` too, which are
/// then spent.
fn integrate_positions(
    (bodies, locks): (&[SolverBody], &[Lock]),
    (states, pseudo, team): (&[StateCell], Option<&[StateCell]>, Option<&Team>),
    width: Width,
    ctx: &StepContext,
) {
    // What the contacts pushed along a locked axis is dropped before it
    // moves the body.
    hold_locks(locks, states);
    if let Some(pseudo) = pseudo {
        hold_locks(locks, pseudo);
    }
    let limits = Limits::of(ctx);
    let states = (states, pseudo, team);
    match width {
        Width::Four => integrate_runs::<F4>(bodies, states, &limits),
        #[cfg(target_arch = "x86_64")]
        Width::Eight => integrate_runs::<lanes::F8>(bodies, states, &limits),
    }
}

/// [`integrate_positions`]'s moves, a run of bodies to each worker: `L`'s
/// lanes of bodies at a time, the rest of each run one by one.
#[inline(always)]
fn integrate_runs<L: Lanes>(
    bodies: &[SolverBody],
    (states, pseudo, team): (&[StateCell], Option<&[StateCell]>, Option<&Team>),
    limits: &Limits,
) {
    let block = block_size(team, bodies.len(), MIN_BODIES);
    for_each_range(team, bodies.len(), block, |run| {
        let pseudo = pseudo.map(|p| &p[run.clone()]);
        let (bodies, states) = (&bodies[run.clone()], &states[run]);
        L::enter(
            #[inline(always)]
            || {
                let tail = bodies.len() - bodies.len() % L::W;
                for k in (0..tail).step_by(L::W) {
                    let lanes = k..k + L::W;
                    integrate_lanes::<L>(
                        &bodies[lanes.clone()],
                        (&states[lanes.clone()], pseudo.map(|p| &p[lanes])),
                        limits,
                    );
                }
                for k in tail..bodies.len() {
                    integrate_position(&bodies[k], (&states[k], pseudo.map(|p| &p[k])), limits);
                }
            },
        );
    });
}

/// What [`integrate_positions`] integrates with: the substep and the
/// speed limits; and what the velocities a step leaves are held within
/// ([`Solver::motion`]).
pub(crate) struct Limits {
    /// The substep.
    h: f32,
    /// `max_speed` squared (see [`Limits::of`]).
    max_speed_squared: f32,
    /// The fastest a dynamic body may move.
    max_speed: f32,
    /// The fastest a dynamic body may spin.
    max_spin: f32,
}

impl Limits {
    /// The step's limits.
    pub(crate) fn of(ctx: &StepContext) -> Limits {
        Limits {
            h: ctx.h,
            // The speed is compared squared first: no root (and no
            // division) for a body within the limit, which is every body
            // in a sane scene. A squared speed within the rounded square
            // of the limit has a root within the limit, so the bodies
            // clamped are exactly those whose speed exceeds it. (Capped,
            // so that an infinite speed still counts.)
            max_speed_squared: (ctx.max_speed * ctx.max_speed).min(f32::MAX),
            max_speed: ctx.max_speed,
            max_spin: ctx.max_spin,
        }
    }

    /// Body `b`'s velocity and angular velocity `(v, w)` held within the
    /// limits, if it is dynamic: its speed within the speed limit, in the
    /// direction it moves, and its spin within the step's and its own
    /// (see [`SolverBody::max_spin`]).
    #[inline(always)]
    fn hold(&self, b: &SolverBody, (v, w): (Vec2, f32)) -> (Vec2, f32) {
        if !b.dynamic {
            return (v, w);
        }
        // Guard against absurd speeds (see the world's constants).
        let v = if v.length_squared() > self.max_speed_squared {
            crate::math::limit_length(v, self.max_speed)
        } else {
            v
        };
        let spin = self.max_spin.min(b.max_spin);
        (v, w.clamp(-spin, spin))
    }
}

/// Moves body `b` (state `cell`) over one substep: its speed and spin
/// held within the limits (a dynamic body's), its motion added up, its
/// pseudo-velocity (with split impulses: the velocity of `pseudo`) spent.
#[inline(always)]
fn integrate_position(b: &SolverBody, (cell, pseudo): (&StateCell, Option<&StateCell>), limits: &Limits) {
    let mut s = cell.load();
    (s.v, s.w) = limits.hold(b, (s.v, s.w));
    let (pv, pw) = pseudo.map_or((Vec2::ZERO, 0.0), StateCell::velocity);
    let h = limits.h;
    s.dp += h * (s.v + pv);
    s.dq = s.dq.integrate(h * (s.w + pw));
    cell.store(s);
    if let Some(p) = pseudo {
        p.set_velocity(Vec2::ZERO, 0.0);
    }
}

/// [`integrate_position`] for a lane's worth of bodies at once: the
/// same operations in the same order, so the same bits (the branches
/// become selects). A dynamic body past the speed limit (none in a sane
/// scene) sends them all to the scalar one.
#[inline(always)]
fn integrate_lanes<L: Lanes>(
    bodies: &[SolverBody],
    (cells, pseudo): (&[StateCell], Option<&[StateCell]>),
    limits: &Limits,
) {
    let s: [BodyState; lanes::MAX_W] = std::array::from_fn(|l| cells[l.min(L::W - 1)].load());
    let dynamic = L::Mask::from_fn(|l| bodies[l].dynamic);
    let lane = |f: fn(&BodyState) -> f32| L::from_fn(|l| f(&s[l]));
    let (vx, vy) = (lane(|s| s.v.x), lane(|s| s.v.y));
    if ((vx * vx + vy * vy).gt(L::splat(limits.max_speed_squared)) & dynamic).any() {
        for (l, b) in bodies.iter().enumerate() {
            integrate_position(b, (&cells[l], pseudo.map(|p| &p[l])), limits);
        }
        return;
    }
    let w = lane(|s| s.w);
    let spin = L::from_fn(|l| limits.max_spin.min(bodies[l].max_spin));
    let w = dynamic.select(w.clamp(-spin, spin), w);
    let zero = L::splat(0.0);
    let (pvx, pvy, pw) = match pseudo {
        Some(p) => {
            let v: [(Vec2, f32); lanes::MAX_W] = std::array::from_fn(|l| p[l.min(L::W - 1)].velocity());
            (
                L::from_fn(|l| v[l].0.x),
                L::from_fn(|l| v[l].0.y),
                L::from_fn(|l| v[l].1),
            )
        }
        None => (zero, zero, zero),
    };
    let h = L::splat(limits.h);
    let dpx = lane(|s| s.dp.x) + h * (vx + pvx);
    let dpy = lane(|s| s.dp.y) + h * (vy + pvy);
    // `Rot::integrate`'s steps.
    let (qc, qs) = (lane(|s| s.dq.c), lane(|s| s.dq.s));
    let da = h * (w + pw);
    let c = qc - da * qs;
    let sn = qs + da * qc;
    let mag = (c * c + sn * sn).sqrt();
    let inv = mag.gt(zero).select(L::splat(1.0) / mag, zero);
    let (c, sn) = (c * inv, sn * inv);
    for (l, cell) in cells.iter().enumerate() {
        cell.store(BodyState {
            v: s[l].v,
            w: w.lane(l),
            dp: Vec2::new(dpx.lane(l), dpy.lane(l)),
            dq: Rot {
                c: c.lane(l),
                s: sn.lane(l),
            },
        });
    }
    for p in pseudo.into_iter().flatten() {
        p.set_velocity(Vec2::ZERO, 0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::scalar::{
        current_separation, solve_constraint, solve_pseudo_constraint, solve_soft_constraint,
    };
    use super::types::ConstraintPoint;
    use super::*;
    use crate::math::{cross, right_perp};

    use crate::test_rng::Rng;

    fn context() -> StepContext {
        StepContext::for_tests()
    }

    #[test]
    fn the_speed_limit_clamps_exactly_the_bodies_faster_than_it() {
        // Speeds around the limit (and far from it), in every direction:
        // each body comes out as the plain rule says (its speed, if over
        // the limit, scaled down to it), to the bit.
        let ctx = context();
        let max = ctx.max_speed;
        let mut rng = Rng(0x51ed_270b_2ee1_3c7d);
        let mut speeds = vec![
            0.0,
            max,
            max.next_up(),
            max.next_down(),
            0.5 * max,
            3.0 * max,
            1e30,
        ];
        speeds.extend((0..500).map(|_| max * (1.0 + rng.range(-1e-6, 1e-6))));
        let velocities: Vec<Vec2> = speeds
            .iter()
            .map(|&speed| {
                let angle = rng.range(-3.2, 3.2);
                speed * Vec2::new(angle.cos(), angle.sin())
            })
            .collect();
        let bodies = vec![
            SolverBody {
                dynamic: true,
                ..SolverBody::default()
            };
            velocities.len()
        ];
        let states: Vec<StateCell> = velocities
            .iter()
            .map(|&v| {
                StateCell::new(BodyState {
                    v,
                    ..BodyState::default()
                })
            })
            .collect();
        integrate_positions((&bodies, &[]), (&states, None, None), Width::Four, &ctx);
        let mut clamped = 0;
        for (&v, cell) in velocities.iter().zip(&states) {
            let speed = v.length();
            let got = cell.load().v;
            if speed.is_finite() {
                let want = if speed > max { v * (max / speed) } else { v };
                assert_eq!(
                    (got.x.to_bits(), got.y.to_bits()),
                    (want.x.to_bits(), want.y.to_bits()),
                    "{v:?}"
                );
            } else {
                // A speed whose square overflows keeps its direction.
                assert!((got.length() - max).abs() <= 1e-6 * max, "{v:?} -> {got:?}");
                assert!(
                    got.perp_dot(v / v.abs().max_element()).abs() <= 1e-6 * max,
                    "{v:?} -> {got:?}"
                );
            }
            clamped += usize::from(speed > max);
        }
        // Both sides of the limit were tried.
        assert!(clamped > 100 && clamped < velocities.len() - 100, "{clamped}");
    }

    /// A random one-point constraint between body 0 (dynamic, or static
    /// one time in four) and body 1, with random warm-start and split
    /// impulses (zero now and then, as at the start of a substep).
    fn one_point(rng: &mut Rng, bodies: &mut [SolverBody; 2]) -> ContactConstraint {
        for (i, b) in bodies.iter_mut().enumerate() {
            let dynamic = i == 1 || rng.range(0.0, 1.0) > 0.25;
            *b = SolverBody {
                inv_mass: if dynamic { rng.range(0.1, 2.0) } else { 0.0 },
                inv_inertia: if dynamic { rng.range(0.1, 5.0) } else { 0.0 },
                dynamic,
                ..SolverBody::default()
            };
        }
        let angle = rng.range(-3.2, 3.2);
        let n = Vec2::new(angle.cos(), angle.sin());
        let (ra, rb) = (rng.vec(0.5), rng.vec(0.5));
        let [ma, mb, ia, ib] = [
            bodies[0].inv_mass,
            bodies[1].inv_mass,
            bodies[0].inv_inertia,
            bodies[1].inv_inertia,
        ];
        let (rna, rnb) = (cross(ra, n), cross(rb, n));
        let t = right_perp(n);
        let (rta, rtb) = (cross(ra, t), cross(rb, t));
        let kn = ma + mb + ia * rna * rna + ib * rnb * rnb;
        let kt = ma + mb + ia * rta * rta + ib * rtb * rtb;
        let normal_impulse = if rng.range(0.0, 1.0) < 0.2 {
            0.0
        } else {
            rng.range(0.0, 2.0)
        };
        let friction = rng.range(0.0, 1.0);
        let pseudo_impulse = if rng.range(0.0, 1.0) < 0.5 {
            0.0
        } else {
            rng.range(0.0, 0.5)
        };
        let mut c = ContactConstraint {
            a: 0,
            b: 1,
            normal: n,
            friction,
            count: 1,
            masses: [ma, ia, mb, ib],
            ..ContactConstraint::default()
        };
        c.points[0] = ConstraintPoint {
            ra,
            rb,
            // Gaps and overlaps around the slop.
            start_separation: rng.range(-0.03, 0.02),
            normal_mass: 1.0 / kn,
            tangent_mass: 1.0 / kt,
            normal_impulse,
            tangent_impulse: friction * normal_impulse * rng.range(-1.0, 1.0),
            pseudo_impulse,
            ..ConstraintPoint::default()
        };
        c
    }

    /// A one-point constraint in a lane gives the scalar solve's answer up
    /// to rounding (the lanes associate the velocity sums differently), in
    /// the velocity and the split-impulse iterations, forward and reverse:
    /// the same friction, the same clamp, and the same rule that a point
    /// with no push-out target and no split impulse sits the split-impulse
    /// pass out.
    #[test]
    fn one_point_lane_matches_the_scalar_clamp() {
        let ctx = context();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut worst = 0.0f32;
        for _ in 0..2000 {
            let mut bodies = [SolverBody::default(); 2];
            let c = one_point(&mut rng, &mut bodies);
            let mut states = vec![BodyState::default(); 3];
            let mut pseudo = vec![BodyState::default(); 3];
            for ((s, p), b) in states.iter_mut().zip(&mut pseudo).zip(&bodies) {
                if b.dynamic {
                    s.v = rng.vec(2.0);
                    s.w = rng.range(-3.0, 3.0);
                    p.v = rng.vec(0.5);
                    p.w = rng.range(-1.0, 1.0);
                    s.dp = rng.vec(0.01);
                    s.dq = Rot::from_angle(rng.range(-0.01, 0.01));
                }
            }
            let states: Vec<StateCell> = states.into_iter().map(StateCell::new).collect();
            let pseudo: Vec<StateCell> = pseudo.into_iter().map(StateCell::new).collect();
            let mut scalar = ([c], states.clone(), pseudo.clone());
            let mut lanes = ([c], states, pseudo);
            let mut batch = wide::PointBatch::<F4>::new(&[0], &lanes.0, &bodies, 2);
            let split =
                crate::threads::SharedCell::new(wide::PointBatch::<F4>::split_impulses(&[0], &lanes.0));
            let (cs, ss) = (&mut scalar.0[0], &mut scalar.1);
            // The lane's separation is the scalar one up to rounding (the
            // lanes associate the sums differently); the solves then
            // start from the same one, so what is compared is the block
            // LCP against the clamp (a rounding of 1e-7 m in a separation
            // would be 2.4e-5 m/s in a target at this substep length).
            let smallest = batch.smallest_separation(&lanes.1);
            let separation =
                current_separation(&cs.points[0], cs.normal, cs.round, &ss[0].load(), &ss[1].load());
            assert!((smallest - separation).abs() < 1e-6);
            cs.points[0].separation = smallest;
            for it in 0..4 {
                let reverse = it % 2 == 1;
                solve_constraint(cs, ss, &ctx, reverse);
                solve_pseudo_constraint(cs, &scalar.2, &ctx, reverse);
                batch.solve_velocity_and_pseudo((&lanes.1, &lanes.2), &split, &ctx, reverse);
                batch.store_constraints(&mut lanes.0);
                let (cl, sl) = (&lanes.0[0], &lanes.1);
                let (s0, s1, l0, l1) = (ss[0].load(), ss[1].load(), sl[0].load(), sl[1].load());
                let (ps0, ps1) = (scalar.2[0].load(), scalar.2[1].load());
                let (pl0, pl1) = (lanes.2[0].load(), lanes.2[1].load());
                let (p, q) = (&cs.points[0], &cl.points[0]);
                let pairs = [
                    (p.normal_impulse, q.normal_impulse),
                    (p.tangent_impulse, q.tangent_impulse),
                    (p.pseudo_impulse, split.load()[0].lane(0)),
                    (p.max_normal_impulse, q.max_normal_impulse),
                    (s1.v.x, l1.v.x),
                    (s1.v.y, l1.v.y),
                    (s1.w, l1.w),
                    (ps1.v.x, pl1.v.x),
                    (ps1.v.y, pl1.v.y),
                    (ps1.w, pl1.w),
                    (s0.v.x, l0.v.x),
                    (s0.w, l0.w),
                    (ps0.v.y, pl0.v.y),
                    (ps0.w, pl0.w),
                ];
                for (k, (x, y)) in pairs.into_iter().enumerate() {
                    let err = (x - y).abs() / x.abs().max(1.0);
                    worst = worst.max(err);
                    assert!(err < 1e-5, "iteration {it}, value {k}: scalar {x}, lanes {y}");
                }
            }
        }
        assert!(worst > 0.0, "the two paths should round differently somewhere");
    }

    /// A random two-point block between body 0 (dynamic, or static one
    /// time in four) and body 1: the second point a random offset from
    /// the first along the tangent, the 2x2 mass matrix and its inverse as
    /// `prepare_contacts` builds them. Or, unless `conditioned`, an
    /// ill-conditioned pair: the points within a centimetre of each
    /// other, `K` without its inverse.
    fn two_point(rng: &mut Rng, bodies: &mut [SolverBody; 2], conditioned: bool) -> ContactConstraint {
        loop {
            let mut c = one_point(rng, bodies);
            let n = c.normal;
            let t = right_perp(n);
            let offset = if conditioned {
                rng.range(0.2, 1.0)
            } else {
                rng.range(-0.01, 0.01)
            } * t;
            let mut p2 = c.points[0];
            p2.ra += offset;
            p2.rb += offset;
            p2.start_separation = rng.range(-0.03, 0.02);
            p2.normal_impulse = rng.range(0.0, 2.0);
            let [ma, ia, mb, ib] = c.masses;
            let lever = |p: &ConstraintPoint| (cross(p.ra, n), cross(p.rb, n));
            let ((r1a, r1b), (r2a, r2b)) = (lever(&c.points[0]), lever(&p2));
            let k11 = ma + mb + ia * r1a * r1a + ib * r1b * r1b;
            let k22 = ma + mb + ia * r2a * r2a + ib * r2b * r2b;
            let k12 = ma + mb + ia * r1a * r2a + ib * r1b * r2b;
            let det = k11 * k22 - k12 * k12;
            if (det > 0.0 && k11 * k11 < 1000.0 * det) != conditioned {
                continue;
            }
            p2.normal_mass = 1.0 / k22;
            c.points[1] = p2;
            c.count = 2;
            c.block = conditioned;
            c.k = [k11, k12, k22];
            if conditioned {
                c.inv_k = [k22 / det, -k12 / det, k11 / det];
            }
            return c;
        }
    }

    /// Bodies integrated lane-wide, four or eight at a time, end exactly
    /// where the scalar
    /// integration takes them (the same bits), kinematic ones spinning
    /// freely and dynamic ones held to the spin limit, and a group with a
    /// body past the speed limit clamped as the scalar one clamps it.
    #[test]
    fn bodies_integrated_lane_wide_match_the_scalar_integration() {
        integrated_lanes_match_the_scalar_integration::<F4>();
        #[cfg(target_arch = "x86_64")]
        if crate::threads::has_avx2() {
            lanes::F8::enter(integrated_lanes_match_the_scalar_integration::<lanes::F8>);
        }
    }

    /// The test above on lanes `L`.
    #[inline(always)]
    fn integrated_lanes_match_the_scalar_integration<L: Lanes>() {
        let mut rng = Rng(0x5851_f42d_4c95_7f2d);
        let limits = Limits {
            h: 1.0 / 240.0,
            max_speed_squared: 400.0 * 400.0,
            max_speed: 400.0,
            max_spin: 30.0,
        };
        let mut clamped = 0;
        for round in 0..2000 {
            let bodies: Vec<SolverBody> = (0..L::W)
                .map(|_| SolverBody {
                    dynamic: rng.range(0.0, 1.0) < 0.8,
                    ..SolverBody::default()
                })
                .collect();
            let states: Vec<BodyState> = (0..L::W)
                .map(|l| {
                    // Now and then a body far past the limits.
                    let wild = round % 7 == 0 && l == round % L::W;
                    let scale = if wild { 1000.0 } else { 20.0 };
                    let angle = rng.range(-3.0, 3.0);
                    BodyState {
                        v: rng.vec(scale),
                        w: rng.range(-2.0, 2.0) * scale,
                        dp: rng.vec(1.0),
                        dq: Rot::from_angle(angle),
                    }
                })
                .collect();
            // Split impulses' pseudo-velocities every other round.
            let pseudo: Vec<BodyState> = (0..L::W)
                .map(|_| BodyState {
                    v: rng.vec(1.0),
                    w: rng.range(-1.0, 1.0),
                    ..BodyState::default()
                })
                .collect();
            let split = round % 2 == 1;
            let cells =
                |s: &[BodyState]| -> Vec<StateCell> { s.iter().map(|&s| StateCell::new(s)).collect() };
            let (lanes, lanes_pseudo) = (cells(&states), cells(&pseudo));
            let (scalar, scalar_pseudo) = (cells(&states), cells(&pseudo));
            integrate_lanes::<L>(&bodies, (&lanes, split.then_some(&lanes_pseudo[..])), &limits);
            for (l, b) in bodies.iter().enumerate() {
                integrate_position(b, (&scalar[l], split.then_some(&scalar_pseudo[l])), &limits);
            }
            let bits = |s: BodyState| [s.v.x, s.v.y, s.w, s.dp.x, s.dp.y, s.dq.c, s.dq.s].map(f32::to_bits);
            for l in 0..L::W {
                let (x, y) = (lanes[l].load(), scalar[l].load());
                assert_eq!(bits(x), bits(y), "round {round}, lane {l}");
                let spent = [&lanes_pseudo[l], &scalar_pseudo[l]].map(|p| p.velocity() == (Vec2::ZERO, 0.0));
                assert_eq!(spent, [split; 2], "round {round}, lane {l}: pseudo-velocities");
                clamped += usize::from(bodies[l].dynamic && y.v != states[l].v);
                // The pseudo-velocity moved the body, the velocity turned it.
                if split && bodies[l].dynamic && y.v == states[l].v {
                    let want = states[l].dp + limits.h * (states[l].v + pseudo[l].v);
                    assert_eq!(y.dp, want, "round {round}, lane {l}");
                }
            }
        }
        assert!(clamped > 0, "no body was clamped to the speed limit");
    }

    /// The soft step's lanes give the scalar soft solve's answer up to
    /// rounding, for single points, two-point blocks and ill-conditioned
    /// pairs (which both take point by point), in the biased and the
    /// relax passes, forward and reverse, against moving and static bodies
    /// (the stiffer softness): the same soft terms, and for a block the
    /// same choice between the block update and the points one at a time.
    #[test]
    fn soft_lanes_match_the_scalar_soft_solve() {
        let ctx = context();
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for case in 0..6000 {
            let mut bodies = [SolverBody::default(); 2];
            let pair = case % 3 != 2;
            let c = if pair {
                two_point(&mut rng, &mut bodies, case % 3 == 0)
            } else {
                one_point(&mut rng, &mut bodies)
            };
            let mut states = vec![BodyState::default(); 3];
            for (s, b) in states.iter_mut().zip(&bodies) {
                if b.dynamic {
                    s.v = rng.vec(2.0);
                    s.w = rng.range(-3.0, 3.0);
                    // Motion since the step began: the lanes compute the
                    // separations from it in every soft pass.
                    s.dp = rng.vec(0.01);
                    s.dq = Rot::from_angle(rng.range(-0.01, 0.01));
                }
            }
            let states: Vec<StateCell> = states.into_iter().map(StateCell::new).collect();
            let mut scalar = ([c], states.clone());
            let mut lanes = ([c], states);
            // (Only the batch of the constraint's own kind: the other's
            // fill asserts the point count in debug builds.)
            let mut pair_batch = pair.then(|| wide::PairBatch::<F4>::new(&[0], &lanes.0, &bodies, 2));
            let mut point_batch = (!pair).then(|| wide::PointBatch::<F4>::new(&[0], &lanes.0, &bodies, 2));
            let separations = match (&pair_batch, &point_batch) {
                (Some(batch), _) => batch.separations_of(&lanes.1, 0),
                (_, Some(batch)) => batch.separations_of(&lanes.1, 0),
                _ => unreachable!(),
            };
            let (cs, ss) = (&mut scalar.0[0], &mut scalar.1);
            for (cp, s) in cs.points.iter_mut().zip(separations) {
                cp.separation = s;
            }
            for it in 0..4 {
                let (reverse, bias) = (it % 2 == 1, it < 2);
                solve_soft_constraint(cs, ss, &ctx, reverse, bias);
                if let Some(batch) = &mut pair_batch {
                    batch.solve_soft(&lanes.1, &ctx, reverse, bias);
                    batch.store_constraints(&mut lanes.0);
                }
                if let Some(batch) = &mut point_batch {
                    batch.solve_soft(&lanes.1, &ctx, reverse, bias);
                    batch.store_constraints(&mut lanes.0);
                }
                let (cl, sl) = (&lanes.0[0], &lanes.1);
                let (s0, s1, l0, l1) = (ss[0].load(), ss[1].load(), sl[0].load(), sl[1].load());
                let mut pairs = vec![
                    (s1.v.x, l1.v.x),
                    (s1.v.y, l1.v.y),
                    (s1.w, l1.w),
                    (s0.v.x, l0.v.x),
                    (s0.w, l0.w),
                ];
                for (p, q) in cs.points.iter().zip(&cl.points).take(cs.count) {
                    pairs.push((p.normal_impulse, q.normal_impulse));
                    pairs.push((p.tangent_impulse, q.tangent_impulse));
                    pairs.push((p.max_normal_impulse, q.max_normal_impulse));
                }
                for (k, (x, y)) in pairs.into_iter().enumerate() {
                    let err = (x - y).abs() / x.abs().max(1.0);
                    assert!(
                        err < 1e-4,
                        "case {case}, iteration {it}, value {k}: scalar {x}, lanes {y}"
                    );
                }
            }
        }
    }
}
