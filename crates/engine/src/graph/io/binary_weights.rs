//! The edge weights a `.grail` file may hold (flag bit 1, version 3): `8m` bytes after the graph's
//! checksum, one `f64` per edge in the order of the children targets, then their own checksum.
//! Read only here, for the weighted commands: opening the graph maps and checks everything before
//! them ([`super::binary::open`]), so reachability never reads nor hashes a weight.

use super::binary::{self, checksum, corrupt};
use crate::error::IoContext;
use crate::graph::Weight;
use crate::{Error, Result};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// The weights of the `.grail` file at `path`, in the order of its children CSR, or None when it
/// holds none. The header, the length, the weights' checksum and every weight (finite, not
/// negative) are checked; a problem is `FILE: corrupt .grail file (...)`.
pub fn read_weights(path: &Path) -> Result<Option<Vec<Weight>>> {
    let shown = path.display();
    if cfg!(target_endian = "big") {
        return Err(Error::InvalidInput(format!("{shown}: .grail files are little-endian and this machine is not")));
    }
    let mut file = super::bounded::open_regular(path, "graphs")?;
    let file_bytes = file.metadata().io_context(path, || format!("reading metadata of {shown}"))?.len();
    let mut head = Vec::new();
    (&mut file)
        .take(binary::HEADER_BYTES)
        .read_to_end(&mut head)
        .io_context(path, || format!("cannot read {shown}"))?;
    let malformed = |why| Error::malformed_file(shown.to_string(), why);
    let header = binary::header_of(&head).map_err(malformed)?;
    if !header.has_weights() {
        return Ok(None);
    }
    let layout = binary::layout_of(&header, file_bytes).map_err(malformed)?;
    let count = usize::try_from(header.edges()).map_err(|_| malformed(corrupt("impossible sizes")))?;
    let mut weights: Vec<Weight> = Vec::new();
    weights
        .try_reserve_exact(count)
        .map_err(|_| Error::OutOfMemory(format!("{shown}: no memory for {count} weights")))?;
    weights.resize(count, 0.0);
    let mut stored = [0u8; 8];
    file.seek(SeekFrom::Start(layout.checksum_at + 8))
        .and_then(|_| file.read_exact(bytemuck::cast_slice_mut(&mut weights)))
        .and_then(|()| file.read_exact(&mut stored))
        .io_context(path, || format!("cannot read the weights of {shown}"))?;
    if checksum(bytemuck::cast_slice(&weights)) != u64::from_le_bytes(stored) {
        let why = corrupt("weights: checksum mismatch: the file was changed or damaged after it was written");
        return Err(malformed(why));
    }
    if let Some((edge, w)) = weights.iter().enumerate().find(|(_, w)| !(w.is_finite() && **w >= 0.0)) {
        return Err(malformed(corrupt(format!("weights: edge {edge} weighs {w}, not a finite number of 0 or more"))));
    }
    Ok(Some(weights))
}
