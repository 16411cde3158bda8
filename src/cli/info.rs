//! `grail info`: what a graph looks like.

use super::common::{GraphArgs, value_name};
use super::deep::DeepReport;
use super::output::{Output, Report};
use crate::format::{bytes, decimal, duration};
use crate::graph::io;
use crate::graph::load_report::{LoadReport, Numbering};
use crate::graph::stats::{self, GraphStats};
use crate::graph::{LoadedGraph, Weight, WeightOrigin};
use crate::workspace::{BUNDLED_GRAPH_NAME, Workspace};
use anyhow::Result;
use clap::Args;
use serde::Serialize;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  grail info graph.gra\n  grail info edges.txt.gz --json\n  grail info edges.txt --strict   (exit 1 on duplicate edges, self-loops or unused ids)\n  grail info graph.gra --deep     (hubs, widest levels, who reaches the most, false positives)"
)]
pub struct InfoArgs {
    #[command(flatten)]
    pub graph: GraphArgs,

    /// Also what dominates: hubs, the widest levels, who reaches the most (exact or estimated) and
    /// where GRAIL's false positives concentrate (labels built for it: slower on large graphs).
    #[arg(long)]
    pub deep: bool,

    #[command(flatten)]
    pub output: Output,
}

#[derive(Serialize)]
struct InfoReport<'a> {
    file: String,
    format: io::Format,
    load_seconds: f64,
    condense_seconds: f64,
    /// The process's peak resident memory after loading, condensing and the statistics (None where
    /// the OS does not say).
    peak_memory_bytes: Option<u64>,
    /// Bytes of the graph's CSR arrays (children and parents), the yardstick for the peak.
    csr_bytes: u64,
    /// What the reader did to the text (null for a `.grail` file or a graph made in memory).
    loader: Option<&'a LoadReport>,
    /// The edge weights the file holds for `sssp` and `apsp` (null: none, every edge weighs 1).
    weights: Option<WeightSummary>,
    /// Why the file's weights cannot be used (a negative weight, ...); null when they can.
    #[serde(skip_serializing_if = "Option::is_none")]
    weights_error: Option<String>,
    #[serde(flatten)]
    stats: &'a GraphStats,
    /// With `--deep`: what dominates and where false positives concentrate.
    #[serde(skip_serializing_if = "Option::is_none")]
    deep: Option<DeepReport>,
}

pub fn run(args: InfoArgs) -> Result<()> {
    let ws = args.graph.open()?;
    let deep = args.deep.then(|| super::deep::compute(&ws)).transpose()?;
    report(&ws, args.output, deep)
}

pub fn run_default() -> Result<()> {
    let ws = Workspace::bundled()?;
    // The file the tips name lies in the source folder; from anywhere else they would fail.
    let here = std::path::Path::new(BUNDLED_GRAPH_NAME).is_file();
    let file = if here {
        BUNDLED_GRAPH_NAME.to_string()
    } else {
        format!("{BUNDLED_GRAPH_NAME} (built into grail; not a file in this folder)")
    };
    report_as(&ws, file, Output::default(), None)?;
    println!();
    if here {
        println!("This is the bundled sample graph. Try:");
    } else {
        println!(
            "This is the bundled sample graph. Run these from the grail source folder, where \
             {BUNDLED_GRAPH_NAME} is, or with a graph file of your own:"
        );
    }
    println!("  grail query {BUNDLED_GRAPH_NAME} 2 1          one query, with the rule that decided it");
    println!("  grail query {BUNDLED_GRAPH_NAME} --random 100000");
    println!("  grail label {BUNDLED_GRAPH_NAME} --dims 5 --out kegg.idx");
    println!("  grail --help                                   all commands");
    Ok(())
}

/// The weights of a file that holds them, as the weighted commands read them.
#[derive(Serialize)]
struct WeightSummary {
    min: Weight,
    max: Weight,
    mean: Weight,
}

/// The file's weights, read again (reachability skips them), or why they cannot be used.
fn weights_of(loaded: &LoadedGraph) -> (Option<WeightSummary>, Option<String>) {
    if !loaded.format.holds_weights() || loaded.path.as_os_str().is_empty() {
        return (None, None);
    }
    match io::load_weighted(&loaded.path, Some(loaded.format)) {
        Ok(w) if w.origin == WeightOrigin::Unit || w.weights().is_empty() => (None, None),
        Ok(w) => {
            let min = w.weights().iter().copied().fold(Weight::INFINITY, Weight::min);
            (Some(WeightSummary { min, max: w.max_weight(), mean: w.mean_weight() }), None)
        }
        Err(e) => (None, Some(format!("{e:#}"))),
    }
}

fn report(ws: &Workspace, output: Output, deep: Option<DeepReport>) -> Result<()> {
    report_as(ws, ws.loaded.path.display().to_string(), output, deep)
}

/// [`report`] with the file shown as `file`.
fn report_as(ws: &Workspace, file: String, output: Output, deep: Option<DeepReport>) -> Result<()> {
    let stats = stats::compute(&ws.loaded.graph, &ws.condensation);
    let (weights, weights_error) = weights_of(&ws.loaded);
    output.show(&InfoReport {
        file,
        format: ws.loaded.format,
        load_seconds: ws.load_seconds,
        condense_seconds: ws.condense_seconds,
        peak_memory_bytes: crate::system::peak_memory_bytes(),
        csr_bytes: ws.loaded.graph.heap_bytes() as u64,
        loader: ws.loaded.report.as_ref(),
        weights,
        weights_error,
        stats: &stats,
        deep,
    })
}

impl Report for InfoReport<'_> {
    fn print(&self) {
        println!("file       {}", self.file);
        // A named-format file whose fields are all numbers keeps them as ids: say so beside "named".
        let numeric = self.format == io::Format::Named && self.loader.is_some_and(|l| l.numbering != Numbering::Named);
        println!(
            "format     {}{}   loaded in {}, condensed in {}",
            value_name(&self.format),
            if numeric { " (its vertices are numbers: read as ids)" } else { "" },
            duration(self.load_seconds),
            duration(self.condense_seconds)
        );
        if let Some(peak) = self.peak_memory_bytes {
            println!("memory     peak {} (the graph's CSR: {})", bytes(peak), bytes(self.csr_bytes));
        }
        match self.loader {
            Some(report) => {
                for (i, line) in report.human_lines().iter().enumerate() {
                    println!("{}{line}", if i == 0 { "loader     " } else { "           " });
                }
            }
            None => println!(
                "loader     no report: a {} file holds a graph, not the text it was read from",
                value_name(&self.format)
            ),
        }
        match (&self.weights, &self.weights_error) {
            (Some(w), _) => println!(
                "weights    from the file, {} to {}, mean {} (read by sssp and apsp)",
                decimal(w.min),
                decimal(w.max),
                decimal(w.mean)
            ),
            (None, Some(why)) => println!("weights    the file's cannot be used: {why}"),
            (None, None) => println!("weights    none: sssp and apsp weigh every edge 1"),
        }
        println!();
        print!("{}", self.stats.human_table());
        if let Some(deep) = &self.deep {
            println!();
            for line in &deep.lines {
                println!("{line}");
            }
        }
    }
}
