//! The diamond ladder: `k` diamonds in a row (`0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3, 3 -> 4, 3 -> 5, ...`).
//! The number of paths from the top doubles at every rung, so at `k = 64` it no longer fits a u64:
//! the graph that breaks weight-based (path-counting) parent selection.

use super::limits::check_vertices;
use crate::graph::{Csr, Graph};
use crate::{Error, Result};

/// `k >= 1` diamonds: `3k + 1` vertices, `4k` edges. Diamond `i` is top `3i`, sides `3i + 1` and
/// `3i + 2`, bottom `3i + 3` (the next diamond's top).
pub fn diamond_ladder(k: usize) -> Result<Graph> {
    if k == 0 {
        return Err(Error::InvalidInput("diamond ladder: at least one diamond is needed".into()));
    }
    let n = (k as u64)
        .checked_mul(3)
        .and_then(|x| x.checked_add(1))
        .ok_or_else(|| Error::InvalidInput("diamond ladder: too many diamonds".into()))?;
    check_vertices("diamond ladder", n)?;
    let mut offsets = Vec::with_capacity(n as usize + 1);
    let mut targets = Vec::with_capacity(4 * k);
    offsets.push(0u64);
    for i in 0..k as u32 {
        let top = 3 * i;
        targets.extend([top + 1, top + 2]);
        offsets.push(targets.len() as u64);
        for _side in 0..2 {
            targets.push(top + 3);
            offsets.push(targets.len() as u64);
        }
    }
    offsets.push(targets.len() as u64); // the last bottom has no children
    Graph::from_children(Csr::from_parts(offsets, targets)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::topo;

    /// Paths from vertex 0 to every vertex, counted in u128 along a topological order.
    fn path_counts(g: &Graph) -> Vec<u128> {
        let (_, order) = topo::levels(g).unwrap();
        let mut paths = vec![0u128; g.num_vertices()];
        paths[0] = 1;
        for v in order {
            for &c in g.children(v) {
                paths[c as usize] += paths[v as usize];
            }
        }
        paths
    }

    #[test]
    fn shape_matches_the_definition() {
        let g = diamond_ladder(2).unwrap();
        let expected = vec![(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (3, 5), (4, 6), (5, 6)];
        assert_eq!(g.edges().collect::<Vec<_>>(), expected);
        assert_eq!(g.roots(), vec![0]);
        assert_eq!(g.leaves(), vec![6]);
    }

    #[test]
    fn path_counts_double_per_rung_past_u64() {
        let k = 70;
        let paths = path_counts(&diamond_ladder(k).unwrap());
        for rung in 0..=k {
            assert_eq!(paths[3 * rung], 1u128 << rung, "bottom of rung {rung}");
        }
        assert!(paths[3 * k] > u128::from(u64::MAX));
    }

    #[test]
    fn zero_diamonds_is_an_error() {
        assert!(diamond_ladder(0).is_err());
        assert!(diamond_ladder(usize::MAX / 2).is_err());
    }
}
