//! Level structures shared by the phases: the DAG's Kahn levels and, per dimension, the T-depth levels.
//!
//! A vertex is ready for a top-down phase when all its DAG parents are final; the rounds of Kahn's
//! algorithm are exactly the longest-path levels (`topo::levels`). They are the same for every phase
//! and dimension, so they are computed once and kept as buckets.

use crate::graph::{Graph, topo};
use anyhow::Result;

/// Vertices grouped by level: level `l` is `vertices[starts[l]..starts[l + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelBuckets {
    vertices: Vec<u32>,
    starts: Vec<usize>,
}

impl LevelBuckets {
    /// Buckets `items` (any order) by `level_of` with a counting sort; within a level, the input
    /// order is kept.
    pub fn group(items: impl Iterator<Item = u32> + Clone, level_of: impl Fn(u32) -> u32) -> LevelBuckets {
        let mut counts: Vec<usize> = Vec::new();
        for v in items.clone() {
            let l = level_of(v) as usize;
            if l + 1 >= counts.len() {
                counts.resize(l + 2, 0);
            }
            counts[l + 1] += 1;
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let starts = if counts.is_empty() { vec![0] } else { counts.clone() };
        let mut cursor = counts;
        let mut vertices = vec![0u32; *starts.last().unwrap_or(&0)];
        for v in items {
            let slot = &mut cursor[level_of(v) as usize];
            vertices[*slot] = v;
            *slot += 1;
        }
        LevelBuckets { vertices, starts }
    }

    /// From vertices already sorted by level.
    pub fn from_sorted(vertices: Vec<u32>, level_of: impl Fn(u32) -> u32) -> LevelBuckets {
        let mut starts = vec![0usize];
        for (i, &v) in vertices.iter().enumerate() {
            let l = level_of(v) as usize;
            while starts.len() <= l {
                starts.push(i);
            }
        }
        starts.push(vertices.len());
        if vertices.is_empty() {
            starts.truncate(1);
        }
        LevelBuckets { vertices, starts }
    }

    pub fn num_levels(&self) -> usize {
        self.starts.len() - 1
    }

    /// The vertices of level `l`.
    #[inline]
    pub fn level(&self, l: usize) -> &[u32] {
        &self.vertices[self.starts[l]..self.starts[l + 1]]
    }

    /// The vertices of the consecutive levels `levels`, level after level.
    #[inline]
    pub fn levels(&self, levels: std::ops::Range<usize>) -> &[u32] {
        &self.vertices[self.starts[levels.start]..self.starts[levels.end]]
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
        let (level, order) = topo::levels(dag)?;
        // Kahn's queue pops vertices by non-decreasing level, so `order` is already bucketed.
        let buckets = LevelBuckets::from_sorted(order, |v| level[v as usize]);
        Ok(DagLevels { level, buckets })
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
        let b = LevelBuckets::group([5u32, 1, 4, 0, 2].into_iter(), |v| v % 2);
        assert_eq!(b.num_levels(), 2);
        assert_eq!(b.level(0), &[4, 0, 2]);
        assert_eq!(b.level(1), &[5, 1]);
    }

    #[test]
    fn empty_graph_has_no_levels() {
        let g = Graph::from_edges(0, &[]).unwrap();
        assert_eq!(DagLevels::new(&g).unwrap().buckets.num_levels(), 0);
        assert_eq!(LevelBuckets::group(std::iter::empty(), |v| v).num_levels(), 0);
    }
}
