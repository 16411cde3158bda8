//! The engine of grail-explorer: reachability on large directed graphs with the GRAIL index, on
//! the CPU. No terminal, no GPU: the `grail` package builds its back ends, its command line and its
//! explorer on top, and its `Index` is the front door most users want.
//!
//! - [`graph`]: CSR graphs, file formats, SCC condensation, statistics, generators.
//! - [`index`]: GRAIL labels (orders, the labeler contract, the DFS and the BFS pipeline, save/load).
//! - [`query`]: the query rules, label-guided search, batches and the exact oracle.
//! - [`exact`]: exact engines without labels: direction-optimising BFS, transitive closure.
//! - [`exceptions`]: false positives of labels over every pair, counted exactly.
//! - [`weighted`]: weighted shortest paths: Dijkstra, delta-stepping, all pairs (Floyd-Warshall).
//! - [`draw`]: pictures of the graph, its DFS trees, labels and searches (SVG, DOT, terminal).
//! - [`telemetry`]: the events every labeler reports (phases, queues, memory) and their sinks.
//! - [`workspace`]: a loaded graph with its condensation, the start of every front end.
//!
//! Every fallible call returns [`Result`], whose [`Error`] says what went wrong (a file, a line, a
//! parameter, memory, a cancellation) and keeps its cause as its source.

#![warn(missing_docs)]

pub mod constants;
mod disjoint;
pub mod draw;
pub mod dynamic;
mod error;
pub mod exact;
pub mod exceptions;
pub mod format;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod graph;
pub mod index;
pub mod mix;
mod prefetch;
pub mod query;
pub mod rng;
pub mod system;
pub mod telemetry;
pub mod weighted;
pub mod workspace;

// The types most callers name, at the root.
pub use error::{Cancel, Error, Result, is_cancelled};
pub use graph::{Graph, LoadedGraph, VertexNames};
pub use index::{Labels, Order};
pub use query::{Decision, Engine, Outcome, QueryIndex, Rule, RuleSet};
pub use telemetry::Backend;
pub use workspace::Workspace;
