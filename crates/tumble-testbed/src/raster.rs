//! A small software rasteriser for [`PaintOp`]s, so `tumble screenshot`
//! draws without a window or a GPU, through the same ops the window paints.
//!
//! Every op becomes one or more convex polygons. A convex polygon is the
//! intersection of its edges' half-planes, so the signed distance from a
//! pixel center to it is (inside exactly, outside closely enough) the largest
//! of the distances to the edge lines; half a pixel either side of the edge
//! fades the coverage from 1 to 0, which is the anti-aliasing.

use crate::draw::PaintOp;
use egui::{Color32, Pos2};
use std::f32::consts::TAU;
use std::io::Write;
use std::path::Path;

/// An RGBA image being painted, premultiplied alpha, one `[f32; 4]` (0..=1)
/// per pixel, rows top to bottom.
#[derive(Clone, Debug)]
pub struct Canvas {
    width: u32,
    height: u32,
    pixels: Vec<[f32; 4]>,
}

/// What can go wrong writing a PNG.
#[derive(Debug)]
pub enum PngError {
    /// The file could not be created or written.
    Io(std::io::Error),
    /// The encoder refused the image.
    Encode(png::EncodingError),
}

impl std::fmt::Display for PngError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PngError::Io(e) => write!(f, "{e}"),
            PngError::Encode(e) => write!(f, "PNG encoding failed: {e}"),
        }
    }
}

impl std::error::Error for PngError {}

impl From<std::io::Error> for PngError {
    fn from(e: std::io::Error) -> Self {
        PngError::Io(e)
    }
}

impl From<png::EncodingError> for PngError {
    fn from(e: png::EncodingError) -> Self {
        PngError::Encode(e)
    }
}

fn to_f32(c: Color32) -> [f32; 4] {
    // Color32 is premultiplied already.
    [
        c.r() as f32 / 255.0,
        c.g() as f32 / 255.0,
        c.b() as f32 / 255.0,
        c.a() as f32 / 255.0,
    ]
}

impl Canvas {
    /// A canvas of `width` x `height` pixels filled with `background`.
    pub fn new(width: u32, height: u32, background: Color32) -> Canvas {
        Canvas {
            width,
            height,
            pixels: vec![to_f32(background); width as usize * height as usize],
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixel at column `x`, row `y` as unpremultiplied 8-bit RGBA, or
    /// `None` outside the canvas.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        Some(unpremultiply(self.pixels[(y * self.width + x) as usize]))
    }

    /// Paints the ops in order.
    pub fn paint(&mut self, ops: &[PaintOp]) {
        for op in ops {
            match op {
                PaintOp::Fill { points, color } => self.fill_convex(points, *color),
                PaintOp::Stroke {
                    points,
                    closed,
                    width,
                    color,
                } => self.stroke(points, *closed, *width, *color),
                PaintOp::Dot {
                    center,
                    radius,
                    color,
                } => self.dot(*center, *radius, *color),
                PaintOp::Text {
                    pos,
                    anchor,
                    text,
                    size,
                    color,
                } => self.text(*pos, *anchor, text, *size, *color),
            }
        }
    }

    /// A line of text in the 5 x 7 font ([`crate::font`]), scaled to about
    /// `size` pixels, placed as `anchor` says.
    pub fn text(&mut self, pos: Pos2, anchor: egui::Align2, text: &str, size: f32, color: Color32) {
        use crate::font::{glyph, measure, scale_for, ADVANCE, GLYPH_W};
        let scale = scale_for(size);
        let (w, h) = measure(text, scale);
        let origin = anchor.anchor_size(pos, egui::vec2(w as f32, h as f32)).min;
        let s = scale as f32;
        for (k, c) in text.chars().enumerate() {
            let left = origin.x + (k as u32 * ADVANCE * scale) as f32;
            for (row, bits) in glyph(c).iter().enumerate() {
                for col in 0..GLYPH_W {
                    if bits & (1 << (GLYPH_W - 1 - col)) == 0 {
                        continue;
                    }
                    let (x, y) = (left + col as f32 * s, origin.y + row as f32 * s);
                    let square = [
                        Pos2::new(x, y),
                        Pos2::new(x + s, y),
                        Pos2::new(x + s, y + s),
                        Pos2::new(x, y + s),
                    ];
                    self.fill_convex(&square, color);
                }
            }
        }
    }

    /// A filled disc.
    pub fn dot(&mut self, center: Pos2, radius: f32, color: Color32) {
        let n = ((radius.max(0.5)).sqrt() * 6.0).clamp(8.0, 64.0) as usize;
        let pts: Vec<Pos2> = (0..n)
            .map(|k| {
                let a = TAU * k as f32 / n as f32;
                Pos2::new(center.x + radius * a.cos(), center.y + radius * a.sin())
            })
            .collect();
        self.fill_convex(&pts, color);
    }

    /// A polyline `width` pixels wide: a quad per segment and a round join
    /// at each inner corner.
    pub fn stroke(&mut self, points: &[Pos2], closed: bool, width: f32, color: Color32) {
        let n = points.len();
        if n < 2 {
            return;
        }
        let half = 0.5 * width.max(0.5);
        let segments = if closed { n } else { n - 1 };
        for i in 0..segments {
            let a = points[i];
            let b = points[(i + 1) % n];
            let d = b - a;
            let len = d.length();
            if len < 1e-4 {
                continue;
            }
            let nrm = egui::vec2(-d.y, d.x) * (half / len);
            self.fill_convex(&[a + nrm, b + nrm, b - nrm, a - nrm], color);
        }
        if width > 1.2 {
            let joins = if closed { 0..n } else { 1..n - 1 };
            for i in joins {
                self.dot(points[i], half, color);
            }
        }
    }

    /// A filled convex polygon, either winding, anti-aliased.
    pub fn fill_convex(&mut self, points: &[Pos2], color: Color32) {
        let n = points.len();
        if n < 3 || color.a() == 0 {
            return;
        }
        // Orientation from the signed area, so either winding works.
        let mut area2 = 0.0;
        for i in 0..n {
            let (p, q) = (points[i], points[(i + 1) % n]);
            area2 += p.x * q.y - q.x * p.y;
        }
        if area2.abs() < 1e-6 || !area2.is_finite() {
            return;
        }
        let sign = area2.signum();
        // Each edge's outward unit normal and offset: distance(p) = n.p - c.
        let mut edges: Vec<(f32, f32, f32)> = Vec::with_capacity(n);
        for i in 0..n {
            let (p, q) = (points[i], points[(i + 1) % n]);
            let d = q - p;
            let len = d.length();
            if len < 1e-6 {
                continue;
            }
            // With y down on screen, counter-clockwise-in-memory (positive
            // area) has its outside on the left of each edge.
            let (nx, ny) = (sign * d.y / len, -sign * d.x / len);
            edges.push((nx, ny, nx * p.x + ny * p.y));
        }
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for p in points {
            x0 = x0.min(p.x);
            y0 = y0.min(p.y);
            x1 = x1.max(p.x);
            y1 = y1.max(p.y);
        }
        let clamp_x = |v: f32| v.clamp(0.0, self.width as f32) as u32;
        let clamp_y = |v: f32| v.clamp(0.0, self.height as f32) as u32;
        let (ix0, ix1) = (clamp_x((x0 - 1.0).floor()), clamp_x((x1 + 1.0).ceil()));
        let (iy0, iy1) = (clamp_y((y0 - 1.0).floor()), clamp_y((y1 + 1.0).ceil()));
        let src = to_f32(color);
        for y in iy0..iy1 {
            let py = y as f32 + 0.5;
            let row = (y * self.width) as usize;
            for x in ix0..ix1 {
                let px = x as f32 + 0.5;
                let mut dist = f32::MIN;
                for &(nx, ny, c) in &edges {
                    dist = dist.max(nx * px + ny * py - c);
                    if dist >= 0.5 {
                        break;
                    }
                }
                let coverage = (0.5 - dist).clamp(0.0, 1.0);
                if coverage <= 0.0 {
                    continue;
                }
                let dst = &mut self.pixels[row + x as usize];
                let k = 1.0 - src[3] * coverage;
                for ch in 0..4 {
                    dst[ch] = src[ch] * coverage + dst[ch] * k;
                }
            }
        }
    }

    /// The image as unpremultiplied 8-bit RGBA rows.
    pub fn to_rgba8(&self) -> Vec<u8> {
        self.pixels.iter().flat_map(|&p| unpremultiply(p)).collect()
    }

    /// Encodes the image as a PNG into `out`.
    pub fn write_png_to(&self, out: impl Write) -> Result<(), PngError> {
        let mut encoder = png::Encoder::new(out, self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&self.to_rgba8())?;
        writer.finish()?;
        Ok(())
    }

    /// Writes the image to a PNG file.
    pub fn save_png(&self, path: &Path) -> Result<(), PngError> {
        let file = std::fs::File::create(path)?;
        let mut buffered = std::io::BufWriter::new(file);
        self.write_png_to(&mut buffered)?;
        buffered.flush()?;
        Ok(())
    }
}

fn unpremultiply(p: [f32; 4]) -> [u8; 4] {
    let a = p[3].clamp(0.0, 1.0);
    let byte = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    if a <= 0.0 {
        return [0, 0, 0, 0];
    }
    [byte(p[0] / a), byte(p[1] / a), byte(p[2] / a), byte(a)]
}

#[cfg(test)]
mod tests {
    use super::*;

    const BG: Color32 = Color32::from_rgb(10, 20, 30);
    const RED: Color32 = Color32::from_rgb(250, 0, 0);

    #[test]
    fn a_square_is_solid_inside_clear_outside_and_soft_on_its_edge() {
        let mut c = Canvas::new(20, 20, BG);
        // Edges at x = 5.5 and 14.5: the pixels there are half covered.
        let sq = [
            Pos2::new(5.5, 5.0),
            Pos2::new(14.5, 5.0),
            Pos2::new(14.5, 15.0),
            Pos2::new(5.5, 15.0),
        ];
        c.fill_convex(&sq, RED);
        assert_eq!(c.pixel(10, 10), Some([250, 0, 0, 255]));
        assert_eq!(c.pixel(2, 10), Some([10, 20, 30, 255]));
        let edge = c.pixel(5, 10).unwrap();
        assert!(
            edge[0] > 100 && edge[0] < 160,
            "half-covered edge pixel: {edge:?}"
        );
        // The reverse winding paints the same.
        let mut d = Canvas::new(20, 20, BG);
        let rev: Vec<Pos2> = sq.iter().rev().copied().collect();
        d.fill_convex(&rev, RED);
        assert_eq!(c.to_rgba8(), d.to_rgba8());
    }

    #[test]
    fn translucent_colors_blend_over_the_background() {
        let mut c = Canvas::new(4, 4, Color32::BLACK);
        let half_white = Color32::from_rgba_unmultiplied(255, 255, 255, 128);
        c.fill_convex(
            &[
                Pos2::new(-1.0, -1.0),
                Pos2::new(5.0, -1.0),
                Pos2::new(5.0, 5.0),
                Pos2::new(-1.0, 5.0),
            ],
            half_white,
        );
        let p = c.pixel(1, 1).unwrap();
        assert!((p[0] as i32 - 128).abs() <= 2, "{p:?}");
        assert_eq!(p[3], 255);
    }

    #[test]
    fn strokes_and_dots_cover_what_they_should() {
        let mut c = Canvas::new(40, 40, BG);
        c.stroke(&[Pos2::new(5.0, 20.5), Pos2::new(35.0, 20.5)], false, 3.0, RED);
        assert_eq!(c.pixel(20, 20), Some([250, 0, 0, 255]));
        assert_eq!(c.pixel(20, 25), Some([10, 20, 30, 255]));
        c.dot(Pos2::new(10.0, 10.0), 4.0, Color32::WHITE);
        assert_eq!(c.pixel(10, 10), Some([255, 255, 255, 255]));
        assert_eq!(c.pixel(16, 10), Some([10, 20, 30, 255]));
        // Degenerate input paints nothing and does not panic.
        c.fill_convex(
            &[Pos2::new(1.0, 1.0), Pos2::new(2.0, 2.0), Pos2::new(3.0, 3.0)],
            RED,
        );
        c.fill_convex(
            &[Pos2::new(f32::NAN, 1.0), Pos2::new(2.0, 2.0), Pos2::new(3.0, 9.0)],
            RED,
        );
        c.stroke(&[Pos2::new(1.0, 1.0)], true, 2.0, RED);
    }

    #[test]
    fn png_round_trips() {
        let mut c = Canvas::new(8, 6, BG);
        c.dot(Pos2::new(4.0, 3.0), 2.0, RED);
        let mut bytes = Vec::new();
        c.write_png_to(&mut bytes).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (8, 6));
        assert_eq!(&buf[..info.buffer_size()], &c.to_rgba8()[..]);
    }
}
