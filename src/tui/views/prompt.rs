//! The line being edited, over the bottom of the view, with completions above it.

use super::panel;
use crate::tui::state::prompt::Prompt;
use crate::tui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// Most rows of matches shown above the line.
const MATCH_ROWS: usize = 8;

pub fn render(frame: &mut Frame, area: Rect, prompt: &Prompt, theme: &Theme) {
    let inner = area.width.saturating_sub(2) as usize;
    let grid = MatchGrid::new(&prompt.candidates, inner);
    let shown = grid.rows as u16;
    let height = (3 + if shown > 0 { shown + 2 } else { 0 }).min(area.height);
    let popup = Rect::new(area.x, area.bottom().saturating_sub(height), area.width, height);
    frame.render_widget(Clear, popup);
    if shown > 0 {
        let list = Rect::new(popup.x, popup.y, popup.width, shown + 2);
        let lines: Vec<Line> = grid.lines(&prompt.candidates, theme);
        frame.render_widget(Paragraph::new(lines).block(panel(&grid.title(&prompt.candidates))), list);
    }
    let line_area = Rect::new(popup.x, popup.bottom().saturating_sub(3), popup.width, 3);
    let inner_width = line_area.width.saturating_sub(3) as usize;
    let chars: Vec<char> = prompt.text.chars().collect();
    let visible: String = chars[chars.len().saturating_sub(inner_width)..].iter().collect();
    // Pre-filled text is selected: it shows so, and says how to keep it.
    let text = if prompt.fresh {
        let hint =
            if prompt.kind.is_path() { "  typing replaces it; Tab or Bksp keeps it" } else { "  typing replaces it" };
        let room = inner_width.saturating_sub(visible.chars().count() + 1);
        let hint: String = hint.chars().take(room).collect();
        Line::from(vec![
            Span::styled(visible, theme.selected()),
            Span::styled("▏", theme.accent()),
            Span::styled(hint, theme.dim()),
        ])
    } else {
        Line::from(vec![Span::raw(visible), Span::styled("▏", theme.accent())])
    };
    frame.render_widget(Paragraph::new(text).block(panel(&prompt.title)), line_area);
}

/// Matches laid out in columns, as a shell lists them: as many names as fit in [`MATCH_ROWS`] rows
/// of the width there is, the last cell saying how many more there are when not all fit.
struct MatchGrid {
    rows: usize,
    columns: usize,
    /// Each column's width (the longest name, cut to the panel, and a gap).
    width: usize,
    /// Names shown (the last cell is the "more" note when `shown` < all).
    shown: usize,
}

impl MatchGrid {
    fn new(candidates: &[String], inner: usize) -> MatchGrid {
        let longest = candidates.iter().map(|c| c.chars().count()).max().unwrap_or(0);
        let width = (longest + 2).min(inner.max(1));
        let columns = (inner / width.max(1)).max(1);
        let rows = candidates.len().div_ceil(columns).min(MATCH_ROWS);
        let fit = rows * columns;
        // When not all fit, the last cell says how many are left out.
        let shown = if candidates.len() > fit { fit.saturating_sub(1) } else { candidates.len() };
        MatchGrid { rows, columns, width, shown }
    }

    /// The panel's title: how many matched, and what Tab does next.
    fn title(&self, candidates: &[String]) -> String {
        match candidates {
            [only] if only.starts_with('(') => "Tab completes".into(),
            _ => format!("{} matches: type more, Tab again", candidates.len()),
        }
    }

    /// Row by row, names in column-major order (down the first column, then the next).
    fn lines<'a>(&self, candidates: &'a [String], theme: &Theme) -> Vec<Line<'a>> {
        (0..self.rows)
            .map(|row| {
                let mut spans = Vec::new();
                for column in 0..self.columns {
                    let i = column * self.rows + row;
                    if i < self.shown {
                        let name: String = candidates[i].chars().take(self.width.saturating_sub(1)).collect();
                        spans.push(Span::raw(format!("{name:<w$}", w = self.width)));
                    } else if i == self.shown && self.shown < candidates.len() {
                        spans.push(Span::styled(format!("… {} more", candidates.len() - self.shown), theme.dim()));
                    }
                }
                Line::from(spans)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("graph-{i:02}.gra")).collect()
    }

    #[test]
    fn matches_fill_columns_across_the_width() {
        // 14-character cells: five columns in 76, so 12 names take three rows.
        let twelve = names(12);
        let grid = MatchGrid::new(&twelve, 76);
        assert_eq!((grid.rows, grid.columns, grid.shown), (3, 5, 12));
        let lines = grid.lines(&twelve, &Theme::plain());
        let first: String = lines[0].spans.iter().map(|s| s.content.as_ref()).collect();
        assert!(first.starts_with("graph-00.gra  graph-03.gra  graph-06.gra"), "{first}");
    }

    #[test]
    fn too_many_matches_end_with_how_many_more() {
        let all = names(100);
        let grid = MatchGrid::new(&all, 76);
        assert_eq!((grid.rows, grid.shown), (MATCH_ROWS, MATCH_ROWS * 5 - 1));
        let text: String = grid
            .lines(&all, &Theme::plain())
            .iter()
            .flat_map(|l| l.spans.iter().map(|s| s.content.to_string()))
            .collect();
        assert!(text.contains("… 61 more"), "{text}");
        assert_eq!(grid.title(&all), "100 matches: type more, Tab again");
    }

    #[test]
    fn a_name_wider_than_the_panel_is_cut() {
        let long = vec!["x".repeat(200), "y".to_string()];
        let grid = MatchGrid::new(&long, 40);
        assert_eq!((grid.columns, grid.rows), (1, 2));
        let lines = grid.lines(&long, &Theme::plain());
        assert!(lines[0].spans[0].content.chars().count() <= 40);
    }
}
