//! The transitive closure of a condensation on the GPU (`kernels/closure.cu`): the bit-parallel
//! BFS from every vertex (group by group), boolean matrix squaring, and Floyd-Warshall, naive (a
//! launch per pivot) and blocked. Each returns the reflexive bit matrix of [`crate::exact::closure`],
//! which it is tested against. The device's free memory is checked before anything is allocated.

use super::context::Gpu;
use super::kernels::BufferMut;
use super::kernels::closure::{
    ClosureDiagonal, ClosureHeight, ClosureSquare, FwDiagonal, FwNaivePivot, FwPivotRows, FwSelectors, FwUpdate,
};
use super::memory::Ledger;
use crate::constants::BLOCK_THREADS;
use crate::exact::closure::memory_need;
use crate::exact::heights::HeightOrder;
use crate::exact::phases::PhaseClock;
use crate::exact::{BitMatrix, ClosureMethod};
use crate::graph::Graph;
use anyhow::{Result, bail};
use cudarc::driver::{CudaSlice, CudaStream, LaunchConfig};
use std::sync::Arc;

/// Threads a group's launch aims for: enough to fill the device several times over.
const TARGET_THREADS: u64 = 1 << 20;
/// The fewest children a thread ORs before its one atomic: with fewer, the atomics on the same
/// words contend; with many more, too few threads run (docs/BENCHMARKS.md, "Measurements behind
/// design choices").
const CHILDREN_PER_THREAD: u64 = 8;

/// A grid-stride launch over `items`: a thread each, at most 16 blocks of [`BLOCK_THREADS`] per
/// multiprocessor (`sms`).
pub(super) fn stride_grid(sms: u32) -> impl Fn(u64) -> LaunchConfig + Copy {
    move |items: u64| {
        let blocks = items.div_ceil(BLOCK_THREADS as u64).clamp(1, sms as u64 * 16) as u32;
        LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 }
    }
}

/// The bit-parallel pass group by group over rows that already hold each vertex's own bits: each
/// group's launch ORs its vertices' children's rows (in earlier groups) into theirs. Shared by the
/// closure and the exception count (`super::exceptions`), which runs it once per target block.
pub(super) struct HeightPass<'h> {
    heights: &'h HeightOrder,
    /// Per group with children, (group, vertices, the most children of one of them).
    groups: Vec<(usize, u64, u64)>,
}

impl<'h> HeightPass<'h> {
    pub(super) fn new(dag: &Graph, heights: &'h HeightOrder) -> HeightPass<'h> {
        let groups = (0..heights.len())
            .filter_map(|h| {
                let vertices = heights.height(h);
                let max_degree = vertices.iter().map(|&v| dag.children(v).len()).max().unwrap_or(0) as u64;
                // Groups of sinks need no launch: their rows are their own bits.
                (max_degree > 0).then_some((h, vertices.len() as u64, max_degree))
            })
            .collect();
        HeightPass { heights, groups }
    }

    /// Queues the launches on `stream`; `order` is the schedule's order on the device, `rows` holds
    /// n rows of `words` words.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn launch(
        &self,
        kernel: &ClosureHeight,
        stream: &Arc<CudaStream>,
        grid: impl Fn(u64) -> LaunchConfig,
        order: &CudaSlice<u32>,
        coff: &CudaSlice<u64>,
        cadj: &CudaSlice<u32>,
        rows: &mut impl BufferMut<u64>,
        words: usize,
    ) -> Result<()> {
        let words = words as u64;
        for &(h, count, max_degree) in &self.groups {
            let most = (max_degree / CHILDREN_PER_THREAD).max(1);
            let slices = (TARGET_THREADS / (count * words)).clamp(1, most);
            let slice = order.slice(self.heights.offsets[h]..self.heights.offsets[h + 1]);
            // SAFETY: grid-stride over count * words * slices items; vertices and their children
            // are < n (coff has n + 1 entries), words index rows of n * words. The group's
            // vertices are distinct and their children sit in earlier groups, so the rows read are
            // not written by this launch.
            unsafe {
                kernel.launch(
                    stream,
                    grid(count * words * slices),
                    &slice,
                    count as u32,
                    slices as u32,
                    words as u32,
                    coff,
                    cadj,
                    rows,
                )
            }?;
        }
        Ok(())
    }
}

/// The closure of `dag` by a GPU method; phases (upload, kernels, download) timed into `clock`.
pub fn closure(gpu: &Gpu, dag: &Graph, method: ClosureMethod, clock: &mut PhaseClock) -> Result<BitMatrix> {
    let n = dag.num_vertices();
    if n == 0 {
        return Ok(BitMatrix::zeros(0)?);
    }
    let need = memory_need(method, n);
    let (free, _) = gpu.memory()?;
    need.check(Some(free), &format!("the GPU ({})", gpu.info.name))?;
    need.check_host()?;
    let words = n.div_ceil(64);
    let stream = gpu.stream.clone();
    let mut ledger = Ledger::default();
    let grid = stride_grid(gpu.multiprocessors()?);
    let (nn, ww) = (n as u32, words as u32);
    let rows: CudaSlice<u64> = match method {
        ClosureMethod::GpuBitParallel => {
            let heights = clock.time("schedule", || HeightOrder::by_depth(dag))?;
            let (coff, cadj, order, mut rows) = clock.time("upload", || -> Result<_> {
                let coff = ledger.upload(gpu, "children offsets", dag.children_csr().offsets())?;
                let cadj = ledger.upload(gpu, "children", dag.children_csr().targets())?;
                let order = ledger.upload(gpu, "height order", &heights.order)?;
                let rows: CudaSlice<u64> = ledger.zeros(&stream, "closure rows", n * words)?;
                stream.synchronize()?;
                Ok((coff, cadj, order, rows))
            })?;
            let (diagonal, height) = (ClosureDiagonal::load(gpu)?, ClosureHeight::load(gpu)?);
            clock.time("bit-parallel by depth", || -> Result<()> {
                // SAFETY: grid-stride over v < n, word v / 64 < words of row v, n * words in all.
                unsafe { diagonal.launch(&stream, grid(n as u64), &mut rows, nn, ww) }?;
                let pass = HeightPass::new(dag, &heights);
                pass.launch(&height, &stream, grid, &order, &coff, &cadj, &mut rows, words)?;
                stream.synchronize()?;
                Ok(())
            })?;
            rows
        }
        ClosureMethod::GpuSquaring => {
            let adjacency = clock.time("adjacency", || BitMatrix::reflexive_adjacency(dag))?;
            let (mut a, mut out) = clock.time("upload", || -> Result<_> {
                let a = ledger.upload(gpu, "matrix", adjacency.as_words())?;
                let out: CudaSlice<u64> = ledger.zeros(&stream, "square", n * words)?;
                stream.synchronize()?;
                Ok((a, out))
            })?;
            let square = ClosureSquare::load(gpu)?;
            let config = LaunchConfig {
                grid_dim: (ww.div_ceil(32).max(1), nn.div_ceil(32).max(1), 1),
                block_dim: (BLOCK_THREADS, 1, 1),
                shared_mem_bytes: 0,
            };
            clock.time("squaring", || -> Result<()> {
                let mut changed: CudaSlice<u32> = stream.alloc_zeros(1)?;
                loop {
                    stream.memset_zeros(&mut changed)?;
                    // SAFETY: blocks cover 32 words x 32 rows each (BLOCK_THREADS = 8 warps of 4
                    // rows); every index is checked against n and words; a and out hold n * words.
                    unsafe { square.launch(&stream, config, &a, &mut out, nn, ww, &mut changed) }?;
                    std::mem::swap(&mut a, &mut out);
                    if stream.clone_dtoh(&changed)?[0] == 0 {
                        return Ok(());
                    }
                }
            })?;
            a
        }
        ClosureMethod::GpuFwNaive => {
            let adjacency = clock.time("adjacency", || BitMatrix::reflexive_adjacency(dag))?;
            let mut rows = clock.time("upload", || -> Result<_> {
                let rows = ledger.upload(gpu, "matrix", adjacency.as_words())?;
                stream.synchronize()?;
                Ok(rows)
            })?;
            let pivot = FwNaivePivot::load(gpu)?;
            clock.time("floyd-warshall", || -> Result<()> {
                for k in 0..nn {
                    // SAFETY: grid-stride over n * words items of rows (n * words); k < n, so
                    // word k / 64 < words and row k is in the matrix.
                    unsafe { pivot.launch(&stream, grid((n * words) as u64), &mut rows, nn, ww, k) }?;
                }
                stream.synchronize()?;
                Ok(())
            })?;
            rows
        }
        ClosureMethod::GpuFwTiled => {
            let adjacency = clock.time("adjacency", || BitMatrix::reflexive_adjacency(dag))?;
            let (mut rows, mut pivots, mut selectors) = clock.time("upload", || -> Result<_> {
                let rows = ledger.upload(gpu, "matrix", adjacency.as_words())?;
                let pivots: CudaSlice<u64> = ledger.zeros(&stream, "pivot rows", 64 * words)?;
                let selectors: CudaSlice<u64> = ledger.zeros(&stream, "selectors", n)?;
                stream.synchronize()?;
                Ok((rows, pivots, selectors))
            })?;
            let (diag, pivot, select, update) =
                (FwDiagonal::load(gpu)?, FwPivotRows::load(gpu)?, FwSelectors::load(gpu)?, FwUpdate::load(gpu)?);
            let one = LaunchConfig { grid_dim: (1, 1, 1), block_dim: (64, 1, 1), shared_mem_bytes: 0 };
            clock.time("floyd-warshall tiled", || -> Result<()> {
                for kw in 0..ww {
                    // SAFETY (all four): pivot block kw < words covers rows kw * 64 + t, checked
                    // against n; rows hold n * words, pivots 64 * words, selectors n. fw_diagonal
                    // runs as one block of 64 threads (its shared array); the others grid-stride.
                    unsafe { diag.launch(&stream, one, &mut rows, nn, ww, kw) }?;
                    unsafe { pivot.launch(&stream, grid(64 * words as u64), &rows, nn, ww, kw, &mut pivots) }?;
                    unsafe { select.launch(&stream, grid(n as u64), &rows, nn, ww, kw, &mut selectors) }?;
                    unsafe {
                        update.launch(&stream, grid((n * words) as u64), &mut rows, nn, ww, kw, &pivots, &selectors)
                    }?;
                }
                stream.synchronize()?;
                Ok(())
            })?;
            rows
        }
        cpu => bail!("{} is not a GPU method", cpu.name()),
    };
    let words_back = clock.time("download", || stream.clone_dtoh(&rows))?;
    Ok(BitMatrix::from_words(n, words_back)?)
}
