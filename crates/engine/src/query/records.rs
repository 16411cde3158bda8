//! The query index's per-vertex records: what the extra cuts read about one vertex.

use super::bloom::BLOOM_WORDS;
use super::supportive::SupportMask;

/// Topological orders kept per vertex (forward and backward DFS).
pub const TOPO_ORDERS: usize = 2;

/// Positions of a vertex in two topological orders: `u ⇝ v` (u ≠ v) needs `topo[i](u) < topo[i](v)`.
pub type TopoPositions = [u32; TOPO_ORDERS];

/// One vertex's supportive-vertex masks and Bloom filters (48 bytes, 16-aligned, no padding: the
/// GPU search reads it as six u64 words in this order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(16))]
pub struct VertexCuts {
    /// Bit `i`: supportive vertex `i` reaches this vertex (itself included).
    pub from_support: SupportMask,
    /// Bit `i`: this vertex reaches supportive vertex `i` (itself included).
    pub to_support: SupportMask,
    /// Bloom filter of the vertex's descendants (itself included).
    pub bloom_out: [u64; BLOOM_WORDS],
    /// Bloom filter of the vertex's ancestors (itself included).
    pub bloom_in: [u64; BLOOM_WORDS],
}
