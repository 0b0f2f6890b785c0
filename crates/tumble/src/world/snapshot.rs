//! Snapshots: `World` as serde data (the `serde` feature).
//!
//! Everything that decides the next step is saved: bodies, shape slots,
//! contacts with their warm-start impulses, the broadphase tree and its move
//! buffer, the settings, the free lists (so new handles come out the same),
//! the step count, the frozen list and the last step's length (how far a
//! body given a new velocity is looked ahead for). Two things are not: the scratch
//! buffers, which every step clears before use, and the pair map, a lookup
//! index over the live contacts that is rebuilt on loading. A world loaded
//! from a snapshot therefore steps bit for bit like the world that was saved.

use super::{BodyId, PairMap, Scratch, ShapeSlot, World};
use crate::broadphase::{pair_key, BroadPhase};
use crate::dynamics::body::Body;
use crate::dynamics::contact::Contact;
use crate::settings::WorldSettings;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Bumped whenever the saved layout changes, so an old snapshot is refused
/// with a message instead of being misread.
const SNAPSHOT_VERSION: u32 = 3;

/// What is written: borrowed views of the world's fields.
#[derive(Serialize)]
struct SnapshotRef<'a> {
    version: u32,
    settings: &'a WorldSettings,
    bodies: &'a [Body],
    free_bodies: &'a [u32],
    shapes: &'a [ShapeSlot],
    free_shapes: &'a [u32],
    contacts: &'a [Contact],
    free_contacts: &'a [u32],
    broadphase: &'a BroadPhase,
    step_count: u64,
    frozen: &'a [BodyId],
    last_dt: f32,
}

/// What is read back: the same fields, owned.
#[derive(Deserialize)]
struct Snapshot {
    version: u32,
    settings: WorldSettings,
    bodies: Vec<Body>,
    free_bodies: Vec<u32>,
    shapes: Vec<ShapeSlot>,
    free_shapes: Vec<u32>,
    contacts: Vec<Contact>,
    free_contacts: Vec<u32>,
    broadphase: BroadPhase,
    step_count: u64,
    frozen: Vec<BodyId>,
    last_dt: f32,
}

impl Serialize for World {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SnapshotRef {
            version: SNAPSHOT_VERSION,
            settings: &self.settings,
            bodies: &self.bodies,
            free_bodies: &self.free_bodies,
            shapes: &self.shapes,
            free_shapes: &self.free_shapes,
            contacts: &self.contacts,
            free_contacts: &self.free_contacts,
            broadphase: &self.broadphase,
            step_count: self.step_count,
            frozen: &self.frozen,
            last_dt: self.last_dt,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for World {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<World, D::Error> {
        let s = Snapshot::deserialize(deserializer)?;
        if s.version != SNAPSHOT_VERSION {
            return Err(D::Error::custom(format_args!(
                "snapshot version {} (this build reads version {SNAPSHOT_VERSION})",
                s.version
            )));
        }
        check_links(&s).map_err(D::Error::custom)?;
        if !(s.last_dt.is_finite() && s.last_dt > 0.0) {
            return Err(D::Error::custom(
                "the last step's length is not a positive finite number",
            ));
        }
        // The pair map indexes the live contacts by their shape pair.
        let mut pair_map = PairMap::default();
        for (ci, c) in s.contacts.iter().enumerate() {
            if c.alive
                && pair_map
                    .insert(pair_key(c.shape_a, c.shape_b), ci as u32)
                    .is_some()
            {
                return Err(D::Error::custom("two live contacts for one shape pair"));
            }
        }
        Ok(World {
            settings: s.settings,
            bodies: s.bodies,
            free_bodies: s.free_bodies,
            shapes: s.shapes,
            free_shapes: s.free_shapes,
            contacts: s.contacts,
            free_contacts: s.free_contacts,
            pair_map,
            broadphase: s.broadphase,
            step_count: s.step_count,
            frozen: s.frozen,
            last_dt: s.last_dt,
            scratch: Scratch::default(),
        })
    }
}

/// Checks that the indices linking bodies, shapes, contacts and proxies
/// point where they should, so a damaged or hand-edited snapshot is an
/// error here rather than an index panic in a later step.
fn check_links(s: &Snapshot) -> Result<(), &'static str> {
    let live_body = |i: u32| s.bodies.get(i as usize).is_some_and(|b| b.alive);
    let live_shape = |i: u32| s.shapes.get(i as usize).is_some_and(|sh| sh.alive);
    for (bi, b) in s.bodies.iter().enumerate().filter(|(_, b)| b.alive) {
        for &si in &b.shapes {
            if !live_shape(si) || s.shapes[si as usize].body as usize != bi {
                return Err("a body lists a shape that is not attached to it");
            }
        }
    }
    for (si, slot) in s.shapes.iter().enumerate().filter(|(_, sh)| sh.alive) {
        if !live_body(slot.body) {
            return Err("a shape is attached to a missing body");
        }
        if slot.shape.validate().is_err() {
            return Err("a shape's geometry is invalid");
        }
        let tree = s.broadphase.tree();
        if !tree.is_proxy(slot.proxy) || tree.user_data(slot.proxy) as usize != si {
            return Err("a shape's broadphase proxy is missing");
        }
    }
    for c in s.contacts.iter().filter(|c| c.alive) {
        if !live_shape(c.shape_a) || !live_shape(c.shape_b) {
            return Err("a contact refers to a missing shape");
        }
        if s.shapes[c.shape_a as usize].body != c.body_a || s.shapes[c.shape_b as usize].body != c.body_b {
            return Err("a contact's bodies do not match its shapes");
        }
        if c.manifold.count > c.manifold.points.len() {
            return Err("a manifold has more than two points");
        }
        let k = &c.cache;
        let finite = k.limit.is_finite()
            && k.limit >= 0.0
            && [k.offset_in_a, k.offset_in_b, k.normal]
                .iter()
                .chain(&k.anchors_a)
                .chain(&k.anchors_b)
                .all(|v| v.is_finite())
            && k.rotation.c.is_finite()
            && k.rotation.s.is_finite()
            && k.circle.is_none_or(f32::is_finite);
        if !finite {
            return Err("a contact's recycling cache is not finite");
        }
    }
    let free_ok = |free: &[u32], len: usize, alive: &dyn Fn(u32) -> bool| {
        free.iter().all(|&i| (i as usize) < len && !alive(i))
    };
    let live_contact = |i: u32| s.contacts.get(i as usize).is_some_and(|c| c.alive);
    if !free_ok(&s.free_bodies, s.bodies.len(), &live_body)
        || !free_ok(&s.free_shapes, s.shapes.len(), &live_shape)
        || !free_ok(&s.free_contacts, s.contacts.len(), &live_contact)
    {
        return Err("a free list names a live or missing slot");
    }
    Ok(())
}
