//! Extreme but finite input to the step: long and tiny steps, huge
//! forces, impulses and materials, bodies flung past the world's extent.
//! The step never panics, a body whose state would stop being finite is
//! frozen in its last finite pose and reported, and a frozen body touches
//! nothing.

use super::tests::{ground, unit_box, DT};
use super::*;
use crate::body::BodyDef;
use crate::collision::Manifold;
use crate::hooks::{ContactHooks, ContactMaterial, OneWayPlatforms, ShapePair};
use crate::shapes::ShapeDef;
use crate::shapes::{Circle, Polygon};

/// Every body's pose and velocity finite, or the body frozen in a finite
/// pose.
fn assert_finite_or_frozen(world: &World) {
    for b in world.bodies() {
        let xf = world.transform(b).unwrap();
        let pose_finite = is_finite_vec(xf.p) && xf.q.c.is_finite() && xf.q.s.is_finite();
        assert!(pose_finite, "{b:?} has a non-finite pose {xf:?}");
        let v = world.linear_velocity(b).unwrap();
        let w = world.angular_velocity(b).unwrap();
        assert!(is_finite_vec(v) && w.is_finite(), "{b:?} moves at {v:?}, {w}");
    }
}

/// A ground with a pile of `n` boxes on it, settled for a second.
fn pile(world: &mut World, n: usize) -> Vec<BodyId> {
    ground(world);
    let boxes: Vec<BodyId> = (0..n)
        .map(|k| {
            unit_box(
                world,
                Vec2::new((k % 20) as f32 * 1.1 - 11.0, 0.5 + (k / 20) as f32 * 1.05),
            )
        })
        .collect();
    for _ in 0..60 {
        world.step(DT);
    }
    boxes
}

#[test]
fn a_step_of_any_finite_length_neither_panics_nor_spoils_a_body() {
    for workers in [1, 2] {
        for dt in [
            3.4e38,
            f32::MAX,
            1e30,
            1e6,
            1.0,
            0.25,
            f32::MIN_POSITIVE,
            1e-30,
            1e-10,
        ] {
            let mut world = World::new(WorldSettings {
                workers,
                ..WorldSettings::default()
            });
            // Enough contacts for the workers to take the step.
            pile(&mut world, 400);
            world.step(dt);
            world.step(DT);
            assert_finite_or_frozen(&world);
            assert!(
                world.frozen_bodies().is_empty(),
                "dt {dt}: {:?}",
                world.frozen_bodies()
            );
        }
    }
}

#[test]
fn tiny_steps_after_a_long_one_leave_every_impulse_finite() {
    let mut world = World::default();
    pile(&mut world, 40);
    world.step(0.25);
    world.step(f32::MIN_POSITIVE);
    world.step(f32::MIN_POSITIVE);
    for c in world.contacts() {
        for p in c.manifold.points() {
            assert!(
                p.normal_impulse.is_finite() && p.tangent_impulse.is_finite(),
                "{p:?}"
            );
        }
    }
    world.step(DT);
    assert_finite_or_frozen(&world);
}

/// A hook that hands back materials far outside any real range.
struct WildMaterials(f32);

impl ContactHooks for WildMaterials {
    fn pre_solve(&self, _: &ShapePair, _: &Manifold, material: &mut ContactMaterial) -> bool {
        material.friction = self.0;
        material.restitution = self.0;
        material.tangent_speed = self.0;
        true
    }
}

#[test]
fn hooks_and_materials_of_any_finite_size_neither_panic_nor_spoil_a_body() {
    for workers in [1, 2] {
        for x in [1e30, 3.4e38, 1e6] {
            let mut world = World::new(WorldSettings {
                workers,
                ..WorldSettings::default()
            });
            let def = ShapeDef {
                friction: x,
                restitution: x,
                pre_solve: true,
                ..ShapeDef::default()
            };
            let g = world
                .create_body(&BodyDef::static_body().at(Vec2::new(0.0, -1.0)))
                .unwrap();
            world
                .create_shape(g, Polygon::new_box(50.0, 1.0).unwrap(), &def)
                .unwrap();
            for k in 0..400 {
                let b = world
                    .create_body(&BodyDef::dynamic().at(Vec2::new(
                        (k % 20) as f32 * 1.1 - 11.0,
                        0.5 + (k / 20) as f32 * 1.05,
                    )))
                    .unwrap();
                world
                    .create_shape(b, Polygon::new_box(0.5, 0.5).unwrap(), &def)
                    .unwrap();
            }
            let platforms = OneWayPlatforms {
                platforms: vec![world.body_shapes(g).unwrap()[0]],
                ..OneWayPlatforms::default()
            };
            for step in 0..60 {
                world.step_with_hooks(DT, &WildMaterials(x));
                world.step_with_hooks(if step == 30 { 3.4e38 } else { DT }, &platforms);
                assert_finite_or_frozen(&world);
            }
        }
    }
}

#[test]
fn a_huge_force_is_capped_by_the_speed_limit_not_lost() {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    let b = unit_box(&mut world, Vec2::ZERO);
    world.apply_force_to_center(b, Vec2::new(1e38, 0.0)).unwrap();
    world.step(DT);
    let v = world.linear_velocity(b).unwrap();
    let max = world.settings().max_linear_speed;
    assert!(world.frozen_bodies().is_empty());
    assert!(
        (v.x - max).abs() <= 1e-3 * max && v.y == 0.0,
        "{v:?} against the limit {max}"
    );
}

#[test]
fn an_impulse_whose_velocity_overflows_is_refused_and_changes_nothing() {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    let b = unit_box(&mut world, Vec2::ZERO);
    let light = world.create_body(&BodyDef::dynamic()).unwrap();
    let def = ShapeDef {
        density: 1e-3,
        ..ShapeDef::default()
    };
    world
        .create_shape(light, Circle::new(Vec2::ZERO, 0.01).unwrap(), &def)
        .unwrap();
    // Too much for the light body's velocity; for the box's spin.
    assert_eq!(
        world.apply_linear_impulse_to_center(light, Vec2::new(1e36, 1e36)),
        Err(BodyError::OutOfRange("impulse"))
    );
    assert_eq!(
        world.apply_linear_impulse(b, Vec2::new(3.4e38, 0.0), Vec2::new(0.0, 1e3)),
        Err(BodyError::OutOfRange("impulse"))
    );
    assert_eq!(
        world.apply_angular_impulse(light, 3.4e38),
        Err(BodyError::OutOfRange("angular impulse"))
    );
    for body in [b, light] {
        assert_eq!(world.linear_velocity(body).unwrap(), Vec2::ZERO);
        assert_eq!(world.angular_velocity(body).unwrap(), 0.0);
    }
    // A finite velocity however large is kept, and held to the limit by
    // the step, in its direction.
    world
        .apply_linear_impulse_to_center(b, Vec2::new(3.0e38, -3.0e38))
        .unwrap();
    world.step(DT);
    let v = world.linear_velocity(b).unwrap();
    let max = world.settings().max_linear_speed;
    assert!(
        (v.length() - max).abs() <= 1e-3 * max && (v.x + v.y).abs() <= 1e-3 * max,
        "{v:?}"
    );
    assert!(world.frozen_bodies().is_empty());
}

#[test]
fn a_long_step_does_not_tunnel_through_the_ground() {
    for dt in [1.0, 0.5, 0.2] {
        let mut world = World::default();
        ground(&mut world);
        let b = unit_box(&mut world, Vec2::new(0.0, 3.0));
        for _ in 0..10 {
            world.step(dt);
            let y = world.position(b).unwrap().y;
            assert!(y > 0.4, "dt {dt}: the box fell through to y = {y}");
        }
    }
}

#[test]
fn a_fast_bullet_is_held_to_the_documented_speed_limit_from_its_first_step() {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    let max = world.settings().max_linear_speed;
    let wall = world
        .create_body(&BodyDef::static_body().at(Vec2::new(30.0, 0.0)))
        .unwrap();
    world
        .create_shape(wall, Polygon::new_box(0.5, 10.0).unwrap(), &ShapeDef::default())
        .unwrap();
    let bullet = world.create_body(&BodyDef::dynamic().at(Vec2::ZERO)).unwrap();
    let def = ShapeDef {
        hit_events: true,
        ..ShapeDef::default()
    };
    world
        .create_shape(bullet, Circle::new(Vec2::ZERO, 0.05).unwrap(), &def)
        .unwrap();
    world
        .set_linear_velocity(bullet, Vec2::new(2.5 * max, 0.0))
        .unwrap();
    let mut hits = Vec::new();
    for _ in 0..30 {
        world.step(DT);
        hits.extend(world.contact_events().hit.iter().map(|h| h.approach_speed));
        assert!(world.linear_velocity(bullet).unwrap().length() <= max * (1.0 + 1e-6));
    }
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!(hits[0] <= max * (1.0 + 1e-6), "{hits:?} against the limit {max}");
    assert!(
        world.position(bullet).unwrap().x < 30.0,
        "the bullet passed the wall"
    );
}

#[test]
fn the_velocities_a_step_leaves_are_within_the_limits_it_moved_bodies_by() {
    // A heavy elastic ball at the speed limit strikes a light elastic one
    // at rest head on, and another strikes the end of a light elastic
    // bar: restitution, after the bodies last moved, sends the light
    // ones off at up to twice the striker's speed, and the bar spinning
    // faster than a step may turn it or its ends may move. What the step
    // leaves is what it moves them by: within the speed limit, and a spin
    // within the step's and the body's own (its farthest point no faster
    // than the speed limit).
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    let max = world.settings().max_linear_speed;
    let elastic = |density: f32| ShapeDef {
        density,
        restitution: 1.0,
        friction: 0.0,
        ..ShapeDef::default()
    };
    let ball = |world: &mut World, at: Vec2, density: f32, v: Vec2| {
        let b = world
            .create_body(&BodyDef::dynamic().at(at).with_velocity(v))
            .unwrap();
        world
            .create_shape(b, Circle::new(Vec2::ZERO, 0.2).unwrap(), &elastic(density))
            .unwrap();
        b
    };
    let light = ball(&mut world, Vec2::new(1.0, 0.0), 1.0, Vec2::ZERO);
    ball(&mut world, Vec2::new(0.0, 0.0), 1000.0, Vec2::new(max, 0.0));
    let bar = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(1.0, 10.0)))
        .unwrap();
    world
        .create_shape(bar, Polygon::new_box(0.1, 2.0).unwrap(), &elastic(1.0))
        .unwrap();
    ball(&mut world, Vec2::new(0.0, 11.8), 1000.0, Vec2::new(max, 0.0));
    let step_spin = crate::settings::MAX_ROTATION_PER_STEP / DT;
    for step in 0..10 {
        world.step(DT);
        for b in [light, bar] {
            let v = world.linear_velocity(b).unwrap().length();
            let w = world.angular_velocity(b).unwrap().abs();
            let reach = world.bodies[world.body_index(b).unwrap()].extent;
            let within = 1.0 + 1e-6;
            assert!(v <= max * within, "step {step}: {b:?} at {v} m/s");
            assert!(w <= step_spin * within, "step {step}: {b:?} spins at {w} rad/s");
            assert!(
                w * reach <= max * within,
                "step {step}: {b:?}'s ends move at {} m/s",
                w * reach
            );
        }
    }
}

#[test]
fn a_body_flung_past_the_world_extent_is_frozen_inside_it_and_touches_nothing() {
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    let extent = crate::settings::WORLD_EXTENT;
    let b = unit_box(&mut world, Vec2::new(extent - 1.0, 0.0));
    let other = unit_box(&mut world, Vec2::new(extent - 8.0, 0.0));
    world.set_linear_velocity(b, Vec2::new(300.0, 0.0)).unwrap();
    for _ in 0..10 {
        world.step(DT);
    }
    assert_eq!(world.frozen_bodies(), &[b]);
    let p = world.position(b).unwrap();
    assert!(p.x <= extent && p.x > extent - 10.0, "{p:?}");
    assert_finite_or_frozen(&world);
    // It touches nothing: the other body passes through where it is.
    world.set_linear_velocity(other, Vec2::new(15.0, 0.0)).unwrap();
    for _ in 0..30 {
        world.step(DT);
    }
    assert_eq!(world.contact_count(), 0);
    // A new transform frees it, here where it was: it meets the other.
    assert!((world.position(other).unwrap() - p).length() < 1.0);
    world.set_transform(b, p, 0.0).unwrap();
    assert!(world.frozen_bodies().is_empty());
    world.set_linear_velocity(b, Vec2::ZERO).unwrap();
    world.step(DT);
    assert!(world.contact_count() > 0, "it collides again");
}

#[test]
fn positions_past_the_world_extent_are_refused() {
    let mut world = World::default();
    let extent = crate::settings::WORLD_EXTENT;
    for p in [Vec2::new(1.01 * extent, 0.0), Vec2::new(0.0, -3.4e38)] {
        assert_eq!(
            world.create_body(&BodyDef::dynamic().at(p)),
            Err(BodyError::OutOfRange("position"))
        );
    }
    let b = unit_box(&mut world, Vec2::ZERO);
    assert_eq!(
        world.set_transform(b, Vec2::new(0.0, 2.0 * extent), 0.0),
        Err(BodyError::OutOfRange("position"))
    );
    assert_eq!(world.position(b).unwrap(), Vec2::ZERO);
}

/// Every body's pose and velocities, as bits, and the frozen list.
fn state_bits(world: &World) -> (Vec<[u32; 7]>, Vec<BodyId>) {
    let bodies = world
        .bodies()
        .map(|b| {
            let xf = world.transform(b).unwrap();
            let (v, w) = (
                world.linear_velocity(b).unwrap(),
                world.angular_velocity(b).unwrap(),
            );
            [xf.p.x, xf.p.y, xf.q.c, xf.q.s, v.x, v.y, w].map(f32::to_bits)
        })
        .collect();
    (bodies, world.frozen_bodies().to_vec())
}

#[test]
fn bodies_frozen_mid_pile_give_the_same_bits_on_any_worker_count() {
    let run = |workers: usize| {
        let mut world = World::new(WorldSettings {
            workers,
            ..WorldSettings::default()
        });
        let boxes = pile(&mut world, 600);
        for step in 0..120 {
            match step {
                10 => {
                    for &b in boxes.iter().step_by(37) {
                        world.apply_torque(b, f32::MAX).unwrap();
                    }
                }
                20 => world.set_gravity_scale(boxes[300], f32::MAX).unwrap(),
                30 => world.step(3.4e38),
                40 => world
                    .set_linear_velocity(boxes[7], Vec2::new(1e30, 1e30))
                    .unwrap(),
                _ => {}
            }
            world.step(DT);
            assert_finite_or_frozen(&world);
        }
        assert!(world.frozen_bodies().len() > 10);
        state_bits(&world)
    };
    let one = run(1);
    for workers in [2, 4] {
        assert!(run(workers) == one, "{workers} workers differ from one");
    }
}

#[test]
fn a_velocity_set_absurdly_high_stretches_no_box_past_the_speed_limit() {
    // 400 balls on a 2 m grid, all sent at 1e30 m/s between steps: each
    // one's box reaches one step at the speed limit ahead (6.7 m at 60
    // Hz, about 16 grid cells around it), not across the world, so the
    // pairs grow with the bodies, not with their square.
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    let n = 400;
    let balls: Vec<BodyId> = (0..n)
        .map(|k| {
            let b = world
                .create_body(&BodyDef::dynamic().at(Vec2::new((k % 20) as f32 * 2.0, (k / 20) as f32 * 2.0)))
                .unwrap();
            world
                .create_shape(b, Circle::new(Vec2::ZERO, 0.25).unwrap(), &ShapeDef::default())
                .unwrap();
            b
        })
        .collect();
    world.step(DT);
    for &b in &balls {
        world.set_linear_velocity(b, Vec2::new(1e30, 1e30)).unwrap();
    }
    world.step(DT);
    let (cells_in_reach, pairs_of_all) = (16 + 4, n * (n - 1) / 2);
    assert!(
        world.contact_count() <= n * cells_in_reach,
        "{} contacts among {n} balls ({pairs_of_all} pairs in all)",
        world.contact_count()
    );
    assert_finite_or_frozen(&world);
}

#[test]
fn a_shape_added_off_center_to_a_wildly_spinning_body_leaves_it_finite() {
    // The center of mass moves with the new shape; the velocity of the
    // material points is kept unless that speed overflows f32.
    let mut world = World::default();
    let def = BodyDef {
        angular_velocity: 3.4e38,
        ..BodyDef::kinematic().at(Vec2::new(-2.0, 1.0))
    };
    let spinner = world.create_body(&def).unwrap();
    let outline = [
        Vec2::new(1.9, -0.3),
        Vec2::new(0.8, 0.1),
        Vec2::new(0.6, 1.2),
        Vec2::new(-1.1, 0.2),
    ];
    world
        .create_concave(spinner, &outline, &ShapeDef::default())
        .unwrap();
    assert_finite_or_frozen(&world);
    world.step(DT);
    assert_finite_or_frozen(&world);
    // An ordinary spin still carries the points' velocity.
    let b = world.create_body(&BodyDef::dynamic().at(Vec2::ZERO)).unwrap();
    world.set_angular_velocity(b, 2.0).unwrap();
    world
        .create_shape(
            b,
            Circle::new(Vec2::new(1.0, 0.0), 0.5).unwrap(),
            &ShapeDef::default(),
        )
        .unwrap();
    let v = world.linear_velocity(b).unwrap();
    assert!((v - Vec2::new(0.0, 2.0)).length() < 1e-5, "{v:?}");
}

#[test]
fn a_length_unit_outside_its_range_falls_back_to_metres() {
    for lu in [3.4e38, 1e-30, 0.0, -1.0, f32::NAN] {
        let world = World::new(WorldSettings {
            length_units_per_meter: lu,
            ..WorldSettings::default()
        });
        assert_eq!(world.settings().length_units_per_meter, 1.0, "{lu}");
    }
    for lu in [1e-3, 32.0, 1e4] {
        let world = World::new(WorldSettings {
            length_units_per_meter: lu,
            ..WorldSettings::default()
        });
        assert_eq!(world.settings().length_units_per_meter, lu);
    }
}
