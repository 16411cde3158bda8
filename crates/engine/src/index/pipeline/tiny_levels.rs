//! Which Kahn levels are tiny, found once per run, so that a step finds how far a run of tiny levels
//! goes with a few bit scans instead of measuring level after level.
//!
//! A chain has a level per vertex in every phase. Measuring each next level to decide whether it
//! still joins the step (its slice, its degrees, its queue counts) cost as much as the level's own
//! work. Whether a level is tiny ([`is_tiny`]) depends only on its vertices and the degree the phase
//! scans, and every phase scans a DAG degree or less: parents (phase 1, the weights' shortest
//! paths), children (the weights' sizes, min-post), or T-children (subtree sizes, post-order), which
//! are some of the children. So a level tiny by the DAG degree that bounds the phase's is tiny for
//! the phase too, and two bit sets, by parents and by children, serve every phase. (A T-level tiny
//! for its phase but not by children just starts a step of its own: its events still join the
//! others', see `level_clock`.)

use super::level_clock::is_tiny;
use crate::graph::Graph;
use rayon::prelude::*;

/// The DAG degree that bounds a phase's scanned degree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Parents,
    Children,
}

/// One bit per Kahn level, by each [`Bound`]: set when the level is tiny.
#[derive(Clone, Debug)]
pub struct TinyLevels {
    by_parents: Vec<u64>,
    by_children: Vec<u64>,
}

impl TinyLevels {
    /// For the `levels` Kahn levels of `dag`, `level(l)` being the vertices of level `l`.
    pub fn new<'a>(dag: &Graph, levels: usize, level: impl Fn(usize) -> &'a [u32] + Sync) -> TinyLevels {
        // 64 levels to a word, a task per 64 words (levels hold a vertex each on a chain).
        let bits = |degree: &(dyn Fn(u32) -> usize + Sync)| -> Vec<u64> {
            let word = |w: usize| {
                (w * 64..levels.min(w * 64 + 64)).fold(0u64, |word, l| {
                    let level = level(l);
                    // Wide levels are settled by their size: their degrees are not read.
                    let tiny = is_tiny(level.len() as u64, 0)
                        && is_tiny(level.len() as u64, level.iter().map(|&v| degree(v) as u64).sum());
                    word | (u64::from(tiny) << (l % 64))
                })
            };
            (0..levels.div_ceil(64)).into_par_iter().with_min_len(64).map(word).collect()
        };
        let (by_parents, by_children) =
            rayon::join(|| bits(&|v| dag.parents(v).len()), || bits(&|v| dag.children(v).len()));
        TinyLevels { by_parents, by_children }
    }

    /// How many consecutive Kahn levels are tiny by `bound`, from level `from` on toward deeper
    /// levels (`deeper`) or toward the roots, `max` at most.
    pub fn run(&self, bound: Bound, from: usize, deeper: bool, max: usize) -> usize {
        let bits = match bound {
            Bound::Parents => &self.by_parents,
            Bound::Children => &self.by_children,
        };
        // Bits past the last level are clear, so the scans stop there.
        let mut count = 0;
        let mut at = from;
        while count < max && at < bits.len() * 64 {
            let (word, bit) = (bits[at / 64], at % 64);
            // The set bits from `bit` on, in the scan's direction, and how many bits lie that way
            // (the shift brings in clear bits, so the count never runs past them).
            let (ones, room) = if deeper {
                ((word >> bit).trailing_ones() as usize, 64 - bit)
            } else {
                ((word << (63 - bit)).leading_ones() as usize, bit + 1)
            };
            count += ones;
            if ones < room || (!deeper && at < 64) {
                break;
            }
            at = if deeper { at + ones } else { at - ones };
        }
        count.min(max)
    }

    pub fn heap_bytes(&self) -> usize {
        (self.by_parents.len() + self.by_children.len()) * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::topo;

    /// The run from each level, each way, counted level by level.
    fn naive(tiny: &[bool], from: usize, deeper: bool, max: usize) -> usize {
        let steps: Box<dyn Iterator<Item = usize>> =
            if deeper { Box::new(from..tiny.len()) } else { Box::new((0..=from).rev()) };
        steps.take_while(|&l| tiny[l]).take(max).count()
    }

    #[test]
    fn runs_match_a_level_by_level_count_across_words() {
        // A chain with a fan every 50 levels: the fan's levels are tiny by neither degree, the fan
        // vertex's by parents only (it has 70 children), the level above by children only.
        let n = 300u32;
        let mut edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
        let mut next = n;
        for hub in (10..n).step_by(50) {
            for _ in 0..70 {
                edges.push((hub, next));
                edges.push((next, hub + 1));
                next += 1;
            }
        }
        let dag = Graph::from_edges(next as usize, &edges).unwrap();
        let kahn = topo::kahn(&dag).unwrap();
        let levels = kahn.num_levels();
        let level = |l: usize| &kahn.order[kahn.starts[l]..kahn.starts[l + 1]];
        let tiny = TinyLevels::new(&dag, levels, level);
        for (bound, degree) in [
            (Bound::Parents, &(|v| dag.parents(v).len()) as &dyn Fn(u32) -> usize),
            (Bound::Children, &|v| dag.children(v).len()),
        ] {
            let expected: Vec<bool> = (0..levels)
                .map(|l| {
                    let level = level(l);
                    is_tiny(level.len() as u64, level.iter().map(|&v| degree(v) as u64).sum())
                })
                .collect();
            assert!(expected.iter().any(|&t| !t) && expected.iter().filter(|&&t| t).count() > 200);
            for from in 0..expected.len() {
                for deeper in [true, false] {
                    for max in [1, 7, 64, 1000] {
                        let got = tiny.run(bound, from, deeper, max);
                        assert_eq!(got, naive(&expected, from, deeper, max), "{bound:?} from {from} {deeper} {max}");
                    }
                }
            }
        }
    }
}
