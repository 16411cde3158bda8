//! The terminal explorer (`grail`, `grail FILE`, `grail tui FILE`).
//!
//! Layout (docs/ARCHITECTURE.md, "src/tui/"): [`app`] holds the state and turns [`action`]s into changes and
//! [`worker`] jobs; [`keymap`] is the one table behind key lookup, the footer and the help;
//! [`worker`] runs everything long on its own thread; [`ui`] and [`views`] draw (one file per
//! screen), [`widgets`] holds the custom widgets. The computations are the library's (the Query
//! tab's search tree comes from [`crate::query::Engine::query_traced`], the Exceptions tab's counts
//! and their plan from [`crate::exceptions`]).

pub mod action;
pub mod app;
pub mod event;
pub mod gpu_offer;
pub mod gpu_start;
pub mod hitmap;
pub mod keymap;
pub mod state;
pub mod terminal;
pub mod theme;
pub mod ui;
pub mod views;
pub mod widgets;
pub mod worker;

use crate::workspace::Workspace;
use anyhow::{Result, anyhow};
use app::App;
use event::AppEvent;
use gpu_offer::GpuOffer;
use std::sync::Arc;
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};
use worker::Worker;

/// How the explorer starts.
#[derive(Clone, Debug)]
pub struct Options {
    pub mouse: bool,
    /// "All threads" for batches (0 = every core).
    pub threads: usize,
    /// The GPU to offer: [`GpuOffer::probe`] in the program, a stand-in in test fixtures.
    pub gpu: GpuOffer,
}

/// Longest the loop folds messages before it draws again (a fast labeler sends many).
const DRAIN_BUDGET: Duration = Duration::from_millis(30);
/// Redraw at least this often while a job runs (spinner, timers).
const BUSY_FRAME: Duration = Duration::from_millis(100);

/// Runs the explorer on an opened graph until the user quits. The terminal is restored on every
/// way out (quit, error, panic).
pub fn run(ws: Workspace, options: Options) -> Result<()> {
    let ws = Arc::new(ws);
    let mut app = App::new(Arc::clone(&ws), theme::Theme::detect(), options.mouse, options.gpu);
    app.gpu_start = gpu_start::GpuStart::begin(&app.gpu);
    let mut guard = terminal::TerminalGuard::enter(options.mouse)?;
    let (tx, rx) = channel();
    let worker = Worker::spawn(ws, tx.clone(), options.threads);
    event::spawn_input_thread(tx);
    loop {
        let hits = {
            let mut hits = hitmap::Hitmap::default();
            guard.terminal.draw(|frame| hits = ui::render(frame, &app))?;
            hits
        };
        app.hits = hits;
        let timeout = if app.busy.is_some() { BUSY_FRAME } else { Duration::from_secs(1) };
        let first = match rx.recv_timeout(timeout) {
            Ok(event) => Some(event),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => return Err(anyhow!("the input and worker threads stopped")),
        };
        let start = Instant::now();
        let mut next = first;
        while let Some(event) = next.take() {
            match event {
                AppEvent::Input(e) => app.on_terminal(&e),
                AppEvent::Worker(msg) => app.on_worker(msg),
                AppEvent::Tick => app.tick(),
                AppEvent::InputError(e) => return Err(anyhow!("cannot read the terminal: {e}")),
            }
            if start.elapsed() < DRAIN_BUDGET {
                next = rx.try_recv().ok();
            }
        }
        for job in app.outbox.drain(..) {
            worker.send(job);
        }
        if std::mem::take(&mut app.cancel_requested) {
            worker.cancel();
        }
        if std::mem::take(&mut app.mouse_changed) {
            guard.set_mouse(app.mouse);
        }
        if app.quit {
            worker.cancel();
            return Ok(());
        }
    }
}

#[cfg(feature = "cli")]
pub(crate) mod fixtures;
#[cfg(test)]
mod tests;
