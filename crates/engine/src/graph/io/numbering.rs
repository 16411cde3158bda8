//! How an edge list's file ids (any `u64`) become the dense ids `0..n` of the CSR.
//!
//! The rule, chosen to be simple and predictable:
//! 1. If the file carries the writer's comment `# grail-explorer: N vertices, ...` and every id is
//!    below N, the ids are kept as they are with n = N (so isolated vertices survive a round trip).
//! 2. Otherwise, with `max` the largest id: if `max + 1 <= 2 * (number of distinct ids)` the ids are
//!    kept as they are with n = max + 1 (ids that never appear are isolated vertices).
//! 3. Otherwise the ids are sparse (or huge): they are renumbered in order of first appearance
//!    (source before target, line by line) and the originals kept in [`VertexNames::Remapped`].

use crate::graph::VertexNames;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// The outcome of the rule for one file.
#[derive(Debug, PartialEq, Eq)]
pub enum Numbering {
    /// Keep file ids; `n` vertices.
    Dense(usize),
    /// Renumber by first appearance.
    Remapped,
}

/// Applies the rule above to the edges of a file (in file order) and the `N` of its comment.
pub fn choose(pairs: &[(u64, u64)], declared: Option<u64>) -> Numbering {
    let max = pairs.iter().map(|&(s, d)| s.max(d)).max().unwrap_or(0);
    choose_by(max, pairs.len(), declared, |span| count_distinct(pairs, span))
}

/// The rule, given the largest id, the number of pairs and a way to count the distinct ids (all
/// below `span`), so that a parallel reader can count over its chunks.
pub fn choose_by(max: u64, pairs: usize, declared: Option<u64>, distinct: impl FnOnce(usize) -> usize) -> Numbering {
    if let Some(n) = declared
        && max < n
        && n <= u32::MAX as u64
    {
        return Numbering::Dense(n as usize);
    }
    let Some(span) = max.checked_add(1).filter(|&s| s <= u32::MAX as u64) else {
        return Numbering::Remapped;
    };
    // There are at most 2 * |pairs| distinct ids, so a wider span is sparse without counting.
    if span > 4 * pairs as u64 {
        return Numbering::Remapped;
    }
    if span <= 2 * distinct(span as usize) as u64 { Numbering::Dense(span as usize) } else { Numbering::Remapped }
}

/// Distinct ids among `pairs`, all below `span`, with a bitmap (span is at most 4 bits per edge).
fn count_distinct(pairs: &[(u64, u64)], span: usize) -> usize {
    let mut seen = vec![0u64; span.div_ceil(64)];
    for &(s, d) in pairs {
        for id in [s, d] {
            seen[(id / 64) as usize] |= 1 << (id % 64);
        }
    }
    seen.iter().map(|w| w.count_ones() as usize).sum()
}

/// Dense edges when the ids are kept (the caller checked they are below n <= u32::MAX).
pub fn keep(pairs: &[(u64, u64)]) -> Vec<(u32, u32)> {
    pairs.iter().map(|&(s, d)| (s as u32, d as u32)).collect()
}

/// An edge list renumbered by first appearance.
#[derive(Debug)]
pub struct Renumbered {
    pub edges: Vec<(u32, u32)>,
    pub n: usize,
    pub names: VertexNames,
}

/// Renumbers ids in order of first appearance, allowing at most `max_vertices` distinct ids.
/// On overflow returns the index of the pair that brought one id too many.
pub fn remap(pairs: &[(u64, u64)], max_vertices: u64) -> Result<Renumbered, usize> {
    let mut lookup: HashMap<u64, u32> = HashMap::with_capacity(pairs.len().min(1 << 24));
    let mut original: Vec<u64> = Vec::new();
    let mut dense = |id: u64| -> Option<u32> {
        match lookup.entry(id) {
            Entry::Occupied(e) => Some(*e.get()),
            Entry::Vacant(e) => {
                if original.len() as u64 >= max_vertices {
                    return None;
                }
                let v = original.len() as u32;
                original.push(id);
                Some(*e.insert(v))
            }
        }
    };
    let mut edges = Vec::with_capacity(pairs.len());
    for (index, &(s, d)) in pairs.iter().enumerate() {
        let (Some(s), Some(d)) = (dense(s), dense(d)) else {
            return Err(index);
        };
        edges.push((s, d));
    }
    let n = original.len();
    // Built directly rather than with `VertexNames::remapped`, which would hash every id again.
    Ok(Renumbered { edges, n, names: VertexNames::Remapped { original, lookup } })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_when_ids_fill_at_least_half_the_span() {
        // ids {0, 1, 3}: span 4 <= 2 * 3.
        assert_eq!(choose(&[(0, 1), (3, 1)], None), Numbering::Dense(4));
        // ids {0, 5}: span 6 > 2 * 2.
        assert_eq!(choose(&[(0, 5)], None), Numbering::Remapped);
        // ids {2, 3}: span 4 <= 2 * 2 (0 and 1 become isolated vertices).
        assert_eq!(choose(&[(2, 3)], None), Numbering::Dense(4));
    }

    #[test]
    fn huge_ids_are_remapped() {
        assert_eq!(choose(&[(u64::MAX, 0)], None), Numbering::Remapped);
        assert_eq!(choose(&[(u32::MAX as u64, 0), (1, 2)], None), Numbering::Remapped);
    }

    #[test]
    fn declared_count_keeps_isolated_vertices() {
        assert_eq!(choose(&[(0, 1)], Some(10)), Numbering::Dense(10));
        // A comment that the ids contradict is ignored.
        assert_eq!(choose(&[(0, 12)], Some(10)), Numbering::Remapped);
    }

    #[test]
    fn remap_follows_first_appearance() {
        let Renumbered { edges, n, names } = remap(&[(70, 5), (5, 1 << 40), (70, 1 << 40)], 10).unwrap();
        assert_eq!((edges, n), (vec![(0, 1), (1, 2), (0, 2)], 3));
        assert_eq!((names.file_id(0), names.file_id(1), names.file_id(2)), (70, 5, 1 << 40));
        assert_eq!(names.resolve(1 << 40, 3), Some(2));
    }

    #[test]
    fn remap_reports_the_pair_that_overflows() {
        assert_eq!(remap(&[(1, 2), (2, 1), (2, 3)], 2).unwrap_err(), 2);
    }
}
