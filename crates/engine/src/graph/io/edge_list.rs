//! SNAP-style edge lists: `src dst` per line (further columns noted, not read), `#` and `%` comment lines and
//! blank lines anywhere, ids any non-negative integers up to `u64::MAX`. How ids become dense ids is
//! the rule in [`super::numbering`].

use super::held_text::Text;
use super::numbering::{self, Numbering};
use super::scan::{Ctx, Lines};
use crate::Result;
use crate::graph::load_report::{Reading, graph_noting_repeats};
use crate::graph::{Graph, VertexNames};

/// The comment the writer puts first: `# grail-explorer: N vertices, M edges`.
pub const WRITER_COMMENT: &str = "# grail-explorer:";

const COMMENTS: &[u8] = b"#%";

pub fn parse(text: Text, ctx: Ctx) -> Result<(Graph, VertexNames, Reading)> {
    let mut lines = Lines::of(text);
    let mut reading = Reading::default();
    // Benchmark edge lists use about 10-20 bytes per line; a low guess only costs a regrowth.
    let mut pairs: Vec<(u64, u64)> = Vec::with_capacity(text.bytes.len() / 16);
    while let Some(line) = lines.next_data(COMMENTS) {
        let mut tokens = line.tokens();
        let src = ctx.number(line.number, tokens.next(), "a source vertex id")?;
        let dst = ctx.number(line.number, tokens.next(), "a target vertex id")?;
        if tokens.next().is_some() {
            reading.extra_field_lines.note(line.number as u64);
        }
        if src == dst {
            reading.self_loop(line.number as u64, src);
        }
        pairs.push((src, dst));
    }
    reading.lines = lines.read_so_far();
    reading.skipped = lines.take_skipped();
    reading.data_lines = pairs.len() as u64;
    reading.nonloop_pairs = reading.data_lines - reading.self_loops.count;
    let declared = declared_vertex_count(text);
    // The writer's comment alone describes a graph of vertices without edges.
    if pairs.is_empty() && declared.is_none_or(|n| n == 0) {
        return Err(ctx.err(lines.end_line(), "found no edges", "at least one line `src dst`"));
    }
    if let Some(n) = declared {
        let comment_line = Lines::of(text).find(|l| !l.is_blank()).map_or(1, |l| l.number);
        ctx.declared_vertices(comment_line, n, text.size)?;
    }
    let (n, edges, names) = match numbering::choose(&pairs, declared) {
        Numbering::Dense(n) => {
            reading.declared = declared.filter(|&d| d == n as u64);
            (n, numbering::keep(&pairs), VertexNames::Dense)
        }
        Numbering::Remapped => {
            let numbering::Renumbered { edges, n, names } =
                numbering::remap(&pairs, u32::MAX as u64).map_err(|index| {
                    let line = nth_data_line(text, index);
                    ctx.err(line, "found more distinct vertex ids than 32-bit dense ids can number", "fewer vertices")
                })?;
            (n, edges, names)
        }
    };
    let graph = graph_noting_repeats(n, &edges, &mut reading, 1, 1)?;
    Ok((graph, names, reading))
}

/// `N` from the writer's comment, when the first non-blank line is that comment.
pub(super) fn declared_vertex_count(text: Text) -> Option<u64> {
    let first = Lines::of(text).find(|l| !l.is_blank())?;
    let rest = first.text.trim_ascii_start().strip_prefix(WRITER_COMMENT.as_bytes())?;
    let mut tokens = super::scan::Line { number: first.number, text: rest }.tokens();
    let n = super::scan::parse_u64(tokens.next()).ok()?;
    tokens.next().is_some_and(|w| w.starts_with(b"vert")).then_some(n)
}

/// The line number of the `index`-th (0-based) data line: only needed to word a rare error, so it
/// rescans instead of keeping a line number per edge.
fn nth_data_line(text: Text, index: usize) -> usize {
    let mut lines = Lines::of(text);
    (0..=index).filter_map(|_| lines.next_data(COMMENTS)).last().map_or(1, |l| l.number)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<(Graph, VertexNames)> {
        parse(Text::whole(text.as_bytes()), Ctx { source: "e.txt" }).map(|(g, names, _)| (g, names))
    }

    #[test]
    fn dense_ids_are_kept() {
        let (g, names) = parse_str("# SNAP\n% also a comment\n0 1\n\n1\t2 extra\n3 0\n").unwrap();
        assert_eq!(names, VertexNames::Dense);
        assert_eq!(g.num_vertices(), 4);
        assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 1), (1, 2), (3, 0)]);
    }

    #[test]
    fn sparse_and_huge_ids_are_remapped_by_first_appearance() {
        let (g, names) = parse_str("1000 18446744073709551615\n7 1000\n").unwrap();
        assert_eq!(g.num_vertices(), 3);
        assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 1), (2, 0)]);
        assert_eq!((0..3).map(|v| names.file_id(v)).collect::<Vec<_>>(), vec![1000, u64::MAX, 7]);
    }

    #[test]
    fn writer_comment_restores_isolated_vertices() {
        let (g, names) = parse_str("# grail-explorer: 6 vertices, 1 edges\n0 1\n").unwrap();
        assert_eq!((g.num_vertices(), names), (6, VertexNames::Dense));
    }

    #[test]
    fn only_comments_is_an_error() {
        let e = parse_str("# nothing\n% here\n\n").unwrap_err().to_string();
        assert_eq!(e, "e.txt:4: found no edges; expected at least one line `src dst`");
    }

    #[test]
    fn a_missing_target_is_an_error() {
        let e = parse_str("0 1\n2\n").unwrap_err().to_string();
        assert_eq!(e, "e.txt:2: found the end of the line; expected a target vertex id");
    }

    #[test]
    fn nth_data_line_skips_comments() {
        assert_eq!(nth_data_line(Text::whole(b"# c\n0 1\n\n% d\n1 2\n"), 1), 5);
    }
}
