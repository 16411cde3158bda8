//! `grail convert`: read any supported format, write any of them.

use super::common::{GraphArgs, value_name};
use crate::format::thousands;
use crate::graph::io::{self, Format};
use anyhow::Result;
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  grail convert edges.txt graph.gra\n  grail convert matrix.mtx edges.txt.gz --to edge-list"
)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: GraphArgs,

    /// Output file; `.gz` compresses.
    #[arg(value_name = "OUT")]
    pub out: PathBuf,

    /// Output format, any the readers read (default: from the extension, `.gra` → gra, else
    /// edge-list). Only the edge list keeps sparse vertex ids; the others number vertices densely.
    #[arg(long, value_enum)]
    pub to: Option<Format>,
}

/// The format to write: the one asked for, else `.gra[.gz]` → gra, anything else → edge list.
pub fn output_format(path: &Path, asked: Option<Format>) -> Format {
    asked.unwrap_or_else(|| {
        let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
        if name.trim_end_matches(".gz").ends_with(".gra") { Format::Gra } else { Format::EdgeList }
    })
}

pub fn run(args: ConvertArgs) -> Result<()> {
    // Converting keeps the graph as it is (cycles included): no condensation.
    let loaded = io::load(&args.input.graph, args.input.format)?;
    let format = output_format(&args.out, args.to);
    io::write(&args.out, &loaded.graph, &loaded.names, format)?;
    println!(
        "{} ({}) → {} ({}): {} vertices, {} edges",
        args.input.graph.display(),
        value_name(&loaded.format),
        args.out.display(),
        value_name(&format),
        thousands(loaded.graph.num_vertices() as u64),
        thousands(loaded.graph.num_edges() as u64)
    );
    Ok(())
}
