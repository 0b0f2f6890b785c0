//! Box2D v3 (the C library, built from source by `boxdd-sys`) through the
//! `boxdd` crate, at Box2D's defaults: 4 substeps, continuous collision on,
//! one worker thread, its default joint softness. Only sleeping is turned
//! off (except in the `sleep` scene).
//!
//! A spec filter is Box2D's own (category, mask, group). A spec joint is a
//! `b2RevoluteJointDef` whose frame on each body is the anchor in that
//! body's coordinates, turned back by the body's starting angle so the
//! joint angle starts at zero; its limits, motor and spring are Box2D's
//! fields of the same names.

use super::{Engine, Memory};
use crate::spec::{BodySpec, FilterSpec, Geometry, JointSpec, Motion, ShapeSpec, Spec, DT, V2};
use boxdd::{
    shapes, BodyBuilder, BodyId, BodyType, Filter, Foundation, FoundationConfig, FoundationLogHook, JointId,
    RevoluteJointDef, ShapeDef, SurfaceMaterial, Transform, WorkerCount, World, WorldBuilder,
};
use std::sync::{Arc, OnceLock};

/// Box2D's recommended substep count, the one its samples and benchmarks
/// use.
pub const SUBSTEPS: i32 = 4;

/// Whether this build compiled Box2D with its AVX2 path: the
/// `box2d-avx2` feature (on by default) on x86_64, the one target
/// boxdd-sys honours it on.
pub const AVX2_BUILD: bool = cfg!(all(feature = "box2d-avx2", target_arch = "x86_64"));

/// The SIMD path Box2D's solver was built with, for the output: `AVX2`
/// (eight constraints a batch), else the four-wide path of the target
/// (`SSE2` on x86, `NEON` on aarch64) or its scalar stand-in elsewhere.
pub fn simd_path() -> &'static str {
    if AVX2_BUILD {
        "AVX2"
    } else if cfg!(any(target_arch = "x86_64", target_arch = "x86")) {
        "SSE2"
    } else if cfg!(target_arch = "aarch64") {
        "NEON"
    } else {
        "scalar"
    }
}

/// Whether this processor can run the Box2D this binary was built with:
/// an error saying how to build the SSE2 path if Box2D was compiled for
/// AVX2 and the processor has none (it would stop on an illegal
/// instruction in the first step, not with a message).
pub fn check_processor() -> Result<(), String> {
    #[cfg(all(feature = "box2d-avx2", target_arch = "x86_64"))]
    if !std::arch::is_x86_feature_detected!("avx2") {
        return Err(
            "this build compiled Box2D with its AVX2 path, and this processor has no AVX2; \
             build Box2D's SSE2 path instead with \
             `cargo build --release -p tumble-bench --no-default-features`"
                .to_string(),
        );
    }
    Ok(())
}

/// What the output says about how Box2D runs.
pub fn settings(threads: usize) -> String {
    format!(
        "Box2D v3.2 (boxdd 0.6, vendored C built by boxdd-sys, its {} path): {SUBSTEPS} substeps, \
         its default soft-step solver, contact recycling on (its default), continuous on, {threads} worker(s), \
         sleeping off (on in the sleep scene)",
        simd_path()
    )
}

/// A scene in a Box2D world.
pub struct Box2dScene {
    world: World,
    bodies: Vec<BodyId>,
    joints: Vec<JointId>,
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
    ///
    /// # Panics
    ///
    /// On a processor without AVX2 when Box2D was built with its AVX2
    /// path (see [`check_processor`]).
    pub fn new(spec: &Spec, threads: usize) -> Box2dScene {
        if let Err(e) = check_processor() {
            panic!("{e}");
        }
        let foundation = foundation();
        let workers = WorkerCount::new(threads as u32).expect("a worker count Box2D accepts");
        let def = WorldBuilder::from(foundation.world_def())
            .gravity([spec.gravity.x, spec.gravity.y])
            .enable_sleep(spec.sleeping)
            .worker_count(workers)
            .build()
            .expect("valid world definition");
        let mut world = foundation.create_world(def).expect("a Box2D world");
        let bodies: Vec<BodyId> = spec
            .bodies
            .iter()
            .map(|b| add_body(&mut world, foundation, b, spec.sleeping))
            .collect();
        let joints = spec
            .joints
            .iter()
            .map(|j| add_joint(&mut world, spec, &bodies, j))
            .collect();
        Box2dScene {
            world,
            bodies,
            joints,
            dynamic: spec.bodies.iter().map(|b| b.motion == Motion::Dynamic).collect(),
        }
    }
}

fn add_joint(world: &mut World, spec: &Spec, bodies: &[BodyId], joint: &JointSpec) -> JointId {
    let (a, b) = (&spec.bodies[joint.body_a], &spec.bodies[joint.body_b]);
    let base = world
        .joint_base(bodies[joint.body_a], bodies[joint.body_b])
        .and_then(|base| {
            base.with_local_frame_components(
                point(a.local_point(joint.anchor)),
                -a.angle,
                point(b.local_point(joint.anchor)),
                -b.angle,
            )
        })
        .expect("a joint between two live bodies at a finite anchor")
        .with_collide_connected(joint.collide_connected);
    let mut def = RevoluteJointDef::new(base);
    if let Some(limits) = joint.limits {
        def = def
            .enable_limit(true)
            .lower_angle(limits.lower)
            .upper_angle(limits.upper);
    }
    if let Some(motor) = joint.motor {
        def = def
            .enable_motor(true)
            .motor_speed(motor.speed)
            .max_motor_torque(motor.max_torque);
    }
    if let Some(spring) = joint.spring {
        def = def
            .enable_spring(true)
            .hertz(spring.hertz)
            .damping_ratio(spring.damping_ratio)
            .target_angle(spring.target_angle);
    }
    world.create_revolute_joint(&def).expect("a Box2D revolute joint")
}

fn point(v: V2) -> [f32; 2] {
    [v.x, v.y]
}

fn filter(filter: FilterSpec) -> Filter {
    Filter {
        category_bits: filter.category,
        mask_bits: filter.mask,
        group_index: filter.group,
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
        create_shape(&mut body, shape);
    }
    id
}

fn create_shape(body: &mut boxdd::Body<'_>, shape: &ShapeSpec) {
    let material = SurfaceMaterial::new()
        .with_friction(shape.friction)
        .and_then(|m| m.with_restitution(shape.restitution))
        .expect("valid material");
    let def = ShapeDef::builder()
        .material(material)
        .density(shape.density)
        .filter(filter(shape.filter))
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
        Geometry::Segment { a, b } => body.create_segment(
            &def,
            &shapes::segment(point(*a), point(*b)).expect("valid segment"),
        ),
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

    fn joint_count(&self) -> usize {
        self.world
            .counters()
            .map(|c| c.joint_count.max(0) as usize)
            .unwrap_or(0)
    }

    fn contact_count(&self) -> usize {
        self.world
            .counters()
            .map(|c| c.contact_count.max(0) as usize)
            .unwrap_or(0)
    }

    /// Each joint's local frames, read back from Box2D, placed by its
    /// bodies' transforms.
    fn joint_gaps(&mut self) -> Vec<f32> {
        let world = &mut self.world;
        self.joints
            .iter()
            .map(|&id| {
                let joint = world.joint(id).expect("a live joint");
                let ends = [
                    (joint.body_a_id(), joint.local_frame_a()),
                    (joint.body_b_id(), joint.local_frame_b()),
                ]
                .map(|(body, frame)| (body.expect("a live joint's body"), frame.expect("its frame")));
                let [pa, pb] = ends.map(|(body, frame)| {
                    let p = world
                        .body(body)
                        .and_then(|b| b.world_point(frame.position()))
                        .expect("a live body");
                    V2::new(p.x, p.y)
                });
                pa.distance(pb)
            })
            .collect()
    }

    fn centers(&mut self) -> Vec<V2> {
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

    fn angles(&mut self) -> Vec<f32> {
        let world = &mut self.world;
        self.bodies
            .iter()
            .map(|&id| {
                let body = world.body(id).expect("a live body");
                body.rotation().expect("a live body").angle()
            })
            .collect()
    }

    fn velocity(&mut self, body: usize) -> V2 {
        let v = self
            .world
            .body(self.bodies[body])
            .and_then(|b| b.linear_velocity())
            .expect("a live body");
        V2::new(v.x, v.y)
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

    /// Box2D's own profile: new pairs, the narrowphase, and the solve with
    /// the parts of it that hold the time (the solver's setup, its stages
    /// one by one (the prepare, the substeps' passes, the store: to set
    /// beside Tumble's setup, substeps and store), the transforms, the
    /// broadphase refit, the islands).
    fn stages(&self) -> Vec<(&'static str, f64)> {
        let Ok(p) = self.world.profile() else {
            return Vec::new();
        };
        crate::timing::in_ms(&[
            ("pairs", p.pairs),
            ("collide", p.collide),
            ("solve", p.solve),
            ("solve: setup", p.solver_setup),
            ("solve: constraints", p.constraints),
            ("solve: constraints: prepare", p.prepare_constraints),
            ("solve: constraints: integrate velocities", p.integrate_velocities),
            ("solve: constraints: warm start", p.warm_start),
            ("solve: constraints: solve", p.solve_impulses),
            ("solve: constraints: integrate positions", p.integrate_positions),
            ("solve: constraints: relax", p.relax_impulses),
            ("solve: constraints: restitution", p.apply_restitution),
            ("solve: constraints: store", p.store_impulses),
            ("solve: transforms", p.transforms),
            ("solve: refit", p.refit),
            ("solve: split islands", p.split_islands),
            ("solve: sleep islands", p.sleep_islands),
            ("step", p.step),
        ])
    }
}
