//! Test fixture, not a user example: `tests/tui_e2e.rs` runs it in a pseudo-terminal. It enters the
//! explorer's terminal mode exactly as `grail` does, draws the explorer's first frame on the bundled
//! graph, then panics, so the test can check that the panic hook puts the terminal back. It lives
//! here so that no switch for it sits in the product's event loop.

use grail::tui::app::App;
use grail::tui::gpu_offer::GpuOffer;
use grail::tui::terminal::TerminalGuard;
use grail::tui::{theme::Theme, ui};
use std::sync::Arc;

fn main() -> anyhow::Result<()> {
    let ws = Arc::new(grail::cli::default_workspace()?);
    let app = App::new(ws, Theme::detect(), false, GpuOffer::none());
    let mut guard = TerminalGuard::enter(false)?;
    guard.terminal.draw(|frame| {
        ui::render(frame, &app);
    })?;
    panic!("panicking on purpose, with the explorer on screen");
}
