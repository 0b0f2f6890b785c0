//! One generational slot store for every kind of object the world owns
//! (bodies, shapes, contacts, islands), and a bit set over its slots.
//!
//! A slot holds a value and a generation. Removing a value frees its slot
//! for reuse and bumps the generation, so a handle that remembers both (a
//! [`Key`]) goes stale instead of pointing at whatever took the slot next.
//! Freed slots are reused last-freed first, which keeps the order new
//! values get deterministic. The value of a freed slot stays in place until
//! the slot is reused (nothing reads it); the count of live values is kept,
//! so asking for it is O(1).

mod bitset;

pub(crate) use bitset::BitSet;

/// A slot index and the generation it had when the value was inserted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Key {
    pub index: u32,
    pub generation: u32,
}

/// Whether a slot is in use and how many times it has been.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Meta {
    /// Starts at 1 and goes up by one each time the slot is filled again.
    generation: u32,
    alive: bool,
}

/// A generational slot store: values addressed by slot index, slots reused
/// after removal. In a snapshot a free slot's stale value is left out (one
/// byte in postcard), and a loaded store fills it with `T::default()`,
/// which nothing reads.
#[derive(Clone, Debug)]
pub(crate) struct Store<T> {
    values: Vec<T>,
    meta: Vec<Meta>,
    /// Freed slots, reused from the end.
    free: Vec<u32>,
    /// Live values.
    count: usize,
}

impl<T> Default for Store<T> {
    fn default() -> Self {
        Store {
            values: Vec::new(),
            meta: Vec::new(),
            free: Vec::new(),
            count: 0,
        }
    }
}

impl<T> Store<T> {
    /// Stores `value` in a free slot (the last freed) or a new one.
    pub fn insert(&mut self, value: T) -> Key {
        self.count += 1;
        match self.free.pop() {
            Some(index) => {
                let i = index as usize;
                let meta = &mut self.meta[i];
                meta.generation = meta.generation.wrapping_add(1);
                meta.alive = true;
                self.values[i] = value;
                Key {
                    index,
                    generation: meta.generation,
                }
            }
            None => {
                let index = self.values.len() as u32;
                self.values.push(value);
                self.meta.push(Meta {
                    generation: 1,
                    alive: true,
                });
                Key { index, generation: 1 }
            }
        }
    }

    /// Frees slot `index`. Returns whether it held a live value.
    pub fn remove(&mut self, index: u32) -> bool {
        match self.meta.get_mut(index as usize) {
            Some(meta) if meta.alive => {
                meta.alive = false;
                self.free.push(index);
                self.count -= 1;
                true
            }
            _ => false,
        }
    }

    /// Whether slot `index` still holds the value inserted at
    /// `generation` (a handle's check).
    #[inline]
    pub fn is_current(&self, index: u32, generation: u32) -> bool {
        self.meta
            .get(index as usize)
            .is_some_and(|m| m.alive && m.generation == generation)
    }

    /// Whether slot `index` holds a live value.
    #[inline]
    pub fn is_alive(&self, index: u32) -> bool {
        self.meta.get(index as usize).is_some_and(|m| m.alive)
    }

    /// The key of the live value in slot `index` (its current generation).
    #[inline]
    pub fn key(&self, index: u32) -> Key {
        Key {
            index,
            generation: self.meta[index as usize].generation,
        }
    }

    /// Live values: O(1).
    #[inline]
    pub fn count(&self) -> usize {
        self.count
    }

    /// Slots in use or free: one past the highest slot index.
    #[inline]
    pub fn slot_count(&self) -> usize {
        self.values.len()
    }

    /// Every slot's value, live or free (a free slot holds a stale or
    /// default value): for a loop that picks its slots by index.
    pub fn slots_mut(&mut self) -> &mut [T] {
        &mut self.values
    }

    /// Live values with their slot indices, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &T)> + '_ {
        self.values
            .iter()
            .zip(&self.meta)
            .enumerate()
            .filter(|(_, (_, m))| m.alive)
            .map(|(i, (v, _))| (i as u32, v))
    }

    /// Heap bytes held (capacities).
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        self.values.capacity() * size_of::<T>()
            + self.meta.capacity() * size_of::<Meta>()
            + self.free.capacity() * size_of::<u32>()
    }

    /// Checks what a loaded snapshot claims: the count matches the live
    /// slots, and the free list names each dead slot once and no live one.
    #[cfg(feature = "serde")]
    pub fn check(&self) -> Result<(), &'static str> {
        if self.values.len() != self.meta.len() {
            return Err("a store's values and slots differ in number");
        }
        let live = self.meta.iter().filter(|m| m.alive).count();
        if live != self.count {
            return Err("a store's count does not match its live slots");
        }
        let mut seen = vec![false; self.meta.len()];
        for &i in &self.free {
            match self.meta.get(i as usize) {
                Some(m) if !m.alive && !seen[i as usize] => seen[i as usize] = true,
                _ => return Err("a free list names a live, repeated or missing slot"),
            }
        }
        if self.free.len() + live != self.meta.len() {
            return Err("a store's free list misses a dead slot");
        }
        Ok(())
    }
}

/// What a store is saved as: each slot's value if it is live (borrowed
/// when saving, owned when loading).
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct Saved<'a, V> {
    values: Vec<Option<V>>,
    meta: std::borrow::Cow<'a, [Meta]>,
    free: std::borrow::Cow<'a, [u32]>,
    count: usize,
}

#[cfg(feature = "serde")]
impl<T: serde::Serialize> serde::Serialize for Store<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Saved {
            values: self
                .values
                .iter()
                .zip(&self.meta)
                .map(|(v, m)| m.alive.then_some(v))
                .collect(),
            meta: std::borrow::Cow::Borrowed(&self.meta),
            free: std::borrow::Cow::Borrowed(&self.free),
            count: self.count,
        }
        .serialize(serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de, T: serde::Deserialize<'de> + Default> serde::Deserialize<'de> for Store<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Store<T>, D::Error> {
        use serde::de::Error as _;
        let saved = Saved::<T>::deserialize(deserializer)?;
        if saved.values.len() != saved.meta.len()
            || saved
                .values
                .iter()
                .zip(saved.meta.iter())
                .any(|(v, m)| v.is_some() != m.alive)
        {
            return Err(D::Error::custom("a store's values do not match its live slots"));
        }
        Ok(Store {
            values: saved.values.into_iter().map(Option::unwrap_or_default).collect(),
            meta: saved.meta.into_owned(),
            free: saved.free.into_owned(),
            count: saved.count,
        })
    }
}

impl<T> std::ops::Index<u32> for Store<T> {
    type Output = T;
    #[inline]
    fn index(&self, index: u32) -> &T {
        &self.values[index as usize]
    }
}

impl<T> std::ops::IndexMut<u32> for Store<T> {
    #[inline]
    fn index_mut(&mut self, index: u32) -> &mut T {
        &mut self.values[index as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removed_slot_is_reused_with_a_new_generation() {
        let mut store = Store::default();
        let a = store.insert("a");
        let b = store.insert("b");
        assert_eq!((a.index, b.index), (0, 1));
        assert_eq!(store.count(), 2);
        assert!(store.remove(a.index));
        assert!(!store.remove(a.index), "a second removal is refused");
        assert_eq!(store.count(), 1);
        assert!(!store.is_current(a.index, a.generation));
        let c = store.insert("c");
        assert_eq!(c.index, a.index, "the freed slot is reused");
        assert_ne!(c.generation, a.generation);
        assert!(
            !store.is_current(a.index, a.generation),
            "the old key stays stale"
        );
        assert!(store.is_current(c.index, c.generation));
        assert_eq!(store[c.index], "c");
        assert_eq!(store.count(), 2);
    }

    #[test]
    fn iteration_is_in_slot_order_over_live_values() {
        let mut store = Store::default();
        for i in 0..6 {
            store.insert(i);
        }
        store.remove(1);
        store.remove(4);
        let live: Vec<_> = store.iter().map(|(i, v)| (i, *v)).collect();
        assert_eq!(live, [(0, 0), (2, 2), (3, 3), (5, 5)]);
        assert_eq!(store.count(), live.len());
        assert_eq!(store.slot_count(), 6);
        // Last freed, first reused.
        assert_eq!(store.insert(9).index, 4);
        assert_eq!(store.insert(9).index, 1);
        assert_eq!(store.insert(9).index, 6);
    }
}
