//! Schedules for a pass over a DAG children first, in groups whose vertices are independent: each
//! group's vertices have all their children in earlier groups, so a group is handled in parallel.
//! The bit-parallel closure's schedule on the CPU and the GPU. Two groupings: by height (longest
//! path to a sink, sinks first), and by depth (Kahn level, longest path from a root, deepest first),
//! which needs no pass over the edges because condensing already found the levels.

use crate::Result;
use crate::graph::Graph;

/// The vertices grouped by height, sinks (height 0) first: `order[offsets[h]..offsets[h + 1]]`.
#[derive(Clone, Debug)]
pub struct HeightOrder {
    /// Every vertex once, by increasing height.
    pub order: Vec<u32>,
    /// Where each height's group starts in `order`, plus the end: one more than the groups.
    pub offsets: Vec<usize>,
}

impl HeightOrder {
    /// Grouped by depth, deepest first: a child's level exceeds its parent's. From the graph's
    /// memoized Kahn levels (a counting sort of the vertices), so the closure does not spend a pass
    /// over the edges on its schedule. Fails on a graph with a cycle (condense it first).
    pub fn by_depth(dag: &Graph) -> Result<HeightOrder> {
        let (level, _) = crate::graph::topo::levels(dag)?;
        let deepest = level.iter().copied().max().unwrap_or(0);
        Ok(HeightOrder::group(level.iter().map(|&l| deepest - l)))
    }

    /// Grouped by height, sinks first. Fails on a graph with a cycle (condense it first).
    pub fn new(dag: &Graph) -> Result<HeightOrder> {
        Ok(HeightOrder::group(crate::graph::topo::heights(dag)?.into_iter()))
    }

    /// The vertices grouped by `group[v]` (a counting sort; ids ascending within a group).
    fn group(group: impl ExactSizeIterator<Item = u32> + Clone) -> HeightOrder {
        let n = group.len();
        let top = group.clone().max().map_or(0, |h| h as usize + 1);
        let mut offsets = vec![0usize; top + 1];
        for h in group.clone() {
            offsets[h as usize + 1] += 1;
        }
        for h in 0..top {
            offsets[h + 1] += offsets[h];
        }
        let mut next = offsets.clone();
        let mut order = vec![0u32; n];
        for (v, h) in group.enumerate() {
            order[next[h as usize]] = v as u32;
            next[h as usize] += 1;
        }
        HeightOrder { order, offsets }
    }

    /// Number of groups.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether there are no groups (an empty graph).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The vertices of group `h`.
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
        // By depth: 0 and 3 are roots (level 0), 1 is at level 1, 2 at level 2, 4 (isolated) at 0.
        let d = HeightOrder::by_depth(&g).unwrap();
        assert_eq!((d.height(0), d.height(1), d.height(2)), (&[2][..], &[1][..], &[0, 3, 4][..]));
    }

    /// Either grouping is a schedule: every child sits in an earlier group than its parent.
    #[test]
    fn both_groupings_put_children_first() {
        let g = crate::graph::generators::random_dag(2000, 3.0, 4).unwrap();
        for order in [HeightOrder::new(&g).unwrap(), HeightOrder::by_depth(&g).unwrap()] {
            let mut group = vec![0; g.num_vertices()];
            for h in 0..order.len() {
                order.height(h).iter().for_each(|&v| group[v as usize] = h);
            }
            for v in 0..g.num_vertices() as u32 {
                assert!(g.children(v).iter().all(|&c| group[c as usize] < group[v as usize]), "{v}");
            }
        }
    }
}
