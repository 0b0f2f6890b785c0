//! Time of impact by conservative advancement, for continuous collision.
//!
//! Each shape moves with its body during the step: a point of the body
//! (its center of mass, for the step's continuous collision; the origin,
//! for [`time_of_impact`]) in a straight line, the body turning about it at
//! a steady rate. At the current time the distance between the shapes is
//! measured; no point of either shape can close that gap faster than the
//! relative velocity along the contact normal plus each body's spin times
//! its reach from that point, so the time it takes to close the gap at
//! that bound is safe to skip. Repeating from there approaches the first
//! moment the shapes come within the target separation from below, never
//! jumping past it.

use super::distance::shape_distance;
use crate::math::{Rot, Transform, Vec2};
use crate::settings::LINEAR_SLOP;
use crate::shapes::{ChainSegment, Shape};

/// Close enough to the target separation to stop: a quarter of the slop,
/// well inside what the contact solver then handles.
const TOI_TOLERANCE: f32 = 0.25 * LINEAR_SLOP;

/// Advancement steps before giving up and returning the (still safe) time
/// reached so far. Head-on approaches need two or three; a turning pair
/// sliding past each other within a few millimetres needs dozens.
const TOI_MAX_ITERATIONS: usize = 128;

/// A body's motion over a step, as the time of impact follows it: its
/// point `pivot` (in the body's frame) moves in a straight line from
/// where it is at the start to where it is at the end, and the body turns
/// about it at a steady rate, the shorter way round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sweep {
    /// The point that moves in a straight line, in the body's frame.
    pivot: Vec2,
    /// The body's pose at the start.
    start: Transform,
    /// Where the pivot starts, in the world.
    from: Vec2,
    /// How far it moves.
    displacement: Vec2,
    /// The body's angle at the start.
    start_angle: f32,
    /// How far it turns.
    turn: f32,
}

impl Sweep {
    /// The motion from pose `start` to pose `end` about `pivot` (in the
    /// body's frame).
    pub(crate) fn new(pivot: Vec2, (start, end): (Transform, Transform)) -> Sweep {
        let from = start.apply(pivot);
        Sweep {
            pivot,
            start,
            from,
            displacement: end.apply(pivot) - from,
            start_angle: start.q.angle(),
            // The shorter way round from the start rotation to the end one.
            turn: start.q.inv_mul(end.q).angle(),
        }
    }

    /// The body's pose at fraction `t` of the motion (its start pose, to
    /// the bit, at 0 and before).
    pub(crate) fn at(&self, t: f32) -> Transform {
        if t <= 0.0 {
            return self.start;
        }
        let q = Rot::from_angle(self.start_angle + t * self.turn);
        Transform {
            p: self.from + t * self.displacement - q.rotate(self.pivot),
            q,
        }
    }
}

/// A shape's motion during the step: its body's sweep, and how far the
/// shape reaches from the sweep's pivot.
struct Motion {
    sweep: Sweep,
    /// Farthest any point of the shape's surface lies from the pivot.
    reach: f32,
}

impl Motion {
    fn new(shape: &Shape, sweep: Sweep) -> Motion {
        Motion {
            sweep,
            reach: shape_reach(shape, sweep.pivot),
        }
    }

    fn at(&self, t: f32) -> Transform {
        self.sweep.at(t)
    }
}

/// Farthest distance of the shape's surface from `pivot` (in its body's
/// frame).
fn shape_reach(shape: &Shape, pivot: Vec2) -> f32 {
    let from = |v: Vec2| v.distance(pivot);
    let core = match shape {
        Shape::Circle(c) => from(c.center),
        Shape::Capsule(c) => from(c.center1).max(from(c.center2)),
        Shape::Polygon(p) => p.points().iter().map(|&v| from(v)).fold(0.0, f32::max),
        Shape::Segment(s) | Shape::ChainSegment(ChainSegment { segment: s, .. }) => {
            from(s.point1).max(from(s.point2))
        }
    };
    core + shape.radius()
}

/// The first fraction `t` in `[0, 1]` of the step at which shape `a`
/// (moving from `sweep_a.0` to `sweep_a.1`) and shape `b` come within
/// `target_separation` of each other, or `None` when they never do. Shapes
/// that start within the target give `Some(0.0)`.
///
/// The answer is conservative: at the returned time the shapes are at
/// least the target apart (less a float rounding), and within a quarter of
/// the linear slop of it when the advancement converges. A pair that only
/// grazes past while turning can use up the iterations before it either
/// touches or gets clear; then the time reached so far is returned, early
/// rather than late, so a fast body is never let through.
///
/// ```
/// # use tumble::{Circle, Shape, Transform, Vec2};
/// # use tumble::collision::time_of_impact;
/// let ball: Shape = Circle::new(Vec2::ZERO, 0.5).unwrap().into();
/// let wall: Shape = tumble::Polygon::new_box(0.1, 5.0).unwrap().into();
/// let still = (Transform::IDENTITY, Transform::IDENTITY);
/// let fly = (Transform::new(Vec2::new(-10.0, 0.0), 0.0), Transform::new(Vec2::new(10.0, 0.0), 0.0));
/// let t = time_of_impact(&wall, still, &ball, fly, 0.0).unwrap();
/// // Touches when the ball's center reaches x = -0.6, 9.4 of the 20 travelled.
/// assert!((t - 0.47).abs() < 1e-3);
/// ```
pub fn time_of_impact(
    a: &Shape,
    sweep_a: (Transform, Transform),
    b: &Shape,
    sweep_b: (Transform, Transform),
    target_separation: f32,
) -> Option<f32> {
    let sweep = |poses| Sweep::new(Vec2::ZERO, poses);
    sweep_time_of_impact((a, sweep(sweep_a)), (b, sweep(sweep_b)), target_separation)
}

/// [`time_of_impact`] for shapes moving with their bodies' sweeps: the
/// first fraction of the step at which shape `a` (moving by `sweep_a`) and
/// shape `b` come within `target_separation`, with the same guarantees.
pub(crate) fn sweep_time_of_impact(
    (a, sweep_a): (&Shape, Sweep),
    (b, sweep_b): (&Shape, Sweep),
    target_separation: f32,
) -> Option<f32> {
    let motion_a = Motion::new(a, sweep_a);
    let motion_b = Motion::new(b, sweep_b);
    // B's pivot's displacement as seen from A's.
    let relative_displacement = sweep_b.displacement - sweep_a.displacement;
    let spin_bound = sweep_a.turn.abs() * motion_a.reach + sweep_b.turn.abs() * motion_b.reach;

    let mut t = 0.0;
    for _ in 0..TOI_MAX_ITERATIONS {
        let xf_a = motion_a.at(t);
        let xf_b = motion_b.at(t);
        let distance = shape_distance(a, &xf_a, b, &xf_b);
        let gap = distance.distance - target_separation;
        if gap <= TOI_TOLERANCE {
            return Some(t);
        }
        // Fastest the gap can shrink per unit of t: B moving against the
        // normal, plus the spin of either body at its outermost point.
        let closing = -relative_displacement.dot(distance.normal) + spin_bound;
        if closing <= 0.0 || !closing.is_finite() {
            return None;
        }
        t += gap / closing;
        if t >= 1.0 || !t.is_finite() {
            return None;
        }
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::{Capsule, Circle, Polygon};

    fn at(x: f32, y: f32, angle: f32) -> Transform {
        Transform::new(Vec2::new(x, y), angle)
    }

    #[test]
    fn head_on_boxes() {
        let b: Shape = Polygon::new_box(0.5, 0.5).unwrap().into();
        let still = (at(0.0, 0.0, 0.0), at(0.0, 0.0, 0.0));
        let fly = (at(-5.0, 0.0, 0.0), at(5.0, 0.0, 0.0));
        // Faces meet when B's center reaches x = -1: 4 of the 10 travelled.
        let t = time_of_impact(&b, still, &b, fly, 0.0).unwrap();
        assert!((t - 0.4).abs() < 1e-3, "{t}");
        // With a target of 0.1 they stop 0.1 earlier: 3.9 of 10.
        let t = time_of_impact(&b, still, &b, fly, 0.1).unwrap();
        assert!((t - 0.39).abs() < 1e-3, "{t}");
    }

    #[test]
    fn missing_and_receding_give_none() {
        let c: Shape = Circle::new(Vec2::ZERO, 0.5).unwrap().into();
        let still = (at(0.0, 0.0, 0.0), at(0.0, 0.0, 0.0));
        let past = (at(-5.0, 2.0, 0.0), at(5.0, 2.0, 0.0));
        assert_eq!(time_of_impact(&c, still, &c, past, 0.0), None);
        let away = (at(2.0, 0.0, 0.0), at(9.0, 0.0, 0.0));
        assert_eq!(time_of_impact(&c, still, &c, away, 0.0), None);
        let short = (at(-5.0, 0.0, 0.0), at(-3.0, 0.0, 0.0));
        assert_eq!(time_of_impact(&c, still, &c, short, 0.0), None);
    }

    #[test]
    fn already_touching_is_zero() {
        let c: Shape = Circle::new(Vec2::ZERO, 0.5).unwrap().into();
        let still = (at(0.0, 0.0, 0.0), at(0.0, 0.0, 0.0));
        let near = (at(0.9, 0.0, 0.0), at(3.0, 0.0, 0.0));
        assert_eq!(time_of_impact(&c, still, &c, near, 0.0), Some(0.0));
    }

    #[test]
    fn sliding_and_turning_converges_within_the_cap() {
        // Found by the property test: a turning rounded triangle grazing a
        // capsule needs many small advancement steps.
        let a: Shape = Capsule::new(Vec2::ZERO, Vec2::new(0.0, 0.332), 0.527)
            .unwrap()
            .into();
        let tri = [Vec2::ZERO, Vec2::new(0.588, -1.674), Vec2::new(0.0, 1.740)];
        let b: Shape = Polygon::new_rounded(&tri, 0.205).unwrap().into();
        let still = (Transform::IDENTITY, Transform::IDENTITY);
        let sweep = (at(-1.387, 2.323, 0.468), at(0.0, 0.525, 1.580));
        let t = time_of_impact(&a, still, &b, sweep, 0.0).unwrap();
        let xf = sweep.0.q.inv_mul(sweep.1.q).angle();
        let xf_b = Transform {
            p: sweep.0.p.lerp(sweep.1.p, t),
            q: Rot::from_angle(0.468 + t * xf),
        };
        let d = shape_distance(&a, &Transform::IDENTITY, &b, &xf_b).distance;
        assert!(d > -1e-4 && d <= TOI_TOLERANCE + 1e-4, "t {t}: {d}");
    }

    #[test]
    fn a_sweep_turns_the_body_about_its_pivot() {
        // A ball 5 m from its body's origin, its body's center of mass,
        // spins a quarter turn in place; a second ball sits 1.4 m from it.
        // About the center the first ball never moves and never comes
        // near; the same two poses swept about the origin carry it out on
        // an arc and into the second.
        let offset = Vec2::new(5.0, 0.0);
        let spun: Shape = Circle::new(offset, 0.2).unwrap().into();
        let ball: Shape = Circle::new(Vec2::ZERO, 0.2).unwrap().into();
        let quarter = std::f32::consts::FRAC_PI_2;
        let start = Transform::IDENTITY;
        let end = Transform {
            p: offset - Rot::from_angle(quarter).rotate(offset),
            q: Rot::from_angle(quarter),
        };
        assert!((end.apply(offset) - offset).length() < 1e-5);
        let at = Transform::new(offset + Vec2::new(1.0, 1.0), 0.0);
        let still = Sweep::new(Vec2::ZERO, (at, at));
        let about =
            |pivot| sweep_time_of_impact((&ball, still), (&spun, Sweep::new(pivot, (start, end))), 0.0);
        assert_eq!(about(offset), None);
        assert!(about(Vec2::ZERO).is_some());
        // Halfway round, the center stays where it was.
        let half = Sweep::new(offset, (start, end)).at(0.5);
        assert!((half.apply(offset) - offset).length() < 1e-5);
    }

    #[test]
    fn spinning_stick_hits_a_ball() {
        // A capsule of half length 2 spins a quarter turn about its center;
        // a ball sits at (0, 1.5): the stick's end sweeps into it.
        let stick: Shape = Capsule::new(Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0), 0.1)
            .unwrap()
            .into();
        let ball: Shape = Circle::new(Vec2::ZERO, 0.2).unwrap().into();
        let spin = (at(0.0, 0.0, 0.0), at(0.0, 0.0, std::f32::consts::FRAC_PI_2));
        let still = (at(0.0, 1.5, 0.0), at(0.0, 1.5, 0.0));
        let t = time_of_impact(&stick, spin, &ball, still, 0.0).unwrap();
        assert!(t > 0.0 && t < 1.0);
        // At t the shapes are just touching, and a moment later they overlap.
        let d = |t: f32| {
            let q = Rot::from_angle(t * std::f32::consts::FRAC_PI_2);
            let xf = Transform { p: Vec2::ZERO, q };
            shape_distance(&stick, &xf, &ball, &still.0).distance
        };
        assert!(d(t) >= -1e-4 && d(t) <= TOI_TOLERANCE + 1e-4, "{}", d(t));
        assert!(d(t + 0.02) < 0.0);
    }
}
