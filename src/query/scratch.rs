//! Per-thread buffers a query reuses, so the hot path never allocates or clears an array.
//!
//! "Visited" is an epoch stamp: each search takes a fresh epoch and a vertex counts as visited when
//! its stamp equals it. Only when the 32-bit epoch wraps (every 4G searches) is the array cleared.

use super::ancestors::ReverseSearch;

/// One frame of the iterative DFS: the vertex and the part of its children list still to scan
/// (positions in the CSR target array).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    pub next: usize,
    pub end: usize,
    pub vertex: u32,
}

/// An epoch-stamped visited set over `0..n`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stamps {
    stamp: Vec<u32>,
    epoch: u32,
}

impl Stamps {
    /// Starts a new search over `n` vertices: everything becomes unvisited.
    #[inline]
    pub fn begin(&mut self, n: usize) {
        grow_zeroed(&mut self.stamp, n);
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
    }

    /// Marks `v`; returns false if it was already marked in this search.
    #[inline]
    pub fn insert(&mut self, v: u32) -> bool {
        let s = &mut self.stamp[v as usize];
        let fresh = *s != self.epoch;
        *s = self.epoch;
        fresh
    }

    #[inline]
    pub fn contains(&self, v: u32) -> bool {
        self.stamp[v as usize] == self.epoch
    }
}

/// Reusable buffers for [`crate::query::Engine::query`]; one per thread. Sized for the DAG (number
/// of components); a scratch that is too small grows on first use.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    pub(crate) visited: Stamps,
    pub(crate) frames: Vec<Frame>,
    pub(crate) queue: Vec<u32>,
    /// BFS parent pointers, written only for vertices visited in the current search; allocated on
    /// first BFS use.
    pub(crate) parent: Vec<u32>,
    /// The reverse search that counts a BFS's false positives exactly.
    pub(crate) reverse: ReverseSearch,
}

impl Scratch {
    /// Buffers for a DAG of `n` vertices.
    pub fn new(n: usize) -> Scratch {
        let mut scratch = Scratch::default();
        grow_zeroed(&mut scratch.visited.stamp, n);
        scratch
    }

    /// Makes the parent array cover `n` vertices (a no-op after the first call).
    #[inline]
    pub(crate) fn ensure_parent(&mut self, n: usize) {
        grow_zeroed(&mut self.parent, n);
    }
}

/// Makes `array` hold at least `n` entries, replacing it by a fresh zeroed one if it is shorter (its
/// contents only matter within one search). A fresh `vec![0; n]` comes from the allocator already
/// zeroed, with pages mapped on first touch, so a per-thread scratch on a huge graph costs nothing
/// until the searches actually visit vertices: most queries never get past the cheap rules.
#[inline]
fn grow_zeroed(array: &mut Vec<u32>, n: usize) {
    if array.len() < n {
        *array = vec![0; n];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_epoch_forgets_every_mark() {
        let mut s = Stamps::default();
        s.begin(4);
        assert!(s.insert(2));
        assert!(!s.insert(2));
        assert!(s.contains(2));
        s.begin(4);
        assert!(!s.contains(2));
    }

    #[test]
    fn wrapping_epoch_clears_old_stamps() {
        let mut s = Stamps::default();
        s.begin(3);
        s.epoch = u32::MAX - 1;
        s.begin(3); // epoch u32::MAX
        s.insert(1);
        s.begin(3); // wraps: cleared, epoch 1
        assert_eq!(s.epoch, 1);
        assert!(!s.contains(1));
        assert!(s.insert(1));
    }

    #[test]
    fn grows_to_the_graph() {
        let mut s = Stamps::default();
        s.begin(10);
        assert!(s.insert(9));
    }
}
