//! A query's search tree: which children the search entered, which the labels pruned, which turned
//! out to be dead ends (expanded, yet unable to reach the target) and the path it found. [`TraceRecorder`] builds it from
//! the search's own hooks ([`SearchObserver`]), so it shows exactly the search the engine ran
//! (see [`crate::query::Engine::query_traced`]).

use super::answer::{Method, Rule};
use super::observer::SearchObserver;
use super::rules::label_cut;
use crate::index::Labels;
use std::collections::HashMap;

/// Why a node is in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// The search's start, `comp(u)` (and, for the backward side of a bidirectional search,
    /// `comp(v)`).
    Start,
    /// A child the labels let in: the DFS entered it, the BFS queued it.
    Entered,
    /// A child refused because `L(v) ⊄ L(c)`; `dim` is the first dimension where it fails.
    Pruned {
        /// The first dimension whose interval rules the child out.
        dim: usize,
    },
    /// A child refused by another cut of the query index (level, topological order, supportive
    /// vertex, Bloom filter): it cannot reach the target.
    Cut {
        /// The cut that refused it.
        rule: Rule,
    },
    /// A child that a cut proves reaches the target (supportive vertex, tree cut): the search
    /// ends there with a yes, as if it had met the target.
    Reached {
        /// The cut that proved it.
        rule: Rule,
    },
    /// The target, met among a vertex's children.
    Target,
    /// Where the two sides of a bidirectional search met: a vertex the other side had entered
    /// (it has a node of its own on that side).
    Meeting,
}

/// One node of the search tree, in the order the search met it: pre-order for a DFS, queue order
/// for a BFS (levels one after the other; a bidirectional search's two sides interleaved).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceNode {
    /// DAG (component) id.
    pub vertex: u32,
    /// The node of the vertex that met this one among its children (on the backward side: among
    /// its parents); `None` for a start. Always an earlier node, of the same side.
    pub parent: Option<usize>,
    /// Edges from the start: the stack depth for a DFS, the level for a BFS.
    pub depth: u32,
    /// What the search did with it.
    pub kind: NodeKind,
    /// The search scanned this vertex's children. A DFS expands every node it enters; a BFS that
    /// meets the target leaves the rest of its queue unexpanded.
    pub expanded: bool,
    /// Expanded, but it cannot reach the target: a false positive of the labels. (For a BFS yes
    /// whose exact check ran out of budget, one not proved to reach it; see `search.rs`.)
    pub dead_end: bool,
    /// On the path from the start to the target.
    pub on_path: bool,
    /// Met by the backward side of a bidirectional search (over parents, from the target; its
    /// start is the target itself, at depth 0).
    pub backward: bool,
}

/// The search tree behind one query. Empty when a cheap rule decided (no search ran).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The search it shows.
    pub method: Method,
    /// The nodes, in the order the search met them.
    pub nodes: Vec<TraceNode>,
    /// The tree was cut at the node limit (the answer's counts are still complete).
    pub truncated: bool,
}

impl Trace {
    /// The tree of a query a check decided: no search ran.
    pub fn empty(method: Method) -> Trace {
        Trace { method, nodes: Vec::new(), truncated: false }
    }

    /// The nodes as trees: each node's children in the order the search met them, under the
    /// vertex that met them, and the starts (forward first, then a bidirectional search's
    /// backward one).
    pub fn tree(&self) -> TraceTree {
        let mut tree = TraceTree { roots: Vec::new(), children: vec![Vec::new(); self.nodes.len()] };
        for (i, node) in self.nodes.iter().enumerate() {
            match node.parent {
                Some(p) => tree.children[p].push(i),
                None => tree.roots.push(i),
            }
        }
        tree
    }
}

/// A [`Trace`]'s nodes linked as the trees the search grew (indices into its nodes).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TraceTree {
    /// The starts: `comp(u)`, then `comp(v)` where a backward side ran.
    pub roots: Vec<usize>,
    /// Each node's children, in the order they were met.
    pub children: Vec<Vec<usize>>,
}

/// The observer that records a [`Trace`], keeping at most `node_limit` nodes.
#[derive(Debug)]
pub struct TraceRecorder<'a> {
    /// The labels of a search they guided (none before they exist).
    labels: Option<&'a Labels>,
    node_limit: usize,
    /// The search's target (set when it starts).
    to: u32,
    nodes: Vec<TraceNode>,
    /// The node of each vertex the search entered (the start included), for the hooks that name
    /// it again, per side (forward, backward). Each such vertex has one: a side marks it visited
    /// when it first meets it, and a vertex one side meets after the other entered it is where
    /// they meet, not a node entered twice.
    node_of: [HashMap<u32, usize>; 2],
    truncated: bool,
    /// The side the next nodes belong to (bidirectional searches).
    backward: bool,
}

impl<'a> TraceRecorder<'a> {
    /// A recorder for a search on the DAG that `labels` label.
    pub fn new(labels: &'a Labels, node_limit: usize) -> Self {
        Self::of(Some(labels), node_limit)
    }

    /// A recorder for a search run before the DAG has labels (no child is pruned by them).
    pub fn without_labels(node_limit: usize) -> Self {
        Self::of(None, node_limit)
    }

    fn of(labels: Option<&'a Labels>, node_limit: usize) -> Self {
        TraceRecorder {
            labels,
            node_limit,
            to: 0,
            nodes: Vec::new(),
            node_of: [HashMap::new(), HashMap::new()],
            truncated: false,
            backward: false,
        }
    }

    /// The tree recorded, for a search run with `method`.
    pub fn finish(self, method: Method) -> Trace {
        Trace { method, nodes: self.nodes, truncated: self.truncated }
    }

    fn has_room(&mut self) -> bool {
        let room = self.nodes.len() < self.node_limit;
        self.truncated |= !room;
        room
    }

    /// Records `vertex` as met by `by` (`None` for a start) on the current side.
    fn record(&mut self, by: Option<u32>, vertex: u32, depth: u32, kind: NodeKind) -> Option<&mut TraceNode> {
        if !self.has_room() {
            return None;
        }
        let side = usize::from(self.backward);
        let parent = by.and_then(|by| self.node_of[side].get(&by).copied());
        if matches!(kind, NodeKind::Start | NodeKind::Entered) {
            self.node_of[side].insert(vertex, self.nodes.len());
        }
        let backward = self.backward;
        let node =
            TraceNode { vertex, parent, depth, kind, expanded: false, dead_end: false, on_path: false, backward };
        self.nodes.push(node);
        self.nodes.last_mut()
    }

    /// The recorded node of a vertex the search entered on either side (`None` past the node
    /// limit).
    fn entered_node(&mut self, vertex: u32) -> Option<&mut TraceNode> {
        let [forward, backward] = &self.node_of;
        forward.get(&vertex).or_else(|| backward.get(&vertex)).map(|&i| &mut self.nodes[i])
    }
}

impl SearchObserver for TraceRecorder<'_> {
    const RECORDS: bool = true;

    fn start(&mut self, from: u32, to: u32) {
        self.to = to;
        self.record(None, from, 0, NodeKind::Start);
    }

    fn side(&mut self, backward: bool) {
        self.backward = backward;
        if backward && !self.node_of[1].contains_key(&self.to) {
            self.record(None, self.to, 0, NodeKind::Start);
        }
    }

    fn expand(&mut self, vertex: u32) {
        let side = usize::from(self.backward);
        if let Some(&i) = self.node_of[side].get(&vertex) {
            self.nodes[i].expanded = true;
        }
    }

    fn entered(&mut self, by: u32, child: u32, depth: u32) {
        self.record(Some(by), child, depth, NodeKind::Entered);
    }

    fn pruned(&mut self, by: u32, child: u32, depth: u32, rule: Rule) {
        // Only a kept node pays for finding the dimension. A label-pruned child always fails in
        // some dimension; 0 only guards against labels that contradict the search.
        if self.has_room() {
            let kind = if rule == Rule::LabelCut {
                NodeKind::Pruned { dim: self.labels.and_then(|l| label_cut(l, child, self.to)).unwrap_or(0) }
            } else {
                NodeKind::Cut { rule }
            };
            self.record(Some(by), child, depth, kind);
        }
    }

    fn reached(&mut self, by: u32, child: u32, depth: u32, rule: Rule) {
        if let Some(node) = self.record(Some(by), child, depth, NodeKind::Reached { rule }) {
            node.on_path = true;
        }
    }

    fn target(&mut self, by: u32, depth: u32) {
        if let Some(node) = self.record(Some(by), self.to, depth, NodeKind::Target) {
            node.on_path = true;
        }
    }

    fn met(&mut self, by: u32, vertex: u32, depth: u32) {
        if let Some(node) = self.record(Some(by), vertex, depth, NodeKind::Meeting) {
            node.on_path = true;
        }
    }

    fn dead_end(&mut self, vertex: u32) {
        if let Some(node) = self.entered_node(vertex) {
            node.dead_end = true;
        }
    }

    fn on_path(&mut self, vertex: u32) {
        if let Some(node) = self.entered_node(vertex) {
            node.on_path = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;
    use crate::index::{Order, dfs};

    /// Drives the hooks by hand: what the searches call is tested against the engine in
    /// `tests/query_trace.rs`; here, what the recorder makes of the calls.
    #[test]
    fn hooks_become_nodes_until_the_limit() {
        // 0 -> 1, 0 -> 2 -> 3; lex DFS labels: L(1) = [1,1] cannot hold L(3) = [2,2].
        let g = Graph::from_edges(4, &[(0, 1), (0, 2), (2, 3)]).unwrap();
        let labels = dfs::label(&g, 1, Order::Lex).unwrap();
        let mut recorder = TraceRecorder::new(&labels, 4);
        recorder.start(0, 3);
        recorder.expand(0);
        recorder.pruned(0, 1, 1, Rule::LabelCut);
        recorder.entered(0, 2, 1);
        recorder.expand(2);
        recorder.target(2, 2);
        recorder.on_path(0);
        recorder.on_path(2);
        let trace = recorder.finish(Method::GuidedDfs);
        let node = |vertex, parent, depth, kind, expanded, on_path| TraceNode {
            vertex,
            parent,
            depth,
            kind,
            expanded,
            dead_end: false,
            on_path,
            backward: false,
        };
        let want = vec![
            node(0, None, 0, NodeKind::Start, true, true),
            node(1, Some(0), 1, NodeKind::Pruned { dim: 0 }, false, false),
            node(2, Some(0), 1, NodeKind::Entered, true, true),
            node(3, Some(2), 2, NodeKind::Target, false, true),
        ];
        assert_eq!(trace, Trace { method: Method::GuidedDfs, nodes: want.clone(), truncated: false });

        // Two nodes fit: the later hooks only set the truncation flag, and flags for vertices past
        // the limit go nowhere.
        let mut recorder = TraceRecorder::new(&labels, 2);
        recorder.start(0, 3);
        recorder.expand(0);
        recorder.entered(0, 2, 1);
        recorder.expand(2);
        recorder.pruned(0, 1, 1, Rule::LabelCut);
        recorder.dead_end(1);
        recorder.dead_end(2);
        let trace = recorder.finish(Method::GuidedBfs);
        assert!(trace.truncated);
        let dead_two = TraceNode { dead_end: true, on_path: false, ..want[2] };
        assert_eq!(trace.nodes, [TraceNode { on_path: false, ..want[0] }, dead_two]);
    }

    #[test]
    fn a_bidirectional_search_records_both_sides() {
        // 0 -> 2 -> 3 and 1 -> 3: forward from 0, backward from 3 over parents; they meet at 2.
        let g = Graph::from_edges(4, &[(0, 2), (2, 3), (1, 3)]).unwrap();
        let labels = dfs::label(&g, 1, Order::Lex).unwrap();
        let mut recorder = TraceRecorder::new(&labels, 100);
        recorder.start(0, 3);
        recorder.expand(0);
        recorder.entered(0, 2, 1);
        recorder.side(true);
        recorder.expand(3);
        recorder.pruned(3, 1, 1, Rule::LevelCut);
        recorder.met(3, 2, 1);
        for v in [0, 2, 3] {
            recorder.on_path(v);
        }
        let nodes = recorder.finish(Method::GuidedBfs).nodes;
        let kinds: Vec<_> = nodes.iter().map(|n| (n.vertex, n.parent, n.kind, n.backward)).collect();
        // Each side is its own tree: the backward side's nodes hang under 3, its start.
        assert_eq!(
            kinds,
            [
                (0, None, NodeKind::Start, false),
                (2, Some(0), NodeKind::Entered, false),
                (3, None, NodeKind::Start, true),
                (1, Some(2), NodeKind::Cut { rule: Rule::LevelCut }, true),
                (2, Some(2), NodeKind::Meeting, true),
            ]
        );
        assert!(nodes[2].expanded && nodes.iter().filter(|n| n.on_path).count() == 4);
    }
}
