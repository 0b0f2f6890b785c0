//! Sleeping and waking: whole islands at a time, through the bodies' own
//! contact lists.

use super::{BodyId, World};
use crate::contact::body_contacts;
use crate::error::BodyError;
use crate::island;
use crate::joint::body_joints;
use crate::math::Vec2;

impl World {
    /// Whether the body is awake: simulated every step. Static bodies are
    /// never awake; a dynamic or kinematic one is awake unless its island
    /// fell asleep (or was put to sleep).
    pub fn is_awake(&self, id: BodyId) -> Result<bool, BodyError> {
        Ok(self.simulates(self.body_index(id)?))
    }

    /// Wakes the body and its island (a static body has none: nothing
    /// happens).
    pub fn wake(&mut self, id: BodyId) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        self.wake_body(bi);
        Ok(())
    }

    /// Wakes the body's island (`true`) or puts it to sleep at once
    /// (`false`), whatever its bodies' speeds. A static body has no island:
    /// nothing happens. A body that cannot sleep ([`crate::BodyDef::can_sleep`])
    /// still can be put to sleep this way.
    pub fn set_awake(&mut self, id: BodyId, awake: bool) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !self.bodies[bi].in_islands() {
            return Ok(());
        }
        if awake {
            self.wake_body(bi);
        } else if self.simulates(bi) {
            let isl = self.bodies[bi].island;
            if self.islands[isl].constraint_remove_count > 0 {
                // Only what is still connected goes to sleep with it.
                self.split_now(isl);
            }
            self.sleep_island(self.bodies[bi].island);
        }
        Ok(())
    }

    /// Non-static bodies awake now: O(1).
    pub fn awake_body_count(&self) -> usize {
        self.awake.bodies.len()
    }

    /// Turns sleeping on or off ([`crate::WorldSettings::sleeping`]). Off
    /// wakes every island.
    pub fn set_sleeping(&mut self, enabled: bool) {
        if !enabled {
            self.wake_all();
        }
        self.settings.sleeping = enabled;
    }

    /// Wakes body `bi`'s island if it is asleep, and restarts the body's
    /// sleep timer: what a user's call that moves a body does. Static
    /// bodies have no island and are left alone.
    pub(super) fn wake_body(&mut self, bi: u32) {
        if !self.bodies[bi].in_islands() {
            return;
        }
        self.bodies[bi].sleep_time = 0.0;
        self.ensure_awake(bi);
    }

    /// Wakes body `bi`'s island if it is asleep (restarting its bodies'
    /// timers), and leaves an awake body's timer alone: what a contact
    /// beginning or a neighbour removed does. A pile whose speculative
    /// contacts come and go as it settles still falls asleep.
    pub(super) fn ensure_awake(&mut self, bi: u32) {
        self.ensure_awake_listing(bi, None);
    }

    /// [`World::ensure_awake`], adding the touching contacts of an island
    /// it wakes to `touching` if given: they were not collided this step,
    /// and keep the manifolds they fell asleep with.
    pub(super) fn ensure_awake_listing(&mut self, bi: u32, touching: Option<&mut Vec<u32>>) {
        let b = &self.bodies[bi];
        if b.in_islands() && !self.awake.islands.contains(b.island) {
            self.wake_island(b.island, touching);
        }
    }

    /// Wakes every sleeping island.
    pub(super) fn wake_all(&mut self) {
        for isl in 0..self.islands.slot_count() as u32 {
            if self.islands.is_alive(isl) && !self.awake.islands.contains(isl) {
                self.wake_island(isl, None);
            }
        }
    }

    /// Wakes island `isl`: its bodies and all their contacts and joints
    /// join the awake sets, with their sleep timers restarted. Its
    /// touching contacts are added to `touching`, if given.
    fn wake_island(&mut self, isl: u32, mut touching: Option<&mut Vec<u32>>) {
        self.awake.islands.insert(isl);
        let mut bi = self.islands[isl].head;
        while bi != crate::body::NULL {
            self.awake.bodies.insert(bi);
            self.bodies[bi].sleep_time = 0.0;
            self.bodies[bi].never_awake = false;
            for (ci, _) in body_contacts(&self.contacts, &self.bodies[bi]) {
                self.scratch.edge_visits += 1;
                if self.awake.contacts.insert(ci) && self.contacts[ci].touching() {
                    if let Some(list) = touching.as_deref_mut() {
                        list.push(ci);
                    }
                }
            }
            for (ji, side) in body_joints(&self.joints, &self.bodies[bi]) {
                // (A joint to a disabled body is idle.)
                if !self.bodies[self.joints[ji].body(1 - side)].disabled {
                    self.awake.joints.insert(ji);
                }
            }
            bi = self.bodies[bi].island_next;
        }
    }

    /// Puts island `isl` to sleep: its bodies stop (their velocities and
    /// forces are cleared) and leave the awake set, and so do the contacts
    /// and joints that no awake body is left on.
    pub(super) fn sleep_island(&mut self, isl: u32) {
        self.awake.islands.remove(isl);
        let mut bi = self.islands[isl].head;
        while bi != crate::body::NULL {
            self.awake.bodies.remove(bi);
            let b = &mut self.bodies[bi];
            b.v = Vec2::ZERO;
            b.w = 0.0;
            b.force = Vec2::ZERO;
            b.torque = 0.0;
            for (ci, side) in body_contacts(&self.contacts, &self.bodies[bi]) {
                self.scratch.edge_visits += 1;
                let other = self.contacts[ci].body(1 - side);
                if !self.simulates(other) {
                    self.awake.contacts.remove(ci);
                }
            }
            for (ji, side) in body_joints(&self.joints, &self.bodies[bi]) {
                if !self.simulates(self.joints[ji].body(1 - side)) {
                    self.awake.joints.remove(ji);
                }
            }
            bi = self.bodies[bi].island_next;
        }
    }

    /// Splits island `isl` into its connected parts now; the new parts are
    /// awake like it, and listed in the scratch's `created_islands`.
    pub(super) fn split_now(&mut self, isl: u32) {
        let mut created = std::mem::take(&mut self.scratch.created_islands);
        created.clear();
        island::split(
            &mut self.islands,
            &mut self.bodies,
            (&self.contacts, &self.joints),
            isl,
            &mut self.scratch.split,
            &mut created,
        );
        for &part in &created {
            self.awake.islands.insert(part);
        }
        self.scratch.created_islands = created;
    }
}
