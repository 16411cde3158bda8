//! The query index built on the GPU, for the GPU back end (docs/ALGORITHMS.md, section 13.2).
//!
//! Its two orders are the post numbers of a DFS over children from the roots and of one over
//! parents from the sinks, each visiting starts and lists in id order: exactly the `lex` order's
//! GRAIL post numbers of the DAG and of the DAG reversed, which the labeling pipeline computes
//! level by level where the CPU walks each DFS on one core. Its unions (a vertex's masks and
//! filters ORed from its children's, or its parents') are the closure's bit-parallel pass by
//! depth (`exact_closure::HeightPass`) on rows of three words, over the graph the first pipeline
//! run left on the device.

use super::exact_closure::{HeightPass, stride_grid};
use super::kernels::closure::ClosureHeight;
use super::memory::Ledger;
use super::pipeline::{GpuLabeler, NarrowGraph};
use crate::exact::heights::HeightOrder;
use crate::graph::{Graph, topo};
use crate::index::Order;
use crate::index::labeler::run_to_end;
use crate::query::query_index::{BLOOM_WORDS, Posts, Records, SUPPORT_WORDS, VertexCuts, orders_from_posts};
use crate::telemetry::NullSink;
use anyhow::Result;
use rayon::prelude::*;
use std::sync::Arc;

/// Graphs with fewer edges than this get their index from the CPU: each GPU run costs
/// milliseconds of set-up and uploads whatever the graph. The index with the labels on the GPU,
/// 16 cores: random 200K / degree 20 (4.0M edges) 32-38 ms on the GPU against 57-74 ms on the CPU
/// (H100); uniprotenc_22m (1.6M edges) 138-147 ms on the GPU against 58-84 ms on the CPU (H200).
const MIN_EDGES: usize = 3_000_000;

/// Words of a row: one direction's supportive mask and Bloom filter.
const ROW_WORDS: usize = SUPPORT_WORDS + BLOOM_WORDS;

/// The query index's per-vertex data, or `None` where the CPU builds it faster: a graph under
/// [`MIN_EDGES`] edges, or one whose levels are too narrow for the GPU in either direction (a deep
/// chain). `supportive[i]` stands for bit `i` of the masks.
pub fn records_where_they_pay(dag: &Arc<Graph>, supportive: &[u32]) -> Result<Option<Records>> {
    if dag.num_edges() < MIN_EDGES || NarrowGraph::of_graph(dag)?.is_some() {
        return Ok(None);
    }
    let reversed = Arc::new(dag.reversed());
    // The reversed graph's levels on the CPU while the GPU finds the first order.
    let (forward, heights) = rayon::join(|| lex_run(dag), || topo::adopt_heights(dag, &reversed));
    heights?;
    if NarrowGraph::of_graph(&reversed)?.is_some() {
        return Ok(None);
    }
    Ok(Some(records_after(dag, &reversed, forward?, supportive)?))
}

/// The records by the GPU whatever the graph (`selftest` compares them with the CPU's).
pub fn records(dag: &Arc<Graph>, supportive: &[u32]) -> Result<Records> {
    let reversed = Arc::new(dag.reversed());
    topo::adopt_heights(dag, &reversed)?;
    records_after(dag, &reversed, lex_run(dag)?, supportive)
}

/// The rest once the forward run is done: the backward order, then the unions on the forward
/// run's copy of the graph.
fn records_after(
    dag: &Graph,
    reversed: &Arc<Graph>,
    (forward_run, forward): (GpuLabeler, Vec<u32>),
    supportive: &[u32],
) -> Result<Records> {
    let (_, backward) = lex_run(reversed)?;
    let (topo, [forward_bits, backward_bits]) = orders_from_posts(&Posts { forward, backward });
    let gpu = super::shared()?;
    let stream = &gpu.stream;
    let graph = forward_run.device_graph();
    let n = dag.num_vertices();
    let mut ledger = Ledger::default();
    let kernel = ClosureHeight::load(gpu)?;
    let grid = stride_grid(gpu.multiprocessors()?);
    // Children's rows first (deepest level first), then parents' (the reversed graph's deepest,
    // which are the roots).
    let mut halves = Vec::with_capacity(2);
    for (graph_of_pass, own_bits, offsets, targets) in
        [(dag, &forward_bits, graph.coff, graph.cadj), (&**reversed, &backward_bits, graph.poff, graph.padj)]
    {
        let schedule = HeightOrder::by_depth(graph_of_pass)?;
        let order = ledger.upload(gpu, "query index schedule", &schedule.order)?;
        let mut rows = ledger.upload(gpu, "query index rows", &own_rows(n, own_bits, supportive))?;
        let pass = HeightPass::new(graph_of_pass, &schedule);
        pass.launch(&kernel, stream, grid, &order, offsets, targets, &mut rows, ROW_WORDS)?;
        halves.push(stream.clone_dtoh(&rows)?);
    }
    let (to, from) = (&halves[0], &halves[1]);
    let cuts = (0..n)
        .into_par_iter()
        .map(|v| {
            let (t, f) = (&to[v * ROW_WORDS..(v + 1) * ROW_WORDS], &from[v * ROW_WORDS..(v + 1) * ROW_WORDS]);
            VertexCuts {
                to_support: t[..SUPPORT_WORDS].try_into().expect("a mask's words"),
                from_support: f[..SUPPORT_WORDS].try_into().expect("a mask's words"),
                bloom_out: t[SUPPORT_WORDS..].try_into().expect("a filter's words"),
                bloom_in: f[SUPPORT_WORDS..].try_into().expect("a filter's words"),
            }
        })
        .collect();
    Ok((topo, cuts))
}

/// Each vertex's row before the unions: its own Bloom bit, and its own supportive bit where it is
/// one of the supportive vertices.
fn own_rows(n: usize, own_bits: &[u8], supportive: &[u32]) -> Vec<u64> {
    let mut rows = vec![0u64; n * ROW_WORDS];
    rows.par_chunks_mut(ROW_WORDS).zip(own_bits).for_each(|(row, &bit)| {
        let bit = usize::from(bit);
        row[SUPPORT_WORDS + bit / 64] |= 1 << (bit % 64);
    });
    for (i, &s) in supportive.iter().enumerate() {
        rows[s as usize * ROW_WORDS + i / 64] |= 1 << (i % 64);
    }
    rows
}

/// `graph`'s post numbers in one `lex` dimension, and the labeler that found them (which keeps
/// the graph on the device).
fn lex_run(graph: &Arc<Graph>) -> Result<(GpuLabeler, Vec<u32>)> {
    let mut labeler = GpuLabeler::new(graph, 1, Order::Lex, false)?;
    let labels = run_to_end(&mut labeler, &mut NullSink)?;
    Ok((labeler, labels.intervals().iter().map(|i| i.post).collect()))
}
