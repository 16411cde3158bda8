//! A graph with a weight on every edge, for the shortest-path commands (`grail sssp`, `grail apsp`).
//!
//! The weights are an array beside the children CSR of a [`LoadedGraph`], built only when a weighted
//! command asks ([`crate::graph::io::load_weighted`]), so reachability never pays for them. Between
//! two vertices there is at most one edge, as in every `Graph`: of parallel edges the lightest is
//! kept; self-loops are dropped (with non-negative weights they are on no shortest path).

use super::io::Format;
use super::load_report::{Anomaly, describe};
use super::{Csr, Graph, LoadedGraph, VertexNames};
use crate::{Error, Result};
use std::path::PathBuf;
use std::sync::Arc;

/// An edge weight. `f64` because Matrix Market `real` files hold fractions and because it is exact
/// for integers up to 2^53, so integer-weighted graphs sum without rounding; a 32-bit type would
/// either drop fractions (`u32`) or round sums of integers past 2^24 (`f32`). Weights are finite and
/// non-negative (`-0` is stored as `0`), and for non-negative `f64` the bit patterns order as the
/// numbers do, which the parallel engines' atomic minimum relies on.
pub type Weight = f64;

/// Where a graph's weights came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WeightOrigin {
    /// The file's weight column (weighted files, Matrix Market `real`, `double`, `integer`).
    File,
    /// The file holds no weights: every edge weighs 1.
    Unit,
    /// Drawn by a generator (benchmarks, tests).
    Generated,
}

/// A graph and one weight per edge.
#[derive(Clone, Debug)]
pub struct WeightedGraph {
    /// The graph (children lists sorted by id, no duplicates, no self-loops), its names and file.
    pub loaded: LoadedGraph,
    /// `weights[i]` is the weight of the edge to `loaded.graph.children_csr().targets()[i]`.
    weights: Vec<Weight>,
    /// Where the weights came from.
    pub origin: WeightOrigin,
    /// Parallel edges merged into one, the lightest kept (each merged edge counted once).
    pub merged_duplicates: u64,
    /// Self-loops dropped.
    pub self_loops: u64,
}

impl WeightedGraph {
    /// Every edge of `loaded` weighing 1 (a file without weights).
    pub fn unit(loaded: LoadedGraph) -> WeightedGraph {
        let weights = vec![1.0; loaded.graph.num_edges()];
        WeightedGraph { loaded, weights, origin: WeightOrigin::Unit, merged_duplicates: 0, self_loops: 0 }
    }

    /// `loaded` with the weights its file stores (a `.grail` file's), in the order of its children
    /// CSR; refused, naming the file, when the count is wrong or a path's length could overflow.
    pub(crate) fn with_file_weights(loaded: LoadedGraph, weights: Vec<Weight>) -> Result<WeightedGraph> {
        if weights.len() != loaded.graph.num_edges() {
            return Err(Error::InvalidInput(format!(
                "{}: {} weights for {} edges",
                loaded.path.display(),
                weights.len(),
                loaded.graph.num_edges()
            )));
        }
        let weights = weights.into_iter().map(|w| w + 0.0).collect();
        let built = WeightedGraph { loaded, weights, origin: WeightOrigin::File, merged_duplicates: 0, self_loops: 0 };
        built.check_sums()?;
        Ok(built)
    }

    /// `graph` with `weights` given in the order of its children CSR (a generator's), named `name`.
    pub fn with_weights(graph: Graph, weights: Vec<Weight>, name: &str) -> Result<WeightedGraph> {
        if weights.len() != graph.num_edges() {
            return Err(Error::InvalidInput(format!("{} weights for {} edges", weights.len(), graph.num_edges())));
        }
        if let Some(bad) = weights.iter().find(|w| !is_weight(**w)) {
            return Err(Error::InvalidInput(format!("weight {bad} is not a finite number of 0 or more")));
        }
        let weights = weights.into_iter().map(|w| w + 0.0).collect();
        let loaded = in_memory(graph, name);
        let built =
            WeightedGraph { loaded, weights, origin: WeightOrigin::Generated, merged_duplicates: 0, self_loops: 0 };
        built.check_sums()?;
        Ok(built)
    }

    /// The graph of weighted edges `(src, dst, weight)` on vertices `0..n`, named `name`: parallel
    /// edges merged (the lightest kept), self-loops dropped. A weight that is negative, infinite or
    /// not a number is an error (readers check each line first, and name it).
    pub fn from_edges(n: usize, edges: Vec<(u32, u32, Weight)>, name: &str) -> Result<WeightedGraph> {
        Self::from_edges_read(n, edges, WeightOrigin::Generated, in_memory_parts(name))
    }

    /// [`WeightedGraph::from_edges`] for a reader: its names, format and path.
    pub(crate) fn from_edges_read(
        n: usize,
        mut edges: Vec<(u32, u32, Weight)>,
        origin: WeightOrigin,
        (names, format, path): (VertexNames, Format, PathBuf),
    ) -> Result<WeightedGraph> {
        if let Some(&(u, v, w)) = edges.iter().find(|&&(u, v, w)| u as usize >= n || v as usize >= n || !is_weight(w)) {
            return Err(Error::InvalidGraph(format!(
                "edge {u} → {v} of weight {w} is not on vertices {} with a finite weight of 0 or more",
                crate::format::ids(n as u64)
            )));
        }
        let before = edges.len() as u64;
        edges.retain(|&(u, v, _)| u != v);
        let self_loops = before - edges.len() as u64;
        // By source, target, then weight: the first of each (source, target) run is the lightest.
        rayon::slice::ParallelSliceMut::par_sort_unstable_by(&mut edges[..], |a, b| {
            (a.0, a.1).cmp(&(b.0, b.1)).then(a.2.total_cmp(&b.2))
        });
        edges.dedup_by_key(|e| (e.0, e.1));
        let merged_duplicates = before - self_loops - edges.len() as u64;
        let mut offsets = vec![0u64; n + 1];
        for &(u, _, _) in &edges {
            offsets[u as usize + 1] += 1;
        }
        for v in 0..n {
            offsets[v + 1] += offsets[v];
        }
        let targets = edges.iter().map(|e| e.1).collect();
        let weights = edges.iter().map(|e| e.2 + 0.0).collect();
        let graph = Graph::from_children(Csr::from_parts(offsets, targets)?)?;
        let loaded = LoadedGraph { graph: Arc::new(graph), names, format, path, report: None };
        let built = WeightedGraph { loaded, weights, origin, merged_duplicates, self_loops };
        built.check_sums()?;
        Ok(built)
    }

    /// Refuses weights so large that a path's length could overflow to infinity, which the engines
    /// take for "unreachable".
    fn check_sums(&self) -> Result<()> {
        let max = self.max_weight();
        let steps = self.num_vertices().saturating_sub(1) as f64;
        if !(max * steps).is_finite() {
            return Err(Error::InvalidGraph(format!(
                "{}: weights up to {max:e} on {} vertices: a path's length could pass the largest number \
                 (about 1.8e308); scale the weights down",
                self.loaded.path.display(),
                self.num_vertices()
            )));
        }
        Ok(())
    }

    /// The graph itself.
    pub fn graph(&self) -> &Graph {
        &self.loaded.graph
    }

    /// Vertices, numbered `0..n`.
    pub fn num_vertices(&self) -> usize {
        self.loaded.graph.num_vertices()
    }

    /// Edges (after merging).
    pub fn num_edges(&self) -> usize {
        self.loaded.graph.num_edges()
    }

    /// `v`'s out-edges: heads by increasing id, and their weights.
    #[inline]
    pub fn out_edges(&self, v: u32) -> (&[u32], &[Weight]) {
        let csr = self.loaded.graph.children_csr();
        let (start, end) = (csr.offsets()[v as usize] as usize, csr.offsets()[v as usize + 1] as usize);
        (&csr.targets()[start..end], &self.weights[start..end])
    }

    /// Every weight, in the order of the children CSR.
    pub fn weights(&self) -> &[Weight] {
        &self.weights
    }

    /// The weight of the edge `u -> v`, if there is one.
    pub fn weight(&self, u: u32, v: u32) -> Option<Weight> {
        let (heads, weights) = self.out_edges(u);
        heads.binary_search(&v).ok().map(|i| weights[i])
    }

    /// The largest weight (0 without edges).
    pub fn max_weight(&self) -> Weight {
        self.weights.iter().copied().fold(0.0, Weight::max)
    }

    /// The mean weight (0 without edges).
    pub fn mean_weight(&self) -> Weight {
        if self.weights.is_empty() { 0.0 } else { self.weights.iter().sum::<Weight>() / self.weights.len() as f64 }
    }

    /// The dense id of a vertex as a user typed it (a file id, or a name), or an error naming the file.
    pub fn vertex(&self, typed: &str) -> Result<u32> {
        self.loaded.vertex(typed)
    }

    /// What the command says about the weights before its results, if anything: that the file has
    /// none, and what merging did.
    pub fn notes(&self) -> Vec<String> {
        let file = self
            .loaded
            .path
            .file_name()
            .map_or_else(|| self.loaded.path.display().to_string(), |f| f.to_string_lossy().into_owned());
        let mut notes = Vec::new();
        if self.origin == WeightOrigin::Unit {
            // A column the format does not read may be the weights the user meant.
            let extra = self.loaded.report.as_ref().map(|r| &r.extra_field_lines).filter(|f| f.count > 0);
            notes.push(match extra {
                None => format!("{file} has no weights: every edge weighs 1"),
                Some(extra) => format!(
                    "{file} is read as {}, a format without weights: every edge weighs 1; {}: a weighted file \
                     (first line `n m directed`, then `src dst weight`) or a `real` or `integer` Matrix Market \
                     file keeps weights",
                    self.loaded.format.name(),
                    describe(Anomaly::ExtraFields, extra)
                ),
            });
        }
        if self.merged_duplicates > 0 {
            let merged = crate::format::plural(self.merged_duplicates, "parallel edge", "parallel edges");
            notes.push(format!("{file}: {merged} merged, the lightest of each kept"));
        }
        if self.self_loops > 0 {
            let loops = crate::format::plural(self.self_loops, "self-loop", "self-loops");
            notes.push(format!("{file}: {loops} dropped (a loop never shortens a path)"));
        }
        notes
    }
}

/// Whether `w` can weigh an edge: finite and not negative (`-0` included).
fn is_weight(w: Weight) -> bool {
    w.is_finite() && w >= 0.0
}

fn in_memory_parts(name: &str) -> (VertexNames, Format, PathBuf) {
    (VertexNames::Dense, Format::Weighted, name.into())
}

fn in_memory(graph: Graph, name: &str) -> LoadedGraph {
    let (names, format, path) = in_memory_parts(name);
    LoadedGraph { graph: Arc::new(graph), names, format, path, report: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_edges_keep_the_lightest_and_loops_go() {
        let g =
            WeightedGraph::from_edges(3, vec![(0, 1, 5.0), (0, 1, 2.0), (1, 1, 0.0), (0, 1, 3.0), (2, 0, -0.0)], "t")
                .unwrap();
        assert_eq!(g.num_edges(), 2);
        assert_eq!(g.weight(0, 1), Some(2.0));
        assert_eq!(g.weight(2, 0).map(f64::to_bits), Some(0.0f64.to_bits()), "-0 is stored as 0");
        assert_eq!((g.merged_duplicates, g.self_loops), (2, 1));
        assert_eq!(
            g.notes(),
            [
                "t: 2 parallel edges merged, the lightest of each kept",
                "t: 1 self-loop dropped (a loop never shortens a path)"
            ]
        );
    }

    #[test]
    fn bad_weights_are_refused() {
        for w in [-1.0, f64::NAN, f64::INFINITY] {
            assert!(WeightedGraph::from_edges(2, vec![(0, 1, w)], "t").is_err(), "{w}");
        }
        let e = WeightedGraph::from_edges(3, vec![(0, 1, 1e308), (1, 2, 1e308)], "t").unwrap_err().to_string();
        assert!(e.contains("scale the weights down"), "{e}");
    }

    #[test]
    fn unit_weights_say_so() {
        let g = Graph::from_edges(2, &[(0, 1)]).unwrap();
        let w = WeightedGraph::unit(in_memory(g, "dir/kegg.gra"));
        assert_eq!(w.weights(), [1.0]);
        assert_eq!(w.notes(), ["kegg.gra has no weights: every edge weighs 1"]);
    }
}
