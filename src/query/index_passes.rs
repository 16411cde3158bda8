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
use super::query_index::{TopoPositions, VertexCuts};
use super::supportive::{SUPPORT_WORDS, SupportMask};
use crate::graph::Graph;
use rayon::prelude::*;

/// One direction's half of a record: a supportive-vertex mask and a Bloom filter.
#[derive(Clone, Copy, Default)]
pub(crate) struct Half {
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
    /// Over parents: `from_support`, `bloom_in`, and the second position (`post`).
    Backward,
}

/// Where a pass keeps its halves: in the records themselves (one thread, passes in turn), or in an
/// array of its own (passes side by side, merged after).
trait Halves {
    fn get(&self, v: u32) -> Half;
    fn or(&mut self, v: u32, other: &Half);
}

struct InRecords<'a> {
    cuts: &'a mut [VertexCuts],
    direction: Direction,
}

impl Halves for InRecords<'_> {
    #[inline]
    fn get(&self, v: u32) -> Half {
        let c = &self.cuts[v as usize];
        match self.direction {
            Direction::Forward => Half { mask: c.to_support, bloom: c.bloom_out },
            Direction::Backward => Half { mask: c.from_support, bloom: c.bloom_in },
        }
    }

    #[inline]
    fn or(&mut self, v: u32, other: &Half) {
        let c = &mut self.cuts[v as usize];
        let (mask, bloom) = match self.direction {
            Direction::Forward => (&mut c.to_support, &mut c.bloom_out),
            Direction::Backward => (&mut c.from_support, &mut c.bloom_in),
        };
        let mut half = Half { mask: *mask, bloom: *bloom };
        half.or(other);
        (*mask, *bloom) = (half.mask, half.bloom);
    }
}

impl Halves for Vec<Half> {
    #[inline]
    fn get(&self, v: u32) -> Half {
        self[v as usize]
    }

    #[inline]
    fn or(&mut self, v: u32, other: &Half) {
        self[v as usize].or(other);
    }
}

/// The topological positions and the cut records of every vertex of the acyclic `dag`, with
/// `supportive[i]` standing for bit `i` of the masks.
pub(crate) fn positions_and_cuts(dag: &Graph, supportive: &[u32]) -> (Vec<TopoPositions>, Vec<VertexCuts>) {
    let n = dag.num_vertices();
    let mut topo = vec![[0u32; 2]; n];
    let mut cuts = vec![VertexCuts::default(); n];
    let own = |i: usize| -> Half {
        let mut half = Half::default();
        half.mask[i / 64] |= 1 << (i % 64);
        half
    };
    if rayon::current_num_threads() == 1 {
        for (direction, posts) in [(Direction::Forward, 0), (Direction::Backward, 1)] {
            let mut halves = InRecords { cuts: &mut cuts, direction };
            for (i, &s) in supportive.iter().enumerate() {
                halves.or(s, &own(i));
            }
            pass(dag, direction, &mut halves, |v, post| topo[v as usize][posts] = position(direction, n, post));
        }
        return (topo, cuts);
    }
    let half_pass = |direction: Direction| {
        let mut halves = vec![Half::default(); n];
        for (i, &s) in supportive.iter().enumerate() {
            halves.or(s, &own(i));
        }
        let mut posts = vec![0u32; n];
        pass(dag, direction, &mut halves, |v, post| posts[v as usize] = position(direction, n, post));
        (halves, posts)
    };
    let ((forward, forward_posts), (backward, backward_posts)) =
        rayon::join(|| half_pass(Direction::Forward), || half_pass(Direction::Backward));
    cuts.par_iter_mut().zip(topo.par_iter_mut()).enumerate().with_min_len(4096).for_each(|(v, (record, position))| {
        let (f, b) = (&forward[v], &backward[v]);
        *record = VertexCuts { from_support: b.mask, to_support: f.mask, bloom_out: f.bloom, bloom_in: b.bloom };
        *position = [forward_posts[v], backward_posts[v]];
    });
    (topo, cuts)
}

/// Forward post order puts descendants first, backward post order ancestors first: both become
/// positions that grow along every path.
#[inline]
fn position(direction: Direction, n: usize, post: u32) -> u32 {
    match direction {
        Direction::Forward => n as u32 - post,
        Direction::Backward => post,
    }
}

/// One DFS over children (forward) or parents (backward), from every vertex without parents
/// (children) in id order, each list in CSR order; `finished(v, post)` is told each vertex's
/// 1-based post-order number as it finishes.
fn pass(dag: &Graph, direction: Direction, halves: &mut impl Halves, mut finished: impl FnMut(u32, u32)) {
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
                    let child = halves.get(c as u32);
                    halves.or(v, &child);
                }
                continue;
            }
            stack.pop();
            post += 1;
            let mut own = Half::default();
            let b = bits.next();
            own.bloom[b / 64] |= 1 << (b % 64);
            halves.or(v, &own);
            finished(v, post);
            if let Some(&(parent, _)) = stack.last() {
                let done = halves.get(v);
                halves.or(parent, &done);
            }
        }
    }
}
