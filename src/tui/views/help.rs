//! The `?` overlay: every binding, from the same table as the footer, the current tab's first.

use super::chrome::wrap;
use super::help_notes;
use super::panel;
use crate::tui::app::App;
use crate::tui::keymap;
use crate::tui::views::batch::COLUMN_HELP;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let width = area.width.min(72);
    let mut lines = Vec::new();
    for (k, (title, bindings)) in keymap::help_sections(app.tab).into_iter().enumerate() {
        lines.push(Line::styled(title, theme.title()));
        for row in bindings {
            lines
                .push(Line::from(vec![Span::styled(format!("  {:<16}", row.keys), theme.key()), Span::raw(row.label)]));
        }
        // The current tab's section comes first, followed by what its screen shows.
        if k == 0 {
            for note in help_notes::notes(app.tab) {
                let rows = wrap(note, (width as usize).saturating_sub(4));
                lines.extend(rows.into_iter().map(|row| Line::styled(format!("  {row}"), theme.dim())));
            }
        }
    }
    // What a column means, wrapped to the popup beside its name (never cut at the border).
    let room = (width as usize).saturating_sub(2 + 18);
    lines.push(Line::styled("Batch tab results", theme.title()));
    for (column, meaning) in COLUMN_HELP {
        for (k, text) in wrap(&meaning.join(" "), room).into_iter().enumerate() {
            let name = if k == 0 { *column } else { "" };
            lines.push(Line::from(vec![Span::styled(format!("  {name:<16}"), theme.key()), Span::raw(text)]));
        }
    }
    lines.push(Line::raw(""));
    let mouse = "Mouse: click tabs and rows, wheel scrolls; m turns it off to select text.";
    lines.extend(wrap(mouse, (width as usize).saturating_sub(2)).into_iter().map(|row| Line::styled(row, theme.dim())));
    let popup = Rect::new(area.x + (area.width - width) / 2, area.y, width, area.height);
    frame.render_widget(Clear, popup);
    let max_scroll = (lines.len() as u16).saturating_sub(popup.height.saturating_sub(2));
    app.help_max_scroll.set(max_scroll);
    let scroll = app.help_scroll.min(max_scroll);
    frame.render_widget(
        Paragraph::new(lines).scroll((scroll, 0)).block(panel("Help: ? or Esc closes, j/k g/G scroll")),
        popup,
    );
}
