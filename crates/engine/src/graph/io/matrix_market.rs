//! Matrix Market coordinate files: the banner `%%MatrixMarket matrix coordinate <field> <symmetry>`,
//! `%` comments, the size line `rows cols nnz`, then `nnz` entries `i j [value...]`, 1-based.
//! Entry (i, j) is the edge i -> j; its value is the edge's weight for the weighted commands
//! (`weights.rs`), and unused otherwise. A `symmetric`, `skew-symmetric` or
//! `hermitian` matrix stores one triangle, so each entry adds both directions. The matrix must be
//! square. Vertex names are `Offset(1)`: file id i is dense id i - 1.

use super::counted_body::{CountedBody, WeightColumn};
use super::held_text::Text;
use super::scan::{Ctx, Lines, show};
use crate::Result;
use crate::graph::load_report::Reading;
use crate::graph::{Graph, VertexNames};

/// How a Matrix Market file starts (compared case-insensitively, as readers usually do).
pub const BANNER: &[u8] = b"%%MatrixMarket";

const FIELDS: [&[u8]; 5] = [b"real", b"double", b"integer", b"complex", b"pattern"];
const GENERAL: &[u8] = b"general";
const MIRRORED: [&[u8]; 3] = [b"symmetric", b"skew-symmetric", b"hermitian"];

pub fn starts_with_banner(text: &[u8]) -> bool {
    text.len() >= BANNER.len() && text[..BANNER.len()].eq_ignore_ascii_case(BANNER)
}

pub fn parse(text: Text, ctx: Ctx) -> Result<(Graph, VertexNames, Reading)> {
    let mut lines = Lines::of(text);
    let body = read_header(&mut lines, ctx)?;
    let (graph, reading) = body.read_graph(&mut lines, ctx)?;
    Ok((graph, VertexNames::Offset(1), reading))
}

/// The banner and the size line: what the body must hold.
pub(super) fn read_header(lines: &mut Lines, ctx: Ctx) -> Result<CountedBody<'static>> {
    let Banner { both_directions, weights, line: banner_line, whole_weights } = read_banner(lines, ctx)?;
    let Some(size) = lines.next_data(b"%") else {
        return Err(ctx.err(lines.end_line(), "found the end of the file", "the size line `rows cols nnz`"));
    };
    let mut tokens = size.tokens();
    let rows = ctx.vertex_count(size.number, tokens.next(), "the row count of `rows cols nnz`", lines.text_bytes())?;
    let cols = ctx.number(size.number, tokens.next(), "the column count of `rows cols nnz`")?;
    let nnz = ctx.number(size.number, tokens.next(), "the entry count of `rows cols nnz`")?;
    if cols != rows as u64 {
        return Err(ctx.err(size.number, format!("found a {rows} x {cols} matrix"), "a square matrix (rows = cols)"));
    }
    if let Some(extra) = tokens.next() {
        return Err(ctx.err(
            size.number,
            format!("found {} after `rows cols nnz`", show(extra)),
            "the end of the line",
        ));
    }
    Ok(CountedBody {
        n: rows,
        count: nnz,
        base: 1,
        both_directions,
        comment_markers: b"%",
        noun: ("entry", "entries"),
        header_line: size.number,
        weights,
        weights_line: banner_line,
        whole_weights,
    })
}

/// What the banner says.
struct Banner {
    /// Entries stand for both directions.
    both_directions: bool,
    /// What their values are.
    weights: WeightColumn,
    /// The banner's line.
    line: usize,
    /// The values are whole numbers (`integer`).
    whole_weights: bool,
}

/// Checks the banner and says what it declares.
fn read_banner(lines: &mut Lines, ctx: Ctx) -> Result<Banner> {
    const EXPECTED: &str = "`%%MatrixMarket matrix coordinate <field> <symmetry>`";
    let Some(line) = lines.next_nonblank() else {
        return Err(ctx.err(1, "found an empty file", EXPECTED));
    };
    let mut words = line.tokens();
    let mut expect = |wanted: &[&[u8]], what: &str| -> Result<Vec<u8>> {
        match words.next() {
            Some(w) if wanted.iter().any(|x| x.eq_ignore_ascii_case(w)) => Ok(w.to_ascii_lowercase()),
            Some(w) => Err(ctx.err(line.number, format!("found {} in the banner", show(w)), what)),
            None => Err(ctx.err(line.number, "found the end of the banner", what)),
        }
    };
    expect(&[BANNER], EXPECTED)?;
    expect(&[b"matrix"], "`matrix`")?;
    expect(&[b"coordinate"], "`coordinate` (dense `array` matrices are not graphs)")?;
    let field = expect(&FIELDS, "a field: real, double, integer, complex or pattern")?;
    let symmetry = expect(&[&[GENERAL], &MIRRORED[..]].concat(), "general, symmetric, skew-symmetric or hermitian")?;
    let weights = match (&field[..], &symmetry[..]) {
        (b"pattern", _) => WeightColumn::Absent,
        (b"complex", _) => WeightColumn::Complex,
        (_, b"skew-symmetric") => WeightColumn::Negated,
        _ => WeightColumn::Value,
    };
    Ok(Banner { both_directions: symmetry != GENERAL, weights, line: line.number, whole_weights: field == b"integer" })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<(Graph, VertexNames)> {
        parse(Text::whole(text.as_bytes()), Ctx { source: "m.mtx" }).map(|(g, names, _)| (g, names))
    }

    #[test]
    fn general_pattern_is_row_to_column() {
        let (g, names) =
            parse_str("%%MatrixMarket matrix coordinate pattern general\n% c\n3 3 3\n1 2\n2 3\n3 1\n").unwrap();
        assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 1), (1, 2), (2, 0)]);
        assert_eq!(names, VertexNames::Offset(1));
        assert_eq!(names.file_id(2), 3);
    }

    #[test]
    fn symmetric_adds_both_directions_and_ignores_values() {
        let text = "%%matrixmarket MATRIX coordinate real symmetric\n3 3 2\n2 1 0.5\n3 3 1e3\n";
        let (g, _) = parse_str(text).unwrap();
        assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 1), (1, 0)]);
    }

    #[test]
    fn rectangular_is_an_error() {
        let e = parse_str("%%MatrixMarket matrix coordinate pattern general\n2 3 0\n").unwrap_err().to_string();
        assert_eq!(e, "m.mtx:2: found a 2 x 3 matrix; expected a square matrix (rows = cols)");
    }

    #[test]
    fn array_is_an_error() {
        let e = parse_str("%%MatrixMarket matrix array real general\n2 2\n").unwrap_err().to_string();
        assert!(e.starts_with("m.mtx:1: found \"array\" in the banner; expected `coordinate`"), "{e}");
    }

    #[test]
    fn indices_are_one_based() {
        let e = parse_str("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n0 1\n").unwrap_err().to_string();
        assert_eq!(e, "m.mtx:3: found vertex 0; expected a vertex id from 1 to 2");
    }

    #[test]
    fn nnz_must_match_the_body() {
        let e = parse_str("%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n").unwrap_err().to_string();
        assert_eq!(e, "m.mtx:3: found only 1 entry before the file ends here; expected 2 (header on line 2)");
    }
}
