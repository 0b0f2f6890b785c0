//! The three engines behind one small trait, each building a [`Spec`] its
//! own way and stepping it at its own default solver settings.

use crate::spec::{Spec, V2};

pub mod box2d;
pub mod rapier;
pub mod tumble;

/// One engine's copy of one scene.
pub trait Engine {
    /// The engine's name in the output: `Tumble`, `Box2D` or `Rapier`.
    fn name(&self) -> &'static str;

    /// Advances the scene by one step of [`crate::spec::DT`].
    fn step(&mut self);

    /// Number of bodies in the engine's world (static and kinematic too).
    fn body_count(&self) -> usize;

    /// Number of joints in the engine's world.
    fn joint_count(&self) -> usize;

    /// Contacts the engine holds now. Tumble and Box2D count the pairs of
    /// shapes whose bounding boxes overlap, Rapier the pairs that touch;
    /// a pair the collision filter excludes is none of these, so a scene
    /// whose filter keeps everything apart counts zero in all three.
    fn contact_count(&self) -> usize;

    /// For each of the spec's joints, in the spec's order, the distance
    /// between its two anchors in world coordinates now, each placed by
    /// the engine's own transform of its body and the joint's local frame
    /// on it. A hinge that holds has them together.
    fn joint_gaps(&mut self) -> Vec<f32>;

    /// Every body's center, in the order of the spec's bodies: the world
    /// center of mass of a dynamic body, the origin of any other.
    fn centers(&mut self) -> Vec<V2>;

    /// Every body's angle, radians, in the order of the spec's bodies (the
    /// turn of its frame from the world's, in `-pi..=pi`).
    fn angles(&mut self) -> Vec<f32>;

    /// The velocity of the center of mass of the spec's body `body` (an
    /// index into [`Spec::bodies`]), m/s.
    fn velocity(&mut self, body: usize) -> V2;

    /// The total mass of the dynamic bodies, as the engine computed it.
    fn dynamic_mass(&mut self) -> f32;

    /// Memory figures, where the engine offers a way to get them.
    fn memory(&self) -> Option<Memory> {
        None
    }

    /// Bodies the engine simulates now (awake; static ones never count).
    fn awake_count(&mut self) -> usize;

    /// Wakes every body.
    fn wake_all(&mut self);

    /// The last step's time by stage in milliseconds, named as the
    /// engine's own profile names them (see [`crate::stages`]); empty for
    /// an engine that keeps no profile.
    fn stages(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
}

/// How much memory an engine's world takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Memory {
    /// Tumble: per-body and per-contact estimates (see [`crate::memory`]).
    Estimated(crate::memory::Footprint),
    /// Box2D: the bytes its allocator has handed out, measured.
    Allocated {
        /// Bytes allocated.
        bytes: usize,
        /// Bodies in the world.
        bodies: usize,
        /// Contacts in the world.
        contacts: usize,
    },
}

/// Which engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// Tumble, this project's engine.
    Tumble,
    /// Box2D v3, through the `boxdd` crate.
    Box2d,
    /// Rapier, through the `rapier2d` crate.
    Rapier,
}

impl EngineKind {
    /// All three, in the order they take turns and appear in the output.
    pub const ALL: [EngineKind; 3] = [EngineKind::Tumble, EngineKind::Box2d, EngineKind::Rapier];

    /// The engine's name in the output.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Tumble => "Tumble",
            EngineKind::Box2d => "Box2D",
            EngineKind::Rapier => "Rapier",
        }
    }

    /// The settings it runs at on `threads` threads, for the output.
    pub fn settings(self, threads: usize) -> String {
        match self {
            EngineKind::Tumble => tumble::settings(threads),
            EngineKind::Box2d => box2d::settings(threads),
            EngineKind::Rapier => rapier::settings(threads),
        }
    }

    /// Builds the scene in this engine, to run on one thread.
    pub fn build(self, spec: &Spec) -> Box<dyn Engine> {
        self.build_on(spec, 1)
    }

    /// Builds the scene in this engine, to run on `threads` threads
    /// (at least 1).
    pub fn build_on(self, spec: &Spec, threads: usize) -> Box<dyn Engine> {
        let threads = threads.max(1);
        match self {
            EngineKind::Tumble => Box::new(tumble::TumbleScene::new(spec, threads)),
            EngineKind::Box2d => Box::new(box2d::Box2dScene::new(spec, threads)),
            EngineKind::Rapier => Box::new(rapier::RapierScene::new(spec, threads)),
        }
    }
}
