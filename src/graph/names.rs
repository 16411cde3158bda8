//! The ids a file used for its vertices, versus the dense ids `0..n` the engine works on.

use std::collections::HashMap;

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
        }?;
        (dense < n as u64).then_some(dense as u32)
    }

    /// The id the file used for dense vertex `v`.
    pub fn file_id(&self, v: u32) -> u64 {
        match self {
            VertexNames::Dense => v as u64,
            VertexNames::Offset(b) => v as u64 + b,
            VertexNames::Remapped { original, .. } => original[v as usize],
        }
    }

    /// How vertex `v` is shown to a user: the id (or name) the file gave it. Every human-readable
    /// output goes through here, so that a file's own naming appears everywhere.
    pub fn label(&self, v: u32) -> String {
        self.file_id(v).to_string()
    }

    /// Vertex `v` in JSON output: the file's id as a number (or its name as a string).
    pub fn json_id(&self, v: u32) -> serde_json::Value {
        serde_json::Value::from(self.file_id(v))
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
    }
}
