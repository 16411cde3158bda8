//! The explorer's tests: an [`App`](super::app::App) driven in memory (keys, mouse, the worker's
//! messages) and drawn on ratatui's test backend, compared with snapshots and with what the engine
//! computed. The pseudo-terminal tests of the real program are in `tests/tui_e2e.rs`.

mod common;
mod gpu_start;
mod jobs;
mod keys;
mod lesson;
mod picture;
mod picture_render;
mod render;
mod status;
mod tryout;
