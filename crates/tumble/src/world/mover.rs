//! The character mover: [`CharacterController`] and [`World::move_character`].

use super::{BodyId, ShapeId, World};
use crate::collision::shape_distance;
use crate::error::{BodyError, Error};
use crate::filter::QueryFilter;
use crate::math::{is_finite_vec, Transform, Vec2};
use crate::shapes::Shape;

/// A character mover: moves a shape (a capsule, usually) the way a game
/// character moves, by queries, not by the solver: it slides along what it
/// meets, walks up slopes up to a limit and slides down steeper ones,
/// steps up stairs, keeps to the ground going down, and is pushed out of
/// whatever moved into it (a door, a rising platform) without being pushed
/// into anything else. In the spirit of Box2D v3.1's mover (cast, collide,
/// a plane solver) and Rapier's kinematic character controller (slopes,
/// autostep, snap to ground).
///
/// The mover keeps no state: each frame the game asks
/// [`World::move_character`] where its shape may go, then puts its body
/// there (a kinematic body moved by velocity pushes dynamic bodies it
/// meets). Gravity and jumping are the game's: add the gravity to the
/// frame's translation and zero it when the move says `grounded`. What the
/// character stands on carries it: a moving platform's velocity (times
/// the step) is added to the move.
///
/// ```
/// use tumble::{BodyDef, Capsule, CharacterController, Polygon, ShapeDef, Vec2, World};
///
/// let mut world = World::default();
/// let ground = world.create_body(&BodyDef::static_body().at(Vec2::new(0.0, -1.0))).unwrap();
/// world.create_shape(ground, Polygon::new_box(50.0, 1.0).unwrap(), &ShapeDef::default()).unwrap();
/// let capsule = Capsule::new(Vec2::new(0.0, -0.5), Vec2::new(0.0, 0.5), 0.3).unwrap();
/// let body = world.create_body(&BodyDef::kinematic().at(Vec2::new(0.0, 2.0))).unwrap();
/// world.create_shape(body, capsule, &ShapeDef::default()).unwrap();
///
/// let controller = CharacterController::default();
/// let (dt, walk) = (1.0 / 60.0, 3.0);
/// let mut fall = 0.0f32;
/// for _ in 0..120 {
///     fall -= 10.0 * dt;
///     let xf = world.transform(body).unwrap();
///     let desired = Vec2::new(walk, fall) * dt;
///     let m = world.move_character(&controller, &capsule.into(), xf, desired, dt, Some(body)).unwrap();
///     if m.grounded {
///         fall = 0.0;
///     }
///     // Moved by velocity, the kinematic body pushes what it walks into.
///     world.set_linear_velocity(body, m.translation / dt).unwrap();
///     world.step(dt);
/// }
/// let p = world.position(body).unwrap();
/// assert!((p.y - 0.8).abs() < 0.02 && (p.x - 6.0).abs() < 0.3, "it walks on the ground: {p:?}");
/// ```
///
/// The fields say how a character moves (every length in the world's
/// length unit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterController {
    /// Which way is up (a unit vector).
    pub up: Vec2,
    /// The gap kept between the character and what it touches, so the next
    /// cast does not start touching. Default 0.01.
    pub skin: f32,
    /// The steepest slope (radians, 0 to pi/2) the character walks up; steeper ones
    /// are walls it slides down. Default 45 degrees.
    pub max_slope: f32,
    /// The tallest step (a stair, a kerb) the character steps up when it
    /// walks into one; 0 turns stepping off. Default 0.25.
    pub step_height: f32,
    /// How deep a step's top must be to be stepped onto. Default 0.1.
    pub step_min_width: f32,
    /// How far below it the character looks for ground to keep to when it
    /// walks down a slope or off a small ledge, so it does not bounce down
    /// them; 0 turns it off. Default 0.2.
    pub snap_to_ground: f32,
    /// Which shapes the character meets (sensors never).
    pub filter: QueryFilter,
    /// Most slides (cast, stop, turn along the surface) per move. Default
    /// 4; at most 16 are taken, whatever is asked.
    pub max_slides: u32,
    /// Collision categories of one-way platforms: a shape whose filter
    /// category has any of these bits is met only from above (along
    /// `up`). The character jumps up through it and walks through it
    /// from the side, and lands and stands on it, as
    /// [`OneWayPlatforms`](crate::OneWayPlatforms) holds bodies (give the
    /// platforms a category, and list them there for the bodies). Default
    /// 0: no shape is one-way.
    pub one_way: u64,
}

impl Default for CharacterController {
    fn default() -> Self {
        CharacterController {
            up: Vec2::Y,
            skin: 0.01,
            max_slope: 45f32.to_radians(),
            step_height: 0.25,
            step_min_width: 0.1,
            snap_to_ground: 0.2,
            filter: QueryFilter::default(),
            max_slides: 4,
            one_way: 0,
        }
    }
}

impl CharacterController {
    /// Checks the numbers: every one finite, `up` not zero, the slope
    /// between 0 and a right angle, and the skin, step height, step width
    /// and snap distance not negative.
    pub fn validate(&self) -> Result<(), BodyError> {
        if !is_finite_vec(self.up) {
            return Err(BodyError::NonFinite("controller up"));
        }
        if self.up == Vec2::ZERO {
            return Err(BodyError::OutOfRange("controller up"));
        }
        if !self.max_slope.is_finite() {
            return Err(BodyError::NonFinite("controller max slope"));
        }
        if !(0.0..=std::f32::consts::FRAC_PI_2).contains(&self.max_slope) {
            return Err(BodyError::OutOfRange("controller max slope (0 to pi/2)"));
        }
        let lengths = [
            (self.skin, "controller skin"),
            (self.step_height, "controller step height"),
            (self.step_min_width, "controller step min width"),
            (self.snap_to_ground, "controller snap to ground"),
        ];
        for (x, name) in lengths {
            if !x.is_finite() {
                return Err(BodyError::NonFinite(name));
            }
            if x < 0.0 {
                return Err(BodyError::OutOfRange(name));
            }
        }
        Ok(())
    }
}

/// What [`World::move_character`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterMove {
    /// Where the shape may go this frame, from where it is.
    pub translation: Vec2,
    /// Whether it ends standing on ground it can walk on.
    pub grounded: bool,
    /// The ground's normal (up when not grounded).
    pub ground_normal: Vec2,
    /// The ground shape, if grounded.
    pub ground: Option<ShapeId>,
    /// The velocity of the ground under it (a moving platform's) where it
    /// stands, zero when not grounded. (The move already carried it along
    /// with what it stood on.)
    pub ground_velocity: Vec2,
    /// Whether it is on a slope too steep to stand on.
    pub sliding: bool,
}

/// The most slides one move takes ([`CharacterController::max_slides`]
/// above it counts as this): each slide ends on another surface, and a
/// frame's move meets a handful; the bound keeps the cost of a move
/// bounded by the shapes it meets, not by a number the caller gave.
const MAX_SLIDES: u32 = 16;

/// Planes the push-out solve keeps the character in front of, at most.
const MAX_PLANES: usize = 8;

impl World {
    /// Moves `shape`, placed at `xf`, by up to `desired` as `controller`
    /// says (see [`CharacterController`]), plus what the ground it stands
    /// on moves in the step `dt`, and returns where it may go. The shapes
    /// of `ignore` (the character's own body) are not met. The world is not
    /// changed: the game moves its body.
    ///
    /// Errors: the shape or its transform as [`World::shape_cast`] refuses
    /// them; `desired` as a cast's translation; a non-finite `dt`; a
    /// controller whose number is NaN or infinite
    /// ([`BodyError::NonFinite`], naming the field) or whose skin, step
    /// height, step width or snap distance is negative
    /// ([`BodyError::OutOfRange`]).
    pub fn move_character(
        &self,
        controller: &CharacterController,
        shape: &Shape,
        xf: Transform,
        desired: Vec2,
        dt: f32,
        ignore: Option<BodyId>,
    ) -> Result<CharacterMove, Error> {
        self.check_placed(shape, xf)?;
        self.check_query_translation(desired, "desired translation")?;
        if !dt.is_finite() {
            return Err(BodyError::NonFinite("dt").into());
        }
        controller.validate()?;
        let c = controller;
        let up = c.up.normalize_or(Vec2::Y);
        let min_up = c.max_slope.cos();
        let mover = Mover {
            world: self,
            shape,
            q: xf.q,
            controller: c,
            ignore: ignore.and_then(|b| self.body_index(b).ok()),
            carrier: None,
            up,
            min_up,
        };
        let p = mover.push_out(xf.p);
        // What it stands on as the move begins carries it along (after its
        // own move, so a platform's motion does not count as a jump).
        let standing = mover.ground_below(p, GROUND_PROBE_SKINS * c.skin);
        let carry = match standing {
            Some(hit) => self.velocity_at_point(hit.body, hit.point)? * dt.max(0.0),
            None => Vec2::ZERO,
        };
        // The carry moves the character with what it stands on, which
        // the step has yet to move: that body is no obstacle to it (a lift
        // going down would stop its own passenger).
        let carried = Mover {
            carrier: standing.and_then(|hit| self.body_index(hit.body).ok()),
            ..mover
        };
        let (mut p, mut grounded) = mover.slide_along(p, desired);
        // Keep to the ground: not when rising (a jump), and only onto
        // ground that can be walked on.
        let mut ground = None;
        let mut sliding = false;
        if desired.dot(up) <= 0.0 {
            let reach = c.snap_to_ground.max(GROUND_PROBE_SKINS * c.skin);
            if let Some(hit) = mover.cast(p, -reach * up) {
                if hit.normal.dot(up) < min_up {
                    sliding = true;
                } else if c.snap_to_ground > 0.0 || hit.fraction * reach <= GROUND_PROBE_SKINS * c.skin {
                    // Down onto it, or up out of the skin's width (the
                    // frame's fall ends short of the ground, inside it).
                    p += (hit.fraction * reach - c.skin) * -up;
                    grounded = true;
                    ground = Some(hit);
                }
            }
        }
        let (p, _) = carried.slide_along(p, carry);
        let ground_velocity = match ground {
            Some(hit) => self.velocity_at_point(hit.body, hit.point)?,
            None => Vec2::ZERO,
        };
        // The ground's velocity may carry it out of range too.
        if !is_finite_vec(p - xf.p) || !is_finite_vec(ground_velocity) {
            return Err(BodyError::NonFinite("translation").into());
        }
        Ok(CharacterMove {
            translation: p - xf.p,
            grounded: grounded && !sliding,
            ground_normal: ground.map_or(up, |h| h.normal),
            ground: ground.map(|h| h.shape),
            ground_velocity,
            sliding,
        })
    }
}

/// How many skins below it the character looks for what it stands on.
const GROUND_PROBE_SKINS: f32 = 3.0;

/// The motion left after a hit on a surface of normal `n`, turned along
/// it. A surface too steep to walk on does not lift the character: met
/// by motion that was not rising, it is a wall (only its sideways part
/// stops the character), so the game's gravity slides it down instead.
fn slide(left: Vec2, n: Vec2, up: Vec2, walkable: bool) -> Vec2 {
    let along = left - left.dot(n).min(0.0) * n;
    if walkable || along.dot(up) <= 0.0 || left.dot(up) > 0.0 {
        return along;
    }
    let wall = (n - n.dot(up) * up).normalize_or_zero();
    left - left.dot(wall).min(0.0) * wall
}

/// One move's queries: the character's shape, turned as it is, against the
/// world.
#[derive(Clone, Copy)]
struct Mover<'a> {
    world: &'a World,
    shape: &'a Shape,
    q: crate::math::Rot,
    controller: &'a CharacterController,
    ignore: Option<u32>,
    /// The body carrying the character, not met by the carry's slide.
    carrier: Option<u32>,
    /// Which way is up (unit).
    up: Vec2,
    /// The cosine of the steepest slope it walks on.
    min_up: f32,
}

impl Mover<'_> {
    fn at(&self, p: Vec2) -> Transform {
        Transform { p, q: self.q }
    }

    /// Whether shape slot `si` is something the character meets.
    fn meets(&self, si: u32) -> bool {
        let slot = &self.world.shapes[si];
        !slot.def.sensor
            && Some(slot.body) != self.ignore
            && Some(slot.body) != self.carrier
            && self.controller.filter.accepts(&slot.def.filter)
    }

    /// Whether shape slot `si` is a one-way platform (see
    /// [`CharacterController::one_way`]).
    fn one_way(&self, si: u32) -> bool {
        self.world.shapes[si].def.filter.category & self.controller.one_way != 0
    }

    /// The distance from the character at `p` to shape slot `si`, and the
    /// direction from it to the character (negative: overlapping).
    fn distance_to(&self, si: u32, p: Vec2) -> (f32, Vec2) {
        let slot = &self.world.shapes[si];
        let at = self.world.bodies[slot.body].xf;
        let d = shape_distance(&slot.shape, &at, self.shape, &self.at(p));
        (d.distance, d.normal)
    }

    /// Whether the character at `p` meets one-way platform `si` when it
    /// moves by `motion`: only coming down onto it from clear above it
    /// (not from inside it, as when it jumped up through it and turns to
    /// fall).
    fn lands_on(&self, si: u32, p: Vec2, motion: Vec2) -> bool {
        if motion.dot(self.up) >= 0.0 {
            return false;
        }
        let (distance, normal) = self.distance_to(si, p);
        distance >= 0.0 && normal.dot(self.up) >= self.min_up
    }

    /// The first thing met moving from `p` by `translation`.
    fn cast(&self, p: Vec2, translation: Vec2) -> Option<super::ShapeCastHit> {
        if translation.length_squared() <= 0.0 {
            return None;
        }
        let mask = self.controller.filter.mask;
        self.world
            .cast_shape_where(self.shape, (self.at(p), translation), mask, |si, _| {
                self.meets(si) && (!self.one_way(si) || self.lands_on(si, p, translation))
            })
    }

    /// Moves the character from `p` by up to `motion`: cast, stop a skin
    /// short of what it meets, step up onto it or turn along it, again.
    /// Where it ends, and whether it met ground it can walk on.
    fn slide_along(&self, mut p: Vec2, motion: Vec2) -> (Vec2, bool) {
        let (c, up, min_up) = (self.controller, self.up, self.min_up);
        let mut remaining = motion;
        let mut grounded = false;
        for _ in 0..c.max_slides.min(MAX_SLIDES) {
            if remaining.length_squared() <= 1e-12 {
                break;
            }
            let Some(hit) = self.cast(p, remaining) else {
                p += remaining;
                break;
            };
            let travel = (hit.fraction - c.skin / remaining.length()).max(0.0);
            p += travel * remaining;
            let left = (1.0 - travel) * remaining;
            let walkable = hit.normal.dot(up) >= min_up;
            if walkable {
                grounded = true;
            } else if let Some(stepped) = self.step_up(p, left, up, min_up) {
                return (stepped, true);
            }
            let next = slide(left, hit.normal, up, walkable);
            // A slide that neither moved the character nor turned its
            // motion would be repeated exactly by every slide after it
            // (each is a function of the place and the motion alone).
            if travel == 0.0 && next == remaining {
                break;
            }
            remaining = next;
        }
        (p, grounded)
    }

    /// Walkable ground within `reach` below the character at `p`.
    fn ground_below(&self, p: Vec2, reach: f32) -> Option<super::ShapeCastHit> {
        self.cast(p, -reach * self.up)
            .filter(|hit| hit.normal.dot(self.up) >= self.min_up)
    }

    /// Where the character at `p` must be to sit the skin's width in front
    /// of everything it overlaps or nearly touches: the smallest move that
    /// satisfies every such plane at once (Gauss-Seidel over the planes).
    /// A door closing on it pushes it along the floor, not into it.
    fn push_out(&self, p: Vec2) -> Vec2 {
        let skin = self.controller.skin;
        let xf = self.at(p);
        let mut planes = [(Vec2::ZERO, 0.0f32); MAX_PLANES];
        let mut count = 0;
        let reach = self.shape.aabb(xf).expanded(skin);
        let mask = self.controller.filter.mask;
        self.world.broadphase.query_categories(reach, mask, |proxy| {
            let si = self.world.broadphase.user_data(proxy);
            if !self.meets(si) || count == MAX_PLANES {
                return count < MAX_PLANES;
            }
            let slot = &self.world.shapes[si];
            let at = self.world.bodies[slot.body].xf;
            let d = shape_distance(&slot.shape, &at, self.shape, &xf);
            // A one-way platform holds the character up only where it
            // stands on top of it, clear of its inside.
            let held = !self.one_way(si) || (d.distance >= 0.0 && d.normal.dot(self.up) >= self.min_up);
            if held && d.distance < skin && is_finite_vec(d.normal) && d.normal != Vec2::ZERO {
                planes[count] = (d.normal, skin - d.distance);
                count += 1;
            }
            true
        });
        let planes = &planes[..count];
        let mut push = Vec2::ZERO;
        for _ in 0..8 {
            for &(n, depth) in planes {
                let short = depth - push.dot(n);
                if short > 0.0 {
                    push += short * n;
                }
            }
        }
        // Planes that cannot all be met (squeezed): move no farther than
        // the deepest overlap, rather than fly off.
        let deepest = planes.iter().map(|p| p.1).fold(0.0, f32::max);
        let length = push.length();
        if length > 2.0 * deepest && length > 0.0 {
            push *= 2.0 * deepest / length;
        }
        p + push
    }

    /// Tries to step up onto what blocked the character at `p` with the
    /// motion `left` still to go: up by the step height, forward, then
    /// down onto ground it can walk on. The new place, if the step worked.
    fn step_up(&self, p: Vec2, left: Vec2, up: Vec2, min_up: f32) -> Option<Vec2> {
        let c = self.controller;
        let forward = left - left.dot(up) * up;
        if c.step_height <= 0.0 || forward.length() <= c.skin {
            return None;
        }
        let rise = c.step_height * up;
        let raised = match self.cast(p, rise) {
            Some(hit) => p + (hit.fraction - c.skin / c.step_height).max(0.0) * rise,
            None => p + rise,
        };
        let width = forward.length().max(c.step_min_width + c.skin);
        let ahead = forward * (width / forward.length());
        let moved = match self.cast(raised, ahead) {
            Some(hit) if hit.fraction * width < c.step_min_width => return None,
            Some(hit) => raised + (hit.fraction - c.skin / width).max(0.0) * ahead,
            None => raised + ahead,
        };
        let drop = -(raised - p).dot(up) * up - c.skin * up;
        let hit = self.cast(moved, drop)?;
        if hit.normal.dot(up) < min_up || hit.fraction == 0.0 {
            return None;
        }
        let landed = moved + (hit.fraction - c.skin / drop.length()).max(0.0) * drop;
        // Only what was a real step up, and only as far as asked.
        let climbed = (landed - p).dot(up);
        if climbed <= c.skin {
            return None;
        }
        let over = (landed - p).dot(forward.normalize_or_zero()) - forward.length();
        Some(if over > 0.0 {
            landed - over * forward.normalize_or_zero()
        } else {
            landed
        })
    }
}
