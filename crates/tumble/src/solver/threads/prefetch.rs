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
/// changes no value and never faults). A no-op off x86-64.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    prefetch_lines(value as *const T);
}

/// [`prefetch`] of `items[index]`, with no bounds check: an index past
/// the end asks for nothing useful, and harms nothing (the address is
/// never read).
#[inline(always)]
pub(crate) fn prefetch_at<T>(items: &[T], index: usize) {
    // (`wrapping_add` computes the address without claiming it is valid.)
    prefetch_lines(items.as_ptr().wrapping_add(index));
}

/// Asks for the lines of a `T` at `start`, which is never read: a line
/// from each 64 bytes, a count known at compile time, so the loop
/// unrolls into that many instructions.
#[inline(always)]
fn prefetch_lines<T>(start: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let start = start.cast::<i8>();
        for line in 0..std::mem::size_of::<T>().div_ceil(64) {
            // SAFETY: `_mm_prefetch` only hints the cache: it reads
            // nothing the program sees and does not fault, whatever the
            // address (here one inside a borrowed value or slice, or past
            // a slice's end). SSE is part of x86-64.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(64 * line)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = start;
}

#[cfg(test)]
mod tests {
    use super::{prefetch, prefetch_at};

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
        // In range, one past, far past the end and of an empty slice.
        prefetch_at(&v, 1);
        prefetch_at(&v, 3);
        prefetch_at(&v, usize::MAX / 2);
        prefetch_at::<u32>(&[], 5);
        assert_eq!(small, 7);
        assert!(big.iter().all(|&x| x == 3.5));
        assert_eq!(v[2], [1; 9]);
    }
}
