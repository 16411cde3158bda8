//! The names of the exact engines a user picks (`--engine`, `--method`), CPU and GPU.

use serde::Serialize;

/// A BFS engine (`grail bfs --engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum BfsEngine {
    /// CPU, all cores: top-down while the frontier is small, bottom-up (children look for a parent in
    /// the frontier) while it is large (Beamer's direction optimisation).
    Cpu,
    /// CPU, all cores, top-down only (the baseline the direction optimisation is measured against).
    CpuTopDown,
    /// GPU: one thread per vertex per level over a level array (Harish and Narayanan).
    GpuVertex,
    /// GPU: a frontier queue appended to with atomics.
    GpuAtomic,
    /// GPU: a frontier queue built by a prefix sum over "discovered" flags.
    GpuScan,
    /// GPU: three queues by out-degree, a thread, a warp or a block per vertex (the labeling kernels' design).
    GpuBinned,
}

impl BfsEngine {
    /// Every engine, the CPU ones first.
    pub const ALL: [BfsEngine; 6] = [
        BfsEngine::Cpu,
        BfsEngine::CpuTopDown,
        BfsEngine::GpuVertex,
        BfsEngine::GpuAtomic,
        BfsEngine::GpuScan,
        BfsEngine::GpuBinned,
    ];

    /// True for the engines that run on the GPU.
    pub fn is_gpu(self) -> bool {
        !matches!(self, BfsEngine::Cpu | BfsEngine::CpuTopDown)
    }

    /// The name `--engine` takes, e.g. `gpu-binned`.
    pub fn name(self) -> &'static str {
        match self {
            BfsEngine::Cpu => "cpu",
            BfsEngine::CpuTopDown => "cpu-top-down",
            BfsEngine::GpuVertex => "gpu-vertex",
            BfsEngine::GpuAtomic => "gpu-atomic",
            BfsEngine::GpuScan => "gpu-scan",
            BfsEngine::GpuBinned => "gpu-binned",
        }
    }
}

/// A transitive-closure method (`grail closure --method`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum ClosureMethod {
    /// CPU: BFS from every vertex, 64 sources per word, one pass over the DAG per 512 sources.
    BitParallel,
    /// CPU: boolean matrix squaring, A ← A·A until nothing changes (log₂ of the longest path times).
    Squaring,
    /// CPU: Floyd-Warshall on bit rows, one pivot at a time (row i |= row k when i reaches k).
    FwNaive,
    /// CPU: Floyd-Warshall in pivot blocks of 256, three phases each (diagonal block, pivot rows, the rest).
    FwTiled,
    /// GPU: the bit-parallel BFS from every vertex, group by group (children first).
    GpuBitParallel,
    /// GPU: boolean matrix squaring.
    GpuSquaring,
    /// GPU: Floyd-Warshall, one launch per pivot (a thread per row and word).
    GpuFwNaive,
    /// GPU: the three-phase blocked Floyd-Warshall.
    GpuFwTiled,
}

impl ClosureMethod {
    /// Every method, the CPU ones first.
    pub const ALL: [ClosureMethod; 8] = [
        ClosureMethod::BitParallel,
        ClosureMethod::Squaring,
        ClosureMethod::FwNaive,
        ClosureMethod::FwTiled,
        ClosureMethod::GpuBitParallel,
        ClosureMethod::GpuSquaring,
        ClosureMethod::GpuFwNaive,
        ClosureMethod::GpuFwTiled,
    ];

    /// True for the methods that run on the GPU.
    pub fn is_gpu(self) -> bool {
        matches!(
            self,
            ClosureMethod::GpuBitParallel
                | ClosureMethod::GpuSquaring
                | ClosureMethod::GpuFwNaive
                | ClosureMethod::GpuFwTiled
        )
    }

    /// The name `--method` takes, e.g. `fw-tiled`.
    pub fn name(self) -> &'static str {
        match self {
            ClosureMethod::BitParallel => "bit-parallel",
            ClosureMethod::Squaring => "squaring",
            ClosureMethod::FwNaive => "fw-naive",
            ClosureMethod::FwTiled => "fw-tiled",
            ClosureMethod::GpuBitParallel => "gpu-bit-parallel",
            ClosureMethod::GpuSquaring => "gpu-squaring",
            ClosureMethod::GpuFwNaive => "gpu-fw-naive",
            ClosureMethod::GpuFwTiled => "gpu-fw-tiled",
        }
    }

    /// Bit matrices of n × n the method holds at once (squaring keeps the old and the new power).
    pub fn matrices(self) -> u64 {
        match self {
            ClosureMethod::Squaring | ClosureMethod::GpuSquaring => 2,
            _ => 1,
        }
    }
}
