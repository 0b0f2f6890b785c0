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
//! The rope bridge ([`crate::bench::rope_bridge`], [`settle`]): a 250 kg
//! crate dropped on a taut bridge of twenty 5 kg planks. The bridge holds
//! the crate only by its joints' give, and a give of centimetres at the
//! hinges lets a taut span sag by metres (the sag of a span `L` lengthened
//! by `d` is about `sqrt(L d / 2)`): the crate bounces on it. In a game it
//! should come to rest.
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
//! assert!(slide.max_vertical_speed < peers::FLAT_VERTICAL_SPEED && slide.distance > 7.9);
//! ```

use crate::{run_with, Metrics, Scene};
use tumble::{BodyDef, BodyId, JointDef, Polygon, ShapeDef, SolverSettings, Vec2, WeldJoint, World};

/// The fastest a body sliding over a floor of tiles may move up or down
/// and still count as sliding on a flat floor: 0.1 m/s, the speed of a
/// hop of half a millimetre (a ghost collision throws it up at metres per
/// second).
pub const FLAT_VERTICAL_SPEED: f32 = 0.1;

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

/// The starting gaps the impact is measured from: the impact then falls
/// at several places in a step.
pub const IMPACT_GAPS: [f32; 5] = [0.02, 0.05, 0.1, 0.2, 0.3];

/// Box2D v3's change of angular momentum in the same impact, as a
/// fraction, without and with restitution 0.5: the bound the peers study
/// and its test hold Tumble to.
pub const IMPACT_BOX2D: [f32; 2] = [0.0012, 0.0102];

/// A world of the impact alone, in zero gravity, with the striker `gap`
/// metres away (see [`impact`]); and the pair.
pub fn impact_world(settings: SolverSettings, restitution: f32, gap: f32) -> (World, [BodyId; 2]) {
    let mut world = crate::new_world(settings);
    world.set_gravity(Vec2::ZERO).expect("zero is a finite gravity");
    let pair = impact(&mut world, restitution, gap);
    (world, pair)
}

/// The steps after which the impact's angular momentum is measured: one
/// second.
pub const IMPACT_STEPS: u32 = 60;

/// The relative change (a fraction, signed) of the impact's angular
/// momentum about the struck box's starting center, one second after
/// starting the striker `gap` metres away; and the world then.
pub fn impact_run(settings: SolverSettings, restitution: f32, gap: f32) -> (f32, World, [BodyId; 2]) {
    let (mut world, pair) = impact_world(settings, restitution, gap);
    let about = Vec2::new(0.0, IMPACT_HEIGHT);
    let before = angular_momentum(&world, &pair, about);
    for _ in 0..IMPACT_STEPS {
        world.step(crate::DT);
    }
    let change = (angular_momentum(&world, &pair, about) - before) / before.abs();
    (change, world, pair)
}

/// The largest relative change (a fraction) of the impact's angular
/// momentum over [`IMPACT_GAPS`] (see [`impact_run`]).
pub fn impact_change(settings: SolverSettings, restitution: f32) -> f32 {
    IMPACT_GAPS
        .iter()
        .map(|&gap| impact_run(settings, restitution, gap).0.abs())
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

/// How the welded beam held: its tip's sag and speed at the end of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Beam {
    /// How far the tip moved down, metres.
    pub sag: f32,
    /// The tip's speed, m/s.
    pub speed: f32,
}

/// Steps the welded beam's `scene` `frames` times and measures its tip
/// (the last tracked box), with the run's SCENES.md metrics.
pub fn beam_hold(scene: &mut Scene, frames: u32) -> (Beam, Metrics) {
    let tip = *scene.tracked.last().expect("the beam's boxes");
    let start = scene.world.position(tip).expect("a live box");
    let metrics = run_with(scene, frames, |_| {});
    let end = scene.world.position(tip).expect("a live box");
    let speed = scene.world.linear_velocity(tip).expect("a live box").length();
    let beam = Beam {
        sag: start.y - end.y,
        speed,
    };
    (beam, metrics)
}

/// The most a body at rest may range up and down over a window and
/// still count as settled: 5 cm.
pub const SETTLED_RANGE: f32 = 0.05;

/// Steps `scene` `frames` times and measures how far its last tracked
/// body (the rope bridge's crate) ranged up and down over the last
/// `window` of them, metres, with the run's SCENES.md metrics.
pub fn settle(scene: &mut Scene, frames: u32, window: u32) -> (f32, Metrics) {
    let body = *scene.tracked.last().expect("a tracked body");
    let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
    let metrics = run_with(scene, frames, |s| {
        if s.world.step_count() + u64::from(window) > u64::from(frames) {
            let y = s.world.position(body).expect("a live body").y;
            (low, high) = (low.min(y), high.max(y));
        }
    });
    (high - low, metrics)
}

/// Steps `scene`, built from the benchmark's `spec` with every one of its
/// bodies tracked in its order (as [`crate::SceneName::RagdollBox`] is
/// from [`crate::bench::ragdoll_box`]), `frames` times, and measures the
/// largest amount any of its hinges passed its limits after the steps its
/// quality leaves unwatched ([`crate::bench::Quality::LimitViolation`]),
/// radians ([`crate::bench::limit_violation`]), with the run's SCENES.md
/// metrics.
pub fn limit_violation(scene: &mut Scene, spec: &crate::bench::Spec, frames: u32) -> (f32, Metrics) {
    let crate::bench::Quality::LimitViolation { after } = spec.quality else {
        panic!("{} does not measure its limits", spec.name);
    };
    let mut worst = 0.0f32;
    let metrics = run_with(scene, frames, |s| {
        if s.world.step_count() > u64::from(after) {
            let angles: Vec<f32> = s
                .tracked
                .iter()
                .map(|&b| s.world.angle(b).expect("a live body"))
                .collect();
            worst = worst.max(crate::bench::limit_violation(spec, &angles));
        }
    });
    (worst, metrics)
}

/// The steps the motor arm spins up for before it is measured.
pub const MOTOR_SPIN_UP: u32 = 15;

/// How the motor turned its arm: the mean speed after the spin-up and the
/// widest its hinge opened then.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Turn {
    /// Mean turning speed, rad/s.
    pub speed: f32,
    /// The largest distance between the hinge's two anchors, metres.
    pub widest_gap: f32,
}

/// Steps the motor arm's `scene` `frames` times (at least one past
/// [`MOTOR_SPIN_UP`]) and measures its turn after the spin-up, with the
/// run's SCENES.md metrics.
pub fn motor_turn(scene: &mut Scene, frames: u32) -> (Turn, Metrics) {
    let joint = scene.world.joints().next().expect("the motor's hinge");
    let frames = frames.max(MOTOR_SPIN_UP + 1);
    let (mut last, mut turned, mut widest_gap) = (0.0f32, 0.0f32, 0.0f32);
    let metrics = run_with(scene, frames, |s| {
        let angle = s.world.joint_angle(joint).expect("a live hinge");
        if s.world.step_count() > u64::from(MOTOR_SPIN_UP) {
            // (The angle is kept in (-pi, pi]: the turn is the change
            // brought into that range.)
            let pi = std::f32::consts::PI;
            turned += (angle - last + pi).rem_euclid(2.0 * pi) - pi;
            widest_gap = widest_gap.max(s.world.joint_length(joint).expect("a live hinge"));
        }
        last = angle;
    });
    let speed = turned / ((frames - MOTOR_SPIN_UP) as f32 * crate::DT);
    (Turn { speed, widest_gap }, metrics)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{build, SceneName};

    /// An off-center impact in zero gravity, from each of
    /// [`IMPACT_GAPS`]: nothing outside acts on the pair, so its momentum
    /// stays what it was (to rounding) and its angular momentum changes
    /// by no more than Box2D v3's does in the same impact: a contact that
    /// catches the pair a whole step before the faces meet pushes at
    /// where they will meet, not at where the step began them.
    #[test]
    fn an_off_center_impact_keeps_the_pairs_momentum_and_angular_momentum() {
        for (restitution, most) in [(0.0f32, IMPACT_BOX2D[0]), (0.5, IMPACT_BOX2D[1])] {
            for gap in IMPACT_GAPS {
                let (change, world, [striker, struck]) =
                    impact_run(SolverSettings::default(), restitution, gap);
                let p = world.linear_velocity(striker).unwrap() + world.linear_velocity(struck).unwrap();
                assert!((p - Vec2::new(IMPACT_SPEED, 0.0)).length() < 1e-4, "momentum {p}");
                assert!(
                    world.angular_velocity(struck).unwrap().abs() > 0.1,
                    "the impact turned nothing"
                );
                assert!(
                    change.abs() <= most,
                    "restitution {restitution}, gap {gap}: angular momentum changed {:.3}%",
                    100.0 * change
                );
            }
        }
    }

    /// Ten 1 m boxes welded rigidly end to end into a 10 m cantilever:
    /// rigid welds make one rigid beam, so after 3 s its tip has sagged
    /// under 5 cm and the beam is at rest (its tip slower than 1 cm/s).
    /// Solved one weld at a time, the load's torque at the wall (over a
    /// hundred times a box's weight times its width) is passed along the
    /// beam a box a pass, and the beam droops most of a metre and swings.
    #[test]
    fn ten_boxes_welded_into_a_cantilever_hold_it_straight_and_still() {
        let mut scene = build(SceneName::WeldedBeam, SolverSettings::default());
        let (beam, _) = beam_hold(&mut scene, 180);
        assert!(beam.sag < 0.05, "the tip sagged {} m", beam.sag);
        assert!(beam.speed < 0.01, "the tip still moves at {} m/s", beam.speed);
    }

    /// The rope bridge's crate falls freely until it lands: over the
    /// last 10 of its first 20 steps it ranges by what the substeps'
    /// constant acceleration gives, `g h^2 k (k + 1) / 2` after `k`
    /// substeps of `h`.
    #[test]
    fn settle_ranges_a_falling_body_by_its_fall() {
        let settings = SolverSettings::default();
        let mut scene = build(SceneName::RopeBridge, settings);
        let (range, _) = settle(&mut scene, 20, 10);
        let h = f64::from(crate::DT) / f64::from(settings.substeps);
        let fallen = |steps: u32| {
            let k = f64::from(steps * settings.substeps);
            10.0 * h * h * k * (k + 1.0) / 2.0
        };
        let expected = fallen(20) - fallen(11);
        assert!(
            (f64::from(range) - expected).abs() < 1e-4,
            "ranged {range} m, free fall {expected} m"
        );
    }

    /// A crate of fifty planks' mass dropped 3 m on the rope bridge: the
    /// bridge carries it (it stays over the span and well above the
    /// ground) and every hinge holds within 10 cm while it bounces.
    #[test]
    fn the_rope_bridge_carries_a_crate_fifty_times_a_plank() {
        let mut scene = build(SceneName::RopeBridge, SolverSettings::default());
        let crate_body = *scene.tracked.last().unwrap();
        let mut widest = 0.0f32;
        let mut lowest = f32::INFINITY;
        crate::run_with(&mut scene, crate::bench::BRIDGE_STEPS, |s| {
            for j in s.world.joints() {
                widest = widest.max(s.world.joint_length(j).unwrap());
            }
            let at = s.world.position(crate_body).unwrap();
            assert!(at.x.abs() < 1.0, "the crate left the middle: {at}");
            lowest = lowest.min(at.y);
        });
        assert!(widest < 0.1, "a hinge opened {widest} m");
        assert!(
            lowest > 0.5 * crate::bench::BRIDGE_HEIGHT,
            "the crate sank to {lowest} m"
        );
    }

    /// The crate dropped on the rope bridge comes to rest within 5 s: over
    /// the last 2 it moves up and down less than [`SETTLED_RANGE`] (a
    /// bridge held by its joints' give alone bounces it by metres).
    #[test]
    fn the_crate_dropped_on_the_rope_bridge_comes_to_rest() {
        let mut scene = build(SceneName::RopeBridge, SolverSettings::default());
        let (range, _) = settle(
            &mut scene,
            crate::bench::BRIDGE_STEPS,
            crate::bench::BRIDGE_WINDOW,
        );
        assert!(range < SETTLED_RANGE, "the crate ranged {range} m");
    }

    /// A hinge motor turning a 1 kg point-like bob on a 1 m arm at 2 rad/s
    /// through a full turn under gravity, with twice the torque the load
    /// needs: the arm turns at the motor's speed (mean error under 1%) and
    /// the hinge stays shut (under 1 mm) all the way round. The bob's spin
    /// and its swing about the hinge are one motion: solving the motor and
    /// the hinge's point one after the other lags the motor by several
    /// percent.
    #[test]
    fn a_hinge_motor_under_load_turns_at_its_speed_and_the_hinge_holds() {
        let mut scene = build(SceneName::MotorArm, SolverSettings::default());
        let turn_steps = (2.0 * std::f32::consts::PI / MOTOR_SPEED / crate::DT).round() as u32;
        let (turn, _) = motor_turn(&mut scene, MOTOR_SPIN_UP + turn_steps);
        assert!(
            (turn.speed / MOTOR_SPEED - 1.0).abs() < 0.01,
            "mean speed {} against {MOTOR_SPEED}",
            turn.speed
        );
        assert!(turn.widest_gap < 1e-3, "the hinge opened {} m", turn.widest_gap);
    }
}
