//! Bad input through the public reader API: every error names the file and line
//! (`FILE:LINE: <found>; expected <what>`), and nothing panics, whatever the bytes.

use grail::graph::WeightOrigin;
use grail::graph::io::{Format, load, load_weighted, parse};
use proptest::prelude::*;
use std::io::Write;
use std::path::PathBuf;

/// The message of parsing `text` as `format` (or sniffed), which must fail.
fn error_of(text: &[u8], format: Option<Format>) -> String {
    match parse(text, "bad.txt", format) {
        Ok((g, _, f, _)) => {
            panic!("{f:?} accepted {:?} as {} vertices", String::from_utf8_lossy(text), g.num_vertices())
        }
        Err(e) => format!("{e:#}"),
    }
}

fn assert_starts(message: &str, prefix: &str) {
    assert!(message.starts_with(prefix), "message {message:?} should start with {prefix:?}");
}

fn temp_file(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

#[test]
fn vertex_id_out_of_range() {
    let gra = error_of(b"graph_for_greach\n3\n0: 1 #\n1: 3 #\n2: #\n", None);
    assert_eq!(gra, "bad.txt:4: found vertex 3; expected a vertex id from 0 to 2");
    let header = error_of(b"2 1\n0 2\n", Some(Format::Header));
    assert_eq!(header, "bad.txt:2: found vertex 2; expected a vertex id from 0 to 1");
    let mm = error_of(b"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 3\n", None);
    assert_eq!(mm, "bad.txt:3: found vertex 3; expected a vertex id from 1 to 2");
    let weighted = error_of(b"2 1 directed\n5 0 1.0\n", None);
    assert_eq!(weighted, "bad.txt:2: found vertex 5; expected a vertex id from 0 to 1");
}

#[test]
fn negative_numbers() {
    let gra = error_of(b"graph_for_greach\n2\n0: -1 #\n1: #\n", None);
    assert_eq!(gra, "bad.txt:3: found negative number \"-1\"; expected a vertex id from 0 to 1");
    let edges = error_of(b"0 1\n-4 2\n", None);
    assert_eq!(edges, "bad.txt:2: found negative number \"-4\"; expected a source vertex id");
    let count = error_of(b"graph_for_greach\n-2\n", None);
    assert_eq!(count, "bad.txt:2: found negative number \"-2\"; expected the vertex count");
}

#[test]
fn truncated_gra() {
    let e = error_of(b"graph_for_greach\n4\n0: 1 #\n1: #\n", None);
    assert_eq!(e, "bad.txt:4: found only 2 of 4 vertex lines before the file ends here; expected 2 more");
}

#[test]
fn truncated_gzip_stream_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let body: Vec<u8> = (0..2000).flat_map(|i| format!("{i} {}\n", i + 1).into_bytes()).collect();
    let whole = gzip(&body);
    let path = temp_file(&dir, "cut.txt.gz", &whole[..whole.len() / 2]);
    let e = format!("{:#}", load(&path, None).unwrap_err());
    assert!(e.contains("cut.txt.gz") && e.contains("gzip"), "{e}");
}

#[test]
fn empty_file_and_only_comments() {
    assert_eq!(error_of(b"", None), "bad.txt:1: found no edges; expected at least one line `src dst`");
    assert_eq!(error_of(b"\n  \n", None), "bad.txt:3: found no edges; expected at least one line `src dst`");
    assert_eq!(error_of(b"# a\n% b\n", None), "bad.txt:3: found no edges; expected at least one line `src dst`");
    assert_starts(&error_of(b"", Some(Format::Gra)), "bad.txt:1: found an empty file; expected `graph_for_greach`");
    assert_starts(
        &error_of(b"", Some(Format::MatrixMarket)),
        "bad.txt:1: found an empty file; expected `%%MatrixMarket",
    );
    assert_starts(&error_of(b"# only\n", Some(Format::Header)), "bad.txt:2: found no data; expected a header line");
    assert_starts(&error_of(b"", Some(Format::Weighted)), "bad.txt:1: found no data; expected a header `n m directed`");
    assert_starts(
        &error_of(b"graph_for_greach\n", None),
        "bad.txt:2: found the end of the file; expected the vertex count",
    );
}

#[test]
fn empty_gzip_file_is_empty_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "empty.gz", &gzip(b""));
    let e = format!("{:#}", load(&path, None).unwrap_err());
    assert!(e.starts_with(&format!("{}:1: found no edges", path.display())), "{e}");
}

#[test]
fn non_utf8_bytes() {
    // Outside numbers (a comment) they are fine: the file is never decoded as UTF-8.
    let (g, _, _, _) = parse(b"# caf\xe9 \xff\xfe\n0 1\n1 2\n", "ok.txt", None).unwrap();
    assert_eq!(g.num_edges(), 2);
    // Where a number is expected they are an error naming the line, escaped.
    assert_eq!(error_of(b"0 1\n1 \xff2\n", None), "bad.txt:2: found \"\\xff2\"; expected a target vertex id");
    let gra = error_of(b"graph_for_greach\n2\n0: 1 #\n1: \xc3\xa9 #\n", None);
    assert_eq!(gra, "bad.txt:4: found \"\\xc3\\xa9\"; expected a vertex id from 0 to 1");
}

#[test]
fn header_counts_disagreeing_with_the_body() {
    let gra = error_of(b"graph_for_greach\n1\n0: #\n1: #\n", None);
    assert_starts(&gra, "bad.txt:4: found \"1: #\" after the 1 vertex lines the count announced; expected the end");
    let header = error_of(b"3 2\n0 1\n", Some(Format::Header));
    assert_starts(&header, "bad.txt:1: the header declares 2 edges, the file holds 1; expected 2 lines `src dst`");
    // Guessed, the same: a header whose count is wrong is never read as an edge of an edge list.
    let guessed = error_of(b"3 5\n0 1\n1 2\n", None);
    assert_eq!(
        guessed,
        "bad.txt:1: the header declares 5 edges, the file holds 2; expected 5 lines `src dst` after the header \
         line `n m` (or `--format edge-list`, which reads this line as an edge)"
    );
    let (g, _, format, _) = parse(b"3 5\n0 1\n1 2\n", "ok.txt", Some(Format::EdgeList)).unwrap();
    assert_eq!((format, g.num_vertices(), g.num_edges()), (Format::EdgeList, 6, 3));
    let mm = error_of(b"%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n1 2\n2 3\n", None);
    assert_eq!(mm, "bad.txt:4: found more entries than the 1 announced; expected 1 entry (header on line 2)");
    let weighted = error_of(b"3 3 directed\n0 1 1\n1 2 1\n", None);
    assert_eq!(weighted, "bad.txt:3: found only 2 edges before the file ends here; expected 3 (header on line 1)");
}

#[test]
fn garbage_text() {
    let words = error_of(b"hello world\n", Some(Format::EdgeList));
    assert_eq!(words, "bad.txt:1: found \"hello\"; expected a source vertex id");
    // Sniffed, words are vertex names.
    assert_eq!(parse(b"hello world\n", "ok.txt", None).unwrap().2, Format::Named);
    let gra = error_of(b"graph_for_greach\nmany\n", None);
    assert_eq!(gra, "bad.txt:2: found \"many\"; expected the vertex count");
    let weighted = error_of(b"2 1 upward\n0 1 1\n", Some(Format::Weighted));
    assert_eq!(weighted, "bad.txt:1: found \"upward\"; expected `directed` or `undirected`");
}

#[test]
fn ids_that_do_not_fit_32_bits_where_dense_ids_are_required() {
    let gra = error_of(b"graph_for_greach\n4294967296\n", None);
    assert_eq!(gra, "bad.txt:2: found 4294967296 vertices; expected at most 4294967295 (32-bit ids)");
    let header = error_of(b"5000000000 1\n0 1\n", Some(Format::Header));
    assert_eq!(header, "bad.txt:1: found 5000000000 vertices; expected at most 4294967295 (32-bit ids)");
    let too_big = error_of(b"0 99999999999999999999\n", None);
    assert_eq!(
        too_big,
        "bad.txt:1: found \"99999999999999999999\", too large for 64 bits; expected a target vertex id"
    );
    // An edge list is not such a place: huge ids are renumbered.
    let (g, names, _, _) = parse(b"4294967296 18446744073709551615\n", "ok.txt", None).unwrap();
    assert_eq!((g.num_vertices(), names.file_id(1)), (2, u64::MAX));
}

/// How long a refusal may take: "at once", with room for a busy machine.
const AT_ONCE: std::time::Duration = std::time::Duration::from_secs(3);

/// The message of loading the file at `path`, which must fail at once.
fn load_error(path: &std::path::Path) -> String {
    let start = std::time::Instant::now();
    let error = match load(path, None) {
        Ok(loaded) => panic!("{} loaded as {} vertices", path.display(), loaded.graph.num_vertices()),
        Err(e) => format!("{e:#}"),
    };
    assert!(start.elapsed() < AT_ONCE, "{} took {:?} to refuse", path.display(), start.elapsed());
    error
}

#[test]
fn small_files_declaring_huge_graphs_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let n = 500_000_000u64;
    for (name, text, line) in [
        ("m.mtx", format!("%%MatrixMarket matrix coordinate pattern general\n{n} {n} 1\n1 2\n"), 2),
        ("h.txt", format!("{n} 1\n0 1\n"), 1),
        ("w.txt", format!("{n} 1 directed\n0 1 1\n"), 1),
        ("g.gra", format!("graph_for_greach\n{n}\n0: 1 #\n"), 2),
        ("e.txt", format!("# grail-explorer: {n} vertices, 1 edges\n0 1\n"), 1),
    ] {
        let bytes = text.len();
        for (file, data) in
            [(name.to_string(), text.clone().into_bytes()), (format!("{name}.gz"), gzip(text.as_bytes()))]
        {
            let path = temp_file(&dir, &file, &data);
            let e = load_error(&path);
            assert_starts(
                &e,
                &format!("{}:{line}: found {n} vertices declared in a file of {bytes} bytes;", path.display()),
            );
        }
        assert_starts(&error_of(text.as_bytes(), None), &format!("bad.txt:{line}: found {n} vertices declared"));
    }
    // Within the limit, isolated vertices are still declared freely.
    let (g, _, _, _) = parse(b"65536 1\n0 1\n", "ok.txt", None).unwrap();
    assert_eq!(g.num_vertices(), 65_536);
}

#[test]
fn files_with_fewer_entries_than_declared_are_refused_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, expected) in [
        (
            "m.mtx",
            "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n",
            ":4: found only 2 entries before the file ends here; expected 3 (header on line 2)",
        ),
        // Six lines, the last one an entry: the error points at line 6, where the file ends.
        (
            "short.mtx",
            "%%MatrixMarket matrix coordinate pattern general\n% a comment\n5 5 5\n1 2\n2 3\n3 4\n",
            ":6: found only 3 entries before the file ends here; expected 5 (header on line 3)",
        ),
        (
            "w.txt",
            "3 2 directed\n0 1 1\n",
            ":2: found only 1 edge before the file ends here; expected 2 (header on line 1)",
        ),
        (
            "g.gra",
            "graph_for_greach\n3\n0: 1 #\n1: 2 #\n",
            ":4: found only 2 of 3 vertex lines before the file ends here",
        ),
    ] {
        let path = temp_file(&dir, name, text.as_bytes());
        assert_starts(&load_error(&path), &format!("{}{expected}", path.display()));
    }
}

#[test]
fn a_file_without_line_ends_is_refused_at_its_first_line_at_once() {
    let dir = tempfile::tempdir().unwrap();
    // 300 MB with no line end (sparse on disk: zeros the file system does not store).
    let path = dir.path().join("no-newline.txt");
    std::fs::File::create(&path).unwrap().set_len(300_000_000).unwrap();
    let e = load_error(&path);
    assert_starts(&e, &format!("{}:1: found a line longer than 1 MiB;", path.display()));
    // A long line after good ones is named by its number, in gzip too.
    let mut text = b"0 1\n1 2\n".to_vec();
    text.resize(text.len() + 2 * grail::graph::io::bounded::MAX_LINE_BYTES, b'3');
    let path = temp_file(&dir, "long.txt.gz", &gzip(&text));
    assert_starts(&load_error(&path), &format!("{}:3: found a line longer than 1 MiB;", path.display()));
}

#[test]
fn devices_and_fifos_are_refused_without_reading_them() {
    assert!(load_error(std::path::Path::new("/dev/zero")).contains("/dev/zero is not a regular file"));
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo only creates the FIFO named by a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    // Opening a FIFO without a writer would block: refusing it must not open it.
    assert!(load_error(&fifo).contains("is not a regular file"));
}

#[test]
fn a_failed_load_names_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "g.gra", b"graph_for_greach\n2\n0: 5 #\n1: #\n");
    let e = format!("{:#}", load(&path, None).unwrap_err());
    assert_eq!(e, format!("{}:3: found vertex 5; expected a vertex id from 0 to 1", path.display()));
    assert!(load(&dir.path().join("missing.gra"), None).is_err());
}

/// Lines built from the characters the parsers care about, with numbers kept short: a declared
/// count of billions would make a valid (huge, empty) graph, which is not what this test is about.
fn gra_like_text() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        "[0-9]{1,3}",
        Just("graph_for_greach".to_string()),
        Just("%%MatrixMarket matrix coordinate pattern symmetric".to_string()),
        Just("directed".to_string()),
        Just("-1".to_string()),
        "[:#% \t\r]",
        Just("\u{e9}".to_string()),
    ];
    let line = prop::collection::vec(token, 0..6).prop_map(|t| t.join(" "));
    prop::collection::vec(line, 0..12).prop_map(|lines| lines.join("\n").into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn no_input_panics(text in gra_like_text(), raw in prop::collection::vec(any::<u8>(), 0..64)) {
        for format in [None, Some(Format::Gra), Some(Format::EdgeList), Some(Format::MatrixMarket),
                       Some(Format::Weighted), Some(Format::Header)] {
            for bytes in [&text, &raw] {
                if let Err(e) = parse(bytes, "fuzz.txt", format) {
                    prop_assert!(e.to_string().starts_with("fuzz.txt:"), "{}", e);
                }
            }
        }
    }
}

/// A `.grail` file of a small cyclic graph with sparse ids (every section present), and its bytes.
fn grail_file(dir: &tempfile::TempDir) -> (PathBuf, Vec<u8>) {
    let text = temp_file(dir, "g.txt", b"10 20\n20 10\n20 30\n30 40\n40 1000000\n");
    let loaded = load(&text, None).unwrap();
    let path = dir.path().join("g.grail");
    grail::graph::io::write(&path, &loaded.graph, &loaded.names, Format::Grail).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

/// The checksum a `.grail` file ends with (one block: these files are small).
fn block_checksum(body: &[u8]) -> [u8; 8] {
    assert!(body.len() < grail::graph::io::binary::CHECKSUM_BLOCK);
    let block = xxhash_rust::xxh3::xxh3_64(body).to_le_bytes();
    xxhash_rust::xxh3::xxh3_64(&block).to_le_bytes()
}

/// `bytes` with the checksum recomputed: a corruption that only the structural checks can catch.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 8;
    let sum = block_checksum(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum);
    bytes
}

fn grail_error(dir: &tempfile::TempDir, bytes: &[u8]) -> String {
    let path = temp_file(dir, "bad.grail", bytes);
    match load(&path, Some(Format::Grail)) {
        Ok(g) => panic!("accepted a corrupt .grail file as {} vertices", g.graph.num_vertices()),
        Err(e) => format!("{e:#}"),
    }
}

#[test]
fn grail_files_read_back_as_the_same_graph() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = grail_file(&dir);
    let original = load(&dir.path().join("g.txt"), None).unwrap();
    let mapped = load(&path, None).unwrap();
    assert_eq!(
        (mapped.graph.as_ref(), &mapped.names, mapped.format),
        (original.graph.as_ref(), &original.names, Format::Grail)
    );
    assert!(mapped.graph.children_csr().is_mapped());
}

#[test]
fn named_vertices_round_trip_through_grail_files() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        temp_file(&dir, "g.csv", b"from,to\nalice,\"Smith, Bob\"\n\"Smith, Bob\",carol\ncarol,alice\ncarol,dan\n");
    let original = load(&text, None).unwrap();
    assert_eq!(original.format, Format::Named);
    let path = dir.path().join("g.grail");
    grail::graph::io::write(&path, &original.graph, &original.names, Format::Grail).unwrap();
    let mapped = load(&path, None).unwrap();
    assert_eq!((mapped.graph.as_ref(), &mapped.names), (original.graph.as_ref(), &original.names));
    let names: Vec<String> = (0..4).map(|v| mapped.names.plain(v)).collect();
    assert_eq!(names, ["alice", "Smith, Bob", "carol", "dan"]);
    assert_eq!(mapped.names.find("dan", 4), Ok(3));

    // Names a corrupt file gives are refused with the reason: here two vertices named the same.
    let mut bytes = std::fs::read(&path).unwrap();
    let text_at = bytes.windows(5).position(|w| w == b"alice").unwrap();
    bytes[text_at..text_at + 5].copy_from_slice(b"carol");
    let e = grail_error(&dir, &resealed(bytes));
    assert!(e.contains("corrupt .grail file (the name `carol` is given to two vertices)"), "{e}");
}

#[test]
fn older_grail_files_still_open() {
    // Version 2 is version 3 without weights, version 1 is version 2 without named vertices: a
    // file without either is the same bytes with the old version number.
    let dir = tempfile::tempdir().unwrap();
    let (_, bytes) = grail_file(&dir);
    assert_eq!(bytes[8..12], 3u32.to_le_bytes());
    let original = load(&dir.path().join("g.txt"), None).unwrap();
    for version in [1u32, 2] {
        let mut old = bytes.clone();
        old[8..12].copy_from_slice(&version.to_le_bytes());
        let path = temp_file(&dir, "old.grail", &resealed(old));
        let old = load(&path, None).unwrap();
        assert_eq!((old.graph.as_ref(), &old.names), (original.graph.as_ref(), &original.names), "version {version}");
        let weighted = load_weighted(&path, None).unwrap();
        assert_eq!((weighted.origin, weighted.weights()), (WeightOrigin::Unit, &[1.0; 5][..]), "version {version}");
    }
}

/// A `.grail` file of a small weighted graph (a cycle 0 -> 1 -> 2 -> 0 and 2 -> 3), and its bytes.
fn weighted_grail_file(dir: &tempfile::TempDir) -> (PathBuf, Vec<u8>) {
    let text = temp_file(dir, "w.txt", b"4 4 directed\n0 1 2.5\n1 2 0\n2 0 7\n2 3 1e-3\n");
    let weighted = load_weighted(&text, None).unwrap();
    let path = dir.path().join("w.grail");
    grail::graph::io::write_weighted(&path, &weighted, Format::Grail).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

fn weights_error(dir: &tempfile::TempDir, bytes: &[u8]) -> String {
    let path = temp_file(dir, "bad.grail", bytes);
    match load_weighted(&path, None) {
        Ok(g) => panic!("accepted corrupt weights {:?}", g.weights()),
        Err(e) => format!("{e:#}"),
    }
}

#[test]
fn grail_files_keep_their_weights_apart_from_the_graph() {
    let dir = tempfile::tempdir().unwrap();
    let (path, bytes) = weighted_grail_file(&dir);
    let weighted = load_weighted(&path, None).unwrap();
    assert_eq!(weighted.origin, WeightOrigin::File);
    assert_eq!(weighted.weights(), [2.5, 0.0, 7.0, 0.001]);
    assert_eq!((weighted.weight(2, 3), weighted.weight(2, 0)), (Some(0.001), Some(7.0)));
    // The 4 weights and their checksum close the file; the graph's checksum comes before them.
    let weights_at = bytes.len() - 8 - 4 * 8;
    assert_eq!(bytes[weights_at..weights_at + 8], 2.5f64.to_le_bytes());
    let graph_sum = weights_at - 8;
    assert_eq!(bytes[graph_sum..weights_at], block_checksum(&bytes[..graph_sum]));
    // Reachability reads the graph only: damaged weights do not stop it, and weighted commands
    // refuse them, naming the file.
    let mut flipped = bytes.clone();
    flipped[weights_at + 3] ^= 0x40;
    let path = temp_file(&dir, "bad.grail", &flipped);
    assert_eq!(load(&path, None).unwrap().graph.as_ref(), weighted.graph());
    let e = weights_error(&dir, &flipped);
    assert!(e.contains("bad.grail: corrupt .grail file (weights: checksum mismatch"), "{e}");
    // A negative weight under a valid checksum.
    let mut negative = bytes.clone();
    negative[weights_at + 8..weights_at + 16].copy_from_slice(&(-1.0f64).to_le_bytes());
    let sum = block_checksum(&negative[weights_at..weights_at + 32]);
    negative[weights_at + 32..].copy_from_slice(&sum);
    let e = weights_error(&dir, &negative);
    assert!(e.contains("bad.grail: corrupt .grail file (weights: edge 1 weighs -1, not a finite number"), "{e}");
    // Truncated inside the weights: refused by every command, since the header fixes the length.
    let e = weights_error(&dir, &bytes[..bytes.len() - 12]);
    assert!(e.contains("bad.grail: corrupt .grail file (truncated: the header implies"), "{e}");
    let e = grail_error(&dir, &bytes[..bytes.len() - 12]);
    assert!(e.contains("bad.grail: corrupt .grail file (truncated"), "{e}");
    // A file with weights marked as an older version is refused, not read without them.
    let mut old = bytes.clone();
    old[8..12].copy_from_slice(&2u32.to_le_bytes());
    let sealed = [&old[..graph_sum], &block_checksum(&old[..graph_sum])[..], &old[weights_at..]].concat();
    let e = grail_error(&dir, &sealed);
    assert!(
        e.contains("bad.grail: corrupt .grail file (weights flagged in a version 2 file, which holds none)"),
        "{e}"
    );
}

#[test]
fn corrupt_grail_files_are_explained() {
    let dir = tempfile::tempdir().unwrap();
    let (_, good) = grail_file(&dir);
    let n_edges = |bytes: &mut Vec<u8>, at: usize, value: u64| bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());

    let mut magic = good.clone();
    magic[0] = b'X';
    assert!(grail_error(&dir, &magic).contains("not a .grail graph file"));

    let mut version = good.clone();
    version[8] = 99;
    let e = grail_error(&dir, &version);
    assert!(e.contains("format version 99; this build reads versions 1 to 3 (a newer grail wrote it"), "{e}");

    let truncated = grail_error(&dir, &good[..good.len() - 9]);
    assert!(truncated.contains("corrupt .grail file (truncated: the header implies"), "{truncated}");
    assert!(grail_error(&dir, &good[..20]).contains("truncated inside the header"));
    let longer = [&good[..], &[0u8; 8]].concat();
    assert!(grail_error(&dir, &longer).contains("trailing bytes"));

    let mut flipped = good.clone();
    flipped[70] ^= 0x10;
    assert!(grail_error(&dir, &flipped).contains("checksum mismatch"));

    // Valid checksums over inconsistent contents: the structural checks catch them.
    let mut huge = good.clone();
    n_edges(&mut huge, 24, u64::MAX / 2);
    assert!(grail_error(&dir, &resealed(huge)).contains("impossible sizes"));
    let mut offsets = good.clone();
    n_edges(&mut offsets, 64 + 8, 100); // children offsets [0, 100, 3, ...]: no longer non-decreasing
    let e = grail_error(&dir, &resealed(offsets));
    assert!(e.contains("corrupt .grail file (children: CSR offsets"), "{e}");
    let mut target = good.clone();
    let targets_at = 64 + 8 * 6; // after the 6 children offsets of the 5 vertices
    target[targets_at..targets_at + 4].copy_from_slice(&77u32.to_le_bytes());
    let e = grail_error(&dir, &resealed(target));
    assert!(e.contains("a CSR target is not one of the vertices 0 to 4"), "{e}");
    // The condensation is a chain of 4 components (levels 0, 1, 2, 3, then the 5 vertex ids of
    // 8 bytes and the checksum): the last one put on level 1 is refused.
    let mut level = good.clone();
    let last_level = good.len() - 8 - 5 * 8 - 4;
    assert_eq!(good[last_level..last_level + 4], 3u32.to_le_bytes());
    level[last_level..last_level + 4].copy_from_slice(&1u32.to_le_bytes());
    let e = grail_error(&dir, &resealed(level));
    assert!(e.contains("the level of vertex 3 is not one more than its parents' deepest"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Whatever byte is changed, opening the file is an error that names it, never a panic.
    #[test]
    fn a_flipped_byte_in_a_grail_file_is_always_caught(at in any::<prop::sample::Index>(), bits in 1u8..=255) {
        let dir = tempfile::tempdir().unwrap();
        let (_, mut bytes) = grail_file(&dir);
        let at = at.index(bytes.len());
        bytes[at] ^= bits;
        let path = temp_file(&dir, "flipped.grail", &bytes);
        let e = load(&path, Some(Format::Grail)).err().map(|e| format!("{e:#}"));
        prop_assert!(e.as_ref().is_some_and(|e| e.contains("flipped.grail")), "{:?}", e);
    }
}

/// Seeds for the fuzz targets: the sample graphs, generated graphs in every format (plain and
/// gzip), `.grail` and index files, and query files.
fn fuzz_seeds() -> Vec<Vec<u8>> {
    use grail::graph::VertexNames;
    use grail::graph::io::write;
    let dir = tempfile::tempdir().unwrap();
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-graphs");
    let mut seeds: Vec<Vec<u8>> =
        ["lesson.gra", "tiny-cycles.txt"].iter().map(|f| std::fs::read(samples.join(f)).unwrap()).collect();
    let graphs =
        [grail::graph::generators::random_digraph(40, 1.5, 1).unwrap(), grail::graph::generators::chain(12).unwrap()];
    for (i, graph) in graphs.iter().enumerate() {
        for format in
            [Format::EdgeList, Format::Gra, Format::MatrixMarket, Format::Weighted, Format::Header, Format::Grail]
        {
            for gz in ["", ".gz"] {
                if format == Format::Grail && !gz.is_empty() {
                    continue;
                }
                let path = dir.path().join(format!("{i}.{format}{gz}"));
                write(&path, graph, &VertexNames::Dense, format).unwrap();
                seeds.push(std::fs::read(&path).unwrap());
            }
        }
        let weighted = grail::weighted::random::with_random_weights(graph.clone(), 9, 1, "w").unwrap();
        let path = dir.path().join(format!("{i}.weighted.grail"));
        grail::graph::io::write_weighted(&path, &weighted, Format::Grail).unwrap();
        seeds.push(std::fs::read(&path).unwrap());
        let scc = grail::graph::scc::condense(&std::sync::Arc::new(graph.clone()));
        let labels = grail::index::dfs::label(&scc.dag, 2, grail::index::Order::Lex).unwrap();
        let path = dir.path().join(format!("{i}.grailidx"));
        grail::index::store::save(&path, &labels, grail::graph::fingerprint::fingerprint(&scc.dag)).unwrap();
        seeds.push(std::fs::read(&path).unwrap());
    }
    seeds.push(b"# q\n0 1 1\n2 3\n\n% c\n7 0 0\n".to_vec());
    seeds.push(gzip(b"0 1\n1 2 0\n"));
    seeds.extend(blank_and_hub_seeds());
    seeds
}

/// Shapes the readers must hold in memory that follows content: runs of blank and comment lines
/// before, between and after the data (streamed in blocks that are all blank, held as counts),
/// and hub lines (a `.gra` vertex with many children on one line), and `.gra` lines padded with
/// runs of spaces.
fn blank_and_hub_seeds() -> Vec<Vec<u8>> {
    let blanks = "\n".repeat(40);
    let comments = "# a comment\n\n% d\n".repeat(20);
    let hub: String = (1..=300).map(|v| format!(" {v}")).collect();
    let hub_gra =
        format!("graph_for_greach\n301\n0:{hub} #\n{}", (1..=300).map(|v| format!("{v}: #\n")).collect::<String>());
    let texts = [
        format!("{blanks}0 1\n{blanks}1 2\n{blanks}"),
        format!("{blanks}graph_for_greach\n3\n0: 1 2 #\n1: 2 #\n2: #\n{blanks} \n\r\n"),
        format!("{blanks}3 2\n{blanks}0 1\n \n1 2\n{blanks}"),
        format!("%%MatrixMarket matrix coordinate pattern general\n{blanks}3 3 2\n1 2\n{blanks}2 3\n"),
        format!("{blanks}# c\n{blanks}% d\n0 0\n{blanks}"),
        hub_gra.clone(),
        format!("{hub_gra}{blanks}"),
        format!("2\n0:{} #\n1: #\n", " 1".repeat(300)),
        format!("{comments}0 1\n{comments}1 2\n{comments}"),
        format!("%%MatrixMarket matrix coordinate pattern general\n{comments}3 3 2\n1 2\n{comments}2 3\n"),
        format!("source,target\n{comments}alice,bob\n{comments}bob,carol\n"),
        format!("3 2\n{comments}0 1\n{comments}1 2\n"),
        "graph_for_greach\n3\n0:  1   2 \t #  \n1: 2    #\n2:#\n".to_string(),
    ];
    let mut seeds: Vec<Vec<u8>> = texts.iter().map(|t| t.clone().into_bytes()).collect();
    seeds.push(gzip(texts[0].as_bytes()));
    seeds.push(gzip(hub_gra.as_bytes()));
    seeds.push(gzip(texts[8].as_bytes()));
    seeds
}

/// A cheap mutation of `seed`: bytes flipped, inserted, deleted, duplicated or cut (a seeded xorshift).
fn mutate(seed: &[u8], state: &mut u64) -> Vec<u8> {
    let mut next = || {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    };
    let mut data = seed.to_vec();
    for _ in 0..1 + next() % 4 {
        let at = if data.is_empty() { 0 } else { (next() % data.len() as u64) as usize };
        match next() % 6 {
            0 if !data.is_empty() => data[at] ^= 1 << (next() % 8),
            1 => data.insert(at, b"0123456789 :#%\n\r-x\xff"[(next() % 19) as usize]),
            2 if !data.is_empty() => {
                data.remove(at);
            }
            3 => data.truncate(at),
            4 if !data.is_empty() => {
                let end = (at + 1 + (next() % 64) as usize).min(data.len());
                let piece = data[at..end].to_vec();
                data.splice(at..at, piece);
            }
            _ if data.len() >= 8 => {
                let at = at.min(data.len() - 8);
                data[at..at + 8].copy_from_slice(&next().to_le_bytes());
            }
            _ => {}
        }
    }
    data
}

/// Every fuzz target over its seeds and a few thousand mutations of them, on stable (the long
/// coverage-guided runs are `cargo +nightly fuzz run TARGET`, see the README).
#[test]
fn fuzz_targets_survive_their_seeds_and_mutations() {
    let seeds = fuzz_seeds();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for (name, target) in grail_engine::fuzzing::TARGETS {
        for seed in &seeds {
            target(seed);
        }
        for i in 0..600 {
            let input = mutate(&seeds[i % seeds.len()], &mut state);
            let caught = std::panic::catch_unwind(|| target(&input));
            assert!(caught.is_ok(), "target {name} panicked on {:?}", String::from_utf8_lossy(&input));
        }
    }
}
