//! The back-end switch: which [`Labeler`] runs for a request, and why another one runs instead.
//!
//! This sits above both `index/` (the DFS and the CPU pipeline) and `gpu/` (the GPU labeler), so
//! neither knows the other. A GPU request on a machine without a usable GPU, or a GPU run that fails
//! (out of device memory, say), falls back to the CPU pipeline; the fallback is a returned value
//! ([`Opened::fallback`], [`LabelRun::fallback`]) and an [`Event::Fallback`], never a message
//! printed from inside the library. The command line prints it, the explorer shows it, `--json`
//! carries it.

#[cfg(feature = "gpu")]
mod handover;
pub mod query_index;
mod spec;

#[cfg(feature = "gpu")]
pub use handover::GpuOrCpu;
pub use spec::{DEFAULT_DIMS, LabelSpec};

#[cfg(feature = "gpu")]
use crate::gpu::pipeline::GpuLabeler;
use crate::graph::Graph;
use crate::index::labeler::run_to_end;
use crate::index::pipeline::{PipelineConfig, PipelineLabeler};
use crate::index::{DfsLabeler, Labeler, Labels};
use crate::telemetry::{Backend, Event, Sink};
use anyhow::{Context, Result};
use std::sync::Arc;

/// Why a GPU request cannot run in a build without the `gpu` feature.
#[cfg(not(feature = "gpu"))]
pub const NO_GPU_SUPPORT: &str = "this build of grail has no GPU back end (the `gpu` feature is off)";

/// A labeler ready to run, and why it is not the one asked for (if it is not).
pub struct Opened {
    /// The labeler, not yet started.
    pub labeler: Box<dyn Labeler>,
    /// Why another back end runs than the one asked for, in one line; `None` when it is the same.
    pub fallback: Option<String>,
}

/// Opens the labeler for `spec` on `dag`. A GPU request without a usable GPU opens the CPU pipeline
/// and says why in [`Opened::fallback`]; with a GPU it opens [`GpuOrCpu`], which hands a deep,
/// narrow graph to the CPU pipeline when it finds one (and says so through
/// [`Labeler::handed_over`]).
pub fn open(dag: &Arc<Graph>, spec: &LabelSpec) -> Result<Opened> {
    match spec.backend {
        Backend::Gpu => match open_gpu(dag, spec) {
            Ok(labeler) => Ok(Opened { labeler, fallback: None }),
            Err(reason) => {
                let labeler = open_exactly(dag, &spec.with_backend(Backend::Cpu))?;
                Ok(Opened { labeler, fallback: Some(format!("{reason:#}")) })
            }
        },
        Backend::Dfs | Backend::Cpu => Ok(Opened { labeler: open_exactly(dag, spec)?, fallback: None }),
    }
}

#[cfg(feature = "gpu")]
fn open_gpu(dag: &Arc<Graph>, spec: &LabelSpec) -> Result<Box<dyn Labeler>> {
    Ok(Box::new(GpuOrCpu::new(dag, spec)?))
}

#[cfg(not(feature = "gpu"))]
fn open_gpu(_: &Arc<Graph>, _: &LabelSpec) -> Result<Box<dyn Labeler>> {
    Err(anyhow::anyhow!(crate::backend::NO_GPU_SUPPORT))
}

/// The CPU pipeline that takes over from a GPU run that failed on the way with `error` (the device
/// lost, out of memory), from the start; the fallback is emitted as an event and returned with its
/// reason. `grail label` and the explorer both go through here.
pub fn after_gpu_failure(
    dag: &Arc<Graph>,
    spec: &LabelSpec,
    error: anyhow::Error,
    sink: &mut dyn Sink,
) -> Result<Opened> {
    let reason = format!("{:#}", error.context("GPU labeling failed"));
    let labeler = open_exactly(dag, &spec.with_backend(Backend::Cpu))
        .with_context(|| format!("{reason}, and the CPU pipeline cannot start either"))?;
    sink.emit(Event::Fallback { requested: Backend::Gpu, ran: Backend::Cpu, reason: reason.clone() });
    Ok(Opened { labeler, fallback: Some(reason) })
}

/// Opens exactly the back end asked for, or fails with the reason (`grail selftest --gpu` wants the
/// GPU or nothing).
pub fn open_exactly(dag: &Arc<Graph>, spec: &LabelSpec) -> Result<Box<dyn Labeler>> {
    Ok(match spec.backend {
        Backend::Dfs => Box::new(DfsLabeler::new(Arc::clone(dag), spec.dims, spec.order)?),
        Backend::Cpu => {
            let LabelSpec { dims, order, parent_method, all_dims_at_once, .. } = *spec;
            let config = PipelineConfig { dims, order, parent_method, all_dims_at_once };
            Box::new(PipelineLabeler::new(Arc::clone(dag), config).context("cannot start the CPU pipeline")?)
        }
        #[cfg(feature = "gpu")]
        Backend::Gpu => {
            let labeler = GpuLabeler::new(dag, spec.dims, spec.order, spec.all_dims_at_once)
                .context("cannot start the GPU pipeline")?;
            Box::new(labeler)
        }
        #[cfg(not(feature = "gpu"))]
        Backend::Gpu => return Err(anyhow::anyhow!(crate::backend::NO_GPU_SUPPORT)),
    })
}

/// Finished labels and who made them.
#[derive(Debug)]
pub struct LabelRun {
    /// The finished labels.
    pub labels: Labels,
    /// The back end that really ran.
    pub backend: Backend,
    /// Why it is not the one asked for; `None` when nothing fell back.
    pub fallback: Option<String>,
}

/// Labels `dag` as `spec` asks, emitting telemetry into `sink`. A GPU that is missing, fails
/// half-way or finds a deep, narrow graph hands the work to the CPU pipeline; the returned run and
/// an [`Event::Fallback`] say so.
pub fn build_labels(dag: &Arc<Graph>, spec: &LabelSpec, sink: &mut dyn Sink) -> Result<LabelRun> {
    let Opened { mut labeler, fallback } = open(dag, spec)?;
    let backend = labeler.backend();
    if let Some(reason) = &fallback {
        sink.emit(Event::Fallback { requested: spec.backend, ran: backend, reason: reason.clone() });
    }
    match run_to_end(labeler.as_mut(), sink) {
        Ok(labels) => {
            let fallback = fallback.or_else(|| labeler.handed_over().map(str::to_string));
            Ok(LabelRun { labels, backend: labeler.backend(), fallback })
        }
        Err(e) if backend == Backend::Gpu && !e.is_cancelled() => {
            let Opened { labeler: mut cpu, fallback } = after_gpu_failure(dag, spec, e.into(), sink)?;
            let labels = run_to_end(cpu.as_mut(), sink)?;
            Ok(LabelRun { labels, backend: Backend::Cpu, fallback })
        }
        Err(e) => Err(anyhow::Error::new(e).context(format!("{} labeling failed", backend.title()))),
    }
}
