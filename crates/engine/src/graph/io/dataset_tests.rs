//! Every benchmark `.gra` / `.gra.gz` of the shared data set loads, with the vertex count of its
//! header and exactly the edges a naive reference reading finds. Skipped (with a note) where the
//! data set is absent.

use super::{Format, load};
use crate::graph::VertexNames;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn dataset_dir() -> Option<PathBuf> {
    let beside_repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets/grail");
    [beside_repo, PathBuf::from("/work/shared/datasets/grail")].into_iter().find(|p| p.is_dir())
}

fn gra_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with(".gra") || s.ends_with(".gra.gz")))
        .collect();
    files.sort();
    files
}

/// The file's text through an independent path: flate2 directly and `str` splitting.
fn reference_text(path: &Path) -> String {
    let raw = std::fs::read(path).unwrap();
    let mut text = String::new();
    if path.extension().is_some_and(|e| e == "gz") {
        flate2::read::GzDecoder::new(&raw[..]).read_to_string(&mut text).unwrap();
    } else {
        text = String::from_utf8(raw).unwrap();
    }
    text
}

/// Vertex count and sorted, unique, loop-free edges, read the slow obvious way.
fn reference_graph(text: &str) -> (usize, Vec<(u32, u32)>) {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("graph_for_greach"));
    let n: usize = lines.next().unwrap().trim().parse().unwrap();
    let mut edges = Vec::new();
    for (u, line) in lines.take(n).enumerate() {
        let (_, targets) = line.split_once(':').unwrap();
        for t in targets.split_whitespace().take_while(|t| *t != "#") {
            let v: u32 = t.trim_end_matches('#').parse().unwrap();
            if v != u as u32 {
                edges.push((u as u32, v));
            }
        }
    }
    edges.sort_unstable();
    edges.dedup();
    (n, edges)
}

#[test]
fn every_benchmark_graph_loads_as_its_header_says() {
    let Some(dir) = dataset_dir() else {
        println!("note: benchmark data set not found; skipping");
        return;
    };
    let files = gra_files(&dir);
    assert!(files.len() >= 2, "expected .gra files in {}", dir.display());
    for path in files {
        let loaded = load(&path, None).unwrap_or_else(|e| panic!("{e:#}"));
        let (n, edges) = reference_graph(&reference_text(&path));
        assert_eq!(loaded.format, Format::Gra, "{}", path.display());
        assert_eq!(loaded.graph.num_vertices(), n, "{}", path.display());
        assert!(loaded.graph.edges().eq(edges.iter().copied()), "{}: edges differ", path.display());
    }
}

/// Load times of the largest benchmark graph, as `.gra.gz` and rewritten as an edge list with
/// dense and with sparse ids: `cargo test --release --lib graph::io -- --ignored --nocapture`.
#[test]
#[ignore = "timing; run explicitly in release mode"]
fn time_loading_uniprot() {
    let Some(dir) = dataset_dir() else {
        println!("note: benchmark data set not found; skipping");
        return;
    };
    let gra = dir.join("uniprotenc_22m.scc.gra.gz");
    let graph = time_load(&gra);
    let scratch = tempfile::tempdir().unwrap();
    let dense = scratch.path().join("uniprot.txt");
    super::write(&dense, &graph, &VertexNames::Dense, Format::EdgeList).unwrap();
    assert_eq!(time_load(&dense), graph);
    // Spread the ids far apart so the reader has to renumber them.
    let spread = VertexNames::remapped((0..graph.num_vertices() as u64).map(|v| v * 1_000_003 + 17).collect());
    let sparse = scratch.path().join("uniprot-sparse.txt");
    super::write(&sparse, &graph, &spread, Format::EdgeList).unwrap();
    assert_eq!(time_load(&sparse).num_edges(), graph.num_edges());
}

fn time_load(path: &Path) -> crate::graph::Graph {
    let mut graph = None;
    for round in 0..3 {
        let start = Instant::now();
        let bytes = super::read_bytes(path).unwrap();
        let read = start.elapsed();
        let (g, _, format, _) = super::parse(&bytes, "timed", None).unwrap();
        let total = start.elapsed();
        println!(
            "{} ({format}) round {round}: {} vertices, {} edges: read {:.0} ms, parse + CSR {:.0} ms, total {:.0} ms",
            path.file_name().unwrap().to_string_lossy(),
            g.num_vertices(),
            g.num_edges(),
            read.as_secs_f64() * 1e3,
            (total - read).as_secs_f64() * 1e3,
            total.as_secs_f64() * 1e3
        );
        graph = Some(g);
    }
    graph.unwrap()
}
