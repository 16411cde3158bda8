//! Software prefetch. Random queries on a large graph are bound by memory latency (the
//! component map and the labels of two random vertices), and a batch knows its next queries, so it
//! asks for their cache lines a few queries ahead and overlaps the misses.

/// Hints that `slice[index]` will be read soon; on targets without a prefetch instruction this
/// does nothing. Unchecked, because a prefetch never faults: an index out of range only fetches a
/// useless line, and the check cost a tenth of the fastest batch loops.
#[inline(always)]
pub(crate) fn prefetch<T>(slice: &[T], index: usize) {
    prefetch_address(slice.as_ptr().wrapping_add(index) as *const i8);
}

/// Hints that `*pointer` will be read soon (the pointer is never dereferenced).
#[inline(always)]
pub(crate) fn prefetch_pointer<T>(pointer: *const T) {
    prefetch_address(pointer as *const i8);
}

/// Hints that all of `value` will be read soon: its first and last bytes' lines (a record of more
/// than one byte may straddle two).
#[inline(always)]
pub(crate) fn prefetch_whole<T>(value: &T) {
    let first = value as *const T as *const i8;
    prefetch_address(first);
    prefetch_address(first.wrapping_add(std::mem::size_of::<T>().saturating_sub(1)));
}

#[inline(always)]
fn prefetch_address(address: *const i8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: PREFETCHT0 is a hint: it never faults and has no effect visible to the program, and
    // `address` points into a live slice anyway. SSE is part of the x86_64 baseline.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}
