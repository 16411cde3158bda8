//! Shared helpers for the explorer's tests: an app on the bundled graph, a real worker whose
//! messages are pumped synchronously, and rendering to text.

use crate::tui::app::App;
use crate::tui::event::AppEvent;
use crate::tui::gpu_offer::GpuOffer;
use crate::tui::theme::Theme;
use crate::tui::ui;
use crate::tui::worker::{Msg, Worker};
use crate::workspace::Workspace;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

pub fn kegg_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-graphs/kegg.gra")
}

pub struct Harness {
    pub app: App,
    pub worker: Worker,
    pub rx: Receiver<AppEvent<Msg>>,
}

impl Harness {
    pub fn new() -> Harness {
        Harness::on(Workspace::open(&kegg_path(), None).unwrap())
    }

    /// The explorer on a bundled sample graph (`lesson.gra`, `tiny-cycles.txt`, ...).
    pub fn on_sample(name: &str) -> Harness {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-graphs").join(name);
        let mut h = Harness::on(Workspace::open(&path, None).unwrap());
        h.app.graph.file = format!("sample-graphs/{name}");
        h
    }

    /// The explorer on `ws`, offering no GPU whatever the machine has (snapshots must not differ
    /// between machines).
    pub fn on(ws: Workspace) -> Harness {
        Harness::offering(ws, GpuOffer::none())
    }

    /// The explorer on `ws`, offering `gpu` (a stand-in shows a GPU machine's screens anywhere).
    pub fn offering(ws: Workspace, gpu: GpuOffer) -> Harness {
        let ws = Arc::new(ws);
        let mut app = App::new(Arc::clone(&ws), Theme::plain(), true, gpu);
        // Stable text for snapshots: the real values are shown in the running program.
        app.graph.file = "sample-graphs/kegg.gra".into();
        app.graph.load_seconds = 0.001;
        app.graph.condense_seconds = 0.0001;
        app.total_memory = None;
        let (tx, rx) = channel();
        let worker = Worker::spawn(ws, tx, 2);
        Harness { app, worker, rx }
    }

    /// Sends the app's jobs and folds the worker's messages until every job is done.
    pub fn settle(&mut self) {
        let jobs: Vec<_> = self.app.outbox.drain(..).collect();
        let count = jobs.len();
        for job in jobs {
            self.worker.send(job);
        }
        let mut idle = 0;
        while idle < count {
            // A hang detector, not a timing: on two busy cores a batch beside the background counts is slow.
            match self.rx.recv_timeout(Duration::from_secs(600)).expect("the worker did not answer in time") {
                AppEvent::Worker(Msg::Idle) => {
                    idle += 1;
                    self.app.on_worker(Msg::Idle);
                }
                AppEvent::Worker(msg) => self.app.on_worker(msg),
                _ => {}
            }
        }
    }

    /// Folds the worker's messages until the count of the finished labels' false positives (which
    /// runs beside the jobs) has arrived.
    pub fn await_false_positives(&mut self) {
        loop {
            match self.rx.recv_timeout(Duration::from_secs(120)).expect("the count did not arrive in time") {
                AppEvent::Worker(msg @ Msg::FalsePositives(..)) => return self.app.on_worker(msg),
                AppEvent::Worker(msg) => self.app.on_worker(msg),
                _ => {}
            }
        }
    }

    /// Presses keys given as text: every character is a key; `<Enter>`, `<Esc>`, `<Tab>` name the others.
    pub fn keys(&mut self, text: &str) {
        for key in parse_keys(text) {
            self.app.on_key(&key);
        }
    }

    /// Checks every run the Batch tab lists (the GPU's and the exact BFS's too) and starts the
    /// batch: its job waits in the outbox.
    pub fn run_every_batch_run(&mut self) {
        self.app.batch.runs.iter_mut().for_each(|(_, on)| *on = true);
        self.keys("r");
    }

    /// Masks what changes from run to run (times, memory) and renders.
    pub fn render(&mut self, width: u16, height: u16) -> String {
        for row in &mut self.app.labels.phases.rows {
            row.seconds = 0.0;
        }
        self.app.labels.resident = Some(64 << 20);
        if self.app.labels.run_seconds.is_some() {
            self.app.labels.run_seconds = Some(0.0);
        }
        if let Some(result) = &self.app.batch.result {
            let mut copy = (**result).clone();
            for row in &mut copy.rows {
                row.report.elapsed = Duration::from_millis(10);
            }
            self.app.batch.result = Some(Arc::new(copy));
        }
        if let Some(result) = self.app.exceptions.result.as_mut() {
            result.seconds = 0.5;
        }
        render(&self.app, width, height)
    }
}

/// The screen as text, one line a row, with times and thread counts masked (`masked`).
pub fn render(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| drop(ui::render(f, app))).unwrap();
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..height {
        let line: String = (0..width).map(|x| buffer[(x, y)].symbol().to_string()).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    masked(&out)
}

/// A screen's text with what varies between machines masked: each duration and the padding after
/// it (its width varies with the value) becomes `[time] `, and thread counts `N`.
pub fn masked(text: &str) -> String {
    let text = mask_times(text);
    let text = mask_count(&text, "all threads (");
    mask_count(&text, "×all(")
}

/// Each `12 ms`, `3.5s`, `40 µs`, ... (a number, an optional space, `µs`, `µ`, `ms`, `m` or `s`
/// ending a word) and the spaces after it becomes `[time] `.
fn mask_times(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if let Some(len) = time_at(rest) {
            out.push_str("[time] ");
            rest = rest[len..].trim_start_matches(' ');
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// The length of the duration `text` starts with, if it starts with one.
fn time_at(text: &str) -> Option<usize> {
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let mut at = digits(text);
    if at == 0 {
        return None;
    }
    if let Some(fraction) = text[at..].strip_prefix('.')
        && digits(fraction) > 0
    {
        at += 1 + digits(fraction);
    }
    if text[at..].starts_with(' ') {
        at += 1;
    }
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let ends_word = |end: usize| !text[end..].starts_with(word);
    // The longer unit first: `ms` before `m`.
    ["µs", "µ", "ms", "m", "s"]
        .iter()
        .filter(|unit| text[at..].starts_with(**unit))
        .map(|unit| at + unit.len())
        .find(|&end| ends_word(end))
}

/// Each `PREFIX` followed by digits and `)` gets `N` for the digits.
fn mask_count(text: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        let after = &rest[at + prefix.len()..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        out.push_str(&rest[..at + prefix.len()]);
        if digits > 0 && after[digits..].starts_with(')') {
            out.push('N');
            rest = &after[digits..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn masking_keeps_what_is_not_a_time() {
    let text = "12.5 ms  │3s│ 40 µs 7 min 1.2.5s 9ms_ all threads (16) ×all(8) ×all() 4 m\n";
    assert_eq!(masked(text), "[time] │[time] │ [time] 7 min 1.[time] 9ms_ all threads (N) ×all(N) ×all() [time] \n");
}

pub fn parse_keys(text: &str) -> Vec<crossterm::event::KeyEvent> {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut keys = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '<'
            && let Some(end) = rest.find('>')
        {
            let name = &rest[1..end];
            let code = match name {
                "Enter" => Some(KeyCode::Enter),
                "Esc" => Some(KeyCode::Esc),
                "Tab" => Some(KeyCode::Tab),
                "BackTab" => Some(KeyCode::BackTab),
                "Down" => Some(KeyCode::Down),
                "Up" => Some(KeyCode::Up),
                "Left" => Some(KeyCode::Left),
                "Right" => Some(KeyCode::Right),
                "Bksp" => Some(KeyCode::Backspace),
                _ => None,
            };
            if let Some(code) = code {
                keys.push(KeyEvent::new(code, KeyModifiers::NONE));
                rest = &rest[end + 1..];
                continue;
            }
        }
        keys.push(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        rest = &rest[c.len_utf8()..];
    }
    keys
}

/// Settings for snapshots.
pub fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    // Named by the test alone (the names are unique across these modules), beside the tests.
    s.set_prepend_module_to_snapshot(false);
    s
}
