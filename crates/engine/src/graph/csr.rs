//! Compressed sparse rows: the one adjacency layout every algorithm reads.
//!
//! Vertex ids are `u32`, edge offsets `u64` (graphs with more than 4G edges still index correctly).
//! The arrays are [`Slab`]s: vectors for graphs built in memory, the file's own bytes for a mapped
//! `.grail` file. Construction is parallel (counting and scattering with atomic cursors, then
//! sorting each list), so loading keeps every core busy.

use super::slab::Slab;
use crate::{Error, Result};
use rayon::prelude::*;

/// Vertices per parallel task when a pass walks lists vertex by vertex.
const VERTEX_BLOCK: usize = 4096;
/// Edges per parallel task when a pass walks an edge array.
const EDGE_BLOCK: usize = 1 << 16;

/// One direction of adjacency: `targets[offsets[v]..offsets[v + 1]]` are the neighbours of `v`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Csr {
    offsets: Slab<u64>,
    targets: Slab<u32>,
}

impl Csr {
    /// Builds from raw arrays. `offsets` has `n + 1` non-decreasing entries ending at `targets.len()`.
    pub fn from_parts(offsets: Vec<u64>, targets: Vec<u32>) -> Result<Csr> {
        Csr::from_slabs(offsets.into(), targets.into())
    }

    /// Builds from arrays that may lie in a mapped file: checked (in parallel) exactly as
    /// [`Csr::from_parts`], so a corrupt file cannot make a later lookup index out of bounds.
    pub fn from_slabs(offsets: Slab<u64>, targets: Slab<u32>) -> Result<Csr> {
        let Some(&last) = offsets.last() else {
            return Err(Error::InvalidGraph("CSR offsets must have n + 1 entries".into()));
        };
        if offsets[0] != 0 || last != targets.len() as u64 || offsets.par_windows(2).any(|w| w[0] > w[1]) {
            return Err(Error::InvalidGraph("CSR offsets are not a non-decreasing prefix of the target array".into()));
        }
        let n = offsets.len() - 1;
        if targets.par_chunks(EDGE_BLOCK).any(|c| c.iter().any(|&t| t as usize >= n)) {
            return Err(Error::InvalidGraph(format!(
                "a CSR target is not one of the vertices {}",
                crate::format::ids(n as u64)
            )));
        }
        Ok(Csr { offsets, targets })
    }

    /// Builds from arrays its caller built correctly (a parser that checked every id): the checks
    /// of [`Csr::from_parts`] run in debug builds only.
    pub(crate) fn from_trusted(offsets: Vec<u64>, targets: Vec<u32>) -> Csr {
        debug_assert!(Csr::from_parts(offsets.clone(), targets.clone()).is_ok());
        Csr { offsets: offsets.into(), targets: targets.into() }
    }

    /// An empty adjacency on `n` vertices.
    pub fn empty(n: usize) -> Csr {
        Csr { offsets: vec![0; n + 1].into(), targets: Slab::default() }
    }

    /// Vertices (one adjacency list each).
    pub fn num_vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Entries over all lists.
    pub fn num_edges(&self) -> usize {
        self.targets.len()
    }

    /// `v`'s list. Panics if `v` is not a vertex.
    #[inline]
    pub fn neighbors(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.targets[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }

    /// The length of `v`'s list. Panics if `v` is not a vertex.
    #[inline]
    pub fn degree(&self, v: u32) -> usize {
        let v = v as usize;
        (self.offsets[v + 1] - self.offsets[v]) as usize
    }

    /// `num_vertices + 1` offsets into [`Csr::targets`]: `v`'s list is `offsets[v]..offsets[v + 1]`.
    pub fn offsets(&self) -> &[u64] {
        &self.offsets
    }

    /// Every list, one after another, in vertex order.
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }

    /// Whether the arrays are a mapped file's bytes (then they are not on the heap).
    pub fn is_mapped(&self) -> bool {
        self.targets.is_mapped()
    }

    /// Bytes held by the two arrays (for memory accounting).
    pub fn heap_bytes(&self) -> usize {
        self.offsets.len() * 8 + self.targets.len() * 4
    }

    /// The reverse adjacency, every list sorted by id (sources are visited in increasing order,
    /// part by part, so no sort is needed).
    pub fn transpose(&self) -> Csr {
        let parts = parts_for(self.num_vertices(), self.num_edges());
        let ranges = balanced_ranges(&self.offsets, parts);
        let (offsets, targets) = group_by_key(self.num_vertices(), &ReversedCsr { csr: self, ranges });
        Csr { offsets: offsets.into(), targets: targets.into() }
    }

    /// The children CSR of edges given in slices (self-loops dropped, lists sorted, duplicates
    /// removed), so that a loader can free the slices before the parents are built.
    pub fn children_of_edges(n: usize, slices: &[&[(u32, u32)]]) -> Result<Csr> {
        Csr::children_of_edges_noting_repeats(n, slices).map(|(csr, _)| csr)
    }

    /// [`Csr::children_of_edges`], with the sources whose list had a repeated edge, ascending
    /// (found where the lists are compacted, so at no cost when nothing repeats).
    pub(crate) fn children_of_edges_noting_repeats(n: usize, slices: &[&[(u32, u32)]]) -> Result<(Csr, Vec<u32>)> {
        if n > u32::MAX as usize {
            return Err(Error::InvalidGraph(format!("{n} vertices do not fit 32-bit vertex ids")));
        }
        let pieces: Vec<&[(u32, u32)]> = slices.iter().flat_map(|s| s.chunks(EDGE_BLOCK)).collect();
        let outside = pieces
            .par_iter()
            .find_map_first(|piece| piece.iter().find(|&&(u, v)| u as usize >= n || v as usize >= n).copied());
        if let Some((u, v)) = outside {
            return Err(Error::InvalidGraph(format!(
                "edge {u} → {v} names a vertex outside {}",
                crate::format::ids(n as u64)
            )));
        }
        Ok(children_from_pieces(n, &pieces))
    }

    /// Same structure with every list reordered by `key` (ties keep their relative order). The
    /// offsets are shared with `self`, not copied.
    pub fn sorted_by_key<K: Ord>(&self, key: impl Fn(u32) -> K + Sync) -> Csr {
        let mut targets = self.targets.to_vec();
        for_each_list(&self.offsets, &mut targets, |list| list.sort_by_key(|&t| key(t)));
        Csr { offsets: self.offsets.clone(), targets: targets.into() }
    }
}

/// How many parts a grouping pass splits its edges into: one per thread, but each part counts
/// into its own `4n`-byte array, so no more parts than keep those arrays under half the edges'
/// bytes (a sparse graph is grouped by fewer threads rather than with more memory).
fn parts_for(n: usize, m: usize) -> usize {
    rayon::current_num_threads().min(m / (2 * n.max(1))).max(1)
}

/// Cuts `0..n` (n = offsets.len() - 1) into `parts` ranges holding about as many edges each.
fn balanced_ranges(offsets: &[u64], parts: usize) -> Vec<std::ops::Range<usize>> {
    let n = offsets.len() - 1;
    let m = offsets[n];
    let mut cuts: Vec<usize> =
        (0..=parts).map(|p| offsets.partition_point(|&o| o < m * p as u64 / parts as u64)).collect();
    cuts[0] = 0;
    cuts[parts] = n;
    cuts.windows(2).map(|w| w[0]..w[1].max(w[0])).collect()
}

/// Edges (or any `(key, value)` pairs) to group, cut into parts that each emit their pairs
/// sequentially.
trait PartedEdges: Sync {
    fn parts(&self) -> usize;
    fn for_each(&self, part: usize, f: impl FnMut(u32, u32));
}

/// A CSR's edges reversed: `(target, source)`, a part being a range of sources.
struct ReversedCsr<'a> {
    csr: &'a Csr,
    ranges: Vec<std::ops::Range<usize>>,
}

impl PartedEdges for ReversedCsr<'_> {
    fn parts(&self) -> usize {
        self.ranges.len()
    }

    #[inline]
    fn for_each(&self, part: usize, mut f: impl FnMut(u32, u32)) {
        for u in self.ranges[part].clone() {
            for &t in self.csr.neighbors(u as u32) {
                f(t, u as u32);
            }
        }
    }
}

/// Edge slices `(source, target)` without self-loops, a part being a run of consecutive pieces.
struct EdgePieces<'a> {
    pieces: &'a [&'a [(u32, u32)]],
    parts: Vec<std::ops::Range<usize>>,
}

impl PartedEdges for EdgePieces<'_> {
    fn parts(&self) -> usize {
        self.parts.len()
    }

    #[inline]
    fn for_each(&self, part: usize, mut f: impl FnMut(u32, u32)) {
        for piece in &self.pieces[self.parts[part].clone()] {
            for &(u, v) in *piece {
                if u != v {
                    f(u, v);
                }
            }
        }
    }
}

/// Groups the values by key into CSR arrays, every part in parallel and without atomics: each
/// part counts its keys in its own array, the counts become each part's write position inside
/// every list, and each part writes its values there. A list holds its values part by part, each
/// part's in the order it emitted them (so the output does not depend on the thread count).
fn group_by_key(n: usize, edges: &impl PartedEdges) -> (Vec<u64>, Vec<u32>) {
    let parts = edges.parts();
    let mut counts: Vec<Vec<u32>> = (0..parts)
        .into_par_iter()
        .map(|p| {
            let mut count = vec![0u32; n];
            edges.for_each(p, |k, _| count[k as usize] += 1);
            count
        })
        .collect();
    // Per vertex block: each part's count becomes its start inside the list, the sum the degree,
    // written one slot ahead in the offsets, which then sum up in place.
    let mut offsets = vec![0u64; n + 1];
    let mut by_block: Vec<Vec<&mut [u32]>> = (0..n.div_ceil(VERTEX_BLOCK)).map(|_| Vec::with_capacity(parts)).collect();
    for count in &mut counts {
        for (block, chunk) in by_block.iter_mut().zip(count.chunks_mut(VERTEX_BLOCK)) {
            block.push(chunk);
        }
    }
    by_block.into_par_iter().zip(offsets[1..].par_chunks_mut(VERTEX_BLOCK)).for_each(|(mut block, degree)| {
        for (i, d) in degree.iter_mut().enumerate() {
            let mut running = 0u32;
            for count in block.iter_mut() {
                let c = count[i];
                count[i] = running;
                running += c;
            }
            *d = u64::from(running);
        }
    });
    running_sums(&mut offsets);
    let sum = offsets[n];
    let mut targets = vec![0u32; sum as usize];
    let out = SharedOut(targets.as_mut_ptr());
    counts.par_iter_mut().enumerate().for_each(|(p, start)| {
        edges.for_each(p, |k, v| {
            let k = k as usize;
            let slot = offsets[k] + u64::from(start[k]);
            start[k] += 1;
            // SAFETY: part p owns the slots offsets[k] + (the counts of the parts before p) ..
            // + (its own count) of every list k, and writes each once.
            unsafe { out.write(slot as usize, v) };
        });
    });
    (offsets, targets)
}

/// Replaces every value by the sum of it and all before it, in parallel: each block sums itself,
/// then adds the total of the blocks before it (a pass on one thread over millions of offsets was a
/// visible pause of every CSR built).
pub(crate) fn running_sums<T>(values: &mut [T])
where
    T: Copy + Default + PartialEq + std::ops::AddAssign + Send + Sync,
{
    let totals: Vec<T> = values
        .par_chunks_mut(EDGE_BLOCK)
        .map(|block| {
            let mut sum = T::default();
            for x in block {
                sum += *x;
                *x = sum;
            }
            sum
        })
        .collect();
    let starts: Vec<T> = totals
        .iter()
        .scan(T::default(), |sum, &t| {
            let start = *sum;
            *sum += t;
            Some(start)
        })
        .collect();
    values.par_chunks_mut(EDGE_BLOCK).zip(starts).for_each(|(block, start)| {
        if start != T::default() {
            block.iter_mut().for_each(|x| *x += start);
        }
    });
}

/// Ranges of vertices for parallel passes.
fn vertex_blocks(n: usize) -> Vec<std::ops::Range<usize>> {
    (0..n.div_ceil(VERTEX_BLOCK)).map(|b| b * VERTEX_BLOCK..((b + 1) * VERTEX_BLOCK).min(n)).collect()
}

/// A raw pointer into an output array whose slots parallel writers are handed one each.
#[derive(Clone, Copy)]
struct SharedOut(*mut u32);

// SAFETY: writers only ever write distinct slots (see each use), and the array outlives the pass.
unsafe impl Send for SharedOut {}
unsafe impl Sync for SharedOut {}

impl SharedOut {
    /// # Safety
    /// `slot` is in bounds and no other thread reads or writes it during the pass.
    #[inline]
    unsafe fn write(self, slot: usize, value: u32) {
        unsafe { self.0.add(slot).write(value) }
    }
}

/// Runs `f` on every adjacency list of a CSR, blocks of vertices in parallel.
fn for_each_list(offsets: &[u64], targets: &mut [u32], f: impl Fn(&mut [u32]) + Sync) {
    for_each_block(offsets, targets, |block_offsets, block| {
        let base = block_offsets[0];
        for w in block_offsets.windows(2) {
            f(&mut block[(w[0] - base) as usize..(w[1] - base) as usize]);
        }
    });
}

/// Cuts the target array at vertex-block boundaries and hands each block (its `len + 1` offsets
/// and its targets) to `f` in parallel.
fn for_each_block(offsets: &[u64], targets: &mut [u32], f: impl Fn(&[u64], &mut [u32]) + Sync) {
    let n = offsets.len().saturating_sub(1);
    let mut blocks = Vec::with_capacity(n.div_ceil(VERTEX_BLOCK));
    let mut rest = targets;
    for range in vertex_blocks(n) {
        let len = (offsets[range.end] - offsets[range.start]) as usize;
        let (head, tail) = rest.split_at_mut(len);
        blocks.push((range, head));
        rest = tail;
    }
    blocks.into_par_iter().for_each(|(range, block)| f(&offsets[range.start..=range.end], block));
}

/// Builds the children CSR of `pieces` (edge slices) on `n` vertices in parallel: self-loops
/// dropped, lists sorted, duplicates removed. Endpoints are in range (checked by the caller).
fn children_from_pieces(n: usize, pieces: &[&[(u32, u32)]]) -> (Csr, Vec<u32>) {
    let m: usize = pieces.iter().map(|p| p.len()).sum();
    let parts = parts_for(n, m).min(pieces.len()).max(1);
    let ranges = (0..parts).map(|p| p * pieces.len() / parts..(p + 1) * pieces.len() / parts).collect();
    let (offsets, targets) = group_by_key(n, &EdgePieces { pieces, parts: ranges });
    sort_and_dedup(offsets, targets)
}

/// Sorts every list and removes duplicates (in parallel; the compaction only runs when a
/// duplicate was found, and notes the sources whose list shrank).
fn sort_and_dedup(offsets: Vec<u64>, mut targets: Vec<u32>) -> (Csr, Vec<u32>) {
    let n = offsets.len() - 1;
    let mut unique = vec![0u64; n];
    // Each block of vertices sorts and dedups its lists in place and records their new lengths.
    let mut blocks = Vec::with_capacity(n.div_ceil(VERTEX_BLOCK));
    let mut rest: &mut [u32] = &mut targets;
    for (range, lens) in vertex_blocks(n).into_iter().zip(unique.chunks_mut(VERTEX_BLOCK)) {
        let (head, tail) = rest.split_at_mut((offsets[range.end] - offsets[range.start]) as usize);
        blocks.push((&offsets[range.start..=range.end], head, lens));
        rest = tail;
    }
    blocks.into_par_iter().for_each(|(block_offsets, block, lens)| {
        let base = block_offsets[0];
        for (len, w) in lens.iter_mut().zip(block_offsets.windows(2)) {
            let list = &mut block[(w[0] - base) as usize..(w[1] - base) as usize];
            list.sort_unstable();
            *len = dedup_sorted(list) as u64;
        }
    });
    let total: u64 = unique.par_iter().sum();
    if total == targets.len() as u64 {
        return (Csr { offsets: offsets.into(), targets: targets.into() }, Vec::new());
    }
    let mut new_offsets = Vec::with_capacity(n + 1);
    new_offsets.push(0u64);
    let mut write = 0usize;
    let mut shrunk = Vec::new();
    for v in 0..n {
        let start = offsets[v] as usize;
        let len = unique[v] as usize;
        if (offsets[v + 1] - offsets[v]) as usize != len {
            shrunk.push(v as u32);
        }
        targets.copy_within(start..start + len, write);
        write += len;
        new_offsets.push(write as u64);
    }
    targets.truncate(write);
    targets.shrink_to_fit();
    (Csr { offsets: new_offsets.into(), targets: targets.into() }, shrunk)
}

/// Moves the distinct values of a sorted list to its front; returns how many there are.
fn dedup_sorted(list: &mut [u32]) -> usize {
    if list.is_empty() {
        return 0;
    }
    let mut write = 1;
    for read in 1..list.len() {
        if list[read] != list[write - 1] {
            list[write] = list[read];
            write += 1;
        }
    }
    write
}

/// A directed graph: children and parents, both sorted by id, no self-loops, no duplicate edges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    children: Csr,
    parents: Csr,
    /// Its Kahn levels and topological order, once computed (`topo::levels`): condensing checks
    /// that a graph is a DAG by computing them, and the labelers and the query index need them
    /// again: computing them twice would be a large share of a labeling run.
    kahn: Memo<KahnMemo>,
}

/// `topo::levels`' results: each vertex's level, the vertices level by level, and where each
/// level starts among them (then the end).
pub(crate) type KahnMemo = (Vec<u32>, Vec<u32>, Vec<usize>);

/// A value computed once from an immutable graph and kept beside it: not part of its identity
/// (two graphs with the same lists are equal whether or not either has computed it).
#[derive(Clone, Debug, Default)]
pub(crate) struct Memo<T>(std::sync::OnceLock<T>);

impl<T> Memo<T> {
    /// The value, if computed.
    pub(crate) fn get(&self) -> Option<&T> {
        self.0.get()
    }

    pub(crate) fn get_or_try_init<E>(&self, init: impl FnOnce() -> Result<T, E>) -> Result<&T, E> {
        if let Some(value) = self.get() {
            return Ok(value);
        }
        let value = init()?;
        Ok(self.0.get_or_init(|| value))
    }

    /// Keeps `value` unless one was computed already.
    pub(crate) fn offer(&self, value: T) {
        let _ = self.0.set(value);
    }
}

impl<T> PartialEq for Memo<T> {
    fn eq(&self, _: &Memo<T>) -> bool {
        true
    }
}

impl<T> Eq for Memo<T> {}

impl Graph {
    /// Builds from an edge list on vertices `0..n`: drops self-loops and duplicates, sorts lists.
    /// An endpoint `>= n` is an error (parsers check earlier and name the line; this is the backstop).
    pub fn from_edges(n: usize, edges: &[(u32, u32)]) -> Result<Graph> {
        Graph::from_edge_slices(n, &[edges])
    }

    /// [`Graph::from_edges`] on edges given in several slices (the chunks a parallel parser
    /// produced), without concatenating them.
    pub fn from_edge_slices(n: usize, slices: &[&[(u32, u32)]]) -> Result<Graph> {
        Ok(Graph::from_clean_children(Csr::children_of_edges(n, slices)?))
    }

    /// Builds from one list of children per vertex (any order, duplicates allowed).
    pub fn from_adjacency(lists: &[Vec<u32>]) -> Result<Graph> {
        let edges: Vec<(u32, u32)> =
            lists.iter().enumerate().flat_map(|(u, l)| l.iter().map(move |&v| (u as u32, v))).collect();
        Self::from_edges(lists.len(), &edges)
    }

    /// Builds from children lists the caller guarantees sorted, duplicate-free and loop-free (a
    /// parser that cleaned each list as it read it); builds the parents.
    pub(crate) fn from_clean_children(children: Csr) -> Graph {
        let parents = children.transpose();
        Graph { children, parents, kahn: Memo::default() }
    }

    /// Both directions as stored (a `.grail` file): the caller has checked that they are sorted,
    /// duplicate-free, loop-free and each other's transpose, or trusts a checksum for the last.
    pub(crate) fn from_both(children: Csr, parents: Csr) -> Result<Graph> {
        if children.num_vertices() != parents.num_vertices() || children.num_edges() != parents.num_edges() {
            return Err(Error::InvalidGraph(
                "the children and parents lists disagree on the vertex or edge count".into(),
            ));
        }
        Ok(Graph { children, parents, kahn: Memo::default() })
    }

    /// The same graph with every edge turned round: children become parents. Shares the lists
    /// (nothing is copied); its Kahn levels are its own, counted from the sinks.
    pub fn reversed(&self) -> Graph {
        Graph { children: self.parents.clone(), parents: self.children.clone(), kahn: Memo::default() }
    }

    /// Builds from a children CSR whose lists are sorted and duplicate-free (checked).
    /// The graph of these child lists (parents are derived). Fails if a list is not strictly
    /// increasing or holds its own vertex (a self-loop).
    pub fn from_children(children: Csr) -> Result<Graph> {
        if let Some(v) = first_unclean_list(&children) {
            return Err(Error::InvalidGraph(format!("children of {v} are not sorted, unique and loop-free")));
        }
        Ok(Graph::from_clean_children(children))
    }

    /// Vertices, numbered `0..num_vertices`.
    pub fn num_vertices(&self) -> usize {
        self.children.num_vertices()
    }

    /// Edges (each counted once).
    pub fn num_edges(&self) -> usize {
        self.children.num_edges()
    }

    /// The heads of `v`'s out-edges, by increasing id. Panics if `v` is not a vertex.
    #[inline]
    pub fn children(&self, v: u32) -> &[u32] {
        self.children.neighbors(v)
    }

    /// The tails of `v`'s in-edges, by increasing id. Panics if `v` is not a vertex.
    #[inline]
    pub fn parents(&self, v: u32) -> &[u32] {
        self.parents.neighbors(v)
    }

    /// The memo of `topo::levels`.
    pub(crate) fn kahn_memo(&self) -> &Memo<KahnMemo> {
        &self.kahn
    }

    /// Every vertex's children as one adjacency.
    pub fn children_csr(&self) -> &Csr {
        &self.children
    }

    /// Every vertex's parents as one adjacency.
    pub fn parents_csr(&self) -> &Csr {
        &self.parents
    }

    /// Vertices without parents, by increasing id.
    pub fn roots(&self) -> Vec<u32> {
        (0..self.num_vertices() as u32).filter(|&v| self.parents.degree(v) == 0).collect()
    }

    /// Vertices without children, by increasing id.
    pub fn leaves(&self) -> Vec<u32> {
        (0..self.num_vertices() as u32).filter(|&v| self.children.degree(v) == 0).collect()
    }

    /// All edges `(u, v)` in CSR order.
    pub fn edges(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.num_vertices() as u32).flat_map(move |u| self.children(u).iter().map(move |&v| (u, v)))
    }

    /// Bytes held by both adjacencies (for memory accounting).
    pub fn heap_bytes(&self) -> usize {
        self.children.heap_bytes() + self.parents.heap_bytes()
    }
}

/// The first vertex whose list is not strictly increasing or holds the vertex itself.
pub(crate) fn first_unclean_list(csr: &Csr) -> Option<u32> {
    vertex_blocks(csr.num_vertices()).into_par_iter().find_map_first(|block| {
        block.map(|v| v as u32).find(|&v| {
            let l = csr.neighbors(v);
            l.windows(2).any(|w| w[0] >= w[1]) || l.binary_search(&v).is_ok()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_loops_and_duplicates_and_sorts() {
        let g = Graph::from_edges(4, &[(0, 2), (0, 1), (0, 2), (1, 1), (3, 0), (2, 3)]).unwrap();
        assert_eq!(g.children(0), &[1, 2]);
        assert_eq!(g.children(1), &[] as &[u32]);
        assert_eq!(g.parents(0), &[3]);
        assert_eq!(g.parents(2), &[0]);
        assert_eq!(g.num_edges(), 4);
        assert_eq!(g.roots(), Vec::<u32>::new());
        assert_eq!(g.leaves(), vec![1]);
    }

    #[test]
    fn running_sums_match_a_sequential_scan() {
        for len in [0, 1, EDGE_BLOCK - 1, EDGE_BLOCK, 3 * EDGE_BLOCK + 17] {
            let values: Vec<u64> = (0..len as u64).map(|i| i * 7919 % 13).collect();
            let mut sums = values.clone();
            running_sums(&mut sums);
            let mut acc = 0;
            let expected: Vec<u64> = values
                .iter()
                .map(|&x| {
                    acc += x;
                    acc
                })
                .collect();
            assert_eq!(sums, expected, "{len} values");
        }
    }

    #[test]
    fn out_of_range_is_an_error() {
        assert!(Graph::from_edges(2, &[(0, 2)]).is_err());
    }

    #[test]
    fn parallel_build_matches_a_sequential_reference() {
        // Enough edges for many blocks and pieces, with duplicates and loops.
        let n = 10_000u32;
        let edges: Vec<(u32, u32)> =
            (0..300_000u64).map(|i| ((i * 7919 % n as u64) as u32, (i * i % n as u64) as u32)).collect();
        let g = Graph::from_edge_slices(n as usize, &[&edges[..1000], &edges[1000..]]).unwrap();
        let mut reference: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
        for &(u, v) in &edges {
            if u != v {
                reference[u as usize].push(v);
            }
        }
        for (u, list) in reference.iter_mut().enumerate() {
            list.sort_unstable();
            list.dedup();
            assert_eq!(g.children(u as u32), &list[..], "children of {u}");
        }
        assert_eq!(g.parents_csr().transpose(), *g.children_csr());
        assert_eq!(first_unclean_list(g.children_csr()), None);
        assert!(Graph::from_children(Csr::from_parts(vec![0, 2, 2], vec![1, 1]).unwrap()).is_err());
    }

    #[test]
    fn corrupt_parts_are_refused() {
        assert!(Csr::from_parts(vec![0, 2, 1], vec![0]).is_err(), "decreasing");
        assert!(Csr::from_parts(vec![1, 1], vec![0]).is_err(), "not starting at 0");
        assert!(Csr::from_parts(vec![0, 1], vec![1]).is_err(), "target out of range");
        assert!(Csr::from_parts(vec![], vec![]).is_err(), "no offsets");
    }

    #[test]
    fn transpose_twice_is_identity() {
        let g = Graph::from_edges(5, &[(0, 4), (4, 1), (2, 1), (2, 3), (0, 3)]).unwrap();
        assert_eq!(g.parents_csr().transpose(), *g.children_csr());
    }

    #[test]
    fn reversed_turns_every_edge_round() {
        let g = Graph::from_edges(5, &[(0, 4), (4, 1), (2, 1), (2, 3), (0, 3)]).unwrap();
        let r = g.reversed();
        let expected = Graph::from_edges(5, &[(4, 0), (1, 4), (1, 2), (3, 2), (3, 0)]).unwrap();
        assert_eq!(r, expected);
        assert_eq!(r.reversed(), g);
    }
}
