//! Runs a single-source CPU engine by name (`crate::weighted_run` runs the GPU ones too).

use super::{Distances, SsspEngine};
use crate::graph::{Weight, WeightedGraph};
use crate::{Error, Result};

/// Runs `engine` (a CPU engine) from `src` (a dense id); `delta` overrides delta-stepping's bucket
/// width.
pub fn run_sssp(graph: &WeightedGraph, src: u32, engine: SsspEngine, delta: Option<Weight>) -> Result<Distances> {
    if src as usize >= graph.num_vertices() {
        let ids = crate::format::ids(graph.num_vertices() as u64);
        return Err(Error::InvalidInput(format!("vertex {src} is not one of the vertices {ids}")));
    }
    Ok(match engine {
        SsspEngine::Dijkstra => super::dijkstra::dijkstra(graph, src),
        SsspEngine::Delta => super::delta::delta_stepping(graph, src, chosen_delta(graph, delta)?),
        gpu => {
            return Err(Error::InvalidInput(format!(
                "{} runs on the GPU: run it through `grail::weighted_run`",
                gpu.name()
            )));
        }
    })
}

/// The bucket width `delta` gives (a finite number above 0), or the one chosen for `graph`.
pub fn chosen_delta(graph: &WeightedGraph, delta: Option<Weight>) -> Result<Weight> {
    match delta {
        Some(d) if d > 0.0 && d.is_finite() => Ok(d),
        Some(d) => Err(Error::InvalidInput(format!("delta is a bucket width: a finite number above 0, not {d}"))),
        None => Ok(super::delta::choose_delta(graph)),
    }
}
