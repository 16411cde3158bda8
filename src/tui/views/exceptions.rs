//! Screen 5: false-positive pairs for d = 1..5 (exact on small graphs, estimated on large ones).

use super::panel;
use crate::exceptions::{ExceptionPlan, SAMPLES};
use crate::format::{duration, thousands};
use crate::tui::app::App;
use crate::tui::views::batch::compact;
use crate::tui::widgets::columns::{self, ColumnLayout, Columns, XAxis, YAxis};
use crate::tui::worker::EXCEPTION_DIMS;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let [text_area, right] = Layout::horizontal([Constraint::Length(40), Constraint::Min(30)]).areas(area);
    let [chart_area, pairs_area] = Layout::vertical([Constraint::Percentage(50), Constraint::Min(4)]).areas(right);
    pairs(frame, pairs_area, app);
    let n = app.ws.dag().num_vertices();
    let seed = app.exceptions.seed;
    let all_pairs = thousands((n as u64) * (n as u64).saturating_sub(1));
    // The pairs counted are of the condensation's vertices: strongly connected components.
    let components = format!("the {} components (vertices of the DAG)", thousands(n as u64));
    let mode = match ExceptionPlan::choose(n, app.exceptions.gpu) {
        ExceptionPlan::Gpu => {
            format!("exact: all {all_pairs} ordered pairs of {components}, from the transitive closure on the GPU")
        }
        ExceptionPlan::Cpu => {
            format!("exact: all {all_pairs} ordered pairs of {components}, from the transitive closure")
        }
        ExceptionPlan::Sampled => format!(
            "estimate from {} sampled pairs of components (the DAG has more than {} vertices)",
            thousands(SAMPLES as u64),
            thousands(ExceptionPlan::limit(app.exceptions.gpu) as u64)
        ),
    };
    let mut lines = vec![
        Line::raw(
            "Exceptions (false positives): pairs u, v where v's intervals all lie inside u's, yet u does not reach v.",
        ),
        Line::raw(format!("Labels: d = 1..{EXCEPTION_DIMS}, random order, seed {seed} (h/l or e change it)")),
        Line::styled(mode, theme.dim()),
    ];
    match &app.exceptions.result {
        None => lines.push(Line::styled("r counts them", theme.accent())),
        Some(result) => {
            let c = &result.counts;
            let kind = if c.exact { "exact" } else { "estimated" };
            lines.push(Line::styled(
                format!("{kind} on {}, seed {}, {}", c.device, result.seed, duration(result.seconds)),
                theme.title(),
            ));
            if result.seed != seed {
                // The counts below are of the labels counted, not of the seed chosen since.
                lines.push(Line::styled(
                    format!("these are seed {}'s counts: r counts seed {seed}", result.seed),
                    theme.accent(),
                ));
            }
            lines.push(Line::styled(" d    false positives  % unreach.", theme.title()));
            for d in 1..=c.false_positives.len() {
                let value = c.scaled(d);
                let text =
                    if c.exact { thousands(value as u64) } else { format!("~{}", thousands(value.round() as u64)) };
                lines.push(Line::raw(format!(" {d}  {text:>18}  {:>9.2}%", c.rate(d) * 100.0)));
            }
            if let Some((low, high)) = c.rate_interval(1) {
                lines.push(Line::styled(
                    format!("95% interval of d = 1: {:.2}% to {:.2}%", low * 100.0, high * 100.0),
                    theme.dim(),
                ));
            }
            if c.false_positives.len() >= 2 && c.false_positives[0] > 0 {
                let removed = 1.0 - c.false_positives[1] as f64 / c.false_positives[0] as f64;
                lines.push(Line::raw(""));
                lines.push(Line::styled(
                    format!("a second dimension removes {:.0}% of them", removed * 100.0),
                    theme.accent(),
                ));
            }
        }
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }).block(panel("Exceptions")), text_area);

    chart(frame, chart_area, app);
}

/// One bar per dimension count, its value above it, scaled to the panel, with both axes.
fn chart(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let block = panel("False-positive pairs by dimensions");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(result) = &app.exceptions.result else {
        frame.render_widget(Paragraph::new(Line::styled("r counts them", theme.dim())), inner);
        return;
    };
    let c = &result.counts;
    let values: Vec<u64> = (1..=c.false_positives.len()).map(|d| c.scaled(d).round() as u64).collect();
    let short = |v: u64| if c.exact { compact(v) } else { format!("~{}", compact(v)) };
    let labels: Vec<String> = values.iter().map(|&v| short(v)).collect();
    let peak_label = short(values.iter().copied().max().unwrap_or(0));
    let (y_axis, plot, x_axis) = columns::split(inner, &peak_label);
    let layout = ColumnLayout::fit(values.len(), plot.width);
    frame.render_widget(Columns { values: &values, layout, style: theme.bar(), labels: Some(&labels) }, plot);
    frame.render_widget(YAxis { peak_label: &peak_label, bottom_label: "0", style: theme.dim() }, y_axis);
    frame.render_widget(XAxis { layout, first: 1, per: 1, prefix: "d=", style: theme.dim() }, x_axis);
}

/// The false-positive pairs found, most stubborn first; Enter shows the chosen one on the picture.
fn pairs(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let state = &app.exceptions;
    // The longest title and rows that fit the panel's width, never cut.
    let width = area.width.saturating_sub(2) as usize;
    let fit = |forms: Vec<String>| super::chrome::first_fitting(&forms, width);
    let title =
        fit(["False-positive pairs (j/k choose, Enter shows on the picture)", "Pairs (j/k, Enter: picture)", "Pairs"]
            .map(|t| format!(" {t} "))
            .to_vec());
    let block = panel(title.trim());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let examples = state.examples();
    if examples.is_empty() {
        let text = if state.result.is_some() { "none found" } else { "r counts them" };
        frame.render_widget(Paragraph::new(Line::styled(text, theme.dim())), inner);
        return;
    }
    let rows = inner.height as usize;
    let first = state.selected.saturating_sub(rows.saturating_sub(1));
    let lines: Vec<Line> = examples
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(i, &(u, v, k))| {
            let dims = crate::format::span(0, k as u64 - 1);
            let pair = format!("{} ⇝ {}", app.component_name(u), app.component_name(v));
            let word = if k == 1 { "dimension" } else { "dimensions" };
            let text = fit(vec![
                format!("{pair}: nested in {word} {dims}, yet unreachable"),
                format!("{pair}: nested in dim {dims}, unreachable"),
                format!("{pair}: nested in dim {dims}"),
                format!("{pair} (dim {dims})"),
                pair,
            ]);
            let style = if i == state.selected { theme.selected() } else { theme.text() };
            Line::styled(text, style)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}
