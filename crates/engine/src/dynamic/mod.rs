//! What-if edits: insert and delete edges of a loaded graph and keep every answer exact, with undo
//! and redo, without rebuilding the index.
//!
//! The graph as loaded keeps its index (labels, query index, every rule). Edits live beside it:
//! - the edges ([`EdgeOverlay`]): the loaded CSR, less the deleted edges, plus the inserted ones;
//! - the components ([`LiveComponents`]): an insert that closes a cycle merges the components on
//!   it; a delete inside a component splits it when it is no longer strongly connected;
//! - the intervals ([`Spans`]): grown after an insert so that every edge's intervals nest again
//!   (the argument is in `spans.rs` and docs/ALGORITHMS.md).
//!
//! While the edges are the loaded ones (no edit, or every edit undone), queries go to the full
//! static engine. Otherwise a query is decided by the same component, by the grown intervals (a
//! "no" that stays exact after any edit), or by a search of the edited graph that the intervals
//! prune. Rules that read the loaded graph's levels, orders, trees or filters are not asked: an
//! insert can make their "no" wrong, a delete their "yes".

mod components;
mod edges;
pub mod script;
mod spans;

pub use components::LiveComponents;
pub use edges::EdgeOverlay;
pub use spans::Spans;

use crate::graph::Graph;
use crate::index::Labels;
use crate::query::{Engine, Method, QueryIndex, Scratch};
use crate::workspace::Workspace;
use std::sync::Arc;
use std::time::Instant;

/// One edit of the edge set, on dense vertex ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "edit", rename_all = "lowercase")]
pub enum Edit {
    /// Add the edge `u → v`.
    Insert {
        /// The edge's source.
        u: u32,
        /// The edge's target.
        v: u32,
    },
    /// Remove the edge `u → v`.
    Delete {
        /// The edge's source.
        u: u32,
        /// The edge's target.
        v: u32,
    },
}

impl Edit {
    /// The edit that undoes this one.
    pub fn inverse(self) -> Edit {
        match self {
            Edit::Insert { u, v } => Edit::Delete { u, v },
            Edit::Delete { u, v } => Edit::Insert { u, v },
        }
    }

    /// The edge it touches.
    pub fn edge(self) -> (u32, u32) {
        match self {
            Edit::Insert { u, v } | Edit::Delete { u, v } => (u, v),
        }
    }
}

/// What an edit did.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct EditReport {
    /// The edit (on dense ids: a front end shows the vertices its own way).
    #[serde(skip)]
    pub edit: Edit,
    /// Why nothing changed (the edge was already there, or was not there, or is a self-loop);
    /// `None` when the edge set changed.
    pub unchanged: Option<&'static str>,
    /// Components the edit merged into one (0 when none: an insert that closed no cycle).
    pub merged: usize,
    /// Vertices of the merged component.
    pub merged_vertices: usize,
    /// Pieces a delete split its component into (0 when it split nothing).
    pub split_into: usize,
    /// Components whose intervals grew so that every edge's intervals nest again.
    pub labels_grown: usize,
    /// Seconds the update took.
    pub seconds: f64,
}

/// How a query on the edited graph was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The graph is as loaded: the static engine answered, with every rule.
    Static,
    /// `u` and `v` are one vertex or in one strongly connected component: yes.
    SameComponent,
    /// `u`'s intervals do not contain `v`'s: no.
    Intervals,
    /// A search of the edited graph, pruned by the intervals, found `v` or ran out.
    Search,
}

/// An answer on the edited graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reply {
    /// Does `u` reach `v`?
    pub reachable: bool,
    /// What decided.
    pub verdict: Verdict,
    /// Vertices the search visited (0 when it did not run).
    pub visited: usize,
    /// The rule that decided, when the static engine answered.
    pub rule: Option<crate::query::Rule>,
}

/// Visited marks for searches of the edited graph, reusable across queries (epoch stamps: a
/// search never clears the array).
#[derive(Clone, Debug, Default)]
pub struct Marks {
    stamp: Vec<u32>,
    epoch: u32,
    stack: Vec<u32>,
}

impl Marks {
    fn start(&mut self, n: usize) {
        if self.stamp.len() != n || self.epoch == u32::MAX {
            self.stamp = vec![0; n];
            self.epoch = 0;
        }
        self.epoch += 1;
        self.stack.clear();
    }

    #[inline]
    fn first_visit(&mut self, v: u32) -> bool {
        let seen = self.stamp[v as usize] == self.epoch;
        self.stamp[v as usize] = self.epoch;
        !seen
    }
}

/// A loaded graph, its static index, and the edits made since.
pub struct DynamicIndex {
    ws: Arc<Workspace>,
    labels: Arc<Labels>,
    query_index: Option<Arc<QueryIndex>>,
    identity: bool,
    edges: EdgeOverlay,
    components: LiveComponents,
    spans: Spans,
    done: Vec<Edit>,
    undone: Vec<Edit>,
    marks: Marks,
    scratch: Scratch,
}

impl DynamicIndex {
    /// Takes edits on `ws`'s graph, whose DAG `labels` label (and `query_index` indexes, when
    /// there is one).
    pub fn new(ws: Arc<Workspace>, labels: Arc<Labels>, query_index: Option<Arc<QueryIndex>>) -> DynamicIndex {
        assert_eq!(labels.num_vertices(), ws.dag().num_vertices(), "the labels must cover the DAG");
        let identity = Engine::is_identity(&ws.condensation.component, ws.dag());
        let edges = EdgeOverlay::new(Arc::clone(&ws.loaded.graph));
        let components = LiveComponents::new(&ws.condensation);
        let spans = Spans::of_labels(&labels);
        let scratch = Scratch::new(ws.dag().num_vertices());
        DynamicIndex {
            ws,
            labels,
            query_index,
            identity,
            edges,
            components,
            spans,
            done: Vec::new(),
            undone: Vec::new(),
            marks: Marks::default(),
            scratch,
        }
    }

    /// The graph as loaded, with its components.
    pub fn workspace(&self) -> &Arc<Workspace> {
        &self.ws
    }

    /// The edited graph's edges.
    pub fn edges(&self) -> &EdgeOverlay {
        &self.edges
    }

    /// The edited graph's strongly connected components.
    pub fn components(&self) -> &LiveComponents {
        &self.components
    }

    /// The edits in force, oldest first.
    pub fn edits(&self) -> &[Edit] {
        &self.done
    }

    /// The edits undone that [`DynamicIndex::redo`] can apply again, the next one last.
    pub fn undone(&self) -> &[Edit] {
        &self.undone
    }

    /// The edited graph as a graph of its own.
    pub fn edited_graph(&self) -> Graph {
        self.edges.to_graph()
    }

    /// Applies `edit` (dense ids, checked by the caller to be below the vertex count).
    pub fn apply(&mut self, edit: Edit) -> EditReport {
        let report = self.update(edit);
        if report.unchanged.is_none() {
            self.done.push(edit);
            self.undone.clear();
        }
        report
    }

    /// Undoes the last edit in force; `None` when there is none.
    pub fn undo(&mut self) -> Option<EditReport> {
        let edit = self.done.pop()?;
        let report = self.update(edit.inverse());
        self.undone.push(edit);
        Some(report)
    }

    /// Applies the last undone edit again; `None` when there is none.
    pub fn redo(&mut self) -> Option<EditReport> {
        let edit = self.undone.pop()?;
        let report = self.update(edit);
        self.done.push(edit);
        Some(report)
    }

    fn update(&mut self, edit: Edit) -> EditReport {
        let start = Instant::now();
        let mut report = EditReport {
            edit,
            unchanged: None,
            merged: 0,
            merged_vertices: 0,
            split_into: 0,
            labels_grown: 0,
            seconds: 0.0,
        };
        match edit {
            Edit::Insert { u, v } if u == v => report.unchanged = Some("a self-loop changes no reachability"),
            Edit::Insert { u, v } => {
                if !self.edges.insert(u, v) {
                    report.unchanged = Some("the edge is already there");
                } else {
                    self.after_insert(u, v, &mut report);
                }
            }
            Edit::Delete { u, v } => {
                if !self.edges.delete(u, v) {
                    report.unchanged = Some("there is no such edge");
                } else {
                    let c = self.components.of(u);
                    if c == self.components.of(v) {
                        let fresh = self.components.split(c, &self.edges);
                        for &piece in &fresh {
                            self.spans.copy_to(c, piece);
                        }
                        report.split_into = if fresh.is_empty() { 0 } else { fresh.len() + 1 };
                    }
                }
            }
        }
        report.seconds = start.elapsed().as_secs_f64();
        report
    }

    /// After `u → v` joined the edges: the intervals nest again along every edge, and a cycle the
    /// edge closed is one component.
    fn after_insert(&mut self, u: u32, v: u32, report: &mut EditReport) {
        let (cu, cv) = (self.components.of(u), self.components.of(v));
        if cu == cv {
            return;
        }
        report.labels_grown = self.grow_upwards(cu, cv);
        // `v` reaching `u` closes a cycle through the new edge. Every vertex on it reaches `u`, so
        // its intervals hold `u`'s: the search from `v` follows only those.
        if !self.spans.holds(cv, cu) {
            return;
        }
        let forward = self.collect(v, |index, w| index.spans.holds(index.components.of(w), cu), true);
        if !forward.contains(&u) {
            return;
        }
        let ahead: std::collections::HashSet<u32> = forward.into_iter().collect();
        let on_cycle = self.collect(u, |_, w| ahead.contains(&w), false);
        let mut ids: Vec<u32> = on_cycle.iter().map(|&w| self.components.of(w)).collect();
        ids.sort_unstable();
        ids.dedup();
        let into = self.components.merge(&ids);
        report.merged = ids.len();
        report.merged_vertices = self.components.members(into).len();
    }

    /// Grows `from`'s intervals to hold `to`'s, then every ancestor's whose edge no longer nests;
    /// returns how many components grew.
    fn grow_upwards(&mut self, from: u32, to: u32) -> usize {
        if self.spans.holds(from, to) {
            return 0;
        }
        self.spans.grow_to_hold(from, to);
        let (mut grown, mut pending) = (1, vec![from]);
        while let Some(c) = pending.pop() {
            for &m in self.components.members(c) {
                for p in self.edges.parents(m) {
                    let cp = self.components.of(p);
                    if cp != c && !self.spans.holds(cp, c) {
                        self.spans.grow_to_hold(cp, c);
                        grown += 1;
                        pending.push(cp);
                    }
                }
            }
        }
        grown
    }

    /// Every vertex reached from `start` (included) through vertices `keep` accepts, along children
    /// (`forward`) or parents.
    fn collect(&mut self, start: u32, keep: impl Fn(&DynamicIndex, u32) -> bool, forward: bool) -> Vec<u32> {
        let mut marks = std::mem::take(&mut self.marks);
        marks.start(self.edges.num_vertices());
        marks.first_visit(start);
        let mut found = vec![start];
        let mut at = 0;
        while at < found.len() {
            let x = found[at];
            at += 1;
            let next: Vec<u32> =
                if forward { self.edges.children(x).collect() } else { self.edges.parents(x).collect() };
            for w in next {
                if keep(self, w) && marks.first_visit(w) {
                    found.push(w);
                }
            }
        }
        self.marks = marks;
        found
    }

    /// Does `u` reach `v` in the edited graph? (Dense ids.)
    pub fn reaches(&mut self, u: u32, v: u32) -> Reply {
        if self.edges.is_unedited() {
            let (dag, component) = (self.ws.dag(), &self.ws.condensation.component);
            let engine =
                Engine::with_known_identity(dag, &self.labels, component, self.identity, self.query_index.as_deref());
            let answer = engine.query(u, v, Method::default(), &mut self.scratch, false);
            return Reply {
                reachable: answer.reachable,
                verdict: Verdict::Static,
                visited: 0,
                rule: Some(answer.rule),
            };
        }
        let mut marks = std::mem::take(&mut self.marks);
        let reply = self.reaches_edited(u, v, &mut marks);
        self.marks = marks;
        reply
    }

    /// [`DynamicIndex::reaches`] on the edited graph with the caller's marks (one per thread), for
    /// batches; never the static engine.
    pub fn reaches_edited(&self, u: u32, v: u32, marks: &mut Marks) -> Reply {
        let (cu, cv) = (self.components.of(u), self.components.of(v));
        if cu == cv {
            return Reply { reachable: true, verdict: Verdict::SameComponent, visited: 0, rule: None };
        }
        if !self.spans.holds(cu, cv) {
            return Reply { reachable: false, verdict: Verdict::Intervals, visited: 0, rule: None };
        }
        marks.start(self.edges.num_vertices());
        marks.first_visit(u);
        let mut stack = std::mem::take(&mut marks.stack);
        stack.push(u);
        let mut visited = 1;
        while let Some(x) = stack.pop() {
            for w in self.edges.children(x) {
                let cw = self.components.of(w);
                if cw == cv {
                    marks.stack = stack;
                    return Reply { reachable: true, verdict: Verdict::Search, visited, rule: None };
                }
                if marks.first_visit(w) && self.spans.holds(cw, cv) {
                    visited += 1;
                    stack.push(w);
                }
            }
        }
        marks.stack = stack;
        Reply { reachable: false, verdict: Verdict::Search, visited, rule: None }
    }

    /// Heap bytes of the static index (labels and query index) the edits start from.
    pub fn static_heap_bytes(&self) -> usize {
        self.labels.heap_bytes() + self.query_index.as_ref().map_or(0, |index| index.heap_bytes())
    }

    /// Heap bytes the edits add to the static index (the edge overlay, the live components and
    /// the intervals they keep).
    pub fn heap_bytes(&self) -> usize {
        self.edges.heap_bytes() + self.components.heap_bytes() + self.spans.heap_bytes()
    }
}

#[cfg(test)]
mod tests;
