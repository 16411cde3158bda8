//! The edited graph's strongly connected components, kept current edit by edit: an insert that
//! closes a cycle merges the components on it, a delete inside a component may split it. The
//! components of the graph as loaded keep their ids; a split's new pieces get fresh ones.

use super::edges::EdgeOverlay;
use crate::graph::Graph;
use crate::graph::scc::{self, Condensation};
use std::collections::HashMap;
use std::sync::Arc;

/// Each vertex's component, and each component's members.
#[derive(Clone, Debug)]
pub struct LiveComponents {
    component: Vec<u32>,
    /// The loaded graph's components' members, as a CSR by component id; empty when every
    /// component was one vertex (a DAG), whose members are then its own id (see `members`).
    base_offsets: Vec<u32>,
    base_members: Vec<u32>,
    /// Members of the components an edit changed or made (empty for one merged away).
    changed: HashMap<u32, Vec<u32>>,
    ids: u32,
    live: usize,
}

impl LiveComponents {
    /// The components of the graph as loaded.
    pub fn new(condensation: &Condensation) -> LiveComponents {
        let k = condensation.num_components();
        if condensation.is_identity() {
            return LiveComponents {
                component: condensation.component.clone(),
                base_offsets: Vec::new(),
                base_members: Vec::new(),
                changed: HashMap::new(),
                ids: k as u32,
                live: k,
            };
        }
        let mut base_offsets = vec![0u32; k + 1];
        for (c, &size) in condensation.sizes.iter().enumerate() {
            base_offsets[c + 1] = base_offsets[c] + size;
        }
        let mut fill = base_offsets.clone();
        let mut base_members = vec![0u32; condensation.component.len()];
        for (v, &c) in condensation.component.iter().enumerate() {
            base_members[fill[c as usize] as usize] = v as u32;
            fill[c as usize] += 1;
        }
        LiveComponents {
            component: condensation.component.clone(),
            base_offsets,
            base_members,
            changed: HashMap::new(),
            ids: k as u32,
            live: k,
        }
    }

    /// The component of vertex `v`.
    #[inline]
    pub fn of(&self, v: u32) -> u32 {
        self.component[v as usize]
    }

    /// The members of component `c` (none for an id merged away).
    pub fn members(&self, c: u32) -> &[u32] {
        match self.changed.get(&c) {
            Some(members) => members,
            // A DAG's component `c` is vertex `c`, and while no edit changed it, `c`'s component
            // is still `c`: the one-element slice of its own entry.
            None if self.base_offsets.is_empty() => std::slice::from_ref(&self.component[c as usize]),
            None => {
                &self.base_members[self.base_offsets[c as usize] as usize..self.base_offsets[c as usize + 1] as usize]
            }
        }
    }

    /// Component ids in use or used (labels are kept by id, so this bounds them).
    pub fn id_bound(&self) -> usize {
        self.ids as usize
    }

    /// Components now.
    pub fn count(&self) -> usize {
        self.live
    }

    /// Each vertex's component id (ids below [`LiveComponents::id_bound`], not dense).
    pub fn per_vertex(&self) -> &[u32] {
        &self.component
    }

    /// Merges the components `ids` (distinct, at least two) into the one with the most members;
    /// returns its id.
    pub fn merge(&mut self, ids: &[u32]) -> u32 {
        let &into = ids.iter().max_by_key(|&&c| (self.members(c).len(), std::cmp::Reverse(c))).expect("ids to merge");
        let mut members = self.members(into).to_vec();
        for &c in ids.iter().filter(|&&c| c != into) {
            let moved = self.members(c).to_vec();
            for &m in &moved {
                self.component[m as usize] = into;
            }
            members.extend_from_slice(&moved);
            self.changed.insert(c, Vec::new());
        }
        members.sort_unstable();
        self.changed.insert(into, members);
        self.live -= ids.len() - 1;
        into
    }

    /// Splits component `c` into the strongly connected pieces of its members under `edges`;
    /// returns the ids of the pieces beside `c` (empty when it is still one piece). The largest
    /// piece keeps `c`'s id.
    pub fn split(&mut self, c: u32, edges: &EdgeOverlay) -> Vec<u32> {
        let members = self.members(c).to_vec();
        let local: HashMap<u32, u32> = members.iter().enumerate().map(|(i, &m)| (m, i as u32)).collect();
        let mut inner = Vec::new();
        for (i, &m) in members.iter().enumerate() {
            inner.extend(edges.children(m).filter_map(|w| local.get(&w).map(|&j| (i as u32, j))));
        }
        let pieces = scc::condense(&Arc::new(
            Graph::from_edges(members.len(), &inner).expect("a component's edges are among its members"),
        ));
        if pieces.num_components() == 1 {
            return Vec::new();
        }
        let mut by_piece: Vec<Vec<u32>> = vec![Vec::new(); pieces.num_components()];
        for (i, &piece) in pieces.component.iter().enumerate() {
            by_piece[piece as usize].push(members[i]);
        }
        let largest = (0..by_piece.len()).max_by_key(|&p| (by_piece[p].len(), std::cmp::Reverse(p))).unwrap_or(0);
        let mut fresh = Vec::new();
        for (p, piece) in by_piece.into_iter().enumerate() {
            let id = if p == largest {
                c
            } else {
                self.ids += 1;
                fresh.push(self.ids - 1);
                self.ids - 1
            };
            for &m in &piece {
                self.component[m as usize] = id;
            }
            self.changed.insert(id, piece);
        }
        self.live += fresh.len();
        fresh
    }

    /// Heap bytes.
    pub fn heap_bytes(&self) -> usize {
        4 * (self.component.capacity() + self.base_offsets.capacity() + self.base_members.capacity())
            + self.changed.values().map(|m| 40 + 4 * m.capacity()).sum::<usize>()
    }
}
