//! The path behind a supportive-path answer: `cu ⇝ s ⇝ cv` through the supportive vertex that
//! decided, found from the query index alone, so that the same path is shown whether or not the
//! labels exist yet.

use super::query_index::QueryIndex;
use super::rules::{bloom_cut, supportive_cut, topo_cut};
use super::supportive::has_bit;
use crate::graph::vertex_path::shortest_path_to;
use crate::graph::{Graph, topo};

/// A path from `cu` to `cv` through supportive vertex `bit` of `index`, shortest on each side:
/// towards `s` the search enters only vertices whose masks say they reach `s`; from `s` on, only
/// vertices that no cut of the index rules out on the way to `cv`. `None` if `bit` names no
/// supportive vertex of `dag` or no such path exists (the index was not built for `dag`).
pub(crate) fn through_supportive(dag: &Graph, index: &QueryIndex, cu: u32, cv: u32, bit: usize) -> Option<Vec<u32>> {
    let s = QueryIndex::supportive(dag).get(bit).copied()?;
    let levels = topo::kahn(dag).ok()?.level;
    let reaches_s = |x: u32| has_bit(&index.of(x).to_support, bit);
    let mut path = shortest_path_to(dag, cu, reaches_s, |x| x == s)?;
    let (target, records) = (index.of(cv), index.topo(cv));
    let may_reach_cv = |x: u32| {
        x == cv
            || (levels[x as usize] < levels[cv as usize]
                && topo_cut(index.topo(x), records).is_none()
                && supportive_cut(index.of(x), target).is_none()
                && bloom_cut(index.of(x), target).is_none())
    };
    let rest = shortest_path_to(dag, s, may_reach_cv, |x| x == cv)?;
    path.extend_from_slice(&rest[1..]);
    Some(path)
}
