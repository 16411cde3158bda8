//! The ids (or names) a file used for its vertices, versus the dense ids `0..n` the engine works on.

use super::name_table::NameTable;
use std::collections::HashMap;
use std::sync::Arc;

/// How many nearest names an unknown name's error suggests.
pub const SUGGESTIONS: usize = 3;

/// How many names an error gives as examples of how the graph's vertices are called.
pub const EXAMPLES: usize = 2;

/// Up to this many file ids are listed in full when a typed id is missing; more are given as a range.
const IDS_LISTED: usize = 8;

/// How file ids map to dense ids. Formats with dense 0-based ids (`.gra`) keep them as they are;
/// edge lists with sparse or huge ids are remapped in order of first appearance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum VertexNames {
    /// File id `i` is dense id `i`.
    #[default]
    Dense,
    /// `Offset(b)`: file id `i` is dense id `i - b`.
    Offset(u64),
    /// Dense id `v` was written as `original[v]` in the file.
    Remapped {
        /// The file id of each dense id.
        original: Vec<u64>,
        /// The dense id of each file id.
        lookup: HashMap<u64, u32>,
    },
    /// The file named its vertices with strings: dense id `v` is called `names.name(v)`. Its
    /// numeric id (what [`VertexNames::file_id`] returns and the `u64` APIs take) is `v`, the
    /// name's place in order of first appearance.
    Named(Arc<NameTable>),
}

/// Why a typed vertex names none of the graph's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnknownVertex {
    /// The graph numbers its vertices and the text is not a number.
    #[error("`{0}` is not a vertex id (the graph's vertices are numbered)")]
    NotAnId(String),
    /// No vertex has this id.
    #[error("vertex {0} is not in the graph")]
    NoSuchId(u64),
    /// No vertex has this name; `nearest` are the close names there are (none when no name is
    /// close), `examples` a few of the graph's names to show how its vertices are called.
    #[error("no vertex is named `{name}`{}", suggestion(name, nearest, examples))]
    NoSuchName {
        /// The name typed.
        name: String,
        /// Up to [`SUGGESTIONS`] names close to it.
        nearest: Vec<String>,
        /// Up to [`EXAMPLES`] of the graph's names.
        examples: Vec<String>,
    },
}

/// What follows "no vertex is named `x`": `; nearest names: a, b, c` when some name is close;
/// else, for a number typed, that the vertices are named, and otherwise that no name is close,
/// each with a couple of the graph's names as examples. Names are [`quoted`] as they are typed.
pub fn suggestion(typed: &str, nearest: &[String], examples: &[String]) -> String {
    let listed = |names: &[String]| names.iter().map(|n| quoted(n)).collect::<Vec<_>>().join(", ");
    let examples = if examples.is_empty() { String::new() } else { format!(", e.g. {}", listed(examples)) };
    if !nearest.is_empty() {
        format!("; nearest names: {}", listed(nearest))
    } else if !typed.is_empty() && typed.bytes().all(|b| b.is_ascii_digit()) {
        format!("; the vertices are named, not numbered{examples}")
    } else {
        format!("; no name is close; the file names its vertices{examples}")
    }
}

/// A name as a user would type it back (as the named reader and the explorer's prompt split a
/// line): in double quotes, with `"` doubled, when it holds whitespace, a comma or a quote; as
/// it is otherwise.
pub fn quoted(name: &str) -> String {
    if name.contains(|c: char| c.is_whitespace() || c == ',' || c == '"') {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_string()
    }
}

/// The name inside a [`quoted`] one: `"O""Brien"` is `O"Brien`; None when `typed` is not quoted.
fn unquoted(typed: &str) -> Option<String> {
    let inner = typed.strip_prefix('"')?.strip_suffix('"')?;
    Some(inner.replace("\"\"", "\""))
}

impl VertexNames {
    /// Builds a remapping from the original id of each dense vertex.
    pub fn remapped(original: Vec<u64>) -> VertexNames {
        let lookup = original.iter().enumerate().map(|(v, &o)| (o, v as u32)).collect();
        VertexNames::Remapped { original, lookup }
    }

    /// The dense id of a file id, if the vertex exists (`n` = number of vertices).
    pub fn resolve(&self, file_id: u64, n: usize) -> Option<u32> {
        let dense = match self {
            VertexNames::Dense => Some(file_id),
            VertexNames::Offset(b) => file_id.checked_sub(*b),
            VertexNames::Remapped { lookup, .. } => lookup.get(&file_id).map(|&v| v as u64),
            VertexNames::Named(_) => Some(file_id),
        }?;
        (dense < n as u64).then_some(dense as u32)
    }

    /// The id the file used for dense vertex `v`.
    pub fn file_id(&self, v: u32) -> u64 {
        match self {
            VertexNames::Dense => v as u64,
            VertexNames::Offset(b) => v as u64 + b,
            VertexNames::Remapped { original, .. } => original[v as usize],
            VertexNames::Named(_) => v as u64,
        }
    }

    /// The name of dense vertex `v`, when the file named its vertices.
    pub fn name(&self, v: u32) -> Option<&str> {
        match self {
            VertexNames::Named(table) => Some(table.name(v)),
            _ => None,
        }
    }

    /// The names, when the file named its vertices.
    pub fn table(&self) -> Option<&NameTable> {
        match self {
            VertexNames::Named(table) => Some(table),
            _ => None,
        }
    }

    /// How vertex `v` is shown to a user: the id (or name) the file gave it, a name [`quoted`] when
    /// it holds whitespace, a comma or a quote, so that a list of names shows where each ends and
    /// each can be typed back. Every human-readable output goes through here, so that a file's own
    /// naming appears everywhere.
    pub fn label(&self, v: u32) -> String {
        match self.name(v) {
            Some(name) => quoted(name),
            None => self.file_id(v).to_string(),
        }
    }

    /// Vertex `v` as the file wrote it, unquoted: what a file format that quotes by itself (CSV)
    /// or a library caller gets.
    pub fn plain(&self, v: u32) -> String {
        match self.name(v) {
            Some(name) => name.to_string(),
            None => self.file_id(v).to_string(),
        }
    }

    /// Where `v` comes in a list for people: by file id, and for names in the file's order (their
    /// vertex ids are first appearances).
    pub fn listing_key(&self, v: u32) -> u64 {
        if self.table().is_some() { u64::from(v) } else { self.file_id(v) }
    }

    /// Which file ids the `n` vertices have, for an error about an id that is not one of them:
    /// `0 to 9`, `1 to 10 (vertex = file id - 1)`, or for sparse ids the ids themselves when few
    /// (`0, 1, 2, 10, 11`) and their range otherwise: only ids a user can type.
    pub fn describe_ids(&self, n: usize) -> String {
        let Some(last) = (n as u64).checked_sub(1) else {
            return "there are no vertices".to_string();
        };
        let span = crate::format::span;
        match self {
            VertexNames::Dense => format!("its vertex ids are {}", span(0, last)),
            VertexNames::Offset(b) => format!("its file ids are {} (vertex = file id - {b})", span(*b, last + b)),
            VertexNames::Remapped { original, .. } => {
                let mut ids = original.clone();
                ids.sort_unstable();
                if ids.len() <= IDS_LISTED {
                    let listed: Vec<String> = ids.iter().map(u64::to_string).collect();
                    format!("its file ids are {}", listed.join(", "))
                } else {
                    let (low, high) = (ids[0], ids[ids.len() - 1]);
                    format!("its file ids are {} of the ids from {}", last + 1, span(low, high))
                }
            }
            VertexNames::Named(_) => "its vertices are named".to_string(),
        }
    }

    /// Vertex `v` in JSON output: the file's id as a number (or its name as a string).
    pub fn json_id(&self, v: u32) -> serde_json::Value {
        match self.name(v) {
            Some(name) => serde_json::Value::from(name),
            None => serde_json::Value::from(self.file_id(v)),
        }
    }

    /// The dense id of a vertex as a user typed it: its name in a named graph, its file id
    /// otherwise (`n` = number of vertices). An unknown name comes with the nearest names.
    pub fn find(&self, typed: &str, n: usize) -> Result<u32, UnknownVertex> {
        let typed = typed.trim();
        if let VertexNames::Named(table) = self {
            // A name typed the way it is shown ([`quoted`]) is found too: `"Smith, J"` is `Smith, J`.
            let found = table.find(typed).or_else(|| unquoted(typed).and_then(|name| table.find(&name)));
            return found.filter(|&v| (v as usize) < n).ok_or_else(|| UnknownVertex::NoSuchName {
                name: typed.to_string(),
                nearest: table.nearest(typed, SUGGESTIONS).into_iter().map(str::to_string).collect(),
                examples: (0..table.len().min(n).min(EXAMPLES) as u32).map(|v| table.name(v).to_string()).collect(),
            });
        }
        let id: u64 = typed.parse().map_err(|_| UnknownVertex::NotAnId(typed.to_string()))?;
        self.resolve(id, n).ok_or(UnknownVertex::NoSuchId(id))
    }

    /// Up to `limit` names starting with `prefix`, in name order (empty for a numbered graph):
    /// what the explorer's prompt completes with.
    pub fn complete(&self, prefix: &str, limit: usize) -> Vec<&str> {
        match self {
            VertexNames::Named(table) => match table.with_prefix(prefix) {
                // As paths complete: in another case only where the typed case matches nothing.
                [] => table.with_prefix_any_case(prefix, limit),
                exact => exact.iter().take(limit).map(|&v| table.name(v)).collect(),
            },
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let names = VertexNames::remapped(vec![1_000_000_007, 5, 42]);
        assert_eq!(names.resolve(42, 3), Some(2));
        assert_eq!(names.resolve(7, 3), None);
        assert_eq!(names.file_id(0), 1_000_000_007);
        assert_eq!(VertexNames::Offset(1).resolve(0, 3), None);
        assert_eq!(VertexNames::Offset(1).resolve(3, 3), Some(2));
        assert_eq!(VertexNames::Dense.resolve(3, 3), None);
        assert_eq!(names.label(1), "5");
        assert_eq!(names.json_id(2), serde_json::json!(42));
        assert_eq!(names.find(" 42 ", 3), Ok(2));
        assert_eq!(names.find("7", 3), Err(UnknownVertex::NoSuchId(7)));
        assert_eq!(names.find("alice", 3), Err(UnknownVertex::NotAnId("alice".into())));
        assert!(names.complete("4", 5).is_empty());
    }

    #[test]
    fn named_vertices_are_shown_and_found_by_name() {
        let names = VertexNames::Named(Arc::new(NameTable::new(&["alice", "bob", "alicia"]).unwrap()));
        assert_eq!((names.label(1), names.json_id(2)), ("bob".to_string(), serde_json::json!("alicia")));
        assert_eq!((names.file_id(2), names.resolve(2, 3), names.resolve(3, 3)), (2, Some(2), None));
        assert_eq!(names.find("bob", 3), Ok(1));
        let missing = names.find("alise", 3).unwrap_err();
        assert_eq!(missing.to_string(), "no vertex is named `alise`; nearest names: alice");
        let far = names.find("qqqqqq", 3).unwrap_err();
        assert_eq!(
            far.to_string(),
            "no vertex is named `qqqqqq`; no name is close; the file names its vertices, e.g. alice, bob"
        );
        let number = names.find("0", 3).unwrap_err();
        assert_eq!(number.to_string(), "no vertex is named `0`; the vertices are named, not numbered, e.g. alice, bob");
        assert_eq!(names.complete("ali", 5), vec!["alice", "alicia"]);
        assert_eq!(names.complete("ali", 1), vec!["alice"]);
    }

    #[test]
    fn names_that_hold_separators_are_quoted_so_they_can_be_typed_back() {
        let odd = ["Turing, Alan", "New York", "say \"hi\"", "tab\there", "plain"];
        let names = VertexNames::Named(Arc::new(NameTable::new(&odd).unwrap()));
        let shown: Vec<String> = (0..5).map(|v| names.label(v)).collect();
        assert_eq!(shown, ["\"Turing, Alan\"", "\"New York\"", "\"say \"\"hi\"\"\"", "\"tab\there\"", "plain"]);
        // What is shown reads back as the name (the prompt's and the named reader's split).
        for (v, label) in shown.iter().enumerate() {
            assert_eq!(crate::graph::io::split_fields(label), vec![odd[v].to_string()]);
            assert_eq!(names.find(odd[v], 5), Ok(v as u32));
            // Typed as shown, quotes and all (a shell passes `'"say ""hi"""'` so), it is found too.
            assert_eq!(names.find(label, 5), Ok(v as u32), "{label}");
        }
        // JSON and the plain form keep the raw name.
        assert_eq!((names.json_id(0), names.plain(0)), (serde_json::json!("Turing, Alan"), "Turing, Alan".to_string()));
        let missing = names.find("turing", 5).unwrap_err();
        assert_eq!(missing.to_string(), "no vertex is named `turing`; nearest names: \"Turing, Alan\"");
    }

    #[test]
    fn a_missing_id_comes_with_the_ids_there_are() {
        assert_eq!(VertexNames::Dense.describe_ids(10), "its vertex ids are 0 to 9");
        assert_eq!(VertexNames::Offset(1).describe_ids(10), "its file ids are 1 to 10 (vertex = file id - 1)");
        let sparse = VertexNames::remapped(vec![0, 1, 2, 10, 11]);
        assert_eq!(sparse.describe_ids(5), "its file ids are 0, 1, 2, 10, 11");
        let many = VertexNames::remapped((0..20).map(|i| i * 100).collect());
        assert_eq!(many.describe_ids(20), "its file ids are 20 of the ids from 0 to 1900");
        assert_eq!(VertexNames::Dense.describe_ids(0), "there are no vertices");
    }
}
