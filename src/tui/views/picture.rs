//! Screen 6: the graph drawn (small graphs whole, large ones around a vertex or a query), its DFS
//! tree and intervals in one dimension, the stepper's progress and a query's search.

use super::panel;
use crate::index::Order;
use crate::index::labeler::Status;
use crate::telemetry::Backend;
use crate::tui::app::App;
use crate::tui::state::picture::{PictureState, viewport};
use crate::tui::widgets::picture::PictureView;
use crate::tui::widgets::picture::grid::{ZOOM_LEVELS, shows_detail, zoom_name};
use crate::tui::worker::{EXCEPTION_DIMS, Focus, PictureLabels};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

/// The side panel's width: narrower on small terminals, so the drawing keeps most of the room.
fn side_width(total: u16) -> u16 {
    if total >= 120 { 36 } else { 28 }
}

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let state = &app.picture;
    let side_width = if state.side_panel { side_width(area.width) } else { 0 };
    let [main, side] = Layout::horizontal([Constraint::Min(40), Constraint::Length(side_width)]).areas(area);
    let block = panel("Picture");
    let inner = block.inner(main);
    frame.render_widget(block, main);
    state.shown_area.set(inner);
    match (&state.result, state.view()) {
        (Some(result), Some(view)) => {
            let widget = PictureView::new(&result.picture)
                .no_color(!app.theme.color)
                .selected(state.selected)
                .zoom(view.zoom)
                .scroll(view.x, view.y);
            frame.render_widget(widget, inner);
        }
        _ => {
            // Without a drawing and with nothing running, the last one was cancelled or failed (the
            // status line says which): on this tab, 6 asks for it again.
            let text = if app.busy.is_some() { "drawing…" } else { "nothing drawn: 6 draws the graph again" };
            frame.render_widget(Paragraph::new(Line::styled(text, app.theme.dim())), inner);
        }
    }
    if state.side_panel {
        sidebar(frame, side, app);
    }
}

/// Where the query's u and v are, when the view does not show both, and what brings them into
/// view: `z` where the fitted view shows both, `p` where the room of this panel (`side` columns)
/// would, else panning towards the one left out.
fn off_screen(state: &PictureState, side: u16) -> Option<String> {
    let (scene, view) = (state.scene()?, state.view()?);
    let named = || state.targets.iter().zip(["u", "v"]);
    let hidden: Vec<&str> = named().filter(|&(&i, _)| !scene.shows(view, i)).map(|(_, name)| name).collect();
    if hidden.is_empty() {
        return None;
    }
    let all_shown = |scene: &viewport::Scene, view| state.targets.iter().all(|&i| scene.shows(view, i));
    let wider = viewport::Scene { area: Rect { width: scene.area.width + side, ..scene.area }, ..scene };
    let remedy = if all_shown(&scene, scene.fit()) {
        "z fits them in view".to_string()
    } else if side > 0 && all_shown(&wider, wider.fit()) {
        "p hides this panel to make room for both".to_string()
    } else {
        // Too far apart for any zoom here: say which way the hidden ones lie.
        let sides: Vec<String> = named()
            .filter_map(|(&i, name)| {
                let side = scene.beyond(view, i)?.replace("left", "to the left").replace("right", "to the right");
                Some(format!("{name} lies {side}"))
            })
            .collect();
        format!("they do not fit together at any zoom: {}; arrows pan there", sides.join(", "))
    };
    Some(format!("{} not wholly in view: {remedy}", hidden.join(" and ")))
}

/// The cursor's drawn parents and children not wholly in the view: an edge that leaves the
/// screen then says where it goes.
fn neighbours_out_of_view(state: &PictureState, cursor: usize) -> Option<String> {
    let (scene, view, result) = (state.scene()?, state.view()?, state.result.as_ref()?);
    let picture = &result.picture;
    let mut hidden = Vec::new();
    for edge in &picture.edges {
        let (other, role) = match (edge.from == cursor, edge.to == cursor) {
            (true, false) => (edge.to, "child"),
            (false, true) => (edge.from, "parent"),
            _ => continue,
        };
        if let Some(side) = scene.beyond(view, other) {
            hidden.push(format!("{} ({role}, {side})", picture.nodes.get(other)?.name()));
        }
    }
    if hidden.is_empty() {
        return None;
    }
    let count = hidden.len();
    hidden.truncate(crate::format::listed(count, 3));
    let more = if count > hidden.len() { format!(" and {} more", count - hidden.len()) } else { String::new() };
    let neighbours = crate::format::plural(count as u64, "neighbour", "neighbours");
    Some(format!(
        "  {neighbours} not wholly in view: {}{more}; arrows pan there, j/k step the cursor through the vertices",
        hidden.join(", ")
    ))
}

/// Which labels an exception is drawn with, and how they compare with the Labels tab's settings.
fn exception_labels(app: &App, dims: usize, seed: u64) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let config = app.labels.config();
    let order = Order::Random { seed };
    let mut lines = vec![Line::styled(format!("labels: the exception's, d = {dims}, {order}"), theme.accent())];
    if config.dims == dims && config.order == order {
        lines.push(Line::styled("the Labels tab's settings give the same labels", theme.dim()));
    } else {
        lines.push(Line::raw(format!("the Labels tab's differ: d = {}, {}", config.dims, config.order)));
        // Dimension i depends only on the order and i: where the pair stops being nested, it is cut.
        if config.order == order && config.dims > dims && dims < EXCEPTION_DIMS {
            lines.push(Line::raw(format!("(with them dimension {dims} cuts this pair)")));
        }
        lines.push(Line::styled("s f r x or / go back to them", theme.dim()));
    }
    lines
}

fn sidebar(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let state = &app.picture;
    let config = app.labels.config();
    let mut lines = Vec::new();
    let ran = app.labels.status.as_ref().map_or(config.backend, |s| s.backend);
    lines.push(Line::styled(format!("back end: {}", ran.title()), theme.title()));
    let finished = app.labels.status.as_ref().is_some_and(|s| s.status == Status::Finished);
    let stepping = match ran {
        _ if finished => "the labels are complete: x resets them to step again",
        Backend::Dfs => {
            "the DFS runs in one step: s shows its finished tree (pick the CPU pipeline in tab 2 to watch the levels)"
        }
        Backend::Cpu | Backend::Gpu => "s steps one level, f a phase, r to the end, x resets",
    };
    lines.push(Line::styled(stepping, theme.dim()));
    let built = app.labels.built_dims();
    lines.push(Line::raw(format!("dimension {} of {}  ([ ] or h l switch)", state.dim, state.dims(config, built))));
    if let (PictureLabels::Session, Some(built)) = (state.labels, built)
        && built != config.dims
    {
        let note = format!("the labels drawn have d = {built}; the Labels tab asks for {}: r builds them", config.dims);
        lines.push(Line::styled(note, theme.dim()));
    }
    if let PictureLabels::Exception { dims, seed } = state.labels {
        lines.extend(exception_labels(app, dims, seed));
    }
    lines.push(Line::raw(""));
    // A picture asked for but not drawn yet: the drawing shown, and its notes, are the old one's.
    let pending =
        state.result.as_ref().is_some_and(|r| r.request.focus != state.focus || r.request.labels != state.labels);
    if pending {
        let what = match state.focus {
            Focus::Query { u, v } => format!("{} ⇝ {}", app.label(u), app.label(v)),
            _ => "the new picture".to_string(),
        };
        lines.push(Line::styled(format!("drawing {what}… (the picture shown is the one before)"), theme.accent()));
    }
    if let Some(result) = state.result.as_ref().filter(|_| !pending) {
        let picture = &result.picture;
        // The line above already names the dimension shown; the title keeps it for the SVG.
        let suffix = picture.labeled_dim.map(|dim| format!(", dimension {dim}"));
        let title = suffix.and_then(|s| picture.title.strip_suffix(&s)).unwrap_or(&picture.title);
        lines.push(Line::styled(title.to_string(), theme.accent()));
        // What brings u and v into view comes first: it is what to do next.
        if matches!(result.request.focus, Focus::Query { .. })
            && let Some(text) = off_screen(state, area.width)
        {
            lines.push(Line::styled(text, theme.accent()));
        }
        for note in &picture.notes {
            lines.push(Line::raw(note.clone()));
        }
        if let Some(view) = state.view() {
            // Numbers the boxes leave out at this zoom: say how to see them.
            let hidden = !shows_detail(view.zoom) && picture.nodes.iter().any(|n| n.detail().is_some());
            let how = if hidden { " (their numbers: + zooms in, p makes room)" } else { "" };
            lines.push(Line::raw(format!("zoom {} of {ZOOM_LEVELS}: {}{how}", view.zoom + 1, zoom_name(view.zoom))));
        }
        if let Some(node) = state.selected.and_then(|i| picture.nodes.get(i)) {
            // The detail (the interval) has a line of its own below.
            lines.push(Line::styled(format!("cursor: {}", node.title()), theme.title()));
            if let Some(detail) = node.detail() {
                lines.push(Line::raw(format!("  {detail}")));
            }
            if node.member_count > 1 {
                let count = crate::format::plural(node.member_count as u64, "vertex", "vertices");
                lines.push(Line::raw(format!("  a strongly connected component of {count}")));
            }
            if let Some(text) = state.selected.and_then(|i| neighbours_out_of_view(state, i)) {
                lines.push(Line::styled(text, theme.accent()));
            }
        }
        lines.push(Line::raw(""));
        if state.selected.is_none() {
            lines.push(Line::styled("j/k move the cursor over the vertices", theme.dim()));
        }
        let resize = if result.whole { "" } else { "; < and > resize the neighbourhood" };
        lines.push(Line::styled(format!("Enter centres on the cursor{resize}"), theme.dim()));
        lines.push(Line::styled(
            "arrows pan, + - zoom, z fits, g goes to a vertex, e writes SVG, p hides this panel",
            theme.dim(),
        ));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("/ asks a query and draws its search", theme.dim()));
    lines.push(Line::styled("Exceptions tab (5): Enter shows a false positive here", theme.dim()));
    // Wrapped here, each row keeping its line's style, so that a panel too short for all of them
    // shows whole lines only and ends by saying so, never mid-sentence. A line too long for the
    // rows left gives way to the shorter ones after it, so no row stays empty that one could use.
    let width = area.width.saturating_sub(2).max(1) as usize;
    let wrapped: Vec<Vec<Line>> = lines
        .iter()
        .map(|line| {
            let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
            let style = line.spans.first().map_or(line.style, |s| line.style.patch(s.style));
            super::chrome::wrap(&text, width).into_iter().map(|row| Line::styled(row, style)).collect()
        })
        .collect();
    let height = area.height.saturating_sub(2) as usize;
    let mut rows: Vec<Line> = wrapped.iter().flatten().cloned().collect();
    if rows.len() > height && height > 0 {
        rows = fill(&wrapped, height - 1);
        // On the last row, even where no line fits the rows left above it.
        rows.resize(height - 1, Line::raw(""));
        rows.push(Line::styled("… more (a taller terminal)", theme.accent()));
    }
    frame.render_widget(Paragraph::new(rows).block(panel("What you see")), area);
}

/// The lines (each its wrapped rows) that fit `height` rows, in order: a line that does not fit
/// in what is left is skipped and the next ones are tried. A blank line is kept only between two
/// kept lines, and only where the next one fits after it, so skipping never leaves two blanks
/// together nor one at the end.
fn fill<'a>(lines: &[Vec<Line<'a>>], height: usize) -> Vec<Line<'a>> {
    let blank = |line: &Vec<Line>| line.iter().all(|row| row.width() == 0);
    let mut rows: Vec<Line> = Vec::new();
    let mut gap = false;
    for line in lines {
        if blank(line) {
            gap = !rows.is_empty();
            continue;
        }
        if rows.len() + line.len() > height {
            continue;
        }
        if gap && rows.len() + line.len() < height {
            rows.push(Line::raw(""));
        }
        rows.extend(line.iter().cloned());
        gap = false;
    }
    rows
}
