//! Screen 3: one query, its verdict and the checks behind it in the order they ran, the path found,
//! its positions in the topological orders and its intervals per dimension on number lines, the
//! label-guided search as a foldable tree, and a plain-language explanation (all read off the
//! query's [`crate::query::Decision`]).

use super::chrome::wrap;
use super::panel;
use crate::format::{plural, thousands};
use crate::graph::io::quoted;
use crate::index::Interval;
use crate::query::explain::{self, Names, search_step_phrase};
use crate::query::{Check, NodeKind, Rule, TraceNode};
use crate::tui::app::App;
use crate::tui::hitmap::{Hit, Hitmap};
use crate::tui::state::query::{GroupCounts, TreeRow};
use crate::tui::widgets::number_line::NumberLine;
use crate::tui::worker::weighted_path::Weighted;
use crate::tui::worker::{QueryResult, TRACE_NODE_LIMIT};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

pub fn render(frame: &mut Frame, area: Rect, app: &App, hits: &mut Hitmap) {
    let Some(result) = &app.query.result else {
        let [top, bottom] = Layout::vertical([Constraint::Length(7), Constraint::Min(5)]).areas(area);
        intro(frame, top, app);
        let block = panel("Search tree");
        let hint = "The guided search shows here as a tree: entered vertices, children pruned by a cut (label, level, \
                    topological order, supportive vertex, Bloom filter), dead ends (entered, yet they cannot reach v) and the path \
                    found. R switches between every rule and GRAIL's only.";
        frame.render_widget(Paragraph::new(hint).wrap(Wrap { trim: true }).block(block), bottom);
        return;
    };
    let lines = verdict_lines(app, result, area.width.saturating_sub(2));
    // The verdict panel takes the rows its text needs (never cutting it) up to two thirds of the tab.
    let needed = lines.iter().map(|l| wrapped_rows(l, area.width.saturating_sub(2))).sum::<u16>() + 2;
    let top_height = needed.clamp(5, (area.height * 2 / 3).max(5));
    let [top, bottom] = Layout::vertical([Constraint::Length(top_height), Constraint::Min(5)]).areas(area);
    let (u, v) = (app.label(result.u), app.label(result.v));
    let title = if app.query.labels_changed {
        format!("Query {u} → {v}   (answered with labels since replaced: asked again once new ones are ready)")
    } else {
        format!("Query {u} → {v}   (/ asks another)")
    };
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }).block(panel(&title)), top);
    let [left, right] =
        Layout::horizontal([Constraint::Length(intervals_width(bottom.width)), Constraint::Min(30)]).areas(bottom);
    intervals(frame, left, app, result);
    tree(frame, right, app, result, hits);
}

/// The intervals panel's width: two fifths of the tab, at least 38 columns (its number lines and
/// their heads), so a wide terminal gives the number lines room to separate nearby positions.
fn intervals_width(total: u16) -> u16 {
    (total * 2 / 5).max(38)
}

/// `head` followed by the first of `tags` (longest first) with which the line fits `width`, else
/// the last one: a tag is shortened, never cut.
fn with_fitting_tag<'a>(mut head: Vec<Span<'a>>, tags: Vec<Span<'a>>, width: u16) -> Line<'a> {
    let used: usize = head.iter().map(Span::width).sum();
    let last = tags.len().saturating_sub(1);
    if let Some(tag) = tags.into_iter().enumerate().find(|(i, t)| used + t.width() <= width as usize || *i == last) {
        head.push(tag.1);
    }
    Line::from(head)
}

/// Rows `line` takes when word-wrapped to `width` columns (as the paragraph wraps it).
fn wrapped_rows(line: &Line, width: u16) -> u16 {
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    wrap(&text, width as usize).len() as u16
}

fn intro(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    // A named graph's example: its first two names, in order of first appearance.
    let names = &app.ws.loaded.names;
    let (what, example) = match names.table() {
        Some(t) if t.len() >= 2 => (
            " and type two vertex names (Tab completes), e.g. ",
            format!("{} {}", quoted(t.name(0)), quoted(t.name(1))),
        ),
        _ => (" and type two vertex ids (file ids), e.g. ", "2 1".to_string()),
    };
    let lines = vec![
        Line::from(vec![
            Span::raw("Press "),
            Span::styled("/", theme.key()),
            Span::raw(what),
            Span::styled(example, theme.accent()),
        ]),
        Line::raw("Does u reach v? The answer comes with the rule that decided it."),
        Line::from(vec![
            Span::styled(format!("rules: {} ", app.query.rules), theme.dim()),
            Span::styled("(R switches)", theme.dim()),
        ]),
        Line::styled(
            "Before labels exist, the query index answers at once; after a search, labels are built and the \
             pair re-asked. GRAIL's rules build labels first.",
            theme.dim(),
        ),
    ];
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }).block(panel("Query")), area);
}

/// The verdict, the checks in the order they ran, the explanation and the path found; the headline
/// keeps to one line of `width` by shortening its rule-set note first.
fn verdict_lines<'a>(app: &App, r: &QueryResult, width: u16) -> Vec<Line<'a>> {
    let theme = &app.theme;
    let (a, decision) = (&r.answer, &r.decision);
    let (word, style) = if a.reachable { ("YES", theme.yes()) } else { ("NO", theme.no()) };
    let (u, v) = (app.label(r.u), app.label(r.v));
    let head = vec![
        Span::styled(format!(" {word} "), style.add_modifier(ratatui::style::Modifier::REVERSED)),
        Span::raw(format!("  {u} {} {v}", if a.reachable { "reaches" } else { "does not reach" })),
        Span::raw("   decided by "),
        Span::styled(explain::rule_with_witness(decision), theme.accent()),
    ];
    // The footer names the R key too: the note shortens before the headline wraps.
    let rules = decision.rules;
    let notes =
        [format!("   rules: {rules} (R switches)"), format!("   rules: {rules} (R)"), format!("  rules: {rules}")];
    let head = with_fitting_tag(head, notes.map(|n| Span::styled(n, theme.dim())).to_vec(), width);
    let mut lines = vec![head, Line::styled(explain::trail_line(decision), theme.dim())];
    if !r.labels_ready {
        // Answered without labels: what decided it, and whether labels have come since (it is then
        // being asked again with them).
        let note = match (app.ready.is_some(), r.answer.rule == Rule::Search) {
            (false, false) => "no labels yet: decided by a check that runs before the labels",
            (false, true) => {
                "no labels yet: decided by a search that the query index's cuts guided (asked again once the \
                 labels are built)"
            }
            (true, false) => "answered before the labels, by a check that runs before them (asking again with them)",
            (true, true) => {
                "answered before the labels, by a search that the query index's cuts guided (asking again with them)"
            }
        };
        lines.push(Line::styled(note, theme.dim()));
    } else if app.query.asked_again {
        lines.push(Line::styled("asked again with the labels built since the first answer", theme.dim()));
    }
    lines.push(Line::raw(explain(app, r)));
    // With weights in the file, the answer's path is named as such: it is any path, and the
    // weighted line under it gives a shortest one by weight.
    let weighted = r.weighted.is_some();
    if let Some(path) = &r.vertex_path {
        let what = if weighted { "a path (any one, not by weight):" } else { "path" };
        lines.push(Line::styled(format!("{what} {}", path_text(app, path)), theme.path()));
    }
    match &r.weighted {
        // As `grail sssp` prints it: `3` for an integer, `2.5` otherwise.
        Some(Weighted::Shortest(w)) => lines.push(Line::raw(format!(
            "weighted distance {}: shortest path by weight {}",
            w.distance,
            path_text(app, &w.path)
        ))),
        Some(Weighted::Unreachable) => {
            lines.push(Line::raw(format!("no weighted distance: {v} is not reachable from {u}")))
        }
        Some(Weighted::Unread(e)) => lines.push(Line::styled(format!("no weighted distance: {e}"), theme.warn())),
        None => {}
    }
    lines
}

/// `2 → 0 → 1 (2 edges)` in file ids, along the file's edges; a long path shows its ends and how
/// many lie between.
fn path_text(app: &App, path: &[u32]) -> String {
    const SHOWN: usize = 12;
    let name = |x: &u32| app.label(*x);
    let edges = plural(path.len().saturating_sub(1) as u64, "edge", "edges");
    let steps: Vec<String> = if crate::format::listed(path.len(), SHOWN) == path.len() {
        path.iter().map(name).collect()
    } else {
        let (head, tail) = (&path[..SHOWN - 2], &path[path.len() - 2..]);
        let between = plural((path.len() - head.len() - tail.len()) as u64, "vertex", "vertices");
        head.iter().map(name).chain([format!("… {between} …")]).chain(tail.iter().map(name)).collect()
    };
    format!("{} ({edges})", steps.join(" → "))
}

/// The explanation a student can follow, rendered from the record of the checks that ran.
pub fn explain(app: &App, r: &QueryResult) -> String {
    let vertex = |c: u32| app.component_name(c);
    let names = Names { u: app.label(r.u), v: app.label(r.v), vertex: &vertex };
    explain::sentence(&r.decision, &names)
}

fn intervals(frame: &mut Frame, area: Rect, app: &App, r: &QueryResult) {
    let theme = &app.theme;
    let title = if r.topo.is_some() { "Topological orders, intervals" } else { "Intervals per dimension" };
    let block = panel(title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let max = r.dag_vertices.max(1) as u32;
    let cut = r.decision.labels().and_then(|(_, _, cut)| cut);
    let mut y = inner.y;
    let head = format!("levels: u {} · v {}", r.level_u, r.level_v);
    frame.render_widget(Paragraph::new(Line::styled(head, theme.dim())), Rect::new(inner.x, y, inner.width, 1));
    y += 1;
    if !r.labels_ready {
        let note = if app.ready.is_some() { "labels built since: asking again" } else { "no labels when answered" };
        frame.render_widget(Paragraph::new(Line::styled(note, theme.dim())), Rect::new(inner.x, y, inner.width, 1));
        y += 1;
    }
    // Only the checks that ran decided anything: say which of those drawn here never ran.
    let orders = r.topo.is_some() && r.decision.ran(Rule::TopoCut).is_none();
    let skipped = match (orders, r.labels_ready && r.decision.labels().is_none()) {
        (true, true) => Some("orders, labels"),
        (true, false) => Some("orders"),
        (false, true) => Some("labels"),
        (false, false) => None,
    };
    if let Some(skipped) = skipped {
        let note = format!("unused by the answer: {skipped}");
        frame.render_widget(Paragraph::new(Line::styled(note, theme.dim())), Rect::new(inner.x, y, inner.width, 1));
        y += 1;
    }
    y = topological_orders(frame, Rect { y, height: inner.bottom().saturating_sub(y), ..inner }, app, r);
    for (d, (iu, iv)) in r.intervals_u.iter().zip(&r.intervals_v).enumerate() {
        // A dimension takes three rows; unless it is the last, one more stays free for the marker
        // that says how many are left out.
        let last = d + 1 == r.intervals_u.len();
        if y + 3 + u16::from(!last) > inner.bottom() {
            if y < inner.bottom() {
                let left = (r.intervals_u.len() - d) as u64;
                let rest = if d == 0 {
                    format!(
                        "intervals in {} not shown (a taller terminal shows them)",
                        plural(left, "dimension", "dimensions")
                    )
                } else {
                    format!("… {}", plural(left, "more dimension", "more dimensions"))
                };
                let more = Line::styled(rest, theme.dim());
                frame.render_widget(Paragraph::new(more), Rect::new(inner.x, y, inner.width, 1));
            }
            break;
        }
        let contained = iu.contains(*iv);
        let tags = if Some(d) == cut {
            vec![Span::styled(" ✗ cut", theme.no()), Span::styled(" ✗", theme.no())]
        } else if contained {
            vec![Span::styled(" ⊆", theme.yes())]
        } else {
            vec![Span::styled(" ⊄", theme.no())]
        };
        // Where the intervals and the tag do not fit, the space between the intervals goes first.
        let wide = format!("u [{},{}]  v [{},{}]", iu.low, iu.post, iv.low, iv.post);
        let narrow = format!("u [{},{}] v [{},{}]", iu.low, iu.post, iv.low, iv.post);
        let room = inner.width.saturating_sub(3) as usize;
        let intervals = if wide.chars().count() + tags[0].width() <= room { wide } else { narrow };
        let head = with_fitting_tag(
            vec![Span::styled(format!("d{d} "), theme.title()), Span::raw(intervals)],
            tags,
            inner.width,
        );
        frame.render_widget(Paragraph::new(head), Rect::new(inner.x, y, inner.width, 1));
        frame.render_widget(number_line(app, max, (*iu, *iv), !contained), Rect::new(inner.x, y + 1, inner.width, 2));
        y += 3;
    }
}

/// u's interval above v's on one line `1..=max`, in the theme's colours; `cut` draws v's as refuted.
fn number_line(app: &App, max: u32, (u, v): (Interval, Interval), cut: bool) -> NumberLine {
    let theme = &app.theme;
    NumberLine {
        max,
        u,
        v,
        cut,
        base: theme.dim(),
        u_style: theme.accent(),
        v_style: theme.yes(),
        cut_style: theme.no(),
    }
}

/// The positions of u and v in each topological order of the query index, as points on a number
/// line (`u` must come first for a path to exist). Returns the row below them.
fn topological_orders(frame: &mut Frame, area: Rect, app: &App, r: &QueryResult) -> u16 {
    let theme = &app.theme;
    let mut y = area.y;
    let Some((tu, tv)) = &r.topo else { return y };
    let max = r.dag_vertices.max(1) as u32;
    for (i, (&pu, &pv)) in tu.iter().zip(tv).enumerate() {
        if y + 3 > area.bottom() {
            break;
        }
        // One component is one vertex of the DAG: one position in every order, neither before
        // nor after the other (and it reaches v, by the component rule).
        let same = r.cu == r.cv;
        let after = pu >= pv && !same;
        let cut = matches!(r.decision.ran(Rule::TopoCut), Some(Check::TopoOrders { cut: Some(o), .. }) if *o == i);
        // The longest wording first; a narrow panel gets a shorter one, never a cut one.
        let tags = |words: &[&str], style| words.iter().map(|w| Span::styled(format!(" {w}"), style)).collect();
        let tags: Vec<Span> = if cut {
            tags(&["✗ cut", "✗"], theme.no())
        } else if same {
            tags(&["same component", "same SCC", "="], theme.yes())
        } else if after {
            tags(&["u after v", "u > v", ">"], theme.no())
        } else {
            tags(&["u before v", "u < v", "<"], theme.yes())
        };
        let positions = format!("u {} · v {}", thousands(u64::from(pu)), thousands(u64::from(pv)));
        let head = with_fitting_tag(
            vec![Span::styled(format!("t{} ", i + 1), theme.title()), Span::raw(positions)],
            tags,
            area.width,
        );
        frame.render_widget(Paragraph::new(head), Rect::new(area.x, y, area.width, 1));
        // Positions count from 0; the line runs 1..=max.
        let point = |p: u32| Interval { low: p + 1, post: p + 1 };
        frame.render_widget(
            number_line(app, max, (point(pu), point(pv)), after),
            Rect::new(area.x, y + 1, area.width, 2),
        );
        y += 3;
    }
    y
}

fn tree(frame: &mut Frame, area: Rect, app: &App, r: &QueryResult, hits: &mut Hitmap) {
    let theme = &app.theme;
    let (t, nodes) = (&r.answer, &r.trace.nodes);
    if t.rule != Rule::Search {
        let text = format!("No search was needed: the {} rule decided.", t.rule);
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }).block(panel("Search tree")), area);
        return;
    }
    let counts = format!(
        "{} expanded · {} pruned · {}{}",
        thousands(t.expanded),
        thousands(t.pruned),
        plural(t.false_positives, "dead end", "dead ends"),
        if r.trace.truncated { format!(" (first {TRACE_NODE_LIMIT} nodes)") } else { String::new() }
    );
    // The counts whole, dropping the words before them where the panel is narrow.
    let full = format!("Search tree: {counts}");
    let title = if full.chars().count() + 4 <= area.width as usize { full } else { counts };
    let block = panel(&title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let visible = app.query.visible();
    let height = inner.height as usize;
    let selected = app.query.selected.min(visible.len().saturating_sub(1));
    let offset = (selected + 1).saturating_sub(height);
    let mut lines = Vec::new();
    for (row, &tree_row) in visible.iter().enumerate().skip(offset).take(height) {
        let mut line = match tree_row {
            TreeRow::Node { node, depth } => node_line(app, nodes, node, depth),
            TreeRow::Member { node, depth } => node_line(app, nodes, node, depth + 1),
            TreeRow::Pruned { count, depth, open, .. } => {
                let indent = "  ".repeat(depth.min(12));
                let fold = if open { "▾ " } else { "▸ " };
                let counts = GroupCounts::of(nodes, app.query.members(tree_row));
                let count = thousands(count as u64);
                // The longest form that fits the panel: each cut with its count, or only the count.
                let why = group_why(&counts);
                let forms = [
                    format!("{indent}{fold}{count} children {why}"),
                    format!("{indent}{fold}{count} {why}"),
                    format!("{indent}{fold}{count} pruned"),
                ];
                let text = super::chrome::first_fitting(&forms, inner.width as usize);
                Line::styled(text, theme.dim())
            }
        };
        if row == selected {
            line = line.style(theme.selected());
        }
        lines.push(line);
        hits.add(Rect::new(inner.x, inner.y + (row - offset) as u16, inner.width, 1), Hit::TreeRow(row));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// What pruned a group's children: "pruned by label (dims 0, 2)" when one cut pruned them all, else
/// each cut with the number it refused, "pruned: 1 by label (dim 2), 5 by level".
fn group_why(counts: &GroupCounts) -> String {
    let by_label = (counts.by_label > 0).then(|| {
        let which = if counts.dims.len() == 1 { "dim" } else { "dims" };
        let dims: Vec<String> = counts.dims.iter().map(usize::to_string).collect();
        format!("by label ({which} {})", dims.join(", "))
    });
    let by_cut = counts.by_cut.iter().map(|&(rule, n)| (search_step_phrase(rule).trim_start_matches("pruned "), n));
    match (by_label, counts.by_cut.as_slice()) {
        (Some(label), []) => format!("pruned {label}"),
        (None, [(rule, _)]) => search_step_phrase(*rule).to_string(),
        (label, _) => {
            let label = label.map(|l| format!("{} {l}", thousands(counts.by_label as u64)));
            let cuts = by_cut.map(|(phrase, n)| format!("{} {phrase}", thousands(n as u64)));
            format!("pruned: {}", label.into_iter().chain(cuts).collect::<Vec<_>>().join(", "))
        }
    }
}

/// One node of the tree: indented `depth` levels, with its fold mark, its name and what happened
/// to it.
fn node_line<'a>(app: &App, nodes: &[TraceNode], i: usize, depth: usize) -> Line<'a> {
    let theme = &app.theme;
    let node = &nodes[i];
    let indent = "  ".repeat(depth.min(12));
    let fold = match (app.query.has_children(i), app.query.folded.contains(&i)) {
        (false, _) => "  ",
        (true, true) => "▸ ",
        (true, false) => "▾ ",
    };
    let name = app.component_name(node.vertex);
    let (tag, style) = match node.kind {
        NodeKind::Start if node.backward && node.on_path => {
            ("start v (backward), on the path".to_string(), theme.path())
        }
        NodeKind::Start if node.backward => ("start v (backward), not reached".to_string(), theme.warn()),
        NodeKind::Start if node.on_path => ("start u, on the path".to_string(), theme.path()),
        NodeKind::Start => ("start u, dead end".to_string(), theme.warn()),
        NodeKind::Meeting => ("the two searches meet here".to_string(), theme.yes()),
        NodeKind::Entered if node.on_path => ("on the path".to_string(), theme.path()),
        NodeKind::Entered if node.dead_end && node.backward => {
            ("dead end (u cannot reach it)".to_string(), theme.warn())
        }
        NodeKind::Entered if node.dead_end => ("dead end (cannot reach v)".to_string(), theme.warn()),
        // Only a breadth-first search leaves these: queued, then the target turned up first.
        NodeKind::Entered if !node.expanded => ("queued, not expanded".to_string(), theme.dim()),
        NodeKind::Entered => ("reaches v".to_string(), theme.yes()),
        NodeKind::Pruned { dim } => (format!("pruned by label (dim {dim})"), theme.dim()),
        NodeKind::Cut { rule } => (search_step_phrase(rule).to_string(), theme.dim()),
        NodeKind::Reached { rule } => (search_step_phrase(rule).to_string(), theme.path()),
        NodeKind::Target => ("target v".to_string(), theme.yes()),
    };
    // The backward side of a bidirectional search climbs over parents, from v.
    let side = if node.backward { "← " } else { "" };
    Line::from(vec![
        Span::raw(format!("{indent}{fold}{side}")),
        Span::styled(name, style),
        Span::styled(format!("  {tag}"), style),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_header_names_each_cut_with_its_own_count() {
        let mixed = GroupCounts { by_label: 1, dims: vec![2], by_cut: vec![(Rule::LevelCut, 5), (Rule::TopoCut, 1)] };
        assert_eq!(group_why(&mixed), "pruned: 1 by label (dim 2), 5 by level, 1 by topological order");
        let labels = GroupCounts { by_label: 3, dims: vec![0, 2], by_cut: vec![] };
        assert_eq!(group_why(&labels), "pruned by label (dims 0, 2)");
        let level = GroupCounts { by_label: 0, dims: vec![], by_cut: vec![(Rule::LevelCut, 4)] };
        assert_eq!(group_why(&level), "pruned by level");
    }
}
