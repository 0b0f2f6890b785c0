use std::time::Instant;
use tumble::SolverSettings;
use tumble_scenes::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = SceneName::parse(args.get(1).map(|s| s.as_str()).unwrap_or("pyramid-large:100")).unwrap();
    let steps: u32 = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(200);
    let mut scene = build(name, SolverSettings::default());
    let t = Instant::now();
    for _ in 0..steps {
        scene.world.step(DT);
    }
    println!("{:.3} ms/step", t.elapsed().as_secs_f64() * 1000.0 / steps as f64);
}
