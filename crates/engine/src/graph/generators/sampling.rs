//! Shared machinery of the random generators: per-vertex random streams, sampling distinct values,
//! and building a children CSR in parallel without an intermediate edge list.

use super::limits::MAX_GENERATED_EDGES;
use crate::graph::Csr;
use crate::mix::mix64;
use crate::rng::{Rng, seeded};
use crate::{Error, Result};
use rand::RngExt;
use rayon::prelude::*;

/// The random stream of one vertex for one purpose. Streams depend on `(seed, purpose, vertex)` only,
/// never on which thread runs them, so a graph is the same whatever the thread count.
pub(super) fn stream(seed: u64, purpose: u64, vertex: u64) -> Rng {
    seeded(mix64(seed, purpose, vertex))
}

/// A uniformly random permutation of `0..n` (Fisher–Yates with portable `u32` draws).
pub(super) fn permutation(n: usize, seed: u64, purpose: u64) -> Vec<u32> {
    let mut rng = stream(seed, purpose, u64::MAX);
    let mut perm: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        let j = rng.random_range(0..=i as u32) as usize;
        perm.swap(i, j);
    }
    perm
}

/// Fills `out` with distinct values drawn uniformly from `0..range`, in ascending order.
/// Sparse draws (the usual case) use rejection: draw, sort, drop duplicates, redraw the missing
/// ones. Dense draws (more than half the range) walk the range once (Knuth's selection sampling),
/// where rejection would slow down like a coupon collector.
pub(super) fn sample_distinct(rng: &mut Rng, range: u32, out: &mut [u32]) {
    let k = out.len();
    assert!(k as u64 <= u64::from(range), "cannot draw {k} distinct values from 0..{range}");
    if k == 0 {
        return;
    }
    if 2 * k as u64 > u64::from(range) {
        let mut needed = k as u64;
        let mut filled = 0;
        for candidate in 0..range {
            let remaining = u64::from(range - candidate);
            if rng.random_range(0..remaining) < needed {
                out[filled] = candidate;
                filled += 1;
                needed -= 1;
                if needed == 0 {
                    break;
                }
            }
        }
        return;
    }
    let mut unique = 0;
    while unique < k {
        for slot in &mut out[unique..] {
            *slot = rng.random_range(0..range);
        }
        out.sort_unstable();
        unique = dedup_sorted_in_place(out);
    }
}

/// Moves the distinct values of a sorted slice to its front; returns how many there are.
fn dedup_sorted_in_place(values: &mut [u32]) -> usize {
    let mut write = 0;
    for read in 0..values.len() {
        if write == 0 || values[read] != values[write - 1] {
            values[write] = values[read];
            write += 1;
        }
    }
    write
}

/// Vertices per parallel task when filling lists: large enough to amortise scheduling.
const BLOCK: usize = 4096;

/// Builds a children CSR on `n` vertices in two parallel passes: `degree(v)` gives the length of
/// `v`'s list, then `fill(v, list)` writes it in place (sorted, unique, loop-free). Both closures
/// must be deterministic per vertex; they typically recreate the vertex's random stream.
pub(super) fn build_children(
    what: &str,
    n: usize,
    degree: impl Fn(u32) -> u64 + Sync,
    fill: impl Fn(u32, &mut [u32]) + Sync,
) -> Result<Csr> {
    let degrees: Vec<u64> = (0..n as u32).into_par_iter().map(&degree).collect();
    let mut offsets = Vec::with_capacity(n + 1);
    let mut total = 0u64;
    offsets.push(0);
    for d in degrees {
        total += d;
        offsets.push(total);
    }
    if total > MAX_GENERATED_EDGES {
        return Err(Error::InvalidInput(format!(
            "{what}: drew {total} edges, more than the generator limit of {MAX_GENERATED_EDGES}"
        )));
    }
    let mut targets = vec![0u32; total as usize];
    // One mutable slice per block of vertices, so rayon tasks write disjoint parts of `targets`.
    let mut blocks: Vec<(usize, &mut [u32])> = Vec::with_capacity(n.div_ceil(BLOCK));
    let mut rest = targets.as_mut_slice();
    for start in (0..n).step_by(BLOCK) {
        let end = (start + BLOCK).min(n);
        let (head, tail) = rest.split_at_mut((offsets[end] - offsets[start]) as usize);
        blocks.push((start, head));
        rest = tail;
    }
    blocks.into_par_iter().for_each(|(start, block)| {
        let base = offsets[start];
        for v in start..(start + BLOCK).min(n) {
            let list = &mut block[(offsets[v] - base) as usize..(offsets[v + 1] - base) as usize];
            fill(v as u32, list);
        }
    });
    Csr::from_parts(offsets, targets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_samples_are_sorted_unique_and_in_range() {
        let mut rng = stream(3, 0, 0);
        for (range, k) in [(10u32, 0usize), (10, 3), (10, 6), (10, 10), (1_000_000, 200), (7, 7)] {
            let mut out = vec![0u32; k];
            sample_distinct(&mut rng, range, &mut out);
            assert!(out.windows(2).all(|w| w[0] < w[1]), "{range} {k}: {out:?}");
            assert!(out.iter().all(|&x| x < range));
        }
    }

    #[test]
    fn permutation_is_a_bijection_and_seeded() {
        let p = permutation(1000, 5, 1);
        let mut sorted = p.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..1000).collect::<Vec<u32>>());
        assert_eq!(p, permutation(1000, 5, 1));
        assert_ne!(p, permutation(1000, 6, 1));
    }

    #[test]
    fn builds_lists_in_place() {
        let csr = build_children(
            "t",
            10_000,
            |v| u64::from(v % 3),
            |v, list| {
                for (i, slot) in list.iter_mut().enumerate() {
                    *slot = (v + 1 + i as u32) % 10_000;
                }
            },
        )
        .unwrap();
        assert_eq!(csr.num_edges(), (0..10_000u64).map(|v| v % 3).sum::<u64>() as usize);
        assert_eq!(csr.neighbors(5), &[6, 7]);
        assert_eq!(csr.neighbors(9_999), &[] as &[u32]);
    }
}
