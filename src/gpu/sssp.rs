//! Single-source shortest paths on the GPU (`kernels/sssp.cu`), two ways; both return the
//! distances of [`crate::weighted::dijkstra`], bit for bit, which they are tested against.
//!
//! `gpu-two-phase` is Harish and Narayanan's method, corrected. Each iteration runs two kernels
//! over every vertex: the first relaxes the out-edges of the masked vertices into an *updating*
//! cost array, the second copies each improved updating cost into the cost array and masks that
//! vertex; the host loops until an iteration masks none. What the slides' version gets wrong:
//! - The second array exists so that kernel 1 reads costs no thread is writing (a vertex's cost
//!   changes only in kernel 2), but the slides' kernel 1 compares and stores the updating cost
//!   non-atomically: two tails offering to one head can both see the old value and the larger
//!   offer can land last, losing the smaller (a write-after-write race); the corrected slide says
//!   "make it atomic" without saying how. Here it is one `atomicMin` on the distance's bits.
//! - Its kernel 1 indexes the weight by the head (`W[nid]`), not by the edge: weights belong to
//!   edges (`weight[e]`, aligned with the children CSR).
//! - Every iteration still scans all n vertices twice, however few are masked, so a graph whose
//!   shortest-path tree is deep costs n per level.
//!
//! `gpu-near-far` is the work-efficient method: the near-far pile of Davidson, Baxter, Garland and Owens
//! ("Work-efficient parallel GPU methods for single-source shortest paths", 2014), delta-stepping
//! with two buckets. A queue holds the vertices to relax, so an iteration costs the edges of its
//! frontier rather than n; improved heads below the current threshold join the next near queue,
//! the others a far pile, and when the near queue runs dry the threshold moves up by Δ (the CPU's
//! [`crate::weighted::delta::choose_delta`]) and the pile is split. The whole method runs in one
//! cooperative launch (every block resident), with a grid-wide barrier between rounds: a round on a
//! small frontier is a few microseconds of kernel, and a launch and a read-back per round, or per
//! few rounds, would cost far more than its work. Why this rather than a worklist Bellman-Ford: the
//! threshold keeps the frontier to vertices near their final distance, so, as in delta-stepping,
//! most vertices are relaxed about once instead of once per improvement; and why not many buckets:
//! two keep the bookkeeping to one pile. It relaxes about as many edges as Dijkstra, where
//! two-phase relaxes a vertex's edges again after every improvement and pays a read-back per
//! iteration (docs/BENCHMARKS.md, "Shortest paths").
//!
//! Both engines only ever lower a distance to `d(u) + w` and stop when no edge can lower one: the
//! fixpoint every CPU engine reaches too ([`crate::weighted`] explains why it is the same bits).

use super::context::Gpu;
use super::kernels::sssp::{SsspInit, SsspNearFarCooperative, SsspTwoPhaseRelax, SsspTwoPhaseUpdate};
use super::memory::Ledger;
use crate::constants::BLOCK_THREADS;
use crate::graph::{Weight, WeightedGraph};
use crate::weighted::{Distances, SsspEngine};
use anyhow::{Result, bail, ensure};
use cudarc::driver::{CudaSlice, LaunchConfig};
use std::time::Instant;

/// The near-far kernel's control words (`ctl` in kernels/sssp.cu): three rotating near queue
/// lengths, two far pile lengths, the barrier's arrivals, the rounds, the buckets and the barrier's
/// generation.
const CONTROL_WORDS: usize = 9;
const GENERATION_AT: usize = 8;
/// Where the kernel counts the rounds that held vertices, and the thresholds after the first that
/// held work.
const ROUNDS_AT: usize = 6;
const BUCKETS_AT: usize = 7;
/// Blocks per multiprocessor of the near-far launch (docs/BENCHMARKS.md, "Shortest paths": on an
/// H200, 2 ran the 4M-vertex digraph in 12 ms where every resident block took 20).
const NEAR_FAR_BLOCKS_PER_SM: u32 = 2;

/// A weighted graph resident on the device, with the arrays of one engine, for runs from many
/// sources.
pub struct DeviceSssp<'g> {
    gpu: &'g Gpu,
    engine: SsspEngine,
    n: u32,
    delta: Weight,
    coff: CudaSlice<u64>,
    cadj: CudaSlice<u32>,
    weight: CudaSlice<f64>,
    /// Distances as bits (the two-phase cost array).
    dist: CudaSlice<u64>,
    /// Two-phase: the updating costs; near-far: written by the shared start kernel, not read.
    updating: CudaSlice<u64>,
    /// Two-phase: the mask; near-far: the far pile's membership.
    mask: CudaSlice<u32>,
    /// Near-far: the near queue, the next one, the far pile, the next one, the stamps.
    queues: [CudaSlice<u32>; 5],
    /// Near-far: the kernel's control words.
    control: CudaSlice<u32>,
    relaxed: CudaSlice<u64>,
    least: CudaSlice<u64>,
    max_blocks: u32,
    /// Seconds the upload took.
    pub upload_seconds: f64,
    _ledger: Ledger,
}

impl<'g> DeviceSssp<'g> {
    /// Uploads `graph` for `engine` (a GPU engine); `delta` is the near-far threshold's step.
    pub fn new(gpu: &'g Gpu, graph: &WeightedGraph, engine: SsspEngine, delta: Weight) -> Result<DeviceSssp<'g>> {
        ensure!(engine.is_gpu(), "{} is not a GPU engine", engine.name());
        ensure!(delta > 0.0 && delta.is_finite(), "delta is a bucket width: a finite number above 0, not {delta}");
        let clock = Instant::now();
        let n = graph.num_vertices();
        let stream = &gpu.stream;
        let mut ledger = Ledger::default();
        let near_far = engine == SsspEngine::GpuNearFar;
        let queue_len = if near_far { n } else { 1 };
        let csr = graph.graph().children_csr();
        let mut queue = |name: &str| ledger.zeros::<u32>(stream, name, queue_len);
        let queues = [
            queue("near queue")?,
            queue("next near queue")?,
            queue("far pile")?,
            queue("next far pile")?,
            queue("stamps")?,
        ];
        let device = DeviceSssp {
            gpu,
            engine,
            n: n as u32,
            delta,
            coff: ledger.upload(gpu, "children offsets", csr.offsets())?,
            cadj: ledger.upload(gpu, "children", csr.targets())?,
            weight: ledger.upload(gpu, "weights", graph.weights())?,
            dist: ledger.zeros(stream, "distances", n)?,
            updating: ledger.zeros(stream, "updating costs", n)?,
            mask: ledger.zeros(stream, "mask", n)?,
            queues,
            control: ledger.zeros(stream, "near-far control words", CONTROL_WORDS)?,
            relaxed: ledger.zeros(stream, "relaxations", 1)?,
            least: ledger.zeros(stream, "least far distance", 1)?,
            max_blocks: gpu.multiprocessors()? * 8,
            upload_seconds: 0.0,
            _ledger: ledger,
        };
        stream.synchronize()?;
        Ok(DeviceSssp { upload_seconds: clock.elapsed().as_secs_f64(), ..device })
    }

    /// The distances from `src` (a vertex of the uploaded graph).
    pub fn run(&mut self, src: u32) -> Result<Distances> {
        ensure!(src < self.n, "vertex {src} is not one of the vertices {}", crate::format::ids(u64::from(self.n)));
        let clock = Instant::now();
        let stream = self.gpu.stream.clone();
        stream.memset_zeros(&mut self.relaxed)?;
        let config = grid(self.max_blocks, self.n);
        // SAFETY: grid-stride over v < n; dist, updating and mask hold n entries each.
        unsafe {
            SsspInit::load(self.gpu)?.launch(
                &stream,
                config,
                &mut self.dist,
                &mut self.updating,
                &mut self.mask,
                self.n,
                src,
            )
        }?;
        let (steps, buckets) = match self.engine {
            SsspEngine::GpuTwoPhase => (self.two_phase()?, 0),
            SsspEngine::GpuNearFar => {
                // The mask is the far pile's membership here, and the stamps of an earlier run
                // could equal this run's tags: both start clear.
                stream.memset_zeros(&mut self.mask)?;
                stream.memset_zeros(&mut self.queues[4])?;
                self.near_far(src)?
            }
            cpu => bail!("{} is not a GPU engine", cpu.name()),
        };
        let bits = stream.clone_dtoh(&self.dist)?;
        let relaxations = stream.clone_dtoh(&self.relaxed)?[0];
        Ok(Distances {
            engine: self.engine,
            source: src,
            dist: bits.into_iter().map(Weight::from_bits).collect(),
            relaxations,
            steps,
            buckets,
            delta: (self.engine == SsspEngine::GpuNearFar).then_some(self.delta),
            seconds: clock.elapsed().as_secs_f64(),
        })
    }

    /// Two-phase iterations until one masks no vertex; returns the iterations.
    fn two_phase(&mut self) -> Result<u64> {
        let (relax, update) = (SsspTwoPhaseRelax::load(self.gpu)?, SsspTwoPhaseUpdate::load(self.gpu)?);
        let stream = self.gpu.stream.clone();
        let config = grid(self.max_blocks, self.n);
        let mut flag: CudaSlice<u32> = stream.alloc_zeros(1)?;
        let mut iterations = 0;
        loop {
            iterations += 1;
            stream.memset_zeros(&mut flag)?;
            // SAFETY: grid-stride over v < n; coff holds n + 1 offsets into cadj and weight (m
            // entries each, heads < n); dist, updating and mask hold n; relaxed 1.
            unsafe {
                relax.launch(
                    &stream,
                    config,
                    &self.coff,
                    &self.cadj,
                    &self.weight,
                    &self.dist,
                    &mut self.updating,
                    &mut self.mask,
                    self.n,
                    &mut self.relaxed,
                )
            }?;
            // SAFETY: grid-stride over v < n; dist, updating and mask hold n; flag 1.
            unsafe {
                update.launch(&stream, config, &mut self.dist, &self.updating, &mut self.mask, &mut flag, self.n)
            }?;
            if stream.clone_dtoh(&flag)?[0] == 0 {
                return Ok(iterations);
            }
        }
    }

    /// Near-far from `src`, in one cooperative launch; returns the relaxation rounds whose queue
    /// held vertices and the thresholds that held work.
    fn near_far(&mut self, src: u32) -> Result<(u64, u64)> {
        let kernel = SsspNearFarCooperative::load(self.gpu)?;
        let stream = self.gpu.stream.clone();
        let [near_a, near_b, far_a, far_b, stamps] = &mut self.queues;
        stream.memcpy_htod(&[src], &mut near_a.slice_mut(0..1))?;
        // The first near queue holds the source; every other length, the barrier and the counters
        // start at 0.
        let mut ctl = [0u32; CONTROL_WORDS];
        ctl[0] = 1;
        // The barrier's generation starts just below its wrap, so every run crosses it.
        ctl[GENERATION_AT] = u32::MAX - 2;
        stream.memcpy_htod(&ctl, &mut self.control)?;
        stream.memcpy_htod(&[Weight::INFINITY.to_bits()], &mut self.least)?;
        // Every block resident at once (the kernel waits for all of them at each barrier), and few
        // of them: a round's queue is often small, and a barrier's cost grows with its blocks.
        let per_multiprocessor = kernel.resident_blocks(BLOCK_THREADS)?.min(NEAR_FAR_BLOCKS_PER_SM);
        let blocks = (self.gpu.multiprocessors()? * per_multiprocessor).max(1);
        let config = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 };
        // SAFETY: grid-stride over queues of at most n vertices (< n): a vertex enters a near queue
        // once per round (stamps) and a far pile once while its in-far flag (mask) is set, so no
        // queue or pile passes its n entries; coff holds n + 1 offsets into cadj and weight (heads
        // < n); dist, stamps and mask hold n; control CONTROL_WORDS; least and relaxed 1. A
        // cooperative launch with at most the resident blocks, which the barrier needs.
        unsafe {
            kernel.launch(
                &stream,
                config,
                &self.coff,
                &self.cadj,
                &self.weight,
                &mut self.dist,
                self.delta,
                near_a,
                near_b,
                far_a,
                far_b,
                stamps,
                &mut self.mask,
                &mut self.control,
                &mut self.least,
                &mut self.relaxed,
            )
        }?;
        let ctl = stream.clone_dtoh(&self.control)?;
        // The first threshold's bucket holds the source; the kernel counts those after it.
        Ok((u64::from(ctl[ROUNDS_AT]), 1 + u64::from(ctl[BUCKETS_AT])))
    }
}

/// A grid-stride launch over `items`, at most `max_blocks` blocks.
fn grid(max_blocks: u32, items: u32) -> LaunchConfig {
    let blocks = items.div_ceil(BLOCK_THREADS).clamp(1, max_blocks);
    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 }
}
