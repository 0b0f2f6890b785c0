//! The joint scenes are fair only if every engine builds the same joints
//! and filters: these tests build them in all three engines and check the
//! joint counts, that every joint's anchors start together and stay
//! together over a short run, and that the filters keep apart what they
//! should (and only because of the filter).

use tumble_bench::engines::EngineKind;
use tumble_bench::runner;
use tumble_bench::spec::{self, BodySpec, FilterSpec, Motion, Quality, Spec, V2};

/// The largest of a list of gaps.
fn largest(gaps: &[f32]) -> f32 {
    gaps.iter().copied().fold(0.0, f32::max)
}

#[test]
fn every_engine_builds_the_same_joints_with_their_anchors_together() {
    // The grid's joints to the left and upper neighbours, less the six
    // between its seven fixed circles.
    let grid_joints = 2 * 100 * 99 - 6;
    for (name, bodies, joints) in [("joint-grid", 10_000, grid_joints), ("ragdolls", 11_001, 10_000)] {
        let spec = spec::build(name).unwrap();
        assert_eq!((spec.bodies.len(), spec.joints.len()), (bodies, joints), "{name}");
        for engine in EngineKind::ALL {
            let mut sim = engine.build(&spec);
            let who = format!("{name} in {}", engine.name());
            assert_eq!(sim.body_count(), bodies, "{who}: bodies");
            assert_eq!(sim.joint_count(), joints, "{who}: joints");
            let gaps = sim.joint_gaps();
            assert_eq!(gaps.len(), joints, "{who}: one gap per spec joint");
            // Each joint's two frames were put on the same world point.
            assert!(
                largest(&gaps) < 1e-5,
                "{who}: a joint starts {} m apart",
                largest(&gaps)
            );
        }
    }
}

#[test]
fn a_short_run_keeps_every_joint_together_in_every_engine() {
    // A 20 x 20 grid (Box2D's debug size) for a second: the net drops and
    // swings from its fixed middle, the top joints holding the rest.
    let grid = spec::joint_grid_of(20);
    let run = runner::run_scene(&grid, &EngineKind::ALL, 60, 10, 1);
    for r in &run.runs {
        let gaps = r
            .joint_gaps
            .unwrap_or_else(|| panic!("{}: no joint gaps", r.engine.name()));
        assert_eq!(r.joints, grid.joints.len());
        assert!(
            gaps.mean < 0.01 && gaps.max < 0.05,
            "{}: {gaps:?}",
            r.engine.name()
        );
        assert_eq!(r.quality, Some(gaps.max), "the quality figure is the largest gap");
    }
    // Twenty ragdolls for two seconds: they land on the ground and on each
    // other, the joints under their limits, friction and springs.
    let heap = spec::ragdolls_of(5, 4);
    for engine in EngineKind::ALL {
        let mut sim = engine.build(&heap);
        for _ in 0..120 {
            sim.step();
        }
        let gaps = sim.joint_gaps();
        let who = engine.name();
        assert!(
            largest(&gaps) < 0.05,
            "{who}: a ragdoll joint {} m apart",
            largest(&gaps)
        );
        assert!(sim.contact_count() > 0, "{who}: the ragdolls are on the ground");
        // Every bone is above the floor, and none is still in the air
        // where the top row started (2 s of fall is 20 m).
        let heights: Vec<f32> = sim.centers()[1..].iter().map(|p| p.y).collect();
        assert!(heights.iter().all(|&y| y > 0.0), "{who}: a bone under the ground");
        assert!(heights.iter().all(|&y| y < 3.0), "{who}: a bone still high up");
    }
    let run = runner::run_scene(&heap, &EngineKind::ALL, 120, 10, 1);
    for r in &run.runs {
        assert!(matches!(run.quality, Quality::EscapedBox { .. }));
        assert_eq!(
            r.quality,
            Some(0.0),
            "{}: no bone fell through the floor",
            r.engine.name()
        );
        assert_eq!(r.joint_gaps, None, "the ragdolls' quality is the floor");
    }
}

/// `spec` with every shape's filter replaced by the default one.
fn unfiltered(spec: &Spec) -> Spec {
    let mut spec = spec.clone();
    for shape in spec.bodies.iter_mut().flat_map(|b| &mut b.shapes) {
        shape.filter = FilterSpec::default();
    }
    spec
}

/// The contacts each engine holds after `steps` steps of `spec`.
fn contacts_after(spec: &Spec, steps: u32) -> Vec<(EngineKind, usize)> {
    EngineKind::ALL
        .into_iter()
        .map(|engine| {
            let mut sim = engine.build(spec);
            for _ in 0..steps {
                sim.step();
            }
            (engine, sim.contact_count())
        })
        .collect()
}

/// Five free circles of the joint grid's shape (its filter too), 0.5 m
/// apart, so each overlaps its neighbours; no gravity.
fn overlapping_grid_circles() -> Spec {
    let grid = spec::joint_grid_of(20);
    let circle = grid.bodies[1].clone();
    Spec {
        gravity: V2::ZERO,
        bodies: (0..5)
            .map(|i| BodySpec {
                position: V2::new(0.5 * i as f32, 0.0),
                ..circle.clone()
            })
            .collect(),
        joints: Vec::new(),
        quality: Quality::None,
        ..grid
    }
}

#[test]
fn the_grid_circles_never_collide_in_any_engine() {
    let grid = spec::joint_grid_of(20);
    for (engine, contacts) in contacts_after(&grid, 60) {
        assert_eq!(contacts, 0, "{}: the circles collide with nothing", engine.name());
    }
    // The hanging net's circles barely come near each other, so the zero
    // above says little alone: circles of its filter laid on top of each
    // other make no contacts either, and would with the default filter.
    let overlapping = overlapping_grid_circles();
    for (engine, contacts) in contacts_after(&overlapping, 10) {
        assert_eq!(contacts, 0, "{}: overlapping grid circles collide", engine.name());
    }
    for (engine, contacts) in contacts_after(&unfiltered(&overlapping), 1) {
        assert!(contacts > 0, "{}: no contacts even unfiltered", engine.name());
    }
}

#[test]
fn a_ragdolls_bones_never_collide_with_each_other_in_any_engine() {
    // One ragdoll in the air: its legs start on top of each other, and so
    // do its arms, so only its negative group keeps them apart. In Rapier
    // that takes the group filter hook.
    let (bodies, joints) = spec::ragdoll(V2::new(0.0, 10.0), 0, 0);
    assert!(bodies.iter().all(|b| b.motion == Motion::Dynamic));
    let alone = Spec {
        name: "ragdoll",
        steps: 30,
        gravity: V2::new(0.0, -10.0),
        bodies,
        joints,
        quality: Quality::None,
        sleeping: false,
    };
    for (engine, contacts) in contacts_after(&alone, 30) {
        assert_eq!(contacts, 0, "{}: two bones of one ragdoll collide", engine.name());
    }
    for (engine, contacts) in contacts_after(&unfiltered(&alone), 2) {
        assert!(
            contacts > 0,
            "{}: the ungrouped legs do not collide",
            engine.name()
        );
    }
}

/// The hinge of [`hinged_bar`], at the origin.
const HINGE: V2 = V2::ZERO;
/// The bar's starting angle, radians: not the fixed body's (-0.4), so an
/// engine that measured the joint angle from the bodies' angles rather
/// than from the starting pose would be off by 1.1 rad.
const BAR_ANGLE: f32 = 0.7;

/// A 1 m bar hinged at one end to a fixed body, pointing up and to the
/// right at [`BAR_ANGLE`], with the hinge `joint` makes of a free one.
fn hinged_bar(gravity: V2, joint: impl Fn(spec::JointSpec) -> spec::JointSpec) -> Spec {
    let fixed = BodySpec {
        angle: -0.4,
        ..BodySpec::new(
            Motion::Static,
            HINGE,
            spec::ShapeSpec::new(spec::Geometry::Circle { radius: 0.1 }),
        )
    };
    let bar = BodySpec {
        angle: BAR_ANGLE,
        ..BodySpec::new(
            Motion::Dynamic,
            bar_center(BAR_ANGLE),
            spec::ShapeSpec::square_box(0.5, 0.05),
        )
    };
    Spec {
        name: "hinged-bar",
        steps: 120,
        gravity,
        bodies: vec![fixed, bar],
        joints: vec![joint(spec::JointSpec::revolute(0, 1, HINGE))],
        quality: Quality::None,
        sleeping: false,
    }
}

/// Where the bar's center is when the bar is at `angle`.
fn bar_center(angle: f32) -> V2 {
    HINGE + V2::new(0.5, 0.0).rotated(angle)
}

/// Where each engine has the bar's center after `steps` steps of `spec`.
fn bar_centers_after(spec: &Spec, steps: u32) -> Vec<(EngineKind, V2)> {
    EngineKind::ALL
        .into_iter()
        .map(|engine| {
            let mut sim = engine.build(spec);
            for _ in 0..steps {
                sim.step();
            }
            (engine, sim.centers()[1])
        })
        .collect()
}

#[test]
fn limits_springs_and_friction_act_alike_in_every_engine() {
    let gravity = V2::new(0.0, -10.0);
    let start = bar_center(BAR_ANGLE);
    // Free, the bar swings down.
    let free = bar_centers_after(&hinged_bar(gravity, |j| j), 60);
    for &(engine, at) in &free {
        assert!(
            at.distance(start) > 0.3,
            "{}: the free bar stayed at {at:?}",
            engine.name()
        );
    }
    // Limits of +-0.02 rad about the starting pose hold it where it is.
    for (engine, at) in bar_centers_after(&hinged_bar(gravity, |j| j.with_limits(-0.02, 0.02)), 60) {
        assert!(
            at.distance(start) < 0.02,
            "{}: the limited bar moved to {at:?}",
            engine.name()
        );
    }
    // Friction far above gravity's 0.5 N m brakes it. Tumble's and
    // Box2D's motors hold it; Rapier's velocity motor lets it creep (0.14
    // rad in the second here, however stiff the motor), still a small part
    // of the free swing.
    let braked = bar_centers_after(&hinged_bar(gravity, |j| j.with_friction(50.0)), 60);
    for (&(engine, at), &(_, swung)) in braked.iter().zip(&free) {
        let (moved, free_moved) = (at.distance(start), swung.distance(start));
        match engine {
            EngineKind::Rapier => assert!(
                moved < 0.2 * free_moved,
                "Rapier: braked {moved} m, free {free_moved} m"
            ),
            _ => assert!(moved < 0.02, "{}: the braked bar moved to {at:?}", engine.name()),
        }
    }
    // Without gravity, a critically damped spring turns it to its target,
    // 0.3 rad counter-clockwise of the start.
    let sprung = hinged_bar(V2::ZERO, |j| j.with_spring(2.0, 1.0, 0.3));
    let target = bar_center(BAR_ANGLE + 0.3);
    for (engine, at) in bar_centers_after(&sprung, 120) {
        assert!(
            at.distance(target) < 0.01,
            "{}: the sprung bar is at {at:?}, its target {target:?}",
            engine.name()
        );
    }
}
