//! Persistent contacts: one per pair of shapes whose fat bounding boxes
//! overlap. A contact keeps its manifold from step to step, which is the
//! warm-start cache: new points inherit the impulses of old points with the
//! same feature id.
//!
//! Each contact is on the contact lists of both its bodies (its two
//! [`Edge`]s), so removing a body, changing its type or waking it visits
//! its own contacts and no others. [`Contact::collide`] is the narrowphase
//! kernel: it reads the two bodies and shapes, writes only the contact, and
//! says what changed ([`ContactFlags`]); the world applies the structural
//! consequences afterwards, serially.

mod recycling;

pub(crate) use recycling::{ManifoldCache, RecycleLimits};

use crate::body::edges::{self, Edge};
use crate::body::Body;
use crate::collision::{collide_across_seams, collide_recyclable, CornerCone, Keep, Manifold};
use crate::hooks::ContactMaterial;
use crate::math::{cross_sv, Vec2};
use crate::shapes::seams::{seams_of, SeamSlots};
use crate::shapes::{Shape, ShapeDef};
use crate::store::Store;

/// [`Contact::color`] of a contact that has no color yet.
pub(crate) const NO_COLOR: u8 = u8::MAX;

/// A contact between two shapes, kept while their fat AABBs overlap.
///
/// Laid out in this order: what the solver's prepare reads of a contact
/// (the bodies and material, the manifold, and the kept levers at the
/// head of the cache) is its first [`SOLVER_BYTES`], three cache lines
/// or four of the five it spans, and only those are asked for ahead.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub(crate) struct Contact {
    pub body_a: u32,
    pub body_b: u32,
    /// Mixed friction: `sqrt(mu_a * mu_b)`.
    pub friction: f32,
    /// Mixed restitution: `max(e_a, e_b)`.
    pub restitution: f32,
    /// Sliding speed friction drives towards (see
    /// [`crate::ContactMaterial::tangent_speed`]); set by a pre-solve hook.
    pub tangent_speed: f32,
    /// Began touching and has not pushed since: its first push is its hit
    /// (see [`crate::ContactHit`]). Only for contacts with hit events.
    pub hit_pending: bool,
    /// The color the solver's bounded coloring gave this contact
    /// ([`crate::Coloring::Bounded`]) while it is solved step after step;
    /// [`NO_COLOR`] when it was not solved last step (it has not touched
    /// yet, stopped touching, or sleeps). A loaded world's coloring is
    /// rebuilt from these.
    pub color: u8,
    /// What the contact reports and asks (from its shapes' flags).
    pub options: ContactOptions,
    /// Each shape's radius if it is a circle, else zero: the solve follows
    /// a circle's side of the separation from its center (see
    /// `solver::scalar::current_separation`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub round: [f32; 2],
    pub manifold: Manifold,
    /// Where the manifold was computed, for keeping it while the pair
    /// hardly moves.
    pub cache: ManifoldCache,
    pub shape_a: u32,
    pub shape_b: u32,
    /// Compound part bits OR-ed into every feature id.
    pub part_bits: u64,
    /// The contact's places on body A's (`edges[0]`) and body B's
    /// (`edges[1]`) contact lists.
    pub edges: [Edge; 2],
    /// The largest rolling torque per unit of normal impulse (m): the
    /// shapes' larger rolling resistance times their larger radius (see
    /// [`crate::ShapeDef::rolling_resistance`]). Read only when
    /// [`ContactOptions::ROLLING`] is set, so it lies past what the
    /// prepare asks for ahead.
    pub rolling_resistance: f32,
    /// The rolling impulse of the last step, for the warm start.
    pub rolling_impulse: f32,
}

/// How many bytes at the head of a [`Contact`] hold what the solver's
/// prepare reads of it (see its field order): its bodies and material, its
/// manifold, and what [`Contact::kept_levers`] reads of its cache.
pub(crate) const SOLVER_BYTES: usize = std::mem::offset_of!(Contact, cache) + recycling::SOLVER_BYTES;

/// What the collide stage found for one contact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ContactFlags(u8);

impl ContactFlags {
    /// The manifold gained points: the contact began touching.
    pub const STARTED_TOUCHING: ContactFlags = ContactFlags(1);
    /// The manifold lost its last point.
    pub const STOPPED_TOUCHING: ContactFlags = ContactFlags(2);
    /// The fat boxes parted: the contact is to be destroyed.
    pub const DISJOINT: ContactFlags = ContactFlags(4);
    /// The manifold was kept, not computed (contact recycling): its
    /// points moved with the bodies, or, for a pair without points whose
    /// bodies' bounding circles are still apart by its reach, left empty.
    pub const RECYCLED: ContactFlags = ContactFlags(8);
    /// The contact touches (its manifold has points) after the collide
    /// stage: the solver's.
    pub const TOUCHING: ContactFlags = ContactFlags(16);
    /// A static shape holds the contact's dynamic body sunk into it as
    /// deep as a fast body moves (see `continuous::sunk_body`): it is
    /// swept against the static shapes however slowly it moves.
    pub const SUNK: ContactFlags = ContactFlags(32);

    /// Whether every flag of `other` is set.
    #[inline]
    pub fn contains(self, other: ContactFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether the contact needs a structural change (a begin, an end or
    /// its destruction); recycling alone needs none, nor sinking.
    #[inline]
    pub fn is_structural(self) -> bool {
        self.0 & !(Self::RECYCLED.0 | Self::TOUCHING.0 | Self::SUNK.0) != 0
    }

    /// These flags and those of `other`.
    #[inline]
    pub fn with(self, other: ContactFlags) -> ContactFlags {
        ContactFlags(self.0 | other.0)
    }
}

/// What a contact reports and asks, from its two shapes' flags: a contact
/// does what either of its shapes asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct ContactOptions(u8);

impl ContactOptions {
    /// Begin and end touch events.
    pub const TOUCH_EVENTS: ContactOptions = ContactOptions(1);
    /// Hit events.
    pub const HIT_EVENTS: ContactOptions = ContactOptions(2);
    /// The pre-solve hook.
    pub const PRE_SOLVE: ContactOptions = ContactOptions(4);
    /// Rolling resistance (either shape's is positive).
    pub const ROLLING: ContactOptions = ContactOptions(8);
    /// Either shape is a polygon with seams (see
    /// [`crate::shapes::seams`]): its normals are judged against them.
    /// Kept by the world as seams come and go, not by [`ContactOptions::of`].
    pub const SEAMS: ContactOptions = ContactOptions(16);
    /// The solver solves the contact's normal rows exactly, with its
    /// stack's (see `solver::contact_trees`). Kept by the solver from
    /// step to step, not by [`ContactOptions::of`].
    pub const EXACT: ContactOptions = ContactOptions(32);

    /// The options of a contact between shapes with definitions `a`, `b`.
    pub fn of(a: &crate::ShapeDef, b: &crate::ShapeDef) -> ContactOptions {
        let one = |d: &crate::ShapeDef| {
            [
                (d.contact_events, Self::TOUCH_EVENTS),
                (d.hit_events, Self::HIT_EVENTS),
                (d.pre_solve, Self::PRE_SOLVE),
                (d.rolling_resistance > 0.0, Self::ROLLING),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .fold(0, |bits, (_, option)| bits | option.0)
        };
        ContactOptions(one(a) | one(b))
    }

    /// Whether every option of `other` is set.
    #[inline]
    pub fn contains(self, other: ContactOptions) -> bool {
        self.0 & other.0 == other.0
    }

    /// These options with those of `other` set (`on`) or cleared.
    #[inline]
    pub fn switched(self, other: ContactOptions, on: bool) -> ContactOptions {
        if on {
            ContactOptions(self.0 | other.0)
        } else {
            ContactOptions(self.0 & !other.0)
        }
    }
}

/// Per-step constants of the collide stage.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CollideContext<'a> {
    /// The step length, seconds.
    pub dt: f32,
    /// How far ahead two corners' contact aims its normal, seconds: the
    /// step and one substep more (the velocity the step leaves is held to
    /// what the gap allows over one more substep).
    pub aim_ahead: f32,
    /// The speculative distance of a resting pair.
    pub speculative: f32,
    /// How far a pair may move before its manifold is recomputed, when
    /// contact recycling is on.
    pub recycle: Option<RecycleLimits>,
    /// The polygons' seams by shape slot, which a contact marked
    /// [`ContactOptions::SEAMS`] is judged against (and no other reads).
    pub seams: &'a SeamSlots,
}

/// Mixes two friction coefficients: the geometric mean, so a frictionless
/// surface makes any contact frictionless.
#[inline]
pub fn mix_friction(a: f32, b: f32) -> f32 {
    (a * b).sqrt()
}

/// Mixes two shapes' surface speeds ([`ShapeDef::tangent_speed`](crate::ShapeDef::tangent_speed)):
/// each moves clockwise around its own shape, so at the contact they add
/// along the contact's tangent. Held within `bound` (the speed limit: a
/// belt faster than any body may move is not a belt).
#[inline]
pub(crate) fn mix_tangent_speed(a: f32, b: f32, bound: f32) -> f32 {
    crate::math::clamp_symmetric(a + b, bound)
}

/// No friction, no bounce, no surface speed: a free slot's contact's.
const NO_MATERIAL: ContactMaterial = ContactMaterial {
    friction: 0.0,
    restitution: 0.0,
    tangent_speed: 0.0,
};

/// The material shapes of definitions `a` and `b` make at their contact
/// before any hook changes it: their frictions, restitutions and surface
/// speeds mixed (the surface speeds held within `max_speed`).
pub(crate) fn mix_material(a: &ShapeDef, b: &ShapeDef, max_speed: f32) -> ContactMaterial {
    ContactMaterial {
        friction: mix_friction(a.friction, b.friction),
        restitution: mix_restitution(a.restitution, b.restitution),
        tangent_speed: mix_tangent_speed(a.tangent_speed, b.tangent_speed, max_speed),
    }
}

/// Mixes two restitutions: the bouncier wins, so a rubber ball bounces on
/// concrete.
#[inline]
pub fn mix_restitution(a: f32, b: f32) -> f32 {
    a.max(b)
}

impl Default for Contact {
    /// A contact of slot 0 with itself, on no list: the filler of a free
    /// slot.
    fn default() -> Contact {
        Contact::new([(0, 0), (0, 0)], NO_MATERIAL, 0, ContactOptions::default())
    }
}

impl Contact {
    /// A contact between shape `shape_a` of body `body_a` and shape
    /// `shape_b` of body `body_b`, with no manifold and on no list yet.
    pub(crate) fn new(
        pair: [(u32, u32); 2],
        material: ContactMaterial,
        part_bits: u64,
        options: ContactOptions,
    ) -> Contact {
        let [(shape_a, body_a), (shape_b, body_b)] = pair;
        Contact {
            shape_a,
            shape_b,
            body_a,
            body_b,
            friction: material.friction,
            restitution: material.restitution,
            tangent_speed: material.tangent_speed,
            options,
            round: [0.0; 2],
            hit_pending: false,
            color: NO_COLOR,
            part_bits,
            manifold: Manifold::default(),
            cache: ManifoldCache::default(),
            edges: [Edge::default(); 2],
            rolling_resistance: 0.0,
            rolling_impulse: 0.0,
        }
    }

    /// Whether the manifold has points (touching or within the speculative
    /// distance): what links the two bodies' islands.
    #[inline]
    pub(crate) fn touching(&self) -> bool {
        self.manifold.count > 0
    }

    /// The body at end `side` (0: A, 1: B).
    #[inline]
    pub(crate) fn body(&self, side: u32) -> u32 {
        if side == 0 {
            self.body_a
        } else {
            self.body_b
        }
    }

    /// The collide kernel for one contact whose fat boxes still overlap:
    /// keeps the manifold if the pair has hardly moved (recycling, and the
    /// flags say so), else collides the shapes again. Whether the contact
    /// began or stopped touching is [`Contact::touch_change`]'s, asked once
    /// the step is done with the manifold (a pre-solve hook may still
    /// [`Contact::disable`] it). Reads only its arguments and writes only
    /// `self`, so contacts can be collided in any order, or at once.
    pub(crate) fn collide(
        &mut self,
        shape_a: &Shape,
        a: &Body,
        shape_b: &Shape,
        b: &Body,
        ctx: &CollideContext,
    ) -> ContactFlags {
        // Speculative margin: the base distance, plus how far the pair can
        // close in one step, so a fast body gets its contact points before
        // it would pass through (speculative continuous collision). Resting
        // pairs keep the small base margin.
        let closing = (b.v - a.v).length() + a.w.abs() * a.extent + b.w.abs() * b.extent;
        let reach = ctx.dt * closing;
        if ctx.recycle.is_some() {
            // A pair without points whose bodies' bounding circles are
            // still apart by the reach keeps its empty manifold, for less
            // than the recycle test costs. Its cache stays that of its
            // last collision, from which the recycle test still measures
            // a valid bound (so later steps may keep or recompute the
            // empty manifold at other steps than before, never wrongly).
            if !self.touching() && bounding_gap(a, b) > ctx.speculative + reach {
                self.cache.age = self.cache.age.saturating_add(1);
                return ContactFlags::RECYCLED;
            }
            if self.recycle(a, b, reach) {
                return ContactFlags::RECYCLED;
            }
        }
        // (Two copies of the update: the one for pairs without seams is
        // the whole of it, with no test for seams inside.)
        if self.options.contains(ContactOptions::SEAMS) {
            self.update::<true>((shape_a, a), (shape_b, b), reach, ctx);
        } else {
            self.update::<false>((shape_a, a), (shape_b, b), reach, ctx);
        }
        ContactFlags::default()
    }

    /// `flags` plus whether the contact touches and whether it began or
    /// stopped touching since it was `was_touching`.
    #[inline]
    pub(crate) fn touch_change(&self, was_touching: bool, flags: ContactFlags) -> ContactFlags {
        let change = match (was_touching, self.touching()) {
            (false, true) => ContactFlags::STARTED_TOUCHING.0,
            (true, false) => ContactFlags::STOPPED_TOUCHING.0,
            _ => 0,
        };
        let touching = if self.touching() {
            ContactFlags::TOUCHING.0
        } else {
            0
        };
        ContactFlags(flags.0 | change | touching)
    }

    /// Disables the contact for this step (a pre-solve hook said so): its
    /// manifold is emptied and nothing of it is kept for recycling, so it
    /// pushes nothing, counts as not touching, and is collided afresh next
    /// step.
    pub(crate) fn disable(&mut self) {
        self.manifold = Manifold {
            normal: self.manifold.normal,
            ..Manifold::default()
        };
        self.cache.limit = 0.0;
    }

    /// Recomputes the manifold of the shapes on bodies `a` and `b` and
    /// carries the accumulated impulses of points whose feature ids
    /// persist. The shapes are collided out to the context's speculative
    /// distance plus `reach`, the farthest the pair can close in the step
    /// (a bound over all its points); of the features found, a point is
    /// kept only if it is within the speculative distance plus how far
    /// its own approach speed closes it in the step (see
    /// [`reachable_points`]). With recycling on, it also remembers where
    /// it was computed and how far the pair may move before the next.
    /// With `SEAMED` (a contact marked [`ContactOptions::SEAMS`]), the
    /// manifold is judged against its shapes' seams.
    pub(crate) fn update<const SEAMED: bool>(
        &mut self,
        (shape_a, a): (&Shape, &Body),
        (shape_b, b): (&Shape, &Body),
        reach: f32,
        ctx: &CollideContext,
    ) {
        let (speculative, dt, limits) = (ctx.speculative, ctx.dt, ctx.recycle);
        // Two bodies whose bounding circles (about their centers of mass,
        // of radius their extents) are farther apart than the reach have
        // no point, found for the price of a square root rather than a
        // shape test; the circles' gap bounds the surfaces' from below, as
        // a separating axis's does. (With recycling on, `collide` keeps
        // such a pair's empty manifold before it gets here: this catches a
        // pair that had points last step, and every pair with recycling
        // off.)
        let gap = bounding_gap(a, b);
        let (mut manifold, keep) = if gap > speculative + reach {
            (Manifold::default(), Keep::Apart { gap })
        } else if SEAMED {
            collide_across_seams(
                (shape_a, seams_of(ctx.seams, self.shape_a), a.xf),
                (shape_b, seams_of(ctx.seams, self.shape_b), b.xf),
                speculative + reach,
            )
        } else {
            collide_recyclable(shape_a, a.xf, shape_b, b.xf, speculative + reach)
        };
        if let Keep::Corners { cone, .. } = keep {
            aim_corners(&mut manifold, &cone, a, b, ctx.aim_ahead);
        }
        let nearest = match keep {
            Keep::Nearest | Keep::Corners { recyclable: true, .. } => manifold.min_separation(),
            _ => None,
        };
        reachable_points(&mut manifold, a, b, speculative, dt);
        self.take(manifold);
        let count = self.manifold.count;
        let (limit, circle) = match (limits, keep) {
            (None, _)
            | (
                _,
                Keep::Never
                | Keep::Corners {
                    recyclable: false, ..
                },
            ) => (0.0, None),
            // No point (a face's manifold `reachable_points` emptied is
            // one too): the pair may not come to overlap.
            (Some(l), Keep::Complete) => (l.empty, None),
            (Some(l), Keep::Face { .. }) if count == 0 => (l.empty, None),
            // A separating axis: while the pair moves less than the gap
            // less the speculative distance (this step's motion counted),
            // a fresh collision would find no point either.
            (Some(l), Keep::Apart { gap }) => (gap - l.empty, None),
            (Some(l), Keep::Face { margin }) => (l.distance.min(margin + l.past_face_end), None),
            // The nearest point of two apart cores: any other feature is
            // at least that far apart, so while the pair moves less than
            // the gap, none of them can touch.
            (Some(l), Keep::Nearest | Keep::Corners { recyclable: true, .. }) => {
                (l.distance.min(nearest.unwrap_or(0.0)), None)
            }
            // While the center cannot have passed the end of its side.
            (Some(l), Keep::Circle { margin, radius, .. }) => (l.distance.min(margin), Some(radius)),
        };
        if limit > 0.0 {
            self.remember(a, b, limit, circle);
        } else {
            self.cache.limit = 0.0;
        }
    }

    /// Takes `m` as the new manifold, carrying the accumulated impulses of
    /// points whose feature ids persist.
    fn take(&mut self, mut m: Manifold) {
        let old = self.manifold;
        for p in m.points_mut() {
            p.id |= self.part_bits;
            p.normal_impulse = 0.0;
            p.tangent_impulse = 0.0;
            p.persisted = false;
            if let Some(o) = old.points().iter().find(|o| o.id == p.id) {
                p.normal_impulse = o.normal_impulse;
                p.tangent_impulse = o.tangent_impulse;
                p.persisted = true;
            }
        }
        self.manifold = m;
    }
}

edges::impl_linked!(Contact, contacts);

/// The gap between the bounding circles of bodies `a` and `b` (about
/// their centers of mass, of radius their extents): a lower bound on the
/// distance between any of their shapes.
#[inline]
fn bounding_gap(a: &Body, b: &Body) -> f32 {
    (b.center - a.center).length() - a.extent - b.extent
}

/// The velocity of `body`'s material point at `point` (world).
#[inline]
fn velocity_at(body: &Body, point: Vec2) -> Vec2 {
    body.v + cross_sv(body.w, point - body.center)
}

/// Aims the normal of `m`, two corners' one point, within `cone` at where
/// the pair of bodies `a` and `b` will be `ahead` seconds on (the point on
/// B moving at the bodies' relative velocity there; see [`CornerCone`]):
/// corners passing each other are held apart along the face one is
/// passing over, not braked along the line between them.
#[inline]
fn aim_corners(m: &mut Manifold, cone: &CornerCone, a: &Body, b: &Body, ahead: f32) {
    let Some(p) = m.points().first() else {
        return;
    };
    let motion = ahead * (velocity_at(b, p.point) - velocity_at(a, p.point));
    // The cores' corners, and the solver's ends of the point along any
    // direction of the cone, lie within the separation and the rounding
    // of the point: spin moves them at most this much more than it.
    let slack = ahead * (a.w.abs() + b.w.abs()) * (p.separation.max(0.0) + cone.radius);
    if let Some((normal, separation)) = cone.aim(m.normal, p.separation, motion, slack) {
        m.normal = normal;
        m.points[0].separation = separation;
    }
}

/// Drops the points of `m` the pair of bodies `a` and `b` cannot reach in
/// the step of `dt`: those farther apart than `speculative` plus the
/// distance their own approach speed (the bodies' relative velocity at
/// the point, along the normal) closes in the step. Such a point would
/// be a constraint that pushes nothing: boxes sliding past each other, a
/// box spinning beside a wall whose near corner is turning away. What
/// the velocities do during the step is covered by `speculative`, as for
/// a pair at rest. A point kept out stays out of a recycled manifold too,
/// safely: recycling counts a bound on this step's closing on top of the
/// motion since the collision, so the point is still out of reach.
#[inline]
fn reachable_points(m: &mut Manifold, a: &Body, b: &Body, speculative: f32, dt: f32) {
    let normal = m.normal;
    let count = m.count;
    let mut kept = 0;
    for i in 0..count {
        let p = m.points[i];
        let approach = || (velocity_at(a, p.point) - velocity_at(b, p.point)).dot(normal);
        // (Most points are within the speculative distance: their speeds
        // are not needed. A NaN separation or velocity keeps the point:
        // the step's checks report bodies gone non-finite.)
        let out_of_reach =
            p.separation > speculative && p.separation > speculative + dt * approach().max(0.0);
        if !out_of_reach {
            m.points[kept] = p;
            kept += 1;
        }
    }
    m.count = kept;
}

/// The contacts on a body's list, head first, as `(contact, side)`: the
/// body is end `side` of each.
#[inline]
pub(crate) fn body_contacts<'a>(
    contacts: &'a Store<Contact>,
    body: &Body,
) -> impl Iterator<Item = (u32, u32)> + 'a {
    edges::on_body(contacts, body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of, size_of_val};

    /// Everything the solver's prepare reads of a contact lies in its
    /// first [`SOLVER_BYTES`], which is what the prepare asks for ahead:
    /// at most three lines' worth of the contact's five.
    #[test]
    fn what_the_prepare_reads_leads_the_contact() {
        let c = Contact::new(
            [(0, 1), (2, 3)],
            ContactMaterial {
                friction: 0.5,
                ..NO_MATERIAL
            },
            0,
            ContactOptions::default(),
        );
        let ends = |offset: usize, size: usize| offset + size;
        let cache = offset_of!(Contact, cache);
        let read = [
            ends(offset_of!(Contact, body_a), size_of_val(&c.body_a)),
            ends(offset_of!(Contact, body_b), size_of_val(&c.body_b)),
            ends(offset_of!(Contact, friction), size_of_val(&c.friction)),
            ends(offset_of!(Contact, restitution), size_of_val(&c.restitution)),
            ends(offset_of!(Contact, tangent_speed), size_of_val(&c.tangent_speed)),
            ends(offset_of!(Contact, hit_pending), size_of_val(&c.hit_pending)),
            ends(offset_of!(Contact, color), size_of_val(&c.color)),
            ends(offset_of!(Contact, manifold), size_of_val(&c.manifold)),
            cache + ends(offset_of!(ManifoldCache, limit), size_of_val(&c.cache.limit)),
            cache + ends(offset_of!(ManifoldCache, age), size_of_val(&c.cache.age)),
            cache + ends(offset_of!(ManifoldCache, circle), size_of_val(&c.cache.circle)),
            cache
                + ends(
                    offset_of!(ManifoldCache, levers_a),
                    size_of_val(&c.cache.levers_a),
                ),
            cache
                + ends(
                    offset_of!(ManifoldCache, levers_b),
                    size_of_val(&c.cache.levers_b),
                ),
        ];
        assert!(
            read.iter().all(|&end| end <= SOLVER_BYTES),
            "{read:?} past {SOLVER_BYTES}"
        );
        assert!(SOLVER_BYTES <= 3 * 64 && size_of::<Contact>() > 4 * 64);
    }
}
