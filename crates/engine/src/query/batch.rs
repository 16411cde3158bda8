//! Many queries at once: answered in parallel in the current rayon pool, summarised in a report.

use super::answer::{Method, Rule};
use super::engine::Engine;
use super::query_file::Query;
use super::query_index::{CompactLevels, QueryIndex};
use super::rules::{bloom_cut, supportive_cut, supportive_path};
use super::scratch::Scratch;
use crate::prefetch::{prefetch, prefetch_whole};
use rayon::prelude::*;
use serde::{Serialize, Serializer, ser::SerializeMap};
use std::time::{Duration, Instant};

/// Queries per rayon task: large enough that per-task overhead vanishes, small enough to balance.
const CHUNK: usize = 2048;

/// How far ahead a batch prefetches labels; component entries are fetched twice as far ahead.
const PREFETCH_DISTANCE: usize = 16;

/// The same for the fast pass of the first cuts, whose queries take a few nanoseconds each: 16
/// queries ahead hid too little of a memory miss (measured on uniprotenc_22m and citeseer: 32 ahead
/// answered 15% faster).
const FAST_PREFETCH_DISTANCE: usize = 64;

/// Level arrays of at most this many bytes (they stay in the L1 cache) are read in the first pass
/// without prefetching: the prefetches cost more than the misses they hide (docs/BENCHMARKS.md,
/// "Measurements behind design choices"). Larger arrays miss the L1 and L2 caches and gain from
/// it (the topological positions of the next pass already do at 310 KB).
const CACHED_LEVELS_BYTES: usize = 64 << 10;

/// Queries by vertices expanded, in the buckets of [`BatchReport::expanded_histogram`]: 0
/// expanded, then `2^(i-1) ..= 2^i - 1` for bucket `i`.
#[derive(Clone, Copy)]
struct ExpandedHistogram([u64; 65]);

impl Default for ExpandedHistogram {
    fn default() -> ExpandedHistogram {
        ExpandedHistogram([0; 65])
    }
}

impl ExpandedHistogram {
    /// Counts `queries` queries that expanded `expanded` vertices each.
    #[inline]
    fn add(&mut self, expanded: u64, queries: u64) {
        self.0[64 - expanded.leading_zeros() as usize] += queries;
    }

    fn merge(&mut self, other: &ExpandedHistogram) {
        self.0.iter_mut().zip(other.0).for_each(|(mine, theirs)| *mine += theirs);
    }

    /// The counts up to the last non-zero one.
    fn to_vec(self) -> Vec<u64> {
        let used = self.0.iter().rposition(|&n| n > 0).map_or(0, |last| last + 1);
        self.0[..used].to_vec()
    }
}

/// How many mismatches a report keeps as examples.
const MAX_EXAMPLES: usize = 10;

/// A query whose answer disagrees with the file's expected column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// Line in the query file (0 for generated queries).
    pub line: usize,
    /// The query's source `u`, a vertex id of the graph.
    pub src: u32,
    /// The query's destination `v`, a vertex id of the graph.
    pub dst: u32,
    /// The answer the file expects.
    pub expected: bool,
    /// The answer the engine gave.
    pub got: bool,
}

impl Mismatch {
    /// The mismatch of `query` answered `got`, if its expected answer says otherwise.
    #[inline]
    fn of(query: &Query, got: bool) -> Option<Mismatch> {
        let expected = query.expected?;
        (expected != got).then_some(Mismatch {
            line: query.line as usize,
            src: query.src,
            dst: query.dst,
            expected,
            got,
        })
    }
}

/// Queries that carry an expected answer.
fn count_checked(queries: &[Query]) -> u64 {
    queries.iter().filter(|q| q.expected.is_some()).count() as u64
}

/// Queries decided by each rule, indexed like [`Rule::ALL`]. Serialises as `{"rule-name": count}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleCounts([u64; Rule::COUNT]);

impl RuleCounts {
    /// Queries `rule` decided.
    pub fn get(&self, rule: Rule) -> u64 {
        self.0[rule.index()]
    }

    /// `(rule, count)` for every rule, in order.
    pub fn iter(&self) -> impl Iterator<Item = (Rule, u64)> + '_ {
        Rule::ALL.iter().map(|&rule| (rule, self.get(rule)))
    }

    /// Queries decided by any rule: every query counted.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Counts one more query decided by `rule`.
    #[inline]
    pub fn add(&mut self, rule: Rule) {
        self.0[rule.index()] += 1;
    }

    #[inline]
    fn add_many(&mut self, rule: Rule, count: u64) {
        self.0[rule.index()] += count;
    }
}

impl Serialize for RuleCounts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(Rule::COUNT))?;
        for (rule, count) in self.iter() {
            map.serialize_entry(rule.name(), &count)?;
        }
        map.end()
    }
}

/// The summary of a batch.
#[derive(Clone, Debug, Serialize)]
pub struct BatchReport {
    /// The search method the batch ran with.
    pub method: Method,
    /// Threads in the rayon pool that ran the batch.
    pub threads: usize,
    /// Queries answered.
    pub queries: u64,
    /// Queries answered yes.
    pub positives: u64,
    /// Queries by the rule that decided them.
    pub by_rule: RuleCounts,
    /// Vertices the searches expanded, over all queries.
    pub expanded: u64,
    /// Children the guided searches refused to enter, over all queries.
    pub pruned: u64,
    /// Expanded vertices that could not reach their query's target (each answer's
    /// `false_positives`): the search's wasted work. Not the false-positive queries, which
    /// [`BatchReport::searched_negatives`] counts.
    pub dead_ends: u64,
    /// `dead_ends / expanded`: the share of the search work spent on vertices that cannot reach
    /// their target (0 when nothing was expanded). 0 is a perfect index; 1 a search that never
    /// found anything.
    pub dead_end_rate: f64,
    /// Queries by vertices expanded: entry 0 counts the queries that expanded none (a rule
    /// decided them), entry `i > 0` those that expanded `2^(i-1)` to `2^i - 1`; no trailing
    /// zeros. Empty for answers found elsewhere ([`BatchReport::of_answers`]).
    pub expanded_histogram: Vec<u64>,
    /// Queries that carried an expected answer.
    pub checked: u64,
    /// Checked queries whose answer differs from the expected one.
    pub mismatches: u64,
    /// The first mismatches, in query order.
    pub mismatch_examples: Vec<Mismatch>,
    /// Wall time of the parallel part (`query_seconds` in JSON and in the CSV export).
    #[serde(rename = "query_seconds", serialize_with = "as_seconds")]
    pub elapsed: Duration,
}

fn as_seconds<S: Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(duration.as_secs_f64())
}

/// Totals of one chunk of queries, merged pairwise.
#[derive(Default)]
struct Tally {
    positives: u64,
    by_rule: RuleCounts,
    expanded: u64,
    pruned: u64,
    dead_ends: u64,
    expanded_histogram: ExpandedHistogram,
    mismatches: u64,
    /// (query index, mismatch), at most `MAX_EXAMPLES`, in query order.
    examples: Vec<(usize, Mismatch)>,
}

impl Tally {
    /// Answers `query` with the engine and counts its rule and search work (not its answer).
    #[inline(never)]
    fn answer(&mut self, engine: &Engine, query: &Query, method: Method, scratch: &mut Scratch) -> bool {
        let answer = engine.query(query.src, query.dst, method, scratch, false);
        self.by_rule.add(answer.rule);
        self.expanded += answer.expanded;
        self.pruned += answer.pruned;
        self.dead_ends += answer.false_positives;
        self.expanded_histogram.add(answer.expanded, 1);
        self.positives += answer.reachable as u64;
        answer.reachable
    }

    /// Checks query number `index`'s answer against the expected one.
    #[inline(always)]
    fn record(&mut self, query: &Query, reachable: bool, index: usize) {
        if query.expected == Some(!reachable) {
            self.mismatch(query, reachable, index);
        }
    }

    /// Counts a mismatch and keeps it as an example while it may be among the first
    /// `MAX_EXAMPLES` (mismatches may come out of query order: callers sort and truncate).
    #[cold]
    fn mismatch(&mut self, query: &Query, reachable: bool, index: usize) {
        self.mismatches += 1;
        let m = Mismatch {
            line: query.line as usize,
            src: query.src,
            dst: query.dst,
            expected: !reachable,
            got: reachable,
        };
        self.examples.push((index, m));
        if self.examples.len() >= 2 * MAX_EXAMPLES {
            self.examples.sort_unstable_by_key(|&(index, _)| index);
            self.examples.truncate(MAX_EXAMPLES);
        }
    }

    fn merge(mut self, other: Tally) -> Tally {
        self.positives += other.positives;
        for (rule, count) in other.by_rule.iter() {
            self.by_rule.0[rule.index()] += count;
        }
        self.expanded += other.expanded;
        self.pruned += other.pruned;
        self.dead_ends += other.dead_ends;
        self.expanded_histogram.merge(&other.expanded_histogram);
        self.mismatches += other.mismatches;
        self.examples.extend(other.examples);
        self.examples.sort_unstable_by_key(|&(index, _)| index);
        self.examples.truncate(MAX_EXAMPLES);
        self
    }
}

/// Answers `queries` with `method` in the current rayon pool (the CLI installs a pool of
/// `--threads`) and summarises them. Each worker reuses one scratch; no path is built.
///
/// Only answering is timed (`elapsed`): the queries arrive parsed and the report is built after.
pub fn run_batch(engine: &Engine, queries: &[Query], method: Method) -> BatchReport {
    let start = Instant::now();
    // With every rule, a guided method tries the same component, the level cut and the
    // topological orders first; they decide nearly every query on many graphs, so those three are
    // evaluated in a lean loop and only what they leave goes through the engine.
    let fast_index = engine.query_index().filter(|_| method.is_guided());
    let answer_chunk = |scratch: &mut Scratch, (chunk_index, chunk): (usize, &[Query])| {
        let fast = Fast { engine, chunk, first_index: chunk_index * CHUNK, method };
        match fast_index {
            Some(index) if engine.has_identity_components() => fast.tally(Identity, index, scratch),
            Some(index) => fast.tally(ComponentMap(engine.component()), index, scratch),
            None => tally_chunk(engine, chunk, chunk_index * CHUNK, method, scratch),
        }
    };
    // The scratch starts empty: a search sizes it on first use, so a batch the cheap rules decide
    // allocates nothing (zeroing a 1.6M-vertex visited array took longer than 100K such queries).
    let tally = if rayon::current_num_threads() == 1 {
        // On this thread: handing one worker the chunks cost more than the cuts on small batches.
        let mut scratch = Scratch::default();
        queries
            .chunks(CHUNK)
            .enumerate()
            .map(|chunk| answer_chunk(&mut scratch, chunk))
            .fold(Tally::default(), Tally::merge)
    } else {
        queries
            .par_chunks(CHUNK)
            .enumerate()
            .map_init(Scratch::default, answer_chunk)
            .reduce(Tally::default, Tally::merge)
    };
    let elapsed = start.elapsed();
    BatchReport {
        method,
        threads: rayon::current_num_threads(),
        queries: queries.len() as u64,
        positives: tally.positives,
        by_rule: tally.by_rule,
        expanded: tally.expanded,
        pruned: tally.pruned,
        dead_ends: tally.dead_ends,
        dead_end_rate: if tally.expanded == 0 { 0.0 } else { tally.dead_ends as f64 / tally.expanded as f64 },
        expanded_histogram: tally.expanded_histogram.to_vec(),
        // Counted outside the timed part: it depends on the file, not on the answers.
        checked: count_checked(queries),
        mismatches: tally.mismatches,
        mismatch_examples: tally.examples.into_iter().map(|(_, m)| m).collect(),
        elapsed,
    }
}

/// One chunk of a batch whose first cuts run in [`tally_chunk_fast`]'s passes.
#[derive(Clone, Copy)]
struct Fast<'e, 'q> {
    engine: &'e Engine<'e>,
    chunk: &'q [Query],
    first_index: usize,
    method: Method,
}

impl Fast<'_, '_> {
    /// Picks the monomorphised passes for the level width `index` keeps.
    fn tally(self, map: impl ToDag, index: &QueryIndex, scratch: &mut Scratch) -> Tally {
        match index.compact_levels() {
            CompactLevels::Byte(levels) => tally_chunk_fast(self, map, levels, index, scratch),
            CompactLevels::Half(levels) => tally_chunk_fast(self, map, levels, index, scratch),
            CompactLevels::Full => tally_chunk_fast(self, map, self.engine.labels().levels(), index, scratch),
        }
    }
}

/// How a query's original vertices become DAG vertices in the fast pass. Two implementations, so
/// the common case (the file was a DAG) compiles to a loop without the map's dependent load.
trait ToDag: Copy {
    fn dag_vertex(self, v: u32) -> usize;
    /// Fetches what `dag_vertex` of `query` will read, for queries further ahead than the cuts'.
    fn prefetch(self, query: &Query);
}

/// Every component is its one vertex.
#[derive(Clone, Copy)]
struct Identity;

impl ToDag for Identity {
    #[inline(always)]
    fn dag_vertex(self, v: u32) -> usize {
        v as usize
    }

    #[inline(always)]
    fn prefetch(self, _: &Query) {}
}

/// The condensation's component map.
#[derive(Clone, Copy)]
struct ComponentMap<'a>(&'a [u32]);

impl ToDag for ComponentMap<'_> {
    #[inline(always)]
    fn dag_vertex(self, v: u32) -> usize {
        self.0[v as usize] as usize
    }

    #[inline(always)]
    fn prefetch(self, query: &Query) {
        prefetch(self.0, query.src as usize);
        prefetch(self.0, query.dst as usize);
    }
}

/// One chunk's totals, every query through the engine.
#[inline(always)]
fn tally_chunk(engine: &Engine, chunk: &[Query], first_index: usize, method: Method, scratch: &mut Scratch) -> Tally {
    let mut tally = Tally::default();
    for (offset, query) in chunk.iter().enumerate() {
        if let Some(ahead) = chunk.get(offset + 2 * PREFETCH_DISTANCE) {
            engine.prefetch_components(ahead.src, ahead.dst);
        }
        if let Some(ahead) = chunk.get(offset + PREFETCH_DISTANCE) {
            engine.prefetch_labels(ahead.src, ahead.dst);
        }
        let reachable = tally.answer(engine, query, method, scratch);
        tally.record(query, reachable, first_index + offset);
    }
    tally.examples.sort_unstable_by_key(|&(index, _)| index);
    tally.examples.truncate(MAX_EXAMPLES);
    tally
}

/// One chunk's totals with every rule and a guided method, in four passes, each over the queries
/// the one before left, in [`crate::query::rules::full_verdict`]'s order (so every query keeps its
/// rule; docs/ALGORITHMS.md, section 13.3):
/// 1. the same-component rule and the level cut ([`same_and_level_pass`]), which read one level
///    per vertex (a byte where the depth allows): the smallest array, and the cut that decides
///    most random queries (97% on uniprotenc_22m);
/// 2. the topological-order cut, whose 8-byte positions are read only for what the levels left;
/// 3. the index records' rules (supportive cut, Bloom cut, supportive path);
/// 4. the engine, which tries every rule again from the start (cheap: their data is cached).
///
/// The first three evaluate their rules without a branch on the outcome (which the CPU could not
/// predict) and count in registers; every pass fetches its data a few queries ahead (the first
/// ones before its loop), which pays even on graphs that fit the L2 cache (measured on
/// human_dag_uniq and kegg_dag_uniq), except for levels that fit the L1 cache
/// ([`CACHED_LEVELS_BYTES`]). The passes are written out rather than run through one
/// generic helper: with the counters captured by closures, kegg_dag_uniq's batch took 25% longer.
fn tally_chunk_fast<L: Copy + PartialOrd>(
    fast: Fast,
    map: impl ToDag,
    levels: &[L],
    index: &QueryIndex,
    scratch: &mut Scratch,
) -> Tally {
    let Fast { engine, chunk, first_index, method } = fast;
    let (topo, records) = (index.topo_positions(), index.records());
    let mut tally = Tally::default();
    // Offsets into `chunk` of the queries a pass leaves, at its front.
    let mut undecided = [0u16; CHUNK];
    let first = if std::mem::size_of_val(levels) <= CACHED_LEVELS_BYTES {
        same_and_level_pass::<L, false>(map, levels, chunk, &mut undecided)
    } else {
        same_and_level_pass::<L, true>(map, levels, chunk, &mut undecided)
    };
    let (same, by_level, left) = (first.same, first.by_level, first.left);
    if first.wrong > 0 {
        record_first_pass_mismatches(&mut tally, map, levels, chunk, first_index);
    }
    let (mut by_topo, mut still) = (0u64, 0);
    let fetch_topo = |offset: u16| {
        let query = &chunk[offset as usize];
        prefetch(topo, map.dag_vertex(query.src));
        prefetch(topo, map.dag_vertex(query.dst));
    };
    undecided[..left].iter().take(FAST_PREFETCH_DISTANCE).for_each(|&offset| fetch_topo(offset));
    for i in 0..left {
        if let Some(&ahead) = undecided[..left].get(i + FAST_PREFETCH_DISTANCE) {
            fetch_topo(ahead);
        }
        let offset = undecided[i];
        let query = &chunk[offset as usize];
        let (a, b) = (topo[map.dag_vertex(query.src)], topo[map.dag_vertex(query.dst)]);
        let cut = (a[0] >= b[0]) | (a[1] >= b[1]);
        by_topo += cut as u64;
        // `still <= i`: the list is rewritten in place.
        undecided[still] = offset;
        still += !cut as usize;
        if (query.expected == Some(true)) & cut {
            tally.mismatch(query, false, first_index + offset as usize);
        }
    }
    let (mut by_support, mut by_bloom, mut by_path, mut kept) = (0u64, 0u64, 0u64, 0);
    let fetch_record = |offset: u16| {
        let query = &chunk[offset as usize];
        prefetch_whole(&records[map.dag_vertex(query.src)]);
        prefetch_whole(&records[map.dag_vertex(query.dst)]);
    };
    undecided[..still].iter().take(PREFETCH_DISTANCE).for_each(|&offset| fetch_record(offset));
    for i in 0..still {
        if let Some(&ahead) = undecided[..still].get(i + PREFETCH_DISTANCE) {
            fetch_record(ahead);
        }
        let offset = undecided[i];
        let query = &chunk[offset as usize];
        let (a, b) = (&records[map.dag_vertex(query.src)], &records[map.dag_vertex(query.dst)]);
        let support = supportive_cut(a, b).is_some();
        let bloom = !support & bloom_cut(a, b).is_some();
        let path = !support & !bloom & supportive_path(a, b).is_some();
        by_support += support as u64;
        by_bloom += bloom as u64;
        by_path += path as u64;
        let decided = support | bloom | path;
        undecided[kept] = offset;
        kept += !decided as usize;
        if (query.expected == Some(!path)) & decided {
            tally.mismatch(query, path, first_index + offset as usize);
        }
    }
    let fetch_records = |offset: u16| {
        let query = &chunk[offset as usize];
        // The engine maps the vertices again.
        engine.prefetch_components(query.src, query.dst);
        engine.prefetch_records(map.dag_vertex(query.src), map.dag_vertex(query.dst));
    };
    undecided[..kept].iter().take(PREFETCH_DISTANCE).for_each(|&offset| fetch_records(offset));
    for (i, &offset) in undecided[..kept].iter().enumerate() {
        if let Some(&ahead) = undecided[..kept].get(i + PREFETCH_DISTANCE) {
            fetch_records(ahead);
        }
        let query = &chunk[offset as usize];
        let reachable = tally.answer(engine, query, method, scratch);
        if query.expected == Some(!reachable) {
            tally.mismatch(query, reachable, first_index + offset as usize);
        }
    }
    // Every query the first three passes decided expanded nothing.
    tally.expanded_histogram.add(0, (chunk.len() - kept) as u64);
    tally.positives += same + by_path;
    tally.by_rule.add_many(Rule::SameComponent, same);
    tally.by_rule.add_many(Rule::LevelCut, by_level);
    tally.by_rule.add_many(Rule::TopoCut, by_topo);
    tally.by_rule.add_many(Rule::SupportiveCut, by_support);
    tally.by_rule.add_many(Rule::BloomCut, by_bloom);
    tally.by_rule.add_many(Rule::SupportivePath, by_path);
    tally.examples.sort_unstable_by_key(|&(index, _)| index);
    tally.examples.truncate(MAX_EXAMPLES);
    tally
}

/// The totals of [`same_and_level_pass`].
struct FirstPass {
    same: u64,
    by_level: u64,
    /// Queries left undecided (their offsets are at the front of the list).
    left: usize,
    /// Decided queries whose expected answer differs (found again by
    /// [`record_first_pass_mismatches`]: rare, and this loop keeps every counter in a register).
    wrong: u64,
}

/// The first pass of [`tally_chunk_fast`]: the same-component rule and the level cut over
/// `chunk`, the offsets of the queries they leave written to `undecided`. Not inlined, so that its
/// counters get the registers to themselves (spilled, they cost a third of the loop on
/// human_dag_uniq).
#[inline(never)]
fn same_and_level_pass<L: Copy + PartialOrd, const PREFETCH: bool>(
    map: impl ToDag,
    levels: &[L],
    chunk: &[Query],
    undecided: &mut [u16; CHUNK],
) -> FirstPass {
    let (mut same, mut by_level_or_same, mut left, mut wrong) = (0u64, 0u64, 0usize, 0u64);
    // The loop fetches a fixed distance ahead (the last query again near the end, which is
    // cheaper than a branch); the first queries are fetched here.
    if PREFETCH {
        chunk.iter().take(2 * FAST_PREFETCH_DISTANCE).for_each(|query| map.prefetch(query));
        for query in chunk.iter().take(FAST_PREFETCH_DISTANCE) {
            prefetch(levels, map.dag_vertex(query.src));
            prefetch(levels, map.dag_vertex(query.dst));
        }
    }
    let last = chunk.len().saturating_sub(1);
    for (offset, query) in chunk.iter().enumerate() {
        if PREFETCH {
            map.prefetch(&chunk[(offset + 2 * FAST_PREFETCH_DISTANCE).min(last)]);
            let ahead = &chunk[(offset + FAST_PREFETCH_DISTANCE).min(last)];
            prefetch(levels, map.dag_vertex(ahead.src));
            prefetch(levels, map.dag_vertex(ahead.dst));
        }
        let (cu, cv) = (map.dag_vertex(query.src), map.dag_vertex(query.dst));
        let is_same = cu == cv;
        // A vertex's level is its own: the comparison decides the same component too.
        let decided = levels[cu] >= levels[cv];
        same += is_same as u64;
        by_level_or_same += decided as u64;
        // Appended always, kept only if undecided: no branch. `left <= offset < CHUNK`.
        undecided[left] = offset as u16;
        left += !decided as usize;
        wrong += ((query.expected == Some(!is_same)) & decided) as u64;
    }
    FirstPass { same, by_level: by_level_or_same - same, left, wrong }
}

/// Records the mismatches among the queries [`same_and_level_pass`] decided.
#[cold]
fn record_first_pass_mismatches<L: Copy + PartialOrd>(
    tally: &mut Tally,
    map: impl ToDag,
    levels: &[L],
    chunk: &[Query],
    first_index: usize,
) {
    for (offset, query) in chunk.iter().enumerate() {
        let (cu, cv) = (map.dag_vertex(query.src), map.dag_vertex(query.dst));
        let is_same = cu == cv;
        // Decided as in the pass: one level comparison, which holds for the same component too.
        if levels[cu] >= levels[cv] && query.expected == Some(!is_same) {
            tally.mismatch(query, is_same, first_index + offset);
        }
    }
}

impl BatchReport {
    /// Queries answered no by a search: the index's false positives among the queries, pairs
    /// that no cut refuted although `u` does not reach `v`. Read off the rule counts, so the batch
    /// loop does no extra work: every rule but the search gives one answer only
    /// ([`Rule::answer`]), so the searches' yes answers are the positives the yes-rules did not give.
    pub fn searched_negatives(&self) -> u64 {
        let cut_yes: u64 = self.by_rule.iter().filter(|(rule, _)| rule.answer() == Some(true)).map(|(_, n)| n).sum();
        let searched_yes = self.positives.saturating_sub(cut_yes);
        self.by_rule.get(Rule::Search).saturating_sub(searched_yes)
    }

    /// `searched_negatives / negatives` (0 without negatives): of the queries whose answer is no,
    /// the share the labels could not rule out, the explorer's FP%. It depends only on the labels
    /// and the queries, so guided DFS, guided BFS and the GPU (which share the cuts) report the
    /// same rate; the unguided baselines, which use no labels, search every no: 1. Unlike
    /// [`BatchReport::dead_end_rate`], which weighs the search's work and so differs
    /// between search orders.
    pub fn searched_negative_rate(&self) -> f64 {
        let negatives = self.queries.saturating_sub(self.positives);
        if negatives == 0 { 0.0 } else { self.searched_negatives() as f64 / negatives as f64 }
    }

    /// The report of answers found elsewhere (the GPU batch search), which keeps no search counts:
    /// positives, the rule counts given, and the answers checked against the expected ones.
    pub fn of_answers(
        queries: &[Query],
        answers: &[bool],
        method: Method,
        threads: usize,
        by_rule: RuleCounts,
        elapsed: Duration,
    ) -> BatchReport {
        let mismatches: Vec<Mismatch> =
            queries.iter().zip(answers).filter_map(|(q, &got)| Mismatch::of(q, got)).collect();
        BatchReport {
            method,
            threads,
            queries: queries.len() as u64,
            positives: answers.iter().filter(|&&a| a).count() as u64,
            by_rule,
            expanded: 0,
            pruned: 0,
            dead_ends: 0,
            dead_end_rate: 0.0,
            expanded_histogram: Vec::new(),
            checked: count_checked(queries),
            mismatches: mismatches.len() as u64,
            mismatch_examples: mismatches.into_iter().take(MAX_EXAMPLES).collect(),
            elapsed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Graph, scc::condense};
    use crate::index::{Order, dfs};
    use crate::query::oracle::TransitiveClosure;
    use crate::query::query_index::QueryIndex;
    use crate::query::random::random_queries;
    use std::sync::Arc;

    #[test]
    fn counts_add_up_and_wrong_expectations_are_caught() {
        // A layered graph with a cycle, big enough for several chunks of queries.
        let n = 400u32;
        let mut edges: Vec<(u32, u32)> = (0..n - 20).flat_map(|v| [(v, v + 7 + v % 13), (v, v + 19)]).collect();
        edges.push((300, 5));
        let graph = Graph::from_edges(n as usize, &edges).unwrap();
        let closure = TransitiveClosure::new(&graph).unwrap();
        let c = condense(&Arc::new(graph));
        let labels = dfs::label(&c.dag, 2, Order::Random { seed: 9 }).unwrap();
        let engine = Engine::new(&c.dag, &labels, &c.component);
        let mut queries = random_queries(n as usize, 3 * CHUNK + 17, 5);
        for (i, q) in queries.iter_mut().enumerate() {
            q.line = i as u32 + 1;
            q.expected = Some(closure.reachable(q.src, q.dst));
        }
        // Flip the expectation of every 100th query.
        let flipped: Vec<usize> = (0..queries.len()).step_by(100).collect();
        for &i in &flipped {
            queries[i].expected = queries[i].expected.map(|e| !e);
        }
        let truth = queries.iter().filter(|q| closure.reachable(q.src, q.dst)).count() as u64;
        for method in Method::ALL {
            let report = run_batch(&engine, &queries, method);
            assert_eq!(report.queries, queries.len() as u64);
            assert_eq!(report.by_rule.total(), report.queries);
            assert_eq!(report.positives, truth);
            assert_eq!((report.checked, report.mismatches), (report.queries, flipped.len() as u64));
            let lines: Vec<usize> = report.mismatch_examples.iter().map(|m| m.line).collect();
            let first: Vec<usize> = flipped.iter().take(MAX_EXAMPLES).map(|i| i + 1).collect();
            assert_eq!(lines, first);
            assert!(report.mismatch_examples.iter().all(|m| m.got != m.expected));
            assert!(report.dead_ends <= report.expanded);
            if !method.is_guided() {
                assert_eq!(report.by_rule.get(Rule::LabelCut) + report.pruned, 0);
            }
            let json = serde_json::to_value(&report).unwrap();
            assert_eq!(json["by_rule"]["search"], report.by_rule.get(Rule::Search));
            assert!(json["query_seconds"].is_f64());
            // Answers found elsewhere (the GPU's) are checked the same way.
            let answers: Vec<bool> = queries.iter().map(|q| closure.reachable(q.src, q.dst)).collect();
            let other = BatchReport::of_answers(&queries, &answers, method, 1, report.by_rule, report.elapsed);
            assert_eq!(
                (other.positives, other.checked, other.mismatches, &other.mismatch_examples),
                (report.positives, report.checked, report.mismatches, &report.mismatch_examples)
            );
        }
    }

    #[test]
    fn the_fast_passes_keep_every_rule_count_and_the_first_mismatches_in_order() {
        // With cycles (the component map) and without (identity components), on one thread (the
        // caller's) and on two.
        for cyclic in [true, false] {
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                pool.install(|| check_the_fast_passes(cyclic));
            }
        }
    }

    fn check_the_fast_passes(cyclic: bool) {
        // Layered, several chunks: the first cuts decide most queries, the engine the rest.
        let n = 600u32;
        let mut edges: Vec<(u32, u32)> = (0..n - 30).flat_map(|v| [(v, v + 5 + v % 17), (v, v + 29)]).collect();
        if cyclic {
            edges.extend([(300, 5), (40, 31), (590, 560)]);
        }
        let graph = Graph::from_edges(n as usize, &edges).unwrap();
        let closure = TransitiveClosure::new(&graph).unwrap();
        let c = condense(&Arc::new(graph));
        let labels = dfs::label(&c.dag, 2, Order::Random { seed: 3 }).unwrap();
        let index = QueryIndex::build(&c.dag, &labels).unwrap();
        let engine = Engine::new(&c.dag, &labels, &c.component).with_index(Some(&index));
        assert_eq!(engine.has_identity_components(), !cyclic);
        let mut queries = random_queries(n as usize, 3 * CHUNK + 101, 8);
        // Same-component pairs too, and expectations (every 37th wrong: fast and engine-answered alike).
        queries.extend((0..200).map(|i| Query { src: 5 + i % 30, dst: 300 - i % 30, expected: None, line: 0 }));
        queries.extend((0..50).map(|v| Query { src: v, dst: v, expected: None, line: 0 }));
        for (i, q) in queries.iter_mut().enumerate() {
            q.line = i as u32 + 1;
            q.expected = Some(closure.reachable(q.src, q.dst) != (i % 37 == 0));
        }
        for method in [Method::GuidedDfs, Method::GuidedBfs] {
            // The tally, query by query through the engine.
            let mut scratch = engine.scratch();
            let mut by_rule = RuleCounts::default();
            let (mut positives, mut expanded, mut pruned, mut fps) = (0, 0, 0, 0);
            let mut wrong = Vec::new();
            for q in &queries {
                let a = engine.query(q.src, q.dst, method, &mut scratch, false);
                assert_eq!(a.reachable, closure.reachable(q.src, q.dst));
                by_rule.add(a.rule);
                positives += a.reachable as u64;
                (expanded, pruned, fps) = (expanded + a.expanded, pruned + a.pruned, fps + a.false_positives);
                wrong.extend(Mismatch::of(q, a.reachable));
            }
            assert!(by_rule.get(Rule::LevelCut) > 0 && by_rule.get(Rule::TopoCut) > 0, "the test needs the first cuts");
            assert!(by_rule.get(Rule::SameComponent) > 0);
            let report = run_batch(&engine, &queries, method);
            assert_eq!(report.by_rule, by_rule, "{method}");
            assert_eq!(
                (report.positives, report.expanded, report.pruned, report.dead_ends),
                (positives, expanded, pruned, fps)
            );
            assert_eq!((report.checked, report.mismatches), (queries.len() as u64, wrong.len() as u64));
            wrong.truncate(MAX_EXAMPLES);
            assert_eq!(report.mismatch_examples, wrong);
        }
    }

    #[test]
    fn searched_negatives_are_counted_from_the_rules_and_agree_between_methods() {
        // Layered, with one short cycle; one dimension leaves false positives for the search.
        let n = 400u32;
        let mut edges: Vec<(u32, u32)> = (0..n - 20).flat_map(|v| [(v, v + 7 + v % 13), (v, v + 19)]).collect();
        edges.push((26, 0));
        let graph = Graph::from_edges(n as usize, &edges).unwrap();
        let c = condense(&Arc::new(graph));
        let labels = dfs::label(&c.dag, 1, Order::Random { seed: 4 }).unwrap();
        let engine = Engine::new(&c.dag, &labels, &c.component);
        let queries = random_queries(n as usize, 5000, 2);
        // The count, query by query.
        let mut scratch = engine.scratch();
        let mut searched_no = |method| {
            queries
                .iter()
                .map(|q| engine.query(q.src, q.dst, method, &mut scratch, false))
                .filter(|a| a.rule == Rule::Search && !a.reachable)
                .count() as u64
        };
        let guided = searched_no(Method::GuidedDfs);
        assert!(guided > 0, "the test needs false positives");
        let rates: Vec<f64> = Method::ALL
            .iter()
            .map(|&method| {
                let report = run_batch(&engine, &queries, method);
                let expected = if method.is_guided() { guided } else { searched_no(method) };
                assert_eq!(report.searched_negatives(), expected, "{method}");
                let negatives = report.queries - report.positives;
                assert_eq!(report.searched_negative_rate(), expected as f64 / negatives as f64, "{method}");
                report.searched_negative_rate()
            })
            .collect();
        // Guided DFS and BFS share the cuts, so the rate is the same; without labels every no is searched.
        assert_eq!(rates[0], rates[1]);
        assert!(rates[0] < 1.0);
        assert_eq!((rates[2], rates[3]), (1.0, 1.0));
    }
}
