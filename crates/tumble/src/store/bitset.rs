//! A bit set over slot indices, iterated in index order: the world's
//! awake sets. Walking it costs one word per 64 slots plus one step per set
//! bit, so a set that is mostly clear (a world mostly asleep) is cheap to
//! walk however many slots there are.

/// A growable set of `u32` indices, one bit each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct BitSet {
    words: Vec<u64>,
    /// Set bits.
    count: usize,
}

impl BitSet {
    /// Adds `i`; returns whether it was new.
    #[inline]
    pub fn insert(&mut self, i: u32) -> bool {
        let (w, bit) = ((i / 64) as usize, 1u64 << (i % 64));
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        let fresh = self.words[w] & bit == 0;
        self.words[w] |= bit;
        self.count += usize::from(fresh);
        fresh
    }

    /// Removes `i`; returns whether it was there.
    #[inline]
    pub fn remove(&mut self, i: u32) -> bool {
        let (w, bit) = ((i / 64) as usize, 1u64 << (i % 64));
        match self.words.get_mut(w) {
            Some(word) if *word & bit != 0 => {
                *word &= !bit;
                self.count -= 1;
                true
            }
            _ => false,
        }
    }

    /// Whether `i` is in the set.
    #[inline]
    pub fn contains(&self, i: u32) -> bool {
        self.words
            .get((i / 64) as usize)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }

    /// Empties the set (keeping its capacity).
    pub fn clear(&mut self) {
        self.words.fill(0);
        self.count = 0;
    }

    /// Number of indices in the set: O(1).
    #[inline]
    pub fn len(&self) -> usize {
        self.count
    }

    /// The indices, in increasing order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| Bits {
            word,
            base: (w * 64) as u32,
        })
    }

    /// Heap bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.words.capacity() * std::mem::size_of::<u64>()
    }

    /// Whether the cached count matches the bits (a loaded snapshot's
    /// claim).
    #[cfg(feature = "serde")]
    pub fn is_consistent(&self) -> bool {
        self.words.iter().map(|w| w.count_ones() as usize).sum::<usize>() == self.count
    }
}

/// The set bits of one word, lowest first.
struct Bits {
    word: u64,
    base: u32,
}

impl Iterator for Bits {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.word == 0 {
            return None;
        }
        let i = self.word.trailing_zeros();
        // Clear the lowest set bit.
        self.word &= self.word - 1;
        Some(self.base + i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_in_order_and_counts() {
        let mut set = BitSet::default();
        for i in [130, 3, 64, 63, 0, 3] {
            set.insert(i);
        }
        assert_eq!(set.len(), 5, "3 was inserted twice");
        assert_eq!(set.iter().collect::<Vec<_>>(), [0, 3, 63, 64, 130]);
        assert!(set.remove(63));
        assert!(!set.remove(63));
        assert!(!set.remove(10_000), "an index past the end is simply absent");
        assert!(!set.contains(63) && set.contains(64));
        assert_eq!(set.iter().collect::<Vec<_>>(), [0, 3, 64, 130]);
        assert_eq!(set.len(), 4);
    }
}
