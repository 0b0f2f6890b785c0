//! Which pairs of shapes collide, and how the hooks see them: the rules
//! the pair search, the collide stage and continuous collision share.

use super::shapes::ShapeSlot;
use crate::body::{Body, BodyType};
use crate::contact::{mix_material, Contact};
use crate::hooks::{ContactHooks, ShapePair};
use crate::joint::{joint_forbids_collision, Joint};
use crate::math::clamp_symmetric;
use crate::store::Store;

/// Whether shapes `sa` and `sb` (the lower slot first) may collide: every
/// test a pair passes before it gets a contact, bar the pre-solve hook
/// (asked of a touching contact each step). On different bodies, neither
/// frozen, one dynamic, neither a sensor, their filters agree, no joint
/// between their bodies forbids it, and the custom filter hook allows it
/// if either shape asks it. Continuous collision asks it too, of a fast
/// shape and a static one.
#[inline(always)]
pub(super) fn may_collide(
    (shapes, bodies, joints): (&Store<ShapeSlot>, &Store<Body>, &Store<Joint>),
    (sa, sb): (u32, u32),
    hooks: &dyn ContactHooks,
) -> bool {
    let (a, b) = (&shapes[sa], &shapes[sb]);
    let (ba, bb) = (a.body, b.body);
    ba != bb
        && !bodies[ba].frozen
        && !bodies[bb].frozen
        && (bodies[ba].body_type == BodyType::Dynamic || bodies[bb].body_type == BodyType::Dynamic)
        && !a.def.sensor
        && !b.def.sensor
        && a.def.filter.should_collide(&b.def.filter)
        && !joint_forbids_collision(joints, bodies, ba, bb)
        && (!(a.def.custom_filter || b.def.custom_filter)
            || hooks.should_collide(&shape_pair(shapes, bodies, sa, sb)))
}

/// The pair of shapes `sa` and `sb` as a hook sees it.
pub(super) fn shape_pair(shapes: &Store<ShapeSlot>, bodies: &Store<Body>, sa: u32, sb: u32) -> ShapePair {
    let (a, b) = (&shapes[sa], &shapes[sb]);
    ShapePair {
        shape_a: shapes.key(sa).into(),
        shape_b: shapes.key(sb).into(),
        body_a: bodies.key(a.body).into(),
        body_b: bodies.key(b.body).into(),
        user_data_a: a.def.user_data,
        user_data_b: b.def.user_data,
    }
}

/// Asks the user's pre-solve hook about touching contact `c`: its
/// material for this step starts from its shapes' current mix. Returns
/// whether the hook keeps the contact. What the hook returns is made
/// usable: a negative or non-finite friction or restitution becomes zero,
/// and a tangent speed is held within the speed limit `max_speed` (a
/// belt faster than any body may move is not a belt).
pub(super) fn pre_solve(
    c: &mut Contact,
    (shapes, bodies): (&Store<ShapeSlot>, &Store<Body>),
    hooks: &dyn ContactHooks,
    max_speed: f32,
) -> bool {
    let (da, db) = (&shapes[c.shape_a].def, &shapes[c.shape_b].def);
    let mut material = mix_material(da, db, max_speed);
    let pair = shape_pair(shapes, bodies, c.shape_a, c.shape_b);
    let keep = hooks.pre_solve(&pair, &c.manifold, &mut material);
    if keep {
        // A hook's numbers are the user's: keep them usable.
        let usable = |x: f32| if x.is_finite() { x.max(0.0) } else { 0.0 };
        c.friction = usable(material.friction);
        c.restitution = usable(material.restitution);
        c.tangent_speed = if material.tangent_speed.is_finite() {
            clamp_symmetric(material.tangent_speed, max_speed)
        } else {
            0.0
        };
    }
    keep
}
