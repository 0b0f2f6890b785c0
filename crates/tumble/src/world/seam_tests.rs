//! Seams in the world: a floor of tiles is as flat to slide and roll over
//! as one long box, whether the tiles are shapes of one body or static
//! bodies of their own; a wall or corner made of the same tiles still
//! stops what hits it; removing, moving or disabling a tile gives its
//! neighbours their outer edges back; and, over random layouts, what the
//! seams change never hides an overlap nor leaves a ghost on a flat floor.

use super::tests::DT;
use super::*;
use crate::body::{BodyDef, BodyType};
use crate::collision::{collide, Manifold};
use crate::math::{cross, Transform};
use crate::settings::{LINEAR_SLOP, SIN_TOLERANCE, SPECULATIVE_DISTANCE};
use crate::shapes::{Capsule, Circle, Polygon, Shape, ShapeDef};

/// A box's edges run bottom, right, top, left.
const RIGHT: usize = 1;
const TOP: usize = 2;
const LEFT: usize = 3;

/// The sliding box's speed, m/s, and how long it slides, s.
const SPEED: f32 = 8.0;
const SLIDE_TIME: f32 = 4.0;

/// A world whose smooth seams are `on`.
fn world_with_seams(on: bool) -> World {
    World::new(WorldSettings {
        smooth_seams: on,
        ..WorldSettings::default()
    })
}

fn material(friction: f32) -> ShapeDef {
    ShapeDef {
        friction,
        ..ShapeDef::default()
    }
}

/// A 1 m tile whose center is at (`x`, `y`).
fn tile_at(x: f32, y: f32) -> Polygon {
    Polygon::new_offset_box(0.5, 0.5, Vec2::new(x, y), 0.0).unwrap()
}

/// Tiles centered at (x + 0.5, y - 0.5) for each `(x, y)` of `cells`
/// (their tops on y, from x to x + 1): shapes of one static body
/// (`one_body`), or static bodies of their own.
fn tiles(world: &mut World, cells: &[(f32, f32)], one_body: bool, def: &ShapeDef) -> Vec<ShapeId> {
    let map = world.create_body(&BodyDef::static_body()).unwrap();
    cells
        .iter()
        .map(|&(x, y)| {
            if one_body {
                world.create_shape(map, tile_at(x + 0.5, y - 0.5), def).unwrap()
            } else {
                let at = Vec2::new(x + 0.5, y - 0.5);
                let b = world.create_body(&BodyDef::static_body().at(at)).unwrap();
                world
                    .create_shape(b, Polygon::new_box(0.5, 0.5).unwrap(), def)
                    .unwrap()
            }
        })
        .collect()
}

/// A row of `n` tiles with their tops on y = 0 from x = 0 to n.
fn floor_cells(n: usize) -> Vec<(f32, f32)> {
    (0..n).map(|i| (i as f32, 0.0)).collect()
}

/// A dynamic body at `at` moving at `velocity` with one shape.
fn thrown(world: &mut World, at: Vec2, velocity: Vec2, shape: impl Into<Shape>, def: &ShapeDef) -> BodyId {
    let b = world
        .create_body(&BodyDef::dynamic().at(at).with_velocity(velocity))
        .unwrap();
    world.create_shape(b, shape, def).unwrap();
    b
}

/// How a body slid: the largest |vy| and |w| at the end of any step, and
/// how far its center moved along x.
#[derive(Debug)]
struct Slide {
    vy: f32,
    w: f32,
    distance: f32,
}

/// Steps `world` for `seconds` and measures how `body` slid.
fn slide_for(world: &mut World, body: BodyId, seconds: f32) -> Slide {
    let start = world.center_of_mass(body).unwrap();
    let (mut vy, mut w) = (0.0f32, 0.0f32);
    for _ in 0..(seconds / DT).round() as usize {
        world.step(DT);
        vy = vy.max(world.linear_velocity(body).unwrap().y.abs());
        w = w.max(world.angular_velocity(body).unwrap().abs());
    }
    let distance = world.center_of_mass(body).unwrap().x - start.x;
    Slide { vy, w, distance }
}

/// A 1 m box resting on the first tile of a 40-tile floor (its sides
/// over the tile's), sliding at [`SPEED`] with no friction for
/// [`SLIDE_TIME`].
fn slide_over_tiles(smooth: bool, one_body: bool) -> Slide {
    slide_box_over_tiles((smooth, one_body), 0.5, Vec2::new(0.5, 0.5))
}

/// A box of half-width `half` starting at `start` on a 40-tile floor
/// (`smooth` seams or not, the tiles of `one_body` or each its own),
/// sliding at [`SPEED`] with no friction for [`SLIDE_TIME`].
fn slide_box_over_tiles((smooth, one_body): (bool, bool), half: f32, start: Vec2) -> Slide {
    let mut world = world_with_seams(smooth);
    tiles(&mut world, &floor_cells(40), one_body, &material(0.0));
    let b = thrown(
        &mut world,
        start,
        Vec2::new(SPEED, 0.0),
        Polygon::new_box(half, half).unwrap(),
        &material(0.0),
    );
    slide_for(&mut world, b, SLIDE_TIME)
}

/// The box slid over the tiles (of one body, or a static body each):
/// with smooth seams it slides on at its speed and never rises; with
/// the seams' edges collided as they stand, the same floor catches it
/// (the scene does see a ghost collision). Returns the smooth slide.
fn flat_with_seams_caught_without(one_body: bool) -> Slide {
    let flat = slide_over_tiles(true, one_body);
    assert!(flat.vy < 0.1, "{flat:?}");
    assert!((flat.distance - SPEED * SLIDE_TIME).abs() < 0.01, "{flat:?}");
    let ghost = slide_over_tiles(false, one_body);
    assert!(
        ghost.vy > 0.1 && ghost.distance < 0.5 * SPEED * SLIDE_TIME,
        "{ghost:?}"
    );
    flat
}

#[test]
fn a_box_slides_over_a_tile_map_as_over_one_long_box() {
    // Nothing acts along x: the box slides on at its speed, and never
    // rises nor turns.
    let flat = flat_with_seams_caught_without(true);
    assert!(flat.w < 0.1, "{flat:?}");
}

#[test]
fn separate_static_tiles_are_as_flat_as_the_shapes_of_one_body() {
    flat_with_seams_caught_without(false);
}

#[test]
fn friction_over_the_tiles_is_friction_over_one_box() {
    // A box sliding at 8 m/s with friction 0.3 slows at mu g, the same
    // over 40 tiles as over one box 40 m long.
    let friction = 0.3;
    let run = |one_long_box: bool| {
        let mut world = World::default();
        if one_long_box {
            let ground = world
                .create_body(&BodyDef::static_body().at(Vec2::new(20.0, -0.5)))
                .unwrap();
            let long = Polygon::new_box(20.0, 0.5).unwrap();
            world.create_shape(ground, long, &material(friction)).unwrap();
        } else {
            tiles(&mut world, &floor_cells(40), true, &material(friction));
        }
        let b = thrown(
            &mut world,
            Vec2::new(1.0, 0.5),
            Vec2::new(SPEED, 0.0),
            Polygon::new_box(0.5, 0.5).unwrap(),
            &material(friction),
        );
        let slide = slide_for(&mut world, b, 2.0);
        (slide, world.linear_velocity(b).unwrap().x)
    };
    let (tiled, v_tiled) = run(false);
    let (_, v_long) = run(true);
    assert!(tiled.vy < 0.1 && tiled.w < 0.1, "{tiled:?}");
    assert!(
        (v_tiled - v_long).abs() < 0.01,
        "{v_tiled} over tiles, {v_long} over one box"
    );
    let coulomb = SPEED - friction * 10.0 * 2.0;
    assert!((v_long - coulomb).abs() < 0.05, "{v_long} against {coulomb}");
}

#[test]
fn tiles_laid_slightly_out_of_line_are_still_flat() {
    // Each tile off its place by up to a quarter millimetre up or down and
    // a millimetre along: within the seams' tolerance. A box rising over
    // a step of h in one step moves up at h / dt (15 mm/s for 0.25 mm),
    // far under the 0.1 m/s of a ghost's kick.
    let mut world = World::default();
    let map = world.create_body(&BodyDef::static_body()).unwrap();
    let mut rng = crate::test_rng::Rng(7);
    for i in 0..40 {
        let at = Vec2::new(
            i as f32 + 0.5 + rng.range(-0.001, 0.001),
            -0.5 + rng.range(-0.00025, 0.00025),
        );
        let tile = Polygon::new_offset_box(0.5, 0.5, at, 0.0).unwrap();
        world.create_shape(map, tile, &material(0.0)).unwrap();
    }
    let b = thrown(
        &mut world,
        Vec2::new(1.0, 0.5),
        Vec2::new(SPEED, 0.0),
        Polygon::new_box(0.5, 0.5).unwrap(),
        &material(0.0),
    );
    let slide = slide_for(&mut world, b, SLIDE_TIME);
    assert!(slide.vy < 0.1, "{slide:?}");
    assert!((slide.distance - SPEED * SLIDE_TIME).abs() < 0.05, "{slide:?}");
}

#[test]
fn a_ball_rolls_over_the_seams_as_over_one_long_box() {
    // A ball rolling at 6 m/s along the tiles follows, step for step, the
    // path it rolls along one box 40 m long: no hop at a seam, no speed
    // lost to one.
    let roll = |one_long_box: bool| {
        let mut world = World::default();
        if one_long_box {
            let ground = world
                .create_body(&BodyDef::static_body().at(Vec2::new(20.0, -0.5)))
                .unwrap();
            let long = Polygon::new_box(20.0, 0.5).unwrap();
            world.create_shape(ground, long, &material(0.6)).unwrap();
        } else {
            tiles(&mut world, &floor_cells(40), true, &material(0.6));
        }
        let ball = thrown(
            &mut world,
            Vec2::new(1.0, 0.4),
            Vec2::new(6.0, 0.0),
            Circle::new(Vec2::ZERO, 0.4).unwrap(),
            &material(0.6),
        );
        // Rolling from the start: w = -v / r.
        world.set_angular_velocity(ball, -6.0 / 0.4).unwrap();
        (0..240)
            .map(|_| {
                world.step(DT);
                (
                    world.position(ball).unwrap(),
                    world.linear_velocity(ball).unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let (tiled, long) = (roll(false), roll(true));
    // Handed from tile to tile, the ball's contact starts afresh at each
    // seam: it moves by less than half the slop the engine lets a contact
    // sink, where a ghost would throw it centimetres up.
    for (k, ((p, _), (q, _))) in tiled.iter().zip(&long).enumerate() {
        assert!(
            (p.y - q.y).abs() < 0.5 * LINEAR_SLOP,
            "step {k}: at {p} over the tiles, {q} over one box"
        );
    }
    let (v, u) = (tiled[239].1, long[239].1);
    assert!(
        (v.x - u.x).abs() < 0.01 * u.x,
        "{v} over the tiles, {u} over one box"
    );
}

#[test]
fn a_box_dropped_onto_a_seam_lands_on_the_floors_normal() {
    // Dropped from 2 m, square or tilted a little, centered on a seam or
    // with a side a few millimetres either side of one: every contact
    // with the tiles pushes straight up (within the turn a kept contact
    // may take, see `ManifoldCache`), and the box comes to rest square
    // within three seconds.
    let drop = |smooth: bool, offset: f32, tilt: f32| {
        let mut world = world_with_seams(smooth);
        tiles(&mut world, &floor_cells(10), true, &ShapeDef::default());
        let def = BodyDef::dynamic()
            .at(Vec2::new(5.0 + offset, 2.5))
            .with_angle(tilt);
        let b = world.create_body(&def).unwrap();
        let square = Polygon::new_box(0.5, 0.5).unwrap();
        world.create_shape(b, square, &ShapeDef::default()).unwrap();
        let mut upright = 1.0f32;
        // (Three seconds: landing 2 cm from a seam, both tiles' points at
        // the seam share the corner's impulse and the box rocks for two.)
        for _ in 0..180 {
            world.step(DT);
            for c in world.body_contacts(b).unwrap() {
                if c.manifold.count > 0 {
                    upright = upright.min(c.manifold.normal.y.abs());
                }
            }
        }
        (upright, world.position(b).unwrap(), world.angle(b).unwrap())
    };
    let two_degrees = 2.0f32.to_radians().cos();
    let mut ghosts = 0;
    for offset in [-0.503, -0.497, 0.0, 0.02, 0.497, 0.503] {
        for tilt in [-0.05, 0.0, 0.05] {
            let (upright, p, angle) = drop(true, offset, tilt);
            assert!(
                upright > two_degrees,
                "offset {offset}, tilt {tilt}: |ny| {upright}"
            );
            assert!(
                (p.y - 0.5).abs() < LINEAR_SLOP && angle.abs() < 1e-3,
                "offset {offset}, tilt {tilt}: {p} {angle}"
            );
            ghosts += usize::from(drop(false, offset, tilt).0 < 0.5);
        }
    }
    // Without seams, a side landing by a seam meets the next tile's side.
    assert!(ghosts > 0);
}

/// A floor of 20 tiles and a wall two tiles wide and four high standing on
/// its tiles 10 and 11, all shapes of one static body: the wall's face at
/// x = 10 meets the floor in a valley.
fn floor_and_wall(world: &mut World, def: &ShapeDef) -> Vec<ShapeId> {
    let mut cells = floor_cells(20);
    for row in 1..=4 {
        cells.push((10.0, row as f32));
        cells.push((11.0, row as f32));
    }
    tiles(world, &cells, true, def)
}

#[test]
fn a_wall_of_the_same_body_still_stops_a_box() {
    let mut world = World::default();
    let ids = floor_and_wall(&mut world, &material(0.0));
    // The wall's face is outer where it rises above the floor, and its
    // bottom tile sits on a floor tile: that seam is buried.
    assert_eq!(world.seam_edges(ids[20]).unwrap(), [0, RIGHT, TOP]);
    assert_eq!(world.seam_edges(ids[10]).unwrap(), [RIGHT, TOP, LEFT]);
    let b = thrown(
        &mut world,
        Vec2::new(4.0, 0.5),
        Vec2::new(SPEED, 0.0),
        Polygon::new_box(0.5, 0.5).unwrap(),
        &material(0.0),
    );
    for _ in 0..120 {
        world.step(DT);
        let p = world.position(b).unwrap();
        // Never into the wall, never lifted over its foot.
        assert!(p.x <= 9.5 + LINEAR_SLOP, "{p}");
        assert!((p.y - 0.5).abs() < 2.0 * LINEAR_SLOP, "{p}");
    }
    // Stopped against it (a hit without bounce).
    let v = world.linear_velocity(b).unwrap();
    assert!(v.x.abs() < 0.05, "{v}");
    assert!((world.position(b).unwrap().x - 9.5).abs() < 2.0 * LINEAR_SLOP);
}

#[test]
fn a_ball_in_the_corner_of_floor_and_wall_rests_in_it() {
    // Pushed into the valley where the floor meets the wall, a ball is
    // held by both: the corner pushes back as a corner does.
    let mut world = World::default();
    floor_and_wall(&mut world, &ShapeDef::default());
    let ball = thrown(
        &mut world,
        Vec2::new(8.0, 0.5),
        Vec2::new(6.0, 0.0),
        Circle::new(Vec2::ZERO, 0.5).unwrap(),
        &ShapeDef::default(),
    );
    for _ in 0..180 {
        world.step(DT);
        world.apply_force_to_center(ball, Vec2::new(30.0, 0.0)).unwrap();
    }
    let p = world.position(ball).unwrap();
    assert!((p.x - 9.5).abs() < 2.0 * LINEAR_SLOP, "{p}");
    assert!((p.y - 0.5).abs() < 2.0 * LINEAR_SLOP, "{p}");
}

/// Two rows of 12 tiles, the top row's tops on y = 0 (tiles 0..12) over
/// the bottom row (12..24), of one static body or each its own.
fn two_rows(world: &mut World, one_body: bool) -> Vec<ShapeId> {
    let mut cells = floor_cells(12);
    cells.extend((0..12).map(|i| (i as f32, -1.0)));
    tiles(world, &cells, one_body, &ShapeDef::default())
}

/// Throws a small box from the pit where tile 5 of [`two_rows`]' top row
/// was (or lets bodies through) at the pit's right wall, the side of tile
/// 6, and checks at each of 90 steps that the wall holds it in the pit.
fn the_pit_wall_stops_a_box(world: &mut World, label: &str) -> BodyId {
    let b = thrown(
        world,
        Vec2::new(5.5, -0.7),
        Vec2::new(4.0, 0.0),
        Polygon::new_box(0.25, 0.25).unwrap(),
        &material(0.0),
    );
    for _ in 0..90 {
        world.step(DT);
        let p = world.position(b).unwrap();
        assert!(p.x <= 6.0 - 0.25 + LINEAR_SLOP && p.y < 0.0, "{label}: {p}");
    }
    b
}

#[test]
fn removing_a_tile_gives_its_neighbours_their_edges_back() {
    // Two rows of tiles; taking out tile 5 of the top row leaves a pit
    // 1 m deep whose walls are the sides of tiles 4 and 6 and whose floor
    // is the top of the tile under it.
    for one_body in [true, false] {
        let mut world = World::default();
        let ids = two_rows(&mut world, one_body);
        let (left, pit, right, under) = (ids[4], ids[5], ids[6], ids[17]);
        assert_eq!(world.seam_edges(left).unwrap(), [0, RIGHT, LEFT]);
        assert_eq!(world.seam_edges(under).unwrap(), [RIGHT, TOP, LEFT]);
        world.remove_shape(pit).unwrap();
        assert_eq!(world.seam_edges(left).unwrap(), [0, LEFT]);
        assert_eq!(world.seam_edges(right).unwrap(), [0, RIGHT]);
        assert_eq!(world.seam_edges(under).unwrap(), [RIGHT, LEFT]);
        // A small box dropped in and thrown at the pit's wall stays in
        // the pit, stopped by the wall: the wall's face is a face again.
        let b = the_pit_wall_stops_a_box(&mut world, &format!("one body {one_body}"));
        // Put back, it is a seam again.
        if one_body {
            world.remove_body(b).unwrap();
            let map = world.shape_body(left).unwrap();
            let back = world
                .create_shape(map, tile_at(5.5, -0.5), &ShapeDef::default())
                .unwrap();
            assert_eq!(world.seam_edges(back).unwrap(), [0, RIGHT, LEFT]);
            assert_eq!(world.seam_edges(left).unwrap(), [0, RIGHT, LEFT]);
        }
    }
}

#[test]
fn a_tile_that_lets_a_body_through_hides_no_edge_of_its_neighbour() {
    // Two rows of tiles, tile 5 of the top row in a category the small
    // box passes through: its neighbours' sides are walls to the box.
    use crate::filter::Filter;
    let mut world = World::default();
    let ids = two_rows(&mut world, true);
    let (left, pass, right) = (ids[4], ids[5], ids[6]);
    let passable = Filter {
        category: 2,
        mask: !1,
        ..Filter::default()
    };
    world.set_filter(pass, passable).unwrap();
    assert_eq!(world.seam_edges(left).unwrap(), [0, LEFT]);
    assert_eq!(world.seam_edges(right).unwrap(), [0, RIGHT]);
    assert!(world.seam_edges(pass).unwrap().is_empty());
    the_pit_wall_stops_a_box(&mut world, "passable tile");
    // Solid again, it welds again.
    world.set_filter(pass, Filter::default()).unwrap();
    assert_eq!(world.seam_edges(left).unwrap(), [0, RIGHT, LEFT]);
}

#[test]
fn a_static_tile_moved_disabled_or_set_moving_opens_its_seams() {
    let mut world = World::default();
    let ids = tiles(&mut world, &floor_cells(3), false, &ShapeDef::default());
    let middle = world.shape_body(ids[1]).unwrap();
    assert_eq!(world.seam_edges(ids[0]).unwrap(), [RIGHT]);
    assert_eq!(world.seam_edges(ids[1]).unwrap(), [RIGHT, LEFT]);
    world.set_transform(middle, Vec2::new(1.5, 3.0), 0.0).unwrap();
    assert!(world.seam_edges(ids[0]).unwrap().is_empty());
    assert!(world.seam_edges(ids[1]).unwrap().is_empty());
    world.set_transform(middle, Vec2::new(1.5, -0.5), 0.0).unwrap();
    assert_eq!(world.seam_edges(ids[2]).unwrap(), [LEFT]);
    world.set_enabled(middle, false).unwrap();
    assert!(world.seam_edges(ids[2]).unwrap().is_empty());
    world.set_enabled(middle, true).unwrap();
    assert_eq!(world.seam_edges(ids[1]).unwrap(), [RIGHT, LEFT]);
    world.set_body_type(middle, BodyType::Kinematic).unwrap();
    assert!(world.seam_edges(ids[0]).unwrap().is_empty());
    assert!(world.seam_edges(ids[1]).unwrap().is_empty());
    world.set_body_type(middle, BodyType::Static).unwrap();
    assert_eq!(world.seam_edges(ids[0]).unwrap(), [RIGHT]);
    world.remove_body(middle).unwrap();
    assert!(world.seam_edges(ids[0]).unwrap().is_empty());
    assert!(world.seam_edges(ids[2]).unwrap().is_empty());
}

#[test]
fn smooth_seams_switch_off_and_on_at_run_time() {
    let mut world = World::default();
    let ids = tiles(&mut world, &floor_cells(3), true, &ShapeDef::default());
    world.set_smooth_seams(false);
    assert!(ids.iter().all(|&s| world.seam_edges(s).unwrap().is_empty()));
    world.set_smooth_seams(true);
    assert_eq!(world.seam_edges(ids[1]).unwrap(), [RIGHT, LEFT]);
    // Sensors and other kinds of shapes weld to nothing.
    let map = world.shape_body(ids[0]).unwrap();
    let sensor = ShapeDef {
        sensor: true,
        ..ShapeDef::default()
    };
    let s = world.create_shape(map, tile_at(3.5, -0.5), &sensor).unwrap();
    assert!(world.seam_edges(s).unwrap().is_empty());
    assert_eq!(world.seam_edges(ids[2]).unwrap(), [LEFT]);
}

#[test]
fn a_concave_outline_has_the_seams_and_mass_of_its_parts_attached_one_by_one() {
    // An outline's parts are attached together and their body settled
    // once; the seams (the parts' shared diagonals, and where a static
    // outline meets a tile beside it) and the mass must be those of
    // attaching the parts one at a time.
    let comb: Vec<Vec2> = (0..12)
        .flat_map(|i| {
            let x = i as f32;
            [
                Vec2::new(x, 1.0),
                Vec2::new(x + 0.5, 1.0),
                Vec2::new(x + 0.5, 0.4),
                Vec2::new(x + 1.0, 0.4),
            ]
        })
        .chain([Vec2::new(12.0, 0.0), Vec2::new(0.0, 0.0)])
        .rev()
        .collect();
    for body in [BodyDef::static_body(), BodyDef::default().at(Vec2::new(0.0, 3.0))] {
        let mut world = World::default();
        let mut apart = World::default();
        let at_once = world.create_body(&body).unwrap();
        let one_by_one = apart.create_body(&body).unwrap();
        let def = ShapeDef::default();
        let tile = tile_at(-0.5, 0.5);
        world.create_shape(at_once, tile, &def).unwrap();
        apart.create_shape(one_by_one, tile, &def).unwrap();
        let parts = world.create_concave(at_once, &comb, &def).unwrap();
        assert!(parts.len() >= 12, "{} parts", parts.len());
        let alone: Vec<ShapeId> = parts
            .iter()
            .map(|&id| {
                apart
                    .create_shape(one_by_one, *world.shape(id).unwrap(), &def)
                    .unwrap()
            })
            .collect();
        let mut seamed = 0;
        for (&id, &other) in parts.iter().zip(&alone) {
            seamed += usize::from(!world.seam_edges(id).unwrap().is_empty());
            assert_eq!(world.seam_edges(id).unwrap(), apart.seam_edges(other).unwrap());
        }
        assert_eq!(seamed, parts.len(), "every part meets another along a diagonal");
        let first = world.body_shapes(at_once).unwrap()[0];
        let first_apart = apart.body_shapes(one_by_one).unwrap()[0];
        assert_eq!(
            world.seam_edges(first).unwrap(),
            apart.seam_edges(first_apart).unwrap()
        );
        assert!(
            !world.seam_edges(first).unwrap().is_empty(),
            "the tile welds to the outline"
        );
        let m = world.mass_data(at_once).unwrap().mass;
        let n = apart.mass_data(one_by_one).unwrap().mass;
        assert!((m - n).abs() <= 1e-5 * n, "{m} against {n}");
    }
}

#[test]
fn a_moving_compound_of_tiles_slides_over_a_tile_floor() {
    // Both sides have seams: a dynamic body of two half boxes side by
    // side, sliding over the tiles.
    let mut world = World::default();
    tiles(&mut world, &floor_cells(40), true, &material(0.0));
    let b = world
        .create_body(
            &BodyDef::dynamic()
                .at(Vec2::new(1.0, 0.5))
                .with_velocity(Vec2::new(SPEED, 0.0)),
        )
        .unwrap();
    let halves: Vec<ShapeId> = [-0.25, 0.25]
        .into_iter()
        .map(|x| {
            let half = Polygon::new_offset_box(0.25, 0.5, Vec2::new(x, 0.0), 0.0).unwrap();
            world.create_shape(b, half, &material(0.0)).unwrap()
        })
        .collect();
    assert_eq!(world.seam_edges(halves[0]).unwrap(), [RIGHT]);
    assert_eq!(world.seam_edges(halves[1]).unwrap(), [LEFT]);
    let slide = slide_for(&mut world, b, SLIDE_TIME);
    assert!(slide.vy < 0.1 && slide.w < 0.1, "{slide:?}");
    assert!((slide.distance - SPEED * SLIDE_TIME).abs() < 0.01, "{slide:?}");
}

#[test]
fn a_small_fast_box_is_not_swept_to_a_stop_at_each_seam() {
    // A 0.2 m box at 8 m/s moves more than half its size a step, so
    // continuous collision sweeps it against the tiles, meeting at each
    // seam the corner of the tile ahead: the surface there is flat.
    let slide = |smooth: bool| slide_box_over_tiles((smooth, true), 0.1, Vec2::new(1.0, 0.1));
    let flat = slide(true);
    assert!(flat.vy < 0.1 && flat.w < 0.1, "{flat:?}");
    assert!((flat.distance - SPEED * SLIDE_TIME).abs() < 0.01, "{flat:?}");
    let ghost = slide(false);
    assert!(ghost.distance < 0.95 * SPEED * SLIDE_TIME, "{ghost:?}");
}

#[test]
fn a_fast_shot_at_a_seam_does_not_pass_through_the_floor() {
    // Small and fast, aimed down through the seam's corner at a slant:
    // the surface there is flat, and still solid.
    for (angle, offset) in [(-45.0f32, 0.0f32), (-60.0, 0.01), (-30.0, -0.01), (-89.0, 0.0)] {
        for shape in [
            Shape::Circle(Circle::new(Vec2::ZERO, 0.05).unwrap()),
            Shape::Polygon(Polygon::new_box(0.05, 0.05).unwrap()),
        ] {
            let mut world = World::default();
            tiles(&mut world, &floor_cells(40), true, &ShapeDef::default());
            let direction = Vec2::from_angle(angle.to_radians());
            let start = Vec2::new(5.0 + offset, 0.0) - 1.5 * direction;
            let b = thrown(&mut world, start, 100.0 * direction, shape, &ShapeDef::default());
            // Until it skids off the floor's far end.
            for _ in 0..20 {
                world.step(DT);
                let p = world.position(b).unwrap();
                assert!(p.y > 0.0, "{angle} deg at {offset}: {shape:?} went to {p}");
            }
        }
    }
}

/// The manifolds of `shape` at `xf` against each tile of `tiles` (polygons
/// in the frame of a static body at the origin), as the world's collide
/// stage finds them: each tile judged against the seams it has among the
/// others when `smooth`.
fn manifolds_against(tiles: &[Polygon], shape: &Shape, xf: Transform, smooth: bool) -> Vec<Manifold> {
    let mut world = world_with_seams(smooth);
    let map = world.create_body(&BodyDef::static_body()).unwrap();
    let ids: Vec<ShapeId> = tiles
        .iter()
        .map(|&t| world.create_shape(map, t, &ShapeDef::default()).unwrap())
        .collect();
    ids.iter()
        .zip(tiles)
        .map(|(&id, &tile)| {
            let seams = world.seams.of(world.shape_index(id).unwrap());
            let tile = Shape::Polygon(tile);
            crate::collision::collide_across_seams(
                (&tile, seams, Transform::IDENTITY),
                (shape, None, xf),
                SPECULATIVE_DISTANCE,
            )
            .0
        })
        .collect()
}

mod properties {
    use super::*;
    use crate::collision::shape_distance;
    use proptest::prelude::*;

    fn float(low: f32, high: f32) -> impl Strategy<Value = f32> {
        const STEPS: u32 = 1 << 20;
        (0..STEPS).prop_map(move |k| low + (high - low) * (k as f32 / STEPS as f32))
    }

    /// A convex polygon, capsule or circle about 0.2 to 1.2 m across,
    /// about its origin.
    fn body_shape() -> impl Strategy<Value = Shape> {
        let polygon = (3usize..=8, float(0.1, 0.6), float(0.0, 1.0), float(0.5, 1.0)).prop_filter_map(
            "not a valid polygon",
            |(n, r, turn, squash)| {
                let points: Vec<Vec2> = (0..n)
                    .map(|i| {
                        let a = (i as f32 + turn) / n as f32 * std::f32::consts::TAU;
                        Vec2::new(r * a.cos(), squash * r * a.sin())
                    })
                    .collect();
                Polygon::new(&points).ok().map(Shape::Polygon)
            },
        );
        let capsule = (float(0.05, 0.4), float(0.05, 0.3)).prop_map(|(h, r)| {
            Shape::Capsule(Capsule::new(Vec2::new(-h, 0.0), Vec2::new(h, 0.0), r).unwrap())
        });
        let circle = float(0.1, 0.5).prop_map(|r| Shape::Circle(Circle::new(Vec2::ZERO, r).unwrap()));
        prop_oneof![3 => polygon, 1 => capsule, 1 => circle]
    }

    /// The lowest point of `shape` turned by `angle`, below its origin.
    fn depth_below(shape: &Shape, angle: f32) -> f32 {
        -shape.aabb(Transform::new(Vec2::ZERO, angle)).min.y
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// On a row of tiles, any shape touching or slightly sunk into
        /// the top (away from the row's ends) meets the floor's normal
        /// only: every point that touches pushes straight up.
        #[test]
        fn a_shape_on_a_flat_tile_floor_meets_only_the_floors_normal(
            shape in body_shape(),
            x in float(3.0, 7.0),
            angle in float(-3.2, 3.2),
            sunk in float(-0.01, 0.05),
        ) {
            let row: Vec<Polygon> = (0..10).map(|i| tile_at(i as f32 + 0.5, -0.5)).collect();
            let xf = Transform::new(Vec2::new(x, depth_below(&shape, angle) - sunk), angle);
            for m in manifolds_against(&row, &shape, xf, true) {
                for p in m.points().iter().filter(|p| p.separation <= 0.0) {
                    prop_assert!(
                        m.normal.dot(Vec2::Y) > 0.0 && cross(m.normal, Vec2::Y).abs() <= SIN_TOLERANCE,
                        "normal {} at {:?}", m.normal, p
                    );
                }
            }
        }

        /// Over random layouts of tiles (a 6 x 4 grid, each cell filled or
        /// not) and a shape among them that has come into them no deeper
        /// than the speculative distance (as the contacts keep a shape
        /// coming from outside), what the seams change never hides an
        /// overlap: the contacts with seams report at least as deep an
        /// overlap as the shape has with any one tile (less a slop), so
        /// nothing sinks through a seam. (Deeper, in a valley, the
        /// contacts without seams may push along a buried face, into the
        /// next tile: there is nothing to compare with.)
        #[test]
        fn seams_never_hide_an_overlap(
            cells in prop::collection::vec(any::<bool>(), 24),
            shape in body_shape(),
            (which, side, along) in (0usize..24, 0usize..4, float(0.0, 1.0)),
            sunk in float(-0.005, 0.02),
            angle in float(-3.2, 3.2),
        ) {
            let layout: Vec<Polygon> = cells
                .iter()
                .enumerate()
                .filter(|(_, &filled)| filled)
                .map(|(k, _)| tile_at((k % 6) as f32 + 0.5, (k / 6) as f32 + 0.5))
                .collect();
            prop_assume!(!layout.is_empty());
            // The shape laid against one side of one tile, sunk in by
            // `sunk` (or that far short of it).
            let tile = layout[which % layout.len()];
            let normal = [-Vec2::Y, Vec2::X, Vec2::Y, -Vec2::X][side];
            let on_side = tile.centroid + 0.5 * normal + (along - 0.5) * crate::math::left_perp(normal);
            let bounds = shape.aabb(Transform::new(Vec2::ZERO, angle));
            let reach = [bounds.max.y, -bounds.min.x, -bounds.min.y, bounds.max.x][side];
            let xf = Transform::new(on_side + (reach - sunk) * normal, angle);
            let overlap = layout
                .iter()
                .map(|t| -shape_distance(&Shape::Polygon(*t), &Transform::IDENTITY, &shape, &xf).distance)
                .fold(0.0f32, f32::max);
            prop_assume!(overlap <= SPECULATIVE_DISTANCE);
            let reported = manifolds_against(&layout, &shape, xf, true)
                .iter()
                .map(|m| m.max_depth())
                .fold(0.0f32, f32::max);
            prop_assert!(
                reported >= overlap - LINEAR_SLOP,
                "overlaps a tile {overlap} deep, the contacts report {reported}"
            );
        }
    }

    #[test]
    fn without_seams_a_shape_on_the_tile_floor_does_meet_a_ghost() {
        // The first property's control: a box a hair past a seam, a hair
        // sunk, meets the next tile's side when seams are off.
        let row: Vec<Polygon> = (0..10).map(|i| tile_at(i as f32 + 0.5, -0.5)).collect();
        let shape = Shape::Polygon(Polygon::new_box(0.5, 0.5).unwrap());
        let xf = Transform::new(Vec2::new(4.502, 0.49), 0.0);
        let ghost = |smooth| {
            manifolds_against(&row, &shape, xf, smooth)
                .iter()
                .any(|m| m.count > 0 && m.normal.dot(Vec2::Y) < 0.5)
        };
        assert!(ghost(false));
        assert!(!ghost(true));
        // The same pair collided alone, without seams, agrees.
        let alone = collide(&Shape::Polygon(row[5]), Transform::IDENTITY, &shape, xf, 0.0);
        assert!(alone.normal.dot(Vec2::Y) < 0.5, "{alone:?}");
    }
}
