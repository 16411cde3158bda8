//! GRAIL labels: d intervals per vertex plus what the query rules need beside them.
//!
//! Labelers produce one [`DimensionLabels`] per dimension (the layout the pipeline phases and GPU
//! kernels write); [`Labels`] stores them vertex-major, so a query touches one cache line per vertex.

use super::order::Order;
use bytemuck::{Pod, Zeroable};
use rayon::prelude::*;
use serde::Serialize;
use xxhash_rust::xxh3::Xxh3;

/// `[low, post]`: `low` is the smallest post-order number reachable, `post` the vertex's own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Pod, Zeroable, Serialize)]
#[repr(C)]
pub struct Interval {
    /// The smallest post-order number among the vertices the vertex reaches (itself included).
    pub low: u32,
    /// The vertex's own post-order number in the dimension's DFS tree, from 1.
    pub post: u32,
}

impl Interval {
    /// `other ⊆ self`.
    #[inline]
    pub fn contains(self, other: Interval) -> bool {
        self.low <= other.low && other.post <= self.post
    }
}

/// One dimension's labels as a labeler produces them, indexed by vertex.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DimensionLabels {
    /// `s(v)`: min post over everything `v` reaches.
    pub low: Vec<u32>,
    /// `post(v)`: the DFS post-order number, 1-based.
    pub post: Vec<u32>,
    /// The size of `v`'s subtree in this dimension's DFS tree (for the tree cut).
    pub subtree: Vec<u32>,
}

/// The GRAIL index of a DAG: `dims` intervals and subtree sizes per vertex, and topological levels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labels {
    dims: usize,
    order: Order,
    /// Vertex-major: `intervals[v * dims + i]` is `L_i(v)`.
    intervals: Vec<Interval>,
    /// Vertex-major: `subtree[v * dims + i]`.
    subtree: Vec<u32>,
    /// Longest path from a root (roots are level 0).
    level: Vec<u32>,
}

impl Labels {
    /// Interleaves per-dimension labels. Every array must have one entry per vertex.
    pub fn from_dimensions(order: Order, dimensions: &[DimensionLabels], level: Vec<u32>) -> Labels {
        let dims = dimensions.len();
        let n = level.len();
        assert!(
            dimensions.iter().all(|d| d.low.len() == n && d.post.len() == n && d.subtree.len() == n),
            "every dimension must label every vertex"
        );
        // Vertex-major interleaving of millions of entries: in parallel, each entry written once
        // into new memory (zeroing it first would write it twice).
        let entry = |i: usize| (i / dims, &dimensions[i % dims]);
        let intervals: Vec<Interval> = (0..n * dims)
            .into_par_iter()
            .map(entry)
            .map(|(v, d)| Interval { low: d.low[v], post: d.post[v] })
            .collect();
        let subtree: Vec<u32> = (0..n * dims).into_par_iter().map(entry).map(|(v, d)| d.subtree[v]).collect();
        Labels { dims, order, intervals, subtree, level }
    }

    /// Rebuilds from the stored vertex-major arrays (used by the index file reader).
    pub fn from_raw(
        order: Order,
        dims: usize,
        intervals: Vec<Interval>,
        subtree: Vec<u32>,
        level: Vec<u32>,
    ) -> Option<Labels> {
        let n = level.len();
        (dims > 0 && intervals.len() == n * dims && subtree.len() == n * dims).then_some(Labels {
            dims,
            order,
            intervals,
            subtree,
            level,
        })
    }

    /// How many dimensions (intervals per vertex).
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The child order the DFS trees were built with.
    pub fn order(&self) -> Order {
        self.order
    }

    /// Vertices of the DAG the labels describe.
    pub fn num_vertices(&self) -> usize {
        self.level.len()
    }

    /// All `d` intervals of `v`.
    #[inline]
    pub fn of(&self, v: u32) -> &[Interval] {
        let s = v as usize * self.dims;
        &self.intervals[s..s + self.dims]
    }

    /// `v`'s interval in dimension `dim`.
    #[inline]
    pub fn interval(&self, v: u32, dim: usize) -> Interval {
        self.intervals[v as usize * self.dims + dim]
    }

    /// The size of `v`'s subtree in dimension `dim`'s DFS tree (`v` included).
    #[inline]
    pub fn subtree(&self, v: u32, dim: usize) -> u32 {
        self.subtree[v as usize * self.dims + dim]
    }

    /// `v`'s topological level: the longest path to it from a root (roots are level 0).
    #[inline]
    pub fn level(&self, v: u32) -> u32 {
        self.level[v as usize]
    }

    /// `L(v) ⊆ L(u)` in every dimension: necessary for `u ⇝ v`.
    #[inline]
    pub fn may_reach(&self, u: u32, v: u32) -> bool {
        self.of(u).iter().zip(self.of(v)).all(|(a, b)| a.contains(*b))
    }

    /// The first dimension whose interval proves `u ⇏ v`, if any.
    pub fn cutting_dimension(&self, u: u32, v: u32) -> Option<usize> {
        self.of(u).iter().zip(self.of(v)).position(|(a, b)| !a.contains(*b))
    }

    /// The first dimension whose DFS tree has `v` inside `u`'s subtree (which proves `u ⇝ v`).
    pub fn tree_dimension(&self, u: u32, v: u32) -> Option<usize> {
        (0..self.dims).find(|&i| {
            let (pu, pv) = (self.interval(u, i).post, self.interval(v, i).post);
            pu - self.subtree(u, i) < pv && pv <= pu
        })
    }

    /// One dimension's labels back in the per-dimension layout.
    pub fn dimension(&self, dim: usize) -> DimensionLabels {
        let n = self.num_vertices();
        DimensionLabels {
            low: (0..n).map(|v| self.intervals[v * self.dims + dim].low).collect(),
            post: (0..n).map(|v| self.intervals[v * self.dims + dim].post).collect(),
            subtree: (0..n).map(|v| self.subtree[v * self.dims + dim]).collect(),
        }
    }

    /// Every interval, vertex-major: entry `v * dims + i` is `v`'s in dimension `i`.
    pub fn intervals(&self) -> &[Interval] {
        &self.intervals
    }

    /// Every subtree size, vertex-major like [`Labels::intervals`].
    pub fn subtrees(&self) -> &[u32] {
        &self.subtree
    }

    /// Every vertex's topological level, by vertex.
    pub fn levels(&self) -> &[u32] {
        &self.level
    }

    /// A hash (XXH3-128) of every label array in a fixed layout: dimension by dimension `low`,
    /// `post`, `subtree` as little-endian u32, then the levels. Runs on different back ends can be
    /// compared at a glance.
    pub fn digest(&self) -> String {
        // Streamed through a small buffer: a copy of each dimension (12 bytes a vertex) would
        // raise the peak memory of `grail bench` and `grail label`, which hash the labels built.
        fn update(h: &mut Xxh3, buffer: &mut Vec<u32>, n: usize, field: impl Fn(usize) -> u32) {
            const CHUNK: usize = 1 << 14;
            for start in (0..n).step_by(CHUNK) {
                buffer.clear();
                buffer.extend((start..n.min(start + CHUNK)).map(&field));
                h.update(bytemuck::cast_slice(buffer));
            }
        }
        let (n, dims) = (self.num_vertices(), self.dims);
        let mut h = Xxh3::new();
        let mut buffer = Vec::new();
        for i in 0..dims {
            update(&mut h, &mut buffer, n, |v| self.intervals[v * dims + i].low);
            update(&mut h, &mut buffer, n, |v| self.intervals[v * dims + i].post);
            update(&mut h, &mut buffer, n, |v| self.subtree[v * dims + i]);
        }
        h.update(bytemuck::cast_slice(&self.level));
        format!("{:032x}", h.digest128())
    }

    /// Bytes held by the label arrays.
    pub fn heap_bytes(&self) -> usize {
        self.intervals.len() * 8 + self.subtree.len() * 4 + self.level.len() * 4
    }
}
