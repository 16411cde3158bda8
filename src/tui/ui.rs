//! Draws the whole screen from the [`App`]: tab bar, the current tab's view, status line, footer,
//! and the overlays (prompt, help). Returns where clickable things landed ([`Hitmap`]).

use super::action::Tab;
use super::app::App;
use super::hitmap::Hitmap;
use super::views;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

/// The smallest terminal the layout is made for.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;
/// Rows the status line may always take for a long message; larger screens give it a quarter.
const MAX_STATUS_ROWS: usize = 3;

/// Draws a frame.
pub fn render(frame: &mut Frame, app: &App) -> Hitmap {
    let mut hits = Hitmap::default();
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text = vec![
            Line::styled("grail explorer", app.theme.title()),
            Line::raw(""),
            Line::raw(format!("This terminal is {}×{}.", area.width, area.height)),
            Line::raw(format!("The explorer needs at least {MIN_WIDTH}×{MIN_HEIGHT}: please enlarge it.")),
            Line::raw("q quits."),
        ];
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return hits;
    }
    // The status line takes the rows its text needs, up to a quarter of the screen (at least 3).
    let status_rows = views::chrome::status_lines(app, area.width)
        .len()
        .clamp(1, MAX_STATUS_ROWS.max((area.height as usize - 2) / 4));
    let [tabs, body, status, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(status_rows as u16),
        Constraint::Length(1),
    ])
    .areas(area);
    views::chrome::tabs(frame, tabs, app, &mut hits);
    match app.tab {
        Tab::Graph => views::graph::render(frame, body, app, &mut hits),
        Tab::Labels => views::labels::render(frame, body, app, &mut hits),
        Tab::Query => views::query::render(frame, body, app, &mut hits),
        Tab::Batch => views::batch::render(frame, body, app, &mut hits),
        Tab::Exceptions => views::exceptions::render(frame, body, app),
        Tab::Picture => views::picture::render(frame, body, app),
    }
    views::chrome::status(frame, status, app);
    views::chrome::footer(frame, footer, app);
    if let Some(prompt) = &app.prompt {
        views::prompt::render(frame, body, prompt, &app.theme);
    }
    if app.help {
        views::help::render(frame, body, app);
    }
    hits
}
