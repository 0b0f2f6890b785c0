//! Times an environment's step in Rust alone, with random actions:
//! `cargo run --release -p tumble-envs --example steps -- LunarLander-v3 200000`.

use std::time::Instant;
use tumble_envs::{make, Env, Options, Pcg64};

fn main() {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "LunarLander-v3".to_string());
    let steps: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let mut env = make(&id, &Options::default()).expect("a known environment");
    let mut obs = vec![0.0f32; env.observation_len()];
    let mut actions = Pcg64::from_seed(1);
    env.reset(Pcg64::from_seed(0), &mut obs);
    let (mut episodes, mut in_episode) = (0u32, 0u32);
    let start = Instant::now();
    for _ in 0..steps {
        let action: Vec<f32> = if env.action_len() == 1 {
            vec![actions.integers(0, 4) as f32]
        } else {
            (0..env.action_len())
                .map(|_| actions.uniform(-1.0, 1.0) as f32)
                .collect()
        };
        in_episode += 1;
        let step = env.step(&action, &mut obs).expect("a valid action");
        if step.terminated || in_episode >= env.max_episode_steps() {
            episodes += 1;
            in_episode = 0;
            let rng = env.rng();
            env.reset(rng, &mut obs);
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!(
        "{id}: {steps} steps, {episodes} episodes, {:.2} us a step, {:.0} steps/s",
        elapsed * 1e6 / f64::from(steps),
        f64::from(steps) / elapsed
    );
}
