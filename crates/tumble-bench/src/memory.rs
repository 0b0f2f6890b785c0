//! Tumble's memory per body and per contact, estimated.
//!
//! The engine has no public method that reports its buffers' sizes or
//! capacities, and the structs that fill those buffers (`Body`, `Contact`,
//! `ShapeSlot`, the tree's `Node`, the solver's scratch rows) are private.
//! So this module mirrors each of them field for field, with the engine's
//! own public types where a field has one (`Vec2`, `Transform`, `Shape`,
//! `ShapeDef`, `Aabb`, `Manifold`), and lets `std::mem::size_of` lay the
//! mirrors out the way rustc lays out the originals (same fields, same
//! types, default representation). Buffer lengths come from the world's
//! counts; capacities, which grow by doubling, can be up to twice that.
//! A mirror goes stale when the engine's struct changes (they match the
//! engine as of the solver's substep and block-solver work): the figures
//! say what the layout cost then, and a public `World::memory_usage()` in
//! the engine would replace all of it.

use std::mem::size_of;
use tumble::collision::Manifold;
use tumble::{Aabb, BodyType, Rot, Shape, ShapeDef, Transform, Vec2, World};

/// Mirror of `tumble::dynamics::body::Body`.
#[allow(dead_code)]
struct BodyMirror {
    generation: u32,
    alive: bool,
    body_type: BodyType,
    xf: Transform,
    local_center: Vec2,
    center: Vec2,
    v: Vec2,
    w: f32,
    force: Vec2,
    torque: f32,
    mass: f32,
    inv_mass: f32,
    inertia: f32,
    inv_inertia: f32,
    linear_damping: f32,
    angular_damping: f32,
    gravity_scale: f32,
    user_data: u64,
    shapes: Vec<u32>,
    frozen: bool,
    extent: f32,
}

/// Mirror of the world's private `ShapeSlot`.
#[allow(dead_code)]
struct ShapeSlotMirror {
    generation: u32,
    alive: bool,
    body: u32,
    shape: Shape,
    def: ShapeDef,
    proxy: u32,
    part: u32,
}

/// Mirror of the broadphase tree's private `Node`.
#[allow(dead_code)]
struct NodeMirror {
    aabb: Aabb,
    parent_or_next: u32,
    child1: u32,
    child2: u32,
    user: u32,
    height: i32,
}

/// Mirror of `tumble::dynamics::contact::Contact`.
#[allow(dead_code)]
struct ContactMirror {
    alive: bool,
    shape_a: u32,
    shape_b: u32,
    body_a: u32,
    body_b: u32,
    friction: f32,
    restitution: f32,
    part_bits: u64,
    manifold: Manifold,
}

/// Mirror of the solver's private `SolverBody` (one per body slot, rebuilt
/// every step in a reused buffer).
#[allow(dead_code)]
struct SolverBodyMirror {
    v: Vec2,
    w: f32,
    inv_mass: f32,
    inv_inertia: f32,
    pv: Vec2,
    pw: f32,
    accel: Vec2,
    angular_accel: f32,
    linear_decay: f32,
    angular_decay: f32,
    dynamic: bool,
    dp: Vec2,
    dq: Rot,
}

/// Mirror of the solver's private `ConstraintPoint`.
#[allow(dead_code)]
struct ConstraintPointMirror {
    ra: Vec2,
    rb: Vec2,
    base_separation: f32,
    normal_mass: f32,
    tangent_mass: f32,
    normal_impulse: f32,
    tangent_impulse: f32,
    pseudo_impulse: f32,
    max_normal_impulse: f32,
    relative_velocity: f32,
}

/// Mirror of the solver's private `ContactConstraint`.
#[allow(dead_code)]
struct ContactConstraintMirror {
    a: u32,
    b: u32,
    contact: u32,
    normal: Vec2,
    friction: f32,
    restitution: f32,
    count: usize,
    points: [ConstraintPointMirror; 2],
    k: [f32; 3],
    inv_k: [f32; 3],
    block: bool,
}

/// The smallest heap block a one-shape body's `Vec<u32>` of shape slots
/// takes: Rust's first growth of a `Vec` of 4-byte items reserves 4.
const ONE_SHAPE_LIST_BYTES: usize = 4 * size_of::<u32>();

/// Tumble's estimated footprint per body and per contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Footprint {
    /// Bytes per body with one shape: the body, its shape-list block, its
    /// shape slot, its broadphase leaf and the internal node that joins it
    /// to the tree (a tree of n leaves has n - 1 internal nodes), its
    /// move-buffer entry and flag, and its solver scratch row and centre.
    pub bytes_per_body: usize,
    /// Bytes per contact: the contact with its manifold, its pair-map
    /// entry (key, value, and hashbrown's control byte, at the table's
    /// 7/8 maximum load), and its solver constraint row.
    pub bytes_per_contact: usize,
    /// Bodies in the world the figures were read from.
    pub bodies: usize,
    /// Contacts in that world.
    pub contacts: usize,
}

impl Footprint {
    /// Bytes for the whole world from the per-item figures.
    pub fn total_bytes(&self) -> usize {
        self.bodies * self.bytes_per_body + self.contacts * self.bytes_per_contact
    }
}

/// Bytes per body, from the mirrors.
pub fn bytes_per_body() -> usize {
    size_of::<BodyMirror>()
        + ONE_SHAPE_LIST_BYTES
        + size_of::<ShapeSlotMirror>()
        + 2 * size_of::<NodeMirror>()
        + size_of::<u32>()
        + size_of::<bool>()
        + size_of::<SolverBodyMirror>()
        + size_of::<Vec2>()
}

/// Bytes per contact, from the mirrors.
pub fn bytes_per_contact() -> usize {
    let map_entry = size_of::<(u64, u32)>() + 1;
    size_of::<ContactMirror>() + map_entry * 8 / 7 + size_of::<ContactConstraintMirror>()
}

/// The figures for a world as it stands.
pub fn footprint(world: &World) -> Footprint {
    Footprint {
        bytes_per_body: bytes_per_body(),
        bytes_per_contact: bytes_per_contact(),
        bodies: world.body_count(),
        contacts: world.contact_count(),
    }
}

/// The individual sizes behind the figures, for the output's footnote.
pub fn breakdown() -> String {
    format!(
        "Body {} + shape list {} + ShapeSlot {} (Shape {}) + 2 tree nodes x {} + move buffer 5 + \
         SolverBody {} + centre {}; Contact {} (Manifold {}) + pair-map entry ~{} + \
         ContactConstraint {}",
        size_of::<BodyMirror>(),
        ONE_SHAPE_LIST_BYTES,
        size_of::<ShapeSlotMirror>(),
        size_of::<Shape>(),
        size_of::<NodeMirror>(),
        size_of::<SolverBodyMirror>(),
        size_of::<Vec2>(),
        size_of::<ContactMirror>(),
        size_of::<Manifold>(),
        (size_of::<(u64, u32)>() + 1) * 8 / 7,
        size_of::<ContactConstraintMirror>(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_add_up_and_are_plausible() {
        // A body carries at least its transform, velocities and mass; a
        // contact at least its two-point manifold.
        assert!(bytes_per_body() > size_of::<Transform>() + size_of::<Shape>());
        assert!(bytes_per_contact() > size_of::<Manifold>());
        let f = Footprint {
            bytes_per_body: 10,
            bytes_per_contact: 3,
            bodies: 2,
            contacts: 5,
        };
        assert_eq!(f.total_bytes(), 35);
        assert!(breakdown().contains("Manifold"));
    }
}
