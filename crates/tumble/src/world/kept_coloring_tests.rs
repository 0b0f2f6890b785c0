//! The coloring kept from step to step: a step whose contacts and joints
//! are all as last step colored them builds its constraints straight
//! into the kept batches (`solver::prepare::prepare_as_colored`), and
//! must move every body exactly as the usual way (constraints built, then
//! colored, then packed) would.

use super::tests::{ground, unit_box, DT};
use super::*;
use crate::body::BodyDef;
use crate::collision::Manifold;
use crate::hooks::{ContactHooks, ContactMaterial, ShapePair};
use crate::shapes::ShapeDef;
use crate::shapes::{Circle, Polygon};
use crate::{BodyType, JointDef, PositionCorrection, RevoluteJoint, SolverSettings};
use std::sync::atomic::{AtomicU32, Ordering};

/// A pre-solve hook on the ground that changes its contacts as the steps
/// go: a conveyor belt for a while (its contacts are then solved one at
/// a time, outside the batches), bouncy for a while, and for a few steps
/// no contact at all.
struct Script {
    /// The step being taken.
    step: AtomicU32,
}

/// The steps the ground runs as a belt.
const BELT: std::ops::Range<u32> = 60..110;
/// The steps the ground is bouncy.
const BOUNCY: std::ops::Range<u32> = 115..120;
/// The steps the ground's contacts are switched off.
const OFF: std::ops::Range<u32> = 130..134;

impl ContactHooks for Script {
    fn pre_solve(&self, _: &ShapePair, _: &Manifold, material: &mut ContactMaterial) -> bool {
        let step = self.step.load(Ordering::Relaxed);
        if BELT.contains(&step) {
            material.tangent_speed = 0.2;
        }
        if BOUNCY.contains(&step) {
            material.restitution = 0.3;
        }
        !OFF.contains(&step)
    }
}

/// A pyramid of boxes on a ground with the [`Script`] hook, and a bouncy
/// ball with hit events dropped onto it (its contacts are tracked), with
/// the position correction `correction`.
fn scene(correction: PositionCorrection) -> (World, Vec<BodyId>) {
    let mut world = World::default();
    let solver = SolverSettings {
        position_correction: correction,
        ..SolverSettings::default()
    };
    world.set_solver_settings(solver).unwrap();
    let g = ground(&mut world);
    let shape = world.body_shapes(g).unwrap()[0];
    world.set_pre_solve(shape, true).unwrap();
    let mut boxes = Vec::new();
    for row in 0..6 {
        for k in 0..6 - row {
            let x = (k as f32 - (5 - row) as f32 / 2.0) * 1.05;
            boxes.push(unit_box(&mut world, Vec2::new(x, 0.5 + row as f32)));
        }
    }
    let ball = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(0.1, 9.0)))
        .unwrap();
    let def = ShapeDef {
        restitution: 0.5,
        hit_events: true,
        ..ShapeDef::default()
    };
    world
        .create_shape(ball, Circle::new(Vec2::ZERO, 0.3).unwrap(), &def)
        .unwrap();
    (world, boxes)
}

/// Edits between steps that change the constraints' values but not their
/// coloring (a push), and ones that change the coloring (a box made to
/// turn like a 100 m pole, which with split impulses takes its manifold
/// out of its two-point batch; a body made static, a joint made, a box
/// added on the ground, then frozen by a force that overflows, so that
/// its contact is left out, and freed again where it lies).
fn edit(world: &mut World, boxes: &[BodyId], step: u32) {
    match step {
        150 => world.set_linear_velocity(boxes[17], Vec2::new(0.3, 0.0)).unwrap(),
        // A box on the ground given a second shape as heavy as itself
        // 100 m above it: its inertia about its center of mass, 2500 times
        // its mass, makes its two-point manifold's K too ill-conditioned
        // to solve as a block, which with split impulses takes it out of
        // its two-point batch.
        160 => {
            let radius = 0.05;
            let def = ShapeDef {
                density: 1.0 / (std::f32::consts::PI * radius * radius),
                ..ShapeDef::default()
            };
            let far = Circle::new(Vec2::new(0.0, 100.0), radius).unwrap();
            world.create_shape(boxes[1], far, &def).unwrap();
        }
        170 => world.set_body_type(boxes[9], BodyType::Static).unwrap(),
        190 => {
            let at = world.position(boxes[18]).unwrap();
            let def = JointDef::new(boxes[18], boxes[19], RevoluteJoint::default())
                .at(world, at)
                .unwrap();
            world.create_joint(&def).unwrap();
        }
        210 => {
            let b = world
                .create_body(&BodyDef::dynamic().at(Vec2::new(-6.0, 0.5)))
                .unwrap();
            world
                .create_shape(b, Polygon::new_box(0.5, 0.5).unwrap(), &ShapeDef::default())
                .unwrap();
        }
        215 => {
            // (A unit box's spin overflows.)
            let added = world.bodies().last().unwrap();
            world.apply_torque(added, f32::MAX).unwrap();
        }
        225 => {
            let frozen = world.frozen_bodies()[0];
            let xf = world.transform(frozen).unwrap();
            world.set_transform(frozen, xf.p, xf.q.angle()).unwrap();
        }
        _ => {}
    }
}

/// Every body's position, rotation and velocities, as bits.
fn bits(world: &World) -> Vec<u32> {
    world
        .bodies()
        .flat_map(|b| {
            let (xf, v, w) = (
                world.transform(b).unwrap(),
                world.linear_velocity(b).unwrap(),
                world.angular_velocity(b).unwrap(),
            );
            [xf.p.x, xf.p.y, xf.q.c, xf.q.s, v.x, v.y, w].map(f32::to_bits)
        })
        .collect()
}

/// Steps the scene with `correction` both ways and checks they agree bit
/// for bit, step by step.
fn kept_and_usual_agree(correction: PositionCorrection) {
    let (mut kept, boxes) = scene(correction);
    let (mut usual, _) = scene(correction);
    let (kept_hooks, usual_hooks) = (
        Script {
            step: AtomicU32::new(0),
        },
        Script {
            step: AtomicU32::new(0),
        },
    );
    let (mut built, mut refused, mut tracked, mut lone) = (0, 0, 0, 0);
    for step in 0..260 {
        for (world, hooks) in [(&mut kept, &kept_hooks), (&mut usual, &usual_hooks)] {
            edit(world, &boxes, step);
            hooks.step.store(step, Ordering::Relaxed);
        }
        let tried = kept.solver.tries_kept_coloring();
        usual.solver.forget_kept_coloring();
        kept.step_with_hooks(DT, &kept_hooks);
        usual.step_with_hooks(DT, &usual_hooks);
        assert!(usual.solver.built_as_colored().is_none());
        match kept.solver.built_as_colored() {
            Some((t, l)) => {
                built += 1;
                tracked += usize::from(t > 0);
                lone += usize::from(l > 0);
            }
            None => refused += usize::from(tried),
        }
        assert!(
            bits(&kept) == bits(&usual),
            "{correction:?}, step {step}: the kept coloring moved the bodies otherwise"
        );
        assert_eq!(
            kept.solver.picked(),
            usual.solver.picked(),
            "{correction:?}, step {step}: the kept coloring picked the contacts otherwise"
        );
    }
    // Most steps keep the coloring; the script's changes make some
    // refuse it; and it was kept with the ball's tracked contacts and
    // with the belt's contacts solved one at a time.
    assert!(built > 150, "built straight into the kept coloring {built} times");
    assert!(refused >= 3, "refused {refused} times");
    assert!(tracked > 20, "with tracked constraints {tracked} times");
    assert!(lone > 20, "with constraints solved one at a time {lone} times");
}

#[test]
fn steps_built_straight_into_the_kept_coloring_move_every_body_as_the_usual_way() {
    kept_and_usual_agree(PositionCorrection::SoftStep);
}

/// With split impulses a two-point batch holds only well-conditioned
/// blocks: the kept batches check each lane's anew.
#[test]
fn with_split_impulses_too() {
    kept_and_usual_agree(PositionCorrection::SplitImpulse);
}
