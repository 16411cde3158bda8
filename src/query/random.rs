//! Seeded random queries: uniform pairs of original vertices, reproducible across runs and machines.

use super::query_file::Query;
use crate::rng::seeded;
use rand::RngExt;

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

#[cfg(test)]
mod tests {
    use super::*;

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
