//! Uniform random DAGs, like the "home-made" graphs of the journal paper (Table 2: 250K-1.5M
//! vertices, average degree 50 or 100, where the degree is m / n). The paper says only that they
//! were "randomly created with a given number of vertices and a given average degree", so this is
//! the textbook model with those two parameters: draw a random topological order, then keep every
//! forward pair (earlier -> later in that order) independently with the probability that makes the
//! expected edge count `n * avg_degree`. Vertex ids are the order shuffled, so they are NOT sorted
//! topologically (algorithms cannot lean on id order).

use super::limits::{check_degree, check_edges, check_vertices};
use super::sampling::{build_children, permutation, sample_distinct, stream};
use crate::Result;
use crate::error::ErrorContext;
use crate::graph::Graph;
use rand::RngExt;
use rand_distr::Binomial;

/// Stream purposes, so the order, the degrees and the targets draw independent numbers.
const ORDER: u64 = 0;
const DEGREE: u64 = 1;
const TARGETS: u64 = 2;

/// A random DAG on `n` vertices with about `n * avg_degree` edges (binomially distributed).
/// The vertex at position `i` of the hidden topological order has `Binomial(n - 1 - i, p)` children
/// drawn uniformly from the later positions, so early vertices have more children, as in any
/// uniform DAG. `avg_degree` can be at most `(n - 1) / 2` (every forward pair an edge).
pub fn random_dag(n: usize, avg_degree: f64, seed: u64) -> Result<Graph> {
    const WHAT: &str = "random DAG";
    check_vertices(WHAT, n as u64)?;
    check_degree(WHAT, avg_degree, (n as f64 - 1.0) / 2.0)?;
    check_edges(WHAT, n as f64 * avg_degree)?;
    // n (n - 1) / 2 forward pairs carry n * avg_degree edges on average.
    let p = if n > 1 { (2.0 * avg_degree / (n as f64 - 1.0)).min(1.0) } else { 0.0 };
    let order = permutation(n, seed, ORDER); // position -> vertex
    let mut position = vec![0u32; n]; // vertex -> position
    for (i, &v) in order.iter().enumerate() {
        position[v as usize] = i as u32;
    }
    let later = |v: u32| (n - 1 - position[v as usize] as usize) as u64;
    let degree = |v: u32| {
        let d = Binomial::new(later(v), p).expect("p is a probability, checked above");
        stream(seed, DEGREE, u64::from(v)).sample(d)
    };
    let fill = |v: u32, list: &mut [u32]| {
        let first_later = position[v as usize] as usize + 1;
        sample_distinct(&mut stream(seed, TARGETS, u64::from(v)), later(v) as u32, list);
        for slot in list.iter_mut() {
            *slot = order[first_later + *slot as usize];
        }
        list.sort_unstable();
    };
    let children = build_children(WHAT, n, degree, fill)?;
    Graph::from_children(children).with_context(|| format!("{WHAT}: building the graph"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::topo;

    #[test]
    fn is_a_dag_with_about_the_asked_edges() {
        let (n, deg) = (20_000, 8.0);
        let g = random_dag(n, deg, 7).unwrap();
        assert_eq!(g.num_vertices(), n);
        topo::levels(&g).expect("acyclic");
        let expected = n as f64 * deg;
        // Binomial: standard deviation about sqrt(expected) = 400; allow 5 of them.
        assert!((g.num_edges() as f64 - expected).abs() < 2_000.0, "{} edges", g.num_edges());
    }

    #[test]
    fn ids_are_not_in_topological_order() {
        let g = random_dag(2_000, 3.0, 1).unwrap();
        let backward = g.edges().filter(|&(u, v)| u > v).count();
        let forward = g.num_edges() - backward;
        // A random order makes about half the edges point to smaller ids.
        assert!(backward * 3 > forward && forward * 3 > backward, "{forward} forward, {backward} backward");
    }

    #[test]
    fn same_seed_same_graph_other_seed_other_graph() {
        let a = random_dag(5_000, 4.0, 11).unwrap();
        assert_eq!(a, random_dag(5_000, 4.0, 11).unwrap());
        assert_ne!(a, random_dag(5_000, 4.0, 12).unwrap());
    }

    #[test]
    fn same_graph_on_one_thread_and_many() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let single = pool.install(|| random_dag(30_000, 2.0, 9).unwrap());
        assert_eq!(single, random_dag(30_000, 2.0, 9).unwrap());
    }

    #[test]
    fn complete_dag_when_every_pair_is_asked_for() {
        let g = random_dag(40, 19.5, 3).unwrap();
        assert_eq!(g.num_edges(), 40 * 39 / 2);
        topo::levels(&g).unwrap();
    }

    proptest::proptest! {
        #[test]
        fn any_valid_parameters_give_a_dag(n in 1usize..300, share in 0.0f64..=1.0, seed: u64) {
            let deg = share * (n as f64 - 1.0) / 2.0;
            let g = random_dag(n, deg, seed).unwrap();
            proptest::prop_assert_eq!(g.num_vertices(), n);
            proptest::prop_assert!(topo::levels(&g).is_ok());
            proptest::prop_assert!(g.num_edges() <= n * (n - 1) / 2);
        }
    }

    #[test]
    fn absurd_parameters_are_errors() {
        assert!(random_dag(0, 1.0, 0).is_err());
        assert!(random_dag(10, 5.0, 0).is_err(), "more than (n - 1) / 2");
        assert!(random_dag(10, -1.0, 0).is_err());
        assert!(random_dag(10, f64::NAN, 0).is_err());
        assert!(random_dag(1 << 31, 100.0, 0).is_err(), "too many edges, refused before allocating");
        assert_eq!(random_dag(1, 0.0, 0).unwrap().num_vertices(), 1);
    }
}
