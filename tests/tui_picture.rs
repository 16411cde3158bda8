//! The explorer's picture tab (6) on the lesson graph: the stepper's progress drawn level by level,
//! a query's search, and an exception chosen in tab 5, as a teacher would show them.

mod tui_common;

use grail::draw::NodeState;
use grail::tui::action::Tab;
use grail::tui::worker::{Focus, PictureLabels};
use tui_common::{Harness, settings};

fn lesson() -> Harness {
    let mut h = Harness::on_sample("lesson.gra");
    // The lesson uses one dimension, where the false positive 0 ⇝ 10 lives.
    h.keys("2j<Enter>1<Enter>");
    assert_eq!(h.app.labels.dims, 1);
    h.keys("6");
    assert_eq!(h.app.tab, Tab::Picture);
    h.settle();
    h
}

/// How many drawn vertices show a value the stepper computed (post numbers).
fn with_post(h: &Harness) -> usize {
    let picture = &h.app.picture.result.as_ref().unwrap().picture;
    picture.nodes.iter().filter(|n| n.step.is_some_and(|s| s.post.is_some())).count()
}

#[test]
fn stepping_fills_the_picture_in_phase_by_phase() {
    let mut h = lesson();
    let picture = &h.app.picture.result.as_ref().expect("the tab draws at once").picture;
    assert_eq!(picture.nodes.len(), 12, "a small graph is drawn whole");
    settings().bind(|| insta::assert_snapshot!("picture_tab_not_started", h.render(120, 36)));

    // Parent selection, two levels: the frontier is highlighted, parents become tree edges.
    h.keys("ss");
    h.settle();
    let picture = &h.app.picture.result.as_ref().unwrap().picture;
    assert!(picture.nodes.iter().any(|n| matches!(n.state, NodeState::Frontier(_))), "the frontier shows");
    assert_eq!(with_post(&h), 0, "no post numbers during parent selection");
    settings().bind(|| insta::assert_snapshot!("picture_tab_parent_selection", h.render(120, 36)));

    // The rest of phase 1, phase 2 (sizes), and phase 3 (post-order): post numbers land.
    h.keys("fff");
    h.settle();
    assert_eq!(with_post(&h), 12, "post-order done: every vertex has its number");
    settings().bind(|| insta::assert_snapshot!("picture_tab_post_order", h.render(120, 36)));

    h.keys("r");
    h.settle();
    assert!(h.app.ready.is_some());
    let picture = &h.app.picture.result.as_ref().unwrap().picture;
    assert!(picture.nodes.iter().all(|n| n.interval.is_some()), "finished: every interval shown");
}

#[test]
fn a_query_draws_its_search_with_the_dead_ends() {
    let mut h = lesson();
    h.keys("r");
    h.settle();
    h.keys("/0 10<Enter>");
    h.settle();
    assert_eq!(h.app.picture.focus, Focus::Query { u: 0, v: 10 });
    h.settle();
    // With every rule (the default), the picture and the Query tab give one answer: a topological
    // order cuts the pair before any search.
    let rule = h.app.query.result.as_ref().unwrap().answer.rule;
    assert_eq!(rule, grail::query::Rule::TopoCut);
    let picture = &h.app.picture.result.as_ref().unwrap().picture;
    let caption = format!("no (all rules), decided by {rule}");
    assert!(picture.notes.iter().any(|n| n.contains(&caption) && n.contains("all rules")), "{:?}", picture.notes);
    // R: GRAIL's rules in every view, the query answered again at once: the search and its dead ends.
    h.keys("R");
    h.settle();
    assert_eq!(h.app.query.result.as_ref().unwrap().answer.rule, grail::query::Rule::Search);
    let picture = &h.app.picture.result.as_ref().unwrap().picture;
    let state = |v: u32| picture.nodes[picture.node_of(v).unwrap()].state;
    assert_eq!((state(0), state(10)), (NodeState::Source, NodeState::Target));
    let marked = picture.nodes.iter().filter(|n| n.state == NodeState::DeadEnd).count();
    assert!(marked > 0, "the false positive's dead ends");
    assert!(picture.notes.iter().any(|n| n.contains("no (grail rules), decided by a search")), "{:?}", picture.notes);
    // The count the caption gives is the boxes drawn: u itself and those marked ✗.
    let dead = h.app.query.result.as_ref().unwrap().answer.false_positives;
    let accounted = format!("{dead} dead ends: u itself (▶), {marked} marked ✗");
    assert!(picture.notes.iter().any(|n| n == &accounted), "{accounted} in {:?}", picture.notes);
    settings().bind(|| insta::assert_snapshot!("picture_tab_search", h.render(120, 36)));
}

#[test]
fn an_exception_chosen_in_tab_5_is_shown_on_the_picture() {
    let mut h = lesson();
    h.keys("5r");
    h.settle();
    let chosen = h.app.exceptions.chosen().expect("the lesson graph has a false positive");
    h.keys("<Enter>");
    assert_eq!(h.app.tab, Tab::Picture);
    h.settle();
    let picture = &h.app.picture.result.as_ref().unwrap().picture;
    let state = |v: u32| picture.nodes[picture.node_of(v).unwrap()].state;
    assert_eq!((state(chosen.0), state(chosen.1)), (NodeState::Source, NodeState::Target));
    // Nested intervals in dimension 0, which is why the labels could not say no.
    let interval = |v: u32| picture.nodes[picture.node_of(v).unwrap()].interval.unwrap();
    assert!(interval(chosen.0).contains(interval(chosen.1)));
}

#[test]
fn an_exception_is_drawn_with_its_own_labels_when_the_labels_tab_has_others() {
    // Lesson steps 1-6: one dimension and the query 0 ⇝ 10, then two dimensions, labeled to the
    // end and shown in dimension 1 (where the label cut decides 0 ⇝ 10).
    let mut h = lesson();
    h.keys("r");
    h.settle();
    h.keys("/0 10<Enter>");
    h.settle();
    h.settle();
    h.keys("2<Enter>2<Enter>6r");
    h.settle();
    h.keys("]");
    h.settle();
    assert_eq!(h.app.labels.dims, 2);
    assert_eq!(h.app.picture.result.as_ref().unwrap().picture.dim, 1);

    // Step 7: the exceptions of d = 1..5; the chosen pair fools one dimension only.
    h.keys("5r");
    h.settle();
    let (cu, cv, k) = h.app.exceptions.chosen().expect("the lesson graph has a false positive");
    assert_eq!(k, 1, "two dimensions leave no false positive on the lesson graph");
    // 0 ⇝ 5 is nested too, but both are roots: the level cut refutes it, no search walks it.
    assert_eq!((cu, cv), (0, 10), "first the pairs a search must walk");
    h.keys("<Enter>");
    assert_eq!(h.app.tab, Tab::Picture);
    assert_eq!(h.app.picture.labels, PictureLabels::Exception { dims: 1, seed: 1 });
    h.settle();
    let picture = &h.app.picture.result.as_ref().unwrap().picture;
    assert_eq!((picture.dims, picture.dim), (Some(1), 0), "the exception's d = 1 labels, dimension 0");
    let node = |v: u32| &picture.nodes[picture.node_of(v).unwrap()];
    assert_eq!((node(cu).state, node(cv).state), (NodeState::Source, NodeState::Target));
    assert!(node(cu).interval.unwrap().contains(node(cv).interval.unwrap()), "nested: a false positive");
    assert!(picture.nodes.iter().any(|n| n.state == NodeState::DeadEnd), "the search's dead ends");
    assert!(
        picture.notes[0].starts_with("false positive") && picture.notes[0].contains("nested"),
        "{:?}",
        picture.notes
    );
    let text = h.render(120, 36);
    assert!(text.contains("the Labels tab's differ: d = 2"), "{text}");
    settings().bind(|| insta::assert_snapshot!("picture_tab_exception_own_labels", text));

    // Stepping (or a query) goes back to the Labels tab's labels.
    h.keys("r");
    h.settle();
    assert_eq!(h.app.picture.labels, PictureLabels::Session);
    assert_eq!(h.app.picture.result.as_ref().unwrap().picture.dims, Some(2));
}

#[test]
fn dimensions_switch_with_brackets_and_the_cursor_moves() {
    let mut h = Harness::on_sample("lesson.gra");
    h.keys("6r");
    h.settle();
    h.keys("]");
    h.settle();
    assert_eq!(h.app.picture.result.as_ref().unwrap().picture.dim, 1);
    h.keys("[");
    h.settle();
    assert_eq!(h.app.picture.result.as_ref().unwrap().picture.dim, 0);
    h.keys("jj");
    assert_eq!(h.app.picture.selected, Some(1));
    let text = h.render(100, 30);
    assert!(text.contains("cursor:"), "{text}");
}

#[test]
fn a_large_graph_gets_a_neighbourhood_that_follows_the_cursor() {
    let mut h = Harness::new();
    h.keys("6");
    h.settle();
    let result = h.app.picture.result.as_ref().unwrap();
    assert!(!result.whole, "kegg has 3,617 vertices: a neighbourhood, never the whole graph");
    assert!(result.picture.nodes.len() <= 40);
    h.keys("jjj<Enter>");
    let centre = h.app.picture.selected_component().unwrap();
    h.settle();
    assert_eq!(h.app.picture.focus, Focus::Component(centre));
    assert!(h.app.picture.result.as_ref().unwrap().picture.node_of(centre).is_some());
}

/// The explorer on a graph made here (no file).
fn on_graph(graph: grail::graph::Graph, name: &str) -> Harness {
    Harness::on(grail::workspace::Workspace::of_graph(graph, name))
}

#[test]
fn the_picture_tab_draws_any_graph_the_readers_accept() {
    let cycle: Vec<(u32, u32)> = (0..500).map(|v| (v, (v + 1) % 500)).collect();
    let fan = "fan:width=1000000,layers=2".parse::<grail::graph::generators::GeneratorSpec>().unwrap();
    let cases = [
        ("empty", grail::graph::Graph::from_edges(0, &[]).unwrap()),
        ("one vertex", grail::graph::Graph::from_edges(1, &[]).unwrap()),
        ("one giant SCC", grail::graph::Graph::from_edges(500, &cycle).unwrap()),
        ("a 1M-wide fan", fan.generate().unwrap()),
    ];
    for (name, graph) in cases {
        let n = graph.num_vertices();
        let mut h = on_graph(graph, name);
        // Label (the stepper's picture on the way), draw, move, resize, query: nothing may panic.
        h.keys("6s");
        h.settle();
        h.keys("jjj<Enter>+-r");
        h.settle();
        for (w, ht) in [(80, 24), (200, 60)] {
            let text = h.render(w, ht);
            assert!(text.contains("What you see"), "{name}: {text}");
        }
        let result = h.app.picture.result.as_ref().unwrap_or_else(|| panic!("{name}: nothing drawn"));
        assert!(result.picture.nodes.len() <= 400, "{name}: a neighbourhood is capped");
        if n == 500 {
            assert_eq!(result.picture.nodes.len(), 1, "a strongly connected component is one box");
            assert_eq!(result.picture.nodes[0].member_count, 500);
        }
    }
}
