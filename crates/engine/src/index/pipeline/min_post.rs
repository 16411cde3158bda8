//! Phase 4: min-post, bottom-up over the DAG by reverse Kahn levels.
//!
//! `s(v) = min(post(v), min s(c))` over ALL DAG children `c` (not only T-children): the smallest
//! post-order number `v` reaches, the `low` end of its GRAIL interval.
//!
//! Telemetry: the scanned degree is the out-degree; every vertex and every DAG edge once.

use super::frontier::{self, atomic, is_large};
use crate::graph::Graph;
use rayon::prelude::*;
use std::sync::atomic::AtomicU32;

#[derive(Debug)]
pub struct MinPost {
    low: Vec<AtomicU32>,
}

impl MinPost {
    pub fn new(n: usize) -> MinPost {
        MinPost { low: atomic::zeroed_u32(n) }
    }

    pub fn scanned_degree(dag: &Graph, v: u32) -> usize {
        dag.children(v).len()
    }

    /// One level; all children lie deeper and are final.
    pub fn run_level(&self, dag: &Graph, post: &[u32], frontier: &[u32]) {
        frontier::for_each(frontier, |v| self.lower(dag, post, v));
    }

    /// The low end of `v`, whose children are final (one vertex of [`Self::run_level`]).
    #[inline]
    pub fn lower(&self, dag: &Graph, post: &[u32], v: u32) {
        let children = dag.children(v);
        let low_of = |&c: &u32| atomic::get(&self.low, c);
        let reach = if is_large(children.len()) {
            children.par_iter().map(low_of).min()
        } else {
            children.iter().map(low_of).min()
        };
        let own = post[v as usize];
        atomic::set(&self.low, v, reach.map_or(own, |r| r.min(own)));
    }

    /// `v`'s low once its level has run (they start at 0, which no finished value is).
    pub fn low_so_far(&self, v: u32) -> Option<u32> {
        Some(atomic::get(&self.low, v)).filter(|&x| x != 0)
    }

    pub fn heap_bytes(&self) -> usize {
        self.low.len() * 4
    }

    pub fn finish(self) -> Vec<u32> {
        atomic::into_plain(self.low)
    }
}
