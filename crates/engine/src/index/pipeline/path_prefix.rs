//! The first steps of a T-path as order keys, packed so that two candidates compare as integers
//! (docs/ALGORITHMS.md, section 6, "The path-prefix shortcut").
//!
//! A path from ρ is a sequence of steps, and a step is compared by the key of the vertex it enters
//! (every ordered list is sorted by key, and two paths that agree so far choose among the children
//! of the same node). So a candidate `(path(p), rank of v)` *is* the key sequence of `path(p)`
//! followed by `key(v)`, and candidates compare lexicographically as key sequences. A prefix keeps
//! the first [`PATH_PREFIX_STEPS`] keys, padded with [`NONE`] (larger than every key), two keys per
//! big-endian `u64` word: comparing the words in order compares the sequences.
//!
//! Two different candidates whose prefixes differ compare like their prefixes: they part at the
//! first differing step. A shorter candidate never ties with a longer one, because its last key
//! (`key(v)`, with `v` not yet in T) differs from the step the other takes there (a T-node). Only
//! when both are longer than the prefix and agree on all of it must the caller climb the tree.
//!
//! The GPU kernels keep the same eight keys per node (`select_*` in `kernels/labeling.cu`); the
//! CPU's length is its own, since it is a speed knob and never changes the labels.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

/// Steps of each node's T-path kept as keys, the GPU's number (one definition for both, in
/// `kernels/constants.in`): 8 keys fill 32 bytes, half a cache line, and settle nearly every
/// comparison on bushy DFS trees (most candidate pairs part within a few steps).
pub use crate::constants::PATH_PREFIX_STEPS;

// A prefix is two `u128` of four 32-bit keys each.
const _: () = assert!(PATH_PREFIX_STEPS == 8, "PathPrefix packs exactly 8 keys into two u128");

/// Keys per half ([`PathPrefix`] is two `u128`).
const HALF: usize = PATH_PREFIX_STEPS / 2;

/// Past the end of a path. Keys are below `n < u32::MAX`, so it is larger than every key.
pub const NONE: u32 = u32::MAX;

/// The first [`PATH_PREFIX_STEPS`] keys of a path, [`NONE`]-padded, as one 256-bit big-endian
/// number in two halves (`high` holds keys 0-3, the first in its top 32 bits): the derived order,
/// `high` then `low`, is the lexicographic order of the key sequences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PathPrefix {
    high: u128,
    low: u128,
}

impl PathPrefix {
    /// The empty path (ρ's).
    pub const EMPTY: PathPrefix = PathPrefix { high: u128::MAX, low: u128::MAX };

    /// The path one step longer, entering the vertex with key `key` (unchanged when the prefix is
    /// full: the step lies beyond it).
    #[inline]
    pub fn extended(self, key: u32) -> PathPrefix {
        // The NONE entries are a suffix. A key lane is never all ones, so the 256-bit number's
        // trailing ones, counted in whole lanes, are exactly the NONE entries; the new key goes in
        // the first of them, which being all ones turns into the key by an exclusive or.
        let none = if self.low == u128::MAX {
            HALF as u32 + self.high.trailing_ones() / 32
        } else {
            self.low.trailing_ones() / 32
        };
        let flip = (NONE ^ key) as u128;
        let mut extended = self;
        match none {
            0 => {}
            1..=4 => extended.low ^= flip << (32 * (none - 1)),
            _ => extended.high ^= flip << (32 * (none - 5)),
        }
        extended
    }

    /// The keys, for tests.
    #[cfg(test)]
    pub fn keys(self) -> [u32; PATH_PREFIX_STEPS] {
        std::array::from_fn(|i| {
            let (half, lane) = if i < HALF { (self.high, i) } else { (self.low, i - HALF) };
            (half >> (32 * (HALF - 1 - lane))) as u32
        })
    }

    /// Whether this prefix sorts before `other`; for prefixes that differ, whether this candidate
    /// precedes the other. Computed without branches: whether a candidate wins is a coin flip, and
    /// a mispredicted branch would cancel the loads of the candidates after it.
    #[inline]
    pub fn is_before(self, other: PathPrefix) -> bool {
        (self.high < other.high) | ((self.high == other.high) & (self.low < other.low))
    }

    /// `a` if `pick_a`, else `b`, without a branch (see [`Self::is_before`]).
    #[inline]
    pub fn select(pick_a: bool, a: PathPrefix, b: PathPrefix) -> PathPrefix {
        PathPrefix {
            high: std::hint::select_unpredictable(pick_a, a.high, b.high),
            low: std::hint::select_unpredictable(pick_a, a.low, b.low),
        }
    }

    /// How two candidates compare on their prefixes: `Equal` means "undecided, climb the tree"
    /// (the candidates themselves are never equal).
    #[cfg(test)]
    pub fn compare(self, other: PathPrefix) -> std::cmp::Ordering {
        self.cmp(&other)
    }
}

/// A [`PathPrefix`] in a slot a whole frontier writes in parallel (each vertex its own; `Relaxed`
/// is enough for the same reason as every other per-vertex array of the pipeline, see
/// `frontier::atomic`). 32-byte aligned, so reading one never straddles two cache lines.
///
/// The slot holds the prefix's bitwise complement, so that all-zero memory is the empty path
/// ([`PathPrefix::EMPTY`] is all ones): a tree's slots come zeroed from the allocator
/// ([`bytemuck::zeroed_vec`]) instead of being filled by one thread.
#[derive(Debug, Default, bytemuck::Zeroable)]
#[repr(C, align(32))]
pub struct PrefixSlot([AtomicU64; 4]);

impl PrefixSlot {
    #[inline]
    pub fn load(&self) -> PathPrefix {
        let [a, b, c, d] = &self.0;
        let join = |x: &AtomicU64, y: &AtomicU64| ((x.load(Relaxed) as u128) << 64) | y.load(Relaxed) as u128;
        PathPrefix { high: !join(a, b), low: !join(c, d) }
    }

    #[inline]
    pub fn store(&self, prefix: PathPrefix) {
        let [a, b, c, d] = &self.0;
        let (high, low) = (!prefix.high, !prefix.low);
        a.store((high >> 64) as u64, Relaxed);
        b.store(high as u64, Relaxed);
        c.store((low >> 64) as u64, Relaxed);
        d.store(low as u64, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering;

    fn path(keys: &[u32]) -> PathPrefix {
        keys.iter().fold(PathPrefix::EMPTY, |p, &k| p.extended(k))
    }

    #[test]
    fn extending_fills_the_keys_in_order_and_stops_when_full() {
        assert_eq!(PathPrefix::EMPTY.keys(), [NONE; 8]);
        assert_eq!(path(&[5, 0, 9]).keys(), [5, 0, 9, NONE, NONE, NONE, NONE, NONE]);
        let full = path(&[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(full.keys(), [1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(full.extended(99), full);
    }

    #[test]
    fn prefixes_compare_like_key_sequences() {
        // Diverging paths: the first differing key decides, whatever follows.
        assert_eq!(path(&[3, 1, 9]).compare(path(&[3, 2, 0])), Ordering::Less);
        assert_eq!(path(&[4]).compare(path(&[3, 7, 7, 7])), Ordering::Greater);
        // The candidate through an ancestor (a shorter path plus v's key) against one through a
        // descendant: v's key against the descendant's step there.
        assert_eq!(path(&[3, 5]).compare(path(&[3, 6, 1])), Ordering::Less);
        assert_eq!(path(&[3, 7]).compare(path(&[3, 6, 1])), Ordering::Greater);
        // Keys in the low half of a word compare too.
        assert_eq!(path(&[0, u32::MAX - 1]).compare(path(&[0, 0, 0])), Ordering::Greater);
        // Agreeing on all eight keys leaves the comparison undecided.
        let long = [1, 2, 3, 4, 5, 6, 7, 8];
        assert_eq!(path(&long).extended(1).compare(path(&long).extended(0)), Ordering::Equal);
    }

    #[test]
    fn is_before_agrees_with_compare() {
        let paths = [
            path(&[]),
            path(&[0]),
            path(&[3, 1, 9]),
            path(&[3, 1, 8, 2]),
            path(&[3, 2]),
            path(&[0, 0, 0, 0, 0, 7]),
            path(&[0, 0, 0, 0, 0, 7, 1]),
            path(&[1, 2, 3, 4, 5, 6, 7, 8]),
            path(&[1, 2, 3, 4, 5, 6, 7, 9]),
            path(&[1, 2, 3, 4, 5, 6, 8]),
        ];
        for a in paths {
            for b in paths {
                assert_eq!(a.is_before(b), a.compare(b) == Ordering::Less, "{:?} vs {:?}", a.keys(), b.keys());
            }
        }
    }

    #[test]
    fn slots_round_trip_and_start_empty() {
        let slot = PrefixSlot::default();
        assert_eq!(slot.load(), PathPrefix::EMPTY);
        let p = path(&[7, 3]);
        slot.store(p);
        assert_eq!(slot.load(), p);
    }
}
