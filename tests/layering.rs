//! The layering rules the crate borders cannot express, because both sides live in one crate. The
//! big border (the engine knows nothing of the terminal, the GPU or the command line) is the
//! compiler's: `crates/engine` cannot name this package. What is left is checked on the text: a
//! file under `from` must not name `crate::<module>` for a module of `never`, outside comments and
//! test code (a file's tests follow its first `#[cfg(test)]`, and may check it against anything).

use std::path::{Path, PathBuf};

struct Rule {
    from: &'static str,
    never: &'static [&'static str],
    why: &'static str,
}

const RULES: &[Rule] = &[
    Rule {
        from: "crates/engine/src/graph",
        never: &["index", "query", "exact", "exceptions", "weighted", "draw", "workspace"],
        why: "graph/ is the bottom layer (CSR, formats, generators): everything builds on it",
    },
    Rule {
        from: "crates/engine/src/query",
        never: &["exact"],
        why: "query/ and exact/ share a row: labels and searches beside exact engines, neither imports the other",
    },
    Rule {
        from: "crates/engine/src/exact",
        never: &["query", "index"],
        why: "exact/ answers from the graph alone, without labels",
    },
    Rule {
        from: "crates/engine/src/telemetry.rs",
        never: &["index::pipeline", "index::dfs"],
        why: "telemetry is the sink every labeler reports into, so it cannot know one labeler",
    },
    Rule {
        from: "src/gpu",
        never: &["backend", "tui", "cli"],
        why: "gpu/ is a back end: the switch between back ends and the front ends call it, never the other way",
    },
    Rule { from: "src/tui", never: &["cli"], why: "the command line starts the explorer, not the other way" },
];

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        out.push(path.to_path_buf());
        return;
    }
    for entry in std::fs::read_dir(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() || path.extension().is_some_and(|ext| ext == "rs") {
            rust_files(&path, out);
        }
    }
}

/// `crate::module` followed by a path separator or the end of the path (`crate::index` but not
/// `crate::index_passes`).
fn names_module(line: &str, module: &str) -> bool {
    let needle = format!("crate::{module}");
    line.match_indices(&needle).any(|(at, _)| {
        let next = line[at + needle.len()..].chars().next();
        !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[test]
fn lower_layers_never_name_the_layers_above() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut offences = Vec::new();
    for rule in RULES {
        let mut files = Vec::new();
        rust_files(&root.join(rule.from), &mut files);
        assert!(!files.is_empty(), "{}: no Rust files (moved?)", rule.from);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let code_lines = text.lines().take_while(|line| line.trim() != "#[cfg(test)]");
            for (number, line) in code_lines.enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for module in rule.never.iter().filter(|module| names_module(code, module)) {
                    let shown = file.strip_prefix(root).unwrap_or(&file).display();
                    offences.push(format!("{shown}:{}: names crate::{module}: {}", number + 1, rule.why));
                }
            }
        }
    }
    assert!(offences.is_empty(), "layering broken:\n{}", offences.join("\n"));
}

#[test]
fn the_check_sees_a_module_path_and_only_that_module() {
    assert!(names_module("use crate::index::Labels;", "index"));
    assert!(names_module("crate::index", "index"));
    assert!(!names_module("use crate::index_passes::x;", "index"));
    assert!(!names_module("use super::index::x;", "index"));
}
