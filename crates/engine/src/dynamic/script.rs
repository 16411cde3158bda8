//! Edit scripts: one step per line, run in order on one index.
//!
//! ```text
//! # comments and blank lines are skipped
//! + u v        insert the edge u → v
//! - u v        delete the edge u → v
//! ? u v [0|1]  ask whether u reaches v (with the answer expected, if given)
//! ```
//!
//! `u` and `v` are written as in query files: file ids, or names in a graph whose file named its
//! vertices, a quoted field holding spaces or commas (`+ "Turing, Alan" xavier`).

use super::Edit;
use crate::graph::VertexNames;
use crate::graph::io::bounded::{LineBounded, LineTooLong, MAX_LINE_WORDS, open_regular};
use crate::graph::io::split_closed_fields;
use crate::query::vertex_named_in_line as vertex;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// One step of a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Insert or delete an edge.
    Edit(Edit),
    /// Ask whether `u` reaches `v`.
    Ask {
        /// The source (dense id).
        u: u32,
        /// The target (dense id).
        v: u32,
        /// The answer the script expects, if it says.
        expected: Option<bool>,
    },
}

/// A step and the line it came from (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScriptLine {
    /// The line in the script.
    pub line: u32,
    /// What it asks for.
    pub step: Step,
}

/// Why a script cannot be read: the file, the line (0 when the file itself failed) and what is
/// wrong there.
#[derive(Debug, thiserror::Error)]
#[error("{file}{}: {message}", if *line > 0 { format!(":{line}") } else { String::new() })]
pub struct ScriptError {
    /// The script as named.
    pub file: String,
    /// The 1-based line, 0 for the file as a whole.
    pub line: u32,
    /// What is wrong.
    pub message: String,
}

/// Reads the script at `path` for a graph of `n` vertices whose ids or names `names` resolves.
pub fn read_script(path: &Path, names: &VertexNames, n: usize) -> Result<Vec<ScriptLine>, ScriptError> {
    let file_name = path.display().to_string();
    let fail = |line: u32, message: String| ScriptError { file: file_name.clone(), line, message };
    let file = open_regular(path, "scripts").map_err(|e| fail(0, format!("{e:#}")))?;
    let mut reader = BufReader::new(LineBounded::new(file));
    let mut steps = Vec::new();
    let mut bytes = Vec::new();
    for line in 1u32.. {
        bytes.clear();
        let read = reader.read_until(b'\n', &mut bytes).map_err(|e| match LineTooLong::of(&e) {
            Some(at) => {
                fail(0, LineTooLong::error(at, "", &format!("script lines of at most {MAX_LINE_WORDS}")).to_string())
            }
            None => fail(line, format!("cannot read: {e}")),
        })?;
        if read == 0 {
            break;
        }
        let text = std::str::from_utf8(&bytes).map_err(|_| fail(line, "the line is not UTF-8 text".into()))?;
        // A byte-order mark some editors put first is not part of the step.
        let text = if line == 1 { text.trim_start_matches('\u{feff}') } else { text };
        if let Some(step) = parse_line(text, names, n).map_err(|message| fail(line, message))? {
            steps.push(ScriptLine { line, step });
        }
    }
    Ok(steps)
}

/// One line: `None` for a blank line or a comment.
pub fn parse_line(text: &str, names: &VertexNames, n: usize) -> Result<Option<Step>, String> {
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') || text.starts_with('%') {
        return Ok(None);
    }
    let (op, rest) = text.split_at(text.chars().next().map_or(0, char::len_utf8));
    let fields = split_closed_fields(rest.trim())
        .ok_or("found a quoted name without its closing quote; expected a `\"` closing it on the same line")?;
    let fields: Vec<&str> = fields.iter().map(String::as_str).filter(|f| !f.is_empty()).collect();
    let vertex = |field: &str| vertex(field, names, n);
    let step = match (op, fields.as_slice()) {
        ("+", [u, v]) => Step::Edit(Edit::Insert { u: vertex(u)?, v: vertex(v)? }),
        ("-", [u, v]) => Step::Edit(Edit::Delete { u: vertex(u)?, v: vertex(v)? }),
        ("?", [u, v]) => Step::Ask { u: vertex(u)?, v: vertex(v)?, expected: None },
        ("?", [u, v, answer]) => {
            let expected = match *answer {
                "0" => false,
                "1" => true,
                other => return Err(format!("the expected answer must be 0 or 1, found `{other}`")),
            };
            Step::Ask { u: vertex(u)?, v: vertex(v)?, expected: Some(expected) }
        }
        ("+" | "-", found) => return Err(format!("expected `{op} u v`, found {} field(s) after `{op}`", found.len())),
        ("?", found) => return Err(format!("expected `? u v [0|1]`, found {} field(s) after `?`", found.len())),
        _ => return Err(format!("a step starts with `+` (insert), `-` (delete) or `?` (ask), found `{op}`")),
    };
    Ok(Some(step))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_and_every_mistake() {
        let names = VertexNames::Dense;
        let parse = |text| parse_line(text, &names, 5);
        assert_eq!(parse("+ 0 1"), Ok(Some(Step::Edit(Edit::Insert { u: 0, v: 1 }))));
        assert_eq!(parse("  -\t3 4 "), Ok(Some(Step::Edit(Edit::Delete { u: 3, v: 4 }))));
        assert_eq!(parse("? 1 2 0"), Ok(Some(Step::Ask { u: 1, v: 2, expected: Some(false) })));
        assert_eq!(parse("?1 2"), Ok(Some(Step::Ask { u: 1, v: 2, expected: None })));
        assert_eq!(parse("# note"), Ok(None));
        assert_eq!(parse(""), Ok(None));
        assert!(parse("+ 0").unwrap_err().contains("expected `+ u v`, found 1 field(s)"));
        assert!(parse("? 0 1 2").unwrap_err().contains("must be 0 or 1, found `2`"));
        assert!(parse("* 0 1").unwrap_err().contains("found `*`"));
        assert!(parse("+ 0 9").unwrap_err().contains("unknown vertex id 9 (the graph has 5 vertices)"));
    }
}
