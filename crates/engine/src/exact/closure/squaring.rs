//! Boolean matrix squaring: with A reflexive, A·A holds the paths of up to two steps of A, so
//! ⌈log₂ L⌉ squarings (L the longest shortest path) reach the closure; it stops when a square
//! changes nothing. A product row is the OR of the rows its row's bits select.

use super::super::bitmatrix::{BitMatrix, or_into};
use crate::Result;
use rayon::prelude::*;

/// The reflexive-transitive closure of a reflexive matrix.
pub fn close(mut a: BitMatrix) -> Result<BitMatrix> {
    let mut next = BitMatrix::zeros(a.n())?;
    loop {
        let changed = square_into(&a, &mut next);
        std::mem::swap(&mut a, &mut next);
        if !changed {
            return Ok(a);
        }
    }
}

/// `out = a·a`; whether it differs from `a`.
pub fn square_into(a: &BitMatrix, out: &mut BitMatrix) -> bool {
    let words = a.words().max(1);
    out.as_words_mut()
        .par_chunks_mut(words)
        .enumerate()
        .map(|(i, row)| {
            row.iter_mut().for_each(|w| *w = 0);
            for k in a.row_ones(i) {
                or_into(row, a.row(k));
            }
            row != a.row(i)
        })
        .reduce(|| false, |x, y| x || y)
}
