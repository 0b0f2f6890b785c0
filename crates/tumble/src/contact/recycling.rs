//! Contact recycling: a pair that hardly moved keeps its manifold instead
//! of colliding its shapes again (the idea is Box2D v3.2's). The manifold's
//! points are remembered as material points of the two bodies and moved
//! with them.

use super::Contact;
use crate::body::Body;
use crate::math::{Rot, Vec2};

/// The pair's relative pose when its manifold was last computed, how far
/// it may move from there before the manifold is computed again, and the
/// manifold's points as material points of the two bodies, so a later step
/// can move them with the bodies instead of colliding the shapes again
/// (contact recycling: the idea is Box2D v3.2's). Laid out in this order,
/// what the solver reads of it first (see [`super::SOLVER_BYTES`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub(crate) struct ManifoldCache {
    /// How far (a bound on any point's motion relative to the other body)
    /// the pair may move before colliding again; 0 (the default) keeps
    /// nothing.
    pub limit: f32,
    /// Steps the manifold has been kept since it was computed (0: computed
    /// this step; it stops counting at `u32::MAX`).
    pub age: u32,
    /// When one shape is a circle resting on a side, its radius. The circle
    /// is the shape the normal does not belong to; its end is its center
    /// less the radius along the normal, and the point is found from it.
    pub circle: Option<f32>,
    /// Each point's offset from A's center of mass when the manifold was
    /// computed, in world axes: the solve's levers on A while it is kept
    /// (see [`Contact::kept_levers`]).
    pub levers_a: [Vec2; 2],
    /// Each point's offset from B's center of mass, likewise.
    pub levers_b: [Vec2; 2],
    // (What `Contact::kept_levers` reads, above, leads: see
    // `contact::SOLVER_BYTES`.)
    /// B's center of mass in A's center-of-mass frame.
    pub offset_in_a: Vec2,
    /// A's center of mass in B's center-of-mass frame.
    pub offset_in_b: Vec2,
    /// The normal in the frame of the body whose feature it is.
    pub normal: Vec2,
    /// Each point's end on A's surface, in A's body frame (for a circle,
    /// its center).
    pub anchors_a: [Vec2; 2],
    /// Each point's end on B's surface, in B's body frame (for a circle,
    /// its center).
    pub anchors_b: [Vec2; 2],
    /// A's and B's rotations when the manifold was computed (B's relative
    /// to A's is `orientations[0].inv_mul(orientations[1])`).
    pub orientations: [Rot; 2],
    /// Whether that body is B: the ids' flip flag
    /// ([`Manifold::reference_is_b`]), copied here so the check reads the
    /// cache alone: the manifold is another cache line per contact in the
    /// step's hottest check.
    pub normal_on_b: bool,
}

/// How many bytes at the head of a [`ManifoldCache`] hold what
/// [`Contact::kept_levers`] reads (see its field order).
pub(super) const SOLVER_BYTES: usize = std::mem::offset_of!(ManifoldCache, offset_in_a);

/// How far a pair may move before its manifold is computed again.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RecycleLimits {
    /// For a complete manifold with points: the recycle distance.
    pub distance: f32,
    /// For an empty one whose gap is not known: the speculative distance,
    /// so the pair cannot have come to overlap. (One whose gap is known, from
    /// a separating axis or the bodies' bounding circles, is kept while it
    /// moves less than the gap less this: see
    /// [`crate::collision::Keep::Apart`].)
    pub empty: f32,
    /// For a face's manifold: how far past the end of its face a kept
    /// corner may slide (see [`crate::collision::Keep::Face`]), so that a
    /// box standing square on another (its corners at the face's ends)
    /// keeps its manifold while it hardly moves.
    pub past_face_end: f32,
}

/// `other`'s center of mass in `frame`'s center-of-mass frame (the
/// cache's `offset_in_a` is B's in A's, `offset_in_b` A's in B's).
#[inline]
fn offset_in(frame: &Body, other: &Body) -> Vec2 {
    frame.xf.q.inv_rotate(other.center - frame.center)
}

/// The most a body may turn (the chord of the turn, about 6 degrees)
/// while a manifold it has is kept: the levers of a kept manifold do not
/// turn with it (see [`Contact::kept_levers`]). Box2D v3 allows about 11.
const MAX_KEPT_TURN: f32 = 0.1;

/// How far a point at unit distance from a body's center of mass moves
/// when the body turns by `turn`: `|R' - R| = sqrt(s^2 + (1 - c)^2)` (not
/// sqrt(2 - 2c): for turns under 2.4e-4 rad, c rounds to 1 and that form
/// says 0).
#[inline]
fn chord(turn: Rot) -> f32 {
    chord_squared(turn).sqrt()
}

/// The square of [`chord`], for comparisons (no square root).
#[inline]
fn chord_squared(turn: Rot) -> f32 {
    turn.s * turn.s + (1.0 - turn.c) * (1.0 - turn.c)
}

/// The radius to take off A's and B's anchors: a circle's, on the side the
/// normal is not on (`normal_on_b` says which that is), zero elsewhere.
#[inline]
fn circle_sides(circle: Option<f32>, normal_on_b: bool) -> (f32, f32) {
    match circle {
        Some(r) if normal_on_b => (r, 0.0),
        Some(r) => (0.0, r),
        None => (0.0, 0.0),
    }
}

impl Contact {
    /// Records the pose the manifold was just computed at, with its points
    /// split into their two surface ends fixed in the two bodies. For a
    /// circle of radius `circle` on a side, the circle's anchor is its
    /// center.
    pub(super) fn remember(&mut self, a: &Body, b: &Body, limit: f32, circle: Option<f32>) {
        let (offset_in_a, offset_in_b) = (offset_in(a, b), offset_in(b, a));
        let m = &self.manifold;
        let on_b = m.reference_is_b();
        let mut cache = ManifoldCache {
            limit,
            offset_in_a,
            offset_in_b,
            normal: if on_b { b.xf.q } else { a.xf.q }.inv_rotate(m.normal),
            normal_on_b: on_b,
            circle,
            orientations: [a.xf.q, b.xf.q],
            ..ManifoldCache::default()
        };
        // (the circle, if any, is the side the normal is not on)
        let (circle_a, circle_b) = circle_sides(circle, on_b);
        for (i, p) in m.points().iter().enumerate() {
            // The point is midway between the surfaces, `separation` apart
            // along the normal; a circle's surface is its radius from its
            // center.
            let half = 0.5 * p.separation * m.normal;
            let (end_a, end_b) = (p.point - half, p.point + half);
            cache.anchors_a[i] = a.xf.inv_apply(end_a - circle_a * m.normal);
            cache.anchors_b[i] = b.xf.inv_apply(end_b + circle_b * m.normal);
            cache.levers_a[i] = p.point - a.center;
            cache.levers_b[i] = p.point - b.center;
        }
        self.cache = cache;
    }

    /// The levers `(ra, rb)` the solve takes for point `i` of a kept
    /// manifold: its offsets from the two centers of mass as they were
    /// when it was computed, in world axes, as Box2D v3's recycled contacts
    /// keep their anchors. `None` for a manifold computed this step (its
    /// point is where the levers meet), a circle's (its point rolls), or
    /// with nothing kept.
    ///
    /// Why not the levers to where the kept point now is: kept as
    /// computed, they hold the contact's Jacobian where the manifold was
    /// computed while the pair settles, and that is the margin Box2D's
    /// recycling has under a heavy load. A box 300 times as dense resting
    /// on the light apex of a pyramid of 1 m boxes 5 cm apart (its soft
    /// contacts overlap 10 cm under that load) tips over when the levers
    /// follow the tilting bodies, as fresh collisions make them, and
    /// stands at 300 and 400 times with them kept. Box2D itself, with its
    /// recycling turned off, tips over at 300 there too. A kept lever is
    /// off from its body's material point by no more than the body's
    /// turn since (under [`MAX_KEPT_TURN`]) times its length, and the
    /// pair's motion since (under the recycle limit).
    #[inline]
    pub(crate) fn kept_levers(&self, i: usize) -> Option<(Vec2, Vec2)> {
        let k = &self.cache;
        if k.limit <= 0.0 || k.age == 0 || k.circle.is_some() {
            return None;
        }
        Some((k.levers_a[i], k.levers_b[i]))
    }

    /// Keeps the manifold if every point of one body has moved less than
    /// the remembered limit relative to the other since it was computed,
    /// counting the `step_motion` this step may add (a bound on how far
    /// any two points of the bodies close in one step), and, if it has
    /// points, neither body has turned by [`MAX_KEPT_TURN`]. Then each
    /// point moves with its two surface ends, the normal turns with the
    /// body whose feature it is, and the separations follow: exactly
    /// where the same material points now are, within the limit of what
    /// colliding again would give (the solve's levers stay as computed:
    /// see [`Contact::kept_levers`]). Returns whether it was kept.
    ///
    /// However long a pair rests, its manifold is kept (as Box2D v3 keeps
    /// a recycled one): renewing it after a fixed number of steps jolted
    /// resting piles, since a renewal can pick the other of two nearly
    /// equal reference faces, whose points have other ids and so start
    /// from no impulse. The card house's apexes, two corners meeting,
    /// are such pairs: with its one-point manifolds renewed every 240th
    /// step, its top planks moved 8 cm more over 10 s, in jumps after
    /// each renewal; renewed every 8th step, it fell. Kept, it settles
    /// by 3 cm in the first second and then stays put (Box2D's settles
    /// by 4.8 cm).
    pub(crate) fn recycle(&mut self, a: &Body, b: &Body, step_motion: f32) -> bool {
        if self.cache.limit <= 0.0 {
            return false;
        }
        let cache = &self.cache;
        let rotation = a.xf.q.inv_mul(b.xf.q);
        // A point at distance r from its center of mass turns by the
        // relative rotation through a chord of r |R' - R| (see `chord`).
        let [from_a, from_b] = cache.orientations;
        let turn = chord(from_a.inv_mul(from_b).inv_mul(rotation));
        // B's points as seen from A, or A's from B: either bounds how far
        // any two material points of the pair have moved apart or
        // together, so the smaller serves (the second is found only when
        // the first is not within the limit). Not for a circle on a side:
        // what must stay put is its center beside the side, a position in
        // the side's frame, which only that frame's view bounds.
        let moved_b = || (offset_in(a, b) - cache.offset_in_a).length() + b.extent * turn;
        let moved_a = || (offset_in(b, a) - cache.offset_in_b).length() + a.extent * turn;
        // The kept levers stay in world axes (see `kept_levers`): a pair
        // turning together (on a spinning platform), which hardly moves
        // relative to itself, is collided again once either body has
        // turned by MAX_KEPT_TURN since. An empty manifold has no levers:
        // only the pair's relative motion counts.
        let turned = || chord_squared(from_a.inv_mul(a.xf.q)).max(chord_squared(from_b.inv_mul(b.xf.q)));
        if self.manifold.count > 0 && turned() >= MAX_KEPT_TURN * MAX_KEPT_TURN {
            return false;
        }
        // (NaN motion, from a body gone non-finite, keeps nothing.)
        let within = |moved: f32| moved + step_motion < cache.limit;
        let kept = match cache.circle {
            None => within(moved_b()) || within(moved_a()),
            // The circle is A, on B's side: B's frame.
            Some(_) if cache.normal_on_b => within(moved_a()),
            Some(_) => within(moved_b()),
        };
        if !kept {
            return false;
        }
        let on_b = cache.normal_on_b;
        let normal = if on_b { b.xf.q } else { a.xf.q }.rotate(cache.normal);
        let (circle_a, circle_b) = circle_sides(cache.circle, on_b);
        let m = &mut self.manifold;
        m.normal = normal;
        for (i, p) in m.points_mut().iter_mut().enumerate() {
            // A circle's end is where its center is now, less the radius;
            // the point lies across from it, not midway to where the side's
            // end was (a rolling circle has no fixed contact point).
            let end_a = a.xf.apply(cache.anchors_a[i]) + circle_a * normal;
            let end_b = b.xf.apply(cache.anchors_b[i]) - circle_b * normal;
            p.separation = (end_b - end_a).dot(normal);
            p.point = match cache.circle {
                Some(_) if !on_b => end_b - 0.5 * p.separation * normal,
                Some(_) => end_a + 0.5 * p.separation * normal,
                None => 0.5 * (end_a + end_b),
            };
            p.persisted = true;
        }
        self.cache.age = self.cache.age.saturating_add(1);
        true
    }
}
