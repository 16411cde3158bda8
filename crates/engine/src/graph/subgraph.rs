//! Cutting out the part of a graph that matters: the neighbourhood of a vertex or one strongly
//! connected component, as a small graph of its own (the edges among the chosen vertices), with the
//! file's ids kept, for `grail convert --around` and `--scc`.

use super::name_table::NameTable;
use super::scc::Condensation;
use super::{Graph, VertexNames, cycles};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// A part of a graph, renumbered: vertex `i` of `graph` is vertex `vertices[i]` of the whole.
#[derive(Clone, Debug)]
pub struct Extract {
    /// The chosen vertices (dense ids of the whole graph), ascending.
    pub vertices: Vec<u32>,
    /// The edges among them, on positions in `vertices` (an induced subgraph).
    pub graph: Graph,
    /// Vertices the choice would have held but `max` left out.
    pub left_out: bool,
}

/// Ancestors (through parents) and descendants (through children) of `v` at most `depth` edges
/// away, at most `max` vertices (at least `v` itself), breadth first: a vertex is taken at its
/// smaller distance, and at each distance ancestors and descendants alternately, each list in its
/// order. So when `max` cuts, every vertex nearer than the farthest one taken is in, and the last
/// distance is shared between the two directions rather than filled by one.
pub fn around(graph: &Graph, v: u32, depth: u32, max: usize) -> Extract {
    let max = max.max(1);
    let mut chosen_set = HashSet::from([v]);
    let mut chosen = vec![v];
    // Each direction walks its own frontier ([descendants, ancestors]): a vertex met going up is
    // also walked down when it is a descendant too.
    let mut seen: [HashSet<u32>; 2] = [HashSet::from([v]), HashSet::from([v])];
    let mut frontier: [Vec<u32>; 2] = [vec![v], vec![v]];
    for _ in 0..depth {
        let mut next: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        for (dir, (frontier, next)) in frontier.iter().zip(next.iter_mut()).enumerate() {
            for &x in frontier {
                let list = if dir == 1 { graph.parents(x) } else { graph.children(x) };
                next.extend(list.iter().copied().filter(|&y| seen[dir].insert(y)));
            }
        }
        let (mut up, mut down) = (next[1].iter().copied(), next[0].iter().copied());
        let alternate = std::iter::from_fn(|| match (up.next(), down.next()) {
            (None, None) => None,
            pair => Some([pair.0, pair.1]),
        });
        for y in alternate.flatten().flatten() {
            if chosen_set.contains(&y) {
                continue;
            }
            if chosen.len() >= max {
                return induced(graph, chosen, true);
            }
            chosen_set.insert(y);
            chosen.push(y);
        }
        if next.iter().all(Vec::is_empty) {
            break;
        }
        frontier = next;
    }
    induced(graph, chosen, false)
}

/// The `rank`-th largest component of two or more vertices (1 = the largest), numbered as
/// `grail scc` lists them, with at most `max` of its members: cut, its shortest cycle's first,
/// then the others in the order `grail scc` lists them ([`VertexNames::listing_key`]). Also the
/// cycle's vertex count (the part holds the cycle when `max` is at least that); `None` when the
/// graph has fewer such components.
pub fn component(
    graph: &Graph,
    condensation: &Condensation,
    rank: usize,
    max: Option<usize>,
    names: &VertexNames,
) -> Option<(Extract, usize)> {
    if rank == 0 {
        return None;
    }
    let found = cycles::largest_cyclic(graph, condensation, rank, None);
    let c = found.largest.get(rank - 1)?;
    // The cycle closes on its first vertex.
    let cycle = &c.cycle[..c.cycle.len().saturating_sub(1)];
    let max = max.unwrap_or(usize::MAX);
    if c.members.len() <= max {
        return Some((induced(graph, c.members.clone(), false), cycle.len()));
    }
    // Cut: the cycle first, so the part still shows why its vertices are one component.
    let on_cycle: HashSet<u32> = cycle.iter().copied().collect();
    let mut rest: Vec<u32> = c.members.iter().copied().filter(|v| !on_cycle.contains(v)).collect();
    rest.sort_unstable_by_key(|&v| names.listing_key(v));
    let chosen = cycle.iter().copied().chain(rest).take(max).collect();
    Some((induced(graph, chosen, true), cycle.len()))
}

/// The subgraph induced by `vertices` (any order, no repeats): every edge of `graph` between two of
/// them, on their positions once sorted.
pub fn induced(graph: &Graph, mut vertices: Vec<u32>, left_out: bool) -> Extract {
    vertices.sort_unstable();
    let position: HashMap<u32, u32> = vertices.iter().enumerate().map(|(i, &v)| (v, i as u32)).collect();
    let lists: Vec<Vec<u32>> =
        vertices.iter().map(|&u| graph.children(u).iter().filter_map(|c| position.get(c).copied()).collect()).collect();
    let graph = Graph::from_adjacency(&lists).expect("positions are below the number of lists");
    Extract { vertices, graph, left_out }
}

/// The ids of the extract's vertices as the file gave them, so that its file speaks of the same
/// vertices as the whole graph's.
pub fn names_of(names: &VertexNames, vertices: &[u32]) -> VertexNames {
    match names.table() {
        Some(table) => {
            let kept: Vec<&str> = vertices.iter().map(|&v| table.name(v)).collect();
            // Distinct names stay distinct in any subset of them.
            VertexNames::Named(Arc::new(NameTable::new(&kept).expect("a subset of a graph's names")))
        }
        None => VertexNames::remapped(vertices.iter().map(|&v| names.file_id(v)).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::scc::condense;
    use proptest::prelude::*;
    use std::collections::{BTreeSet, VecDeque};

    /// Distances from `s` along `next` (BFS), `None` where unreachable.
    fn distances(n: usize, s: u32, next: impl Fn(u32) -> Vec<u32>) -> Vec<Option<u32>> {
        let mut d = vec![None; n];
        d[s as usize] = Some(0);
        let mut q = VecDeque::from([s]);
        while let Some(u) = q.pop_front() {
            for c in next(u) {
                if d[c as usize].is_none() {
                    d[c as usize] = Some(d[u as usize].unwrap() + 1);
                    q.push_back(c);
                }
            }
        }
        d
    }

    /// The extract's edges in the whole graph's ids, each checked to be an edge of `g`.
    fn edges_of(g: &Graph, e: &Extract) -> BTreeSet<(u32, u32)> {
        let edges: BTreeSet<(u32, u32)> =
            e.graph.edges().map(|(a, b)| (e.vertices[a as usize], e.vertices[b as usize])).collect();
        for &(a, b) in &edges {
            assert!(g.children(a).contains(&b));
        }
        edges
    }

    /// The brute-force induced edges among `set`.
    fn induced_edges(g: &Graph, set: &BTreeSet<u32>) -> BTreeSet<(u32, u32)> {
        g.edges().filter(|(a, b)| set.contains(a) && set.contains(b)).collect()
    }

    #[test]
    fn a_chain_around_its_middle() {
        let g = Graph::from_edges(7, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)]).unwrap();
        let e = around(&g, 3, 2, 100);
        assert_eq!(e.vertices, vec![1, 2, 3, 4, 5]);
        assert_eq!(e.graph.num_edges(), 4);
        assert!(!e.left_out);
        let e = around(&g, 3, 2, 3);
        assert_eq!(e.vertices, vec![2, 3, 4]);
        assert!(e.left_out);
    }

    #[test]
    fn a_cut_hub_keeps_ancestors_and_descendants_alike() {
        // 10 has parents 0..5 and children 20..25, all one edge away.
        let edges: Vec<(u32, u32)> = (0..5).map(|p| (p, 10)).chain((20..25).map(|c| (10, c))).collect();
        let g = Graph::from_edges(25, &edges).unwrap();
        let e = around(&g, 10, 2, 5);
        assert_eq!(e.vertices, vec![0, 1, 10, 20, 21]);
        assert!(e.left_out);
    }

    #[test]
    fn the_largest_component_by_rank() {
        let edges = [(0, 1), (1, 2), (2, 0), (0, 5), (5, 0), (3, 4), (4, 3), (2, 3)];
        let g = Arc::new(Graph::from_edges(6, &edges).unwrap());
        let c = condense(&g);
        let first = component(&g, &c, 1, None, &VertexNames::Dense).unwrap().0;
        assert_eq!(first.vertices, vec![0, 1, 2, 5]);
        assert_eq!(first.graph.num_edges(), 5);
        let second = component(&g, &c, 2, None, &VertexNames::Dense).unwrap().0;
        assert_eq!((second.vertices, second.graph.num_edges()), (vec![3, 4], 2));
        assert!(component(&g, &c, 3, None, &VertexNames::Dense).is_none());
        assert!(component(&g, &c, 0, None, &VertexNames::Dense).is_none());
        // Cut, the part keeps the shortest cycle (0 → 5 → 0) first, then members by id.
        let cut = component(&g, &c, 1, Some(2), &VertexNames::Dense).unwrap().0;
        assert_eq!((cut.vertices, cut.graph.num_edges(), cut.left_out), (vec![0, 5], 2, true));
        let cut = component(&g, &c, 1, Some(3), &VertexNames::Dense).unwrap().0;
        assert_eq!((cut.vertices, cut.left_out), (vec![0, 1, 5], true));
    }

    #[test]
    fn names_follow_the_vertices() {
        let names = VertexNames::remapped(vec![100, 7, 42]);
        let sub = names_of(&names, &[0, 2]);
        assert_eq!((sub.label(0), sub.label(1)), ("100".to_string(), "42".to_string()));
        let names = VertexNames::Named(Arc::new(NameTable::new(&["ann", "bo", "cy"]).unwrap()));
        let sub = names_of(&names, &[2, 0]);
        assert_eq!((sub.label(0), sub.label(1)), ("cy".to_string(), "ann".to_string()));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn around_agrees_with_brute_force(
            n in 1usize..20,
            raw in prop::collection::vec((0u32..20, 0u32..20), 0..50),
            start in 0u32..20,
            depth in 0u32..4,
            max in 1usize..25,
        ) {
            let edges: Vec<(u32, u32)> = raw.into_iter().map(|(a, b)| (a % n as u32, b % n as u32)).collect();
            let g = Graph::from_edges(n, &edges).unwrap();
            let v = start % n as u32;
            let down = distances(n, v, |u| g.children(u).to_vec());
            let up = distances(n, v, |u| g.parents(u).to_vec());
            let dist: Vec<Option<u32>> = (0..n)
                .map(|u| match (up[u], down[u]) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                })
                .map(|d| d.filter(|&d| d <= depth))
                .collect();
            let full: BTreeSet<u32> = (0..n as u32).filter(|&u| dist[u as usize].is_some()).collect();
            let e = around(&g, v, depth, max);
            let got: BTreeSet<u32> = e.vertices.iter().copied().collect();
            prop_assert_eq!(got.len(), e.vertices.len());
            prop_assert_eq!(got.len(), full.len().min(max));
            prop_assert!(got.is_subset(&full));
            prop_assert!(got.contains(&v));
            prop_assert_eq!(e.left_out, full.len() > max);
            // Breadth first: everything nearer than the farthest vertex taken is in.
            let farthest = got.iter().map(|&u| dist[u as usize].unwrap()).max().unwrap();
            for &u in &full {
                if dist[u as usize].unwrap() < farthest {
                    prop_assert!(got.contains(&u), "{} at distance {:?} missing", u, dist[u as usize]);
                }
            }
            prop_assert_eq!(edges_of(&g, &e), induced_edges(&g, &got));
        }

        #[test]
        fn components_agree_with_brute_force(
            n in 1usize..16,
            raw in prop::collection::vec((0u32..16, 0u32..16), 0..40),
            rank in 1usize..4,
        ) {
            let edges: Vec<(u32, u32)> = raw.into_iter().map(|(a, b)| (a % n as u32, b % n as u32)).collect();
            let g = Arc::new(Graph::from_edges(n, &edges).unwrap());
            let c = condense(&g);
            let reach: Vec<Vec<Option<u32>>> =
                (0..n as u32).map(|s| distances(n, s, |u| g.children(u).to_vec())).collect();
            let mut comps: Vec<BTreeSet<u32>> = Vec::new();
            for (u, from_u) in reach.iter().enumerate() {
                let set: BTreeSet<u32> =
                    (0..n).filter(|&w| from_u[w].is_some() && reach[w][u].is_some()).map(|w| w as u32).collect();
                if set.len() > 1 && !comps.contains(&set) {
                    comps.push(set);
                }
            }
            comps.sort_by_key(|s| (std::cmp::Reverse(s.len()), *s.iter().next().unwrap()));
            let got = component(&g, &c, rank, None, &VertexNames::Dense).map(|(e, _)| e);
            match comps.get(rank - 1) {
                None => prop_assert!(got.is_none()),
                Some(set) => {
                    let e = got.unwrap();
                    let members: BTreeSet<u32> = e.vertices.iter().copied().collect();
                    prop_assert_eq!(&members, set);
                    prop_assert!(!e.left_out);
                    prop_assert_eq!(edges_of(&g, &e), induced_edges(&g, set));
                }
            }
        }
    }
}
