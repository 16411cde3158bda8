//! `grail closure`: the transitive closure of a graph's condensation (CPU or GPU methods), the
//! number of reachable pairs, the time per phase, and optionally the pairs; `--bench`: every method
//! on random DAGs of growing size and density (and given data sets), as a table.

use super::common::table;
use super::output::{Output, Report};
use crate::exact::ClosureMethod;
use crate::exact::closure::{memory_need, pairs};
use crate::exact::phases::PhaseTime;
use crate::exact_run::{gpu_reason, run_closure};
use crate::format::{bytes, duration, plural, thousands};
use crate::graph::generators::{random_dag, random_digraph};
use crate::graph::io::Format;
use crate::workspace::Workspace;
use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  grail closure graph.gra\n  grail closure graph.gra --method gpu-bit-parallel --json\n  \
                        grail closure graph.gra --out pairs.txt\n  grail closure big.gra --stream\n  \
                        grail closure --bench --sizes 1000,5000,10000,20000 --probabilities 0.001,0.1\n  \
                        grail closure --bench --sizes 2000 --graphs a.gra b.gra --methods bit-parallel,gpu-bit-parallel"
)]
pub struct ClosureArgs {
    /// Graph file (any format `grail info` reads); not needed with --bench.
    #[arg(value_name = "GRAPH", required_unless_present = "bench")]
    pub graph: Option<PathBuf>,

    /// Read the file in this format instead of guessing it from the content.
    #[arg(long, value_enum)]
    pub format: Option<Format>,

    /// How the closure is computed. GPU methods fail with the reason where there is no usable GPU.
    #[arg(long, value_enum, default_value_t = ClosureMethod::BitParallel)]
    pub method: ClosureMethod,

    /// Write every reachable pair `u v` (file ids, u ≠ v, one pair a line) to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Count the pairs with the bit-parallel passes, streamed: each block of 64·W targets is counted
    /// and dropped, so memory stays at a few passes however large the graph (no --out, CPU only).
    #[arg(long, conflicts_with_all = ["out", "method", "bench"])]
    pub stream: bool,

    /// Benchmark the methods on random DAGs (each forward pair an edge with the given probability)
    /// and on --graphs, instead of one graph.
    #[arg(long, conflicts_with_all = ["graph", "out"])]
    pub bench: bool,

    /// --bench: vertex counts of the random DAGs.
    #[arg(long, value_delimiter = ',', default_values_t = [1000usize, 2000, 5000, 10000, 20000])]
    pub sizes: Vec<usize>,

    /// --bench: edge probabilities of the random DAGs.
    #[arg(long, value_delimiter = ',', default_values_t = [0.001f64, 0.1])]
    pub probabilities: Vec<f64>,

    /// --bench: also random digraphs of the same sizes and probabilities (every ordered pair an edge
    /// with probability p, as in the transitive-closure report), closed on their condensation.
    #[arg(long)]
    pub digraphs: bool,

    /// --bench: data sets whose condensations are benchmarked too.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub graphs: Vec<PathBuf>,

    /// --bench: the methods (default: all, GPU ones where there is a GPU).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub methods: Vec<ClosureMethod>,

    /// --bench: a method that took longer than this on one graph is skipped on larger ones.
    #[arg(long, default_value_t = 20.0, value_name = "SECONDS")]
    pub budget: f64,

    /// --bench: runs per method and graph; the fastest is reported.
    #[arg(long, default_value_t = 1, value_parser = super::values::whole::<u32, 1, 100>)]
    pub repeat: u32,

    /// --bench: seed of the random DAGs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    #[command(flatten)]
    pub output: Output,
}

#[derive(Serialize)]
struct ClosureReport {
    file: String,
    vertices: usize,
    /// Strongly connected components: the closure's side.
    components: usize,
    method: ClosureMethod,
    device: String,
    /// Memory the method needed (said before it started).
    memory_bytes: u64,
    /// Ordered pairs (u, v) of distinct vertices of the file with u reaching v.
    pairs: u64,
    phases: Vec<PhaseTime>,
    seconds: f64,
    out: Option<String>,
    #[serde(flatten)]
    gpu: crate::gpu::startup::StartupFields,
}

pub fn run(args: ClosureArgs) -> Result<()> {
    super::common::refuse_overwriting(&[args.graph.as_deref()], &[args.out.as_deref()])?;
    if args.bench {
        return bench(&args);
    }
    let path = args.graph.as_ref().context("a graph file is needed without --bench")?;
    let ws = Workspace::open(path, args.format)?;
    if args.stream {
        return stream(&args, path, &ws);
    }
    let dag = ws.dag();
    let need = memory_need(args.method, dag.num_vertices());
    // The output's folder first: a bad path fails before the work, not after.
    if let Some(out) = &args.out {
        let folder = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
        if out.is_dir() {
            bail!("{} is a folder, not a file name", out.display());
        }
        if !folder.is_dir() {
            bail!("cannot create {}: {} is not a folder", out.display(), folder.display());
        }
    }
    if args.output.human() {
        eprintln!(
            "{}: {}; {} needs {} ({})",
            path.display(),
            plural(dag.num_vertices() as u64, "component", "components"),
            args.method.name(),
            bytes(need.bytes),
            need.what
        );
    }
    let mut run = run_closure(dag, args.method)?;
    let sizes = &ws.condensation.sizes;
    let pairs = run.clock.time("count pairs", || pairs::count(&run.matrix, sizes));
    if let Some(out) = &args.out {
        let (matrix, component, names) = (&run.matrix, &ws.condensation.component, &ws.loaded.names);
        run.clock.time("write pairs", || {
            crate::graph::io::write_atomically(out, |file| {
                let mut writer = std::io::BufWriter::new(file);
                pairs::write(matrix, component, names, &mut writer).map_err(std::io::Error::other)?;
                std::io::Write::flush(&mut writer)
            })
        })?;
    }
    args.output.show(&ClosureReport {
        file: path.display().to_string(),
        vertices: ws.loaded.graph.num_vertices(),
        components: dag.num_vertices(),
        method: args.method,
        device: run.device,
        memory_bytes: need.bytes,
        pairs,
        seconds: run.clock.total(),
        phases: run.clock.phases,
        out: args.out.as_ref().map(|p| p.display().to_string()),
        gpu: crate::gpu::startup::StartupFields::of(crate::gpu::startup_so_far()),
    })
}

/// `--stream`: the pairs counted block by block, the closure never stored.
fn stream(args: &ClosureArgs, path: &std::path::Path, ws: &Workspace) -> Result<()> {
    let dag = ws.dag();
    let n = dag.num_vertices();
    let width = crate::exact::closure::bit_parallel::block_words(n.div_ceil(64));
    // Each thread holds one pass of `width` words per vertex.
    let memory_bytes = (n * width * 8 * rayon::current_num_threads()) as u64;
    let mut clock = crate::exact::phases::PhaseClock::default();
    let pairs = clock.time("bit-parallel passes, streamed", || {
        crate::exact::closure::bit_parallel::count_pairs_streaming(dag, &ws.condensation.sizes)
    })?;
    args.output.show(&ClosureReport {
        file: path.display().to_string(),
        vertices: ws.loaded.graph.num_vertices(),
        components: n,
        method: ClosureMethod::BitParallel,
        device: "cpu (streamed)".into(),
        memory_bytes,
        pairs,
        seconds: clock.total(),
        phases: clock.phases,
        out: None,
        gpu: crate::gpu::startup::StartupFields::default(),
    })
}

impl Report for ClosureReport {
    fn print(&self) {
        println!("file        {}", self.file);
        println!("vertices    {}   components {}", thousands(self.vertices as u64), thousands(self.components as u64));
        println!("method      {} on {}   memory {}", self.method.name(), self.device, bytes(self.memory_bytes));
        println!("pairs       {} (u reaches v, u ≠ v)", thousands(self.pairs));
        if let Some(out) = &self.out {
            println!("written to  {out}");
        }
        if let Some(line) = self.gpu.line() {
            println!("{line}");
        }
        println!();
        let mut t = table(&["phase", "time"]);
        for p in &self.phases {
            t.add_row(vec![p.phase.clone(), duration(p.seconds)]);
        }
        t.add_row(vec!["total".into(), duration(self.seconds)]);
        println!("{t}");
    }
}

/// One benchmark row.
#[derive(Serialize)]
struct BenchRow {
    graph: String,
    vertices: usize,
    edges: usize,
    /// Strongly connected components: the side of the matrix closed.
    components: usize,
    method: ClosureMethod,
    device: String,
    /// All phases (for the GPU: upload and download included).
    seconds: f64,
    /// The closure itself: the phases other than building, uploading and downloading.
    closure_seconds: f64,
    pairs: u64,
    /// Whether the pairs equal the first method's on this graph.
    agrees: bool,
}

#[derive(Serialize)]
struct BenchReport {
    threads: usize,
    gpu: Option<String>,
    rows: Vec<BenchRow>,
    skipped: Vec<String>,
}

/// A graph of the benchmark.
enum BenchGraph {
    /// Each forward pair of a random order an edge with probability `p`.
    RandomDag {
        n: usize,
        p: f64,
    },
    /// Each ordered pair an edge with probability `p`; cycles condense.
    RandomDigraph {
        n: usize,
        p: f64,
    },
    File(PathBuf),
}

impl BenchGraph {
    /// Its name in the table, the key methods over budget are skipped by, and the graph.
    fn open(&self, seed: u64) -> Result<(String, String, Workspace)> {
        match self {
            &BenchGraph::RandomDag { n, p } | &BenchGraph::RandomDigraph { n, p } => {
                let (g, name) = match self {
                    BenchGraph::RandomDag { .. } => (random_dag(n, p * (n as f64 - 1.0) / 2.0, seed)?, "dag"),
                    _ => (random_digraph(n, p * (n as f64 - 1.0), seed)?, "digraph"),
                };
                let name = format!("{name} n={n} p={p}");
                let key = name.split(' ').next().unwrap_or_default().to_string() + &format!(" p={p}");
                let ws = Workspace::of_graph(g, &name);
                Ok((name, key, ws))
            }
            BenchGraph::File(path) => {
                let name = path.display().to_string();
                Ok((name.clone(), name, Workspace::open(path, None)?))
            }
        }
    }
}

/// Phases that only move or prepare data, not close it.
fn is_overhead(phase: &str) -> bool {
    matches!(phase, "adjacency" | "upload" | "download" | "schedule")
}

fn bench(args: &ClosureArgs) -> Result<()> {
    let gpu_missing = gpu_reason();
    let mut methods = if args.methods.is_empty() { ClosureMethod::ALL.to_vec() } else { args.methods.clone() };
    let mut skipped = Vec::new();
    if let Some(reason) = &gpu_missing {
        let gpu: Vec<&str> = methods.iter().filter(|m| m.is_gpu()).map(|m| m.name()).collect();
        if !gpu.is_empty() {
            skipped.push(format!("{}: {reason}", gpu.join(", ")));
        }
        methods.retain(|m| !m.is_gpu());
    }
    let mut jobs: Vec<BenchGraph> = Vec::new();
    for &p in &args.probabilities {
        if !(0.0..=1.0).contains(&p) {
            bail!("an edge probability is between 0 and 1, not {p}");
        }
        let mut sizes = args.sizes.clone();
        sizes.sort_unstable();
        jobs.extend(sizes.iter().map(|&n| BenchGraph::RandomDag { n, p }));
        if args.digraphs {
            jobs.extend(sizes.iter().map(|&n| BenchGraph::RandomDigraph { n, p }));
        }
    }
    jobs.extend(args.graphs.iter().cloned().map(BenchGraph::File));
    let mut rows = Vec::new();
    // Methods over budget, per probability (data sets: their own key).
    let mut over: Vec<(ClosureMethod, String)> = Vec::new();
    for job in jobs {
        let (name, key, ws) = job.open(args.seed)?;
        let dag = ws.dag();
        let mut first_pairs = None;
        for &method in &methods {
            if over.iter().any(|(m, k)| *m == method && *k == key) {
                continue;
            }
            let mut best: Option<(f64, f64, u64, String)> = None;
            for _ in 0..args.repeat {
                let run = match run_closure(dag, method) {
                    Ok(run) => run,
                    Err(e) => {
                        skipped.push(format!("{} on {name}: {e:#}", method.name()));
                        break;
                    }
                };
                let closure_seconds: f64 =
                    run.clock.phases.iter().filter(|p| !is_overhead(&p.phase)).map(|p| p.seconds).sum();
                let pairs = pairs::count(&run.matrix, &ws.condensation.sizes);
                let total = run.clock.total();
                if best.as_ref().is_none_or(|b| total < b.0) {
                    best = Some((total, closure_seconds, pairs, run.device));
                }
                if total > args.budget {
                    break; // once over the budget is enough to know
                }
            }
            let Some((seconds, closure_seconds, pairs, device)) = best else { continue };
            let agrees = *first_pairs.get_or_insert(pairs) == pairs;
            if seconds > args.budget {
                over.push((method, key.clone()));
                skipped.push(format!(
                    "{} on larger graphs than {name}: {} is over the budget of {}",
                    method.name(),
                    duration(seconds),
                    duration(args.budget)
                ));
            }
            if args.output.human() {
                eprintln!("{name}: {} {}", method.name(), duration(seconds));
            }
            rows.push(BenchRow {
                graph: name.clone(),
                vertices: ws.loaded.graph.num_vertices(),
                edges: ws.loaded.graph.num_edges(),
                components: dag.num_vertices(),
                method,
                device,
                seconds,
                closure_seconds,
                pairs,
                agrees,
            });
        }
    }
    let report = BenchReport {
        threads: rayon::current_num_threads(),
        gpu: crate::gpu::availability().as_ref().ok().map(|g| g.name.clone()),
        rows,
        skipped,
    };
    let disagree = report.rows.iter().any(|r| !r.agrees);
    args.output.show(&report)?;
    if disagree {
        return Err(
            super::exit::Disagreement("methods disagree on the number of pairs (the rows marked NO)".into()).into()
        );
    }
    Ok(())
}

impl Report for BenchReport {
    fn print(&self) {
        println!("threads {}   GPU {}", self.threads, self.gpu.as_deref().unwrap_or("none"));
        let mut t =
            table(&["graph", "vertices", "edges", "components", "method", "total", "closure", "pairs", "agrees"]);
        for r in &self.rows {
            t.add_row(vec![
                r.graph.clone(),
                thousands(r.vertices as u64),
                thousands(r.edges as u64),
                thousands(r.components as u64),
                r.method.name().to_string(),
                duration(r.seconds),
                duration(r.closure_seconds),
                thousands(r.pairs),
                if r.agrees { "yes".into() } else { "NO".into() },
            ]);
        }
        println!("{t}");
        for s in &self.skipped {
            println!("skipped {s}");
        }
    }
}
