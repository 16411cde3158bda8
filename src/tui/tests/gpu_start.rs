//! While the offered GPU opens in the background, the status line says so (and that the kernels
//! are being compiled, on a machine's first run); once it is open the line is gone.

use super::common::{Harness, kegg_path};
use crate::tui::gpu_offer::GpuOffer;
use crate::tui::gpu_start::{GpuStart, Stage};
use crate::workspace::Workspace;

fn on_a_gpu_machine() -> Harness {
    let gpu = GpuOffer::Present { name: "NVIDIA H100 80GB HBM3".into() };
    Harness::offering(Workspace::open(&kegg_path(), None).unwrap(), gpu)
}

#[test]
fn the_status_line_shows_the_gpu_starting_until_it_is_ready() {
    let mut h = on_a_gpu_machine();
    h.app.gpu_start = GpuStart::at(Stage::Kernels { done: 0, total: 5, compiling: true });
    for (width, height) in [(80, 24), (140, 45)] {
        let screen = h.render(width, height).replace('\n', " ");
        let flat: String = screen.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("starting the GPU (compiling kernels, first run only): kernel module 1 of 5"),
            "{width}x{height}:\n{}",
            h.render(width, height)
        );
    }

    h.app.gpu_start = GpuStart::at(Stage::Opening);
    assert!(h.render(80, 24).contains("starting the GPU: opening the driver"));

    h.app.gpu_start = GpuStart::at(Stage::Ready { seconds: 0.12 });
    assert!(!h.render(80, 24).contains("starting the GPU"));
}

#[test]
fn a_label_step_during_the_start_shows_both_the_step_and_why_it_waits() {
    let mut h = on_a_gpu_machine();
    h.app.gpu_start = GpuStart::at(Stage::Kernels { done: 2, total: 5, compiling: false });
    h.app.busy = Some(crate::tui::app::Busy {
        what: "stepping one level".into(),
        cancellable: true,
        progress: None,
        since: std::time::Instant::now(),
    });
    let screen = h.render(80, 24);
    assert!(screen.contains("stepping one level"), "{screen}");
    assert!(screen.contains("starting the GPU: loading kernel module 3 of 5"), "{screen}");
}
