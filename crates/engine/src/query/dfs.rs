//! The guided depth-first search (GRAIL's, or pruned by every cut), iterative with an explicit
//! stack of frames.

use super::guide::{Guide, Step};
use super::observer::SearchObserver;
use super::outcome::SearchOutcome;
use super::scratch::{Frame, Scratch};
use crate::graph::Graph;

/// DFS from `from` to `to` (DAG ids, `from != to`). `guide` prunes children (GRAIL's: those whose
/// labels do not contain `L(to)`) and may prove that a child reaches `to`, which ends the search
/// like meeting `to` itself; the path then ends at that child (the caller completes it). The stack
/// holds the current path, so a yes has its path for free. `observer` hears every step (see
/// [`SearchObserver`]).
pub(crate) fn depth_first<G: Guide, O: SearchObserver>(
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
    let frame_of =
        |v: u32| Frame { next: offsets[v as usize] as usize, end: offsets[v as usize + 1] as usize, vertex: v };
    let mut via = None;
    let Scratch { visited, frames, .. } = scratch;
    visited.begin(dag.num_vertices());
    frames.clear();
    visited.insert(from);
    frames.push(frame_of(from));
    observer.start(from, to);
    observer.expand(from);
    let (mut expanded, mut pruned) = (1u64, 0u64);
    let found = 'search: loop {
        // The children scanned now sit one below the top of the stack (the start is at depth 0).
        let depth = frames.len() as u32;
        let Some(top) = frames.last_mut() else { break false };
        let mut next = top.next;
        while next < top.end {
            let c = targets[next];
            next += 1;
            if c == to {
                observer.target(top.vertex, depth);
                break 'search true;
            }
            if !visited.insert(c) {
                continue;
            }
            match guide.check(c) {
                Step::Enter => {}
                Step::Prune(rule) => {
                    pruned += 1;
                    observer.pruned(top.vertex, c, depth, rule);
                    continue;
                }
                Step::Reach(rule) => {
                    observer.reached(top.vertex, c, depth, rule);
                    via = Some(c);
                    break 'search true;
                }
            }
            top.next = next;
            let by = top.vertex;
            frames.push(frame_of(c));
            expanded += 1;
            observer.entered(by, c, depth);
            observer.expand(c);
            continue 'search;
        }
        // Finished without meeting `to`: in a DAG everything it reaches has been seen, so it cannot.
        let finished = top.vertex;
        frames.pop();
        observer.dead_end(finished);
    };
    depth_first_outcome(found, frames, via, to, (expanded, pruned), want_path, observer)
}

/// What a depth-first search found once it stops: when `found`, its frames hold the path from the
/// start, which ends at `to` or at `via` (a child a cut proved reaches `to`); every expanded vertex
/// off that path was a dead end. Shared by [`depth_first`] and the look-ahead DFS.
pub(crate) fn depth_first_outcome<O: SearchObserver>(
    found: bool,
    frames: &[Frame],
    via: Option<u32>,
    to: u32,
    (expanded, pruned): (u64, u64),
    want_path: bool,
    observer: &mut O,
) -> SearchOutcome {
    if !found {
        return SearchOutcome { reachable: false, expanded, pruned, false_positives: expanded, path: None };
    }
    if O::RECORDS {
        for frame in frames {
            observer.on_path(frame.vertex);
        }
    }
    let path = want_path.then(|| frames.iter().map(|f| f.vertex).chain(std::iter::once(via.unwrap_or(to))).collect());
    SearchOutcome { reachable: true, expanded, pruned, false_positives: expanded - frames.len() as u64, path }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{Order, dfs};
    use crate::query::guide::{LabelGuide, Unguided};
    use crate::query::observer::NoObserver;

    #[test]
    fn finds_the_path_and_counts_dead_ends() {
        // 0 -> 1 -> 2 (dead end), 0 -> 3 -> 4. Unguided, the DFS tries 1 and 2 before 3.
        let g = Graph::from_edges(5, &[(0, 1), (1, 2), (0, 3), (3, 4)]).unwrap();
        let labels = dfs::label(&g, 1, Order::Lex).unwrap();
        let mut scratch = Scratch::new(5);
        let out = depth_first(&g, &Unguided, 0, 4, &mut scratch, true, &mut NoObserver);
        assert!(out.reachable);
        assert_eq!(out.path, Some(vec![0, 3, 4]));
        assert_eq!((out.expanded, out.pruned, out.false_positives), (4, 0, 2));
        // Guided, 1's label [1,2] cannot hold 4's [3,3]: pruned, never expanded.
        let guide = LabelGuide { labels: &labels, target: labels.of(4) };
        let out = depth_first(&g, &guide, 0, 4, &mut scratch, false, &mut NoObserver);
        assert!(out.reachable && out.path.is_none());
        assert_eq!((out.expanded, out.pruned, out.false_positives), (2, 1, 0));
    }

    #[test]
    fn a_no_counts_every_expanded_vertex() {
        let g = Graph::from_edges(4, &[(0, 1), (1, 2), (3, 2)]).unwrap();
        let out = depth_first(&g, &Unguided, 0, 3, &mut Scratch::new(4), true, &mut NoObserver);
        assert!(!out.reachable && out.path.is_none());
        assert_eq!((out.expanded, out.false_positives), (3, 3));
    }
}
