//! Batch reachability on the GPU: the cheap rules on the CPU first, then the undecided queries as
//! concurrent label-guided BFSs on the device, 64·W queries per batch (`kernels/search.cu`).

use super::context::Gpu;
use super::memory::Ledger;
use crate::query::rules::cheap_verdict;
use crate::query::{Engine, Query, Rule, RuleCounts};
use anyhow::{Context, Result, ensure};
use cudarc::driver::{CudaSlice, LaunchConfig, PushKernelArg, sys};
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// The most words per vertex (64·W queries per batch). By measurement (README, GPU section) wider
/// batches are faster, up to the 48 KiB of shared memory that holds the batch's destinations.
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
const THREADS: u32 = 256;

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

/// Answers every query (true = reachable); also the report.
pub fn run_batch(gpu: &Gpu, engine: &Engine, queries: &[Query], words: usize) -> Result<(Vec<bool>, GpuBatchReport)> {
    ensure!((1..=MAX_WORDS).contains(&words), "words per vertex must be 1..={MAX_WORDS}, not {words}");
    let labels = engine.labels();
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
                cheap_verdict(labels, u, v).map(|verdict| (verdict.rule, verdict.reachable))
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
    seed: cudarc::driver::CudaFunction,
    expand: cudarc::driver::CudaFunction,
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
        let coff = ledger.upload(stream, "children offsets", dag.children_csr().offsets())?;
        let cadj = ledger.upload(stream, "children", dag.children_csr().targets())?;
        ensure!(dims <= 8, "the GPU search takes at most 8 dimensions, not {dims}");
        let intervals = ledger.upload(stream, "labels", bytemuck::cast_slice::<_, u32>(labels.intervals()))?;
        let subtree = ledger.upload(stream, "subtree sizes", labels.subtrees())?;
        let bits = n * words;
        let sms = gpu.ctx.attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32;
        Ok(DeviceSearch {
            gpu,
            seed: gpu.function("search", "search_seed")?,
            expand: gpu.function("search", "search_expand")?,
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
        let (n, words) = (self.n, self.words);
        let mut launch = stream.launch_builder(&self.seed);
        launch.arg(&src_d).arg(&queries).arg(&words).arg(&self.coff).arg(&mut self.cur).arg(&mut self.visited);
        launch.arg(&mut self.queue_next).arg(&mut self.counts).arg(&mut self.stamp).arg(&self.level_stamp).arg(&n);
        unsafe { launch.launch(LaunchConfig::for_num_elems(queries)) }.context("search_seed")?;
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
                let group: u32 = [1, 32, THREADS][class];
                let blocks = count.div_ceil(THREADS / group).min(self.max_blocks);
                let start = class * n as usize;
                let queue = self.queue.slice(start..start + count as usize);
                let config =
                    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: shared };
                let mut launch = stream.launch_builder(&self.expand);
                launch.arg(&queue).arg(&count).arg(&group).arg(&words).arg(&self.dims).arg(&queries);
                launch.arg(&dst_d).arg(&self.intervals).arg(&self.subtree).arg(&self.coff).arg(&self.cadj);
                launch.arg(&mut self.cur).arg(&mut self.next).arg(&mut self.visited).arg(&mut self.answered);
                launch.arg(&mut self.queue_next).arg(&mut self.counts).arg(&mut self.stamp);
                launch.arg(&self.level_stamp).arg(&n);
                unsafe { launch.launch(config) }.context("search_expand")?;
            }
            // The bits just written to `next` are the new frontier; `cur` was cleared as it was read.
            std::mem::swap(&mut self.cur, &mut self.next);
        }
        Ok(stream.clone_dtoh(&self.answered)?)
    }
}
