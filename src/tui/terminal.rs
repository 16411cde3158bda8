//! Entering and leaving the terminal's raw, alternate-screen mode. [`TerminalGuard`] restores it
//! when dropped (quit and error paths), and a panic hook restores it before the panic message when
//! the thread that holds the guard (the UI thread) panics: only then does the program end.
//!
//! A panic on any other thread while the guard is held (the worker, or a pool thread inside one of
//! its jobs) leaves the terminal as it is: the worker catches it and reports it as the job's error.
//! Its message is kept for that report ([`take_panic_message`]) instead of printed over the screen.

use anyhow::{Context, Result};
use crossterm::event::{DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::cell::Cell;
use std::io::{Stdout, stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once, PoisonError};

pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// Puts the terminal back: raw mode off, mouse off, main screen, cursor shown. Safe to call twice.
pub fn restore() {
    let _ = disable_raw_mode();
    let _ =
        execute!(stdout(), DisableMouseCapture, DisableBracketedPaste, LeaveAlternateScreen, crossterm::cursor::Show);
}

static HOOK: Once = Once::new();

thread_local! {
    /// Set on the thread that holds the [`TerminalGuard`] while it holds it.
    static HOLDS_TERMINAL: Cell<bool> = const { Cell::new(false) };
}

/// Whether some thread holds the terminal (then other threads' panic messages are kept, not
/// printed over the screen).
static TERMINAL_HELD: AtomicBool = AtomicBool::new(false);

/// The last panic of a thread other than the UI thread while the terminal was held: `message at
/// file:line`.
static PANIC_MESSAGE: Mutex<Option<String>> = Mutex::new(None);

/// Marks (or unmarks) the calling thread as the one holding the terminal.
fn hold_terminal(held: bool) {
    HOLDS_TERMINAL.with(|h| h.set(held));
    TERMINAL_HELD.store(held, Ordering::SeqCst);
}

/// Whether a panic on the calling thread ends the program with the terminal to restore.
fn panic_ends_the_ui() -> bool {
    HOLDS_TERMINAL.with(Cell::get)
}

/// The message of the last panic a non-UI thread had while the terminal was held, taken (the
/// worker adds it to the job's error).
pub fn take_panic_message() -> Option<String> {
    PANIC_MESSAGE.lock().unwrap_or_else(PoisonError::into_inner).take()
}

/// Restores the terminal before the default panic message prints when the UI thread panics
/// (installed once).
pub fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if panic_ends_the_ui() {
                restore();
                previous(info);
            } else if TERMINAL_HELD.load(Ordering::SeqCst) {
                let text = payload_text(info.payload());
                let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
                *PANIC_MESSAGE.lock().unwrap_or_else(PoisonError::into_inner) = Some(format!("{text}{at}"));
            } else {
                previous(info);
            }
        }));
    });
}

/// A panic's message, when it has one.
pub fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".into())
}

/// The terminal in TUI mode; restored on drop.
pub struct TerminalGuard {
    pub terminal: Term,
}

impl TerminalGuard {
    pub fn enter(mouse: bool) -> Result<TerminalGuard> {
        install_panic_hook();
        hold_terminal(true);
        enable_raw_mode().context("cannot switch the terminal to raw mode")?;
        let mut out = stdout();
        let entered = execute!(out, EnterAlternateScreen, EnableBracketedPaste)
            .and_then(|()| if mouse { execute!(out, EnableMouseCapture) } else { Ok(()) });
        if let Err(e) = entered {
            hold_terminal(false);
            restore();
            return Err(e).context("cannot set up the terminal");
        }
        match Terminal::new(CrosstermBackend::new(stdout())) {
            Ok(terminal) => Ok(TerminalGuard { terminal }),
            Err(e) => {
                hold_terminal(false);
                restore();
                Err(e).context("cannot set up the terminal")
            }
        }
    }

    pub fn set_mouse(&mut self, on: bool) {
        let _ = if on { execute!(stdout(), EnableMouseCapture) } else { execute!(stdout(), DisableMouseCapture) };
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        hold_terminal(false);
        restore();
    }
}

/// While the first graph loads (before the screen switches), keys typed are not echoed over the
/// "loading …" line; they wait, unread, for the explorer. Restores the terminal's echo on drop.
/// Does nothing where stdin is not a terminal.
pub struct NoEcho {
    saved: Option<libc::termios>,
}

impl NoEcho {
    pub fn hold() -> NoEcho {
        // SAFETY: tcgetattr and tcsetattr only read and write the termios given, on fd 0.
        unsafe {
            let mut attrs: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(libc::STDIN_FILENO, &mut attrs) != 0 {
                return NoEcho { saved: None };
            }
            let saved = attrs;
            attrs.c_lflag &= !libc::ECHO;
            if libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &attrs) != 0 {
                return NoEcho { saved: None };
            }
            NoEcho { saved: Some(saved) }
        }
    }
}

impl Drop for NoEcho {
    fn drop(&mut self) {
        if let Some(saved) = self.saved.take() {
            // SAFETY: as in `hold`; the attributes are those read there.
            unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &saved) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    /// A panic on a pool thread inside a job, while the UI thread holds the terminal, neither ends
    /// the UI nor prints over it: its message is kept for the job's error.
    #[test]
    fn only_the_thread_holding_the_terminal_restores_it_on_a_panic() {
        install_panic_hook();
        hold_terminal(true);
        assert!(panic_ends_the_ui());
        let job = std::thread::Builder::new()
            .name("grail-worker".into())
            .spawn(|| {
                assert!(!panic_ends_the_ui(), "the worker thread");
                let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    pool.install(|| {
                        (0..64).into_par_iter().for_each(|i| {
                            assert!(!panic_ends_the_ui(), "a pool thread");
                            if i == 63 {
                                panic!("injected panic on a pool thread");
                            }
                        })
                    })
                }))
                .map_err(|payload| payload_text(payload.as_ref()))
            })
            .unwrap();
        let caught = job.join().unwrap().unwrap_err();
        assert_eq!(caught, "injected panic on a pool thread");
        let kept = take_panic_message().expect("the message is kept for the job's error");
        assert!(kept.starts_with("injected panic on a pool thread at src/tui/terminal.rs:"), "{kept}");
        hold_terminal(false);
        assert!(!panic_ends_the_ui());
    }
}
