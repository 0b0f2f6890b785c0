//! Snapshots: `World` as serde data (the `serde` feature).
//!
//! Everything that decides the next step is saved: the stores of bodies,
//! shapes, contacts and joints (with their warm-start impulses and edges), islands and
//! sensors (with what overlaps them), the awake sets, the broadphase tree and its move buffer, the
//! polygons' seams, the settings,
//! the step count, the frozen list, the last step's length (how far a
//! body given a new velocity is looked ahead for) and the ends of touches
//! and sensor overlaps that calls since the last step caused (the next
//! step reports them). What is not: the
//! scratch buffers and the solver's, which every step clears before use;
//! the pair map, a lookup index over the live contacts that is rebuilt on
//! loading; and the last step's events and profile, which describe that
//! step rather than decide the next. A world loaded from a snapshot therefore steps bit for bit
//! like the world that was saved, asleep or awake.
//!
//! # Layout
//!
//! A snapshot is a struct of three fields in whatever serde format the
//! caller picks: `version` (the layout's number, [`SNAPSHOT_VERSION`]),
//! `checksum` (a CRC-64 of the state's bytes) and `state`: the world's
//! fields encoded as bytes by `postcard`, one fixed binary encoding. The
//! state is bytes, not nested serde data, for two reasons. Every `f32`
//! is kept bit for bit, NaN and infinities included, in any outer format
//! (JSON has no text for a non-finite number, so a frozen body's
//! infinite speed written field by field would not read back); and the
//! checksum is over exactly those bytes, the same whichever format
//! carries them. Loading reads the version first (an old snapshot is
//! refused by its number before its state is misread), then checks the
//! sum (a damaged one is refused, saying so), then the links between the
//! stores.

use super::checks::check_frames;
use super::seams::SeamTable;
use super::sensors::Sensor;
use super::{Awake, BodyId, PairMap, Scratch, ShapeSlot, World};
use crate::body::{edges, Body, NULL};
use crate::broadphase::{pair_key, BroadPhase};
use crate::contact::Contact;
use crate::events::{ContactTouch, SensorOverlap};
use crate::island::Island;
use crate::joint::Joint;
use crate::math::Aabb;
use crate::settings::WorldSettings;
use crate::solver::Solver;
use crate::store::Store;
use serde::de::{self, Error as _};
use serde::ser::{Error as _, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Bumped whenever the saved layout changes, so an old snapshot is refused
/// with a message instead of being misread.
pub(super) const SNAPSHOT_VERSION: u32 = 21;

/// The name and fields of the outer struct.
const ENVELOPE: &str = "Snapshot";
const FIELDS: &[&str] = &["version", "checksum", "state"];

/// What is written as the state: borrowed views of the world's fields.
#[derive(Serialize)]
pub(super) struct SnapshotRef<'a> {
    settings: &'a WorldSettings,
    bodies: &'a Store<Body>,
    shapes: &'a Store<ShapeSlot>,
    contacts: &'a Store<Contact>,
    joints: &'a Store<Joint>,
    islands: &'a Store<Island>,
    sensors: &'a Store<Sensor>,
    awake: &'a Awake,
    broadphase: &'a BroadPhase,
    seams: &'a SeamTable,
    step_count: u64,
    frozen: &'a [BodyId],
    last_dt: f32,
    pending_ends: &'a [ContactTouch],
    pending_sensor_ends: &'a [SensorOverlap],
}

/// What is read back: the same fields, owned.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
pub(super) struct Snapshot {
    pub(super) settings: WorldSettings,
    pub(super) bodies: Store<Body>,
    pub(super) shapes: Store<ShapeSlot>,
    pub(super) contacts: Store<Contact>,
    pub(super) joints: Store<Joint>,
    pub(super) islands: Store<Island>,
    pub(super) sensors: Store<Sensor>,
    pub(super) awake: Awake,
    pub(super) broadphase: BroadPhase,
    pub(super) seams: SeamTable,
    pub(super) step_count: u64,
    pub(super) frozen: Vec<BodyId>,
    pub(super) last_dt: f32,
    pub(super) pending_ends: Vec<ContactTouch>,
    pub(super) pending_sensor_ends: Vec<SensorOverlap>,
}

/// The CRC-64 of `bytes` (the ECMA-182 polynomial, reflected, as xz
/// uses it): a change of any one byte, or of any run of bits up to 64
/// long, always changes it. A check against damage, not against a
/// forger, who can recompute it.
pub(super) fn checksum(bytes: &[u8]) -> u64 {
    let mut crc = !0u64;
    for &byte in bytes {
        crc = CRC_TABLE[((crc ^ byte as u64) & 0xff) as usize] ^ (crc >> 8);
    }
    !crc
}

/// The CRC-64 of each byte value, built at compile time.
const CRC_TABLE: [u64; 256] = {
    const POLY: u64 = 0xC96C_5795_D787_0F42;
    let mut table = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        let mut crc = i as u64;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ POLY } else { crc >> 1 };
            bit += 1;
        }
        table[i] = crc;
        i += 1;
    }
    table
};

/// Bytes written as serde bytes (a format may write them as a list of
/// numbers, as JSON does).
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// Bytes read back, from serde bytes or a list of numbers.
struct ByteBuf(Vec<u8>);

impl<'de> Deserialize<'de> for ByteBuf {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ByteBuf, D::Error> {
        struct Visit;
        impl<'de> de::Visitor<'de> for Visit {
            type Value = ByteBuf;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("the snapshot's state as bytes")
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v.to_vec()))
            }
            fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<ByteBuf, A::Error> {
                // The hint comes from the input: trust it only so far.
                let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 20));
                while let Some(b) = seq.next_element::<u8>()? {
                    v.push(b);
                }
                Ok(ByteBuf(v))
            }
        }
        deserializer.deserialize_byte_buf(Visit)
    }
}

/// The outer struct's field names.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Field {
    Version,
    Checksum,
    State,
}

/// The version, refused at once unless it is this build's.
fn check_version<E: de::Error>(version: u32) -> Result<(), E> {
    if version == SNAPSHOT_VERSION {
        Ok(())
    } else {
        Err(E::custom(format_args!(
            "snapshot version {version} (this build reads version {SNAPSHOT_VERSION})"
        )))
    }
}

/// Reads the outer struct: the version (checked first), the checksum and
/// the state's bytes.
struct EnvelopeVisitor;

impl<'de> de::Visitor<'de> for EnvelopeVisitor {
    type Value = (u64, Vec<u8>);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a tumble snapshot (version, checksum, state)")
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let missing = |i| A::Error::invalid_length(i, &"3 fields: version, checksum, state");
        let version: u32 = seq.next_element()?.ok_or_else(|| missing(0))?;
        check_version(version)?;
        let sum: u64 = seq.next_element()?.ok_or_else(|| missing(1))?;
        let state: ByteBuf = seq.next_element()?.ok_or_else(|| missing(2))?;
        Ok((sum, state.0))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut version, mut sum, mut state) = (None, None, None);
        while let Some(key) = map.next_key::<Field>()? {
            match key {
                Field::Version => {
                    let v: u32 = map.next_value()?;
                    check_version(v)?;
                    version = Some(v);
                }
                Field::Checksum => sum = Some(map.next_value::<u64>()?),
                Field::State => state = Some(map.next_value::<ByteBuf>()?.0),
            }
        }
        version.ok_or_else(|| A::Error::missing_field("version"))?;
        let sum = sum.ok_or_else(|| A::Error::missing_field("checksum"))?;
        let state = state.ok_or_else(|| A::Error::missing_field("state"))?;
        Ok((sum, state))
    }
}

impl World {
    /// The state a snapshot saves, borrowed.
    fn snapshot_ref(&self) -> SnapshotRef<'_> {
        SnapshotRef {
            settings: &self.settings,
            bodies: &self.bodies,
            shapes: &self.shapes,
            contacts: &self.contacts,
            joints: &self.joints,
            islands: &self.islands,
            sensors: &self.sensors,
            awake: &self.awake,
            broadphase: &self.broadphase,
            seams: &self.seams,
            step_count: self.step_count,
            frozen: &self.frozen,
            last_dt: self.last_dt,
            pending_ends: &self.pending_ends,
            pending_sensor_ends: &self.pending_sensor_ends,
        }
    }
}

impl Serialize for World {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let state = postcard::to_allocvec(&self.snapshot_ref()).map_err(S::Error::custom)?;
        let mut envelope = serializer.serialize_struct(ENVELOPE, FIELDS.len())?;
        envelope.serialize_field("version", &SNAPSHOT_VERSION)?;
        envelope.serialize_field("checksum", &checksum(&state))?;
        envelope.serialize_field("state", &Bytes(&state))?;
        envelope.end()
    }
}

impl<'de> Deserialize<'de> for World {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<World, D::Error> {
        let (sum, state) = deserializer.deserialize_struct(ENVELOPE, FIELDS, EnvelopeVisitor)?;
        let s = decode_state(sum, &state).map_err(D::Error::custom)?;
        World::from_snapshot(s).map_err(D::Error::custom)
    }
}

/// The state of a snapshot whose checksum was `sum`, decoded, or why it
/// is damaged.
pub(super) fn decode_state(sum: u64, state: &[u8]) -> Result<Snapshot, String> {
    if checksum(state) != sum {
        return Err("the snapshot is damaged: its checksum does not match its state".into());
    }
    match postcard::take_from_bytes::<Snapshot>(state) {
        Ok((s, [])) => Ok(s),
        Ok(_) => Err("the snapshot is damaged: bytes left over after its state".into()),
        Err(e) => Err(format!(
            "the snapshot is damaged: its state does not decode ({e})"
        )),
    }
}

impl World {
    /// The world a decoded snapshot describes, once its links are checked.
    pub(super) fn from_snapshot(s: Snapshot) -> Result<World, &'static str> {
        check_links(&s)?;
        if !(s.last_dt.is_finite() && s.last_dt > 0.0) {
            return Err("the last step's length is not a positive finite number");
        }
        if s.settings.solver.validate().is_err() {
            return Err("the solver settings are out of range");
        }
        let world = &s.settings;
        let in_range = super::checks::length_units_ok(world.length_units_per_meter)
            && crate::math::is_finite_vec(world.gravity)
            && super::checks::hit_threshold_ok(world.hit_event_threshold);
        if !in_range {
            return Err("the length units, gravity or hit threshold are out of range");
        }
        if super::checks::check_max_linear_speed(world.max_linear_speed).is_err()
            || super::checks::check_max_step(world.max_step, world.max_step_splits).is_err()
        {
            return Err("the speed limit or the longest step is out of range");
        }
        // The pair map indexes the live contacts by their shape pair.
        let mut pair_map = PairMap::default();
        for (ci, c) in s.contacts.iter() {
            if pair_map.insert(pair_key(c.shape_a, c.shape_b), ci).is_some() {
                return Err("two live contacts for one shape pair");
            }
        }
        // The shapes' fat boxes, as their proxies hold them.
        let mut fat_boxes = vec![Aabb::default(); s.shapes.slot_count()];
        for (si, slot) in s.shapes.iter() {
            if slot.proxy != NULL {
                fat_boxes[si as usize] = s.broadphase.fat_aabb(slot.proxy);
            }
        }
        let mut settings = s.settings;
        // A snapshot taken on another machine may ask for more threads
        // than this one offers: any count gives the same results.
        settings.workers = settings.workers.clamp(1, crate::settings::MAX_WORKERS);
        Ok(World {
            workers: crate::threads::Workers::new(settings.workers),
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
            seams: s.seams,
            step_count: s.step_count,
            frozen: s.frozen,
            last_dt: s.last_dt,
            solver: Solver::default(),
            profile: Default::default(),
            events: Default::default(),
            pending_ends: s.pending_ends,
            sensors: s.sensors,
            sensor_events: Default::default(),
            pending_sensor_ends: s.pending_sensor_ends,
            recycled: 0,
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
    s.broadphase.check()?;
    let live_body = |i: u32| s.bodies.is_alive(i);
    let live_shape = |i: u32| s.shapes.is_alive(i);
    for (bi, b) in s.bodies.iter() {
        for &si in &b.shapes {
            if !live_shape(si) || s.shapes[si].body != bi {
                return Err("a body lists a shape that is not attached to it");
            }
        }
        // Static and disabled bodies belong to no island.
        let fixed = !b.in_islands();
        if fixed != (b.island == NULL) || (!fixed && !s.islands.is_alive(b.island)) {
            return Err("a body's island is missing, or a static or disabled body has one");
        }
        if fixed && s.awake.bodies.contains(bi) {
            return Err("a static or disabled body is in the awake set");
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
        let body = &s.bodies[slot.body];
        // A disabled body's shapes have no proxies.
        if body.disabled {
            if slot.proxy != NULL {
                return Err("a disabled body's shape has a broadphase proxy");
            }
            continue;
        }
        if !tree.is_proxy(slot.proxy) || tree.user_data(slot.proxy) != si {
            return Err("a shape's broadphase proxy is missing");
        }
        // (A frozen body's pose may not be finite: nothing holds it.)
        if !body.frozen && !tree.fat_aabb(slot.proxy).contains(slot.shape.aabb(body.xf)) {
            return Err("a shape's fat box does not hold the shape");
        }
    }
    // Each shape with a proxy names its own leaf (checked above), so as
    // many proxies as such shapes leaves no leaf without a shape.
    let with_proxies = s.shapes.iter().filter(|(_, slot)| slot.proxy != NULL).count();
    if with_proxies != s.broadphase.tree().proxy_count() {
        return Err("the broadphase holds a proxy of no shape");
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
        // A joint is awake while a body of it is, unless a body of it is
        // disabled (it is idle then).
        let idle = s.bodies[j.body_a].disabled || s.bodies[j.body_b].disabled;
        let awake = !idle && (s.awake.bodies.contains(j.body_a) || s.awake.bodies.contains(j.body_b));
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
    let non_static = s.bodies.iter().filter(|(_, b)| b.in_islands()).count();
    if seen != non_static {
        return Err("a body is missing from its island");
    }
    Ok(())
}

#[cfg(test)]
#[path = "snapshot_tests.rs"]
mod tests;
