//! Continuous collision: a dynamic body that moved far in one step is
//! swept against the static shapes and stopped where it first meets one,
//! as Box2D v3 stops its fast bodies.
//!
//! A step's contacts are made from where the bodies were at its start,
//! looking ahead as far as their velocities then reached. A body that
//! something flings within the step (a joint whose far anchor swings it,
//! a crushed pile squeezing it out) moves farther than that look-ahead,
//! with no contact ahead of it, and a wall thinner than its step's travel
//! does not stop it. So each body that moved farther than
//! [`CONTINUOUS_SAFETY_FACTOR`] of its thinnest shape's min extent
//! (`World::move_bodies` lists them), and each that a static shape holds
//! sunk that deep (the collide stage lists them: see [`sunk_body`]), is
//! swept from its start pose to its end pose, its center of mass in a
//! straight line and turning about it, against each static shape its
//! shapes may collide with, and put back to where it first met one
//! (see `World::first_impact` for what counts). The next step's contact,
//! its fat box made around where the body now is, takes it from there.
//! Static shapes only: a moving body is met by the contacts, which see
//! both bodies move.

use super::pair_rules::{may_collide, shape_pair};
use super::World;
use crate::body::{Body, BodyType};
use crate::collision::{
    collide_across_seams, shape_distance, surface_normal, sweep_time_of_impact, DistanceOutput, Sweep,
};
use crate::contact::{mix_material, Contact};
use crate::hooks::ContactHooks;
use crate::math::{cross, cross_sv, right_perp, Transform, Vec2};
use crate::settings::{
    CONTINUOUS_CORE_FRACTION, CONTINUOUS_SAFETY_FACTOR, LINEAR_SLOP, SPECULATIVE_DISTANCE,
};
use crate::shapes::seams::Seams;
use crate::shapes::{ChainSegment, Circle, Shape};

/// Whether a body of thinnest extent `min_extent` that moved `motion` (its
/// farthest point's travel over the step) must be swept: it may have
/// passed through a static shape.
#[inline]
pub(super) fn is_fast(motion: f32, min_extent: f32) -> bool {
    motion > CONTINUOUS_SAFETY_FACTOR * min_extent
}

/// The dynamic body of contact `c` (whose bodies are `a` and `b`), if
/// the other is static and holds it sunk in deeper than
/// [`CONTINUOUS_SAFETY_FACTOR`] of its min extent: as deep as a fast body
/// moves in a step. Something drives it in that the contact cannot push
/// back against (a joint that cannot be satisfied, a crushing pile), and
/// creeping on, however slowly, it would be through in the end: it is
/// swept like a fast body, so its core is held out.
#[inline]
pub(super) fn sunk_body(c: &Contact, (a, b): (&Body, &Body)) -> Option<u32> {
    // A contact of two dynamic bodies (nearly all of them) is told by
    // their masses, which the collide stage has just read, before their
    // types, which lie farther into the body.
    if a.inv_mass != 0.0 && b.inv_mass != 0.0 {
        return None;
    }
    let (body, min_extent) = match (a.body_type, b.body_type) {
        (BodyType::Static, BodyType::Dynamic) => (c.body_b, b.min_extent),
        (BodyType::Dynamic, BodyType::Static) => (c.body_a, a.min_extent),
        _ => return None,
    };
    let depth = -c.manifold.min_separation()?;
    (depth > CONTINUOUS_SAFETY_FACTOR * min_extent).then_some(body)
}

impl World {
    /// Where body `bi` went over the step: from where it started (its
    /// motion undone) to where it is, if it was solved, else standing
    /// still.
    pub(super) fn sweep_of(&self, bi: u32) -> (Transform, Transform) {
        let b = &self.bodies[bi];
        match self.solver.motion_of_slot(bi) {
            Some((dp, dq)) if !b.frozen => {
                let q = dq.inv_mul(b.xf.q);
                let start = Transform {
                    p: b.center - dp - q.rotate(b.local_center),
                    q,
                };
                (start, b.xf)
            }
            _ => (b.xf, b.xf),
        }
    }

    /// Stage 6: each body of `fast` (those `World::move_bodies` found
    /// fast) and of `sunk` (those the collide stage found sunk) is swept
    /// against the static shapes and put back to its first time of impact
    /// with one, if it has one; its motion over the step is cut to match
    /// (the sensors sweep what it really did). Each body's sweep reads
    /// only itself and static shapes, so the order changes nothing.
    /// `fast` is left holding every body swept.
    pub(super) fn solve_continuous(&mut self, fast: &mut Vec<u32>, sunk: &[u32], hooks: &dyn ContactHooks) {
        if !sunk.is_empty() {
            // (A body may be both, and sunk in several static shapes.)
            fast.extend_from_slice(sunk);
            fast.sort_unstable();
            fast.dedup();
        }
        for &bi in fast.iter() {
            let poses = self.sweep_of(bi);
            if let Some((hit, sweep)) = self.first_impact(bi, poses, hooks) {
                let b = &mut self.bodies[bi];
                b.xf = sweep.at(hit.t);
                b.center = b.xf.apply(b.local_center);
                b.carry = Vec2::ZERO;
                if let Some((normal, point)) = hit.core {
                    stop_sinking(b, normal, point);
                }
                let start = poses.0;
                let dp = b.center - start.apply(b.local_center);
                self.solver.set_motion_of_slot(bi, dp, start.q.inv_mul(b.xf.q));
            }
        }
    }

    /// The first fraction of the step at which body `bi`, moving from pose
    /// `start` to pose `end` (its center of mass in a straight line,
    /// turning about it), comes within the linear slop of a static shape
    /// its shapes collide with, if it does before the step's end; with the
    /// sweep it followed.
    ///
    /// Each shape is swept whole, and a body so stopped keeps its
    /// velocity, for the next step's contact to stop it or bounce it, as
    /// Box2D's does; but one that the step leaves in front of the static
    /// shape, or in it no deeper than its core, is left where the solver
    /// put it (see `ends_in_front`). A shape that starts the step already that close
    /// (resting on the static shape, sliding along it) is swept again as
    /// its core, a circle of [`CONTINUOUS_CORE_FRACTION`] of its min
    /// extent about its centroid: it may slide on and sink in as far as
    /// the contact lets it, but its core does not pass through. A core
    /// that starts touching too (the contact lost to a joint or a
    /// crushing pile that drove the body in) is held where it is if the
    /// step takes it deeper. A body that its core stopped was deep in the
    /// static shape already, and loses the velocity that took it in (see
    /// [`stop_sinking`]). A chain segment, solid on one side, stops only
    /// what comes at it from that side. A pair whose shapes ask for the
    /// pre-solve hook is stopped only if the hook keeps the contact they
    /// would make there (a one-way platform lets a body through from
    /// below).
    fn first_impact(
        &self,
        bi: u32,
        (start, end): (Transform, Transform),
        hooks: &dyn ContactHooks,
    ) -> Option<(Hit, Sweep)> {
        let target = LINEAR_SLOP * self.settings.length_units_per_meter;
        // (Made when a static shape is near: most fast bodies meet none.)
        let mut sweep = None;
        let mut first = Hit { t: 1.0, core: None };
        // Among equal times the lowest static shape slot wins: the search
        // meets the shapes in its tree's order, which depends on when the
        // tree was last rebuilt, and so on the worker count.
        let mut first_other = u32::MAX;
        for &si in &self.bodies[bi].shapes {
            let slot = &self.shapes[si];
            if slot.def.sensor {
                continue;
            }
            let shape = &slot.shape;
            let swept = shape.aabb(start).union(shape.aabb(end));
            self.broadphase
                .query_static(swept, slot.def.filter.pair_mask(), |proxy| {
                    let other = self.broadphase.user_data(proxy);
                    if !self.may_stop(si, other, hooks) {
                        return true;
                    }
                    let other_slot = &self.shapes[other];
                    let still = self.bodies[other_slot.body].xf;
                    if let Shape::ChainSegment(chain) = &other_slot.shape {
                        let travel = (start.apply(shape.centroid()), end.apply(shape.centroid()));
                        if passes_chain(chain, still, travel, shape.min_extent()) {
                            return true;
                        }
                    }
                    let sweep =
                        *sweep.get_or_insert_with(|| Sweep::new(self.bodies[bi].local_center, (start, end)));
                    let seams = self.seams.of(other);
                    let hit =
                        impact((&other_slot.shape, still, seams), (shape, sweep), target).filter(|hit| {
                            (hit.t < first.t || (hit.t == first.t && other < first_other))
                                && self.hook_keeps(si, other, sweep.at(hit.t), hooks)
                        });
                    if let Some(hit) = hit {
                        first = hit;
                        first_other = other;
                    }
                    true
                });
        }
        sweep.filter(|_| first.t < 1.0).map(|sweep| (first, sweep))
    }

    /// Whether static shape `other` may stop the shape `si` of a fast
    /// body: it is static and the two may collide (`step::may_collide`).
    fn may_stop(&self, si: u32, other: u32, hooks: &dyn ContactHooks) -> bool {
        self.bodies[self.shapes[other].body].body_type == BodyType::Static
            && may_collide(
                (&self.shapes, &self.bodies, &self.joints),
                (si.min(other), si.max(other)),
                hooks,
            )
    }

    /// Whether the pre-solve hook, if either shape asks for it, keeps the
    /// contact that shape `si` at `pose` would make with static shape
    /// `other` (in the contact's order, the lower shape slot first).
    fn hook_keeps(&self, si: u32, other: u32, pose: Transform, hooks: &dyn ContactHooks) -> bool {
        let (a, b) = (&self.shapes[si], &self.shapes[other]);
        if !(a.def.pre_solve || b.def.pre_solve) {
            return true;
        }
        let speculative = SPECULATIVE_DISTANCE * self.settings.length_units_per_meter;
        let still = self.bodies[b.body].xf;
        let (low, high) = (si.min(other), si.max(other));
        let xf = |s: u32| if s == si { pose } else { still };
        let (sa, sb) = (&self.shapes[low].shape, &self.shapes[high].shape);
        // (The manifold the step would give the hook: across seams, as the
        // contact's own; a corner contact's normal unaimed, the pair met.)
        let (manifold, _) = collide_across_seams(
            (sa, self.seams.of(low), xf(low)),
            (sb, self.seams.of(high), xf(high)),
            speculative,
        );
        // (What the hook makes of the material is for a contact: here
        // only its answer counts.)
        let mut material = mix_material(&a.def, &b.def, self.max_speed());
        hooks.pre_solve(
            &shape_pair(&self.shapes, &self.bodies, low, high),
            &manifold,
            &mut material,
        )
    }
}

/// Where a sweep first meets a static shape.
#[derive(Clone, Copy, Debug)]
struct Hit {
    /// The fraction of the step.
    t: f32,
    /// When it is the shape's core that met it (the shape was in it
    /// already): the normal out of the static shape there, and the
    /// core's center.
    core: Option<(Vec2, Vec2)>,
}

/// The static shape a fast one is swept against: its shape, where it is,
/// and its seams if it is a polygon that has any.
type Still<'a> = (&'a Shape, Transform, Option<&'a Seams>);

/// [`shape_distance`] from the static shape `still` to `shape` at `pose`,
/// its normal the one the welded surface has there (see
/// [`surface_normal`]): a fast body sliding over the seam between two
/// tiles meets the tiles' top, not the corner of the one ahead.
fn distance_from((still, xf, seams): Still<'_>, shape: &Shape, pose: Transform) -> DistanceOutput {
    let mut d = shape_distance(still, &xf, shape, &pose);
    if let (Some(seams), Shape::Polygon(p)) = (seams, still) {
        d.normal = surface_normal(p, seams, xf, d.normal, d.point_a);
    }
    d
}

/// When `shape`, moving by `sweep`, first comes within `target` of the
/// static shape `still`, as [`World::first_impact`] rules: the whole
/// shape's time of impact; if it starts that close, its core's; if that
/// starts touching too, the start if the core is sinking deeper (held),
/// else none.
fn impact(still: Still<'_>, (shape, sweep): (&Shape, Sweep), target: f32) -> Option<Hit> {
    let (fixed_shape, xf, _) = still;
    let fixed = Sweep::new(Vec2::ZERO, (xf, xf));
    let hit = |moving: &Shape| sweep_time_of_impact((fixed_shape, fixed), (moving, sweep), target);
    let t = hit(shape)?;
    if t > 0.0 {
        return (!ends_in_front(still, shape, sweep, t)).then_some(Hit { t, core: None });
    }
    let core = core_of(shape)?;
    let t = hit(&core)?;
    let pose = sweep.at(t);
    let normal = distance_from(still, &core, pose).normal;
    let center = pose.apply(core.centroid());
    // A core touching from the start is held only if the step takes it
    // deeper by more than the target.
    let later = sweep.at(1.0).apply(core.centroid());
    let held = t > 0.0 || normal.dot(later - center) < -target;
    held.then_some(Hit {
        t,
        core: Some((normal, center)),
    })
}

/// Whether `shape`, which `sweep` brings to the static shape `still`
/// (placed at `xf`) at fraction `t`, ends the step on the side it came
/// from, in it no deeper than its core's radius: the solver's contact
/// stopped it (a fast limb landing on the ground), or the next step's
/// contact will push it out as it pushes a slow body. Put back to `t`,
/// it would leave the step's motion behind and pull on its joints (a
/// walker's foot held above the ground it stands on, its leg dragged
/// out of its hip); only a shape that would end deeper, or through, or
/// round a corner of the static shape (the side it ends on turned more
/// than [`FRONT_TURN_COS`] from the side it met), is stopped.
fn ends_in_front(still: Still<'_>, shape: &Shape, sweep: Sweep, t: f32) -> bool {
    let came = distance_from(still, shape, sweep.at(t)).normal;
    let end = distance_from(still, shape, sweep.at(1.0));
    end.normal.dot(came) > FRONT_TURN_COS && end.distance >= -CONTINUOUS_CORE_FRACTION * shape.min_extent()
}

/// The cosine of the largest turn, from the side of a static shape a fast
/// shape met to the side it ends the step on, for which [`ends_in_front`]
/// counts it in front: 60 degrees. A shape that ends beside the slab it
/// met, past its end, went round or through its corner.
const FRONT_TURN_COS: f32 = 0.5;

/// Takes from body `b` the velocity of its point `point` into a static
/// shape along `normal` (the normal out of it), as an inelastic impulse
/// at that point would: a body whose core a static shape stops, deep in
/// it already, does not keep a speed into it that it does not move by,
/// and that its joints would hand on to the bodies they hold.
fn stop_sinking(b: &mut Body, normal: Vec2, point: Vec2) {
    let r = point - b.center;
    let approach = (b.v + cross_sv(b.w, r)).dot(normal);
    let rn = cross(r, normal);
    let k = b.inv_mass + b.inv_inertia * rn * rn;
    if approach < 0.0 && k > 0.0 {
        let impulse = -approach / k;
        b.v += b.inv_mass * impulse * normal;
        b.w += b.inv_inertia * rn * impulse;
    }
}

/// The core of `shape` that continuous collision sweeps when the shape
/// itself starts the step touching: a circle of
/// [`CONTINUOUS_CORE_FRACTION`] of its min extent about its centroid
/// (none for a segment, which has no inside).
fn core_of(shape: &Shape) -> Option<Shape> {
    let radius = CONTINUOUS_CORE_FRACTION * shape.min_extent();
    Circle::new(shape.centroid(), radius).ok().map(Shape::Circle)
}

/// Whether a shape of min extent `min_extent` whose centroid travels from
/// `travel.0` to `travel.1` has nothing to fear from `chain` (placed at
/// `xf`), solid on its right side only: it starts behind it, or moves
/// along it less than its core's radius deeper and ends in front of it
/// by more (Box2D's test, which keeps a body sliding fast over a chain
/// from stopping at each segment).
fn passes_chain(chain: &ChainSegment, xf: Transform, travel: (Vec2, Vec2), min_extent: f32) -> bool {
    let (p1, p2) = (xf.apply(chain.segment.point1), xf.apply(chain.segment.point2));
    let normal = right_perp(p2 - p1).normalize_or_zero();
    if normal == Vec2::ZERO {
        return false;
    }
    let (before, after) = (normal.dot(travel.0 - p1), normal.dot(travel.1 - p1));
    let core = CONTINUOUS_CORE_FRACTION * min_extent;
    before < 0.0 || (before - after < core && after > core)
}
