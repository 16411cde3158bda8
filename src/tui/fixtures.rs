//! Programs for the pseudo-terminal tests (`tests/tui_e2e.rs` runs them through
//! `tests/fixtures/*.rs`): the explorer exactly as `grail` runs it, changed only where a test needs
//! it. They live behind a hidden entry of the library so that no switch for them sits in the
//! product.

use super::app::App;
use super::gpu_offer::GpuOffer;
use super::terminal::TerminalGuard;
use super::{Options, theme::Theme, ui};
use anyhow::Result;
use std::sync::Arc;

/// The explorer on the bundled graph, offering a stand-in GPU named "Stub GPU" instead of probing
/// the machine, so the Batch tab of a GPU machine can be checked on one without.
pub fn explorer_with_stub_gpu() -> Result<()> {
    let ws = crate::workspace::Workspace::bundled()?;
    let gpu = GpuOffer::Present { name: "Stub GPU".into() };
    super::run(ws, Options { mouse: false, threads: 0, gpu })
}

/// Enters the explorer's terminal mode as `grail` does, draws its first frame on the bundled graph,
/// then panics: the panic hook must put the terminal back.
pub fn panic_with_the_explorer_on_screen() -> Result<()> {
    let ws = Arc::new(crate::workspace::Workspace::bundled()?);
    let app = App::new(ws, Theme::detect(), false, GpuOffer::none());
    let mut guard = TerminalGuard::enter(false)?;
    guard.terminal.draw(|frame| {
        ui::render(frame, &app);
    })?;
    panic!("panicking on purpose, with the explorer on screen");
}
