//! The comparison is fair only if every engine simulates the same thing:
//! these tests build each scene in all three engines and check that they
//! hold the same bodies, in the same places, with the same mass.

use tumble_bench::engines::EngineKind;
use tumble_bench::runner;
use tumble_bench::spec::{self, shape_mass, Motion, Quality, Spec, QUALITY_SCENES, SCENES, V2};

/// Centers sorted by x, then y, so engines can be compared without relying
/// on any engine's body order.
fn sorted(mut centers: Vec<V2>) -> Vec<V2> {
    centers.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    centers
}

fn expected_mass(spec: &Spec) -> f32 {
    spec.bodies
        .iter()
        .filter(|b| b.motion == Motion::Dynamic)
        .flat_map(|b| &b.shapes)
        .map(shape_mass)
        .sum()
}

#[test]
fn every_engine_builds_the_same_bodies_in_the_same_places() {
    for name in SCENES.iter().chain(&QUALITY_SCENES) {
        let spec = spec::build(name).unwrap();
        let wanted: Vec<V2> = spec.bodies.iter().map(|b| b.position).collect();
        let mut reference: Option<Vec<V2>> = None;
        for engine in EngineKind::ALL {
            let mut sim = engine.build(&spec);
            assert_eq!(
                sim.body_count(),
                spec.bodies.len(),
                "{name}: {} body count",
                engine.name()
            );
            let centers = sim.centers();
            // Every body starts where the spec puts it (a polygon's center
            // of mass is its centroid, which the spec put on the origin).
            for (i, (got, want)) in centers.iter().zip(&wanted).enumerate() {
                assert!(
                    got.distance(*want) < 1e-4,
                    "{name}: {} body {i} starts at {got:?}, not {want:?}",
                    engine.name()
                );
            }
            let centers = sorted(centers);
            match &reference {
                None => reference = Some(centers),
                Some(first) => {
                    for (a, b) in first.iter().zip(&centers) {
                        assert!(
                            a.distance(*b) < 1e-4,
                            "{name}: {} has {b:?} where Tumble has {a:?}",
                            engine.name()
                        );
                    }
                }
            }
            let mass = sim.dynamic_mass();
            let want = expected_mass(&spec);
            assert!(
                (mass - want).abs() <= 1e-4 * want,
                "{name}: {} dynamic mass {mass}, expected {want}",
                engine.name()
            );
        }
    }
}

#[test]
fn a_short_interleaved_run_reports_every_engine() {
    let spec = spec::build("tumbler").unwrap();
    let run = runner::run_scene(&spec, &EngineKind::ALL, 6, 2, 1);
    assert_eq!(run.runs.len(), 3);
    for r in &run.runs {
        assert_eq!(r.steps, 6);
        assert_eq!(r.bodies, spec.bodies.len());
        assert!(r.median_ms > 0.0 && r.min_ms <= r.median_ms, "{r:?}");
        // Six steps in, nothing has left the turning box.
        assert_eq!(r.quality, Some(0.0), "{r:?}");
    }
    assert!(run.run(EngineKind::Tumble).unwrap().memory.is_some());
}

#[test]
fn the_tile_floors_report_each_engines_slide_and_tumbles_is_flat() {
    // Every engine's slide is measured; Tumble's box, over tiles of one
    // body or a static body per tile, slides its whole way at its speed
    // without rising: the figure the scene is there for.
    for name in ["tile-floor", "tile-bodies"] {
        assert!(QUALITY_SCENES.contains(&name));
        let spec = spec::build(name).unwrap();
        let Quality::Slide { body } = spec.quality else {
            panic!("{name}: a slide scene");
        };
        assert_eq!(spec.bodies[body].motion, Motion::Dynamic);
        let run = runner::run_scene(&spec, &EngineKind::ALL, spec.steps, 10, 1);
        for r in &run.runs {
            let slide = r
                .slide
                .unwrap_or_else(|| panic!("{name}: {} has no slide", r.engine.name()));
            assert_eq!(r.quality, Some(slide.max_vertical_speed as f64));
            assert!(slide.distance > 0.0, "{name}: {} {slide:?}", r.engine.name());
        }
        let tumble = run.run(EngineKind::Tumble).unwrap().slide.unwrap();
        let flat = spec::TILE_SLIDE_SPEED * spec.steps as f32 * spec::DT;
        assert!(
            tumble.max_vertical_speed < tumble_scenes::peers::FLAT_VERTICAL_SPEED,
            "{name}: {tumble:?}"
        );
        assert!((tumble.distance - flat).abs() < 0.01 * flat, "{name}: {tumble:?}");
    }
}

#[test]
fn the_rope_bridge_reports_each_engines_crate_range() {
    // Every engine's crate is watched over the run's last 2 s: each
    // reports how far it ranged, no engine's joints let it through the
    // bridge, and Tumble's matches the range its own world gives.
    let spec = spec::build("rope-bridge").unwrap();
    assert!(QUALITY_SCENES.contains(&spec.name));
    let Quality::Settle { body, window } = spec.quality else {
        panic!("the rope bridge watches its crate settle");
    };
    assert_eq!(body, spec.bodies.len() - 1);
    let run = runner::run_scene(&spec, &EngineKind::ALL, spec.steps, 10, 1);
    for r in &run.runs {
        let range = r
            .quality
            .unwrap_or_else(|| panic!("{} has no range", r.engine.name()));
        assert!(range.is_finite() && range >= 0.0, "{}: {range}", r.engine.name());
        assert_eq!(r.joints, spec.joints.len());
    }
    let mut sim = EngineKind::Tumble.build(&spec);
    let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
    for step in 1..=spec.steps {
        sim.step();
        let y = sim.centers()[body].y;
        assert!(y > 0.0, "the crate fell through at step {step}");
        if step + window > spec.steps {
            (low, high) = (low.min(y), high.max(y));
        }
    }
    assert_eq!(
        run.run(EngineKind::Tumble).unwrap().quality,
        Some(f64::from(high - low))
    );
}
