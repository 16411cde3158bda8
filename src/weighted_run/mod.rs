//! Runs a shortest-path engine where its name says: a CPU engine on the current rayon pool, a GPU
//! engine on the device, or an error with the probe's reason when there is none (never a silent
//! CPU run). Above both `weighted` and `gpu`, as `exact_run` is for BFS, so neither knows the other.

use crate::graph::{Weight, WeightedGraph};
use crate::weighted::apsp::{self, ApspRun};
use crate::weighted::{ApspMethod, Distances, SsspEngine};
use anyhow::Result;

// The GPU's side of each engine; a build without the `gpu` feature has one that says so.
#[cfg(feature = "gpu")]
mod device;
#[cfg(not(feature = "gpu"))]
mod no_device;
#[cfg(not(feature = "gpu"))]
use no_device as device;

pub use device::gpu_reason;

/// One single-source run: the distances, the upload, and where it ran.
pub struct SsspRun {
    /// The distances and the engine's counts; `seconds` is the search (for the GPU: from the
    /// first kernel to the distances back on the host).
    pub distances: Distances,
    /// Copying the graph to the device (0 on the CPU).
    pub upload_seconds: f64,
    /// `cpu` or the GPU's name.
    pub device: String,
}

/// The distances from `src` (a dense id) by `engine`; `delta` overrides the bucket width of
/// delta-stepping and of the near-far threshold's step.
pub fn run_sssp(graph: &WeightedGraph, src: u32, engine: SsspEngine, delta: Option<Weight>) -> Result<SsspRun> {
    anyhow::ensure!(
        (src as usize) < graph.num_vertices(),
        "vertex {src} is not one of the vertices {}",
        crate::format::ids(graph.num_vertices() as u64)
    );
    if engine.is_gpu() {
        let delta = match delta {
            Some(_) => crate::weighted::chosen_delta(graph, delta)?,
            None => crate::weighted::delta::near_far_delta(graph),
        };
        let (distances, upload_seconds, device) = device::sssp(graph, src, engine, delta)?;
        return Ok(SsspRun { distances, upload_seconds, device });
    }
    let distances = crate::weighted::run_sssp(graph, src, engine, delta)?;
    Ok(SsspRun { distances, upload_seconds: 0.0, device: "cpu".into() })
}

/// One all-pairs run and where it ran.
pub struct ApspDeviceRun {
    /// The matrix and its seconds (for the GPU: the upload, the kernels and the download, once the
    /// device is open and its kernels loaded).
    pub run: ApspRun,
    /// `cpu` or the GPU's name.
    pub device: String,
}

/// The all-pairs matrix of `graph` by `method`, after checking it fits this machine's memory (and
/// for a GPU Floyd-Warshall the device's).
pub fn run_apsp(graph: &WeightedGraph, method: ApspMethod) -> Result<ApspDeviceRun> {
    if !method.is_gpu() {
        return Ok(ApspDeviceRun { run: apsp::run(graph, method)?, device: "cpu".into() });
    }
    apsp::check_fits(graph.num_vertices(), crate::system::physical_memory_bytes())?;
    let (matrix, seconds, device) = device::apsp(graph, method)?;
    Ok(ApspDeviceRun { run: ApspRun { method, matrix, seconds }, device })
}
