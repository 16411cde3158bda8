//! The Graph tab: what the opened graph looks like, what loading it did, where its cycles are.

use crate::exceptions::concentration::Concentration;
use crate::graph::cycles::{self, Cycles, CyclicComponent};
use crate::graph::dominance::{self, Dominance};
use crate::graph::io::Format;
use crate::graph::load_report::LoadReport;
use crate::graph::stats::{self, GraphStats};
use crate::index::Labels;
use crate::tui::action::Action;
use crate::workspace::Workspace;
use std::sync::Arc;

/// Cyclic components the tab lists.
pub const TOP_COMPONENTS: usize = 5;

/// What the tab shows, computed off the UI thread when a graph is opened.
pub struct GraphFacts {
    pub stats: GraphStats,
    pub cycles: Cycles,
    pub dominance: Dominance,
}

impl GraphFacts {
    pub fn compute(ws: &Workspace) -> GraphFacts {
        GraphFacts {
            stats: stats::compute(&ws.loaded.graph, &ws.condensation),
            cycles: cycles::largest_cyclic(&ws.loaded.graph, &ws.condensation, TOP_COMPONENTS, Some(0)),
            dominance: dominance::compute(&ws.loaded.graph, &ws.condensation, true),
        }
    }
}

/// Where the finished labels' false positives concentrate, as far as the tab knows.
#[derive(Clone, Debug, Default)]
pub enum FalsePositives {
    /// No finished labels.
    #[default]
    NoLabels,
    /// The worker counts them for these labels.
    Counting(Arc<Labels>),
    /// Counted for the labels on screen.
    Counted(Box<Concentration>),
    /// The count failed for the labels on screen (of this many dimensions), for this reason.
    Failed(usize, String),
}

impl FalsePositives {
    /// New finished labels: their count is under way.
    pub fn labels_ready(&mut self, labels: &Arc<Labels>) {
        *self = FalsePositives::Counting(Arc::clone(labels));
    }

    /// The labels are gone (reset, another setting, stepped back, another graph).
    pub fn labels_cleared(&mut self) {
        *self = FalsePositives::NoLabels;
    }

    /// A count arrived: kept if it is of the labels being counted, dropped (false) if those labels
    /// have changed since.
    pub fn counted(&mut self, labels: Arc<Labels>, result: Result<Box<Concentration>, String>) -> bool {
        let FalsePositives::Counting(current) = self else { return false };
        if !Arc::ptr_eq(current, &labels) {
            return false;
        }
        *self = match result {
            Ok(c) => FalsePositives::Counted(c),
            Err(e) => FalsePositives::Failed(labels.dims(), e),
        };
        true
    }
}

pub struct GraphState {
    pub file: String,
    pub format: Format,
    pub load_seconds: f64,
    pub condense_seconds: f64,
    pub stats: GraphStats,
    /// What the reader did (None for a `.grail` file).
    pub loader: Option<LoadReport>,
    /// Components of two or more vertices, and the vertices in them.
    pub cyclic_components: u64,
    pub vertices_in_cycles: u64,
    /// The largest cyclic components: id, size and a shortest cycle (dense ids; the view names them).
    pub components: Vec<CyclicComponent>,
    /// The highlighted one of `components`: `Enter` draws it in the Picture tab.
    pub selected: usize,
    /// Hubs, widest levels, who reaches the most (dense ids; the view names them).
    pub dominance: Dominance,
    /// Where the finished labels' false positives concentrate (DAG ids; the view names them).
    pub false_positives: FalsePositives,
}

impl GraphState {
    pub fn new(ws: &Workspace, facts: GraphFacts) -> GraphState {
        GraphState {
            file: ws.loaded.path.display().to_string(),
            format: ws.loaded.format,
            load_seconds: ws.load_seconds,
            condense_seconds: ws.condense_seconds,
            stats: facts.stats,
            loader: ws.loaded.report.clone(),
            cyclic_components: facts.cycles.cyclic_components,
            vertices_in_cycles: facts.cycles.vertices_in_cycles,
            components: facts.cycles.largest,
            selected: 0,
            dominance: facts.dominance,
            false_positives: FalsePositives::NoLabels,
        }
    }

    /// Moves the highlight over the listed components (the tab's only list). Nothing here imports
    /// the other tabs' `Effect`: the worker reads `GraphFacts` from this file.
    pub fn handle(&mut self, action: Action) {
        let last = self.components.len().saturating_sub(1);
        self.selected = match action {
            Action::Up | Action::PageUp => self.selected.saturating_sub(1),
            Action::Down | Action::PageDown => (self.selected + 1).min(last),
            Action::Top => 0,
            Action::Bottom => last,
            _ => self.selected,
        };
    }

    /// The highlighted component's DAG vertex, if the graph has a cycle.
    pub fn chosen(&self) -> Option<u32> {
        self.components.get(self.selected).map(|c| c.component)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exceptions::concentration::concentration;
    use crate::index::{Order, dfs};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn a_count_of_labels_that_changed_is_dropped() {
        let dag = crate::graph::generators::chain(6).unwrap();
        let label = |dims| Arc::new(dfs::label(&dag, dims, Order::Lex).unwrap());
        let (a, b) = (label(1), label(2));
        let count = |labels: &Labels| Box::new(concentration(&dag, labels, 100, 1, &AtomicBool::new(false)).unwrap());
        let mut fp = FalsePositives::default();
        // Nothing asked: a stray count is dropped.
        assert!(!fp.counted(Arc::clone(&a), Ok(count(&a))));
        assert!(matches!(fp, FalsePositives::NoLabels));
        // Labels a, then b before a's count arrives: a's is dropped, b's kept.
        fp.labels_ready(&a);
        fp.labels_ready(&b);
        assert!(!fp.counted(Arc::clone(&a), Ok(count(&a))));
        assert!(matches!(&fp, FalsePositives::Counting(l) if Arc::ptr_eq(l, &b)));
        assert!(fp.counted(Arc::clone(&b), Ok(count(&b))));
        assert!(matches!(&fp, FalsePositives::Counted(c) if c.dims == 2));
        // Cleared while counting: the late count is dropped.
        fp.labels_ready(&a);
        fp.labels_cleared();
        assert!(!fp.counted(Arc::clone(&a), Err("late".into())));
        assert!(matches!(fp, FalsePositives::NoLabels));
    }
}
