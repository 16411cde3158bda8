//! Topological levels (Kahn): a vertex's level is the longest path to it from a root.

use super::Graph;
use super::csr::{KahnMemo, running_sums};
use crate::prefetch::prefetch;
use crate::{Error, Result};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Levels of a DAG's vertices, roots at 0; an error if the graph has a cycle.
/// Also returns the vertices sorted by level (a topological order), which callers reuse.
///
/// With more than two threads the levels are found round by round in parallel (every round
/// releases the vertices whose last parent the previous round finished); with fewer, one queue
/// with prefetching is faster. Both give the same levels.
///
/// Computed once per graph and kept with it (condensing a DAG computes them, opening a `.grail`
/// file adopts the ones it stores, and labeling and the query index ask again); later calls copy
/// them.
pub fn levels(graph: &Graph) -> Result<(Vec<u32>, Vec<u32>)> {
    let k = kahn(graph)?;
    Ok((k.level.to_vec(), k.order.to_vec()))
}

/// The graph's own Kahn levels, without copies (computed on the first call, see [`levels`]).
#[derive(Clone, Copy, Debug)]
pub struct Kahn<'g> {
    /// Each vertex's level.
    pub level: &'g [u32],
    /// The vertices level by level.
    pub order: &'g [u32],
    /// Where each level starts in `order`, then `order`'s end: the first k levels hold
    /// `starts[k]` vertices.
    pub starts: &'g [usize],
}

impl Kahn<'_> {
    /// Levels: the longest path plus one (0 for an empty graph).
    pub fn num_levels(&self) -> usize {
        self.starts.len() - 1
    }
}

/// The graph's Kahn levels, borrowed from the graph (computed on the first call). Fails if the
/// graph has a cycle.
pub fn kahn(graph: &Graph) -> Result<Kahn<'_>> {
    let (level, order, starts) = graph.kahn_memo().get_or_try_init(|| compute_levels(graph))?;
    Ok(Kahn { level, order, starts })
}

/// Takes levels found earlier (a `.grail` file stores them) as the graph's Kahn levels, after
/// checking that they are exactly those: a vertex without parents on level 0, any other one level
/// below its deepest parent (which also proves the graph acyclic). The vertices are listed level by
/// level, by id within a level: O(n + m), where finding the levels again takes rounds of atomics
/// over every edge. Refuses with a vertex whose level is wrong.
pub fn adopt_levels(graph: &Graph, level: Vec<u32>) -> Result<(), AdoptError> {
    let n = graph.num_vertices();
    if level.len() != n {
        return Err(AdoptError::Count(level.len()));
    }
    let expected = |v: u32| graph.parents(v).iter().map(|&p| level[p as usize] + 1).max().unwrap_or(0);
    // Levels below n first, so that `+ 1` above cannot overflow.
    if let Some(v) = (0..n as u32).into_par_iter().find_first(|&v| level[v as usize] as usize >= n) {
        return Err(AdoptError::Wrong(v));
    }
    if let Some(v) = (0..n as u32).into_par_iter().with_min_len(1024).find_first(|&v| level[v as usize] != expected(v))
    {
        return Err(AdoptError::Wrong(v));
    }
    graph.kahn_memo().offer(memo_of_levels(level));
    Ok(())
}

/// Gives `reversed`, which is `dag` with every edge turned round, its Kahn levels from `dag`'s: a
/// vertex's level there is its height here ([`heights`]), where finding the levels of `reversed`
/// from scratch takes rounds of atomic counters (random 1.5M / degree 100 on 16 cores: about 0.3 s).
pub fn adopt_heights(dag: &Graph, reversed: &Graph) -> Result<()> {
    reversed.kahn_memo().offer(memo_of_levels(heights(dag)?));
    Ok(())
}

/// Every vertex's height: the longest path from it down to a sink (0 for a sink). Filled level by
/// level of the Kahn levels from the deepest up, each wide level on every core: one read per edge,
/// no atomics. Fails on a graph with a cycle.
pub fn heights(dag: &Graph) -> Result<Vec<u32>> {
    /// Levels with fewer vertices than this are filled on the calling thread.
    const PARALLEL_LEVEL: usize = 1024;
    let kahn = kahn(dag)?;
    let height: Vec<AtomicU32> = (0..dag.num_vertices()).map(|_| AtomicU32::new(0)).collect();
    let fill = |&v: &u32| {
        let below = dag.children(v).iter().map(|&c| height[c as usize].load(Relaxed) + 1).max();
        // A vertex's children lie on deeper levels, all filled before its own.
        height[v as usize].store(below.unwrap_or(0), Relaxed);
    };
    for l in (0..kahn.num_levels()).rev() {
        let vertices = &kahn.order[kahn.starts[l]..kahn.starts[l + 1]];
        if vertices.len() < PARALLEL_LEVEL {
            vertices.iter().for_each(fill);
        } else {
            vertices.par_iter().with_min_len(256).for_each(fill);
        }
    }
    Ok(height.into_iter().map(AtomicU32::into_inner).collect())
}

/// The Kahn memo of levels known to be right: the vertices listed level by level, by id within a
/// level, and where each level starts.
fn memo_of_levels(level: Vec<u32>) -> KahnMemo {
    let levels = level.par_iter().max().map_or(0, |&l| l as usize + 1);
    let mut starts = vec![0usize; levels + 1];
    for &l in &level {
        starts[l as usize + 1] += 1;
    }
    running_sums(&mut starts);
    let mut order = vec![0u32; level.len()];
    let mut cursor = starts.clone();
    for (v, &l) in level.iter().enumerate() {
        order[cursor[l as usize]] = v as u32;
        cursor[l as usize] += 1;
    }
    (level, order, starts)
}

/// Why [`adopt_levels`] refused: not one level per vertex, or this vertex's level is wrong.
#[derive(Debug, PartialEq)]
pub enum AdoptError {
    /// The levels given number this many, not one per vertex.
    Count(usize),
    /// This vertex's level is not one below its deepest parent (or 0 for a root).
    Wrong(u32),
}

fn compute_levels(graph: &Graph) -> Result<KahnMemo> {
    let (level, order, starts) =
        if rayon::current_num_threads() > 2 { levels_by_rounds(graph) } else { levels_by_queue(graph) };
    let n = graph.num_vertices();
    if order.len() != n {
        let below = n - order.len();
        return Err(Error::InvalidGraph(format!(
            "the graph has a cycle ({below} of {n} vertices lie on or below one); condense it first"
        )));
    }
    Ok((level, order, starts))
}

/// Kahn's algorithm with one FIFO queue. The queue order jumps around the graph, so each vertex
/// costs three dependent cache misses (its offsets, its list, its children's counters); they are
/// prefetched in three stages ahead of the vertex, so the misses of several vertices overlap.
fn levels_by_queue(graph: &Graph) -> KahnMemo {
    const AHEAD: usize = 4;
    let (offsets, targets) = (graph.children_csr().offsets(), graph.children_csr().targets());
    let n = graph.num_vertices();
    // (parents not yet done, level so far) side by side: one cache miss per edge, not two.
    let mut state: Vec<[u32; 2]> =
        (0..n as u32).into_par_iter().map(|v| [graph.parents_csr().degree(v) as u32, 0]).collect();
    let mut order: Vec<u32> = Vec::with_capacity(n);
    order.par_extend((0..n as u32).into_par_iter().filter(|&v| state[v as usize][0] == 0));
    let mut head = 0;
    while head < order.len() {
        if let Some(&far) = order.get(head + 4 * AHEAD) {
            prefetch(offsets, far as usize);
        }
        if let Some(&mid) = order.get(head + 2 * AHEAD) {
            prefetch(targets, offsets[mid as usize] as usize);
        }
        if let Some(&near) = order.get(head + AHEAD) {
            for &c in graph.children(near) {
                prefetch(&state, c as usize);
            }
        }
        let v = order[head];
        head += 1;
        let next = state[v as usize][1] + 1;
        for &c in graph.children(v) {
            let s = &mut state[c as usize];
            s[1] = s[1].max(next);
            s[0] -= 1;
            if s[0] == 0 {
                order.push(c);
            }
        }
    }
    let level: Vec<u32> = state.into_par_iter().map(|[_, level]| level).collect();
    // The queue pops vertices by non-decreasing level: a level starts where the level changes.
    let mut starts = vec![0];
    starts.extend((1..order.len()).filter(|&i| level[order[i] as usize] != level[order[i - 1] as usize]));
    if !order.is_empty() {
        starts.push(order.len());
    }
    (level, order, starts)
}

/// Level-synchronous Kahn: round r holds the vertices of level r; processing it decrements their
/// children's counters (atomically: two parents may share a child) and the children that reach
/// zero form round r + 1. A vertex's counter, once zero, is never decremented again, so it then
/// stores the vertex's level.
fn levels_by_rounds(graph: &Graph) -> KahnMemo {
    /// Rounds with fewer edges than this run on one thread (a long chain has a round per vertex).
    /// Counted in edges, not vertices: on a random DAG of degree 100 and depth about 1,000, rounds
    /// of a few hundred vertices hold tens of thousands of edges each, too many for one thread.
    const SMALL_ROUND_EDGES: usize = 1 << 14;
    /// Edges per parallel task.
    const TASK_EDGES: usize = 1 << 12;
    let n = graph.num_vertices();
    let degree = graph.num_edges().div_ceil(n.max(1)).max(1);
    let small_round = (SMALL_ROUND_EDGES / degree).clamp(64, 1 << 12);
    let task = (TASK_EDGES / degree).clamp(8, 256);
    let pending: Vec<AtomicU32> =
        (0..n as u32).into_par_iter().map(|v| AtomicU32::new(graph.parents_csr().degree(v) as u32)).collect();
    let mut frontier: Vec<u32> =
        (0..n as u32).into_par_iter().filter(|&v| pending[v as usize].load(Relaxed) == 0).collect();
    let hubs = Hubs::of(graph);
    let mut order: Vec<u32> = Vec::with_capacity(n);
    let mut starts = vec![0];
    let release = |v: u32, next: &mut Vec<u32>| {
        for &c in graph.children(v) {
            if pending[c as usize].fetch_sub(1, Relaxed) == 1 {
                next.push(c);
            }
        }
    };
    let mut round = 0u32;
    while !frontier.is_empty() {
        let next: Vec<u32> = if frontier.len() < small_round {
            let mut next = Vec::new();
            for &v in &frontier {
                pending[v as usize].store(round, Relaxed);
                release(v, &mut next);
            }
            next
        } else {
            frontier.par_iter().for_each(|&v| pending[v as usize].store(round, Relaxed));
            frontier
                .par_chunks(task)
                .map(|chunk| {
                    // A hub's decrements are summed here and applied once per task: from every
                    // thread at once, one counter's cache line took longer than the whole round
                    // (uniprotenc_22m: a vertex with 1.5M parents, 16 threads).
                    let (mut next, mut held) = (Vec::new(), Vec::<(u32, u32)>::new());
                    for &v in chunk {
                        for &c in graph.children(v) {
                            if hubs.contains(c) {
                                match held.iter_mut().find(|(hub, _)| *hub == c) {
                                    Some((_, count)) => *count += 1,
                                    None => held.push((c, 1)),
                                }
                            } else if pending[c as usize].fetch_sub(1, Relaxed) == 1 {
                                next.push(c);
                            }
                        }
                    }
                    for (c, count) in held {
                        if pending[c as usize].fetch_sub(count, Relaxed) == count {
                            next.push(c);
                        }
                    }
                    next
                })
                .flatten_iter()
                .collect()
        };
        order.append(&mut frontier);
        starts.push(order.len());
        frontier = next;
        round += 1;
    }
    // Vertices on or below a cycle never reached zero: their counters are not levels, but then
    // `order` is short and the caller reports the cycle.
    (pending.into_par_iter().map(AtomicU32::into_inner).collect(), order, starts)
}

/// The vertices with so many parents that decrementing their counters edge by edge from every
/// thread would serialise a round: a bit set, small enough to stay in cache.
struct Hubs(Vec<u64>);

impl Hubs {
    const PARENTS: usize = 1 << 10;

    fn of(graph: &Graph) -> Hubs {
        let n = graph.num_vertices();
        let parents = graph.parents_csr();
        let word = |w: usize| {
            (64 * w..(64 * w + 64).min(n))
                .fold(0u64, |bits, v| bits | (u64::from(parents.degree(v as u32) >= Self::PARENTS) << (v % 64)))
        };
        Hubs((0..n.div_ceil(64)).into_par_iter().map(word).collect())
    }

    #[inline]
    fn contains(&self, v: u32) -> bool {
        self.0[v as usize / 64] >> (v % 64) & 1 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_path_levels() {
        // 0 -> 1 -> 2 and 0 -> 2: level of 2 is 2, not 1.
        let g = Graph::from_edges(4, &[(0, 1), (1, 2), (0, 2)]).unwrap();
        let (level, order) = levels(&g).unwrap();
        assert_eq!(level, vec![0, 1, 2, 0]);
        assert_eq!(order.len(), 4);
    }

    #[test]
    fn rounds_and_queue_agree() {
        for seed in 0..4 {
            let g = crate::graph::generators::random_dag(20_000, 3.0 + seed as f64, seed).unwrap();
            let (queue_levels, queue_order, queue_starts) = levels_by_queue(&g);
            let (round_levels, round_order, round_starts) = levels_by_rounds(&g);
            assert_eq!(queue_levels, round_levels);
            assert_eq!(queue_starts, round_starts);
            let levels = queue_levels.iter().max().unwrap() + 1;
            assert_eq!(queue_starts.len(), levels as usize + 1);
            for (l, w) in queue_starts.windows(2).enumerate() {
                assert!(round_order[w[0]..w[1]].iter().all(|&v| round_levels[v as usize] == l as u32));
            }
            for order in [queue_order, round_order] {
                assert_eq!(order.len(), 20_000);
                assert!(order.windows(2).all(|w| queue_levels[w[0] as usize] <= queue_levels[w[1] as usize]));
            }
        }
        let chain = Graph::from_edges(3, &[(2, 1), (1, 0)]).unwrap();
        assert_eq!(levels_by_rounds(&chain).0, vec![2, 1, 0]);
        // A hub below 10,000 roots (a round large enough to run in parallel, a hub's counter
        // decremented per task), a chain below it, and a second path around it.
        let roots = 10_000u32;
        let (hub, below, beside) = (roots, roots + 1, roots + 2);
        let mut edges: Vec<(u32, u32)> = (0..roots).map(|r| (r, hub)).collect();
        edges.extend([(hub, below), (0, beside), (beside, below)]);
        let g = Graph::from_edges(roots as usize + 3, &edges).unwrap();
        assert!(Hubs::of(&g).contains(hub) && !Hubs::of(&g).contains(below));
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
        let (levels, order, starts) = pool.install(|| levels_by_rounds(&g));
        assert_eq!(starts, vec![0, roots as usize, roots as usize + 2, roots as usize + 3]);
        assert_eq!(levels, levels_by_queue(&g).0);
        assert_eq!((levels[hub as usize], levels[below as usize], order.len()), (1, 2, roots as usize + 3));
        let cycle = Graph::from_edges(3, &[(0, 1), (1, 0), (2, 0)]).unwrap();
        assert_eq!(levels_by_rounds(&cycle).1, vec![2]);
    }

    #[test]
    fn adopted_levels_are_the_kahn_levels_or_refused() {
        let g = crate::graph::generators::random_dag(5_000, 4.0, 3).unwrap();
        let (level, order, starts) = levels_by_queue(&g);
        let fresh = g.clone();
        adopt_levels(&fresh, level.clone()).unwrap();
        let adopted = kahn(&fresh).unwrap();
        assert_eq!((adopted.level, adopted.starts), (&level[..], &starts[..]));
        let mut sorted = order.clone();
        for w in starts.windows(2) {
            sorted[w[0]..w[1]].sort_unstable();
        }
        assert_eq!(adopted.order, &sorted[..], "level by level, by id within a level");

        // 0 -> 1 -> 2 and 0 -> 2: 2 on level 1 would still increase along 0 -> 2, but not along
        // 1 -> 2; a gap (2 on level 3) increases along every edge but is not its Kahn level.
        let g = Graph::from_edges(3, &[(0, 1), (1, 2), (0, 2)]).unwrap();
        assert_eq!(adopt_levels(&g.clone(), vec![0, 1, 1]), Err(AdoptError::Wrong(2)));
        assert_eq!(adopt_levels(&g.clone(), vec![0, 1, 3]), Err(AdoptError::Wrong(2)));
        assert_eq!(adopt_levels(&g.clone(), vec![1, 2, 2]), Err(AdoptError::Wrong(0)));
        assert_eq!(adopt_levels(&g.clone(), vec![0, 1]), Err(AdoptError::Count(2)));
        let cycle = Graph::from_edges(2, &[(0, 1), (1, 0)]).unwrap();
        assert!(adopt_levels(&cycle, vec![0, 1]).is_err() && adopt_levels(&cycle, vec![1, 0]).is_err());
        assert!(cycle.kahn_memo().get().is_none());
    }

    #[test]
    fn cycle_is_an_error() {
        let g = Graph::from_edges(2, &[(0, 1), (1, 0)]).unwrap();
        assert!(levels(&g).is_err());
        assert!(levels(&g).is_err(), "an error is not remembered as levels");
    }

    #[test]
    fn levels_are_computed_once_and_kept_with_the_graph() {
        let g = Graph::from_edges(4, &[(0, 1), (1, 2), (0, 3)]).unwrap();
        let first = levels(&g).unwrap();
        assert_eq!(first.0, vec![0, 1, 2, 1]);
        assert!(g.kahn_memo().get().is_some());
        assert_eq!(levels(&g).unwrap(), first);
        // A clone keeps them; equality ignores them.
        assert_eq!(levels(&g.clone()).unwrap(), first);
        assert_eq!(g, Graph::from_edges(4, &[(0, 1), (1, 2), (0, 3)]).unwrap());
    }

    #[test]
    fn heights_are_the_reversed_graphs_levels() {
        use crate::graph::generators::{random_dag, tree};
        // Wide levels too, so that several threads fill them.
        for g in [random_dag(3000, 4.0, 3).unwrap(), tree(5000, 8).unwrap(), Graph::from_edges(3, &[]).unwrap()] {
            let reversed = g.reversed();
            adopt_heights(&g, &reversed).unwrap();
            let (level, order) = levels(&reversed).unwrap();
            assert_eq!((level, order.len()), (levels(&g.reversed()).unwrap().0, g.num_vertices()));
            let kahn = kahn(&reversed).unwrap();
            // Level by level, as the memo promises.
            assert!(kahn.order.windows(2).all(|w| kahn.level[w[0] as usize] <= kahn.level[w[1] as usize]));
            assert_eq!(*kahn.starts.last().unwrap(), g.num_vertices());
        }
    }
}
