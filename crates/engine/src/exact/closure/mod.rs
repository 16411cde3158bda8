//! The transitive closure of a condensation (a DAG) as a reflexive bit matrix: row `c` holds every
//! component `c` reaches, itself included (docs/ALGORITHMS.md, section 17). Four CPU methods, all on
//! the current rayon pool; the GPU's are in `src/gpu/exact_closure.rs`.

pub mod bit_parallel;
pub mod floyd_warshall;
pub mod pairs;
pub mod squaring;

use super::bitmatrix::BitMatrix;
use super::engine::ClosureMethod;
use super::memory::MemoryNeed;
pub use super::phases::{PhaseClock, PhaseTime};
use crate::graph::Graph;
use crate::{Error, Result};

/// The memory `method` needs on a DAG of `n` vertices: its bit matrices.
pub fn memory_need(method: ClosureMethod, n: usize) -> MemoryNeed {
    let what = if method.matrices() == 2 { "two n × n bit matrices" } else { "an n × n bit matrix" };
    MemoryNeed { bytes: BitMatrix::bytes_for(n) * method.matrices(), what }
}

/// The closure of `dag` by a CPU method, its phases timed into `clock`. Checks memory first.
pub fn cpu_closure(dag: &Graph, method: ClosureMethod, clock: &mut PhaseClock) -> Result<BitMatrix> {
    memory_need(method, dag.num_vertices()).check_host()?;
    match method {
        ClosureMethod::BitParallel => bit_parallel::closure(dag, clock),
        ClosureMethod::Squaring => {
            let a = clock.time("adjacency", || BitMatrix::reflexive_adjacency(dag))?;
            clock.time("squaring", || squaring::close(a))
        }
        ClosureMethod::FwNaive => {
            let mut a = clock.time("adjacency", || BitMatrix::reflexive_adjacency(dag))?;
            clock.time("floyd-warshall", || floyd_warshall::naive(&mut a));
            Ok(a)
        }
        ClosureMethod::FwTiled => {
            let mut a = clock.time("adjacency", || BitMatrix::reflexive_adjacency(dag))?;
            clock.time("floyd-warshall tiled", || floyd_warshall::tiled(&mut a));
            Ok(a)
        }
        gpu => Err(Error::InvalidInput(format!(
            "{} runs on the GPU, not here (src/exact_run.rs dispatches it)",
            gpu.name()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::generators::{chain, diamond_ladder, random_dag, random_digraph};
    use crate::graph::scc;
    use crate::query::oracle::TransitiveClosure;
    use std::sync::Arc;

    const CPU: [ClosureMethod; 4] =
        [ClosureMethod::BitParallel, ClosureMethod::Squaring, ClosureMethod::FwNaive, ClosureMethod::FwTiled];

    /// Every CPU method gives the oracle's relation, on DAGs and on condensed digraphs with cycles,
    /// across the 64-bit word and 256-vertex block boundaries.
    #[test]
    fn every_method_matches_the_oracle() {
        let mut graphs = vec![chain(130).unwrap(), diamond_ladder(40).unwrap(), Graph::from_edges(1, &[]).unwrap()];
        for seed in 0..4 {
            graphs.push(random_dag(300 + 97 * seed as usize, 3.0, seed).unwrap());
            graphs.push(random_digraph(600, 1.2, seed).unwrap());
        }
        for g in graphs {
            let cond = scc::condense(&Arc::new(g.clone()));
            let oracle = TransitiveClosure::new(&g).unwrap();
            let n = g.num_vertices();
            let expected = oracle.count_reachable_pairs();
            let mut reference = None;
            for method in CPU {
                let m = cpu_closure(&cond.dag, method, &mut PhaseClock::default()).unwrap();
                assert_eq!(pairs::count(&m, &cond.sizes), expected, "{method:?} on {n} vertices");
                for u in (0..n as u32).step_by(7) {
                    for v in 0..n as u32 {
                        let (cu, cv) = (cond.component[u as usize] as usize, cond.component[v as usize] as usize);
                        assert_eq!(m.get(cu, cv), oracle.reachable(u, v), "{method:?}: {u} -> {v}");
                    }
                }
                match &reference {
                    None => reference = Some(m),
                    Some(r) => assert_eq!(&m, r, "{method:?}"),
                }
            }
        }
    }
}
