//! One file per screen, plus the chrome (tabs, status, footer) and the overlays.

pub mod batch;
pub mod batch_results;
pub mod bfs_frontier;
pub mod chrome;
pub mod exceptions;
pub mod graph;
pub mod help;
pub mod help_notes;
pub mod labels;
pub mod picture;
pub mod prompt;
pub mod query;

use ratatui::widgets::{Block, BorderType};

/// A titled panel.
pub fn panel(title: &str) -> Block<'_> {
    Block::bordered().border_type(BorderType::Rounded).title(format!(" {title} "))
}

/// How the settings lists (Labels, Batch) are used, said where they are.
pub const SETTINGS_HINT: &str = "j/k select, Enter changes";

/// The cursor in front of a settings row: visible on the selected one even without colour.
pub fn cursor(selected: bool) -> &'static str {
    if selected { "› " } else { "  " }
}
