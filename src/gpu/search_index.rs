//! What the GPU batch search keeps on the device between batches: the DAG both ways, the component
//! map, the labels and, with every rule, the query index. Uploaded once per engine; the explorer
//! keeps it while the labels stay the same.

use super::context::Gpu;
use super::memory::Ledger;
use crate::graph::Csr;
use crate::query::{Engine, RuleSet};
use anyhow::Result;
use cudarc::driver::CudaSlice;
use rayon::prelude::*;
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
    /// Each child with its level in the high half, by level (`by_level`).
    pub(super) children: CudaSlice<u64>,
    pub(super) parents_offsets: CudaSlice<u64>,
    /// Each parent with its level in the high half, by level, deepest first.
    pub(super) parents: CudaSlice<u64>,
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
            children: ledger.upload(gpu, "children by level", &by_level(dag.children_csr(), labels.levels(), false))?,
            parents_offsets: ledger.upload(gpu, "parents offsets", dag.parents_csr().offsets())?,
            parents: ledger.upload(gpu, "parents by level", &by_level(dag.parents_csr(), labels.levels(), true))?,
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

/// `csr`'s neighbour lists, each sorted by level (children ascending, parents descending), so a
/// search stops scanning a list at the first neighbour the level cut drops for all its queries;
/// each entry is `level << 32 | neighbour`, so the search reads the level with the neighbour.
fn by_level(csr: &Csr, levels: &[u32], descending: bool) -> Vec<u64> {
    // Each neighbour with its level in the high half: the sort then compares plain integers
    // instead of looking the levels up (one random read per edge instead of one per comparison).
    let mut keyed: Vec<u64> = csr
        .targets()
        .par_iter()
        .map(|&v| {
            let level = if descending { u32::MAX - levels[v as usize] } else { levels[v as usize] };
            u64::from(level) << 32 | u64::from(v)
        })
        .collect();
    let offsets = csr.offsets();
    let mut lists = Vec::with_capacity(offsets.len().saturating_sub(1));
    let mut rest = keyed.as_mut_slice();
    for pair in offsets.windows(2) {
        let (list, tail) = rest.split_at_mut((pair[1] - pair[0]) as usize);
        lists.push(list);
        rest = tail;
    }
    lists.par_iter_mut().for_each(|list| list.sort_unstable());
    if descending {
        keyed
            .par_iter_mut()
            .for_each(|key| *key = u64::from(u32::MAX - (*key >> 32) as u32) << 32 | (*key & 0xffff_ffff));
    }
    keyed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;

    #[test]
    fn neighbour_lists_are_sorted_by_level_and_keep_their_vertices() {
        let g = crate::graph::generators::random_dag(500, 6.0, 3).unwrap();
        let levels = crate::graph::topo::kahn(&g).unwrap().level.to_vec();
        for (csr, descending) in [(g.children_csr(), false), (g.parents_csr(), true)] {
            let sorted = by_level(csr, &levels, descending);
            for (v, pair) in csr.offsets().windows(2).enumerate() {
                let range = pair[0] as usize..pair[1] as usize;
                let mut before = csr.targets()[range.clone()].to_vec();
                let mut after: Vec<u32> = sorted[range.clone()].iter().map(|&entry| entry as u32).collect();
                let keys: Vec<u32> = sorted[range].iter().map(|&entry| (entry >> 32) as u32).collect();
                assert!(after.iter().zip(&keys).all(|(&c, &l)| levels[c as usize] == l), "vertex {v}: levels");
                let ordered = if descending { keys.is_sorted_by(|a, b| a >= b) } else { keys.is_sorted() };
                assert!(ordered, "vertex {v}: {keys:?}");
                before.sort_unstable();
                after.sort_unstable();
                assert_eq!(before, after);
            }
        }
        let empty = Graph::from_edges(0, &[]).unwrap();
        assert!(by_level(empty.children_csr(), &[], false).is_empty());
    }
}
