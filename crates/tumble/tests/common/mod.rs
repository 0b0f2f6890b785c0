//! The scene shared by the determinism and snapshot tests: a few dozen boxes
//! and circles falling into a walled pit, with bodies removed and added
//! while it runs.
//!
//! Everything the script does depends only on the world itself (its step
//! count and its bodies in slot order), never on state kept outside it, so
//! a world restored from a snapshot carries on with the same script.

use tumble::{BodyDef, BodyType, Circle, Polygon, ShapeDef, Vec2, World, WorldSettings};

/// Step length of every run, seconds.
pub const DT: f32 = 1.0 / 60.0;

/// A number in `[0, 1)` from an integer: a fixed hash, so the scene needs
/// no random generator whose state would live outside the world.
pub fn noise(k: u32) -> f32 {
    let mut x = k.wrapping_mul(0x9e37_79b9) ^ 0x5bd1_e995;
    x ^= x >> 15;
    x = x.wrapping_mul(0x2c1b_3c6d);
    x ^= x >> 12;
    x = x.wrapping_mul(0x297a_2d39);
    x ^= x >> 15;
    (x >> 8) as f32 / (1u32 << 24) as f32
}

/// Adds one dynamic body: a box for even `k`, a circle for odd `k`, with
/// sizes and angle drawn from `noise`.
fn add_piece(world: &mut World, k: u32, at: Vec2) {
    let angle = 3.0 * noise(k * 7 + 1);
    let body = world
        .create_body(&BodyDef::dynamic().at(at).with_angle(angle))
        .expect("finite body");
    let size = 0.25 + 0.2 * noise(k * 7 + 2);
    let def = ShapeDef::default();
    if k % 2 == 0 {
        let shape = Polygon::new_box(size, 0.25 + 0.2 * noise(k * 7 + 3)).expect("valid box");
        world.create_shape(body, shape, &def).expect("valid shape");
    } else {
        let shape = Circle::new(Vec2::ZERO, size).expect("valid circle");
        world.create_shape(body, shape, &def).expect("valid shape");
    }
}

/// The pit (a floor whose top is y = 0 and two walls 12 m apart) and
/// `count` bodies in rows above it.
pub fn build_pile(count: u32) -> World {
    build_pile_in(
        count,
        WorldSettings {
            sleeping: false,
            ..WorldSettings::default()
        },
    )
}

/// [`build_pile`] in a world of the given settings.
pub fn build_pile_in(count: u32, settings: WorldSettings) -> World {
    let mut world = World::new(settings);
    let fixed = ShapeDef::default();
    let ground = world
        .create_body(&BodyDef::static_body().at(Vec2::new(0.0, -1.0)))
        .expect("finite ground");
    world
        .create_shape(ground, Polygon::new_box(10.0, 1.0).expect("valid ground"), &fixed)
        .expect("valid ground shape");
    for side in [-1.0f32, 1.0] {
        let wall = world
            .create_body(&BodyDef::static_body().at(Vec2::new(side * 6.5, 8.0)))
            .expect("finite wall");
        world
            .create_shape(wall, Polygon::new_box(0.5, 8.0).expect("valid wall"), &fixed)
            .expect("valid wall shape");
    }
    for k in 0..count {
        let (row, col) = (k / 8, k % 8);
        let x = (col as f32 - 3.5) * 1.2 + 0.2 * (noise(k * 7 + 4) - 0.5);
        let y = 1.0 + row as f32 * 1.1;
        add_piece(&mut world, k, Vec2::new(x, y));
    }
    world
}

/// One step of the script: every 120 steps, at step 60 of the cycle, every
/// fourth dynamic body (in slot order) is removed; at step 90, five new
/// bodies drop in from above (reusing the freed slots). Then the world
/// steps.
pub fn advance(world: &mut World) {
    let s = world.step_count() as u32;
    match s % 120 {
        60 => {
            let doomed: Vec<_> = world
                .bodies()
                .filter(|&b| world.body_type(b) == Ok(BodyType::Dynamic))
                .step_by(4)
                .collect();
            for b in doomed {
                world.remove_body(b).expect("live body");
            }
        }
        90 => {
            for j in 0..5 {
                let k = 1000 + s * 5 + j;
                let x = (j as f32 - 2.0) * 1.5 + 0.3 * (noise(k * 7 + 5) - 0.5);
                add_piece(world, k, Vec2::new(x, 9.0 + noise(k * 7 + 6)));
            }
        }
        _ => {}
    }
    world.step(DT);
}

/// FNV-1a (64-bit) over the bits of every live body's position x, y and
/// rotation cosine, sine, in `World::bodies()` order.
pub fn world_hash(world: &World) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in world.bodies() {
        let xf = world.transform(b).expect("live body");
        for v in [xf.p.x, xf.p.y, xf.q.c, xf.q.s] {
            for byte in v.to_bits().to_le_bytes() {
                h ^= byte as u64;
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    h
}

/// The test scene of 40 bodies after `steps` steps of the script.
pub fn run(steps: u32) -> World {
    let mut world = build_pile(40);
    for _ in 0..steps {
        advance(&mut world);
    }
    world
}

/// The step at which [`advance_sleeping`] kicks a body of the settled,
/// sleeping pile: long after the last piece is dropped (step 90) and the
/// pile has come to rest and fallen asleep.
pub const KICK_STEP: u64 = 750;

/// The steps the sleeping script runs: the kicked pile has this long
/// after the kick to fall asleep again.
pub const SLEEPING_STEPS: u32 = KICK_STEP as u32 + 300;

/// One step of the sleeping script: at [`KICK_STEP`], the first dynamic
/// body (in slot order) gets an upward impulse, which wakes its island
/// and, as it lands, what it lands on. Then the world steps.
pub fn advance_sleeping(world: &mut World) {
    if world.step_count() == KICK_STEP {
        let first = world
            .bodies()
            .find(|&b| world.body_type(b) == Ok(BodyType::Dynamic))
            .expect("a dynamic body");
        let mass = world.mass_data(first).expect("live body").mass;
        world
            .apply_linear_impulse_to_center(first, Vec2::new(1.0, 6.0) * mass)
            .expect("finite impulse");
    }
    world.step(DT);
}

/// The test scene of 40 bodies with sleeping on, and a box resting on the
/// floor outside the pit (an island of its own), after `steps` steps of
/// [`advance_sleeping`]: all falls asleep, the pile is kicked awake while
/// the lone box sleeps on, and the pile falls asleep again.
pub fn run_sleeping(steps: u32) -> World {
    let mut world = build_pile_in(40, WorldSettings::default());
    let lone = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(8.5, 0.5)))
        .expect("finite body");
    world
        .create_shape(
            lone,
            Polygon::new_box(0.5, 0.5).expect("valid box"),
            &ShapeDef::default(),
        )
        .expect("valid shape");
    for _ in 0..steps {
        advance_sleeping(&mut world);
    }
    world
}

/// A scene of every joint kind over a bed of boxes, big enough (over a
/// thousand contacts) for the step to split between workers: chains of
/// hinged capsules with balls on them, a welded beam, springs, ropes, a
/// slider, a car on wheel joints driving over the boxes, a motor joint
/// towing a box, and filter joints; joints are removed and made while it
/// runs. Sleeping is off.
pub fn joint_scene(workers: usize) -> World {
    use tumble::{
        Capsule, DistanceJoint, JointDef, JointKind, MotorJoint, PrismaticJoint, RevoluteJoint, Transform,
        WeldJoint, WheelJoint,
    };
    let mut world = World::new(WorldSettings {
        sleeping: false,
        workers,
        // Every color shared with the workers, however small.
        solver: tumble::SolverSettings {
            min_shared_color: 0,
            ..tumble::SolverSettings::default()
        },
        ..WorldSettings::default()
    });
    let ground = world.create_body(&BodyDef::static_body()).unwrap();
    let def = ShapeDef::default();
    world
        .create_shape(ground, Polygon::new_box(60.0, 0.5).unwrap(), &def)
        .unwrap();
    // A bed of boxes, four deep.
    for row in 0..4 {
        for col in 0..150 {
            let at = Vec2::new(-45.0 + col as f32 * 0.6, 0.8 + row as f32 * 0.55);
            let body = world.create_body(&BodyDef::dynamic().at(at)).unwrap();
            world
                .create_shape(body, Polygon::new_box(0.25, 0.25).unwrap(), &def)
                .unwrap();
        }
    }
    let link = Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.125).unwrap();
    for c in 0..6 {
        let x0 = -40.0 + c as f32 * 14.0;
        let mut prev = ground;
        for i in 0..12 {
            let at = Vec2::new(x0 + 0.5 + i as f32, 12.0);
            let body = world.create_body(&BodyDef::dynamic().at(at)).unwrap();
            world.create_shape(body, link, &def).unwrap();
            let hinge = RevoluteJoint::default().with_motor(0.0, 2.0);
            let joint = JointDef::new(prev, body, hinge)
                .at(&world, at - Vec2::new(0.5, 0.0))
                .unwrap();
            world.create_joint(&joint).unwrap();
            prev = body;
        }
        let ball = world
            .create_body(&BodyDef::dynamic().at(Vec2::new(x0 + 13.0, 12.0)))
            .unwrap();
        // Heavy on every other chain (twenty times a link's density), so
        // its tree gets the exact joint solve.
        let heavy = ShapeDef {
            density: if c % 2 == 0 { 20.0 } else { 1.0 },
            ..ShapeDef::default()
        };
        world
            .create_shape(ball, Circle::new(Vec2::ZERO, 0.8).unwrap(), &heavy)
            .unwrap();
        let limited = RevoluteJoint::default()
            .with_limits(-0.5, 0.5)
            .with_spring(2.0, 0.5, 0.0);
        let joint = JointDef::new(prev, ball, limited)
            .at(&world, Vec2::new(x0 + 12.0, 12.0))
            .unwrap();
        world.create_joint(&joint).unwrap();
        // A spring and a rope from the ground, and a welded pair.
        let bob = world
            .create_body(&BodyDef::dynamic().at(Vec2::new(x0 + 3.0, 8.0)))
            .unwrap();
        world
            .create_shape(bob, Circle::new(Vec2::ZERO, 0.3).unwrap(), &def)
            .unwrap();
        let spring = JointDef::new(ground, bob, DistanceJoint::spring(3.0, 1.5, 0.2))
            .with_world_anchors(&world, Vec2::new(x0 + 3.0, 11.0), Vec2::new(x0 + 3.0, 8.0))
            .unwrap();
        world.create_joint(&spring).unwrap();
        let weighted = world
            .create_body(&BodyDef::dynamic().at(Vec2::new(x0 + 4.0, 8.0)))
            .unwrap();
        world
            .create_shape(weighted, Polygon::new_box(0.4, 0.2).unwrap(), &def)
            .unwrap();
        let weld = JointDef::new(bob, weighted, WeldJoint::soft(4.0, 0.7))
            .at(&world, Vec2::new(x0 + 3.5, 8.0))
            .unwrap();
        world.create_joint(&weld).unwrap();
        let rope = JointDef::new(ground, weighted, DistanceJoint::rope(4.5))
            .with_world_anchors(&world, Vec2::new(x0 + 5.0, 11.0), Vec2::new(x0 + 4.0, 8.0))
            .unwrap();
        world.create_joint(&rope).unwrap();
        // A slider on a sprung vertical axis.
        let slider = world
            .create_body(&BodyDef::dynamic().at(Vec2::new(x0 + 7.0, 6.0)))
            .unwrap();
        world
            .create_shape(slider, Polygon::new_box(0.3, 0.3).unwrap(), &def)
            .unwrap();
        let axis = PrismaticJoint::default()
            .with_limits(-1.0, 1.0)
            .with_spring(1.0, 0.3, 0.0)
            .with_motor(0.5, 5.0);
        let joint = JointDef::new(ground, slider, axis)
            .at_frame(&world, Transform::new(Vec2::new(x0 + 7.0, 6.0), 1.5))
            .unwrap();
        world.create_joint(&joint).unwrap();
        // A weld between two of the bed's boxes and a filter between two more.
        let bed = |k: usize| world.bodies().nth(1 + c * 25 + k).unwrap();
        let (a, b, d, e) = (bed(0), bed(1), bed(5), bed(155));
        world
            .create_joint(
                &JointDef::new(a, b, WeldJoint::rigid())
                    .at(&world, Vec2::ZERO)
                    .unwrap(),
            )
            .unwrap();
        world
            .create_joint(&JointDef::new(d, e, JointKind::Filter))
            .unwrap();
    }
    // A car.
    let chassis = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(-44.0, 4.0)))
        .unwrap();
    world
        .create_shape(chassis, Polygon::new_box(1.2, 0.25).unwrap(), &def)
        .unwrap();
    for dx in [-0.8f32, 0.8] {
        let at = Vec2::new(-44.0 + dx, 3.4);
        let wheel = world.create_body(&BodyDef::dynamic().at(at)).unwrap();
        world
            .create_shape(wheel, Circle::new(Vec2::ZERO, 0.45).unwrap(), &def)
            .unwrap();
        let axle = WheelJoint::default().with_motor(-6.0, 40.0);
        let joint = JointDef::new(chassis, wheel, axle)
            .at_frame(&world, Transform::new(at, 1.5707964))
            .unwrap();
        world.create_joint(&joint).unwrap();
    }
    // A box towed by a motor joint from the ground.
    let towed = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(30.0, 6.0)))
        .unwrap();
    world
        .create_shape(towed, Polygon::new_box(0.5, 0.5).unwrap(), &def)
        .unwrap();
    let tow = MotorJoint {
        linear_velocity: Vec2::new(-0.5, 0.0),
        angular_velocity: 1.0,
        max_force: 500.0,
        max_torque: 50.0,
        linear_hertz: 1.0,
        linear_damping_ratio: 1.0,
        ..MotorJoint::default()
    };
    let joint = JointDef::new(ground, towed, tow)
        .at(&world, Vec2::new(30.0, 6.0))
        .unwrap();
    world.create_joint(&joint).unwrap();
    world
}

/// One step of the joint scene's script: every 40 steps the oldest joint
/// goes, and a new rope ties a chain's end to the ground.
pub fn advance_joints(world: &mut World) {
    use tumble::{DistanceJoint, JointDef};
    let step = world.step_count();
    if step % 40 == 39 {
        let oldest = world.joints().next().unwrap();
        world.remove_joint(oldest).unwrap();
        let ground = world.bodies().next().unwrap();
        let k = (step / 40) as usize;
        let end = world.bodies().nth(451 + (k * 13) % 300).unwrap();
        let at = world.position(end).unwrap();
        let rope = JointDef::new(ground, end, DistanceJoint::rope(3.0))
            .with_world_anchors(world, at + Vec2::new(0.0, 2.0), at)
            .unwrap();
        world.create_joint(&rope).unwrap();
    }
    world.step(DT);
}
