//! The sleep scene's protocol, on a small pyramid: every engine falls
//! asleep with sleeping on, never with it off, and is awake after waking.

use tumble_bench::engines::EngineKind;
use tumble_bench::sleep;
use tumble_bench::spec::{pyramid_of, Spec};

fn small(sleeping: bool) -> Spec {
    Spec {
        sleeping,
        ..pyramid_of(8)
    }
}

#[test]
fn every_engine_sleeps_the_pyramid_and_wakes_it() {
    let runs = sleep::run(&small(true), &EngineKind::ALL, 10, 1);
    assert_eq!(runs.len(), 3);
    for r in &runs {
        let at = r
            .asleep_at_step
            .unwrap_or_else(|| panic!("{} never slept", r.engine.name()));
        // Asleep after at least the half second of rest, well within 10 s.
        assert!(
            (30..600).contains(&at),
            "{}: asleep at step {at}",
            r.engine.name()
        );
        assert!(r.ms_asleep.is_some() && r.ms_after_wake.is_some());
    }
    for engine in EngineKind::ALL {
        let mut sim = engine.build(&small(true));
        for _ in 0..600 {
            sim.step();
        }
        assert_eq!(sim.awake_count(), 0, "{} asleep", engine.name());
        sim.wake_all();
        assert_eq!(sim.awake_count(), 36, "{}: every box woken", engine.name());
    }
}

#[test]
fn with_sleeping_off_no_engine_sleeps() {
    for engine in EngineKind::ALL {
        let mut sim = engine.build(&small(false));
        for _ in 0..300 {
            sim.step();
        }
        assert_eq!(sim.awake_count(), 36, "{}", engine.name());
    }
}
