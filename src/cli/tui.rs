//! `grail tui FILE` (also `grail FILE`, and `grail` alone on the bundled graph): the explorer.

use super::info;
use crate::graph::io::Format;
use crate::tui;
use crate::workspace::Workspace;
use anyhow::Result;
use clap::Args;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  grail tui graph.gra\n  grail graph.gra\n  grail            (the bundled sample graph)"
)]
pub struct TuiArgs {
    /// The graph to open (any supported format); the bundled sample graph if left out.
    #[arg(value_name = "GRAPH")]
    pub graph: Option<PathBuf>,

    /// Input format (detected from the name and contents if not given).
    #[arg(long, value_enum)]
    pub format: Option<Format>,

    /// Leave the mouse to the terminal (no clicks or wheel in the explorer, text selection works).
    #[arg(long)]
    pub no_mouse: bool,
}

/// Opens the explorer. The first graph loads before the screen switches, so a bad path is a plain
/// error on the command line.
pub fn run(args: TuiArgs, threads: usize) -> Result<()> {
    // A file that cannot be read is the first thing to say, terminal or not.
    if let Some(path) = &args.graph {
        crate::graph::io::bounded::check_regular(path, "graphs")?;
        if let Err(e) = std::fs::metadata(path) {
            anyhow::bail!("cannot read {}: {e}", path.display());
        }
    }
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        anyhow::bail!("the explorer needs a terminal; use `grail info`, `grail query` or `grail label` in scripts");
    }
    let ws = {
        let _quiet = tui::terminal::NoEcho::hold();
        open(args.graph.as_deref(), args.format)?
    };
    tui::run(ws, tui::Options { mouse: !args.no_mouse, threads, gpu: tui::gpu_offer::GpuOffer::probe() })
}

fn open(path: Option<&Path>, format: Option<Format>) -> Result<Workspace> {
    match path {
        Some(p) => {
            eprintln!("loading {} …", p.display());
            Ok(Workspace::open(p, format)?)
        }
        None => Ok(Workspace::bundled()?),
    }
}

/// `grail` with no subcommand: the explorer when there is a terminal, else the bundled graph's
/// summary (what `grail` printed before the explorer existed).
pub fn run_default(graph: Option<PathBuf>, no_mouse: bool, threads: usize) -> Result<()> {
    let interactive = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
    match (graph, interactive) {
        (None, false) => info::run_default(),
        (graph, _) => run(TuiArgs { graph, format: None, no_mouse }, threads),
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::LabelOptions;
    use clap::Parser;

    #[derive(Parser)]
    struct Labeling {
        #[command(flatten)]
        options: LabelOptions,
    }

    #[test]
    fn the_explorer_labels_as_the_command_line_does_by_default() {
        let cli = Labeling::parse_from(["grail"]).options.spec();
        let explorer = crate::tui::worker::labeling::DEFAULT_CONFIG;
        // Same labels; only the back end differs (the explorer steps the CPU pipeline's levels).
        assert_eq!((cli.dims, cli.order, cli.parent_method), (explorer.dims, explorer.order, explorer.parent_method));
    }
}
