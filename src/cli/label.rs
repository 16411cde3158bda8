//! `grail label`: build GRAIL labels, report how long it took, optionally save them.

use super::common::{GraphArgs, LabelOptions, peak_memory_bytes, print_json};
use super::format::{bytes, duration, thousands};
use crate::graph::fingerprint::fingerprint;
use crate::index::store;
use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;

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

    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct LabelReport {
    file: String,
    vertices: usize,
    dag_vertices: usize,
    dag_edges: usize,
    dims: usize,
    order: String,
    label_seconds: f64,
    labels_digest: String,
    index_bytes: usize,
    peak_memory_bytes: Option<u64>,
    saved_to: Option<String>,
}

pub fn run(args: LabelArgs) -> Result<()> {
    let ws = args.graph.open()?;
    let (labels, seconds) = args.labels.labels(&ws)?;
    if let Some(out) = &args.out {
        store::save(out, &labels, fingerprint(ws.dag()))
            .with_context(|| format!("cannot save the index to {}", out.display()))?;
    }
    let report = LabelReport {
        file: ws.loaded.path.display().to_string(),
        vertices: ws.loaded.graph.num_vertices(),
        dag_vertices: ws.dag().num_vertices(),
        dag_edges: ws.dag().num_edges(),
        dims: labels.dims(),
        order: labels.order().to_string(),
        label_seconds: seconds,
        labels_digest: labels.digest(),
        index_bytes: labels.heap_bytes(),
        peak_memory_bytes: peak_memory_bytes(),
        saved_to: args.out.as_ref().map(|p| p.display().to_string()),
    };
    if args.json {
        return print_json(&report);
    }
    println!("graph      {} ({} vertices; DAG of {} components, {} edges)", report.file, thousands(report.vertices as u64), thousands(report.dag_vertices as u64), thousands(report.dag_edges as u64));
    println!("labels     {} dimensions, order {}", report.dims, report.order);
    println!("time       {}", duration(report.label_seconds));
    println!("size       {} of labels; peak memory {}", bytes(report.index_bytes as u64), report.peak_memory_bytes.map(bytes).unwrap_or_else(|| "unknown".into()));
    println!("digest     {}", report.labels_digest);
    if let Some(path) = &report.saved_to {
        println!("saved to   {path}");
    }
    Ok(())
}
