//! Box2D v3 (the C library, built from source by `boxdd-sys`) through the
//! `boxdd` crate, at Box2D's defaults: 4 substeps, continuous collision on,
//! one worker thread. Only sleeping is turned off (except in the `sleep`
//! scene).

use super::{Engine, Memory};
use crate::spec::{BodySpec, Geometry, Motion, ShapeSpec, Spec, DT, V2};
use boxdd::{
    shapes, BodyBuilder, BodyId, BodyType, Foundation, FoundationConfig, FoundationLogHook, ShapeDef,
    SurfaceMaterial, Transform, WorkerCount, World, WorldBuilder,
};
use std::sync::{Arc, OnceLock};

/// Box2D's recommended substep count, the one its samples and benchmarks
/// use.
pub const SUBSTEPS: i32 = 4;

/// What the output says about how Box2D runs.
pub fn settings(threads: usize) -> String {
    format!(
        "Box2D v3.2 (boxdd 0.6, vendored C built by boxdd-sys): {SUBSTEPS} substeps, \
         its default soft-step solver, contact recycling on (its default), continuous on, {threads} worker(s), \
         sleeping off (on in the sleep scene)"
    )
}

/// A scene in a Box2D world.
pub struct Box2dScene {
    world: World,
    bodies: Vec<BodyId>,
    dynamic: Vec<bool>,
}

/// Box2D's process-wide setup, done once: its default length unit, and its
/// log sent to stderr (by default it prints to stdout, where it would
/// break `--json`). A `OnceLock` keeps concurrent tests from racing two
/// different hooks into the setup, which Box2D would reject.
fn foundation() -> &'static Foundation {
    static FOUNDATION: OnceLock<&'static Foundation> = OnceLock::new();
    FOUNDATION.get_or_init(|| {
        let log: Arc<FoundationLogHook> = Arc::new(|message: &str| eprintln!("Box2D: {message}"));
        Foundation::initialize(FoundationConfig::new(1.0).with_log_hook(log))
            .expect("Box2D's process-wide setup at one length unit per metre")
    })
}

impl Box2dScene {
    /// Builds the spec in a new Box2D world.
    pub fn new(spec: &Spec, threads: usize) -> Box2dScene {
        let foundation = foundation();
        let workers = WorkerCount::new(threads as u32).expect("a worker count Box2D accepts");
        let def = WorldBuilder::from(foundation.world_def())
            .gravity([spec.gravity.x, spec.gravity.y])
            .enable_sleep(spec.sleeping)
            .worker_count(workers)
            .build()
            .expect("valid world definition");
        let mut world = foundation.create_world(def).expect("a Box2D world");
        let bodies = spec
            .bodies
            .iter()
            .map(|b| add_body(&mut world, foundation, b, spec.sleeping))
            .collect();
        Box2dScene {
            world,
            bodies,
            dynamic: spec.bodies.iter().map(|b| b.motion == Motion::Dynamic).collect(),
        }
    }
}

fn add_body(world: &mut World, foundation: &Foundation, spec: &BodySpec, sleeping: bool) -> BodyId {
    let body_type = match spec.motion {
        Motion::Static => BodyType::Static,
        Motion::Kinematic => BodyType::Kinematic,
        Motion::Dynamic => BodyType::Dynamic,
    };
    let def = BodyBuilder::from(foundation.body_def())
        .body_type(body_type)
        .position([spec.position.x, spec.position.y])
        .angle(spec.angle)
        .linear_velocity([spec.linear_velocity.x, spec.linear_velocity.y])
        .angular_velocity(spec.angular_velocity)
        .enable_sleep(sleeping)
        .build()
        .expect("valid body definition");
    let id = world.create_body(def).expect("a Box2D body");
    let mut body = world.body(id).expect("the body just made");
    for shape in &spec.shapes {
        add_shape(&mut body, shape);
    }
    id
}

fn add_shape(body: &mut boxdd::Body<'_>, shape: &ShapeSpec) {
    let material = SurfaceMaterial::new()
        .with_friction(shape.friction)
        .and_then(|m| m.with_restitution(shape.restitution))
        .expect("valid material");
    let def = ShapeDef::builder()
        .material(material)
        .density(shape.density)
        .build()
        .expect("valid shape definition");
    let made = match &shape.geometry {
        Geometry::Box { half, center, angle } => {
            let xf = Transform::from_pos_angle([center.x, center.y], *angle).expect("finite box transform");
            let polygon = shapes::offset_box_polygon(half.x, half.y, xf).expect("valid box");
            body.create_polygon(&def, &polygon)
        }
        Geometry::Circle { radius } => {
            body.create_circle(&def, &shapes::circle([0.0, 0.0], *radius).expect("valid circle"))
        }
        Geometry::Capsule { half_length, radius } => {
            let capsule =
                shapes::capsule([-half_length, 0.0], [*half_length, 0.0], *radius).expect("valid capsule");
            body.create_capsule(&def, &capsule)
        }
        Geometry::Polygon { points } => {
            let polygon = shapes::polygon_from_points(points.iter().map(|p| [p.x, p.y]), 0.0)
                .expect("valid convex polygon");
            body.create_polygon(&def, &polygon)
        }
    };
    made.expect("a Box2D shape");
}

impl Engine for Box2dScene {
    fn name(&self) -> &'static str {
        "Box2D"
    }

    fn step(&mut self) {
        // The completed step carries this step's events; the benchmark
        // reads none of them, so it is dropped at once.
        drop(self.world.step(DT, SUBSTEPS).expect("a Box2D step"));
    }

    fn body_count(&self) -> usize {
        self.world
            .counters()
            .map(|c| c.body_count.max(0) as usize)
            .unwrap_or(0)
    }

    fn centres(&mut self) -> Vec<V2> {
        let world = &mut self.world;
        self.bodies
            .iter()
            .zip(&self.dynamic)
            .map(|(&id, &dynamic)| {
                let body = world.body(id).expect("a live body");
                let p = if dynamic {
                    body.world_center_of_mass()
                } else {
                    body.position()
                }
                .expect("a live body");
                V2::new(p.x, p.y)
            })
            .collect()
    }

    fn dynamic_mass(&mut self) -> f32 {
        let world = &mut self.world;
        self.bodies
            .iter()
            .zip(&self.dynamic)
            .filter(|(_, &dynamic)| dynamic)
            .map(|(&id, _)| world.body(id).and_then(|b| b.mass()).expect("a live body"))
            .sum()
    }

    /// Box2D counts the bytes its allocator has handed out, process-wide:
    /// with one Box2D world alive, that world's footprint.
    fn memory(&self) -> Option<Memory> {
        let c = self.world.counters().ok()?;
        Some(Memory::Allocated {
            bytes: c.byte_count.max(0) as usize,
            bodies: c.body_count.max(0) as usize,
            contacts: c.contact_count.max(0) as usize,
        })
    }

    fn awake_count(&mut self) -> usize {
        self.world.awake_body_count().map_or(0, |n| n.max(0) as usize)
    }

    fn wake_all(&mut self) {
        for &id in &self.bodies {
            self.world
                .body(id)
                .and_then(|mut b| b.set_awake(true))
                .expect("a live body");
        }
    }
}
