//! From a closure of the condensation back to the file's vertices: the number of reachable pairs,
//! and the pairs themselves.

use super::super::bitmatrix::{BitMatrix, ones};
use crate::graph::names::VertexNames;
use crate::{Error, Result};
use rayon::prelude::*;
use std::io::Write;

/// Ordered pairs (u, v) of distinct file vertices with u reaching v, from the reflexive closure of
/// the condensation and the component sizes: component c's row weighs each reached component by its
/// size, and c's own members reach each other (so a cycle's members count one another).
pub fn count(closure: &BitMatrix, sizes: &[u32]) -> u64 {
    (0..closure.n())
        .into_par_iter()
        .map(|c| {
            let own = sizes[c] as u64;
            let reached: u64 = closure.row_ones(c).map(|d| sizes[d] as u64).sum();
            own * reached - own
        })
        .sum()
}

/// The same count from the words of 64·W *targets* per source (one block of a streaming pass):
/// `block[v]` holds, for source v, which of the block's targets it reaches.
pub fn count_block(block: &[u64], block_words: usize, first_target: usize, sizes: &[u32]) -> u64 {
    block
        .par_chunks(block_words)
        .enumerate()
        .map(|(v, words)| {
            let own = sizes[v] as u64;
            let reached: u64 = ones(words).map(|d| sizes[first_target + d] as u64).sum();
            // v's own bit (reflexive) counts its members reaching each other, not themselves.
            let self_bit = (first_target..first_target + 64 * block_words).contains(&v) as u64;
            own * reached - own * self_bit
        })
        .sum()
}

/// Writes every pair `u v` (file ids or names, one pair a line) with u ≠ v and u reaching v.
pub fn write(closure: &BitMatrix, component: &[u32], names: &VertexNames, out: &mut impl Write) -> Result<u64> {
    let components = closure.n();
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); components];
    for (v, &c) in component.iter().enumerate() {
        members[c as usize].push(v as u32);
    }
    let mut written = 0u64;
    for (u, &cu) in component.iter().enumerate() {
        let from = names.label(u as u32);
        for d in closure.row_ones(cu as usize) {
            for &v in &members[d] {
                if v as usize != u {
                    writeln!(out, "{from} {}", names.label(v)).map_err(|source| Error::Io {
                        path: None,
                        message: "cannot write the pairs".into(),
                        source,
                    })?;
                    written += 1;
                }
            }
        }
    }
    Ok(written)
}
