//! Parallel BFS with direction optimisation (Beamer, Asanović and Patterson): a level is expanded
//! top-down (each frontier vertex claims its unvisited children) while the frontier's edges are few,
//! and bottom-up (each unvisited vertex looks for a parent in the frontier, stopping at the first)
//! once they outnumber a fraction of the edges left. Both ways give the same levels: a vertex's
//! level is its distance from the source, whoever discovers it.

use crate::graph::Graph;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicU32, Ordering};

/// The level of a vertex the source does not reach.
pub const UNREACHED: u32 = u32::MAX;

/// Go bottom-up when the frontier's out-edges exceed the unexplored edges divided by this (Beamer's α).
const ALPHA: u64 = 14;
/// Go back top-down when the frontier holds fewer than n / this vertices (Beamer's β).
const BETA: u64 = 24;

/// How a level was expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// The frontier's vertices scan their children.
    TopDown,
    /// Unreached vertices look for a parent in the frontier.
    BottomUp,
    /// On the GPU: how the engine's kernels expand (its name says which).
    Device,
}

impl Direction {
    /// How a table names it.
    pub fn name(self) -> &'static str {
        match self {
            Direction::TopDown => "top-down",
            Direction::BottomUp => "bottom-up",
            Direction::Device => "on the device",
        }
    }
}

/// A BFS's result: the distance of every vertex from the source, and the frontier per level.
#[derive(Clone, Debug)]
pub struct BfsResult {
    /// Level of each vertex (0 for the source), [`UNREACHED`] where the source does not reach.
    pub levels: Vec<u32>,
    /// How each level was expanded (one entry per level that had a frontier).
    pub directions: Vec<Direction>,
}

impl BfsResult {
    /// Vertices reached, the source included.
    pub fn reached(&self) -> u64 {
        reached(&self.levels)
    }

    /// Vertices per level, level 0 (the source) first.
    pub fn frontier_sizes(&self) -> Vec<u64> {
        frontier_sizes(&self.levels)
    }

    /// A shortest path from the source to `dst` (both included), or None when it is unreached:
    /// walked back from `dst` through parents one level closer each time.
    pub fn path(&self, graph: &Graph, dst: u32) -> Option<Vec<u32>> {
        let mut level = *self.levels.get(dst as usize)?;
        if level == UNREACHED {
            return None;
        }
        let mut path = vec![dst];
        let mut x = dst;
        while level > 0 {
            x = *graph.parents(x).iter().find(|&&p| self.levels[p as usize] == level - 1)?;
            path.push(x);
            level -= 1;
        }
        path.reverse();
        Some(path)
    }
}

/// Vertices reached in a level array, the source included (in parallel: it is counted for every
/// source of a batch).
pub fn reached(levels: &[u32]) -> u64 {
    levels.par_iter().filter(|&&l| l != UNREACHED).count() as u64
}

/// Vertices per level of a level array.
pub fn frontier_sizes(levels: &[u32]) -> Vec<u64> {
    let mut sizes: Vec<u64> = Vec::new();
    for &l in levels.iter().filter(|&&l| l != UNREACHED) {
        if sizes.len() <= l as usize {
            sizes.resize(l as usize + 1, 0);
        }
        sizes[l as usize] += 1;
    }
    sizes
}

/// BFS from `src` on the current rayon pool; `optimise` allows the bottom-up steps.
pub fn bfs(graph: &Graph, src: u32, optimise: bool) -> BfsResult {
    let n = graph.num_vertices();
    let levels: Vec<AtomicU32> = (0..n).into_par_iter().map(|_| AtomicU32::new(UNREACHED)).collect();
    levels[src as usize].store(0, Ordering::Relaxed);
    let mut frontier = vec![src];
    let mut directions = Vec::new();
    let mut unexplored = graph.num_edges() as u64;
    let mut bottom_up = false;
    let mut level = 0u32;
    while !frontier.is_empty() {
        let frontier_edges: u64 = frontier.par_iter().map(|&v| graph.children(v).len() as u64).sum();
        if optimise {
            bottom_up =
                if bottom_up { frontier.len() as u64 >= n as u64 / BETA } else { frontier_edges > unexplored / ALPHA };
        }
        unexplored = unexplored.saturating_sub(frontier_edges);
        frontier = if bottom_up {
            bottom_up_step(graph, &levels, level)
        } else {
            top_down_step(graph, &levels, &frontier, level)
        };
        directions.push(if bottom_up { Direction::BottomUp } else { Direction::TopDown });
        level += 1;
    }
    BfsResult { levels: levels.into_iter().map(AtomicU32::into_inner).collect(), directions }
}

/// Each frontier vertex claims its unvisited children (a compare-and-swap decides ties).
fn top_down_step(graph: &Graph, levels: &[AtomicU32], frontier: &[u32], level: u32) -> Vec<u32> {
    frontier
        .par_iter()
        .fold(Vec::new, |mut next, &v| {
            for &c in graph.children(v) {
                let slot = &levels[c as usize];
                if slot.load(Ordering::Relaxed) == UNREACHED
                    && slot.compare_exchange(UNREACHED, level + 1, Ordering::Relaxed, Ordering::Relaxed).is_ok()
                {
                    next.push(c);
                }
            }
            next
        })
        .reduce(Vec::new, |mut a, mut b| {
            a.append(&mut b);
            a
        })
}

/// Each unvisited vertex looks for a parent on the frontier (level `level`); only it writes its
/// own level, and a vertex set to `level + 1` meanwhile was unvisited, never on the frontier.
fn bottom_up_step(graph: &Graph, levels: &[AtomicU32], level: u32) -> Vec<u32> {
    (0..graph.num_vertices() as u32)
        .into_par_iter()
        .filter(|&v| {
            levels[v as usize].load(Ordering::Relaxed) == UNREACHED
                && graph.parents(v).iter().any(|&p| levels[p as usize].load(Ordering::Relaxed) == level)
        })
        .map(|v| {
            levels[v as usize].store(level + 1, Ordering::Relaxed);
            v
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::generators::{random_dag, random_digraph};
    use crate::query::oracle::reachable_bfs;

    #[test]
    fn levels_are_distances_either_way() {
        let g = Graph::from_edges(6, &[(0, 1), (1, 2), (0, 2), (2, 3), (3, 0), (4, 5)]).unwrap();
        for optimise in [false, true] {
            let r = bfs(&g, 0, optimise);
            assert_eq!(r.levels, vec![0, 1, 1, 2, UNREACHED, UNREACHED]);
            assert_eq!(r.reached(), 4);
            assert_eq!(r.frontier_sizes(), vec![1, 2, 1]);
            assert_eq!(r.path(&g, 3), Some(vec![0, 2, 3]));
            assert_eq!(r.path(&g, 5), None);
        }
    }

    #[test]
    fn both_directions_agree_with_the_oracle() {
        for seed in 0..6 {
            let graphs = [random_digraph(300, 3.0, seed).unwrap(), random_dag(300, 8.0, seed).unwrap()];
            for g in graphs {
                let src = (seed * 37 % 300) as u32;
                let top = bfs(&g, src, false);
                let opt = bfs(&g, src, true);
                assert_eq!(top.levels, opt.levels);
                for v in 0..300u32 {
                    assert_eq!(top.levels[v as usize] != UNREACHED, reachable_bfs(&g, src, v), "seed {seed} v {v}");
                }
                let far = (0..300u32).max_by_key(|&v| top.levels[v as usize].wrapping_add(1)).unwrap();
                let path = opt.path(&g, far).unwrap();
                assert_eq!(path.len() as u32, top.levels[far as usize] + 1);
                assert!(path.windows(2).all(|e| g.children(e[0]).contains(&e[1])));
            }
        }
    }
}
