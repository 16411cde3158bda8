//! Phase 1 (exact method): choose every vertex's DFS-tree parent, top-down over the Kahn levels.
//!
//! A vertex is ready when all its DAG parents are final (it sits one Kahn level below the deepest of
//! them). Its candidate through parent `p` is `(path(p), k)`, `path(p)` the T-path of `p` from ρ as
//! child ranks and `k` the rank of the vertex among `p`'s ordered children; the DFS parent is the
//! lexicographically smallest candidate (docs/ALGORITHMS.md, section 6). Two candidates are compared by
//! their path prefixes first ([`PathPrefix`]: the first steps as keys, two reads), and only when
//! those agree, where their T-paths part (see [`Branch`], a climb on the jump pointers): no path is
//! ever materialised and nothing can overflow.
//!
//! Telemetry: the scanned degree of a vertex is its in-degree (its candidate parents), so the phase
//! processes every vertex once and reads every DAG edge once (from the child's side).

use super::frontier::{self, is_large};
use super::path_prefix::PathPrefix;
use super::tree::{Branch, GrowingTree, Tree};
use crate::graph::Graph;
use crate::index::order::DimensionOrder;
use crate::prefetch::prefetch;
use rayon::prelude::*;

/// How many candidate parents ahead their prefixes are prefetched: each is a likely cache miss, and
/// a vertex's parents are known in advance.
const PREFETCH_AHEAD: usize = 8;

/// A candidate parent with its candidate path's prefix: the parent's prefix extended by `v`'s key,
/// which is also `v`'s own prefix if the candidate wins.
type Candidate = (u32, PathPrefix);

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
        // The first level holds exactly the roots (no parents): ρ's children, with nothing to
        // compare. On graphs made mostly of roots (uniprotenc_22m: 1.56M of 1.6M vertices) this
        // level is most of the phase.
        if frontier.first().is_some_and(|&v| dag.parents(v).is_empty()) {
            return frontier::for_each(frontier, |v| self.tree.attach_root(v, order.key(v)));
        }
        let parents = dag.parents_csr();
        frontier::for_each_prefetched(
            frontier,
            |v| {
                prefetch(parents.offsets(), v as usize);
                order.prefetch_key(v);
            },
            // The offsets are in the cache by now; the candidates' prefixes are prefetched as the
            // scan of the list goes.
            |v| prefetch(parents.targets(), parents.offsets()[v as usize] as usize),
            |v| self.select(dag, order, v),
        );
    }

    /// Attaches the ready vertex `v` to its DFS parent (one vertex of [`Self::run_level`]).
    #[inline]
    pub fn select(&self, dag: &Graph, order: &DimensionOrder, v: u32) {
        let key = order.key(v);
        let (parent, prefix) = self.best_parent(dag, key, v);
        self.tree.attach_with_prefix(v, parent, key, prefix);
    }

    /// The DFS parent of the ready vertex `v` (order key `key`), ρ for a root, with `v`'s prefix.
    fn best_parent(&self, dag: &Graph, key: u32, v: u32) -> Candidate {
        let candidate = |p: u32| (p, self.tree.prefix(p).extended(key));
        let parents = dag.parents(v);
        if is_large(parents.len()) {
            // "Smaller candidate" is a strict total order (lexicographic on paths), so a reduction
            // in any grouping finds the same minimum: the large queue splits it across threads.
            let pick = |a: Candidate, b: Candidate| if self.precedes(a, b, key) { a } else { b };
            return parents.par_iter().map(|&p| candidate(p)).reduce_with(pick).expect("a large queue has parents");
        }
        let Some((&first, rest)) = parents.split_first() else {
            return candidate(self.tree.rho());
        };
        for &p in rest.iter().take(PREFETCH_AHEAD) {
            self.tree.prefetch_prefix(p);
        }
        let (mut best, mut best_prefix) = candidate(first);
        for (i, &p) in rest.iter().enumerate() {
            if let Some(&ahead) = rest.get(i + PREFETCH_AHEAD) {
                self.tree.prefetch_prefix(ahead);
            }
            let prefix = self.tree.prefix(p).extended(key);
            let wins = self.precedes((p, prefix), (best, best_prefix), key);
            best = std::hint::select_unpredictable(wins, p, best);
            best_prefix = PathPrefix::select(wins, prefix, best_prefix);
        }
        (best, best_prefix)
    }

    /// Whether candidate `a` is lexicographically smaller than candidate `b` (distinct parents) for
    /// the vertex with key `kv`: by their prefixes when those differ, else where the paths part.
    #[inline]
    fn precedes(&self, a: Candidate, b: Candidate, kv: u32) -> bool {
        // Prefixes agree rarely on bushy trees and nearly always on narrow deep ones: either way the
        // branch is predictable.
        if a.1 == b.1 { self.paths_precede(a.0, b.0, kv) } else { a.1.is_before(b.1) }
    }

    /// Whether the candidate of `v` (key `kv`) through `p1` is lexicographically smaller than
    /// through `p2`, found where the two T-paths part. Ranks inside any ordered list compare like
    /// the dimension's keys (every list is sorted by key). Keys of tree nodes come from the tree's
    /// own slots (already in cache after the walk).
    fn paths_precede(&self, p1: u32, p2: u32, kv: u32) -> bool {
        let key = |x| self.tree.key(x);
        match self.tree.branch(p1, p2) {
            // path(p1) is a prefix of path(p2): compare v's rank with p1's child toward p2.
            Branch::FirstIsAncestor { toward_second } => kv < key(toward_second),
            Branch::SecondIsAncestor { toward_first } => key(toward_first) < kv,
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
    pub fn finish(self, order: &DimensionOrder, below_roots: &[u32]) -> Tree {
        self.tree.finish(order.roots(), below_roots)
    }
}
