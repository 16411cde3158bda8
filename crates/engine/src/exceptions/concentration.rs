//! Where GRAIL's false positives concentrate: per topological level of the source and per vertex,
//! over every ordered pair of a small DAG, or over seeded uniform pairs of a larger one (the same
//! pairs at any thread count). A pair is a false positive, as in the Exceptions count, when every
//! dimension's label of `u` contains `v`'s and `u` does not reach `v`. The sentences that say what
//! was counted (`over`, `entries`) are here, so that `grail info --deep` and the explorer's Graph
//! tab read the same.

use super::counts::leading_contained;
use crate::format::{percent, thousands};
use crate::graph::Graph;
use crate::index::Labels;
use crate::query::{Engine, Method};
use crate::rng::seeded;
use crate::{Cancel, Result};
use rand::RngExt;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// Entries in each ranking.
pub const TOP: usize = 5;

/// A level or a vertex and the false positives it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    /// The source's level, or the vertex (DAG id).
    pub key: u32,
    /// False positives among the pairs looked at.
    pub false_positives: u64,
}

/// The false positives of labels with `dims` dimensions, and where they lie.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Concentration {
    /// Every ordered pair of distinct vertices was looked at (else uniform samples).
    pub exact: bool,
    /// The seed the samples were drawn with (unused when `exact`).
    pub seed: u64,
    /// Label dimensions a pair has to fool.
    pub dims: usize,
    /// Ordered pairs looked at.
    pub pairs: u64,
    /// Of those, the false positives.
    pub false_positives: u64,
    /// The source levels holding the most false positives, most first (ties: lower level).
    pub by_level: Vec<Share>,
    /// The sources of the most false positives (DAG ids), most first.
    pub by_source: Vec<Share>,
    /// The targets of the most false positives (DAG ids), most first.
    pub by_target: Vec<Share>,
}

/// Where the false positives of `labels` on `dag` lie: over every ordered pair when there are at
/// most `samples` of them, else over `samples` uniform pairs drawn from `crate::rng::seeded(seed)`.
/// Pairs the labels contain are decided by a label-guided search; a set `cancel` stops with an error.
pub fn concentration(
    dag: &Graph,
    labels: &Labels,
    samples: usize,
    seed: u64,
    cancel: &AtomicBool,
) -> Result<Concentration> {
    let n = dag.num_vertices() as u64;
    let all = n * n.saturating_sub(1);
    let exact = all <= samples as u64;
    let pairs: Vec<(u32, u32)> = if exact {
        (0..n as u32).flat_map(|u| (0..n as u32).filter(move |&v| v != u).map(move |v| (u, v))).collect()
    } else {
        let mut rng = seeded(seed);
        (0..samples)
            .map(|_| {
                let u = rng.random_range(0..n as u32);
                let v = rng.random_range(0..n as u32 - 1);
                (u, if v >= u { v + 1 } else { v })
            })
            .collect()
    };
    let dims = labels.dims();
    let identity: Vec<u32> = (0..n as u32).collect();
    let engine = Engine::new(dag, labels, &identity);
    let found: Vec<(u32, u32)> = pairs
        .par_chunks(256)
        .map_init(
            || engine.scratch(),
            |scratch, chunk| {
                if cancel.load(Ordering::Relaxed) {
                    return Vec::new();
                }
                chunk
                    .iter()
                    .copied()
                    .filter(|&(u, v)| {
                        leading_contained(labels, u, v) == dims
                            && !engine.query(u, v, Method::GuidedDfs, scratch, false).reachable
                    })
                    .collect::<Vec<_>>()
            },
        )
        .flatten()
        .collect();
    if cancel.load(Ordering::Relaxed) {
        return Err(Cancel::Work.into());
    }
    let rank = |key: &dyn Fn(&(u32, u32)) -> u32| {
        let mut tally: HashMap<u32, u64> = HashMap::new();
        for pair in &found {
            *tally.entry(key(pair)).or_default() += 1;
        }
        let mut shares: Vec<Share> =
            tally.into_iter().map(|(key, false_positives)| Share { key, false_positives }).collect();
        shares.sort_unstable_by_key(|s| (std::cmp::Reverse(s.false_positives), s.key));
        shares.truncate(TOP);
        shares
    };
    Ok(Concentration {
        exact,
        seed,
        dims,
        pairs: pairs.len() as u64,
        false_positives: found.len() as u64,
        by_level: rank(&|&(u, _)| labels.level(u)),
        by_source: rank(&|&(u, _)| u),
        by_target: rank(&|&(_, v)| v),
    })
}

impl Concentration {
    /// The pairs looked at: `every one of 12,210 ordered pairs of components`, or `200,000 sampled
    /// ordered pairs of components (seed 1)`.
    pub fn over(&self) -> String {
        if self.exact {
            format!("every one of {} ordered pairs of components", thousands(self.pairs))
        } else {
            format!("{} sampled ordered pairs of components (seed {})", thousands(self.pairs), self.seed)
        }
    }

    /// A ranking as `name (12 of 40, 30%)`, each entry named by `name` (a level as a number, a
    /// vertex by its id or name). Over samples the percentage estimates the share among every
    /// pair, and reads `~30%`.
    pub fn entries(&self, list: &[Share], name: impl Fn(u32) -> String) -> Vec<String> {
        let approx = if self.exact { "" } else { "~" };
        let total = self.false_positives.max(1) as f64;
        list.iter()
            .map(|s| {
                let (count, all) = (thousands(s.false_positives), thousands(self.false_positives));
                format!("{} ({count} of {all}, {approx}{})", name(s.key), percent(s.false_positives as f64 / total))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exceptions::exact;
    use crate::graph::generators::GeneratorSpec;
    use crate::index::{Order, dfs};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn every_pair_agrees_with_the_exact_count() {
        let g = "random:n=150,deg=2,seed=4".parse::<GeneratorSpec>().unwrap().generate().unwrap();
        let labels = dfs::label(&g, 2, Order::Random { seed: 1 }).unwrap();
        let truth = exact(&g, &labels, &AtomicBool::new(false), &|_| {}).unwrap();
        let c = concentration(&g, &labels, 150 * 149, 1, &AtomicBool::new(false)).unwrap();
        assert!(c.exact);
        assert_eq!(c.pairs, 150 * 149);
        assert_eq!(c.false_positives, truth.false_positives[1]);
        assert!(c.false_positives > 0, "the test graph must have false positives");
        assert_eq!(c.over(), "every one of 22,350 ordered pairs of components");
        let entries = c.entries(&c.by_source, |v| format!("v{v}"));
        assert!(entries.iter().all(|e| e.starts_with('v') && !e.contains('~')), "{entries:?}");
        // The rankings are sorted and each holds at most what there is.
        for list in [&c.by_level, &c.by_source, &c.by_target] {
            assert!(list.windows(2).all(|w| w[0].false_positives >= w[1].false_positives));
            assert!(list.iter().map(|s| s.false_positives).sum::<u64>() <= c.false_positives);
        }
        // The top source, counted by hand.
        let top = c.by_source[0];
        let by_hand = (0..150u32)
            .filter(|&v| {
                v != top.key
                    && leading_contained(&labels, top.key, v) == 2
                    && !crate::query::oracle::reachable_bfs(&g, top.key, v)
            })
            .count();
        assert_eq!(top.false_positives, by_hand as u64);
    }

    #[test]
    fn samples_are_reproducible() {
        let g = "random:n=400,deg=2,seed=6".parse::<GeneratorSpec>().unwrap().generate().unwrap();
        let labels = dfs::label(&g, 2, Order::Random { seed: 1 }).unwrap();
        let go = AtomicBool::new(false);
        let a = concentration(&g, &labels, 5_000, 3, &go).unwrap();
        assert!(!a.exact);
        assert_eq!(a.pairs, 5_000);
        assert_eq!(a, concentration(&g, &labels, 5_000, 3, &go).unwrap());
        assert_eq!(a.over(), "5,000 sampled ordered pairs of components (seed 3)");
        let entries = a.entries(&a.by_level, |level| format!("level {level}"));
        assert_eq!(entries.len(), a.by_level.len());
        let first = a.by_level[0];
        let share = crate::format::percent(first.false_positives as f64 / a.false_positives as f64);
        assert_eq!(
            entries[0],
            format!("level {} ({} of {}, ~{share})", first.key, first.false_positives, a.false_positives)
        );
    }

    #[test]
    fn a_set_cancel_flag_stops_it() {
        let g = "random:n=400,deg=2,seed=6".parse::<GeneratorSpec>().unwrap().generate().unwrap();
        let labels = dfs::label(&g, 2, Order::Random { seed: 1 }).unwrap();
        let err = concentration(&g, &labels, 5_000, 3, &AtomicBool::new(true)).unwrap_err();
        assert_eq!(err.to_string(), "cancelled");
    }
}
