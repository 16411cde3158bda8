//! The fast, parallel half of every reader: one chunk of a file's body (whole lines) parsed with no
//! knowledge of the chunks before it.
//!
//! These parsers only say *whether* a chunk is valid, never *why not*: on the first doubt they
//! return `None`, and the caller re-reads the whole input with the sequential reader of the format,
//! whose message (file, absolute line, what was found, what was expected) is then the one shown.
//! So the two can never disagree on what is reported; they must only agree on what is accepted,
//! which the property tests check on random inputs. What a chunk cannot check alone (that its
//! first `.gra` vertex line is the one the previous chunks lead to, that a counted body holds as
//! many lines as announced) it reports, and `parallel.rs` checks when it assembles the chunks.

/// What `bytes.is_ascii_whitespace()` accepts: space, tab, line feed, form feed, carriage return.
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r')
}

/// The lines of a chunk, without their `\n` (a `\r` before it is whitespace to every check here).
#[inline]
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (line, tail) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        rest = tail;
        Some(line)
    })
}

/// The decimal number in the whitespace-separated token that starts at or after `*at`; `None` when
/// there is no token, it is not all digits, or it exceeds `u64`. Leaves `*at` after the token.
#[inline]
fn number(text: &[u8], at: &mut usize) -> Option<u64> {
    let mut i = *at;
    while i < text.len() && is_space(text[i]) {
        i += 1;
    }
    let start = i;
    let mut value = 0u64;
    while i < text.len() && text[i].is_ascii_digit() {
        value = value.checked_mul(10)?.checked_add(u64::from(text[i] - b'0'))?;
        i += 1;
    }
    if i == start || (i < text.len() && !is_space(text[i])) {
        return None;
    }
    *at = i;
    Some(value)
}

/// What a chunk met besides its edges, by line within the chunk (0-based): the loader's report is
/// assembled from these in file order.
#[derive(Debug, Default)]
pub struct Notes {
    /// Physical lines in the chunk (a hole of blank lines may stand for more than 32 bits count).
    pub lines: u64,
    /// Blank and comment lines.
    pub skipped: SkippedLines,
    /// Self-loop entries.
    pub loops: u64,
    /// The lines of the first [`FIRST`] self-loops.
    pub first_loops: Vec<u32>,
    /// The file ids of the self-loops' vertices.
    pub loop_vertices: Vec<u64>,
    /// `.gra`: targets that are not self-loops (before duplicates are removed).
    pub nonloop_pairs: u64,
    /// `.gra`: repeated targets removed.
    pub duplicates: u64,
    /// `.gra`: the first [`FIRST`] lines with a repeated target.
    pub first_duplicates: Vec<u32>,
    /// Counted bodies and edge lists: lines with more fields than the format's columns.
    pub extra_fields: u64,
    /// The first [`FIRST`] of those lines.
    pub first_extra_fields: Vec<u32>,
}

impl Notes {
    #[cold]
    fn self_loop(&mut self, line: u32, file_id: u64) {
        self.loops += 1;
        if self.first_loops.len() < FIRST {
            self.first_loops.push(line);
        }
        self.loop_vertices.push(file_id);
    }

    #[cold]
    fn extra_fields(&mut self, line: u32) {
        self.extra_fields += 1;
        if self.first_extra_fields.len() < FIRST {
            self.first_extra_fields.push(line);
        }
    }
}

use crate::graph::load_report::FIRST;
use crate::graph::skipped_lines::SkippedLines;

/// A chunk of `.gra` vertex lines (and, at the end of a file, blank lines).
#[derive(Debug, Default)]
pub struct GraChunk {
    /// The `u:` of the chunk's first vertex line (None when it has none).
    pub first: Option<u64>,
    /// Vertex lines in the chunk; their labels are `first, first + 1, ...` (checked here).
    pub vertices: u64,
    /// A blank line was met: the vertex lines end in this chunk (only blank lines may follow).
    pub tail: bool,
    /// Children per vertex line, after the cleaning below.
    pub degrees: Vec<u32>,
    /// The children, each list sorted, without duplicates or the vertex itself.
    pub targets: Vec<u32>,
    /// Lines, self-loops and duplicates met.
    pub notes: Notes,
}

/// Parses `.gra` vertex lines `u: v1 v2 ... #` with ids below `n`, in one pass over the bytes
/// (lines are short: a search for the line end, the colon and the `#` would cost more than the
/// digits).
pub fn gra(bytes: &[u8], n: u64) -> Option<GraChunk> {
    let mut out = GraChunk { targets: Vec::with_capacity(bytes.len() / 6), ..GraChunk::default() };
    let mut at = 0;
    while at < bytes.len() {
        // A block of text holds at most a few million lines.
        let line = out.notes.lines as u32;
        out.notes.lines += 1;
        if out.tail {
            at = rest_of_line_blank(bytes, at)?;
            out.notes.skipped.note(u64::from(line), false);
            continue;
        }
        at = skip_inline_space(bytes, at);
        if at == bytes.len() || bytes[at] == b'\n' {
            // A blank line: the vertex lines end here.
            out.tail = true;
            out.notes.skipped.note(u64::from(line), false);
            at += 1;
            continue;
        }
        let label = digits(bytes, &mut at)?;
        at = skip_inline_space(bytes, at);
        if bytes.get(at) != Some(&b':') || label >= n || out.first.is_some_and(|f| label != f + out.vertices) {
            return None;
        }
        at += 1;
        out.first.get_or_insert(label);
        let start = out.targets.len();
        loop {
            at = skip_inline_space(bytes, at);
            match bytes.get(at) {
                None | Some(b'\n') => {
                    at += 1;
                    break;
                }
                Some(b'#') => {
                    at = rest_of_line_blank(bytes, at + 1)?;
                    break;
                }
                _ => {}
            }
            let v = digits(bytes, &mut at)?;
            if v >= n || !matches!(bytes.get(at), None | Some(b'#')) && !is_space(bytes[at]) {
                return None;
            }
            if v != label {
                out.targets.push(v as u32);
            } else {
                out.notes.self_loop(line, v);
            }
        }
        let listed = out.targets.len() - start;
        let kept = clean(&mut out.targets[start..]);
        out.targets.truncate(start + kept);
        out.notes.nonloop_pairs += listed as u64;
        if kept < listed {
            out.notes.duplicates += (listed - kept) as u64;
            if out.notes.first_duplicates.len() < FIRST {
                out.notes.first_duplicates.push(line);
            }
        }
        out.degrees.push(kept as u32);
        out.vertices += 1;
    }
    fit(&mut out.targets);
    Some(out)
}

/// Gives back what a chunk reserved for edges and did not use: chunks are kept until the graph is
/// assembled, and a block of blank or comment lines must not cost what a block of edges would.
fn fit<T>(list: &mut Vec<T>) {
    if list.len() < list.capacity() / 2 {
        list.shrink_to_fit();
    }
}

/// Skips spaces and tabs (any whitespace but the line end).
#[inline]
fn skip_inline_space(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && bytes[at] != b'\n' && is_space(bytes[at]) {
        at += 1;
    }
    at
}

/// The position after the line that starts at `at`, if the rest of it is blank.
#[inline]
fn rest_of_line_blank(bytes: &[u8], mut at: usize) -> Option<usize> {
    while at < bytes.len() && bytes[at] != b'\n' {
        if !is_space(bytes[at]) {
            return None;
        }
        at += 1;
    }
    Some(at + 1)
}

/// The decimal number at `*at` (at least one digit, checked against overflow); leaves `*at` after it.
#[inline]
fn digits(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let start = *at;
    let mut value = 0u64;
    while let Some(&b) = bytes.get(*at).filter(|b| b.is_ascii_digit()) {
        value = value.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
        *at += 1;
    }
    (*at > start).then_some(value)
}

/// Sorts a list and moves its distinct values to the front; returns how many there are.
fn clean(list: &mut [u32]) -> usize {
    if list.len() < 2 {
        return list.len();
    }
    list.sort_unstable();
    let mut write = 1;
    for read in 1..list.len() {
        if list[read] != list[write - 1] {
            list[write] = list[read];
            write += 1;
        }
    }
    write
}

/// What a counted body (plain header, weighted, Matrix Market) may hold.
#[derive(Clone, Copy, Debug)]
pub struct CountedSpec {
    pub n: u64,
    pub base: u64,
    pub both_directions: bool,
    pub comment_markers: &'static [u8],
    /// The weight columns after `src dst` (0 to 2); a line with more fields is noted.
    pub columns_after_ids: usize,
}

/// Edges of a chunk of `src dst ...` lines.
#[derive(Debug, Default)]
pub struct PairsChunk {
    /// Data lines (neither blank nor comments) in the chunk.
    pub lines: u64,
    /// The pairs while every id fits 32 bits (dense ids for a counted body).
    pub narrow: Vec<(u32, u32)>,
    /// An edge list's pairs once an id did not fit 32 bits (then `narrow` is empty).
    pub wide: Vec<(u64, u64)>,
    /// The largest id met (edge lists).
    pub max_id: u64,
    /// Lines and self-loops met.
    pub notes: Notes,
}

/// The data line's text, or None for blank and comment lines.
#[inline]
fn data_line<'a>(line: &'a [u8], markers: &[u8]) -> Option<&'a [u8]> {
    let first = line.iter().position(|&b| !is_space(b))?;
    (!markers.contains(&line[first])).then_some(&line[first..])
}

/// Whether `rest` holds more than `k` whitespace-separated fields (it stops at the `k + 1`-th).
#[inline]
fn more_fields_than(rest: &[u8], k: usize) -> bool {
    rest.split(|&b| is_space(b)).filter(|field| !field.is_empty()).nth(k).is_some()
}

/// Parses a counted body's `src dst [weight columns]` lines into dense pairs.
pub fn counted(bytes: &[u8], spec: CountedSpec) -> Option<PairsChunk> {
    let mut out = PairsChunk { narrow: Vec::with_capacity(bytes.len() / 8), ..PairsChunk::default() };
    let dense = |v: u64| v.checked_sub(spec.base).filter(|&d| d < spec.n).map(|d| d as u32);
    for (index, line) in lines(bytes).enumerate() {
        out.notes.lines = index as u64 + 1;
        let Some(text) = data_line(line, spec.comment_markers) else {
            out.notes.skipped.note(index as u64, !line.iter().all(|&b| is_space(b)));
            continue;
        };
        let mut at = 0;
        let src = dense(number(text, &mut at)?)?;
        let dst = dense(number(text, &mut at)?)?;
        if src == dst {
            out.notes.self_loop(index as u32, u64::from(src) + spec.base);
        }
        if more_fields_than(&text[at..], spec.columns_after_ids) {
            out.notes.extra_fields(index as u32);
        }
        out.narrow.push((src, dst));
        if spec.both_directions {
            out.narrow.push((dst, src));
        }
        out.lines += 1;
    }
    fit(&mut out.narrow);
    Some(out)
}

/// Parses an edge list's `src dst [noted...]` lines (`#`/`%` comments), ids any `u64`.
pub fn edge_list(bytes: &[u8]) -> Option<PairsChunk> {
    let mut out = PairsChunk { narrow: Vec::with_capacity(bytes.len() / 8), ..PairsChunk::default() };
    for (index, line) in lines(bytes).enumerate() {
        out.notes.lines = index as u64 + 1;
        let Some(text) = data_line(line, b"#%") else {
            out.notes.skipped.note(index as u64, !line.iter().all(|&b| is_space(b)));
            continue;
        };
        let mut at = 0;
        let src = number(text, &mut at)?;
        let dst = number(text, &mut at)?;
        if src == dst {
            out.notes.self_loop(index as u32, src);
        }
        if more_fields_than(&text[at..], 0) {
            out.notes.extra_fields(index as u32);
        }
        out.max_id = out.max_id.max(src).max(dst);
        if out.wide.is_empty() && out.max_id <= u64::from(u32::MAX) {
            out.narrow.push((src as u32, dst as u32));
        } else {
            if out.wide.is_empty() {
                out.wide = out.narrow.drain(..).map(|(s, d)| (u64::from(s), u64::from(d))).collect();
            }
            out.wide.push((src, dst));
        }
        out.lines += 1;
    }
    fit(&mut out.narrow);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_whole_tokens() {
        let mut at = 0;
        assert_eq!(number(b" 12\t7x", &mut at), Some(12));
        assert_eq!(number(b" 12\t7x", &mut at), None);
        assert_eq!(number(b"18446744073709551616", &mut 0), None);
        assert_eq!(number(b"-1", &mut 0), None);
        assert_eq!(number(b"   ", &mut 0), None);
    }

    #[test]
    fn gra_lines_are_cleaned_and_checked() {
        let c = gra(b"3: 5 4 5 3 #\n4:#\r\n5: 1\n\n \n", 6).unwrap();
        assert_eq!((c.first, c.vertices, c.tail), (Some(3), 3, true));
        assert_eq!((c.degrees, c.targets), (vec![2, 0, 1], vec![4, 5, 1]));
        assert!(gra(b"3: #\n5: #\n", 6).is_none(), "labels must follow each other");
        assert!(gra(b"3: #\n\n4: #\n", 6).is_none(), "no vertex line after a blank one");
        assert!(gra(b"3: 6 #\n", 6).is_none(), "target out of range");
        assert!(gra(b"3: 1 # 2\n", 6).is_none(), "text after #");
        assert!(gra(b"3 1\n", 6).is_none(), "no colon");
    }

    #[test]
    fn counted_and_edge_list_lines() {
        let spec = CountedSpec { n: 3, base: 1, both_directions: true, comment_markers: b"%", columns_after_ids: 0 };
        let c = counted(b"% c\n1 3 0.5\n\n2 2\n", spec).unwrap();
        assert_eq!((c.lines, c.narrow), (2, vec![(0, 2), (2, 0), (1, 1), (1, 1)]));
        assert!(counted(b"0 1\n", spec).is_none(), "below the base");
        let e = edge_list(b"# c\n1 2\n5000000000 3\n").unwrap();
        assert_eq!((e.lines, e.max_id), (2, 5_000_000_000));
        assert_eq!(e.wide, vec![(1, 2), (5_000_000_000, 3)]);
        assert!(edge_list(b"1\n").is_none());
    }
}
