//! The camera: which part of the world the view shows, and the mapping
//! between world metres (y up) and screen pixels (y down).

use egui::{Pos2, Rect};
use tumble::{Aabb, Vec2};

/// Closest the camera may zoom out, pixels per metre.
pub const MIN_ZOOM: f32 = 2.0;
/// Closest the camera may zoom in, pixels per metre.
pub const MAX_ZOOM: f32 = 400.0;

/// A 2D camera: the world point at the center of the view and the scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// World point shown at the center of the viewport.
    pub center: Vec2,
    /// Pixels per metre.
    pub zoom: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Camera {
            center: Vec2::new(0.0, 4.0),
            zoom: 50.0,
        }
    }
}

impl Camera {
    /// The screen point (pixels, y down) of the world point `p` in `viewport`.
    pub fn to_screen(&self, p: Vec2, viewport: Rect) -> Pos2 {
        let c = viewport.center();
        Pos2::new(
            c.x + (p.x - self.center.x) * self.zoom,
            c.y - (p.y - self.center.y) * self.zoom,
        )
    }

    /// The world point under the screen point `s` in `viewport`.
    pub fn to_world(&self, s: Pos2, viewport: Rect) -> Vec2 {
        let c = viewport.center();
        Vec2::new(
            self.center.x + (s.x - c.x) / self.zoom,
            self.center.y - (s.y - c.y) / self.zoom,
        )
    }

    /// The world rectangle the viewport shows.
    pub fn visible_world(&self, viewport: Rect) -> Aabb {
        let a = self.to_world(viewport.left_bottom(), viewport);
        let b = self.to_world(viewport.right_top(), viewport);
        Aabb::new(a, b)
    }

    /// Zooms by `factor` (above 1 zooms in) keeping the world point under
    /// the screen point `anchor` where it is, the way a map zooms.
    pub fn zoom_at(&mut self, factor: f32, anchor: Pos2, viewport: Rect) {
        if !(factor.is_finite() && factor > 0.0) {
            return;
        }
        let before = self.to_world(anchor, viewport);
        self.zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        let after = self.to_world(anchor, viewport);
        self.center += before - after;
    }

    /// Moves the view so that the world follows a drag of `delta` pixels.
    pub fn pan_pixels(&mut self, delta: egui::Vec2) {
        self.center -= Vec2::new(delta.x, -delta.y) / self.zoom;
    }

    /// Frames the world rectangle `bounds` in `viewport`, with a margin of
    /// `margin` (a fraction of the viewport) on each side.
    pub fn fit(&mut self, bounds: Aabb, viewport: Rect, margin: f32) {
        let size = bounds.max - bounds.min;
        let usable_w = viewport.width() * (1.0 - 2.0 * margin);
        let usable_h = viewport.height() * (1.0 - 2.0 * margin);
        if !(size.x.is_finite() && size.y.is_finite()) || usable_w <= 1.0 || usable_h <= 1.0 {
            return;
        }
        let zoom = (usable_w / size.x.max(1e-3)).min(usable_h / size.y.max(1e-3));
        self.zoom = zoom.clamp(MIN_ZOOM, MAX_ZOOM);
        self.center = 0.5 * (bounds.min + bounds.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn viewport() -> Rect {
        Rect::from_min_size(Pos2::new(100.0, 20.0), egui::vec2(800.0, 600.0))
    }

    #[test]
    fn screen_and_world_round_trip_with_y_flipped() {
        let cam = Camera {
            center: Vec2::new(1.0, 2.0),
            zoom: 40.0,
        };
        let vp = viewport();
        let p = Vec2::new(3.5, -1.25);
        let s = cam.to_screen(p, vp);
        assert!((cam.to_world(s, vp) - p).length() < 1e-4);
        // Up in the world is up on the screen (smaller y).
        assert!(cam.to_screen(Vec2::new(1.0, 3.0), vp).y < cam.to_screen(Vec2::new(1.0, 2.0), vp).y);
        assert_eq!(cam.to_screen(cam.center, vp), vp.center());
    }

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let mut cam = Camera::default();
        let vp = viewport();
        let anchor = Pos2::new(700.0, 150.0);
        let before = cam.to_world(anchor, vp);
        cam.zoom_at(1.7, anchor, vp);
        assert!((cam.to_world(anchor, vp) - before).length() < 1e-4);
        assert!((cam.zoom - 85.0).abs() < 1e-3);
    }

    #[test]
    fn fit_shows_the_whole_rectangle() {
        let mut cam = Camera::default();
        let vp = viewport();
        let bounds = Aabb::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 6.0));
        cam.fit(bounds, vp, 0.05);
        let seen = cam.visible_world(vp);
        assert!(seen.contains(bounds), "{seen:?} should contain {bounds:?}");
    }
}
