//! `Slab<T>`: an immutable array that either owns a `Vec<T>` or lies inside a memory-mapped file.
//!
//! The CSR arrays of a graph read from text are vectors; those of a `.grail` file are the file's
//! own bytes, mapped, never copied. Algorithms see `&[T]` either way, through one pointer and a
//! length (no branch on the owner in hot loops).

use memmap2::Mmap;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// What keeps a slab's memory alive.
enum Owner<T> {
    /// Shared, so that cloning a graph (or a CSR that keeps another's offsets) copies nothing.
    Vec(Arc<Vec<T>>),
    Map(Arc<Mmap>),
}

/// An immutable `[T]` owned by a vector or by a shared memory map.
pub struct Slab<T: bytemuck::Pod> {
    ptr: *const T,
    len: usize,
    owner: Owner<T>,
}

// SAFETY: a slab is immutable after construction and its owner (a Vec or an Arc<Mmap>) is Send and
// Sync, so sharing the pointer across threads is sharing a `&[T]`.
unsafe impl<T: bytemuck::Pod + Send> Send for Slab<T> {}
unsafe impl<T: bytemuck::Pod + Sync> Sync for Slab<T> {}

impl<T: bytemuck::Pod> Slab<T> {
    /// The array of `len` values of type T at byte `offset` of `map`; None when it does not lie
    /// inside the map or is misaligned for T (the caller words the error).
    pub fn mapped(map: &Arc<Mmap>, offset: usize, len: usize) -> Option<Slab<T>> {
        let bytes = len.checked_mul(size_of::<T>())?;
        let end = offset.checked_add(bytes)?;
        let slice: &[T] = bytemuck::try_cast_slice(map.get(offset..end)?).ok()?;
        Some(Slab { ptr: slice.as_ptr(), len: slice.len(), owner: Owner::Map(Arc::clone(map)) })
    }

    /// Whether the values live in a memory-mapped file rather than on the heap.
    pub fn is_mapped(&self) -> bool {
        matches!(self.owner, Owner::Map(_))
    }
}

impl<T: bytemuck::Pod> From<Vec<T>> for Slab<T> {
    fn from(v: Vec<T>) -> Slab<T> {
        // Moving a Vec does not move its heap buffer, so the pointer stays valid.
        Slab { ptr: v.as_ptr(), len: v.len(), owner: Owner::Vec(Arc::new(v)) }
    }
}

impl<T: bytemuck::Pod> Deref for Slab<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: ptr and len describe memory owned by `owner` (a Vec's buffer or a checked range
        // of a live map), which is never mutated or freed while the slab exists.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T: bytemuck::Pod> Clone for Slab<T> {
    /// Shares the memory (it is immutable): no copy.
    fn clone(&self) -> Slab<T> {
        let owner = match &self.owner {
            Owner::Vec(v) => Owner::Vec(Arc::clone(v)),
            Owner::Map(map) => Owner::Map(Arc::clone(map)),
        };
        Slab { ptr: self.ptr, len: self.len, owner }
    }
}

impl<T: bytemuck::Pod> Default for Slab<T> {
    fn default() -> Slab<T> {
        Slab::from(Vec::new())
    }
}

impl<T: bytemuck::Pod + PartialEq> PartialEq for Slab<T> {
    fn eq(&self, other: &Slab<T>) -> bool {
        **self == **other
    }
}

impl<T: bytemuck::Pod + Eq> Eq for Slab<T> {}

impl<T: bytemuck::Pod + fmt::Debug> fmt::Debug for Slab<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owned_slab_reads_and_clones_as_its_vector() {
        let s = Slab::from(vec![3u32, 1, 2]);
        assert_eq!(&*s, &[3, 1, 2]);
        assert_eq!(s.clone(), s);
        assert_eq!(s.clone().as_ptr(), s.as_ptr(), "clones share");
        assert!(!s.is_mapped());
    }

    #[test]
    fn mapped_slab_checks_bounds_and_alignment() {
        let mut file = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut file, &[1, 0, 0, 0, 2, 0, 0, 0, 9]).unwrap();
        // SAFETY: the temporary file is private to this test.
        let map = Arc::new(unsafe { Mmap::map(&file) }.unwrap());
        let s: Slab<u32> = Slab::mapped(&map, 0, 2).unwrap();
        assert_eq!(&*s, &[1, 2]);
        assert!(s.is_mapped());
        assert!(Slab::<u32>::mapped(&map, 4, 2).is_none(), "past the end");
        assert!(Slab::<u32>::mapped(&map, 1, 1).is_none(), "misaligned");
        assert!(Slab::<u32>::mapped(&map, usize::MAX, 1).is_none(), "overflow");
    }
}
