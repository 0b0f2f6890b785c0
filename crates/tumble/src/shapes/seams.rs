//! Seams: where a polygon meets the shapes welded to it, edge to edge.
//!
//! A tile map is many boxes side by side, and a floor of them is meant to
//! be as flat as one long box. Each tile's side is an edge of that tile,
//! but not of the floor: it lies against its neighbour's side, inside the
//! solid. Collided tile by tile, a box sliding over the joint meets that
//! inner side (or, at the tile's corner, the normal of a corner the floor
//! does not have) and is kicked up and stopped: a ghost collision. Chains
//! avoid it with their ghost vertices; shapes welded together (the shapes
//! of one body, or shapes of static bodies, which never move relative to
//! each other) avoid it with what this module finds for each polygon:
//!
//! - its **seams**: the edges that welded shapes cover along their whole
//!   length (coincident, facing the opposite way, within a tolerance), so
//!   that nothing outside the solid can touch them;
//! - at each vertex, the **cone** of normals the outer surface has there:
//!   between its two faces at a corner of the surface; only its one outer
//!   face's where the surface runs straight on into a neighbour or turns
//!   into a valley (a floor meeting a wall); between its face and the
//!   neighbour's at a corner the surface turns round over the join (a
//!   floor tile beside a ramp tile going down); none where both its edges
//!   are seams (buried).
//!
//! The narrowphase ([`crate::collision`]) checks a contact's normal
//! against the cone of the feature it came from, as Terdiman's mesh
//! contacts (and Jolt after him) do for the edges of a triangle mesh, and
//! rebuilds one that lies outside against the face the surface has there.

use super::Polygon;
use crate::math::{atan2, cross, right_perp, Transform, Vec2};
use crate::settings::{MAX_POLYGON_VERTICES, SIN_TOLERANCE};

/// One bound of a vertex's [`Cone`]: a unit normal in the polygon's frame,
/// and whether it is the normal of one of the polygon's own faces.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Bound {
    /// The normal.
    pub normal: Vec2,
    /// The polygon's edge whose normal it is, or `None` for a welded
    /// neighbour's face.
    pub face: Option<u8>,
}

/// The normals the outer surface has at one vertex of a polygon.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum Cone {
    /// Every normal turning counter-clockwise from `from` to `to` (one
    /// normal when they are the same), all within the polygon's own
    /// corner there.
    Span {
        /// The clockwise end.
        from: Bound,
        /// The counter-clockwise end.
        to: Bound,
    },
    /// Both edges at the vertex are seams: the vertex is inside the
    /// solid, and nothing touches it.
    Buried,
}

impl Cone {
    /// Whether `n` (unit, polygon frame, inside the polygon's own corner
    /// at this vertex) lies in the cone, within [`SIN_TOLERANCE`].
    pub(crate) fn holds(&self, n: Vec2) -> bool {
        match self {
            Cone::Span { from, to } => {
                cross(from.normal, n) >= -SIN_TOLERANCE && cross(n, to.normal) >= -SIN_TOLERANCE
            }
            Cone::Buried => false,
        }
    }

    /// The end of the cone nearest `n` (`None` for a buried vertex).
    pub(crate) fn nearest(&self, n: Vec2) -> Option<Bound> {
        match *self {
            Cone::Span { from, to } if n.dot(from.normal) >= n.dot(to.normal) => Some(from),
            Cone::Span { to, .. } => Some(to),
            Cone::Buried => None,
        }
    }
}

/// A polygon's seams and the cones of its vertices (see the module
/// docs), in the polygon's own frame. A polygon without seams has none
/// of this: its every edge and corner is the surface's.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Seams {
    /// Bit `i` set: edge `i` (vertex `i` to vertex `i + 1`) is a seam.
    pub edges: u8,
    /// Per vertex, the cone of the outer surface there; only the first
    /// `count` of the polygon's are used.
    pub cones: [Cone; MAX_POLYGON_VERTICES],
}

/// Each shape slot's seams, if its shape is a polygon that has any, by
/// slot index: the world's table, as the collide stage reads it.
pub(crate) type SeamSlots = [Option<Box<Seams>>];

/// The seams of shape slot `si` in `slots`, if it has any.
#[inline]
pub(crate) fn seams_of(slots: &SeamSlots, si: u32) -> Option<&Seams> {
    slots.get(si as usize).and_then(|s| s.as_deref())
}

impl Seams {
    /// Whether edge `e` is a seam.
    #[inline]
    pub(crate) fn is_seam(&self, e: usize) -> bool {
        self.edges >> e & 1 == 1
    }

    /// The seams of `polygon` among the polygons `welded` to it (given in
    /// `polygon`'s frame, with its rounding radius), within `tolerance`
    /// (a length): `None` when it has none.
    pub(crate) fn find(polygon: &Polygon, welded: &[Polygon], tolerance: f32) -> Option<Seams> {
        let n = polygon.count;
        let edges = (0..n)
            .filter(|&e| covered(polygon, e, welded, tolerance))
            .fold(0u8, |bits, e| bits | 1 << e);
        if edges == 0 {
            return None;
        }
        let own = |e: usize| Bound {
            normal: polygon.normals[e],
            face: Some(e as u8),
        };
        let only = |e: usize| Cone::Span {
            from: own(e),
            to: own(e),
        };
        let mut cones = [Cone::Buried; MAX_POLYGON_VERTICES];
        for (i, cone) in cones.iter_mut().enumerate().take(n) {
            let prev = (i + n - 1) % n;
            let v = polygon.vertices[i];
            let seam = |e: usize| edges >> e & 1 == 1;
            *cone = match (seam(prev), seam(i)) {
                (false, false) => Cone::Span {
                    from: own(prev),
                    to: own(i),
                },
                (true, true) => Cone::Buried,
                // The surface comes in along edge `prev` and goes on along
                // a neighbour's edge leaving the vertex.
                (false, true) => {
                    let back = polygon.vertices[prev] - v;
                    match turn(v, back, welded, Way::Leaving, tolerance) {
                        Some(m) if within_corner(polygon, prev, m) => Cone::Span {
                            from: own(prev),
                            to: Bound {
                                normal: m,
                                face: None,
                            },
                        },
                        _ => only(prev),
                    }
                }
                // It comes in along a neighbour's edge and goes on along
                // edge `i`.
                (true, false) => {
                    let out = polygon.vertices[(i + 1) % n] - v;
                    match turn(v, out, welded, Way::Arriving, tolerance) {
                        Some(m) if within_corner(polygon, prev, m) => Cone::Span {
                            from: Bound {
                                normal: m,
                                face: None,
                            },
                            to: own(i),
                        },
                        _ => only(i),
                    }
                }
            };
        }
        Some(Seams { edges, cones })
    }
}

/// Whether welded polygons cover edge `e` of `polygon` along its whole
/// length: edges of theirs on its line (each end within `tolerance` of
/// it), facing the opposite way, whose spans along it leave no gap wider
/// than `tolerance`.
fn covered(polygon: &Polygon, e: usize, welded: &[Polygon], tolerance: f32) -> bool {
    let v1 = polygon.vertices[e];
    let v2 = polygon.vertices[(e + 1) % polygon.count];
    let normal = polygon.normals[e];
    let length = v1.distance(v2);
    let along = (v2 - v1) / length;
    let mut spans: Vec<(f32, f32)> = Vec::new();
    for q in welded {
        for g in 0..q.count {
            let m = q.normals[g];
            if normal.dot(m) >= 0.0 || cross(normal, m).abs() > SIN_TOLERANCE {
                continue;
            }
            let (w1, w2) = (q.vertices[g], q.vertices[(g + 1) % q.count]);
            if normal.dot(w1 - v1).abs() > tolerance || normal.dot(w2 - v1).abs() > tolerance {
                continue;
            }
            let (s1, s2) = (along.dot(w1 - v1), along.dot(w2 - v1));
            let (lo, hi) = (s1.min(s2).max(0.0), s1.max(s2).min(length));
            if hi > lo {
                spans.push((lo, hi));
            }
        }
    }
    if spans.is_empty() {
        return false;
    }
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut reach = 0.0f32;
    for (lo, hi) in spans {
        if lo > reach + tolerance {
            return false;
        }
        reach = reach.max(hi);
    }
    reach >= length - tolerance
}

/// Which way the surface runs on a welded neighbour's edge at a vertex.
#[derive(Clone, Copy, PartialEq)]
enum Way {
    /// Away from the vertex (the polygon's edge into it is outer).
    Leaving,
    /// Into the vertex (the polygon's edge out of it is outer).
    Arriving,
}

/// The outward normal of the neighbour's edge the surface runs on at
/// vertex `v`, if the surface turns round a convex corner there: `None`
/// where it runs straight on, turns into a valley, or no neighbour's edge
/// meets `v`. `along` is the polygon's outer edge at `v`, pointing away
/// from `v`.
///
/// The open side of the surface at `v` is swept from `along`, counter-
/// clockwise when the surface leaves `v` on the neighbour (the polygon's
/// solid lies clockwise of `along`), clockwise when it arrives; the first
/// neighbour edge met bounds it. Swept through more than a half turn,
/// the surface is convex there.
fn turn(v: Vec2, along: Vec2, welded: &[Polygon], way: Way, tolerance: f32) -> Option<Vec2> {
    let along = along.normalize();
    let mut first: Option<(f32, Vec2)> = None;
    for q in welded {
        for g in 0..q.count {
            let (w1, w2) = (q.vertices[g], q.vertices[(g + 1) % q.count]);
            let length = w1.distance(w2);
            let d = (w2 - w1) / length;
            let s = d.dot(v - w1);
            let through = cross(d, v - w1).abs() <= tolerance && s > tolerance && s < length - tolerance;
            let meets = match way {
                Way::Leaving => through || w1.distance(v) <= tolerance,
                Way::Arriving => through || w2.distance(v) <= tolerance,
            };
            if !meets {
                continue;
            }
            // The neighbour's edge pointing away from `v`, and the sweep
            // from `along` to it.
            let sweep = match way {
                Way::Leaving => ccw_angle(along, d),
                Way::Arriving => ccw_angle(-d, along),
            };
            // An edge back along the polygon's own one is no turn.
            if sweep <= SIN_TOLERANCE {
                continue;
            }
            if first.is_none_or(|(best, _)| sweep < best) {
                first = Some((sweep, d));
            }
        }
    }
    let (sweep, d) = first?;
    (sweep > std::f32::consts::PI + SIN_TOLERANCE).then(|| right_perp(d))
}

/// Whether normal `m` lies strictly inside the polygon's own corner at
/// the vertex after edge `prev`: a neighbour's face there that turns less
/// than the polygon does.
fn within_corner(polygon: &Polygon, prev: usize, m: Vec2) -> bool {
    let next = (prev + 1) % polygon.count;
    cross(polygon.normals[prev], m) > 0.0 && cross(m, polygon.normals[next]) > 0.0
}

/// The angle turned counter-clockwise from `a` to `b`, in `[0, 2 pi)`.
fn ccw_angle(a: Vec2, b: Vec2) -> f32 {
    let angle = atan2(cross(a, b), a.dot(b));
    if angle < 0.0 {
        angle + std::f32::consts::TAU
    } else {
        angle
    }
}

impl Polygon {
    /// The polygon placed by `xf`: vertices, normals and centroid moved
    /// into the frame `xf` maps from.
    pub(crate) fn transformed(&self, xf: Transform) -> Polygon {
        let mut out = *self;
        for i in 0..self.count {
            out.vertices[i] = xf.apply(self.vertices[i]);
            out.normals[i] = xf.q.rotate(self.normals[i]);
        }
        out.centroid = xf.apply(self.centroid);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOLERANCE: f32 = crate::settings::LINEAR_SLOP;

    fn tile(x: f32, y: f32) -> Polygon {
        Polygon::new_offset_box(0.5, 0.5, Vec2::new(x, y), 0.0).unwrap()
    }

    /// The box's edges: 0 bottom, 1 right, 2 top, 3 left; its vertices 0
    /// bottom left, then counter-clockwise.
    const BOTTOM: usize = 0;
    const RIGHT: usize = 1;
    const TOP: usize = 2;
    const LEFT: usize = 3;

    fn span(cone: Cone) -> (Vec2, Vec2) {
        match cone {
            Cone::Span { from, to } => (from.normal, to.normal),
            Cone::Buried => panic!("buried"),
        }
    }

    #[test]
    fn a_lone_tile_has_no_seams() {
        assert_eq!(Seams::find(&tile(0.0, 0.0), &[], TOLERANCE), None);
        // Nor does one whose neighbour only touches a corner.
        assert_eq!(Seams::find(&tile(0.0, 0.0), &[tile(1.0, 1.0)], TOLERANCE), None);
    }

    #[test]
    fn tiles_in_a_row_have_their_inner_sides_as_seams_and_flat_corners() {
        let middle = tile(1.0, 0.0);
        let seams = Seams::find(&middle, &[tile(0.0, 0.0), tile(2.0, 0.0)], TOLERANCE).unwrap();
        assert_eq!(seams.edges, 1 << LEFT | 1 << RIGHT);
        // Every corner is flat: the top's normal up, the bottom's down.
        assert_eq!(span(seams.cones[2]), (Vec2::Y, Vec2::Y));
        assert_eq!(span(seams.cones[3]), (Vec2::Y, Vec2::Y));
        assert_eq!(span(seams.cones[0]), (-Vec2::Y, -Vec2::Y));
        assert_eq!(span(seams.cones[1]), (-Vec2::Y, -Vec2::Y));
        assert!(seams.cones[3].holds(Vec2::new(0.005, 1.0).normalize()));
        assert!(!seams.cones[3].holds(Vec2::new(-0.2, 1.0).normalize()));
    }

    #[test]
    fn the_end_tile_keeps_its_outer_corners() {
        let end = tile(1.0, 0.0);
        let seams = Seams::find(&end, &[tile(0.0, 0.0)], TOLERANCE).unwrap();
        assert_eq!(seams.edges, 1 << LEFT);
        assert_eq!(span(seams.cones[2]), (Vec2::X, Vec2::Y));
        assert!(seams.cones[2].holds(Vec2::new(1.0, 1.0).normalize()));
    }

    #[test]
    fn a_floor_meeting_a_wall_is_a_valley() {
        // Floor tiles at x = 0 and 1, a wall tile standing on the second.
        let floor = tile(0.0, 0.0);
        let wall = tile(1.0, 1.0);
        let under = tile(1.0, 0.0);
        let seams = Seams::find(&floor, &[under, wall], TOLERANCE).unwrap();
        assert_eq!(seams.edges, 1 << RIGHT);
        // The floor's top right corner: only the floor's normal.
        assert_eq!(span(seams.cones[2]), (Vec2::Y, Vec2::Y));
        let wall_seams = Seams::find(&wall, &[under, floor], TOLERANCE).unwrap();
        assert_eq!(wall_seams.edges, 1 << BOTTOM);
        // The wall's bottom left corner: only the wall's.
        assert_eq!(span(wall_seams.cones[0]), (-Vec2::X, -Vec2::X));
        // The tile under the wall: its top and left are seams, its top
        // left corner is buried; its top right corner is the wall's, a
        // valley.
        let under_seams = Seams::find(&under, &[floor, wall], TOLERANCE).unwrap();
        assert_eq!(under_seams.edges, 1 << TOP | 1 << LEFT);
        assert_eq!(under_seams.cones[3], Cone::Buried);
        assert_eq!(span(under_seams.cones[2]), (Vec2::X, Vec2::X));
    }

    #[test]
    fn a_floor_running_onto_a_ramp_down_keeps_the_corner_between_them() {
        let floor = tile(0.0, 0.0);
        // A quad beside it whose top runs from (0.5, 0.5) down to (1.5, 0).
        let ramp = Polygon::new(&[
            Vec2::new(0.5, -0.5),
            Vec2::new(1.5, -0.5),
            Vec2::new(1.5, 0.0),
            Vec2::new(0.5, 0.5),
        ])
        .unwrap();
        let seams = Seams::find(&floor, &[ramp], TOLERANCE).unwrap();
        assert_eq!(seams.edges, 1 << RIGHT);
        let (from, to) = span(seams.cones[2]);
        assert!((from - Vec2::new(0.5, 1.0).normalize()).length() < 1e-5, "{from}");
        assert_eq!(to, Vec2::Y);
        match seams.cones[2] {
            Cone::Span { from, to } => assert_eq!((from.face, to.face), (None, Some(TOP as u8))),
            Cone::Buried => unreachable!(),
        }
    }

    #[test]
    fn slightly_misaligned_tiles_still_meet_at_a_seam() {
        let left = tile(0.0, 0.0);
        let right = tile(1.001, 0.002);
        let seams = Seams::find(&left, &[right], TOLERANCE).unwrap();
        assert_eq!(seams.edges, 1 << RIGHT);
        assert_eq!(span(seams.cones[2]), (Vec2::Y, Vec2::Y));
        // A gap wider than the tolerance is a gap.
        assert_eq!(Seams::find(&left, &[tile(1.02, 0.0)], TOLERANCE), None);
        // A neighbour only half as tall covers half the side: no seam.
        let short = Polygon::new_offset_box(0.5, 0.25, Vec2::new(1.0, -0.25), 0.0).unwrap();
        assert_eq!(Seams::find(&left, &[short], TOLERANCE), None);
        // Two halves together do.
        let upper = Polygon::new_offset_box(0.5, 0.25, Vec2::new(1.0, 0.25), 0.0).unwrap();
        assert_eq!(
            Seams::find(&left, &[short, upper], TOLERANCE).map(|s| s.edges),
            Some(1 << RIGHT)
        );
    }

    #[test]
    fn a_placed_polygon_moves_with_its_transform() {
        let xf = Transform::new(Vec2::new(3.0, -1.0), 0.5);
        let p = tile(1.0, 0.0).transformed(xf);
        let q = tile(1.0, 0.0);
        for i in 0..4 {
            assert!((p.vertices[i] - xf.apply(q.vertices[i])).length() < 1e-6);
            assert!((p.normals[i] - xf.q.rotate(q.normals[i])).length() < 1e-6);
        }
    }
}
