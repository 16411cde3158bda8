//! GRAIL labels on the GPU: the four phases of the CPU pipeline (`index::pipeline`), level by level
//! on the device (`kernels/labeling.cu` says how each phase maps to kernels).
//!
//! The graph and every label array stay on the device between phases and dimensions; per level the
//! host reads back only eight counters (the next frontier's queue sizes and degree sums), which the
//! launches and the telemetry need. Kahn levels do not depend on the order, so dimension 0 builds
//! them (parent selection releases each level's children into the next level's queues) and the
//! other dimensions replay them.

use super::context::Gpu;
use super::memory::Ledger;
use crate::graph::Graph;
use crate::index::order::keys_and_roots;
use crate::index::pipeline::Backend;
use crate::index::{DimensionLabels, Labels, Order};
use crate::telemetry::{Event, Phase, QueueSizes, Sink, memory_event};
use anyhow::{Context, Result, ensure};
use cudarc::driver::{CudaEvent, CudaFunction, CudaSlice, LaunchConfig, PushKernelArg, sys};
use rayon::prelude::*;
use std::time::Instant;

const THREADS: u32 = 256;
const WARPS_PER_BLOCK: u32 = THREADS / 32;

/// Labels `dag` on the process's GPU ([`super::shared`]). Fails, with the reason, when there is no
/// usable GPU, not enough device memory, or the graph has a cycle.
pub fn label(dag: &Graph, dims: usize, order: Order, sink: &mut dyn Sink) -> Result<Labels> {
    ensure!(dims >= 1, "at least one dimension is needed");
    let gpu = super::shared()?;
    let clock = Instant::now();
    let (n, m) = (dag.num_vertices() as u64, dag.num_edges() as u64);
    sink.emit(Event::RunStarted { backend: Backend::Gpu, dims, order, vertices: n, edges: m });
    // The order keys of every dimension, computed on the CPU cores while nothing else needs them.
    let orders: Vec<(Vec<u32>, Vec<u32>)> = (0..dims)
        .into_par_iter()
        .map(|dim| {
            let (keys, roots) = keys_and_roots(dag, order, dim);
            (keys.unwrap_or_else(|| (0..n as u32).collect()), roots)
        })
        .collect();
    let mut run = DeviceRun::new(gpu, dag)?;
    let mut dimensions = Vec::with_capacity(dims);
    let mut level = Vec::new();
    for (dim, (keys, roots)) in orders.iter().enumerate() {
        dimensions.push(run.dimension(keys, roots, dim, sink)?);
        if dim == 0 {
            // Dimension 0 found the Kahn levels; a vertex never released sits on no level: a cycle.
            ensure!(
                run.levels.iter().map(LevelQueues::vertices).sum::<u64>() == n,
                "the graph has a cycle; condense it first"
            );
            level = gpu.stream.clone_dtoh(&run.level)?;
        }
        let (free, total) = gpu.memory()?;
        let mut structures = run.ledger.entries().to_vec();
        structures.push(("gpu used (whole device)".into(), total - free));
        structures.push(("gpu total".into(), total));
        sink.emit(memory_event(structures));
    }
    let labels = Labels::from_dimensions(order, &dimensions, level);
    sink.emit(Event::RunDone { seconds: clock.elapsed().as_secs_f64() });
    Ok(labels)
}

/// One level's queues, by class (small, medium, large), in the `bins_in`/`bins_out` arrays.
#[derive(Clone, Copy, Debug, Default)]
struct LevelQueues {
    in_base: [u32; 3],
    in_count: [u32; 3],
    out_base: [u32; 3],
    out_count: [u32; 3],
    in_degrees: u64,
    out_degrees: u64,
}

impl LevelQueues {
    fn vertices(&self) -> u64 {
        self.in_count.iter().map(|&c| c as u64).sum()
    }
}

/// The kernels, looked up once.
struct Kernels {
    init_dimension: CudaFunction,
    seed_roots: CudaFunction,
    select: [CudaFunction; 3],
    release_small: CudaFunction,
    release_wide: CudaFunction,
    push_sizes: CudaFunction,
    post_order: CudaFunction,
    min_post_small: CudaFunction,
    min_post_wide: CudaFunction,
}

impl Kernels {
    fn load(gpu: &Gpu) -> Result<Kernels> {
        let f = |name| gpu.function("labeling", name);
        Ok(Kernels {
            init_dimension: f("init_dimension")?,
            seed_roots: f("seed_roots")?,
            select: [f("select_small")?, f("select_warp")?, f("select_block")?],
            release_small: f("release_small")?,
            release_wide: f("release_wide")?,
            push_sizes: f("push_sizes")?,
            post_order: f("post_order")?,
            min_post_small: f("min_post_small")?,
            min_post_wide: f("min_post_wide")?,
        })
    }
}

/// Device state of one labeling run.
struct DeviceRun<'g> {
    gpu: &'g Gpu,
    kernels: Kernels,
    ledger: Ledger,
    n: u32,
    poff: CudaSlice<u64>,
    padj: CudaSlice<u32>,
    coff: CudaSlice<u64>,
    cadj: CudaSlice<u32>,
    /// `Node`s (4 × u32: parent, depth, jump, key) of the n vertices and the virtual root ρ = n.
    tree: CudaSlice<u32>,
    key: CudaSlice<u32>,
    pending: CudaSlice<u32>,
    size: CudaSlice<u32>,
    offset: CudaSlice<u32>,
    post: CudaSlice<u32>,
    low: CudaSlice<u32>,
    bins_in: CudaSlice<u32>,
    bins_out: CudaSlice<u32>,
    /// Each vertex's Kahn level (the longest path from a root), found by dimension 0.
    level: CudaSlice<u32>,
    /// Per level: 3 in-class counts, 3 out-class counts, in-degree sum, out-degree sum.
    counters: CudaSlice<u64>,
    /// The next level's queue bases (3 in, 3 out), uploaded before each release.
    base: CudaSlice<u32>,
    levels: Vec<LevelQueues>,
    /// Timing events, one per level boundary of a phase: recorded without waiting, read at the
    /// phase's end, so only the levels that must (dimension 0's parent selection, which reads the
    /// next queue sizes) wait for the device.
    marks: Vec<CudaEvent>,
}

/// A finished level, waiting for its time to be read off the events.
struct LevelRecord {
    level: usize,
    queues: QueueSizes,
    edges_scanned: u64,
}

impl<'g> DeviceRun<'g> {
    fn new(gpu: &'g Gpu, dag: &Graph) -> Result<DeviceRun<'g>> {
        let n = dag.num_vertices();
        ensure!(n < u32::MAX as usize - 1, "{n} vertices do not fit the GPU labeler's 32-bit ids");
        let stream = &gpu.stream;
        let mut ledger = Ledger::default();
        let poff = ledger.upload(stream, "parents offsets", dag.parents_csr().offsets())?;
        let padj = ledger.upload(stream, "parents", dag.parents_csr().targets())?;
        let coff = ledger.upload(stream, "children offsets", dag.children_csr().offsets())?;
        let cadj = ledger.upload(stream, "children", dag.children_csr().targets())?;
        let tree = ledger.zeros(stream, "DFS tree", 4 * (n + 1))?;
        let key = ledger.zeros(stream, "order keys", n)?;
        let pending = ledger.zeros(stream, "pending parents", n)?;
        let size = ledger.zeros(stream, "subtree sizes", n)?;
        let offset = ledger.zeros(stream, "offsets", n)?;
        let post = ledger.zeros(stream, "post", n)?;
        let low = ledger.zeros(stream, "low", n)?;
        let bins_in = ledger.zeros(stream, "queues by in-degree", 3 * n)?;
        let bins_out = ledger.zeros(stream, "queues by out-degree", 3 * n)?;
        let level = ledger.zeros(stream, "levels", n)?;
        let counters = ledger.zeros(stream, "queue counters", 8)?;
        let base = ledger.zeros(stream, "queue bases", 6)?;
        Ok(DeviceRun {
            gpu,
            kernels: Kernels::load(gpu)?,
            ledger,
            n: n as u32,
            poff,
            padj,
            coff,
            cadj,
            tree,
            key,
            pending,
            size,
            offset,
            post,
            low,
            bins_in,
            bins_out,
            level,
            counters,
            base,
            levels: Vec::new(),
            marks: Vec::new(),
        })
    }

    fn dimension(&mut self, keys: &[u32], roots: &[u32], dim: usize, sink: &mut dyn Sink) -> Result<DimensionLabels> {
        let stream = &self.gpu.stream;
        stream.memcpy_htod(keys, &mut self.key)?;
        let n = self.n;
        let mut launch = stream.launch_builder(&self.kernels.init_dimension);
        launch.arg(&self.tree).arg(&self.key).arg(&self.poff).arg(&mut self.pending);
        launch.arg(&mut self.size).arg(&mut self.offset).arg(&n);
        unsafe { launch.launch(grid(n + 1)) }.context("init_dimension")?;

        self.parent_selection(dim, sink)?;
        self.subtree_sizes(dim, sink)?;
        self.root_offsets(roots)?;
        self.post_order(dim, sink)?;
        self.min_post(dim, sink)?;

        let low = stream.clone_dtoh(&self.low)?;
        let post = stream.clone_dtoh(&self.post)?;
        let subtree = stream.clone_dtoh(&self.size)?;
        Ok(DimensionLabels { low, post, subtree })
    }

    /// Phase 1. Dimension 0 also builds the Kahn levels' queues; later dimensions replay them.
    fn parent_selection(&mut self, dim: usize, sink: &mut dyn Sink) -> Result<()> {
        let phase = Phase::ParentSelection;
        sink.emit(Event::PhaseStarted { dim, phase });
        let clock = Instant::now();
        let build = self.levels.is_empty();
        if build {
            let roots = self.seed_roots()?;
            self.levels.push(roots);
        }
        let mut level = 0;
        let mut edges_total = 0;
        let mut records = Vec::new();
        while level < self.levels.len() {
            let q = self.levels[level];
            self.mark(records.len())?;
            for class in 0..3 {
                self.launch_select(class, q.in_base[class], q.in_count[class])?;
            }
            if build {
                let next = self.release(&q)?;
                if next.vertices() > 0 {
                    self.levels.push(next);
                }
            }
            edges_total += q.in_degrees;
            let queues =
                QueueSizes { small: q.in_count[0] as u64, medium: q.in_count[1] as u64, large: q.in_count[2] as u64 };
            records.push(LevelRecord { level, queues, edges_scanned: q.in_degrees });
            level += 1;
        }
        self.emit_levels(dim, phase, &records, sink)?;
        sink.emit(self.phase_done(dim, phase, edges_total, clock));
        Ok(())
    }

    fn seed_roots(&mut self) -> Result<LevelQueues> {
        let stream = &self.gpu.stream;
        stream.memset_zeros(&mut self.counters)?;
        stream.memset_zeros(&mut self.base)?;
        let n = self.n;
        let mut launch = stream.launch_builder(&self.kernels.seed_roots);
        launch.arg(&self.poff).arg(&self.coff).arg(&mut self.bins_in).arg(&mut self.bins_out);
        launch.arg(&mut self.counters).arg(&self.base).arg(&n).arg(&mut self.level);
        unsafe { launch.launch(grid(n)) }.context("seed_roots")?;
        self.read_queues([0; 3], [0; 3])
    }

    /// Releases level `q`'s children into the next level's queues and returns that level.
    fn release(&mut self, q: &LevelQueues) -> Result<LevelQueues> {
        let next_level = self.levels.len() as u32;
        let stream = &self.gpu.stream;
        let in_base: [u32; 3] = std::array::from_fn(|c| q.in_base[c] + q.in_count[c]);
        let out_base: [u32; 3] = std::array::from_fn(|c| q.out_base[c] + q.out_count[c]);
        let bases = [in_base[0], in_base[1], in_base[2], out_base[0], out_base[1], out_base[2]];
        stream.memcpy_htod(&bases, &mut self.base)?;
        stream.memset_zeros(&mut self.counters)?;
        let n = self.n;
        for class in 0..3u32 {
            let count = q.out_count[class as usize];
            if count == 0 {
                continue;
            }
            let start = class * n + q.out_base[class as usize];
            let queue = self.bins_out.slice(start as usize..(start + count) as usize);
            let (config, per_block) = wide_config(class, count);
            let mut launch = if class == 0 {
                stream.launch_builder(&self.kernels.release_small)
            } else {
                stream.launch_builder(&self.kernels.release_wide)
            };
            launch.arg(&queue).arg(&count);
            if class > 0 {
                launch.arg(&per_block);
            }
            launch.arg(&self.poff).arg(&self.coff).arg(&self.cadj).arg(&mut self.pending);
            launch.arg(&self.bins_in).arg(&self.bins_out).arg(&mut self.counters).arg(&self.base).arg(&n);
            launch.arg(&mut self.level).arg(&next_level);
            unsafe { launch.launch(config) }.context("release")?;
        }
        self.read_queues(in_base, out_base)
    }

    fn read_queues(&self, in_base: [u32; 3], out_base: [u32; 3]) -> Result<LevelQueues> {
        let c = self.gpu.stream.clone_dtoh(&self.counters)?;
        Ok(LevelQueues {
            in_base,
            in_count: [c[0] as u32, c[1] as u32, c[2] as u32],
            out_base,
            out_count: [c[3] as u32, c[4] as u32, c[5] as u32],
            in_degrees: c[6],
            out_degrees: c[7],
        })
    }

    fn launch_select(&mut self, class: usize, base: u32, count: u32) -> Result<()> {
        if count == 0 {
            return Ok(());
        }
        let stream = &self.gpu.stream;
        let start = class as u32 * self.n + base;
        let queue = self.bins_in.slice(start as usize..(start + count) as usize);
        let (config, _) = wide_config(class as u32, count);
        let rho = self.n;
        let mut launch = stream.launch_builder(&self.kernels.select[class]);
        launch.arg(&queue).arg(&count).arg(&self.poff).arg(&self.padj).arg(&mut self.tree).arg(&rho);
        unsafe { launch.launch(config) }.context("select parents")?;
        Ok(())
    }

    /// Phase 2: bottom-up over the Kahn levels, each vertex adds its size to its T-parent's.
    fn subtree_sizes(&mut self, dim: usize, sink: &mut dyn Sink) -> Result<()> {
        let phase = Phase::SubtreeSizes;
        sink.emit(Event::PhaseStarted { dim, phase });
        let clock = Instant::now();
        let mut edges_total = 0;
        let mut records = Vec::new();
        for (step, level) in (0..self.levels.len()).rev().enumerate() {
            let q = self.levels[level];
            self.mark(records.len())?;
            for class in 0..3u32 {
                let count = q.out_count[class as usize];
                if count == 0 {
                    continue;
                }
                let start = (class * self.n + q.out_base[class as usize]) as usize;
                let queue = self.bins_out.slice(start..start + count as usize);
                let rho = self.n;
                let mut launch = self.gpu.stream.launch_builder(&self.kernels.push_sizes);
                launch.arg(&queue).arg(&count).arg(&self.tree).arg(&mut self.size).arg(&rho);
                unsafe { launch.launch(grid(count)) }.context("push_sizes")?;
            }
            // Every vertex follows its one T-edge up (roots, on level 0, have none).
            let edges = if level == 0 { 0 } else { q.vertices() };
            edges_total += edges;
            records.push(LevelRecord { level: step, queues: out_queues(&q), edges_scanned: edges });
        }
        self.emit_levels(dim, phase, &records, sink)?;
        sink.emit(self.phase_done(dim, phase, edges_total, clock));
        Ok(())
    }

    /// The roots are ρ's T-children: their offsets are the prefix sums of their sizes in root order.
    fn root_offsets(&mut self, roots: &[u32]) -> Result<()> {
        let stream = &self.gpu.stream;
        let size = stream.clone_dtoh(&self.size)?;
        let mut offset = vec![0u32; self.n as usize];
        let mut acc = 0u32;
        for &r in roots {
            offset[r as usize] = acc;
            acc += size[r as usize];
        }
        stream.memcpy_htod(&offset, &mut self.offset)?;
        Ok(())
    }

    /// Phase 3: top-down over the Kahn levels, offset(c) = offset(T-parent) + before(c).
    fn post_order(&mut self, dim: usize, sink: &mut dyn Sink) -> Result<()> {
        let phase = Phase::PostOrder;
        sink.emit(Event::PhaseStarted { dim, phase });
        let clock = Instant::now();
        let mut edges_total = 0;
        let mut records = Vec::new();
        for level in 0..self.levels.len() {
            let q = self.levels[level];
            self.mark(records.len())?;
            for class in 0..3u32 {
                let count = q.out_count[class as usize];
                if count == 0 {
                    continue;
                }
                let start = (class * self.n + q.out_base[class as usize]) as usize;
                let queue = self.bins_out.slice(start..start + count as usize);
                let rho = self.n;
                let mut launch = self.gpu.stream.launch_builder(&self.kernels.post_order);
                launch.arg(&queue).arg(&count).arg(&self.tree).arg(&self.coff).arg(&self.cadj).arg(&self.size);
                launch.arg(&mut self.offset).arg(&mut self.post).arg(&rho);
                unsafe { launch.launch(grid(count)) }.context("post_order")?;
            }
            let edges = if level == 0 { 0 } else { q.vertices() };
            edges_total += edges;
            records.push(LevelRecord { level, queues: out_queues(&q), edges_scanned: edges });
        }
        self.emit_levels(dim, phase, &records, sink)?;
        sink.emit(self.phase_done(dim, phase, edges_total, clock));
        Ok(())
    }

    /// Phase 4: bottom-up over the Kahn levels, low(v) = min(post(v), low of every DAG child).
    fn min_post(&mut self, dim: usize, sink: &mut dyn Sink) -> Result<()> {
        let phase = Phase::MinPost;
        sink.emit(Event::PhaseStarted { dim, phase });
        let clock = Instant::now();
        let mut edges_total = 0;
        let mut records = Vec::new();
        for (step, level) in (0..self.levels.len()).rev().enumerate() {
            let q = self.levels[level];
            self.mark(records.len())?;
            for class in 0..3u32 {
                let count = q.out_count[class as usize];
                if count == 0 {
                    continue;
                }
                let start = class * self.n + q.out_base[class as usize];
                let queue = self.bins_out.slice(start as usize..(start + count) as usize);
                let (config, per_block) = wide_config(class, count);
                let stream = &self.gpu.stream;
                let mut launch = if class == 0 {
                    stream.launch_builder(&self.kernels.min_post_small)
                } else {
                    stream.launch_builder(&self.kernels.min_post_wide)
                };
                launch.arg(&queue).arg(&count);
                if class > 0 {
                    launch.arg(&per_block);
                }
                launch.arg(&self.coff).arg(&self.cadj).arg(&self.post).arg(&mut self.low);
                unsafe { launch.launch(config) }.context("min_post")?;
            }
            edges_total += q.out_degrees;
            records.push(LevelRecord { level: step, queues: out_queues(&q), edges_scanned: q.out_degrees });
        }
        self.emit_levels(dim, phase, &records, sink)?;
        sink.emit(self.phase_done(dim, phase, edges_total, clock));
        Ok(())
    }

    /// Records timing event `i` on the stream (creating it on first use).
    fn mark(&mut self, i: usize) -> Result<()> {
        while self.marks.len() <= i {
            self.marks.push(self.gpu.ctx.new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))?);
        }
        self.marks[i].record(&self.gpu.stream)?;
        Ok(())
    }

    /// Waits for the phase's last level, then emits every level with its device time.
    fn emit_levels(&mut self, dim: usize, phase: Phase, records: &[LevelRecord], sink: &mut dyn Sink) -> Result<()> {
        self.mark(records.len())?;
        self.marks[records.len()].synchronize()?;
        for (i, r) in records.iter().enumerate() {
            let seconds = self.marks[i].elapsed_ms(&self.marks[i + 1])? as f64 / 1e3;
            let (level, queues, edges_scanned) = (r.level, r.queues, r.edges_scanned);
            sink.emit(Event::LevelDone { dim, phase, level, queues, edges_scanned, seconds });
        }
        Ok(())
    }

    fn phase_done(&self, dim: usize, phase: Phase, edges_scanned: u64, clock: Instant) -> Event {
        Event::PhaseDone {
            dim,
            phase,
            levels: self.levels.len(),
            vertices: self.n as u64,
            edges_scanned,
            seconds: clock.elapsed().as_secs_f64(),
        }
    }
}

/// A level's vertices by out-degree class (the queues phases 2-4 run on).
fn out_queues(q: &LevelQueues) -> QueueSizes {
    QueueSizes { small: q.out_count[0] as u64, medium: q.out_count[1] as u64, large: q.out_count[2] as u64 }
}

/// A thread per item.
fn grid(items: u32) -> LaunchConfig {
    LaunchConfig { grid_dim: (items.div_ceil(THREADS).max(1), 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 }
}

/// Launch shape for a queue class: a thread (small), a warp (medium) or a block (large) per vertex;
/// also returns the vertices per block the wide kernels take.
fn wide_config(class: u32, count: u32) -> (LaunchConfig, u32) {
    match class {
        0 => (grid(count), THREADS),
        1 => {
            let blocks = count.div_ceil(WARPS_PER_BLOCK);
            (
                LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 },
                WARPS_PER_BLOCK,
            )
        }
        _ => (LaunchConfig { grid_dim: (count, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 }, 1),
    }
}
