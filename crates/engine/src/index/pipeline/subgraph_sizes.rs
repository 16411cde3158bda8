//! Weight method, phase 1 (thesis ch. 4.3, "Subsizes DAG"): path-count subgraph sizes on the DAG,
//! bottom-up over reverse Kahn levels.
//!
//! `ζ(v) = 1 + Σ ζ(c)` over all DAG children: the size of `v`'s subtree in the unfolded DAG (every
//! path counted), and the prefix sums `Σ_{i<j} ζ(c_i)` over `v`'s ordered children, one per edge,
//! which the SSSP phase turns into edge weights. These counts grow exponentially with depth (a
//! diamond ladder doubles them per rung), so every sum is checked and an overflow stops the run with
//! a [`WeightOverflow`] error instead of producing a wrong tree.
//!
//! Telemetry: the scanned degree is the out-degree; every vertex and every DAG edge once.

use super::frontier::{self, atomic};
use crate::graph::Graph;
use crate::index::order::DimensionOrder;
use crate::telemetry::Phase;
use std::fmt;
use std::sync::atomic::AtomicU64;

/// A path-count weight no longer fits 64 bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightOverflow {
    /// The phase whose sum overflowed.
    pub phase: Phase,
    /// The dimension, from 0.
    pub dim: usize,
    /// The Kahn level (longest path from a root) of the vertex whose weight overflowed.
    pub level: u32,
    /// The DAG vertex whose weight overflowed.
    pub vertex: u32,
}

impl fmt::Display for WeightOverflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "path-count weights overflowed 64 bits in phase '{}' of dimension {} at DAG level {} (vertex {}): \
             the weight method counts paths, which grow exponentially with depth on this graph; \
             use the exact parent method (--parent-method exact), which never overflows",
            self.phase, self.dim, self.level, self.vertex
        )
    }
}

impl std::error::Error for WeightOverflow {}

/// What the SSSP phase needs from this one.
#[derive(Debug)]
pub struct Weights {
    /// `ζ(v)`, path-count subgraph size.
    pub zeta: Vec<u64>,
    /// Per edge, aligned with the children CSR: `Σ ζ` of the siblings before that child.
    pub before_in_parent: Vec<u64>,
}

impl Weights {
    pub fn heap_bytes(&self) -> usize {
        (self.zeta.len() + self.before_in_parent.len()) * 8
    }
}

#[derive(Debug)]
pub struct SubgraphSizes {
    zeta: Vec<AtomicU64>,
    before_in_parent: Vec<AtomicU64>,
}

impl SubgraphSizes {
    pub fn new(dag: &Graph) -> SubgraphSizes {
        SubgraphSizes {
            zeta: atomic::zeroed_u64(dag.num_vertices()),
            before_in_parent: atomic::zeroed_u64(dag.num_edges()),
        }
    }

    pub fn scanned_degree(dag: &Graph, v: u32) -> usize {
        dag.children(v).len()
    }

    /// Sizes of one level's vertices (all their children lie deeper and are final).
    pub fn run_level(
        &self,
        dag: &Graph,
        order: &DimensionOrder,
        frontier: &[u32],
        dim: usize,
        dag_level: u32,
    ) -> Result<(), WeightOverflow> {
        let overflow = |vertex| WeightOverflow { phase: Phase::SubgraphSizes, dim, level: dag_level, vertex };
        frontier::try_for_each(frontier, |v| {
            let start = dag.children_csr().offsets()[v as usize] as usize;
            let mut acc = 0u64;
            for (j, &c) in order.children(dag, v).iter().enumerate() {
                atomic::set64(&self.before_in_parent, start + j, acc);
                acc = acc.checked_add(atomic::get64(&self.zeta, c as usize)).ok_or_else(|| overflow(v))?;
            }
            let zeta = acc.checked_add(1).ok_or_else(|| overflow(v))?;
            atomic::set64(&self.zeta, v as usize, zeta);
            Ok(())
        })
    }

    pub fn heap_bytes(&self) -> usize {
        (self.zeta.len() + self.before_in_parent.len()) * 8
    }

    pub fn finish(self) -> Weights {
        Weights {
            zeta: self.zeta.into_iter().map(AtomicU64::into_inner).collect(),
            before_in_parent: self.before_in_parent.into_iter().map(AtomicU64::into_inner).collect(),
        }
    }
}
