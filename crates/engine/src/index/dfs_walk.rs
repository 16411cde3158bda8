//! The DFS walk itself (docs/ALGORITHMS.md, section 3), shared by the labeler that walks from every
//! root (`dfs.rs`) and the regions (`dfs_regions.rs`), which walk only the regions holding more
//! than their root.
//!
//! A vertex's children are read once when it is entered: those finished already give their `low`
//! at once, and only the others are kept, in order, to be visited (in a random order they are
//! sorted by priority). A child kept may be finished by an earlier sibling's subtree before its
//! turn; it then gives its `low` as it is met.

use super::dfs_out::DimensionOut;
use super::labels::Interval;
use super::order::{PriorityKey, sort_by_priority};
use crate::graph::Graph;
use crate::mix::{priority, vertex_of};

/// Buffers of the walk, kept across roots and dimensions on one thread.
#[derive(Default)]
pub(super) struct WalkBuffers {
    /// A short children list's priorities, to be sorted.
    keys: Vec<u64>,
    /// Scratch of the radix sort, for long children lists (and the labeler's roots).
    pub ranked: Vec<PriorityKey>,
    /// The children still to visit of every vertex on the stack, one list after the other.
    lists: Vec<u32>,
    stack: Vec<Frame>,
}

/// A vertex on the DFS stack.
struct Frame {
    x: u32,
    /// `r` when `x` was entered: its subtree is the posts `entered..=post(x)`.
    entered: u32,
    /// The smallest `low` over the children seen so far.
    reach: u32,
    /// Where `x`'s next child to visit is in `WalkBuffers::lists`, and where its list starts.
    next: usize,
    start: usize,
}

/// How many siblings ahead the walk prefetches a child's label.
const CHILD_PREFETCH_AHEAD: usize = 4;

/// Children lists longer than this are sorted by [`sort_by_priority`]'s radix sort; shorter ones
/// by comparing priorities (human_dag_uniq's root has 28,570 children, sorted in every dimension).
const LONG_LIST: usize = 128;

/// Walks the DFS from `root`, which is not finished, numbering posts from `r`: children in the
/// dimension's order (`base`: its priority base; `None`: by id), finished ones skipped. Writes
/// every vertex it finishes into `out` (post, low, subtree size) and returns the next post.
#[inline]
pub(super) fn walk(
    dag: &Graph,
    base: Option<u64>,
    root: u32,
    mut r: u32,
    out: &DimensionOut,
    bufs: &mut WalkBuffers,
) -> u32 {
    let WalkBuffers { keys, ranked, lists, stack } = bufs;
    let mut enter = |x: u32, r: u32, lists: &mut Vec<u32>, stack: &mut Vec<Frame>| {
        let start = lists.len();
        let mut reach = u32::MAX;
        let children = dag.children(x);
        // A long list is gathered as it is and radix-sorted; a short one by its priorities.
        let long = base.is_some() && children.len() > LONG_LIST;
        keys.clear();
        for &c in children {
            let child = out.interval(c);
            if child.post != 0 {
                reach = reach.min(child.low);
            } else if let (Some(base), false) = (base, long) {
                keys.push(priority(base, c));
            } else {
                lists.push(c);
            }
        }
        if let Some(base) = base {
            if long {
                sort_by_priority(base, &mut lists[start..], ranked);
            } else {
                keys.sort_unstable();
                lists.extend(keys.iter().map(|&p| vertex_of(base, p)));
            }
        }
        stack.push(Frame { x, entered: r, reach, next: start, start });
    };
    enter(root, r, lists, stack);
    while let Some(top) = stack.last_mut() {
        if let Some(&c) = lists.get(top.next) {
            // Siblings come in random order: fetch a later one's label while this one's subtree
            // is walked (a vertex with many children takes a miss for each).
            if let Some(&later) = lists.get(top.next + CHILD_PREFETCH_AHEAD) {
                out.prefetch(later);
            }
            top.next += 1;
            let child = out.interval(c);
            if child.post == 0 {
                enter(c, r, lists, stack);
            } else {
                top.reach = top.reach.min(child.low);
            }
            continue;
        }
        let Frame { x, entered, reach, start, .. } = *top;
        stack.pop();
        lists.truncate(start);
        let low = r.min(reach);
        out.finish_with_low(x, Interval { low, post: r }, r - entered + 1);
        r += 1;
        if let Some(parent) = stack.last_mut() {
            parent.reach = parent.reach.min(low);
        }
    }
    r
}
