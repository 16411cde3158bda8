//! A path between two vertices of the graph as loaded, from a path between their components.
//!
//! Searches run on the condensation, so the path they find is one of components. Naming each
//! component by one member would print edges the file does not have (through a cycle, the member
//! that enters a component is rarely the one that leaves it), so front ends show this path instead:
//! the shortest path from `u` to `v` that stays inside the components the search went through.

use super::Graph;
use std::collections::{HashMap, HashSet, VecDeque};

/// The shortest path from `u` to `v` in `graph` whose vertices all lie in the components `through`
/// (`component[x]` is `x`'s component). `through` is a path of the condensation from `u`'s component
/// to `v`'s, so such a path exists; `None` only if it is not one.
pub fn through_components(graph: &Graph, component: &[u32], through: &[u32], u: u32, v: u32) -> Option<Vec<u32>> {
    let allowed: HashSet<u32> = through.iter().copied().collect();
    shortest_path_to(graph, u, |x| allowed.contains(&component[x as usize]), |x| x == v)
}

/// The shortest path from `start` to the first vertex `goal` accepts, breadth first, entering only
/// vertices `allowed` accepts: `start, ..., goal`, or `None` when no such vertex is reached.
pub fn shortest_path_to(
    graph: &Graph,
    start: u32,
    allowed: impl Fn(u32) -> bool,
    goal: impl Fn(u32) -> bool,
) -> Option<Vec<u32>> {
    // Each vertex remembers the one it was reached from.
    let mut from: HashMap<u32, u32> = HashMap::from([(start, start)]);
    let mut queue = VecDeque::from([start]);
    while let Some(x) = queue.pop_front() {
        if goal(x) {
            let mut path = vec![x];
            let mut at = x;
            while at != start {
                at = from[&at];
                path.push(at);
            }
            path.reverse();
            return Some(path);
        }
        for &c in graph.children(x) {
            if allowed(c) && !from.contains_key(&c) {
                from.insert(c, x);
                queue.push_back(c);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::scc::condense;
    use std::sync::Arc;

    #[test]
    fn the_path_goes_through_the_cycle_by_real_edges() {
        // 0 -> 1 -> 2 -> 0 is one component; 3 -> 4 enters it at 1, 2 -> 5 leaves it.
        let g = Arc::new(Graph::from_edges(6, &[(0, 1), (1, 2), (2, 0), (3, 1), (2, 5), (4, 3)]).unwrap());
        let c = condense(&g);
        let comp = &c.component;
        let through = [comp[4], comp[3], comp[1], comp[5]];
        let path = through_components(&g, comp, &through, 4, 5).unwrap();
        assert_eq!(path, vec![4, 3, 1, 2, 5]);
        assert!(path.windows(2).all(|w| g.children(w[0]).contains(&w[1])), "every step is an edge");
        // Inside one component, from a member to another.
        assert_eq!(through_components(&g, comp, &[comp[1]], 1, 0), Some(vec![1, 2, 0]));
        assert_eq!(through_components(&g, comp, &[comp[0]], 0, 0), Some(vec![0]));
        // A component path that does not lead there.
        assert_eq!(through_components(&g, comp, &[comp[3]], 3, 5), None);
    }
}
