//! Determinism: the same scene stepped twice gives bit-identical bodies,
//! and the same bits as when the value below was recorded.

mod common;

use common::{run, world_hash};

/// The hash of the test scene after 600 steps (FNV-1a over every body's
/// transform bits; see `common::world_hash`), recorded on x86-64 Linux.
///
/// When a change alters the simulation on purpose (a solver or collision
/// change), the test fails and prints the new value: paste it here and give
/// the reason in the commit message. A change that was not meant to alter
/// the simulation must leave it alone.
const EXPECTED_HASH: u64 = 0x9060_1c29_6942_d7d8;

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
const EXPECTED_SLEEPING_HASH: u64 = 0x655b_53d0_14a6_8da7;

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
