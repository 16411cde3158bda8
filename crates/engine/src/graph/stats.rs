//! Graph statistics: the figures `grail info` prints (as a table or JSON).
//!
//! Sizes and degrees describe the graph as loaded; roots, leaves, isolated components and levels
//! describe its condensation (the DAG the index is built on; the same graph when it was a DAG),
//! because a cyclic graph may have no roots at all and has no levels.

use super::Graph;
use super::scc::Condensation;
use super::weak::weak_components;
use crate::format::thousands;
use rayon::prelude::*;
use serde::Serialize;
use std::fmt;

/// Everything `grail info` reports about a graph.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GraphStats {
    /// Vertices of the graph as loaded.
    pub vertices: u64,
    /// Edges of the graph as loaded.
    pub edges: u64,
    /// Strongly connected components (= vertices of the condensation).
    pub components: u64,
    /// Vertices in the largest strongly connected component.
    pub largest_component: u64,
    /// Weakly connected components (the pieces of the graph, edges read both ways): 1 when the
    /// graph is in one piece.
    pub weak_components: u64,
    /// Vertices in the largest weakly connected component.
    pub largest_weak_component: u64,
    /// Edges of the condensation (the edges between components).
    pub dag_edges: u64,
    /// Components without parents in the condensation.
    #[serde(rename = "root_components")]
    pub roots: u64,
    /// Components without children in the condensation.
    #[serde(rename = "leaf_components")]
    pub leaves: u64,
    /// Components with neither parents nor children in the condensation.
    pub isolated: u64,
    /// Number of topological levels of the condensation (longest path + 1; 0 when empty).
    pub depth: u64,
    /// Components on each topological level, level 0 (the roots) first; `depth` entries.
    pub components_per_level: Vec<u64>,
    /// The largest out-degree of the graph as loaded.
    pub max_out_degree: u64,
    /// `edges / vertices` (0 for an empty graph).
    pub avg_out_degree: f64,
    /// The largest in-degree of the graph as loaded.
    pub max_in_degree: u64,
    /// `edges / vertices`, the same as the average out-degree.
    pub avg_in_degree: f64,
    /// Vertices by out-degree, in power-of-two buckets, smallest degrees first.
    pub out_degree_histogram: Vec<DegreeBucket>,
    /// Vertices by in-degree, in power-of-two buckets, smallest degrees first.
    pub in_degree_histogram: Vec<DegreeBucket>,
    /// Whether the graph as loaded has no cycle (every component a single vertex).
    pub is_dag: bool,
}

/// Vertices whose degree lies in `min..=max`: buckets are 0, 1, 2-3, 4-7, ... (powers of two).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DegreeBucket {
    /// The range as printed: `0`, `1`, `2-3`, `4-7`, ...
    pub label: String,
    /// The smallest degree in the bucket.
    pub min: u64,
    /// The largest degree in the bucket (inclusive).
    pub max: u64,
    /// Vertices whose degree lies in `min..=max`.
    pub count: u64,
}

/// Computes the statistics of `original` and its `condensation`.
pub fn compute(original: &Graph, condensation: &Condensation) -> GraphStats {
    let dag = &condensation.dag;
    let level = &condensation.levels;
    let depth = level.par_iter().max().map_or(0, |&l| u64::from(l) + 1);
    let mut components_per_level = vec![0u64; depth as usize];
    for &l in level {
        components_per_level[l as usize] += 1;
    }
    let dag_vertices = dag.num_vertices() as u32;
    let (roots, leaves, isolated) = (0..dag_vertices)
        .into_par_iter()
        .map(|v| {
            let (root, leaf) = (dag.parents(v).is_empty(), dag.children(v).is_empty());
            (u64::from(root), u64::from(leaf), u64::from(root && leaf))
        })
        .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    let (vertices, edges) = (original.num_vertices() as u64, original.num_edges() as u64);
    let average = if vertices == 0 { 0.0 } else { edges as f64 / vertices as f64 };
    let out = DegreeSummary::of(original.children_csr().offsets());
    let inn = DegreeSummary::of(original.parents_csr().offsets());
    let weak = weak_components(original);
    GraphStats {
        vertices,
        edges,
        components: condensation.num_components() as u64,
        largest_component: u64::from(condensation.largest()),
        weak_components: weak.count,
        largest_weak_component: weak.largest,
        dag_edges: dag.num_edges() as u64,
        roots,
        leaves,
        isolated,
        depth,
        components_per_level,
        max_out_degree: out.max,
        avg_out_degree: average,
        max_in_degree: inn.max,
        avg_in_degree: average,
        out_degree_histogram: out.buckets(),
        in_degree_histogram: inn.buckets(),
        is_dag: condensation.is_identity(),
    }
}

/// Power-of-two bucket of a degree: 0 -> 0, 1 -> 1, 2..=3 -> 2, 4..=7 -> 3, ...
fn bucket_of(degree: u64) -> usize {
    (u64::BITS - degree.leading_zeros()) as usize
}

/// The largest degree and the bucket counts of one CSR direction.
struct DegreeSummary {
    max: u64,
    counts: [u64; 65],
}

impl Default for DegreeSummary {
    fn default() -> Self {
        DegreeSummary { max: 0, counts: [0; 65] }
    }
}

impl DegreeSummary {
    fn of(offsets: &[u64]) -> DegreeSummary {
        // Chunks overlap by one offset so every vertex's window lies in exactly one chunk. Each
        // chunk fills its own summary in a plain loop (a per-vertex fold would copy the 65 counters
        // for every vertex).
        const CHUNK: usize = 1 << 16;
        let vertices = offsets.len().saturating_sub(1);
        (0..vertices.div_ceil(CHUNK))
            .into_par_iter()
            .map(|chunk| {
                let mut summary = DegreeSummary::default();
                let end = ((chunk + 1) * CHUNK).min(vertices);
                for w in offsets[chunk * CHUNK..=end].windows(2) {
                    let degree = w[1] - w[0];
                    summary.max = summary.max.max(degree);
                    summary.counts[bucket_of(degree)] += 1;
                }
                summary
            })
            .reduce(DegreeSummary::default, |mut a, b| {
                a.max = a.max.max(b.max);
                a.counts.iter_mut().zip(b.counts).for_each(|(x, y)| *x += y);
                a
            })
    }

    /// Buckets from 0 up to the one holding the largest degree (empty ones included, so the shape
    /// of the distribution reads directly); none for a graph without vertices.
    fn buckets(&self) -> Vec<DegreeBucket> {
        let used = self.counts.iter().rposition(|&c| c > 0).map_or(0, |last| last + 1);
        (0..used)
            .map(|b| {
                let (min, max) = if b == 0 { (0, 0) } else { (1u64 << (b - 1), (1u64 << (b - 1)) * 2 - 1) };
                let label = if min == max { thousands(min) } else { format!("{}-{}", thousands(min), thousands(max)) };
                DegreeBucket { label, min, max, count: self.counts[b] }
            })
            .collect()
    }
}

/// Rows of the level histogram in the table; deeper graphs get levels grouped into ranges.
const LEVEL_ROWS: usize = 12;
/// Characters of the longest histogram bar.
const BAR: u64 = 24;

impl GraphStats {
    /// The figures as an aligned table with thousands separators, followed by a compact level
    /// histogram and the two degree histograms side by side.
    pub fn human_table(&self) -> String {
        let rows: Vec<(&str, String)> = vec![
            ("vertices", thousands(self.vertices)),
            ("edges", thousands(self.edges)),
            ("is a DAG", if self.is_dag { "yes".into() } else { "no (condensed)".into() }),
            ("components (SCC)", thousands(self.components)),
            ("largest component", thousands(self.largest_component)),
            ("weak components", thousands(self.weak_components)),
            ("largest weak component", thousands(self.largest_weak_component)),
            ("DAG edges", thousands(self.dag_edges)),
            ("root components", thousands(self.roots)),
            ("leaf components", thousands(self.leaves)),
            ("isolated components", thousands(self.isolated)),
            ("depth (levels)", thousands(self.depth)),
            ("out-degree max / avg", format!("{} / {:.2}", thousands(self.max_out_degree), self.avg_out_degree)),
            ("in-degree max / avg", format!("{} / {:.2}", thousands(self.max_in_degree), self.avg_in_degree)),
        ];
        let mut out = String::new();
        for (name, value) in rows {
            out += &format!("{name:<22}{value:>16}\n");
        }
        out += "\ncomponents per level of the condensation\n";
        let levels = self.level_rows();
        let widest = levels.iter().map(|(_, c)| *c).max().unwrap_or(0);
        for (label, count) in &levels {
            out += &format!("  {label:<20}{:>16}  {}\n", thousands(*count), bar(*count, widest));
        }
        out += &format!("\n{:<22}{:>16}{:>16}\n", "degree", "out", "in");
        let buckets = self.out_degree_histogram.len().max(self.in_degree_histogram.len());
        for b in 0..buckets {
            let out_bucket = self.out_degree_histogram.get(b);
            let in_bucket = self.in_degree_histogram.get(b);
            let label = out_bucket.or(in_bucket).map_or("", |bucket| bucket.label.as_str());
            let (outs, ins) = (out_bucket.map_or(0, |x| x.count), in_bucket.map_or(0, |x| x.count));
            // Hubs leave long runs of empty buckets; the ranges in the labels keep the gaps readable.
            if outs + ins > 0 {
                out += &format!("  {label:<20}{:>16}{:>16}\n", thousands(outs), thousands(ins));
            }
        }
        out
    }

    /// `(label, vertices)` per level, or per range of levels when there are more than fit.
    fn level_rows(&self) -> Vec<(String, u64)> {
        let depth = self.components_per_level.len();
        let per_row = depth.div_ceil(LEVEL_ROWS).max(1);
        self.components_per_level
            .chunks(per_row)
            .enumerate()
            .map(|(row, chunk)| {
                let first = row * per_row;
                let label = if chunk.len() == 1 {
                    format!("level {}", thousands(first as u64))
                } else {
                    format!("levels {}-{}", thousands(first as u64), thousands((first + chunk.len() - 1) as u64))
                };
                (label, chunk.iter().sum())
            })
            .collect()
    }
}

impl fmt::Display for GraphStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.human_table())
    }
}

/// A bar proportional to `count / widest`, at least one block for a non-zero count.
fn bar(count: u64, widest: u64) -> String {
    if widest == 0 || count == 0 {
        return String::new();
    }
    "█".repeat((count * BAR).div_ceil(widest) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::scc::condense;
    use std::sync::Arc;

    fn stats_of(n: usize, edges: &[(u32, u32)]) -> GraphStats {
        let g = Arc::new(Graph::from_edges(n, edges).unwrap());
        compute(&g, &condense(&g))
    }

    #[test]
    fn small_dag_exact_figures() {
        // 0 -> 1, 0 -> 2, 0 -> 3, 1 -> 3, 2 -> 3, 3 -> 4; 5 isolated.
        let s = stats_of(6, &[(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (3, 4)]);
        assert_eq!((s.vertices, s.edges, s.components, s.largest_component, s.dag_edges), (6, 6, 6, 1, 6));
        assert_eq!((s.roots, s.leaves, s.isolated), (2, 2, 1));
        assert_eq!((s.weak_components, s.largest_weak_component), (2, 5));
        assert_eq!(s.depth, 4);
        assert_eq!(s.components_per_level, vec![2, 2, 1, 1]);
        assert_eq!((s.max_out_degree, s.max_in_degree), (3, 3));
        assert_eq!(s.avg_out_degree, 1.0);
        assert!(s.is_dag);
        let counts = |h: &[DegreeBucket]| h.iter().map(|b| (b.label.clone(), b.count)).collect::<Vec<_>>();
        // out-degrees: 0:3 1:1 2:1 3:1 4:0 5:0 -> buckets 0:2, 1:3, 2-3:1
        assert_eq!(counts(&s.out_degree_histogram), vec![("0".into(), 2), ("1".into(), 3), ("2-3".into(), 1)]);
        // in-degrees: 0:0 1:1 2:1 3:3 4:1 5:0 -> buckets 0:2, 1:3, 2-3:1
        assert_eq!(counts(&s.in_degree_histogram), vec![("0".into(), 2), ("1".into(), 3), ("2-3".into(), 1)]);
        assert_eq!((s.out_degree_histogram[2].min, s.out_degree_histogram[2].max), (2, 3));
    }

    #[test]
    fn cyclic_graph_reports_its_condensation() {
        // 0 <-> 1 -> 2 <-> 3 <-> 4, 2 -> 5
        let s = stats_of(6, &[(0, 1), (1, 0), (1, 2), (2, 3), (3, 4), (4, 2), (2, 5)]);
        assert!(!s.is_dag);
        assert_eq!((s.components, s.largest_component, s.dag_edges), (3, 3, 2));
        assert_eq!((s.roots, s.leaves, s.isolated, s.depth), (1, 1, 0, 3));
        assert_eq!((s.weak_components, s.largest_weak_component), (1, 6));
        assert_eq!(s.components_per_level, vec![1, 1, 1]);
        assert_eq!((s.edges, s.max_out_degree, s.max_in_degree), (7, 2, 2));
    }

    #[test]
    fn large_degrees_land_in_their_power_of_two_bucket() {
        let star: Vec<(u32, u32)> = (1..=1000).map(|v| (0, v)).collect();
        let s = stats_of(1001, &star);
        let last = s.out_degree_histogram.last().unwrap();
        assert_eq!((last.label.as_str(), last.count), ("512-1,023", 1));
        assert_eq!(s.out_degree_histogram.len(), 11);
        assert_eq!(s.out_degree_histogram.iter().map(|b| b.count).sum::<u64>(), 1001);
        assert_eq!(s.in_degree_histogram.len(), 2);
        let table = s.human_table();
        assert!(table.contains(&format!("  {:<20}{:>16}{:>16}\n", "512-1,023", "1", "0")), "{table}");
        assert!(!table.contains("  16-31 "), "empty buckets are left out of the table:\n{table}");
    }

    #[test]
    fn empty_graph_has_no_nan() {
        let s = stats_of(0, &[]);
        assert_eq!((s.depth, s.avg_out_degree), (0, 0.0));
        assert!(s.out_degree_histogram.is_empty());
        assert!(serde_json::to_string(&s).unwrap().contains("\"avg_out_degree\":0.0"));
        assert!(s.human_table().contains("vertices"));
    }

    #[test]
    fn table_is_aligned_with_separators() {
        let chain: Vec<(u32, u32)> = (0..1_233).map(|v| (v, v + 1)).collect();
        let table = stats_of(1_234, &chain).human_table();
        assert!(table.contains("vertices                         1,234\n"), "{table}");
        assert!(table.contains("depth (levels)                   1,234\n"));
        assert!(table.contains("weak components                      1\n"), "{table}");
        assert!(table.contains("largest weak component           1,234\n"), "{table}");
        // 1,234 levels in at most 12 rows of 103 levels each.
        assert!(table.contains("  levels 0-102                     103  ████████████████████████\n"), "{table}");
        assert!(table.contains("  levels 1,133-1,233               101  "));
        assert_eq!(table.lines().filter(|l| l.trim_start().starts_with("level")).count(), 12);
        assert!(table.contains(&format!("  {:<20}{:>16}{:>16}\n", "1", "1,233", "1,233")), "{table}");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(thousands(999), "999");
    }
}
