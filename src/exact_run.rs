//! Runs an exact engine where its name says: a CPU engine on the current rayon pool, a GPU engine
//! on the device, or an error with the probe's reason when there is none (never a silent CPU run).
//! Above both `exact` and `gpu`, like `backend`, so neither knows the other.

use crate::exact::bfs::{self, BfsResult, Direction};
use crate::exact::closure;
use crate::exact::phases::PhaseClock;
use crate::exact::{BfsEngine, BitMatrix, ClosureMethod};
use crate::exceptions::ExceptionCounts;
use crate::graph::Graph;
use crate::index::Labels;
use anyhow::{Result, anyhow};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// One BFS run: its result, the seconds it searched, and where it ran.
pub struct BfsRun {
    pub engine: BfsEngine,
    pub result: BfsResult,
    /// The search itself (for the GPU: from the first kernel to the levels back on the host).
    pub seconds: f64,
    /// Copying the graph to the device (0 on the CPU).
    pub upload_seconds: f64,
    /// `cpu` or the GPU's name.
    pub device: String,
}

/// The GPU with the kernel modules `modules` ready (so the engine's time holds none of the
/// start-up), or why a GPU engine cannot run here.
fn gpu_for(what: &str, modules: &[&str]) -> Result<&'static crate::gpu::Gpu> {
    if let Err(reason) = crate::gpu::availability() {
        return Err(anyhow!("{what} needs an NVIDIA GPU: {reason}"));
    }
    crate::gpu::prepare(modules).map_err(|e| anyhow!("{what} needs an NVIDIA GPU: {e:#}"))
}

/// Whether GPU engines can run here, and if not why (for `--compare` and the explorer).
pub fn gpu_reason() -> Option<String> {
    crate::gpu::availability().as_ref().err().cloned()
}

/// BFS from `src` with `engine`.
pub fn run_bfs(graph: &Graph, src: u32, engine: BfsEngine) -> Result<BfsRun> {
    anyhow::ensure!((src as usize) < graph.num_vertices(), "source {src} is not a vertex of the graph");
    if engine.is_gpu() {
        let gpu = gpu_for(engine.name(), &[crate::gpu::kernels::bfs::MODULE])?;
        let run = crate::gpu::exact_bfs::bfs(gpu, graph, src, engine)?;
        let levels = bfs::frontier_sizes(&run.levels).len();
        let result = BfsResult { levels: run.levels, directions: vec![Direction::Device; levels] };
        return Ok(BfsRun {
            engine,
            result,
            seconds: run.seconds,
            upload_seconds: run.upload_seconds,
            device: gpu.info.name.clone(),
        });
    }
    let clock = Instant::now();
    let result = bfs::bfs(graph, src, engine == BfsEngine::Cpu);
    Ok(BfsRun { engine, result, seconds: clock.elapsed().as_secs_f64(), upload_seconds: 0.0, device: "cpu".into() })
}

/// One closure run: the reflexive closure of the DAG, its phases, and where it ran.
pub struct ClosureRun {
    pub method: ClosureMethod,
    pub matrix: BitMatrix,
    pub clock: PhaseClock,
    pub device: String,
}

/// The closure of a condensation's DAG with `method` (memory checked first, on host and device).
pub fn run_closure(dag: &Graph, method: ClosureMethod) -> Result<ClosureRun> {
    let mut clock = PhaseClock::default();
    if method.is_gpu() {
        let gpu = gpu_for(method.name(), &[crate::gpu::kernels::closure::MODULE])?;
        let matrix = crate::gpu::exact_closure::closure(gpu, dag, method, &mut clock)?;
        return Ok(ClosureRun { method, matrix, clock, device: gpu.info.name.clone() });
    }
    let matrix = closure::cpu_closure(dag, method, &mut clock)?;
    Ok(ClosureRun { method, matrix, clock, device: "cpu".into() })
}

/// The kernel modules the GPU's exception count uses (it builds the closure first).
pub const EXCEPTIONS_MODULES: &[&str] =
    &[crate::gpu::kernels::exceptions::MODULE, crate::gpu::kernels::closure::MODULE];

/// Exceptions of `labels` counted exactly over every pair of `dag` on the GPU (the CPU's count is
/// `exceptions::exact`); an error says why where there is no GPU.
pub fn exceptions_on_gpu(
    dag: &Graph,
    labels: &Labels,
    cancel: &AtomicBool,
    progress: &(dyn Fn(f64) + Sync),
) -> Result<ExceptionCounts> {
    let gpu = gpu_for("counting exceptions on the GPU", EXCEPTIONS_MODULES)?;
    crate::gpu::exceptions::count(gpu, dag, labels, None, cancel, progress)
}

/// Answers pairs `(u, v)` of `graph`'s vertices (does u reach v?) by a full BFS from each distinct
/// source with `engine`: the exact baseline for a batch (on the GPU, the graph is uploaded once).
/// A set `cancel` stops between sources with an error.
pub fn answer_by_bfs(graph: &Graph, pairs: &[(u32, u32)], engine: BfsEngine, cancel: &AtomicBool) -> Result<Vec<bool>> {
    answer_by_bfs_each(graph, pairs, engine, cancel, &mut |_, _| {})
}

/// [`answer_by_bfs`], handing each source's level array, as the engine computed it, to
/// `each(src, levels)` once its pairs are answered: callers that show a BFS read the engine's
/// real run instead of searching again.
pub fn answer_by_bfs_each(
    graph: &Graph,
    pairs: &[(u32, u32)],
    engine: BfsEngine,
    cancel: &AtomicBool,
    each: &mut dyn FnMut(u32, &[u32]),
) -> Result<Vec<bool>> {
    let mut by_source: Vec<(u32, usize)> = pairs.iter().enumerate().map(|(i, &(u, _))| (u, i)).collect();
    by_source.sort_unstable();
    let mut answers = vec![false; pairs.len()];
    let mut device = match engine.is_gpu() {
        true => Some(crate::gpu::exact_bfs::DeviceBfs::new(
            gpu_for(engine.name(), &[crate::gpu::kernels::bfs::MODULE])?,
            graph,
            engine,
        )?),
        false => None,
    };
    for group in by_source.chunk_by(|a, b| a.0 == b.0) {
        anyhow::ensure!(!cancel.load(Ordering::Relaxed), "cancelled");
        let src = group[0].0;
        let levels = match device.as_mut() {
            Some(device) => device.levels(graph, src)?,
            None => bfs::bfs(graph, src, engine == BfsEngine::Cpu).levels,
        };
        for &(_, i) in group {
            answers[i] = levels[pairs[i].1 as usize] != bfs::UNREACHED;
        }
        each(src, &levels);
    }
    Ok(answers)
}
