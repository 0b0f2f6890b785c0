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
const EXPECTED_HASH: u64 = 0x55ac_f125_d8ed_77d5;

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

/// The hash of the sleeping scene (`common::run_sleeping`) after 900
/// steps, recorded on x86-64 Linux like [`EXPECTED_HASH`].
const EXPECTED_SLEEPING_HASH: u64 = 0xbd76_c79e_a31e_1fcb;

#[test]
fn a_pile_that_sleeps_wakes_and_sleeps_again_is_bit_identical_and_matches_the_record() {
    use common::{advance_sleeping, run_sleeping, KICK_STEP};
    let mut world = run_sleeping(0);
    let pile = world.body_count() - 4; // less the floor, two walls and the lone box
    let mut awake = Vec::new();
    for _ in 0..900 {
        advance_sleeping(&mut world);
        awake.push(world.awake_body_count());
    }
    let at = |step: u64| awake[step as usize - 1];
    assert_eq!(at(KICK_STEP), 0, "everything asleep before the kick");
    assert_eq!(
        at(KICK_STEP + 1),
        pile,
        "the kick woke the pile, not the lone box"
    );
    assert_eq!(at(900), 0, "and the pile fell asleep again");
    let again = run_sleeping(900);
    let (a, b) = (world_hash(&world), world_hash(&again));
    assert_eq!(a, b, "two runs in one process differ: {a:#018x} vs {b:#018x}");
    assert_eq!(
        a, EXPECTED_SLEEPING_HASH,
        "the simulation changed: if that was meant, set EXPECTED_SLEEPING_HASH = {a:#018x} in \
         crates/tumble/tests/determinism.rs and say why in the commit message"
    );
}

/// A scene big enough for every parallel loop of the step to split: a
/// 40-row pyramid of boxes (820 bodies, about 2400 contacts) with boxes
/// and circles raining onto it, bodies removed now and then, stepped
/// `steps` times on `workers` threads with the given solver settings.
fn rain_on_pyramid(workers: usize, solver: tumble::SolverSettings, steps: u32) -> World {
    use tumble::{BodyDef, Circle, Polygon, ShapeDef, WorldSettings};
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
    let ground = world.create_body(&BodyDef::fixed()).unwrap();
    let floor = Polygon::new_box(40.0, 0.5).unwrap();
    world.add_shape(ground, floor, &ShapeDef::default()).unwrap();
    let block = Polygon::new_box(0.5, 0.5).unwrap();
    for row in 0..40 {
        for col in 0..40 - row {
            let x = (col as f32 - (39 - row) as f32 * 0.5) * 1.05;
            let body = world
                .create_body(&BodyDef::dynamic().at(Vec2::new(x, 1.0 + row as f32 * 1.0)))
                .unwrap();
            world.add_shape(body, block, &ShapeDef::default()).unwrap();
        }
    }
    for step in 0..steps {
        if step % 20 == 0 {
            let k = step / 20;
            let x = 30.0 * (common::noise(k) - 0.5);
            let body = world
                .create_body(&BodyDef::dynamic().at(Vec2::new(x, 45.0)))
                .unwrap();
            if k % 2 == 0 {
                world
                    .add_shape(body, Polygon::new_box(0.7, 0.3).unwrap(), &ShapeDef::default())
                    .unwrap();
            } else {
                let ball = Circle::new(Vec2::ZERO, 0.6).unwrap();
                world.add_shape(body, ball, &ShapeDef::default()).unwrap();
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
        let solver = SolverSettings {
            coloring,
            position_correction,
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
    }
}
