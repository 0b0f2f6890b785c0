//! `tumble screenshot`: a scene after N steps, drawn to a PNG without a
//! window through the same [`Testbed::view_ops`] the window paints.

use crate::raster::{Canvas, PngError};
use crate::testbed::Testbed;
use egui::{Pos2, Rect};
use std::path::PathBuf;
use tumble_scenes::SceneName;

/// What to render.
#[derive(Clone, Debug, PartialEq)]
pub struct ScreenshotOptions {
    /// The scene.
    pub scene: SceneName,
    /// Physics steps to take before drawing.
    pub frames: u32,
    /// Image width, pixels.
    pub width: u32,
    /// Image height, pixels.
    pub height: u32,
    /// Draw contact points and normals (the D key).
    pub contacts: bool,
    /// Where to write the PNG.
    pub out: PathBuf,
}

impl Default for ScreenshotOptions {
    fn default() -> Self {
        ScreenshotOptions {
            scene: SceneName::Pyramid,
            frames: 120,
            width: 1280,
            height: 720,
            contacts: false,
            out: PathBuf::from("tumble.png"),
        }
    }
}

/// Largest image side accepted, pixels.
pub const MAX_SIDE: u32 = 8192;

/// Steps a testbed `frames` times and draws its view into a canvas of
/// `width` x `height`.
pub fn render(testbed: &mut Testbed, frames: u32, width: u32, height: u32) -> Canvas {
    for _ in 0..frames {
        testbed.step();
    }
    draw(testbed, width, height)
}

/// Draws the testbed's view as it is now into a canvas: what the window's
/// view shows, labels included, but not the legend of keys (a picture of
/// the scene, not of the help).
pub fn draw(testbed: &mut Testbed, width: u32, height: u32) -> Canvas {
    testbed.show_legend = false;
    let viewport = Rect::from_min_size(Pos2::ZERO, egui::vec2(width as f32, height as f32));
    testbed.fit_camera_if_pending(viewport);
    let mut canvas = Canvas::new(width, height, testbed.style.background);
    canvas.paint(&testbed.view_ops(viewport));
    canvas
}

/// Renders `options.scene` after `options.frames` steps and writes the PNG.
pub fn screenshot(options: &ScreenshotOptions) -> Result<Canvas, PngError> {
    let mut testbed = Testbed::new(options.scene);
    testbed.draw_contacts = options.contacts;
    let canvas = render(
        &mut testbed,
        options.frames,
        options.width.clamp(16, MAX_SIDE),
        options.height.clamp(16, MAX_SIDE),
    );
    canvas.save_png(&options.out)?;
    Ok(canvas)
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::Color32;

    fn count(canvas: &Canvas, color: Color32, rows: std::ops::Range<u32>) -> usize {
        let want = color.to_srgba_unmultiplied();
        rows.flat_map(|y| (0..canvas.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| canvas.pixel(x, y) == Some(want))
            .count()
    }

    #[test]
    fn screenshot_writes_a_png_showing_the_ground_and_the_boxes() {
        let out = std::env::temp_dir().join(format!("tumble-shot-{}.png", std::process::id()));
        let opts = ScreenshotOptions {
            scene: SceneName::Pyramid,
            frames: 60,
            width: 640,
            height: 400,
            contacts: false,
            out: out.clone(),
        };
        let canvas = screenshot(&opts).unwrap();

        // The file is a real PNG of that size with the same pixels.
        let bytes = std::fs::read(&out).unwrap();
        let _ = std::fs::remove_file(&out);
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (640, 400));
        assert_eq!(&buf[..info.buffer_size()], &canvas.to_rgba8()[..]);

        // Not blank: many pixels differ from the background.
        let style = crate::draw::Style::default();
        let bg = style.background.to_srgba_unmultiplied();
        let differing = buf.chunks(4).filter(|p| *p != bg).count();
        assert!(
            differing > 640 * 400 / 10,
            "only {differing} pixels differ from the background"
        );

        // The boxes: the dynamic fill (or the sleeping one, once the
        // resting pyramid fell asleep) covers 21 boxes' worth of area, in
        // the upper part of the picture.
        let box_px = count(&canvas, style.fill(style.dynamic, 1.0), 0..400)
            + count(&canvas, style.fill(style.sleeping, 1.0), 0..400);
        assert!(box_px > 21 * 200, "box fill pixels: {box_px}");
        // The ground: its fill spans the bottom rows.
        let ground_fill = style.fill(style.fixed, 1.0);
        let ground_px = count(&canvas, ground_fill, 300..400);
        assert!(ground_px > 640 * 10, "ground fill pixels: {ground_px}");
        assert_eq!(count(&canvas, ground_fill, 0..150), 0, "no ground in the sky");
        // The outlines are there too.
        let outline_px = count(&canvas, style.dynamic, 0..400) + count(&canvas, style.sleeping, 0..400);
        assert!(outline_px > 21 * 20);
    }

    #[test]
    fn contacts_show_when_asked() {
        let mut tb = Testbed::new(SceneName::Tower);
        let plain = render(&mut tb, 10, 320, 240);
        tb.draw_contacts = true;
        let with = draw(&mut tb, 320, 240);
        let c = crate::draw::color32(tumble::Color::CONTACT_PERSISTED);
        assert_eq!(count(&plain, c, 0..240), 0);
        assert!(count(&with, c, 0..240) > 10, "contact points are drawn");
    }

    #[test]
    fn a_file_that_cannot_be_written_is_an_error() {
        let opts = ScreenshotOptions {
            frames: 1,
            width: 32,
            height: 32,
            out: PathBuf::from("/nonexistent-dir/x/shot.png"),
            ..ScreenshotOptions::default()
        };
        assert!(screenshot(&opts).is_err());
    }
}
