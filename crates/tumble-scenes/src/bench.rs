//! The nine scenes of the side-by-side benchmark (`tumble-bench`) as
//! plain, engine-neutral data: the benchmark hands the same [`Spec`] to
//! Tumble, Box2D and Rapier, so all three simulate the same bodies from
//! the same places, and [`build_world`] fills a Tumble world from it so
//! the testbed can show the scenes too. Seven are stacks, piles and
//! crashes (the two pyramid scenes twice: in tumble-scenes' layout, 5 cm
//! between the boxes of a row, and in Box2D's, the boxes touching); two
//! are joints ([`joint_grid`], [`ragdolls`]). Beside them, two scenes of
//! quality rather than speed, [`QUALITY_SCENES`]: a box slid over a floor
//! of tiles ([`tile_floor`]).
//!
//! A [`Spec`] lists bodies and joints in a fixed order; each engine keeps
//! its handles in that order, which is what lets the benchmark compare
//! start and end positions and its tests compare engines body by body and
//! joint by joint.
//!
//! ```
//! use tumble_scenes::bench;
//! let spec = bench::build("tumbler").unwrap();
//! let mut scene = bench::build_world(&spec);
//! assert_eq!(scene.bodies.len(), 1 + 45 * 45);
//! scene.world.step(bench::DT);
//! ```

use crate::{pyramid_positions, pyramid_positions_spaced, Rng, GROUND_HALF_WIDTH};
pub use crate::{DT, FRICTION};
use std::f32::consts::{PI, TAU};
use tumble::{
    BodyDef, BodyId, Capsule, Circle, Filter, JointDef, JointId, Polygon, RevoluteJoint, Segment, Shape,
    ShapeDef, Vec2, World, WorldSettings,
};

mod joint_scenes;
pub use joint_scenes::{
    joint_grid, joint_grid_of, ragdoll, ragdoll_box, ragdoll_stairs, ragdoll_with_feet, ragdolls,
    ragdolls_of, RagdollBone, FOOT_HALF, FOOT_MASS_RATIO, JOINT_GRID_FIXED, JOINT_GRID_SIZE, RAGDOLL_BONES,
    RAGDOLL_BOX_STEPS, RAGDOLL_COLUMNS, RAGDOLL_FRICTION, RAGDOLL_FRICTION_TORQUE, RAGDOLL_PITCH,
    RAGDOLL_ROWS, RAGDOLL_SETTLE, RAGDOLL_SPRING_DAMPING_RATIO, RAGDOLL_SPRING_HERTZ, RAGDOLL_STAIRS_STEPS,
    STAIR_RISE, STAIR_RUN, STAIR_STEPS,
};

/// A point or vector in metres, independent of every engine's math types.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct V2 {
    /// x, metres.
    pub x: f32,
    /// y, metres (up).
    pub y: f32,
}

impl V2 {
    /// The vector (x, y).
    pub const fn new(x: f32, y: f32) -> V2 {
        V2 { x, y }
    }

    /// The zero vector.
    pub const ZERO: V2 = V2::new(0.0, 0.0);

    /// Euclidean distance to `other`.
    pub fn distance(self, other: V2) -> f32 {
        (self.x - other.x).hypot(self.y - other.y)
    }

    /// The vector turned counter-clockwise by `angle` radians.
    pub fn rotated(self, angle: f32) -> V2 {
        let (s, c) = angle.sin_cos();
        V2::new(c * self.x - s * self.y, s * self.x + c * self.y)
    }
}

impl std::ops::Add for V2 {
    type Output = V2;
    fn add(self, o: V2) -> V2 {
        V2::new(self.x + o.x, self.y + o.y)
    }
}

impl std::ops::Sub for V2 {
    type Output = V2;
    fn sub(self, o: V2) -> V2 {
        V2::new(self.x - o.x, self.y - o.y)
    }
}

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// Never moves.
    Static,
    /// Moves at the velocity it was given, unaffected by contacts.
    Kinematic,
    /// Moves under gravity and contacts.
    Dynamic,
}

/// A shape's geometry in its body's frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Geometry {
    /// A box of half-widths `half`, centered at `center` and turned by
    /// `angle` radians (`center` zero and `angle` zero for a plain box).
    Box {
        /// Half-widths along the box's own axes.
        half: V2,
        /// Center in the body frame.
        center: V2,
        /// Turn in the body frame, radians.
        angle: f32,
    },
    /// A circle about the body origin.
    Circle {
        /// Radius.
        radius: f32,
    },
    /// A capsule along the body's x axis, centered on the body origin.
    Capsule {
        /// Half the distance between the two cap centers.
        half_length: f32,
        /// Cap radius.
        radius: f32,
    },
    /// A convex polygon, counter-clockwise, 3 to 8 corners, with its area
    /// centroid on the body origin (so every engine agrees where the
    /// center of mass is, whatever it does with polygon vertices).
    Polygon {
        /// Corners, counter-clockwise.
        points: Vec<V2>,
    },
    /// A line segment between two points of the body frame, no thickness
    /// (for static ground only: it has no area, so no mass).
    Segment {
        /// One end.
        a: V2,
        /// The other end.
        b: V2,
    },
}

/// Which shapes a shape collides with, by Box2D's rule (Tumble's too): two
/// shapes of the same non-zero group always collide if the group is
/// positive and never if it is negative; otherwise each shape's category
/// must be in the other's mask. The default (category 1, every mask bit,
/// no group) collides with everything that does not exclude it.
///
/// Rapier's interaction groups have 32 bits, so the scenes keep their
/// categories and masks to the low 32.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FilterSpec {
    /// The categories the shape belongs to (usually one bit).
    pub category: u64,
    /// The categories it collides with.
    pub mask: u64,
    /// Its group; zero is none. A ragdoll's bones share a negative one.
    pub group: i32,
}

impl Default for FilterSpec {
    fn default() -> FilterSpec {
        FilterSpec {
            category: 1,
            mask: u64::MAX,
            group: 0,
        }
    }
}

impl FilterSpec {
    /// Whether shapes with filters `self` and `other` may collide.
    pub fn should_collide(&self, other: &FilterSpec) -> bool {
        if self.group == other.group && self.group != 0 {
            return self.group > 0;
        }
        self.mask & other.category != 0 && self.category & other.mask != 0
    }
}

/// A shape: geometry, material and collision filter.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeSpec {
    /// Geometry in the body frame.
    pub geometry: Geometry,
    /// kg per square metre.
    pub density: f32,
    /// Coulomb friction coefficient.
    pub friction: f32,
    /// Restitution.
    pub restitution: f32,
    /// Which shapes it collides with.
    pub filter: FilterSpec,
}

impl ShapeSpec {
    /// The shape with the issue's common material: density 1, friction 0.6,
    /// restitution 0, colliding with everything.
    pub fn new(geometry: Geometry) -> ShapeSpec {
        ShapeSpec {
            geometry,
            density: 1.0,
            friction: FRICTION,
            restitution: 0.0,
            filter: FilterSpec::default(),
        }
    }

    /// A plain box of half-widths `hx`, `hy` on the body origin.
    pub fn square_box(hx: f32, hy: f32) -> ShapeSpec {
        ShapeSpec::new(Geometry::Box {
            half: V2::new(hx, hy),
            center: V2::ZERO,
            angle: 0.0,
        })
    }

    /// The same shape with another density.
    pub fn with_density(self, density: f32) -> ShapeSpec {
        ShapeSpec { density, ..self }
    }

    /// The same shape with another friction coefficient.
    pub fn with_friction(self, friction: f32) -> ShapeSpec {
        ShapeSpec { friction, ..self }
    }

    /// The same shape with another collision filter.
    pub fn with_filter(self, filter: FilterSpec) -> ShapeSpec {
        ShapeSpec { filter, ..self }
    }
}

/// A body: how it moves, where it starts, and its shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct BodySpec {
    /// Static, kinematic or dynamic.
    pub motion: Motion,
    /// Where the body origin starts.
    pub position: V2,
    /// Starting angle, radians.
    pub angle: f32,
    /// Starting velocity.
    pub linear_velocity: V2,
    /// Starting angular velocity, rad/s.
    pub angular_velocity: f32,
    /// One or more shapes.
    pub shapes: Vec<ShapeSpec>,
}

impl BodySpec {
    /// A body of one shape at rest at `position`.
    pub fn new(motion: Motion, position: V2, shape: ShapeSpec) -> BodySpec {
        BodySpec {
            motion,
            position,
            angle: 0.0,
            linear_velocity: V2::ZERO,
            angular_velocity: 0.0,
            shapes: vec![shape],
        }
    }

    /// Where the world point `point` is in the body's frame as the body
    /// starts.
    pub fn local_point(&self, point: V2) -> V2 {
        (point - self.position).rotated(-self.angle)
    }
}

/// A revolute joint's angle limits, radians: the angle is body B's turn
/// relative to body A since the start (counter-clockwise positive), so
/// zero where the bodies start.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointLimits {
    /// The lowest angle, in `-pi..=upper`.
    pub lower: f32,
    /// The highest angle, in `lower..=pi`.
    pub upper: f32,
}

/// A revolute joint's motor: it drives the relative angular velocity
/// towards `speed` with at most `max_torque`. At speed zero it is joint
/// friction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointMotor {
    /// Target relative angular velocity, rad/s.
    pub speed: f32,
    /// Largest torque, N m.
    pub max_torque: f32,
}

/// A revolute joint's rotational spring, pulling the angle towards
/// `target_angle` (measured as the limits are).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointSpring {
    /// Stiffness as a frequency, Hz.
    pub hertz: f32,
    /// Damping ratio (1 is critical).
    pub damping_ratio: f32,
    /// The angle it pulls towards, radians.
    pub target_angle: f32,
}

/// A revolute joint (a hinge) between two of the spec's bodies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointSpec {
    /// Body A: an index into [`Spec::bodies`].
    pub body_a: usize,
    /// Body B: an index into [`Spec::bodies`].
    pub body_b: usize,
    /// The hinge point in world coordinates, where the bodies start.
    pub anchor: V2,
    /// Angle limits, if any.
    pub limits: Option<JointLimits>,
    /// A motor, if any.
    pub motor: Option<JointMotor>,
    /// A rotational spring, if any.
    pub spring: Option<JointSpring>,
    /// Whether bodies A and B still collide with each other (off by
    /// default).
    pub collide_connected: bool,
}

impl JointSpec {
    /// A free hinge between bodies `body_a` and `body_b` at the world point
    /// `anchor`; the two stop colliding with each other.
    pub fn revolute(body_a: usize, body_b: usize, anchor: V2) -> JointSpec {
        JointSpec {
            body_a,
            body_b,
            anchor,
            limits: None,
            motor: None,
            spring: None,
            collide_connected: false,
        }
    }

    /// The same hinge held between `lower` and `upper` radians.
    pub fn with_limits(self, lower: f32, upper: f32) -> JointSpec {
        JointSpec {
            limits: Some(JointLimits { lower, upper }),
            ..self
        }
    }

    /// The same hinge with a motor of `speed` rad/s and at most
    /// `max_torque` N m.
    pub fn with_motor(self, speed: f32, max_torque: f32) -> JointSpec {
        JointSpec {
            motor: Some(JointMotor { speed, max_torque }),
            ..self
        }
    }

    /// The same hinge with joint friction: a motor at speed zero that
    /// resists turning with up to `max_torque` N m.
    pub fn with_friction(self, max_torque: f32) -> JointSpec {
        self.with_motor(0.0, max_torque)
    }

    /// The same hinge with a spring of `hertz` and `damping_ratio` towards
    /// `target_angle`.
    pub fn with_spring(self, hertz: f32, damping_ratio: f32, target_angle: f32) -> JointSpec {
        JointSpec {
            spring: Some(JointSpring {
                hertz,
                damping_ratio,
                target_angle,
            }),
            ..self
        }
    }
}

/// One bench scene, ready to hand to any engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// The scene's name on the command line and in the output.
    pub name: &'static str,
    /// Steps a full run takes.
    pub steps: u32,
    /// Gravity, m/s^2.
    pub gravity: V2,
    /// The bodies, in a fixed order every engine keeps.
    pub bodies: Vec<BodySpec>,
    /// The joints between them, in a fixed order every engine keeps.
    pub joints: Vec<JointSpec>,
    /// What the quality column measures for this scene.
    pub quality: Quality,
    /// Whether the engines may put resting bodies to sleep. Off for the
    /// comparison scenes, as in Box2D's own benchmark: they measure the
    /// cost of simulating every body.
    pub sleeping: bool,
}

/// The quality figure a scene reports beside its time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Quality {
    /// SCENES.md "worst moved": the largest distance any dynamic body's
    /// center moved from where it started. A standing pyramid barely
    /// moves; a collapsing one moves metres.
    WorstMoved,
    /// How many dynamic bodies ended outside the axis-aligned box
    /// `min..max` (escaped the container, or fell through the floor).
    EscapedBox {
        /// Lower-left corner of the region the bodies must stay in.
        min: V2,
        /// Upper-right corner.
        max: V2,
    },
    /// How many dynamic bodies ended farther than `radius` from `center`
    /// (for the turning container, whose corners sweep that circle).
    EscapedCircle {
        /// The circle's center.
        center: V2,
        /// Its radius.
        radius: f32,
    },
    /// How far apart each joint's two anchors ended, each engine's anchors
    /// taken from its own body transforms and joint frames: the mean and
    /// the largest over the scene's joints. A hinge holds them together;
    /// a soft or overloaded one lets them drift apart.
    JointGap,
    /// A body sliding across a surface that ought to be flat (the
    /// spec's body `body`, given a speed along x and no friction): the
    /// fastest it moved up or down at the end of any step, and how far it
    /// slid along x. On a flat surface it neither rises nor stops; a
    /// ghost collision with an edge inside the surface kicks it up and
    /// slows it down.
    Slide {
        /// Index of the sliding body in [`Spec::bodies`].
        body: usize,
    },
    /// A body that ought to come to rest (the spec's body `body`, dropped
    /// on something that gives): how far its center ranged up and down
    /// over the run's last `window` steps. At rest it stays put; a body
    /// still bouncing ranges by its bounce.
    Settle {
        /// Index of the body in [`Spec::bodies`].
        body: usize,
        /// The run's last steps it is watched over.
        window: u32,
    },
    /// How far any hinge's angle passed its limits (the angle measured
    /// from the two bodies' starting angles, as every engine's hinge
    /// measures it), the largest over the run's steps after the first
    /// `after` ([`limit_violation`]).
    LimitViolation {
        /// The first steps, not watched.
        after: u32,
    },
    /// No quality figure (zero gravity: everything is meant to fly).
    None,
}

/// How far the angle of any of `spec`'s limited hinges is past its limits,
/// radians, for the bodies at `angles` (one per spec body, in its order):
/// each hinge's angle is its body B's turn less its body A's since they
/// started, brought into `-pi..pi`.
pub fn limit_violation(spec: &Spec, angles: &[f32]) -> f32 {
    let unwind = |a: f32| (a + PI).rem_euclid(2.0 * PI) - PI;
    spec.joints
        .iter()
        .filter_map(|j| {
            let limits = j.limits?;
            let (a, b) = (&spec.bodies[j.body_a], &spec.bodies[j.body_b]);
            let angle = unwind((angles[j.body_b] - b.angle) - (angles[j.body_a] - a.angle));
            Some((limits.lower - angle).max(angle - limits.upper).max(0.0))
        })
        .fold(0.0, f32::max)
}

/// The scenes' names, in the order a full run takes them.
pub const SCENES: [&str; 9] = [
    "large-pyramid",
    "large-pyramid-box2d",
    "many-pyramids",
    "many-pyramids-box2d",
    "tumbler",
    "smash",
    "pile",
    "joint-grid",
    "ragdolls",
];

/// Scenes of one body each that measure a quality the peers fall short
/// on, not speed: run after [`SCENES`] in a full run, timed as they are.
pub const QUALITY_SCENES: [&str; 5] = [
    "tile-floor",
    "tile-bodies",
    "rope-bridge",
    "ragdoll-box",
    "ragdoll-stairs",
];

/// Builds a scene by name (one of [`SCENES`] or [`QUALITY_SCENES`]).
pub fn build(name: &str) -> Option<Spec> {
    Some(match name {
        "large-pyramid" => large_pyramid(),
        "large-pyramid-box2d" => large_pyramid_box2d(),
        "many-pyramids" => many_pyramids(),
        "many-pyramids-box2d" => many_pyramids_box2d(),
        "tumbler" => tumbler(),
        "smash" => smash(),
        "pile" => pile(),
        "joint-grid" => joint_grid(),
        "ragdolls" => ragdolls(),
        "tile-floor" => tile_floor(true),
        "tile-bodies" => tile_floor(false),
        "rope-bridge" => rope_bridge(),
        "ragdoll-box" => ragdoll_box(),
        "ragdoll-stairs" => ragdoll_stairs(),
        _ => return None,
    })
}

fn gravity() -> V2 {
    V2::new(0.0, -10.0)
}

/// The ground of tumble-scenes: a static box whose top face is y = 0.
fn ground() -> BodySpec {
    BodySpec::new(
        Motion::Static,
        V2::new(0.0, -1.0),
        ShapeSpec::square_box(GROUND_HALF_WIDTH, 1.0),
    )
}

fn unit_box(at: V2) -> BodySpec {
    BodySpec::new(Motion::Dynamic, at, ShapeSpec::square_box(0.5, 0.5))
}

/// A scene of boxes stacked on static ground: `bodies` under gravity,
/// no joints, judged by the worst a box moved, sleeping off.
fn stacks(name: &'static str, steps: u32, bodies: Vec<BodySpec>) -> Spec {
    Spec {
        name,
        steps,
        gravity: gravity(),
        bodies,
        joints: Vec::new(),
        quality: Quality::WorstMoved,
        sleeping: false,
    }
}

/// The unit boxes of `n` pyramids of shape `pyramid` (box centers) side by
/// side at `pitch`, centered on x = 0, their bottom rows on y = `top`.
fn pyramid_row(pyramid: &[Vec2], n: u32, pitch: f32, top: f32) -> impl Iterator<Item = BodySpec> + '_ {
    (0..n).flat_map(move |col| {
        let x = (col as f32 - 0.5 * (n - 1) as f32) * pitch;
        pyramid.iter().map(move |p| unit_box(V2::new(p.x + x, p.y + top)))
    })
}

/// Box2D's own benchmark scene: a pyramid of base 100 (5050 boxes of 1 m)
/// on the ground, laid out by tumble-scenes.
pub fn large_pyramid() -> Spec {
    pyramid_of(100)
}

/// The large pyramid's layout with `rows` rows (`large-pyramid` has 100).
pub fn pyramid_of(rows: u32) -> Spec {
    let mut bodies = vec![ground()];
    bodies.extend(
        pyramid_positions(rows)
            .into_iter()
            .map(|p| unit_box(V2::new(p.x, p.y))),
    );
    stacks("large-pyramid", 500, bodies)
}

/// Rows and columns of pyramids in `many-pyramids`.
pub const MANY_PYRAMIDS_GRID: u32 = 20;
/// Base of each small pyramid.
pub const MANY_PYRAMIDS_BASE: u32 = 10;
/// Horizontal distance between neighbouring pyramids' center lines: a
/// base-10 pyramid is 10.45 m wide, so about a metre of air between.
pub const MANY_PYRAMIDS_PITCH: f32 = 11.5;
/// Vertical distance between shelves: a base-10 pyramid is 10 m tall, so
/// 1 m of air above its top box and a 1 m thick shelf.
pub const MANY_PYRAMIDS_SHELF_SPACING: f32 = 12.0;

/// 20 shelves, each holding 20 pyramids of base 10: 22 000 boxes. Every
/// shelf is a static box whose top face is y = 12 * shelf.
pub fn many_pyramids() -> Spec {
    let n = MANY_PYRAMIDS_GRID;
    let shape = pyramid_positions(MANY_PYRAMIDS_BASE);
    let shelf_half_width = 0.5 * n as f32 * MANY_PYRAMIDS_PITCH + 1.0;
    let mut bodies = Vec::new();
    for row in 0..n {
        let top = row as f32 * MANY_PYRAMIDS_SHELF_SPACING;
        bodies.push(BodySpec::new(
            Motion::Static,
            V2::new(0.0, top - 0.5),
            ShapeSpec::square_box(shelf_half_width, 0.5),
        ));
        bodies.extend(pyramid_row(&shape, n, MANY_PYRAMIDS_PITCH, top));
    }
    stacks("many-pyramids", 200, bodies)
}

/// Half-widths of the ground box under `large-pyramid-box2d`, Box2D's own
/// (a box 200 m wide and 2 m thick whose top face is y = 0).
pub const BOX2D_GROUND_HALF: V2 = V2::new(100.0, 1.0);

/// The large pyramid as Box2D's benchmark lays it out: 100 rows of 1 m
/// boxes touching side by side (1.0 m between centers, where
/// `large-pyramid` leaves 5 cm of air), each row centered on x = 0 and
/// resting on the one below, on Box2D's 200 m ground box. Touching
/// neighbours make a contact each, so it solves about twice the contacts
/// of `large-pyramid` for the same 5050 boxes.
pub fn large_pyramid_box2d() -> Spec {
    let ground = BodySpec::new(
        Motion::Static,
        V2::new(0.0, -BOX2D_GROUND_HALF.y),
        ShapeSpec::square_box(BOX2D_GROUND_HALF.x, BOX2D_GROUND_HALF.y),
    );
    let mut bodies = vec![ground];
    bodies.extend(
        pyramid_positions_spaced(100, 1.0)
            .into_iter()
            .map(|p| unit_box(V2::new(p.x, p.y))),
    );
    stacks("large-pyramid-box2d", 500, bodies)
}

/// Horizontal distance between neighbouring pyramids' center lines in
/// `many-pyramids-box2d`: a base-10 pyramid of touching boxes is 10 m
/// wide, so a metre of air between, as in Box2D's benchmark.
pub const BOX2D_MANY_PYRAMIDS_PITCH: f32 = 11.0;
/// Vertical distance between the shelves of `many-pyramids-box2d`: the
/// pyramid is 10 m tall, so a metre of air above its top box.
pub const BOX2D_MANY_PYRAMIDS_SHELF_SPACING: f32 = 11.0;

/// The many pyramids as Box2D's benchmark lays them out: 20 shelves of 20
/// pyramids of base 10 (22 000 boxes), the boxes of a row touching, each
/// shelf a line segment (no thickness) at y = 11 * shelf, all twenty on
/// one static body, 220 m long, the pyramids at 11 m pitch centered on
/// x = 0.
pub fn many_pyramids_box2d() -> Spec {
    let n = MANY_PYRAMIDS_GRID;
    let shape = pyramid_positions_spaced(MANY_PYRAMIDS_BASE, 1.0);
    let half_width = 0.5 * n as f32 * BOX2D_MANY_PYRAMIDS_PITCH;
    let shelves = (0..n)
        .map(|row| {
            let y = row as f32 * BOX2D_MANY_PYRAMIDS_SHELF_SPACING;
            ShapeSpec::new(Geometry::Segment {
                a: V2::new(-half_width, y),
                b: V2::new(half_width, y),
            })
        })
        .collect();
    let mut bodies = vec![BodySpec {
        shapes: shelves,
        ..BodySpec::new(Motion::Static, V2::ZERO, ShapeSpec::square_box(0.5, 0.5))
    }];
    for row in 0..n {
        let top = row as f32 * BOX2D_MANY_PYRAMIDS_SHELF_SPACING;
        bodies.extend(pyramid_row(&shape, n, BOX2D_MANY_PYRAMIDS_PITCH, top));
    }
    stacks("many-pyramids-box2d", 200, bodies)
}

/// Where the tumbler's container turns about.
pub const TUMBLER_CENTER: V2 = V2::new(0.0, 10.0);
/// The container's speed: 25 degrees a second.
pub const TUMBLER_SPIN: f32 = 25.0 * PI / 180.0;
/// Boxes along each side of the tumbler's starting grid (45 x 45 = 2025).
pub const TUMBLER_GRID: u32 = 45;

/// A 20 m hollow box (four 1 m thick walls on one kinematic body) turning
/// at 25 deg/s with 2025 boxes of 0.25 m inside, starting in a 45 x 45
/// grid at 0.4 m pitch.
pub fn tumbler() -> Spec {
    let wall = |half: V2, center: V2| {
        ShapeSpec::new(Geometry::Box {
            half,
            center,
            angle: 0.0,
        })
    };
    let container = BodySpec {
        motion: Motion::Kinematic,
        position: TUMBLER_CENTER,
        angle: 0.0,
        linear_velocity: V2::ZERO,
        angular_velocity: TUMBLER_SPIN,
        shapes: vec![
            wall(V2::new(0.5, 10.0), V2::new(9.5 + 0.5, 0.0)),
            wall(V2::new(0.5, 10.0), V2::new(-9.5 - 0.5, 0.0)),
            wall(V2::new(10.0, 0.5), V2::new(0.0, 9.5 + 0.5)),
            wall(V2::new(10.0, 0.5), V2::new(0.0, -9.5 - 0.5)),
        ],
    };
    let mut bodies = vec![container];
    let n = TUMBLER_GRID;
    let pitch = 0.4;
    let first = -0.5 * (n - 1) as f32 * pitch;
    for i in 0..n {
        for j in 0..n {
            let at = TUMBLER_CENTER + V2::new(first + j as f32 * pitch, first + i as f32 * pitch);
            bodies.push(BodySpec::new(
                Motion::Dynamic,
                at,
                ShapeSpec::square_box(0.125, 0.125),
            ));
        }
    }
    Spec {
        name: "tumbler",
        steps: 750,
        gravity: gravity(),
        bodies,
        joints: Vec::new(),
        // The walls' inner faces are 9.5 m from the center, so nothing
        // inside ever gets farther than 9.5 * sqrt(2) from it.
        quality: Quality::EscapedCircle {
            center: TUMBLER_CENTER,
            radius: 9.5 * std::f32::consts::SQRT_2,
        },
        sleeping: false,
    }
}

/// Columns of the smash grid.
pub const SMASH_COLUMNS: u32 = 120;
/// Rows of the smash grid.
pub const SMASH_ROWS: u32 = 80;

/// Zero gravity: an 8 x 8 m box of density 8 flies at 40 m/s into a
/// 120 x 80 grid of 0.4 m boxes laid edge to edge, its near face at x = 0.
pub fn smash() -> Spec {
    let d = 0.4;
    let mut bodies = vec![BodySpec {
        linear_velocity: V2::new(40.0, 0.0),
        ..BodySpec::new(
            Motion::Dynamic,
            V2::new(-20.0, 0.0),
            ShapeSpec::square_box(4.0, 4.0).with_density(8.0),
        )
    }];
    for i in 0..SMASH_COLUMNS {
        for j in 0..SMASH_ROWS {
            let at = V2::new(
                (i as f32 + 0.5) * d,
                (j as f32 - 0.5 * (SMASH_ROWS - 1) as f32) * d,
            );
            bodies.push(BodySpec::new(
                Motion::Dynamic,
                at,
                ShapeSpec::square_box(0.5 * d, 0.5 * d),
            ));
        }
    }
    Spec {
        name: "smash",
        steps: 300,
        gravity: V2::ZERO,
        bodies,
        joints: Vec::new(),
        quality: Quality::None,
        sleeping: false,
    }
}

/// Tiles in the tile-floor scenes.
pub const TILE_COUNT: u32 = 40;
/// The sliding box's speed along x at the start, m/s.
pub const TILE_SLIDE_SPEED: f32 = 8.0;
/// Steps of the tile-floor scenes: 4 s, so the box slides 32 m of the
/// 40 m floor when nothing stops it.
pub const TILE_SLIDE_STEPS: u32 = 240;

/// A floor of [`TILE_COUNT`] static 1 m boxes side by side, their top
/// faces on y = 0 from x = 0 to 40, and a 1 m box resting on the first
/// (a crate on a tile, its sides over the tile's sides) sliding along x
/// at [`TILE_SLIDE_SPEED`], no friction anywhere: a level built from
/// tiles, which must be as flat to slide over as one long box. With
/// `one_body` (`tile-floor`) the tiles are shapes of one static body, as
/// a tile map makes them; without (`tile-bodies`) each is a static body
/// of its own. The sliding box is the last body.
pub fn tile_floor(one_body: bool) -> Spec {
    let tile = |x: f32| {
        ShapeSpec::new(Geometry::Box {
            half: V2::new(0.5, 0.5),
            center: V2::new(x, -0.5),
            angle: 0.0,
        })
        .with_friction(0.0)
    };
    let centers = (0..TILE_COUNT).map(|i| i as f32 + 0.5);
    let mut bodies = if one_body {
        vec![BodySpec {
            shapes: centers.map(tile).collect(),
            ..BodySpec::new(Motion::Static, V2::ZERO, tile(0.5))
        }]
    } else {
        centers
            .map(|x| {
                let tile = ShapeSpec::square_box(0.5, 0.5).with_friction(0.0);
                BodySpec::new(Motion::Static, V2::new(x, -0.5), tile)
            })
            .collect()
    };
    bodies.push(BodySpec {
        linear_velocity: V2::new(TILE_SLIDE_SPEED, 0.0),
        ..BodySpec::new(
            Motion::Dynamic,
            V2::new(0.5, 0.5),
            ShapeSpec::square_box(0.5, 0.5).with_friction(0.0),
        )
    });
    Spec {
        name: if one_body { "tile-floor" } else { "tile-bodies" },
        steps: TILE_SLIDE_STEPS,
        gravity: gravity(),
        quality: Quality::Slide {
            body: bodies.len() - 1,
        },
        bodies,
        joints: Vec::new(),
        sleeping: false,
    }
}

/// Planks of the rope bridge.
pub const BRIDGE_PLANKS: u32 = 20;
/// Height of the rope bridge's hinges above the ground's top face.
pub const BRIDGE_HEIGHT: f32 = 10.0;
/// The crate dropped on the rope bridge: its mass (a 1 m box) and the
/// height its bottom falls from onto the middle plank's top.
pub const BRIDGE_CRATE_MASS: f32 = 250.0;
/// See [`BRIDGE_CRATE_MASS`].
pub const BRIDGE_DROP: f32 = 3.0;
/// The joint friction of the rope bridge's hinges, N m (Box2D's bridge
/// sample's).
pub const BRIDGE_FRICTION: f32 = 200.0;
/// Steps of the rope bridge: 5 s from the drop.
pub const BRIDGE_STEPS: u32 = 300;
/// The last steps of the rope bridge's run its crate is watched over: 2 s.
pub const BRIDGE_WINDOW: u32 = 120;

/// Box2D's bridge sample at 20 planks: planks of 1 m by 0.25 m (density
/// 20, 5 kg) hinged end to end and, at either end, to a static anchor 20
/// m from the other, at [`BRIDGE_HEIGHT`]; a 250 kg crate (a 1 m box) falls
/// [`BRIDGE_DROP`] onto its middle. The bridge, taut when it starts, holds
/// the crate only by its joints' give, a load fifty times a plank's mass:
/// the crate must come to rest on it. The crate is the last body.
pub fn rope_bridge() -> Spec {
    let mut bodies = vec![ground()];
    let mut joints = Vec::new();
    let x0 = -0.5 * BRIDGE_PLANKS as f32;
    let plank = ShapeSpec::square_box(0.5, 0.125).with_density(20.0);
    for i in 0..BRIDGE_PLANKS {
        let x = x0 + 0.5 + i as f32;
        bodies.push(BodySpec::new(
            Motion::Dynamic,
            V2::new(x, BRIDGE_HEIGHT),
            plank.clone(),
        ));
        let previous = if i == 0 { 0 } else { bodies.len() - 2 };
        let hinge = JointSpec::revolute(previous, bodies.len() - 1, V2::new(x - 0.5, BRIDGE_HEIGHT));
        joints.push(hinge.with_friction(BRIDGE_FRICTION));
    }
    let last = JointSpec::revolute(bodies.len() - 1, 0, V2::new(-x0, BRIDGE_HEIGHT));
    joints.push(last.with_friction(BRIDGE_FRICTION));
    let crate_y = BRIDGE_HEIGHT + 0.125 + BRIDGE_DROP + 0.5;
    bodies.push(BodySpec::new(
        Motion::Dynamic,
        V2::new(0.0, crate_y),
        ShapeSpec::square_box(0.5, 0.5).with_density(BRIDGE_CRATE_MASS),
    ));
    Spec {
        name: "rope-bridge",
        steps: BRIDGE_STEPS,
        gravity: gravity(),
        quality: Quality::Settle {
            body: bodies.len() - 1,
            window: BRIDGE_WINDOW,
        },
        bodies,
        joints,
        sleeping: false,
    }
}

/// Shapes dropped in `pile`.
pub const PILE_COUNT: u32 = 2000;
/// Half the inner width of the pile's container.
pub const PILE_HALF_WIDTH: f32 = 15.0;
/// Shapes per row of the starting lattice.
pub const PILE_PER_ROW: u32 = 28;
/// Lattice pitch: wider than the largest shape (a capsule at most 0.96 m
/// long), so no two start overlapping whatever their angles.
pub const PILE_PITCH: f32 = 1.0;
/// Seed of the pile's random shapes and angles.
pub const PILE_SEED: u64 = 0x00b0_c5ed;

/// 2000 mixed shapes (boxes, convex polygons of 3 to 8 corners, circles,
/// capsules; each 0.3 to 0.6 m across) dropped from a lattice into a 30 m
/// wide container. The same seeded generator gives the same shapes,
/// positions and angles to every engine.
pub fn pile() -> Spec {
    let wall_half_height = 40.0;
    let wall = |side: f32| {
        BodySpec::new(
            Motion::Static,
            V2::new(side * (PILE_HALF_WIDTH + 0.5), wall_half_height),
            ShapeSpec::square_box(0.5, wall_half_height),
        )
    };
    let mut bodies = vec![ground(), wall(-1.0), wall(1.0)];
    let mut rng = Rng::new(PILE_SEED);
    for k in 0..PILE_COUNT {
        let (row, col) = (k / PILE_PER_ROW, k % PILE_PER_ROW);
        let x = (col as f32 - 0.5 * (PILE_PER_ROW - 1) as f32) * PILE_PITCH + rng.range(-0.05, 0.05);
        let y = 1.0 + row as f32 * PILE_PITCH;
        let angle = rng.range(0.0, PI);
        let shape = ShapeSpec::new(random_geometry(&mut rng));
        bodies.push(BodySpec {
            angle,
            ..BodySpec::new(Motion::Dynamic, V2::new(x, y), shape)
        });
    }
    Spec {
        name: "pile",
        steps: 600,
        gravity: gravity(),
        bodies,
        joints: Vec::new(),
        quality: Quality::EscapedBox {
            min: V2::new(-PILE_HALF_WIDTH, -0.5),
            max: V2::new(PILE_HALF_WIDTH, 2.0 * wall_half_height),
        },
        sleeping: false,
    }
}

/// One of the pile's shapes, 0.3 to 0.6 m across.
pub fn random_geometry(rng: &mut Rng) -> Geometry {
    let size = rng.range(0.15, 0.3);
    match rng.below(4) {
        0 => Geometry::Box {
            half: V2::new(size, rng.range(0.15, 0.3)),
            center: V2::ZERO,
            angle: 0.0,
        },
        1 => {
            // Corners on an ellipse are always in convex position. Each
            // corner is jittered by at most 0.3 of its angular slot, so two
            // neighbouring slots together span at least 1.4 slots and no
            // corner comes near the line through its neighbours (which an
            // engine would drop as collinear).
            let n = 3 + rng.below(6);
            let ry = size * rng.range(0.6, 1.0);
            let points: Vec<V2> = (0..n)
                .map(|i| {
                    let a = (i as f32 + rng.range(-0.3, 0.3)) / n as f32 * TAU;
                    V2::new(size * a.cos(), ry * a.sin())
                })
                .collect();
            Geometry::Polygon {
                points: centered(&points),
            }
        }
        2 => Geometry::Circle { radius: size },
        _ => Geometry::Capsule {
            half_length: rng.range(0.1, 0.3),
            radius: 0.6 * size,
        },
    }
}

/// The polygon moved so its area centroid is on the origin.
fn centered(points: &[V2]) -> Vec<V2> {
    let c = area_centroid(points);
    points.iter().map(|&p| p - c).collect()
}

/// Area centroid of a simple counter-clockwise polygon (a fan of triangles
/// from the first corner, each weighted by its signed area).
pub fn area_centroid(points: &[V2]) -> V2 {
    let o = points[0];
    let (mut area, mut cx, mut cy) = (0.0f32, 0.0f32, 0.0f32);
    for w in points[1..].windows(2) {
        let (a, b) = (w[0] - o, w[1] - o);
        let tri = 0.5 * (a.x * b.y - a.y * b.x);
        area += tri;
        cx += tri * (a.x + b.x) / 3.0;
        cy += tri * (a.y + b.y) / 3.0;
    }
    o + V2::new(cx / area, cy / area)
}

/// Mass of a shape (area times density), for checking that every engine
/// built the same bodies.
pub fn shape_mass(shape: &ShapeSpec) -> f32 {
    let area = match &shape.geometry {
        Geometry::Box { half, .. } => 4.0 * half.x * half.y,
        Geometry::Circle { radius } => PI * radius * radius,
        Geometry::Capsule { half_length, radius } => 4.0 * half_length * radius + PI * radius * radius,
        Geometry::Polygon { points } => {
            let n = points.len();
            0.5 * (0..n)
                .map(|i| {
                    let (a, b) = (points[i], points[(i + 1) % n]);
                    a.x * b.y - a.y * b.x
                })
                .sum::<f32>()
        }
        Geometry::Segment { .. } => 0.0,
    };
    area * shape.density
}

/// A bench scene in a Tumble world: the world, and its bodies and joints
/// in the spec's order.
#[derive(Clone, Debug)]
pub struct BenchWorld {
    /// The world, filled, at Tumble's default solver settings.
    pub world: World,
    /// One handle per spec body, in the spec's order.
    pub bodies: Vec<BodyId>,
    /// One handle per spec joint, in the spec's order.
    pub joints: Vec<JointId>,
}

fn vec2(v: V2) -> Vec2 {
    Vec2::new(v.x, v.y)
}

/// Fills a Tumble world (default settings, the spec's gravity) with the
/// spec's bodies and joints.
pub fn build_world(spec: &Spec) -> BenchWorld {
    let mut world = World::new(WorldSettings {
        gravity: vec2(spec.gravity),
        sleeping: spec.sleeping,
        ..WorldSettings::default()
    });
    let bodies: Vec<BodyId> = spec.bodies.iter().map(|b| add_body(&mut world, b)).collect();
    let joints = spec
        .joints
        .iter()
        .map(|j| add_joint(&mut world, &bodies, j))
        .collect();
    BenchWorld {
        world,
        bodies,
        joints,
    }
}

/// The spec joint as a Tumble revolute joint, its frames at the anchor
/// where the bodies are now (so its angle is zero there).
fn add_joint(world: &mut World, bodies: &[BodyId], spec: &JointSpec) -> JointId {
    let mut hinge = RevoluteJoint::default();
    if let Some(limits) = spec.limits {
        hinge = hinge.with_limits(limits.lower, limits.upper);
    }
    if let Some(motor) = spec.motor {
        hinge = hinge.with_motor(motor.speed, motor.max_torque);
    }
    if let Some(spring) = spec.spring {
        hinge = hinge.with_spring(spring.hertz, spring.damping_ratio, spring.target_angle);
    }
    let def = JointDef::new(bodies[spec.body_a], bodies[spec.body_b], hinge)
        .at(world, vec2(spec.anchor))
        .expect("bench joints join live bodies at finite anchors");
    let def = JointDef {
        collide_connected: spec.collide_connected,
        ..def
    };
    world.create_joint(&def).expect("bench joints are valid")
}

/// The spec filter as Tumble's (the same rule, the same bits).
pub fn tumble_filter(filter: FilterSpec) -> Filter {
    Filter {
        category: filter.category,
        mask: filter.mask,
        group: filter.group,
    }
}

fn add_body(world: &mut World, spec: &BodySpec) -> BodyId {
    let def = match spec.motion {
        Motion::Static => BodyDef::static_body(),
        Motion::Kinematic => BodyDef::kinematic(),
        Motion::Dynamic => BodyDef::dynamic(),
    };
    let def = BodyDef {
        angular_velocity: spec.angular_velocity,
        ..def
            .at(vec2(spec.position))
            .with_angle(spec.angle)
            .with_velocity(vec2(spec.linear_velocity))
    };
    let id = world.create_body(&def).expect("bench bodies are finite");
    for shape in &spec.shapes {
        let material = ShapeDef {
            density: shape.density,
            friction: shape.friction,
            restitution: shape.restitution,
            filter: tumble_filter(shape.filter),
            ..ShapeDef::default()
        };
        world
            .create_shape(id, tumble_shape(shape), &material)
            .expect("bench shapes are valid");
    }
    id
}

/// The spec shape as a Tumble shape.
pub fn tumble_shape(shape: &ShapeSpec) -> Shape {
    match &shape.geometry {
        Geometry::Box { half, center, angle } => {
            Polygon::new_offset_box(half.x, half.y, vec2(*center), *angle)
                .expect("valid box")
                .into()
        }
        Geometry::Circle { radius } => Circle::new(Vec2::ZERO, *radius).expect("valid circle").into(),
        Geometry::Capsule { half_length, radius } => Capsule::new(
            Vec2::new(-half_length, 0.0),
            Vec2::new(*half_length, 0.0),
            *radius,
        )
        .expect("valid capsule")
        .into(),
        Geometry::Polygon { points } => {
            let points: Vec<Vec2> = points.iter().map(|&p| vec2(p)).collect();
            Polygon::new(&points).expect("valid convex polygon").into()
        }
        Geometry::Segment { a, b } => Segment::new(vec2(*a), vec2(*b)).expect("valid segment").into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenes_have_the_sizes_the_issue_names() {
        let dynamic = |s: &Spec| s.bodies.iter().filter(|b| b.motion == Motion::Dynamic).count();
        assert_eq!(dynamic(&large_pyramid()), 5050);
        assert_eq!(dynamic(&many_pyramids()), 22_000);
        assert_eq!(dynamic(&large_pyramid_box2d()), 5050);
        assert_eq!(dynamic(&many_pyramids_box2d()), 22_000);
        assert_eq!(dynamic(&tumbler()), 2025);
        assert_eq!(dynamic(&smash()), 120 * 80 + 1);
        assert_eq!(dynamic(&pile()), 2000);
        for name in SCENES.iter().chain(&QUALITY_SCENES) {
            assert_eq!(build(name).unwrap().name, *name);
        }
    }

    #[test]
    fn box2d_layouts_put_the_boxes_of_a_row_side_by_side() {
        // Box2D's benchmark puts the bottom row of its large pyramid from
        // x = -49.5 to 49.5 at y = 0.5, one box per metre; the first box
        // of its many pyramids at (-109, 0.5), the 400th pyramid's top box
        // 19 shelves of 11 m and 19 pitches of 11 m on.
        let boxes = |s: &Spec| -> Vec<V2> {
            s.bodies
                .iter()
                .filter(|b| b.motion == Motion::Dynamic)
                .map(|b| b.position)
                .collect()
        };
        let large = boxes(&large_pyramid_box2d());
        let bottom: Vec<f32> = large.iter().filter(|p| p.y == 0.5).map(|p| p.x).collect();
        assert_eq!(bottom.len(), 100);
        assert_eq!((bottom[0], bottom[99]), (-49.5, 49.5));
        assert!(bottom.windows(2).all(|w| w[1] - w[0] == 1.0), "touching");
        assert_eq!(large.last().copied(), Some(V2::new(0.0, 99.5)));
        let many = boxes(&many_pyramids_box2d());
        assert_eq!(many[0], V2::new(-109.0, 0.5));
        assert_eq!(many[1], V2::new(-108.0, 0.5));
        assert_eq!(
            many.last().copied(),
            Some(V2::new(-104.5 + 19.0 * 11.0, 9.5 + 19.0 * 11.0))
        );
        let ground = &many_pyramids_box2d().bodies[0];
        assert_eq!(ground.shapes.len(), 20);
        assert_eq!(
            ground.shapes[19].geometry,
            Geometry::Segment {
                a: V2::new(-110.0, 209.0),
                b: V2::new(110.0, 209.0)
            }
        );
    }

    #[test]
    fn pile_polygons_are_convex_counter_clockwise_and_centered() {
        let spec = pile();
        let mut polygons = 0;
        for body in &spec.bodies {
            if let Geometry::Polygon { points } = &body.shapes[0].geometry {
                polygons += 1;
                let n = points.len();
                assert!((3..=8).contains(&n));
                for i in 0..n {
                    let (a, b, c) = (points[i], points[(i + 1) % n], points[(i + 2) % n]);
                    let turn = (b - a).x * (c - b).y - (b - a).y * (c - b).x;
                    // Well clear of collinear: the middle corner stands at
                    // least 1 cm off its neighbours' chord.
                    let chord = c - a;
                    let off = ((b - a).x * chord.y - (b - a).y * chord.x).abs() / chord.distance(V2::ZERO);
                    assert!(turn > 0.0 && off > 0.01, "corner {i} of {points:?}");
                }
                assert!(area_centroid(points).distance(V2::ZERO) < 1e-5);
            }
        }
        assert!(polygons > 300, "a quarter of the shapes are polygons: {polygons}");
    }

    #[test]
    fn tumble_keeps_every_polygon_corner() {
        // Tumble drops collinear corners; the pile's polygons have none, so
        // each keeps the corner count (and so the shape) the spec gave.
        for body in &pile().bodies {
            if let Geometry::Polygon { points } = &body.shapes[0].geometry {
                match tumble_shape(&body.shapes[0]) {
                    Shape::Polygon(p) => assert_eq!(p.count, points.len()),
                    other => panic!("{other:?}"),
                }
            }
        }
    }
}
