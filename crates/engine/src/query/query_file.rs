//! Query files: `src dst [expected]` per line, file ids mapped through the graph's names. In a
//! graph whose file named its vertices, `src` and `dst` are names. Fields are split as a named
//! graph file's line ([`split_closed_fields`]): at a tab, else a comma, else spaces, and a quoted
//! field may hold any of them (`xavier "Turing, Alan" 1`), as on the command line and at the
//! explorer's prompts.
//!
//! gzip is detected by its magic bytes and read transparently (all members). Blank lines and lines
//! starting with `#` or `%` are skipped. Every error names the file and line. Only regular files
//! are read, and a line longer than the readers' limit is refused as soon as it passes it.

use crate::error::{ErrorContext, IoContext};
use crate::graph::VertexNames;
use crate::graph::io::bounded::{LineBounded, LineTooLong, MAX_LINE_WORDS, open_regular};
use crate::graph::io::split_closed_fields;
use crate::graph::names::UnknownVertex;
use crate::{Error, Result};
use flate2::bufread::MultiGzDecoder;
use serde::Serialize;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// One query on dense original vertex ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Query {
    /// The source `u`, a vertex id of the graph.
    pub src: u32,
    /// The destination `v`, a vertex id of the graph.
    pub dst: u32,
    /// The answer the file claims (third column), if any.
    pub expected: Option<bool>,
    /// 1-based line in the query file; 0 for generated queries. Four bytes, so that a query takes
    /// 16: a batch streams 100K of them, and 24 bytes each took a third of its time on small graphs.
    pub line: u32,
}

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Reads a query file for a graph with `n` vertices whose file ids `names` resolves.
pub fn read_query_file(path: &Path, names: &VertexNames, n: usize) -> Result<Vec<Query>> {
    let file = open_regular(path, "queries").with_context(|| format!("cannot open query file {}", path.display()))?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let head = reader.fill_buf().io_context(path, || format!("cannot read query file {}", path.display()))?;
    if head.starts_with(&GZIP_MAGIC) {
        let text = LineBounded::new(MultiGzDecoder::new(reader));
        parse(BufReader::with_capacity(1 << 16, text), path, names, n)
    } else {
        parse(BufReader::with_capacity(1 << 16, LineBounded::new(reader)), path, names, n)
    }
}

fn parse(mut reader: impl BufRead, path: &Path, names: &VertexNames, n: usize) -> Result<Vec<Query>> {
    let mut queries = Vec::new();
    let mut bytes = Vec::new();
    for line_no in 1usize.. {
        bytes.clear();
        let read = reader.read_until(b'\n', &mut bytes).map_err(|e| match LineTooLong::of(&e) {
            Some(line) => LineTooLong::error(
                line,
                &path.display().to_string(),
                &format!("`src dst [expected]` lines of at most {MAX_LINE_WORDS}"),
            ),
            None => Error::io(path, format!("{}:{line_no}: cannot read (corrupt gzip?)", path.display()), e),
        })?;
        if read == 0 {
            break;
        }
        let at = |message: String| Error::malformed(path.display().to_string(), line_no as u64, message);
        let line_no =
            u32::try_from(line_no).map_err(|_| at(format!("a query file may have at most {} lines", u32::MAX)))?;
        let text = std::str::from_utf8(&bytes).map_err(|_| at("the line is not UTF-8 text".into()))?;
        if let Some(query) = parse_line(text, line_no, names, n).map_err(at)? {
            queries.push(query);
        }
    }
    Ok(queries)
}

/// One line: `None` for blank lines and comments. The error is what is wrong with the line.
fn parse_line(text: &str, line: u32, names: &VertexNames, n: usize) -> Result<Option<Query>, String> {
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') || text.starts_with('%') {
        return Ok(None);
    }
    // Most lines are plain ids or names between spaces: split without the CSV reader's cost.
    let split: Vec<String>;
    let mut fields: Box<dyn Iterator<Item = &str>> = if text.bytes().any(|b| matches!(b, b'"' | b',' | b'\t')) {
        split = split_closed_fields(text).ok_or_else(|| {
            "found a quoted name without its closing quote; expected a `\"` closing it on the same line".to_string()
        })?;
        Box::new(split.iter().map(String::as_str))
    } else {
        Box::new(text.split_ascii_whitespace())
    };
    let (src, dst, expected) = (fields.next(), fields.next(), fields.next());
    let extra = fields.count();
    let (Some(src), Some(dst), 0) = (src, dst, extra) else {
        let found = [src, dst, expected].iter().flatten().count() + extra;
        return Err(format!("expected `src dst [expected]`, found {found} field(s)"));
    };
    let expected = match expected {
        None => None,
        Some("0") => Some(false),
        Some("1") => Some(true),
        Some(other) => return Err(format!("expected answer must be 0 or 1, found `{other}`")),
    };
    Ok(Some(Query { src: vertex(src, names, n)?, dst: vertex(dst, names, n)?, expected, line }))
}

/// The dense id of a vertex a query or script line names (a file id, or a name), or the sentence
/// saying why there is none.
pub(crate) fn vertex(field: &str, names: &VertexNames, n: usize) -> Result<u32, String> {
    names.find(field, n).map_err(|e| match e {
        UnknownVertex::NotAnId(_) => format!("`{field}` is not a vertex id (a non-negative integer)"),
        UnknownVertex::NoSuchId(id) => {
            format!("unknown vertex id {id} (the graph has {})", crate::format::plural(n as u64, "vertex", "vertices"))
        }
        named @ UnknownVertex::NoSuchName { .. } => named.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{Compression, write::GzEncoder};
    use std::io::Write;

    fn write(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    const GOOD: &str = "# a comment\n0 1 1\n\n% another\n2 0 0\n  3 3  \n";

    fn expect_good(queries: &[Query]) {
        let q = |src, dst, expected, line| Query { src, dst, expected, line };
        assert_eq!(queries, [q(0, 1, Some(true), 2), q(2, 0, Some(false), 5), q(3, 3, None, 6)]);
    }

    #[test]
    fn reads_plain_and_gzip() {
        let dir = tempfile::tempdir().unwrap();
        let plain = write(&dir, "q.txt", GOOD.as_bytes());
        expect_good(&read_query_file(&plain, &VertexNames::Dense, 4).unwrap());
        // Two gzip members back to back: MultiGzDecoder reads both.
        let mut gz = Vec::new();
        for part in [&GOOD[..18], &GOOD[18..]] {
            let mut enc = GzEncoder::new(Vec::new(), Compression::default());
            enc.write_all(part.as_bytes()).unwrap();
            gz.extend(enc.finish().unwrap());
        }
        let gz = write(&dir, "q.gz", &gz);
        expect_good(&read_query_file(&gz, &VertexNames::Dense, 4).unwrap());
    }

    #[test]
    fn maps_file_ids_through_the_names() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(&dir, "q", b"100 7\n");
        let names = VertexNames::remapped(vec![7, 100]);
        let queries = read_query_file(&path, &names, 2).unwrap();
        assert_eq!((queries[0].src, queries[0].dst), (1, 0));
    }

    #[test]
    fn named_graphs_take_names() {
        let dir = tempfile::tempdir().unwrap();
        let table = crate::graph::name_table::NameTable::new(&["alice", "bob"]).unwrap();
        let names = VertexNames::Named(std::sync::Arc::new(table));
        let path = write(&dir, "q.txt", b"alice bob 1\nbob alice\n");
        let queries = read_query_file(&path, &names, 2).unwrap();
        let q = |src, dst, expected, line| Query { src, dst, expected, line };
        assert_eq!(queries, [q(0, 1, Some(true), 1), q(1, 0, None, 2)]);
        // Quoted fields hold spaces and commas; a comma or a tab separates too.
        let table = crate::graph::name_table::NameTable::new(&["xavier", "Turing, Alan", "Lovelace Ada"]).unwrap();
        let spaced = VertexNames::Named(std::sync::Arc::new(table));
        let text = b"xavier \"Turing, Alan\" 1\n\"Lovelace Ada\",xavier,0\n\"Turing, Alan\"\txavier\n";
        let path = write(&dir, "quoted.txt", text);
        let queries = read_query_file(&path, &spaced, 3).unwrap();
        assert_eq!(queries, [q(0, 1, Some(true), 1), q(2, 0, Some(false), 2), q(1, 0, None, 3)]);
        let path = write(&dir, "open.txt", b"xavier \"Turing, Alan 1\n");
        let err = format!("{:#}", read_query_file(&path, &spaced, 3).unwrap_err());
        let want =
            "open.txt:1: found a quoted name without its closing quote; expected a `\"` closing it on the same line";
        assert!(err.ends_with(want), "{err}");
        let path = write(&dir, "bad.txt", b"alice bob\nalicia bob\n");
        let err = format!("{:#}", read_query_file(&path, &names, 2).unwrap_err());
        assert!(err.ends_with("bad.txt:2: no vertex is named `alicia`; nearest names: alice"), "{err}");
    }

    #[test]
    fn every_error_names_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let cases: [(&[u8], &str); 6] = [
            (b"0 1\n0 9\n", "unknown vertex id 9"),
            (b"0 1\n0 x 1\n", "`x` is not a vertex id"),
            (b"0 1\n0 -1\n", "`-1` is not a vertex id"),
            (b"0 1\n0 1 2\n", "must be 0 or 1"),
            (b"0 1\n0 1 1 5\n", "found 4 field(s)"),
            (b"0 1\n0 \xff 1\n", "not UTF-8"),
        ];
        for (bytes, message) in cases {
            let path = write(&dir, "bad", bytes);
            let err = format!("{:#}", read_query_file(&path, &VertexNames::Dense, 3).unwrap_err());
            assert!(err.contains(&format!("{}:2", path.display())), "{err}");
            assert!(err.contains(message), "{err}");
        }
    }

    #[test]
    fn a_line_over_the_limit_is_refused_at_once_naming_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let mut bytes = b"0 1\n".to_vec();
        bytes.resize(bytes.len() + 3 * crate::graph::io::bounded::MAX_LINE_BYTES, b'7');
        let path = write(&dir, "long", &bytes);
        let err = format!("{:#}", read_query_file(&path, &VertexNames::Dense, 3).unwrap_err());
        assert!(err.starts_with(&format!("{}:2: found a line longer than 1 MiB", path.display())), "{err}");
    }

    #[test]
    fn devices_are_refused() {
        let err = format!("{:#}", read_query_file(Path::new("/dev/zero"), &VertexNames::Dense, 3).unwrap_err());
        assert!(err.contains("/dev/zero is not a regular file"), "{err}");
    }

    #[test]
    fn missing_file_is_an_error() {
        let err = read_query_file(Path::new("/no/such/queries"), &VertexNames::Dense, 3).unwrap_err();
        assert!(format!("{err:#}").contains("/no/such/queries"));
    }
}
