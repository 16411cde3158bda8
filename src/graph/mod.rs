//! Graphs: the CSR layout, readers and writers, condensation, statistics and generators.

pub mod csr;
pub mod fingerprint;
pub mod generators;
pub mod io;
pub mod names;
pub mod scc;
pub mod stats;
pub mod topo;

pub use csr::{Csr, Graph};
pub use names::VertexNames;

use std::path::PathBuf;

/// A graph as read from a file: the (possibly cyclic) graph on dense ids `0..n`, the ids the file
/// used (kept for display and for queries), and where it came from.
#[derive(Clone, Debug)]
pub struct LoadedGraph {
    pub graph: std::sync::Arc<Graph>,
    pub names: VertexNames,
    pub format: io::Format,
    pub path: PathBuf,
}
