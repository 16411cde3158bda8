//! The event stream every labeler emits (docs/ARCHITECTURE.md, "Invariants": the spine).
//!
//! The classic DFS labeler, the CPU pipeline and (later) the GPU pipeline all report through the same
//! [`Event`]s into a [`Sink`]; the TUI, `grail bench` and `--json` consume them. Events are plain data,
//! one per BFS level at most (never one per vertex), so they are cheap enough to leave on.

use crate::index::Order;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex, mpsc};

/// The queue limits, defined once for Rust and the kernels in `kernels/constants.in`.
pub use crate::constants::{LARGE_DEGREE_LIMIT, SMALL_DEGREE_LIMIT};

/// Which labeler builds the index. It lives with the events (which name it) rather than with the
/// labelers, so that the event vocabulary depends on no back end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Backend {
    /// The classic DFS, one thread per dimension.
    Dfs,
    /// The BFS pipeline on the CPU, parallel over every level's frontier.
    Cpu,
    /// The BFS pipeline on an NVIDIA GPU (CUDA through the driver, loaded at run time).
    Gpu,
}

impl Backend {
    /// The name shown to people (the explorer, tables).
    pub fn title(self) -> &'static str {
        match self {
            Backend::Dfs => "DFS (classic)",
            Backend::Cpu => "CPU pipeline",
            Backend::Gpu => "GPU pipeline",
        }
    }
}

fn one() -> usize {
    1
}

/// One step of a labeler. Serialised as JSON objects tagged by `"event"`, e.g.
/// `{"event":"level_done","dim":0,"phase":"min_post",...}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The requested back end could not run, so another one does; `reason` says why in one line.
    /// Comes before the `RunStarted` of the back end that really runs.
    Fallback {
        /// The back end that was asked for.
        requested: Backend,
        /// The back end that runs instead.
        ran: Backend,
        /// Why the requested one cannot run, in one line.
        reason: String,
    },
    /// A labeling run begins (again after a reset).
    RunStarted {
        /// The back end that really runs.
        backend: Backend,
        /// How many label dimensions (independent DFS trees) the run computes.
        dims: usize,
        /// How each dimension orders the children it visits.
        order: Order,
        /// Vertices of the graph being labeled (the condensed DAG).
        vertices: u64,
        /// Edges of that graph.
        edges: u64,
    },
    /// A phase of one dimension begins.
    PhaseStarted {
        /// The dimension, from 0.
        dim: usize,
        /// The phase that begins.
        phase: Phase,
    },
    /// One BFS level of a phase is done, or `span` consecutive ones reported together (`level` the
    /// first): deep, narrow graphs have millions of tiny levels, whose events would cost more than
    /// the levels themselves (see `index/pipeline/level_clock.rs`). `level` counts the phase's steps
    /// from 0 in processing order (bottom-up phases start at the deepest level). `queues` splits the
    /// frontier by the degree the phase scans; `edges_scanned` is the sum of those degrees (both summed
    /// over a span).
    LevelDone {
        /// The dimension, from 0.
        dim: usize,
        /// The phase the level belongs to.
        phase: Phase,
        /// The first level reported, counted from 0 in processing order.
        level: usize,
        /// How many consecutive levels this event covers (at least 1; 1 when absent from JSON).
        #[serde(default = "one")]
        span: usize,
        /// The frontier vertices, split by the degree the phase scans.
        queues: QueueSizes,
        /// The sum of the scanned degrees of the frontier vertices.
        edges_scanned: u64,
        /// Wall-clock seconds the levels took.
        seconds: f64,
    },
    /// A phase of one dimension is done: totals over its levels.
    PhaseDone {
        /// The dimension, from 0.
        dim: usize,
        /// The phase that finished.
        phase: Phase,
        /// How many levels the phase stepped through.
        levels: usize,
        /// Frontier vertices processed over all its levels.
        vertices: u64,
        /// Edges scanned over all its levels.
        edges_scanned: u64,
        /// Wall-clock seconds of the whole phase, setup included.
        seconds: f64,
    },
    /// A memory sample: the process's resident set (when the platform reports it) and the bytes held
    /// by each named index structure.
    Memory {
        /// The process's resident set in bytes; `None` where the platform does not report it.
        resident_bytes: Option<u64>,
        /// Each index structure by name, with the bytes it holds.
        structures: Vec<(String, u64)>,
    },
    /// The run is done; `seconds` is the compute time (pauses between steps not counted).
    RunDone {
        /// Compute seconds of the whole run.
        seconds: f64,
    },
    /// The run was cancelled and stopped at a level boundary.
    Cancelled,
}

/// The frontier of one level split by degree: small `< 32`, medium `32..=256`, large `> 256`
/// (a thread, a warp and a block per vertex on the GPU).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueSizes {
    /// Vertices of degree below [`SMALL_DEGREE_LIMIT`].
    pub small: u64,
    /// Vertices of degree from [`SMALL_DEGREE_LIMIT`] to [`LARGE_DEGREE_LIMIT`], both included.
    pub medium: u64,
    /// Vertices of degree above [`LARGE_DEGREE_LIMIT`].
    pub large: u64,
}

impl QueueSizes {
    /// Counts one vertex of the given scanned degree.
    #[inline]
    pub fn add(&mut self, degree: usize) {
        match QueueClass::of(degree) {
            QueueClass::Small => self.small += 1,
            QueueClass::Medium => self.medium += 1,
            QueueClass::Large => self.large += 1,
        }
    }

    /// Sums two counts (for parallel reductions).
    pub fn merged(self, other: QueueSizes) -> QueueSizes {
        QueueSizes {
            small: self.small + other.small,
            medium: self.medium + other.medium,
            large: self.large + other.large,
        }
    }

    /// The whole frontier.
    pub fn total(&self) -> u64 {
        self.small + self.medium + self.large
    }
}

/// Which queue a frontier vertex goes to, by the degree the phase scans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueueClass {
    /// Degree below [`SMALL_DEGREE_LIMIT`]: a thread per vertex on the GPU.
    Small,
    /// A warp per vertex.
    Medium,
    /// Degree above [`LARGE_DEGREE_LIMIT`]: a block per vertex.
    Large,
}

impl QueueClass {
    /// The queue of a vertex whose scanned degree is `degree`.
    pub fn of(degree: usize) -> QueueClass {
        if degree < SMALL_DEGREE_LIMIT {
            QueueClass::Small
        } else if degree <= LARGE_DEGREE_LIMIT {
            QueueClass::Medium
        } else {
            QueueClass::Large
        }
    }
}

/// The phases of every labeler. The pipeline runs `ParentSelection` (or `SubgraphSizes` then
/// `ParentSssp` with the weight method), `SubtreeSizes`, `PostOrder`, `MinPost`; the classic labeler
/// runs one `Dfs` per dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The classic labeler's whole dimension: one depth-first search.
    Dfs,
    /// Picks every vertex's DFS-tree parent, top-down over the Kahn levels (exact method).
    ParentSelection,
    /// Sizes of the DFS tree's subtrees, bottom-up; then the tree's root.
    SubtreeSizes,
    /// Every vertex's post-order rank in the DFS tree, top-down.
    PostOrder,
    /// Every vertex's interval start: the least post-order rank it reaches, bottom-up.
    MinPost,
    /// Path-count weights of the DAG, bottom-up (weight method).
    SubgraphSizes,
    /// Parents by a shortest-path search over the path-count weights (weight method).
    ParentSssp,
}

impl Phase {
    /// The name shown to people (tables, TUI).
    pub fn name(self) -> &'static str {
        match self {
            Phase::Dfs => "DFS",
            Phase::ParentSelection => "parent selection",
            Phase::SubtreeSizes => "subtree sizes",
            Phase::PostOrder => "post-order",
            Phase::MinPost => "min-post",
            Phase::SubgraphSizes => "subgraph sizes (DAG weights)",
            Phase::ParentSssp => "parent SSSP (weights)",
        }
    }

    /// The phase walks the DFS tree from the virtual root above every root, so it counts one level
    /// and one vertex more than the phases that walk the DAG.
    pub fn walks_virtual_root(self) -> bool {
        matches!(self, Phase::SubtreeSizes | Phase::PostOrder)
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Where events go.
pub trait Sink {
    /// Takes one event; never fails (a sink that can fail remembers the error itself).
    fn emit(&mut self, event: Event);
}

/// Collects events in memory (tests, `--json` summaries).
impl Sink for Vec<Event> {
    fn emit(&mut self, event: Event) {
        self.push(event);
    }
}

/// Forwards to a channel, e.g. from a worker thread to the TUI. A closed receiver drops events: the
/// listener went away, the work itself need not fail.
impl Sink for mpsc::Sender<Event> {
    fn emit(&mut self, event: Event) {
        let _ = self.send(event);
    }
}

/// A sink shared with another owner, e.g. `Arc<Mutex<Vec<Event>>>` that a test reads afterwards.
impl<S: Sink + ?Sized> Sink for Arc<Mutex<S>> {
    fn emit(&mut self, event: Event) {
        // A poisoned lock means a reader panicked; keep the events flowing to what is left.
        let mut guard = self.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        guard.emit(event);
    }
}

impl<S: Sink + ?Sized> Sink for &mut S {
    fn emit(&mut self, event: Event) {
        (**self).emit(event);
    }
}

impl<S: Sink + ?Sized> Sink for Box<S> {
    fn emit(&mut self, event: Event) {
        (**self).emit(event);
    }
}

/// Drops every event.
#[derive(Clone, Copy, Debug, Default)]
pub struct NullSink;

impl Sink for NullSink {
    fn emit(&mut self, _event: Event) {}
}

/// A memory sample with the given named structures.
pub fn memory_event(structures: Vec<(String, u64)>) -> Event {
    Event::Memory { resident_bytes: crate::system::resident_bytes(), structures }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_split_follows_the_degree_limits() {
        let mut q = QueueSizes::default();
        for d in [0, 31, 32, 256, 257, 10_000] {
            q.add(d);
        }
        assert_eq!(q, QueueSizes { small: 2, medium: 2, large: 2 });
        assert_eq!(q.total(), 6);
    }
}
