//! Exact single-source BFS on the GPU, four ways (`kernels/bfs.cu`): vertex-parallel over a level
//! array, an atomic frontier queue, a scan-built queue, and degree-binned queues. All return the
//! level array of [`crate::exact::bfs`], which they are tested against.

use super::context::Gpu;
use super::kernels::bfs::{
    BfsAtomicExpand, BfsBinnedExpand, BfsInit, BfsScanBlockSums, BfsScanExpand, BfsScanOffsets, BfsScanScatter,
    BfsVertexLevel,
};
use super::memory::Ledger;
use crate::constants::{BLOCK_THREADS, WARP_SIZE};
use crate::exact::BfsEngine;
use crate::graph::Graph;
use anyhow::{Result, bail, ensure};
use cudarc::driver::{CudaSlice, LaunchConfig};
use std::time::Instant;

/// A GPU BFS: the levels, and the seconds to upload the graph and to search.
pub struct GpuBfs {
    pub levels: Vec<u32>,
    pub upload_seconds: f64,
    pub seconds: f64,
}

/// The graph on the device, with the buffers every engine uses.
struct DeviceGraph<'g> {
    gpu: &'g Gpu,
    n: u32,
    coff: CudaSlice<u64>,
    cadj: CudaSlice<u32>,
    level: CudaSlice<u32>,
    queue: CudaSlice<u32>,
    queue_next: CudaSlice<u32>,
    counts: CudaSlice<u32>,
    max_blocks: u32,
    _ledger: Ledger,
}

/// Runs `engine` (a GPU engine) from `src`.
pub fn bfs(gpu: &Gpu, graph: &Graph, src: u32, engine: BfsEngine) -> Result<GpuBfs> {
    let clock = Instant::now();
    let mut device = DeviceBfs::new(gpu, graph, engine)?;
    let upload_seconds = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let levels = device.levels(graph, src)?;
    Ok(GpuBfs { levels, upload_seconds, seconds: clock.elapsed().as_secs_f64() })
}

/// A graph resident on the device for many BFSs with one engine (a batch of sources).
pub struct DeviceBfs<'g> {
    device: DeviceGraph<'g>,
    engine: BfsEngine,
}

impl<'g> DeviceBfs<'g> {
    /// Uploads `graph` (synchronised, so the upload is timed by the caller's clock).
    pub fn new(gpu: &'g Gpu, graph: &Graph, engine: BfsEngine) -> Result<DeviceBfs<'g>> {
        ensure!(engine.is_gpu(), "{} is not a GPU engine", engine.name());
        let device = DeviceGraph::new(gpu, graph, engine)?;
        gpu.stream.synchronize()?;
        Ok(DeviceBfs { device, engine })
    }

    /// The level of every vertex from `src` (`graph` is the one uploaded; the binned engine reads the
    /// source's degree from it).
    pub fn levels(&mut self, graph: &Graph, src: u32) -> Result<Vec<u32>> {
        ensure!((src as usize) < graph.num_vertices(), "source {src} is not a vertex");
        let device = &mut self.device;
        device.init(src)?;
        match self.engine {
            BfsEngine::GpuVertex => device.vertex_parallel()?,
            BfsEngine::GpuAtomic => device.atomic_queue(src)?,
            BfsEngine::GpuScan => device.scan_queue(src)?,
            BfsEngine::GpuBinned => device.binned(graph, src)?,
            cpu => bail!("{} is not a GPU engine", cpu.name()),
        }
        Ok(device.gpu.stream.clone_dtoh(&device.level)?)
    }
}

impl<'g> DeviceGraph<'g> {
    fn new(gpu: &'g Gpu, graph: &Graph, engine: BfsEngine) -> Result<DeviceGraph<'g>> {
        let n = graph.num_vertices();
        let stream = &gpu.stream;
        let mut ledger = Ledger::default();
        // Three classes of n slots for the binned queues, n slots otherwise.
        let queue_len = if engine == BfsEngine::GpuBinned { 3 * n } else { n };
        let sms = gpu.multiprocessors()?;
        Ok(DeviceGraph {
            gpu,
            n: n as u32,
            coff: ledger.upload(gpu, "children offsets", graph.children_csr().offsets())?,
            cadj: ledger.upload(gpu, "children", graph.children_csr().targets())?,
            level: ledger.zeros(stream, "levels", n)?,
            queue: ledger.zeros(stream, "frontier queue", queue_len)?,
            queue_next: ledger.zeros(stream, "next frontier queue", queue_len)?,
            counts: ledger.zeros(stream, "queue counts", 3)?,
            max_blocks: sms * 8,
            _ledger: ledger,
        })
    }

    /// A grid-stride launch over `items` threads' worth of work, capped at a few blocks per SM.
    fn config(&self, items: u32) -> LaunchConfig {
        let blocks = items.div_ceil(BLOCK_THREADS).clamp(1, self.max_blocks);
        LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 }
    }

    fn init(&mut self, src: u32) -> Result<()> {
        let config = self.config(self.n);
        // SAFETY: grid-stride over v < n, writing level[v] of n entries.
        unsafe { BfsInit::load(self.gpu)?.launch(&self.gpu.stream, config, &mut self.level, self.n, src) }?;
        Ok(())
    }

    fn vertex_parallel(&mut self) -> Result<()> {
        let kernel = BfsVertexLevel::load(self.gpu)?;
        let stream = self.gpu.stream.clone();
        let mut changed: CudaSlice<u32> = stream.alloc_zeros(1)?;
        let config = self.config(self.n);
        for current in 0.. {
            stream.memset_zeros(&mut changed)?;
            // SAFETY: grid-stride over v < n; coff has n + 1 entries, cadj holds every child id < n,
            // level has n entries; changed has 1.
            unsafe {
                kernel.launch(&stream, config, &self.coff, &self.cadj, &mut self.level, current, &mut changed, self.n)
            }?;
            if stream.clone_dtoh(&changed)?[0] == 0 {
                break;
            }
        }
        Ok(())
    }

    fn atomic_queue(&mut self, src: u32) -> Result<()> {
        let kernel = BfsAtomicExpand::load(self.gpu)?;
        let stream = self.gpu.stream.clone();
        stream.memcpy_htod(&[src], &mut self.queue.slice_mut(0..1))?;
        let mut count = 1u32;
        let mut next_level = 1u32;
        while count > 0 {
            stream.memset_zeros(&mut self.counts)?;
            let config = self.config(count);
            let queue = self.queue.slice(0..count as usize);
            // SAFETY: grid-stride over the `count` queued vertices < n; a child is claimed once (CAS
            // on level), so at most n are appended to queue_next (n entries); counts has 3 entries.
            unsafe {
                kernel.launch(
                    &stream,
                    config,
                    &queue,
                    count,
                    &self.coff,
                    &self.cadj,
                    &mut self.level,
                    next_level,
                    &mut self.queue_next,
                    &mut self.counts,
                )
            }?;
            count = stream.clone_dtoh(&self.counts)?[0];
            std::mem::swap(&mut self.queue, &mut self.queue_next);
            next_level += 1;
        }
        Ok(())
    }

    fn scan_queue(&mut self, src: u32) -> Result<()> {
        let (expand, sums, offsets, scatter) = (
            BfsScanExpand::load(self.gpu)?,
            BfsScanBlockSums::load(self.gpu)?,
            BfsScanOffsets::load(self.gpu)?,
            BfsScanScatter::load(self.gpu)?,
        );
        let stream = self.gpu.stream.clone();
        let blocks = self.n.div_ceil(BLOCK_THREADS);
        let mut flag: CudaSlice<u32> = stream.alloc_zeros(self.n as usize)?;
        let mut block_sums: CudaSlice<u32> = stream.alloc_zeros(blocks as usize)?;
        stream.memcpy_htod(&[src], &mut self.queue.slice_mut(0..1))?;
        let whole = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 };
        let one = LaunchConfig { grid_dim: (1, 1, 1), block_dim: (BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 };
        let mut count = 1u32;
        let mut next_level = 1u32;
        while count > 0 {
            let config = self.config(count);
            let queue = self.queue.slice(0..count as usize);
            // SAFETY: grid-stride over the `count` queued vertices < n; flag has n entries.
            unsafe {
                expand.launch(
                    &stream,
                    config,
                    &queue,
                    count,
                    &self.coff,
                    &self.cadj,
                    &mut self.level,
                    next_level,
                    &mut flag,
                )
            }?;
            // SAFETY: exactly `blocks` blocks of BLOCK_THREADS (the kernels' scan size) read flags
            // v < n and write block_sums[block] of `blocks`.
            unsafe { sums.launch(&stream, whole, &flag, self.n, &mut block_sums) }?;
            // SAFETY: one block of BLOCK_THREADS rewrites the `blocks` sums; counts[0] is the total.
            unsafe { offsets.launch(&stream, one, &mut block_sums, blocks, &mut self.counts) }?;
            // SAFETY: the grid of `sums`; a flagged vertex's slot is its exclusive prefix sum, < the
            // total number of flags <= n, in queue_next (n entries).
            unsafe { scatter.launch(&stream, whole, &mut flag, self.n, &block_sums, &mut self.queue_next) }?;
            count = stream.clone_dtoh(&self.counts)?[0];
            std::mem::swap(&mut self.queue, &mut self.queue_next);
            next_level += 1;
        }
        Ok(())
    }

    fn binned(&mut self, graph: &Graph, src: u32) -> Result<()> {
        let kernel = BfsBinnedExpand::load(self.gpu)?;
        let stream = self.gpu.stream.clone();
        let n = self.n as usize;
        let class = class_of(graph.children(src).len());
        stream.memcpy_htod(&[src], &mut self.queue.slice_mut(class * n..class * n + 1))?;
        let mut counts = [0u32; 3];
        counts[class] = 1;
        let mut next_level = 1u32;
        while counts.iter().any(|&c| c > 0) {
            stream.memset_zeros(&mut self.counts)?;
            for (class, &count) in counts.iter().enumerate() {
                if count == 0 {
                    continue;
                }
                let group: u32 = [1, WARP_SIZE, BLOCK_THREADS][class];
                let blocks = count.div_ceil(BLOCK_THREADS / group).min(self.max_blocks);
                let config =
                    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 };
                let queue = self.queue.slice(class * n..class * n + count as usize);
                // SAFETY: groups of `group` threads (dividing BLOCK_THREADS) stride over the `count`
                // vertices < n of one class's queue; a child is claimed once (CAS on level), so a
                // class receives at most n entries at queue_next[class * n + k] of 3 n; counts has 3.
                unsafe {
                    kernel.launch(
                        &stream,
                        config,
                        &queue,
                        count,
                        group,
                        &self.coff,
                        &self.cadj,
                        &mut self.level,
                        next_level,
                        &mut self.queue_next,
                        &mut self.counts,
                        self.n,
                    )
                }?;
            }
            let fetched = stream.clone_dtoh(&self.counts)?;
            counts.copy_from_slice(&fetched[..3]);
            std::mem::swap(&mut self.queue, &mut self.queue_next);
            next_level += 1;
        }
        Ok(())
    }
}

/// The queue class of a vertex of out-degree `degree` (the kernels' `bfs_degree_class`).
fn class_of(degree: usize) -> usize {
    use crate::constants::{LARGE_DEGREE_LIMIT, SMALL_DEGREE_LIMIT};
    if degree < SMALL_DEGREE_LIMIT {
        0
    } else if degree <= LARGE_DEGREE_LIMIT {
        1
    } else {
        2
    }
}
