//! The first steps of gymnasium's environments as Box2D 2.3 takes them.
//!
//! Both environments place bodies apart from the hinges that hold them
//! (the lander's legs 0.6 m below their hinge points and outside their
//! limits, the walker's upper legs 0.53 m off its hips) and leave Box2D
//! 2.3's position solver to close the gaps, which moves bodies without
//! giving them speed. Tumble's soft step would close them through
//! velocity, throwing the bodies; so each port closes them here, the
//! way Box2D 2.3 does ([`close_hinges`]).
//!
//! The lander: the reset's step is Box2D 2.3's whole ([`step_hinges`]).
//! Its velocity solve holds the legs by arms measured from where they
//! were placed, so the push of the reset sets the lander turning as
//! gymnasium's turns (a third of a radian a second on seed 0, where the
//! same solve from the closed pose gives less than half that); then the
//! bodies move, and the position solver pulls the legs up to their
//! hinges.
//!
//! The walker:
//! gymnasium places each upper leg with `LEG_DOWN`'s sign turned over: its
//! hip end starts 0.53 m above the hull's, and the feet hang 0.27 m above
//! the ground. Box2D 2.3 closes such gaps with its position solver, which
//! moves bodies without giving them speed. In the reset's step it pulls
//! the hips shut (the legs come down as one, the hull goes up by their
//! share of the mass), and its continuous collision stops each lower leg
//! where it meets the ground, which leaves the knees 0.2 m apart. In the
//! next step it closes the knees with the feet on the ground, and the legs
//! buckle forward into a crouch: hips at 0.44 and 0.34 rad, knees at
//! -0.88. Every gymnasium episode starts from that crouch.
//!
//! Tumble's soft step closes a gap through velocity: from gymnasium's
//! placement it throws the walker a metre up, and the heuristic walker
//! then falls on its hull after about 60 steps. So the port takes those two
//! steps' position correction the way Box2D 2.3 takes it, before its first
//! step: non-linear Gauss-Seidel on the four hinges (with their limits)
//! and on the feet against the flat start pad (with Box2D's choice of
//! contact points), its swept stop of the feet in between. Speeds are left
//! at zero, as the position solver leaves them. The pose it reaches is
//! gymnasium's after its first action step to 0.01 m and 0.03 rad.

use tumble::MassData;

/// Box2D 2.3's `b2_linearSlop`: the overlap its contacts keep, and a
/// hinge's tolerated gap.
const LINEAR_SLOP: f64 = 0.005;
/// Box2D 2.3's `b2_angularSlop` (2 degrees): how far past a limit a hinge
/// may rest.
pub(crate) const ANGULAR_SLOP: f64 = 2.0 / 180.0 * std::f64::consts::PI;
/// Box2D 2.3's `b2_maxAngularCorrection` (8 degrees) per iteration.
const MAX_ANGULAR_CORRECTION: f64 = 8.0 / 180.0 * std::f64::consts::PI;
/// Box2D 2.3's `b2_maxLinearCorrection` per iteration.
const MAX_LINEAR_CORRECTION: f64 = 0.2;
/// Box2D 2.3's `b2_maxTranslation`: the farthest a body moves in a step.
const MAX_TRANSLATION: f64 = 2.0;
/// Box2D 2.3's `b2_maxRotation`: the most a body turns in a step.
const MAX_ROTATION: f64 = 0.5 * std::f64::consts::PI;
/// gymnasium's velocity iterations a step.
const VELOCITY_ITERATIONS: usize = 180;
/// The share of a contact's overlap removed per iteration.
const BAUMGARTE: f64 = 0.2;
/// gymnasium's position iterations a step.
const POSITION_ITERATIONS: usize = 60;
/// Box2D 2.3's skin between a polygon and an edge: 0.01 m on each.
pub(crate) const SKIN: f64 = 0.02;

type V = [f64; 2];

fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1]]
}

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1]]
}

fn scale(s: f64, v: V) -> V {
    [s * v[0], s * v[1]]
}

fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn cross(a: V, b: V) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

fn rotate(angle: f64, v: V) -> V {
    let (s, c) = angle.sin_cos();
    [c * v[0] - s * v[1], s * v[0] + c * v[1]]
}

/// A body as Box2D's solver holds it: its center of mass and angle, with
/// its inverse mass and inverse rotational inertia about that center.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Body {
    center: V,
    angle: f64,
    local_center: V,
    inv_mass: f64,
    inv_inertia: f64,
    /// Velocity of its center.
    velocity: V,
    /// Angular velocity.
    spin: f64,
}

impl Body {
    /// A body with its origin at `origin`, turned `angle`, of `mass`.
    pub(crate) fn new(origin: V, angle: f64, mass: MassData) -> Body {
        let local_center = [f64::from(mass.center.x), f64::from(mass.center.y)];
        Body {
            center: add(origin, rotate(angle, local_center)),
            angle,
            local_center,
            inv_mass: 1.0 / f64::from(mass.mass),
            inv_inertia: 1.0 / f64::from(mass.inertia),
            velocity: [0.0, 0.0],
            spin: 0.0,
        }
    }

    /// The velocity of its center, and its angular velocity.
    pub(crate) fn velocity(&self) -> (V, f64) {
        (self.velocity, self.spin)
    }

    /// Box2D 2.3's `b2Island::Solve` before its constraints: the velocity
    /// change over `dt` from `gravity` and from `force` and `torque`
    /// applied to it.
    pub(crate) fn accelerate(&mut self, dt: f64, gravity: V, force: V, torque: f64) {
        self.velocity = add(
            self.velocity,
            scale(dt, add(gravity, scale(self.inv_mass, force))),
        );
        self.spin += dt * self.inv_inertia * torque;
    }

    /// Box2D 2.3's position integration over `dt`, with its speed caps: no
    /// body moves more than 2 m or turns more than a quarter turn a step
    /// (the velocity is scaled down to that).
    fn integrate(&mut self, dt: f64) {
        let translation = scale(dt, self.velocity);
        let length = dot(translation, translation).sqrt();
        if length > MAX_TRANSLATION {
            self.velocity = scale(MAX_TRANSLATION / length, self.velocity);
        }
        let rotation = dt * self.spin;
        if rotation.abs() > MAX_ROTATION {
            self.spin *= MAX_ROTATION / rotation.abs();
        }
        self.center = add(self.center, scale(dt, self.velocity));
        self.angle += dt * self.spin;
    }

    /// Changes its velocity by `impulse` at `arm` from its center.
    fn kick(&mut self, impulse: V, arm: V) {
        self.velocity = add(self.velocity, scale(self.inv_mass, impulse));
        self.spin += self.inv_inertia * cross(arm, impulse);
    }

    /// Its origin now.
    pub(crate) fn origin(&self) -> V {
        sub(self.center, rotate(self.angle, self.local_center))
    }

    /// Its angle now.
    pub(crate) fn angle(&self) -> f64 {
        self.angle
    }

    /// The world point at `local` (in its own coordinates, about its
    /// origin), and that point's arm from its center.
    fn point(&self, local: V) -> (V, V) {
        let arm = rotate(self.angle, sub(local, self.local_center));
        (add(self.center, arm), arm)
    }

    /// Moves it by `impulse` applied at `arm` from its center (a position
    /// impulse: it moves, it gains no speed).
    fn push(&mut self, impulse: V, arm: V) {
        self.center = add(self.center, scale(self.inv_mass, impulse));
        self.angle += self.inv_inertia * cross(arm, impulse);
    }
}

/// A revolute joint with its limits, as Box2D 2.3 corrects it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Hinge {
    /// Indices of its two bodies.
    pub(crate) a: usize,
    pub(crate) b: usize,
    /// Its anchor on each, in that body's coordinates.
    pub(crate) anchor_a: V,
    pub(crate) anchor_b: V,
    /// B's angle less A's where the joint's angle is 0.
    pub(crate) reference: f64,
    pub(crate) lower: f64,
    pub(crate) upper: f64,
    /// Its motor, if on: the relative spin it drives to (rad/s) and its
    /// largest torque (N m).
    pub(crate) motor: Option<(f64, f64)>,
}

/// Which limit a hinge rests on, decided at the start of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Limit {
    Free,
    Lower,
    Upper,
}

impl Hinge {
    fn angle(&self, bodies: &[Body]) -> f64 {
        bodies[self.b].angle - bodies[self.a].angle - self.reference
    }

    fn limit(&self, bodies: &[Body]) -> Limit {
        let angle = self.angle(bodies);
        if angle <= self.lower {
            Limit::Lower
        } else if angle >= self.upper {
            Limit::Upper
        } else {
            Limit::Free
        }
    }

    /// One iteration of `b2RevoluteJoint::SolvePositionConstraints`: the
    /// limit's angle, then the point, each corrected in full. True when
    /// both are within slop.
    fn correct(&self, bodies: &mut [Body], limit: Limit) -> bool {
        let (ia, ib) = (bodies[self.a].inv_inertia, bodies[self.b].inv_inertia);
        let mut angular_error = 0.0;
        if limit != Limit::Free {
            let angle = self.angle(bodies);
            let c = if limit == Limit::Lower {
                angular_error = self.lower - angle;
                (angle - self.lower + ANGULAR_SLOP).clamp(-MAX_ANGULAR_CORRECTION, 0.0)
            } else {
                angular_error = angle - self.upper;
                (angle - self.upper - ANGULAR_SLOP).clamp(0.0, MAX_ANGULAR_CORRECTION)
            };
            let impulse = -c / (ia + ib);
            bodies[self.a].angle -= ia * impulse;
            bodies[self.b].angle += ib * impulse;
        }
        let (pa, ra) = bodies[self.a].point(self.anchor_a);
        let (pb, rb) = bodies[self.b].point(self.anchor_b);
        let gap = sub(pb, pa);
        let k = mass_matrix(&bodies[self.a], &bodies[self.b], ra, rb);
        let impulse = solve22(&k, scale(-1.0, gap));
        bodies[self.a].push(scale(-1.0, impulse), ra);
        bodies[self.b].push(impulse, rb);
        dot(gap, gap).sqrt() <= LINEAR_SLOP && angular_error <= ANGULAR_SLOP
    }
}

/// A contact point of a foot on a terrain edge, fixed when the step
/// begins as Box2D's manifolds are.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Touch {
    /// The edge's face against a point of the foot (in the foot's
    /// coordinates): the edge's line with its upward normal.
    Edge {
        foot: usize,
        local: V,
        on_edge: V,
        normal: V,
    },
    /// The foot's bottom face against a point of the edge (world).
    Face { foot: usize, point: V },
}

/// The foot's bottom corners (in its own coordinates) and its bottom
/// face's outward normal.
fn bottom(half_width: f64, half_height: f64) -> ([V; 2], V) {
    (
        [[-half_width, -half_height], [half_width, -half_height]],
        [0.0, -1.0],
    )
}

impl Touch {
    /// One iteration of `b2ContactSolver::SolvePositionConstraints` for
    /// this point against the static terrain; returns its separation.
    fn correct(&self, bodies: &mut [Body], half: (f64, f64)) -> f64 {
        let (foot, point, normal, separation) = match *self {
            Touch::Edge {
                foot,
                local,
                on_edge,
                normal,
            } => {
                let (p, _) = bodies[foot].point(local);
                (foot, p, normal, dot(sub(p, on_edge), normal) - SKIN)
            }
            Touch::Face { foot, point } => {
                let ([corner, _], face_normal) = bottom(half.0, half.1);
                let body = &bodies[foot];
                let (plane, _) = body.point(corner);
                let n = rotate(body.angle, face_normal);
                (foot, point, scale(-1.0, n), dot(sub(point, plane), n) - SKIN)
            }
        };
        let body = &mut bodies[foot];
        let c = (BAUMGARTE * (separation + LINEAR_SLOP)).clamp(-MAX_LINEAR_CORRECTION, 0.0);
        let arm = sub(point, body.center);
        let rn = cross(arm, normal);
        let k = body.inv_mass + body.inv_inertia * rn * rn;
        let impulse = if k > 0.0 { -c / k } else { 0.0 };
        body.push(scale(impulse, normal), arm);
        separation
    }
}

/// The contact points of `foot` (a box of half-extents `half`) on the
/// terrain edges under it, as Box2D 2.3's edge-polygon collision makes
/// them: for each edge, the edge's face against the foot's bottom when the
/// foot lies flat enough on it, else the foot's bottom face against the
/// edge's end; only points within the skin.
fn touches(bodies: &[Body], foot: usize, half: (f64, f64), terrain: &[(f64, f64)], out: &mut Vec<Touch>) {
    let (corners, face_normal) = bottom(half.0, half.1);
    let body = &bodies[foot];
    let world = corners.map(|c| body.point(c).0);
    let n_face = rotate(body.angle, face_normal);
    let along = sub(world[1], world[0]);
    let width = dot(along, along).sqrt();
    let tangent = scale(1.0 / width, along);
    for pair in terrain.windows(2) {
        let (v1, v2) = ([pair[0].0, pair[0].1], [pair[1].0, pair[1].1]);
        let edge = sub(v2, v1);
        let length = dot(edge, edge).sqrt();
        let t_edge = scale(1.0 / length, edge);
        let n_edge = [-t_edge[1], t_edge[0]];
        let span = |p: V| dot(sub(p, v1), t_edge);
        if world.iter().all(|&p| span(p) < 0.0) || world.iter().all(|&p| span(p) > length) {
            continue;
        }
        let edge_separation = world
            .iter()
            .map(|&p| dot(sub(p, v1), n_edge))
            .fold(f64::INFINITY, f64::min);
        if edge_separation > SKIN {
            continue;
        }
        let face_separation = [v1, v2]
            .iter()
            .map(|&v| dot(sub(v, world[0]), n_face))
            .fold(f64::INFINITY, f64::min);
        // Box2D prefers the edge's face unless the foot's is clearly
        // better separated (its relative and absolute tolerances).
        if face_separation > 0.98 * edge_separation + 0.001 {
            // The edge clipped to the face's sides; its points near it.
            let along_face = |p: V| dot(sub(p, world[0]), tangent);
            let (s1, s2) = (along_face(v1), along_face(v2));
            for s in [s1.clamp(0.0, width), s2.clamp(0.0, width)] {
                let t = if s2 != s1 { (s - s1) / (s2 - s1) } else { 0.0 };
                let point = add(v1, scale(t.clamp(0.0, 1.0), edge));
                if dot(sub(point, world[0]), n_face) < SKIN {
                    out.push(Touch::Face { foot, point });
                }
            }
        } else {
            // The foot's bottom clipped to the edge's ends; its points
            // near it, held in the foot's coordinates.
            let (s1, s2) = (span(world[0]), span(world[1]));
            for s in [s1.clamp(0.0, length), s2.clamp(0.0, length)] {
                let t = if s2 != s1 { (s - s1) / (s2 - s1) } else { 0.0 };
                let t = t.clamp(0.0, 1.0);
                let point = add(world[0], scale(t, along));
                if dot(sub(point, v1), n_edge) < SKIN {
                    let local = add(corners[0], scale(t, sub(corners[1], corners[0])));
                    out.push(Touch::Edge {
                        foot,
                        local,
                        on_edge: v1,
                        normal: n_edge,
                    });
                }
            }
        }
    }
}

/// How far the lowest bottom corner of a foot (a box of half-extents
/// `half`) is above the flat start pad of height `ground`.
fn clearance(body: &Body, half: (f64, f64), ground: f64) -> f64 {
    let (corners, _) = bottom(half.0, half.1);
    corners
        .iter()
        .map(|&c| body.point(c).0[1] - ground)
        .fold(f64::INFINITY, f64::min)
}

/// One step of Box2D 2.3's position correction of `hinges` alone: each
/// hinge's limit (the one it rests on when the step begins) and point,
/// in turn, until all are within slop or the step's iterations run out.
pub(crate) fn close_hinges(bodies: &mut [Body], hinges: &[Hinge]) {
    let limits: Vec<Limit> = hinges.iter().map(|h| h.limit(bodies)).collect();
    for _ in 0..POSITION_ITERATIONS {
        let mut done = true;
        for (h, &limit) in hinges.iter().zip(&limits) {
            done &= h.correct(bodies, limit);
        }
        if done {
            break;
        }
    }
}

/// One hinge's velocity constraints as `b2RevoluteJoint` sets them up at
/// the step's start: its arms, the 3x3 mass matrix of its point and angle
/// rows, its motor's mass, the limit it rests on, and the impulses it has
/// accumulated (none: a joint's first step has nothing to warm start).
struct HingeRows {
    ra: V,
    rb: V,
    k: [[f64; 3]; 3],
    motor_mass: f64,
    limit: Limit,
    impulse: [f64; 3],
    motor_impulse: f64,
}

impl HingeRows {
    fn new(h: &Hinge, bodies: &[Body]) -> HingeRows {
        let (a, b) = (&bodies[h.a], &bodies[h.b]);
        let ra = rotate(a.angle, sub(h.anchor_a, a.local_center));
        let rb = rotate(b.angle, sub(h.anchor_b, b.local_center));
        let (ia, ib) = (a.inv_inertia, b.inv_inertia);
        let k = mass_matrix(a, b, ra, rb);
        let motor_mass = if ia + ib > 0.0 { 1.0 / (ia + ib) } else { 0.0 };
        let limit = if (h.upper - h.lower).abs() < 2.0 * ANGULAR_SLOP {
            // (Box2D's equal limits: none of gymnasium's hinges.)
            Limit::Free
        } else {
            h.limit(bodies)
        };
        HingeRows {
            ra,
            rb,
            k,
            motor_mass,
            limit,
            impulse: [0.0; 3],
            motor_impulse: 0.0,
        }
    }

    /// The 3x3 rows solved for `rhs` (`b2Mat33::Solve33`, Cramer's rule).
    fn solve33(&self, rhs: [f64; 3]) -> [f64; 3] {
        let k = &self.k;
        let col = |j: usize| [k[0][j], k[1][j], k[2][j]];
        let (ex, ey, ez) = (col(0), col(1), col(2));
        let cross3 = |a: [f64; 3], b: [f64; 3]| {
            [
                a[1] * b[2] - a[2] * b[1],
                a[2] * b[0] - a[0] * b[2],
                a[0] * b[1] - a[1] * b[0],
            ]
        };
        let dot3 = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        let det = dot3(ex, cross3(ey, ez));
        let det = if det != 0.0 { 1.0 / det } else { 0.0 };
        [
            det * dot3(rhs, cross3(ey, ez)),
            det * dot3(ex, cross3(rhs, ez)),
            det * dot3(ex, cross3(ey, rhs)),
        ]
    }

    /// One iteration of `b2RevoluteJoint::SolveVelocityConstraints`: the
    /// motor, then the point with the limit it rests on as one block (the
    /// limit let go, and the point solved alone, when holding it would
    /// pull), or the point alone.
    fn solve(&mut self, h: &Hinge, bodies: &mut [Body], dt: f64) {
        let (ia, ib) = (bodies[h.a].inv_inertia, bodies[h.b].inv_inertia);
        if let Some((speed, torque)) = h.motor {
            let cdot = bodies[h.b].spin - bodies[h.a].spin - speed;
            let most = dt * torque;
            let old = self.motor_impulse;
            self.motor_impulse = (old - self.motor_mass * cdot).clamp(-most, most);
            let impulse = self.motor_impulse - old;
            bodies[h.a].spin -= ia * impulse;
            bodies[h.b].spin += ib * impulse;
        }
        let (a, b) = (&bodies[h.a], &bodies[h.b]);
        let cdot1 = sub(
            add(b.velocity, cross_sv(b.spin, self.rb)),
            add(a.velocity, cross_sv(a.spin, self.ra)),
        );
        let (point, angular) = if self.limit == Limit::Free {
            let p = solve22(&self.k, scale(-1.0, cdot1));
            self.impulse[0] += p[0];
            self.impulse[1] += p[1];
            (p, 0.0)
        } else {
            let cdot2 = b.spin - a.spin;
            let step = self.solve33([-cdot1[0], -cdot1[1], -cdot2]);
            let z = self.impulse[2] + step[2];
            let lets_go = match self.limit {
                Limit::Lower => z < 0.0,
                _ => z > 0.0,
            };
            if lets_go {
                let rhs = add(
                    scale(-1.0, cdot1),
                    scale(self.impulse[2], [self.k[0][2], self.k[1][2]]),
                );
                let p = solve22(&self.k, rhs);
                let angular = -self.impulse[2];
                self.impulse = [self.impulse[0] + p[0], self.impulse[1] + p[1], 0.0];
                (p, angular)
            } else {
                self.impulse = [
                    self.impulse[0] + step[0],
                    self.impulse[1] + step[1],
                    self.impulse[2] + step[2],
                ];
                ([step[0], step[1]], step[2])
            }
        };
        let (ra, rb) = (self.ra, self.rb);
        bodies[h.a].kick(scale(-1.0, point), ra);
        bodies[h.a].spin -= ia * angular;
        bodies[h.b].kick(point, rb);
        bodies[h.b].spin += ib * angular;
    }
}

/// A hinge's mass matrix at arms `ra`, `rb` from its bodies' centers: its
/// point rows and its angle row (Box2D 2.3's `m_mass`).
fn mass_matrix(a: &Body, b: &Body, ra: V, rb: V) -> [[f64; 3]; 3] {
    let (ma, mb, ia, ib) = (a.inv_mass, b.inv_mass, a.inv_inertia, b.inv_inertia);
    let k12 = -ia * ra[0] * ra[1] - ib * rb[0] * rb[1];
    let (k13, k23) = (-ra[1] * ia - rb[1] * ib, ra[0] * ia + rb[0] * ib);
    [
        [ma + mb + ia * ra[1] * ra[1] + ib * rb[1] * rb[1], k12, k13],
        [k12, ma + mb + ia * ra[0] * ra[0] + ib * rb[0] * rb[0], k23],
        [k13, k23, ia + ib],
    ]
}

/// The point rows of mass matrix `k` solved for `rhs` (`b2Mat33::Solve22`).
fn solve22(k: &[[f64; 3]; 3], rhs: V) -> V {
    let det = k[0][0] * k[1][1] - k[0][1] * k[1][0];
    let det = if det != 0.0 { 1.0 / det } else { 0.0 };
    [
        det * (k[1][1] * rhs[0] - k[0][1] * rhs[1]),
        det * (k[0][0] * rhs[1] - k[1][0] * rhs[0]),
    ]
}

/// `w x r` for a spin `w` and an arm `r`.
fn cross_sv(w: f64, r: V) -> V {
    [-w * r[1], w * r[0]]
}

/// Box2D 2.3's step of `dt` for `bodies` joined by `hinges` alone, their
/// velocities already changed by gravity and the forces on them (see
/// [`Body::accelerate`]): the hinges' velocity constraints, at the pose
/// the step begins with, solved over gymnasium's 180 iterations; the
/// bodies moved by their velocities; then the hinges' gaps closed by the
/// position solver ([`close_hinges`]), which moves the bodies without
/// giving them speed.
///
/// gymnasium places the lander's legs 0.6 m below their hinges and outside
/// their limits, so in the reset's step the velocity solve holds each leg
/// by arms measured from where it was placed, not from where the position
/// solver then puts it: the lander leaves the reset turning as that makes
/// it turn.
pub(crate) fn step_hinges(bodies: &mut [Body], hinges: &[Hinge], dt: f64) {
    let mut rows: Vec<HingeRows> = hinges.iter().map(|h| HingeRows::new(h, bodies)).collect();
    for _ in 0..VELOCITY_ITERATIONS {
        for (h, r) in hinges.iter().zip(&mut rows) {
            r.solve(h, bodies, dt);
        }
    }
    for body in bodies.iter_mut() {
        body.integrate(dt);
    }
    close_hinges(bodies, hinges);
}

/// Moves `bodies` (placed as gymnasium places them, at rest) to where
/// Box2D 2.3's first two steps leave them (see the module's doc): the
/// `hinges` shut, the `feet` (boxes of half-extents `half`) on the flat
/// start pad of height `ground` among the `terrain`'s points.
pub(crate) fn settle(
    bodies: &mut [Body],
    hinges: &[Hinge],
    feet: &[usize],
    half: (f64, f64),
    ground: f64,
    terrain: &[(f64, f64)],
) {
    // The reset's step: the hinges alone (no foot is near the ground yet).
    let start = bodies.to_vec();
    close_hinges(bodies, hinges);
    // Continuous collision: each foot goes back along its sweep to where
    // it comes within the skin (less the slop) of the ground.
    let rest = SKIN - LINEAR_SLOP;
    for &foot in feet {
        let (from, to) = (start[foot], bodies[foot]);
        let at = |t: f64| Body {
            center: add(from.center, scale(t, sub(to.center, from.center))),
            angle: from.angle + t * (to.angle - from.angle),
            ..from
        };
        if clearance(&to, half, ground) >= rest {
            continue;
        }
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if clearance(&at(mid), half, ground) > rest {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        bodies[foot] = at(lo);
    }

    // The next step: the contacts of the feet, then the hinges.
    let limits: Vec<Limit> = hinges.iter().map(|h| h.limit(bodies)).collect();
    let mut contacts = Vec::new();
    for &foot in feet {
        touches(bodies, foot, half, terrain, &mut contacts);
    }
    for _ in 0..POSITION_ITERATIONS {
        let mut deepest: f64 = 0.0;
        for touch in &contacts {
            deepest = deepest.min(touch.correct(bodies, half));
        }
        let mut done = deepest >= -3.0 * LINEAR_SLOP;
        for (h, &limit) in hinges.iter().zip(&limits) {
            done &= h.correct(bodies, limit);
        }
        if done {
            break;
        }
    }
}
