//! Dijkstra's algorithm with a binary heap and lazy deletion: the reference every other engine is
//! compared with.
//!
//! The heap holds `(distance, vertex)` entries; an improved vertex is pushed again rather than
//! decreased in place, and an entry whose distance is no longer the vertex's is skipped when
//! popped. The distance is keyed by its bit pattern, which for non-negative `f64` orders as the
//! number does (and is a total order, which `f64` itself is not).

use super::{Distances, SsspEngine};
use crate::graph::{Weight, WeightedGraph};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

/// A heap of `(distance bits, vertex)`, smallest first; kept between runs by all-pairs callers.
pub type Heap = BinaryHeap<Reverse<(u64, u32)>>;

/// Counts of one run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    /// Edges examined.
    pub relaxations: u64,
    /// Vertices settled (stale heap entries not counted).
    pub settled: u64,
}

/// The distances from `src` (a dense id below the vertex count).
pub fn dijkstra(graph: &WeightedGraph, src: u32) -> Distances {
    let start = Instant::now();
    let mut dist = vec![Weight::INFINITY; graph.num_vertices()];
    let counts = dijkstra_into(graph, src, &mut dist, &mut Heap::new());
    Distances {
        engine: SsspEngine::Dijkstra,
        source: src,
        dist,
        relaxations: counts.relaxations,
        steps: counts.settled,
        buckets: 0,
        delta: None,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Fills `dist` (all infinity on entry, one entry per vertex) with the distances from `src`, using
/// `heap` (empty on entry and on return) as the priority queue.
pub fn dijkstra_into(graph: &WeightedGraph, src: u32, dist: &mut [Weight], heap: &mut Heap) -> Counts {
    let mut counts = Counts::default();
    dist[src as usize] = 0.0;
    heap.push(Reverse((0.0f64.to_bits(), src)));
    while let Some(Reverse((bits, u))) = heap.pop() {
        let du = Weight::from_bits(bits);
        if du > dist[u as usize] {
            continue; // stale: u was pushed again with a smaller distance
        }
        counts.settled += 1;
        let (heads, weights) = graph.out_edges(u);
        counts.relaxations += heads.len() as u64;
        for (&v, &w) in heads.iter().zip(weights) {
            let candidate = du + w;
            if candidate < dist[v as usize] {
                dist[v as usize] = candidate;
                heap.push(Reverse((candidate.to_bits(), v)));
            }
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_distances_on_a_small_graph() {
        // 0 -1-> 1 -1-> 2, 0 -5-> 2, 2 -0-> 3, 4 alone.
        let g = WeightedGraph::from_edges(5, vec![(0, 1, 1.0), (1, 2, 1.0), (0, 2, 5.0), (2, 3, 0.0)], "t").unwrap();
        let d = dijkstra(&g, 0);
        assert_eq!(d.dist, [0.0, 1.0, 2.0, 2.0, Weight::INFINITY]);
        assert_eq!((d.steps, d.relaxations), (4, 4));
    }
}
