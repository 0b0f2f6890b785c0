//! The forest's system solved in joint space: its bodies eliminated first
//! (each one's mass matrix is diagonal, so that costs nothing), which
//! leaves one block per joint, `A = J M^-1 J^T + G`, coupled with the
//! joints that share a body with it.
//!
//! The joints are eliminated leaf to root, each body's child joints one
//! after another (the last first) once their own subtrees are: a joint's
//! neighbours still in the system are then its siblings not yet
//! eliminated and its parent body's own joint, which all share that body
//! and so are already coupled with each other, and the elimination makes
//! no fill-in. A chain costs one small block a joint, where eliminating
//! the bodies' and joints' blocks together (Baraff's ordering) inverts a
//! dense block for each body too.
//!
//! A joint's block has two rows (a hinge's point) or three (with a
//! weld's angle or a motor's row); the products are taken at the sizes of
//! their blocks, so a chain of hinges never touches a third row.

use crate::solver::elimination::{inv, M3, V3};

/// The most rows a joint has in the system.
const ROWS: usize = 3;

/// `usize::MAX`: no place (an end outside the forest, a root's parent).
const NO_PLACE: usize = usize::MAX;

/// No joint.
const NO_JOINT: u32 = u32::MAX;

/// A joint of the forest in joint space, and the joints it is still
/// coupled with when it is eliminated (its partners): the siblings
/// eliminated after it (the joints hung from the same body, which are
/// eliminated one after another) and its parent body's own joint.
#[derive(Clone, Copy, Debug)]
struct Link {
    /// Its place in the forest's order.
    place: usize,
    /// The forest's places of its bodies `a` and `b` ([`NO_PLACE`] for
    /// one outside the forest: the static world).
    ends: [usize; 2],
    /// Which of its ends it shares with its partners (its parent body; 0
    /// or 1, unused for a root on the static world).
    shared: u8,
    /// One past its last sibling (in elimination order): its partners
    /// among them follow it up to there.
    siblings_end: u32,
    /// Its parent body's own joint (in elimination order), or
    /// [`NO_JOINT`].
    parent: u32,
    /// Where its couplings with its partners start in
    /// `JointSpace::coupling`: the later siblings in order, then the
    /// parent.
    first: u32,
}

impl Link {
    /// Its partners (joint `q`'s, this link): its later siblings, then its
    /// parent body's joint; the `i`th partner's coupling is entry
    /// `first + i`.
    #[inline(always)]
    fn partners(self, q: usize) -> impl Iterator<Item = usize> {
        (0..self.partner_count(q)).map(move |i| self.partner(q, i))
    }

    /// How many partners it has (joint `q`'s, this link).
    #[inline(always)]
    fn partner_count(self, q: usize) -> usize {
        self.siblings_end as usize - q - 1 + usize::from(self.parent != NO_JOINT)
    }

    /// Its `i`th partner (joint `q`'s, this link), `i` under
    /// [`Link::partner_count`].
    #[inline(always)]
    fn partner(self, q: usize, i: usize) -> usize {
        let sibling = q + 1 + i;
        if sibling < self.siblings_end as usize {
            sibling
        } else {
            self.parent as usize
        }
    }
}

/// The joints of the forest in joint space, indexed in elimination order:
/// which couple with which (built once a step), and this solve's blocks
/// and factors.
#[derive(Clone, Debug, Default)]
pub(super) struct JointSpace {
    /// The joints, in elimination order (leaf to root, tree after tree).
    links: Vec<Link>,
    /// Per tree: its joints (a span of `links`) and its bodies (a span of
    /// `bodies`).
    trees: Vec<((usize, usize), (usize, usize))>,
    /// The bodies' places in the forest's order, tree after tree.
    bodies: Vec<usize>,
    /// Per tree, this solve: whether all its joints have two rows (its
    /// blocks are then 2x2; else 3x3, a two-row joint's third row a
    /// filler: its compliance one, coupled with nothing).
    narrow: Vec<bool>,
    /// Build scratch: per place of the forest's order, its joint's
    /// breadth-first index, and per joint in breadth-first order its
    /// index in elimination order.
    joint_at: Vec<u32>,
    position: Vec<u32>,
    /// Build scratch: the joints' places in breadth-first order, and per
    /// body place the first of its child joints (breadth-first) and how
    /// many.
    bfs: Vec<usize>,
    children: Vec<(u32, u32)>,
    /// Per joint, this solve: its anchors' arms from bodies `a` and `b`,
    /// each turned a quarter (`(-r.y, r.x)`): its rows at body `a` are
    /// `-[[1, 0, p.x], [0, 1, p.y], [0, 0, 1]]` and at `b` the same with
    /// `+` (see [`Rows`]).
    pub(super) arms: Vec<[[f64; 2]; 2]>,
    /// Per joint, this solve: how many rows it has (2 or 3).
    pub(super) rows: Vec<u8>,
    /// Per joint, this solve: its compliance `G` (set before
    /// [`JointSpace::factor`]), then its block of `A`, then that block's
    /// inverse once eliminated.
    pub(super) d: Vec<M3>,
    /// Per joint, this solve: its velocity error (the right-hand side
    /// `c` of `-J dv - G x = c`).
    pub(super) c: Vec<V3>,
    /// The couplings of each joint with its partners (the joint's rows,
    /// the partner's columns), as eliminated.
    coupling: Vec<M3>,
    /// Per joint: the right-hand side as eliminated, then the impulse.
    b: Vec<V3>,
}

impl JointSpace {
    /// Builds the structure for the forest `order` (nodes breadth first,
    /// each `(kind, id, parent place)`, `is_joint(kind)` telling joints
    /// from bodies), whose trees are the spans `spans` of it; `ends(id)`
    /// gives joint `id`'s bodies' places. Sizes this solve's buffers.
    pub(super) fn build(
        &mut self,
        order: &[(u8, u32, usize)],
        is_joint: impl Fn(u8) -> bool,
        ends: impl Fn(u32) -> [usize; 2],
        spans: &[(usize, usize)],
    ) {
        let m = order.len();
        self.joint_at.clear();
        self.joint_at.resize(m, NO_JOINT);
        self.children.clear();
        self.children.resize(m, (0, 0));
        self.bfs.clear();
        for (k, &(kind, _, parent)) in order.iter().enumerate() {
            if !is_joint(kind) {
                continue;
            }
            let i = self.bfs.len() as u32;
            self.joint_at[k] = i;
            self.bfs.push(k);
            // (A body's child joints are consecutive in a breadth-first
            // order.)
            if parent != NO_PLACE {
                let kids = &mut self.children[parent];
                if kids.1 == 0 {
                    kids.0 = i;
                }
                kids.1 += 1;
            }
        }
        // Elimination order: each tree's bodies from its leaves up, each
        // body's child joints (the last first), and a tree's root joint
        // on the static world once its body's are.
        self.links.clear();
        self.trees.clear();
        self.bodies.clear();
        self.position.clear();
        self.position.resize(self.bfs.len(), NO_JOINT);
        for &(start, end) in spans {
            let (from, bodies_from) = (self.links.len(), self.bodies.len());
            for k in (start..end).rev() {
                if is_joint(order[k].0) {
                    continue;
                }
                self.bodies.push(k);
                let (first, count) = self.children[k];
                let siblings_end = (self.links.len() + count as usize) as u32;
                for i in (first..first + count).rev() {
                    self.position[i as usize] = self.links.len() as u32;
                    let place = self.bfs[i as usize];
                    let e = ends(order[place].1);
                    self.links.push(Link {
                        place,
                        ends: e,
                        shared: u8::from(e[1] == k),
                        siblings_end,
                        parent: NO_JOINT,
                        first: 0,
                    });
                }
                let above = order[k].2;
                if above != NO_PLACE && order[above].2 == NO_PLACE {
                    self.position[self.joint_at[above] as usize] = self.links.len() as u32;
                    let e = ends(order[above].1);
                    self.links.push(Link {
                        place: above,
                        ends: e,
                        shared: 0,
                        siblings_end: self.links.len() as u32 + 1,
                        parent: NO_JOINT,
                        first: 0,
                    });
                }
            }
            self.trees
                .push(((from, self.links.len()), (bodies_from, self.bodies.len())));
        }
        let mut first = 0;
        for q in 0..self.links.len() {
            let link = &mut self.links[q];
            let body = order[link.place].2;
            if body != NO_PLACE {
                let above = order[body].2;
                if above != NO_PLACE {
                    link.parent = self.position[self.joint_at[above] as usize];
                }
            }
            link.first = first;
            first += link.siblings_end - q as u32 - 1 + u32::from(link.parent != NO_JOINT);
        }
        let n = self.links.len();
        self.arms.resize(n, [[0.0; 2]; 2]);
        self.rows.resize(n, 2);
        self.d.resize(n, [[0.0; ROWS]; ROWS]);
        self.c.resize(n, [0.0; ROWS]);
        self.b.resize(n, [0.0; ROWS]);
        self.coupling.resize(first as usize, [[0.0; ROWS]; ROWS]);
        self.narrow.resize(self.trees.len(), true);
    }

    /// How many joints the forest has.
    pub(super) fn len(&self) -> usize {
        self.links.len()
    }

    /// Joint `q`'s place in the forest's order.
    pub(super) fn place(&self, q: usize) -> usize {
        self.links[q].place
    }

    /// Joint `q`'s bodies' places in the forest's order.
    pub(super) fn ends(&self, q: usize) -> [usize; 2] {
        self.links[q].ends
    }

    /// Forms `A` from this solve's rows and compliances, with `minv` each
    /// body place's inverse masses along x and y and inverse inertia,
    /// and eliminates it, tree by tree, with the right-hand side for the
    /// joints' velocity errors and the known impulses `force` on the
    /// bodies (by place; none if `None`). [`JointSpace::finish`] then
    /// solves each tree.
    pub(super) fn factor(&mut self, minv: &[V3], force: Option<&[V3]>) {
        for t in 0..self.trees.len() {
            let (from, to) = self.trees[t].0;
            self.narrow[t] = self.rows[from..to].iter().all(|&n| n == 2);
            if self.narrow[t] {
                self.factor_tree::<2>((from, to), minv, force);
            } else {
                self.factor_tree::<3>((from, to), minv, force);
            }
        }
    }

    /// [`JointSpace::factor`] of the joints `from..to` (a tree) in `N` x
    /// `N` blocks.
    fn factor_tree<const N: usize>(&mut self, (from, to): (usize, usize), minv: &[V3], force: Option<&[V3]>) {
        for q in from..to {
            let link = self.links[q];
            let (arms, spin) = (self.arms[q], self.rows[q] == 3);
            let mut d = load::<N>(&self.d[q]);
            let c = self.c[q];
            let mut b = [-c[0], -c[1], -c[2]];
            for (&body, &p) in link.ends.iter().zip(&arms) {
                if body != NO_PLACE {
                    let rows = Rows { p, spin };
                    add(&mut d, &rows.mass_with::<N>(1.0, rows, &minv[body]));
                }
            }
            if let Some(force) = force {
                self.pushed(q, force, minv, &mut b);
            }
            store(&mut self.d[q], &d);
            self.b[q] = b;
            let at = link.shared as usize;
            let body = link.ends[at];
            let mine = Rows { p: arms[at], spin };
            for (i, u) in link.partners(q).enumerate() {
                let theirs = usize::from(self.links[u].ends[0] != body);
                let other = Rows {
                    p: self.arms[u][theirs],
                    spin: self.rows[u] == 3,
                };
                // (Body `a`'s rows carry a minus, `b`'s a plus.)
                let sign = if at == theirs { 1.0 } else { -1.0 };
                let e = mine.mass_with::<N>(sign, other, &minv[body]);
                store(&mut self.coupling[link.first as usize + i], &e);
            }
        }
        for q in from..to {
            self.eliminate::<N>(q);
        }
    }

    /// Takes from right-hand side `b` of joint `q` what the known impulses
    /// `force` on its bodies do to its rows: `J M^-1 f`.
    #[inline(always)]
    fn pushed(&self, q: usize, force: &[V3], minv: &[V3], b: &mut V3) {
        let spin = self.rows[q] == 3;
        for (e, (&body, &p)) in self.links[q].ends.iter().zip(&self.arms[q]).enumerate() {
            if body != NO_PLACE {
                push(
                    b,
                    SIGNS[e],
                    Rows { p, spin }.times(&mul(&minv[body], &force[body])),
                );
            }
        }
    }

    /// Eliminates joint `q` in `N` x `N` blocks: inverts its block and
    /// takes it out of its partners' blocks, couplings with each other and
    /// right-hand sides.
    fn eliminate<const N: usize>(&mut self, q: usize) {
        let link = self.links[q];
        let dinv = inverse::<N>(&load(&self.d[q]));
        store(&mut self.d[q], &dinv);
        let y = mul_nv(&dinv, &load_v(&self.b[q]));
        let count = link.partner_count(q);
        for (a, ua) in link.partners(q).enumerate() {
            let ea = load::<N>(&self.coupling[link.first as usize + a]);
            // t = E_a^T A_qq^-1: the partner's rows, this joint's columns.
            let t = mul_tn(&ea, &dinv);
            let mut b = load_v::<N>(&self.b[ua]);
            sub_v(&mut b, &mul_tv(&ea, &y));
            self.b[ua][..N].copy_from_slice(&b);
            let mut d = load::<N>(&self.d[ua]);
            let delta = mul_nn(&t, &ea);
            // (Its upper triangle, mirrored: the block stays exactly
            // symmetric, and `inverse` reads the upper triangle.)
            for i in 0..N {
                for j in i..N {
                    d[i][j] -= delta[i][j];
                    d[j][i] = d[i][j];
                }
            }
            store(&mut self.d[ua], &d);
            for b in a + 1..count {
                // The coupling of partner `ua` with a later one, kept with
                // `ua` (its rows first): a later sibling's, or the parent's.
                let at = self.links[ua].first as usize + (b - a - 1);
                let eb = load::<N>(&self.coupling[link.first as usize + b]);
                let mut e = load::<N>(&self.coupling[at]);
                let delta = mul_nn(&t, &eb);
                for i in 0..N {
                    for j in 0..N {
                        e[i][j] -= delta[i][j];
                    }
                }
                store(&mut self.coupling[at], &e);
            }
        }
    }

    /// Finishes tree `t` after [`JointSpace::factor`] or a forward pass:
    /// solves back root to leaf for each joint's impulse, then each body's
    /// velocity change under them and the known impulses `force` (by
    /// place), into `x`, by place.
    pub(super) fn finish(&mut self, t: usize, force: Option<&[V3]>, minv: &[V3], x: &mut [V3]) {
        if self.narrow[t] {
            self.finish_tree::<2>(t, force, minv, x);
        } else {
            self.finish_tree::<3>(t, force, minv, x);
        }
    }

    /// [`JointSpace::finish`] in `N` x `N` blocks.
    fn finish_tree<const N: usize>(&mut self, t: usize, force: Option<&[V3]>, minv: &[V3], x: &mut [V3]) {
        let ((from, to), (bodies_from, bodies_to)) = self.trees[t];
        for q in (from..to).rev() {
            let link = self.links[q];
            let mut v = load_v::<N>(&self.b[q]);
            for (i, u) in link.partners(q).enumerate() {
                let pull = mul_nv(
                    &load::<N>(&self.coupling[link.first as usize + i]),
                    &load_v(&self.b[u]),
                );
                sub_v(&mut v, &pull);
            }
            let mut lam = [0.0; ROWS];
            lam[..N].copy_from_slice(&mul_nv(&load::<N>(&self.d[q]), &v));
            self.b[q] = lam;
            x[link.place] = lam;
        }
        for &k in &self.bodies[bodies_from..bodies_to] {
            x[k] = force.map_or([0.0; ROWS], |f| f[k]);
        }
        for q in from..to {
            let link = &self.links[q];
            let spin = self.rows[q] == 3;
            for (e, (&body, &p)) in link.ends.iter().zip(&self.arms[q]).enumerate() {
                if body != NO_PLACE {
                    push(
                        &mut x[body],
                        -SIGNS[e],
                        Rows { p, spin }.transposed_times(&self.b[q]),
                    );
                }
            }
        }
        for &k in &self.bodies[bodies_from..bodies_to] {
            x[k] = mul(&minv[k], &x[k]);
        }
    }

    /// Solves tree `t` after [`JointSpace::factor`] for the impulses
    /// `force` on its bodies alone (no velocity errors), with the factors
    /// kept: each body's velocity change and each joint's impulse into
    /// `x`, by place.
    pub(super) fn solve(&mut self, t: usize, force: &[V3], minv: &[V3], x: &mut [V3]) {
        if self.narrow[t] {
            self.forward::<2>(t, force, minv);
        } else {
            self.forward::<3>(t, force, minv);
        }
        self.finish(t, Some(force), minv, x);
    }

    /// The right-hand side of tree `t` for the impulses `force` on its
    /// bodies, eliminated with the factors kept, in `N` x `N` blocks.
    fn forward<const N: usize>(&mut self, t: usize, force: &[V3], minv: &[V3]) {
        let (from, to) = self.trees[t].0;
        for q in from..to {
            let mut b = [0.0; ROWS];
            self.pushed(q, force, minv, &mut b);
            self.b[q] = b;
        }
        for q in from..to {
            let link = self.links[q];
            let y = mul_nv(&load::<N>(&self.d[q]), &load_v(&self.b[q]));
            for (i, u) in link.partners(q).enumerate() {
                let e = load::<N>(&self.coupling[link.first as usize + i]);
                let mut b = load_v::<N>(&self.b[u]);
                sub_v(&mut b, &mul_tv(&e, &y));
                self.b[u][..N].copy_from_slice(&b);
            }
        }
    }
}

/// `v -= s w`: a joint's rows' push (`s` their sign at the body).
#[inline(always)]
fn push(v: &mut V3, s: f64, w: V3) {
    for (v, w) in v.iter_mut().zip(w) {
        *v -= s * w;
    }
}

/// `a -= b`.
#[inline(always)]
fn sub_v<const N: usize>(a: &mut [f64; N], b: &[f64; N]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x -= y;
    }
}

/// The signs of a joint's rows at its bodies `a` and `b`.
const SIGNS: [f64; 2] = [-1.0, 1.0];

/// A joint's rows at one of its bodies, up to their sign:
/// `[[1, 0, p.x], [0, 1, p.y], [0, 0, s]]` (`s` 1 with a third row, else
/// 0), `p` the anchor's arm turned a quarter.
#[derive(Clone, Copy, Debug)]
struct Rows {
    p: [f64; 2],
    spin: bool,
}

impl Rows {
    /// `sign J_self diag(minv) J_other^T`, its first `N` rows and
    /// columns: this joint's rows against `other`'s through one body of
    /// inverse masses `minv`.
    #[inline(always)]
    fn mass_with<const N: usize>(self, sign: f64, other: Rows, minv: &V3) -> [[f64; N]; N] {
        let [m, n, i] = *minv;
        let ([ax, ay], [bx, by]) = (self.p, other.p);
        let si = sign * i;
        let mut out = [[0.0; N]; N];
        out[0][0] = sign * m + ax * bx * si;
        out[0][1] = ax * by * si;
        out[1][0] = ay * bx * si;
        out[1][1] = sign * n + ay * by * si;
        if N == 3 {
            if other.spin {
                out[0][N - 1] = ax * si;
                out[1][N - 1] = ay * si;
            }
            if self.spin {
                out[N - 1][0] = bx * si;
                out[N - 1][1] = by * si;
                if other.spin {
                    out[N - 1][N - 1] = si;
                }
            }
        }
        out
    }

    /// `J v`.
    #[inline(always)]
    fn times(self, v: &V3) -> V3 {
        let [px, py] = self.p;
        [
            v[0] + px * v[2],
            v[1] + py * v[2],
            if self.spin { v[2] } else { 0.0 },
        ]
    }

    /// `J^T v`.
    #[inline(always)]
    fn transposed_times(self, v: &V3) -> V3 {
        let [px, py] = self.p;
        let spin = if self.spin { v[2] } else { 0.0 };
        [v[0], v[1], px * v[0] + py * v[1] + spin]
    }
}

/// The first `N` rows and columns of `m`.
#[inline(always)]
fn load<const N: usize>(m: &M3) -> [[f64; N]; N] {
    let mut out = [[0.0; N]; N];
    for (o, r) in out.iter_mut().zip(m) {
        o.copy_from_slice(&r[..N]);
    }
    out
}

/// Writes `b` into the first `N` rows and columns of `m`.
#[inline(always)]
fn store<const N: usize>(m: &mut M3, b: &[[f64; N]; N]) {
    for (r, o) in m.iter_mut().zip(b) {
        r[..N].copy_from_slice(o);
    }
}

/// The first `N` entries of `v`.
#[inline(always)]
fn load_v<const N: usize>(v: &V3) -> [f64; N] {
    let mut out = [0.0; N];
    out.copy_from_slice(&v[..N]);
    out
}

/// The inverse of a symmetric block (its upper triangle read), or zero if
/// it is singular.
#[inline(always)]
fn inverse<const N: usize>(m: &[[f64; N]; N]) -> [[f64; N]; N] {
    let mut out = [[0.0; N]; N];
    if N == 2 {
        let (a, b, e) = (m[0][0], m[0][1], m[1][1]);
        let det = a * e - b * b;
        let k = if det != 0.0 { 1.0 / det } else { 0.0 };
        out[0][0] = e * k;
        out[0][1] = -b * k;
        out[1][0] = -b * k;
        out[1][1] = a * k;
    } else {
        let mut full = [[0.0; ROWS]; ROWS];
        for (f, r) in full.iter_mut().zip(m) {
            f[..N].copy_from_slice(r);
        }
        let inverse = inv(&full);
        for (o, r) in out.iter_mut().zip(&inverse) {
            o.copy_from_slice(&r[..N]);
        }
    }
    out
}

/// `a += b`.
#[inline(always)]
fn add<const N: usize>(a: &mut [[f64; N]; N], b: &[[f64; N]; N]) {
    for (ra, rb) in a.iter_mut().zip(b) {
        for (x, y) in ra.iter_mut().zip(rb) {
            *x += y;
        }
    }
}

/// `a^T b`.
#[inline(always)]
fn mul_tn<const N: usize>(a: &[[f64; N]; N], b: &[[f64; N]; N]) -> [[f64; N]; N] {
    let mut out = [[0.0; N]; N];
    for i in 0..N {
        for j in 0..N {
            for k in 0..N {
                out[i][j] += a[k][i] * b[k][j];
            }
        }
    }
    out
}

/// `a b`.
#[inline(always)]
fn mul_nn<const N: usize>(a: &[[f64; N]; N], b: &[[f64; N]; N]) -> [[f64; N]; N] {
    let mut out = [[0.0; N]; N];
    for i in 0..N {
        for j in 0..N {
            for k in 0..N {
                out[i][j] += a[i][k] * b[k][j];
            }
        }
    }
    out
}

/// `a v`.
#[inline(always)]
fn mul_nv<const N: usize>(a: &[[f64; N]; N], v: &[f64; N]) -> [f64; N] {
    let mut out = [0.0; N];
    for i in 0..N {
        for k in 0..N {
            out[i] += a[i][k] * v[k];
        }
    }
    out
}

/// `a^T v`.
#[inline(always)]
fn mul_tv<const N: usize>(a: &[[f64; N]; N], v: &[f64; N]) -> [f64; N] {
    let mut out = [0.0; N];
    for i in 0..N {
        for k in 0..N {
            out[i] += a[k][i] * v[k];
        }
    }
    out
}

/// `a v`, element by element.
#[inline(always)]
fn mul(a: &V3, v: &V3) -> V3 {
    [a[0] * v[0], a[1] * v[1], a[2] * v[2]]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    const BODY: u8 = 0;
    const JOINT: u8 = 1;

    /// A forest: its order, its trees' spans, and each joint's ends.
    type Forest = (Vec<(u8, u32, usize)>, Vec<(usize, usize)>, Vec<[usize; 2]>);

    /// A random forest of `trees` trees over a few bodies each, in
    /// breadth-first order as the exact solve builds it: each tree hung
    /// from the static world by a root joint or not, each body after the
    /// first hinged to a random earlier one (so some bodies have several
    /// child joints). Returns the order, the spans and each joint's ends
    /// (by joint id: bodies `a`, `b` as places).
    fn forest(rng: &mut Rng, trees: usize) -> Forest {
        let (mut order, mut spans, mut ends) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..trees {
            let n = 1 + (rng.range(0.0, 6.0) as usize);
            let parents: Vec<usize> = (1..n).map(|i| rng.range(0.0, i as f32) as usize).collect();
            let start = order.len();
            // Breadth first from body 0 (under its root joint, if hung).
            let mut place = vec![usize::MAX; n];
            let hung = rng.range(0.0, 1.0) < 0.5;
            let root_joint = hung.then(|| {
                let id = ends.len();
                ends.push([usize::MAX; 2]);
                order.push((JOINT, id as u32, usize::MAX));
                order.len() - 1
            });
            place[0] = order.len();
            order.push((BODY, 0, root_joint.unwrap_or(usize::MAX)));
            if let Some(k) = root_joint {
                ends[order[k].1 as usize] = [usize::MAX, place[0]];
            }
            let mut queue = std::collections::VecDeque::from([0usize]);
            while let Some(b) = queue.pop_front() {
                let kids: Vec<usize> = (1..n).filter(|&i| parents[i - 1] == b).collect();
                let mut joint_places = Vec::new();
                for &kid in &kids {
                    let id = ends.len();
                    // Either end may be the parent body.
                    let flip = rng.range(0.0, 1.0) < 0.5;
                    ends.push([0, 0]);
                    order.push((JOINT, id as u32, place[b]));
                    joint_places.push((order.len() - 1, id, kid, flip));
                }
                for (jp, id, kid, flip) in joint_places {
                    place[kid] = order.len();
                    order.push((BODY, kid as u32, jp));
                    ends[id] = if flip {
                        [place[kid], place[b]]
                    } else {
                        [place[b], place[kid]]
                    };
                    queue.push_back(kid);
                }
            }
            spans.push((start, order.len()));
        }
        (order, spans, ends)
    }

    /// Solves `a x = b` densely (Gaussian elimination, partial pivoting).
    fn dense_solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
        let n = b.len();
        for col in 0..n {
            let p = (col..n)
                .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
                .unwrap();
            a.swap(col, p);
            b.swap(col, p);
            for row in col + 1..n {
                let f = a[row][col] / a[col][col];
                let pivot = a[col].clone();
                for (x, p) in a[row].iter_mut().zip(&pivot).skip(col) {
                    *x -= f * p;
                }
                b[row] -= f * b[col];
            }
        }
        let mut x = vec![0.0; n];
        for row in (0..n).rev() {
            let s: f64 = (row + 1..n).map(|c| a[row][c] * x[c]).sum();
            x[row] = (b[row] - s) / a[row][row];
        }
        x
    }

    #[test]
    fn the_joint_space_elimination_solves_the_whole_system_exactly() {
        let mut rng = Rng(0x5eed_1234_9876_abcd);
        for case in 0..200 {
            let (order, spans, ends) = forest(&mut rng, 1 + case % 3);
            let m = order.len();
            let mut space = JointSpace::default();
            space.build(&order, |kind| kind == JOINT, |id| ends[id as usize], &spans);
            // Each body's inverse masses; each joint's rows, compliance,
            // velocity error; known impulses on the bodies.
            let minv: Vec<V3> = (0..m)
                .map(|_| {
                    let im = f64::from(rng.range(0.2, 2.0));
                    [im, im, f64::from(rng.range(0.5, 5.0))]
                })
                .collect();
            let force: Vec<V3> = (0..m)
                .map(|_| [0, 1, 2].map(|_| f64::from(rng.range(-1.0, 1.0))))
                .collect();
            for q in 0..space.len() {
                space.rows[q] = if rng.range(0.0, 1.0) < 0.3 { 3 } else { 2 };
                space.arms[q] = [0, 1].map(|_| [0, 1].map(|_| f64::from(rng.range(-1.0, 1.0))));
                let g = f64::from(rng.range(0.0, 0.1));
                space.d[q] = [
                    [g, 0.0, 0.0],
                    [0.0, g, 0.0],
                    [0.0, 0.0, if space.rows[q] == 3 { g } else { 1.0 }],
                ];
                space.c[q] = [0, 1, 2].map(|_| f64::from(rng.range(-1.0, 1.0)));
                if space.rows[q] == 2 {
                    space.c[q][2] = 0.0;
                }
            }
            // The whole system [M -J^T; -J -G] [dv; x] = [f; c], densely:
            // three unknowns a node (a two-row joint's third a filler).
            let mut a = vec![vec![0.0; 3 * m]; 3 * m];
            let mut b = vec![0.0; 3 * m];
            for (k, &(kind, ..)) in order.iter().enumerate() {
                if kind == BODY {
                    for i in 0..3 {
                        a[3 * k + i][3 * k + i] = 1.0 / minv[k][i];
                        b[3 * k + i] = force[k][i];
                    }
                }
            }
            for q in 0..space.len() {
                let (k, spin) = (space.place(q), space.rows[q] == 3);
                for i in 0..3 {
                    for j in 0..3 {
                        a[3 * k + i][3 * k + j] = -space.d[q][i][j];
                    }
                    b[3 * k + i] = space.c[q][i];
                }
                for (e, &body) in space.ends(q).iter().enumerate() {
                    if body == NO_PLACE {
                        continue;
                    }
                    let p = space.arms[q][e];
                    let rows = [
                        [1.0, 0.0, p[0]],
                        [0.0, 1.0, p[1]],
                        [0.0, 0.0, if spin { 1.0 } else { 0.0 }],
                    ];
                    for i in 0..3 {
                        for j in 0..3 {
                            let v = -SIGNS[e] * rows[i][j];
                            a[3 * k + i][3 * body + j] = v;
                            a[3 * body + j][3 * k + i] = v;
                        }
                    }
                }
            }
            let expected = dense_solve(a.clone(), b.clone());
            let mut x = vec![[0.0; 3]; m];
            space.factor(&minv, Some(&force));
            for t in 0..spans.len() {
                space.finish(t, Some(&force), &minv, &mut x);
            }
            let close = |x: &[V3], expected: &[f64], what: &str| {
                for k in 0..m {
                    for i in 0..3 {
                        let (got, want) = (x[k][i], expected[3 * k + i]);
                        assert!(
                            (got - want).abs() <= 1e-9 * (1.0 + want.abs()),
                            "case {case} {what}: node {k} row {i}: {got} against {want}"
                        );
                    }
                }
            };
            close(&x, &expected, "with the velocity errors");
            // Again for the forces alone, with the factors kept (a loop
            // row's column).
            for q in 0..space.len() {
                let k = space.place(q);
                b[3 * k..3 * k + 3].fill(0.0);
            }
            let expected = dense_solve(a, b);
            let mut x = vec![[0.0; 3]; m];
            for t in 0..spans.len() {
                space.solve(t, &force, &minv, &mut x);
            }
            close(&x, &expected, "with the forces alone");
        }
    }
}
