//! The engine's hot paths on generated graphs, one `cargo bench` away: parsing, building a CSR,
//! topological levels, the CPU pipeline phase by phase, the DFS labels and the query index on one
//! thread, and batches of queries
//! (the cheap first pass alone, and with the searches it leaves). `grail bench` stays the
//! end-to-end tool on real files; these isolate one step each so a change's effect shows here.
//!
//! `cargo bench` runs them all; `cargo bench -- batch` only those whose name contains `batch`.

use divan::{Bencher, black_box};
use grail::graph::{Graph, generators, io, topo};
use grail::index::labeler::run_to_end;
use grail::index::pipeline::{PipelineConfig, PipelineLabeler};
use grail::index::{Labeler, Labels, Order, Until};
use grail::query::{Engine, Method, Query, QueryIndex, random_queries, run_batch};
use grail::telemetry::NullSink;
use std::sync::{Arc, LazyLock};

fn main() {
    divan::main();
}

/// Vertices of the generated graphs: large enough that a step takes milliseconds, small enough
/// that the suite runs in a minute on two cores.
const N: usize = 200_000;
const DEGREE: f64 = 5.0;
const DIMS: usize = 5;
const ORDER: Order = Order::Random { seed: 1 };

static DAG: LazyLock<Arc<Graph>> = LazyLock::new(|| Arc::new(generators::random_dag(N, DEGREE, 3).unwrap()));
static EDGES: LazyLock<Vec<(u32, u32)>> =
    LazyLock::new(|| (0..N as u32).flat_map(|u| DAG.children(u).iter().map(move |&v| (u, v))).collect());
static LABELS: LazyLock<Labels> = LazyLock::new(|| {
    let mut labeler = PipelineLabeler::new(Arc::clone(&DAG), PipelineConfig::new(DIMS, ORDER)).unwrap();
    run_to_end(&mut labeler, &mut NullSink).unwrap()
});
static QUERY_INDEX: LazyLock<QueryIndex> = LazyLock::new(|| QueryIndex::build(&DAG, &LABELS).unwrap());
static IDENTITY: LazyLock<Vec<u32>> = LazyLock::new(|| (0..N as u32).collect());
static QUERIES: LazyLock<Vec<Query>> = LazyLock::new(|| random_queries(N, 100_000, 5));

/// The edge list as text (`u v` per line) parsed into a CSR.
#[divan::bench]
fn parse_edge_list(bencher: Bencher) {
    let text: String = EDGES.iter().map(|(u, v)| format!("{u} {v}\n")).collect();
    bencher
        .counter(divan::counter::BytesCount::of_str(&text))
        .bench(|| io::parse(text.as_bytes(), "bench.txt", None).unwrap());
}

/// Edges grouped by source into a CSR (and the reverse CSR).
#[divan::bench]
fn csr_from_edges() -> Graph {
    Graph::from_edges(N, black_box(&EDGES)).unwrap()
}

/// Topological levels by Kahn's algorithm, on a graph that has not computed them yet.
#[divan::bench]
fn topo_kahn(bencher: Bencher) {
    bencher.with_inputs(|| Graph::from_edges(N, &EDGES).unwrap()).bench_local_values(|graph| {
        black_box(topo::kahn(&graph).unwrap().level.len());
        graph
    });
}

/// One phase of the CPU pipeline's first dimension: parent selection, subtree sizes, post-order,
/// min-post (the graph's levels are computed before the timed step).
#[divan::bench(args = [0, 1, 2, 3])]
fn pipeline_phase(bencher: Bencher, phase: usize) {
    bencher
        .with_inputs(|| {
            let mut labeler = PipelineLabeler::new(Arc::clone(&DAG), PipelineConfig::new(1, ORDER)).unwrap();
            for _ in 0..phase {
                labeler.advance(Until::Phase, &mut NullSink).unwrap();
            }
            labeler
        })
        .bench_local_values(|mut labeler| {
            labeler.advance(Until::Phase, &mut NullSink).unwrap();
            labeler
        });
}

/// All five dimensions' labels on the CPU pipeline.
#[divan::bench(sample_count = 10)]
fn pipeline_labels() -> Labels {
    let mut labeler = PipelineLabeler::new(Arc::clone(&DAG), PipelineConfig::new(DIMS, ORDER)).unwrap();
    run_to_end(&mut labeler, &mut NullSink).unwrap()
}

/// All five dimensions' labels by the classic DFS (the default back end), on one thread: the
/// single-core index time less the query index.
#[divan::bench(sample_count = 10)]
fn dfs_labels_one_thread(bencher: Bencher) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    bencher.bench(|| pool.install(|| grail::index::dfs::label(&DAG, DIMS, ORDER).unwrap()));
}

/// The query index (topological orders, supportive vertices, Bloom filters) from the DAG, on one
/// thread: its two passes in turn.
#[divan::bench(sample_count = 10)]
fn query_index(bencher: Bencher) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    bencher.bench(|| pool.install(|| QueryIndex::build_for(&DAG).unwrap()));
}

/// 100K random queries with GRAIL's rules only (labels, levels, tree cut, then searches).
#[divan::bench(sample_count = 20)]
fn batch_grail_rules(bencher: Bencher) {
    let engine = Engine::new(&DAG, &LABELS, &IDENTITY);
    bencher.counter(QUERIES.len()).bench(|| run_batch(&engine, &QUERIES, Method::GuidedDfs).positives);
}

/// 100K random queries with every rule: the first pass (same component, level cut, topological
/// orders) decides most; the searches take the rest.
#[divan::bench(sample_count = 20)]
fn batch_every_rule(bencher: Bencher) {
    let engine = Engine::new(&DAG, &LABELS, &IDENTITY).with_index(Some(&QUERY_INDEX));
    bencher.counter(QUERIES.len()).bench(|| run_batch(&engine, &QUERIES, Method::GuidedBfs).positives);
}
