//! The counts of false positives for `d = 1..=dims`, exact or estimated, and how they are put
//! together from the per-pair results of every count (CPU, GPU, sampled).

use super::interval::{Z_95, wilson};
use crate::index::Labels;

/// The result for `d = 1..=dims`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExceptionCounts {
    /// Exact over every pair, or estimated from `pairs` samples.
    pub exact: bool,
    /// DAG vertices.
    pub vertices: u64,
    /// Ordered pairs looked at (all `n(n-1)`, or the samples).
    pub pairs: u64,
    /// Of those, the pairs where `u` does not reach `v`.
    pub unreachable: u64,
    /// `false_positives[d-1]`: pairs with labels "maybe" in dimensions `0..d` and no path.
    pub false_positives: Vec<u64>,
    /// Some false-positive pairs to show: `(u, v, k)` with DAG ids, where the first `k >= 1`
    /// dimensions contain `L(v)` in `L(u)` (so they are false positives for every `d <= k`); the
    /// most stubborn first (the level cut does not refute them either), at most [`EXAMPLES`].
    pub examples: Vec<(u32, u32, usize)>,
    /// Where the pairs were decided: `cpu` or the GPU's name.
    pub device: String,
}

/// How a count was made, as the front ends name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CountMethod {
    /// Every ordered pair, decided on the CPU.
    ExactCpu,
    /// Every ordered pair, decided on a GPU.
    ExactGpu,
    /// Uniformly sampled ordered pairs: an estimate.
    Sampled,
}

impl CountMethod {
    /// `exact-cpu`, `exact-gpu` or `sampled`.
    pub fn name(self) -> &'static str {
        match self {
            CountMethod::ExactCpu => "exact-cpu",
            CountMethod::ExactGpu => "exact-gpu",
            CountMethod::Sampled => "sampled",
        }
    }
}

/// False-positive pairs kept to show.
pub const EXAMPLES: usize = 50;

/// Keeps the [`EXAMPLES`] most stubborn pairs: most dimensions fooled first, then those the level
/// cut does not refute either (a query must search them: their dead ends can be shown), then by ids.
pub fn keep_examples(labels: &Labels, mut pairs: Vec<(u32, u32, usize)>) -> Vec<(u32, u32, usize)> {
    pairs.sort_unstable_by_key(|&(u, v, k)| (std::cmp::Reverse(k), labels.level(u) >= labels.level(v), u, v));
    pairs.dedup();
    pairs.truncate(EXAMPLES);
    pairs
}

impl ExceptionCounts {
    /// The estimated number over all ordered pairs (the count itself when exact).
    pub fn scaled(&self, d: usize) -> f64 {
        let all = self.vertices as f64 * (self.vertices.saturating_sub(1)) as f64;
        let fp = self.false_positives[d - 1] as f64;
        if self.exact || self.pairs == 0 { fp } else { fp / self.pairs as f64 * all }
    }

    /// False positives as a share of the unreachable pairs.
    pub fn rate(&self, d: usize) -> f64 {
        if self.unreachable == 0 { 0.0 } else { self.false_positives[d - 1] as f64 / self.unreachable as f64 }
    }

    /// How the pairs were counted.
    pub fn method(&self) -> CountMethod {
        match (self.exact, self.device == "cpu") {
            (false, _) => CountMethod::Sampled,
            (true, true) => CountMethod::ExactCpu,
            (true, false) => CountMethod::ExactGpu,
        }
    }

    /// For an estimate, the 95% Wilson interval of [`scaled`](Self::scaled): the share of all
    /// ordered pairs that are false positives for `d`, times their number. `None` when exact.
    pub fn scaled_interval(&self, d: usize) -> Option<(f64, f64)> {
        let all = self.vertices as f64 * (self.vertices.saturating_sub(1)) as f64;
        let (lo, hi) = self.interval_of(self.false_positives[d - 1], self.pairs)?;
        Some((lo * all, hi * all))
    }

    /// For an estimate, the 95% Wilson interval of [`rate`](Self::rate). Given how many sampled
    /// pairs are unreachable, those are uniform draws from the unreachable pairs, so the false
    /// positives among them are binomial in the rate. `None` when exact.
    pub fn rate_interval(&self, d: usize) -> Option<(f64, f64)> {
        self.interval_of(self.false_positives[d - 1], self.unreachable)
    }

    fn interval_of(&self, hits: u64, trials: u64) -> Option<(f64, f64)> {
        if self.exact { None } else { Some(wilson(hits, trials, Z_95)) }
    }
}

/// How many leading dimensions have `L(v) ⊆ L(u)`.
pub fn leading_contained(labels: &Labels, u: u32, v: u32) -> usize {
    labels.of(u).iter().zip(labels.of(v)).take_while(|(a, b)| a.contains(**b)).count()
}

/// The counts from `hist[k]`: the unreachable pairs whose first `k` dimensions (exactly) contain.
/// Decided on the CPU; a GPU count sets `device` after.
pub fn from_histogram(
    labels: &Labels,
    exact: bool,
    vertices: u64,
    pairs: u64,
    unreachable: u64,
    hist: &[u64],
    examples: Vec<(u32, u32, usize)>,
) -> ExceptionCounts {
    let dims = hist.len() - 1;
    let false_positives = (1..=dims).map(|d| hist[d..].iter().sum()).collect();
    let examples = keep_examples(labels, examples);
    ExceptionCounts { exact, vertices, pairs, unreachable, false_positives, examples, device: "cpu".into() }
}

/// The exact counts over every ordered pair of an `n`-vertex DAG from the streamed passes' totals:
/// `reachable` bits set (each vertex's own included) and `hist[k]` for k >= 1 (`hist[0]` is
/// derived). Shared by the CPU's count and the GPU's.
pub fn from_passes(
    labels: &Labels,
    n: usize,
    reachable: u64,
    mut hist: Vec<u64>,
    examples: Vec<(u32, u32, usize)>,
) -> ExceptionCounts {
    let pairs = n as u64 * (n as u64).saturating_sub(1);
    // Every vertex's own bit is set in its pass: the rest are the pairs u ≠ v with u reaching v.
    let unreachable = pairs - (reachable - n as u64);
    hist[0] = unreachable - hist[1..].iter().sum::<u64>();
    from_histogram(labels, true, n as u64, pairs, unreachable, &hist, examples)
}
