//! Writers for every format the readers read (gzip when the path ends in `.gz`), each the exact
//! inverse of its reader: what is written reads back as the same graph, in the same format.

use super::Format;
use super::atomic_write::write_atomically;
use super::edge_list::WRITER_COMMENT;
use crate::graph::{Graph, VertexNames, Weight, WeightedGraph};
use crate::{Error, Result};
use flate2::{Compression, write::GzEncoder};
use std::io::{BufWriter, Write};
use std::path::Path;

/// Writes `graph` in `format`, gzip when the path ends in `.gz`: the whole file or, on any failure,
/// the old one as it was ([`write_atomically`]).
///
/// Only the edge list keeps the file's vertex ids (`names`): `src dst` lines after a comment
/// `# grail-explorer: N vertices, M edges` that lets the reader restore isolated vertices. The other
/// formats number vertices densely (their readers do too): `.gra` (`graph_for_greach` header,
/// `u: v1 v2 ... #` lines), Matrix Market (`pattern general`, 1-based `row col` entries), the
/// weighted format (`n m directed`, then `src dst 1`) and the plain header format (`n m`, then
/// `src dst`).
///
/// `.grail` ([`Format::Grail`]) holds the condensation too, so it is computed here.
pub fn write(path: &Path, graph: &Graph, names: &VertexNames, format: Format) -> Result<()> {
    write_any(path, graph, names, None, format)
}

/// [`write`](fn@write) with one weight per edge, in the order of the children CSR, in a format that holds
/// weights ([`Format::holds_weights`]): the weighted format's third column, a Matrix Market `real
/// general` matrix's values, a `.grail` file's weights section.
pub fn write_with_weights(
    path: &Path,
    graph: &Graph,
    names: &VertexNames,
    weights: &[Weight],
    format: Format,
) -> Result<()> {
    if !format.holds_weights() {
        return Err(Error::InvalidInput(format!("{}: a {format} file holds no weights", path.display())));
    }
    super::binary::check_weight_count(path, graph, weights)?;
    write_any(path, graph, names, Some(weights), format)
}

/// Writes a weighted graph with its weights in `format` ([`write_with_weights`]); each weight is
/// written as the shortest decimal that reads back as the same `f64`.
pub fn write_weighted(path: &Path, graph: &WeightedGraph, format: Format) -> Result<()> {
    write_with_weights(path, graph.graph(), &graph.loaded.names, graph.weights(), format)
}

fn write_any(
    path: &Path,
    graph: &Graph,
    names: &VertexNames,
    weights: Option<&[Weight]>,
    format: Format,
) -> Result<()> {
    let gzip = path.extension().is_some_and(|e| e == "gz");
    if format == Format::Grail {
        if gzip {
            let path = path.display();
            return Err(Error::InvalidInput(format!(
                "{path}: .grail files are not compressed (they are memory-mapped)"
            )));
        }
        // Cloning a graph shares its arrays.
        let condensation = crate::graph::scc::condense(&std::sync::Arc::new(graph.clone()));
        return super::binary::save(path, graph, names, &condensation, weights);
    }
    write_atomically(path, |file| {
        if gzip {
            let mut out = BufWriter::with_capacity(1 << 16, GzEncoder::new(file, Compression::default()));
            emit(&mut out, graph, names, weights, format)?;
            out.into_inner().map_err(|e| e.into_error())?.finish()?.flush()
        } else {
            let mut out = BufWriter::with_capacity(1 << 16, file);
            emit(&mut out, graph, names, weights, format)?;
            out.flush()
        }
    })
}

fn emit(
    out: &mut impl Write,
    graph: &Graph,
    names: &VertexNames,
    weights: Option<&[Weight]>,
    format: Format,
) -> std::io::Result<()> {
    let (n, m) = (graph.num_vertices(), graph.num_edges());
    match format {
        Format::Gra => emit_gra(out, graph),
        Format::EdgeList => emit_edge_list(out, graph, names),
        Format::MatrixMarket => {
            let field = if weights.is_some() { "real" } else { "pattern" };
            writeln!(out, "%%MatrixMarket matrix coordinate {field} general\n{n} {n} {m}")?;
            emit_edges(out, graph, 1, weights.map(Column::Each).unwrap_or(Column::None))
        }
        Format::Weighted => {
            writeln!(out, "{n} {m} directed")?;
            emit_edges(out, graph, 0, weights.map(Column::Each).unwrap_or(Column::Unit))
        }
        Format::Header => {
            writeln!(out, "{n} {m}")?;
            emit_edges(out, graph, 0, Column::None)
        }
        Format::Named => emit_named(out, graph, names),
        Format::Grail => unreachable!("written by binary::save"),
    }
}

/// The weight column of `src dst` lines.
#[derive(Clone, Copy)]
enum Column<'a> {
    /// No column.
    None,
    /// `1` on every line.
    Unit,
    /// Each edge's weight, in the order of the children CSR.
    Each(&'a [Weight]),
}

/// `src dst` per edge on dense ids plus `base`, then the weight column.
fn emit_edges(out: &mut impl Write, graph: &Graph, base: u64, column: Column) -> std::io::Result<()> {
    let mut number = itoa::Buffer::new();
    for (i, (u, v)) in graph.edges().enumerate() {
        out.write_all(number.format(u as u64 + base).as_bytes())?;
        out.write_all(b" ")?;
        out.write_all(number.format(v as u64 + base).as_bytes())?;
        match column {
            Column::None => {}
            Column::Unit => out.write_all(b" 1")?,
            Column::Each(weights) => write!(out, " {}", weights[i])?,
        }
        out.write_all(b"\n")?;
    }
    Ok(())
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
    if names.table().is_some() {
        return emit_named(out, graph, names);
    }
    let mut number = itoa::Buffer::new();
    let (n, m) = (graph.num_vertices() as u64, graph.num_edges() as u64);
    // Plain digits: the reader takes the count back from this line.
    let noun = |k: u64, one: &'static str, many: &'static str| if k == 1 { one } else { many };
    writeln!(out, "{WRITER_COMMENT} {n} {}, {m} {}", noun(n, "vertex", "vertices"), noun(m, "edge", "edges"))?;
    for (u, v) in graph.edges() {
        out.write_all(number.format(names.file_id(u)).as_bytes())?;
        out.write_all(b" ")?;
        out.write_all(number.format(names.file_id(v)).as_bytes())?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// A header `source,target`, then `source,target` per edge with each vertex's name (the CSV writer
/// quotes those that hold a comma, a quote or spaces at either end).
fn emit_named(out: &mut impl Write, graph: &Graph, names: &VertexNames) -> std::io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(["source", "target"])?;
    for (u, v) in graph.edges() {
        csv.write_record([names.plain(u), names.plain(v)])?;
    }
    csv.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::WeightOrigin;
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
    fn weighted_graphs_round_trip_with_their_weights() {
        let edges = vec![(0, 1, 0.1), (1, 2, 0.0), (2, 0, 1e-7), (0, 2, 3.0), (3, 1, 12345.5)];
        let graph = WeightedGraph::from_edges(5, edges, "w").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let formats = [Format::Weighted, Format::Weighted, Format::MatrixMarket, Format::MatrixMarket, Format::Grail];
        for (file, format) in ["w.txt", "w.txt.gz", "w.mtx", "w.mtx.gz", "w.grail"].into_iter().zip(formats) {
            let path = dir.path().join(file);
            write_weighted(&path, &graph, format).unwrap();
            let back = super::super::load_weighted(&path, None).unwrap();
            assert_eq!(back.num_vertices(), 5, "{file}");
            assert_eq!(*back.graph(), *graph.graph(), "{file}");
            assert_eq!(back.weights(), graph.weights(), "{file}");
            assert_eq!((back.origin, back.loaded.format), (WeightOrigin::File, format), "{file}");
        }
        let e = write_weighted(&dir.path().join("w.gra"), &graph, Format::Gra).unwrap_err().to_string();
        assert!(e.ends_with("w.gra: a gra file holds no weights"), "{e}");
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

    /// The formats whose readers number vertices themselves (every one but the edge list).
    const DENSE: [Format; 4] = [Format::Gra, Format::MatrixMarket, Format::Weighted, Format::Header];

    #[test]
    fn every_format_round_trips_plain_and_gzipped() {
        for format in DENSE {
            for file in [format!("g.{format}"), format!("g.{format}.gz")] {
                let loaded = round_trip(&file, &sample(), &VertexNames::Dense, format);
                assert_eq!(*loaded.graph, sample(), "{file}");
            }
        }
    }

    #[test]
    fn every_format_keeps_a_graph_without_edges() {
        let empty = Graph::from_edges(3, &[]).unwrap();
        for format in DENSE {
            let loaded = round_trip(&format!("e.{format}"), &empty, &VertexNames::Dense, format);
            assert_eq!(*loaded.graph, empty, "{format}");
        }
    }

    #[test]
    fn formats_read_back_with_their_own_conventions() {
        let dir = tempfile::tempdir().unwrap();
        let text = |format: Format| {
            let path = dir.path().join(format!("s.{format}"));
            write(&path, &sample(), &VertexNames::Dense, format).unwrap();
            String::from_utf8(read_bytes(&path).unwrap()).unwrap()
        };
        assert!(
            text(Format::MatrixMarket).starts_with("%%MatrixMarket matrix coordinate pattern general\n6 6 6\n1 2\n")
        );
        assert!(text(Format::Weighted).starts_with("6 6 directed\n0 1 1\n"));
        assert!(text(Format::Header).starts_with("6 6\n0 1\n"));
        // Matrix Market is 1-based: its reader names vertex 0 by file id 1.
        let loaded = load(&dir.path().join("s.matrix-market"), None).unwrap();
        assert_eq!(loaded.names, VertexNames::Offset(1));
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
            for format in DENSE {
                let loaded = round_trip(&format!("r.{format}"), &graph, &VertexNames::Dense, format);
                prop_assert_eq!(&*loaded.graph, &graph, "{}", format);
            }
            if graph.num_edges() > 0 {
                let loaded = round_trip("r.txt.gz", &graph, &VertexNames::Dense, Format::EdgeList);
                prop_assert_eq!(&*loaded.graph, &graph);
            }
        }
    }
}
