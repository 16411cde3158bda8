//! The command line as scripts use it: JSON fields, exit codes, messages on stderr.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn grail(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grail")).args(args).output().expect("the grail binary runs")
}

/// What the command printed on stderr (messages and errors).
fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// What the command printed on stdout (its report).
fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json(out: &Output) -> Value {
    assert!(out.status.success(), "failed: {}", stderr(out));
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON object")
}

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-graphs").join(name).display().to_string()
}

#[test]
fn info_json_has_the_promised_fields() {
    let v = json(&grail(&["info", &sample("tiny-cycles.txt"), "--json"]));
    assert_eq!(v["vertices"], 10);
    assert_eq!(v["edges"], 12);
    // Components: {1,2,3}, {6,7} and five single vertices.
    assert_eq!(v["components"], 7);
}

#[test]
fn info_reports_what_the_loader_did_and_strict_refuses_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.txt");
    std::fs::write(&file, "0 1\n0 1\n1 1\n1 2\n2 0\n5 6\n").unwrap();
    let file = file.to_str().unwrap();
    let v = json(&grail(&["info", file, "--json"]));
    let loader = &v["loader"];
    assert_eq!(
        (loader["lines"].clone(), loader["data_lines"].clone(), loader["edges_kept"].clone()),
        (6.into(), 6.into(), 4.into())
    );
    assert_eq!(loader["duplicate_edges"], serde_json::json!({"count": 1, "first": [2]}));
    assert_eq!(loader["self_loops"], serde_json::json!({"count": 1, "first": [3]}));
    assert_eq!(loader["unused_ids"], serde_json::json!({"count": 2, "first": [3, 4]}));
    assert_eq!(loader["id_range"], serde_json::json!([0, 6]));
    assert_eq!(loader["numbering"], serde_json::json!({"kind": "kept"}));
    let human = String::from_utf8(grail(&["info", file]).stdout).unwrap();
    assert!(human.contains("1 duplicate edge (line 2); 1 self-loop (line 3)"), "{human}");
    let out = grail(&["info", file, "--strict"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(
            "g.txt (--strict): 1 duplicate edge (line 2); 1 self-loop (line 3); 2 ids never in an edge (3, 4)"
        ),
        "{err}"
    );
    assert!(grail(&["info", &sample("tiny-cycles.txt"), "--strict"]).status.success());
}

#[test]
fn scc_lists_the_largest_components_with_a_shortest_cycle() {
    let v = json(&grail(&["scc", &sample("tiny-cycles.txt"), "--json"]));
    assert_eq!(
        (v["components"].clone(), v["cyclic_components"].clone(), v["vertices_in_cycles"].clone()),
        (7.into(), 2.into(), 5.into())
    );
    assert_eq!(v["largest"][0]["members"], serde_json::json!([1, 2, 3]));
    assert_eq!(v["largest"][0]["cycle"], serde_json::json!([1, 2, 3, 1]));
    assert_eq!(v["largest"][0]["members_complete"], true);
    assert_eq!(v["largest"][1]["cycle"], serde_json::json!([6, 7, 6]));
    let v = json(&grail(&["scc", &sample("tiny-cycles.txt"), "--top", "1", "--json"]));
    assert_eq!(v["largest"].as_array().unwrap().len(), 1);
    let human = String::from_utf8(grail(&["scc", &sample("kegg.gra")]).stdout).unwrap();
    assert!(human.contains("no cycles"), "{human}");
}

#[test]
fn info_deep_names_hubs_reach_and_false_positives() {
    let v = json(&grail(&["info", &sample("tiny-cycles.txt"), "--deep", "--json"]));
    let deep = &v["deep"];
    // 3 -> 1, 4, 5; the in-degree ties (1, 6, 8 with two parents each) go to the smallest id.
    assert_eq!(deep["hubs_out"][0], serde_json::json!({"vertex": 3, "degree": 3}));
    assert_eq!(deep["hubs_in"][0], serde_json::json!({"vertex": 1, "degree": 2}));
    assert_eq!(deep["reach"]["method"], "exact");
    assert_eq!(deep["reach"]["sketch_k"], Value::Null);
    // 9 reaches every other vertex; 6 (with 7) and 8 are each reached by seven.
    assert_eq!(deep["reach"]["reaching"][0], serde_json::json!({"vertex": 9, "component_size": 1, "vertices": 9}));
    assert_eq!(deep["reach"]["reached_by"][0]["vertices"], 7);
    // Seven components: every one of the 42 ordered pairs is looked at.
    assert_eq!(
        (deep["false_positives"]["exact"].clone(), deep["false_positives"]["pairs"].clone()),
        (true.into(), 42.into())
    );
    assert!(deep["widest_levels"][0]["components"].as_u64().unwrap() >= 1);
    let plain = json(&grail(&["info", &sample("tiny-cycles.txt"), "--json"]));
    assert!(plain.get("deep").is_none(), "--deep only on request");
    let human = String::from_utf8(grail(&["info", &sample("kegg.gra"), "--deep"]).stdout).unwrap();
    assert!(human.contains("hubs out") && human.contains("reach      exact"), "{human}");
}

#[test]
fn a_batch_of_reachable_pairs_has_no_false_positive_rate_to_show() {
    let out = grail(&["query", &sample("tiny-cycles.txt"), "--random", "200", "--reachable"]);
    let text = stdout(&out);
    assert!(out.status.success() && text.contains("positives  200"), "{text}");
    assert!(text.contains("FP%        none to measure: every answer is yes"), "{text}");
}

#[test]
fn convert_around_and_scc_cut_out_a_part_with_the_files_ids() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("around.txt");
    let ok = grail(&["convert", &sample("tiny-cycles.txt"), out.to_str().unwrap(), "--around", "5", "--depth", "1"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    // 5's parent 3 and children 6 and 8, with every edge among them, in the file's ids.
    let text = std::fs::read_to_string(&out).unwrap();
    let mut edges: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    edges.sort_unstable();
    assert_eq!(edges, ["3 5", "5 6", "5 8"]);
    let cut = grail(&["convert", &sample("tiny-cycles.txt"), out.to_str().unwrap(), "--around", "5", "--max", "2"]);
    let said = stdout(&cut);
    assert!(said.contains("--max 2:") && said.contains(": the nearest vertices within 2 edges of 5"), "{said}");
    assert!(stdout(&ok).contains(": the vertices within 1 edge of 5"));
    let v = json(&grail(&["info", out.to_str().unwrap(), "--json"]));
    assert_eq!((v["vertices"].clone(), v["edges"].clone()), (2.into(), 1.into()));

    let out = dir.path().join("scc.txt");
    assert!(grail(&["convert", &sample("tiny-cycles.txt"), out.to_str().unwrap(), "--scc", "1"]).status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    let mut edges: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    edges.sort_unstable();
    assert_eq!(edges, ["1 2", "2 3", "3 1"]);

    let none = grail(&["convert", &sample("tiny-cycles.txt"), out.to_str().unwrap(), "--scc", "3"]);
    assert!(!none.status.success());
    assert!(stderr(&none).contains("2 strongly connected components"));
    let dag = grail(&["convert", &sample("kegg.gra"), out.to_str().unwrap(), "--scc", "1"]);
    assert!(!dag.status.success());
    assert!(stderr(&dag).contains("has no cycles: every strongly connected component is one vertex"));
    let missing = grail(&["convert", &sample("tiny-cycles.txt"), out.to_str().unwrap(), "--around", "42"]);
    assert!(!missing.status.success());
    assert!(stderr(&missing).contains("vertex 42 is not in"));
}

#[test]
fn query_file_reports_queries_positives_and_mismatches() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q.txt");
    // 0 reaches 8 through the cycle and the diamond; 8 reaches nothing; 6 and 7 share a component.
    // The last line's expected answer is wrong on purpose.
    std::fs::write(&file, "0 8 1\n8 0 0\n7 6 1\n4 5 1\n").unwrap();
    let out = grail(&["query", &sample("tiny-cycles.txt"), "--file", file.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(3), "a mismatch has its own exit status, apart from errors (1)");
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON is printed even with mismatches");
    assert_eq!(v["queries"], 4);
    assert_eq!(v["positives"], 2);
    assert_eq!(v["mismatches"], 1);
    assert!(stderr(&out).contains("disagree"));
}

#[test]
fn single_query_explains_itself() {
    let v = json(&grail(&["query", &sample("tiny-cycles.txt"), "9", "8", "--json"]));
    assert_eq!(v["reachable"], true);
    // The path is the file's: from the source to the destination along its own edges, through the
    // cycles as the edges go (the search's own path, `dag_path`, runs through components).
    let text = std::fs::read_to_string(sample("tiny-cycles.txt")).unwrap();
    let edges: Vec<(u64, u64)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split_whitespace().map(|x| x.parse::<u64>().unwrap());
            (f.next().unwrap(), f.next().unwrap())
        })
        .collect();
    for (src, dst) in [(9, 8), (2, 8), (0, 8), (2, 1), (6, 7)] {
        let q = json(&grail(&["query", &sample("tiny-cycles.txt"), &src.to_string(), &dst.to_string(), "--json"]));
        assert_eq!(q["reachable"], true, "{src} {dst}");
        let path: Vec<u64> = q["path_ids"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
        assert_eq!((path.first(), path.last()), (Some(&src), Some(&dst)), "{path:?}");
        assert!(path.windows(2).all(|w| edges.contains(&(w[0], w[1]))), "{src} ⇝ {dst}: {path:?} is not a path");
        // DAG ids are named as such, and each one the report names has its size and the file id
        // it is shown by beside it (a component of tiny-cycles holds several vertices).
        let dag_path = q["dag_path"].as_array().unwrap();
        let component = |c: &Value| q["components"][c.as_u64().unwrap().to_string()].clone();
        assert!(dag_path.iter().all(|c| component(c)["shown_as"].is_u64() && component(c)["size"].as_u64() >= Some(1)));
        assert!(path.len() >= dag_path.len());
    }
    let kegg = json(&grail(&["query", "sample-graphs/kegg.gra", "2", "1", "--json"]));
    let decisive = kegg["decision"]["checks"].as_array().unwrap().last().unwrap().clone();
    assert_eq!((&decisive["rule"], &decisive["outcome"]), (&"supportive-path".into(), &"yes".into()));
    let dag = &decisive["found"]["dag_vertex"];
    assert!(kegg["components"][dag.as_u64().unwrap().to_string()]["shown_as"].is_u64(), "{kegg}");
}

#[test]
fn bad_input_exits_non_zero_with_the_reason_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.gra");
    std::fs::write(&bad, "graph_for_greach\n3\n0: 1 #\n1: 7 #\n2: #\n").unwrap();
    let out = grail(&["info", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("bad.gra:4"), "the message names file and line: {err}");
    assert!(out.stdout.is_empty());

    let out = grail(&["info", dir.path().join("missing.gra").to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("missing.gra"));
}

#[test]
fn label_save_then_query_with_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let idx = dir.path().join("kegg.idx");
    let graph = sample("kegg.gra");
    let built =
        json(&grail(&["label", &graph, "--dims", "3", "--seed", "5", "--out", idx.to_str().unwrap(), "--json"]));
    let digest = built["labels_digest"].as_str().unwrap().to_string();
    let again = json(&grail(&["label", &graph, "--dims", "3", "--seed", "5", "--json"]));
    assert_eq!(again["labels_digest"], digest.as_str(), "labels are reproducible for a seed");
    let q = json(&grail(&["query", &graph, "--random", "2000", "--index", idx.to_str().unwrap(), "--json"]));
    assert_eq!(q["queries"], 2000);
    assert_eq!(q["dims"], 3);
    // The index belongs to kegg, not to another graph.
    let out = grail(&["query", &sample("tiny-cycles.txt"), "0", "1", "--index", idx.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("another graph"));
}

#[test]
fn gen_then_convert_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let gra = dir.path().join("r.gra");
    let txt = dir.path().join("r.txt.gz");
    json(&grail(&["gen", "random:n=2000,deg=4,seed=3", "--out", gra.to_str().unwrap(), "--json"]));
    let out = grail(&["convert", gra.to_str().unwrap(), txt.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let a = json(&grail(&["info", gra.to_str().unwrap(), "--json"]));
    let b = json(&grail(&["info", txt.to_str().unwrap(), "--json"]));
    assert_eq!(a["vertices"], 2000);
    assert_eq!(a["edges"], b["edges"]);
}

#[test]
fn a_grail_file_opens_as_the_graph_it_was_converted_from() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("c.grail");
    let out = grail(&["convert", &sample("tiny-cycles.txt"), bin.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut text = json(&grail(&["info", &sample("tiny-cycles.txt"), "--json"]));
    let mut mapped = json(&grail(&["info", bin.to_str().unwrap(), "--json"]));
    assert_eq!(mapped["format"], "grail");
    assert!(mapped["peak_memory_bytes"].as_u64().is_some_and(|b| b > 0) || mapped["peak_memory_bytes"].is_null());
    for v in [&mut text, &mut mapped] {
        for volatile in ["file", "format", "load_seconds", "condense_seconds", "peak_memory_bytes", "loader"] {
            v.as_object_mut().unwrap().remove(volatile);
        }
    }
    assert_eq!(text, mapped);
    let plain = json(&grail(&["info", bin.to_str().unwrap(), "--json"]));
    assert!(plain["loader"].is_null(), "a .grail file has no loader report");
    let a = json(&grail(&["query", &sample("tiny-cycles.txt"), "9", "8", "--json"]));
    let b = json(&grail(&["query", bin.to_str().unwrap(), "9", "8", "--json"]));
    assert_eq!((a["reachable"].clone(), a["path_ids"].clone()), (b["reachable"].clone(), b["path_ids"].clone()));
    // A damaged file is refused with the reason.
    let mut bytes = std::fs::read(&bin).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&bin, bytes).unwrap();
    let out = grail(&["info", bin.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("checksum mismatch"), "{}", stderr(&out));
}

#[test]
fn gen_writes_every_format_it_offers() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["gra", "edge-list", "matrix-market", "weighted", "header"] {
        let out = dir.path().join(format!("c.{format}"));
        let out = out.to_str().unwrap();
        json(&grail(&["gen", "tree:n=40,arity=3", "--out", out, "--to", format, "--json"]));
        let info = json(&grail(&["info", out, "--json"]));
        assert_eq!((&info["vertices"], &info["edges"]), (&Value::from(40), &Value::from(39)), "{format}");
        assert_eq!(info["format"], format, "the file reads back as {format}");
    }
}

#[test]
fn label_json_names_the_back_end_that_ran_and_any_fallback() {
    let graph = sample("kegg.gra");
    let dfs = json(&grail(&["label", &graph, "--dims", "2", "--json"]));
    assert_eq!((&dfs["backend"], &dfs["fallback"]), (&Value::from("dfs"), &Value::Null));
    let asked_gpu = json(&grail(&["label", &graph, "--dims", "2", "--backend", "gpu", "--json"]));
    assert_eq!(asked_gpu["labels_digest"], dfs["labels_digest"], "every back end gives the same labels");
    if grail::gpu::probe().is_ok() {
        assert_eq!((&asked_gpu["backend"], &asked_gpu["fallback"]), (&Value::from("gpu"), &Value::Null));
    } else {
        assert_eq!(asked_gpu["backend"], "cpu", "without a GPU the CPU pipeline runs, and says so");
        let reason = asked_gpu["fallback"].as_str().expect("a fallback reason");
        assert!(reason.contains("GPU"), "the reason says what is missing: {reason}");
    }
}

#[test]
fn rules_pick_every_cut_or_grails_and_say_which() {
    // A random DAG with searches left, answered with both rule sets: same answers, the rule counts
    // name the rules of each set only, and the JSON says which set and what the query index cost.
    let dir = tempfile::tempdir().unwrap();
    let graph = dir.path().join("g.gra");
    let out = grail(&["gen", "random:n=3000,deg=3,seed=1", "-o", graph.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let ask =
        |rules: &str| json(&grail(&["query", graph.to_str().unwrap(), "--random", "5000", "--rules", rules, "--json"]));
    let (all, paper) = (ask("all"), ask("grail"));
    assert_eq!(all["positives"], paper["positives"]);
    assert_eq!((all["rules"].as_str(), paper["rules"].as_str()), (Some("all"), Some("grail")));
    assert_eq!((all["method"].as_str(), paper["method"].as_str()), (Some("guided-bfs"), Some("guided-dfs")));
    assert!(all["query_index_bytes"].as_u64().unwrap() > 0 && paper["query_index_bytes"] == 0);
    for rule in ["topo-cut", "supportive-cut", "bloom-cut", "supportive-path"] {
        assert_eq!(paper["by_rule"][rule], 0, "{rule} is not GRAIL's");
    }
    let new_cuts: u64 = ["topo-cut", "supportive-cut", "bloom-cut", "supportive-path"]
        .iter()
        .map(|rule| all["by_rule"][rule].as_u64().unwrap())
        .sum();
    assert!(new_cuts > 0, "{all}");
    assert!(all["by_rule"]["search"].as_u64() < paper["by_rule"]["search"].as_u64());

    // One query by a new rule explains itself in a sentence with its numbers.
    let out = grail(&["query", &sample("tiny-cycles.txt"), "8", "0"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("decided by") && text.contains("(all rules)"), "{text}");
    let out = grail(&["query", &sample("tiny-cycles.txt"), "8", "0", "--rules", "grail", "--json"]);
    assert_eq!(json(&out)["decision"]["rules"], "grail");
}

#[test]
fn fp_rate_is_the_same_for_every_guided_method() {
    // GRAIL's rules leave searches on a random DAG; guided DFS and BFS expand different vertices,
    // but the no-answers a search had to prove (the FP%) are the labels' and the queries' alone.
    let dir = tempfile::tempdir().unwrap();
    let graph = dir.path().join("g.gra");
    assert!(grail(&["gen", "random:n=2000,deg=3,seed=2", "-o", graph.to_str().unwrap()]).status.success());
    let ask = |method: &str| {
        json(&grail(&[
            "query",
            graph.to_str().unwrap(),
            "--random",
            "3000",
            "--dims",
            "2",
            "--rules",
            "grail",
            "--method",
            method,
            "--json",
        ]))
    };
    let (dfs, bfs) = (ask("guided-dfs"), ask("guided-bfs"));
    assert!(dfs["searched_negatives"].as_u64().unwrap() > 0, "{dfs}");
    assert_eq!(dfs["searched_negatives"], bfs["searched_negatives"]);
    assert_eq!(dfs["searched_negative_rate"], bfs["searched_negative_rate"]);
    let unguided = ask("dfs");
    assert_eq!(unguided["searched_negative_rate"], 1.0, "a search without labels proves every no");
}

#[test]
fn bench_counts_the_query_index_in_the_index_time_and_size() {
    let bench = |rules: &str| {
        json(&grail(&[
            "bench",
            &sample("tiny-cycles.txt"),
            "--random",
            "200",
            "--dims",
            "2",
            "--thread-counts",
            "1",
            "--repeat",
            "2",
            "--rules",
            rules,
            "--json",
        ]))
    };
    let (all, paper) = (bench("all"), bench("grail"));
    let (a, p) = (&all["rows"][0], &paper["rows"][0]);
    assert_eq!((all["rules"].as_str(), paper["rules"].as_str()), (Some("all"), Some("grail")));
    assert_eq!(a["positives"], p["positives"]);
    assert_eq!(a["labels_digest"], p["labels_digest"], "the query index leaves the labels alone");
    assert!(a["query_index_bytes"].as_u64().unwrap() > 0 && p["query_index_bytes"] == 0);
    assert!(a["query_index_seconds"].as_f64().unwrap() <= a["label_seconds"].as_f64().unwrap());
    // The best of the two runs is reported, and the first of them too.
    let (best, first) = (a["label_seconds"].as_f64().unwrap(), a["first_label_seconds"].as_f64().unwrap());
    assert!(0.0 < best && best <= first, "best {best} s, first {first} s");
}

#[test]
fn bfs_json_reports_reached_levels_and_a_shortest_path() {
    let v = json(&grail(&["bfs", &sample("tiny-cycles.txt"), "9", "8", "--json"]));
    // 9 -> 0 -> 1 -> 2 -> 3 -> {4, 5} -> {8, 6} -> 7: all ten vertices, eight levels.
    assert_eq!(v["reached"], 10);
    assert_eq!(v["levels"], 8);
    assert_eq!(v["dst_level"], 6);
    let path: Vec<u64> = v["path"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
    assert_eq!(path.len(), 7);
    assert_eq!((path[0], path[6]), (9, 8));
    let v = json(&grail(&["bfs", &sample("tiny-cycles.txt"), "4", "0", "--json"]));
    assert_eq!((&v["reached"], &v["dst_level"], &v["path"]), (&Value::from(2), &Value::Null, &Value::Null));
}

#[test]
fn bfs_compare_lists_every_engine_that_ran_with_its_frontiers() {
    let v = json(&grail(&["bfs", &sample("kegg.gra"), "2", "--compare", "--json"]));
    let engines = v["engines"].as_array().unwrap();
    let skipped = v["skipped"].as_array().unwrap();
    assert_eq!(engines.len() + skipped.len(), 6, "every engine ran or says why not");
    for e in engines {
        assert_eq!(e["agrees"], true);
        assert_eq!(e["reached"], v["reached"]);
        assert_eq!(e["frontier_sizes"], v["frontier_sizes"]);
    }
    let sizes: u64 = v["frontier_sizes"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).sum();
    assert_eq!(Value::from(sizes), v["reached"]);
}

#[test]
fn sssp_reports_distances_and_a_path_whose_weights_add_up() {
    let roads = sample("roads.txt");
    let v = json(&grail(&["sssp", &roads, "0", "5", "--json"]));
    // 0 -2-> 2 -0-> 4 -5-> 5 ties with 0 2 1 3 5 and 0 2 4 3 5; 9 is reached by nothing.
    assert_eq!(
        (&v["weights"], &v["reached"], &v["max_distance"]),
        (&Value::from("file"), &Value::from(9), &Value::from(11.0))
    );
    assert_eq!((&v["dst_distance"], &v["path"]), (&Value::from(7.0), &serde_json::json!([0, 2, 4, 5])));
    assert_eq!(v["farthest"][0], serde_json::json!({"vertex": 7, "distance": 11.0}));
    let v = json(&grail(&["sssp", &roads, "0", "9", "--engine", "delta", "--json"]));
    assert_eq!((&v["engine"], &v["dst_distance"], &v["path"]), (&Value::from("delta"), &Value::Null, &Value::Null));
    let v = json(&grail(&["sssp", &roads, "9", "--compare", "--json"]));
    let (engines, skipped) = (v["engines"].as_array().unwrap(), v["skipped"].as_array().unwrap());
    assert_eq!(engines.len() + skipped.len(), 4, "every engine ran or says why not");
    assert_eq!(skipped.len(), if grail::gpu::probe().is_ok() { 0 } else { 2 });
    assert!(engines.iter().all(|e| e["differences"] == 0), "{engines:?}");
    let out = grail(&["sssp", &sample("kegg.gra"), "2", "--compare"]);
    assert!(out.status.success());
    assert!(stderr(&out).contains("kegg.gra has no weights: every edge weighs 1"));
    let out = grail(&["sssp", &roads, "12"]);
    assert_eq!(out.status.code(), Some(1));
    let said = stderr(&out);
    assert!(said.contains("SRC must be a vertex of the graph: vertex 12 is not in"), "{said}");
}

#[test]
fn a_column_the_format_does_not_read_is_named_where_weights_were_wanted() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("el3.txt");
    std::fs::write(&file, "0 1 5\n1 2 1\n0 2 9\n").unwrap();
    let out = grail(&["sssp", file.to_str().unwrap(), "0", "2"]);
    let said = stderr(&out);
    assert!(
        said.contains(
            "el3.txt is read as edge-list, a format without weights: every edge weighs 1; 3 lines have more fields than the format's columns, the extra ones not read (lines 1, 2, 3): a weighted file"
        ),
        "{said}"
    );
    let info = grail(&["info", file.to_str().unwrap()]);
    let said = stdout(&info);
    assert!(
        said.contains("3 lines have more fields than the format's columns, the extra ones not read (lines 1, 2, 3)"),
        "{said}"
    );
    assert_eq!(grail(&["info", file.to_str().unwrap(), "--strict"]).status.code(), Some(1));
    // A mistyped direction is the weighted format's header, refused, not an edge 3 → 2.
    std::fs::write(&file, "3 2 direct\n0 1 5\n1 2 3\n").unwrap();
    let out = grail(&["info", file.to_str().unwrap()]);
    let said = stderr(&out);
    assert!(said.contains("el3.txt:1: found \"direct\"; expected `directed` or `undirected`"), "{said}");
}

#[test]
fn bad_weights_are_refused_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("w.txt");
    for (text, message) in [
        (
            "3 2 directed\n0 1 1\n1 2 -4\n",
            "w.txt:3: found negative weight \"-4\"; expected a weight of 0 or more (Dijkstra-family engines need non-negative weights)",
        ),
        ("3 2 directed\n0 1 inf\n1 2 1\n", "w.txt:2: found weight \"inf\"; expected a finite weight"),
        ("3 2 directed\n0 1 1\n1 2 x\n", "w.txt:3: found \"x\"; expected a weight after `src dst`"),
    ] {
        std::fs::write(&file, text).unwrap();
        for command in ["sssp", "apsp"] {
            let mut args = vec![command, file.to_str().unwrap()];
            if command == "sssp" {
                args.push("0");
            }
            let out = grail(&args);
            assert_eq!(out.status.code(), Some(1));
            let err = stderr(&out);
            assert!(err.contains(message), "{err}");
        }
    }
}

#[test]
fn apsp_methods_agree_and_out_writes_the_matrix() {
    let roads = sample("roads.txt");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d.txt");
    let matrices: Vec<Value> = ["sssp-all", "fw", "fw-blocked"]
        .iter()
        .map(|m| {
            let v = json(&grail(&["apsp", &roads, "--method", m, "--out", out.to_str().unwrap(), "--json"]));
            assert_eq!(v["reachable_pairs"], 50);
            v["matrix"].clone()
        })
        .collect();
    assert!(matrices.iter().all(|m| *m == matrices[0]));
    assert_eq!(matrices[0][0], serde_json::json!([0.0, 3.0, 2.0, 5.0, 2.0, 7.0, 10.0, 11.0, 11.0, null]));
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 12);
    assert_eq!(lines[2], "0 3 2 5 2 7 10 11 11 inf");
    let v = json(&grail(&["apsp", "--bench", "--sizes", "40,80", "--degrees", "2,8", "--json"]));
    let gpu = grail::gpu::probe().is_ok();
    assert_eq!(v["rows"].as_array().unwrap().len(), if gpu { 24 } else { 12 });
    assert_eq!(v["skipped"].as_array().unwrap().len(), if gpu { 0 } else { 1 }, "one line says why");
    assert!(v["rows"].as_array().unwrap().iter().all(|r| r["differences"] == 0));
    assert_eq!(v["fastest"].as_array().unwrap().len(), 4);
}

#[test]
fn bfs_auto_picks_the_source_that_reaches_the_most() {
    // 9 reaches every vertex of tiny-cycles; no other vertex does.
    let v = json(&grail(&["bfs", &sample("tiny-cycles.txt"), "auto", "--json"]));
    assert_eq!((&v["src"], &v["auto_source"], &v["reached"]), (&Value::from(9), &Value::from(true), &Value::from(10)));
    let out = grail(&["bfs", &sample("tiny-cycles.txt"), "somewhere"]);
    let err = stderr(&out);
    assert!(err.contains("SRC must be a vertex of the graph or `auto`: `somewhere` is not a vertex of "), "{err}");
}

/// `grail exceptions` counts over the condensation's pairs what a brute force over every pair
/// finds, with the same labels as the library's random order for the seed.
#[test]
fn exceptions_count_every_false_positive_of_every_d() {
    use grail::index::{Order, dfs};
    for (file, dims, seed) in [("tiny-cycles.txt", 2, 1), ("lesson.gra", 3, 1), ("kegg.gra", 2, 4)] {
        let v = json(&grail(&[
            "exceptions",
            &sample(file),
            "--dims",
            &dims.to_string(),
            "--seed",
            &seed.to_string(),
            "--json",
        ]));
        let ws = grail::workspace::Workspace::open(Path::new(&sample(file)), None).unwrap();
        let dag = ws.dag();
        let n = dag.num_vertices() as u32;
        let oracle = grail::query::oracle::TransitiveClosure::new(dag).unwrap();
        let unreachable =
            (0..n).flat_map(|u| (0..n).map(move |w| (u, w))).filter(|&(u, w)| u != w && !oracle.reachable(u, w));
        assert_eq!(v["unreachable"], unreachable.clone().count(), "{file}");
        assert_eq!(v["pairs"], (n as u64) * (n as u64 - 1), "{file}");
        for d in 1..=dims {
            let labels = dfs::label(dag, d, Order::Random { seed }).unwrap();
            let brute = unreachable.clone().filter(|&(u, w)| labels.may_reach(u, w)).count();
            assert_eq!(v["false_positives"][d - 1], brute, "{file}, d = {d}");
        }
        assert_eq!(v["device"], "cpu");
        assert_eq!(
            (&v["method"], &v["samples"], &v["estimates"]),
            (&Value::from("exact-cpu"), &Value::Null, &Value::Null)
        );
        // `--exact` on a graph within the limit changes nothing.
        let insisted = json(&grail(&["exceptions", &sample(file), "--dims", &dims.to_string(), "--exact", "--json"]));
        assert_eq!((&insisted["method"], &insisted["pairs"]), (&v["method"], &v["pairs"]), "{file}");
    }
    let out = grail(&["exceptions", &sample("kegg.gra")]);
    let text = stdout(&out);
    assert!(text.contains("method      exact-cpu: every ordered pair"), "{text}");
    assert!(!text.contains("estimate") && !text.contains('~'), "{text}");
}

/// The plan: exact within the device's limit, sampled above it unless `--exact` insists.
#[test]
fn the_exception_plan_samples_above_the_exact_limit() {
    use grail::exceptions::{EXACT_LIMIT, ExceptionPlan, GPU_EXACT_LIMIT};
    assert_eq!(ExceptionPlan::on_device(EXACT_LIMIT, false, false), ExceptionPlan::Cpu);
    assert_eq!(ExceptionPlan::on_device(EXACT_LIMIT + 1, false, false), ExceptionPlan::Sampled);
    assert_eq!(ExceptionPlan::on_device(EXACT_LIMIT + 1, false, true), ExceptionPlan::Cpu);
    assert_eq!(ExceptionPlan::on_device(GPU_EXACT_LIMIT + 1, true, false), ExceptionPlan::Sampled);
    assert_eq!(ExceptionPlan::choose(EXACT_LIMIT + 1, false), ExceptionPlan::Sampled);
    assert_eq!(ExceptionPlan::choose(GPU_EXACT_LIMIT + 1, true), ExceptionPlan::Sampled);
    assert_eq!(ExceptionPlan::choose(EXACT_LIMIT + 1, true), ExceptionPlan::Gpu);
}

/// Above the CPU's exact limit `grail exceptions` samples, says so, and gives each estimate inside
/// its interval.
#[test]
fn exceptions_above_the_limit_are_sampled_and_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let gra = dir.path().join("big.gra");
    let gra = gra.to_str().unwrap();
    let n = grail::exceptions::EXACT_LIMIT as u64 + 500;
    json(&grail(&["gen", &format!("random:n={n},deg=2,seed=5"), "--out", gra, "--json"]));
    let v = json(&grail(&["exceptions", gra, "--dims", "3", "--samples", "20000", "--seed", "3", "--json"]));
    assert_eq!(
        (&v["method"], &v["samples"], &v["pairs"]),
        (&Value::from("sampled"), &Value::from(20000), &Value::from(20000))
    );
    assert_eq!(
        (&v["components"], &v["all_pairs"], &v["seed"]),
        (&Value::from(n), &Value::from(n * (n - 1)), &Value::from(3))
    );
    let fp: Vec<u64> = v["false_positives"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
    assert!(fp[0] > 0 && fp.windows(2).all(|w| w[0] >= w[1]), "{fp:?}");
    let estimates = v["estimates"].as_array().unwrap();
    assert_eq!(estimates.len(), 3);
    for (d, e) in estimates.iter().enumerate() {
        let f = |k: &str| e[k].as_f64().unwrap();
        assert!(f("false_positives_low") <= f("false_positives") && f("false_positives") <= f("false_positives_high"));
        assert!(f("rate_low") <= f("rate") && f("rate") <= f("rate_high") && f("rate_high") <= 1.0);
        assert_eq!(f("false_positives"), fp[d] as f64 / 20000.0 * (n * (n - 1)) as f64);
    }
    let out = grail(&["exceptions", gra, "--dims", "3", "--samples", "20000", "--seed", "3"]);
    let text = stdout(&out);
    assert!(text.contains("sampled: an estimate from 20,000 uniform ordered pairs (seed 3)"), "{text}");
    assert!(text.contains("--exact counts every pair") && text.contains("95% interval"), "{text}");
    let zero = grail(&["exceptions", gra, "--samples", "0"]);
    assert!(!zero.status.success() && stderr(&zero).contains("--samples"));
}

/// The sampled estimate is honest: its 95% intervals hold the exact rate (and the exact count) for
/// nearly every seed, on a graph small enough to count exactly.
#[test]
fn sampled_exception_intervals_cover_the_exact_counts() {
    use grail::exceptions::{exact, sampled};
    use grail::index::{Order, dfs};
    use std::sync::atomic::AtomicBool;
    let g = "random:n=300,deg=2,seed=8".parse::<grail::graph::generators::GeneratorSpec>().unwrap().generate().unwrap();
    let labels = dfs::label(&g, 3, Order::Random { seed: 1 }).unwrap();
    let never = AtomicBool::new(false);
    let truth = exact(&g, &labels, &never, &|_| {}).unwrap();
    assert!(truth.false_positives[2] > 100, "{:?}", truth.false_positives);
    let (mut rates, mut counts) = (0, 0);
    for seed in 0..20 {
        let guess = sampled(&g, &labels, 2000, seed, &never, &|_| {}).unwrap();
        assert!(!guess.exact && guess.pairs == 2000);
        for d in 1..=3 {
            let (lo, hi) = guess.rate_interval(d).unwrap();
            assert!(hi - lo < 0.1, "an interval this wide holds anything: {lo} to {hi}");
            rates += usize::from(lo <= truth.rate(d) && truth.rate(d) <= hi);
            let (lo, hi) = guess.scaled_interval(d).unwrap();
            counts += usize::from(lo <= truth.scaled(d) && truth.scaled(d) <= hi);
        }
    }
    // 95% intervals: about 57 of the 60 hold the truth; fewer than 54 means a biased estimate.
    assert!(rates >= 54 && counts >= 54, "rates {rates} of 60, counts {counts} of 60");
}

#[test]
fn closure_counts_pairs_of_file_vertices_and_writes_them() {
    // Cycles {1,2,3} and {6,7}: their members reach each other. By hand: 9 reaches 9 others, 0
    // reaches 8, 1, 2 and 3 reach 7 each, 4 reaches 1, 5 reaches 3, 6 and 7 one each: 44.
    for method in ["bit-parallel", "squaring", "fw-naive", "fw-tiled"] {
        let v = json(&grail(&["closure", &sample("tiny-cycles.txt"), "--method", method, "--json"]));
        assert_eq!(v["pairs"], 44, "{method}");
        assert_eq!(v["components"], 7);
        assert!(!v["phases"].as_array().unwrap().is_empty());
    }
    let streamed = json(&grail(&["closure", &sample("tiny-cycles.txt"), "--stream", "--json"]));
    assert_eq!(streamed["pairs"], 44, "streaming counts the same pairs");
    let out = std::env::temp_dir().join(format!("grail-pairs-{}.txt", std::process::id()));
    let v = json(&grail(&["closure", &sample("tiny-cycles.txt"), "--out", out.to_str().unwrap(), "--json"]));
    let text = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_file(&out).ok();
    assert_eq!(text.lines().count() as u64, v["pairs"].as_u64().unwrap());
    assert!(text.lines().any(|l| l == "2 1") && text.lines().any(|l| l == "9 7") && !text.lines().any(|l| l == "8 4"));
}

#[test]
fn gpu_engines_without_a_gpu_fail_with_the_reason() {
    let Err(reason) = grail::gpu::probe() else {
        return;
    };
    let graph = sample("tiny-cycles.txt");
    for args in [
        vec!["bfs", &graph, "9", "--engine", "gpu-scan"],
        vec!["closure", &graph, "--method", "gpu-squaring"],
        vec!["exceptions", &graph, "--device", "gpu"],
        vec!["sssp", &graph, "9", "--engine", "gpu-two-phase"],
        vec!["sssp", &graph, "9", "--engine", "gpu-near-far"],
        vec!["apsp", &graph, "--method", "gpu-fw-blocked"],
    ] {
        let out = grail(&args);
        assert!(!out.status.success(), "{args:?} must not run on the CPU instead");
        assert!(stderr(&out).contains("needs an NVIDIA GPU"), "{args:?}");
    }
    // --compare and --bench say in one line that the GPU rows were skipped, and why.
    let out = grail(&["sssp", &sample("roads.txt"), "0", "--compare"]);
    let text = stdout(&out);
    assert!(text.contains(&format!("skipped gpu-two-phase, gpu-near-far: {reason}")), "{text}");
    let out = grail(&["apsp", "--bench", "--sizes", "20", "--degrees", "2"]);
    let text = stdout(&out);
    assert!(text.contains(&format!("skipped gpu-fw, gpu-fw-blocked, gpu-sssp-all: {reason}")), "{text}");
}

#[test]
fn closure_bench_tables_every_cpu_method() {
    let v = json(&grail(&[
        "closure",
        "--bench",
        "--sizes",
        "300",
        "--probabilities",
        "0.01,0.2",
        "--methods",
        "bit-parallel,fw-tiled",
        "--json",
    ]));
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r["agrees"] == true && r["vertices"] == 300));
}

/// A yes carries no "cut" field, and the JSON lists the checks that ran, each with its outcome,
/// the last one deciding.
#[test]
fn query_json_records_the_checks_that_ran_and_no_cut_on_a_yes() {
    let v = json(&grail(&["query", &sample("kegg.gra"), "2", "1", "--json"]));
    assert_eq!((v["reachable"].as_bool(), v["rule"].as_str()), (Some(true), Some("supportive-path")));
    assert!(v.get("cut_dimension").is_none() && v.get("witness").is_none(), "{v}");
    let checks = v["decision"]["checks"].as_array().unwrap();
    let rules: Vec<&str> = checks.iter().map(|c| c["rule"].as_str().unwrap()).collect();
    assert_eq!(rules, ["same-component", "level-cut", "topo-cut", "supportive-cut", "bloom-cut", "supportive-path"]);
    assert!(checks[..checks.len() - 1].iter().all(|c| c["outcome"] == "undecided"), "{v}");
    assert_eq!(checks.last().unwrap()["outcome"], "yes");
    assert_eq!(v["decision"]["rules"], "all");
}

/// The level cut runs before the labels with every rule: the explanation never says the intervals
/// fit (they do not: every dimension cuts 1 ⇝ 2 on kegg), and says the labels were not checked.
#[test]
fn query_text_explains_only_the_checks_that_ran() {
    let out = grail(&["query", &sample("kegg.gra"), "1", "2"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("decided by level-cut (all rules)"), "{text}");
    assert!(!text.contains("maybe") && !text.contains("fit in every dimension"), "{text}");
    assert!(text.contains("intervals (not checked: level-cut decided first)"), "{text}");
    // With GRAIL's rules the label cut runs first and decides.
    let out = grail(&["query", &sample("kegg.gra"), "1", "2", "--rules", "grail"]);
    let text = stdout(&out);
    assert!(text.contains("decided by label-cut (dimension 0) (grail rules)"), "{text}");
}

/// `grail draw --query` answers with the same rules as `grail query` and says so; its dead-end
/// count says where each dead end is drawn.
#[test]
fn draw_uses_the_query_rules_and_accounts_for_every_dead_end() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("fp.svg");
    let out_path = out_file.to_str().unwrap();
    let lesson = sample("lesson.gra");
    let all = grail(&["draw", &lesson, "--dims", "1", "--query", "0", "10", "--out", out_path]);
    let text = stdout(&all);
    let query = grail(&["query", &lesson, "0", "10", "--dims", "1", "--order", "random", "--seed", "1"]);
    let answer = stdout(&query);
    let rule = answer.split("decided by ").nth(1).and_then(|r| r.split_whitespace().next()).unwrap();
    assert!(text.contains(&format!("decided by {rule}")) && text.contains("all rules"), "{text}\n{answer}");
    let grail_rules =
        grail(&["draw", &lesson, "--dims", "1", "--query", "0", "10", "--rules", "grail", "--out", out_path]);
    let text = stdout(&grail_rules);
    assert!(text.contains("decided by a search") && text.contains("grail rules"), "{text}");
    assert!(text.contains("5 dead ends: u itself (▶), 4 marked ✗"), "{text}");
}

#[test]
fn completions_and_the_manual_come_from_the_command_line_definition() {
    let out = grail(&["completions", "bash"]);
    assert!(out.status.success());
    let script = stdout(&out);
    assert!(script.contains("_grail()") && script.contains("query"), "{script}");
    let out = grail(&["man"]);
    assert!(out.status.success());
    let page = stdout(&out);
    assert!(page.contains(".TH grail 1") && page.contains("Exit status"), "{page}");
    let dir = tempfile::tempdir().unwrap();
    assert!(grail(&["man", "--out", dir.path().to_str().unwrap()]).status.success());
    assert!(dir.path().join("grail-query.1").exists());
    // A missing file is an error (1), not a disagreement (3).
    assert_eq!(grail(&["info", "/no/such/graph.gra"]).status.code(), Some(1));
}

/// The names in `dir` that are our temporary files.
fn partial_files(dir: &Path) -> Vec<String> {
    let names = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned());
    names.filter(|n| n.contains(".grail-partial-")).collect()
}

#[test]
fn a_write_killed_half_way_leaves_the_old_file_and_no_temporary_for_long() {
    let dir = tempfile::tempdir().unwrap();
    let graph = dir.path().join("chain.txt");
    assert!(grail(&["gen", "chain:n=100000", "--out", graph.to_str().unwrap()]).status.success());
    let grail_bin = env!("CARGO_BIN_EXE_grail");
    for target in ["out.txt", "out.gra.gz", "out.mtx", "out.grail"] {
        let target = dir.path().join(target);
        std::fs::write(&target, "the good old file\n").unwrap();
        // A file size limit of 32 KiB stands in for a full disk: the writer is stopped half-way,
        // by SIGXFSZ, as abruptly as by kill -9.
        let script = format!("ulimit -f 64; exec {grail_bin} convert {} {}", graph.display(), target.display());
        let status = Command::new("sh").arg("-c").arg(script).status().unwrap();
        assert!(!status.success(), "{}: the writer was stopped", target.display());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "the good old file\n", "{}", target.display());
        // Where the system has unnamed files the temporary has no name until it is whole, so a
        // stopped writer strands nothing; elsewhere it leaves its named temporary.
        let stranded = if cfg!(target_os = "linux") { 0 } else { 1 };
        assert_eq!(
            partial_files(dir.path()).len(),
            stranded,
            "the stopped writer's temporary file: {:?}",
            partial_files(dir.path())
        );
        // The next write to the folder removes any (its writer runs no more) and replaces the file.
        let out = grail(&["convert", graph.to_str().unwrap(), target.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(partial_files(dir.path()).is_empty(), "{:?}", partial_files(dir.path()));
        assert_ne!(std::fs::read(&target).unwrap(), b"the good old file\n");
    }
}

#[test]
fn outputs_follow_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let grail_bin = env!("CARGO_BIN_EXE_grail");
    for (umask, mode) in [("022", 0o644), ("077", 0o600)] {
        for target in ["g.grail", "g.txt", "g.gra.gz"] {
            let target = dir.path().join(format!("{umask}-{target}"));
            let script =
                format!("umask {umask}; exec {grail_bin} convert {} {}", sample("lesson.gra"), target.display());
            assert!(Command::new("sh").arg("-c").arg(script).status().unwrap().success());
            let got = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
            assert_eq!(got, mode, "{} under umask {umask}", target.display());
        }
    }
}

#[test]
fn named_vertices_are_typed_and_shown_by_name() {
    let follows = sample("follows.csv");
    let v = json(&grail(&["query", &follows, "xavier", "Turing, Alan", "--json"]));
    assert_eq!(
        (v["src"].clone(), v["dst"].clone(), v["reachable"].clone()),
        ("xavier".into(), "Turing, Alan".into(), true.into())
    );
    let path: Vec<&str> = v["path_ids"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    assert_eq!((path.first(), path.last()), (Some(&"xavier"), Some(&"Turing, Alan")));
    let components = v["components"].as_object().unwrap();
    assert!(components.values().all(|c| c["shown_as"].is_string()), "{}", v["components"]);
    let text = String::from_utf8(grail(&["query", &follows, "zoe", "alice"]).stdout).unwrap();
    assert!(text.starts_with("zoe ⇝ alice?  NO"), "{text}");

    // The loader says how it read the file.
    let info = json(&grail(&["info", &follows, "--json"]));
    assert_eq!(info["loader"]["numbering"], serde_json::json!({"kind": "named"}));
    assert_eq!(info["loader"]["columns"], serde_json::json!(["source", "target"]));
    assert_eq!((info["loader"]["header_lines"].clone(), info["vertices"].clone()), (1.into(), 26.into()));

    // A name the graph lacks: said so, with the nearest names, exit code 1.
    let out = grail(&["query", &follows, "alise", "bob"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("no vertex is named `alise` in ") && err.ends_with("; nearest names: alice\n"), "{err}");
    // Only close names are suggested: none for a name like no other, and a number is told the
    // vertices are named, each with two of the file's names.
    let err = String::from_utf8(grail(&["query", &follows, "qqqqqq", "bob"]).stderr).unwrap();
    assert!(
        err.contains("`qqqqqq`") && err.ends_with("; no name is close; the file names its vertices, e.g. alice, bob\n"),
        "{err}"
    );
    let err = String::from_utf8(grail(&["query", &follows, "0", "bob"]).stderr).unwrap();
    assert!(err.ends_with("; the vertices are named, not numbered, e.g. alice, bob\n"), "{err}");
    // A name with a comma is shown quoted, as it is typed.
    let err = String::from_utf8(grail(&["query", &follows, "Turing", "bob"]).stderr).unwrap();
    assert!(err.ends_with("; nearest names: \"Turing, Alan\"\n"), "{err}");
    let text = String::from_utf8(grail(&["query", &follows, "xavier", "Turing, Alan"]).stdout).unwrap();
    assert!(text.starts_with("xavier ⇝ \"Turing, Alan\"?"), "{text}");
    // A numbered graph asked for a name says which ids it has.
    let err = String::from_utf8(grail(&["query", &sample("lesson.gra"), "1", "alice"]).stderr).unwrap();
    assert!(
        err.contains("`alice` is not a vertex of ") && err.contains("its vertex ids are 0 to 11 (12 vertices)"),
        "{err}"
    );

    // The cycle and the BFS name their vertices too.
    let scc = json(&grail(&["scc", &follows, "--json"]));
    assert_eq!(scc["largest"][0]["cycle"], serde_json::json!(["alice", "bob", "carol", "alice"]));
    let bfs = json(&grail(&["bfs", &follows, "uma", "zoe", "--json"]));
    assert_eq!((bfs["src"].clone(), bfs["dst"].clone()), ("uma".into(), "zoe".into()));
}

#[test]
fn draw_and_grail_files_keep_the_names() {
    let dir = tempfile::tempdir().unwrap();
    let follows = sample("follows.csv");
    let svg = dir.path().join("f.svg");
    let out = grail(&["draw", &follows, "--around", "Lovelace, Ada", "--depth", "1", "--out", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("around \"Lovelace, Ada\" (depth 1"));
    let picture = std::fs::read_to_string(&svg).unwrap();
    for name in ["Lovelace, Ada", "Turing, Alan", "Hopper, Grace", "erin"] {
        assert!(picture.contains(name), "{name} is not in the picture");
    }
    let grail_file = dir.path().join("f.grail");
    assert!(grail(&["convert", &follows, grail_file.to_str().unwrap()]).status.success());
    let v = json(&grail(&["query", grail_file.to_str().unwrap(), "uma", "Hopper, Grace", "--json"]));
    assert_eq!((v["src"].clone(), v["reachable"].clone()), ("uma".into(), true.into()));
    // Written back as text, a named graph is a named edge list again.
    let csv = dir.path().join("f.txt");
    assert!(grail(&["convert", grail_file.to_str().unwrap(), csv.to_str().unwrap()]).status.success());
    let again = json(&grail(&["info", csv.to_str().unwrap(), "--json"]));
    assert_eq!(
        (again["format"].clone(), again["vertices"].clone(), again["edges"].clone()),
        ("named".into(), 26.into(), 34.into())
    );
}

#[test]
fn a_missing_id_comes_with_the_ids_the_file_has() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sp.txt");
    std::fs::write(&file, "0 1\n1 2\n2 0\n10 11\n").unwrap();
    let err = String::from_utf8(grail(&["query", file.to_str().unwrap(), "5", "11"]).stderr).unwrap();
    assert!(
        err.contains("vertex 5 is not in ") && err.contains(": its file ids are 0, 1, 2, 10, 11 (5 vertices)"),
        "{err}"
    );
}

#[test]
fn info_names_the_counts_of_the_condensation_and_the_ids_truly() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.txt");
    std::fs::write(&file, "0 1\n0 1\n1 1\n1 2\n2 0\n5 6\n").unwrap();
    let human = String::from_utf8(grail(&["info", file.to_str().unwrap()]).stdout).unwrap();
    // The 3-cycle and the unused ids 3 and 4 are the three isolated components.
    assert!(
        human.contains("isolated components") && human.contains("components per level of the condensation"),
        "{human}"
    );
    assert!(human.contains("file ids 0 to 6 kept as the vertex ids; 2 ids never in an edge (3, 4)"), "{human}");
    let gra = dir.path().join("g.gra");
    std::fs::write(&gra, "graph_for_greach\n3\n0: #\n1: 2 #\n2: #\n").unwrap();
    let human = String::from_utf8(grail(&["info", gra.to_str().unwrap()]).stdout).unwrap();
    assert!(human.contains("ids 0 to 2 declared; 1 id never in an edge (0)"), "{human}");
}

#[test]
fn info_deep_says_what_its_counts_are_of() {
    let human = String::from_utf8(grail(&["info", &sample("tiny-cycles.txt"), "--deep"]).stdout).unwrap();
    assert!(human.contains("over every one of 42 ordered pairs of components"), "{human}");
    // 9 reaches every other vertex: nine others, itself not counted.
    assert!(human.contains("9 reaches 9 others"), "{human}");
    assert!(human.contains("is reached by 7 others"), "{human}");
    assert!(!human.contains("(1 components)"), "{human}");
}

#[test]
fn convert_writes_the_format_of_the_extension_and_says_what_it_loses() {
    let dir = tempfile::tempdir().unwrap();
    let mtx = dir.path().join("back.mtx");
    let out = grail(&["convert", &sample("follows.csv"), mtx.to_str().unwrap()]);
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(said.contains("(matrix-market)"), "{said}");
    assert!(said.contains("names are not kept by matrix-market"), "{said}");
    let v = json(&grail(&["info", mtx.to_str().unwrap(), "--json"]));
    assert_eq!(
        (v["format"].clone(), v["vertices"].clone(), v["edges"].clone()),
        ("matrix-market".into(), 26.into(), 34.into())
    );
    // An edge list of names is written, and reported, as named CSV, and loses nothing.
    let csv = dir.path().join("back.csv");
    let said = String::from_utf8(grail(&["convert", &sample("follows.csv"), csv.to_str().unwrap()]).stdout).unwrap();
    assert!(said.contains("(named)") && !said.contains("not kept"), "{said}");
}

#[test]
fn scc_refuses_to_list_no_component() {
    let out = grail(&["scc", &sample("tiny-cycles.txt"), "--top", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("--top") && err.contains("0"), "{err}");
}

/// The fields of an sssp report that come from the distances (not the file's name or the time).
fn distance_fields(v: &Value) -> Vec<Value> {
    ["weights", "reached", "max_distance", "mean_distance", "farthest", "dst_distance", "path"]
        .iter()
        .map(|k| v[*k].clone())
        .collect()
}

#[test]
fn grail_files_keep_the_weights_and_convert_says_where_they_go() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    let roads = sample("roads.txt");
    let said = String::from_utf8(grail(&["convert", &roads, &path("roads.grail")]).stdout).unwrap();
    assert!(said.contains("(grail): 10 vertices, 15 edges with their weights"), "{said}");
    let text = json(&grail(&["sssp", &roads, "0", "5", "--json"]));
    for file in ["roads.grail", "roads.mtx", "back.txt"] {
        if file == "roads.mtx" {
            let said = String::from_utf8(grail(&["convert", &roads, &path(file)]).stdout).unwrap();
            assert!(said.contains("with their weights"), "{said}");
        }
        if file == "back.txt" {
            let out = grail(&["convert", &path("roads.grail"), &path(file), "--to", "weighted"]);
            assert!(out.status.success());
        }
        // Matrix Market numbers vertices from 1.
        let (src, dst) = if file == "roads.mtx" { ("1", "6") } else { ("0", "5") };
        let v = json(&grail(&["sssp", &path(file), src, dst, "--json"]));
        if file == "roads.mtx" {
            assert_eq!((&v["dst_distance"], &v["path"]), (&Value::from(7.0), &serde_json::json!([1, 3, 5, 6])));
        } else {
            assert_eq!(distance_fields(&v), distance_fields(&text), "{file}");
        }
        assert_eq!(v["notes"], serde_json::json!([]), "{file}: no note of missing weights");
    }
    // Reachability opens the weighted .grail file as the graph it was converted from.
    let v = json(&grail(&["info", &path("roads.grail"), "--json"]));
    assert_eq!((&v["vertices"], &v["edges"]), (&Value::from(10), &Value::from(15)));
    // A format without a weight column says that the weights are dropped.
    let said = String::from_utf8(grail(&["convert", &path("roads.grail"), &path("roads.gra")]).stdout).unwrap();
    assert!(said.contains("the weights are dropped: gra holds none; write --to weighted, .mtx or .grail"), "{said}");
    // A part keeps the weights of its edges.
    let out = grail(&["convert", &roads, &path("part.grail"), "--around", "2", "--depth", "1"]);
    assert!(stdout(&out).contains("4 vertices, 4 edges with their weights"));
    let v = json(&grail(&["sssp", &path("part.grail"), "0", "4", "--json"]));
    assert_eq!((&v["dst_distance"], &v["path"]), (&Value::from(2.0), &serde_json::json!([0, 2, 4])));
    // gen writes its weights into a .grail file, and refuses a format without weights.
    let v =
        json(&grail(&["gen", "digraph:n=30,deg=3,seed=2", "--max-weight", "9", "--out", &path("g.grail"), "--json"]));
    assert_eq!(v["max_weight"], 9);
    let v = json(&grail(&["sssp", &path("g.grail"), "0", "--compare", "--json"]));
    assert_eq!(v["weights"], "file");
    assert!(v["engines"].as_array().unwrap().iter().all(|e| e["differences"] == 0));
    let out = grail(&["gen", "chain:n=3", "--max-weight", "9", "--out", &path("c.gra"), "--to", "gra"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--to gra: that format holds no weights"));
}

#[test]
fn options_a_command_does_not_use_are_refused_or_said() {
    let roads = sample("roads.txt");
    for engine in ["dijkstra", "gpu-two-phase"] {
        let out = grail(&["sssp", &roads, "0", "--engine", engine, "--delta", "2"]);
        assert_eq!(out.status.code(), Some(1), "{engine}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("--delta 2: {engine} takes no bucket width; --delta is for delta and gpu-near-far")),
            "{err}"
        );
    }
    let v = json(&grail(&["sssp", &roads, "0", "--engine", "delta", "--delta", "2", "--json"]));
    assert_eq!(v["delta"], 2.0);
    let v = json(&grail(&["sssp", &roads, "0", "--compare", "--delta", "2", "--json"]));
    let used: Vec<&str> = v["delta_used_by"].as_array().unwrap().iter().map(|e| e.as_str().unwrap()).collect();
    assert_eq!(used, if grail::gpu::probe().is_ok() { vec!["delta", "gpu-near-far"] } else { vec!["delta"] });
    let human = String::from_utf8(grail(&["sssp", &roads, "0", "--compare", "--delta", "2"]).stdout).unwrap();
    assert!(human.contains("--delta 2: used by delta"), "{human}");
    let out = grail(&["apsp", &roads, "--seed", "3", "--sizes", "9"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("--sizes, --seed apply only with --bench"), "{err}");
    let out = grail(&["apsp", "--bench", "--format", "gra"]);
    assert_eq!(out.status.code(), Some(2), "a usage error");
}

#[test]
fn a_failure_under_json_is_one_json_object_too() {
    let out = grail(&["info", "no-such-file.txt", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(v["exit_code"], 1);
    assert!(v["error"].as_str().unwrap().contains("no-such-file.txt"), "{v}");
    assert!(stderr(&out).contains("error: "), "people still read it on stderr");
    let plain = grail(&["info", "no-such-file.txt"]);
    assert!(plain.stdout.is_empty(), "without --json, stdout stays empty");
}

#[test]
fn scc_lists_members_and_cycles_by_file_id() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sparse.txt");
    std::fs::write(&file, "210 208\n208 209\n209 211\n211 210\n").unwrap();
    let v = json(&grail(&["scc", file.to_str().unwrap(), "--json"]));
    let c = &v["largest"][0];
    assert_eq!(c["members"], serde_json::json!([208, 209, 210, 211]));
    assert_eq!(c["cycle"], serde_json::json!([208, 209, 211, 210, 208]));
}

#[test]
fn a_bad_command_line_under_json_is_one_json_object_and_says_the_range_in_words() {
    let out = grail(&["scc", "--top", "0", "x", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(v["exit_code"], 2);
    assert_eq!(v["error"], "invalid value '0' for '--top <K>': 0 is not a whole number of 1 or more");
    let threads = grail(&["--threads", "99999", "info", "x"]);
    assert_eq!(threads.status.code(), Some(2));
    assert!(stderr(&threads).contains("99999 is not a whole number from 0 to 1024"));
    let help = grail(&["scc", "--help", "--json"]);
    assert_eq!(help.status.code(), Some(0), "help is an answer, not a failure");
}

#[test]
fn a_supportive_vertex_in_an_end_component_is_named_as_that_end_everywhere() {
    // 1, 2 and 3 form one cycle, a supportive component: asked from 2, the sentence, the checks
    // table and the path all name it 2.
    let text = stdout(&grail(&["query", &sample("tiny-cycles.txt"), "2", "6"]));
    assert!(text.contains("2 is one of the index's supportive vertices"), "{text}");
    assert!(text.contains("through 2 "), "{text}");
    // A supportive destination the source does not reach: said once, not "reaches zoe through zoe".
    let text = stdout(&grail(&["query", &sample("follows.csv"), "mallory", "zoe"]));
    assert!(
        text.contains("zoe is one of the index's supportive vertices, and mallory stores that it does not reach zoe")
    );
    assert!(!text.contains("through zoe"), "{text}");
}
