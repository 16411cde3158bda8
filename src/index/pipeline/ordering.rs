//! One dimension's order, owned: the pipeline keeps it across many `step_level` calls while the
//! labeler holds the graph in an `Arc`, so it cannot keep [`DimensionOrder`]'s borrow of the graph.
//!
//! It is built with the same functions as [`DimensionOrder::new`] (`vertex_ranks`, `sorted_by_key`),
//! and a test checks both give the same lists.
//!
//! [`DimensionOrder`]: crate::index::order::DimensionOrder
//! [`DimensionOrder::new`]: crate::index::order::DimensionOrder::new

use crate::graph::{Csr, Graph};
use crate::index::order::{Order, vertex_ranks};

/// Children lists and roots of one dimension, plus the rank that orders them.
#[derive(Clone, Debug)]
pub struct OwnedOrder {
    /// `rank[v]`: position of `v` in the dimension's global order; `None` for `lex` (rank = id).
    ranks: Option<Vec<u32>>,
    /// Children sorted by rank; `None` for `lex`, whose lists are the graph's own.
    children: Option<Csr>,
    /// Roots sorted by rank: the ordered children of the virtual root ρ.
    roots: Vec<u32>,
}

impl OwnedOrder {
    pub fn new(dag: &Graph, order: Order, dim: usize) -> OwnedOrder {
        let mut roots = dag.roots();
        match vertex_ranks(dag.num_vertices(), order, dim) {
            None => OwnedOrder { ranks: None, children: None, roots },
            Some(ranks) => {
                roots.sort_by_key(|&v| ranks[v as usize]);
                let children = dag.children_csr().sorted_by_key(|c| ranks[c as usize]);
                OwnedOrder { ranks: Some(ranks), children: Some(children), roots }
            }
        }
    }

    /// The sort key of `v`. Every ordered list (children of any vertex, roots) is sorted by it, so
    /// "rank of x in a's children < rank of y in a's children" is simply `key(x) < key(y)`.
    #[inline]
    pub fn key(&self, v: u32) -> u32 {
        self.ranks.as_ref().map_or(v, |r| r[v as usize])
    }

    /// `v`'s children in this dimension's order.
    #[inline]
    pub fn children<'a>(&'a self, dag: &'a Graph, v: u32) -> &'a [u32] {
        match &self.children {
            Some(csr) => csr.neighbors(v),
            None => dag.children(v),
        }
    }

    /// Position of `child` in `parent`'s ordered children (binary search by key), with the offset of
    /// `parent`'s list in the CSR edge arrays (sorted lists keep the graph's offsets).
    #[inline]
    pub fn child_slot(&self, dag: &Graph, parent: u32, child: u32) -> usize {
        let key = self.key(child);
        let list = self.children(dag, parent);
        let pos = list.partition_point(|&c| self.key(c) < key);
        debug_assert_eq!(list.get(pos), Some(&child), "{child} is not a child of {parent}");
        dag.children_csr().offsets()[parent as usize] as usize + pos
    }

    pub fn roots(&self) -> &[u32] {
        &self.roots
    }

    /// All vertices sorted by key (the global order of this dimension).
    pub fn vertices_by_key(&self, n: usize) -> Vec<u32> {
        match &self.ranks {
            None => (0..n as u32).collect(),
            Some(ranks) => {
                let mut by_key = vec![0u32; n];
                for (v, &r) in ranks.iter().enumerate() {
                    by_key[r as usize] = v as u32;
                }
                by_key
            }
        }
    }

    /// Bytes this order holds beyond the graph.
    pub fn heap_bytes(&self) -> usize {
        self.ranks.as_ref().map_or(0, |r| r.len() * 4)
            + self.children.as_ref().map_or(0, Csr::heap_bytes)
            + self.roots.len() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::order::DimensionOrder;

    #[test]
    fn same_lists_as_dimension_order() {
        let edges = [(0, 3), (0, 1), (0, 2), (1, 4), (2, 4), (3, 4), (5, 4), (6, 0)];
        let g = Graph::from_edges(7, &edges).unwrap();
        for order in [Order::Lex, Order::Random { seed: 9 }] {
            for dim in 0..3 {
                let ours = OwnedOrder::new(&g, order, dim);
                let theirs = DimensionOrder::new(&g, order, dim);
                assert_eq!(ours.roots(), theirs.roots.as_slice());
                for v in 0..7 {
                    assert_eq!(ours.children(&g, v), theirs.children.neighbors(v));
                    let keys: Vec<u32> = ours.children(&g, v).iter().map(|&c| ours.key(c)).collect();
                    assert!(keys.windows(2).all(|w| w[0] < w[1]), "lists are sorted by key");
                    for (pos, &c) in ours.children(&g, v).iter().enumerate() {
                        let start = g.children_csr().offsets()[v as usize] as usize;
                        assert_eq!(ours.child_slot(&g, v, c), start + pos);
                    }
                }
                let by_key = ours.vertices_by_key(7);
                assert!(by_key.windows(2).all(|w| ours.key(w[0]) < ours.key(w[1])));
            }
        }
    }
}
