//! All-pairs shortest distances on the GPU (`kernels/apsp.cu`): Floyd-Warshall naive (a launch
//! per pivot over the whole matrix) and blocked (three phases per pivot tile: the diagonal tile,
//! the pivot row and column, the rest, each tile in shared memory), and near-far from every source
//! on the resident graph. Each returns the matrix of [`crate::weighted::apsp`], which it is
//! tested against. Floyd-Warshall's matrix is checked against the device's free memory before
//! anything is allocated.

use super::context::Gpu;
use super::kernels::apsp::{ApspFwCross, ApspFwDiagonal, ApspFwPivot, ApspFwRest};
use super::memory::Ledger;
use super::sssp::DeviceSssp;
use crate::constants::BLOCK_THREADS;
use crate::graph::WeightedGraph;
use crate::weighted::apsp::{DistanceMatrix, adjacency_matrix, memory_need};
use crate::weighted::delta::near_far_delta;
use crate::weighted::{ApspMethod, SsspEngine};
use anyhow::{Result, bail};
use cudarc::driver::{CudaSlice, LaunchConfig};

/// The side of a tile of the blocked kernels (their `APSP_TILE`).
const TILE: u32 = 32;

/// Fails, with both figures, when the matrix of `n` vertices does not fit the device's free memory.
pub fn check_fits(gpu: &Gpu, n: usize) -> Result<()> {
    let (free, _) = gpu.memory()?;
    Ok(memory_need(n).check_task(
        Some(free),
        &format!("the GPU ({})", gpu.info.name),
        "all-pairs shortest paths",
        "`grail sssp GRAPH SRC` gives one source's distances in memory proportional to the graph",
    )?)
}

/// The matrix of `graph` by `method` (a GPU method), after checking that Floyd-Warshall's matrix
/// fits the device (near-far from every source holds the graph there and one row at a time).
pub fn run(gpu: &Gpu, graph: &WeightedGraph, method: ApspMethod) -> Result<DistanceMatrix> {
    let n = graph.num_vertices();
    if method != ApspMethod::GpuSsspAll {
        check_fits(gpu, n)?;
    }
    if n == 0 {
        return Ok(DistanceMatrix { n, values: Vec::new() });
    }
    match method {
        ApspMethod::GpuFw | ApspMethod::GpuFwBlocked => floyd_warshall(gpu, graph, method),
        ApspMethod::GpuSsspAll => {
            let mut device = DeviceSssp::new(gpu, graph, SsspEngine::GpuNearFar, near_far_delta(graph))?;
            let mut values = Vec::with_capacity(n * n);
            for src in 0..n as u32 {
                values.extend(device.run(src)?.dist);
            }
            Ok(DistanceMatrix { n, values })
        }
        cpu => bail!("{} is not a GPU method", cpu.name()),
    }
}

fn floyd_warshall(gpu: &Gpu, graph: &WeightedGraph, method: ApspMethod) -> Result<DistanceMatrix> {
    let n = graph.num_vertices();
    let nn = n as u32;
    let stream = gpu.stream.clone();
    let mut ledger = Ledger::default();
    let mut d: CudaSlice<f64> = ledger.upload(gpu, "distance matrix", &adjacency_matrix(graph).values)?;
    if method == ApspMethod::GpuFw {
        let pivot = ApspFwPivot::load(gpu)?;
        let cells = (n as u64) * (n as u64);
        let blocks = cells.div_ceil(BLOCK_THREADS as u64).clamp(1, gpu.multiprocessors()? as u64 * 16) as u32;
        let config = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 };
        for k in 0..nn {
            // SAFETY: grid-stride over the n * n cells of d (n * n entries); k < n.
            unsafe { pivot.launch(&stream, config, &mut d, nn, k) }?;
        }
    } else {
        let (diagonal, cross, rest) = (ApspFwDiagonal::load(gpu)?, ApspFwCross::load(gpu)?, ApspFwRest::load(gpu)?);
        let tiles = nn.div_ceil(TILE);
        let block = (TILE, TILE, 1);
        let config = |grid_dim| LaunchConfig { grid_dim, block_dim: block, shared_mem_bytes: 0 };
        for kb in 0..tiles {
            // SAFETY (all three): blocks of TILE x TILE threads, the shape the kernels' shared
            // tiles assume; tile indices are < tiles, and every cell is checked against n before
            // d (n * n entries) is read or written. The phases run in order on the stream.
            unsafe { diagonal.launch(&stream, config((1, 1, 1)), &mut d, nn, kb) }?;
            unsafe { cross.launch(&stream, config((tiles, 2, 1)), &mut d, nn, kb) }?;
            unsafe { rest.launch(&stream, config((tiles, tiles, 1)), &mut d, nn, kb) }?;
        }
    }
    let values = stream.clone_dtoh(&d)?;
    Ok(DistanceMatrix { n, values })
}
