//! Screen 4: batches of queries on several methods and thread counts, side by side.

use super::{SETTINGS_HINT, cursor, panel};
use crate::query::{Method, Rule, RuleSet};
use crate::tui::app::App;
use crate::tui::hitmap::{Hit, Hitmap};
use crate::tui::state::batch::SETTINGS;
use crate::tui::widgets::hbars::HBars;
use crate::tui::worker::{BatchRow, EXACT_BFS_QUERIES, expected_answers};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Row, Table};

/// `12345` → `12.3k`: five characters at most (digits are cut, not rounded, so a number never
/// reads as the next unit: 99,999 is `99.9k`).
pub fn compact(n: u64) -> String {
    let with_tenth = |whole: u64, tenth: u64, unit: &str| {
        if tenth == 0 { format!("{whole}{unit}") } else { format!("{whole}.{tenth}{unit}") }
    };
    match n {
        0..=9_999 => n.to_string(),
        10_000..=99_999 => with_tenth(n / 1_000, n % 1_000 / 100, "k"),
        100_000..=999_999 => format!("{}k", n / 1_000),
        1_000_000..=99_999_999 => with_tenth(n / 1_000_000, n % 1_000_000 / 100_000, "M"),
        100_000_000..=999_999_999 => format!("{}M", n / 1_000_000),
        _ => with_tenth(n / 1_000_000_000, n % 1_000_000_000 / 100_000_000, "G"),
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

/// Column titles of the rules, five characters at most.
fn short_rule(rule: Rule) -> &'static str {
    match rule {
        Rule::SameComponent => "scc",
        Rule::LevelCut => "level",
        Rule::TopoCut => "topo",
        Rule::SupportiveCut => "sup-",
        Rule::BloomCut => "bloom",
        Rule::SupportivePath => "sup+",
        Rule::LabelCut => "label",
        Rule::TreeCut => "tree",
        Rule::Search => "search",
    }
}

/// Column titles of the rules in the nine-column table of every rule, four characters at most.
fn tiny_rule(rule: Rule) -> &'static str {
    match rule {
        Rule::LevelCut => "lvl",
        Rule::BloomCut => "blm",
        Rule::LabelCut => "lbl",
        Rule::Search => "srch",
        other => short_rule(other),
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

/// The results' columns, for the `?` help: the column and its meaning, in lines that fit the help.
pub const COLUMN_HELP: &[(&str, &[&str])] = &[
    (
        "run",
        &[
            "method × threads: g-dfs, g-bfs guided search (with every",
            "rule, g-bfs is bidirectional); dfs, bfs plain baselines;",
            "×1, ×all, ×gpu. R: every rule or GRAIL's (next run)",
            "exact cpu/gpu: a full BFS from each source of the",
            "first 1,000 queries, no labels; BFS frontier charts",
            "the one that reached most, level by level (the exact",
            "row under the cursor, else the last that ran)",
        ],
    ),
    ("time, q/s", &["wall time of the batch, queries per second"]),
    ("scc", &["decided by the same-component rule (yes)"]),
    ("level, lvl", &["decided by the level cut: level(u) ≥ level(v) (no)"]),
    ("topo", &["decided by a topological order: u not before v (no)"]),
    ("sup-", &["decided by a supportive vertex s: s reaches u but not v,", "or v reaches s but u does not (no)"]),
    ("bloom, blm", &["decided by a Bloom filter: a bit of v's descendants", "missing from u's (no)"]),
    ("sup+", &["decided by a supportive vertex s: u reaches s, s reaches v", "(yes)"]),
    ("label, lbl", &["decided by the label cut: L(v) ⊄ L(u) somewhere (no)"]),
    ("tree", &["decided by the tree cut: v in u's DFS subtree (yes)"]),
    ("search, srch", &["decided by a search (yes or no)"]),
    ("yes", &["queries answered yes"]),
    (
        "FP%",
        &[
            "false positives of the labels: of the queries whose",
            "answer is no, the share no cut could rule out, so a",
            "search had to prove the no. The labels decide it, so",
            "guided DFS, guided BFS and the GPU show the same",
            "FP%; dfs and bfs use no labels: 100%.",
        ],
    ),
    ("wrong", &["answers that differ from the expected ones", "(- where there are none to compare with)"]),
];

/// The legend under the results: one short line per group of columns (`?` explains each).
const LEGEND: [&str; 2] = [
    "scc: same comp. · lvl topo sup- blm sup+ lbl tree: cuts · srch: search · yes",
    "FP%: % of no-answers no cut ruled out (a search proved them) · ? explains",
];

pub fn render(frame: &mut Frame, area: Rect, app: &App, hits: &mut Hitmap) {
    let state = &app.batch;
    let expected = match &state.result {
        // After a run, where its expected answers really came from (a query file may lack them).
        Some(result) => result.expected.clone(),
        None => expected_answers(state.use_file, app.ws.dag().num_vertices()),
    };
    let rows = state.result.as_ref().map_or(1, |r| r.rows.len().max(1));
    // The results need their rows and the legend; the settings get the rest, up to all their rows.
    let width = area.width.saturating_sub(2).max(1) as usize;
    let legend_rows = LEGEND.len() + expected.chars().count().div_ceil(width);
    let results_height = (2 + 1 + rows + legend_rows) as u16;
    // A charted BFS takes every row the results leave over: its levels read better tall.
    let settings_height = (settings_lines(app) as u16 + 2).max(13);
    let wanted = if app.batch.charted_row().is_some() { u16::MAX } else { settings_height };
    let top = wanted.min(area.height.saturating_sub(results_height)).max(8);
    let [top, bottom] = Layout::vertical([Constraint::Length(top), Constraint::Min(5)]).areas(area);
    let [left, right] = Layout::horizontal([Constraint::Length(36), Constraint::Min(30)]).areas(top);
    settings(frame, left, app, hits);
    let [histogram_area, frontier_area] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(frontier_height(app, right.height))]).areas(right);
    histogram(frame, histogram_area, app);
    super::bfs_frontier::render(frame, frontier_area, app);
    results(frame, bottom, app, expected, legend_rows as u16);
}

/// Rows of the BFS frontier panel in a column of `height`: its one-line hint until an exact row has
/// run, then a little over half, since the chart needs a head line and an x axis besides its bars.
fn frontier_height(app: &App, height: u16) -> u16 {
    if app.batch.charted_row().is_some() { height - height * 5 / 12 } else { 3 }
}

/// Lines of the settings list: the settings, the runs, and the note that there is no GPU.
fn settings_lines(app: &App) -> usize {
    app.batch.rows() + usize::from(!app.gpu.is_present())
}

fn settings(frame: &mut Frame, area: Rect, app: &App, hits: &mut Hitmap) {
    let theme = &app.theme;
    let state = &app.batch;
    let title = format!("Batch: {SETTINGS_HINT}");
    let mut block = panel(&title);
    let inner = block.inner(area);
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
        lines.push(Line::styled(format!("{}{name:<13}{value:>19}", cursor(i == state.selected)), style));
    }
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (k, (run, on)) in state.runs.iter().enumerate() {
        let i = SETTINGS.len() + k;
        let threads = if let Some(engine) = run.exact {
            format!("{}, first {}", engine.name(), crate::format::thousands(EXACT_BFS_QUERIES as u64))
        } else if run.gpu {
            app.gpu.describe()
        } else if run.threads == 0 {
            format!("all threads ({all})")
        } else {
            "1 thread".into()
        };
        let text = format!(
            "{}[{}] {:<11}{threads}",
            cursor(i == state.selected),
            if *on { "x" } else { " " },
            if run.exact.is_some() { "exact bfs" } else { run.method.name() }
        );
        lines.push(Line::styled(text, if i == state.selected { theme.selected() } else { theme.text() }));
    }
    if !app.gpu.is_present() {
        lines.push(Line::styled(format!("    {}", app.gpu.describe()), theme.dim()));
    }
    // Scroll so the selected row stays visible, and say which way the rest of the list lies.
    let height = inner.height as usize;
    let offset = (state.selected + 1).saturating_sub(height);
    let below = lines.len().saturating_sub(offset + height);
    let more = match (offset, below) {
        (0, 0) => None,
        (0, b) => Some(format!(" ↓ {b} more (j) ")),
        (a, 0) => Some(format!(" ↑ {a} more (k) ")),
        (a, b) => Some(format!(" ↑ {a} ↓ {b} more ")),
    };
    if let Some(more) = more {
        block = block.title_bottom(Line::styled(more, theme.accent()).right_aligned());
    }
    frame.render_widget(block, area);
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
    let title = match app.batch.result.as_ref().and_then(|r| r.histogram.as_ref()) {
        Some((run, _)) => format!("Nodes expanded per query ({})", run.trim()),
        None => "Nodes expanded per query".to_string(),
    };
    let block = panel(&title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    match app.batch.result.as_deref().map(|result| result.histogram.as_ref()) {
        Some(Some((_, rows))) => frame.render_widget(HBars { rows, style: theme.bar() }, inner),
        Some(None) => {
            let text = "only GPU or exact BFS runs: they count no expanded vertices per query; check a CPU run.";
            frame.render_widget(
                Paragraph::new(Line::styled(text, theme.dim())).wrap(ratatui::widgets::Wrap { trim: true }),
                inner,
            );
        }
        None => {
            let text = "r runs the checked rows on the queries; Space or Enter checks a run, Enter edits a value.";
            frame.render_widget(
                Paragraph::new(Line::styled(text, theme.dim())).wrap(ratatui::widgets::Wrap { trim: true }),
                inner,
            );
        }
    }
}

fn results(frame: &mut Frame, area: Rect, app: &App, expected: String, legend_rows: u16) {
    let theme = &app.theme;
    let title = match &app.batch.result {
        Some(result) if result.rules == RuleSet::Grail => format!("Results: {} · GRAIL's rules", result.source),
        Some(result) => format!("Results: {} · every rule", result.source),
        None => "Results".to_string(),
    };
    let block = panel(&title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [table_area, legend_area] =
        Layout::vertical([Constraint::Min(1), Constraint::Length(legend_rows)]).areas(inner);
    let mut legend: Vec<Line> = LEGEND.iter().map(|l| Line::styled(*l, theme.dim())).collect();
    legend.push(Line::styled(expected, theme.dim()));
    frame.render_widget(Paragraph::new(legend).wrap(ratatui::widgets::Wrap { trim: true }), legend_area);
    let Some(result) = &app.batch.result else {
        frame.render_widget(Paragraph::new("no batch run yet: r runs the checked rows"), table_area);
        return;
    };
    // One column per rule that can decide: every rule, or GRAIL's when the batch ran with those.
    // Every rule's nine columns are narrower, and in a narrow terminal they push the time out (q/s
    // says the same for a batch of known size) and the last columns shrink.
    let rules: Vec<Rule> = result.rules.rules().to_vec();
    let every_rule = result.rules == RuleSet::All;
    let wide = !every_rule || table_area.width >= 86;
    let mut titles = vec!["run"];
    if wide {
        titles.push("time");
    }
    titles.push("q/s");
    titles.extend(rules.iter().map(|&r| if every_rule { tiny_rule(r) } else { short_rule(r) }));
    titles.extend(["yes", "FP%", "wrong"]);
    let header = Row::new(titles).style(theme.title());
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
            let wrong = if r.checked == 0 { "-".to_string() } else { compact(r.mismatches) };
            let wrong_style = if r.mismatches > 0 { theme.error() } else { theme.text() };
            let name = if row.exact { exact_label(row) } else { format!("{} ×{threads}", short_method(r.method)) };
            let mut cells = vec![Line::raw(name)];
            if wide {
                cells.push(Line::raw(compact_time(secs)));
            }
            cells.push(Line::raw(compact(qps)));
            let fp = row.searched_negative_rate * 100.0;
            cells.extend(rules.iter().map(|&rule| Line::raw(compact(r.by_rule.get(rule)))));
            cells.extend([
                Line::raw(compact(r.positives)),
                Line::raw(if fp >= 99.95 { "100".to_string() } else { format!("{fp:.1}") }),
                Line::styled(wrong, wrong_style),
            ]);
            Row::new(cells)
        })
        .collect();
    let mut widths = vec![Constraint::Length(10)];
    if wide {
        widths.push(Constraint::Length(7));
    }
    widths.push(Constraint::Length(if wide { 6 } else { 5 }));
    let rule_width = |r: Rule| match (every_rule, r == Rule::Search) {
        (true, _) => 4,
        (false, true) => 6,
        (false, false) => 5,
    };
    widths.extend(rules.iter().map(|&r| Constraint::Length(rule_width(r))));
    let last = if wide { 5 } else { 4 };
    widths.extend([Constraint::Length(last), Constraint::Length(last), Constraint::Length(5)]);
    let table = Table::new(rows, widths).header(header).column_spacing(1);
    frame.render_widget(table, table_area);
}

/// The run cell of an exact BFS row: `exact cpu` or `exact gpu` (it answered the first queries only).
fn exact_label(row: &BatchRow) -> String {
    format!("exact {}", if row.gpu { "gpu" } else { "cpu" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_numbers_stay_short() {
        assert_eq!(compact(9_999), "9999");
        assert_eq!(compact(12_345), "12.3k");
        assert_eq!(compact(99_999), "99.9k");
        assert_eq!(compact(100_000), "100k");
        assert_eq!(compact(327_196), "327k");
        assert_eq!(compact(2_500_000), "2.5M");
        assert_eq!(compact(12_000_000), "12M");
        assert_eq!(compact(999_999_999), "999M");
        assert_eq!(compact(u64::MAX), "18446744073.7G");
        for n in [0, 9_999, 10_000, 99_999, 100_000, 999_999, 1_000_000, 99_999_999, 100_000_000, 999_999_999] {
            assert!(compact(n).chars().count() <= 5, "{n}: {}", compact(n));
        }
        assert_eq!(compact_time(0.0123), "12.3ms");
    }
}
