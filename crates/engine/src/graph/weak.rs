//! Weakly connected components: the pieces a graph falls into when its edges are read without
//! their direction. `grail info` and the explorer's Graph tab report how many there are and the
//! size of the largest, because the first question about a data set is often whether it is in one
//! piece.
//!
//! A union-find over the edges, on every core. A vertex's parent is always a vertex of a smaller
//! id (two roots are joined by pointing the larger at the smaller), so parent chains only descend
//! and cannot loop; walks halve the paths they take, and nothing recurses, whatever the graph's
//! size.

use super::Graph;
use rayon::prelude::*;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

/// How many weakly connected components a graph has, and how many vertices the largest holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeakComponents {
    /// Components (an isolated vertex is one); 0 for a graph without vertices.
    pub count: u64,
    /// Vertices of the largest component; 0 for a graph without vertices.
    pub largest: u64,
}

/// The weakly connected components of `graph`.
pub fn weak_components(graph: &Graph) -> WeakComponents {
    let n = graph.num_vertices() as u32;
    let parent: Vec<AtomicU32> = (0..n).into_par_iter().map(AtomicU32::new).collect();
    let children = graph.children_csr();
    (0..n).into_par_iter().with_min_len(1 << 12).for_each(|u| {
        for &v in children.neighbors(u) {
            union(&parent, u, v);
        }
    });
    // In increasing order every parent is a root already, so one pass points each vertex at its root.
    let mut root: Vec<u32> = parent.into_iter().map(AtomicU32::into_inner).collect();
    for v in 0..root.len() {
        root[v] = root[root[v] as usize];
    }
    let mut size = vec![0u32; root.len()];
    for &r in &root {
        size[r as usize] += 1;
    }
    let count = root.par_iter().enumerate().filter(|&(v, &r)| v as u32 == r).count() as u64;
    let largest = size.par_iter().copied().max().map_or(0, u64::from);
    WeakComponents { count, largest }
}

/// The root of `x`'s set, halving the path on the way.
///
/// Relaxed loads suffice: each parent only ever moves to an ancestor in the same set, so a stale
/// value still leads to a vertex of that set, and the linking compare-exchange in [`union`] sees
/// the latest value of the root it changes.
fn find(parent: &[AtomicU32], mut x: u32) -> u32 {
    loop {
        let p = parent[x as usize].load(Relaxed);
        if p == x {
            return x;
        }
        let grandparent = parent[p as usize].load(Relaxed);
        if grandparent != p {
            // Another thread may have moved x's parent meanwhile: then its move stands.
            let _ = parent[x as usize].compare_exchange(p, grandparent, Relaxed, Relaxed);
        }
        x = grandparent;
    }
}

/// Joins the sets of `a` and `b`: the larger of their roots points at the smaller, unless another
/// thread changed that root first, in which case it tries again from the new roots.
fn union(parent: &[AtomicU32], a: u32, b: u32) {
    let (mut a, mut b) = (a, b);
    loop {
        a = find(parent, a);
        b = find(parent, b);
        if a == b {
            return;
        }
        let (high, low) = if a > b { (a, b) } else { (b, a) };
        if parent[high as usize].compare_exchange(high, low, Relaxed, Relaxed).is_ok() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(n: usize, edges: &[(u32, u32)]) -> WeakComponents {
        weak_components(&Graph::from_edges(n, edges).unwrap())
    }

    #[test]
    fn edges_join_vertices_whatever_their_direction() {
        // {0, 1, 2} through 0 -> 1 <- 2; {3, 4} through a cycle; 5 alone.
        assert_eq!(of(6, &[(0, 1), (2, 1), (3, 4), (4, 3)]), WeakComponents { count: 3, largest: 3 });
        assert_eq!(of(0, &[]), WeakComponents { count: 0, largest: 0 });
        assert_eq!(of(4, &[]), WeakComponents { count: 4, largest: 1 });
    }

    #[test]
    fn a_long_path_given_backwards_is_one_component_without_recursion() {
        // Each edge joins a new vertex to the far end of the chain built so far, from the top down.
        let n = 1_000_000u32;
        let edges: Vec<(u32, u32)> = (1..n).rev().map(|v| (v, v - 1)).collect();
        assert_eq!(of(n as usize, &edges), WeakComponents { count: 1, largest: u64::from(n) });
    }

    #[test]
    fn many_pieces_of_different_sizes_are_counted_on_every_core() {
        // Stars of 1, 2, ..., 300 vertices side by side: their centres point at their leaves.
        let (mut edges, mut start) = (Vec::new(), 0u32);
        for size in 1..=300u32 {
            edges.extend((1..size).map(|k| (start, start + k)));
            start += size;
        }
        assert_eq!(of(start as usize, &edges), WeakComponents { count: 300, largest: 300 });
    }
}
