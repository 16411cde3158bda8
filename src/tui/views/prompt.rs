//! The line being edited, over the bottom of the view, with completions above it.

use super::panel;
use crate::tui::state::prompt::Prompt;
use crate::tui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

pub fn render(frame: &mut Frame, area: Rect, prompt: &Prompt, theme: &Theme) {
    let shown = prompt.candidates.len().min(8) as u16;
    let height = (3 + if shown > 0 { shown + 2 } else { 0 }).min(area.height);
    let popup = Rect::new(area.x, area.bottom().saturating_sub(height), area.width, height);
    frame.render_widget(Clear, popup);
    if shown > 0 {
        let list = Rect::new(popup.x, popup.y, popup.width, shown + 2);
        let mut lines: Vec<Line> =
            prompt.candidates.iter().take(shown as usize).map(|c| Line::raw(c.clone())).collect();
        if prompt.candidates.len() > shown as usize {
            let more = format!("… {} more", prompt.candidates.len() - shown as usize);
            if let Some(last) = lines.last_mut() {
                *last = Line::styled(more, theme.dim());
            }
        }
        frame.render_widget(Paragraph::new(lines).block(panel("matches")), list);
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
