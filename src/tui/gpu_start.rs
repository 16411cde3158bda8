//! The GPU opened in the background as soon as the explorer starts, where one is offered: the
//! driver, the context and every kernel module (compiled on a machine's first run, from the disk
//! cache after), so that the first step or batch on the GPU does not wait for them unexplained. The
//! status line says what the opening is doing until it is done.

use super::gpu_offer::GpuOffer;
use crate::gpu::kernels::MODULES;
use crate::gpu::startup::Notice;
use std::sync::{Arc, Mutex};

/// Where the background opening stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Stage {
    /// No GPU offered, so none is opened.
    NotOffered,
    /// Opening the driver and the context.
    Opening,
    /// Readying kernel module `done + 1` of `total`, compiling it or from the cache.
    Kernels { done: usize, total: usize, compiling: bool },
    /// Ready, after this many seconds.
    Ready { seconds: f64 },
    /// It cannot open; the labeling or batch that asks for it reports why.
    Failed,
}

/// The opening's stage, shared with the thread that opens.
#[derive(Clone, Debug)]
pub struct GpuStart(Arc<Mutex<Stage>>);

impl GpuStart {
    /// Nothing to open (tests, and machines that offer no GPU).
    pub fn none() -> GpuStart {
        GpuStart::at(Stage::NotOffered)
    }

    /// A fixed stage, for screens drawn in tests.
    pub fn at(stage: Stage) -> GpuStart {
        GpuStart(Arc::new(Mutex::new(stage)))
    }

    /// Starts opening the GPU on a thread of its own when `offer` has one.
    pub fn begin(offer: &GpuOffer) -> GpuStart {
        if !offer.is_present() {
            return GpuStart::none();
        }
        let start = GpuStart::at(Stage::Opening);
        let heard = start.clone();
        crate::gpu::startup::listen(move |notice| {
            if let Notice::Module { done, total, compiling, .. } = notice {
                heard.set(Stage::Kernels { done: *done, total: *total, compiling: compiling.is_some() });
            }
        });
        let opener = start.clone();
        let spawned = std::thread::Builder::new().name("grail-gpu-start".into()).spawn(move || {
            let names: Vec<&str> = MODULES.iter().map(|m| m.name).collect();
            let stage = match crate::gpu::prepare(&names) {
                Ok(gpu) => Stage::Ready { seconds: gpu.startup().total_seconds() },
                Err(_) => Stage::Failed,
            };
            opener.set(stage);
        });
        if spawned.is_err() {
            start.set(Stage::Failed);
        }
        start
    }

    fn set(&self, stage: Stage) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = stage;
    }

    pub fn stage(&self) -> Stage {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The status line's words while the GPU opens; none once it is open, failed or not offered.
    pub fn line(&self) -> Option<String> {
        match self.stage() {
            Stage::Opening => Some("starting the GPU: opening the driver and its context".into()),
            Stage::Kernels { done, total, compiling: true } => Some(format!(
                "starting the GPU (compiling kernels, first run only): kernel module {} of {total}",
                done + 1
            )),
            Stage::Kernels { done, total, compiling: false } => {
                Some(format!("starting the GPU: loading kernel module {} of {total}", done + 1))
            }
            Stage::NotOffered | Stage::Ready { .. } | Stage::Failed => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_follows_the_stage_and_goes_once_ready() {
        assert_eq!(GpuStart::none().line(), None);
        assert_eq!(GpuStart::begin(&GpuOffer::none()).stage(), Stage::NotOffered);
        let start = GpuStart::at(Stage::Opening);
        assert_eq!(start.line().unwrap(), "starting the GPU: opening the driver and its context");
        start.set(Stage::Kernels { done: 1, total: 5, compiling: true });
        assert_eq!(start.line().unwrap(), "starting the GPU (compiling kernels, first run only): kernel module 2 of 5");
        start.set(Stage::Kernels { done: 4, total: 5, compiling: false });
        assert_eq!(start.line().unwrap(), "starting the GPU: loading kernel module 5 of 5");
        start.set(Stage::Ready { seconds: 0.1 });
        assert_eq!(start.line(), None);
        start.set(Stage::Failed);
        assert_eq!(start.line(), None);
    }
}
