//! `grail bench`: load, label and query times over a grid of settings, with peak memory.
//!
//! Each setting runs in a fresh child process (this same binary, hidden `--one` mode), so the peak
//! memory reported for it is its own and not the high-water mark of everything measured before.

use super::common::{LabelOptions, OrderKind, table, thread_pool, value_name};
use super::output::{Output, Report, print_json};
use crate::format::{bytes, duration, thousands};
use crate::index::PhaseTable;
use crate::index::pipeline::ParentMethod;
use crate::query::{self, Method, QueryIndex, RuleSet};
use crate::reachability::{BatchOn, BatchRun};
use crate::system::peak_memory_bytes;
use crate::telemetry::{Backend, Event, Phase, Sink};
use crate::workspace::Workspace;
use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

#[derive(Args, Debug, Clone)]
#[command(after_help = "Examples:\n  \
    grail bench uniprotenc_22m.scc.gra.gz --queries uniprotenc_22m.scc.random.test.gz\n  \
    grail bench a.gra b.gra --queries a.test.gz --queries b.test.gz --dims 2,5 --thread-counts 1,all --json\n  \
    grail bench big.gra --random 1000000\n  \
    grail bench kegg_dag_uniq.gra --queries kegg_dag_uniq.test.gz --thread-counts 1 --rules grail")]
pub struct BenchArgs {
    /// Graph files to measure.
    #[arg(value_name = "GRAPH", required = true)]
    pub graphs: Vec<PathBuf>,

    /// Query file for each graph, in the same order (repeat the option). Without it: --random.
    #[arg(long, value_name = "FILE")]
    pub queries: Vec<PathBuf>,

    /// Random queries per graph when no query file is given.
    #[arg(long, default_value_t = 100_000)]
    pub random: usize,

    /// Labeling back ends to measure (the same labels; different algorithms).
    #[arg(long, value_delimiter = ',', default_values = ["dfs"])]
    pub backends: Vec<Backend>,

    /// Parent method of the pipeline back ends.
    #[arg(long, value_enum, default_value_t = ParentMethod::Exact)]
    pub parent_method: ParentMethod,

    /// Label dimensions to measure.
    #[arg(long, value_delimiter = ',', default_values_t = [2u16, 5])]
    pub dims: Vec<u16>,

    /// Thread counts to measure (`all` = every core).
    #[arg(long, value_delimiter = ',', default_values = ["1", "all"], value_parser = parse_threads)]
    pub thread_counts: Vec<usize>,

    /// Runs per setting; the fastest is reported.
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,

    /// Label order.
    #[arg(long, value_enum, default_value_t = OrderKind::Random)]
    pub order: OrderKind,

    /// Seed of the label order and of random queries.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Search method for undecided queries. Default: guided-bfs (bidirectional) with `--rules all`,
    /// guided-dfs (GRAIL's) with `--rules grail`.
    #[arg(long, value_enum)]
    pub method: Option<Method>,

    /// Which cuts decide and prune: `all` builds the query index after labeling (its time is part
    /// of the label time measured), `grail` uses the paper's only.
    #[arg(long, value_enum, default_value_t = RuleSet::All)]
    pub rules: RuleSet,

    #[command(flatten)]
    pub output: Output,

    /// Internal: measure one setting (`GRAPH_INDEX,BACKEND,DIMS,THREADS`) and print it as JSON.
    #[arg(long, hide = true)]
    pub one: Option<String>,
}

/// The search asked for, or the one that goes with the rules.
fn method_of(args: &BenchArgs) -> Method {
    args.method.unwrap_or(args.rules.default_method())
}

fn parse_threads(s: &str) -> Result<usize, String> {
    if s == "all" { Ok(0) } else { s.parse().map_err(|_| format!("`{s}` is not a thread count (a number or `all`)")) }
}

/// One measured setting.
#[derive(Serialize, Deserialize, Debug)]
struct Row {
    graph: String,
    vertices: usize,
    edges: usize,
    components: usize,
    /// The back end that really ran (a GPU setting without a GPU runs the CPU pipeline).
    backend: Backend,
    /// Why it is not the one asked for; null when nothing fell back.
    fallback: Option<String>,
    threads: usize,
    dims: u16,
    load_seconds: f64,
    condense_seconds: f64,
    /// Opening the GPU and readying its labeling kernels, once per process, before the runs (null
    /// when the setting ran on the CPU): never part of `label_seconds`.
    #[serde(default)]
    gpu_startup_seconds: Option<f64>,
    /// The index time (labels, and the query index with every rule) of the fastest of the runs.
    label_seconds: f64,
    /// The first run's index time: what one build in a fresh process pays (memory touched for the
    /// first time, cold caches), as a tool that builds once per process does.
    #[serde(default)]
    first_label_seconds: f64,
    /// The rules the queries ran with.
    #[serde(default)]
    rules: RuleSet,
    /// Of `label_seconds`, the query index's build (0 with `--rules grail`).
    #[serde(default)]
    query_index_seconds: f64,
    /// Bytes of the labels and of the query index: together, the index size.
    #[serde(default)]
    label_bytes: usize,
    #[serde(default)]
    query_index_bytes: usize,
    /// Seconds per phase of the fastest labeling run, summed over dimensions.
    phases: Vec<(Phase, f64)>,
    labels_digest: String,
    queries: u64,
    query_seconds: f64,
    positives: u64,
    mismatches: u64,
    peak_memory_bytes: Option<u64>,
}

pub fn run(args: BenchArgs) -> Result<()> {
    if let Some(one) = &args.one {
        return print_json(&measure_one(&args, one)?);
    }
    if !args.queries.is_empty() && args.queries.len() != args.graphs.len() {
        bail!(
            "{} but {}: give one --queries per graph, or none",
            crate::format::plural(args.graphs.len() as u64, "graph", "graphs"),
            crate::format::plural(args.queries.len() as u64, "query file", "query files")
        );
    }
    let exe = std::env::current_exe().context("cannot find this program's own path to run the settings")?;
    let mut rows = Vec::new();
    for gi in 0..args.graphs.len() {
        for (&backend, &threads, &dims) in iproduct(&args.backends, &args.thread_counts, &args.dims) {
            let mut child = Command::new(&exe);
            let setting = format!("{gi},{},{dims},{threads}", value_name(&backend));
            child.arg("bench").args(&args.graphs).arg("--one").arg(&setting);
            for q in &args.queries {
                child.arg("--queries").arg(q);
            }
            child.args(["--random", &args.random.to_string(), "--repeat", &args.repeat.to_string()]);
            child.args(["--seed", &args.seed.to_string(), "--order", order_name(args.order)]);
            child.arg("--method").arg(value_name(&method_of(&args)));
            child.arg("--rules").arg(args.rules.name());
            child.arg("--parent-method").arg(value_name(&args.parent_method));
            eprintln!(
                "measuring {}: {} back end, {}, {}",
                args.graphs[gi].display(),
                value_name(&backend),
                crate::format::plural(dims as u64, "dimension", "dimensions"),
                threads_name(threads)
            );
            let out = child.output().context("cannot run a benchmark setting")?;
            if !out.status.success() {
                // The setting was named on the line above; the child's own message says what failed.
                let message = String::from_utf8_lossy(&out.stderr);
                let message = message.trim();
                bail!("{}", message.strip_prefix("error: ").unwrap_or(message));
            }
            rows.push(serde_json::from_slice::<Row>(&out.stdout).context("a benchmark setting printed no result")?);
        }
    }
    args.output.show(&BenchReport {
        method: method_of(&args),
        rules: args.rules,
        order: args.order,
        seed: args.seed,
        rows,
    })
}

/// Every measured setting.
#[derive(Serialize)]
struct BenchReport {
    method: Method,
    rules: RuleSet,
    order: OrderKind,
    seed: u64,
    rows: Vec<Row>,
}

impl Report for BenchReport {
    fn print(&self) {
        println!("rules: {} (--rules grail: GRAIL's cuts only); search: {}", self.rules, self.method);
        print_rows(&self.rows);
    }
}

fn order_name(order: OrderKind) -> &'static str {
    match order {
        OrderKind::Lex => "lex",
        OrderKind::Random => "random",
    }
}

fn threads_name(threads: usize) -> String {
    if threads == 0 {
        format!("all ({}) threads", std::thread::available_parallelism().map_or(1, |n| n.get()))
    } else {
        crate::format::plural(threads as u64, "thread", "threads")
    }
}

fn measure_one(args: &BenchArgs, one: &str) -> Result<Row> {
    let parts: Vec<&str> = one.split(',').collect();
    let [gi, backend, dims, threads] = parts[..] else { bail!("bad --one `{one}`") };
    let (gi, dims, threads): (usize, u16, usize) =
        (gi.parse().context("bad --one")?, dims.parse().context("bad --one")?, threads.parse().context("bad --one")?);
    let backend = Backend::from_str(backend, false).map_err(|e| anyhow::anyhow!("bad --one backend: {e}"))?;
    let path = args.graphs.get(gi).context("bad --one graph index")?;
    let pool = thread_pool(threads)?;
    // The GPU opens once for the process, before the runs and apart from them: a freshly started
    // machine's first run would otherwise count it in the index time.
    let gpu_startup = (backend == Backend::Gpu)
        .then(|| crate::gpu::prepare(&[crate::gpu::kernels::labeling::MODULE]).ok().map(|gpu| gpu.startup()))
        .flatten();
    pool.install(|| {
        let ws = Arc::new(Workspace::open(path, None)?);
        let options = LabelOptions {
            dims,
            order: args.order,
            seed: args.seed,
            backend,
            parent_method: args.parent_method,
            index: None,
        };
        let queries = match args.queries.get(gi) {
            Some(file) => query::read_query_file(file, &ws.loaded.names, ws.loaded.graph.num_vertices())?,
            None => query::random_queries(ws.loaded.graph.num_vertices(), args.random, args.seed),
        };
        let mut digest = String::new();
        let mut ran = (backend, None);
        let mut best_label = f64::INFINITY;
        let mut first_label = None;
        let mut best_query = f64::INFINITY;
        let mut best_phases = Vec::new();
        let mut best_index = 0.0;
        let mut sizes = (0, 0);
        let mut last = None;
        for _ in 0..args.repeat.max(1) {
            let mut phases = PhaseTable::default();
            let index = options.index(Arc::clone(&ws), args.rules, &mut PhaseRecorder(&mut phases))?;
            ran = (index.backend().unwrap_or(backend), index.fallback().map(str::to_string));
            // The index time: labels and, with every rule, the query index built beside them.
            let timings = index.timings();
            first_label.get_or_insert(timings.total);
            if timings.total < best_label {
                best_label = timings.total;
                best_phases = phase_sums(&phases);
                best_index = timings.query_index;
            }
            sizes = (index.labels().heap_bytes(), index.query_index().map_or(0, QueryIndex::heap_bytes));
            digest = index.labels().digest();
            let run = BatchRun { on: BatchOn::Cpu(method_of(args)), threads: None };
            let report = index.run_batch(&queries, run)?.report;
            best_query = best_query.min(report.elapsed.as_secs_f64());
            last = Some(report);
        }
        let report = last.expect("at least one run");
        Ok(Row {
            graph: path.display().to_string(),
            vertices: ws.loaded.graph.num_vertices(),
            edges: ws.loaded.graph.num_edges(),
            components: ws.condensation.num_components(),
            threads: rayon::current_num_threads(),
            backend: ran.0,
            fallback: ran.1,
            dims,
            load_seconds: ws.load_seconds,
            condense_seconds: ws.condense_seconds,
            gpu_startup_seconds: gpu_startup.filter(|_| ran.0 == Backend::Gpu).map(|s| s.total_seconds()),
            label_seconds: best_label,
            first_label_seconds: first_label.unwrap_or(best_label),
            rules: args.rules,
            query_index_seconds: best_index,
            label_bytes: sizes.0,
            query_index_bytes: sizes.1,
            phases: best_phases,
            labels_digest: digest,
            queries: report.queries,
            query_seconds: best_query,
            positives: report.positives,
            mismatches: report.mismatches,
            peak_memory_bytes: peak_memory_bytes(),
        })
    })
}

/// Folds labeling events into a phase table.
struct PhaseRecorder<'a>(&'a mut PhaseTable);

impl Sink for PhaseRecorder<'_> {
    fn emit(&mut self, event: Event) {
        self.0.apply(&event);
    }
}

/// Seconds per phase summed over dimensions, phases in the order they first ran.
fn phase_sums(table: &PhaseTable) -> Vec<(Phase, f64)> {
    let mut sums: Vec<(Phase, f64)> = Vec::new();
    for row in &table.rows {
        match sums.iter_mut().find(|(p, _)| *p == row.phase) {
            Some((_, s)) => *s += row.seconds,
            None => sums.push((row.phase, row.seconds)),
        }
    }
    sums
}

/// All combinations, in nested-loop order.
fn iproduct<'a, A, B, C>(a: &'a [A], b: &'a [B], c: &'a [C]) -> impl Iterator<Item = (&'a A, &'a B, &'a C)> {
    a.iter().flat_map(move |x| b.iter().flat_map(move |y| c.iter().map(move |z| (x, y, z))))
}

fn short_name(path: &str) -> String {
    std::path::Path::new(path).file_name().map_or(path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// The back end that ran, marked when it is not the one asked for.
fn backend_name(row: &Row) -> String {
    let name = value_name(&row.backend);
    if row.fallback.is_some() { format!("{name} (fallback)") } else { name }
}

fn print_rows(rows: &[Row]) {
    let mut t = table(&[
        "graph",
        "vertices",
        "backend",
        "threads",
        "dims",
        "load",
        "GPU start-up",
        "index time",
        "first build",
        "index size",
        "queries",
        "query time",
        "positives",
        "mismatches",
        "peak memory",
    ]);
    for r in rows {
        t.add_row(vec![
            short_name(&r.graph),
            thousands(r.vertices as u64),
            backend_name(r),
            r.threads.to_string(),
            r.dims.to_string(),
            duration(r.load_seconds + r.condense_seconds),
            r.gpu_startup_seconds.map(duration).unwrap_or_else(|| "-".into()),
            duration(r.label_seconds),
            duration(r.first_label_seconds),
            bytes((r.label_bytes + r.query_index_bytes) as u64),
            thousands(r.queries),
            duration(r.query_seconds),
            thousands(r.positives),
            thousands(r.mismatches),
            r.peak_memory_bytes.map(bytes).unwrap_or_else(|| "?".into()),
        ]);
    }
    println!("{t}");
    println!();
    println!("Labeling time per phase (summed over dimensions, which may run concurrently) and wall time:");
    let mut t = table(&["graph", "backend", "threads", "dims", "phases", "wall", "digest"]);
    for r in rows {
        let mut phases: Vec<String> = r.phases.iter().map(|(p, s)| format!("{} {}", p.name(), duration(*s))).collect();
        if r.rules == RuleSet::All {
            phases.push(format!("query index {}", duration(r.query_index_seconds)));
        }
        t.add_row(vec![
            short_name(&r.graph),
            backend_name(r),
            r.threads.to_string(),
            r.dims.to_string(),
            phases.join(", "),
            duration(r.label_seconds),
            r.labels_digest[..12].to_string(),
        ]);
    }
    println!("{t}");
    for (r, reason) in rows.iter().filter_map(|r| Some((r, r.fallback.as_ref()?))) {
        println!("{} ran the {} instead of the one asked for: {reason}", short_name(&r.graph), r.backend.title());
    }
}
