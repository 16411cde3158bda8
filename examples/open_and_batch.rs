//! Open a graph file, index it, answer a batch of random queries, and check a sample of the answers
//! against a plain breadth-first search.
//!
//! `cargo run --release --example open_and_batch -- [GRAPH] [QUERIES]`
//! (default: the bundled sample-graphs/kegg.gra and 100,000 queries)

use grail::graph::io;
use grail::query::oracle::reachable_bfs;
use grail::{Index, Settings};
use std::path::PathBuf;
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let default = || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-graphs/kegg.gra");
    let path = args.next().map_or_else(default, PathBuf::from);
    let count: usize = args.next().map_or(Ok(100_000), |c| c.parse())?;

    let start = Instant::now();
    let index = Index::open(&path, &Settings::default())?;
    let n = index.num_vertices();
    println!(
        "{}: {n} vertices, {} after condensing, indexed in {:.1} ms on the {}",
        path.display(),
        index.dag().num_vertices(),
        start.elapsed().as_secs_f64() * 1e3,
        index.backend().map_or("labels given", |backend| backend.title())
    );

    // Random pairs of the file's vertices, named as the file names them.
    let loaded = io::load(&path, None)?;
    let queries = grail::query::random_queries(n, count, 5);
    let pairs: Vec<(u64, u64)> =
        queries.iter().map(|q| (loaded.names.file_id(q.src), loaded.names.file_id(q.dst))).collect();
    let start = Instant::now();
    let answers = index.reaches_all(&pairs)?;
    let seconds = start.elapsed().as_secs_f64();
    let yes = answers.iter().filter(|&&a| a).count();
    println!("{count} queries in {:.2} ms: {yes} reachable", seconds * 1e3);

    // The first thousand answers, checked by a breadth-first search on the file's graph.
    for (q, &answer) in queries.iter().zip(&answers).take(1000) {
        anyhow::ensure!(reachable_bfs(&loaded.graph, q.src, q.dst) == answer, "{} ⇝ {} disagrees", q.src, q.dst);
    }
    println!("the first {} answers agree with a breadth-first search", count.min(1000));
    Ok(())
}
