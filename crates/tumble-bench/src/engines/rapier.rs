//! Rapier through the `rapier2d` crate at its default integration
//! parameters (4 solver iterations, each one PGS pass and one
//! stabilisation pass; contact softness, joint softness and prediction
//! distance at their defaults), built with its `parallel` feature and
//! stepped inside a rayon pool of the run's thread count (one thread by
//! default). Only sleeping is turned off (except in the `sleep` scene).
//! Its friction rule (average) and restitution rule give the same
//! coefficients as every other engine here, since in each scene every
//! pair of shapes that can touch has the same material.
//!
//! Filters: a collider's interaction groups (memberships and filter) are
//! the spec's category and mask, 32 bits of them; Rapier has nothing like
//! Box2D's group index. A shape of a non-zero group is in every
//! interaction group and asks a contact pair filter hook ([`GroupFilter`],
//! called by Rapier for every pair of touching bounding boxes that either
//! collider flags, each step), which applies Box2D's whole rule to the two
//! shapes' filters, kept in their colliders' user data.
//!
//! Joints: a spec joint is an impulse revolute joint with its local frames
//! at the anchor, turned back by each body's starting angle so its angle
//! starts at zero; `contacts_enabled` is the spec's collide_connected;
//! limits are Rapier's. Rapier has one motor per axis where Box2D and
//! Tumble have a spring and a motor: a spring becomes the motor (towards
//! its target angle with Rapier's acceleration-based stiffness
//! `(2 pi hertz)^2` and damping `2 zeta (2 pi hertz)`, what Box2D's soft
//! spring is, no torque cap), and a motor without a spring a velocity
//! motor capped at its torque ([`RIGID_MOTOR_DAMPING`]). So a joint with
//! both, as the ragdolls' (a 5 Hz spring and a friction of at most 0.05
//! N m), keeps its spring (and the motor's speed as the spring's target
//! speed) but loses the motor's torque cap, its friction, in Rapier.

use super::Engine;
use crate::spec::{BodySpec, FilterSpec, Geometry, JointSpec, Motion, ShapeSpec, Spec, DT, V2};
use rapier2d::prelude::{
    ActiveHooks, ColliderBuilder, ColliderHandle, GenericJoint, Group, ImpulseJointHandle, InteractionGroups,
    InteractionTestMode, PairFilterContext, PhysicsHooks, PhysicsWorld, Pose, RevoluteJointBuilder,
    RigidBodyBuilder, RigidBodyHandle, SolverFlags, Vector,
};
use std::f32::consts::TAU;

/// The damping factor of a velocity motor standing for a spec motor,
/// 1/s: Rapier's acceleration-based motor softens its constraint by
/// `1 / (1 + dt * factor)`, so at this factor and dt = 1/60 s it acts as a
/// rigid one would up to its torque cap, as Box2D's and Tumble's motors
/// do. (Even rigid, Rapier's velocity motor lets a joint under a steady
/// load creep: a 1 m bar braked by 50 N m against gravity's 0.5 N m turns
/// 0.14 rad in its first second, at any factor from 10^4 up.)
pub const RIGID_MOTOR_DAMPING: f32 = 1.0e4;

/// What the output says about how Rapier runs.
pub fn settings(threads: usize) -> String {
    let p = rapier2d::prelude::IntegrationParameters::default();
    format!(
        "Rapier {} (rapier2d, `parallel` feature): default integration parameters \
         ({} solver iterations, {} PGS + {} stabilisation pass each), a {threads}-thread rayon pool, \
         sleeping off (on in the sleep scene), one motor per joint axis (a ragdoll joint's spring \
         replaces its friction)",
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
    joints: Vec<ImpulseJointHandle>,
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
        let bodies: Vec<RigidBodyHandle> = spec
            .bodies
            .iter()
            .map(|b| add_body(&mut world, b, spec.sleeping))
            .collect();
        let joints = spec
            .joints
            .iter()
            .map(|j| {
                let joint = revolute(spec, j);
                world.insert_impulse_joint(bodies[j.body_a], bodies[j.body_b], joint)
            })
            .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a rayon pool for Rapier");
        RapierScene {
            world,
            bodies,
            joints,
            pool,
        }
    }
}

/// The spec joint as a Rapier revolute joint (see the module docs).
fn revolute(spec: &Spec, joint: &JointSpec) -> GenericJoint {
    let mut hinge = RevoluteJointBuilder::new().contacts_enabled(joint.collide_connected);
    if let Some(limits) = joint.limits {
        hinge = hinge.limits([limits.lower, limits.upper]);
    }
    let speed = joint.motor.map_or(0.0, |m| m.speed);
    match (joint.spring, joint.motor) {
        (Some(spring), _) => {
            let omega = TAU * spring.hertz;
            hinge = hinge.motor(
                spring.target_angle,
                speed,
                omega * omega,
                2.0 * spring.damping_ratio * omega,
            );
        }
        (None, Some(motor)) => {
            hinge = hinge
                .motor_velocity(speed, RIGID_MOTOR_DAMPING)
                .motor_max_force(motor.max_torque);
        }
        (None, None) => {}
    }
    let mut joint_data: GenericJoint = hinge.into();
    let frame = |body: &BodySpec| Pose::new(vector(body.local_point(joint.anchor)), -body.angle);
    joint_data.local_frame1 = frame(&spec.bodies[joint.body_a]);
    joint_data.local_frame2 = frame(&spec.bodies[joint.body_b]);
    joint_data
}

/// A spec filter in a collider's user data: category and mask (their low
/// 32 bits, all Rapier has) and group.
fn pack_filter(filter: FilterSpec) -> u128 {
    (filter.category as u32 as u128)
        | ((filter.mask as u32 as u128) << 32)
        | ((filter.group as u32 as u128) << 64)
}

/// The filter [`pack_filter`] put in a collider's user data.
fn unpack_filter(data: u128) -> FilterSpec {
    FilterSpec {
        category: data as u32 as u64,
        mask: (data >> 32) as u32 as u64,
        group: (data >> 64) as u32 as i32,
    }
}

/// Box2D's filter rule for the shapes of a non-zero group, which Rapier's
/// interaction groups cannot say: for a pair in which either collider
/// asks, it decides from both colliders' filters (their user data) and
/// rejects the pair if they must not collide.
pub struct GroupFilter;

impl PhysicsHooks for GroupFilter {
    fn filter_contact_pair(&self, context: &PairFilterContext) -> Option<SolverFlags> {
        let filter = |handle: ColliderHandle| unpack_filter(context.colliders[handle].user_data);
        filter(context.collider1)
            .should_collide(&filter(context.collider2))
            .then_some(SolverFlags::COMPUTE_RIGID_IMPULSES)
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
        Geometry::Segment { a, b } => ColliderBuilder::segment(vector(*a), vector(*b)),
    };
    let f = shape.filter;
    let builder = if f.group == 0 {
        let groups = InteractionGroups::new(
            Group::from_bits_truncate(f.category as u32),
            Group::from_bits_truncate(f.mask as u32),
            InteractionTestMode::And,
        );
        builder.collision_groups(groups)
    } else {
        builder
            .collision_groups(InteractionGroups::all())
            .active_hooks(ActiveHooks::FILTER_CONTACT_PAIRS)
    };
    builder
        .density(shape.density)
        .friction(shape.friction)
        .restitution(shape.restitution)
        .user_data(pack_filter(f))
}

impl Engine for RapierScene {
    fn name(&self) -> &'static str {
        "Rapier"
    }

    fn step(&mut self) {
        let world = &mut self.world;
        self.pool.install(|| world.step_with_events(&GroupFilter, &()));
    }

    fn body_count(&self) -> usize {
        self.world.bodies.len()
    }

    fn joint_count(&self) -> usize {
        self.world.impulse_joints.len()
    }

    fn contact_count(&self) -> usize {
        self.world
            .narrow_phase
            .contact_pairs()
            .filter(|pair| pair.has_any_active_contact())
            .count()
    }

    /// Each joint's local frames, as Rapier keeps them, placed by its
    /// bodies' poses.
    fn joint_gaps(&mut self) -> Vec<f32> {
        self.joints
            .iter()
            .map(|&h| {
                let joint = self.world.impulse_joints.get(h).expect("a live joint");
                let anchor = |body: RigidBodyHandle, frame: &Pose| {
                    let p = self.world.bodies[body]
                        .position()
                        .transform_point(frame.translation);
                    V2::new(p.x, p.y)
                };
                anchor(joint.body1(), &joint.data.local_frame1)
                    .distance(anchor(joint.body2(), &joint.data.local_frame2))
            })
            .collect()
    }

    fn centers(&mut self) -> Vec<V2> {
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

    fn angles(&mut self) -> Vec<f32> {
        self.bodies
            .iter()
            .map(|&h| self.world.bodies[h].rotation().angle())
            .collect()
    }

    fn velocity(&mut self, body: usize) -> V2 {
        let v = self.world.bodies[self.bodies[body]].linvel();
        V2::new(v.x, v.y)
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
