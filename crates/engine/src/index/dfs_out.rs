//! Where one dimension's DFS writes its labels, for the labeler that walks from every root
//! (`dfs.rs`), the regions (`dfs_regions.rs`) and the walk both of them run (`dfs_walk.rs`).

use super::labels::Interval;
use crate::disjoint::DisjointSlice;
use crate::prefetch::prefetch_pointer;

/// Where one dimension's DFS writes: vertex `v`'s subtree size is entry `v * stride + offset`,
/// its interval entry `v * interval_stride + interval_offset` (the labels' rows, the same entry, or
/// an array of this dimension's alone): entries no other dimension touches. An interval's `post` of
/// 0 means "not finished yet": post-order numbers start at 1.
#[derive(Clone, Copy)]
pub(super) struct DimensionOut<'s, 'a> {
    intervals: &'s DisjointSlice<'a, Interval>,
    subtree: &'s DisjointSlice<'a, u32>,
    stride: usize,
    offset: usize,
    interval_stride: usize,
    interval_offset: usize,
}

// SAFETY (of every method): entries `v * stride + offset` belong to this dimension alone (the other
// dimensions' threads touch only the entries beside them), and one thread reaches each at a time:
// the dimension's own while it walks, and in the regions' passes that run on every core, the one
// whose chunk holds `v` (reading only entries of vertices no one writes any more: children
// finished in an earlier pass).
impl<'s, 'a> DimensionOut<'s, 'a> {
    /// Dimension `dim` of labels of `dims` dimensions, stored vertex by vertex.
    pub(super) fn new(
        intervals: &'s DisjointSlice<'a, Interval>,
        subtree: &'s DisjointSlice<'a, u32>,
        dims: usize,
        dim: usize,
    ) -> Self {
        DimensionOut { intervals, subtree, stride: dims, offset: dim, interval_stride: dims, interval_offset: dim }
    }

    /// The same dimension, its intervals kept in `own` (one per vertex, by id) instead.
    pub(super) fn with_own_intervals<'t>(&self, own: &'t DisjointSlice<'a, Interval>) -> DimensionOut<'t, 'a>
    where
        's: 't,
    {
        DimensionOut { intervals: own, interval_stride: 1, interval_offset: 0, ..*self }
    }

    #[inline(always)]
    fn at(&self, v: u32) -> usize {
        v as usize * self.stride + self.offset
    }

    #[inline(always)]
    fn interval_at(&self, v: u32) -> usize {
        v as usize * self.interval_stride + self.interval_offset
    }

    /// The dimension written: its entry is at that offset in every vertex's row.
    pub(super) fn dim(&self) -> usize {
        self.offset
    }

    /// `v`'s interval (`post` 0 while it is not finished).
    #[inline(always)]
    pub(super) fn interval(&self, v: u32) -> Interval {
        unsafe { self.intervals.at(self.interval_at(v)).read() }
    }

    /// `v`'s post, 0 while it is not finished.
    #[inline(always)]
    pub(super) fn post(&self, v: u32) -> u32 {
        self.interval(v).post
    }

    #[inline(always)]
    pub(super) fn low(&self, v: u32) -> u32 {
        self.interval(v).low
    }

    #[inline(always)]
    pub(super) fn set_low(&self, v: u32, low: u32) {
        unsafe { (*self.intervals.at(self.interval_at(v))).low = low };
    }

    /// Asks for `v`'s interval to be brought into the cache.
    #[inline(always)]
    pub(super) fn prefetch(&self, v: u32) {
        prefetch_pointer(self.intervals.at(self.interval_at(v)));
    }

    /// Asks for `v`'s interval and subtree size to be brought into the cache, to be written.
    #[inline(always)]
    pub(super) fn prefetch_entries(&self, v: u32) {
        prefetch_pointer(self.intervals.at(self.interval_at(v)));
        prefetch_pointer(self.subtree.at(self.at(v)));
    }

    /// Finishes `v` with its post and subtree size (its low comes later).
    #[inline(always)]
    pub(super) fn finish(&self, v: u32, post: u32, subtree: u32) {
        unsafe {
            (*self.intervals.at(self.interval_at(v))).post = post;
            self.subtree.at(self.at(v)).write(subtree);
        }
    }

    /// Finishes `v` with its whole interval and subtree size.
    #[inline(always)]
    pub(super) fn finish_with_low(&self, v: u32, interval: Interval, subtree: u32) {
        unsafe {
            self.intervals.at(self.interval_at(v)).write(interval);
            self.subtree.at(self.at(v)).write(subtree);
        }
    }

    /// Copies every vertex's interval from `own` (where this dimension's DFS kept them, see
    /// [`DimensionOut::with_own_intervals`]) into the labels' rows.
    pub(super) fn copy_intervals_from(&self, own: &[Interval]) {
        for (v, &interval) in own.iter().enumerate() {
            unsafe { self.intervals.at(self.interval_at(v as u32)).write(interval) };
        }
    }
}
