//! The bidirectional search of the default rule set: a breadth-first search forward from `u` and
//! one backward (over parents) from `v`, each pruned by every cut, one vertex at a time from the
//! side with the shorter queue. They meet on a vertex that `u` reaches and that reaches `v`: yes.
//! If either side runs out, no path exists: a path's vertices pass every cut on both sides, so
//! that side would have met the other's on it.
//!
//! The forward side asks the guide about each child `c` (can `c` reach `v`?); the backward side
//! asks the same rules, turned around, about each parent `p` (can `u` reach `p`?). A positive cut
//! on either side ends the search like a meeting.
//!
//! Its false positives (dead ends) are the expanded vertices that could not have helped: on the
//! forward side those that cannot reach `v`, on the backward side those `u` cannot reach. For a no,
//! every expanded vertex. For a yes, every vertex the backward side entered reaches `v` (and every
//! one the forward side entered is reached from `u`), so a search over parents from the backward
//! tree (over children from the forward tree) settles the rest, on the budget `ancestors.rs`
//! explains: past it, the unsettled count as dead ends, an upper bound.

use super::ancestors::ReverseSearch;
use super::guide::{Guide, Step};
use super::observer::SearchObserver;
use super::outcome::SearchOutcome;
use super::scratch::Scratch;
use crate::graph::Graph;

/// Bidirectional BFS from `from` to `to` (DAG ids, `from != to`). `forward` judges children towards
/// `to`, `backward` judges parents as targets of `from`; `levels` are the DAG's topological levels.
/// Counts: both sides' expanded and pruned vertices, and their dead ends (module docs).
///
/// The path of a yes (when `want_path`) is the walk through both trees: the forward tree from
/// `from` to where the sides met, then the backward tree down to `to`. Where a cut ended a side, the
/// walk has a gap the caller fills (`search.rs`): it ends at the child a forward cut proved reaches
/// `to`, or starts at the parent a backward cut proved `from` reaches.
#[allow(clippy::too_many_arguments)]
pub(crate) fn bidirectional<F: Guide, B: Guide, O: SearchObserver>(
    dag: &Graph,
    levels: &[u32],
    forward: &F,
    backward: &B,
    from: u32,
    to: u32,
    scratch: &mut Scratch,
    want_path: bool,
    observer: &mut O,
) -> SearchOutcome {
    let n = dag.num_vertices();
    let (children, parents) = (dag.children_csr(), dag.parents_csr());
    scratch.ensure_parent(n);
    scratch.ensure_child(n);
    let Scratch { visited, backward_visited, queue, backward_queue, parent, child, reverse, descendants, .. } = scratch;
    visited.begin(n);
    backward_visited.begin(n);
    queue.clear();
    backward_queue.clear();
    visited.insert(from);
    backward_visited.insert(to);
    queue.push(from);
    backward_queue.push(to);
    observer.start(from, to);
    let (mut head, mut back_head, mut pruned, mut scanned) = (0usize, 0usize, 0u64, 0u64);
    // Each side's BFS level and the queue position where its next level starts (observers only).
    let (mut level, mut level_end, mut back_level, mut back_level_end) = (0u32, 1usize, 0u32, 1usize);
    let mut on_backward_side = false;
    // Where the sides met: (last forward vertex, first backward vertex), each on its side's tree.
    let mut meeting = None;
    'search: while head < queue.len() && back_head < backward_queue.len() {
        if queue.len() - head <= backward_queue.len() - back_head {
            if O::RECORDS {
                if on_backward_side {
                    observer.side(false);
                    on_backward_side = false;
                }
                if head == level_end {
                    level += 1;
                    level_end = queue.len();
                }
            }
            let x = queue[head];
            head += 1;
            observer.expand(x);
            for &c in children.neighbors(x) {
                scanned += 1;
                if backward_visited.contains(c) {
                    // Meeting the target before the backward side has started is no meeting: it
                    // is found as any search finds it.
                    if c == to && back_head == 0 {
                        observer.target(x, level + 1);
                    } else {
                        observer.met(x, c, level + 1);
                    }
                    meeting = Some((x, c));
                    break 'search;
                }
                if !visited.insert(c) {
                    continue;
                }
                match forward.check(c) {
                    Step::Enter => {
                        parent[c as usize] = x;
                        queue.push(c);
                        observer.entered(x, c, level + 1);
                    }
                    Step::Prune(rule) => {
                        pruned += 1;
                        observer.pruned(x, c, level + 1, rule);
                    }
                    Step::Reach(rule) => {
                        observer.reached(x, c, level + 1, rule);
                        parent[c as usize] = x;
                        // `c` reaches `to` by a cut.
                        meeting = Some((c, NONE));
                        break 'search;
                    }
                }
            }
        } else {
            if O::RECORDS {
                if !on_backward_side {
                    observer.side(true);
                    on_backward_side = true;
                }
                if back_head == back_level_end {
                    back_level += 1;
                    back_level_end = backward_queue.len();
                }
            }
            let y = backward_queue[back_head];
            back_head += 1;
            observer.expand(y);
            for &p in parents.neighbors(y) {
                scanned += 1;
                if visited.contains(p) {
                    observer.met(y, p, back_level + 1);
                    meeting = Some((p, y));
                    break 'search;
                }
                if !backward_visited.insert(p) {
                    continue;
                }
                match backward.check(p) {
                    Step::Enter => {
                        child[p as usize] = y;
                        backward_queue.push(p);
                        observer.entered(y, p, back_level + 1);
                    }
                    Step::Prune(rule) => {
                        pruned += 1;
                        observer.pruned(y, p, back_level + 1, rule);
                    }
                    Step::Reach(rule) => {
                        observer.reached(y, p, back_level + 1, rule);
                        child[p as usize] = y;
                        // `from` reaches `p` by a cut.
                        meeting = Some((NONE, p));
                        break 'search;
                    }
                }
            }
        }
    }
    let expanded = (head + back_head) as u64;
    let Some((x, y)) = meeting else {
        if O::RECORDS {
            for &v in queue[..head].iter().chain(&backward_queue[..back_head]) {
                observer.dead_end(v);
            }
        }
        return SearchOutcome { reachable: false, expanded, pruned, false_positives: expanded, path: None };
    };
    // The path through the meeting: the forward tree from `from` to `x`, the backward tree from `y`
    // to `to` (a side ended by a cut has no stretch there).
    let mut path = Vec::new();
    let mut at = x;
    while at != NONE {
        path.push(at);
        at = if at == from { NONE } else { parent[at as usize] };
    }
    path.reverse();
    at = y;
    while at != NONE {
        path.push(at);
        at = if at == to { NONE } else { child[at as usize] };
    }
    let (ahead, behind) = (&queue[..head], &backward_queue[..back_head]);
    // A backward cut proved that `from` reaches the walk's first vertex: `from` is on the path too,
    // though not in it yet (the caller fills the gap).
    let on_path = |v: &u32| *v == from || path.contains(v);
    // Most searches expand only vertices of the path: nothing to settle then.
    let (ahead_open, behind_open) = (!ahead.iter().all(on_path), !behind.iter().all(on_path));
    let budget = expanded + scanned;
    // Seeds: what reaches `to` (the backward tree, the path) and what `from` reaches (the forward
    // tree, the path, `to`). Then what reaches `to` from `from`'s level down, and what `from`
    // reaches down to `to`'s level.
    if ahead_open {
        reverse.begin(n, to);
        path.iter().chain(&*backward_queue).for_each(|&v| reverse.add_ancestor(v));
        reverse.settle(children, ahead);
        let low = levels[from as usize];
        reverse.explore_within(parents, |p| levels[p as usize] >= low, budget);
    }
    if behind_open {
        descendants.begin(n, from);
        path.iter().chain(&*queue).chain([&to]).for_each(|&v| descendants.add_ancestor(v));
        descendants.settle(parents, behind);
        let high = levels[to as usize];
        descendants.explore_within(children, |c| levels[c as usize] <= high, budget);
    }
    let helped =
        |side: &[u32], search: &ReverseSearch| side.iter().filter(|v| on_path(v) || search.reaches(**v)).count();
    let helped = (helped(ahead, reverse) + helped(behind, descendants)) as u64;
    if O::RECORDS {
        for &v in path.iter().chain((x == NONE).then_some(&from)) {
            observer.on_path(v);
        }
        let forward_dead = ahead.iter().filter(|v| !on_path(v) && !reverse.reaches(**v));
        for &v in forward_dead.chain(behind.iter().filter(|v| !on_path(v) && !descendants.reaches(**v))) {
            observer.dead_end(v);
        }
    }
    SearchOutcome {
        reachable: true,
        expanded,
        pruned,
        false_positives: expanded - helped,
        path: want_path.then_some(path),
    }
}

/// Marks "no vertex" in the trees' links.
const NONE: u32 = u32::MAX;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::guide::Unguided;
    use crate::query::observer::NoObserver;

    #[test]
    fn the_sides_meet_in_the_middle_or_one_runs_dry() {
        // A chain 0 -> 1 -> ... -> 6 and a branch 0 -> 7 that leads nowhere.
        let mut edges: Vec<(u32, u32)> = (0..6).map(|v| (v, v + 1)).collect();
        edges.push((0, 7));
        let g = Graph::from_edges(8, &edges).unwrap();
        let levels = &crate::graph::topo::kahn(&g).unwrap().level;
        let mut scratch = Scratch::new(8);
        let out = bidirectional(&g, levels, &Unguided, &Unguided, 0, 6, &mut scratch, true, &mut NoObserver);
        // Forward expands 0 (queueing 1 and 7); the backward queue is then the shorter one, so the
        // backward side climbs 6, 5, 4, 3, 2 and meets 1: the dead branch 7 is never expanded.
        assert!(out.reachable);
        assert_eq!(out.path, Some((0..=6).collect()));
        assert_eq!((out.expanded, out.false_positives), (6, 0));
        // 7 has no children: the forward side runs dry at once, whatever the backward side holds.
        let out = bidirectional(&g, levels, &Unguided, &Unguided, 7, 6, &mut scratch, false, &mut NoObserver);
        assert_eq!((out.reachable, out.expanded, out.false_positives), (false, 1, 1));
    }
}
