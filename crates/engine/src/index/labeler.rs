//! The one contract every labeling back end implements, and the one loop that drives them.
//!
//! A [`Labeler`] builds GRAIL labels in steps: the CPU and GPU pipelines one BFS level of one phase
//! at a time, the classic DFS everything in its single step. Callers never branch on the back end:
//! the explorer (step, finish a phase, run to the end), `grail label`, `grail bench` and
//! `grail selftest` all call [`drive`]. Choosing the back end, and falling back from the GPU to the
//! CPU, happens above this module (`crate::backend`), because `index/` knows nothing of the GPU.
//! docs/ARCHITECTURE.md ("Adding a labeling back end") says what a new back end must do.

use super::{DimensionLabels, Labels};
use crate::graph::Graph;
use crate::telemetry::{Backend, Phase, QueueClass, Sink};
use crate::{Error, Result};
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// How far one command goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// One BFS level (the classic DFS: everything).
    Level,
    /// The rest of the current phase of every dimension the first step advances.
    Phase,
    /// The labels.
    End,
}

/// One level a labeler ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelStep {
    /// The dimension, from 0.
    pub dim: usize,
    /// The phase the level belongs to.
    pub phase: Phase,
    /// The level just run (a step index within the phase, from 0 in processing order); with `span`
    /// above 1, the last of that many consecutive levels run (tiny levels are reported together).
    pub level: usize,
    /// How many consecutive levels the step covers (at least 1).
    pub span: usize,
    /// The phase's number of levels.
    pub levels: usize,
    /// The step finished the phase.
    pub phase_finished: bool,
    /// The step finished the dimension: its labels are ready.
    pub dimension_finished: bool,
}

/// What one [`Labeler::advance`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Advance {
    /// The levels run, in order (several dimensions may advance together).
    pub steps: Vec<LevelStep>,
    /// Every dimension is labeled: [`Labeler::take_labels`] hands the result out.
    pub finished: bool,
}

/// Where a dimension stands: its current phase and the next level it will run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The dimension, from 0.
    pub dim: usize,
    /// The phase it is in.
    pub phase: Phase,
    /// The next level it runs, counted from 0 in processing order.
    pub level: usize,
}

/// What a run knows of one dimension so far, vertex by vertex (`None`: not computed yet), for the
/// explorer's picture of a small graph while it is stepped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// The dimension, from 0.
    pub dim: usize,
    /// The phase of the level run last (`None` before the first).
    pub phase: Option<Phase>,
    /// The vertex has its DFS-tree parent: `Some(None)` for a root (its parent is the virtual root).
    pub parent: Vec<Option<Option<u32>>>,
    /// The size of the vertex's subtree in the DFS tree (the vertex included).
    pub size: Vec<Option<u32>>,
    /// The vertex's post-order number in the DFS tree, the `post` of its label `[s, post]`.
    pub post: Vec<Option<u32>>,
    /// The min-post `s` of the label `[s, post]`.
    pub low: Vec<Option<u32>>,
    /// The level run last, each vertex with the queue its scanned degree put it in.
    pub frontier: Vec<(u32, QueueClass)>,
}

impl Snapshot {
    /// A finished dimension: every value known.
    pub fn of_labels(dag: &Graph, dim: usize, labels: &DimensionLabels) -> Snapshot {
        let known = |values: &[u32]| values.iter().map(|&x| Some(x)).collect();
        Snapshot {
            dim,
            phase: None,
            parent: tree_parents(dag, &labels.post, &labels.subtree).into_iter().map(Some).collect(),
            size: known(&labels.subtree),
            post: known(&labels.post),
            low: known(&labels.low),
            frontier: Vec::new(),
        }
    }
}

/// DFS-tree parents from post numbers and subtree sizes (`None` for a root): the tree parent of `v`
/// is, among its DAG parents, the one whose subtree holds `v` (`post(p) - size(p) < post(v) <=
/// post(p)`) with the smallest subtree: every T-ancestor's subtree holds `v`, the T-parent is the
/// deepest of them, and it is a DAG parent.
pub fn tree_parents(dag: &Graph, post: &[u32], size: &[u32]) -> Vec<Option<u32>> {
    (0..dag.num_vertices() as u32).map(|v| tree_parent(dag, post, size, v)).collect()
}

/// [`tree_parents`] of one vertex: reads only `v`'s parents.
pub fn tree_parent(dag: &Graph, post: &[u32], size: &[u32], v: u32) -> Option<u32> {
    let pv = post[v as usize];
    let holds = |&p: &u32| post[p as usize] - size[p as usize] < pv && pv <= post[p as usize];
    dag.parents(v).iter().copied().filter(holds).min_by_key(|&p| size[p as usize])
}

/// Where a run stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", content = "message", rename_all = "snake_case")]
pub enum Status {
    /// Nothing has run yet (or the run was reset).
    NotStarted,
    /// Some levels have run; more remain.
    Running,
    /// Every dimension is labeled.
    Finished,
    /// The cancel token stopped the run at a level boundary.
    Cancelled,
    /// A step failed (e.g. the weight method overflowed); `reset` to start again.
    Failed(String),
}

/// A resumable labeling run over one DAG. Every back end emits the same telemetry (`RunStarted`,
/// per phase `PhaseStarted`/`LevelDone`/`PhaseDone`, `Memory`, `RunDone`) into the sink it is given.
pub trait Labeler: Send {
    /// The back end this is (the one that really runs: fallbacks are decided before it exists).
    fn backend(&self) -> Backend;

    /// Runs at least one level and at most up to `until`; it may stop early at any level boundary
    /// (a back end that batches levels returns every fraction of a second, so [`drive`] can pause
    /// and report). Errors are sticky until [`Labeler::reset`]; a cancelled run returns
    /// [`Cancel::Labeling`](crate::Cancel::Labeling) (check with [`Error::is_cancelled`]). A back end
    /// outside the engine wraps its own errors with [`Error::other`].
    fn advance(&mut self, until: Until, sink: &mut dyn Sink) -> Result<Advance>;

    /// Each unfinished dimension's position (empty once finished).
    fn positions(&self) -> Vec<Position>;

    /// Where the run stands.
    fn status(&self) -> Status;

    /// Compute time so far (pauses between steps not counted).
    fn seconds(&self) -> f64;

    /// The labels, once finished (once: they are moved out).
    fn take_labels(&mut self) -> Option<Labels>;

    /// A flag another thread may set: the run stops at the next level boundary with
    /// [`Cancel::Labeling`](crate::Cancel::Labeling).
    fn cancel_token(&self) -> Arc<AtomicBool>;

    /// Back to the start: same graph and settings; work, labels and cancellation cleared.
    fn reset(&mut self);

    /// Why this labeler runs on another back end than the one asked for, when it decided that itself
    /// mid-run (a GPU run handing a deep, narrow graph to the CPU pipeline); `None` otherwise.
    /// Fallbacks decided before a run are `backend::Opened::fallback`.
    fn handed_over(&self) -> Option<&str> {
        None
    }

    /// What is known so far of dimension `dim`, on graphs of at most [`SNAPSHOT_MAX_VERTICES`]
    /// vertices; `None` elsewhere or where the back end has no view inside a run (the DFS, whose
    /// one step leaves only finished labels).
    fn snapshot(&self, _dim: usize) -> Option<Snapshot> {
        None
    }
}

/// The largest graph whose runs keep snapshots (the picture draws whole graphs of about 80
/// vertices; copying a frontier per level costs nothing at this size).
pub const SNAPSHOT_MAX_VERTICES: usize = 4096;

/// How a [`drive`] ended.
#[derive(Debug)]
pub enum Driven {
    /// The run is complete; the labels were taken out of the labeler.
    Finished(Labels),
    /// The level or phase asked for is done; the labeler can go on later.
    Reached,
    /// `pause` was set: stopped at a level boundary, resumable.
    Paused,
}

/// Runs `labeler` until `until`, the one loop behind every caller. Between advances it checks
/// `pause` (a single level is never paused) and calls `tick`, which the explorer uses to show
/// progress.
pub fn drive(
    labeler: &mut dyn Labeler,
    until: Until,
    sink: &mut dyn Sink,
    pause: &AtomicBool,
    tick: &mut dyn FnMut(&dyn Labeler),
) -> Result<Driven> {
    // `Until::Phase` finishes the phase of every dimension the first advance moved.
    let mut pending: Option<Vec<usize>> = None;
    loop {
        if until != Until::Level && pause.load(Ordering::Relaxed) {
            return Ok(Driven::Paused);
        }
        let advance = labeler.advance(until, sink)?;
        if advance.finished {
            return match labeler.take_labels() {
                Some(labels) => Ok(Driven::Finished(labels)),
                None => Err(Error::InvalidInput("the labels of this run were already taken".into())),
            };
        }
        match until {
            Until::Level => return Ok(Driven::Reached),
            Until::Phase => {
                let pending = pending.get_or_insert_with(|| advance.steps.iter().map(|s| s.dim).collect());
                for step in advance.steps.iter().filter(|s| s.phase_finished) {
                    pending.retain(|&d| d != step.dim);
                }
                if pending.is_empty() {
                    return Ok(Driven::Reached);
                }
            }
            Until::End => {}
        }
        tick(&*labeler);
    }
}

/// [`drive`] to the end, without pauses: the labels.
pub fn run_to_end(labeler: &mut dyn Labeler, sink: &mut dyn Sink) -> Result<Labels> {
    match drive(labeler, Until::End, sink, &AtomicBool::new(false), &mut |_| {})? {
        Driven::Finished(labels) => Ok(labels),
        Driven::Reached | Driven::Paused => Err(Error::InvalidInput("the run stopped before the end".into())),
    }
}
