//! Graphs: the CSR layout, readers and writers, condensation, statistics and generators.

pub mod csr;
pub mod cycles;
pub mod dominance;
pub mod every_path;
pub mod fingerprint;
pub(crate) mod firsts;
pub mod generators;
pub mod io;
pub mod load_report;
mod loaded;
pub mod name_table;
pub mod names;
pub mod scc;
pub(crate) mod skipped_lines;
pub mod slab;
pub mod stats;
pub mod subgraph;
pub mod topo;
pub mod vertex_path;
pub mod weak;
pub mod weighted_graph;

pub use csr::{Csr, Graph};
pub use loaded::LoadedGraph;
pub use names::VertexNames;
pub use weighted_graph::{Weight, WeightOrigin, WeightedGraph};
