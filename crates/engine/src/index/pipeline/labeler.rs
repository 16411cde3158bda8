//! [`PipelineLabeler`]: the BFS pipeline behind the [`Labeler`] contract.
//!
//! `Until::Level` runs one level; `Until::Phase` and `Until::End` run levels for up to
//! [`CALL_BUDGET`] per call, so the driver can pause and report between calls while deep graphs do
//! not pay a return trip per level. It emits telemetry into the sink each call is given, can be
//! cancelled from another thread between levels, and can be reset.

use super::PipelineConfig;
use super::dimension::{Context, DimensionRun, Goal, Stop};
use super::levels::DagLevels;
use crate::graph::Graph;
use crate::index::labeler::{Advance, LevelStep, Position, SNAPSHOT_MAX_VERTICES, Snapshot, Status, Until};
use crate::index::{DimensionLabels, Labeler, Labels};
use crate::telemetry::{Backend, Event, Sink, memory_event};
use crate::{Cancel, Error, Result};
use rayon::prelude::*;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Average vertices per Kahn level from which `all_dims_at_once` steps the dimensions in parallel
/// one level at a time (`Until::Level`).
const PARALLEL_DIMENSIONS_MIN_WIDTH: usize = 64;

/// How long one call toward a phase's end or the end runs levels before it returns (the GPU's
/// calls return after about as long): short enough for the explorer to redraw and pause, long
/// enough that a call's own cost vanishes.
pub const CALL_BUDGET: Duration = Duration::from_millis(50);

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
    call_budget: Duration,
    /// Where dimensions running in parallel collect their events and steps; kept between calls,
    /// so that a deep graph's thousands of calls do not each allocate them afresh.
    buffers: Vec<Buffers>,
}

/// One parallel dimension's events and steps, on cache lines of its own (the vectors' lengths
/// change as levels end).
#[derive(Default)]
#[repr(align(128))]
struct Buffers {
    events: Vec<Event>,
    steps: Vec<LevelStep>,
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
        if config.dims == 0 {
            return Err(Error::InvalidInput("at least one dimension is needed".into()));
        }
        // Post-order numbers are u32 and the virtual root ρ takes number n + 1.
        if dag.num_vertices() >= u32::MAX as usize {
            let n = dag.num_vertices();
            return Err(Error::InvalidGraph(format!("{n} vertices are too many for 32-bit post-order numbers")));
        }
        // The Kahn levels come first, but the orders of the dimensions that will run first do not
        // need them: both are built at once (as the classic DFS builds the levels beside its
        // dimensions).
        let mut runs = Self::fresh_runs(&config);
        let first = if config.all_dims_at_once { rayon::current_num_threads().clamp(1, config.dims) } else { 1 };
        let (levels, orders) = rayon::join(
            || DagLevels::new(&dag),
            || (0..first).into_par_iter().map(|dim| DimensionRun::order_for(&dag, &config, dim)).collect::<Vec<_>>(),
        );
        let levels = levels?;
        for (run, order) in runs.iter_mut().zip(orders) {
            run.prepare_order(order);
        }
        Ok(PipelineLabeler {
            dag,
            config,
            levels,
            runs,
            cancel: Arc::new(AtomicBool::new(false)),
            status: Status::NotStarted,
            seconds: 0.0,
            labels: None,
            call_budget: CALL_BUDGET,
            buffers: Vec::new(),
        })
    }

    /// Sets how long a call toward a phase's end or the end may run levels (`CALL_BUDGET` by
    /// default); zero makes every call run one level, as `Until::Level` does.
    pub fn with_call_budget(mut self, budget: Duration) -> PipelineLabeler {
        self.call_budget = budget;
        self
    }

    /// Uses `token` as the cancel flag (a labeler taking over another's run keeps the flag its
    /// caller already holds).
    pub fn with_cancel_token(mut self, token: Arc<AtomicBool>) -> PipelineLabeler {
        self.cancel = token;
        self
    }

    fn fresh_runs(config: &PipelineConfig) -> Vec<DimensionRun> {
        (0..config.dims).map(|dim| DimensionRun::new(dim, config.parent_method)).collect()
    }

    /// What it computes and how it steps.
    pub fn config(&self) -> &PipelineConfig {
        &self.config
    }

    /// Runs levels up to `until` (see [`Self::advance_dimensions`]). After the last level, the labels
    /// are assembled and `RunDone` emitted.
    fn step(&mut self, until: Until, sink: &mut dyn Sink) -> Result<Advance> {
        match &self.status {
            Status::Finished => return Ok(Advance { steps: Vec::new(), finished: true }),
            Status::Cancelled => return Err(Cancel::Labeling.into()),
            Status::Failed(message) => {
                return Err(Error::InvalidInput(format!("the previous step failed ({message}); reset to start again")));
            }
            Status::NotStarted | Status::Running => {}
        }
        if self.cancel.load(Ordering::Relaxed) {
            self.status = Status::Cancelled;
            sink.emit(Event::Cancelled);
            return Err(Cancel::Labeling.into());
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
        let outcome = self.advance_dimensions(until, clock + self.call_budget, sink);
        self.seconds += clock.elapsed().as_secs_f64();
        let (steps, error) = outcome;
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

    /// Advances the dimensions toward `until`, each stopping at `deadline` at the latest:
    /// - one dimension at a time (the first unfinished one) unless `all_dims_at_once`;
    /// - `Until::Level` with `all_dims_at_once`: every unfinished dimension by one level, in parallel
    ///   on wide graphs;
    /// - `Until::Phase` with `all_dims_at_once`: every unfinished dimension to the end of its phase,
    ///   in parallel;
    /// - `Until::End` with `all_dims_at_once`: as many unfinished dimensions as there are threads, in
    ///   parallel, each in its own tight loop. Like the classic DFS, this keeps at most that many
    ///   dimensions' structures in memory and needs no synchronisation per level; the threads left
    ///   over (more threads than dimensions) share the frontiers.
    ///
    /// Events reach `sink` as levels end when one dimension runs; parallel dimensions collect theirs
    /// and hand them over in dimension order. Returns the steps and the first error.
    fn advance_dimensions(
        &mut self,
        until: Until,
        deadline: Instant,
        sink: &mut dyn Sink,
    ) -> (Vec<LevelStep>, Option<Error>) {
        let ctx = Context { dag: &self.dag, levels: &self.levels, config: &self.config };
        let stop = Stop { deadline, cancel: &self.cancel };
        let goal = match until {
            Until::Level => Goal::Level,
            Until::Phase => Goal::PhaseEnd,
            Until::End => Goal::End,
        };
        let unfinished = self.runs.iter_mut().filter(|r| !r.is_finished());
        let mut runs: Vec<&mut DimensionRun> = match (self.config.all_dims_at_once, until) {
            (false, _) => unfinished.take(1).collect(),
            (true, Until::End) => unfinished.take(rayon::current_num_threads().max(1)).collect(),
            (true, Until::Level | Until::Phase) => unfinished.collect(),
        };
        // Narrow graphs (a chain: one vertex per level) step dimensions one level at a time on one
        // thread: waking threads for every level would cost far more than the level itself.
        let levels = self.levels.kahn().num_levels().max(1);
        let wide = self.dag.num_vertices() / levels >= PARALLEL_DIMENSIONS_MIN_WIDTH;
        let parallel = runs.len() > 1 && (goal != Goal::Level || wide);
        let mut steps = Vec::new();
        if !parallel {
            for run in runs {
                if let Err(e) = run.run(&ctx, goal, stop, sink, &mut steps) {
                    return (steps, Some(e));
                }
            }
            return (steps, None);
        }
        let buffers = &mut self.buffers;
        buffers.resize_with(runs.len(), Default::default);
        let results: Vec<Result<()>> = runs
            .par_iter_mut()
            .zip(buffers.par_iter_mut())
            .map(|(run, b)| run.run(&ctx, goal, stop, &mut b.events, &mut b.steps))
            .collect();
        let mut error = None;
        for (result, b) in results.into_iter().zip(buffers.iter_mut()) {
            for event in b.events.drain(..) {
                sink.emit(event);
            }
            steps.append(&mut b.steps);
            if let Err(e) = result {
                error.get_or_insert(e);
            }
        }
        (steps, error)
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

    /// One level with `Until::Level`; otherwise levels up to `until` for at most the call budget.
    fn advance(&mut self, until: Until, sink: &mut dyn Sink) -> Result<Advance> {
        self.step(until, sink)
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
