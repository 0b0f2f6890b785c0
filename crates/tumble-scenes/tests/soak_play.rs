//! Soak under ordinary play: a closed 160 m box holding 100 chains of 10
//! hinged capsules and 1 000 mixed shapes, some joined by joints of every
//! kind, and every 100 steps one thing a game does to its world (remove
//! and add bodies, an explosion, impulses, a teleport, joints made between
//! neighbouring bodies anywhere in the box and removed, a change of
//! workers, a thrown body, queries, gravity tilted). Nothing in it is
//! extreme, so nothing may freeze, no body may leave the box, and the cost
//! of a step (its contacts, the engine's memory) must stay what it was at
//! the start.
//!
//! A joint joins neighbours, its frame between them, as a game joins
//! bodies where they meet. The second test joins any two bodies with the
//! frame halfway between them: arms of up to 110 m, and once a teleport
//! or a turn leaves no pose in the box that satisfies such a joint, it
//! drives its bodies into the walls and the piles for ever. No iterative
//! solver settles that, but the engine still owes it the same: nothing
//! freezes or goes non-finite, no body passes a wall, and the cost of a
//! step stays what it was.
//!
//! 3 000 steps by default. The long run prints its figures every 10 000
//! steps:
//!
//! ```text
//! TUMBLE_SOAK_PLAY_STEPS=100000 cargo test --release -p tumble-scenes --test soak_play -- --nocapture
//! ```

use std::f32::consts::{PI, TAU};
use std::time::Instant;
use tumble::{
    BodyDef, BodyId, Capsule, Circle, DistanceJoint, Explosion, JointDef, JointKind, MotorJoint, Polygon,
    PrismaticJoint, QueryFilter, RevoluteJoint, Shape, Transform, Vec2, WeldJoint, WheelJoint, World,
    WorldSettings,
};
use tumble_scenes::{default_material, Rng, DT};

/// Half the inside width of the box, and its inside height.
const HALF_WIDTH: f32 = 80.0;
const HEIGHT: f32 = 160.0;
/// The chains: how many, how many links each, and where they hang from.
const CHAINS: usize = 100;
const LINKS: usize = 10;
const ANCHOR_Y: f32 = 120.0;
/// A link's half-length between its hinges, and its radius.
const LINK_HALF: f32 = 0.25;
const LINK_RADIUS: f32 = 0.1;
/// The loose shapes at the start.
const SHAPES: usize = 1_000;
/// How far from a body the bodies it may be joined to lie: a few times a
/// shape's size, so a joint's frame (at the midpoint of the two origins)
/// lies near both, as a game joins bodies where they meet.
const NEIGHBOUR_REACH: f32 = 2.0;
/// Every this many steps, one user action.
const ACTION_EVERY: u64 = 100;
/// The long run prints its figures every this many steps; the short
/// run compares its first and last blocks of this many steps.
const REPORT_EVERY: u64 = 10_000;

fn steps_from_env() -> u64 {
    match std::env::var("TUMBLE_SOAK_PLAY_STEPS") {
        Ok(s) => s
            .parse()
            .expect("TUMBLE_SOAK_PLAY_STEPS is a whole number of steps"),
        Err(_) => 3_000,
    }
}

/// A loose shape 0.15 to 0.4 m across its half-size: a box, a circle, a
/// capsule or a regular hexagon.
fn loose_shape(rng: &mut Rng) -> Shape {
    let size = rng.range(0.15, 0.4);
    match rng.below(4) {
        0 => Polygon::new_box(size, rng.range(0.15, 0.4)).unwrap().into(),
        1 => Circle::new(Vec2::ZERO, size).unwrap().into(),
        2 => Capsule::new(Vec2::new(-size, 0.0), Vec2::new(size, 0.0), 0.5 * size)
            .unwrap()
            .into(),
        _ => {
            let pts: Vec<Vec2> = (0..6)
                .map(|i| size * Vec2::new((i as f32 * TAU / 6.0).cos(), (i as f32 * TAU / 6.0).sin()))
                .collect();
            Polygon::new(&pts).unwrap().into()
        }
    }
}

/// A random point inside the box, at least `margin` from its walls,
/// floor and lid.
fn inside(rng: &mut Rng, margin: f32) -> Vec2 {
    Vec2::new(
        rng.range(-HALF_WIDTH + margin, HALF_WIDTH - margin),
        rng.range(margin, HEIGHT - margin),
    )
}

/// A joint of a random kind between `a` and `b`, placed at the midpoint
/// of their origins (a rod runs between the origins).
fn random_joint(world: &World, rng: &mut Rng, a: BodyId, b: BodyId) -> JointDef {
    let (pa, pb) = (world.position(a).unwrap(), world.position(b).unwrap());
    let mid = 0.5 * (pa + pb);
    let along = (pb - pa).normalize_or(Vec2::X);
    let frame = Transform::new(mid, along.y.atan2(along.x));
    let kind: JointKind = match rng.below(6) {
        0 => RevoluteJoint::default().into(),
        1 => DistanceJoint::rod((pb - pa).length().max(0.05)).into(),
        2 => WeldJoint::soft(rng.range(2.0, 5.0), rng.range(0.3, 1.0)).into(),
        3 => PrismaticJoint::default().with_limits(-1.0, 1.0).into(),
        4 => WheelJoint::default().into(),
        _ => MotorJoint {
            max_force: 50.0,
            max_torque: 10.0,
            ..MotorJoint::default()
        }
        .into(),
    };
    let def = JointDef::new(a, b, kind);
    match kind {
        JointKind::Distance(_) => def.with_world_anchors(world, pa, pb).unwrap(),
        _ => def.at_frame(world, frame).unwrap(),
    }
}

/// The world and what the soak's actions pick from.
struct Play {
    world: World,
    rng: Rng,
    /// The bodies the actions may remove, kick or join: the loose shapes
    /// and the links, in the order they were made.
    movable: Vec<BodyId>,
    /// Whether the joints the actions make join any two bodies (the frame
    /// halfway between them) rather than neighbours.
    far_joints: bool,
}

impl Play {
    fn new(seed: u64, far_joints: bool) -> Play {
        let mut world = World::new(WorldSettings {
            workers: 2,
            ..WorldSettings::default()
        });
        let mut rng = Rng::new(seed);
        let m = default_material();
        // The box: floor, two walls and a lid, 1 m thick, on one body.
        let walls = world.create_body(&BodyDef::static_body()).unwrap();
        let t = 0.5;
        for (hx, hy, c) in [
            (HALF_WIDTH + 2.0 * t, t, Vec2::new(0.0, -t)),
            (HALF_WIDTH + 2.0 * t, t, Vec2::new(0.0, HEIGHT + t)),
            (t, 0.5 * HEIGHT, Vec2::new(-HALF_WIDTH - t, 0.5 * HEIGHT)),
            (t, 0.5 * HEIGHT, Vec2::new(HALF_WIDTH + t, 0.5 * HEIGHT)),
        ] {
            let wall = Polygon::new_offset_box(hx, hy, c, 0.0).unwrap();
            world.create_shape(walls, wall, &m).unwrap();
        }
        let mut movable = Vec::new();
        // The chains, hanging straight down from their anchors.
        let spacing = 2.0 * (HALF_WIDTH - 1.0) / CHAINS as f32;
        for i in 0..CHAINS {
            let x = -HALF_WIDTH + 1.0 + (i as f32 + 0.5) * spacing;
            let anchor = world
                .create_body(&BodyDef::static_body().at(Vec2::new(x, ANCHOR_Y)))
                .unwrap();
            world
                .create_shape(anchor, Polygon::new_box(0.2, 0.2).unwrap(), &m)
                .unwrap();
            let mut above = anchor;
            for k in 0..LINKS {
                let top = ANCHOR_Y - 2.0 * LINK_HALF * k as f32;
                let link = world
                    .create_body(&BodyDef::dynamic().at(Vec2::new(x, top - LINK_HALF)))
                    .unwrap();
                let capsule =
                    Capsule::new(Vec2::new(0.0, -LINK_HALF), Vec2::new(0.0, LINK_HALF), LINK_RADIUS).unwrap();
                world.create_shape(link, capsule, &m).unwrap();
                let hinge = JointDef::new(above, link, RevoluteJoint::default())
                    .at(&world, Vec2::new(x, top))
                    .unwrap();
                world.create_joint(&hinge).unwrap();
                movable.push(link);
                above = link;
            }
        }
        // The loose shapes on a grid below the chains, every tenth pair
        // of neighbours joined.
        let columns = 79;
        for i in 0..SHAPES {
            let (col, row) = ((i % columns) as f32, (i / columns) as f32);
            let p = Vec2::new(-78.0 + 2.0 * col, 2.0 + 6.0 * row);
            let def = BodyDef::dynamic().at(p).with_angle(rng.range(0.0, PI));
            let body = world.create_body(&def).unwrap();
            world.create_shape(body, loose_shape(&mut rng), &m).unwrap();
            if i % 10 == 1 {
                let prev = *movable.last().unwrap();
                let def = random_joint(&world, &mut rng, prev, body);
                world.create_joint(&def).unwrap();
            }
            movable.push(body);
        }
        Play {
            world,
            rng,
            movable,
            far_joints,
        }
    }

    fn pick(&mut self) -> BodyId {
        self.movable[self.rng.below(self.movable.len() as u32) as usize]
    }

    /// A body other than `a`, drawn from the movable ones with a shape
    /// in the square of half-side [`NEIGHBOUR_REACH`] about its origin,
    /// if there is one.
    fn neighbour_of(&mut self, a: BodyId) -> Option<BodyId> {
        let p = self.world.position(a).unwrap();
        let near = tumble::Aabb::new(p - Vec2::splat(NEIGHBOUR_REACH), p + Vec2::splat(NEIGHBOUR_REACH));
        let mut shapes = Vec::new();
        self.world
            .overlap_aabb(near, QueryFilter::default(), &mut shapes)
            .unwrap();
        let mut bodies: Vec<BodyId> = shapes
            .iter()
            .map(|&s| self.world.shape_body(s).unwrap())
            .filter(|&b| b != a && self.movable.contains(&b))
            .collect();
        bodies.sort_unstable();
        bodies.dedup();
        (!bodies.is_empty()).then(|| bodies[self.rng.below(bodies.len() as u32) as usize])
    }

    /// One user action, drawn at random.
    fn act(&mut self) {
        match self.rng.below(10) {
            0 => {
                let n = 1 + self.rng.below(20) as usize;
                for _ in 0..n {
                    let k = self.rng.below(self.movable.len() as u32) as usize;
                    let body = self.movable.swap_remove(k);
                    self.world.remove_body(body).unwrap();
                }
                for _ in 0..n {
                    let p = inside(&mut self.rng, 2.0);
                    let def = BodyDef::dynamic().at(p).with_angle(self.rng.range(0.0, PI));
                    let body = self.world.create_body(&def).unwrap();
                    let shape = loose_shape(&mut self.rng);
                    self.world.create_shape(body, shape, &default_material()).unwrap();
                    self.movable.push(body);
                }
            }
            1 => {
                let center = inside(&mut self.rng, 1.0);
                let explosion = Explosion {
                    center,
                    radius: 2.0,
                    falloff: 3.0,
                    impulse_per_length: 30.0,
                    filter: QueryFilter::default(),
                };
                self.world.explode(&explosion).unwrap();
            }
            2 => {
                for _ in 0..10 {
                    let body = self.pick();
                    let angle = self.rng.range(0.0, TAU);
                    let size = self.rng.range(0.0, 40.0);
                    let impulse = size * Vec2::new(angle.cos(), angle.sin());
                    let at = self.world.center_of_mass(body).unwrap();
                    self.world.apply_linear_impulse(body, impulse, at).unwrap();
                }
            }
            3 => {
                let body = self.pick();
                let p = inside(&mut self.rng, 2.0);
                let angle = self.rng.range(0.0, TAU);
                self.world.set_transform(body, p, angle).unwrap();
            }
            4 => {
                for _ in 0..5 {
                    let a = self.pick();
                    let b = if self.far_joints {
                        Some(self.pick()).filter(|&b| b != a)
                    } else {
                        self.neighbour_of(a)
                    };
                    if let Some(b) = b {
                        let def = random_joint(&self.world, &mut self.rng, a, b);
                        self.world.create_joint(&def).unwrap();
                    }
                }
            }
            5 => {
                for _ in 0..5 {
                    let joints: Vec<_> = self.world.joints().collect();
                    if !joints.is_empty() {
                        let j = joints[self.rng.below(joints.len() as u32) as usize];
                        self.world.remove_joint(j).unwrap();
                    }
                }
            }
            6 => {
                let workers = 1 + self.rng.below(4) as usize;
                self.world.set_workers(workers).unwrap();
            }
            7 => {
                let body = self.pick();
                let angle = self.rng.range(0.0, TAU);
                let speed = self.rng.range(0.0, 100.0);
                let v = speed * Vec2::new(angle.cos(), angle.sin());
                self.world.set_linear_velocity(body, v).unwrap();
            }
            8 => {
                let origin = inside(&mut self.rng, 1.0);
                let angle = self.rng.range(0.0, TAU);
                let reach = 50.0 * Vec2::new(angle.cos(), angle.sin());
                self.world
                    .ray_cast_closest(origin, reach, QueryFilter::default())
                    .unwrap();
                let mut out = Vec::new();
                let c = inside(&mut self.rng, 3.0);
                self.world
                    .overlap_aabb(
                        tumble::Aabb::new(c - Vec2::splat(2.0), c + Vec2::splat(2.0)),
                        QueryFilter::default(),
                        &mut out,
                    )
                    .unwrap();
            }
            _ => {
                let angle = self.rng.range(-PI / 4.0, PI / 4.0);
                let g = 10.0 * Vec2::new(angle.sin(), -angle.cos());
                self.world.set_gravity(g).unwrap();
            }
        }
    }
}

/// The largest distance from a loose shape's origin to its outline: a
/// capsule of half-size 0.4 reaches 0.4 + 0.2 m.
const LARGEST_REACH: f32 = 0.6;
/// The smallest area of a shape: a capsule of half-size 0.15 (0.3 m
/// between its centers, radius 0.075); a chain link is larger.
const SMALLEST_AREA: f32 = 0.3 * 0.15 + PI * 0.075 * 0.075;

/// The most contacts a world of `shapes` shapes that do not overlap can
/// have. A contact is a pair of shapes whose fat boxes overlap; a fat box
/// reaches less than twice the shape's reach from its origin (the margin
/// is an eighth of the reach, the look-ahead a step's motion). So the
/// origins of the shapes in contact with one shape lie within a square of
/// side four reaches around its origin, and the shapes themselves within
/// one of side eight; as they do not overlap, there are at most that
/// square's area over the smallest shape's area of them. (The walls, one
/// body of four shapes, add at most four contacts a shape: well within.)
fn most_contacts(shapes: usize) -> usize {
    let side = 2.0 * 4.0 * LARGEST_REACH;
    let per_shape = (side * side / SMALLEST_AREA).ceil() as usize;
    shapes * per_shape / 2
}

/// What one block of steps cost: its time per step (printed only), and
/// the most contacts and memory it held.
#[derive(Clone, Copy, Debug, Default)]
struct Block {
    ms_per_step: f64,
    most_contacts: usize,
    most_memory: usize,
}

/// Runs the soak, `far_joints` as [`Play::far_joints`], for the steps
/// the environment asks, checking after every step that every body is
/// finite, none frozen and none out of the box, and the contacts within
/// [`most_contacts`]; prints each block's figures and returns them.
fn soak(far_joints: bool) -> Vec<Block> {
    let steps = steps_from_env();
    let mut play = Play::new(0x5eed, far_joints);
    let bodies = play.world.body_count();
    let block_steps = if steps >= REPORT_EVERY {
        REPORT_EVERY
    } else {
        (steps / 3).max(1)
    };
    let mut blocks: Vec<Block> = Vec::new();
    let mut block = Block::default();
    let mut clock = Instant::now();
    for step in 1..=steps {
        if step % ACTION_EVERY == 0 {
            play.act();
        }
        play.world.step(DT);
        let w = &play.world;
        // The removals add as many bodies as they take.
        assert_eq!(w.body_count(), bodies, "step {step}");
        // Nothing in ordinary play is extreme: no body may freeze, and
        // every body is finite.
        assert!(
            w.frozen_bodies().is_empty(),
            "step {step}: {:?} froze",
            w.frozen_bodies()
        );
        for b in w.bodies() {
            let xf = w.transform(b).unwrap();
            let finite = xf.p.is_finite()
                && xf.q.c.is_finite()
                && xf.q.s.is_finite()
                && w.linear_velocity(b).unwrap().is_finite()
                && w.angular_velocity(b).unwrap().is_finite();
            assert!(finite, "step {step}: {b:?} is not finite");
            // Nor may any leave the box: a center past a wall's thickness
            // went through it.
            let (lo, hi) = (
                Vec2::new(-HALF_WIDTH - 1.0, -1.0),
                Vec2::new(HALF_WIDTH + 1.0, HEIGHT + 1.0),
            );
            let p = w.center_of_mass(b).unwrap();
            assert!(
                p.cmpge(lo).all() && p.cmple(hi).all(),
                "step {step}: {b:?} left the box, at {p:?}"
            );
        }
        let contacts = w.contact_count();
        assert!(
            contacts <= most_contacts(bodies),
            "step {step}: {contacts} contacts, more than {} shapes that do not overlap can have",
            most_contacts(bodies)
        );
        block.most_contacts = block.most_contacts.max(contacts);
        block.most_memory = block.most_memory.max(w.memory_usage().total());
        if step % block_steps == 0 {
            block.ms_per_step = 1e3 * clock.elapsed().as_secs_f64() / block_steps as f64;
            println!(
                "{} joints, steps {step}: {:.2} ms/step, at most {} contacts and {:.1} MB, {} joints",
                if far_joints { "far" } else { "neighbour" },
                block.ms_per_step,
                block.most_contacts,
                block.most_memory as f64 / 1e6,
                w.joint_count(),
            );
            blocks.push(block);
            block = Block::default();
            clock = Instant::now();
        }
    }
    blocks
}

/// The cost of a step stays what it was: the last block of `blocks`
/// holds at most twice the first block's contacts and memory (its time is
/// printed; a test cannot assert a time on a shared machine).
fn assert_steady(blocks: &[Block]) {
    let (first, last) = (blocks[0], *blocks.last().unwrap());
    assert!(
        last.most_contacts <= 2 * first.most_contacts,
        "contacts grew from {} to {}",
        first.most_contacts,
        last.most_contacts
    );
    assert!(
        last.most_memory <= 2 * first.most_memory,
        "memory grew from {} to {} bytes",
        first.most_memory,
        last.most_memory
    );
}

#[test]
fn ordinary_play_stays_finite_and_costs_the_same_throughout() {
    assert_steady(&soak(false));
}

#[test]
fn joints_no_pose_satisfies_stay_finite_and_cost_the_same_throughout() {
    assert_steady(&soak(true));
}
