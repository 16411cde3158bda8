//! The library's error type: what a caller of [`crate::Index`] can match on. Inside, the engine
//! works with `anyhow` and its messages name the file and line; they arrive here whole.

use std::path::PathBuf;

/// Why an [`crate::Index`] call failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A vertex id the graph does not have (ids are the ones the file or the edge list used).
    #[error("vertex {vertex} is not in the graph ({vertices} vertices)")]
    NoSuchVertex {
        /// The id asked for.
        vertex: u64,
        /// How many vertices the graph has.
        vertices: usize,
    },
    /// A name no vertex has (or a name typed for a graph whose vertices are numbered).
    #[error("no vertex is named `{name}`{}", nearest_names(nearest))]
    NoSuchName {
        /// The name asked for.
        name: String,
        /// Up to three names close to it (none for a numbered graph, or when no name is close).
        nearest: Vec<String>,
    },
    /// A graph file could not be read: missing, unreadable, or malformed (the message names the
    /// line).
    #[error("{message}")]
    Load {
        /// The file.
        path: PathBuf,
        /// What went wrong, naming the file and, where it is malformed, the line.
        message: String,
    },
    /// An edge names a vertex outside `0..vertices`, or the graph is too large for 32-bit ids.
    #[error("invalid graph: {0}")]
    InvalidGraph(String),
    /// Labeling or building the query index failed (for instance, out of memory).
    #[error("cannot build the index: {0}")]
    Build(String),
}

/// `; nearest names: a, b, c`, or nothing when there is none to suggest.
fn nearest_names(nearest: &[String]) -> String {
    if nearest.is_empty() { String::new() } else { format!("; nearest names: {}", nearest.join(", ")) }
}

/// An `anyhow` error's whole chain on one line, as the command line prints it.
pub(crate) fn chain(error: &anyhow::Error) -> String {
    format!("{error:#}")
}
