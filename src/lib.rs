//! grail-explorer: reachability on large directed graphs with the GRAIL index, on the CPU and on
//! NVIDIA GPUs. The `grail` program is its command line and terminal explorer; this library is the
//! engine underneath.
//!
//! Most users need only [`Index`]: build it over a graph (cycles are fine), then ask.
//!
//! ```
//! use grail::{Index, Settings};
//!
//! // 0 → 1 → 2 → 1 (a cycle), and 3 → 2.
//! let index = Index::from_edges(4, &[(0, 1), (1, 2), (2, 1), (3, 2)], &Settings::default())?;
//! assert!(index.reaches(0, 2)?);
//! assert!(index.reaches(2, 1)?);
//! assert!(!index.reaches(2, 3)?);
//! assert_eq!(index.reaches_all(&[(3, 1), (1, 0)])?, [true, false]);
//!
//! // Why: the checks that ran, cheapest first, and the one that decided.
//! let why = index.explain(2, 3)?;
//! assert!(!why.reachable);
//! println!("{}: {}", why.rule, why.sentence);
//! # Ok::<(), grail::Error>(())
//! ```
//!
//! Files: [`Index::open`] reads every format `grail` reads (edge lists, `.gra`, Matrix Market,
//! gzip, `.grail`). The modules below are the parts, for those who need one step alone:
//! - [`graph`]: CSR graphs, file formats, SCC condensation, statistics, generators.
//! - [`index`]: GRAIL labels (orders, the labeler contract, the DFS and the BFS pipeline, save/load).
//! - [`backend`]: which labeler runs (and the GPU-to-CPU fallback); above `index` and `gpu`.
//! - [`query`]: the query rules, label-guided search, batches and the exact oracle.
//! - [`exact`]: exact engines without labels: direction-optimising BFS, transitive closure.
//! - [`exact_run`]: runs an exact engine on the CPU or the GPU (never silently the other).
//! - [`exceptions`]: false positives of labels over every pair, counted exactly.
//! - [`weighted`]: weighted shortest paths: Dijkstra, delta-stepping, all pairs (Floyd-Warshall).
//! - [`draw`]: pictures of the graph, its DFS trees, labels and searches (SVG, DOT, terminal).
//!
//! Cargo features, all on by default: `gpu` (the NVIDIA back end, loaded at run time), `tui` (the
//! explorer) and `cli` (the `grail` program). `--no-default-features` builds the engine alone.

#![warn(missing_docs)]

pub mod backend;
#[cfg(feature = "cli")]
mod cli;
mod error;
pub mod exact_run;
#[cfg(feature = "gpu")]
pub mod gpu;
mod reachability;
#[cfg(feature = "gpu")]
pub mod selftest;
#[cfg(feature = "tui")]
mod tui;
pub mod weighted_run;

// The engine's modules, under the names they have always had here.
pub use grail_engine::{
    constants, draw, dynamic, exact, exceptions, format, graph, index, mix, query, rng, system, telemetry, weighted,
    workspace,
};

pub use error::Error;
/// The engine's typed error, the source of [`Error::Load`] and [`Error::InvalidGraph`], to match on.
pub use grail_engine::Error as EngineError;
// The engine's types an `Index` user names: its settings' back end, order and rules, its labels.
pub use grail_engine::{Backend, Graph, Labels, Order, Rule, RuleSet};
pub use reachability::{Explanation, Index, Settings, Timings};

/// The `grail` program: reads the command line and runs the command (the explorer when none is
/// given); the exit status says how it went (`grail --help` lists the codes).
#[cfg(feature = "cli")]
pub fn main() -> std::process::ExitCode {
    cli::main()
}

/// Programs for the pseudo-terminal tests; not part of the API.
#[cfg(all(feature = "tui", feature = "cli"))]
#[doc(hidden)]
pub mod test_fixtures {
    pub use crate::tui::fixtures::*;
}
