//! Exact false positives for a BFS yes: which expanded vertices reach the target.
//!
//! A BFS stops as soon as it meets `v`, leaving some expanded vertices unresolved (their children
//! were queued but not explored). A reverse search from `v` over parents resolves them: every vertex
//! it reaches is an ancestor of `v`. Only ancestors that the start `s` may reach matter (every
//! expanded vertex descends from `s`), so the reverse search enters a parent `p` only if
//! `L(p) ⊆ L(s)` and `level(p) >= level(s)`, both necessary for `s ⇝ p`.
//!
//! The reverse search may still be far larger than the forward one (a short BFS from the top of a
//! long chain), so it runs on a budget: the forward search's cost. Past it, it stops, and the
//! vertices it has not proved to reach `v` stay counted as false positives (an upper bound). The
//! BFS's own path to `v` is seeded as known ancestors, so it never counts as wasted.

use super::rules::contains_all;
use super::stamps::Stamps;
use crate::graph::{Csr, Graph};
use crate::index::Labels;

/// Tiny searches get an exact count even when the reverse search is a little longer than they were.
const MIN_BUDGET: u64 = 64;

/// Passes of [`ReverseSearch::settle`] at most: one settles every chain that runs down the queue;
/// edges back up it need more, rarely many.
const SETTLE_PASSES: usize = 4;

/// The reverse search's buffers (part of [`super::Scratch`]) and its marks.
#[derive(Clone, Debug, Default)]
pub(crate) struct ReverseSearch {
    ancestors: Stamps,
    stack: Vec<u32>,
}

impl ReverseSearch {
    /// Starts a search for the ancestors of `to` on a DAG of `n` vertices.
    pub fn begin(&mut self, n: usize, to: u32) {
        self.ancestors.begin(n);
        self.stack.clear();
        self.add_ancestor(to);
    }

    /// Records a vertex already known to reach the target (its parents get explored too).
    #[inline]
    pub fn add_ancestor(&mut self, v: u32) {
        if self.ancestors.insert(v) {
            self.stack.push(v);
        }
    }

    /// Explores ancestors that `from` may reach, for at most `max(budget, MIN_BUDGET)` steps
    /// (vertices popped plus parent edges scanned). Returns true if it finished (the marks are then
    /// exactly the ancestors of the target among `from`'s descendants).
    pub fn explore(&mut self, dag: &Graph, labels: &Labels, from: u32, budget: u64) -> bool {
        let (start_label, start_level) = (labels.of(from), labels.level(from));
        let keep = |p: u32| labels.level(p) >= start_level && contains_all(start_label, labels.of(p));
        self.explore_within(dag.parents_csr(), keep, budget)
    }

    /// [`ReverseSearch::explore`] over any direction of the DAG: follows `csr` (parents to find
    /// ancestors, children to find descendants) into the vertices that `keep` accepts (a
    /// bidirectional search keeps to levels: it may run before the labels exist).
    pub fn explore_within(&mut self, csr: &Csr, keep: impl Fn(u32) -> bool, budget: u64) -> bool {
        let budget = budget.max(MIN_BUDGET);
        let mut work = 0u64;
        while let Some(x) = self.stack.pop() {
            work += 1;
            for &p in csr.neighbors(x) {
                work += 1;
                if work > budget {
                    return false;
                }
                if keep(p) && self.ancestors.insert(p) {
                    self.stack.push(p);
                }
            }
        }
        true
    }

    /// Marks each vertex of `expanded` with a neighbour in `csr` already marked. A breadth-first
    /// side met every neighbour of the vertices it expanded, so passes back over its queue (later
    /// vertices first) settle the chains inside the region it searched, at the cost of its own
    /// scan, before any search beyond it. Stops when a pass marks nothing (at most a few passes).
    pub fn settle(&mut self, csr: &Csr, expanded: &[u32]) {
        for _ in 0..SETTLE_PASSES {
            let mut marked = false;
            for &x in expanded.iter().rev() {
                if !self.reaches(x) && csr.neighbors(x).iter().any(|&c| self.reaches(c)) {
                    self.add_ancestor(x);
                    marked = true;
                }
            }
            if !marked {
                return;
            }
        }
    }

    /// Whether `v` is known to reach the target.
    #[inline]
    pub fn reaches(&self, v: u32) -> bool {
        self.ancestors.contains(v)
    }

    /// How many of `vertices` are known to reach the target.
    pub fn count_among(&self, vertices: &[u32]) -> u64 {
        vertices.iter().filter(|&&v| self.reaches(v)).count() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{Order, dfs};

    #[test]
    fn finds_exactly_the_ancestors_below_the_start() {
        // 9 -> 0 -> 1 -> 2 -> 3, 0 -> 4 (dead end), 5 -> 3 (not below 0).
        let g = Graph::from_edges(10, &[(9, 0), (0, 1), (1, 2), (2, 3), (0, 4), (5, 3)]).unwrap();
        let labels = dfs::label(&g, 2, Order::Random { seed: 1 }).unwrap();
        let mut reverse = ReverseSearch::default();
        reverse.begin(10, 3);
        assert!(reverse.explore(&g, &labels, 0, 0));
        assert_eq!(reverse.count_among(&[0, 1, 2, 4]), 3);
        // 9 is above the start: its level rules it out, so the search never climbs there.
        assert_eq!(reverse.count_among(&[9]), 0);
    }

    #[test]
    fn a_spent_budget_keeps_what_was_seeded() {
        // A chain 0 -> 1 -> ... -> 599: the ancestors of 599 cost more than the budget.
        let edges: Vec<(u32, u32)> = (0..599).map(|v| (v, v + 1)).collect();
        let g = Graph::from_edges(600, &edges).unwrap();
        let labels = dfs::label(&g, 1, Order::Lex).unwrap();
        let mut reverse = ReverseSearch::default();
        reverse.begin(600, 599);
        reverse.add_ancestor(0);
        assert!(!reverse.explore(&g, &labels, 0, 10));
        assert_eq!(reverse.count_among(&[0, 1]), 1);
    }
}
