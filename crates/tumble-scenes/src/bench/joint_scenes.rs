//! The benchmark's joint scenes: Box2D's own joint grid (a net of
//! circles hinged to their neighbours, hanging from seven fixed ones) and
//! a thousand ragdolls, each the eleven-bone human of Box2D's samples,
//! dropped on the ground in a heap; and two of quality: twenty ragdolls
//! in a box, and one with feet tumbling down stairs.

use super::{
    gravity, ground, shape_mass, BodySpec, FilterSpec, Geometry, JointSpec, Motion, Quality, ShapeSpec, Spec,
    V2,
};
use crate::GROUND_HALF_WIDTH;
use std::f32::consts::{FRAC_PI_2, PI};

/// Circles along each side of the joint grid (100 x 100 = 10 000).
pub const JOINT_GRID_SIZE: u32 = 100;

/// The static circles in the middle of the grid's top row (an odd
/// count): columns `size / 2 - 3 ..= size / 2 + 3` of it.
pub const JOINT_GRID_FIXED: u32 = 7;

/// The grid circles' collision category. Their mask leaves it out, so no
/// two circles collide (Box2D's scene does the same).
const GRID_CATEGORY: u64 = 2;

/// Box2D's `joint_grid` benchmark: a 100 x 100 grid of circles of radius
/// 0.4 m on a 1 m pitch, each hinged to its left and its upper
/// neighbour, hanging from the seven circles in the middle of the top
/// row, which are static. Box2D also hinges those seven to each other;
/// a joint between two static bodies holds nothing (Box2D never solves
/// it, Tumble refuses it), so the spec leaves those six out and every
/// engine builds the same 19 794 joints. The circles do not collide
/// with each other and there is no ground: the net falls and swings
/// from its fixed middle, and only the joints hold it together.
pub fn joint_grid() -> Spec {
    joint_grid_of(JOINT_GRID_SIZE)
}

/// The joint grid with `size` circles a side (at least 7; `joint-grid`
/// has 100). Column `k` of row `i` is at `(k, -i)`, body `k * size + i`;
/// each circle's joint to its upper neighbour comes before the one to its
/// left neighbour, in the order Box2D makes them.
pub fn joint_grid_of(size: u32) -> Spec {
    assert!(size >= JOINT_GRID_FIXED, "the fixed circles fit in the top row");
    let fixed = size / 2 - JOINT_GRID_FIXED / 2..=size / 2 + JOINT_GRID_FIXED / 2;
    let circle = ShapeSpec::new(Geometry::Circle { radius: 0.4 }).with_filter(FilterSpec {
        category: GRID_CATEGORY,
        mask: !GRID_CATEGORY,
        group: 0,
    });
    let n = size as usize;
    let mut bodies = Vec::with_capacity(n * n);
    let mut joints = Vec::with_capacity(2 * n * (n - 1));
    for k in 0..n {
        for i in 0..n {
            let motion = if i == 0 && fixed.contains(&(k as u32)) {
                Motion::Static
            } else {
                Motion::Dynamic
            };
            let at = V2::new(k as f32, -(i as f32));
            let index = bodies.len();
            bodies.push(BodySpec::new(motion, at, circle.clone()));
            if i > 0 {
                joints.push(JointSpec::revolute(index - 1, index, at + V2::new(0.0, 0.5)));
            }
            if k > 0 {
                let left = index - n;
                let both_fixed = motion == Motion::Static && bodies[left].motion == Motion::Static;
                if !both_fixed {
                    joints.push(JointSpec::revolute(left, index, at - V2::new(0.5, 0.0)));
                }
            }
        }
    }
    Spec {
        name: "joint-grid",
        steps: 500,
        gravity: gravity(),
        bodies,
        joints,
        quality: Quality::JointGap,
        sleeping: false,
    }
}

/// One bone of the ragdoll: an upright capsule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RagdollBone {
    /// The bone's name.
    pub name: &'static str,
    /// Height of the capsule's center above the ragdoll's feet line
    /// (its origin), metres.
    pub height: f32,
    /// Half the distance between the capsule's cap centers.
    pub half_length: f32,
    /// Cap radius.
    pub radius: f32,
}

/// The hinge that holds one bone to its parent.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Hinge {
    /// The bone (body B), an index into [`RAGDOLL_BONES`].
    bone: usize,
    /// Its parent (body A).
    parent: usize,
    /// Height of the hinge above the ragdoll's origin.
    height: f32,
    /// Angle limits, in half turns (multiples of pi), measured from the
    /// starting pose.
    lower: f32,
    /// See `lower`.
    upper: f32,
    /// The angle the spring pulls towards, in half turns.
    rest: f32,
    /// The hinge's share of [`RAGDOLL_FRICTION_TORQUE`].
    friction_scale: f32,
}

/// The human of Box2D's samples (`shared/human.c`) at scale 1, standing
/// with its arms down: hip, torso, head, then the upper and lower left
/// leg, the right leg, the upper and lower left arm and the right arm.
/// Box2D's bones are capsules along their body's y axis, some off its
/// origin; here each body sits on its capsule's center, so every engine
/// agrees where its center of mass is. Left out: Box2D's feet (a small
/// rounded polygon on each lower leg that only meets the ground) and the
/// light linear damping (0.1) of its head and forearms; every bone is one
/// capsule.
pub const RAGDOLL_BONES: [RagdollBone; 11] = {
    const fn bone(name: &'static str, height: f32, half_length: f32, radius: f32) -> RagdollBone {
        RagdollBone {
            name,
            height,
            half_length,
            radius,
        }
    }
    let upper_leg = (0.775, 0.125, 0.06);
    let lower_leg = (0.46, 0.14, 0.045);
    let upper_arm = (1.225, 0.125, 0.035);
    let lower_arm = (0.975, 0.125, 0.03);
    [
        bone("hip", 0.95, 0.02, 0.095),
        bone("torso", 1.2, 0.135, 0.09),
        bone("head", 1.4755, 0.0385, 0.075),
        bone("upper left leg", upper_leg.0, upper_leg.1, upper_leg.2),
        bone("lower left leg", lower_leg.0, lower_leg.1, lower_leg.2),
        bone("upper right leg", upper_leg.0, upper_leg.1, upper_leg.2),
        bone("lower right leg", lower_leg.0, lower_leg.1, lower_leg.2),
        bone("upper left arm", upper_arm.0, upper_arm.1, upper_arm.2),
        bone("lower left arm", lower_arm.0, lower_arm.1, lower_arm.2),
        bone("upper right arm", upper_arm.0, upper_arm.1, upper_arm.2),
        bone("lower right arm", lower_arm.0, lower_arm.1, lower_arm.2),
    ]
};

/// The ten hinges of the human, child after parent, with Box2D's pivots
/// and limits. Box2D turns the elbow's frame on the upper arm by a quarter
/// of a half turn, so its limits (-0.2 to 0.3) and spring rest (0) are
/// measured from an elbow bent 45 degrees; here they are measured from the
/// straight starting arm, so the same range reads 0.05 to 0.55 with the
/// rest at 0.25. Both the knee's and the elbow's ranges leave out the
/// straight pose the ragdoll starts in, as in Box2D.
const HINGES: [Hinge; 10] = {
    const fn hinge(
        bone: usize,
        parent: usize,
        height: f32,
        limits: (f32, f32),
        rest: f32,
        friction_scale: f32,
    ) -> Hinge {
        Hinge {
            bone,
            parent,
            height,
            lower: limits.0,
            upper: limits.1,
            rest,
            friction_scale,
        }
    }
    let hip_joint = (-0.05, 0.4);
    let knee = (-0.5, -0.02);
    let shoulder = (-0.1, 0.8);
    let elbow = (-0.2 + 0.25, 0.3 + 0.25);
    [
        hinge(1, 0, 1.0, (-0.25, 0.0), 0.0, 0.5),
        hinge(2, 1, 1.4, (-0.3, 0.1), 0.0, 0.25),
        hinge(3, 0, 0.9, hip_joint, 0.0, 1.0),
        hinge(4, 3, 0.625, knee, 0.0, 0.5),
        hinge(5, 0, 0.9, hip_joint, 0.0, 1.0),
        hinge(6, 5, 0.625, knee, 0.0, 0.5),
        hinge(7, 1, 1.35, shoulder, 0.0, 0.5),
        hinge(8, 7, 1.1, elbow, 0.25, 0.1),
        hinge(9, 1, 1.35, shoulder, 0.0, 0.5),
        hinge(10, 9, 1.1, elbow, 0.25, 0.1),
    ]
};

/// The joints' friction torque at full share, N m (Box2D's ragdoll rain
/// benchmark uses 0.05); each joint resists turning with its share.
pub const RAGDOLL_FRICTION_TORQUE: f32 = 0.05;
/// The joints' spring stiffness, Hz (Box2D's rain benchmark's).
pub const RAGDOLL_SPRING_HERTZ: f32 = 5.0;
/// The joints' spring damping ratio (Box2D's rain benchmark's).
pub const RAGDOLL_SPRING_DAMPING_RATIO: f32 = 0.5;
/// The bones' friction (Box2D's human's), and the ground's in the ragdoll
/// scene: every pair that touches has the same coefficient whatever rule
/// an engine mixes two with.
pub const RAGDOLL_FRICTION: f32 = 0.2;
/// The ragdolls' collision category; their mask holds it and the
/// ground's (1), so ragdolls collide with each other and the ground, and
/// each ragdoll's own group keeps its bones apart.
const RAGDOLL_CATEGORY: u64 = 2;

/// Ragdolls along a row of the starting grid.
pub const RAGDOLL_COLUMNS: u32 = 25;
/// Rows of ragdolls in the starting grid.
pub const RAGDOLL_ROWS: u32 = 40;
/// Spacing of the starting grid, metres: sideways (a ragdoll is 0.19 m
/// wide) and upwards (it is 1.59 m tall). Every other row is shifted half
/// a column, so no ragdoll lands squarely on the one below.
pub const RAGDOLL_PITCH: V2 = V2::new(1.0, 2.0);

/// The bodies (in [`RAGDOLL_BONES`] order) and joints of ragdoll number
/// `index`, standing with its origin (the ground under its feet) at
/// `origin`, its first bone to be body `first_body` of the spec (the
/// joints name bodies by index). Its bones share the negative group
/// `-(index + 1)`, so none of them collides with another; the joints'
/// collide_connected is off too, as in Box2D's human.
pub fn ragdoll(origin: V2, first_body: usize, index: u32) -> (Vec<BodySpec>, Vec<JointSpec>) {
    let filter = FilterSpec {
        category: RAGDOLL_CATEGORY,
        mask: 1 | RAGDOLL_CATEGORY,
        group: -(index as i32 + 1),
    };
    let bodies = RAGDOLL_BONES
        .iter()
        .map(|bone| {
            let capsule = ShapeSpec::new(Geometry::Capsule {
                half_length: bone.half_length,
                radius: bone.radius,
            })
            .with_friction(RAGDOLL_FRICTION)
            .with_filter(filter);
            // A capsule lies along its body's x axis: the body is turned a
            // quarter turn to stand it up.
            BodySpec {
                angle: FRAC_PI_2,
                ..BodySpec::new(Motion::Dynamic, origin + V2::new(0.0, bone.height), capsule)
            }
        })
        .collect();
    let joints = HINGES
        .iter()
        .map(|h| {
            JointSpec::revolute(
                first_body + h.parent,
                first_body + h.bone,
                origin + V2::new(0.0, h.height),
            )
            .with_limits(h.lower * PI, h.upper * PI)
            .with_friction(h.friction_scale * RAGDOLL_FRICTION_TORQUE)
            .with_spring(RAGDOLL_SPRING_HERTZ, RAGDOLL_SPRING_DAMPING_RATIO, h.rest * PI)
        })
        .collect();
    (bodies, joints)
}

/// 1000 ragdolls (11 000 bones, 10 000 joints with limits, friction and
/// springs) dropped from a 25 x 40 grid onto the ground, where they pile
/// up: contacts between many small bodies and joints under load at once.
/// Quality: how many bones end below the floor.
pub fn ragdolls() -> Spec {
    ragdolls_of(RAGDOLL_COLUMNS, RAGDOLL_ROWS)
}

/// The ragdoll scene with `columns` x `rows` ragdolls (`ragdolls` has 25 x
/// 40): the ground first, then each ragdoll's bones, row by row from the
/// bottom.
pub fn ragdolls_of(columns: u32, rows: u32) -> Spec {
    let ground = BodySpec {
        shapes: ground()
            .shapes
            .into_iter()
            .map(|s| s.with_friction(RAGDOLL_FRICTION))
            .collect(),
        ..ground()
    };
    let mut bodies = vec![ground];
    let mut joints = Vec::new();
    for row in 0..rows {
        let shift = if row % 2 == 1 { 0.5 } else { 0.0 };
        for col in 0..columns {
            let x = (col as f32 - 0.5 * (columns - 1) as f32 + shift) * RAGDOLL_PITCH.x;
            let origin = V2::new(x, 0.5 + row as f32 * RAGDOLL_PITCH.y);
            let (b, j) = ragdoll(origin, bodies.len(), row * columns + col);
            bodies.extend(b);
            joints.extend(j);
        }
    }
    Spec {
        name: "ragdolls",
        steps: 500,
        gravity: gravity(),
        bodies,
        joints,
        // Every bone's center is within 0.23 m of its surface, so a bone
        // whose center ends 0.25 m under the ground's top is through it.
        quality: Quality::EscapedBox {
            min: V2::new(-GROUND_HALF_WIDTH, -0.25),
            max: V2::new(GROUND_HALF_WIDTH, 1000.0),
        },
        sleeping: false,
    }
}

/// Ragdolls in the box of [`ragdoll_box`]: 5 columns of 4.
const RAGDOLL_BOX_GRID: (u32, u32) = (5, 4);
/// The inner half width of [`ragdoll_box`]'s box, metres: the ragdolls'
/// starting grid spans 5.5 m.
const RAGDOLL_BOX_HALF_WIDTH: f32 = 3.5;
/// Steps of [`ragdoll_box`]: 5 s.
pub const RAGDOLL_BOX_STEPS: u32 = 300;
/// The first steps of a ragdoll scene ([`ragdoll_box`],
/// [`ragdoll_stairs`]) whose limits are not watched: the ragdolls start
/// straight, their knees and elbows outside their ranges (Box2D's human
/// does), and each engine brings them in over its first steps.
pub const RAGDOLL_SETTLE: u32 = 10;

/// 20 ragdolls (the human of [`ragdoll`]: limits, friction, springs)
/// dropped from a 5 x 4 grid into a box 7 m wide with walls 10 m high,
/// where they land on each other and pile up. Quality: the largest
/// violation of any hinge's limits after the first [`RAGDOLL_SETTLE`]
/// steps.
pub fn ragdoll_box() -> Spec {
    let (columns, rows) = RAGDOLL_BOX_GRID;
    let mut spec = ragdolls_of(columns, rows);
    let wall_half_height = 5.0;
    for side in [-1.0, 1.0] {
        let wall = BodySpec::new(
            Motion::Static,
            V2::new(side * (RAGDOLL_BOX_HALF_WIDTH + 0.5), wall_half_height),
            ShapeSpec::square_box(0.5, wall_half_height).with_friction(RAGDOLL_FRICTION),
        );
        // (After the ground: the joints name the ragdolls' bones by index,
        // so the walls go last.)
        spec.bodies.push(wall);
    }
    Spec {
        name: "ragdoll-box",
        steps: RAGDOLL_BOX_STEPS,
        quality: Quality::LimitViolation {
            after: RAGDOLL_SETTLE,
        },
        ..spec
    }
}

/// Steps of [`ragdoll_stairs`]: 5 s.
pub const RAGDOLL_STAIRS_STEPS: u32 = 300;
/// [`ragdoll_stairs`]'s flight: steps, each [`STAIR_RUN`] deep and
/// [`STAIR_RISE`] high, down to a landing.
pub const STAIR_STEPS: u32 = 10;
/// A step's depth, metres.
pub const STAIR_RUN: f32 = 0.3;
/// A step's height, metres.
pub const STAIR_RISE: f32 = 0.2;
/// A foot of [`ragdoll_stairs`]: a box of these half-widths, metres.
pub const FOOT_HALF: V2 = V2::new(0.11, 0.03);
/// A foot's mass over its lower leg's.
pub const FOOT_MASS_RATIO: f32 = 0.2;
/// An ankle's limits, in half turns from the starting pose (the foot
/// level): 36 degrees either way.
const ANKLE_LIMITS: (f32, f32) = (-0.2, 0.2);

/// The human of [`ragdoll`] with a foot on each lower leg: a flat box a
/// fifth of the lower leg's mass, hinged at the ankle (the lower end of
/// the shin's capsule) with limits, friction and a spring like the other
/// joints', its toe forward. Where Box2D's human has a small polygon on
/// each lower leg, here the foot is a body of its own, far lighter than
/// the leg that loads it. The bodies are the bones, then the left foot
/// and the right; the joints the hinges, then the left ankle and the
/// right.
pub fn ragdoll_with_feet(origin: V2, first_body: usize, index: u32) -> (Vec<BodySpec>, Vec<JointSpec>) {
    let (mut bodies, mut joints) = ragdoll(origin, first_body, index);
    let filter = bodies[0].shapes[0].filter;
    for leg in [4, 6] {
        let foot = ShapeSpec::square_box(FOOT_HALF.x, FOOT_HALF.y);
        let density = FOOT_MASS_RATIO * shape_mass(&bodies[leg].shapes[0]) / shape_mass(&foot);
        let foot = foot
            .with_density(density)
            .with_friction(RAGDOLL_FRICTION)
            .with_filter(filter);
        let (ankle, center) = ankle_and_foot(origin, leg);
        bodies.push(BodySpec::new(Motion::Dynamic, center, foot));
        joints.push(
            JointSpec::revolute(first_body + leg, first_body + bodies.len() - 1, ankle)
                .with_limits(ANKLE_LIMITS.0 * PI, ANKLE_LIMITS.1 * PI)
                .with_friction(0.5 * RAGDOLL_FRICTION_TORQUE)
                .with_spring(RAGDOLL_SPRING_HERTZ, RAGDOLL_SPRING_DAMPING_RATIO, 0.0),
        );
    }
    (bodies, joints)
}

/// Where the ankle of lower leg `leg` (a [`RAGDOLL_BONES`] index) of the
/// ragdoll standing on `origin` is, and the center of its foot: the toe
/// forward (+x), the sole a shin's radius below the ankle.
fn ankle_and_foot(origin: V2, leg: usize) -> (V2, V2) {
    let shin = &RAGDOLL_BONES[leg];
    let ankle = origin + V2::new(0.0, shin.height - shin.half_length);
    let center = ankle + V2::new(0.5 * FOOT_HALF.x, FOOT_HALF.y - shin.radius - 2.0 * FOOT_HALF.y);
    (ankle, center)
}

/// A ragdoll with feet ([`ragdoll_with_feet`]) stepping off the top of
/// a flight of [`STAIR_STEPS`] stairs at 1 m/s: it falls and tumbles down
/// them, its light feet striking the steps' edges and caught under its
/// legs. Quality: the largest violation of any of its hinges' limits (the
/// ankles', where a light foot carries the body's weight, the worst)
/// after the first [`RAGDOLL_SETTLE`] steps.
pub fn ragdoll_stairs() -> Spec {
    // Each step a static box from below the landing's floor up to its
    // tread; the last, the landing, wide.
    let bottom = -1.0;
    let mut bodies: Vec<BodySpec> = (0..STAIR_STEPS)
        .map(|k| {
            let top = STAIR_RISE * (STAIR_STEPS - 1 - k) as f32;
            let half_width = if k + 1 == STAIR_STEPS {
                3.0
            } else {
                0.5 * STAIR_RUN
            };
            let center = V2::new(STAIR_RUN * k as f32 + half_width, 0.5 * (top + bottom));
            let step =
                ShapeSpec::square_box(half_width, 0.5 * (top - bottom)).with_friction(RAGDOLL_FRICTION);
            BodySpec::new(Motion::Static, center, step)
        })
        .collect();
    // Over the top tread, the soles 0.1 m above it.
    let top = STAIR_RISE * (STAIR_STEPS - 1) as f32;
    let place = V2::new(0.5 * STAIR_RUN, 0.0);
    let sole = ankle_and_foot(place, 6).1.y - FOOT_HALF.y;
    let (ragdoll, joints) = ragdoll_with_feet(place + V2::new(0.0, top + 0.1 - sole), bodies.len(), 0);
    bodies.extend(ragdoll.into_iter().map(|b| BodySpec {
        linear_velocity: V2::new(1.0, 0.0),
        ..b
    }));
    Spec {
        name: "ragdoll-stairs",
        steps: RAGDOLL_STAIRS_STEPS,
        gravity: gravity(),
        bodies,
        joints,
        quality: Quality::LimitViolation {
            after: RAGDOLL_SETTLE,
        },
        sleeping: false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::build_world;
    use super::*;

    fn count(spec: &Spec, motion: Motion) -> usize {
        spec.bodies.iter().filter(|b| b.motion == motion).count()
    }

    /// The distance from a joint's anchor to the center of each of its
    /// bodies.
    fn arms(spec: &Spec, joint: &JointSpec) -> (f32, f32) {
        let (a, b) = (&spec.bodies[joint.body_a], &spec.bodies[joint.body_b]);
        (
            joint.anchor.distance(a.position),
            joint.anchor.distance(b.position),
        )
    }

    #[test]
    fn the_joint_grid_has_box2ds_sizes_and_layout() {
        let spec = joint_grid();
        assert_eq!(spec.bodies.len(), 10_000);
        // Box2D's 19 800 less the six between the fixed circles.
        let between_fixed = JOINT_GRID_FIXED as usize - 1;
        assert_eq!(spec.joints.len(), 19_800 - between_fixed);
        assert_eq!(count(&spec, Motion::Static), 7);
        for (index, body) in spec.bodies.iter().enumerate() {
            let (k, i) = (index / 100, index % 100);
            assert_eq!(body.position, V2::new(k as f32, -(i as f32)), "body {index}");
            let fixed = i == 0 && (47..=53).contains(&k);
            assert_eq!(
                body.motion == Motion::Static,
                fixed,
                "body {index} at column {k}, row {i}"
            );
        }
        // Every joint is half way between two neighbours 1 m apart, free
        // (no limit, motor or spring), the pair not colliding.
        for joint in &spec.joints {
            assert_eq!(arms(&spec, joint), (0.5, 0.5), "{joint:?}");
            assert!(joint.limits.is_none() && joint.motor.is_none() && joint.spring.is_none());
            assert!(!joint.collide_connected);
        }
        // No two circles collide; the default filter (the ground's) would.
        let filter = spec.bodies[0].shapes[0].filter;
        assert!(!filter.should_collide(&filter));
        assert!(filter.should_collide(&FilterSpec::default()));
    }

    #[test]
    fn the_ragdolls_have_box2ds_human_in_each() {
        let spec = ragdolls();
        assert_eq!(count(&spec, Motion::Dynamic), 11_000);
        assert_eq!(count(&spec, Motion::Static), 1, "the ground");
        assert_eq!(spec.joints.len(), 10_000);
        // Each hinge sits on both bones' capsules (within their reach
        // from the center: the half length plus the radius).
        for joint in &spec.joints {
            let (a, b) = arms(&spec, joint);
            let reach = |i: usize| match spec.bodies[i].shapes[0].geometry {
                Geometry::Capsule { half_length, radius } => half_length + radius,
                _ => panic!("every bone is a capsule"),
            };
            assert!(a <= reach(joint.body_a) + 1e-5, "{joint:?}: {a} from A");
            assert!(b <= reach(joint.body_b) + 1e-5, "{joint:?}: {b} from B");
            let limits = joint.limits.expect("every hinge has limits");
            assert!(-PI <= limits.lower && limits.lower < limits.upper && limits.upper <= PI);
            assert!(joint.motor.unwrap().max_torque > 0.0 && joint.spring.is_some());
        }
        // Bones of one ragdoll never collide with each other; of two,
        // they do; and every bone meets the ground.
        let (first, second) = (spec.bodies[1].shapes[0].filter, spec.bodies[12].shapes[0].filter);
        let ground = spec.bodies[0].shapes[0].filter;
        assert_eq!(first, spec.bodies[11].shapes[0].filter);
        assert!(!first.should_collide(&first));
        assert!(first.should_collide(&second));
        assert!(first.should_collide(&ground));
    }

    #[test]
    fn the_ragdolls_start_apart() {
        // Every bone stands upright: two capsules are apart when their
        // segments are farther apart than their radii add up to.
        let spec = ragdolls_of(4, 3);
        let capsule = |b: &BodySpec| match b.shapes[0].geometry {
            Geometry::Capsule { half_length, radius } => (b.position, half_length, radius),
            _ => panic!("every bone is a capsule"),
        };
        let bones = &spec.bodies[1..];
        assert_eq!(bones.len(), 4 * 3 * 11);
        for (i, a) in bones.iter().enumerate() {
            assert_eq!(a.angle, FRAC_PI_2, "upright");
            for (j, b) in bones.iter().enumerate().skip(i + 1) {
                if i / 11 == j / 11 {
                    continue;
                }
                let ((pa, ha, ra), (pb, hb, rb)) = (capsule(a), capsule(b));
                let dy = ((pa.y - pb.y).abs() - ha - hb).max(0.0);
                let gap = (pa.x - pb.x).hypot(dy) - ra - rb;
                assert!(gap > 0.2, "bones {i} and {j} start {gap} m apart");
            }
        }
        // The lowest feet are above the ground.
        let lowest = bones
            .iter()
            .map(|b| {
                let (p, h, r) = capsule(b);
                p.y - h - r
            })
            .fold(f32::MAX, f32::min);
        assert!(lowest > 0.5, "lowest foot at {lowest} m");
    }

    #[test]
    fn a_hanging_grid_makes_no_contacts_in_tumble_and_its_filter_keeps_circles_apart() {
        let grid = joint_grid_of(20);
        let mut scene = build_world(&grid);
        // Every joint of the spec, which leaves out the six between the
        // fixed circles of the top row.
        let between_fixed = JOINT_GRID_FIXED as usize - 1;
        assert_eq!(scene.joints.len(), grid.joints.len());
        assert_eq!(scene.world.joint_count(), 2 * 20 * 19 - between_fixed);
        for _ in 0..60 {
            scene.world.step(crate::DT);
        }
        assert_eq!(scene.world.contact_count(), 0, "the circles collide with nothing");
        // The net's circles hardly come near each other as it hangs; laid
        // on top of each other, circles of its filter still make no
        // contacts, where circles of the default filter do.
        let circle = grid.bodies[1].clone();
        let mut overlapping = Spec {
            gravity: V2::ZERO,
            bodies: (0..5)
                .map(|i| BodySpec {
                    position: V2::new(0.5 * i as f32, 0.0),
                    ..circle.clone()
                })
                .collect(),
            joints: Vec::new(),
            ..grid
        };
        let mut scene = build_world(&overlapping);
        scene.world.step(crate::DT);
        assert_eq!(scene.world.contact_count(), 0, "overlapping grid circles collide");
        for body in &mut overlapping.bodies {
            body.shapes[0].filter = FilterSpec::default();
        }
        let mut scene = build_world(&overlapping);
        scene.world.step(crate::DT);
        assert_eq!(scene.world.contact_count(), 4, "each circle meets its neighbours");
    }

    #[test]
    fn a_ragdolls_bones_make_no_contacts_with_each_other_in_tumble() {
        // One ragdoll in the air: its two legs (and its two arms) start on
        // top of each other, so only the group keeps them from colliding.
        let (bodies, joints) = ragdoll(V2::new(0.0, 10.0), 0, 0);
        let spec = Spec {
            name: "ragdoll",
            steps: 30,
            gravity: gravity(),
            bodies,
            joints,
            quality: Quality::None,
            sleeping: false,
        };
        let mut scene = build_world(&spec);
        for _ in 0..30 {
            scene.world.step(crate::DT);
        }
        assert_eq!(scene.world.contact_count(), 0);
        let mut ungrouped = spec.clone();
        for body in &mut ungrouped.bodies {
            body.shapes[0].filter.group = 0;
        }
        let mut scene = build_world(&ungrouped);
        scene.world.step(crate::DT);
        assert!(
            scene.world.contact_count() > 0,
            "without the group the legs collide"
        );
    }

    #[test]
    fn a_limit_violation_is_how_far_a_hinge_turned_past_its_range() {
        // Two bodies hinged with limits -0.5..0.3 rad, B starting turned
        // 2 rad from A (the hinge's zero): the violation reads the turn
        // since the start, whatever the starting angles and across the
        // -pi..pi seam.
        let body = |angle| BodySpec {
            angle,
            ..BodySpec::new(
                Motion::Dynamic,
                V2::new(0.0, 0.0),
                ShapeSpec::square_box(0.5, 0.5),
            )
        };
        let spec = Spec {
            name: "hinge",
            steps: 1,
            gravity: gravity(),
            bodies: vec![body(1.0), body(3.0)],
            joints: vec![JointSpec::revolute(0, 1, V2::new(0.0, 0.0)).with_limits(-0.5, 0.3)],
            quality: Quality::None,
            sleeping: false,
        };
        let close = |angles: [f32; 2], expected: f32| {
            let v = super::super::limit_violation(&spec, &angles);
            assert!((v - expected).abs() < 1e-5, "{angles:?}: {v} against {expected}");
        };
        close([1.0, 3.0], 0.0);
        close([1.0, 3.2], 0.0);
        close([1.0, 3.5], 0.2);
        close([1.0, 2.3], 0.2);
        // A turned as well: only the difference counts.
        close([1.4, 3.9], 0.2);
        // B past pi (3.0 + 0.4 = 3.4, read as 3.4 - 2 pi by the engine).
        close([1.0, 3.4 - 2.0 * PI], 0.1);
        // No limits, no violation.
        let free = Spec {
            joints: vec![JointSpec::revolute(0, 1, V2::new(0.0, 0.0))],
            ..spec.clone()
        };
        assert_eq!(super::super::limit_violation(&free, &[0.0, 3.0]), 0.0);
    }

    #[test]
    fn the_ragdoll_box_holds_twenty_ragdolls_between_two_walls() {
        let spec = ragdoll_box();
        let dynamic = spec.bodies.iter().filter(|b| b.motion == Motion::Dynamic).count();
        assert_eq!(dynamic, 20 * RAGDOLL_BONES.len());
        assert_eq!(spec.joints.len(), 20 * HINGES.len());
        // Every bone starts inside the walls.
        for b in spec.bodies.iter().filter(|b| b.motion == Motion::Dynamic) {
            assert!(
                b.position.x.abs() + 0.25 < RAGDOLL_BOX_HALF_WIDTH,
                "{:?}",
                b.position
            );
        }
    }

    #[test]
    fn the_ragdoll_on_the_stairs_has_light_feet_above_a_descending_flight() {
        let spec = ragdoll_stairs();
        let steps = STAIR_STEPS as usize;
        let (stairs, ragdoll) = spec.bodies.split_at(steps);
        assert!(stairs.iter().all(|b| b.motion == Motion::Static));
        assert_eq!(ragdoll.len(), RAGDOLL_BONES.len() + 2);
        assert_eq!(spec.joints.len(), HINGES.len() + 2);
        // Each tread a rise below the last, a run further on.
        let tread = |b: &BodySpec| match b.shapes[0].geometry {
            Geometry::Box { half, .. } => (b.position.x - half.x, b.position.y + half.y),
            _ => panic!("a step is a box"),
        };
        for pair in stairs.windows(2) {
            let ((x0, y0), (x1, y1)) = (tread(&pair[0]), tread(&pair[1]));
            assert!((x1 - x0 - STAIR_RUN).abs() < 1e-5 && (y0 - y1 - STAIR_RISE).abs() < 1e-5);
        }
        // Each foot a fifth of its lower leg's mass, hinged to it with
        // limits, its sole above the top tread.
        let mass = |b: &BodySpec| shape_mass(&b.shapes[0]);
        let (_, top) = tread(&stairs[0]);
        for (ankle, leg) in spec.joints[HINGES.len()..].iter().zip([4, 6]) {
            assert_eq!(ankle.body_a, steps + leg);
            let (shin, foot) = (&spec.bodies[ankle.body_a], &spec.bodies[ankle.body_b]);
            assert!((mass(foot) / mass(shin) - FOOT_MASS_RATIO).abs() < 1e-5);
            assert!(ankle.limits.is_some());
            assert!(foot.position.y - FOOT_HALF.y > top);
        }
    }
}
