//! Phase 3: post-order numbers, top-down over T's levels (ρ first, then the Kahn levels: a node's
//! T-children lie on deeper levels than it, see `levels`).
//!
//! `offset(ρ) = 0`, `offset(c) = offset(v) + before(c)` for a T-child `c` of `v`, and
//! `post(v) = offset(v) + size(v)`: `offset(v)` counts the nodes the DFS finishes before it enters
//! `v`, and `v` finishes after its whole subtree. The offsets start as the sibling sums `before(c)`
//! of phase 2 (the array is taken over, not copied), and a node adds its own offset to its
//! children's when its level comes.
//!
//! Telemetry: as for subtree sizes, `n + 1` nodes and the `n` tree edges.

use super::frontier::{self, atomic};
use super::tree::Tree;
use rayon::prelude::*;
use std::sync::atomic::AtomicU32;

#[derive(Debug)]
pub struct PostOrder {
    offset: Vec<AtomicU32>,
    post: Vec<AtomicU32>,
}

impl PostOrder {
    /// From the sibling sums `before` of phase 2 (ρ's is 0, which is already its offset).
    pub fn new(before: Vec<u32>) -> PostOrder {
        let nodes = before.len();
        PostOrder { offset: before.into_iter().map(AtomicU32::new).collect(), post: atomic::zeroed_u32(nodes) }
    }

    pub fn scanned_degree(tree: &Tree, v: u32) -> usize {
        tree.children(v).len()
    }

    /// One level; every node above it has its offset. A node writes its own post and the
    /// offsets of its own children (which still hold their `before`).
    pub fn run_level(&self, tree: &Tree, size: &[u32], frontier: &[u32]) {
        frontier::for_each(frontier, |v| self.number(tree, size, v));
    }

    /// Numbers the node `v`, whose offset is final (one vertex of [`Self::run_level`]).
    #[inline]
    pub fn number(&self, tree: &Tree, size: &[u32], v: u32) {
        let offset = atomic::get(&self.offset, v);
        atomic::set(&self.post, v, offset + size[v as usize]);
        // ρ's offset is 0 (and so is the first root's): its children's offsets are final already.
        if offset == 0 {
            return;
        }
        let children = tree.children(v);
        let shift = |&c: &u32| atomic::set(&self.offset, c, atomic::get(&self.offset, c) + offset);
        // ρ's children are the roots: millions on some graphs, in parallel then.
        if children.len() >= frontier::WIDE_LIST {
            children.par_iter().with_min_len(frontier::WIDE_LIST / 4).for_each(shift);
        } else {
            children.iter().for_each(shift);
        }
    }

    /// `v`'s post once its level has run (they start at 0, which no finished value is).
    pub fn post_so_far(&self, v: u32) -> Option<u32> {
        Some(atomic::get(&self.post, v)).filter(|&x| x != 0)
    }

    pub fn heap_bytes(&self) -> usize {
        self.offset.len() * 8
    }

    /// Post-order numbers per node (ρ last, numbered `n + 1`).
    pub fn finish(self) -> Vec<u32> {
        atomic::into_plain(self.post)
    }
}
