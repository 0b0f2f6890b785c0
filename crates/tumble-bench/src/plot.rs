//! `--plot FILE.png`: one bar chart panel per scene, a bar per engine
//! (median ms per step), drawn by plotters' bitmap backend. Text uses the
//! Ubuntu Light font embedded by `epaint_default_fonts` through plotters'
//! `ab_glyph` feature, so no system font library is needed.

use crate::engines::EngineKind;
use crate::runner::SceneRun;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;
use std::sync::Once;

/// The font family name the chart's text asks for.
const FONT: &str = "sans-serif";

/// Width of one scene's panel, pixels.
const PANEL_WIDTH: u32 = 360;
/// Height of the chart, pixels.
const HEIGHT: u32 = 460;

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The embedded bytes are a valid TrueType font; if ab_glyph ever
        // refused them, text would fail to draw and `plot` would say so.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, epaint_default_fonts::UBUNTU_LIGHT);
    });
}

fn color(engine: EngineKind) -> RGBColor {
    match engine {
        EngineKind::Tumble => RGBColor(0xd9, 0x5f, 0x02),
        EngineKind::Box2d => RGBColor(0x1b, 0x9e, 0x77),
        EngineKind::Rapier => RGBColor(0x75, 0x70, 0xb3),
    }
}

/// Draws the chart to a PNG at `path`.
pub fn plot(scenes: &[SceneRun], path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    register_font();
    // Wide enough for the title even with one scene.
    let width = (PANEL_WIDTH * scenes.len().max(1) as u32).max(2 * PANEL_WIDTH);
    let root = BitMapBackend::new(path, (width, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(
        "median ms per step (lower is faster), dt = 1/60, one thread",
        (FONT, 22),
    )?;
    let panels = root.split_evenly((1, scenes.len().max(1)));
    for (scene, panel) in scenes.iter().zip(&panels) {
        draw_panel(scene, panel)?;
    }
    root.present()?;
    Ok(())
}

fn draw_panel(scene: &SceneRun, area: &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>) -> PlotResult {
    let n = scene.runs.len() as u32;
    let top = scene
        .runs
        .iter()
        .map(|r| r.median_ms)
        .fold(0.0f64, f64::max)
        .max(1e-3)
        * 1.2;
    let mut chart = ChartBuilder::on(area)
        .caption(scene.scene, (FONT, 20))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d((0..n.saturating_sub(1)).into_segmented(), 0.0..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_desc("ms")
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => scene
                .runs
                .get(*i as usize)
                .map_or(String::new(), |r| r.engine.name().to_string()),
            _ => String::new(),
        })
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 15))
        .draw()?;
    chart.draw_series(scene.runs.iter().enumerate().map(|(i, run)| {
        let i = i as u32;
        let mut bar = Rectangle::new(
            [
                (SegmentValue::Exact(i), 0.0),
                (SegmentValue::Exact(i + 1), run.median_ms),
            ],
            color(run.engine).filled(),
        );
        bar.set_margin(0, 0, 12, 12);
        bar
    }))?;
    chart.draw_series(scene.runs.iter().enumerate().map(|(i, run)| {
        Text::new(
            format!("{:.2}", run.median_ms),
            (SegmentValue::CenterOf(i as u32), run.median_ms + 0.03 * top),
            (FONT, 15)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Bottom)),
        )
    }))?;
    Ok(())
}

type PlotResult = Result<(), Box<dyn std::error::Error>>;
