//! The DFS tree of one dimension, read back from finished labels, one vertex at a time.
//!
//! Labels keep each vertex's post-order number and subtree size, and a subtree's post numbers are
//! exactly `post(p) - size(p) + 1 ..= post(p)`. The tree parent of `v` is one of its DAG parents,
//! and every tree ancestor of `v` contains `v`'s post number; among the DAG parents that do, the
//! nearest ancestor (the one with the smallest subtree) is the parent. Reading `v`'s parents is
//! enough, so a picture of a few vertices never touches the rest of the graph.

use crate::graph::Graph;
use crate::index::Labels;

/// Parents read at most per vertex: a hub with 1.5M parents (uniprot) is not worth a frame's time.
pub const TREE_SCAN_LIMIT: usize = 1 << 16;

/// What the labels say about `v`'s place in the DFS tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeParent {
    /// `v` is a root of the DFS forest (the virtual root's child).
    Root,
    /// `v`'s parent in the DFS tree.
    Parent(u32),
    /// `v` has more than [`TREE_SCAN_LIMIT`] parents; not derived.
    Unknown {
        /// How many DAG parents `v` has.
        parents: usize,
    },
}

/// `v`'s parent in dimension `dim`'s DFS tree.
pub fn tree_parent(dag: &Graph, labels: &Labels, dim: usize, v: u32) -> TreeParent {
    let parents = dag.parents(v).len();
    if parents > TREE_SCAN_LIMIT {
        return TreeParent::Unknown { parents };
    }
    let d = labels.dimension(dim);
    crate::index::labeler::tree_parent(dag, &d.post, &d.subtree, v).map_or(TreeParent::Root, TreeParent::Parent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::generators::GeneratorSpec;
    use crate::index::order::DimensionOrder;
    use crate::index::{Order, dfs};

    /// The classic DFS written plainly, recording who discovered whom.
    fn reference_parents(dag: &Graph, order: Order, dim: usize) -> Vec<Option<u32>> {
        let ordered = DimensionOrder::new(dag, order, dim);
        let mut parent = vec![None; dag.num_vertices()];
        let mut seen = vec![false; dag.num_vertices()];
        for &root in ordered.roots() {
            if seen[root as usize] {
                continue;
            }
            seen[root as usize] = true;
            let mut stack = vec![(root, 0usize)];
            while let Some((x, next)) = stack.last_mut() {
                let x = *x;
                match ordered.children(dag, x).get(*next) {
                    Some(&c) => {
                        *next += 1;
                        if !seen[c as usize] {
                            seen[c as usize] = true;
                            parent[c as usize] = Some(x);
                            stack.push((c, 0));
                        }
                    }
                    None => {
                        stack.pop();
                    }
                }
            }
        }
        parent
    }

    fn check(spec: &str, dims: usize, order: Order) {
        let dag = spec.parse::<GeneratorSpec>().unwrap().generate().unwrap();
        let labels = dfs::label(&dag, dims, order).unwrap();
        let mut tree_edges = 0;
        for dim in 0..dims {
            let want = reference_parents(&dag, order, dim);
            for v in 0..dag.num_vertices() as u32 {
                let got = match tree_parent(&dag, &labels, dim, v) {
                    TreeParent::Root => None,
                    TreeParent::Parent(p) => Some(p),
                    TreeParent::Unknown { .. } => panic!("small graphs are always derived"),
                };
                assert_eq!(got, want[v as usize], "{spec}, dimension {dim}, vertex {v}");
                tree_edges += usize::from(got.is_some());
            }
        }
        assert!(tree_edges > 0, "{spec}: the test saw no tree edge");
    }

    #[test]
    fn derived_tree_is_the_dfs_tree() {
        for seed in 1..=4 {
            check(&format!("random:n=400,deg=3,seed={seed}"), 3, Order::Random { seed });
        }
        check("random:n=300,deg=6,seed=9", 2, Order::Lex);
        check("scalefree:n=500,m=3,seed=2", 2, Order::Random { seed: 5 });
        check("ladder:k=12", 2, Order::Random { seed: 1 });
        check("fan:width=200,layers=3,seed=1", 2, Order::Random { seed: 1 });
    }

    #[test]
    fn huge_in_degree_is_left_unknown() {
        let width = TREE_SCAN_LIMIT + 5;
        let dag = GeneratorSpec::Fan { width, layers: 1, seed: 1 }.generate().unwrap();
        let labels = dfs::label(&dag, 1, Order::Lex).unwrap();
        let hub = (0..dag.num_vertices() as u32).find(|&v| dag.parents(v).len() == width).unwrap();
        assert_eq!(tree_parent(&dag, &labels, 0, hub), TreeParent::Unknown { parents: width });
    }
}
