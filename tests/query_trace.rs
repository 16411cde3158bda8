//! `Engine::query_traced` against `Engine::query`: the same answer, counts and path for every
//! method, and a search tree that accounts for all of them.

use grail::graph::Graph;
use grail::graph::generators::GeneratorSpec;
use grail::graph::scc::{Condensation, condense};
use grail::index::{Labels, Order, dfs};
use grail::query::rules::label_cut;
use grail::query::{
    Answer, Engine, Method, NodeKind, QueryIndex, Rule, Trace, TraceNode, decide_before_labels, random_queries,
};
use std::sync::Arc;

fn fixture(spec: &str, dims: usize, order: Order) -> (Condensation, Labels) {
    let graph = spec.parse::<GeneratorSpec>().unwrap().generate().unwrap();
    let c = condense(&Arc::new(graph));
    let labels = dfs::label(&c.dag, dims, order).unwrap();
    (c, labels)
}

/// Every property a complete trace of a search towards DAG vertex `to` must have, against the
/// engine's own answer.
fn check_trace(labels: &Labels, method: Method, to: u32, answer: &Answer, trace: &Trace) {
    assert_eq!(trace.method, method);
    assert!(!trace.truncated);
    let nodes = &trace.nodes;
    if answer.rule != Rule::Search {
        assert!(nodes.is_empty());
        return;
    }
    let count = |f: &dyn Fn(&TraceNode) -> bool| nodes.iter().filter(|n| f(n)).count() as u64;
    assert_eq!(count(&|n| n.expanded), answer.expanded);
    assert_eq!(count(&|n| matches!(n.kind, NodeKind::Pruned { .. })), answer.pruned);
    assert_eq!(count(&|n| n.dead_end), answer.false_positives);
    assert_eq!(count(&|n| n.kind == NodeKind::Target), answer.reachable as u64);
    assert!(nodes.iter().all(|n| n.expanded || !n.dead_end), "a dead end that was never expanded");
    // The path, read off the tree in node order, is the engine's, one level per step.
    let on_path: Vec<&TraceNode> = nodes.iter().filter(|n| n.on_path).collect();
    let path: Vec<u32> = on_path.iter().map(|n| n.vertex).collect();
    assert_eq!(path, answer.path.clone().unwrap_or_default());
    assert!(on_path.iter().enumerate().all(|(i, n)| n.depth as usize == i && !n.dead_end));
    // Shape: one start at depth 0; a DFS lists its tree in pre-order, a BFS level by level.
    assert_eq!((nodes[0].kind, nodes[0].depth), (NodeKind::Start, 0));
    for pair in nodes.windows(2) {
        let (a, b) = (pair[0].depth, pair[1].depth);
        assert!(if method.is_breadth_first() { a <= b } else { b <= a + 1 }, "{method}: depth {a} then {b}");
    }
    for node in nodes {
        if let NodeKind::Pruned { dim } = node.kind {
            assert!(method.is_guided() && !node.expanded && !node.on_path);
            assert_eq!(label_cut(labels, node.vertex, to), Some(dim));
        }
    }
}

fn agree_on_random_pairs(spec: &str, dims: usize) {
    let (c, labels) = fixture(spec, dims, Order::Random { seed: 3 });
    let engine = Engine::new(&c.dag, &labels, &c.component);
    let mut scratch = engine.scratch();
    for method in Method::ALL {
        let (mut yes, mut no) = (0, 0);
        for q in random_queries(c.component.len(), 3000, 11) {
            let want = engine.query(q.src, q.dst, method, &mut scratch, true);
            let (got, trace) = engine.query_traced(q.src, q.dst, method, &mut scratch, usize::MAX);
            assert_eq!(got, want, "{spec} {method} {:?}", (q.src, q.dst));
            check_trace(&labels, method, c.component[q.dst as usize], &want, &trace);
            if want.rule == Rule::Search {
                *(if want.reachable { &mut yes } else { &mut no }) += 1;
            }
        }
        assert!(yes > 0 && no > 0, "{spec} {method}: {yes} searched yes, {no} searched no");
    }
}

#[test]
fn traces_agree_with_the_engine_on_random_pairs() {
    agree_on_random_pairs("random:n=2000,deg=3,seed=1", 1);
    agree_on_random_pairs("random:n=2000,deg=3,seed=2", 2);
    agree_on_random_pairs("digraph:n=1500,deg=2,seed=4", 2);
}

#[test]
fn node_limit_keeps_the_answer_and_the_first_nodes() {
    let (c, labels) = fixture("random:n=3000,deg=4,seed=7", 1, Order::Lex);
    let engine = Engine::new(&c.dag, &labels, &c.component);
    let mut scratch = engine.scratch();
    for method in [Method::GuidedDfs, Method::GuidedBfs] {
        let mut cut_short = 0;
        for q in random_queries(3000, 500, 1) {
            let (full_answer, full) = engine.query_traced(q.src, q.dst, method, &mut scratch, usize::MAX);
            let (answer, cut) = engine.query_traced(q.src, q.dst, method, &mut scratch, 3);
            assert_eq!(answer, full_answer);
            assert_eq!(cut.truncated, full.nodes.len() > 3);
            assert_eq!(cut.nodes[..], full.nodes[..full.nodes.len().min(3)]);
            cut_short += cut.truncated as usize;
        }
        assert!(cut_short > 0, "{method}: no search had more than 3 nodes");
    }
}

#[test]
fn a_small_tree_by_hand_depth_and_breadth_first() {
    // 0 -> 1 -> 2 (dead end), 0 -> 3 -> 4, searched without labels so nothing is cut or pruned.
    let g = Graph::from_edges(5, &[(0, 1), (1, 2), (0, 3), (3, 4)]).unwrap();
    let labels = dfs::label(&g, 1, Order::Lex).unwrap();
    let component: Vec<u32> = (0..5).collect();
    let engine = Engine::new(&g, &labels, &component);
    let mut scratch = engine.scratch();
    let row = |n: &TraceNode| (n.vertex, n.depth, n.expanded, n.dead_end, n.on_path);
    // Depth first: 1 and 2 are entered and finished without the target, then 3 finds it.
    let (answer, trace) = engine.query_traced(0, 4, Method::Dfs, &mut scratch, usize::MAX);
    assert_eq!((answer.expanded, answer.false_positives), (4, 2));
    let rows: Vec<_> = trace.nodes.iter().map(row).collect();
    let want = [
        (0, 0, true, false, true),
        (1, 1, true, true, false),
        (2, 2, true, true, false),
        (3, 1, true, false, true),
        (4, 2, false, false, true),
    ];
    assert_eq!(rows, want);
    // Breadth first: level 1 holds 1 and 3; 2 is queued under 1 but never expanded, because the
    // target turns up under 3 first. Only 1 is a dead end.
    let (answer, trace) = engine.query_traced(0, 4, Method::Bfs, &mut scratch, usize::MAX);
    assert_eq!((answer.expanded, answer.false_positives), (3, 1));
    let rows: Vec<_> = trace.nodes.iter().map(row).collect();
    let want = [
        (0, 0, true, false, true),
        (1, 1, true, true, false),
        (3, 1, true, false, true),
        (2, 2, false, false, false),
        (4, 2, false, false, true),
    ];
    assert_eq!(rows, want);
    let kinds: Vec<NodeKind> = trace.nodes.iter().map(|n| n.kind).collect();
    use NodeKind::{Entered, Start, Target};
    assert_eq!(kinds, [Start, Entered, Entered, Entered, Target]);
}

#[test]
fn a_bfs_past_its_exact_budget_marks_what_it_counts() {
    // 0 -> 201 -> 202 (the target), and 0 -> 1 -> 2 -> ... -> 200 -> 202. The BFS expands 0, 1 and
    // 201, then meets the target under 201. Vertex 1 does reach it, but proving that means climbing
    // the 200-vertex chain, past the reverse check's budget: the count is an upper bound that
    // includes 1, and the trace must mark 1 as the dead end it counted.
    let mut edges = vec![(0, 1), (0, 201), (201, 202), (200, 202)];
    edges.extend((1..200).map(|v| (v, v + 1)));
    let g = Graph::from_edges(203, &edges).unwrap();
    let labels = dfs::label(&g, 1, Order::Lex).unwrap();
    let component: Vec<u32> = (0..203).collect();
    let engine = Engine::new(&g, &labels, &component);
    let mut scratch = engine.scratch();
    let (answer, trace) = engine.query_traced(0, 202, Method::Bfs, &mut scratch, usize::MAX);
    assert_eq!(answer, engine.query(0, 202, Method::Bfs, &mut scratch, true));
    assert_eq!((answer.reachable, answer.expanded, answer.false_positives), (true, 3, 1));
    assert_eq!(answer.path, Some(vec![0, 201, 202]));
    let dead: Vec<u32> = trace.nodes.iter().filter(|n| n.dead_end).map(|n| n.vertex).collect();
    assert_eq!(dead, [1]);
    check_trace(&labels, Method::Bfs, 202, &answer, &trace);
}

/// The tree a trace draws is the search that ran: every node hangs under the vertex that met it,
/// along an edge of the graph (reversed on the backward side), each vertex met once per side, and
/// the nodes marked on the path walk from the start through both sides to the target.
fn check_tree(dag: &Graph, trace: &Trace, answer: &Answer, (from, to): (u32, u32)) {
    let nodes = &trace.nodes;
    let has_edge = |a: u32, b: u32| dag.children(a).contains(&b);
    let mut seen = [std::collections::HashSet::new(), std::collections::HashSet::new()];
    for (i, n) in nodes.iter().enumerate() {
        assert!(seen[usize::from(n.backward)].insert(n.vertex), "vertex {} met twice on one side", n.vertex);
        let Some(p) = n.parent else {
            assert_eq!(n.kind, NodeKind::Start, "node {i} has no parent");
            assert_eq!((n.depth, n.vertex), (0, if n.backward { to } else { from }));
            continue;
        };
        let parent = &nodes[p];
        assert!(p < i && parent.backward == n.backward, "node {i}: parent {p} comes later or on the other side");
        assert!(matches!(parent.kind, NodeKind::Start | NodeKind::Entered) && parent.expanded);
        assert_eq!(n.depth, parent.depth + 1);
        let edge = if n.backward { (n.vertex, parent.vertex) } else { (parent.vertex, n.vertex) };
        assert!(has_edge(edge.0, edge.1), "drawn edge {edge:?} is not in the graph");
    }
    // A dead end could not have helped: a forward vertex that cannot reach the target, a backward
    // one the start cannot reach. Every expanded vertex not marked so did help (the marks are
    // exact unless a search ran past its budget, when they may only err towards "dead end").
    let closure = |start: u32, backward: bool| {
        let mut seen = std::collections::HashSet::from([start]);
        let mut stack = vec![start];
        while let Some(x) = stack.pop() {
            let next = if backward { dag.parents(x) } else { dag.children(x) };
            stack.extend(next.iter().filter(|&&c| seen.insert(c)));
        }
        seen
    };
    let (below_from, above_to) = (closure(from, false), closure(to, true));
    for n in nodes.iter().filter(|n| n.expanded && !n.dead_end) {
        let helped = if n.backward { below_from.contains(&n.vertex) } else { above_to.contains(&n.vertex) };
        assert!(helped, "vertex {} is not marked a dead end, yet it could not help", n.vertex);
    }
    assert_eq!(nodes.iter().filter(|n| n.dead_end).count() as u64, answer.false_positives);
    if !answer.reachable {
        assert!(nodes.iter().all(|n| !n.on_path));
        return;
    }
    let ends: Vec<usize> = (0..nodes.len())
        .filter(|&i| {
            nodes[i].on_path && matches!(nodes[i].kind, NodeKind::Target | NodeKind::Reached { .. } | NodeKind::Meeting)
        })
        .collect();
    let [end] = ends[..] else { panic!("{} ends of the path in the tree", ends.len()) };
    // The chain from a node up to its side's start.
    let chain = |mut i: usize| {
        let mut out = vec![i];
        while let Some(p) = nodes[i].parent {
            out.push(p);
            i = p;
        }
        out
    };
    let entered_on = |backward: bool, vertex: u32| {
        (0..nodes.len()).find(|&i| {
            let n = &nodes[i];
            n.backward == backward && n.vertex == vertex && matches!(n.kind, NodeKind::Start | NodeKind::Entered)
        })
    };
    // The two stretches of the walk, each in path order, and the node indices they use.
    let up = |i: usize| chain(i).into_iter().rev().collect::<Vec<usize>>();
    let (forward, backward) = match (nodes[end].backward, nodes[end].kind) {
        (false, NodeKind::Meeting) => {
            (up(end), chain(entered_on(true, nodes[end].vertex).expect("the meeting vertex on the backward side")))
        }
        (true, NodeKind::Meeting) => {
            (up(entered_on(false, nodes[end].vertex).expect("the meeting vertex on the forward side")), chain(end))
        }
        (false, _) => (up(end), Vec::new()),
        // A backward cut proved that the start reaches the end: the path's first stretch is not
        // in the tree, only the start.
        (true, _) => (vec![0], chain(end)),
    };
    let mut marked: Vec<usize> = (0..nodes.len()).filter(|&i| nodes[i].on_path).collect();
    let mut walk: Vec<usize> = forward.iter().chain(&backward).copied().collect();
    marked.sort_unstable();
    walk.sort_unstable();
    walk.dedup();
    assert_eq!(marked, walk, "the nodes marked on the path are not one walk through the trees");
    let vertices = |ix: &[usize]| ix.iter().map(|&i| nodes[i].vertex).collect::<Vec<u32>>();
    let (forward, backward) = (vertices(&forward), vertices(&backward));
    let path = answer.path.clone().expect("a traced yes has its path");
    assert!(path.windows(2).all(|w| has_edge(w[0], w[1])), "the path {path:?} is not a walk in the graph");
    assert_eq!((path[0], path[path.len() - 1]), (from, to));
    assert_eq!(path[..forward.len()], forward[..], "the path does not begin with the forward tree's walk");
    assert_eq!(path[path.len() - backward.len()..], backward[..], "the path does not end with the backward walk");
}

#[test]
fn every_drawn_child_hangs_under_the_vertex_that_met_it() {
    // Cuts decide most pairs of a random DAG before a search; these shapes leave enough searches
    // whose backward side runs (a few hundred of the pairs below).
    let specs = [
        "random:n=1500,deg=3,seed=1",
        "digraph:n=1200,deg=2,seed=4",
        "deep:n=1500,deg=3,depth=60,seed=7",
        "deep:n=5000,deg=5,depth=20,seed=1",
        "random:n=5000,deg=10,seed=1",
        "random:n=3000,deg=30,seed=1",
    ];
    let mut sides = [0usize; 2];
    for (k, spec) in specs.into_iter().enumerate() {
        let (c, labels) = fixture(spec, 1 + k % 3, Order::Random { seed: k as u64 });
        let index = QueryIndex::build(&c.dag, &labels).unwrap();
        let grail = Engine::new(&c.dag, &labels, &c.component);
        let every = Engine::new(&c.dag, &labels, &c.component).with_index(Some(&index));
        let mut scratch = grail.scratch();
        for q in random_queries(c.component.len(), 1500, 5 + k as u64) {
            let ends = (c.component[q.src as usize], c.component[q.dst as usize]);
            for engine in [&grail, &every] {
                for method in Method::ALL {
                    let (answer, trace) = engine.query_traced(q.src, q.dst, method, &mut scratch, usize::MAX);
                    if answer.rule == Rule::Search {
                        check_tree(&c.dag, &trace, &answer, ends);
                        sides[usize::from(trace.nodes.iter().any(|n| n.backward))] += 1;
                    }
                }
            }
            for method in [Method::GuidedDfs, Method::GuidedBfs] {
                let Some(decided) =
                    decide_before_labels(&c.dag, &c.component, &index, (q.src, q.dst), method, usize::MAX)
                else {
                    continue;
                };
                if decided.answer.rule == Rule::Search {
                    check_tree(&c.dag, &decided.trace, &decided.answer, ends);
                }
            }
        }
    }
    assert!(sides[0] > 100 && sides[1] > 100, "searches with one side {}, with two {}", sides[0], sides[1]);
}
