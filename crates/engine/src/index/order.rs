//! The order of children lists and roots in each dimension (docs/ALGORITHMS.md, section 2).
//!
//! `lex` sorts by vertex id. `random(seed)` sorts by the priority `mix64(seed, dim, v)`, ties by id,
//! a mixer defined in docs/ALGORITHMS.md (section 2) to the bit, so labels are reproducible everywhere.
//! [`DimensionOrder`] owns its lists, so a labeler can keep it across many steps.

use crate::graph::{Csr, Graph};
pub use crate::mix::{mix64, splitmix64};
use rayon::prelude::*;
use rdst::{RadixKey, RadixSort};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

/// How children and roots are ordered in every dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Order {
    /// By increasing vertex id, the same in every dimension.
    Lex,
    /// By a priority that `seed` and the dimension draw for each vertex: another order per dimension.
    Random {
        /// The seed of every dimension's priorities.
        seed: u64,
    },
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Lex => write!(f, "id order (lex)"),
            Order::Random { seed } => write!(f, "random order, seed {seed}"),
        }
    }
}

/// Every vertex sorted by its priority in dimension `dim` (`random` orders only). splitmix64 is a
/// bijection, so `mix64(seed, dim, ·)` never ties and the id tie-break of the guide never fires.
pub fn priority_order(n: usize, seed: u64, dim: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    sort_by_priority(crate::mix::mix_base(seed, dim as u64), &mut order, &mut Vec::new());
    order
}

/// A vertex beside the top half of its priority: what [`sort_by_priority`] sorts.
#[derive(Clone, Copy)]
pub struct PriorityKey(u64);

impl RadixKey for PriorityKey {
    const LEVELS: usize = 4;

    /// Byte `level` of the priority's top half, the least significant first.
    #[inline]
    fn get_level(&self, level: usize) -> u8 {
        (self.0 >> (32 + 8 * level)) as u8
    }
}

/// From this many vertices on, [`sort_by_priority`] runs on every core of the pool.
const PARALLEL_SORT: usize = 1 << 16;

/// Sorts `vertices` by increasing priority in the dimension whose base is `base`.
/// Labeling a graph of millions of vertices spends a visible share of its time here, so this is a
/// radix sort of each vertex beside its priority's top half (four passes where the priority alone
/// would take eight), then the few runs whose top halves tie (about 300 among 1.5 million vertices)
/// sorted by whole priorities: 13-21 ms for 1.56 million vertices where sorting the priorities
/// took 25-33 ms (dev box, one thread). `keys` is scratch.
pub fn sort_by_priority(base: u64, vertices: &mut [u32], keys: &mut Vec<PriorityKey>) {
    let priority = |v: u32| crate::mix::priority(base, v);
    let key = |&v: &u32| PriorityKey((priority(v) & !u64::from(u32::MAX)) | u64::from(v));
    keys.clear();
    if rayon::current_num_threads() == 1 || vertices.len() < PARALLEL_SORT {
        keys.extend(vertices.iter().map(key));
        keys.radix_sort_builder().with_single_threaded_tuner().sort();
    } else {
        keys.par_extend(vertices.par_iter().map(key));
        keys.radix_sort_unstable();
    }
    let top = |k: &PriorityKey| k.0 >> 32;
    let mut i = 0;
    while i < keys.len() {
        let j = i + keys[i..].iter().take_while(|k| top(k) == top(&keys[i])).count();
        if j - i > 1 {
            keys[i..j].sort_unstable_by_key(|k| priority(k.0 as u32));
        }
        i = j;
    }
    vertices.par_iter_mut().zip(keys.par_iter()).with_min_len(PARALLEL_SORT).for_each(|(v, k)| *v = k.0 as u32);
}

/// One dimension's keys (`None` for `lex`, where the key is the id) and its roots in key order:
/// all a labeler needs when it compares keys instead of walking sorted lists.
pub fn keys_and_roots(dag: &Graph, order: Order, dim: usize) -> (Option<Vec<u32>>, Vec<u32>) {
    let Order::Random { seed } = order else {
        return (None, dag.roots());
    };
    let by_priority = priority_order(dag.num_vertices(), seed, dim);
    // The inverse permutation, scattered by every core (a million random writes took longer on one
    // than the sort itself on all); each slot is written once.
    let ranks: Vec<AtomicU32> = bytemuck::zeroed_vec(by_priority.len());
    by_priority.par_iter().enumerate().for_each(|(r, &v)| ranks[v as usize].store(r as u32, Relaxed));
    // In place: the standard library reuses the allocation for a type of the same layout.
    let ranks: Vec<u32> = ranks.into_iter().map(AtomicU32::into_inner).collect();
    // Filtering the global order keeps the roots sorted without a second sort.
    let roots = by_priority.par_iter().copied().filter(|&v| dag.parents(v).is_empty()).collect();
    (Some(ranks), roots)
}

/// One dimension's traversal order: children lists and roots, each in order, and the rank that
/// orders them. `lex` keeps no copies (ranks are ids, lists are the graph's own).
#[derive(Clone, Debug)]
pub struct DimensionOrder {
    /// `rank[v]`: position of `v` in the dimension's global order; `None` for `lex` (rank = id).
    ranks: Option<Vec<u32>>,
    children: Lists,
    /// Roots sorted by rank: the ordered children of the virtual root ρ.
    roots: Vec<u32>,
}

/// Where a dimension's ordered children lists are.
#[derive(Clone, Debug)]
enum Lists {
    /// `lex`: the graph's own lists, already sorted by id.
    Graph,
    /// Children sorted by rank.
    Sorted(Csr),
    /// Not built ([`DimensionOrder::keys_only`]).
    Absent,
}

impl DimensionOrder {
    /// Orders `dag` for dimension `dim`.
    pub fn new(dag: &Graph, order: Order, dim: usize) -> DimensionOrder {
        let (ranks, roots) = keys_and_roots(dag, order, dim);
        let children = match &ranks {
            Some(ranks) => Lists::Sorted(dag.children_csr().sorted_by_key(|c| ranks[c as usize])),
            None => Lists::Graph,
        };
        DimensionOrder { ranks, children, roots }
    }

    /// The keys and roots without the ordered children lists, for labelers that compare keys and
    /// never walk a list in order (the exact BFS pipeline): sorting every list is an O(m log d)
    /// pass over the edges, as long as labeling a dimension itself. Asking such an order for its
    /// lists is a bug and panics.
    pub fn keys_only(dag: &Graph, order: Order, dim: usize) -> DimensionOrder {
        let (ranks, roots) = keys_and_roots(dag, order, dim);
        let children = if ranks.is_some() { Lists::Absent } else { Lists::Graph };
        DimensionOrder { ranks, children, roots }
    }

    /// The sort key of `v`. Every ordered list (children of any vertex, roots) is sorted by it, so
    /// "rank of x in a's children < rank of y in a's children" is simply `key(x) < key(y)`.
    #[inline]
    pub fn key(&self, v: u32) -> u32 {
        self.ranks.as_ref().map_or(v, |r| r[v as usize])
    }

    /// Asks for `v`'s key to be brought into the cache.
    #[inline]
    pub fn prefetch_key(&self, v: u32) {
        if let Some(ranks) = &self.ranks {
            crate::prefetch::prefetch(ranks, v as usize);
        }
    }

    /// `v`'s children in this dimension's order.
    #[inline]
    pub fn children<'a>(&'a self, dag: &'a Graph, v: u32) -> &'a [u32] {
        self.children_csr(dag).neighbors(v)
    }

    /// The ordered children lists as one CSR (the graph's own for `lex`).
    pub fn children_csr<'a>(&'a self, dag: &'a Graph) -> &'a Csr {
        match &self.children {
            Lists::Graph => dag.children_csr(),
            Lists::Sorted(csr) => csr,
            Lists::Absent => panic!("this order was built without its children lists (DimensionOrder::keys_only)"),
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

    /// The roots in this dimension's order.
    pub fn roots(&self) -> &[u32] {
        &self.roots
    }

    /// Bytes this order holds beyond the graph.
    pub fn heap_bytes(&self) -> usize {
        let lists = match &self.children {
            Lists::Sorted(csr) => csr.heap_bytes(),
            Lists::Graph | Lists::Absent => 0,
        };
        self.ranks.as_ref().map_or(0, |r| r.len() * 4) + lists + self.roots.len() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixer_matches_the_reference_script() {
        // The reference values of docs/ALGORITHMS.md, section 2 (printed by an independent Python
        // implementation of the definition).
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(mix64(12345, 3, 99), 16_487_403_060_103_850_723);
    }

    #[test]
    fn random_order_sorts_by_priority_then_id() {
        let g = Graph::from_edges(6, &[(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]).unwrap();
        let o = DimensionOrder::new(&g, Order::Random { seed: 7 }, 2);
        let mut expect = vec![1u32, 2, 3, 4, 5];
        expect.sort_by_key(|&v| (mix64(7, 2, v as u64), v));
        assert_eq!(o.children(&g, 0), expect.as_slice());
        let lex = DimensionOrder::new(&g, Order::Lex, 2);
        assert_eq!(lex.children(&g, 0), &[1, 2, 3, 4, 5]);
    }

    #[test]
    fn priority_order_sorts_by_priority() {
        for n in [0usize, 1, 2, 3, 1000, 70_000] {
            let order = priority_order(n, 5, 1);
            let mut expect: Vec<u32> = (0..n as u32).collect();
            expect.sort_by_key(|&v| mix64(5, 1, v as u64));
            assert_eq!(order, expect, "n = {n}");
        }
    }

    #[test]
    fn roots_children_and_slots_follow_the_keys() {
        let edges = [(0, 3), (0, 1), (0, 2), (1, 4), (2, 4), (3, 4), (5, 4), (6, 0)];
        let g = Graph::from_edges(7, &edges).unwrap();
        for order in [Order::Lex, Order::Random { seed: 9 }] {
            for dim in 0..3 {
                let o = DimensionOrder::new(&g, order, dim);
                let mut roots = g.roots();
                roots.sort_by_key(|&v| o.key(v));
                assert_eq!(o.roots(), roots.as_slice());
                for v in 0..7 {
                    let mut expect = g.children(v).to_vec();
                    expect.sort_by_key(|&c| o.key(c));
                    assert_eq!(o.children(&g, v), expect.as_slice());
                    let keys: Vec<u32> = o.children(&g, v).iter().map(|&c| o.key(c)).collect();
                    assert!(keys.windows(2).all(|w| w[0] < w[1]), "lists are sorted by key");
                    for (pos, &c) in o.children(&g, v).iter().enumerate() {
                        let start = g.children_csr().offsets()[v as usize] as usize;
                        assert_eq!(o.child_slot(&g, v, c), start + pos);
                    }
                }
                let keys_only = DimensionOrder::keys_only(&g, order, dim);
                assert!((0..7).all(|v| keys_only.key(v) == o.key(v)));
                assert_eq!(keys_only.roots(), o.roots());
                if let Order::Random { seed } = order {
                    // The keys are the positions in the priority order.
                    for (rank, v) in priority_order(7, seed, dim).into_iter().enumerate() {
                        assert_eq!(o.key(v), rank as u32);
                    }
                }
            }
        }
    }
}
