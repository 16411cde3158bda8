//! The Graph tab: what the opened graph looks like, what loading it did, where its cycles are.

use crate::graph::cycles::{self, Cycles, CyclicComponent};
use crate::graph::dominance::{self, Dominance};
use crate::graph::io::Format;
use crate::graph::load_report::LoadReport;
use crate::graph::stats::{self, GraphStats};
use crate::tui::action::Action;
use crate::workspace::Workspace;

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
