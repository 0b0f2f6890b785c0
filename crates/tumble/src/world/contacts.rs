//! Contacts: made when the broadphase finds a new pair, destroyed when
//! their fat boxes part or a body or shape goes, and read by the user.

use super::World;
use crate::body::{edges, BodyType};
use crate::broadphase::pair_key;
use crate::collision::Manifold;
use crate::contact::{body_contacts, mix_material, Contact, ContactOptions};
use crate::error::BodyError;
use crate::events::{ContactEvents, ContactTouch};
use crate::store::Store;
use crate::world::shapes::ShapeSlot;
use crate::world::{BodyId, ShapeId};

/// A contact as the user sees it: which shapes, and their manifold.
#[derive(Clone, Copy, Debug)]
pub struct ContactView<'a> {
    /// First shape; the normal points away from it.
    pub shape_a: ShapeId,
    /// Second shape.
    pub shape_b: ShapeId,
    /// Body of the first shape.
    pub body_a: BodyId,
    /// Body of the second shape.
    pub body_b: BodyId,
    /// Points, normal, separations and the impulses of the last step.
    pub manifold: &'a Manifold,
}

impl World {
    /// Makes the contact of shapes `sa` and `sb` (on different bodies, at
    /// least one dynamic), links it into both bodies' lists and, if either
    /// body is awake and not static, into the awake set.
    pub(super) fn create_contact(&mut self, sa: u32, sb: u32) {
        let (ba, bb) = (self.shapes[sa].body, self.shapes[sb].body);
        let (da, db) = (self.shapes[sa].def, self.shapes[sb].def);
        let part_a = self.shapes[sa].part.min(0xff) as u64;
        let part_b = self.shapes[sb].part.min(0xff) as u64;
        let mut contact = Contact::new(
            [(sa, ba), (sb, bb)],
            mix_material(&da, &db, self.max_speed()),
            (part_a << 32) | (part_b << 40),
            self.contact_options(sa, sb),
        );
        contact.round = [
            self.shapes[sa].shape.round_radius(),
            self.shapes[sb].shape.round_radius(),
        ];
        let radius = self.shapes[sa].shape.radius().max(self.shapes[sb].shape.radius());
        contact.rolling_resistance = da.rolling_resistance.max(db.rolling_resistance) * radius;
        let ci = self.contacts.insert(contact).index;
        edges::link(&mut self.contacts, &mut self.bodies, ci);
        self.pair_map.insert(pair_key(sa, sb), ci);
        if self.simulates(ba) || self.simulates(bb) {
            self.awake.contacts.insert(ci);
        }
    }

    /// Whether body `bi` is simulated: awake and not static.
    #[inline]
    pub(super) fn simulates(&self, bi: u32) -> bool {
        self.awake.bodies.contains(bi)
    }

    /// Whether both bodies of contact `ci` belong to islands (neither is
    /// static): only then does touching link them.
    #[inline]
    pub(super) fn links_islands(&self, ci: u32) -> bool {
        let c = &self.contacts[ci];
        self.bodies[c.body_a].body_type != BodyType::Static
            && self.bodies[c.body_b].body_type != BodyType::Static
    }

    /// Counts touching contact `ci`'s end as a removal in its island (if
    /// it linked one): the island may have come apart, and is checked
    /// before it sleeps.
    pub(super) fn unlink_from_island(&mut self, ci: u32) {
        if self.links_islands(ci) {
            let island = self.bodies[self.contacts[ci].body_a].island;
            self.islands[island].constraint_remove_count += 1;
        }
    }

    /// Destroys contact `ci`: off its bodies' lists, the pair map and the
    /// awake set. A touching contact that linked an island counts as a
    /// removal there (the island may have come apart).
    pub(super) fn destroy_contact(&mut self, ci: u32) {
        if self.contacts[ci].touching() {
            self.unlink_from_island(ci);
        }
        let c = &self.contacts[ci];
        let key = pair_key(c.shape_a, c.shape_b);
        edges::unlink(&mut self.contacts, &mut self.bodies, ci);
        self.pair_map.remove(key);
        self.awake.contacts.remove(ci);
        self.contacts.remove(ci);
    }

    /// Destroys the contacts of body `bi` (walking its own list, nothing
    /// else), in slot order; the bodies it touched wake up.
    pub(super) fn destroy_contacts_of_body(&mut self, bi: u32) {
        self.destroy_contacts_where(bi, |_, _| true);
    }

    /// Destroys the contacts of shape `si`, waking what it touched.
    pub(super) fn destroy_contacts_of_shape(&mut self, si: u32) {
        let bi = self.shapes[si].body;
        self.destroy_contacts_where(bi, |c, _| c.shape_a == si || c.shape_b == si);
    }

    /// Destroys the contacts of body `bi` that `pick` selects, in slot
    /// order, waking the other body of each touching one and reporting its
    /// end with the next step's events.
    pub(super) fn destroy_contacts_where(
        &mut self,
        bi: u32,
        pick: impl Fn(&Contact, &Store<ShapeSlot>) -> bool,
    ) {
        let mut doomed = std::mem::take(&mut self.scratch.doomed);
        let mut to_wake = std::mem::take(&mut self.scratch.to_wake);
        for (ci, side) in body_contacts(&self.contacts, &self.bodies[bi]) {
            self.scratch.edge_visits += 1;
            let c = &self.contacts[ci];
            if pick(c, &self.shapes) {
                doomed.push(ci);
                if c.touching() {
                    to_wake.push(c.body(1 - side));
                }
            }
        }
        // Slot order, whatever order the list was built in.
        doomed.sort_unstable();
        for &ci in &doomed {
            let c = &self.contacts[ci];
            if c.touching() && c.options.contains(ContactOptions::TOUCH_EVENTS) {
                let end = self.touch_event(ci);
                self.pending_ends.push(end);
            }
            self.destroy_contact(ci);
        }
        for &other in &to_wake {
            self.ensure_awake(other);
        }
        doomed.clear();
        to_wake.clear();
        self.scratch.doomed = doomed;
        self.scratch.to_wake = to_wake;
    }

    /// Records the end of touching contact `ci` in this step's events, if
    /// it reports them.
    pub(super) fn record_end(&mut self, ci: u32) {
        if self.contacts[ci].options.contains(ContactOptions::TOUCH_EVENTS) {
            let end = self.touch_event(ci);
            self.events.end.push(end);
        }
    }

    /// The event naming contact `ci`'s shapes and bodies (while its shapes
    /// still live).
    pub(super) fn touch_event(&self, ci: u32) -> ContactTouch {
        let c = &self.contacts[ci];
        ContactTouch {
            shape_a: self.shape_id(c.shape_a),
            shape_b: self.shape_id(c.shape_b),
            body_a: self.body_id(c.body_a),
            body_b: self.body_id(c.body_b),
        }
    }

    /// The contact events of the last step: which pairs of shapes began
    /// touching and which stopped (including, first, the touching
    /// contacts that removing a body or shape, or changing a body's type,
    /// ended since the step before). Valid until the next step; a restored
    /// snapshot reports none until it steps.
    pub fn contact_events(&self) -> &ContactEvents {
        &self.events
    }

    /// The contact events of the last step, moved out to the caller, so
    /// that a game can change the world while it loops over them (the
    /// world then reports none until its next step). The world's buffers
    /// go with them and the next step makes new ones; for frames that
    /// allocate nothing, copy into a buffer kept between frames instead:
    /// `world.contact_events().clone_into(&mut mine)`.
    ///
    /// ```
    /// # use tumble::{BodyDef, Polygon, ShapeDef, Vec2, World};
    /// let mut world = World::default();
    /// let ground = world.create_body(&BodyDef::static_body()).unwrap();
    /// world.create_shape(ground, Polygon::new_box(5.0, 0.5).unwrap(), &ShapeDef::default()).unwrap();
    /// let rock = world.create_body(&BodyDef::dynamic().at(Vec2::new(0.0, 1.0))).unwrap();
    /// world.create_shape(rock, Polygon::new_box(0.5, 0.5).unwrap(), &ShapeDef::default()).unwrap();
    /// let mut removed = false;
    /// for _ in 0..60 {
    ///     world.step(1.0 / 60.0);
    ///     for touch in world.take_contact_events().begin {
    ///         // The rock breaks where it lands.
    ///         if (touch.body_a == rock || touch.body_b == rock) && world.contains_body(rock) {
    ///             world.remove_body(rock).unwrap();
    ///             removed = true;
    ///         }
    ///     }
    /// }
    /// assert!(removed);
    /// ```
    pub fn take_contact_events(&mut self) -> ContactEvents {
        std::mem::take(&mut self.events)
    }

    /// The contacts of body `id` that have at least one manifold point
    /// (touching or within the speculative distance), without allocating
    /// (Box2D's `b2Body_GetContactData`): what a car's chassis touches. The
    /// body may be either end (`body_a` or `body_b`) of each. Errors with
    /// [`BodyError::StaleHandle`] for a removed body.
    pub fn body_contacts(&self, id: BodyId) -> Result<impl Iterator<Item = ContactView<'_>> + '_, BodyError> {
        let bi = self.body_index(id)?;
        Ok(body_contacts(&self.contacts, &self.bodies[bi])
            .map(|(ci, _)| &self.contacts[ci])
            .filter(|c| c.manifold.count > 0)
            .map(|c| self.view(c)))
    }

    /// The contacts of shape `id` that have at least one manifold point,
    /// without allocating: those of its body's contacts it is an end of.
    /// Errors with [`BodyError::StaleHandle`] for a removed shape.
    pub fn shape_contacts(
        &self,
        id: ShapeId,
    ) -> Result<impl Iterator<Item = ContactView<'_>> + '_, BodyError> {
        let si = self.shape_index(id)?;
        let bi = self.shapes[si].body;
        Ok(body_contacts(&self.contacts, &self.bodies[bi])
            .map(|(ci, _)| &self.contacts[ci])
            .filter(move |c| c.manifold.count > 0 && (c.shape_a == si || c.shape_b == si))
            .map(|c| self.view(c)))
    }

    /// A contact as the public view.
    fn view<'a>(&'a self, c: &'a Contact) -> ContactView<'a> {
        ContactView {
            shape_a: self.shape_id(c.shape_a),
            shape_b: self.shape_id(c.shape_b),
            body_a: self.body_id(c.body_a),
            body_b: self.body_id(c.body_b),
            manifold: &c.manifold,
        }
    }

    /// Number of live contacts (pairs of shapes whose fat AABBs overlap):
    /// O(1).
    pub fn contact_count(&self) -> usize {
        self.contacts.count()
    }

    /// How many contacts the last step kept their manifold for, moving its
    /// points with the bodies instead of colliding the shapes again (see
    /// [`crate::SolverSettings::contact_recycling`]): in a pile at rest,
    /// most of them. Pairs without points whose bodies are still too far
    /// apart to touch in the step keep their empty manifold, and count
    /// too.
    pub fn recycled_contact_count(&self) -> usize {
        self.recycled
    }

    /// Contacts with at least one manifold point (touching or within the
    /// speculative distance), in a deterministic order.
    pub fn contacts(&self) -> impl Iterator<Item = ContactView<'_>> + '_ {
        self.contacts
            .iter()
            .filter(|(_, c)| c.manifold.count > 0)
            .map(|(_, c)| self.view(c))
    }
}
