//! The GPU's side of the exact engines: each opens the shared device with the kernel modules it
//! needs (so its time holds none of the start-up), or says why a GPU engine cannot run here.

use super::device_run::Run;
use crate::exact::phases::PhaseClock;
use crate::exact::{BfsEngine, BitMatrix, ClosureMethod};
use crate::exceptions::ExceptionCounts;
use crate::gpu::{self, Gpu};
use crate::graph::Graph;
use crate::index::Labels;
use anyhow::{Result, anyhow};
use std::sync::atomic::AtomicBool;

/// The GPU with the kernel modules `modules` ready, or why a GPU engine cannot run here.
fn gpu_for(what: &str, modules: &[&str]) -> Result<&'static Gpu> {
    if let Err(reason) = gpu::availability() {
        return Err(anyhow!("{what} needs an NVIDIA GPU: {reason}"));
    }
    gpu::prepare(modules).map_err(|e| anyhow!("{what} needs an NVIDIA GPU: {e:#}"))
}

/// Whether GPU engines can run here, and if not why (for `--compare` and the explorer).
pub fn gpu_reason() -> Option<String> {
    gpu::availability().as_ref().err().cloned()
}

pub(super) fn bfs(graph: &Graph, src: u32, engine: BfsEngine) -> Result<Run> {
    let gpu = gpu_for(engine.name(), &[gpu::kernels::bfs::MODULE])?;
    let run = gpu::exact_bfs::bfs(gpu, graph, src, engine)?;
    Ok(Run {
        levels: run.levels,
        seconds: run.seconds,
        upload_seconds: run.upload_seconds,
        device: gpu.info.name.clone(),
    })
}

/// The closure on the device, and the device's name.
pub(super) fn closure(dag: &Graph, method: ClosureMethod, clock: &mut PhaseClock) -> Result<(BitMatrix, String)> {
    let gpu = gpu_for(method.name(), &[gpu::kernels::closure::MODULE])?;
    Ok((gpu::exact_closure::closure(gpu, dag, method, clock)?, gpu.info.name.clone()))
}

/// A graph uploaded once and searched from many sources.
pub(super) struct DeviceBfs(gpu::exact_bfs::DeviceBfs<'static>);

impl DeviceBfs {
    pub fn new(graph: &Graph, engine: BfsEngine) -> Result<DeviceBfs> {
        let gpu = gpu_for(engine.name(), &[gpu::kernels::bfs::MODULE])?;
        Ok(DeviceBfs(gpu::exact_bfs::DeviceBfs::new(gpu, graph, engine)?))
    }

    pub fn levels(&mut self, graph: &Graph, src: u32) -> Result<Vec<u32>> {
        self.0.levels(graph, src)
    }
}

/// The kernel modules the GPU's exception count uses (it builds the closure first).
pub const EXCEPTIONS_MODULES: &[&str] = &[gpu::kernels::exceptions::MODULE, gpu::kernels::closure::MODULE];

/// Exceptions of `labels` counted exactly over every pair of `dag` on the GPU (the CPU's count is
/// `exceptions::exact`); an error says why where there is no GPU.
pub fn exceptions_on_gpu(
    dag: &Graph,
    labels: &Labels,
    cancel: &AtomicBool,
    progress: &(dyn Fn(f64) + Sync),
) -> Result<ExceptionCounts> {
    let gpu = gpu_for("counting exceptions on the GPU", EXCEPTIONS_MODULES)?;
    gpu::exceptions::count(gpu, dag, labels, None, cancel, progress)
}
