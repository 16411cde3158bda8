//! Data read as the user wrote it, through the built binary: numbers with leading zeros stay
//! names, a header's wrong edge count is refused rather than read as an edge, query files take
//! quoted names, a line with another separator is listed, and `grail info` says how many pieces
//! the graph is in.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn grail(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grail")).args(args).output().expect("the grail binary runs")
}

fn json(out: &Output) -> Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn file(dir: &tempfile::TempDir, name: &str, content: &str) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, content).unwrap();
    path
}

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-graphs").join(name).display().to_string()
}

#[test]
fn numbers_with_a_leading_zero_are_two_names_asked_for_or_guessed() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "z.csv", "source,target\n007,7\n7,007\n");
    let path = path.to_str().unwrap();
    for args in [vec!["info", path, "--format", "named", "--json"], vec!["info", path, "--json"]] {
        let v = json(&grail(&args));
        assert_eq!((v["vertices"].clone(), v["edges"].clone()), (2.into(), 2.into()), "{args:?}");
        assert_eq!(v["loader"]["self_loops"]["count"], 0);
        assert_eq!(v["loader"]["numbering"]["kind"], "named");
    }
    // Guessed, the report names the field that kept them names.
    let v = json(&grail(&["info", path, "--json"]));
    assert_eq!(v["loader"]["leading_zero"], serde_json::json!({"field": "007", "line": 2}));
    let human = text(&grail(&["info", path]).stdout);
    assert!(
        human.contains("every field is a number, but `007` on line 2 has a leading zero: read as names, not ids"),
        "{human}"
    );
    // The query takes both, as two vertices.
    let out = grail(&["query", path, "007", "7", "--json"]);
    assert_eq!(json(&out)["reachable"], true);
}

#[test]
fn a_header_whose_edge_count_is_wrong_is_refused_with_both_counts() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "h.txt", "3 5\n0 1\n1 2\n");
    let path = path.to_str().unwrap();
    let out = grail(&["info", path]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("h.txt:1: the header declares 5 edges, the file holds 2;"), "{err}");
    assert!(err.contains("`--format edge-list`, which reads this line as an edge"), "{err}");
    // Asked for, the edge list reads the first line as an edge.
    let v = json(&grail(&["info", path, "--format", "edge-list", "--json"]));
    assert_eq!((v["vertices"].clone(), v["edges"].clone()), (6.into(), 3.into()));
}

#[test]
fn query_files_take_quoted_names_with_spaces_and_commas() {
    let dir = tempfile::tempdir().unwrap();
    let queries = file(&dir, "q.txt", "xavier \"Turing, Alan\"\n\"Lovelace, Ada\",\"Turing, Alan\",1\n");
    let out = grail(&["query", &sample("follows.csv"), "--file", queries.to_str().unwrap(), "--json"]);
    let v = json(&out);
    assert_eq!((v["queries"].clone(), v["mismatches"].clone()), (2.into(), 0.into()));
}

#[test]
fn a_line_with_another_separator_is_read_and_listed_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "t.csv", "a,b\nb\tc\nc,d\n");
    let path = path.to_str().unwrap();
    let v = json(&grail(&["info", path, "--json"]));
    assert_eq!(v["edges"], 3);
    assert_eq!(v["loader"]["own_separator_lines"], serde_json::json!({"count": 1, "first": [2]}));
    let human = text(&grail(&["info", path]).stdout);
    assert!(
        human.contains("1 line split at its own separator, the file's giving it fewer than two fields (line 2)"),
        "{human}"
    );
    let strict = grail(&["info", path, "--strict"]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(text(&strict.stderr).contains("split at its own separator"), "{}", text(&strict.stderr));
}

#[test]
fn info_counts_the_weakly_connected_pieces() {
    let v = json(&grail(&["info", &sample("kegg.gra"), "--json"]));
    assert_eq!(v["weak_components"], 24);
    let largest = v["largest_weak_component"].as_u64().unwrap();
    assert!(largest > 1 && largest <= v["vertices"].as_u64().unwrap(), "{largest}");
    let human = text(&grail(&["info", &sample("kegg.gra")]).stdout);
    assert!(human.contains(&format!("{:<22}{:>16}\n", "weak components", "24")), "{human}");
    // Two pieces, one of them a lone vertex.
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "g.txt", "# grail-explorer: 4 vertices, 2 edges\n0 1\n2 1\n");
    let v = json(&grail(&["info", path.to_str().unwrap(), "--json"]));
    assert_eq!((v["weak_components"].clone(), v["largest_weak_component"].clone()), (2.into(), 3.into()));
}

#[test]
fn gra_lines_padded_with_spaces_are_read() {
    let dir = tempfile::tempdir().unwrap();
    // Runs of spaces and tabs are one separator, however long: past 1 MiB too (a line of a vertex
    // with many children may be that long, and its padding must not make it refused).
    let padding = " ".repeat(3 << 20);
    let hub = format!("3\n0: 1{padding}2 \t #{padding}\n1: #\n2:{padding}#\n");
    for (name, content, edges) in [
        ("padded.gra", "graph_for_greach\n4\n0: 1  2   3 #\n1:\t2 \t #   \n2:  3#\n3:   #  \n", 5),
        ("hub.gra", &hub[..], 2),
    ] {
        let path = file(&dir, name, content);
        let v = json(&grail(&["info", path.to_str().unwrap(), "--json"]));
        assert_eq!(v["edges"], edges, "{name}");
    }
}
