//! Wide fans: hubs with huge out- and in-degree, the vertices that the "large" (> 256) degree
//! queues of the BFS phases exist for.

use super::limits::{check_edges, check_vertices};
use super::sampling::{permutation, stream};
use crate::graph::Graph;
use crate::{Error, Result};
use rand::RngExt;

const ORDER: u64 = 31;
const CROSS: u64 = 32;

/// `layers` fans in a row. Fan `i` is a hub with an edge to each of its `width` leaves, and every
/// leaf has an edge to the next hub, so hubs have out-degree `width` and (after the first) in-degree
/// `width`. Each leaf also links to one random leaf of the next fan (cross edges that the DFS tree
/// does not take), and vertex ids are shuffled by `seed`.
/// `(width + 1) * layers + 1` vertices; `3 * width * layers - width` edges.
pub fn wide_fan(width: usize, layers: usize, seed: u64) -> Result<Graph> {
    const WHAT: &str = "wide fan";
    if width == 0 || layers == 0 {
        return Err(Error::InvalidInput(format!("{WHAT}: width and layers must be at least 1")));
    }
    let n = (width as u64).checked_add(1).and_then(|w| w.checked_mul(layers as u64)).and_then(|x| x.checked_add(1));
    let n = n.ok_or_else(|| Error::InvalidInput(format!("{WHAT}: {width} x {layers} vertices overflow")))?;
    check_vertices(WHAT, n)?;
    check_edges(WHAT, 3.0 * width as f64 * layers as f64)?;
    let id = permutation(n as usize, seed, ORDER);
    // Before shuffling, fan i occupies hub(i) followed by its leaves; the last hub closes the row.
    let hub = |i: usize| (i * (width + 1)) as u32;
    let leaf = |i: usize, j: usize| hub(i) + 1 + j as u32;
    let mut rng = stream(seed, CROSS, 0);
    let mut edges = Vec::with_capacity(3 * width * layers);
    for i in 0..layers {
        for j in 0..width {
            edges.push((hub(i), leaf(i, j)));
            edges.push((leaf(i, j), hub(i + 1)));
            if i + 1 < layers {
                edges.push((leaf(i, j), leaf(i + 1, rng.random_range(0..width as u32) as usize)));
            }
        }
    }
    let shuffled: Vec<(u32, u32)> = edges.into_iter().map(|(u, v)| (id[u as usize], id[v as usize])).collect();
    Graph::from_edges(n as usize, &shuffled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::topo;

    #[test]
    fn hubs_have_degree_above_ten_thousand() {
        let (width, layers) = (12_000, 3);
        let g = wide_fan(width, layers, 1).unwrap();
        assert_eq!(g.num_vertices(), (width + 1) * layers + 1);
        assert_eq!(g.num_edges(), 3 * width * layers - width);
        let (level, _) = topo::levels(&g).expect("acyclic");
        assert_eq!(level.iter().max(), Some(&(2 * layers as u32)), "hub, leaves, hub, ...");
        let big_out = (0..g.num_vertices() as u32).filter(|&v| g.children(v).len() > 10_000).count();
        let big_in = (0..g.num_vertices() as u32).filter(|&v| g.parents(v).len() > 10_000).count();
        assert_eq!((big_out, big_in), (layers, layers));
    }

    #[test]
    fn seeded_and_checked() {
        let a = wide_fan(100, 2, 3).unwrap();
        assert_eq!(a, wide_fan(100, 2, 3).unwrap());
        assert_ne!(a, wide_fan(100, 2, 4).unwrap());
        assert!(wide_fan(0, 2, 0).is_err());
        assert!(wide_fan(5, 0, 0).is_err());
        assert!(wide_fan(usize::MAX, 2, 0).is_err());
    }
}
