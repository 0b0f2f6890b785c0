//! Baraff's linear-time elimination of a tree of bodies and constraints
//! (D. Baraff, "Linear-time dynamics using Lagrange multipliers", 1996),
//! for the exact solve of contact stacks ([`super::contact_trees`]), and
//! the small block algebra the exact solve of joint trees shares with it
//! ([`super::joints::tree`], which eliminates in joint space).
//!
//! The system `[M -J^T; -J -G]` of a tree is stored node by node, each
//! node a body (its 3x3 mass matrix) or a constraint (its rows, padded to
//! three, with their compliance), each coupled to its parent by one 3x3
//! block. It is eliminated leaf to root and solved back root to leaf, one
//! small block per node, with no fill-in. The blocks are `f64`: a long
//! chain's pivots lose too much in `f32`.

/// A 3x3 block: a body's mass matrix, a constraint's (padded to 3 rows),
/// or the coupling between the two.
pub(crate) type M3 = [[f64; 3]; 3];
/// A 3-vector block: a body's velocity change or a constraint's impulse.
pub(crate) type V3 = [f64; 3];

/// For coupling block `o` and the inverse `d` of its node's block: `t = o
/// d` and `t o^T`, the products of the elimination. `d` is symmetric, and
/// so is `t o^T = o d o^T`: its upper triangle is computed and mirrored,
/// so that every block of the elimination stays exactly symmetric ([`inv`]
/// relies on it).
#[inline(always)]
pub(crate) fn couple(o: &M3, d: &M3) -> (M3, M3) {
    let t = [0, 1, 2].map(|i| [0, 1, 2].map(|j| o[i][0] * d[0][j] + o[i][1] * d[1][j] + o[i][2] * d[2][j]));
    // Entry (i, j) of t o^T: row i of t against row j of o.
    let dot = |i: usize, j: usize| {
        let (r, q) = (&t[i], &o[j]);
        r[0] * q[0] + r[1] * q[1] + r[2] * q[2]
    };
    let (u00, u01, u02) = (dot(0, 0), dot(0, 1), dot(0, 2));
    let (u11, u12, u22) = (dot(1, 1), dot(1, 2), dot(2, 2));
    (t, [[u00, u01, u02], [u01, u11, u12], [u02, u12, u22]])
}

/// `o^T x` for coupling block `o`.
#[inline(always)]
pub(crate) fn couple_back(o: &M3, x: &V3) -> V3 {
    [0, 1, 2].map(|j| o[0][j] * x[0] + o[1][j] * x[1] + o[2][j] * x[2])
}

/// The transpose.
pub(crate) fn tr(a: &M3) -> M3 {
    let mut c = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            c[i][j] = a[j][i];
        }
    }
    c
}

/// The product `a v`.
pub(crate) fn mv(a: &M3, v: &V3) -> V3 {
    [
        a[0][0] * v[0] + a[0][1] * v[1] + a[0][2] * v[2],
        a[1][0] * v[0] + a[1][1] * v[1] + a[1][2] * v[2],
        a[2][0] * v[0] + a[2][1] * v[1] + a[2][2] * v[2],
    ]
}

/// `a -= b`, element by element.
pub(crate) fn sub(a: &mut V3, b: &V3) {
    for (x, y) in a.iter_mut().zip(b) {
        *x -= y;
    }
}

/// The inverse of a symmetric 3x3 matrix (its upper triangle read), or
/// zero if it is singular: six cofactors where a general matrix needs
/// nine, and the inverse exactly symmetric.
#[inline(always)]
pub(crate) fn inv(m: &M3) -> M3 {
    let [[a, b, c], [_, e, f], [_, _, i]] = *m;
    let c00 = e * i - f * f;
    let c01 = c * f - b * i;
    let c02 = b * f - c * e;
    let det = a * c00 + b * c01 + c * c02;
    let k = if det != 0.0 { 1.0 / det } else { 0.0 };
    let c11 = (a * i - c * c) * k;
    let c12 = (b * c - a * f) * k;
    let c22 = (a * e - b * b) * k;
    let (c00, c01, c02) = (c00 * k, c01 * k, c02 * k);
    [[c00, c01, c02], [c01, c11, c12], [c02, c12, c22]]
}

/// A mass standing for an infinite one (a body that cannot move or turn,
/// a locked axis), large enough that no solve moves it.
pub(crate) const IMMOVABLE: f32 = 1e20;

/// A body's mass and rotational inertia for the system, from its inverses
/// ([`IMMOVABLE`] for an axis it cannot move along).
pub(crate) fn body_masses(b: &crate::body::SolverBody) -> [f64; 2] {
    let mass = |inv: f32| f64::from(if inv > 0.0 { 1.0 / inv } else { IMMOVABLE });
    [mass(b.inv_mass), mass(b.inv_inertia)]
}

/// A body's diagonal block: its mass matrix, from [`body_masses`].
pub(crate) fn body_block([mass, inertia]: [f64; 2]) -> M3 {
    [[mass, 0.0, 0.0], [0.0, mass, 0.0], [0.0, 0.0, inertia]]
}

/// The blocks of a tree's system, one entry per node, nodes in
/// breadth-first order (every parent before its children); kept by each
/// exact solve (no allocation in a steady step).
#[derive(Clone, Debug, Default)]
pub(crate) struct Blocks {
    /// Each node's diagonal block (overwritten by the elimination).
    pub d: Vec<M3>,
    /// Each node's block's inverse, after the elimination.
    pub dinv: Vec<M3>,
    /// Each node's coupling with its parent: the parent's rows, this
    /// node's columns.
    pub off: Vec<M3>,
    /// Each node's right-hand side (overwritten by the elimination).
    pub rhs: Vec<V3>,
    /// Each node's solution: a body's velocity change, a constraint's
    /// impulse.
    pub x: Vec<V3>,
}

impl Blocks {
    /// Room for `m` nodes.
    pub(crate) fn resize(&mut self, m: usize) {
        for v in [&mut self.d, &mut self.dinv, &mut self.off] {
            v.resize(m, [[0.0; 3]; 3]);
        }
        self.rhs.resize(m, [0.0; 3]);
        self.x.resize(m, [0.0; 3]);
    }

    /// Eliminates the system of the first `m` nodes leaf to root and solves
    /// it back root to leaf into `x`. `parent(k)` is node `k`'s parent's
    /// place (`usize::MAX` for a root).
    #[inline(always)]
    pub(crate) fn eliminate(&mut self, m: usize, parent: impl Fn(usize) -> usize) {
        // (Each buffer cut to the nodes, so that indexing by a node needs no
        // bounds check; a parent's still does.)
        let (d, dinv, off) = (&mut self.d[..m], &mut self.dinv[..m], &self.off[..m]);
        let (rhs, x) = (&mut self.rhs[..m], &mut self.x[..m]);
        for k in (0..m).rev() {
            dinv[k] = inv(&d[k]);
            let p = parent(k);
            if p != usize::MAX {
                let (t, upd) = couple(&off[k], &dinv[k]);
                for (row, u) in d[p].iter_mut().zip(&upd) {
                    sub(row, u);
                }
                let bu = mv(&t, &rhs[k]);
                sub(&mut rhs[p], &bu);
            }
        }
        for k in 0..m {
            let p = parent(k);
            let mut b = rhs[k];
            if p != usize::MAX {
                let h = couple_back(&off[k], &x[p]);
                sub(&mut b, &h);
            }
            x[k] = mv(&dinv[k], &b);
        }
    }
}
