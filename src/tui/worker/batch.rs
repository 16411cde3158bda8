//! Batches for the Batch tab: the queries (seeded random pairs or a query file), every selected
//! (method, threads) run through the library's batch runner (`Index::run_batch`), a histogram of
//! nodes expanded per query, and the CSV/JSON export (written by `crate::query::export`).

use super::exact_rows::{self, BfsFrontier};
use crate::exact::BfsEngine;
use crate::exact::closure::bit_parallel::answer_pairs;
use crate::query::export::ExportRow;
use crate::query::{BatchReport, Method, RuleSet, random_queries, read_query_file};
use crate::reachability::{BatchOn, BatchRun, Index};
use anyhow::{Result, bail, ensure};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Random queries get their expected answers from the exact closure up to this many condensed
/// vertices (the DAG's, which set its cost): the bit-parallel closure of the condensation, streamed
/// 64·W targets at a time and never stored (`exact::closure::bit_parallel::answer_pairs`), so time,
/// not memory, sets the limit.
pub const ORACLE_LIMIT: usize = 200_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuerySource {
    Random { count: usize, seed: u64 },
    File(PathBuf),
}

/// One run: a search method on 1 thread or on all (`threads == 0`), or the GPU batch search
/// (every rule and the searches on the device).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSpec {
    pub method: Method,
    pub threads: usize,
    pub gpu: bool,
    /// An exact engine instead of the index: a full BFS from each query's source (the first
    /// [`EXACT_BFS_QUERIES`] queries), to show what the labels save.
    pub exact: Option<BfsEngine>,
}

/// The GPU run's method, as rows and exports name it: a short guided DFS per query (a warp each),
/// then guided BFSs, batched, for the queries it gives up.
pub const GPU_METHOD: &str = "guided-dfs+bfs";

/// Queries the exact BFS rows answer (a full BFS each): the first this many of the batch.
pub const EXACT_BFS_QUERIES: usize = 1_000;

impl RunSpec {
    /// The GPU run, offered only where a GPU exists.
    pub const GPU: RunSpec = RunSpec { method: Method::GuidedBfs, threads: 0, gpu: true, exact: None };

    /// An exact BFS row: the CPU's direction-optimising BFS, or the GPU's degree-binned one.
    pub fn exact_bfs(gpu: bool) -> RunSpec {
        let engine = if gpu { BfsEngine::GpuBinned } else { BfsEngine::Cpu };
        RunSpec { method: Method::Bfs, threads: 0, gpu, exact: Some(engine) }
    }

    /// `guided-dfs ×1`, `guided-dfs ×all(16)`, `gpu guided-dfs+bfs`, `exact bfs cpu`.
    pub fn name(&self, all: usize) -> String {
        if let Some(engine) = self.exact {
            format!("exact bfs {}", engine.name())
        } else if self.gpu {
            format!("gpu {GPU_METHOD}")
        } else if self.threads == 0 {
            format!("{} ×all({all})", self.method)
        } else {
            format!("{} ×{}", self.method, self.threads)
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchSpec {
    pub source: QuerySource,
    pub runs: Vec<RunSpec>,
    /// Every rule (the query index is built for the batch) or GRAIL's only.
    pub rules: RuleSet,
}

#[derive(Clone, Debug, Serialize)]
pub struct BatchRow {
    pub name: String,
    /// How the searches ran: the CPU's method, or the GPU's [`GPU_METHOD`] (the report's own
    /// `method` is left out of the export: on the GPU it names only the batched part).
    pub method: String,
    /// A GPU run: its report has no search counts (expanded, pruned, false positives).
    pub gpu: bool,
    /// An exact BFS row (no labels; its report has no search counts either).
    pub exact: bool,
    #[serde(serialize_with = "without_method")]
    pub report: BatchReport,
    /// No-answers a search had to prove ([`BatchReport::searched_negatives`]).
    pub searched_negatives: u64,
    /// Their share of all no-answers: the tab's FP% ([`BatchReport::searched_negative_rate`]).
    pub searched_negative_rate: f64,
    /// An exact BFS row's widest BFS, level by level: what the tab charts for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frontier: Option<BfsFrontier>,
    /// A GPU row that uploaded the graph, labels and query index first: the upload's seconds (its
    /// time is the batch's on the device, without them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upload_seconds: Option<f64>,
}

/// A report as the export writes it, without its `method` (the row says how it searched).
fn without_method<S: serde::Serializer>(report: &BatchReport, serializer: S) -> Result<S::Ok, S::Error> {
    let mut value = serde_json::to_value(report).map_err(serde::ser::Error::custom)?;
    if let Some(fields) = value.as_object_mut() {
        fields.remove("method");
    }
    serde::Serialize::serialize(&value, serializer)
}

impl BatchRow {
    pub fn new(name: String, gpu: bool, report: BatchReport) -> BatchRow {
        let (searched_negatives, searched_negative_rate) =
            (report.searched_negatives(), report.searched_negative_rate());
        BatchRow {
            name,
            method: report.method.name().to_string(),
            gpu,
            exact: false,
            report,
            searched_negatives,
            searched_negative_rate,
            frontier: None,
            upload_seconds: None,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct BatchResult {
    /// `random 10000 (seed 1)` or the file.
    pub source: String,
    /// Where the expected answers came from, or why there are none (a sentence).
    pub expected: String,
    pub queries: usize,
    pub rows: Vec<BatchRow>,
    /// Nodes expanded per query, `(bucket, queries)`, as the first CPU search run counted them
    /// while it answered (no second pass): that run's name, and the bars; `None` when only GPU or
    /// exact BFS rows ran.
    pub histogram: Option<(String, Vec<(String, u64)>)>,
    /// The rules every run used.
    pub rules: RuleSet,
}

/// Where the expected answers of a batch (of queries from a file, or random pairs) on a graph whose
/// condensation has `vertices` vertices come from, or why there are none, as the Batch tab says it
/// before a run.
pub fn expected_answers(from_file: bool, vertices: usize) -> String {
    if from_file {
        "expected answers: the query file's third column (when it has one)".into()
    } else if vertices <= ORACLE_LIMIT {
        "expected answers: the exact transitive closure".into()
    } else {
        format!(
            "no expected answers: the exact closure is computed only up to {} condensed vertices (this graph has {}); \
             a query file's third column is checked",
            crate::format::thousands(ORACLE_LIMIT as u64),
            crate::format::thousands(vertices as u64)
        )
    }
}

fn bucket_name(i: usize) -> String {
    match i {
        0 => "0".into(),
        1 => "1".into(),
        _ => {
            let lo = 1u64 << (i - 1);
            format!("{lo}-{}", 2 * lo - 1)
        }
    }
}

/// Runs `spec` with `index` (built with the spec's rules). A GPU run uploads the index's data on
/// the first GPU batch the index answers; later ones find it on the device.
pub fn run(
    index: &Index,
    spec: &BatchSpec,
    all_threads: usize,
    cancel: &AtomicBool,
    progress: &dyn Fn(f64),
) -> Result<BatchResult> {
    if spec.runs.is_empty() {
        bail!("no run selected: Space toggles the rows to run");
    }
    let ws = index.workspace();
    let n = ws.loaded.graph.num_vertices();
    let (mut queries, source) = match &spec.source {
        QuerySource::Random { count, seed } => (
            random_queries(n, *count, *seed),
            format!("{} random pairs (seed {seed})", crate::format::thousands(*count as u64)),
        ),
        QuerySource::File(path) => (read_query_file(path, &ws.loaded.names, n)?, path.display().to_string()),
    };
    let expected = match spec.source {
        QuerySource::File(_) if queries.iter().any(|q| q.expected.is_some()) => {
            "expected answers: the query file's third column".into()
        }
        QuerySource::File(_) => "no expected answers: the query file has no third column".into(),
        QuerySource::Random { .. } => {
            if ws.dag().num_vertices() <= ORACLE_LIMIT {
                let component = &ws.condensation.component;
                let pairs: Vec<(u32, u32)> =
                    queries.iter().map(|q| (component[q.src as usize], component[q.dst as usize])).collect();
                let answers = answer_pairs(ws.dag(), &pairs, cancel)?;
                for (q, answer) in queries.iter_mut().zip(answers) {
                    q.expected = Some(answer);
                }
            }
            expected_answers(false, ws.dag().num_vertices())
        }
    };
    ensure!(index.rules() == spec.rules, "the index must be built with the rules the batch runs");
    let all = if all_threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { all_threads };
    let mut rows = Vec::new();
    let steps = spec.runs.len() + 1;
    for (i, run) in spec.runs.iter().enumerate() {
        if cancel.load(Ordering::Relaxed) {
            bail!("cancelled");
        }
        if let Some(bfs_engine) = run.exact {
            let first = &queries[..queries.len().min(EXACT_BFS_QUERIES)];
            let (report, frontier) = exact_rows::run(ws, first, bfs_engine, all, cancel)?;
            rows.push(BatchRow { exact: true, frontier, ..BatchRow::new(run.name(all), run.gpu, report) });
            progress((i + 1) as f64 / steps as f64);
            continue;
        }
        if run.gpu {
            let on_gpu = BatchRun { on: BatchOn::Gpu(Default::default()), threads: Some(all) };
            let ran = index.run_batch(&queries, on_gpu)?;
            let upload_seconds = ran.gpu.filter(|gpu| gpu.uploaded).map(|gpu| gpu.report.upload_seconds);
            let method = GPU_METHOD.to_string();
            rows.push(BatchRow { upload_seconds, method, ..BatchRow::new(run.name(all), true, ran.report) });
        } else {
            let threads = if run.threads == 0 { all } else { run.threads };
            let on_cpu = BatchRun { on: BatchOn::Cpu(run.method), threads: Some(threads) };
            rows.push(BatchRow::new(run.name(all), false, index.run_batch(&queries, on_cpu)?.report));
        }
        progress((i + 1) as f64 / steps as f64);
    }
    let histogram = rows.iter().find(|row| !row.gpu && !row.exact).map(|row| {
        let bars = row.report.expanded_histogram.iter().enumerate().map(|(i, &n)| (bucket_name(i), n)).collect();
        (row.name.clone(), bars)
    });
    Ok(BatchResult { source, expected, queries: queries.len(), rows, histogram, rules: spec.rules })
}

/// Writes `base.csv` (one row per run) and `base.json` (the whole result); the paths written.
pub fn export(result: &BatchResult, base: &Path) -> Result<Vec<PathBuf>> {
    let rows: Vec<ExportRow> = result
        .rows
        .iter()
        .map(|row| ExportRow { name: &row.name, method: &row.method, gpu: row.gpu, report: &row.report })
        .collect();
    Ok(crate::query::export::export(&rows, result, base)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn buckets_are_powers_of_two() {
        assert_eq!(bucket_name(0), "0");
        assert_eq!(bucket_name(1), "1");
        assert_eq!(bucket_name(2), "2-3");
        assert_eq!(bucket_name(4), "8-15");
    }

    /// The exact BFS row answers its first queries as the expected answers (the streamed closure)
    /// say, and as the guided search does.
    #[test]
    fn exact_bfs_row_agrees_with_the_expected_answers() {
        let g = crate::graph::generators::random_digraph(3000, 1.5, 3).unwrap();
        let ws = Arc::new(crate::workspace::Workspace::of_graph(g, "digraph"));
        let labels = crate::index::dfs::label(ws.dag(), 2, crate::index::Order::Random { seed: 1 }).unwrap();
        let guided = RunSpec { method: Method::GuidedDfs, threads: 1, gpu: false, exact: None };
        let spec = BatchSpec {
            source: QuerySource::Random { count: 1500, seed: 4 },
            runs: vec![guided, RunSpec::exact_bfs(false)],
            rules: RuleSet::All,
        };
        let source = crate::reachability::LabelSource::Ready(Arc::new(labels));
        let index = Index::assemble(ws, source, RuleSet::All, &mut crate::telemetry::NullSink).unwrap();
        let result = run(&index, &spec, 1, &AtomicBool::new(false), &|_| {}).unwrap();
        let (g_row, e_row) = (&result.rows[0], &result.rows[1]);
        assert!(e_row.exact && !g_row.exact);
        assert_eq!(e_row.report.queries, EXACT_BFS_QUERIES as u64);
        assert_eq!(e_row.report.checked, EXACT_BFS_QUERIES as u64);
        assert_eq!((e_row.report.mismatches, g_row.report.mismatches), (0, 0));
        assert!(e_row.report.positives > 0);
        // Only the exact row charts a BFS, one from the queries it answered (not the 500 after).
        let frontier = e_row.frontier.as_ref().expect("the exact row's widest BFS");
        assert!(g_row.frontier.is_none());
        let first = random_queries(3000, 1500, 4);
        assert!(first[..EXACT_BFS_QUERIES].iter().any(|q| q.src == frontier.source));
    }

    /// The GPU row answers as the CPU's guided BFS does, and a second GPU run on the same index
    /// finds the data on the device: it uploads nothing.
    #[test]
    #[ignore = "needs an NVIDIA GPU: run with --ignored on a machine with one"]
    fn a_second_gpu_row_finds_its_data_on_the_device() {
        let g = crate::graph::generators::random_digraph(3000, 1.5, 3).unwrap();
        let ws = Arc::new(crate::workspace::Workspace::of_graph(g, "digraph"));
        let labels = crate::index::dfs::label(ws.dag(), 2, crate::index::Order::Random { seed: 1 }).unwrap();
        let source = crate::reachability::LabelSource::Ready(Arc::new(labels));
        let index = Index::assemble(ws, source, RuleSet::All, &mut crate::telemetry::NullSink).unwrap();
        let cpu = RunSpec { method: Method::GuidedBfs, threads: 1, gpu: false, exact: None };
        let spec = BatchSpec {
            source: QuerySource::Random { count: 5000, seed: 2 },
            runs: vec![RunSpec::GPU, cpu, RunSpec::GPU],
            rules: RuleSet::All,
        };
        let result = run(&index, &spec, 2, &AtomicBool::new(false), &|_| {}).unwrap();
        let [first, cpu, second] = &result.rows[..] else { panic!("three rows: {:?}", result.rows) };
        assert!(first.upload_seconds.is_some() && second.upload_seconds.is_none());
        for gpu in [first, second] {
            assert_eq!(gpu.method, GPU_METHOD);
            assert_eq!((gpu.report.positives, gpu.report.by_rule), (cpu.report.positives, cpu.report.by_rule));
            assert_eq!((gpu.report.checked, gpu.report.mismatches), (5000, 0));
        }
    }
}
