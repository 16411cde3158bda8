//! `grail convert`: read any supported format, write any of them.

use super::common::{GraphArgs, value_name};
use crate::format::plural;
use crate::graph::io::{self, Format};
use anyhow::Result;
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  grail convert edges.txt graph.gra\n  grail convert matrix.mtx edges.txt.gz --to edge-list\n  grail convert big.gra.gz big.grail      (binary: opens memory-mapped, no parsing)"
)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: GraphArgs,

    /// Output file; `.gz` compresses; `.grail` writes the binary graph file (the graph and its
    /// condensation, which every command then opens memory-mapped instead of parsing).
    #[arg(value_name = "OUT")]
    pub out: PathBuf,

    /// Output format, any the readers read (default: from the extension, `.gra` → gra, `.grail` →
    /// grail, else edge-list). The edge list and grail keep sparse vertex ids; the other text
    /// formats number vertices densely.
    #[arg(long, value_enum)]
    pub to: Option<Format>,
}

/// The format to write: the one asked for, else `.gra[.gz]` → gra, `.grail` → grail, anything
/// else → edge list.
pub fn output_format(path: &Path, asked: Option<Format>) -> Format {
    asked.unwrap_or_else(|| {
        let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
        if name.ends_with(".grail") {
            Format::Grail
        } else if name.trim_end_matches(".gz").ends_with(".gra") {
            Format::Gra
        } else {
            Format::EdgeList
        }
    })
}

pub fn run(args: ConvertArgs) -> Result<()> {
    // Converting keeps the graph as it is (cycles included): no condensation.
    let loaded = io::load(&args.input.graph, args.input.format)?;
    let format = output_format(&args.out, args.to);
    io::write(&args.out, &loaded.graph, &loaded.names, format)?;
    println!(
        "{} ({}) → {} ({}): {}, {}",
        args.input.graph.display(),
        value_name(&loaded.format),
        args.out.display(),
        value_name(&format),
        plural(loaded.graph.num_vertices() as u64, "vertex", "vertices"),
        plural(loaded.graph.num_edges() as u64, "edge", "edges")
    );
    Ok(())
}
