//! [`PipelineLabeler`]: the BFS pipeline behind the [`Labeler`] contract, one level per step.
//!
//! It emits telemetry into the sink each step is given, can be cancelled from another thread
//! between levels, and can be reset.

use super::PipelineConfig;
use super::dimension::{Context, DimensionRun};
use super::levels::DagLevels;
use crate::graph::Graph;
use crate::index::labeler::{Advance, Cancelled, LevelStep, Position, SNAPSHOT_MAX_VERTICES, Snapshot, Status, Until};
use crate::index::{DimensionLabels, Labeler, Labels};
use crate::telemetry::{Backend, Event, Sink, memory_event};
use anyhow::{Result, bail, ensure};
use rayon::prelude::*;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Average vertices per Kahn level from which `all_dims_at_once` steps the dimensions in parallel.
const PARALLEL_DIMENSIONS_MIN_WIDTH: usize = 64;

/// Builds GRAIL labels with the BFS pipeline, one level per call if asked.
pub struct PipelineLabeler {
    dag: Arc<Graph>,
    config: PipelineConfig,
    levels: DagLevels,
    runs: Vec<DimensionRun>,
    cancel: Arc<AtomicBool>,
    status: Status,
    seconds: f64,
    labels: Option<Labels>,
}

impl fmt::Debug for PipelineLabeler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PipelineLabeler").field("config", &self.config).field("status", &self.status).finish()
    }
}

impl PipelineLabeler {
    /// Prepares a run over `dag`. Fails on a cyclic graph,
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
            cancel: Arc::new(AtomicBool::new(false)),
            status: Status::NotStarted,
            seconds: 0.0,
            labels: None,
        })
    }

    fn fresh_runs(config: &PipelineConfig) -> Vec<DimensionRun> {
        (0..config.dims).map(|dim| DimensionRun::new(dim, config.parent_method)).collect()
    }

    pub fn config(&self) -> &PipelineConfig {
        &self.config
    }

    /// Runs one BFS level of the current phase (of every unfinished dimension with
    /// `all_dims_at_once`). After the last level, the labels are assembled and `RunDone` emitted.
    fn step(&mut self, sink: &mut dyn Sink) -> Result<Advance> {
        match &self.status {
            Status::Finished => return Ok(Advance { steps: Vec::new(), finished: true }),
            Status::Cancelled => return Err(Cancelled.into()),
            Status::Failed(message) => bail!("the previous step failed ({message}); reset to start again"),
            Status::NotStarted | Status::Running => {}
        }
        if self.cancel.load(Ordering::Relaxed) {
            self.status = Status::Cancelled;
            sink.emit(Event::Cancelled);
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
            sink.emit(event);
            let shared = vec![
                ("graph".to_string(), self.dag.heap_bytes() as u64),
                ("kahn levels".to_string(), self.levels.heap_bytes() as u64),
            ];
            sink.emit(memory_event(shared));
        }
        let clock = Instant::now();
        let outcome = self.advance_dimensions();
        self.seconds += clock.elapsed().as_secs_f64();
        let (steps, events, error) = outcome;
        for event in events {
            sink.emit(event);
        }
        if let Some(error) = error {
            self.status = Status::Failed(format!("{error:#}"));
            return Err(error);
        }
        let finished = self.runs.iter().all(DimensionRun::is_finished);
        if finished {
            self.assemble();
            self.status = Status::Finished;
            sink.emit(Event::RunDone { seconds: self.seconds });
        }
        Ok(Advance { steps, finished })
    }

    /// Steps the current dimension, or every unfinished one. Returns the steps, the events in
    /// dimension order, and the first error.
    fn advance_dimensions(&mut self) -> (Vec<LevelStep>, Vec<Event>, Option<anyhow::Error>) {
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
}

impl Labeler for PipelineLabeler {
    fn backend(&self) -> Backend {
        Backend::Cpu
    }

    /// One level per call whatever `until` says: a level is cheap to return from, so the driver can
    /// pause between any two.
    fn advance(&mut self, _until: Until, sink: &mut dyn Sink) -> Result<Advance> {
        self.step(sink)
    }

    fn positions(&self) -> Vec<Position> {
        let at = |r: &DimensionRun| r.position().map(|(phase, level)| Position { dim: r.dim(), phase, level });
        self.runs.iter().filter_map(at).collect()
    }

    fn status(&self) -> Status {
        self.status.clone()
    }

    fn seconds(&self) -> f64 {
        self.seconds
    }

    fn take_labels(&mut self) -> Option<Labels> {
        self.labels.take()
    }

    fn cancel_token(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    fn snapshot(&self, dim: usize) -> Option<Snapshot> {
        let run = self.runs.get(dim).filter(|_| self.dag.num_vertices() <= SNAPSHOT_MAX_VERTICES)?;
        Some(run.snapshot(&self.dag))
    }

    fn reset(&mut self) {
        self.runs = Self::fresh_runs(&self.config);
        self.cancel.store(false, Ordering::Relaxed);
        self.status = Status::NotStarted;
        self.seconds = 0.0;
        self.labels = None;
    }
}
