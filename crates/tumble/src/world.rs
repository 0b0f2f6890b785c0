//! The [`World`]: owns every body, shape and contact, and steps them.
//!
//! Read [`World::step`] first: it is the whole pipeline, one call per stage.

use crate::broadphase::{pair_key, BroadPhase};
use crate::collision::{ray_cast, Manifold};
use crate::debug_draw::{Color, DebugDraw, DrawOptions};
use crate::dynamics::body::{Body, BodyDef, BodyType};
use crate::dynamics::contact::{mix_friction, mix_restitution, Contact, ManifoldCache, RecycleLimits};
use crate::dynamics::solver::{self, ContactConstraint, Graph, SolverBody, StepContext};
use crate::error::{BodyError, Error};
use crate::math::{cross, is_finite_vec, Aabb, Rot, Transform, Vec2};
use crate::settings::{
    SolverSettings, WorldSettings, AABB_MARGIN, AABB_MARGIN_FRACTION, CONTACT_RECYCLE_DISTANCE,
    ITERATIONS_RANGE, LINEAR_SLOP, MAX_PUSH_OUT_SPEED, SPECULATIVE_DISTANCE, SUBSTEPS_RANGE,
};
use crate::shapes::{combine_mass, decompose_concave, MassData, Shape, ShapeError};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A handle to a body: a slot index plus the slot's generation, so a handle
/// to a removed body is detected ([`BodyError::StaleHandle`]) even after its
/// slot is reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyId {
    index: u32,
    generation: u32,
}

impl BodyId {
    /// The slot index (stable while the body lives; reused after removal).
    pub fn index(self) -> u32 {
        self.index
    }
}

/// A handle to a shape, like [`BodyId`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShapeId {
    index: u32,
    generation: u32,
}

impl ShapeId {
    /// The slot index.
    pub fn index(self) -> u32 {
        self.index
    }
}

/// Material and user data of a shape. Start from `ShapeDef::default()`
/// (density 1, friction 0.6, restitution 0).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShapeDef {
    /// Mass per unit area, kg/m^2. Must be positive.
    pub density: f32,
    /// Coulomb friction coefficient, >= 0. Mixed as `sqrt(a * b)`.
    pub friction: f32,
    /// Restitution (bounciness), >= 0; 1 bounces back to the same height.
    /// Mixed as `max(a, b)`.
    pub restitution: f32,
    /// A value of the user's.
    pub user_data: u64,
}

impl Default for ShapeDef {
    fn default() -> Self {
        ShapeDef {
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            user_data: 0,
        }
    }
}

impl ShapeDef {
    fn validate(&self) -> Result<(), ShapeError> {
        if !self.density.is_finite() || !self.friction.is_finite() || !self.restitution.is_finite() {
            return Err(ShapeError::NonFinite);
        }
        if self.density <= 0.0 {
            return Err(ShapeError::NonPositiveDensity);
        }
        if self.friction < 0.0 || self.restitution < 0.0 {
            return Err(ShapeError::InvalidMaterial);
        }
        Ok(())
    }
}

#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct ShapeSlot {
    generation: u32,
    alive: bool,
    body: u32,
    shape: Shape,
    def: ShapeDef,
    proxy: u32,
    /// Index of this shape among its body's shapes when it was added: the
    /// compound part index that goes into feature ids.
    part: u32,
    /// How far its fat box reaches beyond its tight one (see
    /// [`AABB_MARGIN_FRACTION`]).
    margin: f32,
}

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

/// Heap memory a [`World`] holds, in bytes, by part. Figures are buffer
/// capacities (what is allocated), not lengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MemoryUsage {
    /// Body slots, their shape lists and the free list.
    pub bodies: usize,
    /// Shape slots and the free list.
    pub shapes: usize,
    /// Contact slots, the pair map and the free list.
    pub contacts: usize,
    /// The broadphase tree and its move buffer.
    pub broadphase: usize,
    /// The solver's per-body scratch rows, reused every step.
    pub solver_bodies: usize,
    /// The solver's per-contact scratch rows (constraints), its colouring's
    /// buffers (colours, lane batches, body states) and the new-pair buffer,
    /// reused every step.
    pub solver_contacts: usize,
}

impl MemoryUsage {
    /// Everything.
    pub fn total(&self) -> usize {
        self.bodies
            + self.shapes
            + self.contacts
            + self.broadphase
            + self.solver_bodies
            + self.solver_contacts
    }
}

/// The closest hit of a ray cast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The shape hit.
    pub shape: ShapeId,
    /// Its body.
    pub body: BodyId,
    /// World point of the hit.
    pub point: Vec2,
    /// Surface normal at the hit.
    pub normal: Vec2,
    /// Fraction of the ray's translation at the hit, 0..=1.
    pub fraction: f32,
}

/// Hashes a pair key (already well mixed by construction) with one
/// multiply. Lookups only: nothing iterates this map, so the simulation
/// stays deterministic.
#[derive(Default, Clone, Copy)]
struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = (k ^ (k >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type PairMap = HashMap<u64, u32, BuildHasherDefault<PairHasher>>;

/// How many steps of motion ahead a moving shape's re-built fat box
/// reaches, so it is re-inserted in the broadphase tree every few steps, not
/// every step.
const PREDICTION_STEPS: f32 = 2.0;

/// The largest distance (in metres) a body may travel in one step: 400 m/s
/// at 60 Hz. A guard against a user's absurd velocity, not a game limit.
const MAX_TRANSLATION_PER_STEP: f32 = 400.0 / 60.0;
/// The largest rotation (radians) a body may turn in one step; beyond it
/// the small-angle rotation update is meaningless.
const MAX_ROTATION_PER_STEP: f32 = 0.25 * std::f32::consts::PI;

/// A physics world: bodies, their shapes, the contacts between them, and
/// the settings that step them.
#[derive(Clone)]
pub struct World {
    settings: WorldSettings,
    bodies: Vec<Body>,
    free_bodies: Vec<u32>,
    shapes: Vec<ShapeSlot>,
    free_shapes: Vec<u32>,
    contacts: Vec<Contact>,
    free_contacts: Vec<u32>,
    pair_map: PairMap,
    broadphase: BroadPhase,
    step_count: u64,
    frozen: Vec<BodyId>,
    /// The length of the last step (60 Hz before the first): how far
    /// ahead a body given a new velocity between steps is looked for.
    last_dt: f32,
    // Scratch buffers reused every step (no allocation in steady state).
    scratch: Scratch,
}

/// The step length assumed before the first step.
const DEFAULT_DT: f32 = 1.0 / 60.0;

#[derive(Clone, Default)]
struct Scratch {
    solver_bodies: Vec<SolverBody>,
    constraints: Vec<ContactConstraint>,
    new_pairs: Vec<(u32, u32)>,
    graph: Graph,
    /// Contacts whose manifold the last step kept (see
    /// [`World::recycled_contact_count`]).
    recycled: usize,
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
            .field("step_count", &self.step_count)
            .finish()
    }
}

impl World {
    /// An empty world. Settings that make no sense are repaired, not
    /// refused: a length scale that is not a positive finite number becomes
    /// 1, non-finite gravity becomes the default (0, -10), and the
    /// iteration count is clamped to 1..=16.
    pub fn new(settings: WorldSettings) -> World {
        let mut settings = settings;
        if !(settings.length_units_per_meter.is_finite() && settings.length_units_per_meter > 0.0) {
            settings.length_units_per_meter = 1.0;
        }
        if !is_finite_vec(settings.gravity) {
            settings.gravity = WorldSettings::default().gravity;
        }
        settings.solver.iterations = settings
            .solver
            .iterations
            .clamp(*ITERATIONS_RANGE.start(), *ITERATIONS_RANGE.end());
        World {
            broadphase: BroadPhase::new(AABB_MARGIN * settings.length_units_per_meter),
            settings,
            bodies: Vec::new(),
            free_bodies: Vec::new(),
            shapes: Vec::new(),
            free_shapes: Vec::new(),
            contacts: Vec::new(),
            free_contacts: Vec::new(),
            pair_map: PairMap::default(),
            step_count: 0,
            frozen: Vec::new(),
            last_dt: DEFAULT_DT,
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

    /// Solver settings, to change at run time (iterations are clamped to
    /// 1..=16 at the next step).
    pub fn solver_settings_mut(&mut self) -> &mut SolverSettings {
        &mut self.settings.solver
    }

    /// Replaces the solver settings after checking them: iterations in
    /// 1..=16, substeps in 1..=8, `baumgarte` in 0..=1 and a restitution
    /// threshold >= 0, all finite. On an error the settings are unchanged.
    /// ([`World::solver_settings_mut`] takes anything; the step then clamps
    /// the counts but not the floats.)
    pub fn set_solver_settings(&mut self, settings: SolverSettings) -> Result<(), BodyError> {
        if !settings.baumgarte.is_finite() {
            return Err(BodyError::NonFinite("baumgarte"));
        }
        if !settings.restitution_threshold.is_finite() {
            return Err(BodyError::NonFinite("restitution threshold"));
        }
        if !ITERATIONS_RANGE.contains(&settings.iterations) {
            return Err(BodyError::OutOfRange("iterations"));
        }
        if !SUBSTEPS_RANGE.contains(&settings.substeps) {
            return Err(BodyError::OutOfRange("substeps"));
        }
        if !(0.0..=1.0).contains(&settings.baumgarte) {
            return Err(BodyError::OutOfRange("baumgarte"));
        }
        if settings.restitution_threshold < 0.0 {
            return Err(BodyError::OutOfRange("restitution threshold"));
        }
        self.settings.solver = settings;
        Ok(())
    }

    /// Gravity.
    pub fn gravity(&self) -> Vec2 {
        self.settings.gravity
    }

    /// Sets gravity.
    pub fn set_gravity(&mut self, gravity: Vec2) -> Result<(), BodyError> {
        if !is_finite_vec(gravity) {
            return Err(BodyError::NonFinite("gravity"));
        }
        self.settings.gravity = gravity;
        Ok(())
    }

    /// Heap memory held, by part (see [`MemoryUsage`]).
    pub fn memory_usage(&self) -> MemoryUsage {
        use std::mem::size_of;
        let shape_lists: usize = self
            .bodies
            .iter()
            .map(|b| b.shapes.capacity() * size_of::<u32>())
            .sum();
        // A hash map entry is its key and value plus one control byte.
        let pair_entry = size_of::<(u64, u32)>() + 1;
        MemoryUsage {
            bodies: self.bodies.capacity() * size_of::<Body>()
                + shape_lists
                + self.free_bodies.capacity() * size_of::<u32>()
                + self.frozen.capacity() * size_of::<BodyId>(),
            shapes: self.shapes.capacity() * size_of::<ShapeSlot>()
                + self.free_shapes.capacity() * size_of::<u32>(),
            contacts: self.contacts.capacity() * size_of::<Contact>()
                + self.pair_map.capacity() * pair_entry
                + self.free_contacts.capacity() * size_of::<u32>(),
            broadphase: self.broadphase.memory_bytes(),
            solver_bodies: self.scratch.solver_bodies.capacity() * size_of::<SolverBody>(),
            solver_contacts: self.scratch.constraints.capacity() * size_of::<ContactConstraint>()
                + self.scratch.new_pairs.capacity() * size_of::<(u32, u32)>()
                + self.scratch.graph.memory_bytes(),
        }
    }

    /// Steps taken so far.
    pub fn step_count(&self) -> u64 {
        self.step_count
    }

    fn slop(&self) -> f32 {
        LINEAR_SLOP * self.settings.length_units_per_meter
    }

    // ----------------------------------------------------------------------
    // Bodies

    fn body_index(&self, id: BodyId) -> Result<usize, BodyError> {
        match self.bodies.get(id.index as usize) {
            Some(b) if b.alive && b.generation == id.generation => Ok(id.index as usize),
            _ => Err(BodyError::StaleHandle),
        }
    }

    fn body_id(&self, index: u32) -> BodyId {
        BodyId {
            index,
            generation: self.bodies[index as usize].generation,
        }
    }

    fn shape_id(&self, index: u32) -> ShapeId {
        ShapeId {
            index,
            generation: self.shapes[index as usize].generation,
        }
    }

    /// Creates a body with no shapes (add them with [`World::add_shape`]).
    /// Errors name any non-finite number or negative damping.
    pub fn create_body(&mut self, def: &BodyDef) -> Result<BodyId, BodyError> {
        if !is_finite_vec(def.position) {
            return Err(BodyError::NonFinite("position"));
        }
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
        let index = match self.free_bodies.pop() {
            Some(i) => {
                let generation = self.bodies[i as usize].generation.wrapping_add(1);
                self.bodies[i as usize] = Body::new(def, generation);
                i
            }
            None => {
                self.bodies.push(Body::new(def, 1));
                (self.bodies.len() - 1) as u32
            }
        };
        let b = &mut self.bodies[index as usize];
        if b.body_type == BodyType::Static {
            b.v = Vec2::ZERO;
            b.w = 0.0;
        }
        self.update_mass(index as usize);
        Ok(self.body_id(index))
    }

    /// Removes a body with its shapes and contacts. Its handle (and its
    /// shapes' handles) become stale.
    pub fn remove_body(&mut self, id: BodyId) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        let shapes = std::mem::take(&mut self.bodies[bi].shapes);
        for s in shapes {
            self.destroy_shape_slot(s);
        }
        let b = &mut self.bodies[bi];
        b.alive = false;
        b.shapes = Vec::new();
        self.free_bodies.push(bi as u32);
        self.frozen.retain(|f| *f != id);
        Ok(())
    }

    /// True when the handle refers to a live body.
    pub fn contains_body(&self, id: BodyId) -> bool {
        self.body_index(id).is_ok()
    }

    /// Number of live bodies.
    pub fn body_count(&self) -> usize {
        self.bodies.iter().filter(|b| b.alive).count()
    }

    /// Handles of all live bodies, in slot order.
    pub fn bodies(&self) -> impl Iterator<Item = BodyId> + '_ {
        self.bodies
            .iter()
            .enumerate()
            .filter(|(_, b)| b.alive)
            .map(|(i, b)| BodyId {
                index: i as u32,
                generation: b.generation,
            })
    }

    /// The body's type.
    pub fn body_type(&self, id: BodyId) -> Result<BodyType, BodyError> {
        Ok(self.bodies[self.body_index(id)?].body_type)
    }

    /// Changes the body's type; mass is recomputed.
    pub fn set_body_type(&mut self, id: BodyId, body_type: BodyType) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        self.bodies[bi].body_type = body_type;
        if body_type == BodyType::Static {
            self.bodies[bi].v = Vec2::ZERO;
            self.bodies[bi].w = 0.0;
        }
        self.update_mass(bi);
        // Contacts between two non-dynamic bodies are not kept: drop them
        // and let the broadphase find the pairs again.
        self.destroy_contacts_of_body(bi as u32);
        // The margin follows the type from the next time the fat box is
        // rebuilt (a static one's never needed room to move).
        for k in 0..self.bodies[bi].shapes.len() {
            let si = self.bodies[bi].shapes[k] as usize;
            self.shapes[si].margin = self.proxy_margin(&self.shapes[si].shape, body_type);
            self.broadphase.touch_proxy(self.shapes[si].proxy);
        }
        Ok(())
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

    /// The centre of mass in world coordinates.
    pub fn center_of_mass(&self, id: BodyId) -> Result<Vec2, BodyError> {
        Ok(self.bodies[self.body_index(id)?].center)
    }

    /// Velocity of the centre of mass.
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

    /// Mass, centre (body frame) and inertia about the centre of mass.
    pub fn mass_data(&self, id: BodyId) -> Result<MassData, BodyError> {
        let b = &self.bodies[self.body_index(id)?];
        Ok(MassData {
            mass: b.mass,
            center: b.local_center,
            inertia: b.inertia,
        })
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

    /// Teleports the body origin. Contacts are found again at the next step.
    pub fn set_transform(&mut self, id: BodyId, position: Vec2, angle: f32) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !is_finite_vec(position) {
            return Err(BodyError::NonFinite("position"));
        }
        if !angle.is_finite() {
            return Err(BodyError::NonFinite("angle"));
        }
        let b = &mut self.bodies[bi];
        if b.frozen {
            // A new transform is a fresh start for a frozen body.
            b.frozen = false;
            self.frozen.retain(|f| *f != id);
        }
        b.xf = Transform::new(position, angle);
        b.center = b.xf.apply(b.local_center);
        self.predict_proxies(bi);
        Ok(())
    }

    /// Sets the velocity of the centre of mass (ignored for static bodies).
    pub fn set_linear_velocity(&mut self, id: BodyId, v: Vec2) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !is_finite_vec(v) {
            return Err(BodyError::NonFinite("linear velocity"));
        }
        let b = &mut self.bodies[bi];
        if b.body_type != BodyType::Static {
            b.v = v;
            self.predict_proxies(bi);
        }
        Ok(())
    }

    /// Sets the angular velocity (ignored for static bodies).
    pub fn set_angular_velocity(&mut self, id: BodyId, w: f32) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !w.is_finite() {
            return Err(BodyError::NonFinite("angular velocity"));
        }
        let b = &mut self.bodies[bi];
        if b.body_type != BodyType::Static {
            b.w = w;
        }
        Ok(())
    }

    /// Sets linear and angular damping (>= 0).
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

    /// Sets the gravity scale.
    pub fn set_gravity_scale(&mut self, id: BodyId, scale: f32) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !scale.is_finite() {
            return Err(BodyError::NonFinite("gravity scale"));
        }
        self.bodies[bi].gravity_scale = scale;
        Ok(())
    }

    /// Applies a force (N) at a world point until the end of the next step.
    /// Off-centre, it also applies a torque.
    pub fn apply_force(&mut self, id: BodyId, force: Vec2, point: Vec2) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !is_finite_vec(force) {
            return Err(BodyError::NonFinite("force"));
        }
        if !is_finite_vec(point) {
            return Err(BodyError::NonFinite("point"));
        }
        let b = &mut self.bodies[bi];
        if b.body_type == BodyType::Dynamic {
            b.force += force;
            b.torque += cross(point - b.center, force);
        }
        Ok(())
    }

    /// Applies a force at the centre of mass.
    pub fn apply_force_to_center(&mut self, id: BodyId, force: Vec2) -> Result<(), BodyError> {
        let c = self.center_of_mass(id)?;
        self.apply_force(id, force, c)
    }

    /// Applies a torque (N m) until the end of the next step.
    pub fn apply_torque(&mut self, id: BodyId, torque: f32) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !torque.is_finite() {
            return Err(BodyError::NonFinite("torque"));
        }
        let b = &mut self.bodies[bi];
        if b.body_type == BodyType::Dynamic {
            b.torque += torque;
        }
        Ok(())
    }

    /// Applies an impulse (N s) at a world point: the velocity changes at
    /// once.
    pub fn apply_linear_impulse(&mut self, id: BodyId, impulse: Vec2, point: Vec2) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !is_finite_vec(impulse) {
            return Err(BodyError::NonFinite("impulse"));
        }
        if !is_finite_vec(point) {
            return Err(BodyError::NonFinite("point"));
        }
        let b = &mut self.bodies[bi];
        if b.body_type == BodyType::Dynamic {
            b.v += b.inv_mass * impulse;
            b.w += b.inv_inertia * cross(point - b.center, impulse);
            self.predict_proxies(bi);
        }
        Ok(())
    }

    /// Applies an impulse at the centre of mass.
    pub fn apply_linear_impulse_to_center(&mut self, id: BodyId, impulse: Vec2) -> Result<(), BodyError> {
        let c = self.center_of_mass(id)?;
        self.apply_linear_impulse(id, impulse, c)
    }

    /// Applies an angular impulse (N m s).
    pub fn apply_angular_impulse(&mut self, id: BodyId, impulse: f32) -> Result<(), BodyError> {
        let bi = self.body_index(id)?;
        if !impulse.is_finite() {
            return Err(BodyError::NonFinite("angular impulse"));
        }
        let b = &mut self.bodies[bi];
        if b.body_type == BodyType::Dynamic {
            b.w += b.inv_inertia * impulse;
        }
        Ok(())
    }

    /// Bodies whose state became non-finite (say, from a huge user force)
    /// and were frozen in place instead of spreading NaN to their
    /// neighbours. A frozen body stays put until removed or given a new
    /// transform and velocity.
    pub fn frozen_bodies(&self) -> &[BodyId] {
        &self.frozen
    }

    /// Recomputes mass, centre of mass and inertia from the body's shapes.
    fn update_mass(&mut self, bi: usize) {
        let parts: Vec<MassData> = self.bodies[bi]
            .shapes
            .iter()
            .map(|&s| {
                let slot = &self.shapes[s as usize];
                slot.shape.mass(slot.def.density)
            })
            .collect();
        let b = &mut self.bodies[bi];
        let old_center = b.center;
        b.mass = 0.0;
        b.inv_mass = 0.0;
        b.inertia = 0.0;
        b.inv_inertia = 0.0;
        b.local_center = Vec2::ZERO;
        if b.body_type == BodyType::Dynamic {
            let md = combine_mass(&parts);
            if md.mass > 0.0 {
                b.mass = md.mass;
                b.inv_mass = 1.0 / md.mass;
                b.local_center = md.center;
                if md.inertia > 0.0 {
                    b.inertia = md.inertia;
                    b.inv_inertia = 1.0 / md.inertia;
                }
            } else {
                // A dynamic body without shapes still falls: unit mass.
                b.mass = 1.0;
                b.inv_mass = 1.0;
            }
        } else if !parts.is_empty() {
            b.local_center = combine_mass(&parts).center;
        }
        b.center = b.xf.apply(b.local_center);
        b.extent = 0.0;
        for &si in &b.shapes {
            let local = self.shapes[si as usize].shape.aabb(Transform::IDENTITY);
            let corner = (local.min - b.local_center)
                .abs()
                .max((local.max - b.local_center).abs());
            b.extent = b.extent.max(corner.length());
        }
        // Keep the velocity of the material points: the centre moved.
        b.v += crate::math::cross_sv(b.w, b.center - old_center);
    }

    // ----------------------------------------------------------------------
    // Shapes

    fn shape_index(&self, id: ShapeId) -> Result<usize, BodyError> {
        match self.shapes.get(id.index as usize) {
            Some(s) if s.alive && s.generation == id.generation => Ok(id.index as usize),
            _ => Err(BodyError::StaleHandle),
        }
    }

    /// Attaches a shape to a body; the body's mass is recomputed from all its
    /// shapes. Several shapes on one body make a compound body.
    ///
    /// Errors: a stale body handle, a non-positive or non-finite density, a
    /// negative friction or restitution, a hand-built shape that breaks the
    /// constructors' rules ([`Shape::validate`]), or a shape whose mass
    /// overflows ([`ShapeError::MassOverflow`]).
    pub fn add_shape(
        &mut self,
        body: BodyId,
        shape: impl Into<Shape>,
        def: &ShapeDef,
    ) -> Result<ShapeId, Error> {
        let bi = self.body_index(body)?;
        def.validate()?;
        let shape = shape.into();
        check_shape(&shape, def)?;
        Ok(self.add_shape_unchecked(bi, shape, def))
    }

    fn add_shape_unchecked(&mut self, bi: usize, shape: Shape, def: &ShapeDef) -> ShapeId {
        let aabb = shape.aabb(self.bodies[bi].xf);
        let part = self.bodies[bi].shapes.len() as u32;
        let margin = self.proxy_margin(&shape, self.bodies[bi].body_type);
        let slot = ShapeSlot {
            generation: 1,
            alive: true,
            body: bi as u32,
            shape,
            def: *def,
            proxy: 0,
            part,
            margin,
        };
        let index = match self.free_shapes.pop() {
            Some(i) => {
                let generation = self.shapes[i as usize].generation.wrapping_add(1);
                self.shapes[i as usize] = ShapeSlot { generation, ..slot };
                i
            }
            None => {
                self.shapes.push(slot);
                (self.shapes.len() - 1) as u32
            }
        };
        self.shapes[index as usize].proxy = self.broadphase.create_proxy_with_margin(aabb, index, margin);
        self.bodies[bi].shapes.push(index);
        self.update_mass(bi);
        // A body created moving must meet what it is about to hit on its
        // first step too.
        self.predict_proxies(bi);
        self.shape_id(index)
    }

    /// Splits a concave outline (a simple polygon, either winding) into
    /// convex parts and attaches them all to the body.
    pub fn add_concave(
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
        }
        Ok(parts
            .into_iter()
            .map(|p| self.add_shape_unchecked(bi, Shape::Polygon(p), def))
            .collect())
    }

    /// Removes a shape; its body's mass is recomputed.
    pub fn remove_shape(&mut self, id: ShapeId) -> Result<(), BodyError> {
        let si = self.shape_index(id)?;
        let bi = self.shapes[si].body as usize;
        self.bodies[bi].shapes.retain(|&s| s as usize != si);
        self.destroy_shape_slot(si as u32);
        self.update_mass(bi);
        Ok(())
    }

    fn destroy_shape_slot(&mut self, si: u32) {
        // Contacts of this shape go first.
        for ci in 0..self.contacts.len() {
            let c = &self.contacts[ci];
            if c.alive && (c.shape_a == si || c.shape_b == si) {
                self.destroy_contact(ci as u32);
            }
        }
        let proxy = self.shapes[si as usize].proxy;
        self.broadphase.destroy_proxy(proxy);
        self.shapes[si as usize].alive = false;
        self.free_shapes.push(si);
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

    /// Number of live shapes.
    pub fn shape_count(&self) -> usize {
        self.shapes.iter().filter(|s| s.alive).count()
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

    /// The fat-box margin of a shape on a body of this type.
    fn proxy_margin(&self, shape: &Shape, body_type: BodyType) -> f32 {
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
    /// travel is looked ahead for: padding for spin too was measured to
    /// cost 5 to 10% on the benchmark's smash and pile (more boxes grow,
    /// more pairs are found), and the fat margin and the speculative
    /// distance cover the turn of one step for all but long, fast-spinning
    /// bodies.
    fn predict_proxies(&mut self, bi: usize) {
        let b = &self.bodies[bi];
        let travel = self.last_dt * b.v;
        let xf = b.xf;
        for &s in &b.shapes {
            let slot = &self.shapes[s as usize];
            let mut aabb = slot.shape.aabb(xf);
            aabb.min += travel.min(Vec2::ZERO);
            aabb.max += travel.max(Vec2::ZERO);
            self.broadphase
                .move_proxy_predictive(slot.proxy, aabb, slot.margin, PREDICTION_STEPS * travel);
        }
    }

    // ----------------------------------------------------------------------
    // Contacts

    fn destroy_contact(&mut self, ci: u32) {
        end_contact(
            &mut self.contacts[ci as usize],
            ci,
            &mut self.pair_map,
            &mut self.free_contacts,
        );
    }

    fn destroy_contacts_of_body(&mut self, bi: u32) {
        for ci in 0..self.contacts.len() {
            let c = &self.contacts[ci];
            if c.alive && (c.body_a == bi || c.body_b == bi) {
                self.destroy_contact(ci as u32);
            }
        }
    }

    /// Number of live contacts (pairs of shapes whose fat AABBs overlap).
    pub fn contact_count(&self) -> usize {
        self.contacts.iter().filter(|c| c.alive).count()
    }

    /// How many contacts the last step kept their manifold for, moving its
    /// points with the bodies instead of colliding the shapes again (see
    /// [`SolverSettings::contact_recycling`]): in a pile at rest, most of
    /// them.
    pub fn recycled_contact_count(&self) -> usize {
        self.scratch.recycled
    }

    /// Contacts with at least one manifold point (touching or within the
    /// speculative distance), in a deterministic order.
    pub fn contacts(&self) -> impl Iterator<Item = ContactView<'_>> + '_ {
        self.contacts
            .iter()
            .filter(|c| c.alive && c.manifold.count > 0)
            .map(|c| ContactView {
                shape_a: self.shape_id(c.shape_a),
                shape_b: self.shape_id(c.shape_b),
                body_a: self.body_id(c.body_a),
                body_b: self.body_id(c.body_b),
                manifold: &c.manifold,
            })
    }

    // ----------------------------------------------------------------------
    // Queries

    /// Shapes containing the world point `p`, in slot order.
    pub fn shapes_at_point(&self, p: Vec2) -> Vec<ShapeId> {
        if !is_finite_vec(p) {
            return Vec::new();
        }
        let mut hits: Vec<u32> = Vec::new();
        self.broadphase.query(Aabb::new(p, p), |proxy| {
            let si = self.broadphase.user_data(proxy);
            let slot = &self.shapes[si as usize];
            if slot.shape.contains_point(self.bodies[slot.body as usize].xf, p) {
                hits.push(si);
            }
            true
        });
        hits.sort_unstable();
        hits.into_iter().map(|s| self.shape_id(s)).collect()
    }

    /// Shapes whose fat bounding boxes overlap `aabb`, in slot order.
    pub fn shapes_in_aabb(&self, aabb: Aabb) -> Vec<ShapeId> {
        let mut hits: Vec<u32> = Vec::new();
        self.broadphase.query(aabb, |proxy| {
            hits.push(self.broadphase.user_data(proxy));
            true
        });
        hits.sort_unstable();
        hits.into_iter().map(|s| self.shape_id(s)).collect()
    }

    /// The first shape hit by the ray from `origin` along `translation`.
    pub fn ray_cast_closest(&self, origin: Vec2, translation: Vec2) -> Option<RayHit> {
        if !is_finite_vec(origin) || !is_finite_vec(translation) {
            return None;
        }
        let mut best: Option<RayHit> = None;
        self.broadphase
            .ray_cast(origin, translation, |proxy, max_fraction| {
                let si = self.broadphase.user_data(proxy);
                let slot = &self.shapes[si as usize];
                let xf = self.bodies[slot.body as usize].xf;
                match ray_cast(&slot.shape, xf, origin, translation) {
                    Some(hit) if hit.fraction <= max_fraction => {
                        best = Some(RayHit {
                            shape: self.shape_id(si),
                            body: self.body_id(slot.body),
                            point: hit.point,
                            normal: hit.normal,
                            fraction: hit.fraction,
                        });
                        hit.fraction
                    }
                    _ => max_fraction,
                }
            });
        best
    }

    // ----------------------------------------------------------------------
    // The step

    /// Advances the world by `dt` seconds. Non-positive or non-finite `dt`
    /// does nothing.
    ///
    /// The pipeline, in order:
    /// 1. broadphase: shapes whose fat AABBs began to overlap get a contact;
    /// 2. narrowphase: every contact's manifold is recomputed, impulses are
    ///    carried over by feature id; contacts whose fat AABBs separated end;
    /// 3. solver: forces and gravity, warm start, velocity iterations,
    ///    restitution, split-impulse position correction;
    /// 4. integration of positions, and the broadphase is told who moved.
    pub fn step(&mut self, dt: f32) {
        if !(dt > 0.0 && dt.is_finite()) {
            return;
        }
        self.settings.solver.iterations = self
            .settings
            .solver
            .iterations
            .clamp(*ITERATIONS_RANGE.start(), *ITERATIONS_RANGE.end());
        self.last_dt = dt;
        self.find_new_contacts();
        self.update_contacts(dt);
        self.solve(dt);
        self.step_count += 1;
    }

    fn find_new_contacts(&mut self) {
        let mut pairs = std::mem::take(&mut self.scratch.new_pairs);
        pairs.clear();
        // Only pairs that could collide and have no contact yet: most of
        // what a moved shape overlaps is already in contact with it.
        let (shapes, bodies, pair_map) = (&self.shapes, &self.bodies, &self.pair_map);
        self.broadphase.update_pairs_where(&mut pairs, |sa, sb| {
            let (ba, bb) = (shapes[sa as usize].body, shapes[sb as usize].body);
            ba != bb
                && (bodies[ba as usize].body_type == BodyType::Dynamic
                    || bodies[bb as usize].body_type == BodyType::Dynamic)
                && !pair_map.contains_key(&pair_key(sa, sb))
        });
        for &(sa, sb) in &pairs {
            let (ba, bb) = (self.shapes[sa as usize].body, self.shapes[sb as usize].body);
            let key = pair_key(sa, sb);
            let (da, db) = (self.shapes[sa as usize].def, self.shapes[sb as usize].def);
            let part_a = self.shapes[sa as usize].part.min(0xff) as u64;
            let part_b = self.shapes[sb as usize].part.min(0xff) as u64;
            let contact = Contact {
                alive: true,
                shape_a: sa,
                shape_b: sb,
                body_a: ba,
                body_b: bb,
                friction: mix_friction(da.friction, db.friction),
                restitution: mix_restitution(da.restitution, db.restitution),
                part_bits: (part_a << 32) | (part_b << 40),
                manifold: Manifold::default(),
                cache: ManifoldCache::default(),
            };
            let ci = match self.free_contacts.pop() {
                Some(ci) => {
                    self.contacts[ci as usize] = contact;
                    ci
                }
                None => {
                    self.contacts.push(contact);
                    (self.contacts.len() - 1) as u32
                }
            };
            self.pair_map.insert(key, ci);
        }
        self.scratch.new_pairs = pairs;
    }

    fn update_contacts(&mut self, dt: f32) {
        let base_speculative = SPECULATIVE_DISTANCE * self.settings.length_units_per_meter;
        let limits = self.settings.solver.contact_recycling.then_some(RecycleLimits {
            distance: CONTACT_RECYCLE_DISTANCE * self.settings.length_units_per_meter,
            empty: base_speculative,
        });
        let mut recycled = 0;
        // Borrow the fields apart: the contacts change, the shapes and
        // bodies are only read (no copies of the shapes on the hot path).
        let (shapes, bodies, broadphase) = (&self.shapes, &self.bodies, &self.broadphase);
        for (ci, c) in self.contacts.iter_mut().enumerate() {
            if !c.alive {
                continue;
            }
            let (sa, sb) = (&shapes[c.shape_a as usize], &shapes[c.shape_b as usize]);
            if !broadphase.test_overlap(sa.proxy, sb.proxy) {
                // The fat boxes parted: the contact ends.
                end_contact(c, ci as u32, &mut self.pair_map, &mut self.free_contacts);
                continue;
            }
            let (ba, bb) = (&bodies[c.body_a as usize], &bodies[c.body_b as usize]);
            // Speculative margin: the base distance, plus how far the pair
            // can close in one step, so a fast body gets its contact points
            // before it would pass through (speculative continuous
            // collision). Resting pairs keep the small base margin.
            let closing = (bb.v - ba.v).length() + ba.w.abs() * ba.extent + bb.w.abs() * bb.extent;
            if limits.is_some() && c.recycle(ba, bb, dt * closing) {
                recycled += 1;
                continue;
            }
            let speculative = base_speculative + dt * closing;
            c.update(&sa.shape, ba, &sb.shape, bb, speculative, limits);
        }
        self.scratch.recycled = recycled;
    }

    fn solve(&mut self, dt: f32) {
        let settings = self.settings.solver;
        let substeps = settings
            .substeps
            .clamp(*SUBSTEPS_RANGE.start(), *SUBSTEPS_RANGE.end())
            .min(settings.iterations);
        let h = dt / substeps as f32;
        let lu = self.settings.length_units_per_meter;
        let ctx = StepContext {
            h,
            substeps,
            linear_slop: self.slop(),
            max_push_out_speed: MAX_PUSH_OUT_SPEED * lu,
            max_speed: MAX_TRANSLATION_PER_STEP * lu / dt,
            max_spin: MAX_ROTATION_PER_STEP / dt,
            settings,
        };
        let gravity = self.settings.gravity;
        let mut scratch = std::mem::take(&mut self.scratch);
        let n = self.bodies.len();
        scratch.solver_bodies.clear();
        scratch.solver_bodies.resize(n, SolverBody::default());

        for (i, b) in self.bodies.iter_mut().enumerate() {
            if !b.alive || b.frozen {
                continue;
            }
            let sb = &mut scratch.solver_bodies[i];
            match b.body_type {
                BodyType::Static => {}
                BodyType::Kinematic => {
                    sb.v = b.v;
                    sb.w = b.w;
                }
                BodyType::Dynamic => {
                    let accel = b.gravity_scale * gravity + b.inv_mass * b.force;
                    let angular_accel = b.inv_inertia * b.torque;
                    let finite = is_finite_vec(b.v + dt * accel) && (b.w + dt * angular_accel).is_finite();
                    if !finite {
                        // A user's force overflowed: freeze the body here,
                        // before its velocity reaches any contact.
                        freeze(b, i as u32, &mut self.frozen);
                        continue;
                    }
                    *sb = SolverBody {
                        v: b.v,
                        w: b.w,
                        inv_mass: b.inv_mass,
                        inv_inertia: b.inv_inertia,
                        accel,
                        angular_accel,
                        // Damping as an implicit decay: stable at any dt.
                        linear_decay: 1.0 / (1.0 + h * b.linear_damping),
                        angular_decay: 1.0 / (1.0 + h * b.angular_damping),
                        dynamic: true,
                        ..SolverBody::default()
                    };
                }
            }
        }

        solver::prepare_contacts(
            &mut scratch.constraints,
            &self.contacts,
            &scratch.solver_bodies,
            &self.bodies,
            &ctx,
        );
        // The solve writes the impulses back into the contacts' manifolds.
        solver::solve(
            &mut scratch.graph,
            &mut scratch.constraints,
            &mut self.contacts,
            &mut scratch.solver_bodies,
            &ctx,
        );

        // Move the bodies by what the substeps integrated.
        for i in 0..n {
            let b = &mut self.bodies[i];
            if !b.alive || b.frozen || b.body_type == BodyType::Static {
                continue;
            }
            let sb = scratch.solver_bodies[i];
            let center = b.center + sb.dp;
            let q = sb.dq * b.xf.q;
            b.force = Vec2::ZERO;
            b.torque = 0.0;
            let finite = is_finite_vec(center)
                && is_finite_vec(sb.v)
                && sb.w.is_finite()
                && q.c.is_finite()
                && q.s.is_finite();
            if !finite {
                // Freeze it where it was rather than let NaN spread.
                freeze(b, i as u32, &mut self.frozen);
                continue;
            }
            // Renormalise: many small rotations drift off unit length.
            let mag = (q.c * q.c + q.s * q.s).sqrt();
            let q = Rot {
                c: q.c / mag,
                s: q.s / mag,
            };
            b.v = sb.v;
            b.w = sb.w;
            b.center = center;
            b.sync_origin(q);
            self.predict_proxies(i);
        }
        self.scratch = scratch;
    }

    // ----------------------------------------------------------------------
    // Drawing

    /// Describes the world to a [`DebugDraw`] implementation.
    pub fn debug_draw(&self, draw: &mut dyn DebugDraw, options: &DrawOptions) {
        if options.shapes {
            for slot in self.shapes.iter().filter(|s| s.alive) {
                let b = &self.bodies[slot.body as usize];
                let color = if b.frozen {
                    Color::FROZEN
                } else {
                    match b.body_type {
                        BodyType::Static => Color::STATIC,
                        BodyType::Kinematic => Color::KINEMATIC,
                        BodyType::Dynamic => Color::DYNAMIC,
                    }
                };
                draw_shape(draw, &slot.shape, b.xf, color);
            }
        }
        if options.aabbs {
            for slot in self.shapes.iter().filter(|s| s.alive) {
                let a = self.broadphase.fat_aabb(slot.proxy);
                let c = [
                    a.min,
                    Vec2::new(a.max.x, a.min.y),
                    a.max,
                    Vec2::new(a.min.x, a.max.y),
                ];
                for k in 0..4 {
                    draw.draw_segment(c[k], c[(k + 1) % 4], Color::AABB);
                }
            }
        }
        if options.contacts || options.normals {
            for c in self.contacts.iter().filter(|c| c.alive) {
                let m = &c.manifold;
                for p in m.points() {
                    if options.contacts {
                        let color = if p.persisted {
                            Color::CONTACT_PERSISTED
                        } else {
                            Color::CONTACT_NEW
                        };
                        draw.draw_point(p.point, 5.0, color);
                    }
                    if options.normals {
                        draw.draw_segment(p.point, p.point + options.normal_length * m.normal, Color::NORMAL);
                    }
                }
            }
        }
    }
}

/// Checks a shape before it joins a body: its geometry (its fields are
/// public, so it may not have come from a constructor) and that its mass
/// and inertia at the shape's density fit in `f32`.
fn check_shape(shape: &Shape, def: &ShapeDef) -> Result<(), ShapeError> {
    shape.validate()?;
    let md = shape.mass(def.density);
    if !(md.mass.is_finite() && md.inertia.is_finite() && is_finite_vec(md.center)) {
        return Err(ShapeError::MassOverflow);
    }
    Ok(())
}

/// Ends contact `ci`: frees its slot and forgets its pair. A free function
/// over the fields it touches, so the step's contact update can call it
/// while it holds the contact list.
fn end_contact(c: &mut Contact, ci: u32, pair_map: &mut PairMap, free_contacts: &mut Vec<u32>) {
    c.alive = false;
    c.manifold = Manifold::default();
    pair_map.remove(&pair_key(c.shape_a, c.shape_b));
    free_contacts.push(ci);
}

/// Stops a body whose state became non-finite and reports it.
fn freeze(b: &mut Body, index: u32, frozen: &mut Vec<BodyId>) {
    b.frozen = true;
    b.v = Vec2::ZERO;
    b.w = 0.0;
    b.force = Vec2::ZERO;
    b.torque = 0.0;
    frozen.push(BodyId {
        index,
        generation: b.generation,
    });
}

/// Draws one shape placed at `xf`.
pub fn draw_shape(draw: &mut dyn DebugDraw, shape: &Shape, xf: Transform, color: Color) {
    match shape {
        Shape::Circle(c) => draw.draw_circle(xf.apply(c.center), c.radius, xf.q.x_axis(), color),
        Shape::Capsule(c) => draw.draw_capsule(xf.apply(c.center1), xf.apply(c.center2), c.radius, color),
        Shape::Polygon(p) => {
            let mut v = [Vec2::ZERO; crate::settings::MAX_POLYGON_VERTICES];
            for (dst, src) in v.iter_mut().zip(p.points()) {
                *dst = xf.apply(*src);
            }
            draw.draw_polygon(&v[..p.count], p.radius, color);
        }
    }
}

/// Steps a world at a fixed rate from a variable frame rate: frame time
/// accumulates and whole steps are taken, at most `max_steps` per frame so a
/// long frame (a breakpoint, a dragged window) does not cause a spiral of
/// catch-up steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixedStepper {
    /// The fixed step, seconds.
    pub dt: f32,
    /// Most steps taken in one `advance`; extra time is dropped.
    pub max_steps: u32,
    accumulator: f32,
}

impl FixedStepper {
    /// A stepper at `hz` steps per second, at most `max_steps` per frame.
    ///
    /// A rate that gives no usable step (zero, negative, NaN, infinite, or
    /// so small that `1 / hz` overflows) falls back to 60 Hz, and
    /// `max_steps` of zero counts as one; [`FixedStepper::try_new`] reports
    /// the bad rate instead.
    pub fn new(hz: f32, max_steps: u32) -> FixedStepper {
        let usable = |dt: &f32| dt.is_finite() && *dt > 0.0;
        let dt = Some(1.0 / hz).filter(usable).unwrap_or(1.0 / 60.0);
        FixedStepper {
            dt,
            max_steps: max_steps.max(1),
            accumulator: 0.0,
        }
    }

    /// A stepper at `hz` steps per second, at most `max_steps` per frame;
    /// an error names a rate that is not a positive finite number with a
    /// finite step, or a `max_steps` of zero.
    pub fn try_new(hz: f32, max_steps: u32) -> Result<FixedStepper, BodyError> {
        if !hz.is_finite() || !(1.0 / hz).is_finite() {
            return Err(BodyError::NonFinite("step rate"));
        }
        if hz <= 0.0 {
            return Err(BodyError::OutOfRange("step rate"));
        }
        if max_steps == 0 {
            return Err(BodyError::OutOfRange("max steps"));
        }
        Ok(FixedStepper::new(hz, max_steps))
    }

    /// Adds `frame_time` seconds and takes as many whole steps as fit
    /// (calling `step` for each); returns the number of steps taken. If
    /// `dt` (a public field) was set to zero, a negative or a non-finite
    /// value, nothing is stepped.
    pub fn advance(&mut self, frame_time: f32, mut step: impl FnMut(f32)) -> u32 {
        if !(self.dt > 0.0 && self.dt.is_finite()) {
            return 0;
        }
        if frame_time.is_finite() && frame_time > 0.0 {
            self.accumulator += frame_time;
        }
        let mut steps = 0;
        while self.accumulator >= self.dt && steps < self.max_steps {
            step(self.dt);
            self.accumulator -= self.dt;
            steps += 1;
        }
        if steps == self.max_steps && self.accumulator >= self.dt {
            // Clamp: drop what could not be simulated in time.
            self.accumulator = 0.0;
        }
        steps
    }

    /// The fraction of a step left in the accumulator, for interpolating
    /// the drawing between two steps.
    pub fn alpha(&self) -> f32 {
        self.accumulator / self.dt
    }
}

#[cfg(feature = "serde")]
mod snapshot;

#[cfg(test)]
mod recycling_tests;
#[cfg(test)]
mod reliability_tests;

#[cfg(test)]
mod tests;
