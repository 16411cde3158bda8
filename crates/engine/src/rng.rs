//! The one random-number generator of the crate: every seeded random choice (the generators'
//! per-vertex streams, random query sets, sampled exception pairs) draws from [`seeded`].
//!
//! PCG-64 MCG (`rand_pcg::Pcg64Mcg`): portable (the same seed gives the same numbers on every
//! machine and `rand` version of the 0.10 line), 16 bytes of state and cheap to seed, which the
//! generators need (a fresh stream per vertex, so a graph is the same at any thread count). Nothing
//! here needs a cryptographic generator such as ChaCha: the draws are reproducible samples, never
//! secrets.

use rand::SeedableRng;

pub use rand_pcg::Pcg64Mcg as Rng;

/// The generator for `seed` (expanded to the full state by `SeedableRng::seed_from_u64`).
pub fn seeded(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}
