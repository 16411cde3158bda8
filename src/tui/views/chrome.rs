//! The tab bar, the status line and the footer (generated from the keymap).

use crate::format::{duration, plural};
use crate::index::labeler::Status;
use crate::tui::action::{Action, Tab};
use crate::tui::app::{App, Note};
use crate::tui::hitmap::{Hit, Hitmap};
use crate::tui::keymap;
use crate::tui::worker::PictureLabels;
use crate::workspace::BUNDLED_GRAPH_NAME;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
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
    let room = (area.width as usize).saturating_sub(used + 1);
    if let Some(shown) = graph_forms(app).into_iter().find(|f| f.chars().count() <= room) {
        spans.push(Span::raw(" ".repeat(room - shown.chars().count())));
        spans.push(Span::styled(shown, theme.dim()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// What the tab bar says of the open graph, longest first: its file (the bundled one named as
/// such) with its vertex and edge counts, then less of them; none is cut.
fn graph_forms(app: &App) -> Vec<String> {
    let file = &app.graph.file;
    let name = file.rsplit('/').next().unwrap_or(file);
    let (vertices, edges) = (app.graph.stats.vertices, app.graph.stats.edges);
    let counts = format!("{}, {}", plural(vertices, "vertex", "vertices"), plural(edges, "edge", "edges"));
    let named = if file == BUNDLED_GRAPH_NAME { format!("the bundled sample {name}") } else { file.clone() };
    vec![
        format!("{named}: {counts}"),
        format!("{name}: {counts}"),
        format!("{name}: {}", plural(vertices, "vertex", "vertices")),
        name.to_string(),
    ]
}

/// The status line's rows for a screen `width` cells wide: the running job (what, where a labeling
/// run stands, progress, time, whether `c` cancels), then the last message, whole, wrapped at
/// spaces; with neither, where the labels stand and which keys go on.
pub fn status_lines(app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let width = width as usize;
    let mut lines = Vec::new();
    if let Some(busy) = &app.busy {
        let elapsed = busy.since.elapsed().as_secs_f64();
        let spin = SPINNER[(elapsed * 8.0) as usize % SPINNER.len()];
        let at = app.labels.running_at().map(|at| format!(" · {at}")).unwrap_or_default();
        let percent = busy.progress.map(|p| format!(" {:.0}%", p * 100.0)).unwrap_or_default();
        let time = format!("  {}", duration(elapsed));
        // Cancelling a label build pauses it at a level boundary, where s, f or r carry it on.
        let cancels = match (busy.cancellable, at.is_empty()) {
            (false, _) => "",
            (true, true) => "  (c cancels)",
            (true, false) => "  (c pauses)",
        };
        let what = &busy.what;
        // One row where a shorter form fits: a status line that grows and shrinks as a run goes
        // would move everything above it.
        let forms = [
            format!("{what}{at}{percent}{time}{cancels}"),
            format!("{what}{at}{percent}{cancels}"),
            format!("{what}{percent}{cancels}"),
            format!("{what}{percent}"),
        ];
        lines.extend(one_row(Span::styled(format!(" {spin} "), theme.warn()), &forms, theme.text(), width));
    }
    // The GPU opening in the background, until it is open: a GPU job started meanwhile waits for it.
    if let Some(line) = app.gpu_start.line() {
        lines.extend(wrapped(Span::styled(" … ", theme.warn()), &line, theme.text(), width));
    }
    match &app.note {
        Some(Note::Error(e)) => lines.extend(wrapped(Span::styled(" error: ", theme.error()), e, theme.text(), width)),
        Some(Note::Info(i)) => lines.extend(wrapped(Span::styled(" ● ", theme.accent()), i, theme.text(), width)),
        None if app.busy.is_none() => {
            lines.extend(one_row(Span::styled(" ● ", theme.dim()), &idle_state(app), theme.dim(), width));
        }
        None => {}
    }
    lines
}

/// Where the labels stand when nothing runs and nothing was said: the forms to fit, longest first.
fn idle_state(app: &App) -> Vec<String> {
    // The labeling keys work on the Labels and Picture tabs only.
    let there = if matches!(app.tab, Tab::Labels | Tab::Picture) { "" } else { " (on tab 2 or 6)" };
    let exception_drawn = app.tab == Tab::Picture && matches!(app.picture.labels, PictureLabels::Exception { .. });
    match (app.labels.paused_at(), &app.ready, exception_drawn) {
        (Some(at), None, false) => vec![
            format!("labeling paused at {at}: s steps, f ends the phase, r runs to the end, x resets{there}"),
            format!("labeling paused at {at}: s step, f phase, r to the end, x reset{there}"),
            format!("labeling paused at {at}: s f r x{there}"),
        ],
        _ => vec![idle_sentence(app, there)],
    }
}

/// [`idle_state`]'s one form where it has only one; `there` names the tabs the labeling keys work on.
fn idle_sentence(app: &App, there: &str) -> String {
    // The picture may draw a false positive with the labels it was counted with, not the tab's.
    if let (Tab::Picture, PictureLabels::Exception { dims, seed }) = (app.tab, app.picture.labels) {
        let tab = if app.ready.is_some() { "the Labels tab's are ready" } else { "the Labels tab has none yet" };
        return format!("drawn with the exception's own labels (d = {dims}, seed {seed}); {tab}; s f r x or / go back");
    }
    if let Some(labels) = &app.ready {
        // The labels built, which the settings may since have moved away from.
        let built = format!("d={}, {}", labels.dims(), labels.order());
        let settings = app.labels.config();
        if settings.dims != labels.dims() {
            return format!("labels ready ({built}); the settings ask d={}: r builds them", settings.dims);
        }
        return format!("labels ready ({})", settings.describe());
    }
    match app.labels.status.as_ref().map(|s| &s.status) {
        Some(Status::Cancelled) => format!("labeling cancelled: x resets{there}"),
        Some(Status::Failed(m)) => format!("labeling failed: {m} (x resets{there})"),
        _ => "no labels yet (2: Labels builds them; a query that needs them, too)".into(),
    }
}

/// The first of `forms` (longest first) that fits one row after `lead`; where none does, the last,
/// wrapped.
fn one_row(lead: Span<'static>, forms: &[String], style: Style, width: usize) -> Vec<Line<'static>> {
    let room = width.saturating_sub(lead.width());
    match forms.iter().find(|f| f.chars().count() <= room) {
        Some(form) => vec![Line::from(vec![lead, Span::styled(form.clone(), style)])],
        None => wrapped(lead, forms.last().map_or("", String::as_str), style, width),
    }
}

/// `text` after `lead`, wrapped at spaces into rows of `width` cells, continuation rows indented by
/// the lead's width; a word wider than a row is split where the row ends.
fn wrapped(lead: Span<'static>, text: &str, style: Style, width: usize) -> Vec<Line<'static>> {
    let indent = lead.width();
    let room = width.saturating_sub(indent).max(1);
    let mut lines = Vec::new();
    for (i, row) in wrap(text, room).into_iter().enumerate() {
        let first = if i == 0 { lead.clone() } else { Span::raw(" ".repeat(indent)) };
        lines.push(Line::from(vec![first, Span::styled(row, style)]));
    }
    lines
}

/// The first of `forms` (longest first) that fits `width` cells, else the last: a narrow panel gets
/// a shorter text, never a cut one.
pub fn first_fitting(forms: &[String], width: usize) -> String {
    let last = forms.last().cloned().unwrap_or_default();
    forms.iter().find(|f| f.chars().count() <= width).cloned().unwrap_or(last)
}

/// Splits `text` into rows of at most `width` cells, breaking at spaces where it can (a word wider
/// than a row is split where the row ends).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let options = textwrap::Options::new(width.max(1))
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .word_splitter(textwrap::WordSplitter::NoHyphenation)
        .break_words(true);
    textwrap::wrap(text, options).into_iter().map(|row| row.into_owned()).collect()
}

pub fn status(frame: &mut Frame, area: Rect, app: &App) {
    let mut lines = status_lines(app, area.width);
    if lines.len() > area.height as usize {
        // Only past the rows the layout allows (a message of several hundred words): say so.
        lines.truncate(area.height as usize);
        if let Some(last) = lines.last_mut() {
            last.spans.push(Span::styled(" …", app.theme.warn()));
        }
    }
    frame.render_widget(Paragraph::new(lines), area);
}

pub fn footer(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let editing = match &app.prompt {
        None => keymap::Editing::No,
        Some(prompt) if prompt.kind.completes(&app.ws.loaded.names) => keymap::Editing::Completing,
        Some(_) => keymap::Editing::Text,
    };
    let entries: Vec<(String, &str)> = if app.help {
        vec![("?".into(), "close help"), ("j/k".into(), "scroll"), ("g/G".into(), "top/bottom")]
    } else {
        // A key whose action cannot do anything now is not offered: on the Graph tab Enter draws a
        // cycle, and a graph without one has none to draw.
        let no_cycle = app.tab == Tab::Graph && app.graph.components.is_empty();
        let idle: &[Action] = if no_cycle { &[Action::ShowOnPicture] } else { &[] };
        keymap::footer(app.tab, editing, idle)
    };
    let mut spans = vec![Span::raw(" ")];
    for (key, label) in footer_fit(entries, area.width as usize) {
        spans.push(Span::styled(key, theme.key()));
        spans.push(Span::raw(format!(" {label}  ")));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The footer's entries that fit `width` cells, in order; `?` (the way to every other key) is kept
/// where the entries before it take the room.
fn footer_fit(entries: Vec<(String, &str)>, width: usize) -> Vec<(String, &str)> {
    let cells = |(key, label): &(String, &str)| key.chars().count() + label.chars().count() + 3;
    let help = entries.iter().find(|(key, _)| key == "?").map_or(0, cells);
    let mut used = 1 + help;
    let mut kept = Vec::new();
    for entry in entries {
        if entry.0 == "?" {
            kept.push(entry);
            continue;
        }
        if used + cells(&entry) > width {
            continue;
        }
        used += cells(&entry);
        kept.push(entry);
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::{footer_fit, wrap};

    #[test]
    fn the_footer_keeps_the_help_key_where_others_take_the_room() {
        let entries = vec![("s".to_string(), "step"), ("f".into(), "finish phase"), ("?".into(), "help")];
        let keys = |width| footer_fit(entries.clone(), width).into_iter().map(|(k, _)| k).collect::<Vec<_>>();
        assert_eq!(keys(80), ["s", "f", "?"]);
        // "s step" and "? help" fit in 18 cells, "f finish phase" no longer does.
        assert_eq!(keys(18), ["s", "?"]);
    }

    #[test]
    fn wrap_breaks_at_spaces_and_keeps_every_word() {
        let text = "cannot open sample-graphs/missing.gra: No such file or directory (kept sample-graphs/kegg.gra)";
        let rows = wrap(text, 30);
        assert!(rows.iter().all(|r| r.chars().count() <= 30), "{rows:?}");
        assert_eq!(rows.join(" "), text);
        assert_eq!(rows[0], "cannot open");
        assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(wrap("", 10), [""]);
    }
}
