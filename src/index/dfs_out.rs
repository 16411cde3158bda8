//! What both DFS labelers (the walk from the roots, `dfs.rs`, and the regions, `dfs_regions.rs`)
//! share: where a dimension writes its labels, and a vertex on the walk's stack.

use super::labels::Interval;
use crate::disjoint::DisjointSlice;
use crate::prefetch::prefetch_pointer;

/// Where one dimension's DFS writes: vertex `v`'s entry is `v * stride + offset` of both arrays,
/// an entry no other dimension touches. An interval's `post` of 0 means "not finished yet":
/// post-order numbers start at 1.
pub(super) struct DimensionOut<'s, 'a> {
    pub intervals: &'s DisjointSlice<'a, Interval>,
    pub subtree: &'s DisjointSlice<'a, u32>,
    pub stride: usize,
    pub offset: usize,
}

// SAFETY (of every method): entries `v * stride + offset` belong to this dimension alone (the other
// dimensions' threads touch only the entries beside them), and one thread reaches each at a time:
// the dimension's own while it walks, and in the regions' passes that run on every core, the one
// whose chunk holds `v` (reading only entries of vertices no one writes any more: children
// finished in an earlier pass).
impl DimensionOut<'_, '_> {
    #[inline(always)]
    fn at(&self, v: u32) -> usize {
        v as usize * self.stride + self.offset
    }

    /// The dimension written: its entry is at that offset in every vertex's row.
    pub(super) fn dim(&self) -> usize {
        self.offset
    }

    /// `v`'s post, 0 while it is not finished.
    #[inline(always)]
    pub(super) fn post(&self, v: u32) -> u32 {
        unsafe { self.intervals.at(self.at(v)).read().post }
    }

    #[inline(always)]
    pub(super) fn low(&self, v: u32) -> u32 {
        unsafe { self.intervals.at(self.at(v)).read().low }
    }

    #[inline(always)]
    pub(super) fn set_low(&self, v: u32, low: u32) {
        unsafe { (*self.intervals.at(self.at(v))).low = low };
    }

    /// Asks for `v`'s interval to be brought into the cache.
    #[inline(always)]
    pub(super) fn prefetch(&self, v: u32) {
        prefetch_pointer(self.intervals.at(self.at(v)));
    }

    /// Asks for `v`'s interval and subtree size to be brought into the cache, to be written.
    #[inline(always)]
    pub(super) fn prefetch_entries(&self, v: u32) {
        prefetch_pointer(self.intervals.at(self.at(v)));
        prefetch_pointer(self.subtree.at(self.at(v)));
    }

    /// Finishes `v` with its post and subtree size (its low comes later).
    #[inline(always)]
    pub(super) fn finish(&self, v: u32, post: u32, subtree: u32) {
        unsafe {
            (*self.intervals.at(self.at(v))).post = post;
            self.subtree.at(self.at(v)).write(subtree);
        }
    }
}

/// A vertex on the DFS stack.
pub(super) struct Frame {
    pub x: u32,
    /// `r` when `x` was entered: its subtree is the posts `entered..=post(x)`.
    pub entered: u32,
    /// The smallest `low` over the children seen so far.
    pub reach: u32,
    /// Where `x`'s next child to visit is in `Scratch::lists`, and where its list starts.
    pub next: usize,
    pub start: usize,
}
