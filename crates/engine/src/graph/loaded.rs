//! A graph as a file gave it.

use super::io::Format;
use super::load_report::LoadReport;
use super::names::{UnknownVertex, suggestion};
use super::{Graph, VertexNames};
use crate::{Error, Result};
use std::path::PathBuf;

/// A graph as read from a file: the (possibly cyclic) graph on dense ids `0..n`, the ids the file
/// used (kept for display and for queries), where it came from and what reading it did.
#[derive(Clone, Debug)]
pub struct LoadedGraph {
    /// The graph on dense ids `0..n`, cycles and all.
    pub graph: std::sync::Arc<Graph>,
    /// How the file's ids map to the dense ids.
    pub names: VertexNames,
    /// The format the file was read as.
    pub format: Format,
    /// The file it was read from (or the name of a graph made in memory).
    pub path: PathBuf,
    /// What the reader did to the text; None for `.grail` files (they store the graph already
    /// cleaned, not the text it came from) and graphs made in memory.
    pub report: Option<LoadReport>,
}

impl LoadedGraph {
    /// The dense id of a vertex named by its file id, with an error a user understands.
    pub fn resolve(&self, file_id: u64) -> Result<u32> {
        let n = self.graph.num_vertices();
        self.names.resolve(file_id, n).ok_or_else(|| self.unknown(&UnknownVertex::NoSuchId(file_id)))
    }

    /// The dense id of a vertex as a user typed it (its name in a named graph, its file id
    /// otherwise), with an error a user understands: an unknown name comes with the nearest names.
    pub fn vertex(&self, typed: &str) -> Result<u32> {
        let n = self.graph.num_vertices();
        self.names.find(typed, n).map_err(|e| self.unknown(&e))
    }

    /// Why a typed vertex is not one of this graph's, naming the file.
    fn unknown(&self, why: &UnknownVertex) -> Error {
        let n = crate::format::plural(self.graph.num_vertices() as u64, "vertex", "vertices");
        let file = self.path.display();
        Error::InvalidInput(match why {
            UnknownVertex::NoSuchId(id) => {
                let ids = self.names.describe_ids(self.graph.num_vertices());
                format!("vertex {id} is not in {file}: {ids} ({n})")
            }
            UnknownVertex::NotAnId(typed) => {
                let ids = self.names.describe_ids(self.graph.num_vertices());
                format!("`{typed}` is not a vertex of {file}: {ids} ({n})")
            }
            UnknownVertex::NoSuchName { name, nearest, examples } => {
                format!("no vertex is named `{name}` in {file} ({n}){}", suggestion(name, nearest, examples))
            }
        })
    }
}
