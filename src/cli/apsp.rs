//! `grail apsp`: shortest distances between every pair of vertices (Dijkstra from every source,
//! Floyd-Warshall naive or blocked, on the CPU or the GPU), refused with the memory it would take
//! when the matrix does not fit; `--out` writes the matrix; `--bench`: every method (the GPU's
//! where there is one) on random weighted digraphs of growing size and density, checked equal,
//! with the fastest named.

use super::common::table;
use super::output::{Output, Report};
use crate::format::{bytes, duration, plural, thousands};
use crate::graph::io::{Format, load_weighted};
use crate::graph::{WeightOrigin, WeightedGraph};
use crate::weighted::ApspMethod;
use crate::weighted::apsp::{self, DistanceMatrix, Tolerance};
use crate::weighted::random::random_weighted;
use crate::weighted_run::{gpu_reason, run_apsp};
use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;

/// Largest matrix the human report prints whole.
const PRINTED_SIDE: usize = 16;

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  grail apsp sample-graphs/roads.txt --method fw-blocked\n  \
                        grail apsp graph.txt --out distances.txt --json\n  \
                        grail apsp --bench --sizes 250,500,1000 --degrees 4,64")]
pub struct ApspArgs {
    /// Graph file (weights as `grail sssp` reads them); not needed with --bench.
    #[arg(value_name = "GRAPH", required_unless_present = "bench")]
    pub graph: Option<PathBuf>,

    /// Read the file in this format instead of guessing it from the content.
    #[arg(long, value_enum)]
    pub format: Option<Format>,

    /// How the distances are computed.
    #[arg(long, value_enum, default_value_t = ApspMethod::SsspAll)]
    pub method: ApspMethod,

    /// Write the matrix as text: one line per vertex, `inf` where there is no path.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Run every method on random weighted digraphs instead of one graph.
    #[arg(long, conflicts_with_all = ["graph", "out", "method", "format"])]
    pub bench: bool,

    /// --bench: vertex counts [default: 250,500,1000].
    #[arg(long, value_delimiter = ',', value_name = "N,...")]
    pub sizes: Option<Vec<usize>>,

    /// --bench: mean out-degrees [default: 4,64].
    #[arg(long, value_delimiter = ',', value_name = "D,...")]
    pub degrees: Option<Vec<f64>>,

    /// --bench: weights are drawn from the integers 0..=this [default: 100].
    #[arg(long, value_name = "W")]
    pub max_weight: Option<u32>,

    /// --bench: the methods [default: all].
    #[arg(long, value_enum, value_delimiter = ',')]
    pub methods: Vec<ApspMethod>,

    /// --bench: a method that took longer than this on one graph is skipped on larger ones
    /// [default: 20].
    #[arg(long, value_name = "SECONDS")]
    pub budget: Option<f64>,

    /// --bench: seed of the graphs and their weights [default: 1].
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,

    #[command(flatten)]
    pub output: Output,
}

#[derive(Serialize)]
struct ApspReport {
    file: String,
    vertices: usize,
    edges: usize,
    weights: WeightOrigin,
    notes: Vec<String>,
    method: ApspMethod,
    /// `cpu` or the GPU's name.
    device: String,
    /// Memory of the matrix (said before it was allocated).
    memory_bytes: u64,
    seconds: f64,
    /// Ordered pairs (u, v), u ≠ v, with a path from u to v.
    reachable_pairs: u64,
    /// The largest finite distance.
    max_distance: f64,
    out: Option<String>,
    /// The matrix's rows (null: unreachable), when it has at most 16 vertices.
    matrix: Option<Vec<Vec<Option<f64>>>>,
    /// The vertices in the matrix's order (file ids or names), with the matrix.
    order: Option<Vec<serde_json::Value>>,
}

/// The options only --bench uses, those given.
fn bench_options_given(args: &ApspArgs) -> Vec<&'static str> {
    [
        ("--sizes", args.sizes.is_some()),
        ("--degrees", args.degrees.is_some()),
        ("--max-weight", args.max_weight.is_some()),
        ("--methods", !args.methods.is_empty()),
        ("--budget", args.budget.is_some()),
        ("--seed", args.seed.is_some()),
    ]
    .into_iter()
    .filter_map(|(name, given)| given.then_some(name))
    .collect()
}

pub fn run(args: ApspArgs) -> Result<()> {
    super::common::refuse_overwriting(&[args.graph.as_deref()], &[args.out.as_deref()])?;
    if args.bench {
        return bench(&args);
    }
    let given = bench_options_given(&args);
    if !given.is_empty() {
        bail!(
            "{} {} only with --bench (one graph is computed by --method)",
            given.join(", "),
            if given.len() == 1 { "applies" } else { "apply" }
        );
    }
    let path = args.graph.as_ref().context("a graph file is needed without --bench")?;
    if let Some(out) = &args.out {
        check_writable(out)?;
    }
    let graph = load_weighted(path, args.format).context("cannot load the weighted graph")?;
    let notes = graph.notes();
    for note in &notes {
        eprintln!("note: {note}");
    }
    let n = graph.num_vertices();
    let need = apsp::memory_need(n);
    if args.output.human() {
        eprintln!(
            "{}: {}; {} needs {} ({})",
            path.display(),
            plural(n as u64, "vertex", "vertices"),
            args.method.name(),
            bytes(need.bytes),
            need.what
        );
    }
    let ran = run_apsp(&graph, args.method)?;
    let run = &ran.run;
    let matrix = &run.matrix;
    if let Some(out) = &args.out {
        crate::graph::io::write_atomically(out, |file| {
            let mut writer = std::io::BufWriter::new(file);
            apsp::write_text(matrix, &graph.loaded.names, &mut writer)?;
            std::io::Write::flush(&mut writer)
        })?;
    }
    let small = n <= PRINTED_SIDE;
    let names = &graph.loaded.names;
    args.output.show(&ApspReport {
        file: path.display().to_string(),
        vertices: n,
        edges: graph.num_edges(),
        weights: graph.origin,
        notes,
        method: run.method,
        device: ran.device.clone(),
        memory_bytes: need.bytes,
        seconds: run.seconds,
        reachable_pairs: matrix.reachable_pairs(),
        max_distance: matrix.values.iter().copied().filter(|d| d.is_finite()).fold(0.0, f64::max),
        out: args.out.as_ref().map(|p| p.display().to_string()),
        matrix: small.then(|| {
            (0..n as u32).map(|i| matrix.row(i).iter().map(|&d| Some(d).filter(|d| d.is_finite())).collect()).collect()
        }),
        order: small.then(|| (0..n as u32).map(|v| names.json_id(v)).collect()),
    })
}

/// Refuses an output path that cannot be written before the work, not after.
fn check_writable(out: &std::path::Path) -> Result<()> {
    let folder = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    if out.is_dir() {
        bail!("{} is a folder, not a file name", out.display());
    }
    if !folder.is_dir() {
        bail!("cannot create {}: {} is not a folder", out.display(), folder.display());
    }
    Ok(())
}

impl Report for ApspReport {
    fn print(&self) {
        println!("{}", super::sssp::file_line(&self.file, self.vertices, self.edges, self.weights));
        let device = if self.device == "cpu" { String::new() } else { format!(" on {}", self.device) };
        println!(
            "method    {}{device}   {}   memory {}",
            self.method.name(),
            duration(self.seconds),
            bytes(self.memory_bytes)
        );
        println!(
            "pairs     {} reachable (u ≠ v); the longest distance {}",
            thousands(self.reachable_pairs),
            self.max_distance
        );
        if let Some(out) = &self.out {
            println!("written   {out}");
        }
        if let (Some(matrix), Some(order)) = (&self.matrix, &self.order) {
            println!();
            let names: Vec<String> = order.iter().map(super::output::vertex_text).collect();
            let header: Vec<&str> = std::iter::once("from \\ to").chain(names.iter().map(String::as_str)).collect();
            let mut t = table(&header);
            for (name, row) in names.iter().zip(matrix) {
                let cells = row.iter().map(|d| d.map_or("·".to_string(), |d| d.to_string()));
                t.add_row(std::iter::once(name.clone()).chain(cells).collect::<Vec<_>>());
            }
            println!("{t}");
            println!("·: no path");
        }
    }
}

/// One benchmark row.
#[derive(Serialize)]
struct BenchRow {
    graph: String,
    vertices: usize,
    edges: usize,
    method: ApspMethod,
    /// `cpu` or the GPU's name.
    device: String,
    seconds: f64,
    /// Pairs whose distance differs from the first method's on this graph (0: equal).
    differences: u64,
}

#[derive(Serialize)]
struct BenchReport {
    threads: usize,
    seed: u64,
    max_weight: u32,
    /// How the matrices were compared (integer weights: exactly).
    tolerance: Tolerance,
    rows: Vec<BenchRow>,
    /// For each graph, the fastest method.
    fastest: Vec<(String, ApspMethod)>,
    skipped: Vec<String>,
}

fn bench(args: &ApspArgs) -> Result<()> {
    let mut methods = if args.methods.is_empty() { ApspMethod::ALL.to_vec() } else { args.methods.clone() };
    let mut skipped = Vec::new();
    if let Some(reason) = gpu_reason()
        && methods.iter().any(|m| m.is_gpu())
    {
        let names: Vec<&str> = methods.iter().filter(|m| m.is_gpu()).map(|m| m.name()).collect();
        skipped.push(format!("{}: {reason}", names.join(", ")));
        methods.retain(|m| !m.is_gpu());
    }
    let mut sizes = args.sizes.clone().unwrap_or_else(|| vec![250, 500, 1000]);
    let mut degrees = args.degrees.clone().unwrap_or_else(|| vec![4.0, 64.0]);
    let (max_weight, seed, budget) =
        (args.max_weight.unwrap_or(100), args.seed.unwrap_or(1), args.budget.unwrap_or(20.0));
    sizes.sort_unstable();
    degrees.sort_by(f64::total_cmp);
    let mut rows = Vec::new();
    let mut fastest = Vec::new();
    let mut tolerance = Tolerance::Exact;
    for &degree in &degrees {
        // Methods over budget at this degree: skipped on the larger sizes.
        let mut over: Vec<ApspMethod> = Vec::new();
        for &n in &sizes {
            let graph: WeightedGraph = random_weighted(n, degree.min(n.saturating_sub(1) as f64), max_weight, seed)?;
            let name = graph.loaded.path.display().to_string();
            let graph_tolerance = apsp::tolerance(&graph);
            if graph_tolerance != Tolerance::Exact {
                tolerance = graph_tolerance;
            }
            let mut reference: Option<DistanceMatrix> = None;
            let mut best: Option<(f64, ApspMethod)> = None;
            for &method in &methods {
                if over.contains(&method) {
                    continue;
                }
                let ran = run_apsp(&graph, method)?;
                let run = ran.run;
                let differences = reference.as_ref().map_or(0, |r| apsp::differences(r, &run.matrix, graph_tolerance));
                if args.output.human() {
                    eprintln!("{name}: {} {}", method.name(), duration(run.seconds));
                }
                if best.is_none_or(|(s, _)| run.seconds < s) {
                    best = Some((run.seconds, method));
                }
                if run.seconds > budget {
                    over.push(method);
                    let took = duration(run.seconds);
                    let budget = duration(budget);
                    skipped.push(format!(
                        "{} on larger graphs than {name}: {took} is over the budget of {budget}",
                        method.name()
                    ));
                }
                rows.push(BenchRow {
                    graph: name.clone(),
                    vertices: n,
                    edges: graph.num_edges(),
                    method,
                    device: ran.device,
                    seconds: run.seconds,
                    differences,
                });
                reference.get_or_insert(run.matrix);
            }
            if let Some((_, method)) = best {
                fastest.push((name, method));
            }
        }
    }
    let report =
        BenchReport { threads: rayon::current_num_threads(), seed, max_weight, tolerance, rows, fastest, skipped };
    let disagree = report.rows.iter().any(|r| r.differences > 0);
    args.output.show(&report)?;
    if disagree {
        return Err(super::exit::Disagreement("methods disagree on some distances (the rows marked NO)".into()).into());
    }
    Ok(())
}

impl Report for BenchReport {
    fn print(&self) {
        let compared = match self.tolerance {
            Tolerance::Exact => "exactly".to_string(),
            Tolerance::Relative(share) => format!("within a relative {share:.1e}"),
        };
        println!(
            "threads {}   seed {}   weights 0 to {}   distances compared {compared}",
            self.threads, self.seed, self.max_weight
        );
        let mut t = table(&["graph", "vertices", "edges", "method", "device", "time", "equal"]);
        for r in &self.rows {
            t.add_row(vec![
                r.graph.clone(),
                thousands(r.vertices as u64),
                thousands(r.edges as u64),
                r.method.name().to_string(),
                r.device.clone(),
                duration(r.seconds),
                if r.differences == 0 { "yes".into() } else { format!("NO ({} pairs)", thousands(r.differences)) },
            ]);
        }
        println!("{t}");
        for method in ApspMethod::ALL {
            let won: Vec<&str> = self.fastest.iter().filter(|(_, m)| *m == method).map(|(g, _)| g.as_str()).collect();
            if !won.is_empty() {
                println!("fastest: {} on {}", method.name(), won.join(", "));
            }
        }
        for s in &self.skipped {
            println!("skipped {s}");
        }
    }
}
