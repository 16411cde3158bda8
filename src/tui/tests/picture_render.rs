//! The picture widget on ratatui's TestBackend: snapshots on the lesson graph (labels, the stepper,
//! a search), colour-free rendering, and no panic on any size or graph.

use crate::draw::search_trace::search_overlay;
use crate::draw::tree::{TreeParent, tree_parent};
use crate::draw::{self, ComponentMembers, Picture, QueueClass, Sources, StepOverlay, StepVertex, Subgraph};
use crate::graph::Graph;
use crate::index::{Order, dfs};
use crate::query::Engine;
use crate::query::explain::Names;
use crate::tui::widgets::picture::PictureView;
use crate::workspace::Workspace;
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::widgets::Widget;
use std::path::Path;

const ORDER: Order = Order::Random { seed: 1 };

fn lesson() -> Workspace {
    Workspace::open(&Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-graphs/lesson.gra"), None).unwrap()
}

enum Overlay {
    None,
    /// The lesson's false positive (0 ⇝ 10), searched.
    Query,
    /// The stepper part-way through post-order (see [`stepper`]).
    Step,
}

fn lesson_picture(dims: usize, overlay: Overlay) -> Picture {
    let ws = lesson();
    let dag = ws.dag();
    let labels = dfs::label(dag, dims, ORDER).unwrap();
    let members = ComponentMembers::new(&ws.condensation);
    let engine = Engine::new(dag, &labels, &ws.condensation.component);
    let search = match overlay {
        Overlay::Query => Some(search_overlay(&engine, 0, 10, &Names::by_dag_id(0, 10)).0),
        _ => None,
    };
    let step = matches!(overlay, Overlay::Step).then(|| stepper(dag, &labels));
    let sources = Sources {
        dag,
        members: &members,
        names: &ws.loaded.names,
        // The stepper has no finished labels yet.
        labels: (!matches!(overlay, Overlay::Step)).then_some(&labels),
        dim: 0,
        step: step.as_ref(),
        search: search.as_ref(),
    };
    draw::build(&sources, &Subgraph::whole(dag).unwrap(), "lesson").unwrap()
}

/// A plausible mid-run state built from the finished labels: all parents, all sizes, the post
/// numbers of the first half, and the vertices on level 2 as the frontier.
fn stepper(dag: &Graph, labels: &crate::index::Labels) -> StepOverlay {
    let mut step = StepOverlay { caption: "dimension 0 · post-order · level 2".into(), ..StepOverlay::default() };
    for v in 0..dag.num_vertices() as u32 {
        let parent = match tree_parent(dag, labels, 0, v) {
            TreeParent::Parent(p) => Some(p),
            _ => None,
        };
        let post = labels.interval(v, 0).post;
        let known = (post <= 6).then_some(post);
        step.vertices.insert(v, StepVertex { parent, size: Some(labels.subtree(v, 0)), post: known, low: None });
        if labels.level(v) == 2 {
            step.frontier.insert(v, QueueClass::of(dag.children(v).len()));
        }
    }
    step
}

fn render(picture: &Picture, width: u16, height: u16, no_color: bool) -> (String, Buffer) {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| f.render_widget(PictureView::new(picture).no_color(no_color), f.area())).unwrap();
    let buffer = terminal.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..height {
        let line: String = (0..width).map(|x| buffer[(x, y)].symbol().to_string()).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    (super::common::masked(&out), buffer)
}

#[test]
fn lesson_with_labels() {
    let picture = lesson_picture(2, Overlay::None);
    let (text, _) = render(&picture, 90, 36, false);
    assert!(text.contains("│0 [1, 12]│"), "tall enough for bordered boxes: {text}");
    assert!(text.contains("⠶⠶⠀⠶ tree d0"), "the legend names the tree's dimension: {text}");
    super::common::settings().bind(|| insta::assert_snapshot!("picture_lesson_labels", text));
}

#[test]
fn lesson_search_with_one_dimension() {
    let picture = lesson_picture(1, Overlay::Query);
    let (text, _) = render(&picture, 80, 30, false);
    for glyph in ["▶ 0", "◎ 10", "✗", "⊘"] {
        assert!(text.contains(glyph), "{glyph} missing: {text}");
    }
    super::common::settings().bind(|| insta::assert_snapshot!("picture_lesson_search", text));
}

#[test]
fn lesson_stepper_part_way() {
    let picture = lesson_picture(1, Overlay::Step);
    let (text, _) = render(&picture, 90, 36, false);
    assert!(text.contains("size"), "{text}");
    assert!(text.contains("[·,"), "{text}");
    super::common::settings().bind(|| insta::assert_snapshot!("picture_lesson_stepper", text));
}

#[test]
fn short_areas_get_one_line_boxes() {
    let picture = lesson_picture(2, Overlay::Query);
    let (text, _) = render(&picture, 80, 14, false);
    assert!(!text.contains('┌'), "no room for bordered boxes: {text}");
    assert!(text.contains("[▶ 0 [1, 12]]") || text.contains("▶ 0"), "{text}");
    super::common::settings().bind(|| insta::assert_snapshot!("picture_lesson_compact", text));
}

#[test]
fn no_color_draws_no_colour_but_keeps_the_glyphs() {
    let picture = lesson_picture(1, Overlay::Query);
    let (plain, buffer) = render(&picture, 80, 30, true);
    let (coloured, coloured_buffer) = render(&picture, 80, 30, false);
    // Tree edges are dashed (path edges solid), with colour or without; the legend shows them as
    // drawn, and colour changes nothing but the colours.
    for text in [&plain, &coloured] {
        assert!(text.contains("⠶⠶⠀⠶ tree d0"), "{text}");
    }
    assert_eq!(plain, coloured, "the same cells with and without colour");
    let colours = |b: &Buffer| b.content().iter().filter(|c| c.fg != Color::Reset).count();
    assert_eq!(colours(&buffer), 0);
    assert!(colours(&coloured_buffer) > 0);
}

#[test]
fn scrolling_moves_the_view() {
    let picture = lesson_picture(2, Overlay::None);
    let view = PictureView::new(&picture);
    let area = Rect::new(0, 0, 30, 10);
    let (width, height) = view.content_size(area);
    assert!(width > 30 && height > 9, "the lesson does not fit 30x10: {width}x{height}");
    let position = view.node_rect(area, picture.node_of(11).unwrap()).unwrap();
    let mut buffer = Buffer::empty(area);
    PictureView::new(&picture).scroll(position.x, position.y).legend(false).render(area, &mut buffer);
    let first_row: String = (0..30).map(|x| buffer[(x, 0)].symbol().to_string()).collect();
    assert!(first_row.starts_with("[11 [1, 1]]"), "vertex 11 at the top-left: {first_row:?}");
}

#[test]
fn tiny_areas_and_odd_pictures_do_not_panic() {
    let pictures = [
        Picture::default(),
        lesson_picture(1, Overlay::Query),
        lesson_picture(1, Overlay::Step),
        picture_of(&Graph::from_edges(1, &[]).unwrap()),
        // One giant strongly connected component.
        picture_of_cyclic(&(0..500u32).map(|v| (v, (v + 1) % 500)).collect::<Vec<_>>(), 500),
    ];
    for picture in &pictures {
        for (w, h) in [(0, 0), (1, 1), (0, 5), (5, 0), (2, 3), (3, 4), (10, 4), (7, 2), (200, 3)] {
            let area = Rect::new(0, 0, w, h);
            let mut buffer = Buffer::empty(area);
            PictureView::new(picture).scroll(i64::MAX, i64::MIN).selected(Some(usize::MAX)).render(area, &mut buffer);
            let mut buffer = Buffer::empty(area);
            PictureView::new(picture).zoom(usize::MAX).scroll(-3, -7).render(area, &mut buffer);
            let mut buffer = Buffer::empty(area);
            PictureView::new(picture).no_color(true).selected(Some(0)).render(area, &mut buffer);
        }
        // An area that lies partly outside the buffer.
        let mut buffer = Buffer::empty(Rect::new(0, 0, 10, 10));
        PictureView::new(picture).render(Rect::new(5, 5, 40, 40), &mut buffer);
    }
}

fn picture_of(dag: &Graph) -> Picture {
    let labels = dfs::label(dag, 1, ORDER).unwrap();
    let sources = Sources { labels: Some(&labels), ..Sources::bare(dag) };
    draw::build(&sources, &Subgraph::whole(dag).unwrap(), "graph").unwrap()
}

fn picture_of_cyclic(edges: &[(u32, u32)], n: usize) -> Picture {
    let ws = Workspace::of_graph(Graph::from_edges(n, edges).unwrap(), "cycle");
    let labels = dfs::label(ws.dag(), 1, ORDER).unwrap();
    let members = ComponentMembers::new(&ws.condensation);
    let sources = Sources {
        dag: ws.dag(),
        members: &members,
        names: &ws.loaded.names,
        labels: Some(&labels),
        dim: 0,
        step: None,
        search: None,
    };
    let picture = draw::build(&sources, &Subgraph::whole(ws.dag()).unwrap(), "cycle").unwrap();
    assert_eq!(picture.nodes[0].name(), "{0, 1, 2, 3, +496}");
    picture
}

/// Small random DAGs (edges `i -> j`, `i < j`) with a random search overlay.
fn random_pictures() -> impl Strategy<Value = Picture> {
    (1usize..30, proptest::collection::vec((0u32..30, 0u32..30), 0..80), 0u32..30, 0u32..30).prop_map(
        |(n, raw, u, v)| {
            let edges: Vec<(u32, u32)> = raw
                .into_iter()
                .map(|(a, b)| (a % n as u32, b % n as u32))
                .filter(|(a, b)| a != b)
                .map(|(a, b)| (a.min(b), a.max(b)))
                .collect();
            let dag = Graph::from_edges(n, &edges).unwrap();
            let labels = dfs::label(&dag, 2, ORDER).unwrap();
            let component: Vec<u32> = (0..n as u32).collect();
            let engine = Engine::new(&dag, &labels, &component);
            let (u, v) = (u % n as u32, v % n as u32);
            let search = search_overlay(&engine, u, v, &Names::by_dag_id(u.into(), v.into())).0;
            let sources = Sources { labels: Some(&labels), dim: 1, search: Some(&search), ..Sources::bare(&dag) };
            draw::build(&sources, &Subgraph::whole(&dag).unwrap(), "random").unwrap()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn any_picture_on_any_area_renders(picture in random_pictures(), w in 0u16..90, h in 0u16..30, sx in -60i64..60, sy in -40i64..40, zoom in 0usize..8) {
        let area = Rect::new(0, 0, w, h);
        let mut buffer = Buffer::empty(area);
        PictureView::new(&picture).scroll(sx, sy).zoom(zoom).selected(Some(0)).render(area, &mut buffer);
        // Every box is drawn somewhere in the content: its label is in the grid it reports.
        let view = PictureView::new(&picture);
        for i in 0..picture.nodes.len() {
            prop_assert!(view.node_rect(area, i).is_some());
        }
    }
}

/// 0 above eight narrow boxes 1..=8, each with five children the drawing leaves out.
fn hub_with_cut_children() -> Picture {
    let mut edges: Vec<(u32, u32)> = (1..=8).map(|c| (0, c)).collect();
    edges.extend((1..=8).flat_map(|c| (0..5).map(move |k| (c, 9 + (c - 1) * 5 + k))));
    let dag = Graph::from_edges(49, &edges).unwrap();
    let sources = Sources::bare(&dag);
    let subgraph = Subgraph::around(&dag, &[0], 1, 9);
    assert_eq!(subgraph.cuts.len(), 8, "{:?}", subgraph.cuts);
    draw::build(&sources, &subgraph, "hub").unwrap()
}

#[test]
fn more_markers_never_overlap_at_any_zoom() {
    let picture = hub_with_cut_children();
    for zoom in 0..crate::tui::widgets::picture::grid::ZOOM_LEVELS {
        let area = Rect::new(0, 0, 200, 40);
        let mut buffer = Buffer::empty(area);
        PictureView::new(&picture).zoom(zoom).render(area, &mut buffer);
        let text: String = (0..area.height)
            .map(|y| (0..area.width).map(|x| buffer[(x, y)].symbol().to_string()).collect::<String>() + "\n")
            .collect();
        let marker = if zoom == 0 { "+5↓" } else { "+5 more ↓" };
        assert_eq!(text.matches(marker).count(), 8, "zoom {zoom}: every marker whole:\n{text}");
    }
}

/// The legend shows whole entries only: where the rest does not fit, `…` says so, never a word cut
/// at the edge.
#[test]
fn the_legend_never_cuts_an_entry() {
    let picture = lesson_picture(1, Overlay::Query);
    let (full, _) = render(&picture, 200, 40, true);
    let whole = full.lines().rev().find(|l| !l.trim().is_empty()).unwrap().trim().to_string();
    assert!(whole.contains("dead end") && !whole.contains('…'), "{whole}");
    for width in [20u16, 30, 40, 50] {
        let (text, _) = render(&picture, width, 40, true);
        let legend = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap().trim().to_string();
        let shown = legend.trim_end_matches('…').trim_end();
        assert!(whole.starts_with(shown), "width {width}: {legend:?} is not a prefix of {whole:?}");
        assert!(legend.ends_with('…') || legend == whole, "width {width}: {legend:?}");
        // What is shown ends where an entry ends in the whole legend.
        let rest = &whole[shown.len()..];
        assert!(rest.is_empty() || rest.starts_with("  "), "width {width}: cut at {rest:?}");
    }
}
