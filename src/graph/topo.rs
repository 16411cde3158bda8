//! Topological levels (Kahn): a vertex's level is the longest path to it from a root.

use super::Graph;
use anyhow::{Result, bail};

/// Levels of a DAG's vertices, roots at 0; an error if the graph has a cycle.
/// Also returns the vertices sorted by level (a topological order), which callers reuse.
pub fn levels(graph: &Graph) -> Result<(Vec<u32>, Vec<u32>)> {
    let n = graph.num_vertices();
    // (parents not yet done, level so far) side by side: one cache miss per edge, not two.
    let mut state: Vec<[u32; 2]> = (0..n as u32).map(|v| [graph.parents_csr().degree(v) as u32, 0]).collect();
    let mut order: Vec<u32> = Vec::with_capacity(n);
    order.extend((0..n as u32).filter(|&v| state[v as usize][0] == 0));
    let mut head = 0;
    while head < order.len() {
        let v = order[head];
        head += 1;
        let next = state[v as usize][1] + 1;
        for &c in graph.children(v) {
            let s = &mut state[c as usize];
            s[1] = s[1].max(next);
            s[0] -= 1;
            if s[0] == 0 {
                order.push(c);
            }
        }
    }
    if order.len() != n {
        bail!("the graph has a cycle ({} of {n} vertices lie on or below one); condense it first", n - order.len());
    }
    Ok((state.into_iter().map(|[_, level]| level).collect(), order))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_path_levels() {
        // 0 -> 1 -> 2 and 0 -> 2: level of 2 is 2, not 1.
        let g = Graph::from_edges(4, &[(0, 1), (1, 2), (0, 2)]).unwrap();
        let (level, order) = levels(&g).unwrap();
        assert_eq!(level, vec![0, 1, 2, 0]);
        assert_eq!(order.len(), 4);
    }

    #[test]
    fn cycle_is_an_error() {
        let g = Graph::from_edges(2, &[(0, 1), (1, 0)]).unwrap();
        assert!(levels(&g).is_err());
    }
}
