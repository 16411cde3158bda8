//! The one place that turns a traced query into a [`SearchOverlay`]. The traced search lives in
//! `crate::tui::trace` for now and is moving to `crate::query::trace`; only this file changes then.

use super::overlay::SearchOverlay;
use crate::query::{Answer, Engine, Rule};
use crate::tui::trace::{NodeKind, trace_query};

/// Search-tree nodes recorded at most; the picture shows far fewer.
const NODE_LIMIT: usize = 100_000;

/// Answers `u ? v` (dense original ids, checked by the caller) with the traced label-guided DFS and
/// lays its search over the picture. `shown` are the ids the caption names (the file's ids).
pub fn search_overlay(engine: &Engine, u: u32, v: u32, shown: (u64, u64)) -> (SearchOverlay, Answer) {
    let trace = trace_query(engine, u, v, NODE_LIMIT);
    let component = engine.component();
    let mut overlay = SearchOverlay {
        source: component[u as usize],
        target: component[v as usize],
        path: trace.answer.path.clone().unwrap_or_default(),
        caption: caption(&trace.answer, shown),
        ..SearchOverlay::default()
    };
    for node in &trace.nodes {
        match node.kind {
            NodeKind::Start | NodeKind::Entered => {
                overlay.expanded.insert(node.vertex);
                if node.is_dead_end() {
                    overlay.dead_ends.insert(node.vertex);
                }
            }
            NodeKind::Pruned { dim } => {
                overlay.pruned.insert(node.vertex, dim);
            }
            NodeKind::Target => {}
        }
    }
    (overlay, trace.answer)
}

/// `3 ⇝ 9? no, decided by a search: 4 expanded, 2 pruned by labels, 4 dead ends (false positives)`.
fn caption(answer: &Answer, (u, v): (u64, u64)) -> String {
    let verdict = if answer.reachable { "yes" } else { "no" };
    let how = match (answer.rule, answer.cut_dimension) {
        (Rule::SameComponent, _) => "both lie in one strongly connected component".to_string(),
        (Rule::LabelCut, Some(dim)) => format!("the label cut: L({v}) ⊄ L({u}) in dimension {dim}"),
        (Rule::LabelCut, None) => "the label cut".to_string(),
        (Rule::LevelCut, _) => format!("the level cut: {v} is not deeper than {u}"),
        (Rule::TreeCut, Some(dim)) => format!("the tree cut: {v} lies in {u}'s DFS subtree in dimension {dim}"),
        (Rule::TreeCut, None) => "the tree cut".to_string(),
        (Rule::Search, _) => format!(
            "a search: {} expanded, {} pruned by labels, {} dead ends (false positives)",
            answer.expanded, answer.pruned, answer.false_positives
        ),
    };
    format!("{u} ⇝ {v}? {verdict}, decided by {how}")
}
