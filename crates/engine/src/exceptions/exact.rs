//! Exceptions counted exactly over every ordered pair on the CPU, with the streamed bit-parallel
//! closure (the GPU's count, `src/gpu/exceptions.rs`, uses the same [`Candidates`]).

use super::counts::{EXAMPLES, ExceptionCounts, from_passes, keep_examples, leading_contained};
use crate::exact::closure::bit_parallel;
use crate::exact::heights::HeightOrder;
use crate::graph::Graph;
use crate::index::Labels;
use crate::{Cancel, Result};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The targets in the order the count takes them, by post order in dimension 0, and each source's
/// candidates. A pair can be a false positive only if `L(v) ⊆ L(u)` in dimension 0, so v's post lies
/// in `[low(u), post(u)]`: source `u`'s candidates are the slots `ranges[u].0..ranges[u].1`.
pub struct Candidates {
    /// The vertex at each slot.
    pub at_slot: Vec<u32>,
    /// Each vertex's slot.
    pub slot: Vec<u32>,
    /// Each source's candidate slots `[start, end)`.
    pub ranges: Vec<(usize, usize)>,
}

impl Candidates {
    /// The slots and candidate ranges of `labels`.
    pub fn new(labels: &Labels) -> Candidates {
        let n = labels.num_vertices();
        let mut at_slot: Vec<u32> = (0..n as u32).collect();
        at_slot.sort_unstable_by_key(|&v| labels.interval(v, 0).post);
        let posts: Vec<u32> = at_slot.iter().map(|&v| labels.interval(v, 0).post).collect();
        let mut slot = vec![0u32; n];
        for (s, &v) in at_slot.iter().enumerate() {
            slot[v as usize] = s as u32;
        }
        let ranges = (0..n as u32)
            .into_par_iter()
            .map(|u| {
                let i = labels.interval(u, 0);
                (posts.partition_point(|&p| p < i.low), posts.partition_point(|&p| p <= i.post))
            })
            .collect();
        Candidates { at_slot, slot, ranges }
    }
}

/// Exact counts over every ordered pair of `dag` (the plan asks up to `EXACT_LIMIT` vertices), without
/// storing the closure: the bit-parallel BFS of `exact::closure::bit_parallel` streams blocks of
/// 64·W targets, the targets numbered by their post order in dimension 0. A pair can be a false
/// positive only if `L(v) ⊆ L(u)` in dimension 0, so v's post lies in `[low(u), post(u)]`: for each
/// source only that range of the block is looked at, and the reachable pairs are counted by
/// popcount. `progress` gets the fraction of blocks done; a set `cancel` stops with an error.
pub fn exact(
    dag: &Graph,
    labels: &Labels,
    cancel: &AtomicBool,
    progress: &(dyn Fn(f64) + Sync),
) -> Result<ExceptionCounts> {
    let n = dag.num_vertices();
    let dims = labels.dims();
    let heights = HeightOrder::by_depth(dag)?;
    let Candidates { at_slot, slot, ranges } = Candidates::new(labels);
    let width = bit_parallel::block_words(n.div_ceil(64));
    let blocks = bit_parallel::blocks(n, width);
    let done = AtomicUsize::new(0);
    type Part = (u64, Vec<u64>, Vec<(u32, u32, usize)>);
    let parts: Option<Part> = blocks
        .par_iter()
        .map(|&(first, w)| {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let reach = bit_parallel::block_pass(dag, &heights.order, Some(&slot), first, w);
            let reachable: u64 = reach.iter().map(|x| x.count_ones() as u64).sum();
            let mut hist = vec![0u64; dims + 1];
            let mut examples = Vec::new();
            // The fewest dimensions a pair must fool to be kept (once EXAMPLES pairs are kept).
            let mut floor = 1;
            let last = first + 64 * w;
            for (u, &(start, end)) in ranges.iter().enumerate() {
                let u = u as u32;
                let words = &reach[u as usize * w..(u as usize + 1) * w];
                let (lo, hi) = (start.max(first), end.min(last));
                for (s, &v) in at_slot.iter().enumerate().take(hi).skip(lo) {
                    let t = s - first;
                    if v == u || words[t / 64] >> (t % 64) & 1 == 1 {
                        continue;
                    }
                    let k = leading_contained(labels, u, v);
                    if k > 0 {
                        hist[k] += 1;
                        // Only a pair fooling at least as many dimensions as the last kept one can
                        // still be kept: most false positives are never pushed (nor sorted).
                        if k >= floor {
                            examples.push((u, v, k));
                            if examples.len() > 4 * EXAMPLES {
                                examples = keep_examples(labels, examples);
                                if examples.len() == EXAMPLES {
                                    floor = examples[EXAMPLES - 1].2;
                                }
                            }
                        }
                    }
                }
            }
            let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
            progress(finished as f64 / blocks.len() as f64);
            Some((reachable, hist, keep_examples(labels, examples)))
        })
        .try_reduce(
            || (0, vec![0u64; dims + 1], Vec::new()),
            |(a, mut ha, mut ea), (b, hb, eb)| {
                ha.iter_mut().zip(&hb).for_each(|(x, y)| *x += y);
                ea.extend(eb);
                Some((a + b, ha, keep_examples(labels, ea)))
            },
        );
    let Some((reachable, hist, examples)) = parts else { return Err(Cancel::Work.into()) };
    Ok(from_passes(labels, n, reachable, hist, examples))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::generators::GeneratorSpec;
    use crate::index::{Order, dfs};
    use crate::query::oracle::reachable_bfs;

    #[test]
    fn exact_counts_match_brute_force_and_fall_with_dimensions() {
        let g = "random:n=300,deg=2,seed=5".parse::<GeneratorSpec>().unwrap().generate().unwrap();
        let labels = dfs::label(&g, 5, Order::Random { seed: 1 }).unwrap();
        let counts = exact(&g, &labels, &AtomicBool::new(false), &|_| {}).unwrap();
        for d in 1..=5 {
            let one = dfs::label(&g, d, Order::Random { seed: 1 }).unwrap();
            let mut brute = 0;
            for u in 0..300 {
                for v in 0..300 {
                    if u != v && one.may_reach(u, v) && !reachable_bfs(&g, u, v) {
                        brute += 1;
                    }
                }
            }
            assert_eq!(counts.false_positives[d - 1], brute, "d = {d}");
        }
        assert!(counts.false_positives.windows(2).all(|w| w[0] >= w[1]));
        // The examples are real false positives, fooling as many leading dimensions as they say.
        assert!(!counts.examples.is_empty() && counts.examples.len() <= EXAMPLES);
        assert!(counts.examples.windows(2).all(|w| w[0].2 >= w[1].2));
        // Among pairs fooling as many dimensions, those the level cut leaves to a search come first.
        let refuted = |&(u, v, _): &(u32, u32, usize)| labels.level(u) >= labels.level(v);
        assert!(counts.examples.windows(2).all(|w| w[0].2 > w[1].2 || !refuted(&w[0]) || refuted(&w[1])));
        for &(u, v, k) in &counts.examples {
            assert!(!reachable_bfs(&g, u, v), "{u} reaches {v}");
            assert_eq!(leading_contained(&labels, u, v), k);
        }
        assert!(counts.false_positives[0] > counts.false_positives[1]);
    }
}
