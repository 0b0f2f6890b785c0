//! Mass data set by hand: what the body then does follows from that mass,
//! center and inertia, not from its shapes; what recomputes it from the
//! shapes does; bad values are refused with the body left as it was.

use super::tests::{body_with, zero_gravity, DT};
use super::*;
use crate::body::BodyDef;
use crate::error::BodyError;
use crate::shapes::{MassData, Polygon, ShapeDef};

/// A dynamic 2 m x 0.5 m box (1 kg at density 1) at the origin.
fn plank(world: &mut World) -> BodyId {
    body_with(world, &BodyDef::dynamic(), Polygon::new_box(1.0, 0.25).unwrap())
}

#[test]
fn a_torque_turns_a_body_by_the_inertia_set_by_hand() {
    // w = torque t / I, whatever the box's own inertia (1/12 x 1 kg x
    // (4 + 0.25) m^2).
    let mut world = zero_gravity();
    let body = plank(&mut world);
    let md = MassData {
        mass: 3.0,
        center: Vec2::ZERO,
        inertia: 2.5,
    };
    world.set_mass_data(body, md).unwrap();
    assert_eq!(world.mass_data(body).unwrap(), md);
    let torque = 4.0;
    let steps = 30;
    for _ in 0..steps {
        world.apply_torque(body, torque).unwrap();
        world.step(DT);
    }
    let want = torque * steps as f32 * DT / md.inertia;
    let w = world.angular_velocity(body).unwrap();
    assert!((w - want).abs() < 1e-4 * want, "{w} vs {want}");
}

#[test]
fn a_force_at_the_origin_turns_a_body_about_the_center_set_by_hand() {
    // The center 0.5 m right of the origin: a force F up at the origin
    // has the lever 0.5 m about it, so the body spins clockwise at
    // 0.5 F t / I and its center rises at F t / m.
    let mut world = zero_gravity();
    let body = plank(&mut world);
    let md = MassData {
        mass: 2.0,
        center: Vec2::new(0.5, 0.0),
        inertia: 0.5,
    };
    world.set_mass_data(body, md).unwrap();
    assert_eq!(world.center_of_mass(body).unwrap(), Vec2::new(0.5, 0.0));
    let force = 1.0;
    world
        .apply_force(body, Vec2::new(0.0, force), Vec2::ZERO)
        .unwrap();
    world.step(DT);
    let w = world.angular_velocity(body).unwrap();
    let want_w = -0.5 * force * DT / md.inertia;
    assert!((w - want_w).abs() < 1e-5, "{w} vs {want_w}");
    let v = world.linear_velocity(body).unwrap();
    assert!((v.y - force * DT / md.mass).abs() < 1e-6, "{v:?}");
}

#[test]
fn zero_inertia_set_by_hand_keeps_a_body_from_turning() {
    let mut world = zero_gravity();
    let body = plank(&mut world);
    world
        .set_mass_data(
            body,
            MassData {
                mass: 1.0,
                center: Vec2::ZERO,
                inertia: 0.0,
            },
        )
        .unwrap();
    world.apply_torque(body, 100.0).unwrap();
    world
        .apply_linear_impulse(body, Vec2::new(0.0, 1.0), Vec2::new(1.0, 0.0))
        .unwrap();
    world.step(DT);
    assert_eq!(world.angular_velocity(body).unwrap(), 0.0);
    assert_eq!(world.angle(body).unwrap(), 0.0);
}

#[test]
fn the_shapes_mass_comes_back_when_they_change_or_on_reset() {
    let mut world = zero_gravity();
    let body = plank(&mut world);
    let own = world.mass_data(body).unwrap();
    let heavy = MassData {
        mass: 10.0,
        center: Vec2::new(0.0, -0.2),
        inertia: 1.0,
    };
    world.set_mass_data(body, heavy).unwrap();
    world.reset_mass_data(body).unwrap();
    assert_eq!(world.mass_data(body).unwrap(), own);
    world.set_mass_data(body, heavy).unwrap();
    let extra = world
        .create_shape(
            body,
            Polygon::new_offset_box(0.25, 0.25, Vec2::new(2.0, 0.0), 0.0).unwrap(),
            &ShapeDef::default(),
        )
        .unwrap();
    world.remove_shape(extra).unwrap();
    assert_eq!(world.mass_data(body).unwrap(), own);
}

#[test]
fn a_moved_center_keeps_the_velocity_of_the_bodys_points() {
    // Spinning at 2 rad/s about the origin, its center there: set the
    // center 1 m right and that point keeps moving at 2 m/s up.
    let mut world = zero_gravity();
    let body = plank(&mut world);
    world.set_angular_velocity(body, 2.0).unwrap();
    let md = MassData {
        mass: 1.0,
        center: Vec2::new(1.0, 0.0),
        inertia: 0.5,
    };
    world.set_mass_data(body, md).unwrap();
    let v = world.linear_velocity(body).unwrap();
    assert!((v - Vec2::new(0.0, 2.0)).length() < 1e-6, "{v:?}");
    assert_eq!(world.angular_velocity(body).unwrap(), 2.0);
}

#[test]
fn bad_mass_data_is_refused_and_changes_nothing() {
    let mut world = zero_gravity();
    let body = plank(&mut world);
    let ground = body_with(
        &mut world,
        &BodyDef::static_body(),
        Polygon::new_box(5.0, 0.5).unwrap(),
    );
    let ok = MassData {
        mass: 1.0,
        center: Vec2::ZERO,
        inertia: 1.0,
    };
    let before = world.mass_data(body).unwrap();
    let cases = [
        (
            MassData { mass: f32::NAN, ..ok },
            BodyError::NonFinite("mass data"),
        ),
        (
            MassData {
                inertia: f32::INFINITY,
                ..ok
            },
            BodyError::NonFinite("mass data"),
        ),
        (MassData { mass: 0.0, ..ok }, BodyError::OutOfRange("mass")),
        (MassData { mass: -1.0, ..ok }, BodyError::OutOfRange("mass")),
        (MassData { mass: 1e-45, ..ok }, BodyError::OutOfRange("mass")),
        (MassData { inertia: -1.0, ..ok }, BodyError::OutOfRange("inertia")),
        (
            MassData { inertia: 1e-45, ..ok },
            BodyError::OutOfRange("inertia"),
        ),
        (
            MassData {
                center: Vec2::new(3.0e38, 0.0),
                ..ok
            },
            BodyError::OutOfRange("center of mass"),
        ),
    ];
    for (md, err) in cases {
        assert_eq!(world.set_mass_data(body, md), Err(err), "{md:?}");
        assert_eq!(world.mass_data(body).unwrap(), before);
    }
    assert_eq!(
        world.set_mass_data(ground, ok),
        Err(BodyError::OutOfRange("mass data for a body that is not dynamic"))
    );
    assert_eq!(world.mass_data(ground).unwrap().mass, 0.0);
    world.remove_body(body).unwrap();
    assert_eq!(world.set_mass_data(body, ok), Err(BodyError::StaleHandle));
    assert_eq!(world.reset_mass_data(body), Err(BodyError::StaleHandle));
}
