//! Exact reachability, for tests and for checking answers: a plain BFS and a transitive closure.
//!
//! Deliberately simple and independent of the labels, so the engine can be checked against it.

use crate::graph::{Graph, scc, topo};
use crate::{Error, Result};
use std::collections::VecDeque;
use std::sync::Arc;

/// Does `u` reach `v` in `graph` (any digraph)? A fresh BFS per call: O(n + m), for tests.
pub fn reachable_bfs(graph: &Graph, u: u32, v: u32) -> bool {
    if u == v {
        return true;
    }
    let mut seen = vec![false; graph.num_vertices()];
    let mut queue = VecDeque::from([u]);
    seen[u as usize] = true;
    while let Some(x) = queue.pop_front() {
        for &c in graph.children(x) {
            if c == v {
                return true;
            }
            if !seen[c as usize] {
                seen[c as usize] = true;
                queue.push_back(c);
            }
        }
    }
    false
}

/// The full reachability relation of a graph as a bit matrix over its components.
#[derive(Clone, Debug)]
pub struct TransitiveClosure {
    /// Component of each original vertex.
    component: Vec<u32>,
    /// Original vertices per component.
    sizes: Vec<u32>,
    /// u64 words per row.
    words: usize,
    /// Row `c` has bit `d` set when component `c` reaches component `d` (itself included).
    bits: Vec<u64>,
}

impl TransitiveClosure {
    /// The largest graph accepted: the matrix has n² bits (50 000 vertices = 312 MB).
    pub const MAX_VERTICES: usize = 50_000;

    /// Builds the closure of any digraph: condense, then in reverse topological order each row is
    /// its own bit OR-ed with its children's rows.
    pub fn new(graph: &Graph) -> Result<TransitiveClosure> {
        let n = graph.num_vertices();
        if n > Self::MAX_VERTICES {
            return Err(Error::InvalidInput(format!(
                "the exact oracle handles at most {} vertices (its matrix has n² bits); this graph has {n}",
                Self::MAX_VERTICES
            )));
        }
        let condensation = scc::condense(&Arc::new(graph.clone()));
        let dag = &condensation.dag;
        let order = topo::kahn(dag)?.order;
        let components = dag.num_vertices();
        let words = components.div_ceil(64);
        let mut bits = vec![0u64; components * words];
        for &c in order.iter().rev() {
            let c = c as usize;
            bits[c * words + c / 64] |= 1 << (c % 64);
            for &child in dag.children(c as u32) {
                let child = child as usize;
                // Children come later in topological order, so their rows are complete; the rows
                // are distinct, so split the matrix to borrow one mutably and one immutably.
                let (row, child_row) = if child > c {
                    let (head, tail) = bits.split_at_mut(child * words);
                    (&mut head[c * words..(c + 1) * words], &tail[..words])
                } else {
                    let (head, tail) = bits.split_at_mut(c * words);
                    (&mut tail[..words], &head[child * words..(child + 1) * words])
                };
                row.iter_mut().zip(child_row).for_each(|(a, b)| *a |= b);
            }
        }
        Ok(TransitiveClosure { component: condensation.component, sizes: condensation.sizes, words, bits })
    }

    /// Does original vertex `u` reach original vertex `v`? (`u` reaches itself.)
    #[inline]
    pub fn reachable(&self, u: u32, v: u32) -> bool {
        let (cu, cv) = (self.component[u as usize] as usize, self.component[v as usize] as usize);
        self.bits[cu * self.words + cv / 64] >> (cv % 64) & 1 == 1
    }

    /// Ordered pairs `(u, v)` of distinct original vertices with `u ⇝ v`.
    pub fn count_reachable_pairs(&self) -> u64 {
        let mut pairs = 0u64;
        for (c, row) in self.bits.chunks_exact(self.words.max(1)).enumerate() {
            let own = self.sizes[c] as u64;
            for (w, &word) in row.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    let d = w * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    let other = self.sizes[d] as u64;
                    // Inside one component every vertex reaches every other one.
                    pairs += if d == c { own * (own - 1) } else { own * other };
                }
            }
        }
        pairs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closure_of_a_graph_with_a_cycle() {
        // 0 -> 1 -> 2 -> 1 (cycle {1, 2}), 2 -> 3; 4 isolated.
        let g = Graph::from_edges(5, &[(0, 1), (1, 2), (2, 1), (2, 3)]).unwrap();
        let tc = TransitiveClosure::new(&g).unwrap();
        assert!(tc.reachable(0, 3) && tc.reachable(2, 1) && tc.reachable(1, 2) && tc.reachable(4, 4));
        assert!(!tc.reachable(3, 0) && !tc.reachable(4, 0) && !tc.reachable(0, 4));
        // 0 -> {1,2,3}; 1 -> {2,3}; 2 -> {1,3}.
        assert_eq!(tc.count_reachable_pairs(), 7);
        for u in 0..5 {
            for v in 0..5 {
                assert_eq!(tc.reachable(u, v), reachable_bfs(&g, u, v), "{u} -> {v}");
            }
        }
    }

    #[test]
    fn refuses_huge_graphs_and_handles_empty_ones() {
        let big = Graph::from_edges(TransitiveClosure::MAX_VERTICES + 1, &[]).unwrap();
        assert!(TransitiveClosure::new(&big).is_err());
        assert_eq!(TransitiveClosure::new(&Graph::from_edges(0, &[]).unwrap()).unwrap().count_reachable_pairs(), 0);
    }
}
