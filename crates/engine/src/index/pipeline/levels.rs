//! The levels every phase runs over: the DAG's Kahn levels.
//!
//! A vertex is ready for a top-down phase when all its DAG parents are final; the rounds of Kahn's
//! algorithm are exactly the longest-path levels (`topo::levels`). They are the same for every phase
//! and dimension, so they are computed once and kept as buckets. The phases that walk the DFS tree T
//! run over them too, with T's root ρ on a level of its own above them: every T-edge is a DAG edge,
//! so it goes down the Kahn levels, and a node's T-children all lie on deeper levels than it.

use super::tiny_levels::{Bound, TinyLevels};
use crate::Result;
use crate::graph::{Graph, topo};

/// Vertices grouped by level: level `l` is `vertices[starts[l]..starts[l + 1]]` (positions in the
/// whole of `vertices`, so that a view can leave out leading levels without copying).
#[derive(Clone, Copy, Debug)]
pub struct LevelBuckets<'a> {
    vertices: &'a [u32],
    starts: &'a [usize],
    tiny: &'a TinyLevels,
    /// The first Kahn level's index here: 0, or 1 below T's level of ρ.
    first_kahn: usize,
}

impl<'a> LevelBuckets<'a> {
    pub fn num_levels(&self) -> usize {
        self.starts.len() - 1
    }

    /// The vertices of level `l`.
    #[inline]
    pub fn level(&self, l: usize) -> &'a [u32] {
        &self.vertices[self.starts[l]..self.starts[l + 1]]
    }

    /// The vertices of the consecutive levels `levels`, level after level.
    #[inline]
    pub fn levels(&self, levels: std::ops::Range<usize>) -> &'a [u32] {
        &self.vertices[self.starts[levels.start]..self.starts[levels.end]]
    }

    /// How many consecutive levels are tiny by `bound`, from level `l` on toward deeper levels
    /// (`deeper`) or toward the roots, `max` at most (see [`TinyLevels`]; T's level of ρ never is).
    #[inline]
    pub fn tiny_run(&self, bound: Bound, l: usize, deeper: bool, max: usize) -> usize {
        l.checked_sub(self.first_kahn).map_or(0, |k| self.tiny.run(bound, k, deeper, max))
    }
}

/// The DAG's Kahn levels (longest path from a root; roots at 0), as numbers and as buckets, which
/// T's levels share: ρ (node `n`) alone, then the Kahn levels (see the module's comment).
#[derive(Clone, Debug)]
pub struct DagLevels {
    pub level: Vec<u32>,
    /// ρ, then the vertices level by level.
    vertices: Vec<u32>,
    /// Where ρ's level and then each Kahn level start in `vertices`, then its end.
    starts: Vec<usize>,
    tiny: TinyLevels,
}

impl DagLevels {
    /// Fails if the graph has a cycle.
    pub fn new(dag: &Graph) -> Result<DagLevels> {
        // The graph keeps its Kahn order level by level, and where each level starts.
        let kahn = topo::kahn(dag)?;
        let rho = dag.num_vertices() as u32;
        let vertices = std::iter::once(rho).chain(kahn.order.iter().copied()).collect();
        let starts = std::iter::once(0).chain(kahn.starts.iter().map(|&s| s + 1)).collect();
        let tiny = TinyLevels::new(dag, kahn.num_levels(), |l| &kahn.order[kahn.starts[l]..kahn.starts[l + 1]]);
        Ok(DagLevels { level: kahn.level.to_vec(), vertices, starts, tiny })
    }

    /// The Kahn levels.
    pub fn kahn(&self) -> LevelBuckets<'_> {
        LevelBuckets { vertices: &self.vertices, starts: &self.starts[1..], tiny: &self.tiny, first_kahn: 0 }
    }

    /// T's levels: ρ alone, then the Kahn levels.
    pub fn tree(&self) -> LevelBuckets<'_> {
        LevelBuckets { vertices: &self.vertices, starts: &self.starts, tiny: &self.tiny, first_kahn: 1 }
    }

    /// The vertices below the roots, level after level (they have a parent in T other than ρ).
    pub fn below_roots(&self) -> &[u32] {
        let kahn = self.kahn();
        let levels = kahn.num_levels();
        if levels == 0 { &[] } else { kahn.levels(1..levels) }
    }

    pub fn heap_bytes(&self) -> usize {
        (self.level.len() + self.vertices.len()) * 4 + self.starts.len() * 8 + self.tiny.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kahn_levels_are_buckets_of_longest_path_levels() {
        let g = Graph::from_edges(6, &[(0, 1), (1, 2), (0, 2), (3, 2), (2, 4)]).unwrap();
        let l = DagLevels::new(&g).unwrap();
        assert_eq!(l.kahn().num_levels(), 4);
        let mut level0 = l.kahn().level(0).to_vec();
        level0.sort();
        assert_eq!(level0, vec![0, 3, 5]);
        assert_eq!(l.kahn().level(1), &[1]);
        assert_eq!(l.kahn().level(2), &[2]);
        assert_eq!(l.kahn().level(3), &[4]);
        assert_eq!(l.tree().num_levels(), 5);
        assert_eq!(l.tree().level(0), &[6]);
        assert_eq!(l.tree().level(1), l.kahn().level(0));
        assert_eq!(l.tree().level(4), &[4]);
        assert_eq!(l.below_roots(), &[1, 2, 4]);
    }

    #[test]
    fn empty_graph_has_no_levels() {
        let g = Graph::from_edges(0, &[]).unwrap();
        let l = DagLevels::new(&g).unwrap();
        assert_eq!(l.kahn().num_levels(), 0);
        assert_eq!(l.tree().level(0), &[0]);
        assert!(l.below_roots().is_empty());
    }
}
