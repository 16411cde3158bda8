//! Graph file formats: readers chosen by content sniffing (or `--format`), gzip read transparently,
//! and writers.
//!
//! Every reader scans bytes (no UTF-8 requirement), names the file and line of the first problem as
//! `FILE:LINE: <what was found>; expected <what>`, and either returns a whole graph or an error:
//! never a panic, never a half-loaded graph.

pub mod atomic_write;
pub mod binary;
mod binary_weights;
pub mod bounded;
mod chunk_parse;
mod counted_body;
mod edge_list;
mod format;
mod gra;
mod header;
mod held_text;
mod id_map;
mod matrix_market;
mod named;
mod numbering;
mod parallel;
mod read;
mod scan;
mod sniff;
pub mod watch;
mod weighted;
mod weights;
mod write;

#[cfg(test)]
mod dataset_tests;

pub use atomic_write::{Staged, all_or_nothing, remove_on_success, write_atomically};
pub use format::Format;
pub use id_map::{id_map_path, is_id_map, write_id_map};
pub use named::{quoted, split_closed_fields, split_fields};
pub use read::read_bytes;
pub use sniff::sniff;
pub use watch::Watch;
pub use weights::{load_weighted, parse_weighted};
pub use write::{write, write_weighted, write_with_weights};

use super::load_report::LoadReport;
use super::{Graph, LoadedGraph, VertexNames};
use crate::{Error, Result};
use std::path::Path;
use std::sync::Arc;

/// A text file's graph, its vertex names, the format it was read as and what reading did.
pub type ReadText = (Graph, VertexNames, Format, LoadReport);

/// Parses already-decompressed bytes in `format`, or in the format [`sniff`] guesses. `source` (a
/// file name) starts every error message. Returns the format actually used. Parses on every core;
/// when that finds a problem, the format's sequential reader reads again and words it.
pub fn parse(bytes: &[u8], source: &str, format: Option<Format>) -> Result<ReadText> {
    match parallel::parse(bytes, format) {
        Some(parsed) => Ok(parsed),
        None => parse_sequentially(bytes, source, format),
    }
}

/// Reads `bytes` as [`load`] reads a file, streamed in blocks of about `block` bytes; `None` where
/// [`load`] would turn to the sequential reader. For the fuzz targets, which use tiny blocks.
#[doc(hidden)]
pub fn parse_streamed(bytes: &[u8], format: Option<Format>, block: usize) -> Option<ReadText> {
    parallel::parse_stream_in_blocks(Box::new(bytes), format, block)
}

/// Reads `bytes` as the sequential reader reads a file it streams: taken in blocks of about
/// `block` bytes, held without most of its blank and comment lines ([`held_text`]). For the fuzz
/// targets and tests, which check that this reads every text as [`parse_sequentially`] does.
#[doc(hidden)]
pub fn parse_held_in_blocks(bytes: &[u8], source: &str, format: Option<Format>, block: usize) -> Result<ReadText> {
    let mut held = held_text::HeldText::default();
    read::for_each_block(&mut &bytes[..], block, |b| held.push(b)).map_err(Error::other)?;
    parse_text(held.text(true), source, format)
}

/// The sequential readers: the reference for what is accepted, and the source of every message.
pub fn parse_sequentially(bytes: &[u8], source: &str, format: Option<Format>) -> Result<ReadText> {
    parse_text(held_text::Text::whole(bytes), source, format)
}

/// A held text parsed on every core when it is held whole (it has no holes), else sequentially.
fn parse_held(text: held_text::Text, source: &str, format: Option<Format>) -> Result<ReadText> {
    if text.holes.is_empty() { parse(text.bytes, source, format) } else { parse_text(text, source, format) }
}

/// [`parse_sequentially`] on a held text.
fn parse_text(text: held_text::Text, source: &str, format: Option<Format>) -> Result<ReadText> {
    // Asked for by name, `named` reads every field as a name; guessed, fields of digits are ids.
    let fields_are = if format.is_some() { named::Fields::Names } else { named::Fields::Guessed };
    let format = format.unwrap_or_else(|| sniff::sniff_text(text));
    let ctx = scan::Ctx { source };
    let (graph, names, reading) = match format {
        Format::Gra => gra::parse(text, ctx)?,
        Format::EdgeList => edge_list::parse(text, ctx)?,
        Format::MatrixMarket => matrix_market::parse(text, ctx)?,
        Format::Weighted => weighted::parse(text, ctx)?,
        Format::Header => header::parse(text, ctx)?,
        Format::Named => named::parse(text, ctx, fields_are)?,
        Format::Grail => {
            return Err(Error::InvalidInput(format!(
                "{source}: a .grail file is opened from a file (memory-mapped), not parsed as text"
            )));
        }
    };
    let report = LoadReport::finish(reading, &graph, &names);
    Ok((graph, names, format, report))
}

/// The whole graph of a file, or an error naming it. A `.grail` file (by its magic bytes) is mapped
/// ([`binary::open`]). A text file is read in blocks, gunzipped on one
/// thread when it is gzip, and parsed on every core while it is read; a problem, or a format only
/// the sequential reader reads (named edge lists), makes the sequential reader read it again,
/// held without most of its blank and comment lines (`held_text`), to word the error.
pub fn load(path: &Path, format: Option<Format>) -> Result<LoadedGraph> {
    load_watched(path, format, Watch::none())
}

/// [`load`], its reading counted and stopped by `watch`: a cancel gives [`Cancel::Load`](crate::Cancel::Load), never the
/// sequential reader's second try.
pub fn load_watched(path: &Path, format: Option<Format>, watch: Watch) -> Result<LoadedGraph> {
    bounded::check_regular(path, "graphs")?;
    if format == Some(Format::Grail) || binary::is_binary(path) {
        return binary::open(path).map(|(loaded, _)| loaded);
    }
    let streamed = read::open_stream(path, watch).ok().and_then(|stream| parallel::parse_stream(stream, format));
    let (graph, names, format, report) = match streamed {
        Some(parsed) => parsed,
        None => {
            watch.check()?;
            let mut held = read::read_held_watched(path, watch)?;
            watch.check()?;
            parse_text(held.text(true), &path.display().to_string(), format)?
        }
    };
    Ok(LoadedGraph { graph: Arc::new(graph), names, format, path: path.to_path_buf(), report: Some(report) })
}
