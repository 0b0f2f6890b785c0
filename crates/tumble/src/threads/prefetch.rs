//! A hint to the processor to start loading a value it will soon read.
//!
//! Some stages walk a list of items that lie far apart in memory (the
//! contacts with points, in slot order, scattered through the contact
//! store): each one's first read waits for memory, and with the item's
//! work done in between, the hardware's own prefetcher cannot see the
//! pattern. Asking for the item a few places ahead hides that wait.

/// How many items ahead a walk asks for the item it will read: about a
/// memory latency's worth of the work a contact takes (a few hundred
/// instructions each in the collide kernel and the prepare).
pub(crate) const PREFETCH_AHEAD: usize = 4;

/// Asks for every cache line of `value` to be brought in (a hint: it
/// changes no value, reads nothing and never faults): [`prefetch_head`]
/// of all of it. A no-op off x86-64.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    prefetch_head(value, std::mem::size_of::<T>());
}

/// Asks for the cache lines that hold the first `bytes` of `value` (at
/// most all of it), wherever it starts in its first line: for a walk that
/// reads only the head of each item, or of all of it ([`prefetch`]). One
/// address every 64 bytes and the head's last byte, which leaves no line
/// between them out: with `bytes` known at compile time, the loop unrolls
/// into that many instructions. A no-op off x86-64.
#[inline(always)]
pub(crate) fn prefetch_head<T>(value: &T, bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let bytes = bytes.min(std::mem::size_of::<T>());
        let start = (value as *const T).cast::<i8>();
        let last = bytes.saturating_sub(1);
        for line in 0..bytes.div_ceil(64) {
            // SAFETY: `_mm_prefetch` only hints the cache: it reads
            // nothing the program sees and does not fault, whatever the
            // address (here one inside `value`, which is live and
            // borrowed). SSE is part of x86-64.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(64 * line)) };
        }
        if bytes > 0 {
            // SAFETY: likewise.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(last)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (value, bytes);
}

#[cfg(test)]
mod tests {
    use super::{prefetch, prefetch_head};

    #[test]
    fn prefetching_changes_nothing() {
        // Values of one line, several lines, and none; the last element
        // of a slice (its lines end exactly at the slice's end).
        let small = 7u8;
        let big = [3.5f32; 100];
        let empty = ();
        prefetch(&small);
        prefetch(&big);
        prefetch(&empty);
        let v: Vec<[u64; 9]> = vec![[1; 9]; 3];
        prefetch(&v[2]);
        prefetch_head(&v[1], 40);
        prefetch_head(&v[2], 1000);
        prefetch_head(&empty, 8);
        assert_eq!(small, 7);
        assert!(big.iter().all(|&x| x == 3.5));
        assert_eq!(v[2], [1; 9]);
    }
}
