//! Tumble's memory per body, per contact and per joint, from the engine's
//! own report ([`World::memory_usage`]: buffer capacities, so what is
//! allocated).

use tumble::World;

/// Tumble's footprint for one world, split per body, per contact and per
/// joint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Footprint {
    /// Bytes per body: body and shape slots, the broadphase, and the
    /// solver's per-body rows, divided by the bodies.
    pub bytes_per_body: usize,
    /// Bytes per contact: contact slots with their manifolds, the pair map,
    /// and the solver's constraint rows (the joints' among them), divided
    /// by the contacts.
    pub bytes_per_contact: usize,
    /// Bytes per joint: the joint slots and the awake joint set, divided
    /// by the joints (their solver rows count in `bytes_per_contact`).
    pub bytes_per_joint: usize,
    /// Bodies in the world the figures were read from.
    pub bodies: usize,
    /// Contacts in that world.
    pub contacts: usize,
    /// Joints in that world.
    pub joints: usize,
    /// Everything the world holds, in bytes.
    pub total: usize,
}

impl Footprint {
    /// Bytes for the whole world.
    pub fn total_bytes(&self) -> usize {
        self.total
    }
}

/// The figures for a world as it stands.
pub fn footprint(world: &World) -> Footprint {
    let usage = world.memory_usage();
    let bodies = world.body_count();
    let contacts = world.contact_count();
    let joints = world.joint_count();
    let per_body = usage.bodies + usage.shapes + usage.broadphase + usage.solver_bodies;
    let per_contact = usage.contacts + usage.solver_contacts;
    Footprint {
        bytes_per_body: per_body / bodies.max(1),
        bytes_per_contact: per_contact / contacts.max(1),
        bytes_per_joint: usage.joints / joints.max(1),
        bodies,
        contacts,
        joints,
        total: usage.total(),
    }
}

/// How the figures are made, for the output's footnote.
pub fn breakdown() -> String {
    "World::memory_usage: allocated capacities of the body, shape and contact slots, the pair map, \
     the broadphase tree and the solver's reused rows"
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tumble::{BodyDef, Polygon, ShapeDef, Vec2};

    #[test]
    fn figures_grow_with_the_world_and_add_up() {
        let mut world = World::default();
        let ground = world
            .create_body(&BodyDef::static_body().at(Vec2::new(0.0, -1.0)))
            .unwrap();
        let def = ShapeDef::default();
        world
            .create_shape(ground, Polygon::new_box(50.0, 1.0).unwrap(), &def)
            .unwrap();
        let empty = footprint(&world).total;
        for i in 0..100 {
            let b = world
                .create_body(&BodyDef::dynamic().at(Vec2::new(i as f32 * 1.1, 0.5)))
                .unwrap();
            world
                .create_shape(b, Polygon::new_box(0.5, 0.5).unwrap(), &def)
                .unwrap();
        }
        world.step(1.0 / 60.0);
        world.step(1.0 / 60.0);
        let f = footprint(&world);
        assert!(f.total > empty);
        assert_eq!(f.bodies, 101);
        assert!(f.contacts >= 100);
        // A body holds at least its transform and shape; a contact at least
        // its two-point manifold.
        assert!(f.bytes_per_body > std::mem::size_of::<tumble::Shape>());
        assert!(f.bytes_per_contact > std::mem::size_of::<tumble::collision::Manifold>());
        assert!(f.bytes_per_body * f.bodies + f.bytes_per_contact * f.contacts <= f.total);
        assert_eq!((f.joints, f.bytes_per_joint), (0, 0));
    }

    #[test]
    fn joints_have_their_own_figure() {
        let spec = crate::spec::joint_grid_of(10);
        let mut scene = crate::spec::build_world(&spec);
        scene.world.step(1.0 / 60.0);
        let f = footprint(&scene.world);
        // The grid's 180 joints, less those between its fixed top-row
        // circles, which the spec leaves out (they would hold nothing).
        let between_fixed = crate::spec::JOINT_GRID_FIXED as usize - 1;
        assert_eq!((f.bodies, f.joints, f.contacts), (100, 180 - between_fixed, 0));
        // A joint holds at least its two bodies and two frames.
        assert!(
            f.bytes_per_joint > 2 * std::mem::size_of::<tumble::Transform>(),
            "{f:?}"
        );
        assert!(f.bytes_per_joint * f.joints <= f.total);
    }
}
