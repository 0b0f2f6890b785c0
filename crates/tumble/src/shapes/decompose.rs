//! Concave outline decomposition: a simple polygon becomes a few convex
//! [`Polygon`]s that together cover it exactly.
//!
//! The work happens in three passes:
//!
//! 1. **Clean the outline.** Reject NaN/inf, weld near-duplicate neighbours,
//!    drop straight corners (and zero-width spikes), reject outlines that
//!    cross or touch themselves or enclose no area, and turn a clockwise
//!    outline counter-clockwise.
//! 2. **Ear clipping.** Repeatedly cut off an *ear* (a convex corner whose
//!    triangle holds no other vertex) until one triangle is left. Among the
//!    ears on offer the best-shaped one is cut first, which avoids slivers.
//!    Every cut adds a diagonal.
//! 3. **Hertel–Mehlhorn merging.** Walk the diagonals and remove each one
//!    whose two sides merge into a part that is still strictly convex and
//!    has at most [`MAX_POLYGON_VERTICES`] corners. The result has at most
//!    four times as many parts as the fewest possible.

use super::{Polygon, ShapeError};
use crate::math::{cross, is_finite_vec, Vec2};
use crate::settings::{LINEAR_SLOP, MAX_POLYGON_VERTICES, WELD_DISTANCE};

/// A corner whose vertex lies within this distance (metres) of the line
/// through its two neighbours is treated as straight. It matches the
/// tolerance of [`convex_hull`](super::convex_hull), so every corner the
/// decomposition keeps also survives [`Polygon::new`].
const STRAIGHT_TOLERANCE: f32 = 0.05 * LINEAR_SLOP;

/// Splits a simple polygon outline into convex parts, each a valid
/// [`Polygon`] of at most [`MAX_POLYGON_VERTICES`] vertices. The parts do not
/// overlap and their areas add up to the outline's.
///
/// The outline may wind either way. Near-duplicate neighbouring points
/// (closer than [`WELD_DISTANCE`]) are welded and straight corners dropped
/// first. A convex outline of up to eight corners comes back as one part.
///
/// Errors: [`ShapeError::NonFinite`] for NaN or infinite coordinates (or
/// coordinates so large that areas overflow), [`ShapeError::TooFewPoints`]
/// for fewer than three distinct points, [`ShapeError::Collinear`] when the
/// outline encloses no area, and [`ShapeError::SelfIntersecting`] when two
/// edges that do not share a corner cross or touch.
///
/// ```
/// # use tumble::decompose_concave;
/// # use tumble::Vec2;
/// // An L: two arms of a 2 x 2 square with one quarter cut away.
/// let l_shape = [
///     Vec2::new(0.0, 0.0),
///     Vec2::new(2.0, 0.0),
///     Vec2::new(2.0, 1.0),
///     Vec2::new(1.0, 1.0),
///     Vec2::new(1.0, 2.0),
///     Vec2::new(0.0, 2.0),
/// ];
/// let parts = decompose_concave(&l_shape).unwrap();
/// assert_eq!(parts.len(), 2);
/// ```
pub fn decompose_concave(outline: &[Vec2]) -> Result<Vec<Polygon>, ShapeError> {
    let points = clean_outline(outline)?;
    let triangulation = ear_clip(&points)?;
    let parts = merge_into_convex_parts(&points, triangulation);

    let mut polygons = Vec::with_capacity(parts.len());
    let mut corners: Vec<Vec2> = Vec::with_capacity(MAX_POLYGON_VERTICES);
    for part in &parts {
        corners.clear();
        corners.extend(part.iter().map(|&index| points[index]));
        match Polygon::new(&corners) {
            Ok(polygon) => polygons.push(polygon),
            // A sliver thinner than the hull's tolerance: it covers no area
            // worth a shape.
            Err(ShapeError::Collinear | ShapeError::TooFewPoints) => {}
            Err(other) => return Err(other),
        }
    }
    if polygons.is_empty() {
        return Err(ShapeError::Collinear);
    }
    Ok(polygons)
}

// ---- pass 1: cleaning ----

/// The outline, ready to triangulate: finite, no two neighbours within the
/// weld distance, no straight corners, simple, counter-clockwise.
fn clean_outline(outline: &[Vec2]) -> Result<Vec<Vec2>, ShapeError> {
    if outline.iter().any(|p| !is_finite_vec(*p)) {
        return Err(ShapeError::NonFinite);
    }
    let mut points: Vec<Vec2> = Vec::with_capacity(outline.len());
    for &point in outline {
        if points.last().is_none_or(|last| !welded(*last, point)) {
            points.push(point);
        }
    }
    while points.len() >= 2 && welded(points[0], points[points.len() - 1]) {
        points.pop();
    }
    if count_distinct(&points) < 3 {
        return Err(ShapeError::TooFewPoints);
    }

    // Products of coordinate differences must stay finite for the
    // orientation tests below to mean anything.
    let (low, high) = points.iter().fold((points[0], points[0]), |(low, high), p| {
        (low.min(*p), high.max(*p))
    });
    let extent = high - low;
    if !(extent.x * extent.y).is_finite() || !extent.length_squared().is_finite() {
        return Err(ShapeError::NonFinite);
    }

    drop_straight_corners(&mut points);
    if points.len() < 3 {
        return Err(ShapeError::Collinear);
    }
    if crosses_itself(&points) {
        return Err(ShapeError::SelfIntersecting);
    }
    let doubled_area = twice_signed_area(&points);
    if doubled_area.abs() <= WELD_DISTANCE * WELD_DISTANCE {
        return Err(ShapeError::Collinear);
    }
    if doubled_area < 0.0 {
        points.reverse();
    }
    Ok(points)
}

#[inline]
fn welded(a: Vec2, b: Vec2) -> bool {
    a.distance_squared(b) <= WELD_DISTANCE * WELD_DISTANCE
}

/// Number of points that are not within the weld distance of an earlier one.
fn count_distinct(points: &[Vec2]) -> usize {
    (0..points.len())
        .filter(|&i| points[..i].iter().all(|q| !welded(*q, points[i])))
        .count()
}

/// Signed distance of corner `b` from the line through `a` and `c`:
/// positive when the path `a -> b -> c` turns left (a convex corner of a
/// counter-clockwise outline), negative when it turns right. `NaN` when `a`
/// and `c` coincide.
#[inline]
fn corner_turn(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    cross(b - a, c - b) / a.distance(c)
}

/// Removes every corner that is straight within [`STRAIGHT_TOLERANCE`] or
/// is the tip of a zero-width spike, welding neighbours that the removal
/// brings together, until none is left (or fewer than three points).
fn drop_straight_corners(points: &mut Vec<Vec2>) {
    let mut i = 0;
    // Every round either removes a point or advances `i`; a full pass of
    // `len` rounds without a removal ends the loop.
    let mut rounds_without_removal = 0;
    while points.len() >= 3 && rounds_without_removal < points.len() {
        let n = points.len();
        i %= n;
        let a = points[(i + n - 1) % n];
        let b = points[i];
        let c = points[(i + 1) % n];
        let straight = if welded(a, c) {
            // A spike out and straight back: `b` encloses nothing.
            true
        } else {
            corner_turn(a, b, c).abs() <= STRAIGHT_TOLERANCE
        };
        if straight {
            points.remove(i);
            // `a` and `c` are now neighbours; weld them if they touch.
            let n = points.len();
            if n >= 2 {
                let c_index = i % n;
                let a_index = (c_index + n - 1) % n;
                if welded(points[a_index], points[c_index]) {
                    points.remove(c_index);
                }
            }
            // Step back: the previous corner has a new neighbour.
            i = i.saturating_sub(1);
            rounds_without_removal = 0;
        } else {
            i += 1;
            rounds_without_removal += 1;
        }
    }
}

/// Twice the signed area of a closed outline (positive when
/// counter-clockwise), measured from the first point to keep precision.
fn twice_signed_area(points: &[Vec2]) -> f32 {
    let origin = points[0];
    let mut sum = 0.0;
    for i in 1..points.len() - 1 {
        sum += cross(points[i] - origin, points[i + 1] - origin);
    }
    sum
}

/// True when two edges that share no corner cross, overlap or come within
/// the weld distance of each other. Checks all pairs: outlines are small.
fn crosses_itself(points: &[Vec2]) -> bool {
    let n = points.len();
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        // Edge j starts two corners after edge i ends...
        for j in i + 2..n {
            // ...and must not end where edge i starts.
            if i == 0 && j == n - 1 {
                continue;
            }
            let (c, d) = (points[j], points[(j + 1) % n]);
            if segments_meet(a, b, c, d) {
                return true;
            }
        }
    }
    false
}

/// True when segments `a-b` and `c-d` cross, or an end of one lies within the
/// weld distance of the other.
fn segments_meet(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let side_c = cross(b - a, c - a);
    let side_d = cross(b - a, d - a);
    let side_a = cross(d - c, a - c);
    let side_b = cross(d - c, b - c);
    let opposite = |s: f32, t: f32| (s > 0.0 && t < 0.0) || (s < 0.0 && t > 0.0);
    if opposite(side_c, side_d) && opposite(side_a, side_b) {
        return true;
    }
    let near =
        |p: Vec2, s0: Vec2, s1: Vec2| distance_squared_to_segment(p, s0, s1) <= WELD_DISTANCE * WELD_DISTANCE;
    near(a, c, d) || near(b, c, d) || near(c, a, b) || near(d, a, b)
}

fn distance_squared_to_segment(p: Vec2, start: Vec2, end: Vec2) -> f32 {
    let along = end - start;
    let length_squared = along.length_squared();
    let t = if length_squared > 0.0 {
        ((p - start).dot(along) / length_squared).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance_squared(start + t * along)
}

// ---- pass 2: ear clipping ----

/// Triangles (counter-clockwise index triples into the cleaned outline) and
/// the diagonals between them, in the order they were cut.
struct Triangulation {
    triangles: Vec<[usize; 3]>,
    diagonals: Vec<(usize, usize)>,
}

/// The outline's remaining corners as a doubly linked ring.
struct Ring {
    prev: Vec<usize>,
    next: Vec<usize>,
    removed: Vec<bool>,
    len: usize,
}

impl Ring {
    fn new(n: usize) -> Ring {
        Ring {
            prev: (0..n).map(|i| (i + n - 1) % n).collect(),
            next: (0..n).map(|i| (i + 1) % n).collect(),
            removed: vec![false; n],
            len: n,
        }
    }

    fn unlink(&mut self, i: usize) {
        let (before, after) = (self.prev[i], self.next[i]);
        self.next[before] = after;
        self.prev[after] = before;
        self.removed[i] = true;
        self.len -= 1;
    }

    fn any_corner(&self) -> usize {
        self.removed.iter().position(|removed| !removed).unwrap_or(0)
    }
}

/// How good an ear corner `b` of the ring is, or `None` when it is not an
/// ear: a reflex or straight corner, or one whose triangle holds another
/// remaining corner. With `allow_on_edge`, corners lying exactly on the
/// triangle's edges do not count as inside (the fallback for outlines that
/// are degenerate to rounding).
///
/// The score is the triangle's shape quality, `4 sqrt(3) area / (sum of
/// squared sides)`: 1 for an equilateral triangle, near 0 for a sliver.
fn ear_quality(points: &[Vec2], ring: &Ring, b: usize, allow_on_edge: bool) -> Option<f32> {
    let (a, c) = (ring.prev[b], ring.next[b]);
    let (pa, pb, pc) = (points[a], points[b], points[c]);
    let doubled_area = cross(pb - pa, pc - pb);
    if doubled_area.is_nan() || doubled_area <= 0.0 {
        return None;
    }
    let mut other = ring.next[c];
    while other != a {
        let q = points[other];
        let sides = [
            cross(pb - pa, q - pa),
            cross(pc - pb, q - pb),
            cross(pa - pc, q - pc),
        ];
        let inside = if allow_on_edge {
            sides.iter().all(|&s| s > 0.0)
        } else {
            sides.iter().all(|&s| s >= 0.0)
        };
        if inside {
            return None;
        }
        other = ring.next[other];
    }
    let squared_sides = pa.distance_squared(pb) + pb.distance_squared(pc) + pc.distance_squared(pa);
    Some(2.0 * 3.0f32.sqrt() * doubled_area / squared_sides)
}

/// The remaining corner with the best ear score; lowest index on a tie.
fn best_ear(ring: &Ring, scores: &[Option<f32>]) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (corner, score) in scores.iter().enumerate() {
        if ring.removed[corner] {
            continue;
        }
        if let Some(score) = *score {
            if best.is_none_or(|(_, best_score)| score > best_score) {
                best = Some((corner, score));
            }
        }
    }
    best.map(|(corner, _)| corner)
}

/// Triangulates a cleaned, counter-clockwise outline by ear clipping. Each
/// step removes one corner, so it ends after at most `n - 3` steps.
fn ear_clip(points: &[Vec2]) -> Result<Triangulation, ShapeError> {
    let n = points.len();
    let mut ring = Ring::new(n);
    let mut scores: Vec<Option<f32>> = (0..n).map(|i| ear_quality(points, &ring, i, false)).collect();
    let mut triangulation = Triangulation {
        triangles: Vec::with_capacity(n - 2),
        diagonals: Vec::with_capacity(n - 3),
    };

    while ring.len > 3 {
        let ear = best_ear(&ring, &scores).or_else(|| {
            (0..n)
                .filter(|&i| !ring.removed[i])
                .find(|&i| ear_quality(points, &ring, i, true).is_some())
        });
        let Some(ear) = ear else {
            // A simple polygon always has an ear; only a remainder that has
            // collapsed to nothing (to rounding) can lack one.
            if remaining_area_is_negligible(points, &ring) {
                return Ok(triangulation);
            }
            return Err(ShapeError::SelfIntersecting);
        };
        let (a, c) = (ring.prev[ear], ring.next[ear]);
        triangulation.triangles.push([a, ear, c]);
        triangulation.diagonals.push((a, c));
        ring.unlink(ear);
        scores[a] = ear_quality(points, &ring, a, false);
        scores[c] = ear_quality(points, &ring, c, false);
    }

    let a = ring.any_corner();
    let b = ring.next[a];
    let c = ring.next[b];
    if cross(points[b] - points[a], points[c] - points[b]) > 0.0 {
        triangulation.triangles.push([a, b, c]);
    }
    Ok(triangulation)
}

fn remaining_area_is_negligible(points: &[Vec2], ring: &Ring) -> bool {
    let start = ring.any_corner();
    let mut corners = Vec::with_capacity(ring.len);
    let mut corner = start;
    loop {
        corners.push(points[corner]);
        corner = ring.next[corner];
        if corner == start {
            break;
        }
    }
    twice_signed_area(&corners).abs() <= WELD_DISTANCE * WELD_DISTANCE
}

// ---- pass 3: Hertel–Mehlhorn merging ----

/// Merges triangles across diagonals while the merged part stays strictly
/// convex and small enough; returns the parts as counter-clockwise index
/// lists.
fn merge_into_convex_parts(points: &[Vec2], triangulation: Triangulation) -> Vec<Vec<usize>> {
    let mut parts: Vec<Vec<usize>> = triangulation.triangles.iter().map(|t| t.to_vec()).collect();
    let mut alive = vec![true; parts.len()];

    for &(u, v) in &triangulation.diagonals {
        // One side of the diagonal runs u -> v, the other v -> u.
        let Some(first) = find_part_with_edge(&parts, &alive, u, v) else {
            continue;
        };
        let Some(second) = find_part_with_edge(&parts, &alive, v, u) else {
            continue;
        };
        let merged = join_across(&parts[first], &parts[second], u, v);
        if merged.len() > MAX_POLYGON_VERTICES {
            continue;
        }
        // Only the corners at the diagonal's ends change.
        let convex = [u, v].iter().all(|&end| {
            let at = merged.iter().position(|&i| i == end).unwrap_or(0);
            let m = merged.len();
            let before = points[merged[(at + m - 1) % m]];
            let after = points[merged[(at + 1) % m]];
            corner_turn(before, points[end], after) > STRAIGHT_TOLERANCE
        });
        if convex {
            parts[first] = merged;
            alive[second] = false;
        }
    }

    parts
        .into_iter()
        .zip(alive)
        .filter_map(|(part, alive)| alive.then_some(part))
        .collect()
}

/// The live part whose boundary runs from corner `from` straight to `to`.
fn find_part_with_edge(parts: &[Vec<usize>], alive: &[bool], from: usize, to: usize) -> Option<usize> {
    (0..parts.len()).find(|&p| {
        let part = &parts[p];
        alive[p] && (0..part.len()).any(|k| part[k] == from && part[(k + 1) % part.len()] == to)
    })
}

/// The union of two counter-clockwise parts sharing the diagonal `u-v`
/// (`first` runs `u -> v`, `second` runs `v -> u`), counter-clockwise.
fn join_across(first: &[usize], second: &[usize], u: usize, v: usize) -> Vec<usize> {
    let mut joined = Vec::with_capacity(first.len() + second.len() - 2);
    // `first` from v round to u, both included...
    let start = first.iter().position(|&i| i == v).unwrap_or(0);
    for k in 0..first.len() {
        joined.push(first[(start + k) % first.len()]);
    }
    // ...then `second` from just after u round to just before v.
    let start = second.iter().position(|&i| i == u).unwrap_or(0);
    for k in 1..second.len() - 1 {
        joined.push(second[(start + k) % second.len()]);
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    fn area(points: &[Vec2]) -> f32 {
        0.5 * twice_signed_area(points)
    }

    fn total_area(parts: &[Polygon]) -> f32 {
        parts.iter().map(|p| area(p.points())).sum()
    }

    /// Every part winds counter-clockwise with every corner strictly convex.
    fn assert_convex(parts: &[Polygon]) {
        for part in parts {
            let pts = part.points();
            let n = pts.len();
            assert!((3..=MAX_POLYGON_VERTICES).contains(&n), "{pts:?}");
            for i in 0..n {
                let (a, b, c) = (pts[i], pts[(i + 1) % n], pts[(i + 2) % n]);
                assert!(cross(b - a, c - b) > 0.0, "not convex at {b}: {pts:?}");
            }
        }
    }

    fn l_shape() -> Vec<Vec2> {
        vec![
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(2.0, 1.0),
            v(1.0, 1.0),
            v(1.0, 2.0),
            v(0.0, 2.0),
        ]
    }

    fn star(points: usize, outer: f32, inner: f32) -> Vec<Vec2> {
        (0..2 * points)
            .map(|i| {
                let angle = i as f32 * std::f32::consts::PI / points as f32;
                let radius = if i % 2 == 0 { outer } else { inner };
                radius * v(angle.cos(), angle.sin())
            })
            .collect()
    }

    #[test]
    fn an_l_is_two_parts_from_any_start_in_either_winding() {
        for flip in [false, true] {
            for start in 0..6 {
                let mut outline = l_shape();
                outline.rotate_left(start);
                if flip {
                    outline.reverse();
                }
                let parts = decompose_concave(&outline).unwrap();
                assert_eq!(parts.len(), 2, "start {start}, flipped {flip}: {parts:?}");
                assert!((total_area(&parts) - 3.0).abs() < 1e-5);
                assert_convex(&parts);
            }
        }
    }

    #[test]
    fn a_u_is_three_parts() {
        let outline = [
            v(0.0, 0.0),
            v(3.0, 0.0),
            v(3.0, 2.0),
            v(2.0, 2.0),
            v(2.0, 1.0),
            v(1.0, 1.0),
            v(1.0, 2.0),
            v(0.0, 2.0),
        ];
        let parts = decompose_concave(&outline).unwrap();
        assert_convex(&parts);
        assert!((total_area(&parts) - 5.0).abs() < 1e-5);
        // Two reflex corners need at least three convex parts.
        assert!((3..=4).contains(&parts.len()), "{} parts", parts.len());
    }

    #[test]
    fn a_five_pointed_star() {
        let outline = star(5, 2.0, 0.8);
        let expected = area(&outline);
        let parts = decompose_concave(&outline).unwrap();
        assert_convex(&parts);
        assert!((total_area(&parts) - expected).abs() < 1e-4 * expected);
        // Each part can resolve at most two of the five reflex corners, so no
        // fewer than four; Hertel–Mehlhorn never needs more than 2 r + 1.
        assert!((4..=11).contains(&parts.len()), "{} parts", parts.len());
    }

    #[test]
    fn a_convex_square_is_one_part() {
        let square = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
        let parts = decompose_concave(&square).unwrap();
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].count, 4);
        assert!((total_area(&parts) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn corners_on_edges_and_repeated_points_are_dropped() {
        let square = [
            v(0.0, 0.0),
            v(0.5, 0.0),
            v(1.0, 0.0),
            v(1.0, 0.0),
            v(1.0, 1.0),
            v(0.5, 1.0),
            v(0.0, 1.0),
            v(0.0, 0.5),
            v(0.0, 0.0001),
        ];
        let parts = decompose_concave(&square).unwrap();
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].count, 4);
    }

    #[test]
    fn convex_outlines_split_only_past_eight_corners() {
        let circle = |n: usize| -> Vec<Vec2> {
            (0..n)
                .map(|i| {
                    let angle = i as f32 / n as f32 * std::f32::consts::TAU;
                    v(angle.cos(), angle.sin())
                })
                .collect()
        };
        let octagon = decompose_concave(&circle(8)).unwrap();
        assert_eq!(octagon.len(), 1);
        let twenty = circle(20);
        let parts = decompose_concave(&twenty).unwrap();
        assert!((3..=4).contains(&parts.len()), "{} parts", parts.len());
        assert_convex(&parts);
        assert!((total_area(&parts) - area(&twenty)).abs() < 1e-5);
    }

    #[test]
    fn both_windings_give_the_same_total_area() {
        for outline in [l_shape(), star(5, 2.0, 0.8), star(7, 1.0, 0.2)] {
            let mut reversed = outline.clone();
            reversed.reverse();
            let ccw = decompose_concave(&outline).unwrap();
            let cw = decompose_concave(&reversed).unwrap();
            assert!((total_area(&ccw) - total_area(&cw)).abs() < 1e-5);
            assert!((total_area(&ccw) - area(&outline)).abs() < 1e-5);
        }
    }

    #[test]
    fn a_bow_tie_crosses_itself() {
        let bow_tie = [v(0.0, 0.0), v(1.0, 1.0), v(1.0, 0.0), v(0.0, 1.0)];
        assert_eq!(decompose_concave(&bow_tie), Err(ShapeError::SelfIntersecting));
    }

    #[test]
    fn an_outline_touching_itself_is_rejected() {
        // The notch's tip (1, 0) touches the bottom edge.
        let pinched = [v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(1.0, 0.0), v(0.0, 2.0)];
        assert_eq!(decompose_concave(&pinched), Err(ShapeError::SelfIntersecting));
        // Two squares meeting corner to corner, traced as one outline.
        let figure_eight = [
            v(0.0, 0.0),
            v(1.0, 0.0),
            v(1.0, 1.0),
            v(2.0, 1.0),
            v(2.0, 2.0),
            v(1.0, 2.0),
            v(1.0, 1.0),
            v(0.0, 1.0),
        ];
        assert_eq!(
            decompose_concave(&figure_eight),
            Err(ShapeError::SelfIntersecting)
        );
    }

    #[test]
    fn bad_outlines_are_rejected_by_name() {
        assert_eq!(
            decompose_concave(&[v(0.0, 0.0), v(1.0, f32::NAN), v(0.0, 1.0)]),
            Err(ShapeError::NonFinite)
        );
        assert_eq!(
            decompose_concave(&[v(0.0, 0.0), v(f32::INFINITY, 0.0), v(0.0, 1.0)]),
            Err(ShapeError::NonFinite)
        );
        assert_eq!(decompose_concave(&[]), Err(ShapeError::TooFewPoints));
        assert_eq!(
            decompose_concave(&[v(0.0, 0.0), v(1.0, 0.0)]),
            Err(ShapeError::TooFewPoints)
        );
        assert_eq!(
            decompose_concave(&[v(0.0, 0.0), v(0.0, 0.0), v(1.0, 0.0), v(1.0, 0.0001)]),
            Err(ShapeError::TooFewPoints)
        );
        assert_eq!(
            decompose_concave(&[v(0.0, 0.0), v(1.0, 0.0), v(0.0, 0.0), v(1.0, 0.0)]),
            Err(ShapeError::TooFewPoints)
        );
        assert_eq!(
            decompose_concave(&[v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)]),
            Err(ShapeError::Collinear)
        );
        // A spike out and back along one line.
        assert_eq!(
            decompose_concave(&[v(0.0, 0.0), v(2.0, 0.0), v(1.0, 0.0)]),
            Err(ShapeError::Collinear)
        );
        assert_eq!(
            decompose_concave(&[v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.00001), v(3.0, 0.0)]),
            Err(ShapeError::Collinear)
        );
    }

    #[test]
    fn huge_and_tiny_outlines_do_not_panic() {
        let scaled = |s: f32| -> Vec<Vec2> { l_shape().into_iter().map(|p| p * s).collect() };
        for scale in [1e-6, 1e-3, 1e3, 1e6, 1e15, 1e19, 1e25, 1e38, f32::MAX] {
            let _ = decompose_concave(&scaled(scale));
        }
        assert_eq!(decompose_concave(&scaled(f32::MAX)), Err(ShapeError::NonFinite));
        let big = decompose_concave(&scaled(1e3)).unwrap();
        assert_eq!(big.len(), 2);
    }

    /// A star-shaped outline: corners at increasing angles round a center,
    /// each at its own distance from it.
    fn arb_star_shape() -> impl Strategy<Value = Vec<Vec2>> {
        (3usize..=24).prop_flat_map(|n| {
            (
                prop::collection::vec((-0.3f32..0.3, 0.3f32..2.0), n),
                -5.0f32..5.0,
                -5.0f32..5.0,
            )
                .prop_map(move |(corners, cx, cy)| {
                    let step = std::f32::consts::TAU / n as f32;
                    corners
                        .iter()
                        .enumerate()
                        .map(|(i, &(jitter, radius))| {
                            let angle = (i as f32 + jitter) * step;
                            v(cx, cy) + radius * v(angle.cos(), angle.sin())
                        })
                        .collect()
                })
        })
    }

    proptest! {
        #[test]
        fn star_shapes_decompose_into_their_area(outline in arb_star_shape(), flip in any::<bool>()) {
            let mut outline = outline;
            if flip {
                outline.reverse();
            }
            let expected = area(&outline).abs();
            let parts = decompose_concave(&outline).unwrap();
            assert_convex(&parts);
            let total = total_area(&parts);
            prop_assert!(
                (total - expected).abs() <= 1e-3 * expected,
                "{} parts cover {total}, outline {expected}",
                parts.len()
            );
        }

        #[test]
        fn any_finite_outline_is_handled(
            outline in prop::collection::vec((-10.0f32..10.0, -10.0f32..10.0), 0..12),
        ) {
            let outline: Vec<Vec2> = outline.into_iter().map(|(x, y)| v(x, y)).collect();
            if let Ok(parts) = decompose_concave(&outline) {
                // It was accepted, so it is simple: the parts tile it.
                assert_convex(&parts);
                let expected = area(&outline).abs();
                let total = total_area(&parts);
                prop_assert!(
                    (total - expected).abs() <= 1e-3 * expected + 1e-3,
                    "{} parts cover {total}, outline {expected}",
                    parts.len()
                );
            }
        }

        #[test]
        fn grid_outlines_full_of_degeneracies_are_handled(
            corners in prop::collection::vec((0i32..5, 0i32..5), 3..14),
        ) {
            // Integer corners sorted by angle round their mean: mostly simple
            // outlines, rich in repeated points, straight corners and
            // vertices lying on diagonals.
            let mut outline: Vec<Vec2> = corners.iter().map(|&(x, y)| v(x as f32, y as f32)).collect();
            let mean = outline.iter().copied().sum::<Vec2>() / outline.len() as f32;
            outline.sort_by(|a, b| {
                let (da, db) = (*a - mean, *b - mean);
                da.y.atan2(da.x)
                    .total_cmp(&db.y.atan2(db.x))
                    .then(da.length_squared().total_cmp(&db.length_squared()))
            });
            if let Ok(parts) = decompose_concave(&outline) {
                assert_convex(&parts);
                let expected = area(&outline).abs();
                let total = total_area(&parts);
                prop_assert!(
                    (total - expected).abs() <= 1e-4 * expected,
                    "{} parts cover {total}, outline {expected}: {outline:?}",
                    parts.len()
                );
            }
        }
    }
}
