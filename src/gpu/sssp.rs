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
//! [`crate::weighted::delta::choose_delta`]) and the pile is split. The host queues
//! [`RELAX_BATCH`] rounds at a time, each reading its queue's length on the device, and reads the
//! lengths back once per batch: on a small frontier a round is a few microseconds of kernel and a
//! read-back waits far longer. Why this rather than a
//! worklist Bellman-Ford: the threshold keeps the frontier to vertices near their final distance,
//! so, as in delta-stepping, most vertices are relaxed about once instead of once per improvement;
//! and why not many buckets: two keep the bookkeeping to one pile, split by one kernel. It
//! relaxes about as many edges as Dijkstra, where two-phase relaxes a vertex's edges again after
//! every improvement; but on graphs of a few million edges both are bound by the host's
//! read-backs, not by edges, and two-phase's few iterations can take less time than near-far's
//! rounds and splits (docs/BENCHMARKS.md, "Shortest paths").
//!
//! Both engines only ever lower a distance to `d(u) + w` and stop when no edge can lower one: the
//! fixpoint every CPU engine reaches too ([`crate::weighted`] explains why it is the same bits).

use super::context::Gpu;
use super::kernels::sssp::{SsspInit, SsspNearFarRelax, SsspNearFarSplit, SsspTwoPhaseRelax, SsspTwoPhaseUpdate};
use super::memory::Ledger;
use crate::constants::BLOCK_THREADS;
use crate::graph::{Weight, WeightedGraph};
use crate::weighted::{Distances, SsspEngine};
use anyhow::{Result, bail, ensure};
use cudarc::driver::{CudaSlice, LaunchConfig};
use std::time::Instant;

/// Near-far relaxation rounds queued at once: the host reads the queue lengths once per batch
/// (each read waits for the device), and a round after the queue ran dry costs one empty launch.
const RELAX_BATCH: u32 = 8;

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
    counts: CudaSlice<u32>,
    /// Near-far: the far pile's length, then each round's near queue length, for a batch.
    batch: CudaSlice<u32>,
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
            counts: ledger.zeros(stream, "queue counts", 2)?,
            batch: ledger.zeros(stream, "batch queue counts", RELAX_BATCH as usize + 2)?,
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
        ensure!(src < self.n, "vertex {src} is not in 0..{}", self.n);
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

    /// Near-far from `src`; returns the relaxation rounds whose queue held vertices and the
    /// thresholds that held work.
    fn near_far(&mut self, src: u32) -> Result<(u64, u64)> {
        let (relax, split) = (SsspNearFarRelax::load(self.gpu)?, SsspNearFarSplit::load(self.gpu)?);
        let stream = self.gpu.stream.clone();
        let max_blocks = self.max_blocks;
        let [near, near_next, far, far_next, stamps] = &mut self.queues;
        stream.memcpy_htod(&[src], &mut near.slice_mut(0..1))?;
        let (mut near_count, mut far_count) = (1u32, 0u32);
        let mut threshold = self.delta;
        let (mut rounds, mut buckets, mut tag) = (0u64, 1u64, 0u32);
        loop {
            while near_count > 0 {
                let mut lengths = [0u32; RELAX_BATCH as usize + 2];
                (lengths[0], lengths[1]) = (far_count, near_count);
                stream.memcpy_htod(&lengths, &mut self.batch)?;
                for round in 0..RELAX_BATCH {
                    tag = tag.checked_add(1).ok_or_else(|| anyhow::anyhow!("more than 2^32 rounds"))?;
                    // The first round's length is known; a later one's may be up to n.
                    let config = grid(max_blocks, if round == 0 { near_count } else { u32::MAX });
                    // SAFETY: grid-stride over the queue's batch[1 + round] <= n vertices (< n);
                    // coff holds n + 1 offsets into cadj and weight (heads < n); dist, stamps and
                    // mask hold n. A vertex enters near_next once per tag and far once while its
                    // mask entry is set, so neither passes n entries; round + 2 < the batch's
                    // RELAX_BATCH + 2 lengths; relaxed holds 1.
                    unsafe {
                        relax.launch(
                            &stream,
                            config,
                            near,
                            round,
                            &self.coff,
                            &self.cadj,
                            &self.weight,
                            &mut self.dist,
                            threshold.to_bits(),
                            near_next,
                            far,
                            stamps,
                            tag,
                            &mut self.mask,
                            &mut self.batch,
                            &mut self.relaxed,
                        )
                    }?;
                    std::mem::swap(near, near_next);
                }
                let lengths = stream.clone_dtoh(&self.batch)?;
                rounds += lengths[1..=RELAX_BATCH as usize].iter().filter(|&&c| c > 0).count() as u64;
                (far_count, near_count) = (lengths[0], lengths[RELAX_BATCH as usize + 1]);
            }
            if far_count == 0 {
                return Ok((rounds, buckets));
            }
            // Move the threshold up by delta, or, when that leaves the near queue empty, past the
            // least far distance (at least to the next number above it, so the split moves it).
            let mut next = threshold + self.delta;
            loop {
                stream.memcpy_htod(&[0u32, 0], &mut self.counts)?;
                stream.memcpy_htod(&[Weight::INFINITY.to_bits()], &mut self.least)?;
                let config = grid(max_blocks, far_count);
                let pile = far.slice(0..far_count as usize);
                // SAFETY: grid-stride over the far_count <= n piled vertices (distinct, < n);
                // each lands in near or far_next once (n entries each); mask holds n, counts 2.
                unsafe {
                    split.launch(
                        &stream,
                        config,
                        &pile,
                        far_count,
                        &self.dist,
                        threshold.to_bits(),
                        next.to_bits(),
                        &mut self.mask,
                        near,
                        far_next,
                        &mut self.counts,
                        &mut self.least,
                    )
                }?;
                let counts = stream.clone_dtoh(&self.counts)?;
                (near_count, far_count) = (counts[0], counts[1]);
                std::mem::swap(far, far_next);
                threshold = next;
                if near_count > 0 || far_count == 0 {
                    break;
                }
                let least = Weight::from_bits(stream.clone_dtoh(&self.least)?[0]);
                next = (least + self.delta).max(Weight::from_bits(least.to_bits() + 1));
            }
            if near_count > 0 {
                buckets += 1;
            }
        }
    }
}

/// A grid-stride launch over `items`, at most `max_blocks` blocks.
fn grid(max_blocks: u32, items: u32) -> LaunchConfig {
    let blocks = items.div_ceil(BLOCK_THREADS).clamp(1, max_blocks);
    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 }
}
