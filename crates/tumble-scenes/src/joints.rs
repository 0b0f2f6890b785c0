//! The joint scenes (not in SCENES.md): a pendulum, a heavy ball on a
//! chain, a long bridge, a door, a scissor lift, soft bodies, a car and a
//! structure that breaks. The last three move between steps (the car
//! from the arrow keys, the lift's motor turning at its stops, joints
//! broken by their load), so they are [`crate::game::Game`]s; their state
//! lives here.

use std::f32::consts::PI;
use tumble::{
    BodyDef, BodyId, Capsule, Circle, DistanceJoint, Filter, JointDef, JointId, JointKind, Polygon,
    RevoluteJoint, Shape, ShapeDef, Transform, Vec2, WeldJoint, WheelJoint, World,
};

use crate::input::Input;

/// A body of one shape.
fn body(world: &mut World, def: BodyDef, shape: impl Into<Shape>, material: &ShapeDef) -> BodyId {
    let b = world.create_body(&def).expect("scene bodies are finite");
    world
        .create_shape(b, shape, material)
        .expect("scene shapes are valid");
    b
}

/// A joint, which the scenes only ever make from valid numbers.
fn joint(world: &mut World, def: JointDef) -> JointId {
    world.create_joint(&def).expect("scene joints are valid")
}

/// A joint of `kind` between `a` and `b` with both frames at `at` now.
fn joint_at(world: &mut World, a: BodyId, b: BodyId, kind: impl Into<JointKind>, at: Vec2) -> JointId {
    let def = JointDef::new(a, b, kind)
        .at(world, at)
        .expect("live bodies, a finite point");
    joint(world, def)
}

/// Shapes of one assembly that never collide with each other (a negative
/// group, as in Box2D), with the given density.
fn assembly(group: i32, density: f32) -> ShapeDef {
    ShapeDef {
        density,
        filter: Filter {
            group,
            ..Filter::default()
        },
        ..ShapeDef::default()
    }
}

/// The pendulums' lengths (m) and release angles (degrees).
pub const PENDULUMS: [(f32, f32); 2] = [(6.0, 60.0), (3.0, 20.0)];

/// Radius of a pendulum's ball, m.
pub const PENDULUM_BALL: f32 = 0.25;

/// The spring's stiffness, Hz (its period is the inverse).
pub const SPRING_HERTZ: f32 = 1.0;

/// Two pendulums, 0.25 m balls on hinges 6 m and 3 m above them on
/// `ground`, released from 60 and 20 degrees, and beside them a ball
/// hung from a distance joint's spring of [`SPRING_HERTZ`] released at
/// its rest length (so 0.25 m above where it hangs). Returns the two
/// bobs and the ball on the spring.
pub fn pendulum(world: &mut World, ground: BodyId) -> Vec<BodyId> {
    let ball = Circle::new(Vec2::ZERO, PENDULUM_BALL).expect("a circle");
    let mut bodies = Vec::new();
    for (&(length, degrees), x) in PENDULUMS.iter().zip([-5.0f32, 5.0]) {
        let pivot = Vec2::new(x, 10.0);
        let a = degrees.to_radians();
        let at = pivot + length * Vec2::new(a.sin(), -a.cos());
        let bob = body(world, BodyDef::dynamic().at(at), ball, &ShapeDef::default());
        joint_at(world, ground, bob, RevoluteJoint::default(), pivot);
        bodies.push(bob);
    }
    // Clear of the long pendulum's swing (which reaches x = 0.2).
    let top = Vec2::new(12.0, 10.0);
    let mass = body(
        world,
        BodyDef::dynamic().at(top - Vec2::new(0.0, 3.0)),
        ball,
        &ShapeDef::default(),
    );
    let spring = JointDef::new(ground, mass, DistanceJoint::spring(3.0, SPRING_HERTZ, 0.0))
        .with_world_anchors(world, top, top - Vec2::new(0.0, 3.0))
        .expect("live bodies");
    joint(world, spring);
    bodies.push(mass);
    bodies
}

/// The period of a physical pendulum: a ball of radius `r` on a hinge
/// `length` above its center, released from `amplitude` radians, under
/// gravity `g`: `2 pi sqrt((L^2 + r^2 / 2) / (g L))` for small swings,
/// divided by the arithmetic-geometric mean of 1 and `cos(amplitude / 2)`
/// (the exact finite-amplitude period, an elliptic integral).
pub fn pendulum_period(length: f32, r: f32, amplitude: f32, g: f32) -> f32 {
    let small = 2.0 * PI * ((length * length + 0.5 * r * r) / (g * length)).sqrt();
    let (mut a, mut b) = (1.0f64, f64::from((0.5 * amplitude).cos()));
    for _ in 0..8 {
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    small / a as f32
}

/// Follows an oscillating figure sample by sample: the times it crosses
/// zero going down (interpolated) and its largest size between crossings,
/// for a period and a decay.
#[derive(Clone, Debug, Default)]
pub struct Oscillation {
    last: Option<(f32, f32)>,
    crossings: Vec<f32>,
    peak: f32,
    peaks: Vec<f32>,
}

impl Oscillation {
    /// Takes the figure's value `x` at time `t`.
    pub fn record(&mut self, t: f32, x: f32) {
        if let Some((t0, x0)) = self.last {
            if x0 > 0.0 && x <= 0.0 {
                self.crossings.push(t0 + (t - t0) * x0 / (x0 - x));
                if self.crossings.len() > 1 {
                    self.peaks.push(self.peak);
                }
                self.peak = 0.0;
            }
        }
        self.peak = self.peak.max(x.abs());
        self.last = Some((t, x));
    }

    /// The mean time between downward crossings, if it crossed twice.
    pub fn period(&self) -> Option<f32> {
        let n = self.crossings.len();
        (n >= 2).then(|| (self.crossings[n - 1] - self.crossings[0]) / (n - 1) as f32)
    }

    /// The fraction of its size the figure loses per period, from the
    /// first whole period's largest size to the last's (if it had two).
    pub fn decay_per_period(&self) -> Option<f32> {
        let n = self.peaks.len();
        (n >= 2).then(|| 1.0 - (self.peaks[n - 1] / self.peaks[0]).powf(1.0 / (n - 1) as f32))
    }
}

/// Links of the hanging chain.
pub const CHAIN_HANGING_LINKS: u32 = 20;

/// A chain of [`CHAIN_HANGING_LINKS`] capsules of 1 m (radius 0.125),
/// hinged end to end and to `ground` at (0, 22), hanging straight down at
/// rest. Returns the links, top first.
pub fn hanging_chain(world: &mut World, ground: BodyId) -> Vec<BodyId> {
    let link = Capsule::new(Vec2::new(0.0, -0.5), Vec2::new(0.0, 0.5), 0.125).expect("a capsule");
    let material = assembly(-4, 1.0);
    let mut links = Vec::new();
    let mut prev = ground;
    for k in 0..CHAIN_HANGING_LINKS {
        let top = Vec2::new(0.0, 22.0 - k as f32);
        let b = body(
            world,
            BodyDef::dynamic().at(top - Vec2::new(0.0, 0.5)),
            link,
            &material,
        );
        joint_at(world, prev, b, RevoluteJoint::default(), top);
        links.push(b);
        prev = b;
    }
    links
}

/// How much longer the hanging chain's links are, hinge to hinge, than
/// their 1 m: the bottom link's lower end below the top hinge, over the
/// links' length, less one.
pub fn chain_stretch(world: &World, links: &[BodyId]) -> f32 {
    let last = *links.last().expect("a chain");
    let bottom = world
        .transform(last)
        .expect("a live link")
        .apply(Vec2::new(0.0, -0.5));
    (22.0 - bottom.y) / links.len() as f32 - 1.0
}

/// The largest distance between the two anchors of any hinge or weld of
/// the world: how far the joints have come apart.
pub fn largest_gap(world: &World) -> f32 {
    world
        .joints()
        .filter(|&j| {
            matches!(
                world.joint_kind(j),
                Ok(JointKind::Revolute(_) | JointKind::Weld(_))
            )
        })
        .map(|j| world.joint_length(j).expect("a live joint"))
        .fold(0.0, f32::max)
}

/// Links of the ball and chain.
pub const CHAIN_LINKS: u32 = 30;

/// Box2D's ball-and-chain sample, laid out the same way: 30 capsule links
/// of 1 m (radius 0.125, density 20) from a hinge on `ground` at
/// (0, 36), held out level, with a ball of radius 4 at the end (about 170
/// times a link's mass); every hinge has 100 N m of friction. Returns the
/// links and the ball.
pub fn ball_and_chain(world: &mut World, ground: BodyId) -> Vec<BodyId> {
    let hx = 0.5;
    // High enough that the ball, swinging down, clears the ground.
    let y = 2.0 * CHAIN_LINKS as f32 * hx + 6.0;
    let material = assembly(-1, 20.0);
    let friction = RevoluteJoint::default().with_motor(0.0, 100.0);
    let link = Capsule::new(Vec2::new(-hx, 0.0), Vec2::new(hx, 0.0), 0.125).expect("a capsule");
    let mut bodies = Vec::new();
    let mut prev = ground;
    for i in 0..CHAIN_LINKS {
        let x = (1.0 + 2.0 * i as f32) * hx;
        let b = body(world, BodyDef::dynamic().at(Vec2::new(x, y)), link, &material);
        joint_at(world, prev, b, friction, Vec2::new(x - hx, y));
        bodies.push(b);
        prev = b;
    }
    let radius = 4.0;
    let end = 2.0 * CHAIN_LINKS as f32 * hx;
    let ball = body(
        world,
        BodyDef::dynamic().at(Vec2::new(end + radius, y)),
        Circle::new(Vec2::ZERO, radius).expect("a circle"),
        &material,
    );
    joint_at(world, prev, ball, friction, Vec2::new(end, y));
    bodies.push(ball);
    bodies
}

/// Planks of the bridge.
pub const BRIDGE_PLANKS: u32 = 160;

/// Box2D's bridge sample: 160 planks of 1 m by 0.25 (density 20) hinged
/// end to end at height 20, both ends to `ground`, with 200 N m of joint
/// friction; a few boxes dropped on it.
pub fn bridge(world: &mut World, ground: BodyId) {
    let x0 = -0.5 * BRIDGE_PLANKS as f32;
    let y = 20.0;
    let material = assembly(-2, 20.0);
    let friction = RevoluteJoint::default().with_motor(0.0, 200.0);
    let plank = Polygon::new_box(0.5, 0.125).expect("a box");
    let mut prev = ground;
    for i in 0..BRIDGE_PLANKS {
        let x = x0 + 0.5 + i as f32;
        let b = body(world, BodyDef::dynamic().at(Vec2::new(x, y)), plank, &material);
        joint_at(world, prev, b, friction, Vec2::new(x - 0.5, y));
        prev = b;
    }
    joint_at(world, prev, ground, friction, Vec2::new(-x0, y));
    for k in 0..6 {
        let at = Vec2::new(-30.0 + 12.0 * k as f32, y + 4.0);
        let shape = Polygon::new_box(0.6, 0.6).expect("a box");
        body(world, BodyDef::dynamic().at(at), shape, &ShapeDef::default());
    }
}

/// A door hung from its top edge on a hinge limited to 70 degrees either
/// way, with a spring that closes it and a little friction, and balls
/// rolled at it.
pub fn door(world: &mut World, ground: BodyId) {
    let hinge = Vec2::new(0.0, 4.0);
    let door = body(
        world,
        BodyDef::dynamic().at(hinge - Vec2::new(0.0, 1.75)),
        Polygon::new_box(0.1, 1.75).expect("a box"),
        &ShapeDef::default(),
    );
    let limit = 70f32.to_radians();
    let kind = RevoluteJoint::default()
        .with_limits(-limit, limit)
        .with_spring(1.0, 0.3, 0.0)
        .with_motor(0.0, 2.0);
    joint_at(world, ground, door, kind, hinge);
    // A frame post above the hinge.
    body(
        world,
        BodyDef::static_body().at(hinge + Vec2::new(0.0, 0.5)),
        Polygon::new_box(0.2, 0.5).expect("a box"),
        &ShapeDef::default(),
    );
    // Staggered, so each reaches the door alone: at 1, 3 and 5 s.
    for (k, x) in [-6.0f32, 18.0, -30.0].into_iter().enumerate() {
        let ball = body(
            world,
            BodyDef::dynamic().at(Vec2::new(x, 0.5 + 0.2 * k as f32)),
            Circle::new(Vec2::ZERO, 0.5 + 0.2 * k as f32).expect("a circle"),
            &ShapeDef {
                density: 4.0,
                ..ShapeDef::default()
            },
        );
        let speed = if x < 0.0 { 6.0 } else { -6.0 };
        world
            .set_linear_velocity(ball, Vec2::new(speed, 0.0))
            .expect("a live body");
    }
}

/// A ring of `count` capsules joined end to end by soft welds (their angle
/// a spring of 5 Hz, their ends held together): a soft body like Box2D's
/// donut.
fn donut(world: &mut World, center: Vec2, radius: f32, count: u32, group: i32) {
    let material = assembly(group, 1.0);
    let step = 2.0 * PI / count as f32;
    let half = radius * (0.5 * step).sin();
    let capsule = Capsule::new(Vec2::new(0.0, -half), Vec2::new(0.0, half), 0.2).expect("a capsule");
    let mut links = Vec::new();
    for k in 0..count {
        let angle = (k as f32 + 0.5) * step;
        let at = center + radius * (0.5 * step).cos() * Vec2::new(angle.cos(), angle.sin());
        links.push(body(
            world,
            BodyDef::dynamic().at(at).with_angle(angle),
            capsule,
            &material,
        ));
    }
    for k in 0..count {
        let angle = (k + 1) as f32 * step;
        let at = center + radius * Vec2::new(angle.cos(), angle.sin());
        let next = links[((k + 1) % count) as usize];
        joint_at(world, links[k as usize], next, WeldJoint::soft(5.0, 0.0), at);
    }
}

/// Soft bodies: four rings of soft-welded capsules dropped on a step.
pub fn soft_bodies(world: &mut World) {
    body(
        world,
        BodyDef::static_body().at(Vec2::new(4.0, 1.0)),
        Polygon::new_box(3.0, 1.0).expect("a box"),
        &ShapeDef::default(),
    );
    for k in 0..4 {
        let at = Vec2::new(-6.0 + 4.5 * k as f32, 5.0 + 2.5 * k as f32);
        donut(world, at, 1.5, 12, -10 - k);
    }
}

/// A car's state: its two wheel joints, driven from the arrow keys.
#[derive(Clone, Debug)]
pub(crate) struct Car {
    /// The rear and front wheel joints.
    pub wheels: [JointId; 2],
}

/// The wheels' top speed, rad/s (6 m/s on 0.4 m wheels).
const CAR_SPEED: f32 = 15.0;

/// The wheel motors' torque, N m: enough to climb the hills, not so much
/// that the car flips over on its back wheel.
const CAR_TORQUE: f32 = 8.0;

impl Car {
    /// Left and right drive the motors (counter-clockwise wheels roll the
    /// car left); with neither held they brake.
    pub fn before_step(&mut self, world: &mut World, input: Input) {
        let drive = f32::from(u8::from(input.left)) - f32::from(u8::from(input.right));
        for &j in &self.wheels {
            // The joints are the car's own and live.
            let _ = world.set_motor_speed(j, CAR_SPEED * drive);
        }
    }
}

/// A car on hilly ground: a chassis on two wheel joints (sprung struts,
/// motors on the wheels), driven by the arrow keys, with a ramp and a
/// few crates on the way.
pub(crate) fn car(world: &mut World, ground: BodyId) -> Car {
    // Hills as a chain, right to left: solid from above.
    let hills: Vec<Vec2> = (0..=120)
        .map(|k| {
            let x = 40.0 - 0.5 * k as f32;
            let bumps = if x > 5.0 {
                0.8 * (0.4 * (x - 5.0)).sin() + 0.3 * (1.1 * (x - 5.0)).sin()
            } else {
                0.0
            };
            Vec2::new(x, bumps + 1.0)
        })
        .collect();
    world
        .create_chain(ground, &hills, false, &ShapeDef::default())
        .expect("a valid outline");
    let chassis = world
        .create_body(&BodyDef::dynamic().at(Vec2::new(-10.0, 3.0)))
        .expect("finite");
    let hull = Polygon::new(&[
        Vec2::new(-1.5, -0.5),
        Vec2::new(1.5, -0.5),
        Vec2::new(1.5, 0.0),
        Vec2::new(0.0, 0.9),
        Vec2::new(-1.15, 0.9),
        Vec2::new(-1.5, 0.2),
    ])
    .expect("a convex hull");
    world
        .create_shape(chassis, hull, &ShapeDef::default())
        .expect("valid");
    let tyre = ShapeDef {
        friction: 1.5,
        ..ShapeDef::default()
    };
    let mut wheels = Vec::new();
    for x in [-1.0f32, 1.0] {
        let at = Vec2::new(-10.0 + x, 2.1);
        let wheel = body(
            world,
            BodyDef::dynamic().at(at),
            Circle::new(Vec2::ZERO, 0.4).expect("a circle"),
            &tyre,
        );
        let strut = WheelJoint {
            hertz: 5.0,
            damping_ratio: 0.7,
            enable_limit: true,
            lower_translation: -0.25,
            upper_translation: 0.25,
            ..WheelJoint::default().with_motor(0.0, CAR_TORQUE)
        };
        let frame = Transform::new(at, 0.5 * PI);
        let def = JointDef::new(chassis, wheel, strut)
            .at_frame(world, frame)
            .expect("live bodies");
        wheels.push(joint(world, def));
    }
    for k in 0..4 {
        let at = Vec2::new(20.0 + 1.1 * k as f32, 4.0);
        body(
            world,
            BodyDef::dynamic().at(at),
            Polygon::new_box(0.5, 0.5).expect("a box"),
            &ShapeDef::default(),
        );
    }
    Car {
        wheels: [wheels[0], wheels[1]],
    }
}

/// A scissor lift's state: its drive.
#[derive(Clone, Debug)]
pub(crate) struct Lift {
    /// The distance joint across the lift's feet whose motor works it.
    pub drive: JointId,
    /// The feet's span folded and raised, m.
    pub span: (f32, f32),
}

/// The lift's drive speed, m/s.
const LIFT_SPEED: f32 = 0.15;

impl Lift {
    /// Reverses the drive at either stop, so the lift rises and folds in
    /// turn.
    pub fn before_step(&mut self, world: &mut World) {
        let (Ok(span), Ok(JointKind::Distance(d))) =
            (world.joint_length(self.drive), world.joint_kind(self.drive))
        else {
            return;
        };
        let turn = (span <= self.span.1 + 0.02 && d.motor_speed < 0.0)
            || (span >= self.span.0 - 0.02 && d.motor_speed > 0.0);
        if turn {
            let _ = world.set_motor_speed(self.drive, -d.motor_speed);
        }
    }
}

/// A free slider: a wheel joint without its spring keeps a point on a line
/// and lets the body turn.
fn free_slider() -> WheelJoint {
    WheelJoint {
        enable_spring: false,
        ..WheelJoint::default()
    }
}

/// A scissor lift: four stages of crossed 2 m links hinged at their
/// middles and ends; one foot hinged to `ground`, the other sliding along
/// it, and a distance joint across the feet whose motor pulls them
/// together (raising the lift) and pushes them apart (folding it), as in
/// Box2D's sample. A platform on top, hinged on one side and sliding on
/// the other, carries a crate.
pub(crate) fn scissor_lift(world: &mut World, ground: BodyId) -> Lift {
    let stages = 4;
    let (l, theta) = (1.0f32, 0.5f32);
    let material = assembly(-3, 2.0);
    let link = Polygon::new_box(l, 0.08).expect("a box");
    let rise = Vec2::new(theta.cos(), theta.sin());
    let fall = Vec2::new(theta.cos(), -theta.sin());
    let height = 2.0 * l * theta.sin();
    let mut below: Option<(BodyId, BodyId, Vec2)> = None;
    let mut first = None;
    for k in 0..stages {
        let c = Vec2::new(0.0, 0.3 + l * theta.sin() + height * k as f32);
        let r = body(world, BodyDef::dynamic().at(c).with_angle(theta), link, &material);
        let f = body(
            world,
            BodyDef::dynamic().at(c).with_angle(-theta),
            link,
            &material,
        );
        joint_at(world, r, f, RevoluteJoint::default(), c);
        match below {
            None => first = Some((r, f, c)),
            Some((br, bf, bc)) => {
                // This stage's lower ends on the upper ends of the one below.
                joint_at(world, r, bf, RevoluteJoint::default(), bc - l * fall);
                joint_at(world, f, br, RevoluteJoint::default(), bc + l * rise);
            }
        }
        below = Some((r, f, c));
    }
    let (r0, f0, c0) = first.expect("at least one stage");
    let (hinged, sliding) = (c0 - l * rise, c0 + l * fall);
    joint_at(world, ground, r0, RevoluteJoint::default(), hinged);
    joint_at(world, ground, f0, free_slider(), sliding);
    let span = 2.0 * l * theta.cos();
    let raised = 0.6;
    let drive = DistanceJoint {
        min_length: raised,
        max_length: span,
        enable_limit: true,
        ..DistanceJoint::rope(span)
    };
    let drive = DistanceJoint {
        enable_motor: true,
        motor_speed: -LIFT_SPEED,
        max_motor_force: 5000.0,
        ..drive
    };
    let def = JointDef::new(ground, f0, drive)
        .with_world_anchors(world, hinged, sliding)
        .expect("live bodies");
    let drive = joint(world, def);
    // The platform on top.
    let (rt, ft, ct) = below.expect("at least one stage");
    let top = ct.y + l * theta.sin() + 0.15;
    let platform = body(
        world,
        BodyDef::dynamic().at(Vec2::new(0.0, top)),
        Polygon::new_box(1.3, 0.1).expect("a box"),
        &material,
    );
    joint_at(world, platform, ft, RevoluteJoint::default(), ct - l * fall);
    joint_at(world, platform, rt, free_slider(), ct + l * rise);
    body(
        world,
        BodyDef::dynamic().at(Vec2::new(0.3, top + 0.5)),
        Polygon::new_box(0.4, 0.4).expect("a box"),
        &ShapeDef::default(),
    );
    Lift {
        drive,
        span: (span, raised),
    }
}

/// A breakable structure's state: its welds, and the load that breaks one.
#[derive(Clone, Debug)]
pub(crate) struct Breakable {
    /// The welds still holding.
    pub welds: Vec<JointId>,
    /// How many broke.
    pub broken: u32,
}

/// The force that breaks a weld of the structure, N.
const BREAKING_FORCE: f32 = 300.0;

impl Breakable {
    /// Removes each weld whose last reaction force exceeded the breaking
    /// force (what a game would do: Tumble's joints hold whatever the
    /// load; breaking is the game's rule).
    pub fn after_step(&mut self, world: &mut World) {
        let before = self.welds.len();
        self.welds.retain(|&j| match world.joint_reaction(j) {
            Ok((force, _)) if force.length() > BREAKING_FORCE => {
                let _ = world.remove_joint(j);
                false
            }
            Ok(_) => true,
            Err(_) => false,
        });
        self.broken += (before - self.welds.len()) as u32;
    }
}

/// A wall of 6 by 8 boxes welded to their neighbours, standing on the
/// ground, and a heavy ball dropped on it: welds loaded past
/// [`BREAKING_FORCE`] break.
pub(crate) fn breakable(world: &mut World) -> Breakable {
    let (columns, rows) = (6, 8);
    let size = 0.5;
    let mut grid = Vec::new();
    for row in 0..rows {
        for col in 0..columns {
            let at = Vec2::new((col as f32 - 2.5) * 2.0 * size, size + 2.0 * size * row as f32);
            grid.push(body(
                world,
                BodyDef::dynamic().at(at),
                Polygon::new_box(size, size).expect("a box"),
                &ShapeDef::default(),
            ));
        }
    }
    let mut welds = Vec::new();
    for row in 0..rows {
        for col in 0..columns {
            let here = grid[row * columns + col];
            let at = world.position(here).expect("a live body");
            if col + 1 < columns {
                let right = grid[row * columns + col + 1];
                welds.push(joint_at(
                    world,
                    here,
                    right,
                    WeldJoint::rigid(),
                    at + Vec2::new(size, 0.0),
                ));
            }
            if row + 1 < rows {
                let up = grid[(row + 1) * columns + col];
                welds.push(joint_at(
                    world,
                    here,
                    up,
                    WeldJoint::rigid(),
                    at + Vec2::new(0.0, size),
                ));
            }
        }
    }
    body(
        world,
        BodyDef::dynamic().at(Vec2::new(1.2, 20.0)),
        Circle::new(Vec2::ZERO, 1.2).expect("a circle"),
        &ShapeDef {
            density: 20.0,
            ..ShapeDef::default()
        },
    );
    Breakable { welds, broken: 0 }
}

#[cfg(test)]
mod tests {
    use super::largest_gap;
    use crate::input::Input;
    use crate::{build, SceneName, DT};
    use tumble::SolverSettings;

    /// Steps a scene `steps` times as the testbed does, with `input`.
    fn play(scene: &mut crate::Scene, steps: u32, input: Input) {
        for _ in 0..steps {
            match scene.game.as_mut() {
                Some(game) => {
                    game.before_step(&mut scene.world, input);
                    scene.world.step_with_hooks(DT, game.hooks());
                    game.after_step(&mut scene.world);
                }
                None => scene.world.step(DT),
            }
        }
    }

    #[test]
    fn the_bridge_and_the_chain_hold_together() {
        let mut bridge = build(SceneName::Bridge, SolverSettings::default());
        play(&mut bridge, 240, Input::default());
        let gap = largest_gap(&bridge.world);
        assert!(gap < 0.05, "the bridge's largest gap {gap}");
        // The ball, 170 times a link's mass, swings the chain: its joints
        // stay within 5 cm the whole way (the target; Gauss-Seidel
        // alone opens 0.11 m here, Box2D 0.137 m on its layout).
        let mut chain = build(SceneName::BallAndChain, SolverSettings::default());
        let mut widest = 0.0f32;
        for _ in 0..600 {
            play(&mut chain, 1, Input::default());
            widest = widest.max(largest_gap(&chain.world));
        }
        assert!(widest < 0.05, "the chain's largest gap {widest}");
    }

    #[test]
    fn the_car_drives_right_on_the_right_key_and_brakes_without_one() {
        let mut scene = build(SceneName::Car, SolverSettings::default());
        let chassis = scene.world.bodies().nth(1).unwrap();
        play(&mut scene, 60, Input::default());
        let start = scene.world.position(chassis).unwrap();
        let right = Input {
            right: true,
            ..Input::default()
        };
        play(&mut scene, 180, right);
        let driven = scene.world.position(chassis).unwrap();
        assert!(driven.x > start.x + 5.0, "drove from {start} to {driven}");
        play(&mut scene, 180, Input::default());
        let v = scene.world.linear_velocity(chassis).unwrap();
        assert!(v.length() < 0.5, "braked to {v}");
        assert!(scene.world.angle(chassis).unwrap().abs() < 0.8, "still upright");
    }

    #[test]
    fn the_scissor_lift_rises_then_folds_again() {
        let mut scene = build(SceneName::ScissorLift, SolverSettings::default());
        let top = |s: &crate::Scene| {
            s.world
                .bodies()
                .map(|b| s.world.position(b).unwrap().y)
                .fold(f32::MIN, f32::max)
        };
        let low = top(&scene);
        play(&mut scene, 480, Input::default());
        let high = top(&scene);
        assert!(high > low + 3.0, "rose from {low} to {high}");
        play(&mut scene, 480, Input::default());
        assert!(top(&scene) < high - 2.0, "folded again to {}", top(&scene));
    }

    #[test]
    fn the_wall_stands_until_the_ball_lands_then_breaks() {
        let mut scene = build(SceneName::Breakable, SolverSettings::default());
        let welds = scene.world.joint_count();
        // The ball falls 10.8 m onto the wall's top: about 1.5 s.
        play(&mut scene, 75, Input::default());
        assert_eq!(
            scene.world.joint_count(),
            welds,
            "nothing breaks under the wall's own weight"
        );
        play(&mut scene, 120, Input::default());
        assert!(scene.world.joint_count() < welds, "the ball broke welds");
    }

    #[test]
    fn a_stack_of_ten_ragdolls_settles_with_no_limb_faster_than_20_rad_s_after_3_s() {
        let spec = crate::bench::ragdolls_of(1, 10);
        let mut scene = crate::bench::build_world(&spec);
        let bones = &scene.bodies[1..];
        assert_eq!(bones.len(), 110);
        for _ in 0..180 {
            scene.world.step(DT);
        }
        let mut fastest = 0.0f32;
        for _ in 0..120 {
            scene.world.step(DT);
            for &b in bones {
                fastest = fastest.max(scene.world.angular_velocity(b).unwrap().abs());
            }
        }
        assert!(fastest < 20.0, "a limb spins at {fastest} rad/s");
        // They have come down and stay together.
        let top = bones
            .iter()
            .map(|&b| scene.world.position(b).unwrap().y)
            .fold(f32::MIN, f32::max);
        assert!(top < 12.0, "the stack fell in: top bone at {top}");
        assert!(
            largest_gap(&scene.world) < 0.05,
            "gap {}",
            largest_gap(&scene.world)
        );
    }

    #[test]
    fn the_door_swings_within_its_limits_and_closes() {
        let mut scene = build(SceneName::Door, SolverSettings::default());
        let door = scene.world.joints().next().unwrap();
        let limit = 70f32.to_radians();
        let mut widest = 0.0f32;
        for _ in 0..600 {
            play(&mut scene, 1, Input::default());
            widest = widest.max(scene.world.joint_angle(door).unwrap().abs());
        }
        assert!(widest > 0.2, "the balls pushed it open: {widest}");
        assert!(widest < limit + 0.05, "within its limit: {widest}");
        // Its spring shuts it once the balls have passed.
        play(&mut scene, 600, Input::default());
        let angle = scene.world.joint_angle(door).unwrap();
        assert!(angle.abs() < 0.05, "closed again: {angle}");
    }
}
