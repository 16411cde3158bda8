//! The query index's per-vertex data in two depth-first passes (docs/ALGORITHMS.md, section 13).
//!
//! A forward DFS over children from the roots (by id) numbers the vertices in post order; when a
//! vertex finishes, every vertex it reaches has finished, so its descendant Bloom filter and its
//! "reaches supportive vertex i" mask are complete once its own bit is added: the OR of its
//! children's, each folded in as the child is met (finished already) or as it returns. A backward
//! DFS over parents from the leaves does the same for the ancestor filter and the "reached by
//! supportive vertex i" mask. Each edge is read once per direction, and each vertex's record is
//! written in place: no topological order, no copies.

use super::bloom::{BLOOM_WORDS, BloomBits};
use super::records::{TopoPositions, VertexCuts};
use super::supportive::{SUPPORT_WORDS, SupportMask};
use crate::disjoint::DisjointSlice;
use crate::graph::Graph;

/// One direction's half of a record: a supportive-vertex mask and a Bloom filter.
#[derive(Clone, Copy, Default)]
struct Half {
    mask: SupportMask,
    bloom: [u64; BLOOM_WORDS],
}

impl Half {
    #[inline]
    fn or(&mut self, other: &Half) {
        for w in 0..SUPPORT_WORDS {
            self.mask[w] |= other.mask[w];
        }
        for w in 0..BLOOM_WORDS {
            self.bloom[w] |= other.bloom[w];
        }
    }
}

/// Which half of the records a pass fills, and which topological position.
#[derive(Clone, Copy)]
enum Direction {
    /// Over children: `to_support`, `bloom_out`, and the first position (`n - post`).
    Forward,
    /// Over parents: `from_support`, `bloom_in`, and the second position (`post - 1`).
    Backward,
}

/// The records and positions as one pass sees them: its own half of each record, its own
/// position of each vertex. The two passes run at the same time on the same arrays.
struct PassView<'s, 'a> {
    cuts: &'s DisjointSlice<'a, VertexCuts>,
    topo: &'s DisjointSlice<'a, TopoPositions>,
    direction: Direction,
}

impl PassView<'_, '_> {
    /// Pointers to this pass's fields of `v`'s record.
    #[inline]
    fn fields(&self, v: u32) -> (*mut SupportMask, *mut [u64; BLOOM_WORDS]) {
        let record = self.cuts.at(v as usize);
        // SAFETY (of the projections): `record` points to a live entry; no reference is made.
        unsafe {
            match self.direction {
                Direction::Forward => (&raw mut (*record).to_support, &raw mut (*record).bloom_out),
                Direction::Backward => (&raw mut (*record).from_support, &raw mut (*record).bloom_in),
            }
        }
    }

    #[inline]
    fn get(&self, v: u32) -> Half {
        let (mask, bloom) = self.fields(v);
        // SAFETY: the other pass touches only the other fields of each record.
        unsafe { Half { mask: mask.read(), bloom: bloom.read() } }
    }

    #[inline]
    fn or(&self, v: u32, other: &Half) {
        let mut half = self.get(v);
        half.or(other);
        let (mask, bloom) = self.fields(v);
        // SAFETY: as in `get`.
        unsafe {
            mask.write(half.mask);
            bloom.write(half.bloom);
        }
    }

    #[inline]
    fn set_position(&self, v: u32, position: u32) {
        let side = match self.direction {
            Direction::Forward => 0,
            Direction::Backward => 1,
        };
        // SAFETY: the other pass writes only the other position of each vertex.
        unsafe { (&raw mut (*self.topo.at(v as usize))[side]).write(position) }
    }
}

/// The topological positions and the cut records of every vertex of the acyclic `dag`, with
/// `supportive[i]` standing for bit `i` of the masks. The two passes run side by side where the
/// pool has a second thread, each writing its own fields of the same records.
pub(crate) fn positions_and_cuts(dag: &Graph, supportive: &[u32]) -> (Vec<TopoPositions>, Vec<VertexCuts>) {
    let n = dag.num_vertices();
    let mut topo = vec![[0u32; 2]; n];
    let mut cuts = vec![VertexCuts::default(); n];
    {
        let (cuts, topo) = (DisjointSlice::new(&mut cuts), DisjointSlice::new(&mut topo));
        let run = |direction: Direction| {
            let view = PassView { cuts: &cuts, topo: &topo, direction };
            for (i, &s) in supportive.iter().enumerate() {
                let mut own = Half::default();
                own.mask[i / 64] |= 1 << (i % 64);
                view.or(s, &own);
            }
            pass(dag, &view);
        };
        rayon::join(|| run(Direction::Forward), || run(Direction::Backward));
    }
    (topo, cuts)
}

/// Forward post order puts descendants first, backward post order ancestors first: both become
/// positions `0..n` that grow along every path (`post` counts from 1).
#[inline]
fn position(direction: Direction, n: usize, post: u32) -> u32 {
    match direction {
        Direction::Forward => n as u32 - post,
        Direction::Backward => post - 1,
    }
}

/// One DFS over children (forward) or parents (backward), from every vertex without parents
/// (children) in id order, each list in CSR order, filling its half of the records and its
/// position of each vertex.
fn pass(dag: &Graph, view: &PassView) {
    let direction = view.direction;
    let (next, prev) = match direction {
        Direction::Forward => (dag.children_csr(), dag.parents_csr()),
        Direction::Backward => (dag.parents_csr(), dag.children_csr()),
    };
    let (offsets, targets) = (next.offsets(), next.targets());
    let starts = prev.offsets();
    let n = dag.num_vertices();
    let mut bits = BloomBits::new(n);
    let mut seen = vec![0u64; n.div_ceil(64)];
    let mut stack: Vec<(u32, usize)> = Vec::new();
    let mut post = 0u32;
    for s in (0..n).filter(|&v| starts[v] == starts[v + 1]) {
        seen[s / 64] |= 1 << (s % 64);
        stack.push((s as u32, offsets[s] as usize));
        while let Some(top) = stack.last_mut() {
            let (v, i) = *top;
            if i < offsets[v as usize + 1] as usize {
                top.1 += 1;
                let c = targets[i] as usize;
                if seen[c / 64] >> (c % 64) & 1 == 0 {
                    seen[c / 64] |= 1 << (c % 64);
                    stack.push((c as u32, offsets[c] as usize));
                } else {
                    // Finished already: in a DAG a vertex met twice is never on the stack.
                    view.or(v, &view.get(c as u32));
                }
                continue;
            }
            stack.pop();
            post += 1;
            let mut own = Half::default();
            let b = bits.next();
            own.bloom[b / 64] |= 1 << (b % 64);
            view.or(v, &own);
            view.set_position(v, position(direction, n, post));
            if let Some(&(parent, _)) = stack.last() {
                view.or(parent, &view.get(v));
            }
        }
    }
}
