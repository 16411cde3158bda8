//! A graph as a file gave it.

use super::io::Format;
use super::{Graph, VertexNames};
use std::path::PathBuf;

/// A graph as read from a file: the (possibly cyclic) graph on dense ids `0..n`, the ids the file
/// used (kept for display and for queries), and where it came from.
#[derive(Clone, Debug)]
pub struct LoadedGraph {
    pub graph: std::sync::Arc<Graph>,
    pub names: VertexNames,
    pub format: Format,
    pub path: PathBuf,
}
