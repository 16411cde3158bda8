//! The one place that turns a decided query into a [`SearchOverlay`]: the engine's own search with
//! the rule set the engine carries, answered once and recorded as it runs (`Engine::decide`), so
//! the picture is of the very search that gave the answer, and its caption is rendered from the
//! same record as every other view's explanation.

use super::overlay::SearchOverlay;
use super::picture::Picture;
use super::style::NodeState;
use super::tree::{TreeParent, tree_parent};
use crate::format::plural;
use crate::query::explain::{self, Names};
use crate::query::{Answer, Decided, Engine, NodeKind, Rule};

/// Search-tree nodes recorded at most; the picture shows far fewer.
const NODE_LIMIT: usize = 100_000;

/// Answers `u ? v` (dense original ids, checked by the caller) with the engine's rules and their
/// search ([`crate::query::RuleSet::default_method`]) and lays the search over the picture. `names`
/// name the ends and the vertices in the caption (the file's ids).
pub fn search_overlay(engine: &Engine, u: u32, v: u32, names: &Names) -> (SearchOverlay, Decided) {
    let method = engine.rule_set().default_method();
    let decided = engine.decide(u, v, method, &mut engine.scratch(), NODE_LIMIT);
    let (answer, trace) = (&decided.answer, &decided.trace);
    let component = engine.component();
    let mut overlay = SearchOverlay {
        source: component[u as usize],
        target: component[v as usize],
        path: answer.path.clone().or_else(|| tree_path(engine, answer, u, v)).unwrap_or_default(),
        caption: explain::caption(&decided.decision, names),
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
            NodeKind::Cut { rule } => {
                overlay.cut.insert(node.vertex, rule);
            }
            // The target, where the two sides met, and children a cut proves reach the target lie
            // on the path (drawn as such) or were not needed.
            NodeKind::Target | NodeKind::Meeting | NodeKind::Reached { .. } => {}
        }
    }
    (overlay, decided)
}

/// Where the dead ends the caption counts are in the drawing: the source itself (drawn as u),
/// those marked ✗, and those the drawing left out. `None` when there are none.
pub fn dead_end_note(search: &SearchOverlay, picture: &Picture) -> Option<String> {
    let total = search.dead_ends.len();
    if total == 0 {
        return None;
    }
    let marked = picture.nodes.iter().filter(|n| n.state == NodeState::DeadEnd).count();
    let mut parts = Vec::new();
    if search.dead_ends.contains(&search.source) {
        parts.push("u itself (▶)".to_string());
    }
    if marked > 0 {
        parts.push(format!("{marked} marked ✗"));
    }
    let drawn = marked + usize::from(search.dead_ends.contains(&search.source));
    if drawn < total {
        parts.push(format!("{} not drawn", total - drawn));
    }
    Some(format!("{}: {}", plural(total as u64, "dead end", "dead ends"), parts.join(", ")))
}

/// For a tree cut, the path down the DFS tree of the dimension that proved it (the trace records
/// none): `v`'s tree parents, walked up to `u`.
fn tree_path(engine: &Engine, answer: &Answer, u: u32, v: u32) -> Option<Vec<u32>> {
    let (Rule::TreeCut, Some(dim)) = (answer.rule, answer.witness) else { return None };
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
            let names = Names::by_dag_id(q.src.into(), q.dst.into());
            let (overlay, Decided { answer, .. }) = search_overlay(&engine, q.src, q.dst, &names);
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
