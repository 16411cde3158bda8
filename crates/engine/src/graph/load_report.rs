//! What a reader did to a file on the way to the graph: the lines it read and skipped, the edges it
//! kept, merged or dropped, the ids that never appear in an edge and how ids were numbered.
//!
//! The readers note what they meet where they meet it (a `Reading`); `LoadReport::finish` adds
//! what only the built graph knows (edges kept, vertices without an edge) in one parallel pass.

use super::skipped_lines::SkippedLines;
use super::{Csr, Graph, VertexNames};
use crate::format::thousands;
use rayon::prelude::*;
use serde::Serialize;

pub use super::firsts::{FIRST, Firsts};

/// How the file's vertex ids became the dense ids `0..n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Numbering {
    /// File id `i` is vertex `i`.
    Kept,
    /// File id `i` is vertex `i - offset` (Matrix Market's 1-based ids).
    Offset {
        /// What is subtracted.
        offset: u64,
    },
    /// Sparse or huge ids, renumbered `0..n` in order of first appearance.
    Renumbered,
    /// Vertices named by strings, numbered `0..n` in order of first appearance; they keep their
    /// names.
    Named,
}

/// What loading one text file did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoadReport {
    /// Physical lines in the file.
    pub lines: u64,
    /// Lines of the format's head (magic line, banner, counts), neither data nor comment nor blank.
    pub header_lines: u64,
    /// Edge lines (vertex lines for `.gra`).
    pub data_lines: u64,
    /// Comment lines, with the first line numbers.
    pub comment_lines: Firsts,
    /// Blank lines, with the first line numbers.
    pub blank_lines: Firsts,
    /// Edges in the graph.
    pub edges_kept: u64,
    /// Edges that repeat an earlier edge and were merged into it; the lines are those of the repeats.
    pub duplicate_edges: Firsts,
    /// Self-loops dropped, with their lines.
    pub self_loops: Firsts,
    /// Vertices whose only edges were self-loops, dropped: they are left without an edge (file
    /// ids, not lines).
    pub loop_only_vertices: Firsts,
    /// Vertices the file declares (a header's count, `.gra`'s vertex count, the writer's comment),
    /// when it declares them.
    pub declared_vertices: Option<u64>,
    /// Vertices of the graph.
    pub vertices: u64,
    /// Vertex ids that never appear in an edge (self-loops count as appearing), with the first
    /// few file ids (not lines).
    pub unused_ids: Firsts,
    /// The smallest and largest file id that appears in an edge (None without edges, and for
    /// named vertices).
    pub id_range: Option<(u64, u64)>,
    /// How file ids were numbered.
    pub numbering: Numbering,
    /// The column names of a named edge list's header line (empty without one).
    pub columns: Vec<String>,
    /// How a named (or comma/tab separated) edge list splits its fields, chosen from its first
    /// data line; None for the other formats.
    pub separator: Option<SeparatorChoice>,
    /// Lines that also hold another separator outside quotes (a tab or a comma where the file
    /// splits at commas or spaces): it was read as part of a name.
    pub other_separator_lines: Firsts,
    /// Lines split at their own separator (a tab or a comma outside quotes), where the file's
    /// would have given them fewer than two fields.
    pub own_separator_lines: Firsts,
    /// Lines with more fields than the format has columns (`src dst` for a named edge list, `src
    /// dst weight` for a weighted file, ...): the extra ones were not read.
    pub extra_field_lines: Firsts,
    /// A named edge list whose every field is a number, one written with a leading zero: the
    /// first such field. Its fields were read as names, not ids, so that `007` and `7` stay two
    /// vertices.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leading_zero: Option<FieldAt>,
}

/// A field of a file and the line it is on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldAt {
    /// The field as written.
    pub field: String,
    /// Its 1-based line.
    pub line: u64,
}

/// The separator a named edge list was split at, and the line it was chosen from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeparatorChoice {
    /// `tab`, `comma` or `spaces`.
    pub separator: &'static str,
    /// The first line that is not blank or a comment, which chose it.
    pub chosen_at_line: u64,
}

/// One kind of finding that `--strict` refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anomaly {
    /// Repeated edges.
    Duplicates,
    /// Self-loops.
    SelfLoops,
    /// Vertex ids without an edge.
    UnusedIds,
    /// Vertices left without an edge once their self-loops were dropped.
    LoopOnly,
    /// Lines holding a separator other than the file's, read as part of a name.
    OtherSeparator,
    /// Lines split at a separator other than the file's, which gave them fewer than two fields.
    OwnSeparator,
    /// Lines with more fields than the format has columns, the extra ones not read.
    ExtraFields,
}

impl LoadReport {
    /// The findings `--strict` refuses, with their count and first lines or ids.
    pub fn anomalies(&self) -> Vec<(Anomaly, &Firsts)> {
        [
            (Anomaly::Duplicates, &self.duplicate_edges),
            (Anomaly::SelfLoops, &self.self_loops),
            (Anomaly::UnusedIds, &self.unused_ids),
            (Anomaly::LoopOnly, &self.loop_only_vertices),
            (Anomaly::OtherSeparator, &self.other_separator_lines),
            (Anomaly::OwnSeparator, &self.own_separator_lines),
            (Anomaly::ExtraFields, &self.extra_field_lines),
        ]
        .into_iter()
        .filter(|(_, f)| f.count > 0)
        .collect()
    }

    /// One sentence per anomaly, e.g. `2 duplicate edges (lines 3, 9)`; empty when there is none.
    pub fn anomaly_sentences(&self) -> Vec<String> {
        self.anomalies().into_iter().map(|(kind, f)| describe(kind, f)).collect()
    }

    /// The report in a few lines for people (`grail info`, the explorer's Graph tab).
    pub fn human_lines(&self) -> Vec<String> {
        let lines_of = |f: &Firsts, what: &str| {
            let at = if f.first.is_empty() { String::new() } else { format!(" ({})", at_lines(f)) };
            format!("{} {what}{at}", thousands(f.count))
        };
        let mut out = vec![format!(
            "{}: {} data, {} header, {}, {}",
            crate::format::plural(self.lines, "line", "lines"),
            thousands(self.data_lines),
            thousands(self.header_lines),
            lines_of(&self.comment_lines, "comment"),
            lines_of(&self.blank_lines, "blank"),
        )];
        let or_none = |kind, f: &Firsts, none: &str| if f.count == 0 { none.to_string() } else { describe(kind, f) };
        out.push(format!(
            "{} kept; {}; {}",
            crate::format::plural(self.edges_kept, "edge", "edges"),
            or_none(Anomaly::Duplicates, &self.duplicate_edges, "no duplicate edges"),
            or_none(Anomaly::SelfLoops, &self.self_loops, "no self-loops"),
        ));
        let vertices = crate::format::plural(self.vertices, "vertex", "vertices");
        let vertices = match self.declared_vertices {
            Some(declared) => format!("{vertices} ({} declared)", thousands(declared)),
            None => vertices,
        };
        let ids = self.ids_sentence();
        if self.vertices == 0 {
            out.push(format!("{vertices}; {ids}"));
        } else {
            let unused = or_none(Anomaly::UnusedIds, &self.unused_ids, "every id appears in an edge");
            out.push(format!("{vertices}; {ids}; {unused}"));
        }
        if self.loop_only_vertices.count > 0 {
            out.push(describe(Anomaly::LoopOnly, &self.loop_only_vertices));
        }
        if let Some(mut sentence) = self.separator_sentence() {
            for (kind, found) in [
                (Anomaly::OtherSeparator, &self.other_separator_lines),
                (Anomaly::OwnSeparator, &self.own_separator_lines),
                (Anomaly::ExtraFields, &self.extra_field_lines),
            ] {
                if found.count > 0 {
                    sentence += &format!("; {}", describe(kind, found));
                }
            }
            out.push(sentence);
        } else if self.extra_field_lines.count > 0 {
            out.push(describe(Anomaly::ExtraFields, &self.extra_field_lines));
        }
        if !self.columns.is_empty() {
            out.push(format!("header line read as column names: {}", self.columns.join(", ")));
        }
        out
    }

    /// `fields split at commas (chosen from line 2, ...)` for a named edge list; None otherwise.
    pub fn separator_sentence(&self) -> Option<String> {
        let choice = self.separator.as_ref()?;
        let split = match choice.separator {
            "tab" => "tabs",
            "comma" => "commas",
            _ => "runs of spaces",
        };
        Some(format!(
            "fields split at {split} (chosen from line {}, the first line not a comment)",
            choice.chosen_at_line
        ))
    }

    /// The lines by kind, short: `14 lines: 12 data, 2 comment` (kinds with none left out, but the
    /// data), so the parts add up to the whole.
    pub fn lines_summary(&self) -> String {
        let kinds =
            [(self.header_lines, "header"), (self.comment_lines.count, "comment"), (self.blank_lines.count, "blank")];
        let mut parts = vec![format!("{} data", thousands(self.data_lines))];
        parts.extend(kinds.iter().filter(|(n, _)| *n > 0).map(|(n, kind)| format!("{} {kind}", thousands(*n))));
        format!("{}: {}", crate::format::plural(self.lines, "line", "lines"), parts.join(", "))
    }

    /// How file ids became vertex ids, true for every format: the range the vertices cover (as the
    /// file declares it, as kept from the ids in edges, or shifted), or that sparse ids or names were
    /// numbered by first appearance.
    pub fn ids_sentence(&self) -> String {
        let Some(last) = self.vertices.checked_sub(1) else {
            return "no vertices".to_string();
        };
        let span = crate::format::span;
        let all = span(0, last);
        let ids = if last == 0 { "id" } else { "ids" };
        match self.numbering {
            Numbering::Named => match &self.leading_zero {
                Some(at) => format!(
                    "named vertices, numbered {all} by first appearance (every field is a number, but `{}` on line {} \
                     has a leading zero: read as names, not ids)",
                    at.field, at.line
                ),
                None => format!("named vertices, numbered {all} by first appearance"),
            },
            Numbering::Kept if self.declared_vertices.is_some() => format!("{ids} {all} declared"),
            Numbering::Kept => format!("file {ids} {all} kept as the vertex {ids}"),
            Numbering::Offset { offset } => {
                format!("file ids {}, vertex = file id - {offset}", span(offset, last + offset))
            }
            Numbering::Renumbered => match self.id_range {
                Some((low, high)) => {
                    format!("sparse file {ids} {} renumbered {all} by first appearance", span(low, high))
                }
                None => format!("file {ids} renumbered {all} by first appearance"),
            },
        }
    }

    /// Completes a reader's notes with what the built graph knows.
    pub(crate) fn finish(reading: Reading, graph: &Graph, names: &VertexNames) -> LoadReport {
        let n = graph.num_vertices();
        let mut loops: Vec<u32> =
            reading.loop_vertices.iter().filter_map(|&id| names.resolve(id, n)).collect::<Vec<_>>();
        loops.sort_unstable();
        loops.dedup();
        let (out, inn) = (graph.children_csr().offsets(), graph.parents_csr().offsets());
        let isolated = |v: usize| out[v] == out[v + 1] && inn[v] == inn[v + 1];
        let appears = |v: usize| !isolated(v) || loops.binary_search(&(v as u32)).is_ok();
        // One pass over the offsets, in blocks: unused vertices, and the first and last that appear.
        const BLOCK: usize = 1 << 16;
        let (unused, low, high) = (0..n.div_ceil(BLOCK))
            .into_par_iter()
            .map(|b| {
                let (mut unused, mut low, mut high) = (0u64, usize::MAX, 0usize);
                for v in b * BLOCK..((b + 1) * BLOCK).min(n) {
                    if appears(v) {
                        low = low.min(v);
                        high = v;
                    } else {
                        unused += 1;
                    }
                }
                (unused, low, high)
            })
            .reduce(|| (0, usize::MAX, 0), |a, b| (a.0 + b.0, a.1.min(b.1), a.2.max(b.2)));
        let loop_only: Vec<u32> = loops.iter().copied().filter(|&v| isolated(v as usize)).collect();
        let firsts = loop_only.iter().take(FIRST).copied();
        let loop_only_vertices = match names.table() {
            Some(_) => Firsts {
                count: loop_only.len() as u64,
                first: Vec::new(),
                names: firsts.map(|v| names.label(v)).collect(),
            },
            None => Firsts {
                count: loop_only.len() as u64,
                first: firsts.map(|v| names.file_id(v)).collect(),
                names: Vec::new(),
            },
        };
        let first_unused = if unused == 0 {
            Vec::new()
        } else {
            (0..n).filter(|&v| !appears(v)).take(FIRST).map(|v| names.file_id(v as u32)).collect()
        };
        // Named vertices have no file ids to give a range of.
        let numbered = names.table().is_none();
        let id_range = (numbered && unused < n as u64).then(|| match names {
            // Every renumbered id appears in an edge (that is how it got a number).
            VertexNames::Remapped { original, .. } => {
                (original.iter().copied().min().unwrap_or(0), original.iter().copied().max().unwrap_or(0))
            }
            _ => (names.file_id(low as u32), names.file_id(high as u32)),
        });
        let edges_kept = graph.num_edges() as u64;
        let (comment_lines, blank_lines) = (reading.skipped.comment, reading.skipped.blank);
        let header_lines = reading.lines - reading.data_lines - comment_lines.count - blank_lines.count;
        let duplicate_edges = Firsts {
            count: reading.duplicates.count.max(reading.nonloop_pairs.saturating_sub(edges_kept)),
            first: reading.duplicates.first,
            names: Vec::new(),
        };
        LoadReport {
            lines: reading.lines,
            header_lines,
            data_lines: reading.data_lines,
            comment_lines,
            blank_lines,
            edges_kept,
            duplicate_edges,
            self_loops: reading.self_loops,
            loop_only_vertices,
            declared_vertices: reading.declared,
            vertices: n as u64,
            unused_ids: Firsts { count: unused, first: first_unused, names: Vec::new() },
            id_range,
            numbering: match names {
                VertexNames::Dense => Numbering::Kept,
                VertexNames::Offset(offset) => Numbering::Offset { offset: *offset },
                VertexNames::Remapped { .. } => Numbering::Renumbered,
                VertexNames::Named(_) => Numbering::Named,
            },
            columns: reading.columns,
            separator: reading.separator,
            other_separator_lines: reading.other_separator_lines,
            own_separator_lines: reading.own_separator_lines,
            extra_field_lines: reading.extra_field_lines,
            leading_zero: reading.leading_zero,
        }
    }
}

/// `2 duplicate edges (lines 3, 9)`, `1 self-loop (line 4)`, `2 ids never in an edge (3, 4)`.
pub fn describe(kind: Anomaly, f: &Firsts) -> String {
    let count = |one, many| crate::format::plural(f.count, one, many);
    match kind {
        Anomaly::Duplicates => format!("{} ({})", count("duplicate edge", "duplicate edges"), at_lines(f)),
        Anomaly::SelfLoops => format!("{} ({})", count("self-loop", "self-loops"), at_lines(f)),
        Anomaly::UnusedIds => format!("{} ({})", count("id never in an edge", "ids never in an edge"), listed(f)),
        Anomaly::LoopOnly => format!(
            "{} ({})",
            count(
                "vertex only in self-loops, left without an edge",
                "vertices only in self-loops, left without an edge"
            ),
            listed(f)
        ),
        Anomaly::ExtraFields => format!(
            "{} ({})",
            count(
                "line has more fields than the format's columns, the extra ones not read",
                "lines have more fields than the format's columns, the extra ones not read"
            ),
            at_lines(f)
        ),
        Anomaly::OwnSeparator => format!(
            "{} ({})",
            count(
                "line split at its own separator, the file's giving it fewer than two fields",
                "lines split at their own separator, the file's giving them fewer than two fields"
            ),
            at_lines(f)
        ),
        Anomaly::OtherSeparator => format!(
            "{} ({})",
            count(
                "line also holds another separator outside quotes, read as part of a name",
                "lines also hold another separator outside quotes, read as part of a name"
            ),
            at_lines(f)
        ),
    }
}

/// `line 4`, `lines 3, 9, ...`.
pub fn at_lines(f: &Firsts) -> String {
    format!("{} {}", if f.first.len() == 1 { "line" } else { "lines" }, listed(f))
}

/// `3, 9`, with `...` when there are more than listed.
fn listed(f: &Firsts) -> String {
    let list = f.first.iter().map(u64::to_string).chain(f.names.iter().cloned()).collect::<Vec<_>>().join(", ");
    let more = if f.count > f.listed() as u64 { ", ..." } else { "" };
    format!("{list}{more}")
}

/// What a reader notes while it reads, before the graph exists.
#[derive(Debug, Default)]
pub(crate) struct Reading {
    /// Physical lines.
    pub lines: u64,
    /// Edge lines (vertex lines for `.gra`).
    pub data_lines: u64,
    /// The blank and comment lines.
    pub skipped: SkippedLines,
    /// Self-loop entries and their lines.
    pub self_loops: Firsts,
    /// The file ids of the self-loops' vertices (they appear in the file, even though no edge is
    /// left at them).
    pub loop_vertices: Vec<u64>,
    /// Pairs handed to the graph that are not self-loops: those beyond the graph's edges were
    /// duplicates.
    pub nonloop_pairs: u64,
    /// Duplicates the reader located itself (`.gra` lines, counted as read; other formats fill in
    /// the lines after the graph is built, see [`first_repeats`]).
    pub duplicates: Firsts,
    /// The vertex count the file declares.
    pub declared: Option<u64>,
    /// A named edge list's column names, when its first data line was a header.
    pub columns: Vec<String>,
    /// A named edge list's separator and the line that chose it.
    pub separator: Option<SeparatorChoice>,
    /// A named edge list's lines holding another separator outside quotes.
    pub other_separator_lines: Firsts,
    /// A named edge list's lines split at their own separator.
    pub own_separator_lines: Firsts,
    /// Lines with more fields than the format's columns.
    pub extra_field_lines: Firsts,
    /// A named edge list's first number with a leading zero, when every field is a number.
    pub leading_zero: Option<FieldAt>,
}

impl Reading {
    /// Notes a self-loop entry on `line` at the vertex the file calls `file_id`.
    pub fn self_loop(&mut self, line: u64, file_id: u64) {
        self.self_loops.note(line);
        self.loop_vertices.push(file_id);
    }

    /// Finds the lines of the first repeated pairs of a pair format (`per_line` pairs per data line,
    /// the body starting on line `body_start`), once the children are built from `pairs`, noting
    /// the sources with a repeated edge (`shrunk`).
    pub fn locate_repeats<'a>(
        &mut self,
        children: &Csr,
        shrunk: &[u32],
        pairs: impl IntoIterator<Item = &'a [(u32, u32)]>,
        per_line: u64,
        body_start: u64,
    ) {
        if !shrunk.is_empty() {
            self.duplicates.first = first_repeats(children, shrunk, pairs)
                .into_iter()
                .map(|i| self.skipped.data_line_number(i / per_line, body_start))
                .collect();
        }
    }
}

/// The indices (into `pairs`, in order) of the first [`FIRST`] pairs that repeat an earlier pair,
/// self-loops aside, given the children built from them and the sources with a repeated edge
/// (`shrunk`, ascending): only those sources' pairs are looked up, by binary search in the
/// source's list, and marked in one bit per edge.
pub(crate) fn first_repeats<'a>(
    children: &Csr,
    shrunk: &[u32],
    pairs: impl IntoIterator<Item = &'a [(u32, u32)]>,
) -> Vec<u64> {
    let offsets = children.offsets();
    let mut flagged = vec![0u64; children.num_vertices().div_ceil(64)];
    for &s in shrunk {
        flagged[s as usize / 64] |= 1 << (s % 64);
    }
    let mut seen = vec![0u64; children.num_edges().div_ceil(64)];
    let mut found = Vec::new();
    let mut index = 0u64;
    for slice in pairs {
        for &(s, d) in slice {
            if flagged[s as usize / 64] & (1 << (s % 64)) != 0
                && s != d
                && let Ok(at) = children.neighbors(s).binary_search(&d)
            {
                let edge = offsets[s as usize] as usize + at;
                let (word, bit) = (edge / 64, 1u64 << (edge % 64));
                if seen[word] & bit != 0 {
                    found.push(index);
                    if found.len() == FIRST {
                        return found;
                    }
                }
                seen[word] |= bit;
            }
            index += 1;
        }
    }
    found
}

/// The graph of `edges` (as [`Graph::from_edges`]), the lines of the first repeated pairs noted in
/// `reading`.
pub(crate) fn graph_noting_repeats(
    n: usize,
    edges: &[(u32, u32)],
    reading: &mut Reading,
    per_line: u64,
    body_start: u64,
) -> crate::Result<Graph> {
    let (children, shrunk) = Csr::children_of_edges_noting_repeats(n, &[edges])?;
    reading.locate_repeats(&children, &shrunk, [edges], per_line, body_start);
    Ok(Graph::from_clean_children(children))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_are_found_in_order() {
        let pairs = [(0, 1), (1, 1), (0, 1), (1, 2), (1, 2), (0, 1)];
        let (children, shrunk) = Csr::children_of_edges_noting_repeats(3, &[&pairs[..]]).unwrap();
        assert_eq!(shrunk, vec![0, 1]);
        assert_eq!(first_repeats(&children, &shrunk, [&pairs[..]]), vec![2, 4, 5]);
    }

    #[test]
    fn anomalies_are_described() {
        let f = Firsts { count: 7, first: vec![1, 2, 3, 4, 5], names: Vec::new() };
        assert_eq!(describe(Anomaly::Duplicates, &f), "7 duplicate edges (lines 1, 2, 3, 4, 5, ...)");
        let f = Firsts { count: 1, first: vec![4], names: Vec::new() };
        assert_eq!(describe(Anomaly::SelfLoops, &f), "1 self-loop (line 4)");
    }
}
