//! Bad input, removal and freezing: every refusal is named and leaves the
//! world as it was, removed bodies leave nothing behind, and a frozen body
//! does not spread its trouble.

use super::*;
use crate::body::BodyDef;
use crate::error::Error;
use crate::math::Transform;
use crate::settings::MAX_POLYGON_VERTICES;
use crate::shapes::ShapeDef;
use crate::shapes::{Capsule, Circle, Polygon};
use crate::shapes::{MassData, Shape, ShapeError};

use super::tests::{ground, unit_box, DT};

/// A body's transform, velocities and mass.
type BodyState = (Transform, Vec2, f32, MassData);

/// Everything a refused call must leave alone, for before/after checks.
fn fingerprint(world: &World) -> (usize, usize, usize, Vec<BodyState>) {
    let bodies = world
        .bodies()
        .map(|b| {
            (
                world.transform(b).unwrap(),
                world.linear_velocity(b).unwrap(),
                world.angular_velocity(b).unwrap(),
                world.mass_data(b).unwrap(),
            )
        })
        .collect();
    (
        world.body_count(),
        world.shape_count(),
        world.contact_count(),
        bodies,
    )
}

/// The world's whole state as bytes (its snapshot, with the `serde`
/// feature; else the [`fingerprint`]), for the strictest before/after
/// check a refused call can be given.
pub(super) fn state_bytes(world: &World) -> Vec<u8> {
    #[cfg(feature = "serde")]
    {
        postcard::to_allocvec(world).unwrap()
    }
    #[cfg(not(feature = "serde"))]
    {
        format!("{:?}", fingerprint(world)).into_bytes()
    }
}

/// Shapes reaching farther from their body's origin than the world
/// extent are refused by every way of adding one; shapes at the extent,
/// and farther in a world of larger length units, are accepted.
#[test]
fn shapes_beyond_the_world_extent_are_refused() {
    use crate::settings::WORLD_EXTENT;
    use crate::shapes::Segment;
    let mut world = World::default();
    let fixed = world.create_body(&BodyDef::static_body()).unwrap();
    let b = world.create_body(&BodyDef::dynamic()).unwrap();
    world
        .create_shape(b, Circle::new(Vec2::ZERO, 0.5).unwrap(), &ShapeDef::default())
        .unwrap();
    world.step(DT);
    let before = state_bytes(&world);
    let too_far = Error::Shape(ShapeError::TooFar);
    let def = ShapeDef::default();
    // The issue's: a circle 3.4e38 m off its origin, a segment reaching
    // x = 3.4e38, on a static body; and the same on a dynamic one.
    for body in [fixed, b] {
        let far_circle = Circle::new(Vec2::new(3.4e38, 0.0), 1.0).unwrap();
        assert_eq!(world.create_shape(body, far_circle, &def), Err(too_far));
        let far_segment = Segment::new(Vec2::ZERO, Vec2::new(3.4e38, 0.0)).unwrap();
        assert_eq!(world.create_shape(body, far_segment, &def), Err(too_far));
        let past = Polygon::new_offset_box(1.0, 1.0, Vec2::new(0.0, -WORLD_EXTENT), 0.0).unwrap();
        assert_eq!(world.create_shape(body, past, &def), Err(too_far));
        let chain = [Vec2::ZERO, Vec2::X, Vec2::new(2.0 * WORLD_EXTENT, 1.0)];
        assert_eq!(world.create_chain(body, &chain, false, &def), Err(too_far));
        let outline = [
            Vec2::ZERO,
            Vec2::new(2.0 * WORLD_EXTENT, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 2.0),
        ];
        assert_eq!(world.create_concave(body, &outline, &def), Err(too_far));
    }
    assert_eq!(state_bytes(&world), before);
    assert!(ShapeError::TooFar.to_string().contains("world extent"));
    // At the extent, accepted.
    let edge = Circle::new(Vec2::new(WORLD_EXTENT - 1.0, 0.0), 1.0).unwrap();
    assert!(world.create_shape(fixed, edge, &def).is_ok());
    // The extent is in the world's length unit.
    let mut pixels = World::new(WorldSettings {
        length_units_per_meter: 100.0,
        ..WorldSettings::default()
    });
    let p = pixels.create_body(&BodyDef::static_body()).unwrap();
    let far = Circle::new(Vec2::new(50.0 * WORLD_EXTENT, 0.0), 1.0).unwrap();
    assert!(pixels.create_shape(p, far, &def).is_ok());
}

#[test]
fn hand_built_shapes_that_break_the_rules_are_refused_by_name() {
    let mut world = World::default();
    ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 0.5));
    world.step(DT);
    let before = fingerprint(&world);
    let def = ShapeDef::default();

    let negative = Circle {
        center: Vec2::ZERO,
        radius: -1.0,
    };
    assert_eq!(
        world.create_shape(b, negative, &def),
        Err(Error::Shape(ShapeError::NonPositiveRadius))
    );
    let nan_capsule = Capsule {
        center1: Vec2::ZERO,
        center2: Vec2::new(f32::NAN, 0.0),
        radius: 0.1,
    };
    assert_eq!(
        world.create_shape(b, nan_capsule, &def),
        Err(Error::Shape(ShapeError::NonFinite))
    );

    let square = Polygon::new_box(0.5, 0.5).unwrap();
    let too_many = Polygon {
        count: MAX_POLYGON_VERTICES + 1,
        ..square
    };
    assert_eq!(
        world.create_shape(b, too_many, &def),
        Err(Error::Shape(ShapeError::TooManyVertices))
    );
    let too_few = Polygon { count: 2, ..square };
    assert_eq!(
        world.create_shape(b, too_few, &def),
        Err(Error::Shape(ShapeError::TooFewPoints))
    );
    // Clockwise: the same corners in reverse order.
    let mut clockwise = square;
    clockwise.vertices[..4].reverse();
    assert_eq!(
        world.create_shape(b, clockwise, &def),
        Err(Error::Shape(ShapeError::NotConvex))
    );
    // Right corners, wrong normals.
    let mut bad_normals = square;
    bad_normals.normals[0] = -bad_normals.normals[0];
    assert_eq!(
        world.create_shape(b, bad_normals, &def),
        Err(Error::Shape(ShapeError::NotConvex))
    );

    // Valid geometry whose mass overflows f32 at this density.
    let dense = ShapeDef { density: 1e37, ..def };
    assert_eq!(
        world.create_shape(b, Polygon::new_box(10.0, 10.0).unwrap(), &dense),
        Err(Error::Shape(ShapeError::MassOverflow))
    );
    let huge_circle = Circle::new(Vec2::ZERO, 1e30).unwrap();
    assert_eq!(
        world.create_shape(b, huge_circle, &def),
        Err(Error::Shape(ShapeError::MassOverflow))
    );

    assert_eq!(fingerprint(&world), before);
}

#[test]
fn shape_constructors_refuse_sizes_that_overflow() {
    assert_eq!(
        Polygon::new_offset_box(1e30, 1e30, Vec2::ZERO, 0.3),
        Err(ShapeError::MassOverflow)
    );
    assert_eq!(
        Polygon::new_offset_box(1.0, 1.0, Vec2::new(f32::INFINITY, 0.0), 0.0),
        Err(ShapeError::NonFinite)
    );
    assert_eq!(
        Polygon::new_offset_box(-1.0, 1.0, Vec2::ZERO, 0.0),
        Err(ShapeError::Collinear)
    );
    let far = [
        Vec2::new(-3e19, -3e19),
        Vec2::new(3e19, -3e19),
        Vec2::new(0.0, 3e19),
    ];
    assert_eq!(Polygon::new(&far), Err(ShapeError::MassOverflow));
    // A 2 cm box a million metres out: f32 cannot tell its corners apart.
    assert_eq!(
        Polygon::new_offset_box(0.01, 0.01, Vec2::splat(1e6), 0.5),
        Err(ShapeError::Collinear)
    );
    assert_eq!(
        Capsule::new(Vec2::ZERO, Vec2::X, f32::NAN),
        Err(ShapeError::NonFinite)
    );
    assert_eq!(
        Capsule::new(Vec2::ZERO, Vec2::X, 0.0),
        Err(ShapeError::NonPositiveRadius)
    );
    // Everything the constructors accept passes the world's own check.
    for shape in [
        Shape::from(Polygon::new_offset_box(1e3, 1e-2, Vec2::new(10.0, -10.0), 1.0).unwrap()),
        Shape::from(Capsule::new(Vec2::ZERO, Vec2::new(1e-2, 0.0), 1e-4).unwrap()),
        Shape::from(Circle::new(Vec2::splat(1e6), 1e-4).unwrap()),
    ] {
        assert_eq!(shape.validate(), Ok(()));
    }
}

#[test]
fn refused_setters_leave_the_world_unchanged() {
    let mut world = World::default();
    ground(&mut world);
    let b = unit_box(&mut world, Vec2::new(0.0, 0.5));
    for _ in 0..5 {
        world.step(DT);
    }
    let shape = world.body_shapes(b).unwrap()[0];
    let before = fingerprint(&world);
    let nan = f32::NAN;
    assert_eq!(
        world.set_gravity(Vec2::new(0.0, nan)),
        Err(BodyError::NonFinite("gravity"))
    );
    assert_eq!(
        world.set_transform(b, Vec2::ZERO, nan),
        Err(BodyError::NonFinite("angle"))
    );
    assert_eq!(
        world.set_angular_velocity(b, f32::INFINITY),
        Err(BodyError::NonFinite("angular velocity"))
    );
    assert_eq!(world.set_damping(b, -1.0, 0.0), Err(BodyError::NegativeDamping));
    assert_eq!(
        world.set_damping(b, 0.0, nan),
        Err(BodyError::NonFinite("damping"))
    );
    assert_eq!(
        world.set_gravity_scale(b, nan),
        Err(BodyError::NonFinite("gravity scale"))
    );
    assert_eq!(
        world.apply_force(b, Vec2::Y, Vec2::NAN),
        Err(BodyError::NonFinite("point"))
    );
    assert_eq!(world.apply_torque(b, nan), Err(BodyError::NonFinite("torque")));
    assert_eq!(
        world.apply_linear_impulse_to_center(b, Vec2::new(nan, 0.0)),
        Err(BodyError::NonFinite("impulse"))
    );
    assert_eq!(
        world.apply_angular_impulse(b, f32::NEG_INFINITY),
        Err(BodyError::NonFinite("angular impulse"))
    );
    assert_eq!(
        world.set_friction(shape, -0.1),
        Err(Error::Shape(ShapeError::InvalidMaterial))
    );
    assert_eq!(
        world.set_restitution(shape, nan),
        Err(Error::Shape(ShapeError::NonFinite))
    );
    let settings = *world.solver_settings();
    for (bad, err) in [
        (
            SolverSettings {
                iterations: 0,
                ..settings
            },
            BodyError::OutOfRange("iterations"),
        ),
        (
            SolverSettings {
                substeps: 9,
                ..settings
            },
            BodyError::OutOfRange("substeps"),
        ),
        (
            SolverSettings {
                baumgarte: 1.5,
                ..settings
            },
            BodyError::OutOfRange("baumgarte"),
        ),
        (
            SolverSettings {
                baumgarte: nan,
                ..settings
            },
            BodyError::NonFinite("baumgarte"),
        ),
        (
            SolverSettings {
                restitution_threshold: -1.0,
                ..settings
            },
            BodyError::OutOfRange("restitution threshold"),
        ),
        (
            SolverSettings {
                contact_hertz: 0.0,
                ..settings
            },
            BodyError::OutOfRange("contact hertz"),
        ),
        (
            SolverSettings {
                contact_hertz: f32::INFINITY,
                ..settings
            },
            BodyError::NonFinite("contact hertz"),
        ),
        (
            SolverSettings {
                contact_damping_ratio: -0.5,
                ..settings
            },
            BodyError::OutOfRange("contact damping ratio"),
        ),
        (
            SolverSettings {
                contact_damping_ratio: nan,
                ..settings
            },
            BodyError::NonFinite("contact damping ratio"),
        ),
    ] {
        assert_eq!(world.set_solver_settings(bad), Err(err));
    }
    assert_eq!(*world.solver_settings(), settings);
    assert_eq!(world.gravity(), Vec2::new(0.0, -10.0));
    assert_eq!(world.shape_def(shape).unwrap(), &ShapeDef::default());
    assert_eq!(fingerprint(&world), before);
    // And the same world steps on as if nothing had been tried.
    let mut untouched = world.clone();
    world.step(DT);
    untouched.step(DT);
    assert_eq!(fingerprint(&world), fingerprint(&untouched));

    let good = SolverSettings {
        iterations: 4,
        ..settings
    };
    assert_eq!(world.set_solver_settings(good), Ok(()));
    assert_eq!(world.solver_settings().iterations, 4);
}

#[test]
fn fixed_stepper_repairs_or_reports_bad_rates() {
    for hz in [0.0, -60.0, f32::NAN, f32::INFINITY, 1e-45] {
        let s = FixedStepper::new(hz, 4);
        assert_eq!(s.dt, 1.0 / 60.0, "{hz}");
    }
    assert_eq!(FixedStepper::new(60.0, 0).max_steps, 1);
    assert_eq!(
        FixedStepper::try_new(f32::NAN, 4),
        Err(BodyError::NonFinite("step rate"))
    );
    assert_eq!(
        FixedStepper::try_new(1e-45, 4),
        Err(BodyError::NonFinite("step rate"))
    );
    assert_eq!(
        FixedStepper::try_new(-1.0, 4),
        Err(BodyError::OutOfRange("step rate"))
    );
    assert_eq!(
        FixedStepper::try_new(0.0, 4),
        Err(BodyError::NonFinite("step rate"))
    );
    assert_eq!(
        FixedStepper::try_new(60.0, 0),
        Err(BodyError::OutOfRange("max steps"))
    );
    assert_eq!(FixedStepper::try_new(120.0, 2).unwrap().dt, 1.0 / 120.0);
    // A zeroed step (dt is a public field) takes no steps instead of
    // spinning through max_steps empty ones.
    let mut s = FixedStepper::new(60.0, 4);
    s.dt = 0.0;
    assert_eq!(s.advance(1.0, |_| panic!("no step expected")), 0);
}

#[test]
fn removed_body_leaves_stale_shape_handles_and_no_contacts() {
    let mut world = World::default();
    let g = ground(&mut world);
    let a = unit_box(&mut world, Vec2::new(-1.0, 0.5));
    let b = unit_box(&mut world, Vec2::new(0.02, 0.5));
    let extra = world
        .create_shape(
            b,
            Circle::new(Vec2::new(0.0, 0.5), 0.3).unwrap(),
            &ShapeDef::default(),
        )
        .unwrap();
    world.step(DT);
    // a with the ground, b's box with the ground and with a (the circle on
    // top is too high to reach anything): three pairs.
    assert_eq!(world.contact_count(), 3);
    let b_shapes = world.body_shapes(b).unwrap();
    assert_eq!(b_shapes.len(), 2);

    world.remove_body(b).unwrap();
    assert_eq!(world.contact_count(), 1);
    assert!(world.contacts().all(|c| c.body_a != b && c.body_b != b));
    assert_eq!(world.shape_count(), 2);
    for &s in &b_shapes {
        assert_eq!(world.shape(s).err(), Some(BodyError::StaleHandle));
        assert_eq!(world.shape_body(s), Err(BodyError::StaleHandle));
        assert_eq!(world.remove_shape(s), Err(BodyError::StaleHandle));
        assert_eq!(
            world.set_friction(s, 0.1),
            Err(Error::Body(BodyError::StaleHandle))
        );
    }
    assert_eq!(world.body_shapes(b), Err(BodyError::StaleHandle));
    assert_eq!(
        world
            .create_shape(b, Circle::new(Vec2::ZERO, 1.0).unwrap(), &ShapeDef::default())
            .err(),
        Some(Error::Body(BodyError::StaleHandle))
    );
    let mut at = vec![ShapeId {
        index: 0,
        generation: 0,
    }];
    world
        .overlap_point(Vec2::new(0.0, 0.5), crate::filter::QueryFilter::ALL, &mut at)
        .unwrap();
    assert!(at.is_empty());

    // The freed slots are reused with new generations; the old handles stay
    // stale.
    let c = unit_box(&mut world, Vec2::new(3.0, 0.5));
    assert_eq!(c.index(), b.index());
    assert_ne!(c, b);
    let c_shape = world.body_shapes(c).unwrap()[0];
    assert!(b_shapes.iter().any(|s| s.index() == c_shape.index()));
    assert!(!b_shapes.contains(&c_shape));
    assert_eq!(world.shape(extra).err(), Some(BodyError::StaleHandle));
    assert!(world.contains_body(a) && world.contains_body(g));
    world.step(DT);
    assert_eq!(world.contact_count(), 2);
}

/// Gives `body` (a box of 1 m or less) a torque whose spin overflows in
/// the next step, which freezes it where it is.
fn overflow_spin(world: &mut World, body: BodyId) {
    world.apply_torque(body, f32::MAX).unwrap();
}

#[test]
fn a_frozen_body_does_not_spread_nan_to_its_neighbours() {
    // A wall of boxes five wide and five high; the middle one gets a
    // torque whose spin overflows, and freezes. Its neighbours stand for
    // ten seconds and must stay finite and unfrozen.
    let mut world = World::default();
    ground(&mut world);
    let mut boxes = Vec::new();
    for row in 0..5 {
        for col in 0..5 {
            boxes.push(unit_box(
                &mut world,
                Vec2::new(col as f32 - 2.0, 0.5 + row as f32),
            ));
        }
    }
    for _ in 0..60 {
        world.step(DT);
    }
    let middle = boxes[12];
    overflow_spin(&mut world, middle);
    let start: Vec<Vec2> = boxes.iter().map(|&b| world.position(b).unwrap()).collect();
    for _ in 0..600 {
        world.step(DT);
        for &b in &boxes {
            let (p, v, w) = (
                world.position(b).unwrap(),
                world.linear_velocity(b).unwrap(),
                world.angular_velocity(b).unwrap(),
            );
            assert!(
                p.is_finite() && v.is_finite() && w.is_finite(),
                "{b:?} went non-finite"
            );
        }
    }
    assert_eq!(world.frozen_bodies(), &[middle]);
    // The frozen box touches nothing: the two above it are held only by
    // their neighbours' friction, and drop at most a box's height onto
    // the one below it; the rest stand where they were.
    for (k, &b) in boxes.iter().enumerate() {
        let (row, col) = (k / 5, k % 5);
        let p = world.position(b).unwrap();
        if col == 2 && row > 2 {
            let dropped = start[k].y - p.y;
            assert!((-0.05..1.05).contains(&dropped), "box {k} dropped {dropped} m");
        } else if k != 12 {
            let moved = p.distance(start[k]);
            assert!(moved < 0.05, "box {k} moved {moved} m");
        }
    }
    assert!(
        world.contacts().all(|c| c.body_a != middle && c.body_b != middle),
        "the frozen box touches nothing"
    );
    for c in world.contacts() {
        assert!(c.manifold.normal.is_finite());
        assert!(c
            .manifold
            .points()
            .iter()
            .all(|p| p.normal_impulse.is_finite() && p.tangent_impulse.is_finite()));
    }
}

#[test]
fn a_frozen_body_touches_nothing_and_what_rested_on_it_falls_through() {
    // A box frozen on the ground loses its contacts and makes no new
    // ones: the box resting on it falls through it to the ground, and a
    // box on the ground beside it still gets the impulse that holds its
    // own weight, in its own contact.
    let mut world = World::default();
    let g = ground(&mut world);
    let frozen = unit_box(&mut world, Vec2::new(0.0, 0.5));
    let top = unit_box(&mut world, Vec2::new(0.0, 1.5));
    let beside = unit_box(&mut world, Vec2::new(3.0, 0.5));
    for _ in 0..60 {
        world.step(DT);
    }
    overflow_spin(&mut world, frozen);
    let was = world.transform(frozen).unwrap();
    for _ in 0..180 {
        world.step(DT);
        assert!(
            world.contacts().all(|c| c.body_a != frozen && c.body_b != frozen),
            "the frozen box keeps no contact"
        );
    }
    assert_eq!(world.frozen_bodies(), &[frozen]);
    assert_eq!(world.transform(frozen).unwrap(), was, "it stays where it froze");
    let top_y = world.position(top).unwrap().y;
    assert!(
        (top_y - 0.5).abs() < 0.01,
        "the top box rests on the ground: y = {top_y}"
    );
    let weight = |b: BodyId| world.mass_data(b).unwrap().mass * world.settings().gravity.length() * DT;
    for held in [top, beside] {
        let c = world
            .contacts()
            .find(|c| [c.body_a, c.body_b] == [g, held] || [c.body_a, c.body_b] == [held, g])
            .expect("each box rests on the ground");
        let pushed: f32 = c.manifold.points().iter().map(|p| p.normal_impulse).sum();
        let expected = weight(held);
        assert!(
            (pushed - expected).abs() < 0.05 * expected,
            "{held:?}'s contact pushed {pushed}, its weight over a step is {expected}"
        );
    }
}

#[test]
fn a_shape_too_light_for_its_inverse_mass_is_refused() {
    let mut world = World::default();
    let b = world.create_body(&crate::body::BodyDef::dynamic()).unwrap();
    let before = fingerprint(&world);
    // A subnormal density: the mass is positive, its inverse infinite (an
    // angular impulse of 2.4 then spun the body at an infinite rate).
    let feather = ShapeDef {
        density: 1e-40,
        ..ShapeDef::default()
    };
    assert_eq!(
        world.create_shape(b, Polygon::new_box(1.8, 1.2).unwrap(), &feather),
        Err(Error::Shape(ShapeError::MassOverflow))
    );
    // A speck: a finite density on a radius whose area is subnormal.
    let speck = Circle::new(Vec2::ZERO, 1e-20).unwrap();
    assert_eq!(
        world.create_shape(b, speck, &ShapeDef::default()),
        Err(Error::Shape(ShapeError::MassOverflow))
    );
    assert_eq!(fingerprint(&world), before);
    // Light but within range: accepted, and it turns finitely.
    let light = ShapeDef {
        density: 1e-30,
        ..ShapeDef::default()
    };
    world
        .create_shape(b, Polygon::new_box(1.0, 1.0).unwrap(), &light)
        .unwrap();
    world.apply_angular_impulse(b, 1e-30).unwrap();
    assert!(world.angular_velocity(b).unwrap().is_finite());
}

#[test]
fn parts_whose_inertia_underflows_make_a_body_that_does_not_turn_not_one_that_spins_infinitely() {
    let mut world = World::default();
    let b = world.create_body(&crate::body::BodyDef::dynamic()).unwrap();
    // Two circles of 1e-30 kg each (their own inertias underflow to zero)
    // 2e-5 m apart: about their common center, an inertia of 1e-40, a
    // subnormal whose inverse is infinite.
    let radius = (1e-30f32 / std::f32::consts::PI).sqrt();
    let specks = [-1e-5, 1e-5].map(|x| Circle::new(Vec2::new(x, 0.0), radius).unwrap());
    let combined = crate::shapes::combine_mass(&specks.map(|c| c.mass(1.0)));
    assert!(
        combined.inertia > 0.0 && !(1.0 / combined.inertia).is_finite(),
        "{combined:?}"
    );
    for speck in specks {
        world.create_shape(b, speck, &ShapeDef::default()).unwrap();
    }
    assert_eq!(world.mass_data(b).unwrap().inertia, 0.0);
    world.apply_angular_impulse(b, 1.0).unwrap();
    world.step(DT);
    assert!(world.angular_velocity(b).unwrap().is_finite());
    assert!(world.frozen_bodies().is_empty());
}

#[test]
fn parts_whose_masses_overflow_only_together_are_refused() {
    let mut world = World::default();
    let outline = [
        Vec2::new(1.2237562, -0.94363505),
        Vec2::new(0.3525399, -0.58065045),
        Vec2::new(-0.1952078, 0.18795091),
        Vec2::new(-0.35522774, -0.74219376),
        Vec2::new(-0.9826734, -1.4472382),
        Vec2::new(-0.040241323, -1.3962696),
        Vec2::new(0.7867456, -1.8510967),
    ];
    let dense = ShapeDef {
        density: 3.4e38,
        ..ShapeDef::default()
    };
    for def in [crate::body::BodyDef::kinematic(), crate::body::BodyDef::dynamic()] {
        let b = world.create_body(&def).unwrap();
        let before = fingerprint(&world);
        // Each convex part's mass is finite; their sum is not (the
        // body's center was NaN).
        assert_eq!(
            world.create_concave(b, &outline, &dense),
            Err(Error::Shape(ShapeError::MassOverflow))
        );
        // One shape at a time, the same: the second overflows the total.
        let half = Polygon::new_box(0.5, 0.5).unwrap();
        let heavy = ShapeDef {
            density: 2e38,
            ..ShapeDef::default()
        };
        world.create_shape(b, half, &heavy).unwrap();
        let one = fingerprint(&world);
        assert_eq!(
            world.create_shape(b, half, &heavy),
            Err(Error::Shape(ShapeError::MassOverflow))
        );
        assert_eq!(fingerprint(&world), one);
        assert_ne!(one, before);
        assert!(world.center_of_mass(b).unwrap().is_finite());
    }
}
