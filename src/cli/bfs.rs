//! `grail bfs`: exact single-source BFS (levels, a shortest path), on the CPU or the GPU, and
//! `--compare`: every engine on the same source, with times and per-level frontier sizes.

use super::common::{GraphArgs, table};
use super::output::{Output, Report, vertex_text};
use crate::exact::BfsEngine;
use crate::exact::bfs::{Direction, UNREACHED};
use crate::exact_run::{BfsRun, gpu_reason, run_bfs};
use crate::format::{duration, plural, thousands};
use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Serialize;

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  grail bfs graph.gra 0\n  grail bfs graph.gra 0 1234 --json\n  \
                        grail bfs graph.gra 0 --engine gpu-binned --repeat 5\n  grail bfs graph.gra auto --compare --repeat 5")]
pub struct BfsArgs {
    #[command(flatten)]
    pub graph: GraphArgs,

    /// The source vertex (the file's id, or its name), or `auto`: of 8 vertices with the most out-edges and 8 that
    /// start the longest paths, the one whose BFS reaches the most (something to search, for benchmarks).
    #[arg(value_name = "SRC", value_parser = parse_source)]
    pub src: Source,

    /// A destination (the file's id, or its name): its level and one shortest path are reported.
    #[arg(value_name = "DST")]
    pub dst: Option<String>,

    /// Which engine searches. GPU engines fail with the reason where there is no usable GPU.
    #[arg(long, value_enum, default_value_t = BfsEngine::Cpu)]
    pub engine: BfsEngine,

    /// Run every engine (GPU ones where there is a GPU) and compare times and levels.
    #[arg(long, conflicts_with = "engine")]
    pub compare: bool,

    /// Runs per engine; the fastest is reported (the levels of every run are checked to agree).
    #[arg(long, default_value_t = 1, value_parser = super::values::whole::<u32, 1, 100>)]
    pub repeat: u32,

    #[command(flatten)]
    pub output: Output,
}

/// Where the BFS starts.
#[derive(Clone, Debug)]
pub enum Source {
    /// A vertex as typed: a file id, or a name.
    Vertex(String),
    Auto,
}

fn parse_source(text: &str) -> Result<Source, String> {
    match text {
        "auto" => Ok(Source::Auto),
        typed => Ok(Source::Vertex(typed.to_string())),
    }
}

/// One engine's run, as reported.
#[derive(Serialize)]
struct EngineRow {
    engine: BfsEngine,
    device: String,
    seconds: f64,
    upload_seconds: f64,
    reached: u64,
    frontier_sizes: Vec<u64>,
    directions: Vec<Direction>,
    /// Whether its levels are those of the first engine (the CPU's).
    agrees: bool,
}

#[derive(Serialize)]
struct Skipped {
    engine: BfsEngine,
    reason: String,
}

#[derive(Serialize)]
struct BfsReport {
    file: String,
    /// The source's file id (or name).
    src: serde_json::Value,
    /// Whether `auto` chose it.
    auto_source: bool,
    dst: Option<serde_json::Value>,
    engine: BfsEngine,
    /// Vertices reachable from SRC, SRC included.
    reached: u64,
    /// Number of levels (the deepest level + 1).
    levels: usize,
    frontier_sizes: Vec<u64>,
    /// How each level was expanded by the engine reported.
    directions: Vec<Direction>,
    seconds: f64,
    /// DST's level (its distance from SRC); null when unreached or no DST.
    dst_level: Option<u32>,
    /// A shortest path SRC..DST (file ids or names); null when unreached or no DST.
    path: Option<Vec<serde_json::Value>>,
    /// With --compare: every engine that ran.
    engines: Vec<EngineRow>,
    /// With --compare: engines that could not run here, and why.
    skipped: Vec<Skipped>,
    #[serde(flatten)]
    gpu: crate::gpu::startup::StartupFields,
}

pub fn run(args: BfsArgs) -> Result<()> {
    let ws = args.graph.open()?;
    let graph = &ws.loaded.graph;
    let src = match &args.src {
        Source::Vertex(typed) => ws.vertex(typed).context("SRC must be a vertex of the graph or `auto`")?,
        Source::Auto => crate::exact::auto_source::auto_source(&ws)?,
    };
    let src_id = ws.loaded.names.json_id(src);
    let dst = args.dst.as_deref().map(|d| ws.vertex(d)).transpose()?;
    let mut engines: Vec<BfsEngine> = if args.compare { BfsEngine::ALL.to_vec() } else { vec![args.engine] };
    let mut skipped = Vec::new();
    if args.compare
        && let Some(reason) = gpu_reason()
    {
        engines.retain(|e| !e.is_gpu());
        skipped = BfsEngine::ALL
            .iter()
            .filter(|e| e.is_gpu())
            .map(|&engine| Skipped { engine, reason: reason.clone() })
            .collect();
    }
    let mut rows: Vec<EngineRow> = Vec::new();
    let mut first: Option<BfsRun> = None;
    for engine in engines {
        let mut best: Option<BfsRun> = None;
        for _ in 0..args.repeat {
            let run = run_bfs(graph, src, engine)?;
            if let Some(b) = &best
                && b.result.levels != run.result.levels
            {
                bail!("{} gave different levels on two runs from the same source", engine.name());
            }
            if best.as_ref().is_none_or(|b| run.seconds < b.seconds) {
                best = Some(run);
            }
        }
        let run = best.expect("at least one run");
        let agrees = first.as_ref().is_none_or(|f| f.result.levels == run.result.levels);
        rows.push(EngineRow {
            engine,
            device: run.device.clone(),
            seconds: run.seconds,
            upload_seconds: run.upload_seconds,
            reached: run.result.reached(),
            frontier_sizes: run.result.frontier_sizes(),
            directions: run.result.directions.clone(),
            agrees,
        });
        if first.is_none() {
            first = Some(run);
        }
    }
    let first = first.expect("at least one engine");
    let result = &first.result;
    let dst_level = dst.and_then(|d| Some(result.levels[d as usize]).filter(|&l| l != UNREACHED));
    let path = dst.and_then(|d| result.path(graph, d)).map(|p| p.iter().map(|&v| ws.loaded.names.json_id(v)).collect());
    let frontier_sizes = result.frontier_sizes();
    let report = BfsReport {
        file: ws.loaded.path.display().to_string(),
        src: src_id,
        auto_source: matches!(args.src, Source::Auto),
        dst: dst.map(|d| ws.loaded.names.json_id(d)),
        engine: first.engine,
        reached: result.reached(),
        levels: frontier_sizes.len(),
        frontier_sizes,
        directions: result.directions.clone(),
        seconds: first.seconds,
        dst_level,
        path,
        engines: if args.compare { rows } else { Vec::new() },
        skipped,
        gpu: crate::gpu::startup::StartupFields::of(crate::gpu::startup_so_far()),
    };
    let disagree: Vec<&str> = report.engines.iter().filter(|r| !r.agrees).map(|r| r.engine.name()).collect();
    args.output.show(&report)?;
    if !disagree.is_empty() {
        let why = format!("engines disagree with {} on the levels: {}", report.engine.name(), disagree.join(", "));
        return Err(super::exit::Disagreement(why).into());
    }
    Ok(())
}

impl Report for BfsReport {
    fn print(&self) {
        println!("file      {}", self.file);
        let chosen = if self.auto_source { " (auto: reaches the most of 16 candidates)" } else { "" };
        let src = vertex_text(&self.src);
        println!("source    {src}{chosen}   engine {}   {}", self.engine.name(), duration(self.seconds));
        let (reached, levels) =
            (plural(self.reached, "vertex", "vertices"), plural(self.levels as u64, "level", "levels"));
        println!("reached   {reached} in {levels}");
        if let Some(line) = self.gpu.line() {
            println!("{line}");
        }
        if let Some(dst) = self.dst.as_ref().map(vertex_text) {
            match (&self.path, self.dst_level) {
                (Some(path), Some(level)) => {
                    let steps: Vec<String> = path.iter().map(vertex_text).collect();
                    println!("{dst:<9} at level {level}: {}", steps.join(" → "));
                }
                _ => println!("{dst:<9} not reachable from {src}"),
            }
        }
        if !self.engines.is_empty() {
            println!();
            let mut t = table(&["engine", "device", "search", "upload", "reached", "levels", "agrees"]);
            for r in &self.engines {
                t.add_row(vec![
                    r.engine.name().to_string(),
                    r.device.clone(),
                    duration(r.seconds),
                    duration(r.upload_seconds),
                    thousands(r.reached),
                    r.frontier_sizes.len().to_string(),
                    if r.agrees { "yes".into() } else { "NO".into() },
                ]);
            }
            println!("{t}");
            for s in &self.skipped {
                println!("skipped {}: {}", s.engine.name(), s.reason);
            }
        }
        println!();
        let mut t = table(&["level", "frontier", "direction"]);
        for (level, &size) in self.frontier_sizes.iter().enumerate() {
            let direction = self.directions.get(level).map_or("", |d| d.name()).to_string();
            t.add_row(vec![level.to_string(), thousands(size), direction]);
        }
        println!("{t}");
    }
}
