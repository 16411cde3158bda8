//! Every engine against Dijkstra, and Dijkstra against petgraph's, on many generated weighted
//! graphs: zero weights, ties, unreachable vertices, self-loops, parallel edges, one giant strongly
//! connected component, a single vertex; the paths sum to the distances; the all-pairs methods
//! agree with each other and with Dijkstra from every source.

use super::apsp::{self, Tolerance};
use super::delta::delta_stepping;
use super::dijkstra::dijkstra;
use super::path::{path_length, shortest_path};
use super::random::random_weighted;
use super::{ApspMethod, Distances, SsspEngine, run_sssp};
use crate::graph::{Weight, WeightedGraph};
use proptest::prelude::*;

/// Edges with weights from a small set (zeros and many ties), self-loops and parallel edges
/// included, on 1..=24 vertices.
fn small_graph() -> impl Strategy<Value = (usize, Vec<(u32, u32, Weight)>)> {
    (1usize..=24).prop_flat_map(|n| {
        let edge = (0..n as u32, 0..n as u32, prop::sample::select(vec![0.0, 1.0, 1.0, 2.0, 3.0, 5.0, 8.0]));
        (Just(n), prop::collection::vec(edge, 0..=80))
    })
}

/// Shortest distances by petgraph's Dijkstra over the raw edges (parallel edges and loops kept).
fn petgraph_distances(n: usize, edges: &[(u32, u32, Weight)], src: u32) -> Vec<Weight> {
    let mut g = petgraph::graph::DiGraph::<(), Weight>::new();
    let nodes: Vec<_> = (0..n).map(|_| g.add_node(())).collect();
    for &(u, v, w) in edges {
        g.add_edge(nodes[u as usize], nodes[v as usize], w);
    }
    let found = petgraph::algo::dijkstra(&g, nodes[src as usize], None, |e| *e.weight());
    (0..n).map(|v| found.get(&nodes[v]).copied().unwrap_or(Weight::INFINITY)).collect()
}

/// Every path the distances promise is a path of the graph whose weights add up to the distance.
fn check_paths(graph: &WeightedGraph, d: &Distances) -> Result<(), TestCaseError> {
    for dst in 0..graph.num_vertices() as u32 {
        match shortest_path(graph, d, dst) {
            None => prop_assert!(d.dist[dst as usize].is_infinite(), "no path to {dst} at {}", d.dist[dst as usize]),
            Some(path) => {
                prop_assert_eq!((path[0], *path.last().unwrap()), (d.source, dst));
                prop_assert_eq!(path_length(graph, &path), Some(d.dist[dst as usize]), "{:?}", path);
            }
        }
    }
    Ok(())
}

fn same(a: &Distances, b: &Distances) -> Result<(), TestCaseError> {
    prop_assert_eq!(a.differences(b), 0, "{:?} != {:?}", a.dist, b.dist);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn every_engine_equals_dijkstra_and_paths_sum_to_distances((n, edges) in small_graph(), pick in 0usize..24) {
        let graph = WeightedGraph::from_edges(n, edges.clone(), "p").unwrap();
        let src = (pick % n) as u32;
        let reference = dijkstra(&graph, src);
        let oracle = petgraph_distances(n, &edges, src);
        prop_assert_eq!(&reference.dist, &oracle);
        check_paths(&graph, &reference)?;
        for engine in SsspEngine::ALL.into_iter().filter(|e| !e.is_gpu()) {
            same(&run_sssp(&graph, src, engine, None).unwrap(), &reference)?;
        }
        for delta in [0.5, 1.0, 2.5, 1000.0] {
            let d = delta_stepping(&graph, src, delta);
            same(&d, &reference)?;
            check_paths(&graph, &d)?;
        }
    }

    #[test]
    fn all_pairs_methods_agree_with_dijkstra_from_every_source((n, edges) in small_graph()) {
        let graph = WeightedGraph::from_edges(n, edges, "p").unwrap();
        prop_assert_eq!(apsp::tolerance(&graph), Tolerance::Exact);
        let all = apsp::run(&graph, ApspMethod::SsspAll).unwrap().matrix;
        for src in 0..n as u32 {
            prop_assert_eq!(all.row(src), &dijkstra(&graph, src).dist[..]);
        }
        for method in [ApspMethod::Fw, ApspMethod::FwBlocked] {
            prop_assert_eq!(apsp::differences(&all, &apsp::run(&graph, method).unwrap().matrix, Tolerance::Exact), 0);
        }
    }

    #[test]
    fn fractional_weights_agree_bit_for_bit_for_one_source_and_within_the_tolerance_for_all_pairs(
        (n, edges) in small_graph(),
        scale in prop::sample::select(vec![0.1, 0.3, 1e-7, 7.77]),
    ) {
        let edges: Vec<_> = edges.into_iter().map(|(u, v, w)| (u, v, w * scale + scale / 3.0)).collect();
        let graph = WeightedGraph::from_edges(n, edges, "p").unwrap();
        let reference = dijkstra(&graph, 0);
        for delta in [scale, 100.0 * scale] {
            same(&delta_stepping(&graph, 0, delta), &reference)?;
        }
        check_paths(&graph, &reference)?;
        let tolerance = apsp::tolerance(&graph);
        let all = apsp::sssp_all(&graph);
        for method in [ApspMethod::Fw, ApspMethod::FwBlocked] {
            prop_assert_eq!(apsp::differences(&all, &apsp::run(&graph, method).unwrap().matrix, tolerance), 0);
        }
    }
}

#[test]
fn a_giant_component_runs_the_parallel_rounds_and_agrees() {
    // Degree 4 on 3,000 vertices: one giant strongly connected component, frontiers of hundreds.
    let graph = random_weighted(3_000, 4.0, 20, 3).unwrap();
    let reference = dijkstra(&graph, 0);
    assert!(reference.summary(0).reached > 2_500, "a giant component");
    let delta = delta_stepping(&graph, 0, super::delta::choose_delta(&graph));
    assert_eq!(delta.differences(&reference), 0);
    assert!(delta.steps < reference.steps / 10, "rounds of many vertices: {} steps", delta.steps);
    let wide = delta_stepping(&graph, 0, 1e9);
    assert_eq!(wide.differences(&reference), 0, "one bucket: Bellman-Ford");
}

#[test]
fn blocked_floyd_warshall_spans_several_tiles() {
    let graph = random_weighted(150, 3.0, 9, 5).unwrap();
    let all = apsp::sssp_all(&graph);
    for method in [ApspMethod::Fw, ApspMethod::FwBlocked] {
        assert_eq!(apsp::differences(&all, &apsp::run(&graph, method).unwrap().matrix, Tolerance::Exact), 0);
    }
}

#[test]
fn a_single_vertex_and_an_empty_graph() {
    let one = WeightedGraph::from_edges(1, vec![(0, 0, 3.0)], "p").unwrap();
    for engine in SsspEngine::ALL.into_iter().filter(|e| !e.is_gpu()) {
        assert_eq!(run_sssp(&one, 0, engine, None).unwrap().dist, [0.0]);
    }
    for method in ApspMethod::ALL.into_iter().filter(|m| !m.is_gpu()) {
        assert_eq!(apsp::run(&one, method).unwrap().matrix.values, [0.0]);
    }
    let none = WeightedGraph::from_edges(0, vec![], "p").unwrap();
    assert!(run_sssp(&none, 0, SsspEngine::Dijkstra, None).is_err(), "no vertex 0");
    assert_eq!(apsp::run(&none, ApspMethod::FwBlocked).unwrap().matrix.n, 0);
}
