//! The bodies of the fuzz targets (`fuzz/`, run with `cargo +nightly fuzz run TARGET`) and of the
//! stable smoke test that runs them over seeds and mutations: each takes arbitrary bytes, reads
//! them the way a user's file is read, and panics only on a bug. An error is a fine outcome; a
//! panic, a hang, an allocation out of proportion to the input or two readers disagreeing is not.

use crate::graph::VertexNames;
use crate::graph::io::{self, Format};
use std::io::Read;
use std::path::Path;

/// Text past this many bytes (after gunzipping) is cut: a fuzz input stays quick to read.
const MAX_TEXT: u64 = 1 << 24;

/// Reads `data` as a graph text in `format` (None: sniffed), on every core, sequentially and with
/// its weights: what the parallel reader or the weighted one accepts, the sequential reader must
/// accept as the same graph.
pub fn text(data: &[u8], format: Option<Format>) {
    let sequential = io::parse_sequentially(data, "fuzz", format);
    if let Ok(weighted) = io::parse_weighted(data, "fuzz", format) {
        let graph = &sequential.as_ref().expect("the sequential reader refuses what the weighted one accepts").0;
        assert!(weighted.graph() == graph, "the weighted and the sequential readers read different graphs");
    }
    if let Ok(parallel) = io::parse(data, "fuzz", format) {
        let sequential = sequential.as_ref().expect("the sequential reader refuses what the parallel one accepts");
        assert!(&parallel == sequential, "the parallel and the sequential readers read different graphs");
    }
    // Held as the sequential reader holds a file (most blank and comment lines as counts): read
    // the same, to the word of every message.
    let held = io::parse_held_in_blocks(data, "fuzz", format, STREAM_BLOCK);
    match (&held, &sequential) {
        (Ok(held), Ok(sequential)) => assert!(held == sequential, "the held text reads as another graph"),
        (Err(held), Err(sequential)) => assert_eq!(format!("{held:#}"), format!("{sequential:#}")),
        _ => panic!("the held text and the whole one are read differently: {:?}", held.as_ref().err()),
    }
    // Streamed in tiny blocks, as a file is loaded: blank and comment lines are held as counts.
    if let Some(streamed) = io::parse_streamed(data, format, STREAM_BLOCK) {
        let sequential = sequential.as_ref().expect("the sequential reader refuses what the streamed one accepts");
        assert!(&streamed == sequential, "the streamed and the sequential readers read different graphs");
    }
}

/// The block size the fuzz targets stream text in: small, so that inputs of a few hundred bytes
/// make many blocks, some all blank.
const STREAM_BLOCK: usize = 16;

/// Reads `data` as a gzip file holding a graph text (sniffed).
pub fn gzip(data: &[u8]) {
    let mut text = Vec::new();
    let decoder = flate2::bufread::MultiGzDecoder::new(data);
    if io::bounded::LineBounded::new(decoder).take(MAX_TEXT).read_to_end(&mut text).is_ok() {
        self::text(&text, None);
    }
}

/// Loads `data` from a file, as every command does: by content (`.grail`, gzip or text).
pub fn file(data: &[u8]) {
    with_file(data, |path| {
        let _ = io::load(path, None);
    });
}

/// Opens `data` as a `.grail` file, and reads it with its weights.
pub fn grail(data: &[u8]) {
    with_file(data, |path| {
        let _ = io::binary::open(path);
        let _ = io::load_weighted(path, Some(io::Format::Grail));
    });
}

/// Reads `data` as an index file: its header, then the whole index.
pub fn index(data: &[u8]) {
    with_file(data, |path| {
        let _ = crate::index::store::read_header(path);
        let _ = crate::index::store::load(path, None);
    });
}

/// Reads `data` as a query file for a graph of 8 vertices with dense ids and with sparse ones.
pub fn queries(data: &[u8]) {
    with_file(data, |path| {
        let _ = crate::query::read_query_file(path, &VertexNames::Dense, 8);
        let _ = crate::query::read_query_file(path, &VertexNames::remapped(vec![3, 1 << 40, 7]), 3);
    });
}

/// A target: its name (the fuzz crate's binary) and its body.
pub type Target = (&'static str, fn(&[u8]));

/// Every target by name, for the smoke test.
pub const TARGETS: [Target; 11] = [
    ("sniffed", |d| text(d, None)),
    ("edge_list", |d| text(d, Some(Format::EdgeList))),
    ("gra", |d| text(d, Some(Format::Gra))),
    ("matrix_market", |d| text(d, Some(Format::MatrixMarket))),
    ("weighted", |d| text(d, Some(Format::Weighted))),
    ("header", |d| text(d, Some(Format::Header))),
    ("gzip", gzip),
    ("file", file),
    ("grail", grail),
    ("index", index),
    ("queries", queries),
];

/// Runs `read` on a file holding `data` (one file per thread, rewritten for each input, in the
/// temporary folder: `TMPDIR=/dev/shm` keeps the file targets off the disk).
fn with_file(data: &[u8], read: impl FnOnce(&Path)) {
    thread_local! {
        static DIR: tempfile::TempDir = tempfile::tempdir().expect("a temporary folder for fuzz inputs");
    }
    DIR.with(|dir| {
        let path = dir.path().join("input");
        std::fs::write(&path, data).expect("the fuzz input is written");
        read(&path);
    });
}
