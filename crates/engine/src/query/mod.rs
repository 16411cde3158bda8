//! Queries: the cheap rules, label-guided search, batches and the exact oracle.
//!
//! - [`Engine::query`] answers one query on original vertex ids and says how ([`Answer`]);
//!   [`Engine::query_traced`] also records the search tree ([`Trace`]), through the same search
//!   with a [`SearchObserver`]; [`Engine::decide`] also records every check it ran ([`Decision`]),
//!   which [`explain`] turns into sentences.
//! - [`run_batch`] answers many in parallel and summarises them ([`BatchReport`]).
//! - [`read_query_file`] and [`random_queries`] (or [`reachable_queries`]) produce the queries; [`export`] writes a batch's
//!   results as CSV and JSON.
//! - [`QueryIndex`] holds the extra cuts' per-vertex data (built after labeling; not part of the
//!   labels); [`Engine::with_index`] turns every rule on, [`RuleSet`] names the two sets.
//! - [`oracle`] is the exact reference every answer is tested against.

mod ancestors;
mod answer;
mod batch;
mod bfs;
mod bidirectional;
mod bloom;
mod decision;
mod dfs;
mod engine;
pub mod explain;
pub mod export;
mod guide;
mod index_passes;
mod lookahead;
mod observer;
pub mod oracle;
mod outcome;
mod query_file;
pub mod query_index;
mod random;
mod records;
pub mod rules;
mod scratch;
pub mod search;
mod stamps;
mod supportive;
mod supportive_route;
mod trace;
mod tree_path;

pub use answer::{Answer, Method, Rule, RuleSet};
pub use batch::{BatchReport, Mismatch, RuleCounts, run_batch};
pub use decision::{Check, Decision, Filter, Outcome, Separation, Supportive};
pub use engine::{Decided, Engine, decide_before_labels};
pub use observer::{NoObserver, SearchObserver};
pub(crate) use query_file::vertex as vertex_named_in_line;
pub use query_file::{Query, read_query_file};
pub use query_index::QueryIndex;
pub use random::{random_queries, reachable_queries};
pub use scratch::Scratch;
pub use trace::{NodeKind, Trace, TraceNode, TraceRecorder, TraceTree};
