//! The query index's two orders on the GPU. They are the post numbers of a DFS over children from
//! the roots and of one over parents from the sinks, each visiting starts and lists in id order:
//! exactly the `lex` order's GRAIL post numbers of the DAG and of the DAG reversed, which the
//! labeling pipeline computes level by level (docs/ALGORITHMS.md, sections 5 and 13.2) where the
//! CPU walks each DFS on one core.

use super::pipeline::{GpuLabeler, NarrowGraph};
use crate::graph::{Graph, topo};
use crate::index::Order;
use crate::index::labeler::run_to_end;
use crate::query::query_index::Posts;
use crate::telemetry::NullSink;
use anyhow::Result;
use std::sync::Arc;

/// Graphs with fewer edges than this get their orders from the CPU's DFS: each GPU run costs
/// milliseconds of set-up and uploads whatever the graph. H200 host, 16 cores, the query index with
/// the labels on the GPU: random 200K / degree 20 (4.0M edges) 56-67 ms with the orders on the GPU,
/// 71-85 ms on the CPU; citeseer.scc (0.3M edges) and uniprotenc_22m (1.6M) were faster on the
/// CPU. (uniprotenc_22m reversed has a vertex with 1.5M children, whose sibling sums the pipeline
/// sorts in one block: 0.17 s.)
const MIN_EDGES: usize = 3_000_000;

/// Both orders' post numbers by the GPU pipeline, or `None` where the CPU's DFS is faster: a
/// graph under [`MIN_EDGES`] edges, or one whose levels are too narrow for the GPU in either
/// direction (a deep chain).
pub fn lex_posts_where_they_pay(dag: &Arc<Graph>) -> Result<Option<Posts>> {
    if dag.num_edges() < MIN_EDGES || NarrowGraph::of_graph(dag)?.is_some() {
        return Ok(None);
    }
    let reversed = Arc::new(dag.reversed());
    // The reversed graph's levels on the CPU while the GPU finds the first order.
    let (forward, heights) = rayon::join(|| lex_post(dag), || topo::adopt_heights(dag, &reversed));
    heights?;
    if NarrowGraph::of_graph(&reversed)?.is_some() {
        return Ok(None);
    }
    Ok(Some(Posts { forward: forward?, backward: lex_post(&reversed)? }))
}

/// Both orders' post numbers by the GPU pipeline, whatever the graph (`selftest`).
pub fn lex_posts(dag: &Arc<Graph>) -> Result<Posts> {
    let reversed = Arc::new(dag.reversed());
    topo::adopt_heights(dag, &reversed)?;
    Ok(Posts { forward: lex_post(dag)?, backward: lex_post(&reversed)? })
}

/// `graph`'s post numbers in one `lex` dimension.
fn lex_post(graph: &Arc<Graph>) -> Result<Vec<u32>> {
    let mut labeler = GpuLabeler::new(graph, 1, Order::Lex, false)?;
    let labels = run_to_end(&mut labeler, &mut NullSink)?;
    Ok(labels.intervals().iter().map(|i| i.post).collect())
}
