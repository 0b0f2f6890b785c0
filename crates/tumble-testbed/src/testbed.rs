//! The testbed's state and everything the user can do to it, with no window
//! attached: keys, mouse drags, scene changes, the fixed-rate stepping and
//! the live figures. The window ([`crate::ui`]) only translates egui input
//! into these calls and paints the result, so tests drive this directly.

use crate::camera::Camera;
use crate::draw::{paint_ops, DrawList, PaintOp, Style};
use egui::{Key, Pos2, Rect};
use std::collections::VecDeque;
use std::time::Instant;
use tumble::{
    draw_shape, Aabb, BodyDef, BodyId, BodyType, Color, DrawOptions, FixedStepper, JointDef, JointId,
    MotorJoint, PositionCorrection, QueryFilter, Shape, SolverSettings, StepProfile, Sweep, Transform, Vec2,
};
use tumble_scenes::{build, random_shape, Metrics, Recorder, Rng, Scene, SceneName, DT};

/// Fixed physics rate, steps per second.
pub const PHYSICS_HZ: f32 = 60.0;

/// Most physics steps taken for one displayed frame: a slow frame drops
/// time rather than falling further and further behind.
pub const MAX_STEPS_PER_FRAME: u32 = 4;

/// Bodies whose center falls below this height (metres) are recycled.
pub const RECYCLE_BELOW: f32 = -20.0;

/// Bodies farther than this (metres) beyond the scene's sides are recycled.
pub const RECYCLE_SIDE_MARGIN: f32 = 60.0;

/// Launch speed per metre of sling drag, 1/s: a 2 m drag throws at 10 m/s.
pub const SLING_SPEED_PER_METRE: f32 = 5.0;

/// Fastest sling throw, m/s.
pub const SLING_MAX_SPEED: f32 = 60.0;

/// Natural frequency of the mouse spring, Hz: stiff enough to lift a box
/// without sagging far (g / omega^2 is 1 cm), gentle enough to feel like
/// a spring. (The motor joint solves it implicitly: stable at any value.)
pub const GRAB_FREQUENCY: f32 = 5.0;

/// Damping ratio of the mouse spring (1 is critical).
pub const GRAB_DAMPING_RATIO: f32 = 0.7;

/// The mouse spring's force never exceeds this many times the body's
/// weight, so a fast flick cannot fling a body into orbit.
pub const GRAB_MAX_FORCE_PER_WEIGHT: f32 = 30.0;

/// Angular damping applied to a held body, 1/s: without it a box held by
/// a corner swings like a pendulum for a long time; with it, it still spins
/// when pulled but comes to hang still within a few seconds.
pub const GRAB_ANGULAR_DAMPING: f32 = 3.0;

/// Screen height (points) the solver indicators take along the bottom of
/// the view: the ground is framed above them.
pub const INDICATOR_HEIGHT: f32 = 64.0;

/// The keys (the testbed's, see [`Testbed::key`]) and what they do,
/// shown in the view's top-right corner.
pub const LEGEND: [(&str, &str); 15] = [
    ("drag", "sling a shape / grab a body"),
    ("right-drag", "pan"),
    ("scroll", "zoom"),
    ("Up / Down", "solver iterations"),
    ("W", "warm starting"),
    ("D", "contact points, normals"),
    ("S", "sleeping"),
    ("SPACE", "pause"),
    ("O", "single step"),
    ("P", "21-box pyramid"),
    ("T", "seven-box tower"),
    ("C", "clear"),
    ("R", "reset"),
    ("H", "hide this legend"),
    ("Left Right Up", "platformer: walk, jump"),
];

/// How many samples of residual slide the live plot keeps (ten seconds).
pub const SLIDE_HISTORY: usize = 600;

/// How many of [`SCENE_LIST`]'s scenes, at its end, are the joint scenes
/// (the panel folds them away).
pub const JOINT_SCENES: usize = 12;

/// The scenes offered in the side panel: SCENES.md's, plus a tall stack,
/// the sleepers, the game scenes, the tile floor and the joint scenes (but
/// the hanging chain, which the joint study measures: `--scene chain`
/// opens it, nor the tile floor of one static body per tile, the impact,
/// the welded beam and the motor arm of the peers study: `--scene
/// tile-bodies`, `impact`, `welded-beam`, `motor-arm`).
pub const SCENE_LIST: [SceneName; 26] = [
    SceneName::ALL[0],
    SceneName::ALL[1],
    SceneName::ALL[2],
    SceneName::Stack(30),
    SceneName::ALL[3],
    SceneName::ALL[4],
    SceneName::ALL[5],
    SceneName::ALL[6],
    SceneName::ALL[7],
    SceneName::Sleepers,
    SceneName::Platformer,
    SceneName::Sensors,
    SceneName::Filtering,
    SceneName::TileFloor,
    SceneName::Pendulum,
    SceneName::BallAndChain,
    SceneName::Bridge,
    SceneName::Door,
    SceneName::ScissorLift,
    SceneName::SoftBodies,
    SceneName::Car,
    SceneName::Breakable,
    SceneName::Ragdolls,
    SceneName::RopeBridge,
    SceneName::RagdollBox,
    SceneName::RagdollStairs,
];

/// What a mouse button held down is doing.
#[derive(Clone, Debug, PartialEq)]
pub enum Drag {
    /// Nothing.
    None,
    /// Dragging on empty space: a shape will be thrown from `from` in the
    /// direction of `to` when the button is released.
    Sling {
        /// Where the drag began (the shape appears here).
        from: Vec2,
        /// Where the pointer is now.
        to: Vec2,
        /// The shape that will be thrown, shown as a ghost meanwhile.
        shape: Shape,
        /// Its angle.
        angle: f32,
    },
    /// Holding a body by a point of it.
    Grab {
        /// The body held.
        body: BodyId,
        /// The point held, in the body's frame.
        local: Vec2,
        /// Where the pointer is: the spring pulls the point here.
        target: Vec2,
    },
    /// Right-drag: moving the view.
    Pan {
        /// The last pointer position, screen pixels.
        last: Pos2,
    },
}

/// The whole testbed.
pub struct Testbed {
    /// The scene being simulated (its world, and the bodies its metrics
    /// follow).
    pub scene: Scene,
    /// The solver settings chosen by the user: they survive scene changes.
    pub solver: SolverSettings,
    /// Gravity chosen by the user.
    pub gravity: Vec2,
    /// Physics paused.
    pub paused: bool,
    /// Draw contact points and normals.
    pub draw_contacts: bool,
    /// Show the legend of keys over the view (H hides it).
    pub show_legend: bool,
    /// Let resting islands fall asleep (the engine's default). The
    /// reference scenes are built with sleeping off, as SCENES.md measures
    /// them; the testbed turns it on.
    pub sleeping: bool,
    /// Worker threads the world steps on (the same results on any count).
    pub workers: usize,
    /// The view.
    pub camera: Camera,
    /// Set when the camera should frame the scene once the viewport's size
    /// is known.
    pub fit_pending: bool,
    /// What the mouse is doing.
    pub drag: Drag,
    /// While a body is held: the static anchor body and the motor joint
    /// that pull it (made and removed by the step, see `update_grab_joint`).
    pub grab_joint: Option<(BodyId, JointId)>,
    /// Fixed-rate stepping from the display's frame times.
    pub stepper: FixedStepper,
    /// The SCENES.md metrics of the current scene, updated every step.
    pub metrics: Metrics,
    /// Residual slide after each of the last steps, for the plot.
    pub slide_history: VecDeque<f32>,
    /// Wall-clock time of the last step, milliseconds (smoothed).
    pub step_ms: f32,
    /// The step's time by stage, milliseconds (smoothed like `step_ms`).
    pub stages: StepProfile,
    /// Time between displayed frames, milliseconds (smoothed).
    pub frame_ms: f32,
    /// Steps since the scene was loaded.
    pub steps: u64,
    /// Shapes thrown since the scene was loaded.
    pub thrown: u32,
    /// Bodies recycled since the scene was loaded.
    pub recycled: u32,
    /// The palette.
    pub style: Style,
    /// The screen rectangle the view was last drawn in.
    pub viewport: Rect,
    /// The keys a game scene's character is driven by, held this frame.
    pub input: tumble_scenes::input::Input,
    /// The scene's own figures (the ramp's, the bounce's).
    pub figures: crate::figures::SceneFigures,
    /// What the side panel's content took on the last frame (screen
    /// points): the layout tests check it fits the window.
    pub panel_content: Rect,
    recorder: Recorder,
    rng: Rng,
    /// The region the scene occupies (for the camera and for recycling).
    stage: Aabb,
}

impl Default for Testbed {
    fn default() -> Self {
        Testbed::new(SceneName::Pyramid)
    }
}

impl std::fmt::Debug for Testbed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Testbed")
            .field("scene", &self.scene.name)
            .field("solver", &self.solver)
            .field("paused", &self.paused)
            .field("steps", &self.steps)
            .finish_non_exhaustive()
    }
}

/// An exponential moving average: a tenth of the new value each time.
fn smooth(old: f32, new: f32) -> f32 {
    0.9 * old + 0.1 * new
}

/// The world rectangle a scene occupies: every body except anything much
/// wider than a scene (the ground), with the ground's top always included.
fn stage_of(scene: &Scene) -> Aabb {
    let world = &scene.world;
    let mut bounds = Aabb::new(Vec2::new(-3.0, 0.0), Vec2::new(3.0, 3.0));
    for body in world.bodies() {
        let Ok(xf) = world.transform(body) else { continue };
        for shape in world.body_shapes(body).unwrap_or_default() {
            let Ok(s) = world.shape(shape) else { continue };
            let bb = s.aabb(xf);
            if bb.max.x - bb.min.x > 200.0 {
                continue;
            }
            bounds = bounds.union(bb);
        }
    }
    bounds
}

impl Testbed {
    /// A testbed showing `name` with the default solver settings.
    pub fn new(name: SceneName) -> Testbed {
        let solver = SolverSettings::default();
        let mut scene = build(name, solver);
        scene.world.set_sleeping(true);
        let stage = stage_of(&scene);
        let recorder = Recorder::default();
        Testbed {
            metrics: recorder.metrics(&scene),
            gravity: scene.world.gravity(),
            scene,
            solver,
            paused: false,
            draw_contacts: false,
            show_legend: true,
            sleeping: true,
            workers: 1,
            camera: Camera::default(),
            fit_pending: true,
            drag: Drag::None,
            grab_joint: None,
            stepper: FixedStepper::new(PHYSICS_HZ, MAX_STEPS_PER_FRAME),
            slide_history: VecDeque::with_capacity(SLIDE_HISTORY),
            step_ms: 0.0,
            stages: StepProfile::default(),
            frame_ms: 0.0,
            steps: 0,
            thrown: 0,
            recycled: 0,
            style: Style::default(),
            viewport: Rect::from_min_size(Pos2::ZERO, egui::vec2(1280.0, 720.0)),
            input: Default::default(),
            figures: Default::default(),
            panel_content: Rect::NOTHING,
            recorder,
            rng: Rng::new(0x07e5_7bed),
            stage,
        }
    }

    /// Which scene is loaded.
    pub fn scene_name(&self) -> SceneName {
        self.scene.name
    }

    /// Loads a scene afresh, keeping the user's solver settings, gravity,
    /// sleeping and thread count.
    pub fn load(&mut self, name: SceneName) {
        let mut scene = build(name, self.solver);
        // The user's gravity carries over; it is finite (set_gravity checks).
        let _ = scene.world.set_gravity(self.gravity);
        scene.world.set_sleeping(self.sleeping);
        // A count the testbed offered; refused, the scene keeps one.
        let _ = scene.world.set_workers(self.workers);
        self.stage = stage_of(&scene);
        self.scene = scene;
        self.recorder = Recorder::default();
        self.metrics = self.recorder.metrics(&self.scene);
        self.slide_history.clear();
        self.figures = Default::default();
        self.drag = Drag::None;
        self.steps = 0;
        self.thrown = 0;
        self.recycled = 0;
        self.fit_pending = true;
    }

    /// Loads the current scene again from its start.
    pub fn reset(&mut self) {
        self.load(self.scene.name);
    }

    /// Removes every dynamic body, leaving the ground and walls. The
    /// metrics have nothing left to follow and start over.
    pub fn clear(&mut self) {
        let world = &mut self.scene.world;
        let dynamic: Vec<BodyId> = world
            .bodies()
            .filter(|&b| world.body_type(b) == Ok(BodyType::Dynamic))
            .collect();
        for b in dynamic {
            let _ = world.remove_body(b);
        }
        self.scene.tracked.clear();
        self.scene.start.clear();
        self.scene.top = None;
        self.recorder = Recorder::default();
        self.metrics = self.recorder.metrics(&self.scene);
        self.slide_history.clear();
        self.drag = Drag::None;
    }

    /// Number of dynamic bodies in the world.
    pub fn dynamic_count(&self) -> usize {
        self.count_bodies(|t| t == BodyType::Dynamic)
    }

    /// Number of bodies that can be awake: the dynamic and kinematic ones.
    pub fn moving_count(&self) -> usize {
        self.count_bodies(|t| t != BodyType::Static)
    }

    /// Number of bodies whose type passes `keep`.
    fn count_bodies(&self, keep: impl Fn(BodyType) -> bool) -> usize {
        let world = &self.scene.world;
        world
            .bodies()
            .filter(|&b| world.body_type(b).is_ok_and(&keep))
            .count()
    }

    /// Copies the user's solver settings, gravity and sleeping into the
    /// world.
    pub fn apply_settings(&mut self) {
        self.solver.iterations = self.solver.iterations.clamp(1, 16);
        if self.scene.world.set_solver_settings(self.solver).is_err() {
            self.solver = *self.scene.world.solver_settings();
        }
        self.scene.world.set_sleeping(self.sleeping);
        if self.scene.world.set_workers(self.workers).is_err() {
            self.workers = self.scene.world.settings().workers;
        }
        if self.scene.world.set_gravity(self.gravity).is_err() {
            self.gravity = self.scene.world.gravity();
        }
    }

    /// Handles one key press. Returns true when the key meant something.
    ///
    /// Up/Down: solver iterations; W: warm starting; D: contacts; S:
    /// sleeping; H: the legend; Space: pause; O: single step; P: pyramid;
    /// T: tower; C: clear; R: reset.
    pub fn key(&mut self, key: Key) -> bool {
        match key {
            Key::ArrowUp => self.solver.iterations = (self.solver.iterations + 1).min(16),
            Key::ArrowDown => self.solver.iterations = self.solver.iterations.saturating_sub(1).max(1),
            Key::W => self.solver.warm_starting = !self.solver.warm_starting,
            Key::D => self.draw_contacts = !self.draw_contacts,
            Key::S => self.sleeping = !self.sleeping,
            Key::H => self.show_legend = !self.show_legend,
            Key::Space => self.paused = !self.paused,
            Key::O => {
                self.paused = true;
                self.step();
            }
            Key::P => self.load(SceneName::Pyramid),
            Key::T => self.load(SceneName::Tower),
            Key::C => self.clear(),
            Key::R => self.reset(),
            _ => return false,
        }
        self.apply_settings();
        true
    }

    /// Sets the position correction mode.
    pub fn set_position_correction(&mut self, mode: PositionCorrection) {
        self.solver.position_correction = mode;
        self.apply_settings();
    }

    /// Sets the sweep order.
    pub fn set_sweep(&mut self, sweep: Sweep) {
        self.solver.sweep = sweep;
        self.apply_settings();
    }

    // ------------------------------------------------------------------
    // Time

    /// Adds a displayed frame's duration and takes the whole physics steps
    /// that fit (none while paused). Returns the number of steps taken.
    pub fn advance(&mut self, frame_time: f32) -> u32 {
        if frame_time.is_finite() && frame_time > 0.0 {
            let ms = frame_time * 1000.0;
            self.frame_ms = if self.frame_ms == 0.0 {
                ms
            } else {
                smooth(self.frame_ms, ms)
            };
        }
        if self.paused {
            return 0;
        }
        let mut stepper = self.stepper;
        let steps = stepper.advance(frame_time, |_| self.step());
        self.stepper = stepper;
        steps
    }

    /// One physics step of [`DT`]: the mouse spring, the world, recycling,
    /// the metrics.
    pub fn step(&mut self) {
        self.update_grab_joint();
        let Scene { world, game, .. } = &mut self.scene;
        if let Some(game) = game {
            game.before_step(world, self.input);
        }
        let start = Instant::now();
        match game {
            Some(game) => world.step_with_hooks(DT, game.hooks()),
            None => world.step(DT),
        }
        let ms = start.elapsed().as_secs_f32() * 1000.0;
        if let Some(game) = game {
            game.after_step(world);
        }
        let p = *self.scene.world.profile();
        if self.steps == 0 {
            self.step_ms = ms;
            self.stages = p;
        } else {
            self.step_ms = smooth(self.step_ms, ms);
            let s = &mut self.stages;
            for (a, b) in [
                (&mut s.update_pairs, p.update_pairs),
                (&mut s.collide, p.collide),
                (&mut s.contact_changes, p.contact_changes),
                (&mut s.solve, p.solve),
                (&mut s.finalize, p.finalize),
                (&mut s.continuous, p.continuous),
                (&mut s.sensors, p.sensors),
                (&mut s.update_broadphase, p.update_broadphase),
                (&mut s.sleep, p.sleep),
                (&mut s.total, p.total),
            ] {
                *a = smooth(*a, b);
            }
        }
        self.steps += 1;
        self.recycle_escaped();
        self.recorder.record(&self.scene);
        self.metrics = self.recorder.metrics(&self.scene);
        self.figures.record(&self.scene);
        if self.slide_history.len() == SLIDE_HISTORY {
            self.slide_history.pop_front();
        }
        self.slide_history.push_back(self.metrics.residual_slide);
    }

    /// Moves every dynamic body that left the stage (fell below
    /// [`RECYCLE_BELOW`] or went [`RECYCLE_SIDE_MARGIN`] past the scene's
    /// sides) back above the scene at rest. Returns how many moved.
    pub fn recycle_escaped(&mut self) -> usize {
        let stage = self.stage;
        let world = &mut self.scene.world;
        let escaped: Vec<BodyId> = world
            .bodies()
            .filter(|&b| world.body_type(b) == Ok(BodyType::Dynamic))
            .filter(|&b| match world.center_of_mass(b) {
                Ok(c) => {
                    c.y < RECYCLE_BELOW
                        || c.x < stage.min.x - RECYCLE_SIDE_MARGIN
                        || c.x > stage.max.x + RECYCLE_SIDE_MARGIN
                }
                Err(_) => false,
            })
            .collect();
        for &b in &escaped {
            let width = (stage.max.x - stage.min.x).min(12.0);
            let x = stage.center().x + self.rng.range(-0.5, 0.5) * width;
            let y = stage.max.y + 2.0 + self.rng.range(0.0, 1.0);
            let angle = self.rng.range(0.0, std::f32::consts::TAU);
            // These calls only fail on a stale handle; the handles are live.
            let _ = world.set_transform(b, Vec2::new(x, y), angle);
            let _ = world.set_linear_velocity(b, Vec2::ZERO);
            let _ = world.set_angular_velocity(b, 0.0);
            if let Drag::Grab { body, .. } = self.drag {
                if body == b {
                    self.drag = Drag::None;
                }
            }
        }
        self.recycled += escaped.len() as u32;
        escaped.len()
    }

    /// The mouse spring, as Box2D's samples make it: a motor joint from a
    /// static anchor body to the held point, whose frame A follows the
    /// pointer and pulls the point after it as an implicit spring of
    /// [`GRAB_FREQUENCY`] (stable at any stiffness, whichever point it
    /// holds), its force capped. Made when a grab begins and removed when
    /// it ends. Pulling a box by a corner turns it.
    fn update_grab_joint(&mut self) {
        let world = &mut self.scene.world;
        let Drag::Grab { body, local, target } = self.drag else {
            if let Some((anchor, _)) = self.grab_joint.take() {
                // Removing the anchor removes its joint too.
                let _ = world.remove_body(anchor);
            }
            return;
        };
        let held = self
            .grab_joint
            .filter(|&(_, j)| world.joint_bodies(j).is_ok_and(|(_, b)| b == body));
        let joint = match held {
            Some((_, joint)) => joint,
            None => {
                if let Some((anchor, _)) = self.grab_joint.take() {
                    let _ = world.remove_body(anchor);
                }
                let Ok(md) = world.mass_data(body) else {
                    self.drag = Drag::None;
                    return;
                };
                let Ok(anchor) = world.create_body(&BodyDef::static_body()) else {
                    return;
                };
                let max_force = GRAB_MAX_FORCE_PER_WEIGHT * md.mass * self.gravity.length().max(10.0);
                let spring = MotorJoint::drag(GRAB_FREQUENCY, GRAB_DAMPING_RATIO, max_force);
                let def = JointDef::new(anchor, body, spring).with_local_anchors(target, local);
                let Ok(joint) = world.create_joint(&def) else {
                    let _ = world.remove_body(anchor);
                    return;
                };
                self.grab_joint = Some((anchor, joint));
                joint
            }
        };
        let frames = (Transform::new(target, 0.0), Transform::new(local, 0.0));
        let _ = world.set_joint_frames(joint, frames.0, frames.1);
        if let (Ok(w), Ok(md)) = (world.angular_velocity(body), world.mass_data(body)) {
            let _ = world.apply_torque(body, -md.inertia * GRAB_ANGULAR_DAMPING * w);
        }
    }

    // ------------------------------------------------------------------
    // Mouse (world coordinates; the window converts from pixels)

    /// The dynamic body under the world point `p`, if any.
    pub fn body_at(&self, p: Vec2) -> Option<BodyId> {
        let world = &self.scene.world;
        let mut under = Vec::new();
        // A point off the world (NaN, beyond its extent) has nothing under it.
        world.overlap_point(p, QueryFilter::ALL, &mut under).ok()?;
        under
            .into_iter()
            .filter_map(|s| world.shape_body(s).ok())
            .find(|&b| world.body_type(b) == Ok(BodyType::Dynamic))
    }

    /// The primary button went down at world point `p`: grab the body there,
    /// or start a sling on empty space.
    pub fn press(&mut self, p: Vec2) {
        if let Some(body) = self.body_at(p) {
            if let Ok(xf) = self.scene.world.transform(body) {
                self.drag = Drag::Grab {
                    body,
                    local: xf.inv_apply(p),
                    target: p,
                };
                return;
            }
        }
        let shape = random_shape(&mut self.rng);
        let angle = self.rng.range(0.0, std::f32::consts::TAU);
        self.drag = Drag::Sling {
            from: p,
            to: p,
            shape,
            angle,
        };
    }

    /// The pointer moved to world point `p` with the primary button down.
    pub fn drag_to(&mut self, p: Vec2) {
        match &mut self.drag {
            Drag::Sling { to, .. } => *to = p,
            Drag::Grab { target, .. } => *target = p,
            _ => {}
        }
    }

    /// The primary button came up: throw the sling's shape or let go of the
    /// held body. Returns the body thrown, if one was.
    pub fn release(&mut self) -> Option<BodyId> {
        let drag = std::mem::replace(&mut self.drag, Drag::None);
        let Drag::Sling {
            from,
            to,
            shape,
            angle,
        } = drag
        else {
            return None;
        };
        let mut velocity = (to - from) * SLING_SPEED_PER_METRE;
        if velocity.length() > SLING_MAX_SPEED {
            velocity *= SLING_MAX_SPEED / velocity.length();
        }
        let world = &mut self.scene.world;
        let def = BodyDef::dynamic()
            .at(from)
            .with_angle(angle)
            .with_velocity(velocity);
        let body = world.create_body(&def).ok()?;
        if world
            .create_shape(body, shape, &tumble_scenes::default_material())
            .is_err()
        {
            let _ = world.remove_body(body);
            return None;
        }
        self.thrown += 1;
        Some(body)
    }

    /// Right button went down at screen point `s`: start panning.
    pub fn pan_start(&mut self, s: Pos2) {
        self.drag = Drag::Pan { last: s };
    }

    /// Right-drag moved to screen point `s`.
    pub fn pan_to(&mut self, s: Pos2) {
        if let Drag::Pan { last } = &mut self.drag {
            self.camera.pan_pixels(s - *last);
            *last = s;
        }
    }

    /// Right button released.
    pub fn pan_end(&mut self) {
        if matches!(self.drag, Drag::Pan { .. }) {
            self.drag = Drag::None;
        }
    }

    // ------------------------------------------------------------------
    // Drawing

    /// Remembers `viewport` as the view's rectangle, and frames the scene
    /// in it if a new scene asked for that.
    pub fn fit_camera_if_pending(&mut self, viewport: Rect) {
        self.viewport = viewport;
        if self.fit_pending && viewport.width() > 1.0 && viewport.height() > 1.0 {
            // Show a strip of ground below the scene and some sky above.
            let mut bounds = self.stage;
            bounds.min.y = bounds.min.y.min(0.0) - 1.0;
            bounds.max.y += 1.5;
            let margin = 0.06;
            self.camera.fit(bounds, viewport, margin);
            // A wide scene leaves room above and below: keep the ground
            // near the bottom of the view, under the solver indicators
            // drawn along the bottom, and give the room to the sky.
            let half_h = 0.5 * viewport.height() / self.camera.zoom;
            let bottom_gap = (margin * viewport.height()).max(INDICATOR_HEIGHT) / self.camera.zoom;
            self.camera.center.y = bounds.min.y - bottom_gap + half_h;
            self.fit_pending = false;
        }
    }

    /// Everything the view shows, as screen-space paint ops: grid, world,
    /// the sling or mouse spring, and the solver indicators (iteration ticks
    /// and the warm-starting bar) along the bottom-left. Both back ends
    /// paint exactly this list.
    pub fn view_ops(&self, viewport: Rect) -> Vec<PaintOp> {
        let mut ops = Vec::new();
        crate::draw::grid_ops(&self.camera, viewport, &self.style, &mut ops);
        let mut list = DrawList::new();
        let options = DrawOptions {
            contacts: self.draw_contacts,
            normals: self.draw_contacts,
            normal_length: 0.35,
            density_shading: true,
            ..DrawOptions::default()
        };
        self.scene.world.debug_draw(&mut list, &options);
        if let Some(game) = &self.scene.game {
            game.draw(&self.scene.world, &mut list);
        }
        match &self.drag {
            Drag::Sling {
                from, shape, angle, ..
            } => {
                draw_shape(
                    &mut list,
                    shape,
                    Transform::new(*from, *angle),
                    Color::hex(0xf2e2ba).with_alpha(0.55),
                );
            }
            Drag::Grab { body, local, target } => {
                if let Ok(xf) = self.scene.world.transform(*body) {
                    let p = xf.apply(*local);
                    list.draw_segment_colored(p, *target, self.style.spring);
                }
            }
            _ => {}
        }
        paint_ops(&list.items, &self.camera, viewport, &self.style, &mut ops);
        self.overlay_ops(viewport, &mut ops);
        ops
    }

    fn overlay_ops(&self, viewport: Rect, ops: &mut Vec<PaintOp>) {
        let to_screen = |p: Vec2| self.camera.to_screen(p, viewport);
        match &self.drag {
            Drag::Sling { from, to, .. } => {
                let (a, b) = (to_screen(*from), to_screen(*to));
                ops.push(PaintOp::Stroke {
                    points: vec![a, b],
                    closed: false,
                    width: 2.0,
                    color: self.style.sling,
                });
                // An arrow head shows the throw's direction.
                let d = b - a;
                if d.length() > 6.0 {
                    let dir = d.normalized();
                    let side = egui::vec2(-dir.y, dir.x);
                    let head = 10.0;
                    ops.push(PaintOp::Fill {
                        points: vec![
                            b,
                            b - dir * head + side * head * 0.5,
                            b - dir * head - side * head * 0.5,
                        ],
                        color: self.style.sling,
                    });
                }
                ops.push(PaintOp::Dot {
                    center: a,
                    radius: 3.0,
                    color: self.style.sling,
                });
            }
            Drag::Grab { body, local, target } => {
                if let Ok(xf) = self.scene.world.transform(*body) {
                    ops.push(PaintOp::Dot {
                        center: to_screen(xf.apply(*local)),
                        radius: 4.0,
                        color: self.style.spring,
                    });
                    ops.push(PaintOp::Dot {
                        center: to_screen(*target),
                        radius: 2.5,
                        color: self.style.spring,
                    });
                }
            }
            _ => {}
        }
        self.indicator_ops(viewport, ops);
        self.label_ops(viewport, ops);
    }

    /// The text over the view, as ops (both back ends draw it): the scene's
    /// name, the pause notice, the indicators' labels and, unless hidden,
    /// the legend of keys on a translucent card.
    pub fn label_ops(&self, viewport: Rect, ops: &mut Vec<PaintOp>) {
        let dim = egui::Color32::from_gray(150);
        let bright = egui::Color32::from_gray(225);
        let mut text = |pos: Pos2, anchor: egui::Align2, text: String, size: f32, color: egui::Color32| {
            ops.push(PaintOp::Text {
                pos,
                anchor,
                text,
                size,
                color,
            })
        };
        text(
            viewport.left_top() + egui::vec2(14.0, 12.0),
            egui::Align2::LEFT_TOP,
            self.scene_name().name().to_string(),
            20.0,
            bright,
        );
        if self.paused {
            text(
                Pos2::new(viewport.center().x, viewport.top() + 14.0),
                egui::Align2::CENTER_TOP,
                "PAUSED · SPACE resumes · O steps".to_string(),
                15.0,
                self.style.amber,
            );
        }
        // Beside the indicators drawn by `indicator_ops`.
        let base = Pos2::new(viewport.left() + 16.0, viewport.bottom() - 16.0);
        let x = base.x + 16.0 * 9.0 + 6.0;
        text(
            Pos2::new(x, base.y),
            egui::Align2::LEFT_BOTTOM,
            format!("{} iterations", self.solver.iterations),
            13.0,
            dim,
        );
        let (warm, warm_color) = if self.solver.warm_starting {
            ("warm starting on", self.style.amber)
        } else {
            ("warm starting OFF", dim)
        };
        text(
            Pos2::new(x, base.y - 24.0),
            egui::Align2::LEFT_BOTTOM,
            warm.to_string(),
            13.0,
            warm_color,
        );
        if !self.show_legend {
            return;
        }
        let line_h = 16.0;
        let card = Rect::from_min_size(
            Pos2::new(viewport.right() - 258.0, viewport.top() + 10.0),
            egui::vec2(248.0, LEGEND.len() as f32 * line_h + 12.0),
        );
        ops.push(PaintOp::Fill {
            points: vec![
                card.left_top(),
                card.right_top(),
                card.right_bottom(),
                card.left_bottom(),
            ],
            color: egui::Color32::from_rgba_unmultiplied(8, 10, 14, 190),
        });
        for (i, (key, what)) in LEGEND.iter().enumerate() {
            let y = card.top() + 6.0 + i as f32 * line_h;
            for (dx, label, color) in [(10.0, key, self.style.sling), (88.0, what, dim)] {
                ops.push(PaintOp::Text {
                    pos: Pos2::new(card.left() + dx, y),
                    anchor: egui::Align2::LEFT_TOP,
                    text: label.to_string(),
                    size: 12.5,
                    color,
                });
            }
        }
    }

    /// The solver indicators, bottom-left: one tick per iteration (lit up to
    /// the current count, of 16) and above them the amber warm-starting bar
    /// (dark when warm starting is off).
    pub fn indicator_ops(&self, viewport: Rect, ops: &mut Vec<PaintOp>) {
        let base = Pos2::new(viewport.left() + 16.0, viewport.bottom() - 16.0);
        let lit = self.solver.iterations.clamp(1, 16);
        for i in 0..16u32 {
            let x = base.x + i as f32 * 9.0;
            let on = i < lit;
            let h = if on { 16.0 } else { 8.0 };
            ops.push(PaintOp::Fill {
                points: vec![
                    Pos2::new(x, base.y),
                    Pos2::new(x + 5.0, base.y),
                    Pos2::new(x + 5.0, base.y - h),
                    Pos2::new(x, base.y - h),
                ],
                color: if on {
                    self.style.sling
                } else {
                    self.style.indicator_off
                },
            });
        }
        let bar_w = 16.0 * 9.0 - 4.0;
        let y = base.y - 26.0;
        ops.push(PaintOp::Fill {
            points: vec![
                Pos2::new(base.x, y),
                Pos2::new(base.x + bar_w, y),
                Pos2::new(base.x + bar_w, y - 6.0),
                Pos2::new(base.x, y - 6.0),
            ],
            color: if self.solver.warm_starting {
                self.style.amber
            } else {
                self.style.indicator_off
            },
        });
    }
}

/// A segment in an egui color (the sling ghost and the spring use the
/// testbed's palette, not an engine color).
trait SegmentColored {
    fn draw_segment_colored(&mut self, a: Vec2, b: Vec2, c: egui::Color32);
}

impl SegmentColored for DrawList {
    fn draw_segment_colored(&mut self, a: Vec2, b: Vec2, c: egui::Color32) {
        let [r, g, b_, a_] = c.to_srgba_unmultiplied();
        let color = Color {
            r: r as f32 / 255.0,
            g: g as f32 / 255.0,
            b: b_ as f32 / 255.0,
            a: a_ as f32 / 255.0,
        };
        tumble::DebugDraw::draw_segment(self, a, b, color);
    }
}

#[cfg(test)]
mod tests;
