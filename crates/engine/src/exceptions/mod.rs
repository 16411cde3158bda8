//! Exceptions (false-positive pairs): pairs `(u, v)` of DAG vertices, `u != v`, where the labels
//! of the first `d` dimensions say "maybe" but `u` does not reach `v`.
//!
//! - [`ExceptionPlan`] chooses how to count on a graph of a given size ([`plan`]).
//! - [`exact`] counts every pair on the CPU with the streamed bit-parallel closure (the GPU's count
//!   is `src/gpu/exceptions.rs`, with the same [`Candidates`] and [`ExceptionCounts`]).
//! - [`sampled`] estimates from seeded uniform pairs, with 95% Wilson intervals ([`interval`]).
//!
//! Random-order labels of `d` dimensions are the first `d` dimensions of a `D`-dimension labeling
//! (dimension `i` only depends on the seed and `i`), so one labeling with `D` dimensions answers
//! every `d <= D` at once: a pair is a false positive for `d` iff its first `d` dimensions contain.

pub mod concentration;
mod counts;
mod exact;
pub mod interval;
pub mod plan;
mod sampled;

pub use counts::{
    CountMethod, EXAMPLES, ExceptionCounts, from_histogram, from_passes, keep_examples, leading_contained,
};
pub use exact::{Candidates, exact};
pub use plan::{CPU_PREFERRED_LIMIT, EXACT_LIMIT, ExceptionPlan, GPU_EXACT_LIMIT};
pub use sampled::{SAMPLE_SEED, SAMPLES, sampled};
