//! How the bench times its runs, below the engines and the runners that
//! use it: the engines take turns a chunk of steps at a time
//! ([`in_turns`]), a list of step times comes down to its median
//! ([`median`]), and an engine's own profile is read in milliseconds
//! ([`in_ms`]).

/// Gives each of `sims` `steps` turns of `step` (its index and itself),
/// the sims taking turns `chunk` steps at a time, so that the machine's
/// load as it changes falls on all of them alike.
pub fn in_turns<S>(sims: &mut [S], steps: u32, chunk: u32, mut step: impl FnMut(usize, &mut S)) {
    let chunk = chunk.max(1);
    let mut done = 0;
    while done < steps {
        let turn = chunk.min(steps - done);
        for (k, sim) in sims.iter_mut().enumerate() {
            for _ in 0..turn {
                step(k, sim);
            }
        }
        done += turn;
    }
}

/// Median of a list of times (the mean of the middle two for an even
/// count); zero for an empty list.
pub fn median(times: &mut [f64]) -> f64 {
    if times.is_empty() {
        return 0.0;
    }
    times.sort_by(f64::total_cmp);
    let n = times.len();
    if n % 2 == 1 {
        times[n / 2]
    } else {
        0.5 * (times[n / 2 - 1] + times[n / 2])
    }
}

/// An engine's profile, `(stage, ms)` as the engine keeps it, in the
/// form [`crate::engines::Engine::stages`] returns.
pub fn in_ms(stages: &[(&'static str, f32)]) -> Vec<(&'static str, f64)> {
    stages.iter().map(|&(name, ms)| (name, f64::from(ms))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_go_round_in_chunks_until_every_sim_has_its_steps() {
        let mut order = Vec::new();
        in_turns(&mut [0u32, 0], 5, 2, |k, steps| {
            *steps += 1;
            order.push(k);
        });
        assert_eq!(order, [0, 0, 1, 1, 0, 0, 1, 1, 0, 1]);
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&mut []), 0.0);
    }
}
