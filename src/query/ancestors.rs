//! Exact false positives for a BFS yes: which expanded vertices reach the target.
//!
//! A BFS stops as soon as it meets `v`, leaving some expanded vertices unresolved (their children
//! were queued but not explored). A reverse search from `v` over parents resolves them: every vertex
//! it reaches is an ancestor of `v`. Only ancestors that the start `s` may reach matter (every
//! expanded vertex descends from `s`), so the reverse search enters a parent `p` only if
//! `L(p) ⊆ L(s)` and `level(p) >= level(s)`, both necessary for `s ⇝ p`. That keeps it near the
//! size of the forward search; a budget (the forward search's cost) bounds it in the worst case.

use super::rules::contains_all;
use super::scratch::Stamps;
use crate::graph::Graph;
use crate::index::Labels;

/// Tiny searches get an exact count even when the reverse search is a little longer than they were.
const MIN_BUDGET: u64 = 256;

/// The reverse search's buffers (part of [`super::Scratch`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct ReverseSearch {
    pub ancestors: Stamps,
    pub stack: Vec<u32>,
}

/// How many of `expanded` (all reachable from `from`) reach `to`. Exact if the reverse search fits
/// in `max(budget, MIN_BUDGET)` steps (vertices popped plus parent edges scanned); otherwise a
/// lower bound: the vertices it proved reach `to` before it stopped.
pub(crate) fn count_reaching(
    dag: &Graph,
    labels: &Labels,
    from: u32,
    to: u32,
    expanded: &[u32],
    budget: u64,
    reverse: &mut ReverseSearch,
) -> u64 {
    let budget = budget.max(MIN_BUDGET);
    let csr = dag.parents_csr();
    let (offsets, sources) = (csr.offsets(), csr.targets());
    let (start_label, start_level) = (labels.of(from), labels.level(from));
    let ReverseSearch { ancestors, stack } = reverse;
    ancestors.begin(dag.num_vertices());
    stack.clear();
    ancestors.insert(to);
    stack.push(to);
    let mut work = 0u64;
    'search: while let Some(x) = stack.pop() {
        work += 1;
        for &p in &sources[offsets[x as usize] as usize..offsets[x as usize + 1] as usize] {
            work += 1;
            if work > budget {
                break 'search;
            }
            if labels.level(p) >= start_level && contains_all(start_label, labels.of(p)) && ancestors.insert(p) {
                stack.push(p);
            }
        }
    }
    expanded.iter().filter(|&&e| ancestors.contains(e)).count() as u64
}
