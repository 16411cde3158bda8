//! A square bit matrix, row-major, 64 columns per `u64` word: the closure methods' one data type.

use crate::{Error, Result};
use rayon::prelude::*;

use crate::graph::Graph;

/// `n` × `n` bits; row `i` is `words` consecutive words, bit `j % 64` of word `j / 64` is column `j`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitMatrix {
    n: usize,
    words: usize,
    bits: Vec<u64>,
}

impl BitMatrix {
    /// Bytes an `n` × `n` matrix takes (rows padded to whole words): about n²/8.
    pub fn bytes_for(n: usize) -> u64 {
        n as u64 * n.div_ceil(64) as u64 * 8
    }

    /// An all-zero matrix; running out of memory is an error with the figure, not an abort.
    pub fn zeros(n: usize) -> Result<BitMatrix> {
        let words = n.div_ceil(64);
        let len = n
            .checked_mul(words)
            .ok_or_else(|| Error::OutOfMemory(format!("a {n} × {n} bit matrix is too large to address")))?;
        let mut bits = Vec::new();
        bits.try_reserve_exact(len).map_err(|_| {
            let bytes = crate::format::bytes(Self::bytes_for(n));
            Error::OutOfMemory(format!("cannot allocate a {n} × {n} bit matrix ({bytes} bytes)"))
        })?;
        bits.resize(len, 0);
        Ok(BitMatrix { n, words, bits })
    }

    /// Wraps words laid out as [`BitMatrix`] lays them out (a GPU's result).
    pub fn from_words(n: usize, bits: Vec<u64>) -> Result<BitMatrix> {
        let words = n.div_ceil(64);
        if bits.len() != n * words {
            let (got, wanted) = (bits.len(), n * words);
            return Err(Error::InvalidInput(format!("{got} words for a {n} × {n} bit matrix, not {wanted}")));
        }
        Ok(BitMatrix { n, words, bits })
    }

    /// The reflexive adjacency matrix of a graph: its edges and the diagonal. Closing it gives the
    /// reflexive-transitive closure every method computes.
    pub fn reflexive_adjacency(graph: &Graph) -> Result<BitMatrix> {
        let mut m = BitMatrix::zeros(graph.num_vertices())?;
        let words = m.words;
        m.bits.par_chunks_mut(words.max(1)).enumerate().for_each(|(i, row)| {
            if words == 0 {
                return;
            }
            row[i / 64] |= 1 << (i % 64);
            for &c in graph.children(i as u32) {
                row[c as usize / 64] |= 1 << (c % 64);
            }
        });
        Ok(m)
    }

    /// Rows, which is also the columns (the matrix is `n × n`).
    pub fn n(&self) -> usize {
        self.n
    }

    /// Words per row.
    pub fn words(&self) -> usize {
        self.words
    }

    /// Row `i` as words: column `j` is bit `j % 64` of word `j / 64`.
    pub fn row(&self, i: usize) -> &[u64] {
        &self.bits[i * self.words..(i + 1) * self.words]
    }

    /// Bit `(i, j)`.
    pub fn get(&self, i: usize, j: usize) -> bool {
        self.bits[i * self.words + j / 64] >> (j % 64) & 1 == 1
    }

    /// Sets bit `(i, j)`.
    pub fn set(&mut self, i: usize, j: usize) {
        self.bits[i * self.words + j / 64] |= 1 << (j % 64);
    }

    /// Every word, row after row.
    pub fn as_words(&self) -> &[u64] {
        &self.bits
    }

    /// Every row's words, row after row, to write.
    pub fn as_words_mut(&mut self) -> &mut [u64] {
        &mut self.bits
    }

    /// The set bits of row `i`, in increasing column order.
    pub fn row_ones(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        ones(self.row(i))
    }

    /// Set bits in the whole matrix.
    pub fn count_ones(&self) -> u64 {
        self.bits.par_iter().map(|w| w.count_ones() as u64).sum()
    }
}

/// The set bits of a word slice, in increasing order.
pub fn ones(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                w * 64 + bit
            })
        })
    })
}

/// `into |= from`, word by word.
pub fn or_into(into: &mut [u64], from: &[u64]) {
    into.iter_mut().zip(from).for_each(|(a, b)| *a |= b);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacency_has_edges_and_diagonal() {
        let g = Graph::from_edges(70, &[(0, 69), (69, 1)]).unwrap();
        let m = BitMatrix::reflexive_adjacency(&g).unwrap();
        assert_eq!(m.words(), 2);
        assert!(m.get(0, 69) && m.get(69, 1) && m.get(5, 5) && !m.get(1, 69));
        assert_eq!(m.count_ones(), 72);
        assert_eq!(m.row_ones(69).collect::<Vec<_>>(), vec![1, 69]);
        assert_eq!(BitMatrix::bytes_for(70), 70 * 2 * 8);
    }
}
