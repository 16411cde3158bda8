//! The one place that turns a traced query into a [`SearchOverlay`]: the engine's own guided DFS,
//! answered once and recorded as it runs (`Engine::query_traced`), so the picture is of the very
//! search that gave the answer.

use super::overlay::SearchOverlay;
use super::tree::{TreeParent, tree_parent};
use crate::query::{Answer, Engine, Method, NodeKind, Rule};

/// Search-tree nodes recorded at most; the picture shows far fewer.
const NODE_LIMIT: usize = 100_000;

/// Answers `u ? v` (dense original ids, checked by the caller) with the traced label-guided DFS and
/// lays its search over the picture. `shown` are the ids the caption names (the file's ids).
pub fn search_overlay(engine: &Engine, u: u32, v: u32, shown: (u64, u64)) -> (SearchOverlay, Answer) {
    let (answer, trace) = engine.query_traced(u, v, Method::GuidedDfs, &mut engine.scratch(), NODE_LIMIT);
    let component = engine.component();
    let mut overlay = SearchOverlay {
        source: component[u as usize],
        target: component[v as usize],
        path: answer.path.clone().or_else(|| tree_path(engine, &answer, u, v)).unwrap_or_default(),
        caption: caption(&answer, shown),
        ..SearchOverlay::default()
    };
    for node in &trace.nodes {
        match node.kind {
            NodeKind::Start | NodeKind::Entered => {
                if node.expanded {
                    overlay.expanded.insert(node.vertex);
                }
                if node.dead_end {
                    overlay.dead_ends.insert(node.vertex);
                }
            }
            NodeKind::Pruned { dim } => {
                overlay.pruned.insert(node.vertex, dim);
            }
            // The pictures trace GRAIL's search (an engine without a query index), which prunes by
            // label only; other cuts, if any, leave their children undrawn.
            NodeKind::Target | NodeKind::Meeting | NodeKind::Cut { .. } | NodeKind::Reached { .. } => {}
        }
    }
    (overlay, answer)
}

/// For a tree cut, the path down the DFS tree of the dimension that proved it (the trace records
/// none): `v`'s tree parents, walked up to `u`.
fn tree_path(engine: &Engine, answer: &Answer, u: u32, v: u32) -> Option<Vec<u32>> {
    let (Rule::TreeCut, Some(dim)) = (answer.rule, answer.cut_dimension) else { return None };
    let (from, mut at) = (engine.component()[u as usize], engine.component()[v as usize]);
    let mut path = vec![at];
    while at != from {
        match tree_parent(engine.dag(), engine.labels(), dim, at) {
            TreeParent::Parent(p) if path.len() <= engine.dag().num_vertices() => {
                path.push(p);
                at = p;
            }
            _ => return None,
        }
    }
    path.reverse();
    Some(path)
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
        (rule @ (Rule::TopoCut | Rule::SupportiveCut | Rule::BloomCut | Rule::SupportivePath), _) => {
            format!("the {rule} rule")
        }
        (Rule::Search, _) => format!(
            "a search: {} expanded, {} pruned by labels, {} dead ends (false positives)",
            answer.expanded, answer.pruned, answer.false_positives
        ),
    };
    format!("{u} ⇝ {v}? {verdict}, decided by {how}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::generators::GeneratorSpec;
    use crate::graph::scc::condense;
    use crate::index::{Order, dfs};
    use crate::query::random_queries;
    use std::sync::Arc;

    /// Every overlay's path runs from u to v along DAG edges, searched or walked down a DFS tree.
    #[test]
    fn paths_follow_edges_from_source_to_target() {
        let graph = "digraph:n=600,deg=2,seed=3".parse::<GeneratorSpec>().unwrap().generate().unwrap();
        let c = condense(&Arc::new(graph));
        let labels = dfs::label(&c.dag, 2, Order::Random { seed: 1 }).unwrap();
        let engine = Engine::new(&c.dag, &labels, &c.component);
        let mut by_rule = std::collections::HashMap::new();
        for q in random_queries(c.component.len(), 3000, 5) {
            let (overlay, answer) = search_overlay(&engine, q.src, q.dst, (q.src as u64, q.dst as u64));
            assert_eq!((overlay.source, overlay.target), (c.component[q.src as usize], c.component[q.dst as usize]));
            if answer.reachable && overlay.source != overlay.target {
                let path = &overlay.path;
                assert_eq!((path.first(), path.last()), (Some(&overlay.source), Some(&overlay.target)), "{answer:?}");
                assert!(path.windows(2).all(|w| c.dag.children(w[0]).contains(&w[1])));
                *by_rule.entry(answer.rule).or_insert(0) += 1;
            }
            assert!(overlay.dead_ends.is_subset(&overlay.expanded));
            assert!(overlay.caption.contains(if answer.reachable { "yes" } else { "no" }));
        }
        assert!(by_rule.get(&Rule::TreeCut).is_some_and(|&n| n > 0), "{by_rule:?}");
        assert!(by_rule.get(&Rule::Search).is_some_and(|&n| n > 0), "{by_rule:?}");
    }
}
