//! A traced label-guided search for the Query tab: the same rules and the same depth-first search
//! as [`Engine::query`] with [`Method::GuidedDfs`], but it records the search tree: which children
//! it entered, which the labels pruned, which turned out to be dead ends (false positives) and the
//! path it found. Its verdict and counts equal the engine's (tested on many random pairs below).

use crate::query::rules::{cheap_verdict, contains_all, label_cut};
use crate::query::{Answer, Engine, Method, Rule};

/// Why a node is in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// The search's start, `comp(u)`.
    Start,
    /// A child the labels let in; the search expanded it.
    Entered,
    /// A child refused because `L(v) ⊄ L(c)` in dimension `dim`.
    Pruned { dim: usize },
    /// The target, met among a vertex's children.
    Target,
}

/// One node of the search tree, in the order the search met it (pre-order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceNode {
    /// DAG (component) id.
    pub vertex: u32,
    pub depth: u32,
    pub kind: NodeKind,
    /// On the path from the start to the target.
    pub on_path: bool,
}

impl TraceNode {
    /// Expanded, but it cannot reach the target: a false positive of the labels.
    pub fn is_dead_end(&self) -> bool {
        matches!(self.kind, NodeKind::Start | NodeKind::Entered) && !self.on_path
    }
}

/// A query's verdict with the search tree behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The verdict and counts, as `Engine::query` gives them; the path is the search's (`None` for a
    /// tree cut, where `Engine::query` walks the DFS tree instead).
    pub answer: Answer,
    pub nodes: Vec<TraceNode>,
    /// The tree was cut at the node limit (the counts are still complete).
    pub truncated: bool,
}

struct Frame {
    vertex: u32,
    next: usize,
    end: usize,
    node: Option<usize>,
}

/// Answers `u ? v` (dense ORIGINAL ids, checked by the caller) like `engine.query(.., GuidedDfs, ..)`
/// and records at most `node_limit` tree nodes.
pub fn trace_query(engine: &Engine, u: u32, v: u32, node_limit: usize) -> Trace {
    let component = engine.component();
    let (from, to) = (component[u as usize], component[v as usize]);
    let decided = |rule, reachable, cut_dimension| Trace {
        answer: Answer::decided(rule, reachable, cut_dimension),
        nodes: Vec::new(),
        truncated: false,
    };
    if from == to {
        return decided(Rule::SameComponent, true, None);
    }
    let labels = engine.labels();
    if let Some(verdict) = cheap_verdict(labels, from, to) {
        return decided(verdict.rule, verdict.reachable, verdict.dimension);
    }
    let dag = engine.dag();
    let csr = dag.children_csr();
    let (offsets, targets) = (csr.offsets(), csr.targets());
    let target = labels.of(to);
    let mut visited = vec![false; dag.num_vertices()];
    let mut nodes: Vec<TraceNode> = Vec::new();
    let mut truncated = false;
    let mut record = |nodes: &mut Vec<TraceNode>, vertex, depth, kind| {
        if nodes.len() < node_limit {
            nodes.push(TraceNode { vertex, depth, kind, on_path: false });
            Some(nodes.len() - 1)
        } else {
            truncated = true;
            None
        }
    };
    let frame = |vertex: u32, node| Frame {
        vertex,
        next: offsets[vertex as usize] as usize,
        end: offsets[vertex as usize + 1] as usize,
        node,
    };
    visited[from as usize] = true;
    let start = record(&mut nodes, from, 0, NodeKind::Start);
    let mut stack = vec![frame(from, start)];
    let (mut expanded, mut pruned) = (1u64, 0u64);
    let mut target_node = None;
    let found = 'search: loop {
        let depth = stack.len() as u32;
        let Some(top) = stack.last_mut() else { break false };
        while top.next < top.end {
            let c = targets[top.next];
            top.next += 1;
            if c == to {
                target_node = record(&mut nodes, c, depth, NodeKind::Target);
                break 'search true;
            }
            if std::mem::replace(&mut visited[c as usize], true) {
                continue;
            }
            if !contains_all(labels.of(c), target) {
                pruned += 1;
                let dim = label_cut(labels, c, to).unwrap_or(0);
                record(&mut nodes, c, depth, NodeKind::Pruned { dim });
                continue;
            }
            let node = record(&mut nodes, c, depth, NodeKind::Entered);
            stack.push(frame(c, node));
            expanded += 1;
            continue 'search;
        }
        stack.pop();
    };
    if !found {
        let answer =
            Answer { false_positives: expanded, expanded, pruned, ..Answer::decided(Rule::Search, false, None) };
        return Trace { answer, nodes, truncated };
    }
    for index in stack.iter().filter_map(|f| f.node).chain(target_node) {
        nodes[index].on_path = true;
    }
    let path: Vec<u32> = stack.iter().map(|f| f.vertex).chain(std::iter::once(to)).collect();
    let answer = Answer {
        false_positives: expanded - stack.len() as u64,
        expanded,
        pruned,
        path: Some(path),
        ..Answer::decided(Rule::Search, true, None)
    };
    Trace { answer, nodes, truncated }
}

/// The method the trace mirrors (for labels in the UI).
pub const TRACED_METHOD: Method = Method::GuidedDfs;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::generators::GeneratorSpec;
    use crate::graph::scc::condense;
    use crate::index::{Order, dfs};
    use crate::query::random_queries;
    use std::sync::Arc;

    fn check(spec: &str, dims: usize, queries: usize) {
        let graph = spec.parse::<GeneratorSpec>().unwrap().generate().unwrap();
        let c = condense(&Arc::new(graph));
        let labels = dfs::label(&c.dag, dims, Order::Random { seed: 3 }).unwrap();
        let engine = Engine::new(&c.dag, &labels, &c.component);
        let mut scratch = engine.scratch();
        let mut searched = 0;
        for q in random_queries(c.component.len(), queries, 11) {
            let want = engine.query(q.src, q.dst, Method::GuidedDfs, &mut scratch, true);
            let trace = trace_query(&engine, q.src, q.dst, usize::MAX);
            let got = &trace.answer;
            let pair = (q.src, q.dst);
            assert_eq!((got.reachable, got.rule, got.cut_dimension), (want.reachable, want.rule, want.cut_dimension));
            assert_eq!(
                (got.expanded, got.pruned, got.false_positives),
                (want.expanded, want.pruned, want.false_positives)
            );
            if want.rule == Rule::Search {
                searched += 1;
                assert_eq!(got.path, want.path, "{pair:?}");
                let nodes = &trace.nodes;
                let entered = nodes.iter().filter(|n| matches!(n.kind, NodeKind::Start | NodeKind::Entered)).count();
                let cut = nodes.iter().filter(|n| matches!(n.kind, NodeKind::Pruned { .. })).count();
                let dead = nodes.iter().filter(|n| n.is_dead_end()).count();
                assert_eq!((entered as u64, cut as u64, dead as u64), (got.expanded, got.pruned, got.false_positives));
            }
        }
        assert!(searched > 0, "{spec}: no query reached the search");
    }

    #[test]
    fn trace_agrees_with_the_engine_on_random_pairs() {
        check("random:n=2000,deg=3,seed=1", 1, 3000);
        check("random:n=2000,deg=3,seed=2", 2, 3000);
        check("digraph:n=1500,deg=2,seed=4", 2, 3000);
    }

    #[test]
    fn node_limit_keeps_the_counts() {
        let graph = "random:n=3000,deg=4,seed=7".parse::<GeneratorSpec>().unwrap().generate().unwrap();
        let c = condense(&Arc::new(graph));
        let labels = dfs::label(&c.dag, 1, Order::Lex).unwrap();
        let engine = Engine::new(&c.dag, &labels, &c.component);
        for q in random_queries(3000, 500, 1) {
            let full = trace_query(&engine, q.src, q.dst, usize::MAX);
            let cut = trace_query(&engine, q.src, q.dst, 3);
            assert!(cut.nodes.len() <= 3);
            let (cut, full) = (&cut.answer, &full.answer);
            assert_eq!(
                (cut.reachable, cut.expanded, cut.false_positives),
                (full.reachable, full.expanded, full.false_positives)
            );
        }
    }
}
