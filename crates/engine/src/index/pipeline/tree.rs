//! The DFS tree T, first while parent selection grows it, then as the read-only tree the later phases
//! walk.
//!
//! Growing: every vertex stores its parent, its depth and one skew-binary jump pointer (Myers 1983):
//! with `p = parent(v)`, `jump(v) = jump(jump(p))` when the jumps of `p` and `jump(p)` span equal
//! depths, else `p`. Jump lengths then follow the skew-binary numbers, so a level-ancestor query and
//! the lowest-common-ancestor walk below take O(log depth) steps, with three `u32` per vertex and no
//! arithmetic that can overflow. The virtual root ρ is node `n` (depth 0, its own parent and jump).
//!
//! Beside them, every node keeps the first [`PATH_PREFIX_STEPS`] steps of its T-path as order keys
//! ([`PathPrefix`]), as the GPU does (docs/ALGORITHMS.md, section 6): parent selection compares two
//! candidates by reading two prefixes, and climbs the tree only when they agree.

use super::fresh_array::FreshArray;
use super::frontier::atomic;
use super::path_prefix::{PathPrefix, PrefixSlot};
use crate::graph::csr::running_sums;
use crate::prefetch::prefetch;
use rayon::prelude::*;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

/// Where two distinct tree nodes `p1`, `p2` meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// `p1` is a proper ancestor of `p2`; the child of `p1` on the way down to `p2`.
    FirstIsAncestor { toward_second: u32 },
    /// `p2` is a proper ancestor of `p1`; the child of `p2` on the way down to `p1`.
    SecondIsAncestor { toward_first: u32 },
    /// Neither: the two children of `LCA(p1, p2)` on the ways down to `p1` and to `p2`.
    Diverge { toward_first: u32, toward_second: u32 },
}

/// T while it grows: parent, depth, jump pointer and order key per node, written once when the node
/// becomes final (a vertex writes only its own slot, so a whole level attaches in parallel). The four
/// fields share one 16-byte slot: an ancestor walk touches one cache line per node it visits.
/// The path prefixes live apart: a candidate reads only its parent's prefix, and an ancestor walk
/// only nodes, so neither drags the other's bytes through the cache.
#[derive(Debug)]
pub struct GrowingTree {
    nodes: FreshArray<Node>,
    prefixes: FreshArray<PrefixSlot>,
}

#[derive(Debug, Default, bytemuck::Zeroable)]
#[repr(C, align(16))]
struct Node {
    parent: AtomicU32,
    depth: AtomicU32,
    jump: AtomicU32,
    key: AtomicU32,
}

impl GrowingTree {
    /// A tree holding only ρ, for a DAG of `n` vertices.
    pub fn new(n: usize) -> GrowingTree {
        // Fresh pages: the kernel zeroes them on first touch, spread over the threads that attach
        // the vertices, not here on one thread.
        let nodes: FreshArray<Node> = FreshArray::zeroed(n + 1);
        let rho = n as u32;
        nodes[n].parent.store(rho, Relaxed);
        nodes[n].jump.store(rho, Relaxed);
        // Every slot starts as the empty path (zeroed memory), which is ρ's; the others are
        // written on attach.
        let prefixes = FreshArray::zeroed(n + 1);
        GrowingTree { nodes, prefixes }
    }

    /// The virtual root ρ.
    pub fn rho(&self) -> u32 {
        (self.nodes.len() - 1) as u32
    }

    #[inline]
    pub fn parent(&self, v: u32) -> u32 {
        self.nodes[v as usize].parent.load(Relaxed)
    }

    #[inline]
    pub fn depth(&self, v: u32) -> u32 {
        self.nodes[v as usize].depth.load(Relaxed)
    }

    #[inline]
    fn jump(&self, v: u32) -> u32 {
        self.nodes[v as usize].jump.load(Relaxed)
    }

    /// The order key `v` was attached with (ρ: 0, never compared).
    #[inline]
    pub fn key(&self, v: u32) -> u32 {
        self.nodes[v as usize].key.load(Relaxed)
    }

    /// The first steps of the T-path of the final node `v`.
    #[inline]
    pub fn prefix(&self, v: u32) -> PathPrefix {
        self.prefixes[v as usize].load()
    }

    /// Asks for `v`'s prefix to be brought into the cache (a candidate will read it soon).
    #[inline]
    pub fn prefetch_prefix(&self, v: u32) {
        prefetch(&self.prefixes, v as usize);
    }

    /// Makes `v` (with order key `key`) a T-child of the final node `p`.
    pub fn attach(&self, v: u32, p: u32, key: u32) {
        self.attach_with_prefix(v, p, key, self.prefix(p).extended(key));
    }

    /// [`Self::attach`] below ρ: a root's jump is ρ too, and its prefix its own key.
    pub fn attach_root(&self, v: u32, key: u32) {
        let rho = self.rho();
        let node = &self.nodes[v as usize];
        node.parent.store(rho, Relaxed);
        node.depth.store(1, Relaxed);
        node.jump.store(rho, Relaxed);
        node.key.store(key, Relaxed);
        self.prefixes[v as usize].store(PathPrefix::EMPTY.extended(key));
    }

    /// [`Self::attach`] when the caller already holds `v`'s path prefix, `prefix(p).extended(key)`
    /// (parent selection compared exactly that).
    pub fn attach_with_prefix(&self, v: u32, p: u32, key: u32, prefix: PathPrefix) {
        debug_assert_eq!(prefix, self.prefix(p).extended(key));
        let jp = self.jump(p);
        let jump = if self.depth(p) - self.depth(jp) == self.depth(jp) - self.depth(self.jump(jp)) {
            self.jump(jp)
        } else {
            p
        };
        let node = &self.nodes[v as usize];
        node.parent.store(p, Relaxed);
        node.depth.store(self.depth(p) + 1, Relaxed);
        node.jump.store(jump, Relaxed);
        node.key.store(key, Relaxed);
        self.prefixes[v as usize].store(prefix);
    }

    /// The ancestor of `v` at depth `d <= depth(v)`.
    pub fn ancestor_at(&self, mut v: u32, d: u32) -> u32 {
        while self.depth(v) > d {
            let j = self.jump(v);
            v = if self.depth(j) >= d { j } else { self.parent(v) };
        }
        v
    }

    /// Where the T-paths of the distinct final nodes `p1` and `p2` part.
    pub fn branch(&self, p1: u32, p2: u32) -> Branch {
        debug_assert_ne!(p1, p2);
        let (d1, d2) = (self.depth(p1), self.depth(p2));
        let (mut a, mut b) = (p1, p2);
        if d1 < d2 {
            let below = self.ancestor_at(p2, d1 + 1);
            if self.parent(below) == p1 {
                return Branch::FirstIsAncestor { toward_second: below };
            }
            b = self.parent(below);
        } else if d2 < d1 {
            let below = self.ancestor_at(p1, d2 + 1);
            if self.parent(below) == p2 {
                return Branch::SecondIsAncestor { toward_first: below };
            }
            a = self.parent(below);
        }
        // Same depth, different nodes. Nodes at equal depth have jumps of equal length, so the two
        // climb in lockstep: jump while the jumps still land on different nodes, else step.
        while self.parent(a) != self.parent(b) {
            let (ja, jb) = (self.jump(a), self.jump(b));
            if ja != jb {
                (a, b) = (ja, jb);
            } else {
                (a, b) = (self.parent(a), self.parent(b));
            }
        }
        Branch::Diverge { toward_first: a, toward_second: b }
    }

    pub fn heap_bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>() + self.prefixes.len() * std::mem::size_of::<PrefixSlot>()
    }

    /// The finished T, its children lists ordered by the keys the vertices were attached with;
    /// `roots`, the DAG's roots in key order, are ρ's children, and `below_roots` are all the other
    /// vertices.
    pub fn finish(self, roots: &[u32], below_roots: &[u32]) -> Tree {
        Tree::build(self.nodes.len(), |v| self.parent(v), |v| self.key(v), roots, below_roots)
    }
}

/// The finished T: its ordered children lists. Phases 2 and 3 walk it over the Kahn levels
/// (`DagLevels::tree`), not over depth levels of its own.
#[derive(Debug)]
pub struct Tree {
    /// Node `v`'s T-children are `targets[offsets[v]..offsets[v + 1]]`, in the dimension's order;
    /// node `n` is ρ. 32-bit offsets: a tree has fewer edges than nodes.
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

/// At most this many lists go to one task when the children lists are sorted, and a list this long
/// is sorted on every thread.
const LISTS_PER_TASK: usize = 1 << 14;

impl Tree {
    /// Builds from every node's parent and order key (`nodes` nodes, ρ last), the DAG's roots in
    /// key order and the other vertices, on every thread:
    /// - ρ's children are exactly the roots (a root has no DAG parent to choose, every other
    ///   vertex has one), given in key order: copied, not scattered (nearly every vertex of
    ///   uniprotenc_22m is a root, and only the others are read);
    /// - every other list is counted and filled with atomic cursors, then sorted by key: lists
    ///   are short but for hubs, and no thread fights over ρ's cursor.
    pub fn build(
        nodes: usize,
        parent: impl Fn(u32) -> u32 + Sync,
        key: impl Fn(u32) -> u32 + Sync,
        roots: &[u32],
        below_roots: &[u32],
    ) -> Tree {
        let rho = nodes - 1;
        let below = below_roots.len();
        debug_assert_eq!(roots.len() + below, rho, "every vertex is a root or below one");
        // The offsets count, then serve as cursors, in place: `p`'s count goes two slots ahead, so
        // that once summed up slot `p + 1` holds where `p`'s list starts; as `p`'s cursor it moves
        // on to where the list ends, which is where the next one starts: slot `p + 1`'s final value.
        let counts: Vec<AtomicU32> = bytemuck::zeroed_vec(nodes + 1);
        below_roots.par_iter().with_min_len(4096).for_each(|&v| {
            counts[parent(v) as usize + 2].fetch_add(1, Relaxed);
        });
        let mut starts = atomic::into_plain(counts);
        running_sums(&mut starts);
        let cursors: Vec<AtomicU32> = starts.into_iter().map(AtomicU32::new).collect();
        let targets: Vec<AtomicU32> = bytemuck::zeroed_vec(rho);
        below_roots.par_iter().with_min_len(4096).for_each(|&v| {
            let slot = cursors[parent(v) as usize + 1].fetch_add(1, Relaxed);
            targets[slot as usize].store(v, Relaxed);
        });
        let mut offsets = atomic::into_plain(cursors);
        // ρ's list, the roots, is copied rather than scattered.
        offsets[nodes] = rho as u32;
        let mut targets = atomic::into_plain(targets);
        targets[below..].copy_from_slice(roots);
        sort_lists(&mut targets[..below], &offsets[..nodes], &key);
        Tree { offsets, targets }
    }

    /// `v`'s T-children, in order.
    #[inline]
    pub fn children(&self, v: u32) -> &[u32] {
        &self.targets[self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize]
    }

    /// T's nodes: the DAG's vertices and ρ.
    pub fn nodes(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn rho(&self) -> u32 {
        (self.nodes() - 1) as u32
    }

    pub fn heap_bytes(&self) -> usize {
        (self.offsets.len() + self.targets.len()) * 4
    }

    /// Every vertex's parent (`None` for the roots, whose parent is ρ), read off the children lists.
    pub fn parents(&self) -> Vec<Option<u32>> {
        let rho = self.rho();
        let mut parent = vec![None; rho as usize];
        for p in 0..=rho {
            for &c in self.children(p) {
                parent[c as usize] = (p != rho).then_some(p);
            }
        }
        parent
    }
}

/// Sorts every list by key: list `i` of `lists` is `offsets[i]..offsets[i + 1]`, counted from
/// `offsets[0]`. Ranges of lists go to tasks of their own, found by halving (a loop over millions
/// of lists, most of them empty or single, was a visible pause on one thread).
fn sort_lists(lists: &mut [u32], offsets: &[u32], key: &(impl Fn(u32) -> u32 + Sync)) {
    let count = offsets.len() - 1;
    if count > LISTS_PER_TASK {
        let mid = count / 2;
        let (first, second) = lists.split_at_mut((offsets[mid] - offsets[0]) as usize);
        rayon::join(|| sort_lists(first, &offsets[..=mid], key), || sort_lists(second, &offsets[mid..], key));
        return;
    }
    let base = offsets[0];
    for bounds in offsets.windows(2) {
        let list = &mut lists[(bounds[0] - base) as usize..(bounds[1] - base) as usize];
        match list.len() {
            0 | 1 => {}
            // A hub's list (hundreds of thousands of children) sorts on every thread.
            len if len >= LISTS_PER_TASK => list.par_sort_unstable_by_key(|&c| key(c)),
            _ => list.sort_unstable_by_key(|&c| key(c)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ρ = 6; 0 and 3 are roots; 0 -> 1 -> 2, 0 -> 4, 3 -> 5.
    fn small_tree() -> GrowingTree {
        let t = GrowingTree::new(6);
        t.attach_root(0, 0);
        for (v, p) in [(3, 6), (1, 0), (4, 0), (5, 3), (2, 1)] {
            t.attach(v, p, v);
        }
        t
    }

    #[test]
    fn prefixes_hold_the_first_keys_of_each_path() {
        let t = small_tree();
        // A root attached as one, and one attached as any vertex, look alike.
        for (field, root, other) in [("parent", t.parent(0), t.parent(3)), ("jump", t.jump(0), t.jump(3))] {
            assert_eq!((root, other), (6, 6), "{field}");
        }
        assert_eq!((t.depth(0), t.depth(3)), (1, 1));
        assert_eq!(&t.prefix(0).keys()[..2], &[0, u32::MAX]);
        assert_eq!(t.prefix(6), PathPrefix::EMPTY);
        assert_eq!(&t.prefix(2).keys()[..4], &[0, 1, 2, u32::MAX]);
        assert_eq!(&t.prefix(5).keys()[..3], &[3, 5, u32::MAX]);
        // Past its steps the prefix stops growing.
        let n = 12;
        let chain = GrowingTree::new(n);
        chain.attach(0, n as u32, 0);
        for v in 1..n as u32 {
            chain.attach(v, v - 1, v);
        }
        assert_eq!(chain.prefix(11).keys(), [0, 1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn branch_finds_ancestors_and_divergence() {
        let t = small_tree();
        assert_eq!(t.branch(0, 2), Branch::FirstIsAncestor { toward_second: 1 });
        assert_eq!(t.branch(2, 0), Branch::SecondIsAncestor { toward_first: 1 });
        assert_eq!(t.branch(2, 4), Branch::Diverge { toward_first: 1, toward_second: 4 });
        assert_eq!(t.branch(5, 2), Branch::Diverge { toward_first: 3, toward_second: 0 });
        assert_eq!(t.branch(1, 4), Branch::Diverge { toward_first: 1, toward_second: 4 });
    }

    #[test]
    fn deep_paths_agree_with_naive_walks() {
        // A caterpillar: a spine 0..n with a leaf hanging off every spine vertex.
        let spine = 3000u32;
        let n = 2 * spine as usize;
        let t = GrowingTree::new(n);
        t.attach(0, n as u32, 0);
        for v in 1..spine {
            t.attach(v, v - 1, v);
        }
        for v in 0..spine {
            t.attach(spine + v, v, spine + v);
        }
        for (x, y) in [(spine + 5, spine + 2900), (spine + 2999, 17), (2999, spine + 1000), (40, 2000)] {
            let naive_ancestor = |mut v: u32, d: u32| {
                while t.depth(v) > d {
                    v = t.parent(v);
                }
                v
            };
            for d in 0..t.depth(x) {
                assert_eq!(t.ancestor_at(x, d), naive_ancestor(x, d));
            }
            let b = t.branch(x, y);
            match b {
                Branch::FirstIsAncestor { toward_second } => assert_eq!(t.parent(toward_second), x),
                Branch::SecondIsAncestor { toward_first } => assert_eq!(t.parent(toward_first), y),
                Branch::Diverge { toward_first, toward_second } => {
                    assert_eq!(t.parent(toward_first), t.parent(toward_second));
                    assert_eq!(naive_ancestor(x, t.depth(toward_first)), toward_first);
                    assert_eq!(naive_ancestor(y, t.depth(toward_second)), toward_second);
                }
            }
        }
    }

    #[test]
    fn built_tree_orders_children_by_key() {
        // Key order 4, 1, 0, 3, 2, 5 (the keys the vertices are attached with): children of 0 must
        // come out as [4, 1], the roots as [0, 3].
        let by_key = [4, 1, 0, 3, 2, 5];
        let key = |v: u32| by_key.iter().position(|&x| x == v).unwrap() as u32;
        let t = GrowingTree::new(6);
        for (v, p) in [(0, 6), (3, 6), (1, 0), (4, 0), (5, 3), (2, 1)] {
            t.attach(v, p, key(v));
        }
        let tree = t.finish(&[0, 3], &[1, 4, 5, 2]);
        assert_eq!(tree.children(0), &[4, 1]);
        assert_eq!(tree.children(6), &[0, 3]);
        assert_eq!(tree.children(1), &[2]);
        assert_eq!(tree.children(2), &[] as &[u32]);
    }

    #[test]
    fn large_builds_match_sorted_lists() {
        // Enough lists for many sorting tasks, and one hub long enough to be sorted in parallel.
        let n = 200_000u32;
        let rho = n;
        let hub = 7u32;
        let parent = |v: u32| match v {
            0..10 => rho,
            _ if v.is_multiple_of(3) => hub,
            _ => v / 10,
        };
        // An odd multiplier is a bijection on u32: no two keys tie.
        let key = |v: u32| v.wrapping_mul(2_654_435_761);
        let mut roots: Vec<u32> = (0..10).collect();
        roots.sort_by_key(|&v| key(v));
        let below: Vec<u32> = (10..n).rev().collect();
        let tree = Tree::build(n as usize + 1, parent, key, &roots, &below);
        let mut expected = vec![Vec::new(); n as usize + 1];
        for v in 0..n {
            expected[parent(v) as usize].push(v);
        }
        for (p, list) in expected.iter_mut().enumerate() {
            list.sort_by_key(|&v| key(v));
            assert_eq!(tree.children(p as u32), &list[..], "children of {p}");
        }
        assert!(tree.children(hub).len() > LISTS_PER_TASK);
    }
}
