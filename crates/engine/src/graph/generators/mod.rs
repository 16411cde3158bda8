//! Graph generators: synthetic graphs for tests, benchmarks and the classroom.
//!
//! Every random generator takes a `seed` and is deterministic across machines and thread counts:
//! each vertex draws from its own PCG stream derived from `(seed, vertex)`, and only portable integer
//! sampling (plus `rand_distr`'s pure-Rust `libm` maths for binomial counts) is used.
//! [`GeneratorSpec`] parses the CLI's `kind:key=value,...` strings.
//!
//! Families: [`random_dag`] (the papers' random DAGs), [`random_digraph`] (cycles, for condensation),
//! [`chain`] (deepest), [`deep_dag`] (deep and narrow, with cross edges), [`tree`], [`diamond_ladder`] (exponential path counts), [`scale_free`]
//! (Barabási–Albert, like the benchmark's ba10k graphs), [`wide_fan`] (degree > 10,000 hubs) and
//! [`many_roots`] (uniprot-like: one sink, almost all roots). Absurd parameters are errors, checked
//! before anything large is allocated.

mod chain;
mod deep;
mod digraph;
mod fan;
mod ladder;
mod limits;
mod many_roots;
mod random_dag;
mod sampling;
mod scale_free;
mod spec;
mod tree;

pub use chain::chain;
pub use deep::deep_dag;
pub use digraph::random_digraph;
pub use fan::wide_fan;
pub use ladder::diamond_ladder;
pub use limits::MAX_GENERATED_EDGES;
pub use many_roots::many_roots;
pub use random_dag::random_dag;
pub use scale_free::scale_free;
pub use spec::GeneratorSpec;
pub use tree::tree;
