//! What holds `u` and `v` together: the vertices and the edges that every path from `u` to `v`
//! crosses (cut one and `v` is out of `u`'s reach).
//!
//! They are the dominators of `v` from `u`, found in the pair's subgraph: the vertices both reached
//! from `u` and reaching `v`, with every edge among them, each edge split by a midpoint node so
//! that an edge that every path crosses is a dominator too. Dominators by Cooper, Harvey and
//! Kennedy's iteration over a reverse post-order ("A Simple, Fast Dominance Algorithm"), which
//! needs no acyclic graph: cycles are fine. A vertex on every walk from `u` to `v` is on every
//! simple path and the other way round, so the answer does not depend on which paths are meant.

use super::Graph;
use std::collections::HashMap;

/// The vertices and the edges on every path from `u` to `v`, in path order from `u` (which, with
/// `v`, is among the vertices).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EveryPath {
    /// The vertices every path visits, `u` first and `v` last.
    pub vertices: Vec<u32>,
    /// The edges every path crosses, in the order a path crosses them.
    pub edges: Vec<(u32, u32)>,
    /// Vertices of the pair's subgraph (reached from `u` and reaching `v`).
    pub subgraph_vertices: usize,
    /// Edges of the pair's subgraph.
    pub subgraph_edges: usize,
}

/// What every path from `u` to `v` crosses; `None` when `u` does not reach `v`.
pub fn every_path(graph: &Graph, u: u32, v: u32) -> Option<EveryPath> {
    let ahead = reach(graph, u, true);
    if !ahead.contains_key(&v) {
        return None;
    }
    let behind = reach(graph, v, false);
    // The pair's subgraph, local ids in the order the forward search met them (u is 0).
    let mut members: Vec<u32> = ahead.keys().copied().filter(|w| behind.contains_key(w)).collect();
    members.sort_unstable_by_key(|w| ahead[w]);
    let local: HashMap<u32, u32> = members.iter().enumerate().map(|(i, &w)| (w, i as u32)).collect();
    // Nodes: the members, then one midpoint per edge (node `members.len() + e` for edge `e`).
    let mut edges = Vec::new();
    for &a in &members {
        for &b in graph.children(a) {
            if local.contains_key(&b) {
                edges.push((a, b));
            }
        }
    }
    if u == v {
        // The empty path: nothing between them, whatever cycles pass through `u`.
        let (subgraph_vertices, subgraph_edges) = (members.len(), edges.len());
        return Some(EveryPath { vertices: vec![u], edges: Vec::new(), subgraph_vertices, subgraph_edges });
    }
    let nodes = members.len() + edges.len();
    let mut succ: Vec<Vec<u32>> = vec![Vec::new(); nodes];
    let mut pred: Vec<Vec<u32>> = vec![Vec::new(); nodes];
    for (e, &(a, b)) in edges.iter().enumerate() {
        let (a, b, mid) = (local[&a], local[&b], (members.len() + e) as u32);
        succ[a as usize].push(mid);
        succ[mid as usize].push(b);
        pred[mid as usize].push(a);
        pred[b as usize].push(mid);
    }
    let idom = dominators(&succ, &pred, 0);
    let mut chain = Vec::new();
    let mut at = local[&v];
    loop {
        chain.push(at);
        if at == 0 {
            break;
        }
        at = idom[at as usize];
    }
    chain.reverse();
    let (mut vertices, mut crossed) = (Vec::new(), Vec::new());
    for node in chain {
        match (node as usize).checked_sub(members.len()) {
            None => vertices.push(members[node as usize]),
            Some(e) => crossed.push(edges[e]),
        }
    }
    Some(EveryPath { vertices, edges: crossed, subgraph_vertices: members.len(), subgraph_edges: edges.len() })
}

/// Vertices reached from `start` along children (`forward`) or parents, each with the order the
/// search met it in.
fn reach(graph: &Graph, start: u32, forward: bool) -> HashMap<u32, u32> {
    let mut met = HashMap::from([(start, 0u32)]);
    let mut queue = vec![start];
    let mut at = 0;
    while at < queue.len() {
        let x = queue[at];
        at += 1;
        let next = if forward { graph.children(x) } else { graph.parents(x) };
        for &w in next {
            let order = met.len() as u32;
            met.entry(w).or_insert_with(|| {
                queue.push(w);
                order
            });
        }
    }
    met
}

/// Immediate dominators from `root` (every node reachable from it): Cooper, Harvey and Kennedy.
/// The root's is itself.
fn dominators(succ: &[Vec<u32>], pred: &[Vec<u32>], root: u32) -> Vec<u32> {
    let n = succ.len();
    // Post-order numbers by an explicit-stack DFS.
    let mut post = vec![u32::MAX; n];
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack = vec![(root, 0usize)];
    seen[root as usize] = true;
    while let Some((x, next)) = stack.last_mut() {
        if let Some(&w) = succ[*x as usize].get(*next) {
            *next += 1;
            if !seen[w as usize] {
                seen[w as usize] = true;
                stack.push((w, 0));
            }
        } else {
            post[*x as usize] = order.len() as u32;
            order.push(*x);
            stack.pop();
        }
    }
    const NONE: u32 = u32::MAX;
    let mut idom = vec![NONE; n];
    idom[root as usize] = root;
    let intersect = |idom: &[u32], mut a: u32, mut b: u32| {
        while a != b {
            while post[a as usize] < post[b as usize] {
                a = idom[a as usize];
            }
            while post[b as usize] < post[a as usize] {
                b = idom[b as usize];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &x in order.iter().rev().filter(|&&x| x != root) {
            let mut new = NONE;
            for &p in &pred[x as usize] {
                if idom[p as usize] != NONE {
                    new = if new == NONE { p } else { intersect(&idom, p, new) };
                }
            }
            if new != idom[x as usize] {
                idom[x as usize] = new;
                changed = true;
            }
        }
    }
    idom
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::generators::{random_dag, random_digraph};
    use crate::query::oracle::reachable_bfs;

    /// Brute force: a vertex (an edge) is on every path when the graph without it has no path.
    fn brute(graph: &Graph, u: u32, v: u32) -> (Vec<u32>, Vec<(u32, u32)>) {
        let n = graph.num_vertices();
        let all: Vec<(u32, u32)> = graph.edges().collect();
        let without = |keep: &dyn Fn(u32, u32) -> bool| {
            let kept: Vec<(u32, u32)> = all.iter().copied().filter(|&(a, b)| keep(a, b)).collect();
            !reachable_bfs(&Graph::from_edges(n, &kept).unwrap(), u, v)
        };
        let vertices =
            (0..n as u32).filter(|&x| x == u || x == v || without(&|a, b| a != x && b != x)).collect::<Vec<_>>();
        let edges = all.iter().copied().filter(|&(a, b)| without(&|c, d| (c, d) != (a, b))).collect::<Vec<_>>();
        (vertices, edges)
    }

    #[test]
    fn matches_brute_force_on_generated_graphs() {
        for seed in 0..40 {
            let n = 6 + (seed as usize % 10);
            let graph = if seed % 2 == 0 { random_dag(n, 1.6, seed) } else { random_digraph(n, 1.6, seed) }.unwrap();
            for u in 0..n as u32 {
                for v in 0..n as u32 {
                    let found = every_path(&graph, u, v);
                    assert_eq!(found.is_some(), reachable_bfs(&graph, u, v), "seed {seed}: {u} → {v}");
                    let Some(found) = found else { continue };
                    let (mut vertices, mut edges) = (found.vertices.clone(), found.edges.clone());
                    assert_eq!((vertices.first(), vertices.last()), (Some(&u), Some(&v)));
                    vertices.sort_unstable();
                    edges.sort_unstable();
                    let (want_vertices, want_edges) = brute(&graph, u, v);
                    let want_vertices = if u == v { vec![u] } else { want_vertices };
                    assert_eq!((vertices, edges), (want_vertices, want_edges), "seed {seed}: {u} → {v}");
                }
            }
        }
    }

    #[test]
    fn a_diamond_holds_only_its_ends_and_a_bridge_holds_its_edge() {
        // 0 → {1, 2} → 3 → 4: every path from 0 to 4 visits 0, 3, 4 and crosses 3 → 4.
        let graph = Graph::from_edges(5, &[(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)]).unwrap();
        let found = every_path(&graph, 0, 4).unwrap();
        assert_eq!((found.vertices, found.edges), (vec![0, 3, 4], vec![(3, 4)]));
        assert_eq!((found.subgraph_vertices, found.subgraph_edges), (5, 5));
        assert_eq!(every_path(&graph, 4, 0), None);
    }
}
