//! The Exceptions tab's estimate on graphs too large to count exactly: false positives among
//! sampled pairs (the exact counts are `crate::exceptions`, CPU, and
//! `crate::gpu::exceptions`, GPU).

use crate::exceptions::{
    CPU_PREFERRED_LIMIT, EXACT_LIMIT, EXAMPLES, ExceptionCounts, GPU_EXACT_LIMIT, from_histogram, keep_examples,
    leading_contained,
};
use crate::graph::Graph;
use crate::index::Labels;
use crate::query::{Engine, Method};
use anyhow::{Result, bail};
use rand::{RngExt, SeedableRng, rngs::ChaCha8Rng};
use std::sync::atomic::{AtomicBool, Ordering};

/// How the tab counts on a DAG: exactly on the CPU while that is quick, on the GPU (where offered)
/// or the CPU while the graph is within their limits, else from sampled pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExceptionPlan {
    Gpu,
    Cpu,
    Sampled,
}

impl ExceptionPlan {
    /// For a DAG of `n` vertices, with or without a GPU offered.
    pub fn choose(n: usize, gpu: bool) -> ExceptionPlan {
        match n {
            n if n <= CPU_PREFERRED_LIMIT => ExceptionPlan::Cpu,
            n if gpu && n <= GPU_EXACT_LIMIT => ExceptionPlan::Gpu,
            n if n <= EXACT_LIMIT => ExceptionPlan::Cpu,
            _ => ExceptionPlan::Sampled,
        }
    }

    /// What the worker is doing, for the status line.
    pub fn describe(self) -> &'static str {
        match self {
            ExceptionPlan::Gpu => "counting false positives over all pairs on the GPU",
            ExceptionPlan::Cpu => "counting false positives over all pairs on the CPU",
            ExceptionPlan::Sampled => "estimating false positives from sampled pairs on the CPU",
        }
    }
}

/// An estimate from `samples` uniform ordered pairs of distinct DAG vertices (seeded). Pairs the
/// first dimension already cuts are unreachable for sure; the others are decided exactly by a
/// label-guided search.
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
    let mut hist = vec![0u64; dims + 1];
    if n < 2 {
        return Ok(from_histogram(labels, false, n as u64, 0, 0, &hist, Vec::new()));
    }
    let identity: Vec<u32> = (0..n as u32).collect();
    let engine = Engine::new(dag, labels, &identity);
    let mut scratch = engine.scratch();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut unreachable = 0u64;
    let mut examples = Vec::new();
    for i in 0..samples {
        if cancel.load(Ordering::Relaxed) {
            bail!("cancelled");
        }
        let u = rng.random_range(0..n as u32);
        let mut v = rng.random_range(0..n as u32 - 1);
        if v >= u {
            v += 1;
        }
        let k = leading_contained(labels, u, v);
        if k == 0 || !engine.query(u, v, Method::GuidedDfs, &mut scratch, false).reachable {
            unreachable += 1;
            hist[k] += 1;
            if k > 0 {
                examples.push((u, v, k));
                if examples.len() > 4 * EXAMPLES {
                    examples = keep_examples(labels, examples);
                }
            }
        }
        if i % 1024 == 1023 {
            progress(i as f64 / samples as f64);
        }
    }
    Ok(from_histogram(labels, false, n as u64, samples as u64, unreachable, &hist, examples))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exceptions::exact;
    use crate::graph::generators::GeneratorSpec;
    use crate::index::{Order, dfs};

    #[test]
    fn the_plan_counts_exactly_where_it_can() {
        assert_eq!(ExceptionPlan::choose(CPU_PREFERRED_LIMIT, true), ExceptionPlan::Cpu);
        assert_eq!(ExceptionPlan::choose(EXACT_LIMIT, false), ExceptionPlan::Cpu);
        assert_eq!(ExceptionPlan::choose(EXACT_LIMIT, true), ExceptionPlan::Gpu);
        assert_eq!(ExceptionPlan::choose(EXACT_LIMIT + 1, false), ExceptionPlan::Sampled);
        assert_eq!(ExceptionPlan::choose(EXACT_LIMIT + 1, true), ExceptionPlan::Gpu);
        assert_eq!(ExceptionPlan::choose(GPU_EXACT_LIMIT + 1, true), ExceptionPlan::Sampled);
    }

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
}
