//! The explorer's picture tab (6) on the lesson graph: the stepper's progress drawn level by level,
//! a query's search, and an exception chosen in tab 5, as a teacher would show them.

use super::common::{Harness, settings};
use crate::draw::NodeState;
use crate::tui::action::Tab;
use crate::tui::widgets::picture::PictureView;
use crate::tui::worker::{Focus, PictureLabels};

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
    assert_eq!(rule, crate::query::Rule::TopoCut);
    let picture = &h.app.picture.result.as_ref().unwrap().picture;
    let caption = format!("no (all rules), decided by {rule}");
    assert!(picture.notes.iter().any(|n| n.contains(&caption) && n.contains("all rules")), "{:?}", picture.notes);
    // R: GRAIL's rules in every view, the query answered again at once: the search and its dead ends.
    h.keys("R");
    h.settle();
    assert_eq!(h.app.query.result.as_ref().unwrap().answer.rule, crate::query::Rule::Search);
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
    assert_eq!(h.app.picture.selected, Some(h.app.picture.screen_order()[1]));
    let text = h.render(100, 30);
    assert!(text.contains("cursor:"), "{text}");
}

#[test]
fn the_cursor_moves_through_the_boxes_in_the_order_they_are_drawn() {
    let mut h = Harness::on_sample("lesson.gra");
    h.keys("6");
    h.settle();
    let nodes = h.app.picture.result.as_ref().unwrap().picture.nodes.clone();
    let mut seen = Vec::new();
    h.keys("j");
    for _ in 0..nodes.len() + 2 {
        let node = &nodes[h.app.picture.selected.expect("a cursor")];
        if seen.last() != Some(&(node.layer, node.column)) {
            seen.push((node.layer, node.column));
        }
        h.keys("j");
    }
    // Every box once, layer by layer from the top and each layer from the left; then it stays.
    assert_eq!(seen.len(), nodes.len());
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    // The lesson's ids are not in that order (5 and 10 sit above 4 and 3): the order is the screen's.
    let ids: Vec<u32> = h.app.picture.screen_order().iter().map(|&i| nodes[i].vertex).collect();
    assert_ne!(ids, (0..nodes.len() as u32).collect::<Vec<_>>());
    h.keys("k");
    assert_eq!(h.app.picture.selected, h.app.picture.screen_order().iter().rev().nth(1).copied());
    h.keys("G");
    assert_eq!(h.app.picture.selected, h.app.picture.screen_order().last().copied());
    let config = h.app.labels.config();
    h.app.picture.handle(crate::tui::action::Action::Top, config, None);
    assert_eq!(h.app.picture.selected, h.app.picture.screen_order().first().copied());
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
    // `<` shrinks the neighbourhood to depth 1; past that it says so instead of doing nothing, in
    // the words of the picture's title.
    h.keys("<");
    h.settle();
    assert!(!h.render(100, 30).contains("already the smallest"));
    h.keys("<<<<");
    h.settle();
    let text = h.render(140, 45);
    assert!(text.contains("already the smallest neighbourhood: depth 1, at most 20 vertices"), "{text}");
    let title = &h.app.picture.result.as_ref().unwrap().picture.title;
    assert!(title.contains("(depth 1, at most 20 vertices)"), "{title}");
    assert!(!text.contains("1 step"), "{text}");
}

/// The explorer on a graph made here (no file).
fn on_graph(graph: crate::graph::Graph, name: &str) -> Harness {
    Harness::on(crate::workspace::Workspace::of_graph(graph, name))
}

#[test]
fn the_picture_tab_draws_any_graph_the_readers_accept() {
    let cycle: Vec<(u32, u32)> = (0..500).map(|v| (v, (v + 1) % 500)).collect();
    let fan = "fan:width=1000000,layers=2".parse::<crate::graph::generators::GeneratorSpec>().unwrap();
    let cases = [
        ("empty", crate::graph::Graph::from_edges(0, &[]).unwrap()),
        ("one vertex", crate::graph::Graph::from_edges(1, &[]).unwrap()),
        ("one giant SCC", crate::graph::Graph::from_edges(500, &cycle).unwrap()),
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

/// The picture part of a rendered screen: the rows between the tab bar and the status line, left of
/// the side panel.
fn picture_rows(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    lines[1..lines.len().saturating_sub(2)]
        .iter()
        .map(|l| l.split("││").next().unwrap_or_default().to_string())
        .collect()
}

/// Whether a box whose text starts with `label` is on screen (the legend's `▶ u` is not a box).
fn shows(text: &str, label: &str) -> bool {
    picture_rows(text).iter().any(|row| row.contains(label))
}

/// Kegg's first false positive in tab 5, shown on the picture.
fn kegg_first_exception() -> (Harness, String, String) {
    let mut h = Harness::new();
    h.keys("5r");
    h.settle();
    let (cu, cv, _) = h.app.exceptions.chosen().expect("kegg has false positives");
    let (u, v) = (h.app.component_name(cu), h.app.component_name(cv));
    h.keys("<Enter>");
    h.settle();
    (h, format!("▶ {u}"), format!("◎ {v}"))
}

#[test]
fn the_first_exception_pair_is_in_view_at_any_size() {
    let (mut h, u, v) = kegg_first_exception();
    assert!(!h.app.picture.result.as_ref().unwrap().whole, "kegg is drawn as a neighbourhood");
    for (w, ht) in [(80, 24), (140, 45), (200, 60), (80, 24)] {
        let text = h.render(w, ht);
        assert!(shows(&text, &u) && shows(&text, &v), "{w}x{ht}: {u} and {v} both on screen:\n{text}");
        assert!(!text.contains("not wholly in view"), "{text}");
    }
}

#[test]
fn a_query_on_a_larger_graph_keeps_u_and_v_in_view() {
    let spec = "scalefree:n=20000,m=3,seed=7".parse::<crate::graph::generators::GeneratorSpec>().unwrap();
    let mut h = on_graph(spec.generate().unwrap(), "scalefree");
    h.keys("6");
    h.settle();
    h.keys("/1 2<Enter>");
    h.settle();
    h.settle();
    let result = h.app.picture.result.as_ref().expect("drawn");
    assert!(!result.whole);
    assert_eq!(result.request.focus, Focus::Query { u: 1, v: 2 });
    for (w, ht) in [(80, 24), (200, 60)] {
        let text = h.render(w, ht);
        assert!(shows(&text, "▶ 1") && shows(&text, "◎ 2"), "{w}x{ht}:\n{text}");
    }
}

#[test]
fn go_to_centres_the_vertex_and_pan_moves_the_view() {
    let (mut h, _, _) = kegg_first_exception();
    h.render(80, 24);
    let before = h.app.picture.view().unwrap();
    h.keys("<Right><Right>");
    let after = h.app.picture.view().unwrap();
    assert!(after.x > before.x, "→ pans right: {before:?} then {after:?}");
    assert_eq!(after.zoom, before.zoom);
    let moved = h.render(80, 24);
    h.keys("<Left><Left>");
    assert_eq!(h.app.picture.view().unwrap(), before, "← pans back");
    assert_ne!(picture_rows(&moved), picture_rows(&h.render(80, 24)));

    // A vertex in the drawing: under the cursor and at the centre of the view.
    let picture = &h.app.picture.result.as_ref().unwrap().picture;
    let far = picture.nodes.iter().max_by_key(|n| n.column).unwrap();
    let (vertex, id) = (far.vertex, far.members[0].clone());
    h.keys(&format!("g{id}<Enter>"));
    let node = h.app.picture.result.as_ref().unwrap().picture.node_of(vertex).unwrap();
    assert_eq!(h.app.picture.selected, Some(node));
    h.render(80, 24);
    let (view, area) = (h.app.picture.view().unwrap(), h.app.picture.shown_area.get());
    let picture = &h.app.picture.result.as_ref().unwrap().picture;
    let rect = PictureView::new(picture).zoom(view.zoom).node_rect(area, node).unwrap();
    let centre = (rect.x + rect.width / 2 - view.x, rect.y + rect.height / 2 - view.y);
    let body = PictureView::new(picture).body_height(area);
    assert!(centre.0.abs_diff(i64::from(area.width) / 2) <= 1, "{centre:?} in {area:?}");
    assert!(centre.1.abs_diff(i64::from(body) / 2) <= 1, "{centre:?} in {area:?}");
    assert!(shows(&h.render(80, 24), &id.to_string()));

    // A vertex the drawing lacks: drawn around, then centred under the cursor.
    h.keys("g1<Enter>");
    h.settle();
    let c = h.app.picture.selected_component().expect("the cursor is on it");
    assert_eq!(h.app.component_name(c), "1");
    let text = h.render(80, 24);
    assert!(shows(&text, "[1]") || shows(&text, "│1 "), "{text}");
    h.keys("gnot-a-number<Enter>");
    assert!(h.render(80, 24).contains("not a vertex id"));
}

#[test]
fn zoom_keys_change_the_level_and_the_footer_lists_them() {
    let (mut h, u, _) = kegg_first_exception();
    let text = h.render(80, 24);
    let footer = text.lines().last().unwrap();
    for entry in ["f finish phase", "x reset", "+ zoom in", "- zoom out"] {
        assert!(footer.contains(entry), "{entry} missing from the footer: {footer}");
    }
    let zoom = h.app.picture.view().unwrap().zoom;
    h.keys("+");
    assert_eq!(h.app.picture.view().unwrap().zoom, zoom + 1);
    h.keys("-");
    assert_eq!(h.app.picture.view().unwrap().zoom, zoom);
    h.keys("------");
    assert_eq!(h.app.picture.view().unwrap().zoom, 0);
    assert!(h.render(80, 24).contains("already at the smallest zoom level"));
    h.keys("z");
    assert_eq!(h.app.picture.view().unwrap().zoom, zoom, "z fits again");
    assert!(shows(&h.render(80, 24), &u));
    // The side panel hides and comes back.
    h.keys("p");
    assert!(!h.render(80, 24).contains("What you see"));
    h.keys("p");
    assert!(h.render(80, 24).contains("What you see"));
}

#[test]
fn the_picture_is_written_as_svg() {
    let (mut h, u, _) = kegg_first_exception();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pair.svg");
    h.keys("e");
    assert!(h.app.prompt.is_some(), "e asks where to write");
    h.keys(&format!("{}<Enter>", path.display()));
    let svg = std::fs::read_to_string(&path).expect("the SVG was written");
    let doc = roxmltree::Document::parse(&svg).expect("valid XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert!(svg.contains(&u), "the drawing's u");
    let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(files.len(), 1, "no temporary file left: {files:?}");
    // The screen's text masks durations, and a random folder name can look like one (`…3s…`):
    // the message is read from the app, not the masked screen.
    let note = format!("{:?}", h.app.note);
    assert!(note.contains(&format!("wrote {}", path.display())), "{note}");
    // A folder is refused, and says so.
    h.keys(&format!("e{}<Enter>", dir.path().display()));
    assert!(h.render(120, 30).contains("is a folder"));
}

#[test]
fn every_dimension_of_a_query_keeps_u_and_v_in_view() {
    let mut h = Harness::on_sample("lesson.gra");
    h.keys("6r");
    h.settle();
    h.keys("/0 10<Enter>");
    h.settle();
    for dim in 0..5 {
        for (w, ht) in [(80, 24), (200, 60)] {
            let text = h.render(w, ht);
            assert_eq!(h.app.picture.dim, dim);
            assert!(!text.contains("not wholly in view"), "dimension {dim} at {w}x{ht}:\n{text}");
        }
        h.keys("]");
        h.settle();
    }
}

#[test]
fn stepping_keeps_the_zoom_the_picture_was_fitted_at() {
    for (w, ht) in [(80, 24), (140, 45)] {
        let mut h = lesson();
        h.render(w, ht);
        let zoom = h.app.picture.view().unwrap().zoom;
        for step in 0..40 {
            h.keys("s");
            h.settle();
            h.render(w, ht);
            assert_eq!(h.app.picture.view().unwrap().zoom, zoom, "{w}x{ht}, step {step}: the zoom moved on its own");
        }
    }
}

#[test]
fn stepping_leaves_every_column_where_it_was_at_every_zoom() {
    use crate::tui::widgets::picture::grid::{Grid, ZOOM_LEVELS};
    // Each box's column centre and the drawing's size, at every zoom level.
    let places = |h: &Harness| -> Vec<Vec<(u32, i64)>> {
        let picture = &h.app.picture.result.as_ref().unwrap().picture;
        (0..ZOOM_LEVELS)
            .map(|zoom| {
                let grid = Grid::new(picture, zoom);
                let mut at: Vec<(u32, i64)> = picture.nodes.iter().map(|n| (n.vertex, grid.centre(n.column))).collect();
                at.sort();
                at.push((u32::MAX, grid.width));
                at
            })
            .collect()
    };
    let mut h = lesson();
    let before = places(&h);
    // Parent selection level by level (frontier glyphs come and go), then every phase to the end.
    for key in ["s", "s", "s", "s", "s", "s", "f", "f", "f"] {
        h.keys(key);
        h.settle();
        assert_eq!(places(&h), before, "after {key}: only labels and colours change, never the places");
    }
}

#[test]
fn the_side_panel_names_the_dimension_once() {
    let mut h = Harness::on_sample("lesson.gra");
    h.keys("6r");
    h.settle();
    let text = h.render(140, 45);
    assert!(text.contains("dimension 0 of 5"), "{text}");
    assert_eq!(text.matches("dimension 0").count(), 1, "{text}");
}

#[test]
fn the_side_panel_never_describes_the_previous_picture_as_the_new_one() {
    let mut h = Harness::new();
    h.keys("6");
    h.settle();
    h.keys("/1 2<Enter>");
    h.settle();
    h.keys("5r");
    h.settle();
    h.keys("<Enter>");
    // Asked for, not drawn yet: the panel says so instead of the old query's caption.
    let text = h.render(100, 30);
    assert!(text.contains("drawing 57 ⇝ 151…"), "{text}");
    assert!(!text.contains("1 ⇝ 2?"), "{text}");
    h.settle();
    assert!(!h.render(100, 30).contains("drawing 57"), "drawn now");
}

#[test]
fn a_side_panel_too_short_ends_by_saying_so() {
    let mut h = Harness::new();
    h.keys("6");
    h.settle();
    h.keys("/243 5<Enter>");
    h.settle();
    h.keys("R");
    h.settle();
    let narrow = h.render(80, 24);
    assert!(narrow.contains("… more (a taller terminal)"), "{narrow}");
    assert!(!h.render(200, 60).contains("… more (a taller terminal)"));
}

#[test]
fn the_graph_tab_draws_the_chosen_component_with_its_cycle() {
    let mut h = Harness::on_sample("tiny-cycles.txt");
    let ws = std::sync::Arc::clone(&h.app.ws);
    let component = |id: u64| ws.condensation.component[ws.resolve(id).unwrap() as usize];
    // Largest first: {1, 2, 3}, then {6, 7}; the highlight stops at either end.
    assert_eq!(h.app.graph.chosen(), Some(component(1)));
    h.keys("jj");
    assert_eq!((h.app.graph.selected, h.app.graph.chosen()), (1, Some(component(6))));
    let text = h.render(80, 24);
    assert!(text.contains("› 2 vertices: 6 → 7 → 6"), "{text}");
    assert!(text.contains("  3 vertices: 1 → 2 → 3 → 1"), "{text}");

    h.keys("<Enter>");
    assert_eq!((h.app.tab, h.app.picture.focus), (Tab::Picture, Focus::Cycle(component(6))));
    h.settle();
    let result = h.app.picture.result.as_ref().expect("Enter draws the component");
    let picture = &result.picture;
    let cycle: Vec<String> = picture.nodes.iter().filter(|n| n.state == NodeState::Cycle).map(|n| n.name()).collect();
    assert_eq!(cycle, ["{6→7}"], "the chosen component alone is marked, its box listing the cycle");
    assert_eq!(picture.notes[0], "cycle: 6 → 7 → 6");
    assert_eq!(h.app.picture.selected_component(), Some(component(6)), "the cursor is on its box");
    settings().bind(|| {
        insta::assert_snapshot!("picture_cycle_80x24", h.render(80, 24));
        insta::assert_snapshot!("picture_cycle_140x45", h.render(140, 45));
    });

    h.keys("1k<Enter>");
    h.settle();
    let picture = &h.app.picture.result.as_ref().unwrap().picture;
    assert_eq!(picture.notes[0], "cycle: 1 → 2 → 3 → 1");
    assert_eq!(picture.nodes[picture.node_of(component(1)).unwrap()].state, NodeState::Cycle);
    assert_eq!(picture.nodes[picture.node_of(component(6)).unwrap()].state, NodeState::Plain);
}

#[test]
fn a_graph_without_cycles_has_no_component_to_draw() {
    let mut h = Harness::new();
    assert!(h.app.graph.components.is_empty());
    h.keys("j<Enter>");
    assert_eq!((h.app.tab, h.app.graph.selected), (Tab::Graph, 0));
    let text = h.render(80, 24);
    assert!(text.contains("no cycles to draw: every component is one vertex"), "{text}");
    assert!(h.app.outbox.is_empty(), "nothing is drawn");
}

#[test]
fn a_click_picks_a_listed_cycle_and_a_second_click_draws_it() {
    use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let mut h = Harness::on_sample("tiny-cycles.txt");
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    let mut hits = None;
    terminal.draw(|f| hits = Some(crate::tui::ui::render(f, &h.app))).unwrap();
    h.app.hits = hits.unwrap();
    let text = super::common::render(&h.app, 80, 24);
    let (row, line) = text.lines().enumerate().find(|(_, l)| l.contains("2 vertices: 6")).expect("listed");
    let column = line[..line.find("2 vertices: 6").unwrap()].chars().count();
    let click = MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: column as u16,
        row: row as u16,
        modifiers: KeyModifiers::NONE,
    };
    h.app.on_mouse(&click);
    assert_eq!((h.app.tab, h.app.graph.selected), (Tab::Graph, 1));
    h.app.on_mouse(&click);
    let ws = std::sync::Arc::clone(&h.app.ws);
    let six = ws.condensation.component[ws.resolve(6).unwrap() as usize];
    assert_eq!((h.app.tab, h.app.picture.focus), (Tab::Picture, Focus::Cycle(six)));
}

#[test]
fn a_named_graphs_cycle_is_drawn_in_its_names() {
    let mut h = Harness::on_sample("follows.csv");
    h.keys("<Enter>");
    h.settle();
    let picture = &h.app.picture.result.as_ref().expect("Enter draws the component").picture;
    assert_eq!(picture.notes[0], "cycle: alice → bob → carol → alice");
    let boxes: Vec<String> = picture.nodes.iter().filter(|n| n.state == NodeState::Cycle).map(|n| n.name()).collect();
    assert_eq!(boxes, ["{alice→bob→carol}"]);
}

/// Whether node `index` is wholly in the view the app shows now (after a render).
fn in_view(h: &Harness, index: usize) -> bool {
    let view = h.app.picture.view().unwrap();
    h.app.picture.scene().unwrap().shows(view, index)
}

#[test]
fn zooming_a_query_keeps_u_and_its_parent_in_view() {
    let mut h = Harness::new();
    h.keys("2r");
    h.settle();
    h.keys("6");
    h.settle();
    h.keys("/558 674<Enter>");
    h.settle();
    h.settle();
    for (w, ht) in [(80, 24), (200, 60)] {
        h.keys("z");
        h.render(w, ht);
        let u = h.app.picture.targets[0];
        // 558's parent in the drawing: where its DFS tree edge comes from (557).
        let picture = &h.app.picture.result.as_ref().unwrap().picture;
        let tree = |e: &&crate::draw::PictureEdge| e.to == u && e.kind == crate::draw::EdgeKind::Tree;
        let parent = picture.edges.iter().find(tree).expect("558 has a tree parent in the drawing").from;
        assert_eq!(picture.nodes[parent].vertex, 557);
        loop {
            let zoom = h.app.picture.view().unwrap().zoom;
            let text = h.render(w, ht);
            assert!(in_view(&h, u) && in_view(&h, parent), "{w}x{ht}, zoom {zoom}: u and its parent:\n{text}");
            if zoom + 1 == crate::tui::widgets::picture::grid::ZOOM_LEVELS {
                break;
            }
            h.keys("+");
        }
    }
}

#[test]
fn zooming_follows_the_cursor() {
    let mut h = Harness::on_sample("follows.csv");
    h.keys("6");
    h.settle();
    h.render(80, 24);
    h.keys("j");
    let cursor = h.app.picture.selected.expect("j puts the cursor on a vertex");
    // Panned away from the cursor at zoom 1: each zoom in brings it back to the middle.
    h.keys("------+");
    h.render(80, 24);
    h.keys("<Right><Right><Right><Right><Down><Down>");
    for zoom in 2..crate::tui::widgets::picture::grid::ZOOM_LEVELS {
        h.keys("+");
        let text = h.render(80, 24);
        assert_eq!(h.app.picture.view().unwrap().zoom, zoom);
        assert!(in_view(&h, cursor), "zoom {zoom}: the cursor's box in view:\n{text}");
    }
}

/// The side panel's rows joined into one text (its sentences wrap), then the footer.
fn side_panel_and_footer(screen: &str) -> String {
    let side: Vec<&str> =
        screen.lines().filter_map(|l| l.split("││").nth(1)).map(|l| l.trim_end_matches('│').trim_end()).collect();
    format!("{} {}", side.join(" "), screen.lines().last().unwrap_or_default())
}

#[test]
fn every_key_the_picture_names_is_in_its_help() {
    // An exception on kegg (a neighbourhood, stepping done), and follows.csv drawn whole before and
    // after the cursor moves and the view zooms in.
    let (mut h, _, _) = kegg_first_exception();
    let mut text = side_panel_and_footer(&h.render(200, 60));
    let mut h = Harness::on_sample("follows.csv");
    h.keys("6");
    h.settle();
    text += &side_panel_and_footer(&h.render(200, 60));
    // The cursor on the last box drawn (the bottom layer's rightmost), whose parents leave the zoomed
    // view.
    h.keys("G+++++");
    text += &side_panel_and_footer(&h.render(120, 40));
    let help = crate::tui::keymap::help_sections(Tab::Picture);
    let (title, rows) = &help[0];
    assert_eq!(title, "Picture tab");
    let bound = |key: &str| rows.iter().any(|r| r.keys.split(' ').any(|k| k == key));
    let named: [(&str, &[&str]); 10] = [
        ("j/k move the cursor over the vertices", &["j", "k"]),
        ("j/k step the cursor through the vertices", &["j", "k"]),
        ("Enter centres on the cursor", &["Enter"]),
        ("< and > resize the neighbourhood", &["<", ">"]),
        (
            "arrows pan, + - zoom, z fits, g goes to a vertex, e writes SVG, p hides this panel",
            &["←", "→", "↑", "↓", "+", "-", "z", "g", "e", "p"],
        ),
        ("([ ] or h l switch)", &["[", "]", "h", "l"]),
        ("s steps one level, f a phase, r to the end, x resets", &["s", "f", "r", "x"]),
        ("/ asks a query", &["/"]),
        ("s step  f finish phase", &["s", "f"]),
        ("[ previous dimension", &["["]),
    ];
    for (sentence, keys) in named {
        assert!(text.contains(sentence), "the picture says {sentence:?}:\n{text}");
        for key in keys {
            assert!(bound(key), "{key} ({sentence:?}) missing from the Picture help: {rows:?}");
        }
    }
}

#[test]
fn the_svg_message_names_the_dimension_the_title_names_during_a_run() {
    let mut h = Harness::on_sample("lesson.gra");
    // Two dimensions, the CPU pipeline (which steps), two levels run (the second chooses parents
    // below the roots: tree edges), dimension 0 on screen.
    h.keys("2j<Enter>2<Enter>6ss");
    h.settle();
    let picture = h.app.picture.result.as_ref().unwrap().picture.clone();
    assert_eq!((picture.dims, picture.labeled_dim), (None, Some(0)), "a run, no finished labels yet");
    assert!(picture.title.ends_with(", dimension 0"), "{}", picture.title);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.svg");
    let message = match h.app.picture.export_svg(&path) {
        crate::tui::state::Effect::Info(text) => text,
        _ => panic!("the SVG was not written"),
    };
    assert_eq!(message, format!("wrote {}: {}", path.display(), picture.title));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.contains("DFS tree edge (dimension 0)"), "the legend names the same dimension");
    // Before any label, nothing names a dimension.
    h.keys("x");
    h.settle();
    let picture = h.app.picture.result.as_ref().unwrap().picture.clone();
    let message = match h.app.picture.export_svg(&path) {
        crate::tui::state::Effect::Info(text) => text,
        _ => panic!("the SVG was not written"),
    };
    assert!(!message.contains("dimension") && !picture.title.contains("dimension"), "{message}");
}

#[test]
fn z_fits_u_and_v_to_the_canvas_with_the_side_panel_hidden_or_shown() {
    let (mut h, u, v) = kegg_first_exception();
    for (w, ht) in [(80, 24), (200, 60)] {
        h.render(w, ht);
        h.keys("-");
        h.render(w, ht);
        // The panel hidden, then z: fitted to the wider canvas.
        for keys in ["p", "z", "p", "z", "-p", "p"] {
            h.keys(keys);
            let text = h.render(w, ht);
            let targets = h.app.picture.targets.clone();
            let fitted = h.app.picture.viewport == crate::tui::state::picture::viewport::Viewport::Fit;
            if fitted {
                assert!(targets.iter().all(|&t| in_view(&h, t)), "{w}x{ht} after {keys}: u and v in view:\n{text}");
                assert!(shows(&text, &u) && shows(&text, &v), "{w}x{ht} after {keys}:\n{text}");
            }
        }
    }
}

/// Every "+N more" marker on `screen` (`+12 more ↑`, or `+12↑`): whole (its `+`, count and
/// arrow) and with a blank cell or the canvas border on each side, never touching an edge line or
/// another marker.
fn assert_markers_whole_and_apart(screen: &str, context: &str) {
    // The canvas only: the side panel (after `││`) has arrows of its own.
    for line in screen.lines().map(|l| l.split("││").next().unwrap_or_default()) {
        let chars: Vec<char> = line.chars().collect();
        for arrow in (0..chars.len()).filter(|&i| matches!(chars[i], '↑' | '↓')) {
            let long = arrow >= 6 && chars[arrow - 6..arrow].iter().collect::<String>() == " more ";
            // Back over the count to its `+`.
            let mut start = if long { arrow - 6 } else { arrow };
            while start > 0 && (chars[start - 1].is_ascii_digit() || chars[start - 1] == ',') {
                start -= 1;
            }
            assert!(start > 0 && chars[start - 1] == '+', "{context}: a marker without its +: {line}");
            let apart = |c: Option<&char>| c.is_none_or(|&c| c == ' ' || c == '│');
            let (before, after) = (start.checked_sub(2).and_then(|i| chars.get(i)), chars.get(arrow + 1));
            assert!(apart(before) && apart(after), "{context}: a marker touching a line: {line}");
        }
    }
}

#[test]
fn more_markers_stay_whole_inside_the_canvas_and_off_the_edges() {
    let mut h = Harness::new();
    h.keys("R3/2 1<Enter>");
    h.settle();
    h.keys("6");
    h.settle();
    h.settle();
    for (w, ht) in [(80, 24), (140, 45), (200, 60)] {
        let text = h.render(w, ht);
        assert!(text.contains(" more "), "{w}x{ht}: markers drawn:\n{text}");
        assert_markers_whole_and_apart(&text, &format!("{w}x{ht}"));
    }
    h.keys("/1 2<Enter>");
    h.settle();
    h.settle();
    let text = h.render(140, 45);
    assert_markers_whole_and_apart(&text, "1 ⇝ 2 at 140x45");
    let (mut h, _, _) = kegg_first_exception();
    let text = h.render(200, 60);
    assert_markers_whole_and_apart(&text, "57 ⇝ 151 at 200x60");
}
