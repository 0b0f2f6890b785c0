//! gymnasium's `BipedalWalker-v3`, ported: a two-legged robot with four
//! motored joints walking over a long random terrain, seen through a
//! ten-ray lidar; in hardcore mode the terrain has stumps, stairs and pits.
//!
//! Every number and rule is gymnasium 1.4's (`gymnasium/envs/box2d/
//! bipedal_walker.py`): the geometry in its pixels over `SCALE`, the
//! densities, frictions and collision categories (the robot's parts touch
//! only the terrain), the terrain's generator with its random draws in
//! gymnasium's order (the clouds' draws too, which come before the hull's
//! push), the hinges' anchors, reference angles (pybox2d's), limits and
//! motors, torque control through saturated motors, the lidar, the
//! observation, the shaped reward and the two ways an episode ends.
//!
//! Two things come from Box2D 2.3 rather than from gymnasium's code, and
//! are kept as well: the 0.01 m skin on every polygon and edge (the walker
//! stands 1.5 cm off the terrain's line, and its lidar sees through the
//! skin), and the way Box2D's position solver shuts the hips, which
//! gymnasium places half a metre apart: every episode starts from the
//! crouch that leaves (see the `start` module).

use crate::canvas::{Canvas, Rgb};
use crate::start::{self, SKIN};
use crate::{Env, EnvError, Pcg64, Step};
use tumble::{
    BodyDef, BodyId, Capsule, Filter, JointDef, JointId, Polygon, QueryFilter, RevoluteJoint, ShapeDef,
    Transform, Vec2, World,
};

/// Steps a second; each step is one physics step of `1 / FPS` s.
const FPS: f64 = 50.0;
/// Pixels per metre: gymnasium's geometry is given in pixels.
const SCALE: f64 = 30.0;
/// The largest torque of each joint's motor (N m), reached at |action| 1.
const MOTORS_TORQUE: f64 = 80.0;
/// The hips' motor speed (rad/s) while pushed either way.
const SPEED_HIP: f64 = 4.0;
/// The knees' motor speed (rad/s) while pushed either way.
const SPEED_KNEE: f64 = 6.0;
/// How far the lidar sees (metres).
const LIDAR_RANGE: f64 = 160.0 / SCALE;
/// The largest initial push along x (N).
const INITIAL_RANDOM: f64 = 5.0;
/// The hull's outline, in pixels about its origin.
const HULL_POLY: [(f64, f64); 5] = [(-30.0, 9.0), (6.0, 9.0), (34.0, 1.0), (34.0, -8.0), (-30.0, -8.0)];
/// The hips' height below the hull's origin (metres; negative: gymnasium
/// places the upper legs with it the wrong way, so the hips start apart).
const LEG_DOWN: f64 = -8.0 / SCALE;
/// An upper leg's width and every leg segment's length (metres).
const LEG_W: f64 = 8.0 / SCALE;
const LEG_H: f64 = 34.0 / SCALE;
const VIEWPORT_W: usize = 600;
const VIEWPORT_H: usize = 400;
/// The distance between terrain points (metres).
const TERRAIN_STEP: f64 = 14.0 / SCALE;
/// The terrain's points.
const TERRAIN_LENGTH: usize = 200;
/// The terrain's mean height: a quarter of the view (metres).
const TERRAIN_HEIGHT: f64 = VIEWPORT_H as f64 / SCALE / 4.0;
/// The longest run of grass between two features, in points.
const TERRAIN_GRASS: i64 = 10;
/// The flat start, in points.
const TERRAIN_STARTPAD: i64 = 20;
/// The terrain's friction.
const FRICTION: f32 = 2.5;
/// Collision categories: the terrain, the robot. The robot's parts collide
/// with the terrain only, never with each other.
const GROUND: u64 = 0x0001;
const ROBOT: u64 = 0x0020;
/// gymnasium's `TimeLimit` for `BipedalWalker-v3`.
const MAX_EPISODE_STEPS: u32 = 1600;
/// gymnasium's `TimeLimit` for `BipedalWalkerHardcore-v3`.
const MAX_EPISODE_STEPS_HARDCORE: u32 = 2000;
/// A hip's limits (radians, the thigh's turn from the hull's).
const HIP_LIMITS: (f64, f64) = (-0.8, 1.1);
/// A knee's limits (radians, the shin's turn from the thigh's).
const KNEE_LIMITS: (f64, f64) = (-1.6, -0.1);
/// The value of pi gymnasium's clouds are drawn with.
#[allow(clippy::approx_constant)]
const GYMNASIUMS_PI: f64 = 3.14;
/// The lidar's rays.
const LIDAR_RAYS: usize = 10;
/// The lidar sees only shapes with the terrain's category bit.
const LIDAR_FILTER: QueryFilter = QueryFilter {
    category: u64::MAX,
    mask: GROUND,
};

/// The environment's options, gymnasium's keyword arguments.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WalkerConfig {
    /// Stumps, stairs and pits between the runs of grass.
    pub hardcore: bool,
}

/// One lidar ray as last cast: from the hull, to what it hit or its end.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Ray {
    from: Vec2,
    to: Vec2,
    /// How far along the ray the hit is, 1 when nothing is in range.
    fraction: f32,
}

/// A cloud, drawn only: its outline and its leftmost and rightmost x
/// (metres).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cloud {
    points: [(f64, f64); 5],
    x1: f64,
    x2: f64,
}

/// The bodies and joints of one episode's world.
#[derive(Clone, Debug)]
struct Parts {
    world: World,
    hull: BodyId,
    /// Upper and lower leg of the first leg, then of the second.
    legs: [BodyId; 4],
    /// Hip and knee of the first leg, then of the second.
    joints: [JointId; 4],
}

/// gymnasium's `BipedalWalker-v3` (see the module's doc).
#[derive(Clone, Debug)]
pub struct BipedalWalker {
    config: WalkerConfig,
    max_episode_steps: u32,
    rng: Pcg64,
    parts: Option<Parts>,
    /// The terrain's 200 points, left to right (metres).
    terrain: Vec<(f64, f64)>,
    /// The hardcore features (stumps, stair steps, pit walls), each a
    /// quadrilateral (metres), in the order they were drawn.
    obstacles: Vec<[(f64, f64); 4]>,
    clouds: Vec<Cloud>,
    game_over: bool,
    /// Whether each lower leg touches the terrain.
    ground_contact: [bool; 2],
    prev_shaping: Option<f64>,
    /// The hull's angle, counted on through whole turns as Box2D's is.
    angle: f64,
    /// The left edge of the view (metres): the hull a fifth of the view
    /// from it.
    scroll: f64,
    lidar: [Ray; LIDAR_RAYS],
    /// Which lidar ray the next frame draws (one a frame, sweeping out and
    /// back, then a pause): advanced once a step.
    lidar_render: u32,
}

impl BipedalWalker {
    /// A walker with `config`, to be [`Env::reset`] before stepping. Its
    /// episodes are truncated where gymnasium's registrations truncate
    /// them: 1600 steps (`BipedalWalker-v3`), 2000 in hardcore mode
    /// (`BipedalWalkerHardcore-v3`).
    pub fn new(config: WalkerConfig) -> BipedalWalker {
        let unseen = Ray {
            from: Vec2::ZERO,
            to: Vec2::ZERO,
            fraction: 1.0,
        };
        BipedalWalker {
            config,
            max_episode_steps: if config.hardcore {
                MAX_EPISODE_STEPS_HARDCORE
            } else {
                MAX_EPISODE_STEPS
            },
            rng: Pcg64::from_seed(0),
            parts: None,
            terrain: Vec::with_capacity(TERRAIN_LENGTH),
            obstacles: Vec::new(),
            clouds: Vec::with_capacity(TERRAIN_LENGTH / 20),
            game_over: false,
            ground_contact: [false; 2],
            prev_shaping: None,
            angle: 0.0,
            scroll: 0.0,
            lidar: [unseen; LIDAR_RAYS],
            lidar_render: 0,
        }
    }

    /// The same walker truncating its episodes after `steps` steps
    /// (gymnasium's `max_episode_steps`: `gymnasium.make("BipedalWalker-v3",
    /// hardcore=True)` keeps the plain id's 1600).
    pub fn with_max_episode_steps(self, steps: u32) -> BipedalWalker {
        BipedalWalker {
            max_episode_steps: steps,
            ..self
        }
    }

    /// The options it was made with.
    pub fn config(&self) -> WalkerConfig {
        self.config
    }

    /// The world of the running episode (None before the first reset).
    pub fn world(&self) -> Option<&World> {
        self.parts.as_ref().map(|p| &p.world)
    }

    /// The terrain's points, left to right (metres, as gymnasium computes
    /// them in doubles; the world's edges are these in `f32`).
    pub fn terrain(&self) -> &[(f64, f64)] {
        &self.terrain
    }

    /// The hardcore features: stumps, stair steps and pit walls, each a
    /// quadrilateral (metres), in the order they were drawn.
    pub fn obstacles(&self) -> &[[(f64, f64); 4]] {
        &self.obstacles
    }

    /// The hull's body (None before the first reset).
    pub fn hull(&self) -> Option<BodyId> {
        self.parts.as_ref().map(|p| p.hull)
    }

    /// Whether the hull has touched the terrain this episode.
    pub fn game_over(&self) -> bool {
        self.game_over
    }

    /// Draws the terrain, gymnasium's `_generate_terrain`: a walk of
    /// grass whose slope relaxes towards the mean height with random
    /// kicks after the start pad, broken every 5 to 9 points by a single
    /// flat point, or in hardcore mode by a stump, a flight of stairs or a
    /// pit. Fills `terrain` and `obstacles`.
    fn generate_terrain(&mut self) {
        #[derive(Clone, Copy, PartialEq)]
        enum Feature {
            Grass,
            Stump,
            Stairs,
            Pit,
        }
        let hardcore = self.config.hardcore;
        let rng = &mut self.rng;
        self.terrain.clear();
        self.obstacles.clear();
        let mut state = Feature::Grass;
        let mut velocity = 0.0f64;
        let mut y = TERRAIN_HEIGHT;
        let mut counter = TERRAIN_STARTPAD;
        // The point after a feature is chosen starts it (or, for grass,
        // stays level).
        let mut oneshot = false;
        let (mut stair_steps, mut stair_width, mut stair_height) = (0i64, 0i64, 0i64);
        let mut original_y = 0.0f64;
        let step = TERRAIN_STEP;
        for i in 0..TERRAIN_LENGTH {
            let x = i as f64 * step;
            match (state, oneshot) {
                (Feature::Grass, false) => {
                    velocity = 0.8 * velocity + 0.01 * sign(TERRAIN_HEIGHT - y);
                    if i as i64 > TERRAIN_STARTPAD {
                        velocity += rng.uniform(-1.0, 1.0) / SCALE;
                    }
                    y += velocity;
                }
                (Feature::Pit, true) => {
                    // Two walls four steps deep, `counter` steps apart.
                    counter = rng.integers(3, 5);
                    let wall = [
                        (x, y),
                        (x + step, y),
                        (x + step, y - 4.0 * step),
                        (x, y - 4.0 * step),
                    ];
                    self.obstacles.push(wall);
                    let across = step * counter as f64;
                    self.obstacles.push(wall.map(|(px, py)| (px + across, py)));
                    counter += 2;
                    original_y = y;
                }
                (Feature::Pit, false) => {
                    y = original_y;
                    if counter > 1 {
                        y -= 4.0 * step;
                    }
                }
                (Feature::Stump, true) => {
                    counter = rng.integers(1, 3);
                    let side = counter as f64 * step;
                    self.obstacles
                        .push([(x, y), (x + side, y), (x + side, y + side), (x, y + side)]);
                }
                (Feature::Stairs, true) => {
                    stair_height = if rng.next_f64() > 0.5 { 1 } else { -1 };
                    stair_width = rng.integers(4, 5);
                    stair_steps = rng.integers(3, 5);
                    original_y = y;
                    for s in 0..stair_steps {
                        let left = x + (s * stair_width) as f64 * step;
                        let right = x + ((1 + s) * stair_width) as f64 * step;
                        let top = y + (s * stair_height) as f64 * step;
                        let bottom = y + (-1 + s * stair_height) as f64 * step;
                        self.obstacles
                            .push([(left, top), (right, top), (right, bottom), (left, bottom)]);
                    }
                    counter = stair_steps * stair_width;
                }
                (Feature::Stairs, false) => {
                    let s = stair_steps * stair_width - counter - stair_height;
                    let n = s as f64 / stair_width as f64;
                    y = original_y + n * stair_height as f64 * step;
                }
                // The level point after a run of grass, and a stump's
                // run: y stays.
                (Feature::Grass, true) | (Feature::Stump, false) => {}
            }
            oneshot = false;
            self.terrain.push((x, y));
            counter -= 1;
            if counter == 0 {
                counter = rng.integers(TERRAIN_GRASS / 2, TERRAIN_GRASS);
                state = if state == Feature::Grass && hardcore {
                    match rng.integers(1, 4) {
                        1 => Feature::Stump,
                        2 => Feature::Stairs,
                        _ => Feature::Pit,
                    }
                } else {
                    Feature::Grass
                };
                oneshot = true;
            }
        }
    }

    /// Draws the ten clouds, gymnasium's `_generate_clouds`: drawing only,
    /// but their draws come before the hull's push.
    fn generate_clouds(&mut self) {
        self.clouds.clear();
        let rng = &mut self.rng;
        for _ in 0..TERRAIN_LENGTH / 20 {
            let x = rng.uniform(0.0, TERRAIN_LENGTH as f64) * TERRAIN_STEP;
            let y = VIEWPORT_H as f64 / SCALE * 3.0 / 4.0;
            let points: [(f64, f64); 5] = std::array::from_fn(|a| {
                // gymnasium's 3.14, not pi: the clouds are where
                // gymnasium's are.
                let turn = GYMNASIUMS_PI * 2.0 * a as f64 / 5.0;
                let px = x + 15.0 * TERRAIN_STEP * turn.sin() + rng.uniform(0.0, 5.0 * TERRAIN_STEP);
                let py = y + 5.0 * TERRAIN_STEP * turn.cos() + rng.uniform(0.0, 5.0 * TERRAIN_STEP);
                (px, py)
            });
            let x1 = points.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
            let x2 = points.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
            self.clouds.push(Cloud { points, x1, x2 });
        }
    }

    /// Builds the episode's world, drawing the terrain, the clouds and the
    /// push.
    fn build(&mut self) -> Parts {
        let mut settings = crate::physics::world_settings(-10.0);
        // Two velocity iterations a substep, not one: with one, a hinge
        // driven into its limit springs back (a leg swung into it at
        // 4.6 rad/s leaves at 1.1 rad/s; with two, at 0.1 rad/s; Box2D
        // 2.3's 180 iterations stop it dead), and the walker's knees and
        // hips strike their limits at every stride.
        settings.solver.iterations = 2 * crate::physics::SUBSTEPS;
        let mut world = World::new(settings);

        self.generate_terrain();
        self.generate_clouds();

        // Each edge and feature is its own static body, as in gymnasium (a
        // body recomputes its mass over all its shapes at each one added:
        // the terrain on one body would build in quadratic time). Box2D
        // 2.3 keeps a skin of 0.01 m on every edge and polygon: the
        // terrain carries both the robot's and its own, so the robot
        // stands and touches where gymnasium's does while its own parts
        // keep their masses.
        let ground = |world: &mut World| {
            world
                .create_body(&BodyDef::static_body())
                .expect("a static body at the origin")
        };
        let ground_def = ShapeDef {
            friction: FRICTION,
            filter: Filter {
                category: GROUND,
                mask: u64::MAX,
                group: 0,
            },
            ..ShapeDef::default()
        };
        let point = |(x, y): (f64, f64)| Vec2::new(x as f32, y as f32);
        for quad in &self.obstacles {
            let outline = quad.map(point);
            let block = Polygon::new_rounded(&outline, SKIN as f32).expect("a feature is a rectangle");
            let body = ground(&mut world);
            world
                .create_shape(body, block, &ground_def)
                .expect("the feature fits");
        }
        for pair in self.terrain.windows(2) {
            let edge = Capsule::new(point(pair[0]), point(pair[1]), SKIN as f32)
                .expect("terrain points are distinct");
            let body = ground(&mut world);
            world
                .create_shape(body, edge, &ground_def)
                .expect("the terrain fits");
        }

        let robot = |density: f32, friction: f32| ShapeDef {
            density,
            friction,
            restitution: 0.0,
            filter: Filter {
                category: ROBOT,
                mask: GROUND,
                group: 0,
            },
            ..ShapeDef::default()
        };
        let hull_def = robot(5.0, 0.1);
        let leg_def = robot(1.0, 0.2);
        let outline: Vec<Vec2> = HULL_POLY
            .iter()
            .map(|&(x, y)| point((x / SCALE, y / SCALE)))
            .collect();
        let hull_shape = Polygon::new(&outline).expect("the hull is convex");
        let upper = Polygon::new_box((LEG_W / 2.0) as f32, (LEG_H / 2.0) as f32).expect("a box");
        let foot = (0.8 * LEG_W / 2.0, LEG_H / 2.0);
        let lower = Polygon::new_box(foot.0 as f32, foot.1 as f32).expect("a box");

        // Where gymnasium places the bodies (hull, then upper and lower
        // leg of each side), then where Box2D's first steps leave them.
        let init_x = TERRAIN_STEP * TERRAIN_STARTPAD as f64 / 2.0;
        let init_y = TERRAIN_HEIGHT + 2.0 * LEG_H;
        let mut bodies = vec![start::Body::new(
            [init_x, init_y],
            0.0,
            hull_shape.mass(hull_def.density),
        )];
        let mut hinges = Vec::with_capacity(4);
        for side in [-1.0f64, 1.0] {
            let tilt = side * 0.05;
            let thigh = bodies.len();
            bodies.push(start::Body::new(
                [init_x, init_y - LEG_H / 2.0 - LEG_DOWN],
                tilt,
                upper.mass(leg_def.density),
            ));
            bodies.push(start::Body::new(
                [init_x, init_y - LEG_H * 3.0 / 2.0 - LEG_DOWN],
                tilt,
                lower.mass(leg_def.density),
            ));
            let (hip_lower, hip_upper) = HIP_LIMITS;
            let (knee_lower, knee_upper) = KNEE_LIMITS;
            // pybox2d's joint definition, given the two bodies, sets the
            // reference angle to B's angle less A's: the hip's angle starts
            // at 0 although the thigh is tilted. Thigh and shin are tilted
            // alike: the knee starts at 0, above its limit.
            hinges.push(start::Hinge {
                a: 0,
                b: thigh,
                anchor_a: [0.0, LEG_DOWN],
                anchor_b: [0.0, LEG_H / 2.0],
                reference: tilt,
                lower: hip_lower,
                upper: hip_upper,
                motor: None,
            });
            hinges.push(start::Hinge {
                a: thigh,
                b: thigh + 1,
                anchor_a: [0.0, -LEG_H / 2.0],
                anchor_b: [0.0, LEG_H / 2.0],
                reference: 0.0,
                lower: knee_lower,
                upper: knee_upper,
                motor: None,
            });
        }
        start::settle(&mut bodies, &hinges, &[2, 4], foot, TERRAIN_HEIGHT, &self.terrain);

        let place = |body: &start::Body| {
            let [x, y] = body.origin();
            BodyDef::dynamic()
                .at(point((x, y)))
                .with_angle(body.angle() as f32)
        };
        let hull = world.create_body(&place(&bodies[0])).expect("the hull");
        world
            .create_shape(hull, hull_shape, &hull_def)
            .expect("the hull fits");
        let push = Vec2::new(self.rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM) as f32, 0.0);
        world.apply_force_to_center(hull, push).expect("a finite push");

        let mut legs = [hull; 4];
        for (k, leg) in legs.iter_mut().enumerate() {
            *leg = world.create_body(&place(&bodies[k + 1])).expect("a leg");
            let shape = if k % 2 == 0 { upper } else { lower };
            world.create_shape(*leg, shape, &leg_def).expect("the leg fits");
        }
        let joints = std::array::from_fn(|k| {
            let h = &hinges[k];
            let body = |i: usize| if i == 0 { hull } else { legs[i - 1] };
            let knee = k % 2 == 1;
            // The first motors gymnasium sets (the reset's step replaces
            // them with the no-op action's).
            let speed = if knee { 1.0 } else { h.reference.signum() };
            let def = JointDef::new(body(h.a), body(h.b), hinge(knee, speed, MOTORS_TORQUE))
                .with_local_anchors(
                    point((h.anchor_a[0], h.anchor_a[1])),
                    point((h.anchor_b[0], h.anchor_b[1])),
                );
            let def = JointDef {
                frame_b: Transform::new(def.frame_b.p, -h.reference as f32),
                ..def
            };
            world.create_joint(&def).expect("a hinge between two bodies")
        });
        Parts {
            world,
            hull,
            legs,
            joints,
        }
    }

    /// One step's physics and bookkeeping for an action already checked.
    fn advance(&mut self, action: &[f32], observation: &mut [f32]) -> Step {
        let parts = self.parts.as_mut().expect("reset before stepping");
        let world = &mut parts.world;
        let hull = parts.hull;

        // Torque control through a motor: it runs flat out the action's
        // way with the action's share of the largest torque.
        for (k, (&joint, &a)) in parts.joints.iter().zip(action).enumerate() {
            let knee = k % 2 == 1;
            let top_speed = if knee { SPEED_KNEE } else { SPEED_HIP };
            let a = f64::from(a);
            let speed = top_speed * sign(a);
            let torque = MOTORS_TORQUE * a.abs().clamp(0.0, 1.0);
            world
                .set_joint_kind(joint, hinge(knee, speed, torque))
                .expect("a hinge's motor");
        }

        crate::physics::step_counting_turns(world, (1.0 / FPS) as f32, hull, &mut self.angle);

        // The hull falls when it touches the terrain as Box2D 2.3 counts a
        // touch: the skins overlap (the terrain carries both: separation
        // at most zero). A contact begins up to the speculative margin,
        // 2 cm, before that, and a hull that dips that close to the ground
        // and rises again has not fallen.
        if hull_touches(world, hull) {
            self.game_over = true;
        }
        let events = world.contact_events();
        let lower_legs = [parts.legs[1], parts.legs[3]];
        for touch in &events.begin {
            for (k, &leg) in lower_legs.iter().enumerate() {
                if touch.body_a == leg || touch.body_b == leg {
                    self.ground_contact[k] = true;
                }
            }
        }
        // A lower leg leaving one terrain edge for the next clears its
        // flag although it still touches one, as gymnasium's does (its
        // contacts end after the newer ones begin).
        for touch in &events.end {
            for (k, &leg) in lower_legs.iter().enumerate() {
                if touch.body_a == leg || touch.body_b == leg {
                    self.ground_contact[k] = false;
                }
            }
        }

        let position = world.position(hull).expect("the hull");
        let velocity = world.linear_velocity(hull).expect("the hull");
        let omega = world.angular_velocity(hull).expect("the hull");
        for (i, ray) in self.lidar.iter_mut().enumerate() {
            // Straight down, then fanning forward to 1.5 rad.
            let turn = 1.5 * i as f64 / LIDAR_RAYS as f64;
            let reach = Vec2::new(
                (turn.sin() * LIDAR_RANGE) as f32,
                (-turn.cos() * LIDAR_RANGE) as f32,
            );
            let hit = world
                .ray_cast_closest(position, reach, LIDAR_FILTER)
                .expect("the hull stays within the world");
            // Box2D 2.3's ray casts ignore the skin: the ray goes on
            // through it to the terrain's line (exactly so on a flat face,
            // where the skin is as thick as the normal says).
            let fraction = hit.map_or(1.0, |hit| {
                let facing = -f64::from(hit.normal.dot(reach)) / LIDAR_RANGE;
                let through = if facing > 0.0 { SKIN / facing } else { 0.0 };
                (f64::from(hit.fraction) + through / LIDAR_RANGE).min(1.0) as f32
            });
            *ray = Ray {
                from: position,
                to: position + reach * fraction,
                fraction,
            };
        }

        let mut state = [0.0f64; 24];
        state[0] = self.angle;
        state[1] = 2.0 * f64::from(omega) / FPS;
        state[2] = 0.3 * f64::from(velocity.x) * (VIEWPORT_W as f64 / SCALE) / FPS;
        state[3] = 0.3 * f64::from(velocity.y) * (VIEWPORT_H as f64 / SCALE) / FPS;
        for leg in 0..2 {
            let (hip, knee) = (parts.joints[2 * leg], parts.joints[2 * leg + 1]);
            let base = 4 + 5 * leg;
            state[base] = f64::from(world.joint_angle(hip).expect("a hip"));
            state[base + 1] = joint_speed(world, hip) / SPEED_HIP;
            state[base + 2] = f64::from(world.joint_angle(knee).expect("a knee")) + 1.0;
            state[base + 3] = joint_speed(world, knee) / SPEED_KNEE;
            state[base + 4] = if self.ground_contact[leg] { 1.0 } else { 0.0 };
        }
        for (s, ray) in state[14..].iter_mut().zip(&self.lidar) {
            *s = f64::from(ray.fraction);
        }
        for (o, s) in observation.iter_mut().zip(state) {
            *o = s as f32;
        }

        let x = f64::from(position.x);
        self.scroll = x - VIEWPORT_W as f64 / SCALE / 5.0;
        self.lidar_render = (self.lidar_render + 1) % 100;

        // Progress pays 130 / SCALE a metre (about 360 over the course);
        // a tilted head costs.
        let shaping = 130.0 * x / SCALE - 5.0 * state[0].abs();
        let mut reward = self.prev_shaping.map_or(0.0, |prev| shaping - prev);
        self.prev_shaping = Some(shaping);
        for &a in action {
            reward -= 0.00035 * MOTORS_TORQUE * f64::from(a).abs().clamp(0.0, 1.0);
        }

        let mut terminated = false;
        if self.game_over || x < 0.0 {
            reward = -100.0;
            terminated = true;
        }
        if x > (TERRAIN_LENGTH as f64 - TERRAIN_GRASS as f64) * TERRAIN_STEP {
            terminated = true;
        }
        Step { reward, terminated }
    }
}

/// Whether `hull` touches anything with its skin: some contact point at
/// a separation of zero or less.
fn hull_touches(world: &World, hull: BodyId) -> bool {
    world
        .body_contacts(hull)
        .expect("the hull")
        .any(|c| c.manifold.min_separation().is_some_and(|s| s <= 0.0))
}

/// A hip or knee hinge with its limits and its motor at `speed` rad/s and
/// at most `torque` N m.
///
/// The limits lie Box2D 2.3's angular slop (2 degrees) past gymnasium's:
/// Box2D 2.3 turns a limit on only once a step begins past it, then pulls
/// the hinge back to the slop and no nearer, so a leg swung or pressed
/// into a limit rests 2 degrees past it (driven into their upper limits,
/// gymnasium's hips read 1.134 and its knees -0.065). Held at gymnasium's
/// limits instead, the heuristic walker fell on 193 of 200 seeds
/// (gymnasium's on 174); with the slop, on 180.
fn hinge(knee: bool, speed: f64, torque: f64) -> RevoluteJoint {
    let (lower, upper) = if knee { KNEE_LIMITS } else { HIP_LIMITS };
    let slop = crate::start::ANGULAR_SLOP;
    RevoluteJoint::default()
        .with_limits((lower - slop) as f32, (upper + slop) as f32)
        .with_motor(speed as f32, torque as f32)
}

/// A revolute joint's speed as Box2D's `b2RevoluteJoint::GetJointSpeed`:
/// body B's angular velocity less body A's.
fn joint_speed(world: &World, joint: JointId) -> f64 {
    let (a, b) = world.joint_bodies(joint).expect("a joint");
    let wa = world.angular_velocity(a).expect("a jointed body");
    let wb = world.angular_velocity(b).expect("a jointed body");
    f64::from(wb - wa)
}

/// numpy's `sign`: -1, 0 or 1 (`f64::signum` gives 1 for 0).
fn sign(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// gymnasium's heuristic walker (`BipedalWalkerHeuristics`): a gait of
/// three phases with PD targets on the hips and knees. Standing on one
/// leg, it swings the other forward until the supporting leg is behind;
/// then puts the swung leg down; once that one touches, it pushes off with
/// the other, and the legs swap roles. Both hips also hold the hull level
/// and both knees damp its vertical speed. It is suboptimal, with no
/// notion of balance: it falls on many seeds.
///
/// ```
/// use tumble_envs::{BipedalWalker, Env, Pcg64, WalkerConfig, WalkerHeuristic};
/// let mut env = BipedalWalker::new(WalkerConfig::default());
/// let mut pilot = WalkerHeuristic::new();
/// let mut obs = [0.0f32; 24];
/// env.reset(Pcg64::from_seed(0), &mut obs);
/// for _ in 0..50 {
///     let action = pilot.act(&obs);
///     env.step(&action, &mut obs).unwrap();
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WalkerHeuristic {
    gait: Gait,
    /// The leg swinging (0 or 1); the other supports.
    moving_leg: usize,
    /// The supporting knee's target, straightened step by step.
    supporting_knee_angle: f64,
}

/// The heuristic's phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gait {
    StayOnOneLeg,
    PutOtherDown,
    PushOff,
}

impl Default for WalkerHeuristic {
    fn default() -> Self {
        WalkerHeuristic::new()
    }
}

impl WalkerHeuristic {
    /// The forward speed (observation 2) above which the supporting knee
    /// straightens faster and the push-off ends early: faster falls over.
    const SPEED: f64 = 0.29;
    /// The knee target of a leg put down, and the most the supporting
    /// knee's target reaches.
    const SUPPORT_KNEE_ANGLE: f64 = 0.1;

    /// A walker about to stand on its second leg and swing the first.
    pub fn new() -> WalkerHeuristic {
        WalkerHeuristic {
            gait: Gait::StayOnOneLeg,
            moving_leg: 0,
            supporting_knee_angle: Self::SUPPORT_KNEE_ANGLE,
        }
    }

    /// The action for `observation` (the walker's 24 values), advancing
    /// the gait.
    pub fn act(&mut self, observation: &[f32]) -> [f32; 4] {
        let s: [f64; 14] = std::array::from_fn(|i| f64::from(observation[i]));
        let moving_base = 4 + 5 * self.moving_leg;
        let supporting_base = 4 + 5 * (1 - self.moving_leg);
        let mut hip_targ = [None; 2];
        let mut knee_targ = [None; 2];

        // The phases run in turn within one call: a phase that ends hands
        // over to the next at once.
        if self.gait == Gait::StayOnOneLeg {
            let (moving, supporting) = (self.moving_leg, 1 - self.moving_leg);
            hip_targ[moving] = Some(1.1);
            knee_targ[moving] = Some(-0.6);
            self.supporting_knee_angle += 0.03;
            if s[2] > Self::SPEED {
                self.supporting_knee_angle += 0.03;
            }
            self.supporting_knee_angle = self.supporting_knee_angle.min(Self::SUPPORT_KNEE_ANGLE);
            knee_targ[supporting] = Some(self.supporting_knee_angle);
            if s[supporting_base] < 0.10 {
                // The supporting leg is behind.
                self.gait = Gait::PutOtherDown;
            }
        }
        if self.gait == Gait::PutOtherDown {
            let (moving, supporting) = (self.moving_leg, 1 - self.moving_leg);
            hip_targ[moving] = Some(0.1);
            knee_targ[moving] = Some(Self::SUPPORT_KNEE_ANGLE);
            knee_targ[supporting] = Some(self.supporting_knee_angle);
            if s[moving_base + 4] != 0.0 {
                self.gait = Gait::PushOff;
                self.supporting_knee_angle = s[moving_base + 2].min(Self::SUPPORT_KNEE_ANGLE);
            }
        }
        if self.gait == Gait::PushOff {
            let (moving, supporting) = (self.moving_leg, 1 - self.moving_leg);
            knee_targ[moving] = Some(self.supporting_knee_angle);
            knee_targ[supporting] = Some(1.0);
            if s[supporting_base + 2] > 0.88 || s[2] > 1.2 * Self::SPEED {
                self.gait = Gait::StayOnOneLeg;
                self.moving_leg = 1 - self.moving_leg;
            }
        }

        // gymnasium tests a target's truth: a target of exactly 0 is none.
        let set = |t: Option<f64>| t.filter(|&t| t != 0.0);
        let mut hip_todo = [0.0f64; 2];
        let mut knee_todo = [0.0f64; 2];
        for leg in 0..2 {
            let base = 4 + 5 * leg;
            if let Some(t) = set(hip_targ[leg]) {
                hip_todo[leg] = 0.9 * (t - s[base]) - 0.25 * s[base + 1];
            }
            if let Some(t) = set(knee_targ[leg]) {
                knee_todo[leg] = 4.0 * (t - s[base + 2]) - 0.25 * s[base + 3];
            }
            // Keep the head level; damp the hull's bouncing.
            hip_todo[leg] -= 0.9 * (0.0 - s[0]) - 1.5 * s[1];
            knee_todo[leg] -= 15.0 * s[3];
        }
        [hip_todo[0], knee_todo[0], hip_todo[1], knee_todo[1]].map(|a| (0.5 * a).clamp(-1.0, 1.0) as f32)
    }
}

impl Env for BipedalWalker {
    fn observation_len(&self) -> usize {
        24
    }

    fn action_len(&self) -> usize {
        4
    }

    fn max_episode_steps(&self) -> u32 {
        self.max_episode_steps
    }

    fn check_action(&self, action: &[f32]) -> Result<(), EnvError> {
        if action.len() != 4 {
            return Err(EnvError::ActionLength(4, action.len()));
        }
        if action.iter().any(|a| !a.is_finite()) {
            return Err(EnvError::NonFiniteAction);
        }
        Ok(())
    }

    fn reset(&mut self, rng: Pcg64, observation: &mut [f32]) {
        self.rng = rng;
        self.game_over = false;
        self.ground_contact = [false; 2];
        self.prev_shaping = None;
        self.angle = 0.0;
        self.scroll = 0.0;
        self.lidar_render = 0;
        self.parts = None;
        self.parts = Some(self.build());
        // gymnasium's reset ends with one step doing nothing.
        self.advance(&[0.0; 4], observation);
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
        const SKY: Rgb = [215, 215, 255];
        const CLOUD: Rgb = [255, 255, 255];
        const GROUND_FILL: Rgb = [102, 153, 76];
        const LIDAR: Rgb = [255, 0, 0];
        const OBSTACLE_FILL: Rgb = [255, 255, 255];
        const OBSTACLE_EDGE: Rgb = [153, 153, 153];
        const HULL_FILL: Rgb = [127, 51, 229];
        const HULL_EDGE: Rgb = [76, 76, 127];
        const FLAG: Rgb = [230, 51, 0];
        const BLACK: Rgb = [0, 0, 0];
        let (w, h) = (VIEWPORT_W as f64, VIEWPORT_H as f64);
        // gymnasium draws on a surface as wide as the view plus the scroll
        // (whole pixels) and keeps its last view's width: the view starts
        // there, and the sky (drawn at the scroll itself) may miss a
        // strip of it, left black.
        let scroll = self.scroll;
        let offset = (w + scroll.max(0.0) * SCALE).trunc() - w;
        let px = |x: f64, y: f64| [(x * SCALE - offset) as f32, (y * SCALE) as f32];
        let in_view = |x1: f64, x2: f64| x2 * SCALE >= offset && x1 * SCALE <= offset + w;

        canvas.clear(BLACK);
        let left = scroll * SCALE - offset;
        let sky = [
            [left as f32, 0.0],
            [(left + w) as f32, 0.0],
            [(left + w) as f32, h as f32],
            [left as f32, h as f32],
        ];
        canvas.fill_polygon(&sky, SKY);

        // The clouds drift at half the scroll.
        for cloud in &self.clouds {
            if cloud.x2 < scroll / 2.0 || cloud.x1 > scroll / 2.0 + w / SCALE {
                continue;
            }
            let path: Vec<[f32; 2]> = cloud
                .points
                .iter()
                .map(|&(x, y)| px(x + scroll / 2.0, y))
                .collect();
            canvas.fill_polygon(&path, CLOUD);
            canvas.outline(&path, CLOUD);
        }

        for pair in self.terrain.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if b.0 < scroll || a.0 > scroll + w / SCALE {
                continue;
            }
            let path = [px(a.0, a.1), px(b.0, b.1), px(b.0, 0.0), px(a.0, 0.0)];
            canvas.fill_polygon(&path, GROUND_FILL);
            canvas.outline(&path, GROUND_FILL);
        }

        // One ray a frame, out along the fan and back, then a pause.
        let i = self.lidar_render as usize;
        if i < 2 * LIDAR_RAYS && self.parts.is_some() {
            let ray = self.lidar[if i < LIDAR_RAYS { i } else { 2 * LIDAR_RAYS - 1 - i }];
            let (a, b) = (ray.from, ray.to);
            canvas.line(
                px(f64::from(a.x), f64::from(a.y)),
                px(f64::from(b.x), f64::from(b.y)),
                LIDAR,
            );
        }

        // gymnasium's draw list: the terrain's bodies in reverse order of
        // making (the grass edges, last first, then the features), then
        // the legs, then the hull.
        for (k, pair) in self.terrain.windows(2).enumerate().rev() {
            let (a, b) = (pair[0], pair[1]);
            if in_view(a.0, b.0) {
                let grass = [76, if k % 2 == 0 { 255 } else { 204 }, 76];
                canvas.line(px(a.0, a.1), px(b.0, b.1), grass);
            }
        }
        for quad in self.obstacles.iter().rev() {
            if in_view(quad[0].0.min(quad[1].0), quad[0].0.max(quad[1].0)) {
                let path = quad.map(|(x, y)| px(x, y));
                canvas.fill_polygon(&path, OBSTACLE_FILL);
                canvas.outline(&path, OBSTACLE_EDGE);
            }
        }
        if let Some(parts) = &self.parts {
            let world = &parts.world;
            let leg_colors = |side: f64| {
                let shade = |c: f64| (c - side * 25.0) as u8;
                (
                    [shade(153.0), shade(76.0), shade(127.0)],
                    [shade(102.0), shade(51.0), shade(76.0)],
                )
            };
            let bodies = [
                (parts.legs[0], leg_colors(-1.0)),
                (parts.legs[1], leg_colors(-1.0)),
                (parts.legs[2], leg_colors(1.0)),
                (parts.legs[3], leg_colors(1.0)),
                (parts.hull, (HULL_FILL, HULL_EDGE)),
            ];
            for (body, (fill, edge)) in bodies {
                let xf = world.transform(body).expect("the walker's bodies");
                for shape in world.body_shapes(body).expect("the walker's bodies") {
                    if let Ok(tumble::Shape::Polygon(poly)) = world.shape(shape) {
                        let path: Vec<[f32; 2]> = poly
                            .points()
                            .iter()
                            .map(|&v| {
                                let p = xf.apply(v);
                                px(f64::from(p.x), f64::from(p.y))
                            })
                            .collect();
                        canvas.fill_polygon(&path, fill);
                        canvas.outline(&path, edge);
                    }
                }
            }
        }

        // The start flag, three steps in.
        let x = (TERRAIN_STEP * 3.0 * SCALE - offset) as f32;
        let y1 = (TERRAIN_HEIGHT * SCALE) as f32;
        let y2 = y1 + 50.0;
        canvas.line([x, y1], [x, y2], BLACK);
        let flag = [[x, y2], [x, y2 - 10.0], [x + 25.0, y2 - 5.0]];
        canvas.fill_polygon(&flag, FLAG);
        canvas.outline(&flag, BLACK);
    }
}

#[cfg(test)]
#[path = "walker_tests.rs"]
mod tests;
