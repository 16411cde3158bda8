//! The command line: one file per subcommand, all on the same engine.
//!
//! Every subcommand prints a human table by default and one JSON object with `--json` (one report
//! type per command, shown through [`output::Output`]). Errors go
//! to stderr with their whole context chain and a non-zero exit status.

mod apsp;
mod bench;
mod bfs;
mod closure;
mod common;
mod completions;
mod convert;
mod deep;
mod draw;
mod event_log;
mod exceptions;
mod exit;
mod gen_cmd;
mod info;
mod label;
mod output;
mod query;
mod scc;
mod script;
mod selftest;
mod sssp;
mod tui;
mod values;
mod why;

use clap::{CommandFactory, Parser, Subcommand};
use exit::{DISAGREEMENT_EXIT, Disagreement, EXIT_STATUS};
use std::process::ExitCode;

/// Explore reachability on large directed graphs with the GRAIL index.
///
/// GRAIL gives every vertex d intervals, one per randomized DFS. If v's interval is not inside u's
/// in some dimension, u cannot reach v; otherwise a search guided by the labels decides. Start with
/// `grail` (the explorer on a bundled graph) or `grail GRAPH`; on the command line, `grail info GRAPH`,
/// `grail query GRAPH U V`, then `grail query GRAPH --random 100000`.
#[derive(Parser, Debug)]
#[command(name = "grail", version, about, long_about, propagate_version = true, after_help = EXIT_STATUS)]
pub struct Cli {
    /// Open this graph in the explorer (`grail` alone opens the bundled sample graph).
    #[arg(value_name = "GRAPH")]
    pub graph: Option<std::path::PathBuf>,

    /// Explorer: leave the mouse to the terminal.
    #[arg(long)]
    pub no_mouse: bool,

    /// Worker threads for every parallel step: labeling, batches, the parallel engines (0 = all cores).
    #[arg(long, global = true, default_value_t = 0, value_name = "N", value_parser = values::whole::<usize, 0, MAX_THREADS>)]
    pub threads: usize,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Load a graph and report its shape: vertices, edges, components, roots, leaves, depth, degrees.
    Info(info::InfoArgs),
    /// Build GRAIL labels (d randomized intervals per vertex) and optionally save them.
    Label(label::LabelArgs),
    /// Answer reachability queries: one pair, a query file, or N random pairs.
    Query(query::QueryArgs),
    /// Where the cycles are: the largest strongly connected components, their members and a
    /// shortest cycle of each, in file ids.
    Scc(scc::SccArgs),
    /// Generate a graph: random DAGs like the papers' home-made ones, chains, trees, ladders, ...
    Gen(gen_cmd::GenArgs),
    /// Draw the graph (or a vertex's neighbourhood) with one dimension's DFS tree and intervals, and
    /// optionally a query's search, as SVG or Graphviz DOT.
    Draw(draw::DrawArgs),
    /// Convert a graph between formats (reads any supported format and writes any: .gra, edge list,
    /// Matrix Market, weighted, plain header, or grail's binary .grail file).
    Convert(convert::ConvertArgs),
    /// Measure load, labeling and query times (1 thread and all threads) with peak memory.
    Bench(bench::BenchArgs),
    /// Exact BFS from one vertex (levels, a shortest path) on the CPU or the GPU; --compare runs every engine.
    Bfs(bfs::BfsArgs),
    /// The transitive closure of the condensation (bit matrices, CPU or GPU): reachable pairs, time per
    /// phase, optionally the pairs; --bench compares the methods on random DAGs.
    Closure(closure::ClosureArgs),
    /// Shortest distances by edge weight from one vertex (Dijkstra or delta-stepping), one shortest
    /// path to a destination; --compare checks every engine against Dijkstra.
    Sssp(sssp::SsspArgs),
    /// Shortest distances between every pair of vertices (Dijkstra from every source, Floyd-Warshall
    /// naive or blocked); --bench compares the methods on random weighted graphs.
    Apsp(apsp::ApspArgs),
    /// Count false positives of random-order labels over every pair, exactly, for d = 1..dims (CPU or GPU).
    Exceptions(exceptions::ExceptionsArgs),
    /// Check the GPU back end against the CPU: identical labels, identical answers.
    Selftest(selftest::SelftestArgs),
    /// The terminal explorer: graph shape, step-by-step labeling, queries, batches, exceptions, and a
    /// picture of the graph, its DFS trees and a query's search.
    Tui(tui::TuiArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    Completions(completions::CompletionsArgs),
    /// Print the manual page (roff) to stdout, or write one page per command into a folder.
    Man(completions::ManArgs),
}

/// The most worker threads `--threads` starts: far above any machine's cores, and far below the
/// count at which starting them exhausts memory.
const MAX_THREADS: u64 = 1024;

/// Parses the command line, runs the command, reports errors; the process's exit status.
pub fn main() -> ExitCode {
    // `grail ... | head` must end quietly when head closes the pipe, as other command-line tools do,
    // instead of panicking in `println!`: restore the default SIGPIPE action that Rust's runtime
    // replaces with "ignore".
    #[cfg(unix)]
    // SAFETY: called first thing on the main thread, before any other thread exists; SIG_DFL is a
    // valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // A `--json` before any `--` is the switch (no option takes it as a value).
    let json = std::env::args_os().take_while(|a| a != "--").any(|a| a == "--json");
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version are answers, not failures; a bad command line under `--json` still
            // leaves one JSON object on stdout.
            if json && e.use_stderr() {
                // The message's first paragraph, without the pointer to --help.
                let rendered = e.render().to_string();
                let paragraph: Vec<&str> =
                    rendered.lines().take_while(|l| !l.trim().is_empty()).map(str::trim).collect();
                let joined = paragraph.join(" ");
                let text = joined.strip_prefix("error: ").unwrap_or(&joined);
                println!("{}", serde_json::json!({ "error": text, "exit_code": e.exit_code() }));
            }
            e.exit()
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            if err.downcast_ref::<Disagreement>().is_some() {
                // The report, printed already, holds the disagreements.
                return ExitCode::from(DISAGREEMENT_EXIT);
            }
            // Under `--json`, stdout is one parseable object, a failure's included.
            if json {
                println!("{}", serde_json::json!({ "error": format!("{err:#}"), "exit_code": 1 }));
            }
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    if let (Some(graph), Some(_)) = (&cli.graph, &cli.command) {
        anyhow::bail!(
            "give either a graph to explore or a command, not both ({} came before the command)",
            graph.display()
        );
    }
    // The global pool, not `install`: the explorer's UI loop must not occupy one of its workers.
    rayon::ThreadPoolBuilder::new()
        .num_threads(cli.threads)
        .build_global()
        .map_err(|e| anyhow::anyhow!("cannot start the worker threads: {e}"))?;
    // A command says on stderr when it compiles the GPU kernels; the explorer shows its own progress.
    if !matches!(cli.command, Some(Command::Tui(_)) | None) {
        crate::gpu::startup::listen(crate::gpu::startup::stderr_notices);
    }
    match cli.command {
        Some(Command::Info(args)) => info::run(args),
        Some(Command::Label(args)) => label::run(args),
        Some(Command::Query(args)) => query::run(args),
        Some(Command::Scc(args)) => scc::run(args),
        Some(Command::Gen(args)) => gen_cmd::run(args),
        Some(Command::Convert(args)) => convert::run(args),
        Some(Command::Draw(args)) => draw::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Bfs(args)) => bfs::run(args),
        Some(Command::Closure(args)) => closure::run(args),
        Some(Command::Sssp(args)) => sssp::run(args),
        Some(Command::Apsp(args)) => apsp::run(args),
        Some(Command::Exceptions(args)) => exceptions::run(args),
        Some(Command::Selftest(args)) => selftest::run(args),
        Some(Command::Tui(args)) => tui::run(args, cli.threads),
        Some(Command::Completions(args)) => completions::completions(args, Cli::command()),
        Some(Command::Man(args)) => completions::man(args, Cli::command()),
        None => tui::run_default(cli.graph, cli.no_mouse, cli.threads),
    }
}
