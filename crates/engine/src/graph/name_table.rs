//! The names of a named-vertex graph: one string per dense vertex, found by name, by prefix (for
//! completion) and by likeness (for suggestions when a typed name does not exist).
//!
//! The names are kept as one string with an end offset per vertex, plus the vertices sorted by
//! name: 12 bytes per vertex beside the text, and every lookup a binary search.

use std::cmp::Ordering;

/// How many names [`NameTable::nearest`] compares at most: a typo's suggestions on a graph of
/// millions of names cost a bounded scan, not one comparison per vertex.
const NEAREST_SCAN: usize = 1 << 20;

/// The least Jaro-Winkler similarity (ignoring case) at which a name counts as close to a typed
/// one. At 0.8 a swap or a dropped letter in a name of five letters or more still counts
/// (`alcie`/`alice` 0.95), while names sharing a letter or two by chance do not
/// (`alcie`/`walter` 0.58): a suggestion is a likely typo, never just the least unlike name.
const CLOSE: f64 = 0.8;

/// The names of vertices `0..len`, all distinct and non-empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameTable {
    /// Every name, one after another.
    text: String,
    /// `ends[v]`: where vertex `v`'s name ends in `text` (it starts where `v - 1`'s ends).
    ends: Vec<u64>,
    /// The vertices in the byte order of their names.
    sorted: Vec<u32>,
}

/// Why stored names cannot be a [`NameTable`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadNames {
    /// An end offset runs backwards, past the text, or inside a UTF-8 character.
    #[error("name {0} has an end offset outside the names' text")]
    Offset(usize),
    /// A name is the empty string.
    #[error("name {0} is empty")]
    Empty(usize),
    /// Two vertices share a name.
    #[error("the name `{0}` is given to two vertices")]
    Duplicate(String),
    /// More names than 32-bit vertex ids can number.
    #[error("{0} names are more than 32-bit vertex ids can number")]
    TooMany(usize),
}

impl NameTable {
    /// The table of `names` (vertex `v` is `names[v]`).
    pub fn new<S: AsRef<str>>(names: &[S]) -> Result<NameTable, BadNames> {
        let mut text = String::with_capacity(names.iter().map(|s| s.as_ref().len()).sum());
        let mut ends = Vec::with_capacity(names.len());
        for name in names {
            text.push_str(name.as_ref());
            ends.push(text.len() as u64);
        }
        NameTable::from_parts(text, ends)
    }

    /// The table of names stored as one text and an end offset per vertex, checked: offsets in
    /// order and on character boundaries, names non-empty and distinct.
    pub fn from_parts(text: String, ends: Vec<u64>) -> Result<NameTable, BadNames> {
        if ends.len() > u32::MAX as usize {
            return Err(BadNames::TooMany(ends.len()));
        }
        let mut start = 0u64;
        for (v, &end) in ends.iter().enumerate() {
            if end < start || end > text.len() as u64 || !text.is_char_boundary(end as usize) {
                return Err(BadNames::Offset(v));
            }
            if end == start {
                return Err(BadNames::Empty(v));
            }
            start = end;
        }
        let mut table = NameTable { text, ends, sorted: Vec::new() };
        let mut sorted: Vec<u32> = (0..table.len() as u32).collect();
        sorted.sort_unstable_by(|&a, &b| table.name(a).cmp(table.name(b)));
        if let Some(pair) = sorted.windows(2).find(|w| table.name(w[0]) == table.name(w[1])) {
            return Err(BadNames::Duplicate(table.name(pair[0]).to_string()));
        }
        table.sorted = sorted;
        Ok(table)
    }

    /// How many names (vertices) there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no names.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The name of vertex `v` (which must be below [`NameTable::len`]).
    pub fn name(&self, v: u32) -> &str {
        let v = v as usize;
        let start = if v == 0 { 0 } else { self.ends[v - 1] as usize };
        &self.text[start..self.ends[v] as usize]
    }

    /// The vertex called `name`, if any.
    pub fn find(&self, name: &str) -> Option<u32> {
        self.sorted.binary_search_by(|&v| self.name(v).cmp(name)).ok().map(|i| self.sorted[i])
    }

    /// The vertices whose names start with `prefix`, in name order.
    pub fn with_prefix(&self, prefix: &str) -> &[u32] {
        let first = self.sorted.partition_point(|&v| self.name(v) < prefix);
        let len = self.sorted[first..].partition_point(|&v| self.name(v).starts_with(prefix));
        &self.sorted[first..first + len]
    }

    /// Up to `limit` names that start with `prefix` in another case (ignoring case, in name order),
    /// for a completion where none starts with it as typed; the first `NEAREST_SCAN` names are
    /// looked at, as for [`NameTable::nearest`].
    pub fn with_prefix_any_case(&self, prefix: &str, limit: usize) -> Vec<&str> {
        let prefix = prefix.to_lowercase();
        self.sorted
            .iter()
            .take(NEAREST_SCAN)
            .map(|&v| self.name(v))
            .filter(|name| name.to_lowercase().starts_with(&prefix))
            .take(limit)
            .collect()
    }

    /// Up to `k` names close to `typed` (Jaro-Winkler similarity at least `CLOSE`, ignoring
    /// case; ties by name), most alike first; none when no name is close.
    pub fn nearest(&self, typed: &str, k: usize) -> Vec<&str> {
        let typed = typed.to_lowercase();
        let mut scored: Vec<(f64, &str)> = self
            .sorted
            .iter()
            .take(NEAREST_SCAN)
            .map(|&v| self.name(v))
            .map(|name| (strsim::jaro_winkler(&typed, &name.to_lowercase()), name))
            .filter(|&(score, _)| score >= CLOSE)
            .collect();
        scored.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(Ordering::Equal).then_with(|| a.1.cmp(b.1)));
        scored.into_iter().take(k).map(|(_, name)| name).collect()
    }

    /// Every name, one after another (what a `.grail` file stores).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Where each vertex's name ends in [`NameTable::text`].
    pub fn ends(&self) -> &[u64] {
        &self.ends
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> NameTable {
        NameTable::new(&["carol", "alice", "bob", "alicia", "Alan"]).unwrap()
    }

    #[test]
    fn finds_names_and_prefixes() {
        let t = table();
        assert_eq!((t.len(), t.name(0), t.name(4)), (5, "carol", "Alan"));
        assert_eq!((t.find("alicia"), t.find("Alice"), t.find("")), (Some(3), None, None));
        assert_eq!(t.with_prefix("ali"), &[1, 3]);
        assert_eq!(t.with_prefix("A"), &[4]);
        assert!(t.with_prefix("z").is_empty());
        assert_eq!(t.with_prefix("").len(), 5);
    }

    #[test]
    fn suggests_the_nearest_names() {
        assert_eq!(table().nearest("alic", 3), vec!["alice", "alicia"]);
        assert_eq!(table().nearest("BOB", 1), vec!["bob"]);
        // Only close names: a typo of `alice` is not offered `alicia` (0.79), `carol` or `Alan`.
        assert_eq!(table().nearest("alcie", 5), vec!["alice"]);
        assert!(table().nearest("qqqqqq", 3).is_empty());
        assert!(table().nearest("0", 3).is_empty());
    }

    #[test]
    fn refuses_what_is_not_a_table() {
        assert_eq!(NameTable::new(&["a", "b", "a"]).unwrap_err(), BadNames::Duplicate("a".into()));
        assert_eq!(NameTable::new(&["a", ""]).unwrap_err(), BadNames::Empty(1));
        assert_eq!(NameTable::from_parts("ab".into(), vec![2, 1]).unwrap_err(), BadNames::Offset(1));
        assert_eq!(NameTable::from_parts("ab".into(), vec![3]).unwrap_err(), BadNames::Offset(0));
        assert_eq!(NameTable::from_parts("é".into(), vec![1, 2]).unwrap_err(), BadNames::Offset(0));
        let t = table();
        assert_eq!(NameTable::from_parts(t.text().to_string(), t.ends().to_vec()).unwrap(), t);
    }
}
