//! Where a graph's cycles are: its largest strongly connected components (those of two or more
//! vertices), their members, and one shortest cycle through each component's smallest member.

use super::Graph;
use super::scc::Condensation;
use super::vertex_path::shortest_path_to;
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
    /// A shortest cycle through its smallest member, as the path `s, ..., s` (dense ids).
    pub cycle: Vec<u32>,
}

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
/// `members` vertices (`None`: all) and one shortest cycle, found by a breadth-first search inside
/// the component from its smallest member back to itself.
pub fn largest_cyclic(graph: &Graph, condensation: &Condensation, top: usize, members: Option<usize>) -> Cycles {
    let sizes = &condensation.sizes;
    let mut cyclic: Vec<u32> = (0..sizes.len() as u32).filter(|&c| sizes[c as usize] > 1).collect();
    let vertices_in_cycles = cyclic.iter().map(|&c| u64::from(sizes[c as usize])).sum();
    let cyclic_components = cyclic.len() as u64;
    cyclic.sort_unstable_by_key(|&c| (std::cmp::Reverse(sizes[c as usize]), c));
    cyclic.truncate(top);
    let slot: HashMap<u32, usize> = cyclic.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); cyclic.len()];
    let mut smallest = vec![u32::MAX; cyclic.len()];
    if !slot.is_empty() {
        for (v, c) in condensation.component.iter().enumerate() {
            if let Some(&i) = slot.get(c) {
                smallest[i] = smallest[i].min(v as u32);
                if members.is_none_or(|m| lists[i].len() < m) {
                    lists[i].push(v as u32);
                }
            }
        }
    }
    let largest = cyclic
        .iter()
        .zip(lists)
        .zip(smallest)
        .map(|((&component, members), start)| CyclicComponent {
            component,
            size: sizes[component as usize],
            members,
            cycle: shortest_cycle(graph, &condensation.component, start),
        })
        .collect();
    Cycles { cyclic_components, vertices_in_cycles, largest }
}

/// A shortest cycle through `start`, inside its component: `start, ..., start`, or just `[start]`
/// when no cycle passes through it.
pub fn shortest_cycle(graph: &Graph, component: &[u32], start: u32) -> Vec<u32> {
    let home = component[start as usize];
    let back_to_start = |u: u32| graph.children(u).binary_search(&start).is_ok();
    match shortest_path_to(graph, start, |c| component[c as usize] == home, back_to_start) {
        Some(mut path) => {
            path.push(start);
            path
        }
        None => vec![start],
    }
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
                let s = comp.members[0];
                let cycle = &comp.cycle;
                prop_assert_eq!((cycle[0], *cycle.last().unwrap()), (s, s));
                for w in cycle.windows(2) {
                    prop_assert!(g.children(w[0]).contains(&w[1]), "{:?} is not a path", cycle);
                }
                // Shortest: one more than the distance from s to the nearest parent of s.
                let best = g.parents(s).iter().filter_map(|&p| reach[s as usize][p as usize]).min().unwrap() + 1;
                prop_assert_eq!(cycle.len() as u32 - 1, best);
            }
        }
    }
}
