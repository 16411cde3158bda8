//! Rendering tests: every screen drawn on ratatui's TestBackend and compared with insta snapshots
//! (times, memory and thread counts masked).

use super::common::{Harness, kegg_path, settings};
use crate::backend::DEFAULT_DIMS;
use crate::format::thousands;
use crate::query::{Engine, Method, Rule, random_queries};
use crate::tui::gpu_offer::GpuOffer;
use crate::tui::state::query::TreeRow;
use crate::workspace::Workspace;

#[test]
fn graph_screen() {
    let mut h = Harness::new();
    settings().bind(|| {
        insta::assert_snapshot!("graph_80x24", h.render(80, 24));
        insta::assert_snapshot!("graph_120x36", h.render(120, 36));
    });
}

#[test]
fn graph_screen_shows_where_false_positives_concentrate_once_labels_exist() {
    let mut h = Harness::new();
    let before = h.render(120, 36);
    assert!(before.contains("false pos. build the labels (2, then r) to see where they concentrate"), "{before}");
    // Labels of the Labels tab's setting (d = 1: enough to let false positives through), built to the end.
    h.keys("2j<Enter>1<Enter>r");
    h.settle();
    let dims = h.app.ready.as_ref().expect("labels").dims();
    assert_eq!(dims, 1);
    h.keys("1");
    let counting = h.render(120, 36);
    assert!(counting.contains("false pos. counting… (the labels, d = 1)"), "{counting}");
    h.await_false_positives();
    let crate::tui::state::graph::FalsePositives::Counted(c) = h.app.graph.false_positives.clone() else {
        panic!("counted: {:?}", h.app.graph.false_positives)
    };
    // What the panel says is what was counted: kegg's DAG has more pairs than are sampled.
    assert!(!c.exact && c.false_positives > 0, "{c:?}");
    let after = h.render(120, 36);
    let head = format!("false pos. {} with the labels (d = 1)", thousands(c.false_positives));
    assert!(after.contains(&head), "{after}");
    assert!(after.contains(&format!("over          {}", c.over())), "{after}");
    let top = c.by_level[0];
    assert!(after.contains(&format!("source level  {} ({} of ", top.key, thousands(top.false_positives))), "{after}");
    assert!(after.contains('~'), "sampled shares are marked as estimates: {after}");
    // Before the labels, the panel is `graph_120x36`'s.
    settings().bind(|| insta::assert_snapshot!("graph_false_positives_after", after));
    // Other labels: the panel forgets the count at once and counts again.
    h.keys("2x");
    h.settle();
    h.keys("1");
    assert!(h.render(120, 36).contains("false pos. build the labels (2, then r)"));
}

#[test]
fn graph_screen_lists_the_loader_anomalies_and_the_cycles() {
    let mut h = Harness::on_sample("tiny-cycles.txt");
    let text = h.render(80, 24);
    assert!(text.contains("no duplicates, self-loops or unused ids"), "{text}");
    assert!(text.contains("2 cyclic components, 5 vertices in all"), "{text}");
    assert!(text.contains("3 vertices: 1 → 2 → 3 → 1"), "{text}");
    assert!(text.contains("2 vertices: 6 → 7 → 6"), "{text}");
}

#[test]
fn a_cycle_too_long_for_its_row_ends_in_an_ellipsis() {
    // A 40-vertex ring: its cycle, written out, is far wider than the panel at 80 columns.
    let edges: String = (0..40).map(|v| format!("{v} {}\n", (v + 1) % 40)).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ring.txt");
    std::fs::write(&path, edges).unwrap();
    let mut h = Harness::on(crate::workspace::Workspace::open(&path, None).unwrap());
    let text = h.render(80, 24);
    let row = text.lines().find(|l| l.contains("40 vertices: 0 → 1 → 2")).expect("the cycle's row");
    assert!(row.contains('…'), "a cut row says so: {row}");
}

#[test]
fn too_small_terminal_gets_a_message() {
    let mut h = Harness::new();
    let text = h.render(60, 20);
    assert!(text.contains("needs at least 80×24"), "{text}");
    settings().bind(|| insta::assert_snapshot!("too_small", text));
}

#[test]
fn help_lists_every_binding() {
    let mut h = Harness::new();
    h.keys("?");
    settings().bind(|| insta::assert_snapshot!("help", h.render(80, 40)));
}

#[test]
fn help_explains_the_batch_columns() {
    let mut h = Harness::new();
    h.keys("?");
    // The columns are at the end, their first lines four rows above the bottom's view (scrolled
    // at the size drawn last).
    h.render(80, 40);
    h.keys("Gkkkk");
    let text = h.render(80, 40);
    assert!(text.contains("method × threads"), "{text}");
    assert!(text.contains("FP%") && text.contains("search had to prove the"), "{text}");
    settings().bind(|| insta::assert_snapshot!("help_batch_columns", text));
}

#[test]
fn labels_screen_after_three_steps() {
    let mut h = Harness::new();
    h.keys("2sss");
    h.settle();
    settings().bind(|| insta::assert_snapshot!("labels_steps", h.render(100, 30)));
    h.keys("r");
    h.settle();
    assert!(h.app.ready.is_some());
    settings().bind(|| insta::assert_snapshot!("labels_done", h.render(80, 24)));
}

#[test]
fn labels_screen_dfs_says_it_has_no_levels() {
    let mut h = Harness::new();
    h.keys("2l");
    assert_eq!(h.app.labels.backend, crate::telemetry::Backend::Dfs);
    h.keys("s");
    h.settle();
    let text = h.render(80, 24);
    assert!(text.contains("no levels"), "{text}");
    assert!(h.app.ready.is_some());
}

/// The explorer's default labels of the bundled graph.
fn default_labels(h: &Harness) -> crate::index::Labels {
    assert_eq!(h.app.labels.dims, DEFAULT_DIMS, "the explorer labels as the command line does");
    crate::index::dfs::label(h.app.ws.dag(), DEFAULT_DIMS, crate::index::Order::Random { seed: 1 }).unwrap()
}

/// A pair on the bundled graph that only the search decides, with a yes.
fn searched_pair(h: &Harness) -> (u64, u64) {
    let ws = &h.app.ws;
    let labels = default_labels(h);
    let engine = Engine::new(ws.dag(), &labels, &ws.condensation.component);
    let mut scratch = engine.scratch();
    let q = random_queries(ws.loaded.graph.num_vertices(), 200_000, 1)
        .into_iter()
        .find(|q| {
            let a = engine.query(q.src, q.dst, Method::GuidedDfs, &mut scratch, false);
            a.rule == Rule::Search && a.reachable && a.false_positives > 0
        })
        .expect("kegg has searched pairs");
    (ws.loaded.names.file_id(q.src), ws.loaded.names.file_id(q.dst))
}

#[test]
fn query_screen_shows_verdict_intervals_and_tree() {
    let mut h = Harness::new();
    let (u, v) = searched_pair(&h);
    // GRAIL's rules (`R`): the paper's search, pruned by label.
    h.keys(&format!("3R/{u} {v}<Enter>"));
    h.settle();
    let result = h.app.query.result.as_ref().expect("a result");
    assert_eq!(result.answer.rule, Rule::Search);
    assert!(result.answer.reachable);
    let text = h.render(100, 30);
    assert!(text.contains("YES") && text.contains("dead end") && text.contains("on the path"), "{text}");
    settings().bind(|| insta::assert_snapshot!("query_search", text));
    // A label cut, at the minimum size.
    h.keys("/2 1<Enter>");
    h.settle();
    settings().bind(|| insta::assert_snapshot!("query_small", h.render(80, 24)));
}

#[test]
fn pruned_children_are_grouped_into_one_foldable_line() {
    let mut h = Harness::new();
    // The searched pair whose search the labels prune most (kegg has hubs of 1,607 children).
    let ws = std::sync::Arc::clone(&h.app.ws);
    let labels = default_labels(&h);
    let engine = Engine::new(ws.dag(), &labels, &ws.condensation.component);
    let mut scratch = engine.scratch();
    let (q, pruned) = random_queries(ws.loaded.graph.num_vertices(), 200_000, 1)
        .into_iter()
        .map(|q| (q, engine.query(q.src, q.dst, Method::GuidedDfs, &mut scratch, false)))
        .filter(|(_, a)| a.rule == Rule::Search)
        .map(|(q, a)| (q, a.pruned))
        .max_by_key(|&(_, pruned)| pruned)
        .expect("kegg has searched pairs");
    assert!(pruned >= 100, "a hub search prunes many children: {pruned}");
    let (u, v) = (ws.loaded.names.file_id(q.src), ws.loaded.names.file_id(q.dst));
    h.keys(&format!("3R/{u} {v}<Enter>"));
    h.settle();
    let rows = h.app.query.visible();
    assert!(rows.len() * 10 < pruned as usize, "{} lines for {pruned} pruned children", rows.len());
    let text = h.render(100, 30);
    assert!(text.contains("children pruned by label (dim"), "{text}");
    settings().bind(|| insta::assert_snapshot!("query_pruned_groups", text));
    // Space on the first group unfolds it: its children follow, one more step to the right.
    let group = rows.iter().position(|r| matches!(r, TreeRow::Pruned { .. })).unwrap();
    let TreeRow::Pruned { count, .. } = rows[group] else { unreachable!() };
    for _ in 0..group {
        h.keys("j");
    }
    h.keys(" ");
    assert_eq!(h.app.query.visible().len(), rows.len() + count);
}

#[test]
fn query_input_errors_are_messages() {
    let mut h = Harness::new();
    h.keys("3/1<Enter>");
    assert!(h.render(80, 24).contains("type two vertex ids"));
    h.keys("/x y<Enter>");
    assert!(h.render(80, 24).contains("not a vertex id"));
    h.keys("/1 99999999<Enter>");
    let text = h.render(80, 24);
    assert!(text.contains("99999999 is not"), "{text}");
    assert!(h.app.outbox.is_empty());
}

#[test]
fn a_weighted_graph_gives_the_weighted_distance_beside_the_answer() {
    let mut h = Harness::on_sample("roads.txt");
    h.keys("3/0 5<Enter>");
    h.settle();
    let text = h.render(100, 30);
    // 0 -> 2 -> 4 -> 5 weighs 2 + 0 + 5; 0 -> 2 -> 1 -> 3 -> 5 ties with it; 0 -> 1 -> 3 -> 5 weighs 8.
    assert!(text.contains("weighted distance 7: shortest path by weight 0 → 2 →"), "{text}");
    // The search's path is named as such: it need not be the shortest by weight or by edges.
    assert!(text.contains("a path (any one, not by weight): 0 → "), "{text}");
    assert!(!text.contains("│path "), "{text}");
    // Unreachable: a line that says so, in the same place.
    h.keys("/5 0<Enter>");
    h.settle();
    let text = h.render(100, 30);
    assert!(text.contains("no weighted distance: 0 is not reachable from 5"), "{text}");
    // The help explains both lines.
    h.keys("?");
    let help = h.render(100, 60);
    assert!(help.contains("weighted distance: with a file that gives edge weights"), "{help}");
    assert!(help.contains("path: a path from u to v that the answer found"), "{help}");
}

#[test]
fn query_prompt_completes_and_answers_names() {
    let mut h = Harness::on_sample("follows.csv");
    h.keys("3");
    assert!(h.render(80, 24).contains("type two vertex names (Tab completes), e.g. alice bob"));
    h.keys("/xa<Tab>Tu<Tab>");
    assert_eq!(h.app.prompt.as_ref().unwrap().text, "xavier \"Turing, Alan\" ");
    h.keys("<Enter>");
    h.settle();
    let answer = h.render(80, 24);
    assert!(answer.contains("Query xavier → \"Turing, Alan\""), "{answer}");
    settings().bind(|| insta::assert_snapshot!("query_names_answer", answer));
    h.keys("/zoey bob<Enter>");
    let text = h.render(80, 24);
    assert!(text.contains("no vertex is named `zoey`"), "{text}");
    assert!(h.app.outbox.is_empty());
    // Tab after a space lists every name to choose from.
    h.keys("/xavier <Tab>");
    assert_eq!(h.app.prompt.as_ref().unwrap().candidates.len(), 26);
    settings().bind(|| insta::assert_snapshot!("query_prompt_names", h.render(80, 24)));
}

#[test]
fn a_name_with_a_comma_is_typed_in_quotes_and_the_prompt_says_so() {
    let mut h = Harness::on_sample("follows.csv");
    h.keys("3/erin Lovelace, Ada<Enter>");
    let text = h.render(120, 30);
    assert!(text.contains("no vertex is named `erin Lovelace`"), "{text}");
    assert!(text.contains("typed in quotes"), "{text}");
    assert!(h.app.outbox.is_empty());
    h.keys("/erin \"Lovelace, Ada<Enter>");
    let text = h.render(120, 30);
    assert!(text.contains("a quote is not closed"), "{text}");
    assert!(h.app.outbox.is_empty());
}

#[test]
fn batch_screen() {
    let mut h = Harness::new();
    h.keys("4<Down><Enter><Bksp><Bksp><Bksp><Bksp><Bksp><Bksp>2000<Enter>r");
    assert_eq!(h.app.batch.count, 2000);
    h.settle();
    let result = h.app.batch.result.clone().expect("a batch result");
    assert!(result.rows.iter().all(|r| r.report.mismatches == 0 && r.report.checked == 2000));
    settings().bind(|| insta::assert_snapshot!("batch", h.render(80, 24)));
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("out");
    h.keys("x");
    h.app.prompt.as_mut().unwrap().text = base.display().to_string();
    h.keys("<Enter>");
    h.settle();
    let csv = std::fs::read_to_string(base.with_extension("csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + result.rows.len());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(base.with_extension("json")).unwrap()).unwrap();
    assert_eq!(json["queries"], 2000);
}

#[test]
fn batch_screen_on_a_gpu_machine_checks_the_gpu_row() {
    let gpu = GpuOffer::Present { name: "Stub GPU".into() };
    let mut h = Harness::offering(Workspace::open(&kegg_path(), None).unwrap(), gpu);
    h.app.graph.file = "sample-graphs/kegg.gra".into();
    h.keys("4");
    let runs = &h.app.batch.runs;
    assert!(runs[0].0.gpu && runs[0].1, "the GPU run comes first, checked");
    let text = h.render(80, 24);
    assert!(text.contains("[x] g-dfs+bfs  GPU: Stub GPU"), "{text}");
    assert!(text.contains("[ ] bfs        all threads"), "every run row fits: {text}");
    settings().bind(|| insta::assert_snapshot!("batch_gpu", text));
}

#[test]
fn batch_on_a_large_graph_says_why_there_are_no_expected_answers() {
    let edges: Vec<(u32, u32)> = (0..299_999).map(|v| (v, v + 1)).collect();
    let graph = crate::graph::Graph::from_edges(300_000, &edges).unwrap();
    let ws = Workspace::of_graph(graph, "chain.txt");
    let mut h = Harness::on(ws);
    h.keys("4");
    let text = h.render(100, 30);
    assert!(
        text.contains("no expected answers: the exact closure is computed only up to 200,000 condensed vertices"),
        "{text}"
    );
    assert!(text.contains("graph has 300,000); a query file's third column"), "{text}");
}

#[test]
fn open_prompt_selects_the_pre_filled_folder() {
    let mut h = Harness::new();
    h.keys("o");
    let text = h.render(80, 24);
    assert!(text.contains("sample-graphs/▏  typing replaces it"), "{text}");
    settings().bind(|| insta::assert_snapshot!("open_prompt", text));
    h.keys("/tmp/x.gra");
    assert_eq!(h.app.prompt.as_ref().unwrap().text, "/tmp/x.gra");
}

#[test]
fn exceptions_screen() {
    let mut h = Harness::new();
    h.keys("5r");
    h.settle();
    let counts = &h.app.exceptions.result.as_ref().expect("counts").counts;
    assert!(counts.exact);
    assert!(counts.false_positives.windows(2).all(|w| w[0] >= w[1]));
    settings().bind(|| insta::assert_snapshot!("exceptions", h.render(80, 24)));
}

#[test]
fn no_color_theme_paints_no_colour() {
    let h = Harness::new();
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| drop(crate::tui::ui::render(f, &h.app))).unwrap();
    let buffer = terminal.backend().buffer();
    assert!(
        buffer.content.iter().all(|c| c.fg == ratatui::style::Color::Reset && c.bg == ratatui::style::Color::Reset)
    );
}

/// The first random pair on the bundled graph whose answer with every rule (the explorer's
/// default) `wanted` accepts, as file ids, with that answer.
fn pair_with_every_rule(
    h: &Harness,
    wanted: impl Fn(&crate::query::Answer) -> bool,
) -> ((u64, u64), crate::query::Answer) {
    let ws = &h.app.ws;
    let labels = default_labels(h);
    let index = crate::query::QueryIndex::build(ws.dag(), &labels).unwrap();
    let engine = Engine::new(ws.dag(), &labels, &ws.condensation.component).with_index(Some(&index));
    let mut scratch = engine.scratch();
    random_queries(ws.loaded.graph.num_vertices(), 200_000, 1)
        .into_iter()
        .find_map(|q| {
            let a = engine.query(q.src, q.dst, Method::GuidedBfs, &mut scratch, false);
            wanted(&a).then(|| ((ws.loaded.names.file_id(q.src), ws.loaded.names.file_id(q.dst)), a))
        })
        .expect("kegg has such a pair")
}

#[test]
fn with_every_rule_the_query_tab_shows_both_sides_of_the_search() {
    let mut h = Harness::new();
    // A pair every rule leaves to the (bidirectional) search. (On kegg the forward side settles
    // them all before the backward side moves; the recorder's unit test covers backward nodes.)
    let ((u, v), _) = pair_with_every_rule(&h, |a| a.rule == Rule::Search);
    h.keys(&format!("3/{u} {v}<Enter>"));
    h.settle();
    let result = h.app.query.result.as_ref().expect("a result");
    assert_eq!(result.answer.rule, Rule::Search);
    assert_eq!(result.trace.method, Method::GuidedBfs, "every rule runs the bidirectional search");
    let text = h.render(100, 30);
    assert!(text.contains("rules: all") && text.contains("bidirectional"), "{text}");
    // `R` switches to GRAIL's rules for the next query: its DFS has no backward side.
    h.keys(&format!("R/{u} {v}<Enter>"));
    h.settle();
    let result = h.app.query.result.as_ref().expect("a result");
    assert!(result.trace.nodes.iter().all(|n| !n.backward));
    assert!(h.render(100, 30).contains("rules: grail"));
}

#[test]
fn a_topological_cut_is_drawn_on_its_number_line() {
    let mut h = Harness::new();
    let ((u, v), answer) = pair_with_every_rule(&h, |a| a.rule == Rule::TopoCut);
    let order = answer.witness.expect("the order that cut");
    // With labels built, the panel draws the intervals under the orders.
    h.keys("2r");
    h.settle();
    h.keys(&format!("3/{u} {v}<Enter>"));
    h.settle();
    let result = h.app.query.result.as_ref().expect("a result");
    assert_eq!((result.answer.rule, result.answer.witness), (Rule::TopoCut, Some(order)));
    let (tu, tv) = result.topo.expect("every rule: the positions are shown");
    assert!(tu[order] >= tv[order], "u comes after v in the order that cut");
    let text = h.render(100, 30);
    let cut_line =
        format!("t{} u {} · v {} ✗ cut", order + 1, thousands(u64::from(tu[order])), thousands(u64::from(tv[order])));
    assert!(text.contains("Topological orders, intervals") && text.contains(&cut_line), "{text}");
    settings().bind(|| insta::assert_snapshot!("query_topological_cut", text));
}

#[test]
fn batch_lists_the_exact_bfs_rows_last_and_unchecked() {
    let mut h = Harness::on(crate::workspace::Workspace::bundled().unwrap());
    h.keys("4G");
    let text = h.render(100, 30);
    assert!(text.contains("[ ] exact bfs  cpu, first 1,000"), "{text}");
    assert!(!text.contains("gpu-binned"), "no GPU row without a GPU: {text}");
    // At 80x24 the last row brings the note on the missing GPU into view, nothing left below.
    let text = h.render(80, 24);
    assert!(text.contains("GPU: none on this machine") && !text.contains("↓"), "{text}");
}

#[test]
fn batch_charts_the_widest_bfs_of_an_exact_row() {
    let graph = crate::graph::generators::random_digraph(400, 1.4, 3).unwrap();
    let mut h = Harness::on(Workspace::of_graph(graph, "digraph.txt"));
    // 2,000 random pairs; `G` moves to the last row, the exact CPU BFS (no GPU here), and Space checks it.
    h.keys("4<Down><Enter><Bksp><Bksp><Bksp><Bksp><Bksp><Bksp>2000<Enter>G ");
    assert!(h.render(80, 24).contains(crate::tui::views::bfs_frontier::HINT), "the hint before any exact run");
    h.keys("r");
    h.settle();
    let result = h.app.batch.result.clone().expect("a batch result");
    let row = result.rows.iter().find(|r| r.exact).expect("the exact row ran");
    let f = row.frontier.as_ref().expect("its widest BFS");
    assert_eq!(f.frontier_sizes.iter().sum::<u64>(), f.reached);
    assert!(f.frontier_sizes.len() > 3, "a BFS with levels to draw: {:?}", f.frontier_sizes);
    let text = h.render(80, 24);
    let title = format!("BFS frontier: cpu from {}", f.source_label);
    let head = format!("{} reached in {} levels", thousands(f.reached), f.frontier_sizes.len());
    assert!(text.contains(&title) && text.contains(&head), "{text}");
    assert!(!text.contains(crate::tui::views::bfs_frontier::HINT), "{text}");
    settings().bind(|| insta::assert_snapshot!("batch_bfs_frontier", text));
    // The cursor elsewhere: the chart stays (the last exact row that ran).
    h.keys("gj");
    assert!(h.render(80, 24).contains(&title));
}

/// kegg `/1 2` with every rule: the level cut runs first, so the explanation speaks of levels only
/// (the intervals do not fit: every dimension cuts), and the panel says the labels were not checked.
/// Asked before there are labels, the query index answers alone and the screen says so; asked
/// again with labels, the answer and its explanation are the same.
#[test]
fn the_explanation_speaks_only_of_the_checks_that_ran() {
    let mut h = Harness::new();
    for labels in [false, true] {
        if labels {
            h.keys("2r");
            h.settle();
        }
        h.keys("3/1 2<Enter>");
        h.settle();
        assert_eq!(h.app.query.result.as_ref().map(|r| r.labels_ready), Some(labels));
        for (w, ht) in [(80, 24), (140, 45), (200, 60)] {
            let text = h.render(w, ht);
            assert!(text.contains("decided by level-cut"), "{text}");
            assert!(text.contains("checked in order: same-component, level-cut → no"), "{text}");
            assert!(text.contains("1 is on level 16 and 2 on level 14"), "{text}");
            assert!(!text.contains("maybe") && !text.contains("fit in every"), "{text}");
            if labels {
                assert!(text.contains("unused by the answer: orders, labels"), "{text}");
                assert!(!text.contains("no labels"), "{text}");
            } else {
                assert!(text.contains("no labels when answered"), "{text}");
                assert!(text.contains("no labels yet: decided by a check that runs before the labels"), "{text}");
                assert!(text.contains("unused by the answer: orders") && !text.contains("orders, labels"), "{text}");
            }
        }
    }
}

/// `/2 1`, then `R`: the query is answered again at once with GRAIL's rules, and the verdict
/// names a rule of that set (never "supportive-path" under "rules: grail").
#[test]
fn switching_the_rules_answers_the_query_again() {
    let mut h = Harness::new();
    h.keys("3/2 1<Enter>");
    h.settle();
    let text = h.render(100, 30);
    assert!(text.contains("decided by supportive-path") && text.contains("rules: all"), "{text}");
    assert!(text.contains("path 2 → 0 → 1 (2 edges)"), "the path found is shown: {text}");
    h.keys("R");
    h.settle();
    let result = h.app.query.result.as_ref().unwrap();
    assert_eq!(result.decision.rules, crate::query::RuleSet::Grail);
    assert!(crate::query::RuleSet::Grail.rules().contains(&result.answer.rule));
    let text = h.render(100, 30);
    assert!(text.contains("rules: grail") && !text.contains("supportive-path"), "{text}");
    // Back with every rule, in the Batch tab too (one choice for every view).
    h.keys("4R3");
    h.settle();
    assert_eq!(h.app.batch.rules, crate::query::RuleSet::All);
    assert!(h.render(100, 30).contains("decided by supportive-path"));
}

#[test]
fn the_frontier_chart_says_what_its_bars_and_axes_mean() {
    use crate::telemetry::{Event, Phase, QueueSizes};
    let mut h = Harness::new();
    h.keys("2");
    let queues = QueueSizes { small: 7, medium: 0, large: 0 };
    for (phase, from) in [(Phase::PostOrder, "roots first"), (Phase::MinPost, "leaves first")] {
        let dim = 0;
        h.app.labels.apply(&Event::PhaseStarted { dim, phase });
        h.app.labels.apply(&Event::LevelDone { dim, phase, level: 0, span: 5, queues, edges_scanned: 0, seconds: 0.0 });
        let sizes: Vec<u64> = h.app.labels.frontier[&dim].levels.iter().map(QueueSizes::total).collect();
        assert_eq!(sizes, [2, 2, 1, 1, 1], "one group of 5 levels, its 7 vertices split evenly");
        let text = h.render(200, 60);
        assert!(text.contains(&format!("Frontier (y) per level (x), {from}")), "{text}");
        assert!(text.contains(&format!("dim 0 {phase}: levels 0-4 of 5")), "{text}");
        let long = "5 of 5 levels were measured in groups of tiny levels: each bar is its group's total split evenly";
        assert!(text.contains(long), "{text}");
        let narrow = h.render(80, 24);
        assert!(narrow.contains("5 of 5 bars split a group's total evenly"), "{narrow}");
        assert!(!text.contains("averaged"), "{text}");
        // The y axis: the peak on top, and 1 (not 0) on the bottom row every column of 1 fills.
        let rows: Vec<&str> = text.lines().filter(|l| l.contains("┤")).collect();
        assert!(rows.iter().any(|l| l.contains("│2┤")), "{text}");
        let bottom = rows.iter().find(|l| l.contains("│1┤")).expect("the bottom row is labelled 1");
        assert!(bottom.contains('█'), "every column of 1 fills the bottom row: {bottom}");
        assert!(!rows.iter().any(|l| l.contains("0┤")), "{text}");
    }
    h.keys("?");
    let help = h.render(100, 60);
    assert!(help.contains("Frontier chart"), "the help explains the chart: {help}");
    assert!(help.contains("bottom row is"), "{help}");
}

#[test]
fn the_exceptions_pairs_fit_a_narrow_panel_whole() {
    let mut h = Harness::new();
    h.keys("5r");
    h.settle();
    let text = h.render(80, 24);
    assert!(text.contains("╭ Pairs (j/k, Enter: picture) ─"), "{text}");
    assert!(text.contains(": nested in dim 0 to 4        │"), "rows end whole: {text}");
    let wide = h.render(200, 60);
    assert!(wide.contains("False-positive pairs (j/k choose, Enter shows on the picture)"), "{wide}");
    assert!(wide.contains(": nested in dimensions 0 to 4, yet unreachable"), "{wide}");
}

#[test]
fn what_dominates_names_the_component_a_count_includes() {
    let mut h = Harness::on_sample("follows.csv");
    let text = h.render(200, 60);
    // As `grail info --deep` says it: alice's 23 include bob and carol, her component mates.
    assert!(text.contains("alice [in a component of 3 vertices] reaches 23 others"), "{text}");
    assert!(!text.contains("alice reaches"), "{text}");
}

#[test]
fn the_graph_tab_draws_no_box_without_room_for_its_content() {
    let mut h = Harness::on_sample("follows.csv");
    for (w, ht) in [(80, 24), (120, 36), (200, 60)] {
        let text = h.render(w, ht);
        let lines: Vec<&str> = text.lines().collect();
        // A box's top border followed at once by its bottom border holds nothing.
        for pair in lines.windows(2) {
            for (k, c) in pair[0].char_indices().filter(|&(_, c)| c == '╭') {
                let column = pair[0][..k].chars().count();
                let below = pair[1].chars().nth(column);
                assert_ne!(below, Some('╰'), "{w}x{ht}: an empty box {c}:\n{text}");
            }
        }
        // The right column opens with a box: nothing stands on the border row beside the Graph box.
        assert_eq!(lines[1].chars().nth(38), Some('╭'), "{w}x{ht}:\n{text}");
        // What dominates shows its first line at least, never only a promise of it.
        let title = lines.iter().position(|l| l.contains("What dominates")).expect("the panel");
        assert!(lines[title + 1].contains("hubs out   alice (3)"), "{w}x{ht}:\n{text}");
        let all = text.contains("false pos. build the labels");
        assert_eq!(all, !lines[title].contains("more"), "{w}x{ht}: the title says when rows are left out:\n{text}");
    }
    // Without room for the chart at all, its rows go to what dominates.
    let text = h.render(90, 27);
    assert!(!text.contains("per topological level (x)") && text.contains("hubs in    zoe (4)"), "{text}");
    let small = h.render(80, 24);
    assert!(!small.contains("per topological level (x)") && !small.contains("a taller window shows them"), "{small}");
    assert!(small.contains("What dominates · 6 more: taller window"), "{small}");
}

/// Every run checked at 80x24: the table shows what fits and its last row says how many runs are
/// not shown; at 200x60 all of them are.
#[test]
fn batch_results_taller_than_the_panel_say_what_is_not_shown() {
    let mut h = Harness::new();
    h.keys("4<Down><Enter><Bksp><Bksp><Bksp><Bksp><Bksp><Bksp>2000<Enter>");
    h.run_every_batch_run();
    h.settle();
    let runs = h.app.batch.result.as_ref().expect("a batch result").rows.len();
    let text = h.render(80, 24);
    let run_row = |l: &&str| ["│g-", "│dfs", "│bfs", "│exact"].iter().any(|p| l.starts_with(p));
    let hidden = runs - text.lines().filter(run_row).count();
    assert!(hidden > 0, "{runs} runs all fit 80x24:\n{text}");
    let more = format!("… {hidden} more run{} (a taller terminal shows them)", if hidden == 1 { "" } else { "s" });
    assert!(text.contains(&more), "{more}\n{text}");
    let tall = h.render(200, 60);
    assert!(!tall.contains("a taller terminal shows them"), "{tall}");
    assert!(tall.contains("│exact cpu"), "{tall}");
}
