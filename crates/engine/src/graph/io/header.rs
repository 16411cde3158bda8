//! A plain `n m` header, then `m` lines `src dst` (0-based ids below n; extra columns ignored).
//! Blank lines and `#`/`%` comment lines are skipped anywhere.

use super::counted_body::CountedBody;
use super::held_text::Text;
use super::scan::{Ctx, Lines, show};
use crate::Result;
use crate::format::{plural, thousands};
use crate::graph::load_report::Reading;
use crate::graph::{Graph, VertexNames};

pub fn parse(text: Text, ctx: Ctx) -> Result<(Graph, VertexNames, Reading)> {
    let mut lines = Lines::of(text);
    let body = read_header(&mut lines, ctx)?;
    check_count(lines.clone(), &body, ctx)?;
    let (graph, reading) = body.read_graph(&mut lines, ctx)?;
    Ok((graph, VertexNames::Dense, reading))
}

/// The header line: what the body must hold.
pub(super) fn read_header(lines: &mut Lines, ctx: Ctx) -> Result<CountedBody<'static>> {
    let Some(header) = lines.next_data(b"#%") else {
        return Err(ctx.err(lines.end_line(), "found no data", "a header line `n m`"));
    };
    let mut tokens = header.tokens();
    let n =
        ctx.vertex_count(header.number, tokens.next(), "the vertex count n of the header `n m`", lines.text_bytes())?;
    let m = ctx.number(header.number, tokens.next(), "the edge count m of the header `n m`")?;
    if let Some(extra) = tokens.next() {
        return Err(ctx.err(header.number, format!("found {} after `n m`", show(extra)), "the end of the header line"));
    }
    Ok(CountedBody::edges(n, m, false, header.number))
}

/// Refuses a body (the `lines` after the header) of another size than the header declares, naming both counts at the header's
/// line: a file guessed to be a header file may be an edge list whose first edge looks like one,
/// and then the message says how to read it as that.
fn check_count(mut lines: Lines, header: &CountedBody, ctx: Ctx) -> Result<()> {
    let holds = std::iter::from_fn(|| lines.next_data(b"#%")).count() as u64;
    if holds == header.count {
        return Ok(());
    }
    let edges = |count| crate::format::plural(count, "edge", "edges");
    Err(ctx.err(
        header.header_line,
        format!("the header declares {}, the file holds {}", edges(header.count), thousands(holds)),
        format!(
            "{} after the header line `n m` (or `--format edge-list`, which reads this line as an edge)",
            plural(header.count, "line `src dst`", "lines `src dst`")
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<Graph> {
        parse(Text::whole(text.as_bytes()), Ctx { source: "h.txt" }).map(|(g, _, _)| g)
    }

    #[test]
    fn parses_header_and_body() {
        let (g, names, _) =
            parse(Text::whole(b"# made by hand\n5 3\n0 1\n\n1 2 ignored\n4 0\n"), Ctx { source: "h" }).unwrap();
        assert_eq!(names, VertexNames::Dense);
        assert_eq!(g.num_vertices(), 5);
        assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 1), (1, 2), (4, 0)]);
    }

    #[test]
    fn body_count_must_match() {
        let e = parse_str("3 5\n0 1\n# c\n1 2\n").unwrap_err().to_string();
        assert_eq!(
            e,
            "h.txt:1: the header declares 5 edges, the file holds 2; expected 5 lines `src dst` after the header \
             line `n m` (or `--format edge-list`, which reads this line as an edge)"
        );
        let e = parse_str("# c\n3 1\n0 1\n1 2\n").unwrap_err().to_string();
        assert!(
            e.starts_with("h.txt:2: the header declares 1 edge, the file holds 2; expected 1 line `src dst`"),
            "{e}"
        );
    }

    #[test]
    fn ids_must_be_below_n() {
        let e = parse_str("3 1\n0 3\n").unwrap_err().to_string();
        assert_eq!(e, "h.txt:2: found vertex 3; expected a vertex id from 0 to 2");
    }
}
