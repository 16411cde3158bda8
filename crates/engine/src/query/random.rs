//! Seeded random queries, reproducible across runs and machines: uniform pairs of original vertices,
//! or pairs known to be reachable (a batch heavy in positives, where searches cost the most).

use super::query_file::Query;
use crate::graph::Graph;
use crate::rng::seeded;
use rand::RngExt;

/// The longest walk [`reachable_queries`] takes from a source.
pub const MAX_WALK: u32 = 16;

/// `count` uniform `(src, dst)` pairs on `0..n` from the crate's generator seeded with `seed`
/// (`crate::rng`, portable: the same seed gives the same queries everywhere). Empty when `n == 0`.
pub fn random_queries(n: usize, count: usize, seed: u64) -> Vec<Query> {
    if n == 0 {
        return Vec::new();
    }
    let bound = u32::try_from(n).unwrap_or(u32::MAX);
    let mut rng = seeded(seed);
    (0..count)
        .map(|_| {
            let src = rng.random_range(0..bound);
            let dst = rng.random_range(0..bound);
            Query { src, dst, expected: None, line: 0 }
        })
        .collect()
}

/// `count` pairs `(src, dst)` of `graph` with `dst` reachable from `src`, each expected `true`: `src`
/// uniform among the vertices with an out-edge, `dst` where a walk from it along uniformly chosen
/// out-edges stops after a uniform 1 to `MAX_WALK` steps (or earlier, at a vertex without one).
/// Empty when no vertex has an out-edge.
pub fn reachable_queries(graph: &Graph, count: usize, seed: u64) -> Vec<Query> {
    let children = graph.children_csr();
    let starts: Vec<u32> = (0..graph.num_vertices() as u32).filter(|&v| !children.neighbors(v).is_empty()).collect();
    if starts.is_empty() {
        return Vec::new();
    }
    let mut rng = seeded(seed);
    (0..count)
        .map(|_| {
            let src = starts[rng.random_range(0..starts.len())];
            let mut at = src;
            for _ in 0..rng.random_range(1..=MAX_WALK) {
                let next = children.neighbors(at);
                if next.is_empty() {
                    break;
                }
                at = next[rng.random_range(0..next.len())];
            }
            Query { src, dst: at, expected: Some(true), line: 0 }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reachable_pairs_are_reachable_and_seeded() {
        // A digraph with cycles: a walk may come back to its source, which reaches itself.
        let g = crate::graph::generators::random_digraph(300, 3.0, 5).unwrap();
        let queries = reachable_queries(&g, 2000, 9);
        assert_eq!(queries, reachable_queries(&g, 2000, 9));
        assert_eq!(queries.len(), 2000);
        assert!(queries.iter().all(|q| q.src == q.dst || crate::query::oracle::reachable_bfs(&g, q.src, q.dst)));
        assert!(queries.iter().all(|q| q.expected == Some(true)));
        let sinks = Graph::from_edges(3, &[]).unwrap();
        assert!(reachable_queries(&sinks, 5, 1).is_empty());
    }

    #[test]
    fn same_seed_same_queries() {
        let a = random_queries(1000, 500, 42);
        assert_eq!(a, random_queries(1000, 500, 42));
        assert_ne!(a, random_queries(1000, 500, 43));
        assert!(a.iter().all(|q| q.src < 1000 && q.dst < 1000 && q.expected.is_none() && q.line == 0));
    }

    #[test]
    fn covers_the_range_roughly_uniformly() {
        let queries = random_queries(10, 10_000, 7);
        let mut hits = [0u32; 10];
        for q in &queries {
            hits[q.src as usize] += 1;
        }
        // Each of 10 values is expected 1000 times; 800 is over 6 standard deviations away.
        assert!(hits.iter().all(|&h| h > 800 && h < 1200), "{hits:?}");
        assert!(random_queries(0, 5, 1).is_empty());
    }
}
