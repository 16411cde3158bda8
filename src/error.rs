//! The library's error type: what a caller of [`crate::Index`] can match on. The engine's errors and
//! the back end's arrive whole, their causes kept as sources.

use std::error::Error as StdError;
use std::fmt;
use std::path::PathBuf;

/// Why an [`crate::Index`] call failed.
///
/// `{}` shows the error's own sentence; `{:#}` adds its causes, each after `: ` (as anyhow's `{:#}`
/// does): `invalid graph: edge 0 → 7 names a vertex outside 0 to 2`.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A vertex id the graph does not have (ids are the ones the file or the edge list used).
    NoSuchVertex {
        /// The id asked for.
        vertex: u64,
        /// How many vertices the graph has.
        vertices: usize,
    },
    /// A name no vertex has (or a name typed for a graph whose vertices are numbered).
    NoSuchName {
        /// The name asked for.
        name: String,
        /// Up to three names close to it (none for a numbered graph, or when no name is close).
        nearest: Vec<String>,
    },
    /// A graph file could not be read: missing, unreadable, or malformed. It reads as the engine's
    /// error, which names the file (and, where it is malformed, the line), and that error's causes
    /// are its sources: the engine's error says what was being done, with nothing put before it.
    Load {
        /// The file.
        path: PathBuf,
        /// The engine's error ([`grail_engine::Error::Io`] for a file that cannot be read,
        /// [`grail_engine::Error::Malformed`] under the loading sentence for a malformed one).
        source: grail_engine::Error,
    },
    /// An edge names a vertex outside `0..vertices`, or the graph is too large for 32-bit ids; the
    /// source says which.
    InvalidGraph(grail_engine::Error),
    /// Labeling or building the query index failed (for instance, out of memory); the source says
    /// why.
    Build(Box<dyn StdError + Send + Sync + 'static>),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoSuchVertex { vertex, vertices } => {
                write!(f, "vertex {vertex} is not in the graph ({vertices} vertices)")?
            }
            Error::NoSuchName { name, nearest } => write!(f, "no vertex is named `{name}`{}", nearest_names(nearest))?,
            Error::Load { source, .. } => write!(f, "{source}")?,
            Error::InvalidGraph(_) => f.write_str("invalid graph")?,
            Error::Build(_) => f.write_str("cannot build the index")?,
        }
        if f.alternate() {
            let mut next = self.source();
            while let Some(cause) = next {
                write!(f, ": {cause}")?;
                next = cause.source();
            }
        }
        Ok(())
    }
}

impl StdError for Error {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            Error::NoSuchVertex { .. } | Error::NoSuchName { .. } => None,
            // The engine's error is this one's sentence; what caused it comes next.
            Error::Load { source, .. } => source.source(),
            Error::InvalidGraph(source) => Some(source),
            Error::Build(source) => Some(source.as_ref()),
        }
    }
}

/// `; nearest names: a, b, c`, or nothing when there is none to suggest.
fn nearest_names(nearest: &[String]) -> String {
    if nearest.is_empty() { String::new() } else { format!("; nearest names: {}", nearest.join(", ")) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Index, Settings};
    use std::path::Path;

    #[test]
    fn causes_are_sources_and_read_as_before() {
        let invalid = Index::from_edges(3, &[(0, 7)], &Settings::default()).err().expect("vertex 7 is not in 0..3");
        assert!(matches!(&invalid, Error::InvalidGraph(grail_engine::Error::InvalidGraph(_))), "{invalid:?}");
        assert_eq!(invalid.to_string(), "invalid graph");
        assert_eq!(format!("{invalid:#}"), "invalid graph: edge 0 → 7 names a vertex outside 0 to 2");
        assert_eq!(format!("{invalid:#}"), format!("{:#}", anyhow::Error::new(invalid)));

        let missing = Path::new("/no/such/graph.gra");
        let load = Index::open(missing, &Settings::default()).err().expect("no such file");
        let Error::Load { path, source } = &load else { panic!("expected Load, got {load:?}") };
        assert_eq!(path, missing);
        assert!(matches!(source.root_cause(), grail_engine::Error::Io { .. }), "{source:?}");
        let shown = format!("{load:#}");
        assert!(shown.starts_with("cannot load the graph: cannot read /no/such/graph.gra: "), "{shown}");
        assert_eq!(shown, format!("{source:#}"));
        assert_eq!(shown, format!("{:#}", anyhow::Error::new(load)));
    }
}
