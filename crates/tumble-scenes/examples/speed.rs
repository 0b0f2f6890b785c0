//! Steps one scene at the default settings and prints the mean wall time
//! per step: a quick check while working on the engine, and a target for
//! `valgrind --tool=callgrind`, whose instruction counts (unlike times) are
//! stable on a shared machine. Side-by-side figures against other engines
//! come from `tumble-bench`, not from here.
//!
//! ```text
//! cargo run --release -p tumble-scenes --example speed -- pyramid-large:100 200
//! ```

use std::time::Instant;
use tumble::SolverSettings;
use tumble_scenes::{build, SceneName, DT};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scene_arg = args.get(1).map(String::as_str).unwrap_or("pyramid-large:100");
    let Some(name) = SceneName::parse(scene_arg) else {
        eprintln!("unknown scene `{scene_arg}`");
        std::process::exit(2);
    };
    let steps: u32 = match args.get(2).map(|s| s.parse()) {
        None => 200,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("the step count must be a positive whole number");
            std::process::exit(2);
        }
    };
    let mut scene = build(name, SolverSettings::default());
    let start = Instant::now();
    for _ in 0..steps {
        scene.world.step(DT);
    }
    let ms = start.elapsed().as_secs_f64() * 1000.0 / steps as f64;
    println!("{}: {ms:.3} ms/step over {steps} steps", name.name());
}
