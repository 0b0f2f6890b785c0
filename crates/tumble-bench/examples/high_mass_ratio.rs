//! Box2D's "high mass ratio" sample in all three engines: a pyramid on a
//! base of ten with a heavy box 100, 200 and 300 times as dense as the
//! rest, stepped 600 times; prints, per engine and density, the most any
//! light box moved and where the heavy box ended. The README's heavy-on-light
//! table comes from it.
//!
//! ```text
//! cargo run --release -p tumble-bench --example high_mass_ratio            # Box2D's layout
//! cargo run --release -p tumble-bench --example high_mass_ratio -- on-apex # the harder one
//! ```
//!
//! Box2D's layout: 2 m boxes touching side by side, the heavy box the
//! apex, dropped from 2 m above its place. `on-apex`: 1 m boxes 5 cm
//! apart, a light apex, and the heavy box resting on it; an optional
//! second argument scales the densities (`on-apex 200` tries 200, 400
//! and 600).

use tumble_bench::engines::EngineKind;
use tumble_bench::spec::{BodySpec, Motion, Quality, ShapeSpec, Spec, V2};

/// One pyramid's bodies: the light ones, then the heavy one.
struct Pyramid {
    light: std::ops::Range<usize>,
    heavy: usize,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let on_apex = args.first().is_some_and(|a| a == "on-apex");
    let scale: f32 = args.get(1).map_or(100.0, |s| s.parse().expect("a density scale"));
    let (extent, pitch, drop) = if on_apex {
        (0.5, 1.05, 0.0)
    } else {
        (1.0, 1.0, 2.0)
    };
    let mut bodies = vec![BodySpec::new(
        Motion::Static,
        V2::new(0.0, -1.0),
        ShapeSpec::square_box(60.0, 1.0),
    )];
    let mut pyramids = Vec::new();
    for j in 0..3 {
        let density = (j + 1) as f32 * scale;
        let center = 24.0 * extent * (j as f32 - 1.0);
        let first = bodies.len();
        let rows = if on_apex { 10 } else { 9 };
        for row in 0..rows {
            let count = 10 - row;
            let y = extent * (1.0 + 2.0 * row as f32);
            for i in 0..count {
                let x = center + 2.0 * extent * pitch * (i as f32 - 0.5 * (count - 1) as f32);
                bodies.push(BodySpec::new(
                    Motion::Dynamic,
                    V2::new(x, y),
                    ShapeSpec::square_box(extent, extent),
                ));
            }
        }
        let light = first..bodies.len();
        let y = extent * (1.0 + 2.0 * rows as f32) + drop;
        bodies.push(BodySpec::new(
            Motion::Dynamic,
            V2::new(center, y),
            ShapeSpec::square_box(extent, extent).with_density(density),
        ));
        pyramids.push((
            density,
            Pyramid {
                light,
                heavy: bodies.len() - 1,
            },
        ));
    }
    let spec = Spec {
        name: "high-mass-ratio",
        steps: 600,
        gravity: V2::new(0.0, -10.0),
        bodies,
        joints: Vec::new(),
        quality: Quality::WorstMoved,
        sleeping: false,
    };
    println!("| engine | density | worst moved (m) | heavy box at |");
    println!("|---|---|---|---|");
    for engine in EngineKind::ALL {
        let mut sim = engine.build(&spec);
        let start = sim.centers();
        for _ in 0..spec.steps {
            sim.step();
        }
        let end = sim.centers();
        for (density, p) in &pyramids {
            let worst = p
                .light
                .clone()
                .map(|k| start[k].distance(end[k]))
                .fold(0.0f32, f32::max);
            let h = end[p.heavy];
            println!(
                "| {} | {density} | {worst:.3} | ({:.3}, {:.3}) |",
                engine.name(),
                h.x,
                h.y
            );
        }
    }
}
