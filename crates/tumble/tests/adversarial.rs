//! The adversarial test: random sequences of calls over the whole public
//! API of `World` (bodies of every type, every shape kind, every joint
//! kind and setter, forces and impulses, queries, the character mover,
//! explosions, settings, steps with and without hooks, snapshots), with
//! numbers drawn from a mix of ordinary (0.1 to 10), large (1e3 to 1e6),
//! extreme finite (+-3.4e38, `f32::MIN_POSITIVE`, subnormals, -0.0) and
//! non-finite (NaN, +-inf) values, and handles that are live, stale or of
//! removed objects. After every call it checks the engine's promises:
//!
//! - nothing panics, on any worker count;
//! - every body's pose and velocity are finite, or the body is listed by
//!   `World::frozen_bodies` and its pose is finite (frozen in place); the
//!   frozen list names only live bodies; every contact the world reports
//!   has finite points, normal, separations and impulses;
//! - a call that returned an error left the world's snapshot bytes
//!   exactly as they were;
//! - the live contacts number at most one per pair of shapes, so the work
//!   of a step is bounded by the objects in the world, whatever the
//!   numbers in them (the slowest call of each sequence is printed too);
//! - query hits are finite, with a fraction in `0..=1`;
//! - the same calls on worlds of 1, 2 and 4 workers return the same
//!   results, and leave the same snapshot bytes every few calls and at
//!   the end;
//! - a world restored from a snapshot taken mid-sequence, given the rest
//!   of the calls, stays byte-identical to the one that was saved;
//! - every snapshot loads, and saves again to the same bytes.
//!
//! A failing sequence is shrunk (calls dropped while the same failure
//! remains) and printed with its seed, its calls and what each returned.
//!
//! ```text
//! # the CI run (a few hundred sequences)
//! cargo test -p tumble --release --features serde --test adversarial
//! # the long run, printing sequences, calls and time at the end
//! TUMBLE_ADVERSARIAL_SEQUENCES=100000 cargo test -p tumble --release --features serde \
//!     --test adversarial -- --nocapture
//! # replay one sequence by its seed (printed on failure), with a trace
//! TUMBLE_ADVERSARIAL_REPLAY=0x1234abcd cargo test -p tumble --release --features serde \
//!     --test adversarial -- --nocapture
//! ```
//!
//! `TUMBLE_ADVERSARIAL_SEED` sets the first sequence's seed (the CI run
//! uses a fixed one), and `TUMBLE_ADVERSARIAL_KEEP_GOING=1` goes on after
//! a failure and reports one shrunk sequence per class of failure.
#![cfg(feature = "serde")]

use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

use tumble::collision::Manifold;
use tumble::math::Rot;
use tumble::{
    BodyDef, BodyId, BodyType, Capsule, ChainSegment, CharacterController, Circle, Color, Coloring,
    ContactHooks, ContactMaterial, DebugDraw, DistanceJoint, DrawOptions, Explosion, Filter, FixedStepper,
    JointDef, JointId, JointKind, LaneWidth, MassData, MotionLocks, MotorJoint, OneWayPlatforms, Polygon,
    PositionCorrection, PrismaticJoint, QueryFilter, RevoluteJoint, Segment, Shape, ShapeDef, ShapeError,
    ShapeId, ShapePair, SolverSettings, Sweep, Transform, Vec2, WeldJoint, WheelJoint, World, WorldSettings,
};

// ---------------------------------------------------------------------------
// Sizes

/// Sequences in the CI run.
const CI_SEQUENCES: u64 = 500;
/// Calls per sequence: at least this many...
const MIN_CALLS: u64 = 50;
/// ...and at most this many.
const MAX_CALLS: u64 = 100;
/// The seed of the first sequence of the CI run.
const CI_SEED: u64 = 0x7475_6d62_6c65_0041;
/// Small worlds: creating bodies stops at this many live ones...
const MAX_BODIES: usize = 16;
/// ...adding shapes at this many...
const MAX_SHAPES: usize = 48;
/// ...and creating joints at this many.
const MAX_JOINTS: usize = 12;
/// Worker counts of the worlds every sequence runs on at once.
const LANE_WORKERS: [usize; 3] = [1, 2, 4];
/// The worlds of different worker counts are compared byte for byte after
/// every this many calls (and after the last): each comparison sets every
/// world to one worker and back, which builds thread pools.
const COMPARE_EVERY: usize = 8;
/// Most sequences a failure's shrinking runs.
const SHRINK_BUDGET: usize = 1500;

// ---------------------------------------------------------------------------
// Random numbers

/// SplitMix64: small, seedable and the same on every machine.
#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    fn flip(&mut self) -> bool {
        self.next() & 1 == 1
    }

    fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.unit() as f32
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// The seed of sequence `k` of a run starting at `base`.
fn sequence_seed(base: u64, k: u64) -> u64 {
    Rng(base ^ k.wrapping_mul(0xd1b5_4a32_d192_ed03)).next()
}

/// Extreme finite numbers: the ends of the `f32` range, the smallest
/// normal and a subnormal, negative zero.
const EXTREME: [f32; 11] = [
    f32::MAX,
    -f32::MAX,
    3.4e38,
    -3.4e38,
    1e30,
    -1e30,
    f32::MIN_POSITIVE,
    -f32::MIN_POSITIVE,
    1e-40,
    -1e-40,
    -0.0,
];

const NON_FINITE: [f32; 3] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];

/// The generator of one sequence: its random numbers and how often a
/// number is not an ordinary one.
struct Gen {
    rng: Rng,
    /// The chance that a number is large, extreme or non-finite.
    wild: f64,
}

impl Gen {
    /// A large, extreme finite or non-finite number.
    fn wild_number(&mut self) -> f32 {
        match self.rng.below(10) {
            0..=3 => {
                let m = 10f32.powf(self.rng.range(3.0, 6.0));
                if self.rng.flip() {
                    m
                } else {
                    -m
                }
            }
            4..=7 => self.rng.pick(&EXTREME),
            _ => self.rng.pick(&NON_FINITE),
        }
    }

    /// `ordinary` most of the time, a wild number otherwise.
    fn or_wild(&mut self, low: f32, high: f32) -> f32 {
        if self.rng.chance(self.wild) {
            self.wild_number()
        } else {
            self.rng.range(low, high)
        }
    }

    /// A world coordinate: ordinary ones within a few metres of the origin,
    /// where the bodies meet.
    fn coord(&mut self) -> f32 {
        self.or_wild(-6.0, 6.0)
    }

    /// A coordinate in a body's frame.
    fn offset(&mut self) -> f32 {
        self.or_wild(-1.0, 1.0)
    }

    /// A length, a radius, a half extent.
    fn size(&mut self) -> f32 {
        self.or_wild(0.1, 2.0)
    }

    /// A signed magnitude (a speed, a force).
    fn scalar(&mut self) -> f32 {
        let x = self.or_wild(0.1, 10.0);
        if self.rng.flip() {
            -x
        } else {
            x
        }
    }

    /// A magnitude meant to be positive (a stiffness, a friction).
    fn positive(&mut self) -> f32 {
        self.or_wild(0.1, 10.0)
    }

    fn angle(&mut self) -> f32 {
        self.or_wild(-3.1, 3.1)
    }

    fn point(&mut self) -> Vec2 {
        Vec2::new(self.coord(), self.coord())
    }

    fn local(&mut self) -> Vec2 {
        Vec2::new(self.offset(), self.offset())
    }

    fn vector(&mut self) -> Vec2 {
        Vec2::new(self.scalar(), self.scalar())
    }

    /// A transform; now and then one built by hand with a rotation that is
    /// not a unit one.
    fn transform(&mut self, at: fn(&mut Gen) -> Vec2) -> Transform {
        if self.rng.chance(0.1) {
            Transform {
                p: at(self),
                q: Rot {
                    c: self.scalar(),
                    s: self.scalar(),
                },
            }
        } else {
            Transform::new(at(self), self.angle())
        }
    }

    fn handle(&mut self) -> H {
        let k = self.rng.next() as u32;
        if self.rng.chance(0.08) {
            H::Stale(k)
        } else {
            H::Live(k)
        }
    }

    fn dt(&mut self) -> f32 {
        match self.rng.below(20) {
            0..=13 => self.rng.pick(&[1.0 / 60.0, 1.0 / 30.0, 1.0 / 120.0, 0.01]),
            14 => self.rng.range(0.001, 0.05),
            15 => self.rng.pick(&[f32::MIN_POSITIVE, 1e-40, 1e-20]),
            16 | 17 => self.rng.pick(&[0.25, 1.0, 3.4e38, f32::MAX]),
            _ => self.rng.pick(&[0.0, -1.0 / 60.0, f32::NAN, f32::INFINITY, -0.0]),
        }
    }

    fn filter(&mut self) -> Filter {
        if self.rng.chance(0.7) {
            return Filter::default();
        }
        let bits = [0u64, 1, 2, 3, 4, 0xff, u64::MAX];
        Filter {
            category: self.rng.pick(&bits),
            mask: self.rng.pick(&bits),
            group: self.rng.pick(&[0, 0, 1, -1, 2, -2, i32::MIN, i32::MAX]),
        }
    }

    fn query_filter(&mut self) -> QueryFilter {
        match self.rng.below(4) {
            0 => QueryFilter::ALL,
            1 => QueryFilter {
                category: self.rng.pick(&[0, 1, 2, u64::MAX]),
                mask: self.rng.pick(&[0, 1, 2, 3, u64::MAX]),
            },
            _ => QueryFilter::default(),
        }
    }

    fn body_def(&mut self) -> BodyDef {
        let body_type = match self.rng.below(20) {
            0..=3 => BodyType::Static,
            4..=6 => BodyType::Kinematic,
            _ => BodyType::Dynamic,
        };
        let ordinary = |g: &mut Gen, x: f32| if g.rng.chance(0.7) { x } else { g.scalar() };
        BodyDef {
            body_type,
            position: self.point(),
            angle: ordinary(self, 0.0),
            linear_velocity: if self.rng.chance(0.6) {
                Vec2::ZERO
            } else {
                self.vector()
            },
            angular_velocity: ordinary(self, 0.0),
            linear_damping: ordinary(self, 0.0),
            angular_damping: ordinary(self, 0.0),
            gravity_scale: ordinary(self, 1.0),
            user_data: self.rng.next(),
            awake: self.rng.chance(0.85),
            can_sleep: self.rng.chance(0.8),
            sleep_threshold: ordinary(self, 0.05),
            motion_locks: self.locks(),
        }
    }

    fn locks(&mut self) -> MotionLocks {
        if self.rng.chance(0.8) {
            return MotionLocks::default();
        }
        MotionLocks {
            x: self.rng.flip(),
            y: self.rng.flip(),
            rotation: self.rng.flip(),
        }
    }

    fn shape_def(&mut self) -> ShapeDef {
        let ordinary = |g: &mut Gen, x: f32| if g.rng.chance(0.7) { x } else { g.scalar() };
        ShapeDef {
            density: ordinary(self, 1.0),
            friction: ordinary(self, 0.6),
            restitution: if self.rng.chance(0.7) {
                0.0
            } else {
                self.positive()
            },
            tangent_speed: if self.rng.chance(0.8) { 0.0 } else { self.scalar() },
            rolling_resistance: if self.rng.chance(0.8) { 0.0 } else { self.scalar() },
            user_data: self.rng.next(),
            filter: self.filter(),
            sensor: self.rng.chance(0.12),
            sensor_events: self.rng.chance(0.9),
            sensor_detects_static: self.rng.flip(),
            contact_events: self.rng.chance(0.8),
            hit_events: self.rng.flip(),
            pre_solve: self.rng.chance(0.3),
            custom_filter: self.rng.chance(0.2),
        }
    }

    /// Points round a circle, jittered, some repeated or in a line.
    fn outline(&mut self, n: usize, convex: bool) -> Vec<Vec2> {
        let r = self.size();
        let c = self.local();
        let mut points: Vec<Vec2> = (0..n)
            .map(|k| {
                let a = std::f32::consts::TAU * k as f32 / n as f32;
                let radius = if convex || k % 2 == 0 { r } else { 0.4 * r };
                c + radius * Vec2::new(a.cos(), a.sin())
            })
            .collect();
        match self.rng.below(12) {
            0 => {
                let k = self.rng.below(n as u64) as usize;
                let p = points[k];
                points.push(p);
            }
            1 => points.iter_mut().for_each(|p| p.y = c.y),
            2 => {
                let k = self.rng.below(n as u64) as usize;
                points[k] = self.local();
            }
            3 => {
                let (i, j) = (
                    self.rng.below(n as u64) as usize,
                    self.rng.below(n as u64) as usize,
                );
                points.swap(i, j);
            }
            4 => {
                let k = self.rng.below(n as u64) as usize;
                points[k] = Vec2::new(self.wild_number(), self.wild_number());
            }
            _ => {}
        }
        points
    }

    fn shape(&mut self) -> ShapeSpec {
        match self.rng.below(20) {
            0..=4 => ShapeSpec::Circle(self.local(), self.size()),
            5..=7 => ShapeSpec::Capsule(self.local(), self.local(), self.size()),
            8..=10 => ShapeSpec::Box(self.size(), self.size()),
            11 => ShapeSpec::OffsetBox(self.size(), self.size(), self.local(), self.angle()),
            12 | 13 => {
                let n = 3 + self.rng.below(7) as usize;
                ShapeSpec::Polygon(self.outline(n, true))
            }
            14 => {
                let n = 3 + self.rng.below(6) as usize;
                let radius = self.or_wild(0.0, 0.3);
                ShapeSpec::Rounded(self.outline(n, true), radius)
            }
            15 | 16 => ShapeSpec::Segment(self.local(), self.local()),
            17 => ShapeSpec::HandPolygon {
                hx: self.size(),
                hy: self.size(),
                vertex: self.rng.below(10) as usize,
                moved_to: self.local(),
                count: self.rng.pick(&[0, 2, 3, 4, 4, 4, 8, 9, usize::MAX]),
                radius: self.or_wild(0.0, 0.2),
            },
            18 => ShapeSpec::HandChainSegment(self.local(), self.local(), self.local(), self.local()),
            _ => ShapeSpec::Circle(Vec2::ZERO, self.size()),
        }
    }

    fn limits(&mut self, scale: f32) -> (f32, f32) {
        let a = self.or_wild(-scale, scale);
        let b = self.or_wild(-scale, scale);
        if self.rng.chance(0.9) && a > b {
            (b, a)
        } else {
            (a, b)
        }
    }

    fn damping_ratio(&mut self) -> f32 {
        self.or_wild(0.0, 2.0)
    }

    fn joint_kind(&mut self) -> JointKind {
        match self.rng.below(7) {
            0 => {
                let (lower_angle, upper_angle) = self.limits(3.0);
                JointKind::Revolute(RevoluteJoint {
                    enable_limit: self.rng.flip(),
                    lower_angle,
                    upper_angle,
                    enable_motor: self.rng.flip(),
                    motor_speed: self.scalar(),
                    max_motor_torque: self.positive(),
                    enable_spring: self.rng.flip(),
                    hertz: self.positive(),
                    damping_ratio: self.damping_ratio(),
                    target_angle: self.angle(),
                })
            }
            1 => {
                let (lower_translation, upper_translation) = self.limits(3.0);
                JointKind::Prismatic(PrismaticJoint {
                    enable_limit: self.rng.flip(),
                    lower_translation,
                    upper_translation,
                    enable_motor: self.rng.flip(),
                    motor_speed: self.scalar(),
                    max_motor_force: self.positive(),
                    enable_spring: self.rng.flip(),
                    hertz: self.positive(),
                    damping_ratio: self.damping_ratio(),
                    target_translation: self.scalar(),
                })
            }
            2 => {
                let (min_length, max_length) = self.limits(4.0);
                JointKind::Distance(DistanceJoint {
                    length: self.size(),
                    enable_spring: self.rng.flip(),
                    hertz: self.positive(),
                    damping_ratio: self.damping_ratio(),
                    enable_limit: self.rng.flip(),
                    min_length: min_length.abs(),
                    max_length: max_length.abs(),
                    enable_motor: self.rng.flip(),
                    motor_speed: self.scalar(),
                    max_motor_force: self.positive(),
                })
            }
            3 => {
                let soft = self.rng.flip();
                let hz = |g: &mut Gen| if soft { g.positive() } else { 0.0 };
                JointKind::Weld(WeldJoint {
                    linear_hertz: hz(self),
                    linear_damping_ratio: self.damping_ratio(),
                    angular_hertz: hz(self),
                    angular_damping_ratio: self.damping_ratio(),
                })
            }
            4 => {
                let (lower_translation, upper_translation) = self.limits(2.0);
                JointKind::Wheel(WheelJoint {
                    enable_spring: self.rng.chance(0.8),
                    hertz: self.positive(),
                    damping_ratio: self.damping_ratio(),
                    enable_limit: self.rng.flip(),
                    lower_translation,
                    upper_translation,
                    enable_motor: self.rng.flip(),
                    motor_speed: self.scalar(),
                    max_motor_torque: self.positive(),
                })
            }
            5 => JointKind::Motor(MotorJoint {
                linear_velocity: self.vector(),
                angular_velocity: self.scalar(),
                max_force: self.positive(),
                max_torque: self.positive(),
                linear_hertz: self.positive(),
                linear_damping_ratio: self.damping_ratio(),
                angular_hertz: self.positive(),
                angular_damping_ratio: self.damping_ratio(),
            }),
            _ => JointKind::Filter,
        }
    }

    fn joint_place(&mut self) -> JointPlace {
        match self.rng.below(5) {
            0 | 1 => JointPlace::At(self.point()),
            2 => JointPlace::AtFrame(self.transform(Gen::point)),
            3 => JointPlace::WorldAnchors(self.point(), self.point()),
            _ => JointPlace::LocalAnchors(self.local(), self.local()),
        }
    }

    fn solver_settings(&mut self) -> SolverSettings {
        let d = SolverSettings::default();
        let mut s = d;
        // Each field is changed now and then, sometimes out of range.
        let maybe = |g: &mut Gen, x: f32| if g.rng.chance(0.3) { g.scalar() } else { x };
        s.iterations = if self.rng.chance(0.4) {
            self.rng.pick(&[0, 1, 2, 4, 8, 16, 17, u32::MAX])
        } else {
            d.iterations
        };
        s.substeps = if self.rng.chance(0.4) {
            self.rng.pick(&[0, 1, 2, 4, 8, 9, u32::MAX])
        } else {
            d.substeps
        };
        s.warm_starting = self.rng.chance(0.8);
        s.position_correction = self.rng.pick(&[
            PositionCorrection::SoftStep,
            PositionCorrection::SoftStep,
            PositionCorrection::SplitImpulse,
            PositionCorrection::Baumgarte,
            PositionCorrection::None,
        ]);
        s.coloring = self
            .rng
            .pick(&[Coloring::Bounded, Coloring::Ordered, Coloring::Off]);
        s.sweep = self.rng.pick(&[Sweep::Alternating, Sweep::Forward]);
        s.baumgarte = maybe(self, d.baumgarte);
        s.restitution_threshold = maybe(self, d.restitution_threshold);
        s.contact_recycling = self.rng.flip();
        s.contact_hertz = maybe(self, d.contact_hertz);
        s.contact_damping_ratio = maybe(self, d.contact_damping_ratio);
        s.joint_hertz = maybe(self, d.joint_hertz);
        s.joint_damping_ratio = maybe(self, d.joint_damping_ratio);
        s.min_shared_color = if self.rng.chance(0.3) {
            self.rng.pick(&[0, 1, 2, 64, u32::MAX])
        } else {
            d.min_shared_color
        };
        s.lane_width = self.rng.pick(&[LaneWidth::Widest, LaneWidth::Four]);
        s
    }

    fn controller(&mut self) -> CharacterController {
        let d = CharacterController::default();
        let maybe = |g: &mut Gen, x: f32| if g.rng.chance(0.25) { g.scalar() } else { x };
        CharacterController {
            up: if self.rng.chance(0.2) { self.vector() } else { d.up },
            skin: maybe(self, d.skin),
            max_slope: maybe(self, d.max_slope),
            step_height: maybe(self, d.step_height),
            step_min_width: maybe(self, d.step_min_width),
            snap_to_ground: maybe(self, d.snap_to_ground),
            filter: self.query_filter(),
            max_slides: if self.rng.chance(0.2) {
                self.rng.pick(&[0, 1, 64, u32::MAX])
            } else {
                d.max_slides
            },
            one_way: if self.rng.chance(0.3) {
                self.rng.pick(&[1, 2, u64::MAX])
            } else {
                d.one_way
            },
        }
    }

    fn query(&mut self) -> Query {
        let f = self.query_filter();
        match self.rng.below(10) {
            0 => Query::Point(self.point(), f),
            1 => Query::Aabb(self.point(), self.point(), f),
            2 => Query::Shape(self.shape(), self.transform(Gen::point), f),
            3 => Query::RayClosest(self.point(), self.vector(), f),
            4 => Query::RayAll(self.point(), self.vector(), f),
            5 => {
                let answers = [0; 4].map(|_| match self.rng.below(6) {
                    0 => -1.0,
                    1 => 0.0,
                    2 => 1.0,
                    3 => 0.5,
                    4 => f32::NAN,
                    _ => self.scalar(),
                });
                Query::RayCallback(self.point(), self.vector(), f, answers)
            }
            6 | 7 => Query::ShapeCast(self.shape(), self.transform(Gen::point), self.vector(), f),
            8 => Query::SensorOverlaps(self.handle()),
            _ => Query::Events,
        }
    }

    /// A world's starting settings: the defaults most of the time.
    fn setup(&mut self) -> Setup {
        let d = WorldSettings::default();
        let odd = self.rng.chance(0.2);
        Setup {
            gravity: if odd && self.rng.flip() {
                self.vector()
            } else {
                d.gravity
            },
            length_units_per_meter: if odd && self.rng.chance(0.3) {
                self.positive()
            } else {
                d.length_units_per_meter
            },
            solver: if odd && self.rng.flip() {
                self.solver_settings()
            } else {
                d.solver
            },
            sleeping: self.rng.chance(0.8),
            hit_event_threshold: if odd && self.rng.flip() {
                self.scalar()
            } else {
                d.hit_event_threshold
            },
        }
    }

    /// One call, drawn with weights that keep the world populated and
    /// stepping.
    fn op(&mut self) -> Op {
        let h = |g: &mut Gen| g.handle();
        match self.rng.below(121) {
            0..=7 => Op::CreateBody(self.body_def()),
            8 | 9 => Op::RemoveBody(h(self)),
            10..=18 => Op::AddShape(h(self), self.shape(), self.shape_def()),
            19 | 20 => {
                let n = 5 + self.rng.below(8) as usize;
                Op::AddConcave(h(self), self.outline(n, false), self.shape_def())
            }
            21 | 22 => {
                let closed = self.rng.flip();
                let n = 2 + self.rng.below(7) as usize;
                let points = if closed {
                    self.outline(n + 1, true)
                } else {
                    let mut x = self.coord();
                    (0..n)
                        .map(|_| {
                            x += self.size();
                            Vec2::new(x, self.offset())
                        })
                        .collect()
                };
                Op::AddChain(h(self), points, closed, self.shape_def())
            }
            23 | 24 => Op::RemoveShape(h(self)),
            25..=29 => Op::CreateJoint {
                a: h(self),
                b: h(self),
                kind: self.joint_kind(),
                place: self.joint_place(),
                collide_connected: self.rng.chance(0.2),
                user_data: self.rng.next(),
            },
            30 => Op::RemoveJoint(h(self)),
            31 | 32 => Op::SetJointKind(h(self), self.joint_kind()),
            33 => Op::SetMotorSpeed(h(self), self.scalar()),
            34 => Op::SetJointFrames(h(self), self.transform(Gen::local), self.transform(Gen::local)),
            35 | 36 => Op::SetBodyType(
                h(self),
                self.rng
                    .pick(&[BodyType::Static, BodyType::Kinematic, BodyType::Dynamic]),
            ),
            37 => Op::SetMotionLocks(h(self), self.locks()),
            38..=40 => Op::SetTransform(h(self), self.point(), self.angle()),
            41..=43 => Op::SetLinearVelocity(h(self), self.vector()),
            44 => Op::SetAngularVelocity(h(self), self.scalar()),
            45 => Op::SetDamping(h(self), self.positive(), self.positive()),
            46 => Op::SetGravityScale(h(self), self.scalar()),
            47 => Op::SetUserData(h(self), self.rng.next()),
            48 | 49 => Op::ApplyForce(h(self), self.vector(), self.at()),
            50 => Op::ApplyForceToCenter(h(self), self.vector()),
            51 => Op::ApplyTorque(h(self), self.scalar()),
            52 | 53 => Op::ApplyLinearImpulse(h(self), self.vector(), self.at()),
            54 => Op::ApplyLinearImpulseToCenter(h(self), self.vector()),
            55 => Op::ApplyAngularImpulse(h(self), self.scalar()),
            56 => Op::Wake(h(self)),
            57 => Op::SetAwake(h(self), self.rng.flip()),
            58 => Op::SetSleeping(self.rng.chance(0.7)),
            59 => Op::SetFriction(h(self), self.positive()),
            60 => Op::SetRestitution(h(self), self.positive()),
            61 => Op::SetFilter(h(self), self.filter()),
            62 => Op::SetShapeFlags(h(self), self.rng.flip(), self.rng.flip(), self.rng.flip()),
            63 | 64 => Op::Explode(Explosion {
                center: self.point(),
                radius: self.size(),
                falloff: self.size(),
                impulse_per_length: self.scalar(),
                filter: self.query_filter(),
            }),
            65..=71 => Op::Query(self.query()),
            72..=74 => Op::MoveCharacter {
                controller: self.controller(),
                shape: self.shape(),
                xf: self.transform(Gen::point),
                desired: self.vector(),
                dt: self.dt(),
                ignore: if self.rng.flip() { Some(h(self)) } else { None },
            },
            75 => Op::SetGravity(if self.rng.chance(0.5) {
                Vec2::new(0.0, -10.0)
            } else {
                self.vector()
            }),
            76 => Op::SetWorkers(self.rng.pick(&[1, 2, 3, 4, 4, 0, 65, usize::MAX])),
            77 => Op::SetSolverSettings(self.solver_settings()),
            78..=99 => Op::Step(self.dt()),
            100..=102 => Op::StepWithPlatforms {
                dt: self.dt(),
                platforms: [h(self), h(self)],
                up: if self.rng.chance(0.7) {
                    Vec2::Y
                } else {
                    self.vector()
                },
                sink_tolerance: if self.rng.chance(0.7) { 0.05 } else { self.scalar() },
            },
            103..=105 => Op::StepWithHooks {
                dt: self.dt(),
                material: ContactMaterial {
                    friction: self.scalar(),
                    restitution: self.scalar(),
                    tangent_speed: self.scalar(),
                },
                refuse_every: self.rng.pick(&[0, 2, 3]),
                filter_every: self.rng.pick(&[0, 2, 5]),
            },
            106 | 107 => Op::FixedStep {
                hz: if self.rng.chance(0.6) { 60.0 } else { self.scalar() },
                max_steps: self.rng.pick(&[0, 1, 2, 4]),
                frame_time: if self.rng.chance(0.6) {
                    1.0 / 30.0
                } else {
                    self.scalar()
                },
            },
            108 | 109 => Op::RoundTrip,
            110 | 111 => Op::Restore,
            112..=115 => Op::Read(h(self), h(self), h(self), self.point()),
            116 => Op::DebugDraw,
            117 => Op::SetMassData(
                h(self),
                MassData {
                    mass: self.scalar(),
                    center: self.local(),
                    inertia: self.scalar(),
                },
            ),
            118 => Op::ResetMassData(h(self)),
            119 => Op::SetEnabled(h(self), self.rng.chance(0.6)),
            120 => Op::SetTangentSpeed(h(self), self.scalar()),
            _ => Op::Step(1.0 / 60.0),
        }
    }

    fn at(&mut self) -> At {
        if self.rng.chance(0.8) {
            At::Near(self.local())
        } else {
            At::World(self.point())
        }
    }
}

/// A starting world and its calls, from a seed: a few bodies with shapes
/// first (a ground among them, usually), then calls drawn at random.
fn generate(seed: u64, calls: Option<u64>) -> (Setup, Vec<Op>) {
    let mut rng = Rng(seed);
    let wild = rng.pick(&[0.0, 0.02, 0.05, 0.1, 0.25]);
    let mut g = Gen { rng, wild };
    let setup = g.setup();
    let n = calls.unwrap_or_else(|| MIN_CALLS + g.rng.below(MAX_CALLS - MIN_CALLS + 1));
    let mut ops = Vec::with_capacity(n as usize);
    if g.rng.chance(0.8) {
        ops.push(Op::CreateBody(BodyDef::static_body().at(Vec2::new(0.0, -1.0))));
        ops.push(Op::AddShape(
            H::Live(0),
            ShapeSpec::Box(20.0, 1.0),
            ShapeDef::default(),
        ));
    }
    for k in 0..g.rng.below(5) {
        let def = BodyDef {
            position: Vec2::new(g.rng.range(-3.0, 3.0), 1.0 + k as f32),
            ..g.body_def()
        };
        ops.push(Op::CreateBody(def));
        ops.push(Op::AddShape(H::Live(u32::MAX), g.shape(), g.shape_def()));
    }
    while (ops.len() as u64) < n {
        ops.push(g.op());
    }
    (setup, ops)
}

// ---------------------------------------------------------------------------
// Calls

/// A handle as drawn: the k-th live object (modulo their number; the last
/// one for `u32::MAX`), or the k-th of those removed.
#[derive(Clone, Copy, Debug)]
enum H {
    Live(u32),
    Stale(u32),
}

/// A point of application: near the body's origin (in world axes) or
/// anywhere.
#[derive(Clone, Copy, Debug)]
enum At {
    Near(Vec2),
    World(Vec2),
}

#[derive(Clone, Debug)]
enum ShapeSpec {
    Circle(Vec2, f32),
    Capsule(Vec2, Vec2, f32),
    Box(f32, f32),
    OffsetBox(f32, f32, Vec2, f32),
    Polygon(Vec<Vec2>),
    Rounded(Vec<Vec2>, f32),
    Segment(Vec2, Vec2),
    /// A box's polygon with its fields then changed by hand.
    HandPolygon {
        hx: f32,
        hy: f32,
        vertex: usize,
        moved_to: Vec2,
        count: usize,
        radius: f32,
    },
    /// A chain segment built by hand: ghost, segment, ghost.
    HandChainSegment(Vec2, Vec2, Vec2, Vec2),
}

impl ShapeSpec {
    fn build(&self) -> Result<Shape, ShapeError> {
        Ok(match self {
            ShapeSpec::Circle(c, r) => Circle::new(*c, *r)?.into(),
            ShapeSpec::Capsule(a, b, r) => Capsule::new(*a, *b, *r)?.into(),
            ShapeSpec::Box(hx, hy) => Polygon::new_box(*hx, *hy)?.into(),
            ShapeSpec::OffsetBox(hx, hy, c, a) => Polygon::new_offset_box(*hx, *hy, *c, *a)?.into(),
            ShapeSpec::Polygon(points) => Polygon::new(points)?.into(),
            ShapeSpec::Rounded(points, r) => Polygon::new_rounded(points, *r)?.into(),
            ShapeSpec::Segment(a, b) => Segment::new(*a, *b)?.into(),
            ShapeSpec::HandPolygon {
                hx,
                hy,
                vertex,
                moved_to,
                count,
                radius,
            } => {
                let mut p = Polygon::new_box(*hx, *hy)?;
                if *vertex < p.vertices.len() {
                    p.vertices[*vertex] = *moved_to;
                }
                p.count = *count;
                p.radius = *radius;
                p.into()
            }
            ShapeSpec::HandChainSegment(g1, a, b, g2) => Shape::ChainSegment(ChainSegment {
                ghost1: *g1,
                segment: Segment {
                    point1: *a,
                    point2: *b,
                },
                ghost2: *g2,
            }),
        })
    }
}

#[derive(Clone, Copy, Debug)]
enum JointPlace {
    At(Vec2),
    AtFrame(Transform),
    WorldAnchors(Vec2, Vec2),
    LocalAnchors(Vec2, Vec2),
}

#[derive(Clone, Debug)]
enum Query {
    Point(Vec2, QueryFilter),
    Aabb(Vec2, Vec2, QueryFilter),
    Shape(ShapeSpec, Transform, QueryFilter),
    RayClosest(Vec2, Vec2, QueryFilter),
    RayAll(Vec2, Vec2, QueryFilter),
    /// A ray cast whose callback answers these in turn.
    RayCallback(Vec2, Vec2, QueryFilter, [f32; 4]),
    ShapeCast(ShapeSpec, Transform, Vec2, QueryFilter),
    SensorOverlaps(H),
    /// What the last step reports: its contact and sensor events, its
    /// recycled contacts; and the contacts.
    Events,
}

/// One call of the public API (or a few, for the reads and the fixed
/// stepper), with its handles still to be resolved against the world.
#[derive(Clone, Debug)]
enum Op {
    CreateBody(BodyDef),
    RemoveBody(H),
    AddShape(H, ShapeSpec, ShapeDef),
    AddConcave(H, Vec<Vec2>, ShapeDef),
    AddChain(H, Vec<Vec2>, bool, ShapeDef),
    RemoveShape(H),
    CreateJoint {
        a: H,
        b: H,
        kind: JointKind,
        place: JointPlace,
        collide_connected: bool,
        user_data: u64,
    },
    RemoveJoint(H),
    SetJointKind(H, JointKind),
    SetMotorSpeed(H, f32),
    SetJointFrames(H, Transform, Transform),
    SetBodyType(H, BodyType),
    SetMotionLocks(H, MotionLocks),
    SetTransform(H, Vec2, f32),
    SetLinearVelocity(H, Vec2),
    SetAngularVelocity(H, f32),
    SetDamping(H, f32, f32),
    SetGravityScale(H, f32),
    SetMassData(H, MassData),
    ResetMassData(H),
    SetEnabled(H, bool),
    SetUserData(H, u64),
    ApplyForce(H, Vec2, At),
    ApplyForceToCenter(H, Vec2),
    ApplyTorque(H, f32),
    ApplyLinearImpulse(H, Vec2, At),
    ApplyLinearImpulseToCenter(H, Vec2),
    ApplyAngularImpulse(H, f32),
    Wake(H),
    SetAwake(H, bool),
    SetSleeping(bool),
    SetFriction(H, f32),
    SetRestitution(H, f32),
    SetTangentSpeed(H, f32),
    SetFilter(H, Filter),
    /// Contact events, hit events, pre-solve.
    SetShapeFlags(H, bool, bool, bool),
    Explode(Explosion),
    Query(Query),
    MoveCharacter {
        controller: CharacterController,
        shape: ShapeSpec,
        xf: Transform,
        desired: Vec2,
        dt: f32,
        ignore: Option<H>,
    },
    SetGravity(Vec2),
    /// The count for the 1-worker world; the others get the next counts
    /// round 1..=4, so the worlds keep different counts.
    SetWorkers(usize),
    SetSolverSettings(SolverSettings),
    Step(f32),
    StepWithPlatforms {
        dt: f32,
        platforms: [H; 2],
        up: Vec2,
        sink_tolerance: f32,
    },
    StepWithHooks {
        dt: f32,
        material: ContactMaterial,
        refuse_every: u32,
        filter_every: u32,
    },
    FixedStep {
        hz: f32,
        max_steps: u32,
        frame_time: f32,
    },
    /// Every world is replaced by its snapshot, loaded.
    RoundTrip,
    /// A world restored from the 1-worker world's snapshot joins the run.
    Restore,
    /// Every getter of a body, a shape and a joint, and the velocity at a
    /// point.
    Read(H, H, H, Vec2),
    DebugDraw,
}

impl Op {
    /// The op's name: the variant's.
    fn name(&self) -> String {
        let text = format!("{self:?}");
        text.split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("")
            .to_string()
    }

    /// The handles the op names: bodies, shapes, joints.
    fn handles(&self) -> (Vec<H>, Vec<H>, Vec<H>) {
        let none = Vec::new;
        match self {
            Op::RemoveBody(b)
            | Op::AddShape(b, ..)
            | Op::AddConcave(b, ..)
            | Op::AddChain(b, ..)
            | Op::SetBodyType(b, _)
            | Op::SetMotionLocks(b, _)
            | Op::SetTransform(b, ..)
            | Op::SetLinearVelocity(b, _)
            | Op::SetAngularVelocity(b, _)
            | Op::SetDamping(b, ..)
            | Op::SetGravityScale(b, _)
            | Op::SetMassData(b, _)
            | Op::ResetMassData(b)
            | Op::SetEnabled(b, _)
            | Op::SetUserData(b, _)
            | Op::ApplyForce(b, ..)
            | Op::ApplyForceToCenter(b, _)
            | Op::ApplyTorque(b, _)
            | Op::ApplyLinearImpulse(b, ..)
            | Op::ApplyLinearImpulseToCenter(b, _)
            | Op::ApplyAngularImpulse(b, _)
            | Op::Wake(b)
            | Op::SetAwake(b, _) => (vec![*b], none(), none()),
            Op::RemoveShape(s)
            | Op::SetFriction(s, _)
            | Op::SetRestitution(s, _)
            | Op::SetTangentSpeed(s, _)
            | Op::SetFilter(s, _)
            | Op::SetShapeFlags(s, ..)
            | Op::Query(Query::SensorOverlaps(s)) => (none(), vec![*s], none()),
            Op::CreateJoint { a, b, .. } => (vec![*a, *b], none(), none()),
            Op::RemoveJoint(j)
            | Op::SetJointKind(j, _)
            | Op::SetMotorSpeed(j, _)
            | Op::SetJointFrames(j, ..) => (none(), none(), vec![*j]),
            Op::MoveCharacter { ignore: Some(b), .. } => (vec![*b], none(), none()),
            Op::StepWithPlatforms { platforms, .. } => (none(), platforms.to_vec(), none()),
            Op::Read(b, s, j, _) => (vec![*b], vec![*s], vec![*j]),
            _ => (none(), none(), none()),
        }
    }
}

/// The handles of an op, resolved.
#[derive(Clone, Debug, Default)]
struct Ids {
    bodies: Vec<BodyId>,
    shapes: Vec<ShapeId>,
    joints: Vec<JointId>,
}

/// Every handle the run has seen returned, to draw stale ones from.
#[derive(Default)]
struct Seen {
    bodies: Vec<BodyId>,
    shapes: Vec<ShapeId>,
    joints: Vec<JointId>,
}

/// Picks handle `h` among `live` or among the `seen` ones that are no
/// longer live; either falls back on the other when it has none.
fn pick<T: Copy>(h: H, live: &[T], seen: &[T], is_live: impl Fn(T) -> bool) -> Option<T> {
    let nth = |items: &[T], k: u32| {
        (!items.is_empty()).then(|| {
            if k == u32::MAX {
                items[items.len() - 1]
            } else {
                items[k as usize % items.len()]
            }
        })
    };
    let stale: Vec<T> = seen.iter().copied().filter(|&x| !is_live(x)).collect();
    match h {
        H::Live(k) => nth(live, k).or_else(|| nth(&stale, k)),
        H::Stale(k) => nth(&stale, k).or_else(|| nth(live, k)),
    }
}

fn resolve(op: &Op, world: &World, seen: &Seen) -> Option<Ids> {
    let (bh, sh, jh) = op.handles();
    let bodies: Vec<BodyId> = world.bodies().collect();
    let shapes: Vec<ShapeId> = if sh.is_empty() {
        Vec::new()
    } else {
        bodies
            .iter()
            .flat_map(|&b| world.body_shapes(b).unwrap())
            .collect()
    };
    let joints: Vec<JointId> = world.joints().collect();
    Some(Ids {
        bodies: bh
            .iter()
            .map(|&h| pick(h, &bodies, &seen.bodies, |b| world.contains_body(b)))
            .collect::<Option<_>>()?,
        shapes: sh
            .iter()
            .map(|&h| pick(h, &shapes, &seen.shapes, |s| world.shape(s).is_ok()))
            .collect::<Option<_>>()?,
        joints: jh
            .iter()
            .map(|&h| pick(h, &joints, &seen.joints, |j| world.contains_joint(j)))
            .collect::<Option<_>>()?,
    })
}

/// What a call returned, as text (compared between the worlds), and the
/// handles it made.
#[derive(Debug, PartialEq)]
enum Outcome {
    Ok(String),
    Err(String),
}

#[derive(Default)]
struct Made {
    bodies: Vec<BodyId>,
    shapes: Vec<ShapeId>,
    joints: Vec<JointId>,
}

fn outcome<T: std::fmt::Debug, E: std::fmt::Debug>(r: Result<T, E>) -> Outcome {
    match r {
        Ok(v) => Outcome::Ok(format!("{v:?}")),
        Err(e) => Outcome::Err(format!("{e:?}")),
    }
}

/// A hook that hands the solver the op's materials, whatever they are,
/// and refuses some pairs by their shapes' slots (the same on every
/// thread and every run).
struct WildHooks {
    material: ContactMaterial,
    refuse_every: u32,
    filter_every: u32,
}

fn pair_number(pair: &ShapePair) -> u32 {
    pair.shape_a.index().wrapping_add(pair.shape_b.index())
}

impl ContactHooks for WildHooks {
    fn should_collide(&self, pair: &ShapePair) -> bool {
        self.filter_every == 0 || pair_number(pair) % self.filter_every != 0
    }

    fn pre_solve(&self, pair: &ShapePair, _: &Manifold, material: &mut ContactMaterial) -> bool {
        *material = self.material;
        self.refuse_every == 0 || pair_number(pair) % self.refuse_every != 0
    }
}

/// Counts what the debug draw is asked to draw.
#[derive(Default)]
struct CountingDraw(usize);

impl DebugDraw for CountingDraw {
    fn draw_polygon(&mut self, _: &[Vec2], _: f32, _: Color) {
        self.0 += 1;
    }
    fn draw_circle(&mut self, _: Vec2, _: f32, _: Vec2, _: Color) {
        self.0 += 1;
    }
    fn draw_capsule(&mut self, _: Vec2, _: Vec2, _: f32, _: Color) {
        self.0 += 1;
    }
    fn draw_segment(&mut self, _: Vec2, _: Vec2, _: Color) {
        self.0 += 1;
    }
    fn draw_point(&mut self, _: Vec2, _: f32, _: Color) {
        self.0 += 1;
    }
}

/// The worker count world `lane` is given by `SetWorkers(n)`.
fn lane_workers(n: usize, lane: usize) -> usize {
    if (1..=4).contains(&n) {
        (n - 1 + lane) % 4 + 1
    } else {
        n
    }
}

/// Query hits that are not finite, or whose fraction is outside `0..=1`.
fn bad_hit(point: Vec2, normal: Vec2, fraction: f32) -> bool {
    !(point.is_finite() && normal.is_finite() && (0.0..=1.0).contains(&fraction))
}

/// Runs `op` on `world` (world `lane` of the run). Returns what it
/// returned, the handles it made, and a query hit that is not finite, if
/// any.
fn apply(world: &mut World, lane: usize, op: &Op, ids: &Ids) -> (Outcome, Made, Option<String>) {
    let mut made = Made::default();
    let mut bad = None;
    let b = |k: usize| ids.bodies[k];
    let s = |k: usize| ids.shapes[k];
    let j = |k: usize| ids.joints[k];
    let near = |world: &World, at: At| match at {
        At::Near(d) => world.position(b(0)).map(|p| p + d).unwrap_or(d),
        At::World(p) => p,
    };
    let out = match op {
        Op::CreateBody(def) => {
            let r = world.create_body(def);
            if let Ok(id) = r {
                made.bodies.push(id);
            }
            outcome(r)
        }
        Op::RemoveBody(_) => outcome(world.remove_body(b(0))),
        Op::AddShape(_, spec, def) => match spec.build() {
            Ok(shape) => {
                let r = world.create_shape(b(0), shape, def);
                if let Ok(id) = r {
                    made.shapes.push(id);
                }
                outcome(r)
            }
            Err(e) => Outcome::Err(format!("constructor: {e:?}")),
        },
        Op::AddConcave(_, outline, def) => {
            let r = world.create_concave(b(0), outline, def);
            if let Ok(v) = &r {
                made.shapes.extend(v);
            }
            outcome(r)
        }
        Op::AddChain(_, points, closed, def) => {
            let r = world.create_chain(b(0), points, *closed, def);
            if let Ok(v) = &r {
                made.shapes.extend(v);
            }
            outcome(r)
        }
        Op::RemoveShape(_) => outcome(world.remove_shape(s(0))),
        Op::CreateJoint {
            kind,
            place,
            collide_connected,
            user_data,
            ..
        } => {
            let mut def = JointDef::new(b(0), b(1), *kind);
            def.collide_connected = *collide_connected;
            def.user_data = *user_data;
            let def = match *place {
                JointPlace::At(p) => def.at(world, p),
                JointPlace::AtFrame(f) => def.at_frame(world, f),
                JointPlace::WorldAnchors(p, q) => def.with_world_anchors(world, p, q),
                JointPlace::LocalAnchors(p, q) => Ok(def.with_local_anchors(p, q)),
            };
            match def {
                Ok(def) => {
                    let r = world.create_joint(&def);
                    if let Ok(id) = r {
                        made.joints.push(id);
                    }
                    outcome(r)
                }
                Err(e) => Outcome::Err(format!("placing: {e:?}")),
            }
        }
        Op::RemoveJoint(_) => outcome(world.remove_joint(j(0))),
        Op::SetJointKind(_, kind) => outcome(world.set_joint_kind(j(0), *kind)),
        Op::SetMotorSpeed(_, v) => outcome(world.set_motor_speed(j(0), *v)),
        Op::SetJointFrames(_, fa, fb) => outcome(world.set_joint_frames(j(0), *fa, *fb)),
        Op::SetBodyType(_, t) => outcome(world.set_body_type(b(0), *t)),
        Op::SetMotionLocks(_, l) => outcome(world.set_motion_locks(b(0), *l)),
        Op::SetTransform(_, p, a) => outcome(world.set_transform(b(0), *p, *a)),
        Op::SetLinearVelocity(_, v) => outcome(world.set_linear_velocity(b(0), *v)),
        Op::SetAngularVelocity(_, w) => outcome(world.set_angular_velocity(b(0), *w)),
        Op::SetDamping(_, l, a) => outcome(world.set_damping(b(0), *l, *a)),
        Op::SetGravityScale(_, g) => outcome(world.set_gravity_scale(b(0), *g)),
        Op::SetMassData(_, md) => outcome(world.set_mass_data(b(0), *md)),
        Op::ResetMassData(_) => outcome(world.reset_mass_data(b(0))),
        Op::SetEnabled(_, e) => outcome(world.set_enabled(b(0), *e)),
        Op::SetUserData(_, d) => outcome(world.set_user_data(b(0), *d)),
        Op::ApplyForce(_, f, at) => {
            let p = near(world, *at);
            outcome(world.apply_force(b(0), *f, p))
        }
        Op::ApplyForceToCenter(_, f) => outcome(world.apply_force_to_center(b(0), *f)),
        Op::ApplyTorque(_, t) => outcome(world.apply_torque(b(0), *t)),
        Op::ApplyLinearImpulse(_, i, at) => {
            let p = near(world, *at);
            outcome(world.apply_linear_impulse(b(0), *i, p))
        }
        Op::ApplyLinearImpulseToCenter(_, i) => outcome(world.apply_linear_impulse_to_center(b(0), *i)),
        Op::ApplyAngularImpulse(_, i) => outcome(world.apply_angular_impulse(b(0), *i)),
        Op::Wake(_) => outcome(world.wake(b(0))),
        Op::SetAwake(_, a) => outcome(world.set_awake(b(0), *a)),
        Op::SetSleeping(on) => {
            world.set_sleeping(*on);
            Outcome::Ok(String::new())
        }
        Op::SetFriction(_, f) => outcome(world.set_friction(s(0), *f)),
        Op::SetRestitution(_, r) => outcome(world.set_restitution(s(0), *r)),
        Op::SetTangentSpeed(_, v) => outcome(world.set_tangent_speed(s(0), *v)),
        Op::SetFilter(_, f) => outcome(world.set_filter(s(0), *f)),
        Op::SetShapeFlags(_, contact, hit, pre) => outcome(
            world
                .set_contact_events(s(0), *contact)
                .and_then(|_| world.set_hit_events(s(0), *hit))
                .and_then(|_| world.set_pre_solve(s(0), *pre)),
        ),
        Op::Explode(e) => outcome(world.explode(e)),
        Op::Query(q) => {
            let (text, b) = query(world, q, ids);
            bad = b;
            Outcome::Ok(text)
        }
        Op::MoveCharacter {
            controller,
            shape,
            xf,
            desired,
            dt,
            ignore,
        } => match shape.build() {
            Ok(shape) => {
                let ignore = ignore.map(|_| b(0));
                let r = world.move_character(controller, &shape, *xf, *desired, *dt, ignore);
                if let Ok(m) = &r {
                    if !(m.translation.is_finite()
                        && m.ground_normal.is_finite()
                        && m.ground_velocity.is_finite())
                    {
                        bad = Some(format!("move_character: {m:?}"));
                    }
                }
                outcome(r)
            }
            Err(e) => Outcome::Err(format!("constructor: {e:?}")),
        },
        Op::SetGravity(g) => outcome(world.set_gravity(*g)),
        Op::SetWorkers(n) => outcome(world.set_workers(lane_workers(*n, lane))),
        Op::SetSolverSettings(settings) => outcome(world.set_solver_settings(*settings)),
        Op::Step(dt) => {
            world.step(*dt);
            Outcome::Ok(String::new())
        }
        Op::StepWithPlatforms {
            dt,
            up,
            sink_tolerance,
            ..
        } => {
            let hooks = OneWayPlatforms {
                platforms: ids.shapes.clone(),
                up: *up,
                sink_tolerance: *sink_tolerance,
            };
            world.step_with_hooks(*dt, &hooks);
            Outcome::Ok(String::new())
        }
        Op::StepWithHooks {
            dt,
            material,
            refuse_every,
            filter_every,
        } => {
            let hooks = WildHooks {
                material: *material,
                refuse_every: *refuse_every,
                filter_every: *filter_every,
            };
            world.step_with_hooks(*dt, &hooks);
            Outcome::Ok(String::new())
        }
        Op::FixedStep {
            hz,
            max_steps,
            frame_time,
        } => {
            let checked = FixedStepper::try_new(*hz, *max_steps).map(|_| ());
            let mut stepper = FixedStepper::new(*hz, *max_steps);
            let steps = stepper.advance(*frame_time, |dt| world.step(dt));
            Outcome::Ok(format!("{checked:?} {steps} {}", stepper.alpha()))
        }
        Op::RoundTrip | Op::Restore => unreachable!("the run does these itself"),
        Op::Read(_, _, _, p) => Outcome::Ok(read(world, b(0), s(0), j(0), *p)),
        Op::DebugDraw => {
            let mut draw = CountingDraw::default();
            let options = DrawOptions {
                shapes: true,
                contacts: true,
                normals: true,
                aabbs: true,
                joints: true,
                ..DrawOptions::default()
            };
            world.debug_draw(&mut draw, &options);
            Outcome::Ok(format!("{}", draw.0))
        }
    };
    (out, made, bad)
}

/// Runs a query; returns its result as text and a bad hit, if any.
fn query(world: &World, q: &Query, ids: &Ids) -> (String, Option<String>) {
    let mut shapes = Vec::new();
    let mut bad = None;
    let mut check = |what: &str, point: Vec2, normal: Vec2, fraction: f32| {
        if bad_hit(point, normal, fraction) && bad.is_none() {
            bad = Some(format!(
                "{what}: point {point:?}, normal {normal:?}, fraction {fraction:?}"
            ));
        }
    };
    let text = match q {
        Query::Point(p, f) => {
            let r = world.overlap_point(*p, *f, &mut shapes);
            format!("{r:?} {shapes:?}")
        }
        Query::Aabb(a, b, f) => {
            let r = world.overlap_aabb(tumble::Aabb::new(a.min(*b), a.max(*b)), *f, &mut shapes);
            format!("{r:?} {shapes:?}")
        }
        Query::Shape(spec, xf, f) => match spec.build() {
            Ok(shape) => format!(
                "{:?} {shapes:?}",
                world.overlap_shape(&shape, *xf, *f, &mut shapes)
            ),
            Err(e) => format!("constructor: {e:?}"),
        },
        Query::RayClosest(o, t, f) => {
            let hit = world.ray_cast_closest(*o, *t, *f);
            if let Ok(Some(h)) = &hit {
                check("ray_cast_closest", h.point, h.normal, h.fraction);
            }
            format!("{hit:?}")
        }
        Query::RayAll(o, t, f) => {
            let mut hits = Vec::new();
            let r = world.ray_cast_all(*o, *t, *f, &mut hits);
            for h in &hits {
                check("ray_cast_all", h.point, h.normal, h.fraction);
            }
            format!("{r:?} {hits:?}")
        }
        Query::RayCallback(o, t, f, answers) => {
            let mut seen = Vec::new();
            let r = world.ray_cast(*o, *t, *f, |hit| {
                seen.push(*hit);
                answers[(seen.len() - 1) % answers.len()]
            });
            for h in &seen {
                check("ray_cast", h.point, h.normal, h.fraction);
            }
            format!("{r:?} {seen:?}")
        }
        Query::ShapeCast(spec, xf, t, f) => match spec.build() {
            Ok(shape) => {
                let r = world.shape_cast(&shape, *xf, *t, *f);
                if let Ok(Some(h)) = &r {
                    check("shape_cast", h.point, h.normal, h.fraction);
                }
                format!("{r:?}")
            }
            Err(e) => format!("constructor: {e:?}"),
        },
        Query::SensorOverlaps(_) => format!("{:?}", world.sensor_overlaps(ids.shapes[0])),
        Query::Events => {
            let contacts: Vec<_> = world
                .contacts()
                .map(|c| (c.shape_a, c.shape_b, *c.manifold))
                .collect();
            format!(
                "{:?} {:?} {} {contacts:?}",
                world.contact_events(),
                world.sensor_events(),
                world.recycled_contact_count()
            )
        }
    };
    (text, bad)
}

/// Every getter of body `b`, shape `s` and joint `j`, and the world's
/// counts and event lists, as text.
fn read(world: &World, b: BodyId, s: ShapeId, j: JointId, p: Vec2) -> String {
    let mut t = String::new();
    let _ = write!(
        t,
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        world.body_type(b),
        world.transform(b),
        world.position(b),
        world.angle(b),
        world.center_of_mass(b),
        world.linear_velocity(b),
        world.angular_velocity(b),
        world.velocity_at_point(b, p),
        world.mass_data(b),
        world.user_data(b),
        world.body_shapes(b),
        world.motion_locks(b),
        world.is_awake(b),
        world.body_joints(b),
        world.contains_body(b),
    );
    let _ = write!(
        t,
        " {:?} {:?} {:?} {:?}",
        world.shape(s),
        world.shape_def(s),
        world.shape_body(s),
        world.filter(s),
    );
    let _ = write!(
        t,
        " {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        world.joint_bodies(j),
        world.joint_kind(j),
        world.joint_frames(j),
        world.joint_world_frames(j),
        world.joint_angle(j),
        world.joint_translation(j),
        world.joint_length(j),
        world.joint_reaction(j),
        world.joint_motor_impulse(j),
        world.joint_user_data(j),
        world.joint_collide_connected(j),
    );
    let _ = write!(
        t,
        " {} {} {} {} {} {} {:?} {:?} {:?}",
        world.body_count(),
        world.shape_count(),
        world.joint_count(),
        world.contact_count(),
        world.awake_body_count(),
        world.step_count(),
        world.gravity(),
        world.solver_settings(),
        world.frozen_bodies(),
    );
    // Memory, threads and times differ between worker counts by design:
    // read, not compared.
    let _ = (
        world.memory_usage().total(),
        world.worker_threads(),
        world.profile(),
    );
    t
}

// ---------------------------------------------------------------------------
// The run

/// A world's starting settings (the worker count is the run's).
#[derive(Clone, Debug)]
struct Setup {
    gravity: Vec2,
    length_units_per_meter: f32,
    solver: SolverSettings,
    sleeping: bool,
    hit_event_threshold: f32,
}

impl Setup {
    fn world(&self, workers: usize) -> World {
        World::new(WorldSettings {
            gravity: self.gravity,
            length_units_per_meter: self.length_units_per_meter,
            solver: self.solver,
            sleeping: self.sleeping,
            hit_event_threshold: self.hit_event_threshold,
            workers,
            ..WorldSettings::default()
        })
    }
}

/// What went wrong: the class (a panic by its place in the source) and
/// the details.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Panic(String),
    NonFiniteNotFrozen,
    FrozenNotInPlace,
    FrozenListStale,
    NonFiniteContact,
    TooManyContacts,
    ErrorChangedWorld(String),
    NonFiniteQueryHit(String),
    ResultsDiffer(String),
    WorkersDiffer,
    RestoredDiffers,
    SnapshotRefused,
    RoundTripChanged,
}

#[derive(Debug)]
struct Failure {
    /// The index of the call after which it showed.
    call: usize,
    class: Class,
    detail: String,
}

#[derive(Default)]
struct Stats {
    calls: u64,
    errors: u64,
    steps: u64,
    slowest: Option<(Duration, usize, String)>,
}

fn save(world: &World) -> Vec<u8> {
    postcard::to_allocvec(world).expect("a world always serialises")
}

/// Loads a snapshot, catching a panic as an error.
fn load(bytes: &[u8]) -> Result<World, String> {
    match catch_panic(|| postcard::from_bytes::<World>(bytes)) {
        Ok(Ok(w)) => Ok(w),
        Ok(Err(e)) => Err(format!("{e:?}")),
        Err((place, message)) => Err(format!("panicked at {place}: {message}")),
    }
}

/// The snapshot bytes the world would have on one worker: worlds of
/// different worker counts differ in that setting only.
fn save_as_one_worker(world: &mut World) -> Vec<u8> {
    let workers = world.settings().workers;
    world.set_workers(1).unwrap();
    let bytes = save(world);
    world.set_workers(workers).unwrap();
    bytes
}

// Panics are caught and told apart by where they happened, on whichever
// thread; while a run is on, the default hook's message is kept, not
// printed.
static CAPTURING: AtomicBool = AtomicBool::new(false);
static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);
static HOOK: Once = Once::new();

fn install_hook() {
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CAPTURING.load(Ordering::SeqCst) {
                let place = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                let message = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                let mut last = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner());
                if last.is_none() {
                    *last = Some((place, message));
                }
            } else {
                default(info);
            }
        }));
    });
}

/// Runs `f`; a panic comes back as its place and message.
fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, (String, String)> {
    install_hook();
    *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = None;
    CAPTURING.store(true, Ordering::SeqCst);
    let r = catch_unwind(AssertUnwindSafe(f));
    CAPTURING.store(false, Ordering::SeqCst);
    r.map_err(|_| {
        LAST_PANIC
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .unwrap_or_else(|| ("?".into(), "?".into()))
    })
}

/// The promises about one world's state: bodies finite or frozen in
/// place, the frozen list live, contacts finite and at most one per pair
/// of shapes.
fn check_world(world: &World) -> Result<(), (Class, String)> {
    let frozen = world.frozen_bodies();
    for &f in frozen {
        if !world.contains_body(f) {
            return Err((Class::FrozenListStale, format!("{f:?}")));
        }
    }
    for b in world.bodies() {
        let xf = world.transform(b).unwrap();
        let pose = xf.p.is_finite()
            && xf.q.c.is_finite()
            && xf.q.s.is_finite()
            && world.angle(b).unwrap().is_finite();
        let center = world.center_of_mass(b).unwrap();
        let v = world.linear_velocity(b).unwrap();
        let w = world.angular_velocity(b).unwrap();
        let state = || {
            format!(
                "{b:?} {:?}: xf {xf:?}, center {center:?}, v {v:?}, w {w:?}",
                world.body_type(b)
            )
        };
        if frozen.contains(&b) {
            if !pose {
                return Err((Class::FrozenNotInPlace, state()));
            }
        } else if !(pose && center.is_finite() && v.is_finite() && w.is_finite()) {
            return Err((Class::NonFiniteNotFrozen, state()));
        }
    }
    for c in world.contacts() {
        let m = c.manifold;
        let finite = m.normal.is_finite()
            && m.points().iter().all(|p| {
                p.point.is_finite()
                    && p.separation.is_finite()
                    && p.normal_impulse.is_finite()
                    && p.tangent_impulse.is_finite()
            });
        if !finite {
            return Err((
                Class::NonFiniteContact,
                format!(
                    "{:?}-{:?} ({:?}, {:?}): {m:?}",
                    c.shape_a, c.shape_b, c.body_a, c.body_b
                ),
            ));
        }
    }
    let n = world.shape_count();
    if world.contact_count() > n * n.saturating_sub(1) / 2 {
        return Err((
            Class::TooManyContacts,
            format!("{} contacts among {n} shapes", world.contact_count()),
        ));
    }
    Ok(())
}

/// Where two results first differ, with some text around it.
fn difference(a: &Outcome, b: &Outcome) -> String {
    let (a, b) = (format!("{a:?}"), format!("{b:?}"));
    let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let start = at.saturating_sub(120);
    let window = |s: &str| s.get(start..(at + 120).min(s.len())).unwrap_or("").to_string();
    format!("...{}... against ...{}...", window(&a), window(&b))
}

/// Options of one run of a sequence.
#[derive(Clone, Copy)]
struct Options {
    /// Print each call and what it returned.
    trace: bool,
}

/// Runs `ops` on worlds of 1, 2 and 4 workers at once (and, from a
/// `Restore` on, on a world restored from a snapshot), checking every
/// promise after every call.
fn run(setup: &Setup, ops: &[Op], options: Options) -> Result<Stats, Failure> {
    let mut stats = Stats::default();
    let mut lanes: Vec<World> = LANE_WORKERS.iter().map(|&w| setup.world(w)).collect();
    // The restored world, following the 1-worker one (and its worker
    // counts).
    let mut restored: Option<World> = None;
    // Whether it has stepped since it was restored: until then it reports
    // no events (a snapshot holds what decides the next step, not what the
    // last one reported).
    let mut restored_at = 0;
    let mut seen = Seen::default();
    let mut bytes = save(&lanes[0]);
    let fail = |call: usize, class: Class, detail: String| Failure { call, class, detail };
    for (i, op) in ops.iter().enumerate() {
        let Some(ids) = resolve(op, &lanes[0], &seen) else {
            if options.trace {
                println!("{i:3}: {op:?}\n     skipped: no such handle");
            }
            continue;
        };
        let full = match op {
            Op::CreateBody(_) => lanes[0].body_count() >= MAX_BODIES,
            Op::AddShape(..) | Op::AddChain(..) | Op::AddConcave(..) => lanes[0].shape_count() >= MAX_SHAPES,
            Op::CreateJoint { .. } => lanes[0].joint_count() >= MAX_JOINTS,
            _ => false,
        };
        if full {
            continue;
        }
        stats.calls += 1;
        match op {
            Op::RoundTrip => {
                let all = lanes.iter_mut().chain(restored.as_mut());
                for world in all {
                    let before = save(world);
                    let loaded = load(&before).map_err(|e| fail(i, Class::SnapshotRefused, e))?;
                    if save(&loaded) != before {
                        return Err(fail(i, Class::RoundTripChanged, String::new()));
                    }
                    *world = loaded;
                }
                if options.trace {
                    println!("{i:3}: {op:?}");
                }
                continue;
            }
            Op::Restore => {
                restored = Some(load(&bytes).map_err(|e| fail(i, Class::SnapshotRefused, e))?);
                restored_at = lanes[0].step_count();
                if options.trace {
                    println!("{i:3}: {op:?}");
                }
                continue;
            }
            _ => {}
        }
        let steps = matches!(
            op,
            Op::Step(_) | Op::StepWithHooks { .. } | Op::StepWithPlatforms { .. } | Op::FixedStep { .. }
        );
        if steps {
            stats.steps += 1;
        }
        let mut results = Vec::new();
        for (lane, world) in lanes.iter_mut().enumerate() {
            let start = Instant::now();
            let r = catch_panic(|| apply(world, lane, op, &ids));
            if lane == 0 {
                let took = start.elapsed();
                if stats.slowest.as_ref().is_none_or(|s| took > s.0) {
                    stats.slowest = Some((took, i, op.name()));
                }
            }
            let r = r.map_err(|(place, message)| {
                fail(
                    i,
                    Class::Panic(place),
                    format!("on {} workers: {message}", LANE_WORKERS[lane]),
                )
            })?;
            results.push(r);
        }
        if let Some(world) = restored.as_mut() {
            let (out, ..) = catch_panic(|| apply(world, 0, op, &ids)).map_err(|(place, message)| {
                fail(i, Class::Panic(place), format!("restored world: {message}"))
            })?;
            let events = matches!(op, Op::Query(Query::Events));
            let stepped = world.step_count() - restored_at;
            if out != results[0].0 && (stepped >= 1 || !events) {
                return Err(fail(i, Class::RestoredDiffers, difference(&out, &results[0].0)));
            }
        }
        let (out, made, bad) = &results[0];
        if options.trace {
            println!("{i:3}: {op:?}\n     {ids:?} -> {out:?}");
        }
        for (lane, r) in results.iter().enumerate().skip(1) {
            if r.0 != *out {
                let detail = format!("on {} workers: {}", LANE_WORKERS[lane], difference(&r.0, out));
                return Err(fail(i, Class::ResultsDiffer(op.name()), detail));
            }
        }
        if let Some(bad) = bad {
            return Err(fail(i, Class::NonFiniteQueryHit(op.name()), bad.clone()));
        }
        let after = save(&lanes[0]);
        if let Outcome::Err(e) = out {
            stats.errors += 1;
            if after != bytes {
                return Err(fail(i, Class::ErrorChangedWorld(op.name()), e.clone()));
            }
        }
        bytes = after;
        check_world(&lanes[0]).map_err(|(class, detail)| fail(i, class, detail))?;
        if let Some(world) = &restored {
            if save(world) != bytes {
                return Err(fail(i, Class::RestoredDiffers, "snapshot bytes".into()));
            }
        }
        if i % COMPARE_EVERY == COMPARE_EVERY - 1 || i + 1 == ops.len() {
            let reference = save_as_one_worker(&mut lanes[0]);
            for lane in 1..lanes.len() {
                if save_as_one_worker(&mut lanes[lane]) != reference {
                    let detail = format!("{} workers against 1", LANE_WORKERS[lane]);
                    return Err(fail(i, Class::WorkersDiffer, detail));
                }
            }
        }
        seen.bodies.extend(&made.bodies);
        seen.shapes.extend(&made.shapes);
        seen.joints.extend(&made.joints);
    }
    Ok(stats)
}

/// Drops calls from a failing sequence while it still fails the same way:
/// halves, then quarters, down to single calls.
fn shrink(setup: &Setup, ops: &[Op], class: &Class, options: Options) -> (Setup, Vec<Op>) {
    let mut budget = SHRINK_BUDGET;
    let mut fails = |setup: &Setup, ops: &[Op]| -> Option<usize> {
        if budget == 0 {
            return None;
        }
        budget -= 1;
        match run(setup, ops, options) {
            Err(f) if f.class == *class => Some(f.call),
            _ => None,
        }
    };
    let mut best = ops.to_vec();
    let mut setup = setup.clone();
    if let Some(call) = fails(&setup, &best) {
        best.truncate(call + 1);
    }
    // The default settings, if the failure does not need others.
    let plain = Setup {
        gravity: WorldSettings::default().gravity,
        length_units_per_meter: 1.0,
        solver: SolverSettings::default(),
        hit_event_threshold: WorldSettings::default().hit_event_threshold,
        ..setup.clone()
    };
    if fails(&plain, &best).is_some() {
        setup = plain;
    }
    let mut chunk = best.len().div_ceil(2).max(1);
    loop {
        let mut progress = false;
        let mut start = 0;
        while start < best.len() {
            let end = (start + chunk).min(best.len());
            let candidate: Vec<Op> = best[..start].iter().chain(&best[end..]).cloned().collect();
            if let Some(call) = fails(&setup, &candidate) {
                best = candidate;
                best.truncate(call + 1);
                progress = true;
            } else {
                start += chunk;
            }
        }
        if chunk == 1 && !progress {
            break;
        }
        if !progress {
            chunk = chunk.div_ceil(2);
        }
    }
    (setup, best)
}

fn env_u64(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    let text = text.trim();
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// Shrinks a failure and prints it with its seed, its calls, and what each
/// returned.
fn report(seed: u64, setup: &Setup, ops: &[Op], failure: &Failure, options: Options) -> String {
    let (setup, small) = shrink(setup, ops, &failure.class, options);
    let last = run(&setup, &small, options).err();
    let mut text = String::new();
    let _ = writeln!(
        text,
        "sequence {seed:#x}: {:?} after call {} of {} ({})",
        failure.class,
        failure.call,
        ops.len(),
        failure.detail
    );
    let _ = writeln!(text, "shrunk to {} calls on {setup:?}:", small.len());
    for (i, op) in small.iter().enumerate() {
        let _ = writeln!(text, "  {i:3}: {op:?}");
    }
    if let Some(f) = last {
        let _ = writeln!(text, "  -> {:?} after call {}: {}", f.class, f.call, f.detail);
    }
    let _ = writeln!(
        text,
        "replay: TUMBLE_ADVERSARIAL_REPLAY={seed:#x} cargo test -p tumble --release --features serde --test adversarial -- --nocapture"
    );
    text
}

#[test]
fn random_call_sequences_keep_every_promise() {
    let options = Options { trace: false };
    if let Some(seed) = env_u64("TUMBLE_ADVERSARIAL_REPLAY") {
        let (setup, ops) = generate(seed, None);
        let trace = Options { trace: true };
        match run(&setup, &ops, trace) {
            Ok(_) => println!("sequence {seed:#x}: no failure"),
            Err(f) => {
                let text = report(seed, &setup, &ops, &f, options);
                panic!("{text}");
            }
        }
        return;
    }
    let sequences = env_u64("TUMBLE_ADVERSARIAL_SEQUENCES").unwrap_or(CI_SEQUENCES);
    let base = env_u64("TUMBLE_ADVERSARIAL_SEED").unwrap_or(CI_SEED);
    let keep_going = std::env::var("TUMBLE_ADVERSARIAL_KEEP_GOING").is_ok();
    let start = Instant::now();
    let mut total = Stats::default();
    let mut found: Vec<(Class, String)> = Vec::new();
    let mut run_count = 0;
    for k in 0..sequences {
        let seed = sequence_seed(base, k);
        let (setup, ops) = generate(seed, None);
        run_count += 1;
        match run(&setup, &ops, options) {
            Ok(stats) => {
                total.calls += stats.calls;
                total.errors += stats.errors;
                total.steps += stats.steps;
                if let Some(s) = stats.slowest {
                    if total.slowest.as_ref().is_none_or(|t| s.0 > t.0) {
                        total.slowest = Some((s.0, s.1, format!("{} (sequence {seed:#x})", s.2)));
                    }
                }
            }
            Err(f) => {
                total.calls += f.call as u64 + 1;
                if found.iter().any(|(c, _)| *c == f.class) {
                    continue;
                }
                let text = report(seed, &setup, &ops, &f, options);
                println!("{text}");
                found.push((f.class, text));
                if !keep_going {
                    break;
                }
            }
        }
    }
    let took = start.elapsed();
    println!(
        "adversarial: {run_count} sequences, {} calls ({} returned an error, {} steps) in {:.1} s; slowest call {:?}; {} classes of failure",
        total.calls,
        total.errors,
        total.steps,
        took.as_secs_f64(),
        total.slowest,
        found.len()
    );
    assert!(
        found.is_empty(),
        "{} classes of failure:\n{}",
        found.len(),
        found
            .iter()
            .map(|(_, t)| t.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
