use tumble::SolverSettings;
use tumble_scenes::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = SceneName::parse(&args[1]).unwrap();
    let iters: u32 = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(8);
    let mut scene = build(
        name,
        SolverSettings {
            iterations: iters,
            substeps: args.get(3).map(|s| s.parse().unwrap()).unwrap_or(4),
            position_correction: match args.get(4).map(|s| s.as_str()) {
                Some("none") => tumble::PositionCorrection::None,
                Some("baum") => tumble::PositionCorrection::Baumgarte,
                _ => tumble::PositionCorrection::SplitImpulse,
            },
            sweep: if args.get(5).map(|s| s.as_str()) == Some("fwd") {
                tumble::Sweep::Forward
            } else {
                tumble::Sweep::Alternating
            },
            ..Default::default()
        },
    );
    for f in 0..600 {
        scene.world.step(DT);
        if f % 30 == 0 || f < 5 {
            let mut maxw = 0.0f32;
            let mut maxv = 0.0f32;
            let mut maxx = 0.0f32;
            for (i, &b) in scene.tracked.iter().enumerate() {
                maxw = maxw.max(scene.world.angular_velocity(b).unwrap().abs());
                maxv = maxv.max(scene.world.linear_velocity(b).unwrap().length());
                maxx = maxx.max((scene.world.center_of_mass(b).unwrap().x - scene.start[i].x).abs());
            }
            let mut newp = 0;
            let mut tot = 0;
            let mut maxdepth = 0.0f32;
            for c in scene.world.contacts() {
                for p in c.manifold.points() {
                    tot += 1;
                    if !p.persisted {
                        newp += 1;
                    }
                    maxdepth = maxdepth.max(p.depth());
                }
            }
            println!("f{f:4} maxw {maxw:.2e} maxv {maxv:.2e} spread {maxx:.3e} pts {tot} new {newp} maxdepth {maxdepth:.4}");
        }
    }
}
