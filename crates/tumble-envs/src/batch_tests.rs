use super::*;
use crate::{LanderConfig, LunarLander};

fn landers(n: usize, continuous: bool) -> Vec<LunarLander> {
    let config = LanderConfig {
        continuous,
        ..LanderConfig::default()
    };
    (0..n).map(|_| LunarLander::new(config).unwrap()).collect()
}

/// Steps a batch `steps` times with actions from a stream, returning the
/// observation and result bits.
fn trace(workers: usize, n: usize, steps: usize) -> Vec<u64> {
    let mut batch = Batch::new(landers(n, false), workers).unwrap();
    let rngs: Vec<Pcg64> = (0..n as u64).map(Pcg64::from_seed).collect();
    let mut obs = vec![0.0f32; n * 8];
    batch.reset(&rngs, &mut obs).unwrap();
    let mut pick = Pcg64::from_seed(1234);
    let mut out = Vec::new();
    for _ in 0..steps {
        let actions: Vec<f32> = (0..n).map(|_| pick.integers(0, 4) as f32).collect();
        batch.step(&actions, &mut obs).unwrap();
        out.extend(obs.iter().map(|v| u64::from(v.to_bits())));
        for r in batch.results() {
            out.push(r.reward.to_bits() ^ u64::from(r.terminated) ^ (u64::from(r.truncated) << 1));
        }
    }
    out
}

#[test]
fn any_number_of_workers_gives_the_same_bits() {
    let one = trace(1, 6, 300);
    assert_eq!(one, trace(2, 6, 300));
    assert_eq!(one, trace(3, 6, 300));
    // More workers than environments: one environment a worker.
    assert_eq!(one, trace(8, 6, 300));
}

#[test]
fn a_batch_environment_runs_as_one_alone_then_resets_on_the_next_step() {
    let n = 3;
    let mut batch = Batch::new(landers(n, true), 2).unwrap();
    let rngs: Vec<Pcg64> = (0..n as u64).map(|s| Pcg64::from_seed(s + 40)).collect();
    let mut obs = vec![0.0f32; n * 8];
    batch.reset(&rngs, &mut obs).unwrap();
    let mut alone = LunarLander::new(LanderConfig {
        continuous: true,
        ..LanderConfig::default()
    })
    .unwrap();
    let mut alone_obs = [0.0f32; 8];
    alone.reset(rngs[1], &mut alone_obs);
    assert_eq!(&obs[8..16], &alone_obs);
    // Hold the main engine off and the side engine on: the episode ends.
    let actions = [-1.0f32, 1.0].repeat(n);
    let mut ended = false;
    for _ in 0..1000 {
        batch.step(&actions, &mut obs).unwrap();
        let step = alone.step(&[-1.0, 1.0], &mut alone_obs).unwrap();
        assert_eq!(&obs[8..16], &alone_obs);
        let r = batch.results()[1];
        assert_eq!((r.reward, r.terminated), (step.reward, step.terminated));
        if r.terminated || r.truncated {
            ended = true;
            break;
        }
    }
    assert!(ended);
    // The next step resets it from its own stream, whatever its action.
    batch.step(&actions, &mut obs).unwrap();
    assert_eq!(batch.results()[1], BatchStep::default());
    alone.reset(alone.rng(), &mut alone_obs);
    assert_eq!(&obs[8..16], &alone_obs);
}

#[test]
fn episodes_are_truncated_at_the_time_limit() {
    // A pilot that only brakes its fall: every episode ends by the limit,
    // and it is flagged truncated exactly when it ran the whole limit.
    let mut batch = Batch::new(landers(2, false), 1).unwrap();
    let rngs = [Pcg64::from_seed(7), Pcg64::from_seed(8)];
    let mut obs = vec![0.0f32; 16];
    batch.reset(&rngs, &mut obs).unwrap();
    let mut steps = [0u32; 2];
    let mut ends = [None; 2];
    for _ in 0..1000 {
        let actions: Vec<f32> = obs
            .chunks(8)
            .map(|o| {
                // Hover: main engine whenever sinking.
                if o[3] < 0.0 {
                    2.0
                } else {
                    0.0
                }
            })
            .collect();
        batch.step(&actions, &mut obs).unwrap();
        for (k, r) in batch.results().iter().enumerate() {
            if ends[k].is_none() {
                steps[k] += 1;
                if r.terminated || r.truncated {
                    ends[k] = Some(*r);
                }
            }
        }
    }
    for k in 0..2 {
        let end = ends[k].expect("every episode ends by the limit");
        assert_eq!(
            end.truncated,
            steps[k] == 1000,
            "env {k}: {end:?} after {}",
            steps[k]
        );
    }
}

#[test]
fn bad_input_is_refused_with_nothing_stepped() {
    assert!(Batch::new(Vec::<LunarLander>::new(), 1).is_err());
    assert!(Batch::new(landers(2, false), 0).is_err());
    let mut batch = Batch::new(landers(2, false), 2).unwrap();
    let mut obs = vec![0.0f32; 16];
    assert_eq!(batch.step(&[0.0, 0.0], &mut obs), Err(EnvError::NotReset));
    batch
        .reset(&[Pcg64::from_seed(1), Pcg64::from_seed(2)], &mut obs)
        .unwrap();
    let before = obs.clone();
    assert_eq!(
        batch.step(&[0.0, 7.0], &mut obs),
        Err(EnvError::UnknownAction(7.0))
    );
    assert_eq!(batch.step(&[0.0], &mut obs), Err(EnvError::Size("actions", 2, 1)));
    assert_eq!(obs, before);
    let rngs = [Pcg64::from_seed(1)];
    assert_eq!(
        batch.reset(&rngs, &mut obs),
        Err(EnvError::Size("random streams", 2, 1))
    );
}

#[test]
fn same_step_autoreset_reports_the_new_episode_and_keeps_the_last_observation() {
    // Two batches from the same streams and actions: one resets on the
    // next step, one on the same step. The same-step batch's final
    // observation is the next-step batch's ending one, and its new first
    // observation is the one the next-step batch reports a step later.
    let n = 3;
    let rngs: Vec<Pcg64> = (0..n as u64).map(|s| Pcg64::from_seed(s + 70)).collect();
    let mut next = Batch::new(landers(n, false), 1).unwrap();
    let mut same = Batch::new(landers(n, false), 2).unwrap();
    same.set_autoreset(Autoreset::SameStep);
    let (mut on, mut os) = (vec![0.0f32; n * 8], vec![0.0f32; n * 8]);
    next.reset(&rngs, &mut on).unwrap();
    same.reset(&rngs, &mut os).unwrap();
    let left = vec![1.0f32; n];
    for _ in 0..1000 {
        next.step(&left, &mut on).unwrap();
        same.step(&left, &mut os).unwrap();
        assert_eq!(next.results(), same.results());
        let ended: Vec<usize> = (0..n)
            .filter(|&i| same.results()[i].terminated || same.results()[i].truncated)
            .collect();
        for i in 0..n {
            if ended.contains(&i) {
                assert_eq!(same.final_observation(i), Some(&on[i * 8..i * 8 + 8]));
            } else {
                assert_eq!(same.final_observation(i), None);
                assert_eq!(&os[i * 8..i * 8 + 8], &on[i * 8..i * 8 + 8]);
            }
        }
        if !ended.is_empty() {
            // The next-step batch resets those now, whatever its action.
            next.step(&left, &mut on).unwrap();
            for &i in &ended {
                assert_eq!(&os[i * 8..i * 8 + 8], &on[i * 8..i * 8 + 8]);
            }
            return;
        }
    }
    panic!("no episode ended");
}
