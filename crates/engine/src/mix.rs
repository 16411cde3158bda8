//! The 64-bit mixer behind every seeded choice: random label orders (docs/ALGORITHMS.md) and the
//! generators' per-vertex streams. A leaf module, so that both `graph/` and `index/` can use it
//! without one depending on the other.

/// splitmix64's finaliser.
#[inline]
pub fn splitmix64(x: u64) -> u64 {
    let x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The inverse of [`splitmix64`] (it is a bijection: each step, an add, an xor-shift or a product
/// with an odd constant, can be undone), so a sort of bare priorities can name their vertices.
#[inline]
pub fn unsplitmix64(x: u64) -> u64 {
    const UNDO_SECOND: u64 = inverse(0x94D0_49BB_1331_11EB);
    const UNDO_FIRST: u64 = inverse(0xBF58_476D_1CE4_E5B9);
    let x = unshift(x, 31).wrapping_mul(UNDO_SECOND);
    let x = unshift(x, 27).wrapping_mul(UNDO_FIRST);
    unshift(x, 30).wrapping_sub(0x9E37_79B9_7F4A_7C15)
}

/// `base` with which `mix64(seed, dim, v) == splitmix64(base ^ v)`: a dimension's priorities differ
/// only in `v`.
#[inline]
pub fn mix_base(seed: u64, dim: u64) -> u64 {
    splitmix64(splitmix64(seed) ^ dim)
}

/// Vertex `v`'s priority in the dimension whose base is `base`: `mix64(seed, dim, v)`.
#[inline]
pub fn priority(base: u64, v: u32) -> u64 {
    splitmix64(base ^ u64::from(v))
}

/// The vertex whose priority is `priority` in the dimension whose base is `base` (the mixer is a
/// bijection, so a sort of bare priorities can name its vertices).
#[inline]
pub fn vertex_of(base: u64, priority: u64) -> u32 {
    (unsplitmix64(priority) ^ base) as u32
}

/// Undoes `x ^ (x >> s)` for `s >= 22` (three terms reach every bit).
const fn unshift(y: u64, s: u32) -> u64 {
    y ^ (y >> s) ^ (y >> (2 * s))
}

/// The inverse of an odd `a` modulo 2^64 (Newton's iteration doubles the correct low bits, from
/// the 3 that `a * a = 1 (mod 8)` gives, to 96).
const fn inverse(a: u64) -> u64 {
    let mut inv = a;
    let mut i = 0;
    while i < 5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(inv)));
        i += 1;
    }
    inv
}

/// The priority of vertex `v` in dimension `dim`: `splitmix(splitmix(splitmix(seed) ^ dim) ^ v)`.
#[inline]
pub fn mix64(seed: u64, dim: u64, v: u64) -> u64 {
    splitmix64(mix_base(seed, dim) ^ v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsplitmix_undoes_splitmix() {
        for x in [0, 1, 2, u64::MAX, 0x9E37_79B9_7F4A_7C15, 1 << 63, 12_345_678_901_234_567] {
            assert_eq!(unsplitmix64(splitmix64(x)), x);
            assert_eq!(splitmix64(unsplitmix64(x)), x);
        }
        let mut x = 7u64;
        for _ in 0..10_000 {
            x = splitmix64(x);
            assert_eq!(unsplitmix64(splitmix64(x)), x);
        }
    }
}
