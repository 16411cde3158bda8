//! Layering rules between parts of `src/`: "files matching `from` (but not `except`) never depend
//! on files matching `never`". Patterns are path prefixes: `src/gpu/` is the whole directory,
//! `src/telemetry.rs` one file.

use super::DependencyGraph;
use super::modules::FileId;
use std::fmt;

pub struct Rule {
    pub from: &'static [&'static str],
    pub except: &'static [&'static str],
    pub never: &'static [&'static str],
    /// Why the rule exists, printed with its violations.
    pub why: &'static str,
}

/// A direct dependency that breaks a rule.
pub struct Violation<'g> {
    pub graph: &'g DependencyGraph,
    pub rule: &'g Rule,
    pub from: FileId,
    pub to: FileId,
}

fn matches(path: &str, patterns: &[&str]) -> bool {
    patterns.iter().any(|p| path.starts_with(p))
}

impl Rule {
    fn applies_to(&self, path: &str) -> bool {
        matches(path, self.from) && !matches(path, self.except)
    }
}

impl DependencyGraph {
    /// Every edge that breaks `rule`.
    pub fn violations<'g>(&'g self, rule: &'g Rule) -> Vec<Violation<'g>> {
        self.edges
            .keys()
            .filter(|&&(from, to)| rule.applies_to(self.path(from)) && matches(self.path(to), rule.never))
            .map(|&(from, to)| Violation { graph: self, rule, from, to })
            .collect()
    }
}

impl fmt::Display for Violation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\n    rule: {}", self.graph.show_edge(self.from, self.to), self.rule.why)
    }
}
