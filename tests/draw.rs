//! Pictures: the lesson graph keeps its promise (one dimension lets a false positive through, a
//! second removes it), and `grail draw` writes SVG that parses as XML and DOT that parses as DOT.

use grail::index::{Labels, Order, dfs};
use grail::query::oracle::reachable_bfs;
use grail::query::{Engine, Method, Rule};
use grail::workspace::Workspace;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `grail draw`'s (and `grail label`'s) default order.
const DEFAULT_ORDER: Order = Order::Random { seed: 1 };
/// The false positive the lesson is about (file ids).
const LESSON_PAIR: (u64, u64) = (0, 10);

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-graphs").join(name)
}

fn grail(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grail")).args(args).output().expect("the grail binary runs")
}

fn succeeded(out: &Output) -> String {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn failed(out: &Output) -> String {
    assert!(!out.status.success(), "should have failed: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn lesson_workspace() -> (Workspace, u32, u32) {
    let ws = Workspace::open(&sample("lesson.gra"), None).unwrap();
    let (u, v) = (ws.resolve(LESSON_PAIR.0).unwrap(), ws.resolve(LESSON_PAIR.1).unwrap());
    (ws, u, v)
}

#[test]
fn lesson_graph_has_a_false_positive_that_a_second_dimension_removes() {
    let (ws, u, v) = lesson_workspace();
    let dag = ws.dag();
    assert!(ws.condensation.is_identity(), "the lesson graph is a DAG");
    assert!((10..=15).contains(&dag.num_vertices()));
    assert!(!reachable_bfs(dag, u, v), "u must not reach v");

    // One dimension: the intervals are nested, so only the search finds out, through dead ends.
    let one = dfs::label(dag, 1, DEFAULT_ORDER).unwrap();
    assert!(one.may_reach(u, v), "with --dims 1 the labels of u and v must be nested");
    let engine = Engine::new(dag, &one, &ws.condensation.component);
    let answer = engine.query(u, v, Method::GuidedDfs, &mut engine.scratch(), false);
    assert_eq!((answer.rule, answer.reachable), (Rule::Search, false));
    assert!(answer.false_positives >= 3, "a search worth watching: {} dead ends", answer.false_positives);

    // Two dimensions: the second one's intervals are not nested, and the label cut answers at once.
    let two = dfs::label(dag, 2, DEFAULT_ORDER).unwrap();
    assert_eq!(two.cutting_dimension(u, v), Some(1));
    let engine = Engine::new(dag, &two, &ws.condensation.component);
    let answer = engine.query(u, v, Method::GuidedDfs, &mut engine.scratch(), false);
    assert_eq!((answer.rule, answer.witness), (Rule::LabelCut, Some(1)));
    // On this graph two dimensions are exact: no false positive is left at all.
    assert_eq!(false_positive_pairs(dag, &two), 0);
    assert!(false_positive_pairs(dag, &one) > 0);
}

fn false_positive_pairs(dag: &grail::graph::Graph, labels: &Labels) -> usize {
    let n = dag.num_vertices() as u32;
    (0..n)
        .flat_map(|a| (0..n).map(move |b| (a, b)))
        .filter(|&(a, b)| a != b && labels.may_reach(a, b) && !reachable_bfs(dag, a, b))
        .count()
}

#[test]
fn draw_lesson_as_svg_shows_every_vertex_with_its_interval() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lesson.svg");
    let lesson = sample("lesson.gra");
    let printed = succeeded(&grail(&["draw", lesson.to_str().unwrap(), "--dims", "2", "--out", out.to_str().unwrap()]));
    assert!(printed.contains("12 boxes"), "{printed}");
    let svg = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts: Vec<&str> = doc.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text()).collect();
    let (ws, _, _) = lesson_workspace();
    let labels = dfs::label(ws.dag(), 2, DEFAULT_ORDER).unwrap();
    for v in 0..ws.dag().num_vertices() as u32 {
        let iv = labels.interval(v, 0);
        let interval = format!("[{}, {}]", iv.low, iv.post);
        assert!(texts.contains(&interval.as_str()), "vertex {v}'s interval {interval} is not drawn");
        assert!(texts.contains(&v.to_string().as_str()), "vertex {v} is not named");
    }
    // A DFS forest of 12 vertices from 2 roots has 10 tree edges; the other 4 are drawn dim.
    let polylines: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("polyline")).collect();
    assert_eq!(polylines.len(), 14);
    let tree = polylines.iter().filter(|p| p.attribute("marker-end") == Some("url(#arrow-tree)")).count();
    assert_eq!(tree, 10);
}

#[test]
fn draw_lesson_query_as_dot_shows_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lesson.dot");
    let lesson = sample("lesson.gra");
    let (u, v) = (LESSON_PAIR.0.to_string(), LESSON_PAIR.1.to_string());
    // GRAIL's rules: with every rule a topological order cuts the pair before any search.
    let out_path = out.to_str().unwrap();
    let args =
        ["draw", lesson.to_str().unwrap(), "--dims", "1", "--query", &u, &v, "--rules", "grail", "--out", out_path];
    let printed = succeeded(&grail(&args));
    assert!(printed.contains("decided by a search"), "{printed}");
    let dot = std::fs::read_to_string(&out).unwrap();
    let graph = graphviz_rust::parse(&dot).expect("the DOT parses");
    let graphviz_rust::dot_structures::Graph::DiGraph { stmts, .. } = graph else { panic!("a digraph") };
    let nodes = stmts.iter().filter(|s| matches!(s, graphviz_rust::dot_structures::Stmt::Node(_))).count();
    assert!(nodes >= 12, "{nodes} node statements");
    // u, v, the dead ends and the legend, each by glyph.
    for glyph in ['▶', '◎', '✗'] {
        assert!(dot.contains(glyph), "no {glyph} in the DOT");
    }
    assert!(dot.contains("peripheries=2"), "the target is drawn with a double border");
    assert!(dot.contains("rounded,filled,dashed"), "dead ends are dashed");
    // No path (the answer is no), so the bold edges are the DFS tree's 10.
    let bold = dot
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('n') && l.contains(" -> n") && l.contains("style=bold"))
        .count();
    assert_eq!(bold, 10);
}

#[test]
fn draw_explains_bad_requests() {
    let dir = tempfile::tempdir().unwrap();
    let lesson = sample("lesson.gra");
    let lesson = lesson.to_str().unwrap();
    let png = dir.path().join("x.png");
    let err = failed(&grail(&["draw", lesson, "--out", png.to_str().unwrap()]));
    assert!(err.contains(".svg or .dot"), "{err}");
    let svg = dir.path().join("x.svg");
    let svg = svg.to_str().unwrap();
    let err = failed(&grail(&["draw", lesson, "--around", "99", "--out", svg]));
    assert!(err.contains("vertex 99 is not in"), "{err}");
    let err = failed(&grail(&["draw", lesson, "--query", "0", "77", "--out", svg]));
    assert!(err.contains("vertex 77"), "{err}");
    let err = failed(&grail(&["draw", lesson, "--dims", "2", "--dim", "2", "--out", svg]));
    assert!(err.contains("--dim 2 does not exist"), "{err}");
    let kegg = sample("kegg.gra");
    let err = failed(&grail(&["draw", kegg.to_str().unwrap(), "--out", svg]));
    assert!(err.contains("vertices after condensation; the picture draws at most 80 whole: pass --around V"), "{err}");
}

#[test]
fn draw_a_large_graph_around_a_hub() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("around.svg");
    let kegg = sample("kegg.gra");
    // Vertex 2 of kegg has about 1,400 children: the picture is cut and says so.
    let printed = succeeded(&grail(&[
        "draw",
        kegg.to_str().unwrap(),
        "--around",
        "2",
        "--cap",
        "30",
        "--out",
        out.to_str().unwrap(),
    ]));
    let boxes: usize = printed.split(": ").nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap();
    assert!((10..=30).contains(&boxes), "{printed}");
    let svg = std::fs::read_to_string(&out).unwrap();
    roxmltree::Document::parse(&svg).expect("well-formed XML");
    assert!(svg.contains("more ↓"), "the hub's children are cut with a marker");
}
