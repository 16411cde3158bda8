//! Screen 4: batches of queries on several methods and thread counts, side by side.

pub use super::batch_results::compact;
use super::batch_results::{ResultsTable, rule_titles, rules_legend, short_method};
use super::{SETTINGS_HINT, cursor, panel};
use crate::query::RuleSet;
use crate::tui::app::App;
use crate::tui::hitmap::{Hit, Hitmap};
use crate::tui::state::batch::SETTINGS;
use crate::tui::widgets::hbars::HBars;
use crate::tui::worker::{EXACT_BFS_QUERIES, GPU_METHOD, expected_answers};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

/// The results' columns, for the `?` help: the column and its meaning, in lines that fit the help.
pub const COLUMN_HELP: &[(&str, &[&str])] = &[
    (
        "run",
        &[
            "method × threads: g-dfs, g-bfs guided search (with every",
            "rule, g-bfs is bidirectional); dfs, bfs plain baselines;",
            "×1, ×all, ×gpu (g-dfs+bfs: a guided DFS per query, the",
            "long ones in batched BFSs). R: every rule or GRAIL's",
            "(next run).",
            "Exact cpu/gpu: a full BFS from each source of the",
            "first 1,000 queries, no labels; BFS frontier charts",
            "the one that reached most, level by level (the exact",
            "row under the cursor, else the last that ran).",
            "CSV and JSON (x): `run` spells g- out (guided-dfs ×1),",
            "each rule's column is the rule's name (level-cut, ...)",
        ],
    ),
    ("time, q/s", &["wall time of the batch, queries per second"]),
    ("scc", &["decided by the same-component rule (yes)"]),
    ("level, lvl", &["decided by the level cut: level(u) ≥ level(v) (no)"]),
    ("topo", &["decided by a topological order: u not before v (no)"]),
    ("sup-", &["decided by a supportive vertex s: s reaches u but not v,", "or v reaches s but u does not (no)"]),
    ("bloom, blm", &["decided by a Bloom filter: a bit of v's descendants", "missing from u's (no)"]),
    ("sup+", &["decided by a supportive vertex s: u reaches s, s reaches v", "(yes: a proof, not a cut)"]),
    ("label, lbl", &["decided by the label cut: L(v) ⊄ L(u) somewhere (no)"]),
    ("tree", &["decided by the tree rule: v in u's DFS subtree (yes)"]),
    ("search, srch", &["decided by a search (yes or no)"]),
    ("yes", &["queries answered yes"]),
    (
        "FP%",
        &[
            "false positives of the index under the rules in force:",
            "of the queries whose answer is no, the share no cut",
            "could rule out, so a search had to prove the no. The",
            "index and the rules decide it, so guided DFS, guided",
            "BFS and the GPU show the same FP%; dfs and bfs use",
            "no index: 100%. CSV and JSON:",
            "searched_negative_rate (dead_end_rate there is the",
            "share of expanded vertices that were dead ends)",
        ],
    ),
    ("wrong", &["answers that differ from the expected ones", "(- where there are none to compare with)"]),
];

/// The legend's line on FP% (`?` explains each column).
const FP_LEGEND: &str = "FP%: % of no-answers no cut ruled out (a search proved them) · ? explains";

pub fn render(frame: &mut Frame, area: Rect, app: &App, hits: &mut Hitmap) {
    let state = &app.batch;
    let expected = match &state.result {
        // After a run, where its expected answers really came from (a query file may lack them).
        Some(result) => result.expected.clone(),
        None => expected_answers(state.use_file, app.ws.dag().num_vertices()),
    };
    let rows = state.result.as_ref().map_or(1, |r| r.rows.len().max(1));
    // The results need their rows and the legend; the settings get the rest, up to all their rows.
    let width = area.width.saturating_sub(2);
    let table = state.result.as_deref().map(|result| ResultsTable::fit(result, width));
    let rules = state.result.as_ref().map_or(state.rules, |r| r.rules);
    let legend = legend(table.as_ref(), rules, expected);
    let results_height = 2 + 1 + rows as u16 + legend_rows(&legend, width);
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
    results(frame, bottom, app, legend, table);
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
        // A long path keeps its end (the file's name), marked as cut at the start.
        let value = state.setting_value(i);
        let chars = value.chars().count();
        let value =
            if chars > 19 { format!("…{}", value.chars().skip(chars - 18).collect::<String>()) } else { value };
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
        let method = if run.exact.is_some() {
            "exact bfs".to_string()
        } else if run.gpu {
            short_method(GPU_METHOD)
        } else {
            run.method.name().to_string()
        };
        let text = format!("{}[{}] {method:<11}{threads}", cursor(i == state.selected), if *on { "x" } else { " " });
        lines.push(Line::styled(text, if i == state.selected { theme.selected() } else { theme.text() }));
    }
    if !app.gpu.is_present() {
        lines.push(Line::styled(format!("    {}", app.gpu.describe()), theme.dim()));
    }
    // Scroll so the selected row stays visible, and say which way the rest of the list lies.
    let height = inner.height as usize;
    // On the last row, the note after it (no GPU here) comes into view too: it is never selected.
    let last = if state.selected + 1 == state.rows() { lines.len() } else { state.selected + 1 };
    let offset = last.saturating_sub(height);
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

fn results(frame: &mut Frame, area: Rect, app: &App, legend: Vec<String>, table: Option<ResultsTable>) {
    let theme = &app.theme;
    let title = match &app.batch.result {
        Some(result) => {
            let rules = if result.rules == RuleSet::Grail { "GRAIL's rules" } else { "every rule" };
            // The longest title that fits: the source as given, its last part, or none.
            let short = result.source.rsplit('/').next().unwrap_or(&result.source);
            let forms = [
                format!("Results: {} · {rules}", result.source),
                format!("Results: {short} · {rules}"),
                format!("Results · {rules}"),
                "Results".to_string(),
            ];
            // Two border cells and a space either side of the title.
            super::chrome::first_fitting(&forms, (area.width as usize).saturating_sub(4))
        }
        None => "Results".to_string(),
    };
    let block = panel(&title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let legend_rows = legend_rows(&legend, inner.width);
    let [table_area, legend_area] =
        Layout::vertical([Constraint::Min(1), Constraint::Length(legend_rows)]).areas(inner);
    let legend: Vec<Line> = legend.into_iter().map(|l| Line::styled(l, theme.dim())).collect();
    frame.render_widget(Paragraph::new(legend).wrap(ratatui::widgets::Wrap { trim: true }), legend_area);
    match table {
        // More runs than rows under the header: the last row says how many are not shown.
        Some(table) if table.runs() + 1 > table_area.height as usize && table_area.height >= 2 => {
            let [rows_area, more_area] =
                Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(table_area);
            let hidden = table.runs() - (rows_area.height as usize - 1);
            let runs = if hidden == 1 { "run" } else { "runs" };
            let more = format!("… {hidden} more {runs} (a taller terminal shows them)");
            frame.render_widget(table.widget(theme), rows_area);
            frame.render_widget(Paragraph::new(Line::styled(more, theme.accent())), more_area);
        }
        Some(table) => frame.render_widget(table.widget(theme), table_area),
        None => frame.render_widget(Paragraph::new("no batch run yet: r runs the checked rows"), table_area),
    }
}

/// Rows the legend's lines take, wrapped at `width` cells.
fn legend_rows(legend: &[String], width: u16) -> u16 {
    legend.iter().map(|l| super::chrome::wrap(l, width.max(1) as usize).len()).sum::<usize>() as u16
}

/// The legend under the results: the rule columns as the table titles them, FP%, and where the
/// expected answers come from.
fn legend(table: Option<&ResultsTable>, rules: RuleSet, expected: String) -> Vec<String> {
    let rules_line = match table {
        Some(table) => rules_legend(table.rule_titles(), rules),
        None => rules_legend(&rule_titles(rules, true), rules),
    };
    let mut lines = vec![rules_line, FP_LEGEND.to_string(), expected];
    if table.is_some_and(|t| !t.shows_time()) {
        lines.push("time: left out at this width (q/s gives the rate; a wider terminal shows it)".into());
    }
    if let Some(note) = table.and_then(ResultsTable::upload_note) {
        lines.push(note.to_string());
    }
    lines
}
