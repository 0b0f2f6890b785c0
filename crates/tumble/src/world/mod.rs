//! The [`World`]: owns every body, shape, contact and island, and steps
//! them.
//!
//! Read [`World::step`] (in `step.rs`) first: it is the whole pipeline, one
//! call per stage. The public API is split by noun: `bodies.rs`,
//! `shapes.rs`, `contacts.rs`, `queries.rs`, `sleep.rs` (islands, sleeping
//! and waking), `draw.rs`.

use crate::body::Body;
use crate::broadphase::BroadPhase;
use crate::contact::{Contact, ContactFlags};
use crate::error::BodyError;
use crate::events::{ContactEvents, ContactTouch, SensorEvents, SensorOverlap};
use crate::island::{Island, SplitScratch};
use crate::joint::Joint;
use crate::math::{is_finite_vec, Aabb, Vec2};
use crate::settings::{
    SolverSettings, WorldSettings, AABB_MARGIN, LINEAR_SLOP, MAX_STEP_SPLITS_LIMIT, MAX_WORKERS,
};
use crate::solver::Solver;
use crate::store::{BitSet, Store};
use crate::threads::Workers;
use pair_map::PairMap;

mod bodies;
mod checks;
mod contacts;
mod continuous;
mod draw;
mod enable;
mod joints;
mod mover;
mod pair_map;
mod pair_rules;
mod profile;
mod queries;
mod seams;
mod sensors;
mod shapes;
mod sleep;
mod step;
mod stepper;

pub use contacts::ContactView;
pub use draw::draw_shape;
pub use joints::JointDef;
pub use mover::{CharacterController, CharacterMove};
pub use profile::StepProfile;
pub use queries::{Explosion, RayHit, ShapeCastHit};
pub use stepper::FixedStepper;

use shapes::ShapeSlot;

pub use crate::id::{BodyId, JointId, ShapeId};

/// Heap memory a [`World`] holds, in bytes, by part. Figures are buffer
/// capacities (what is allocated), not lengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MemoryUsage {
    /// Body slots, their shape lists, the islands, the awake sets and the
    /// frozen list.
    pub bodies: usize,
    /// Shape slots.
    pub shapes: usize,
    /// Contact slots, the pair map and the step's list of contact changes.
    pub contacts: usize,
    /// The broadphase tree and its move buffer.
    pub broadphase: usize,
    /// Joint slots and the awake joint set.
    pub joints: usize,
    /// The solver's per-body scratch rows, reused every step.
    pub solver_bodies: usize,
    /// The solver's per-contact and per-joint scratch rows (constraints), its coloring's
    /// buffers (colors, lane batches, body states) and the new-pair buffer,
    /// reused every step.
    pub solver_contacts: usize,
}

impl MemoryUsage {
    /// Everything.
    pub fn total(&self) -> usize {
        self.bodies
            + self.shapes
            + self.contacts
            + self.joints
            + self.broadphase
            + self.solver_bodies
            + self.solver_contacts
    }
}

/// What is awake: the simulated part of the world. A non-static body is
/// awake when its island is; a contact is awake when either of its bodies
/// is an awake non-static one (so it is collided, and solved if touching),
/// and so is a joint.
/// Bit sets over slots, walked in slot order.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Awake {
    bodies: BitSet,
    contacts: BitSet,
    islands: BitSet,
    /// Joints with an awake non-static body (solved if not a filter).
    #[cfg_attr(feature = "serde", serde(default))]
    joints: BitSet,
}

/// A physics world: bodies, their shapes, the contacts between them, and
/// the settings that step them.
#[derive(Clone)]
pub struct World {
    settings: WorldSettings,
    bodies: Store<Body>,
    shapes: Store<ShapeSlot>,
    contacts: Store<Contact>,
    joints: Store<Joint>,
    islands: Store<Island>,
    awake: Awake,
    /// The live contacts by their shape pair ([`crate::broadphase::pair_key`]).
    pair_map: PairMap,
    broadphase: BroadPhase,
    /// Per shape slot, its proxy's fat box as the tree holds it: a dense
    /// copy (16 bytes a shape), so the collide stage tests a contact's
    /// two boxes without a trip into the tree, nor into each shape's
    /// 256-byte slot (a pile of 11 000 shapes: 176 kB against 2.8 MB).
    /// Kept by [`World::sync_fat_box`]; rebuilt from the tree when a
    /// snapshot is loaded.
    fat_boxes: Vec<Aabb>,
    /// Per shape slot, the polygon's seams, if it has any (see
    /// [`crate::shapes::seams`]): read by the collide stage for the
    /// contacts marked [`ContactOptions::SEAMS`](crate::contact::ContactOptions::SEAMS)
    /// only.
    seams: seams::SeamTable,
    step_count: u64,
    frozen: Vec<BodyId>,
    /// The length of the last step (60 Hz before the first): how far
    /// ahead a body given a new velocity between steps is looked for.
    last_dt: f32,
    solver: Solver,
    /// How long the last step's stages took.
    profile: StepProfile,
    /// The last step's contact events.
    events: ContactEvents,
    /// Ends of touching contacts the user's calls destroyed since the last
    /// step: reported with the next step's events.
    pending_ends: Vec<ContactTouch>,
    /// The sensor shapes and what overlaps them.
    sensors: Store<sensors::Sensor>,
    /// The last step's sensor events.
    sensor_events: SensorEvents,
    /// Sensor ends the user's calls caused since the last step (a sensor
    /// removed).
    pending_sensor_ends: Vec<SensorOverlap>,
    /// The worker threads of [`WorldSettings::workers`].
    workers: Workers,
    /// Contacts whose manifold the last step kept (see
    /// [`World::recycled_contact_count`]).
    recycled: usize,
    /// Buffers reused every step (no allocation in steady state).
    scratch: Scratch,
}

/// The step length assumed before the first step.
const DEFAULT_DT: f32 = 1.0 / 60.0;

/// Buffers the step's stages reuse, so a steady step allocates nothing.
/// Nothing passes from one stage to another through them: a stage takes
/// what it needs, clears it and gives it back; what one stage finds for
/// the next is its return value ([`step::Touches`], [`step::Moves`]),
/// whose lists are kept here between steps.
#[derive(Clone, Default)]
struct Scratch {
    /// Shape pairs the broadphase found this step.
    new_pairs: Vec<(u32, u32)>,
    /// The collide stage's findings, between steps.
    touches: step::Touches,
    /// The finalize stage's findings, between steps.
    moves: step::Moves,
    /// What the collide kernel found for each contact of
    /// [`Scratch::to_collide`].
    contact_flags: Vec<ContactFlags>,
    /// The awake contacts in slot order, as the collide stage walks them
    /// (a list, so the workers can share it out and look ahead in it).
    to_collide: Vec<u32>,
    /// Per solver body, what moving it found (see `step::Moved`).
    moved: Vec<step::Moved>,
    /// Per solver body, what its proxies need (see `shapes::ProxyMove`).
    proxy_moves: Vec<shapes::ProxyMove>,
    /// Buffers of the island split.
    split: SplitScratch,
    /// Islands a split created.
    created_islands: Vec<u32>,
    /// Islands found ready to sleep this step.
    sleepy: Vec<u32>,
    /// Contacts a structural change is about to destroy.
    doomed: Vec<u32>,
    /// Bodies a structural change is about to wake.
    to_wake: Vec<u32>,
    /// Buffers of the sensor stage.
    sensors: sensors::SensorScratch,
    /// Contact edges walked by structural changes (removing a body or
    /// shape, changing a type, waking, sleeping): a counter for tests that
    /// such changes touch only the bodies' own contacts.
    edge_visits: u64,
}

impl Default for World {
    fn default() -> Self {
        World::new(WorldSettings::default())
    }
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("bodies", &self.body_count())
            .field("shapes", &self.shape_count())
            .field("contacts", &self.contact_count())
            .field("awake_bodies", &self.awake_body_count())
            .field("step_count", &self.step_count)
            .finish()
    }
}

impl World {
    /// An empty world. Settings that make no sense are repaired, not
    /// refused: a length scale outside
    /// [`LENGTH_UNITS_RANGE`](crate::settings::LENGTH_UNITS_RANGE) becomes
    /// 1, non-finite gravity becomes the default (0, -10), and the solver
    /// settings are brought into range ([`SolverSettings::repaired`]), and
    /// a hit event threshold that is negative or not finite becomes the
    /// default, and so do a speed limit and a longest step that
    /// [`World::set_max_linear_speed`] and [`World::set_max_step`] would
    /// refuse (the count of splits is clamped into its range).
    pub fn new(settings: WorldSettings) -> World {
        let mut settings = settings;
        if !checks::length_units_ok(settings.length_units_per_meter) {
            settings.length_units_per_meter = 1.0;
        }
        if !is_finite_vec(settings.gravity) {
            settings.gravity = WorldSettings::default().gravity;
        }
        settings.solver = settings.solver.repaired();
        if !checks::hit_threshold_ok(settings.hit_event_threshold) {
            settings.hit_event_threshold = crate::settings::HIT_EVENT_THRESHOLD;
        }
        settings.workers = settings.workers.clamp(1, MAX_WORKERS);
        let defaults = WorldSettings::default();
        if checks::check_max_linear_speed(settings.max_linear_speed).is_err() {
            settings.max_linear_speed = defaults.max_linear_speed;
        }
        if checks::check_max_step(settings.max_step, 1).is_err() {
            settings.max_step = defaults.max_step;
        }
        settings.max_step_splits = settings.max_step_splits.clamp(1, MAX_STEP_SPLITS_LIMIT);
        World {
            workers: Workers::new(settings.workers),
            broadphase: BroadPhase::new(AABB_MARGIN * settings.length_units_per_meter),
            settings,
            bodies: Store::default(),
            shapes: Store::default(),
            contacts: Store::default(),
            joints: Store::default(),
            islands: Store::default(),
            awake: Awake::default(),
            pair_map: PairMap::default(),
            fat_boxes: Vec::new(),
            seams: seams::SeamTable::default(),
            step_count: 0,
            frozen: Vec::new(),
            last_dt: DEFAULT_DT,
            solver: Solver::default(),
            profile: StepProfile::default(),
            events: ContactEvents::default(),
            pending_ends: Vec::new(),
            sensors: Store::default(),
            sensor_events: SensorEvents::default(),
            pending_sensor_ends: Vec::new(),
            recycled: 0,
            scratch: Scratch::default(),
        }
    }

    // ----------------------------------------------------------------------
    // Settings

    /// World settings.
    pub fn settings(&self) -> &WorldSettings {
        &self.settings
    }

    /// Solver settings.
    pub fn solver_settings(&self) -> &SolverSettings {
        &self.settings.solver
    }

    /// Replaces the solver settings after checking them
    /// ([`SolverSettings::validate`]: iterations in 1..=16, substeps in
    /// 1..=8, `baumgarte` in 0..=1 and a restitution threshold >= 0, all
    /// finite). On an error the settings are unchanged. The step uses them
    /// as they are.
    pub fn set_solver_settings(&mut self, settings: SolverSettings) -> Result<(), BodyError> {
        settings.validate()?;
        self.settings.solver = settings;
        Ok(())
    }

    /// Sets how many threads the step runs on
    /// ([`WorldSettings::workers`]), 1 to [`MAX_WORKERS`]; the world's
    /// pool is made anew. The results do not change with the count.
    pub fn set_workers(&mut self, workers: usize) -> Result<(), BodyError> {
        // (The message names the bound.)
        const _: () = assert!(MAX_WORKERS == 64);
        if !(1..=MAX_WORKERS).contains(&workers) {
            return Err(BodyError::OutOfRange("workers (1 to 64)"));
        }
        if workers != self.settings.workers {
            self.workers = Workers::new(workers);
            self.settings.workers = workers;
        }
        Ok(())
    }

    /// How many threads the step actually runs on: the
    /// [`WorldSettings::workers`] asked for, or 1 without the `parallel`
    /// feature or if the system refused the threads.
    pub fn worker_threads(&self) -> usize {
        self.workers.threads()
    }

    /// Sets [`WorldSettings::max_linear_speed`]: a positive finite speed
    /// (metres per second, scaled by the length unit). A body faster than
    /// it is slowed to it at the next step.
    pub fn set_max_linear_speed(&mut self, speed: f32) -> Result<(), BodyError> {
        checks::check_max_linear_speed(speed)?;
        self.settings.max_linear_speed = speed;
        Ok(())
    }

    /// Sets [`WorldSettings::max_step`] and
    /// [`WorldSettings::max_step_splits`]: the longest step taken at once
    /// (finite, at least [`MIN_STEP`](crate::settings::MIN_STEP)) and the
    /// most steps one call runs (1 to
    /// [`MAX_STEP_SPLITS_LIMIT`](crate::settings::MAX_STEP_SPLITS_LIMIT)).
    pub fn set_max_step(&mut self, max_step: f32, max_splits: u32) -> Result<(), BodyError> {
        checks::check_max_step(max_step, max_splits)?;
        self.settings.max_step = max_step;
        self.settings.max_step_splits = max_splits;
        Ok(())
    }

    /// Gravity.
    pub fn gravity(&self) -> Vec2 {
        self.settings.gravity
    }

    /// Sets gravity. A change wakes every sleeping island: a pile at rest
    /// under the old gravity is not at rest under the new.
    pub fn set_gravity(&mut self, gravity: Vec2) -> Result<(), BodyError> {
        if !is_finite_vec(gravity) {
            return Err(BodyError::NonFinite("gravity"));
        }
        if gravity != self.settings.gravity {
            self.settings.gravity = gravity;
            self.wake_all();
        }
        Ok(())
    }

    /// Heap memory held, by part (see [`MemoryUsage`]).
    pub fn memory_usage(&self) -> MemoryUsage {
        use std::mem::size_of;
        let shape_lists: usize = self
            .bodies
            .iter()
            .map(|(_, b)| b.shapes.capacity() * size_of::<u32>())
            .sum();
        let s = &self.scratch;
        MemoryUsage {
            bodies: self.bodies.memory_bytes()
                + shape_lists
                + self.islands.memory_bytes()
                + self.awake.bodies.memory_bytes()
                + self.awake.islands.memory_bytes()
                + s.moves.memory_bytes()
                + s.split.memory_bytes()
                + (s.created_islands.capacity() + s.sleepy.capacity()) * size_of::<u32>()
                + s.moved.capacity() * size_of::<step::Moved>()
                + s.proxy_moves.capacity() * size_of::<shapes::ProxyMove>()
                + self.frozen.capacity() * size_of::<BodyId>(),
            shapes: self.shapes.memory_bytes()
                + self.seams.memory_bytes()
                + self.sensors.memory_bytes()
                + self
                    .sensors
                    .iter()
                    .map(|(_, s)| s.overlaps.capacity() * size_of::<ShapeId>())
                    .sum::<usize>()
                + (self.sensor_events.begin.capacity()
                    + self.sensor_events.end.capacity()
                    + self.pending_sensor_ends.capacity())
                    * size_of::<SensorOverlap>()
                + s.sensors.memory_bytes(),
            contacts: self.contacts.memory_bytes()
                + (self.events.begin.capacity() + self.events.end.capacity() + self.pending_ends.capacity())
                    * size_of::<ContactTouch>()
                + self.events.hit.capacity() * size_of::<crate::events::ContactHit>()
                + self.pair_map.memory_bytes()
                + self.awake.contacts.memory_bytes()
                + s.touches.memory_bytes()
                + s.contact_flags.capacity() * size_of::<ContactFlags>()
                + (s.doomed.capacity() + s.to_wake.capacity() + s.to_collide.capacity()) * size_of::<u32>(),
            joints: self.joints.memory_bytes() + self.awake.joints.memory_bytes(),
            broadphase: self.broadphase.memory_bytes(),
            solver_bodies: self.solver.body_memory_bytes(),
            solver_contacts: self.solver.contact_memory_bytes()
                + s.new_pairs.capacity() * size_of::<(u32, u32)>(),
        }
    }

    /// Steps taken so far.
    pub fn step_count(&self) -> u64 {
        self.step_count
    }

    fn slop(&self) -> f32 {
        LINEAR_SLOP * self.settings.length_units_per_meter
    }

    /// [`WorldSettings::max_linear_speed`] in length units per second.
    fn max_speed(&self) -> f32 {
        self.settings.max_linear_speed * self.settings.length_units_per_meter
    }
}

#[cfg(feature = "serde")]
mod snapshot;

#[cfg(test)]
mod chain_tests;
#[cfg(test)]
mod continuous_tests;
#[cfg(test)]
mod corner_tests;
#[cfg(test)]
mod enable_tests;
#[cfg(test)]
mod game_tests;
#[cfg(test)]
mod joint_tests;
#[cfg(test)]
mod kept_coloring_tests;
#[cfg(test)]
mod mass_tests;
#[cfg(test)]
mod mover_tests;
#[cfg(test)]
mod quarantine_tests;
#[cfg(test)]
mod query_tests;
#[cfg(test)]
mod recycling_tests;
#[cfg(test)]
mod reliability_tests;
#[cfg(test)]
mod seam_tests;
#[cfg(test)]
mod sensor_tests;
#[cfg(test)]
mod sleep_tests;
#[cfg(test)]
mod stack_tests;
#[cfg(test)]
mod tests;
