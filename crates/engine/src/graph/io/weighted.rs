//! The weighted format (the transitive-closure report's): a header `n m directed` (or `undirected`: every edge
//! then goes both ways), then `m` lines `src dst weight` on 0-based ids. The weight is read by the
//! weighted commands only (`weights.rs`); reachability ignores it.
//! Blank lines and `#`/`%` comment lines are skipped anywhere.

use super::counted_body::{CountedBody, WeightColumn};
use super::held_text::Text;
use super::scan::{Ctx, Lines, show};
use crate::Result;
use crate::graph::load_report::Reading;
use crate::graph::{Graph, VertexNames};

const HEADER: &str = "a header `n m directed` or `n m undirected`";

/// Whether `word` is a direction keyword of the header, and which.
pub fn direction(word: &[u8]) -> Option<Direction> {
    match word {
        b"directed" => Some(Direction::Directed),
        b"undirected" => Some(Direction::Undirected),
        _ => None,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Directed,
    Undirected,
}

pub fn parse(text: Text, ctx: Ctx) -> Result<(Graph, VertexNames, Reading)> {
    let mut lines = Lines::of(text);
    let body = read_header(&mut lines, ctx)?;
    let (graph, reading) = body.read_graph(&mut lines, ctx)?;
    Ok((graph, VertexNames::Dense, reading))
}

/// The header line: what the body must hold.
pub(super) fn read_header(lines: &mut Lines, ctx: Ctx) -> Result<CountedBody<'static>> {
    let Some(header) = lines.next_data(b"#%") else {
        return Err(ctx.err(lines.end_line(), "found no data", HEADER));
    };
    let mut tokens = header.tokens();
    let expected = "the vertex count n of the header `n m directed`";
    let n = ctx.vertex_count(header.number, tokens.next(), expected, lines.text_bytes())?;
    let m = ctx.number(header.number, tokens.next(), "the edge count m of the header `n m directed`")?;
    let direction = match tokens.next() {
        None => {
            return Err(ctx.err(header.number, "found the end of the line after `n m`", "`directed` or `undirected`"));
        }
        Some(word) => direction(word)
            .ok_or_else(|| ctx.err(header.number, format!("found {}", show(word)), "`directed` or `undirected`"))?,
    };
    if let Some(extra) = tokens.next() {
        return Err(ctx.err(
            header.number,
            format!("found {} after the direction", show(extra)),
            "the end of the header",
        ));
    }
    Ok(CountedBody::edges(n, m, direction == Direction::Undirected, header.number).with_weights(WeightColumn::Value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<Graph> {
        parse(Text::whole(text.as_bytes()), Ctx { source: "w.txt" }).map(|(g, _, _)| g)
    }

    #[test]
    fn directed_keeps_direction() {
        let (g, names, _) = parse(Text::whole(b"4 2 directed\n0 1 0.5\n3 2 7\n"), Ctx { source: "w" }).unwrap();
        assert_eq!(names, VertexNames::Dense);
        assert_eq!(g.num_vertices(), 4);
        assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 1), (3, 2)]);
    }

    #[test]
    fn undirected_adds_both_directions() {
        let g = parse_str("3 2 undirected\n0 1 1\n1 2 1\n").unwrap();
        assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 1), (1, 0), (1, 2), (2, 1)]);
    }

    #[test]
    fn other_direction_words_are_errors() {
        let e = parse_str("3 1 sideways\n0 1 1\n").unwrap_err().to_string();
        assert_eq!(e, "w.txt:1: found \"sideways\"; expected `directed` or `undirected`");
    }

    #[test]
    fn body_count_must_match_m() {
        let e = parse_str("3 3 directed\n0 1 1\n1 2 1\n").unwrap_err().to_string();
        assert_eq!(e, "w.txt:3: found only 2 edges before the file ends here; expected 3 (header on line 1)");
    }
}
