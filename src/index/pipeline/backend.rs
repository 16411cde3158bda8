//! The one-call entry for the command line: labels from the chosen back end, with telemetry.

use super::{Cancelled, ParentMethod, PipelineConfig, PipelineLabeler};
use crate::graph::Graph;
use crate::index::{Labels, Order, dfs};
use crate::telemetry::Sink;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Which labeler builds the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Backend {
    /// The classic DFS, one thread per dimension.
    Dfs,
    /// The BFS pipeline on the CPU, parallel over every level's frontier.
    Cpu,
    /// The BFS pipeline on an NVIDIA GPU (CUDA through the driver, loaded at run time).
    Gpu,
}

/// Labels `dag` with `dims` dimensions in `order` on `backend`, emitting telemetry into `sink`.
/// `parent_method` applies to the CPU pipeline only (the DFS finds parents by walking; the GPU compares
/// paths exactly). The CPU pipeline runs all dimensions at once, so deep narrow graphs still keep
/// several threads busy.
pub fn build_labels(
    dag: &Arc<Graph>,
    dims: usize,
    order: Order,
    backend: Backend,
    parent_method: ParentMethod,
    sink: &mut dyn Sink,
) -> Result<Labels> {
    match backend {
        Backend::Dfs => dfs::label_with_events(dag, dims, order, sink).context("DFS labeling failed"),
        Backend::Gpu => {
            // No GPU, or one that fails (out of memory, say): said out loud, and the events then say
            // `cpu`, so results are never presented as GPU work.
            let on_gpu = crate::gpu::shared()
                .and_then(|_| crate::gpu::pipeline::label(dag, dims, order, sink).context("GPU labeling failed"));
            match on_gpu {
                Ok(labels) => Ok(labels),
                Err(reason) if reason.downcast_ref::<Cancelled>().is_some() => Err(reason),
                Err(reason) => {
                    eprintln!("warning: {reason:#}; labeling with the CPU pipeline instead");
                    build_labels(dag, dims, order, Backend::Cpu, parent_method, sink)
                }
            }
        }
        Backend::Cpu => {
            let config = PipelineConfig { dims, order, parent_method, all_dims_at_once: true };
            PipelineLabeler::new(Arc::clone(dag), config)
                .and_then(|mut labeler| labeler.run_to_end_with(sink))
                .context("pipeline labeling failed")
        }
    }
}
