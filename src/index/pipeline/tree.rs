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
use super::levels::LevelBuckets;
use super::path_prefix::{PathPrefix, PrefixSlot};
use crate::graph::Csr;
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
    /// `roots`, the DAG's roots in key order, are ρ's children.
    pub fn finish(self, roots: &[u32]) -> Tree {
        Tree::build(self.nodes.len(), |v| self.parent(v), |v| self.depth(v), |v| self.key(v), roots)
    }
}

/// The finished T: ordered children lists and the vertices bucketed by depth (ρ alone at depth 0).
#[derive(Debug)]
pub struct Tree {
    /// `children.neighbors(v)`: `v`'s T-children in the dimension's order; node `n` is ρ.
    pub children: Csr,
    pub depth_levels: LevelBuckets,
}

impl Tree {
    /// Builds from every node's parent, depth and order key (`nodes` nodes, ρ last) and the DAG's
    /// roots in key order, on every thread (a scatter of every vertex in key order on one thread
    /// took 60 ms a dimension on uniprotenc_22m's 1.6M vertices, a third of the labeling):
    /// - ρ's children are exactly the roots (a root has no DAG parent to choose, every other
    ///   vertex has one), given in key order: copied, not scattered (nearly every vertex of
    ///   uniprotenc_22m is a root);
    /// - every other list is counted and filled with atomic cursors, then sorted by key: lists
    ///   are short but for hubs, and no thread fights over ρ's cursor.
    pub fn build(
        nodes: usize,
        parent: impl Fn(u32) -> u32 + Sync,
        depth: impl Fn(u32) -> u32 + Sync,
        key: impl Fn(u32) -> u32 + Sync,
        roots: &[u32],
    ) -> Tree {
        let rho = (nodes - 1) as u32;
        let counts: Vec<AtomicU32> = bytemuck::zeroed_vec(nodes);
        (0..rho).into_par_iter().with_min_len(4096).for_each(|v| {
            let p = parent(v);
            if p != rho {
                counts[p as usize].fetch_add(1, Relaxed);
            }
        });
        // Exclusive prefix sums: `offsets[p]` is where p's list starts; ρ's list comes last.
        let mut offsets = vec![0u64; nodes + 1];
        let mut total = 0u64;
        for (p, count) in counts.iter().enumerate().take(rho as usize) {
            offsets[p] = total;
            total += u64::from(count.load(Relaxed));
        }
        offsets[rho as usize] = total;
        offsets[nodes] = total + roots.len() as u64;
        debug_assert_eq!(total as usize + roots.len(), rho as usize, "every vertex below ρ but the roots has a parent");
        let targets: Vec<AtomicU32> = bytemuck::zeroed_vec(rho as usize);
        // The counters become the cursors, counting down from each list's end.
        (0..rho).into_par_iter().with_min_len(4096).for_each(|v| {
            let p = parent(v);
            if p != rho {
                let left = counts[p as usize].fetch_sub(1, Relaxed) - 1;
                targets[(offsets[p as usize] + u64::from(left)) as usize].store(v, Relaxed);
            }
        });
        let mut targets = atomic::into_plain(targets);
        targets[total as usize..].copy_from_slice(roots);
        let mut lists: Vec<&mut [u32]> = Vec::new();
        let mut rest = &mut targets[..total as usize];
        for p in 0..rho as usize {
            let (list, tail) = rest.split_at_mut((offsets[p + 1] - offsets[p]) as usize);
            if list.len() > 1 {
                lists.push(list);
            }
            rest = tail;
        }
        lists.par_iter_mut().for_each(|list| list.sort_unstable_by_key(|&c| key(c)));
        let children = Csr::from_parts(offsets, targets).expect("a parent array always gives a valid CSR");
        let depth_levels = LevelBuckets::group(rho + 1, depth);
        Tree { children, depth_levels }
    }

    pub fn rho(&self) -> u32 {
        (self.children.num_vertices() - 1) as u32
    }

    pub fn heap_bytes(&self) -> usize {
        self.children.heap_bytes() + self.depth_levels.heap_bytes()
    }

    /// Every vertex's parent (`None` for the roots, whose parent is ρ), read off the children lists.
    pub fn parents(&self) -> Vec<Option<u32>> {
        let rho = self.rho();
        let mut parent = vec![None; rho as usize];
        for p in 0..=rho {
            for &c in self.children.neighbors(p) {
                parent[c as usize] = (p != rho).then_some(p);
            }
        }
        parent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ρ = 6; 0 and 3 are roots; 0 -> 1 -> 2, 0 -> 4, 3 -> 5.
    fn small_tree() -> GrowingTree {
        let t = GrowingTree::new(6);
        for (v, p) in [(0, 6), (3, 6), (1, 0), (4, 0), (5, 3), (2, 1)] {
            t.attach(v, p, v);
        }
        t
    }

    #[test]
    fn prefixes_hold_the_first_keys_of_each_path() {
        let t = small_tree();
        assert_eq!(t.prefix(6), PathPrefix::EMPTY);
        assert_eq!(&t.prefix(2).keys()[..4], &[0, 1, 2, u32::MAX]);
        assert_eq!(&t.prefix(5).keys()[..3], &[3, 5, u32::MAX]);
        // Past eight steps the prefix stops growing.
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
        let tree = t.finish(&[0, 3]);
        assert_eq!(tree.children.neighbors(0), &[4, 1]);
        assert_eq!(tree.children.neighbors(6), &[0, 3]);
        assert_eq!(tree.depth_levels.num_levels(), 4);
        assert_eq!(tree.depth_levels.level(0), &[6]);
        assert_eq!(tree.depth_levels.level(3), &[2]);
    }
}
