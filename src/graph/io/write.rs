//! Writers for the two formats worth producing: `.gra` and edge lists (gzip when the path ends in
//! `.gz`).

use super::Format;
use super::edge_list::WRITER_COMMENT;
use crate::graph::{Graph, VertexNames};
use anyhow::{Context, Result, bail};
use flate2::{Compression, write::GzEncoder};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Writes `.gra` (with the `graph_for_greach` header, dense ids: `.gra` cannot carry names) or an
/// edge list (`src dst` lines using the file ids of `names`, after a comment
/// `# grail-explorer: N vertices, M edges` that lets the reader restore isolated vertices);
/// gzip when the path ends in `.gz`. Other formats are an error, and nothing is created then.
pub fn write(path: &Path, graph: &Graph, names: &VertexNames, format: Format) -> Result<()> {
    if !matches!(format, Format::Gra | Format::EdgeList) {
        bail!("cannot write {}: grail writes only the gra and edge-list formats", path.display());
    }
    let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let gzip = path.extension().is_some_and(|e| e == "gz");
    let result = if gzip {
        let mut out = BufWriter::with_capacity(1 << 16, GzEncoder::new(file, Compression::default()));
        emit(&mut out, graph, names, format)
            .and_then(|()| out.into_inner().map_err(|e| e.into_error()))
            .and_then(|encoder| encoder.finish())
            .and_then(|file| file.sync_all())
    } else {
        let mut out = BufWriter::with_capacity(1 << 16, file);
        emit(&mut out, graph, names, format)
            .and_then(|()| out.into_inner().map_err(|e| e.into_error()))
            .and_then(|file| file.sync_all())
    };
    result.with_context(|| format!("cannot write {}", path.display()))
}

fn emit(out: &mut impl Write, graph: &Graph, names: &VertexNames, format: Format) -> std::io::Result<()> {
    match format {
        Format::Gra => emit_gra(out, graph),
        _ => emit_edge_list(out, graph, names),
    }
}

/// `u: v1 v2 ... #` per vertex, as in the benchmark files.
fn emit_gra(out: &mut impl Write, graph: &Graph) -> std::io::Result<()> {
    let mut number = itoa::Buffer::new();
    writeln!(out, "graph_for_greach\n{}", graph.num_vertices())?;
    for u in 0..graph.num_vertices() as u32 {
        out.write_all(number.format(u).as_bytes())?;
        out.write_all(b":")?;
        for &v in graph.children(u) {
            out.write_all(b" ")?;
            out.write_all(number.format(v).as_bytes())?;
        }
        out.write_all(b" #\n")?;
    }
    Ok(())
}

fn emit_edge_list(out: &mut impl Write, graph: &Graph, names: &VertexNames) -> std::io::Result<()> {
    let mut number = itoa::Buffer::new();
    writeln!(out, "{WRITER_COMMENT} {} vertices, {} edges", graph.num_vertices(), graph.num_edges())?;
    for (u, v) in graph.edges() {
        out.write_all(number.format(names.file_id(u)).as_bytes())?;
        out.write_all(b" ")?;
        out.write_all(number.format(names.file_id(v)).as_bytes())?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::io::{load, read_bytes};
    use proptest::prelude::*;

    fn sample() -> Graph {
        // Vertex 5 is isolated and the largest id: the edge list must still bring it back.
        Graph::from_edges(6, &[(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (4, 0)]).unwrap()
    }

    fn round_trip(file: &str, graph: &Graph, names: &VertexNames, format: Format) -> crate::graph::LoadedGraph {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(file);
        write(&path, graph, names, format).unwrap();
        let loaded = load(&path, None).unwrap();
        assert_eq!(loaded.format, format, "sniffed format of {file}");
        loaded
    }

    #[test]
    fn gra_round_trips_plain_and_gzipped() {
        for file in ["g.gra", "g.gra.gz"] {
            let loaded = round_trip(file, &sample(), &VertexNames::Dense, Format::Gra);
            assert_eq!(*loaded.graph, sample(), "{file}");
            assert_eq!(loaded.names, VertexNames::Dense);
        }
    }

    #[test]
    fn gzip_is_chosen_by_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.txt.gz");
        write(&path, &sample(), &VertexNames::Dense, Format::EdgeList).unwrap();
        assert_eq!(std::fs::read(&path).unwrap()[..2], [0x1f, 0x8b]);
        assert!(read_bytes(&path).unwrap().starts_with(b"# grail-explorer: 6 vertices, 6 edges\n0 1\n"));
    }

    #[test]
    fn edge_list_round_trips_dense_ids_with_isolated_vertices() {
        for file in ["g.txt", "g.txt.gz"] {
            let loaded = round_trip(file, &sample(), &VertexNames::Dense, Format::EdgeList);
            assert_eq!(*loaded.graph, sample(), "{file}");
        }
    }

    #[test]
    fn edge_list_round_trips_file_ids() {
        let original = vec![10, 1 << 40, 7, 99, 5, 3];
        let names = VertexNames::remapped(original);
        let loaded = round_trip("g.txt", &sample(), &names, Format::EdgeList);
        // Dense ids may be renumbered; the edges between file ids must be the same.
        let file_edges = |g: &Graph, n: &VertexNames| {
            let mut e: Vec<(u64, u64)> = g.edges().map(|(u, v)| (n.file_id(u), n.file_id(v))).collect();
            e.sort_unstable();
            e
        };
        assert_eq!(file_edges(&loaded.graph, &loaded.names), file_edges(&sample(), &names));
    }

    #[test]
    fn other_formats_are_refused_before_creating_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.mtx");
        let e = write(&path, &sample(), &VertexNames::Dense, Format::MatrixMarket).unwrap_err().to_string();
        assert!(e.contains("only the gra and edge-list formats"), "{e}");
        assert!(!path.exists());
    }

    #[test]
    fn unwritable_path_is_named() {
        let e = write(Path::new("/nonexistent/dir/g.gra"), &sample(), &VertexNames::Dense, Format::Gra).unwrap_err();
        assert!(format!("{e:#}").contains("/nonexistent/dir/g.gra"), "{e:#}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn random_graphs_round_trip(n in 1usize..40, raw in prop::collection::vec((0u32..40, 0u32..40), 0..120)) {
            let edges: Vec<(u32, u32)> = raw.into_iter().map(|(u, v)| (u % n as u32, v % n as u32)).collect();
            let graph = Graph::from_edges(n, &edges).unwrap();
            let loaded = round_trip("r.gra", &graph, &VertexNames::Dense, Format::Gra);
            prop_assert_eq!(&*loaded.graph, &graph);
            if graph.num_edges() > 0 {
                let loaded = round_trip("r.txt.gz", &graph, &VertexNames::Dense, Format::EdgeList);
                prop_assert_eq!(&*loaded.graph, &graph);
            }
        }
    }
}
