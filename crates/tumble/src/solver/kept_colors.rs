//! The bounded coloring's state, kept from step to step
//! ([`crate::Coloring::Bounded`]): which colors each body holds, and the
//! contacts and joints colored last step. A step adds the constraints
//! that are new (contacts that began touching or woke up, new joints) and
//! removes those that left (stopped touching, fell asleep, were
//! destroyed); everything else keeps its color without being looked at
//! again. Only the changes touch the per-body color masks.
//!
//! The contacts and joints remember their colors too (the `color` fields
//! the world saves in snapshots): every one colored last step remembers
//! its color, and one that leaves forgets it. So the state can be rebuilt
//! from the world ([`KeptColors::prime`]) when it has none (a world just
//! loaded, or one that ran another coloring), and a restored world
//! continues bit for bit.

use super::types::{ColorKey, NOT_HELD};
use crate::contact::NO_COLOR;
use crate::settings::{DYNAMIC_GRAPH_COLORS, GRAPH_COLORS};

/// The colors a constraint between two dynamic bodies may take (the
/// first [`DYNAMIC_GRAPH_COLORS`]), as a mask.
const DYNAMIC_COLORS: u32 = (1 << DYNAMIC_GRAPH_COLORS) - 1;

/// The colors a constraint with one dynamic body may take (all but the
/// first), as a mask.
const ONE_SIDED_COLORS: u32 = ((1 << GRAPH_COLORS) - 1) & !1;

/// The bounded coloring's state between steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeptColors {
    /// Per body slot, a bit per color it holds.
    held: Vec<u32>,
    /// Last step's contact keys, in contact slot order, with the colors
    /// they ended with.
    contacts: Vec<ColorKey>,
    /// Last step's joint keys, in joint slot order.
    joints: Vec<ColorKey>,
    /// This step's joint keys not colored last step as they are now
    /// (indices, in order).
    unkept_joints: Vec<u32>,
    /// This step's contact keys likewise.
    unkept_contacts: Vec<u32>,
    /// This step's joint keys that take a new color (indices): the
    /// joints to tell.
    pending_joints: Vec<u32>,
    /// This step's contact keys that take a new color (indices): the
    /// contacts to tell.
    recolored: Vec<u32>,
    /// Contacts colored last step and not solved in this one (slots): they
    /// forget their colors.
    left_contacts: Vec<u32>,
    /// Joints colored last step and not solved in this one (slots).
    left_joints: Vec<u32>,
    /// Whether the state stands for the colors the contacts and joints
    /// remember (see [`KeptColors::prime`]).
    primed: bool,
}

impl KeptColors {
    /// Forgets everything (while another coloring runs: the constraints
    /// keep the colors they remember, and the state is primed from them
    /// when this one runs again).
    pub fn forget(&mut self) {
        self.primed = false;
        // (What the last step changed was told; the stores read these
        // lists every step, whatever the coloring.)
        self.recolored.clear();
        self.pending_joints.clear();
        self.left_contacts.clear();
        self.left_joints.clear();
        if self.contacts.is_empty() && self.joints.is_empty() {
            return;
        }
        self.held.iter_mut().for_each(|h| *h = 0);
        self.contacts.clear();
        self.joints.clear();
    }

    /// Whether the state stands for the colors the contacts and joints
    /// remember: if not, [`KeptColors::prime`] it before coloring.
    pub fn is_primed(&self) -> bool {
        self.primed
    }

    /// Rebuilds the state from what the contacts and joints remember: the
    /// keys of those that remember a color, each list in slot order,
    /// their bodies as the coloring holds them. Every one colored last
    /// step remembers its color, and nothing else does, so this is the
    /// state the last step left. (Colors remembered from before another
    /// coloring ran may clash: a clashing one is kept as a color it no
    /// longer has, so the next step recolors it.)
    pub fn prime(
        &mut self,
        joints: impl Iterator<Item = ColorKey>,
        contacts: impl Iterator<Item = ColorKey>,
        body_slots: usize,
    ) {
        self.forget();
        self.held.clear();
        self.held.resize(body_slots, 0);
        let held = &mut self.held;
        let mut take = |mut key: ColorKey| {
            if !take_back(held, &key) && (key.color as usize) < GRAPH_COLORS {
                key.color = NO_COLOR;
            }
            key
        };
        self.joints.extend(joints.map(&mut take));
        self.contacts.extend(contacts.map(&mut take));
        self.primed = true;
    }

    /// Colors this step's joints and contacts (each list in slot order,
    /// each key's `color` the color its joint or contact kept, and
    /// overwritten with this step's). Those colored last step as they
    /// are now keep their colors untouched. The others, in order, take
    /// back the color they remember if it suits them and is free, else
    /// (after every such one) take a new one: the joints first, then the
    /// contacts, each the first color free on both dynamic bodies among
    /// the [`DYNAMIC_GRAPH_COLORS`], or with one dynamic body the last
    /// color free on it, searching down to color 1 (Box2D v3's rule:
    /// contacts with the ground are solved after those between moving
    /// bodies, and have the last word). What fits nowhere gets
    /// [`GRAPH_COLORS`], the overflow.
    pub fn color(&mut self, joints: &mut [ColorKey], contacts: &mut [ColorKey], body_slots: usize) {
        debug_assert!(self.primed, "an unprimed coloring");
        if self.held.len() < body_slots {
            self.held.resize(body_slots, 0);
        }
        self.left_contacts.clear();
        self.left_joints.clear();
        self.recolored.clear();
        self.pending_joints.clear();
        // Everything that left gives its colors back before anything
        // takes one.
        let held = &mut self.held;
        let (unkept_joints, unkept_contacts) = (&mut self.unkept_joints, &mut self.unkept_contacts);
        release_departed(&self.joints, joints, held, unkept_joints, &mut self.left_joints);
        release_departed(
            &self.contacts,
            contacts,
            held,
            unkept_contacts,
            &mut self.left_contacts,
        );
        // Then the others take back the color they remember, if they can.
        for &k in unkept_joints.iter() {
            if !take_back(held, &joints[k as usize]) {
                self.pending_joints.push(k);
            }
        }
        for &k in unkept_contacts.iter() {
            if !take_back(held, &contacts[k as usize]) {
                self.recolored.push(k);
            }
        }
        // The rest take new colors.
        for &k in &self.pending_joints {
            take_new(held, &mut joints[k as usize]);
        }
        for &k in &self.recolored {
            take_new(held, &mut contacts[k as usize]);
        }
        self.joints.clear();
        self.joints.extend_from_slice(joints);
        self.contacts.clear();
        self.contacts.extend_from_slice(contacts);
    }

    /// If this step's joints and contacts are all as last step's were
    /// colored (the same slots, bodies and colors, in the same order),
    /// takes the step as nothing changed, as [`KeptColors::color`]
    /// would, and says so; else does nothing. The usual step of a scene
    /// at rest or of joints alone: one comparison instead of the walk.
    pub fn keeps_all(&mut self, joints: &[ColorKey], contacts: &[ColorKey]) -> bool {
        if !(self.holds_joints(joints) && self.contacts == contacts) {
            return false;
        }
        self.keep();
        true
    }

    /// Whether this step's joints are all as last step's were colored
    /// (and the state stands: see [`KeptColors::prime`]).
    pub fn holds_joints(&self, joints: &[ColorKey]) -> bool {
        self.primed && self.joints == joints
    }

    /// Last step's contact keys, with the colors they ended with.
    pub fn contact_keys(&self) -> &[ColorKey] {
        &self.contacts
    }

    /// Takes the step as nothing changed: no contact or joint left,
    /// none recolored. For a step found to hold every key as it was
    /// colored.
    pub fn keep(&mut self) {
        self.left_contacts.clear();
        self.left_joints.clear();
        self.recolored.clear();
        self.pending_joints.clear();
    }

    /// The contact keys of this step whose color changed (indices).
    pub fn recolored(&self) -> &[u32] {
        &self.recolored
    }

    /// The joint keys of this step whose color changed (indices).
    pub fn recolored_joints(&self) -> &[u32] {
        &self.pending_joints
    }

    /// The contacts colored last step and not solved this step (slots):
    /// they forget their colors, so that only what the coloring holds
    /// remembers one.
    pub fn left_contacts(&self) -> &[u32] {
        &self.left_contacts
    }

    /// The joints colored last step and not solved this step (slots).
    pub fn left_joints(&self) -> &[u32] {
        &self.left_joints
    }

    /// Heap bytes held (capacities).
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        (self.held.capacity()
            + self.recolored.capacity()
            + self.pending_joints.capacity()
            + self.left_contacts.capacity()
            + self.left_joints.capacity())
            * size_of::<u32>()
            + (self.contacts.capacity() + self.joints.capacity()) * size_of::<ColorKey>()
            + (self.unkept_joints.capacity() + self.unkept_contacts.capacity()) * size_of::<u32>()
    }
}

/// Walks last step's `members` beside this step's `keys` (both in slot
/// order): a member whose constraint is here as it was (same bodies,
/// same color, not the overflow) keeps its color; any other gives its
/// colors back, and one no longer here at all is listed in `left`. The
/// keys that kept nothing are listed, in order, in `unkept`.
fn release_departed(
    members: &[ColorKey],
    keys: &[ColorKey],
    held: &mut [u32],
    unkept: &mut Vec<u32>,
    left: &mut Vec<u32>,
) {
    unkept.clear();
    let mut k = 0;
    for m in members {
        while k < keys.len() && keys[k].item < m.item {
            unkept.push(k as u32);
            k += 1;
        }
        match keys.get(k) {
            Some(key) if key.item == m.item => {
                if !unchanged(m, key) {
                    set_held(held, m, false);
                    unkept.push(k as u32);
                }
                k += 1;
            }
            _ => {
                set_held(held, m, false);
                left.push(m.item);
            }
        }
    }
    unkept.extend(k as u32..keys.len() as u32);
}

/// Whether `key` is its constraint as `member` was last step, in a color.
#[inline]
fn unchanged(member: &ColorKey, key: &ColorKey) -> bool {
    key.a == member.a && key.b == member.b && key.color == member.color && (key.color as usize) < GRAPH_COLORS
}

/// Sets or clears `key`'s color on its dynamic bodies.
#[inline]
fn set_held(held: &mut [u32], key: &ColorKey, on: bool) {
    if key.color as usize >= GRAPH_COLORS {
        return;
    }
    let bit = 1u32 << key.color;
    for body in [key.a, key.b] {
        if let Some(h) = held.get_mut(body as usize) {
            if on {
                *h |= bit;
            } else {
                *h &= !bit;
            }
        }
    }
}

/// The colors `key`'s bodies hold between them.
#[inline]
fn taken(held: &[u32], key: &ColorKey) -> u32 {
    let of = |body: u32| held.get(body as usize).copied().unwrap_or(0);
    of(key.a) | of(key.b)
}

/// The colors `key` may take: the first [`DYNAMIC_GRAPH_COLORS`] between
/// two dynamic bodies, all but color 0 otherwise.
#[inline]
fn allowed(key: &ColorKey) -> u32 {
    if key.a != NOT_HELD && key.b != NOT_HELD {
        DYNAMIC_COLORS
    } else {
        ONE_SIDED_COLORS
    }
}

/// Takes back the color `key` remembers, if it suits the key and is free
/// on its bodies.
#[inline]
fn take_back(held: &mut [u32], key: &ColorKey) -> bool {
    let color = key.color as u32;
    let fits = color < GRAPH_COLORS as u32 && allowed(key) & !taken(held, key) & (1 << color) != 0;
    if fits {
        set_held(held, key, true);
    }
    fits
}

/// Gives `key` a new color: the first free one between two dynamic
/// bodies, the last free one with a single dynamic body, or the overflow.
#[inline]
fn take_new(held: &mut [u32], key: &mut ColorKey) {
    let free = allowed(key) & !taken(held, key);
    key.color = if free == 0 {
        GRAPH_COLORS as u8
    } else if key.a != NOT_HELD && key.b != NOT_HELD {
        free.trailing_zeros() as u8
    } else {
        (31 - free.leading_zeros()) as u8
    };
    set_held(held, key, true);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::types::LaneKind;
    use crate::test_rng::Rng;

    /// A pool of `count` possible contacts between `bodies` bodies (body 0
    /// static), each with one dynamic body at least.
    fn pool(rng: &mut Rng, bodies: u32, count: usize) -> Vec<(u32, u32)> {
        let mut pairs = Vec::new();
        while pairs.len() < count {
            let a = rng.range(0.0, bodies as f32) as u32;
            let b = 1 + rng.range(0.0, (bodies - 1) as f32) as u32;
            if a != b {
                pairs.push((a, b));
            }
        }
        pairs
    }

    /// This step's keys: the contacts of `pool` present (in slot order),
    /// with the colors `remembered` says.
    fn step_keys(pool: &[(u32, u32)], present: &[bool], remembered: &[u8]) -> Vec<ColorKey> {
        let held = |body: u32| if body == 0 { NOT_HELD } else { body };
        (0..pool.len())
            .filter(|&i| present[i])
            .map(|i| ColorKey {
                item: i as u32,
                a: held(pool[i].0),
                b: held(pool[i].1),
                color: remembered[i],
                kind: LaneKind::Single,
            })
            .collect()
    }

    /// What the solver writes back after a step: each colored contact's
    /// color, and none for those that left.
    fn remember(remembered: &mut [u8], keys: &[ColorKey], kept: &KeptColors) {
        for k in keys {
            remembered[k.item as usize] = k.color;
        }
        for &i in kept.left_contacts() {
            remembered[i as usize] = NO_COLOR;
        }
    }

    #[test]
    fn colors_persist_and_a_restored_coloring_continues_identically() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..20 {
            let bodies = 30;
            let pool = pool(&mut rng, bodies, 150);
            let mut present = vec![false; pool.len()];
            let mut kept = KeptColors::default();
            kept.prime(std::iter::empty(), std::iter::empty(), bodies as usize);
            let mut remembered = vec![NO_COLOR; pool.len()];
            let everything = vec![true; pool.len()];
            for _ in 0..40 {
                // About one contact in ten begins or ends each step.
                for p in present.iter_mut() {
                    if rng.range(0.0, 1.0) < 0.1 {
                        *p = !*p;
                    }
                }
                // The same step in a world restored from a snapshot of the
                // last: a coloring primed from the contacts' saved colors.
                let mut restored = KeptColors::default();
                let saved: Vec<ColorKey> = step_keys(&pool, &everything, &remembered)
                    .into_iter()
                    .filter(|k| k.color != NO_COLOR)
                    .collect();
                restored.prime(std::iter::empty(), saved.into_iter(), bodies as usize);
                assert_eq!(restored.held, kept.held, "the primed masks are the kept ones");
                let mut restored_keys = step_keys(&pool, &present, &remembered);
                let mut restored_remembered = remembered.clone();
                restored.color(&mut [], &mut restored_keys, bodies as usize);

                let mut keys = step_keys(&pool, &present, &remembered);
                let before = keys.clone();
                kept.color(&mut [], &mut keys, bodies as usize);
                assert_eq!(keys, restored_keys, "a restored coloring went its own way");
                // A contact that was colored and still is keeps its
                // color; only the others are recolored.
                for (k, was) in keys.iter().zip(&before) {
                    if (was.color as usize) < GRAPH_COLORS && !kept.recolored().contains(&(k.item)) {
                        assert_eq!(k.color, was.color);
                    }
                }
                // Each dynamic body holds exactly its contacts' colors,
                // none of them twice.
                let mut expected = vec![0u32; bodies as usize];
                for k in keys.iter().filter(|k| (k.color as usize) < GRAPH_COLORS) {
                    let bit = 1 << k.color;
                    assert!(allowed(k) & bit != 0, "color {} does not suit {k:?}", k.color);
                    for body in [k.a, k.b].into_iter().filter(|&b| b != NOT_HELD) {
                        assert_eq!(expected[body as usize] & bit, 0, "body {body} twice in a color");
                        expected[body as usize] |= bit;
                    }
                }
                assert_eq!(kept.held, expected);
                // What the contacts remember afterwards is the same too
                // (those that left forget their colors in both).
                remember(&mut remembered, &keys, &kept);
                remember(&mut restored_remembered, &restored_keys, &restored);
                assert_eq!(remembered, restored_remembered);
                for (i, &c) in remembered.iter().enumerate() {
                    assert_eq!(
                        c != NO_COLOR,
                        present[i],
                        "only what was colored remembers a color"
                    );
                }
            }
        }
    }

    #[test]
    fn joints_keep_their_colors_and_free_them_when_they_go() {
        // Three joints in a chain of dynamic bodies 1-2-3-4, colored 0, 1
        // and 0; with the middle one gone, a new joint on body 2 takes 1.
        let key = |item: u32, a: u32, b: u32| ColorKey {
            item,
            a,
            b,
            color: NO_COLOR,
            kind: LaneKind::Alone,
        };
        let mut kept = KeptColors::default();
        kept.prime(std::iter::empty(), std::iter::empty(), 5);
        let mut joints = vec![key(0, 1, 2), key(1, 2, 3), key(2, 3, 4)];
        kept.color(&mut joints, &mut [], 5);
        assert_eq!(joints.iter().map(|j| j.color).collect::<Vec<_>>(), [0, 1, 0]);
        let mut next = vec![joints[0], joints[2], key(3, 2, 0)];
        next[2].b = NOT_HELD;
        kept.color(&mut next, &mut [], 5);
        assert_eq!(kept.left_joints(), [1]);
        // A joint with one dynamic body takes the last color free on it.
        assert_eq!(next.iter().map(|j| j.color).collect::<Vec<_>>(), [0, 0, 23]);
        let mut again = vec![next[0], next[1], key(4, 2, 3)];
        kept.color(&mut again, &mut [], 5);
        assert_eq!(again[2].color, 1, "the color the gone joint held is free again");
    }
}
