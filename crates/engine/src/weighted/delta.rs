//! Delta-stepping (Meyer and Sanders) on every core: the parallel single-source engine.
//!
//! Why delta-stepping rather than a bucketed Bellman-Ford: both relax whole frontiers in parallel
//! rounds, but delta-stepping only lets a vertex into a round once its distance lies in the
//! current bucket `[i·Δ, (i+1)·Δ)`, so with a fitting Δ most vertices are relaxed about once, as in
//! Dijkstra, while Bellman-Ford relaxes every improved vertex again in every round (up to
//! `n · m` work on long, light paths). Δ trades the two: small Δ is Dijkstra (many rounds, no
//! wasted work), large Δ is Bellman-Ford (few rounds, repeated work).
//!
//! Edges of weight at most Δ are light, the others heavy. Bucket i is emptied in rounds: each
//! takes the bucket's vertices and relaxes their light edges in parallel (an improved vertex whose
//! distance falls in bucket i comes back for another round); once it stays empty, the heavy edges
//! of every vertex it held are relaxed once (they lead to later buckets). Distances are atomic
//! minimums on their bit patterns (which order as the numbers do for non-negative `f64`). A round
//! reads its frontier's distances before it starts, so which vertices improve in it, and therefore
//! the bookkeeping, does not depend on thread timing; the distances never do (see the module
//! [`crate::weighted`]).
//!
//! Buckets are kept by index in an ordered map, so a graph whose longest distance is many Δ long
//! costs memory for its non-empty buckets only. A vertex remembers the bucket it was last put in
//! and is skipped in any other (lazy deletion).

use super::{Distances, SsspEngine};
use crate::graph::{Weight, WeightedGraph};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// No bucket.
const NONE: u64 = u64::MAX;

/// A frontier smaller than this is relaxed on one thread: spreading it would cost more than it does.
const PARALLEL_FRONTIER: usize = 256;

/// The bucket width used when none is given: `Δ = 2·w̄ / d̄`, `w̄` the mean weight and `d̄` the mean
/// out-degree of the vertices with out-edges. For weights uniform in [0, 1] (`w̄ = 1/2`) this is
/// Meyer and Sanders' `Δ = 1/d`, with the mean degree in place of the largest (one hub would
/// otherwise shrink every bucket); scaling by `w̄` makes it independent of the weights' unit. With
/// every weight 0 (or no edge) any width will do: 1.
pub fn choose_delta(graph: &WeightedGraph) -> Weight {
    let with_edges = (0..graph.num_vertices() as u32).filter(|&v| !graph.graph().children(v).is_empty()).count();
    let mean_degree = graph.num_edges() as f64 / with_edges.max(1) as f64;
    let delta = 2.0 * graph.mean_weight() / mean_degree.max(1.0);
    if delta > 0.0 && delta.is_finite() { delta } else { 1.0 }
}

/// The GPU near-far threshold's step when none is given: four bucket widths of [`choose_delta`].
/// A GPU round costs a grid barrier's latency (about 10 µs) however small its frontier, so fewer,
/// fuller rounds pay for the edges they relax again (docs/BENCHMARKS.md, "Shortest paths").
pub fn near_far_delta(graph: &WeightedGraph) -> Weight {
    4.0 * choose_delta(graph)
}

/// The distances from `src` with buckets of width `delta` (finite, above 0).
pub fn delta_stepping(graph: &WeightedGraph, src: u32, delta: Weight) -> Distances {
    let start = Instant::now();
    let n = graph.num_vertices();
    let dist: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(Weight::INFINITY.to_bits())).collect();
    let load = |v: u32| Weight::from_bits(dist[v as usize].load(Ordering::Relaxed));
    let bucket_of = |d: Weight| ((d / delta).floor() as u64).min(NONE - 1);
    let mut slot = vec![NONE; n];
    let mut buckets: BTreeMap<u64, Vec<u32>> = BTreeMap::new();
    dist[src as usize].store(0.0f64.to_bits(), Ordering::Relaxed);
    slot[src as usize] = 0;
    buckets.insert(0, vec![src]);
    let (mut relaxations, mut steps, mut emptied) = (0u64, 0u64, 0u64);
    // Puts each improved vertex in its bucket (never before the current one).
    let place = |improved: Vec<u32>, current: u64, slot: &mut [u64], buckets: &mut BTreeMap<u64, Vec<u32>>| {
        for v in improved {
            let b = bucket_of(load(v)).max(current);
            if slot[v as usize] != b {
                slot[v as usize] = b;
                buckets.entry(b).or_default().push(v);
            }
        }
    };
    while let Some((&current, _)) = buckets.first_key_value() {
        let mut held: Vec<u32> = Vec::new();
        while let Some(entries) = buckets.remove(&current) {
            let mut frontier: Vec<(u32, Weight)> = Vec::with_capacity(entries.len());
            for v in entries {
                if slot[v as usize] == current {
                    slot[v as usize] = NONE;
                    frontier.push((v, load(v)));
                }
            }
            if frontier.is_empty() {
                break;
            }
            steps += 1;
            held.extend(frontier.iter().map(|&(v, _)| v));
            let (improved, relaxed) = relax(graph, &dist, &frontier, |w| w <= delta);
            relaxations += relaxed;
            place(improved, current, &mut slot, &mut buckets);
        }
        held.sort_unstable();
        held.dedup();
        let frontier: Vec<(u32, Weight)> = held.iter().map(|&v| (v, load(v))).collect();
        let (improved, relaxed) = relax(graph, &dist, &frontier, |w| w > delta);
        if relaxed > 0 {
            steps += 1;
            relaxations += relaxed;
        }
        // A heavy edge leads past the current bucket; were rounding to place its head in it, the
        // bucket is simply emptied again.
        place(improved, current, &mut slot, &mut buckets);
        emptied += 1;
    }
    Distances {
        engine: SsspEngine::Delta,
        source: src,
        dist: dist.into_iter().map(|d| Weight::from_bits(d.into_inner())).collect(),
        relaxations,
        steps,
        buckets: emptied,
        delta: Some(delta),
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Relaxes the edges that `select` picks (by weight) out of every `(vertex, distance)` of
/// `frontier`; returns the heads it improved (a head may appear more than once) and the edges
/// examined.
fn relax(
    graph: &WeightedGraph,
    dist: &[AtomicU64],
    frontier: &[(u32, Weight)],
    select: impl Fn(Weight) -> bool + Sync,
) -> (Vec<u32>, u64) {
    let one = |(mut improved, mut relaxed): (Vec<u32>, u64), &(u, du): &(u32, Weight)| {
        let (heads, weights) = graph.out_edges(u);
        for (&v, &w) in heads.iter().zip(weights) {
            if !select(w) {
                continue;
            }
            relaxed += 1;
            let candidate = (du + w).to_bits();
            if dist[v as usize].fetch_min(candidate, Ordering::Relaxed) > candidate {
                improved.push(v);
            }
        }
        (improved, relaxed)
    };
    if frontier.len() < PARALLEL_FRONTIER {
        return frontier.iter().fold((Vec::new(), 0), one);
    }
    frontier.par_iter().fold(|| (Vec::new(), 0), one).reduce(
        || (Vec::new(), 0),
        |(mut a, ra), (b, rb)| {
            a.extend(b);
            (a, ra + rb)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equals_dijkstra_at_any_width() {
        let edges = vec![(0, 1, 1.0), (1, 2, 1.0), (0, 2, 5.0), (2, 3, 0.0), (3, 1, 0.5), (1, 4, 9.0)];
        let g = WeightedGraph::from_edges(6, edges, "t").unwrap();
        let reference = super::super::dijkstra::dijkstra(&g, 0);
        for delta in [0.1, 0.5, 1.0, 3.0, 100.0] {
            assert_eq!(delta_stepping(&g, 0, delta).differences(&reference), 0, "delta {delta}");
        }
    }

    #[test]
    fn the_default_width_follows_the_mean_weight_and_degree() {
        let g = WeightedGraph::from_edges(3, vec![(0, 1, 2.0), (0, 2, 4.0), (1, 2, 3.0)], "t").unwrap();
        // Mean weight 3, mean degree 1.5 (two vertices with edges).
        assert_eq!(choose_delta(&g), 4.0);
        let zero = WeightedGraph::from_edges(2, vec![(0, 1, 0.0)], "t").unwrap();
        assert_eq!(choose_delta(&zero), 1.0);
    }
}
