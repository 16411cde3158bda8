//! grail-explorer: reachability on large directed graphs with the GRAIL index.
//!
//! The library holds the whole engine; `main.rs` only dispatches to [`cli`].
//! - [`graph`]: CSR graphs, file formats, SCC condensation, statistics, generators.
//! - [`index`]: GRAIL labels (orders, the labeler contract, the DFS and the BFS pipeline, save/load).
//! - [`backend`]: which labeler runs (and the GPU-to-CPU fallback); above `index` and `gpu`.
//! - [`query`]: the query rules, label-guided search, batches and the exact oracle.
//! - [`exact`]: exact engines without labels: direction-optimising BFS, transitive closure.
//! - [`exact_run`]: runs an exact engine on the CPU or the GPU (never silently the other).
//! - [`exceptions`]: false positives of labels over every pair, counted exactly.
//! - [`draw`]: pictures of the graph, its DFS trees, labels and searches (SVG, DOT, terminal).
//! - [`tui`]: the terminal explorer.

pub mod backend;
pub mod cli;
pub mod constants;
pub mod draw;
pub mod exact;
pub mod exact_run;
pub mod exceptions;
pub mod format;
pub mod fuzzing;
pub mod gpu;
pub mod graph;
pub mod index;
pub mod mix;
mod prefetch;
pub mod query;
pub mod rng;
pub mod selftest;
pub mod system;
pub mod telemetry;
pub mod tui;
pub mod workspace;
