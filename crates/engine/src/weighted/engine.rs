//! The shortest-path engines a user picks by name (`grail sssp --engine`, `grail apsp --method`).
//!
//! The GPU engines are variants here too, `is_gpu` true for them; `crate::weighted_run` (above
//! `gpu`, as `exact_run` is for BFS) runs them or refuses with the probe's reason;
//! [`crate::weighted::run_sssp`] and [`crate::weighted::apsp::run`] run the CPU engines, which
//! every GPU engine is checked against. The names are on their own so that naming an engine needs
//! no engine.

use serde::Serialize;

/// A single-source shortest-path engine (`grail sssp --engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum SsspEngine {
    /// One core: a binary heap with lazy deletion (the reference).
    Dijkstra,
    /// All cores: delta-stepping (buckets of width delta; light edges relaxed in rounds until the
    /// bucket settles, then heavy edges once).
    Delta,
    /// GPU: Harish and Narayanan's two kernels per iteration over every vertex (relax the masked
    /// vertices into an updating cost by atomic minimum; copy improvements and mask them).
    GpuTwoPhase,
    /// GPU: near-far (delta-stepping with a near queue and a far pile): an iteration relaxes its
    /// queue's edges only.
    GpuNearFar,
}

impl SsspEngine {
    /// Every engine, the reference first.
    pub const ALL: [SsspEngine; 4] =
        [SsspEngine::Dijkstra, SsspEngine::Delta, SsspEngine::GpuTwoPhase, SsspEngine::GpuNearFar];

    /// The name `--engine` takes.
    pub fn name(self) -> &'static str {
        match self {
            SsspEngine::Dijkstra => "dijkstra",
            SsspEngine::Delta => "delta",
            SsspEngine::GpuTwoPhase => "gpu-two-phase",
            SsspEngine::GpuNearFar => "gpu-near-far",
        }
    }

    /// True for the engines that run on the GPU.
    pub fn is_gpu(self) -> bool {
        matches!(self, SsspEngine::GpuTwoPhase | SsspEngine::GpuNearFar)
    }

    /// True for the engines that use a bucket width (`--delta`): delta-stepping's buckets and
    /// near-far's threshold step.
    pub fn takes_delta(self) -> bool {
        matches!(self, SsspEngine::Delta | SsspEngine::GpuNearFar)
    }
}

/// An all-pairs method (`grail apsp --method`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum ApspMethod {
    /// Dijkstra from every source, the sources spread over every core.
    SsspAll,
    /// Floyd-Warshall, one pivot at a time, the rows of each pivot step spread over every core.
    Fw,
    /// Floyd-Warshall in tiles of 64 × 64, three phases per pivot block (the diagonal tile, the
    /// pivot row and column, the rest), the tiles of each phase spread over every core.
    FwBlocked,
    /// GPU: Floyd-Warshall, a launch per pivot over the whole matrix.
    GpuFw,
    /// GPU: Floyd-Warshall in tiles of 32 × 32 in shared memory, three phases per pivot tile.
    GpuFwBlocked,
    /// GPU: near-far from every source, the graph uploaded once.
    GpuSsspAll,
}

impl ApspMethod {
    /// Every method, the CPU's first.
    pub const ALL: [ApspMethod; 6] = [
        ApspMethod::SsspAll,
        ApspMethod::Fw,
        ApspMethod::FwBlocked,
        ApspMethod::GpuFw,
        ApspMethod::GpuFwBlocked,
        ApspMethod::GpuSsspAll,
    ];

    /// The name `--method` takes.
    pub fn name(self) -> &'static str {
        match self {
            ApspMethod::SsspAll => "sssp-all",
            ApspMethod::Fw => "fw",
            ApspMethod::FwBlocked => "fw-blocked",
            ApspMethod::GpuFw => "gpu-fw",
            ApspMethod::GpuFwBlocked => "gpu-fw-blocked",
            ApspMethod::GpuSsspAll => "gpu-sssp-all",
        }
    }

    /// True for the methods that run on the GPU.
    pub fn is_gpu(self) -> bool {
        matches!(self, ApspMethod::GpuFw | ApspMethod::GpuFwBlocked | ApspMethod::GpuSsspAll)
    }
}
