//! Screen 1: the graph's shape: counts, the vertices per topological level, degree histograms, what
//! the loader did and where the cycles are.

use super::panel;
use crate::format::{duration, thousands};
use crate::graph::load_report::{Anomaly, Firsts, describe};
use crate::tui::app::App;
use crate::tui::widgets::columns::{self, ColumnLayout, Columns, XAxis, YAxis};
use crate::tui::widgets::{hbars::HBars, resample};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let g = &app.graph;
    let s = &g.stats;
    let [left, right] = Layout::horizontal([Constraint::Length(38), Constraint::Min(30)]).areas(area);
    let row = |name: &str, value: String| Line::from(format!("{name:<18}{value:>17}"));
    let file = g.file.rsplit('/').next().unwrap_or(&g.file).to_string();
    let lines = vec![
        Line::styled(file, theme.title()),
        row("format", g.format.name().to_string()),
        row("load time", duration(g.load_seconds)),
        row("condense time", duration(g.condense_seconds)),
        row("vertices", thousands(s.vertices)),
        row("edges", thousands(s.edges)),
        row("components (SCC)", thousands(s.components)),
        row("largest component", thousands(s.largest_component)),
        row("is a DAG", if s.is_dag { "yes" } else { "no" }.into()),
        row("roots", thousands(s.roots)),
        row("leaves", thousands(s.leaves)),
        row("isolated", thousands(s.isolated)),
        row("depth (levels)", thousands(s.depth)),
        row("out-degree max/avg", format!("{} / {:.2}", thousands(s.max_out_degree), s.avg_out_degree)),
        row("in-degree max/avg", format!("{} / {:.2}", thousands(s.max_in_degree), s.avg_in_degree)),
        Line::raw(""),
        Line::styled("o opens another graph", theme.dim()),
    ];
    frame.render_widget(Paragraph::new(lines).block(panel("Graph")), left);

    let diagnosis = diagnosis_lines(app, right.width.saturating_sub(2) as usize);
    let [levels, degrees, diagnosis_area] = Layout::vertical([
        Constraint::Percentage(40),
        Constraint::Min(6),
        Constraint::Length(diagnosis.len() as u16 + 2),
    ])
    .areas(right);
    levels_chart(frame, levels, app);
    frame.render_widget(Paragraph::new(diagnosis).block(panel("Loader and cycles")), diagnosis_area);
    let [out_area, in_area] = Layout::horizontal([Constraint::Ratio(1, 2), Constraint::Ratio(1, 2)]).areas(degrees);
    for (area, title, hist) in
        [(out_area, "Out-degree", &s.out_degree_histogram), (in_area, "In-degree", &s.in_degree_histogram)]
    {
        let rows: Vec<(String, u64)> = hist.iter().map(|b| (b.label.clone(), b.count)).collect();
        let block = panel(title);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        frame.render_widget(HBars { rows: &rows, style: theme.bar() }, inner);
    }
}

/// What the loader did (its anomalies with their first lines) and the largest cyclic components
/// with their size and a shortest cycle each, in file ids.
fn diagnosis_lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let g = &app.graph;
    let theme = &app.theme;
    let mut lines = Vec::new();
    match &g.loader {
        Some(r) => {
            lines.push(Line::from(format!(
                "{} lines: {} comment, {} blank",
                thousands(r.lines),
                thousands(r.comment_lines.count),
                thousands(r.blank_lines.count)
            )));
            let anomalies = r.anomalies();
            if anomalies.is_empty() {
                lines.push(Line::styled("no duplicates, self-loops or unused ids", theme.dim()));
            }
            lines.extend(anomalies.into_iter().map(|(kind, f)| Line::styled(fitted(kind, f, width), theme.warn())));
        }
        None => lines.push(Line::styled(
            format!("no loader report: a {} file holds a graph, not its text", g.format.name()),
            theme.dim(),
        )),
    }
    if g.cyclic_components == 0 {
        lines.push(Line::from("no cycles: every component is one vertex"));
        return lines;
    }
    lines.push(Line::from(format!(
        "{}, {} vertices in all",
        crate::format::plural(g.cyclic_components, "cyclic component", "cyclic components"),
        thousands(g.vertices_in_cycles)
    )));
    let sizes: Vec<String> = g.components.iter().map(|(size, _)| thousands(u64::from(*size))).collect();
    let widest = sizes.iter().map(String::len).max().unwrap_or(0);
    for (size, (_, cycle)) in sizes.iter().zip(&g.components) {
        let path = cycle.join(" -> ");
        lines.push(Line::from(format!("{size:>widest$} vertices: {path}")));
    }
    lines
}

/// An anomaly's sentence with as many of its first lines (or ids) as fit `width`.
fn fitted(kind: Anomaly, f: &Firsts, width: usize) -> String {
    (1..f.first.len())
        .rev()
        .map(|k| describe(kind, &Firsts { count: f.count, first: f.first[..k].to_vec() }))
        .fold(describe(kind, f), |best, shorter| if best.chars().count() > width { shorter } else { best })
}

/// Vertices per topological level: one column per level (or per run of levels on deep graphs), as
/// wide as the panel allows, with the vertex count on the y axis and level numbers on the x axis.
fn levels_chart(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let per_level = &app.graph.stats.vertices_per_level;
    // The y axis's width depends on the peak, and the peak (of summed levels) on the plot's width:
    // the peak of single levels is a lower bound, the total an upper one; size the axis for the total.
    let total: u64 = per_level.iter().sum();
    let (_, plot, _) = columns::split(panel("").inner(area), &thousands(total));
    let (data, per) = resample(per_level, plot.width as usize);
    let peak = data.iter().copied().max().unwrap_or(0);
    let title = if per > 1 {
        format!("Vertices (y) per topological level (x), {per} levels per column")
    } else {
        "Vertices (y) per topological level (x)".to_string()
    };
    let block = panel(&title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let peak_label = thousands(peak);
    let (y_axis, plot, x_axis) = columns::split(inner, &peak_label);
    let layout = ColumnLayout::fit(data.len(), plot.width);
    frame.render_widget(Columns { values: &data, layout, style: theme.bar(), labels: None }, plot);
    frame.render_widget(YAxis { peak_label: &peak_label, style: theme.dim() }, y_axis);
    frame.render_widget(XAxis { layout, first: 0, per: per as u64, prefix: "", style: theme.dim() }, x_axis);
}
