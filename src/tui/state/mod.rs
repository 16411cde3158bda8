//! Each tab's state and how it answers actions. Handlers never block: what takes time comes back
//! as an [`Effect::Job`] for the worker.

pub mod batch;
pub mod exceptions;
pub mod graph;
pub mod labels;
pub mod picture;
pub mod prompt;
pub mod query;

use super::worker::Job;
use prompt::Prompt;

/// What a handler asks the app to do.
#[derive(Debug)]
pub enum Effect {
    Job(Job),
    Prompt(Prompt),
    Info(String),
    Error(String),
}

/// Moves a selection within `0..len` by `delta`, clamped.
pub fn step(selected: usize, delta: isize, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    selected.saturating_add_signed(delta).min(len - 1)
}
