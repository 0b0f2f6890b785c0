//! The lists of constraints on each body: every contact and every joint
//! is on both its bodies' lists, so what touches or holds a body is found
//! from the body alone, without looking at any other constraint.
//!
//! A list is doubly linked through the constraints themselves (each has
//! two [`Edge`]s, one per end), so linking and unlinking never allocate.
//! The links are edge keys ([`edge_key`]): a constraint slot and which of
//! its two ends.

use super::{Body, NULL};
use crate::store::Store;

/// One end of a constraint on its body's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Edge {
    pub prev: u32,
    pub next: u32,
}

impl Default for Edge {
    fn default() -> Self {
        Edge {
            prev: NULL,
            next: NULL,
        }
    }
}

/// The head and length of one of a body's lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct EdgeList {
    /// The first edge key, or [`NULL`].
    pub head: u32,
    /// How many constraints are on the list.
    pub count: u32,
}

impl Default for EdgeList {
    fn default() -> Self {
        EdgeList { head: NULL, count: 0 }
    }
}

/// The key of end `side` (0: body A, 1: body B) of constraint `index`.
#[inline]
pub(crate) fn edge_key(index: u32, side: u32) -> u32 {
    (index << 1) | side
}

/// A constraint between two bodies that sits on a list of each: a
/// contact or a joint.
pub(crate) trait Linked {
    /// The body at end `side` (0: A, 1: B).
    fn body(&self, side: u32) -> u32;
    /// The constraint's places on body A's and body B's lists.
    fn edges(&self) -> &[Edge; 2];
    /// The same, to change.
    fn edges_mut(&mut self) -> &mut [Edge; 2];
    /// The body's list this kind of constraint is on.
    fn list(body: &Body) -> &EdgeList;
    /// The same, to change.
    fn list_mut(body: &mut Body) -> &mut EdgeList;
}

/// Implements [`Linked`] for a constraint type with an inherent
/// `body(side)`, an `edges: [Edge; 2]` field, on the body's list field
/// `$list`.
macro_rules! impl_linked {
    ($t:ty, $list:ident) => {
        impl $crate::body::edges::Linked for $t {
            #[inline]
            fn body(&self, side: u32) -> u32 {
                <$t>::body(self, side)
            }
            #[inline]
            fn edges(&self) -> &[$crate::body::edges::Edge; 2] {
                &self.edges
            }
            #[inline]
            fn edges_mut(&mut self) -> &mut [$crate::body::edges::Edge; 2] {
                &mut self.edges
            }
            #[inline]
            fn list(body: &$crate::body::Body) -> &$crate::body::EdgeList {
                &body.$list
            }
            #[inline]
            fn list_mut(body: &mut $crate::body::Body) -> &mut $crate::body::EdgeList {
                &mut body.$list
            }
        }
    };
}

pub(crate) use impl_linked;

/// Puts constraint `i` at the head of both its bodies' lists.
pub(crate) fn link<T: Linked>(items: &mut Store<T>, bodies: &mut Store<Body>, i: u32) {
    for side in 0..2 {
        let bi = items[i].body(side);
        let head = T::list(&bodies[bi]).head;
        items[i].edges_mut()[side as usize] = Edge {
            prev: NULL,
            next: head,
        };
        if head != NULL {
            items[head >> 1].edges_mut()[(head & 1) as usize].prev = edge_key(i, side);
        }
        let list = T::list_mut(&mut bodies[bi]);
        list.head = edge_key(i, side);
        list.count += 1;
    }
}

/// Takes constraint `i` off both its bodies' lists.
pub(crate) fn unlink<T: Linked>(items: &mut Store<T>, bodies: &mut Store<Body>, i: u32) {
    for side in 0..2 {
        let bi = items[i].body(side);
        let Edge { prev, next } = items[i].edges()[side as usize];
        if prev != NULL {
            items[prev >> 1].edges_mut()[(prev & 1) as usize].next = next;
        } else {
            T::list_mut(&mut bodies[bi]).head = next;
        }
        if next != NULL {
            items[next >> 1].edges_mut()[(next & 1) as usize].prev = prev;
        }
        items[i].edges_mut()[side as usize] = Edge::default();
        T::list_mut(&mut bodies[bi]).count -= 1;
    }
}

/// The constraints on a body's list of `T`, head first, as `(slot,
/// side)`: the body is end `side` of each.
pub(crate) fn on_body<'a, T: Linked>(
    items: &'a Store<T>,
    body: &Body,
) -> impl Iterator<Item = (u32, u32)> + 'a {
    let mut key = T::list(body).head;
    std::iter::from_fn(move || {
        if key == NULL {
            return None;
        }
        let (i, side) = (key >> 1, key & 1);
        key = items[i].edges()[side as usize].next;
        Some((i, side))
    })
}

/// Checks that every body's list of `T` holds exactly the constraints
/// that name it, each once (walked with a step bound, so a cycle is an
/// error, not a hang): for loading snapshots.
#[cfg(feature = "serde")]
pub(crate) fn check_lists<T: Linked>(items: &Store<T>, bodies: &Store<Body>) -> Result<(), ()> {
    let mut seen = 0usize;
    for (bi, b) in bodies.iter() {
        let list = T::list(b);
        let mut key = list.head;
        let mut count = 0u32;
        while key != NULL {
            let (i, side) = (key >> 1, key & 1);
            if !items.is_alive(i) || items[i].body(side) != bi || count > list.count {
                return Err(());
            }
            count += 1;
            key = items[i].edges()[side as usize].next;
        }
        if count != list.count {
            return Err(());
        }
        seen += count as usize;
    }
    if seen == 2 * items.count() {
        Ok(())
    } else {
        Err(())
    }
}
