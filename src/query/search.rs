//! The search step, run when no cheap rule decided: from `comp(u)` towards `comp(v)` on the DAG.
//!
//! The guided searches enter a child `c` only if `L(v) ⊆ L(c)` in every dimension; a child refused
//! that way is counted once in `pruned` (it is marked visited, so a second parent does not test it
//! again). Meeting `v` among the children ends the search with a yes. The unguided baselines run
//! the same code without the label test.
//!
//! Bookkeeping, shared by both orders:
//! - `expanded`: vertices whose children list the search scanned (the start included).
//! - `false_positives`: expanded vertices that cannot reach `v`.
//!   - a no: every expanded vertex;
//!   - a DFS yes: the expanded vertices not on the stack when `v` was met. The stack is a path to
//!     `v`; every other expanded vertex was finished without meeting `v`, and in a DAG a finished
//!     vertex's whole reachable set has been seen, so it cannot reach `v`. Exact and free.
//!   - a BFS yes (details in `ancestors.rs`): a reverse search from `v` marks the expanded vertices
//!     that reach it. It is exact whenever that reverse search costs no more than the forward one
//!     did (or 64 steps); past that budget it stops and the count is an upper bound: vertices it
//!     has not resolved count as false positives, but the BFS path to `v` never does.

use super::answer::Method;
use super::scratch::Scratch;
use crate::graph::Graph;
use crate::index::Labels;

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SearchOutcome {
    pub reachable: bool,
    pub expanded: u64,
    pub pruned: u64,
    pub false_positives: u64,
    pub path: Option<Vec<u32>>,
}

/// Searches the DAG from `from` to `to` (DAG ids, `from != to`) with `method`.
#[inline]
pub(crate) fn search(
    dag: &Graph,
    labels: &Labels,
    from: u32,
    to: u32,
    method: Method,
    scratch: &mut Scratch,
    want_path: bool,
) -> SearchOutcome {
    match method {
        Method::GuidedDfs => super::dfs::depth_first::<true>(dag, labels, from, to, scratch, want_path),
        Method::Dfs => super::dfs::depth_first::<false>(dag, labels, from, to, scratch, want_path),
        Method::GuidedBfs => super::bfs::breadth_first::<true>(dag, labels, from, to, scratch, want_path),
        Method::Bfs => super::bfs::breadth_first::<false>(dag, labels, from, to, scratch, want_path),
    }
}
