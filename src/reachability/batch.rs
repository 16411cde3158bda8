//! The one batch runner: many queries answered on the CPU (every rule cheapest first, then the
//! search asked for, in a rayon pool) or on the GPU (the rules and the searches on the device),
//! summarised in the same report. `grail query --file/--random` (with or without `--gpu`),
//! `grail bench`, the GPU self-test and the explorer's Batch tab all run their batches here.

use super::Index;
use crate::gpu::search::{GpuBatchReport, SearchShape};
use crate::gpu::search_index::SearchIndex;
use crate::gpu::startup::Startup;
use crate::query::{self, BatchReport, Method, Query};
use anyhow::{Context, Result};

/// Where a batch's queries are answered.
#[derive(Clone, Copy, Debug)]
pub enum BatchOn {
    /// On the CPU, the queries the rules leave searched by this method.
    Cpu(Method),
    /// On the GPU, the queries the rules leave searched in this shape. The index's data goes to
    /// the device with its first GPU batch and stays there for the next ones.
    Gpu(SearchShape),
}

/// One batch to run.
#[derive(Clone, Copy, Debug)]
pub struct BatchRun {
    /// Where the queries are answered.
    pub on: BatchOn,
    /// A CPU batch runs in a pool of this many threads, `None` in the current rayon pool. A GPU
    /// batch's report names the count as the CPU's share (the current pool's without one).
    pub threads: Option<usize>,
}

/// What a batch gave.
#[derive(Clone, Debug)]
pub struct BatchRan {
    /// Every query's answer summarised, checked against the expected ones (a GPU batch's has no
    /// search counts: the device keeps none).
    pub report: BatchReport,
    /// The device's own account of a GPU batch; `None` on the CPU.
    pub gpu: Option<GpuRan>,
}

/// The device's account of a GPU batch.
#[derive(Clone, Debug)]
pub struct GpuRan {
    /// Every query's answer, in order (true: reachable).
    pub answers: Vec<bool>,
    /// Its report: its `upload_seconds` is this batch's upload (0 when the data was on the device).
    pub report: GpuBatchReport,
    /// Whether this batch uploaded the DAG, labels and query index.
    pub uploaded: bool,
    /// What opening the GPU and readying the search kernels has cost this process, none of it in
    /// the batch's times.
    pub startup: Startup,
}

impl Index {
    /// Answers `queries` (dense original vertex ids) as `run` says and summarises them. Only the
    /// answering is timed.
    pub(crate) fn run_batch(&self, queries: &[Query], run: BatchRun) -> Result<BatchRan> {
        match run.on {
            BatchOn::Cpu(method) => {
                let answer = || query::run_batch(&self.engine(), queries, method);
                let report = match run.threads {
                    None => answer(),
                    Some(threads) => {
                        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads);
                        pool.build().context("cannot start threads")?.install(answer)
                    }
                };
                Ok(BatchRan { report, gpu: None })
            }
            BatchOn::Gpu(shape) => self.run_batch_on_gpu(queries, shape, run.threads),
        }
    }

    fn run_batch_on_gpu(&self, queries: &[Query], shape: SearchShape, threads: Option<usize>) -> Result<BatchRan> {
        // The GPU opens and its search kernels are readied before the batch, apart from its time.
        let gpu = crate::gpu::prepare(&[crate::gpu::kernels::search::MODULE])?;
        let startup = gpu.startup();
        let mut on_device = self.on_device.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let uploaded = on_device.is_none();
        if uploaded {
            *on_device = Some(SearchIndex::upload(gpu, &self.engine())?);
        }
        let search = on_device.as_ref().expect("uploaded above");
        let (answers, report) = crate::gpu::search::run_batch_on(gpu, search, queries, shape)?;
        let report = GpuBatchReport { upload_seconds: if uploaded { search.upload_seconds } else { 0.0 }, ..report };
        let threads = threads.unwrap_or_else(rayon::current_num_threads);
        let checked = report.batch_report(queries, &answers, threads);
        Ok(BatchRan { report: checked, gpu: Some(GpuRan { answers, report, uploaded, startup }) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::RuleSet;
    use crate::reachability::LabelSource;
    use crate::telemetry::NullSink;
    use crate::workspace::Workspace;
    use std::sync::Arc;

    #[test]
    fn a_cpu_batch_reports_as_the_engine_does_in_a_pool_of_its_own_or_the_current_one() {
        let ws = Arc::new(Workspace::of_graph(crate::graph::generators::random_digraph(2000, 2.0, 5).unwrap(), "g"));
        let labels = Arc::new(crate::index::dfs::label(ws.dag(), 2, crate::index::Order::Random { seed: 3 }).unwrap());
        let queries = query::random_queries(2000, 5000, 7);
        for rules in [RuleSet::Grail, RuleSet::All] {
            let source = LabelSource::Ready(Arc::clone(&labels));
            let index = Index::assemble(Arc::clone(&ws), source, rules, &mut NullSink).unwrap();
            let direct = query::run_batch(&index.engine(), &queries, Method::GuidedBfs);
            for threads in [None, Some(2)] {
                let run = BatchRun { on: BatchOn::Cpu(Method::GuidedBfs), threads };
                let ran = index.run_batch(&queries, run).unwrap();
                assert!(ran.gpu.is_none());
                let report = ran.report;
                assert_eq!((report.positives, report.by_rule), (direct.positives, direct.by_rule), "{rules}");
                assert_eq!((report.expanded, report.dead_ends), (direct.expanded, direct.dead_ends), "{rules}");
                assert_eq!(report.threads, threads.unwrap_or_else(rayon::current_num_threads));
            }
        }
    }
}
