//! Tumble at its default solver settings. It has no sleeping yet, so every
//! body is simulated every step, as in the two peers with sleeping off.

use super::{Engine, Memory};
use crate::spec::{BodySpec, Geometry, Motion, ShapeSpec, Spec, DT, V2};
use tumble::{
    BodyDef, BodyId, Capsule, Circle, Polygon, Shape, ShapeDef, SolverSettings, Vec2, World, WorldSettings,
};

/// What the output says about how Tumble runs.
pub fn settings() -> String {
    let s = SolverSettings::default();
    format!(
        "Tumble {} defaults: {} velocity iterations, warm starting {}, {:?} position correction, \
         {:?} sweep, 1 thread, no sleeping",
        env!("CARGO_PKG_VERSION"),
        s.iterations,
        if s.warm_starting { "on" } else { "off" },
        s.position_correction,
        s.sweep
    )
}

/// A scene in a Tumble world.
pub struct TumbleScene {
    world: World,
    bodies: Vec<BodyId>,
}

fn vec2(v: V2) -> Vec2 {
    Vec2::new(v.x, v.y)
}

impl TumbleScene {
    /// Builds the spec in a new Tumble world.
    pub fn new(spec: &Spec) -> TumbleScene {
        let mut world = World::new(WorldSettings {
            gravity: vec2(spec.gravity),
            ..WorldSettings::default()
        });
        let bodies = spec.bodies.iter().map(|b| add_body(&mut world, b)).collect();
        TumbleScene { world, bodies }
    }
}

fn add_body(world: &mut World, spec: &BodySpec) -> BodyId {
    let def = match spec.motion {
        Motion::Static => BodyDef::fixed(),
        Motion::Kinematic => BodyDef::kinematic(),
        Motion::Dynamic => BodyDef::dynamic(),
    };
    let def = BodyDef {
        angular_velocity: spec.angular_velocity,
        ..def
            .at(vec2(spec.position))
            .with_angle(spec.angle)
            .with_velocity(vec2(spec.linear_velocity))
    };
    let id = world.create_body(&def).expect("finite body definition");
    for shape in &spec.shapes {
        let material = ShapeDef {
            density: shape.density,
            friction: shape.friction,
            restitution: shape.restitution,
            user_data: 0,
        };
        world
            .add_shape(id, geometry(shape), &material)
            .expect("valid shape");
    }
    id
}

fn geometry(shape: &ShapeSpec) -> Shape {
    match &shape.geometry {
        Geometry::Box { half, center, angle } => {
            Polygon::new_offset_box(half.x, half.y, vec2(*center), *angle)
                .expect("valid box")
                .into()
        }
        Geometry::Circle { radius } => Circle::new(Vec2::ZERO, *radius).expect("valid circle").into(),
        Geometry::Capsule { half_length, radius } => Capsule::new(
            Vec2::new(-half_length, 0.0),
            Vec2::new(*half_length, 0.0),
            *radius,
        )
        .expect("valid capsule")
        .into(),
        Geometry::Polygon { points } => {
            let points: Vec<Vec2> = points.iter().map(|&p| vec2(p)).collect();
            Polygon::new(&points).expect("valid convex polygon").into()
        }
    }
}

impl Engine for TumbleScene {
    fn name(&self) -> &'static str {
        "Tumble"
    }

    fn step(&mut self) {
        self.world.step(DT);
    }

    fn body_count(&self) -> usize {
        self.world.body_count()
    }

    fn centres(&mut self) -> Vec<V2> {
        self.bodies
            .iter()
            .map(|&id| {
                let dynamic = self.world.body_type(id) == Ok(tumble::BodyType::Dynamic);
                let p = if dynamic {
                    self.world.center_of_mass(id)
                } else {
                    self.world.position(id)
                }
                .expect("a live body");
                V2::new(p.x, p.y)
            })
            .collect()
    }

    fn dynamic_mass(&mut self) -> f32 {
        self.bodies
            .iter()
            .filter(|&&id| self.world.body_type(id) == Ok(tumble::BodyType::Dynamic))
            .map(|&id| self.world.mass_data(id).expect("a live body").mass)
            .sum()
    }

    fn memory(&self) -> Option<Memory> {
        Some(Memory::Estimated(crate::memory::footprint(&self.world)))
    }
}
