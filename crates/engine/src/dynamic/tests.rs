//! Every answer after every edit equals a plain BFS of the edited graph; the live components are
//! the edited graph's strongly connected components; undoing every edit gives the graph as loaded.

use super::*;
use crate::graph::generators::{deep_dag, random_dag, random_digraph};
use crate::graph::scc;
use crate::index::{Order, dfs};
use crate::query::oracle::reachable_bfs;
use proptest::prelude::*;
use rand::{Rng, RngExt, SeedableRng};
use rand_pcg::Pcg64;

fn index_of(graph: Graph, dims: usize, seed: u64, with_query_index: bool) -> DynamicIndex {
    let ws = Arc::new(Workspace::of_graph(graph, "test"));
    let labels = dfs::label(ws.dag(), dims, Order::Random { seed }).unwrap();
    let query_index = with_query_index.then(|| Arc::new(QueryIndex::build(ws.dag(), &labels).unwrap()));
    DynamicIndex::new(ws, Arc::new(labels), query_index)
}

/// A random edit: mostly inserts and deletes of random edges, some inserts that close a cycle
/// (from a vertex reached back to one that reaches it) and some deletes inside a component.
fn random_edit(index: &DynamicIndex, rng: &mut impl Rng) -> Edit {
    let n = index.edges().num_vertices() as u32;
    let pick = |rng: &mut dyn FnMut() -> u32| rng();
    let mut vertex = || rng.random_range(0..n);
    let u = pick(&mut vertex);
    let children: Vec<u32> = index.edges().children(u).collect();
    match rng.random_range(0..10) {
        0..4 if !children.is_empty() => Edit::Delete { u, v: children[rng.random_range(0..children.len())] },
        4 => {
            // Close a cycle: an edge back from somewhere below `u` to `u`.
            let below: Vec<u32> = (0..n).filter(|&w| w != u && reachable_bfs(&index.edited_graph(), u, w)).collect();
            match below.as_slice() {
                [] => Edit::Insert { u, v: rng.random_range(0..n) },
                below => Edit::Insert { u: below[rng.random_range(0..below.len())], v: u },
            }
        }
        _ => Edit::Insert { u, v: rng.random_range(0..n) },
    }
}

fn check_all_pairs(index: &mut DynamicIndex, context: &str) {
    let graph = index.edited_graph();
    let n = graph.num_vertices() as u32;
    for u in 0..n {
        for v in 0..n {
            let reply = index.reaches(u, v);
            assert_eq!(reply.reachable, reachable_bfs(&graph, u, v), "{u} → {v} after {context} ({:?})", reply.verdict);
        }
    }
    check_components(index, &graph, context);
}

fn check_components(index: &DynamicIndex, graph: &Graph, context: &str) {
    let truth = scc::condense(&Arc::new(graph.clone()));
    let live = index.components();
    assert_eq!(live.count(), truth.num_components(), "component count after {context}");
    let n = graph.num_vertices() as u32;
    for u in 0..n {
        let members = live.members(live.of(u));
        assert!(members.contains(&u), "{u} is a member of its own component after {context}");
        for v in 0..n {
            let together = truth.component[u as usize] == truth.component[v as usize];
            assert_eq!(live.of(u) == live.of(v), together, "{u} and {v} in one component after {context}");
        }
    }
}

fn run_script(mut index: DynamicIndex, edits: usize, seed: u64) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let before = index.edited_graph();
    for step in 0..edits {
        let edit = random_edit(&index, &mut rng);
        let report = index.apply(edit);
        check_all_pairs(&mut index, &format!("edit {step} {edit:?} ({report:?})"));
    }
    while index.undo().is_some() {}
    assert!(index.edges().is_unedited(), "every edit undone");
    assert_eq!(index.edited_graph(), before);
    check_all_pairs(&mut index, "undoing every edit");
    while index.redo().is_some() {}
    check_all_pairs(&mut index, "redoing every edit");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn edits_on_dags_stay_exact(n in 2usize..30, degree in 0.5f64..3.0, dims in 1usize..4, seed in 0u64..1000) {
        run_script(index_of(random_dag(n, degree.min((n - 1) as f64 / 2.0), seed).unwrap(), dims, seed, seed % 2 == 0), 25, seed);
    }

    #[test]
    fn edits_on_digraphs_stay_exact(n in 2usize..30, degree in 0.5f64..3.0, dims in 1usize..4, seed in 0u64..1000) {
        run_script(index_of(random_digraph(n, degree.min((n - 1) as f64 / 2.0), seed).unwrap(), dims, seed, seed % 2 == 1), 25, seed);
    }

    #[test]
    fn edits_on_deep_graphs_stay_exact(n in 8usize..40, seed in 0u64..1000) {
        run_script(index_of(deep_dag(n, 1.5, n / 2, seed).unwrap(), 2, seed, true), 25, seed);
    }
}

/// A thousand edits on one index, answers sampled after each and checked whole every hundred.
#[test]
fn a_thousand_edits_stay_exact() {
    for (graph, seed) in [(random_digraph(150, 1.5, 7).unwrap(), 7u64), (random_dag(150, 2.0, 8).unwrap(), 8)] {
        let mut index = index_of(graph, 3, seed, true);
        let mut rng = Pcg64::seed_from_u64(seed);
        for step in 0..1000 {
            let edit = random_edit(&index, &mut rng);
            index.apply(edit);
            let graph = index.edited_graph();
            for _ in 0..30 {
                let (u, v) = (rng.random_range(0..150), rng.random_range(0..150));
                assert_eq!(index.reaches(u, v).reachable, reachable_bfs(&graph, u, v), "{u} → {v} after edit {step}");
            }
            if step % 100 == 99 {
                check_all_pairs(&mut index, &format!("edit {step}"));
            }
        }
    }
}

#[test]
fn an_insert_that_closes_a_cycle_merges_and_its_undo_splits() {
    // 0 → 1 → 2 → 3; inserting 3 → 1 makes {1, 2, 3} one component.
    let mut index = index_of(Graph::from_edges(4, &[(0, 1), (1, 2), (2, 3)]).unwrap(), 2, 1, true);
    assert_eq!(index.reaches(3, 1).verdict, Verdict::Static);
    let report = index.apply(Edit::Insert { u: 3, v: 1 });
    assert_eq!((report.merged, report.merged_vertices, report.unchanged), (3, 3, None));
    assert_eq!(index.components().count(), 2);
    assert_eq!(index.reaches(3, 1), Reply { reachable: true, verdict: Verdict::SameComponent, visited: 0, rule: None });
    assert!(!index.reaches(3, 0).reachable);
    let undone = index.undo().unwrap();
    assert_eq!(undone.split_into, 3);
    assert_eq!(index.components().count(), 4);
    assert_eq!(index.reaches(3, 1).verdict, Verdict::Static, "the graph as loaded again");
    assert_eq!(index.apply(Edit::Delete { u: 3, v: 1 }).unchanged, Some("there is no such edge"));
    assert_eq!(index.apply(Edit::Insert { u: 0, v: 1 }).unchanged, Some("the edge is already there"));
    assert!(index.edits().is_empty() && index.undone().len() == 1, "no-ops are not recorded");
}
