//! Per-thread buffers a query reuses, so the hot path never allocates or clears an array.

use super::ancestors::ReverseSearch;
use super::stamps::{Stamps, grow_zeroed};

/// One frame of the iterative DFS: the vertex and the part of its children list still to scan
/// (positions in the CSR target array).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    pub next: usize,
    pub end: usize,
    pub vertex: u32,
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
    /// The reverse search that counts a BFS's false positives exactly (a bidirectional search's
    /// forward side too).
    pub(crate) reverse: ReverseSearch,
    /// The bidirectional search's backward side: its visited set, its queue, and the child that
    /// led to each vertex it entered (allocated on first use).
    pub(crate) backward_visited: Stamps,
    pub(crate) backward_queue: Vec<u32>,
    pub(crate) child: Vec<u32>,
    /// The bidirectional search's count of the backward side's false positives: the same search
    /// as `reverse`, over children, for the descendants of the start.
    pub(crate) descendants: ReverseSearch,
}

impl Scratch {
    /// Buffers for a DAG of `n` vertices.
    pub fn new(n: usize) -> Scratch {
        Scratch { visited: Stamps::with_capacity(n), ..Scratch::default() }
    }

    /// Makes the parent array cover `n` vertices (a no-op after the first call).
    #[inline]
    pub(crate) fn ensure_parent(&mut self, n: usize) {
        grow_zeroed(&mut self.parent, n);
    }

    /// Makes the backward side's child array cover `n` vertices.
    #[inline]
    pub(crate) fn ensure_child(&mut self, n: usize) {
        grow_zeroed(&mut self.child, n);
    }
}
