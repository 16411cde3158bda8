//! The classic DFS behind the [`Labeler`] contract: it has no levels, so its one step is the whole
//! run (every dimension at once, in parallel).

use super::dfs::label_with_events;
use super::labeler::{Advance, LevelStep, Position, Status, Until};
use super::{Labeler, Labels, Order};
use crate::error::ErrorContext;
use crate::graph::Graph;
use crate::telemetry::{Backend, Event, Phase, Sink};
use crate::{Cancel, Error, Result};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The classic GRAIL labeler as a one-step [`Labeler`].
#[derive(Debug)]
pub struct DfsLabeler {
    dag: Arc<Graph>,
    dims: usize,
    order: Order,
    status: Status,
    seconds: f64,
    labels: Option<Labels>,
    cancel: Arc<AtomicBool>,
}

impl DfsLabeler {
    /// A labeler of `dims` dimensions over `dag`, not yet started. Fails if `dims` is 0.
    pub fn new(dag: Arc<Graph>, dims: usize, order: Order) -> Result<DfsLabeler> {
        if dims == 0 {
            return Err(Error::InvalidInput("at least one dimension is needed".into()));
        }
        let (status, seconds, labels, cancel) = (Status::NotStarted, 0.0, None, Arc::default());
        Ok(DfsLabeler { dag, dims, order, status, seconds, labels, cancel })
    }
}

impl Labeler for DfsLabeler {
    fn backend(&self) -> Backend {
        Backend::Dfs
    }

    fn advance(&mut self, _until: Until, sink: &mut dyn Sink) -> Result<Advance> {
        match &self.status {
            Status::Finished => return Ok(Advance { steps: Vec::new(), finished: true }),
            Status::Cancelled => return Err(Cancel::Labeling.into()),
            Status::Failed(message) => {
                return Err(Error::InvalidInput(format!("the previous run failed ({message}); reset to start again")));
            }
            Status::NotStarted | Status::Running => {}
        }
        // The DFS cannot stop half-way; a cancel before it starts is still honoured.
        if self.cancel.load(Ordering::Relaxed) {
            self.status = Status::Cancelled;
            sink.emit(Event::Cancelled);
            return Err(Cancel::Labeling.into());
        }
        let clock = Instant::now();
        match label_with_events(&self.dag, self.dims, self.order, sink).context("DFS labeling failed") {
            Ok(labels) => {
                self.seconds = clock.elapsed().as_secs_f64();
                self.labels = Some(labels);
                self.status = Status::Finished;
                let step = |dim| LevelStep {
                    dim,
                    phase: Phase::Dfs,
                    level: 0,
                    span: 1,
                    levels: 1,
                    phase_finished: true,
                    dimension_finished: true,
                };
                Ok(Advance { steps: (0..self.dims).map(step).collect(), finished: true })
            }
            Err(e) => {
                self.status = Status::Failed(format!("{e:#}"));
                Err(e)
            }
        }
    }

    fn positions(&self) -> Vec<Position> {
        if self.status == Status::Finished {
            return Vec::new();
        }
        (0..self.dims).map(|dim| Position { dim, phase: Phase::Dfs, level: 0 }).collect()
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

    fn reset(&mut self) {
        self.status = Status::NotStarted;
        self.seconds = 0.0;
        self.labels = None;
        self.cancel.store(false, Ordering::Relaxed);
    }
}
