//! Loading a graph with its weights, for the shortest-path commands: the weighted format's third
//! column and a Matrix Market `real`, `double` or `integer` matrix's values, read by the same
//! header readers and line scanner as reachability (which never reads the column), and a `.grail`
//! file's weights section. Every other file, a `pattern` matrix and a `.grail` file without
//! weights give unit weights ([`WeightOrigin::Unit`]).
//!
//! A weight is a decimal number (`3`, `0.25`, `1e-3`); a negative one, an infinity, `NaN` or
//! anything else is refused with the file and line.

use super::counted_body::{CountedBody, WeightColumn};
use super::held_text::Text;
use super::scan::{Ctx, Lines, show};
use super::sniff::sniff_text;
use super::{Format, binary, binary_weights, bounded, matrix_market, read, weighted};
use crate::Result;
use crate::graph::weighted_graph::{Weight, WeightOrigin, WeightedGraph};
use crate::graph::{LoadedGraph, VertexNames};
use std::path::Path;
use std::sync::Arc;

/// The graph of the file at `path` with its weights (read as `format`, or the format its content
/// says). Errors name the file and line.
pub fn load_weighted(path: &Path, format: Option<Format>) -> Result<WeightedGraph> {
    bounded::check_regular(path, "graphs")?;
    if format == Some(Format::Grail) || binary::is_binary(path) {
        let loaded = super::load(path, format)?;
        return match binary_weights::read_weights(path)? {
            Some(weights) => WeightedGraph::with_file_weights(loaded, weights),
            None => Ok(WeightedGraph::unit(loaded)),
        };
    }
    let mut held = read::read_held(path)?;
    weighted_of(held.text(true), &path.display().to_string(), format)
}

/// [`load_weighted`] on a file's bytes (already gunzipped); `source` names it in messages.
pub fn parse_weighted(bytes: &[u8], source: &str, format: Option<Format>) -> Result<WeightedGraph> {
    weighted_of(Text::whole(bytes), source, format)
}

fn weighted_of(text: Text, source: &str, format: Option<Format>) -> Result<WeightedGraph> {
    let format = format.unwrap_or_else(|| sniff_text(text));
    if let Some(weighted) = read_weights(text, source, format) {
        return weighted;
    }
    let (graph, names, format, report) = super::parse_held(text, source, Some(format))?;
    let loaded = LoadedGraph { graph: Arc::new(graph), names, format, path: source.into(), report: Some(report) };
    Ok(WeightedGraph::unit(loaded))
}

/// The graph and weights of a text in a format that holds weights (weighted, Matrix Market); None
/// for the other formats, whose edges all weigh 1.
fn read_weights(text: Text, source: &str, format: Format) -> Option<Result<WeightedGraph>> {
    let ctx = Ctx { source };
    let mut lines = Lines::of(text);
    let header = match format {
        Format::Weighted => weighted::read_header(&mut lines, ctx).map(|body| (body, VertexNames::Dense)),
        Format::MatrixMarket => matrix_market::read_header(&mut lines, ctx).map(|body| (body, VertexNames::Offset(1))),
        _ => return None,
    };
    Some(header.and_then(|(body, names)| {
        let (edges, origin) = read_weighted_body(&body, &mut lines, ctx)?;
        WeightedGraph::from_edges_read(body.n, edges, origin, (names, format, source.into()))
    }))
}

/// `(src, dst, weight)` on dense ids.
type WeightedEdge = (u32, u32, Weight);

/// The body's edges with their weights (both directions of a mirrored line), and where the
/// weights came from.
fn read_weighted_body(body: &CountedBody, lines: &mut Lines, ctx: Ctx) -> Result<(Vec<WeightedEdge>, WeightOrigin)> {
    if body.weights == WeightColumn::Complex {
        return Err(ctx.err(
            body.weights_line,
            "found a `complex` matrix, whose entries are not weights",
            "a `real`, `double` or `integer` matrix (or `pattern`: every edge weighs 1)",
        ));
    }
    let per_line = if body.both_directions { 2 } else { 1 };
    // Matrix Market (1-based) names its columns `row col`.
    let ids = if body.base == 1 { "row col" } else { "src dst" };
    // The announced count is only a hint: a lying header must not reserve gigabytes.
    let mut edges = Vec::with_capacity((body.count as usize).min(1 << 24) * per_line);
    body.for_each_line(lines, ctx, |number, src, dst, mut rest| {
        let weight = match body.weights {
            WeightColumn::Absent => 1.0,
            _ => weight(ctx, number, rest.next(), ids)?,
        };
        if body.whole_weights && weight.fract() != 0.0 {
            return Err(ctx.err(
                number,
                format!("found weight {weight} in an `integer` matrix"),
                format!("a whole number (the banner on line {} says `integer`)", body.weights_line),
            ));
        }
        // Which number weighs the edge must not be a guess.
        if body.weights != WeightColumn::Absent
            && let Some(extra) = rest.next()
        {
            return Err(ctx.err(number, format!("found {} after the weight", show(extra)), "the end of the line"));
        }
        edges.push((src, dst, weight));
        if body.both_directions {
            if body.weights == WeightColumn::Negated && weight != 0.0 && src != dst {
                return Err(ctx.err(
                    number,
                    format!(
                        "found weight {weight} in a skew-symmetric matrix, whose mirrored entry weighs {}",
                        -weight
                    ),
                    "weights of 0 there (Dijkstra-family engines need non-negative weights)",
                ));
            }
            edges.push((dst, src, weight));
        }
        Ok(())
    })?;
    let origin = if body.weights == WeightColumn::Absent { WeightOrigin::Unit } else { WeightOrigin::File };
    Ok((edges, origin))
}

/// One weight: a finite decimal number of 0 or more (`-0` read as 0).
/// `ids` names the columns before it as the format does (`src dst`, `row col`).
fn weight(ctx: Ctx, line: usize, token: Option<&[u8]>, ids: &str) -> Result<Weight> {
    let expected = || format!("a weight after `{ids}` (a number such as 3 or 0.25)");
    let Some(token) = token else {
        return Err(ctx.err(line, "found the end of the line", expected()));
    };
    match std::str::from_utf8(token).ok().and_then(|text| text.parse::<Weight>().ok()) {
        None => Err(ctx.err(line, format!("found {}", show(token)), expected())),
        Some(w) if !w.is_finite() => Err(ctx.err(line, format!("found weight {}", show(token)), "a finite weight")),
        Some(w) if w < 0.0 => Err(ctx.err(
            line,
            format!("found negative weight {}", show(token)),
            "a weight of 0 or more (Dijkstra-family engines need non-negative weights)",
        )),
        Some(w) => Ok(w + 0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<WeightedGraph> {
        parse_weighted(text.as_bytes(), "w.txt", None)
    }

    fn error(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn weighted_files_keep_their_weights() {
        let g = parse("3 3 directed\n0 1 2.5\n# c\n1 2 0\n0 1 1\n").unwrap();
        assert_eq!(g.origin, WeightOrigin::File);
        assert_eq!((g.weight(0, 1), g.weight(1, 2)), (Some(1.0), Some(0.0)));
        assert_eq!(g.merged_duplicates, 1);
        let g = parse("2 1 undirected\n0 1 7\n").unwrap();
        assert_eq!((g.weight(0, 1), g.weight(1, 0)), (Some(7.0), Some(7.0)));
    }

    #[test]
    fn matrix_market_values_are_weights() {
        let g = parse("%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 0.5\n3 2 4\n").unwrap();
        assert_eq!(g.loaded.names, VertexNames::Offset(1));
        assert_eq!((g.weight(1, 0), g.weight(0, 1), g.weight(2, 1)), (Some(0.5), Some(0.5), Some(4.0)));
        let g = parse("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n").unwrap();
        assert_eq!((g.origin, g.weight(0, 1)), (WeightOrigin::Unit, Some(1.0)));
        let e = error("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 0\n");
        assert!(e.starts_with("w.txt:1: found a `complex` matrix"), "{e}");
        let e = error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 1.5\n");
        assert!(e.starts_with("w.txt:3: found weight 1.5 in an `integer` matrix; expected a whole number"), "{e}");
        let e = error("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3\n");
        assert!(e.starts_with("w.txt:3: found weight 3 in a skew-symmetric matrix"), "{e}");
    }

    #[test]
    fn bad_weights_name_the_line() {
        let e = error("3 2 directed\n0 1 1\n1 2 -2\n");
        assert_eq!(
            e,
            "w.txt:3: found negative weight \"-2\"; expected a weight of 0 or more (Dijkstra-family engines need \
             non-negative weights)"
        );
        assert_eq!(error("2 1 directed\n0 1 NaN\n"), "w.txt:2: found weight \"NaN\"; expected a finite weight");
        assert_eq!(error("2 1 directed\n0 1 1e400\n"), "w.txt:2: found weight \"1e400\"; expected a finite weight");
        assert_eq!(
            error("2 1 directed\n0 1 heavy\n"),
            "w.txt:2: found \"heavy\"; expected a weight after `src dst` (a number such as 3 or 0.25)"
        );
        assert!(error("2 1 directed\n0 1\n").starts_with("w.txt:2: found the end of the line"));
        assert_eq!(
            error("3 2 directed\n0 1 1\n1 2 1 9\n"),
            "w.txt:3: found \"9\" after the weight; expected the end of the line"
        );
    }

    #[test]
    fn other_formats_weigh_one() {
        let g = parse("0 1\n1 2\n").unwrap();
        assert_eq!(g.origin, WeightOrigin::Unit);
        assert_eq!(g.weights(), [1.0, 1.0]);
        assert_eq!(g.loaded.format, Format::EdgeList);
    }
}
