//! The path behind a tree-cut yes: walk down one dimension's DFS tree from `u` to `v`.
//!
//! Labels do not store tree parents, but they do not need to: if `v` lies in `x`'s subtree, the
//! tree child of `x` on the way holds `v` in its own subtree, and any DAG child `c` whose subtree
//! holds `v` reaches it, so stepping to the first such child always makes progress.

use super::rules::in_subtree;
use crate::graph::Graph;
use crate::index::Labels;

/// A DAG path from `from` to `to`, given that `to` lies in `from`'s DFS subtree in dimension `dim`.
/// `None` only if the labels contradict that (they do not belong to this DAG).
pub(crate) fn tree_path(dag: &Graph, labels: &Labels, from: u32, to: u32, dim: usize) -> Option<Vec<u32>> {
    let target_post = labels.interval(to, dim).post;
    let mut path = vec![from];
    let mut x = from;
    while x != to {
        x = *dag
            .children(x)
            .iter()
            .find(|&&c| in_subtree(labels.interval(c, dim).post, labels.subtree(c, dim), target_post))?;
        path.push(x);
        // Subtrees shrink at every step, so more steps than vertices means the labels are foreign.
        if path.len() > dag.num_vertices() {
            return None;
        }
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{Order, dfs};

    #[test]
    fn walks_down_the_tree() {
        // 0 -> 1 -> 2 -> 3 and a shortcut 0 -> 3 that the lex tree does not use.
        let g = Graph::from_edges(4, &[(0, 1), (1, 2), (2, 3), (0, 3)]).unwrap();
        let labels = dfs::label(&g, 1, Order::Lex).unwrap();
        assert_eq!(tree_path(&g, &labels, 1, 3, 0), Some(vec![1, 2, 3]));
        // From 0 the first child holding 3 in its subtree is 1 (children are scanned by id).
        assert_eq!(tree_path(&g, &labels, 0, 3, 0), Some(vec![0, 1, 2, 3]));
    }
}
