//! The window's contents: a side panel (scenes, solver settings, live
//! figures, a residual-slide plot) and the view, which turns egui input
//! into [`Testbed`] calls and paints [`Testbed::view_ops`] with egui's
//! painter. [`ui`] needs no window, so tests run it on a bare
//! [`egui::Context`].

use crate::draw::PaintOp;
use crate::testbed::{Testbed, JOINT_SCENES, SCENE_LIST};
use egui::{Align2, Color32, Event, FontId, Key, PointerButton, Pos2, Sense, Shape, Stroke};
use tumble::{Coloring, PositionCorrection, Sweep};
use tumble_scenes::SceneName;

/// Width of the side panel, points.
pub const PANEL_WIDTH: f32 = 330.0;

/// Paints screen-space ops with egui's painter: the window's back end.
/// Everything goes into one triangle mesh, in the ops' order: one draw
/// call and no per-shape tessellation, so the 100-row pyramid's 5000 boxes
/// cost about what one shape does to hand to the renderer (egui's shapes,
/// one per op, drew it at about 5 frames per second on a software
/// renderer). Edges are not anti-aliased.
pub fn paint(painter: &egui::Painter, ops: &[PaintOp]) {
    let mut mesh = egui::Mesh::default();
    let mut texts = Vec::new();
    for op in ops {
        match op {
            PaintOp::Text {
                pos,
                anchor,
                text,
                size,
                color,
            } => texts.push((*pos, *anchor, text, *size, *color)),
            PaintOp::Fill { points, color } => fill_convex(&mut mesh, points, *color),
            PaintOp::Stroke {
                points,
                closed,
                width,
                color,
            } => {
                for w in points.windows(2) {
                    stroke_segment(&mut mesh, w[0], w[1], *width, *color);
                }
                if *closed && points.len() > 2 {
                    stroke_segment(&mut mesh, points[points.len() - 1], points[0], *width, *color);
                }
            }
            PaintOp::Dot {
                center,
                radius,
                color,
            } => {
                const SIDES: usize = 12;
                let ring: Vec<Pos2> = (0..SIDES)
                    .map(|k| {
                        let a = std::f32::consts::TAU * k as f32 / SIDES as f32;
                        *center + *radius * egui::vec2(a.cos(), a.sin())
                    })
                    .collect();
                fill_convex(&mut mesh, &ring, *color);
            }
        }
    }
    painter.add(Shape::mesh(mesh));
    // Text over everything else, in egui's fonts.
    for (pos, anchor, text, size, color) in texts {
        painter.text(pos, anchor, text, FontId::proportional(size), color);
    }
}

/// Appends a convex polygon to `mesh` as a triangle fan.
fn fill_convex(mesh: &mut egui::Mesh, points: &[Pos2], color: Color32) {
    if points.len() < 3 {
        return;
    }
    let base = mesh.vertices.len() as u32;
    for &p in points {
        mesh.colored_vertex(p, color);
    }
    for k in 1..points.len() as u32 - 1 {
        mesh.add_triangle(base, base + k, base + k + 1);
    }
}

/// Appends the segment from `a` to `b`, `width` pixels wide, as a quad.
fn stroke_segment(mesh: &mut egui::Mesh, a: Pos2, b: Pos2, width: f32, color: Color32) {
    let d = b - a;
    let length = d.length();
    if length <= 0.0 {
        return;
    }
    let n = egui::vec2(-d.y, d.x) * (0.5 * width / length);
    // Half a width past each end, so the corners of an outline meet.
    let t = d * (0.5 * width / length);
    let quad = [a - t + n, b + t + n, b + t - n, a - t - n];
    let base = mesh.vertices.len() as u32;
    for p in quad {
        mesh.colored_vertex(p, color);
    }
    mesh.add_triangle(base, base + 1, base + 2);
    mesh.add_triangle(base, base + 2, base + 3);
}

/// Sets egui's dark look with the view's background color.
pub fn setup_style(ctx: &egui::Context) {
    ctx.set_visuals(egui::Visuals::dark());
}

/// The whole window: side panel on the left, the view in the rest.
pub fn ui(ui: &mut egui::Ui, tb: &mut Testbed) {
    handle_keys(ui, tb);
    egui::Panel::left("tumble-side-panel")
        .resizable(false)
        .exact_size(PANEL_WIDTH)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| side_panel(ui, tb));
        });
    egui::CentralPanel::default()
        .frame(egui::Frame::NONE)
        .show(ui, |ui| view(ui, tb));
}

/// Takes the testbed's keys out of the input before any widget sees them
/// (so SPACE does not also press a focused button, nor the arrows move a
/// focused slider) and applies them. Toggles ignore key repeat; the
/// arrows and O repeat while held.
fn handle_keys(ui: &mut egui::Ui, tb: &mut Testbed) {
    const KEYS: [Key; 12] = [
        Key::H,
        Key::S,
        Key::ArrowUp,
        Key::ArrowDown,
        Key::W,
        Key::D,
        Key::Space,
        Key::O,
        Key::P,
        Key::T,
        Key::C,
        Key::R,
    ];
    let mut pressed = Vec::new();
    // A game scene's character takes the arrows and space, held.
    let game_keys = tb.scene.game.as_ref().is_some_and(|g| g.takes_keys());
    const GAME_KEYS: [Key; 4] = [Key::ArrowLeft, Key::ArrowRight, Key::ArrowUp, Key::Space];
    if game_keys {
        tb.input = ui.input(|i| tumble_scenes::input::Input {
            left: i.key_down(Key::ArrowLeft),
            right: i.key_down(Key::ArrowRight),
            jump: i.key_down(Key::ArrowUp) || i.key_down(Key::Space),
        });
    }
    ui.input_mut(|i| {
        i.events.retain(|e| match e {
            Event::Key { key, .. } if game_keys && GAME_KEYS.contains(key) => false,
            Event::Key {
                key,
                pressed: down,
                repeat,
                modifiers,
                ..
            } if KEYS.contains(key) && !modifiers.ctrl && !modifiers.alt && !modifiers.command => {
                let repeats = matches!(key, Key::ArrowUp | Key::ArrowDown | Key::O);
                if *down && (!*repeat || repeats) {
                    pressed.push(*key);
                }
                false
            }
            _ => true,
        })
    });
    for key in pressed {
        tb.key(key);
    }
}

/// A scene's short name for the list, and what it holds (on hover).
fn scene_label(name: SceneName) -> (String, String) {
    let short = match name {
        SceneName::PyramidLarge(_) => "pyramid-large".to_string(),
        SceneName::Stack(n) => format!("stack {n}"),
        _ => name.name().to_string(),
    };
    let long = match name {
        SceneName::Pyramid => "21 boxes in 6 rows".to_string(),
        SceneName::Tower => "7 boxes stacked".to_string(),
        SceneName::PyramidLarge(n) => format!("{n} rows, {} boxes", n * (n + 1) / 2),
        SceneName::Stack(n) => format!("a vertical stack of {n} boxes"),
        SceneName::CardHouse => "planks leaning in pairs, 3 storeys".to_string(),
        SceneName::MassRatio(r) => format!("a box of density {r} between two of density 1"),
        SceneName::Ramp => "friction 0.2, 0.4 slide; 0.6, 0.8 stay (30 degrees)".to_string(),
        SceneName::Bounce => "restitution 0 to 1, dropped from 5 m".to_string(),
        SceneName::Pile => "200 mixed shapes in a container".to_string(),
        SceneName::Sleepers => {
            "five pyramids that fall asleep apart: throw a shape to wake one (sleeping shown grey)"
                .to_string()
        }
        SceneName::Platformer => {
            "arrows walk and jump: chain hills, one-way platforms, coins (sensors), a lift".to_string()
        }
        SceneName::Sensors => "balls through a funnel and three sensor zones that count them".to_string(),
        SceneName::Filtering => "three groups that pass through each other".to_string(),
        SceneName::Pendulum => "two pendulums on hinges and a mass on a spring".to_string(),
        SceneName::Chain => "20 hinged links hanging at rest".to_string(),
        SceneName::BallAndChain => "a ball 170 times a link's mass on 30 hinged links".to_string(),
        SceneName::Bridge => "160 hinged planks with joint friction".to_string(),
        SceneName::Door => "a door on a limited, sprung hinge; balls rolled at it".to_string(),
        SceneName::ScissorLift => "crossed links worked by a slider's motor".to_string(),
        SceneName::SoftBodies => "rings of capsules on soft welds".to_string(),
        SceneName::Car => "arrows drive a car on wheel joints over hills".to_string(),
        SceneName::Breakable => "a welded wall whose joints break under a ball".to_string(),
        SceneName::Ragdolls => "40 ragdolls of 11 bones on limited, sprung hinges, piled".to_string(),
        SceneName::TileFloor => {
            "a box slid without friction over 40 tiles of one body: smooth seams keep it flat".to_string()
        }
        SceneName::TileBodies => "the tile floor with each tile a static body of its own".to_string(),
        SceneName::Impact => {
            "two boxes meet off center in zero gravity, keeping their angular momentum".to_string()
        }
        SceneName::WeldedBeam => "ten boxes welded rigidly into a cantilever that holds straight".to_string(),
        SceneName::MotorArm => "a hinge motor turns a point-like bob at its speed under gravity".to_string(),
        SceneName::RopeBridge => "a 250 kg crate dropped on a taut bridge of 20 hinged planks".to_string(),
        SceneName::RagdollBox => {
            "20 ragdolls dropped into a box, their hinges held within their limits".to_string()
        }
        SceneName::RagdollStairs => {
            "a ragdoll with light feet tumbles down stairs, its ankles held within their limits".to_string()
        }
    };
    (short, long)
}

/// A grid of scene buttons, three to a row.
fn scene_grid(ui: &mut egui::Ui, tb: &mut Testbed, id: &str, scenes: &[SceneName]) {
    egui::Grid::new(id).num_columns(3).show(ui, |ui| {
        for (i, &name) in scenes.iter().enumerate() {
            let (short, long) = scene_label(name);
            if ui
                .selectable_label(tb.scene_name() == name, short)
                .on_hover_text(long)
                .clicked()
            {
                tb.load(name);
            }
            if i % 3 == 2 {
                ui.end_row();
            }
        }
    });
}

fn side_panel(ui: &mut egui::Ui, tb: &mut Testbed) {
    ui.spacing_mut().item_spacing.y = 3.0;
    ui.add_space(6.0);
    ui.heading("Tumble testbed");
    ui.label(
        egui::RichText::new("SAT, clipping, warm-started impulses")
            .small()
            .weak(),
    );
    ui.separator();

    ui.strong("Scenes");
    let (core, joints) = SCENE_LIST.split_at(SCENE_LIST.len() - JOINT_SCENES);
    scene_grid(ui, tb, "scene-list", core);
    // The joint scenes fold away (folded at first), so the panel fits an
    // 800-high window.
    egui::CollapsingHeader::new("joint scenes")
        .default_open(false)
        .show(ui, |ui| scene_grid(ui, tb, "joint-scene-list", joints));
    ui.separator();

    ui.strong("Solver");
    let before = (tb.solver, tb.gravity);
    ui.add(egui::Slider::new(&mut tb.solver.iterations, 1..=16).text("iterations"));
    ui.horizontal(|ui| {
        ui.checkbox(&mut tb.solver.warm_starting, "warm starting (W)");
        ui.checkbox(&mut tb.solver.contact_recycling, "contact recycling")
            .on_hover_text("keep a resting pair's manifold instead of colliding it again");
    });
    let workers = tb.workers;
    ui.horizontal(|ui| {
        ui.label("substeps");
        ui.add(egui::Slider::new(&mut tb.solver.substeps, 1..=8));
        ui.label("threads");
        ui.add(egui::DragValue::new(&mut tb.workers).range(1..=8))
            .on_hover_text("worker threads the step runs on: the same results on any count");
    });
    ui.horizontal(|ui| {
        ui.label("colors");
        let coloring = &mut tb.solver.coloring;
        ui.radio_value(coloring, Coloring::Bounded, "bounded");
        ui.radio_value(coloring, Coloring::Ordered, "ordered");
        ui.radio_value(coloring, Coloring::Off, "off");
    });
    ui.horizontal(|ui| {
        ui.label("position");
        let mode = &mut tb.solver.position_correction;
        ui.radio_value(mode, PositionCorrection::SoftStep, "soft");
        ui.radio_value(mode, PositionCorrection::SplitImpulse, "split");
        ui.radio_value(mode, PositionCorrection::Baumgarte, "Baumgarte");
        ui.radio_value(mode, PositionCorrection::None, "none");
    });
    ui.horizontal(|ui| {
        ui.label("sweep");
        ui.radio_value(&mut tb.solver.sweep, Sweep::Alternating, "alternating");
        ui.radio_value(&mut tb.solver.sweep, Sweep::Forward, "forward");
    });
    ui.horizontal(|ui| {
        ui.label("gravity x");
        ui.add(
            egui::DragValue::new(&mut tb.gravity.x)
                .speed(0.1)
                .range(-30.0..=30.0),
        );
        ui.label("y");
        ui.add(
            egui::DragValue::new(&mut tb.gravity.y)
                .speed(0.1)
                .range(-30.0..=30.0),
        );
        ui.label("m/s²");
    });
    if (tb.solver, tb.gravity) != before || tb.workers != workers {
        tb.apply_settings();
    }
    ui.horizontal(|ui| {
        ui.checkbox(&mut tb.draw_contacts, "contacts (D)");
        let sleeping = ui
            .checkbox(&mut tb.sleeping, "sleeping (S)")
            .on_hover_text("resting islands fall asleep (drawn grey) and cost nothing");
        if sleeping.changed() {
            tb.apply_settings();
        }
    });
    ui.horizontal(|ui| {
        ui.checkbox(&mut tb.paused, "paused").on_hover_text("SPACE");
        if ui.button("step (O)").clicked() {
            tb.key(Key::O);
        }
        if ui.button("reset (R)").clicked() {
            tb.reset();
        }
        if ui.button("clear (C)").clicked() {
            tb.clear();
        }
    });
    ui.separator();

    ui.strong("Live");
    let world = &tb.scene.world;
    let (manifolds, points) = world
        .contacts()
        .fold((0, 0), |(m, p), c| (m + 1, p + c.manifold.points().len()));
    egui::Grid::new("live-figures")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            row(
                ui,
                "bodies / awake",
                format!("{} / {}", world.body_count(), world.awake_body_count()),
            )
            .on_hover_text(format!(
                "{} dynamic; {} of {} that can move are awake",
                tb.dynamic_count(),
                world.awake_body_count(),
                tb.moving_count()
            ));
            row(
                ui,
                "touching / kept",
                format!("{manifolds} / {}", world.recycled_contact_count()),
            )
            .on_hover_text(format!(
                "{manifolds} touching of {} contacts ({points} points); {} kept their manifold",
                world.contact_count(),
                world.recycled_contact_count()
            ));
            let st = &tb.stages;
            let rest = (st.total - st.broadphase() - st.narrowphase() - st.solver()).max(0.0);
            row(
                ui,
                "bp/np/solve/rest",
                format!(
                    "{:.2}/{:.2}/{:.2}/{:.2}",
                    st.broadphase(),
                    st.narrowphase(),
                    st.solver(),
                    rest
                ),
            );
            let fps = if tb.frame_ms > 0.0 {
                1000.0 / tb.frame_ms
            } else {
                0.0
            };
            row(
                ui,
                "step / frame",
                format!("{:.2} / {:.0} ms, {fps:.0} fps", tb.step_ms, tb.frame_ms),
            )
            .on_hover_text(format!(
                "step #{}; {} shapes thrown, {} bodies recycled",
                tb.steps, tb.thrown, tb.recycled
            ));
        });
    ui.add_space(4.0);
    // A scene that has figures of its own shows them instead of the
    // stacking metrics, which mean nothing for it.
    let own = match &tb.scene.game {
        Some(game) => game.status(),
        None => tb.figures.rows(&tb.scene, tb.steps),
    };
    if !own.is_empty() {
        ui.strong(tb.scene_name().name());
        egui::Grid::new("scene-figures")
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                for (name, value) in own {
                    row(ui, &name, value);
                }
            });
        tb.panel_content = ui.min_rect();
        return;
    }
    ui.strong(format!("Metrics of {} (SCENES.md)", tb.scene_name().name()));
    let m = tb.metrics;
    let standing = if tb.scene.tracked.is_empty() {
        "—".to_string()
    } else {
        m.standing.to_string()
    };
    let mut figures = vec![
        (
            "slide",
            format!("{:.1e}", m.residual_slide),
            "residual slide, m/s",
        ),
        ("overlap", format!("{:.4}", m.mean_overlap), "mean overlap, m"),
        ("moved", format!("{:.3}", m.worst_moved), "worst moved, m"),
        ("spread", format!("{:.3}", m.spread), "spread, m"),
        ("sink", format!("{:.4}", m.sink), "sink, m"),
        ("standing", standing, "standing (SCENES.md)"),
    ];
    if tb.scene.top.is_some() {
        figures.push(("creep", format!("{:.4}", m.creep.unwrap_or(0.0)), "creep, m"));
    }
    // Two figures a row, to fit the panel in an 800-point window.
    egui::Grid::new("scene-metrics")
        .num_columns(4)
        .striped(true)
        .show(ui, |ui| {
            for pair in figures.chunks(2) {
                for (name, value, hover) in pair {
                    ui.label(*name).on_hover_text(*hover);
                    ui.monospace(value).on_hover_text(*hover);
                }
                ui.end_row();
            }
        });
    ui.add_space(4.0);
    ui.strong("Residual slide, last 10 s (m/s, log)");
    slide_plot(ui, tb);
    tb.panel_content = ui.min_rect();
}

fn row(ui: &mut egui::Ui, name: &str, value: String) -> egui::Response {
    ui.label(name);
    let response = ui.monospace(value);
    ui.end_row();
    response
}

/// Residual slide over time on a log scale, 1e-8 to 10 m/s, painted with
/// egui's painter.
fn slide_plot(ui: &mut egui::Ui, tb: &Testbed) {
    let width = (ui.available_width() - 8.0).max(120.0);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, 64.0), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 3.0, tb.style.background);
    let (lo, hi) = (-8.0f32, 1.0f32);
    let y_of = |v: f32| {
        let l = v.max(1e-9).log10().clamp(lo, hi);
        rect.bottom() - (l - lo) / (hi - lo) * rect.height()
    };
    for decade in [-8, -6, -4, -2, 0] {
        let y = y_of(10f32.powi(decade));
        painter.line_segment(
            [Pos2::new(rect.left(), y), Pos2::new(rect.right(), y)],
            Stroke::new(1.0, tb.style.grid_major),
        );
        painter.text(
            Pos2::new(rect.left() + 3.0, y - 1.0),
            Align2::LEFT_BOTTOM,
            format!("1e{decade}"),
            FontId::monospace(9.0),
            Color32::from_gray(110),
        );
    }
    let n = crate::testbed::SLIDE_HISTORY as f32;
    let points: Vec<Pos2> = tb
        .slide_history
        .iter()
        .enumerate()
        .map(|(i, &v)| Pos2::new(rect.left() + rect.width() * i as f32 / (n - 1.0), y_of(v)))
        .collect();
    if points.len() >= 2 {
        painter.add(Shape::line(points, Stroke::new(1.5, tb.style.amber)));
    }
}

/// The view: input on the canvas, stepping, painting, overlay text.
fn view(ui: &mut egui::Ui, tb: &mut Testbed) {
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    tb.fit_camera_if_pending(rect);
    let to_world = |tb: &Testbed, s: Pos2| tb.camera.to_world(s, rect);
    let (origin, pointer) = ui.input(|i| (i.pointer.press_origin(), i.pointer.latest_pos()));

    // Primary button: sling or grab, from where the button went down.
    if response.drag_started_by(PointerButton::Primary) {
        if let Some(o) = origin {
            tb.press(to_world(tb, o));
        }
    }
    if response.dragged_by(PointerButton::Primary) {
        if let Some(p) = pointer {
            tb.drag_to(to_world(tb, p));
        }
    }
    if response.drag_stopped_by(PointerButton::Primary) {
        tb.release();
    }
    // A click without a drag on empty space drops a shape there.
    if response.clicked_by(PointerButton::Primary) {
        if let Some(o) = origin.or(pointer) {
            let w = to_world(tb, o);
            if tb.body_at(w).is_none() {
                tb.press(w);
                tb.release();
            }
        }
    }
    // Right (or middle) button: pan.
    for button in [PointerButton::Secondary, PointerButton::Middle] {
        if response.drag_started_by(button) {
            tb.pan_start(origin.or(pointer).unwrap_or(rect.center()));
        }
        if response.dragged_by(button) {
            if let Some(p) = pointer {
                tb.pan_to(p);
            }
        }
        if response.drag_stopped_by(button) {
            tb.pan_end();
        }
    }
    // Scroll (and pinch) zooms about the pointer.
    if response.hovered() {
        let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = zoom * (scroll / 300.0).exp();
        if (factor - 1.0).abs() > 1e-4 {
            tb.camera.zoom_at(factor, pointer.unwrap_or(rect.center()), rect);
        }
    }

    // Physics at a fixed 60 Hz whatever the display's rate.
    let frame_time = ui.input(|i| i.unstable_dt).min(0.25);
    tb.advance(frame_time);
    ui.ctx().request_repaint();

    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, tb.style.background);
    paint(&painter, &tb.view_ops(rect));
}

/// The eframe application: a [`Testbed`] shown by [`ui`].
pub struct TestbedApp {
    /// The testbed's state.
    pub testbed: Testbed,
}

impl TestbedApp {
    /// The application with `scene` loaded.
    pub fn new(cc: &eframe::CreationContext<'_>, scene: SceneName) -> TestbedApp {
        setup_style(&cc.egui_ctx);
        TestbedApp {
            testbed: Testbed::new(scene),
        }
    }
}

impl eframe::App for TestbedApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self::ui(ui, &mut self.testbed);
    }
}

/// Why the window could not be shown.
#[derive(Debug)]
pub enum WindowError {
    /// Neither `DISPLAY` nor `WAYLAND_DISPLAY` is set.
    NoDisplay,
    /// eframe failed to open the window or its graphics context.
    Eframe(String),
}

impl std::fmt::Display for WindowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WindowError::NoDisplay => write!(f, "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)"),
            WindowError::Eframe(e) => write!(f, "could not open the window: {e}"),
        }
    }
}

impl std::error::Error for WindowError {}

/// True when an X11 or Wayland display is named in the environment.
pub fn display_available() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

/// Opens the testbed window and runs it until it is closed.
pub fn run_window(scene: SceneName) -> Result<(), WindowError> {
    if !display_available() {
        return Err(WindowError::NoDisplay);
    }
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Tumble testbed")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 400.0]),
        ..Default::default()
    };
    eframe::run_native(
        "tumble-testbed",
        options,
        Box::new(move |cc| Ok(Box::new(TestbedApp::new(cc, scene)))),
    )
    .map_err(|e| WindowError::Eframe(e.to_string()))
}

#[cfg(test)]
mod tests;
