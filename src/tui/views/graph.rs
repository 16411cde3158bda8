//! Screen 1: the graph's shape: counts, the vertices per topological level, degree histograms, what
//! the loader did, where the cycles are and what dominates.

use super::chrome::wrap;
use super::{cursor, panel};
use crate::format::{duration, plural, thousands};
use crate::graph::dominance::{self, Ranked, ReachEntry, ReachMethod};
use crate::graph::load_report::{Anomaly, Firsts, describe};
use crate::tui::action::{Action, Tab};
use crate::tui::app::App;
use crate::tui::hitmap::{Hit, Hitmap};
use crate::tui::keymap::{Scope, key_of};
use crate::tui::state::graph::FalsePositives;
use crate::tui::widgets::columns::{self, ColumnLayout, Columns, XAxis, YAxis};
use crate::tui::widgets::{hbars::HBars, resample};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

/// Rows the degree histograms and the levels chart keep at least.
const DEGREES_MIN: u16 = 6;
const LEVELS_MIN: u16 = 6;
/// Rows the levels chart's box needs to show anything: its borders, a row of bars and the x axis.
const LEVELS_BOX_MIN: u16 = 4;

pub fn render(frame: &mut Frame, area: Rect, app: &App, hits: &mut Hitmap) {
    let theme = &app.theme;
    let g = &app.graph;
    let s = &g.stats;
    let [left, right] = Layout::horizontal([Constraint::Length(38), Constraint::Min(30)]).areas(area);
    // The longest name ("isolated components") and a value still leave the border a blank column.
    let row = |name: &str, value: String| Line::from(format!("{name:<19}{value:>16}"));
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
        row("weak components", thousands(s.weak_components)),
        row("largest weak comp.", thousands(s.largest_weak_component)),
        row("is a DAG", if s.is_dag { "yes" } else { "no" }.into()),
        row("root components", thousands(s.roots)),
        row("leaf components", thousands(s.leaves)),
        row("isolated components", thousands(s.isolated)),
        row("depth (levels)", thousands(s.depth)),
        row("out-degree max/avg", format!("{} / {:.2}", thousands(s.max_out_degree), s.avg_out_degree)),
        row("in-degree max/avg", format!("{} / {:.2}", thousands(s.max_in_degree), s.avg_in_degree)),
        Line::raw(""),
        Line::styled("o opens another graph", theme.dim()),
    ];
    frame.render_widget(Paragraph::new(lines).block(panel("Graph")), left);

    let width = right.width.saturating_sub(2) as usize;
    let (diagnosis, first_component) = diagnosis_lines(app, width);
    // The whole panel where the levels chart keeps room, else its first rows (one at least, and
    // those the chart leaves where it has room at all), its title saying how many more a taller
    // window shows.
    let mut dominance = dominance_lines(app, width);
    let total = dominance.len();
    let rows_left = right.height.saturating_sub(diagnosis.len() as u16 + 2 + DEGREES_MIN + 2);
    let beside_chart = if rows_left > LEVELS_BOX_MIN { rows_left.saturating_sub(LEVELS_MIN) } else { rows_left };
    let kept = (beside_chart as usize).clamp(1, total.max(1));
    dominance.truncate(kept);
    // The levels chart takes 40% of the column where the others leave it room for a bar row and its
    // axis; with less it is left out and the degree histograms get its rows.
    let fixed = diagnosis.len() as u16 + 2 + dominance.len() as u16 + 2;
    let spare = right.height.saturating_sub(fixed + DEGREES_MIN);
    let chart = spare >= LEVELS_BOX_MIN;
    let levels_rows = if chart { (right.height * 2 / 5).clamp(LEVELS_BOX_MIN, spare) } else { 0 };
    let [levels, degrees, diagnosis_area, dominance_area] = Layout::vertical([
        Constraint::Length(levels_rows),
        Constraint::Min(0),
        Constraint::Length(diagnosis.len() as u16 + 2),
        Constraint::Length(dominance.len() as u16 + 2),
    ])
    .areas(right);
    if chart {
        levels_chart(frame, levels, app);
    }
    frame.render_widget(Paragraph::new(diagnosis).block(panel("Loader and cycles")), diagnosis_area);
    // A click picks a listed component; a second click on it draws it.
    let inner = panel("").inner(diagnosis_area);
    for k in 0..app.graph.components.len() {
        let y = inner.y as usize + first_component + k;
        if y < inner.bottom() as usize {
            hits.add(Rect::new(inner.x, y as u16, inner.width, 1), Hit::CycleRow(k));
        }
    }
    let title = dominance_title(app, total - dominance.len(), dominance_area.width as usize);
    frame.render_widget(Paragraph::new(dominance).block(panel(&title)), dominance_area);
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

/// The "What dominates" panel's title: how reach was counted, or, with `hidden` of its rows left
/// out, how many more a taller window shows; the longest that fits a panel `width` wide.
fn dominance_title(app: &App, hidden: usize, width: usize) -> String {
    let reach = match app.graph.dominance.reach.as_ref().map(|r| r.method) {
        Some(ReachMethod::Exact) => " (reach: exact)".to_string(),
        Some(ReachMethod::BottomK { k }) => format!(" (reach: estimated, bottom-{k} sketches)"),
        None => String::new(),
    };
    if hidden == 0 {
        return format!("What dominates{reach}");
    }
    let rows = plural(hidden as u64, "more line", "more lines");
    [
        format!("What dominates{reach} · {rows} in a taller window"),
        format!("What dominates · {rows} in a taller window"),
        format!("What dominates · {hidden} more: taller window"),
        format!("What dominates · {rows}"),
    ]
    .into_iter()
    .find(|t| t.chars().count() + 4 <= width)
    .unwrap_or_else(|| "What dominates".to_string())
}

/// What the loader did (its anomalies with their first lines) and the largest cyclic components
/// with their size and a shortest cycle each, in file ids, the one `Enter` draws highlighted; and
/// the row the first component is on.
fn diagnosis_lines(app: &App, width: usize) -> (Vec<Line<'static>>, usize) {
    let g = &app.graph;
    let theme = &app.theme;
    let mut lines = Vec::new();
    match &g.loader {
        Some(r) => {
            // Sentences wrap: the panel takes the rows they need.
            let wrapped = |text: &str, style| wrap(text, width).into_iter().map(move |row| Line::styled(row, style));
            lines.extend(wrapped(&r.lines_summary(), theme.text()));
            lines.extend(wrapped(&r.ids_sentence(), theme.dim()));
            if let Some(sentence) = r.separator_sentence() {
                lines.extend(wrapped(&sentence, theme.dim()));
            }
            if !r.columns.is_empty() {
                lines.extend(wrapped(&format!("header line: {}", r.columns.join(", ")), theme.dim()));
            }
            let anomalies = r.anomalies();
            if anomalies.is_empty() {
                lines.push(Line::styled("no duplicates, self-loops or unused ids", theme.dim()));
            }
            for (kind, f) in anomalies {
                lines.extend(wrapped(&fitted(kind, f, width), theme.warn()));
            }
        }
        None => lines.push(Line::styled(
            format!("no loader report: a {} file holds a graph, not its text", g.format.name()),
            theme.dim(),
        )),
    }
    if g.cyclic_components == 0 {
        lines.push(Line::from("no cycles: every component is one vertex"));
        let end = lines.len();
        return (lines, end);
    }
    lines.push(Line::from(format!(
        "{}, {} vertices in all",
        crate::format::plural(g.cyclic_components, "cyclic component", "cyclic components"),
        thousands(g.vertices_in_cycles)
    )));
    let names = &app.ws.loaded.names;
    let first = lines.len();
    let sizes: Vec<String> = g.components.iter().map(|c| thousands(u64::from(c.size))).collect();
    let widest = sizes.iter().map(String::len).max().unwrap_or(0);
    for (i, (size, c)) in sizes.iter().zip(&g.components).enumerate() {
        let cycle = crate::graph::cycles::from_first_listed(&c.cycle, names);
        let steps: Vec<String> = cycle.iter().map(|&v| names.label(v)).collect();
        let text = cycle_row(format!("{}{size:>widest$} vertices: ", cursor(i == g.selected)), &steps, width);
        lines.push(Line::styled(text, if i == g.selected { theme.selected() } else { theme.text() }));
    }
    lines.push(Line::styled("j/k pick one, Enter draws it in tab 6", theme.dim()));
    (lines, first)
}

/// `head` and the cycle `steps` (its first vertex again last) within `width`: whole, else its first
/// vertices up to the widest that fits, `… +N` for the N (two or more) left out, and the closing
/// vertex; a name is never cut unless a single one is wider than the row, and `… +N` never stands
/// for a single name.
fn cycle_row(head: String, steps: &[String], width: usize) -> String {
    let whole = format!("{head}{}", steps.join(" → "));
    let inner = steps.len().saturating_sub(1);
    if whole.chars().count() <= width || inner < 3 {
        return cut(whole, width);
    }
    (1..inner - 1)
        .rev()
        .map(|kept| format!("{head}{} → … +{} → {}", steps[..kept].join(" → "), inner - kept, steps[inner]))
        .find(|row| row.chars().count() <= width)
        .unwrap_or_else(|| cut(format!("{head}{} → … +{}", steps[0], inner - 1), width))
}

/// `text` cut to `width` characters, ending in `…` where something was cut.
fn cut(text: String, width: usize) -> String {
    if text.chars().count() <= width {
        return text;
    }
    text.chars().take(width.saturating_sub(1)).chain(['…']).collect()
}

/// Hubs (degrees of the graph as loaded), the widest levels (components per level of the
/// condensation) and who reaches or is reached by the most, each line cut to `width`.
fn dominance_lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let d = &app.graph.dominance;
    let names = &app.ws.loaded.names;
    let fit = |head: &str, items: Vec<String>| {
        let mut line = head.to_string();
        for (i, item) in items.iter().enumerate() {
            let next = format!("{}{item}", if i == 0 { "" } else { ", " });
            if line.chars().count() + next.chars().count() > width {
                break;
            }
            line += &next;
        }
        if items.is_empty() {
            line += "none";
        }
        // Not even the first item fits beside the head: it wraps under it, whole.
        if line == head
            && let Some(first) = items.first()
        {
            let indent = head.chars().count();
            let rows = wrap(first, width.saturating_sub(indent).max(1));
            let pad = |i: usize| if i == 0 { head.to_string() } else { " ".repeat(indent) };
            return rows.into_iter().enumerate().map(|(i, row)| Line::from(format!("{}{row}", pad(i)))).collect();
        }
        vec![Line::from(line)]
    };
    let ranked =
        |list: &[Ranked]| list.iter().map(|r| format!("{} ({})", names.label(r.vertex), thousands(r.count))).collect();
    // Counts exclude the vertex itself; estimated ones are marked `~`.
    let approx = if d.reach.as_ref().is_some_and(|r| r.method != ReachMethod::Exact) { "~" } else { "" };
    let reach = |list: &[ReachEntry], verb: &str| {
        list.iter().map(|e| e.sentence(&names.label(e.vertex), verb, approx)).collect()
    };
    let mut lines = [
        fit("hubs out   ", ranked(&d.top_out_degree)),
        fit("hubs in    ", ranked(&d.top_in_degree)),
        fit(
            "widest     ",
            d.widest_levels
                .iter()
                .map(|l| format!("level {} ({})", l.level, plural(l.components, "component", "components")))
                .collect(),
        ),
    ]
    .concat();
    match &d.reach {
        Some(r) => lines.extend(
            [fit("reaching   ", reach(&r.reaching, "reaches")), fit("reached    ", reach(&r.reached, "is reached by"))]
                .concat(),
        ),
        None => {
            let how =
                if dominance::reach_is_exact(&app.ws.condensation) { "counts it exactly" } else { "estimates it" };
            lines.push(Line::from(format!(
                "reach: not counted as the graph opened (too long); `grail info --deep` {how}"
            )))
        }
    }
    lines.extend(false_positive_lines(app, width, &fit));
    lines
}

/// Where the false positives of the explorer's finished labels concentrate: by the source's level,
/// by source and by target, over every pair or sampled ones (percentages then marked `~`); before
/// the labels, how to build them.
fn false_positive_lines(
    app: &App,
    width: usize,
    fit: &dyn Fn(&str, Vec<String>) -> Vec<Line<'static>>,
) -> Vec<Line<'static>> {
    let dim = app.theme.dim();
    // Sentences wrap (the panel takes the rows they need), continuation rows indented.
    let styled = |text: String, style| -> Vec<Line<'static>> {
        let rows = wrap(&text, width.saturating_sub(2).max(1));
        let mut rows = rows.into_iter().enumerate().map(|(i, row)| if i == 0 { row } else { format!("  {row}") });
        let first = rows.next().unwrap_or_default();
        std::iter::once(first).chain(rows).map(|row| Line::styled(row, style)).collect()
    };
    let line = |text: String| styled(text, app.theme.text());
    match &app.graph.false_positives {
        FalsePositives::NoLabels => {
            let tab = key_of(Scope::Global, Action::GoTo(Tab::Labels)).unwrap_or_default();
            let run = key_of(Scope::On(Tab::Labels), Action::RunToEnd).unwrap_or_default();
            styled(format!("false pos. build the labels ({tab}, then {run}) to see where they concentrate"), dim)
        }
        FalsePositives::Counting(labels) => line(format!("false pos. counting… (the labels, d = {})", labels.dims())),
        FalsePositives::Failed(dims, e) => line(format!("false pos. not counted (the labels, d = {dims}): {e}")),
        FalsePositives::Counted(c) => {
            let mut lines =
                line(format!("false pos. {} with the labels (d = {})", thousands(c.false_positives), c.dims));
            lines.extend(line(format!("  over          {}", c.over())));
            if c.false_positives > 0 {
                let names = &app.ws.loaded.names;
                let vertex = |key: u32| {
                    app.representative.get(key as usize).map_or_else(|| format!("c{key}"), |&v| names.label(v))
                };
                lines.extend(fit("  source level  ", c.entries(&c.by_level, |level| level.to_string())));
                lines.extend(fit("  source        ", c.entries(&c.by_source, vertex)));
                lines.extend(fit("  target        ", c.entries(&c.by_target, vertex)));
            }
            lines
        }
    }
}

/// An anomaly's sentence with as many of its first lines (or ids) as fit one row `width` wide;
/// where not even one does, the sentence with its first line, which then wraps.
fn fitted(kind: Anomaly, f: &Firsts, width: usize) -> String {
    (1..f.listed())
        .rev()
        .map(|k| describe(kind, &f.keeping(k)))
        .fold(describe(kind, f), |best, shorter| if best.chars().count() > width { shorter } else { best })
}

/// Components per topological level of the condensation: one column per level (or per run of
/// levels on deep graphs), as wide as the panel allows, with the component count on the y axis and
/// level numbers on the x axis.
fn levels_chart(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let per_level = &app.graph.stats.components_per_level;
    // The y axis's width depends on the peak, and the peak (of summed levels) on the plot's width:
    // the peak of single levels is a lower bound, the total an upper one; size the axis for the total.
    let total: u64 = per_level.iter().sum();
    let (_, plot, _) = columns::split(panel("").inner(area), &thousands(total));
    let (data, per) = resample(per_level, plot.width as usize);
    let peak = data.iter().copied().max().unwrap_or(0);
    // The longest title that fits between the corners (a title is framed by a space each side).
    let per_column = if per > 1 { format!(", {per} levels per column") } else { String::new() };
    let short_column = if per > 1 { format!(", {per} per column") } else { String::new() };
    let forms = [
        format!("Components (y) per topological level (x) of the condensation{per_column}"),
        format!("SCCs (y) per topological level (x) of the condensation{per_column}"),
        format!("SCCs (y) per topological level (x){per_column}"),
        format!("SCCs (y) per level (x){per_column}"),
        format!("SCCs per level{short_column}"),
        "SCCs per level".to_string(),
    ];
    // Never cut: the shortest form stands when none fits.
    let title = forms.iter().find(|t| t.chars().count() + 4 <= area.width as usize).unwrap_or(&forms[5]).clone();
    let block = panel(&title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let peak_label = thousands(peak);
    let (y_axis, plot, x_axis) = columns::split(inner, &peak_label);
    let layout = ColumnLayout::fit(data.len(), plot.width);
    frame.render_widget(Columns { values: &data, layout, style: theme.bar(), labels: None }, plot);
    frame.render_widget(YAxis { peak_label: &peak_label, bottom_label: "0", style: theme.dim() }, y_axis);
    frame.render_widget(XAxis { layout, first: 0, per: per as u64, prefix: "", style: theme.dim() }, x_axis);
}

#[cfg(test)]
mod tests {
    use super::cycle_row;

    #[test]
    fn a_shortened_cycle_hides_two_names_or_more() {
        let steps: Vec<String> = ["alice", "bob", "carol", "dave", "alice"].iter().map(|s| s.to_string()).collect();
        let row = |width| cycle_row("> ".into(), &steps, width);
        assert_eq!(row(40), "> alice → bob → carol → dave → alice");
        // Room for all but dave: never `… +1`, whose marker stands where dave's name could.
        assert_eq!(row(34), "> alice → bob → … +2 → alice");
        assert_eq!(row(25), "> alice → … +3 → alice");
        // A cycle of two is shown whole or cut, never as a marker for one name.
        let pair: Vec<String> = ["alice", "bob", "alice"].iter().map(|s| s.to_string()).collect();
        assert_eq!(cycle_row("> ".into(), &pair, 12), "> alice → b…");
        let three: Vec<String> = ["a", "bbbbbbbbbb", "c", "a"].iter().map(|s| s.to_string()).collect();
        assert_eq!(cycle_row(String::new(), &three, 12), "a → … +2 → a");
    }
}
