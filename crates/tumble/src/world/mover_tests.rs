//! Character mover tests: slopes, walls, stairs, speed, platforms, doors.

use super::tests::DT;
use super::*;
use crate::body::BodyDef;
use crate::shapes::ShapeDef;
use crate::shapes::{Capsule, Polygon, Shape};

const GRAVITY: f32 = 10.0;

/// A capsule character (0.6 m wide, 1.6 m tall) on a kinematic body, moved
/// the way the mover's docs say a game moves it.
struct Character {
    body: BodyId,
    shape: Shape,
    controller: CharacterController,
    fall: f32,
}

impl Character {
    fn new(world: &mut World, at: Vec2) -> Character {
        let capsule = Capsule::new(Vec2::new(0.0, -0.5), Vec2::new(0.0, 0.5), 0.3).unwrap();
        let body = world.create_body(&BodyDef::kinematic().at(at)).unwrap();
        world.create_shape(body, capsule, &ShapeDef::default()).unwrap();
        Character {
            body,
            shape: capsule.into(),
            controller: CharacterController::default(),
            fall: 0.0,
        }
    }

    /// One frame walking at `walk` m/s: the move, the body moved, the
    /// world stepped.
    fn frame(&mut self, world: &mut World, walk: f32) -> CharacterMove {
        self.fall -= GRAVITY * DT;
        let xf = world.transform(self.body).unwrap();
        let desired = Vec2::new(walk, self.fall) * DT;
        let m = world
            .move_character(&self.controller, &self.shape, xf, desired, DT, Some(self.body))
            .unwrap();
        if m.grounded {
            self.fall = 0.0;
        }
        world.set_linear_velocity(self.body, m.translation / DT).unwrap();
        world.step(DT);
        m
    }

    fn position(&self, world: &World) -> Vec2 {
        world.position(self.body).unwrap()
    }
}

/// A world with a static floor 60 m wide whose top is at y = 0, and the
/// floor's body.
fn world_with_floor() -> (World, BodyId) {
    let mut world = World::default();
    let g = world.create_body(&BodyDef::static_body()).unwrap();
    let floor = Polygon::new_offset_box(30.0, 1.0, Vec2::new(0.0, -1.0), 0.0).unwrap();
    world.create_shape(g, floor, &ShapeDef::default()).unwrap();
    (world, g)
}

/// Flat ground with its top at y = 0, and a ramp of `degrees` rising to
/// the right from x = 2 (a static triangle).
fn world_with_ramp(degrees: f32) -> World {
    let (mut world, g) = world_with_floor();
    let slope = degrees.to_radians().tan();
    let ramp = Polygon::new(&[
        Vec2::new(2.0, 0.0),
        Vec2::new(12.0, 0.0),
        Vec2::new(12.0, 10.0 * slope),
    ])
    .unwrap();
    world.create_shape(g, ramp, &ShapeDef::default()).unwrap();
    world
}

#[test]
fn the_character_walks_up_a_30_degree_slope() {
    let mut world = world_with_ramp(30.0);
    let mut c = Character::new(&mut world, Vec2::new(0.0, 0.81));
    let mut grounded = 0;
    for _ in 0..180 {
        grounded += usize::from(c.frame(&mut world, 3.0).grounded);
    }
    let p = c.position(&world);
    // Its bottom (0.3 below the lower cap's center, 0.8 below the body)
    // rests on the ramp's surface: y = tan 30 (x - 2) + 0.3 / cos 30 + 0.5.
    let on_ramp = 30f32.to_radians().tan() * (p.x - 2.0) + 0.3 / 30f32.to_radians().cos() + 0.5;
    assert!(p.x > 6.0, "it climbed: {p:?}");
    assert!((p.y - on_ramp).abs() < 0.03, "on the ramp ({on_ramp}): {p:?}");
    assert!(grounded > 170, "grounded {grounded} frames of 180");
}

#[test]
fn the_character_stops_at_a_50_degree_slope() {
    let mut world = world_with_ramp(50.0);
    let mut c = Character::new(&mut world, Vec2::new(0.0, 0.81));
    for _ in 0..180 {
        c.frame(&mut world, 3.0);
    }
    let p = c.position(&world);
    // It reaches the foot of the slope (its side touches it a little up)
    // and no farther up than its round bottom allows.
    assert!(p.x < 2.3 && p.x > 1.5, "stopped at the foot: {p:?}");
    assert!(p.y < 0.9, "did not climb: {p:?}");
    // Standing still on the flat, it is grounded.
    assert!(c.frame(&mut world, 0.0).grounded);
    // Put on the slope, it slides down it, not grounded while it does.
    let slope = 50f32.to_radians();
    let on_slope = Vec2::new(6.0, (6.0 - 2.0) * slope.tan() + 0.3 / slope.cos() + 0.5 + 0.02);
    world.set_transform(c.body, on_slope, 0.0).unwrap();
    let first = c.frame(&mut world, 0.0);
    assert!(first.sliding && !first.grounded, "{first:?}");
    for _ in 0..120 {
        c.frame(&mut world, 0.0);
    }
    let p = c.position(&world);
    assert!(p.x < 2.3 && p.y < 0.9, "slid down to the foot: {p:?}");
}

#[test]
fn the_character_slides_down_a_wall_it_pushes_into_without_sticking() {
    let mut world = World::default();
    let g = world.create_body(&BodyDef::static_body()).unwrap();
    world
        .create_shape(
            g,
            Polygon::new_offset_box(0.5, 10.0, Vec2::new(1.0, 10.0), 0.0).unwrap(),
            &ShapeDef::default(),
        )
        .unwrap();
    let mut c = Character::new(&mut world, Vec2::new(0.0, 15.0));
    for _ in 0..60 {
        c.frame(&mut world, 4.0);
    }
    let p = c.position(&world);
    // The wall's face is at x = 0.5: the capsule (radius 0.3) rests at
    // 0.2 less the skin, and falls freely: after 1 s of 60 frames, v = g t
    // and y drops by g h^2 k (k + 1) / 2 over the frames.
    assert!((p.x - 0.19).abs() < 0.01, "pressed to the wall: {p:?}");
    let drop = GRAVITY * DT * DT * 60.0 * 61.0 / 2.0;
    assert!(
        (15.0 - p.y - drop).abs() < 0.05,
        "fell {} (free fall {drop})",
        15.0 - p.y
    );
}

#[test]
fn the_character_steps_up_a_low_stair_but_not_a_high_one() {
    for (height, climbs) in [(0.2f32, true), (0.4, false)] {
        let (mut world, g) = world_with_floor();
        let step = Polygon::new_offset_box(5.0, 0.5 * height, Vec2::new(7.0, 0.5 * height), 0.0).unwrap();
        world.create_shape(g, step, &ShapeDef::default()).unwrap();
        let mut c = Character::new(&mut world, Vec2::new(0.0, 0.81));
        for _ in 0..120 {
            c.frame(&mut world, 2.0);
        }
        let p = c.position(&world);
        if climbs {
            assert!(
                p.x > 3.0 && (p.y - (height + 0.81)).abs() < 0.02,
                "{height} m: on the step: {p:?}"
            );
        } else {
            assert!(
                p.x < 2.0 && (p.y - 0.81).abs() < 0.02,
                "{height} m: stopped at it: {p:?}"
            );
        }
    }
}

#[test]
fn the_character_never_tunnels_through_a_thin_wall_at_20_m_per_s() {
    let (mut world, g) = world_with_floor();
    world
        .create_shape(
            g,
            Polygon::new_offset_box(0.025, 2.0, Vec2::new(5.0, 2.0), 0.0).unwrap(),
            &ShapeDef::default(),
        )
        .unwrap();
    let mut c = Character::new(&mut world, Vec2::new(0.0, 0.81));
    for _ in 0..60 {
        c.frame(&mut world, 20.0);
        assert!(
            c.position(&world).x < 4.975 - 0.29,
            "through the wall: {:?}",
            c.position(&world)
        );
    }
    assert!(c.position(&world).x > 4.6, "it reached the wall");
}

#[test]
fn the_character_rides_a_moving_platform() {
    for velocity in [Vec2::new(2.0, 0.0), Vec2::new(0.0, 1.0), Vec2::new(-1.0, -0.5)] {
        let mut world = World::new(WorldSettings {
            sleeping: false,
            ..WorldSettings::default()
        });
        let platform = world
            .create_body(
                &BodyDef::kinematic()
                    .at(Vec2::new(0.0, 5.0))
                    .with_velocity(velocity),
            )
            .unwrap();
        world
            .create_shape(
                platform,
                Polygon::new_box(3.0, 0.1).unwrap(),
                &ShapeDef::default(),
            )
            .unwrap();
        let mut c = Character::new(&mut world, Vec2::new(0.0, 5.91));
        for _ in 0..10 {
            c.frame(&mut world, 0.0);
        }
        let start = c.position(&world) - world.position(platform).unwrap();
        for _ in 0..90 {
            assert!(
                c.frame(&mut world, 0.0).grounded,
                "platform at {velocity:?}: grounded"
            );
        }
        let relative = c.position(&world) - world.position(platform).unwrap();
        assert!(
            (relative - start).length() < 0.05,
            "platform at {velocity:?}: it kept its place on the platform ({start:?} -> {relative:?})"
        );
    }
}

#[test]
fn a_closing_door_pushes_the_character_along_the_floor_not_into_it() {
    let (mut world, _) = world_with_floor();
    // A door sliding left at 1.5 m/s, its bottom on the floor.
    let door = world
        .create_body(
            &BodyDef::kinematic()
                .at(Vec2::new(2.0, 1.5))
                .with_velocity(Vec2::new(-1.5, 0.0)),
        )
        .unwrap();
    world
        .create_shape(door, Polygon::new_box(0.2, 1.5).unwrap(), &ShapeDef::default())
        .unwrap();
    let mut c = Character::new(&mut world, Vec2::new(0.0, 0.81));
    for _ in 0..120 {
        c.frame(&mut world, 0.0);
        let p = c.position(&world);
        let door_face = world.position(door).unwrap().x - 0.2;
        assert!(p.y > 0.79 && p.y < 0.83, "kept on the floor: {p:?}");
        assert!(
            p.x + 0.3 <= door_face + 0.03,
            "kept out of the door: {p:?}, door face {door_face}"
        );
    }
    assert!(
        c.position(&world).x < -1.0,
        "pushed along: {:?}",
        c.position(&world)
    );
}

/// The scene of a move the slides never finished: a circle pushed into
/// the corner a long capsule makes with a hexagon.
fn world_with_a_corner() -> World {
    let mut world = World::default();
    let ground = world
        .create_body(&BodyDef::static_body().at(Vec2::new(0.0, -1.0)))
        .unwrap();
    let capsule = Capsule::new(
        Vec2::new(57767.992, 0.13678336),
        Vec2::new(-0.027916074, -0.30390167),
        1.9551864,
    );
    world
        .create_shape(ground, capsule.unwrap(), &ShapeDef::default())
        .unwrap();
    let hexagon = Polygon::new(&[
        Vec2::new(-1.6690967, 0.7712053),
        Vec2::new(-0.12803853, 1.6609359),
        Vec2::new(-1.1554106, 1.6609358),
        Vec2::new(0.3856476, 0.7712054),
        Vec2::new(-1.1554105, -0.11852497),
        Vec2::new(-0.12803811, -0.11852473),
    ]);
    world
        .create_shape(ground, hexagon.unwrap(), &ShapeDef::default())
        .unwrap();
    world
}

#[test]
fn the_slides_of_one_move_are_bounded_whatever_max_slides_says() {
    // The circle ends its second slide against the corner, where a slide
    // neither moves it nor turns its motion: a move that asked for
    // u32::MAX slides took them all, one after another, for hours.
    let world = world_with_a_corner();
    let controller = CharacterController {
        max_slides: u32::MAX,
        ..CharacterController::default()
    };
    let circle: Shape = crate::shapes::Circle::new(Vec2::ZERO, 1.4647831).unwrap().into();
    let xf = crate::math::Transform {
        p: Vec2::new(0.64520454, 0.37658072),
        q: crate::math::Rot {
            c: -0.05459982,
            s: -0.99850833,
        },
    };
    let desired = Vec2::new(-8.426638, -6.3509693);
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let m = world.move_character(&controller, &circle, xf, desired, DT, None);
        let _ = done.send(m);
    });
    // Microseconds when bounded; the wait only turns a hang into a failure.
    let m = finished
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the move finished");
    let m = m.unwrap();
    assert!(m.translation.is_finite(), "{m:?}");
    // Stopped at the corner: what the default 4 slides find too.
    let four = world_with_a_corner()
        .move_character(&CharacterController::default(), &circle, xf, desired, DT, None)
        .unwrap();
    assert_eq!(m, four);
}

#[test]
fn a_move_past_the_range_of_f32_is_an_error_not_an_infinite_translation() {
    let world = World::default();
    let circle: Shape = crate::shapes::Circle::new(Vec2::ZERO, 0.5).unwrap().into();
    let controller = CharacterController::default();
    let far = crate::math::Transform::new(Vec2::new(0.0, -3.4e38), 0.0);
    let down = Vec2::new(0.0, -3.4e38);
    // Every input is finite, but the start is past the world's extent, and
    // the end of the move past the range of f32.
    assert_eq!(
        world.move_character(&controller, &circle, far, down, DT, None),
        Err(BodyError::OutOfRange("transform").into())
    );
    let here = crate::math::Transform::new(Vec2::ZERO, 0.0);
    assert!(world
        .move_character(&controller, &circle, here, down, DT, None)
        .is_err());
    // A segment reaching 3.4e38 from its body, moved up by as much.
    let segment: Shape = crate::shapes::Segment::new(Vec2::ZERO, Vec2::new(0.0, 3.4e38))
        .unwrap()
        .into();
    assert!(world
        .move_character(&controller, &segment, here, Vec2::new(0.0, 3.4e38), DT, None)
        .is_err());
    // Near the edge of the world, a move is as anywhere.
    let edge = crate::math::Transform::new(Vec2::new(0.0, -0.99 * crate::settings::WORLD_EXTENT), 0.0);
    let m = world
        .move_character(&controller, &circle, edge, Vec2::new(1.0, 0.0), DT, None)
        .unwrap();
    assert!(
        m.translation.is_finite() && (m.translation.x - 1.0).abs() < 0.01,
        "{m:?}"
    );
}

/// A controller with a NaN or infinite field, or a negative length, is
/// refused by name; so are a move and a start that queries refuse.
#[test]
fn a_controller_with_bad_numbers_is_refused() {
    use crate::error::{BodyError, Error};
    let mut world = World::default();
    let c = Character::new(&mut world, Vec2::new(0.0, 2.0));
    let xf = world.transform(c.body).unwrap();
    let good = CharacterController::default();
    let nan = f32::NAN;
    let non_finite = |what| Err(Error::Body(BodyError::NonFinite(what)));
    let out_of_range = |what| Err(Error::Body(BodyError::OutOfRange(what)));
    for (controller, err) in [
        (
            CharacterController {
                up: Vec2::new(nan, 1.0),
                ..good
            },
            non_finite("controller up"),
        ),
        (
            CharacterController {
                up: Vec2::ZERO,
                ..good
            },
            out_of_range("controller up"),
        ),
        (
            CharacterController { skin: nan, ..good },
            non_finite("controller skin"),
        ),
        (
            CharacterController { skin: -0.1, ..good },
            out_of_range("controller skin"),
        ),
        (
            CharacterController {
                max_slope: nan,
                ..good
            },
            non_finite("controller max slope"),
        ),
        (
            CharacterController {
                max_slope: -0.1,
                ..good
            },
            out_of_range("controller max slope (0 to pi/2)"),
        ),
        (
            CharacterController {
                max_slope: 100.0,
                ..good
            },
            out_of_range("controller max slope (0 to pi/2)"),
        ),
        (
            CharacterController {
                step_height: f32::INFINITY,
                ..good
            },
            non_finite("controller step height"),
        ),
        (
            CharacterController {
                step_min_width: nan,
                ..good
            },
            non_finite("controller step min width"),
        ),
        (
            CharacterController {
                snap_to_ground: -1.0,
                ..good
            },
            out_of_range("controller snap to ground"),
        ),
    ] {
        assert_eq!(
            controller.validate(),
            err.map_err(|e| match e {
                Error::Body(b) => b,
                Error::Shape(_) | Error::Joint(_) => unreachable!(),
            })
        );
        assert_eq!(
            world.move_character(&controller, &c.shape, xf, -Vec2::Y * DT, DT, Some(c.body)),
            err.map(|()| unreachable!())
        );
    }
    assert_eq!(
        world.move_character(&good, &c.shape, xf, Vec2::new(nan, 0.0), DT, None),
        non_finite("desired translation").map(|()| unreachable!())
    );
    assert_eq!(
        world.move_character(&good, &c.shape, xf, Vec2::ZERO, nan, None),
        non_finite("dt").map(|()| unreachable!())
    );
    assert!(world
        .move_character(&good, &c.shape, xf, -Vec2::Y * DT, DT, Some(c.body))
        .is_ok());
}

/// The category the one-way platform tests give their platforms.
const PLATFORM: u64 = 0x4;

/// A platform 4 m wide, 0.2 m thick, its top at `top`, centred on `x`,
/// of category [`PLATFORM`].
fn platform(world: &mut World, floor: BodyId, x: f32, top: f32) -> ShapeId {
    let slab = Polygon::new_offset_box(2.0, 0.1, Vec2::new(x, top - 0.1), 0.0).unwrap();
    let def = ShapeDef {
        filter: crate::filter::Filter {
            category: PLATFORM,
            ..Default::default()
        },
        ..ShapeDef::default()
    };
    world.create_shape(floor, slab, &def).unwrap()
}

/// Jumps the character at 7 m/s and runs `frames` frames; the highest
/// its center reached.
fn jump(world: &mut World, c: &mut Character, frames: u32) -> f32 {
    c.fall = 7.0;
    let mut top = f32::MIN;
    for _ in 0..frames {
        c.frame(world, 0.0);
        top = top.max(c.position(world).y);
    }
    top
}

#[test]
fn a_character_jumps_up_through_a_one_way_platform_and_stands_on_it() {
    let (mut world, floor) = world_with_floor();
    let top = 2.2;
    let slab = platform(&mut world, floor, 0.0, top);
    let mut c = Character::new(&mut world, Vec2::new(0.0, 0.81));
    c.controller.one_way = PLATFORM;
    for _ in 0..10 {
        c.frame(&mut world, 0.0);
    }
    let peak = jump(&mut world, &mut c, 120);
    // Through it (its head, 0.8 above its center, passed the slab)...
    assert!(peak - 0.8 > top, "peak {peak}");
    // ...and down onto it: standing, its feet a skin above the top.
    let m = c.frame(&mut world, 0.0);
    assert!(m.grounded && m.ground == Some(slab), "{m:?}");
    let feet = c.position(&world).y - 0.8;
    assert!((feet - top - c.controller.skin).abs() < 0.005, "feet at {feet}");
    // It walks along it and off its end, back to the floor.
    for _ in 0..120 {
        c.frame(&mut world, 3.0);
    }
    let p = c.position(&world);
    assert!(p.x > 2.5 && (p.y - 0.81).abs() < 0.01, "{p}");
}

#[test]
fn without_the_one_way_rule_the_platform_stops_the_jump() {
    let (mut world, floor) = world_with_floor();
    let top = 2.2;
    platform(&mut world, floor, 0.0, top);
    let mut c = Character::new(&mut world, Vec2::new(0.0, 0.81));
    for _ in 0..10 {
        c.frame(&mut world, 0.0);
    }
    let peak = jump(&mut world, &mut c, 120);
    // Its head stops a skin under the slab's underside.
    assert!(peak + 0.8 < top - 0.2 + 0.02, "peak {peak}");
    let p = c.position(&world);
    assert!((p.y - 0.81).abs() < 0.01, "back on the floor: {p}");
}

#[test]
fn a_character_walks_through_a_one_way_platform_from_the_side() {
    let (mut world, floor) = world_with_floor();
    // A platform at head height, to the right.
    platform(&mut world, floor, 4.0, 1.2);
    let mut c = Character::new(&mut world, Vec2::new(0.0, 0.81));
    c.controller.one_way = PLATFORM;
    for _ in 0..120 {
        c.frame(&mut world, 3.0);
    }
    let p = c.position(&world);
    assert!(p.x > 5.5 && (p.y - 0.81).abs() < 0.01, "walked through: {p}");
    // Without the rule it is a wall.
    let (mut world, floor) = world_with_floor();
    platform(&mut world, floor, 4.0, 1.2);
    let mut c = Character::new(&mut world, Vec2::new(0.0, 0.81));
    for _ in 0..120 {
        c.frame(&mut world, 3.0);
    }
    assert!(c.position(&world).x < 2.0 - 0.3 + 0.02);
}

#[test]
fn a_character_on_a_lift_stays_a_skin_above_it_as_it_falls_and_turns() {
    let mut world = World::new(WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    });
    let lift = world
        .create_body(
            &BodyDef::kinematic()
                .at(Vec2::new(0.0, 5.0))
                .with_velocity(Vec2::new(0.0, -1.5)),
        )
        .unwrap();
    world
        .create_shape(lift, Polygon::new_box(3.0, 0.1).unwrap(), &ShapeDef::default())
        .unwrap();
    let mut c = Character::new(&mut world, Vec2::new(0.0, 5.91));
    let skin = c.controller.skin;
    // Feet 0.8 below the center, the lift's top 0.1 above its origin.
    let gap =
        |world: &World, c: &Character| c.position(world).y - 0.8 - (world.position(lift).unwrap().y + 0.1);
    for _ in 0..30 {
        c.frame(&mut world, 0.0);
    }
    let x0 = c.position(&world).x - world.position(lift).unwrap().x;
    for phase in 0..2 {
        if phase == 1 {
            // The game turns the lift before the frame's move.
            world.set_linear_velocity(lift, Vec2::new(3.0, 2.0)).unwrap();
        }
        for k in 0..60 {
            let m = c.frame(&mut world, 0.0);
            assert!(m.grounded, "phase {phase}, frame {k}");
            let g = gap(&world, &c);
            assert!(
                (g - skin).abs() < 0.002,
                "phase {phase}, frame {k}: {g} above the lift"
            );
        }
    }
    let x1 = c.position(&world).x - world.position(lift).unwrap().x;
    assert!((x1 - x0).abs() < 0.002, "carried along: {x0} -> {x1}");
}
