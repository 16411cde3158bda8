//! Screen 4: batches of queries on several methods and thread counts, side by side.

use super::panel;
use crate::query::{Method, Rule};
use crate::tui::app::App;
use crate::tui::hitmap::{Hit, Hitmap};
use crate::tui::state::batch::SETTINGS;
use crate::tui::widgets::hbars::HBars;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Row, Table};

/// `12345` → `12.3k`: five characters at most.
pub fn compact(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{:.1}k", n as f64 / 1e3).replace(".0k", "k"),
        _ => format!("{:.1}M", n as f64 / 1e6).replace(".0M", "M"),
    }
}

/// Seconds in at most six characters.
pub fn compact_time(s: f64) -> String {
    if s < 1e-3 {
        format!("{:.0}µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1}ms", s * 1e3)
    } else {
        format!("{s:.2}s")
    }
}

fn short_method(m: Method) -> &'static str {
    match m {
        Method::GuidedDfs => "g-dfs",
        Method::GuidedBfs => "g-bfs",
        Method::Dfs => "dfs",
        Method::Bfs => "bfs",
    }
}

pub fn render(frame: &mut Frame, area: Rect, app: &App, hits: &mut Hitmap) {
    let [top, bottom] = Layout::vertical([Constraint::Length(13), Constraint::Min(5)]).areas(area);
    let [left, right] = Layout::horizontal([Constraint::Length(36), Constraint::Min(30)]).areas(top);
    settings(frame, left, app, hits);
    histogram(frame, right, app);
    results(frame, bottom, app);
}

fn settings(frame: &mut Frame, area: Rect, app: &App, hits: &mut Hitmap) {
    let theme = &app.theme;
    let state = &app.batch;
    let block = panel("Batch");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut lines = Vec::new();
    for (i, name) in SETTINGS.iter().enumerate() {
        let value = state.setting_value(i);
        let dimmed = state.use_file && i > 0;
        let style = if i == state.selected {
            theme.selected()
        } else if dimmed {
            theme.dim()
        } else {
            theme.text()
        };
        lines.push(Line::styled(format!("{name:<13}{value:>21}"), style));
    }
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let runs: Vec<Line> = state
        .runs
        .iter()
        .enumerate()
        .map(|(k, (run, on))| {
            let i = SETTINGS.len() + k;
            let threads = if run.gpu {
                crate::gpu::describe()
            } else if run.threads == 0 {
                format!("all threads ({all})")
            } else {
                "1 thread".into()
            };
            let text = format!("[{}] {:<11}{threads}", if *on { "x" } else { " " }, run.method.name());
            Line::styled(text, if i == state.selected { theme.selected() } else { theme.text() })
        })
        .collect();
    lines.extend(runs);
    if crate::gpu::availability().is_err() {
        lines.push(Line::styled(crate::gpu::describe(), theme.dim()));
    }
    // Scroll so the selected row stays visible.
    let height = inner.height as usize;
    let offset = (state.selected + 1).saturating_sub(height);
    for row in 0..height.min(lines.len().saturating_sub(offset)) {
        let index = offset + row;
        if index < state.rows() {
            hits.add(Rect::new(inner.x, inner.y + row as u16, inner.width, 1), Hit::BatchRow(index));
        }
    }
    frame.render_widget(Paragraph::new(lines).scroll((offset as u16, 0)), inner);
}

fn histogram(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let block = panel("Nodes expanded per query (guided DFS)");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    match &app.batch.result {
        Some(result) => {
            let rows: Vec<(String, u64)> = result.histogram.clone();
            frame.render_widget(HBars { rows: &rows, style: theme.bar() }, inner);
        }
        None => {
            let text = "r runs the selected methods on the queries; Space toggles a run, Enter edits a value.";
            frame.render_widget(
                Paragraph::new(Line::styled(text, theme.dim())).wrap(ratatui::widgets::Wrap { trim: true }),
                inner,
            );
        }
    }
}

fn results(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let Some(result) = &app.batch.result else {
        frame.render_widget(Paragraph::new("no batch run yet").block(panel("Results")), area);
        return;
    };
    let title = format!("Results: {} · expected from {}", result.source, result.expected);
    let header = Row::new(["run", "time", "q/s", "same", "label", "level", "tree", "search", "pos", "FP%", "mism"])
        .style(theme.title());
    let rows: Vec<Row> = result
        .rows
        .iter()
        .map(|row| {
            let r = &row.report;
            let secs = r.elapsed.as_secs_f64();
            let qps = if secs > 0.0 { (r.queries as f64 / secs) as u64 } else { 0 };
            let threads = if row.gpu {
                "gpu"
            } else if row.name.ends_with(')') {
                "all"
            } else {
                row.name.rsplit('×').next().unwrap_or("1")
            };
            let mism = if r.checked == 0 { "-".to_string() } else { compact(r.mismatches) };
            let mism_style = if r.mismatches > 0 { theme.error() } else { theme.text() };
            Row::new(vec![
                Line::raw(format!("{} ×{threads}", short_method(r.method))),
                Line::raw(compact_time(secs)),
                Line::raw(compact(qps)),
                Line::raw(compact(r.by_rule.get(Rule::SameComponent))),
                Line::raw(compact(r.by_rule.get(Rule::LabelCut))),
                Line::raw(compact(r.by_rule.get(Rule::LevelCut))),
                Line::raw(compact(r.by_rule.get(Rule::TreeCut))),
                Line::raw(compact(r.by_rule.get(Rule::Search))),
                Line::raw(compact(r.positives)),
                // The GPU does not count expanded vertices, so it has no false-positive rate.
                Line::raw(if row.gpu { "-".into() } else { format!("{:.1}", r.false_positive_rate * 100.0) }),
                Line::styled(mism, mism_style),
            ])
        })
        .collect();
    let widths = [
        Constraint::Length(10),
        Constraint::Length(7),
        Constraint::Length(6),
        Constraint::Length(5),
        Constraint::Length(5),
        Constraint::Length(5),
        Constraint::Length(5),
        Constraint::Length(6),
        Constraint::Length(5),
        Constraint::Length(5),
        Constraint::Length(4),
    ];
    let table = Table::new(rows, widths).header(header).column_spacing(1).block(panel(&title));
    frame.render_widget(table, area);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_numbers_stay_short() {
        assert_eq!(compact(9_999), "9999");
        assert_eq!(compact(12_345), "12.3k");
        assert_eq!(compact(100_000), "100k");
        assert_eq!(compact(2_500_000), "2.5M");
        assert_eq!(compact_time(0.0123), "12.3ms");
    }
}
