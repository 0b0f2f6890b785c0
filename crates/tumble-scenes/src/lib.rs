//! The reference scenes of `docs/SCENES.md` and the stability metrics
//! defined there, as plain functions that fill a [`World`]. The testbed, the
//! stability report, the benchmark and the tests all build their scenes
//! here, so every figure comes from the same definitions.
//!
//! ```
//! use tumble_scenes::{build, run, SceneName};
//! let mut scene = build(SceneName::Pyramid, tumble::SolverSettings::default());
//! assert_eq!(scene.tracked.len(), 21);
//! let m = run(&mut scene, 60);
//! assert!(m.standing);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bench;
pub mod game;
pub mod input;
pub mod joints;
mod metrics;
pub mod peers;
mod rng;

pub use metrics::{run, run_with, Metrics, Recorder};
pub use rng::Rng;

use std::f32::consts::PI;
use tumble::{
    BodyDef, BodyId, Capsule, Circle, Polygon, Shape, ShapeDef, SolverSettings, Vec2, World, WorldSettings,
};

/// The fixed step every scene is run at.
pub const DT: f32 = 1.0 / 60.0;

/// Friction of every shape unless a scene says otherwise.
pub const FRICTION: f32 = 0.6;

/// Half-width of the ground box: much wider than any scene.
pub const GROUND_HALF_WIDTH: f32 = 400.0;

/// The ramp's angle: 30 degrees.
pub const RAMP_ANGLE: f32 = PI / 6.0;

/// The ramp boxes' friction coefficients; tan 30 = 0.577 splits them.
pub const RAMP_FRICTIONS: [f32; 4] = [0.2, 0.4, 0.6, 0.8];

/// The bounce circles' restitutions.
pub const BOUNCE_RESTITUTIONS: [f32; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Height of the bounce circles' lowest point above the ground at the drop.
pub const BOUNCE_DROP_HEIGHT: f32 = 5.0;

/// Radius of the bounce circles.
pub const BOUNCE_RADIUS: f32 = 0.5;

/// Every reference scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SceneName {
    /// 21 boxes in 6 rows.
    Pyramid,
    /// 7 boxes stacked.
    Tower,
    /// A pyramid of N rows (default 100).
    PyramidLarge(u32),
    /// A vertical stack of N boxes (the tower, taller): for the quality
    /// study.
    Stack(u32),
    /// Planks leaning in pairs, three storeys.
    CardHouse,
    /// A heavy box between two light ones; the middle box's density.
    MassRatio(u32),
    /// Boxes of four frictions on a 30 degree ramp.
    Ramp,
    /// Circles of five restitutions dropped from 5 m.
    Bounce,
    /// 200 mixed shapes dropped into a container.
    Pile,
    /// Not in SCENES.md: five 10-row pyramids side by side, with sleeping
    /// on. Each settles and falls asleep as an island of its own; a shape
    /// thrown at one wakes that one only.
    Sleepers,
    /// Not in SCENES.md: a character on chain terrain with one-way
    /// platforms, coins (sensors), a lift and crates that flash when hit.
    Platformer,
    /// Not in SCENES.md: balls poured through a funnel and three sensor
    /// zones, each counting what enters it.
    Sensors,
    /// Not in SCENES.md: three groups of boxes that collide with their own
    /// group and the ground only.
    Filtering,
    /// Not in SCENES.md: two pendulums on hinges and a mass on a spring.
    Pendulum,
    /// Not in SCENES.md: a chain of 20 hinged links hanging at rest.
    Chain,
    /// Not in SCENES.md: Box2D's ball and chain, a ball 170 times a link's
    /// mass swinging on 30 hinged links.
    BallAndChain,
    /// Not in SCENES.md: a bridge of 160 hinged planks.
    Bridge,
    /// Not in SCENES.md: a door on a limited, sprung hinge, and balls
    /// rolled at it.
    Door,
    /// Not in SCENES.md: a scissor lift worked by a slider's motor.
    ScissorLift,
    /// Not in SCENES.md: rings of capsules on soft welds.
    SoftBodies,
    /// Not in SCENES.md: a car on wheel joints, driven by the arrow keys.
    Car,
    /// Not in SCENES.md: a welded wall whose joints break under a dropped
    /// ball.
    Breakable,
    /// Not in SCENES.md: a pile of the benchmark's ragdolls (Box2D's
    /// 11-bone human, limited, sprung hinges with friction), four columns
    /// of ten dropped on one another.
    Ragdolls,
    /// Not in SCENES.md: a box sliding without friction across a floor of
    /// 40 tiles, the tiles shapes of one static body (a tile map); see
    /// [`bench::tile_floor`] and [`peers`].
    TileFloor,
    /// Not in SCENES.md: as [`SceneName::TileFloor`], each tile a static
    /// body of its own.
    TileBodies,
    /// Not in SCENES.md: an off-center box-on-box impact in zero gravity
    /// (see [`peers::impact`]).
    Impact,
    /// Not in SCENES.md: ten boxes welded rigidly into a cantilever (see
    /// [`peers::welded_beam`]).
    WeldedBeam,
    /// Not in SCENES.md: a hinge motor turning a point-like bob on a 1 m
    /// arm under gravity (see [`peers::motor_arm`]).
    MotorArm,
    /// Not in SCENES.md: a 250 kg crate dropped on a taut bridge of 20
    /// hinged planks (see [`bench::rope_bridge`] and [`peers::settle`]).
    RopeBridge,
    /// Not in SCENES.md: 20 ragdolls dropped into a box (see
    /// [`bench::ragdoll_box`] and [`peers::limit_violation`]); every
    /// body of the benchmark's spec is tracked, in its order.
    RagdollBox,
    /// Not in SCENES.md: a ragdoll with light feet tumbling down stairs
    /// (see [`bench::ragdoll_stairs`] and [`peers::limit_violation`]);
    /// every body of the benchmark's spec is tracked, in its order.
    RagdollStairs,
}

impl SceneName {
    /// The scenes of SCENES.md, each with its default parameters.
    pub const ALL: [SceneName; 8] = [
        SceneName::Pyramid,
        SceneName::Tower,
        SceneName::PyramidLarge(100),
        SceneName::CardHouse,
        SceneName::MassRatio(100),
        SceneName::Ramp,
        SceneName::Bounce,
        SceneName::Pile,
    ];

    /// The scene's name in SCENES.md (`pyramid-large`, `mass-ratio`, ...).
    pub fn name(self) -> &'static str {
        match self {
            SceneName::Pyramid => "pyramid",
            SceneName::Tower => "tower",
            SceneName::PyramidLarge(_) => "pyramid-large",
            SceneName::Stack(_) => "stack",
            SceneName::CardHouse => "card-house",
            SceneName::MassRatio(_) => "mass-ratio",
            SceneName::Ramp => "ramp",
            SceneName::Bounce => "bounce",
            SceneName::Pile => "pile",
            SceneName::Sleepers => "sleepers",
            SceneName::Platformer => "platformer",
            SceneName::Sensors => "sensors",
            SceneName::Filtering => "filtering",
            SceneName::Pendulum => "pendulum",
            SceneName::Chain => "chain",
            SceneName::BallAndChain => "ball-and-chain",
            SceneName::Bridge => "bridge",
            SceneName::Door => "door",
            SceneName::ScissorLift => "scissor-lift",
            SceneName::SoftBodies => "soft-bodies",
            SceneName::Car => "car",
            SceneName::Breakable => "breakable",
            SceneName::Ragdolls => "ragdolls",
            SceneName::TileFloor => "tile-floor",
            SceneName::TileBodies => "tile-bodies",
            SceneName::Impact => "impact",
            SceneName::WeldedBeam => "welded-beam",
            SceneName::MotorArm => "motor-arm",
            SceneName::RopeBridge => "rope-bridge",
            SceneName::RagdollBox => "ragdoll-box",
            SceneName::RagdollStairs => "ragdoll-stairs",
        }
    }

    /// Parses a scene name, with an optional `:N` parameter
    /// (`pyramid-large:60`, `stack:30`, `mass-ratio:10`).
    pub fn parse(s: &str) -> Option<SceneName> {
        let (name, arg) = match s.split_once(':') {
            Some((n, a)) => (n, Some(a.parse::<u32>().ok()?)),
            None => (s, None),
        };
        Some(match name {
            "pyramid" => SceneName::Pyramid,
            "tower" => SceneName::Tower,
            "pyramid-large" => SceneName::PyramidLarge(arg.unwrap_or(100).clamp(1, 400)),
            "stack" => SceneName::Stack(arg.unwrap_or(30).clamp(1, 400)),
            "card-house" => SceneName::CardHouse,
            "mass-ratio" => SceneName::MassRatio(arg.unwrap_or(100).max(1)),
            "ramp" => SceneName::Ramp,
            "bounce" => SceneName::Bounce,
            "pile" => SceneName::Pile,
            "sleepers" => SceneName::Sleepers,
            "platformer" => SceneName::Platformer,
            "sensors" => SceneName::Sensors,
            "filtering" => SceneName::Filtering,
            "pendulum" => SceneName::Pendulum,
            "chain" => SceneName::Chain,
            "ball-and-chain" => SceneName::BallAndChain,
            "bridge" => SceneName::Bridge,
            "door" => SceneName::Door,
            "scissor-lift" => SceneName::ScissorLift,
            "soft-bodies" => SceneName::SoftBodies,
            "car" => SceneName::Car,
            "breakable" => SceneName::Breakable,
            "ragdolls" => SceneName::Ragdolls,
            "tile-floor" => SceneName::TileFloor,
            "tile-bodies" => SceneName::TileBodies,
            "impact" => SceneName::Impact,
            "welded-beam" => SceneName::WeldedBeam,
            "motor-arm" => SceneName::MotorArm,
            "rope-bridge" => SceneName::RopeBridge,
            "ragdoll-box" => SceneName::RagdollBox,
            "ragdoll-stairs" => SceneName::RagdollStairs,
            _ => return None,
        })
    }

    /// The frame count SCENES.md runs this scene for.
    pub fn frames(self) -> u32 {
        match self {
            SceneName::Tower => 700,
            SceneName::Ramp | SceneName::Bounce => 300,
            SceneName::Pile => 900,
            // Two swings of the slower pendulum (5.3 s each) and more.
            SceneName::Pendulum => 1200,
            SceneName::TileFloor | SceneName::TileBodies => bench::TILE_SLIDE_STEPS,
            // One second after the impact; three of the beam's load.
            SceneName::Impact => peers::IMPACT_STEPS,
            SceneName::WeldedBeam => 180,
            // A quarter second to spin up, then a full turn (pi s).
            SceneName::MotorArm => peers::MOTOR_SPIN_UP + 189,
            SceneName::RopeBridge => bench::BRIDGE_STEPS,
            SceneName::RagdollBox => bench::RAGDOLL_BOX_STEPS,
            SceneName::RagdollStairs => bench::RAGDOLL_STAIRS_STEPS,
            _ => 600,
        }
    }
}

/// A scene ready to step: the world, and the bodies the metrics follow.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Which scene.
    pub name: SceneName,
    /// The world, filled.
    pub world: World,
    /// The dynamic bodies the metrics follow, in creation order.
    pub tracked: Vec<BodyId>,
    /// Where each tracked body's center started.
    pub start: Vec<Vec2>,
    /// The top box of a tower or stack (for creep).
    pub top: Option<BodyId>,
    /// A game scene's state between steps (see [`game`]).
    pub game: Option<game::Game>,
}

/// The material of every shape unless a scene says otherwise.
pub fn default_material() -> ShapeDef {
    ShapeDef {
        density: 1.0,
        friction: FRICTION,
        restitution: 0.0,
        ..ShapeDef::default()
    }
}

/// A world with SCENES.md's common settings and the given solver settings.
/// Sleeping is off, as in the peers' figures: the metrics are about how
/// the solver settles a scene, and a body put to sleep would stop being
/// measured (the testbed turns it on with [`World::set_sleeping`]).
pub fn new_world(solver: SolverSettings) -> World {
    World::new(WorldSettings {
        gravity: Vec2::new(0.0, -10.0),
        length_units_per_meter: 1.0,
        solver,
        sleeping: false,
        ..WorldSettings::default()
    })
}

/// Adds the ground: a static box whose top face is y = 0.
pub fn add_ground(world: &mut World) -> BodyId {
    let ground = world
        .create_body(&BodyDef::static_body().at(Vec2::new(0.0, -1.0)))
        .expect("finite ground position");
    let shape = Polygon::new_box(GROUND_HALF_WIDTH, 1.0).expect("valid ground box");
    world
        .create_shape(ground, shape, &default_material())
        .expect("valid ground material");
    ground
}

fn add_body(world: &mut World, def: BodyDef, shape: impl Into<Shape>, material: &ShapeDef) -> BodyId {
    let body = world.create_body(&def).expect("scene bodies are finite");
    world
        .create_shape(body, shape, material)
        .expect("scene shapes are valid");
    body
}

fn add_box(world: &mut World, at: Vec2, half: f32, material: &ShapeDef) -> BodyId {
    let shape = Polygon::new_box(half, half).expect("valid box");
    add_body(world, BodyDef::dynamic().at(at), shape, material)
}

/// A benchmark scene's world (its own ground replacing the scenes'), at
/// `solver`, and its bodies in the spec's order.
fn bench_scene(spec: &bench::Spec, solver: SolverSettings) -> (World, Vec<BodyId>) {
    let filled = bench::build_world(spec);
    let mut world = filled.world;
    world
        .set_solver_settings(solver)
        .expect("the caller's settings are valid");
    (world, filled.bodies)
}

/// Builds a scene with the given solver settings.
pub fn build(name: SceneName, solver: SolverSettings) -> Scene {
    let mut world = new_world(solver);
    let ground = add_ground(&mut world);
    let mut top = None;
    let mut game = None;
    let tracked = match name {
        SceneName::Pyramid => pyramid(&mut world, 6),
        SceneName::PyramidLarge(rows) => pyramid(&mut world, rows),
        SceneName::Tower => {
            let t = stack(&mut world, 7);
            top = t.last().copied();
            t
        }
        SceneName::Stack(n) => {
            let t = stack(&mut world, n);
            top = t.last().copied();
            t
        }
        SceneName::CardHouse => card_house(&mut world),
        SceneName::MassRatio(ratio) => mass_ratio(&mut world, ratio as f32),
        SceneName::Ramp => ramp(&mut world),
        SceneName::Bounce => bounce(&mut world),
        SceneName::Pile => pile(&mut world, 200, 0x5eed),
        SceneName::Sleepers => sleepers(&mut world),
        SceneName::Platformer => {
            game = Some(game::platformer(&mut world));
            Vec::new()
        }
        SceneName::Sensors => {
            game = Some(game::sensors(&mut world));
            Vec::new()
        }
        SceneName::Filtering => {
            game = Some(game::filtering(&mut world));
            Vec::new()
        }
        SceneName::Pendulum => joints::pendulum(&mut world, ground),
        SceneName::Chain => joints::hanging_chain(&mut world, ground),
        SceneName::BallAndChain => joints::ball_and_chain(&mut world, ground),
        SceneName::Bridge => {
            joints::bridge(&mut world, ground);
            Vec::new()
        }
        SceneName::Door => {
            joints::door(&mut world, ground);
            Vec::new()
        }
        SceneName::SoftBodies => {
            joints::soft_bodies(&mut world);
            Vec::new()
        }
        SceneName::ScissorLift => {
            game = Some(game::scissor_lift(&mut world, ground));
            Vec::new()
        }
        SceneName::Car => {
            game = Some(game::car(&mut world, ground));
            Vec::new()
        }
        SceneName::Breakable => {
            game = Some(game::breakable(&mut world));
            Vec::new()
        }
        SceneName::Ragdolls => {
            // The benchmark's ragdolls, on the benchmark's ground (which
            // replaces this world's: the same box, with the ragdolls'
            // friction), at this scene's solver settings.
            let bodies;
            (world, bodies) = bench_scene(&bench::ragdolls_of(RAGDOLL_PILE.0, RAGDOLL_PILE.1), solver);
            bodies[1..].to_vec()
        }
        SceneName::TileFloor | SceneName::TileBodies => {
            // The benchmark's tile floor, which replaces this world's
            // ground (its long top face would hide the tiles' seams).
            let bodies;
            (world, bodies) = bench_scene(&bench::tile_floor(name == SceneName::TileFloor), solver);
            bodies.last().copied().into_iter().collect()
        }
        SceneName::Impact => {
            world.set_gravity(Vec2::ZERO).expect("zero is a finite gravity");
            peers::impact(&mut world, 0.0, 0.05).to_vec()
        }
        SceneName::WeldedBeam => peers::welded_beam(&mut world),
        SceneName::MotorArm => vec![peers::motor_arm(&mut world)],
        SceneName::RopeBridge => {
            // The benchmark's bridge, over its own ground.
            let bodies;
            (world, bodies) = bench_scene(&bench::rope_bridge(), solver);
            bodies.last().copied().into_iter().collect()
        }
        SceneName::RagdollBox | SceneName::RagdollStairs => {
            // The benchmark's scene, on its own ground (the box's) or none
            // (the stairs').
            let spec = bench::build(name.name()).expect("a benchmark scene");
            let bodies;
            (world, bodies) = bench_scene(&spec, solver);
            bodies
        }
    };
    let start = tracked
        .iter()
        .map(|&b| world.center_of_mass(b).expect("tracked bodies are alive"))
        .collect();
    Scene {
        name,
        world,
        tracked,
        start,
        top,
        game,
    }
}

/// The ragdoll pile: columns and rows of ragdolls.
pub const RAGDOLL_PILE: (u32, u32) = (4, 10);

/// Rows of each of the sleepers' pyramids.
pub const SLEEPERS_ROWS: u32 = 10;

/// How many pyramids the sleepers scene holds.
pub const SLEEPERS_COUNT: u32 = 5;

/// Distance between the sleepers' pyramid centers, metres: a gap of about
/// 3.5 m between their bases.
pub const SLEEPERS_PITCH: f32 = 14.0;

/// The sleepers: [`SLEEPERS_COUNT`] pyramids side by side, and sleeping on.
fn sleepers(world: &mut World) -> Vec<BodyId> {
    world.set_sleeping(true);
    let m = default_material();
    let mut out = Vec::new();
    for k in 0..SLEEPERS_COUNT {
        let x = (k as f32 - 0.5 * (SLEEPERS_COUNT - 1) as f32) * SLEEPERS_PITCH;
        for p in pyramid_positions(SLEEPERS_ROWS) {
            let b = world
                .create_body(&BodyDef::dynamic().at(p + Vec2::new(x, 0.0)))
                .expect("finite position");
            world
                .create_shape(b, Polygon::new_box(0.5, 0.5).expect("valid box"), &m)
                .expect("valid material");
            out.push(b);
        }
    }
    out
}

/// Box centers of a pyramid of `rows` rows of 1 m boxes: row r (0 at the
/// bottom) at y = 0.5 + r, x spacing 1.05 m, each row centered on x = 0.
pub fn pyramid_positions(rows: u32) -> Vec<Vec2> {
    pyramid_positions_spaced(rows, 1.05)
}

/// Box centers of a pyramid of `rows` rows of 1 m boxes as
/// [`pyramid_positions`], at `spacing` metres between neighbours' centers
/// in a row (1.0: side by side, touching).
pub fn pyramid_positions_spaced(rows: u32, spacing: f32) -> Vec<Vec2> {
    let mut out = Vec::with_capacity((rows * (rows + 1) / 2) as usize);
    for r in 0..rows {
        let count = rows - r;
        for i in 0..count {
            let x = (i as f32 - 0.5 * (count - 1) as f32) * spacing;
            out.push(Vec2::new(x, 0.5 + r as f32));
        }
    }
    out
}

fn pyramid(world: &mut World, rows: u32) -> Vec<BodyId> {
    let m = default_material();
    pyramid_positions(rows)
        .into_iter()
        .map(|p| add_box(world, p, 0.5, &m))
        .collect()
}

fn stack(world: &mut World, n: u32) -> Vec<BodyId> {
    let m = default_material();
    (0..n)
        .map(|i| add_box(world, Vec2::new(0.0, 0.5 + i as f32), 0.5, &m))
        .collect()
}

fn mass_ratio(world: &mut World, ratio: f32) -> Vec<BodyId> {
    let light = default_material();
    let heavy = ShapeDef {
        density: ratio,
        ..light
    };
    vec![
        add_box(world, Vec2::new(0.0, 0.5), 0.5, &light),
        add_box(world, Vec2::new(0.0, 1.5), 0.5, &heavy),
        add_box(world, Vec2::new(0.0, 2.5), 0.5, &light),
    ]
}

/// Plank size of the card house: 0.1 m thick, 2 m long.
pub const PLANK_HALF_THICKNESS: f32 = 0.05;
/// Half the plank length.
pub const PLANK_HALF_LENGTH: f32 = 1.0;
/// Lean of each plank from vertical, radians: 25 degrees.
pub const CARD_LEAN: f32 = 0.436_332_3;
/// Horizontal distance between neighbouring apexes of a storey: a flat
/// plank's length plus a 2 mm gap, so the flat planks of one level lie end
/// to end, each end on one of an apex's two top corners.
pub const CARD_PAIR_SPACING: f32 = 2.002;

fn card_house(world: &mut World) -> Vec<BodyId> {
    let m = default_material();
    let (t, l, a) = (PLANK_HALF_THICKNESS, PLANK_HALF_LENGTH, CARD_LEAN);
    let (sa, ca) = a.sin_cos();
    let plank = Polygon::new_box(t, l).expect("valid plank");
    let flat = Polygon::new_box(l, t).expect("valid plank");
    // A plank turned by -a (top leaning right): its lowest corner is at
    // (t sin a + l cos a) below its center, its rightmost point
    // (t cos a + l sin a) right of it, its highest point
    // (t sin a + l cos a) above it.
    let half_height = t * sa + l * ca;
    let half_width = t * ca + l * sa;
    let storey_height = 2.0 * half_height;
    let mut bodies = Vec::new();
    let mut base = 0.0;
    for storey in 0..3 {
        let pairs = 3 - storey;
        for k in 0..pairs {
            let apex = (k as f32 - 0.5 * (pairs - 1) as f32) * CARD_PAIR_SPACING;
            let y = base + half_height;
            let left = BodyDef::dynamic()
                .at(Vec2::new(apex - half_width, y))
                .with_angle(-a);
            let right = BodyDef::dynamic()
                .at(Vec2::new(apex + half_width, y))
                .with_angle(a);
            bodies.push(add_body(world, left, plank, &m));
            bodies.push(add_body(world, right, plank, &m));
        }
        base += storey_height;
        // Flat planks bridging neighbouring apexes carry the next storey.
        if storey < 2 {
            for k in 0..pairs - 1 {
                let x = (k as f32 + 0.5 - 0.5 * (pairs - 1) as f32) * CARD_PAIR_SPACING;
                let def = BodyDef::dynamic().at(Vec2::new(x, base + t));
                bodies.push(add_body(world, def, flat, &m));
            }
            base += 2.0 * t;
        }
    }
    bodies
}

/// Length of each ramp box's ramp, metres.
pub const RAMP_LENGTH: f32 = 50.0;
/// How far apart (in x) the four ramps' lower ends stand.
pub const RAMP_SPACING: f32 = 46.0;

/// Start position, along the ramp from its lower end, of each ramp box.
pub const RAMP_START: f32 = 46.0;

fn ramp(world: &mut World) -> Vec<BodyId> {
    // Each box gets its own ramp of the same friction, so the mixed
    // friction sqrt(mu * mu) is the box's own coefficient.
    let (s, c) = RAMP_ANGLE.sin_cos();
    let along = Vec2::new(c, s);
    let up = Vec2::new(-s, c);
    let mut bodies = Vec::new();
    for (k, &mu) in RAMP_FRICTIONS.iter().enumerate() {
        let material = ShapeDef {
            friction: mu,
            ..default_material()
        };
        // The ramp: a slab whose top face passes through `foot` at the
        // lower end and rises at 30 degrees.
        let foot = Vec2::new((k as f32 - 2.0) * RAMP_SPACING, 0.0);
        let half_thickness = 0.5;
        let ramp_center = foot + along * (0.5 * RAMP_LENGTH) - up * half_thickness;
        let ramp = world
            .create_body(&BodyDef::static_body().at(ramp_center).with_angle(RAMP_ANGLE))
            .expect("finite ramp");
        world
            .create_shape(
                ramp,
                Polygon::new_box(0.5 * RAMP_LENGTH, half_thickness).expect("valid ramp"),
                &material,
            )
            .expect("valid ramp material");
        let box_center = foot + along * RAMP_START + up * 0.5;
        let def = BodyDef::dynamic().at(box_center).with_angle(RAMP_ANGLE);
        bodies.push(add_body(
            world,
            def,
            Polygon::new_box(0.5, 0.5).expect("valid box"),
            &material,
        ));
    }
    bodies
}

/// The distance a box slides down a 30 degree ramp of friction `mu` in
/// `t` seconds, by Coulomb's law (zero when static friction holds it).
pub fn ramp_analytic_distance(mu: f32, t: f32) -> f32 {
    let (s, c) = RAMP_ANGLE.sin_cos();
    let a = 10.0 * (s - mu * c);
    if a <= 0.0 {
        0.0
    } else {
        0.5 * a * t * t
    }
}

fn bounce(world: &mut World) -> Vec<BodyId> {
    BOUNCE_RESTITUTIONS
        .iter()
        .enumerate()
        .map(|(k, &e)| {
            let material = ShapeDef {
                restitution: e,
                ..default_material()
            };
            let at = Vec2::new(k as f32 * 2.0 - 4.0, BOUNCE_DROP_HEIGHT + BOUNCE_RADIUS);
            add_body(
                world,
                BodyDef::dynamic().at(at),
                Circle::new(Vec2::ZERO, BOUNCE_RADIUS).expect("valid circle"),
                &material,
            )
        })
        .collect()
}

/// Half-width of the pile's container, metres.
pub const PILE_HALF_WIDTH: f32 = 8.0;

/// Adds the pile's container walls (the ground is its floor).
pub fn add_pile_walls(world: &mut World) {
    let m = default_material();
    for side in [-1.0f32, 1.0] {
        let wall = world
            .create_body(&BodyDef::static_body().at(Vec2::new(side * (PILE_HALF_WIDTH + 0.5), 10.0)))
            .expect("finite wall");
        world
            .create_shape(wall, Polygon::new_box(0.5, 10.0).expect("valid wall"), &m)
            .expect("valid wall material");
    }
}

/// A random shape about 0.3 to 0.6 m across: a box, a random convex
/// polygon, a circle or a capsule.
pub fn random_shape(rng: &mut Rng) -> Shape {
    loop {
        let kind = rng.below(4);
        let size = rng.range(0.15, 0.3);
        let shape: Option<Shape> = match kind {
            0 => Polygon::new_box(size, rng.range(0.15, 0.3)).ok().map(Shape::from),
            1 => {
                let n = 3 + rng.below(6) as usize;
                let pts: Vec<Vec2> = (0..n)
                    .map(|i| {
                        let a = (i as f32 + rng.range(-0.3, 0.3)) / n as f32 * std::f32::consts::TAU;
                        let r = size * rng.range(0.7, 1.3);
                        Vec2::new(a.cos(), a.sin()) * r
                    })
                    .collect();
                Polygon::new(&pts).ok().map(Shape::from)
            }
            2 => Circle::new(Vec2::ZERO, size).ok().map(Shape::from),
            _ => {
                let h = rng.range(0.1, 0.3);
                Capsule::new(Vec2::new(-h, 0.0), Vec2::new(h, 0.0), 0.6 * size)
                    .ok()
                    .map(Shape::from)
            }
        };
        if let Some(s) = shape {
            return s;
        }
    }
}

fn pile(world: &mut World, count: u32, seed: u64) -> Vec<BodyId> {
    add_pile_walls(world);
    let mut rng = Rng::new(seed);
    let m = default_material();
    let per_row = 20;
    (0..count)
        .map(|i| {
            let row = i / per_row;
            let col = i % per_row;
            let x = (col as f32 - 0.5 * (per_row - 1) as f32) * 0.75 + rng.range(-0.05, 0.05);
            let y = 1.0 + row as f32 * 0.8;
            let def = BodyDef::dynamic()
                .at(Vec2::new(x, y))
                .with_angle(rng.range(0.0, PI));
            add_body(world, def, random_shape(&mut rng), &m)
        })
        .collect()
}

#[cfg(test)]
mod tests;
