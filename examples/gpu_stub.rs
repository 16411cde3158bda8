//! Test fixture, not a user example: `tests/tui_e2e.rs` runs it in a pseudo-terminal. It is the
//! explorer exactly as `grail` runs it on the bundled graph (the same event loop, worker and
//! screens), except that it offers a stand-in GPU instead of probing the machine, so the Batch tab
//! of a GPU machine can be checked on one without. It lives here so that no switch for it sits in
//! the product.

use grail::tui::gpu_offer::GpuOffer;

fn main() -> anyhow::Result<()> {
    let ws = grail::cli::default_workspace()?;
    let gpu = GpuOffer::Present { name: "Stub GPU".into() };
    grail::tui::run(ws, grail::tui::Options { mouse: false, threads: 0, gpu })
}
