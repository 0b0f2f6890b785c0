//! Soak: random shapes keep pouring into a closed box for thousands of
//! steps while the oldest are removed and random bodies are kicked hard.
//! Nothing may become NaN, panic, freeze, or leave the world.
//!
//! 10 000 steps by default (a few seconds in the test profile). For the
//! long run:
//!
//! ```text
//! TUMBLE_SOAK_STEPS=100000 cargo test --release -p tumble-scenes --test soak -- --nocapture
//! ```

use std::collections::VecDeque;
use std::time::Instant;
use tumble::{BodyDef, BodyId, BodyType, Polygon, Vec2, World};
use tumble_scenes::{add_ground, add_pile_walls, default_material, new_world, random_shape, Rng};

/// A new body every this many steps.
const SPAWN_EVERY: u64 = 5;
/// At most this many dynamic bodies; past it the oldest is removed.
const CAP: usize = 200;
/// A random body is kicked every this many steps.
const KICK_EVERY: u64 = 97;
/// No body may ever be farther than this from the origin on either axis.
const WORLD_BOUND: f32 = 1000.0;
/// The box's inside: the walls' inner faces and the lid's underside.
const INSIDE_HALF_WIDTH: f32 = tumble_scenes::PILE_HALF_WIDTH;
const LID_Y: f32 = 20.0;

fn steps_from_env() -> u64 {
    match std::env::var("TUMBLE_SOAK_STEPS") {
        Ok(s) => s.parse().expect("TUMBLE_SOAK_STEPS is a whole number of steps"),
        Err(_) => 10_000,
    }
}

/// The scenes' pile container with a lid, so kicked bodies stay in play.
fn closed_box() -> World {
    let mut world = new_world(tumble::SolverSettings::default());
    add_ground(&mut world);
    add_pile_walls(&mut world);
    let lid = world
        .create_body(&BodyDef::static_body().at(Vec2::new(0.0, LID_Y + 0.5)))
        .unwrap();
    let shape = Polygon::new_box(INSIDE_HALF_WIDTH + 1.0, 0.5).unwrap();
    world.create_shape(lid, shape, &default_material()).unwrap();
    world
}

#[test]
fn random_shapes_pour_into_a_box_without_nan_or_escape() {
    pour(0x50a4, steps_from_env());
}

/// Two more pours, each of which once let a body out: seed 2 kicked a
/// body through a wall (the kick came between steps and the broadphase
/// looked for the wall one step late), seed 11 sank a small triangle
/// through the ground (a 0.3 m edge on an 800 m ground counted as one
/// point, and the triangle rocked from corner to corner).
#[test]
fn pours_that_once_escaped_stay_in_the_box() {
    for seed in [2, 11] {
        pour(seed, 6_000);
    }
}

/// Pours `steps` steps of shapes drawn from `seed`, kicking and removing
/// bodies as it goes, and checks every body every step.
fn pour(seed: u64, steps: u64) {
    let mut world = closed_box();
    let statics = world.body_count();
    let mut rng = Rng::new(seed);
    let mut live: VecDeque<BodyId> = VecDeque::new();
    let mut spawned = 0usize;
    let mut kicks = 0u32;
    let mut outside_box = 0u32;
    let start = Instant::now();
    for step in 0..steps {
        if step % SPAWN_EVERY == 0 {
            let x = rng.range(-INSIDE_HALF_WIDTH + 0.6, INSIDE_HALF_WIDTH - 0.6);
            let def = BodyDef::dynamic()
                .at(Vec2::new(x, rng.range(LID_Y - 2.5, LID_Y - 1.0)))
                .with_angle(rng.range(0.0, std::f32::consts::TAU))
                .with_velocity(Vec2::new(rng.range(-3.0, 3.0), rng.range(-5.0, 0.0)));
            let body = world.create_body(&def).unwrap();
            world
                .create_shape(body, random_shape(&mut rng), &default_material())
                .unwrap();
            live.push_back(body);
            spawned += 1;
            if live.len() > CAP {
                let oldest = live.pop_front().unwrap();
                world.remove_body(oldest).unwrap();
                assert!(!world.contains_body(oldest));
            }
        }
        if step % KICK_EVERY == 0 && !live.is_empty() {
            // A kick of 20 to 60 m/s in a random direction, off center so it
            // spins the body too.
            let body = live[rng.below(live.len() as u32) as usize];
            let mass = world.mass_data(body).unwrap().mass;
            let angle = rng.range(0.0, std::f32::consts::TAU);
            let speed = rng.range(20.0, 60.0);
            let impulse = mass * speed * Vec2::new(angle.cos(), angle.sin());
            let at = world.center_of_mass(body).unwrap() + Vec2::new(0.1, 0.05);
            world.apply_linear_impulse(body, impulse, at).unwrap();
            kicks += 1;
        }
        world.step(1.0 / 60.0);

        assert!(
            world.frozen_bodies().is_empty(),
            "step {step}: {:?} froze",
            world.frozen_bodies()
        );
        assert_eq!(world.body_count(), statics + live.len(), "step {step}");
        for body in world.bodies() {
            let xf = world.transform(body).unwrap();
            let v = world.linear_velocity(body).unwrap();
            let w = world.angular_velocity(body).unwrap();
            let finite = xf.p.is_finite() && xf.q.c.is_finite() && xf.q.s.is_finite();
            assert!(
                finite && v.is_finite() && w.is_finite(),
                "step {step}: {body:?} is not finite"
            );
            assert!(
                xf.p.x.abs() < WORLD_BOUND && xf.p.y.abs() < WORLD_BOUND,
                "step {step}: {body:?} left the world at {}",
                xf.p
            );
            if world.body_type(body).unwrap() == BodyType::Dynamic
                && (xf.p.x.abs() > INSIDE_HALF_WIDTH + 0.5 || xf.p.y < -0.5 || xf.p.y > LID_Y + 0.5)
            {
                outside_box += 1;
            }
        }
    }
    // Nothing tunnels out of the box, however hard it is kicked.
    assert_eq!(outside_box, 0, "body-steps with a center outside the box");
    let expected_live = spawned.min(CAP);
    assert_eq!(live.len(), expected_live);
    assert_eq!(world.body_count(), statics + expected_live);
    println!(
        "soak (seed {seed}): {steps} steps in {:.1} s, {spawned} bodies spawned, {} live, {kicks} kicks, \
         {} contacts at the end, {outside_box} body-steps with a center outside the box",
        start.elapsed().as_secs_f64(),
        world.body_count(),
        world.contact_count(),
    );
}
