//! Floyd-Warshall on bit rows: after pivot k, every row that reaches k also reaches all k reaches
//! (row i |= row k when bit k of row i is set). Naive: one pivot at a time over all rows. Tiled:
//! pivots in blocks of [`BLOCK`], three phases per block, so the block's rows are read from cache by
//! every other row in one sweep instead of once per pivot.

use super::super::bitmatrix::{BitMatrix, or_into};
use rayon::prelude::*;

/// Pivots per block (four words of the pivot rows per row in phase 3).
pub const BLOCK: usize = 256;

/// Closes a reflexive matrix in place, one pivot at a time.
pub fn naive(a: &mut BitMatrix) {
    let (n, words) = (a.n(), a.words().max(1));
    let mut pivot = vec![0u64; words];
    for k in 0..n {
        pivot.copy_from_slice(a.row(k));
        let (kw, kb) = (k / 64, 1u64 << (k % 64));
        a.as_words_mut().par_chunks_mut(words).for_each(|row| {
            if row[kw] & kb != 0 {
                or_into(row, &pivot);
            }
        });
    }
}

/// Closes a reflexive matrix in place, pivots in blocks of [`BLOCK`]:
/// 1. the diagonal block: Floyd-Warshall among the block's own vertices (their columns only);
/// 2. the pivot rows: each row of the block ORs in the (now closed) block rows it reaches;
/// 3. every other row ORs in the pivot rows its bits in the block select (its bits as they were
///    before, the pivot rows as they are after phase 2: that is the column update and the rest at once).
pub fn tiled(a: &mut BitMatrix) {
    let (n, words) = (a.n(), a.words().max(1));
    for start in (0..n).step_by(BLOCK) {
        let end = (start + BLOCK).min(n);
        let (w0, w1) = (start / 64, end.div_ceil(64));
        // Phase 1: the diagonal block, its own columns.
        for k in start..end {
            let pivot: Vec<u64> = a.row(k)[w0..w1].to_vec();
            for i in start..end {
                if a.get(i, k) {
                    let row = &mut a.as_words_mut()[i * words..(i + 1) * words];
                    or_into(&mut row[w0..w1], &pivot);
                }
            }
        }
        // Phase 2: the pivot rows, whole.
        let before: Vec<u64> = a.as_words()[start * words..end * words].to_vec();
        a.as_words_mut()[start * words..end * words].par_chunks_mut(words).for_each(|row| {
            let selected: Vec<u64> = row[w0..w1].to_vec();
            for k in super::super::bitmatrix::ones(&selected).map(|b| w0 * 64 + b) {
                if (start..end).contains(&k) {
                    or_into(row, &before[(k - start) * words..(k - start + 1) * words]);
                }
            }
        });
        // Phase 3: every other row.
        let (head, rest) = a.as_words_mut().split_at_mut(start * words);
        let (pivots, tail) = rest.split_at_mut((end - start) * words);
        let pivots: &[u64] = pivots;
        head.par_chunks_mut(words).chain(tail.par_chunks_mut(words)).for_each(|row| {
            let selected: Vec<u64> = row[w0..w1].to_vec();
            for k in super::super::bitmatrix::ones(&selected).map(|b| w0 * 64 + b) {
                if (start..end).contains(&k) {
                    or_into(row, &pivots[(k - start) * words..(k - start + 1) * words]);
                }
            }
        });
    }
}
