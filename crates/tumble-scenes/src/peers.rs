//! Quality beyond the peers: scenes where Box2D v3 and Rapier, each at its
//! defaults, do visibly worse than a game needs, and the figures that show
//! it. The stability report's `peers` study runs them; the benchmark
//! (`tumble-bench`) runs the same scenes in all three engines.
//!
//! The tile floor ([`crate::bench::tile_floor`]): a box slid
//! without friction across 40 static 1 m boxes side by side. On one long
//! box it would slide on at its starting speed and never rise. On the
//! tiles, a narrowphase that takes each tile for a box of its own meets
//! the tiles' inner sides at every seam (a ghost collision): the box is
//! thrown up and stopped within a few metres.
//!
//! The off-center impact ([`impact`]): two boxes meeting off center in
//! zero gravity keep their angular momentum only if each contact impulse
//! acts where the two surfaces meet.
//!
//! The welded beam ([`welded_beam`]): ten boxes welded rigidly into a
//! cantilever are one rigid beam; solved one weld at a time, its load's
//! torque at the wall passes along it a box a pass, and it droops and
//! swings.
//!
//! ```
//! use tumble_scenes::{build, peers, SceneName};
//! let mut scene = build(SceneName::TileFloor, tumble::SolverSettings::default());
//! let (slide, _) = peers::slide(&mut scene, 60);
//! assert!(slide.max_vertical_speed < 0.1 && slide.distance > 7.9);
//! ```

use crate::{run_with, Metrics, Scene};
use tumble::{BodyDef, BodyId, JointDef, Polygon, ShapeDef, SolverSettings, Vec2, WeldJoint, World};

/// How a body slid across a surface that ought to be flat (see
/// [`crate::bench::Quality::Slide`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Slide {
    /// The fastest the body moved up or down at the end of any step, m/s.
    pub max_vertical_speed: f32,
    /// How far its center of mass moved along x, metres.
    pub distance: f32,
}

/// Steps `scene` `frames` times at [`crate::DT`] and measures how its
/// first tracked body slid, with the run's SCENES.md metrics.
pub fn slide(scene: &mut Scene, frames: u32) -> (Slide, Metrics) {
    let body = scene.tracked[0];
    let start = scene.world.center_of_mass(body).expect("a live sliding body");
    let mut max_vertical_speed = 0.0f32;
    let metrics = run_with(scene, frames, |s| {
        let v = s.world.linear_velocity(body).expect("a live sliding body");
        max_vertical_speed = max_vertical_speed.max(v.y.abs());
    });
    let end = scene.world.center_of_mass(body).expect("a live sliding body");
    let slide = Slide {
        max_vertical_speed,
        distance: end.x - start.x,
    };
    (slide, metrics)
}

/// The off-center impact's striking speed, m/s.
pub const IMPACT_SPEED: f32 = 5.0;
/// How far off the struck box's center line the striker runs, metres.
pub const IMPACT_OFFSET: f32 = 0.4;
/// The height the impact happens at, clear of the scenes' ground.
pub const IMPACT_HEIGHT: f32 = 10.0;

/// An off-center impact (run in zero gravity): a 1 m box at
/// [`IMPACT_SPEED`] along x strikes a resting 1 m box, its path
/// [`IMPACT_OFFSET`] above the struck box's center, friction 0.6 and
/// restitution `restitution`, from `gap` metres away. Returns the striker
/// and the struck box. Nothing outside acts on the pair: its angular
/// momentum about any fixed point must keep its value, and a contact that
/// pushes at points the step has left behind changes it.
pub fn impact(world: &mut World, restitution: f32, gap: f32) -> [BodyId; 2] {
    let def = ShapeDef {
        friction: 0.6,
        restitution,
        ..ShapeDef::default()
    };
    let mut unit_box = |at: Vec2| {
        let b = world
            .create_body(&BodyDef::dynamic().at(at))
            .expect("a finite place");
        let square = Polygon::new_box(0.5, 0.5).expect("a box");
        world.create_shape(b, square, &def).expect("a valid material");
        b
    };
    let striker = unit_box(Vec2::new(-1.0 - gap, IMPACT_HEIGHT + IMPACT_OFFSET));
    let struck = unit_box(Vec2::new(0.0, IMPACT_HEIGHT));
    world
        .set_linear_velocity(striker, Vec2::new(IMPACT_SPEED, 0.0))
        .expect("a finite speed");
    [striker, struck]
}

/// The angular momentum of `bodies` about `point`.
pub fn angular_momentum(world: &World, bodies: &[BodyId], point: Vec2) -> f32 {
    bodies
        .iter()
        .map(|&b| {
            let md = world.mass_data(b).expect("a live body");
            let c = world.center_of_mass(b).expect("a live body") - point;
            let v = world.linear_velocity(b).expect("a live body");
            md.mass * (c.x * v.y - c.y * v.x) + md.inertia * world.angular_velocity(b).expect("a live body")
        })
        .sum()
}

/// The largest relative change (a fraction) of the impact's angular
/// momentum about the struck box's starting center, one second after
/// starting the striker `gap` metres away, over `gaps`: the impact then
/// falls at several places in a step.
pub fn impact_change(settings: SolverSettings, restitution: f32, gaps: &[f32]) -> f32 {
    gaps.iter()
        .map(|&gap| {
            let mut world = crate::new_world(settings);
            world.set_gravity(Vec2::ZERO).expect("zero is a finite gravity");
            let pair = impact(&mut world, restitution, gap);
            let about = Vec2::new(0.0, IMPACT_HEIGHT);
            let before = angular_momentum(&world, &pair, about);
            for _ in 0..60 {
                world.step(crate::DT);
            }
            ((angular_momentum(&world, &pair, about) - before) / before).abs()
        })
        .fold(0.0, f32::max)
}

/// The welded beam's boxes.
pub const BEAM_BOXES: usize = 10;
/// The height of the welded beam's axis above the ground, metres.
pub const BEAM_HEIGHT: f32 = 5.0;

/// Ten 1 m boxes welded rigidly end to end into a 10 m horizontal
/// cantilever from a wall at x = 0, at [`BEAM_HEIGHT`]. Rigid welds make
/// one rigid beam: it should hold straight and still. Returns the boxes,
/// the wall's first.
pub fn welded_beam(world: &mut World) -> Vec<BodyId> {
    let wall = world
        .create_body(&BodyDef::static_body().at(Vec2::new(-0.5, BEAM_HEIGHT)))
        .expect("a finite place");
    let square = Polygon::new_box(0.5, 0.5).expect("a box");
    world
        .create_shape(wall, square, &ShapeDef::default())
        .expect("a valid material");
    let mut prev = wall;
    let mut boxes = Vec::with_capacity(BEAM_BOXES);
    for k in 0..BEAM_BOXES {
        let x = 0.5 + k as f32;
        let b = world
            .create_body(&BodyDef::dynamic().at(Vec2::new(x, BEAM_HEIGHT)))
            .expect("a finite place");
        world
            .create_shape(b, square, &ShapeDef::default())
            .expect("a valid material");
        let def = JointDef::new(prev, b, WeldJoint::rigid())
            .at(world, Vec2::new(x - 0.5, BEAM_HEIGHT))
            .expect("a finite anchor");
        world.create_joint(&def).expect("a weld between two bodies");
        boxes.push(b);
        prev = b;
    }
    boxes
}

/// The motor's speed in the motor-under-load scene, rad/s.
pub const MOTOR_SPEED: f32 = 2.0;

/// A hinge motor turning a 1 kg point-like bob (a disc of 5 cm radius)
/// on a 1 m arm about a fixed point, at [`MOTOR_SPEED`], with twice the
/// torque its weight needs at the horizontal (20 N m), starting level.
/// Returns the bob. A rigid arm turns at the motor's speed all the way
/// round with its hinge shut; solved one row at a time, the motor's spin
/// and the point's hold undo each other, and the motor lags.
pub fn motor_arm(world: &mut World) -> BodyId {
    let pivot = Vec2::new(0.0, BEAM_HEIGHT);
    let fixed = world
        .create_body(&BodyDef::static_body().at(pivot))
        .expect("a finite place");
    let bob = world
        .create_body(&BodyDef::dynamic().at(pivot + Vec2::new(1.0, 0.0)))
        .expect("a finite place");
    world
        .create_shape(
            bob,
            tumble::Circle::new(Vec2::ZERO, 0.05).expect("a disc"),
            &ShapeDef::default(),
        )
        .expect("a valid material");
    let point_like = tumble::MassData {
        mass: 1.0,
        center: Vec2::ZERO,
        inertia: 0.5 * 0.05 * 0.05,
    };
    world.set_mass_data(bob, point_like).expect("a valid mass");
    let torque = 2.0 * 1.0 * 10.0 * 1.0;
    let hinge = tumble::RevoluteJoint::default().with_motor(MOTOR_SPEED, torque);
    let def = JointDef::new(fixed, bob, hinge)
        .at(world, pivot)
        .expect("a finite anchor");
    world.create_joint(&def).expect("a hinge between two bodies");
    bob
}
