//! The classic GRAIL labeler: one iterative DFS per dimension (docs/ALGORITHMS.md, section 3).
//!
//! ```text
//! r = 1; for root in roots: visit(root)
//! visit(x): mark x; for c in children(x) in order: if c unmarked: visit(c)
//!           s[x] = min(r, min over ALL children c of s[c]); post[x] = r; r += 1
//! ```
//! The recursion is an explicit stack (graphs can be millions of levels deep; the walk itself is
//! `dfs_walk.rs`, which the regions share). The dimensions run
//! concurrently where the pool has threads, each writing its own entries of the vertex-major label
//! arrays, so the labels need no second copy.

use super::dfs_out::DimensionOut;
use super::dfs_regions::{self, RegionScratch};
use super::dfs_walk::{WalkBuffers, walk};
use super::labels::{Interval, Labels};
use super::order::{Order, sort_by_priority};
use crate::disjoint::DisjointSlice;
use crate::graph::Graph;
use crate::graph::topo::{self, Kahn};
use crate::mix::mix_base;
use crate::prefetch::prefetch;
use crate::telemetry::{Backend, Event, NullSink, Phase, Sink, memory_event};
use crate::{Error, Result};
use rayon::prelude::*;
use std::time::Instant;

/// Labels `dag` with `dims` dimensions in `order`. Fails if the graph has a cycle.
pub fn label(dag: &Graph, dims: usize, order: Order) -> Result<Labels> {
    label_with_events(dag, dims, order, &mut NullSink)
}

/// [`label`], reporting into `sink` at the DFS's own granularity: `RunStarted`, then per dimension
/// `PhaseStarted`/`PhaseDone` of [`Phase::Dfs`] (one level, every vertex, every edge descended once)
/// and a `Memory` sample, then `RunDone`. The dimensions run concurrently, so all of them start
/// before the first one is reported done.
pub fn label_with_events(dag: &Graph, dims: usize, order: Order, sink: &mut dyn Sink) -> Result<Labels> {
    label_by(dag, dims, order, sink, Walk::Chosen)
}

/// How each dimension is labeled: as [`dfs_regions::pays`] chooses, or (for tests comparing the
/// two) always by one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Walk {
    Chosen,
    #[cfg_attr(not(test), allow(dead_code))]
    FromRoots,
    #[cfg_attr(not(test), allow(dead_code))]
    ByRegions,
}

/// [`label_with_events`], each dimension labeled as `walk` says.
pub(super) fn label_by(dag: &Graph, dims: usize, order: Order, sink: &mut dyn Sink, walk: Walk) -> Result<Labels> {
    if dims == 0 {
        return Err(Error::InvalidInput("at least one dimension is needed".into()));
    }
    let clock = Instant::now();
    let (n, m) = (dag.num_vertices(), dag.num_edges() as u64);
    sink.emit(Event::RunStarted { backend: Backend::Dfs, dims, order, vertices: n as u64, edges: m });
    // The levels first: they prove the graph acyclic, which the DFS relies on (it never marks a
    // vertex on the stack, so a cycle would be walked forever). Usually memoised already.
    let kahn = topo::kahn(dag)?;
    let level = kahn.level.to_vec();
    for dim in 0..dims {
        sink.emit(Event::PhaseStarted { dim, phase: Phase::Dfs });
    }
    // Found once for every dimension, in id order.
    let roots = dag.roots();
    let mut intervals = vec![Interval::default(); n * dims];
    let mut subtree = vec![0u32; n * dims];
    // An empty graph has no levels, and nothing to label.
    let by_regions = n > 0
        && match walk {
            Walk::Chosen => dfs_regions::pays(dag, roots.len()),
            Walk::FromRoots => false,
            Walk::ByRegions => true,
        };
    let seconds: Vec<f64> = {
        let (intervals, subtree) = (DisjointSlice::new(&mut intervals), DisjointSlice::new(&mut subtree));
        let outs: Vec<DimensionOut> = (0..dims).map(|dim| DimensionOut::new(&intervals, &subtree, dims, dim)).collect();
        let mut seconds: Vec<f64> = outs
            .par_iter()
            .map_init(Scratch::default, |scratch, out| {
                let clock = Instant::now();
                label_dimension(dag, &kahn, order, &roots, out, scratch, by_regions);
                clock.elapsed().as_secs_f64()
            })
            .collect();
        if by_regions {
            let clock = Instant::now();
            dfs_regions::finish_roots(dag, &outs);
            // One pass for every dimension: each is charged its share.
            let share = clock.elapsed().as_secs_f64() / dims as f64;
            seconds.iter_mut().for_each(|s| *s += share);
        }
        seconds
    };
    for (dim, seconds) in seconds.into_iter().enumerate() {
        sink.emit(Event::PhaseDone {
            dim,
            phase: Phase::Dfs,
            levels: 1,
            vertices: n as u64,
            edges_scanned: m,
            seconds,
        });
        sink.emit(memory_event(vec![
            ("graph".to_string(), dag.heap_bytes() as u64),
            (format!("dim {dim} labels"), (n * 12) as u64),
        ]));
    }
    let labels = Labels::from_raw(order, dims, intervals, subtree, level).expect("one entry per vertex and dimension");
    sink.emit(Event::RunDone { seconds: clock.elapsed().as_secs_f64() });
    Ok(labels)
}

/// Buffers one dimension's DFS needs, kept across dimensions on one thread.
#[derive(Default)]
struct Scratch {
    roots: Vec<u32>,
    regions: RegionScratch,
    /// One dimension's intervals by vertex, where the DFS keeps them apart (see [`OWN_ARRAY_DEGREE`]).
    intervals: Vec<Interval>,
    walk: WalkBuffers,
}

/// How many roots ahead the DFS prefetches. Roots come in random order in random dimensions, and on
/// graphs made mostly of roots (uniprot: 1.56M of 1.6M vertices) each one is a cache miss.
const PREFETCH_AHEAD: usize = 16;

/// From this average out-degree on, a dimension's DFS keeps its intervals in an array of its own (8
/// bytes a vertex) and copies them into the interleaved labels when done. Where vertices have
/// several children, the DFS reads many children's intervals at random, and a dense array of one
/// dimension's serves them from the cache far more often than the labels' interleaved rows, more
/// than paying for the copy; on a graph made mostly of roots with one child each, the copy is the
/// larger cost (docs/BENCHMARKS.md, "Building the index").
const OWN_ARRAY_DEGREE: usize = 2;

/// Labels one dimension of the acyclic `dag` (whose roots by id are `all_roots`) into `out`, whose
/// `post` entries must be 0: all of it by walks from the roots, or `by_regions` all but the roots'
/// lows, which [`dfs_regions::finish_roots`] fills.
fn label_dimension(
    dag: &Graph,
    kahn: &Kahn,
    order: Order,
    all_roots: &[u32],
    out: &DimensionOut,
    scratch: &mut Scratch,
    by_regions: bool,
) {
    assert!(dag.num_vertices() < u32::MAX as usize, "post-order numbers must fit in 32 bits");
    let base = match order {
        Order::Random { seed } => Some(mix_base(seed, out.dim() as u64)),
        Order::Lex => None,
    };
    let Scratch { roots, regions, intervals: own, walk: bufs } = scratch;
    // Only the roots are sorted into the dimension's order.
    roots.clear();
    roots.extend_from_slice(all_roots);
    if let Some(base) = base {
        sort_by_priority(base, roots, &mut bufs.ranked);
    }
    if by_regions {
        return dfs_regions::label_regions(dag, kahn, base, roots, out, regions, bufs);
    }
    let apart = dag.num_edges() >= OWN_ARRAY_DEGREE * dag.num_vertices();
    let own_slice;
    let walked = if apart {
        // A `post` of 0 marks a vertex not finished yet.
        own.clear();
        own.resize(dag.num_vertices(), Interval::default());
        own_slice = DisjointSlice::new(&mut own[..]);
        out.with_own_intervals(&own_slice)
    } else {
        *out
    };
    let (offsets, targets) = (dag.children_csr().offsets(), dag.children_csr().targets());
    let mut r = 1u32;
    for (i, &root) in roots.iter().enumerate() {
        if let Some(&ahead) = roots.get(i + PREFETCH_AHEAD) {
            walked.prefetch_entries(ahead);
            prefetch(offsets, ahead as usize);
        }
        // Half as far ahead, the offsets are in the cache: fetch the first child too.
        if let Some(&ahead) = roots.get(i + PREFETCH_AHEAD / 2) {
            prefetch(targets, offsets[ahead as usize] as usize);
        }
        // A quarter as far, the first child is known: fetch its label, read as the root is entered.
        if let Some(&ahead) = roots.get(i + PREFETCH_AHEAD / 4) {
            let first = offsets[ahead as usize] as usize;
            if first < offsets[ahead as usize + 1] as usize {
                walked.prefetch(targets[first]);
            }
        }
        if walked.post(root) == 0 {
            r = walk(dag, base, root, r, &walked, bufs);
        }
    }
    if apart {
        out.copy_intervals_from(own);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A five-vertex DAG whose labels were worked out by hand from docs/ALGORITHMS.md's definition.
    #[test]
    fn small_dag_matches_hand_computation() {
        // 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3, 4 -> 2
        let g = Graph::from_edges(5, &[(0, 1), (0, 2), (1, 3), (2, 3), (4, 2)]).unwrap();
        let d = label(&g, 1, Order::Lex).unwrap().dimension(0);
        // DFS from 0: 0,1,3 (post 1), 1 (post 2), 2 (post 3), 0 (post 4); then 4 (post 5).
        assert_eq!(d.post, vec![4, 2, 3, 1, 5]);
        assert_eq!(d.low, vec![1, 1, 1, 1, 1]);
        assert_eq!(d.subtree, vec![4, 2, 1, 1, 1]);
    }

    #[test]
    fn deep_chain_does_not_overflow_the_stack() {
        let n = 1_000_000u32;
        let edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
        let g = Graph::from_edges(n as usize, &edges).unwrap();
        let labels = label(&g, 2, Order::Random { seed: 1 }).unwrap();
        assert_eq!(labels.interval(0, 0).post, n);
        assert_eq!(labels.level(n - 1), n - 1);
    }

    #[test]
    fn a_cycle_is_refused_not_walked() {
        let g = Graph::from_edges(3, &[(0, 1), (1, 2), (2, 0)]).unwrap();
        assert!(label(&g, 2, Order::Lex).is_err());
    }

    #[test]
    fn one_thread_and_many_give_the_same_labels() {
        let edges: Vec<(u32, u32)> = (0..3000u32).flat_map(|v| [(v, v + 1 + v % 7), (v, v + 13 + v % 3)]).collect();
        let g = Graph::from_edges(3020, &edges).unwrap();
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let many = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        for order in [Order::Lex, Order::Random { seed: 2 }] {
            let a = one.install(|| label(&g, 4, order).unwrap());
            let b = many.install(|| label(&g, 4, order).unwrap());
            assert_eq!(a, b, "{order}");
        }
    }
}

/// The regions against the walk from the roots.
#[cfg(test)]
mod regions_tests {
    use super::{Walk, dfs_regions, label_by};
    use crate::graph::Graph;
    use crate::index::Order;
    use crate::telemetry::NullSink;
    use rand::RngExt;

    /// A DAG of `n` vertices of which `inner` are not roots (or fewer): every vertex points to
    /// up to `fan` of the inner ones above it, which point among themselves, so regions of every
    /// size arise, from a root alone to one holding most of the inner vertices.
    fn root_heavy(n: u32, inner: u32, fan: u32, seed: u64) -> Graph {
        let mut rng = crate::rng::seeded(seed);
        let mut edges = Vec::new();
        for v in 0..n {
            // Inner vertices are ids `n - inner..n`; an edge always goes to a higher id.
            let lowest = (v + 1).max(n - inner);
            for _ in 0..rng.random_range(0..=fan) {
                if lowest < n {
                    edges.push((v, rng.random_range(lowest..n)));
                }
            }
        }
        edges.sort_unstable();
        edges.dedup();
        Graph::from_edges(n as usize, &edges).unwrap()
    }

    #[test]
    fn regions_give_the_walks_labels() {
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let many = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let mut graphs = 0;
        for seed in 0..40u64 {
            let n = 50 + (seed as u32 * 37) % 400;
            let inner = [0, 1, 3, n / 20, n / 4, n][seed as usize % 6];
            let g = root_heavy(n, inner, 1 + seed as u32 % 4, seed);
            for order in [Order::Lex, Order::Random { seed }] {
                let dims = 1 + seed as usize % 4;
                let walked = one.install(|| label_by(&g, dims, order, &mut NullSink, Walk::FromRoots).unwrap());
                for pool in [&one, &many] {
                    let regions = pool.install(|| label_by(&g, dims, order, &mut NullSink, Walk::ByRegions).unwrap());
                    assert_eq!(regions, walked, "seed {seed}, {n} vertices, {inner} inner, {order}");
                }
            }
            graphs += 1;
        }
        assert_eq!(graphs, 40);
    }

    /// Graphs larger than the chunks the passes split among cores: every chunk's start found.
    #[test]
    fn regions_split_among_cores_give_the_walks_labels() {
        let many = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        for (seed, inner) in [(1u64, 0u32), (2, 2_000), (3, 9_000)] {
            let g = root_heavy(70_000, inner, 2, seed);
            let order = Order::Random { seed };
            let walked = label_by(&g, 2, order, &mut NullSink, Walk::FromRoots).unwrap();
            let regions = many.install(|| label_by(&g, 2, order, &mut NullSink, Walk::ByRegions).unwrap());
            assert_eq!(regions, walked, "seed {seed}, {inner} inner");
        }
    }

    #[test]
    fn graphs_of_roots_alone_and_no_graph_at_all() {
        for n in [0, 1, 5] {
            let g = Graph::from_edges(n, &[]).unwrap();
            let labels = label_by(&g, 2, Order::Random { seed: 3 }, &mut NullSink, Walk::ByRegions).unwrap();
            assert_eq!(labels, label_by(&g, 2, Order::Random { seed: 3 }, &mut NullSink, Walk::FromRoots).unwrap());
            assert_eq!(labels.num_vertices(), n);
        }
    }

    #[test]
    fn graphs_made_mostly_of_roots_are_labeled_by_regions() {
        let mostly_roots = root_heavy(1000, 50, 2, 1);
        let roots = (0..1000).filter(|&v| mostly_roots.parents(v).is_empty()).count();
        assert!(dfs_regions::pays(&mostly_roots, roots), "{roots} roots of 1000");
        let chain = Graph::from_edges(1000, &(0..999).map(|v| (v, v + 1)).collect::<Vec<_>>()).unwrap();
        assert!(!dfs_regions::pays(&chain, 1));
    }
}
