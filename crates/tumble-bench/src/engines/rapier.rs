//! Rapier through the `rapier2d` crate at its default integration
//! parameters (4 solver iterations, each one PGS pass and one
//! stabilisation pass; contact softness and prediction distance at their
//! defaults), built with its `parallel` feature and stepped inside a rayon
//! pool of the run's thread count (one thread by default). Only sleeping is turned off (except in the `sleep` scene). Its friction rule (average) and
//! restitution rule give the same 0.6 and 0 as every other engine here,
//! since every shape has the same material.

use super::Engine;
use crate::spec::{BodySpec, Geometry, Motion, ShapeSpec, Spec, DT, V2};
use rapier2d::prelude::{ColliderBuilder, PhysicsWorld, RigidBodyBuilder, RigidBodyHandle, Vector};

/// What the output says about how Rapier runs.
pub fn settings(threads: usize) -> String {
    let p = rapier2d::prelude::IntegrationParameters::default();
    format!(
        "Rapier {} (rapier2d, `parallel` feature): default integration parameters \
         ({} solver iterations, {} PGS + {} stabilisation pass each), a {threads}-thread rayon pool, \
         sleeping off (on in the sleep scene)",
        rapier2d::VERSION,
        p.num_solver_iterations,
        p.num_internal_pgs_iterations,
        p.num_internal_stabilization_iterations
    )
}

/// A scene in a Rapier world.
pub struct RapierScene {
    world: PhysicsWorld,
    bodies: Vec<RigidBodyHandle>,
    /// The threads its parallel solver runs on.
    pool: rayon::ThreadPool,
}

fn vector(v: V2) -> Vector {
    Vector::new(v.x, v.y)
}

impl RapierScene {
    /// Builds the spec in a new Rapier world.
    pub fn new(spec: &Spec, threads: usize) -> RapierScene {
        let mut world = PhysicsWorld::new();
        world.gravity = vector(spec.gravity);
        world.integration_parameters.dt = DT;
        let bodies = spec
            .bodies
            .iter()
            .map(|b| add_body(&mut world, b, spec.sleeping))
            .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a rayon pool for Rapier");
        RapierScene { world, bodies, pool }
    }
}

fn add_body(world: &mut PhysicsWorld, spec: &BodySpec, sleeping: bool) -> RigidBodyHandle {
    let builder = match spec.motion {
        Motion::Static => RigidBodyBuilder::fixed(),
        Motion::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
        Motion::Dynamic => RigidBodyBuilder::dynamic(),
    };
    let body = builder
        .translation(vector(spec.position))
        .rotation(spec.angle)
        .linvel(vector(spec.linear_velocity))
        .angvel(spec.angular_velocity)
        .can_sleep(sleeping);
    let handle = world.insert_body(body);
    for shape in &spec.shapes {
        world.insert_collider(collider(shape), Some(handle));
    }
    handle
}

fn collider(shape: &ShapeSpec) -> ColliderBuilder {
    let builder = match &shape.geometry {
        // A collider's translation and rotation are relative to its body.
        Geometry::Box { half, center, angle } => ColliderBuilder::cuboid(half.x, half.y)
            .translation(vector(*center))
            .rotation(*angle),
        Geometry::Circle { radius } => ColliderBuilder::ball(*radius),
        Geometry::Capsule { half_length, radius } => ColliderBuilder::capsule_x(*half_length, *radius),
        Geometry::Polygon { points } => {
            let points: Vec<Vector> = points.iter().map(|&p| vector(p)).collect();
            ColliderBuilder::convex_hull(&points).expect("valid convex polygon")
        }
    };
    builder
        .density(shape.density)
        .friction(shape.friction)
        .restitution(shape.restitution)
}

impl Engine for RapierScene {
    fn name(&self) -> &'static str {
        "Rapier"
    }

    fn step(&mut self) {
        let world = &mut self.world;
        self.pool.install(|| world.step());
    }

    fn body_count(&self) -> usize {
        self.world.bodies.len()
    }

    fn centres(&mut self) -> Vec<V2> {
        self.bodies
            .iter()
            .map(|&h| {
                let body = &self.world.bodies[h];
                let p = if body.is_dynamic() {
                    body.center_of_mass()
                } else {
                    body.translation()
                };
                V2::new(p.x, p.y)
            })
            .collect()
    }

    fn dynamic_mass(&mut self) -> f32 {
        self.bodies
            .iter()
            .map(|&h| &self.world.bodies[h])
            .filter(|b| b.is_dynamic())
            .map(|b| b.mass())
            .sum()
    }

    fn awake_count(&mut self) -> usize {
        self.world.islands.active_bodies().count()
    }

    fn wake_all(&mut self) {
        self.world.wake_up_all(true);
    }
}
