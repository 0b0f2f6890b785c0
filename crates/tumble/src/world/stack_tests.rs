//! Heavy bodies on light ones: the stacks whose contacts are solved
//! exactly (`solver::contact_trees`) stay where they are put, carry their
//! whole weight, and hold or slide by Coulomb's law.

use super::tests::{ground, run, DT};
use super::*;
use crate::body::BodyDef;
use crate::shapes::{Polygon, ShapeDef};
use crate::test_rng::Rng;

/// A box of half-extents `(hx, hy)` and density `density` at `at`.
fn block(world: &mut World, at: Vec2, (hx, hy): (f32, f32), density: f32) -> BodyId {
    let b = world.create_body(&BodyDef::dynamic().at(at)).unwrap();
    let def = ShapeDef {
        density,
        ..ShapeDef::default()
    };
    world
        .create_shape(b, Polygon::new_box(hx, hy).unwrap(), &def)
        .unwrap();
    b
}

/// How far each of `bodies` is from `start`.
fn moved(world: &World, bodies: &[BodyId], start: &[Vec2]) -> Vec<f32> {
    bodies
        .iter()
        .zip(start)
        .map(|(&b, &s)| (world.position(b).unwrap() - s).length())
        .collect()
}

/// A 1 m box of density 1, one of density 100 on it, and another of
/// density 1 on top, exactly touching, on the ground.
fn light_heavy_light(world: &mut World) -> [BodyId; 3] {
    [(0.5, 1.0), (1.5, 100.0), (2.5, 1.0)]
        .map(|(y, density)| block(world, Vec2::new(0.0, y), (0.5, 0.5), density))
}

#[test]
fn a_heavy_box_on_a_light_one_rests_where_it_was_put_and_carries_its_weight() {
    // Soft contacts give under a load as springs as stiff as their own
    // light bodies allow: 1 kg under 100 kg sank 4.5 cm. Solved exactly,
    // the stack stays put, and the ground's contact carries the stack's
    // whole weight, 102 kg x 10 m/s^2, each step.
    let mut world = World::new(WorldSettings::default());
    let floor = ground(&mut world);
    let stack = light_heavy_light(&mut world);
    let start: Vec<Vec2> = stack.iter().map(|&b| world.position(b).unwrap()).collect();
    world.set_sleeping(false);
    run(&mut world, 600);
    for (k, d) in moved(&world, &stack, &start).into_iter().enumerate() {
        assert!(d < 1e-4, "box {k} moved {d} m");
    }
    let carried: f32 = world
        .contacts()
        .filter(|c| c.body_a == floor || c.body_b == floor)
        .flat_map(|c| c.manifold.points().iter().map(|p| p.normal_impulse))
        .sum();
    let weight = 102.0 * 10.0 * DT;
    assert!(
        (carried - weight).abs() < 1e-3 * weight,
        "the ground carries {carried} N s a step, the stack weighs {weight}"
    );
    for &b in &stack {
        assert!(world.linear_velocity(b).unwrap().length() < 1e-6);
    }
}

#[test]
fn a_heavy_box_dropped_on_a_light_one_stays_on_it() {
    // A 100 kg box dropped 1.5 m onto a 1 kg one, a little off center:
    // the light box is neither crushed into the ground nor squeezed out
    // from under it (Gauss-Seidel alone let it shoot out a metre, and
    // the heavy box fell to the ground). It slides a few centimetres as
    // the heavy one lands: the friction between them is Gauss-Seidel's.
    let mut world = World::new(WorldSettings::default());
    ground(&mut world);
    let light = block(&mut world, Vec2::new(0.0, 0.5), (0.5, 0.5), 1.0);
    let heavy = block(&mut world, Vec2::new(0.1, 3.0), (0.5, 0.5), 100.0);
    run(&mut world, 300);
    let (l, h) = (world.position(light).unwrap(), world.position(heavy).unwrap());
    assert!(
        (l - Vec2::new(0.0, 0.5)).length() < 0.1,
        "the light box went to {l:?}"
    );
    assert!((l.y - 0.5).abs() < 1e-3, "the light box sank to {l:?}");
    assert!(
        (h.y - 1.5).abs() < 1e-3 && (h.x - 0.1).abs() < 0.1,
        "the heavy box is at {h:?}"
    );
}

#[test]
fn a_heavy_stack_slides_as_one_block() {
    // A 2 m x 0.5 m slab of 1 kg under one of 100 kg, in gravity tilted
    // by (8, -10), with friction 0.6 every contact: the stack slides at
    // 8 - 6 = 2 m/s^2, 1 m in 1 s, the heavy slab carried by the light
    // one. Gauss-Seidel alone held the light slab nearly still (its soft
    // contacts gave under the load, and the friction its small impulse
    // bounded let the heavy one slide over it). The friction here is still
    // Gauss-Seidel's, converging slowly through the light body: the two
    // slip on each other by a fifth of that.
    let mut world = World::new(WorldSettings {
        gravity: Vec2::new(8.0, -10.0),
        ..WorldSettings::default()
    });
    ground(&mut world);
    let light = block(&mut world, Vec2::new(0.0, 0.25), (1.0, 0.25), 1.0);
    let heavy = block(&mut world, Vec2::new(0.0, 0.75), (1.0, 0.25), 100.0);
    run(&mut world, 60);
    for (name, b) in [("light", light), ("heavy", heavy)] {
        let x = world.position(b).unwrap().x;
        assert!(
            (x - 1.0).abs() < 0.25,
            "the {name} slab slid {x} m, Coulomb says 1"
        );
    }
    let y = world.position(heavy).unwrap().y;
    assert!((y - 0.75).abs() < 1e-3, "the heavy slab sank to {y}");
}

#[test]
fn a_pebble_squeezed_between_heavy_boxes_is_neither_crushed_nor_flung() {
    // In zero gravity, two 100 kg boxes pressed together with 500 N each
    // on a 0.1 m pebble of 0.01 kg between them: the pebble keeps the
    // boxes apart (Gauss-Seidel alone let them sink 5 cm into it each,
    // and shot it about at 0.6 m/s). (The first step, before the contacts
    // are marked for the exact solve, is Gauss-Seidel's: it nudges the
    // pebble at 8 cm/s.)
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    let left = block(&mut world, Vec2::new(-0.55, 0.0), (0.5, 0.5), 100.0);
    let right = block(&mut world, Vec2::new(0.55, 0.0), (0.5, 0.5), 100.0);
    let pebble = block(&mut world, Vec2::ZERO, (0.05, 0.05), 1.0);
    let mut fastest = 0.0f32;
    for step in 0..120 {
        world.apply_force_to_center(left, Vec2::new(500.0, 0.0)).unwrap();
        world
            .apply_force_to_center(right, Vec2::new(-500.0, 0.0))
            .unwrap();
        world.step(DT);
        if step > 0 {
            fastest = fastest.max(world.linear_velocity(pebble).unwrap().length());
        }
    }
    let p = world.position(pebble).unwrap();
    assert!(p.length() < 1e-3, "the pebble went to {p:?}");
    assert!(fastest < 1e-3, "the pebble reached {fastest} m/s");
    let gap = world.position(right).unwrap().x - world.position(left).unwrap().x;
    assert!((gap - 1.1).abs() < 1e-3, "the boxes' centers are {gap} m apart");
}

#[test]
fn towers_of_heavy_and_light_boxes_of_any_sizes_stand_still() {
    // Random towers of 2 to 4 centered boxes, 0.4 to 2 m wide, densities
    // 0.5 to 200, the second box ten to two hundred times the first's
    // mass, built exactly touching: after 5 s no box has sunk a
    // millimetre. (Gauss-Seidel alone sank them by centimetres.)
    let mut rng = Rng(0x57ac);
    for tower in 0..40 {
        let mut world = World::new(WorldSettings::default());
        ground(&mut world);
        world.set_sleeping(false);
        let height = 2 + (rng.range(0.0, 3.0) as usize);
        let mut y = 0.0;
        let (mut boxes, mut masses) = (Vec::new(), Vec::<f32>::new());
        for k in 0..height {
            let (hx, hy) = (rng.range(0.2, 1.0), rng.range(0.2, 0.6));
            let area = 4.0 * hx * hy;
            let density = if k == 1 {
                masses[0] * rng.range(10.0, 200.0) / area
            } else {
                rng.range(0.5, 200.0)
            };
            masses.push(density * area);
            boxes.push(block(&mut world, Vec2::new(0.0, y + hy), (hx, hy), density));
            y += 2.0 * hy;
        }
        let start: Vec<Vec2> = boxes.iter().map(|&b| world.position(b).unwrap()).collect();
        run(&mut world, 300);
        for (k, (&b, s)) in boxes.iter().zip(&start).enumerate() {
            let sunk = s.y - world.position(b).unwrap().y;
            assert!(
                sunk.abs() < 1e-3,
                "tower {tower} (masses {masses:?}): box {k} sank {sunk} m"
            );
        }
    }
}
