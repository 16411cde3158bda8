//! Compressed sparse rows: the one adjacency layout every algorithm reads.
//!
//! Vertex ids are `u32`, edge offsets `u64` (graphs with more than 4G edges still index correctly).

use anyhow::{Result, bail};
use rayon::prelude::*;

/// One direction of adjacency: `targets[offsets[v]..offsets[v + 1]]` are the neighbours of `v`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Csr {
    offsets: Vec<u64>,
    targets: Vec<u32>,
}

impl Csr {
    /// Builds from raw arrays. `offsets` has `n + 1` non-decreasing entries ending at `targets.len()`.
    pub fn from_parts(offsets: Vec<u64>, targets: Vec<u32>) -> Result<Csr> {
        let Some(&last) = offsets.last() else {
            bail!("CSR offsets must have n + 1 entries");
        };
        if last as usize != targets.len() || offsets.windows(2).any(|w| w[0] > w[1]) {
            bail!("CSR offsets are not a non-decreasing prefix of the target array");
        }
        let n = offsets.len() - 1;
        if targets.iter().any(|&t| t as usize >= n) {
            bail!("CSR target out of range 0..{n}");
        }
        Ok(Csr { offsets, targets })
    }

    /// An empty adjacency on `n` vertices.
    pub fn empty(n: usize) -> Csr {
        Csr { offsets: vec![0; n + 1], targets: Vec::new() }
    }

    pub fn num_vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn num_edges(&self) -> usize {
        self.targets.len()
    }

    #[inline]
    pub fn neighbors(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.targets[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }

    #[inline]
    pub fn degree(&self, v: u32) -> usize {
        let v = v as usize;
        (self.offsets[v + 1] - self.offsets[v]) as usize
    }

    pub fn offsets(&self) -> &[u64] {
        &self.offsets
    }

    pub fn targets(&self) -> &[u32] {
        &self.targets
    }

    /// Bytes held by the two arrays (for memory accounting).
    pub fn heap_bytes(&self) -> usize {
        self.offsets.len() * 8 + self.targets.len() * 4
    }

    /// The reverse adjacency. Sources are visited in increasing order, so every reversed list comes
    /// out sorted by id without a sort.
    pub fn transpose(&self) -> Csr {
        let n = self.num_vertices();
        let mut counts = vec![0u64; n + 1];
        for &t in &self.targets {
            counts[t as usize + 1] += 1;
        }
        for i in 0..n {
            counts[i + 1] += counts[i];
        }
        let offsets = counts.clone();
        let mut cursor = counts;
        let mut targets = vec![0u32; self.targets.len()];
        for v in 0..n as u32 {
            for &t in self.neighbors(v) {
                let slot = &mut cursor[t as usize];
                targets[*slot as usize] = v;
                *slot += 1;
            }
        }
        Csr { offsets, targets }
    }

    /// Same structure with every list reordered by `key` (ties keep their relative order).
    pub fn sorted_by_key<K: Ord>(&self, key: impl Fn(u32) -> K + Sync) -> Csr {
        let mut targets = self.targets.clone();
        par_for_each_list(&self.offsets, &mut targets, |list| list.sort_by_key(|&t| key(t)));
        Csr { offsets: self.offsets.clone(), targets }
    }
}

/// Runs `f` on every adjacency list of a CSR in parallel.
fn par_for_each_list(offsets: &[u64], targets: &mut [u32], f: impl Fn(&mut [u32]) + Sync) {
    // Cut the target array into one mutable slice per vertex, then hand them to rayon.
    let mut lists: Vec<&mut [u32]> = Vec::with_capacity(offsets.len().saturating_sub(1));
    let mut rest = targets;
    for w in offsets.windows(2) {
        let (head, tail) = rest.split_at_mut((w[1] - w[0]) as usize);
        lists.push(head);
        rest = tail;
    }
    lists.into_par_iter().with_min_len(1024).for_each(&f);
}

/// A directed graph: children and parents, both sorted by id, no self-loops, no duplicate edges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    children: Csr,
    parents: Csr,
}

impl Graph {
    /// Builds from an edge list on vertices `0..n`: drops self-loops and duplicates, sorts lists.
    /// An endpoint `>= n` is an error (parsers check earlier and name the line; this is the backstop).
    pub fn from_edges(n: usize, edges: &[(u32, u32)]) -> Result<Graph> {
        if n > u32::MAX as usize {
            bail!("{n} vertices do not fit 32-bit vertex ids");
        }
        let mut counts = vec![0u64; n + 1];
        for &(u, v) in edges {
            if u as usize >= n || v as usize >= n {
                bail!("edge {u} -> {v} names a vertex outside 0..{n}");
            }
            if u != v {
                counts[u as usize + 1] += 1;
            }
        }
        for i in 0..n {
            counts[i + 1] += counts[i];
        }
        let mut cursor = counts.clone();
        let mut targets = vec![0u32; counts[n] as usize];
        for &(u, v) in edges {
            if u != v {
                let slot = &mut cursor[u as usize];
                targets[*slot as usize] = v;
                *slot += 1;
            }
        }
        par_for_each_list(&counts, &mut targets, |l| l.sort_unstable());
        Ok(Self::from_sorted_lists(counts, targets))
    }

    /// Builds from one list of children per vertex (any order, duplicates allowed).
    pub fn from_adjacency(lists: &[Vec<u32>]) -> Result<Graph> {
        let edges: Vec<(u32, u32)> =
            lists.iter().enumerate().flat_map(|(u, l)| l.iter().map(move |&v| (u as u32, v))).collect();
        Self::from_edges(lists.len(), &edges)
    }

    /// Removes duplicates from sorted lists (in place, one pass) and builds parents.
    fn from_sorted_lists(offsets: Vec<u64>, mut targets: Vec<u32>) -> Graph {
        let n = offsets.len() - 1;
        let mut new_offsets = Vec::with_capacity(n + 1);
        new_offsets.push(0u64);
        let mut write = 0usize;
        for v in 0..n {
            let (start, end) = (offsets[v] as usize, offsets[v + 1] as usize);
            let mut prev = None;
            for read in start..end {
                let t = targets[read];
                if prev != Some(t) {
                    targets[write] = t;
                    write += 1;
                    prev = Some(t);
                }
            }
            new_offsets.push(write as u64);
        }
        targets.truncate(write);
        targets.shrink_to_fit();
        let children = Csr { offsets: new_offsets, targets };
        let parents = children.transpose();
        Graph { children, parents }
    }

    /// Builds from a children CSR whose lists are sorted and duplicate-free (checked).
    pub fn from_children(children: Csr) -> Result<Graph> {
        for v in 0..children.num_vertices() as u32 {
            let l = children.neighbors(v);
            if l.windows(2).any(|w| w[0] >= w[1]) || l.contains(&v) {
                bail!("children of {v} are not sorted, unique and loop-free");
            }
        }
        let parents = children.transpose();
        Ok(Graph { children, parents })
    }

    pub fn num_vertices(&self) -> usize {
        self.children.num_vertices()
    }

    pub fn num_edges(&self) -> usize {
        self.children.num_edges()
    }

    #[inline]
    pub fn children(&self, v: u32) -> &[u32] {
        self.children.neighbors(v)
    }

    #[inline]
    pub fn parents(&self, v: u32) -> &[u32] {
        self.parents.neighbors(v)
    }

    pub fn children_csr(&self) -> &Csr {
        &self.children
    }

    pub fn parents_csr(&self) -> &Csr {
        &self.parents
    }

    /// Vertices without parents, by increasing id.
    pub fn roots(&self) -> Vec<u32> {
        (0..self.num_vertices() as u32).filter(|&v| self.parents.degree(v) == 0).collect()
    }

    /// Vertices without children, by increasing id.
    pub fn leaves(&self) -> Vec<u32> {
        (0..self.num_vertices() as u32).filter(|&v| self.children.degree(v) == 0).collect()
    }

    /// All edges `(u, v)` in CSR order.
    pub fn edges(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.num_vertices() as u32).flat_map(move |u| self.children(u).iter().map(move |&v| (u, v)))
    }

    pub fn heap_bytes(&self) -> usize {
        self.children.heap_bytes() + self.parents.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_loops_and_duplicates_and_sorts() {
        let g = Graph::from_edges(4, &[(0, 2), (0, 1), (0, 2), (1, 1), (3, 0), (2, 3)]).unwrap();
        assert_eq!(g.children(0), &[1, 2]);
        assert_eq!(g.children(1), &[] as &[u32]);
        assert_eq!(g.parents(0), &[3]);
        assert_eq!(g.parents(2), &[0]);
        assert_eq!(g.num_edges(), 4);
        assert_eq!(g.roots(), Vec::<u32>::new());
        assert_eq!(g.leaves(), vec![1]);
    }

    #[test]
    fn out_of_range_is_an_error() {
        assert!(Graph::from_edges(2, &[(0, 2)]).is_err());
    }

    #[test]
    fn transpose_twice_is_identity() {
        let g = Graph::from_edges(5, &[(0, 4), (4, 1), (2, 1), (2, 3), (0, 3)]).unwrap();
        assert_eq!(g.parents_csr().transpose(), *g.children_csr());
    }
}
