//! gymnasium's `LunarLander-v3`, ported: a lander with two sprung legs
//! over random moon terrain, landed on a pad with a main and two side
//! engines.
//!
//! Every number and rule is gymnasium 1.4's (`gymnasium/envs/box2d/
//! lunar_lander.py`): the geometry in its pixels over `SCALE`, the
//! densities, frictions and collision categories, the legs' motors and
//! limits (the legs start outside their limits, as there), the engines'
//! impulses with their dispersion (and the side engine's 17-over-14
//! lever), the wind, the observation, the shaped reward and the landing
//! bonus given when the lander falls asleep. The random draws come in
//! gymnasium's order from numpy's stream, so a seed gives gymnasium's
//! terrain and initial push.

use crate::canvas::{Canvas, Rgb};
use crate::start;
use crate::{Env, EnvError, Pcg64, Step};
use tumble::{
    BodyDef, BodyId, Filter, JointDef, Polygon, RevoluteJoint, Segment, ShapeDef, Transform, Vec2, World,
};

/// Steps a second; each step is one physics step of `1 / FPS` s.
pub(crate) const FPS: f64 = 50.0;
/// Pixels per metre: gymnasium's geometry is given in pixels.
const SCALE: f64 = 30.0;
const MAIN_ENGINE_POWER: f64 = 13.0;
const SIDE_ENGINE_POWER: f64 = 0.6;
/// The largest initial push, in newtons along each axis.
const INITIAL_RANDOM: f64 = 1000.0;
/// The hull's outline, in pixels about its origin.
const LANDER_POLY: [(f64, f64); 6] = [
    (-14.0, 17.0),
    (-17.0, 0.0),
    (-17.0, -10.0),
    (17.0, -10.0),
    (17.0, 0.0),
    (14.0, 17.0),
];
const LEG_AWAY: f64 = 20.0;
const LEG_DOWN: f64 = 18.0;
const LEG_W: f64 = 2.0;
const LEG_H: f64 = 8.0;
const LEG_SPRING_TORQUE: f32 = 40.0;

/// The damping ratio of the lander's joint correction: ten times Tumble's
/// default, whose rows give less in each pass. The legs' motors press
/// them into their limits, and on them the landed hull rocks: at the
/// default ratio it rocks on and seldom comes to rest, so a landing
/// seldom earns its bonus; at this one it comes to rest as gymnasium's
/// does (the RL guide's physics settings give the figures).
const JOINT_DAMPING_RATIO: f32 = 20.0;
const SIDE_ENGINE_HEIGHT: f64 = 14.0;
const SIDE_ENGINE_AWAY: f64 = 12.0;
const MAIN_ENGINE_Y_LOCATION: f64 = 4.0;
const VIEWPORT_W: usize = 600;
const VIEWPORT_H: usize = 400;
/// The field's width and height in metres.
const W: f64 = VIEWPORT_W as f64 / SCALE;
const H: f64 = VIEWPORT_H as f64 / SCALE;
const CHUNKS: usize = 11;
/// Collision categories: the ground, the hull, the legs. Hull and legs
/// collide with the ground only.
const GROUND: u64 = 0x0001;
const HULL: u64 = 0x0010;
const LEG: u64 = 0x0020;
/// The largest wind or turbulence power accepted (N, N m).
const MAX_WIND_POWER: f64 = 1e6;
/// gymnasium's `TimeLimit` for `LunarLander-v3`.
const MAX_EPISODE_STEPS: u32 = 1000;

/// The environment's options, gymnasium's keyword arguments.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LanderConfig {
    /// Two continuous throttles (main, side) instead of four discrete
    /// actions.
    pub continuous: bool,
    /// Gravity along y, in (-12, 0) m/s².
    pub gravity: f64,
    /// Push the lander sideways and turn it with a gust pattern while
    /// neither leg touches.
    pub enable_wind: bool,
    /// The gusts' largest force (N).
    pub wind_power: f64,
    /// The gusts' largest torque (N m).
    pub turbulence_power: f64,
    /// Keep the engines' exhaust particles for drawing (gymnasium makes
    /// them only when it renders; they never touch the lander).
    pub particles: bool,
}

impl Default for LanderConfig {
    fn default() -> Self {
        LanderConfig {
            continuous: false,
            gravity: -10.0,
            enable_wind: false,
            wind_power: 15.0,
            turbulence_power: 1.5,
            particles: false,
        }
    }
}

/// A puff of engine exhaust, drawn only: it flies and fades.
#[derive(Clone, Copy, Debug)]
struct Particle {
    position: Vec2,
    velocity: Vec2,
    /// Life left; it fades as this falls and is dropped below zero.
    ttl: f32,
}

/// The bodies and joints of one episode's world.
#[derive(Clone, Debug)]
struct Parts {
    world: World,
    lander: BodyId,
    legs: [BodyId; 2],
    /// Until the reset's step is taken: the lander's first push and its
    /// hinges as Box2D 2.3 solves them (see [`start::step_hinges`]).
    first_step: Option<(Vec2, [start::Hinge; 2])>,
}

/// gymnasium's `LunarLander-v3` (see the module's doc).
#[derive(Clone, Debug)]
pub struct LunarLander {
    config: LanderConfig,
    rng: Pcg64,
    parts: Option<Parts>,
    helipad_x1: f64,
    helipad_x2: f64,
    helipad_y: f64,
    /// The terrain's 11 points, left to right (metres).
    terrain: [Vec2; CHUNKS],
    game_over: bool,
    leg_contact: [bool; 2],
    prev_shaping: Option<f64>,
    wind_idx: i64,
    torque_idx: i64,
    /// The hull's angle, counted on through whole turns as Box2D's is.
    angle: f64,
    particles: Vec<Particle>,
}

impl LunarLander {
    /// A lander with `config`, to be [`Env::reset`] before stepping.
    /// Gravity must lie in (-12, 0), as gymnasium asserts; wind and
    /// turbulence powers must be finite.
    pub fn new(config: LanderConfig) -> Result<LunarLander, EnvError> {
        if !(config.gravity > -12.0 && config.gravity < 0.0) {
            return Err(EnvError::Setting("gravity", "must lie between -12 and 0"));
        }
        // gymnasium warns outside 0..20 and 0..2; a million newtons (or
        // newton metres) on a 5 kg lander is past any use, and keeps the
        // gusts far inside what the engine's f32 accelerations can hold.
        let sane = |x: f64| x.is_finite() && x.abs() <= MAX_WIND_POWER;
        if !sane(config.wind_power) || !sane(config.turbulence_power) {
            return Err(EnvError::Setting(
                "wind and turbulence powers",
                "must be finite and at most 1e6 in size",
            ));
        }
        Ok(LunarLander {
            config,
            rng: Pcg64::from_seed(0),
            parts: None,
            helipad_x1: 0.0,
            helipad_x2: 0.0,
            helipad_y: 0.0,
            terrain: [Vec2::ZERO; CHUNKS],
            game_over: false,
            leg_contact: [false; 2],
            prev_shaping: None,
            wind_idx: 0,
            torque_idx: 0,
            angle: 0.0,
            particles: Vec::new(),
        })
    }

    /// The options it was made with.
    pub fn config(&self) -> LanderConfig {
        self.config
    }

    /// The world of the running episode (None before the first reset).
    pub fn world(&self) -> Option<&World> {
        self.parts.as_ref().map(|p| &p.world)
    }

    /// The landing pad: its left and right x and its height (metres).
    pub fn helipad(&self) -> (f64, f64, f64) {
        (self.helipad_x1, self.helipad_x2, self.helipad_y)
    }

    /// The terrain's points, left to right (metres).
    pub fn terrain(&self) -> &[Vec2] {
        &self.terrain
    }

    /// Whether the lander is awake (asleep: landed and at rest).
    pub fn lander_awake(&self) -> bool {
        self.parts
            .as_ref()
            .is_some_and(|p| p.world.is_awake(p.lander).unwrap_or(false))
    }

    /// Builds the episode's world, drawing the terrain and the push.
    fn build(&mut self) -> Parts {
        let mut settings = crate::physics::world_settings(self.config.gravity as f32);
        settings.solver.joint_damping_ratio = JOINT_DAMPING_RATIO;
        let mut world = World::new(settings);

        // Terrain: 12 random heights (the last unused but drawn), the
        // pad's five flattened, smoothed over neighbours.
        let mut height = [0.0f64; CHUNKS + 1];
        for h in &mut height {
            *h = self.rng.uniform(0.0, H / 2.0);
        }
        let chunk_x: [f64; CHUNKS] = std::array::from_fn(|i| W / (CHUNKS - 1) as f64 * i as f64);
        self.helipad_x1 = chunk_x[CHUNKS / 2 - 1];
        self.helipad_x2 = chunk_x[CHUNKS / 2 + 1];
        self.helipad_y = H / 4.0;
        for h in &mut height[CHUNKS / 2 - 2..=CHUNKS / 2 + 2] {
            *h = self.helipad_y;
        }
        // gymnasium's h[i - 1] at i = 0 is Python's h[-1]: the 12th value.
        let smooth: [f64; CHUNKS] = std::array::from_fn(|i| {
            let before = if i == 0 { height[CHUNKS] } else { height[i - 1] };
            0.33 * (before + height[i] + height[i + 1])
        });
        self.terrain = std::array::from_fn(|i| Vec2::new(chunk_x[i] as f32, smooth[i] as f32));

        let ground = world
            .create_body(&BodyDef::static_body())
            .expect("a static body at the origin");
        let ground_def = |friction: f32| ShapeDef {
            friction,
            ..ShapeDef::default()
        };
        let floor = Segment::new(Vec2::ZERO, Vec2::new(W as f32, 0.0)).expect("the floor");
        world
            .create_shape(ground, floor, &ground_def(0.2))
            .expect("the floor fits");
        for pair in self.terrain.windows(2) {
            // A flat run of the pad is one segment like any other.
            let edge = Segment::new(pair[0], pair[1]).expect("terrain points are distinct");
            world
                .create_shape(ground, edge, &ground_def(0.1))
                .expect("the terrain fits");
        }

        let start = Vec2::new((W / 2.0) as f32, H as f32);
        let lander = world
            .create_body(&BodyDef::dynamic().at(start))
            .expect("the lander");
        let hull: Vec<Vec2> = LANDER_POLY
            .iter()
            .map(|&(x, y)| Vec2::new((x / SCALE) as f32, (y / SCALE) as f32))
            .collect();
        let hull_def = ShapeDef {
            density: 5.0,
            friction: 0.1,
            restitution: 0.0,
            filter: Filter {
                category: HULL,
                mask: GROUND,
                group: 0,
            },
            ..ShapeDef::default()
        };
        world
            .create_shape(
                lander,
                Polygon::new(&hull).expect("the hull is convex"),
                &hull_def,
            )
            .expect("the hull fits");
        let push = Vec2::new(
            self.rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM) as f32,
            self.rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM) as f32,
        );
        if self.config.enable_wind {
            self.wind_idx = self.rng.integers(-9999, 9999);
            self.torque_idx = self.rng.integers(-9999, 9999);
        }

        let leg_def = ShapeDef {
            density: 1.0,
            friction: 0.2,
            restitution: 0.0,
            filter: Filter {
                category: LEG,
                mask: GROUND,
                group: 0,
            },
            ..ShapeDef::default()
        };
        let mut legs = Vec::with_capacity(2);
        let mut hinges = Vec::with_capacity(2);
        for side in [-1.0f64, 1.0] {
            let at = Vec2::new((W / 2.0 - side * LEG_AWAY / SCALE) as f32, H as f32);
            let leg = world
                .create_body(&BodyDef::dynamic().at(at).with_angle((side * 0.05) as f32))
                .expect("a leg");
            let bar = Polygon::new_box((LEG_W / SCALE) as f32, (LEG_H / SCALE) as f32).expect("a box");
            world.create_shape(leg, bar, &leg_def).expect("the leg fits");
            // The limits hold each leg splayed; the motor's slow spring
            // pushes it out against them. Frames unturned: the joint angle
            // starts at the leg's tilt, outside its limit (as in gymnasium).
            let (lower, upper) = if side < 0.0 {
                (0.9 - 0.5, 0.9)
            } else {
                (-0.9, -0.9 + 0.5)
            };
            let hinge = RevoluteJoint::default()
                .with_motor((0.3 * side) as f32, LEG_SPRING_TORQUE)
                .with_limits(lower, upper);
            // pybox2d sets the reference angle to B's angle less A's: the
            // joint angle starts at 0, with both limits on one side of it.
            let reference = side * 0.05;
            let anchor_b = (side * LEG_AWAY / SCALE, LEG_DOWN / SCALE);
            let frame_b = Transform::new(Vec2::new(anchor_b.0 as f32, anchor_b.1 as f32), -reference as f32);
            let def = JointDef {
                frame_b,
                ..JointDef::new(lander, leg, hinge)
            };
            world.create_joint(&def).expect("a hinge between two bodies");
            hinges.push(start::Hinge {
                a: 0,
                b: legs.len() + 1,
                anchor_a: [0.0, 0.0],
                anchor_b: [anchor_b.0, anchor_b.1],
                reference,
                lower: f64::from(lower),
                upper: f64::from(upper),
                motor: Some((0.3 * side, f64::from(LEG_SPRING_TORQUE))),
            });
            legs.push(leg);
        }
        // The legs stay where gymnasium places them, apart from their
        // hinges: the reset's step takes them up as Box2D 2.3 does
        // ([`LunarLander::first_step`]).
        Parts {
            world,
            lander,
            legs: [legs[0], legs[1]],
            first_step: Some((push, [hinges[0], hinges[1]])),
        }
    }

    /// The reset's step as Box2D 2.3 takes it, with `force` and `torque`
    /// on the lander (its first push, and the wind's): the legs, placed
    /// 0.6 m below their hinges and outside their limits, are held at
    /// that pose by the velocity solve and then pulled up by the position
    /// solve, which gives them no speed (see [`start::step_hinges`]).
    /// Tumble's soft step would close the gaps through velocity and throw
    /// the legs; and solving from the closed pose would leave the lander
    /// turning at less than half gymnasium's rate.
    fn first_step(&mut self, hinges: &[start::Hinge; 2], force: Vec2, torque: f32) {
        let parts = self.parts.as_mut().expect("reset before stepping");
        let world = &mut parts.world;
        let ids = [parts.lander, parts.legs[0], parts.legs[1]];
        let gravity = [0.0, self.config.gravity];
        let dt = 1.0 / FPS;
        let mut bodies: Vec<start::Body> = ids
            .iter()
            .map(|&b| {
                let xf = world.transform(b).expect("the lander's bodies");
                let origin = [f64::from(xf.p.x), f64::from(xf.p.y)];
                start::Body::new(
                    origin,
                    f64::from(xf.q.angle()),
                    world.mass_data(b).expect("a body"),
                )
            })
            .collect();
        for (k, body) in bodies.iter_mut().enumerate() {
            let (force, torque) = if k == 0 {
                ([f64::from(force.x), f64::from(force.y)], f64::from(torque))
            } else {
                ([0.0; 2], 0.0)
            };
            body.accelerate(dt, gravity, force, torque);
        }
        start::step_hinges(&mut bodies, hinges, dt);
        for (&b, body) in ids.iter().zip(&bodies) {
            let o = body.origin();
            world
                .set_transform(b, Vec2::new(o[0] as f32, o[1] as f32), body.angle() as f32)
                .expect("a pose near the start");
            let (v, w) = body.velocity();
            world
                .set_linear_velocity(b, Vec2::new(v[0] as f32, v[1] as f32))
                .expect("a finite velocity");
            world.set_angular_velocity(b, w as f32).expect("a finite spin");
        }
        self.angle = bodies[0].angle();
    }

    /// One step's physics and bookkeeping for an action already checked.
    fn advance(&mut self, action: &[f32], observation: &mut [f32]) -> Step {
        let config = self.config;
        let parts = self.parts.as_mut().expect("reset before stepping");
        let world = &mut parts.world;
        let lander = parts.lander;

        let first_step = parts.first_step.take();
        // The forces on the lander in the reset's step, which that step
        // takes apart from the world (see `first_step`).
        let (mut force, mut torque) = match first_step {
            Some((push, _)) => (push, 0.0),
            None => (Vec2::ZERO, 0.0),
        };
        let windy = config.enable_wind && !(self.leg_contact[0] || self.leg_contact[1]);
        if windy {
            // tanh(sin(2 k x) + sin(pi k x)) with k = 0.01: never periodic.
            let gust = |idx: i64| {
                let x = idx as f64;
                ((0.02 * x).sin() + (std::f64::consts::PI * 0.01 * x).sin()).tanh()
            };
            let wind = gust(self.wind_idx) * config.wind_power;
            self.wind_idx += 1;
            force.x += wind as f32;
            torque += (gust(self.torque_idx) * config.turbulence_power) as f32;
            self.torque_idx += 1;
        }
        if windy && first_step.is_none() {
            world.apply_force_to_center(lander, force).expect("a finite gust");
            world.apply_torque(lander, torque).expect("a finite torque");
        }

        let (sin, cos) = (self.angle.sin(), self.angle.cos());
        let tip = (sin, cos);
        let side = (-tip.1, tip.0);
        let dispersion = [
            self.rng.uniform(-1.0, 1.0) / SCALE,
            self.rng.uniform(-1.0, 1.0) / SCALE,
        ];
        let position = world.position(lander).expect("the lander");
        let (px, py) = (f64::from(position.x), f64::from(position.y));

        let mut m_power = 0.0;
        let main_on = if config.continuous {
            action[0] > 0.0
        } else {
            action[0] == 2.0
        };
        if main_on {
            m_power = if config.continuous {
                (f64::from(action[0]).clamp(0.0, 1.0) + 1.0) * 0.5
            } else {
                1.0
            };
            // 4 pixels below the hull's origin, +-2 for randomness.
            let reach = MAIN_ENGINE_Y_LOCATION / SCALE + 2.0 * dispersion[0];
            let ox = tip.0 * reach + side.0 * dispersion[1];
            let oy = -tip.1 * reach - side.1 * dispersion[1];
            let at = (px + ox, py + oy);
            let impulse = (
                -ox * MAIN_ENGINE_POWER * m_power,
                -oy * MAIN_ENGINE_POWER * m_power,
            );
            push(world, lander, impulse, at);
            if config.particles {
                self.particles
                    .push(exhaust(at, (-impulse.0, -impulse.1), 3.5, m_power));
            }
        }

        let mut s_power = 0.0;
        let side_on = if config.continuous {
            action[1].abs() > 0.5
        } else {
            action[0] == 1.0 || action[0] == 3.0
        };
        if side_on {
            let direction;
            (direction, s_power) = if config.continuous {
                (
                    f64::from(action[1].signum()),
                    f64::from(action[1].abs()).clamp(0.5, 1.0),
                )
            } else {
                (f64::from(action[0]) - 2.0, 1.0)
            };
            let lever = 3.0 * dispersion[1] + direction * SIDE_ENGINE_AWAY / SCALE;
            let ox = tip.0 * dispersion[0] + side.0 * lever;
            let oy = -tip.1 * dispersion[0] - side.1 * lever;
            // gymnasium's 17 where SIDE_ENGINE_HEIGHT (14) was meant: the
            // thrust's point, and so its torque, depends on the tilt. Kept.
            let at = (
                px + ox - tip.0 * 17.0 / SCALE,
                py + oy + tip.1 * SIDE_ENGINE_HEIGHT / SCALE,
            );
            let impulse = (
                -ox * SIDE_ENGINE_POWER * s_power,
                -oy * SIDE_ENGINE_POWER * s_power,
            );
            push(world, lander, impulse, at);
            if config.particles {
                self.particles
                    .push(exhaust(at, (-impulse.0, -impulse.1), 0.7, s_power));
            }
        }

        if let Some((_, hinges)) = first_step {
            // (The reset's action is nothing: no engine fired.)
            self.first_step(&hinges, force, torque);
        } else {
            crate::physics::step_counting_turns(world, (1.0 / FPS) as f32, lander, &mut self.angle);
        }
        let parts = self.parts.as_mut().expect("reset before stepping");
        let world = &mut parts.world;

        let events = world.contact_events();
        if events
            .begin
            .iter()
            .any(|t| t.body_a == lander || t.body_b == lander)
        {
            self.game_over = true;
        }
        // A leg's ground contact is per body pair, as the port notes ask:
        // whether the leg touches the moon anywhere. (The moon is one body
        // of many edges: a leg standing on a vertex touches two, and one
        // edge's end in the same step as the other's begin would read as
        // no contact at all.)
        for (k, &leg) in parts.legs.iter().enumerate() {
            self.leg_contact[k] = world.body_contacts(leg).expect("a leg").next().is_some();
        }
        let position = world.position(lander).expect("the lander");
        let velocity = world.linear_velocity(lander).expect("the lander");
        let omega = world.angular_velocity(lander).expect("the lander");
        let state = [
            (f64::from(position.x) - W / 2.0) / (W / 2.0),
            (f64::from(position.y) - (self.helipad_y + LEG_DOWN / SCALE)) / (H / 2.0),
            f64::from(velocity.x) * (W / 2.0) / FPS,
            f64::from(velocity.y) * (H / 2.0) / FPS,
            self.angle,
            20.0 * f64::from(omega) / FPS,
            if self.leg_contact[0] { 1.0 } else { 0.0 },
            if self.leg_contact[1] { 1.0 } else { 0.0 },
        ];
        for (o, s) in observation.iter_mut().zip(state) {
            *o = s as f32;
        }

        // Closer, slower, level and standing is better; each leg down is 10.
        let shaping =
            -100.0 * state[0].hypot(state[1]) - 100.0 * state[2].hypot(state[3]) - 100.0 * state[4].abs()
                + 10.0 * state[6]
                + 10.0 * state[7];
        let mut reward = self.prev_shaping.map_or(0.0, |prev| shaping - prev);
        self.prev_shaping = Some(shaping);
        reward -= m_power * 0.30;
        reward -= s_power * 0.03;

        let mut terminated = false;
        if self.game_over || state[0].abs() >= 1.0 {
            terminated = true;
            reward = -100.0;
        }
        // At rest: the lander's island fell asleep.
        if !world.is_awake(lander).expect("the lander") {
            terminated = true;
            reward = 100.0;
        }
        self.fly_particles();
        Step { reward, terminated }
    }

    /// Moves and fades the exhaust (gymnasium fades it at each render
    /// by 0.15; here at each step, the same at one frame a step).
    fn fly_particles(&mut self) {
        if self.particles.is_empty() {
            return;
        }
        let dt = (1.0 / FPS) as f32;
        let g = Vec2::new(0.0, self.config.gravity as f32);
        for p in &mut self.particles {
            p.velocity += g * dt;
            p.position += p.velocity * dt;
            if p.position.y < 0.0 {
                p.position.y = 0.0;
                p.velocity.y *= -0.3;
            }
            p.ttl -= 0.15;
        }
        self.particles.retain(|p| p.ttl >= 0.0);
    }
}

/// gymnasium's heuristic pilot for the lander (its `heuristic(env, s)`):
/// a PD controller that tilts toward the pad and holds a hover height
/// proportional to the distance from it, then only brakes once a leg is
/// down. Returns the action for `observation`: in `[0]` the discrete
/// action's index, or the two continuous throttles.
pub fn heuristic(observation: &[f32], continuous: bool) -> [f32; 2] {
    let s: [f64; 8] = std::array::from_fn(|i| f64::from(observation[i]));
    // Point toward the pad, but never more than 0.4 rad (22 degrees).
    let angle_targ = (s[0] * 0.5 + s[2] * 1.0).clamp(-0.4, 0.4);
    let hover_targ = 0.55 * s[0].abs();
    let mut angle_todo = (angle_targ - s[4]) * 0.5 - s[5] * 1.0;
    let mut hover_todo = (hover_targ - s[1]) * 0.5 - s[3] * 0.5;
    if s[6] != 0.0 || s[7] != 0.0 {
        // Down on a leg: only slow the fall.
        angle_todo = 0.0;
        hover_todo = -s[3] * 0.5;
    }
    if continuous {
        [
            (hover_todo * 20.0 - 1.0).clamp(-1.0, 1.0) as f32,
            (-angle_todo * 20.0).clamp(-1.0, 1.0) as f32,
        ]
    } else {
        let action = if hover_todo > angle_todo.abs() && hover_todo > 0.05 {
            2.0
        } else if angle_todo < -0.05 {
            3.0
        } else if angle_todo > 0.05 {
            1.0
        } else {
            0.0
        };
        [action, 0.0]
    }
}

/// Applies an engine's impulse at a world point (both in f64 from the
/// engine's arithmetic).
fn push(world: &mut World, body: BodyId, impulse: (f64, f64), at: (f64, f64)) {
    let impulse = Vec2::new(impulse.0 as f32, impulse.1 as f32);
    let at = Vec2::new(at.0 as f32, at.1 as f32);
    world
        .apply_linear_impulse(body, impulse, at)
        .expect("a finite impulse");
}

/// The exhaust particle gymnasium makes for an engine firing: a 2-pixel
/// disc of `density` at `at`, thrown by `impulse`, living `power`.
fn exhaust(at: (f64, f64), impulse: (f64, f64), density: f64, power: f64) -> Particle {
    let radius = 2.0 / SCALE;
    let mass = density * std::f64::consts::PI * radius * radius;
    Particle {
        position: Vec2::new(at.0 as f32, at.1 as f32),
        velocity: Vec2::new((impulse.0 / mass) as f32, (impulse.1 / mass) as f32),
        ttl: power as f32,
    }
}

impl Env for LunarLander {
    fn observation_len(&self) -> usize {
        8
    }

    fn action_len(&self) -> usize {
        if self.config.continuous {
            2
        } else {
            1
        }
    }

    fn max_episode_steps(&self) -> u32 {
        MAX_EPISODE_STEPS
    }

    fn check_action(&self, action: &[f32]) -> Result<(), EnvError> {
        if action.len() != self.action_len() {
            return Err(EnvError::ActionLength(self.action_len(), action.len()));
        }
        if action.iter().any(|a| !a.is_finite()) {
            return Err(EnvError::NonFiniteAction);
        }
        if !self.config.continuous && !matches!(action[0], 0.0 | 1.0 | 2.0 | 3.0) {
            return Err(EnvError::UnknownAction(action[0]));
        }
        Ok(())
    }

    fn reset(&mut self, rng: Pcg64, observation: &mut [f32]) {
        self.rng = rng;
        self.game_over = false;
        self.leg_contact = [false; 2];
        self.prev_shaping = None;
        self.angle = 0.0;
        self.particles.clear();
        self.parts = Some(self.build());
        // gymnasium's reset ends with one step doing nothing.
        self.advance(&[0.0, 0.0][..self.action_len()], observation);
    }

    fn step(&mut self, action: &[f32], observation: &mut [f32]) -> Result<Step, EnvError> {
        self.check_action(action)?;
        if self.parts.is_none() {
            return Err(EnvError::NotReset);
        }
        Ok(self.advance(action, observation))
    }

    fn rng(&self) -> Pcg64 {
        self.rng
    }

    fn render_size(&self) -> (usize, usize) {
        (VIEWPORT_W, VIEWPORT_H)
    }

    fn render(&self, canvas: &mut Canvas) {
        const SKY: Rgb = [0, 0, 0];
        const MOON: Rgb = [255, 255, 255];
        const BODY_FILL: Rgb = [128, 102, 230];
        const BODY_EDGE: Rgb = [77, 77, 128];
        const FLAG: Rgb = [204, 204, 0];
        let px = |p: Vec2| [(f64::from(p.x) * SCALE) as f32, (f64::from(p.y) * SCALE) as f32];
        canvas.clear(MOON);
        for pair in self.terrain.windows(2) {
            let sky = [
                px(pair[0]),
                px(pair[1]),
                px(Vec2::new(pair[1].x, H as f32)),
                px(Vec2::new(pair[0].x, H as f32)),
            ];
            canvas.fill_polygon(&sky, SKY);
            canvas.outline(&sky, SKY);
        }
        for p in &self.particles {
            let t = p.ttl;
            let color = [
                (0.2f32.max(0.15 + t) * 255.0) as u8,
                (0.2f32.max(0.5 * t) * 255.0) as u8,
                (0.2f32.max(0.5 * t) * 255.0) as u8,
            ];
            canvas.fill_circle(px(p.position), 2.0, color);
        }
        if let Some(parts) = &self.parts {
            for body in [parts.lander, parts.legs[0], parts.legs[1]] {
                let xf = parts.world.transform(body).expect("the lander's bodies");
                for shape in parts.world.body_shapes(body).expect("the lander's bodies") {
                    if let Ok(tumble::Shape::Polygon(poly)) = parts.world.shape(shape) {
                        let path: Vec<[f32; 2]> = poly.points().iter().map(|&v| px(xf.apply(v))).collect();
                        canvas.fill_polygon(&path, BODY_FILL);
                        canvas.outline(&path, BODY_EDGE);
                    }
                }
            }
        }
        for x in [self.helipad_x1, self.helipad_x2] {
            let x = (x * SCALE) as f32;
            let y1 = (self.helipad_y * SCALE) as f32;
            let y2 = y1 + 50.0;
            canvas.line([x, y1], [x, y2], MOON);
            let flag = [[x, y2], [x, y2 - 10.0], [x + 25.0, y2 - 5.0]];
            canvas.fill_polygon(&flag, FLAG);
            canvas.outline(&flag, FLAG);
        }
    }
}

#[cfg(test)]
#[path = "lander_tests.rs"]
mod tests;
