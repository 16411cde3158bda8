//! Batch reachability on the GPU: the engine's cheap rules on the CPU first (every cut of the query
//! index when the engine has one), then the undecided queries as
//! concurrent label-guided BFSs on the device, 64·W queries per batch (`kernels/search.cu`).

use super::context::Gpu;
use super::kernels::search::{SearchExpand, SearchSeed};
use super::memory::Ledger;
use crate::constants::{BLOCK_THREADS, SEARCH_MAX_DIMS, WARP_SIZE};
use crate::query::{BatchReport, Engine, Method, Query, Rule, RuleCounts};
use anyhow::{Result, ensure};
use cudarc::driver::{CudaSlice, LaunchConfig};
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// The most words per vertex (64·W queries per batch). Wider batches are faster (docs/BENCHMARKS.md,
/// "GPU batch search"), up to the 48 KiB of shared memory that holds the batch's destinations.
pub const MAX_WORDS: usize = 16;
const SHARED_BYTES: usize = 48 * 1024;

/// The widest batch whose destinations and labels (`dims` intervals each) fit shared memory.
pub fn default_words(dims: usize) -> usize {
    (SHARED_BYTES / (64 * 4 * (1 + 2 * dims))).clamp(1, MAX_WORDS)
}

/// Shared memory one batch of `words` needs with `dims` dimensions.
fn shared_bytes(words: usize, dims: usize) -> usize {
    64 * words * 4 * (1 + 2 * dims)
}

/// What a GPU batch did: the columns of the thesis's Tables 6.4-6.6.
#[derive(Clone, Debug, Serialize)]
pub struct GpuBatchReport {
    pub queries: u64,
    pub positives: u64,
    /// Queries left undecided by the cheap rules and searched on the GPU.
    pub sent_to_gpu: u64,
    /// Queries decided by each rule (`search` = sent to the GPU).
    pub by_rule: RuleCounts,
    pub words: usize,
    pub batches: u64,
    /// BFS levels over all batches.
    pub levels: u64,
    pub cpu_filter_seconds: f64,
    /// Upload, search and download, synchronised.
    pub gpu_seconds: f64,
    pub device: String,
}

impl GpuBatchReport {
    /// The same batch in the CPU runs' report shape (answers checked against the expected ones; no
    /// search counts: the device does not keep them). `threads` ran the CPU filter.
    pub fn batch_report(&self, queries: &[Query], answers: &[bool], threads: usize) -> BatchReport {
        let elapsed = std::time::Duration::from_secs_f64(self.cpu_filter_seconds + self.gpu_seconds);
        BatchReport::of_answers(queries, answers, Method::GuidedBfs, threads, self.by_rule, elapsed)
    }
}

/// Answers every query (true = reachable); also the report.
pub fn run_batch(gpu: &Gpu, engine: &Engine, queries: &[Query], words: usize) -> Result<(Vec<bool>, GpuBatchReport)> {
    ensure!((1..=MAX_WORDS).contains(&words), "words per vertex must be 1..={MAX_WORDS}, not {words}");
    let component = engine.component();
    let clock = Instant::now();
    // Pre-filter: the deciding rule and answer when a cheap rule decides, None when only a search can.
    let filtered: Vec<Option<(Rule, bool)>> = queries
        .par_iter()
        .map(|q| {
            let (u, v) = (component[q.src as usize], component[q.dst as usize]);
            if u == v {
                Some((Rule::SameComponent, true))
            } else {
                // The engine's rules: every cut when it has a query index, GRAIL's otherwise. Each
                // is exact, so the device only searches what they leave.
                engine.verdict(u, v).map(|verdict| (verdict.rule, verdict.reachable))
            }
        })
        .collect();
    let mut by_rule = RuleCounts::default();
    for f in &filtered {
        by_rule.add(f.map_or(Rule::Search, |(rule, _)| rule));
    }
    let decided: Vec<Option<bool>> = filtered.iter().map(|f| f.map(|(_, answer)| answer)).collect();
    let undecided: Vec<usize> = (0..queries.len()).filter(|&i| decided[i].is_none()).collect();
    let cpu_filter_seconds = clock.elapsed().as_secs_f64();

    let clock = Instant::now();
    let mut answers: Vec<bool> = decided.iter().map(|d| d.unwrap_or(false)).collect();
    let mut search = DeviceSearch::new(gpu, engine, words)?;
    let batch = 64 * words;
    let mut batches = 0;
    for chunk in undecided.chunks(batch) {
        let src: Vec<u32> = chunk.iter().map(|&i| component[queries[i].src as usize]).collect();
        let dst: Vec<u32> = chunk.iter().map(|&i| component[queries[i].dst as usize]).collect();
        let found = search.batch(&src, &dst)?;
        for (k, &i) in chunk.iter().enumerate() {
            answers[i] = found[k / 64] >> (k % 64) & 1 == 1;
        }
        batches += 1;
    }
    let gpu_seconds = clock.elapsed().as_secs_f64();
    let report = GpuBatchReport {
        queries: queries.len() as u64,
        positives: answers.iter().filter(|&&a| a).count() as u64,
        sent_to_gpu: undecided.len() as u64,
        by_rule,
        words,
        batches,
        levels: search.levels,
        cpu_filter_seconds,
        gpu_seconds,
        device: gpu.info.name.clone(),
    };
    Ok((answers, report))
}

/// The device side: the DAG and its labels resident, bit sets sized for one batch.
struct DeviceSearch<'g> {
    gpu: &'g Gpu,
    seed: SearchSeed,
    expand: SearchExpand,
    n: u32,
    words: u32,
    dims: u32,
    max_blocks: u32,
    coff: CudaSlice<u64>,
    cadj: CudaSlice<u32>,
    intervals: CudaSlice<u32>,
    subtree: CudaSlice<u32>,
    cur: CudaSlice<u64>,
    next: CudaSlice<u64>,
    visited: CudaSlice<u64>,
    answered: CudaSlice<u64>,
    queue: CudaSlice<u32>,
    queue_next: CudaSlice<u32>,
    counts: CudaSlice<u32>,
    stamp: CudaSlice<u32>,
    level_stamp: u32,
    levels: u64,
    _ledger: Ledger,
}

impl<'g> DeviceSearch<'g> {
    fn new(gpu: &'g Gpu, engine: &Engine, words: usize) -> Result<DeviceSearch<'g>> {
        let dag = engine.dag();
        let labels = engine.labels();
        let n = dag.num_vertices();
        let dims = labels.dims();
        let shared = shared_bytes(words, dims);
        ensure!(
            shared <= SHARED_BYTES,
            "{words} words with {dims} dimensions need {shared} bytes of shared memory; at most {} words fit",
            default_words(dims)
        );
        let stream = &gpu.stream;
        let mut ledger = Ledger::default();
        let coff = ledger.upload(gpu, "children offsets", dag.children_csr().offsets())?;
        let cadj = ledger.upload(gpu, "children", dag.children_csr().targets())?;
        ensure!(dims <= SEARCH_MAX_DIMS, "the GPU search takes at most {SEARCH_MAX_DIMS} dimensions, not {dims}");
        let intervals = ledger.upload(gpu, "labels", bytemuck::cast_slice::<_, u32>(labels.intervals()))?;
        let subtree = ledger.upload(gpu, "subtree sizes", labels.subtrees())?;
        let bits = n * words;
        let sms = gpu.multiprocessors()?;
        Ok(DeviceSearch {
            gpu,
            seed: SearchSeed::load(gpu)?,
            expand: SearchExpand::load(gpu)?,
            n: n as u32,
            words: words as u32,
            dims: dims as u32,
            max_blocks: sms * 8,
            coff,
            cadj,
            intervals,
            subtree,
            cur: ledger.zeros(stream, "frontier bits", bits)?,
            next: ledger.zeros(stream, "next frontier bits", bits)?,
            visited: ledger.zeros(stream, "visited bits", bits)?,
            answered: ledger.zeros(stream, "answered bits", words)?,
            queue: ledger.zeros(stream, "frontier queues", 3 * n)?,
            queue_next: ledger.zeros(stream, "next frontier queues", 3 * n)?,
            counts: ledger.zeros(stream, "queue counts", 3)?,
            stamp: ledger.zeros(stream, "queued stamps", n)?,
            level_stamp: 0,
            levels: 0,
            _ledger: ledger,
        })
    }

    /// Runs one batch (at most 64·W queries); returns the `answered` words (bit k = query k reached).
    fn batch(&mut self, src: &[u32], dst: &[u32]) -> Result<Vec<u64>> {
        let stream = self.gpu.stream.clone();
        let queries = src.len() as u32;
        let src_d = stream.clone_htod(src)?;
        let dst_d = stream.clone_htod(dst)?;
        stream.memset_zeros(&mut self.cur)?;
        stream.memset_zeros(&mut self.next)?;
        stream.memset_zeros(&mut self.visited)?;
        stream.memset_zeros(&mut self.answered)?;
        stream.memset_zeros(&mut self.counts)?;
        self.level_stamp += 1;
        let (n, words, level_stamp) = (self.n, self.words, self.level_stamp);
        let (coff, cur, visited) = (&self.coff, &mut self.cur, &mut self.visited);
        let (queue_next, counts, stamp) = (&mut self.queue_next, &mut self.counts, &mut self.stamp);
        // SAFETY: a thread per query q < queries (the kernel returns past it) reads src[q] (src_d
        // holds the `queries` sources) and sets bit q of source s < n in cur and visited, at word
        // s * words + q / 64 of n * words, as queries <= 64 * words (`run_batch` chunks by that).
        // It queues s at queue_next[class * n + k], k < n as the stamps (n entries) queue a vertex
        // once per level, of 3 n entries; counts has the 3 classes.
        let config = LaunchConfig::for_num_elems(queries);
        unsafe {
            self.seed.launch(
                &stream,
                config,
                &src_d,
                queries,
                words,
                coff,
                cur,
                visited,
                queue_next,
                counts,
                stamp,
                level_stamp,
                n,
            )
        }?;
        let shared = queries * 4 * (1 + 2 * self.dims);
        let all_answered = |answered: &[u64]| (0..queries as usize).all(|q| answered[q / 64] >> (q % 64) & 1 == 1);
        loop {
            let counts = stream.clone_dtoh(&self.counts)?;
            if counts.iter().all(|&c| c == 0) || all_answered(&stream.clone_dtoh(&self.answered)?) {
                break;
            }
            std::mem::swap(&mut self.queue, &mut self.queue_next);
            stream.memset_zeros(&mut self.counts)?;
            self.level_stamp += 1;
            self.levels += 1;
            for (class, &count) in counts.iter().enumerate() {
                if count == 0 {
                    continue;
                }
                let group: u32 = [1, WARP_SIZE, BLOCK_THREADS][class];
                let blocks = count.div_ceil(BLOCK_THREADS / group).min(self.max_blocks);
                let start = class * n as usize;
                let queue = self.queue.slice(start..start + count as usize);
                let config = LaunchConfig {
                    grid_dim: (blocks, 1, 1),
                    block_dim: (BLOCK_THREADS, 1, 1),
                    shared_mem_bytes: shared,
                };
                let (dims, level_stamp) = (self.dims, self.level_stamp);
                let (intervals, subtree, coff, cadj) = (&self.intervals, &self.subtree, &self.coff, &self.cadj);
                let (cur, next, visited, answered) =
                    (&mut self.cur, &mut self.next, &mut self.visited, &mut self.answered);
                let (queue_next, counts, stamp) = (&mut self.queue_next, &mut self.counts, &mut self.stamp);
                // SAFETY: groups of `group` threads (1, a warp or the whole block, dividing
                // BLOCK_THREADS, so a group's __syncwarp/__syncthreads is reached by all of it)
                // stride over the `count` vertices x < n of `queue`. The dynamic shared memory is
                // the kernel's dst[queries] and dims intervals per query, `shared` bytes (at most
                // SHARED_BYTES, checked in `new`). dst_d holds the `queries` destinations; a vertex's
                // words are at x * words.. of n * words in cur, next and visited; answered holds
                // `words`; intervals 2 dims and subtree dims per vertex, with dims <= SEARCH_MAX_DIMS,
                // the kernel's register arrays. Children are queued at most once per level (stamp, n
                // entries) at queue_next[class * n + k], k < n, of 3 n entries; counts has 3.
                unsafe {
                    self.expand.launch(
                        &stream,
                        config,
                        &queue,
                        count,
                        group,
                        words,
                        dims,
                        queries,
                        &dst_d,
                        intervals,
                        subtree,
                        coff,
                        cadj,
                        cur,
                        next,
                        visited,
                        answered,
                        queue_next,
                        counts,
                        stamp,
                        level_stamp,
                        n,
                    )
                }?;
            }
            // The bits just written to `next` are the new frontier; `cur` was cleared as it was read.
            std::mem::swap(&mut self.cur, &mut self.next);
        }
        Ok(stream.clone_dtoh(&self.answered)?)
    }
}
