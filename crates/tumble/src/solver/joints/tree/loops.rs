//! The loops of the exact solve: the joints that close loops in a tree's
//! component (a bridge hinged to the ground at both ends closes one
//! through the ground) solved beside the forest by their Schur
//! complement. With `A` the forest's system, `B` the loops' coupling with
//! its bodies and `D` the loops' own blocks, the loops' impulses `y` solve
//! `(D - B^T A^-1 B) y = r - B^T x` for the forest's own solution `x`,
//! which then becomes `x - A^-1 B y`: one pass of the forest's kept
//! elimination per loop row, and a small dense solve.

use super::{JointTrees, Spin};
use crate::solver::elimination::{M3, V3};

/// The most joints closing loops in one component that the exact solve
/// closes: the loops' rows are solved as one dense system beside the
/// forest's, three rows a loop (a bridge anchored at both ends closes one
/// loop through the ground; a net closes one a cell and stays in
/// Gauss-Seidel).
pub(crate) const MAX_CLOSED_LOOPS: u32 = 4;

/// A joint closing a loop of the exact solve's forest: its rows solved
/// beside the forest's by their Schur complement.
#[derive(Clone, Copy, Debug)]
pub(super) struct Loop {
    /// Its component (the union-find root of its bodies): the loops of a
    /// component are solved together, apart from every other's.
    pub(super) group: usize,
    /// Its impulses this solve.
    pub(super) impulse: V3,
    /// The places of its two bodies among its group's nodes (`usize::MAX`
    /// for one that cannot move): [`LoopGroup::local`] of `ends`.
    pub(super) local: [usize; 2],
    /// The joint.
    pub(super) joint: u32,
    /// Its third row: a rigid weld's angle, a hinge's motor or friction,
    /// or none.
    pub(super) spin: Spin,
    /// The places in `order` of its two bodies (`usize::MAX` for one that
    /// cannot move).
    pub(super) ends: [usize; 2],
    /// Its compliance `G` (the system's diagonal block is `-G`) and
    /// velocity error this solve.
    pub(super) compliance: M3,
    pub(super) rhs: V3,
    /// Its coupling blocks with its two bodies this solve (`-J`, rows by
    /// the bodies' velocities).
    pub(super) rows: [M3; 2],
    /// Each row's own inverse mass (`J M^-1 J^T`'s diagonal), the scale
    /// against which the Schur complement's pivots are weighed.
    pub(super) scale: V3,
}

/// The trees at most a component's loops touch: each loop's two ends.
const MAX_GROUP_SPANS: usize = 2 * MAX_CLOSED_LOOPS as usize;

/// A component whose loops are closed: its loops (a range of the
/// forest's), and the trees they join (spans of the forest's order), the
/// only nodes the loops' columns reach.
#[derive(Clone, Copy, Debug)]
pub(super) struct LoopGroup {
    loops: (usize, usize),
    spans: [(usize, usize); MAX_GROUP_SPANS],
    span_count: usize,
}

impl LoopGroup {
    /// The trees the group's loops join.
    fn spans(&self) -> &[(usize, usize)] {
        &self.spans[..self.span_count]
    }

    /// The place of node `k` (of one of the group's trees) among the
    /// group's nodes, its trees laid end to end.
    fn local(&self, k: usize) -> usize {
        let mut offset = 0;
        for &(start, end) in self.spans() {
            if (start..end).contains(&k) {
                return offset + k - start;
            }
            offset += end - start;
        }
        unreachable!("node {k} is in none of its loop group's trees")
    }

    /// How many nodes the group's trees hold.
    fn nodes(&self) -> usize {
        self.spans().iter().map(|(start, end)| end - start).sum()
    }
}

/// Solves the dense `n` x `n` system `a y = b` (row by row in `a`) into
/// `b` by Gaussian elimination with partial pivoting, `scale[i]` the
/// size of row `i`'s own terms. An unknown whose pivot vanishes against
/// its row's scale (a row the others already hold: a loop of hinges all
/// held by their friction, a taut span's) is taken as zero, so that
/// rounding noise is never divided into an impulse.
fn solve_dense(a: &mut [f64], b: &mut [f64], scale: &[f64]) {
    let n = b.len();
    let mut zero = [false; 3 * MAX_CLOSED_LOOPS as usize];
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&p, &q| a[p * n + col].abs().total_cmp(&a[q * n + col].abs()))
            .unwrap_or(col);
        if a[pivot * n + col].abs() <= 1e-9 * scale[col] {
            zero[col] = true;
            continue;
        }
        if pivot != col {
            for c in 0..n {
                a.swap(pivot * n + c, col * n + c);
            }
            b.swap(pivot, col);
        }
        for row in col + 1..n {
            let f = a[row * n + col] / a[col * n + col];
            if f != 0.0 {
                for c in col..n {
                    a[row * n + c] -= f * a[col * n + c];
                }
                b[row] -= f * b[col];
            }
        }
    }
    for col in (0..n).rev() {
        if zero[col] {
            b[col] = 0.0;
            continue;
        }
        let mut v = b[col];
        for c in col + 1..n {
            v -= a[col * n + c] * b[c];
        }
        b[col] = v / a[col * n + col];
    }
}

impl JointTrees {
    /// Sorts the step's loops by component and gathers each component's
    /// trees ([`LoopGroup`]): a component's loops are solved together,
    /// and the trees of the others are no part of their system.
    pub(super) fn group_loops(&mut self) {
        // (Unstable, so no buffer a step; each joint is one loop, so the
        // order is still the joints' within a component.)
        self.loops.sort_unstable_by_key(|l| (l.group, l.joint));
        self.groups.clear();
        let mut lo = 0;
        while lo < self.loops.len() {
            let group = self.loops[lo].group;
            let hi = lo + self.loops[lo..].iter().take_while(|l| l.group == group).count();
            let mut g = LoopGroup {
                loops: (lo, hi),
                spans: [(0, 0); MAX_GROUP_SPANS],
                span_count: 0,
            };
            for l in &self.loops[lo..hi] {
                for &e in &l.ends {
                    if e == usize::MAX {
                        continue;
                    }
                    let span = self.spans[self.spans.partition_point(|s| s.1 <= e)];
                    if !g.spans().contains(&span) {
                        g.spans[g.span_count] = span;
                        g.span_count += 1;
                    }
                }
            }
            for l in &mut self.loops[lo..hi] {
                l.local = l.ends.map(|e| if e == usize::MAX { e } else { g.local(e) });
            }
            self.groups.push(g);
            lo = hi;
        }
    }

    /// Solves the loops' rows beside the forest's, after the forest alone
    /// is solved into `x`, and corrects `x` by them,
    /// component by component: with `A` the forest's system, `B` the
    /// loops' coupling with its bodies and `D` their own blocks, the loops'
    /// impulses `y` solve `(D - B^T A^-1 B) y = r - B^T x` (the Schur
    /// complement, one column of `A^-1 B` per loop row, from the forest's
    /// factors kept), and `x` becomes `x - A^-1 B y`. Each loop's
    /// impulses are left in it.
    pub(super) fn close_loops(&mut self) {
        for gi in 0..self.groups.len() {
            self.close_group(self.groups[gi]);
        }
    }

    /// [`Self::close_loops`] for the loops of group `g`.
    fn close_group(&mut self, g: LoopGroup) {
        let (lo, hi) = g.loops;
        let (m, n) = (g.nodes(), 3 * (hi - lo));
        self.cols.clear();
        self.cols.resize(m * n, [0.0; 3]);
        for c in 0..n {
            let (l, r) = (&self.loops[lo + c / 3], c % 3);
            // (A filler row, a hinge's free turn, couples with nothing:
            // its column stays zero.)
            if r == 2 && !l.spin.solved() {
                continue;
            }
            // The loop row's unit impulse pushes its two bodies: the
            // forest's response to that push, tree by tree.
            let (ends, rows) = (l.ends, l.rows);
            for (&e, rows) in ends.iter().zip(&rows) {
                if e != usize::MAX {
                    self.col_force[e] = rows[r];
                }
            }
            let mut offset = 0;
            for &(start, end) in g.spans() {
                let t = self.spans.partition_point(|s| s.0 < start);
                self.space.solve(t, &self.col_force, &self.minv, &mut self.col_x);
                self.cols[c * m + offset..c * m + offset + (end - start)]
                    .copy_from_slice(&self.col_x[start..end]);
                offset += end - start;
            }
            for &e in &ends {
                if e != usize::MAX {
                    self.col_force[e] = [0.0; 3];
                }
            }
        }
        // (B^T v at loop row i: the loop's rows at its bodies times v
        // there, `v` the forest's solution or a column.)
        let loops = &self.loops[lo..hi];
        let dot = |a: &V3, b: &V3| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        self.schur.clear();
        self.schur_rhs.clear();
        for i in 0..n {
            let (l, r) = (&loops[i / 3], i % 3);
            let mut bx = 0.0;
            for (&e, rows) in l.ends.iter().zip(&l.rows) {
                if e != usize::MAX {
                    bx += dot(&rows[r], &self.x[e]);
                }
            }
            self.schur_rhs.push(l.rhs[r] - bx);
            for c in 0..n {
                let own = if i / 3 == c / 3 {
                    -l.compliance[r][c % 3]
                } else {
                    0.0
                };
                let col = &self.cols[c * m..(c + 1) * m];
                let mut bw = 0.0;
                for (&e, rows) in l.local.iter().zip(&l.rows) {
                    if e != usize::MAX {
                        bw += dot(&rows[r], &col[e]);
                    }
                }
                self.schur.push(own - bw);
            }
        }
        let mut scale = [0.0; 3 * MAX_CLOSED_LOOPS as usize];
        for (i, s) in scale.iter_mut().take(n).enumerate() {
            *s = loops[i / 3].scale[i % 3];
        }
        solve_dense(&mut self.schur, &mut self.schur_rhs, &scale[..n]);
        for c in 0..n {
            let y = self.schur_rhs[c];
            let mut offset = 0;
            for &(start, end) in g.spans() {
                let w = &self.cols[c * m + offset..c * m + offset + (end - start)];
                for (x, w) in self.x[start..end].iter_mut().zip(w) {
                    for i in 0..3 {
                        x[i] -= w[i] * y;
                    }
                }
                offset += end - start;
            }
        }
        for (l, y) in self.loops[lo..hi].iter_mut().zip(self.schur_rhs.chunks_exact(3)) {
            l.impulse = [y[0], y[1], y[2]];
        }
    }
}
