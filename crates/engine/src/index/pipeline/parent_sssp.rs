//! Weight method, phase 2 (thesis ch. 4.4, "Parent SSSP"): DFS parents as shortest paths, top-down
//! over the Kahn levels.
//!
//! The weight of child `c_j` under parent `p` is `1 + Σ_{i<j} ζ(c_i)`, and of root `r_j` under ρ
//! `1 + Σ_{i<j} ζ(r_i)`. A path's weight is then its pre-order number in the DFS of the unfolded DAG
//! (every path a node), so distinct paths have distinct weights, the lightest path to `v` is the
//! lexicographically smallest one, and its last edge is the DFS parent: the same tree as the exact
//! method, as long as the numbers fit. A candidate whose cost overflows is heavier than any that
//! fits, so it simply loses; only when the lightest candidate itself overflows does the run stop.
//!
//! Telemetry: the scanned degree is the in-degree; every vertex and every DAG edge once.

use super::frontier::{self, atomic, is_large};
use super::subgraph_sizes::{WeightOverflow, Weights};
use super::tree::{GrowingTree, Tree};
use crate::graph::Graph;
use crate::index::order::DimensionOrder;
use crate::telemetry::Phase;
use rayon::prelude::*;
use std::sync::atomic::AtomicU64;

#[derive(Debug)]
pub struct ParentSssp {
    weights: Weights,
    /// Lightest path weight from ρ, per vertex.
    cost: Vec<AtomicU64>,
    tree: GrowingTree,
    dim: usize,
}

impl ParentSssp {
    /// Seeds the roots' costs (their weights under ρ). Fails if those overflow (reported at level 0).
    pub fn new(
        dag: &Graph,
        order: &DimensionOrder,
        weights: Weights,
        dim: usize,
    ) -> Result<ParentSssp, WeightOverflow> {
        let cost = atomic::zeroed_u64(dag.num_vertices());
        let mut before = 0u64;
        for &r in order.roots() {
            let overflow = || WeightOverflow { phase: Phase::ParentSssp, dim, level: 0, vertex: r };
            atomic::set64(&cost, r as usize, before.checked_add(1).ok_or_else(overflow)?);
            before = before.checked_add(weights.zeta[r as usize]).ok_or_else(overflow)?;
        }
        Ok(ParentSssp { weights, cost, tree: GrowingTree::new(dag.num_vertices()), dim })
    }

    pub fn scanned_degree(dag: &Graph, v: u32) -> usize {
        dag.parents(v).len()
    }

    pub fn run_level(
        &self,
        dag: &Graph,
        order: &DimensionOrder,
        frontier: &[u32],
        dag_level: u32,
    ) -> Result<(), WeightOverflow> {
        frontier::try_for_each(frontier, |v| {
            let parents = dag.parents(v);
            if parents.is_empty() {
                self.tree.attach(v, self.tree.rho(), order.key(v));
                return Ok(());
            }
            // `None` is an overflowed cost: heavier than every cost that fits.
            let candidate = |p: u32| {
                let weight = 1 + self.weights.before_in_parent[order.child_slot(dag, p, v)];
                (atomic::get64(&self.cost, p as usize).checked_add(weight), p)
            };
            let heavier_last = |(cost, p): (Option<u64>, u32)| (cost.is_none(), cost, order.key(p));
            let best = if is_large(parents.len()) {
                parents.par_iter().map(|&p| candidate(p)).min_by_key(|&c| heavier_last(c))
            } else {
                parents.iter().map(|&p| candidate(p)).min_by_key(|&c| heavier_last(c))
            };
            match best {
                Some((Some(cost), p)) => {
                    atomic::set64(&self.cost, v as usize, cost);
                    self.tree.attach(v, p, order.key(v));
                    Ok(())
                }
                _ => Err(WeightOverflow { phase: Phase::ParentSssp, dim: self.dim, level: dag_level, vertex: v }),
            }
        })
    }

    pub fn heap_bytes(&self) -> usize {
        self.weights.heap_bytes() + self.cost.len() * 8 + self.tree.heap_bytes()
    }

    pub fn finish(self, order: &DimensionOrder, below_roots: &[u32]) -> Tree {
        self.tree.finish(order.roots(), below_roots)
    }
}
