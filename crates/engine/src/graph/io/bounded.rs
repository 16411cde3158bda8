//! What every file read is bounded by, whatever the file holds: only regular files are read (a
//! device such as `/dev/zero` or a FIFO has no end and no size to check a header against), and no
//! line may be longer than [`MAX_LINE_BYTES`], so a file without line ends is refused as soon as
//! its first line passes the limit, in memory of the limit's size.
//!
//! The one exception is a `.gra` vertex line (`u: v1 v2 ... #`) in a graph file: a vertex with a
//! million children has a line of megabytes, and grail writes such lines. Such a line may be as
//! long as its targets make it (a few bytes of slack per target past the limit), so what it costs
//! is still what it holds. Past the limit, each run of spaces between its targets is passed on as
//! its first byte: a run is one separator, however a writer padded it, and costs no more.

use crate::{Error, Result};
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The longest line any text reader accepts (graph files of every format and query files): far
/// above any real line of the formats, small enough to hold while it is refused.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The limit in words, for messages.
pub const MAX_LINE_WORDS: &str = "1 MiB";

/// Refuses what is not a regular file (after symbolic links): a device, a FIFO, a socket or a
/// folder. `what` names what was wanted ("graphs", "queries").
pub fn check_regular(path: &Path, what: &str) -> Result<()> {
    // A path that cannot be examined is left to the open that follows, whose error names it.
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    if meta.is_dir() {
        return Err(Error::InvalidInput(format!("{} is a folder; grail reads {what} from files", path.display())));
    }
    if !meta.is_file() {
        return Err(Error::InvalidInput(format!(
            "{} is not a regular file (a device, a FIFO or a socket); grail reads {what} from regular files only",
            path.display()
        )));
    }
    Ok(())
}

/// Opens a regular file for reading; errors name the path.
pub fn open_regular(path: &Path, what: &str) -> Result<File> {
    check_regular(path, what)?;
    let file = File::open(path).map_err(|e| Error::io(path, format!("cannot read {}", path.display()), e))?;
    Ok(file)
}

/// The error a line over [`MAX_LINE_BYTES`] gives, inside an [`io::Error`]; `line` is 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineTooLong {
    /// The line that is too long, from 1.
    pub line: u64,
}

impl fmt::Display for LineTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} is longer than {MAX_LINE_WORDS}", self.line)
    }
}

impl std::error::Error for LineTooLong {}

impl LineTooLong {
    /// The line in `error`, when it is this error.
    pub fn of(error: &io::Error) -> Option<u64> {
        error.get_ref().and_then(|inner| inner.downcast_ref::<LineTooLong>()).map(|e| e.line)
    }

    /// `FILE:LINE: found a line longer than 1 MiB; expected <expected>`, the readers' error shape.
    pub fn error(line: u64, source: &str, expected: &str) -> Error {
        Error::malformed(source, line, format!("found a line longer than {MAX_LINE_WORDS}; expected {expected}"))
    }
}

/// A reader that fails with [`LineTooLong`] once more than [`MAX_LINE_BYTES`] bytes pass without a
/// line end. It reads at most the limit at a time, so only the first and the last line of a read
/// can be longer than what is checked, and both are.
pub struct LineBounded<R> {
    inner: R,
    /// Line ends passed so far.
    lines: u64,
    /// Bytes passed since the last line end.
    run: usize,
    limit: usize,
    /// Whether `.gra` vertex lines may be longer than the limit (graph files).
    vertex_lines: bool,
    /// What the current line is so far.
    shape: LineShape,
    /// Whether the last byte passed of the current line was a space (or a tab, ...).
    after_space: bool,
    /// Whether the inner reader has ended.
    ended: bool,
}

/// Bytes a vertex line may hold per target beyond the limit: a 32-bit id, its space, and room for
/// padding a writer might add.
const SLACK_PER_TARGET: usize = 32;

/// How far a line's start tells whether it is a `.gra` vertex line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Shape {
    /// Only whitespace so far.
    #[default]
    Start,
    /// Whitespace, then digits.
    Digits,
    /// Digits, then whitespace.
    Spaced,
    /// `u:` seen: a vertex line.
    Vertex,
    /// Anything else.
    Other,
}

/// A line's shape and, on a vertex line, the tokens after its colon.
#[derive(Clone, Copy, Debug, Default)]
struct LineShape {
    shape: Shape,
    tokens: usize,
    in_token: bool,
}

impl LineShape {
    /// The shape after `bytes` more of the same line (no line end among them).
    fn advance(mut self, bytes: &[u8]) -> LineShape {
        let mut rest = bytes;
        while let [b, tail @ ..] = rest {
            let space = matches!(b, b' ' | b'\t' | b'\r' | b'\x0c');
            self.shape = match (self.shape, *b) {
                (Shape::Vertex | Shape::Other, _) => break,
                (Shape::Start, _) if space => Shape::Start,
                (Shape::Start | Shape::Digits, b'0'..=b'9') => Shape::Digits,
                (Shape::Digits | Shape::Spaced, _) if space => Shape::Spaced,
                (Shape::Digits | Shape::Spaced, b':') => Shape::Vertex,
                _ => Shape::Other,
            };
            rest = tail;
        }
        if self.shape == Shape::Vertex {
            for &b in rest {
                let space = matches!(b, b' ' | b'\t' | b'\r' | b'\x0c');
                self.tokens += usize::from(!space && !self.in_token);
                self.in_token = !space;
            }
        }
        self
    }
}

impl<R: Read> LineBounded<R> {
    /// Reads `inner`, failing at a line longer than [`MAX_LINE_BYTES`].
    pub fn new(inner: R) -> LineBounded<R> {
        LineBounded::with_limit(inner, MAX_LINE_BYTES)
    }

    /// Reads a graph file: [`LineBounded::new`], but a `.gra` vertex line may be as long as its
    /// targets make it.
    pub fn for_graphs(inner: R) -> LineBounded<R> {
        LineBounded { vertex_lines: true, ..LineBounded::new(inner) }
    }

    /// With another limit (tests use small ones).
    pub fn with_limit(inner: R, limit: usize) -> LineBounded<R> {
        LineBounded {
            inner,
            lines: 0,
            run: 0,
            limit,
            vertex_lines: false,
            shape: LineShape::default(),
            after_space: false,
            ended: false,
        }
    }

    fn too_long(&self) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, LineTooLong { line: self.lines + 1 })
    }

    /// Whether a line of `run` bytes so far, of shape `shape`, is over the limit.
    fn over(&self, run: usize, shape: LineShape) -> bool {
        let allowed = if self.vertex_lines && shape.shape == Shape::Vertex {
            self.limit.saturating_add(shape.tokens.saturating_mul(SLACK_PER_TARGET))
        } else {
            self.limit
        };
        run > allowed
    }
}

/// A space between tokens (any whitespace but the line end).
fn is_inline_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0c')
}

/// Keeps the first byte of each run of spaces in `bytes` (a run that continues one before them when
/// `after_space`); returns how many bytes are kept, moved to the front.
fn squeeze_spaces(bytes: &mut [u8], mut after_space: bool) -> usize {
    let mut kept = 0;
    for read in 0..bytes.len() {
        let space = is_inline_space(bytes[read]);
        if !(space && after_space) {
            bytes[kept] = bytes[read];
            kept += 1;
        }
        after_space = space;
    }
    kept
}

impl<R: Read> Read for LineBounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let n = self.read_some(buf)?;
            // A read whose every byte was a squeezed space is not the end of the text.
            if n > 0 || buf.is_empty() || self.ended {
                return Ok(n);
            }
        }
    }
}

impl<R: Read> LineBounded<R> {
    /// On a vertex line past the limit, squeezes the runs of spaces in the part of `buf[..n]` that
    /// continues it (up to the first line end); returns the bytes left in `buf`.
    fn squeeze_long_vertex_line(&self, buf: &mut [u8], n: usize) -> usize {
        let continued = memchr::memchr(b'\n', &buf[..n]).unwrap_or(n);
        if !self.vertex_lines || self.shape.shape != Shape::Vertex || self.run + continued <= self.limit {
            return n;
        }
        let kept = squeeze_spaces(&mut buf[..continued], self.after_space);
        buf.copy_within(continued..n, kept);
        n - (continued - kept)
    }

    /// One read of the inner reader, checked (and squeezed on a long vertex line).
    fn read_some(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.over(self.run, self.shape) {
            return Err(self.too_long());
        }
        let cap = buf.len().min(self.limit);
        let n = self.inner.read(&mut buf[..cap])?;
        self.ended = n == 0;
        let n = self.squeeze_long_vertex_line(buf, n);
        let read = &buf[..n];
        if let Some(&last) = read.last() {
            self.after_space = is_inline_space(last);
        }
        match memchr::memchr(b'\n', read) {
            None => {
                self.run += n;
                self.shape = self.shape.advance(read);
            }
            Some(first) => {
                let ended = self.shape.advance(&read[..first]);
                if self.over(self.run + first, ended) {
                    self.run += first;
                    self.shape = ended;
                    return Err(self.too_long());
                }
                self.lines += memchr::memchr_iter(b'\n', read).count() as u64;
                let last = memchr::memrchr(b'\n', read).unwrap_or(first);
                self.run = n - 1 - last;
                self.shape = LineShape::default().advance(&read[last + 1..]);
            }
        }
        if self.over(self.run, self.shape) {
            return Err(self.too_long());
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(bytes: &[u8], limit: usize) -> Result<Vec<u8>, u64> {
        let mut out = Vec::new();
        LineBounded::with_limit(bytes, limit).read_to_end(&mut out).map_err(|e| LineTooLong::of(&e).unwrap())?;
        Ok(out)
    }

    #[test]
    fn lines_up_to_the_limit_pass() {
        assert_eq!(read_all(b"1234\n12\n1234", 4).unwrap(), b"1234\n12\n1234");
        assert_eq!(read_all(b"", 4).unwrap(), b"");
    }

    #[test]
    fn a_longer_line_is_named() {
        assert_eq!(read_all(b"12345\n", 4), Err(1));
        assert_eq!(read_all(b"1\n2\n12345", 4), Err(3));
        assert_eq!(read_all(b"1\n\n\n1234\n123456789\n", 4), Err(5));
    }

    #[test]
    fn endless_input_fails_within_the_limit() {
        let mut reader = LineBounded::with_limit(io::repeat(b'0'), 1000);
        let mut out = Vec::new();
        let error = reader.read_to_end(&mut out).unwrap_err();
        assert_eq!(LineTooLong::of(&error), Some(1));
        assert!(out.len() <= 2000, "{} bytes held", out.len());
    }

    fn read_graph(bytes: &[u8], limit: usize) -> Result<usize, u64> {
        let mut out = Vec::new();
        let mut reader = LineBounded { vertex_lines: true, ..LineBounded::with_limit(bytes, limit) };
        reader.read_to_end(&mut out).map_err(|e| LineTooLong::of(&e).unwrap())
    }

    #[test]
    fn graph_vertex_lines_may_be_as_long_as_their_targets() {
        let hub: Vec<u8> = [&b"0: "[..], &b"12 ".repeat(1000), b"#\n1: 2 #\n"].concat();
        assert_eq!(read_graph(&hub, 64), Ok(hub.len()));
        assert_eq!(read_all(&hub, 64), Err(1), "other readers keep the plain limit");
        // The same length of anything else is refused.
        let names: Vec<u8> = [&b"a: "[..], &b"12 ".repeat(1000), b"\n"].concat();
        assert_eq!(read_graph(&names, 64), Err(1));
    }

    #[test]
    fn padding_between_targets_past_the_limit_is_one_separator() {
        let padded: Vec<u8> =
            [&b"0\n7 : 1"[..], &vec![b' '; 1000], b"\t\t2", &vec![b' '; 300], b"#  \n8: #\n"].concat();
        let mut out = Vec::new();
        let mut reader = LineBounded { vertex_lines: true, ..LineBounded::with_limit(&padded[..], 64) };
        reader.read_to_end(&mut out).unwrap();
        let line = out.split(|&b| b == b'\n').nth(1).unwrap();
        let tokens: Vec<&[u8]> = line.split(|b| b.is_ascii_whitespace()).filter(|t| !t.is_empty()).collect();
        assert_eq!(tokens, [&b"7"[..], b":", b"1", b"2", b"#"]);
        assert!(out.len() < 200, "{} bytes passed on", out.len());
        assert!(out.ends_with(b"\n8: #\n"));
        // Other readers keep the plain limit.
        assert_eq!(read_all(&padded, 64), Err(2));
    }

    #[test]
    fn devices_and_folders_are_refused() {
        let e = check_regular(Path::new("/dev/zero"), "graphs").unwrap_err();
        assert!(e.to_string().contains("/dev/zero is not a regular file"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let e = check_regular(dir.path(), "graphs").unwrap_err();
        assert!(e.to_string().contains("is a folder"), "{e}");
        assert!(check_regular(Path::new("/no/such/file"), "graphs").is_ok(), "left to the open");
    }
}
