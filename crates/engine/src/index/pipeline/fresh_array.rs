//! Large per-dimension arrays in fresh anonymous memory, zero without anyone writing the zeros.
//!
//! A `Vec` from the allocator is zero only while its pages are new: once a dimension's arrays have
//! been freed, the next dimension's come from reused memory, and the allocator clears them with one
//! `memset` on one thread before the phases start (on uniprotenc_22m, 13% of the pipeline's time on
//! one thread, and a single-threaded pause per dimension on all of them). A fresh mapping is zero by
//! construction: the kernel clears each page where a phase first touches it, on every thread, and
//! the mapping goes back to the system whole when the array is dropped.

use bytemuck::Zeroable;
use memmap2::{MmapMut, MmapOptions};
use std::alloc::{Layout, handle_alloc_error};
use std::marker::PhantomData;
use std::ops::Deref;

/// `len` zeroed values of `T` in a mapping of their own.
pub struct FreshArray<T> {
    map: MmapMut,
    len: usize,
    values: PhantomData<T>,
}

impl<T: Zeroable> FreshArray<T> {
    /// `len` zeroed values. Running out of memory ends the process, as it does for a `Vec`.
    pub fn zeroed(len: usize) -> FreshArray<T> {
        let layout = Layout::array::<T>(len).unwrap_or_else(|_| panic!("{len} values do not fit in memory"));
        // Pages are aligned far beyond any T the pipeline stores (16 and 32 bytes).
        assert!(layout.align() <= 4096, "a page-aligned mapping cannot hold values aligned to {}", layout.align());
        // An empty mapping is not allowed: ask for at least one byte.
        let map =
            MmapOptions::new().len(layout.size().max(1)).map_anon().unwrap_or_else(|_| handle_alloc_error(layout));
        // Huge pages: the phases read these arrays at random, and a 2 MiB page spares the TLB. Only
        // advice: without transparent huge pages it changes nothing.
        let _ = map.advise(memmap2::Advice::HugePage);
        FreshArray { map, len, values: PhantomData }
    }
}

impl<T> Deref for FreshArray<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: the mapping holds `len` values of T (its size came from `Layout::array`), is
        // page-aligned (more than T needs, checked in `zeroed`) and was zero when mapped, a valid T
        // (`Zeroable`); it lives as long as `self`, and shared access only reads or goes through
        // T's own interior mutability (the atomics the pipeline stores).
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<T>(), self.len) }
    }
}

impl<T> std::fmt::Debug for FreshArray<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FreshArray<{}>[{}]", std::any::type_name::<T>(), self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

    #[test]
    fn arrays_start_zero_and_keep_what_is_stored() {
        let a: FreshArray<AtomicU32> = FreshArray::zeroed(3 << 20);
        assert!(a.iter().step_by(4093).all(|x| x.load(Relaxed) == 0));
        a[12345].store(7, Relaxed);
        assert_eq!(a[12345].load(Relaxed), 7);
        assert_eq!(a.len(), 3 << 20);
        let empty: FreshArray<u64> = FreshArray::zeroed(0);
        assert!(empty.is_empty());
    }
}
