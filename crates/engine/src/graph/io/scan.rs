//! The byte scanner every reader shares: lines split with memchr, whitespace-separated tokens,
//! checked integers, and the one error shape `FILE:LINE: <what was found>; expected <what>`.
//!
//! Files are scanned as bytes, never as UTF-8: a comment may hold any bytes, and a non-ASCII byte
//! where a number is expected is reported (escaped) like any other bad token.

use super::held_text::{Hole, Text};
use crate::graph::skipped_lines::SkippedLines;
use crate::{Error, Result};
use atoi::FromRadix10Checked;
use std::fmt::Display;

/// Bytes per vertex that loading needs at the least: the offsets of the children and parents CSRs
/// (16) and the condensation's component ids and Tarjan stacks (16).
const LOAD_BYTES_PER_VERTEX: u64 = 32;

/// Vertices any file may declare, whatever its size (they take 2 MiB to load).
const FREE_VERTICES: u64 = 1 << 16;

/// Vertices a file may declare per byte of its text beyond [`FREE_VERTICES`].
const VERTICES_PER_BYTE: u64 = 16;

/// The most vertices a text of `text_bytes` bytes may declare. A `.gra` file spends a line on each
/// vertex, but a counted format (header, weighted, Matrix Market) or the edge list's writer comment
/// may declare vertices that no line names: they take no bytes, so a file can declare any number of
/// them. A count this far beyond the file's size is taken for a mistake and refused before anything
/// is allocated for it, so that a small file cannot make a load cost gigabytes.
pub fn vertex_limit(text_bytes: u64) -> u64 {
    FREE_VERTICES.max(text_bytes.saturating_mul(VERTICES_PER_BYTE))
}

/// One physical line: its 1-based number and its bytes without the `\n` (or `\r\n`).
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    pub number: usize,
    pub text: &'a [u8],
}

impl<'a> Line<'a> {
    pub fn tokens(&self) -> Tokens<'a> {
        Tokens { rest: self.text }
    }

    pub fn is_blank(&self) -> bool {
        self.text.iter().all(u8::is_ascii_whitespace)
    }

    /// Whether the first non-blank byte is one of `markers` (`#`, `%`).
    pub fn is_comment(&self, markers: &[u8]) -> bool {
        self.text.iter().find(|b| !b.is_ascii_whitespace()).is_some_and(|b| markers.contains(b))
    }
}

/// Lines of a text held in memory ([`Text`]: the bytes, with the holes where blank and comment
/// lines were left out). Remembers how many it has handed out, so an error at the end of the file
/// can name the line where more data was expected.
#[derive(Clone)]
pub struct Lines<'a> {
    text: &'a [u8],
    /// Where the next line starts in `text`.
    pos: usize,
    /// The holes not crossed yet.
    holes: &'a [Hole],
    /// Lines handed out or crossed in holes.
    handed_out: usize,
    /// The whole text's size, when the text is whole (not a prefix of a longer one).
    text_bytes: Option<u64>,
    /// The blank and comment lines skipped so far.
    skipped: SkippedLines,
}

impl<'a> Lines<'a> {
    /// The lines of a whole text.
    #[cfg(test)]
    pub fn new(bytes: &'a [u8]) -> Lines<'a> {
        Lines::of(Text::whole(bytes))
    }

    /// The lines of a held text.
    pub fn of(text: Text<'a>) -> Lines<'a> {
        Lines {
            text: text.bytes,
            pos: 0,
            holes: text.holes,
            handed_out: 0,
            text_bytes: text.whole.then_some(text.size),
            skipped: SkippedLines::default(),
        }
    }

    /// The whole text's size, when known.
    pub fn text_bytes(&self) -> Option<u64> {
        self.text_bytes
    }

    /// How many bytes of the held text the lines handed out so far cover (with their newlines).
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Whether every line has been handed out.
    pub fn at_end(&self) -> bool {
        self.pos == self.text.len() && self.holes.is_empty()
    }

    /// The number a line after the last one would have: where "end of file" errors point.
    pub fn end_line(&self) -> usize {
        self.handed_out + 1
    }

    /// The number of the last line read (1 for an empty file): where an error about a body cut
    /// short points, as "the file ends here".
    pub fn last_line(&self) -> usize {
        self.handed_out.max(1)
    }

    /// The next line that is neither blank nor a comment starting with one of `markers`; the
    /// lines skipped on the way are noted ([`Lines::skipped`]).
    pub fn next_data(&mut self, markers: &[u8]) -> Option<Line<'a>> {
        loop {
            let line = self.next()?;
            if line.is_blank() {
                self.skipped.note(line.number as u64, false);
            } else if line.is_comment(markers) {
                self.skipped.note(line.number as u64, true);
            } else {
                return Some(line);
            }
        }
    }

    /// The next line that is not blank; the blank lines skipped on the way are noted.
    pub fn next_nonblank(&mut self) -> Option<Line<'a>> {
        self.next_data(b"")
    }

    /// Lines handed out so far.
    pub fn read_so_far(&self) -> u64 {
        self.handed_out as u64
    }

    /// Takes the notes of skipped lines.
    pub fn take_skipped(&mut self) -> SkippedLines {
        std::mem::take(&mut self.skipped)
    }

    /// Crosses the holes where the next line starts: their lines are blank or comments that every
    /// reader skips there ([`super::held_text`]), so they are noted as skipped.
    fn cross_holes(&mut self) {
        while let [hole, rest @ ..] = self.holes
            && hole.at <= self.pos
        {
            hole.note_in(&mut self.skipped, self.handed_out as u64 + 1);
            self.handed_out += hole.lines as usize;
            self.holes = rest;
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        self.cross_holes();
        let rest = &self.text[self.pos..];
        if rest.is_empty() {
            return None;
        }
        let (mut text, used) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], i + 1),
            None => (rest, rest.len()),
        };
        if let [head @ .., b'\r'] = text {
            text = head;
        }
        self.pos += used;
        self.handed_out += 1;
        Some(Line { number: self.handed_out, text })
    }
}

/// Tokens of a line, separated by ASCII whitespace (spaces, tabs, form feeds, a stray `\r`).
pub struct Tokens<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a [u8];

    #[inline]
    fn next(&mut self) -> Option<&'a [u8]> {
        let start = self.rest.iter().position(|b| !b.is_ascii_whitespace())?;
        let rest = &self.rest[start..];
        let len = rest.iter().position(u8::is_ascii_whitespace).unwrap_or(rest.len());
        self.rest = &rest[len..];
        Some(&rest[..len])
    }
}

/// A token as it should appear in a message: quoted, non-printable and non-ASCII bytes escaped,
/// long tokens cut.
pub fn show(token: &[u8]) -> String {
    const MAX: usize = 40;
    let cut = &token[..token.len().min(MAX)];
    let ellipsis = if token.len() > MAX { "..." } else { "" };
    format!("\"{}{ellipsis}\"", cut.escape_ascii())
}

/// Why a token is not a non-negative integer.
#[derive(Debug, PartialEq, Eq)]
pub enum BadNumber {
    Missing,
    Negative,
    TooLarge,
    NotANumber,
}

/// Parses a whole token as a non-negative decimal integer that fits `u64`.
#[inline]
pub fn parse_u64(token: Option<&[u8]>) -> Result<u64, BadNumber> {
    let token = token.ok_or(BadNumber::Missing)?;
    match u64::from_radix_10_checked(token) {
        (Some(value), used) if used == token.len() && used > 0 => Ok(value),
        (None, used) if used == token.len() => Err(BadNumber::TooLarge),
        _ if token.len() > 1 && token[0] == b'-' && token[1..].iter().all(u8::is_ascii_digit) => {
            Err(BadNumber::Negative)
        }
        _ => Err(BadNumber::NotANumber),
    }
}

/// Builds errors that name the file being read.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    pub source: &'a str,
}

impl Ctx<'_> {
    /// `FILE:LINE: <found>; expected <expected>`.
    pub fn err(&self, line: usize, found: impl Display, expected: impl Display) -> Error {
        Error::malformed(self.source, line as u64, format!("{found}; expected {expected}"))
    }

    /// A non-negative integer (`expected` says what it stands for, e.g. "the vertex count").
    #[inline]
    /// `expected` is only formatted on error: pass `format_args!` rather than a `String`, which would
    /// allocate on every call of this hot path.
    pub fn number(&self, line: usize, token: Option<&[u8]>, expected: impl Display) -> Result<u64> {
        parse_u64(token).map_err(|why| {
            let shown = token.map(show).unwrap_or_default();
            match why {
                BadNumber::Missing => self.err(line, "found the end of the line", expected),
                BadNumber::Negative => self.err(line, format!("found negative number {shown}"), expected),
                BadNumber::TooLarge => self.err(line, format!("found {shown}, too large for 64 bits"), expected),
                BadNumber::NotANumber => self.err(line, format!("found {shown}"), expected),
            }
        })
    }

    /// A vertex count that fits the 32-bit dense ids of the CSR, the size of the text it is declared
    /// in (`text_bytes`, when known: [`vertex_limit`]) and the machine's memory.
    pub fn vertex_count(
        &self,
        line: usize,
        token: Option<&[u8]>,
        expected: impl Display,
        text_bytes: Option<u64>,
    ) -> Result<usize> {
        let n = self.number(line, token, expected)?;
        if n > u32::MAX as u64 {
            return Err(self.err(line, format!("found {n} vertices"), format!("at most {} (32-bit ids)", u32::MAX)));
        }
        if let Some(text_bytes) = text_bytes {
            self.declared_vertices(line, n, text_bytes)?;
        }
        // Refused here, with the line, rather than by the kernel killing the process mid-allocation.
        let needed = n.saturating_mul(LOAD_BYTES_PER_VERTEX);
        if let Some(memory) = crate::system::physical_memory_bytes().filter(|&memory| needed > memory) {
            let (needed, memory) = (crate::format::bytes(needed), crate::format::bytes(memory));
            return Err(self.err(
                line,
                format!("found {n} vertices, which need at least {needed} to load"),
                format!("a vertex count that fits this machine's {memory} of memory"),
            ));
        }
        Ok(n as usize)
    }

    /// Refuses a declared vertex count beyond [`vertex_limit`] of the text's size.
    pub fn declared_vertices(&self, line: usize, n: u64, text_bytes: u64) -> Result<()> {
        let limit = vertex_limit(text_bytes);
        if n <= limit {
            return Ok(());
        }
        Err(self.err(
            line,
            format!("found {n} vertices declared in a file of {}", crate::format::plural(text_bytes, "byte", "bytes")),
            format!(
                "at most {limit} for a file this size (vertices no line names take no bytes, so a count this \
                 far beyond the file's size is taken for a mistake)"
            ),
        ))
    }

    /// A vertex id `base..base + n`, returned as the dense id `id - base`.
    #[inline]
    pub fn vertex(&self, line: usize, token: Option<&[u8]>, base: u64, n: usize) -> Result<u32> {
        let ids = crate::format::span(base, (base + n as u64).wrapping_sub(1));
        let id = self.number(line, token, format_args!("a vertex id from {ids}"))?;
        match id.checked_sub(base) {
            Some(dense) if dense < n as u64 => Ok(dense as u32),
            _ => Err(self.err(line, format!("found vertex {id}"), format_args!("a vertex id from {ids}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_strip_crlf_and_count_from_one() {
        let lines: Vec<(usize, &[u8])> = Lines::new(b"a\r\n\nb c\nlast").map(|l| (l.number, l.text)).collect();
        assert_eq!(lines, vec![(1, &b"a"[..]), (2, &b""[..]), (3, &b"b c"[..]), (4, &b"last"[..])]);
    }

    #[test]
    fn end_line_points_past_the_last_line() {
        let mut lines = Lines::new(b"1\n2\n");
        assert_eq!(lines.by_ref().count(), 2);
        assert_eq!(lines.end_line(), 3);
    }

    #[test]
    fn data_lines_skip_blanks_and_comments() {
        let mut lines = Lines::new(b"  \n# c\n % d\n7 8\n");
        let line = lines.next_data(b"#%").unwrap();
        assert_eq!((line.number, line.text), (4, &b"7 8"[..]));
    }

    #[test]
    fn tokens_split_on_any_ascii_whitespace() {
        let line = Line { number: 1, text: b" 1\t22  333 \x0c" };
        assert_eq!(line.tokens().collect::<Vec<_>>(), vec![&b"1"[..], b"22", b"333"]);
    }

    #[test]
    fn numbers_are_checked() {
        assert_eq!(parse_u64(Some(b"18446744073709551615")), Ok(u64::MAX));
        assert_eq!(parse_u64(Some(b"18446744073709551616")), Err(BadNumber::TooLarge));
        assert_eq!(parse_u64(Some(b"-3")), Err(BadNumber::Negative));
        assert_eq!(parse_u64(Some(b"3x")), Err(BadNumber::NotANumber));
        assert_eq!(parse_u64(Some(b"+3")), Err(BadNumber::NotANumber));
        assert_eq!(parse_u64(Some(b"\xff")), Err(BadNumber::NotANumber));
        assert_eq!(parse_u64(None), Err(BadNumber::Missing));
    }

    #[test]
    fn vertex_counts_beyond_the_machine_memory_are_refused_before_allocating() {
        let n = u32::MAX as u64;
        let ctx = Ctx { source: "big.txt" };
        match crate::system::physical_memory_bytes() {
            Some(memory) if memory < n * 32 => {
                let token = n.to_string();
                let e = ctx.vertex_count(2, Some(token.as_bytes()), "n", None).unwrap_err().to_string();
                assert!(e.starts_with(&format!("big.txt:2: found {n} vertices, which need at least 128.0 GiB")), "{e}");
                assert!(e.contains("expected a vertex count that fits this machine's"), "{e}");
            }
            _ => eprintln!("note: this machine has 128 GiB or more, or says nothing; the refusal is not checked here"),
        }
    }

    #[test]
    fn declared_vertex_counts_are_bounded_by_the_text_size() {
        let ctx = Ctx { source: "m.mtx" };
        assert_eq!(ctx.vertex_count(2, Some(b"65536"), "n", Some(10)).unwrap(), 1 << 16);
        assert!(ctx.vertex_count(2, Some(b"65537"), "n", Some(10)).is_err());
        assert_eq!(ctx.vertex_count(2, Some(b"1600000"), "n", Some(100_000)).unwrap(), 1_600_000);
        let e = ctx.vertex_count(2, Some(b"1600001"), "n", Some(100_000)).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "m.mtx:2: found 1600001 vertices declared in a file of 100,000 bytes; expected at most 1600000"
            ),
            "{e}"
        );
    }

    #[test]
    fn errors_name_file_line_found_and_expected() {
        let ctx = Ctx { source: "g.txt" };
        let e = ctx.vertex(3, Some(b"12"), 0, 10).unwrap_err();
        assert_eq!(e.to_string(), "g.txt:3: found vertex 12; expected a vertex id from 0 to 9");
        let e = ctx.number(4, Some(b"\xc3\xa9"), "a count").unwrap_err();
        assert_eq!(e.to_string(), "g.txt:4: found \"\\xc3\\xa9\"; expected a count");
        assert_eq!(ctx.vertex(1, Some(b"1"), 1, 1).unwrap(), 0);
        assert!(ctx.vertex(1, Some(b"0"), 1, 1).is_err());
    }
}
