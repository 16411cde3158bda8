//! The shortest-path engines a user picks by name (`grail sssp --engine`, `grail apsp --method`).
//!
//! GPU engines slot in here: a variant each, `is_gpu` true for it, and a chooser above `gpu` (as
//! `exact_run` does for BFS) that runs it or refuses with the reason; [`crate::weighted::run_sssp`]
//! and [`crate::weighted::apsp::run`] run the CPU engines, which every GPU engine is checked
//! against. The names are on their own so that naming an engine needs no engine.

use serde::Serialize;

/// A single-source shortest-path engine (`grail sssp --engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum SsspEngine {
    /// One core: a binary heap with lazy deletion (the reference).
    Dijkstra,
    /// All cores: delta-stepping (buckets of width delta; light edges relaxed in rounds until the
    /// bucket settles, then heavy edges once).
    Delta,
}

impl SsspEngine {
    /// Every engine, the reference first.
    pub const ALL: [SsspEngine; 2] = [SsspEngine::Dijkstra, SsspEngine::Delta];

    /// The name `--engine` takes.
    pub fn name(self) -> &'static str {
        match self {
            SsspEngine::Dijkstra => "dijkstra",
            SsspEngine::Delta => "delta",
        }
    }

    /// True for the engines that run on the GPU (none yet).
    pub fn is_gpu(self) -> bool {
        false
    }
}

/// An all-pairs method (`grail apsp --method`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum ApspMethod {
    /// Dijkstra from every source, the sources spread over every core.
    SsspAll,
    /// Floyd-Warshall, one pivot at a time, the rows of each pivot step spread over every core.
    Fw,
    /// Floyd-Warshall in tiles of 64 × 64, three phases per pivot block (the diagonal tile, the
    /// pivot row and column, the rest), the tiles of each phase spread over every core.
    FwBlocked,
}

impl ApspMethod {
    /// Every method.
    pub const ALL: [ApspMethod; 3] = [ApspMethod::SsspAll, ApspMethod::Fw, ApspMethod::FwBlocked];

    /// The name `--method` takes.
    pub fn name(self) -> &'static str {
        match self {
            ApspMethod::SsspAll => "sssp-all",
            ApspMethod::Fw => "fw",
            ApspMethod::FwBlocked => "fw-blocked",
        }
    }

    /// True for the methods that run on the GPU (none yet).
    pub fn is_gpu(self) -> bool {
        false
    }
}
