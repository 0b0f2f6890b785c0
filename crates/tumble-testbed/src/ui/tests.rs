//! The window's code run on a bare egui context: no window, real input
//! events.

use super::*;
use crate::testbed::Drag;
use egui::{Modifiers, RawInput, Rect};
use tumble::{BodyType, Vec2};

/// A headless egui context and a clock, feeding one frame at a time.
struct Harness {
    ctx: egui::Context,
    time: f64,
    testbed: Testbed,
}

impl Harness {
    fn new(scene: SceneName) -> Harness {
        let ctx = egui::Context::default();
        setup_style(&ctx);
        let mut h = Harness {
            ctx,
            time: 0.0,
            testbed: Testbed::new(scene),
        };
        h.frame(vec![]);
        h
    }

    /// One 60 Hz frame with these input events.
    fn frame(&mut self, events: Vec<Event>) -> egui::FullOutput {
        self.time += 1.0 / 60.0;
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, egui::vec2(1280.0, 800.0))),
            time: Some(self.time),
            events,
            ..RawInput::default()
        };
        let tb = &mut self.testbed;
        let mut out = self.ctx.run_ui(input, |ui| self::ui(ui, tb));
        // No renderer takes the font atlas here.
        out.textures_delta.clear();
        out
    }

    fn press_key(&mut self, key: Key) {
        self.frame(vec![Event::Key {
            key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: Modifiers::NONE,
        }]);
    }

    /// A primary click at `pos`: press in one frame, release in the next.
    fn click(&mut self, pos: Pos2) {
        let button = |pressed| Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        };
        self.frame(vec![Event::PointerMoved(pos), button(true)]);
        self.frame(vec![button(false)]);
    }

    fn screen(&self, p: Vec2) -> Pos2 {
        self.testbed.camera.to_screen(p, self.testbed.viewport)
    }

    /// Presses the primary button at `from`, moves to `to` over a few
    /// frames, holds for `hold` frames, releases.
    fn drag(&mut self, from: Pos2, to: Pos2, hold: usize) {
        let button = |pos, pressed| Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        };
        self.frame(vec![Event::PointerMoved(from)]);
        self.frame(vec![button(from, true)]);
        for k in 1..=8 {
            let p = from + (to - from) * (k as f32 / 8.0);
            self.frame(vec![Event::PointerMoved(p)]);
        }
        for _ in 0..hold {
            self.frame(vec![]);
        }
        self.frame(vec![button(to, false)]);
    }
}

#[test]
fn the_window_lays_out_a_side_panel_and_the_view() {
    let h = Harness::new(SceneName::Pyramid);
    let vp = h.testbed.viewport;
    assert!(
        vp.left() >= PANEL_WIDTH,
        "the view starts right of the panel: {vp:?}"
    );
    assert!(vp.width() > 800.0 && vp.height() > 700.0, "{vp:?}");
    assert!(!h.testbed.fit_pending, "the camera framed the scene");
    // The whole pyramid is in view.
    let seen = h.testbed.camera.visible_world(vp);
    assert!(seen.contains(tumble::Aabb::new(Vec2::new(-3.2, 0.0), Vec2::new(3.2, 6.0))));
}

/// At 1280 x 800, every scene's side panel fits: nothing below the window's
/// bottom, nothing past the panel's right edge.
#[test]
fn the_side_panel_fits_a_1280_by_800_window_in_every_scene() {
    for scene in crate::testbed::SCENE_LIST {
        let mut h = Harness::new(scene);
        for _ in 0..3 {
            h.frame(vec![]);
        }
        let content = h.testbed.panel_content;
        assert!(
            content.height() > 400.0,
            "{scene:?}: the panel was measured: {content:?}"
        );
        assert!(
            content.bottom() <= 800.0,
            "{scene:?}: the panel runs off the bottom: {content:?}"
        );
        assert!(
            content.right() <= PANEL_WIDTH,
            "{scene:?}: the panel runs past its edge: {content:?}"
        );
    }
}

#[test]
fn keys_pressed_in_the_window_reach_the_testbed() {
    let mut h = Harness::new(SceneName::Pyramid);
    h.press_key(Key::W);
    assert!(!h.testbed.scene.world.solver_settings().warm_starting);
    h.press_key(Key::ArrowUp);
    h.press_key(Key::ArrowUp);
    assert_eq!(h.testbed.scene.world.solver_settings().iterations, 10);
    h.press_key(Key::ArrowDown);
    assert_eq!(h.testbed.solver.iterations, 9);
    h.press_key(Key::D);
    assert!(h.testbed.draw_contacts);
    h.press_key(Key::S);
    assert!(!h.testbed.sleeping && !h.testbed.scene.world.settings().sleeping);
    assert!(h.testbed.show_legend);
    h.press_key(Key::H);
    assert!(!h.testbed.show_legend, "H hides the legend");
    h.press_key(Key::Space);
    assert!(h.testbed.paused);
    let steps = h.testbed.scene.world.step_count();
    h.frame(vec![]);
    assert_eq!(h.testbed.scene.world.step_count(), steps);
    h.press_key(Key::O);
    assert_eq!(h.testbed.scene.world.step_count(), steps + 1);
    h.press_key(Key::T);
    assert_eq!(h.testbed.scene_name(), SceneName::Tower);
    h.press_key(Key::C);
    assert_eq!(h.testbed.dynamic_count(), 0);
    h.press_key(Key::R);
    assert_eq!(h.testbed.dynamic_count(), 7);
    h.press_key(Key::P);
    assert_eq!(h.testbed.scene_name(), SceneName::Pyramid);
    // A held toggle key does not flicker: repeats are ignored.
    h.frame(vec![Event::Key {
        key: Key::W,
        physical_key: None,
        pressed: true,
        repeat: true,
        modifiers: Modifiers::NONE,
    }]);
    assert!(!h.testbed.solver.warm_starting);
}

#[test]
fn a_mouse_drag_on_empty_space_throws_and_on_a_box_grabs() {
    let mut h = Harness::new(SceneName::Pyramid);
    let before = h.testbed.dynamic_count();
    let from = h.screen(Vec2::new(-4.5, 5.0));
    assert!(h.testbed.viewport.contains(from));
    let to = from + egui::vec2(150.0, -60.0);
    h.drag(from, to, 0);
    assert_eq!(h.testbed.dynamic_count(), before + 1, "one shape thrown");
    assert_eq!(h.testbed.thrown, 1);
    let world = &h.testbed.scene.world;
    let newest = world
        .bodies()
        .filter(|&b| world.body_type(b) == Ok(BodyType::Dynamic))
        .max_by_key(|b| world.bodies().position(|x| x == *b))
        .unwrap();
    let v = world.linear_velocity(newest).unwrap();
    // Screen right and up is world right and up.
    assert!(v.x > 1.0 && v.y > -5.0, "thrown right and up: {v:?}");

    // Now grab the pyramid's apex box by a corner and pull it aside.
    let mut h = Harness::new(SceneName::Pyramid);
    let apex = *h.testbed.scene.tracked.last().unwrap();
    let corner = h.screen(Vec2::new(0.45, 5.95));
    let target = h.screen(Vec2::new(3.0, 9.0));
    h.frame(vec![Event::PointerMoved(corner)]);
    h.frame(vec![Event::PointerButton {
        pos: corner,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    }]);
    for k in 1..=8 {
        h.frame(vec![Event::PointerMoved(
            corner + (target - corner) * (k as f32 / 8.0),
        )]);
    }
    assert!(matches!(h.testbed.drag, Drag::Grab { body, .. } if body == apex));
    for _ in 0..60 {
        h.frame(vec![]);
    }
    let angle = h.testbed.scene.world.angle(apex).unwrap();
    assert!(angle.abs() > 0.3, "the apex box turns on its corner: {angle}");
    h.frame(vec![Event::PointerButton {
        pos: target,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    }]);
    assert_eq!(h.testbed.drag, Drag::None, "released on mouse-up");
    assert_eq!(h.testbed.thrown, 0, "grabbing throws nothing");
}

#[test]
fn scrolling_over_the_view_zooms() {
    let mut h = Harness::new(SceneName::Pyramid);
    let zoom = h.testbed.camera.zoom;
    let p = h.testbed.viewport.center();
    h.frame(vec![Event::PointerMoved(p)]);
    for _ in 0..20 {
        h.frame(vec![Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, 40.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: Modifiers::NONE,
        }]);
    }
    assert!(
        h.testbed.camera.zoom > zoom * 1.2,
        "{} -> {}",
        zoom,
        h.testbed.camera.zoom
    );
}

#[test]
fn the_joint_scenes_unfold_from_the_side_panel() {
    let mut h = Harness::new(SceneName::Pyramid);
    // Click down the panel's left edge (loading the scenes on the way)
    // until the fold opens: the panel grows by its rows...
    let mut opened = None;
    for y in (60..500).step_by(6) {
        h.frame(vec![]);
        let (before, scene) = (h.testbed.panel_content.height(), h.testbed.scene_name());
        h.click(Pos2::new(40.0, y as f32));
        for _ in 0..10 {
            h.frame(vec![]);
        }
        // (A click that loaded a scene changes the panel by that scene's
        // rows: only a growth with the scene unchanged is the fold.)
        if h.testbed.scene_name() == scene && h.testbed.panel_content.height() > before + 30.0 {
            opened = Some(y);
            break;
        }
    }
    let header = opened.expect("the joint scenes unfold");
    // ...and its first scene, the pendulum, is just below its header.
    let found = (header + 8..header + 60).step_by(4).any(|y| {
        h.click(Pos2::new(40.0, y as f32));
        h.testbed.scene_name() == SceneName::Pendulum
    });
    assert!(found, "the pendulum is first in the joint scenes' fold");
}

#[test]
fn clicking_a_scene_in_the_side_panel_loads_it() {
    let mut h = Harness::new(SceneName::Pyramid);
    // Click down the three columns of the scene list until bounce loads.
    let mut found = false;
    let spots = (60..300)
        .step_by(6)
        .flat_map(|y| [40.0, 140.0, 240.0].map(|x| Pos2::new(x, y as f32)));
    for pos in spots {
        h.click(pos);
        if h.testbed.scene_name() == SceneName::Bounce {
            found = true;
            break;
        }
    }
    assert!(found, "the side panel lists bounce and clicking it loads it");
}

#[test]
fn the_contact_recycling_box_switches_recycling_in_the_world() {
    let mut h = Harness::new(SceneName::Pyramid);
    assert!(h.testbed.scene.world.solver_settings().contact_recycling);
    // The box sits right of "warm starting" in the solver section: click
    // along the rows there until recycling turns off.
    let spots = (150..520)
        .step_by(4)
        .flat_map(|y| (130..300).step_by(12).map(move |x| Pos2::new(x as f32, y as f32)));
    let mut found = false;
    for pos in spots {
        h.click(pos);
        if !h.testbed.solver.contact_recycling {
            found = true;
            break;
        }
    }
    assert!(found, "the solver section has a contact recycling box");
    assert!(!h.testbed.scene.world.solver_settings().contact_recycling);
    h.testbed.scene.world.step(1.0 / 60.0);
    assert_eq!(h.testbed.scene.world.recycled_contact_count(), 0);
}

#[test]
fn the_sleeping_box_switches_sleeping_in_the_world() {
    let mut h = Harness::new(SceneName::Pyramid);
    assert!(h.testbed.scene.world.settings().sleeping);
    // The box shares a row with "contacts" in the solver section: click
    // along the rows there until sleeping turns off.
    let spots = (300..560)
        .step_by(4)
        .flat_map(|y| (12..240).step_by(12).map(move |x| Pos2::new(x as f32, y as f32)));
    let mut found = false;
    for pos in spots {
        h.click(pos);
        if !h.testbed.sleeping {
            found = true;
            break;
        }
    }
    assert!(found, "the panel has a sleeping box");
    assert!(!h.testbed.scene.world.settings().sleeping);
}
