//! A small RGB raster the environments draw themselves onto, so that
//! `render_mode="rgb_array"` needs no window library.
//!
//! Coordinates are pixels with y up, from the bottom-left corner, the way
//! gymnasium's renderers draw before they flip the image; the buffer is
//! stored top row first (an `(height, width, 3)` image).

/// An RGB color.
pub type Rgb = [u8; 3];

/// An RGB image being drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canvas {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

impl Canvas {
    /// A black canvas of `width` × `height` pixels.
    pub fn new(width: usize, height: usize) -> Canvas {
        Canvas {
            width,
            height,
            pixels: vec![0; width * height * 3],
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The pixels, top row first, three bytes (R, G, B) a pixel.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The color of the pixel in column `x`, row `row` (from the top).
    pub fn pixel(&self, x: usize, row: usize) -> Rgb {
        let i = (row * self.width + x) * 3;
        [self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]]
    }

    /// Paints every pixel `color`.
    pub fn clear(&mut self, color: Rgb) {
        for px in self.pixels.chunks_exact_mut(3) {
            px.copy_from_slice(&color);
        }
    }

    /// Blends `color` into the pixel at column `x`, row `row` with
    /// weight `alpha` in [0, 1]; pixels off the canvas are skipped.
    fn blend(&mut self, x: i64, row: i64, color: Rgb, alpha: f32) {
        if x < 0 || row < 0 || x >= self.width as i64 || row >= self.height as i64 {
            return;
        }
        let i = (row as usize * self.width + x as usize) * 3;
        let a = alpha.clamp(0.0, 1.0);
        for (c, &target) in self.pixels[i..i + 3].iter_mut().zip(&color) {
            *c = (f32::from(*c) + (f32::from(target) - f32::from(*c)) * a).round() as u8;
        }
    }

    /// Fills the polygon through `points` (y up; any simple polygon,
    /// even-odd rule): every pixel whose center lies inside.
    pub fn fill_polygon(&mut self, points: &[[f32; 2]], color: Rgb) {
        if points.len() < 3 {
            return;
        }
        let h = self.height as f32;
        // Rows are counted from the top: a point at height y sits at h - y.
        let rows = points.iter().map(|p| h - p[1]);
        let (top, bottom) = rows.fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), r| {
            (a.min(r), b.max(r))
        });
        if !(top.is_finite() && bottom.is_finite()) {
            return;
        }
        let first = (top - 0.5).ceil().max(0.0) as i64;
        let last = ((bottom - 0.5).floor() as i64).min(self.height as i64 - 1);
        let mut crossings: Vec<f32> = Vec::with_capacity(8);
        for row in first..=last {
            let center = row as f32 + 0.5;
            crossings.clear();
            for (k, a) in points.iter().enumerate() {
                let b = points[(k + 1) % points.len()];
                let (ya, yb) = (h - a[1], h - b[1]);
                if (ya <= center) != (yb <= center) {
                    crossings.push(a[0] + (center - ya) / (yb - ya) * (b[0] - a[0]));
                }
            }
            crossings.sort_by(f32::total_cmp);
            for span in crossings.chunks_exact(2) {
                let x0 = (span[0] - 0.5).ceil().max(0.0) as i64;
                let x1 = ((span[1] - 0.5).floor() as i64).min(self.width as i64 - 1);
                for x in x0..=x1 {
                    self.blend(x, row, color, 1.0);
                }
            }
        }
    }

    /// Draws an anti-aliased line one pixel wide from `a` to `b` (y up),
    /// Xiaolin Wu's way.
    pub fn line(&mut self, a: [f32; 2], b: [f32; 2], color: Rgb) {
        let h = self.height as f32;
        let (mut x0, mut y0, mut x1, mut y1) = (a[0], h - a[1], b[0], h - b[1]);
        if !(x0.is_finite() && y0.is_finite() && x1.is_finite() && y1.is_finite()) {
            return;
        }
        let steep = (y1 - y0).abs() > (x1 - x0).abs();
        if steep {
            std::mem::swap(&mut x0, &mut y0);
            std::mem::swap(&mut x1, &mut y1);
        }
        if x0 > x1 {
            std::mem::swap(&mut x0, &mut x1);
            std::mem::swap(&mut y0, &mut y1);
        }
        let gradient = if x1 == x0 { 0.0 } else { (y1 - y0) / (x1 - x0) };
        // Pixel centers sit at half-integers: shift so that a line along
        // a row of centers paints that row fully.
        let start = (x0 - 0.5).round().max(-1.0);
        let end = (x1 - 0.5)
            .round()
            .min(if steep { self.height } else { self.width } as f32);
        let mut x = start;
        while x <= end {
            let y = y0 + gradient * (x + 0.5 - x0) - 0.5;
            let base = y.floor();
            let frac = y - base;
            let (xi, yi) = (x as i64, base as i64);
            if steep {
                self.blend(yi, xi, color, 1.0 - frac);
                self.blend(yi + 1, xi, color, frac);
            } else {
                self.blend(xi, yi, color, 1.0 - frac);
                self.blend(xi, yi + 1, color, frac);
            }
            x += 1.0;
        }
    }

    /// Draws the closed outline through `points` (y up), anti-aliased.
    pub fn outline(&mut self, points: &[[f32; 2]], color: Rgb) {
        for (k, &a) in points.iter().enumerate() {
            self.line(a, points[(k + 1) % points.len()], color);
        }
    }

    /// Fills the disc of `radius` pixels about `center` (y up).
    pub fn fill_circle(&mut self, center: [f32; 2], radius: f32, color: Rgb) {
        let (cx, cy) = (center[0], self.height as f32 - center[1]);
        if !(cx.is_finite() && cy.is_finite() && radius.is_finite()) || radius <= 0.0 {
            return;
        }
        let r2 = radius * radius;
        let first = (cy - radius).floor().max(0.0) as i64;
        let last = ((cy + radius).ceil() as i64).min(self.height as i64 - 1);
        for row in first..=last {
            let dy = row as f32 + 0.5 - cy;
            let half = r2 - dy * dy;
            if half < 0.0 {
                continue;
            }
            let half = half.sqrt();
            let x0 = (cx - half - 0.5).ceil().max(0.0) as i64;
            let x1 = ((cx + half - 0.5).floor() as i64).min(self.width as i64 - 1);
            for x in x0..=x1 {
                self.blend(x, row, color, 1.0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filled_square_covers_its_pixels_and_no_others() {
        let mut c = Canvas::new(10, 10);
        c.fill_polygon(&[[2.0, 2.0], [6.0, 2.0], [6.0, 6.0], [2.0, 6.0]], [255, 0, 0]);
        let red = c.pixels().chunks_exact(3).filter(|p| p == &[255, 0, 0]).count();
        assert_eq!(red, 16);
        // y up: the square's bottom row is row 10 - 2 - 1 = 7 from the top.
        assert_eq!(c.pixel(2, 7), [255, 0, 0]);
        assert_eq!(c.pixel(2, 8), [0, 0, 0]);
        assert_eq!(c.pixel(6, 7), [0, 0, 0]);
    }

    #[test]
    fn a_line_along_a_row_paints_that_row() {
        let mut c = Canvas::new(8, 4);
        c.line([0.5, 1.5], [7.5, 1.5], [0, 255, 0]);
        for x in 0..8 {
            assert_eq!(c.pixel(x, 2), [0, 255, 0], "column {x}");
            assert_eq!(c.pixel(x, 1), [0, 0, 0]);
        }
    }

    #[test]
    fn a_disc_has_about_its_area() {
        let mut c = Canvas::new(64, 64);
        c.fill_circle([32.0, 32.0], 10.0, [9, 9, 9]);
        let n = c.pixels().chunks_exact(3).filter(|p| p == &[9, 9, 9]).count() as f32;
        let area = std::f32::consts::PI * 100.0;
        assert!((n - area).abs() < 0.05 * area, "{n} pixels for {area}");
    }

    #[test]
    fn shapes_off_the_canvas_are_clipped_not_refused() {
        let mut c = Canvas::new(4, 4);
        c.fill_polygon(&[[-100.0, -100.0], [100.0, -100.0], [100.0, 100.0]], [1, 2, 3]);
        c.line([-1e9, 2.0], [1e9, 2.0], [4, 5, 6]);
        c.fill_circle([f32::NAN, 0.0], 3.0, [7, 8, 9]);
        assert_eq!(c.pixel(3, 0), [1, 2, 3]);
    }
}
