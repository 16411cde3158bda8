//! The classic DFS's labels found region by region: the same labels as [`super::dfs`]'s walk,
//! for graphs made mostly of roots, with far fewer fetches at random.
//!
//! The DFS from the `k`-th root in order enters exactly the vertices that no earlier root reaches:
//! those whose first root (the smallest rank among the roots reaching them) is `k`, its region. So
//! the regions' sizes, counted once every vertex knows its first root, place every region's posts
//! (region `k` holds posts `start(k) + 1 ..= start(k + 1)`) without walking the roots in order.
//! Per dimension:
//! - first roots, pushed down level by level from the roots' ranks (one pass over the edges);
//! - the regions holding more than their root are walked as the DFS walks them, entering only
//!   their own vertices (on uniprotenc_22m, 39 thousand of its 1.56 million roots);
//! - a root alone in its region (all it reaches was reached before) gets `start(k) + 1` and a
//!   subtree of 1, without a walk;
//! - the lows off level 0, from the deepest level up: `low(x) = min(post(x), low of every
//!   child)`, the DFS's own definition.
//!
//! Then one pass over the roots, by id, on every core, fills their lows in every dimension, where
//! the walk fetched a root's label and edges at random in each dimension's order.

use super::dfs_out::DimensionOut;
use super::dfs_walk::{WalkBuffers, walk};
use crate::graph::Graph;
use crate::graph::topo::Kahn;
use crate::prefetch::prefetch;
use rayon::prelude::*;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

/// Buffers of one dimension's regions, kept across dimensions on one thread.
#[derive(Default)]
pub(super) struct RegionScratch {
    /// Each vertex's first root, as that root's rank in the dimension's order.
    first: Vec<AtomicU32>,
}

/// Whether labeling by regions beats the walk on `dag`, which has `roots` roots: when at most an
/// eighth of its vertices lie off level 0. The walks of the regions then cover few vertices, and
/// the passes by id save random fetches per root. Measured (docs/BENCHMARKS.md, "Building the
/// index"): uniprotenc_22m (2% off level 0) a fifth to two fifths faster on one core, a fifth on
/// 16; citeseer.scc (12%) as fast on one core, a little faster on 16; yago_sub_6642 (22%) no
/// faster; graphs with fewer roots slower, up to twice as slow where one region holds nearly all.
pub(super) fn pays(dag: &Graph, roots: usize) -> bool {
    8 * (dag.num_vertices() - roots) <= dag.num_vertices()
}

/// Labels one dimension into `out` (whose `post` entries must be 0), given its `roots` in the
/// dimension's order, all but the roots' lows, which [`finish_roots`] fills for all dimensions at
/// once. `base` is the dimension's priority base (`None`: lex order).
pub(super) fn label_regions(
    dag: &Graph,
    kahn: &Kahn,
    base: Option<u64>,
    roots: &[u32],
    out: &DimensionOut,
    scratch: &mut RegionScratch,
    bufs: &mut WalkBuffers,
) {
    let n = dag.num_vertices();
    let first = &mut scratch.first;
    // First roots: each root's rank, then pushed down, level by level (parents before children).
    // Every step but the walks runs on every core the pool has (the dimensions run side by side,
    // fewer of them than cores): ranks and lone roots by chunks of the order, pushes by chunks of
    // a level, with an atomic minimum where two parents reach the same child.
    first.clear();
    first.par_extend((0..n).into_par_iter().with_min_len(CHUNK).map(|_| AtomicU32::new(u32::MAX)));
    let first = &first[..];
    roots.par_chunks(CHUNK).enumerate().for_each(|(chunk, roots)| {
        for (i, &root) in roots.iter().enumerate() {
            if let Some(&ahead) = roots.get(i + 2 * AHEAD) {
                prefetch(first, ahead as usize);
            }
            first[root as usize].store((chunk * CHUNK + i) as u32, Relaxed);
        }
    });
    // A push lowers a child's first root a few times among its many parents: only those pushes
    // write, and on several cores they take an atomic minimum (a plain write on one core, where
    // the atomic's cost showed).
    let shared = rayon::current_num_threads() > 1;
    let push = |&v: &u32| {
        let f = first[v as usize].load(Relaxed);
        for &c in dag.children(v) {
            let slot = &first[c as usize];
            if f < slot.load(Relaxed) {
                if shared {
                    slot.fetch_min(f, Relaxed);
                } else {
                    slot.store(f, Relaxed);
                }
            }
        }
    };
    for l in 0..kahn.num_levels() {
        let level = &kahn.order[kahn.starts[l]..kahn.starts[l + 1]];
        if shared && level.len() >= CHUNK {
            level.par_iter().with_min_len(CHUNK).for_each(push);
        } else {
            level.iter().for_each(push);
        }
    }
    let first = |v: u32| first[v as usize].load(Relaxed);
    // Region `k` starts after `k` regions' roots and the vertices off level 0 of the regions
    // before it. Those vertices are few where regions pay, so their first roots, sorted, give
    // every region's start: `walked` lists the regions that hold any, `before` how many lie in
    // the regions before each.
    let deep = &kahn.order[kahn.starts[1]..];
    let mut walked: Vec<u32> = deep.iter().map(|&v| first(v)).collect();
    walked.sort_unstable();
    let mut before = Vec::new();
    let mut i = 0;
    while i < walked.len() {
        let k = walked[i];
        walked[before.len()] = k;
        before.push(i as u32);
        while i < walked.len() && walked[i] == k {
            i += 1;
        }
    }
    walked.truncate(before.len());
    before.push(i as u32);
    let (offsets, targets) = (dag.children_csr().offsets(), dag.children_csr().targets());
    for (j, &k) in walked.iter().enumerate() {
        // The walks start at random roots: fetch each one's interval and edges a few walks
        // ahead, its first child's when those are in the cache, and that child's edges last.
        if let Some(&ahead) = walked.get(j + 2 * AHEAD) {
            let root = roots[ahead as usize];
            out.prefetch(root);
            prefetch(offsets, root as usize);
        }
        if let Some(&ahead) = walked.get(j + AHEAD) {
            prefetch(targets, offsets[roots[ahead as usize] as usize] as usize);
        }
        if let Some(&ahead) = walked.get(j + AHEAD / 2)
            && let Some(&c) = dag.children(roots[ahead as usize]).first()
        {
            out.prefetch(c);
            prefetch(offsets, c as usize);
        }
        // The regions are walked by rank, so a child of another region (an earlier one: it is
        // reached from this region's root) is finished already, like one seen here. The lows the
        // walk writes read such children's lows, not known yet: the pass below sets them all.
        let (root, start) = (roots[k as usize], k + before[j]);
        walk(dag, base, root, start + 1, out, bufs);
        debug_assert_eq!(out.post(root), start + before[j + 1] - before[j] + 1, "a region's posts, exactly");
    }
    // Lows from the deepest level up: every vertex off level 0 lies in a walked region.
    for (i, &v) in deep.iter().enumerate().rev() {
        if let Some(&ahead) = i.checked_sub(AHEAD).map(|a| &deep[a]) {
            prefetch_first_child(dag, out, ahead);
        }
        let low = dag.children(v).iter().fold(out.post(v), |low, &c| low.min(out.low(c)));
        out.set_low(v, low);
    }
    // The roots alone in their regions, by rank: a post right after the regions before, no walk.
    // Their entries lie at random: fetched ahead, or each write waits for its line.
    roots.par_chunks(CHUNK).enumerate().for_each(|(chunk, roots)| {
        let first_rank = (chunk * CHUNK) as u32;
        let mut j = walked.partition_point(|&k| k < first_rank);
        for (i, &root) in roots.iter().enumerate() {
            if let Some(&ahead) = roots.get(i + 2 * AHEAD) {
                out.prefetch_entries(ahead);
            }
            let k = first_rank + i as u32;
            if walked.get(j) == Some(&k) {
                j += 1;
            } else {
                out.finish(root, k + before[j] + 1, 1);
            }
        }
    });
}

/// Every root's low in every dimension, from its post and its children's lows (final: they are
/// not roots), by id on every core, a vertex's row of every dimension read once.
pub(super) fn finish_roots(dag: &Graph, outs: &[DimensionOut]) {
    let n = dag.num_vertices();
    let parents = dag.parents_csr().offsets();
    (0..n.div_ceil(CHUNK)).into_par_iter().for_each(|chunk| {
        let vertices = chunk * CHUNK..n.min((chunk + 1) * CHUNK);
        let end = vertices.end;
        for v in vertices {
            if v + AHEAD < end {
                prefetch_first_child(dag, &outs[0], (v + AHEAD) as u32);
            }
            if parents[v] != parents[v + 1] {
                continue;
            }
            let v = v as u32;
            for out in outs {
                let low = dag.children(v).iter().fold(out.post(v), |low, &c| low.min(out.low(c)));
                out.set_low(v, low);
            }
        }
    });
}

/// How many vertices ahead the passes fetch what they will read at random.
const AHEAD: usize = 8;

/// The vertices a core takes at a time in the passes that run on every core.
const CHUNK: usize = 1 << 14;

/// Fetches the interval of `v`'s first child in `out` (the row of every dimension), which a pass
/// over the lows reads (in the graphs regions pay on, most vertices have one child or none).
#[inline(always)]
fn prefetch_first_child(dag: &Graph, out: &DimensionOut, v: u32) {
    if let Some(&c) = dag.children(v).first() {
        out.prefetch(c);
    }
}
