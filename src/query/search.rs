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
use super::bfs::breadth_first;
use super::dfs::depth_first;
use super::observer::SearchObserver;
use super::outcome::SearchOutcome;
use super::scratch::Scratch;
use crate::graph::Graph;
use crate::index::Labels;

/// Searches the DAG from `from` to `to` (DAG ids, `from != to`) with `method`, telling `observer`
/// every step.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn search<O: SearchObserver>(
    dag: &Graph,
    labels: &Labels,
    from: u32,
    to: u32,
    method: Method,
    scratch: &mut Scratch,
    want_path: bool,
    observer: &mut O,
) -> SearchOutcome {
    match method {
        Method::GuidedDfs => depth_first::<true, O>(dag, labels, from, to, scratch, want_path, observer),
        Method::Dfs => depth_first::<false, O>(dag, labels, from, to, scratch, want_path, observer),
        Method::GuidedBfs => breadth_first::<true, O>(dag, labels, from, to, scratch, want_path, observer),
        Method::Bfs => breadth_first::<false, O>(dag, labels, from, to, scratch, want_path, observer),
    }
}
