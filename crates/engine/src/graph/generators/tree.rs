//! Complete `arity`-ary trees in heap layout, edges parent -> child: labels of a tree have no false
//! positives, which makes trees the baseline for the query rules.

use super::limits::{check_memory, check_vertices};
use crate::graph::{Csr, Graph};
use crate::{Error, Result};

/// The tree on `n` vertices where vertex `v`'s children are `arity * v + 1 ..= arity * v + arity`
/// (those below `n`). `arity` 1 is a chain; an `arity` of at least `n - 1` is a star.
pub fn tree(n: usize, arity: usize) -> Result<Graph> {
    check_vertices("tree", n as u64)?;
    if arity == 0 {
        return Err(Error::InvalidInput("tree: arity must be at least 1".into()));
    }
    let (n, arity) = (n as u64, arity as u64);
    check_memory("tree", n, n - 1)?;
    // The first child of v is arity * v + 1, so v's list ends where v + 1's begins; clamp to n - 1
    // children in all (saturating: a huge arity must not overflow).
    let offsets: Vec<u64> = (0..=n).map(|v| v.saturating_mul(arity).min(n - 1)).collect();
    let targets: Vec<u32> = (1..n as u32).collect();
    Graph::from_children(Csr::from_parts(offsets, targets)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::topo;

    #[test]
    fn heap_layout_children() {
        let g = tree(10, 3).unwrap();
        assert_eq!(g.children(0), &[1, 2, 3]);
        assert_eq!(g.children(2), &[7, 8, 9]);
        assert_eq!(g.children(3), &[] as &[u32]);
        assert_eq!(g.num_edges(), 9);
        assert!((1..10).all(|v| g.parents(v) == [(v - 1) / 3]));
        assert_eq!(topo::levels(&g).unwrap().0.into_iter().max(), Some(2));
    }

    #[test]
    fn star_and_errors() {
        let star = tree(6, usize::MAX).unwrap();
        assert_eq!(star.children(0), &[1, 2, 3, 4, 5]);
        assert!(tree(0, 2).is_err());
        assert!(tree(5, 0).is_err());
        assert_eq!(tree(1, 4).unwrap().num_edges(), 0);
    }
}
