//! The four-phase BFS pipeline (docs/ALGORITHMS.md, sections 5-10): GRAIL labels identical to the classic DFS,
//! computed level by level, in parallel over each level's frontier (rayon).
//!
//! Phases, one file each, in the order they run:
//! 1. `parent_selection` (exact, default) or `subgraph_sizes` + `parent_sssp` (the thesis's
//!    weight method): the DFS tree T, top-down over the DAG's Kahn levels;
//! 2. `subtree_sizes`: bottom-up over the Kahn levels, then T's root ρ;
//! 3. `post_order`: top-down, ρ then the Kahn levels;
//! 4. `min_post`: bottom-up over the DAG's Kahn levels.
//!
//! [`PipelineLabeler`] runs them one level at a time behind the [`crate::index::Labeler`] contract.

mod dimension;
pub(crate) mod fresh_array;
pub(crate) mod frontier;
mod labeler;
pub mod level_clock;
pub(crate) mod levels;
pub(crate) mod min_post;
pub(crate) mod parent_selection;
pub(crate) mod parent_sssp;
pub(crate) mod path_prefix;
pub(crate) mod post_order;
pub(crate) mod subgraph_sizes;
pub(crate) mod subtree_sizes;
pub(crate) mod tiny_levels;
pub(crate) mod tree;

pub use labeler::PipelineLabeler;
pub use subgraph_sizes::WeightOverflow;

use crate::index::Order;
use crate::telemetry::Phase;
use serde::{Deserialize, Serialize};

/// How phase 1 picks every vertex's DFS-tree parent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum ParentMethod {
    /// Lexicographic path comparison through LCAs on the growing tree: exact, never overflows.
    #[default]
    Exact,
    /// Path-count weights and a shortest-path search (thesis ch. 4): fails with an error once the
    /// path counts exceed 64 bits (deep graphs with many paths).
    Weights,
}

impl ParentMethod {
    /// The phases a dimension runs with this method.
    pub fn phases(self) -> &'static [Phase] {
        match self {
            ParentMethod::Exact => &[Phase::ParentSelection, Phase::SubtreeSizes, Phase::PostOrder, Phase::MinPost],
            ParentMethod::Weights => {
                &[Phase::SubgraphSizes, Phase::ParentSssp, Phase::SubtreeSizes, Phase::PostOrder, Phase::MinPost]
            }
        }
    }
}

/// What a [`PipelineLabeler`] computes and how it steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PipelineConfig {
    /// Label dimensions, each its own DFS tree.
    pub dims: usize,
    /// How each dimension orders children and roots.
    pub order: Order,
    /// How phase 1 picks the DFS-tree parents.
    pub parent_method: ParentMethod,
    /// Every step advances every unfinished dimension by one level (in parallel) instead of running
    /// the dimensions one after another.
    pub all_dims_at_once: bool,
}

impl PipelineConfig {
    /// `dims` dimensions in `order`, exact parents, one dimension after another.
    pub fn new(dims: usize, order: Order) -> PipelineConfig {
        PipelineConfig { dims, order, parent_method: ParentMethod::Exact, all_dims_at_once: false }
    }
}
