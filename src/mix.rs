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

/// The priority of vertex `v` in dimension `dim`: `splitmix(splitmix(splitmix(seed) ^ dim) ^ v)`.
#[inline]
pub fn mix64(seed: u64, dim: u64, v: u64) -> u64 {
    splitmix64(splitmix64(splitmix64(seed) ^ dim) ^ v)
}
