//! Supportive vertices (O'Reach's idea): a few well-connected vertices whose full reachability is
//! stored as one bit each per vertex. `u ⇝ s ⇝ v` proves `u ⇝ v`; `s ⇝ u` but `s ⇏ v`, or
//! `v ⇝ s` but `u ⇏ s`, disproves it.

use crate::graph::Graph;
use std::collections::BinaryHeap;

/// Words of each supportive-vertex mask.
pub const SUPPORT_WORDS: usize = 2;
/// Supportive vertices kept (one bit each in a mask per direction).
pub const SUPPORT_BITS: usize = 64 * SUPPORT_WORDS;

/// A mask with one bit per supportive vertex.
pub type SupportMask = [u64; SUPPORT_WORDS];

/// The `count` vertices with the most paths through them by degree: `(in + 1) · (out + 1)`, the
/// number of parent-child pairs a vertex joins (a hub with thousands of children comes first, so a
/// search meets it already decided and never scans its children). Ties go to the smaller id.
///
/// One pass over the degrees, keeping the best `count` seen so far in a heap whose top is the worst
/// of them: a vertex enters only if it beats that one.
pub fn choose_supportive(dag: &Graph, count: usize) -> Vec<u32> {
    use std::cmp::Reverse;
    let (parents, children) = (dag.parents_csr().offsets(), dag.children_csr().offsets());
    let mut best: BinaryHeap<(Reverse<u64>, u32)> = BinaryHeap::with_capacity(count + 1);
    for v in 0..dag.num_vertices() {
        let (ins, outs) = (parents[v + 1] - parents[v], children[v + 1] - children[v]);
        if ins + outs == 0 || count == 0 {
            continue;
        }
        let key = (Reverse((ins + 1) * (outs + 1)), v as u32);
        if best.len() < count {
            best.push(key);
        } else if best.peek().is_some_and(|worst| key < *worst) {
            best.pop();
            best.push(key);
        }
    }
    best.into_sorted_vec().into_iter().map(|(_, v)| v).collect()
}

/// Per vertex, `(from, to)`: bit `i` of `from[x]` says `supportive[i] ⇝ x`, of `to[x]` that
/// `x ⇝ supportive[i]` (each vertex reaches itself). One pass each way along `topological`: the
/// reference the DFS passes of `index_passes` are checked against.
#[cfg(test)]
pub fn support_bits(dag: &Graph, topological: &[u32], supportive: &[u32]) -> (Vec<SupportMask>, Vec<SupportMask>) {
    let n = dag.num_vertices();
    let mut own = vec![[0u64; SUPPORT_WORDS]; n];
    for (i, &s) in supportive.iter().enumerate() {
        own[s as usize][i / 64] |= 1 << (i % 64);
    }
    let or = |acc: SupportMask, other: &SupportMask| std::array::from_fn(|w| acc[w] | other[w]);
    let mut from = own.clone();
    for &x in topological {
        let bits = dag.parents(x).iter().fold(from[x as usize], |acc, &p| or(acc, &from[p as usize]));
        from[x as usize] = bits;
    }
    let mut to = own;
    for &x in topological.iter().rev() {
        let bits = dag.children(x).iter().fold(to[x as usize], |acc, &c| or(acc, &to[c as usize]));
        to[x as usize] = bits;
    }
    (from, to)
}

/// Whether bit `i` of `mask` is set.
#[inline]
pub fn has_bit(mask: &SupportMask, i: usize) -> bool {
    mask[i / 64] >> (i % 64) & 1 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hub_is_chosen_first() {
        // 0 -> 1 -> {2..8}: vertex 1 joins one parent to seven children.
        let mut edges = vec![(0, 1)];
        edges.extend((2..9).map(|c| (1, c)));
        let g = Graph::from_edges(10, &edges).unwrap();
        let chosen = choose_supportive(&g, 2);
        assert_eq!(chosen[0], 1);
        // Vertex 9 is isolated: never chosen, it cannot help any query.
        assert!(!choose_supportive(&g, 64).contains(&9));
    }

    #[test]
    fn the_heap_keeps_the_best_scores_smaller_ids_first() {
        // A star 0 -> 1..=40 and chains of ties: the heap must agree with sorting every vertex.
        let mut edges: Vec<(u32, u32)> = (1..=40).map(|c| (0, c)).collect();
        edges.extend((41..200u32).map(|v| (v, v + 1 + v % 3)));
        let g = Graph::from_edges(210, &edges).unwrap();
        let score = |v: u32| (g.parents(v).len() as u64 + 1) * (g.children(v).len() as u64 + 1);
        let mut all: Vec<u32> = (0..210).filter(|&v| g.parents(v).len() + g.children(v).len() > 0).collect();
        all.sort_by_key(|&v| (std::cmp::Reverse(score(v)), v));
        for count in [0, 1, 5, 64, 300] {
            assert_eq!(choose_supportive(&g, count), all[..count.min(all.len())], "count {count}");
        }
    }
}
