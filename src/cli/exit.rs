//! Exit statuses apart from success and failure.

/// The exit statuses, for `--help`.
pub const EXIT_STATUS: &str = "Exit status: 0 done; 1 could not run (an unreadable file, a bad value); 2 bad command \
                               line; 3 ran, but results disagree with what they were checked against (a query \
                               file's expected column, another engine, the CPU).";

/// A command ran to the end, but its results disagree with what they were checked against: exit
/// status 3, apart from 1 (the command could not run), so that a pipeline can tell the two apart.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Disagreement(pub String);

/// Exit status 3: see [`Disagreement`].
pub const DISAGREEMENT_EXIT: u8 = 3;
