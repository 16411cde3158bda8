//! The query index built where the labels are: with the GPU back end, on the GPU where one is
//! usable and the graph is large and wide enough for it to pay (`gpu::query_index`), otherwise on
//! the CPU. The index is the same either way.

use crate::graph::Graph;
use crate::query::QueryIndex;
use crate::query::query_index::Records;
use crate::telemetry::Backend;
use anyhow::Result;
use std::sync::Arc;

/// `dag`'s query index for labels built by `backend`.
pub fn build(dag: &Arc<Graph>, backend: Backend) -> Result<QueryIndex> {
    QueryIndex::build_with(dag, |supportive| match backend {
        Backend::Gpu => on_gpu(dag, supportive),
        Backend::Dfs | Backend::Cpu => Ok(None),
    })
}

/// Runs `label` and builds `dag`'s index at the same time (on another thread where the pool has
/// one), for callers that need both: on all cores, or with the labels on the GPU, the index then
/// costs little extra wall time. `backend` is the labels'.
pub fn build_beside<T: Send>(
    dag: &Arc<Graph>,
    backend: Backend,
    label: impl FnOnce() -> T + Send,
) -> (T, Result<QueryIndex>) {
    rayon::join(label, || build(dag, backend))
}

/// The index's records by the GPU where there is one and it pays; `None` leaves them to the CPU.
#[cfg(feature = "gpu")]
fn on_gpu(dag: &Arc<Graph>, supportive: &[u32]) -> Result<Option<Records>> {
    match crate::gpu::availability() {
        Ok(_) => crate::gpu::query_index::records_where_they_pay(dag, supportive),
        Err(_) => Ok(None),
    }
}

#[cfg(not(feature = "gpu"))]
fn on_gpu(_: &Arc<Graph>, _: &[u32]) -> Result<Option<Records>> {
    Ok(None)
}
