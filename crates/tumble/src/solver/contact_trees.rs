//! The exact solve of the normal rows of contact stacks that carry a
//! load far heavier than their light bodies: a heavy crate on a light one,
//! a load on a plank.
//!
//! A soft contact gives under its load as a spring as stiff as its own
//! effective mass allows (`m omega^2`): a light body under a heavy one
//! sinks by the load over its own mass times `g / omega^2`, 3.5 cm for a
//! 1 kg box under 100 kg, at every contact the load passes through. Made
//! rigid, the rows leave Gauss-Seidel unable to carry the load from the
//! heavy body through the light one (its impulses converge at the ratio
//! of the masses), and the stack shakes apart. So, as the hinge trees of
//! [`super::joints::tree`]: after each Gauss-Seidel pass, the normal rows
//! of such a stack are solved all at once, exactly and rigidly, by the
//! linear-time elimination of [`super::elimination`] over the tree of
//! bodies and contacts, each contact a node of its one or two point rows.
//! Each row pushes or is let go, as the contact conditions say, by
//! principal pivoting ([`ContactTrees::solve`]).
//!
//! A row's target is the soft step's: a point not yet touching may close
//! its gap this substep and no more; a touching one, in the biased pass,
//! is pushed out at the contact's bias rate (capped at the push-out
//! speed), and in the relax pass held still. With no give, a resting stack
//! settles with every point touching, however heavy its load.
//!
//! Each contact is one node of its points' normal rows. Friction (and
//! rolling resistance) stays with Gauss-Seidel, whose pass solves these
//! contacts as every other, bounded by their normal impulses, which the
//! exact solve then sets.
//!
//! Which contacts: those of a component of dynamic bodies, linked by
//! touching contacts, that holds a contact between bodies whose masses
//! differ by [`EXACT_CONTACT_MASS_RATIO`] or more, and is a tree: no loop
//! among its bodies, and at most one contact with the static world or a
//! kinematic body. A tree of `n` bodies on one such contact has as many
//! rows as its bodies have degrees of freedom; a second contact with the
//! static world (a slab resting on two boxes on the ground, a box against
//! the ground and a wall) would make rows more than the bodies can take
//! apart, and rigid rows so many share a load in no one way. The choice
//! is made each step and takes effect the next: a contact to be solved
//! exactly is marked (`ContactOptions::EXACT`), which takes it out of the
//! lane batches into the one-at-a-time solve, whose impulses the exact
//! solve reads and writes. A component is solved exactly in a step once
//! every one of its contacts is marked, when none of its bodies has a
//! motion lock, and when every point of its contacts touches or nearly as
//! the step begins: a stack at rest, or pressed together. One with a
//! point farther apart (a body landing, a box rocking on a corner, a shot
//! striking) stays with Gauss-Seidel for the step: the rigid rows of a
//! body arriving at a gap are equalities that can drive it in as fast as
//! the gap allows, and the soft rows ride such arrivals out better.

use super::elimination::{body_block, tr, Blocks, IMMOVABLE, M3, V3};
use super::types::{ContactConstraint, Lock};
use crate::body::{SolverBody, StateCell};
use crate::math::{cross, Vec2};
use crate::step_context::StepContext;

/// The mass ratio across a contact between two dynamic bodies at or above
/// which its stack is solved exactly. Gauss-Seidel carries a load a few
/// times a body's own mass through its soft contacts with little give
/// (a 1 kg box under 10 kg sinks under 6 mm); a crate of 100 kg on a box
/// of 1 kg sinks 3.5 cm into it.
pub(crate) const EXACT_CONTACT_MASS_RATIO: f32 = 10.0;

/// The compliance of an exact row, as a fraction of its own inverse
/// mass: two points of a manifold nearly on top of each other make its
/// two rows nearly the same, and this give shares their load evenly
/// instead of leaving the block singular (the blocks are `f64`, so a
/// condition of `1 / EXACT_GIVE` is still solved to many digits). A
/// row's give times its impulse is a velocity it leaves unsolved: a
/// 1 kg box under 100 kg carries about 2 N s a substep, and is left
/// creeping at 5e-9 m/s.
const EXACT_GIVE: f64 = 1e-9;

/// How much faster than its target (m/s) the bodies may close on a row
/// let go before it is taken back: rounding, not an approach.
const CLOSING_TOLERANCE: f64 = 1e-6;

/// The most bodies of a stack solved exactly: past them the search
/// stops and the stack stays with Gauss-Seidel, so that no step searches
/// far.
const MAX_STACK_BODIES: usize = 128;

const BODY: u8 = 0;
const EDGE: u8 = 1;

/// What the selection reads of one of the step's contact constraints.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate {
    /// Its two solver bodies.
    pub bodies: (u32, u32),
    /// Whether it is marked for the exact solve (and so solved one at a
    /// time this step).
    pub marked: bool,
    /// Whether all its points touch or nearly (within the linear slop)
    /// as the step begins.
    pub resting: bool,
}

/// The stacks of the step whose contacts' normal rows are solved exactly,
/// and the buffers of their elimination (kept: no allocation in a steady
/// step).
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactTrees {
    /// The search's marks: a body or constraint reached by this step's
    /// search holds `stamp` (a new one each step: no clearing).
    stamp: u32,
    seen_body: Vec<u32>,
    seen_edge: Vec<u32>,
    /// A body's solved contacts, while it is searched.
    around: Vec<u32>,
    /// The constraints to be marked for the next step, ascending.
    chosen: Vec<u32>,
    /// Nodes in breadth-first order: a body (its solver body) or a contact
    /// (its constraint), each with its parent's place (`usize::MAX` for a
    /// root).
    order: Vec<(u8, u32, usize)>,
    /// Per solver body: its place in `order`, if any.
    place: Vec<usize>,
    /// Per node: a body's mass and rotational inertia.
    masses: Vec<[f64; 2]>,
    /// Per node: a contact's rows let go this solve.
    held: Vec<[bool; 2]>,
    /// Per node: a contact's rows' speeds before the solve, and their
    /// targets.
    speeds: Vec<[f64; 2]>,
    targets: Vec<[f64; 2]>,
    /// The system's blocks.
    blocks: Blocks,
}

impl ContactTrees {
    /// Nothing to solve exactly this step, nor to mark for the next.
    pub(crate) fn clear(&mut self) {
        self.order.clear();
        self.chosen.clear();
    }

    /// Whether no stack is solved exactly this step.
    pub(crate) fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The constraints to mark for the exact solve next step, ascending.
    pub(crate) fn chosen(&self) -> &[u32] {
        &self.chosen
    }

    /// Finds the step's stacks, searching outwards from its `heavy`
    /// constraints over the bodies' contacts (`contacts_of(body, out)`
    /// lists a body's solved constraints into `out`; `candidate(i)` says
    /// what constraint `i` is), over `bodies` (the shared static one
    /// last), and builds the forest of those solved exactly this step.
    /// A search stops at the first loop: a pile costs a few bodies a heavy
    /// contact, and only a stack is searched whole.
    pub(crate) fn select(
        &mut self,
        (heavy, count): (&[u32], usize),
        mut contacts_of: impl FnMut(u32, &mut Vec<u32>),
        candidate: impl Fn(u32) -> Candidate,
        (bodies, locks): (&[SolverBody], &[Lock]),
    ) {
        self.clear();
        if self.stamp == u32::MAX {
            self.stamp = 0;
            self.seen_body.clear();
            self.seen_edge.clear();
        }
        self.stamp += 1;
        let stamp = self.stamp;
        self.seen_body.resize(bodies.len(), 0);
        self.seen_edge.resize(count, 0);
        let dynamic = |b: u32| bodies[b as usize].dynamic;
        let locked = |b: u32| locks.iter().any(|l| l.body == b);
        for &h in heavy {
            let start = candidate(h).bodies.0;
            if self.seen_body[start as usize] == stamp {
                continue;
            }
            // Breadth-first from one end of the heavy contact, each node
            // put in `order` after its parent; undone if the component is
            // not a tree or not solved this step.
            let first = self.order.len();
            let chosen_from = self.chosen.len();
            self.seen_body[start as usize] = stamp;
            self.order.push((BODY, start, usize::MAX));
            let (mut grounds, mut tree, mut solvable) = (0, true, true);
            let mut next = first;
            while tree && next < self.order.len() {
                let (kind, body, _) = self.order[next];
                let at = next;
                next += 1;
                if kind != BODY {
                    continue;
                }
                solvable &= !locked(body);
                let mut around = std::mem::take(&mut self.around);
                around.clear();
                contacts_of(body, &mut around);
                for &i in &around {
                    if self.seen_edge[i as usize] == stamp {
                        continue;
                    }
                    self.seen_edge[i as usize] = stamp;
                    let c = candidate(i);
                    solvable &= c.marked && c.resting;
                    self.chosen.push(i);
                    let edge = self.order.len();
                    self.order.push((EDGE, i, at));
                    let other = if c.bodies.0 == body {
                        c.bodies.1
                    } else {
                        c.bodies.0
                    };
                    if !dynamic(other) {
                        grounds += 1;
                    } else if self.seen_body[other as usize] == stamp {
                        tree = false;
                    } else {
                        self.seen_body[other as usize] = stamp;
                        self.order.push((BODY, other, edge));
                    }
                }
                self.around = around;
                tree &= grounds <= 1 && self.order.len() - first <= 2 * MAX_STACK_BODIES;
            }
            if !tree {
                self.chosen.truncate(chosen_from);
            }
            if !(tree && solvable) {
                self.order.truncate(first);
            }
        }
        self.chosen.sort_unstable();
        let m = self.order.len();
        self.place.clear();
        self.place.resize(bodies.len(), usize::MAX);
        for (k, &(kind, id, _)) in self.order.iter().enumerate() {
            if kind == BODY {
                self.place[id as usize] = k;
            }
        }
        self.masses.clear();
        self.masses.extend(self.order.iter().map(|&(kind, id, _)| {
            // (Divided in f64, where the hinge trees' `body_masses`
            // divides in f32.)
            let mass = |inv: f32| {
                if inv > 0.0 {
                    1.0 / f64::from(inv)
                } else {
                    f64::from(IMMOVABLE)
                }
            };
            if kind == BODY {
                let b = &bodies[id as usize];
                [mass(b.inv_mass), mass(b.inv_inertia)]
            } else {
                [0.0; 2]
            }
        }));
        self.held.resize(m, [false; 2]);
        self.speeds.resize(m, [0.0; 2]);
        self.targets.resize(m, [0.0; 2]);
        self.blocks.resize(m);
    }

    /// The contact constraints solved exactly this step, in no order.
    #[cfg(test)]
    fn solved(&self) -> impl Iterator<Item = u32> + '_ {
        self.order
            .iter()
            .filter(|&&(kind, ..)| kind == EDGE)
            .map(|&(_, id, _)| id)
    }

    /// Solves the stacks' normal rows exactly, after a Gauss-Seidel pass:
    /// the biased pass's (`bias`) or the relax's.
    pub(crate) fn solve(
        &mut self,
        constraints: &mut [ContactConstraint],
        states: &[StateCell],
        ctx: &StepContext,
        bias: bool,
    ) {
        let m = self.order.len();
        // Each solve starts from the points touching pushing and those not
        // yet touching let go; principal pivoting then changes the first
        // point (in node order) whose conditions the solve breaks (pushing
        // with a negative impulse, or let go with the bodies passing
        // through it), and solves again. On this positive definite system
        // Murty's rule of changing the first broken row always ends in
        // exact arithmetic; the bound on the rounds guards against
        // rounding, which near a singular system can send it round in
        // circles: past it, the pass keeps Gauss-Seidel's answer.
        for (k, &(kind, id, _)) in self.order.iter().enumerate() {
            if kind == EDGE {
                let c = &constraints[id as usize];
                self.held[k] = std::array::from_fn(|i| i >= c.count || c.points[i].separation > 0.0);
            }
        }
        let rows: usize = self
            .order
            .iter()
            .map(|&(kind, id, _)| {
                if kind == EDGE {
                    constraints[id as usize].count
                } else {
                    0
                }
            })
            .sum();
        let mut rounds = 0;
        loop {
            self.assemble(constraints, states, ctx, bias);
            let order = &self.order;
            self.blocks.eliminate(m, |k| order[k].2);
            if !self.pivot(constraints) {
                break;
            }
            rounds += 1;
            if rounds > 4 * rows + 8 {
                return;
            }
        }
        for (k, &(kind, id, _)) in self.order.iter().enumerate() {
            let x = self.blocks.x[k];
            if kind == BODY {
                let s = &states[id as usize];
                let (v, w) = s.velocity();
                s.set_velocity(v + Vec2::new(x[0] as f32, x[1] as f32), w + x[2] as f32);
                continue;
            }
            let c = &mut constraints[id as usize];
            for (i, cp) in c.points[..c.count].iter_mut().enumerate() {
                let new = if self.held[k][i] {
                    0.0
                } else {
                    (cp.normal_impulse + x[i] as f32).max(0.0)
                };
                cp.normal_impulse = new;
                cp.max_normal_impulse = cp.max_normal_impulse.max(new);
            }
        }
    }

    /// After a solve: changes the first point, in node order, that it
    /// leaves breaking its conditions (pushing with a negative impulse, or
    /// let go with the bodies passing through it), and returns whether it
    /// changed one.
    fn pivot(&mut self, constraints: &[ContactConstraint]) -> bool {
        for k in 0..self.order.len() {
            let (kind, id, _) = self.order[k];
            if kind != EDGE {
                continue;
            }
            let c = &constraints[id as usize];
            for (i, cp) in c.points[..c.count].iter().enumerate() {
                let broken = if self.held[k][i] {
                    self.after(c, k, i) < self.targets[k][i] - CLOSING_TOLERANCE
                } else {
                    f64::from(cp.normal_impulse) + self.blocks.x[k][i] < 0.0
                };
                if broken {
                    self.held[k][i] = !self.held[k][i];
                    return true;
                }
            }
        }
        false
    }

    /// The normal velocity at point `r` of contact `c` (node `k`) after
    /// the last solve.
    fn after(&self, c: &ContactConstraint, k: usize, r: usize) -> f64 {
        let change = |body: u32| match self.place[body as usize] {
            usize::MAX => [0.0; 3],
            at => self.blocks.x[at],
        };
        let dot = |row: V3, dv: V3| row[0] * dv[0] + row[1] * dv[1] + row[2] * dv[2];
        let (ja, jb) = point_rows(c)[r];
        self.speeds[k][r] + dot(ja, change(c.a)) + dot(jb, change(c.b))
    }

    /// Builds the blocks of the system `[M -J^T; -J -G]` in `order`: each
    /// body's mass matrix, each contact's point rows (those let go left
    /// out, the impulses they had given taken back from the bodies as known
    /// ones), and the coupling of each node with its parent.
    fn assemble(
        &mut self,
        constraints: &[ContactConstraint],
        states: &[StateCell],
        ctx: &StepContext,
        bias: bool,
    ) {
        for k in 0..self.order.len() {
            let (kind, id, parent) = self.order[k];
            self.blocks.rhs[k] = [0.0; 3];
            if kind == BODY {
                self.blocks.d[k] = body_block(self.masses[k]);
                if parent != usize::MAX {
                    let p = self.order[parent].1 as usize;
                    self.blocks.off[k] = coupling_at(&constraints[p], id, self.held[parent]);
                }
            } else {
                let c = &constraints[id as usize];
                let block = contact_block(c, states, ctx, bias, self.held[k]);
                (
                    self.blocks.d[k],
                    self.blocks.rhs[k],
                    self.speeds[k],
                    self.targets[k],
                ) = block;
                if parent != usize::MAX {
                    self.blocks.off[k] = tr(&coupling_at(c, self.order[parent].1, self.held[k]));
                }
            }
        }
        for k in 0..self.order.len() {
            let (kind, id, _) = self.order[k];
            if kind != EDGE || self.held[k] == [false; 2] {
                continue;
            }
            let c = &constraints[id as usize];
            for (i, ((ja, jb), cp)) in point_rows(c).into_iter().zip(&c.points).enumerate().take(c.count) {
                if !self.held[k][i] {
                    continue;
                }
                let back = -f64::from(cp.normal_impulse);
                for (end, row) in [(c.a, ja), (c.b, jb)] {
                    let at = self.place[end as usize];
                    if at != usize::MAX {
                        for (rhs, j) in self.blocks.rhs[at].iter_mut().zip(row) {
                            *rhs += j * back;
                        }
                    }
                }
            }
        }
    }
}

/// Contact `c`'s point rows, each at body A and at body B (`J_A`, `J_B`):
/// `(-n, -ra x n)` and `(n, rb x n)` (a second point's zero if it has one).
fn point_rows(c: &ContactConstraint) -> [(V3, V3); 2] {
    let n = c.normal;
    let row = |r: Vec2, sign: f64| [n.x, n.y, cross(r, n)].map(|v| sign * f64::from(v));
    let mut rows = [([0.0; 3], [0.0; 3]); 2];
    for (i, cp) in c.points[..c.count].iter().enumerate() {
        rows[i] = (row(cp.ra, -1.0), row(cp.rb, 1.0));
    }
    rows
}

/// The coupling block of contact `c`'s rows at its body `body`: `-J` at
/// that body, a row per point (zero for those `held`), and a third row
/// of zeros.
fn coupling_at(c: &ContactConstraint, body: u32, held: [bool; 2]) -> M3 {
    let rows = point_rows(c);
    std::array::from_fn(|r| {
        if r == 2 || r >= c.count || held[r] {
            return [0.0; 3];
        }
        let j = if body == c.b { rows[r].1 } else { rows[r].0 };
        j.map(|v| -v)
    })
}

/// Contact `c`'s diagonal block and right-hand side in the system: each
/// point row's small give and its velocity error against the soft step's
/// target; the rows `held` and a third row are fillers. Also each row's
/// normal velocity and target.
fn contact_block(
    c: &ContactConstraint,
    states: &[StateCell],
    ctx: &StepContext,
    bias: bool,
    held: [bool; 2],
) -> (M3, V3, [f64; 2], [f64; 2]) {
    let softness = ctx.contact_softness(c.masses);
    let [ma, ia, mb, ib] = c.masses.map(f64::from);
    let (ba, bb) = (states[c.a as usize].load(), states[c.b as usize].load());
    let velocity = |s: &crate::body::BodyState| [s.v.x, s.v.y, s.w].map(f64::from);
    let (va, vb) = (velocity(&ba), velocity(&bb));
    let dot = |row: V3, v: V3| row[0] * v[0] + row[1] * v[1] + row[2] * v[2];
    let mut d = [[-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]];
    let (mut rhs, mut speeds, mut targets) = ([0.0; 3], [0.0; 2], [0.0; 2]);
    for (i, ((ja, jb), cp)) in point_rows(c).into_iter().zip(&c.points).enumerate().take(c.count) {
        let s = cp.separation;
        targets[i] = f64::from(if s > 0.0 {
            -s * ctx.inv_h()
        } else if bias {
            (-softness.bias_rate * s).min(ctx.max_push_out_speed)
        } else {
            0.0
        });
        speeds[i] = dot(ja, va) + dot(jb, vb);
        if held[i] {
            continue;
        }
        // The row's inverse mass, `J M^-1 J^T`.
        let k = ma * (ja[0] * ja[0] + ja[1] * ja[1])
            + ia * ja[2] * ja[2]
            + mb * (jb[0] * jb[0] + jb[1] * jb[1])
            + ib * jb[2] * jb[2];
        let give = EXACT_GIVE * k;
        d[i][i] = -give;
        rhs[i] = speeds[i] - targets[i] + give * f64::from(cp.normal_impulse);
    }
    (d, rhs, speeds, targets)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Solver bodies of masses `masses` (dynamic), then the shared static
    /// one.
    fn bodies(masses: &[f32]) -> Vec<SolverBody> {
        let mut out: Vec<SolverBody> = masses
            .iter()
            .map(|&m| SolverBody {
                inv_mass: 1.0 / m,
                inv_inertia: 6.0 / m,
                dynamic: true,
                ..SolverBody::default()
            })
            .collect();
        out.push(SolverBody::default());
        out
    }

    /// Contacts between the pairs of solver bodies `pairs`, all marked.
    fn contacts(pairs: &[(u32, u32)]) -> Vec<Candidate> {
        pairs
            .iter()
            .map(|&bodies| Candidate {
                bodies,
                marked: true,
                resting: true,
            })
            .collect()
    }

    /// `select` over `candidates`: the forest, and the constraints chosen
    /// and solved.
    fn select(
        candidates: &[Candidate],
        bodies: &[SolverBody],
        locks: &[Lock],
    ) -> (ContactTrees, Vec<u32>, Vec<u32>) {
        let heavy: Vec<u32> = (0..candidates.len() as u32)
            .filter(|&i| {
                let (a, b) = candidates[i as usize].bodies;
                let (ma, mb) = (bodies[a as usize].inv_mass, bodies[b as usize].inv_mass);
                ma > 0.0 && mb > 0.0 && ma.max(mb) >= EXACT_CONTACT_MASS_RATIO * ma.min(mb)
            })
            .collect();
        let contacts_of = |body: u32, out: &mut Vec<u32>| {
            let touching = |&i: &u32| {
                let (a, b) = candidates[i as usize].bodies;
                a == body || b == body
            };
            out.extend((0..candidates.len() as u32).filter(touching));
        };
        let mut trees = ContactTrees::default();
        trees.select(
            (&heavy, candidates.len()),
            contacts_of,
            |i| candidates[i as usize],
            (bodies, locks),
        );
        let mut solved: Vec<u32> = trees.solved().collect();
        solved.sort_unstable();
        let chosen = trees.chosen().to_vec();
        (trees, chosen, solved)
    }

    #[test]
    fn a_stack_with_a_heavy_contact_on_the_ground_is_chosen_whole() {
        // Ground (5), a 1 kg box (0), 100 kg on it (1), 1 kg on top (2),
        // and apart from them a pair of equal boxes (3, 4) on the ground.
        let b = bodies(&[1.0, 100.0, 1.0, 2.0, 2.0]);
        let g = 5;
        let all = contacts(&[(g, 0), (0, 1), (1, 2), (g, 3), (3, 4)]);
        let (_, chosen, solved) = select(&all, &b, &[]);
        assert_eq!((chosen, solved), (vec![0, 1, 2], vec![0, 1, 2]));
        // Not yet marked: chosen for the next step, solved by Gauss-Seidel
        // this one.
        let mut unmarked = all.clone();
        unmarked[2].marked = false;
        let (_, chosen, solved) = select(&unmarked, &b, &[]);
        assert_eq!((chosen, solved), (vec![0, 1, 2], vec![]));
        // A locked body, or a contact with a point apart, keeps it out of
        // the exact solve this step too.
        let lock = Lock {
            body: 1,
            linear: Vec2::ZERO,
            angular: 1.0,
        };
        let (_, chosen, solved) = select(&all, &b, &[lock]);
        assert_eq!((chosen, solved), (vec![0, 1, 2], vec![]));
        let mut apart = all.clone();
        apart[0].resting = false;
        let (_, chosen, solved) = select(&apart, &b, &[]);
        assert_eq!((chosen, solved), (vec![0, 1, 2], vec![]));
    }

    #[test]
    fn only_trees_with_a_heavy_contact_are_chosen() {
        let b = bodies(&[1.0, 100.0, 1.0, 1.0]);
        let g = 4;
        let pick = |pairs: &[(u32, u32)]| select(&contacts(pairs), &b, &[]).1;
        // No two masses ten times apart: none.
        assert!(pick(&[(g, 0), (0, 2), (2, 3)]).is_empty());
        // A loop among the bodies (a heavy box on two light ones that
        // touch each other): none.
        assert!(pick(&[(g, 0), (0, 2), (0, 1), (2, 1)]).is_empty());
        // Two contacts with the ground (two light boxes on the ground under
        // one heavy one): as many rows as a rigid solve cannot share out,
        // none.
        assert!(pick(&[(g, 0), (g, 2), (0, 1), (2, 1)]).is_empty());
        // Floating in the air, a heavy box between two light ones: all.
        assert_eq!(pick(&[(0, 1), (1, 2)]), vec![0, 1]);
    }

    #[test]
    fn a_forest_lists_each_node_after_the_one_it_hangs_from() {
        let b = bodies(&[1.0, 100.0, 1.0, 50.0]);
        let g = 4;
        // A heavy box (1) on a light one (0) on the ground, a light one (2)
        // on it, and another heavy one (3) on that.
        let pairs = [(1, 2), (0, 1), (g, 0), (2, 3)];
        let (trees, ..) = select(&contacts(&pairs), &b, &[]);
        let order = &trees.order;
        assert_eq!(order.len(), 8, "four bodies and four contacts");
        assert_eq!(order[0].2, usize::MAX, "one root");
        for (k, &(kind, id, parent)) in order.iter().enumerate().skip(1) {
            assert!(parent < k, "node {k} comes after its parent");
            let (pkind, pid, _) = order[parent];
            assert_ne!(kind, pkind, "bodies and contacts alternate");
            let (contact, body) = if kind == EDGE { (id, pid) } else { (pid, id) };
            let (a, c) = pairs[contact as usize];
            assert!(a == body || c == body, "node {k} touches its parent");
        }
    }
}
