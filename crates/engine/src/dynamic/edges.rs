//! The edited graph's edges: the graph as loaded, less the edges deleted since, plus the ones
//! inserted. Edits are few beside the graph, so they live in small maps beside its CSR, and reading
//! a vertex's children costs the CSR slice plus a look at the maps only where an edit touched it.

use crate::graph::Graph;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The current edge set over a base graph (ids `0..n`, no self-loops, no duplicates).
#[derive(Clone, Debug)]
pub struct EdgeOverlay {
    base: Arc<Graph>,
    added_out: HashMap<u32, Vec<u32>>,
    added_in: HashMap<u32, Vec<u32>>,
    /// Base edges deleted, and the vertices they leave and enter (so that an untouched vertex's
    /// lists are the CSR's slices, read without a hash lookup per edge).
    deleted: HashSet<(u32, u32)>,
    deleted_from: HashMap<u32, u32>,
    deleted_into: HashMap<u32, u32>,
    edges: usize,
}

impl EdgeOverlay {
    /// The base graph's edges, unedited.
    pub fn new(base: Arc<Graph>) -> EdgeOverlay {
        let edges = base.num_edges();
        EdgeOverlay {
            base,
            added_out: HashMap::new(),
            added_in: HashMap::new(),
            deleted: HashSet::new(),
            deleted_from: HashMap::new(),
            deleted_into: HashMap::new(),
            edges,
        }
    }

    /// Vertices (edits never add or remove one).
    pub fn num_vertices(&self) -> usize {
        self.base.num_vertices()
    }

    /// Edges now.
    pub fn num_edges(&self) -> usize {
        self.edges
    }

    /// True when the edge set is the base graph's.
    pub fn is_unedited(&self) -> bool {
        self.added_out.is_empty() && self.deleted.is_empty()
    }

    /// Is `u → v` an edge now?
    pub fn has_edge(&self, u: u32, v: u32) -> bool {
        let in_base = self.base.children(u).binary_search(&v).is_ok();
        if in_base {
            !self.deleted.contains(&(u, v))
        } else {
            self.added_out.get(&u).is_some_and(|out| out.contains(&v))
        }
    }

    /// Adds `u → v`; false (and nothing changes) when it is already an edge.
    pub fn insert(&mut self, u: u32, v: u32) -> bool {
        if self.has_edge(u, v) {
            return false;
        }
        if !self.deleted.remove(&(u, v)) {
            self.added_out.entry(u).or_default().push(v);
            self.added_in.entry(v).or_default().push(u);
        } else {
            decrement(&mut self.deleted_from, u);
            decrement(&mut self.deleted_into, v);
        }
        self.edges += 1;
        true
    }

    /// Removes `u → v`; false (and nothing changes) when it is not an edge.
    pub fn delete(&mut self, u: u32, v: u32) -> bool {
        if !self.has_edge(u, v) {
            return false;
        }
        if self.base.children(u).binary_search(&v).is_ok() {
            self.deleted.insert((u, v));
            *self.deleted_from.entry(u).or_default() += 1;
            *self.deleted_into.entry(v).or_default() += 1;
        } else {
            remove_value(&mut self.added_out, u, v);
            remove_value(&mut self.added_in, v, u);
        }
        self.edges -= 1;
        true
    }

    /// The children of `v` now (base children first, in id order, then inserted ones).
    #[inline]
    pub fn children(&self, v: u32) -> impl Iterator<Item = u32> + '_ {
        let trimmed = self.deleted_from.contains_key(&v);
        let base = self.base.children(v).iter().copied().filter(move |&w| !trimmed || !self.deleted.contains(&(v, w)));
        base.chain(self.added_out.get(&v).into_iter().flatten().copied())
    }

    /// The parents of `v` now.
    #[inline]
    pub fn parents(&self, v: u32) -> impl Iterator<Item = u32> + '_ {
        let trimmed = self.deleted_into.contains_key(&v);
        let base = self.base.parents(v).iter().copied().filter(move |&p| !trimmed || !self.deleted.contains(&(p, v)));
        base.chain(self.added_in.get(&v).into_iter().flatten().copied())
    }

    /// The edited graph as a graph of its own (for a rebuild, or to write it out).
    pub fn to_graph(&self) -> Graph {
        if self.is_unedited() {
            return (*self.base).clone();
        }
        let n = self.num_vertices();
        let mut edges = Vec::with_capacity(self.edges);
        for v in 0..n as u32 {
            edges.extend(self.children(v).map(|w| (v, w)));
        }
        Graph::from_edges(n, &edges).expect("the edited graph's ids are the base graph's")
    }

    /// Heap bytes of the edits (the base graph is shared, not counted).
    pub fn heap_bytes(&self) -> usize {
        let lists = |map: &HashMap<u32, Vec<u32>>| map.values().map(|l| 16 + 4 * l.capacity()).sum::<usize>();
        lists(&self.added_out)
            + lists(&self.added_in)
            + 12 * self.deleted.capacity()
            + 16 * self.deleted_from.capacity()
    }
}

fn decrement(counts: &mut HashMap<u32, u32>, key: u32) {
    if let Some(count) = counts.get_mut(&key) {
        *count -= 1;
        if *count == 0 {
            counts.remove(&key);
        }
    }
}

fn remove_value(map: &mut HashMap<u32, Vec<u32>>, key: u32, value: u32) {
    if let Some(list) = map.get_mut(&key) {
        list.retain(|&w| w != value);
        if list.is_empty() {
            map.remove(&key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_and_deletes_change_both_directions() {
        let base = Arc::new(Graph::from_edges(4, &[(0, 1), (1, 2)]).unwrap());
        let mut edges = EdgeOverlay::new(base);
        assert!(edges.insert(2, 3));
        assert!(!edges.insert(2, 3), "already an edge");
        assert!(edges.delete(0, 1));
        assert!(!edges.delete(0, 1), "no longer an edge");
        assert!(edges.insert(0, 1), "a deleted base edge comes back");
        assert!(edges.delete(1, 2));
        let children = |v| edges.children(v).collect::<Vec<_>>();
        assert_eq!((children(0), children(1), children(2)), (vec![1], vec![], vec![3]));
        assert_eq!(edges.parents(3).collect::<Vec<_>>(), [2]);
        assert_eq!(edges.num_edges(), 2);
        assert_eq!(edges.to_graph(), Graph::from_edges(4, &[(0, 1), (2, 3)]).unwrap());
    }
}
