//! Snapshots: `World` as serde data (the `serde` feature).
//!
//! Everything that decides the next step is saved: the stores of bodies,
//! shapes, contacts and joints (with their warm-start impulses and edges), islands and
//! sensors (with what overlaps them), the awake sets, the broadphase tree and its move buffer, the settings,
//! the step count, the frozen list and the last step's length (how far a
//! body given a new velocity is looked ahead for). What is not: the
//! scratch buffers and the solver's, which every step clears before use;
//! the pair map, a lookup index over the live contacts that is rebuilt on
//! loading; and the last step's events and profile, which describe that
//! step rather than decide the next. A world loaded from a snapshot therefore steps bit for bit
//! like the world that was saved, asleep or awake.

use super::joints::check_frames;
use super::sensors::Sensor;
use super::{Awake, BodyId, PairMap, Scratch, ShapeSlot, World};
use crate::body::{edges, Body, BodyType, NULL};
use crate::broadphase::{pair_key, BroadPhase};
use crate::contact::Contact;
use crate::island::Island;
use crate::joint::Joint;
use crate::math::Aabb;
use crate::settings::WorldSettings;
use crate::solver::Solver;
use crate::store::Store;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Bumped whenever the saved layout changes, so an old snapshot is refused
/// with a message instead of being misread.
const SNAPSHOT_VERSION: u32 = 15;

/// What is written: borrowed views of the world's fields.
#[derive(Serialize)]
struct SnapshotRef<'a> {
    version: u32,
    settings: &'a WorldSettings,
    bodies: &'a Store<Body>,
    shapes: &'a Store<ShapeSlot>,
    contacts: &'a Store<Contact>,
    joints: &'a Store<Joint>,
    islands: &'a Store<Island>,
    sensors: &'a Store<Sensor>,
    awake: &'a Awake,
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
    bodies: Store<Body>,
    shapes: Store<ShapeSlot>,
    contacts: Store<Contact>,
    joints: Store<Joint>,
    islands: Store<Island>,
    sensors: Store<Sensor>,
    awake: Awake,
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
            shapes: &self.shapes,
            contacts: &self.contacts,
            joints: &self.joints,
            islands: &self.islands,
            sensors: &self.sensors,
            awake: &self.awake,
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
        if s.settings.solver.validate().is_err() {
            return Err(D::Error::custom("the solver settings are out of range"));
        }
        // The pair map indexes the live contacts by their shape pair.
        let mut pair_map = PairMap::default();
        for (ci, c) in s.contacts.iter() {
            if pair_map.insert(pair_key(c.shape_a, c.shape_b), ci).is_some() {
                return Err(D::Error::custom("two live contacts for one shape pair"));
            }
        }
        // The shapes' fat boxes, as their proxies hold them.
        let mut fat_boxes = vec![Aabb::default(); s.shapes.slot_count()];
        for (si, slot) in s.shapes.iter() {
            fat_boxes[si as usize] = s.broadphase.fat_aabb(slot.proxy);
        }
        let mut settings = s.settings;
        // A snapshot taken on another machine may ask for more threads
        // than this one offers: any count gives the same results.
        settings.workers = settings.workers.clamp(1, crate::settings::MAX_WORKERS);
        Ok(World {
            workers: crate::parallel::Workers::new(settings.workers),
            settings,
            bodies: s.bodies,
            shapes: s.shapes,
            contacts: s.contacts,
            joints: s.joints,
            islands: s.islands,
            awake: s.awake,
            pair_map,
            broadphase: s.broadphase,
            fat_boxes,
            step_count: s.step_count,
            frozen: s.frozen,
            last_dt: s.last_dt,
            solver: Solver::default(),
            profile: Default::default(),
            events: Default::default(),
            pending_ends: Vec::new(),
            sensors: s.sensors,
            sensor_events: Default::default(),
            pending_sensor_ends: Vec::new(),
            scratch: Scratch::default(),
        })
    }
}

/// Checks that the indices linking bodies, shapes, contacts, islands and
/// proxies point where they should, so a damaged or hand-edited snapshot
/// is an error here rather than an index panic in a later step.
fn check_links(s: &Snapshot) -> Result<(), &'static str> {
    s.bodies.check()?;
    s.shapes.check()?;
    s.contacts.check()?;
    s.joints.check()?;
    s.islands.check()?;
    s.sensors.check()?;
    let live_body = |i: u32| s.bodies.is_alive(i);
    let live_shape = |i: u32| s.shapes.is_alive(i);
    for (bi, b) in s.bodies.iter() {
        for &si in &b.shapes {
            if !live_shape(si) || s.shapes[si].body != bi {
                return Err("a body lists a shape that is not attached to it");
            }
        }
        let fixed = b.body_type == BodyType::Static;
        if fixed != (b.island == NULL) || (!fixed && !s.islands.is_alive(b.island)) {
            return Err("a body's island is missing, or a static body has one");
        }
        if fixed && s.awake.bodies.contains(bi) {
            return Err("a static body is in the awake set");
        }
        if !fixed && s.awake.bodies.contains(bi) != s.awake.islands.contains(b.island) {
            return Err("a body's sleep state differs from its island's");
        }
    }
    for (si, slot) in s.shapes.iter() {
        if !live_body(slot.body) {
            return Err("a shape is attached to a missing body");
        }
        if slot.shape.validate().is_err() {
            return Err("a shape's geometry is invalid");
        }
        let sensor = slot.sensor;
        if slot.def.sensor != (sensor != NULL)
            || (sensor != NULL && !(s.sensors.is_alive(sensor) && s.sensors[sensor].shape == si))
        {
            return Err("a sensor shape and its sensor do not match");
        }
        let tree = s.broadphase.tree();
        if !tree.is_proxy(slot.proxy) || tree.user_data(slot.proxy) != si {
            return Err("a shape's broadphase proxy is missing");
        }
        // (A frozen body's pose may not be finite: nothing holds it.)
        let body = &s.bodies[slot.body];
        if !body.frozen && !tree.fat_aabb(slot.proxy).contains(slot.shape.aabb(body.xf)) {
            return Err("a shape's fat box does not hold the shape");
        }
    }
    for (ci, c) in s.contacts.iter() {
        if !live_shape(c.shape_a) || !live_shape(c.shape_b) {
            return Err("a contact refers to a missing shape");
        }
        if s.shapes[c.shape_a].body != c.body_a
            || s.shapes[c.shape_b].body != c.body_b
            || c.body_a == c.body_b
        {
            return Err("a contact's bodies do not match its shapes");
        }
        if c.manifold.count > c.manifold.points.len() {
            return Err("a manifold has more than two points");
        }
        let awake = s.awake.bodies.contains(c.body_a) || s.awake.bodies.contains(c.body_b);
        if awake != s.awake.contacts.contains(ci) {
            return Err("a contact's sleep state differs from its bodies'");
        }
        let k = &c.cache;
        let finite = k.limit.is_finite()
            && k.limit >= 0.0
            && [k.offset_in_a, k.offset_in_b, k.normal]
                .iter()
                .chain(&k.anchors_a)
                .chain(&k.anchors_b)
                .chain(&k.levers_a)
                .chain(&k.levers_b)
                .all(|v| v.is_finite())
            && k.orientations.iter().all(|q| q.c.is_finite() && q.s.is_finite())
            && k.circle.is_none_or(f32::is_finite);
        if !finite {
            return Err("a contact's recycling cache is not finite");
        }
    }
    for (ji, j) in s.joints.iter() {
        if !live_body(j.body_a) || !live_body(j.body_b) || j.body_a == j.body_b {
            return Err("a joint refers to a missing body, or to one body twice");
        }
        if check_frames(j.frame_a, j.frame_b).and(j.kind.validate()).is_err() {
            return Err("a joint's frames or parameters are invalid");
        }
        let awake = s.awake.bodies.contains(j.body_a) || s.awake.bodies.contains(j.body_b);
        if awake != s.awake.joints.contains(ji) {
            return Err("a joint's sleep state differs from its bodies'");
        }
    }
    for (k, sensor) in s.sensors.iter() {
        if !live_shape(sensor.shape) || s.shapes[sensor.shape].sensor != k {
            return Err("a sensor refers to a missing shape");
        }
        if !sensor.overlaps.windows(2).all(|w| w[0] < w[1]) {
            return Err("a sensor's overlaps are not sorted");
        }
    }
    edges::check_lists(&s.contacts, &s.bodies).map_err(|()| "a body's contact list is broken")?;
    edges::check_lists(&s.joints, &s.bodies).map_err(|()| "a body's joint list is broken")?;
    check_islands(s)?;
    let sets = &s.awake;
    if !(sets.bodies.is_consistent()
        && sets.contacts.is_consistent()
        && sets.islands.is_consistent()
        && sets.joints.is_consistent())
        || sets.bodies.iter().any(|i| !live_body(i))
        || sets.contacts.iter().any(|i| !s.contacts.is_alive(i))
        || sets.joints.iter().any(|i| !s.joints.is_alive(i))
        || sets.islands.iter().any(|i| !s.islands.is_alive(i))
    {
        return Err("an awake set names a missing slot");
    }
    Ok(())
}

/// Every island's body list holds exactly the bodies that name it.
fn check_islands(s: &Snapshot) -> Result<(), &'static str> {
    let mut seen = 0usize;
    for (isl, is) in s.islands.iter() {
        let mut count = 0u32;
        let mut bi = is.head;
        let mut prev = NULL;
        while bi != NULL {
            if !s.bodies.is_alive(bi)
                || s.bodies[bi].island != isl
                || s.bodies[bi].island_prev != prev
                || count > is.body_count
            {
                return Err("an island's body list is broken");
            }
            count += 1;
            prev = bi;
            bi = s.bodies[bi].island_next;
        }
        if count != is.body_count || count == 0 || prev != is.tail {
            return Err("an island's body count does not match its list");
        }
        seen += count as usize;
    }
    let non_static = s
        .bodies
        .iter()
        .filter(|(_, b)| b.body_type != BodyType::Static)
        .count();
    if seen != non_static {
        return Err("a body is missing from its island");
    }
    Ok(())
}
