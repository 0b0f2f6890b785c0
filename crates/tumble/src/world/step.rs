//! [`World::step`]: the pipeline, one method per stage, in the order they
//! run. Pure per-item work (collide a contact, integrate a body) goes over
//! the awake set only; structural change (contacts made and destroyed,
//! islands merged, split and put to sleep) runs serially after it, in slot
//! order, so the result never depends on the order work was done in.

use super::continuous::{is_fast, sunk_body};
use super::pair_rules::{may_collide, pre_solve};
use super::profile::StepProfile;
use super::shapes::{proxy_move, ProxyMove};
use super::{BodyId, World};
use crate::body::{Body, BodyType, MotionLocks};
use crate::broadphase::pair_key;
use crate::clock::Stopwatch;
use crate::contact::{CollideContext, Contact, ContactFlags, ContactOptions, RecycleLimits};
use crate::events::ContactHit;
use crate::hooks::{ContactHooks, NoHooks};
use crate::island;
use crate::math::{is_finite_vec, limit_length, within_extent, Rot, Transform, Vec2};
use crate::settings::{
    CONTACT_RECYCLE_DISTANCE, LINEAR_SLOP, MAX_JOINT_PUSH_SPEED, MAX_PUSH_OUT_SPEED, MAX_ROTATION_PER_STEP,
    MIN_STEP, SPECULATIVE_DISTANCE, TIME_TO_SLEEP, WORLD_EXTENT,
};
use crate::solver::{
    prefetch, Gathered, Limits, Softness, SolveInput, SolveTimes, SolverBody, StepContext, BODY_RUN,
    PREFETCH_AHEAD,
};
use crate::store::BitSet;
use crate::store::Store;
use std::sync::atomic::{AtomicBool, Ordering};

/// The fewest awake contacts and joints for which a world with several
/// workers hands its step to them: a step of a few hundred contacts is
/// over before the workers are awake (`tumble-bench --scaling` measures
/// the split).
const PARALLEL_CONTACTS: usize = 1024;

/// The fewest awake bodies for which the workers share moving the bodies
/// and their proxies (stages 5 and 8): each body is a few nanoseconds of
/// work, so a short list is over before a second thread could help; from
/// a thousand on, the step's spinning team (already awake between the
/// stages) shares them at a gain.
const PARALLEL_BODIES: usize = 1024;

/// How much of the position correction's motion counts towards a body's
/// speed for sleeping: a body pushed out of an overlap is not at rest, but
/// the push is slow and safe to finish later (Box2D v3 weighs it the same).
const POSITION_SLEEP_FACTOR: f32 = 0.5;

impl World {
    /// Advances the world by `dt` seconds. The same as
    /// [`World::step_with_hooks`] with hooks that change nothing.
    pub fn step(&mut self, dt: f32) {
        self.step_with_hooks(dt, &NoHooks);
    }

    /// Advances the world by `dt` seconds, asking `hooks` about the
    /// contacts of the shapes that opt in (see [`ContactHooks`]).
    ///
    /// A `dt` that is not finite, or shorter than
    /// [`MIN_STEP`](crate::settings::MIN_STEP), does nothing. A `dt`
    /// longer than [`WorldSettings::max_step`](crate::WorldSettings::max_step)
    /// runs as equal steps no longer than it, at most
    /// [`WorldSettings::max_step_splits`](crate::WorldSettings::max_step_splits)
    /// of them (time beyond those is dropped): the events afterwards are
    /// all of theirs, the profile their sum, and each counts in
    /// [`World::step_count`].
    ///
    /// The stages of one step, in the order they run (each a method of
    /// its own in `world/step.rs`, called in turn by `run_stages`; what
    /// one finds for those after it is its return value):
    /// 1. `update_pairs`: shapes whose fat boxes began to overlap and that
    ///    may collide (their filters, [`ContactHooks::should_collide`],
    ///    neither a sensor, no joint between their bodies that forbids
    ///    it) get a contact;
    /// 2. `collide`: every awake contact's manifold is recomputed (or
    ///    kept, if the pair hardly moved), touching ones that ask are given
    ///    to [`ContactHooks::pre_solve`]; returns which contacts began or
    ///    stopped touching and whose fat boxes parted, the touching ones,
    ///    and the bodies sunk deep into static shapes;
    /// 3. `apply_contact_changes`: serially, parted contacts are
    ///    destroyed, contacts that began touching link (and wake) islands,
    ///    those that stopped mark theirs for a split, and the begin and
    ///    end events are recorded ([`World::contact_events`]);
    /// 4. `set_up_solve`, then `solve`: the solver's own stages (the
    ///    awake bodies, touching contacts and joints gathered, the
    ///    constraints colored; then the substeps, the impulses stored for
    ///    the next warm start, restitution), then the hit events; with
    ///    workers, beside `solve` and stage 5, another worker rebuilds the
    ///    broadphase's tree where it loosened (on one thread that is done
    ///    at the end of stage 8);
    /// 5. `finalize_bodies`: transforms and velocities (held within the
    ///    limits the step moved the bodies by) written back, sleep timers
    ///    run, and a body whose new state is not finite or lies past the
    ///    [`WORLD_EXTENT`] frozen where it was (see
    ///    [`World::frozen_bodies`]); returns the fast bodies and what the
    ///    sleep timers say of the islands;
    /// 6. `solve_continuous`: each body that moved far for its size, or
    ///    that a static shape holds sunk deep, is swept from where it was
    ///    to where it is against the static shapes and put back where it
    ///    first met one (continuous collision);
    /// 7. `update_sensors`: each sensor finds what overlaps it and what
    ///    crossed it during the step ([`World::sensor_events`]), by the
    ///    fat boxes made for the step's motion;
    /// 8. `update_broadphase`: moved proxies enlarged to where their bodies
    ///    are heading (and on one thread, the tree rebuilt where that
    ///    loosened it);
    /// 9. with sleeping on, `split_island` (the sleepiest island that lost
    ///    a contact) and `sleep_islands` (islands whose every body rested
    ///    for [`TIME_TO_SLEEP`]).
    pub fn step_with_hooks(&mut self, dt: f32, hooks: &dyn ContactHooks) {
        if !(dt >= MIN_STEP && dt.is_finite()) {
            return;
        }
        let (count, each) = split_step(dt, self.settings.max_step, self.settings.max_step_splits);
        self.clear_events();
        let mut total = StepProfile::default();
        for _ in 0..count {
            self.step_once(each, hooks);
            total.add(&self.profile);
        }
        self.profile = total;
    }

    /// Empties the event lists for a new call to
    /// [`World::step_with_hooks`], starting them with the ends the user's
    /// calls caused since the last.
    fn clear_events(&mut self) {
        self.events.begin.clear();
        self.events.end.clear();
        self.events.hit.clear();
        self.events.end.append(&mut self.pending_ends);
        self.sensor_events.begin.clear();
        self.sensor_events.end.clear();
        self.sensor_events.end.append(&mut self.pending_sensor_ends);
    }

    /// One step of `dt` (at most [`WorldSettings::max_step`]), on the
    /// worker threads when there are any and enough is awake.
    fn step_once(&mut self, dt: f32, hooks: &dyn ContactHooks) {
        // The whole step runs on the worker threads (when there are any),
        // as one team's region: the helpers spin between the stages'
        // parallel loops, each of which starts with no hand-over (see
        // `threads::with_team`). A world with little awake runs on this
        // thread alone: handing the step over would cost more than it
        // saves, and any split gives the same bits.
        let busy = self.awake.contacts.len() + self.awake.joints.len() >= PARALLEL_CONTACTS;
        if busy && self.workers.threads() > 1 {
            let workers = self.workers.clone();
            workers.install(|parallel| {
                crate::threads::with_team(parallel, |_| self.run_stages(dt, hooks, parallel))
            });
        } else {
            self.run_stages(dt, hooks, false);
        }
    }

    /// The stages of [`World::step_with_hooks`], in order, each timed
    /// into the step's profile; their loops over independent items are
    /// split between the workers when `parallel`. What a stage finds for
    /// the stages after it is its return value.
    fn run_stages(&mut self, dt: f32, hooks: &dyn ContactHooks, parallel: bool) {
        self.last_dt = dt;
        let mut p = StepProfile::default();
        let mut clock = Stopwatch::start(self.settings.profiling);
        clock.time(&mut p.update_pairs, || self.update_pairs(hooks, parallel));
        let mut touches = clock.time(&mut p.collide, || self.collide(dt, hooks, parallel));
        clock.time(&mut p.contact_changes, || {
            self.apply_contact_changes(&mut touches)
        });
        let ctx = self.step_context(dt, parallel);
        let mut parts = SolveTimes::default();
        clock.time(&mut p.solve, || {
            self.set_up_solve(dt, &ctx, &touches.with_points, &mut parts)
        });
        let (mut moves, rebuild) = self.beside_tree_rebuild(parallel, |world| {
            clock.time(&mut p.solve, || world.solve(&ctx, &mut parts));
            clock.time(&mut p.finalize, || world.finalize_bodies(dt, &ctx))
        });
        p.set_solve_parts(parts);
        p.rebuild_tree = rebuild;
        // (With workers, the wait for the rebuild if it ran longer than
        // the stages beside it: the broadphase's.)
        p.update_broadphase = clock.lap();
        clock.time(&mut p.continuous, || {
            self.solve_continuous(&mut moves.fast, &touches.sunk, hooks)
        });
        // The sensors before the broadphase: they find what crossed them
        // by the fat boxes made for this step's motion.
        clock.time(&mut p.sensors, || self.update_sensors());
        clock.time(&mut p.update_broadphase, || {
            self.update_broadphase(parallel);
            if !parallel {
                // On one thread, right after the enlargements (see
                // `beside_tree_rebuild` for where the workers rebuild).
                self.broadphase.rebuild();
            }
        });
        if self.settings.sleeping {
            clock.time(&mut p.sleep, || {
                self.split_island(&mut moves);
                self.sleep_islands(&moves);
            });
        }
        p.total = p.stages();
        self.profile = p;
        self.recycled = touches.recycled;
        self.scratch.touches = touches;
        self.scratch.moves = moves;
        self.step_count += 1;
    }

    /// Runs `stages` (the solve's substeps and moving the bodies, which
    /// never read the broadphase's tree); with workers (`parallel`), beside the
    /// rebuild of the part of the tree that loosened since the last
    /// rebuild (what the user and the last step moved), on another
    /// worker. Returns what `stages` returned and the rebuild's time
    /// (zero on one thread).
    ///
    /// Where the tree is rebuilt. With workers, here: the pair search
    /// runs on the loosened tree, which finds the same pairs a little
    /// slower, as in Box2D; beside the substeps, not the narrowphase or
    /// the gathering, because those share their items evenly between the
    /// workers, while a scene whose colors are too small to share runs its
    /// substeps on one thread as the others wait, and the rebuild fills
    /// that wait. On one thread there is no wait to fill: the tree is
    /// rebuilt right after the step's enlargements (`run_stages`), so the
    /// next search and the queries between steps run on a tight tree (a
    /// search on a loosened tree costs more where much moves, as in a
    /// turning container).
    fn beside_tree_rebuild<R: Send>(
        &mut self,
        parallel: bool,
        stages: impl FnOnce(&mut World) -> R + Send,
    ) -> (R, f32) {
        if !parallel {
            return (stages(self), 0.0);
        }
        let mut tree = self.broadphase.lend_tree();
        let profiling = self.settings.profiling;
        let rebuild = || {
            let mut clock = Stopwatch::start(profiling);
            tree.rebuild();
            clock.lap()
        };
        let out = crate::threads::join(|| stages(self), rebuild);
        self.broadphase.return_tree(tree);
        out
    }

    /// How long each stage of the last step took (see [`StepProfile`]);
    /// all zero while [`WorldSettings::profiling`](crate::WorldSettings::profiling)
    /// is off.
    pub fn profile(&self) -> &StepProfile {
        &self.profile
    }

    /// Sets [`WorldSettings::profiling`](crate::WorldSettings::profiling):
    /// whether the steps from now on time their stages. Turned off, the
    /// last step's profile reads zero.
    pub fn set_profiling(&mut self, on: bool) {
        self.settings.profiling = on;
        if !on {
            self.profile = StepProfile::default();
        }
    }

    /// Stage 1: the broadphase reports the pairs of shapes whose fat boxes
    /// overlap and at least one of which moved; each pair that may collide
    /// and has no contact yet gets one, in pair order.
    fn update_pairs(&mut self, hooks: &dyn ContactHooks, parallel: bool) {
        let mut pairs = std::mem::take(&mut self.scratch.new_pairs);
        pairs.clear();
        // Only pairs that could collide and have no contact yet: most of
        // what a moved shape overlaps is already in contact with it, so
        // the pair map is asked first, before the shapes and bodies are
        // read (Box2D's order too: a pair with a contact then costs one
        // probe, not four more cache lines).
        // The map is asked about each batch of pairs the search finds
        // once the search has asked for their places (see `PairMap`).
        let (shapes, bodies, pair_map, joints) = (&self.shapes, &self.bodies, &self.pair_map, &self.joints);
        let hint = |sa, sb| pair_map.prefetch(pair_key(sa, sb));
        // A moved shape searches only the branches of the tree holding
        // shapes its filter may collide with (the joint grid's circles,
        // which collide with no other circle, search nothing), and a
        // sensor, which makes no contact, searches nothing (its overlaps
        // are the sensor stage's).
        let mask_of = |si: u32| {
            let def = &shapes[si].def;
            if def.sensor {
                0
            } else {
                def.filter.pair_mask()
            }
        };
        self.broadphase.find_pairs(
            &mut pairs,
            (mask_of, hint, |sa, sb| {
                !pair_map.contains_key(pair_key(sa, sb))
                    && may_collide((shapes, bodies, joints), (sa, sb), hooks)
            }),
            parallel,
        );
        for &(sa, sb) in &pairs {
            self.create_contact(sa, sb);
        }
        self.scratch.new_pairs = pairs;
    }

    /// Stage 2: the collide kernel over the awake contacts. Each contact
    /// is updated from its own two bodies and shapes alone (so the
    /// workers can take them in runs), and what it found goes to a list
    /// beside the list of the awake contacts; then, serially and in slot
    /// order, what the stages after it need is listed (see [`Touches`]).
    /// A pre-solve hook may be called from any worker, for different
    /// contacts at once.
    fn collide(&mut self, dt: f32, hooks: &dyn ContactHooks, parallel: bool) -> Touches {
        let lu = self.settings.length_units_per_meter;
        let speculative = SPECULATIVE_DISTANCE * lu;
        let ctx = CollideContext {
            dt,
            aim_ahead: dt + dt / self.substeps() as f32,
            speculative,
            recycle: self.settings.solver.contact_recycling.then_some(RecycleLimits {
                distance: CONTACT_RECYCLE_DISTANCE * lu,
                empty: speculative,
                past_face_end: LINEAR_SLOP * lu,
            }),
            seams: self.seams.slots(),
        };
        // Borrow the fields apart: the contacts change, the shapes and
        // bodies are only read (no copies of the shapes on the hot path).
        let (shapes, bodies, awake) = (&self.shapes, &self.bodies, &self.awake);
        let fat_boxes = &self.fat_boxes;
        let max_speed = self.max_speed();
        let kernel = |c: &mut Contact| {
            if fat_boxes[c.shape_a as usize].overlaps(fat_boxes[c.shape_b as usize]) {
                let (sa, sb) = (&shapes[c.shape_a], &shapes[c.shape_b]);
                let (ba, bb) = (&bodies[c.body_a], &bodies[c.body_b]);
                let was_touching = c.touching();
                let flags = c.collide(&sa.shape, ba, &sb.shape, bb, &ctx);
                let asks = c.options.contains(ContactOptions::PRE_SOLVE) && c.touching();
                if asks && !pre_solve(c, (shapes, bodies), hooks, max_speed) {
                    c.disable();
                }
                let flags = c.touch_change(was_touching, flags);
                if flags.contains(ContactFlags::TOUCHING) && sunk_body(c, (ba, bb)).is_some() {
                    flags.with(ContactFlags::SUNK)
                } else {
                    flags
                }
            } else {
                ContactFlags::DISJOINT
            }
        };
        // The awake contacts may lie scattered through the store, and
        // their bodies and shapes anywhere: while one is collided, ask
        // for the contact two strides ahead in its run, and for the bodies
        // and shapes of the one a stride ahead (whose contact is in the
        // cache by then).
        let ahead = |view: crate::threads::Ahead<'_, Contact>| {
            if let Some(&far) = view.rest.get(2 * PREFETCH_AHEAD) {
                prefetch(view.item(far));
            }
            if let Some(&near) = view.rest.get(PREFETCH_AHEAD) {
                let c = view.item(near);
                prefetch(&bodies[c.body_a]);
                prefetch(&bodies[c.body_b]);
                prefetch(&shapes[c.shape_a].shape);
                prefetch(&shapes[c.shape_b].shape);
            }
        };
        let mut list = std::mem::take(&mut self.scratch.to_collide);
        list.clear();
        list.extend(awake.contacts.iter());
        // (Every entry is written by the kernel: only new ones need a
        // value first.)
        let mut found = std::mem::take(&mut self.scratch.contact_flags);
        found.resize(list.len(), ContactFlags::default());
        crate::threads::for_each_slot_mut_ahead(
            parallel,
            self.contacts.slots_mut(),
            &list,
            &mut found,
            64,
            &ahead,
            &|_, c, f| *f = kernel(c),
        );
        let mut touches = std::mem::take(&mut self.scratch.touches);
        touches.clear();
        for (&ci, &flags) in list.iter().zip(&found) {
            touches.recycled += usize::from(flags.contains(ContactFlags::RECYCLED));
            if flags.contains(ContactFlags::SUNK) {
                let c = &self.contacts[ci];
                let pair = (&self.bodies[c.body_a], &self.bodies[c.body_b]);
                touches.sunk.extend(sunk_body(c, pair));
            }
            if flags.is_structural() {
                touches.changes.push((ci, flags));
            }
            if flags.contains(ContactFlags::TOUCHING) {
                touches.with_points.push(ci);
            }
        }
        self.scratch.contact_flags = found;
        self.scratch.to_collide = list;
        touches
    }

    /// Stage 3: the structural consequences of the collide stage, in slot
    /// order: contacts whose fat boxes parted are destroyed; one that began
    /// touching links its bodies' islands (waking a sleeping one, whose
    /// touching contacts join `touches.with_points`); one that stopped
    /// leaves its island to be checked for a split. Each begin and end is
    /// recorded as an event.
    fn apply_contact_changes(&mut self, touches: &mut Touches) {
        let collided = touches.with_points.len();
        for &(ci, flags) in &touches.changes {
            // (A parted contact was not collided: its manifold, and so
            // whether it touched, is last step's.)
            if flags.contains(ContactFlags::DISJOINT) {
                if self.contacts[ci].touching() {
                    self.record_end(ci);
                }
                self.destroy_contact(ci);
            } else if flags.contains(ContactFlags::STARTED_TOUCHING) {
                let c = &mut self.contacts[ci];
                c.hit_pending = c.options.contains(ContactOptions::HIT_EVENTS);
                if c.options.contains(ContactOptions::TOUCH_EVENTS) {
                    let begin = self.touch_event(ci);
                    self.events.begin.push(begin);
                }
                self.link_contact(ci, &mut touches.with_points);
            } else if flags.contains(ContactFlags::STOPPED_TOUCHING) {
                self.record_end(ci);
                self.unlink_from_island(ci);
            }
        }
        if touches.with_points.len() > collided {
            // The solver takes them in slot order.
            touches.with_points.sort_unstable();
        }
    }

    /// Merges the islands of the two bodies of contact `ci`, which just
    /// began touching, waking either if it was asleep (its touching
    /// contacts join `with_points`). A contact with a static body links
    /// nothing.
    fn link_contact(&mut self, ci: u32, with_points: &mut Vec<u32>) {
        if !self.links_islands(ci) {
            return;
        }
        let (a, b) = (self.contacts[ci].body_a, self.contacts[ci].body_b);
        self.ensure_awake_listing(a, Some(with_points));
        self.ensure_awake_listing(b, Some(with_points));
        let (ia, ib) = (self.bodies[a].island, self.bodies[b].island);
        if let Some(gone) = island::merge(&mut self.islands, &mut self.bodies, ia, ib) {
            self.awake.islands.remove(gone);
        }
    }

    /// How many substeps a step takes (never more than its iterations).
    fn substeps(&self) -> u32 {
        let settings = self.settings.solver;
        settings.substeps.min(settings.iterations)
    }

    /// The solver's constants for a step of `dt`.
    fn step_context(&self, dt: f32, parallel: bool) -> StepContext {
        let settings = self.settings.solver;
        let substeps = self.substeps();
        let lu = self.settings.length_units_per_meter;
        let h = dt / substeps as f32;
        // Stiffer than an eighth of the substep rate, the implicit spring
        // would ring (Box2D caps it the same way).
        let hertz = settings.contact_hertz.min(0.125 / h);
        let zeta = settings.contact_damping_ratio;
        StepContext {
            h,
            substeps,
            linear_slop: self.slop(),
            max_push_out_speed: MAX_PUSH_OUT_SPEED * lu,
            max_joint_push_speed: MAX_JOINT_PUSH_SPEED * lu,
            max_speed: self.max_speed(),
            max_spin: MAX_ROTATION_PER_STEP / dt,
            settings,
            soft: Softness::new(hertz, zeta, h),
            static_soft: Softness::new(2.0 * hertz, zeta, h),
            // Box2D caps the joints' stiffness at a quarter of the
            // substep rate.
            joint_soft: Softness::new(
                settings.joint_hertz.min(0.25 / h),
                settings.joint_damping_ratio,
                h,
            ),
            parallel,
            profiling: self.settings.profiling,
        }
    }

    /// Stage 4, first part: the solve set up
    /// ([`Solver::set_up`](crate::solver::Solver::set_up)) over the awake
    /// bodies and joints and the touching contacts `with_points` (slot
    /// order): reads the world, writes nothing of it. Its parts' times
    /// go into `times`.
    fn set_up_solve(&mut self, dt: f32, ctx: &StepContext, with_points: &[u32], times: &mut SolveTimes) {
        let (gravity, h) = (self.settings.gravity, ctx.h);
        let bodies = &self.bodies;
        let limits = (ctx.max_speed, ctx.max_spin);
        let gather = |bi: u32, out: &mut SolverBody| gather_body(&bodies[bi], (gravity, dt, h), limits, out);
        self.solver.set_up(
            SolveInput {
                bodies,
                contacts: &self.contacts,
                joints: &self.joints,
                awake_bodies: self.awake.bodies.iter(),
                awake_joints: self.awake.joints.iter(),
                with_points,
                gather: &gather,
                share_bodies: ctx.parallel && self.awake.bodies.len() >= PARALLEL_BODIES,
            },
            ctx,
            times,
        );
    }

    /// Stage 4: the solve
    /// ([`Solver::solve_step`](crate::solver::Solver::solve_step)): the
    /// substeps, the impulses stored, restitution; then the hit events:
    /// each contact that began touching and asked for them is reported
    /// once, at its first push, if it approached faster than the
    /// threshold. Its parts' times go into `times`.
    fn solve(&mut self, ctx: &StepContext, times: &mut SolveTimes) {
        self.solver
            .solve_step((&mut self.contacts, &mut self.joints), ctx, times);
        self.report_hits();
    }

    /// The hit events of the solve just done (see [`World::solve`]).
    fn report_hits(&mut self) {
        let threshold = self.settings.hit_event_threshold * self.settings.length_units_per_meter;
        for (ci, k, approach) in self.solver.pushed_hits() {
            let c = &mut self.contacts[ci];
            if !c.hit_pending {
                continue;
            }
            c.hit_pending = false;
            if approach > threshold {
                let c = &self.contacts[ci];
                self.events.hit.push(ContactHit {
                    shape_a: self.shapes.key(c.shape_a).into(),
                    shape_b: self.shapes.key(c.shape_b).into(),
                    body_a: self.bodies.key(c.body_a).into(),
                    body_b: self.bodies.key(c.body_b).into(),
                    point: c.manifold.points[k].point,
                    normal: c.manifold.normal,
                    approach_speed: approach,
                });
            }
        }
    }

    /// Stage 5: freezes the bodies the solve left out because their
    /// forces overflowed, then moves each solved body by what the
    /// substeps integrated, gives it the velocities they left (within the
    /// step's limits, see `Solver::motion`) and clears its forces; a body
    /// whose state stopped being finite is frozen where it was. The
    /// bodies frozen leave their contacts. Returns the bodies that moved
    /// far enough for continuous collision and, with sleeping on, what
    /// the bodies' sleep timers say of their islands (see [`Moves`]).
    ///
    /// The bodies are moved split between the workers when `parallel` and
    /// there are [`PARALLEL_BODIES`] of them (each is its own), then the
    /// few that need more (a freeze, the islands' sleep, a sweep against
    /// the static shapes) are seen to in order on this thread: with
    /// sleeping off, every body finite and none fast, none does, and that
    /// walk is skipped. Otherwise, both in one pass.
    fn finalize_bodies(&mut self, dt: f32, ctx: &StepContext) -> Moves {
        let mut moves = std::mem::take(&mut self.scratch.moves);
        moves.clear();
        for k in 0..self.solver.non_finite().len() {
            // A user's force overflowed.
            let bi = self.solver.non_finite()[k];
            freeze(&mut self.bodies, bi, (&mut self.frozen, &mut moves.frozen));
        }
        self.move_bodies(dt, ctx, &mut moves);
        self.quarantine(&moves.frozen);
        moves
    }

    /// The body part of [`World::finalize_bodies`].
    fn move_bodies(&mut self, dt: f32, ctx: &StepContext, moves: &mut Moves) {
        let (parallel, limits) = (ctx.parallel, Limits::of(ctx));
        let sleeping = self.settings.sleeping;
        let extent = WORLD_EXTENT * self.settings.length_units_per_meter;
        if !(parallel && self.solver.moved().len() >= PARALLEL_BODIES) {
            // One pass: a second would only add a walk over the list.
            for k in 0..self.solver.moved().len() {
                let bi = self.solver.moved()[k];
                let m = finalize_body(
                    &mut self.bodies[bi],
                    self.solver.motion(k, &limits),
                    (sleeping, dt, extent),
                );
                self.after_moving(bi, m, sleeping, moves);
            }
            return;
        }
        let solver = &self.solver;
        let slots = solver.moved();
        let moved = &mut self.scratch.moved;
        moved.clear();
        moved.resize(slots.len(), Moved::default());
        // Whether some body froze or is fast: only then (or with
        // sleeping on) is there serial work.
        let serial = AtomicBool::new(false);
        let finalize = |k: usize, b: &mut Body, m: &mut Moved| {
            *m = finalize_body(b, solver.motion(k, &limits), (sleeping, dt, extent));
            if !m.finite || m.fast {
                serial.store(true, Ordering::Relaxed);
            }
        };
        crate::threads::for_each_slot_mut(true, self.bodies.slots_mut(), slots, moved, BODY_RUN, &finalize);
        if !sleeping && !serial.into_inner() {
            return;
        }
        for k in 0..self.solver.moved().len() {
            let (bi, m) = (self.solver.moved()[k], self.scratch.moved[k]);
            self.after_moving(bi, m, sleeping, moves);
        }
    }

    /// The bodies `frozen` this step leave every contact (their ends are
    /// this step's events, and what they touched wakes): a frozen body
    /// touches nothing, and no pair with it is made again until a new
    /// transform frees it.
    fn quarantine(&mut self, frozen: &[u32]) {
        for &bi in frozen {
            self.destroy_contacts_of_body(bi);
        }
        self.events.end.append(&mut self.pending_ends);
    }

    /// The serial part of [`World::finalize_bodies`] for body `bi`, once
    /// moved (`m`): a freeze, or its island's sleep, into `moves`.
    fn after_moving(&mut self, bi: u32, m: Moved, sleeping: bool, moves: &mut Moves) {
        if m.fast {
            moves.fast.push(bi);
        }
        if !m.finite {
            // Freeze it where it was rather than let NaN spread.
            freeze(&mut self.bodies, bi, (&mut self.frozen, &mut moves.frozen));
            return;
        }
        if !sleeping {
            return;
        }
        if m.sleep_time < TIME_TO_SLEEP {
            moves.keep_awake.insert(m.island);
        } else if self.islands[m.island].constraint_remove_count > 0 {
            // Wants to sleep, but its island must be split first: the
            // sleepiest such island is split this step (ties go to the
            // higher island slot, as in Box2D, so the choice depends on
            // nothing but the state).
            let better = match moves.split_candidate {
                None => true,
                Some((island, time)) => m.sleep_time > time || (m.sleep_time == time && m.island > island),
            };
            if better {
                moves.split_candidate = Some((m.island, m.sleep_time));
            }
        }
    }

    /// Stage 8: gives each moved proxy a fat box around where its body is
    /// and is heading (enlarging it in the tree; the part of the tree
    /// that loosened is rebuilt beside the next step's solve, see
    /// [`World::beside_tree_rebuild`]).
    ///
    /// Which proxies must move, and their new boxes, is found for each
    /// body independently, split between the workers when `parallel` and
    /// there are [`PARALLEL_BODIES`] (it reads each shape's copy of its
    /// fat box); the tree is then changed in order on this thread.
    /// Otherwise, both in one pass.
    fn update_broadphase(&mut self, parallel: bool) {
        let most = self.max_look_ahead();
        if !(parallel && self.solver.moved().len() >= PARALLEL_BODIES) {
            // One pass, as for the bodies.
            for k in 0..self.solver.moved().len() {
                let bi = self.solver.moved()[k];
                let what = proxy_move(
                    &self.bodies[bi],
                    (&self.shapes, &self.fat_boxes),
                    (self.last_dt, self.max_speed()),
                    most,
                );
                self.move_proxies(bi, what);
            }
            return;
        }
        let (bodies, shapes, dt) = (&self.bodies, &self.shapes, self.last_dt);
        let (fat_boxes, max_speed) = (&self.fat_boxes, self.max_speed());
        let slots = self.solver.moved();
        let moves = &mut self.scratch.proxy_moves;
        moves.clear();
        moves.resize(slots.len(), ProxyMove::Stay);
        crate::threads::for_each_indexed_mut(true, moves, BODY_RUN, |k, m| {
            *m = proxy_move(&bodies[slots[k]], (shapes, fat_boxes), (dt, max_speed), most);
        });
        for k in 0..slots.len() {
            let what = self.scratch.proxy_moves[k];
            self.move_proxies(self.solver.moved()[k], what);
        }
    }

    /// Stage 9a: splits the island `moves` chose (the sleepiest that
    /// must split before it can sleep) into its connected parts, and
    /// notes in `moves` which parts some body keeps awake.
    fn split_island(&mut self, moves: &mut Moves) {
        let Some((isl, _)) = moves.split_candidate.take() else {
            return;
        };
        self.split_now(isl);
        moves.keep_awake.remove(isl);
        let mut created = std::mem::take(&mut self.scratch.created_islands);
        created.push(isl);
        for &part in &created {
            let restless = island::bodies_of(&self.islands, &self.bodies, part)
                .any(|bi| self.bodies[bi].sleep_time < TIME_TO_SLEEP);
            if restless {
                moves.keep_awake.insert(part);
            }
        }
        created.clear();
        self.scratch.created_islands = created;
    }

    /// Stage 9b: every awake island that no body keeps awake (`moves`)
    /// and that needs no split falls asleep, in slot order.
    fn sleep_islands(&mut self, moves: &Moves) {
        let mut ready = std::mem::take(&mut self.scratch.sleepy);
        ready.clear();
        ready.extend(
            self.awake
                .islands
                .iter()
                .filter(|&i| !moves.keep_awake.contains(i) && self.islands[i].constraint_remove_count == 0),
        );
        for &isl in &ready {
            self.sleep_island(isl);
        }
        ready.clear();
        self.scratch.sleepy = ready;
    }
}

/// What the collide stage found, for the stages after it.
#[derive(Clone, Debug, Default)]
pub(super) struct Touches {
    /// The contacts whose touching, or whose fat boxes' overlap, changed,
    /// with what changed, in slot order: applied by stage 3.
    changes: Vec<(u32, ContactFlags)>,
    /// The awake contacts whose manifolds have points, in slot order: the
    /// collide stage's, then the touching contacts of islands stage 3
    /// woke (which keep the manifolds they fell asleep with). What the
    /// solver prepares, saving it a pass over every awake contact.
    with_points: Vec<u32>,
    /// The bodies sunk into a static shape as deep as a fast body moves,
    /// swept with the fast ones (see `continuous::sunk_body`).
    sunk: Vec<u32>,
    /// How many contacts kept their manifolds (see
    /// [`World::recycled_contact_count`]).
    recycled: usize,
}

impl Touches {
    /// Empties the lists, keeping their room.
    fn clear(&mut self) {
        self.changes.clear();
        self.with_points.clear();
        self.sunk.clear();
        self.recycled = 0;
    }

    /// Heap bytes held (capacities).
    pub(super) fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        self.changes.capacity() * size_of::<(u32, ContactFlags)>()
            + (self.with_points.capacity() + self.sunk.capacity()) * size_of::<u32>()
    }
}

/// What the finalize stage found, for continuous collision and sleep.
#[derive(Clone, Debug, Default)]
pub(super) struct Moves {
    /// The bodies that moved far enough for their size to be swept
    /// against the static shapes, in solver order.
    fast: Vec<u32>,
    /// The bodies frozen this step (their state stopped being finite or
    /// left the world's extent).
    frozen: Vec<u32>,
    /// With sleeping on: per island slot, set when some body of it rested
    /// too briefly to sleep.
    keep_awake: BitSet,
    /// With sleeping on: the sleepiest island that must be split before
    /// it can sleep, with its sleep time.
    split_candidate: Option<(u32, f32)>,
}

impl Moves {
    /// Empties the lists, keeping their room.
    fn clear(&mut self) {
        self.fast.clear();
        self.frozen.clear();
        self.keep_awake.clear();
        self.split_candidate = None;
    }

    /// Heap bytes held (capacities).
    pub(super) fn memory_bytes(&self) -> usize {
        (self.fast.capacity() + self.frozen.capacity()) * std::mem::size_of::<u32>()
            + self.keep_awake.memory_bytes()
    }
}

/// How a call to step `dt` runs: as `count` equal steps of `each`
/// seconds, no longer than `max_step` and no more than `max_splits` of
/// them (so a step too long for both drops the rest).
fn split_step(dt: f32, max_step: f32, max_splits: u32) -> (u32, f32) {
    if dt <= max_step {
        return (1, dt);
    }
    // (Compared as floats: the quotient of a huge `dt` is no integer.)
    let needed = (dt / max_step).ceil();
    if needed >= max_splits as f32 {
        (max_splits, max_step.min(dt / max_splits as f32))
    } else {
        let count = needed as u32;
        (count, dt / count as f32)
    }
}

/// Whether body `b`, whose points moved `position_speed` per second over
/// the step (velocity and position correction together), counts as at
/// rest for sleeping. A kinematic body rests only when the user stopped it:
/// a platform creeping at any speed keeps moving and keeps what it carries
/// awake.
/// What moving one body at the end of the step found, for the serial
/// part of [`World::finalize_bodies`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Moved {
    /// Whether its new state is finite and inside the world's extent (it
    /// was moved).
    finite: bool,
    /// Its sleep timer afterwards.
    sleep_time: f32,
    /// Its island.
    island: u32,
    /// Whether it moved far enough to be swept against the static shapes
    /// (see `continuous::is_fast`).
    fast: bool,
}

/// Moves body `b` by its `motion` over the step (velocity, angular
/// velocity, translation and rotation, as the solver integrated them) and
/// clears its forces, unless its new state is not finite or its origin
/// would lie past `extent` (then it is left where it was, to be frozen);
/// with `sleeping`, runs its sleep timer over `dt`.
fn finalize_body(
    b: &mut Body,
    (v, w, dp, dq): (Vec2, f32, Vec2, Rot),
    (sleeping, dt, extent): (bool, f32, f32),
) -> Moved {
    let center = b.center + dp;
    let q = dq * b.xf.q;
    let finite =
        is_finite_vec(center) && is_finite_vec(v) && w.is_finite() && q.c.is_finite() && q.s.is_finite();
    if !finite {
        return Moved::default();
    }
    // Renormalise: many small rotations drift off unit length.
    let mag = (q.c * q.c + q.s * q.s).sqrt();
    let q = Rot {
        c: q.c / mag,
        s: q.s / mag,
    };
    let origin = center - q.rotate(b.local_center);
    if !within_extent(origin, extent) {
        return Moved::default();
    }
    b.force = Vec2::ZERO;
    b.torque = 0.0;
    b.v = v;
    b.w = w;
    // (`dp` started from the carry: what of it the center cannot hold
    // goes on.)
    b.carry = dp - (center - b.center);
    b.center = center;
    b.xf = Transform { p: origin, q };
    // How far its farthest point moved.
    let moved = dp.length() + dq.s.abs() * b.extent;
    if sleeping {
        if resting(b, moved / dt) {
            b.sleep_time += dt;
        } else {
            b.sleep_time = 0.0;
        }
    }
    Moved {
        finite: true,
        sleep_time: b.sleep_time,
        island: b.island,
        fast: b.body_type == BodyType::Dynamic && is_fast(moved, b.min_extent),
    }
}

fn resting(b: &Body, position_speed: f32) -> bool {
    if !b.can_sleep {
        return false;
    }
    match b.body_type {
        BodyType::Kinematic => b.v == Vec2::ZERO && b.w == 0.0,
        _ => b.max_point_speed().max(POSITION_SLEEP_FACTOR * position_speed) < b.sleep_threshold,
    }
}

/// Body `b`'s state for this step's solve, with `gravity`, the step `dt`
/// and its substep `h`, into `out`, and what the solve takes of it. Its
/// velocities start within the speed and spin limits (`max_speed`,
/// `max_spin`), so nothing the solve computes from them overflows.
#[inline]
fn gather_body(
    b: &Body,
    (gravity, dt, h): (Vec2, f32, f32),
    (max_speed, max_spin): (f32, f32),
    out: &mut SolverBody,
) -> Gathered {
    if b.frozen {
        return Gathered::Skip;
    }
    let v = limit_length(b.v, max_speed);
    // (A body's joints can bound its spin further: `Solver::pick_joints`.)
    let reach_spin = max_speed / b.extent;
    let w = b.w.clamp(-max_spin, max_spin);
    let w = w.clamp(-reach_spin, reach_spin);
    match b.body_type {
        BodyType::Static => Gathered::Skip,
        BodyType::Kinematic => {
            *out = SolverBody {
                v,
                w,
                center: b.center,
                carry: b.carry,
                ..SolverBody::default()
            };
            Gathered::Solve
        }
        BodyType::Dynamic => {
            let accel = b.gravity_scale * gravity + b.inv_mass * b.force;
            let angular_accel = b.inv_inertia * b.torque;
            let finite = is_finite_vec(v + dt * accel) && (w + dt * angular_accel).is_finite();
            if !finite {
                return Gathered::NonFinite;
            }
            *out = SolverBody {
                v,
                w,
                inv_mass: b.inv_mass,
                inv_inertia: b.inv_inertia,
                accel,
                angular_accel,
                // Damping as an implicit decay per substep: stable at any
                // dt (see `BodyDef::linear_damping`).
                linear_decay: 1.0 / (1.0 + h * b.linear_damping),
                angular_decay: 1.0 / (1.0 + h * b.angular_damping),
                dynamic: true,
                center: b.center,
                carry: b.carry,
                max_spin: reach_spin,
            };
            if b.locks == MotionLocks::default() {
                Gathered::Solve
            } else {
                Gathered::Locked(b.locks)
            }
        }
    }
}

/// Stops body `bi`, whose state became non-finite (or left the world's
/// extent), where it last was, and reports it; its contacts go at the end
/// of the step's finalize (`now` lists it for
/// [`World::quarantine`]).
fn freeze(bodies: &mut Store<Body>, bi: u32, (frozen, now): (&mut Vec<BodyId>, &mut Vec<u32>)) {
    frozen.push(bodies.key(bi).into());
    now.push(bi);
    let b = &mut bodies[bi];
    b.frozen = true;
    b.v = Vec2::ZERO;
    b.w = 0.0;
    b.force = Vec2::ZERO;
    b.torque = 0.0;
}
