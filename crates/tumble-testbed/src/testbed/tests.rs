//! The testbed driven the way a user drives it: keys, drags, time.

use super::*;
use std::f32::consts::FRAC_PI_4;

fn dynamic_bodies(tb: &Testbed) -> Vec<BodyId> {
    let world = &tb.scene.world;
    world
        .bodies()
        .filter(|&b| world.body_type(b) == Ok(BodyType::Dynamic))
        .collect()
}

#[test]
fn keys_change_the_solver_settings_and_the_world_follows() {
    let mut tb = Testbed::new(SceneName::Pyramid);
    assert_eq!(tb.solver.iterations, 8);
    assert!(tb.solver.warm_starting);

    assert!(tb.key(Key::W));
    assert!(!tb.solver.warm_starting);
    assert!(!tb.scene.world.solver_settings().warm_starting);
    tb.key(Key::W);
    assert!(tb.scene.world.solver_settings().warm_starting);

    tb.key(Key::ArrowUp);
    assert_eq!(tb.scene.world.solver_settings().iterations, 9);
    for _ in 0..20 {
        tb.key(Key::ArrowUp);
    }
    assert_eq!(tb.solver.iterations, 16, "iterations stop at 16");
    for _ in 0..20 {
        tb.key(Key::ArrowDown);
    }
    assert_eq!(tb.solver.iterations, 1, "iterations stop at 1");
    assert_eq!(tb.scene.world.solver_settings().iterations, 1);

    assert!(!tb.draw_contacts);
    tb.key(Key::D);
    assert!(tb.draw_contacts);

    tb.set_position_correction(PositionCorrection::Baumgarte);
    tb.set_sweep(Sweep::Forward);
    let s = tb.scene.world.solver_settings();
    assert_eq!(
        (s.position_correction, s.sweep),
        (PositionCorrection::Baumgarte, Sweep::Forward)
    );

    assert!(!tb.key(Key::Z), "unbound keys do nothing");
}

#[test]
fn settings_survive_a_scene_change() {
    let mut tb = Testbed::new(SceneName::Pyramid);
    tb.key(Key::W);
    tb.key(Key::ArrowDown);
    tb.gravity = Vec2::new(0.0, -5.0);
    tb.apply_settings();
    tb.key(Key::T);
    let s = tb.scene.world.solver_settings();
    assert!(!s.warm_starting);
    assert_eq!(s.iterations, 7);
    assert_eq!(tb.scene.world.gravity(), Vec2::new(0.0, -5.0));
}

#[test]
fn space_pauses_and_o_steps_once() {
    let mut tb = Testbed::new(SceneName::Tower);
    let steps: u32 = (0..6).map(|_| tb.advance(1.0 / 60.0)).sum();
    assert_eq!(steps, 6, "running: six frames of 1/60 s are six steps");
    tb.key(Key::Space);
    assert!(tb.paused);
    let steps = tb.scene.world.step_count();
    assert_eq!(tb.advance(0.5), 0);
    assert_eq!(
        tb.scene.world.step_count(),
        steps,
        "paused: time passes, physics does not"
    );
    tb.key(Key::O);
    assert_eq!(tb.scene.world.step_count(), steps + 1, "O takes exactly one step");
    assert!(tb.paused, "and stays paused");
    tb.key(Key::Space);
    assert!(!tb.paused);
    assert!(tb.advance(1.0 / 30.0) >= 1);
}

#[test]
fn p_t_c_and_r_change_the_scene() {
    let mut tb = Testbed::new(SceneName::Bounce);
    tb.key(Key::P);
    assert_eq!(tb.scene_name(), SceneName::Pyramid);
    assert_eq!(dynamic_bodies(&tb).len(), 21);
    tb.key(Key::T);
    assert_eq!(tb.scene_name(), SceneName::Tower);
    assert_eq!(dynamic_bodies(&tb).len(), 7);

    // Disturb the tower: knock its top box away, throw a shape in.
    let top = tb.scene.top.expect("the tower has a top box");
    tb.scene
        .world
        .set_transform(top, Vec2::new(5.0, 0.5), 0.0)
        .unwrap();
    tb.press(Vec2::new(-5.0, 3.0));
    tb.drag_to(Vec2::new(-4.0, 3.0));
    tb.release();
    tb.advance(0.5);
    assert_eq!(dynamic_bodies(&tb).len(), 8);

    tb.key(Key::R);
    assert_eq!(tb.scene_name(), SceneName::Tower);
    assert_eq!(dynamic_bodies(&tb).len(), 7, "reset drops the thrown shape");
    let top = tb.scene.top.unwrap();
    let p = tb.scene.world.position(top).unwrap();
    assert!(
        (p - Vec2::new(0.0, 6.5)).length() < 1e-6,
        "reset puts the top box back: {p:?}"
    );
    assert_eq!(tb.steps, 0);

    let statics = tb.scene.world.body_count() - 7;
    tb.key(Key::C);
    assert_eq!(dynamic_bodies(&tb).len(), 0, "C clears every dynamic body");
    assert_eq!(tb.scene.world.body_count(), statics, "and keeps the ground");
    tb.advance(0.25);
    assert_eq!(tb.metrics.worst_moved, 0.0);
}

#[test]
fn a_drag_on_empty_space_throws_a_shape_the_way_of_the_drag() {
    let mut tb = Testbed::new(SceneName::Pyramid);
    let before = dynamic_bodies(&tb).len();
    let from = Vec2::new(-8.0, 6.0);
    assert!(tb.body_at(from).is_none());
    tb.press(from);
    assert!(matches!(tb.drag, Drag::Sling { .. }));
    tb.drag_to(Vec2::new(-7.0, 6.5));
    tb.drag_to(Vec2::new(-6.0, 7.0));
    // While dragging, the view shows the throw line (and its arrow head).
    let ops = tb.view_ops(tb.viewport);
    assert!(ops
        .iter()
        .any(|op| matches!(op, PaintOp::Stroke { color, .. } if *color == tb.style.sling)));
    let body = tb.release().expect("a shape was thrown");
    assert_eq!(dynamic_bodies(&tb).len(), before + 1);
    assert_eq!(tb.drag, Drag::None);
    let v = tb.scene.world.linear_velocity(body).unwrap();
    let dir = Vec2::new(2.0, 1.0).normalize();
    assert!(v.normalize().dot(dir) > 0.999, "launched along the drag: {v:?}");
    assert!((v.length() - 5.0_f32.sqrt() * SLING_SPEED_PER_METRE).abs() < 1e-3);
    let start = tb.scene.world.center_of_mass(body).unwrap();
    for _ in 0..10 {
        tb.step();
    }
    let moved = tb.scene.world.center_of_mass(body).unwrap() - start;
    assert!(moved.x > 0.5, "it flies right, the drag's way: {moved:?}");
}

#[test]
fn a_drag_on_a_box_grabs_it_and_a_corner_makes_it_spin() {
    let mut tb = Testbed::new(SceneName::Tower);
    let top = tb.scene.top.unwrap();
    // The top box spans x -0.5..0.5, y 6..7: take it by its upper-right
    // corner and lift it up and to the right.
    let corner = Vec2::new(0.45, 6.95);
    assert_eq!(tb.body_at(corner), Some(top));
    tb.press(corner);
    assert!(matches!(tb.drag, Drag::Grab { body, .. } if body == top));
    let target = Vec2::new(2.5, 9.0);
    tb.drag_to(target);
    let mut max_spin = 0.0f32;
    let mut late_angles = Vec::new();
    for i in 0..300 {
        tb.step();
        max_spin = max_spin.max(tb.scene.world.angular_velocity(top).unwrap().abs());
        if i >= 120 {
            late_angles.push(tb.scene.world.angle(top).unwrap());
        }
    }
    assert!(
        max_spin > 1.0,
        "pulled by a corner, the box spins: {max_spin} rad/s"
    );
    // Hanging from its corner it swings about, and settles towards, the
    // angle that puts its center below the corner: an eighth of a turn.
    let mean = late_angles.iter().sum::<f32>() / late_angles.len() as f32;
    assert!(
        (mean - FRAC_PI_4).abs() < 0.2,
        "it hangs from the corner: mean angle {mean}"
    );
    let last = *late_angles.last().unwrap();
    assert!((last - FRAC_PI_4).abs() < 0.4, "and is settling: angle {last}");
    // The held point follows the pointer.
    let held = tb
        .scene
        .world
        .transform(top)
        .unwrap()
        .apply(Vec2::new(0.45, 0.45));
    assert!(
        (held - target).length() < 0.3,
        "the corner hangs near the pointer: {held:?}"
    );
    assert!(tb.release().is_none(), "letting go throws nothing");
    assert_eq!(tb.drag, Drag::None);

    // Held at its center instead, a box is lifted without turning.
    let mut tb = Testbed::new(SceneName::Tower);
    let top = tb.scene.top.unwrap();
    tb.press(Vec2::new(0.0, 6.5));
    tb.drag_to(Vec2::new(0.0, 9.0));
    for _ in 0..120 {
        tb.step();
    }
    assert!(tb.scene.world.angle(top).unwrap().abs() < 0.05);
    assert!(tb.scene.world.position(top).unwrap().y > 8.5);
}

#[test]
fn bodies_that_leave_the_stage_come_back_to_the_top() {
    let mut tb = Testbed::new(SceneName::Pyramid);
    let bodies = dynamic_bodies(&tb);
    let (fallen, wanderer) = (bodies[0], bodies[1]);
    tb.scene
        .world
        .set_transform(fallen, Vec2::new(3.0, -25.0), 0.0)
        .unwrap();
    tb.scene
        .world
        .set_linear_velocity(fallen, Vec2::new(0.0, -40.0))
        .unwrap();
    tb.scene
        .world
        .set_transform(wanderer, Vec2::new(500.0, 0.5), 0.0)
        .unwrap();
    tb.scene
        .world
        .set_linear_velocity(wanderer, Vec2::new(30.0, 0.0))
        .unwrap();
    tb.step();
    assert_eq!(tb.recycled, 2);
    for b in [fallen, wanderer] {
        let p = tb.scene.world.center_of_mass(b).unwrap();
        assert!(p.y > 6.0, "back above the pyramid: {p:?}");
        assert!(p.x.abs() < 10.0, "over the stage: {p:?}");
        assert_eq!(tb.scene.world.linear_velocity(b).unwrap(), Vec2::ZERO);
    }
    // A thrown shape flung off the side comes back too.
    tb.press(Vec2::new(-8.0, 3.0));
    tb.drag_to(Vec2::new(-20.0, 3.0));
    let thrown = tb.release().unwrap();
    for _ in 0..600 {
        tb.step();
    }
    let p = tb.scene.world.center_of_mass(thrown).unwrap();
    assert!(p.y > -20.0 && p.x.abs() < 80.0, "never left falling: {p:?}");
}

#[test]
fn physics_runs_at_60_hz_whatever_the_display_rate() {
    for display_hz in [30.0f32, 60.0, 144.0, 240.0] {
        let mut tb = Testbed::new(SceneName::Tower);
        let frames = (2.0 * display_hz).round() as u32;
        let mut steps = 0;
        for _ in 0..frames {
            steps += tb.advance(1.0 / display_hz);
        }
        assert!(
            (119..=120).contains(&steps),
            "{display_hz} Hz display: {steps} steps in 2 s"
        );
    }
    // A long stall does not cause a burst of catch-up steps.
    let mut tb = Testbed::new(SceneName::Tower);
    assert_eq!(tb.advance(3.0), MAX_STEPS_PER_FRAME);
}

#[test]
fn the_live_figures_follow_the_scene() {
    let mut tb = Testbed::new(SceneName::Pyramid);
    for _ in 0..90 {
        tb.step();
    }
    assert_eq!(tb.metrics.frames, 90);
    assert_eq!(tb.slide_history.len(), 90);
    assert!(tb.step_ms > 0.0);
    assert!(tb.metrics.standing);
    for _ in 0..SLIDE_HISTORY {
        tb.step();
    }
    assert_eq!(
        tb.slide_history.len(),
        SLIDE_HISTORY,
        "the plot keeps a fixed window"
    );
}

#[test]
fn the_indicators_show_iterations_and_warm_starting() {
    let mut tb = Testbed::new(SceneName::Pyramid);
    let vp = tb.viewport;
    let lit = |tb: &Testbed| {
        let mut ops = Vec::new();
        tb.indicator_ops(vp, &mut ops);
        let ticks = ops
            .iter()
            .filter(|op| matches!(op, PaintOp::Fill { color, .. } if *color == tb.style.sling))
            .count();
        let amber = ops
            .iter()
            .any(|op| matches!(op, PaintOp::Fill { color, .. } if *color == tb.style.amber));
        (ticks, amber)
    };
    assert_eq!(lit(&tb), (8, true));
    tb.key(Key::ArrowUp);
    tb.key(Key::W);
    assert_eq!(lit(&tb), (9, false));
}

#[test]
fn scrolling_zooms_about_the_pointer_and_right_drag_pans() {
    let mut tb = Testbed::new(SceneName::Pyramid);
    let vp = Rect::from_min_size(Pos2::ZERO, egui::vec2(800.0, 600.0));
    tb.fit_camera_if_pending(vp);
    let before = tb.camera;
    tb.pan_start(Pos2::new(400.0, 300.0));
    tb.pan_to(Pos2::new(500.0, 300.0));
    tb.pan_end();
    let moved = tb.camera.center - before.center;
    assert!(
        (moved.x + 100.0 / before.zoom).abs() < 1e-4,
        "the world follows the drag: {moved:?}"
    );
    assert_eq!(tb.drag, Drag::None);
}

#[test]
fn the_sleepers_fall_asleep_and_a_thrown_shape_wakes_only_the_one_it_hits() {
    let mut tb = Testbed::new(SceneName::Sleepers);
    assert!(tb.sleeping, "the testbed sleeps by default");
    let boxes = dynamic_bodies(&tb);
    for _ in 0..120 {
        tb.step();
    }
    let world = &tb.scene.world;
    assert_eq!(world.awake_body_count(), 0, "all five pyramids asleep");
    // Throw a shape at the leftmost pyramid, from its left.
    let left = -0.5 * (tumble_scenes::SLEEPERS_COUNT - 1) as f32 * tumble_scenes::SLEEPERS_PITCH;
    tb.press(Vec2::new(left - 9.0, 3.0));
    tb.drag_to(Vec2::new(left - 5.0, 3.5));
    let thrown = tb.release().expect("a shape was thrown");
    let mut woke = Vec::new();
    for _ in 0..60 {
        tb.step();
        let world = &tb.scene.world;
        woke.extend(boxes.iter().filter(|&&b| world.is_awake(b) == Ok(true)).copied());
    }
    woke.sort();
    woke.dedup();
    let world = &tb.scene.world;
    assert!(!woke.is_empty(), "the throw woke its pyramid");
    let per = boxes.len() / tumble_scenes::SLEEPERS_COUNT as usize;
    for &b in &woke {
        let x = world.center_of_mass(b).unwrap().x;
        assert!(
            x < left + 0.5 * tumble_scenes::SLEEPERS_PITCH,
            "a box of another pyramid woke, at x = {x}"
        );
    }
    assert!(woke.len() <= per, "{} woke, the pyramid has {per}", woke.len());
    assert!(world.contains_body(thrown));
}

#[test]
fn s_turns_sleeping_off_and_the_world_follows() {
    let mut tb = Testbed::new(SceneName::Pyramid);
    for _ in 0..60 {
        tb.step();
    }
    assert_eq!(tb.scene.world.awake_body_count(), 0, "the pyramid slept");
    assert!(tb.key(Key::S));
    assert!(!tb.sleeping && !tb.scene.world.settings().sleeping);
    assert_eq!(
        tb.scene.world.awake_body_count(),
        21,
        "turning sleeping off woke it"
    );
    tb.key(Key::P);
    for _ in 0..60 {
        tb.step();
    }
    assert_eq!(
        tb.scene.world.awake_body_count(),
        21,
        "and it stays off across scenes"
    );
}

#[test]
fn a_grab_holds_the_body_by_a_motor_joint_that_goes_when_it_is_let_go() {
    let mut tb = Testbed::new(SceneName::Tower);
    let top = tb.scene.top.unwrap();
    let bodies = tb.scene.world.body_count();
    tb.press(Vec2::new(0.0, 6.5));
    tb.drag_to(Vec2::new(0.0, 9.0));
    for _ in 0..120 {
        tb.step();
    }
    // One joint, from an anchor body of its own, holding the box up.
    assert_eq!(tb.scene.world.joint_count(), 1);
    assert_eq!(tb.scene.world.body_count(), bodies + 1);
    let y = tb.scene.world.position(top).unwrap().y;
    assert!((y - 9.0).abs() < 0.05, "held at the pointer: {y}");
    tb.release();
    tb.step();
    assert_eq!(tb.scene.world.joint_count(), 0);
    assert_eq!(tb.scene.world.body_count(), bodies);
    for _ in 0..30 {
        tb.step();
    }
    assert!(
        tb.scene.world.position(top).unwrap().y < y - 0.5,
        "it falls once let go"
    );
}
