//! The shape API: attach, remove, read and change shapes, and keep their
//! broadphase proxies where their bodies are.

use super::checks::check_shape;
use super::{BodyId, ShapeId, World};
use crate::body::{Body, BodyType, NULL};
use crate::broadphase::predictive_fat_aabb;
use crate::contact::{body_contacts, mix_tangent_speed, ContactOptions};
use crate::error::{BodyError, Error};
use crate::filter::Filter;
use crate::math::{limit_length, Aabb, Vec2};
use crate::settings::{AABB_MARGIN, AABB_MARGIN_FRACTION, SPECULATIVE_DISTANCE};
use crate::shapes::{chain_segments, decompose_concave, MassData, Shape, ShapeDef};
use crate::store::Store;

/// How many steps of motion ahead a moving shape's re-built fat box
/// reaches, so it is re-inserted in the broadphase tree every few steps, not
/// every step.
const PREDICTION_STEPS: f32 = 2.0;

/// The stretch along its velocity of a moving shape's re-built fat box,
/// past the next step it already covers: [`PREDICTION_STEPS`] more steps
/// of `travel` (one step's), at most `most` long. Slow shapes keep their
/// boxes for a few steps; a fast one's box does not run far ahead of it,
/// pairing it with all it passes. Uncapped, flying debris keeps contacts
/// with everything along its path (several times the contacts it will
/// ever touch); with no look-ahead at all, every moving shape rebuilds
/// its box nearly every step. The cap trades a few more rebuilds for a
/// swinging body against far fewer pairs for a flying one.
fn look_ahead(travel: Vec2, most: f32) -> Vec2 {
    (PREDICTION_STEPS * travel).clamp_length_max(most)
}

/// A shape as the world keeps it (its slot and generation are the store's).
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(super) struct ShapeSlot {
    pub body: u32,
    pub shape: Shape,
    pub def: ShapeDef,
    pub proxy: u32,
    /// Index of this shape among its body's shapes when it was added: the
    /// compound part index that goes into feature ids.
    pub part: u32,
    /// How far its fat box reaches beyond its tight one (see
    /// [`AABB_MARGIN_FRACTION`]).
    pub margin: f32,
    /// Its slot in the sensor store, or [`NULL`](crate::body::NULL) if it
    /// is not a sensor.
    pub sensor: u32,
}

impl Default for ShapeSlot {
    /// A unit circle on body 0: the filler of a free slot.
    fn default() -> ShapeSlot {
        ShapeSlot {
            body: 0,
            shape: Shape::Circle(crate::shapes::Circle {
                center: Vec2::ZERO,
                radius: 1.0,
            }),
            def: ShapeDef::default(),
            proxy: 0,
            part: 0,
            margin: 0.0,
            sensor: crate::body::NULL,
        }
    }
}

impl World {
    pub(super) fn shape_index(&self, id: ShapeId) -> Result<u32, BodyError> {
        if self.shapes.is_current(id.index, id.generation) {
            Ok(id.index)
        } else {
            Err(BodyError::StaleHandle)
        }
    }

    pub(super) fn shape_id(&self, index: u32) -> ShapeId {
        self.shapes.key(index).into()
    }

    /// Attaches a shape to a body; the body's mass is recomputed from all its
    /// shapes. Several shapes on one body make a compound body.
    ///
    /// Errors: a stale body handle, a non-positive or non-finite density, a
    /// negative friction or restitution, a hand-built shape that breaks the
    /// constructors' rules ([`Shape::validate`]), a shape whose mass
    /// overflows ([`ShapeError::MassOverflow`](crate::ShapeError::MassOverflow)), or one reaching farther
    /// from the body's origin than the world extent
    /// ([`ShapeError::TooFar`](crate::ShapeError::TooFar)).
    pub fn create_shape(
        &mut self,
        body: BodyId,
        shape: impl Into<Shape>,
        def: &ShapeDef,
    ) -> Result<ShapeId, Error> {
        let bi = self.body_index(body)?;
        def.validate()?;
        let shape = shape.into();
        check_shape(&shape, def)?;
        self.check_reach(&shape)?;
        self.check_body_mass(bi, &[shape.mass(def.density)])?;
        Ok(self.create_shape_unchecked(bi, shape, def))
    }

    fn create_shape_unchecked(&mut self, bi: u32, shape: Shape, def: &ShapeDef) -> ShapeId {
        let si = self.attach_shape(bi, shape, def);
        self.settle_attached(bi, &[si]);
        self.shape_id(si)
    }

    /// Creates the shapes of one call (a concave outline's
    /// parts, a chain's segments) on body `bi`, settling the body once for
    /// them all: a part at a time would recompute the mass and find the
    /// seams of every part near it once per part, cubic in the parts of
    /// an outline whose parts all meet.
    fn create_shapes_unchecked(
        &mut self,
        bi: u32,
        shapes: impl IntoIterator<Item = Shape>,
        def: &ShapeDef,
    ) -> Vec<ShapeId> {
        let slots: Vec<u32> = shapes
            .into_iter()
            .map(|shape| self.attach_shape(bi, shape, def))
            .collect();
        self.settle_attached(bi, &slots);
        slots.into_iter().map(|si| self.shape_id(si)).collect()
    }

    /// Puts a shape on body `bi` (its slot, sensor and proxy); the body is
    /// settled by [`World::settle_attached`].
    fn attach_shape(&mut self, bi: u32, shape: Shape, def: &ShapeDef) -> u32 {
        let aabb = shape.aabb(self.bodies[bi].xf);
        let part = self.bodies[bi].shapes.len() as u32;
        let margin = self.proxy_margin(&shape, self.bodies[bi].body_type);
        let si = self
            .shapes
            .insert(ShapeSlot {
                body: bi,
                shape,
                def: *def,
                proxy: 0,
                part,
                margin,
                sensor: crate::body::NULL,
            })
            .index;
        if def.sensor {
            self.create_sensor(si);
        }
        if self.bodies[bi].disabled {
            self.shapes[si].proxy = NULL;
        } else {
            self.create_shape_proxy(si, aabb);
        }
        self.bodies[bi].shapes.push(si);
        si
    }

    /// Brings body `bi` up to date after the shapes `added` were attached:
    /// woken, its mass recomputed, its proxies predicted, and the seams
    /// near the new shapes found again.
    fn settle_attached(&mut self, bi: u32, added: &[u32]) {
        if !self.bodies[bi].never_awake {
            self.wake_body(bi);
        }
        self.update_mass(bi);
        // A body created moving must meet what it is about to hit on its
        // first step too.
        self.predict_proxies(bi);
        // A polygon may weld to the body's other shapes, or on a static
        // body to other static shapes (a lone shape of a moving body has
        // nothing to weld to).
        let b = &self.bodies[bi];
        if b.body_type == BodyType::Static || b.shapes.len() > 1 {
            let regions: Vec<Aabb> = added.iter().filter_map(|&si| self.seam_region(si)).collect();
            self.reseam(&regions);
        }
    }

    /// Splits a concave outline (a simple polygon, either winding) into
    /// convex parts and attaches them all to the body. Errors as
    /// [`World::create_shape`], and those of [`decompose_concave`]; on an
    /// error no part is attached.
    pub fn create_concave(
        &mut self,
        body: BodyId,
        outline: &[Vec2],
        def: &ShapeDef,
    ) -> Result<Vec<ShapeId>, Error> {
        let bi = self.body_index(body)?;
        def.validate()?;
        let parts = decompose_concave(outline)?;
        for p in &parts {
            check_shape(&Shape::Polygon(*p), def)?;
            self.check_reach(&Shape::Polygon(*p))?;
        }
        let masses: Vec<MassData> = parts.iter().map(|p| p.mass(def.density)).collect();
        self.check_body_mass(bi, &masses)?;
        Ok(self.create_shapes_unchecked(bi, parts.into_iter().map(Shape::Polygon), def))
    }

    /// Attaches a chain of one-sided segments along `points` (body frame):
    /// the polyline through them, or with `closed` the loop. Each segment
    /// is solid on its right (walking from one point to the next; see
    /// [`ChainSegment`](crate::ChainSegment)), and a body sliding over the
    /// joint between two segments meets one smooth surface. A loop wound
    /// counter-clockwise is solid from outside; terrain listed from right
    /// to left is solid from above. The segments are separate shapes (in
    /// order) with the same material; they add no mass.
    ///
    /// Errors: a stale body handle, a bad material, fewer than 2 points (3
    /// for a loop), a non-finite point, two consecutive points closer
    /// than the weld distance, or a point farther from the body's origin
    /// than the world extent ([`ShapeError::TooFar`](crate::ShapeError::TooFar)).
    pub fn create_chain(
        &mut self,
        body: BodyId,
        points: &[Vec2],
        closed: bool,
        def: &ShapeDef,
    ) -> Result<Vec<ShapeId>, Error> {
        let bi = self.body_index(body)?;
        def.validate()?;
        let segments = chain_segments(points, closed)?;
        for c in &segments {
            self.check_reach(&Shape::ChainSegment(*c))?;
        }
        Ok(self.create_shapes_unchecked(bi, segments.into_iter().map(Shape::ChainSegment), def))
    }

    /// Removes a shape; its body's mass is recomputed, and the body and
    /// what the shape touched wake up.
    pub fn remove_shape(&mut self, id: ShapeId) -> Result<(), BodyError> {
        let si = self.shape_index(id)?;
        let bi = self.shapes[si].body;
        self.wake_body(bi);
        self.destroy_contacts_of_shape(si);
        let region = self.seam_region(si);
        self.bodies[bi].shapes.retain(|&s| s != si);
        self.destroy_shape_slot(si);
        self.update_mass(bi);
        // The polygons it covered have outer edges there again.
        if let Some(region) = region {
            self.reseam(&[region]);
        }
        Ok(())
    }

    /// Frees a shape slot and its proxy (its contacts must be gone).
    pub(super) fn destroy_shape_slot(&mut self, si: u32) {
        self.forget_seams(si);
        if self.shapes[si].sensor != crate::body::NULL {
            self.destroy_sensor(si);
        }
        if self.shapes[si].proxy != NULL {
            self.broadphase.destroy_proxy(self.shapes[si].proxy);
        }
        self.shapes.remove(si);
    }

    /// The shape's geometry (in its body's frame).
    pub fn shape(&self, id: ShapeId) -> Result<&Shape, BodyError> {
        Ok(&self.shapes[self.shape_index(id)?].shape)
    }

    /// The shape's material.
    pub fn shape_def(&self, id: ShapeId) -> Result<&ShapeDef, BodyError> {
        Ok(&self.shapes[self.shape_index(id)?].def)
    }

    /// The body a shape is attached to.
    pub fn shape_body(&self, id: ShapeId) -> Result<BodyId, BodyError> {
        let si = self.shape_index(id)?;
        Ok(self.body_id(self.shapes[si].body))
    }

    /// Number of live shapes: O(1).
    pub fn shape_count(&self) -> usize {
        self.shapes.count()
    }

    /// Sets a shape's friction (>= 0). Existing contacts keep their mixed
    /// value until they are recreated.
    pub fn set_friction(&mut self, id: ShapeId, friction: f32) -> Result<(), Error> {
        let si = self.shape_index(id)?;
        let def = ShapeDef {
            friction,
            ..self.shapes[si].def
        };
        def.validate()?;
        self.shapes[si].def = def;
        Ok(())
    }

    /// Sets a shape's restitution (>= 0).
    pub fn set_restitution(&mut self, id: ShapeId, restitution: f32) -> Result<(), Error> {
        let si = self.shape_index(id)?;
        let def = ShapeDef {
            restitution,
            ..self.shapes[si].def
        };
        def.validate()?;
        self.shapes[si].def = def;
        Ok(())
    }

    /// Sets the speed the shape's surface moves at (see
    /// [`ShapeDef::tangent_speed`]): a conveyor belt switched on, off or
    /// reversed. Unlike friction, its contacts take the new speed at once,
    /// and its body and what touches it wake.
    ///
    /// # Errors
    /// [`BodyError::StaleHandle`] (as [`Error::Body`]);
    /// [`ShapeError::NonFinite`](crate::ShapeError::NonFinite) for a NaN or
    /// infinite speed.
    pub fn set_tangent_speed(&mut self, id: ShapeId, speed: f32) -> Result<(), Error> {
        let si = self.shape_index(id)?;
        let def = ShapeDef {
            tangent_speed: speed,
            ..self.shapes[si].def
        };
        def.validate()?;
        self.shapes[si].def = def;
        let bi = self.shapes[si].body;
        let bound = self.max_speed();
        let contacts: Vec<u32> = body_contacts(&self.contacts, &self.bodies[bi])
            .map(|(ci, _)| ci)
            .collect();
        for ci in contacts {
            let c = &self.contacts[ci];
            if c.shape_a != si && c.shape_b != si {
                continue;
            }
            let (da, db) = (&self.shapes[c.shape_a].def, &self.shapes[c.shape_b].def);
            let mixed = mix_tangent_speed(da.tangent_speed, db.tangent_speed, bound);
            let other = if c.body_a == bi { c.body_b } else { c.body_a };
            self.contacts[ci].tangent_speed = mixed;
            self.wake_body(other);
        }
        self.wake_body(bi);
        Ok(())
    }

    /// Changes which shapes this one collides with. Its contacts that no
    /// longer pass the filter rule are destroyed (their end events come
    /// with the next step's), pairs it now allows are found by the next
    /// step, and its body wakes. (Pairs the custom filter hook refused are
    /// asked again then too.)
    pub fn set_filter(&mut self, id: ShapeId, filter: Filter) -> Result<(), BodyError> {
        let si = self.shape_index(id)?;
        let before = std::mem::replace(&mut self.shapes[si].def.filter, filter);
        let bi = self.shapes[si].body;
        self.destroy_contacts_where(bi, |c, shapes| {
            let other = if c.shape_a == si {
                c.shape_b
            } else if c.shape_b == si {
                c.shape_a
            } else {
                return false;
            };
            !filter.should_collide(&shapes[other].def.filter)
        });
        let proxy = self.shapes[si].proxy;
        if proxy != NULL {
            self.broadphase.set_proxy_categories(proxy, filter.category);
            self.broadphase.touch_proxy(proxy);
        }
        self.wake_body(bi);
        // Welded only to polygons that collide with what it does.
        if before != filter {
            self.reseam_shape(si);
        }
        Ok(())
    }

    /// The shape's collision filter.
    pub fn filter(&self, id: ShapeId) -> Result<Filter, BodyError> {
        Ok(self.shapes[self.shape_index(id)?].def.filter)
    }

    /// Turns the shape's begin and end touch events on or off (see
    /// [`ShapeDef::contact_events`]); its existing contacts follow at once.
    pub fn set_contact_events(&mut self, id: ShapeId, on: bool) -> Result<(), BodyError> {
        let si = self.shape_index(id)?;
        self.shapes[si].def.contact_events = on;
        self.refresh_contact_options(si, false);
        Ok(())
    }

    /// Turns the shape's hit events on or off (see
    /// [`ShapeDef::hit_events`]); its existing contacts follow at once.
    pub fn set_hit_events(&mut self, id: ShapeId, on: bool) -> Result<(), BodyError> {
        let si = self.shape_index(id)?;
        self.shapes[si].def.hit_events = on;
        self.refresh_contact_options(si, false);
        Ok(())
    }

    /// Turns the pre-solve hook on or off for the shape's contacts (see
    /// [`ShapeDef::pre_solve`]); its existing contacts follow at once.
    pub fn set_pre_solve(&mut self, id: ShapeId, on: bool) -> Result<(), BodyError> {
        let si = self.shape_index(id)?;
        let before = std::mem::replace(&mut self.shapes[si].def.pre_solve, on);
        self.refresh_contact_options(si, false);
        if before != on {
            self.reseam_shape(si);
        }
        Ok(())
    }

    /// Recomputes the options of shape `si`'s contacts from their shapes;
    /// `afresh` (its seams changed), marks them for colliding afresh at
    /// the next step (nothing of their manifolds kept), waking the bodies
    /// they touch.
    pub(super) fn refresh_contact_options(&mut self, si: u32, afresh: bool) {
        let bi = self.shapes[si].body;
        let refreshed: Vec<(u32, ContactOptions, u32)> = body_contacts(&self.contacts, &self.bodies[bi])
            .map(|(ci, side)| (ci, side, &self.contacts[ci]))
            .filter(|(_, _, c)| c.shape_a == si || c.shape_b == si)
            .map(|(ci, side, c)| (ci, self.contact_options(c.shape_a, c.shape_b), side))
            .collect();
        for (ci, options, side) in refreshed {
            let c = &mut self.contacts[ci];
            // (The solver's mark stays: see `ContactOptions::EXACT`.)
            c.options = options.switched(ContactOptions::EXACT, c.options.contains(ContactOptions::EXACT));
            c.hit_pending &= options.contains(ContactOptions::HIT_EVENTS);
            if afresh {
                c.cache.limit = 0.0;
                let (touching, other) = (c.touching(), c.body(1 - side));
                if touching {
                    self.ensure_awake(other);
                }
            }
        }
    }

    /// The farthest a moving shape's re-built fat box reaches past the
    /// next step along its velocity (see [`look_ahead`]): the fat margin
    /// Box2D gives every shape.
    pub(super) fn max_look_ahead(&self) -> f32 {
        self.broadphase.margin()
    }

    /// The fat-box margin of a shape on a body of this type.
    pub(super) fn proxy_margin(&self, shape: &Shape, body_type: BodyType) -> f32 {
        let lu = self.settings.length_units_per_meter;
        match body_type {
            BodyType::Static => SPECULATIVE_DISTANCE * lu,
            _ => (AABB_MARGIN_FRACTION * shape.extent()).min(AABB_MARGIN * lu),
        }
    }

    /// Moves the body's proxies to cover where it is and where its velocity
    /// takes it in the next step, so a fast body meets what it is about to
    /// hit in time for a speculative contact to stop it. Called after each
    /// step, when a body is placed or gets a shape, and when the user gives
    /// a body a new velocity between steps
    /// (a body kicked towards a wall must find the wall in the very next
    /// step, not one step late on the other side of it). Only the linear
    /// travel is looked ahead for: padding for spin too grows the box of
    /// every tumbling body in a pile, so more pairs are found and kept,
    /// while the fat margin and the speculative distance already cover
    /// the turn of one step for all but long, fast-spinning bodies.
    pub(super) fn predict_proxies(&mut self, bi: u32) {
        if self.bodies[bi].disabled {
            return;
        }
        let most = self.max_look_ahead();
        let travel = step_travel(&self.bodies[bi], self.last_dt, self.max_speed());
        let stretch = look_ahead(travel, most);
        for k in 0..self.bodies[bi].shapes.len() {
            let b = &self.bodies[bi];
            let s = b.shapes[k];
            let slot = &self.shapes[s];
            let aabb = predicted_aabb(slot, b, travel);
            let moved = self
                .broadphase
                .move_proxy_predictive(slot.proxy, aabb, slot.margin, stretch);
            if moved {
                self.sync_fat_box(s);
            }
        }
    }
}

/// What the end of a step must do to a body's proxies, found for each
/// body independently (see [`proxy_move`]) and done in order.
#[derive(Clone, Copy, Debug, Default)]
pub(super) enum ProxyMove {
    /// Every shape is still inside its fat box: nothing.
    #[default]
    Stay,
    /// The body's one shape left its fat box: give its proxy this one.
    One {
        /// The shape's slot.
        shape: u32,
        /// Its new fat box.
        fat: Aabb,
    },
    /// Some shape of a body of several left its box: move them all
    /// ([`World::predict_proxies`]).
    All,
}

/// What the end of a step over `dt` must do to the proxies of body `b`,
/// whose shapes are in `shapes` with their fat boxes in `fat_boxes`, a
/// re-built fat box reaching at most `most` past the next step (see
/// [`look_ahead`]), its speed held to `max_speed`: reads only, so the
/// bodies can be seen to at once.
pub(super) fn proxy_move(
    b: &Body,
    (shapes, fat_boxes): (&Store<ShapeSlot>, &[Aabb]),
    (dt, max_speed): (f32, f32),
    most: f32,
) -> ProxyMove {
    if b.frozen {
        return ProxyMove::Stay;
    }
    let travel = step_travel(b, dt, max_speed);
    let left = |s: u32| {
        let tight = predicted_aabb(&shapes[s], b, travel);
        (!fat_boxes[s as usize].contains(tight)).then_some(tight)
    };
    match b.shapes[..] {
        [shape] => match left(shape) {
            Some(tight) => ProxyMove::One {
                shape,
                fat: predictive_fat_aabb(tight, shapes[shape].margin, look_ahead(travel, most)),
            },
            None => ProxyMove::Stay,
        },
        ref several if several.iter().any(|&s| left(s).is_some()) => ProxyMove::All,
        _ => ProxyMove::Stay,
    }
}

/// How far body `b` travels in the next step of `dt`, its speed held to
/// `max_speed` as the step will hold it: a velocity set absurdly high
/// between steps does not stretch its boxes over the whole world.
#[inline]
fn step_travel(b: &Body, dt: f32, max_speed: f32) -> Vec2 {
    dt * limit_length(b.v, max_speed)
}

/// The box a proxy must hold for shape `slot` of body `b`: the shape
/// where it is, stretched by the body's `travel` over the next step.
#[inline]
pub(super) fn predicted_aabb(slot: &ShapeSlot, b: &Body, travel: Vec2) -> Aabb {
    let mut aabb = slot.shape.aabb(b.xf);
    aabb.min += travel.min(Vec2::ZERO);
    aabb.max += travel.max(Vec2::ZERO);
    aabb
}

impl World {
    /// Does to body `bi`'s proxies what [`proxy_move`] found.
    pub(super) fn move_proxies(&mut self, bi: u32, what: ProxyMove) {
        match what {
            ProxyMove::Stay => {}
            ProxyMove::One { shape, fat } => {
                self.broadphase.enlarge_proxy(self.shapes[shape].proxy, fat);
                self.sync_fat_box(shape);
            }
            ProxyMove::All => self.predict_proxies(bi),
        }
    }
}

impl World {
    /// Copies shape `si`'s fat box from its proxy (see
    /// [`World::fat_boxes`]): after every change of the proxy's box.
    /// Gives shape `si` (its body enabled) a broadphase proxy around
    /// `aabb`, with its margin, categories and static mark, and its fat
    /// box.
    pub(super) fn create_shape_proxy(&mut self, si: u32, aabb: Aabb) {
        let slot = &self.shapes[si];
        let category = slot.def.filter.category;
        let fixed = self.bodies[slot.body].body_type == BodyType::Static;
        let proxy = self
            .broadphase
            .create_proxy_with_margin(aabb, si, (slot.margin, category));
        if fixed {
            self.broadphase.set_proxy_static(proxy, true);
        }
        self.shapes[si].proxy = proxy;
        self.sync_fat_box(si);
    }

    /// Marks shape `si`'s proxy for the next step's pair search, if it has
    /// one (its body is enabled).
    pub(super) fn touch_shape(&mut self, si: u32) {
        let proxy = self.shapes[si].proxy;
        if proxy != NULL {
            self.broadphase.touch_proxy(proxy);
        }
    }

    fn sync_fat_box(&mut self, si: u32) {
        let si = si as usize;
        if self.fat_boxes.len() <= si {
            self.fat_boxes.resize(si + 1, Aabb::default());
        }
        self.fat_boxes[si] = self.broadphase.fat_aabb(self.shapes[si as u32].proxy);
    }
}

/// The names of one release before: the world's calls that make an object
/// are `create_*` (and those that delete one `remove_*`).
impl World {
    /// Renamed [`World::create_shape`].
    #[deprecated(since = "0.2.0", note = "renamed to `create_shape`")]
    pub fn add_shape(
        &mut self,
        body: BodyId,
        shape: impl Into<Shape>,
        def: &ShapeDef,
    ) -> Result<ShapeId, Error> {
        self.create_shape(body, shape, def)
    }

    /// Renamed [`World::create_concave`].
    #[deprecated(since = "0.2.0", note = "renamed to `create_concave`")]
    pub fn add_concave(
        &mut self,
        body: BodyId,
        outline: &[Vec2],
        def: &ShapeDef,
    ) -> Result<Vec<ShapeId>, Error> {
        self.create_concave(body, outline, def)
    }

    /// Renamed [`World::create_chain`].
    #[deprecated(since = "0.2.0", note = "renamed to `create_chain`")]
    pub fn add_chain(
        &mut self,
        body: BodyId,
        points: &[Vec2],
        closed: bool,
        def: &ShapeDef,
    ) -> Result<Vec<ShapeId>, Error> {
        self.create_chain(body, points, closed, def)
    }
}
