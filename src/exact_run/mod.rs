//! Runs an exact engine where its name says: a CPU engine on the current rayon pool, a GPU engine
//! on the device, or an error with the probe's reason when there is none (never a silent CPU run).
//! Above both `exact` and `gpu`, like `backend`, so neither knows the other.

use crate::exact::bfs::{self, BfsResult, Direction};
use crate::exact::closure;
use crate::exact::phases::PhaseClock;
use crate::exact::{BfsEngine, BitMatrix, ClosureMethod};
use crate::graph::Graph;
use anyhow::Result;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

mod device_run;

// The GPU's side of each engine; a build without the `gpu` feature has one that says so.
#[cfg(feature = "gpu")]
mod device;
#[cfg(not(feature = "gpu"))]
mod no_device;
pub use device::{EXCEPTIONS_MODULES, exceptions_on_gpu, gpu_reason};

#[cfg(not(feature = "gpu"))]
use no_device as device;

/// One BFS run: its result, the seconds it searched, and where it ran.
pub struct BfsRun {
    /// The engine that ran.
    pub engine: BfsEngine,
    /// The distances and counts the search found.
    pub result: BfsResult,
    /// The search itself (for the GPU: from the first kernel to the levels back on the host).
    pub seconds: f64,
    /// Copying the graph to the device (0 on the CPU).
    pub upload_seconds: f64,
    /// `cpu` or the GPU's name.
    pub device: String,
}

/// BFS from `src` with `engine`.
pub fn run_bfs(graph: &Graph, src: u32, engine: BfsEngine) -> Result<BfsRun> {
    anyhow::ensure!((src as usize) < graph.num_vertices(), "source {src} is not a vertex of the graph");
    if engine.is_gpu() {
        let run = device::bfs(graph, src, engine)?;
        let levels = bfs::frontier_sizes(&run.levels).len();
        let result = BfsResult { levels: run.levels, directions: vec![Direction::Device; levels] };
        return Ok(BfsRun {
            engine,
            result,
            seconds: run.seconds,
            upload_seconds: run.upload_seconds,
            device: run.device,
        });
    }
    let clock = Instant::now();
    let result = bfs::bfs(graph, src, engine == BfsEngine::Cpu);
    Ok(BfsRun { engine, result, seconds: clock.elapsed().as_secs_f64(), upload_seconds: 0.0, device: "cpu".into() })
}

/// One closure run: the reflexive closure of the DAG, its phases, and where it ran.
pub struct ClosureRun {
    /// The method that ran.
    pub method: ClosureMethod,
    /// The reflexive-transitive closure: bit `(i, j)` is set when `i` reaches `j`.
    pub matrix: BitMatrix,
    /// The seconds of each phase, in order.
    pub clock: PhaseClock,
    /// `cpu` or the GPU's name.
    pub device: String,
}

/// The closure of a condensation's DAG with `method` (memory checked first, on host and device).
pub fn run_closure(dag: &Graph, method: ClosureMethod) -> Result<ClosureRun> {
    let mut clock = PhaseClock::default();
    if method.is_gpu() {
        let (matrix, device) = device::closure(dag, method, &mut clock)?;
        return Ok(ClosureRun { method, matrix, clock, device });
    }
    let matrix = closure::cpu_closure(dag, method, &mut clock)?;
    Ok(ClosureRun { method, matrix, clock, device: "cpu".into() })
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
        true => Some(device::DeviceBfs::new(graph, engine)?),
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
