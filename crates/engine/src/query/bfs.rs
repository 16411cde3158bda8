//! The label-guided breadth-first search: a queue instead of a stack, parent pointers for the path.

use super::guide::{Guide, Step};
use super::observer::SearchObserver;
use super::outcome::SearchOutcome;
use super::scratch::Scratch;
use crate::graph::Graph;
use crate::index::Labels;

/// BFS from `from` to `to` (DAG ids, `from != to`). `guide` prunes children and may prove that a
/// child reaches `to`, which ends the search like meeting `to` (the path then ends at that child;
/// the caller completes it). Parent pointers give the path and credit it in the false positives
/// (`labels` bound the reverse search that counts them). `observer` hears every step (see
/// [`SearchObserver`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn breadth_first<G: Guide, O: SearchObserver>(
    dag: &Graph,
    labels: &Labels,
    guide: &G,
    from: u32,
    to: u32,
    scratch: &mut Scratch,
    want_path: bool,
    observer: &mut O,
) -> SearchOutcome {
    let n = dag.num_vertices();
    let csr = dag.children_csr();
    let (offsets, targets) = (csr.offsets(), csr.targets());
    scratch.ensure_parent(n);
    let Scratch { visited, queue, parent, reverse, .. } = scratch;
    visited.begin(n);
    queue.clear();
    visited.insert(from);
    queue.push(from);
    observer.start(from, to);
    let (mut head, mut pruned, mut scanned) = (0usize, 0u64, 0u64);
    // BFS level of the vertex being expanded, and the queue position where the next level starts
    // (only observers need them).
    let (mut level, mut level_end) = (0u32, 1usize);
    // The vertex whose children list holds `to`, once met.
    let mut last = None;
    // The child a cut proved to reach `to`, if that is how the search ended.
    let mut via = None;
    'search: while let Some(&x) = queue.get(head) {
        if O::RECORDS && head == level_end {
            // Every vertex of the previous level is expanded, so the queue holds exactly the levels
            // up to this one.
            level += 1;
            level_end = queue.len();
        }
        head += 1;
        observer.expand(x);
        let children = &targets[offsets[x as usize] as usize..offsets[x as usize + 1] as usize];
        for &c in children {
            scanned += 1;
            if c == to {
                observer.target(x, level + 1);
                last = Some(x);
                break 'search;
            }
            if !visited.insert(c) {
                continue;
            }
            match guide.check(c) {
                Step::Enter => {}
                Step::Prune(rule) => {
                    pruned += 1;
                    observer.pruned(x, c, level + 1, rule);
                    continue;
                }
                Step::Reach(rule) => {
                    observer.reached(x, c, level + 1, rule);
                    last = Some(x);
                    via = Some(c);
                    break 'search;
                }
            }
            parent[c as usize] = x;
            queue.push(c);
            observer.entered(x, c, level + 1);
        }
    }
    let expanded = head as u64;
    let Some(last) = last else {
        if O::RECORDS {
            for &x in &queue[..head] {
                observer.dead_end(x);
            }
        }
        return SearchOutcome { reachable: false, expanded, pruned, false_positives: expanded, path: None };
    };
    // The tree path from `from` to `last` reaches `to`: seed it into the reverse search, and keep
    // it (backwards) if it was asked for.
    reverse.begin(n, to);
    if let Some(c) = via {
        reverse.add_ancestor(c);
    }
    let mut path = want_path.then(|| vec![via.unwrap_or(to)]);
    let mut x = last;
    loop {
        reverse.add_ancestor(x);
        observer.on_path(x);
        if let Some(path) = path.as_mut() {
            path.push(x);
        }
        if x == from {
            break;
        }
        x = parent[x as usize];
    }
    if let Some(path) = path.as_mut() {
        path.reverse();
    }
    let mut reaching = reverse.count_among(&queue[..head]);
    if reaching < expanded {
        // The reverse check may spend as much as the forward search did: its vertices and edges.
        reverse.explore(dag, labels, from, expanded + scanned);
        reaching = reverse.count_among(&queue[..head]);
    }
    if O::RECORDS {
        for &x in queue[..head].iter().filter(|&&x| !reverse.reaches(x)) {
            observer.dead_end(x);
        }
    }
    SearchOutcome { reachable: true, expanded, pruned, false_positives: expanded - reaching, path }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{Order, dfs};
    use crate::query::guide::{LabelGuide, Unguided};
    use crate::query::observer::NoObserver;

    #[test]
    fn shortest_path_and_exact_false_positives() {
        // 0 -> 1 -> 4, 0 -> 2 -> 3 -> 4, 0 -> 5 (dead end), 4 -> 6.
        let edges = [(0, 1), (1, 4), (0, 2), (2, 3), (3, 4), (0, 5), (4, 6)];
        let g = Graph::from_edges(7, &edges).unwrap();
        let labels = dfs::label(&g, 2, Order::Random { seed: 3 }).unwrap();
        let mut scratch = Scratch::new(7);
        let out = breadth_first(&g, &labels, &Unguided, 0, 6, &mut scratch, true, &mut NoObserver);
        assert!(out.reachable);
        assert_eq!(out.path, Some(vec![0, 1, 4, 6]));
        // Expanded 0, 1, 2, 5, 4 (6 is met among 4's children); 5 is the only one that cannot reach 6.
        assert_eq!((out.expanded, out.pruned, out.false_positives), (5, 0, 1));
    }

    #[test]
    fn guided_prunes_and_a_no_counts_everything() {
        let g = Graph::from_edges(5, &[(0, 1), (1, 2), (0, 3), (3, 4)]).unwrap();
        let labels = dfs::label(&g, 1, Order::Lex).unwrap();
        let mut scratch = Scratch::new(5);
        let guide = LabelGuide { labels: &labels, target: labels.of(4) };
        let out = breadth_first(&g, &labels, &guide, 0, 4, &mut scratch, true, &mut NoObserver);
        assert_eq!((out.reachable, out.expanded, out.pruned, out.false_positives), (true, 2, 1, 0));
        assert_eq!(out.path, Some(vec![0, 3, 4]));
        let out = breadth_first(&g, &labels, &Unguided, 1, 4, &mut scratch, true, &mut NoObserver);
        assert_eq!((out.reachable, out.expanded, out.false_positives, out.path), (false, 2, 2, None));
    }
}
