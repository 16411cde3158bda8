//! The phase table of a run, folded from the event stream (what `grail label` prints, `grail bench`
//! sums and the explorer's Labels tab shows).
//!
//! [`PhaseTable`] only reads [`Event`]s, so it works for every back end (DFS, CPU, GPU) and for an
//! event log read back from a JSON-lines file.

use crate::telemetry::{Event, Phase};
use serde::Serialize;

/// One phase of one dimension.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseRow {
    /// The dimension, from 0.
    pub dim: usize,
    /// The phase.
    pub phase: Phase,
    /// Levels run so far; all of the phase's once it is done.
    pub levels_done: usize,
    /// Frontier vertices processed so far.
    pub vertices: u64,
    /// Edges scanned so far.
    pub edges_scanned: u64,
    /// Time so far (levels only until the phase is done; then the phase's total, setup included).
    pub seconds: f64,
    /// The phase has finished.
    pub done: bool,
}

impl PhaseRow {
    /// `count` (of levels or vertices) for people: the virtual root's one shown apart (`26+1`) once
    /// a phase that walks it is done (a phase in progress may not have reached it yet).
    pub fn shown_with_root(&self, count: u64) -> String {
        use crate::format::thousands;
        match count {
            1.. if self.done && self.phase.walks_virtual_root() => format!("{}+1", thousands(count - 1)),
            _ => thousands(count),
        }
    }
}

/// Phase rows in the order the phases started.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PhaseTable {
    /// One row per phase of each dimension, in starting order.
    pub rows: Vec<PhaseRow>,
}

impl PhaseTable {
    /// Folds one event in. A new run clears the table.
    pub fn apply(&mut self, event: &Event) {
        match event {
            Event::RunStarted { .. } => self.rows.clear(),
            &Event::PhaseStarted { dim, phase } => self.rows.push(PhaseRow {
                dim,
                phase,
                levels_done: 0,
                vertices: 0,
                edges_scanned: 0,
                seconds: 0.0,
                done: false,
            }),
            &Event::LevelDone { dim, phase, span, queues, edges_scanned, seconds, .. } => {
                if let Some(row) = self.row_mut(dim, phase) {
                    row.levels_done += span;
                    row.vertices += queues.total();
                    row.edges_scanned += edges_scanned;
                    row.seconds += seconds;
                }
            }
            &Event::PhaseDone { dim, phase, levels, vertices, edges_scanned, seconds } => {
                if let Some(row) = self.row_mut(dim, phase) {
                    *row = PhaseRow { dim, phase, levels_done: levels, vertices, edges_scanned, seconds, done: true };
                }
            }
            Event::Fallback { .. } | Event::Memory { .. } | Event::RunDone { .. } | Event::Cancelled => {}
        }
    }

    fn row_mut(&mut self, dim: usize, phase: Phase) -> Option<&mut PhaseRow> {
        self.rows.iter_mut().rev().find(|r| r.dim == dim && r.phase == phase)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::telemetry::QueueSizes;

    #[test]
    fn table_folds_levels_then_takes_the_phase_totals() {
        let mut table = PhaseTable::default();
        let level = |level, span, small, edges| Event::LevelDone {
            dim: 1,
            phase: Phase::MinPost,
            level,
            span,
            queues: QueueSizes { small, medium: 0, large: 1 },
            edges_scanned: edges,
            seconds: 0.25,
        };
        table.apply(&Event::PhaseStarted { dim: 1, phase: Phase::MinPost });
        table.apply(&level(0, 1, 2, 10));
        // Three tiny levels reported together.
        table.apply(&level(1, 3, 3, 5));
        let row = &table.rows[0];
        assert_eq!((row.levels_done, row.vertices, row.edges_scanned, row.seconds, row.done), (4, 7, 15, 0.5, false));
        table.apply(&Event::PhaseDone {
            dim: 1,
            phase: Phase::MinPost,
            levels: 2,
            vertices: 7,
            edges_scanned: 15,
            seconds: 0.75,
        });
        assert!(table.rows[0].done);
        assert_eq!(table.rows[0].seconds, 0.75);
        table.apply(&Event::RunStarted {
            backend: crate::telemetry::Backend::Cpu,
            dims: 1,
            order: crate::index::Order::Lex,
            vertices: 0,
            edges: 0,
        });
        assert!(table.rows.is_empty());
    }
}
