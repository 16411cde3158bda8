//! In-forests with many roots and one sink, the shape of the benchmark's uniprot graphs ("a very
//! large set of roots connected to a single sink through very short paths", journal paper §6):
//! every vertex has one child, all paths end in the sink, and almost every vertex is a root.

use super::limits::check_vertices;
use super::sampling::{build_children, permutation, stream};
use crate::error::ErrorContext;
use crate::graph::Graph;
use crate::{Error, Result};
use rand::RngExt;

const ORDER: u64 = 41;
const CHILD: u64 = 42;

/// `n` vertices in a hidden order whose first vertex is the sink; the vertex at position `p >= 1`
/// has one child, drawn uniformly from the first `max(1, p / fan)` positions. About `n / fan`
/// vertices get parents, so about `n (1 - 1 / fan)` are roots, and the depth grows like
/// `log_fan(n)`: `fan = 40` on 1.6M vertices resembles uniprotenc_22m (97.5% roots, 4 levels).
/// `fan = 1` is a random recursive tree. `n - 1` edges; vertex ids are shuffled by `seed`.
pub fn many_roots(n: usize, fan: usize, seed: u64) -> Result<Graph> {
    const WHAT: &str = "many-roots graph";
    check_vertices(WHAT, n as u64)?;
    if fan == 0 {
        return Err(Error::InvalidInput(format!("{WHAT}: fan must be at least 1")));
    }
    let order = permutation(n, seed, ORDER); // position -> vertex
    let mut position = vec![0u32; n];
    for (p, &v) in order.iter().enumerate() {
        position[v as usize] = p as u32;
    }
    let degree = |v: u32| u64::from(position[v as usize] > 0);
    let fill = |v: u32, list: &mut [u32]| {
        if let [child] = list {
            let choices = (position[v as usize] as usize / fan).max(1) as u32;
            *child = order[stream(seed, CHILD, u64::from(v)).random_range(0..choices) as usize];
        }
    };
    let children = build_children(WHAT, n, degree, fill)?;
    Graph::from_children(children).with_context(|| format!("{WHAT}: building the graph"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::topo;

    #[test]
    fn one_sink_many_roots_shallow() {
        let (n, fan) = (200_000, 40);
        let g = many_roots(n, fan, 3).unwrap();
        assert_eq!(g.num_edges(), n - 1);
        assert_eq!(g.leaves().len(), 1, "a single sink");
        assert!((0..n as u32).all(|v| g.children(v).len() <= 1));
        let roots = g.roots().len() as f64 / n as f64;
        assert!((roots - (1.0 - 1.0 / fan as f64)).abs() < 0.01, "root share {roots}");
        let (level, _) = topo::levels(&g).unwrap();
        let depth = level.iter().max().unwrap() + 1;
        assert!((3..=6).contains(&depth), "depth {depth}");
    }

    #[test]
    fn seeded_and_checked() {
        let a = many_roots(5_000, 4, 1).unwrap();
        assert_eq!(a, many_roots(5_000, 4, 1).unwrap());
        assert_ne!(a, many_roots(5_000, 4, 2).unwrap());
        assert!(many_roots(0, 4, 0).is_err());
        assert!(many_roots(10, 0, 0).is_err());
        assert_eq!(many_roots(1, 4, 0).unwrap().num_edges(), 0);
    }
}
