//! Floyd-Warshall on an `n × n` distance matrix (row-major, infinity where there is no path yet):
//! `d(i, j) = min(d(i, j), d(i, k) + d(k, j))` for every pivot `k` in turn.
//!
//! With non-negative weights `d(k, k) = 0`, so pivot `k`'s own row and column do not change during
//! its step; the naive form copies that row once per step and relaxes every other row in parallel.
//! The blocked form (Venkataraman, Sahni and Mukhopadhyaya) takes the pivots [`TILE`] at a time:
//! 1. the diagonal tile, closed over its own pivots;
//! 2. the pivot rows' other tiles, then, in parallel over the other row blocks, each block's tile
//!    in the pivot columns (both read the diagonal tile);
//! 3. every remaining tile, from its row's pivot-column tile and its column's pivot-row tile, in
//!    parallel over row blocks; a tile of 64 × 64 `f64` (32 KiB) stays in the first-level cache
//!    while it is read for 64 rows.

use rayon::prelude::*;

/// Side of a tile of the blocked form.
pub const TILE: usize = 64;

/// Rows a parallel task of the naive form takes at least.
const MIN_ROWS: usize = 16;

/// `x = min(x, via + y)` over two equally long slices.
#[inline]
fn relax_row(row: &mut [f64], via: f64, pivot_row: &[f64]) {
    // A select, not a branch, so that the loop vectorises (no NaN can occur: weights are finite
    // and not negative, so a sum is a number or +inf).
    for (x, &y) in row.iter_mut().zip(pivot_row) {
        let candidate = via + y;
        *x = if candidate < *x { candidate } else { *x };
    }
}

/// The naive form on the `n × n` matrix `d`.
pub fn floyd_warshall(d: &mut [f64], n: usize) {
    assert_eq!(d.len(), n * n, "an n × n matrix");
    let mut pivot_row = vec![0.0; n];
    for k in 0..n {
        pivot_row.copy_from_slice(&d[k * n..(k + 1) * n]);
        d.par_chunks_mut(n).with_min_len(MIN_ROWS).for_each(|row| {
            let via = row[k];
            if via.is_finite() {
                relax_row(row, via, &pivot_row);
            }
        });
    }
}

/// The blocked form on the `n × n` matrix `d`; the same distances as [`floyd_warshall`] wherever
/// sums are exact.
pub fn floyd_warshall_blocked(d: &mut [f64], n: usize) {
    assert_eq!(d.len(), n * n, "an n × n matrix");
    for k0 in (0..n).step_by(TILE) {
        let k1 = (k0 + TILE).min(n);
        let (before, rest) = d.split_at_mut(k0 * n);
        let (pivot, after) = rest.split_at_mut((k1 - k0) * n);
        // Phase 1: the diagonal tile. Phase 2, pivot rows: their other tiles, k outermost (a
        // pivot row's entries feed the later pivots' steps).
        for (j0, j1) in std::iter::once((k0, k1)).chain(tiles(n, k0)) {
            for k in k0..k1 {
                for i in 0..k1 - k0 {
                    let via = pivot[i * n + k];
                    if via.is_finite() && i != k - k0 {
                        let (row, pivot_row) = two_rows(pivot, n, i, k - k0);
                        relax_row(&mut row[j0..j1], via, &pivot_row[j0..j1]);
                    }
                }
            }
        }
        let pivot = &*pivot;
        before.par_chunks_mut(TILE * n).chain(after.par_chunks_mut(TILE * n)).for_each(|block| {
            let rows = block.len() / n;
            // Phase 2, pivot columns: this block's tile there, k outermost.
            for k in k0..k1 {
                let pivot_row = &pivot[(k - k0) * n..(k - k0 + 1) * n];
                for i in 0..rows {
                    let row = &mut block[i * n..(i + 1) * n];
                    let via = row[k];
                    if via.is_finite() {
                        relax_row(&mut row[k0..k1], via, &pivot_row[k0..k1]);
                    }
                }
            }
            // Phase 3: the other tiles, from final pivot-column and pivot-row tiles; a row at a
            // time, through all its tiles, while the block's pivot rows stay in cache.
            for i in 0..rows {
                let row = &mut block[i * n..(i + 1) * n];
                for k in k0..k1 {
                    let via = row[k];
                    if via.is_finite() {
                        let pivot_row = &pivot[(k - k0) * n..(k - k0 + 1) * n];
                        relax_row(&mut row[..k0], via, &pivot_row[..k0]);
                        relax_row(&mut row[k1..], via, &pivot_row[k1..]);
                    }
                }
            }
        });
    }
}

/// The column ranges of the tiles other than the one starting at `skip`.
fn tiles(n: usize, skip: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).step_by(TILE).filter(move |&j0| j0 != skip).map(move |j0| (j0, (j0 + TILE).min(n)))
}

/// Row `i` (mutable) and row `k` (read) of a matrix of rows of `n`, `i ≠ k`.
fn two_rows(m: &mut [f64], n: usize, i: usize, k: usize) -> (&mut [f64], &[f64]) {
    if i < k {
        let (low, high) = m.split_at_mut(k * n);
        (&mut low[i * n..(i + 1) * n], &high[..n])
    } else {
        let (low, high) = m.split_at_mut(i * n);
        (&mut high[..n], &low[k * n..(k + 1) * n])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path 0 -> 1 -> ... -> n-1 of unit steps, plus a shortcut of weight 3 from 0 to n-1.
    fn chain(n: usize) -> Vec<f64> {
        let mut d = vec![f64::INFINITY; n * n];
        for i in 0..n {
            d[i * n + i] = 0.0;
            if i + 1 < n {
                d[i * n + i + 1] = 1.0;
            }
        }
        d[n - 1] = 3.0;
        d
    }

    #[test]
    fn both_forms_close_a_chain_across_tiles() {
        let n = 2 * TILE + 5;
        let (mut naive, mut blocked) = (chain(n), chain(n));
        floyd_warshall(&mut naive, n);
        floyd_warshall_blocked(&mut blocked, n);
        assert_eq!(naive, blocked);
        assert_eq!(naive[n - 1], 3.0);
        assert_eq!(naive[n + n - 1], (n - 2) as f64);
        assert_eq!(naive[(n - 1) * n], f64::INFINITY);
    }
}
