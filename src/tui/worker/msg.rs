//! What the worker reports to the UI, on its own so that the UI's event type can carry it without
//! depending on the worker's code.

use super::batch::BatchResult;
use super::picture::PictureResult;
use crate::backend::LabelSpec;
use crate::exceptions::ExceptionCounts;
use crate::exceptions::concentration::Concentration;
use crate::index::labeler::{Position, Status};
use crate::index::{Interval, Labels};
use crate::query::query_index::TopoPositions;
use crate::query::{Answer, Decision, Trace};
use crate::telemetry::{Backend, Event};
use crate::tui::state::graph::GraphFacts;
use crate::workspace::Workspace;
use std::sync::Arc;

/// Where the session stands, for the Labels tab.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelStatus {
    pub config: LabelSpec,
    /// The back end that really runs.
    pub backend: Backend,
    /// Why that is not the one asked for.
    pub fallback: Option<String>,
    pub status: Status,
    /// Per unfinished dimension: phase and next level.
    pub positions: Vec<Position>,
    pub seconds: f64,
    /// A command is advancing the run now; false between commands, where an unfinished run waits
    /// at a level boundary for the next `s`, `f` or `r`.
    pub in_progress: bool,
}

/// One query's outcome, with everything the Query tab draws.
#[derive(Clone, Debug)]
pub struct QueryResult {
    pub u: u32,
    pub v: u32,
    pub cu: u32,
    pub cv: u32,
    pub answer: Answer,
    /// The answer's path along the file's own edges (the answer's own runs through components).
    pub vertex_path: Option<Vec<u32>>,
    pub trace: Trace,
    /// The ends' intervals per dimension; empty when the answer came before there were labels.
    pub intervals_u: Vec<Interval>,
    pub intervals_v: Vec<Interval>,
    /// Labels existed when the query was answered (without them, the query index decided alone).
    pub labels_ready: bool,
    pub level_u: u32,
    pub level_v: u32,
    /// The positions of `cu` and `cv` in the query index's topological orders (every rule only).
    pub topo: Option<(TopoPositions, TopoPositions)>,
    /// DAG vertices: post-order numbers run `1..=dag_vertices`.
    pub dag_vertices: usize,
    /// Every check the engine ran, in order (its rule set included): what the tab explains.
    pub decision: Decision,
    /// The weighted distance, where the file gives weights: a shortest path by weight, that there
    /// is none (v unreachable), or why the weights could not be read.
    pub weighted: Option<super::weighted_path::Weighted>,
}

/// The exception counts and how they were made.
#[derive(Clone, Debug)]
pub struct ExceptionResult {
    pub counts: ExceptionCounts,
    pub seed: u64,
    pub seconds: f64,
}

/// What the worker reports.
pub enum Msg {
    /// A job started: what it does and whether `c` can stop it.
    Busy {
        what: String,
        cancellable: bool,
    },
    /// Fraction done of the running job, when known.
    Progress(f64),
    /// What the running job does now (its clock runs on).
    Doing(String),
    /// The job is over (done, failed or cancelled).
    Idle,
    Loaded(Arc<Workspace>, Box<GraphFacts>),
    LoadFailed(String),
    Telemetry(Event),
    LabelState(Box<LabelStatus>),
    LabelsReady(Arc<Labels>),
    LabelsCleared,
    QueryDone(Box<QueryResult>),
    BatchDone(Arc<BatchResult>),
    ExceptionsDone(ExceptionResult),
    /// Where the false positives of these labels concentrate (or why that was not counted).
    FalsePositives(Arc<Labels>, Result<Box<Concentration>, String>),
    PictureReady(Box<PictureResult>),
    Info(String),
    Error(String),
}

impl std::fmt::Debug for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Msg::Loaded(ws, _) => write!(f, "Loaded({})", ws.loaded.path.display()),
            Msg::Busy { what, .. } => write!(f, "Busy({what})"),
            Msg::Telemetry(e) => write!(f, "Telemetry({e:?})"),
            Msg::Info(t) => write!(f, "Info({t})"),
            Msg::Error(t) => write!(f, "Error({t})"),
            Msg::LoadFailed(t) => write!(f, "LoadFailed({t})"),
            other => write!(f, "{}", other.kind()),
        }
    }
}

impl Msg {
    fn kind(&self) -> &'static str {
        match self {
            Msg::Busy { .. } => "Busy",
            Msg::Progress(_) => "Progress",
            Msg::Doing(_) => "Doing",
            Msg::Idle => "Idle",
            Msg::Loaded(..) => "Loaded",
            Msg::LoadFailed(_) => "LoadFailed",
            Msg::Telemetry(_) => "Telemetry",
            Msg::LabelState(_) => "LabelState",
            Msg::LabelsReady(_) => "LabelsReady",
            Msg::LabelsCleared => "LabelsCleared",
            Msg::QueryDone(_) => "QueryDone",
            Msg::BatchDone(_) => "BatchDone",
            Msg::ExceptionsDone(_) => "ExceptionsDone",
            Msg::FalsePositives(..) => "FalsePositives",
            Msg::PictureReady(_) => "PictureReady",
            Msg::Info(_) => "Info",
            Msg::Error(_) => "Error",
        }
    }
}
