//! [`PipelineLabeler`]: the resumable stepper over the pipeline's phases and levels.
//!
//! The caller drives it (`step_level`, `finish_phase`, `run_to_end`); it emits telemetry into its
//! sink as it goes, can be cancelled from another thread between levels, and can be reset.

use super::dimension::{Context, DimensionRun, LevelStep};
use super::levels::DagLevels;
use super::state::{PhaseTable, PipelineState, Status};
use super::{Backend, PipelineConfig};
use crate::graph::Graph;
use crate::index::{DimensionLabels, Labels};
use crate::telemetry::{Event, NullSink, Sink, memory_event};
use anyhow::{Result, bail, ensure};
use rayon::prelude::*;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Average vertices per Kahn level from which `all_dims_at_once` steps the dimensions in parallel.
const PARALLEL_DIMENSIONS_MIN_WIDTH: usize = 64;

/// The error a cancelled run returns (find it with `err.downcast_ref::<Cancelled>()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

impl fmt::Display for Cancelled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("labeling was cancelled")
    }
}

impl std::error::Error for Cancelled {}

/// What one `step_level` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// One entry per dimension advanced: one normally, every unfinished one with `all_dims_at_once`.
    pub steps: Vec<LevelStep>,
    /// Every dimension is labeled: `take_labels` hands the result out.
    pub finished: bool,
}

/// Builds GRAIL labels with the BFS pipeline, one level per call if asked.
pub struct PipelineLabeler {
    dag: Arc<Graph>,
    config: PipelineConfig,
    levels: DagLevels,
    runs: Vec<DimensionRun>,
    sink: Box<dyn Sink + Send>,
    cancel: Arc<AtomicBool>,
    status: Status,
    table: PhaseTable,
    last_steps: Vec<LevelStep>,
    seconds: f64,
    labels: Option<Labels>,
}

impl fmt::Debug for PipelineLabeler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PipelineLabeler").field("config", &self.config).field("status", &self.status).finish()
    }
}

impl PipelineLabeler {
    /// Prepares a run over `dag` (events go nowhere until a sink is set). Fails on a cyclic graph,
    /// zero dimensions, or a graph too large for 32-bit post-order numbers.
    pub fn new(dag: Arc<Graph>, config: PipelineConfig) -> Result<PipelineLabeler> {
        ensure!(config.dims >= 1, "at least one dimension is needed");
        // Post-order numbers are u32 and the virtual root ρ takes number n + 1.
        ensure!(
            dag.num_vertices() < u32::MAX as usize,
            "{} vertices are too many for 32-bit post-order numbers",
            dag.num_vertices()
        );
        let levels = DagLevels::new(&dag)?;
        let runs = Self::fresh_runs(&config);
        Ok(PipelineLabeler {
            dag,
            config,
            levels,
            runs,
            sink: Box::new(NullSink),
            cancel: Arc::new(AtomicBool::new(false)),
            status: Status::NotStarted,
            table: PhaseTable::default(),
            last_steps: Vec::new(),
            seconds: 0.0,
            labels: None,
        })
    }

    /// The same, emitting into `sink`.
    pub fn with_sink(mut self, sink: Box<dyn Sink + Send>) -> PipelineLabeler {
        self.sink = sink;
        self
    }

    pub fn set_sink(&mut self, sink: Box<dyn Sink + Send>) {
        self.sink = sink;
    }

    fn fresh_runs(config: &PipelineConfig) -> Vec<DimensionRun> {
        (0..config.dims).map(|dim| DimensionRun::new(dim, config.parent_method)).collect()
    }

    pub fn config(&self) -> &PipelineConfig {
        &self.config
    }

    /// Runs one BFS level of the current phase (of every unfinished dimension with
    /// `all_dims_at_once`). After the last level, the labels are assembled and `RunDone` emitted.
    /// A cancelled run returns a [`Cancelled`] error; a failed one its error again until `reset`.
    pub fn step_level(&mut self) -> Result<Progress> {
        let mut sink = std::mem::replace(&mut self.sink, Box::new(NullSink));
        let result = self.step_level_with(&mut sink);
        self.sink = sink;
        result
    }

    /// [`Self::step_level`], emitting into `sink` instead of the labeler's own.
    pub fn step_level_with(&mut self, sink: &mut dyn Sink) -> Result<Progress> {
        match &self.status {
            Status::Finished => return Ok(Progress { steps: Vec::new(), finished: true }),
            Status::Cancelled => return Err(Cancelled.into()),
            Status::Failed(message) => bail!("the previous step failed ({message}); reset to start again"),
            Status::NotStarted | Status::Running => {}
        }
        if self.cancel.load(Ordering::Relaxed) {
            self.status = Status::Cancelled;
            self.emit(sink, Event::Cancelled);
            return Err(Cancelled.into());
        }
        if self.status == Status::NotStarted {
            self.status = Status::Running;
            let event = Event::RunStarted {
                backend: Backend::Cpu,
                dims: self.config.dims,
                order: self.config.order,
                vertices: self.dag.num_vertices() as u64,
                edges: self.dag.num_edges() as u64,
            };
            self.emit(sink, event);
            let shared = vec![
                ("graph".to_string(), self.dag.heap_bytes() as u64),
                ("kahn levels".to_string(), self.levels.heap_bytes() as u64),
            ];
            self.emit(sink, memory_event(shared));
        }
        let clock = Instant::now();
        let outcome = self.advance();
        self.seconds += clock.elapsed().as_secs_f64();
        let (steps, events, error) = outcome;
        for event in events {
            self.emit(sink, event);
        }
        if let Some(error) = error {
            self.status = Status::Failed(format!("{error:#}"));
            return Err(error);
        }
        self.last_steps.clone_from(&steps);
        let finished = self.runs.iter().all(DimensionRun::is_finished);
        if finished {
            self.assemble();
            self.status = Status::Finished;
            self.emit(sink, Event::RunDone { seconds: self.seconds });
        }
        Ok(Progress { steps, finished })
    }

    /// Steps the current dimension, or every unfinished one. Returns the steps, the events in
    /// dimension order, and the first error.
    fn advance(&mut self) -> (Vec<LevelStep>, Vec<Event>, Option<anyhow::Error>) {
        let ctx = Context { dag: &self.dag, levels: &self.levels, config: &self.config };
        let step_one = |run: &mut DimensionRun| {
            let mut events = Vec::new();
            let step = run.step(&ctx, &mut events);
            (step, events)
        };
        // Dimensions are independent, so with `all_dims_at_once` they step in parallel, except on
        // narrow graphs (a chain: one vertex per level) where waking threads for every level would
        // cost far more than the level itself.
        let levels = self.levels.buckets.num_levels().max(1);
        let wide = self.dag.num_vertices() / levels >= PARALLEL_DIMENSIONS_MIN_WIDTH;
        let results: Vec<(Result<LevelStep>, Vec<Event>)> = if self.config.all_dims_at_once && wide {
            self.runs.par_iter_mut().filter(|r| !r.is_finished()).map(step_one).collect()
        } else if self.config.all_dims_at_once {
            self.runs.iter_mut().filter(|r| !r.is_finished()).map(step_one).collect()
        } else {
            self.runs.iter_mut().find(|r| !r.is_finished()).map(step_one).into_iter().collect()
        };
        let mut steps = Vec::new();
        let mut all_events = Vec::new();
        let mut error = None;
        for (step, events) in results {
            all_events.extend(events);
            match step {
                Ok(s) => steps.push(s),
                Err(e) => {
                    error.get_or_insert(e);
                }
            }
        }
        (steps, all_events, error)
    }

    fn assemble(&mut self) {
        let dimensions: Vec<DimensionLabels> =
            self.runs.iter_mut().map(|r| r.take_labels().expect("a finished dimension holds labels")).collect();
        self.labels = Some(Labels::from_dimensions(self.config.order, &dimensions, self.levels.level.clone()));
    }

    fn emit(&mut self, sink: &mut dyn Sink, event: Event) {
        self.table.apply(&event);
        sink.emit(event);
    }

    /// Steps until the current phase is done (with `all_dims_at_once`: until every dimension has
    /// finished the phase it was in).
    pub fn finish_phase(&mut self) -> Result<Progress> {
        let mut pending: Vec<usize> = if self.config.all_dims_at_once {
            self.runs.iter().filter(|r| !r.is_finished()).map(DimensionRun::dim).collect()
        } else {
            self.runs.iter().find(|r| !r.is_finished()).map(DimensionRun::dim).into_iter().collect()
        };
        let mut steps = Vec::new();
        loop {
            let progress = self.step_level()?;
            for s in &progress.steps {
                if s.phase_finished {
                    pending.retain(|&d| d != s.dim);
                }
            }
            steps.extend(progress.steps);
            if pending.is_empty() || progress.finished {
                return Ok(Progress { steps, finished: progress.finished });
            }
        }
    }

    /// Steps to the end and hands the labels out.
    pub fn run_to_end(&mut self) -> Result<Labels> {
        let mut sink = std::mem::replace(&mut self.sink, Box::new(NullSink));
        let result = self.run_to_end_with(&mut sink);
        self.sink = sink;
        result
    }

    /// [`Self::run_to_end`], emitting into `sink` instead of the labeler's own.
    pub fn run_to_end_with(&mut self, sink: &mut dyn Sink) -> Result<Labels> {
        while !self.step_level_with(sink)?.finished {}
        self.take_labels().ok_or_else(|| anyhow::anyhow!("the labels of this run were already taken"))
    }

    /// Asks the run to stop at the next level boundary (emitting `Cancelled`).
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// A flag another thread can set to cancel.
    pub fn cancel_token(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// Back to the start: same graph, config and sink; work, labels and cancellation cleared.
    pub fn reset(&mut self) {
        self.runs = Self::fresh_runs(&self.config);
        self.cancel.store(false, Ordering::Relaxed);
        self.status = Status::NotStarted;
        self.table = PhaseTable::default();
        self.last_steps.clear();
        self.seconds = 0.0;
        self.labels = None;
    }

    pub fn is_finished(&self) -> bool {
        self.status == Status::Finished
    }

    /// What the TUI shows.
    pub fn state(&self) -> PipelineState {
        PipelineState {
            config: self.config,
            status: self.status.clone(),
            positions: self.runs.iter().filter_map(|r| r.position().map(|(p, l)| (r.dim(), p, l))).collect(),
            last_steps: self.last_steps.clone(),
            phases: self.table.clone(),
            seconds: self.seconds,
        }
    }

    /// The labels, once finished (once: they are moved out).
    pub fn take_labels(&mut self) -> Option<Labels> {
        self.labels.take()
    }
}
