//! Entering and leaving the terminal's raw, alternate-screen mode. [`TerminalGuard`] restores it
//! when dropped (quit and error paths) and a panic hook restores it before the panic message.

use anyhow::{Context, Result};
use crossterm::event::{DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{Stdout, stdout};
use std::sync::Once;

pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// Puts the terminal back: raw mode off, mouse off, main screen, cursor shown. Safe to call twice.
pub fn restore() {
    let _ = disable_raw_mode();
    let _ =
        execute!(stdout(), DisableMouseCapture, DisableBracketedPaste, LeaveAlternateScreen, crossterm::cursor::Show);
}

static HOOK: Once = Once::new();

/// Restores the terminal before the default panic message prints (installed once).
pub fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // Only a panic on the UI thread ends the program; worker panics are caught and reported.
            if std::thread::current().name() != Some("grail-worker") {
                restore();
            }
            previous(info);
        }));
    });
}

/// The terminal in TUI mode; restored on drop.
pub struct TerminalGuard {
    pub terminal: Term,
}

impl TerminalGuard {
    pub fn enter(mouse: bool) -> Result<TerminalGuard> {
        install_panic_hook();
        enable_raw_mode().context("cannot switch the terminal to raw mode")?;
        let mut out = stdout();
        let entered = execute!(out, EnterAlternateScreen, EnableBracketedPaste)
            .and_then(|()| if mouse { execute!(out, EnableMouseCapture) } else { Ok(()) });
        if let Err(e) = entered {
            restore();
            return Err(e).context("cannot set up the terminal");
        }
        match Terminal::new(CrosstermBackend::new(stdout())) {
            Ok(terminal) => Ok(TerminalGuard { terminal }),
            Err(e) => {
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
        restore();
    }
}
