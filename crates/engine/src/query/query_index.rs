//! The query-side index: the per-vertex data the extra cuts read (docs/ALGORITHMS.md, section 13).
//!
//! Built after labeling from the DAG and its GRAIL labels, and kept apart from [`Labels`]: the
//! labels, their digest and their exceptions stay exactly GRAIL's, and `--rules grail` runs without
//! this index at all.
//!
//! Laid out by cost, like the rules that read it: the labels' 4-byte level comes first (not copied
//! here), then an 8-byte pair of topological positions per vertex (a small array that stays in
//! cache far longer than anything else), then a 48-byte record per vertex ([`VertexCuts`]: the
//! supportive-vertex masks and the Bloom filters), read only by the queries the cheaper cuts leave.
//! A copy of the levels in one or two bytes each where the depth allows ([`CompactLevels`]).
//! 56 to 58 bytes per vertex in all, less than 5-dimensional GRAIL labels' 64.

use super::index_passes::positions_and_cuts;
use super::supportive::{SUPPORT_BITS, choose_supportive};
use crate::graph::{Graph, topo};
use crate::index::Labels;
use crate::{Error, Result};
use std::time::Instant;

pub use super::bloom::BLOOM_WORDS;
pub use super::index_passes::{Posts, orders_from_posts};
pub use super::records::{TOPO_ORDERS, TopoPositions, VertexCuts};
pub use super::supportive::SUPPORT_WORDS;

/// Every vertex's topological positions and cut record, by DAG vertex.
pub type Records = (Vec<TopoPositions>, Vec<VertexCuts>);

/// The labels' levels again, in the fewest bytes that hold the DAG's depth. The level cut reads
/// two random levels per query and decides most of them; on a shallow graph a byte each keeps the
/// array in cache (uniprotenc_22m has depth 4: 1.6 MB instead of 6.4 MB, and random batches
/// answered 20% faster).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum CompactLevels {
    /// Every level at most 255: one byte per vertex.
    Byte(Vec<u8>),
    /// Every level at most 65,535: two bytes per vertex.
    Half(Vec<u16>),
    /// Deeper than 65,535 levels: the labels' own 4-byte levels serve, no copy.
    #[default]
    Full,
}

impl CompactLevels {
    fn of(levels: &[u32]) -> CompactLevels {
        let deepest = levels.iter().copied().max().unwrap_or(0);
        if deepest <= u32::from(u8::MAX) {
            CompactLevels::Byte(levels.iter().map(|&l| l as u8).collect())
        } else if deepest <= u32::from(u16::MAX) {
            CompactLevels::Half(levels.iter().map(|&l| l as u16).collect())
        } else {
            CompactLevels::Full
        }
    }

    fn heap_bytes(&self) -> usize {
        match self {
            CompactLevels::Byte(levels) => levels.len(),
            CompactLevels::Half(levels) => 2 * levels.len(),
            CompactLevels::Full => 0,
        }
    }
}

/// The extra cuts' data for every DAG vertex.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QueryIndex {
    levels: CompactLevels,
    topo: Vec<TopoPositions>,
    cuts: Vec<VertexCuts>,
    build_seconds: f64,
}

impl QueryIndex {
    /// Builds the index of `dag`, whose GRAIL labels are `labels` (checked to cover the same
    /// vertices; the cuts read the labels' levels and intervals themselves).
    pub fn build(dag: &Graph, labels: &Labels) -> Result<QueryIndex> {
        let n = dag.num_vertices();
        if labels.num_vertices() != n {
            let covered = labels.num_vertices();
            return Err(Error::InvalidInput(format!("the labels cover {covered} vertices, the DAG has {n}")));
        }
        QueryIndex::build_for(dag)
    }

    /// Builds the index of `dag` from the DAG alone: nothing in it depends on the labels (their
    /// levels are the DAG's Kahn levels), so it can be built while they are. Fails on a cycle.
    pub fn build_for(dag: &Graph) -> Result<QueryIndex> {
        QueryIndex::build_with(dag, |_| Ok(None))
    }

    /// Builds the index with the records `elsewhere` gives for the supportive vertices it is
    /// handed (the GPU's, see `backend::query_index`), or on the CPU where it gives none. `elsewhere`
    /// may fail with any error an engine error converts into.
    pub fn build_with<E: From<Error>>(
        dag: &Graph,
        elsewhere: impl FnOnce(&[u32]) -> Result<Option<Records>, E>,
    ) -> Result<QueryIndex, E> {
        let clock = Instant::now();
        // The passes rely on the graph being acyclic; its (memoised) levels say so.
        let levels = CompactLevels::of(topo::kahn(dag)?.level);
        let levels_seconds = clock.elapsed().as_secs_f64();
        let supportive = Self::supportive(dag);
        let supportive_seconds = clock.elapsed().as_secs_f64() - levels_seconds;
        let (positions, cuts) = match elsewhere(&supportive)? {
            Some(records) => records,
            None => positions_and_cuts(dag, &supportive),
        };
        if super::index_passes::profiling() {
            eprintln!(
                "index profile: levels {:.1} ms, supportive {:.1} ms, total {:.1} ms",
                levels_seconds * 1e3,
                supportive_seconds * 1e3,
                clock.elapsed().as_secs_f64() * 1e3
            );
        }
        Ok(QueryIndex { levels, topo: positions, cuts, build_seconds: clock.elapsed().as_secs_f64() })
    }

    /// DAG vertex `v`'s masks and filters.
    #[inline]
    pub fn of(&self, v: u32) -> &VertexCuts {
        &self.cuts[v as usize]
    }

    /// DAG vertex `v`'s positions in the topological orders.
    #[inline]
    pub fn topo(&self, v: u32) -> &TopoPositions {
        &self.topo[v as usize]
    }

    /// The labels' levels in fewer bytes, where the depth allows.
    pub fn compact_levels(&self) -> &CompactLevels {
        &self.levels
    }

    /// Every vertex's record, indexed by DAG vertex.
    pub fn records(&self) -> &[VertexCuts] {
        &self.cuts
    }

    /// Every vertex's positions in the topological orders, by DAG vertex.
    pub fn topo_positions(&self) -> &[TopoPositions] {
        &self.topo
    }

    /// Vertices of the DAG the index describes.
    pub fn num_vertices(&self) -> usize {
        self.cuts.len()
    }

    /// The supportive vertices of `dag`: bit `i` of the support masks stands for the `i`-th. Chosen
    /// again on demand (deterministic, and only explanations ask), so the index keeps no list.
    pub fn supportive(dag: &Graph) -> Vec<u32> {
        choose_supportive(dag, SUPPORT_BITS)
    }

    /// Seconds [`QueryIndex::build`] took (part of the index time).
    pub fn build_seconds(&self) -> f64 {
        self.build_seconds
    }

    /// Bytes held (part of the index size): 56 to 58 per vertex, less than 5-dimensional GRAIL
    /// labels take (40 interval bytes, 20 subtree bytes, 4 level bytes).
    pub fn heap_bytes(&self) -> usize {
        self.levels.heap_bytes()
            + self.topo.len() * std::mem::size_of::<TopoPositions>()
            + self.cuts.len() * std::mem::size_of::<VertexCuts>()
    }
}

/// 1-based DFS post-order numbers of a whole DAG, given as CSR arrays, started from `starts` in
/// order (every vertex is below some start). Iterative: a stack of (vertex, next edge). The
/// reference for the fused passes' orders.
#[cfg(test)]
fn dfs_post_order(offsets: &[u64], targets: &[u32], starts: &[u32]) -> Vec<u32> {
    let n = offsets.len() - 1;
    let mut post = vec![0u32; n];
    let mut seen = vec![false; n];
    let mut stack: Vec<(u32, usize)> = Vec::new();
    let mut next = 0u32;
    for &s in starts {
        if seen[s as usize] {
            continue;
        }
        seen[s as usize] = true;
        stack.push((s, offsets[s as usize] as usize));
        while let Some(top) = stack.last_mut() {
            let (v, i) = *top;
            if i < offsets[v as usize + 1] as usize {
                top.1 += 1;
                let c = targets[i];
                if !seen[c as usize] {
                    seen[c as usize] = true;
                    stack.push((c, offsets[c as usize] as usize));
                }
            } else {
                next += 1;
                post[v as usize] = next;
                stack.pop();
            }
        }
    }
    post
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{Order, dfs};
    use crate::query::bloom::{BLOOM_WORDS, bit_of};
    use crate::query::oracle::TransitiveClosure;
    use crate::query::supportive::has_bit;

    /// The passes' records, field by field, against the reference passes along a topological order.
    fn assert_same_as_reference(g: &Graph) {
        use crate::query::bloom::bloom_bits;
        use crate::query::supportive::support_bits;
        let n = g.num_vertices();
        let kahn = topo::kahn(g).unwrap().order;
        let forward = dfs_post_order(g.children_csr().offsets(), g.children_csr().targets(), &g.roots());
        let backward = dfs_post_order(g.parents_csr().offsets(), g.parents_csr().targets(), &g.leaves());
        let supportive = QueryIndex::supportive(g);
        let (from, to) = support_bits(g, kahn, &supportive);
        let (out, inn) = bloom_bits(g, kahn, &forward, &backward);
        // The orders as the GPU computes them: the `lex` labels' post numbers, of the DAG and of
        // the DAG reversed.
        let lex_post =
            |g: &Graph| dfs::label(g, 1, Order::Lex).unwrap().intervals().iter().map(|i| i.post).collect::<Vec<_>>();
        let posts = Posts { forward: lex_post(g), backward: lex_post(&g.reversed()) };
        let (topo, [forward_bits, backward_bits]) = orders_from_posts(&posts);
        for v in 0..n {
            assert_eq!(topo[v], [n as u32 - forward[v], backward[v] - 1], "vertex {v}, from the lex labels");
            let own = (usize::from(forward_bits[v]), usize::from(backward_bits[v]));
            assert_eq!(own, (bit_of(forward[v], n), bit_of(backward[v], n)), "vertex {v}'s own bits");
        }
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let (topo, cuts) = pool.install(|| positions_and_cuts(g, &supportive));
            for v in 0..n {
                assert_eq!(topo[v], [n as u32 - forward[v], backward[v] - 1], "vertex {v}, {threads} threads");
                let expect =
                    VertexCuts { from_support: from[v], to_support: to[v], bloom_out: out[v], bloom_in: inn[v] };
                assert_eq!(cuts[v], expect, "vertex {v}, {threads} threads");
            }
            // Each order numbers the vertices 0..n, once each.
            for side in 0..TOPO_ORDERS {
                let mut positions: Vec<u32> = topo.iter().map(|t| t[side]).collect();
                positions.sort_unstable();
                assert!(positions.iter().copied().eq(0..n as u32), "order {side}, {threads} threads");
            }
        }
    }

    #[test]
    fn the_passes_give_the_reference_records() {
        use crate::graph::generators::{chain, random_dag, tree};
        let graphs = [random_dag(3000, 3.0, 1), random_dag(500, 12.0, 2), tree(2000, 3), chain(700)];
        for g in graphs {
            assert_same_as_reference(&g.unwrap());
        }
        // A vertex whose children, and one whose parents, are ORed in parallel chunks.
        let star = tree(70_001, 70_000).unwrap();
        assert_same_as_reference(&star);
        assert_same_as_reference(&star.reversed());
        // Isolated vertices, a vertex with many parents, more supportive candidates than bits.
        let mut edges: Vec<(u32, u32)> = (0..300u32).map(|v| (v, 300)).collect();
        edges.extend((301..600u32).map(|v| (v, v + 1)));
        assert_same_as_reference(&Graph::from_edges(700, &edges).unwrap());
        // Levels wide enough to be filled by several threads at once: 3,000 roots over 40 hubs
        // over 2,000 sinks.
        let mut edges: Vec<(u32, u32)> =
            (0..3000u32).flat_map(|v| [(v, 3000 + v % 40), (v, 3000 + (v * 7) % 40)]).collect();
        edges.extend((0..2000u32).flat_map(|v| [(3000 + v % 40, 3040 + v), (3000 + (v * 3) % 40, 3040 + v)]));
        assert_same_as_reference(&Graph::from_edges(5040, &edges).unwrap());
    }

    #[test]
    fn levels_take_the_fewest_bytes_that_hold_the_depth() {
        assert!(matches!(CompactLevels::of(&[0, 255, 3]), CompactLevels::Byte(l) if l == [0, 255, 3]));
        assert!(matches!(CompactLevels::of(&[0, 256]), CompactLevels::Half(l) if l == [0, 256]));
        assert!(matches!(CompactLevels::of(&[65_536, 1]), CompactLevels::Full));
        assert_eq!(CompactLevels::of(&[70_000]).heap_bytes(), 0);
    }

    #[test]
    fn the_index_takes_56_bytes_per_vertex_besides_its_levels() {
        assert_eq!(std::mem::size_of::<VertexCuts>() + std::mem::size_of::<TopoPositions>(), 56);
    }

    #[test]
    fn every_field_agrees_with_the_closure() {
        // A small layered DAG with shared descendants.
        let edges: Vec<(u32, u32)> = (0..60u32).flat_map(|v| [(v, v + 3 + v % 5), (v, v + 11)]).collect();
        let g = Graph::from_edges(72, &edges).unwrap();
        let labels = dfs::label(&g, 2, Order::Random { seed: 5 }).unwrap();
        let index = QueryIndex::build(&g, &labels).unwrap();
        let closure = TransitiveClosure::new(&g).unwrap();
        let n = g.num_vertices() as u32;
        for u in 0..n {
            for v in 0..n {
                let (a, b) = (index.of(u), index.of(v));
                if u != v && closure.reachable(u, v) {
                    assert!(index.topo(u).iter().zip(index.topo(v)).all(|(x, y)| x < y), "{u} {v}");
                    for w in 0..BLOOM_WORDS {
                        assert_eq!(b.bloom_out[w] & !a.bloom_out[w], 0);
                        assert_eq!(a.bloom_in[w] & !b.bloom_in[w], 0);
                    }
                }
            }
            for (i, &s) in QueryIndex::supportive(&g).iter().enumerate() {
                assert_eq!(has_bit(&index.of(u).from_support, i), closure.reachable(s, u));
                assert_eq!(has_bit(&index.of(u).to_support, i), closure.reachable(u, s));
            }
        }
        // A shallow DAG: its levels are copied in a byte each.
        let CompactLevels::Byte(levels) = index.compact_levels() else { panic!("a shallow DAG's levels fit a byte") };
        assert!(levels.iter().zip(labels.levels()).all(|(&a, &b)| u32::from(a) == b));
        assert_eq!(index.heap_bytes(), 57 * 72);
        assert!(index.build_seconds() >= 0.0);
    }
}
