//! Edge lists whose vertices are names: `source<sep>target` per line, the separator a tab, a comma
//! or spaces, fields optionally quoted (`"New York",Boston`), extra columns not read (the load
//! report lists their lines).
//!
//! The rules, in order:
//! - Lines are records: blank lines and lines starting with `#` or `%` are skipped (a name that
//!   starts with one of those is quoted). A quoted field does not continue on the next line.
//! - The separator is chosen from the first data line: a tab if it has one outside quotes, else a
//!   comma if it has one outside quotes, else runs of spaces. Fields are trimmed; with spaces, empty fields are skipped.
//! - A later line holding another separator (a tab or a comma outside quotes) keeps it inside a
//!   name, unless the file's separator gives the line fewer than two fields: then the line is split
//!   at its own. The load report lists both kinds of line.
//! - The first data line is a header, not an edge, when its first two fields are words that name
//!   the columns, ignoring case: one of [`SOURCE_WORDS`] then one of [`TARGET_WORDS`]
//!   (`source,target`, `From<tab>To`). The load report says it was read as a header.
//! - When every name is a non-negative integer written without a leading zero, and the format was
//!   guessed rather than asked for, the file is an edge list with a separator (a comma-separated
//!   export of numbered vertices): its ids are numbered as a plain edge list's
//!   ([`super::numbering`]). Otherwise vertices are numbered `0..n` in order of first appearance
//!   (source before target, line by line) and keep their names ([`VertexNames::Named`]): `007` and
//!   `7` are two vertices, and the load report names the field with a leading zero that decided it.

use super::held_text::Text;
use super::numbering::{self, Numbering};
use super::scan::{Ctx, Line, Lines};
use crate::Result;
use crate::graph::load_report::{FieldAt, Reading, SeparatorChoice, graph_noting_repeats};
use crate::graph::name_table::NameTable;
use crate::graph::{Graph, VertexNames};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::Arc;

const COMMENTS: &[u8] = b"#%";

/// First-column words of a header line (compared ignoring case).
pub const SOURCE_WORDS: &[&str] = &["source", "src", "from", "tail", "start", "parent", "origin", "node1", "id1"];
/// Second-column words of a header line (compared ignoring case).
pub const TARGET_WORDS: &[&str] =
    &["target", "dst", "dest", "destination", "to", "head", "end", "child", "node2", "id2"];

/// The separator of a named edge list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Separator {
    Tab,
    Comma,
    Spaces,
}

impl Separator {
    /// The separator of a line: a tab outside quotes if there is one, else a comma outside
    /// quotes, else spaces.
    fn of(line: &[u8]) -> Separator {
        let mut quoted = false;
        let mut comma = false;
        for &b in line {
            match b {
                b'"' => quoted = !quoted,
                b'\t' if !quoted => return Separator::Tab,
                b',' if !quoted => comma = true,
                _ => {}
            }
        }
        if comma { Separator::Comma } else { Separator::Spaces }
    }

    fn byte(self) -> u8 {
        match self {
            Separator::Tab => b'\t',
            Separator::Comma => b',',
            Separator::Spaces => b' ',
        }
    }

    /// Whether a field of `line` opens a quote that the line never closes: the CSV reader would
    /// take the rest of the line as the name, its quote dropped, without a word.
    fn leaves_a_quote_open(self, line: &[u8]) -> bool {
        let mut i = 0;
        let mut field_start = true;
        while i < line.len() {
            if field_start && line[i] == b'"' {
                // A quoted field: up to a quote that is not doubled.
                i += 1;
                loop {
                    match (line.get(i), line.get(i + 1)) {
                        (None, _) => return true,
                        (Some(b'"'), Some(b'"')) => i += 2,
                        (Some(b'"'), _) => break,
                        _ => i += 1,
                    }
                }
            }
            field_start = line[i] == self.byte();
            i += 1;
        }
        false
    }

    fn name(self) -> &'static str {
        match self {
            Separator::Tab => "tab",
            Separator::Comma => "comma",
            Separator::Spaces => "spaces",
        }
    }

    fn csv(self) -> csv::ReaderBuilder {
        let mut builder = csv::ReaderBuilder::new();
        builder.has_headers(false).flexible(true).trim(csv::Trim::All);
        builder.delimiter(self.byte());
        builder
    }
}

/// Whether two fields are column names rather than vertices.
pub fn is_header(source: &str, target: &str) -> bool {
    let any = |words: &[&str], field: &str| words.iter().any(|w| w.eq_ignore_ascii_case(field));
    any(SOURCE_WORDS, source) && any(TARGET_WORDS, target)
}

/// The fields of one line as this reader splits a data line (separator chosen from the line, quotes
/// allowed, empty fields dropped): how the explorer reads a typed pair of vertices.
pub fn split_fields(line: &str) -> Vec<String> {
    let mut reader = Separator::of(line.as_bytes()).csv().from_reader(line.as_bytes());
    let mut record = csv::StringRecord::new();
    match reader.read_record(&mut record) {
        Ok(true) => record.iter().filter(|f| !f.is_empty()).map(str::to_string).collect(),
        _ => Vec::new(),
    }
}

/// [`split_fields`], or None when a field opens a quote the line never closes (the CSV reader would
/// take the rest of the line as that field, its quote dropped, without a word).
pub fn split_closed_fields(line: &str) -> Option<Vec<String>> {
    let open = Separator::of(line.as_bytes()).leaves_a_quote_open(line.as_bytes());
    (!open).then(|| split_fields(line))
}

pub use crate::graph::names::quoted;

/// How the fields of a named edge list become vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fields {
    /// The format was guessed: fields that are all numbers are ids.
    Guessed,
    /// `--format named` was asked for: every field is a name, even one of digits.
    Names,
}

/// Reads a named edge list. Errors name the file and line.
pub fn parse(text: Text, ctx: Ctx, fields_are: Fields) -> Result<(Graph, VertexNames, Reading)> {
    let mut lines = Lines::of(text);
    let mut reading = Reading::default();
    let mut separator = None;
    let mut pairs: Vec<(String, String, usize)> = Vec::new();
    while let Some(line) = lines.next_data(COMMENTS) {
        // The line's own choice: the file's, from the first data line; on a later line another tab
        // or comma, that character stays inside a name.
        let own = Separator::of(line.text);
        let (separator, chosen_at) = *separator.get_or_insert_with(|| {
            reading.separator = Some(SeparatorChoice { separator: own.name(), chosen_at_line: line.number as u64 });
            (own, line.number)
        });
        let other = own != separator && own != Separator::Spaces;
        let (source, target, extra) = match split(line, separator, ctx)? {
            Split::Two(source, target, extra) => {
                if other {
                    reading.other_separator_lines.note(line.number as u64);
                }
                (source, target, extra)
            }
            // The file's separator leaves the line short; its own tab or comma splits it.
            Split::Fewer(_) if other => match split(line, own, ctx)? {
                Split::Two(source, target, extra) => {
                    reading.own_separator_lines.note(line.number as u64);
                    (source, target, extra)
                }
                Split::Fewer(found) => return Err(too_few(line, separator, chosen_at, found, ctx)),
            },
            Split::Fewer(found) => return Err(too_few(line, separator, chosen_at, found, ctx)),
        };
        if extra {
            reading.extra_field_lines.note(line.number as u64);
        }
        if pairs.is_empty() && reading.columns.is_empty() && is_header(&source, &target) {
            reading.columns = vec![source, target];
            continue;
        }
        pairs.push((source, target, line.number));
    }
    reading.lines = lines.read_so_far();
    reading.skipped = lines.take_skipped();
    reading.data_lines = pairs.len() as u64;
    if pairs.is_empty() {
        return Err(ctx.err(lines.end_line(), "found no edges", "at least one line `source target`"));
    }
    let numbers = match fields_are {
        Fields::Guessed => numbers(&pairs, &mut reading),
        Fields::Names => None,
    };
    let (n, edges, names) = match numbers {
        Some(numbers) => numbered(&numbers, &pairs, ctx)?,
        None => named(&pairs, ctx)?,
    };
    for (&(s, d), &(_, _, line)) in edges.iter().zip(&pairs) {
        if s == d {
            reading.self_loop(line as u64, names.file_id(s));
        }
    }
    reading.nonloop_pairs = reading.data_lines - reading.self_loops.count;
    let body_start = pairs[0].2 as u64;
    let graph = graph_noting_repeats(n, &edges, &mut reading, 1, body_start)?;
    Ok((graph, names, reading))
}

/// A data line split at one separator.
enum Split {
    /// Its first two fields, and whether it has more.
    Two(String, String, bool),
    /// Fewer than two fields: how many.
    Fewer(usize),
}

/// Splits a data line at `separator`.
fn split(line: Line, separator: Separator, ctx: Ctx) -> Result<Split> {
    if separator.leaves_a_quote_open(line.text) {
        return Err(ctx.err(
            line.number,
            "a quoted name without its closing quote",
            "a `\"` closing it on the same line (a `\"` inside a quoted name is written twice)",
        ));
    }
    let mut reader = separator.csv().from_reader(line.text);
    let mut record = csv::ByteRecord::new();
    let found = reader
        .read_byte_record(&mut record)
        .map_err(|e| ctx.err(line.number, format!("found {e}"), "a comma, tab or space separated line"))?;
    if !found {
        return Ok(Split::Fewer(0));
    }
    let mut wanted = Vec::with_capacity(2);
    let mut present = 0;
    for field in record.iter().filter(|f| separator != Separator::Spaces || !f.is_empty()) {
        present += 1;
        if present > 2 {
            continue;
        }
        let Ok(text) = std::str::from_utf8(field) else {
            return Err(ctx.err(line.number, "found a name that is not UTF-8 text", "UTF-8 names"));
        };
        if text.is_empty() {
            return Err(ctx.err(line.number, "found an empty name", "a vertex name in each of the first two fields"));
        }
        wanted.push(text.to_string());
    }
    Ok(match <[String; 2]>::try_from(wanted) {
        Ok([source, target]) => Split::Two(source, target, present > 2),
        Err(got) => Split::Fewer(got.len()),
    })
}

/// The error for a line with `found` fields (fewer than two) at the file's `separator`, chosen
/// from line `chosen_at`: saying which separator, and where it was chosen, points at a line
/// written with another one.
fn too_few(line: Line, separator: Separator, chosen_at: usize, found: usize, ctx: Ctx) -> crate::Error {
    if found == 0 {
        return ctx.err(line.number, "found no fields", "`source target`");
    }
    let (between, split_at) = match separator {
        Separator::Tab => ("<tab>", "tabs"),
        Separator::Comma => (",", "commas"),
        Separator::Spaces => (" ", "spaces"),
    };
    ctx.err(
        line.number,
        format!("found {found} field{}", if found == 1 { "" } else { "s" }),
        format!("two: `source{between}target` (the file is split at {split_at}, chosen from line {chosen_at})"),
    )
}

/// The pairs as file ids, when every field is a number written without a leading zero. When
/// every field is a number but one has a leading zero, None, and that field is noted: read as
/// ids, `007` and `7` would be one vertex.
fn numbers(pairs: &[(String, String, usize)], reading: &mut Reading) -> Option<Vec<(u64, u64)>> {
    let digits = |f: &str| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit());
    if !pairs.iter().all(|(s, d, _)| digits(s) && digits(d)) {
        return None;
    }
    let padded =
        pairs.iter().flat_map(|(s, d, line)| [(s, *line), (d, *line)]).find(|(f, _)| f.len() > 1 && f.starts_with('0'));
    if let Some((field, line)) = padded {
        reading.leading_zero = Some(FieldAt { field: field.clone(), line: line as u64 });
        return None;
    }
    pairs.iter().map(|(s, d, _)| Some((number(s)?, number(d)?))).collect()
}

/// A field as a file id, when it is a non-negative integer.
fn number(field: &str) -> Option<u64> {
    field.bytes().all(|b| b.is_ascii_digit()).then(|| field.parse().ok()).flatten()
}

type Numbered = (usize, Vec<(u32, u32)>, VertexNames);

/// Integer ids, numbered as a plain edge list's.
fn numbered(numbers: &[(u64, u64)], pairs: &[(String, String, usize)], ctx: Ctx) -> Result<Numbered> {
    Ok(match numbering::choose(numbers, None) {
        Numbering::Dense(n) => (n, numbering::keep(numbers), VertexNames::Dense),
        Numbering::Remapped => {
            let renumbered = numbering::remap(numbers, u32::MAX as u64).map_err(|index| {
                ctx.err(
                    pairs[index].2,
                    "found more distinct vertex ids than 32-bit dense ids can number",
                    "fewer vertices",
                )
            })?;
            (renumbered.n, renumbered.edges, renumbered.names)
        }
    })
}

/// Names numbered by first appearance.
fn named(pairs: &[(String, String, usize)], ctx: Ctx) -> Result<Numbered> {
    let mut lookup: HashMap<&str, u32> = HashMap::new();
    let mut names: Vec<&str> = Vec::new();
    let mut edges = Vec::with_capacity(pairs.len());
    for (source, target, line) in pairs {
        let mut ends = [0u32; 2];
        for (end, name) in ends.iter_mut().zip([source.as_str(), target.as_str()]) {
            let next = names.len();
            *end = match lookup.entry(name) {
                Entry::Occupied(e) => *e.get(),
                Entry::Vacant(_) if next >= u32::MAX as usize => {
                    return Err(ctx.err(
                        *line,
                        "found more distinct names than 32-bit dense ids can number",
                        "fewer vertices",
                    ));
                }
                Entry::Vacant(e) => {
                    names.push(name);
                    *e.insert(next as u32)
                }
            };
        }
        edges.push((ends[0], ends[1]));
    }
    let table = NameTable::new(&names).map_err(|e| ctx.err(1, format!("found {e}"), "distinct, non-empty names"))?;
    Ok((names.len(), edges, VertexNames::Named(Arc::new(table))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::load_report::Firsts;

    fn read(text: &str) -> Result<(Graph, VertexNames, Reading)> {
        parse(Text::whole(text.as_bytes()), Ctx { source: "g.csv" }, Fields::Guessed)
    }

    /// The edges by name.
    fn edges(text: &str) -> Vec<(String, String)> {
        let (g, names, _) = read(text).unwrap();
        g.edges().map(|(u, v)| (names.plain(u), names.plain(v))).collect()
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|&(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn reads_each_separator() {
        let want = pairs(&[("alice", "bob"), ("bob", "carol")]);
        assert_eq!(edges("alice,bob\nbob,carol\n"), want);
        assert_eq!(edges("alice\tbob\tweight 3\nbob\tcarol\t1\n"), want);
        assert_eq!(edges("alice   bob\n  bob carol 7\n"), want);
        assert_eq!(edges("alice , bob\r\nbob,carol\r\n"), want);
    }

    #[test]
    fn a_quote_left_open_is_an_error_naming_its_line() {
        let err = read("a,b\na,\"b\nb,c\n").unwrap_err().to_string();
        assert!(err.contains("g.csv:2") && err.contains("closing quote"), "{err}");
        assert!(read("\"a b\" \"c\n").is_err(), "spaces as separator");
        // A quote inside an unquoted name, or doubled inside a quoted one, closes nothing.
        assert_eq!(edges("a,O\"Brien\n\"x \"\"y\"\"\",b\n"), pairs(&[("a", "O\"Brien"), ("x \"y\"", "b")]));
    }

    #[test]
    fn reads_quoted_fields() {
        let text = "\"New York\",\"Boston, MA\"\n\"Boston, MA\",\"say \"\"hi\"\"\"\n";
        assert_eq!(edges(text), pairs(&[("New York", "Boston, MA"), ("Boston, MA", "say \"hi\"")]));
        let spaced = "\"New York\" Boston\nBoston \"#5\"\n";
        assert_eq!(edges(spaced), pairs(&[("New York", "Boston"), ("Boston", "#5")]));
    }

    #[test]
    fn a_header_is_recognised_only_by_its_column_words() {
        let (g, names, reading) = read("# export\nSource,Target\nalice,bob\n\nbob,alice\n").unwrap();
        assert_eq!((g.num_vertices(), g.num_edges()), (2, 2));
        assert_eq!(reading.columns, vec!["Source".to_string(), "Target".to_string()]);
        assert_eq!((reading.lines, reading.data_lines), (5, 2));
        assert_eq!((reading.skipped.comment.first.clone(), reading.skipped.blank.first.clone()), (vec![1], vec![4]));
        assert_eq!(names.label(0), "alice");
        // Not column words: the first line is an edge.
        let (g, _, reading) = read("from,bob\nbob,carol\n").unwrap();
        assert_eq!((g.num_edges(), reading.columns.len()), (2, 0));
    }

    #[test]
    fn the_separator_and_lines_holding_another_are_noted() {
        let (_, names, reading) = read("# x\nalice bob\ncarol,dave eve\n\"f,g\" h\n").unwrap();
        let choice = reading.separator.unwrap();
        assert_eq!((choice.separator, choice.chosen_at_line), ("spaces", 2));
        // Line 3's comma stays in a name; line 4's is quoted, so it is not another separator.
        assert_eq!(reading.other_separator_lines, Firsts { count: 1, first: vec![3], names: Vec::new() });
        assert_eq!(names.plain(2), "carol,dave");
        let (_, _, reading) = read("a,b\nb\tc,d\n").unwrap();
        assert_eq!((reading.separator.unwrap().separator, reading.other_separator_lines.first), ("comma", vec![2]));
    }

    #[test]
    fn integer_fields_keep_their_numbers() {
        let (g, names, reading) = read("src,dst\n0,1\n1,2\n").unwrap();
        assert_eq!((names, g.num_vertices(), reading.columns.len()), (VertexNames::Dense, 3, 2));
        let (_, names, _) = read("5,1000000\n").unwrap();
        assert_eq!((names.file_id(0), names.file_id(1)), (5, 1_000_000));
    }

    #[test]
    fn loops_and_repeats_are_noted_on_their_lines() {
        let (g, names, reading) = read("a,b\na,a\na,b\nb,a\n").unwrap();
        assert_eq!(g.num_edges(), 2);
        assert_eq!((reading.self_loops.first.clone(), reading.loop_vertices.clone()), (vec![2], vec![0]));
        assert_eq!(reading.duplicates.first, vec![3]);
        assert_eq!(names.find("b", 2), Ok(1));
    }

    #[test]
    fn typed_pairs_split_like_data_lines() {
        assert_eq!(split_fields("2 1"), vec!["2", "1"]);
        assert_eq!(split_fields(" alice,  bob "), vec!["alice", "bob"]);
        assert_eq!(split_fields("xavier \"Turing, Alan\" "), vec!["xavier", "Turing, Alan"]);
        assert_eq!(split_fields(&format!("{} bob", quoted("New \"York\""))), vec!["New \"York\"", "bob"]);
        assert_eq!(split_closed_fields("xavier \"Turing, Alan\" 1").unwrap(), vec!["xavier", "Turing, Alan", "1"]);
        assert_eq!(split_closed_fields("xavier \"Turing, Alan 1"), None);
        assert_eq!(quoted("alice"), "alice");
    }

    #[test]
    fn errors_name_the_line() {
        let e = |text: &str| read(text).unwrap_err().to_string();
        assert_eq!(
            e("a,b\nc\n"),
            "g.csv:2: found 1 field; expected two: `source,target` (the file is split at commas, chosen from line 1)"
        );
        assert_eq!(
            e("a\tb\nc\t\n"),
            "g.csv:2: found an empty name; expected a vertex name in each of the first two fields"
        );
        assert_eq!(
            e("source,target\n# nothing\n"),
            "g.csv:3: found no edges; expected at least one line `source target`"
        );
        assert_eq!(
            read_bytes(b"a,b\nc,\xff\n").unwrap_err().to_string(),
            "g.csv:2: found a name that is not UTF-8 text; expected UTF-8 names"
        );
    }

    fn read_bytes(bytes: &[u8]) -> Result<(Graph, VertexNames, Reading)> {
        parse(Text::whole(bytes), Ctx { source: "g.csv" }, Fields::Guessed)
    }

    #[test]
    fn numbers_with_a_leading_zero_are_names_and_the_first_is_noted() {
        let (g, names, reading) = read("source,target\n007,7\n7,007\n").unwrap();
        assert_eq!((g.num_vertices(), g.num_edges()), (2, 2));
        assert_eq!((names.plain(0), names.plain(1)), ("007".to_string(), "7".to_string()));
        assert_eq!(reading.self_loops.count, 0);
        assert_eq!(reading.leading_zero, Some(FieldAt { field: "007".into(), line: 2 }));
        // A lone `0` is a number like any other; names among the fields make them all names.
        let (_, names, reading) = read("0,1\n10,2\n").unwrap();
        assert_eq!((names.table().is_none(), names.file_id(2), reading.leading_zero), (true, 10, None));
        let (_, names, reading) = read("alice,007\n").unwrap();
        assert_eq!((names.table().is_some(), reading.leading_zero), (true, None));
    }

    #[test]
    fn asked_for_names_every_field_is_one() {
        let asked = |text: &str| parse(Text::whole(text.as_bytes()), Ctx { source: "g.csv" }, Fields::Names).unwrap();
        let (g, names, reading) = asked("007,7\n7,007\n");
        assert_eq!((g.num_vertices(), g.num_edges(), reading.self_loops.count), (2, 2, 0));
        // Digits without leading zeros too: three names, no isolated vertex for the ids between.
        let (g, names2, _) = asked("0,5\n5,3\n");
        assert_eq!(g.num_vertices(), 3);
        assert_eq!((0..3).map(|v| names2.plain(v)).collect::<Vec<_>>(), ["0", "5", "3"]);
        assert_eq!(names.find("7", 2), Ok(1));
    }

    #[test]
    fn a_line_the_files_separator_leaves_short_is_split_at_its_own() {
        let (g, names, reading) = read("a,b\nb\tc\nc,d\n").unwrap();
        assert_eq!(
            g.edges().map(|(u, v)| (names.plain(u), names.plain(v))).collect::<Vec<_>>(),
            [("a".to_string(), "b".to_string()), ("b".into(), "c".into()), ("c".into(), "d".into())]
        );
        assert_eq!(reading.own_separator_lines, Firsts { count: 1, first: vec![2], names: Vec::new() });
        assert_eq!(reading.other_separator_lines.count, 0);
        // A comma line in a tab file, likewise; spaces are no separator to fall back on.
        let (_, _, reading) = read("a\tb\nb,c\n").unwrap();
        assert_eq!(reading.own_separator_lines.first, vec![2]);
        assert!(read("a,b\nb c\n").unwrap_err().to_string().starts_with("g.csv:2: found 1 field;"));
    }
}
