//! Guessing a file's format from its content (never from its name).

use super::Format;
use super::held_text::Text;
use super::scan::{Line, Lines, parse_u64};
use super::{edge_list, gra, matrix_market, weighted};

const COMMENTS: &[u8] = b"#%";

/// Guesses the format from the first non-empty lines. `--format` overrides the guess.
///
/// In order, "data lines" being lines that are neither blank nor `#`/`%` comments:
/// 1. first non-blank line starts with `%%MatrixMarket` (any case) → [`Format::MatrixMarket`];
/// 2. first non-blank line is `graph_for_greach` → [`Format::Gra`];
/// 3. first non-blank line is the edge-list writer's comment `# grail-explorer: ...` →
///    [`Format::EdgeList`] (so a written file is never mistaken for a header file);
/// 4. first data line is a single integer, followed by a line `<digits>:` or by nothing →
///    [`Format::Gra`] without its optional magic line;
/// 5. first data line is `n m directed` or `n m undirected`, or `n m` and a word (a direction
///    mistyped: read as an edge with a third column it would silently change the graph) →
///    [`Format::Weighted`], whose reader refuses a word that is not a direction;
/// 6. first data line is exactly two integers `n m`, `n > 0` (edges need vertices: `0 1` opens an
///    edge list, and a file that is only `0 0` is a self-loop, not a header declaring an empty
///    graph), and the data lines that follow each start with two ids below `n`: exactly `m` of
///    them, or at least one → [`Format::Header`]. With a count other than `m` the header reader
///    refuses the file, saying how many edges the header declares and how many the file holds:
///    read as an edge list, its header would silently become an edge. This is ambiguous with an
///    edge list whose first edge `u v` is followed by edges on vertices below `u`; the header
///    reading wins, and `--format edge-list` says otherwise (the message says so too). A lone
///    line `u v` is an edge;
/// 7. first data line's first or second whitespace-separated field holds anything but digits and
///    a leading sign (a name, a quoted field, `a,b`, a header line `source,target`) →
///    [`Format::Named`] (a number too large or negative stays the edge list's to refuse);
/// 8. anything else → [`Format::EdgeList`] (whose reader then reports what does not fit).
pub fn sniff(bytes: &[u8]) -> Format {
    sniff_text(Text::whole(bytes))
}

/// [`sniff`] on a held text.
pub fn sniff_text(text: Text) -> Format {
    sniff_lines(&mut Lines::of(text))
}

/// [`sniff`] on the first lines of a longer input that arrives block by block: None when the
/// guess read to the end of `prefix` (so more lines could change it) and `prefix` is not the
/// whole input.
pub fn sniff_prefix(prefix: Text) -> Option<Format> {
    let mut lines = Lines::of(prefix);
    let format = sniff_lines(&mut lines);
    (prefix.whole || !lines.at_end()).then_some(format)
}

fn sniff_lines(lines: &mut Lines) -> Format {
    let Some(first) = lines.find(|l| !l.is_blank()) else {
        return Format::EdgeList;
    };
    if matrix_market::starts_with_banner(first.text.trim_ascii_start()) {
        return Format::MatrixMarket;
    }
    if first.text.trim_ascii() == gra::MAGIC {
        return Format::Gra;
    }
    if first.text.trim_ascii_start().starts_with(edge_list::WRITER_COMMENT.as_bytes()) {
        return Format::EdgeList;
    }
    let first_data = if first.is_comment(COMMENTS) { lines.next_data(COMMENTS) } else { Some(first) };
    let Some(first_data) = first_data else {
        return Format::EdgeList;
    };
    let mut tokens = first_data.tokens();
    let words: [Option<&[u8]>; 4] = std::array::from_fn(|_| tokens.next());
    let is_int = |w: Option<&[u8]>| parse_u64(w).is_ok();
    match words {
        [Some(_), None, None, None] if is_int(words[0]) => match lines.find(|l| !l.is_blank()) {
            None => Format::Gra,
            Some(next) if looks_like_vertex_line(next) => Format::Gra,
            Some(_) => Format::EdgeList,
        },
        [Some(_), Some(_), Some(dir), None]
            if is_int(words[0])
                && is_int(words[1])
                && (weighted::direction(dir).is_some() || dir.iter().all(u8::is_ascii_alphabetic)) =>
        {
            Format::Weighted
        }
        [Some(n), Some(m), None, None] => match (parse_u64(Some(n)), parse_u64(Some(m))) {
            (Ok(n), Ok(m)) if n > 0 && remaining_edges_fit(lines, n, m) => Format::Header,
            _ if looks_numeric(Some(n)) && looks_numeric(Some(m)) => Format::EdgeList,
            _ => Format::Named,
        },
        [first, second, ..] if !looks_numeric(first) || (second.is_some() && !looks_numeric(second)) => Format::Named,
        _ => Format::EdgeList,
    }
}

/// A field of digits, with an optional leading sign: a number, even one the edge list refuses.
fn looks_numeric(field: Option<&[u8]>) -> bool {
    let digits = field.map(|f| f.strip_prefix(b"-").or_else(|| f.strip_prefix(b"+")).unwrap_or(f));
    digits.is_some_and(|d| !d.is_empty() && d.iter().all(u8::is_ascii_digit))
}

/// `<digits>:` at the start of the line (after optional whitespace).
fn looks_like_vertex_line(line: Line) -> bool {
    let text = line.text.trim_ascii_start();
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0 && text[digits..].trim_ascii_start().starts_with(b":")
}

/// Whether the data lines left each start with two ids below `n`, and are `m` or at least one
/// (stops at the first line that does not fit).
fn remaining_edges_fit(lines: &mut Lines, n: u64, m: u64) -> bool {
    let mut count = 0u64;
    while let Some(line) = lines.next_data(COMMENTS) {
        count += 1;
        let mut tokens = line.tokens();
        let below_n = |t: Option<&[u8]>| parse_u64(t).is_ok_and(|id| id < n);
        if !below_n(tokens.next()) || !below_n(tokens.next()) {
            return false;
        }
    }
    count > 0 || m == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_each_format() {
        let cases: [(&str, Format); 15] = [
            ("source,target\nalice,bob\n", Format::Named),
            ("# people\nalice\tbob\n", Format::Named),
            ("0,1\n1,2\n", Format::Named),
            ("alice bob\n", Format::Named),
            ("graph_for_greach\n2\n0: 1 #\n1: #\n", Format::Gra),
            ("\n2\n0: 1 #\n1: #\n", Format::Gra),
            ("2\n0:1#\n", Format::Gra),
            ("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", Format::MatrixMarket),
            ("# c\n3 2 directed\n0 1 1\n1 2 1\n", Format::Weighted),
            ("3 2 undirected\n0 1 1\n1 2 1\n", Format::Weighted),
            ("3 2\n0 1\n% c\n1 2\n", Format::Header),
            ("0 1\n1 2\n2 0\n", Format::EdgeList),
            ("# SNAP\n5 17\n17 5\n", Format::EdgeList),
            ("# grail-explorer: 3 vertices, 2 edges\n0 2\n1 2\n", Format::EdgeList),
            ("", Format::EdgeList),
        ];
        for (text, format) in cases {
            assert_eq!(sniff(text.as_bytes()), format, "{text:?}");
        }
    }

    #[test]
    fn two_integers_are_not_a_header_when_an_edge_names_a_vertex_beyond_n() {
        // `1 2` then two edges: the count matches, but vertex 2 and 3 do not exist in a 1-vertex graph.
        assert_eq!(sniff(b"1 2\n2 3\n3 4\n"), Format::EdgeList);
        assert_eq!(sniff(b"5 2\n2 3\n3 4\n"), Format::Header);
    }

    #[test]
    fn two_integers_over_lines_on_smaller_ids_are_a_header_whatever_the_count() {
        assert_eq!(sniff(b"3 2\n0 1\n1 2\n"), Format::Header);
        // A wrong count is the header reader's to refuse, never a header read as an edge.
        assert_eq!(sniff(b"3 5\n0 1\n1 2\n"), Format::Header);
        assert_eq!(sniff(b"3 2\n0 1\n1 2\n2 0\n"), Format::Header);
        assert_eq!(sniff(b"3 2\n0 1\n"), Format::Header);
        assert_eq!(sniff(b"3 5\n"), Format::EdgeList, "a lone line is an edge");
        assert_eq!(sniff(b"0 1\n1 2\n"), Format::EdgeList);
        assert_eq!(sniff(b"0 0\n"), Format::EdgeList, "one vertex and its self-loop");
        assert_eq!(sniff(b"1 0\n"), Format::Header, "one vertex, no edges");
    }

    #[test]
    fn a_prefix_is_only_trusted_when_the_guess_did_not_need_its_end() {
        let prefix = |bytes: &'static [u8], whole| sniff_prefix(Text { whole, ..Text::whole(bytes) });
        assert_eq!(prefix(b"graph_for_greach\n2\n0: 1 #\n", false), Some(Format::Gra));
        // "3 2" then two lines: a header file so far, but a line on vertex 3 would make it an edge list.
        assert_eq!(prefix(b"3 2\n0 1\n1 2\n", false), None);
        assert_eq!(prefix(b"3 2\n0 1\n1 2\n", true), Some(Format::Header));
        // A line on vertex 5 before the prefix's end settles it.
        assert_eq!(prefix(b"3 2\n0 1\n1 2\n2 0\n5 5\n0 1\n", false), Some(Format::EdgeList));
    }

    #[test]
    fn a_lone_integer_without_vertex_lines_is_not_gra() {
        assert_eq!(sniff(b"4\n5 6\n"), Format::EdgeList);
    }
}
