//! Exact engines: answers without labels, as baselines for GRAIL and as the explorer's exact
//! answers on large graphs (docs/ALGORITHMS.md, section 17).
//!
//! - [`bfs`]: a parallel direction-optimising BFS (top-down / bottom-up switching) with levels,
//!   per-level frontier sizes and a shortest path.
//! - [`closure`]: the transitive closure of a condensation as a bit matrix, four ways (boolean
//!   matrix squaring, Floyd-Warshall naive and tiled, bit-parallel BFS from every vertex), and the
//!   streaming bit-parallel pass that visits 64·W sources at a time without storing the closure.
//! - [`memory`]: what a method needs, said up front and refused when it does not fit.
//! - [`auto_source`]: a source worth searching from, when the user names none.
//!
//! The GPU versions (`src/gpu/exact_bfs.rs`, `src/gpu/exact_closure.rs`) compute the same arrays;
//! `src/exact_run.rs` chooses between them.

pub mod auto_source;
pub mod bfs;
pub mod bitmatrix;
pub mod closure;
pub mod engine;
pub mod heights;
pub mod memory;
pub mod phases;

pub use bfs::{BfsResult, Direction};
pub use bitmatrix::BitMatrix;
pub use engine::{BfsEngine, ClosureMethod};
