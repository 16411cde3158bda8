//! Screen 2: build labels step by step and watch the phases, the frontier and memory.

use super::{SETTINGS_HINT, cursor, panel};
use crate::format::{bytes, duration, plural, thousands};
use crate::telemetry::{Backend, LARGE_DEGREE_LIMIT, Phase, QueueSizes, SMALL_DEGREE_LIMIT};
use crate::tui::app::App;
use crate::tui::hitmap::{Hit, Hitmap};
use crate::tui::state::labels::FIELDS;
use crate::tui::widgets::columns::{self, ColumnLayout, XAxis, YAxis};
use crate::tui::widgets::stacked_bars::{LARGE_SYMBOL, MEDIUM_SYMBOL, SMALL_SYMBOL, StackedBars};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Gauge, Paragraph, Row, Table};

pub fn render(frame: &mut Frame, area: Rect, app: &App, hits: &mut Hitmap) {
    let [left, right] = Layout::horizontal([Constraint::Length(36), Constraint::Min(40)]).areas(area);
    let [settings, memory] = Layout::vertical([Constraint::Length(12), Constraint::Min(6)]).areas(left);
    settings_panel(frame, settings, app, hits);
    memory_panel(frame, memory, app);
    // The phases take the rows they need (borders and header besides), up to nearly half the height.
    let wanted = app.labels.phases.rows.len().max(1) as u16 + 3;
    let phases_height = wanted.min(right.height * 45 / 100).max(right.height * 3 / 10);
    let [phases, frontier, log] = Layout::vertical([
        Constraint::Length(phases_height),
        Constraint::Min(6),
        Constraint::Length((right.height / 5).max(3)),
    ])
    .areas(right);
    phase_table(frame, phases, app);
    frontier_chart(frame, frontier, app);
    event_log(frame, log, app);
}

fn settings_panel(frame: &mut Frame, area: Rect, app: &App, hits: &mut Hitmap) {
    let theme = &app.theme;
    let state = &app.labels;
    let block = panel("Settings");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut lines = Vec::new();
    for (i, name) in FIELDS.iter().enumerate() {
        let value = state.field_value(i);
        let text = format!("{}{name:<13}{value:>19}", cursor(i == state.selected));
        let style = if i == state.selected { theme.selected() } else { theme.text() };
        lines.push(Line::styled(text, style));
        if (i as u16) < inner.height {
            hits.add(Rect::new(inner.x, inner.y + i as u16, inner.width, 1), Hit::LabelField(i));
        }
    }
    lines.push(Line::styled(SETTINGS_HINT, theme.dim()));
    lines.push(Line::styled(app.gpu.describe(), theme.dim()));
    if let Some(status) = state.status.as_ref().filter(|s| s.fallback.is_some()) {
        let reason = status.fallback.as_deref().unwrap_or_default();
        lines.push(Line::styled(format!("running the {} ({reason})", status.backend.title()), theme.warn()));
    }
    if state.backend == Backend::Dfs {
        lines.push(Line::styled("DFS has no levels: s/f/r run it all", theme.dim()));
    }
    lines.push(Line::styled(state.summary(), theme.accent()));
    // Untrimmed: the rows' leading spaces are where the cursor goes.
    frame.render_widget(Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false }), inner);
}

fn memory_panel(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let state = &app.labels;
    let block = panel("Memory");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let rows = Layout::vertical([Constraint::Length(1); 6]).split(inner);
    let resident = state.resident.unwrap_or(0);
    let index = state.index_bytes();
    let process_label = match app.total_memory {
        Some(total) => format!("{} of {}", bytes(resident), bytes(total)),
        None => bytes(resident),
    };
    let process_ratio = app.total_memory.map_or(0.0, |t| resident as f64 / t.max(1) as f64);
    if rows.len() >= 4 {
        frame.render_widget(Paragraph::new("process (resident)"), rows[0]);
        frame.render_widget(gauge(process_ratio, process_label, theme), rows[1]);
        frame.render_widget(Paragraph::new("index structures / process"), rows[2]);
        let index_ratio = if resident == 0 { 0.0 } else { index as f64 / resident as f64 };
        frame.render_widget(gauge(index_ratio, bytes(index), theme), rows[3]);
    }
    if rows.len() >= 5 {
        frame.render_widget(Paragraph::new(Line::styled(app.gpu.describe(), theme.dim())), rows[4]);
    }
    if let (Some((used, total)), true) = (state.gpu_memory(), rows.len() >= 6) {
        let label = format!("{} of {}", bytes(used), bytes(total));
        frame.render_widget(gauge(used as f64 / total.max(1) as f64, label, theme), rows[5]);
    }
}

fn gauge<'a>(ratio: f64, label: String, theme: &crate::tui::theme::Theme) -> Gauge<'a> {
    Gauge::default().ratio(ratio.clamp(0.0, 1.0)).label(label).gauge_style(theme.gauge()).use_unicode(true)
}

fn phase_table(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let rows_all = &app.labels.phases.rows;
    let mut block = panel("Phases");
    let inner = block.inner(area);
    let inner_height = inner.height.saturating_sub(1) as usize;
    let skip = rows_all.len().saturating_sub(inner_height);
    if skip > 0 {
        let note = format!(" ↑ {} earlier ", plural(skip as u64, "phase", "phases"));
        block = block.title_bottom(Line::styled(note, theme.accent()).right_aligned());
    }
    // Every column but the edges scanned fits 42 cells; the edges come where there is room.
    let edges = inner.width >= 54;
    let rows: Vec<Row> = rows_all
        .iter()
        .skip(skip)
        .map(|r| {
            let state = if r.done { Span::styled("done", theme.yes()) } else { Span::styled("run", theme.warn()) };
            let mut cells = vec![
                Line::raw(r.dim.to_string()),
                Line::raw(r.phase.name()),
                Line::from(state),
                Line::raw(r.shown_with_root(r.levels_done as u64)),
            ];
            if edges {
                cells.push(Line::raw(thousands(r.edges_scanned)));
            }
            cells.push(Line::raw(duration(r.seconds)));
            Row::new(cells)
        })
        .collect();
    let mut titles = vec!["dim", "phase", "state", "levels"];
    let mut widths = vec![Constraint::Length(3), Constraint::Length(16), Constraint::Length(5), Constraint::Length(6)];
    if edges {
        titles.push("edges");
        widths.push(Constraint::Length(10));
    }
    titles.push("time");
    widths.push(Constraint::Length(8));
    if rows_all.iter().any(|r| r.phase.walks_virtual_root()) {
        // On the top border, right of the title: the bottom one may say how many rows scrolled away.
        let note = if inner.width >= 56 {
            " +1: the DFS tree's virtual root, one level more "
        } else {
            " +1: the virtual root "
        };
        block = block.title(Line::styled(note, theme.dim()).right_aligned());
    }
    let header = Row::new(titles).style(theme.title());
    let table = if rows.is_empty() {
        Table::new(vec![Row::new(["", "nothing run yet"])], widths)
    } else {
        Table::new(rows, widths)
    };
    frame.render_widget(table.header(header).block(block), area);
}

fn frontier_chart(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let Some((dim, f)) = app.labels.focused_frontier() else {
        let block = panel("Frontier (y) per BFS level (x)");
        let text = Paragraph::new(Line::styled("the frontier of each BFS level shows here", theme.dim())).block(block);
        frame.render_widget(text, area);
        return;
    };
    let total = f.levels.len() + f.dropped;
    // The x axis's direction in the title, the longest wording that fits between the corners.
    let first = counted_from(f.phase);
    let title = [format!("Frontier (y) per level (x), {first}"), format!("Frontier per level, {first}")]
        .into_iter()
        .find(|t| t.chars().count() + 4 <= area.width as usize)
        .unwrap_or_else(|| "Frontier per level".to_string());
    let block = panel(&title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height < 2 {
        return;
    }
    let note = (f.averaged > 0).then(|| {
        // Tiny levels run together and are measured as one: the pipeline reports their summed
        // queues, which the chart splits evenly over them (see `state/labels.rs`).
        let (n, m) = (thousands(f.averaged as u64), thousands(f.levels.len() as u64));
        let long = format!(
            "{n} of {m} levels were measured in groups of tiny levels: each bar is its group's total split evenly"
        );
        let text = if long.chars().count() <= inner.width as usize {
            long
        } else {
            format!("{n} of {m} bars split a group's total evenly")
        };
        super::chrome::wrap(&text, inner.width as usize)
    });
    let note = note.unwrap_or_default();
    // The latest levels that fit, with the y axis sized for the largest frontier they could show
    // (the chart is as wide as the panel's inside).
    let peak_of = |levels: &[QueueSizes]| levels.iter().map(|q| q.total()).max().unwrap_or(0);
    let widest = thousands(peak_of(&f.levels[f.levels.len().saturating_sub(inner.width as usize)..]));
    let (_, plot, _) = columns::split(inner, &widest);
    let shown_from = f.levels.len().saturating_sub(plot.width as usize);
    let shown = &f.levels[shown_from..];
    let peak = peak_of(shown);
    let range = if shown.is_empty() {
        "no level yet".to_string()
    } else {
        format!("levels {}-{} of {}", shown_from + f.dropped, total - 1, thousands(total as u64))
    };
    let head = format!("dim {dim} {}: {range}", f.phase);
    let head: Vec<Line> = super::chrome::wrap(&head, inner.width as usize)
        .into_iter()
        .chain(note)
        .map(|l| Line::styled(l, theme.dim()))
        .collect();
    let [title, chart, legend] =
        Layout::vertical([Constraint::Length(head.len() as u16), Constraint::Min(1), Constraint::Length(1)])
            .areas(inner);
    frame.render_widget(Paragraph::new(head), title);
    let peak_label = thousands(peak);
    let (y_axis, plot, x_axis) = columns::split(chart, &peak_label);
    let styles = [theme.small(), theme.medium(), theme.large()];
    frame.render_widget(StackedBars { columns: shown, styles }, plot);
    // A non-empty queue fills at least its bottom cell: the bottom row stands for 1, not 0.
    frame.render_widget(YAxis { peak_label: &peak_label, bottom_label: "1", style: theme.dim() }, y_axis);
    let layout = ColumnLayout::fit(shown.len(), plot.width);
    let first = (shown_from + f.dropped) as u64;
    frame.render_widget(XAxis { layout, first, per: 1, prefix: "", style: theme.dim() }, x_axis);
    let legend_line = Line::from(vec![
        Span::styled(SMALL_SYMBOL, theme.small()),
        Span::raw(format!(" degree <{SMALL_DEGREE_LIMIT}  ")),
        Span::styled(MEDIUM_SYMBOL, theme.medium()),
        Span::raw(format!(" ≤{LARGE_DEGREE_LIMIT}  ")),
        Span::styled(LARGE_SYMBOL, theme.large()),
        Span::raw(format!(" >{LARGE_DEGREE_LIMIT}")),
    ]);
    frame.render_widget(Paragraph::new(legend_line), legend);
}

/// Where a phase's level 0 lies: bottom-up phases start at the deepest level, the others at the
/// roots (the DFS tree's phases at its virtual root).
fn counted_from(phase: Phase) -> &'static str {
    match phase {
        Phase::SubtreeSizes | Phase::MinPost | Phase::SubgraphSizes => "leaves first",
        Phase::ParentSelection | Phase::ParentSssp | Phase::PostOrder | Phase::Dfs => "roots first",
    }
}

fn event_log(frame: &mut Frame, area: Rect, app: &App) {
    let block = panel("Events");
    let inner = block.inner(area);
    let height = inner.height as usize;
    let log = &app.labels.log;
    // The latest events that fit whole, each wrapped to the panel's width.
    let mut events: Vec<Vec<String>> = Vec::new();
    let mut used = 0;
    for event in log.iter().rev() {
        let rows = super::chrome::wrap(event, inner.width.max(1) as usize);
        if used + rows.len() > height {
            break;
        }
        used += rows.len();
        events.push(rows);
    }
    let lines: Vec<Line> = events.into_iter().rev().flatten().map(Line::raw).collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
