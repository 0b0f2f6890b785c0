//! The body API: create, remove, read and change bodies.
//!
//! Every call that changes how a body moves (its transform, velocities,
//! forces, impulses, type or shapes) wakes it, with its island.

use super::{BodyId, ShapeId, World};
use crate::body::{Body, BodyDef, BodyType, MotionLocks, NULL};
use crate::contact::NO_COLOR;
use crate::error::BodyError;
use crate::island;
use crate::joint::body_joints;
use crate::math::{cross, is_finite_vec, Transform, Vec2};
use crate::shapes::{combine_mass, MassData};

impl World {
    pub(super) fn body_index(&self, id: BodyId) -> Result<u32, BodyError> {
        if self.bodies.is_current(id.index, id.generation) {
            Ok(id.index)
        } else {
            Err(BodyError::StaleHandle)
        }
    }

    pub(super) fn body_id(&self, index: u32) -> BodyId {
        self.bodies.key(index).into()
    }

    /// Creates a body with no shapes (add them with [`World::create_shape`]).
    /// Errors name any non-finite number, a position past the
    /// [`WORLD_EXTENT`](crate::settings::WORLD_EXTENT), negative damping or
    /// a negative sleep threshold. A non-static body created with
    /// [`BodyDef::awake`] off starts asleep, in an island of its own.
    pub fn create_body(&mut self, def: &BodyDef) -> Result<BodyId, BodyError> {
        self.check_position(def.position)?;
        if !def.angle.is_finite() {
            return Err(BodyError::NonFinite("angle"));
        }
        if !is_finite_vec(def.linear_velocity) {
            return Err(BodyError::NonFinite("linear velocity"));
        }
        if !def.angular_velocity.is_finite() {
            return Err(BodyError::NonFinite("angular velocity"));
        }
        if !def.gravity_scale.is_finite() {
            return Err(BodyError::NonFinite("gravity scale"));
        }
        if !def.linear_damping.is_finite() || !def.angular_damping.is_finite() {
            return Err(BodyError::NonFinite("damping"));
        }
        if def.linear_damping < 0.0 || def.angular_damping < 0.0 {
            return Err(BodyError::NegativeDamping);
        }
        if !def.sleep_threshold.is_finite() {
            return Err(BodyError::NonFinite("sleep threshold"));
        }
        if def.sleep_threshold < 0.0 {
            return Err(BodyError::OutOfRange("sleep threshold"));
        }
        let mut body = Body::new(def, self.settings.length_units_per_meter);
        if body.body_type == BodyType::Static {
            body.v = Vec2::ZERO;
            body.w = 0.0;
        } else if body.body_type == BodyType::Dynamic {
            let (linear_mask, angular_mask) = body.locks.masks();
            body.v *= linear_mask;
            body.w *= angular_mask;
        }
        let bi = self.bodies.insert(body).index;
        if def.body_type != BodyType::Static {
            self.join_new_island(bi, def.awake || !self.settings.sleeping);
        }
        self.update_mass(bi);
        Ok(self.body_id(bi))
    }

    /// Puts non-static body `bi` in a new island of its own, awake or
    /// asleep.
    pub(super) fn join_new_island(&mut self, bi: u32, awake: bool) {
        let isl = island::create(&mut self.islands, &mut self.bodies, bi);
        if awake {
            self.awake.islands.insert(isl);
            self.awake.bodies.insert(bi);
        } else {
            let b = &mut self.bodies[bi];
            b.v = Vec2::ZERO;
            b.w = 0.0;
        }
    }

    /// Takes body `bi` out of its island and the awake set (its contacts
    /// must be gone).
    pub(super) fn leave_island(&mut self, bi: u32) {
        if let Some(gone) = island::remove_body(&mut self.islands, &mut self.bodies, bi) {
            self.awake.islands.remove(gone);
        }
        self.awake.bodies.remove(bi);
    }

    /// Removes a body with its shapes, contacts and joints; what it
    /// touched or was joined to wakes up. Its handle (and its shapes' and
    /// joints' handles) become stale.
    pub fn remove_body(&mut self, id: BodyId) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        // A static body's polygons may cover other static bodies' edges.
        let regions = self.static_seam_regions(bi);
        self.destroy_joints_of_body(bi);
        self.destroy_contacts_of_body(bi);
        for si in std::mem::take(&mut self.bodies[bi].shapes) {
            self.destroy_shape_slot(si);
        }
        self.leave_island(bi);
        self.bodies.remove(bi);
        self.frozen.retain(|f| *f != id);
        self.reseam(&regions);
        Ok(())
    }

    /// True when the handle refers to a live body.
    pub fn contains_body(&self, id: BodyId) -> bool {
        self.body_index(id).is_ok()
    }

    /// Number of live bodies: O(1).
    pub fn body_count(&self) -> usize {
        self.bodies.count()
    }

    /// Handles of all live bodies, in slot order.
    pub fn bodies(&self) -> impl Iterator<Item = BodyId> + '_ {
        self.bodies.iter().map(|(i, _)| self.body_id(i))
    }

    /// The body's type.
    pub fn body_type(&self, id: BodyId) -> Result<BodyType, BodyError> {
        Ok(self.bodies[self.body_index(id)?].body_type)
    }

    /// Changes the body's type; mass is recomputed. Its contacts are
    /// dropped (the broadphase finds the pairs again), what they touched
    /// wakes up, and the body itself is awake afterwards unless it is now
    /// static. Its joints stay, linking its new island to what they join.
    pub fn set_body_type(&mut self, id: BodyId, body_type: BodyType) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        // Becoming static, or no longer static, welds its polygons to the
        // other static ones or parts them (see `World::reseam`).
        let was_static = self.bodies[bi].body_type == BodyType::Static;
        let regions = if was_static != (body_type == BodyType::Static) {
            self.seam_regions_of_body(bi)
        } else {
            Vec::new()
        };
        if self.bodies[bi].disabled {
            // Out of the islands and the broadphase: only what it will
            // come back as changes.
            self.bodies[bi].body_type = body_type;
            self.set_type_dependents(bi);
            return Ok(());
        }
        self.destroy_contacts_of_body(bi);
        let joints: Vec<u32> = body_joints(&self.joints, &self.bodies[bi])
            .map(|(ji, _)| ji)
            .collect();
        for &ji in &joints {
            self.unlink_joint_from_island(ji);
            // Its body takes or drops a color of its own: the joint is
            // colored afresh, as a new one would be.
            self.joints[ji].color = NO_COLOR;
        }
        self.leave_island(bi);
        self.bodies[bi].body_type = body_type;
        if body_type != BodyType::Static {
            self.join_new_island(bi, true);
            self.bodies[bi].sleep_time = 0.0;
        }
        for &ji in &joints {
            self.link_joint(ji);
        }
        self.set_type_dependents(bi);
        self.reseam(&regions);
        Ok(())
    }

    /// What follows body `bi`'s type: its mass, a static body's zero
    /// velocity, and its shapes' margins and broadphase marks (the margin
    /// from the next time a fat box is rebuilt: a static one's never
    /// needed room to move).
    fn set_type_dependents(&mut self, bi: u32) {
        let body_type = self.bodies[bi].body_type;
        if body_type == BodyType::Static {
            self.bodies[bi].v = Vec2::ZERO;
            self.bodies[bi].w = 0.0;
        }
        self.update_mass(bi);
        for k in 0..self.bodies[bi].shapes.len() {
            let si = self.bodies[bi].shapes[k];
            self.shapes[si].margin = self.proxy_margin(&self.shapes[si].shape, body_type);
            let proxy = self.shapes[si].proxy;
            if proxy != NULL {
                self.broadphase.touch_proxy(proxy);
                self.broadphase
                    .set_proxy_static(proxy, body_type == BodyType::Static);
            }
        }
    }

    /// Whether body `bi` takes forces and torques now: neither frozen
    /// (until `set_transform` frees it) nor disabled.
    fn simulable(&self, bi: u32) -> bool {
        !self.bodies[bi].frozen && !self.bodies[bi].disabled
    }

    /// Holds or frees the body's translation along x or y and its rotation
    /// (see [`MotionLocks`]). A newly locked velocity component is zeroed
    /// at once; the mass is recomputed (a locked rotation has infinite
    /// inertia) and the body wakes.
    pub fn set_motion_locks(&mut self, id: BodyId, locks: MotionLocks) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        let b = &mut self.bodies[bi];
        if b.locks == locks {
            return Ok(());
        }
        b.locks = locks;
        if b.body_type == BodyType::Dynamic {
            let (linear_mask, angular_mask) = locks.masks();
            b.v *= linear_mask;
            b.w *= angular_mask;
            self.update_mass(bi);
            self.wake_body(bi);
        }
        Ok(())
    }

    /// The body's motion locks.
    pub fn motion_locks(&self, id: BodyId) -> Result<MotionLocks, BodyError> {
        Ok(self.bodies[self.body_index(id)?].locks)
    }

    /// The body origin's transform.
    pub fn transform(&self, id: BodyId) -> Result<Transform, BodyError> {
        Ok(self.bodies[self.body_index(id)?].xf)
    }

    /// The body origin's position.
    pub fn position(&self, id: BodyId) -> Result<Vec2, BodyError> {
        Ok(self.transform(id)?.p)
    }

    /// The body's angle in radians.
    pub fn angle(&self, id: BodyId) -> Result<f32, BodyError> {
        Ok(self.transform(id)?.q.angle())
    }

    /// The center of mass in world coordinates.
    pub fn center_of_mass(&self, id: BodyId) -> Result<Vec2, BodyError> {
        Ok(self.bodies[self.body_index(id)?].center)
    }

    /// Velocity of the center of mass.
    pub fn linear_velocity(&self, id: BodyId) -> Result<Vec2, BodyError> {
        Ok(self.bodies[self.body_index(id)?].v)
    }

    /// Angular velocity, rad/s.
    pub fn angular_velocity(&self, id: BodyId) -> Result<f32, BodyError> {
        Ok(self.bodies[self.body_index(id)?].w)
    }

    /// Velocity of a world point attached to the body.
    pub fn velocity_at_point(&self, id: BodyId, point: Vec2) -> Result<Vec2, BodyError> {
        let b = &self.bodies[self.body_index(id)?];
        Ok(b.v + crate::math::cross_sv(b.w, point - b.center))
    }

    /// Mass, center (body frame) and inertia about the center of mass.
    pub fn mass_data(&self, id: BodyId) -> Result<MassData, BodyError> {
        let b = &self.bodies[self.body_index(id)?];
        Ok(MassData {
            mass: b.mass,
            center: b.local_center,
            inertia: b.inertia,
        })
    }

    /// Sets a dynamic body's mass (kg), center of mass (in the body's
    /// frame) and rotational inertia about that center (kg m^2) by hand,
    /// in place of what its shapes give (Box2D's `b2Body_SetMassData`):
    /// a car's chassis made heavy low down, a character that must not
    /// tip. An inertia of zero, or a locked rotation, keeps the body from
    /// turning. The velocity of its material points is kept, and it
    /// wakes.
    ///
    /// The mass data holds until something recomputes it from the
    /// shapes: adding or removing a shape, changing the body's type or
    /// its motion locks, or [`World::reset_mass_data`].
    ///
    /// # Errors
    /// [`BodyError::StaleHandle`]; [`BodyError::NonFinite`] for a NaN or
    /// infinite value; [`BodyError::OutOfRange`] for a body that is not
    /// dynamic (`"mass data for a body that is not dynamic"`: static and
    /// kinematic bodies have no mass), a mass that is not positive or
    /// whose inverse overflows, a negative inertia or one whose inverse
    /// overflows, or a center past the world extent. The body is
    /// unchanged after an error.
    ///
    /// ```
    /// # use tumble::{BodyDef, MassData, Polygon, ShapeDef, Vec2, World};
    /// let mut world = World::default();
    /// let cart = world.create_body(&BodyDef::dynamic())?;
    /// world.create_shape(cart, Polygon::new_box(1.0, 0.25)?, &ShapeDef::default())?;
    /// // Ballast: 50 kg whose center sits at the cart's bottom face.
    /// let ballast = MassData { mass: 50.0, center: Vec2::new(0.0, -0.25), inertia: 20.0 };
    /// world.set_mass_data(cart, ballast)?;
    /// assert_eq!(world.mass_data(cart)?, ballast);
    /// world.reset_mass_data(cart)?; // back to what the box gives
    /// assert_eq!(world.mass_data(cart)?.mass, 1.0); // 2 m x 0.5 m at density 1
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_mass_data(&mut self, id: BodyId, md: MassData) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        self.check_mass_data(&md)?;
        if self.bodies[bi].body_type != BodyType::Dynamic {
            return Err(BodyError::OutOfRange("mass data for a body that is not dynamic"));
        }
        self.apply_mass(bi, md, true);
        self.wake_body(bi);
        Ok(())
    }

    /// Recomputes a body's mass, center of mass and inertia from its
    /// shapes' densities, undoing [`World::set_mass_data`]
    /// (Box2D's `b2Body_ApplyMassFromShapes`); the body wakes.
    ///
    /// # Errors
    /// [`BodyError::StaleHandle`].
    pub fn reset_mass_data(&mut self, id: BodyId) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        self.update_mass(bi);
        self.wake_body(bi);
        Ok(())
    }

    /// The user value given at creation.
    pub fn user_data(&self, id: BodyId) -> Result<u64, BodyError> {
        Ok(self.bodies[self.body_index(id)?].user_data)
    }

    /// Replaces the user value.
    pub fn set_user_data(&mut self, id: BodyId, data: u64) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        self.bodies[bi].user_data = data;
        Ok(())
    }

    /// Shapes attached to the body.
    pub fn body_shapes(&self, id: BodyId) -> Result<Vec<ShapeId>, BodyError> {
        let bi = self.body_index(id)?;
        Ok(self.bodies[bi].shapes.iter().map(|&s| self.shape_id(s)).collect())
    }

    /// Teleports the body origin and wakes the body. Contacts are found
    /// again at the next step. A position past the
    /// [`WORLD_EXTENT`](crate::settings::WORLD_EXTENT) is refused. A frozen
    /// body (see [`World::frozen_bodies`]) is freed: it moves, collides
    /// and is solved again.
    pub fn set_transform(&mut self, id: BodyId, position: Vec2, angle: f32) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        self.check_position(position)?;
        if !angle.is_finite() {
            return Err(BodyError::NonFinite("angle"));
        }
        self.wake_body(bi);
        // A static body's polygons part from the static shapes where it
        // was and may weld to those where it goes.
        let mut regions = self.static_seam_regions(bi);
        let b = &mut self.bodies[bi];
        let was_frozen = std::mem::replace(&mut b.frozen, false);
        b.xf = Transform::new(position, angle);
        b.center = b.xf.apply(b.local_center);
        b.carry = Vec2::ZERO;
        self.predict_proxies(bi);
        regions.extend(self.static_seam_regions(bi));
        self.reseam(&regions);
        if was_frozen {
            // Its pairs were refused while it was frozen: look for them
            // again even if its boxes did not move.
            self.frozen.retain(|f| *f != id);
            for k in 0..self.bodies[bi].shapes.len() {
                let si = self.bodies[bi].shapes[k];
                self.touch_shape(si);
            }
        }
        Ok(())
    }

    /// Sets the velocity of the center of mass and wakes the body (ignored
    /// for static bodies).
    pub fn set_linear_velocity(&mut self, id: BodyId, v: Vec2) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !is_finite_vec(v) {
            return Err(BodyError::NonFinite("linear velocity"));
        }
        if self.bodies[bi].body_type != BodyType::Static {
            self.wake_body(bi);
            self.bodies[bi].v = v;
            self.predict_proxies(bi);
        }
        Ok(())
    }

    /// Sets the angular velocity and wakes the body (ignored for static
    /// bodies).
    pub fn set_angular_velocity(&mut self, id: BodyId, w: f32) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !w.is_finite() {
            return Err(BodyError::NonFinite("angular velocity"));
        }
        if self.bodies[bi].body_type != BodyType::Static {
            self.wake_body(bi);
            self.bodies[bi].w = w;
        }
        Ok(())
    }

    /// Sets linear and angular damping (>= 0; see
    /// [`BodyDef::linear_damping`] for the law).
    pub fn set_damping(&mut self, id: BodyId, linear: f32, angular: f32) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !linear.is_finite() || !angular.is_finite() {
            return Err(BodyError::NonFinite("damping"));
        }
        if linear < 0.0 || angular < 0.0 {
            return Err(BodyError::NegativeDamping);
        }
        self.bodies[bi].linear_damping = linear;
        self.bodies[bi].angular_damping = angular;
        Ok(())
    }

    /// Sets the gravity scale and wakes the body: a resting body given a
    /// new weight is no longer at rest.
    pub fn set_gravity_scale(&mut self, id: BodyId, scale: f32) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !scale.is_finite() {
            return Err(BodyError::NonFinite("gravity scale"));
        }
        if self.bodies[bi].gravity_scale != scale {
            self.wake_body(bi);
            self.bodies[bi].gravity_scale = scale;
        }
        Ok(())
    }

    /// Applies a force (N) at a world point until the end of the next step,
    /// and wakes the body. Off-center, it also applies a torque. Forces
    /// add up until the step; one whose sum (or torque) overflows `f32` is
    /// refused ([`BodyError::OutOfRange`]`("force")`). A sum that would
    /// make the velocity overflow in the step freezes the body (see
    /// [`World::frozen_bodies`]); a finite velocity beyond
    /// [`WorldSettings::max_linear_speed`](crate::WorldSettings::max_linear_speed)
    /// is held to it.
    pub fn apply_force(&mut self, id: BodyId, force: Vec2, point: Vec2) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !is_finite_vec(force) {
            return Err(BodyError::NonFinite("force"));
        }
        if !is_finite_vec(point) {
            return Err(BodyError::NonFinite("point"));
        }
        // A frozen body is not simulated until `set_transform` moves it: a
        // force on it would pile up, never applied.
        if self.bodies[bi].body_type == BodyType::Dynamic && self.simulable(bi) {
            let b = &self.bodies[bi];
            let (sum, torque) = (b.force + force, b.torque + cross(point - b.center, force));
            if !(is_finite_vec(sum) && torque.is_finite()) {
                return Err(BodyError::OutOfRange("force"));
            }
            self.wake_body(bi);
            let b = &mut self.bodies[bi];
            b.force = sum;
            b.torque = torque;
        }
        Ok(())
    }

    /// Applies a force at the center of mass.
    pub fn apply_force_to_center(&mut self, id: BodyId, force: Vec2) -> Result<(), BodyError> {
        let c = self.center_of_mass(id)?;
        self.apply_force(id, force, c)
    }

    /// Applies a torque (N m) until the end of the next step, and wakes the
    /// body. Torques add up until the step; one whose sum overflows `f32`
    /// is refused ([`BodyError::OutOfRange`]`("torque")`), and one that
    /// would make the spin overflow in the step freezes the body. A frozen
    /// body takes no torque (nor force) until `set_transform` frees it.
    pub fn apply_torque(&mut self, id: BodyId, torque: f32) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !torque.is_finite() {
            return Err(BodyError::NonFinite("torque"));
        }
        if self.bodies[bi].body_type == BodyType::Dynamic && self.simulable(bi) {
            let sum = self.bodies[bi].torque + torque;
            if !sum.is_finite() {
                return Err(BodyError::OutOfRange("torque"));
            }
            self.wake_body(bi);
            self.bodies[bi].torque = sum;
        }
        Ok(())
    }

    /// Applies an impulse (N s) at a world point, and wakes the body: the
    /// velocity changes at once. An impulse whose velocity overflows `f32`
    /// is refused ([`BodyError::OutOfRange`]`("impulse")`); a finite but
    /// huge one is held to [`WorldSettings::max_linear_speed`](crate::WorldSettings::max_linear_speed)
    /// by the next step.
    pub fn apply_linear_impulse(&mut self, id: BodyId, impulse: Vec2, point: Vec2) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !is_finite_vec(impulse) {
            return Err(BodyError::NonFinite("impulse"));
        }
        if !is_finite_vec(point) {
            return Err(BodyError::NonFinite("point"));
        }
        if self.bodies[bi].body_type == BodyType::Dynamic && !self.bodies[bi].disabled {
            let b = &self.bodies[bi];
            let v = b.v + b.inv_mass * impulse;
            let w = b.w + b.inv_inertia * cross(point - b.center, impulse);
            if !(is_finite_vec(v) && w.is_finite()) {
                return Err(BodyError::OutOfRange("impulse"));
            }
            self.wake_body(bi);
            let b = &mut self.bodies[bi];
            b.v = v;
            b.w = w;
            self.predict_proxies(bi);
        }
        Ok(())
    }

    /// Applies an impulse at the center of mass.
    pub fn apply_linear_impulse_to_center(&mut self, id: BodyId, impulse: Vec2) -> Result<(), BodyError> {
        let c = self.center_of_mass(id)?;
        self.apply_linear_impulse(id, impulse, c)
    }

    /// Applies an angular impulse (N m s), and wakes the body. One whose
    /// angular velocity overflows `f32` is refused
    /// ([`BodyError::OutOfRange`]`("angular impulse")`).
    pub fn apply_angular_impulse(&mut self, id: BodyId, impulse: f32) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !impulse.is_finite() {
            return Err(BodyError::NonFinite("angular impulse"));
        }
        if self.bodies[bi].body_type == BodyType::Dynamic && !self.bodies[bi].disabled {
            let w = self.bodies[bi].w + self.bodies[bi].inv_inertia * impulse;
            if !w.is_finite() {
                return Err(BodyError::OutOfRange("angular impulse"));
            }
            self.wake_body(bi);
            self.bodies[bi].w = w;
        }
        Ok(())
    }

    /// Bodies the step froze, in the order it froze them: their state
    /// would have stopped being finite (a user's force too large for
    /// `f32`) or their origin left the
    /// [`WORLD_EXTENT`](crate::settings::WORLD_EXTENT). A frozen body stays
    /// where it last was, finite and inside the world, at rest; it loses
    /// its contacts and makes no new ones (it touches nothing), and its
    /// joints hold its partners as a static body would, until it is
    /// removed or given a new transform ([`World::set_transform`]).
    pub fn frozen_bodies(&self) -> &[BodyId] {
        &self.frozen
    }

    /// Recomputes mass, center of mass and inertia from the body's shapes.
    pub(super) fn update_mass(&mut self, bi: u32) {
        let parts: Vec<MassData> = self.bodies[bi]
            .shapes
            .iter()
            .map(|&s| {
                let slot = &self.shapes[s];
                slot.shape.mass(slot.def.density)
            })
            .collect();
        let md = combine_mass(&parts);
        self.apply_mass(bi, md, !parts.is_empty());
    }

    /// Gives body `bi` the mass data `md` (a dynamic body with no mass gets
    /// a unit mass, so it still falls; a static or kinematic body keeps
    /// none, only the center when it has shapes), then its extents, and
    /// keeps the velocity of its material points as its center moves.
    fn apply_mass(&mut self, bi: u32, md: MassData, has_shapes: bool) {
        let b = &mut self.bodies[bi];
        let old_center = b.center;
        b.mass = 0.0;
        b.inv_mass = 0.0;
        b.inertia = 0.0;
        b.inv_inertia = 0.0;
        b.local_center = Vec2::ZERO;
        if b.body_type == BodyType::Dynamic {
            if md.mass > 0.0 {
                b.mass = md.mass;
                b.inv_mass = 1.0 / md.mass;
                b.local_center = md.center;
                // Parts whose inertias underflowed to zero can still make
                // a subnormal one (their masses' tiny lever arms), whose
                // inverse is infinite: such a body turns no more than one
                // with none.
                if md.inertia > 0.0 && (1.0 / md.inertia).is_finite() && !b.locks.rotation {
                    b.inertia = md.inertia;
                    b.inv_inertia = 1.0 / md.inertia;
                }
            } else {
                // A dynamic body without shapes still falls: unit mass.
                b.mass = 1.0;
                b.inv_mass = 1.0;
            }
        } else if has_shapes {
            b.local_center = md.center;
        }
        b.center = b.xf.apply(b.local_center);
        b.extent = 0.0;
        b.min_extent = f32::INFINITY;
        for &si in &b.shapes {
            let shape = &self.shapes[si].shape;
            let local = shape.aabb(Transform::IDENTITY);
            let corner = (local.min - b.local_center)
                .abs()
                .max((local.max - b.local_center).abs());
            b.extent = b.extent.max(corner.length());
            b.min_extent = b.min_extent.min(shape.min_extent());
        }
        // Keep the velocity of the material points: the center moved. (A
        // spin so fast that the new center's speed overflows keeps the old
        // velocity: the step holds both to their limits anyway.)
        let v = b.v + crate::math::cross_sv(b.w, b.center - old_center);
        if is_finite_vec(v) {
            b.v = v;
        }
    }
}
