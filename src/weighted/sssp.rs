//! Runs a single-source engine by name.

use super::{Distances, SsspEngine};
use crate::graph::{Weight, WeightedGraph};
use anyhow::{Result, bail};

/// Runs `engine` from `src` (a dense id); `delta` overrides delta-stepping's bucket width.
pub fn run_sssp(graph: &WeightedGraph, src: u32, engine: SsspEngine, delta: Option<Weight>) -> Result<Distances> {
    if src as usize >= graph.num_vertices() {
        bail!("vertex {src} is not in 0..{}", graph.num_vertices());
    }
    Ok(match engine {
        SsspEngine::Dijkstra => super::dijkstra::dijkstra(graph, src),
        SsspEngine::Delta => {
            let delta = match delta {
                Some(d) if d > 0.0 && d.is_finite() => d,
                Some(d) => bail!("delta is a bucket width: a finite number above 0, not {d}"),
                None => super::delta::choose_delta(graph),
            };
            super::delta::delta_stepping(graph, src, delta)
        }
    })
}
