//! Every benchmark graph in the data set folder answers its 100K query files exactly as the
//! expected column says (the column comes from the transitive closure), and the BFS pipeline
//! reproduces the DFS labels on each.
//!
//! The folder is `$GRAIL_DATASETS`, else `../shared/datasets` beside the repository. The tests are
//! ignored by default, with the reason in `cargo test`'s summary, so that a machine without the
//! data never passes them silently; `cargo test --test datasets -- --ignored` runs them (`.ci/run`
//! does where the folder exists), and they fail if the folder is missing then.

use grail::index::{Order, dfs};
use grail::query::{self, Engine, Method, QueryIndex};
use grail::workspace::Workspace;
use std::path::{Path, PathBuf};

/// Why the tests are ignored by default.
const NEEDS: &str = "needs the data sets: $GRAIL_DATASETS or ../shared/datasets";

fn datasets() -> PathBuf {
    let dir = std::env::var_os("GRAIL_DATASETS")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets"), PathBuf::from);
    assert!(
        dir.join("grail").is_dir() && dir.join("queries").is_dir(),
        "{NEEDS}: {} has no grail/ and queries/",
        dir.display()
    );
    dir
}

/// The query files that belong to a graph file.
fn query_files(queries: &Path, graph_name: &str) -> Vec<PathBuf> {
    let names: Vec<String> = match graph_name {
        "citeseer.scc.gra.gz" => vec!["citeseer.scc.random.test.gz".into(), "citeseer_100k_p.test.gz".into()],
        "uniprotenc_22m.scc.gra.gz" => {
            vec!["uniprotenc_22m.scc.random.test.gz".into(), "uniprotenc-22m_100k_p.test.gz".into()]
        }
        other => vec![format!("{}.test.gz", other.trim_end_matches(".gz").trim_end_matches(".gra"))],
    };
    names.into_iter().map(|n| queries.join(n)).collect()
}

#[test]
#[ignore = "needs the data sets: $GRAIL_DATASETS or ../shared/datasets"]
fn every_data_set_answers_its_query_files_exactly() {
    let dir = datasets();
    let mut graphs: Vec<PathBuf> = std::fs::read_dir(dir.join("grail")).unwrap().map(|e| e.unwrap().path()).collect();
    graphs.sort();
    let mut checked = 0;
    for graph in graphs {
        let name = graph.file_name().unwrap().to_string_lossy().into_owned();
        let ws = Workspace::open(&graph, None).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        let labels = dfs::label(ws.dag(), 5, Order::Random { seed: 11 }).unwrap();
        let index = QueryIndex::build(ws.dag(), &labels).unwrap();
        let grail_only = Engine::new(ws.dag(), &labels, &ws.condensation.component);
        let every_rule = grail_only.with_index(Some(&index));
        for file in query_files(&dir.join("queries"), &name) {
            assert!(file.exists(), "{name}: query file {} is missing", file.display());
            let queries = query::read_query_file(&file, &ws.loaded.names, ws.loaded.graph.num_vertices())
                .unwrap_or_else(|e| panic!("{e:#}"));
            assert_eq!(queries.len(), 100_000, "{}", file.display());
            assert!(queries.iter().all(|q| q.expected.is_some()), "{} has no expected column", file.display());
            // Both guided searches on the small graphs; on the large ones each rule set's default
            // (GRAIL's guided DFS; every rule's guided BFS, the bidirectional search).
            let small = ws.dag().num_vertices() < 100_000;
            let methods = |engine: &Engine| {
                if small {
                    vec![Method::GuidedDfs, Method::GuidedBfs]
                } else {
                    vec![engine.rule_set().default_method()]
                }
            };
            for (engine, method) in
                [grail_only, every_rule].iter().flat_map(|e| methods(e).into_iter().map(move |m| (e, m)))
            {
                let report = query::run_batch(engine, &queries, method);
                assert_eq!(report.queries, 100_000);
                assert_eq!(
                    report.mismatches,
                    0,
                    "{name} with {}: {:?} ({} rules) disagree, e.g. {:?}",
                    file.display(),
                    method,
                    engine.rule_set(),
                    report.mismatch_examples
                );
                checked += 1;
            }
        }
    }
    eprintln!("{checked} (graph, query file, method) combinations matched their expected answers");
    assert!(checked >= 42, "expected every data set to be checked with both rule sets, got {checked}");
}

/// The BFS pipeline reproduces the classic DFS labels on every real graph, per dimension.
#[test]
#[ignore = "needs the data sets: $GRAIL_DATASETS or ../shared/datasets"]
fn pipeline_labels_equal_dfs_labels_on_every_data_set() {
    use grail::backend::{LabelSpec, build_labels};
    use grail::telemetry::{Backend, NullSink};
    let dir = datasets();
    let mut graphs: Vec<PathBuf> = std::fs::read_dir(dir.join("grail")).unwrap().map(|e| e.unwrap().path()).collect();
    graphs.sort();
    for graph in &graphs {
        let name = graph.file_name().unwrap().to_string_lossy().into_owned();
        let ws = Workspace::open(graph, None).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        for order in [Order::Lex, Order::Random { seed: 3 }] {
            let dims = if order == Order::Lex { 1 } else { 2 };
            let build =
                |backend| build_labels(ws.dag(), &LabelSpec::new(backend, dims, order), &mut NullSink).unwrap().labels;
            let (dfs, cpu) = (build(Backend::Dfs), build(Backend::Cpu));
            for i in 0..dims {
                assert!(
                    dfs.dimension(i) == cpu.dimension(i),
                    "{name}, {order}, dimension {i}: pipeline differs from DFS"
                );
            }
            assert_eq!(dfs.digest(), cpu.digest());
        }
    }
}

/// What-if edits on real graphs: a script of a thousand random edits (inserts of random pairs,
/// deletes of random edges, and edges back up a path to close cycles) on the small data sets, the
/// answers to random pairs after every edit equal to a plain BFS of the edited graph.
#[test]
#[ignore = "needs the data sets: $GRAIL_DATASETS or ../shared/datasets"]
fn edits_on_the_data_sets_stay_exact() {
    use grail::dynamic::{DynamicIndex, Edit};
    use grail::query::oracle::reachable_bfs;
    use std::sync::Arc;
    let dir = datasets().join("grail");
    for name in ["kegg_dag_uniq.gra", "citeseer_sub_10720.gra", "yago_sub_6642.gra"] {
        let ws = Arc::new(Workspace::open(&dir.join(name), None).unwrap_or_else(|e| panic!("{name}: {e:#}")));
        let labels = Arc::new(dfs::label(ws.dag(), 3, Order::Random { seed: 1 }).unwrap());
        let query_index = Some(Arc::new(QueryIndex::build(ws.dag(), &labels).unwrap()));
        let mut index = DynamicIndex::new(ws, labels, query_index);
        let n = index.edges().num_vertices() as u64;
        // A fixed-seed stream (SplitMix64): the same edits on every run.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |below: u64| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            ((z ^ (z >> 31)) % below) as u32
        };
        let (mut merges, mut splits) = (0, 0);
        for step in 0..1000 {
            let u = next(n);
            let children: Vec<u32> = index.edges().children(u).collect();
            let edit = match next(4) {
                0 | 1 if !children.is_empty() => Edit::Delete { u, v: children[next(children.len() as u64) as usize] },
                // Back up a path: from a child's child to `u`, which closes a cycle.
                2 if !children.is_empty() => {
                    let c = children[next(children.len() as u64) as usize];
                    let below: Vec<u32> = index.edges().children(c).collect();
                    let w = if below.is_empty() { c } else { below[next(below.len() as u64) as usize] };
                    Edit::Insert { u: w, v: u }
                }
                _ => Edit::Insert { u, v: next(n) },
            };
            let report = index.apply(edit);
            merges += usize::from(report.merged > 0);
            splits += usize::from(report.split_into > 0);
            let graph = index.edited_graph();
            for _ in 0..3 {
                let (a, b) = (next(n), next(n));
                let want = reachable_bfs(&graph, a, b);
                assert_eq!(index.reaches(a, b).reachable, want, "{name}: {a} → {b} after edit {step} ({edit:?})");
            }
        }
        assert!(merges > 0 && splits > 0, "{name}: the script merged {merges} times and split {splits} times");
    }
}
