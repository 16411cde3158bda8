//! GRAIL `.gra`: an optional `graph_for_greach` line, the vertex count n, then one line per vertex
//! `u: v1 v2 ... #`. The line's position is the source vertex; the `u:` prefix must agree with it.
//!
//! Tolerated: `2#` (no space before `#`), a missing `#`, trailing whitespace, `\r\n`, duplicate
//! edges (removed when the CSR is built) and blank lines after the last vertex line.

use super::held_text::Text;
use super::scan::{Ctx, Line, Lines, show};
use crate::Result;
use crate::graph::load_report::Reading;
use crate::graph::{Graph, VertexNames};

/// The optional first line of a `.gra` file.
pub const MAGIC: &[u8] = b"graph_for_greach";

const VERTEX_LINE: &str = "a vertex line `u: v1 v2 ... #`";

pub fn parse(text: Text, ctx: Ctx) -> Result<(Graph, VertexNames, Reading)> {
    let mut lines = Lines::of(text);
    let n = read_vertex_count(&mut lines, ctx)?;
    let mut reading = Reading { declared: Some(n as u64), data_lines: n as u64, ..Reading::default() };
    let mut scratch = Vec::new();
    // About one edge per 4 bytes of body is the densest a `.gra` can be; a quarter of that is a
    // good first guess for the sparse benchmark graphs without over-allocating.
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity(text.bytes.len() / 16);
    for u in 0..n as u32 {
        let Some(line) = lines.next() else {
            let found = format!("found only {u} of {n} vertex lines before the file ends here");
            return Err(ctx.err(lines.last_line(), found, format!("{} more", n - u as usize)));
        };
        let start = edges.len();
        parse_vertex_line(line, u, n, ctx, &mut edges)?;
        note_vertex_line(&mut reading, line.number as u64, u, &edges[start..], &mut scratch);
    }
    if let Some(extra) = lines.next_nonblank() {
        let found = format!("found {} after the {n} vertex lines the count announced", show(extra.text));
        return Err(ctx.err(extra.number, found, "the end of the file"));
    }
    reading.lines = lines.read_so_far();
    reading.skipped = lines.take_skipped();
    Ok((Graph::from_edges(n, &edges)?, VertexNames::Dense, reading))
}

/// Notes the self-loops and repeated targets of vertex `u`'s line.
fn note_vertex_line(reading: &mut Reading, line: u64, u: u32, targets: &[(u32, u32)], scratch: &mut Vec<u32>) {
    scratch.clear();
    for &(_, v) in targets {
        if v == u {
            reading.self_loop(line, u64::from(u));
        } else {
            scratch.push(v);
        }
    }
    reading.nonloop_pairs += scratch.len() as u64;
    scratch.sort_unstable();
    let repeats = scratch.windows(2).filter(|w| w[0] == w[1]).count() as u64;
    if repeats > 0 {
        reading.duplicates.note(line);
        reading.duplicates.count += repeats - 1;
    }
}

/// Skips the optional magic line and returns the vertex count.
pub(super) fn read_vertex_count(lines: &mut Lines, ctx: Ctx) -> Result<usize> {
    let expected = "`graph_for_greach` or the vertex count";
    let mut line = lines.next_nonblank().ok_or_else(|| ctx.err(1, "found an empty file", expected))?;
    if line.text.trim_ascii() == MAGIC {
        line = lines
            .next_nonblank()
            .ok_or_else(|| ctx.err(lines.end_line(), "found the end of the file", "the vertex count"))?;
    }
    let mut tokens = line.tokens();
    let n = ctx.vertex_count(line.number, tokens.next(), "the vertex count", lines.text_bytes())?;
    if let Some(extra) = tokens.next() {
        return Err(ctx.err(line.number, format!("found {} after the vertex count", show(extra)), "nothing else"));
    }
    Ok(n)
}

/// Parses `u: v1 v2 ... #` for vertex `u`, appending its edges.
#[inline]
fn parse_vertex_line(line: Line, u: u32, n: usize, ctx: Ctx, edges: &mut Vec<(u32, u32)>) -> Result<()> {
    let Some(colon) = memchr::memchr(b':', line.text) else {
        return Err(ctx.err(line.number, format!("found {}", show(line.text)), VERTEX_LINE));
    };
    let label = line.text[..colon].trim_ascii();
    let stated = ctx.number(line.number, Some(label), format_args!("`{u}:` (vertex lines must come in order)"))?;
    if stated != u as u64 {
        let found = format!("found `{stated}:` on the line of vertex {u}");
        return Err(ctx.err(line.number, found, format_args!("`{u}:` (vertex lines must come in order)")));
    }
    let after_colon = &line.text[colon + 1..];
    let (targets, after_hash) = match memchr::memchr(b'#', after_colon) {
        Some(hash) => (&after_colon[..hash], &after_colon[hash + 1..]),
        None => (after_colon, &after_colon[after_colon.len()..]),
    };
    if !after_hash.trim_ascii().is_empty() {
        let found = format!("found {} after `#`", show(after_hash.trim_ascii()));
        return Err(ctx.err(line.number, found, "the end of the line"));
    }
    let targets = Line { number: line.number, text: targets };
    for token in targets.tokens() {
        edges.push((u, ctx.vertex(line.number, Some(token), 0, n)?));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<Graph> {
        parse(Text::whole(text.as_bytes()), Ctx { source: "t.gra" }).map(|(g, _, _)| g)
    }

    #[test]
    fn parses_the_benchmark_layout() {
        let (g, names, _) =
            parse(Text::whole(b"graph_for_greach\n\n4\n0: 1 2 #\n1: 3 #\n2: 3 #\n3: #\n"), Ctx { source: "t" })
                .unwrap();
        assert_eq!(names, VertexNames::Dense);
        assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 1), (0, 2), (1, 3), (2, 3)]);
        assert_eq!(g.num_vertices(), 4);
    }

    #[test]
    fn tolerates_the_usual_variations() {
        // No magic line, `2#`, a missing `#`, trailing spaces, CRLF, a duplicate edge, trailing blanks.
        let g = parse_str("3\r\n0: 2 1 2#\r\n1: 2   \r\n2:#  \r\n\r\n\n").unwrap();
        assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 1), (0, 2), (1, 2)]);
    }

    #[test]
    fn wrong_prefix_names_the_line() {
        let e = parse_str("graph_for_greach\n3\n0: #\n2: #\n1: #\n").unwrap_err().to_string();
        assert_eq!(e, "t.gra:4: found `2:` on the line of vertex 1; expected `1:` (vertex lines must come in order)");
    }

    #[test]
    fn text_after_hash_is_an_error() {
        let e = parse_str("1\n0: # 5\n").unwrap_err().to_string();
        assert!(e.starts_with("t.gra:2: found \"5\" after `#`"), "{e}");
    }

    #[test]
    fn more_lines_than_the_count_is_an_error() {
        let e = parse_str("1\n0: #\n1: #\n").unwrap_err().to_string();
        assert!(e.starts_with("t.gra:3: found \"1: #\" after the 1 vertex lines"), "{e}");
    }

    #[test]
    fn missing_colon_is_an_error() {
        let e = parse_str("2\n0 1\n1: #\n").unwrap_err().to_string();
        assert!(e.starts_with("t.gra:2: found \"0 1\"; expected a vertex line"), "{e}");
    }
}
