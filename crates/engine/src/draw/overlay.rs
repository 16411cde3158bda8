//! What the labelers and the search can lay over the picture, as plain data (DAG vertex ids), so
//! that whoever runs them (the stepper, the query tab, `grail draw`) fills these in without the
//! picture depending on how they work.

pub use crate::telemetry::QueueClass;
use std::collections::{HashMap, HashSet};

/// What the stepper knows about one vertex so far; `None` until its phase has reached it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepVertex {
    /// The DFS-tree parent chosen so far (`None` also for roots, whose parent is the virtual root).
    pub parent: Option<u32>,
    /// Its subtree size in the DFS tree.
    pub size: Option<u32>,
    /// Its post-order number.
    pub post: Option<u32>,
    /// Its min-post `s`.
    pub low: Option<u32>,
}

/// A labeler caught between two steps: per vertex what is known so far, and the current frontier.
/// Only the drawn vertices need entries (fill them after choosing the [`super::Subgraph`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepOverlay {
    /// What is known of each drawn vertex so far.
    pub vertices: HashMap<u32, StepVertex>,
    /// The current level's frontier, each vertex with its queue.
    pub frontier: HashMap<u32, QueueClass>,
    /// One line for the caption, e.g. "dimension 0 · parent selection · level 3".
    pub caption: String,
}

impl StepOverlay {
    /// What is known of `v` so far (nothing, if it has no entry).
    pub fn vertex(&self, v: u32) -> StepVertex {
        self.vertices.get(&v).copied().unwrap_or_default()
    }
}

/// A query's search laid over the picture (DAG vertex ids).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchOverlay {
    /// The query's source `u`.
    pub source: u32,
    /// The query's destination `v`.
    pub target: u32,
    /// The path found, from `source` to `target` (empty when none was found or none was searched).
    pub path: Vec<u32>,
    /// Every vertex the search expanded.
    pub expanded: HashSet<u32>,
    /// Children the labels refused, each with the dimension whose interval cut it.
    pub pruned: HashMap<u32, usize>,
    /// Children another cut of the query index refused (level, topological order, supportive
    /// vertex, Bloom filter), each with its rule.
    pub cut: HashMap<u32, crate::query::Rule>,
    /// Expanded vertices that cannot reach `target`: the false positives.
    pub dead_ends: HashSet<u32>,
    /// One line for the caption, e.g. "3 ⇝ 9? no, decided by a search: 2 dead ends".
    pub caption: String,
}
