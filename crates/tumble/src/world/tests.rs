//! World-level tests: analytic motion, conservation, rest, handles, errors.

use super::*;
use crate::body::BodyDef;
use crate::error::Error;
use crate::filter::QueryFilter;
use crate::settings::Coloring;
use crate::shapes::ShapeDef;
use crate::shapes::{Capsule, Circle, Polygon};
use crate::shapes::{Shape, ShapeError};

pub(super) const DT: f32 = 1.0 / 60.0;

/// A body made from `def` with one shape of the default material.
pub(super) fn body_with(world: &mut World, def: &BodyDef, shape: impl Into<Shape>) -> BodyId {
    body_made_of(world, def, shape, &ShapeDef::default())
}

/// A body made from `def` with one shape of material `material`.
pub(super) fn body_made_of(
    world: &mut World,
    def: &BodyDef,
    shape: impl Into<Shape>,
    material: &ShapeDef,
) -> BodyId {
    let b = world.create_body(def).unwrap();
    world.create_shape(b, shape, material).unwrap();
    b
}

pub(super) fn ground(world: &mut World) -> BodyId {
    body_with(
        world,
        &BodyDef::static_body().at(Vec2::new(0.0, -1.0)),
        Polygon::new_box(50.0, 1.0).unwrap(),
    )
}

pub(super) fn unit_box(world: &mut World, at: Vec2) -> BodyId {
    body_with(
        world,
        &BodyDef::dynamic().at(at),
        Polygon::new_box(0.5, 0.5).unwrap(),
    )
}

/// A world without gravity.
pub(super) fn zero_gravity() -> World {
    World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    })
}

/// Steps `world` `steps` times by [`DT`].
pub(super) fn run(world: &mut World, steps: usize) {
    for _ in 0..steps {
        world.step(DT);
    }
}

/// A static wall 0.1 m thick and 10 m tall centered at (`x`, 0).
fn thin_wall(world: &mut World, x: f32) {
    body_with(
        world,
        &BodyDef::static_body().at(Vec2::new(x, 0.0)),
        Polygon::new_box(0.05, 5.0).unwrap(),
    );
}

#[test]
fn a_slow_body_far_from_the_origin_moves_as_its_velocity_says() {
    // At x = 1000 a float's spacing is 6.1e-5 m; 1e-4 m/s moves a body
    // 1.7e-6 m a step, which rounds away each step unless the step
    // carries what the position could not hold. After 600 steps (10 s)
    // it has moved 1e-3 m, to within the spacing.
    let mut world = zero_gravity();
    let start = Vec2::new(1000.0, -1000.0);
    let speed = Vec2::new(1e-4, -2e-4);
    let def = BodyDef::dynamic().at(start).with_velocity(speed);
    let b = body_with(&mut world, &def, Circle::new(Vec2::ZERO, 0.5).unwrap());
    world.set_sleeping(false);
    for _ in 0..600 {
        world.step(DT);
    }
    let moved = world.position(b).unwrap() - start;
    let want = speed * (600.0 * DT);
    assert!(
        (moved - want).length() < 7e-5,
        "moved {moved:?}, expected {want:?}"
    );
}

#[test]
fn a_box_tower_at_rest_settles_to_a_standstill() {
    // Box on box, the soft contacts converge on their loads: once the
    // tower has settled each box stands still to well under a micron a
    // second (the velocity the solve's unfinished iterations would
    // leave, 1e-5 m/s at the top, if each step's motion rounded back in
    // place).
    let mut world = World::default();
    ground(&mut world);
    let boxes: Vec<BodyId> = (0..7)
        .map(|i| unit_box(&mut world, Vec2::new(0.0, 0.5 + i as f32 * 1.01)))
        .collect();
    world.set_sleeping(false);
    let mut worst = 0.0f32;
    for step in 0..700 {
        world.step(DT);
        if step >= 640 {
            for &b in &boxes {
                worst = worst.max(world.linear_velocity(b).unwrap().length());
            }
        }
    }
    assert!(worst < 2e-6, "fastest box over the last second: {worst} m/s");
}

#[test]
fn free_fall_matches_the_integrators_closed_form() {
    // Symplectic Euler over k substeps of h: v_k = v0 + k g h,
    // y_k = y0 + k v0 h + g h^2 k(k+1)/2.
    let mut world = World::default();
    let substeps = world.solver_settings().substeps;
    let v0 = 3.0;
    let b = world
        .create_body(
            &BodyDef::dynamic()
                .at(Vec2::new(0.0, 100.0))
                .with_velocity(Vec2::new(1.0, v0)),
        )
        .unwrap();
    world
        .create_shape(b, Circle::new(Vec2::ZERO, 0.5).unwrap(), &ShapeDef::default())
        .unwrap();
    let n = 90;
    for _ in 0..n {
        world.step(DT);
    }
    let nf = n as f32;
    let g = -10.0;
    let h = DT / substeps as f32;
    let k = (n * substeps) as f32;
    let y = 100.0 + k * v0 * h + g * h * h * k * (k + 1.0) / 2.0;
    let p = world.position(b).unwrap();
    assert!((p.y - y).abs() < 1e-3, "y = {} expected {}", p.y, y);
    assert!((p.x - nf * DT).abs() < 1e-4);
    let v = world.linear_velocity(b).unwrap();
    assert!((v.y - (v0 + nf * g * DT)).abs() < 1e-3);
}

#[test]
fn box_dropped_on_ground_comes_to_rest_at_half_a_metre() {
    let mut world = World::default();
    ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 4.0));
    for _ in 0..180 {
        world.step(DT);
    }
    let p = world.position(b).unwrap();
    assert!((p.y - 0.5).abs() < 0.01, "y = {}", p.y);
    assert!(p.x.abs() < 1e-3 && world.angle(b).unwrap().abs() < 1e-3);
}

#[test]
fn box_at_rest_shows_zero_velocity_after_two_seconds() {
    let mut world = World::default();
    ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 0.5));
    for _ in 0..120 {
        world.step(DT);
    }
    let v = world.linear_velocity(b).unwrap();
    let w = world.angular_velocity(b).unwrap();
    assert!(v.length() < 1e-4 && w.abs() < 1e-4, "v = {v}, w = {w}");
    // Resting flat: two contact points, each carrying half the weight.
    let c = world.contacts().next().unwrap();
    assert_eq!(c.manifold.count, 2);
    let weight_impulse = 10.0 * DT; // m g dt, m = 1
    let total: f32 = c.manifold.points().iter().map(|p| p.normal_impulse).sum();
    assert!((total - weight_impulse).abs() < 1e-3, "{total}");
}

#[test]
fn head_on_collision_conserves_linear_momentum() {
    let mut world = zero_gravity();
    let a = unit_box(&mut world, Vec2::new(-2.0, 0.0));
    let b = unit_box(&mut world, Vec2::new(2.0, 0.1));
    world.set_linear_velocity(a, Vec2::new(5.0, 0.0)).unwrap();
    world.set_linear_velocity(b, Vec2::new(-3.0, 0.0)).unwrap();
    let momentum = |w: &World| w.linear_velocity(a).unwrap() + w.linear_velocity(b).unwrap();
    let before = momentum(&world);
    let mut touched = false;
    for _ in 0..120 {
        world.step(DT);
        touched |= world
            .contacts()
            .any(|c| c.manifold.points().iter().any(|p| p.normal_impulse > 0.0));
    }
    assert!(touched, "the boxes never collided");
    let after = momentum(&world);
    assert!((after - before).length() < 1e-4, "{before} -> {after}");
    // They collided: neither keeps its original velocity.
    assert!(world.linear_velocity(a).unwrap().x < 4.0);
}

#[test]
fn same_world_stepped_twice_is_bit_identical() {
    let build = || {
        let mut world = World::default();
        ground(&mut world);
        for i in 0..12 {
            let b = unit_box(&mut world, Vec2::new((i % 4) as f32 * 0.7, 1.0 + i as f32 * 1.1));
            world.set_angular_velocity(b, 0.3 * i as f32).unwrap();
        }
        world
    };
    let run = |mut world: World| {
        for _ in 0..200 {
            world.step(DT);
        }
        world
            .bodies()
            .map(|b| {
                let xf = world.transform(b).unwrap();
                [
                    xf.p.x.to_bits(),
                    xf.p.y.to_bits(),
                    xf.q.c.to_bits(),
                    xf.q.s.to_bits(),
                ]
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run(build()), run(build()));
}

#[test]
fn stale_handles_are_errors_and_slots_get_new_generations() {
    let mut world = World::default();
    let a = unit_box(&mut world, Vec2::ZERO);
    let shapes = world.body_shapes(a).unwrap();
    world.remove_body(a).unwrap();
    assert_eq!(world.position(a), Err(BodyError::StaleHandle));
    assert_eq!(world.remove_body(a), Err(BodyError::StaleHandle));
    assert_eq!(world.shape(shapes[0]).err(), Some(BodyError::StaleHandle));
    let b = unit_box(&mut world, Vec2::ONE);
    assert_eq!(a.index(), b.index());
    assert_ne!(a, b);
    assert!(world.contains_body(b) && !world.contains_body(a));
    assert_eq!(world.body_count(), 1);
}

#[test]
fn removing_a_body_removes_its_contacts() {
    let mut world = World::default();
    ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 0.5));
    world.step(DT);
    assert_eq!(world.contact_count(), 1);
    world.remove_body(b).unwrap();
    assert_eq!(world.contact_count(), 0);
    assert_eq!(world.shape_count(), 1);
    world.step(DT);
}

#[test]
fn bad_input_is_named_and_leaves_the_world_unchanged() {
    let mut world = World::default();
    let b = unit_box(&mut world, Vec2::ZERO);
    let before = (
        world.body_count(),
        world.shape_count(),
        world.mass_data(b).unwrap(),
    );
    assert_eq!(
        world.create_body(&BodyDef::dynamic().at(Vec2::new(f32::NAN, 0.0))),
        Err(BodyError::NonFinite("position"))
    );
    let bad_density = ShapeDef {
        density: 0.0,
        ..ShapeDef::default()
    };
    let circle = Circle::new(Vec2::ZERO, 1.0).unwrap();
    assert_eq!(
        world.create_shape(b, circle, &bad_density),
        Err(Error::Shape(ShapeError::NonPositiveDensity))
    );
    assert_eq!(
        world.set_linear_velocity(b, Vec2::new(f32::INFINITY, 0.0)),
        Err(BodyError::NonFinite("linear velocity"))
    );
    assert_eq!(
        world.apply_force(b, Vec2::new(f32::NAN, 0.0), Vec2::ZERO),
        Err(BodyError::NonFinite("force"))
    );
    assert!(world
        .create_concave(b, &[Vec2::ZERO, Vec2::X], &ShapeDef::default())
        .is_err());
    let after = (
        world.body_count(),
        world.shape_count(),
        world.mass_data(b).unwrap(),
    );
    assert_eq!(before, after);
    assert_eq!(world.linear_velocity(b).unwrap(), Vec2::ZERO);
}

#[test]
fn compound_body_mass_and_spin_about_its_center() {
    let mut world = zero_gravity();
    let b = world.create_body(&BodyDef::dynamic()).unwrap();
    let left = Polygon::new_offset_box(0.5, 0.5, Vec2::new(1.5, 0.0), 0.0).unwrap();
    let right = Polygon::new_offset_box(0.5, 0.5, Vec2::new(2.5, 0.0), 0.0).unwrap();
    world.create_shape(b, left, &ShapeDef::default()).unwrap();
    world.create_shape(b, right, &ShapeDef::default()).unwrap();
    let md = world.mass_data(b).unwrap();
    assert!((md.mass - 2.0).abs() < 1e-5);
    assert!((md.center - Vec2::new(2.0, 0.0)).length() < 1e-5);
    // A 2 x 1 box: m (w^2 + h^2) / 12 = 2 * 5 / 12.
    assert!((md.inertia - 10.0 / 12.0).abs() < 1e-4);
    // Spinning, it turns about its center of mass, which stays put.
    world.set_angular_velocity(b, 3.0).unwrap();
    for _ in 0..100 {
        world.step(DT);
    }
    assert!((world.center_of_mass(b).unwrap() - Vec2::new(2.0, 0.0)).length() < 1e-4);
}

#[test]
fn kinematic_body_moves_at_its_velocity_and_pushes_dynamics() {
    let mut world = zero_gravity();
    let k = body_with(
        &mut world,
        &BodyDef::kinematic().with_velocity(Vec2::new(2.0, 0.0)),
        Polygon::new_box(0.5, 0.5).unwrap(),
    );
    let d = unit_box(&mut world, Vec2::new(3.0, 0.0));
    for _ in 0..120 {
        world.step(DT);
    }
    assert!((world.position(k).unwrap().x - 4.0).abs() < 1e-3);
    assert!(
        world.position(d).unwrap().x > 4.5,
        "pushed ahead of the kinematic body"
    );
    assert_eq!(world.linear_velocity(k).unwrap(), Vec2::new(2.0, 0.0));
}

#[test]
fn capsule_lying_on_ground_rests_without_rocking() {
    let mut world = World::default();
    ground(&mut world);
    let b = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(0.0, 0.3)))
        .unwrap();
    world
        .create_shape(
            b,
            Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.25).unwrap(),
            &ShapeDef::default(),
        )
        .unwrap();
    for _ in 0..180 {
        world.step(DT);
    }
    assert!(world.angle(b).unwrap().abs() < 1e-3);
    assert!(world.angular_velocity(b).unwrap().abs() < 1e-4);
    assert!((world.position(b).unwrap().y - 0.25).abs() < 0.01);
}

#[test]
fn huge_torque_freezes_the_body_instead_of_spreading_nan() {
    let mut world = World::default();
    ground(&mut world);
    let a = unit_box(&mut world, Vec2::new(0.0, 0.5));
    let b = unit_box(&mut world, Vec2::new(0.0, 1.5));
    world.step(DT);
    // A unit box's spin overflows in the step.
    world.apply_torque(b, f32::MAX).unwrap();
    for _ in 0..10 {
        world.step(DT);
    }
    assert_eq!(world.frozen_bodies(), &[b]);
    let pa = world.position(a).unwrap();
    assert!(pa.is_finite() && (pa.y - 0.5).abs() < 0.01);
    assert!(world.position(b).unwrap().is_finite());
    // Forces on the frozen body do not pile up (they would never be
    // applied): the largest, step after step, are all taken, and once set
    // free the body falls under gravity alone.
    for _ in 0..10 {
        world.apply_force_to_center(b, Vec2::splat(f32::MAX)).unwrap();
        world.apply_torque(b, f32::MAX).unwrap();
        world.step(DT);
    }
    world.set_transform(b, Vec2::new(5.0, 5.0), 0.0).unwrap();
    world.step(DT);
    let v = world.linear_velocity(b).unwrap();
    assert!(v.x == 0.0 && v.y < 0.0 && v.y > -1.0, "{v}");
    assert_eq!(world.angular_velocity(b).unwrap(), 0.0);
}

#[test]
fn fixed_stepper_takes_whole_steps_and_clamps_long_frames() {
    let mut s = FixedStepper::new(60.0, 4);
    let mut n = 0;
    assert_eq!(s.advance(1.0 / 120.0, |_| n += 1), 0);
    assert_eq!(s.advance(1.0 / 120.0 + 1e-6, |_| n += 1), 1);
    assert_eq!(s.advance(10.0, |_| n += 1), 4);
    assert_eq!(n, 5);
    assert!(s.alpha() < 1.0);
}

#[test]
fn ray_cast_and_point_query_find_the_box() {
    let mut world = World::default();
    ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(3.0, 2.0));
    let hit = world
        .ray_cast_closest(
            Vec2::new(3.0, 10.0),
            Vec2::new(0.0, -20.0),
            QueryFilter::default(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(hit.body, b);
    assert!((hit.point.y - 2.5).abs() < 1e-4);
    assert!((hit.normal - Vec2::Y).length() < 1e-4);
    let mut at = Vec::new();
    world
        .overlap_point(Vec2::new(3.2, 2.3), QueryFilter::default(), &mut at)
        .unwrap();
    assert_eq!(at.len(), 1);
    assert_eq!(world.shape_body(at[0]).unwrap(), b);
}

#[test]
fn fast_bodies_do_not_tunnel_through_a_thin_wall() {
    // A 0.1 m wall and bodies at up to 300 m/s: 5 m per step, fifty times
    // the wall's thickness. Speculative contacts sized by the closing speed
    // stop each one at the wall.
    for (speed, shape) in [
        (100.0, Shape::from(Circle::new(Vec2::ZERO, 0.1).unwrap())),
        (300.0, Shape::from(Circle::new(Vec2::ZERO, 0.1).unwrap())),
        (200.0, Shape::from(Polygon::new_box(0.2, 0.1).unwrap())),
        (
            150.0,
            Shape::from(Capsule::new(Vec2::new(-0.2, 0.0), Vec2::new(0.2, 0.0), 0.1).unwrap()),
        ),
    ] {
        let mut world = zero_gravity();
        thin_wall(&mut world, 10.0);
        let b = world
            .create_body(
                &BodyDef::dynamic()
                    .at(Vec2::new(0.0, 0.3))
                    .with_velocity(Vec2::new(speed, 0.0)),
            )
            .unwrap();
        world.create_shape(b, shape, &ShapeDef::default()).unwrap();
        for _ in 0..60 {
            world.step(DT);
        }
        let x = world.position(b).unwrap().x;
        assert!(
            x < 10.0,
            "{shape:?} at {speed} m/s ended at x = {x}: through the wall"
        );
    }
}

#[test]
fn a_body_kicked_between_steps_does_not_tunnel() {
    // At rest 0.6 m from a 0.1 m wall, then kicked to 120 m/s (2 m a
    // step) by an impulse, a new velocity, or a new velocity far away and
    // then a teleport back: the very next step must find the wall,
    // though last step's fat box was nowhere near it.
    for kick in 0..3 {
        let mut world = zero_gravity();
        thin_wall(&mut world, 1.0);
        let b = body_with(
            &mut world,
            &BodyDef::dynamic(),
            Polygon::new_box(0.2, 0.2).unwrap(),
        );
        for _ in 0..10 {
            world.step(DT);
        }
        let velocity = Vec2::new(120.0, 0.0);
        if kick == 0 {
            let mass = world.mass_data(b).unwrap().mass;
            world.apply_linear_impulse_to_center(b, mass * velocity).unwrap();
        } else {
            world.set_linear_velocity(b, velocity).unwrap();
        }
        if kick == 2 {
            // Given its speed far away, then teleported in front of the
            // wall: the teleport must keep the look ahead.
            world.set_transform(b, Vec2::new(-20.0, 0.0), 0.0).unwrap();
            world.step(DT);
            world.set_linear_velocity(b, velocity).unwrap();
            world.set_transform(b, Vec2::ZERO, 0.0).unwrap();
        }
        for _ in 0..10 {
            world.step(DT);
        }
        let x = world.position(b).unwrap().x;
        assert!(x < 1.0, "kick {kick}: the box ended at x = {x}, through the wall");
    }
}

#[test]
fn a_body_created_moving_finds_the_wall_on_its_first_step() {
    let mut world = zero_gravity();
    thin_wall(&mut world, 1.0);
    let b = body_with(
        &mut world,
        &BodyDef::dynamic().with_velocity(Vec2::new(120.0, 0.0)),
        Polygon::new_box(0.2, 0.2).unwrap(),
    );
    for _ in 0..10 {
        world.step(DT);
    }
    let x = world.position(b).unwrap().x;
    assert!(x < 1.0, "the box ended at x = {x}, through the wall");
}

#[test]
fn a_fast_shapes_fat_box_looks_ahead_at_most_the_margin_past_its_next_step() {
    // A 1 m box moving at `speed`, stepped until its box is rebuilt: the
    // new fat box covers where it is and its next step's travel, plus its
    // own small margin and a look-ahead of two more steps' travel, at
    // most 10 cm (Box2D's fat margin).
    let reach = |speed: f32| {
        let mut world = zero_gravity();
        let def = BodyDef::dynamic().with_velocity(Vec2::new(speed, 0.0));
        let b = body_with(&mut world, &def, Polygon::new_box(0.5, 0.5).unwrap());
        let shape = world.bodies[b.index].shapes[0];
        let first = world.fat_boxes[shape as usize];
        while world.fat_boxes[shape as usize] == first {
            world.step(DT);
        }
        let front = world.position(b).unwrap().x + 0.5;
        world.fat_boxes[shape as usize].max.x - (front + speed * DT)
    };
    let extent = Shape::from(Polygon::new_box(0.5, 0.5).unwrap()).extent();
    let margin = crate::settings::AABB_MARGIN_FRACTION * extent;
    // Slow: two more steps of travel ahead.
    let slow = reach(1.5);
    assert!((slow - (margin + 2.0 * 1.5 * DT)).abs() < 1e-4, "{slow}");
    // Fast: 10 cm, not two steps of 30 m/s (1 m).
    let fast = reach(30.0);
    assert!(
        (fast - (margin + crate::settings::AABB_MARGIN)).abs() < 1e-4,
        "{fast}"
    );
}

#[test]
fn small_shapes_get_small_fat_boxes() {
    // Two boxes side by side 5 cm apart, at rest, after one step.
    let contacts_between = |half: f32| {
        let mut world = zero_gravity();
        let shape = Polygon::new_box(half, half).unwrap();
        for x in [0.0, 2.0 * half + 0.05] {
            body_with(&mut world, &BodyDef::dynamic().at(Vec2::new(x, 0.0)), shape);
        }
        world.step(DT);
        world.contact_count()
    };
    // 0.25 m boxes: a fixed 0.1 m margin would pair them (and every
    // neighbour in a pile of small shapes); a margin sized to the shape
    // does not.
    assert_eq!(contacts_between(0.125), 0);
    // 2 m boxes the same 5 cm apart do pair: contacts are kept early for
    // what can reach them.
    assert_eq!(contacts_between(1.0), 1);
}

/// A world solving contacts with the soft step, sleeping off.
fn soft_world() -> World {
    let mut world = World::new(WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    });
    let settings = SolverSettings {
        position_correction: crate::settings::PositionCorrection::SoftStep,
        ..*world.solver_settings()
    };
    world.set_solver_settings(settings).unwrap();
    world
}

/// The soft contact's angular frequency against a static body (`fixed`)
/// or a moving one, at the world's settings: twice the setting against a
/// static body, the setting capped at an eighth of the substep rate.
fn contact_omega(world: &World, fixed: bool) -> f32 {
    let s = world.solver_settings();
    let h = DT / s.substeps as f32;
    let hertz = s.contact_hertz.min(0.125 / h) * if fixed { 2.0 } else { 1.0 };
    2.0 * std::f32::consts::PI * hertz
}

#[test]
fn a_soft_contact_gives_like_a_spring_of_its_frequency() {
    // Resting on the ground, a box sinks until the soft contacts' push
    // balances its weight. Each of its two points is a spring as stiff as
    // that point's own effective mass allows (omega^2 / k, k = 1 / m +
    // w^2 / I at a corner w = 0.5 m from the center), carrying half the
    // weight: each sinks k (m g / 2) / omega^2 = (1 + m w^2 / I) g /
    // (2 omega^2), 1.25 g / omega^2 for a square. Box2D's box sinks the
    // same (8.79e-5 m in Box2D v3.2 at its defaults, as here).
    let mut world = soft_world();
    ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 0.5));
    for _ in 0..240 {
        world.step(DT);
    }
    let omega = contact_omega(&world, true);
    let (m, inertia, w) = (1.0, 1.0 / 6.0, 0.5);
    let expected = (1.0 + m * w * w / inertia) * 10.0 / (2.0 * omega * omega);
    let sink = 0.5 - world.position(b).unwrap().y;
    assert!(
        (sink - expected).abs() < 0.02 * expected,
        "sank {sink} m, the corners' springs sink {expected} m"
    );
    let c = world.contacts().next().unwrap();
    for p in c.manifold.points() {
        assert!(
            (-p.separation - expected).abs() < 0.02 * expected,
            "overlap {}",
            -p.separation
        );
    }
    assert!(world.angle(b).unwrap().abs() < 1e-6, "both corners sink alike");
}

#[test]
fn a_soft_stack_gives_contact_by_contact_as_box2d() {
    // A stack of n unit boxes: the contact under box i (from the top,
    // 1-based) carries i boxes, half at each corner. Between two boxes a
    // corner's effective mass is k = 2 (1 / m + w^2 / I) = 5 and the
    // spring omega^2 / k; on the ground k = 2.5 at twice the frequency.
    // The top sinks by the sum of the overlaps. Box2D's and Rapier's
    // stacks of 40 sink the same 0.5523 m (the block update that scaled
    // the whole 2x2 matrix sank it 0.4419 m: see `scalar::soft_block`).
    let n = 30;
    let mut world = soft_world();
    ground(&mut world);
    let boxes: Vec<_> = (0..n)
        .map(|i| unit_box(&mut world, Vec2::new(0.0, 0.5 + i as f32)))
        .collect();
    for _ in 0..600 {
        world.step(DT);
    }
    let (omega, omega_fixed) = (contact_omega(&world, false), contact_omega(&world, true));
    let g = 10.0;
    let between: f32 = (1..n).map(|i| 5.0 * (i as f32 * g / 2.0) / (omega * omega)).sum();
    let on_ground = 2.5 * (n as f32 * g / 2.0) / (omega_fixed * omega_fixed);
    let expected = between + on_ground;
    let top = boxes[n - 1];
    let sink = (n as f32 - 0.5) - world.position(top).unwrap().y;
    assert!(
        (sink - expected).abs() < 0.01 * expected,
        "the top sank {sink} m, the contacts' springs sink it {expected} m"
    );
    for &b in &boxes {
        assert!(world.position(b).unwrap().x.abs() < 1e-3, "{b:?} moved sideways");
    }
}

#[test]
fn a_soft_stack_of_twenty_stands_straight() {
    let mut world = soft_world();
    ground(&mut world);
    let boxes: Vec<_> = (0..20)
        .map(|i| unit_box(&mut world, Vec2::new(0.0, 0.5 + i as f32)))
        .collect();
    for _ in 0..600 {
        world.step(DT);
    }
    for &b in &boxes {
        let p = world.position(b).unwrap();
        assert!(p.x.abs() < 1e-3, "{b:?} moved sideways to {p}");
    }
    // It gives under its own weight, a few millimetres a layer.
    let sink = 19.5 - world.position(boxes[19]).unwrap().y;
    assert!(sink > 0.0 && sink < 0.2, "the top sank {sink} m");
}

/// A 1 m box at `at` moving at `v`, of restitution `e`.
fn bouncy_box(world: &mut World, at: Vec2, v: Vec2, e: f32) -> BodyId {
    let b = world
        .create_body(&BodyDef::dynamic().at(at).with_velocity(v))
        .unwrap();
    let def = ShapeDef {
        restitution: e,
        ..ShapeDef::default()
    };
    world
        .create_shape(b, Polygon::new_box(0.5, 0.5).unwrap(), &def)
        .unwrap();
    b
}

#[test]
fn elastic_equal_boxes_meeting_face_on_exchange_their_velocities() {
    let mut world = zero_gravity();
    let a = bouncy_box(&mut world, Vec2::new(-2.0, 0.0), Vec2::new(6.0, 0.0), 1.0);
    let b = bouncy_box(&mut world, Vec2::new(2.0, 0.0), Vec2::new(-2.0, 0.0), 1.0);
    for _ in 0..60 {
        world.step(DT);
    }
    let (va, vb) = (
        world.linear_velocity(a).unwrap(),
        world.linear_velocity(b).unwrap(),
    );
    assert!(
        (va.x + 2.0).abs() < 0.02 && (vb.x - 6.0).abs() < 0.06,
        "{va} {vb}"
    );
    for body in [a, b] {
        let w = world.angular_velocity(body).unwrap();
        assert!(w.abs() < 0.01, "{body:?} spins at {w} rad/s");
    }
    // Momentum 4 kg m/s throughout, energy kept.
    assert!((va.x + vb.x - 4.0).abs() < 1e-4);
    let energy = 0.5 * (va.length_squared() + vb.length_squared());
    assert!((energy - 20.0).abs() < 0.2, "kinetic energy {energy} J, was 20");
}

#[test]
fn a_box_dropped_flat_bounces_straight_to_e_squared_of_its_drop() {
    let mut world = World::new(WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    });
    ground(&mut world);
    let drop = 2.5;
    let b = bouncy_box(&mut world, Vec2::new(0.0, 0.5 + drop), Vec2::ZERO, 0.5);
    let (mut rising, mut apex, mut spin) = (false, 0.0f32, 0.0f32);
    for _ in 0..240 {
        world.step(DT);
        let v = world.linear_velocity(b).unwrap();
        let y = world.position(b).unwrap().y - 0.5;
        spin = spin.max(world.angular_velocity(b).unwrap().abs());
        if v.y > 0.0 {
            rising = true;
            apex = apex.max(y);
        } else if rising {
            break;
        }
    }
    let expected = 0.25 * drop;
    assert!(
        (apex - expected).abs() < 0.03 * expected,
        "rebounded {apex} m, e^2 h = {expected} m"
    );
    assert!(spin < 0.01, "it spun at {spin} rad/s");
}

/// Twelve elastic, frictionless bodies of `shape` in a closed box without
/// gravity, launched at 4 m/s in a spread of directions and spinning at
/// `spin` rad/s (alternately each way): their kinetic energy at the start
/// and the most it reaches over 2000 steps.
fn energy_in_a_closed_box(shape: Shape, spin: f32) -> (f32, f32) {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        sleeping: false,
        ..WorldSettings::default()
    });
    let elastic = ShapeDef {
        restitution: 1.0,
        friction: 0.0,
        ..ShapeDef::default()
    };
    for (at, half) in [
        (Vec2::new(0.0, -6.0), Vec2::new(7.0, 1.0)),
        (Vec2::new(0.0, 6.0), Vec2::new(7.0, 1.0)),
        (Vec2::new(-6.0, 0.0), Vec2::new(1.0, 7.0)),
        (Vec2::new(6.0, 0.0), Vec2::new(1.0, 7.0)),
    ] {
        let wall = world.create_body(&BodyDef::static_body().at(at)).unwrap();
        world
            .create_shape(wall, Polygon::new_box(half.x, half.y).unwrap(), &elastic)
            .unwrap();
    }
    let mut bodies = Vec::new();
    for k in 0..12 {
        let (i, j) = ((k % 4) as f32, (k / 4) as f32);
        let angle = 1.3 * k as f32;
        let v = 4.0 * Vec2::new(angle.cos(), angle.sin());
        let def = BodyDef {
            angular_velocity: if k % 2 == 0 { spin } else { -spin },
            ..BodyDef::dynamic()
                .at(Vec2::new(-3.0 + 2.0 * i, -2.0 + 2.0 * j))
                .with_velocity(v)
        };
        let b = world.create_body(&def).unwrap();
        world.create_shape(b, shape, &elastic).unwrap();
        bodies.push(b);
    }
    let energy = |world: &World| -> f32 {
        bodies
            .iter()
            .map(|&b| {
                let m = world.mass_data(b).unwrap();
                let (v, w) = (
                    world.linear_velocity(b).unwrap(),
                    world.angular_velocity(b).unwrap(),
                );
                0.5 * m.mass * v.length_squared() + 0.5 * m.inertia * w * w
            })
            .sum()
    };
    let start = energy(&world);
    let mut most = start;
    for _ in 0..2000 {
        world.step(DT);
        most = most.max(energy(&world));
    }
    (start, most)
}

#[test]
fn elastic_circles_in_a_closed_box_gain_no_energy() {
    // (Circles meet walls and each other at one point, through their
    // centers: the bounce never spins them. Boxes, below, are the harder
    // case.)
    let (start, most) = energy_in_a_closed_box(Circle::new(Vec2::ZERO, 0.4).unwrap().into(), 0.0);
    assert!(
        most <= start * 1.001,
        "kinetic energy rose to {most} J from {start} J"
    );
}

#[test]
fn elastic_boxes_in_a_closed_box_gain_no_energy() {
    // Spinning corners meet walls and faces while another point of the
    // same box is pushed: restitution takes back what the substeps pushed
    // at a point it then flings off (see `bounce_constraint`). Before it
    // could, these boxes gained 10.6% over the 2000 steps, up to 3% in a
    // single step.
    let (start, most) = energy_in_a_closed_box(Polygon::new_box(0.4, 0.4).unwrap().into(), 2.0);
    assert!(
        most <= start * 1.001,
        "kinetic energy rose to {most} J from {start} J"
    );
}

#[test]
fn the_profile_splits_the_last_step_by_stage() {
    let mut world = World::default();
    assert_eq!(*world.profile(), StepProfile::default(), "no step yet");
    ground(&mut world);
    for i in 0..20 {
        unit_box(&mut world, Vec2::new(0.0, 0.5 + i as f32));
    }
    world.step(DT);
    let p = *world.profile();
    let parts = [
        p.update_pairs,
        p.collide,
        p.contact_changes,
        p.solve,
        p.finalize,
        p.continuous,
        p.sensors,
        p.update_broadphase,
        p.sleep,
    ];
    assert!(parts.iter().all(|&t| t >= 0.0 && t.is_finite()));
    assert!(p.total > 0.0);
    let sum: f32 = parts.iter().sum();
    assert!((sum - p.total).abs() <= 1e-6 * p.total.max(1.0));
    assert!((p.broadphase() + p.narrowphase() + p.solver() + p.sensors + p.sleep - p.total).abs() <= 1e-5);
}

#[test]
fn profiling_off_reads_no_clock_and_changes_nothing_else() {
    // The same falling column with the stages timed and not: the same
    // bits, and a profile of zeros where it is off, from the first step
    // and after switching at run time.
    let column = |profiling: bool| {
        let mut world = World::new(WorldSettings {
            profiling,
            ..WorldSettings::default()
        });
        ground(&mut world);
        let boxes: Vec<_> = (0..10)
            .map(|i| unit_box(&mut world, Vec2::new(0.1 * i as f32, 0.6 + 1.1 * i as f32)))
            .collect();
        (world, boxes)
    };
    let (mut timed, boxes) = column(true);
    let (mut untimed, _) = column(false);
    for step in 0..120 {
        if step == 60 {
            timed.set_profiling(false);
            assert_eq!(*timed.profile(), StepProfile::default(), "switched off");
            untimed.set_profiling(true);
        }
        timed.step(DT);
        untimed.step(DT);
        let (off, on) = if step < 60 {
            (&untimed, &timed)
        } else {
            (&timed, &untimed)
        };
        assert_eq!(*off.profile(), StepProfile::default(), "step {step}");
        assert!(on.profile().total > 0.0, "step {step}");
    }
    for &b in &boxes {
        assert_eq!(timed.transform(b).unwrap(), untimed.transform(b).unwrap());
        assert_eq!(
            timed.linear_velocity(b).unwrap(),
            untimed.linear_velocity(b).unwrap()
        );
    }
}

/// Two unit boxes side by side in zero gravity, 4 cm apart (twice the
/// speculative distance), the right one moving at `v`: the points of
/// their contact after one step.
fn points_of_boxes_4cm_apart(v: Vec2) -> usize {
    let mut world = zero_gravity();
    unit_box(&mut world, Vec2::ZERO);
    let b = unit_box(&mut world, Vec2::new(1.04, 0.0));
    world.set_linear_velocity(b, v).unwrap();
    world.step(DT);
    world.contacts().map(|c| c.manifold.count).sum()
}

#[test]
fn a_contact_keeps_only_the_points_its_pair_can_reach_in_the_step() {
    // Sliding past at 5 m/s: 8 cm of travel in the step, none of it
    // towards the other box. The pair is close enough to be collided
    // (the fat boxes overlap), but no point can close the gap.
    assert_eq!(points_of_boxes_4cm_apart(Vec2::new(0.0, 5.0)), 0);
    // Moving apart: none either.
    assert_eq!(points_of_boxes_4cm_apart(Vec2::new(5.0, 0.0)), 0);
    // Closing at 3 m/s (5 cm in the step, with 2 cm of speculative
    // distance: 7 cm of reach for a 4 cm gap): both corners are points,
    // and the box is stopped short of the other.
    assert_eq!(points_of_boxes_4cm_apart(Vec2::new(-3.0, 0.0)), 2);
    // Closing at 1 m/s (1.7 cm in the step, 3.7 cm of reach): not yet.
    assert_eq!(points_of_boxes_4cm_apart(Vec2::new(-1.0, 0.0)), 0);
}

#[test]
fn shapes_of_bodies_whose_bounding_circles_are_apart_by_the_reach_have_no_point() {
    // The collide kernel skips the shape test of a pair whose bodies'
    // bounding circles (about the centers of mass, of radius the bodies'
    // extents) are farther apart than the reach. That holds only if
    // every shape of a body lies within its extent: random dynamic,
    // kinematic and static bodies of one to three offset polygons
    // (sharp or rounded), capsules, circles and segments, turned at
    // random, one placed just past the reach of the other in a random
    // direction. Every shape pair is at least the circles' gap apart and
    // collides with no point.
    use crate::collision::{collide, shape_distance};
    use crate::shapes::Segment;
    use crate::test_rng::Rng;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let reach = 0.1;
    let mut closest = f32::INFINITY;
    for trial in 0..3000 {
        let mut world = zero_gravity();
        let random_body = |world: &mut World, rng: &mut Rng, def: BodyDef| {
            let angle = rng.range(-3.1, 3.1);
            let b = world.create_body(&def.with_angle(angle)).unwrap();
            for _ in 0..1 + (rng.range(0.0, 2.99) as usize) {
                let center = rng.vec(0.6);
                let corners = [0; 5].map(|_| center + rng.vec(0.4));
                let box_here = Polygon::new_offset_box(0.2, 0.1, center, angle).unwrap();
                let shape: Shape = match rng.range(0.0, 5.0) as u32 {
                    0 => Polygon::new(&corners).unwrap_or(box_here).into(),
                    1 => Polygon::new_rounded(&corners, rng.range(0.01, 0.2))
                        .unwrap_or(box_here)
                        .into(),
                    2 => Capsule::new(center, center + rng.vec(0.5), rng.range(0.02, 0.3))
                        .unwrap()
                        .into(),
                    3 => Segment::new(center, center + rng.vec(0.8)).unwrap().into(),
                    _ => Circle::new(center, rng.range(0.05, 0.4)).unwrap().into(),
                };
                world.create_shape(b, shape, &ShapeDef::default()).unwrap();
            }
            b
        };
        let kinds = [BodyDef::dynamic(), BodyDef::kinematic(), BodyDef::static_body()];
        let a = random_body(&mut world, &mut rng, kinds[trial % 3]);
        let b = random_body(&mut world, &mut rng, kinds[(trial / 3) % 3]);
        // B's center of mass put just past the reach of A's circle, in a
        // random direction.
        let (ea, eb) = (world.bodies[a.index].extent, world.bodies[b.index].extent);
        let gap = reach + rng.range(0.0, 0.1);
        let turn = rng.range(-3.1, 3.1);
        let to = world.bodies[a.index].center + (ea + eb + gap) * Vec2::new(turn.cos(), turn.sin());
        let (position, offset) = (world.position(b).unwrap(), world.bodies[b.index].center);
        let angle = world.angle(b).unwrap();
        world.set_transform(b, position + to - offset, angle).unwrap();
        let (ba, bb) = (&world.bodies[a.index], &world.bodies[b.index]);
        let apart = (bb.center - ba.center).length() - ba.extent - bb.extent;
        assert!(apart > reach);
        for &sa in &ba.shapes {
            for &sb in &bb.shapes {
                let (shape_a, shape_b) = (&world.shapes[sa].shape, &world.shapes[sb].shape);
                let distance = shape_distance(shape_a, &ba.xf, shape_b, &bb.xf).distance;
                assert!(
                    distance >= apart - 1e-4,
                    "{distance} m < {apart} m: {ba:?} and {bb:?}"
                );
                closest = closest.min(distance - apart);
                let m = collide(shape_a, ba.xf, shape_b, bb.xf, reach);
                assert_eq!(m.count, 0, "{apart} m apart: bodies {ba:?} and {bb:?}");
            }
        }
    }
    // Some pair came within 2 cm of its bodies' bound: the extents are
    // not so loose that the test says nothing.
    assert!(
        closest < 0.02,
        "the nearest surfaces were {closest} m beyond the bound"
    );
}

#[test]
fn contact_events_say_when_shapes_begin_and_stop_touching() {
    let mut world = World::default();
    let floor = ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 3.0));
    let (floor_shape, box_shape) = (
        world.body_shapes(floor).unwrap()[0],
        world.body_shapes(b).unwrap()[0],
    );
    let mut begins = Vec::new();
    for k in 0..120 {
        world.step(DT);
        let e = world.contact_events();
        assert!(e.end.is_empty(), "nothing stops touching at step {k}");
        begins.extend(e.begin.iter().map(|&begin| (k, begin)));
    }
    assert_eq!(begins.len(), 1, "one landing: {begins:?}");
    let (k, begin) = begins[0];
    // It begins when the box comes within the speculative distance: about
    // 2.5 m of free fall, 0.7 s.
    assert!((38..=44).contains(&k), "began at step {k}");
    let pair = [begin.shape_a, begin.shape_b];
    assert!(pair.contains(&floor_shape) && pair.contains(&box_shape));
    assert!([begin.body_a, begin.body_b].contains(&b));

    // Lifted off, it stops touching at the next step.
    world.set_transform(b, Vec2::new(0.0, 5.0), 0.0).unwrap();
    world.step(DT);
    let e = world.contact_events();
    assert_eq!(e.end.len(), 1);
    assert!([e.end[0].shape_a, e.end[0].shape_b].contains(&box_shape));
    world.step(DT);
    assert!(world.contact_events().end.is_empty(), "events last one step");
}

#[test]
fn removing_a_touching_body_reports_the_end_of_its_contacts() {
    let mut world = World::default();
    ground(&mut world);
    let a = unit_box(&mut world, Vec2::new(0.0, 0.5));
    let b = unit_box(&mut world, Vec2::new(0.0, 1.5));
    for _ in 0..10 {
        world.step(DT);
    }
    let gone = world.body_shapes(b).unwrap()[0];
    world.remove_body(b).unwrap();
    world.step(DT);
    let ends = &world.contact_events().end;
    assert_eq!(ends.len(), 1, "{ends:?}");
    assert!(ends[0].shape_a == gone || ends[0].shape_b == gone);
    assert!(!world.contains_body(ends[0].body_b) || !world.contains_body(ends[0].body_a));
    assert!(world.contains_body(a));
}

#[test]
fn worker_counts_out_of_range_are_named_errors_and_change_nothing() {
    use crate::settings::MAX_WORKERS;
    let mut world = World::default();
    assert_eq!(world.worker_threads(), 1);
    for bad in [0, MAX_WORKERS + 1] {
        assert_eq!(
            world.set_workers(bad),
            Err(BodyError::OutOfRange("workers (1 to 64)"))
        );
        assert_eq!(world.settings().workers, 1);
    }
    world.set_workers(3).unwrap();
    assert_eq!(world.settings().workers, 3);
    let threads = if cfg!(feature = "parallel") { 3 } else { 1 };
    assert_eq!(world.worker_threads(), threads);
    // A world asked for nonsense at creation is repaired to the nearest
    // count.
    let big = World::new(WorldSettings {
        workers: 1000,
        ..WorldSettings::default()
    });
    assert_eq!(big.settings().workers, MAX_WORKERS);
    let none = World::new(WorldSettings {
        workers: 0,
        ..WorldSettings::default()
    });
    assert_eq!(none.settings().workers, 1);
}

/// Every shape's copy of its fat box is its proxy's, as bodies fall,
/// land, are placed by hand and get new shapes.
#[test]
fn each_shapes_fat_box_stays_its_proxys() {
    let mut world = World::default();
    ground(&mut world);
    let boxes: Vec<BodyId> = (0..12)
        .map(|k| unit_box(&mut world, Vec2::new(0.3 * k as f32, 1.0 + 1.1 * k as f32)))
        .collect();
    let agree = |world: &World| {
        world.shapes.iter().all(|(si, slot)| {
            let fat = world.fat_boxes[si as usize];
            fat == world.broadphase.fat_aabb(slot.proxy) && fat.max.x > fat.min.x
        })
    };
    assert!(agree(&world));
    let mut grew = 0;
    for k in 0..240 {
        let fat = |world: &World| -> Vec<_> {
            world
                .shapes
                .iter()
                .map(|(si, _)| world.fat_boxes[si as usize])
                .collect()
        };
        let before = fat(&world);
        world.step(DT);
        grew += fat(&world)
            .iter()
            .zip(&before)
            .filter(|(now, was)| now != was)
            .count();
        if k == 100 {
            world.set_transform(boxes[3], Vec2::new(-8.0, 6.0), 0.5).unwrap();
            world
                .create_shape(
                    boxes[5],
                    Circle::new(Vec2::new(0.6, 0.0), 0.3).unwrap(),
                    &ShapeDef::default(),
                )
                .unwrap();
        }
        assert!(agree(&world), "step {k}");
    }
    // (The falling boxes' boxes were moved many times.)
    assert!(grew > 100, "{grew}");
}

/// A world at the defaults with sleeping off (so what is measured keeps
/// being solved) and the ground's top at y = 0.
fn awake_world_on_ground() -> World {
    let mut world = World::new(WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    });
    ground(&mut world);
    world
}

/// A box of half-extents `half` and `density` at `at`.
fn box_of(world: &mut World, at: Vec2, half: Vec2, density: f32) -> BodyId {
    let b = world.create_body(&BodyDef::dynamic().at(at)).unwrap();
    let def = ShapeDef {
        density,
        ..ShapeDef::default()
    };
    world
        .create_shape(b, Polygon::new_box(half.x, half.y).unwrap(), &def)
        .unwrap();
    b
}

#[test]
fn a_box_400_times_their_mass_rests_on_two_small_boxes() {
    // Box2D's "heavy on light": 0.5 m boxes of 0.25 kg under a 3 x 1 m
    // box of 100 kg. Each small box takes 500 N between two soft
    // contacts; it must neither be squeezed out nor let the heavy box
    // through.
    let mut world = awake_world_on_ground();
    let small = [-1.0f32, 1.0].map(|x| box_of(&mut world, Vec2::new(x, 0.25), Vec2::splat(0.25), 1.0));
    let heavy = box_of(
        &mut world,
        Vec2::new(0.0, 1.0),
        Vec2::new(1.5, 0.5),
        400.0 * 0.25 / 3.0,
    );
    let ratio = world.mass_data(heavy).unwrap().mass / world.mass_data(small[0]).unwrap().mass;
    assert!((ratio - 400.0).abs() < 0.01, "mass ratio {ratio}");
    for _ in 0..600 {
        world.step(DT);
    }
    let p = world.position(heavy).unwrap();
    // The soft contacts give a few centimetres under 1000 N; a heavy box
    // pushing through would be 0.5 m lower.
    assert!(p.y > 0.9, "the heavy box sank to {p:?}");
    assert!(
        p.x.abs() < 0.01 && world.angle(heavy).unwrap().abs() < 0.01,
        "it tipped: {p:?}"
    );
    assert!(world.linear_velocity(heavy).unwrap().length() < 0.01);
    for (b, x) in small.into_iter().zip([-1.0, 1.0]) {
        let q = world.position(b).unwrap();
        assert!(
            (q.x - x).abs() < 0.02 && q.y > 0.2,
            "a small box was squeezed: {q:?}"
        );
        assert!(world.angle(b).unwrap().abs() < 0.01);
    }
}

/// Asserts that every box of `boxes` (each with where it was stacked) is
/// still `near` its place and level, in the pyramid under a box of
/// `density`.
fn assert_stacked(world: &World, boxes: &[(BodyId, Vec2)], density: f32, near: impl Fn(Vec2, Vec2) -> bool) {
    for &(b, at) in boxes {
        let p = world.position(b).unwrap();
        assert!(
            near(p, at),
            "density {density}: a box stacked at {at:?} is at {p:?}"
        );
        assert!(
            world.angle(b).unwrap().abs() < 0.05,
            "density {density}: a box turned"
        );
    }
}

#[test]
fn a_pyramid_of_ten_holds_a_box_100_200_and_300_times_as_dense_as_its_apex() {
    // Box2D's "high mass ratio" sample as it lays it out: a pyramid of
    // 2 m boxes of density 1 on a base of ten, touching side by side,
    // whose apex is the heavy box, dropped from 2 m above its place.
    for density in [100.0, 200.0, 300.0] {
        let mut world = awake_world_on_ground();
        let extent = 1.0;
        let mut boxes = Vec::new();
        let mut heavy = None;
        for row in 0..10 {
            let count = 10 - row;
            let y = extent * (1.0 + 2.0 * row as f32);
            for i in 0..count {
                let x = 2.0 * extent * (i as f32 - 0.5 * (count - 1) as f32);
                if count == 1 {
                    let at = Vec2::new(x, y + 2.0);
                    heavy = Some(box_of(&mut world, at, Vec2::splat(extent), density));
                } else {
                    let at = Vec2::new(x, y);
                    boxes.push((box_of(&mut world, at, Vec2::splat(extent), 1.0), at));
                }
            }
        }
        let heavy = heavy.unwrap();
        for _ in 0..600 {
            world.step(DT);
        }
        // Every light box stays where it was stacked but for the soft
        // contacts' give under the load, within an eighth of a box (Box2D
        // itself moves one 0.45 m at 100 times, Tumble 0.18 m at most:
        // the `high_mass_ratio` example of tumble-bench).
        assert_stacked(&world, &boxes, density, |p, at| p.distance(at) < 0.25 * extent);
        // The heavy box rests where the apex belongs (y = 19 m, less the
        // contacts' give), level and still.
        let p = world.position(heavy).unwrap();
        assert!(
            p.x.abs() < 0.1 && (p.y - 19.0).abs() < 0.5,
            "density {density}: the heavy box is at {p:?}"
        );
        assert!(world.angle(heavy).unwrap().abs() < 0.05);
        assert!(world.linear_velocity(heavy).unwrap().length() < 0.01);
    }
}

#[test]
fn a_pyramid_of_ten_holds_a_box_300_times_as_dense_on_its_apex() {
    // A harder case than Box2D's sample above: the heavy box sits on a
    // light apex, which alone carries it on two offset boxes, and its soft
    // contacts overlap 10 cm. It stands because a kept manifold keeps the
    // levers it was computed with (see `Contact::kept_levers`): with the
    // levers following the tilting bodies it tipped over at 300 times.
    // Box2D v3.2 holds 300 here for the 10 s its sample runs and falls at
    // 400; Tumble at 400 holds for half a minute, then falls. At 300 the
    // heavy box rocks on the apex at a centimetre or two a second for
    // half a minute before it settles: 30 s are run, and it must still
    // be on top and no faster than a slow sway.
    for density in [100.0, 200.0, 300.0] {
        let mut world = awake_world_on_ground();
        let rows = 10;
        let mut boxes = Vec::new();
        for row in 0..rows {
            for col in 0..rows - row {
                let x = (col as f32 - 0.5 * (rows - 1 - row) as f32) * 1.05;
                let at = Vec2::new(x, 0.5 + row as f32);
                boxes.push((unit_box(&mut world, at), at));
            }
        }
        let top = Vec2::new(0.0, 0.5 + rows as f32);
        let heavy = box_of(&mut world, top, Vec2::splat(0.5), density);
        for _ in 0..1800 {
            world.step(DT);
        }
        // Each box of the pyramid stays where it was stacked but for the
        // soft contacts' give under the load (centimetres a row), within
        // a tenth of a box sideways.
        assert_stacked(&world, &boxes, density, |p, at| {
            (p.x - at.x).abs() < 0.1 && (p.y - at.y).abs() < 0.25
        });
        let p = world.position(heavy).unwrap();
        assert!(
            p.x.abs() < 0.05 && p.y > top.y - 0.5,
            "density {density}: the heavy box fell to {p:?}"
        );
        let v = world.linear_velocity(heavy).unwrap();
        assert!(
            v.length() < 0.03,
            "density {density}: the heavy box moves at {v:?}"
        );
    }
}

#[test]
fn switching_the_coloring_after_bodies_are_removed_steps_safely() {
    // A stack's first step colors every contact anew (the bounded
    // coloring lists them all as recolored); then the ordered coloring
    // takes over with most bodies removed. Its step must not act on those
    // lists, which index the last step's constraints; and the bounded
    // coloring, back again, colors afresh.
    let mut world = awake_world_on_ground();
    let boxes: Vec<BodyId> = (0..20)
        .map(|k| unit_box(&mut world, Vec2::new(0.0, 0.5 + k as f32)))
        .collect();
    world.step(DT);
    let set = |world: &mut World, coloring| {
        let settings = SolverSettings {
            coloring,
            ..*world.solver_settings()
        };
        world.set_solver_settings(settings).unwrap();
    };
    set(&mut world, Coloring::Ordered);
    for &b in &boxes[1..] {
        world.remove_body(b).unwrap();
    }
    world.step(DT);
    set(&mut world, Coloring::Bounded);
    for _ in 0..60 {
        world.step(DT);
    }
    let p = world.position(boxes[0]).unwrap();
    assert!((p.y - 0.5).abs() < 0.01, "the last box is at {p:?}");
}

/// The names of the release before still work, as aliases of the new ones.
#[test]
#[allow(deprecated)]
fn the_names_of_the_release_before_still_work() {
    let mut world = World::default();
    let ground = world.create_body(&BodyDef::fixed()).unwrap();
    assert_eq!(world.body_type(ground).unwrap(), crate::BodyType::Static);
    world
        .add_shape(ground, Polygon::new_box(5.0, 0.5).unwrap(), &ShapeDef::default())
        .unwrap();
    let outline = [
        Vec2::new(0.0, 0.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(2.0, 1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 2.0),
        Vec2::new(0.0, 2.0),
    ];
    assert!(
        world
            .add_concave(ground, &outline, &ShapeDef::default())
            .unwrap()
            .len()
            >= 2
    );
    let chain = [Vec2::new(-4.0, 1.0), Vec2::new(0.0, 1.5), Vec2::new(4.0, 1.0)];
    assert_eq!(
        world
            .add_chain(ground, &chain, false, &ShapeDef::default())
            .unwrap()
            .len(),
        2
    );
    assert_eq!(world.shape_count(), 1 + 2 + 2);
}
