//! All-pairs shortest distances: an `n × n` matrix of [`Weight`]s, by Dijkstra from every source
//! or by Floyd-Warshall ([`super::floyd`]); the memory it needs, checked before it is allocated;
//! how two matrices are compared; and the text file `grail apsp --out` writes.

use super::ApspMethod;
use super::dijkstra::{Heap, dijkstra_into};
use crate::exact::memory::MemoryNeed;
use crate::graph::{VertexNames, Weight, WeightedGraph};
use crate::{Error, Result};
use rayon::prelude::*;
use std::io::Write;
use std::time::Instant;

/// Shortest distances between every pair of vertices.
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceMatrix {
    /// Vertices: the matrix is `n × n`.
    pub n: usize,
    /// Row-major: `values[i * n + j]` is the distance from `i` to `j` (infinity: unreachable).
    pub values: Vec<Weight>,
}

impl DistanceMatrix {
    /// The distance from `i` to `j`.
    pub fn get(&self, i: u32, j: u32) -> Weight {
        self.values[i as usize * self.n + j as usize]
    }

    /// The distances from `i`.
    pub fn row(&self, i: u32) -> &[Weight] {
        &self.values[i as usize * self.n..(i as usize + 1) * self.n]
    }

    /// Ordered pairs `(i, j)`, `i ≠ j`, at a finite distance.
    pub fn reachable_pairs(&self) -> u64 {
        let finite = self.values.par_iter().filter(|d| d.is_finite()).count() as u64;
        finite - self.n as u64
    }
}

/// A method's matrix and its time.
pub struct ApspRun {
    /// The method that ran.
    pub method: ApspMethod,
    /// The distances.
    pub matrix: DistanceMatrix,
    /// Seconds, the matrix's allocation and filling included.
    pub seconds: f64,
}

/// Memory an all-pairs method holds: the matrix (the per-thread heaps of Dijkstra from every
/// source and the naive form's copied row are a vanishing part of it).
pub fn memory_need(n: usize) -> MemoryNeed {
    MemoryNeed { bytes: (n as u64).saturating_mul(n as u64).saturating_mul(8), what: "an n × n matrix of f64" }
}

/// Fails, with both figures, when the matrix of `n` vertices does not fit `available` bytes (None:
/// the system does not say).
pub fn check_fits(n: usize, available: Option<u64>) -> Result<()> {
    memory_need(n).check_task(
        available,
        "this machine",
        "all-pairs shortest paths",
        "`grail sssp GRAPH SRC` gives one source's distances in memory proportional to the graph",
    )
}

/// Runs `method` (a CPU method) on `graph`, after checking the matrix fits this machine's memory.
pub fn run(graph: &WeightedGraph, method: ApspMethod) -> Result<ApspRun> {
    let n = graph.num_vertices();
    check_fits(n, crate::system::physical_memory_bytes())?;
    let start = Instant::now();
    let matrix = match method {
        ApspMethod::SsspAll => sssp_all(graph),
        ApspMethod::Fw | ApspMethod::FwBlocked => {
            let mut matrix = adjacency_matrix(graph);
            if method == ApspMethod::Fw {
                super::floyd::floyd_warshall(&mut matrix.values, n);
            } else {
                super::floyd::floyd_warshall_blocked(&mut matrix.values, n);
            }
            matrix
        }
        gpu => {
            return Err(Error::InvalidInput(format!(
                "{} runs on the GPU: run it through `grail::weighted_run`",
                gpu.name()
            )));
        }
    };
    Ok(ApspRun { method, matrix, seconds: start.elapsed().as_secs_f64() })
}

/// Dijkstra from every source, the sources spread over every core.
pub fn sssp_all(graph: &WeightedGraph) -> DistanceMatrix {
    let n = graph.num_vertices();
    let mut values = vec![Weight::INFINITY; n * n];
    if n > 0 {
        values.par_chunks_mut(n).enumerate().for_each_init(Heap::new, |heap, (src, row)| {
            dijkstra_into(graph, src as u32, row, heap);
        });
    }
    DistanceMatrix { n, values }
}

/// The matrix Floyd-Warshall starts from: 0 on the diagonal, each edge's weight, infinity elsewhere.
pub fn adjacency_matrix(graph: &WeightedGraph) -> DistanceMatrix {
    let n = graph.num_vertices();
    let mut values = vec![Weight::INFINITY; n * n];
    if n > 0 {
        values.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
            row[i] = 0.0;
            let (heads, weights) = graph.out_edges(i as u32);
            for (&j, &w) in heads.iter().zip(weights) {
                row[j as usize] = w;
            }
        });
    }
    DistanceMatrix { n, values }
}

/// How two all-pairs matrices of a graph are compared.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "relative")]
pub enum Tolerance {
    /// Bit for bit: every weight is an integer and every path's length is below 2^53, so every sum,
    /// in any grouping, is exact.
    Exact,
    /// Within this share of the larger distance, and the same pairs unreachable: `2·n·ε`, twice
    /// the rounding a sum of `n` terms can carry in any grouping (ε the `f64` machine epsilon).
    Relative(f64),
}

/// The tolerance that fits `graph`'s weights.
pub fn tolerance(graph: &WeightedGraph) -> Tolerance {
    let n = graph.num_vertices() as f64;
    let integers = graph.weights().iter().all(|w| w.fract() == 0.0);
    if integers && graph.max_weight() * n < 2f64.powi(53) {
        Tolerance::Exact
    } else {
        Tolerance::Relative(2.0 * n.max(1.0) * f64::EPSILON)
    }
}

/// Pairs whose distances in `a` and `b` differ beyond `tolerance` (0: the matrices agree).
pub fn differences(a: &DistanceMatrix, b: &DistanceMatrix, tolerance: Tolerance) -> u64 {
    if a.n != b.n {
        return (a.n.max(b.n) as u64).pow(2);
    }
    a.values
        .par_iter()
        .zip(&b.values)
        .filter(|&(&x, &y)| match tolerance {
            Tolerance::Exact => x.to_bits() != y.to_bits(),
            Tolerance::Relative(share) => {
                !(x == y || (x.is_finite() && y.is_finite() && (x - y).abs() <= share * x.max(y)))
            }
        })
        .count() as u64
}

/// Writes `matrix` as text: two comment lines (what the file holds, the vertices in row order,
/// by their file ids or names), then one line per vertex of its distances to every vertex in the
/// same order, `inf` where there is no path.
pub fn write_text(matrix: &DistanceMatrix, names: &VertexNames, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "# grail apsp: {n} x {n} shortest distances; line i holds the distances from the i-th vertex below to \
         each vertex in the same order; inf: no path",
        n = matrix.n
    )?;
    write!(out, "# vertices:")?;
    for v in 0..matrix.n as u32 {
        write!(out, " {}", names.label(v))?;
    }
    writeln!(out)?;
    for i in 0..matrix.n as u32 {
        for (j, d) in matrix.row(i).iter().enumerate() {
            let separator = if j == 0 { "" } else { " " };
            if d.is_finite() { write!(out, "{separator}{d}")? } else { write!(out, "{separator}inf")? }
        }
        writeln!(out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> WeightedGraph {
        let edges = vec![(0, 1, 2.0), (1, 2, 0.0), (2, 0, 1.0), (0, 2, 3.0), (3, 1, 1.0)];
        WeightedGraph::from_edges(5, edges, "t").unwrap()
    }

    #[test]
    fn every_method_gives_the_same_matrix() {
        let g = sample();
        let reference = run(&g, ApspMethod::SsspAll).unwrap().matrix;
        assert_eq!((reference.get(0, 2), reference.get(2, 1), reference.get(1, 3)), (2.0, 3.0, f64::INFINITY));
        assert_eq!(reference.reachable_pairs(), 9);
        assert_eq!(tolerance(&g), Tolerance::Exact);
        for method in [ApspMethod::Fw, ApspMethod::FwBlocked] {
            assert_eq!(differences(&reference, &run(&g, method).unwrap().matrix, Tolerance::Exact), 0);
        }
    }

    #[test]
    fn too_large_a_matrix_is_refused_with_its_size() {
        let e = check_fits(100_000, Some(1 << 30)).unwrap_err().to_string();
        assert!(e.starts_with("all-pairs shortest paths needs 74.5 GiB (an n × n matrix of f64)"), "{e}");
        assert!(e.contains("grail sssp"), "{e}");
        assert!(check_fits(1_000, Some(1 << 30)).is_ok());
    }

    #[test]
    fn text_has_a_line_per_vertex_and_inf() {
        let g = sample();
        let mut text = Vec::new();
        write_text(&run(&g, ApspMethod::Fw).unwrap().matrix, &VertexNames::Dense, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 7);
        assert_eq!(lines[1], "# vertices: 0 1 2 3 4");
        assert_eq!(lines[2], "0 2 2 inf inf");
        assert_eq!(lines[6], "inf inf inf inf 0");
    }

    #[test]
    fn fractions_are_compared_within_the_tolerance() {
        let g = WeightedGraph::from_edges(2, vec![(0, 1, 0.1)], "t").unwrap();
        let Tolerance::Relative(share) = tolerance(&g) else { panic!("fractions are not exact") };
        let a = DistanceMatrix { n: 1, values: vec![0.3] };
        let b = DistanceMatrix { n: 1, values: vec![0.1 + 0.2] };
        assert_eq!(differences(&a, &b, tolerance(&g)), 0, "within {share}");
        assert_eq!(differences(&a, &b, Tolerance::Exact), 1);
        let c = DistanceMatrix { n: 1, values: vec![f64::INFINITY] };
        assert_eq!(differences(&a, &c, tolerance(&g)), 1);
    }
}
