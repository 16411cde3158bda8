//! Screen 1: the graph's shape: counts, the vertices per topological level, degree histograms.

use super::panel;
use crate::format::{duration, thousands};
use crate::tui::app::App;
use crate::tui::widgets::{hbars::HBars, resample};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Sparkline};

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

    let [levels, degrees] = Layout::vertical([Constraint::Percentage(45), Constraint::Min(6)]).areas(right);
    let block = panel("Vertices per topological level (the graph's shape)");
    let inner = block.inner(levels);
    frame.render_widget(block, levels);
    if inner.height >= 2 {
        let [chart, axis] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(inner);
        let (data, per) = resample(&s.vertices_per_level, chart.width as usize);
        let max = data.iter().copied().max().unwrap_or(0);
        frame.render_widget(Sparkline::default().data(&data).style(theme.bar()), chart);
        let last = s.vertices_per_level.len().saturating_sub(1);
        let left_text = "level 0".to_string();
        let mid = if per > 1 {
            format!("{per} levels per column, peak {}", thousands(max))
        } else {
            format!("peak {}", thousands(max))
        };
        let right_text = format!("level {last}");
        let gap = (axis.width as usize).saturating_sub(left_text.len() + right_text.len() + mid.chars().count());
        let axis_line = format!("{left_text}{}{mid}{}{right_text}", " ".repeat(gap / 2), " ".repeat(gap - gap / 2));
        frame.render_widget(Paragraph::new(Line::styled(axis_line, theme.dim())), axis);
    }
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
