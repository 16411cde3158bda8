//! Whatever grail writes, it reads back as the same graph: every format, plain and gzip, on graphs
//! with hubs whose `.gra` lines are longer than the line limit of the other readers.

use grail::graph::io::{Format, bounded::MAX_LINE_BYTES, load, write};
use grail::graph::{Graph, VertexNames};
use proptest::prelude::*;

/// A graph of `n` vertices where vertex `hub` has an edge to each of the first `children` others,
/// plus `extra` edges (taken modulo `n`).
fn hub_graph(n: usize, hub: usize, children: usize, extra: &[(usize, usize)]) -> Graph {
    let hub = (hub % n) as u32;
    let mut edges: Vec<(u32, u32)> = (0..n as u32).filter(|&v| v != hub).take(children).map(|v| (hub, v)).collect();
    edges.extend(extra.iter().map(|&(u, v)| ((u % n) as u32, (v % n) as u32)).filter(|(u, v)| u != v));
    Graph::from_edges(n, &edges).unwrap()
}

fn shape() -> impl Strategy<Value = Graph> {
    let children = prop_oneof![0usize..20, 180_000usize..260_000];
    (children, 2usize..40, any::<usize>(), prop::collection::vec((any::<usize>(), any::<usize>()), 0..40))
        .prop_map(|(children, more, hub, extra)| hub_graph(children + more, hub, children, &extra))
}

const TEXT_FORMATS: [(Format, &str); 5] = [
    (Format::Gra, "gra"),
    (Format::EdgeList, "txt"),
    (Format::MatrixMarket, "mtx"),
    (Format::Weighted, "weighted"),
    (Format::Header, "header"),
];

fn reads_back(dir: &std::path::Path, graph: &Graph, format: Format, name: &str) -> Result<(), TestCaseError> {
    let path = dir.join(name);
    write(&path, graph, &VertexNames::Dense, format).unwrap();
    let loaded = load(&path, None).map_err(|e| TestCaseError::fail(format!("{name}: {e:#}")))?;
    prop_assert_eq!(loaded.format, format, "{}", name);
    prop_assert_eq!(loaded.graph.num_vertices(), graph.num_vertices(), "{}", name);
    prop_assert!(loaded.graph.edges().eq(graph.edges()), "{} reads back as another graph", name);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]
    #[test]
    fn every_written_file_reads_back(graph in shape()) {
        let dir = tempfile::tempdir().unwrap();
        for (format, extension) in TEXT_FORMATS {
            reads_back(dir.path(), &graph, format, &format!("g.{extension}"))?;
            reads_back(dir.path(), &graph, format, &format!("g.{extension}.gz"))?;
        }
        reads_back(dir.path(), &graph, Format::Grail, "g.grail")?;
    }
}

#[test]
fn a_hub_line_longer_than_the_line_limit_reads_back() {
    let graph = hub_graph(300_001, 0, 300_000, &[]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("star.gra");
    write(&path, &graph, &VertexNames::Dense, Format::Gra).unwrap();
    let longest = std::fs::read(&path).unwrap().split(|&b| b == b'\n').map(<[u8]>::len).max().unwrap();
    assert!(longest > MAX_LINE_BYTES, "the hub's line is {longest} bytes: not past the limit");
    let loaded = load(&path, None).unwrap();
    assert_eq!(loaded.graph.num_edges(), 300_000);
}
