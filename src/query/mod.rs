//! Queries: the cheap rules, label-guided search, batches and the exact oracle.
//!
//! - [`Engine::query`] answers one query on original vertex ids and says how ([`Answer`]).
//! - [`run_batch`] answers many in parallel and summarises them ([`BatchReport`]).
//! - [`read_query_file`] and [`random_queries`] produce the queries.
//! - [`oracle`] is the exact reference every answer is tested against.

mod ancestors;
mod answer;
mod batch;
mod bfs;
mod dfs;
mod engine;
pub mod oracle;
mod query_file;
mod random;
pub mod rules;
mod scratch;
pub mod search;
mod tree_path;

pub use answer::{Answer, Method, Rule};
pub use batch::{BatchReport, Mismatch, RuleCounts, run_batch};
pub use engine::Engine;
pub use query_file::{Query, read_query_file};
pub use random::random_queries;
pub use scratch::Scratch;
