//! A graph as a file gave it.

use super::io::Format;
use super::{Graph, VertexNames};
use std::path::PathBuf;

/// A graph as read from a file: the (possibly cyclic) graph on dense ids `0..n`, the ids the file
/// used (kept for display and for queries), and where it came from.
#[derive(Clone, Debug)]
pub struct LoadedGraph {
    /// The graph on dense ids `0..n`, cycles and all.
    pub graph: std::sync::Arc<Graph>,
    /// How the file's ids map to the dense ids.
    pub names: VertexNames,
    /// The format the file was read as.
    pub format: Format,
    /// The file it was read from.
    pub path: PathBuf,
}
