//! `grail sssp`: shortest distances from one vertex by edge weight (Dijkstra, delta-stepping, or on
//! the GPU two-phase or near-far), a summary of them, one shortest path to a destination, and
//! `--compare`: every engine from the same source (the GPU's where there is one), checked equal to
//! Dijkstra's distances bit for bit.

use super::common::table;
use super::output::{Output, Report, vertex_text};
use crate::format::{decimal, duration, plural, thousands};
use crate::graph::io::{Format, load_weighted};
use crate::graph::{Weight, WeightOrigin, WeightedGraph};
use crate::weighted::SsspEngine;
use crate::weighted::path::shortest_path;
use crate::weighted_run::{SsspRun, gpu_reason, run_sssp};
use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  grail sssp sample-graphs/roads.txt 0 5\n  grail sssp graph.txt 0 --engine delta --json\n  \
                        grail sssp graph.txt 0 --engine gpu-near-far\n  \
                        grail sssp graph.mtx 1 --compare\n\n\
                        Weights come from a weighted file (`n m directed`, then `src dst weight`) or a Matrix Market \
                        real or integer matrix; any other file weighs every edge 1, and says so. Weights are finite \
                        and not negative."
)]
pub struct SsspArgs {
    /// Graph file: a weighted file or Matrix Market matrix for weights; any format `grail info`
    /// reads otherwise (every edge then weighs 1).
    #[arg(value_name = "GRAPH")]
    pub graph: PathBuf,

    /// Read the file in this format instead of guessing it from the content.
    #[arg(long, value_enum)]
    pub format: Option<Format>,

    /// The source vertex (the file's id, or its name).
    #[arg(value_name = "SRC")]
    pub src: String,

    /// A destination (the file's id, or its name): its distance and one shortest path are reported.
    #[arg(value_name = "DST")]
    pub dst: Option<String>,

    /// Which engine computes the distances.
    #[arg(long, value_enum, default_value_t = SsspEngine::Dijkstra)]
    pub engine: SsspEngine,

    /// Run every engine (GPU ones where there is a GPU) and check each one's distances equal
    /// Dijkstra's (exit status 3 if not).
    #[arg(long, conflicts_with = "engine")]
    pub compare: bool,

    /// Delta-stepping's bucket width, and gpu-near-far's threshold step (default for delta-stepping:
    /// 2 × mean weight / mean out-degree of the vertices with edges, or 1 when every weight is 0;
    /// gpu-near-far: four times that); refused with an engine that takes none (with --compare,
    /// only those two use it, and the report says so).
    // A negative width reaches the check that explains it, not clap's hint about `--`.
    #[arg(long, value_name = "WIDTH", allow_negative_numbers = true)]
    pub delta: Option<Weight>,

    /// How many of the farthest reached vertices to list.
    #[arg(long, default_value_t = 5, value_name = "K")]
    pub top: usize,

    #[command(flatten)]
    pub output: Output,
}

/// One engine's run, as `--compare` reports it.
#[derive(Serialize)]
struct EngineRow {
    engine: SsspEngine,
    /// `cpu` or the GPU's name.
    device: String,
    seconds: f64,
    /// Copying the graph to the device (0 on the CPU).
    upload_seconds: f64,
    relaxations: u64,
    /// A settled vertex for Dijkstra, a parallel round for delta-stepping, an iteration of two
    /// kernels for gpu-two-phase, a launch over the near queue for gpu-near-far.
    steps: u64,
    buckets: u64,
    delta: Option<Weight>,
    /// Vertices whose distance differs from Dijkstra's (0: equal, bit for bit).
    differences: usize,
}

/// An engine `--compare` could not run here, and why.
#[derive(Serialize)]
struct Skipped {
    engine: SsspEngine,
    reason: String,
}

#[derive(Serialize)]
struct Far {
    vertex: serde_json::Value,
    distance: Weight,
}

#[derive(Serialize)]
struct SsspReport {
    file: String,
    vertices: usize,
    edges: usize,
    /// Where the weights came from: `file`, or `unit` (the file has none: every edge weighs 1).
    weights: WeightOrigin,
    /// What loading said about the weights (also printed on stderr).
    notes: Vec<String>,
    src: serde_json::Value,
    engine: SsspEngine,
    /// `cpu` or the GPU's name.
    device: String,
    /// The bucket width of delta-stepping, the threshold step of gpu-near-far; null otherwise.
    delta: Option<Weight>,
    seconds: f64,
    relaxations: u64,
    steps: u64,
    /// Vertices at a finite distance from SRC, SRC included.
    reached: u64,
    max_distance: Weight,
    /// Mean over the reached vertices other than SRC; null when it reaches none.
    mean_distance: Option<Weight>,
    /// The farthest reached vertices other than SRC, farthest first.
    farthest: Vec<Far>,
    dst: Option<serde_json::Value>,
    /// DST's distance; null when unreachable or no DST.
    dst_distance: Option<Weight>,
    /// A shortest path SRC..DST (file ids or names), its weights adding up to dst_distance; null
    /// when unreachable or no DST.
    path: Option<Vec<serde_json::Value>>,
    /// With --compare: every engine that ran, Dijkstra first.
    engines: Vec<EngineRow>,
    /// With --compare: engines that could not run here, and why.
    skipped: Vec<Skipped>,
    /// The --delta given (null: none), and the engines that ran with it.
    delta_given: Option<Weight>,
    delta_used_by: Vec<SsspEngine>,
}

/// Refuses `--delta` with an engine that takes no bucket width, before the graph is read.
fn check_delta(args: &SsspArgs) -> Result<()> {
    if let Some(delta) = args.delta
        && !args.compare
        && !args.engine.takes_delta()
    {
        anyhow::bail!(
            "--delta {delta}: {} takes no bucket width; --delta is for {}",
            args.engine.name(),
            delta_engines().join(" and ")
        );
    }
    Ok(())
}

/// The names of the engines that take `--delta`.
fn delta_engines() -> Vec<&'static str> {
    SsspEngine::ALL.iter().filter(|e| e.takes_delta()).map(|e| e.name()).collect()
}

pub fn run(args: SsspArgs) -> Result<()> {
    check_delta(&args)?;
    let spinner = super::common::spinner(format!("loading {}", args.graph.display()));
    let graph = load_weighted(&args.graph, args.format);
    spinner.finish_and_clear();
    let graph = graph.context("cannot load the weighted graph")?;
    let notes = graph.notes();
    for note in &notes {
        eprintln!("note: {note}");
    }
    let src = graph.vertex(&args.src).context("SRC must be a vertex of the graph")?;
    let dst = args.dst.as_deref().map(|d| graph.vertex(d)).transpose().context("DST must be a vertex of the graph")?;
    let mut engines = if args.compare { SsspEngine::ALL.to_vec() } else { vec![args.engine] };
    let mut skipped = Vec::new();
    if args.compare
        && let Some(reason) = gpu_reason()
    {
        skipped =
            engines.iter().filter(|e| e.is_gpu()).map(|&engine| Skipped { engine, reason: reason.clone() }).collect();
        engines.retain(|e| !e.is_gpu());
    }
    let mut runs: Vec<SsspRun> = Vec::new();
    for engine in engines {
        runs.push(run_sssp(&graph, src, engine, args.delta)?);
    }
    let rows = if args.compare { compare_rows(&runs) } else { Vec::new() };
    let reported = &runs[0];
    let mut report = report(&args, &graph, reported, notes, dst, rows);
    report.skipped = skipped;
    let differing: Vec<&str> = report.engines.iter().filter(|r| r.differences > 0).map(|r| r.engine.name()).collect();
    args.output.show(&report)?;
    if !differing.is_empty() {
        let why = format!("engines whose distances differ from dijkstra's: {}", differing.join(", "));
        return Err(super::exit::Disagreement(why).into());
    }
    Ok(())
}

/// `--compare`'s rows, each checked against the first run (Dijkstra's).
fn compare_rows(runs: &[SsspRun]) -> Vec<EngineRow> {
    runs.iter()
        .map(|run| {
            let d = &run.distances;
            EngineRow {
                engine: d.engine,
                device: run.device.clone(),
                seconds: d.seconds,
                upload_seconds: run.upload_seconds,
                relaxations: d.relaxations,
                steps: d.steps,
                buckets: d.buckets,
                delta: d.delta,
                differences: d.differences(&runs[0].distances),
            }
        })
        .collect()
}

fn report(
    args: &SsspArgs,
    graph: &WeightedGraph,
    ran: &SsspRun,
    notes: Vec<String>,
    dst: Option<u32>,
    engines: Vec<EngineRow>,
) -> SsspReport {
    let names = &graph.loaded.names;
    let run = &ran.distances;
    let summary = run.summary(args.top);
    let path = dst.and_then(|d| shortest_path(graph, run, d)).map(|p| p.iter().map(|&v| names.json_id(v)).collect());
    SsspReport {
        file: graph.loaded.path.display().to_string(),
        vertices: graph.num_vertices(),
        edges: graph.num_edges(),
        weights: graph.origin,
        notes,
        src: names.json_id(run.source),
        engine: run.engine,
        device: ran.device.clone(),
        delta: run.delta,
        seconds: run.seconds,
        relaxations: run.relaxations,
        steps: run.steps,
        reached: summary.reached,
        max_distance: summary.max,
        mean_distance: (summary.reached > 1).then_some(summary.mean),
        farthest: summary.farthest.iter().map(|&(v, distance)| Far { vertex: names.json_id(v), distance }).collect(),
        dst: dst.map(|d| names.json_id(d)),
        dst_distance: dst.and_then(|d| run.to(d)),
        path,
        delta_given: args.delta,
        delta_used_by: args
            .delta
            .map(|_| engines.iter().map(|r| r.engine).filter(|e| e.takes_delta()).collect())
            .unwrap_or_default(),
        engines,
        skipped: Vec::new(),
    }
}

/// `file      roads.txt (10 vertices, 15 edges; weights from the file)`: the first line of
/// `grail sssp` and `grail apsp`.
pub(super) fn file_line(file: &str, vertices: usize, edges: usize, weights: WeightOrigin) -> String {
    let weights = match weights {
        WeightOrigin::File | WeightOrigin::Generated => "weights from the file",
        WeightOrigin::Unit => "every edge weighs 1",
    };
    let (vertices, edges) = (plural(vertices as u64, "vertex", "vertices"), plural(edges as u64, "edge", "edges"));
    format!("file      {file} ({vertices}, {edges}; {weights})")
}

impl Report for SsspReport {
    fn print(&self) {
        println!("{}", file_line(&self.file, self.vertices, self.edges, self.weights));
        let src = vertex_text(&self.src);
        let delta = self.delta.map_or(String::new(), |d| format!("   delta {}", decimal(d)));
        let device = if self.device == "cpu" { String::new() } else { format!(" on {}", self.device) };
        println!("source    {src}   engine {}{device}{delta}   {}", self.engine.name(), duration(self.seconds));
        if self.reached <= 1 {
            let edges = if self.vertices > 1 { ": it has no path to another vertex" } else { "" };
            println!("reached   only {src} itself, of {}{edges}", thousands(self.vertices as u64));
        } else {
            println!(
                "reached   {} of {} (the source included); farthest at {}, mean {} over the {}",
                thousands(self.reached),
                thousands(self.vertices as u64),
                self.max_distance,
                decimal(self.mean_distance.unwrap_or_default()),
                plural(self.reached - 1, "other", "others")
            );
        }
        if self.reached > 1 && !self.farthest.is_empty() {
            let far: Vec<String> =
                self.farthest.iter().map(|f| format!("{} at {}", vertex_text(&f.vertex), f.distance)).collect();
            println!("farthest  {}", far.join(", "));
        }
        if let Some(dst) = self.dst.as_ref().map(vertex_text) {
            match (&self.path, self.dst_distance) {
                (Some(path), Some(distance)) => {
                    let steps: Vec<String> = path.iter().map(vertex_text).collect();
                    println!("{dst:<9} at distance {distance}: {}", steps.join(" → "));
                }
                _ => println!("{dst:<9} not reachable from {src}"),
            }
        }
        if !self.engines.is_empty() {
            println!();
            let mut t = table(&["engine", "device", "time", "upload", "relaxations", "steps", "buckets", "equal"]);
            for r in &self.engines {
                t.add_row(vec![
                    r.engine.name().to_string()
                        + &r.delta.map_or(String::new(), |d| format!(" (delta {})", decimal(d))),
                    r.device.clone(),
                    duration(r.seconds),
                    if r.device == "cpu" { "-".into() } else { duration(r.upload_seconds) },
                    thousands(r.relaxations),
                    thousands(r.steps),
                    if r.buckets > 0 { thousands(r.buckets) } else { "-".into() },
                    if r.differences == 0 {
                        "yes".into()
                    } else {
                        format!("NO ({} differ)", thousands(r.differences as u64))
                    },
                ]);
            }
            println!("{t}");
            let steps: Vec<&str> = self.engines.iter().map(|r| step_meaning(r.engine)).collect();
            println!("steps: {}", steps.join(", "));
            if let Some(delta) = self.delta_given {
                let used: Vec<&str> = self.delta_used_by.iter().map(|e| e.name()).collect();
                let unused: Vec<&str> =
                    self.engines.iter().filter(|r| !r.engine.takes_delta()).map(|r| r.engine.name()).collect();
                let used = if used.is_empty() { "no engine that ran".to_string() } else { used.join(" and ") };
                let takes = if unused.len() == 1 { "takes" } else { "take" };
                let delta = decimal(delta);
                println!("--delta {delta}: used by {used}; {} {takes} no bucket width", unused.join(" and "));
            }
            if let Some(first) = self.skipped.first() {
                let names: Vec<&str> = self.skipped.iter().map(|s| s.engine.name()).collect();
                println!("skipped {}: {}", names.join(", "), first.reason);
            }
        }
    }
}

/// What one of `engine`'s steps is, as the compare table's footnote says it.
fn step_meaning(engine: SsspEngine) -> &'static str {
    match engine {
        SsspEngine::Dijkstra => "a settled vertex for dijkstra",
        SsspEngine::Delta => "a round over a whole frontier (all cores) for delta",
        SsspEngine::GpuTwoPhase => "an iteration of two kernels over every vertex for gpu-two-phase",
        SsspEngine::GpuNearFar => "a kernel over the near queue for gpu-near-far",
    }
}
