use super::*;

/// One episode of the heuristic pilot.
#[derive(Clone, Copy, Debug)]
struct Flight {
    /// The return.
    total: f64,
    /// The steps it took.
    steps: u32,
    /// The last step's reward (100 at rest, -100 crashed).
    last: f64,
    /// The step after which a leg first touched, if one did.
    touched: Option<u32>,
}

/// Runs one episode from `seed` with the heuristic pilot.
fn fly(config: LanderConfig, seed: u64) -> Flight {
    let mut env = LunarLander::new(config).unwrap();
    let mut obs = [0.0f32; 8];
    env.reset(Pcg64::from_seed(seed), &mut obs);
    let mut flight = Flight {
        total: 0.0,
        steps: MAX_EPISODE_STEPS,
        last: 0.0,
        touched: None,
    };
    for steps in 1..=MAX_EPISODE_STEPS {
        let a = heuristic(&obs, config.continuous);
        let step = env.step(&a[..env.action_len()], &mut obs).unwrap();
        flight.total += step.reward;
        flight.last = step.reward;
        if flight.touched.is_none() && (obs[6] > 0.0 || obs[7] > 0.0) {
            flight.touched = Some(steps);
        }
        if step.terminated {
            flight.steps = steps;
            break;
        }
    }
    flight
}

#[test]
fn the_terrain_is_gymnasiums_draws_with_a_flat_pad() {
    let mut env = LunarLander::new(LanderConfig::default()).unwrap();
    let mut obs = [0.0f32; 8];
    let rng = Pcg64::from_seed(11);
    env.reset(rng, &mut obs);
    let mut draws = rng;
    let h: Vec<f64> = (0..12).map(|_| draws.uniform(0.0, H / 2.0)).collect();
    let (x1, x2, y) = env.helipad();
    assert_eq!((x1, x2, y), (W / 10.0 * 4.0, W / 10.0 * 6.0, H / 4.0));
    for (i, p) in env.terrain().iter().enumerate() {
        let mut hh = h.clone();
        hh[3..=7].iter_mut().for_each(|v| *v = H / 4.0);
        let before = if i == 0 { hh[11] } else { hh[i - 1] };
        assert_eq!(p.y, (0.33 * (before + hh[i] + hh[i + 1])) as f32, "point {i}");
    }
    // The pad's three points are level: 0.99 of the pad's height.
    let pad = &env.terrain()[4..=6];
    assert!(pad.iter().all(|p| p.y == pad[0].y));
}

#[test]
fn the_first_step_carries_the_push_and_gravity_as_momentum() {
    // Joints only move momentum between hull and legs: after the reset's
    // step the three bodies' momentum is (F + M g) dt, F the drawn push.
    let rng = Pcg64::from_seed(5);
    let mut env = LunarLander::new(LanderConfig::default()).unwrap();
    let mut obs = [0.0f32; 8];
    env.reset(rng, &mut obs);
    let mut draws = rng;
    (0..12).for_each(|_| {
        draws.uniform(0.0, 1.0);
    });
    let f = (draws.uniform(-1000.0, 1000.0), draws.uniform(-1000.0, 1000.0));
    let parts = env.parts.as_ref().unwrap();
    let (mut px, mut py, mut mass) = (0.0f64, 0.0f64, 0.0f64);
    for b in [parts.lander, parts.legs[0], parts.legs[1]] {
        let m = f64::from(parts.world.mass_data(b).unwrap().mass);
        let v = parts.world.linear_velocity(b).unwrap();
        px += m * f64::from(v.x);
        py += m * f64::from(v.y);
        mass += m;
    }
    let dt = 1.0 / FPS;
    let want = (f.0 * dt, (f.1 - 10.0 * mass) * dt);
    assert!(
        (px - want.0).abs() < 1e-3 * (1.0 + want.0.abs()),
        "{px} vs {}",
        want.0
    );
    assert!(
        (py - want.1).abs() < 1e-3 * (1.0 + want.1.abs()),
        "{py} vs {}",
        want.1
    );
}

#[test]
fn the_reset_step_leaves_each_leg_on_its_hinge_within_its_limits() {
    // gymnasium places the legs 0.6 m below their hinges and outside their
    // limits; Box2D 2.3's position solver, which the reset's step follows,
    // closes both gaps to its slops (5 mm, 2 degrees) with iterations to
    // spare.
    for seed in 0..10 {
        let mut env = LunarLander::new(LanderConfig::default()).unwrap();
        let mut obs = [0.0f32; 8];
        env.reset(Pcg64::from_seed(seed), &mut obs);
        let parts = env.parts.as_ref().unwrap();
        for joint in parts.world.body_joints(parts.lander).unwrap() {
            let (fa, fb) = parts.world.joint_world_frames(joint).unwrap();
            let gap = (fb.p - fa.p).length();
            assert!(gap < 0.005, "seed {seed}: gap {gap} m");
            let tumble::JointKind::Revolute(hinge) = parts.world.joint_kind(joint).unwrap() else {
                panic!("a leg's hinge");
            };
            let angle = parts.world.joint_angle(joint).unwrap();
            let slop = 2.0f32.to_radians() + 1e-4;
            assert!(
                angle >= hinge.lower_angle - slop && angle <= hinge.upper_angle + slop,
                "seed {seed}: angle {angle} outside {}..{}",
                hinge.lower_angle,
                hinge.upper_angle
            );
        }
    }
}

#[test]
fn a_seed_and_actions_give_the_same_episode_bit_for_bit() {
    let config = LanderConfig {
        continuous: true,
        enable_wind: true,
        ..LanderConfig::default()
    };
    let run = || {
        let mut env = LunarLander::new(config).unwrap();
        let mut obs = [0.0f32; 8];
        let mut trace = Vec::new();
        let mut actions = Pcg64::from_seed(99);
        for episode in 0..2 {
            env.reset(Pcg64::from_seed(3 + episode), &mut obs);
            for _ in 0..200 {
                let a = [
                    actions.uniform(-1.0, 1.0) as f32,
                    actions.uniform(-1.0, 1.0) as f32,
                ];
                let step = env.step(&a, &mut obs).unwrap();
                trace.extend(obs.iter().map(|v| v.to_bits()));
                trace.push(step.reward.to_bits() as u32);
                if step.terminated {
                    break;
                }
            }
        }
        trace
    };
    assert_eq!(run(), run());
}

#[test]
fn the_heuristic_lands_discrete_and_continuous() {
    for continuous in [false, true] {
        let config = LanderConfig {
            continuous,
            ..LanderConfig::default()
        };
        let runs: Vec<Flight> = (0..10).map(|seed| fly(config, seed)).collect();
        let mean = runs.iter().map(|r| r.total).sum::<f64>() / runs.len() as f64;
        assert!(
            mean >= 200.0,
            "continuous {continuous}: mean return {mean}: {runs:?}"
        );
        // Landings end asleep, with the +100, not at the time limit.
        let rested = runs.iter().filter(|r| r.last == 100.0).count();
        assert!(
            rested >= 8,
            "continuous {continuous}: {rested} of 10 came to rest: {runs:?}"
        );
    }
}

#[test]
fn a_crash_ends_the_episode_with_minus_100() {
    // Full main engine never fires: the lander falls onto the moon. With
    // the left engine held it tumbles and its hull strikes the ground.
    let mut env = LunarLander::new(LanderConfig::default()).unwrap();
    let mut obs = [0.0f32; 8];
    env.reset(Pcg64::from_seed(2), &mut obs);
    let mut last = None;
    for _ in 0..MAX_EPISODE_STEPS {
        let step = env.step(&[1.0], &mut obs).unwrap();
        if step.terminated {
            last = Some(step);
            break;
        }
    }
    assert_eq!(last.map(|s| s.reward), Some(-100.0));
}

#[test]
fn bad_actions_and_settings_are_refused_and_change_nothing() {
    let mut env = LunarLander::new(LanderConfig::default()).unwrap();
    let mut obs = [0.0f32; 8];
    assert_eq!(env.step(&[0.0], &mut obs), Err(EnvError::NotReset));
    env.reset(Pcg64::from_seed(1), &mut obs);
    let before = (env.rng(), obs);
    assert_eq!(env.step(&[4.0], &mut obs), Err(EnvError::UnknownAction(4.0)));
    assert_eq!(env.step(&[0.5], &mut obs), Err(EnvError::UnknownAction(0.5)));
    assert_eq!(env.step(&[f32::NAN], &mut obs), Err(EnvError::NonFiniteAction));
    assert_eq!(env.step(&[0.0, 1.0], &mut obs), Err(EnvError::ActionLength(1, 2)));
    assert_eq!((env.rng(), obs), before);
    for g in [0.0, -12.0, 3.0, f64::NAN] {
        let config = LanderConfig {
            gravity: g,
            ..LanderConfig::default()
        };
        assert!(LunarLander::new(config).is_err(), "gravity {g}");
    }
}

#[test]
fn the_render_shows_sky_moon_lander_and_flags() {
    let mut env = LunarLander::new(LanderConfig {
        particles: true,
        ..LanderConfig::default()
    })
    .unwrap();
    let mut obs = [0.0f32; 8];
    env.reset(Pcg64::from_seed(4), &mut obs);
    for k in 0..25 {
        env.step(&[if k < 20 { 0.0 } else { 2.0 }], &mut obs).unwrap();
    }
    let (w, h) = env.render_size();
    let mut canvas = Canvas::new(w, h);
    env.render(&mut canvas);
    if let Ok(path) = std::env::var("TUMBLE_ENVS_FRAME") {
        let mut ppm = format!("P6 {w} {h} 255\n").into_bytes();
        ppm.extend_from_slice(canvas.pixels());
        std::fs::write(path, ppm).unwrap();
    }
    let count = |c: [u8; 3]| canvas.pixels().chunks_exact(3).filter(|p| *p == c).count();
    assert!(count([0, 0, 0]) > w * h / 3, "the sky");
    assert!(count([255, 255, 255]) > w * h / 20, "the moon");
    assert!(count([128, 102, 230]) > 300, "the lander");
    assert!(count([204, 204, 0]) > 150, "two flags");
    // The pad's flags stand at x = 240 and 360 px.
    let flag_row = h - (env.helipad().2 * SCALE) as usize - 45;
    assert_eq!(canvas.pixel(242, flag_row), [204, 204, 0]);
    assert_eq!(canvas.pixel(362, flag_row), [204, 204, 0]);
}

#[test]
fn the_largest_settings_and_any_actions_never_panic() {
    // Gusts at the largest powers, gravity at its limits, throttles at
    // and beyond their range: every step returns, finite.
    for (gravity, power) in [(-11.999, MAX_WIND_POWER), (-1e-6, -MAX_WIND_POWER), (-10.0, 0.0)] {
        let config = LanderConfig {
            continuous: true,
            gravity,
            enable_wind: true,
            wind_power: power,
            turbulence_power: power,
            particles: true,
        };
        let mut env = LunarLander::new(config).unwrap();
        let mut obs = [0.0f32; 8];
        env.reset(Pcg64::from_seed(9), &mut obs);
        let mut actions = Pcg64::from_seed(10);
        for _ in 0..300 {
            let a = [
                actions.uniform(-1e30, 1e30) as f32,
                actions.uniform(-2.0, 2.0) as f32,
            ];
            let step = env.step(&a, &mut obs).unwrap();
            assert!(step.reward.is_finite() && obs.iter().all(|v| v.is_finite()));
            if step.terminated {
                env.reset(env.rng(), &mut obs);
            }
            let mut canvas = Canvas::new(60, 40);
            env.render(&mut canvas);
        }
    }
    for power in [1.01 * MAX_WIND_POWER, 1e39, f64::INFINITY, f64::NAN] {
        let config = LanderConfig {
            wind_power: power,
            ..LanderConfig::default()
        };
        assert!(LunarLander::new(config).is_err(), "power {power}");
    }
}

/// A leg's contact flag says whether the leg touches the moon anywhere
/// (per body pair, as gymnasium's listener means it): a leg standing on
/// a vertex touches two of the moon's edges, and one edge's contact
/// ending while the other's begins must not read as a leg in the air.
/// Checked at every step of heuristic flights, where legs settle on
/// vertices; and no flight runs to the time limit (a landed lander that
/// reads its legs as in the air fires its engines on the ground forever).
#[test]
fn a_legs_contact_flag_is_whether_it_touches_the_moon_anywhere() {
    let mut on_two_edges = 0;
    for seed in 0..10 {
        let mut env = LunarLander::new(LanderConfig::default()).unwrap();
        let mut obs = [0.0f32; 8];
        env.reset(Pcg64::from_seed(seed), &mut obs);
        let mut ended = false;
        for _ in 0..MAX_EPISODE_STEPS {
            let a = heuristic(&obs, false);
            let step = env.step(&a[..1], &mut obs).unwrap();
            let parts = env.parts.as_ref().unwrap();
            for (k, &leg) in parts.legs.iter().enumerate() {
                let touching = parts.world.body_contacts(leg).unwrap().count();
                on_two_edges += usize::from(touching > 1);
                assert_eq!(obs[6 + k] == 1.0, touching > 0, "seed {seed}, leg {k}");
            }
            if step.terminated {
                ended = true;
                break;
            }
        }
        assert!(ended, "seed {seed}: ran to the time limit");
    }
    // The case that matters happened.
    assert!(on_two_edges > 0);
}

#[test]
fn a_landed_lander_comes_to_rest_within_two_seconds_of_touching() {
    // gymnasium's lander, flown by the continuous heuristic, earns its
    // landing bonus about a second after a leg first touches (53 steps,
    // mean over seeds 0..49: half a second to settle, half a second still
    // before it sleeps). The legs' limits must not rock the hull for
    // long: at Tumble's default joint damping it took 132.
    let config = LanderConfig {
        continuous: true,
        ..LanderConfig::default()
    };
    let mut after_touch = Vec::new();
    for seed in 0..10 {
        let flight = fly(config, seed);
        assert_eq!(flight.last, 100.0, "seed {seed} did not come to rest: {flight:?}");
        after_touch.push(flight.steps - flight.touched.expect("it landed on its legs"));
    }
    let mean = after_touch.iter().sum::<u32>() as f64 / 10.0;
    assert!(mean < 100.0, "{mean} steps from touch to rest: {after_touch:?}");
}
