//! Pieces every subcommand shares: graph and label arguments, thread pools, progress, formatting.

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::backend::LabelSpec;
use crate::graph::io::Format;
use crate::index::Order;
use crate::index::pipeline::ParentMethod;
use crate::query::RuleSet;
use crate::reachability::{Index, LabelSource};
use crate::telemetry::{Backend, Sink};
use crate::workspace::Workspace;
use std::sync::Arc;

/// A rayon pool of `threads` workers (0 = all cores) that the command runs inside.
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().context("cannot start the worker threads")
}

/// The graph file every command reads.
#[derive(Args, Debug, Clone)]
pub struct GraphArgs {
    /// Graph file: .gra, SNAP edge list, named edge list (CSV, names as ids), Matrix Market, `n m
    /// directed` or `n m` header, or .grail; gzip is read transparently.
    #[arg(value_name = "GRAPH")]
    pub graph: PathBuf,

    /// Read the file in this format instead of guessing it from the content.
    #[arg(long, value_enum)]
    pub format: Option<Format>,

    /// Refuse a text file with duplicate edges, self-loops or ids never in an edge (exit status 1),
    /// naming the first lines of each; without it the loader merges duplicates, drops self-loops and
    /// keeps unused ids as isolated vertices, and `grail info` reports what it did.
    #[arg(long)]
    pub strict: bool,
}

impl GraphArgs {
    /// Loads and condenses the graph, with a spinner on a terminal; with `--strict`, refuses a file
    /// whose loader report has anomalies.
    pub fn open(&self) -> Result<Workspace> {
        let spinner = spinner(format!("loading {}", self.graph.display()));
        let ws = Workspace::open(&self.graph, self.format);
        spinner.finish_and_clear();
        let ws = ws?;
        self.check_strict(&ws.loaded)?;
        Ok(ws)
    }

    /// With `--strict`, an error naming the loader report's anomalies, if it has any.
    pub fn check_strict(&self, loaded: &crate::graph::LoadedGraph) -> Result<()> {
        if self.strict
            && let Some(report) = &loaded.report
        {
            let found = report.anomaly_sentences();
            if !found.is_empty() {
                anyhow::bail!("{} (--strict): {}", self.graph.display(), found.join("; "));
            }
        }
        Ok(())
    }
}

/// Refuses an output that is one of the command's inputs, or another of its outputs: the same
/// file by device and inode, whatever the paths say (links, `./`, hard links), or for files not
/// there yet, the same name in the same folder. Writing it would replace what is being read.
pub fn refuse_overwriting(inputs: &[Option<&Path>], outputs: &[Option<&Path>]) -> Result<()> {
    let outputs: Vec<&Path> = outputs.iter().flatten().copied().collect();
    for (i, out) in outputs.iter().enumerate() {
        let same = |other: &Path| {
            same_file::is_same_file(out, other).unwrap_or(false)
                || place_of(out).is_some_and(|place| place_of(other) == Some(place))
        };
        if let Some(input) = inputs.iter().flatten().find(|input| same(input)) {
            let what = if out == input {
                "is this command's input".to_string()
            } else {
                format!("is the same file as {}, which this command reads", input.display())
            };
            anyhow::bail!("{} {what}: writing it would replace the input; choose another output", out.display());
        }
        if let Some(earlier) = outputs[..i].iter().find(|earlier| same(earlier)) {
            anyhow::bail!(
                "{} and {} are the same file: choose two different outputs",
                earlier.display(),
                out.display()
            );
        }
    }
    Ok(())
}

/// Where a file that may not exist yet would be: its folder's real path and its name.
fn place_of(path: &Path) -> Option<PathBuf> {
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Some(std::fs::canonicalize(folder).ok()?.join(path.file_name()?))
}

/// The name a user types for a value of an option (`--format gra`, `--method guided-dfs`).
pub fn value_name(value: &impl ValueEnum) -> String {
    value.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default()
}

/// `--order`: how each dimension orders children and roots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OrderKind {
    /// Children by vertex id in every dimension (all dimensions equal: useful only with --dims 1).
    Lex,
    /// Children by a seeded random priority, different per dimension (GRAIL's randomized labels).
    Random,
}

/// How to get labels: build them (dims, order, seed) or read a saved index.
#[derive(Args, Debug, Clone)]
pub struct LabelOptions {
    /// Number of label dimensions (intervals per vertex). More dimensions cut more queries.
    #[arg(short = 'd', long, default_value_t = crate::backend::DEFAULT_DIMS as u16, value_parser = super::values::whole::<u16, 1, 64>)]
    pub dims: u16,

    /// Children order per dimension.
    #[arg(long, value_enum, default_value_t = OrderKind::Random)]
    pub order: OrderKind,

    /// Seed of the random order (printed with every result, so runs can be reproduced).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Which labeler builds the labels: the classic DFS or the level-by-level BFS pipeline (same labels).
    #[arg(long, value_enum, default_value_t = Backend::Dfs)]
    pub backend: Backend,

    /// How the CPU BFS pipeline picks DFS-tree parents: exact path comparison, or the thesis's path-count
    /// weights (fails with an explanation once path counts overflow 64 bits). The GPU always uses exact.
    #[arg(long, value_enum, default_value_t = ParentMethod::Exact)]
    pub parent_method: ParentMethod,

    /// Use labels saved by `grail label --out` instead of building them (checked against the graph).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["dims", "order", "seed", "backend", "parent_method"])]
    pub index: Option<PathBuf>,
}

impl OrderKind {
    /// The order this kind names, with `seed` for the random one.
    pub fn with_seed(self, seed: u64) -> Order {
        match self {
            OrderKind::Lex => Order::Lex,
            OrderKind::Random => Order::Random { seed },
        }
    }
}

impl LabelOptions {
    pub fn order(&self) -> Order {
        self.order.with_seed(self.seed)
    }

    /// What to build (without `--index`).
    pub fn spec(&self) -> LabelSpec {
        LabelSpec {
            parent_method: self.parent_method,
            ..LabelSpec::new(self.backend, self.dims as usize, self.order())
        }
    }

    /// Where the labels come from: built as the options say, or read from `--index`.
    pub fn source(&self) -> LabelSource<'_> {
        match &self.index {
            Some(path) => LabelSource::File(path),
            None => LabelSource::Build(self.spec()),
        }
    }

    /// The index of `ws`: labels built (a spinner on a terminal meanwhile) or read from `--index`,
    /// and with every rule the query index beside them; the labelers' events go to `sink`. A
    /// GPU-to-CPU fallback is printed on stderr here (the library only returns it) and kept in
    /// the index for `--json`.
    pub fn index(&self, ws: Arc<Workspace>, rules: RuleSet, sink: &mut (dyn Sink + Send)) -> Result<Index> {
        let spinner = self.index.is_none().then(|| {
            let dims = crate::format::plural(self.dims as u64, "dimension", "dimensions");
            spinner(format!("labeling: {dims}, {}", self.order()))
        });
        let index = Index::assemble(ws, self.source(), rules, sink);
        if let Some(spinner) = spinner {
            spinner.finish_and_clear();
        }
        let index = index?;
        if let (Some(reason), Some(backend)) = (index.fallback(), index.backend()) {
            eprintln!("note: {reason}; labeled with the {} instead", backend.title());
        }
        Ok(index)
    }
}

/// A spinner on stderr; invisible when stderr is not a terminal.
pub fn spinner(message: String) -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("static template"));
    bar.set_message(message);
    bar.enable_steady_tick(Duration::from_millis(100));
    bar
}

/// A table with the house style.
pub fn table(header: &[&str]) -> comfy_table::Table {
    let mut t = comfy_table::Table::new();
    t.load_style(comfy_table::presets::NOTHING).set_header(header.iter().copied());
    t
}
