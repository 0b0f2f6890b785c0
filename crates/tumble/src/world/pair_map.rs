//! The map from a pair of shapes to their contact, which the pair search
//! asks for every pair of overlapping fat boxes it finds.
//!
//! Most of what a moved shape's box overlaps already has a contact, so
//! the search asks about many pairs for each one it keeps, and each
//! question lands on a random place in a table too big for the cache.
//! This table is a plain open-addressing one (linear probing, at most
//! half full, keys in an array of their own) so that the search can ask
//! for a key's place to be brought in ([`PairMap::prefetch`]) while it is
//! still finding the next pairs, and a question about a pair then costs
//! one cache line, not a wait for memory.

use crate::solver::prefetch;

/// A free place in [`PairMap::keys`]: no pair has this key (it would be
/// a shape paired with itself, at the largest slot).
const EMPTY: u64 = u64::MAX;

/// Pair keys ([`crate::broadphase::pair_key`]) to contact slots. Nothing
/// iterates it, so its layout never reaches the simulation's results.
#[derive(Clone, Debug, Default)]
pub(super) struct PairMap {
    /// Each place's key, or [`EMPTY`]; a power of two of them (or none).
    keys: Vec<u64>,
    /// Each place's contact slot.
    values: Vec<u32>,
    /// Keys held.
    len: usize,
}

impl PairMap {
    /// The place a key is looked for first: the top bits of a
    /// multiplicative hash of the key (whose halves are two shape slots,
    /// so the low bits alone would crowd neighbours together).
    #[inline]
    fn home(&self, key: u64) -> usize {
        let h = (key ^ (key >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let bits = self.keys.len().trailing_zeros();
        // (`bits` is at least 3: the table starts at 8 places.)
        (h >> (64 - bits)) as usize
    }

    /// The place holding `key`, if it is held.
    #[inline]
    fn find(&self, key: u64) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        let mask = self.keys.len() - 1;
        let mut i = self.home(key);
        loop {
            match self.keys[i] {
                k if k == key => return Some(i),
                EMPTY => return None,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Whether `key` is held.
    #[inline]
    pub fn contains_key(&self, key: u64) -> bool {
        self.find(key).is_some()
    }

    /// Asks for the cache line where [`PairMap::contains_key`] will look
    /// for `key` first (a hint: it changes nothing).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        if !self.keys.is_empty() {
            prefetch(&self.keys[self.home(key)]);
        }
    }

    /// Maps `key` to `value`; returns the value it had, if any.
    pub fn insert(&mut self, key: u64, value: u32) -> Option<u32> {
        debug_assert_ne!(key, EMPTY);
        if 2 * (self.len + 1) > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = self.home(key);
        loop {
            match self.keys[i] {
                k if k == key => return Some(std::mem::replace(&mut self.values[i], value)),
                EMPTY => {
                    self.keys[i] = key;
                    self.values[i] = value;
                    self.len += 1;
                    return None;
                }
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Removes `key`; returns its value, if it was held. The keys after it
    /// in its run move back to fill the gap (so no tombstones: a lookup
    /// stops at the first empty place).
    pub fn remove(&mut self, key: u64) -> Option<u32> {
        let mut hole = self.find(key)?;
        let value = self.values[hole];
        let mask = self.keys.len() - 1;
        let mut i = hole;
        loop {
            i = (i + 1) & mask;
            let k = self.keys[i];
            if k == EMPTY {
                break;
            }
            // A key may move back into the hole only if its home is not
            // cyclically after the hole (up to its own place).
            let home = self.home(k);
            let stays = if hole <= i {
                hole < home && home <= i
            } else {
                hole < home || home <= i
            };
            if !stays {
                self.keys[hole] = k;
                self.values[hole] = self.values[i];
                hole = i;
            }
        }
        self.keys[hole] = EMPTY;
        self.len -= 1;
        Some(value)
    }

    /// Doubles the places (8 at first) and puts every key in again.
    fn grow(&mut self) {
        let places = (2 * self.keys.len()).max(8);
        let keys = std::mem::replace(&mut self.keys, vec![EMPTY; places]);
        let values = std::mem::replace(&mut self.values, vec![0; places]);
        self.len = 0;
        for (k, v) in keys.into_iter().zip(values) {
            if k != EMPTY {
                self.insert(k, v);
            }
        }
    }

    /// Heap bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.keys.capacity() * std::mem::size_of::<u64>()
            + self.values.capacity() * std::mem::size_of::<u32>()
    }
}

#[cfg(test)]
mod tests {
    use super::PairMap;
    use crate::broadphase::pair_key;
    use crate::test_rng::Rng;
    use std::collections::HashMap;

    /// Random inserts and removes, many colliding in a small table, agree
    /// with the standard map at every step.
    #[test]
    fn agrees_with_a_hash_map_through_inserts_and_removes() {
        let mut rng = Rng(7);
        let mut below = |n: u32| rng.range(0.0, n as f32) as u32;
        let mut map = PairMap::default();
        let mut reference = HashMap::new();
        for step in 0..20_000u32 {
            let (a, b) = (below(60), below(60));
            if a == b {
                continue;
            }
            let key = pair_key(a, b);
            if below(3) == 0 {
                assert_eq!(map.remove(key), reference.remove(&key), "remove at step {step}");
            } else {
                assert_eq!(
                    map.insert(key, step),
                    reference.insert(key, step),
                    "insert at step {step}"
                );
            }
            assert_eq!(map.len, reference.len());
            let (c, d) = (below(60), below(60));
            let probe = pair_key(c, d);
            assert_eq!(map.contains_key(probe), reference.contains_key(&probe));
            map.prefetch(probe);
        }
        for &key in reference.keys() {
            assert!(map.contains_key(key));
        }
        assert!(2 * map.len <= map.keys.len());
    }

    #[test]
    fn an_empty_map_holds_nothing() {
        let mut map = PairMap::default();
        map.prefetch(pair_key(1, 2));
        assert!(!map.contains_key(pair_key(1, 2)));
        assert_eq!(map.remove(pair_key(1, 2)), None);
        assert_eq!(map.insert(pair_key(1, 2), 5), None);
        assert_eq!(map.insert(pair_key(2, 1), 6), Some(5));
        assert_eq!(map.remove(pair_key(1, 2)), Some(6));
        assert!(!map.contains_key(pair_key(1, 2)));
    }
}
