//! A one-line editor for paths, queries and numbers, with Tab completion of file paths and of the
//! names of a named graph's vertices.

use crate::graph::VertexNames;
use crate::graph::io::quoted;
use std::path::Path;

/// Candidates listed under the line at most.
const CANDIDATES: usize = 200;

/// What the typed line is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    OpenGraph,
    Query,
    /// A Labels setting (row index).
    LabelField(usize),
    /// A Batch setting (row index).
    BatchField(usize),
    QueryFile,
    ExportPath,
    ExceptionSeed,
    /// A vertex id to centre the picture on.
    PictureVertex,
    /// Where to write the picture as SVG.
    PictureSvg,
}

impl PromptKind {
    /// Paths complete on Tab.
    pub fn is_path(self) -> bool {
        matches!(self, PromptKind::OpenGraph | PromptKind::QueryFile | PromptKind::ExportPath | PromptKind::PictureSvg)
    }

    /// Vertices are typed here: in a named graph, their names complete on Tab.
    pub fn is_vertex(self) -> bool {
        matches!(self, PromptKind::Query | PromptKind::PictureVertex)
    }

    /// Whether Tab completes in this prompt, given how the graph names its vertices.
    pub fn completes(self, vertices: &VertexNames) -> bool {
        self.is_path() || (self.is_vertex() && vertices.table().is_some())
    }

    /// The title of a vertex prompt on a named graph.
    pub fn named_title(self) -> Option<&'static str> {
        match self {
            PromptKind::Query => Some("query: u v (names; Tab completes)"),
            PromptKind::PictureVertex => Some("go to vertex (name; Tab completes)"),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    pub kind: PromptKind,
    pub title: String,
    pub text: String,
    /// Completions offered by the last Tab (shown under the line).
    pub candidates: Vec<String>,
    /// The text is pre-filled (the previous value, the current graph's folder) and selected: the
    /// first character typed replaces it, while Tab (completion) and Backspace keep it for editing.
    pub fresh: bool,
}

impl Prompt {
    pub fn new(kind: PromptKind, title: impl Into<String>, text: impl Into<String>) -> Prompt {
        let text = text.into();
        Prompt { kind, title: title.into(), fresh: !text.is_empty(), text, candidates: Vec::new() }
    }

    pub fn push(&mut self, c: char) {
        if !c.is_control() && self.text.chars().count() < 4096 {
            if std::mem::take(&mut self.fresh) {
                self.text.clear();
            }
            self.text.push(c);
            self.candidates.clear();
        }
    }

    pub fn backspace(&mut self) {
        self.fresh = false;
        self.text.pop();
        self.candidates.clear();
    }

    pub fn clear(&mut self) {
        self.fresh = false;
        self.text.clear();
        self.candidates.clear();
    }

    /// Completes what is typed so far: a path, or the last vertex name of a vertex prompt on a
    /// named graph (`vertices`).
    pub fn complete(&mut self, vertices: &VertexNames) {
        if self.kind.is_vertex() {
            self.complete_name(vertices);
        } else if self.kind.is_path() {
            self.complete_path();
        }
    }

    /// Completes the last name typed: the unique name that starts with it, or the longest common
    /// prefix of all such names (which are then listed). A name with a space, tab, comma or quote
    /// is completed quoted, as the line is split.
    fn complete_name(&mut self, vertices: &VertexNames) {
        if vertices.table().is_none() {
            return;
        }
        self.fresh = false;
        let start = last_field_start(&self.text);
        let typed = self.text[start..].trim_start_matches('"').to_string();
        let names: Vec<String> = vertices.complete(&typed, CANDIDATES + 1).into_iter().map(str::to_string).collect();
        let head = self.text[..start].to_string();
        match names.len() {
            0 => self.candidates = vec![format!("(no name starts with {typed})")],
            1 => {
                self.text = format!("{head}{} ", quoted(&names[0]));
                self.candidates.clear();
            }
            _ => {
                let common = common_prefix(&names);
                // Names matched in another case may share less than what is typed: it then stays.
                if common.chars().count() >= typed.chars().count() {
                    // Inside quotes when what all the names share already needs them.
                    let open = if quoted(&common) != common { "\"" } else { "" };
                    self.text = format!("{head}{open}{common}");
                }
                self.candidates = shown(names);
            }
        }
    }

    /// Completes the path typed so far: the unique match, or the longest common prefix of all
    /// matches (which are then listed). Directories get a trailing `/`. Names that start with what
    /// is typed match; only where none does, names that start with it in another case do.
    fn complete_path(&mut self) {
        self.fresh = false;
        let (dir, prefix) = match self.text.rfind('/') {
            Some(i) => (self.text[..=i].to_string(), self.text[i + 1..].to_string()),
            None => (String::new(), self.text.clone()),
        };
        let expanded = expand_home(&dir);
        let read_from = if expanded.is_empty() { ".".to_string() } else { expanded };
        let Ok(entries) = std::fs::read_dir(Path::new(&read_from)) else {
            self.candidates = vec!["(no such directory)".into()];
            return;
        };
        let lower = prefix.to_lowercase();
        let mut exact = Vec::new();
        let mut other_case = Vec::new();
        for e in entries.filter_map(Result::ok) {
            let Ok(name) = e.file_name().into_string() else { continue };
            if name.starts_with('.') && !prefix.starts_with('.') {
                continue;
            }
            let list = if name.starts_with(&prefix) {
                &mut exact
            } else if name.to_lowercase().starts_with(&lower) {
                &mut other_case
            } else {
                continue;
            };
            let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false)
                || (e.file_type().map(|t| t.is_symlink()).unwrap_or(false) && e.path().is_dir());
            list.push(if is_dir { format!("{name}/") } else { name });
        }
        let mut names = if exact.is_empty() { other_case } else { exact };
        names.sort();
        match names.len() {
            0 => self.candidates = vec!["(no match)".into()],
            1 => {
                self.text = format!("{dir}{}", names[0]);
                self.candidates.clear();
            }
            _ => {
                // Names matched in another case may share less than what is typed: it then stays.
                let common = common_prefix(&names);
                if common.chars().count() >= prefix.chars().count() {
                    self.text = format!("{dir}{common}");
                }
                self.candidates = shown(names);
            }
        }
    }
}

/// Where the last field of a typed line starts: at an unclosed quote, else after the last space,
/// tab or comma.
fn last_field_start(text: &str) -> usize {
    if text.matches('"').count() % 2 == 1 {
        return text.rfind('"').unwrap_or(0);
    }
    text.rfind([' ', '\t', ',']).map_or(0, |i| i + 1)
}

fn expand_home(dir: &str) -> String {
    match (dir.strip_prefix('~'), std::env::var("HOME")) {
        (Some(rest), Ok(home)) => format!("{home}{rest}"),
        _ => dir.to_string(),
    }
}

/// The longest common prefix, on character boundaries.
fn common_prefix(names: &[String]) -> String {
    let first = &names[0];
    let len = names
        .iter()
        .map(|name| first.chars().zip(name.chars()).take_while(|(a, b)| a == b).map(|(a, _)| a.len_utf8()).sum())
        .min()
        .unwrap_or(0);
    first[..len].to_string()
}

/// Expands `~` for paths the user typed.
pub fn user_path(text: &str) -> std::path::PathBuf {
    let text = text.trim();
    match text.strip_prefix("~/") {
        Some(rest) => match std::env::var("HOME") {
            Ok(home) => Path::new(&home).join(rest),
            Err(_) => text.into(),
        },
        None => text.into(),
    }
}

/// The candidates a prompt lists: at most [`CANDIDATES`], then `...` where more were left out.
fn shown(mut names: Vec<String>) -> Vec<String> {
    if names.len() > CANDIDATES {
        names.truncate(CANDIDATES);
        names.push("...".into());
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path prompt holding `text`, after Tab.
    fn completed(text: String) -> Prompt {
        let mut p = Prompt::new(PromptKind::OpenGraph, "open", text);
        p.complete(&VertexNames::Dense);
        p
    }

    #[test]
    fn completes_unique_and_common_prefixes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("graph-one.gra"), "").unwrap();
        std::fs::write(dir.path().join("graph-two.gra"), "").unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let base = format!("{}/", dir.path().display());
        let mut p = Prompt::new(PromptKind::OpenGraph, "open", format!("{base}gr"));
        p.complete(&VertexNames::Dense);
        assert_eq!(p.text, format!("{base}graph-"));
        assert_eq!(p.candidates.len(), 2);
        p.push('o');
        p.complete(&VertexNames::Dense);
        assert_eq!(p.text, format!("{base}graph-one.gra"));
        assert_eq!(completed(format!("{base}s")).text, format!("{base}sub/"));
        // Another case matches only where the typed case matches nothing.
        std::fs::write(dir.path().join("Kegg.gra"), "").unwrap();
        std::fs::write(dir.path().join("kegg-small.gra"), "").unwrap();
        std::fs::write(dir.path().join("Road-A.txt"), "").unwrap();
        std::fs::write(dir.path().join("ROAD-b.txt"), "").unwrap();
        assert_eq!(completed(format!("{base}Ke")).text, format!("{base}Kegg.gra"));
        assert_eq!(completed(format!("{base}ke")).text, format!("{base}kegg-small.gra"), "the exact case first");
        assert_eq!(completed(format!("{base}SUB")).text, format!("{base}sub/"));
        let p = completed(format!("{base}road"));
        assert_eq!(p.text, format!("{base}road"), "what the names share in their own case is shorter");
        assert_eq!(p.candidates, vec!["ROAD-b.txt".to_string(), "Road-A.txt".to_string()]);
        assert_eq!(completed(format!("{base}GRAPH-T")).text, format!("{base}graph-two.gra"));
        // More matches than a list shows: the list says so.
        for i in 0..=CANDIDATES {
            std::fs::write(dir.path().join(format!("many-{i:03}.gra")), "").unwrap();
        }
        let p = completed(format!("{base}many-"));
        assert_eq!((p.candidates.len(), p.candidates.last().map(String::as_str)), (CANDIDATES + 1, Some("...")));
        let mut p = Prompt::new(PromptKind::OpenGraph, "open", "/no/such/dir/x");
        p.complete(&VertexNames::Dense);
        assert_eq!(p.candidates, vec!["(no such directory)".to_string()]);
    }

    #[test]
    fn typing_replaces_pre_filled_text_and_tab_or_backspace_keep_it() {
        let mut p = Prompt::new(PromptKind::Query, "q", "1 2");
        p.push('3');
        assert_eq!(p.text, "3");
        let mut p = Prompt::new(PromptKind::Query, "q", "1 2");
        p.backspace();
        p.push('3');
        assert_eq!(p.text, "1 3");
        // A pre-filled folder: an absolute path typed over it replaces it...
        let mut p = Prompt::new(PromptKind::OpenGraph, "open", "sample-graphs/");
        assert!(p.fresh);
        "/tmp/g.gra".chars().for_each(|c| p.push(c));
        assert_eq!(p.text, "/tmp/g.gra");
        // ...while Tab completes from it and typing then goes on after it.
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("only.gra"), "").unwrap();
        let mut p = Prompt::new(PromptKind::OpenGraph, "open", format!("{}/", dir.path().display()));
        p.complete(&VertexNames::Dense);
        assert!(!p.fresh);
        assert_eq!(p.text, format!("{}/only.gra", dir.path().display()));
        p.push('x');
        assert!(p.text.ends_with("only.grax"));
        let p = Prompt::new(PromptKind::OpenGraph, "open", "");
        assert!(!p.fresh, "nothing pre-filled, nothing selected");
    }

    #[test]
    fn completes_vertex_names_in_a_named_graph() {
        let table = crate::graph::name_table::NameTable::new(&["alice", "alicia", "bob", "New York"]).unwrap();
        let names = VertexNames::Named(std::sync::Arc::new(table));
        let mut p = Prompt::new(PromptKind::Query, "q", "");
        "b".chars().for_each(|c| p.push(c));
        p.complete(&names);
        assert_eq!((p.text.as_str(), p.candidates.len()), ("bob ", 0));
        "al".chars().for_each(|c| p.push(c));
        p.complete(&names);
        assert_eq!(p.text, "bob alic");
        assert_eq!(p.candidates, vec!["alice".to_string(), "alicia".to_string()]);
        p.push('e');
        p.complete(&names);
        assert_eq!(p.text, "bob alice ");
        let mut p = Prompt::new(PromptKind::PictureVertex, "g", "");
        p.push('N');
        p.complete(&names);
        assert_eq!(p.text, "\"New York\" ");
        // In another case only where the typed case matches nothing.
        let mut p = Prompt::new(PromptKind::Query, "q", "");
        "new".chars().for_each(|c| p.push(c));
        p.complete(&names);
        assert_eq!(p.text, "\"New York\" ");
        let mut p = Prompt::new(PromptKind::Query, "q", "");
        "AL".chars().for_each(|c| p.push(c));
        p.complete(&names);
        assert_eq!((p.text.as_str(), p.candidates.len()), ("alic", 2));
        let mut p = Prompt::new(PromptKind::Query, "q", "");
        p.push('z');
        p.complete(&names);
        assert_eq!(p.candidates, vec!["(no name starts with z)".to_string()]);
        // A numbered graph has no names to complete.
        let mut p = Prompt::new(PromptKind::Query, "q", "");
        p.push('1');
        p.complete(&VertexNames::Dense);
        assert_eq!((p.text.as_str(), p.candidates.len()), ("1", 0));
    }

    #[test]
    fn control_characters_are_ignored() {
        let mut p = Prompt::new(PromptKind::Query, "q", "");
        p.push('1');
        p.push('\u{7}');
        p.push(' ');
        p.push('2');
        assert_eq!(p.text, "1 2");
        p.backspace();
        p.backspace();
        p.backspace();
        p.backspace();
        assert_eq!(p.text, "");
    }
}
