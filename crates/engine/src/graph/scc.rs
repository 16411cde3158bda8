//! Strongly connected components and the condensation DAG.
//!
//! Tarjan's algorithm written with an explicit stack: graphs can be millions of levels deep, so no
//! recursion. Components are numbered by their smallest vertex, ascending, which makes the
//! condensation of a DAG the identity (labels on a DAG then speak of the file's own vertices).

use super::{Graph, topo};
use rayon::prelude::*;
use std::sync::Arc;

/// A graph's components and the DAG between them.
#[derive(Clone, Debug)]
pub struct Condensation {
    /// The condensed DAG on component ids. Shares the input graph when it was already a DAG.
    pub dag: Arc<Graph>,
    /// Component of each original vertex.
    pub component: Vec<u32>,
    /// Number of original vertices in each component.
    pub sizes: Vec<u32>,
    /// The topological level of each component in the DAG (longest path from a root): found on
    /// the way, because checking that a graph is a DAG is computing them.
    pub levels: Vec<u32>,
}

impl Condensation {
    /// Strongly connected components: the vertices of the DAG.
    pub fn num_components(&self) -> usize {
        self.sizes.len()
    }

    /// True when every component is one vertex (the input was a DAG).
    pub fn is_identity(&self) -> bool {
        self.sizes.len() == self.component.len()
    }

    /// The size of the largest component (0 for an empty graph).
    pub fn largest(&self) -> u32 {
        self.sizes.iter().copied().max().unwrap_or(0)
    }

    /// For each component, its smallest original vertex (the first one met in vertex order).
    pub fn representatives(&self) -> Vec<u32> {
        let mut rep = vec![u32::MAX; self.num_components()];
        for (v, &c) in self.component.iter().enumerate() {
            rep[c as usize] = rep[c as usize].min(v as u32);
        }
        rep
    }
}

const UNVISITED: u32 = u32::MAX;

/// Condenses `graph`: one vertex per strongly connected component. A DAG (the common case for
/// benchmark graphs) is recognised by Kahn's algorithm, cheaper than Tarjan's and yielding the
/// levels; only a graph with a cycle pays for Tarjan.
pub fn condense(graph: &Arc<Graph>) -> Condensation {
    let n = graph.num_vertices();
    if let Ok(kahn) = topo::kahn(graph) {
        let levels = kahn.level.to_vec();
        // Every component is a single vertex; numbering by smallest member is the identity.
        let component = (0..n as u32).into_par_iter().collect();
        return Condensation { dag: Arc::clone(graph), component, sizes: vec![1; n], levels };
    }
    let (raw, count) = tarjan(graph);
    // Renumber components by their smallest member.
    let mut smallest = vec![u32::MAX; count];
    for (v, &c) in raw.iter().enumerate() {
        smallest[c as usize] = smallest[c as usize].min(v as u32);
    }
    let mut by_smallest: Vec<u32> = (0..count as u32).collect();
    by_smallest.sort_unstable_by_key(|&c| smallest[c as usize]);
    let mut renumber = vec![0u32; count];
    for (new, &old) in by_smallest.iter().enumerate() {
        renumber[old as usize] = new as u32;
    }
    let component: Vec<u32> = raw.iter().map(|&c| renumber[c as usize]).collect();
    let mut sizes = vec![0u32; count];
    for &c in &component {
        sizes[c as usize] += 1;
    }
    let edges: Vec<(u32, u32)> =
        graph.edges().map(|(u, v)| (component[u as usize], component[v as usize])).filter(|(a, b)| a != b).collect();
    let dag = Graph::from_edges(count, &edges).expect("component ids are in range by construction");
    drop(edges);
    let levels = topo::kahn(&dag).expect("a condensation is acyclic by construction").level.to_vec();
    Condensation { dag: Arc::new(dag), component, sizes, levels }
}

/// Iterative Tarjan. Returns a component id per vertex (in completion order) and the count.
fn tarjan(graph: &Graph) -> (Vec<u32>, usize) {
    let n = graph.num_vertices();
    let mut index = vec![UNVISITED; n];
    let mut low = vec![0u32; n];
    let mut component = vec![UNVISITED; n];
    let mut stack: Vec<u32> = Vec::new();
    // (vertex, position of the next child to look at)
    let mut calls: Vec<(u32, u32)> = Vec::new();
    let mut next_index = 0u32;
    let mut count = 0u32;
    for start in 0..n as u32 {
        if index[start as usize] != UNVISITED {
            continue;
        }
        index[start as usize] = next_index;
        low[start as usize] = next_index;
        next_index += 1;
        stack.push(start);
        calls.push((start, 0));
        while let Some(&mut (v, ref mut next)) = calls.last_mut() {
            let children = graph.children(v);
            if let Some(&w) = children.get(*next as usize) {
                *next += 1;
                let wi = w as usize;
                if index[wi] == UNVISITED {
                    index[wi] = next_index;
                    low[wi] = next_index;
                    next_index += 1;
                    stack.push(w);
                    calls.push((w, 0));
                } else if component[wi] == UNVISITED {
                    // w is still on the Tarjan stack.
                    low[v as usize] = low[v as usize].min(index[wi]);
                }
                continue;
            }
            calls.pop();
            let vi = v as usize;
            if let Some(&(parent, _)) = calls.last() {
                low[parent as usize] = low[parent as usize].min(low[vi]);
            }
            if low[vi] == index[vi] {
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    component[w as usize] = count;
                    if w == v {
                        break;
                    }
                }
                count += 1;
            }
        }
    }
    (component, count as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_cycles_and_a_tail() {
        // 0 <-> 1 -> 2 <-> 3 -> 4
        let g = Arc::new(Graph::from_edges(5, &[(0, 1), (1, 0), (1, 2), (2, 3), (3, 2), (3, 4)]).unwrap());
        let c = condense(&g);
        assert_eq!(c.component, vec![0, 0, 1, 1, 2]);
        assert_eq!(c.sizes, vec![2, 2, 1]);
        assert_eq!(c.dag.children(0), &[1]);
        assert_eq!(c.dag.children(1), &[2]);
        assert!(!c.is_identity());
    }

    #[test]
    fn dag_is_identity_and_shared() {
        let g = Arc::new(Graph::from_edges(3, &[(2, 0), (0, 1)]).unwrap());
        let c = condense(&g);
        assert!(c.is_identity());
        assert!(Arc::ptr_eq(&c.dag, &g));
    }

    #[test]
    fn ten_million_vertex_cycle_does_not_overflow() {
        let n = 10_000_000u32;
        let edges: Vec<(u32, u32)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
        let g = Arc::new(Graph::from_edges(n as usize, &edges).unwrap());
        let c = condense(&g);
        assert_eq!(c.num_components(), 1);
        assert_eq!(c.largest(), n);
    }
}
