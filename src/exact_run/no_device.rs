//! A build without the `gpu` feature: every GPU engine answers with the reason it cannot run.

use super::device_run::Run;
use crate::exact::phases::PhaseClock;
use crate::exact::{BfsEngine, BitMatrix, ClosureMethod};
use crate::exceptions::ExceptionCounts;
use crate::graph::Graph;
use crate::index::Labels;
use anyhow::Result;
use std::sync::atomic::AtomicBool;

/// Why GPU engines cannot run here: this build has no GPU back end.
pub fn gpu_reason() -> Option<String> {
    Some(crate::backend::NO_GPU_SUPPORT.to_string())
}

fn refuse<T>(what: &str) -> Result<T> {
    anyhow::bail!("{what} needs an NVIDIA GPU: {}", crate::backend::NO_GPU_SUPPORT)
}

pub(super) fn bfs(_: &Graph, _: u32, engine: BfsEngine) -> Result<Run> {
    refuse(engine.name())
}

pub(super) fn closure(_: &Graph, method: ClosureMethod, _: &mut PhaseClock) -> Result<(BitMatrix, String)> {
    refuse(method.name())
}

pub(super) enum DeviceBfs {}

impl DeviceBfs {
    pub fn new(_: &Graph, engine: BfsEngine) -> Result<DeviceBfs> {
        refuse(engine.name())
    }

    pub fn levels(&mut self, _: &Graph, _: u32) -> Result<Vec<u32>> {
        match *self {}
    }
}

/// No kernel modules: there is no GPU back end.
pub const EXCEPTIONS_MODULES: &[&str] = &[];

/// Counting exceptions on the GPU: always an error here, saying this build has no GPU back end.
pub fn exceptions_on_gpu(_: &Graph, _: &Labels, _: &AtomicBool, _: &(dyn Fn(f64) + Sync)) -> Result<ExceptionCounts> {
    refuse("counting exceptions on the GPU")
}
