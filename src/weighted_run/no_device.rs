//! A build without the `gpu` feature: every GPU engine answers with the reason it cannot run.

use crate::graph::{Weight, WeightedGraph};
use crate::weighted::apsp::DistanceMatrix;
use crate::weighted::{ApspMethod, Distances, SsspEngine};
use anyhow::Result;

/// Why GPU engines cannot run here: this build has no GPU back end.
pub fn gpu_reason() -> Option<String> {
    Some(crate::backend::NO_GPU_SUPPORT.to_string())
}

fn refuse<T>(what: &str) -> Result<T> {
    anyhow::bail!("{what} needs an NVIDIA GPU: {}", crate::backend::NO_GPU_SUPPORT)
}

pub(super) fn sssp(_: &WeightedGraph, _: u32, engine: SsspEngine, _: Weight) -> Result<(Distances, f64, String)> {
    refuse(engine.name())
}

pub(super) fn apsp(_: &WeightedGraph, method: ApspMethod) -> Result<(DistanceMatrix, f64, String)> {
    refuse(method.name())
}
