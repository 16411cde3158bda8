//! Phase 1 (exact method): choose every vertex's DFS-tree parent, top-down over the Kahn levels.
//!
//! A vertex is ready when all its DAG parents are final (it sits one Kahn level below the deepest of
//! them). Its candidate through parent `p` is `(path(p), k)`, `path(p)` the T-path of `p` from ρ as
//! child ranks and `k` the rank of the vertex among `p`'s ordered children; the DFS parent is the
//! lexicographically smallest candidate (docs/ALGORITHMS.md, section 6). Two candidates are compared where
//! their T-paths part (see [`Branch`]): no path is ever materialised and nothing can overflow.
//!
//! Telemetry: the scanned degree of a vertex is its in-degree (its candidate parents), so the phase
//! processes every vertex once and reads every DAG edge once (from the child's side).

use super::frontier::{self, is_large};
use super::tree::{Branch, GrowingTree, Tree};
use crate::graph::Graph;
use crate::index::order::DimensionOrder;
use rayon::prelude::*;

/// The tree grown so far.
#[derive(Debug)]
pub struct ParentSelection {
    tree: GrowingTree,
}

impl ParentSelection {
    pub fn new(n: usize) -> ParentSelection {
        ParentSelection { tree: GrowingTree::new(n) }
    }

    /// The degree this phase scans: the vertex's DAG parents.
    pub fn scanned_degree(dag: &Graph, v: u32) -> usize {
        dag.parents(v).len()
    }

    /// Attaches every vertex of one Kahn level to its DFS parent.
    pub fn run_level(&self, dag: &Graph, order: &DimensionOrder, frontier: &[u32]) {
        frontier::for_each(frontier, |v| {
            let parent = self.best_parent(dag, order, v);
            self.tree.attach(v, parent, order.key(v));
        });
    }

    /// The DFS parent of the ready vertex `v`: ρ for a root.
    fn best_parent(&self, dag: &Graph, order: &DimensionOrder, v: u32) -> u32 {
        // "Smaller candidate" is a strict total order (lexicographic on paths), so a reduction in any
        // grouping finds the same minimum: the large queue splits it across threads.
        let pick = |best: u32, p: u32| if self.precedes(order, p, best, v) { p } else { best };
        let parents = dag.parents(v);
        let best = if is_large(parents.len()) {
            parents.par_iter().copied().reduce_with(pick)
        } else {
            parents.iter().copied().reduce(pick)
        };
        best.unwrap_or_else(|| self.tree.rho())
    }

    /// Whether the candidate of `v` through `p1` is lexicographically smaller than through `p2`.
    /// Ranks inside any ordered list compare like the dimension's keys (every list is sorted by key).
    /// Keys of tree nodes come from the tree's own slots (already in cache after the walk).
    fn precedes(&self, order: &DimensionOrder, p1: u32, p2: u32, v: u32) -> bool {
        let key = |x| self.tree.key(x);
        match self.tree.branch(p1, p2) {
            // path(p1) is a prefix of path(p2): compare v's rank with p1's child toward p2.
            Branch::FirstIsAncestor { toward_second } => order.key(v) < key(toward_second),
            Branch::SecondIsAncestor { toward_first } => key(toward_first) < order.key(v),
            Branch::Diverge { toward_first, toward_second } => key(toward_first) < key(toward_second),
        }
    }

    pub fn heap_bytes(&self) -> usize {
        self.tree.heap_bytes()
    }

    /// `v`'s parent once chosen: `Some(None)` for a root (hung below ρ), `None` while not ready.
    pub fn parent_so_far(&self, v: u32) -> Option<Option<u32>> {
        // An attached vertex is at depth 1 or more; only ρ and unattached vertices are at 0.
        if self.tree.depth(v) == 0 {
            return None;
        }
        let p = self.tree.parent(v);
        Some((p != self.tree.rho()).then_some(p))
    }

    /// The finished T (building its ordered children lists is O(n), done once after the last level).
    pub fn finish(self, order: &DimensionOrder, n: usize) -> Tree {
        let (parent, depth) = self.tree.into_parent_depth();
        Tree::build(&parent, &depth, &order.vertices_by_key(n))
    }
}
