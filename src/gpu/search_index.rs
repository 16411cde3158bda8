//! What the GPU batch search keeps on the device between batches: the DAG both ways, the component
//! map, the labels and, with every rule, the query index. Uploaded once per engine; the explorer
//! keeps it while the labels stay the same.

use super::context::Gpu;
use super::memory::Ledger;
use crate::query::{Engine, RuleSet};
use anyhow::Result;
use cudarc::driver::CudaSlice;
use std::time::Instant;

/// The engine's data on the device.
pub struct SearchIndex {
    /// DAG vertices.
    pub n: u32,
    /// Label dimensions.
    pub dims: u32,
    /// Every rule (the query index is on the device) rather than GRAIL's.
    pub all_rules: bool,
    /// The component map is the identity (no upload; `component` is a placeholder).
    pub identity: bool,
    /// Vertices of the file (the component map's length).
    pub original_vertices: usize,
    pub(super) component: CudaSlice<u32>,
    pub(super) level: CudaSlice<u32>,
    pub(super) topo: CudaSlice<u32>,
    pub(super) records: CudaSlice<u64>,
    pub(super) intervals: CudaSlice<u32>,
    pub(super) subtree: CudaSlice<u32>,
    pub(super) children_offsets: CudaSlice<u64>,
    pub(super) children: CudaSlice<u32>,
    pub(super) parents_offsets: CudaSlice<u64>,
    pub(super) parents: CudaSlice<u32>,
    /// Seconds the upload took.
    pub upload_seconds: f64,
    ledger: Ledger,
}

impl SearchIndex {
    /// Uploads what `engine` answers with: its rule set decides whether the query index goes too.
    pub fn upload(gpu: &Gpu, engine: &Engine) -> Result<SearchIndex> {
        let clock = Instant::now();
        let (dag, labels) = (engine.dag(), engine.labels());
        let mut ledger = Ledger::default();
        let identity = engine.has_identity_components();
        let component = if identity {
            ledger.zeros(&gpu.stream, "component map (identity)", 1)?
        } else {
            ledger.upload(gpu, "component map", engine.component())?
        };
        let index = engine.query_index();
        let (topo, records) = match index {
            Some(index) => (
                ledger.upload(gpu, "topological positions", bytemuck::cast_slice::<_, u32>(index.topo_positions()))?,
                ledger.upload(
                    gpu,
                    "supportive masks and Bloom filters",
                    bytemuck::cast_slice::<_, u64>(index.records()),
                )?,
            ),
            None => {
                (ledger.zeros(&gpu.stream, "no topological positions", 1)?, ledger.zeros(&gpu.stream, "no records", 1)?)
            }
        };
        let search = SearchIndex {
            n: dag.num_vertices() as u32,
            dims: labels.dims() as u32,
            all_rules: engine.rule_set() == RuleSet::All,
            identity,
            original_vertices: engine.component().len(),
            component,
            level: ledger.upload(gpu, "levels", labels.levels())?,
            topo,
            records,
            intervals: ledger.upload(gpu, "labels", bytemuck::cast_slice::<_, u32>(labels.intervals()))?,
            subtree: ledger.upload(gpu, "subtree sizes", labels.subtrees())?,
            children_offsets: ledger.upload(gpu, "children offsets", dag.children_csr().offsets())?,
            children: ledger.upload(gpu, "children", dag.children_csr().targets())?,
            parents_offsets: ledger.upload(gpu, "parents offsets", dag.parents_csr().offsets())?,
            parents: ledger.upload(gpu, "parents", dag.parents_csr().targets())?,
            upload_seconds: 0.0,
            ledger,
        };
        gpu.stream.synchronize()?;
        Ok(SearchIndex { upload_seconds: clock.elapsed().as_secs_f64(), ..search })
    }

    /// Device bytes held.
    pub fn bytes(&self) -> u64 {
        self.ledger.total()
    }
}
