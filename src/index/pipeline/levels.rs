//! Level structures shared by the phases: the DAG's Kahn levels and, per dimension, the T-depth levels.
//!
//! A vertex is ready for a top-down phase when all its DAG parents are final; the rounds of Kahn's
//! algorithm are exactly the longest-path levels (`topo::levels`). They are the same for every phase
//! and dimension, so they are computed once and kept as buckets.

use crate::graph::csr::{PartedEdges, group_by_key};
use crate::graph::{Graph, topo};
use anyhow::Result;
use rayon::prelude::*;
use std::ops::Range;

/// Vertices grouped by level: level `l` is `vertices[starts[l]..starts[l + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelBuckets {
    vertices: Vec<u32>,
    starts: Vec<u64>,
}

/// The pairs `(level, vertex)` of ranges of vertices, for [`LevelBuckets::group`].
struct VertexLevels<F> {
    ranges: Vec<Range<u32>>,
    level_of: F,
}

impl<F: Fn(u32) -> u32 + Sync> PartedEdges for VertexLevels<F> {
    fn parts(&self) -> usize {
        self.ranges.len()
    }

    #[inline]
    fn for_each(&self, part: usize, mut f: impl FnMut(u32, u32)) {
        for v in self.ranges[part].clone() {
            f((self.level_of)(v), v);
        }
    }
}

impl LevelBuckets {
    /// Buckets the vertices `0..n` by `level_of`, in parallel; within a level, vertices keep
    /// their order. A counting sort per range of vertices (`csr::group_by_key`), each range
    /// counting into an array of its own with a slot per level: as many ranges as keep those arrays
    /// within the vertices' size (a chain, with a level per vertex, gets one range).
    pub fn group(n: u32, level_of: impl Fn(u32) -> u32 + Sync) -> LevelBuckets {
        let levels = (0..n).into_par_iter().with_min_len(4096).map(|v| level_of(v) + 1).max().unwrap_or(0) as usize;
        let parts = (n as usize / levels.max(1)).clamp(1, 4 * rayon::current_num_threads());
        let cut = |p: usize| (n as u64 * p as u64 / parts as u64) as u32;
        let ranges = (0..parts).map(|p| cut(p)..cut(p + 1)).collect();
        let (starts, vertices) = group_by_key(levels, &VertexLevels { ranges, level_of });
        LevelBuckets { vertices, starts }
    }

    pub fn num_levels(&self) -> usize {
        self.starts.len() - 1
    }

    /// The vertices of level `l`.
    #[inline]
    pub fn level(&self, l: usize) -> &[u32] {
        &self.vertices[self.starts[l] as usize..self.starts[l + 1] as usize]
    }

    /// The vertices of the consecutive levels `levels`, level after level.
    #[inline]
    pub fn levels(&self, levels: std::ops::Range<usize>) -> &[u32] {
        &self.vertices[self.starts[levels.start] as usize..self.starts[levels.end] as usize]
    }

    pub fn num_vertices(&self) -> usize {
        self.vertices.len()
    }

    pub fn heap_bytes(&self) -> usize {
        self.vertices.len() * 4 + self.starts.len() * 8
    }
}

/// The DAG's Kahn levels (longest path from a root; roots at 0), as numbers and as buckets.
#[derive(Clone, Debug)]
pub struct DagLevels {
    pub level: Vec<u32>,
    pub buckets: LevelBuckets,
}

impl DagLevels {
    /// Fails if the graph has a cycle.
    pub fn new(dag: &Graph) -> Result<DagLevels> {
        // The graph keeps its Kahn order level by level, and where each level starts.
        let kahn = topo::kahn(dag)?;
        let starts = kahn.starts.iter().map(|&s| s as u64).collect();
        let buckets = LevelBuckets { vertices: kahn.order.to_vec(), starts };
        Ok(DagLevels { level: kahn.level.to_vec(), buckets })
    }

    pub fn heap_bytes(&self) -> usize {
        self.level.len() * 4 + self.buckets.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kahn_levels_are_buckets_of_longest_path_levels() {
        let g = Graph::from_edges(6, &[(0, 1), (1, 2), (0, 2), (3, 2), (2, 4)]).unwrap();
        let l = DagLevels::new(&g).unwrap();
        assert_eq!(l.buckets.num_levels(), 4);
        let mut level0 = l.buckets.level(0).to_vec();
        level0.sort();
        assert_eq!(level0, vec![0, 3, 5]);
        assert_eq!(l.buckets.level(1), &[1]);
        assert_eq!(l.buckets.level(2), &[2]);
        assert_eq!(l.buckets.level(3), &[4]);
    }

    #[test]
    fn group_keeps_input_order_within_a_level() {
        let b = LevelBuckets::group(7, |v| v % 3);
        assert_eq!(b.num_levels(), 3);
        assert_eq!(b.level(0), &[0, 3, 6]);
        assert_eq!(b.level(1), &[1, 4]);
        assert_eq!(b.level(2), &[2, 5]);
        // One range per level (a chain): the same buckets.
        let chain = LevelBuckets::group(5, |v| 4 - v);
        assert_eq!(chain.levels(0..5), &[4, 3, 2, 1, 0]);
        // Many ranges, few levels: every range's vertices in order.
        let wide = LevelBuckets::group(100_000, |v| u32::from(v % 1000 == 0));
        assert_eq!(wide.level(1).len(), 100);
        assert!(wide.level(0).windows(2).all(|w| w[0] < w[1]));
        assert!(wide.level(1).windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn empty_graph_has_no_levels() {
        let g = Graph::from_edges(0, &[]).unwrap();
        assert_eq!(DagLevels::new(&g).unwrap().buckets.num_levels(), 0);
        assert_eq!(LevelBuckets::group(0, |v| v).num_levels(), 0);
    }
}
