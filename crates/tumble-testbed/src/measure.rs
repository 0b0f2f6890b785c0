//! `tumble measure`: the stability report of SCENES.md.
//!
//! Four studies: warm starting x iterations on the pyramid; split impulses
//! vs Baumgarte vs none on the tower; forward vs alternating sweep on the
//! tower; and a quality study at the default settings (how large a pyramid
//! and how tall a stack still stand, mass ratios, the ramp's Coulomb split,
//! bounce heights under restitution). A fifth, beside SCENES.md's four,
//! sets contact recycling on against off on the large pyramids, so what the
//! speed costs or gains in standing is on the record. Beside those, the
//! other solvers on the stacking scenes, the joints against closed forms,
//! and `peers`: qualities Box2D and Rapier fall short on (see
//! `tumble_scenes::peers`), starting with a box slid over a floor of tiles.

use serde_json::{json, Value};
use tumble::{Coloring, PositionCorrection, SolverSettings, Sweep};
use tumble_scenes::{
    bench, build, peers as beyond, ramp_analytic_distance, run, Metrics, Recorder, SceneName,
    BOUNCE_DROP_HEIGHT, BOUNCE_RADIUS, BOUNCE_RESTITUTIONS, DT, RAMP_FRICTIONS,
};

/// Which studies to run and for how long.
#[derive(Clone, Debug, Default)]
pub struct MeasureOptions {
    /// Only rows on this scene (by SCENES.md name).
    pub scene: Option<String>,
    /// Frames per run instead of each scene's SCENES.md count.
    pub frames: Option<u32>,
}

/// One row of the report.
#[derive(Clone, Debug)]
pub struct Row {
    /// Study name: `warm-starting`, `position-correction`, `sweep`,
    /// `quality`, `recycling`, `solvers`, `joints`, `peers`.
    pub study: &'static str,
    /// The scene.
    pub scene: SceneName,
    /// Solver settings of the run.
    pub settings: SolverSettings,
    /// The metrics.
    pub metrics: Metrics,
    /// Quality rows: what the row measures (`rows 60`, `friction 0.4`, ...).
    pub case: Option<String>,
    /// Quality rows: the figure measured beyond the common metrics
    /// (slide distance, rebound height) and what physics predicts for it.
    pub measured: Option<f32>,
    /// What physics predicts for `measured`.
    pub expected: Option<f32>,
    /// Quality rows: whether the case passed its criterion.
    pub pass: Option<bool>,
}

impl Row {
    fn new(study: &'static str, scene: SceneName, settings: SolverSettings, metrics: Metrics) -> Row {
        Row {
            study,
            scene,
            settings,
            metrics,
            case: None,
            measured: None,
            expected: None,
            pass: None,
        }
    }

    /// The row as SCENES.md's JSON object (every field, `null` where it does
    /// not apply).
    pub fn to_json(&self) -> Value {
        let m = &self.metrics;
        json!({
            "study": self.study,
            "scene": self.scene.name(),
            "warm_starting": self.settings.warm_starting,
            "iterations": self.settings.iterations,
            "position_correction": self.settings.position_correction.name(),
            "sweep": self.settings.sweep.name(),
            "coloring": self.settings.coloring.name(),
            "contact_recycling": self.settings.contact_recycling,
            "frames": m.frames,
            "residual_slide": m.residual_slide,
            "mean_overlap": m.mean_overlap,
            "worst_moved": m.worst_moved,
            "spread": m.spread,
            "sink": m.sink,
            "creep": m.creep,
            "standing": m.standing,
            "case": self.case,
            "measured": self.measured,
            "expected": self.expected,
            "pass": self.pass,
        })
    }
}

fn wanted(opts: &MeasureOptions, scene: SceneName) -> bool {
    opts.scene.as_deref().is_none_or(|s| s == scene.name())
}

fn frames(opts: &MeasureOptions, scene: SceneName) -> u32 {
    opts.frames.unwrap_or(scene.frames())
}

fn measure_one(
    opts: &MeasureOptions,
    study: &'static str,
    scene: SceneName,
    settings: SolverSettings,
) -> Row {
    let mut s = build(scene, settings);
    let metrics = run(&mut s, frames(opts, scene));
    Row::new(study, scene, settings, metrics)
}

/// Study 1: warm starting off with 4 and 8 iterations, on with 8 and 14.
pub fn warm_starting(opts: &MeasureOptions) -> Vec<Row> {
    if !wanted(opts, SceneName::Pyramid) {
        return Vec::new();
    }
    [(false, 4), (false, 8), (true, 8), (true, 14)]
        .into_iter()
        .map(|(warm, iterations)| {
            let settings = SolverSettings {
                warm_starting: warm,
                iterations,
                ..SolverSettings::default()
            };
            measure_one(opts, "warm-starting", SceneName::Pyramid, settings)
        })
        .collect()
}

/// Study 2: the tower under each position-correction scheme.
pub fn position_correction(opts: &MeasureOptions) -> Vec<Row> {
    if !wanted(opts, SceneName::Tower) {
        return Vec::new();
    }
    [
        PositionCorrection::SplitImpulse,
        PositionCorrection::Baumgarte,
        PositionCorrection::None,
        PositionCorrection::SoftStep,
    ]
    .into_iter()
    .map(|pc| {
        let settings = SolverSettings {
            position_correction: pc,
            ..SolverSettings::default()
        };
        measure_one(opts, "position-correction", SceneName::Tower, settings)
    })
    .collect()
}

/// Study 3: forward-only vs alternating sweep on the tower, with split
/// impulses (as `docs/SCENES.md` defines it).
pub fn sweep(opts: &MeasureOptions) -> Vec<Row> {
    if !wanted(opts, SceneName::Tower) {
        return Vec::new();
    }
    [Sweep::Forward, Sweep::Alternating]
        .into_iter()
        .map(|sweep| {
            let settings = SolverSettings {
                sweep,
                position_correction: PositionCorrection::SplitImpulse,
                ..SolverSettings::default()
            };
            measure_one(opts, "sweep", SceneName::Tower, settings)
        })
        .collect()
}

/// Largest pyramid rows tried by the quality study.
pub const PYRAMID_ROWS: [u32; 5] = [20, 40, 60, 80, 100];
/// Stack heights tried by the quality study.
pub const STACK_HEIGHTS: [u32; 4] = [10, 20, 30, 40];
/// Mass ratios tried by the quality study.
pub const MASS_RATIOS: [u32; 3] = [10, 30, 100];
/// The most a mass-ratio stack's boxes may move (m): a centimetre, where
/// the soft contacts alone let a light box sink 4.5 cm under a hundred
/// times its mass.
pub const MASS_RATIO_WORST_MOVED: f32 = 0.01;

/// Study 4: quality at the default settings.
pub fn quality(opts: &MeasureOptions) -> Vec<Row> {
    quality_rows(opts, "quality", SolverSettings::default())
}

/// The solvers the solver study sets beside the default (the soft step
/// with the bounded coloring): split impulses with the order-preserving
/// coloring (the default until the soft step threaded), split impulses
/// with the bounded coloring, and the soft step with the ordered one.
pub const OTHER_SOLVERS: [(PositionCorrection, Coloring); 3] = [
    (PositionCorrection::SplitImpulse, Coloring::Ordered),
    (PositionCorrection::SplitImpulse, Coloring::Bounded),
    (PositionCorrection::SoftStep, Coloring::Ordered),
];

/// Study 6: the stacking scenes of the quality study (large pyramids,
/// stacks, mass ratios) under each of [`OTHER_SOLVERS`], defaults
/// otherwise.
pub fn solvers(opts: &MeasureOptions) -> Vec<Row> {
    let mut rows = Vec::new();
    for (position_correction, coloring) in OTHER_SOLVERS {
        let settings = SolverSettings {
            position_correction,
            coloring,
            ..SolverSettings::default()
        };
        let stacking = |r: &Row| !matches!(r.scene, SceneName::Ramp | SceneName::Bounce);
        for mut row in quality_rows(opts, "solvers", settings)
            .into_iter()
            .filter(stacking)
        {
            let case = row.case.take().unwrap_or_default();
            row.case = Some(format!(
                "{}, {}: {case}",
                position_correction.name(),
                coloring.name()
            ));
            rows.push(row);
        }
    }
    rows
}

/// The quality study's rows, under `settings`, named `study`.
fn quality_rows(opts: &MeasureOptions, study: &'static str, settings: SolverSettings) -> Vec<Row> {
    let mut rows = Vec::new();
    if wanted(opts, SceneName::PyramidLarge(0)) {
        for n in PYRAMID_ROWS {
            let mut row = measure_one(opts, study, SceneName::PyramidLarge(n), settings);
            row.case = Some(format!("rows {n}"));
            row.pass = Some(row.metrics.standing);
            rows.push(row);
        }
    }
    if wanted(opts, SceneName::Stack(0)) || wanted(opts, SceneName::Tower) {
        for n in STACK_HEIGHTS {
            let scene = SceneName::Stack(n);
            let mut s = build(scene, settings);
            let metrics = run(&mut s, opts.frames.unwrap_or(600));
            let mut row = Row::new(study, scene, settings, metrics);
            row.case = Some(format!("height {n}"));
            row.pass = Some(row.metrics.standing);
            rows.push(row);
        }
    }
    if wanted(opts, SceneName::MassRatio(0)) {
        for ratio in MASS_RATIOS {
            let mut row = measure_one(opts, study, SceneName::MassRatio(ratio), settings);
            row.case = Some(format!("ratio {ratio}"));
            row.measured = Some(row.metrics.worst_moved);
            row.expected = Some(MASS_RATIO_WORST_MOVED);
            row.pass = Some(row.metrics.standing && row.metrics.worst_moved <= MASS_RATIO_WORST_MOVED);
            rows.push(row);
        }
    }
    if wanted(opts, SceneName::Ramp) {
        let scene = SceneName::Ramp;
        let n = frames(opts, scene);
        let mut s = build(scene, settings);
        let metrics = run(&mut s, n);
        let t = n as f32 * DT;
        for (k, &mu) in RAMP_FRICTIONS.iter().enumerate() {
            let b = s.tracked[k];
            let moved = (s.world.center_of_mass(b).expect("alive") - s.start[k]).length();
            let analytic = ramp_analytic_distance(mu, t);
            let slid = moved > 0.01;
            let mut row = Row::new(study, scene, settings, metrics);
            row.case = Some(format!("friction {mu}"));
            row.measured = Some(moved);
            row.expected = Some(analytic);
            row.pass =
                Some(slid == (analytic > 0.0) && (!slid || (moved - analytic).abs() <= 0.02 * analytic));
            rows.push(row);
        }
    }
    if wanted(opts, SceneName::Bounce) {
        let scene = SceneName::Bounce;
        let n = frames(opts, scene);
        let mut s = build(scene, settings);
        let heights = first_rebound_heights(&mut s, n);
        let mut rec = Recorder::default();
        rec.record(&s);
        let metrics = rec.metrics(&s);
        for (k, &e) in BOUNCE_RESTITUTIONS.iter().enumerate() {
            let expected = e * e * BOUNCE_DROP_HEIGHT;
            let mut row = Row::new(study, scene, settings, metrics);
            row.case = Some(format!("restitution {e}"));
            row.measured = Some(heights[k]);
            row.expected = Some(expected);
            row.pass = Some(if e >= 0.25 {
                (heights[k] - expected).abs() <= 0.05 * expected
            } else {
                heights[k] < 0.05
            });
            rows.push(row);
        }
    }
    rows
}

/// Steps the bounce scene and returns each circle's first rebound height:
/// the highest its lowest point rises above the ground after its first
/// bounce (zero if it never leaves the ground).
pub fn first_rebound_heights(scene: &mut tumble_scenes::Scene, frames: u32) -> Vec<f32> {
    #[derive(Clone, Copy, PartialEq)]
    enum Phase {
        Falling,
        Rising,
        Done,
    }
    let n = scene.tracked.len();
    let mut phase = vec![Phase::Falling; n];
    let mut apex = vec![0.0f32; n];
    for _ in 0..frames {
        scene.world.step(DT);
        for k in 0..n {
            let b = scene.tracked[k];
            let v = scene.world.linear_velocity(b).expect("alive");
            let y = scene.world.center_of_mass(b).expect("alive").y - BOUNCE_RADIUS;
            match phase[k] {
                Phase::Falling if v.y > 0.0 => {
                    phase[k] = Phase::Rising;
                    apex[k] = y;
                }
                Phase::Rising => {
                    apex[k] = apex[k].max(y);
                    if v.y <= 0.0 {
                        phase[k] = Phase::Done;
                    }
                }
                _ => {}
            }
        }
    }
    apex
}

/// Runs the studies selected by `opts`.
pub fn all_studies(opts: &MeasureOptions) -> Vec<Row> {
    let mut rows = warm_starting(opts);
    rows.extend(position_correction(opts));
    rows.extend(sweep(opts));
    rows.extend(quality(opts));
    rows.extend(recycling(opts));
    rows.extend(solvers(opts));
    rows.extend(joints(opts));
    rows.extend(peers(opts));
    rows
}

pub use tumble_scenes::peers::FLAT_VERTICAL_SPEED;

/// Study 8: qualities the peers fall short on, at the default settings
/// (see `tumble_scenes::peers`). The tile floor, its tiles shapes of
/// one static body (`tile-floor`) and static bodies of their own
/// (`tile-bodies`): how fast the box sliding over it moved up or down
/// (flat: under [`FLAT_VERTICAL_SPEED`]) and how far it slid (flat: its
/// speed for the scene's time, to 1%). The off-center impact: the
/// largest change of the pair's angular momentum over its starting gaps,
/// at most Box2D's (`tumble_scenes::peers::IMPACT_BOX2D`). The welded beam: its tip's sag and
/// speed after 3 s (straight: under 5 cm; still: under 1 cm/s). The
/// motor arm: its mean speed over a turn (within 1% of the motor's) and
/// the widest its hinge opened (under 1 mm). The rope bridge: how far
/// its crate ranges up and down over the last 2 s of 5 (at rest: under
/// 5 cm). The ragdoll box: the largest amount any hinge passes its limits
/// after the first steps (under [`LIMIT_TARGET_DEG`]); the ragdoll on the
/// stairs the same (under [`FOOT_LIMIT_TARGET_DEG`]).
pub fn peers(opts: &MeasureOptions) -> Vec<Row> {
    let settings = SolverSettings::default();
    // One row of `scene`: what `case` measured, what physics expects,
    // whether it passes.
    let row = |scene: SceneName, case: String, (measured, expected, pass): (f32, f32, bool), metrics| Row {
        case: Some(case),
        measured: Some(measured),
        expected: Some(expected),
        pass: Some(pass),
        ..Row::new("peers", scene, settings, metrics)
    };
    let mut rows = Vec::new();
    for scene in [SceneName::TileFloor, SceneName::TileBodies] {
        if !wanted(opts, scene) {
            continue;
        }
        let n = frames(opts, scene);
        let mut s = build(scene, settings);
        let (slide, metrics) = beyond::slide(&mut s, n);
        let tiles = match scene {
            SceneName::TileFloor => "tiles of one body",
            _ => "a static body per tile",
        };
        let vertical = slide.max_vertical_speed;
        rows.push(row(
            scene,
            format!("{tiles}: fastest vertical speed (m/s)"),
            (vertical, 0.0, vertical < FLAT_VERTICAL_SPEED),
            metrics,
        ));
        let flat = bench::TILE_SLIDE_SPEED * n as f32 * DT;
        let slid = slide.distance;
        rows.push(row(
            scene,
            format!("{tiles}: distance slid (m)"),
            (slid, flat, (slid - flat).abs() <= 0.01 * flat),
            metrics,
        ));
    }
    if wanted(opts, SceneName::Impact) {
        let mut s = build(SceneName::Impact, settings);
        let metrics = run(&mut s, frames(opts, SceneName::Impact));
        for (restitution, box2d) in [(0.0f32, beyond::IMPACT_BOX2D[0]), (0.5, beyond::IMPACT_BOX2D[1])] {
            let change = beyond::impact_change(settings, restitution);
            rows.push(row(
                SceneName::Impact,
                format!("restitution {restitution}: largest change of angular momentum (%)"),
                (100.0 * change, 0.0, change <= box2d),
                metrics,
            ));
        }
    }
    if wanted(opts, SceneName::WeldedBeam) {
        let mut s = build(SceneName::WeldedBeam, settings);
        let (beam, metrics) = beyond::beam_hold(&mut s, frames(opts, SceneName::WeldedBeam));
        let scene = SceneName::WeldedBeam;
        rows.push(row(
            scene,
            "tip sag after 3 s (m)".into(),
            (beam.sag, 0.0, beam.sag < 0.05),
            metrics,
        ));
        rows.push(row(
            scene,
            "tip speed after 3 s (m/s)".into(),
            (beam.speed, 0.0, beam.speed < 0.01),
            metrics,
        ));
    }
    if wanted(opts, SceneName::MotorArm) {
        let mut s = build(SceneName::MotorArm, settings);
        let (turn, metrics) = beyond::motor_turn(&mut s, frames(opts, SceneName::MotorArm));
        let error = 100.0 * (turn.speed / beyond::MOTOR_SPEED - 1.0).abs();
        let scene = SceneName::MotorArm;
        rows.push(row(
            scene,
            "mean speed error (%)".into(),
            (error, 0.0, error < 1.0),
            metrics,
        ));
        rows.push(row(
            scene,
            "widest hinge gap (m)".into(),
            (turn.widest_gap, 0.0, turn.widest_gap < 0.001),
            metrics,
        ));
    }
    if wanted(opts, SceneName::RopeBridge) {
        let scene = SceneName::RopeBridge;
        let mut s = build(scene, settings);
        let (range, metrics) = beyond::settle(&mut s, frames(opts, scene), bench::BRIDGE_WINDOW);
        rows.push(row(
            scene,
            "crate's range up and down over the last 2 s (m)".into(),
            (range, 0.0, range < beyond::SETTLED_RANGE),
            metrics,
        ));
    }
    // The ragdolls' scenes: the largest amount any hinge passed its
    // limits after the first steps, against each scene's target.
    for (scene, target) in [
        (SceneName::RagdollBox, LIMIT_TARGET_DEG),
        (SceneName::RagdollStairs, FOOT_LIMIT_TARGET_DEG),
    ] {
        if !wanted(opts, scene) {
            continue;
        }
        let spec = bench::build(scene.name()).expect("a benchmark scene");
        let mut s = build(scene, settings);
        let (worst, metrics) = beyond::limit_violation(&mut s, &spec, frames(opts, scene));
        let worst = worst.to_degrees();
        rows.push(row(
            scene,
            format!(
                "largest limit violation after step {} (deg)",
                bench::RAGDOLL_SETTLE
            ),
            (worst, 0.0, worst < target),
            metrics,
        ));
    }
    rows
}

/// The most a ragdoll's hinge may pass its limits in the ragdoll box, deg:
/// a limb bent that far past its joint's range reads as held.
pub const LIMIT_TARGET_DEG: f32 = 5.0;

/// The most the ragdoll on the stairs may pass its limits, deg (0.05
/// rad): its light feet held at their ankles' limits under its weight.
pub const FOOT_LIMIT_TARGET_DEG: f32 = 2.864_789;

/// Study 7: the joints against closed forms. The pendulums' periods
/// against the exact finite-amplitude period and their swing's loss per
/// period (none is physical: nothing damps them), the spring's period
/// against the inverse of its frequency, the hanging chain's stretch, and
/// the ball and chain's largest joint gap over the run (the issue's
/// target: 5 cm; Box2D v3 at its defaults: 0.137 m).
pub fn joints(opts: &MeasureOptions) -> Vec<Row> {
    use tumble::Vec2;
    use tumble_scenes::joints::{
        chain_stretch, largest_gap, pendulum_period, Oscillation, PENDULUMS, PENDULUM_BALL, SPRING_HERTZ,
    };
    let settings = SolverSettings::default();
    let mut rows = Vec::new();
    let row = |scene, metrics, case: String, measured: f32, expected: f32, pass: bool| Row {
        case: Some(case),
        measured: Some(measured),
        expected: Some(expected),
        pass: Some(pass),
        ..Row::new("joints", scene, settings, metrics)
    };
    if wanted(opts, SceneName::Pendulum) {
        let mut scene = build(SceneName::Pendulum, settings);
        let bodies = scene.tracked.clone();
        let pivots = [Vec2::new(-5.0, 10.0), Vec2::new(5.0, 10.0)];
        // The spring's ball hangs g / omega^2 below its rest length's end.
        let rest = 7.0 - 10.0 / (2.0 * std::f32::consts::PI * SPRING_HERTZ).powi(2);
        let mut swings = [
            Oscillation::default(),
            Oscillation::default(),
            Oscillation::default(),
        ];
        let mut t = 0.0;
        let metrics = tumble_scenes::run_with(&mut scene, frames(opts, SceneName::Pendulum), |s| {
            t += DT;
            for k in 0..2 {
                let d = s.world.position(bodies[k]).expect("a live bob") - pivots[k];
                swings[k].record(t, d.x.atan2(-d.y));
            }
            let y = s.world.position(bodies[2]).expect("a live ball").y;
            swings[2].record(t, y - rest);
        });
        for (k, &(length, degrees)) in PENDULUMS.iter().enumerate() {
            let expected = pendulum_period(length, PENDULUM_BALL, degrees.to_radians(), 10.0);
            let period = swings[k].period().unwrap_or(f32::NAN);
            let case = format!("L {length} m from {degrees} deg: period (s)");
            rows.push(row(
                SceneName::Pendulum,
                metrics,
                case,
                period,
                expected,
                (period / expected - 1.0).abs() < 0.01,
            ));
            let loss = 100.0 * swings[k].decay_per_period().unwrap_or(f32::NAN);
            let case = format!("L {length} m from {degrees} deg: swing lost per period (%)");
            rows.push(row(SceneName::Pendulum, metrics, case, loss, 0.0, loss < 1.0));
        }
        let period = swings[2].period().unwrap_or(f32::NAN);
        let expected = 1.0 / SPRING_HERTZ;
        let case = format!("spring of {SPRING_HERTZ} Hz: period (s)");
        rows.push(row(
            SceneName::Pendulum,
            metrics,
            case,
            period,
            expected,
            (period / expected - 1.0).abs() < 0.01,
        ));
    }
    if wanted(opts, SceneName::Chain) {
        let mut scene = build(SceneName::Chain, settings);
        let metrics = run(&mut scene, frames(opts, SceneName::Chain));
        let stretch = 100.0 * chain_stretch(&scene.world, &scene.tracked);
        let case = format!("{} links hanging: stretch (%)", scene.tracked.len());
        rows.push(row(
            SceneName::Chain,
            metrics,
            case,
            stretch,
            0.0,
            stretch.abs() < 1.0,
        ));
    }
    if wanted(opts, SceneName::BallAndChain) {
        let mut scene = build(SceneName::BallAndChain, settings);
        let mut gap = 0.0f32;
        let metrics = tumble_scenes::run_with(&mut scene, frames(opts, SceneName::BallAndChain), |s| {
            gap = gap.max(largest_gap(&s.world));
        });
        let case = "largest joint gap while it swings (m)".to_string();
        rows.push(row(SceneName::BallAndChain, metrics, case, gap, 0.0, gap <= 0.05));
    }
    rows
}

/// Rows of pyramid-large the recycling study compares.
const RECYCLING_ROWS: [u32; 2] = [60, 100];

/// Study 5: the large pyramids with contact recycling on (the default) and
/// off, everything else at the defaults.
pub fn recycling(opts: &MeasureOptions) -> Vec<Row> {
    let mut rows = Vec::new();
    if !wanted(opts, SceneName::PyramidLarge(0)) {
        return rows;
    }
    for n in RECYCLING_ROWS {
        for on in [true, false] {
            let settings = SolverSettings {
                contact_recycling: on,
                ..SolverSettings::default()
            };
            let mut row = measure_one(opts, "recycling", SceneName::PyramidLarge(n), settings);
            row.case = Some(format!("rows {n}, recycling {}", if on { "on" } else { "off" }));
            row.pass = Some(row.metrics.standing);
            rows.push(row);
        }
    }
    rows
}

/// The report as JSON: `{"rows": [...]}`.
pub fn to_json(rows: &[Row]) -> String {
    let rows: Vec<Value> = rows.iter().map(Row::to_json).collect();
    serde_json::to_string_pretty(&json!({ "rows": rows })).expect("plain JSON values serialise")
}

fn sci(x: f32) -> String {
    if x == 0.0 {
        "0".to_string()
    } else if x.abs() < 1e-3 {
        format!("{x:.1e}")
    } else {
        format!("{x:.4}")
    }
}

/// The report as markdown tables, one per study.
pub fn to_markdown(rows: &[Row]) -> String {
    let mut out = String::new();
    // The quality study runs at the defaults: name the default sweep.
    let defaults = tumble::SolverSettings::default();
    let quality_title = format!(
        "Quality at the default settings ({} iterations over {} substeps, warm starting, {}, {} coloring, {} sweep, contact recycling {})",
        defaults.iterations,
        defaults.substeps,
        defaults.position_correction.name(),
        defaults.coloring.name(),
        defaults.sweep.name(),
        if defaults.contact_recycling { "on" } else { "off" }
    );
    let studies: [(&str, &str); 8] = [
        ("warm-starting", "Warm starting x iterations (pyramid, 21 boxes)"),
        (
            "position-correction",
            "Position correction (tower, 7 boxes, 8 iterations, warm starting on)",
        ),
        ("sweep", "Sweep order (tower, split impulses)"),
        ("quality", &quality_title),
        ("recycling", "Contact recycling on and off (defaults otherwise)"),
        (
            "solvers",
            "The other solvers: position correction and coloring (stacking scenes, defaults otherwise)",
        ),
        ("joints", "Joints against closed forms (defaults)"),
        (
            "peers",
            "Beyond the peers: tiles, an off-center impact, a welded beam, a motor under load, a rope bridge, ragdolls in a box and on stairs (defaults)",
        ),
    ];
    for (study, title) in studies {
        let rs: Vec<&Row> = rows.iter().filter(|r| r.study == study).collect();
        if rs.is_empty() {
            continue;
        }
        out.push_str(&format!("### {title}\n\n"));
        if study == "joints" || study == "peers" {
            out.push_str("| scene | case | frames | measured | expected | pass |\n");
            out.push_str("|---|---|---|---|---|---|\n");
            for r in rs {
                let opt = |x: Option<f32>| x.map(|v| format!("{v:.4}")).unwrap_or_else(|| "-".into());
                out.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} |\n",
                    r.scene.name(),
                    r.case.as_deref().unwrap_or("-"),
                    r.metrics.frames,
                    opt(r.measured),
                    opt(r.expected),
                    if r.pass == Some(true) { "yes" } else { "**no**" }
                ));
            }
        } else if study == "quality" || study == "recycling" || study == "solvers" {
            out.push_str("| scene | case | frames | spread (m) | sink (m) | worst moved (m) | measured | expected | pass |\n");
            out.push_str("|---|---|---|---|---|---|---|---|---|\n");
            for r in rs {
                let m = &r.metrics;
                let opt = |x: Option<f32>| x.map(|v| format!("{v:.3}")).unwrap_or_else(|| "-".into());
                out.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                    r.scene.name(),
                    r.case.as_deref().unwrap_or("-"),
                    m.frames,
                    sci(m.spread),
                    sci(m.sink),
                    sci(m.worst_moved),
                    opt(r.measured),
                    opt(r.expected),
                    match r.pass {
                        Some(true) => "yes",
                        Some(false) => "**no**",
                        None => "-",
                    }
                ));
            }
        } else {
            out.push_str("| warm starting | iterations | position correction | sweep | residual slide (m/s) | mean overlap (m) | worst moved (m) | spread (m) | sink (m) | creep (m) | standing |\n");
            out.push_str("|---|---|---|---|---|---|---|---|---|---|---|\n");
            for r in rs {
                let m = &r.metrics;
                out.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                    if r.settings.warm_starting { "on" } else { "off" },
                    r.settings.iterations,
                    r.settings.position_correction.name(),
                    r.settings.sweep.name(),
                    sci(m.residual_slide),
                    sci(m.mean_overlap),
                    sci(m.worst_moved),
                    sci(m.spread),
                    sci(m.sink),
                    m.creep.map(sci).unwrap_or_else(|| "-".into()),
                    if m.standing { "yes" } else { "no" },
                ));
            }
        }
        out.push('\n');
    }
    out
}
