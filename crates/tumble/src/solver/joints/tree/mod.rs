//! The exact solve of the revolute joints' point rows, the rigid welds'
//! point and angle rows and the motors of hinges driving light limbs,
//! over a tree of joints, for the trees Gauss-Seidel cannot converge: a
//! chain or skeleton of light links carrying a heavy body (a ball on a
//! chain), a long chain hung from the ground (its top link carries the
//! whole chain), welded bodies (a beam of welded boxes passes its load's
//! torque along one weld a pass, and droops and swings), or a motor
//! turning a mass far out on an arm (the motor's row and the point's undo
//! each other, and the motor lags under load), or a bridge hinged to the
//! ground at both ends (a loop: held by its joints' give alone, a loaded
//! one bounces on them). After the substeps, the trees without loops are
//! projected shut ([`projection`]).
//!
//! After each Gauss-Seidel pass, the point rows of each such tree are
//! solved all at once, exactly, by a linear-time elimination over the tree
//! (after D. Baraff, "Linear-time dynamics using Lagrange multipliers",
//! 1996): the system `[M -J^T; -J -G]`, with `G` the soft step's
//! compliance in the biased pass and none in the relax, is taken to joint
//! space, `(J M^-1 J^T + G) x = -c`, and eliminated leaf to root and
//! solved back root to leaf, one small block per joint, with no fill-in
//! ([`JointSpace`]). The forest is built once a step
//! by union-find over the dynamic bodies (the static world is no node: the
//! one joint of a tree on it is the tree's root, any second one would close
//! a loop through the ground). The joints that close loops, when a
//! component has at most [`MAX_CLOSED_LOOPS`] of them, are solved beside
//! the tree by their Schur complement ([`JointTrees::close_loops`]); a
//! component with more (a net) leaves them to Gauss-Seidel. The limits,
//! springs, and motors stay there too, but those of driven light limbs
//! ([`is_driven_hinge`]) and joint friction ([`is_joint_friction`]).
//!
//! A hinge's point rows keep the soft step's compliance in the biased
//! pass. A rigid weld's and a driven hinge's rows have none (a soft point
//! row would leave much of a motor's push on a light limb as a gap), and
//! a driven hinge's motor row is held at its bound once a solve would
//! pass it. Each pass holds the welded bodies
//! as one rigid body, the drift corrected at the joints' rate in the
//! biased pass, so a welded beam carries its load without giving under
//! it (a compliance would let the root weld turn until its spring carried
//! the whole beam's torque).

use crate::body::SolverBody;
use crate::body::StateCell;
use crate::joint::{drift_bias, point_mass_matrix, rigid, JointConstraint, JointKind, Motion};
use crate::math::Vec2;
use crate::solver::elimination::{body_masses, IMMOVABLE, M3, V3};
use crate::step_context::{Softness, StepContext};

mod joint_space;
mod loops;
mod projection;

use joint_space::JointSpace;
use loops::{Loop, LoopGroup, MAX_CLOSED_LOOPS};

/// The forest of the step's revolute joints that need an exact solve,
/// built once a step, and the elimination's buffers, kept (no allocation
/// in a steady step).
#[derive(Clone, Debug, Default)]
pub(crate) struct JointTrees {
    /// Nodes in breadth-first order, each with its parent's place (or
    /// `usize::MAX` for a root).
    order: Vec<(u8, u32, usize)>,
    uf: Vec<u32>,
    /// Per component root: whether a joint already holds it to the ground.
    grounded: Vec<bool>,
    /// Per component root: the largest mass ratio across its joints.
    ratio: Vec<f32>,
    /// Per component root: the mass of its bodies, and its lightest
    /// body's.
    load: Vec<(f32, f32)>,
    /// Per component root: whether it holds a joint with rigid rows (a
    /// rigid weld, a driven hinge), and whether a joint closes a loop in
    /// it (left to Gauss-Seidel).
    rigid: Vec<bool>,
    looped: Vec<bool>,
    /// The joints of the forest, in joint order.
    picked: Vec<u32>,
    heads: Vec<u32>,
    links: Vec<(u32, u32)>,
    seen_body: Vec<bool>,
    seen_joint: Vec<bool>,
    queue: std::collections::VecDeque<(u8, u32, usize)>,
    /// The system in joint space ([`JointSpace`]).
    space: JointSpace,
    /// Per node of `order`: a body's velocity change, a joint's impulse,
    /// this solve (or this projection's moves).
    x: Vec<V3>,
    /// Per node of `order`: the known impulses on a body (a held motor's),
    /// this solve.
    force: Vec<V3>,
    /// Per node of `order`, a joint's third row this solve.
    spins: Vec<Spin>,
    /// Per node of `order`, a body's inverse mass (twice) and inverse
    /// rotational inertia (those of an [`IMMOVABLE`] body for one that
    /// cannot move or turn).
    minv: Vec<V3>,
    /// The [`forest_key`] the forest standing was built from (empty when
    /// none stands): a step whose joints give the same key has the same
    /// forest, and only the rows that follow the joints' settings are set
    /// again.
    built_from: Vec<u64>,
    /// This step's [`forest_key`].
    key: Vec<u64>,
    /// Per joint: whether its tree's component has a loop or a row left to
    /// Gauss-Seidel, so that the projection leaves the tree as it is.
    unprojected: Vec<bool>,
    /// Per component root: whether a joint of it holds its angle in
    /// Gauss-Seidel ([`holds_an_angle`]).
    loose: Vec<bool>,
    /// The joints that close a loop, this step, in joint order.
    closing: Vec<u32>,
    /// Per component root: how many joints close a loop in it (every
    /// joint of the forest can close one: a hinge, a rigid weld).
    loop_count: Vec<u32>,
    /// The loops closed in the exact solve this step ([`Loop`]).
    loops: Vec<Loop>,
    /// Per body: its place in `order`, if the forest holds it.
    place: Vec<usize>,
    /// The forest's response to each loop row's unit impulse: node by
    /// node, three columns per loop.
    cols: Vec<V3>,
    /// Per node of `order`: the push of one loop row's unit impulse on
    /// the bodies (zero but at its two), and the forest's response to it.
    col_force: Vec<V3>,
    col_x: Vec<V3>,
    /// Per node of `order`: a body's inverse masses in the projection
    /// (none along an axis a lock holds, and none to turn).
    gap_minv: Vec<V3>,
    /// The loops' Schur complement (row by row) and right-hand side, of
    /// one component at a time.
    schur: Vec<f64>,
    schur_rhs: Vec<f64>,
    /// The trees of the forest: each one's nodes are a span of `order`.
    spans: Vec<(usize, usize)>,
    /// The components whose loops are closed ([`LoopGroup`]), their loops
    /// together in `loops`.
    groups: Vec<LoopGroup>,
}

/// The mass ratio across some hinge of a tree at or above which the tree
/// is solved exactly: Gauss-Seidel holds a hinge between bodies of about
/// this ratio, and gives way past it, its point under the heavy body's
/// load and its limits when the light one is struck. A ragdoll's bones
/// differ by at most 3.5 times (the torso and an upper arm), a bridge's
/// planks and a net's circles not at all, so they stay in Gauss-Seidel; a
/// foot a fifth of its shin's mass is past it (falling down stairs, its
/// ankle passed its limits by 14 degrees in Gauss-Seidel, under 3 solved
/// exactly), and a ball 170 times a chain link's mass far past it.
pub(crate) const EXACT_HINGE_MASS_RATIO: f32 = 4.0;

/// How many times its lightest body's mass a tree hung from the ground
/// weighs when it is solved exactly whatever its hinges' ratios
/// ([`JointTrees::build`]): Gauss-Seidel carries a chain's load along
/// alike links to about this many of them.
pub(crate) const EXACT_TREE_MASS_RATIO: f32 = 10.0;

/// How many times its inertia about its center of mass a limb's mass has
/// about the joint's anchor (`m r^2 / I`) for the limb to count as light
/// ([`light_limb`]).
const LIGHT_LIMB_RATIO: f32 = 10.0;

/// The larger mass of bodies `a` and `b` over the smaller: the larger
/// inverse mass over the smaller (one division, not three; infinite when
/// one cannot move, NaN when neither can).
#[inline]
fn mass_ratio(bodies: &[SolverBody], a: u32, b: u32) -> f32 {
    let (ia, ib) = (bodies[a as usize].inv_mass, bodies[b as usize].inv_mass);
    ia.max(ib) / ia.min(ib)
}

/// Whether joint `j` calls for an exact solve of its tree: a joint with
/// rigid rows ([`has_rigid_rows`]), or a hinge between two dynamic bodies
/// whose masses are [`EXACT_HINGE_MASS_RATIO`] or more apart (see
/// [`JointTrees::build`], which says which trees are then solved).
#[inline]
pub(crate) fn calls_for_exact_solve(j: &JointConstraint, bodies: &[SolverBody]) -> bool {
    if has_rigid_rows(j) {
        return j.a != j.b;
    }
    matches!(j.kind, JointKind::Revolute(_))
        && j.a != j.b
        && bodies[j.a as usize].dynamic
        && bodies[j.b as usize].dynamic
        && mass_ratio(bodies, j.a, j.b) >= EXACT_HINGE_MASS_RATIO
}

/// Whether joint `j` is a hinge holding a dynamic body to a static or
/// kinematic one: the root of a tree that may carry a load Gauss-Seidel
/// cannot (see [`JointTrees::build`], which weighs the tree).
#[inline]
pub(crate) fn holds_a_tree_up(j: &JointConstraint, bodies: &[SolverBody]) -> bool {
    matches!(j.kind, JointKind::Revolute(_))
        && j.a != j.b
        && bodies[j.a as usize].dynamic != bodies[j.b as usize].dynamic
}

/// Everything [`JointTrees::build`] decides the forest by, word by word,
/// into `out`: the body count, and per joint in the joints' order its two
/// bodies, how it enters the forest (a hinge; rows rigid; an angle held
/// in Gauss-Seidel) and its bodies' masses and whether each can move. Two
/// steps with the same words have the same forest, loops and masses; only
/// each joint's third row ([`spin_row`]: its motor's speed and bound) may
/// differ. Compared whole, not digested: a digest that matched by chance
/// would solve the step with another step's forest.
fn forest_key(joints: &[JointConstraint], bodies: &[SolverBody], out: &mut Vec<u64>) {
    out.clear();
    out.push(bodies.len() as u64);
    for j in joints {
        let (a, b) = (&bodies[j.a as usize], &bodies[j.b as usize]);
        let how = u64::from(matches!(j.kind, JointKind::Revolute(_)))
            | u64::from(has_rigid_rows(j)) << 1
            | u64::from(holds_an_angle(j)) << 2
            | u64::from(a.dynamic) << 3
            | u64::from(b.dynamic) << 4;
        let masses =
            |s: &SolverBody| u64::from(s.inv_mass.to_bits()) << 32 | u64::from(s.inv_inertia.to_bits());
        out.extend([u64::from(j.a) << 32 | u64::from(j.b), how, masses(a), masses(b)]);
    }
}

/// Whether joint `j` is a weld rigid in position and angle: always in a
/// tree solved exactly.
#[inline]
fn is_rigid_weld(j: &JointConstraint) -> bool {
    matches!(j.kind, JointKind::Weld(w) if w.linear_hertz == 0.0 && w.angular_hertz == 0.0)
}

/// Whether joint `j` is a hinge whose motor drives a light limb: a motor
/// at a speed other than zero, no spring, no limits, and a body whose
/// mass sits far out on its arm ([`light_limb`]). Gauss-Seidel turns such
/// a limb by the motor's row and then holds its point by the point's, and
/// the two undo each other: the motor lags by several percent under load
/// and the hinge opens. Its point and motor rows go into the exact solve.
/// (A motor at speed zero is joint friction, [`is_joint_friction`]; a
/// limb of ordinary shape converges in Gauss-Seidel and stays there. So
/// does a limited hinge's motor, which must give way to its limits, and
/// the exact solve has no limit rows.)
#[inline]
fn is_driven_hinge(j: &JointConstraint) -> bool {
    matches!(j.kind, JointKind::Revolute(r)
        if r.enable_motor && r.motor_speed != 0.0 && !r.enable_spring && !r.enable_limit)
        && light_limb(j)
}

/// Whether a dynamic end of joint `j` carries its mass far out on its
/// arm: its inertia about its center of mass under a tenth of what its
/// mass has about the joint's anchor (`I < m r^2 / 10`; a rod hinged at
/// its end has a third, a bob on a string almost none).
#[inline]
fn light_limb(j: &JointConstraint) -> bool {
    let [ma, ia, mb, ib] = j.masses;
    let far = |inv_mass: f32, inv_inertia: f32, arm: Vec2| {
        inv_mass > 0.0 && arm.length_squared() * inv_inertia >= LIGHT_LIMB_RATIO * inv_mass
    };
    far(ma, ia, j.anchor_a) || far(mb, ib, j.anchor_b)
}

/// Whether joint `j`'s rows are rigid in the exact solve (no compliance
/// in the biased pass), and its tree solved exactly unless it has a loop.
#[inline]
fn has_rigid_rows(j: &JointConstraint) -> bool {
    is_rigid_weld(j) || is_driven_hinge(j)
}

/// Whether joint `j` is a hinge's friction alone: a motor at speed zero
/// on a hinge with no limit or spring. In an exact tree its row is solved
/// with the tree's (Gauss-Seidel's friction row, solved before the tree's
/// rows undo it, would let a loaded bridge creep through its friction).
#[inline]
fn is_joint_friction(j: &JointConstraint) -> bool {
    matches!(j.kind, JointKind::Revolute(r)
        if r.enable_motor && r.motor_speed == 0.0 && !r.enable_spring && !r.enable_limit)
}

/// Whether joint `j` has rows the exact solve leaves to Gauss-Seidel: a
/// hinge's limits, spring, or motor (but a driven hinge's and joint
/// friction alone), the angle's ([`holds_an_angle`]) and any friction
/// beside them.
#[inline]
fn has_loose_rows(j: &JointConstraint) -> bool {
    holds_an_angle(j)
}

/// Whether joint `j` holds its angle in Gauss-Seidel: a hinge's limits,
/// its spring, or a motor turning it (joint friction, a motor at speed
/// zero, holds no angle and pushes no body).
#[inline]
fn holds_an_angle(j: &JointConstraint) -> bool {
    matches!(j.kind, JointKind::Revolute(r)
        if r.enable_limit || r.enable_spring || (r.enable_motor && r.motor_speed != 0.0 && !is_driven_hinge(j)))
}

/// A joint's third row in the exact solve.
#[derive(Clone, Copy, Debug, Default)]
enum Spin {
    /// None: a filler (a hinge's angle is free, or left to Gauss-Seidel).
    #[default]
    Free,
    /// A rigid weld's angle.
    Weld,
    /// A hinge's motor (a driven hinge's, or joint friction at speed
    /// zero): the relative spin it drives to, the most impulse it may take
    /// this substep, the impulse it is held at once a solve would take it
    /// past that, and whether its point rows are rigid (a driven hinge's)
    /// or keep their compliance (friction's).
    Motor {
        speed: f32,
        max: f32,
        held: Option<f32>,
        rigid: bool,
    },
}

impl Spin {
    /// Whether the row is solved this time round (a held motor's is not:
    /// its impulse acts as a known one).
    fn solved(self) -> bool {
        matches!(self, Spin::Weld | Spin::Motor { held: None, .. })
    }

    /// The impulse a held motor applies, if it is held.
    fn held(self) -> Option<f32> {
        match self {
            Spin::Motor { held, .. } => held,
            _ => None,
        }
    }

    /// Whether the joint's point rows keep the soft step's compliance.
    fn soft_point(self) -> bool {
        matches!(self, Spin::Free | Spin::Motor { rigid: false, .. })
    }

    /// Holds a motor whose row's total impulse `before + step` would pass
    /// its bound at the bound; returns whether it did.
    fn hold_past_bound(&mut self, before: f32, step: f32) -> bool {
        if let Spin::Motor {
            max,
            held: held @ None,
            ..
        } = self
        {
            let total = before + step;
            if total.abs() > *max {
                *held = Some(total.clamp(-*max, *max) - before);
                return true;
            }
        }
        false
    }

    /// Adds the row's impulse `x` (or its held one) to `impulses`.
    fn add_impulse(self, impulses: &mut crate::joint::JointImpulses, x: f32) {
        match self {
            Spin::Free => {}
            Spin::Weld => impulses.angular += x,
            Spin::Motor { held, .. } => impulses.motor += held.unwrap_or(x),
        }
    }
}

/// Joint `j`'s third row for this solve: a rigid weld's angle, a driven
/// hinge's motor, a hinge's friction.
fn spin_row(j: &JointConstraint, h: f32) -> Spin {
    if is_rigid_weld(j) {
        return Spin::Weld;
    }
    let JointKind::Revolute(r) = &j.kind else {
        return Spin::Free;
    };
    let rigid = is_driven_hinge(j);
    if !rigid && !is_joint_friction(j) {
        return Spin::Free;
    }
    Spin::Motor {
        speed: r.motor_speed,
        max: h * r.max_motor_torque,
        held: None,
        rigid,
    }
}

/// The compliance of a hinge's friction row in the exact solve, as a
/// fraction of its own inverse mass: a loop of hinges all held by their
/// friction is a frame the rigid rows alone leave statically
/// indeterminate (its loop's impulse could be anything, and taking it as
/// zero loads the hinges of the spanning tree as a cantilever, past their
/// friction). This give shares the load as an elastic frame would, and
/// leaves a turn of this fraction of the change its row makes.
const FRICTION_GIVE: f32 = 1e-4;

const BODY: u8 = 0;
const JOINT: u8 = 1;
const NONE: u32 = u32::MAX;

/// Arm `r` turned a quarter, `(-r.y, r.x)`: a joint's rows at a body
/// carry it (see [`JointSpace`]).
fn quarter_turned(r: Vec2) -> [f64; 2] {
    [-f64::from(r.y), f64::from(r.x)]
}

/// Joint `j`'s rows at body `end` for its anchors `ra`, `rb` now (a
/// loop's coupling with that body): the point's two, and the angle's
/// when `spins` (else a filler).
fn rows_at(j: &JointConstraint, (ra, rb): (Vec2, Vec2), end: u32, spins: bool) -> M3 {
    let (sign, [[x0, x1], [y0, y1]]) = if end == j.a {
        (-1.0, [[-1.0, ra.y], [-1.0, -ra.x]])
    } else {
        (1.0, [[1.0, -rb.y], [1.0, rb.x]])
    };
    let spin = if spins { sign } else { 0.0 };
    [[x0, 0.0, x1], [0.0, y0, y1], [0.0, 0.0, spin]].map(|r| r.map(f64::from))
}

/// Joint `j`'s compliance `G` and velocity error `c` in the system, for
/// its anchors `ra`, `rb` now and its third row `spin`: its point rows'
/// compliance (none for rigid rows: a weld's, a driven hinge's) and
/// velocity error with the drift's correction, and the third row's (a
/// filler's compliance is one).
#[inline(always)]
fn joint_block(
    j: &JointConstraint,
    motion: &Motion,
    (ra, rb): (Vec2, Vec2),
    spin: Spin,
    (ctx, soft, a2): (&StepContext, Softness, f32),
) -> (M3, V3) {
    let c = motion.separation(j, ra, rb);
    let cdot = motion.relative_velocity(ra, rb);
    let [k11, k12, k22] = point_mass_matrix(j.masses, ra, rb);
    let kk = [[k11, k12], [k12, k22]];
    // (Element by element: an array's `map` is not always inlined.)
    let gamma = if a2.is_finite() && spin.soft_point() {
        let (g11, g12, g22) = (kk[0][0] / a2, kk[0][1] / a2, kk[1][1] / a2);
        [[g11, g12], [g12, g22]]
    } else {
        [[0.0; 2]; 2]
    };
    let lam = j.impulses.linear;
    let g = Vec2::new(
        gamma[0][0] * lam.x + gamma[0][1] * lam.y,
        gamma[1][0] * lam.x + gamma[1][1] * lam.y,
    );
    let r = -(cdot + drift_bias(soft.bias_rate, c, ctx.max_joint_push_speed) + g);
    // The third row: a weld's angle, its drift corrected at the joints'
    // rate (as the weld's own kernel does); a free motor's speed; else a
    // filler.
    let turn = motion.b.w - motion.a.w;
    let (spin_error, spin_give) = match spin {
        Spin::Weld => (turn + soft.bias_rate * motion.angle(j), 0.0),
        Spin::Motor {
            speed,
            held: None,
            rigid,
            ..
        } => {
            let [_, ia, _, ib] = j.masses;
            let give = if rigid { 0.0 } else { FRICTION_GIVE * (ia + ib) };
            (turn - speed, give)
        }
        _ => (0.0, 1.0),
    };
    let rhs = [f64::from(-r.x), f64::from(-r.y), f64::from(spin_error)];
    let g = f64::from;
    let compliance = [
        [g(gamma[0][0]), g(gamma[0][1]), 0.0],
        [g(gamma[1][0]), g(gamma[1][1]), 0.0],
        [0.0, 0.0, g(spin_give)],
    ];
    (compliance, rhs)
}

impl JointTrees {
    /// Builds the forest of the hinges and rigid welds among `joints` (in
    /// their order this step): a spanning forest over the dynamic bodies,
    /// the static world one node; joints that would close a loop are left
    /// out. Only trees with a joint that [`calls_for_exact_solve`], or
    /// hung from the ground by one that [`holds_a_tree_up`] and heavy
    /// enough, are kept: a step with neither (a contact scene, a ragdoll
    /// pile, a net) need not call this, but [`JointTrees::clear`]. `h` is
    /// the substep, which bounds each motor row's impulse.
    ///
    /// A step whose joints build the forest the last one built (see
    /// [`forest_key`]: the same joints between the same bodies, nearly
    /// every step of a jointed scene) keeps it, and only sets each
    /// joint's third row again; so a step that kept no tree (a large net
    /// hung from the ground, all loops) keeps none again without the
    /// union-find.
    pub(crate) fn build(&mut self, joints: &[JointConstraint], bodies: &[SolverBody], h: f32) {
        forest_key(joints, bodies, &mut self.key);
        if !self.built_from.is_empty() && self.key == self.built_from {
            self.set_spins(joints, h);
            for l in &mut self.loops {
                l.impulse = [0.0; 3];
            }
            return;
        }
        self.build_forest(joints, bodies, h);
        std::mem::swap(&mut self.key, &mut self.built_from);
    }

    /// [`JointTrees::build`] from nothing.
    fn build_forest(&mut self, joints: &[JointConstraint], bodies: &[SolverBody], h: f32) {
        self.clear();
        self.spans.clear();
        let n = bodies.len();
        let ground = n as u32;
        let node_of = |b: u32| if bodies[b as usize].dynamic { b } else { ground };
        self.uf.clear();
        self.uf.extend(0..=n as u32);
        self.heads.clear();
        self.heads.resize(n + 1, NONE);
        self.links.clear();
        fn find(uf: &mut [u32], mut i: u32) -> u32 {
            while uf[i as usize] != i {
                uf[i as usize] = uf[uf[i as usize] as usize];
                i = uf[i as usize];
            }
            i
        }
        // Components over the dynamic bodies; each may hang from the
        // ground by one joint. Per component root: whether it is on the
        // ground yet, and the largest mass ratio across its joints.
        self.grounded.clear();
        self.grounded.resize(n, false);
        self.ratio.clear();
        self.ratio.resize(n, 1.0);
        self.load.clear();
        self.load.extend(bodies.iter().map(|b| {
            let mass = if b.inv_mass > 0.0 {
                1.0 / b.inv_mass
            } else {
                f32::INFINITY
            };
            (mass, mass)
        }));
        for v in [&mut self.rigid, &mut self.looped, &mut self.loose] {
            v.clear();
            v.resize(n, false);
        }
        self.picked.clear();
        self.closing.clear();
        for (k, j) in joints.iter().enumerate() {
            let rigid = has_rigid_rows(j);
            if !(rigid || matches!(j.kind, JointKind::Revolute(_))) {
                continue;
            }
            let (a, b) = (node_of(j.a), node_of(j.b));
            if a == b {
                continue;
            }
            if a == ground || b == ground {
                let r = find(&mut self.uf, if a == ground { b } else { a });
                if self.grounded[r as usize] {
                    self.looped[r as usize] = true;
                    self.closing.push(k as u32);
                } else {
                    self.grounded[r as usize] = true;
                    self.rigid[r as usize] |= rigid;
                    self.loose[r as usize] |= holds_an_angle(j);
                    self.picked.push(k as u32);
                }
                continue;
            }
            let (ra, rb) = (find(&mut self.uf, a), find(&mut self.uf, b));
            // (Joining two trees that both hang from the ground would
            // close a loop through it: the two are one component, the
            // joint no edge of the forest.)
            let closes = ra == rb || (self.grounded[ra as usize] && self.grounded[rb as usize]);
            if ra != rb {
                self.uf[ra as usize] = rb;
                let (ra, rb) = (ra as usize, rb as usize);
                self.grounded[rb] |= self.grounded[ra];
                self.rigid[rb] |= self.rigid[ra];
                self.looped[rb] |= self.looped[ra];
                self.loose[rb] |= self.loose[ra];
                self.ratio[rb] = self.ratio[ra].max(self.ratio[rb]);
                let ((ma, la), (mb, lb)) = (self.load[ra], self.load[rb]);
                self.load[rb] = (ma + mb, la.min(lb));
            }
            let rb = rb as usize;
            if closes {
                self.looped[rb] = true;
                self.closing.push(k as u32);
                continue;
            }
            self.rigid[rb] |= rigid;
            self.loose[rb] |= holds_an_angle(j);
            let need = if rigid { 1.0 } else { mass_ratio(bodies, a, b) };
            self.ratio[rb] = self.ratio[rb].max(need);
            self.picked.push(k as u32);
        }
        // The loops each component closes: the exact solve closes them
        // when they are few.
        self.loop_count.clear();
        self.loop_count.resize(n, 0);
        for &k in &self.closing {
            let j = &joints[k as usize];
            let body = if node_of(j.a) == ground { j.b } else { j.a };
            let root = find(&mut self.uf, body) as usize;
            self.loop_count[root] += 1;
        }
        let closed =
            |this: &Self, root: usize| this.looped[root] && this.loop_count[root] <= MAX_CLOSED_LOOPS;
        // Only the trees that need it: a hinge tree with a mass ratio
        // Gauss-Seidel cannot carry (a uniform net, a bridge or a ragdoll
        // converges well enough, and would pay for the elimination every
        // pass), a tree hung from the ground whose links each carry the
        // weight of those below them (a chain of many alike links: its top
        // link holds many times its own mass), or joints with rigid rows
        // and no loop among them. (A loop left to
        // Gauss-Seidel beside a rigid exact tree, as in a wall of boxes
        // welded to all their neighbours, would load the tree's welds with
        // the whole structure's weight while the loop's soft welds gave.)
        // A component's loops are closed in the exact solve when they are
        // few and all closable; otherwise they stay in Gauss-Seidel, and
        // only a tree with a mass ratio Gauss-Seidel cannot carry is solved
        // exactly beside them.
        let exact = |this: &Self, root: usize| {
            let (mass, lightest) = this.load[root];
            let open = this.looped[root] && !closed(this, root);
            if this.rigid[root] {
                !open
            } else {
                this.ratio[root] >= EXACT_HINGE_MASS_RATIO
                    || (this.grounded[root] && !open && mass >= EXACT_TREE_MASS_RATIO * lightest)
            }
        };
        self.unprojected.clear();
        self.unprojected.resize(joints.len(), false);
        for &k in &self.picked {
            let j = &joints[k as usize];
            let (a, b) = (node_of(j.a), node_of(j.b));
            let body = if a == ground { b } else { a };
            let root = find(&mut self.uf, body) as usize;
            if !exact(self, root) {
                continue;
            }
            self.unprojected[k as usize] = self.looped[root] || self.loose[root];
            for e in [a, b] {
                self.links.push((k, self.heads[e as usize]));
                self.heads[e as usize] = self.links.len() as u32 - 1;
            }
        }
        self.seen_body.clear();
        self.seen_body.resize(n + 1, false);
        self.seen_joint.clear();
        self.seen_joint.resize(joints.len(), false);
        // Roots: the joints on the ground, then any body not yet reached.
        let mut l = self.heads[n];
        while l != NONE {
            let (k, next) = self.links[l as usize];
            if !self.seen_joint[k as usize] {
                self.seen_joint[k as usize] = true;
                let start = self.order.len();
                self.walk((JOINT, k, usize::MAX), joints, &node_of, ground);
                self.spans.push((start, self.order.len()));
            }
            l = next;
        }
        for b in 0..n as u32 {
            if self.heads[b as usize] != NONE && !self.seen_body[b as usize] {
                self.seen_body[b as usize] = true;
                let start = self.order.len();
                self.walk((BODY, b, usize::MAX), joints, &node_of, ground);
                self.spans.push((start, self.order.len()));
            }
        }
        let m = self.order.len();
        self.place.clear();
        self.place.resize(n, usize::MAX);
        for (k, &(kind, id, _)) in self.order.iter().enumerate() {
            if kind == BODY {
                self.place[id as usize] = k;
            }
        }
        self.loops.clear();
        for i in 0..self.closing.len() {
            let k = self.closing[i];
            let j = &joints[k as usize];
            let body = if node_of(j.a) == ground { j.b } else { j.a };
            let root = find(&mut self.uf, body) as usize;
            if !closed(self, root) || !exact(self, root) {
                continue;
            }
            // (A body outside the forest, static, has no place.)
            let ends = [j.a, j.b].map(|b| self.place[b as usize]);
            self.loops.push(Loop {
                group: root,
                impulse: [0.0; 3],
                local: [usize::MAX; 2],
                joint: k,
                spin: Spin::Free,
                ends,
                compliance: [[0.0; 3]; 3],
                rhs: [0.0; 3],
                rows: [[[0.0; 3]; 3]; 2],
                scale: [0.0; 3],
            });
        }
        self.group_loops();
        let place = &self.place;
        self.space.build(
            &self.order,
            |kind| kind == JOINT,
            |id| [joints[id as usize].a, joints[id as usize].b].map(|b| place[b as usize]),
            &self.spans,
        );
        for v in [&mut self.x, &mut self.force, &mut self.col_force, &mut self.col_x] {
            v.resize(m, [0.0; 3]);
        }
        // Each body node's inverse mass and inertia, for the step (joint
        // nodes: unused).
        self.minv.clear();
        self.minv.extend(self.order.iter().map(|&(kind, id, _)| {
            if kind == BODY {
                let [mass, inertia] = body_masses(&bodies[id as usize]);
                [1.0 / mass, 1.0 / mass, 1.0 / inertia]
            } else {
                [0.0; 3]
            }
        }));
        self.set_spins(joints, h);
    }

    /// Each joint's third row in the forest and its loops, for the whole
    /// step (a held motor is let go at each solve's start): the motors'
    /// speeds and bounds follow the joints' settings, which may change
    /// from step to step in a forest that stands.
    fn set_spins(&mut self, joints: &[JointConstraint], h: f32) {
        self.spins.clear();
        self.spins.extend(self.order.iter().map(|&(kind, id, _)| {
            if kind == JOINT {
                spin_row(&joints[id as usize], h)
            } else {
                Spin::Free
            }
        }));
        for l in &mut self.loops {
            l.spin = spin_row(&joints[l.joint as usize], h);
        }
    }

    fn walk(
        &mut self,
        start: (u8, u32, usize),
        joints: &[JointConstraint],
        node_of: &impl Fn(u32) -> u32,
        ground: u32,
    ) {
        self.queue.push_back(start);
        while let Some((kind, id, parent)) = self.queue.pop_front() {
            let me = self.order.len();
            self.order.push((kind, id, parent));
            if kind == BODY {
                let mut l = self.heads[id as usize];
                while l != NONE {
                    let (k, next) = self.links[l as usize];
                    if !self.seen_joint[k as usize] {
                        self.seen_joint[k as usize] = true;
                        self.queue.push_back((JOINT, k, me));
                    }
                    l = next;
                }
            } else {
                let j = &joints[id as usize];
                for e in [node_of(j.a), node_of(j.b)] {
                    if e != ground && !self.seen_body[e as usize] {
                        self.seen_body[e as usize] = true;
                        self.queue.push_back((BODY, e, me));
                    }
                }
            }
        }
    }

    /// Marks the joints of the forest whose every row the exact solve
    /// holds (a hinge with no limit, spring or motor; a rigid weld; a
    /// driven hinge), which Gauss-Seidel then skips, and the hinges whose
    /// point alone it holds, whose other rows Gauss-Seidel solves about
    /// that point.
    pub(crate) fn mark_held(&self, joints: &mut [JointConstraint]) {
        let tree = self
            .order
            .iter()
            .filter(|(kind, ..)| *kind == JOINT)
            .map(|&(_, id, _)| id);
        for id in tree.chain(self.loops.iter().map(|l| l.joint)) {
            let j = &mut joints[id as usize];
            if has_loose_rows(j) {
                j.point_held = true;
            } else {
                j.held_exactly = true;
            }
        }
    }

    /// Whether no tree needs an exact solve this step.
    pub(crate) fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// No tree this step: no joint [`calls_for_exact_solve`], or the step is not the
    /// soft step, where alone the exact solve runs.
    pub(crate) fn clear(&mut self) {
        self.built_from.clear();
        self.order.clear();
        self.loops.clear();
        self.groups.clear();
    }

    /// Solves the forest's rows exactly: each hinge's point, each rigid
    /// weld's point and angle, each driven hinge's point and motor.
    /// Hinges' point rows keep the soft step's compliance
    /// in the biased pass; welds' and driven hinges' rows have none. A
    /// motor row is an equality; one that would take its motor's impulse
    /// past its bound is held at the bound and the forest solved again
    /// (each motor at most once).
    pub(crate) fn solve(
        &mut self,
        joints: &mut [JointConstraint],
        states: &[StateCell],
        ctx: &StepContext,
        bias: bool,
    ) {
        let m = self.order.len();
        for spin in &mut self.spins {
            if let Spin::Motor { held, .. } = spin {
                *held = None;
            }
        }
        for l in &mut self.loops {
            if let Spin::Motor { held, .. } = &mut l.spin {
                *held = None;
            }
        }
        loop {
            let forced = self.assemble(joints, states, (ctx, bias));
            let force = forced.then_some(&self.force[..]);
            self.space.factor(&self.minv, force);
            for t in 0..self.spans.len() {
                self.space.finish(t, force, &self.minv, &mut self.x);
            }
            if !self.loops.is_empty() {
                self.close_loops();
            }
            let mut again = false;
            for k in 0..m {
                if let Spin::Motor { held: None, .. } = self.spins[k] {
                    let before = joints[self.order[k].1 as usize].impulses.motor;
                    again |= self.spins[k].hold_past_bound(before, self.x[k][2] as f32);
                }
            }
            for l in &mut self.loops {
                if let Spin::Motor { held: None, .. } = l.spin {
                    let before = joints[l.joint as usize].impulses.motor;
                    again |= l.spin.hold_past_bound(before, l.impulse[2] as f32);
                }
            }
            if !again {
                break;
            }
        }
        for k in 0..m {
            let (kind, id, _) = self.order[k];
            let x = [self.x[k][0] as f32, self.x[k][1] as f32, self.x[k][2] as f32];
            if kind == BODY {
                let s = &states[id as usize];
                let (v, w) = s.velocity();
                s.set_velocity(v + Vec2::new(x[0], x[1]), w + x[2]);
            } else {
                let impulses = &mut joints[id as usize].impulses;
                impulses.linear += Vec2::new(x[0], x[1]);
                self.spins[k].add_impulse(impulses, x[2]);
            }
        }
        for l in &self.loops {
            let y = l.impulse;
            let impulses = &mut joints[l.joint as usize].impulses;
            impulses.linear += Vec2::new(y[0] as f32, y[1] as f32);
            l.spin.add_impulse(impulses, y[2] as f32);
        }
    }

    /// Sets this solve's system in joint space (see [`JointSpace`]): each
    /// joint's rows at its bodies, compliance and velocity error; a held
    /// motor's impulse acts on its two bodies as a known one (in
    /// `force`). Returns whether any does.
    fn assemble(
        &mut self,
        joints: &[JointConstraint],
        states: &[StateCell],
        (ctx, bias): (&StepContext, bool),
    ) -> bool {
        let soft = rigid(ctx, bias);
        let a2 = if soft.impulse_scale > 0.0 {
            soft.mass_scale / soft.impulse_scale
        } else {
            f32::INFINITY
        };
        // The angular impulse of joint `j`'s held motor on body `end`.
        let held_on =
            |j: &JointConstraint, end: u32, held: f32| f64::from(if end == j.a { -held } else { held });
        let forced = self
            .spins
            .iter()
            .chain(self.loops.iter().map(|l| &l.spin))
            .any(|s| s.held().is_some());
        if forced {
            self.force.iter_mut().for_each(|f| *f = [0.0; 3]);
        }
        let space = &mut self.space;
        for q in 0..space.len() {
            let k = space.place(q);
            let j = &joints[self.order[k].1 as usize];
            let motion = Motion::load(j, states);
            let (ra, rb) = motion.anchors(j);
            let spin = self.spins[k];
            let solved = spin.solved();
            (space.d[q], space.c[q]) = joint_block(j, &motion, (ra, rb), spin, (ctx, soft, a2));
            space.arms[q] = [quarter_turned(ra), quarter_turned(rb)];
            space.rows[q] = if solved { 3 } else { 2 };
            if let Some(held) = spin.held() {
                for (end, e) in [j.a, j.b].into_iter().zip(space.ends(q)) {
                    if e != usize::MAX {
                        self.force[e][2] += held_on(j, end, held);
                    }
                }
            }
        }
        for l in &mut self.loops {
            let j = &joints[l.joint as usize];
            let motion = Motion::load(j, states);
            let arms = motion.anchors(j);
            (l.compliance, l.rhs) = joint_block(j, &motion, arms, l.spin, (ctx, soft, a2));
            l.rows = [j.a, j.b].map(|end| rows_at(j, arms, end, l.spin.solved()).map(|r| r.map(|x| -x)));
            let [k11, _, k22] = point_mass_matrix(j.masses, arms.0, arms.1);
            l.scale = [k11, k22, j.masses[1] + j.masses[3]].map(f64::from);
            if let Some(held) = l.spin.held() {
                for (end, e) in [j.a, j.b].into_iter().zip(l.ends) {
                    if e != usize::MAX {
                        self.force[e][2] += held_on(j, end, held);
                    }
                }
            }
        }
        forced
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joint::RevoluteJoint;

    /// Solver bodies of masses `masses` (dynamic), each of inverse inertia
    /// `inertia_ratio` times its inverse mass, and one static body last.
    fn solver_bodies(masses: impl IntoIterator<Item = f32>, inertia_ratio: f32) -> Vec<SolverBody> {
        let mut out: Vec<SolverBody> = masses
            .into_iter()
            .map(|m| SolverBody {
                inv_mass: 1.0 / m,
                inv_inertia: inertia_ratio / m,
                dynamic: true,
                ..SolverBody::default()
            })
            .collect();
        out.push(SolverBody::default());
        out
    }

    /// Solver bodies of 1 m rods of masses `masses` (a rod's inertia
    /// about its center, `m / 12`), and one static body last.
    fn rods(masses: impl IntoIterator<Item = f32>) -> Vec<SolverBody> {
        solver_bodies(masses, 12.0)
    }

    /// Solver bodies of masses `masses` (dynamic, inertia equal to mass)
    /// and one static body last.
    fn bodies(masses: &[f32]) -> Vec<SolverBody> {
        solver_bodies(masses.iter().copied(), 1.0)
    }

    /// Hinges from the static body to body 0, then between each body and
    /// the next.
    fn chain(n: u32) -> Vec<JointConstraint> {
        (0..n)
            .map(|k| JointConstraint {
                a: if k == 0 { n } else { k - 1 },
                b: k,
                kind: JointKind::Revolute(RevoluteJoint::default()),
                ..JointConstraint::EMPTY
            })
            .collect()
    }

    #[test]
    fn only_a_tree_with_a_large_mass_ratio_is_solved_exactly() {
        let mut trees = JointTrees::default();
        // Links of alike mass: Gauss-Seidel's, no exact solve.
        trees.build(&chain(4), &bodies(&[1.0, 2.0, 1.0, 3.0]), 1.0 / 240.0);
        assert!(trees.order.is_empty(), "{:?}", trees.order);
        // A ragdoll's largest ratio (its torso over an upper arm), 3.5:
        // none either.
        trees.build(&chain(4), &bodies(&[1.0, 3.5, 1.0, 3.5]), 1.0 / 240.0);
        assert!(trees.order.is_empty(), "{:?}", trees.order);
        // A ball 20 times a link's mass on the end: the whole chain.
        trees.build(&chain(4), &bodies(&[1.0, 1.0, 1.0, 20.0]), 1.0 / 240.0);
        assert_eq!(
            trees.order.iter().filter(|(kind, ..)| *kind == JOINT).count(),
            4,
            "{:?}",
            trees.order
        );
        // The same masses hung by sliders: only hinges are in the trees.
        let mut sliders = chain(4);
        for j in &mut sliders {
            j.kind = JointKind::Prismatic(crate::joint::PrismaticJoint::default());
        }
        trees.build(&sliders, &bodies(&[1.0, 1.0, 1.0, 20.0]), 1.0 / 240.0);
        assert!(trees.order.is_empty(), "{:?}", trees.order);
    }

    #[test]
    fn a_hinge_is_heavy_only_between_dynamic_masses_far_apart() {
        let masses = bodies(&[1.0, 20.0, 6.0, 2.0]);
        // chain(4): ground-0, 0-1, 1-2, 2-3.
        let joints = chain(4);
        let heavy: Vec<bool> = joints.iter().map(|j| calls_for_exact_solve(j, &masses)).collect();
        // The ground's hinge never (the static body has no mass to
        // compare); 1:20 is, 20:6 and 6:2 are not (the threshold is 4).
        assert_eq!(heavy, [false, true, false, false]);
        // The same masses on a slider: only hinges count.
        let slider = JointConstraint {
            kind: JointKind::Prismatic(crate::joint::PrismaticJoint::default()),
            ..joints[1]
        };
        assert!(!calls_for_exact_solve(&slider, &masses));
        // Exactly the threshold counts.
        let exact = bodies(&[1.0, EXACT_HINGE_MASS_RATIO]);
        assert!(calls_for_exact_solve(&chain(2)[1], &exact));
    }

    /// A bridge of `n` rods of 1 m (mass 1, a rod's inertia) along x from
    /// the origin, hinged end to end and to the static body (last) at both
    /// ends, the last rod `heavy` times as heavy; `friction` on every
    /// hinge (N m, 0 for none). Each rod is moved, turned and set moving a
    /// little differently.
    fn bridge(n: u32, heavy: f32, friction: f32) -> (Vec<JointConstraint>, Vec<SolverBody>, Vec<StateCell>) {
        use crate::body::BodyState;
        use crate::math::Rot;
        let mass = |k: u32| if k + 1 == n { heavy } else { 1.0 };
        let bodies = rods((0..n).map(mass));
        let hinge = RevoluteJoint {
            enable_motor: friction > 0.0,
            max_motor_torque: friction,
            ..RevoluteJoint::default()
        };
        let joints = (0..=n)
            .map(|k| {
                let a = if k == 0 { n } else { k - 1 };
                let b = if k == n { n } else { k };
                let end = |body: u32| {
                    if body == n {
                        (0.0, 0.0)
                    } else {
                        (1.0 / mass(body), 12.0 / mass(body))
                    }
                };
                let ((ma, ia), (mb, ib)) = (end(a), end(b));
                JointConstraint {
                    a,
                    b,
                    masses: [ma, ia, mb, ib],
                    anchor_a: if a == n {
                        Vec2::new(k as f32, 0.0)
                    } else {
                        Vec2::new(0.5, 0.0)
                    },
                    anchor_b: if b == n {
                        Vec2::new(k as f32, 0.0)
                    } else {
                        Vec2::new(-0.5, 0.0)
                    },
                    delta_center: Vec2::new(
                        match (a == n, b == n) {
                            (true, _) => 0.5,
                            (_, true) => -(k as f32 - 0.5),
                            _ => 1.0,
                        },
                        0.0,
                    ),
                    kind: JointKind::Revolute(hinge),
                    ..JointConstraint::EMPTY
                }
            })
            .collect();
        let states = (0..=n)
            .map(|k| {
                let x = k as f32;
                StateCell::new(if k == n {
                    BodyState::default()
                } else {
                    BodyState {
                        v: Vec2::new(0.3 * x.sin(), -1.0 - 0.2 * x),
                        w: 0.5 * x.cos(),
                        dp: Vec2::new(0.002 * x.cos(), -0.003 * x.sin()),
                        dq: Rot::from_angle(0.01 * x.sin()),
                    }
                })
            })
            .collect();
        (joints, bodies, states)
    }

    /// `count` copies of [`bridge`] in one forest: copy `c`'s rods are
    /// bodies `c * n..(c + 1) * n`, the static body last, shared.
    fn bridges(count: u32, n: u32, friction: f32) -> (Vec<JointConstraint>, Vec<SolverBody>, Vec<StateCell>) {
        let (one, one_bodies, one_states) = bridge(n, 20.0, friction);
        let ground = count * n;
        let at = |c: u32, b: u32| if b == n { ground } else { c * n + b };
        let joints = (0..count)
            .flat_map(|c| {
                one.iter().map(move |j| JointConstraint {
                    a: at(c, j.a),
                    b: at(c, j.b),
                    ..*j
                })
            })
            .collect();
        let mut bodies: Vec<SolverBody> = (0..count)
            .flat_map(|_| one_bodies[..n as usize].to_vec())
            .collect();
        bodies.push(one_bodies[n as usize]);
        let states = (0..count)
            .flat_map(|_| one_states[..n as usize].iter().map(|s| StateCell::new(s.load())))
            .chain([StateCell::new(one_states[n as usize].load())])
            .collect();
        (joints, bodies, states)
    }

    /// A random joint graph over a few bodies of masses far apart (a
    /// tree, loops, loops through the ground, joints doubled between one
    /// pair, more loops than a component may close), of hinges, hinges
    /// with friction and rigid welds, its bodies moving every way: the
    /// joints, the bodies (the static one last) and their states.
    fn random_graph(
        rng: &mut crate::test_rng::Rng,
    ) -> (Vec<JointConstraint>, Vec<SolverBody>, Vec<StateCell>) {
        use crate::body::BodyState;
        use crate::joint::WeldJoint;
        let n = 2 + (rng.range(0.0, 30.0) as u32);
        let ground = n;
        let masses: Vec<f32> = (0..n)
            .map(|_| [0.5, 1.0, 2.0, 40.0][rng.range(0.0, 4.0) as usize])
            .collect();
        let centers: Vec<Vec2> = (0..=n).map(|_| rng.vec(5.0)).collect();
        let bodies = rods(masses.iter().copied());
        let inverse = |b: u32| {
            if b == ground {
                (0.0, 0.0)
            } else {
                (1.0 / masses[b as usize], 12.0 / masses[b as usize])
            }
        };
        let count = n + (rng.range(0.0, 20.0) as u32);
        let chain = rng.range(0.0, 1.0) < 0.5;
        // (The bodies in clusters of a few, joined within a cluster or
        // to the ground: many components, each with a few loops.)
        let cluster = 2 + (rng.range(0.0, 5.0) as u32);
        let joints: Vec<JointConstraint> = (0..count)
            .filter_map(|k| {
                // (Half the graphs a spanning chain first, so that
                // they hold every body; then any pair of a cluster.)
                let (a, b) = if chain && k < n {
                    (if k == 0 { ground } else { k - 1 }, k)
                } else {
                    let first = cluster * (rng.range(0.0, n.div_ceil(cluster) as f32) as u32);
                    let mut pick = || {
                        let b = first + rng.range(0.0, (cluster + 1) as f32) as u32;
                        if b >= first + cluster || b >= n {
                            ground
                        } else {
                            b
                        }
                    };
                    (pick(), pick())
                };
                if a == b {
                    return None;
                }
                let at = centers[a as usize].lerp(centers[b as usize], rng.range(0.2, 0.8)) + rng.vec(0.3);
                let ((ma, ia), (mb, ib)) = (inverse(a), inverse(b));
                let kind = match rng.range(0.0, 3.0) as u32 {
                    0 => JointKind::Revolute(RevoluteJoint::default()),
                    1 => JointKind::Revolute(RevoluteJoint {
                        enable_motor: true,
                        max_motor_torque: rng.range(0.0, 50.0),
                        ..RevoluteJoint::default()
                    }),
                    _ => JointKind::Weld(WeldJoint::rigid()),
                };
                Some(JointConstraint {
                    a,
                    b,
                    masses: [ma, ia, mb, ib],
                    anchor_a: at - centers[a as usize],
                    anchor_b: at - centers[b as usize],
                    delta_center: centers[b as usize] - centers[a as usize],
                    kind,
                    ..JointConstraint::EMPTY
                })
            })
            .collect();
        let states: Vec<StateCell> = (0..=n)
            .map(|k| {
                StateCell::new(if k == ground {
                    BodyState::default()
                } else {
                    BodyState {
                        v: rng.vec(3.0),
                        w: rng.range(-3.0, 3.0),
                        ..BodyState::default()
                    }
                })
            })
            .collect();
        (joints, bodies, states)
    }

    /// Random joint graphs over a few bodies of masses far apart (trees,
    /// loops, loops through the ground, joints doubled between one pair,
    /// more loops than a component may close), of hinges, hinges with
    /// friction and rigid welds, their bodies moving every way: the relax
    /// shuts every anchor the exact solve holds, and every velocity stays
    /// finite.
    #[test]
    fn the_exact_solve_holds_every_joint_it_takes_on_random_graphs() {
        let ctx = StepContext::for_tests();
        let mut rng = crate::test_rng::Rng(0x10_0b5);
        let (mut held, mut closed, mut left_open) = (0, 0, 0);
        for trial in 0..300 {
            let (joints, bodies, states) = random_graph(&mut rng);
            let mut joints = joints;
            let mut trees = JointTrees::default();
            trees.build(&joints, &bodies, ctx.h);
            trees.mark_held(&mut joints);
            trees.solve(&mut joints, &states, &ctx, false);
            for s in &states {
                let (v, w) = s.velocity();
                assert!(v.is_finite() && w.is_finite(), "trial {trial}: {v} {w}");
            }
            closed += trees.loops.len();
            for (k, (dv, _)) in joint_velocities(&joints, &states).into_iter().enumerate() {
                let in_forest = joints[k].held_exactly || joints[k].point_held;
                left_open += usize::from(!in_forest && !trees.is_empty());
                if in_forest {
                    held += 1;
                    assert!(dv.length() < 1e-3, "trial {trial}: joint {k} opens at {dv}");
                }
            }
        }
        // (The graphs put most joints in the exact solve, close many
        // loops there, and leave some to Gauss-Seidel.)
        assert!(
            held > 1000 && closed > 100 && left_open > 20,
            "{held} held, {closed} loops closed, {left_open} left"
        );
    }

    /// A forest kept from the last step (the same joints between the same
    /// bodies, solved there with other velocities) solves as one built
    /// anew, bit for bit, with its joints' motor bounds as they are now;
    /// a body whose mass changed has it built anew.
    #[test]
    fn a_kept_forest_solves_as_one_built_anew() {
        let ctx = StepContext::for_tests();
        let mut rng = crate::test_rng::Rng(0x57a_d1e);
        let mut kept = JointTrees::default();
        let (mut reused, mut rebuilt) = (0, 0);
        for trial in 0..200 {
            let (mut joints, mut bodies, states) = random_graph(&mut rng);
            // Last step: the same graph, its bodies moving the other way.
            kept.build(&joints, &bodies, ctx.h);
            let backward: Vec<StateCell> = states
                .iter()
                .map(|s| {
                    let mut b = s.load();
                    (b.v, b.w) = (-b.v, -b.w);
                    StateCell::new(b)
                })
                .collect();
            let mut last = joints.clone();
            kept.mark_held(&mut last);
            kept.solve(&mut last, &backward, &ctx, true);
            // This step: new motor bounds, and now and then a new mass.
            for j in &mut joints {
                if let JointKind::Revolute(r) = &mut j.kind {
                    r.max_motor_torque = rng.range(0.0, 50.0);
                }
            }
            // (A body the first joint holds: the ground is the last.)
            let remassed = trial % 4 == 0;
            if remassed {
                let body = joints[0].a.min(joints[0].b);
                bodies[body as usize].inv_mass *= 2.0;
            }
            let solved = |trees: &mut JointTrees| {
                let mut joints = joints.clone();
                let states: Vec<StateCell> = states.iter().map(|s| StateCell::new(s.load())).collect();
                trees.build(&joints, &bodies, ctx.h);
                trees.mark_held(&mut joints);
                trees.solve(&mut joints, &states, &ctx, true);
                trees.solve(&mut joints, &states, &ctx, false);
                let velocities: Vec<_> = states.iter().map(|s| s.velocity()).collect();
                format!(
                    "{:?} {velocities:?}",
                    joints.iter().map(|j| j.impulses).collect::<Vec<_>>()
                )
            };
            let (standing, fresh) = (solved(&mut kept), solved(&mut JointTrees::default()));
            assert_eq!(standing, fresh, "trial {trial}");
            if kept.key == kept.built_from {
                assert!(!remassed, "trial {trial}: a forest kept past a changed mass");
                reused += 1;
            } else {
                rebuilt += 1;
            }
        }
        assert!(
            reused > 100 && rebuilt >= 50,
            "{reused} kept, {rebuilt} built anew"
        );
    }

    #[test]
    fn a_motor_closing_a_loop_drives_it_at_its_speed() {
        let ctx = StepContext::for_tests();
        // The bridge's last rod made point-like (its mass at its center,
        // far out on the arm of the hinge at the far anchor), that hinge
        // given a motor at 1 rad/s with torque to spare: a driven hinge,
        // closing the loop through the ground.
        let (mut joints, mut bodies, states) = bridge(10, 20.0, 0.0);
        let point_like = 1.0e4 / 20.0;
        bodies[9].inv_inertia = point_like;
        joints[9].masses[3] = point_like;
        joints[10].masses[1] = point_like;
        joints[10].kind = JointKind::Revolute(RevoluteJoint {
            enable_motor: true,
            motor_speed: 1.0,
            max_motor_torque: 1.0e6,
            ..RevoluteJoint::default()
        });
        assert!(is_driven_hinge(&joints[10]));
        let mut trees = JointTrees::default();
        trees.build(&joints, &bodies, ctx.h);
        assert_eq!(trees.loops.len(), 1);
        assert_eq!(trees.loops[0].joint, 10);
        trees.mark_held(&mut joints);
        trees.solve(&mut joints, &states, &ctx, false);
        let velocities = joint_velocities(&joints, &states);
        for (k, (dv, _)) in velocities.iter().enumerate() {
            assert!(dv.length() < 1e-4, "joint {k} opens at {dv}");
        }
        assert!(
            (velocities[10].1 - 1.0).abs() < 1e-4,
            "the motor turns at {}",
            velocities[10].1
        );
    }

    #[test]
    fn each_components_loops_are_closed_apart_from_the_others() {
        let ctx = StepContext::for_tests();
        // Nine bridges, each closing its own loop (more loops in the forest
        // than one component may close): each is solved as it is alone.
        for friction in [0.0, 1.0] {
            let (mut one, bodies, alone) = bridge(10, 20.0, friction);
            let mut trees = JointTrees::default();
            trees.build(&one, &bodies, ctx.h);
            trees.mark_held(&mut one);
            trees.solve(&mut one, &alone, &ctx, false);
            let count = 3 * MAX_CLOSED_LOOPS;
            let (mut many, bodies, together) = bridges(count, 10, friction);
            trees.build(&many, &bodies, ctx.h);
            assert_eq!(trees.loops.len(), count as usize);
            trees.mark_held(&mut many);
            trees.solve(&mut many, &together, &ctx, false);
            for (k, s) in together[..together.len() - 1].iter().enumerate() {
                let ((v, w), (u, x)) = (s.velocity(), alone[k % 10].velocity());
                assert!(
                    (v - u).length() < 1e-5 && (w - x).abs() < 1e-5,
                    "body {k}: {v} {w} against {u} {x}"
                );
            }
        }
    }

    /// The relative velocity at each joint's anchors, and its relative spin.
    fn joint_velocities(joints: &[JointConstraint], states: &[StateCell]) -> Vec<(Vec2, f32)> {
        joints
            .iter()
            .map(|j| {
                let m = Motion::load(j, states);
                let (ra, rb) = m.anchors(j);
                (m.relative_velocity(ra, rb), m.b.w - m.a.w)
            })
            .collect()
    }

    #[test]
    fn a_loop_through_the_ground_is_closed_in_the_exact_solve() {
        let ctx = StepContext::for_tests();
        // Ten rods, the last twenty times as heavy: the chain from the
        // first anchor is the forest, the hinge at the far anchor closes
        // the loop.
        let (mut joints, bodies, states) = bridge(10, 20.0, 0.0);
        let mut trees = JointTrees::default();
        trees.build(&joints, &bodies, ctx.h);
        assert_eq!(trees.loops.len(), 1);
        assert_eq!(trees.loops[0].joint, 10);
        trees.mark_held(&mut joints);
        assert!(joints.iter().all(|j| j.held_exactly));
        // The relax (no compliance, no drift correction): every joint's
        // anchors, the loop's among them, move together afterwards.
        trees.solve(&mut joints, &states, &ctx, false);
        for (k, (dv, _)) in joint_velocities(&joints, &states).into_iter().enumerate() {
            assert!(dv.length() < 1e-4, "joint {k} opens at {dv}");
        }
        // The momentum the joints change is what their impulses carry:
        // the solve is the same with the loop's impulse applied up front
        // and its rows left out.
        let (mut open, _, states_open) = bridge(10, 20.0, 0.0);
        let p = joints[10].impulses.linear;
        {
            let j = &open[10];
            let mut m = Motion::load(j, &states_open);
            let (ra, rb) = m.anchors(j);
            m.apply_linear(j, ra, rb, p);
            states_open[j.a as usize].set_velocity(m.a.v, m.a.w);
        }
        open.pop();
        let mut forest = JointTrees::default();
        forest.build(&open, &bodies, ctx.h);
        assert!(forest.loops.is_empty());
        forest.solve(&mut open, &states_open, &ctx, false);
        for (s, t) in states.iter().zip(&states_open) {
            let ((v, w), (u, x)) = (s.velocity(), t.velocity());
            assert!(
                (v - u).length() < 1e-4 && (w - x).abs() < 1e-4,
                "{v} {w} against {u} {x}"
            );
        }
        // A step with no tree after it keeps no loop of it either.
        trees.clear();
        trees.mark_held(&mut []);
        assert!(trees.is_empty() && trees.loops.is_empty());
    }

    #[test]
    fn a_loops_friction_holds_its_hinges_below_its_torque() {
        let ctx = StepContext::for_tests();
        // Friction far past what the motion needs: every hinge, the
        // loop's too, stops turning, and every anchor holds.
        // (The friction rows' give leaves a turn of a few percent of what
        // they stop.)
        let (mut joints, bodies, states) = bridge(10, 20.0, 1.0e6);
        let turning = joint_velocities(&joints, &states)
            .iter()
            .fold(0.0f32, |m, v| m.max(v.1.abs()));
        assert!(turning > 0.4, "{turning}");
        let mut trees = JointTrees::default();
        trees.build(&joints, &bodies, ctx.h);
        trees.mark_held(&mut joints);
        trees.solve(&mut joints, &states, &ctx, false);
        for (k, (dv, spin)) in joint_velocities(&joints, &states).into_iter().enumerate() {
            assert!(
                dv.length() < 1e-4 && spin.abs() < 0.05 * turning,
                "joint {k}: {dv}, {spin}"
            );
        }
        // Friction too weak to stop the hinges turning: each takes its
        // whole torque, and the anchors still hold.
        let weak = 0.01;
        let (mut joints, bodies, states) = bridge(10, 20.0, weak);
        trees.build(&joints, &bodies, ctx.h);
        trees.mark_held(&mut joints);
        trees.solve(&mut joints, &states, &ctx, false);
        for (k, (dv, _)) in joint_velocities(&joints, &states).into_iter().enumerate() {
            assert!(dv.length() < 1e-4, "joint {k} opens at {dv}");
        }
        for j in &joints {
            assert!(
                j.impulses.motor.abs() <= weak * ctx.h * 1.0001,
                "{}",
                j.impulses.motor
            );
        }
        assert!(joints
            .iter()
            .any(|j| j.impulses.motor.abs() >= weak * ctx.h * 0.9999));
    }

    #[test]
    fn a_chain_hung_from_the_ground_is_solved_exactly_when_it_carries_ten_links() {
        let h = 1.0 / 240.0;
        let joints = |n: u32| {
            let js = chain(n);
            assert!(js
                .iter()
                .all(|j| !calls_for_exact_solve(j, &bodies(&vec![1.0; n as usize]))));
            js
        };
        let hinges = |t: &JointTrees| t.order.iter().filter(|(kind, ..)| *kind == JOINT).count();
        let mut trees = JointTrees::default();
        // Nine alike links: the top one carries nine times its mass.
        trees.build(&joints(9), &bodies(&[1.0; 9]), h);
        assert_eq!(hinges(&trees), 0);
        // Ten: the whole chain.
        trees.build(&joints(10), &bodies(&[1.0; 10]), h);
        assert_eq!(hinges(&trees), 10);
        // Ten, with the free end hinged to the ground too (a bridge, one
        // loop): the chain, its loop closed by the last hinge.
        let mut bridge = joints(10);
        let ground = 10;
        bridge.push(JointConstraint {
            a: 9,
            b: ground,
            ..bridge[1]
        });
        trees.build(&bridge, &bodies(&[1.0; 10]), h);
        assert_eq!((hinges(&trees), trees.loops.len()), (10, 1));
        // More loops than the exact solve closes (every link hinged to the
        // ground as well): none; asked again unchanged, still none (from
        // the key).
        let mut net = bridge.clone();
        for b in 0..MAX_CLOSED_LOOPS {
            net.push(JointConstraint { a: b, ..bridge[10] });
        }
        trees.build(&net, &bodies(&[1.0; 10]), h);
        assert_eq!(hinges(&trees), 0);
        trees.build(&net, &bodies(&[1.0; 10]), h);
        assert_eq!(hinges(&trees), 0);
        // The loops' joints gone: the key changes and the chain is kept.
        trees.build(&bridge[..10], &bodies(&[1.0; 10]), h);
        assert_eq!((hinges(&trees), trees.loops.len()), (10, 0));
        // Nine links again, the last one made heavier to carry ten links'
        // mass: the same joints, other masses, kept.
        trees.build(&joints(9), &bodies(&[1.0; 9]), h);
        assert_eq!(hinges(&trees), 0);
        trees.build(
            &joints(9),
            &bodies(&[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0]),
            h,
        );
        assert_eq!(hinges(&trees), 9);
    }
}
