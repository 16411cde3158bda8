//! BFS from every vertex, bit-parallel: 64 targets per word, W words per pass. For one block of
//! 64·W targets, `reach[v]` (W words) says which of them v reaches; taken sinks first (by height),
//! a vertex's words are its own bit OR its children's words, so one pass over the DAG answers the
//! whole block for every source at once. Blocks are independent: they run in parallel, and a
//! consumer that only counts can take them one at a time without storing the closure.

use super::super::bitmatrix::{BitMatrix, or_into};
use super::super::heights::HeightOrder;
use super::super::phases::PhaseClock;
use crate::graph::Graph;
use crate::{Cancel, Result};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// At most this many words per block (512 targets): wider passes read each edge once for more
/// targets, narrower ones give the threads more blocks to share.
const MAX_BLOCK_WORDS: usize = 8;

/// Words per block for `words` words of targets in all: enough blocks for every thread several times.
pub fn block_words(words: usize) -> usize {
    (words / (4 * rayon::current_num_threads())).clamp(1, MAX_BLOCK_WORDS)
}

/// One block's pass: for targets `first..first + 64·width`, the `width` words of every vertex
/// (vertex-major), computed in `order` (sinks first). Target slot `t` is vertex `t`, or with
/// `slots` the vertex `v` with `slots[v] == t` (a consumer that wants targets in another order).
pub fn block_pass(dag: &Graph, order: &[u32], slots: Option<&[u32]>, first: usize, width: usize) -> Vec<u64> {
    let n = dag.num_vertices();
    let mut reach = vec![0u64; n * width];
    let mut acc = vec![0u64; width];
    for &v in order {
        acc.iter_mut().for_each(|w| *w = 0);
        let v = v as usize;
        let slot = slots.map_or(v, |s| s[v] as usize);
        if (first..first + 64 * width).contains(&slot) {
            acc[(slot - first) / 64] |= 1 << ((slot - first) % 64);
        }
        for &c in dag.children(v as u32) {
            let c = c as usize;
            or_into(&mut acc, &reach[c * width..(c + 1) * width]);
        }
        reach[v * width..(v + 1) * width].copy_from_slice(&acc);
    }
    reach
}

/// The target blocks of an `n`-vertex DAG: (first target, words), the last one possibly narrower.
pub fn blocks(n: usize, width: usize) -> Vec<(usize, usize)> {
    let words = n.div_ceil(64);
    (0..words).step_by(width.max(1)).map(|w| (w * 64, width.min(words - w))).collect()
}

/// The whole closure, block by block in parallel, scattered into rows.
pub fn closure(dag: &Graph, clock: &mut PhaseClock) -> Result<BitMatrix> {
    let n = dag.num_vertices();
    let heights = clock.time("schedule", || HeightOrder::by_depth(dag))?;
    let mut matrix = BitMatrix::zeros(n)?;
    let words = matrix.words();
    let width = block_words(words);
    let all = blocks(n, width);
    clock.time("bit-parallel passes", || {
        // A round of blocks at a time, so at most a round's passes are held besides the matrix.
        for round in all.chunks(2 * rayon::current_num_threads()) {
            let passes: Vec<Vec<u64>> =
                round.par_iter().map(|&(first, w)| block_pass(dag, &heights.order, None, first, w)).collect();
            matrix.as_words_mut().par_chunks_mut(words.max(1)).enumerate().for_each(|(v, row)| {
                for (&(first, w), pass) in round.iter().zip(&passes) {
                    row[first / 64..first / 64 + w].copy_from_slice(&pass[v * w..(v + 1) * w]);
                }
            });
        }
    });
    Ok(matrix)
}

/// Ordered pairs of distinct file vertices with u reaching v, streaming: the blocks are counted as
/// they are made and dropped, so memory is a round of passes, never the n² bits of the closure.
/// `sizes` are the components' sizes (the DAG is a condensation).
pub fn count_pairs_streaming(dag: &Graph, sizes: &[u32]) -> Result<u64> {
    let heights = HeightOrder::by_depth(dag)?;
    let n = dag.num_vertices();
    let width = block_words(n.div_ceil(64));
    Ok(blocks(n, width)
        .into_par_iter()
        .map(|(first, w)| super::pairs::count_block(&block_pass(dag, &heights.order, None, first, w), w, first, sizes))
        .sum())
}

/// Answers pairs `(u, v)` of DAG vertices (does u reach v?) exactly, streaming: the pairs are
/// grouped by the target block of `v`, and only blocks holding some `v` are passed, in parallel.
/// Memory: a round of passes, never the closure. A set `cancel` stops between blocks with an error.
pub fn answer_pairs(dag: &Graph, pairs: &[(u32, u32)], cancel: &AtomicBool) -> Result<Vec<bool>> {
    let heights = HeightOrder::by_depth(dag)?;
    let n = dag.num_vertices();
    let width = block_words(n.div_ceil(64));
    let mut by_block: Vec<Vec<usize>> = vec![Vec::new(); n.div_ceil(64 * width)];
    for (i, &(_, v)) in pairs.iter().enumerate() {
        by_block[v as usize / (64 * width)].push(i);
    }
    let answered: Vec<Vec<(usize, bool)>> = by_block
        .par_iter()
        .enumerate()
        .filter(|(_, asked)| !asked.is_empty())
        .map(|(b, asked)| {
            if cancel.load(Ordering::Relaxed) {
                return Err(Cancel::Work.into());
            }
            let first = b * 64 * width;
            let w = width.min(n.div_ceil(64) - b * width);
            let reach = block_pass(dag, &heights.order, None, first, w);
            Ok(asked
                .iter()
                .map(|&i| {
                    let (u, v) = pairs[i];
                    let t = v as usize - first;
                    (i, reach[u as usize * w + t / 64] >> (t % 64) & 1 == 1)
                })
                .collect())
        })
        .collect::<Result<_>>()?;
    let mut answers = vec![false; pairs.len()];
    for (i, reached) in answered.into_iter().flatten() {
        answers[i] = reached;
    }
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::generators::random_digraph;
    use crate::graph::scc;
    use crate::query::oracle::TransitiveClosure;
    use std::sync::Arc;

    #[test]
    fn streaming_count_matches_the_oracle() {
        for seed in 0..3 {
            let g = random_digraph(900, 1.1, seed).unwrap();
            let cond = scc::condense(&Arc::new(g.clone()));
            let expected = TransitiveClosure::new(&g).unwrap().count_reachable_pairs();
            assert_eq!(count_pairs_streaming(&cond.dag, &cond.sizes).unwrap(), expected);
        }
    }

    #[test]
    fn answered_pairs_match_the_oracle() {
        let g = random_digraph(700, 1.3, 4).unwrap();
        let cond = scc::condense(&Arc::new(g.clone()));
        let oracle = TransitiveClosure::new(&g).unwrap();
        let pairs: Vec<(u32, u32)> = (0..700u32).flat_map(|u| (0..700u32).step_by(13).map(move |v| (u, v))).collect();
        let on_dag: Vec<(u32, u32)> =
            pairs.iter().map(|&(u, v)| (cond.component[u as usize], cond.component[v as usize])).collect();
        let answers = answer_pairs(&cond.dag, &on_dag, &AtomicBool::new(false)).unwrap();
        for (&(u, v), &got) in pairs.iter().zip(&answers) {
            assert_eq!(got, oracle.reachable(u, v), "{u} -> {v}");
        }
        assert!(answer_pairs(&cond.dag, &on_dag, &AtomicBool::new(true)).is_err());
    }

    #[test]
    fn blocks_cover_every_word_once() {
        assert_eq!(blocks(130, 2), vec![(0, 2), (128, 1)]);
        assert_eq!(blocks(64 * 8, 8), vec![(0, 8)]);
        assert!(blocks(0, 1).is_empty());
    }
}
