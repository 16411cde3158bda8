//! An opened graph, ready for labeling and queries: the file as read, its condensation, and how long
//! each step took. The command line, the explorer and `grail::Index` all start here.

use crate::graph::scc::{self, Condensation};
use crate::graph::{Graph, LoadedGraph, VertexNames, io, vertex_path};
use crate::{Error, Result};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// The bundled sample graph's name, as `grail` with no arguments shows it.
pub const BUNDLED_GRAPH_NAME: &str = "sample-graphs/kegg.gra";

/// A graph file opened for work: the graph as loaded and its condensation, the DAG that labels and
/// queries run on.
#[derive(Clone)]
pub struct Workspace {
    /// The graph as the file gave it, with its ids.
    pub loaded: LoadedGraph,
    /// Its strongly connected components and the DAG between them.
    pub condensation: Condensation,
    /// Seconds to read, decompress and parse the file (CSR included).
    pub load_seconds: f64,
    /// Seconds to find strongly connected components and build the DAG.
    pub condense_seconds: f64,
}

/// A failed load, named once: the readers' errors already carry the file (and line), so the path
/// is added only where the cause does not name it.
fn load_error(error: Error, path: &Path) -> Error {
    let shown = path.display().to_string();
    if format!("{error:#}").contains(&shown) {
        error.context("cannot load the graph")
    } else {
        error.context(format!("cannot load graph {shown}"))
    }
}

impl Workspace {
    /// Loads and condenses a graph file. A `.grail` file holds its condensation: it is mapped and
    /// checked, nothing is recomputed (`condense_seconds` is then 0).
    pub fn open(path: &Path, format: Option<io::Format>) -> Result<Workspace> {
        Self::open_watched(path, format, io::Watch::none())
    }

    /// [`Workspace::open`], reporting the bytes read to `watch` and stopping when it is cancelled:
    /// while reading, and between reading and condensing (the error is then [`Cancel::Load`](crate::Cancel::Load)).
    pub fn open_watched(path: &Path, format: Option<io::Format>, watch: io::Watch) -> Result<Workspace> {
        Self::open_in_stages(path, format, watch, &|_| {})
    }

    /// [`Workspace::open_watched`], telling `stage` what runs once the file is read (the steps
    /// after the last byte, which can take most of a large file's load).
    pub fn open_in_stages(
        path: &Path,
        format: Option<io::Format>,
        watch: io::Watch,
        stage: &dyn Fn(&str),
    ) -> Result<Workspace> {
        let start = Instant::now();
        if format == Some(io::Format::Grail) || io::binary::is_binary(path) {
            let (loaded, condensation) = io::binary::open(path).map_err(|e| load_error(e, path))?;
            let load_seconds = start.elapsed().as_secs_f64();
            watch.check()?;
            return Ok(Workspace { loaded, condensation, load_seconds, condense_seconds: 0.0 });
        }
        let loaded = io::load_watched(path, format, watch).map_err(|e| load_error(e, path))?;
        let load_seconds = start.elapsed().as_secs_f64();
        watch.check()?;
        stage("finding the strongly connected components");
        Ok(Self::from_loaded(loaded, load_seconds))
    }

    /// Wraps an already loaded graph (generators, tests).
    pub fn from_loaded(loaded: LoadedGraph, load_seconds: f64) -> Workspace {
        let start = Instant::now();
        let condensation = scc::condense(&loaded.graph);
        let condense_seconds = start.elapsed().as_secs_f64();
        Workspace { loaded, condensation, load_seconds, condense_seconds }
    }

    /// A graph made in memory (generators, tests, benchmarks), its vertices numbered densely,
    /// named `name` where a file's path would be.
    pub fn of_graph(graph: Graph, name: &str) -> Workspace {
        let path = name.into();
        let loaded = LoadedGraph {
            graph: Arc::new(graph),
            names: VertexNames::Dense,
            format: io::Format::EdgeList,
            path,
            report: None,
        };
        Self::from_loaded(loaded, 0.0)
    }

    /// The bundled sample graph (kegg, embedded in the library, so it opens from any directory).
    pub fn bundled() -> Result<Workspace> {
        const NAME: &str = BUNDLED_GRAPH_NAME;
        const BYTES: &[u8] = include_bytes!("../../../sample-graphs/kegg.gra");
        let start = Instant::now();
        let (graph, names, format, report) = io::parse(BYTES, NAME, None)?;
        let loaded = LoadedGraph { graph: graph.into(), names, format, path: NAME.into(), report: Some(report) };
        Ok(Workspace::from_loaded(loaded, start.elapsed().as_secs_f64()))
    }

    /// The DAG that labels and searches work on.
    pub fn dag(&self) -> &Arc<Graph> {
        &self.condensation.dag
    }

    /// A path from `u` to `v` in the graph as loaded, for a path `dag_path` of components between
    /// theirs that a search found: every step an edge of the file (see `graph::vertex_path`).
    pub fn vertex_path(&self, u: u32, v: u32, dag_path: &[u32]) -> Option<Vec<u32>> {
        vertex_path::through_components(&self.loaded.graph, &self.condensation.component, dag_path, u, v)
    }

    /// The dense id of a vertex named by its file id, with an error a user understands.
    pub fn resolve(&self, file_id: u64) -> Result<u32> {
        self.loaded.resolve(file_id)
    }

    /// The dense id of a vertex as a user typed it (its name in a named graph, its file id
    /// otherwise), with an error a user understands: an unknown name comes with the nearest names.
    pub fn vertex(&self, typed: &str) -> Result<u32> {
        self.loaded.vertex(typed)
    }
}
