//! A graph's identity: XXH3-128 over `n`, `m` and the children CSR arrays, little-endian.
//! Index files store it, so an index is never applied to a graph it was not built for.

use super::Graph;
use xxhash_rust::xxh3::Xxh3;

/// The fingerprint of `graph` (its children CSR as stored: lists sorted, duplicates removed, so two
/// files spelling the same graph differently agree).
pub fn fingerprint(graph: &Graph) -> u128 {
    let csr = graph.children_csr();
    let mut hasher = Xxh3::new();
    hasher.update(&(graph.num_vertices() as u64).to_le_bytes());
    hasher.update(&(graph.num_edges() as u64).to_le_bytes());
    update_le(&mut hasher, csr.offsets());
    update_le(&mut hasher, csr.targets());
    hasher.digest128()
}

/// Formats a fingerprint the way messages and `grail info` show it.
pub fn to_hex(fingerprint: u128) -> String {
    format!("{fingerprint:032x}")
}

/// Hashes integers as little-endian bytes: a straight cast on little-endian hosts, a conversion
/// on big-endian ones, so every machine computes the same value.
fn update_le<T: bytemuck::Pod + ToLe>(hasher: &mut Xxh3, values: &[T]) {
    if cfg!(target_endian = "little") {
        hasher.update(bytemuck::cast_slice(values));
    } else {
        for chunk in values.chunks(4096) {
            let converted: Vec<T> = chunk.iter().map(|v| v.to_le()).collect();
            hasher.update(bytemuck::cast_slice(&converted));
        }
    }
}

trait ToLe: Copy {
    fn to_le(self) -> Self;
}

impl ToLe for u32 {
    fn to_le(self) -> Self {
        u32::to_le(self)
    }
}

impl ToLe for u64 {
    fn to_le(self) -> Self {
        u64::to_le(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::generators;

    #[test]
    fn same_graph_same_fingerprint_however_spelled() {
        let a = Graph::from_edges(4, &[(0, 1), (1, 2), (2, 3)]).unwrap();
        let b = Graph::from_edges(4, &[(2, 3), (0, 1), (1, 2), (0, 1), (3, 3)]).unwrap();
        assert_eq!(fingerprint(&a), fingerprint(&b));
    }

    #[test]
    fn any_change_changes_it() {
        let base = Graph::from_edges(4, &[(0, 1), (1, 2), (2, 3)]).unwrap();
        let others = [
            Graph::from_edges(5, &[(0, 1), (1, 2), (2, 3)]).unwrap(), // one more vertex
            Graph::from_edges(4, &[(0, 1), (1, 2)]).unwrap(),         // one less edge
            Graph::from_edges(4, &[(0, 1), (1, 3), (2, 3)]).unwrap(), // one target moved
            Graph::from_edges(4, &[(0, 1), (0, 2), (2, 3)]).unwrap(), // one source moved
        ];
        for other in &others {
            assert_ne!(fingerprint(&base), fingerprint(other));
        }
    }

    /// Pins the generators' random streams and this hash: a change to either (or to the crates
    /// behind them) would silently make "the same seed" mean another graph on some machines.
    #[test]
    fn seeded_generators_are_stable_across_builds() {
        let dag = generators::random_dag(1_000, 3.0, 42).unwrap();
        assert_eq!(to_hex(fingerprint(&dag)), "456e0b293d04f7cc151451d23b0cd740");
        let ba = generators::scale_free(1_000, 2, 42).unwrap();
        assert_eq!(to_hex(fingerprint(&ba)), "5767c7e489745b7f749327d1eb4d4328");
        let digraph = generators::random_digraph(1_000, 2.0, 42).unwrap();
        assert_eq!(to_hex(fingerprint(&digraph)), "d967f7e7ad626f5954e14ffb43af128d");
    }
}
