//! The search step, run when no cheap rule decided: from `comp(u)` towards `comp(v)` on the DAG.
//!
//! The guided searches enter a child `c` only if `L(v) ⊆ L(c)` in every dimension; a child refused
//! that way is counted once in `pruned` (it is marked visited, so a second parent does not test it
//! again). Meeting `v` among the children ends the search with a yes. The unguided baselines run
//! the same code without the label test. With every rule (a query index), each child is judged by
//! every cut instead (`guide.rs`): `guided-dfs` looks one level ahead (`lookahead.rs`) and
//! `guided-bfs` runs bidirectionally (`bidirectional.rs`, where the counts are described). Before
//! the labels exist, the same searches run with the query index's cuts alone
//! (`search_before_labels`).
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
//!   - a bidirectional yes: the same, from both trees (`bidirectional.rs`); a backward vertex is a
//!     false positive when `u` cannot reach it.

use super::answer::Method;
use super::bfs::breadth_first;
use super::bidirectional::bidirectional;
use super::dfs::depth_first;
use super::guide::{BackCutGuide, BackIndexGuide, CutGuide, Guide, IndexGuide, LabelGuide, Unguided};
use super::lookahead::depth_first_lookahead;
use super::observer::{NoObserver, SearchObserver};
use super::outcome::SearchOutcome;
use super::query_index::QueryIndex;
use super::scratch::Scratch;
use crate::graph::Graph;
use crate::index::Labels;

/// Searches the DAG from `from` to `to` (DAG ids, `from != to`) with `method`, telling `observer`
/// every step. With a query index the guided searches are pruned by every cut (and end as soon as
/// a cut proves a child reaches `to`); without, by GRAIL's labels only.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn search<O: SearchObserver>(
    dag: &Graph,
    labels: &Labels,
    index: Option<&QueryIndex>,
    from: u32,
    to: u32,
    method: Method,
    scratch: &mut Scratch,
    want_path: bool,
    observer: &mut O,
) -> SearchOutcome {
    let grail = LabelGuide { labels, target: labels.of(to) };
    let breadth = method.is_breadth_first();
    match (method, index) {
        (Method::GuidedDfs | Method::GuidedBfs, Some(index)) => {
            let ahead = CutGuide::new(index, labels, to);
            let back = || BackCutGuide::new(index, labels, from);
            let levels = labels.levels();
            every_rule(dag, levels, &ahead, back, &grail, from, to, breadth, scratch, want_path, observer)
        }
        // GRAIL's guide and the baselines never end a search early: their paths end at `to`.
        (Method::GuidedDfs, None) => depth_first(dag, &grail, from, to, scratch, want_path, observer),
        (Method::GuidedBfs, None) => breadth_first(dag, labels, &grail, from, to, scratch, want_path, observer),
        (Method::Dfs, _) => depth_first(dag, &Unguided, from, to, scratch, want_path, observer),
        (Method::Bfs, _) => breadth_first(dag, labels, &Unguided, from, to, scratch, want_path, observer),
    }
}

/// [`search`] before the labels exist: the guided searches of every rule, pruned by the query
/// index's cuts alone (`levels` are the DAG's Kahn levels); the same answer, with more vertices
/// expanded where the labels would have pruned. `None` for the unguided baselines, which count
/// their dead ends with the labels.
#[allow(clippy::too_many_arguments)]
pub(crate) fn search_before_labels<O: SearchObserver>(
    dag: &Graph,
    levels: &[u32],
    index: &QueryIndex,
    from: u32,
    to: u32,
    method: Method,
    scratch: &mut Scratch,
    want_path: bool,
    observer: &mut O,
) -> Option<SearchOutcome> {
    if !method.is_guided() {
        return None;
    }
    let ahead = IndexGuide::new(index, levels, to);
    let back = || BackIndexGuide::new(index, levels, from);
    let negative_cuts = IndexGuide { stops: false, ..ahead };
    let breadth = method.is_breadth_first();
    Some(every_rule(dag, levels, &ahead, back, &negative_cuts, from, to, breadth, scratch, want_path, observer))
}

/// The searches of every rule: depth first with look-ahead, or (`breadth`) bidirectional, `ahead`
/// judging children towards `to` and `back` (made only for a bidirectional search) parents
/// towards `from`. `path`, a guide that only prunes, fills in the stretch of a path that a cut
/// proved exists instead of walking it.
#[inline]
#[allow(clippy::too_many_arguments)]
fn every_rule<A: Guide, B: Guide, P: Guide, O: SearchObserver>(
    dag: &Graph,
    levels: &[u32],
    ahead: &A,
    back: impl FnOnce() -> B,
    path: &P,
    from: u32,
    to: u32,
    breadth: bool,
    scratch: &mut Scratch,
    want_path: bool,
    observer: &mut O,
) -> SearchOutcome {
    let mut found = if breadth {
        bidirectional(dag, levels, ahead, &back(), from, to, scratch, want_path, observer)
    } else {
        depth_first_lookahead(dag, ahead, from, to, scratch, want_path, observer)
    };
    complete_path(dag, path, (from, to), scratch, &mut found);
    found
}

/// A search that a cut ended returns a path with a gap at that end: up to the child a cut proved
/// reaches `to`, or (a bidirectional search's backward cut) from the parent a cut proved `from`
/// reaches. A DFS guided towards `to` fills each gap (every vertex on a path that goes on to `to`
/// reaches it, so the guide prunes none of them, and the DFS must succeed). Its work is not
/// counted, so the counts stay those of the search the batches run.
#[cold]
fn complete_path<G: Guide>(
    dag: &Graph,
    guide: &G,
    (from, to): (u32, u32),
    scratch: &mut Scratch,
    found: &mut SearchOutcome,
) {
    let Some(path) = found.path.as_mut() else { return };
    let (Some(&first), Some(&last)) = (path.first(), path.last()) else { return };
    let mut walk = |a: u32, b: u32| {
        let walk = depth_first(dag, guide, a, b, scratch, true, &mut NoObserver).path;
        walk.expect("a cut proved that this stretch exists")
    };
    if last != to {
        path.extend(walk(last, to).into_iter().skip(1));
    }
    if first != from {
        let mut head = walk(from, first);
        head.pop();
        head.append(path);
        *path = head;
    }
}
