//! The Batch tab's BFS frontier panel: one BFS of an exact row, the vertices first reached at each
//! level, drawn as the Labels tab draws the pipeline's frontier (columns as wide as the panel
//! allows, the frontier on the y axis, levels on the x axis, a dim head line above).

use super::panel;
use crate::format::thousands;
use crate::tui::app::App;
use crate::tui::widgets::columns::{self, ColumnLayout, Columns, XAxis, YAxis};
use crate::tui::widgets::resample;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

/// What the panel says before an exact row has run: what will appear there.
pub const HINT: &str = "the levels of an exact bfs run show here";

/// Rows the chart needs inside the panel: the head line, two rows of bars and the x axis. Fewer,
/// and the head line alone says what the chart would show.
const CHART_ROWS: u16 = 4;

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let Some(f) = app.batch.charted_row().and_then(|row| row.frontier.as_ref()) else {
        let block = panel("BFS frontier");
        frame.render_widget(Paragraph::new(Line::styled(HINT, theme.dim())).block(block), area);
        return;
    };
    // The title says whose BFS it is; the head line what it reached and why this one.
    let title = format!("BFS frontier: {} from {}", f.engine.name(), f.source_label);
    let block = panel(&title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let sizes = &f.frontier_sizes;
    let levels = crate::format::plural(sizes.len() as u64, "level", "levels");
    let reached = format!("{} reached in {levels}", thousands(f.reached));
    if inner.height < CHART_ROWS {
        frame.render_widget(Paragraph::new(Line::styled(reached, theme.dim())), inner);
        return;
    }
    let [head, chart] = Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(inner);
    // As the Graph tab's levels: the y axis sized for the largest a column could hold (all reached),
    // then levels summed into columns when there are more than the plot has cells.
    let (_, plot, _) = columns::split(chart, &thousands(f.reached));
    let (data, per) = resample(sizes, plot.width as usize);
    let per_column = if per > 1 { format!(", {per} levels a column") } else { String::new() };
    // The longest that fits: why this BFS (it reached the most of the row's), then the bare counts
    // (the x axis's labels still say how many levels a column sums).
    let sources = thousands(f.sources as u64);
    let candidates = [
        format!("{reached}, the most of {sources} BFSs{per_column}"),
        format!("{reached}: most of {sources} BFSs{per_column}"),
        format!("{reached}{per_column}"),
        reached,
    ];
    let fits = |text: &&String| text.chars().count() <= head.width as usize;
    let text = candidates.iter().find(fits).unwrap_or(&candidates[3]);
    frame.render_widget(Paragraph::new(Line::styled(text.as_str(), theme.dim())), head);
    let peak_label = thousands(data.iter().copied().max().unwrap_or(0));
    let (y_axis, plot, x_axis) = columns::split(chart, &peak_label);
    let layout = ColumnLayout::fit(data.len(), plot.width);
    frame.render_widget(Columns { values: &data, layout, style: theme.bar(), labels: None }, plot);
    frame.render_widget(YAxis { peak_label: &peak_label, bottom_label: "0", style: theme.dim() }, y_axis);
    frame.render_widget(XAxis { layout, first: 0, per: per as u64, prefix: "", style: theme.dim() }, x_axis);
}
