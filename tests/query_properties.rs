//! Property tests for the query engine: on random graphs of several shapes, every method answers
//! every pair exactly as the transitive-closure oracle does, with consistent bookkeeping.

use grail::graph::Graph;
use grail::graph::scc::{Condensation, condense};
use grail::index::{Labels, Order, dfs};
use grail::query::explain;
use grail::query::oracle::{TransitiveClosure, reachable_bfs};
use grail::query::{Answer, Check, Engine, Method, QueryIndex, Rule, RuleSet, Trace, decide_before_labels};
use proptest::prelude::*;
use proptest::sample::SizeRange;
use std::sync::Arc;

mod decision_claims;
use decision_claims::check_decision;

/// The pairs whose record of decision is checked too: all on small graphs, a sample on larger ones
/// (rendering every sentence of every pair would dominate the run).
fn sampled(n: u32, u: u32, v: u32) -> bool {
    n <= 60 || (u * 31 + v).is_multiple_of(11)
}

/// A random graph: vertex count and edges (ids already in range).
#[derive(Clone, Debug)]
struct Case {
    n: usize,
    edges: Vec<(u32, u32)>,
}

/// `m` raw pairs on `0..n`.
fn pairs(n: usize, m: impl Into<SizeRange>) -> impl Strategy<Value = Vec<(u32, u32)>> {
    prop::collection::vec((0..n as u32, 0..n as u32), m)
}

/// Edges oriented from smaller to larger id: a DAG.
fn oriented(edges: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    edges.into_iter().map(|(a, b)| (a.min(b), a.max(b))).collect()
}

/// Renames the vertices by a random permutation, so ids are not a topological order.
fn shuffled(n: usize, edges: Vec<(u32, u32)>) -> impl Strategy<Value = Case> {
    Just((0..n as u32).collect::<Vec<u32>>()).prop_shuffle().prop_map(move |perm| Case {
        n,
        edges: edges.iter().map(|&(a, b)| (perm[a as usize], perm[b as usize])).collect(),
    })
}

fn sparse_dag() -> impl Strategy<Value = Case> {
    (1usize..=300).prop_flat_map(|n| pairs(n, 0..=2 * n)).prop_flat_map(|e| {
        let n = e.iter().map(|&(a, b)| a.max(b) as usize + 1).max().unwrap_or(1);
        shuffled(n, oriented(e))
    })
}

fn dense_dag() -> impl Strategy<Value = Case> {
    (1usize..=40).prop_flat_map(|n| (Just(n), pairs(n, 0..=n * n))).prop_flat_map(|(n, e)| shuffled(n, oriented(e)))
}

/// A long chain with a few forward shortcuts: deep DFS trees, long searches.
fn chain_with_shortcuts() -> impl Strategy<Value = Case> {
    (2usize..=300).prop_flat_map(|n| (Just(n), pairs(n, 0..=n / 4))).prop_flat_map(|(n, shortcuts)| {
        let mut edges: Vec<(u32, u32)> = (0..n as u32 - 1).map(|v| (v, v + 1)).collect();
        edges.extend(oriented(shortcuts));
        shuffled(n, edges)
    })
}

/// Edges in any direction: cycles and non-trivial components.
fn with_cycles() -> impl Strategy<Value = Case> {
    (1usize..=300).prop_flat_map(|n| (Just(n), pairs(n, 0..=2 * n))).prop_map(|(n, edges)| Case { n, edges })
}

/// Edges only into the top tenth of the ids: most vertices are roots.
fn many_roots() -> impl Strategy<Value = Case> {
    (2usize..=300).prop_flat_map(|n| (Just(n), pairs(n, 0..=2 * n))).prop_flat_map(|(n, e)| {
        let sinks = (n / 10).max(1) as u32;
        let edges = e.into_iter().map(|(a, b)| (a, n as u32 - 1 - b % sinks)).filter(|(a, b)| a < b).collect();
        shuffled(n, edges)
    })
}

/// Few edges, any direction: mostly isolated vertices.
fn mostly_isolated() -> impl Strategy<Value = Case> {
    (1usize..=300).prop_flat_map(|n| (Just(n), pairs(n, 0..=n / 4))).prop_map(|(n, edges)| Case { n, edges })
}

/// Small enough that a BFS's false positives are always exact (see `bfs_exact`).
fn tiny() -> impl Strategy<Value = Case> {
    (1usize..=20).prop_flat_map(|n| (Just(n), pairs(n, 0..=40))).prop_map(|(n, edges)| Case { n, edges })
}

fn any_graph() -> impl Strategy<Value = Case> {
    prop_oneof![
        sparse_dag(),
        dense_dag(),
        chain_with_shortcuts(),
        with_cycles(),
        many_roots(),
        mostly_isolated(),
        tiny()
    ]
}

fn any_order() -> impl Strategy<Value = Order> {
    prop_oneof![Just(Order::Lex), any::<u64>().prop_map(|seed| Order::Random { seed })]
}

/// The first rule that applies, computed from the labels' own accessors (not the engine's rules).
fn expected_rule(c: &Condensation, labels: &Labels, u: u32, v: u32, method: Method) -> Rule {
    let (cu, cv) = (c.component[u as usize], c.component[v as usize]);
    if cu == cv {
        Rule::SameComponent
    } else if !method.is_guided() {
        Rule::Search
    } else if labels.cutting_dimension(cu, cv).is_some() {
        Rule::LabelCut
    } else if labels.level(cu) >= labels.level(cv) {
        Rule::LevelCut
    } else if labels.tree_dimension(cu, cv).is_some() {
        Rule::TreeCut
    } else {
        Rule::Search
    }
}

/// Checks one answer's rule, path and bookkeeping (panics with the query on the first problem).
fn check_answer(dag: &Graph, c: &Condensation, labels: &Labels, u: u32, v: u32, method: Method, a: &Answer) {
    let (cu, cv) = (c.component[u as usize], c.component[v as usize]);
    let rule = expected_rule(c, labels, u, v, method);
    assert_eq!(a.rule, rule, "{method} {u}->{v}: wrong rule");
    match a.rule {
        Rule::LabelCut => assert_eq!(a.witness, labels.cutting_dimension(cu, cv)),
        Rule::TreeCut => assert_eq!(a.witness, labels.tree_dimension(cu, cv)),
        _ => assert_eq!(a.witness, None),
    }
    assert!(a.false_positives <= a.expanded, "{method} {u}->{v}: {a:?}");
    if a.rule == Rule::Search {
        assert!(a.expanded >= 1, "{method} {u}->{v}: a search expands its start");
    } else {
        assert_eq!((a.expanded, a.pruned, a.false_positives), (0, 0, 0), "{method} {u}->{v}: a cut searches nothing");
    }
    if !method.is_guided() {
        assert_eq!(a.pruned, 0, "{method} {u}->{v}: unguided searches never prune");
    }
    if !a.reachable {
        assert_eq!(a.false_positives, a.expanded, "{method} {u}->{v}: for a no, every expanded vertex is wasted");
        assert_eq!(a.path, None);
        return;
    }
    let path = a.path.as_ref().unwrap_or_else(|| panic!("{method} {u}->{v}: a yes must carry its path"));
    assert_eq!((path.first(), path.last()), (Some(&cu), Some(&cv)), "{method} {u}->{v}: {path:?}");
    for w in path.windows(2) {
        assert!(dag.children(w[0]).binary_search(&w[1]).is_ok(), "{method} {u}->{v}: {path:?} uses a non-edge");
    }
    if a.rule == Rule::Search {
        // The path's vertices before v were all expanded and all reach v.
        let on_path = path.len() as u64 - 1;
        assert!(a.expanded - a.false_positives >= on_path, "{method} {u}->{v}: {a:?}");
        if matches!(method, Method::GuidedDfs | Method::Dfs) {
            // A DFS's useful vertices are exactly its stack.
            assert_eq!(a.expanded - a.false_positives, on_path, "{method} {u}->{v}: {a:?}");
        }
    }
}

/// What a search expanded, written the plain way (recursive DFS, textbook BFS) as a reference.
struct Reference {
    reachable: bool,
    expanded: Vec<u32>,
    pruned: u64,
}

fn reference_search(dag: &Graph, labels: &Labels, from: u32, to: u32, method: Method) -> Reference {
    let mut visited = vec![false; dag.num_vertices()];
    let mut r = Reference { reachable: false, expanded: vec![from], pruned: 0 };
    visited[from as usize] = true;
    // Some(true): enter c; Some(false): skip c; None: c is the target.
    let admit = |c: u32, visited: &mut [bool], r: &mut Reference| {
        if c == to {
            return None;
        }
        if std::mem::replace(&mut visited[c as usize], true) {
            return Some(false);
        }
        if method.is_guided() && !labels.may_reach(c, to) {
            r.pruned += 1;
            return Some(false);
        }
        Some(true)
    };
    if method.is_breadth_first() {
        let mut head = 0;
        'bfs: while head < r.expanded.len() {
            let x = r.expanded[head];
            head += 1;
            for &c in dag.children(x) {
                match admit(c, &mut visited, &mut r) {
                    None => {
                        r.reachable = true;
                        break 'bfs;
                    }
                    Some(true) => r.expanded.push(c),
                    Some(false) => {}
                }
            }
        }
        r.expanded.truncate(head);
    } else {
        fn visit(x: u32, dag: &Graph, admit: &mut dyn FnMut(u32, &mut Reference) -> Option<bool>, r: &mut Reference) {
            for &c in dag.children(x) {
                match admit(c, r) {
                    None => r.reachable = true,
                    Some(true) => {
                        r.expanded.push(c);
                        visit(c, dag, admit, r);
                    }
                    Some(false) => {}
                }
                if r.reachable {
                    return;
                }
            }
        }
        visit(from, dag, &mut |c, r| admit(c, &mut visited, r), &mut r);
    }
    r
}

fn check_graph(case: &Case, dims: usize, order: Order) {
    let graph = Graph::from_edges(case.n, &case.edges).unwrap();
    let closure = TransitiveClosure::new(&graph).unwrap();
    let c = condense(&Arc::new(graph));
    let labels = dfs::label(&c.dag, dims, order).unwrap();
    let dag_closure = TransitiveClosure::new(&c.dag).unwrap();
    // Small enough that the BFS's reverse check always fits its minimum budget (64 steps): exact.
    let bfs_exact = c.dag.num_vertices() + c.dag.num_edges() < 64;
    let engine = Engine::new(&c.dag, &labels, &c.component);
    let mut scratch = engine.scratch();
    let n = case.n as u32;
    for u in 0..n {
        for v in 0..n {
            let truth = closure.reachable(u, v);
            let (cu, cv) = (c.component[u as usize], c.component[v as usize]);
            assert!(!truth || labels.may_reach(cu, cv), "{u}->{v}: the labels deny a real path");
            for method in Method::ALL {
                let a = engine.query(u, v, method, &mut scratch, true);
                assert_eq!(a.reachable, truth, "{method} {u}->{v}: {a:?}");
                check_answer(&c.dag, &c, &labels, u, v, method, &a);
                if sampled(n, u, v) {
                    check_decision(&engine, &c, &labels, None, (u, v), method, &a, &mut scratch);
                }
                if a.rule == Rule::Search {
                    let r = reference_search(&c.dag, &labels, cu, cv, method);
                    let wasted = r.expanded.iter().filter(|&&e| !dag_closure.reachable(e, cv)).count() as u64;
                    assert_eq!((a.reachable, a.expanded, a.pruned), (r.reachable, r.expanded.len() as u64, r.pruned));
                    if method.is_breadth_first() && !bfs_exact {
                        assert!(a.false_positives >= wasted, "{method} {u}->{v}: {a:?}, {wasted} wasted");
                    } else {
                        assert_eq!(a.false_positives, wasted, "{method} {u}->{v}: {a:?}");
                    }
                }
                // Asking for the path changes nothing else.
                let plain = engine.query(u, v, method, &mut scratch, false);
                assert_eq!(Answer { path: a.path.clone(), ..plain }, a, "{method} {u}->{v}");
            }
        }
    }
}

/// Every rule on: every method on every pair agrees with the closure, each deciding rule gives its
/// own answer, a yes carries a real path, a no searches only wasted vertices, a traced query is the
/// untraced one, and the trace counts what the answer counts.
fn check_graph_with_every_rule(case: &Case, dims: usize, order: Order) {
    let graph = Graph::from_edges(case.n, &case.edges).unwrap();
    let closure = TransitiveClosure::new(&graph).unwrap();
    let c = condense(&Arc::new(graph));
    let labels = dfs::label(&c.dag, dims, order).unwrap();
    let index = QueryIndex::build(&c.dag, &labels).unwrap();
    let engine = Engine::new(&c.dag, &labels, &c.component).with_index(Some(&index));
    assert_eq!(engine.rule_set(), RuleSet::All);
    let mut scratch = engine.scratch();
    let n = case.n as u32;
    for u in 0..n {
        for v in 0..n {
            let truth = closure.reachable(u, v);
            let (cu, cv) = (c.component[u as usize], c.component[v as usize]);
            for method in Method::ALL {
                let a = engine.query(u, v, method, &mut scratch, true);
                assert_eq!(a.reachable, truth, "{method} {u}->{v}: {a:?}");
                if let Some(answer) = a.rule.answer() {
                    assert_eq!(answer, truth, "{method} {u}->{v}: {} said {answer}", a.rule);
                }
                if !method.is_guided() {
                    assert!(matches!(a.rule, Rule::SameComponent | Rule::Search), "{method}: {a:?}");
                }
                assert!(a.false_positives <= a.expanded, "{method} {u}->{v}: {a:?}");
                if a.rule != Rule::Search {
                    assert_eq!((a.expanded, a.pruned), (0, 0), "{method} {u}->{v}");
                }
                if truth {
                    let path = a.path.as_ref().unwrap_or_else(|| panic!("{method} {u}->{v}: no path"));
                    assert_eq!((path.first(), path.last()), (Some(&cu), Some(&cv)), "{method} {u}->{v}: {path:?}");
                    for w in path.windows(2) {
                        assert!(c.dag.children(w[0]).binary_search(&w[1]).is_ok(), "{method} {u}->{v}: {path:?}");
                    }
                } else {
                    assert_eq!((a.path.as_ref(), a.false_positives), (None, a.expanded), "{method} {u}->{v}");
                }
                let plain = engine.query(u, v, method, &mut scratch, false);
                assert_eq!(Answer { path: a.path.clone(), ..plain }, a, "{method} {u}->{v}");
                let (traced, trace) = engine.query_traced(u, v, method, &mut scratch, usize::MAX);
                assert_eq!(traced, a, "{method} {u}->{v}");
                check_trace_counts(&a, &trace, method);
                if sampled(n, u, v) {
                    check_decision(&engine, &c, &labels, Some(&index), (u, v), method, &a, &mut scratch);
                }
                check_before_labels(&engine, &c, &index, (u, v), method, &mut scratch);
            }
        }
    }
}

/// Before any labels exist, a guided query is decided by the index alone: a pair its cuts decide
/// gets the very record the engine gives it with labels (path included); any other, the engine's
/// answer by a search the cuts alone guided, recorded as such, with a real path for a yes and a
/// trace that adds up to its counts. The unguided baselines wait for the labels.
fn check_before_labels(
    engine: &Engine,
    c: &Condensation,
    index: &QueryIndex,
    (u, v): (u32, u32),
    method: Method,
    scratch: &mut grail::query::Scratch,
) {
    let at = format!("{method} {u}->{v}");
    let early = decide_before_labels(&c.dag, &c.component, index, (u, v), method, usize::MAX);
    let full = engine.decide(u, v, method, scratch, usize::MAX);
    let Some(early) = early else {
        assert!(!method.is_guided(), "{at}: a guided query left open before the labels");
        return;
    };
    if early.answer.rule != Rule::Search {
        assert_eq!(early.answer, full.answer, "{at}");
        assert_eq!(early.decision, full.decision, "{at}");
        assert!(early.trace.nodes.is_empty() && full.trace.nodes.is_empty(), "{at}");
        return;
    }
    assert!(matches!(full.answer.rule, Rule::LabelCut | Rule::TreeCut | Rule::Search), "{at}: {}", full.answer.rule);
    assert_eq!(early.answer.reachable, full.answer.reachable, "{at}");
    // The same checks as with labels up to the labels' own, then the search.
    let (search, before) = early.decision.checks.split_last().unwrap();
    let label_checks = full.decision.checks.iter().position(|c| matches!(c.rule(), Rule::LabelCut | Rule::TreeCut));
    assert_eq!(before, &full.decision.checks[..label_checks.expect("the labels' checks ran")], "{at}");
    let a = &early.answer;
    let recorded = Check::Search {
        method,
        reachable: a.reachable,
        expanded: a.expanded,
        pruned: a.pruned,
        dead_ends: a.false_positives,
        before_labels: true,
    };
    assert_eq!(search, &recorded, "{at}");
    assert!(a.false_positives <= a.expanded, "{at}: {a:?}");
    match &a.path {
        Some(path) => {
            let ends = (c.component[u as usize], c.component[v as usize]);
            assert_eq!((path.first().copied(), path.last().copied()), (Some(ends.0), Some(ends.1)), "{at}");
            for w in path.windows(2) {
                assert!(c.dag.children(w[0]).binary_search(&w[1]).is_ok(), "{at}: {path:?}");
            }
        }
        None => assert!(!a.reachable && a.false_positives == a.expanded, "{at}: {a:?}"),
    }
    check_trace_counts(a, &early.trace, method);
    let vertex = |x: u32| format!("c{x}");
    let names = explain::Names { u: format!("u{u}"), v: format!("v{v}"), vertex: &vertex };
    let sentence = explain::sentence(&early.decision, &names);
    assert!(sentence.contains("the labels were not built yet"), "{at}: {sentence}");
    assert!(!sentence.contains("every cut"), "{at}: {sentence}");
}

/// What a trace shows adds up to the answer's counts.
fn check_trace_counts(a: &Answer, trace: &Trace, method: Method) {
    use grail::query::NodeKind;
    let count = |f: &dyn Fn(&grail::query::TraceNode) -> bool| trace.nodes.iter().filter(|n| f(n)).count() as u64;
    assert_eq!(count(&|n| n.expanded), a.expanded, "{method}: {a:?} {trace:?}");
    assert_eq!(count(&|n| matches!(n.kind, NodeKind::Pruned { .. } | NodeKind::Cut { .. })), a.pruned, "{method}");
    assert_eq!(count(&|n| n.dead_end), a.false_positives, "{method}: {a:?} {trace:?}");
    if a.rule == Rule::Search {
        let ends = count(&|n| matches!(n.kind, NodeKind::Target | NodeKind::Meeting | NodeKind::Reached { .. }));
        assert_eq!(ends, a.reachable as u64, "{method}: {trace:?}");
    } else {
        assert!(trace.nodes.is_empty());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_method_with_every_rule_agrees_with_the_closure(case in any_graph(), dims in 1usize..=5, order in any_order()) {
        check_graph_with_every_rule(&case, dims, order);
    }

    #[test]
    fn every_method_agrees_with_the_closure(case in any_graph(), dims in 1usize..=5, order in any_order()) {
        check_graph(&case, dims, order);
    }

    #[test]
    fn bfs_oracle_agrees_with_the_closure(case in prop_oneof![with_cycles(), sparse_dag(), mostly_isolated()]) {
        let graph = Graph::from_edges(case.n, &case.edges).unwrap();
        let closure = TransitiveClosure::new(&graph).unwrap();
        let mut pairs = 0u64;
        for u in 0..case.n as u32 {
            for v in 0..case.n as u32 {
                let truth = reachable_bfs(&graph, u, v);
                prop_assert_eq!(closure.reachable(u, v), truth, "{}->{}", u, v);
                pairs += (truth && u != v) as u64;
            }
        }
        prop_assert_eq!(closure.count_reachable_pairs(), pairs);
    }
}

/// Graphs large enough that 128 supportive vertices and the other cuts leave searches: both guided
/// methods with every rule against the exact closure on random pairs (on the DAGs, searched yes and
/// no answers both seen; the digraph adds cycles), traces checked.
#[test]
fn searches_with_every_rule_agree_with_the_closure_on_larger_graphs() {
    use grail::graph::generators::GeneratorSpec;
    use grail::query::random_queries;
    for (spec, searches_both) in [
        ("random:n=3000,deg=3,seed=1", true),
        ("digraph:n=3000,deg=1.3,seed=4", false),
        ("random:n=2000,deg=6,seed=9", true),
    ] {
        let graph = spec.parse::<GeneratorSpec>().unwrap().generate().unwrap();
        let closure = TransitiveClosure::new(&graph).unwrap();
        let c = condense(&Arc::new(graph));
        let labels = dfs::label(&c.dag, 2, Order::Random { seed: 3 }).unwrap();
        let index = QueryIndex::build(&c.dag, &labels).unwrap();
        let engine = Engine::new(&c.dag, &labels, &c.component).with_index(Some(&index));
        let mut scratch = engine.scratch();
        for method in [Method::GuidedDfs, Method::GuidedBfs] {
            let (mut yes, mut no) = (0, 0);
            for q in random_queries(c.component.len(), 4000, 11) {
                let a = engine.query(q.src, q.dst, method, &mut scratch, true);
                assert_eq!(a.reachable, closure.reachable(q.src, q.dst), "{spec} {method} {q:?}: {a:?}");
                let (traced, trace) = engine.query_traced(q.src, q.dst, method, &mut scratch, usize::MAX);
                assert_eq!(traced, a, "{spec} {method} {q:?}");
                check_trace_counts(&a, &trace, method);
                if a.rule == Rule::Search {
                    *(if a.reachable { &mut yes } else { &mut no }) += 1;
                }
            }
            assert!(!searches_both || (yes > 0 && no > 0), "{spec} {method}: {yes} searched yes, {no} searched no");
        }
    }
}
