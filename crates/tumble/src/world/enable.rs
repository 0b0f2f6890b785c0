//! Disabling a body takes it out of the simulation whole, shapes and
//! joints kept, until it is enabled again (Box2D's `b2Body_Disable`): a
//! level's far rooms, a pooled projectile, a piece waiting to be placed.
//!
//! A disabled body belongs to no island and is in no awake set, so the
//! step never reads it; its shapes have no broadphase proxies, so nothing
//! pairs with them and no query or sensor finds them; its contacts are
//! gone (their ends reported) and its joints are idle, holding neither it
//! nor the bodies they join. Everything else about it stays: its pose,
//! velocity, mass, shapes, joints and handles. Enabled again, it takes up
//! where it was, in an island of its own that its joints merge as a new
//! joint would, its shapes back in the broadphase to find their contacts
//! in the next step.

use super::{BodyId, World};
use crate::contact::NO_COLOR;
use crate::error::BodyError;
use crate::joint::body_joints;
use crate::math::Vec2;

impl World {
    /// Takes the body out of the simulation (`false`), shapes and joints
    /// kept, or brings it back (`true`), as Box2D's `b2Body_Disable` and
    /// `b2Body_Enable` do: a level's far rooms, a pooled projectile, a
    /// piece waiting to be placed.
    ///
    /// Disabled, the body is not stepped; its shapes are out of the
    /// broadphase, so nothing collides with them and no query or sensor
    /// finds them; its contacts end (reported with the next step's events,
    /// and what they touched wakes); its joints are idle, holding neither
    /// it nor the bodies they join. It keeps its pose, velocity, mass,
    /// shapes, joints and handles, and can still be moved, turned, changed
    /// or given shapes and joints; forces and impulses applied to it are
    /// dropped and waking it does nothing. Enabled again, it takes up
    /// where it was, awake, its shapes finding their contacts in the next
    /// step and its joints holding again. Setting the state it is in does
    /// nothing.
    ///
    /// # Errors
    /// [`BodyError::StaleHandle`].
    ///
    /// ```
    /// # use tumble::{BodyDef, Polygon, ShapeDef, Vec2, World};
    /// let mut world = World::default();
    /// let crate_box = world.create_body(&BodyDef::dynamic().at(Vec2::new(0.0, 5.0)))?;
    /// world.create_shape(crate_box, Polygon::new_box(0.5, 0.5)?, &ShapeDef::default())?;
    /// world.set_enabled(crate_box, false)?;
    /// for _ in 0..60 {
    ///     world.step(1.0 / 60.0);
    /// }
    /// assert_eq!(world.position(crate_box)?, Vec2::new(0.0, 5.0)); // held out of the world
    /// world.set_enabled(crate_box, true)?;
    /// world.step(1.0 / 60.0);
    /// assert!(world.position(crate_box)?.y < 5.0); // falls again
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_enabled(&mut self, id: BodyId, enabled: bool) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        match (self.bodies[bi].disabled, enabled) {
            (true, true) => self.enable_body(bi),
            (false, false) => self.disable_body(bi),
            _ => {}
        }
        Ok(())
    }

    /// Whether the body takes part in the simulation (see
    /// [`World::set_enabled`]).
    ///
    /// # Errors
    /// [`BodyError::StaleHandle`].
    pub fn is_enabled(&self, id: BodyId) -> Result<bool, BodyError> {
        Ok(!self.bodies[self.body_index(id)?].disabled)
    }

    /// Takes body `bi` out: its contacts, its joints' island links, its
    /// island; then, marked disabled (so that waking a neighbour's island
    /// no longer wakes the joints to it), its joints leave the awake set
    /// and what they held wakes; last, its proxies.
    fn disable_body(&mut self, bi: u32) {
        self.destroy_contacts_of_body(bi);
        // Its polygons weld to nothing while it is out; a static body's
        // no longer cover other static bodies' edges.
        let regions = self.static_seam_regions(bi);
        let joints: Vec<(u32, u32)> = body_joints(&self.joints, &self.bodies[bi]).collect();
        for &(ji, _) in &joints {
            self.unlink_joint_from_island(ji);
            self.joints[ji].color = NO_COLOR;
        }
        if self.bodies[bi].in_islands() {
            self.leave_island(bi);
        }
        let b = &mut self.bodies[bi];
        b.disabled = true;
        b.force = Vec2::ZERO;
        b.torque = 0.0;
        for &(ji, side) in &joints {
            self.awake.joints.remove(ji);
            // What it held moves freely now.
            let other = self.joints[ji].body(1 - side);
            self.wake_body(other);
        }
        for k in 0..self.bodies[bi].shapes.len() {
            let si = self.bodies[bi].shapes[k];
            self.broadphase.destroy_proxy(self.shapes[si].proxy);
            self.shapes[si].proxy = crate::body::NULL;
            self.forget_seams(si);
        }
        self.reseam(&regions);
    }

    /// Brings body `bi` back: proxies where it is, an island of its own
    /// (awake), and its joints linked as new ones would be.
    fn enable_body(&mut self, bi: u32) {
        self.bodies[bi].disabled = false;
        for k in 0..self.bodies[bi].shapes.len() {
            let si = self.bodies[bi].shapes[k];
            let aabb = self.shapes[si].shape.aabb(self.bodies[bi].xf);
            self.create_shape_proxy(si, aabb);
        }
        // Back in the broadphase, its polygons weld again.
        let regions = self.seam_regions_of_body(bi);
        self.reseam(&regions);
        if self.bodies[bi].in_islands() {
            self.bodies[bi].sleep_time = 0.0;
            self.join_new_island(bi, true);
        }
        let joints: Vec<u32> = body_joints(&self.joints, &self.bodies[bi])
            .map(|(ji, _)| ji)
            .collect();
        for ji in joints {
            self.link_joint(ji);
        }
    }
}
