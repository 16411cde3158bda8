//! The depth-first search of the default rule set: before it enters any child of a vertex, it
//! checks them all, so a target (or a child a cut proves reaches it) among the children ends the
//! search at once instead of after the subtrees of the siblings scanned first. The children that
//! pass wait on a stack of their own; the frames still hold the current path.
//!
//! The same counts as GRAIL's DFS (`dfs.rs`): every child is checked once (it is marked visited
//! when first met), and a vertex counts as expanded when its children are scanned.

use super::dfs::depth_first_outcome;
use super::guide::{Guide, Step};
use super::observer::SearchObserver;
use super::outcome::SearchOutcome;
use super::scratch::{Frame, Scratch};
use crate::graph::Graph;

/// DFS with one level of look-ahead from `from` to `to` (DAG ids, `from != to`); see
/// [`super::dfs::depth_first`] for the guide, the path and the observer.
pub(crate) fn depth_first_lookahead<G: Guide, O: SearchObserver>(
    dag: &Graph,
    guide: &G,
    from: u32,
    to: u32,
    scratch: &mut Scratch,
    want_path: bool,
    observer: &mut O,
) -> SearchOutcome {
    let csr = dag.children_csr();
    let (offsets, targets) = (csr.offsets(), csr.targets());
    let Scratch { visited, frames, queue: pending, .. } = scratch;
    visited.begin(dag.num_vertices());
    frames.clear();
    pending.clear();
    visited.insert(from);
    observer.start(from, to);
    let (mut expanded, mut pruned) = (0u64, 0u64);
    let mut via = None;
    // The vertex whose children are scanned next, and its depth (the start is at depth 0).
    let mut entering = Some(from);
    let found = 'search: loop {
        if let Some(x) = entering.take() {
            expanded += 1;
            observer.expand(x);
            let depth = frames.len() as u32 + 1;
            let first = pending.len();
            for &c in &targets[offsets[x as usize] as usize..offsets[x as usize + 1] as usize] {
                if c == to {
                    frames.push(Frame { next: first, end: first, vertex: x });
                    observer.target(x, depth);
                    break 'search true;
                }
                if !visited.insert(c) {
                    continue;
                }
                match guide.check(c) {
                    Step::Enter => pending.push(c),
                    Step::Prune(rule) => {
                        pruned += 1;
                        observer.pruned(x, c, depth, rule);
                    }
                    Step::Reach(rule) => {
                        frames.push(Frame { next: first, end: first, vertex: x });
                        observer.reached(x, c, depth, rule);
                        via = Some(c);
                        break 'search true;
                    }
                }
            }
            frames.push(Frame { next: first, end: pending.len(), vertex: x });
        }
        let depth = frames.len() as u32;
        let Some(top) = frames.last_mut() else { break false };
        if top.next < top.end {
            let c = pending[top.next];
            top.next += 1;
            observer.entered(top.vertex, c, depth);
            entering = Some(c);
            continue;
        }
        // Finished without meeting `to`: in a DAG everything it reaches has been seen, so it cannot.
        let finished = top.vertex;
        frames.pop();
        // Its waiting children are all entered by now: their slots can be reused.
        pending.truncate(top_start(frames, pending.len()));
        observer.dead_end(finished);
    };
    depth_first_outcome(found, frames, via, to, (expanded, pruned), want_path, observer)
}

/// Where the waiting children above the top frame's end start: the top frame's own list ends at
/// `end`, and nothing above it is still waiting once its child has finished.
#[inline]
fn top_start(frames: &[Frame], len: usize) -> usize {
    frames.last().map_or(len, |f| f.end.min(len))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::guide::Unguided;
    use crate::query::observer::NoObserver;

    #[test]
    fn a_target_among_later_children_is_found_before_deep_subtrees() {
        // 0 -> 1 -> 2 -> 3 -> 4 (a long way round) and 0 -> 5 -> 6: DFS into 1 first would expand
        // 1, 2, 3; the look-ahead sees 6 among 5's children only after 1's branch, but sees 5
        // itself among 0's children; asking for 5 ends at the first scan.
        let g = Graph::from_edges(7, &[(0, 1), (1, 2), (2, 3), (3, 4), (0, 5), (5, 6)]).unwrap();
        let mut scratch = Scratch::new(7);
        let out = depth_first_lookahead(&g, &Unguided, 0, 5, &mut scratch, true, &mut NoObserver);
        assert_eq!((out.reachable, out.expanded, out.false_positives), (true, 1, 0));
        assert_eq!(out.path, Some(vec![0, 5]));
        let out = depth_first_lookahead(&g, &Unguided, 0, 6, &mut scratch, true, &mut NoObserver);
        assert_eq!(out.path, Some(vec![0, 5, 6]));
        assert_eq!((out.expanded, out.false_positives), (6, 4));
        let out = depth_first_lookahead(&g, &Unguided, 1, 6, &mut scratch, true, &mut NoObserver);
        assert_eq!((out.reachable, out.expanded, out.false_positives, out.path), (false, 4, 4, None));
    }
}
