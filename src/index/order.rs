//! The order of children lists and roots in each dimension (GUIDE.md section 2).
//!
//! `lex` sorts by vertex id. `random(seed)` sorts by the priority `mix64(seed, dim, v)`, ties by id,
//! the same mixer as `shared/tools/reference_labels.py`, so labels are reproducible everywhere.

use crate::graph::{Csr, Graph};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// How children and roots are ordered in every dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Order {
    Lex,
    Random { seed: u64 },
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Lex => write!(f, "lex"),
            Order::Random { seed } => write!(f, "random(seed {seed})"),
        }
    }
}

/// splitmix64's finaliser.
#[inline]
pub fn splitmix64(x: u64) -> u64 {
    let x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The priority of vertex `v` in dimension `dim`: `splitmix(splitmix(splitmix(seed) ^ dim) ^ v)`.
#[inline]
pub fn mix64(seed: u64, dim: u64, v: u64) -> u64 {
    splitmix64(splitmix64(splitmix64(seed) ^ dim) ^ v)
}

/// The rank of every vertex in one dimension's order: sorting any list of vertices by rank gives
/// that dimension's order. `None` for `lex`, where the rank is the id itself.
pub fn vertex_ranks(n: usize, order: Order, dim: usize) -> Option<Vec<u32>> {
    let Order::Random { seed } = order else {
        return None;
    };
    let mut by_priority: Vec<(u64, u32)> =
        (0..n as u32).into_par_iter().map(|v| (mix64(seed, dim as u64, v as u64), v)).collect();
    by_priority.par_sort_unstable();
    let mut rank = vec![0u32; n];
    for (r, &(_, v)) in by_priority.iter().enumerate() {
        rank[v as usize] = r as u32;
    }
    Some(rank)
}

/// One dimension's traversal order: children lists and roots, each in order.
/// `lex` borrows the graph's own lists (already sorted by id) instead of copying them.
#[derive(Clone, Debug)]
pub struct DimensionOrder<'a> {
    pub children: Cow<'a, Csr>,
    pub roots: Vec<u32>,
}

impl<'a> DimensionOrder<'a> {
    /// Orders `graph` (a DAG) for dimension `dim`.
    pub fn new(graph: &'a Graph, order: Order, dim: usize) -> DimensionOrder<'a> {
        let mut roots = graph.roots();
        match vertex_ranks(graph.num_vertices(), order, dim) {
            None => DimensionOrder { children: Cow::Borrowed(graph.children_csr()), roots },
            Some(rank) => {
                roots.sort_by_key(|&v| rank[v as usize]);
                let children = graph.children_csr().sorted_by_key(|c| rank[c as usize]);
                DimensionOrder { children: Cow::Owned(children), roots }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixer_matches_the_reference_script() {
        // Values printed by shared/tools/reference_labels.py's `mix`.
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(mix64(12345, 3, 99), 16_487_403_060_103_850_723);
    }

    #[test]
    fn random_order_sorts_by_priority_then_id() {
        let g = Graph::from_edges(6, &[(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]).unwrap();
        let o = DimensionOrder::new(&g, Order::Random { seed: 7 }, 2);
        let mut expect = vec![1u32, 2, 3, 4, 5];
        expect.sort_by_key(|&v| (mix64(7, 2, v as u64), v));
        assert_eq!(o.children.neighbors(0), expect.as_slice());
        let lex = DimensionOrder::new(&g, Order::Lex, 2);
        assert_eq!(lex.children.neighbors(0), &[1, 2, 3, 4, 5]);
    }
}
