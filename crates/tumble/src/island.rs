//! Persistent islands: groups of non-static bodies linked by touching
//! contacts and by joints, which fall asleep and wake up together.
//!
//! An island is kept from step to step, not found anew: a contact that
//! begins touching merges its two bodies' islands at once ([`merge`]); one
//! that stops touching only marks its island as possibly come apart
//! (`constraint_remove_count`), and the split is deferred ([`split`], at
//! most one island a step, and only one that wants to sleep) because most
//! islands that lose a contact are still connected, and a split costs a walk
//! over the whole island. Static bodies belong to no island (a floor would
//! otherwise join everything on it), so contacts with them link nothing.
//! Kinematic bodies do belong to one, so a moving platform keeps what it
//! carries awake.
//!
//! An island's bodies form a doubly linked list through the bodies
//! themselves (`island_prev`, `island_next`): nothing here allocates.

use crate::body::{Body, NULL};
use crate::contact::{body_contacts, Contact};
use crate::joint::{body_joints, Joint};
use crate::store::Store;

/// One island: a list of bodies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Island {
    /// First body of the list.
    pub head: u32,
    /// Last body of the list.
    pub tail: u32,
    /// Bodies on the list.
    pub body_count: u32,
    /// Touching contacts between its bodies that stopped touching (or
    /// were destroyed) since the island was last known to be connected: if
    /// not zero, it may have come apart and must be split before it sleeps.
    pub constraint_remove_count: u32,
}

/// A new island holding body `bi` alone.
pub(crate) fn create(islands: &mut Store<Island>, bodies: &mut Store<Body>, bi: u32) -> u32 {
    let island = islands
        .insert(Island {
            head: bi,
            tail: bi,
            body_count: 1,
            constraint_remove_count: 0,
        })
        .index;
    let b = &mut bodies[bi];
    b.island = island;
    b.island_prev = NULL;
    b.island_next = NULL;
    island
}

/// Takes body `bi` out of its island, once its contacts are gone; an
/// island left empty is destroyed and its slot returned.
pub(crate) fn remove_body(islands: &mut Store<Island>, bodies: &mut Store<Body>, bi: u32) -> Option<u32> {
    let (island, prev, next) = {
        let b = &bodies[bi];
        (b.island, b.island_prev, b.island_next)
    };
    if island == NULL {
        return None;
    }
    if prev != NULL {
        bodies[prev].island_next = next;
    } else {
        islands[island].head = next;
    }
    if next != NULL {
        bodies[next].island_prev = prev;
    } else {
        islands[island].tail = prev;
    }
    let b = &mut bodies[bi];
    b.island = NULL;
    b.island_prev = NULL;
    b.island_next = NULL;
    let is = &mut islands[island];
    is.body_count -= 1;
    if is.body_count == 0 {
        islands.remove(island);
        return Some(island);
    }
    // (Its contacts were destroyed first, and each that linked it counted
    // as a removal: that is what may have split the island.)
    None
}

/// Merges islands `a` and `b` (which may be the same) into the larger, so
/// the walk that relabels bodies is over the smaller, and returns the slot
/// of the one destroyed, if any.
pub(crate) fn merge(islands: &mut Store<Island>, bodies: &mut Store<Body>, a: u32, b: u32) -> Option<u32> {
    if a == b {
        return None;
    }
    let (big, small) = if islands[a].body_count >= islands[b].body_count {
        (a, b)
    } else {
        (b, a)
    };
    let s = islands[small];
    let mut bi = s.head;
    while bi != NULL {
        bodies[bi].island = big;
        bi = bodies[bi].island_next;
    }
    // Append the small list to the big one.
    let big_tail = islands[big].tail;
    bodies[big_tail].island_next = s.head;
    bodies[s.head].island_prev = big_tail;
    let g = &mut islands[big];
    g.tail = s.tail;
    g.body_count += s.body_count;
    g.constraint_remove_count += s.constraint_remove_count;
    islands.remove(small);
    Some(small)
}

/// The bodies of `island`, head first.
pub(crate) fn bodies_of<'a>(
    islands: &Store<Island>,
    bodies: &'a Store<Body>,
    island: u32,
) -> impl Iterator<Item = u32> + 'a {
    let mut bi = islands[island].head;
    std::iter::from_fn(move || {
        if bi == NULL {
            return None;
        }
        let current = bi;
        bi = bodies[bi].island_next;
        Some(current)
    })
}

/// Reused buffers of [`split`].
#[derive(Clone, Debug, Default)]
pub(crate) struct SplitScratch {
    /// The island's bodies, in list order.
    members: Vec<u32>,
    /// Union-find parent of each member (an index into `members`).
    parent: Vec<u32>,
    /// The island each member's component goes to, by root.
    target: Vec<u32>,
    /// Per body slot: its index in `members` (set for the members only).
    member_of: Vec<u32>,
}

impl SplitScratch {
    /// Heap bytes held.
    pub fn memory_bytes(&self) -> usize {
        (self.members.capacity()
            + self.parent.capacity()
            + self.target.capacity()
            + self.member_of.capacity())
            * std::mem::size_of::<u32>()
    }
}

/// The root of member `i`, halving the path on the way.
fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let grand = parent[parent[i as usize] as usize];
        parent[i as usize] = grand;
        i = grand;
    }
    i
}

/// Splits `island` into its connected components (bodies linked by
/// touching contacts or joints with no static body), by union-find over
/// the contact and joint lists of its bodies. The component of the island's first body keeps the
/// island; each other component gets a new island, in the order of its
/// first body on the old list, so the result depends only on the lists.
/// The new islands are appended to `created`.
pub(crate) fn split(
    islands: &mut Store<Island>,
    bodies: &mut Store<Body>,
    (contacts, joints): (&Store<Contact>, &Store<Joint>),
    island: u32,
    scratch: &mut SplitScratch,
    created: &mut Vec<u32>,
) {
    let SplitScratch {
        members,
        parent,
        target,
        member_of,
    } = scratch;
    members.clear();
    members.extend(bodies_of(islands, bodies, island));
    if member_of.len() < bodies.slot_count() {
        member_of.resize(bodies.slot_count(), NULL);
    }
    for (k, &bi) in members.iter().enumerate() {
        member_of[bi as usize] = k as u32;
    }
    parent.clear();
    parent.extend(0..members.len() as u32);
    let mut join = |k: usize, other: u32| {
        let (ra, rb) = (find(parent, k as u32), find(parent, member_of[other as usize]));
        if ra != rb {
            // The smaller index as root, so roots are first members.
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            parent[hi as usize] = lo;
        }
    };
    for (k, &bi) in members.iter().enumerate() {
        // Each contact and joint is seen from both ends: take it from A's.
        for (ci, side) in body_contacts(contacts, &bodies[bi]) {
            let c = &contacts[ci];
            let other = c.body(1 - side);
            if side == 0 && c.touching() && bodies[other].island == island {
                join(k, other);
            }
        }
        for (ji, side) in body_joints(joints, &bodies[bi]) {
            let j = &joints[ji];
            let other = j.body(1 - side);
            if side == 0 && j.is_solved() && bodies[other].island == island {
                join(k, other);
            }
        }
    }
    // Lay out the lists again, one island per root, in member order.
    target.clear();
    target.resize(members.len(), NULL);
    for (k, &bi) in members.iter().enumerate() {
        let root = find(parent, k as u32) as usize;
        if target[root] == NULL {
            // A new list starting at this body (filled in below).
            let fresh = Island {
                head: bi,
                tail: bi,
                body_count: 0,
                constraint_remove_count: 0,
            };
            target[root] = if k == 0 {
                islands[island] = fresh;
                island
            } else {
                let new = islands.insert(fresh).index;
                created.push(new);
                new
            };
        }
        let to = target[root];
        let tail = islands[to].tail;
        let is = &mut islands[to];
        is.body_count += 1;
        is.tail = bi;
        let first = is.body_count == 1;
        let b = &mut bodies[bi];
        b.island = to;
        b.island_next = NULL;
        b.island_prev = if first { NULL } else { tail };
        if !first {
            bodies[tail].island_next = bi;
        }
    }
}
