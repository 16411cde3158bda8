//! Heights of a DAG: a vertex's longest path to a sink. Vertices of one height have all their
//! children at smaller heights, so a pass height by height (sinks first) can handle each height's
//! vertices in parallel: the bit-parallel closure's schedule on the CPU and the GPU.

use crate::graph::Graph;
use anyhow::Result;

/// The vertices grouped by height, sinks (height 0) first: `order[offsets[h]..offsets[h + 1]]`.
#[derive(Clone, Debug)]
pub struct HeightOrder {
    pub order: Vec<u32>,
    pub offsets: Vec<usize>,
}

impl HeightOrder {
    /// Fails on a graph with a cycle (condense it first).
    pub fn new(dag: &Graph) -> Result<HeightOrder> {
        let n = dag.num_vertices();
        let (_, topo) = crate::graph::topo::levels(dag)?;
        let mut height = vec![0u32; n];
        for &v in topo.iter().rev() {
            height[v as usize] = dag.children(v).iter().map(|&c| height[c as usize] + 1).max().unwrap_or(0);
        }
        let top = height.iter().copied().max().map_or(0, |h| h as usize + 1);
        let mut offsets = vec![0usize; top + 1];
        for &h in &height {
            offsets[h as usize + 1] += 1;
        }
        for h in 0..top {
            offsets[h + 1] += offsets[h];
        }
        let mut next = offsets.clone();
        let mut order = vec![0u32; n];
        for (v, &h) in height.iter().enumerate() {
            order[next[h as usize]] = v as u32;
            next[h as usize] += 1;
        }
        Ok(HeightOrder { order, offsets })
    }

    /// Number of heights.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The vertices of height `h`.
    pub fn height(&self, h: usize) -> &[u32] {
        &self.order[self.offsets[h]..self.offsets[h + 1]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_sit_lower() {
        let g = Graph::from_edges(5, &[(0, 1), (1, 2), (0, 2), (3, 2)]).unwrap();
        let h = HeightOrder::new(&g).unwrap();
        assert_eq!(h.len(), 3);
        assert_eq!(h.height(0), &[2, 4]);
        assert_eq!(h.height(1), &[1, 3]);
        assert_eq!(h.height(2), &[0]);
    }
}
