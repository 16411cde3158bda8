//! What dominates a graph: its hubs (the largest in- and out-degrees of the graph as loaded), its
//! widest topological levels (components per Kahn level of the condensation), and the vertices
//! that reach, or are reached by, the most others: exact by bit sets propagated over the
//! condensation while it is small, otherwise estimated from bottom-k sketches propagated along it.

use super::Graph;
use super::scc::Condensation;
use super::topo;
use crate::mix::mix64;
use rayon::prelude::*;

/// Entries in each ranking.
pub const TOP: usize = 5;
/// The most components whose reach is counted exactly (bit sets); beyond, it is estimated.
pub const EXACT_REACH_LIMIT: usize = 50_000;
/// The most word operations the exact count may take, `(n + m) · n / 64` per direction (a fraction
/// of a second); a condensation within [`EXACT_REACH_LIMIT`] but with more edges is estimated.
pub const EXACT_REACH_WORK: u64 = 1 << 28;
/// Hashes kept per component by the estimate, unless memory asks for fewer.
pub const SKETCH_K: usize = 64;
/// Bytes the estimate's sketches may take (`components · k · 4`); a larger graph gets a smaller k.
const SKETCH_BYTES: usize = 1 << 30;
/// The fewest hashes per sketch.
const SKETCH_K_MIN: usize = 8;
/// Bytes the exact count's bit sets may take, over all threads.
const EXACT_BYTES: usize = 64 << 20;
/// Seed of the vertices' hashes in the sketches (the estimate is reproducible).
const SKETCH_SEED: u64 = 0x5eed_d0d1;

/// A vertex and how many of something it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ranked {
    /// Dense vertex id of the graph as loaded.
    pub vertex: u32,
    /// The degree, or the vertices reached.
    pub count: u64,
}

/// A topological level of the condensation and the components on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelWidth {
    /// The level (0 = the roots).
    pub level: u32,
    /// Components on it.
    pub components: u64,
}

/// How the reach counts were made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReachMethod {
    /// Every reachable vertex counted.
    Exact,
    /// Estimated from bottom-k sketches with `k` hashes each.
    BottomK {
        /// Hashes per sketch.
        k: usize,
    },
}

impl ReachMethod {
    /// How a front end names it: `exact`, or the estimate with its error.
    pub fn describe(self) -> String {
        match self {
            ReachMethod::Exact => "exact".to_string(),
            ReachMethod::BottomK { k } => {
                format!(
                    "estimate (bottom-k, k={k}, relative error about 1/sqrt(k) = {:.0}%)",
                    100.0 / (k as f64).sqrt()
                )
            }
        }
    }
}

/// A component that reaches (or is reached by) many vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReachEntry {
    /// Its smallest vertex (dense id of the graph as loaded); every member reaches the same.
    pub vertex: u32,
    /// Vertices in its component.
    pub component_size: u32,
    /// Other vertices of the graph it reaches (or that reach it), its component's included.
    pub count: u64,
}

impl ReachEntry {
    /// `alice [in a component of 3 vertices] reaches 23 others`, with `label` for the vertex,
    /// `verb` (`reaches`, `is reached by`) and `approx` before the count (`~` for an estimate).
    pub fn sentence(&self, label: &str, verb: &str, approx: &str) -> String {
        let of = if self.component_size > 1 {
            format!(" [in a component of {} vertices]", crate::format::thousands(u64::from(self.component_size)))
        } else {
            String::new()
        };
        format!("{label}{of} {verb} {approx}{}", crate::format::plural(self.count, "other", "others"))
    }
}

/// The reach rankings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Exact or estimated.
    pub method: ReachMethod,
    /// The components reaching the most vertices, most first.
    pub reaching: Vec<ReachEntry>,
    /// The components reached by the most vertices, most first.
    pub reached: Vec<ReachEntry>,
}

/// Everything that dominates, [`TOP`] of each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dominance {
    /// The largest out-degrees of the graph as loaded, largest first (ties: smaller id first).
    pub top_out_degree: Vec<Ranked>,
    /// The largest in-degrees of the graph as loaded.
    pub top_in_degree: Vec<Ranked>,
    /// The Kahn levels of the condensation holding the most components, widest first.
    pub widest_levels: Vec<LevelWidth>,
    /// Who reaches, and who is reached by, the most; `None` where only a quick look was asked for
    /// and counting would not be quick.
    pub reach: Option<Reach>,
}

/// The most word operations of an exact reach count that a quick look makes (tens of milliseconds):
/// the explorer computes what dominates as it opens a graph, and must not keep the user waiting.
pub const QUICK_REACH_WORK: u64 = 1 << 25;

/// Computes what dominates `graph`, condensed as `condensation`. With `quick`, the reach counts are
/// made only where an exact count takes milliseconds (hubs and levels always are).
pub fn compute(graph: &Graph, condensation: &Condensation, quick: bool) -> Dominance {
    let n = graph.num_vertices() as u32;
    let degrees = |csr: &super::Csr| top(n, |v| csr.degree(v) as u64);
    let mut per_level: Vec<u64> = Vec::new();
    for &l in &condensation.levels {
        if per_level.len() <= l as usize {
            per_level.resize(l as usize + 1, 0);
        }
        per_level[l as usize] += 1;
    }
    let widest = top(per_level.len() as u32, |l| per_level[l as usize]);
    Dominance {
        top_out_degree: degrees(graph.children_csr()),
        top_in_degree: degrees(graph.parents_csr()),
        widest_levels: widest.into_iter().map(|r| LevelWidth { level: r.vertex, components: r.count }).collect(),
        reach: (!quick || exact_reach_work(condensation) <= QUICK_REACH_WORK).then(|| reach(condensation)),
    }
}

/// Whether [`reach`] counts `condensation`'s reach exactly (else it estimates it).
pub fn reach_is_exact(condensation: &Condensation) -> bool {
    condensation.dag.num_vertices() <= EXACT_REACH_LIMIT && exact_reach_work(condensation) <= EXACT_REACH_WORK
}

/// Word operations of the exact reach count, one direction: `(n + m) · n / 64`.
fn exact_reach_work(condensation: &Condensation) -> u64 {
    let dag = &condensation.dag;
    let n = dag.num_vertices();
    (n as u64 + dag.num_edges() as u64) * n.div_ceil(64) as u64
}

/// The [`TOP`] items of `0..n` by `count`, largest first, ties by smaller id; zero counts left out.
fn top(n: u32, count: impl Fn(u32) -> u64 + Sync) -> Vec<Ranked> {
    let mut all: Vec<Ranked> =
        (0..n).into_par_iter().map(|v| Ranked { vertex: v, count: count(v) }).filter(|r| r.count > 0).collect();
    let key = |r: &Ranked| (std::cmp::Reverse(r.count), r.vertex);
    if all.len() > TOP {
        all.select_nth_unstable_by_key(TOP, key);
        all.truncate(TOP);
    }
    all.sort_unstable_by_key(key);
    all
}

/// Reach counts per component, exact or estimated by the condensation's size and edges, ranked.
pub fn reach(condensation: &Condensation) -> Reach {
    let dag = &condensation.dag;
    let kahn = topo::kahn(dag).expect("a condensation is a DAG");
    let n = dag.num_vertices();
    let (method, down, up) = if reach_is_exact(condensation) {
        let down = exact_counts(dag, kahn.order, &condensation.sizes, false);
        let up = exact_counts(dag, kahn.order, &condensation.sizes, true);
        (ReachMethod::Exact, down, up)
    } else {
        let k = sketch_k(n);
        let down = at_least_the_neighbours(condensation, sketch_counts(condensation, &kahn, k, false), false);
        let up = at_least_the_neighbours(condensation, sketch_counts(condensation, &kahn, k, true), true);
        (ReachMethod::BottomK { k }, down, up)
    };
    let representatives = condensation.representatives();
    let rank = |counts: &[u64]| {
        // A component's members reach its other members too: the count is of vertices besides itself.
        top(n as u32, |c| counts[c as usize].saturating_sub(1))
            .into_iter()
            .map(|r| ReachEntry {
                vertex: representatives[r.vertex as usize],
                component_size: condensation.sizes[r.vertex as usize],
                count: r.count,
            })
            .collect()
    };
    Reach { method, reaching: rank(&down), reached: rank(&up) }
}

/// Estimates raised to what is known exactly: a component reaches at least itself and its
/// children (is reached by at least itself and its parents, when `up`), so an estimate below that
/// never contradicts the degrees shown beside it (a hub with 1.5M parents estimated as reached by
/// 1.4M).
fn at_least_the_neighbours(condensation: &Condensation, mut estimates: Vec<u64>, up: bool) -> Vec<u64> {
    let (dag, sizes) = (&condensation.dag, &condensation.sizes);
    estimates.par_iter_mut().enumerate().for_each(|(c, estimate)| {
        let next = if up { dag.parents(c as u32) } else { dag.children(c as u32) };
        let known = u64::from(sizes[c]) + next.iter().map(|&x| u64::from(sizes[x as usize])).sum::<u64>();
        *estimate = (*estimate).max(known);
    });
    estimates
}

/// The sketch size for `n` components: [`SKETCH_K`], or fewer where memory asks.
pub fn sketch_k(n: usize) -> usize {
    (SKETCH_BYTES / (4 * n.max(1))).clamp(SKETCH_K_MIN, SKETCH_K)
}

/// For every component, the vertices (sizes summed) it reaches, itself included: descendants, or
/// ancestors when `up`. Targets go in blocks of `64·w` bits, each block one pass over the DAG in
/// (reverse) topological order; blocks run in parallel within `EXACT_BYTES`.
pub fn exact_counts(dag: &Graph, order: &[u32], sizes: &[u32], up: bool) -> Vec<u64> {
    let n = dag.num_vertices();
    if n == 0 {
        return Vec::new();
    }
    let words = n.div_ceil(64);
    let threads = rayon::current_num_threads().max(1);
    let w = (EXACT_BYTES / threads / (8 * n)).clamp(1, words);
    let blocks: Vec<usize> = (0..words).step_by(w).collect();
    blocks
        .par_iter()
        .map(|&first_word| {
            let w = w.min(words - first_word);
            let (first, last) = (first_word * 64, ((first_word + w) * 64).min(n));
            // Components of more than one vertex in the block: their extra members are added bit by bit.
            let big: Vec<u64> = (0..w)
                .map(|i| {
                    let mut word = 0u64;
                    for b in 0..64 {
                        let t = (first_word + i) * 64 + b;
                        if t < n && sizes[t] > 1 {
                            word |= 1 << b;
                        }
                    }
                    word
                })
                .collect();
            let mut mask = vec![0u64; n * w];
            let mut counts = vec![0u64; n];
            let mut visit = |u: u32| {
                let u = u as usize;
                let mut own = vec![0u64; w];
                if (first..last).contains(&u) {
                    own[(u - first) / 64] |= 1 << ((u - first) % 64);
                }
                let next = if up { dag.parents(u as u32) } else { dag.children(u as u32) };
                for &c in next {
                    let c = c as usize;
                    for (o, m) in own.iter_mut().zip(&mask[c * w..(c + 1) * w]) {
                        *o |= m;
                    }
                }
                let mut count = 0u64;
                for (i, (&o, &b)) in own.iter().zip(&big).enumerate() {
                    count += u64::from(o.count_ones());
                    let mut extra = o & b;
                    while extra != 0 {
                        let t = (first_word + i) * 64 + extra.trailing_zeros() as usize;
                        count += u64::from(sizes[t] - 1);
                        extra &= extra - 1;
                    }
                }
                counts[u] = count;
                mask[u * w..(u + 1) * w].copy_from_slice(&own);
            };
            // Descendants: children first (reverse topological order); ancestors: parents first.
            if up {
                order.iter().for_each(|&u| visit(u));
            } else {
                order.iter().rev().for_each(|&u| visit(u));
            }
            counts
        })
        .reduce(
            || vec![0u64; n],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// For every component, an estimate of the vertices it reaches (itself included; ancestors when
/// `up`): the `k` smallest hashes of the vertices reached, merged from its children (parents) level
/// by level, give `(k - 1) / h_k` where `h_k` is the `k`-th smallest hash as a fraction; fewer than
/// `k` distinct hashes are counted as they are.
pub fn sketch_counts(condensation: &Condensation, kahn: &topo::Kahn, k: usize, up: bool) -> Vec<u64> {
    let dag = &condensation.dag;
    let n = dag.num_vertices();
    let mut sketches: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (v, &c) in condensation.component.iter().enumerate() {
        let h = (mix64(SKETCH_SEED, 0, v as u64) >> 32) as u32;
        let s = &mut sketches[c as usize];
        if s.len() < k || h < *s.last().unwrap() {
            let at = s.partition_point(|&x| x < h);
            if s.get(at) != Some(&h) {
                s.insert(at, h);
                s.truncate(k);
            }
        }
    }
    let levels: Vec<&[u32]> = kahn.starts.windows(2).map(|w| &kahn.order[w[0]..w[1]]).collect();
    let ordered: Box<dyn Iterator<Item = &&[u32]>> =
        if up { Box::new(levels.iter()) } else { Box::new(levels.iter().rev()) };
    for level in ordered {
        let merged: Vec<Vec<u32>> = level
            .par_iter()
            .map(|&u| {
                let next = if up { dag.parents(u) } else { dag.children(u) };
                next.iter().fold(sketches[u as usize].clone(), |acc, &c| merge(&acc, &sketches[c as usize], k))
            })
            .collect();
        for (&u, s) in level.iter().zip(merged) {
            sketches[u as usize] = s;
        }
    }
    sketches
        .par_iter()
        .map(|s| {
            if s.len() < k {
                s.len() as u64
            } else {
                let h_k = (f64::from(s[k - 1]) + 1.0) / 4_294_967_296.0;
                ((k - 1) as f64 / h_k).round() as u64
            }
        })
        .collect()
}

/// The `k` smallest distinct values of two ascending lists.
fn merge(a: &[u32], b: &[u32], k: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(k.min(a.len() + b.len()));
    let (mut i, mut j) = (0, 0);
    while out.len() < k && (i < a.len() || j < b.len()) {
        let x = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x == y => {
                i += 1;
                j += 1;
                x
            }
            (Some(&x), Some(&y)) if x < y => {
                i += 1;
                x
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (_, Some(&y)) => {
                j += 1;
                y
            }
            (None, None) => unreachable!(),
        };
        out.push(x);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::generators::GeneratorSpec;
    use crate::graph::scc::condense;
    use proptest::prelude::*;
    use std::collections::VecDeque;
    use std::sync::Arc;

    /// Vertices of the graph `s` reaches (itself included), by BFS.
    fn reached(g: &Graph, s: u32, up: bool) -> u64 {
        let mut seen = vec![false; g.num_vertices()];
        seen[s as usize] = true;
        let mut q = VecDeque::from([s]);
        let mut count = 1;
        while let Some(u) = q.pop_front() {
            for &c in if up { g.parents(u) } else { g.children(u) } {
                if !seen[c as usize] {
                    seen[c as usize] = true;
                    count += 1;
                    q.push_back(c);
                }
            }
        }
        count
    }

    #[test]
    fn hubs_and_levels_of_a_star() {
        // 0 -> 1..=4, 1..=4 -> 5.
        let edges: Vec<(u32, u32)> = (1..=4).flat_map(|i| [(0, i), (i, 5)]).collect();
        let g = Arc::new(Graph::from_edges(6, &edges).unwrap());
        let c = condense(&g);
        let d = compute(&g, &c, true);
        assert_eq!(d.top_out_degree[0], Ranked { vertex: 0, count: 4 });
        assert_eq!(d.top_in_degree[0], Ranked { vertex: 5, count: 4 });
        assert_eq!(d.top_out_degree.len(), TOP);
        assert_eq!(d.widest_levels[0], LevelWidth { level: 1, components: 4 });
        // A quick look counts a graph this small, exactly.
        let reach = d.reach.expect("counted");
        assert_eq!(reach.method, ReachMethod::Exact);
        assert_eq!(reach.reaching[0], ReachEntry { vertex: 0, component_size: 1, count: 5 });
        assert_eq!(reach.reached[0], ReachEntry { vertex: 5, component_size: 1, count: 5 });
    }

    #[test]
    fn a_quick_look_leaves_out_a_count_that_is_not_quick() {
        // 3,000 vertices in a chain: (n + m) · n / 64 ≈ 282K word operations per direction.
        let g = Arc::new(crate::graph::generators::chain(3000).unwrap());
        let c = condense(&g);
        assert!(exact_reach_work(&c) <= QUICK_REACH_WORK);
        assert!(compute(&g, &c, true).reach.is_some());
        let g = Arc::new(crate::graph::generators::chain(60_000).unwrap());
        let c = condense(&g);
        assert!(exact_reach_work(&c) > QUICK_REACH_WORK);
        assert!(compute(&g, &c, true).reach.is_none());
        assert!(compute(&g, &c, false).reach.is_some_and(|r| r.method != ReachMethod::Exact));
    }

    #[test]
    fn merging_keeps_the_smallest_distinct() {
        assert_eq!(merge(&[1, 4, 9], &[2, 4, 5], 4), vec![1, 2, 4, 5]);
        assert_eq!(merge(&[], &[3], 4), vec![3]);
    }

    #[test]
    fn the_estimate_is_close_on_a_random_dag() {
        let spec: GeneratorSpec = "random:n=3000,deg=3,seed=7".parse().unwrap();
        let g = Arc::new(spec.generate().unwrap());
        let c = condense(&g);
        let kahn = topo::kahn(&c.dag).unwrap();
        let exact = exact_counts(&c.dag, kahn.order, &c.sizes, false);
        let estimate = sketch_counts(&c, &kahn, SKETCH_K, false);
        // Where the exact count exceeds k, the estimate is within 4 standard errors (1/sqrt(k)).
        let mut checked = 0;
        for (e, s) in exact.iter().zip(&estimate) {
            if (*e as usize) < SKETCH_K {
                assert_eq!(e, s, "fewer than k vertices are counted exactly");
            } else {
                let error = (*s as f64 - *e as f64).abs() / *e as f64;
                assert!(error < 4.0 / (SKETCH_K as f64).sqrt(), "estimate {s} for {e}");
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} large reach sets");
    }

    #[test]
    fn an_estimate_is_never_below_the_neighbours() {
        // 3,000 parents of one hub, which has one child; a 2-cycle among the parents.
        let mut edges: Vec<(u32, u32)> = (0..3000u32).map(|v| (v, 3000)).collect();
        edges.extend([(3000, 3001), (0, 1), (1, 0)]);
        let c = condense(&Arc::new(Graph::from_edges(3002, &edges).unwrap()));
        let hub = c.component[3000] as usize;
        let up = at_least_the_neighbours(&c, vec![0; c.dag.num_vertices()], true);
        assert_eq!(up[hub], 3001, "the hub and its 3,000 parents, the 2-cycle counted as two");
        let down = at_least_the_neighbours(&c, vec![7000; c.dag.num_vertices()], false);
        assert!(down.iter().all(|&d| d == 7000), "an estimate above the bound stays");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn exact_counts_agree_with_bfs(n in 1usize..90, raw in prop::collection::vec((0u32..90, 0u32..90), 0..200)) {
            let edges: Vec<(u32, u32)> = raw.into_iter().map(|(a, b)| (a % n as u32, b % n as u32)).collect();
            let g = Arc::new(Graph::from_edges(n, &edges).unwrap());
            let c = condense(&g);
            let kahn = topo::kahn(&c.dag).unwrap();
            for up in [false, true] {
                let counts = exact_counts(&c.dag, kahn.order, &c.sizes, up);
                for v in 0..n as u32 {
                    prop_assert_eq!(counts[c.component[v as usize] as usize], reached(&g, v, up));
                }
            }
            let r = reach(&c);
            for e in r.reaching {
                prop_assert_eq!(e.count, reached(&g, e.vertex, false) - 1);
            }
            let best = (0..n as u32).map(|v| reached(&g, v, true) - 1).max().unwrap();
            prop_assert_eq!(r.reached.first().map_or(0, |e| e.count), best);
        }
    }
}
