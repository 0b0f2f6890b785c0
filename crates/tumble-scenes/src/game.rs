//! The game-feature scenes (not in SCENES.md): a platformer, a funnel of
//! balls through sensor zones, and groups of bodies that pass through each
//! other. Each keeps what it needs between steps in a [`Game`]: the
//! testbed calls [`Game::before_step`], steps the world with
//! [`Game::hooks`], then calls [`Game::after_step`].

use tumble::{
    BodyDef, BodyId, Capsule, CharacterController, Circle, Color, ContactHooks, DebugDraw, Filter,
    OneWayPlatforms, Polygon, Shape, ShapeDef, ShapeId, Vec2, World,
};

use crate::input::Input;
use crate::joints::{Breakable, Car, Lift};
use crate::DT;

/// A game scene's state between steps.
#[derive(Clone, Debug)]
pub struct Game {
    kind: Kind,
    /// Shapes the last hit events named, with the steps their flash has
    /// left.
    flashes: Vec<(ShapeId, u32)>,
    hooks: OneWayPlatforms,
}

#[derive(Clone, Debug)]
enum Kind {
    Platformer(Box<Platformer>),
    Sensors(Sensors),
    Filtering(Vec<(ShapeId, Color)>),
    Car(Car),
    Lift(Lift),
    Breakable(Breakable),
}

#[derive(Clone, Debug)]
struct Platformer {
    character: BodyId,
    shape: Shape,
    controller: CharacterController,
    fall: f32,
    coins: Vec<ShapeId>,
    collected: u32,
    lift: BodyId,
}

#[derive(Clone, Debug)]
struct Sensors {
    zones: Vec<ShapeId>,
    entered: Vec<u32>,
}

/// Steps a hit flash lasts.
const FLASH_STEPS: u32 = 12;

/// Walking speed, m/s.
const WALK_SPEED: f32 = 5.0;

/// Take-off speed of a jump, m/s (about 1.8 m high).
const JUMP_SPEED: f32 = 6.0;

/// How far the lift travels either side of its middle, metres.
const LIFT_RANGE: f32 = 3.0;

impl Game {
    /// The contact hooks the world must be stepped with.
    pub fn hooks(&self) -> &dyn ContactHooks {
        &self.hooks
    }

    /// Moves what the game moves: the character from `input`, the lift.
    pub fn before_step(&mut self, world: &mut World, input: Input) {
        match &mut self.kind {
            Kind::Platformer(p) => p.before_step(world, input),
            Kind::Car(c) => c.before_step(world, input),
            Kind::Lift(l) => l.before_step(world),
            _ => {}
        }
    }

    /// Reads the step's events: coins collected, zone entries, hit flashes.
    pub fn after_step(&mut self, world: &mut World) {
        for flash in &mut self.flashes {
            flash.1 -= 1;
        }
        self.flashes.retain(|f| f.1 > 0);
        for hit in &world.contact_events().hit {
            for shape in [hit.shape_a, hit.shape_b] {
                self.flashes.retain(|f| f.0 != shape);
                self.flashes.push((shape, FLASH_STEPS));
            }
        }
        match &mut self.kind {
            Kind::Platformer(p) => {
                let events = world.sensor_events().begin.clone();
                for e in events {
                    if p.coins.contains(&e.sensor) && world.shape_body(e.visitor) == Ok(p.character) {
                        p.coins.retain(|&c| c != e.sensor);
                        p.collected += 1;
                        let _ = world.remove_shape(e.sensor);
                    }
                }
            }
            Kind::Sensors(s) => {
                for e in &world.sensor_events().begin {
                    if let Some(k) = s.zones.iter().position(|&z| z == e.sensor) {
                        s.entered[k] += 1;
                    }
                }
            }
            Kind::Breakable(b) => b.after_step(world),
            Kind::Filtering(_) | Kind::Car(_) | Kind::Lift(_) => {}
        }
    }

    /// What the panel shows: (label, value) rows.
    pub fn status(&self) -> Vec<(String, String)> {
        match &self.kind {
            Kind::Platformer(p) => vec![
                (
                    "coins".into(),
                    format!("{} of {}", p.collected, p.collected as usize + p.coins.len()),
                ),
                ("keys".into(), "Left Right walk, Up jump".into()),
            ],
            Kind::Sensors(s) => s
                .entered
                .iter()
                .enumerate()
                .map(|(k, n)| (format!("zone {}", k + 1), format!("{n} entered")))
                .collect(),
            Kind::Filtering(_) => vec![("groups".into(), "own group + ground".into())],
            Kind::Car(_) => vec![("keys".into(), "Left Right drive".into())],
            Kind::Lift(_) => vec![("drive".into(), "reverses at its stops".into())],
            Kind::Breakable(b) => vec![
                ("welds".into(), format!("{} holding", b.welds.len())),
                ("broken".into(), b.broken.to_string()),
            ],
        }
    }

    /// Whether the game takes the arrow keys and space (the testbed then
    /// leaves them alone).
    pub fn takes_keys(&self) -> bool {
        matches!(self.kind, Kind::Platformer(_) | Kind::Car(_))
    }

    /// Draws what the debug draw does not: group colors, hit flashes.
    pub fn draw(&self, world: &World, draw: &mut dyn DebugDraw) {
        let mut paint = |shape: ShapeId, color: Color| {
            let (Ok(s), Ok(body)) = (world.shape(shape), world.shape_body(shape)) else {
                return;
            };
            if let Ok(xf) = world.transform(body) {
                tumble::draw_shape(draw, s, xf, color);
            }
        };
        if let Kind::Filtering(groups) = &self.kind {
            for &(shape, color) in groups {
                paint(shape, color);
            }
        }
        for &(shape, left) in &self.flashes {
            paint(
                shape,
                Color::hex(0xfff3b0).with_alpha(left as f32 / FLASH_STEPS as f32),
            );
        }
    }
}

impl Platformer {
    fn before_step(&mut self, world: &mut World, input: Input) {
        // The lift rides up and down between its stops.
        if let (Ok(p), Ok(v)) = (world.position(self.lift), world.linear_velocity(self.lift)) {
            let turn = (p.y > 2.0 + 2.0 * LIFT_RANGE && v.y > 0.0) || (p.y < 2.0 && v.y < 0.0);
            if turn {
                let _ = world.set_linear_velocity(self.lift, -v);
            }
        }
        let Ok(xf) = world.transform(self.character) else {
            return;
        };
        let walk = WALK_SPEED * (f32::from(u8::from(input.right)) - f32::from(u8::from(input.left)));
        self.fall -= 10.0 * DT;
        let desired = Vec2::new(walk, self.fall) * DT;
        let Ok(m) = world.move_character(
            &self.controller,
            &self.shape,
            xf,
            desired,
            DT,
            Some(self.character),
        ) else {
            return;
        };
        if m.grounded {
            self.fall = if input.jump { JUMP_SPEED } else { 0.0 };
        } else if self.fall > 0.0 && m.translation.y < 0.5 * desired.y {
            // Bumped its head.
            self.fall = 0.0;
        }
        let _ = world.set_linear_velocity(self.character, m.translation / DT);
    }
}

/// The collision category of the platformer's one-way platforms.
const PLATFORM_CATEGORY: u64 = 0x2;

/// The platformer: hilly chain terrain, one-way platforms, coins (sensors),
/// a lift, crates that flash when hit hard, and a character.
pub fn platformer(world: &mut World) -> Game {
    let ground = world.create_body(&BodyDef::static_body()).expect("finite");
    // Hills from x = 30 down to x = -30 (right to left: solid from above),
    // every 0.5 m, walled at both ends.
    let hills: Vec<Vec2> = (0..=120)
        .map(|k| {
            let x = 30.0 - 0.5 * k as f32;
            Vec2::new(x, 0.8 * (0.35 * x).sin() + 0.4 * (0.9 * x).cos() + 1.5)
        })
        .collect();
    let mut outline = vec![Vec2::new(30.0, 8.0)];
    outline.extend(hills);
    outline.push(Vec2::new(-30.0, 8.0));
    world
        .create_chain(ground, &outline, false, &ShapeDef::default())
        .expect("a valid outline");
    // One-way platforms: held up from above for bodies by the hook, and
    // for the character by its controller's rule for their category.
    let mut hooks = OneWayPlatforms::default();
    let one_way = ShapeDef {
        pre_solve: true,
        filter: Filter {
            category: PLATFORM_CATEGORY,
            ..Filter::default()
        },
        ..ShapeDef::default()
    };
    for (x, y) in [(-8.0, 4.5), (-3.0, 6.5), (4.0, 5.0)] {
        let b = world
            .create_body(&BodyDef::static_body().at(Vec2::new(x, y)))
            .expect("finite");
        let s = world
            .create_shape(b, Polygon::new_box(2.0, 0.1).expect("a box"), &one_way)
            .expect("valid");
        hooks.platforms.push(s);
    }
    // A lift: a kinematic platform going up and down.
    let lift = world
        .create_body(
            &BodyDef::kinematic()
                .at(Vec2::new(12.0, 3.0))
                .with_velocity(Vec2::new(0.0, 1.5)),
        )
        .expect("finite");
    world
        .create_shape(
            lift,
            Polygon::new_box(1.5, 0.15).expect("a box"),
            &ShapeDef::default(),
        )
        .expect("valid");
    // Coins: sensors on the ground, on the platforms and over the lift.
    let coin = ShapeDef {
        sensor: true,
        ..ShapeDef::default()
    };
    let mut coins = Vec::new();
    for at in [
        (-14.0, 4.0),
        (-8.0, 5.5),
        (-3.0, 7.5),
        (4.0, 6.0),
        (12.0, 10.5),
        (20.0, 4.0),
    ] {
        let b = world.create_body(&BodyDef::static_body()).expect("finite");
        let c = Circle::new(Vec2::new(at.0, at.1), 0.3).expect("a circle");
        coins.push(world.create_shape(b, c, &coin).expect("valid"));
    }
    // Crates that report hard landings.
    let crate_def = ShapeDef {
        hit_events: true,
        ..ShapeDef::default()
    };
    for k in 0..6 {
        let b = world
            .create_body(&BodyDef::dynamic().at(Vec2::new(-20.0 + 1.3 * k as f32, 6.0 + 1.5 * k as f32)))
            .expect("finite");
        world
            .create_shape(b, Polygon::new_box(0.4, 0.4).expect("a box"), &crate_def)
            .expect("valid");
    }
    let capsule = Capsule::new(Vec2::new(0.0, -0.45), Vec2::new(0.0, 0.45), 0.35).expect("a capsule");
    let character = world
        .create_body(&BodyDef::kinematic().at(Vec2::new(-24.0, 4.0)))
        .expect("finite");
    world
        .create_shape(character, capsule, &ShapeDef::default())
        .expect("valid");
    Game {
        kind: Kind::Platformer(Box::new(Platformer {
            character,
            shape: capsule.into(),
            controller: CharacterController {
                one_way: PLATFORM_CATEGORY,
                ..CharacterController::default()
            },
            fall: 0.0,
            coins,
            collected: 0,
            lift,
        })),
        flashes: Vec::new(),
        hooks,
    }
}

/// Balls poured through a funnel and three sensor zones below it.
pub fn sensors(world: &mut World) -> Game {
    let ground = world.create_body(&BodyDef::static_body()).expect("finite");
    let wall = ShapeDef::default();
    for (center, angle) in [(Vec2::new(-3.2, 9.0), -0.7f32), (Vec2::new(3.2, 9.0), 0.7)] {
        let p = Polygon::new_offset_box(3.0, 0.15, center, angle).expect("a box");
        world.create_shape(ground, p, &wall).expect("valid");
    }
    let zone = ShapeDef {
        sensor: true,
        ..ShapeDef::default()
    };
    let mut zones = Vec::new();
    for (k, y) in [6.0f32, 4.0, 2.0].into_iter().enumerate() {
        let half = Vec2::new(1.0 + 1.5 * k as f32, 0.6);
        let p = Polygon::new_offset_box(half.x, half.y, Vec2::new(0.0, y), 0.0).expect("a box");
        zones.push(world.create_shape(ground, p, &zone).expect("valid"));
    }
    for k in 0..80 {
        let at = Vec2::new(-3.5 + 0.5 * (k % 15) as f32, 13.0 + 0.55 * (k / 15) as f32);
        let b = world.create_body(&BodyDef::dynamic().at(at)).expect("finite");
        let c = Circle::new(Vec2::ZERO, 0.2).expect("a circle");
        world.create_shape(b, c, &ShapeDef::default()).expect("valid");
    }
    Game::of(Kind::Sensors(Sensors {
        entered: vec![0; zones.len()],
        zones,
    }))
}

/// Three groups of boxes dropped onto one another: each collides with the
/// ground and its own group and passes through the other two.
pub fn filtering(world: &mut World) -> Game {
    let colors = [0xe57373, 0x81c784, 0x64b5f6].map(|c| Color::hex(c).with_alpha(0.55));
    let mut shapes = Vec::new();
    for (g, color) in colors.into_iter().enumerate() {
        let category = 2u64 << g;
        let def = ShapeDef {
            filter: Filter {
                category,
                mask: category | 1,
                group: 0,
            },
            ..ShapeDef::default()
        };
        // A small pyramid per group, each shifted and turned a little, so
        // the three overlap wherever they land.
        let rows = 4;
        let mut k = 0;
        for row in 0..rows {
            for col in 0..rows - row {
                let x = -1.6 + 1.05 * col as f32 + 0.52 * row as f32 + 0.9 * g as f32;
                let at = Vec2::new(x, 0.6 + 1.05 * row as f32 + 2.5 * g as f32);
                let angle = 0.25 * (g as f32 - 1.0) + 0.05 * k as f32;
                k += 1;
                let b = world
                    .create_body(&BodyDef::dynamic().at(at).with_angle(angle))
                    .expect("finite");
                let shape = world.create_shape(b, Polygon::new_box(0.5, 0.5).expect("a box"), &def);
                shapes.push((shape.expect("valid"), color));
            }
        }
    }
    Game::of(Kind::Filtering(shapes))
}

/// The car scene: see [`crate::joints`].
pub fn car(world: &mut World, ground: BodyId) -> Game {
    Game::of(Kind::Car(crate::joints::car(world, ground)))
}

/// The scissor lift scene: see [`crate::joints`].
pub fn scissor_lift(world: &mut World, ground: BodyId) -> Game {
    Game::of(Kind::Lift(crate::joints::scissor_lift(world, ground)))
}

/// The breakable wall: see [`crate::joints`].
pub fn breakable(world: &mut World) -> Game {
    Game::of(Kind::Breakable(crate::joints::breakable(world)))
}

impl Game {
    fn of(kind: Kind) -> Game {
        Game {
            kind,
            flashes: Vec::new(),
            hooks: OneWayPlatforms::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{build, SceneName};

    /// Steps a game scene `steps` times with `input` as the testbed does.
    fn play(scene: &mut crate::Scene, steps: u32, input: impl Fn(u32) -> Input) {
        for k in 0..steps {
            let game = scene.game.as_mut().expect("a game scene");
            game.before_step(&mut scene.world, input(k));
            scene.world.step_with_hooks(DT, game.hooks());
            game.after_step(&mut scene.world);
        }
    }

    fn character_of(scene: &crate::Scene) -> (BodyId, u32) {
        match &scene.game.as_ref().unwrap().kind {
            Kind::Platformer(p) => (p.character, p.collected),
            _ => unreachable!("the platformer"),
        }
    }

    #[test]
    fn the_platformer_character_walks_the_hills_and_collects_a_coin() {
        let mut scene = build(SceneName::Platformer, tumble::SolverSettings::default());
        let (body, _) = character_of(&scene);
        let start = scene.world.position(body).unwrap();
        // Without the crates (the only dynamic bodies): they tumble down
        // the hills, and whether one comes to rest in the character's way
        // turns on the last bits of the contacts (one did, at x = -15,
        // when the fat boxes' look-ahead was capped). The next test walks
        // among them.
        let crates: Vec<BodyId> = scene
            .world
            .bodies()
            .filter(|&b| scene.world.body_type(b) == Ok(tumble::BodyType::Dynamic))
            .collect();
        assert_eq!(crates.len(), 6);
        for b in crates {
            scene.world.remove_body(b).unwrap();
        }
        // Right for 4 s, jumping every second up the first hill, then
        // walking on through the coin on the ground at x = -14.
        for k in 0..240 {
            let x = scene.world.position(body).unwrap().x;
            play(&mut scene, 1, |_| Input {
                right: true,
                jump: k % 60 == 30 && x < -17.0,
                ..Input::default()
            });
        }
        let (_, collected) = character_of(&scene);
        let p = scene.world.position(body).unwrap();
        assert!(p.x > start.x + 12.0, "walked right: {start:?} -> {p:?}");
        assert!(p.y > 0.5, "stayed on the terrain: {p:?}");
        assert!(collected >= 1, "collected {collected} coins");
        let status = scene.game.as_ref().unwrap().status();
        assert!(status[0].1.starts_with(&collected.to_string()), "{status:?}");
    }

    #[test]
    fn the_platformer_character_jumps_up_through_a_platform_and_lands_on_it() {
        let mut scene = build(SceneName::Platformer, tumble::SolverSettings::default());
        let (body, _) = character_of(&scene);
        // Under the platform at (-8, 4.5) (its top at 4.6), head already
        // in it, jumping.
        scene
            .world
            .set_transform(body, Vec2::new(-8.0, 3.9), 0.0)
            .unwrap();
        if let Kind::Platformer(p) = &mut scene.game.as_mut().unwrap().kind {
            p.fall = JUMP_SPEED;
        }
        play(&mut scene, 90, |_| Input::default());
        let p = scene.world.position(body).unwrap();
        // Standing on top: feet (0.8 below the center) a skin above it.
        assert!((p.y - 0.8 - 4.6).abs() < 0.03, "on the platform: {p:?}");
    }

    #[test]
    fn the_platformer_keeps_its_character_in_the_level_with_sleeping_on() {
        let mut scene = build(SceneName::Platformer, tumble::SolverSettings::default());
        scene.world.set_sleeping(true);
        let (body, _) = character_of(&scene);
        // Walk right, stand, walk left, jumping now and then, for 40 s.
        play(&mut scene, 2400, |k| Input {
            right: (k / 400) % 3 == 0,
            left: (k / 400) % 3 == 2,
            jump: k % 97 == 0,
        });
        let p = scene.world.position(body).unwrap();
        assert!(p.x.abs() < 30.0 && p.y > 0.0 && p.y < 20.0, "in the level: {p:?}");
        assert!(scene.world.frozen_bodies().is_empty());
    }

    #[test]
    fn the_sensor_zones_count_the_balls_poured_through_them() {
        let mut scene = build(SceneName::Sensors, tumble::SolverSettings::default());
        play(&mut scene, 300, |_| Input::default());
        let Kind::Sensors(s) = &scene.game.as_ref().unwrap().kind else {
            unreachable!()
        };
        assert!(
            s.entered.iter().all(|&n| n >= 5),
            "every zone saw balls: {:?}",
            s.entered
        );
    }

    #[test]
    fn the_filtering_groups_touch_only_their_own_and_the_ground() {
        let mut scene = build(SceneName::Filtering, tumble::SolverSettings::default());
        play(&mut scene, 200, |_| Input::default());
        let w = &scene.world;
        let mut touching = 0;
        for c in w.contacts() {
            let (fa, fb) = (w.filter(c.shape_a).unwrap(), w.filter(c.shape_b).unwrap());
            let ground = fa.category == 1 || fb.category == 1;
            assert!(ground || fa.category == fb.category, "{fa:?} touches {fb:?}");
            touching += 1;
        }
        assert!(
            touching > 20,
            "the groups are resting on something: {touching} contacts"
        );
    }
}
