//! A shortest path from any engine's distances, without parent pointers (which the parallel
//! engines do not keep).
//!
//! An edge `u -> v` is tight when `d(u) + w = d(v)` exactly. A breadth-first search from the source
//! over tight edges reaches every reached vertex: a vertex's distance is the rounded sum along some
//! path whose last edge is then tight, and the vertex before it has either a smaller distance or
//! the same distance with a shorter such path, so following those edges back always ends at the
//! source. Along a path of tight edges the weights, added one by one from the source, give the
//! distance exactly; the breadth-first order keeps it free of the cycles zero-weight edges allow,
//! and makes it one with the fewest edges among the tight paths.

use super::Distances;
use crate::graph::WeightedGraph;
use std::collections::VecDeque;

/// A shortest path from the distances' source to `dst` (both ends included), or None when `dst` is
/// not reachable.
pub fn shortest_path(graph: &WeightedGraph, distances: &Distances, dst: u32) -> Option<Vec<u32>> {
    let dist = &distances.dist;
    dist.get(dst as usize).filter(|d| d.is_finite())?;
    let src = distances.source;
    let mut parent = vec![u32::MAX; graph.num_vertices()];
    parent[src as usize] = src;
    let mut queue = VecDeque::from([src]);
    while let Some(u) = queue.pop_front() {
        if u == dst {
            break;
        }
        let (heads, weights) = graph.out_edges(u);
        for (&v, &w) in heads.iter().zip(weights) {
            if parent[v as usize] == u32::MAX && dist[u as usize] + w == dist[v as usize] {
                parent[v as usize] = u;
                queue.push_back(v);
            }
        }
    }
    if parent[dst as usize] == u32::MAX {
        return None; // not reached over tight edges: the distances are not a fixpoint
    }
    let mut path = vec![dst];
    while *path.last()? != src {
        path.push(parent[*path.last()? as usize]);
    }
    path.reverse();
    Some(path)
}

/// The length of `path` (dense ids) in `graph`, its weights added one by one from the start; None
/// when a step is not an edge.
pub fn path_length(graph: &WeightedGraph, path: &[u32]) -> Option<f64> {
    path.windows(2).try_fold(0.0, |sum, step| graph.weight(step[0], step[1]).map(|w| sum + w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_sums_to_the_distance_through_a_zero_weight_cycle() {
        // 0 -1-> 1 <-0-> 2 (a zero-weight cycle), 2 -2-> 3; 0 -3-> 3 ties with 0, 1, 2, 3.
        let edges = vec![(0, 1, 1.0), (1, 2, 0.0), (2, 1, 0.0), (2, 3, 2.0), (0, 3, 3.0), (3, 4, 1.0)];
        let g = WeightedGraph::from_edges(6, edges, "t").unwrap();
        let d = super::super::dijkstra::dijkstra(&g, 0);
        let path = shortest_path(&g, &d, 4).unwrap();
        assert_eq!(path, [0, 3, 4], "the tie is broken towards fewer edges");
        assert_eq!(path_length(&g, &path), Some(d.dist[4]));
        assert_eq!(shortest_path(&g, &d, 5), None);
        assert_eq!(shortest_path(&g, &d, 0), Some(vec![0]));
    }
}
