//! Times an environment's step in Rust alone, with random actions, one
//! environment or a batch over worker threads:
//! `cargo run --release -p tumble-envs --example steps -- LunarLander-v3 200000`
//! `cargo run --release -p tumble-envs --example steps -- BipedalWalker-v3 200000 64 2`
//! (steps in all, then environments and workers for a batch).

use std::time::Instant;
use tumble_envs::{make, Batch, Env, Options, Pcg64};

/// A random action for an environment of `len` action values.
fn random_action(len: usize, rng: &mut Pcg64, out: &mut Vec<f32>) {
    if len == 1 {
        out.push(rng.integers(0, 4) as f32);
    } else {
        out.extend((0..len).map(|_| rng.uniform(-1.0, 1.0) as f32));
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "LunarLander-v3".to_string());
    let steps: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let envs: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let workers: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let options = Options::default();
    let mut actions = Pcg64::from_seed(1);
    let mut action = Vec::new();
    let start = Instant::now();
    if envs == 1 {
        let mut env = make(&id, &options).expect("a known environment");
        let mut obs = vec![0.0f32; env.observation_len()];
        env.reset(Pcg64::from_seed(0), &mut obs);
        let mut in_episode = 0;
        for _ in 0..steps {
            action.clear();
            random_action(env.action_len(), &mut actions, &mut action);
            in_episode += 1;
            let step = env.step(&action, &mut obs).expect("a valid action");
            if step.terminated || in_episode >= env.max_episode_steps() {
                in_episode = 0;
                let rng = env.rng();
                env.reset(rng, &mut obs);
            }
        }
    } else {
        let all = (0..envs)
            .map(|_| make(&id, &options).expect("a known environment"))
            .collect();
        let mut batch = Batch::new(all, workers).expect("a batch");
        let rngs: Vec<Pcg64> = (0..envs as u64).map(Pcg64::from_seed).collect();
        let mut obs = vec![0.0f32; envs * batch.observation_len()];
        batch.reset(&rngs, &mut obs).expect("a reset");
        for _ in 0..steps / envs as u32 {
            action.clear();
            for _ in 0..envs {
                random_action(batch.action_len(), &mut actions, &mut action);
            }
            batch.step(&action, &mut obs).expect("valid actions");
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!(
        "{id}: {steps} steps, {envs} environments on {workers} workers: {:.2} us a step, {:.0} steps/s",
        elapsed * 1e6 / f64::from(steps),
        f64::from(steps) / elapsed
    );
}
