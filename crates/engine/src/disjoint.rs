//! An array that several threads fill at once, each touching only entries (or fields of entries)
//! that no other thread touches: the labeler's dimensions write their own interval of every vertex
//! side by side, and the query index's two passes their own half of every record.
//!
//! Handing each thread `&mut` access is impossible when their entries interleave, and copying per
//! thread arrays together after costs a pass and the arrays' memory; this hands out raw pointers
//! instead, checked against the bounds, and leaves the one promise to the caller.

use std::marker::PhantomData;

/// Entries of a borrowed slice, reachable from several threads at once.
pub(crate) struct DisjointSlice<'a, T> {
    ptr: *mut T,
    len: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

// SAFETY: the slice is borrowed mutably for 'a, so nothing else reaches it; threads sharing this
// handle reach entries only through `DisjointSlice::at`'s raw pointers, under its contract.
unsafe impl<T: Send> Send for DisjointSlice<'_, T> {}
unsafe impl<T: Send> Sync for DisjointSlice<'_, T> {}

impl<'a, T> DisjointSlice<'a, T> {
    /// Shares `slice` for the lifetime of the borrow.
    pub(crate) fn new(slice: &'a mut [T]) -> DisjointSlice<'a, T> {
        DisjointSlice { ptr: slice.as_mut_ptr(), len: slice.len(), _borrow: PhantomData }
    }

    /// A pointer to entry `i` (panics out of bounds). Reading or writing through it is sound only
    /// if no other thread writes the same bytes meanwhile: each caller documents why.
    #[inline]
    pub(crate) fn at(&self, i: usize) -> *mut T {
        assert!(i < self.len, "index {i} out of bounds of {}", self.len);
        // SAFETY: in bounds of the borrowed slice.
        unsafe { self.ptr.add(i) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    #[test]
    fn threads_fill_interleaved_entries() {
        let mut values = vec![0u64; 4 * 1000];
        let shared = DisjointSlice::new(&mut values);
        (0..4usize).into_par_iter().for_each(|lane| {
            for v in 0..1000 {
                // SAFETY: lane `lane` alone touches entries `v * 4 + lane`.
                unsafe { shared.at(v * 4 + lane).write((v * 10 + lane) as u64) };
            }
        });
        assert!(values.iter().enumerate().all(|(i, &x)| x == ((i / 4) * 10 + i % 4) as u64));
    }

    #[test]
    #[should_panic(expected = "out of bounds")]
    fn bounds_are_checked() {
        let mut values = [0u8; 3];
        DisjointSlice::new(&mut values).at(3);
    }
}
