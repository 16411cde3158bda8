//! Exceptions estimated from sampled pairs, for graphs too large to count every pair: uniform
//! ordered pairs of distinct DAG vertices from a seeded generator, each decided exactly.

use super::counts::{EXAMPLES, ExceptionCounts, from_histogram, keep_examples, leading_contained};
use crate::graph::Graph;
use crate::index::Labels;
use crate::query::{Engine, Method};
use crate::rng::seeded;
use crate::{Cancel, Result};
use rand::RngExt;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Pairs sampled unless told otherwise (the explorer's Exceptions tab and `grail exceptions`).
pub const SAMPLES: usize = 200_000;

/// The seed of the sampled pairs where a front end offers no choice (`grail info --deep`, the
/// Graph tab), so both report the same sample.
pub const SAMPLE_SEED: u64 = 1;

/// Pairs drawn (in order, from the one generator) before they are decided in parallel: the result
/// depends on the seed alone, never on the thread count.
const CHUNK: usize = 1 << 14;

/// One chunk's tallies: unreachable pairs, `hist[k]` of them fooling exactly the first `k`
/// dimensions, and candidate examples.
type Tally = (u64, Vec<u64>, Vec<(u32, u32, usize)>);

/// An estimate from `samples` uniform ordered pairs of distinct DAG vertices drawn from
/// `crate::rng::seeded(seed)`. Pairs the first dimension already cuts are unreachable for sure; the
/// others are decided exactly by a label-guided search. `progress` gets the fraction of pairs
/// decided; a set `cancel` stops with an error.
pub fn sampled(
    dag: &Graph,
    labels: &Labels,
    samples: usize,
    seed: u64,
    cancel: &AtomicBool,
    progress: &(dyn Fn(f64) + Sync),
) -> Result<ExceptionCounts> {
    let n = dag.num_vertices();
    let dims = labels.dims();
    if n < 2 {
        return Ok(from_histogram(labels, false, n as u64, 0, 0, &vec![0; dims + 1], Vec::new()));
    }
    let identity: Vec<u32> = (0..n as u32).collect();
    let engine = Engine::new(dag, labels, &identity);
    let mut rng = seeded(seed);
    let mut total: Tally = (0, vec![0; dims + 1], Vec::new());
    let mut pairs = Vec::with_capacity(CHUNK.min(samples));
    let mut done = 0;
    while done < samples {
        if cancel.load(Ordering::Relaxed) {
            return Err(Cancel::Work.into());
        }
        pairs.clear();
        pairs.extend((0..CHUNK.min(samples - done)).map(|_| {
            let u = rng.random_range(0..n as u32);
            let v = rng.random_range(0..n as u32 - 1);
            (u, if v >= u { v + 1 } else { v })
        }));
        let (unreachable, hist, examples) = pairs
            .par_chunks(256)
            .map_init(
                || engine.scratch(),
                |scratch, chunk| {
                    let mut tally: Tally = (0, vec![0; dims + 1], Vec::new());
                    for &(u, v) in chunk {
                        let k = leading_contained(labels, u, v);
                        if k == 0 || !engine.query(u, v, Method::GuidedDfs, scratch, false).reachable {
                            tally.0 += 1;
                            tally.1[k] += 1;
                            if k > 0 {
                                tally.2.push((u, v, k));
                            }
                        }
                    }
                    tally
                },
            )
            .reduce(|| (0, vec![0; dims + 1], Vec::new()), |a, b| add(labels, a, b));
        total = add(labels, total, (unreachable, hist, examples));
        done += pairs.len();
        progress(done as f64 / samples as f64);
    }
    let (unreachable, hist, examples) = total;
    Ok(from_histogram(labels, false, n as u64, samples as u64, unreachable, &hist, examples))
}

/// Two tallies as one, keeping only the examples that can still be shown.
fn add(labels: &Labels, (a, mut ha, mut ea): Tally, (b, hb, eb): Tally) -> Tally {
    ha.iter_mut().zip(&hb).for_each(|(x, y)| *x += y);
    ea.extend(eb);
    if ea.len() > 4 * EXAMPLES {
        ea = keep_examples(labels, ea);
    }
    (a + b, ha, ea)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exceptions::exact;
    use crate::graph::generators::GeneratorSpec;
    use crate::index::{Order, dfs};

    #[test]
    fn sampled_estimate_is_close_and_cancel_stops() {
        let g = "random:n=400,deg=2,seed=6".parse::<GeneratorSpec>().unwrap().generate().unwrap();
        let labels = dfs::label(&g, 3, Order::Random { seed: 2 }).unwrap();
        let never = AtomicBool::new(false);
        let truth = exact(&g, &labels, &never, &|_| {}).unwrap();
        let guess = sampled(&g, &labels, 40_000, 9, &never, &|_| {}).unwrap();
        let (t, e) = (truth.scaled(1), guess.scaled(1));
        assert!((t - e).abs() < 0.15 * t, "exact {t}, estimate {e}");
        assert!(sampled(&g, &labels, 10, 9, &AtomicBool::new(true), &|_| {}).is_err());
    }

    /// The same seed gives the same estimate whatever the thread count.
    #[test]
    fn the_estimate_depends_on_the_seed_only() {
        let g = "random:n=2000,deg=2,seed=3".parse::<GeneratorSpec>().unwrap().generate().unwrap();
        let labels = dfs::label(&g, 2, Order::Random { seed: 1 }).unwrap();
        let never = AtomicBool::new(false);
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| sampled(&g, &labels, 3 * CHUNK + 5, 4, &never, &|_| {}).unwrap())
        };
        let one = run(1);
        assert_eq!(one, run(3));
        assert_eq!(one.pairs, 3 * CHUNK as u64 + 5);
        assert_ne!(one, sampled(&g, &labels, 3 * CHUNK + 5, 5, &never, &|_| {}).unwrap());
    }
}
