//! The tab bar, the status line and the footer (generated from the keymap).

use crate::format::duration;
use crate::tui::action::Tab;
use crate::tui::app::{App, Note};
use crate::tui::hitmap::{Hit, Hitmap};
use crate::tui::keymap;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

const SPINNER: [&str; 4] = ["|", "/", "-", "\\"];

pub fn tabs(frame: &mut Frame, area: Rect, app: &App, hits: &mut Hitmap) {
    let theme = &app.theme;
    let mut spans = vec![Span::styled(" grail ", theme.accent())];
    let mut x = area.x + 7;
    for (i, tab) in Tab::ALL.iter().enumerate() {
        let text = format!(" {} {} ", i + 1, tab.title());
        let width = text.chars().count() as u16;
        hits.add(Rect::new(x, area.y, width, 1), Hit::Tab(*tab));
        x += width + 1;
        let style = if *tab == app.tab { theme.selected() } else { theme.text() };
        spans.push(Span::styled(text, style));
        spans.push(Span::raw(" "));
    }
    let used: usize = spans.iter().map(|s| s.width()).sum();
    let file = &app.graph.file;
    let room = (area.width as usize).saturating_sub(used + 1);
    if room > 4 {
        let shown: String = if file.chars().count() > room {
            let tail: String = file.chars().rev().take(room - 1).collect::<Vec<_>>().into_iter().rev().collect();
            format!("…{tail}")
        } else {
            file.clone()
        };
        spans.push(Span::raw(" ".repeat(room - shown.chars().count())));
        spans.push(Span::styled(shown, theme.dim()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

pub fn status(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let line = if let Some(busy) = &app.busy {
        let elapsed = busy.since.elapsed().as_secs_f64();
        let spin = SPINNER[(elapsed * 8.0) as usize % SPINNER.len()];
        let mut spans = vec![Span::styled(format!(" {spin} "), theme.warn()), Span::raw(busy.what.clone())];
        if let Some(p) = busy.progress {
            spans.push(Span::raw(format!(" {:.0}%", p * 100.0)));
        }
        spans.push(Span::styled(format!("  {}", duration(elapsed)), theme.dim()));
        if busy.cancellable {
            spans.push(Span::styled("  (c cancels)", theme.dim()));
        }
        Line::from(spans)
    } else {
        match &app.note {
            Some(Note::Error(e)) => Line::from(vec![Span::styled(" error: ", theme.error()), Span::raw(e.clone())]),
            Some(Note::Info(i)) => Line::from(vec![Span::styled(" ● ", theme.accent()), Span::raw(i.clone())]),
            None => {
                let labels = if app.ready.is_some() {
                    format!("labels ready ({})", app.labels.config().describe())
                } else {
                    "no labels yet (2: Labels builds them; a query builds them too)".into()
                };
                Line::from(vec![Span::styled(" ● ", theme.dim()), Span::styled(labels, theme.dim())])
            }
        }
    };
    frame.render_widget(Paragraph::new(line), area);
}

pub fn footer(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let editing = app.prompt.is_some();
    let entries: Vec<(String, &str)> = if app.help {
        vec![("?".into(), "close help"), ("j/k".into(), "scroll")]
    } else {
        keymap::footer(app.tab, editing)
    };
    let mut spans = vec![Span::raw(" ")];
    let mut width = 1usize;
    for (key, label) in entries {
        let w = key.chars().count() + label.chars().count() + 3;
        if width + w > area.width as usize {
            break;
        }
        width += w;
        spans.push(Span::styled(key, theme.key()));
        spans.push(Span::raw(format!(" {label}  ")));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
