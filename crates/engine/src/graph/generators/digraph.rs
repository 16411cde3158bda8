//! Uniform random directed graphs (Erdős–Rényi G(n, p)): cycles allowed, for condensation tests.

use super::limits::{check_degree, check_edges, check_vertices};
use super::sampling::{build_children, sample_distinct, stream};
use crate::error::ErrorContext;
use crate::graph::Graph;
use crate::{Error, Result};
use rand::RngExt;
use rand_distr::Binomial;

const DEGREE: u64 = 11;
const TARGETS: u64 = 12;

/// A random digraph on `n` vertices: every ordered pair `u -> v` (`u != v`) is an edge with
/// probability `avg_degree / (n - 1)`, so about `n * avg_degree` edges, no self-loops.
pub fn random_digraph(n: usize, avg_degree: f64, seed: u64) -> Result<Graph> {
    const WHAT: &str = "random digraph";
    check_vertices(WHAT, n as u64)?;
    check_degree(WHAT, avg_degree, n as f64 - 1.0)?;
    check_edges(WHAT, n as f64 * avg_degree)?;
    let others = (n - 1) as u64;
    let p = if n > 1 { (avg_degree / others as f64).min(1.0) } else { 0.0 };
    let binomial = Binomial::new(others, p).map_err(|e| Error::InvalidInput(format!("edge probability: {e}")))?;
    let degree = |v: u32| stream(seed, DEGREE, u64::from(v)).sample(binomial);
    let fill = |v: u32, list: &mut [u32]| {
        sample_distinct(&mut stream(seed, TARGETS, u64::from(v)), others as u32, list);
        // Draws are over the n - 1 other vertices; skipping `v` keeps the list sorted.
        for slot in list.iter_mut() {
            *slot += u32::from(*slot >= v);
        }
    };
    let children = build_children(WHAT, n, degree, fill)?;
    Graph::from_children(children).with_context(|| format!("{WHAT}: building the graph"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{scc, topo};
    use std::sync::Arc;

    #[test]
    fn has_cycles_and_about_the_asked_edges() {
        let g = random_digraph(10_000, 3.0, 1).unwrap();
        assert!((g.num_edges() as f64 - 30_000.0).abs() < 1_000.0, "{} edges", g.num_edges());
        assert!(topo::levels(&g).is_err(), "degree 3 leaves a giant strongly connected component");
        let c = scc::condense(&Arc::new(g));
        assert!(c.largest() > 5_000, "largest component {}", c.largest());
        topo::levels(&c.dag).expect("the condensation is a DAG");
    }

    #[test]
    fn seeded_and_loop_free() {
        let g = random_digraph(3_000, 2.0, 4).unwrap();
        assert!(g.edges().all(|(u, v)| u != v));
        assert_eq!(g, random_digraph(3_000, 2.0, 4).unwrap());
        assert_ne!(g, random_digraph(3_000, 2.0, 5).unwrap());
        assert_eq!(random_digraph(30, 29.0, 0).unwrap().num_edges(), 30 * 29, "complete digraph");
    }

    #[test]
    fn absurd_parameters_are_errors() {
        assert!(random_digraph(0, 1.0, 0).is_err());
        assert!(random_digraph(10, 10.0, 0).is_err());
        assert!(random_digraph(10, -0.5, 0).is_err());
        assert_eq!(random_digraph(1, 0.0, 0).unwrap().num_edges(), 0);
    }
}
