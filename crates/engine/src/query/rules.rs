//! The cheap rules that decide most queries without a search (docs/ALGORITHMS.md, section 13), on DAG ids.
//!
//! GRAIL's set ([`cheap_verdict`]) tries label cut (no), level cut (no), tree cut (yes). The default
//! set ([`full_verdict`]) first tries the rules of the query index's one-line records, cheapest
//! first (level, topological orders, supportive vertices, Bloom filters), then GRAIL's label and
//! tree cuts. The same-component rule needs the component map and lives in the engine; everything
//! here reads only the labels and the query index, so a batch pre-filter (CPU or GPU) can use it.

use super::answer::Rule;
use super::bloom::BLOOM_WORDS;
use super::query_index::{QueryIndex, TopoPositions, VertexCuts};
use crate::index::{Interval, Labels};

/// A cheap rule's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The rule that decided.
    pub rule: Rule,
    /// What it proved: whether `u` reaches `v`.
    pub reachable: bool,
    /// The dimension that proved it (label cut, tree cut).
    pub dimension: Option<usize>,
}

/// `target ⊆ outer` in every dimension (`target` = L(v), `outer` = L(c)).
#[inline]
pub fn contains_all(outer: &[Interval], target: &[Interval]) -> bool {
    outer.iter().zip(target).all(|(a, b)| a.contains(*b))
}

/// The first dimension where `L(v) ⊄ L(u)`.
///
/// Always inlined: it is the hot loop of [`cheap_verdict`], and when another caller (the trace
/// recorder) shares its codegen unit, the inliner otherwise compiles that loop worse (measured:
/// about 36 more instructions per batch query).
#[inline(always)]
pub fn label_cut(labels: &Labels, u: u32, v: u32) -> Option<usize> {
    labels.of(u).iter().zip(labels.of(v)).position(|(a, b)| !a.contains(*b))
}

/// `level(u) >= level(v)`: `u` cannot reach `v` (a path strictly increases the level). Callers
/// have already excluded `u == v`.
#[inline]
pub fn level_cut(labels: &Labels, u: u32, v: u32) -> bool {
    labels.level(u) >= labels.level(v)
}

/// The first dimension whose DFS tree has `v` inside `u`'s subtree: `post(u) - size(u) < post(v) <=
/// post(u)` (the subtree's post numbers are exactly that range).
#[inline]
pub fn tree_cut(labels: &Labels, u: u32, v: u32) -> Option<usize> {
    let dims = labels.dims();
    let (iu, iv) = (labels.of(u), labels.of(v));
    let subtree = &labels.subtrees()[u as usize * dims..u as usize * dims + dims];
    (0..dims).find(|&i| in_subtree(iu[i].post, subtree[i], iv[i].post))
}

/// Whether post number `post_v` lies in the subtree rooted at a vertex with `post_u`, `size_u`.
#[inline]
pub fn in_subtree(post_u: u32, size_u: u32, post_v: u32) -> bool {
    post_u - size_u < post_v && post_v <= post_u
}

/// The cut rules for DAG vertices `u != v`, in order; `None` means only a search can tell.
#[inline]
pub fn cheap_verdict(labels: &Labels, u: u32, v: u32) -> Option<Verdict> {
    if let Some(dim) = label_cut(labels, u, v) {
        return Some(Verdict { rule: Rule::LabelCut, reachable: false, dimension: Some(dim) });
    }
    if level_cut(labels, u, v) {
        return Some(Verdict { rule: Rule::LevelCut, reachable: false, dimension: None });
    }
    tree_cut(labels, u, v).map(|dim| Verdict { rule: Rule::TreeCut, reachable: true, dimension: Some(dim) })
}

/// The first topological order in which `u` (positions `a`) does not come before `v` (`b`).
#[inline(always)]
pub fn topo_cut(a: &TopoPositions, b: &TopoPositions) -> Option<usize> {
    (0..a.len()).find(|&i| a[i] >= b[i])
}

/// A supportive vertex that separates `u` from `v`: it reaches `u` but not `v`, or `v` reaches it
/// but `u` does not. Returns its bit.
#[inline(always)]
pub fn supportive_cut(a: &VertexCuts, b: &VertexCuts) -> Option<usize> {
    (0..a.from_support.len()).find_map(|w| {
        let separating = (a.from_support[w] & !b.from_support[w]) | (b.to_support[w] & !a.to_support[w]);
        (separating != 0).then(|| 64 * w + separating.trailing_zeros() as usize)
    })
}

/// A supportive vertex on a path `u ⇝ s ⇝ v`. Returns its bit.
#[inline(always)]
pub fn supportive_path(a: &VertexCuts, b: &VertexCuts) -> Option<usize> {
    (0..a.to_support.len()).find_map(|w| {
        let through = a.to_support[w] & b.from_support[w];
        (through != 0).then(|| 64 * w + through.trailing_zeros() as usize)
    })
}

/// A filter bit that disproves `u ⇝ v`: set in `v`'s descendant filter but not `u`'s (bits
/// `0..64`), or in `u`'s ancestor filter but not `v`'s (bits `64..128`).
#[inline(always)]
pub fn bloom_cut(a: &VertexCuts, b: &VertexCuts) -> Option<usize> {
    for w in 0..BLOOM_WORDS {
        let missing = b.bloom_out[w] & !a.bloom_out[w];
        if missing != 0 {
            return Some(64 * w + missing.trailing_zeros() as usize);
        }
    }
    for w in 0..BLOOM_WORDS {
        let missing = a.bloom_in[w] & !b.bloom_in[w];
        if missing != 0 {
            return Some(64 * (BLOOM_WORDS + w) + missing.trailing_zeros() as usize);
        }
    }
    None
}

/// What the default set knows about one end of a query or a search, read once.
#[derive(Clone, Copy, Debug)]
pub struct TargetKeys {
    /// Its topological level.
    pub level: u32,
    /// Its positions in the index's topological orders.
    pub topo: TopoPositions,
    /// Its supportive-vertex masks and Bloom filters.
    pub record: VertexCuts,
}

impl TargetKeys {
    /// The keys of DAG vertex `v`; `levels` are the DAG's (the labels' own, or Kahn's).
    #[inline(always)]
    pub fn of(index: &QueryIndex, levels: &[u32], v: u32) -> TargetKeys {
        TargetKeys { level: levels[v as usize], topo: *index.topo(v), record: *index.of(v) }
    }
}

/// The negative rules of the default set before GRAIL's, cheapest first in memory terms: the
/// labels' 4-byte level, the 8-byte topological positions, then the 48-byte record's supportive
/// vertices and Bloom filters. Also what prunes a search's children. `levels` are the DAG's.
#[inline(always)]
pub fn index_no(index: &QueryIndex, levels: &[u32], u: u32, v: &TargetKeys) -> Option<(Rule, Option<usize>)> {
    if levels[u as usize] >= v.level {
        return Some((Rule::LevelCut, None));
    }
    if let Some(order) = topo_cut(index.topo(u), &v.topo) {
        return Some((Rule::TopoCut, Some(order)));
    }
    record_no(index.of(u), &v.record)
}

/// [`index_no`] with the known end first: can the source `u` (read once into `u`) reach `v`?
#[inline(always)]
pub fn source_no(index: &QueryIndex, levels: &[u32], u: &TargetKeys, v: u32) -> Option<(Rule, Option<usize>)> {
    if u.level >= levels[v as usize] {
        return Some((Rule::LevelCut, None));
    }
    if let Some(order) = topo_cut(&u.topo, index.topo(v)) {
        return Some((Rule::TopoCut, Some(order)));
    }
    record_no(&u.record, index.of(v))
}

/// The record's negative rules: supportive vertices, then Bloom filters.
#[inline(always)]
pub fn record_no(a: &VertexCuts, b: &VertexCuts) -> Option<(Rule, Option<usize>)> {
    if let Some(bit) = supportive_cut(a, b) {
        return Some((Rule::SupportiveCut, Some(bit)));
    }
    bloom_cut(a, b).map(|bit| (Rule::BloomCut, Some(bit)))
}

/// Every rule of the default set for DAG vertices `u != v`, in order; `None` means only a search
/// can tell.
#[inline]
pub fn full_verdict(index: &QueryIndex, labels: &Labels, u: u32, v: u32) -> Option<Verdict> {
    if labels.level(u) >= labels.level(v) {
        return Some(Verdict { rule: Rule::LevelCut, reachable: false, dimension: None });
    }
    if let Some(order) = topo_cut(index.topo(u), index.topo(v)) {
        return Some(Verdict { rule: Rule::TopoCut, reachable: false, dimension: Some(order) });
    }
    let (a, b) = (index.of(u), index.of(v));
    if let Some((rule, dimension)) = record_no(a, b) {
        return Some(Verdict { rule, reachable: false, dimension });
    }
    if let Some(bit) = supportive_path(a, b) {
        return Some(Verdict { rule: Rule::SupportivePath, reachable: true, dimension: Some(bit) });
    }
    if let Some(dim) = label_cut(labels, u, v) {
        return Some(Verdict { rule: Rule::LabelCut, reachable: false, dimension: Some(dim) });
    }
    tree_cut(labels, u, v).map(|dim| Verdict { rule: Rule::TreeCut, reachable: true, dimension: Some(dim) })
}

/// The verdict of the rule set in use: the full set with a query index, GRAIL's without.
#[inline]
pub fn verdict(index: Option<&QueryIndex>, labels: &Labels, u: u32, v: u32) -> Option<Verdict> {
    match index {
        Some(index) => full_verdict(index, labels, u, v),
        None => cheap_verdict(labels, u, v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;
    use crate::index::{Order, dfs};

    fn record() -> VertexCuts {
        VertexCuts::default()
    }

    #[test]
    fn topo_cut_decides_a_later_source_and_leaves_an_earlier_one() {
        let (a, b) = ([5, 2], [7, 9]);
        assert_eq!(topo_cut(&a, &b), None);
        assert_eq!(topo_cut(&[5, 12], &b), Some(1));
        assert_eq!(topo_cut(&[7, 1], &b), Some(0));
    }

    #[test]
    fn index_rules_run_cheapest_first_and_leave_possible_pairs() {
        // 0 -> 1 -> 2 and 3 -> 2: every vertex pair of the DAG, against the index's own answer.
        let g = Graph::from_edges(4, &[(0, 1), (1, 2), (3, 2)]).unwrap();
        let labels = dfs::label(&g, 1, Order::Lex).unwrap();
        let index = QueryIndex::build(&g, &labels).unwrap();
        let keys = |v| TargetKeys::of(&index, labels.levels(), v);
        // Level first: 2 sits below 0.
        assert_eq!(index_no(&index, labels.levels(), 2, &keys(0)), Some((Rule::LevelCut, None)));
        // 0 reaches 2: nothing may cut it, and a positive rule proves it.
        assert_eq!(index_no(&index, labels.levels(), 0, &keys(2)), None);
        assert!(full_verdict(&index, &labels, 0, 2).is_none_or(|v| v.reachable));
        // 0 and 3 are both roots (level 0): the level cut decides both ways.
        assert_eq!(full_verdict(&index, &labels, 0, 3).map(|v| v.rule), Some(Rule::LevelCut));
    }

    #[test]
    fn supportive_rules_decide_both_ways_and_leave_unrelated_pairs() {
        let (mut a, mut b) = (record(), record());
        // u reaches supportive vertex 3, which reaches v: yes.
        a.to_support[0] = 1 << 3;
        b.from_support[0] = 1 << 3;
        assert_eq!((supportive_path(&a, &b), supportive_cut(&a, &b)), (Some(3), None));
        // Supportive vertex 5 reaches u but not v: no.
        a.from_support[0] = 1 << 5;
        assert_eq!(supportive_cut(&a, &b), Some(5));
        // v reaches supportive vertex 6, u does not: no.
        let (mut c, mut d) = (record(), record());
        d.to_support[1] = 1 << 6;
        assert_eq!(supportive_cut(&c, &d), Some(70));
        // Nothing in common: neither rule decides.
        d.to_support[1] = 0;
        c.to_support[0] = 1 << 1;
        assert_eq!((supportive_path(&c, &d), supportive_cut(&c, &d)), (None, None));
    }

    #[test]
    fn bloom_cut_needs_a_missing_bit() {
        let (mut a, mut b) = (record(), record());
        let last = BLOOM_WORDS - 1;
        a.bloom_out[last] = 0b1011;
        b.bloom_out[last] = 0b0011;
        a.bloom_in[0] = 0b1;
        b.bloom_in[0] = 0b11;
        assert_eq!(bloom_cut(&a, &b), None);
        b.bloom_out[last] |= 1 << 4;
        assert_eq!(bloom_cut(&a, &b), Some(64 * last + 4));
        b.bloom_out[last] = 0b0011;
        a.bloom_in[last] |= 1 << 2;
        assert_eq!(bloom_cut(&a, &b), Some(64 * (BLOOM_WORDS + last) + 2));
    }

    /// 0 -> 1 -> 3, 0 -> 2 -> 3, 4 -> 2, 5 alone.
    fn diamond() -> (Graph, Labels) {
        let g = Graph::from_edges(6, &[(0, 1), (1, 3), (0, 2), (2, 3), (4, 2)]).unwrap();
        let labels = dfs::label(&g, 1, Order::Lex).unwrap();
        (g, labels)
    }

    #[test]
    fn label_cut_names_the_dimension() {
        let (_, labels) = diamond();
        // Lex DFS: post 3=1, 1=2, 2=3, 0=4, 4=5, 5=6. L(4) = [1,5], L(0) = [1,4]: 4 is not inside 0.
        assert_eq!(label_cut(&labels, 0, 4), Some(0));
        assert_eq!(cheap_verdict(&labels, 0, 4).unwrap().rule, Rule::LabelCut);
        assert_eq!(label_cut(&labels, 0, 3), None);
    }

    #[test]
    fn level_cut_catches_what_labels_miss() {
        let (_, labels) = diamond();
        // L(1) = [1,2] ⊆ L(2) = [1,3] although 2 cannot reach 1; both sit on level 1.
        assert_eq!(label_cut(&labels, 2, 1), None);
        let verdict = cheap_verdict(&labels, 2, 1).unwrap();
        assert_eq!((verdict.rule, verdict.reachable), (Rule::LevelCut, false));
    }

    #[test]
    fn tree_cut_proves_reachability() {
        let (_, labels) = diamond();
        // 3 is in 0's DFS subtree (through 1).
        let verdict = cheap_verdict(&labels, 0, 3).unwrap();
        assert_eq!((verdict.rule, verdict.reachable, verdict.dimension), (Rule::TreeCut, true, Some(0)));
        // 4 reaches 3 only through 2, which 0's tree owns: not in 4's subtree, so no verdict.
        assert_eq!(tree_cut(&labels, 4, 3), None);
        assert_eq!(cheap_verdict(&labels, 4, 3), None);
    }
}
