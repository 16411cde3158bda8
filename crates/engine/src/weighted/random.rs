//! Random weighted graphs: a generator's graph (`crate::graph::generators`) with integer weights
//! drawn from one seeded stream ([`crate::rng`]) in the order of its children CSR, so the same
//! seed gives the same weights on every machine. Integer weights keep every sum exact, so all
//! engines and methods must agree bit for bit on these graphs.

use crate::Result;
use crate::graph::generators::random_digraph;
use crate::graph::{Graph, Weight, WeightedGraph};
use rand::RngExt;

/// Stream of the weights, apart from the generator's own streams of the same seed.
const WEIGHT_STREAM: u64 = 0x5757_5757_5757_5757;

/// `graph` with weights drawn uniformly from the integers `0..=max_weight`.
pub fn with_random_weights(graph: Graph, max_weight: u32, seed: u64, name: &str) -> Result<WeightedGraph> {
    let mut rng = crate::rng::seeded(seed ^ WEIGHT_STREAM);
    let weights = (0..graph.num_edges()).map(|_| Weight::from(rng.random_range(0..=max_weight))).collect();
    WeightedGraph::with_weights(graph, weights, name)
}

/// A random digraph (every ordered pair an edge with probability `avg_degree / (n - 1)`, cycles
/// and all) with weights `0..=max_weight`, named `digraph n=N deg=D`.
pub fn random_weighted(n: usize, avg_degree: f64, max_weight: u32, seed: u64) -> Result<WeightedGraph> {
    let graph = random_digraph(n, avg_degree, seed)?;
    with_random_weights(graph, max_weight, seed, &format!("digraph n={n} deg={avg_degree}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_integer_weights_in_range() {
        let g = random_weighted(200, 3.0, 9, 7).unwrap();
        assert!(g.weights().iter().all(|&w| w.fract() == 0.0 && (0.0..=9.0).contains(&w)));
        assert!(g.weights().contains(&0.0) && g.weights().contains(&9.0));
        assert_eq!(g.weights(), random_weighted(200, 3.0, 9, 7).unwrap().weights());
        assert_ne!(g.weights(), random_weighted(200, 3.0, 9, 8).unwrap().weights());
    }
}
