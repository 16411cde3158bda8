//! The GPU's side of the shortest-path engines: each opens the shared device with the kernel module
//! it needs (so its time holds none of the start-up), or says why a GPU engine cannot run here.

use crate::gpu::{self, Gpu};
use crate::graph::{Weight, WeightedGraph};
use crate::weighted::apsp::DistanceMatrix;
use crate::weighted::{ApspMethod, Distances, SsspEngine};
use anyhow::{Result, anyhow};

/// The GPU with the kernel module `module` ready, or why a GPU engine cannot run here.
fn gpu_for(what: &str, module: &str) -> Result<&'static Gpu> {
    if let Err(reason) = gpu::availability() {
        return Err(anyhow!("{what} needs an NVIDIA GPU: {reason}"));
    }
    gpu::prepare(&[module]).map_err(|e| anyhow!("{what} needs an NVIDIA GPU: {e:#}"))
}

/// Whether GPU engines can run here, and if not why (for `--compare` and `--bench`).
pub fn gpu_reason() -> Option<String> {
    gpu::availability().as_ref().err().cloned()
}

/// The distances on the device, the upload's seconds, and the device's name.
pub(super) fn sssp(
    graph: &WeightedGraph,
    src: u32,
    engine: SsspEngine,
    delta: Weight,
) -> Result<(Distances, f64, String)> {
    let gpu = gpu_for(engine.name(), gpu::kernels::sssp::MODULE)?;
    let mut device = gpu::sssp::DeviceSssp::new(gpu, graph, engine, delta)?;
    let distances = device.run(src)?;
    Ok((distances, device.upload_seconds, gpu.info.name.clone()))
}

/// The matrix on the device, its seconds from the upload to the download (the device's start-up
/// not included), and the device's name.
pub(super) fn apsp(graph: &WeightedGraph, method: ApspMethod) -> Result<(DistanceMatrix, f64, String)> {
    let module = match method {
        ApspMethod::GpuSsspAll => gpu::kernels::sssp::MODULE,
        _ => gpu::kernels::apsp::MODULE,
    };
    let gpu = gpu_for(method.name(), module)?;
    let clock = std::time::Instant::now();
    let matrix = gpu::apsp::run(gpu, graph, method)?;
    Ok((matrix, clock.elapsed().as_secs_f64(), gpu.info.name.clone()))
}
