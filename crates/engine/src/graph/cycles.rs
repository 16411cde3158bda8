//! Where a graph's cycles are: its largest strongly connected components (those of two or more
//! vertices), their members, and one shortest cycle of each: a breadth-first search inside the
//! component from each member in turn, each stopping at the length of the shortest found so far,
//! within a budget of edge visits; past it, the shortest found (through the first members, the
//! smallest included) is given and said to be only that.

use super::scc::Condensation;
use super::{Graph, VertexNames};
use std::collections::HashMap;

/// One strongly connected component of two or more vertices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CyclicComponent {
    /// Its id in the condensation.
    pub component: u32,
    /// Vertices in it.
    pub size: u32,
    /// Its vertices (dense ids, ascending): all of them, or the first of them when the caller
    /// asked for fewer.
    pub members: Vec<u32>,
    /// A shortest cycle, as the path `s, ..., s` (dense ids), `s` the smallest member it passes.
    pub cycle: Vec<u32>,
    /// Whether `cycle` is a shortest of the whole component; false when the search ran out of its
    /// budget and `cycle` is only the shortest through the members it searched from.
    pub shortest_in_component: bool,
}

/// Edge visits the search for one component's shortest cycle may spend: past them it settles for
/// the shortest found so far (always through the smallest member, searched first).
pub const CYCLE_SEARCH_BUDGET: u64 = 20_000_000;

/// The cyclic components of a graph, largest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycles {
    /// Components of two or more vertices, in the whole graph.
    pub cyclic_components: u64,
    /// Vertices in those components.
    pub vertices_in_cycles: u64,
    /// The largest of them (by size, then by component id), at most the number asked for.
    pub largest: Vec<CyclicComponent>,
}

/// The `top` largest cyclic components of `graph` (condensed as `condensation`), each with its first
/// `members` vertices (`None`: all) and one shortest cycle ([`shortest_cycle_of`]).
pub fn largest_cyclic(graph: &Graph, condensation: &Condensation, top: usize, members: Option<usize>) -> Cycles {
    let sizes = &condensation.sizes;
    let mut cyclic: Vec<u32> = (0..sizes.len() as u32).filter(|&c| sizes[c as usize] > 1).collect();
    let vertices_in_cycles = cyclic.iter().map(|&c| u64::from(sizes[c as usize])).sum();
    let cyclic_components = cyclic.len() as u64;
    cyclic.sort_unstable_by_key(|&c| (std::cmp::Reverse(sizes[c as usize]), c));
    cyclic.truncate(top);
    let slot: HashMap<u32, usize> = cyclic.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    // Every member of each listed component, ascending (the cycle search starts from each).
    let mut all: Vec<Vec<u32>> = vec![Vec::new(); cyclic.len()];
    if !slot.is_empty() {
        for (v, c) in condensation.component.iter().enumerate() {
            if let Some(&i) = slot.get(c) {
                all[i].push(v as u32);
            }
        }
    }
    let largest = cyclic
        .iter()
        .zip(all)
        .map(|(&component, all)| {
            let (cycle, shortest_in_component) =
                shortest_cycle_of(graph, &condensation.component, &all, CYCLE_SEARCH_BUDGET);
            // A list that would leave out a single member names it instead ("... (1 more)" hides a
            // name no longer than itself).
            let listed = members.map_or(all.len(), |m| crate::format::listed(all.len(), m));
            CyclicComponent {
                component,
                size: sizes[component as usize],
                members: all[..listed].to_vec(),
                cycle,
                shortest_in_component,
            }
        })
        .collect();
    Cycles { cyclic_components, vertices_in_cycles, largest }
}

/// The cycle `s, ..., s` turned to start at the vertex listed first ([`VertexNames::listing_key`]:
/// the smallest file id, or the first name in the file), and closed on it again.
pub fn from_first_listed(cycle: &[u32], names: &VertexNames) -> Vec<u32> {
    let Some((_, ring)) = cycle.split_last() else { return Vec::new() };
    let start = (0..ring.len()).min_by_key(|&i| names.listing_key(ring[i])).unwrap_or(0);
    let mut turned: Vec<u32> = ring[start..].iter().chain(&ring[..start]).copied().collect();
    turned.extend(turned.first().copied());
    turned
}

/// A shortest cycle of the component whose members (ascending) are `members`, as the path
/// `s, ..., s` from its smallest member `s`, and whether it is a shortest of the whole component:
/// a breadth-first search from each member in turn finds the shortest cycle through it, cut off
/// at the length of the best so far; after the first search, none starts once `budget` edge visits
/// are spent (the answer is then the shortest through the members searched, and says so).
pub fn shortest_cycle_of(graph: &Graph, component: &[u32], members: &[u32], budget: u64) -> (Vec<u32>, bool) {
    let Some(&first) = members.first() else { return (Vec::new(), true) };
    let home = component[first as usize];
    // Per vertex: the search (index into `members`) that reached it last, and its parent there.
    let n = graph.num_vertices();
    let (mut search, mut parent) = (vec![u32::MAX; n], vec![0u32; n]);
    let mut best: Option<Vec<u32>> = None;
    let mut spent = 0u64;
    let mut queue = std::collections::VecDeque::new();
    for (k, &s) in members.iter().enumerate() {
        if k > 0 && spent >= budget {
            return (best.unwrap_or_else(|| vec![first]), false);
        }
        let k = k as u32;
        let limit = best.as_ref().map_or(usize::MAX, |c| c.len() - 1);
        queue.clear();
        queue.push_back((s, 0usize));
        search[s as usize] = k;
        'search: while let Some((x, depth)) = queue.pop_front() {
            // A cycle through x back to s has depth + 1 edges: none shorter than the best is left.
            if depth + 1 >= limit {
                break;
            }
            for &c in graph.children(x) {
                spent += 1;
                if c == s {
                    // s, then the tree path down to x, then back to s.
                    let mut down = vec![x];
                    while *down.last().unwrap_or(&s) != s {
                        let at = *down.last().unwrap_or(&s);
                        down.push(parent[at as usize]);
                    }
                    down.reverse();
                    down.push(s);
                    best = Some(down);
                    break 'search;
                }
                if component[c as usize] == home && search[c as usize] != k {
                    search[c as usize] = k;
                    parent[c as usize] = x;
                    queue.push_back((c, depth + 1));
                }
            }
        }
    }
    (best.unwrap_or_else(|| vec![first]), true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::scc::condense;
    use proptest::prelude::*;
    use std::collections::VecDeque;
    use std::sync::Arc;

    fn cycles(n: usize, edges: &[(u32, u32)], top: usize, members: Option<usize>) -> (Graph, Cycles) {
        let graph = Arc::new(Graph::from_edges(n, edges).unwrap());
        let condensation = condense(&graph);
        let found = largest_cyclic(&graph, &condensation, top, members);
        (Arc::unwrap_or_clone(graph), found)
    }

    #[test]
    fn a_cycle_is_listed_from_its_smallest_file_id() {
        // Vertices 0, 1, 2 are file ids 30, 10, 20 (renumbered by first appearance).
        let names = VertexNames::remapped(vec![30, 10, 20]);
        assert_eq!(from_first_listed(&[0, 1, 2, 0], &names), vec![1, 2, 0, 1]);
        assert_eq!(from_first_listed(&[0, 1, 2, 0], &VertexNames::Dense), vec![0, 1, 2, 0]);
        assert!(from_first_listed(&[], &names).is_empty());
    }

    #[test]
    fn the_example_graph_has_one_triangle() {
        let (_, c) = cycles(7, &[(0, 1), (0, 1), (1, 1), (1, 2), (2, 0), (5, 6)], 10, None);
        assert_eq!((c.cyclic_components, c.vertices_in_cycles), (1, 3));
        assert_eq!(c.largest.len(), 1);
        assert_eq!((c.largest[0].size, &c.largest[0].members), (3, &vec![0, 1, 2]));
        assert_eq!(c.largest[0].cycle, vec![0, 1, 2, 0]);
    }

    #[test]
    fn largest_first_members_cut_and_the_shortest_cycle_chosen() {
        // Component {3, 4}: a 2-cycle. Component {0, 1, 2, 5}: 0 -> 1 -> 2 -> 0 and 0 -> 5 -> 0.
        let edges = [(0, 1), (1, 2), (2, 0), (0, 5), (5, 0), (3, 4), (4, 3), (2, 3)];
        let (_, c) = cycles(6, &edges, 1, Some(2));
        assert_eq!((c.cyclic_components, c.vertices_in_cycles), (2, 6));
        assert_eq!(c.largest.len(), 1);
        assert_eq!((c.largest[0].size, &c.largest[0].members), (4, &vec![0, 1]));
        assert_eq!(c.largest[0].cycle, vec![0, 5, 0]);
        // Three of four would leave one out: all four are listed.
        let (_, c) = cycles(6, &edges, 1, Some(3));
        assert_eq!(c.largest[0].members, vec![0, 1, 2, 5]);
    }

    #[test]
    fn the_shortest_cycle_need_not_pass_the_smallest_member() {
        // 0 -> 1 -> 2 -> 3 -> 4 -> 0 (five edges) and the chord 3 -> 2 (a 2-cycle through 2, 3).
        let (g, c) = cycles(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (3, 2)], 10, None);
        assert_eq!((c.largest[0].cycle.clone(), c.largest[0].shortest_in_component), (vec![2, 3, 2], true));
        // With no budget, only the smallest member is searched from: said so.
        assert_eq!(shortest_cycle_of(&g, &[0; 5], &[0, 1, 2, 3, 4], 0), (vec![0, 1, 2, 3, 4, 0], false));
    }

    #[test]
    fn a_dag_has_none() {
        let (_, c) = cycles(3, &[(0, 1), (1, 2)], 10, None);
        assert_eq!((c.cyclic_components, c.largest), (0, vec![]));
    }

    /// Vertices reachable from `s` (BFS over the whole graph) and their distances.
    fn distances(g: &Graph, s: u32) -> Vec<Option<u32>> {
        let mut d = vec![None; g.num_vertices()];
        d[s as usize] = Some(0);
        let mut q = VecDeque::from([s]);
        while let Some(u) = q.pop_front() {
            for &c in g.children(u) {
                if d[c as usize].is_none() {
                    d[c as usize] = Some(d[u as usize].unwrap() + 1);
                    q.push_back(c);
                }
            }
        }
        d
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn agrees_with_brute_force(n in 1usize..24, raw in prop::collection::vec((0u32..24, 0u32..24), 0..60)) {
            let edges: Vec<(u32, u32)> = raw.into_iter().map(|(a, b)| (a % n as u32, b % n as u32)).collect();
            let (g, c) = cycles(n, &edges, usize::MAX, None);
            let reach: Vec<Vec<Option<u32>>> = (0..n as u32).map(|s| distances(&g, s)).collect();
            // Brute force: u and v share a component iff each reaches the other.
            let mut expected: Vec<Vec<u32>> = Vec::new();
            let mut placed = vec![false; n];
            for u in 0..n {
                if placed[u] {
                    continue;
                }
                let members: Vec<u32> =
                    (u..n).filter(|&v| reach[u][v].is_some() && reach[v][u].is_some()).map(|v| v as u32).collect();
                for &v in &members {
                    placed[v as usize] = true;
                }
                if members.len() > 1 {
                    expected.push(members);
                }
            }
            expected.sort_by_key(|m| (std::cmp::Reverse(m.len()), m[0]));
            prop_assert_eq!(c.cyclic_components, expected.len() as u64);
            prop_assert_eq!(c.vertices_in_cycles, expected.iter().map(|m| m.len() as u64).sum::<u64>());
            let found: Vec<&Vec<u32>> = c.largest.iter().map(|x| &x.members).collect();
            prop_assert_eq!(found, expected.iter().collect::<Vec<_>>());
            for comp in &c.largest {
                let cycle = &comp.cycle;
                let ring = &cycle[..cycle.len() - 1];
                // A closed walk from its smallest vertex, inside the component.
                prop_assert_eq!((cycle[0], *cycle.last().unwrap()), (*ring.iter().min().unwrap(), cycle[0]));
                prop_assert!(ring.iter().all(|v| comp.members.contains(v)), "{:?} leaves the component", cycle);
                for w in cycle.windows(2) {
                    prop_assert!(g.children(w[0]).contains(&w[1]), "{:?} is not a path", cycle);
                }
                // Shortest of the component: over its members m, one more than the distance from m
                // to its nearest parent.
                let through = |m: u32| g.parents(m).iter().filter_map(|&p| reach[m as usize][p as usize]).min();
                let girth = comp.members.iter().filter_map(|&m| through(m)).min().unwrap() + 1;
                prop_assert_eq!(cycle.len() as u32 - 1, girth);
                prop_assert!(comp.shortest_in_component);
            }
        }
    }
}
