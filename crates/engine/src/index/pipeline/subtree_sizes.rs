//! Phase 2: subtree sizes of T, bottom-up over T's levels (the Kahn levels, deepest first, then ρ:
//! a node's T-children lie on deeper levels than it, see `levels`).
//!
//! `size(v) = 1 + Σ size(c)` over `v`'s T-children, and `before(c)`, the sizes of the T-siblings
//! that precede `c` in order (a prefix sum over the ordered T-children list).
//!
//! Telemetry: the scanned degree is the number of T-children; the phase processes `n + 1` nodes (ρ
//! included) and reads the `n` tree edges (every vertex hangs below exactly one node).

use super::frontier::{self, atomic};
use super::tree::Tree;
use rayon::prelude::*;
use std::sync::atomic::AtomicU32;

#[derive(Debug)]
pub struct SubtreeSizes {
    size: Vec<AtomicU32>,
    before: Vec<AtomicU32>,
}

/// Sizes and sibling prefix sums, per node (ρ last).
#[derive(Debug)]
pub struct Sizes {
    pub size: Vec<u32>,
    pub before: Vec<u32>,
}

impl SubtreeSizes {
    pub fn new(tree: &Tree) -> SubtreeSizes {
        let nodes = tree.nodes();
        SubtreeSizes { size: atomic::zeroed_u32(nodes), before: atomic::zeroed_u32(nodes) }
    }

    pub fn scanned_degree(tree: &Tree, v: u32) -> usize {
        tree.children(v).len()
    }

    /// One level; every node below it is final. A node writes its own size and the `before` of
    /// its own children, which no other node touches.
    pub fn run_level(&self, tree: &Tree, frontier: &[u32]) {
        frontier::for_each(frontier, |v| self.size(tree, v));
    }

    /// Sizes the node `v`, whose children are final (one vertex of [`Self::run_level`]).
    #[inline]
    pub fn size(&self, tree: &Tree, v: u32) {
        let children = tree.children(v);
        if children.len() >= frontier::WIDE_LIST {
            return self.size_wide(children, v);
        }
        let mut acc = 0u32;
        for &c in children {
            atomic::set(&self.before, c, acc);
            acc += atomic::get(&self.size, c);
        }
        atomic::set(&self.size, v, acc + 1);
    }

    /// [`Self::size`] for a node with very many children (ρ, whose children are the roots: 1.5
    /// million of them on uniprotenc_22m, a sixth of the phase on one thread): the prefix sum in
    /// parallel, by chunks (their totals first, then each chunk from its start).
    fn size_wide(&self, children: &[u32], v: u32) {
        let chunks = children.par_chunks(frontier::WIDE_LIST / 4);
        let totals: Vec<u32> = chunks.clone().map(|c| c.iter().map(|&c| atomic::get(&self.size, c)).sum()).collect();
        let starts: Vec<u32> = totals.iter().scan(0, |acc, &t| Some(std::mem::replace(acc, *acc + t))).collect();
        chunks.zip(starts).for_each(|(chunk, mut acc)| {
            for &c in chunk {
                atomic::set(&self.before, c, acc);
                acc += atomic::get(&self.size, c);
            }
        });
        atomic::set(&self.size, v, totals.iter().sum::<u32>() + 1);
    }

    /// `v`'s size once its level has run (they start at 0, which no finished value is).
    pub fn size_so_far(&self, v: u32) -> Option<u32> {
        Some(atomic::get(&self.size, v)).filter(|&x| x != 0)
    }

    pub fn heap_bytes(&self) -> usize {
        self.size.len() * 8
    }

    pub fn finish(self) -> Sizes {
        Sizes { size: atomic::into_plain(self.size), before: atomic::into_plain(self.before) }
    }
}
