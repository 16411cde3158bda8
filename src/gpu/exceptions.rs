//! Exceptions counted exactly on the GPU (`kernels/exceptions.cu`): the CPU's streamed count
//! (`crate::exceptions::exact`) with wide target blocks. Per block of 64·W targets (slots in
//! dimension 0's post order), each vertex's own bit, then the bit-parallel pass group by group
//! (`closure_height`, as for the closure), then one launch that checks every source's candidate slots
//! against the labels. The counts are the CPU's exactly (tests/gpu.rs and the self-test compare
//! them); which examples are kept when more pairs qualify than fit may differ.

use super::context::Gpu;
use super::exact_closure::{HeightPass, stride_grid};
use super::kernels::closure::ClosureHeight;
use super::kernels::exceptions::{ExceptionsCount, ExceptionsOwnBits};
use super::memory::Ledger;
use crate::constants::{BLOCK_THREADS, EXCEPTIONS_MAX_DIMS, WARP_SIZE};
use crate::exact::heights::HeightOrder;
use crate::exceptions::{Candidates, EXAMPLES, ExceptionCounts, from_passes};
use crate::graph::Graph;
use crate::index::Labels;
use anyhow::{Result, bail, ensure};
use cudarc::driver::{CudaSlice, LaunchConfig};
use std::sync::atomic::{AtomicBool, Ordering};

/// The most device memory the target block's rows take (n × W words): wider blocks mean fewer
/// passes' launches; the work per pair is the same.
const ROWS_BYTES: u64 = 8 << 30;
/// Pairs kept per number of dimensions fooled, for the host to pick the examples from.
const EXAMPLE_CAP: u32 = 4 * EXAMPLES as u32;

/// Exact counts over every ordered pair of `dag` on `gpu` (any size that fits: the closure is never
/// stored), in target blocks of at most `block_words` words (default: as wide as memory allows; the
/// self-test narrows them to check the seams). `progress` gets the fraction of target blocks done;
/// a set `cancel` stops with an error between blocks.
pub fn count(
    gpu: &Gpu,
    dag: &Graph,
    labels: &Labels,
    block_words: Option<usize>,
    cancel: &AtomicBool,
    progress: &(dyn Fn(f64) + Sync),
) -> Result<ExceptionCounts> {
    let n = dag.num_vertices();
    let dims = labels.dims();
    ensure!(dims <= EXCEPTIONS_MAX_DIMS, "the GPU counts exceptions of at most {EXCEPTIONS_MAX_DIMS} dimensions");
    if n < 2 {
        // No pair to count (and no target block to launch on): each vertex reaches only itself.
        let mut counts = from_passes(labels, n, n as u64, vec![0; dims + 1], Vec::new());
        counts.device = gpu.info.name.clone();
        return Ok(counts);
    }
    let heights = HeightOrder::by_depth(dag)?;
    let candidates = Candidates::new(labels);
    let (free, _) = gpu.memory()?;
    // Rows of at most ROWS_BYTES and half the free memory, at least one word.
    let all_words = n.div_ceil(64);
    let width = ((ROWS_BYTES.min(free / 2) / (8 * n as u64)) as usize).min(block_words.unwrap_or(usize::MAX));
    let width = width.clamp(1, all_words);
    let stream = gpu.stream.clone();
    let mut ledger = Ledger::default();
    let intervals: &[u32] = bytemuck::cast_slice(labels.intervals());
    let by_slot: Vec<u32> =
        candidates.at_slot.iter().flat_map(|&v| bytemuck::cast_slice::<_, u32>(labels.of(v)).iter().copied()).collect();
    let (start, end): (Vec<u32>, Vec<u32>) = candidates.ranges.iter().map(|&(s, e)| (s as u32, e as u32)).unzip();
    let coff = ledger.upload(gpu, "children offsets", dag.children_csr().offsets())?;
    let cadj = ledger.upload(gpu, "children", dag.children_csr().targets())?;
    let order = ledger.upload(gpu, "schedule by depth", &heights.order)?;
    let slot = ledger.upload(gpu, "slots", &candidates.slot)?;
    let at_slot = ledger.upload(gpu, "vertex at each slot", &candidates.at_slot)?;
    let start = ledger.upload(gpu, "candidate starts", &start)?;
    let end = ledger.upload(gpu, "candidate ends", &end)?;
    let labels_dev = ledger.upload(gpu, "labels", intervals)?;
    let by_slot = ledger.upload(gpu, "labels by slot", &by_slot)?;
    let mut rows: CudaSlice<u64> = ledger.zeros(&stream, "target block rows", n * width)?;
    let mut hist: CudaSlice<u64> = ledger.zeros(&stream, "histogram", EXCEPTIONS_MAX_DIMS + 1)?;
    let mut reachable: CudaSlice<u64> = ledger.zeros(&stream, "reachable pairs", 1)?;
    let mut example_count: CudaSlice<u32> = ledger.zeros(&stream, "example counts", EXCEPTIONS_MAX_DIMS + 1)?;
    let mut examples: CudaSlice<u32> =
        ledger.zeros(&stream, "examples", (EXCEPTIONS_MAX_DIMS + 1) * EXAMPLE_CAP as usize * 2)?;
    let (own_bits, height, check) =
        (ExceptionsOwnBits::load(gpu)?, ClosureHeight::load(gpu)?, ExceptionsCount::load(gpu)?);
    let sms = gpu.multiprocessors()?;
    let grid = stride_grid(sms);
    // A warp per source: enough blocks for the sources, at most 8 per multiprocessor.
    let warps_per_block = (BLOCK_THREADS / WARP_SIZE) as u64;
    let check_blocks = (n as u64).div_ceil(warps_per_block).clamp(1, sms as u64 * 8) as u32;
    let check_config =
        LaunchConfig { grid_dim: (check_blocks, 1, 1), block_dim: (BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 };
    let pass = HeightPass::new(dag, &heights);
    let blocks = crate::exact::closure::bit_parallel::blocks(n, width);
    for (i, &(first, w)) in blocks.iter().enumerate() {
        if cancel.load(Ordering::Relaxed) {
            bail!("cancelled");
        }
        let mut block_rows = rows.slice_mut(..n * w);
        stream.memset_zeros(&mut block_rows)?;
        // The block's rows are n × w words: the last block may be narrower than the others.
        let (nn, first, ww) = (n as u32, first as u32, w as u32);
        // SAFETY: grid-stride over v < n; slot[v] - first < 64 * w is checked, so the word index
        // is < w in row v of n * w words.
        unsafe { own_bits.launch(&stream, grid(n as u64), &slot, nn, first, ww, &mut block_rows) }?;
        pass.launch(&height, &stream, grid, &order, &coff, &cadj, &mut block_rows, w)?;
        let block_rows = rows.slice(..n * w);
        // SAFETY: a warp per source u < n (BLOCK_THREADS threads, whole warps); rows hold n * w
        // words and a candidate s is in [first, first + 64 * w), so its word is < w; start, end are
        // n slots <= n, labels n * dims pairs, by_slot and at_slot n slots; hist and example_count
        // hold EXCEPTIONS_MAX_DIMS + 1 >= dims + 1, examples that many times cap pairs.
        unsafe {
            check.launch(
                &stream,
                check_config,
                &block_rows,
                nn,
                first,
                ww,
                &start,
                &end,
                &labels_dev,
                &by_slot,
                &at_slot,
                dims as u32,
                EXAMPLE_CAP,
                &mut hist,
                &mut reachable,
                &mut example_count,
                &mut examples,
            )
        }?;
        stream.synchronize()?;
        progress((i + 1) as f64 / blocks.len() as f64);
    }
    let mut hist = stream.clone_dtoh(&hist)?;
    hist.truncate(dims + 1);
    let reachable = stream.clone_dtoh(&reachable)?[0];
    let kept = stream.clone_dtoh(&example_count)?;
    let found = &stream.clone_dtoh(&examples)?;
    // Per k, the first min(count, cap) pairs of its buffer were written.
    let pairs_found: Vec<(u32, u32, usize)> = (1..=dims)
        .flat_map(|k| {
            let base = k * EXAMPLE_CAP as usize;
            (base..base + kept[k].min(EXAMPLE_CAP) as usize).map(move |i| (found[2 * i], found[2 * i + 1], k))
        })
        .collect();
    let mut counts = from_passes(labels, n, reachable, hist, pairs_found);
    counts.device = gpu.info.name.clone();
    Ok(counts)
}
