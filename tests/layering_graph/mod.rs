//! The graph of dependencies between the files of `src/`, for `tests/layering.rs`.
//!
//! [`modules`] builds the module tree from `mod` declarations, [`resolve`] resolves paths the way
//! rustc does (following re-exports to the defining file), [`edges`] turns every `use` and every
//! path in non-test code into file -> file edges, [`cycles`] finds the cycles and [`rules`] checks
//! the layering rules. The checker parses with syn, so it sees only what is written: paths built
//! by macros that this crate defines, or reached only through trait methods, are not seen.

mod cycles;
mod edges;
mod modules;
mod resolve;
mod resolver_tests;
mod rules;

pub use cycles::ShowCycle;
pub use edges::Evidence;
pub use rules::Rule;

use modules::{CrateModel, FileId};
use std::collections::BTreeMap;
use std::path::Path;

pub struct DependencyGraph {
    /// Every source file, reached or not, by id.
    paths: Vec<String>,
    reached: Vec<FileId>,
    test_only: Vec<FileId>,
    edges: edges::Edges,
}

impl DependencyGraph {
    /// Builds the graph from `src/**/*.rs` under `crate_dir`.
    pub fn from_crate_dir(crate_dir: &Path) -> Result<DependencyGraph, String> {
        let mut sources = BTreeMap::new();
        read_rust_files(crate_dir, Path::new("src"), &mut sources)?;
        DependencyGraph::from_sources(&sources)
    }

    /// Builds the graph from in-memory sources: path (`src/lib.rs`, `src/a/b.rs`) -> text.
    pub fn from_sources(sources: &BTreeMap<String, String>) -> Result<DependencyGraph, String> {
        let model = CrateModel::build(sources)?;
        let edges = edges::collect_edges(&model);
        Ok(DependencyGraph {
            paths: model.files.iter().map(|f| f.path.clone()).collect(),
            reached: model.file_modules.keys().copied().collect(),
            test_only: model.test_only_files.iter().copied().collect(),
            edges,
        })
    }

    pub fn path(&self, file: FileId) -> &str {
        &self.paths[file]
    }

    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Every dependency as (depending file, file it depends on).
    pub fn edges(&self) -> Vec<(&str, &str)> {
        self.edges.keys().map(|&(from, to)| (self.path(from), self.path(to))).collect()
    }

    /// Files no `mod` declaration reaches, not even a test-only one: the checker would miss them.
    pub fn unreached_files(&self) -> Vec<&str> {
        (0..self.paths.len())
            .filter(|id| !self.reached.contains(id) && !self.test_only.contains(id))
            .map(|id| self.path(id))
            .collect()
    }

    pub fn reached_files(&self) -> Vec<&str> {
        self.reached.iter().map(|&id| self.path(id)).collect()
    }

    /// The lines of `from` that make it depend on `to` (empty when it does not).
    pub fn evidence(&self, from: &str, to: &str) -> &[Evidence] {
        let id = |p: &str| self.paths.iter().position(|q| q == p);
        match (id(from), id(to)) {
            (Some(from), Some(to)) => self.edges.get(&(from, to)).map_or(&[], Vec::as_slice),
            _ => &[],
        }
    }

    /// `src/a.rs:3: use crate::b::Thing`, the first line that makes `from` depend on `to`, with how
    /// many more there are.
    pub fn evidence_line(&self, from: FileId, to: FileId) -> String {
        let evidence = self.edges.get(&(from, to)).map_or(&[][..], Vec::as_slice);
        let Some(first) = evidence.first() else {
            return format!("{} does not depend on {}", self.path(from), self.path(to));
        };
        let more = match evidence.len() - 1 {
            0 => String::new(),
            n => format!(" (+{n} more)"),
        };
        format!("{}:{}: {}{more}", self.path(from), first.line, first.text)
    }

    /// `src/a.rs -> src/b.rs at src/a.rs:3: use crate::b::Thing`.
    pub fn show_edge(&self, from: FileId, to: FileId) -> String {
        format!("{} -> {} at {}", self.path(from), self.path(to), self.evidence_line(from, to))
    }
}

/// Reads every `.rs` file under `crate_dir/relative`, keyed by its path relative to `crate_dir`
/// with `/` separators (`src/tui/app.rs`).
fn read_rust_files(crate_dir: &Path, relative: &Path, out: &mut BTreeMap<String, String>) -> Result<(), String> {
    let dir = crate_dir.join(relative);
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let relative = relative.join(entry.file_name());
        let full = crate_dir.join(&relative);
        if full.is_dir() {
            read_rust_files(crate_dir, &relative, out)?;
        } else if relative.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&full).map_err(|e| format!("{}: {e}", full.display()))?;
            let key = relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            out.insert(key, text);
        }
    }
    Ok(())
}
