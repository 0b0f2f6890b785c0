//! Corners in the world: a body that passes another's corner with room to
//! spare, sliding over it or falling beside it, at any speed, leaves as it
//! came (no ghost collision off the diagonal between the two corners);
//! corners that do meet still collide, head on, off centre or a face
//! against a corner, and never sink into each other, spinning or not;
//! and bodies flying at each other corner first or ball to ball never
//! pass through.

use super::tests::DT;
use super::*;
use crate::body::BodyDef;
use crate::collision::shape_distance;
use crate::math::Transform;
use crate::shapes::{Capsule, Circle, Polygon, Shape, ShapeDef};

/// The shapes a corner is passed by, each about its body's origin, with
/// its half-height.
fn movers() -> [(Shape, f32); 3] {
    [
        (Polygon::new_box(0.5, 0.5).unwrap().into(), 0.5),
        (Circle::new(Vec2::ZERO, 0.5).unwrap().into(), 0.5),
        (
            Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.25)
                .unwrap()
                .into(),
            0.25,
        ),
    ]
}

/// The obstacles, each reaching up to y = 0.5 and out to x = 0.5 from the
/// origin (a box's corner, a circle's side, a capsule's end); a chain
/// ledge whose corner is at (0.5, 0.5); and a row of three 1 m tiles,
/// their tops on y = 0.5 from x = -1.5 to 1.5, as shapes of one static
/// body or static bodies of their own (their seams smoothed). Returns the
/// body of the obstacle (the first tile's).
fn add_obstacle(world: &mut World, kind: usize) -> BodyId {
    let ground = world.create_body(&BodyDef::static_body()).unwrap();
    let def = ShapeDef::default();
    if kind >= 4 {
        for x in [-1.0, 0.0, 1.0] {
            if kind == 4 || x == -1.0 {
                let tile = Polygon::new_offset_box(0.5, 0.5, Vec2::new(x, 0.0), 0.0).unwrap();
                world.create_shape(ground, tile, &def).unwrap();
            } else {
                let body = world
                    .create_body(&BodyDef::static_body().at(Vec2::new(x, 0.0)))
                    .unwrap();
                world
                    .create_shape(body, Polygon::new_box(0.5, 0.5).unwrap(), &def)
                    .unwrap();
            }
        }
        return ground;
    }
    let shape: Shape = match kind {
        0 => Polygon::new_box(0.5, 0.5).unwrap().into(),
        1 => Circle::new(Vec2::ZERO, 0.5).unwrap().into(),
        2 => Capsule::new(Vec2::new(-0.25, 0.25), Vec2::new(0.25, 0.25), 0.25)
            .unwrap()
            .into(),
        _ => {
            let points = [
                Vec2::new(-6.0, 0.5),
                Vec2::new(0.5, 0.5),
                Vec2::new(0.5, -60.0),
                Vec2::new(6.0, -60.0),
            ];
            // Clockwise, so the chain's front faces up and out.
            let reversed: Vec<Vec2> = points.iter().rev().copied().collect();
            world.create_chain(ground, &reversed, false, &def).unwrap();
            return ground;
        }
    };
    world.create_shape(ground, shape, &def).unwrap();
    ground
}

/// What a step-by-step run saw of the moving body: its velocity and spin
/// at the end, and the deepest its surface sank into the obstacle.
struct Run {
    velocity: Vec2,
    spin: f32,
    position: Vec2,
    deepest: f32,
}

/// Moves `mover` from `start` at `velocity` past (or into) obstacle
/// `kind` for `steps` steps, with gravity `gravity`.
fn run(kind: usize, mover: &Shape, start: Vec2, velocity: Vec2, gravity: Vec2, steps: usize) -> Run {
    let mut world = World::default();
    world.set_gravity(gravity).unwrap();
    let ground = add_obstacle(&mut world, kind);
    let at = world.transform(ground).unwrap();
    let obstacles: Vec<Shape> = world
        .body_shapes(ground)
        .unwrap()
        .into_iter()
        .map(|s| *world.shape(s).unwrap())
        .collect();
    let body = world
        .create_body(&BodyDef::dynamic().at(start).with_velocity(velocity))
        .unwrap();
    world.create_shape(body, *mover, &ShapeDef::default()).unwrap();
    let mut deepest: f32 = 0.0;
    for _ in 0..steps {
        world.step(DT);
        let xf = world.transform(body).unwrap();
        for shape in &obstacles {
            deepest = deepest.max(-shape_distance(shape, &at, mover, &xf).distance);
        }
    }
    Run {
        velocity: world.linear_velocity(body).unwrap(),
        spin: world.angular_velocity(body).unwrap(),
        position: world.position(body).unwrap(),
        deepest,
    }
}

/// Steps for a body at `speed` to travel `distance`, and a few more.
fn steps_to_cover(distance: f32, speed: f32) -> usize {
    (distance / (speed * DT)).ceil() as usize + 5
}

#[test]
fn sliding_over_a_corner_with_room_to_spare_leaves_a_body_as_it_came() {
    for kind in 0..6 {
        for (mover, half_height) in movers() {
            for speed in [1.0, 3.0, 10.0, 30.0] {
                for gap in [0.001, 0.005, 0.015, 0.03, 0.05] {
                    let start = Vec2::new(-2.8, 0.5 + half_height + gap);
                    let v = Vec2::new(speed, 0.0);
                    let r = run(kind, &mover, start, v, Vec2::ZERO, steps_to_cover(5.6, speed));
                    let case = format!("obstacle {kind}, {mover:?}, {speed} m/s, gap {gap}");
                    assert!(r.position.x > 2.7, "{case}: did not pass, at {:?}", r.position);
                    assert!(
                        (r.velocity - v).length() <= 1e-5 * speed,
                        "{case}: {:?}",
                        r.velocity
                    );
                    assert!(r.spin.abs() <= 1e-5, "{case}: spins at {}", r.spin);
                    assert!(
                        (r.position.y - start.y).abs() <= 1e-5,
                        "{case}: at {:?}",
                        r.position
                    );
                }
            }
        }
    }
}

#[test]
fn falling_past_a_corner_with_room_to_spare_falls_straight() {
    let gravity = Vec2::new(0.0, -10.0);
    for kind in [0, 2, 3] {
        for (mover, _) in movers() {
            let half_width = match mover {
                Shape::Capsule(_) => 0.75,
                _ => 0.5,
            };
            for speed in [0.0, 3.0, 10.0, 30.0] {
                for gap in [0.002, 0.01, 0.03] {
                    let start = Vec2::new(0.5 + half_width + gap, 2.0);
                    let v = Vec2::new(0.0, -speed);
                    let steps = 60;
                    let r = run(kind, &mover, start, v, gravity, steps);
                    let case = format!("obstacle {kind}, {mover:?}, {speed} m/s, gap {gap}");
                    let t = steps as f32 * DT;
                    // Semi-implicit Euler falls exactly this fast.
                    let expected = -speed - 10.0 * t;
                    assert!(r.velocity.x.abs() <= 1e-5, "{case}: {:?}", r.velocity);
                    assert!(
                        (r.velocity.y - expected).abs() <= 1e-3,
                        "{case}: {:?}",
                        r.velocity
                    );
                    assert!(r.spin.abs() <= 1e-5, "{case}: spins at {}", r.spin);
                    assert_eq!(r.position.x, start.x, "{case}");
                }
            }
        }
    }
}

#[test]
fn corners_that_meet_still_collide() {
    let box_shape: Shape = Polygon::new_box(0.5, 0.5).unwrap().into();
    for speed in [3.0, 10.0, 30.0] {
        // Sliding into the side, 5 cm below the top: stopped (it tips up
        // over the corner, friction 0.6, and loses most of its speed).
        let side = run(
            0,
            &box_shape,
            Vec2::new(-2.0, 0.95),
            Vec2::new(speed, 0.0),
            Vec2::ZERO,
            steps_to_cover(1.2, speed),
        );
        assert!(
            side.velocity.x < 0.5 * speed,
            "{speed} m/s into the side: {:?}",
            side.velocity
        );
        assert!(
            side.deepest < 0.02,
            "{speed} m/s into the side sank {}",
            side.deepest
        );

        // Corner to corner along the diagonal: stopped dead, square on.
        let diagonal = Vec2::new(speed, -speed);
        let head_on = run(
            0,
            &box_shape,
            Vec2::new(-2.0, 2.0),
            diagonal,
            Vec2::ZERO,
            steps_to_cover(1.5 * std::f32::consts::SQRT_2, speed),
        );
        assert!(
            head_on.velocity.length() < 1e-3 * speed,
            "{speed} m/s head on: {:?}",
            head_on.velocity
        );
        assert!(
            head_on.spin.abs() < 1e-3,
            "{speed} m/s head on: spins at {}",
            head_on.spin
        );
        assert!(
            head_on.deepest < 0.02,
            "{speed} m/s head on sank {}",
            head_on.deepest
        );

        // Falling 1 cm onto the corner's top face: caught on it (turned
        // and thrown aside, never through the corner).
        let onto = run(
            0,
            &box_shape,
            Vec2::new(0.99, 2.0),
            Vec2::new(0.0, -speed),
            Vec2::ZERO,
            steps_to_cover(1.5, speed),
        );
        assert!(onto.spin.abs() > 0.1, "{speed} m/s onto the corner: no turn");
        assert!(
            onto.velocity.x > 0.1 * speed,
            "{speed} m/s onto the corner: {:?}",
            onto.velocity
        );
        assert!(
            onto.deepest < 0.02,
            "{speed} m/s onto the corner sank {}",
            onto.deepest
        );
    }
}

#[test]
fn bodies_meeting_head_on_never_pass_through_each_other() {
    // Two equal bodies closing at up to 120 m/s (a step's travel more than
    // their size), ball to ball, corner to corner and ball to corner, in
    // zero gravity: they meet and stop each other (no bounce), momentum
    // kept, and end on the sides they started on.
    let shapes: [Shape; 2] = [
        Circle::new(Vec2::ZERO, 0.5).unwrap().into(),
        Polygon::new_box(0.5, 0.5).unwrap().into(),
    ];
    for speed in [5.0, 20.0, 60.0] {
        for (a, b) in [(0, 0), (1, 1), (0, 1), (1, 0)] {
            let mut world = World::default();
            world.set_gravity(Vec2::ZERO).unwrap();
            // Boxes turned 45 degrees meet corner first along x.
            let turn = |k: usize| if k == 1 { std::f32::consts::FRAC_PI_4 } else { 0.0 };
            let mut make = |k: usize, x: f32, v: f32| {
                let def = BodyDef::dynamic()
                    .at(Vec2::new(x, 0.0))
                    .with_angle(turn(k))
                    .with_velocity(Vec2::new(v, 0.0));
                let body = world.create_body(&def).unwrap();
                world.create_shape(body, shapes[k], &ShapeDef::default()).unwrap();
                body
            };
            let (left, right) = (make(a, -3.0, speed), make(b, 3.0, -speed));
            let mass = |w: &World, body| w.mass_data(body).unwrap().mass;
            let momentum = |w: &World| {
                mass(w, left) * w.linear_velocity(left).unwrap()
                    + mass(w, right) * w.linear_velocity(right).unwrap()
            };
            let before = momentum(&world);
            for _ in 0..120 {
                world.step(DT);
            }
            let case = format!("{a} against {b} at {speed} m/s");
            let (xl, xr) = (world.position(left).unwrap().x, world.position(right).unwrap().x);
            assert!(xl < xr, "{case}: passed through, at {xl} and {xr}");
            let relative = world.linear_velocity(right).unwrap() - world.linear_velocity(left).unwrap();
            assert!(
                relative.x > -1e-3 * speed,
                "{case}: still closing at {relative:?}"
            );
            assert!(relative.x < 0.05 * speed, "{case}: bounced apart at {relative:?}");
            assert!(
                (momentum(&world) - before).length() <= 1e-3 * speed * mass(&world, left),
                "{case}"
            );
        }
    }
}

#[test]
fn spinning_bodies_falling_onto_a_corner_are_caught() {
    // A ball or a box spinning either way (rolling into the corner, or
    // against it) falls onto a box's top-left corner, its center just
    // beside it: spin moves the contact's point sideways, which says
    // nothing of how the corner and the ball's center close, so it must
    // not let the contact look away from them.
    let gravity = Vec2::new(0.0, -10.0);
    for (mover, half) in [
        (Shape::from(Circle::new(Vec2::ZERO, 0.5).unwrap()), 0.5),
        (Polygon::new_box(0.5, 0.5).unwrap().into(), 0.5),
    ] {
        for spin in [-20.0, -7.0, 7.0, 20.0] {
            for speed in [1.0, 5.0, 15.0] {
                for beside in [0.05, 0.15, 0.3] {
                    let mut world = World::default();
                    world.set_gravity(gravity).unwrap();
                    add_obstacle(&mut world, 0);
                    let start = Vec2::new(-0.5 - beside, 0.5 + half + 0.3);
                    let def = BodyDef::dynamic().at(start).with_velocity(Vec2::new(0.0, -speed));
                    let body = world.create_body(&def).unwrap();
                    world.set_angular_velocity(body, spin).unwrap();
                    world.create_shape(body, mover, &ShapeDef::default()).unwrap();
                    let corner: Shape = Polygon::new_box(0.5, 0.5).unwrap().into();
                    let mut deepest: f32 = 0.0;
                    for _ in 0..60 {
                        world.step(DT);
                        let xf = world.transform(body).unwrap();
                        let d = shape_distance(&corner, &Transform::IDENTITY, &mover, &xf).distance;
                        deepest = deepest.max(-d);
                    }
                    let case = format!("{mover:?} spinning {spin}, falling {speed} m/s, {beside} m beside");
                    assert!(deepest < 0.02, "{case}: sank {deepest}");
                }
            }
        }
    }
}
