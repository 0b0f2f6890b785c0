use tumble_envs::{BipedalWalker, WalkerConfig, WalkerHeuristic};
use tumble_envs::{Env, Pcg64};
fn main() {
    let n: u64 = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(20);
    let mut sum = 0.0;
    let mut falls = 0;
    for seed in 0..n {
        let mut env = BipedalWalker::new(WalkerConfig::default());
        let mut obs = [0.0f32; 24];
        env.reset(Pcg64::from_seed(seed), &mut obs);
        let mut pilot = WalkerHeuristic::new();
        let mut action = [0.0f32; 4];
        let mut total = 0.0;
        let mut steps = 0;
        while steps < 1600 {
            let st = env.step(&action, &mut obs).unwrap();
            total += st.reward;
            steps += 1;
            action = pilot.act(&obs);
            if st.terminated {
                break;
            }
        }
        let x = env.world().unwrap().position(env.hull().unwrap()).unwrap().x;
        if env.game_over() {
            falls += 1;
        }
        println!(
            "seed {seed}: ret {total:.1} steps {steps} x {x:.1} fell {}",
            env.game_over()
        );
        sum += total;
    }
    println!("mean {:.1} falls {falls}", sum / n as f64);
}
