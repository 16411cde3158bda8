//! A count of findings with the first few of them: what the loader report keeps of each kind of
//! line or id, in memory that does not grow with the count.

use serde::Serialize;

/// How many line numbers (or ids) each kind of finding keeps.
pub const FIRST: usize = 5;

/// A count and where the first few occurrences are (1-based line numbers, or file ids where the
/// finding is about ids).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Firsts {
    /// How many there are.
    pub count: u64,
    /// The first [`FIRST`] of them, in file order.
    pub first: Vec<u64>,
    /// For vertices of a file that names them: the first ones' names, in place of numbers in
    /// `first` (which is then empty).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
}

impl Firsts {
    /// Counts one more at `at`, keeping it if it is among the first [`FIRST`].
    pub fn note(&mut self, at: u64) {
        self.count += 1;
        if self.first.len() < FIRST {
            self.first.push(at);
        }
    }

    /// How many are listed (numbers or names).
    pub fn listed(&self) -> usize {
        self.first.len() + self.names.len()
    }

    /// The same count with only the first `k` of those listed.
    pub fn keeping(&self, k: usize) -> Firsts {
        Firsts {
            count: self.count,
            first: self.first.iter().take(k).copied().collect(),
            names: self.names.iter().take(k.saturating_sub(self.first.len())).cloned().collect(),
        }
    }
}
