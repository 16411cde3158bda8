//! Hooks into the search step, so one search both answers batches and draws its tree.
//!
//! The searches are generic over the observer and monomorphized: batches use [`NoObserver`], whose
//! hooks are empty and always inlined, so they compile to the bare search with no branch or call
//! per child. A recording observer ([`super::TraceRecorder`]) rebuilds the search tree from the
//! same calls, which is why a traced query's answer and counts are the engine's by construction.
//!
//! Vertices are DAG (component) ids. Depths count edges from the start (depth 0): a DFS child's
//! depth is its place on the stack, a BFS child's its BFS level. Every hook about a child names
//! `by`, the vertex whose children (parents, on a bidirectional search's backward side) were being
//! scanned when it was met, so the tree is drawn with each child under the vertex that reached it.

use super::answer::Rule;

/// What a search reports as it runs, in the order it happens.
pub trait SearchObserver {
    /// False when every hook is a no-op: the searches then skip the bookkeeping that only feeds
    /// hooks (the BFS's level count, the walks that report dead ends and the path).
    const RECORDS: bool;

    /// A search from `from` towards `to` begins (no cheap rule decided).
    fn start(&mut self, from: u32, to: u32);
    /// A bidirectional search switches sides: the hooks that follow are about the backward search
    /// from the target over parents (`backward`) or the forward one. The first switch to the
    /// backward side starts it at the target. Other searches never call it.
    fn side(&mut self, backward: bool);
    /// The search scans `vertex`'s children (the start included): the vertex counts as expanded.
    /// A DFS does so when it enters a child, a BFS when it takes the vertex off the queue.
    fn expand(&mut self, vertex: u32);
    /// `child`, first met at `depth` among `by`'s, passed the label test: the DFS enters it, the
    /// BFS queues it.
    fn entered(&mut self, by: u32, child: u32, depth: u32);
    /// `child`, first met at `depth` among `by`'s, was refused: `rule` proves it cannot reach the
    /// target (GRAIL's search: always the label cut, `L(to) ⊄ L(child)`).
    fn pruned(&mut self, by: u32, child: u32, depth: u32, rule: Rule);
    /// `child`, first met at `depth` among `by`'s, is proved by `rule` to reach the target: the
    /// answer is yes and the search ends, as if it had met the target.
    fn reached(&mut self, by: u32, child: u32, depth: u32, rule: Rule);
    /// The target was met among `by`'s children, at `depth`: the answer is yes.
    fn target(&mut self, by: u32, depth: u32);
    /// The two sides of a bidirectional search met: the side searching now found, at `depth` among
    /// `by`'s neighbours, `vertex`, which the other side had already entered. The answer is yes.
    fn met(&mut self, by: u32, vertex: u32, depth: u32);
    /// An expanded vertex that cannot reach the target (for a BFS yes past its exactness budget:
    /// one not proved to reach it). Each is reported once; together they are the false positives.
    fn dead_end(&mut self, vertex: u32);
    /// A vertex on the path found, the start included and the target excluded (any order).
    fn on_path(&mut self, vertex: u32);
}

/// The observer of batches: it ignores everything, at no cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl SearchObserver for NoObserver {
    const RECORDS: bool = false;

    #[inline(always)]
    fn start(&mut self, _from: u32, _to: u32) {}
    #[inline(always)]
    fn side(&mut self, _backward: bool) {}
    #[inline(always)]
    fn expand(&mut self, _vertex: u32) {}
    #[inline(always)]
    fn entered(&mut self, _by: u32, _child: u32, _depth: u32) {}
    #[inline(always)]
    fn pruned(&mut self, _by: u32, _child: u32, _depth: u32, _rule: Rule) {}
    #[inline(always)]
    fn reached(&mut self, _by: u32, _child: u32, _depth: u32, _rule: Rule) {}
    #[inline(always)]
    fn target(&mut self, _by: u32, _depth: u32) {}
    #[inline(always)]
    fn met(&mut self, _by: u32, _vertex: u32, _depth: u32) {}
    #[inline(always)]
    fn dead_end(&mut self, _vertex: u32) {}
    #[inline(always)]
    fn on_path(&mut self, _vertex: u32) {}
}
