//! What a BFS on the device hands back, whichever side of the `gpu` feature built it.

/// A BFS on the device: its levels, its upload and search seconds, and the device's name.
pub(super) struct Run {
    pub levels: Vec<u32>,
    pub seconds: f64,
    pub upload_seconds: f64,
    pub device: String,
}
