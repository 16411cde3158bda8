//! [`GpuOrCpu`]: the GPU labeler, which hands a deep, narrow graph to the CPU pipeline.
//!
//! The GPU runs a level in tens of microseconds of launches and waits however small it is, so a
//! chain of a million vertices (four million levels per dimension) took minutes on it and a fraction
//! of a second on the CPU. The GPU labeler notices while dimension 0's parent selection discovers
//! the Kahn levels (`gpu::pipeline::NarrowGraph`, after a few milliseconds); this wrapper then
//! starts the CPU pipeline in its place, with the same settings and the same cancel flag, and says
//! so: an [`Event::Fallback`] in the stream, [`Labeler::handed_over`] and [`Labeler::backend`] name
//! the CPU from then on. Labels are the same either way; the run is never presented as GPU work.

use super::spec::LabelSpec;
use crate::gpu::pipeline::{GpuLabeler, NarrowGraph};
use crate::graph::Graph;
use crate::index::labeler::{Advance, Position, Snapshot, Status, Until};
use crate::index::pipeline::{PipelineConfig, PipelineLabeler};
use crate::index::{Labeler, Labels};
use crate::telemetry::{Backend, Event, Sink};
use anyhow::{Context, Result};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

pub struct GpuOrCpu {
    dag: Arc<Graph>,
    spec: LabelSpec,
    current: Box<dyn Labeler>,
    cancel: Arc<AtomicBool>,
    /// Why the CPU pipeline took over, once it has.
    handed_over: Option<String>,
    /// Seconds the GPU spent before it handed over (part of the run's time).
    gpu_seconds: f64,
}

impl GpuOrCpu {
    pub fn new(dag: &Arc<Graph>, spec: &LabelSpec) -> Result<GpuOrCpu> {
        let gpu = GpuLabeler::new(dag, spec.dims, spec.order).context("cannot start the GPU pipeline")?;
        let gpu = gpu.handing_over_narrow_graphs();
        Ok(GpuOrCpu {
            dag: Arc::clone(dag),
            spec: *spec,
            cancel: gpu.cancel_token(),
            current: Box::new(gpu),
            handed_over: None,
            gpu_seconds: 0.0,
        })
    }

    /// Replaces the GPU labeler by the CPU pipeline, telling `sink` why.
    fn hand_over(&mut self, narrow: &NarrowGraph, sink: &mut dyn Sink) -> Result<()> {
        let LabelSpec { dims, order, parent_method, all_dims_at_once, .. } = self.spec;
        let config = PipelineConfig { dims, order, parent_method, all_dims_at_once };
        let cpu = PipelineLabeler::new(Arc::clone(&self.dag), config).context("cannot start the CPU pipeline")?;
        let reason = narrow.to_string();
        sink.emit(Event::Fallback { requested: Backend::Gpu, ran: Backend::Cpu, reason: reason.clone() });
        self.gpu_seconds = self.current.seconds();
        self.current = Box::new(cpu.with_cancel_token(Arc::clone(&self.cancel)));
        self.handed_over = Some(reason);
        Ok(())
    }
}

impl Labeler for GpuOrCpu {
    fn backend(&self) -> Backend {
        self.current.backend()
    }

    fn advance(&mut self, until: Until, sink: &mut dyn Sink) -> Result<Advance> {
        match self.current.advance(until, sink) {
            Err(e) if self.handed_over.is_none() && e.downcast_ref::<NarrowGraph>().is_some() => {
                let narrow = e.downcast_ref::<NarrowGraph>().expect("checked above");
                self.hand_over(narrow, sink)?;
                self.current.advance(until, sink)
            }
            other => other,
        }
    }

    fn positions(&self) -> Vec<Position> {
        self.current.positions()
    }

    fn status(&self) -> Status {
        self.current.status()
    }

    fn seconds(&self) -> f64 {
        self.gpu_seconds + self.current.seconds()
    }

    fn take_labels(&mut self) -> Option<Labels> {
        self.current.take_labels()
    }

    fn cancel_token(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// Back to the start on the labeler running now: a graph handed over stays on the CPU.
    fn reset(&mut self) {
        self.current.reset();
        self.gpu_seconds = 0.0;
    }

    fn handed_over(&self) -> Option<&str> {
        self.handed_over.as_deref()
    }

    fn snapshot(&self, dim: usize) -> Option<Snapshot> {
        self.current.snapshot(dim)
    }
}
