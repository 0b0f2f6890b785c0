//! `tumble-bench`: Tumble against Box2D v3 and Rapier on the same scenes.
//!
//! ```text
//! tumble-bench [--json] [--scene NAME] [--steps N] [--chunk N] [--threads N] [--lanes W] [--engine NAME] [--plot FILE.png] [--stages] [--scaling]
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use tumble_bench::engines::EngineKind;
use tumble_bench::spec::{self, QUALITY_SCENES, SCENES};
use tumble_bench::{plot, report, runner, sleep};

const USAGE: &str = "usage: tumble-bench [--json] [--scene NAME] [--steps N] [--chunk N] [--threads N] [--lanes W] [--engine NAME] [--plot FILE.png] [--stages] [--scaling]

Builds each scene in Tumble, Box2D v3 (boxdd) and Rapier (rapier2d), steps the
three in turn (N steps each per turn, default 10) timing every step, and prints
a markdown table per scene with the median ms per step, Tumble's ratio to each
peer and a quality figure, then Tumble's memory per body and per contact. The
nine comparison scenes run with sleeping off in every engine: seven of boxes
and shapes (large-pyramid to pile; the pyramids twice, the `-box2d` ones in
Box2D's benchmark layout, the boxes of a row touching) and two of joints,
`joint-grid` (Box2D's 100 x 100 net of hinged circles; quality: the gap the
joints open, mean in cm and largest in m) and `ragdolls` (1000 ragdolls of
11 bones and 10 hinges with limits, friction and springs, piling on the
ground). Then five scenes of quality the peers fall short on, timed as the
rest but there for their figure: `tile-floor` and `tile-bodies`, a box slid
without friction at 8 m/s over 40 static 1 m boxes side by side (shapes of
one body, or bodies of their own); quality: the fastest it moved up or down
and how far it slid in 4 s (32 m on a flat floor); and `rope-bridge`, a
250 kg crate dropped on a taut bridge of twenty 5 kg planks; quality: how
far the crate ranged up and down over the last 2 s of 5 (0 at rest); and
`ragdoll-box`, 20 of those ragdolls dropped into a 7 m box; quality: the
largest amount any hinge passed its limits after the first 10 steps (deg);
and `ragdoll-stairs`, one of them with feet a fifth of a shin's mass
stepping off the top of ten stairs and tumbling down; quality: the same.
Then `sleep`, the
large pyramid with sleeping on: when it is all asleep, the cost of a step
awake, asleep, and right after waking every body; and `sleep-many`, the same
for the many pyramids.

Box2D runs the SIMD path it was built with, printed at the start and in the
settings: AVX2 (eight constraints a batch) by default on x86_64, which needs
a processor with AVX2 (the bench checks and refuses without); build with
`--no-default-features` for its SSE2 path (four a batch), which runs on any
x86_64.

  --json           print {\"rows\": [{\"scene\", \"engine\", \"ms_per_step\", \"steps\", \"worst_moved\", \"escaped\",
                   \"joint_gap_mean_cm\", \"joint_gap_max_m\", \"max_vertical_speed\", \"distance_slid\",
                   \"settle_range_m\", \"limit_violation_deg\", ...}]}
                   (the sleep scene's rows: asleep_at_step, ms_awake, ms_asleep, ms_after_wake)
  --scene NAME     run one scene: large-pyramid, large-pyramid-box2d, many-pyramids,
                   many-pyramids-box2d, tumbler, smash, pile, joint-grid, ragdolls, tile-floor,
                   tile-bodies, rope-bridge, ragdoll-box, ragdoll-stairs, sleep, sleep-many
  --steps N        steps per engine instead of the scene's own count
  --chunk N        steps each engine takes per turn (default 10; 50 with --scaling)
  --threads N      threads every engine steps on (default 1): Tumble's workers, Box2D's
                   worker count, a rayon pool of N for Rapier's parallel solver
  --lanes W        Tumble's lane width: widest (the default: eight lanes where the processor
                   has AVX2, else four) or four (to measure the four-wide path on any processor)
  --engine NAME    run one engine only (tumble, box2d, rapier), say under a profiler
  --plot FILE.png  also draw a bar chart of the medians
  --stages         instead, step each scene in each engine alone and print where its step
                   spends the time, by the engine's own profile (mean ms per stage)
  --scaling        instead, step each scene in Tumble on 1 thread and on --threads N (default
                   2) in turn, chunk steps at a time, and print each stage's median on both and
                   the speed-up";

struct Options {
    json: bool,
    scenes: Vec<&'static str>,
    steps: Option<u32>,
    /// Steps per turn, if given.
    chunk: Option<u32>,
    plot: Option<PathBuf>,
    engines: Vec<EngineKind>,
    threads: usize,
    stages: bool,
    scaling: bool,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        json: false,
        scenes: SCENES
            .iter()
            .chain(&QUALITY_SCENES)
            .chain(&sleep::SCENES)
            .copied()
            .collect(),
        steps: None,
        chunk: None,
        plot: None,
        engines: EngineKind::ALL.to_vec(),
        threads: 1,
        stages: false,
        scaling: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--json" => options.json = true,
            "--scene" => {
                let name = value("--scene")?;
                let known = SCENES
                    .iter()
                    .chain(&QUALITY_SCENES)
                    .chain(&sleep::SCENES)
                    .find(|&&s| s == name);
                options.scenes = vec![*known.ok_or(format!("no scene named {name:?}"))?];
            }
            "--steps" => {
                let n = value("--steps")?;
                options.steps = Some(n.parse().map_err(|_| format!("--steps {n:?} is not a count"))?);
            }
            "--chunk" => {
                let n = value("--chunk")?;
                let n: u32 = n.parse().map_err(|_| format!("--chunk {n:?} is not a count"))?;
                options.chunk = Some(n.max(1));
            }
            "--threads" => {
                let n = value("--threads")?;
                let n: usize = n.parse().map_err(|_| format!("--threads {n:?} is not a count"))?;
                if !(1..=32).contains(&n) {
                    return Err(format!("--threads {n} is not in 1..=32"));
                }
                options.threads = n;
            }
            "--lanes" => {
                let name = value("--lanes")?;
                let width = [tumble::LaneWidth::Widest, tumble::LaneWidth::Four]
                    .into_iter()
                    .find(|w| w.name() == name)
                    .ok_or(format!("--lanes {name:?} is not \"widest\" or \"four\""))?;
                tumble_bench::engines::tumble::set_lane_width(width);
            }
            "--stages" => options.stages = true,
            "--scaling" => options.scaling = true,
            "--plot" => options.plot = Some(PathBuf::from(value("--plot")?)),
            "--engine" => {
                let name = value("--engine")?;
                let known = EngineKind::ALL
                    .into_iter()
                    .find(|e| e.name().eq_ignore_ascii_case(&name));
                options.engines = vec![known.ok_or(format!("no engine named {name:?}"))?];
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("tumble-bench: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if cfg!(debug_assertions) {
        eprintln!("tumble-bench: a debug build; time it with `cargo run --release -p tumble-bench`");
    }
    let engines = &options.engines;
    if engines.contains(&EngineKind::Box2d) {
        if let Err(e) = tumble_bench::engines::box2d::check_processor() {
            eprintln!("tumble-bench: {e}");
            return ExitCode::FAILURE;
        }
        eprintln!(
            "tumble-bench: Box2D runs its {} path",
            tumble_bench::engines::box2d::simd_path()
        );
    }
    if options.scaling {
        let threads = if options.threads == 1 { 2 } else { options.threads };
        for name in &options.scenes {
            let Some(spec) = spec::build(name) else {
                continue;
            };
            let steps = options.steps.unwrap_or(spec.steps);
            let run = tumble_bench::stages::scaling(
                &spec,
                steps,
                options.chunk.unwrap_or(tumble_bench::stages::SCALING_CHUNK),
                threads,
            );
            print!("{}", tumble_bench::stages::scaling_markdown(name, &run));
        }
        return ExitCode::SUCCESS;
    }
    let chunk = options.chunk.unwrap_or(runner::CHUNK);
    if options.stages {
        for name in &options.scenes {
            let Some(spec) = spec::build(name) else {
                continue;
            };
            let steps = options.steps.unwrap_or(spec.steps);
            let runs = tumble_bench::stages::run(&spec, engines, steps, options.threads);
            print!("{}", tumble_bench::stages::markdown(name, &runs));
        }
        return ExitCode::SUCCESS;
    }
    let mut runs = Vec::new();
    let mut sleep_runs = Vec::new();
    for name in &options.scenes {
        if let Some(spec) = sleep::spec(name) {
            eprintln!(
                "tumble-bench: {name}: {} bodies, sleeping on, until asleep ...",
                spec.bodies.len()
            );
            sleep_runs.push(sleep::run(&spec, engines, chunk, options.threads));
            continue;
        }
        let spec = spec::build(name).expect("names come from SCENES");
        let steps = options.steps.unwrap_or(spec.steps);
        eprintln!(
            "tumble-bench: {name}: {} bodies, {steps} steps per engine ...",
            spec.bodies.len()
        );
        let started = std::time::Instant::now();
        let run = runner::run_scene(&spec, engines, steps, chunk, options.threads);
        eprintln!(
            "tumble-bench: {name}: done in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        runs.push(run);
    }
    if options.json {
        let mut json = report::json(&runs, engines, options.threads);
        if let Some(rows) = json["rows"].as_array_mut() {
            for runs in &sleep_runs {
                rows.extend(sleep::json_rows(runs));
            }
        }
        println!("{json}");
    } else {
        print!("{}", report::markdown(&runs, engines, options.threads));
        for runs in &sleep_runs {
            print!("\n{}", sleep::markdown(runs));
        }
    }
    if let Some(path) = &options.plot {
        if let Err(e) = plot::plot(&runs, path) {
            eprintln!("tumble-bench: could not draw {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        eprintln!("tumble-bench: wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
