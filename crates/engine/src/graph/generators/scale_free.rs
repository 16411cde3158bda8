//! Barabási–Albert preferential attachment, oriented new -> old so the result is a DAG.
//!
//! The same process as networkx's `barabasi_albert_graph`, which is how the benchmark's `ba10k2d`
//! and `ba10k5d` look (10,000 vertices, (n - m) * m edges, vertices `0..m` without children): the
//! first `m` vertices start unconnected; vertex `m` links to all of them; every later vertex links
//! to `m` distinct older vertices, each picked with probability proportional to its degree.

use super::limits::{check_edges, check_vertices};
use super::sampling::stream;
use crate::graph::{Csr, Graph};
use crate::{Error, Result};
use rand::RngExt;

const PICKS: u64 = 21;

/// A scale-free DAG on `n` vertices where each vertex from `edges_per_vertex` on has exactly
/// `edges_per_vertex` children, all with smaller ids (ids are a reverse topological order).
pub fn scale_free(n: usize, edges_per_vertex: usize, seed: u64) -> Result<Graph> {
    const WHAT: &str = "scale-free graph";
    check_vertices(WHAT, n as u64)?;
    let m = edges_per_vertex;
    if m == 0 || m >= n {
        return Err(Error::InvalidInput(format!(
            "{WHAT}: edges per vertex must be in 1..{n} (one less than the vertex count), got {m}"
        )));
    }
    let edges = (n - m) as f64 * m as f64;
    // The endpoint list below holds two entries per edge.
    check_edges(WHAT, 2.0 * edges)?;
    let mut rng = stream(seed, PICKS, 0);
    // Every edge endpoint once: a uniform pick from it is a degree-proportional pick of a vertex.
    let mut endpoints: Vec<u32> = Vec::with_capacity(2 * edges as usize);
    let mut offsets: Vec<u64> = vec![0; m + 1];
    let mut targets: Vec<u32> = Vec::with_capacity(edges as usize);
    // `picked_by[u] == v` marks u as already chosen by v (distinct picks without a set).
    let mut picked_by = vec![u32::MAX; n];
    let mut chosen: Vec<u32> = (0..m as u32).collect();
    for v in m as u32..n as u32 {
        chosen.sort_unstable();
        targets.extend_from_slice(&chosen);
        offsets.push(targets.len() as u64);
        endpoints.extend_from_slice(&chosen);
        endpoints.extend(std::iter::repeat_n(v, m));
        chosen.clear();
        while chosen.len() < m {
            let u = endpoints[rng.random_range(0..endpoints.len() as u64) as usize];
            if picked_by[u as usize] != v {
                picked_by[u as usize] = v;
                chosen.push(u);
            }
        }
    }
    Graph::from_children(Csr::from_parts(offsets, targets)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::topo;

    #[test]
    fn shape_of_the_benchmark_ba_graphs() {
        let (n, m) = (10_000, 2);
        let g = scale_free(n, m, 1).unwrap();
        assert_eq!(g.num_edges(), (n - m) * m, "ba10k2d has 19,996 edges");
        assert!((0..m as u32).all(|v| g.children(v).is_empty()));
        assert!((m as u32..n as u32).all(|v| g.children(v).len() == m && g.children(v).iter().all(|&c| c < v)));
        topo::levels(&g).expect("new -> old is acyclic");
    }

    #[test]
    fn preferential_attachment_makes_hubs() {
        let g = scale_free(20_000, 3, 5).unwrap();
        let max_in = (0..20_000u32).map(|v| g.parents(v).len()).max().unwrap();
        // A uniform choice gives in-degrees around ln(n) * m (about 30); attachment gives hundreds.
        assert!(max_in > 150, "max in-degree {max_in}");
    }

    #[test]
    fn seeded() {
        let a = scale_free(2_000, 4, 8).unwrap();
        assert_eq!(a, scale_free(2_000, 4, 8).unwrap());
        assert_ne!(a, scale_free(2_000, 4, 9).unwrap());
    }

    #[test]
    fn absurd_parameters_are_errors() {
        assert!(scale_free(0, 1, 0).is_err());
        assert!(scale_free(10, 0, 0).is_err());
        assert!(scale_free(10, 10, 0).is_err());
        assert_eq!(scale_free(2, 1, 0).unwrap().num_edges(), 1);
    }
}
