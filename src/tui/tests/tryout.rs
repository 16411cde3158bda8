//! What a new user meets at the smallest terminal (80×24) and on wide ones: every sentence true for
//! the state on screen, and none cut in the middle of a word.

use super::common::{Harness, settings};
use crate::tui::action::Tab;

/// Every rendered row, for assertions that look at one line.
fn rows(text: &str) -> Vec<&str> {
    text.lines().collect()
}

#[test]
fn a_pair_inside_one_component_is_in_the_same_place_in_both_orders() {
    let mut h = Harness::on_sample("tiny-cycles.txt");
    // 1, 2 and 3 form a cycle: one vertex of the DAG.
    h.keys("3/1 3<Enter>");
    h.settle();
    let r = h.app.query.result.as_ref().expect("answered");
    assert_eq!(r.cu, r.cv);
    for (width, height) in [(80, 24), (140, 45)] {
        let text = h.render(width, height);
        assert!(!text.contains("before v") && !text.contains("after v"), "{text}");
        let tags = rows(&text).iter().filter(|l| l.contains("t1 u 2 · v 2 same component")).count();
        assert_eq!(tags, 1, "{text}");
    }
    settings().bind(|| insta::assert_snapshot!("tryout_same_component_80x24", h.render(80, 24)));
}

#[test]
fn the_interval_tags_are_whole_and_the_panel_grows_with_the_terminal() {
    let mut h = Harness::new();
    h.keys("3R/0 3<Enter>");
    h.settle();
    for (width, height) in [(80, 24), (200, 60)] {
        let text = h.render(width, height);
        let d0 = rows(&text).into_iter().find(|l| l.contains("d0 u [")).expect("dimension 0's head");
        assert!(d0.contains(" ✗ cut"), "the cut's tag whole: {d0}");
        // The panel's width, borders included: two fifths of the terminal, at least 38 columns.
        let panel = d0.chars().skip(1).position(|c| c == '│').expect("the right border") + 2;
        assert_eq!(panel, usize::from((width * 2 / 5).max(38)), "{d0}");
    }
    settings().bind(|| insta::assert_snapshot!("tryout_interval_cut_80x24", h.render(80, 24)));
}

#[test]
fn the_graph_tab_wraps_its_sentences_and_shortens_cycles_at_whole_names() {
    let mut h = Harness::on_sample("follows.csv");
    let text = h.render(80, 24);
    for whole in [
        "named vertices, numbered 0 to 25 by",
        "first appearance",
        "fields split at commas (chosen from line",
        "› 3 vertices: alice → … +2 → alice",
    ] {
        assert!(text.contains(whole), "{whole:?} missing: {text}");
    }
    // `… +1` would hide one name behind a marker that could show it.
    assert!(!text.contains("… +1 "), "{text}");
    settings().bind(|| insta::assert_snapshot!("tryout_graph_follows_80x24", text));
}

#[test]
fn the_exceptions_count_pairs_of_components_and_rows_are_never_cut() {
    let mut h = Harness::on_sample("follows.csv");
    h.keys("5r");
    h.settle();
    let text = h.render(80, 24);
    assert!(text.contains("pairs of the 24") && text.contains("components (vertices of the DAG)"), "{text}");
    assert!(text.contains("│olivia ⇝ \"Hopper, Grace\" (dim 0 to 4) │"), "{text}");
    settings().bind(|| insta::assert_snapshot!("tryout_exceptions_follows_80x24", text));
}

#[test]
fn opening_a_graph_on_the_picture_tab_draws_it() {
    let mut h = Harness::on_sample("tiny-cycles.txt");
    h.keys("6");
    h.settle();
    let lesson = concat!(env!("CARGO_MANIFEST_DIR"), "/sample-graphs/lesson.gra");
    h.keys(&format!("o{lesson}<Enter>"));
    // The load, then the drawing it asks for.
    while !h.app.outbox.is_empty() {
        h.settle();
    }
    assert_eq!(h.app.tab, Tab::Picture);
    let picture = &h.app.picture.result.as_ref().expect("the new graph is drawn").picture;
    assert_eq!(picture.nodes.len(), 12);
    let text = h.render(80, 24);
    assert!(text.contains("lesson.gra (12 vertices)") && !text.contains("nothing drawn"), "{text}");
}

#[test]
fn the_picture_says_what_brings_u_and_v_into_view() {
    let mut h = Harness::on_sample("follows.csv");
    h.keys("6");
    h.settle();
    h.keys("/xavier \"Turing, Alan\"<Enter>");
    while !h.app.outbox.is_empty() {
        h.settle();
    }
    let text = h.render(80, 24);
    // No zoom shows both beside the side panel: z would change nothing, p makes the room.
    assert!(!text.contains("z fits them"), "{text}");
    assert!(text.contains("v not wholly in view: p") && text.contains("room for both"), "{text}");
    settings().bind(|| insta::assert_snapshot!("tryout_picture_off_screen_80x24", text.clone()));
    h.keys("p");
    h.render(80, 24);
    let (scene, view) = (h.app.picture.scene().unwrap(), h.app.picture.view().unwrap());
    assert!(h.app.picture.targets.iter().all(|&i| scene.shows(view, i)), "without the panel both are in view");
}

#[test]
fn small_graphs_chart_every_level_at_its_real_frontier() {
    let mut h = Harness::on_sample("lesson.gra");
    h.keys("2j<Enter>1<Enter>r");
    h.settle();
    let (_, f) = h.app.labels.focused_frontier().expect("a frontier chart");
    assert_eq!(f.averaged, 0, "no level is drawn at a group's average");
    let sizes: Vec<u64> = f.levels.iter().map(|q| q.total()).collect();
    // Min-post, leaves first: the Kahn levels of the lesson DAG from the deepest, 12 vertices in all.
    assert_eq!(sizes.iter().sum::<u64>(), 12, "{sizes:?}");
    assert!(sizes.iter().any(|&s| s != sizes[0]), "the levels differ, and so do their bars: {sizes:?}");
    settings().bind(|| insta::assert_snapshot!("tryout_lesson_frontier_80x24", h.render(80, 24)));
}

#[test]
fn the_tab_bar_names_the_bundled_graph_with_its_counts() {
    let mut h = Harness::new();
    let wide = h.render(140, 45);
    assert!(wide.contains("the bundled sample kegg.gra: 3,617 vertices, 3,908 edges"), "{wide}");
    let narrow = h.render(100, 30);
    assert!(narrow.lines().next().unwrap().ends_with("kegg.gra: 3,617 vertices"), "{narrow}");
}

#[test]
fn what_dominates_wraps_an_item_too_wide_for_its_row() {
    let mut h = Harness::new();
    let text = h.render(80, 40);
    // No head is left alone without its item, and no sentence is cut.
    assert!(text.contains("│reached    427 is reached by 1,350      │"), "{text}");
    assert!(text.contains("│           others                       │"), "{text}");
    assert!(text.contains("│false pos. build the labels (2, then    │"), "{text}");
    assert!(text.contains("│  r) to see where they concentrate      │"), "{text}");
    settings().bind(|| insta::assert_snapshot!("tryout_graph_kegg_80x40", text));
}

#[test]
fn counts_of_another_seed_say_so_until_counted_again() {
    let mut h = Harness::on_sample("follows.csv");
    h.keys("5r");
    h.settle();
    h.keys("l");
    let text = h.render(80, 24);
    assert!(text.contains("seed 2") && text.contains("these are seed 1's counts"), "{text}");
    h.keys("r");
    h.settle();
    assert!(!h.render(80, 24).contains("these are seed"));
}

/// A pair the query index's cuts leave open is answered before the labels by a search they guide;
/// the labels are built next and the pair is asked again with them.
#[test]
fn a_query_searched_before_the_labels_builds_them_and_is_asked_again() {
    use crate::index::{Order, dfs};
    use crate::query::{Engine, Method, QueryIndex, Rule};
    let mut h = Harness::new();
    let ws = crate::workspace::Workspace::open(&super::common::kegg_path(), None).unwrap();
    let (dag, component) = (ws.dag(), &ws.condensation.component);
    let labels = dfs::label(dag, 5, Order::Random { seed: 1 }).unwrap();
    let index = QueryIndex::build(dag, &labels).unwrap();
    let engine = Engine::new(dag, &labels, component).with_index(Some(&index));
    let mut scratch = engine.scratch();
    // A pair that only the labels' checks decide: before them, a search must.
    let n = component.len() as u32;
    let (u, v) = (0..n)
        .flat_map(|u| (0..n).map(move |v| (u, v)))
        .find(|&(u, v)| {
            let rule = engine.query(u, v, Method::GuidedBfs, &mut scratch, false).rule;
            matches!(rule, Rule::LabelCut | Rule::TreeCut)
        })
        .expect("kegg has pairs the labels decide");
    let names = &ws.loaded.names;
    h.keys(&format!("3/{} {}<Enter>", names.label(u), names.label(v)));
    h.settle();
    let r = h.app.query.result.as_ref().expect("answered");
    assert_eq!((r.labels_ready, r.answer.rule), (false, Rule::Search), "searched before the labels");
    let reachable = r.answer.reachable;
    assert!(h.app.ready.is_some(), "the labels were built after the answer");
    let text = h.render(200, 60);
    assert!(text.contains("answered before the labels, by a search that the query index's cuts guided"), "{text}");
    assert!(text.contains("the labels were not built yet, so their cuts"), "{text}");
    // Asked again with the labels: the same verdict, now by their checks.
    h.settle();
    let r = h.app.query.result.as_ref().expect("answered");
    assert!(r.labels_ready && r.answer.reachable == reachable, "{:?}", r.answer);
    assert!(matches!(r.answer.rule, Rule::LabelCut | Rule::TreeCut), "{:?}", r.answer);
    for (width, height) in [(80, 24), (200, 60)] {
        let text = h.render(width, height);
        assert!(!text.contains("before the labels") && !text.contains("not built yet"), "{text}");
        assert!(text.contains("asked again with the labels built since the first answer"), "{text}");
    }
    // A pair asked afresh is no answer asked again.
    h.keys("/0 10<Enter>");
    h.settle();
    assert!(!h.render(200, 60).contains("asked again with the labels"));
}

#[test]
fn a_query_answered_before_the_labels_is_answered_again_with_them() {
    let mut h = Harness::on_sample("follows.csv");
    h.keys("3/xavier \"Turing, Alan\"<Enter>");
    h.settle();
    assert!(!h.app.query.result.as_ref().expect("answered").labels_ready, "decided before the labels");
    assert!(h.render(200, 60).contains("no labels yet"));
    // The picture of the query builds the labels; the query on screen is then asked again with them.
    h.keys("6");
    h.settle();
    assert!(h.app.ready.is_some(), "labels built");
    h.settle();
    let r = h.app.query.result.as_ref().expect("answered");
    assert!(r.labels_ready && r.answer.reachable, "answered again with the labels, the same verdict");
    h.keys("3");
    for (width, height) in [(80, 24), (200, 60)] {
        let text = h.render(width, height);
        assert!(!text.contains("no labels"), "{text}");
    }
}

#[test]
fn an_answer_of_a_pair_asked_before_another_is_not_shown_over_it() {
    let mut h = Harness::new();
    h.keys("3/2 1<Enter>");
    h.settle();
    let first = h.app.query.result.clone().expect("answered");
    h.keys("/0 3<Enter>");
    h.settle();
    // `2 → 1` answered again (say, with new labels) arriving after `0 → 3` was answered: dropped.
    h.app.on_worker(crate::tui::worker::Msg::QueryDone(first));
    let shown = h.app.query.result.as_ref().expect("answered");
    assert_eq!((shown.u, shown.v), (0, 3));
}

#[test]
fn the_loader_lines_wrap_at_whole_words_keeping_their_line_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("anom.txt");
    let text = "# comment one\n% comment two\n\n0 1\n0 1\n1 1\n1 2\n\n2 0\n5 6 7.5\n6\t7\n7 5\n9 9\n# end\n";
    std::fs::write(&path, text).unwrap();
    let mut h = Harness::on(crate::workspace::Workspace::open(&path, None).unwrap());
    h.app.graph.file = "anom.txt".into();
    for (width, height) in [(80, 24), (200, 60)] {
        let screen = h.render(width, height);
        // The panel's rows joined: each sentence whole, however it wraps.
        let panel: Vec<&str> = rows(&screen)
            .iter()
            .filter_map(|l| l.split('│').nth(3).map(str::trim))
            .filter(|cell| !cell.is_empty())
            .collect();
        let joined = panel.join(" ");
        for whole in [
            "1 vertex only in self-loops, left without an edge (9)",
            "1 line has more fields than the format's columns, the extra ones not read (line 10)",
        ] {
            assert!(joined.contains(whole), "{whole:?} missing at {width}x{height}: {screen}");
        }
    }
    settings().bind(|| insta::assert_snapshot!("tryout_graph_anomalies_80x24", h.render(80, 24)));
}

#[test]
fn the_side_panel_says_more_only_where_its_rows_are_all_used() {
    let mut h = Harness::on_sample("lesson.gra");
    h.keys("2r");
    h.settle();
    h.keys("6");
    h.settle();
    h.keys("pp");
    let text = h.render(80, 24);
    let panel: Vec<&str> = rows(&text).iter().filter_map(|l| l.rsplit('│').nth(1)).collect();
    if let Some(at) = panel.iter().position(|cell| cell.contains("… more (a taller terminal)")) {
        // The marker is the panel's last row: the bottom border follows it.
        assert_eq!(at + 1, panel.len(), "rows left empty below the marker: {text}");
    }
    settings().bind(|| insta::assert_snapshot!("tryout_side_panel_full_80x24", text));
}

#[test]
fn the_open_prompt_starts_in_a_folder_that_is_there() {
    let mut h = Harness::new();
    // Where the program runs from the source tree, the bundled graph's folder is there.
    h.keys("o");
    assert_eq!(h.app.prompt.as_ref().expect("a prompt").text, "sample-graphs/");
    h.keys("<Esc>");
    // Elsewhere the bundled graph's name names no folder: the prompt starts in the working one.
    h.app.graph.file = "no-such-folder-here/kegg.gra".into();
    h.keys("o");
    assert_eq!(h.app.prompt.as_ref().expect("a prompt").text, "");
}
