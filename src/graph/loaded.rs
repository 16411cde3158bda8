//! A graph as a file gave it.

use super::io::Format;
use super::load_report::LoadReport;
use super::{Graph, VertexNames};
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
