//! A single path `0 -> 1 -> ... -> n - 1`: the deepest DAG there is (n levels), which breaks
//! recursive DFS and stresses level-synchronous phases.

use super::limits::check_vertices;
use crate::Result;
use crate::graph::{Csr, Graph};

/// The path on `n >= 1` vertices, `n - 1` edges.
pub fn chain(n: usize) -> Result<Graph> {
    check_vertices("chain", n as u64)?;
    // Vertex v's one child is v + 1, except the last vertex, which has none.
    let offsets: Vec<u64> = (0..=n as u64).map(|v| v.min(n as u64 - 1)).collect();
    let targets: Vec<u32> = (1..n as u32).collect();
    Graph::from_children(Csr::from_parts(offsets, targets)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::topo;

    #[test]
    fn one_vertex_per_level() {
        let g = chain(5).unwrap();
        assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 1), (1, 2), (2, 3), (3, 4)]);
        assert_eq!(topo::levels(&g).unwrap().0, vec![0, 1, 2, 3, 4]);
        assert_eq!(chain(1).unwrap().num_edges(), 0);
        assert!(chain(0).is_err());
    }
}
