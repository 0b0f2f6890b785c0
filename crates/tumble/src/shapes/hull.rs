//! Convex hull of a point set (Andrew's monotone chain), with welding of
//! near-duplicate points and removal of collinear ones.

use super::ShapeError;
use crate::math::{cross, is_finite_vec, Vec2};
use crate::settings::{LINEAR_SLOP, MAX_POLYGON_VERTICES, WELD_DISTANCE};

/// The convex hull of `points`, counter-clockwise, with no two points closer
/// than the weld distance and no three collinear.
///
/// Errors: [`ShapeError::NonFinite`] for NaN or infinite coordinates,
/// [`ShapeError::TooFewPoints`] for fewer than three distinct points,
/// [`ShapeError::Collinear`] when the points span no area and
/// [`ShapeError::TooManyVertices`] when the hull needs more than eight.
pub fn convex_hull(points: &[Vec2]) -> Result<Vec<Vec2>, ShapeError> {
    if points.iter().any(|p| !is_finite_vec(*p)) {
        return Err(ShapeError::NonFinite);
    }
    // Weld near-duplicates, keeping the first of each cluster.
    let mut pts: Vec<Vec2> = Vec::with_capacity(points.len());
    for &p in points {
        if pts
            .iter()
            .all(|q| q.distance_squared(p) > WELD_DISTANCE * WELD_DISTANCE)
        {
            pts.push(p);
        }
    }
    if pts.len() < 3 {
        return Err(ShapeError::TooFewPoints);
    }
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));

    // Monotone chain: lower hull left to right, upper hull right to left.
    // Points on an edge (cross <= 0) are dropped.
    let mut hull: Vec<Vec2> = Vec::with_capacity(2 * pts.len());
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2 {
                let a = hull[hull.len() - 2];
                let b = hull[hull.len() - 1];
                if cross(b - a, p - a) <= 0.0 {
                    hull.pop();
                } else {
                    break;
                }
            }
            hull.push(p);
        }
        hull.pop(); // the last point starts the other chain
    }

    // Remove vertices that are collinear within tolerance: an edge through
    // them would have an unreliable normal.
    let mut changed = true;
    while changed && hull.len() >= 3 {
        changed = false;
        let n = hull.len();
        for i in 0..n {
            let a = hull[(i + n - 1) % n];
            let b = hull[i];
            let c = hull[(i + 1) % n];
            let ac = c - a;
            let len = ac.length();
            // Distance of b outside the chord a-c (positive for a convex corner).
            if len == 0.0 || cross(b - a, ac) / len <= 0.05 * LINEAR_SLOP {
                hull.remove(i);
                changed = true;
                break;
            }
        }
    }
    if hull.len() < 3 {
        return Err(ShapeError::Collinear);
    }
    // The area must be meaningfully positive too.
    let mut area2 = 0.0;
    for i in 1..hull.len() - 1 {
        area2 += cross(hull[i] - hull[0], hull[i + 1] - hull[0]);
    }
    if area2 <= WELD_DISTANCE * WELD_DISTANCE {
        return Err(ShapeError::Collinear);
    }
    if hull.len() > MAX_POLYGON_VERTICES {
        return Err(ShapeError::TooManyVertices);
    }
    Ok(hull)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_drops_interior_and_collinear_points_and_is_ccw() {
        let pts = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.5, 0.5), // interior
            Vec2::new(1.0, 0.0),
            Vec2::new(0.5, 0.0), // on an edge
            Vec2::new(0.0, 1.0),
            Vec2::new(0.0, 1.0), // duplicate
        ];
        let h = convex_hull(&pts).unwrap();
        assert_eq!(h.len(), 4);
        for i in 0..4 {
            let a = h[i];
            let b = h[(i + 1) % 4];
            let c = h[(i + 2) % 4];
            assert!(cross(b - a, c - b) > 0.0, "not counter-clockwise: {h:?}");
        }
    }

    #[test]
    fn clockwise_input_gives_the_same_hull() {
        let ccw = [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
        let mut cw = ccw;
        cw.reverse();
        assert_eq!(convex_hull(&ccw).unwrap(), convex_hull(&cw).unwrap());
    }

    #[test]
    fn too_many_vertices() {
        let pts: Vec<Vec2> = (0..12)
            .map(|i| {
                let a = i as f32 / 12.0 * std::f32::consts::TAU;
                Vec2::new(a.cos(), a.sin())
            })
            .collect();
        assert_eq!(convex_hull(&pts), Err(ShapeError::TooManyVertices));
        assert_eq!(convex_hull(&pts[..8]).unwrap().len(), 8);
    }

    #[test]
    fn errors() {
        assert_eq!(convex_hull(&[Vec2::ZERO, Vec2::X]), Err(ShapeError::TooFewPoints));
        assert_eq!(
            convex_hull(&[Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0), Vec2::new(3.0, 0.0)]),
            Err(ShapeError::Collinear)
        );
        assert_eq!(
            convex_hull(&[Vec2::ZERO, Vec2::X, Vec2::new(f32::INFINITY, 0.0)]),
            Err(ShapeError::NonFinite)
        );
    }
}
