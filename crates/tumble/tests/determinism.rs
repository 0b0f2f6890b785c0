//! Determinism: the same scene stepped twice gives bit-identical bodies,
//! and the same bits as when the value below was recorded.

mod common;

use common::{run, world_hash};
use tumble::{Vec2, World};

/// The hash of the test scene after 600 steps (FNV-1a over every body's
/// transform bits; see `common::world_hash`), recorded on x86-64 Linux.
///
/// When a change alters the simulation on purpose (a solver or collision
/// change), the test fails and prints the new value: paste it here and give
/// the reason in the commit message. A change that was not meant to alter
/// the simulation must leave it alone.
const EXPECTED_HASH: u64 = 0xc5bd3f3d173fefd6;

#[test]
fn pile_with_removals_is_bit_identical_run_to_run_and_to_the_record() {
    let first = run(600);
    let second = run(600);
    let (a, b) = (world_hash(&first), world_hash(&second));
    assert_eq!(a, b, "two runs in one process differ: {a:#018x} vs {b:#018x}");
    assert_eq!(first.step_count(), 600);
    // Five cycles of removing every fourth dynamic body and dropping in
    // five more: 40 -> 30 -> 35 -> 26 -> 31 -> 23 -> 28 -> 21 -> 26 -> 19
    // -> 24, plus the floor and the two walls.
    assert_eq!(first.body_count(), 27);
    for body in first.bodies() {
        let p = first.position(body).unwrap();
        assert!(
            p.is_finite() && p.x.abs() < 7.0 && p.y > -1.5 && p.y < 20.0,
            "{body:?} escaped to {p}"
        );
    }
    assert!(first.frozen_bodies().is_empty());
    assert_eq!(
        a, EXPECTED_HASH,
        "the simulation changed: if that was meant, set EXPECTED_HASH = {a:#018x} in \
         crates/tumble/tests/determinism.rs and say why in the commit message"
    );
}

/// The hash of the sleeping scene (`common::run_sleeping`) after
/// `common::SLEEPING_STEPS` steps, recorded on x86-64 Linux like [`EXPECTED_HASH`].
const EXPECTED_SLEEPING_HASH: u64 = 0xe0d44713688f6c45;

#[test]
fn a_pile_that_sleeps_wakes_and_sleeps_again_is_bit_identical_and_matches_the_record() {
    use common::{advance_sleeping, run_sleeping, KICK_STEP, SLEEPING_STEPS};
    let mut world = run_sleeping(0);
    let pile = world.body_count() - 4; // less the floor, two walls and the lone box
    let lone = world.bodies().last().expect("the lone box");
    let mut awake = Vec::new();
    let mut lone_woke = false;
    for _ in 0..SLEEPING_STEPS {
        advance_sleeping(&mut world);
        awake.push(world.awake_body_count());
        lone_woke |= world.step_count() > KICK_STEP && world.is_awake(lone).expect("live body");
    }
    let at = |step: u64| awake[step as usize - 1];
    assert_eq!(at(KICK_STEP), 0, "everything asleep before the kick");
    // The kicked body's island: the pieces it rests on and against (a
    // piece lying apart from the rest sleeps on until something lands
    // near it), never the lone box outside the pit.
    assert!(
        (2..=pile).contains(&at(KICK_STEP + 1)),
        "the kick woke {} bodies of a pile of {pile}",
        at(KICK_STEP + 1)
    );
    assert!(!lone_woke, "the lone box woke after the kick");
    assert_eq!(at(SLEEPING_STEPS as u64), 0, "and the pile fell asleep again");
    let again = run_sleeping(SLEEPING_STEPS);
    let (a, b) = (world_hash(&world), world_hash(&again));
    assert_eq!(a, b, "two runs in one process differ: {a:#018x} vs {b:#018x}");
    assert_eq!(
        a, EXPECTED_SLEEPING_HASH,
        "the simulation changed: if that was meant, set EXPECTED_SLEEPING_HASH = {a:#018x} in \
         crates/tumble/tests/determinism.rs and say why in the commit message"
    );
}

/// A world without sleeping, stepping on `workers` threads with `solver`,
/// its ground a static box `half_width` wide each way whose top is y = 0.5.
fn world_on(workers: usize, solver: tumble::SolverSettings, half_width: f32) -> World {
    use tumble::{BodyDef, Polygon, ShapeDef, WorldSettings};
    let mut world = World::new(WorldSettings {
        sleeping: false,
        workers,
        solver,
        ..WorldSettings::default()
    });
    assert_eq!(
        world.worker_threads(),
        if cfg!(feature = "parallel") { workers } else { 1 }
    );
    let ground = world.create_body(&BodyDef::static_body()).unwrap();
    let floor = Polygon::new_box(half_width, 0.5).unwrap();
    world.create_shape(ground, floor, &ShapeDef::default()).unwrap();
    world
}

/// A pyramid of `rows` rows of 1 m boxes, 5 cm apart, its bottom row's
/// centers at height `y`: each box with its row and column.
fn pyramid(world: &mut World, rows: u32, y: f32) -> Vec<(tumble::BodyId, u32, u32)> {
    use tumble::{BodyDef, Polygon, ShapeDef};
    let block = Polygon::new_box(0.5, 0.5).unwrap();
    let mut boxes = Vec::new();
    for row in 0..rows {
        for col in 0..rows - row {
            let x = (col as f32 - (rows - 1 - row) as f32 * 0.5) * 1.05;
            let at = Vec2::new(x, y + row as f32);
            let body = world.create_body(&BodyDef::dynamic().at(at)).unwrap();
            world.create_shape(body, block, &ShapeDef::default()).unwrap();
            boxes.push((body, row, col));
        }
    }
    boxes
}

/// A scene big enough for every parallel loop of the step to split: a
/// 40-row pyramid of boxes (820 bodies, about 2400 contacts) with boxes
/// and circles raining onto it, bodies removed now and then, stepped
/// `steps` times on `workers` threads with the given solver settings.
fn rain_on_pyramid(workers: usize, solver: tumble::SolverSettings, steps: u32) -> World {
    use tumble::{BodyDef, Circle, Polygon, ShapeDef};
    let mut world = world_on(workers, solver, 40.0);
    pyramid(&mut world, 40, 1.0);
    for step in 0..steps {
        if step % 20 == 0 {
            let k = step / 20;
            let x = 30.0 * (common::noise(k) - 0.5);
            let body = world
                .create_body(&BodyDef::dynamic().at(Vec2::new(x, 45.0)))
                .unwrap();
            if k % 2 == 0 {
                world
                    .create_shape(body, Polygon::new_box(0.7, 0.3).unwrap(), &ShapeDef::default())
                    .unwrap();
            } else {
                let ball = Circle::new(Vec2::ZERO, 0.6).unwrap();
                world.create_shape(body, ball, &ShapeDef::default()).unwrap();
            }
        }
        if step % 50 == 49 {
            let doomed = world.bodies().nth(1 + (step as usize * 37) % 800).unwrap();
            world.remove_body(doomed).unwrap();
        }
        world.step(common::DT);
    }
    world
}

#[test]
fn every_worker_count_gives_the_same_bits() {
    use tumble::{Coloring, PositionCorrection, SolverSettings};
    for (coloring, position_correction) in [
        (Coloring::Bounded, PositionCorrection::SplitImpulse),
        (Coloring::Bounded, PositionCorrection::SoftStep),
        (Coloring::Ordered, PositionCorrection::SplitImpulse),
    ] {
        // Every color shared, however small: the scene's colors are
        // smaller than the default `min_shared_color`.
        let solver = SolverSettings {
            coloring,
            position_correction,
            min_shared_color: 0,
            ..SolverSettings::default()
        };
        let one = world_hash(&rain_on_pyramid(1, solver, 240));
        for workers in 2..=4 {
            let many = world_hash(&rain_on_pyramid(workers, solver, 240));
            assert_eq!(
                one, many,
                "{coloring:?}, {position_correction:?}: 1 worker gives {one:#018x}, {workers} give {many:#018x}"
            );
        }
        // Which colors are shared changes the speed only.
        let some = SolverSettings {
            min_shared_color: 100,
            ..solver
        };
        assert_eq!(one, world_hash(&rain_on_pyramid(2, some, 240)));
    }
}

/// The lane kernels give the same bits four and eight lanes wide (the
/// width only decides how many constraints of a color are solved at
/// once), on the pyramid in the rain with every position correction and
/// coloring, and on the joint scene (its hinges in lane batches);
/// switching the width in mid-run changes nothing either. On a processor
/// without AVX2 both runs are four wide.
#[test]
fn every_lane_width_gives_the_same_bits() {
    use common::{advance_joints, joint_scene};
    use tumble::{Coloring, LaneWidth, PositionCorrection, SolverSettings};
    let on_default = |lane_width| SolverSettings {
        lane_width,
        ..SolverSettings::default()
    };
    for (coloring, position_correction) in [
        (Coloring::Bounded, PositionCorrection::SplitImpulse),
        (Coloring::Bounded, PositionCorrection::SoftStep),
        (Coloring::Bounded, PositionCorrection::Baumgarte),
        (Coloring::Ordered, PositionCorrection::SplitImpulse),
    ] {
        let on = |lane_width| SolverSettings {
            coloring,
            position_correction,
            min_shared_color: 0,
            lane_width,
            ..SolverSettings::default()
        };
        for workers in [1, 2] {
            let four = world_hash(&rain_on_pyramid(workers, on(LaneWidth::Four), 240));
            let widest = world_hash(&rain_on_pyramid(workers, on(LaneWidth::Widest), 240));
            assert_eq!(
                four,
                widest,
                "{coloring:?}, {position_correction:?}, {workers} workers: four lanes give {four:#018x}, \
                 {} give {widest:#018x}",
                LaneWidth::Widest.lanes()
            );
        }
    }
    let joints = |widths: [LaneWidth; 2]| {
        let mut world = joint_scene(2);
        for step in 0..300 {
            let lane_width = widths[usize::from(step >= 150)];
            world
                .set_solver_settings(SolverSettings {
                    lane_width,
                    ..*world.solver_settings()
                })
                .unwrap();
            advance_joints(&mut world);
        }
        world_hash(&world)
    };
    // A world that grows from one box to 150 and is thinned out again
    // crosses the size a step runs wider from, both ways.
    let growing = |lane_width| {
        use tumble::{BodyDef, Polygon, ShapeDef};
        let mut world = world_on(1, on_default(lane_width), 20.0);
        let mut boxes = Vec::new();
        for step in 0..600 {
            if step < 300 && step % 2 == 0 {
                let x = ((step * 37) % 31) as f32 * 0.5 - 7.5;
                let def = BodyDef::dynamic().at(tumble::Vec2::new(x, 12.0));
                let b = world.create_body(&def).unwrap();
                world
                    .create_shape(b, Polygon::new_box(0.3, 0.3).unwrap(), &ShapeDef::default())
                    .unwrap();
                boxes.push(b);
            } else if step >= 400 && step % 2 == 0 && boxes.len() > 1 {
                world.remove_body(boxes.swap_remove(step % boxes.len())).unwrap();
            }
            world.step(common::DT);
        }
        world_hash(&world)
    };
    assert_eq!(
        growing(LaneWidth::Four),
        growing(LaneWidth::Widest),
        "a growing world"
    );
    let four = joints([LaneWidth::Four; 2]);
    assert_eq!(four, joints([LaneWidth::Widest; 2]), "the joint scene");
    assert_eq!(
        four,
        joints([LaneWidth::Four, LaneWidth::Widest]),
        "switched to the widest"
    );
    assert_eq!(
        four,
        joints([LaneWidth::Widest, LaneWidth::Four]),
        "switched to four"
    );
}

/// With workers, the step lends the broadphase's tree to another worker
/// to rebuild beside the substeps: it must come back
/// whole. After the busy scene on 1 and on 3 workers, queries over the
/// whole world and ray casts across it find the same shapes (the
/// worlds are the same bits, so any difference is the tree's).
#[test]
fn the_tree_rebuilt_beside_the_step_answers_queries_as_on_one_thread() {
    use tumble::{Aabb, QueryFilter, SolverSettings};
    let one = rain_on_pyramid(1, SolverSettings::default(), 120);
    let three = rain_on_pyramid(3, SolverSettings::default(), 120);
    assert_eq!(world_hash(&one), world_hash(&three));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let everywhere = Aabb::new(Vec2::new(-100.0, -10.0), Vec2::new(100.0, 100.0));
    one.overlap_aabb(everywhere, QueryFilter::default(), &mut a)
        .unwrap();
    three
        .overlap_aabb(everywhere, QueryFilter::default(), &mut b)
        .unwrap();
    assert_eq!(a.len(), one.shape_count(), "a shape is missing from the tree");
    assert_eq!(a, b);
    for k in 0..50 {
        let x = -25.0 + k as f32;
        let at = Aabb::new(Vec2::new(x, 0.0), Vec2::new(x + 1.5, 40.0 - x.abs()));
        one.overlap_aabb(at, QueryFilter::default(), &mut a).unwrap();
        three.overlap_aabb(at, QueryFilter::default(), &mut b).unwrap();
        assert!(!a.is_empty(), "nothing under {at:?}");
        assert_eq!(a, b, "the shapes in {at:?}");
        let (from, across) = (Vec2::new(x, 60.0), Vec2::new(0.3 * k as f32 - 7.5, -70.0));
        let (hit_one, hit_three) = (
            one.ray_cast_closest(from, across, QueryFilter::default())
                .unwrap(),
            three
                .ray_cast_closest(from, across, QueryFilter::default())
                .unwrap(),
        );
        assert!(hit_one.is_some(), "the ray from {from} missed");
        assert_eq!(hit_one, hit_three);
    }
}

/// A conveyor hook on the kinematic platforms' contacts.
struct Belt;

impl tumble::ContactHooks for Belt {
    fn pre_solve(
        &self,
        _pair: &tumble::ShapePair,
        _manifold: &tumble::collision::Manifold,
        material: &mut tumble::ContactMaterial,
    ) -> bool {
        material.tangent_speed = 0.5;
        true
    }
}

/// The solver's harder cases for the workers: a 35-row pyramid on rising
/// kinematic platforms (some with a conveyor hook and restitution), one
/// box in seven with its rotation locked, and boxes switched between
/// kinematic and dynamic as it runs. Returns the hash after `steps` steps
/// on `workers` threads.
fn platforms_and_switches(workers: usize, solver: tumble::SolverSettings, steps: u32) -> u64 {
    use tumble::{BodyDef, BodyType, MotionLocks, Polygon, ShapeDef};
    let mut world = world_on(workers, solver, 60.0);
    for i in 0..6 {
        let at = Vec2::new(-30.0 + i as f32 * 10.0, 1.5);
        let platform = world
            .create_body(&BodyDef::kinematic().at(at).with_velocity(Vec2::new(0.0, 0.1)))
            .unwrap();
        let def = ShapeDef {
            pre_solve: i % 2 == 0,
            restitution: 0.3,
            ..ShapeDef::default()
        };
        world
            .create_shape(platform, Polygon::new_box(3.0, 0.5).unwrap(), &def)
            .unwrap();
    }
    let mut boxes = Vec::new();
    for (body, row, col) in pyramid(&mut world, 35, 2.5) {
        if (row + col) % 7 == 0 {
            world.set_motion_locks(body, MotionLocks::ROTATION).unwrap();
        }
        boxes.push(body);
    }
    for step in 0..steps {
        if step % 30 == 15 {
            let b = boxes[(step as usize * 31) % boxes.len()];
            let kind = if step % 60 == 15 {
                BodyType::Kinematic
            } else {
                BodyType::Dynamic
            };
            world.set_body_type(b, kind).unwrap();
        }
        if step % 30 == 0 {
            for &b in &boxes[..40] {
                world.set_body_type(b, BodyType::Dynamic).unwrap();
            }
        }
        world.step_with_hooks(common::DT, &Belt);
    }
    world_hash(&world)
}

#[test]
fn platforms_locks_hooks_and_type_switches_give_the_same_bits_on_any_worker_count() {
    use tumble::{Coloring, PositionCorrection, SolverSettings};
    for (coloring, position_correction) in [
        (Coloring::Bounded, PositionCorrection::SoftStep),
        (Coloring::Ordered, PositionCorrection::Baumgarte),
    ] {
        let solver = SolverSettings {
            coloring,
            position_correction,
            min_shared_color: 0,
            ..SolverSettings::default()
        };
        let one = platforms_and_switches(1, solver, 200);
        for workers in [2, 3] {
            let many = platforms_and_switches(workers, solver, 200);
            assert_eq!(
                one, many,
                "{coloring:?}, {position_correction:?}, {workers} workers"
            );
        }
    }
}

/// The hash of the joint scene (`common::joint_scene`) after 300 steps
/// of `common::advance_joints`, recorded on x86-64 Linux like
/// [`EXPECTED_HASH`].
const EXPECTED_JOINT_HASH: u64 = 0xb04d74642f65bd90;

#[test]
fn joints_give_the_same_bits_on_any_worker_count_and_match_the_record() {
    use common::{advance_joints, joint_scene};
    let run = |workers: usize| {
        let mut world = joint_scene(workers);
        for _ in 0..300 {
            advance_joints(&mut world);
        }
        assert!(world.frozen_bodies().is_empty());
        // Enough for the step to go to the workers (see `World::step`).
        assert!(
            world.contact_count() >= 1024,
            "{} contacts",
            world.contact_count()
        );
        world_hash(&world)
    };
    let one = run(1);
    assert_eq!(one, run(1), "two runs in one process differ");
    for workers in 2..=4 {
        assert_eq!(one, run(workers), "{workers} workers");
    }
    assert_eq!(
        one, EXPECTED_JOINT_HASH,
        "the simulation changed: if that was meant, set EXPECTED_JOINT_HASH = {one:#018x} in \
         crates/tumble/tests/determinism.rs and say why in the commit message"
    );
}

#[test]
fn a_world_of_many_bodies_moves_them_the_same_on_any_worker_count() {
    use tumble::{BodyDef, MotionLocks, Polygon, ShapeDef};
    // Over 16 384 awake bodies: enough for the workers to share gathering
    // and moving the bodies and their proxies too, which smaller worlds do
    // on one thread. Columns of boxes, 130 wide and 130 high, settling on
    // the ground and on each other; from step 10 some hold their rotation
    // and one is frozen by a force past the float range (the gathering's
    // uncommon cases, which it sorts out after sharing).
    let run = |workers: usize| {
        let mut world = world_on(workers, tumble::SolverSettings::default(), 100.0);
        let block = Polygon::new_box(0.25, 0.25).unwrap();
        let mut bodies = Vec::new();
        for row in 0..130 {
            for col in 0..130 {
                let at = Vec2::new(-40.0 + col as f32 * 0.6, 0.76 + row as f32 * 0.51);
                let body = world.create_body(&BodyDef::dynamic().at(at)).unwrap();
                world.create_shape(body, block, &ShapeDef::default()).unwrap();
                bodies.push(body);
            }
        }
        assert!(world.body_count() > 16 * 1024);
        for step in 0..30 {
            if step == 10 {
                for &b in bodies.iter().step_by(97) {
                    world.set_motion_locks(b, MotionLocks::ROTATION).unwrap();
                    // (Which the lock takes back in the step.)
                    world.set_angular_velocity(b, 2.0).unwrap();
                }
                world.apply_torque(bodies[5000], f32::MAX).unwrap();
            }
            world.step(common::DT);
        }
        assert_eq!(world.frozen_bodies(), [bodies[5000]]);
        for &b in bodies.iter().step_by(97) {
            assert_eq!(world.angular_velocity(b).unwrap(), 0.0);
        }
        world_hash(&world)
    };
    let one = run(1);
    for workers in [2, 3] {
        assert_eq!(one, run(workers), "{workers} workers");
    }
}
