//! Weighted shortest paths: single-source (Dijkstra, delta-stepping) and all-pairs (Dijkstra from
//! every source, Floyd-Warshall naive and blocked), on a [`crate::graph::WeightedGraph`] of
//! non-negative `f64` weights.
//!
//! Every engine computes the same numbers. For one source, a distance is the smallest, over the
//! paths from the source, of the path's weights added one by one from the source
//! (`((w1 + w2) + w3) + ...`, rounded after each step): Dijkstra and delta-stepping both relax
//! `d(v) = min(d(v), d(u) + w)`, and rounding to nearest is monotone (`a <= b` gives
//! `a + w <= b + w`), so any order of relaxations that ends with no edge left to improve ends on
//! that minimum, bit for bit. `--compare` therefore checks exact equality. Floyd-Warshall adds
//! sub-paths in another grouping (`d(i, k) + d(k, j)`), which can differ in the last bit once sums
//! round; `apsp::agree` compares matrices exactly where every weight is an integer (sums of
//! integers up to 2^53 are exact) and within a stated relative tolerance otherwise.
//!
//! - [`engine`]: the names `--engine` and `--method` take, where GPU engines will be added;
//!   [`sssp`] runs a single-source engine by name.
//! - [`dijkstra`]: binary heap with lazy deletion, the reference.
//! - [`delta`]: delta-stepping on every core.
//! - [`distances`]: one source's distances, their summary, the engine's bookkeeping.
//! - [`path`]: a shortest path from any engine's distances.
//! - [`floyd`]: Floyd-Warshall on a distance matrix, naive and in tiles.
//! - [`apsp`]: all pairs: the matrix, the methods, the memory they need, the text file.
//! - [`random`]: random weighted graphs for tests and `grail apsp --bench`.

pub mod apsp;
pub mod delta;
pub mod dijkstra;
pub mod distances;
pub mod engine;
pub mod floyd;
pub mod path;
pub mod random;
pub mod sssp;

pub use distances::Distances;
pub use engine::{ApspMethod, SsspEngine};
pub use sssp::{chosen_delta, run_sssp};

#[cfg(test)]
mod properties;
