//! `grail label`: build GRAIL labels, report how long it took, optionally save them.

use super::common::{GraphArgs, LabelOptions, refuse_overwriting, table, value_name};
use super::event_log::JsonLinesSink;
use super::output::{Output, Report};
use crate::format::{bytes, duration, plural, thousands};
use crate::graph::fingerprint::fingerprint;
use crate::index::{PhaseRow, PhaseTable, store};
use crate::query::RuleSet;
use crate::system::peak_memory_bytes;
use crate::telemetry::{Backend, Event, Sink};
use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  grail label graph.gra --dims 5 --out graph.idx\n  \
                        grail label graph.gra --dims 2 --order random --seed 7 --json")]
pub struct LabelArgs {
    #[command(flatten)]
    pub graph: GraphArgs,

    #[command(flatten)]
    pub labels: LabelOptions,

    /// Save the labels to this index file (versioned, checksummed, tied to this graph).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Write every telemetry event (phases, levels with queue sizes, memory) to this JSON-lines file.
    #[arg(long, value_name = "FILE.jsonl")]
    pub trace: Option<PathBuf>,

    #[command(flatten)]
    pub output: Output,
}

/// Keeps the events for the phase table and, with `--trace`, writes them out as they come.
struct Recorder {
    table: PhaseTable,
    trace: Option<JsonLinesSink>,
}

impl Sink for Recorder {
    fn emit(&mut self, event: Event) {
        self.table.apply(&event);
        if let Some(trace) = &mut self.trace {
            trace.emit(event);
        }
    }
}

#[derive(Serialize)]
struct LabelReport {
    file: String,
    vertices: usize,
    dag_vertices: usize,
    dag_edges: usize,
    dims: usize,
    order: String,
    /// The back end that really ran ("index file" when the labels were read from one).
    backend: String,
    /// Why `backend` is not the one asked for; null when nothing fell back.
    fallback: Option<String>,
    parent_method: Option<String>,
    label_seconds: f64,
    /// Opening the GPU and readying the labeling kernels (all of `gpu_startup`'s parts); it runs
    /// while the graph loads, so the command waits only `gpu_startup_wait_seconds` of it.
    gpu_startup_seconds: Option<f64>,
    gpu_startup_wait_seconds: Option<f64>,
    gpu_startup: Option<crate::gpu::startup::Startup>,
    phases: Vec<PhaseRow>,
    labels_digest: String,
    index_bytes: usize,
    peak_memory_bytes: Option<u64>,
    saved_to: Option<String>,
    trace: Option<String>,
}

pub fn run(args: LabelArgs) -> Result<()> {
    refuse_overwriting(
        &[Some(&args.graph.graph), args.labels.index.as_deref()],
        &[args.out.as_deref(), args.trace.as_deref()],
    )?;
    let output = args.output;
    // The index and the event log replace older ones together, and only when the labeling succeeded;
    // the report, which says where they are, is shown once they are there.
    let report = crate::graph::io::all_or_nothing(|| label(args))?;
    output.show(&report)
}

fn label(args: LabelArgs) -> Result<LabelReport> {
    // The GPU opens (driver, context, the labeling kernels) while the graph loads, and is timed
    // apart, so the labeling time compares with the CPU back ends'. A failure to open is the
    // labeling's to report (it falls back to the CPU and says why).
    let opening = (args.labels.backend == Backend::Gpu && args.labels.index.is_none())
        .then(|| std::thread::spawn(|| crate::gpu::prepare(&[crate::gpu::kernels::labeling::MODULE]).is_ok()));
    let ws = args.graph.open()?;
    let waited = std::time::Instant::now();
    let opened = opening.map(|thread| thread.join().unwrap_or(false));
    let gpu_startup_wait_seconds = opened.map(|_| waited.elapsed().as_secs_f64());
    let trace = args.trace.as_ref().map(JsonLinesSink::create).transpose()?;
    let mut recorder = Recorder { table: PhaseTable::default(), trace };
    // The labels alone: GRAIL's rules need no query index.
    let index = args.labels.index(Arc::new(ws), RuleSet::Grail, &mut recorder)?;
    let (ws, labels, backend) = (index.workspace(), index.labels(), index.backend());
    if let Some(trace) = recorder.trace.take() {
        trace.finish()?;
    }
    let ran_on_gpu = opened == Some(true) && backend == Some(Backend::Gpu);
    // Asked only after a GPU run: asking opens the GPU.
    let gpu_startup = ran_on_gpu.then(crate::gpu::startup_so_far).flatten();
    if let Some(out) = &args.out {
        store::save(out, labels, fingerprint(ws.dag()))
            .with_context(|| format!("cannot save the index to {}", out.display()))?;
    }
    let report = LabelReport {
        file: ws.loaded.path.display().to_string(),
        vertices: ws.loaded.graph.num_vertices(),
        dag_vertices: ws.dag().num_vertices(),
        dag_edges: ws.dag().num_edges(),
        dims: labels.dims(),
        order: labels.order().to_string(),
        backend: backend.map(|b| value_name(&b)).unwrap_or_else(|| "index file".into()),
        fallback: index.fallback().map(str::to_string),
        parent_method: matches!(backend, Some(Backend::Cpu)).then(|| value_name(&args.labels.parent_method)),
        label_seconds: index.timings().labels,
        gpu_startup_seconds: gpu_startup.as_ref().map(|s| s.total_seconds()),
        gpu_startup_wait_seconds: gpu_startup_wait_seconds.filter(|_| ran_on_gpu),
        gpu_startup,
        phases: recorder.table.rows,
        labels_digest: labels.digest(),
        index_bytes: labels.heap_bytes(),
        peak_memory_bytes: peak_memory_bytes(),
        saved_to: args.out.as_ref().map(|p| p.display().to_string()),
        trace: args.trace.as_ref().map(|p| p.display().to_string()),
    };
    Ok(report)
}

impl Report for LabelReport {
    fn print(&self) {
        let report = self;
        println!(
            "graph      {} ({}; DAG of {}, {})",
            report.file,
            plural(report.vertices as u64, "vertex", "vertices"),
            plural(report.dag_vertices as u64, "component", "components"),
            plural(report.dag_edges as u64, "edge", "edges")
        );
        println!("labels     {}, {}", plural(report.dims as u64, "dimension", "dimensions"), report.order);
        let method = report.parent_method.as_ref().map(|m| format!(", parent method {m}")).unwrap_or_default();
        println!("time       {} on the {} back end{method}", duration(report.label_seconds), report.backend);
        if let Some(reason) = &report.fallback {
            println!("           (not the back end asked for: {reason})");
        }
        if let (Some(startup), Some(waited)) = (&report.gpu_startup, report.gpu_startup_wait_seconds) {
            println!("           (apart: opening the GPU, once per process: {})", startup.summary());
            println!("           (it ran while the graph loaded; the command waited {} for it)", duration(waited));
        }
        println!(
            "size       {} of labels; peak memory {}",
            bytes(report.index_bytes as u64),
            report.peak_memory_bytes.map(bytes).unwrap_or_else(|| "unknown".into())
        );
        println!("digest     {}", report.labels_digest);
        if let Some(path) = &report.saved_to {
            println!("saved to   {path}");
        }
        if let Some(path) = &report.trace {
            println!("trace      {path}");
        }
        println!();
        println!("{}", phase_table(&report.phases));
        if report.phases.iter().any(|r| r.phase.walks_virtual_root()) {
            println!("{VIRTUAL_ROOT_NOTE}");
        }
    }
}

/// Why the tree phases' rows count one level and one vertex more than the others.
const VIRTUAL_ROOT_NOTE: &str = "+1: subtree sizes and post-order walk the DFS tree from a virtual root above the roots, one level and one vertex more";

/// Per phase and dimension: levels, vertices, edges scanned, time.
fn phase_table(rows: &[PhaseRow]) -> comfy_table::Table {
    let mut t = table(&["dim", "phase", "levels", "vertices", "edges scanned", "time"]);
    for r in rows {
        t.add_row(vec![
            r.dim.to_string(),
            r.phase.name().to_string(),
            r.shown_with_root(r.levels_done as u64),
            r.shown_with_root(r.vertices),
            thousands(r.edges_scanned),
            duration(r.seconds),
        ]);
    }
    t
}
