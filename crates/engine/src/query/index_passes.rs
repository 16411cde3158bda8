//! The query index's per-vertex data: two orders by DFS, then unions along the edges level by
//! level (docs/ALGORITHMS.md, section 13).
//!
//! A forward DFS over children from the roots (by id) numbers the vertices in post order, a
//! backward DFS over parents from the sinks likewise; each post number gives a vertex its
//! topological position and its own Bloom bit. The DFS reads only a bit per vertex besides the
//! graph, so it stays in the cache. The unions (a vertex's descendant filter and "reaches
//! supportive vertex i" mask are its own bits ORed with its children's; the ancestor ones, with its
//! parents') then run level by level: every vertex of a level reads only finished levels, so a
//! level's vertices are filled by every core at once.

use super::bloom::{BLOOM_WORDS, BloomBits};
use super::records::{TopoPositions, VertexCuts};
use super::supportive::{SUPPORT_WORDS, SupportMask};
use crate::disjoint::DisjointSlice;
use crate::graph::{Graph, topo};
use rayon::prelude::*;

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

/// The records as one direction sees them: its own half of each record. The two directions fill
/// the same array at the same time.
struct HalfView<'s, 'a> {
    cuts: &'s DisjointSlice<'a, VertexCuts>,
    direction: Direction,
}

impl HalfView<'_, '_> {
    /// Pointers to this direction's fields of `v`'s record.
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

    /// `v`'s half. Sound while no thread writes it: the other direction writes only the other
    /// fields, and this one writes a vertex only while filling the level that holds it.
    #[inline]
    fn get(&self, v: u32) -> Half {
        let (mask, bloom) = self.fields(v);
        // SAFETY: as said above.
        unsafe { Half { mask: mask.read(), bloom: bloom.read() } }
    }

    /// Sets `v`'s half. Sound while no other thread reads or writes it (see [`HalfView::get`]).
    #[inline]
    fn set(&self, v: u32, half: Half) {
        let (mask, bloom) = self.fields(v);
        // SAFETY: as said above.
        unsafe {
            mask.write(half.mask);
            bloom.write(half.bloom);
        }
    }
}

/// Every vertex's post number (from 1) in the two DFS the orders come from, as another device
/// computed them: over children from the roots, and over parents from the sinks, each visiting
/// starts and lists in id order (the `lex` order's GRAIL post numbers of the DAG and of the DAG
/// reversed).
pub struct Posts {
    /// Post numbers of the `lex` traversal of the DAG.
    pub forward: Vec<u32>,
    /// Post numbers of the `lex` traversal of the DAG reversed.
    pub backward: Vec<u32>,
}

/// The topological positions and the cut records of every vertex of the acyclic `dag`, with
/// `supportive[i]` standing for bit `i` of the masks.
pub(crate) fn positions_and_cuts(dag: &Graph, supportive: &[u32]) -> (Vec<TopoPositions>, Vec<VertexCuts>) {
    let n = dag.num_vertices();
    let kahn = topo::kahn(dag).expect("the query index is built on a DAG");
    let clock = std::time::Instant::now();
    let mut topo = vec![[0u32; 2]; n];
    let ((forward_bits, forward_ms), (backward_bits, backward_ms)) = {
        let topo = DisjointSlice::new(&mut topo);
        let timed = |direction: Direction| {
            let clock = std::time::Instant::now();
            let bits = post_order(dag, direction, &topo);
            (bits, clock.elapsed().as_secs_f64() * 1e3)
        };
        rayon::join(|| timed(Direction::Forward), || timed(Direction::Backward))
    };
    let orders_ms = clock.elapsed().as_secs_f64() * 1e3;
    let mut cuts = vec![VertexCuts::default(); n];
    {
        let cuts = DisjointSlice::new(&mut cuts);
        let run = |direction: Direction, own_bits: &[u8]| {
            let view = HalfView { cuts: &cuts, direction };
            for (i, &s) in supportive.iter().enumerate() {
                let mut half = view.get(s);
                half.mask[i / 64] |= 1 << (i % 64);
                view.set(s, half);
            }
            unions(dag, &kahn, &view, own_bits);
        };
        rayon::join(|| run(Direction::Forward, &forward_bits), || run(Direction::Backward, &backward_bits));
    }
    if profiling() {
        eprintln!(
            "index profile: orders {orders_ms:.1} ms (DFS forward {forward_ms:.1}, backward {backward_ms:.1}), \
             unions {:.1} ms",
            clock.elapsed().as_secs_f64() * 1e3 - orders_ms
        );
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
/// (children) in id order, each list in CSR order: writes each vertex's position in this
/// direction's order into `topo`, and returns each vertex's own Bloom bit, which its post number
/// picks.
fn post_order(dag: &Graph, direction: Direction, topo: &DisjointSlice<TopoPositions>) -> Vec<u8> {
    let (next, prev) = match direction {
        Direction::Forward => (dag.children_csr(), dag.parents_csr()),
        Direction::Backward => (dag.parents_csr(), dag.children_csr()),
    };
    let (offsets, targets) = (next.offsets(), next.targets());
    let starts = prev.offsets();
    let n = dag.num_vertices();
    let side = match direction {
        Direction::Forward => 0,
        Direction::Backward => 1,
    };
    let mut own_bits = vec![0u8; n];
    let mut bits = BloomBits::new(n);
    let mut seen = vec![0u64; n.div_ceil(64)];
    let mut stack: Vec<(u32, usize)> = Vec::new();
    let mut post = 0u32;
    let mut finish = |v: usize| {
        post += 1;
        // SAFETY: the other direction writes only the other position of each vertex.
        unsafe { (&raw mut (*topo.at(v))[side]).write(position(direction, n, post)) };
        own_bits[v] = bits.next() as u8;
    };
    let is_seen = |seen: &[u64], c: usize| seen[c / 64] >> (c % 64) & 1 == 1;
    // Where `v`'s first child not seen yet is in `targets`, if it has one.
    let first_unseen = |seen: &[u64], v: usize| {
        (offsets[v] as usize..offsets[v + 1] as usize).find(|&i| !is_seen(seen, targets[i] as usize))
    };
    for s in (0..n).filter(|&v| starts[v] == starts[v + 1]) {
        seen[s / 64] |= 1 << (s % 64);
        // A vertex whose children were all seen is finished as soon as it is reached, never
        // stacked: most vertices of a sparse graph are such (uniprotenc_22m's 1.56 million roots
        // each have one child, seen long before).
        let Some(first) = first_unseen(&seen, s) else {
            finish(s);
            continue;
        };
        stack.push((s as u32, first));
        while let Some(top) = stack.last_mut() {
            let (v, mut i) = *top;
            // On to the next child not seen yet with the cursor in a register: on a dense graph
            // most children were seen long before, and a cursor on the stack would be stored and
            // loaded again for each of them.
            let end = offsets[v as usize + 1] as usize;
            let mut next = None;
            while i < end {
                let c = targets[i] as usize;
                i += 1;
                if !is_seen(&seen, c) {
                    next = Some(c);
                    break;
                }
            }
            if let Some(c) = next {
                top.1 = i;
                seen[c / 64] |= 1 << (c % 64);
                match first_unseen(&seen, c) {
                    Some(first) => stack.push((c as u32, first)),
                    None => finish(c),
                }
                continue;
            }
            stack.pop();
            finish(v as usize);
        }
    }
    own_bits
}

/// What the two `post_order` passes give, from post numbers found elsewhere: every vertex's
/// positions in the two orders, and its own Bloom bit in each direction.
pub fn orders_from_posts(posts: &Posts) -> (Vec<TopoPositions>, [Vec<u8>; 2]) {
    let n = posts.forward.len();
    let bits = |post: &[u32]| post.par_iter().map(|&p| super::bloom::bit_of(p, n) as u8).collect::<Vec<u8>>();
    let topo = posts
        .forward
        .par_iter()
        .zip(&posts.backward)
        .map(|(&f, &b)| [position(Direction::Forward, n, f), position(Direction::Backward, n, b)])
        .collect();
    (topo, [bits(&posts.forward), bits(&posts.backward)])
}

/// `GRAIL_INDEX_PROFILE` is set: the index build prints the seconds of its parts on stderr.
pub(crate) fn profiling() -> bool {
    std::env::var_os("GRAIL_INDEX_PROFILE").is_some()
}

/// Levels with fewer vertices than this are filled on the calling thread: handing a level to the
/// pool costs more than a few hundred vertices' unions, and a deep graph has millions of levels.
const PARALLEL_LEVEL: usize = 1024;

/// A vertex with more neighbours than this has their halves ORed by every core, in chunks of
/// [`GIANT_CHUNK`]: on one core, a sink with 1.5 million parents (uniprotenc_22m's) would be the
/// whole pass's critical path.
const GIANT_LIST: usize = 1 << 16;
const GIANT_CHUNK: usize = 1 << 12;

/// Fills one direction's half of every record: the vertex's own Bloom bit (`own_bits`), the
/// supportive bits already there, and the halves of its children (forward) or parents
/// (backward). Forward runs from the deepest level up, backward from the roots down, so every
/// neighbour read is final.
fn unions(dag: &Graph, kahn: &topo::Kahn, view: &HalfView, own_bits: &[u8]) {
    let next = match view.direction {
        Direction::Forward => dag.children_csr(),
        Direction::Backward => dag.parents_csr(),
    };
    let fill = |&v: &u32| {
        let mut half = view.get(v);
        let b = usize::from(own_bits[v as usize]);
        half.bloom[b / 64] |= 1 << (b % 64);
        let neighbours = next.neighbors(v);
        if neighbours.len() > GIANT_LIST && rayon::current_num_threads() > 1 {
            let or_all = |chunk: &[u32]| {
                let mut sum = Half::default();
                chunk.iter().for_each(|&c| sum.or(&view.get(c)));
                sum
            };
            let sum = neighbours.par_chunks(GIANT_CHUNK).map(or_all).reduce(Half::default, |mut a, b| {
                a.or(&b);
                a
            });
            half.or(&sum);
        } else {
            for &c in neighbours {
                half.or(&view.get(c));
            }
        }
        view.set(v, half);
    };
    let level = |l: usize| &kahn.order[kahn.starts[l]..kahn.starts[l + 1]];
    let levels = kahn.num_levels();
    let mut fill_level = |l: usize| {
        let vertices = level(l);
        if vertices.len() < PARALLEL_LEVEL || rayon::current_num_threads() == 1 {
            vertices.iter().for_each(fill);
        } else {
            vertices.par_iter().with_min_len(256).for_each(fill);
        }
    };
    match view.direction {
        Direction::Forward => (0..levels).rev().for_each(&mut fill_level),
        Direction::Backward => (0..levels).for_each(&mut fill_level),
    }
}
