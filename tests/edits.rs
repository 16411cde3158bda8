//! What-if edits from the command line: `query --script`, `query --why` and `convert --script`, as
//! a user runs them: answers, exit statuses, JSON fields and the errors' file and line.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn grail(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grail")).args(args).output().expect("the grail binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn write(dir: &Path, name: &str, content: &str) -> String {
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path.display().to_string()
}

const CHAIN: &str = "0 1\n1 2\n2 3\n";

#[test]
fn a_script_inserts_deletes_and_checks_answers() {
    let dir = tempfile::tempdir().unwrap();
    let graph = write(dir.path(), "chain.txt", CHAIN);
    let script = write(dir.path(), "edits.txt", "? 3 1 0\n+ 3 1\n? 3 1 1\n- 1 2\n? 0 3 0\n? 3 1 1\n");
    let out = grail(&["query", &graph, "--script", &script]);
    let shown = text(&out.stdout);
    assert!(out.status.success(), "{shown}{}", text(&out.stderr));
    assert!(shown.contains("+ 3 1  inserted; closed a cycle: 3 components merged into one of 3 vertices"), "{shown}");
    assert!(shown.contains("- 1 2  deleted; its component split into 3 pieces"), "{shown}");
    assert!(shown.contains("2 edits in"), "{shown}");
    assert!(shown.contains("4 questions answered in"), "{shown}");
    assert!(shown.contains("every expected answer matches"), "{shown}");
}

#[test]
fn a_wrong_expected_answer_is_exit_status_three_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let graph = write(dir.path(), "chain.txt", CHAIN);
    let script = write(dir.path(), "edits.txt", "- 1 2\n# after the cut\n? 0 3 1\n");
    let out = grail(&["query", &graph, "--script", &script, "--json"]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("1 answer differs from what the script expects (line 3)"));
    let report: Value = serde_json::from_str(text(&out.stdout).split("\n{\n  \"error\"").next().unwrap()).unwrap();
    assert_eq!(report["mismatches"], serde_json::json!([3]));
    let steps = report["steps"].as_array().unwrap();
    assert_eq!(steps[0]["edit"], "delete");
    assert_eq!(steps[1]["reachable"], false);
    assert_eq!(steps[1]["decided_by"], "search");
    assert!(report["rebuild_seconds"].as_f64().unwrap() > 0.0);
    assert_eq!(report["components"], 4);
}

#[test]
fn script_errors_name_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let graph = write(dir.path(), "chain.txt", CHAIN);
    let script = write(dir.path(), "edits.txt", "+ 0 2\n+ 0 9\n");
    let out = grail(&["query", &graph, "--script", &script]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("edits.txt:2: unknown vertex id 9 (the graph has 4 vertices)"));
}

#[test]
fn names_in_a_script_are_the_files_names_quoted_where_they_hold_a_comma() {
    let dir = tempfile::tempdir().unwrap();
    let graph = write(dir.path(), "people.csv", "source,target\n\"Turing, Alan\",xavier\nxavier,yves\n");
    let script = write(
        dir.path(),
        "edits.txt",
        "? yves \"Turing, Alan\" 0\n+ yves \"Turing, Alan\"\n? xavier \"Turing, Alan\" 1\n",
    );
    let out = grail(&["query", &graph, "--script", &script]);
    let shown = text(&out.stdout);
    assert!(out.status.success(), "{shown}{}", text(&out.stderr));
    assert!(shown.contains("+ yves \"Turing, Alan\"  inserted"), "{shown}");
}

#[test]
fn why_names_the_vertices_and_edges_on_every_path() {
    let dir = tempfile::tempdir().unwrap();
    let graph = write(dir.path(), "diamond.txt", "0 1\n0 2\n1 3\n2 3\n3 4\n");
    let out = grail(&["query", &graph, "0", "4", "--why", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["vertices"], serde_json::json!([0, 3, 4]));
    assert_eq!(report["edges"], serde_json::json!([[3, 4]]));
    let out = grail(&["query", &graph, "0", "4", "--why"]);
    let shown = text(&out.stdout);
    assert!(shown.contains("every path visits 1 vertex between them, in this order: 0 … 3 … 4"), "{shown}");
    assert!(shown.contains("every path crosses 1 edge (deleting one puts 4 out of reach): 3 → 4"), "{shown}");
    let out = grail(&["query", &graph, "4", "0", "--why"]);
    assert!(text(&out.stdout).contains("4 does not reach 0"));
}

#[test]
fn a_script_runs_beside_a_saved_index_and_its_rebuild_builds() {
    let dir = tempfile::tempdir().unwrap();
    let graph = write(dir.path(), "chain.txt", CHAIN);
    let index = dir.path().join("chain.idx");
    assert!(grail(&["label", &graph, "--out", index.to_str().unwrap()]).status.success());
    let script = write(dir.path(), "edits.txt", "\u{feff}? 0 3 1\n+ 3 0\n? 3 0 1\n");
    let out = grail(&["query", &graph, "--script", &script, "--index", index.to_str().unwrap()]);
    let shown = text(&out.stdout);
    assert!(out.status.success(), "{shown}{}", text(&out.stderr));
    assert!(shown.contains("? 0 3  yes (the graph as loaded: "), "{shown}");
}

#[test]
fn convert_writes_the_edited_graph() {
    let dir = tempfile::tempdir().unwrap();
    let graph = write(dir.path(), "chain.txt", CHAIN);
    let script = write(dir.path(), "edits.txt", "+ 3 0\n- 1 2\n? 0 1\n");
    let edited = dir.path().join("edited.txt");
    let out = grail(&["convert", &graph, edited.to_str().unwrap(), "--script", &script]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("edited: 2 edits from"), "{}", text(&out.stdout));
    let written = std::fs::read_to_string(&edited).unwrap();
    let edges: Vec<&str> = written.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(edges, ["0 1", "2 3", "3 0"]);
}
