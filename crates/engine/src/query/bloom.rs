//! Bloom-filter labels over DFS intervals (BFL's idea): every vertex hashes to one of 64 bits,
//! and a vertex's descendant filter is the OR of its descendants' bits (its ancestor filter, of its
//! ancestors'). If `u ⇝ v`, everything below `v` is below `u`, so `out(v) ⊆ out(u)`, and likewise
//! `in(u) ⊆ in(v)`: a bit of `v`'s filter missing from `u`'s disproves the query.
//!
//! Vertices are hashed by their DFS post-order position in groups of consecutive positions, not one
//! by one: a DFS subtree is a range of positions, so a vertex's descendants fall into few groups and
//! its filter stays sparse (a filter with every bit set cuts nothing).

/// Words per filter (64 bits).
pub const BLOOM_WORDS: usize = 1;
const BITS: u64 = 64 * BLOOM_WORDS as u64;

/// Groups of consecutive post-order positions, each hashed to one bit. More groups than bits, so
/// that two vertices far apart in the DFS rarely share every bit.
const GROUPS: u64 = 8 * BITS;

/// The bit of the vertex at (1-based) post-order position `post` among `n`: that of its group,
/// `(post - 1) · GROUPS / n`.
pub fn bit_of(post: u32, n: usize) -> usize {
    group_bit((post as u64 - 1) * GROUPS / n.max(1) as u64)
}

/// A group's bit: a fixed mix (SplitMix64's finaliser), so neighbouring groups land on unrelated
/// bits.
fn group_bit(group: u64) -> usize {
    let mut z = group.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ((z ^ (z >> 31)) % BITS) as usize
}

/// The bits of post-order positions 1, 2, ..., n in turn, as a DFS finishes its vertices: the
/// group advances when `(post - 1) · GROUPS` passes the next multiple of `n` (no division per
/// vertex), and each group's bit is looked up.
pub(crate) struct BloomBits {
    n: u64,
    group: usize,
    /// `(post - 1) · GROUPS` for the next post.
    scaled: u64,
    /// `(group + 1) · n`: where the next group starts, scaled like `scaled`.
    next_group: u64,
    bits: [u8; GROUPS as usize],
}

impl BloomBits {
    /// The bits of a DFS over `n` vertices, from post 1.
    pub(crate) fn new(n: usize) -> BloomBits {
        let n = n.max(1) as u64;
        let bits = std::array::from_fn(|g| group_bit(g as u64) as u8);
        BloomBits { n, group: 0, scaled: 0, next_group: n, bits }
    }

    /// The bit of the next post (at most `n` calls).
    #[inline]
    pub(crate) fn next(&mut self) -> usize {
        while self.scaled >= self.next_group {
            self.group += 1;
            self.next_group += self.n;
        }
        self.scaled += GROUPS;
        usize::from(self.bits[self.group])
    }
}

/// Per vertex, its descendant and ancestor filters. `forward` and `backward` are the post-order
/// numbers of a DFS over children and over parents; `topological` a topological order. The
/// reference the DFS passes of `index_passes` are checked against.
#[cfg(test)]
pub fn bloom_bits(
    dag: &crate::graph::Graph,
    topological: &[u32],
    forward: &[u32],
    backward: &[u32],
) -> (Vec<[u64; BLOOM_WORDS]>, Vec<[u64; BLOOM_WORDS]>) {
    let n = dag.num_vertices();
    let own = |post: &[u32]| -> Vec<[u64; BLOOM_WORDS]> {
        post.iter()
            .map(|&p| {
                let mut words = [0u64; BLOOM_WORDS];
                let b = bit_of(p, n);
                words[b / 64] |= 1 << (b % 64);
                words
            })
            .collect()
    };
    let mut out = own(forward);
    for &x in topological.iter().rev() {
        let mut words = out[x as usize];
        for &c in dag.children(x) {
            for (w, cw) in words.iter_mut().zip(out[c as usize]) {
                *w |= cw;
            }
        }
        out[x as usize] = words;
    }
    let mut inn = own(backward);
    for &x in topological {
        let mut words = inn[x as usize];
        for &p in dag.parents(x) {
            for (w, pw) in words.iter_mut().zip(inn[p as usize]) {
                *w |= pw;
            }
        }
        inn[x as usize] = words;
    }
    (out, inn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_cover_the_range_and_groups_share_a_bit() {
        let n = 10_000;
        let bits: std::collections::HashSet<usize> = (1..=n as u32).map(|p| bit_of(p, n)).collect();
        assert!(bits.len() as u64 > BITS / 2 && bits.iter().all(|&b| b < BITS as usize));
        // Consecutive positions in one group hash alike.
        assert_eq!(bit_of(1, n), bit_of(2, n));
    }

    #[test]
    fn bits_in_turn_are_the_bits_by_division() {
        for n in [1usize, 2, 7, 511, 512, 513, 1000, 10_007] {
            let mut bits = BloomBits::new(n);
            for post in 1..=n as u32 {
                assert_eq!(bits.next(), bit_of(post, n), "n {n} post {post}");
            }
        }
    }
}
