//! Deep random DAGs: the long, narrow graphs the thesis worried about, where level-synchronous
//! labeling pays once per level (a chain is the extreme; these have random cross edges, so the DFS
//! tree is not the graph).

use super::limits::{check_degree, check_edges, check_vertices};
use super::sampling::{permutation, stream};
use crate::graph::Graph;
use crate::{Error, Result};
use rand::RngExt;

const ORDER: u64 = 41;
const EDGES: u64 = 42;

/// How many layers back a cross edge may reach: far enough that paths branch and merge, near enough
/// that the depth stays about `depth`.
const REACH: usize = 8;

/// `n` vertices in `depth` layers of about `n / depth` each (ids shuffled by `seed`). Every vertex
/// after the first layer has an edge from a random vertex of the layer just above, so the longest
/// path has `depth - 1` edges and there are exactly `depth` Kahn levels; the other edges (for an
/// average out-degree of `deg`) go from a random vertex of one of the `REACH` layers above.
pub fn deep_dag(n: usize, deg: f64, depth: usize, seed: u64) -> Result<Graph> {
    const WHAT: &str = "deep DAG";
    check_vertices(WHAT, n as u64)?;
    if depth == 0 || depth > n {
        return Err(Error::InvalidInput(format!("{WHAT}: depth must be between 1 and n = {n}, got {depth}")));
    }
    check_degree(WHAT, deg, (n - 1) as f64)?;
    check_edges(WHAT, deg * n as f64)?;
    let width = n.div_ceil(depth);
    // Before shuffling, layer l holds the vertices l * width .. (l + 1) * width (the last may be short).
    let layer = |l: usize| (l * width)..((l + 1) * width).min(n);
    let layers = n.div_ceil(width);
    let id = permutation(n, seed, ORDER);
    let total = (deg * n as f64).round() as usize;
    let mut rng = stream(seed, EDGES, 0);
    let mut edges = Vec::with_capacity(total.max(n));
    for l in 1..layers {
        let above = layer(l - 1);
        for v in layer(l) {
            edges.push((rng.random_range(above.clone()) as u32, v as u32));
        }
    }
    // One layer has no edge to place.
    while layers > 1 && edges.len() < total {
        let l = rng.random_range(1..layers);
        let from = rng.random_range(l.saturating_sub(REACH)..l);
        let (u, v) = (rng.random_range(layer(from)), rng.random_range(layer(l)));
        edges.push((u as u32, v as u32));
    }
    let shuffled: Vec<(u32, u32)> = edges.into_iter().map(|(u, v)| (id[u as usize], id[v as usize])).collect();
    Graph::from_edges(n, &shuffled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::topo;

    #[test]
    fn as_deep_as_asked_with_the_average_degree() {
        let g = deep_dag(20_000, 2.0, 5_000, 3).unwrap();
        let (level, _) = topo::levels(&g).expect("acyclic");
        assert_eq!(level.iter().max(), Some(&4_999));
        let m = g.num_edges() as f64;
        // Duplicate edges are dropped: a few fewer than asked.
        assert!((0.95 * 40_000.0..=40_000.0).contains(&m), "{m} edges");
    }

    #[test]
    fn seeded_and_checked() {
        let a = deep_dag(1000, 2.0, 100, 1).unwrap();
        assert_eq!(a, deep_dag(1000, 2.0, 100, 1).unwrap());
        assert_ne!(a, deep_dag(1000, 2.0, 100, 2).unwrap());
        assert!(deep_dag(10, 2.0, 11, 0).is_err());
        assert!(deep_dag(10, 2.0, 0, 0).is_err());
        assert_eq!(deep_dag(10, 0.0, 10, 0).unwrap().num_edges(), 9, "the spine is always there");
        assert_eq!(deep_dag(5, 3.0, 1, 0).unwrap().num_edges(), 0, "one layer has no edges");
    }
}
