//! `grail bench`: load, label and query times over a grid of settings, with peak memory.
//!
//! Each setting runs in a fresh child process (this same binary, hidden `--one` mode), so the peak
//! memory reported for it is its own and not the high-water mark of everything measured before.

use super::common::{LabelOptions, OrderKind, peak_memory_bytes, print_json, table, thread_pool};
use super::format::{bytes, duration, thousands};
use crate::query::{self, Engine, Method};
use crate::workspace::Workspace;
use anyhow::{Context, Result, bail};
use clap::Args;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

#[derive(Args, Debug, Clone)]
#[command(after_help = "Examples:\n  \
    grail bench uniprotenc_22m.scc.gra.gz --queries uniprotenc_22m.scc.random.test.gz\n  \
    grail bench a.gra b.gra --queries a.test.gz --queries b.test.gz --dims 2,5 --thread-counts 1,all --json\n  \
    grail bench big.gra --random 1000000")]
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

    /// Search method for undecided queries.
    #[arg(long, value_enum, default_value_t = Method::GuidedDfs)]
    pub method: Method,

    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,

    /// Internal: measure one setting (`GRAPH_INDEX,DIMS,THREADS`) and print it as JSON.
    #[arg(long, hide = true)]
    pub one: Option<String>,
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
    threads: usize,
    dims: u16,
    load_seconds: f64,
    condense_seconds: f64,
    label_seconds: f64,
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
        bail!("{} graphs but {} query files: give one --queries per graph, or none", args.graphs.len(), args.queries.len());
    }
    let exe = std::env::current_exe().context("cannot find this program's own path to run the settings")?;
    let mut rows = Vec::new();
    for gi in 0..args.graphs.len() {
        for &threads in &args.thread_counts {
            for &dims in &args.dims {
                let mut child = Command::new(&exe);
                child.arg("bench").args(&args.graphs).arg("--one").arg(format!("{gi},{dims},{threads}"));
                for q in &args.queries {
                    child.arg("--queries").arg(q);
                }
                child.args(["--random", &args.random.to_string(), "--repeat", &args.repeat.to_string()]);
                child.args(["--seed", &args.seed.to_string(), "--order", order_name(args.order)]);
                child.arg("--method").arg(value_name(&args.method));
                eprintln!("measuring {} with {dims} dimensions on {} threads", args.graphs[gi].display(), threads_name(threads));
                let out = child.output().context("cannot run a benchmark setting")?;
                if !out.status.success() {
                    bail!("setting {gi},{dims},{threads} failed: {}", String::from_utf8_lossy(&out.stderr).trim());
                }
                rows.push(serde_json::from_slice::<Row>(&out.stdout).context("a benchmark setting printed no result")?);
            }
        }
    }
    if args.json {
        return print_json(&serde_json::json!({ "method": args.method, "order": args.order, "seed": args.seed, "rows": rows }));
    }
    print_rows(&rows);
    Ok(())
}

fn order_name(order: OrderKind) -> &'static str {
    match order {
        OrderKind::Lex => "lex",
        OrderKind::Random => "random",
    }
}

fn threads_name(threads: usize) -> String {
    if threads == 0 { format!("all ({})", std::thread::available_parallelism().map_or(1, |n| n.get())) } else { threads.to_string() }
}

fn measure_one(args: &BenchArgs, one: &str) -> Result<Row> {
    let parts: Vec<usize> = one.split(',').map(str::parse).collect::<Result<_, _>>().context("bad --one")?;
    let [gi, dims, threads] = parts[..] else { bail!("bad --one `{one}`") };
    let path = args.graphs.get(gi).context("bad --one graph index")?;
    let pool = thread_pool(threads)?;
    pool.install(|| {
        let ws = Workspace::open(path, None)?;
        let options = LabelOptions { dims: dims as u16, order: args.order, seed: args.seed, index: None };
        let queries = match args.queries.get(gi) {
            Some(file) => query::read_query_file(file, &ws.loaded.names, ws.loaded.graph.num_vertices())?,
            None => query::random_queries(ws.loaded.graph.num_vertices(), args.random, args.seed),
        };
        let mut best_label = f64::INFINITY;
        let mut best_query = f64::INFINITY;
        let mut last = None;
        for _ in 0..args.repeat.max(1) {
            let start = Instant::now();
            let (labels, _) = options.labels(&ws)?;
            best_label = best_label.min(start.elapsed().as_secs_f64());
            let engine = Engine::new(ws.dag(), &labels, &ws.condensation.component);
            let report = query::run_batch(&engine, &queries, args.method);
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
            dims: dims as u16,
            load_seconds: ws.load_seconds,
            condense_seconds: ws.condense_seconds,
            label_seconds: best_label,
            queries: report.queries,
            query_seconds: best_query,
            positives: report.positives,
            mismatches: report.mismatches,
            peak_memory_bytes: peak_memory_bytes(),
        })
    })
}

fn print_rows(rows: &[Row]) {
    let mut t = table(&["graph", "vertices", "threads", "dims", "load", "label", "queries", "query time", "positives", "mismatches", "peak memory"]);
    for r in rows {
        let name = std::path::Path::new(&r.graph).file_name().map_or(r.graph.clone(), |n| n.to_string_lossy().into_owned());
        t.add_row(vec![
            name,
            thousands(r.vertices as u64),
            r.threads.to_string(),
            r.dims.to_string(),
            duration(r.load_seconds + r.condense_seconds),
            duration(r.label_seconds),
            thousands(r.queries),
            duration(r.query_seconds),
            thousands(r.positives),
            thousands(r.mismatches),
            r.peak_memory_bytes.map(bytes).unwrap_or_else(|| "?".into()),
        ]);
    }
    println!("{t}");
}
