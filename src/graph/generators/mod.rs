//! Graph generators: synthetic graphs for tests, benchmarks and the classroom.
//!
//! Every random generator takes a `seed` and is deterministic across machines and thread counts:
//! each vertex draws from its own PCG stream derived from `(seed, vertex)`, and only portable integer
//! sampling (plus `rand_distr`'s pure-Rust `libm` maths for binomial counts) is used.
//! [`GeneratorSpec`] parses the CLI's `kind:key=value,...` strings.

mod chain;
mod digraph;
mod fan;
mod ladder;
mod limits;
mod random_dag;
mod sampling;
mod scale_free;
mod spec;
mod tree;

pub use chain::chain;
pub use digraph::random_digraph;
pub use fan::wide_fan;
pub use ladder::diamond_ladder;
pub use limits::MAX_GENERATED_EDGES;
pub use random_dag::random_dag;
pub use scale_free::scale_free;
pub use spec::GeneratorSpec;
pub use tree::tree;
