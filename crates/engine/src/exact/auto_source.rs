//! A source worth searching from when the user names none (`grail bfs graph auto`): a benchmark
//! wants a BFS that reaches much of the graph, and the busiest vertex is not always the one that
//! reaches the most, nor is the top of the longest path.

use super::bfs::bfs;
use super::heights::HeightOrder;
use crate::Result;
use crate::workspace::Workspace;
use std::cmp::Reverse;

/// Candidates of each kind [`auto_source`] tries.
pub const AUTO_CANDIDATES: usize = 8;

/// Of the [`AUTO_CANDIDATES`] vertices with the most out-edges and as many at the top of the
/// longest paths (greatest height in the condensation), the dense vertex whose BFS (CPU) reaches
/// the most; ties to the smaller id, and 0 for an empty graph.
pub fn auto_source(ws: &Workspace) -> Result<u32> {
    let graph = &ws.loaded.graph;
    let top = |mut all: Vec<u32>, key: &dyn Fn(u32) -> usize| {
        let count = AUTO_CANDIDATES.min(all.len());
        if count > 0 {
            all.select_nth_unstable_by_key(count - 1, |&v| (Reverse(key(v)), v));
        }
        all.truncate(count);
        all
    };
    let mut candidates = top((0..graph.num_vertices() as u32).collect(), &|v| graph.children(v).len());
    let heights = HeightOrder::new(ws.dag())?;
    let representative = ws.condensation.representatives();
    candidates.extend(heights.order.iter().rev().take(AUTO_CANDIDATES).map(|&c| representative[c as usize]));
    Ok(candidates
        .into_iter()
        .map(|v| (bfs(graph, v, true).reached(), v))
        .max_by_key(|&(reached, v)| (reached, Reverse(v)))
        .map_or(0, |(_, v)| v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;

    #[test]
    fn the_source_that_reaches_the_most_wins() {
        // 0 has the most out-edges but reaches three vertices; 5 heads a chain through all of 6..12.
        let mut edges = vec![(0, 1), (0, 2), (0, 3)];
        edges.extend((5..12).map(|v| (v, v + 1)));
        let ws = Workspace::of_graph(Graph::from_edges(13, &edges).unwrap(), "test");
        assert_eq!(auto_source(&ws).unwrap(), 5);
        let empty = Workspace::of_graph(Graph::from_edges(0, &[]).unwrap(), "empty");
        assert_eq!(auto_source(&empty).unwrap(), 0);
    }
}
