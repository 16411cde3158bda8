//! Batch reachability on the GPU, every rule on the device (`kernels/search.cu`): the engine's rules
//! decide what they can for all queries at once; each undecided query then gets a short depth-first
//! search of its own (a warp), and the few it gives up are searched 64·W at a time by concurrent
//! bidirectional BFSs. Both searches judge every vertex they meet by the same rules.

use super::context::Gpu;
use super::kernels::search::{SearchCollect, SearchExpand, SearchFilter, SearchRetire, SearchSeed, SearchShort};
use super::memory::Ledger;
use super::search_index::SearchIndex;
use crate::constants::{BLOCK_THREADS, SEARCH_MAX_WORDS};
use crate::query::{BatchReport, Method, Query, Rule, RuleCounts, RuleSet};
use anyhow::{Result, bail, ensure};
use cudarc::driver::{CudaSlice, LaunchConfig};
use serde::Serialize;
use std::time::Instant;

/// The most words per vertex (64·W queries per batch): the kernels' per-word masks in shared memory.
pub const MAX_WORDS: usize = SEARCH_MAX_WORDS;

/// Words per vertex unless asked otherwise, where the device memory holds them: the widest batch
/// was the fastest (docs/BENCHMARKS.md, "GPU batch search"). The label dimensions do not bound it:
/// the kernels read the targets' labels from device memory.
pub const DEFAULT_WORDS: usize = MAX_WORDS;

/// Device bytes the searches' working memory takes per DAG vertex with `words` words: three bit
/// arrays per side (8 bytes a word), the touched list and its stamps (4 bytes a word), and each
/// side's queues, stamps and the like.
fn working_bytes_per_vertex(words: usize) -> u64 {
    (56 * words + 40) as u64
}

/// The widest batch up to [`DEFAULT_WORDS`] whose working memory for `n` DAG vertices takes at
/// most half the device memory free now (at least one word).
pub fn fitting_words(gpu: &Gpu, n: usize) -> Result<usize> {
    let (free, _) = gpu.memory()?;
    let mut words = DEFAULT_WORDS;
    while words > 1 && working_bytes_per_vertex(words) * n as u64 > free / 2 {
        words /= 2;
    }
    Ok(words)
}

/// The most vertices a short search expands, unless asked otherwise, before its query is left to
/// the batches: nearly every query the rules leave is answered within it on the random DAGs and
/// the data sets' positive files, and a larger budget made the uniform batches slower
/// (docs/BENCHMARKS.md, "GPU batch search").
pub const SHORT_SEARCH_EXPANSIONS: u32 = 4096;

/// How a batch searches what the rules leave undecided.
#[derive(Clone, Copy, Debug)]
pub struct SearchShape {
    /// 64-query words per vertex of the batched searches (64·W queries a batch), or None for the
    /// widest that fits ([`fitting_words`]).
    pub words: Option<usize>,
    /// The most vertices each query's short search may expand (0: every searched query goes to
    /// the batches).
    pub short_expansions: u32,
}

impl Default for SearchShape {
    fn default() -> SearchShape {
        SearchShape { words: None, short_expansions: SHORT_SEARCH_EXPANSIONS }
    }
}

/// What a GPU batch did: the columns of the thesis's Tables 6.4-6.6.
#[derive(Clone, Debug, Serialize)]
pub struct GpuBatchReport {
    pub queries: u64,
    pub positives: u64,
    /// The rule set the device applied (the engine's).
    pub rules: RuleSet,
    /// Queries the rules left undecided, searched on the device.
    pub searched: u64,
    /// Of those, the ones a short search answered (a warp each, depth first, at most
    /// `short_expansions` vertices expanded); the rest went to the batches.
    pub short_searched: u64,
    /// The most vertices a short search could expand.
    pub short_expansions: u32,
    /// Queries decided by each rule (`search` = searched), counted on the device's codes.
    pub by_rule: RuleCounts,
    /// 64-query words per vertex (64·W queries per batch).
    pub words: usize,
    /// Batches of the searches the short ones left.
    pub batches: u64,
    /// Search steps (every search of a batch advanced by one level on one side) over all batches.
    pub steps: u64,
    /// Vertices the searches expanded: each short search's own, and in the batches one per side,
    /// step and vertex, whatever the queries sharing it.
    pub expanded: u64,
    /// Their neighbours scanned.
    pub neighbours: u64,
    /// (neighbour, query) pairs the rules judged beyond the level cut.
    pub judged: u64,
    /// Uploading the DAG, labels and query index (0 when they were already on the device).
    pub upload_seconds: f64,
    /// Uploading the queries, deciding them by the rules and running the short searches, on the
    /// device (one wait for both).
    pub filter_seconds: f64,
    /// The batches of searches.
    pub search_seconds: f64,
    /// Downloading the answers and counting the rules.
    pub download_seconds: f64,
    /// The batch on resident data: filter, search and download (upload apart), synchronised.
    pub gpu_seconds: f64,
    /// Device bytes the resident data takes.
    pub resident_bytes: u64,
    /// The device's name.
    pub device: String,
}

impl GpuBatchReport {
    /// The same batch in the CPU runs' report shape (answers checked against the expected ones; no
    /// search counts: the device does not keep them), timed as the batch on resident data.
    /// `threads` is what the report names as the CPU's share.
    pub fn batch_report(&self, queries: &[Query], answers: &[bool], threads: usize) -> BatchReport {
        let elapsed = std::time::Duration::from_secs_f64(self.gpu_seconds);
        BatchReport::of_answers(queries, answers, Method::GuidedBfs, threads, self.by_rule, elapsed)
    }
}

/// Answers every query on data already on the device (`upload_seconds` is 0 in the report).
pub fn run_batch_on(
    gpu: &Gpu,
    index: &SearchIndex,
    queries: &[Query],
    shape: SearchShape,
) -> Result<(Vec<bool>, GpuBatchReport)> {
    let words = match shape.words {
        Some(words) => words,
        None => fitting_words(gpu, index.n as usize)?,
    };
    ensure!((1..=MAX_WORDS).contains(&words), "words per vertex must be 1..={MAX_WORDS}, not {words}");
    let n = index.original_vertices;
    if let Some(q) = queries.iter().find(|q| q.src as usize >= n || q.dst as usize >= n) {
        bail!("query {} -> {} names a vertex past the graph's {n}", q.src, q.dst);
    }
    let count = u32::try_from(queries.len()).map_err(|_| anyhow::anyhow!("at most 2^32 - 1 queries a batch"))?;
    let stream = gpu.stream.clone();
    let mut ledger = Ledger::default();

    // The rules, for every query at once, then the short searches of those left undecided.
    let clock = Instant::now();
    let pairs: Vec<u32> = queries.iter().flat_map(|q| [q.src, q.dst]).collect();
    let pairs = ledger.upload(gpu, "queries", &pairs)?;
    let mut code = ledger.zeros::<u32>(&stream, "rule codes", queries.len())?;
    let mut undecided = ledger.zeros::<u32>(&stream, "undecided queries", queries.len())?;
    // The undecided count, the short searches' cursor, and the count they leave to the batches.
    let mut counts = ledger.zeros::<u32>(&stream, "undecided counts", 3)?;
    let mut left = ledger.zeros::<u32>(&stream, "queries left to the batches", queries.len())?;
    let mut work = ledger.zeros::<u64>(&stream, "work counts", 3)?;
    if count > 0 {
        let filter = SearchFilter::load(gpu)?;
        // SAFETY: a thread per query i < count reads pairs[2i], pairs[2i + 1] (2 count entries), ids
        // below the component map's length (checked above), whose entries are DAG vertices < n of
        // every per-vertex array (level n, topo 2n, records 6n, intervals 2 dims n, subtree dims n),
        // or, with `identity`, already DAG vertices. It writes code[i] (count entries) and appends i
        // to `undecided` (count entries) at most once.
        unsafe {
            filter.launch(
                &stream,
                LaunchConfig::for_num_elems(count),
                &pairs,
                count,
                &index.component,
                u32::from(index.identity),
                &index.level,
                &index.topo,
                &index.records,
                &index.intervals,
                &index.subtree,
                index.dims,
                u32::from(index.all_rules),
                &mut code,
                &mut undecided,
                &mut counts,
            )
        }?;
        let short = SearchShort::load(gpu)?;
        let blocks = gpu.multiprocessors()? * SHORT_BLOCKS_PER_SM;
        // SAFETY: warps (BLOCK_THREADS is whole warps, and the kernel's stacks are sized for it)
        // take items below counts[0] (at most count, the length of `undecided`), each a query
        // index < count into pairs (2 count) and component ids as the filter reads them; they read
        // the CSR of children (offsets n + 1, entries below n) and per-vertex rule data as the
        // filter does, and write code[i] (count) or append i to `left` (count) once per item.
        unsafe {
            short.launch(
                &stream,
                LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 },
                &undecided,
                &mut counts,
                &pairs,
                &index.component,
                u32::from(index.identity),
                &index.level,
                &index.topo,
                &index.records,
                &index.intervals,
                &index.subtree,
                index.dims,
                u32::from(index.all_rules),
                &index.children_offsets,
                &index.children,
                shape.short_expansions,
                &mut code,
                &mut left,
                &mut work,
            )
        }?;
    }
    let counts = stream.clone_dtoh(&counts)?;
    let (searched, unanswered) = (counts[0], counts[2]);
    let filter_seconds = clock.elapsed().as_secs_f64();

    // The searches, 64·W queries at a time; no wider than the searched queries need, since the
    // working memory (zeroed when made) grows with W.
    let clock = Instant::now();
    let words = words.min((unanswered as usize).div_ceil(64).max(1));
    let (mut batches, mut steps) = (0, 0);
    if unanswered > 0 {
        let mut search = Searcher::new(gpu, index, words, &mut work)?;
        let batch = 64 * words as u32;
        let mut first = 0;
        while first < unanswered {
            let size = batch.min(unanswered - first);
            steps += search.batch(&left, first, size, &pairs, &mut code)?;
            batches += 1;
            first += size;
        }
        if search.profile.on {
            let [seed, expand, retire, collect, status] = search.profile.seconds;
            eprintln!(
                "profile: seed {seed:.4} s, expand {expand:.4} s, retire {retire:.4} s, \
                 collect {collect:.4} s, status reads {status:.4} s"
            );
        }
    }
    let work = stream.clone_dtoh(&work)?;
    let search_seconds = clock.elapsed().as_secs_f64();

    let clock = Instant::now();
    let codes = stream.clone_dtoh(&code)?;
    let mut by_rule = RuleCounts::default();
    let mut answers = Vec::with_capacity(codes.len());
    // A query's code is `2 * rule + answer`, the rule's index in `Rule::ALL` (kernels/search.cu).
    for (i, &c) in codes.iter().enumerate() {
        let Some(&rule) = Rule::ALL.get((c / 2) as usize) else {
            bail!("the GPU left query {i} undecided (code {c:#x})");
        };
        by_rule.add(rule);
        answers.push(c & 1 == 1);
    }
    let download_seconds = clock.elapsed().as_secs_f64();
    let report = GpuBatchReport {
        queries: queries.len() as u64,
        positives: answers.iter().filter(|&&a| a).count() as u64,
        rules: if index.all_rules { RuleSet::All } else { RuleSet::Grail },
        searched: u64::from(searched),
        short_searched: u64::from(searched - unanswered),
        short_expansions: shape.short_expansions,
        by_rule,
        words,
        batches,
        steps,
        expanded: work[0],
        neighbours: work[1],
        judged: work[2],
        upload_seconds: 0.0,
        filter_seconds,
        search_seconds,
        download_seconds,
        gpu_seconds: filter_seconds + search_seconds + download_seconds,
        resident_bytes: index.bytes(),
        device: gpu.info.name.clone(),
    };
    Ok((answers, report))
}

/// One side of the bidirectional searches: frontier bits now and next, bits ever held, the queue of
/// frontier vertices with the one being filled for the next step, and per query slot whether the
/// side advances this step, its frontier's size and the new vertices of the step being taken.
struct Side {
    cur: CudaSlice<u64>,
    next: CudaSlice<u64>,
    visited: CudaSlice<u64>,
    queue: CudaSlice<u32>,
    queue_next: CudaSlice<u32>,
    stamp: CudaSlice<u32>,
    turn: CudaSlice<u64>,
    size: CudaSlice<u32>,
    fresh: CudaSlice<u32>,
}

impl Side {
    fn new(gpu: &Gpu, ledger: &mut Ledger, name: &str, n: usize, words: usize) -> Result<Side> {
        let stream = &gpu.stream;
        Ok(Side {
            cur: ledger.zeros(stream, &format!("{name} frontier bits"), n * words)?,
            next: ledger.zeros(stream, &format!("{name} next frontier bits"), n * words)?,
            visited: ledger.zeros(stream, &format!("{name} visited bits"), n * words)?,
            queue: ledger.zeros(stream, &format!("{name} frontier queue"), n)?,
            queue_next: ledger.zeros(stream, &format!("{name} next frontier queue"), n)?,
            stamp: ledger.zeros(stream, &format!("{name} queued stamps"), n)?,
            turn: ledger.zeros(stream, &format!("{name} turns"), words)?,
            size: ledger.zeros(stream, &format!("{name} frontier sizes"), 64 * words)?,
            fresh: ledger.zeros(stream, &format!("{name} new vertices"), 64 * words)?,
        })
    }
}

/// Where the status words start saying which queries are done (after two queue counts per side and
/// the two sides' turn counts: kernels/search.cu).
const DONE_WORDS_AT: usize = 6;

/// Blocks per multiprocessor of the expanding kernel's one wave (its registers allow three of
/// BLOCK_THREADS at a time on an H100).
const BLOCKS_PER_SM: u32 = 3;

/// A query whose frontiers differ in size by at most this factor advances both sides in a step:
/// its bits then never wait in a frontier that is not expanded (carrying them costs a pass over
/// the vertices that hold them), and it needs fewer steps. Beyond it only the smaller side
/// advances, which keeps a one-sided search from growing its large side (docs/BENCHMARKS.md,
/// "GPU batch search").
const BOTH_SIDES_RATIO: u32 = 3;

/// Blocks per multiprocessor of the short searches' one wave of warps, which take queries from a
/// cursor until none is left.
const SHORT_BLOCKS_PER_SM: u32 = 4;

/// Steps enqueued between two reads of the status: the kernels read their counts on the device, so
/// the host waits only to learn whether the batch is over (a step after that does nothing).
const STEPS_PER_READ: u64 = 4;

/// The searches' working memory, sized for batches of 64·W queries, cleared after each batch.
struct Searcher<'a> {
    gpu: &'a Gpu,
    index: &'a SearchIndex,
    seed: SearchSeed,
    expand: SearchExpand,
    retire: SearchRetire,
    collect: SearchCollect,
    words: u32,
    max_blocks: u32,
    forward: Side,
    backward: Side,
    /// Per batch slot: the DAG source and destination, each with its level in the high half.
    ends: CudaSlice<u64>,
    /// Queue counts, turn counts, done words (kernels/search.cu).
    status: CudaSlice<u64>,
    found: CudaSlice<u64>,
    touched: CudaSlice<u32>,
    touched_count: CudaSlice<u32>,
    batch_stamp: CudaSlice<u32>,
    /// Vertices expanded, their neighbours, (neighbour, query) pairs judged, added to the counts
    /// of the short searches.
    work: &'a mut CudaSlice<u64>,
    profile: Profile,
    batch_id: u32,
    step_stamp: u32,
    _ledger: Ledger,
}

impl<'a> Searcher<'a> {
    fn new(gpu: &'a Gpu, index: &'a SearchIndex, words: usize, work: &'a mut CudaSlice<u64>) -> Result<Searcher<'a>> {
        let n = index.n as usize;
        ensure!(
            n * words <= u32::MAX as usize,
            "{n} vertices with {words} words each are too many for one batch's word lists; use fewer --words"
        );
        let stream = &gpu.stream;
        let mut ledger = Ledger::default();
        Ok(Searcher {
            gpu,
            index,
            seed: SearchSeed::load(gpu)?,
            expand: SearchExpand::load(gpu)?,
            retire: SearchRetire::load(gpu)?,
            collect: SearchCollect::load(gpu)?,
            words: words as u32,
            max_blocks: gpu.multiprocessors()? * BLOCKS_PER_SM,
            forward: Side::new(gpu, &mut ledger, "forward", n, words)?,
            backward: Side::new(gpu, &mut ledger, "backward", n, words)?,
            ends: ledger.zeros(stream, "batch ends", 2 * 64 * words)?,
            status: ledger.zeros(stream, "search status", DONE_WORDS_AT + words)?,
            found: ledger.zeros(stream, "found bits", words)?,
            touched: ledger.zeros(stream, "touched words", n * words)?,
            touched_count: ledger.zeros(stream, "touched count", 1)?,
            batch_stamp: ledger.zeros(stream, "touched stamps", n * words)?,
            work,
            profile: Profile {
                on: std::env::var_os("GRAIL_SEARCH_PROFILE").is_some(),
                seconds: [0.0; 5],
                lap: Instant::now(),
            },
            batch_id: 0,
            step_stamp: 0,
            _ledger: ledger,
        })
    }

    /// Searches queries `undecided[first..first + size]` (size <= 64·W) and writes their codes;
    /// returns the steps taken.
    fn batch(
        &mut self,
        undecided: &CudaSlice<u32>,
        first: u32,
        size: u32,
        pairs: &CudaSlice<u32>,
        code: &mut CudaSlice<u32>,
    ) -> Result<u64> {
        let stream = self.gpu.stream.clone();
        let index = self.index;
        let words = self.words;
        self.batch_id += 1;
        self.step_stamp += 1;
        stream.memset_zeros(&mut self.status)?;
        stream.memset_zeros(&mut self.found)?;
        stream.memset_zeros(&mut self.touched_count)?;
        let (f, b) = (&mut self.forward, &mut self.backward);
        // SAFETY: a thread per slot q < size reads undecided[first + q] (first + size <= the
        // undecided count, at most the queries), that query's pair and component entries (ids
        // checked by `run_batch_on`), the levels of its ends (DAG vertices < n), writes ends[2q],
        // ends[2q + 1] (2·64·W entries, size <= 64·W)
        // and both sides' size[q] (64·W), bit q of word (vertex · words + q / 64) of the four bit
        // arrays (n · words each), queues each end once per step (stamps) in queues of n, and lists
        // its word once per batch (batch stamps, n · words) in `touched` (n · words, which fits a
        // u32: checked in `new`). status holds 6 + words; the seeds go to the parity-0 counts.
        unsafe {
            self.seed.launch(
                &stream,
                LaunchConfig::for_num_elems(size),
                undecided,
                first,
                size,
                pairs,
                &index.component,
                u32::from(index.identity),
                &index.level,
                words,
                &mut self.ends,
                &mut f.cur,
                &mut f.visited,
                &mut b.cur,
                &mut b.visited,
                &mut f.queue,
                &mut b.queue,
                &mut self.status,
                &mut f.size,
                &mut b.size,
                &mut f.stamp,
                &mut b.stamp,
                self.step_stamp,
                &mut self.touched,
                &mut self.touched_count,
                &mut self.batch_stamp,
                self.batch_id,
            )
        }?;
        self.profile.mark(self.gpu, 0)?;
        self.retire(size, false, None)?;
        let (mut steps, mut parity) = (0, 0u32);
        loop {
            let status = stream.clone_dtoh(&self.status)?;
            self.profile.mark(self.gpu, 4)?;
            if status[DONE_WORDS_AT..].iter().all(|&w| w == u64::MAX) {
                break;
            }
            if self.profile.on && self.batch_id <= 3 {
                let work = stream.clone_dtoh(&*self.work)?;
                eprintln!(
                    "batch {} step {steps}: queued {} / {}, turns {} / {}, work so far {work:?}",
                    self.batch_id,
                    status[parity as usize],
                    status[2 + parity as usize],
                    status[4],
                    status[5]
                );
            }
            // Both sides every step: a side whose turn no query has only carries its waiting bits.
            for _ in 0..STEPS_PER_READ {
                steps += 1;
                self.step_stamp += 1;
                let before = self.profile.seconds[1];
                self.expand(false, parity, size)?;
                let forward = self.profile.seconds[1] - before;
                self.expand(true, parity, size)?;
                if self.profile.on && self.batch_id <= 2 {
                    let backward = self.profile.seconds[1] - before - forward;
                    eprintln!("  step {steps}: expand {:.0} + {:.0} µs", forward * 1e6, backward * 1e6);
                }
                self.retire(size, true, Some(parity))?;
                // The bits just written to `next` are the new frontier; `cur` was cleared as it was read.
                for side in [&mut self.forward, &mut self.backward] {
                    std::mem::swap(&mut side.cur, &mut side.next);
                    std::mem::swap(&mut side.queue, &mut side.queue_next);
                }
                parity = 1 - parity;
            }
        }
        let (f, b) = (&mut self.forward, &mut self.backward);
        let threads = size.max(self.max_blocks * BLOCK_THREADS);
        // SAFETY: threads q < size write code[undecided[first + q]] (a query index < the code
        // array's length) from found (words) and clear both sides' fresh[q] (64·W); all threads
        // stride over the touched count's entries of `touched` (n · words), word indices below
        // n · words, clearing that word of both visited arrays (n · words each), and over the
        // entries of each side's queue of `parity` (as many as status says, at most n), clearing
        // the `words` words of each queued vertex x < n in cur (n · words).
        unsafe {
            self.collect.launch(
                &stream,
                LaunchConfig::for_num_elems(threads),
                undecided,
                first,
                size,
                &self.found,
                code,
                &self.touched,
                &self.touched_count,
                words,
                parity,
                &self.status,
                &f.queue,
                &b.queue,
                &mut f.cur,
                &mut f.visited,
                &mut b.cur,
                &mut b.visited,
                &mut f.fresh,
                &mut b.fresh,
            )
        }?;
        self.profile.mark(self.gpu, 3)?;
        Ok(steps)
    }

    /// Advances one side by a level for the queries whose turn it is, reading its queue of `parity`.
    fn expand(&mut self, backward: bool, parity: u32, size: u32) -> Result<()> {
        let stream = self.gpu.stream.clone();
        let index = self.index;
        let (side, other) =
            if backward { (&mut self.backward, &self.forward) } else { (&mut self.forward, &self.backward) };
        // One wave of blocks that stride over the queue, whatever its length (read on the device).
        let config = LaunchConfig {
            grid_dim: (self.max_blocks, 1, 1),
            block_dim: (BLOCK_THREADS, 1, 1),
            shared_mem_bytes: size * 8,
        };
        let (offsets, adjacency) = if backward {
            (&index.parents_offsets, &index.parents)
        } else {
            (&index.children_offsets, &index.children)
        };
        // SAFETY: warps (BLOCK_THREADS is whole warps, as the kernel's warp-wide appends need)
        // stride over the queued vertices x < n of `queue`, as many as status[2 · side + parity]
        // says (at most n: a vertex is queued once per step), appending at most n to queue_next.
        // Lanes read and clear x's words w < words (words <= SEARCH_MAX_WORDS) of cur and
        // may set it in next (n · words each); the warp reads x's neighbours y < n from the CSR
        // (offsets n + 1), and y's words of visited and the other side's visited. Targets
        // ends[2q..2q + 2] for slots q < size, which with their levels fill 2 · size u32 of shared
        // memory (shared_mem_bytes). Per-vertex rule data as in the filter. status holds 6 + words, found
        // and turn `words`, fresh 64·W (slots q < size); queue_next n (once per step, stamps n);
        // touched n · words (once per batch, batch stamps n · words).
        unsafe {
            self.expand.launch(
                &stream,
                config,
                u32::from(backward),
                parity,
                &side.queue,
                self.words,
                size,
                &self.ends,
                &index.level,
                &index.topo,
                &index.records,
                &index.intervals,
                &index.subtree,
                index.dims,
                u32::from(index.all_rules),
                offsets,
                adjacency,
                &mut side.cur,
                &mut side.next,
                &mut side.visited,
                &other.visited,
                &mut self.status,
                &mut self.found,
                &side.turn,
                &mut side.fresh,
                &mut side.queue_next,
                &mut side.stamp,
                self.step_stamp,
                &mut self.touched,
                &mut self.touched_count,
                &mut self.batch_stamp,
                self.batch_id,
                self.work,
            )
        }?;
        self.profile.mark(self.gpu, 1)
    }

    /// Retires the queries found or left without a frontier and gives the others their next turns.
    /// `parity`: the queue counts the step read, zeroed for the step after next (None before the first).
    fn retire(&mut self, size: u32, stepped: bool, parity: Option<u32>) -> Result<()> {
        let (f, b) = (&mut self.forward, &mut self.backward);
        // SAFETY: one block of min(64·W, 1024) threads, whole warps dividing 64·W, so every lane
        // reaches the ballots; slot q < 64·W reads found, status and the turns at word q / 64 <
        // words, the sizes and fresh counts of slots q < size (64·W each); threads w < words
        // (words <= MAX_WORDS = SEARCH_MAX_WORDS, 2 halves each in shared memory) write status[6 + w], the
        // turns' word w, and status[0..6].
        unsafe {
            self.retire.launch(
                &self.gpu.stream,
                LaunchConfig {
                    grid_dim: (1, 1, 1),
                    block_dim: ((64 * self.words).min(1024), 1, 1),
                    shared_mem_bytes: 0,
                },
                self.words,
                size,
                u32::from(stepped),
                parity.unwrap_or(2),
                BOTH_SIDES_RATIO,
                &self.found,
                &mut f.turn,
                &mut b.turn,
                &mut f.size,
                &mut b.size,
                &mut f.fresh,
                &mut b.fresh,
                &mut self.status,
            )
        }?;
        self.profile.mark(self.gpu, 2)
    }
}

/// `GRAIL_SEARCH_PROFILE` is set: each launch is synchronised and timed, and the first steps printed.
struct Profile {
    on: bool,
    /// Seconds in seed, expand, retire, collect and the status reads.
    seconds: [f64; 5],
    lap: Instant,
}

impl Profile {
    /// Waits for the device and adds the time since the last mark to `seconds[k]`.
    fn mark(&mut self, gpu: &Gpu, k: usize) -> Result<()> {
        if self.on {
            gpu.stream.synchronize()?;
            self.seconds[k] += self.lap.elapsed().as_secs_f64();
            self.lap = Instant::now();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::kernels::{MODULES, search::MODULE};

    /// The kernels' rule numbers are the positions in `Rule::ALL` that the codes are read back by.
    #[test]
    fn kernel_rule_numbers_follow_rule_all() {
        let source = MODULES.iter().find(|m| m.name == MODULE).unwrap().source;
        let names = [
            "RULE_SAME_COMPONENT",
            "RULE_LEVEL",
            "RULE_TOPO",
            "RULE_SUPPORTIVE_CUT",
            "RULE_BLOOM",
            "RULE_SUPPORTIVE_PATH",
            "RULE_LABEL",
            "RULE_TREE",
            "RULE_SEARCH",
        ];
        assert_eq!(names.len(), Rule::ALL.len());
        for (i, name) in names.iter().enumerate() {
            assert!(source.contains(&format!("#define {name} {i}u")), "{name} is not {i} ({:?})", Rule::ALL[i]);
        }
        assert_eq!(Rule::ALL[8], Rule::Search);
    }
}
