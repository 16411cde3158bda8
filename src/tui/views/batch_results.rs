//! The Batch tab's results table: one row per run, one column per rule that can decide, with counts
//! written as precisely as the width allows (whole, `64.5k`, `64k`) and columns as wide as their
//! widest cell, spread over the panel's width.

use crate::format::thousands;
use crate::query::{Rule, RuleSet};
use crate::tui::theme::Theme;
use crate::tui::worker::{BatchResult, BatchRow};
use ratatui::layout::Constraint;
use ratatui::text::Line;
use ratatui::widgets::{Row, Table};

/// The units of [`compact`] and [`tight`], each a thousand times the one before.
const UNITS: [(u64, &str); 4] = [(1_000, "k"), (1_000_000, "M"), (1_000_000_000, "G"), (1_000_000_000_000, "T")];

/// `n` in tenths of `unit` and in whole ones, each rounded to the nearest.
fn in_unit(n: u64, unit: u64) -> (u128, u128) {
    let (n, unit) = (u128::from(n), u128::from(unit));
    ((n * 10 + unit / 2) / unit, (n + unit / 2) / unit)
}

/// `12.3` from 123 tenths, `12` from 120.
fn tenths(t: u128, unit: &str) -> String {
    if t.is_multiple_of(10) { format!("{}{unit}", t / 10) } else { format!("{}.{}{unit}", t / 10, t % 10) }
}

/// `12345` → `12.3k`, `10668` → `10.7k`: five characters at most, rounded to the nearest (a
/// number that rounds to a thousand of a unit is written in the next one: 999,999 is `1M`).
pub fn compact(n: u64) -> String {
    in_units(n, 1_000)
}

/// `64515` → `65k`: four characters up to a trillion, rounded like [`compact`] (tenths only
/// below 10 of a unit: `2.5M`).
pub fn tight(n: u64) -> String {
    in_units(n, 100)
}

/// `n` whole below 10,000, else in the first unit where it is under a thousand, with tenths while
/// it is under `tenths_below` tenths of it.
fn in_units(n: u64, tenths_below: u128) -> String {
    if n < 10_000 {
        return n.to_string();
    }
    for (i, &(unit, name)) in UNITS.iter().enumerate() {
        let (t, whole) = in_unit(n, unit);
        if t < tenths_below {
            return tenths(t, name);
        }
        if whole < 1_000 || i == UNITS.len() - 1 {
            return format!("{whole}{name}");
        }
    }
    unreachable!("the last unit takes any number")
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

/// Column titles of the rules, six characters at most.
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

/// Column titles of the rules where the table is narrow, four characters at most.
fn tiny_rule(rule: Rule) -> &'static str {
    match rule {
        Rule::LevelCut => "lvl",
        Rule::BloomCut => "blm",
        Rule::LabelCut => "lbl",
        Rule::Search => "srch",
        other => short_rule(other),
    }
}

/// A method's name in the table: `guided-` written `g-` (`g-dfs`, the GPU's `g-dfs+bfs`).
pub fn short_method(method: &str) -> String {
    method.replace("guided-", "g-")
}

/// How counts are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Counts {
    /// `64,515`
    Whole,
    /// `64.5k`
    Compact,
    /// `64k`
    Tight,
}

impl Counts {
    fn write(self, n: u64) -> String {
        match self {
            Counts::Whole => thousands(n),
            Counts::Compact => compact(n),
            Counts::Tight => tight(n),
        }
    }
}

/// One way to write the table, from the most precise to the narrowest.
#[derive(Clone, Copy, Debug)]
struct Form {
    counts: Counts,
    tiny_titles: bool,
    time: bool,
}

const FORMS: [Form; 5] = [
    Form { counts: Counts::Whole, tiny_titles: false, time: true },
    Form { counts: Counts::Compact, tiny_titles: false, time: true },
    Form { counts: Counts::Compact, tiny_titles: true, time: true },
    // Without the time before the tenths go: q/s says the same for a batch of known size.
    Form { counts: Counts::Compact, tiny_titles: true, time: false },
    Form { counts: Counts::Tight, tiny_titles: true, time: false },
];

/// The table's text, laid out for one width.
pub struct ResultsTable {
    /// The GPU row's upload, where the run names leave it out: said under the table instead.
    upload_note: Option<String>,
    titles: Vec<String>,
    rows: Vec<Vec<String>>,
    /// Rows whose `wrong` count is not zero.
    wrong: Vec<bool>,
    widths: Vec<u16>,
    gap: u16,
    rule_titles: Vec<String>,
}

impl ResultsTable {
    /// The most precise form of `result` whose columns fit `width` cells (the narrowest otherwise).
    pub fn fit(result: &BatchResult, width: u16) -> ResultsTable {
        let mut table = ResultsTable::of(result, FORMS[0]);
        for form in FORMS {
            table = ResultsTable::of(result, form);
            if table.needed() <= width {
                break;
            }
        }
        // The panel's spare cells widen the gaps evenly, so the columns span it.
        let gaps = (table.widths.len() as u16).saturating_sub(1).max(1);
        table.gap = 1 + width.saturating_sub(table.needed()) / gaps;
        table
    }

    fn of(result: &BatchResult, form: Form) -> ResultsTable {
        let rules = result.rules.rules();
        let rule_titles = rule_titles(result.rules, form.tiny_titles);
        let mut titles = vec!["run".to_string()];
        if form.time {
            titles.push("time".into());
        }
        titles.push("q/s".into());
        titles.extend(rule_titles.iter().cloned());
        titles.extend(["yes", "FP%", "wrong"].map(String::from));
        let rows: Vec<Vec<String>> = result.rows.iter().map(|row| cells(row, rules, form)).collect();
        // Without the time column the names are short too: the upload goes under the table.
        let upload_note = result.rows.iter().find_map(|row| row.upload_seconds).filter(|_| !form.time).map(|upload| {
            format!(
                "×gpu: the graph, labels and index went up first in {} (not in its q/s)",
                crate::format::duration(upload)
            )
        });
        let wrong = result.rows.iter().map(|row| row.report.mismatches > 0).collect();
        let widths = (0..titles.len())
            .map(|c| {
                let widest = rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
                widest.max(titles[c].chars().count()) as u16
            })
            .collect();
        ResultsTable { upload_note, titles, rows, wrong, widths, gap: 1, rule_titles }
    }

    /// The runs it lists.
    pub fn runs(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table has its time column (the narrowest forms leave it out).
    pub fn shows_time(&self) -> bool {
        self.titles.iter().any(|t| t == "time")
    }

    /// The GPU row's upload, where the narrowest forms leave it out of the run's name.
    pub fn upload_note(&self) -> Option<&str> {
        self.upload_note.as_deref()
    }

    /// Cells the columns take with one-cell gaps.
    fn needed(&self) -> u16 {
        self.widths.iter().sum::<u16>() + self.widths.len().saturating_sub(1) as u16
    }

    /// The rule columns' titles, for the legend.
    pub fn rule_titles(&self) -> &[String] {
        &self.rule_titles
    }

    /// The table widget: the run names left-aligned, every number right-aligned under its title.
    pub fn widget(&self, theme: &Theme) -> Table<'static> {
        let align = |c: usize, text: String| {
            let line = Line::raw(text);
            if c == 0 { line } else { line.right_aligned() }
        };
        let header = Row::new(self.titles.iter().enumerate().map(|(c, t)| align(c, t.clone()))).style(theme.title());
        let last = self.titles.len() - 1;
        let rows = self.rows.iter().zip(&self.wrong).map(|(cells, &wrong)| {
            Row::new(cells.iter().enumerate().map(|(c, text)| {
                let line = align(c, text.clone());
                if c == last && wrong { line.style(theme.error()) } else { line }
            }))
        });
        let widths = self.widths.iter().map(|&w| Constraint::Length(w));
        Table::new(rows, widths).header(header).column_spacing(self.gap)
    }
}

/// One run's cells in `form`.
fn cells(row: &BatchRow, rules: &[Rule], form: Form) -> Vec<String> {
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
    let name = if row.exact {
        format!("exact {}", if row.gpu { "gpu" } else { "cpu" })
    } else if let Some(upload) = row.upload_seconds.filter(|_| form.time) {
        // The row's time is the batch's on the device; the upload this run paid first is named.
        format!("{} ×{threads} +{} upload", short_method(&row.method), crate::format::duration(upload))
    } else {
        format!("{} ×{threads}", short_method(&row.method))
    };
    let count = |n: u64| form.counts.write(n);
    let mut cells = vec![name];
    if form.time {
        cells.push(compact_time(secs));
    }
    cells.push(count(qps));
    cells.extend(rules.iter().map(|&rule| count(r.by_rule.get(rule))));
    cells.push(count(r.positives));
    // A share of the no-answers: none when there were none, or for an exact BFS, which uses no index.
    let negatives = r.queries - r.positives;
    cells.push(match (row.exact, negatives) {
        (true, _) | (_, 0) => "-".to_string(),
        _ => fp_cell(row.searched_negative_rate * 100.0),
    });
    cells.push(if r.checked == 0 { "-".to_string() } else { count(r.mismatches) });
    cells
}

/// A percentage for the FP% column: one decimal (`45.3`, `0.0` for none), and below 0.1 its first
/// significant digit (`0.01`), so that a small share never reads as none. (`format::percent` keeps
/// two digits, `0.010`: a column narrower by one keeps 80 columns at `10.7k` instead of `11k`.)
fn fp_cell(p: f64) -> String {
    if p >= 99.95 {
        "100".to_string()
    } else if p >= 0.1 || p <= 0.0 {
        format!("{p:.1}")
    } else {
        let decimals = (-p.log10().floor()).max(1.0) as usize;
        format!("{p:.decimals$}")
    }
}

/// The legend's first line: what the rule columns, as titled, count.
pub fn rules_legend(rule_titles: &[String], rules: RuleSet) -> String {
    let named = |keep: fn(Rule) -> bool| -> Vec<String> {
        rules.rules().iter().zip(rule_titles).filter(|&(&r, _)| keep(r)).map(|(_, t)| t.clone()).collect()
    };
    let cuts = named(|r| r.answer() == Some(false)).join(" ");
    let proofs = named(|r| r.answer() == Some(true)).join(" ");
    let search = named(|r| r == Rule::Search).join(" ");
    // Under its full title the column still gets its meaning, as the abbreviated one does.
    let search =
        if search == "search" { "search: decided by a search".to_string() } else { format!("{search}: search") };
    format!("{cuts}: cuts (no) · {proofs}: proofs (yes) · {search}")
}

/// The rule columns' titles, in the order `rules` tries them: the narrowest when `tiny` (the
/// legend before a run uses those).
pub fn rule_titles(rules: RuleSet, tiny: bool) -> Vec<String> {
    rules.rules().iter().map(|&r| if tiny { tiny_rule(r) } else { short_rule(r) }.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::Method;
    use crate::tui::worker::GPU_METHOD;

    #[test]
    fn the_legend_names_the_columns_of_the_rules_in_force() {
        assert_eq!(
            rules_legend(&rule_titles(RuleSet::Grail, true), RuleSet::Grail),
            "lbl lvl: cuts (no) · scc tree: proofs (yes) · srch: search"
        );
        let all = rules_legend(&rule_titles(RuleSet::All, true), RuleSet::All);
        assert_eq!(all, "lvl topo sup- blm lbl: cuts (no) · scc sup+ tree: proofs (yes) · srch: search");
    }

    #[test]
    fn a_gpu_row_names_the_upload_it_paid_apart_from_its_time() {
        use crate::query::{BatchReport, Query, RuleCounts};
        use std::time::Duration;
        let queries = [Query { src: 0, dst: 1, expected: None, line: 0 }];
        let report =
            BatchReport::of_answers(&queries, &[true], Method::GuidedBfs, 2, RuleCounts::default(), Duration::ZERO);
        let row = BatchRow { method: GPU_METHOD.into(), ..BatchRow::new("gpu guided-dfs+bfs".into(), true, report) };
        assert_eq!(cells(&row, &[], FORMS[0])[0], "g-dfs+bfs ×gpu");
        let uploaded = BatchRow { upload_seconds: Some(0.031), ..row };
        assert_eq!(cells(&uploaded, &[], FORMS[0])[0], "g-dfs+bfs ×gpu +31.0 ms upload");
        // At 80 columns the name is short and the upload said under the table, so every column
        // keeps its width.
        let result = BatchResult {
            source: "random pairs".into(),
            expected: String::new(),
            queries: 1,
            rows: vec![uploaded],
            histogram: None,
            rules: RuleSet::All,
        };
        let wide = ResultsTable::fit(&result, 160);
        assert!(wide.rows[0][0].ends_with("+31.0 ms upload") && wide.upload_note().is_none());
        let narrow = ResultsTable::fit(&result, 78);
        assert!(narrow.needed() <= 78, "{:?}", narrow.widths);
        assert_eq!(narrow.rows[0][0], "g-dfs+bfs ×gpu");
        assert_eq!(
            narrow.upload_note(),
            Some("×gpu: the graph, labels and index went up first in 31.0 ms (not in its q/s)")
        );
    }

    #[test]
    fn compact_numbers_stay_short_and_round() {
        assert_eq!(compact(9_999), "9999");
        assert_eq!(compact(10_668), "10.7k");
        assert_eq!(compact(12_345), "12.3k");
        assert_eq!(compact(99_949), "99.9k");
        assert_eq!(compact(99_999), "100k");
        assert_eq!(compact(327_196), "327k");
        assert_eq!(compact(999_499), "999k");
        assert_eq!(compact(999_500), "1M");
        assert_eq!(compact(2_500_000), "2.5M");
        assert_eq!(compact(12_000_000), "12M");
        assert_eq!(compact(999_999_999), "1G");
        assert_eq!(compact(1_272_100_000_000), "1.3T");
        assert_eq!(compact(u64::MAX), "18446744T");
        for n in [0, 9_999, 10_000, 99_999, 100_000, 999_999, 1_000_000, 99_999_999, 100_000_000, 999_999_999] {
            assert!(compact(n).chars().count() <= 5, "{n}: {}", compact(n));
            assert!(tight(n).chars().count() <= 4, "{n}: {}", tight(n));
        }
        for n in (0..60).map(|k| 10_000u64 * 3u64.pow(k / 2) + k as u64 * 7_919).filter(|&n| n < 999_000_000_000) {
            assert!(compact(n).chars().count() <= 5, "{n}: {}", compact(n));
            assert!(tight(n).chars().count() <= 4, "{n}: {}", tight(n));
        }
        assert_eq!(tight(64_515), "65k");
        assert_eq!(tight(2_500_000), "2.5M");
        assert_eq!(tight(9_940_000), "9.9M");
        assert_eq!(tight(9_960_000), "10M");
        assert_eq!(compact_time(0.0123), "12.3ms");
    }

    #[test]
    fn a_small_share_of_searched_no_answers_never_reads_as_zero() {
        use crate::query::{BatchReport, Query, RuleCounts};
        use std::time::Duration;
        // 8 of 79,651 no-answers needed a search: 0.01%.
        let queries = [Query { src: 0, dst: 1, expected: None, line: 0 }];
        let report =
            BatchReport::of_answers(&queries, &[false], Method::GuidedDfs, 2, RuleCounts::default(), Duration::ZERO);
        let row =
            BatchRow { searched_negative_rate: 8.0 / 79_651.0, ..BatchRow::new("guided-dfs".into(), false, report) };
        let cells = cells(&row, &[], FORMS[0]);
        let fp = &cells[cells.len() - 2];
        assert_eq!(fp, "0.01");
        let cells = |p: f64| fp_cell(p);
        assert_eq!(
            (cells(0.0), cells(45.26), cells(0.1), cells(0.0047), cells(99.96)),
            ("0.0".into(), "45.3".into(), "0.1".into(), "0.005".into(), "100".into())
        );
    }
}
