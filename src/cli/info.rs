//! `grail info`: what a graph looks like.

use super::common::{GraphArgs, value_name};
use super::deep::DeepReport;
use super::output::{Output, Report};
use crate::format::{bytes, duration};
use crate::graph::io;
use crate::graph::load_report::LoadReport;
use crate::graph::stats::{self, GraphStats};
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
    report(&ws, Output::default(), None)?;
    println!();
    println!("This is the bundled sample graph. Try:");
    println!("  grail query {BUNDLED_GRAPH_NAME} 2 1          one query, with the rule that decided it");
    println!("  grail query {BUNDLED_GRAPH_NAME} --random 100000");
    println!("  grail label {BUNDLED_GRAPH_NAME} --dims 5 --out kegg.idx");
    println!("  grail --help                                   all commands");
    Ok(())
}

fn report(ws: &Workspace, output: Output, deep: Option<DeepReport>) -> Result<()> {
    let stats = stats::compute(&ws.loaded.graph, &ws.condensation);
    output.show(&InfoReport {
        file: ws.loaded.path.display().to_string(),
        format: ws.loaded.format,
        load_seconds: ws.load_seconds,
        condense_seconds: ws.condense_seconds,
        peak_memory_bytes: crate::system::peak_memory_bytes(),
        csr_bytes: ws.loaded.graph.heap_bytes() as u64,
        loader: ws.loaded.report.as_ref(),
        stats: &stats,
        deep,
    })
}

impl Report for InfoReport<'_> {
    fn print(&self) {
        println!("file       {}", self.file);
        println!(
            "format     {}   loaded in {}, condensed in {}",
            value_name(&self.format),
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
