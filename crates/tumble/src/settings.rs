//! Every tuning constant of the engine, each with the reason it exists.
//!
//! Lengths are in metres. A game that works in its own length unit (pixels,
//! say) sets [`WorldSettings::length_units_per_meter`] and every length
//! tolerance below is scaled by it, so a 32-pixel box behaves like a 1 m box.

/// A polygon holds at most this many vertices, in fixed arrays (no heap).
/// Eight is enough for any convex part a game needs; larger outlines are
/// decomposed or simplified.
pub const MAX_POLYGON_VERTICES: usize = 8;

/// The collision and constraint tolerance, in metres. Contacts are allowed to
/// overlap this much before position correction pushes them apart: a little
/// permanent overlap keeps resting contacts alive from frame to frame, which
/// is what lets warm starting work. Small enough not to be seen.
pub const LINEAR_SLOP: f32 = 0.005;

/// How far apart (in metres) two shapes may still be and get contact points.
/// These speculative points let the solver stop a body *before* it
/// penetrates: the constraint allows the gap to close exactly, no further.
/// Four slops is enough for a body falling at tens of metres per second to
/// be caught at 60 Hz without pulling resting bodies together.
pub const SPECULATIVE_DISTANCE: f32 = 4.0 * LINEAR_SLOP;

/// How far (in metres) the points of two bodies in contact may move
/// relative to each other, counting the coming step, before their manifold
/// is computed again (see [`SolverSettings::contact_recycling`]). The
/// speculative distance: a feature that could come into touch within it
/// was already within the speculative distance, so it is among the points.
pub const CONTACT_RECYCLE_DISTANCE: f32 = SPECULATIVE_DISTANCE;

/// How much (in metres) a shape's bounding box is fattened in the broadphase
/// tree. A shape that moves less than this keeps its tree node, so most
/// steps touch no tree node at all.
pub const AABB_MARGIN: f32 = 0.1;

/// A moving shape's fat-box margin is this fraction of its extent (the
/// farthest point from its centroid), capped at [`AABB_MARGIN`]: a 0.25 m
/// box gets 2 cm, not 10, so it does not pair with every neighbour within
/// a box width: a margin that is large for the shape's size multiplies
/// the contacts of a crowd of small shapes. A static shape never moves
/// and gets only the speculative distance.
pub const AABB_MARGIN_FRACTION: f32 = 0.125;

/// Points closer than this (in metres) are welded into one when building a
/// convex hull; an edge shorter than this has no reliable normal.
pub const WELD_DISTANCE: f32 = 0.5 * LINEAR_SLOP;

/// Sine of the angle within which two directions count as one where
/// surfaces join: a chain's joint with a slight kink as straight, two
/// shapes' edges laid against each other as facing exactly opposite ways
/// (see [`World`](crate::World)'s seams). About half a degree: a level
/// built with a slight kink still counts as flat there, while a real
/// slope of one in fifty does not.
pub const SIN_TOLERANCE: f32 = 0.01;

/// The fastest (in metres per second) position correction pushes two
/// overlapping bodies apart. A deep overlap (a body teleported into
/// another) is resolved over several steps instead of launching the bodies
/// apart; and a push of a few centimetres per step keeps within what one
/// step's contact normals and anchors can describe: a push of a
/// substantial fraction of a box per substep moves boxes past the points
/// the step's manifolds describe, and a tall pyramid then flies apart.
pub const MAX_PUSH_OUT_SPEED: f32 = 3.0;

/// The world extent (metres, scaled by
/// [`WorldSettings::length_units_per_meter`]): coordinates lie within
/// this distance of the origin on each axis, Box2D's `B2_HUGE`. At 100 km
/// an `f32` resolves positions to 8 mm, the size of the collision
/// tolerances, so a body farther out could neither move smoothly nor
/// rest: farther positions are refused
/// ([`BodyError::OutOfRange`](crate::BodyError::OutOfRange)`("position")`),
/// shapes may reach no farther from their body's origin
/// ([`ShapeError::TooFar`](crate::ShapeError::TooFar)), queries start
/// within it, and a body the step carries past it is frozen where it last
/// was inside and reported by
/// [`World::frozen_bodies`](crate::World::frozen_bodies).
pub const WORLD_EXTENT: f32 = 1.0e5;

/// The length units per metre a world accepts
/// ([`WorldSettings::length_units_per_meter`]): from millimetres-as-metres
/// (a thousandth) to ten thousand units a metre, well past a pixel game's
/// 30 to 100. Past them the scaled tolerances and the world's extent leave
/// the range where `f32` resolves them.
pub const LENGTH_UNITS_RANGE: std::ops::RangeInclusive<f32> = 1.0e-3..=1.0e4;

/// The default [`WorldSettings::max_linear_speed`], metres per second:
/// faster than sound, as Box2D's. At 60 Hz a body at this speed crosses
/// 6.7 m a step; the speculative contacts still catch it against what its
/// fat box reaches, and continuous collision against the static shapes
/// (see [`CONTINUOUS_SAFETY_FACTOR`]).
pub const MAX_LINEAR_SPEED: f32 = 400.0;

/// A dynamic body whose farthest point moves farther in a step than this
/// fraction of its thinnest shape's min extent (the radius of the largest
/// circle about the shape's centroid inside it) is swept from its start
/// pose to its end pose against the static shapes and stopped where it
/// first touches one (continuous collision): it may have passed through
/// one that no contact had seen coming. Box2D v3's default safety
/// factor: at half its thickness a shape cannot yet be through, and the
/// bodies moving less, nearly all of them, cost nothing.
pub const CONTINUOUS_SAFETY_FACTOR: f32 = 0.5;

/// A shape that starts its sweep already touching a static shape (resting
/// on it, sliding along it) is swept again as its core, a circle of this
/// fraction of its min extent about its centroid: it may slide on, and
/// sink as far as the contact lets it, but its core never passes through
/// (Box2D's core fraction).
pub const CONTINUOUS_CORE_FRACTION: f32 = 0.25;

/// The largest rotation (radians) a body may turn in one step; beyond it
/// the small-angle rotation update is meaningless (Box2D's bound too).
pub const MAX_ROTATION_PER_STEP: f32 = 0.25 * std::f32::consts::PI;

/// The default [`WorldSettings::max_step`], seconds: a step as long as a
/// 20 Hz frame. A world stepped at 20 Hz or faster is never split; a
/// longer step (a game's hitch, a breakpoint) runs as several steps no
/// longer than this, so nothing falls through the ground in it.
pub const MAX_STEP: f32 = 1.0 / 20.0;

/// The default [`WorldSettings::max_step_splits`]: as many steps as one
/// call runs at most (Godot's limit on steps a frame), so a step of a
/// minute costs as much as eight, never more.
pub const MAX_STEP_SPLITS: u32 = 8;

/// The most [`WorldSettings::max_step_splits`] may be.
pub const MAX_STEP_SPLITS_LIMIT: u32 = 1000;

/// The shortest step (seconds) the world takes: a shorter `dt` does
/// nothing. A microsecond is a megahertz step rate, beyond any rigid-body
/// simulation's need; below it the inverse of the substep, which scales
/// every bias velocity, loses range (at `f32::MIN_POSITIVE` it is
/// infinite).
pub const MIN_STEP: f32 = 1.0e-6;

/// The fastest (in metres per second) a joint's drift correction moves its
/// two frames together: the soft step pulls a gap closed at its rate
/// times the gap, so a gap of metres (a jointed body teleported, joints
/// that fight over long arms) would otherwise be closed at hundreds of
/// metres per second, a speed the relax pass takes back only if it
/// converges; joined by long arms it does not, and the rest stays in the
/// bodies, step after step, until the world blows up. The gaps that
/// loaded joints open in motion close below it (the joint grid's net,
/// falling and swinging from its fixed middle, opens up to 0.35 m, closed
/// at about 23 m/s at the default 60 Hz); a gap of metres closes at this
/// speed, over several steps. Much lower, a whipping net cannot catch its
/// own gaps and tears. Every rigid row whose drift is a length is
/// capped alike: a hinge's or weld's point, a slider's line (prismatic
/// and wheel) and its limits, a rod's length and a distance joint's
/// limits. Angles are not (a turn moves each body about its own
/// center), nor springs: their pull is the user's.
pub const MAX_JOINT_PUSH_SPEED: f32 = 50.0;

/// How the solver removes overlap that the velocity solve left behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PositionCorrection {
    /// Split impulses: the overlap is pushed out through a separate
    /// pseudo-velocity that reaches only the position integrator, so the
    /// correction never turns into kinetic energy. Stiffer than the soft
    /// step (a stack of 40 sinks 7 cm, not 44) and stiller on small
    /// scenes, but a large pyramid stands only with
    /// [`Coloring::Ordered`], whose sequential sweep carries the load up
    /// (and threads poorly).
    SplitImpulse,
    /// Baumgarte stabilisation: a bias velocity is added to the normal
    /// constraint. Simple, but the push-apart velocity stays in the bodies
    /// and a stack chatters.
    Baumgarte,
    /// No position correction at all: drift is never undone and a stack
    /// slowly sinks into itself. Kept for the stability report.
    None,
    /// The soft step (as Box2D v3 and Rapier 0.35 solve contacts): each
    /// substep solves the contacts once with a soft push-out (a spring of
    /// [`SolverSettings::contact_hertz`] and
    /// [`SolverSettings::contact_damping_ratio`], stiffer against static
    /// bodies), moves the bodies, then relaxes the velocities without it,
    /// so the push-out never stays in the bodies as speed (given at least
    /// two [`SolverSettings::iterations`] a substep: one pushes, one
    /// relaxes). A resting contact then gives like a spring of that
    /// frequency, each point softened by its own effective mass as in
    /// Box2D (a square box on the ground sinks `1.25 g / omega^2`, 0.09 mm
    /// at 60 Hz). Two-point manifolds are solved as one block. The
    /// default: with [`Coloring::Bounded`] it stands pyramids of 100 rows
    /// and threads.
    SoftStep,
}

impl PositionCorrection {
    /// The name used in reports: `split-impulse`, `baumgarte`, `none`.
    pub fn name(self) -> &'static str {
        match self {
            PositionCorrection::SplitImpulse => "split-impulse",
            PositionCorrection::Baumgarte => "baumgarte",
            PositionCorrection::None => "none",
            PositionCorrection::SoftStep => "soft-step",
        }
    }
}

/// The order in which each velocity iteration visits the contact points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Sweep {
    /// Forward on even iterations, backward on odd ones. Once meant to keep a
    /// forward-only sweep from always solving the same corner of each box
    /// first; two-point manifolds are now solved as one block, which leaves
    /// no corner order to bias. Kept for the stability report.
    Alternating,
    /// Always forward. The default: at the same cost, a tall pyramid
    /// settles about twice as well as with alternating sweeps (100 rows,
    /// 600 steps: worst moved 0.78 m instead of 1.50 m, sink 0.60 m instead
    /// of 1.39 m; see the stability report).
    Forward,
}

impl Sweep {
    /// The name used in reports: `alternating`, `forward`.
    pub fn name(self) -> &'static str {
        match self {
            Sweep::Alternating => "alternating",
            Sweep::Forward => "forward",
        }
    }
}

/// How the solver groups its constraints into colors: sets in which no
/// dynamic body appears twice, so that a color's constraints can be
/// solved at the same time (in lanes of a vector register, and split
/// over the worker threads) with the same result as one after the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Coloring {
    /// At most [`GRAPH_COLORS`] colors, kept from step to step (as Box2D
    /// v3 does): a contact or joint that begins (or wakes) takes the first
    /// color free for both its dynamic bodies (those with a static body
    /// search from the last color down, so they are solved after the
    /// contacts between moving bodies) and keeps it until it ends (or
    /// sleeps); what finds no color goes to an overflow solved one at a
    /// time, and tries again each step. Few colors means few thread
    /// barriers and full lanes. The default.
    Bounded,
    /// Colors in constraint order: a constraint's color is one more than
    /// the last color either of its dynamic bodies took, so sweeping the
    /// colors is exactly the sequential sweep in contact order, only
    /// several constraints at a time. The color count grows with the
    /// scene (about 126 on a 40-row pyramid), so it threads poorly; kept
    /// for the solver study.
    Ordered,
    /// No colors: every constraint is solved one at a time, in contact
    /// order, on one thread (the reference path).
    Off,
}

impl Coloring {
    /// The name used in reports: `bounded`, `ordered`, `off`.
    pub fn name(self) -> &'static str {
        match self {
            Coloring::Bounded => "bounded",
            Coloring::Ordered => "ordered",
            Coloring::Off => "off",
        }
    }
}

/// How many constraints the solver's lane kernels solve at once: the
/// contacts, hinges and body integration of a graph color, in lanes of a
/// vector register. Only the speed depends on it, never the results: each
/// lane computes exactly what the one-at-a-time kernel would, and a
/// color's constraints share no body, so every width gives the same bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LaneWidth {
    /// The widest this processor runs: eight lanes (AVX2) on x86-64
    /// processors that have AVX2, detected when the solver starts a step;
    /// four elsewhere. A world of a few dozen awake bodies runs four wide
    /// whatever the processor: its graph colors would leave most of eight
    /// lanes empty. The default.
    #[default]
    Widest,
    /// Four lanes (SSE on x86-64, NEON on aarch64) on every processor.
    Four,
}

impl LaneWidth {
    /// The name used in reports: `widest`, `four`.
    pub fn name(self) -> &'static str {
        match self {
            LaneWidth::Widest => "widest",
            LaneWidth::Four => "four",
        }
    }

    /// The lanes a batch has under this setting on this processor, in a
    /// world of many bodies: 8 or 4.
    pub fn lanes(self) -> usize {
        match self {
            #[cfg(target_arch = "x86_64")]
            LaneWidth::Widest if crate::threads::has_avx2() => 8,
            LaneWidth::Widest | LaneWidth::Four => 4,
        }
    }
}

/// The most colors [`Coloring::Bounded`] uses (Box2D v3's count): enough
/// for any body touching up to about twenty others. Constraints that fit
/// in none go to the overflow.
pub const GRAPH_COLORS: usize = 24;

/// The colors a contact between two dynamic bodies may take (the first
/// ones): the last few are kept for contacts with a static body, which
/// need a color free on one body only and are many on a ground.
pub const DYNAMIC_GRAPH_COLORS: usize = GRAPH_COLORS - 4;

/// Solver options, all switchable at run time through
/// [`World::set_solver_settings`](crate::World::set_solver_settings), which
/// checks them.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SolverSettings {
    /// Velocity iterations per step, 1..=16, shared out over the substeps
    /// (any left over go to the first ones). More iterations converge
    /// further towards the exact coupled solution of all contacts. Under
    /// the soft step ([`PositionCorrection::SoftStep`]) a substep's
    /// iterations are split: the first half (at least one) push overlap
    /// out, the rest relax; a substep with a single iteration has no
    /// relax, and what its contacts push out stays in the bodies as speed.
    pub iterations: u32,
    /// Substeps per step, 1..=8 (never more than `iterations`): the step is
    /// split into this many smaller ones that share one collision pass. A
    /// stack carries its load far better with 4 substeps of 2 iterations
    /// than with 1 substep of 8, at about the same cost.
    pub substeps: u32,
    /// Start each step from the impulses the same contact points needed in
    /// the previous step (matched by feature id). Without it a stack has to
    /// rediscover its whole load every step and never quite does.
    pub warm_starting: bool,
    /// How overlap is removed.
    pub position_correction: PositionCorrection,
    /// How independent constraints are grouped to be solved several at a
    /// time, in lanes (see [`LaneWidth`]): see [`Coloring`].
    pub coloring: Coloring,
    /// Sweep order of the velocity iterations.
    pub sweep: Sweep,
    /// Fraction of the remaining overlap removed per step (split impulses and
    /// Baumgarte). 0.2 removes overlap in a handful of steps without
    /// overshooting.
    pub baumgarte: f32,
    /// Restitution applies only when bodies approach faster than this
    /// (metres per second): below it, a resting body would jitter on its own
    /// tiny bounces.
    pub restitution_threshold: f32,
    /// Keep a contact's manifold while its two bodies have moved less than
    /// [`CONTACT_RECYCLE_DISTANCE`] relative to each other since it was
    /// computed, moving its points with the bodies instead of colliding the
    /// shapes again (contact recycling, an idea of Box2D v3.2), and while no
    /// corner of a face's manifold has slid more than [`LINEAR_SLOP`] past
    /// the end of its face. A resting pile then costs almost no
    /// narrowphase. Off collides every pair every step.
    #[cfg_attr(feature = "serde", serde(default = "recycling_default"))]
    pub contact_recycling: bool,
    /// The soft step's contact stiffness, Hz (30, Box2D's default; capped
    /// at a quarter of the substep rate): how fast an overlap is pushed
    /// out. Contacts with a static or kinematic body use twice this.
    #[cfg_attr(feature = "serde", serde(default = "contact_hertz_default"))]
    pub contact_hertz: f32,
    /// The soft step's damping ratio (10, Box2D's default: heavily
    /// overdamped, so a pushed-out box does not bounce back).
    #[cfg_attr(feature = "serde", serde(default = "contact_damping_default"))]
    pub contact_damping_ratio: f32,
    /// How stiffly joints pull their bodies back together once they have
    /// come apart, Hz (60, Box2D's default; capped at a quarter of the
    /// substep rate). The velocity part of a joint is rigid; this is only
    /// the soft step's correction of the drift.
    #[cfg_attr(feature = "serde", serde(default = "joint_hertz_default"))]
    pub joint_hertz: f32,
    /// The damping ratio of that correction (2: overdamped, so a joint
    /// pulled back together does not ring).
    #[cfg_attr(feature = "serde", serde(default = "joint_damping_default"))]
    pub joint_damping_ratio: f32,
    /// With several workers, the smallest color of the constraint graph
    /// they share, in lane batches of four one-point contacts (a batch of
    /// two-point contacts counts two, a joint one); a smaller color is
    /// solved by one thread while the others wait (default 100). Handing
    /// a color over costs about what a few dozen one-point batches take to
    /// solve, and half of the color's bodies were last written on the
    /// other core: below about a hundred batches sharing gains nothing. For the same
    /// reason the workers share the substeps only when the colors this
    /// big hold at least three quarters of the solver's work; otherwise
    /// one thread solves them all. 0 shares every color. Only the speed
    /// depends on it, never the results.
    #[cfg_attr(feature = "serde", serde(default = "min_shared_color_default"))]
    pub min_shared_color: u32,
    /// How many constraints the lane kernels solve at once: see
    /// [`LaneWidth`] (the widest the processor runs, by default).
    #[cfg_attr(feature = "serde", serde(default))]
    pub lane_width: LaneWidth,
}

/// Serde's value for a missing `min_shared_color`: the default.
#[cfg(feature = "serde")]
fn min_shared_color_default() -> u32 {
    SolverSettings::default().min_shared_color
}

/// Serde's value for a missing `joint_hertz`: the default.
#[cfg(feature = "serde")]
fn joint_hertz_default() -> f32 {
    SolverSettings::default().joint_hertz
}

/// Serde's value for a missing `joint_damping_ratio`: the default.
#[cfg(feature = "serde")]
fn joint_damping_default() -> f32 {
    SolverSettings::default().joint_damping_ratio
}

/// Serde's value for a missing `contact_hertz`: the default.
#[cfg(feature = "serde")]
fn contact_hertz_default() -> f32 {
    SolverSettings::default().contact_hertz
}

/// Serde's value for a missing `contact_damping_ratio`: the default.
#[cfg(feature = "serde")]
fn contact_damping_default() -> f32 {
    SolverSettings::default().contact_damping_ratio
}

/// Serde's value for a missing `contact_recycling`: the default.
#[cfg(feature = "serde")]
fn recycling_default() -> bool {
    true
}

impl Default for SolverSettings {
    fn default() -> Self {
        SolverSettings {
            iterations: 8,
            substeps: 4,
            warm_starting: true,
            position_correction: PositionCorrection::SoftStep,
            coloring: Coloring::Bounded,
            sweep: Sweep::Forward,
            baumgarte: 0.2,
            restitution_threshold: 1.0,
            contact_recycling: true,
            contact_hertz: 30.0,
            contact_damping_ratio: 10.0,
            joint_hertz: 60.0,
            joint_damping_ratio: 2.0,
            min_shared_color: 100,
            lane_width: LaneWidth::Widest,
        }
    }
}

/// The smallest and largest velocity iteration counts the solver accepts.
pub const ITERATIONS_RANGE: std::ops::RangeInclusive<u32> = 1..=16;

/// The smallest and largest substep counts the solver accepts.
pub const SUBSTEPS_RANGE: std::ops::RangeInclusive<u32> = 1..=8;

impl SolverSettings {
    /// Checks every field: iterations in [`ITERATIONS_RANGE`], substeps
    /// in [`SUBSTEPS_RANGE`], `baumgarte` in 0..=1, a restitution
    /// threshold >= 0, contact and joint stiffnesses > 0 and damping
    /// ratios >= 0, all finite. The error names the first bad field.
    pub fn validate(&self) -> Result<(), crate::BodyError> {
        use crate::BodyError::{NonFinite, OutOfRange};
        if !ITERATIONS_RANGE.contains(&self.iterations) {
            return Err(OutOfRange("iterations"));
        }
        if !SUBSTEPS_RANGE.contains(&self.substeps) {
            return Err(OutOfRange("substeps"));
        }
        let mut copy = *self;
        for ((name, range), x) in FLOAT_RANGES.iter().zip(copy.floats_mut()) {
            if !x.is_finite() {
                return Err(NonFinite(name));
            }
            if !range.contains(x) {
                return Err(OutOfRange(name));
            }
        }
        Ok(())
    }

    /// The same settings with every field that [`SolverSettings::validate`]
    /// would refuse brought into range: counts clamped, a bad float
    /// replaced by its default.
    pub fn repaired(self) -> SolverSettings {
        let mut out = SolverSettings {
            iterations: self
                .iterations
                .clamp(*ITERATIONS_RANGE.start(), *ITERATIONS_RANGE.end()),
            substeps: self
                .substeps
                .clamp(*SUBSTEPS_RANGE.start(), *SUBSTEPS_RANGE.end()),
            ..self
        };
        let mut default = SolverSettings::default();
        for (((_, range), x), d) in FLOAT_RANGES
            .iter()
            .zip(out.floats_mut())
            .zip(default.floats_mut())
        {
            if !range.contains(x) {
                *x = *d;
            }
        }
        out
    }

    /// The float fields, in the order of [`FLOAT_RANGES`].
    fn floats_mut(&mut self) -> [&mut f32; 6] {
        [
            &mut self.baumgarte,
            &mut self.restitution_threshold,
            &mut self.contact_hertz,
            &mut self.contact_damping_ratio,
            &mut self.joint_hertz,
            &mut self.joint_damping_ratio,
        ]
    }
}

/// Each float solver setting's name and the (finite) range it must lie in,
/// for [`SolverSettings::validate`] and [`SolverSettings::repaired`] alike.
const FLOAT_RANGES: [(&str, std::ops::RangeInclusive<f32>); 6] = [
    ("baumgarte", 0.0..=1.0),
    ("restitution threshold", 0.0..=f32::MAX),
    ("contact hertz", f32::MIN_POSITIVE..=f32::MAX),
    ("contact damping ratio", 0.0..=f32::MAX),
    ("joint hertz", f32::MIN_POSITIVE..=f32::MAX),
    ("joint damping ratio", 0.0..=f32::MAX),
];

/// A body whose every point moves slower than this (metres per second) is
/// resting, as far as sleeping goes (see
/// [`BodyDef::sleep_threshold`](crate::BodyDef::sleep_threshold)). Box2D v3's
/// default: slow enough that a body still settling is not frozen, fast
/// enough that a pile's last jitter counts as rest.
pub const SLEEP_THRESHOLD: f32 = 0.05;

/// How long (seconds) every body of an island must have rested before the
/// island falls asleep. Half a second: a ball at the top of its arc, or a
/// box rocking to rest, passes through zero speed for far less.
pub const TIME_TO_SLEEP: f32 = 0.5;

/// World-wide settings fixed at creation.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WorldSettings {
    /// Gravity in length units per second squared. Default (0, -10).
    pub gravity: glam::Vec2,
    /// Length units per metre. 1 for a game in metres; 32 for a game whose
    /// 1 m crate is 32 pixels. Every length tolerance (slop, speculative
    /// distance, AABB margin) and limit ([`WORLD_EXTENT`],
    /// [`WorldSettings::max_linear_speed`]'s default) is scaled by it. It
    /// lies in [`LENGTH_UNITS_RANGE`].
    pub length_units_per_meter: f32,
    /// Solver options.
    pub solver: SolverSettings,
    /// Let islands of resting bodies fall asleep (on by default): a
    /// sleeping body is not integrated, collided or solved until something
    /// wakes it. Changed at run time with
    /// [`World::set_sleeping`](crate::World::set_sleeping).
    #[cfg_attr(feature = "serde", serde(default = "sleeping_default"))]
    pub sleeping: bool,
    /// The approach speed (m/s, scaled by the length unit) above which a
    /// contact beginning to touch is reported as a hit
    /// ([`ContactHit`](crate::ContactHit)). Default 1 m/s.
    #[cfg_attr(feature = "serde", serde(default = "hit_threshold_default"))]
    pub hit_event_threshold: f32,
    /// Threads the step runs on, 1 to [`MAX_WORKERS`] (default 1): with
    /// more, the world keeps a pool of that many threads (with the
    /// `parallel` feature, on by default) and splits the collide stage,
    /// the bodies' integration and each graph color's batches between
    /// them. The results are the same bits for every count; the speed-up
    /// needs [`Coloring::Bounded`], whose few colors are few waits.
    /// Changed at run time with
    /// [`World::set_workers`](crate::World::set_workers).
    #[cfg_attr(feature = "serde", serde(default = "workers_default"))]
    pub workers: usize,
    /// The fastest a body moves (metres per second, scaled by the length
    /// unit; default [`MAX_LINEAR_SPEED`]): a body set or pushed faster is
    /// slowed to it, in the direction it moves, before the step solves it,
    /// so nothing the solve computes from speeds can overflow.
    /// Changed at run time with
    /// [`World::set_max_linear_speed`](crate::World::set_max_linear_speed).
    #[cfg_attr(feature = "serde", serde(default = "max_linear_speed_default"))]
    pub max_linear_speed: f32,
    /// The longest step the world takes at once (seconds, default
    /// [`MAX_STEP`]): a call to [`World::step`](crate::World::step) with a
    /// longer `dt` runs it as equal steps no longer than this, at most
    /// [`WorldSettings::max_step_splits`] of them; time beyond that is
    /// dropped (the world runs slow for a moment rather than unstable).
    /// Changed with [`World::set_max_step`](crate::World::set_max_step).
    #[cfg_attr(feature = "serde", serde(default = "max_step_default"))]
    pub max_step: f32,
    /// The most steps one call to [`World::step`](crate::World::step) runs
    /// (default [`MAX_STEP_SPLITS`], at most [`MAX_STEP_SPLITS_LIMIT`]):
    /// the cost of a call is bounded whatever its `dt`.
    #[cfg_attr(feature = "serde", serde(default = "max_step_splits_default"))]
    pub max_step_splits: u32,
    /// Collide welded polygons as one surface (on by default). Two
    /// polygons that never move relative to each other (shapes of one
    /// body, or of two static bodies) and lie edge against edge, as the
    /// tiles of a tile map do, have a seam between them: edges inside the
    /// solid, which nothing outside can touch. With this on, a body
    /// sliding or rolling over the join meets the flat surface (or the
    /// real corner) the polygons make together, where off it catches on
    /// the seam's edges as if each polygon stood alone (a ghost
    /// collision). Polygons without seams collide as they do without it.
    /// Changed at run time with
    /// [`World::set_smooth_seams`](crate::World::set_smooth_seams).
    #[cfg_attr(feature = "serde", serde(default = "smooth_seams_default"))]
    pub smooth_seams: bool,
    /// Time each stage of the step into [`World::profile`](crate::World::profile)
    /// (on by default). Off, the step reads no clock and the profile stays
    /// zero: the timing takes about seventeen clock reads a step, a few
    /// percent of a world of a few bodies' step (a game's character, a
    /// reinforcement-learning environment), nothing measurable in a large
    /// one. Changed at run time with
    /// [`World::set_profiling`](crate::World::set_profiling).
    #[cfg_attr(feature = "serde", serde(default = "profiling_default"))]
    pub profiling: bool,
}

/// Serde's value for a missing `profiling`: on.
#[cfg(feature = "serde")]
fn profiling_default() -> bool {
    true
}

/// Serde's value for a missing `smooth_seams`: on.
#[cfg(feature = "serde")]
fn smooth_seams_default() -> bool {
    true
}

/// Serde's value for a missing `max_linear_speed`: the default.
#[cfg(feature = "serde")]
fn max_linear_speed_default() -> f32 {
    MAX_LINEAR_SPEED
}

/// Serde's value for a missing `max_step`: the default.
#[cfg(feature = "serde")]
fn max_step_default() -> f32 {
    MAX_STEP
}

/// Serde's value for a missing `max_step_splits`: the default.
#[cfg(feature = "serde")]
fn max_step_splits_default() -> u32 {
    MAX_STEP_SPLITS
}

/// Serde's value for a missing `workers`: one.
#[cfg(feature = "serde")]
fn workers_default() -> usize {
    1
}

pub use crate::threads::MAX_WORKERS;

/// Serde's value for a missing `hit_event_threshold`: the default.
#[cfg(feature = "serde")]
fn hit_threshold_default() -> f32 {
    HIT_EVENT_THRESHOLD
}

/// The default [`WorldSettings::hit_event_threshold`], m/s: slower than
/// this, a landing is a touch, not a hit.
pub const HIT_EVENT_THRESHOLD: f32 = 1.0;

/// Serde's value for a missing `sleeping`: the default.
#[cfg(feature = "serde")]
fn sleeping_default() -> bool {
    true
}

impl Default for WorldSettings {
    fn default() -> Self {
        WorldSettings {
            gravity: glam::Vec2::new(0.0, -10.0),
            length_units_per_meter: 1.0,
            solver: SolverSettings::default(),
            sleeping: true,
            hit_event_threshold: HIT_EVENT_THRESHOLD,
            workers: 1,
            max_linear_speed: MAX_LINEAR_SPEED,
            max_step: MAX_STEP,
            max_step_splits: MAX_STEP_SPLITS,
            smooth_seams: true,
            profiling: true,
        }
    }
}
